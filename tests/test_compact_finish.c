// SPDX-License-Identifier: GPL-2.0
/*
 * When compaction starts and when it stops, release by release
 * (src/mm/compaction.c: compaction_suitable and compact_finished): 4.9's
 * min mark and costly-only fragmentation index, 4.1's finish condition
 * (a free CMA block serves a movable request) and 5.1's rule that a run
 * finishes its pageblock. Each test runs the profiles on either side of
 * each boundary. Machines of 16 MiB, 4 KiB pages, 2 MiB pageblocks.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

static struct zone *normal(struct cma_mm *mm)
{
	return &mm->zones[ZONE_NORMAL];
}

static void expect_suitable(const char *kernel, int order, int found, int expected)
{
	if (found != expected) {
		print_error("%s, order %d: expected compaction_suitable %d, found %d\n", kernel,
			    order, expected, found);
		fail();
	}
}

/*
 * Expect (__compaction_suitable of 6.12, 4.9): with free pages above the
 * min mark plus the gap but not above the low mark plus it, an order-2
 * request may compact (PARTIAL here: a block of its order is free) from
 * 4.9 on, and is SKIPPED before, when every order needed the low mark.
 * An order-4 (costly) request is SKIPPED under both.
 */
static void compaction_suitable_min_mark_below_costly(void **state)
{
	static const struct { const char *kernel; int order2; } cases[] = {
		{ "3.5", COMPACT_SKIPPED }, { "4.8", COMPACT_SKIPPED },
		{ "4.9", COMPACT_PARTIAL }, { "6.12", COMPACT_PARTIAL },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct cma_mm *mm = test_mm(.size = 16 * MiB, .pageblock_order = 9,
					    .metadata_only = true, .kernel = cases[k].kernel);
		struct zone *z = normal(mm);
		unsigned long free = zone_page_state(z, NR_FREE_PAGES);

		spin_lock(&z->lock);
		__atomic_store_n(&z->watermark[WMARK_MIN], free - 64, __ATOMIC_RELAXED);
		__atomic_store_n(&z->watermark[WMARK_LOW], free, __ATOMIC_RELAXED);
		__atomic_store_n(&z->watermark[WMARK_HIGH], free, __ATOMIC_RELAXED);
		spin_unlock(&z->lock);
		expect_suitable(cases[k].kernel, 2, compaction_suitable(z, 2), cases[k].order2);
		expect_suitable(cases[k].kernel, 4, compaction_suitable(z, 4), COMPACT_SKIPPED);
		cma_mm_destroy(mm);
	}
}

/*
 * Take every page, then give back the upper 2^(@order) pages of each
 * aligned 2^(@order + 1) whose pages were all taken: free memory is then
 * only blocks of @order, each with its buddy allocated.
 */
static void free_upper_halves(struct cma_mm *mm, unsigned order, struct cma_page **pages,
			      unsigned long max)
{
	unsigned long nr = mm->end_pfn - mm->base_pfn, n, span = 2ul << order;
	struct cma_page **at = calloc(nr, sizeof(*at));

	assert_non_null(at);
	test_zero_watermarks(mm);
	n = test_alloc_all(mm, CMA_GFP_KERNEL, pages, max);
	for (unsigned long i = 0; i < n; i++)
		at[page_to_pfn(mm, pages[i]) - mm->base_pfn] = pages[i];
	for (unsigned long b = 0; b + span <= nr; b += span) {
		unsigned long i;

		for (i = b; i < b + span && at[i]; i++)
			;
		if (i < b + span)
			continue;
		for (i = b + span / 2; i < b + span; i++)
			cma_free_pages(mm, at[i], 0);
	}
	cma_drain_all_pages(mm);
	free(at);
}

/*
 * Expect (compaction_suitable of 6.12, "mm, compaction: restrict
 * fragindex to costly orders", 4.9): free memory in order-2 blocks only
 * gives order 3 an index under 500 (memory missing, not fragmented):
 * SKIPPED before 4.9, CONTINUE from it, as order 3 is not costly.
 */
static void compaction_suitable_fragindex_only_costly(void **state)
{
	static const struct { const char *kernel; int order3; } cases[] = {
		{ "3.5", COMPACT_SKIPPED }, { "4.8", COMPACT_SKIPPED },
		{ "4.9", COMPACT_CONTINUE }, { "6.12", COMPACT_CONTINUE },
	};
	unsigned long max = 4096;
	struct cma_page **pages = calloc(max, sizeof(*pages));

	assert_non_null(pages);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct cma_mm *mm = test_mm(.size = 16 * MiB, .pageblock_order = 9,
					    .metadata_only = true, .kernel = cases[k].kernel);
		struct zone *z = normal(mm);
		int index;

		free_upper_halves(mm, 2, pages, max);
		index = fragmentation_index(z, 3);
		assert_true(index >= 0 && index <= 500);
		assert_true(z->free_area[2].nr_free > 0 && !z->free_area[3].nr_free);
		expect_suitable(cases[k].kernel, 3, compaction_suitable(z, 3), cases[k].order3);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
	free(pages);
}

