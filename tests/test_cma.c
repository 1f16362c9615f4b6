// SPDX-License-Identifier: GPL-2.0
/*
 * CMA itself (seeds 003, 005, 006, 008, 009): alloc_contig_range, CMA
 * areas and dma-contiguous, the boot configuration (cma=, Kconfig), and
 * the rules: data survives, pinned ranges are skipped, CMA pageblocks stay
 * CMA, failures leave the machine as it was.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "mm/cma.h"
#include "owners.h"

/* 64 MiB at 0 (DMA below 16 MiB), pageblock order 9, 2 CPUs. */
#define CMA_MACHINE .dma_end = 16 * MiB, .pageblock_order = 9, .cpus = 2

/*
 * The pages of an area of @size: dma_declare_contiguous aligns it to
 * 2^max(MAX_ORDER, pageblock_order) pages; 6.12 to a pageblock.
 */
/*
 * An area's size is aligned to max(MAX_ORDER, pageblock_order) in 3.5's
 * dma-contiguous.c, max(MAX_ORDER - 1, pageblock_order) in mm/cma.c from
 * 3.17, a pageblock from 5.19.
 */
static unsigned long area_pages(struct cma_mm *mm, uint64_t size)
{
	const char *k = cma_mm_kernel(mm);
	unsigned order = test_kernel_since(k, 3, 17) ? mm->max_order - 1 : mm->max_order;
	unsigned long align = 1ul << (test_kernel_since(k, 5, 19) || order < mm->pageblock_order ?
				      mm->pageblock_order : order);
	unsigned long pages = size >> mm->page_shift;

	return (pages + align - 1) / align * align;
}

static struct cma *default_area(struct cma_mm *mm)
{
	return cma_dev_get_cma_area(mm, NULL);
}

static bool range_is_cma(struct cma_mm *mm, struct cma *cma)
{
	for (unsigned long pfn = cma_area_base_pfn(cma); pfn < cma_area_base_pfn(cma) + cma_area_count(cma);
	     pfn += mm->pageblock_nr_pages)
		if (cma_pageblock_migratetype(mm, pfn) != CMA_MIGRATE_CMA)
			return false;
	return true;
}

static void assert_clean(struct cma_mm *mm)
{
	assert_int_equal(atomic_load(&mm->isolated_pageblocks), 0);
	for (struct zone *z = mm->zones; z < mm->zones + MAX_NR_ZONES; z++)
		assert_int_equal(z->min_cma_pages, 0);
	assert_verify(mm);
}

/* Fill the machine with movable pages of @n owners until the CMA area is (nearly) full. */
static void fill_with_owners(struct cma_mm *mm, struct fake_owner **o, int n, uint64_t slots)
{
	for (int k = 0; k < n; k++) {
		o[k] = owner_create(mm, k % 2, slots);
		for (uint64_t i = 0; i < slots; i++) {
			if (!owner_fault(o[k], i, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, k * 100000 + i))
				break;
			if (!o[k]->anon && i % 3 == 0)
				owner_set_dirty(o[k], i, true);
		}
	}
	lru_add_drain_all(mm);
}

/*
 * Expect: an area full of movable pages of several owners (anon, file,
 * some dirty) still yields a contiguous block, each owner's data intact
 * at its new place, no owner page left inside the block.
 */
static void alloc_from_contiguous_full_area(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE, .cmdline = "cma=16M");
	struct cma *cma = default_area(mm);
	struct fake_owner *o[5];
	struct cma_page *p;
	unsigned long pfn, in_area = 0;

	assert_non_null(cma);
	fill_with_owners(mm, o, 4, 3000);
	/* the area's low end taken too where the profile filled it from the top */
	o[4] = owner_create(mm, false, 1024);
	owner_take_free_range(o[4], cma_area_base_pfn(cma), 1024);
	for (int k = 0; k < 5; k++)
		for (uint64_t i = 0; i < o[k]->nr_slots; i++)
			if (o[k]->slots[i].page) {
				unsigned long q = cma_page_to_pfn(mm, o[k]->slots[i].page);

				in_area += q >= cma_area_base_pfn(cma) &&
					   q < cma_area_base_pfn(cma) + cma_area_count(cma);
			}
	printf("owners hold %lu pages of the %lu-page area\n", in_area, cma_area_count(cma));
	assert_true(in_area > cma_area_count(cma) / 2);
	p = cma_dma_alloc_from_contiguous(mm, NULL, 1024, 8);
	assert_non_null(p);
	pfn = cma_page_to_pfn(mm, p);
	assert_true(pfn >= cma_area_base_pfn(cma) && pfn + 1024 <= cma_area_base_pfn(cma) + cma_area_count(cma));
	for (int k = 0; k < 5; k++) {
		assert_true(owner_check(o[k]) >= 0);
		for (uint64_t i = 0; i < o[k]->nr_slots; i++)
			if (o[k]->slots[i].page) {
				unsigned long q = cma_page_to_pfn(mm, o[k]->slots[i].page);

				assert_false(q >= pfn && q < pfn + 1024);
			}
	}
	assert_true(range_is_cma(mm, cma));
	assert_clean(mm);
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 1024));
	for (int k = 0; k < 5; k++)
		owner_destroy(o[k]);
	lru_add_drain_all(mm);
	assert_clean(mm);
	cma_mm_destroy(mm);
}

