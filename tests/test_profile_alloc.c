// SPDX-License-Identifier: GPL-2.0
/*
 * The allocator under both kernel profiles (issue 14, items 1-3): each
 * test boots the same machine as "3.5" and as "6.12" and asserts what
 * the switch changes. alloc_cma: who may count and take CMA pages;
 * cma_balance: movable requests take CMA first while it holds over half
 * the free pages; highatomic: no RESERVE blocks, HIGHATOMIC ones on
 * demand, 6.12's stealing rules; watermark_boost: a steal boosts the
 * marks until kswapd has reclaimed.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

#define MAX_PAGES	40000

static const char *const profiles[] = { "3.5", "6.12" };
static const char *const only_612[] = { "6.12" };
static const char *const around_44[] = { "4.3", "4.4", "6.12" };

static bool is_612(const char *k)
{
	return !strcmp(k, "6.12");
}

static struct cma_mm *boot_profile(const char *kernel, struct test_shape shape)
{
	struct cma_mm *mm;

	shape.metadata_only = true;
	shape.kernel = kernel;
	mm = test_mm_boot(&shape);
	assert_string_equal(cma_mm_kernel(mm), kernel);
	return mm;
}

/* The 64 MiB machine of the CMA tests (DMA below 16 MiB, 16 MiB of CMA at 32 MiB), metadata only. */
static struct cma_mm *cma_machine(const char *kernel)
{
	return boot_profile(kernel, (struct test_shape){ TEST_CMA_32M });
}

static bool page_is_cma(struct cma_mm *mm, struct cma_page *page)
{
	return is_migrate_cma(get_pageblock_migratetype(mm, cma_page_to_pfn(mm, page)));
}

static void free_all(struct cma_mm *mm, struct cma_page **pages, unsigned long nr)
{
	while (nr)
		cma_free_pages(mm, pages[--nr], 0);
}

/* ---- item 1: ALLOC_CMA ---- */

/*
 * Expect (__zone_watermark_ok; "mm: cma: remove watermark hacks", 3.8):
 * a mark between the zone's free pages less its free CMA pages and its
 * free pages is met for a movable request in both profiles, and for an
 * unmovable one only under 3.5, where free CMA pages count for everyone.
 */