#define CMA_START	(4 * MiB)
#define NR_SOURCES	48

/*
 * Every page taken; NR_SOURCES movable LRU pages at the CMA area's start
 * (the first pageblock the migrate scanner can isolate from) and every
 * other page of the top pageblock free as targets.
 */
static struct fake_owner *lay_out_sources(struct cma_mm *mm, struct cma_page **pages,
					  unsigned long max)
{
	unsigned long cma = CMA_START >> mm->page_shift, top = 0;
	struct fake_owner *o = owner_create(mm, true, NR_SOURCES);
	unsigned long n;

	assert_non_null(o);
	test_zero_watermarks(mm);
	n = test_alloc_all(mm, CMA_GFP_HIGHUSER_MOVABLE, pages, max);
	/* the top pageblock the allocator had (the memmap's are reserved above it) */
	for (unsigned long i = 0; i < n; i++)
		if (page_to_pfn(mm, pages[i]) > top)
			top = page_to_pfn(mm, pages[i]);
	top &= ~(mm->pageblock_nr_pages - 1);
	for (unsigned long i = 0; i < n; i++) {
		unsigned long pfn = page_to_pfn(mm, pages[i]);

		if ((pfn >= cma && pfn < cma + NR_SOURCES) || (pfn >= top && pfn % 2))
			cma_free_pages(mm, pages[i], 0);
	}
	cma_drain_all_pages(mm);
	for (unsigned long i = 0; i < NR_SOURCES; i++)
		assert_non_null(owner_fault_at(o, i, cma + i, i + 1));
	lru_add_drain_all(mm);
	assert_int_equal(get_pageblock_migratetype(mm, cma), MIGRATE_CMA);
	return o;
}

/*
 * Expect (__compact_finished of 6.12): a direct order-4 movable run
 * empties the CMA area's first 32 pages in its first batch. From 4.1
 * ("mm/compaction: enhance compaction finish condition") the order-5
 * CMA block that leaves serves the request: PARTIAL, the migrate
 * scanner where the batch ended; from 5.1 ("mm, compaction: always
 * finish scanning of a full pageblock") it first finishes the pageblock.
 * Before 4.1 only a block of a pageblock or more ends the run, and it
 * goes on until the scanners meet.
 */
static void compact_zone_movable_stops_at_free_cma_block(void **state)
{
	static const struct { const char *kernel; int ret; unsigned long migrate_end; } cases[] = {
		{ "3.5", COMPACT_COMPLETE, 0 }, { "4.0", COMPACT_COMPLETE, 0 },
		{ "4.1", COMPACT_PARTIAL, 32 }, { "5.0", COMPACT_PARTIAL, 32 },
		{ "5.1", COMPACT_PARTIAL, 512 }, { "5.14", COMPACT_PARTIAL, 512 }, { "6.6", COMPACT_PARTIAL, 512 }, { "6.7", COMPACT_PARTIAL, 512 }, { "6.12", COMPACT_PARTIAL, 512 },
	};
	unsigned long max = 4096;
	struct cma_page **pages = calloc(max, sizeof(*pages));

	assert_non_null(pages);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct cma_mm *mm = test_mm(.size = 16 * MiB, .pageblock_order = 9,
					    .cma_base = CMA_START, .cma_size = 4 * MiB,
					    .kernel = cases[k].kernel);
		struct fake_owner *o = lay_out_sources(mm, pages, max);
		unsigned long cma = CMA_START >> mm->page_shift;
		struct compact_control cc;
		int ret;

		memset(&cc, 0, sizeof(cc));
		compact_control_init_lists(&cc);
		cc.order = 4;
		cc.sync = true;
		cc.direct = true;
		cc.migratetype = MIGRATE_MOVABLE;
		cc.gfp_mask = CMA_GFP_HIGHUSER_MOVABLE;
		ret = compact_zone(normal(mm), &cc);
		if (ret != cases[k].ret ||
		    (cases[k].migrate_end && cc.migrate_pfn != cma + cases[k].migrate_end)) {
			print_error("%s: expected %d with the migrate scanner at %#lx, found %d at %#lx\n",
				    cases[k].kernel, cases[k].ret, cma + cases[k].migrate_end, ret,
				    cc.migrate_pfn);
			fail();
		}
		assert_int_equal(owner_check(o), NR_SOURCES);
		assert_verify(mm);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
	free(pages);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compaction_suitable_min_mark_below_costly),
		cmocka_unit_test(compaction_suitable_fragindex_only_costly),
		cmocka_unit_test(compact_zone_movable_stops_at_free_cma_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