static int busy_retries;
static void count_busy(void *ctx, const char *event, const char *line)
{
	if (!strcmp(event, "cma_alloc_busy_retry"))
		busy_retries++;
}

/*
 * Expect: a pinned page in the first candidate range makes it -EBUSY and
 * the allocation lands at the next aligned candidate (pageno + mask + 1).
 */
static void alloc_from_contiguous_pinned_page_skips_range(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE, .cmdline = "cma=16M");
	struct cma *cma = default_area(mm);
	struct fake_owner *o, *top;
	struct cma_page *pinned = NULL, *p;
	unsigned long base = cma_area_base_pfn(cma);

	fill_with_owners(mm, &o, 1, 14000);
	/* the first range taken too where the profile filled the area from its top */
	top = owner_create(mm, false, 256);
	owner_take_free_range(top, base, 256);
	for (int k = 0; k < 2; k++) {
		struct fake_owner *in = k ? top : o;

		for (uint64_t i = 0; i < in->nr_slots && !pinned; i++) {
			struct cma_page *q = in->slots[i].page;

			if (q && cma_page_to_pfn(mm, q) >= base && cma_page_to_pfn(mm, q) < base + 256)
				pinned = q;
		}
	}
	assert_non_null(pinned);
	cma_page_get(mm, pinned);
	cma_mm_set_trace(mm, count_busy, NULL);
	p = cma_dma_alloc_from_contiguous(mm, NULL, 256, 8);
	assert_non_null(p);
	assert_int_equal(cma_page_to_pfn(mm, p), base + 256);
	assert_int_equal(busy_retries, 1);
	assert_int_equal(cma_pageblock_migratetype(mm, cma_page_to_pfn(mm, pinned)), CMA_MIGRATE_CMA);
	assert_true(owner_check(o) >= 0);
	assert_true(owner_check(top) >= 0);
	assert_clean(mm);
	cma_mm_set_trace(mm, NULL, NULL);
	cma_page_put(mm, pinned);
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 256));
	owner_destroy(top);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

struct event_tally {
	unsigned start, page_alloc, other;
};

static void tally_events(void *ctx, const char *event, const char *line)
{
	struct event_tally *t = ctx;

	if (!strcmp(event, "cma_alloc_start"))
		t->start++;
	else if (!strcmp(event, "mm_page_alloc"))
		t->page_alloc++;
	else
		t->other++;
	assert_true(!strncmp(line, event, strlen(event)));
}

/*
 * Expect (tracing/set_event): with "cma_alloc_start" chosen, an allocation
 * that also allocates pages delivers only its one start event; an unknown
 * name is -EINVAL and keeps the choice; NULL gives every event back.
 */
static void set_trace_events_delivers_only_the_chosen(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE, .cmdline = "cma=16M");
	struct event_tally t = { 0 };
	struct cma_page *p, *q;

	cma_mm_set_trace(mm, tally_events, &t);
	assert_int_equal(cma_mm_set_trace_events(mm, "cma_alloc_start"), 0);
	assert_int_equal(cma_mm_set_trace_events(mm, "cma_alloc_start, no_such_event"), -EINVAL);
	p = cma_dma_alloc_from_contiguous(mm, NULL, 16, 0);
	assert_non_null(p);
	q = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_non_null(q);
	cma_free_pages(mm, q, 0);
	assert_int_equal(t.start, 1);
	assert_int_equal(t.page_alloc, 0);
	assert_int_equal(t.other, 0);
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 16));

	assert_int_equal(cma_mm_set_trace_events(mm, NULL), 0);
	p = cma_dma_alloc_from_contiguous(mm, NULL, 16, 0);
	assert_non_null(p);
	assert_int_equal(t.start, 2);
	assert_true(t.other > 0);	/* cma_alloc_finish at least */
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 16));
	cma_mm_set_trace(mm, NULL, NULL);
	assert_clean(mm);
	cma_mm_destroy(mm);
}