static void zone_watermark_ok_counts_cma_for_movable_only(const char *kernel, unsigned k)
{
	struct cma_mm *mm = cma_machine(kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long free = zone_page_state(z, NR_FREE_PAGES);
	unsigned long cma = zone_page_state(z, NR_FREE_CMA_PAGES);
	unsigned long mark = free - cma / 2;

	assert_true(cma > 1000);
	assert_true(zone_watermark_ok(z, 0, mark, ZONE_NORMAL, ALLOC_CMA));
	assert_int_equal(zone_watermark_ok(z, 0, mark, ZONE_NORMAL, 0), !is_612(kernel));
	cma_mm_destroy(mm);
}

/*
 * Expect (get_page_from_freelist with ALLOC_CMA): unmovable requests until
 * the allocator refuses leave the Normal zone's non-CMA free pages under
 * its min mark in v3.5 (free CMA pages met the mark for them: the
 * "watermark hack" 3.8 removed), and at or above it under 6.12. CMA
 * pages stay free in both: only movable requests take them.
 */
static void alloc_pages_unmovable_stops_at_min_without_cma(const char *kernel, unsigned k)
{
	struct cma_page **pages = calloc(MAX_PAGES, sizeof(*pages));

	assert_non_null(pages);
	struct cma_mm *mm = cma_machine(kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long nr = test_alloc_all(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, pages, MAX_PAGES);
	unsigned long cma = zone_page_state(z, NR_FREE_CMA_PAGES);
	unsigned long other = zone_page_state(z, NR_FREE_PAGES) - cma;

	assert_int_equal(cma, mm->totalcma_pages);
	if (is_612(kernel))
		assert_true(other >= min_wmark_pages(z));
	else
		assert_true(other < min_wmark_pages(z));
	for (unsigned long i = 0; i < nr; i++)
		assert_false(page_is_cma(mm, pages[i]));
	assert_verify(mm);
	free_all(mm, pages, nr);
	cma_mm_destroy(mm);
	free(pages);
}

/*
 * Expect (alloc_contig_range; "mm: cma: remove watermark hacks", 3.8):
 * with the zone's free pages just above its low mark, taking 1024 pages
 * of the default area (which the zone's page cache partly fills) makes
 * v3.5 reclaim (__reclaim_pages: the marks raised by the range's size)
 * and leaves min_cma_pages at 0 after; 6.12 reclaims nothing.
 */
static void alloc_contig_range_reclaims_only_in_35(const char *kernel, unsigned k)
{
	struct cma_mm *mm = boot_profile(kernel, (struct test_shape){
		.dma_end = 16 * MiB, .pageblock_order = 9, .cmdline = "cma=8M" });
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	unsigned long base = cma_area_base_pfn(cma), nr = mm->end_pfn - mm->base_pfn;
	struct zone *z = page_zone(mm, pfn_to_page(mm, base));
	struct fake_owner *o = owner_create(mm, false, nr);
	uint64_t reclaimed = 0;

	for (uint64_t i = 0; zone_page_state(z, NR_FREE_PAGES) > low_wmark_pages(z) + 64; i++)
		assert_non_null(owner_fault(o, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1));
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	assert_int_equal(cma_alloc_contig_range(mm, base, base + 1024, CMA_MIGRATE_CMA), 0);
	assert_int_equal(cma_mm_counter(mm, "pgsteal_direct_normal", &reclaimed), 0);
	assert_int_equal(reclaimed > 0, !is_612(kernel));
	assert_int_equal(z->min_cma_pages, 0);
	assert_true(owner_check(o) >= 0);
	assert_verify(mm);
	cma_free_contig_range(mm, base, 1024);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static void set_marks(struct zone *z, unsigned long min, unsigned long low)
{
	z->watermark[WMARK_MIN] = min;
	z->watermark[WMARK_LOW] = low;
	if (z->watermark[WMARK_HIGH] < low)
		z->watermark[WMARK_HIGH] = low;
}

/* isolate_freepages_range over [pfn, pfn + nr), pages given back if taken: did it take them? */
static bool isolate_and_give_back(struct cma_mm *mm, unsigned long pfn, unsigned long nr)
{
	if (!isolate_freepages_range(mm, pfn, pfn + nr))
		return false;
	for (unsigned long p = pfn; p < pfn + nr; p++)
		cma_free_pages(mm, pfn_to_page(mm, p), 0);
	cma_drain_all_pages(mm);
	return true;
}

/* The first free block of the top order on the zone's movable list. */
static unsigned long free_top_block_pfn(struct cma_mm *mm, struct zone *z)
{
	struct cma_page *head =
		page_list_first(mm, &z->free_area[mm->max_order - 1].free_list[MIGRATE_MOVABLE]);

	assert_non_null(head);
	return cma_page_to_pfn(mm, head);
}

/*
 * Expect (split_free_page against 6.12's __isolate_free_page): a free
 * block is split off while the zone stays above low + 2^order in v3.5,
 * above min + 2^order (counting free CMA pages) under 6.12, where a block
 * of an isolated pageblock is taken whatever the marks: alloc_contig_range
 * no longer reclaims first (__reclaim_pages) to make room.
 */
static void isolate_freepages_range_watermark_follows_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = boot_profile(kernel, (struct test_shape){ .pageblock_order = 9 });
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long wm[NR_WMARK], free = zone_page_state(z, NR_FREE_PAGES);
	unsigned long pfn = free_top_block_pfn(mm, z);

	memcpy(wm, z->watermark, sizeof(wm));
	set_marks(z, wm[WMARK_MIN], free);
	assert_int_equal(isolate_and_give_back(mm, pfn, 512), is_612(kernel));
	set_marks(z, free, free);
	assert_false(isolate_and_give_back(mm, pfn, 512));
	assert_int_equal(cma_start_isolate_page_range(mm, pfn, pfn + 512, CMA_MIGRATE_MOVABLE), 0);
	assert_int_equal(isolate_and_give_back(mm, pfn, 512), is_612(kernel));
	cma_undo_isolate_page_range(mm, pfn, pfn + 512, CMA_MIGRATE_MOVABLE);
	memcpy(z->watermark, wm, sizeof(wm));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (split_free_page, "mm: cma: skip watermarks check for already
 * isolated blocks in split_free_page()", 3.8; 4.14's __isolate_free_page):
 * with the zone's marks above its free pages, the free block of an
 * isolated pageblock is still taken from 3.8 on (4.14, 6.12), refused
 * in 3.5 and 3.7. A full Android 4.14 zone failed every cma_alloc
 * range here before.
 */
static void isolate_freepages_range_isolated_block_skips_watermark_from_38(void **state)
{
	static const char *const releases[] = { "3.5", "3.7", "3.8", "4.14", "6.12" };

	for (unsigned r = 0; r < 5; r++) {
		struct cma_mm *mm = boot_profile(releases[r], (struct test_shape){ .pageblock_order = 9 });
		struct zone *z = &mm->zones[ZONE_NORMAL];
		unsigned long wm[NR_WMARK], pfn = free_top_block_pfn(mm, z);

		memcpy(wm, z->watermark, sizeof(wm));
		/* min and low at the free count: no split passes a mark */
		set_marks(z, zone_page_state(z, NR_FREE_PAGES), zone_page_state(z, NR_FREE_PAGES));
		assert_int_equal(cma_start_isolate_page_range(mm, pfn, pfn + 512, CMA_MIGRATE_MOVABLE), 0);
		assert_int_equal(isolate_and_give_back(mm, pfn, 512), r >= 2);
		cma_undo_isolate_page_range(mm, pfn, pfn + 512, CMA_MIGRATE_MOVABLE);
		memcpy(z->watermark, wm, sizeof(wm));
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/* ---- item 2: __rmqueue balancing ---- */

/*
 * Expect (__rmqueue, "conditionally prefer cma pageblocks for movable
 * allocations", 5.7): with 40 of the Normal zone's 48 MiB in CMA, a
 * movable page comes from CMA under 6.12 and from the movable lists
 * under 3.5; with 16 of 48 MiB in CMA (under half the free pages) it
 * comes from the movable lists in both. At order 0 and order 2.
 */
static void alloc_pages_movable_prefers_cma_over_half_free(const char *kernel, unsigned k)
{
	static const uint64_t cma_sizes[] = { 40 * MiB, 16 * MiB };

	for (unsigned s = 0; s < 2; s++) {
		struct cma_mm *mm = boot_profile(kernel, (struct test_shape){
			.dma_end = 16 * MiB, .cma_base = 16 * MiB, .cma_size = cma_sizes[s] });
		struct zone *z = &mm->zones[ZONE_NORMAL];
		bool over_half = zone_page_state(z, NR_FREE_CMA_PAGES) >
				 zone_page_state(z, NR_FREE_PAGES) / 2;

		assert_int_equal(over_half, s == 0);
		for (unsigned order = 0; order <= 2; order += 2) {
			struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, order);

			assert_non_null(p);
			assert_int_equal(page_is_cma(mm, p), is_612(kernel) && over_half);
			cma_free_pages(mm, p, order);
		}
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/* ---- releases between 3.5 and 6.12 ---- */

/*
 * Expect: a release is 3.5 plus each switch merged by then. 4.8 (the
 * ZONE_CMA letter's kernel) has ALLOC_CMA (3.8), the generic areas
 * (3.17) and HIGHATOMIC (4.4) but not the 5.8 balancing nor the 5.0
 * boost; 5.8 has the balancing; the ends are the two full profiles. A
 * name is spelled as the library does ("4.08" is 4.8).
 */
static void kernel_profile_find_release_has_switches_up_to_it(void **state)
{
	const struct kernel_profile *k48 = kernel_profile_find("4.8");
	const struct kernel_profile *k58 = kernel_profile_find("5.8");
	const struct kernel_profile *k35 = kernel_profile_find("3.5");
	const struct kernel_profile *k612 = kernel_profile_find("6.12");

	assert_non_null(k48);
	assert_string_equal(k48->name, "4.8");
	assert_int_equal(k48->release, 408);
	assert_true(k48->alloc_cma && k48->cma_generic && k48->highatomic && k48->arm64);
	assert_false(k48->cma_balance || k48->watermark_boost || k48->contig_v6 ||
		     k48->contig_pages || k48->cma_stats || k48->proc_v6);
	assert_true(k58->cma_balance && k58->watermark_boost && k58->contig_pages);
	assert_false(k58->boot_free_to_tail || k58->longterm_migrate);
	assert_false(k35->alloc_cma || k35->cma_generic || k35->highatomic || k35->cma_balance ||
		     k35->watermark_boost || k35->contig_v6 || k35->contig_pages ||
		     k35->boot_free_to_tail || k35->cma_stats || k35->longterm_migrate ||
		     k35->batched_unmap_flush || k35->migrate_wait_at_once || k35->proc_v6 ||
		     k35->arm64 || k35->contig_drain_all || k35->drain_pcp_wq || k35->drain_pcp_remote ||
		     k35->contig_busy_test);
	assert_true(k612->alloc_cma && k612->cma_generic && k612->highatomic && k612->cma_balance &&
		    k612->watermark_boost && k612->contig_v6 && k612->contig_pages &&
		    k612->boot_free_to_tail && k612->cma_stats && k612->longterm_migrate &&
		    k612->batched_unmap_flush && k612->migrate_wait_at_once && k612->proc_v6 &&
		    k612->arm64 && k612->contig_drain_all && k612->drain_pcp_wq && k612->drain_pcp_remote &&
		    k612->contig_busy_test);
	assert_ptr_equal(kernel_profile_find(NULL), k35);
	assert_string_equal(cma_kernel_find("4.08"), "4.8");
	assert_string_equal(cma_kernel_find("3.19"), "3.19");
	assert_string_equal(cma_kernel_find("4.20"), "4.20");
}

/*
 * Expect: alloc_contig_range's busy-range line by release: v3.5's warning
 * until 3.17, 3.18's "PFNs busy" at KERN_INFO ("mm: alloc_contig_range:
 * demote pages busy message from warn to info"), none from 5.13
 * ("mm/page_alloc: drop pr_info_ratelimited() in alloc_contig_range()").
 */
static void kernel_profile_find_busy_message_by_release(void **state)
{
	assert_false(kernel_profile_find("3.17")->contig_busy_info);
	assert_true(kernel_profile_find("3.18")->contig_busy_info && kernel_profile_find("4.14")->contig_busy_info);
	assert_false(kernel_profile_find("5.12")->contig_busy_quiet);
	assert_true(kernel_profile_find("5.13")->contig_busy_quiet && kernel_profile_find("6.12")->contig_busy_quiet);
}

/*
 * Expect: cma_kernel_has() answers by the switch (alloc_contig_pages()
 * from 5.5, the generic areas from 3.17), whatever spelling of the
 * release; -EINVAL for a release without a profile or an unknown change.
 */
static void cma_kernel_has_by_the_switch(void **state)
{
	assert_int_equal(cma_kernel_has("3.5", "contig_pages"), 0);
	assert_int_equal(cma_kernel_has("5.4", "contig_pages"), 0);
	assert_int_equal(cma_kernel_has("5.5", "contig_pages"), 1);
	assert_int_equal(cma_kernel_has("5.05", "contig_pages"), 1);
	assert_int_equal(cma_kernel_has("6.12", "contig_pages"), 1);
	assert_int_equal(cma_kernel_has("3.16", "cma_generic"), 0);
	assert_int_equal(cma_kernel_has("3.17", "cma_generic"), 1);
	assert_int_equal(cma_kernel_has("6.13", "contig_pages"), -EINVAL);
	assert_int_equal(cma_kernel_has(NULL, "contig_pages"), -EINVAL);
	assert_int_equal(cma_kernel_has("6.12", "no_such_change"), -EINVAL);
	assert_int_equal(cma_kernel_has("6.12", NULL), -EINVAL);
}

/*
 * Expect: the per-CPU drains of each era. 3.7 drains only its own
 * CPU's pagevecs before alloc_contig_range migrates, 3.8 every CPU's;
 * drain_all_pages IPIs up to 4.10, queues work items from 4.11 ("mm,
 * page_alloc: drain per-cpu pages from workqueue context") to 5.19 and
 * drains remotely from 6.0 ("mm/page_alloc: remotely drain per-cpu
 * lists"). 4.14, the RPi and Android sources' kernel, has work items.
 * From 4.11 on drains take turns (drain_pcp_mutex).
 */
static void kernel_profile_find_drains_by_release(void **state)
{
	const struct kernel_profile *k37 = kernel_profile_find("3.7"), *k38 = kernel_profile_find("3.8");
	const struct kernel_profile *k410 = kernel_profile_find("4.10"), *k411 = kernel_profile_find("4.11");
	const struct kernel_profile *k414 = kernel_profile_find("4.14"), *k519 = kernel_profile_find("5.19");
	const struct kernel_profile *k60 = kernel_profile_find("6.0"), *k35 = kernel_profile_find("3.5");

	assert_false(k37->contig_drain_all);
	assert_true(k38->contig_drain_all && k414->contig_drain_all);
	assert_false(k38->drain_pcp_wq || k410->drain_pcp_wq || k410->drain_pcp_remote);
	assert_true(k411->drain_pcp_wq && k414->drain_pcp_wq && k519->drain_pcp_wq);
	assert_false(k411->drain_pcp_remote || k414->drain_pcp_remote || k519->drain_pcp_remote);
	assert_true(k60->drain_pcp_remote);
	/* one drain at a time (pcpu_drain_mutex) from the work items on, kept by the remote drain */
	assert_false(k35->drain_pcp_mutex || k410->drain_pcp_mutex);
	assert_true(k411->drain_pcp_mutex && k414->drain_pcp_mutex && k60->drain_pcp_mutex &&
		    kernel_profile_find("6.12")->drain_pcp_mutex);
	assert_false(kernel_profile_find("4.4")->contig_busy_test);
	assert_true(kernel_profile_find("4.5")->contig_busy_test && k414->contig_busy_test);
}

/*
 * Expect: a release before 3.5 or after 6.12, or one that never was, or
 * not a release at all, has no profile, and cma_mm_create refuses it
 * with -EINVAL.
 */
static void cma_mm_create_refuses_release_out_of_range(void **state)
{
	static const char *const bad[] = { "3.4", "2.6", "6.13", "7.0", "4.21", "5.20", "3.20",
					   "4", "4.", ".8", "4.8.1", "4.8-rc3", "x", "" };
	static const struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .quiet = true };
	struct cma_mm *mm = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_null(cma_kernel_find(bad[i]));
		cfg.kernel = bad[i];
		assert_int_equal(cma_mm_create(&cfg, &mm), -EINVAL);
	}
}

/*
 * Expect (__rmqueue of 4.8: __rmqueue_smallest, then
 * __rmqueue_cma_fallback): with 40 of the Normal zone's 48 MiB in CMA, a
 * 4.8 or 5.7 machine still gives a movable page from the movable lists,
 * as 3.5 does; 5.8 ("mm,page_alloc,cma: conditionally prefer cma
 * pageblocks for movable allocations") takes it from CMA, as 6.12 does.
 */
static void alloc_pages_movable_cma_first_from_58(void **state)
{
	static const char *const releases[] = { "4.8", "5.7", "5.8" };

	for (unsigned r = 0; r < 3; r++) {
		struct cma_mm *mm = boot_profile(releases[r], (struct test_shape){
			.dma_end = 16 * MiB, .cma_base = 16 * MiB, .cma_size = 40 * MiB });
		struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);

		assert_non_null(p);
		if (page_is_cma(mm, p) != (r == 2))
			fail_msg("%s: the movable page is %sin CMA", releases[r], page_is_cma(mm, p) ? "" : "not ");
		cma_free_pages(mm, p, 0);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (__rmqueue_fallback before 4.1; __rmqueue_cma_fallback from
 * 4.1, dc67647b78b9): once a movable request finds no block of its own
 * type, 3.17 and 4.0 take each order-1 page from the largest free CMA
 * block, so the 16 MiB area's four 4 MiB blocks are broken one by one by
 * four requests; 4.1 takes the smallest CMA block that fits, so all four
 * come from the block the first was split from.
 */
static void rmqueue_cma_fallback_smallest_from_41(void **state)
{
	static const char *const releases[] = { "3.17", "4.0", "4.1" };

	for (unsigned r = 0; r < 3; r++) {
		struct cma_mm *mm = cma_machine(releases[r]);
		struct cma_page **held = NULL, *p;
		size_t nr = 0, cap = 0;
		unsigned long first_block = 0;
		unsigned blocks = 0, cma = 0;
		bool seen[64] = { false };

		while (cma < 4) {
			p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, 1);
			assert_non_null(p);
			if (nr == cap) {
				cap = cap ? 2 * cap : 1024;
				held = realloc(held, cap * sizeof(*held));
				assert_non_null(held);
			}
			held[nr++] = p;
			if (page_is_cma(mm, p)) {
				unsigned long block = cma_page_to_pfn(mm, p) >> (mm->max_order - 1);

				assert_true(block < 64);
				if (!cma++)
					first_block = block;
				blocks += !seen[block];
				seen[block] = true;
			}
		}
		if (blocks != (r == 2 ? 1u : 4u))
			fail_msg("%s: 4 fallback pages from %u of the area's 4 MiB blocks, expected %u",
				 releases[r], blocks, r == 2 ? 1u : 4u);
		assert_true(seen[first_block]);
		while (nr)
			cma_free_pages(mm, held[--nr], 1);
		free(held);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/* A 64 MiB machine of @kernel with no watermark and every page in use (@f->pages). */
struct full_machine {
	struct cma_mm *mm;
	struct cma_page **pages;
	unsigned long nr, block;	/* pages held; the first MOVABLE pageblock */
};

static void full_machine(struct full_machine *f, const char *kernel)
{
	f->pages = calloc(MAX_PAGES, sizeof(*f->pages));
	assert_non_null(f->pages);
	f->mm = test_mm(.size = 64 * MiB, .metadata_only = true, .kernel = kernel);
	test_zero_watermarks(f->mm);
	f->nr = test_alloc_all(f->mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, f->pages, MAX_PAGES);
	f->block = 0;
	for (unsigned long pfn = f->mm->base_pfn; pfn < f->mm->end_pfn && !f->block;
	     pfn += f->mm->pageblock_nr_pages)
		if (get_pageblock_migratetype(f->mm, pfn) == MIGRATE_MOVABLE)
			f->block = pfn;
	assert_true(f->block != 0);
}

/* Free the held pages at offsets @off of the block for which @keep is false, and drain. */
static void full_machine_free(struct full_machine *f, bool (*keep)(unsigned long off))
{
	for (unsigned long i = 0; i < f->nr; i++) {
		unsigned long off;

		if (!f->pages[i])
			continue;
		off = cma_page_to_pfn(f->mm, f->pages[i]) - f->block;
		if (off < f->mm->pageblock_nr_pages && !keep(off)) {
			cma_free_pages(f->mm, f->pages[i], 0);
			f->pages[i] = NULL;
		}
	}
	cma_drain_all_pages(f->mm);
}

static void full_machine_destroy(struct full_machine *f)
{
	assert_verify(f->mm);
	for (unsigned long i = 0; i < f->nr; i++)
		if (f->pages[i])
			cma_free_pages(f->mm, f->pages[i], 0);
	cma_mm_destroy(f->mm);
	free(f->pages);
}

static bool keep_past_8(unsigned long off)
{
	return off >= 8;
}

/*
 * Expect (0cbef29a7821, 3.13; 3a1086f, 4.0): with every page in use but
 * an order-3 block freed into a pageblock retyped UNMOVABLE, an order-1
 * movable request falls back to it without claiming the block (order 3
 * is under half a pageblock); the split remainder (orders 2 and 1) goes
 * to the requester's MOVABLE lists under 3.12 and 4.0, and stays on the
 * UNMOVABLE lists from 3.13 to 3.19.
 */
static void rmqueue_fallback_remainder_keeps_type_313_to_319(void **state)
{
	static const char *const releases[] = { "3.12", "3.13", "3.19", "4.0" };

	for (unsigned r = 0; r < 4; r++) {
		int expected = r == 1 || r == 2 ? MIGRATE_UNMOVABLE : MIGRATE_MOVABLE;
		struct full_machine f;
		struct cma_page *p;

		full_machine(&f, releases[r]);
		set_pageblock_migratetype(f.mm, f.block, MIGRATE_UNMOVABLE);
		full_machine_free(&f, keep_past_8);
		p = cma_alloc_pages(f.mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, 1);
		assert_non_null(p);
		assert_int_equal(cma_page_to_pfn(f.mm, p), f.block);
		assert_int_equal(get_pageblock_migratetype(f.mm, f.block), MIGRATE_UNMOVABLE);
		for (unsigned long b = 2; b < 8; b *= 2) {
			struct cma_page *buddy = pfn_to_page(f.mm, f.block + b);

			assert_true(page_flags(buddy) & PG_buddy);
			if ((int)buddy->private != expected)
				fail_msg("%s: the remainder at +%lu on type %d's list, expected %d",
					 releases[r], b, (int)buddy->private, expected);
		}
		cma_free_pages(f.mm, p, 1);
		full_machine_destroy(&f);
	}
}

static bool keep_every_eighth(unsigned long off)
{
	return off % 8 == 7;
}

/*
 * Expect (9c0415e, 4.0): with every page in use but seven of every eight
 * of a MOVABLE block (free pieces of order 2 at most, under half a
 * pageblock), unmovable requests fall back into it; 3.19 leaves the
 * block MOVABLE (no move for so small a split), 4.0 moves its free pages
 * and claims it, 7/8 of it being free.
 */
static void rmqueue_fallback_unmovable_claims_block_from_40(void **state)
{
	static const char *const releases[] = { "3.19", "4.0" };

	for (unsigned r = 0; r < 2; r++) {
		struct full_machine f;
		struct cma_page *p;

		full_machine(&f, releases[r]);
		assert_true(f.mm->pageblock_order / 2 > 2);
		full_machine_free(&f, keep_every_eighth);
		p = cma_alloc_pages(f.mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);
		assert_non_null(p);
		assert_true(cma_page_to_pfn(f.mm, p) - f.block < f.mm->pageblock_nr_pages);
		if (get_pageblock_migratetype(f.mm, f.block) !=
		    (r ? MIGRATE_UNMOVABLE : MIGRATE_MOVABLE))
			fail_msg("%s: the block is of type %d after the unmovable fallback",
				 releases[r], get_pageblock_migratetype(f.mm, f.block));
		cma_free_pages(f.mm, p, 0);
		full_machine_destroy(&f);
	}
}

/* ---- item 3: MIGRATE_HIGHATOMIC, the 6.12 stealing rules, watermark boosting ---- */

/*
 * Expect (setup_zone_migrate_reserve, gone in 4.4): v3.5 marks RESERVE
 * pageblocks at boot; 6.12 has none, and no HIGHATOMIC block either
 * until a high-order atomic request reserves one.
 */
static void boot_reserve_blocks_only_in_35(const char *kernel, unsigned k)
{
	struct cma_mm *mm = cma_machine(kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];

	if (is_612(kernel)) {
		assert_int_equal(test_count_pageblocks(mm, MIGRATE_HIGHATOMIC), 0);
		assert_int_equal(z->nr_reserved_highatomic, 0);
		assert_string_equal(migratetype_name_of(mm, MIGRATE_HIGHATOMIC), "HighAtomic");
	} else {
		assert_true(test_count_pageblocks(mm, MIGRATE_RESERVE) > 0);
		assert_true(z->nr_migrate_reserve_block > 0);
		assert_string_equal(migratetype_name_of(mm, MIGRATE_RESERVE), "Reserve");
	}
	cma_mm_destroy(mm);
}

/* A 64 MiB one-zone machine of 256 KiB pageblocks, so that 1% of it is a few blocks. */
static struct cma_mm *small_block_machine(const char *kernel)
{
	return boot_profile(kernel, (struct test_shape){ .pageblock_order = 6 });
}

/* Raise low and high above the zone's free pages: the first try fails, the slow path's at min may not. */
static void force_slowpath(struct zone *z)
{
	unsigned long over = zone_page_state(z, NR_FREE_PAGES) + 1000;

	z->watermark[WMARK_LOW] = over;
	z->watermark[WMARK_HIGH] = over;
}

/*
 * Expect (reserve_highatomic_pageblock, 4.4): under 6.12 an order-2
 * GFP_ATOMIC request served by the slow path reserves its pageblock as
 * HIGHATOMIC (nr_reserved_highatomic one pageblock, within 1% of the
 * zone); its free pages then no longer count for an ordinary request's
 * watermark. Under 3.5 the block keeps its type. Then (should_reclaim_
 * retry's unreserve before OOM) unmovable requests until the allocator
 * refuses take the reserve back.
 */
static void alloc_pages_atomic_high_order_reserves_pageblock(const char *kernel, unsigned k)
{
	struct cma_page **pages = calloc(MAX_PAGES, sizeof(*pages));

	assert_non_null(pages);
	struct cma_mm *mm = small_block_machine(kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long wm[NR_WMARK], nr;
	struct cma_page *p;
	int mt;

	memcpy(wm, z->watermark, sizeof(wm));
	assert_true(highatomic_reserve_limit(z) >= mm->pageblock_nr_pages || !is_612(kernel));
	force_slowpath(z);
	p = cma_alloc_pages(mm, CMA_GFP_ATOMIC, 2);
	assert_non_null(p);
	memcpy(z->watermark, wm, sizeof(wm));
	mt = get_pageblock_migratetype(mm, cma_page_to_pfn(mm, p));
	if (is_612(kernel)) {
		assert_int_equal(mt, MIGRATE_HIGHATOMIC);
		assert_int_equal(z->nr_reserved_highatomic, mm->pageblock_nr_pages);
		assert_int_equal(test_count_pageblocks(mm, MIGRATE_HIGHATOMIC), 1);
		assert_true(atomic_load(&z->free_highatomic) > 0);
		/* a watermark the reserve would meet is met only for reserve users */
		assert_false(zone_watermark_ok(z, 0, zone_page_state(z, NR_FREE_PAGES) - 1,
					       ZONE_NORMAL, 0));
		assert_true(zone_watermark_ok(z, 0, zone_page_state(z, NR_FREE_PAGES) - 1,
					      ZONE_NORMAL, ALLOC_HARDER));
	} else {
		assert_int_not_equal(mt, MIGRATE_RESERVE);
		assert_int_equal(z->nr_reserved_highatomic, 0);
	}
	assert_verify(mm);
	nr = test_alloc_all(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, pages, MAX_PAGES);
	assert_int_equal(z->nr_reserved_highatomic, 0);
	assert_int_equal(test_count_pageblocks(mm, MIGRATE_HIGHATOMIC) > 0, !is_612(kernel));
	assert_verify(mm);
	free_all(mm, pages, nr);
	cma_free_pages(mm, p, 2);
	cma_mm_destroy(mm);
	free(pages);
}

/*
 * Expect (rmqueue_buddy's first try, 4.4): under 6.12 the next order-2
 * GFP_ATOMIC request in the slow path comes from the HIGHATOMIC block the
 * first one reserved, before any other free block, and reserves no more.
 */
static void alloc_pages_atomic_uses_highatomic_reserve(void **state)
{
	struct cma_mm *mm = small_block_machine("6.12");
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long wm[NR_WMARK];
	struct cma_page *p, *q;
	unsigned long block;

	memcpy(wm, z->watermark, sizeof(wm));
	force_slowpath(z);
	p = cma_alloc_pages(mm, CMA_GFP_ATOMIC, 2);
	assert_non_null(p);
	block = cma_page_to_pfn(mm, p) & ~(mm->pageblock_nr_pages - 1);
	q = cma_alloc_pages(mm, CMA_GFP_ATOMIC, 2);
	assert_non_null(q);
	memcpy(z->watermark, wm, sizeof(wm));
	assert_int_equal(cma_page_to_pfn(mm, q) & ~(mm->pageblock_nr_pages - 1), block);
	assert_int_equal(z->nr_reserved_highatomic, mm->pageblock_nr_pages);
	cma_free_pages(mm, q, 2);
	cma_free_pages(mm, p, 2);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * The machine full of order-0 movable pages (not on the LRU) with
 * watermarks zeroed but for a high mark of @high, then the 8 pages from
 * the first held pfn aligned to 8 freed into one order-3 buddy of a
 * MOVABLE pageblock. Returns that pfn.
 */
static unsigned long one_free_order3(struct cma_mm *mm, struct cma_page **pages, unsigned long *nr,
				     unsigned long high)
{
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long start = 0;

	test_zero_watermarks(mm);
	z->watermark[WMARK_HIGH] = high;
	*nr = test_alloc_all(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, pages, MAX_PAGES);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), 0);
	/* sort out the pfns: pages[] is in allocation order, not pfn order */
	for (unsigned long i = 0; i < *nr; i++) {
		unsigned long pfn = cma_page_to_pfn(mm, pages[i]);

		if (!start && !(pfn & 7) && pfn >= mm->pageblock_nr_pages)
			start = pfn;
	}
	assert_true(start);
	for (unsigned long i = 0; i < *nr;) {
		unsigned long pfn = cma_page_to_pfn(mm, pages[i]);

		if (pfn >= start && pfn < start + 8) {
			cma_free_pages(mm, pages[i], 0);
			pages[i] = pages[--*nr];
		} else {
			i++;
		}
	}
	cma_drain_all_pages(mm);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), 8);
	assert_int_equal(get_pageblock_migratetype(mm, start), MIGRATE_MOVABLE);
	return start;
}

/*
 * Expect (__rmqueue_fallback of v3.5 against 6.12's can_steal_fallback and
 * try_to_steal_block): an unmovable page from the only free block, an
 * order-3 buddy in a MOVABLE pageblock of pages in use that are not on
 * the LRU. v3.5 steals no block below pageblock_order / 2 for an
 * unmovable request, and leaves the rest on the unmovable lists; 6.12
 * may steal for any unmovable request and claims the block, as its
 * pages in use count as alike (at least half of it).
 */
static void rmqueue_fallback_unmovable_claims_block_612(const char *kernel, unsigned k)
{
	struct cma_page **pages = calloc(MAX_PAGES, sizeof(*pages));

	assert_non_null(pages);
	struct cma_mm *mm = boot_profile(kernel, (struct test_shape){ .size = 32 * MiB });
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long nr, start = one_free_order3(mm, pages, &nr, 0);
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);

	assert_non_null(p);
	assert_true(cma_page_to_pfn(mm, p) - start < 8);
	assert_int_equal(get_pageblock_migratetype(mm, start),
			 is_612(kernel) ? MIGRATE_UNMOVABLE : MIGRATE_MOVABLE);
	assert_int_equal(free_pages_of_type(z, MIGRATE_UNMOVABLE), 7);
	cma_free_pages(mm, p, 0);
	free_all(mm, pages, nr);
	assert_verify(mm);
	cma_mm_destroy(mm);
	free(pages);
}

/*
 * Replace the held page at @pfn by a movable one of @o at @idx (on the
 * LRU, as a process's page); false if @pfn is not one of @pages.
 */
static bool make_movable(struct cma_mm *mm, struct fake_owner *o, uint64_t idx,
			 struct cma_page **pages, unsigned long *nr, unsigned long pfn)
{
	unsigned long i = 0;

	while (i < *nr && cma_page_to_pfn(mm, pages[i]) != pfn)
		i++;
	if (i == *nr)
		return false;
	cma_free_pages(mm, pages[i], 0);
	pages[i] = pages[--*nr];
	cma_drain_all_pages(mm);
	o->slots[idx].page = cma_alloc_movable_at(mm, pfn, 0, &fake_anon_ops, o, idx);
	assert_non_null(o->slots[idx].page);
	return true;
}

/*
 * Expect (6.12's try_to_steal_block): an unmovable request stealing from
 * the order-3 buddy of a MOVABLE pageblock claims the block when at least
 * half of it is free or alike, its alike pages being those in use that
 * migration could not move: the block less @movable pages on the LRU,
 * here exactly half (claimed) or one page short of it (kept MOVABLE):
 * half plus @over movable pages.
 */
static void steal_claims_block_at_half(const char *kernel, unsigned long over, int want_mt)
{
	struct cma_page **pages = calloc(MAX_PAGES, sizeof(*pages));

	assert_non_null(pages);
	/* 256 KiB blocks: enough pages in use in the buddy's block to make half of it movable */
	struct cma_mm *mm = boot_profile(kernel, (struct test_shape){ .size = 32 * MiB,
								  .pageblock_order = 6 });
	unsigned long nr, start = one_free_order3(mm, pages, &nr, 0);
	unsigned long block = start & ~(mm->pageblock_nr_pages - 1);
	unsigned long movable = mm->pageblock_nr_pages / 2 + over;
	struct fake_owner *o = owner_create(mm, true, movable);
	struct cma_page *p;

	/* the pages made movable lie outside the free buddy's order-4 neighbourhood */
	for (unsigned long i = 0, pfn = block; i < movable; pfn++) {
		assert_true(pfn < block + mm->pageblock_nr_pages);
		if (pfn - (start & ~15ul) >= 16 && make_movable(mm, o, i, pages, &nr, pfn))
			i++;
	}
	p = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);
	assert_non_null(p);
	assert_true(cma_page_to_pfn(mm, p) - start < 8);
	if (get_pageblock_migratetype(mm, start) != want_mt)
		fail_msg("%lu of %lu pages movable: expected the block %s, found it %s", movable,
			 mm->pageblock_nr_pages, migratetype_name(want_mt),
			 migratetype_name(get_pageblock_migratetype(mm, start)));
	cma_free_pages(mm, p, 0);
	owner_destroy(o);
	free_all(mm, pages, nr);
	assert_verify(mm);
	cma_mm_destroy(mm);
	free(pages);
}

static void steal_claims_block_half_alike_612(const char *kernel, unsigned k)
{
	steal_claims_block_at_half(kernel, 0, MIGRATE_UNMOVABLE);
}

static void steal_keeps_block_short_of_half_612(const char *kernel, unsigned k)
{
	steal_claims_block_at_half(kernel, 1, MIGRATE_MOVABLE);
}

/*
 * Expect (boost_watermark and ZONE_BOOSTED_WATERMARK, 5.0): under 6.12 the
 * steal of the test above boosts the zone's marks by a pageblock, up to
 * 150% of the high mark, and wakes kswapd, whose pass takes the boost
 * back; under 3.5 nothing is boosted.
 */
static void rmqueue_fallback_steal_boosts_watermarks(const char *kernel, unsigned k)
{
	struct cma_page **pages = calloc(MAX_PAGES, sizeof(*pages));

	assert_non_null(pages);
	/* 256 KiB blocks: the zone must hold four for a boost */
	struct cma_mm *mm = boot_profile(kernel, (struct test_shape){ .size = 32 * MiB,
								  .pageblock_order = 6 });
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long nr, boost;
	struct cma_page *p;
	char want[160], *text;

	assert_int_equal(cma_kswapd_start_polled(mm), 0);
	one_free_order3(mm, pages, &nr, 1000);
	p = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);
	assert_non_null(p);
	boost = z->watermark_boost;
	if (is_612(kernel)) {
		assert_int_equal(boost, mm->pageblock_nr_pages);
		assert_int_equal(max_watermark_boost(z), 1500);
		assert_int_equal(low_wmark_pages(z), boost);
		assert_verify(mm);
		/* zoneinfo prints the boost and each mark with it, as 6.12's */
		snprintf(want, sizeof(want), "\n  pages free     %lu\n        boost    %lu\n        min      %lu\n",
			 zone_page_state(z, NR_FREE_PAGES), boost, min_wmark_pages(z));
		text = test_proc_read(mm, "zoneinfo");
		if (!strstr(text, want))
			fail_msg("expected in zoneinfo:\n%s\nfound:\n%s", want, text);
		free(text);
		cma_kswapd_poll(mm);
	} else {
		assert_int_equal(boost, 0);
	}
	assert_int_equal(z->watermark_boost, 0);
	cma_free_pages(mm, p, 0);
	free_all(mm, pages, nr);
	cma_kswapd_stop(mm);
	assert_verify(mm);
	cma_mm_destroy(mm);
	free(pages);
}

/*
 * Expect (cma_mm_verify): the profile's reserves are checked. A
 * nr_reserved_highatomic that no HIGHATOMIC block backs, or a boost over
 * 150% of the high mark, is reported under 6.12; under 3.5 any reserve
 * or boost at all is.
 */
static void verify_checks_profile_reserves(const char *kernel, unsigned k)
{
	struct cma_mm *mm = boot_profile(kernel, (struct test_shape){ .pageblock_order = 6 });
	struct zone *z = &mm->zones[ZONE_NORMAL];

	mm->quiet = true;
	assert_verify(mm);
	z->nr_reserved_highatomic = mm->pageblock_nr_pages;
	assert_int_equal(cma_mm_verify(mm), -EUCLEAN);
	z->nr_reserved_highatomic = 0;
	z->watermark_boost = is_612(kernel) ? max_watermark_boost(z) + 1 : 1;
	assert_int_equal(cma_mm_verify(mm), -EUCLEAN);
	z->watermark_boost = 0;
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const around_51[] = { "5.0", "5.1", "6.12" };

/*
 * Unmovable pages taken until one comes from ZONE_DMA32, at most @max;
 * the pages in @pages. Returns how many were taken.
 */
static unsigned long unmovable_until_dma32(struct cma_mm *mm, struct cma_page **pages,
					   unsigned long max)
{
	unsigned long n = 0;

	while (n < max) {
		struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);

		assert_non_null(page);
		pages[n++] = page;
		if (page_zone(mm, page)->idx == ZONE_DMA32)
			break;
	}
	return n;
}

/*
 * Expect (get_page_from_freelist and __rmqueue_claim of 6.12,
 * kernel.alloc_nofragment, 5.1): on a machine with ZONE_DMA32 whose
 * ZONE_NORMAL holds only half-free MOVABLE pageblocks (and the unmovable
 * free pages boot left), unmovable order-0 requests take no fallback
 * below a pageblock in Normal: once its unmovable pages are gone they
 * claim a free block in DMA32; with a whole free pageblock in Normal, the
 * next one claims that. 5.0, whose flag was never set, claims Normal's
 * half-free blocks and never reaches DMA32.
 */
static void alloc_pages_nofragment_spreads_into_dma32_from_51(const char *kernel, unsigned k)
{
	bool nofrag = k >= 1;
	struct cma_mm *mm = boot_profile(kernel, (struct test_shape){ .size = 128 * MiB,
								       .dma32_end = 64 * MiB });
	struct zone *normal = &mm->zones[ZONE_NORMAL];
	unsigned long nb = mm->pageblock_nr_pages, nr = mm->end_pfn - mm->base_pfn;
	unsigned long block = normal->zone_start_pfn + 2 * nb;
	struct fake_owner *o = owner_create(mm, false, nr);
	struct cma_page **pages = calloc(4 * nb, sizeof(*pages));
	unsigned long taken;
	uint64_t n = 0;

	assert_non_null(o);
	assert_non_null(pages);
	assert_true(mm->zones[ZONE_DMA32].present_pages > 0 && normal->present_pages > 0);
	while (zone_page_state(normal, NR_FREE_PAGES) > low_wmark_pages(normal) + 2 * nb) {
		assert_non_null(owner_fault(o, n, CMA_GFP_HIGHUSER_MOVABLE, n + 1));
		n++;
	}
	lru_add_drain_all(mm);
	/* every other page of Normal's: half-free blocks, no free block above order 0 */
	for (uint64_t i = 0; i < n; i++) {
		unsigned long pfn = cma_page_to_pfn(mm, o->slots[i].page);

		if (pfn >= normal->zone_start_pfn && (pfn & 1))
			owner_release(o, i);
	}
	cma_drain_all_pages(mm);
	taken = unmovable_until_dma32(mm, pages, 4 * nb);
	assert_int_equal(page_zone(mm, pages[taken - 1])->idx, nofrag ? ZONE_DMA32 : ZONE_NORMAL);
	if (nofrag) {
		/* a whole free pageblock in Normal: claimed, not passed over */
		for (uint64_t i = 0; i < n; i++) {
			unsigned long pfn;

			if (!owner_slot_resident(o, i))
				continue;
			pfn = cma_page_to_pfn(mm, o->slots[i].page);
			if (pfn >= block && pfn < block + nb)
				owner_release(o, i);
		}
		cma_drain_all_pages(mm);
		pages[taken] = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
		assert_non_null(pages[taken]);
		assert_int_equal(page_zone(mm, pages[taken++])->idx, ZONE_NORMAL);
		assert_int_equal(get_pageblock_migratetype(mm, block), MIGRATE_UNMOVABLE);
	}
	free_all(mm, pages, taken);
	free(pages);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (split_large_buddy in free_one_page, 6.12; the library's from
 * 4.4, with the rest of its freelist hygiene): an unmovable block of two
 * pageblocks whose upper one was retyped MOVABLE meanwhile (a failed
 * isolation rolls back to the caller's type) is freed as its two
 * pageblocks, each to its own type's list; merging them retypes the
 * lower one as the upper, so both end MOVABLE. Before 4.4 the block goes
 * whole to the lower one's UNMOVABLE list and the types stay as they were.
 */
static void free_pages_splits_block_by_pageblock_from_44(const char *kernel, unsigned k)
{
	struct cma_mm *mm = boot_profile(kernel, (struct test_shape){ .pageblock_order = 6 });
	unsigned order = mm->pageblock_order + 1;
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL, order);
	unsigned long lo, hi;
	bool split = test_kernel_since(kernel, 4, 4);

	assert_non_null(p);
	lo = cma_page_to_pfn(mm, p);
	hi = lo + mm->pageblock_nr_pages;
	expect_kernel(kernel, "the lower pageblock's type", MIGRATE_UNMOVABLE,
		      get_pageblock_migratetype(mm, lo));
	set_pageblock_migratetype(mm, hi, MIGRATE_MOVABLE);
	cma_free_pages(mm, p, order);
	test_verify_kernel(mm, kernel, "after the free");
	expect_kernel(kernel, "the lower pageblock's type after the free",
		      split ? MIGRATE_MOVABLE : MIGRATE_UNMOVABLE, get_pageblock_migratetype(mm, lo));
	expect_kernel(kernel, "the upper pageblock's type after the free", MIGRATE_MOVABLE,
		      get_pageblock_migratetype(mm, hi));
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(isolate_freepages_range_isolated_block_skips_watermark_from_38),
		cmocka_unit_test(alloc_pages_atomic_uses_highatomic_reserve),
		cmocka_unit_test(kernel_profile_find_release_has_switches_up_to_it),
		cmocka_unit_test(cma_kernel_has_by_the_switch),
		cmocka_unit_test(kernel_profile_find_drains_by_release),
		cmocka_unit_test(kernel_profile_find_busy_message_by_release),
		cmocka_unit_test(cma_mm_create_refuses_release_out_of_range),
		cmocka_unit_test(alloc_pages_movable_cma_first_from_58),
		cmocka_unit_test(rmqueue_cma_fallback_smallest_from_41),
		cmocka_unit_test(rmqueue_fallback_remainder_keeps_type_313_to_319),
		cmocka_unit_test(rmqueue_fallback_unmovable_claims_block_from_40),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(zone_watermark_ok_counts_cma_for_movable_only, profiles),
		test_kernel_case(alloc_pages_unmovable_stops_at_min_without_cma, profiles),
		test_kernel_case(alloc_contig_range_reclaims_only_in_35, profiles),
		test_kernel_case(isolate_freepages_range_watermark_follows_profile, profiles),
		test_kernel_case(alloc_pages_movable_prefers_cma_over_half_free, profiles),
		test_kernel_case(boot_reserve_blocks_only_in_35, profiles),
		test_kernel_case(alloc_pages_atomic_high_order_reserves_pageblock, profiles),
		test_kernel_case(rmqueue_fallback_unmovable_claims_block_612, profiles),
		test_kernel_case(steal_claims_block_half_alike_612, only_612),
		test_kernel_case(steal_keeps_block_short_of_half_612, only_612),
		test_kernel_case(rmqueue_fallback_steal_boosts_watermarks, profiles),
		test_kernel_case(verify_checks_profile_reserves, profiles),
		test_kernel_case(free_pages_splits_block_by_pageblock_from_44, around_44),
		test_kernel_case(alloc_pages_nofragment_spreads_into_dma32_from_51, around_51),
	};

	return cmocka_run_group_tests_name("profile_alloc", tests, NULL, NULL) +
	       test_run_kernel_cases("profile_alloc (per kernel)", kernel_cases);
}
