// SPDX-License-Identifier: GPL-2.0
/*
 * Compaction of large folios, release by release (issue 27, item 2's
 * last part; kernel.compact_folios, 6.9): before 6.9 compaction's
 * migrate scanner passes every compound page over; from 6.9 it takes a
 * folio below the run's target order (a pageblock for compact_memory)
 * and migrates it whole, the free scanner keeping whole free blocks on a
 * list per order and compaction_alloc cutting a target of the folio's
 * order out of the smallest, its halves kept for the next targets. Each
 * test runs on both sides of the boundary, the kernel in its messages.
 */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

struct release {
	const char *kernel;
	bool has;
};

static const struct release releases[] = {
	{ "3.5", false }, { "6.8", false }, { "6.9", true }, { "6.12", true },
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* A movable folio of @order at @pfn, slot @idx of @o, filled with @byte; on the LRU (drained). */
static struct cma_page *folio_at(struct fake_owner *o, uint64_t idx, unsigned long pfn,
				 unsigned order, int byte)
{
	struct cma_mm *mm = o->mm;
	struct cma_page *page = cma_alloc_movable_at(mm, pfn, order, &fake_anon_ops, o, idx);

	assert_non_null(page);
	memset(cma_page_address(mm, page), byte, (size_t)mm->page_size << order);
	o->slots[idx].page = page;
	lru_add_drain_all(mm);
	return page;
}

/* Slot @idx's folio still of @order and filled with @byte; then freed. */
static void folio_check_and_free(struct fake_owner *o, uint64_t idx, unsigned order, int byte,
				 const char *kernel)
{
	struct cma_mm *mm = o->mm;
	struct cma_page *page = o->slots[idx].page;
	const unsigned char *p = cma_page_address(mm, page);

	expect_kernel(kernel, "the folio's order after", order, page_order(page));
	for (size_t i = 0; i < (size_t)mm->page_size << order; i++)
		if (p[i] != byte)
			fail_msg("%s: byte %zu of folio %llu lost in the move", kernel, i,
				 (unsigned long long)idx);
	o->slots[idx].page = NULL;
	cma_free_pages(mm, page, order);
}

/*
 * What the migrate scanner counts beyond the pfns it crosses in
 * [@start, @end): from 3.18 it steps over a free block from its head,
 * from 6.4 counting all of it, and a block larger than a pageblock is
 * counted whole where its head's pageblock is scanned, its rest again
 * pfn by pfn in the next (6.12's isolate_migratepages_block).
 */
static long free_overhang(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	long over = 0;

	for (unsigned long pfn = start; pfn < end; pfn++) {
		struct cma_page *page = pfn_to_page(mm, pfn);

		if (page_test(page, PG_buddy) && page_order(page) > mm->pageblock_order)
			over += (1l << page_order(page)) - (long)mm->pageblock_nr_pages;
	}
	return over;
}

/*
 * Expect: compact_memory over a zone holding an order-2 folio at pfn p
 * and an order-1 one at p + 8, nothing else movable, leaves both where
 * they are before 6.9, the migrate scanner crossing the whole zone (the
 * folios' tails counted from 6.4 only: 4 pfns fewer before). From 6.9
 * both move whole. The free scanner takes one free block, of a
 * pageblock, the second from the zone's top (boot allocations hold the
 * top one), and the migrate scanner stops a pageblock below it. The
 * order-1 folio, taken last, migrates first (list_add) into that block's
 * head; the order-2 one gets the order-2 half its split left, at the
 * order-1 target + 4. pgmigrate_success counts their 6 pages (5.9's
 * page counting), compact_isolated the 6 and the block's 512; the scan
 * counts the pfns crossed, and from 6.4 the free blocks larger than a
 * pageblock once more beyond (free_overhang()).
 */
static void compact_memory_migrates_folios_whole_by_release(void **state)
{
	for (size_t i = 0; i < NR(releases); i++) {
		const char *kernel = releases[i].kernel;
		bool moves = releases[i].has;
		struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
		struct zone *z = &mm->zones[ZONE_NORMAL];
		unsigned long start = z->zone_start_pfn + 2048, pfn2, pfn1;
		unsigned long end = z->zone_start_pfn + z->spanned_pages, nr = mm->pageblock_nr_pages;
		struct fake_owner *o = owner_create(mm, true, 2);
		uint64_t success = test_counter(mm, "pgmigrate_success");
		uint64_t isolated = test_counter(mm, "compact_isolated");
		uint64_t scanned = test_counter(mm, "compact_migrate_scanned");
		bool count_all = cma_kernel_has(kernel, "compact_scan_count_order");
		long whole_zone = (long)z->spanned_pages - (count_all ? 0 : 4), over;

		folio_at(o, 0, start, 2, 0x5a);
		folio_at(o, 1, start + 8, 1, 0xa5);
		assert_verify(mm);
		over = count_all ? free_overhang(mm, z->zone_start_pfn, moves ? end - 3 * nr : end) : 0;
		assert_int_equal(cma_compact_memory(mm), 0);
		pfn2 = cma_page_to_pfn(mm, o->slots[0].page);
		pfn1 = cma_page_to_pfn(mm, o->slots[1].page);
		expect_kernel(kernel, "the order-1 folio's pfn", moves ? (long)(end - 2 * nr) : (long)start + 8,
			      (long)pfn1);
		expect_kernel(kernel, "the order-2 folio's pfn", moves ? (long)(end - 2 * nr + 4) : (long)start,
			      (long)pfn2);
		expect_kernel(kernel, "pgmigrate_success", moves ? 6 : 0,
			      (long)(test_counter(mm, "pgmigrate_success") - success));
		expect_kernel(kernel, "compact_isolated", moves ? 6 + (long)nr : 0,
			      (long)(test_counter(mm, "compact_isolated") - isolated));
		expect_kernel(kernel, "compact_migrate_scanned",
			      (moves ? (long)(end - 3 * nr - z->zone_start_pfn) : whole_zone) + over,
			      (long)(test_counter(mm, "compact_migrate_scanned") - scanned));
		assert_verify(mm);
		folio_check_and_free(o, 0, 2, 0x5a, kernel);
		folio_check_and_free(o, 1, 1, 0xa5, kernel);
		owner_destroy(o);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (skip_isolation_on_order): a compaction for order @target
 * passes over an order-2 folio when @target is 2 or less, takes it when
 * 3 or more, and, for compact_memory (-1), takes it but passes an
 * order-9 (pageblock) folio over; before 6.9 every one is passed over.
 * The scan counts the folio's 4 pages either way (6.4), compact_isolated
 * the 4 only when it is taken.
 */
struct order_case {
	unsigned order;		/* the folio's */
	int target;		/* the run's; -1: compact_memory */
	bool taken;		/* from 6.9 */
};

static void isolate_one_folio(const char *kernel, bool has, const struct order_case *c)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long start = z->zone_start_pfn + 2048, nr = 1ul << c->order;
	struct fake_owner *o = owner_create(mm, true, 1);
	uint64_t isolated = test_counter(mm, "compact_isolated");
	uint64_t scanned = test_counter(mm, "compact_migrate_scanned");
	struct compact_control cc = {
		.order = c->target, .sync = true, .zone = z, .migratetype = MIGRATE_MOVABLE,
		.gfp_mask = CMA_GFP_KERNEL, .compacting = true,
	};
	bool taken = has && c->taken;
	char what[64];

	folio_at(o, 0, start, c->order, 0x3c);
	compact_control_init_lists(&cc);
	assert_int_equal(isolate_migratepages_range(z, &cc, start, start + nr), start + nr);
	snprintf(what, sizeof(what), "order-%u folio, target %d: pages isolated", c->order,
		 c->target);
	expect_kernel(kernel, what, taken ? (long)nr : 0, (long)cc.nr_migratepages);
	expect_kernel(kernel, "compact_isolated", taken ? (long)nr : 0,
		      (long)(test_counter(mm, "compact_isolated") - isolated));
	expect_kernel(kernel, "compact_migrate_scanned",
		      cma_kernel_has(kernel, "compact_scan_count_order") ? (long)nr : 1,
		      (long)(test_counter(mm, "compact_migrate_scanned") - scanned));
	putback_lru_pages(mm, &cc.migratepages);
	lru_add_drain_all(mm);
	assert_verify(mm);
	folio_check_and_free(o, 0, c->order, 0x3c, kernel);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static void isolate_folio_by_target_order_and_release(void **state)
{
	static const struct order_case cases[] = {
		{ 2, 2, false }, { 2, 3, true }, { 2, -1, true }, { 9, -1, false }, { 9, 10, true },
	};

	for (size_t i = 0; i < NR(releases); i++)
		for (size_t j = 0; j < NR(cases); j++)
			isolate_one_folio(releases[i].kernel, releases[i].has, &cases[j]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compact_memory_migrates_folios_whole_by_release),
		cmocka_unit_test(isolate_folio_by_target_order_and_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