/* Expect: every failure leaves no pageblock ISOLATE, the marks restored, CMA blocks CMA. */
static void alloc_from_contiguous_everything_pinned_fails_clean(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE, .cmdline = "cma=8M");
	struct cma *cma = default_area(mm);
	struct fake_owner *o;
	unsigned long free_before;

	fill_with_owners(mm, &o, 1, 15000);
	for (uint64_t i = 0; i < o->nr_slots; i++)
		if (o->slots[i].page)
			cma_page_get(mm, o->slots[i].page);
	cma_drain_all_pages(mm);
	free_before = global_page_state(mm, NR_FREE_PAGES);
	assert_null(cma_dma_alloc_from_contiguous(mm, NULL, 2048, 8));
	cma_drain_all_pages(mm);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), free_before);
	assert_true(range_is_cma(mm, cma));
	assert_clean(mm);
	for (uint64_t i = 0; i < o->nr_slots; i++)
		if (o->slots[i].page)
			cma_page_put(mm, o->slots[i].page);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: an unaligned range takes exactly its pages; head and tail go
 * back. The range ends 700/2048 into the area (pfn 700 of 4 KiB pages).
 */
static void alloc_contig_range_unaligned_returns_head_and_tail(const struct test_shape *mode)
{
	struct cma_mm *mm = test_mm_mode(mode, .dma_end = 16 * MiB, .cmdline = "cma=8M");
	struct cma *cma = default_area(mm);
	unsigned long base = cma_area_base_pfn(cma), end = base + cma_area_count(cma) * 700 / 2048;
	unsigned long before;

	cma_drain_all_pages(mm);
	before = global_page_state(mm, NR_FREE_PAGES);
	assert_int_equal(cma_alloc_contig_range(mm, base + 3, end, CMA_MIGRATE_CMA), 0);
	cma_drain_all_pages(mm);
	assert_int_equal(before - global_page_state(mm, NR_FREE_PAGES), end - base - 3);
	for (unsigned long pfn = base; pfn < base + cma_area_count(cma) / 2; pfn++) {
		bool taken = pfn >= base + 3 && pfn < end;

		assert_int_equal(page_test(pfn_to_page(mm, pfn), PG_head), taken);
	}
	assert_clean(mm);
	cma_free_contig_range(mm, base + 3, end - base - 3);
	cma_drain_all_pages(mm);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), before);
	assert_clean(mm);
	cma_mm_destroy(mm);
}

