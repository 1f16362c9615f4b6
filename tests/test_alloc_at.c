// SPDX-License-Identifier: GPL-2.0
/*
 * Placing pages where a described machine has them (cmasim import):
 * cma_alloc_pages_at(), cma_alloc_movable_at(),
 * cma_set_pageblock_migratetype() and cma_free_reserved_area(). They follow 6.12's
 * take_page_off_buddy()/break_down_buddy_pages() (a page taken out of
 * the middle of a free block) and the fallback path's
 * move_freepages_block() + set_pageblock_migratetype() (a block given a
 * new type with its free pages) and free_reserved_area().
 */
#include "helpers.h"
#include "owners.h"

/* The pageblock order's block at 8 MiB, in pfns. */
#define PFN_8M (8 * MiB / 4096)

/*
 * Expect the one page taken out of the middle of a free max-order block,
 * the block's other pages staying free around it, split into halves.
 */
static void cma_alloc_pages_at_splits_free_block(void **state)
{
	struct cma_mm *mm = test_mm(.size = 32 * MiB);
	unsigned long pfn = PFN_8M + 37;
	struct zone *zone = pfn_zone(mm, pfn);
	unsigned long before = zone_page_state(zone, NR_FREE_PAGES);
	struct cma_page *page;

	cma_drain_all_pages(mm);
	before = zone_page_state(zone, NR_FREE_PAGES);
	page = cma_alloc_pages_at(mm, pfn, 0, CMA_GFP_KERNEL);
	assert_non_null(page);
	assert_int_equal(cma_page_to_pfn(mm, page), pfn);
	assert_int_equal(zone_page_state(zone, NR_FREE_PAGES), before - 1);
	assert_true(page_test(pfn_to_page(mm, pfn + 1), PG_buddy));
	assert_true(page_test(pfn_to_page(mm, pfn - 1), PG_buddy));
	assert_verify(mm);
	cma_free_pages(mm, page, 0);
	cma_drain_all_pages(mm);
	assert_int_equal(zone_page_state(zone, NR_FREE_PAGES), before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect EBUSY for a page in use, EINVAL for an unaligned pfn or a hole, nothing taken. */
static void cma_alloc_pages_at_refuses(void **state)
{
	struct cma_mm *mm = test_mm(.size = 32 * MiB);
	struct cma_page *page = cma_alloc_pages_at(mm, PFN_8M, 2, CMA_GFP_KERNEL);
	unsigned long free;

	assert_non_null(page);
	cma_drain_all_pages(mm);
	free = zone_page_state(pfn_zone(mm, PFN_8M), NR_FREE_PAGES);
	errno = 0;
	assert_null(cma_alloc_pages_at(mm, PFN_8M + 1, 0, CMA_GFP_KERNEL));
	assert_int_equal(errno, EBUSY);
	assert_null(cma_alloc_pages_at(mm, PFN_8M, 3, CMA_GFP_KERNEL));
	assert_int_equal(errno, EBUSY);
	assert_null(cma_alloc_pages_at(mm, PFN_8M + 6, 2, CMA_GFP_KERNEL));
	assert_int_equal(errno, EINVAL);
	assert_null(cma_alloc_pages_at(mm, 64 * MiB / 4096, 0, CMA_GFP_KERNEL));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(zone_page_state(pfn_zone(mm, PFN_8M), NR_FREE_PAGES), free);
	assert_verify(mm);
	cma_free_pages(mm, page, 2);
	cma_mm_destroy(mm);
}

/* Expect a movable page of its owner at the pfn, which alloc_contig_range then moves away. */
static void cma_alloc_movable_at_migrates(void **state)
{
	struct cma_mm *mm = test_mm(.size = 32 * MiB, .metadata_only = true);
	struct fake_owner *o = owner_create(mm, true, 1);
	unsigned long pfn = PFN_8M + 100, pb = mm->pageblock_nr_pages;
	struct cma_page *page = cma_alloc_movable_at(mm, pfn, 0, &fake_anon_ops, o, 0);

	assert_non_null(page);
	o->slots[0].page = page;
	lru_add_drain_all(mm);	/* on the LRU: from a pagevec, isolation refuses it */
	assert_int_equal(cma_page_to_pfn(mm, page), pfn);
	assert_int_equal(cma_alloc_contig_range(mm, PFN_8M, PFN_8M + pb, CMA_MIGRATE_MOVABLE), 0);
	assert_int_equal(o->migrated, 1);
	assert_int_not_equal(cma_page_to_pfn(mm, o->slots[0].page), pfn);
	cma_free_contig_range(mm, PFN_8M, pb);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* Expect the block's type changed and its free pages on that type's lists; CMA refused. */
static void cma_set_pageblock_migratetype_moves_free_pages(void **state)
{
	struct cma_mm *mm = test_mm(.size = 32 * MiB);
	struct zone *zone = pfn_zone(mm, PFN_8M);
	unsigned long before;

	cma_drain_all_pages(mm);
	before = free_pages_of_type(zone, CMA_MIGRATE_UNMOVABLE);
	assert_int_equal(cma_set_pageblock_migratetype(mm, PFN_8M, CMA_MIGRATE_UNMOVABLE), 0);
	assert_int_equal(cma_pageblock_migratetype(mm, PFN_8M), CMA_MIGRATE_UNMOVABLE);
	assert_true(free_pages_of_type(zone, CMA_MIGRATE_UNMOVABLE) > before);
	assert_int_equal(cma_set_pageblock_migratetype(mm, PFN_8M, CMA_MIGRATE_CMA), -EINVAL);
	assert_int_equal(cma_set_pageblock_migratetype(mm, 64 * MiB / 4096, CMA_MIGRATE_MOVABLE), -EINVAL);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect a block asked to be MOVABLE on a machine too small to group by
 * mobility to become UNMOVABLE, as set_pageblock_migratetype() forces it,
 * its free pages on that list (the verifier checks).
 */
static void cma_set_pageblock_migratetype_grouping_off(void **state)
{
	struct cma_mm *mm = test_mm(.size = 8 * MiB);
	char *log = test_dmesg(mm);

	assert_non_null(strstr(log, "mobility grouping off"));
	free(log);
	assert_int_equal(cma_set_pageblock_migratetype(mm, 4 * MiB / 4096, CMA_MIGRATE_MOVABLE), 0);
	assert_int_equal(cma_pageblock_migratetype(mm, 4 * MiB / 4096), CMA_MIGRATE_UNMOVABLE);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect the two pageblocks of one free max-order block given different
 * types to end with each half on its own block's list (under 6.12 the
 * verifier checks that every free block lies on its block's type).
 */
static void cma_set_pageblock_migratetype_splits_larger_free_block(void **state)
{
	struct cma_mm *mm = test_mm(.size = 32 * MiB, .pageblock_order = 9);
	unsigned long pb = mm->pageblock_nr_pages;

	cma_drain_all_pages(mm);
	assert_true(page_test(pfn_to_page(mm, PFN_8M), PG_buddy));
	assert_int_equal(page_order(pfn_to_page(mm, PFN_8M)), mm->max_order - 1);
	assert_int_equal(cma_set_pageblock_migratetype(mm, PFN_8M, CMA_MIGRATE_RECLAIMABLE), 0);
	assert_int_equal(cma_set_pageblock_migratetype(mm, PFN_8M + pb, CMA_MIGRATE_UNMOVABLE), 0);
	assert_verify(mm);
	assert_int_equal(page_order(pfn_to_page(mm, PFN_8M)), mm->pageblock_order);
	assert_true(page_test(pfn_to_page(mm, PFN_8M + pb), PG_buddy));
	assert_int_equal(cma_pageblock_migratetype(mm, PFN_8M + pb), CMA_MIGRATE_UNMOVABLE);
	cma_mm_destroy(mm);
}

/* Expect a CMA pageblock's type left to CMA: -EBUSY. */
static void cma_set_pageblock_migratetype_cma_block(void **state)
{
	struct cma_mm *mm = test_mm(TEST_CMA_32M);

	assert_int_equal(cma_set_pageblock_migratetype(mm, 32 * MiB / 4096, CMA_MIGRATE_MOVABLE), -EBUSY);
	assert_int_equal(cma_pageblock_migratetype(mm, 32 * MiB / 4096), CMA_MIGRATE_CMA);
	cma_mm_destroy(mm);
}

/* Expect the reserved pages of the range freed once, managed pages grown, the others left. */
static void cma_free_reserved_area_frees_reserved_pages(void **state)
{
	struct cma_mm *mm = test_mm_early(.size = 32 * MiB);
	struct cma_pageblock_stat st;
	struct zone *zone;
	unsigned long free, managed;

	assert_int_equal(cma_memblock_reserve(mm, 8 * MiB, 1 * MiB), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_int_equal(cma_pageblock_stat(mm, PFN_8M, &st), 0);
	assert_int_equal(st.nr_reserved, 256);
	zone = pfn_zone(mm, PFN_8M);
	cma_drain_all_pages(mm);
	free = zone_page_state(zone, NR_FREE_PAGES);
	managed = zone->managed_pages;
	assert_int_equal(cma_free_reserved_area(mm, PFN_8M - 16, PFN_8M + 128), 128);
	assert_int_equal(zone_page_state(zone, NR_FREE_PAGES), free + 128);
	assert_int_equal(zone->managed_pages, managed + 128);
	assert_int_equal(cma_free_reserved_area(mm, PFN_8M, PFN_8M + 128), 0);
	assert_int_equal(cma_pageblock_stat(mm, PFN_8M, &st), 0);
	assert_int_equal(st.nr_reserved, 128);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cma_alloc_pages_at_splits_free_block),
		cmocka_unit_test(cma_alloc_pages_at_refuses),
		cmocka_unit_test(cma_alloc_movable_at_migrates),
		cmocka_unit_test(cma_set_pageblock_migratetype_moves_free_pages),
		cmocka_unit_test(cma_set_pageblock_migratetype_cma_block),
		cmocka_unit_test(cma_set_pageblock_migratetype_splits_larger_free_block),
		cmocka_unit_test(cma_set_pageblock_migratetype_grouping_off),
		cmocka_unit_test(cma_free_reserved_area_frees_reserved_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