/* The owner's data intact and [base, base + 1024) taken: give both back, the machine clean. */
static void end_with_range_taken(struct cma_mm *mm, struct fake_owner *o, unsigned long base)
{
	assert_true(owner_check(o) >= 0);
	assert_clean(mm);
	cma_free_contig_range(mm, base, 1024);
	owner_destroy(o);
	lru_add_drain_all(mm);
	assert_clean(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (__reclaim_pages, seed 008): with free memory below the raised
 * marks, alloc_contig_range reclaims, and what reclaim freed waits on the
 * per-CPU list, where it does not count as free, until the list
 * overflows: nothing drains it in between. (An extra drain_all_pages
 * after each round left the list empty.)
 */
static void alloc_contig_range_reclaim_leaves_pcp_pages(void **state)
{
	struct cma_mm *mm;

	/* __reclaim_pages is v3.5's (gone in 3.8): see alloc_contig_range_watermark_bump_by_profile */
	SKIP_UNLESS_KERNEL_35();
	mm = test_mm(CMA_MACHINE, .cmdline = "cma=8M");
	unsigned long base = cma_area_base_pfn(default_area(mm)), nr = mm->end_pfn - mm->base_pfn;
	struct zone *z = page_zone(mm, pfn_to_page(mm, base));
	struct fake_owner *o = owner_create(mm, false, nr);
	uint64_t reclaimed = 0;

	for (uint64_t i = 0; i < nr && zone_page_state(z, NR_FREE_PAGES) > low_wmark_pages(z) + 64; i++)
		assert_non_null(owner_fault(o, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1));
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	assert_int_equal(cma_mm_counter(mm, "pgsteal_direct_normal", &reclaimed), 0);
	assert_int_equal(reclaimed, 0);
	assert_int_equal(cma_alloc_contig_range(mm, base, base + 1024, CMA_MIGRATE_CMA), 0);
	assert_int_equal(cma_mm_counter(mm, "pgsteal_direct_normal", &reclaimed), 0);
	assert_true(reclaimed > 0);
	if (!pcp_count(mm, 0, z->idx)) {
		print_error("expected reclaimed pages left on CPU 0's per-CPU list, found it empty\n");
		fail();
	}
	end_with_range_taken(mm, o, base);
}

/*
 * Expect (v3.5 __isolate_lru_page refuses unevictable pages; 3.7 brought
 * ISOLATE_UNEVICTABLE, which test_migrate_profiles checks): a range
 * holding an mlocked page is -EBUSY. The page stays where it is with its
 * bytes, every pageblock is CMA again, nothing is left isolated or
 * raised; munlocked, the range is taken.
 */
static void alloc_contig_range_mlocked_page_busy(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE, .cmdline = "cma=8M", .kernel = "3.5");
	unsigned long base = cma_area_base_pfn(default_area(mm)), nr = mm->end_pfn - mm->base_pfn;
	struct fake_owner *o = owner_create(mm, false, nr);
	struct cma_page *locked = NULL;
	uint64_t slot = 0;

	for (uint64_t i = 0; i < nr && !locked; i++) {
		struct cma_page *p = owner_fault(o, i, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, i + 1);
		unsigned long pfn;

		assert_non_null(p);
		pfn = cma_page_to_pfn(mm, p);
		if (pfn >= base + 100 && pfn < base + 1024) {
			locked = p;
			slot = i;
		}
	}
	assert_non_null(locked);
	lru_add_drain_all(mm);
	cma_page_set_mlocked(mm, locked, true);
	assert_int_equal(global_page_state(mm, NR_MLOCK), 1);
	assert_int_equal(global_page_state(mm, NR_UNEVICTABLE), 1);
	assert_verify(mm);

	assert_int_equal(cma_alloc_contig_range(mm, base, base + 1024, CMA_MIGRATE_CMA), -EBUSY);
	assert_ptr_equal(o->slots[slot].page, locked);
	assert_true(page_test(locked, PG_lru | PG_mlocked));
	assert_true(owner_check(o) >= 0);
	assert_true(range_is_cma(mm, default_area(mm)));
	assert_int_equal(global_page_state(mm, NR_UNEVICTABLE), 1);
	assert_clean(mm);

	cma_page_set_mlocked(mm, locked, false);
	assert_int_equal(global_page_state(mm, NR_MLOCK), 0);
	assert_int_equal(cma_alloc_contig_range(mm, base, base + 1024, CMA_MIGRATE_CMA), 0);
	assert_ptr_not_equal(o->slots[slot].page, locked);
	end_with_range_taken(mm, o, base);
}

static void alloc_contig_range_bad_input(const struct test_shape *mode)
{
	struct cma_mm *mm = test_mm_mode(mode, .dma_end = 16 * MiB, .cmdline = "cma=8M");
	unsigned long base = cma_area_base_pfn(default_area(mm));
	unsigned long dma_end = (16 * MiB) >> mm->page_shift;

	assert_int_equal(cma_alloc_contig_range(mm, base + 10, base + 10, CMA_MIGRATE_CMA), -EINVAL);
	assert_int_equal(cma_alloc_contig_range(mm, base, base + 10, CMA_MIGRATE_UNMOVABLE), -EINVAL);
	/* the area is CMA, its neighbours MOVABLE: mixed types */
	assert_int_equal(cma_alloc_contig_range(mm, base - 10, base + 10, CMA_MIGRATE_CMA), -EINVAL);
	assert_int_equal(cma_alloc_contig_range(mm, base, base + 10, CMA_MIGRATE_MOVABLE), -EINVAL);
	/* across the DMA / Normal boundary */
	assert_int_equal(cma_alloc_contig_range(mm, dma_end - 96, dma_end + 104, CMA_MIGRATE_MOVABLE),
			 -EINVAL);
	assert_int_equal(cma_alloc_contig_range(mm, 1ul << 30, (1ul << 30) + 1, CMA_MIGRATE_MOVABLE), -EINVAL);
	/* free of pages that are not a contiguous allocation changes nothing */
	cma_free_contig_range(mm, base, 4);
	assert_clean(mm);
	cma_mm_destroy(mm);
}

/* Expect: MOVABLE ranges work too (memory hot-unplug style callers). */
static void alloc_contig_range_movable_zone_memory(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE, .cmdline = "cma=0");
	struct fake_owner *o;
	unsigned long start = 8192, end = 9216;

	fill_with_owners(mm, &o, 1, 4000);
	assert_int_equal(cma_alloc_contig_range(mm, start, end, CMA_MIGRATE_MOVABLE), 0);
	assert_true(owner_check(o) >= 0);
	for (unsigned long pfn = start; pfn < end; pfn += 512)
		assert_int_not_equal(cma_pageblock_migratetype(mm, pfn), CMA_MIGRATE_ISOLATE);
	cma_free_contig_range(mm, start, end - start);
	owner_destroy(o);
	lru_add_drain_all(mm);
	assert_clean(mm);
	cma_mm_destroy(mm);
}

/* Pages on @mm's CPU 0 MOVABLE per-CPU list of @zone recorded as freed to @mt. */
static unsigned long pcp_movable_recorded(struct cma_mm *mm, struct zone *zone, int mt)
{
	struct page_list *l = &mm->slots[0].pcp[zone->idx].lists[MIGRATE_MOVABLE];
	unsigned long n = 0;

	for (struct cma_page *p = page_list_first(mm, l); p; p = page_list_next(mm, p))
		n += p->private == (uint64_t)mt;
	return n;
}

/*
 * Expect (free_contig_range of seed 003, __free_page per page into
 * free_hot_cold_page of v3.5): released CMA pages wait on the MOVABLE
 * per-CPU list, recorded as MIGRATE_CMA, and are not in NR_FREE_PAGES or
 * NR_FREE_CMA_PAGES until drained; a large release goes to buddy batch
 * by batch as the list passes pcp->high, leaving fewer than high behind.
 */
static void release_from_contiguous_frees_through_pcp_lists(void **state)
{
	/* 128 MiB: a Normal zone of 112 MiB less its memmap has batch 7, high 42, above 8 */
	struct cma_bank bank = { 0, 128 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .zone_dma_end = 16 * MiB,
				     .pageblock_order = 9, .cmdline = "cma=8M", .nr_cpus = 2 };
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_page *small = cma_dma_alloc_from_contiguous(mm, NULL, 8, 0);
	struct cma_page *big = cma_dma_alloc_from_contiguous(mm, NULL, 1024, 0);
	struct zone *zone = page_zone(mm, small);
	struct per_cpu_pages *pcp = &mm->slots[0].pcp[zone->idx];
	unsigned long free, free_cma;

	assert_non_null(small);
	assert_non_null(big);
	/* 6.7's lists get their high at first use (pcp_high_auto): use this one once */
	cma_free_pages(mm, cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0), 0);
	assert_true(pcp->high > 8);
	cma_drain_all_pages(mm);
	free = zone_page_state(zone, NR_FREE_PAGES);
	free_cma = zone_page_state(zone, NR_FREE_CMA_PAGES);
	assert_true(cma_dma_release_from_contiguous(mm, NULL, small, 8));
	assert_int_equal(pcp_count(mm, 0, zone->idx), 8);
	assert_int_equal(pcp_movable_recorded(mm, zone, MIGRATE_CMA), 8);
	assert_int_equal(zone_page_state(zone, NR_FREE_PAGES), free);
	assert_int_equal(zone_page_state(zone, NR_FREE_CMA_PAGES), free_cma);
	assert_verify(mm);

	assert_true(cma_dma_release_from_contiguous(mm, NULL, big, 1024));
	assert_true(pcp_count(mm, 0, zone->idx) < (unsigned long)pcp->high);
	assert_int_equal(zone_page_state(zone, NR_FREE_CMA_PAGES) - free_cma,
			 1032 - pcp_count(mm, 0, zone->idx));
	assert_verify(mm);
	cma_drain_all_pages(mm);
	assert_int_equal(pcp_count(mm, 0, zone->idx), 0);
	assert_int_equal(zone_page_state(zone, NR_FREE_PAGES) - free, 1032);
	assert_int_equal(zone_page_state(zone, NR_FREE_CMA_PAGES) - free_cma, 1032);
	assert_clean(mm);
	cma_mm_destroy(mm);
}

/* ---- areas, devices, configuration ---- */

static uint64_t area_mib(struct cma_mm *mm)
{
	struct cma *cma = default_area(mm);

	return cma ? (cma_area_count(cma) << 12) >> 20 : 0;
}

/* Expect: cma= beats Kconfig; MBYTES, PERCENTAGE, MIN, MAX as the seed chooses. */
static void dma_contiguous_reserve_size_selection(void **state)
{
	static const struct {
		const char *cmdline, *kconfig;
		uint64_t mib;
	} rows[] = {
		{ NULL, NULL, 16 },					/* defaults: 16 MiB */
		{ NULL, "CONFIG_CMA_SIZE_MBYTES=24\n", 24 },
		{ NULL, "CONFIG_CMA_SIZE_SEL_PERCENTAGE=y\nCONFIG_CMA_SIZE_PERCENTAGE=25\n", 16 },
		{ NULL, "CONFIG_CMA_SIZE_SEL_MIN=y\nCONFIG_CMA_SIZE_MBYTES=24\nCONFIG_CMA_SIZE_PERCENTAGE=25\n", 16 },
		{ NULL, "CONFIG_CMA_SIZE_SEL_MAX=y\nCONFIG_CMA_SIZE_MBYTES=24\nCONFIG_CMA_SIZE_PERCENTAGE=25\n", 24 },
		{ "cma=8M", "CONFIG_CMA_SIZE_MBYTES=24\n", 8 },
		{ "quiet cma=0x1000000 ro", NULL, 16 },
		{ "cma=0", NULL, 0 },
		{ NULL, "# CONFIG_CMA is not set\n", 0 },
		{ "cma=3M", NULL, 8 },	/* aligned up to 2^MAX_ORDER pages; see area_pages() */
	};

	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct cma_bank bank = { 0, 64 * MiB };
		struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 9,
					     .cmdline = rows[i].cmdline ? rows[i].cmdline : "",
					     .kconfig = rows[i].kconfig };
		struct cma_mm *mm = NULL;
		uint64_t mib;

		assert_int_equal(cma_mm_create(&cfg, &mm), 0);
		assert_int_equal(cma_mm_boot(mm), 0);
		mib = rows[i].cmdline && !strcmp(rows[i].cmdline, "cma=3M") ?
		      (area_pages(mm, 3 * MiB) << mm->page_shift) >> 20 : rows[i].mib;
		if (area_mib(mm) != mib)
			fail_msg("row %u (cmdline '%s', kconfig '%s'): expected %llu MiB, found %llu",
				 i, cfg.cmdline, rows[i].kconfig ? rows[i].kconfig : "",
				 (unsigned long long)mib, (unsigned long long)area_mib(mm));
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/* Expect: malformed cma= and Kconfig values are refused at create with -EINVAL. */
static void mm_create_malformed_cma_config(void **state)
{
	static const struct {
		const char *cmdline, *kconfig;
	} bad[] = {
		{ "cma=12Q", NULL }, { "cma=-5", NULL }, { "cma=", NULL }, { "cma=64MM", NULL },
		{ NULL, "CONFIG_CMA_SIZE_PERCENTAGE=101\n" }, { NULL, "CONFIG_CMA_ALIGNMENT=3\n" },
		{ NULL, "CONFIG_CMA_ALIGNMENT=10\n" }, { NULL, "CONFIG_CMA_SIZE_MBYTES=lots\n" },
		{ NULL, "CONFIG_CMA_SIZE_SEL_MIN=y\nCONFIG_CMA_SIZE_SEL_MAX=y\n" },
		{ NULL, "this is not a config line\n" },
	};

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cma_bank bank = { 0, 64 * MiB };
		struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .cmdline = bad[i].cmdline,
					     .kconfig = bad[i].kconfig };
		struct cma_mm *mm = (struct cma_mm *)&bank;

		if (cma_mm_create(&cfg, &mm) != -EINVAL || mm)
			fail_msg("case %u (cmdline '%s', kconfig '%s') was not refused", i,
				 bad[i].cmdline ? bad[i].cmdline : "", bad[i].kconfig ? bad[i].kconfig : "");
	}
}

static void dma_declare_contiguous_error_codes(void **state)
{
	struct cma_bank bank = { 0, 256 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 9,
				     .cmdline = "cma=0", .kconfig = "CONFIG_CMA_AREAS=2\n" };
	struct cma_mm *mm = NULL;
	struct cma_device *dev;

	/* v3.5's codes and slots; 6.12's: cma_declare_rules_by_profile (test_cma_profiles) */
	SKIP_UNLESS_KERNEL_35();

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	dev = cma_device_create(mm, "camera", ~0ull);
	assert_int_equal(cma_dma_declare_contiguous(mm, dev, 0, 0, 0), -EINVAL);
	assert_int_equal(cma_memblock_reserve(mm, 64 * MiB, 4096), 0);
	assert_int_equal(cma_dma_declare_contiguous(mm, dev, 8 * MiB, 64 * MiB, 0), -EBUSY);
	assert_int_equal(cma_dma_declare_contiguous(mm, dev, 512 * MiB, 0, 0), -ENOMEM);
	assert_int_equal(cma_dma_declare_contiguous(mm, dev, 8 * MiB, 0, 16 * MiB), 0);
	assert_int_equal(cma_dma_declare_contiguous(mm, NULL, 8 * MiB, 128 * MiB, 0), 0);
	assert_int_equal(cma_dma_declare_contiguous(mm, NULL, 8 * MiB, 0, 0), 0);
	/* 1 + CONFIG_CMA_AREAS = 3 slots */
	assert_int_equal(cma_dma_declare_contiguous(mm, NULL, 8 * MiB, 0, 0), -ENOSPC);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_int_equal(cma_dma_declare_contiguous(mm, NULL, 8 * MiB, 0, 0), -EINVAL);
	/* the limit was honoured: the camera's area lies below 16 MiB */
	assert_true(cma_area_base_pfn(cma_dev_get_cma_area(mm, dev)) + cma_area_count(cma_dev_get_cma_area(mm, dev)) <= (16 * MiB) >> 12);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect v23's dev_set_cma_area: the first area activated becomes the
 * default if there is none; every area with no device replaces it; a
 * device sees its own area, others see the default.
 */
static void dev_set_cma_area_follows_v23(void **state)
{
	SKIP_UNLESS_KERNEL_35();	/* 6.12's rule: dev_set_cma_area_612_leaves_default */
	struct cma_bank bank = { 0, 256 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 9,
				     .cmdline = "cma=0" };
	struct cma_mm *mm = NULL;
	struct cma_device *a, *b, *c;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	a = cma_device_create(mm, "mfc-l", ~0ull);
	b = cma_device_create(mm, "mfc-r", ~0ull);
	c = cma_device_create(mm, "display", ~0ull);
	assert_int_equal(cma_dma_declare_contiguous(mm, a, 8 * MiB, 64 * MiB, 0), 0);
	assert_int_equal(cma_dma_declare_contiguous(mm, b, 8 * MiB, 128 * MiB, 0), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_int_equal(cma_area_base_pfn(cma_dev_get_cma_area(mm, a)), (64 * MiB) >> 12);
	assert_int_equal(cma_area_base_pfn(cma_dev_get_cma_area(mm, b)), (128 * MiB) >> 12);
	/* no default area was reserved: the first device's became it */
	assert_ptr_equal(cma_dev_get_cma_area(mm, NULL), cma_dev_get_cma_area(mm, a));
	assert_ptr_equal(cma_dev_get_cma_area(mm, c), cma_dev_get_cma_area(mm, a));
	/* sharing an area between two devices, as the article shows */
	cma_dev_set_cma_area(mm, c, cma_dev_get_cma_area(mm, b));
	assert_ptr_equal(cma_dev_get_cma_area(mm, c), cma_dev_get_cma_area(mm, b));
	assert_ptr_equal(cma_dev_get_cma_area(mm, NULL), cma_dev_get_cma_area(mm, a));
	cma_dev_set_cma_area(mm, NULL, cma_dev_get_cma_area(mm, b));
	assert_ptr_equal(cma_dev_get_cma_area(mm, NULL), cma_dev_get_cma_area(mm, b));
	{
		struct cma_page *p = cma_dma_alloc_from_contiguous(mm, a, 16, 4);

		assert_non_null(p);
		assert_int_equal(cma_page_to_pfn(mm, p), (64 * MiB) >> 12);
		assert_false(cma_dma_release_from_contiguous(mm, b, p, 16));	/* foreign */
		assert_true(cma_dma_release_from_contiguous(mm, a, p, 16));
	}
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: alignment above CONFIG_CMA_ALIGNMENT is clamped to it. */
static void alloc_from_contiguous_alignment_clamped(const struct test_shape *mode)
{
	struct cma_mm *mm = test_mm_mode(mode, .dma_end = 16 * MiB, .cmdline = "cma=16M",
					 .kconfig = "CONFIG_CMA_ALIGNMENT=6\n");
	struct cma *cma = default_area(mm);
	struct cma_page *a = cma_dma_alloc_from_contiguous(mm, NULL, 1, 0);
	struct cma_page *b = cma_dma_alloc_from_contiguous(mm, NULL, 1, 12);

	assert_int_equal(cma_page_to_pfn(mm, a), cma_area_base_pfn(cma));
	assert_int_equal(cma_page_to_pfn(mm, b), cma_area_base_pfn(cma) + 64);
	assert_null(cma_dma_alloc_from_contiguous(mm, NULL, 0, 0));
	assert_null(cma_dma_alloc_from_contiguous(mm, NULL, 5000, 0));
	assert_true(cma_dma_release_from_contiguous(mm, NULL, a, 1));
	assert_true(cma_dma_release_from_contiguous(mm, NULL, b, 1));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: releasing pages that are not the area's (or not allocated) returns false and changes nothing. */
static void release_from_contiguous_foreign_pages(const struct test_shape *mode)
{
	struct cma_mm *mm = test_mm_mode(mode, .dma_end = 16 * MiB, .cmdline = "cma=8M");
	struct cma *cma = default_area(mm);
	struct cma_page *p = cma_dma_alloc_from_contiguous(mm, NULL, 8, 0);
	struct cma_page *other = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	unsigned long before;

	cma_drain_all_pages(mm);
	before = global_page_state(mm, NR_FREE_PAGES);
	assert_false(cma_dma_release_from_contiguous(mm, NULL, other, 1));
	assert_false(cma_dma_release_from_contiguous(mm, NULL, NULL, 1));
	assert_false(cma_dma_release_from_contiguous(mm, NULL, cma_page_nth(mm, p, 8), 4));	/* never allocated */
	assert_false(cma_dma_release_from_contiguous(mm, NULL, p, 16));	/* more than allocated */
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), before);
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 8));
	cma_free_pages(mm, other, 0);
	assert_int_equal(cma_area_count(cma), area_pages(mm, 8 * MiB));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: an area across the DMA/Normal boundary is dropped whole; under
 * 3.5 its memory stays reserved (from 5.12 it goes to the buddy
 * allocator: test_cma_activate).
 */
static void cma_area_spanning_zones_dropped(void **state)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .zone_dma_end = 16 * MiB,
				     .pageblock_order = 9, .cmdline = "cma=0", .kernel = "3.5" };
	struct cma_mm *mm = NULL;
	struct cma_device *dev;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	dev = cma_device_create(mm, "codec", ~0ull);
	assert_int_equal(cma_dma_declare_contiguous(mm, dev, 16 * MiB, 8 * MiB, 0), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_null(cma_dev_get_cma_area(mm, dev));
	for (unsigned long pfn = (8 * MiB) >> 12; pfn < (24 * MiB) >> 12; pfn++)
		assert_true(page_test(pfn_to_page(mm, pfn), PG_reserved));
	assert_int_equal(mm->totalcma_pages, 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: on a machine too small for grouping by mobility, areas are refused. */
static void cma_area_refused_on_tiny_machine(void **state)
{
	struct cma_bank bank = { 0, 8 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .cmdline = "cma=4M" };
	struct cma_mm *mm = test_boot(&cfg);

	assert_true(mm->page_group_by_mobility_disabled);
	assert_null(default_area(mm));
	assert_int_equal(mm->totalcma_pages, 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: per-area counters, vmstat cma_alloc_*, meminfo CmaTotal/CmaFree follow the allocations. */
static void cma_statistics_follow_allocations(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE, .cmdline = "cma=8M");
	struct cma_page *p = cma_dma_alloc_from_contiguous(mm, NULL, 100, 0);
	uint64_t v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_null(cma_dma_alloc_from_contiguous(mm, NULL, 2000, 0));
	assert_int_equal(cma_mm_counter(mm, "cma_alloc_success", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(cma_mm_counter(mm, "cma_alloc_fail", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(cma_write_proc(mm, "cma", f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "  used: 100\n"));
	assert_non_null(strstr(buf, "  alloc_pages_success: 100\n"));
	assert_non_null(strstr(buf, "  alloc_pages_fail: 2000\n"));
	assert_non_null(strstr(buf, "  maxchunk: 1948\n"));
	free(buf);
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 100));
	cma_mm_destroy(mm);
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/*
 * Expect: the library counts what the simulator prices per CPU and per
 * lock (no kernel counts these): each drain_all_pages() call, each
 * lru_add_drain_all() call -- alloc_contig_range makes at least one of
 * each under both profiles (v3.5 directly, 6.12 through
 * lru_cache_disable) -- and each page lru_cache_add() puts in a pagevec.
 */
static void cma_drains_and_lru_adds_are_counted(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE, .cmdline = "cma=8M");
	uint64_t pcp = counter(mm, "drain_all_pages"), lru = counter(mm, "lru_add_drain_all");
	uint64_t adds;
	struct fake_owner *o = owner_create(mm, true, 1);
	struct cma_page *p;

	cma_drain_all_pages(mm);
	assert_int_equal(counter(mm, "drain_all_pages"), pcp + 1);
	assert_int_equal(counter(mm, "lru_add_drain_all"), lru);
	p = cma_dma_alloc_from_contiguous(mm, NULL, 100, 0);
	assert_non_null(p);
	assert_true(counter(mm, "drain_all_pages") >= pcp + 2);
	assert_true(counter(mm, "lru_add_drain_all") >= lru + 1);
	adds = counter(mm, "lru_add");
	assert_non_null(owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 1));
	assert_int_equal(counter(mm, "lru_add"), adds + 1);
	owner_destroy(o);
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 100));
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_from_contiguous_full_area),
		cmocka_unit_test(alloc_from_contiguous_pinned_page_skips_range),
		cmocka_unit_test(alloc_from_contiguous_everything_pinned_fails_clean),
		cmocka_unit_test(alloc_contig_range_reclaim_leaves_pcp_pages),
		cmocka_unit_test(alloc_contig_range_mlocked_page_busy),
		cmocka_unit_test(alloc_contig_range_movable_zone_memory),
		cmocka_unit_test(release_from_contiguous_frees_through_pcp_lists),
		cmocka_unit_test(dma_contiguous_reserve_size_selection),
		cmocka_unit_test(mm_create_malformed_cma_config),
		cmocka_unit_test(dma_declare_contiguous_error_codes),
		cmocka_unit_test(dev_set_cma_area_follows_v23),
		cmocka_unit_test(cma_area_spanning_zones_dropped),
		cmocka_unit_test(cma_area_refused_on_tiny_machine),
		cmocka_unit_test(cma_statistics_follow_allocations),
		cmocka_unit_test(cma_drains_and_lru_adds_are_counted),
		cmocka_unit_test(set_trace_events_delivers_only_the_chosen),
	};

	const struct test_mode_case mode_cases[] = {
		test_mode_case(alloc_contig_range_unaligned_returns_head_and_tail),
		test_mode_case(alloc_contig_range_bad_input),
		test_mode_case(release_from_contiguous_foreign_pages),
		test_mode_case(alloc_from_contiguous_alignment_clamped),
	};

	return cmocka_run_group_tests_name("cma", tests, NULL, NULL) +
	       test_run_mode_cases("cma in every mode", mode_cases);
}
