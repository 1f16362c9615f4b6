// SPDX-License-Identifier: GPL-2.0
/*
 * ALLOC_HIGHATOMIC for a high-order request that cannot sleep (issue 27):
 * from 4.4 (kernel.highatomic) gfp_to_alloc_flags gives it only to one
 * with __GFP_HIGH (GFP_ATOMIC), which may then take HIGHATOMIC blocks
 * first and reserve its own block. 6.3's 1ebbb21811b7 (alloc_non_block)
 * gave it to every such request, GFP_NOWAIT too; 6a204d4b14c9
 * (highatomic_min_reserve, 6.18, in 6.12.54) asks for __GFP_HIGH again.
 * 6.3's series also let every reserve flag, __GFP_HIGH's too, count the
 * HIGHATOMIC reserve as free in the watermark check, where only
 * ALLOC_HARDER had.
 */
#include <stdbool.h>

#include "helpers.h"

static const char *const kernels[] = { "4.4", "6.2", "6.3", "6.11", "6.12" };
/* Does GFP_NOWAIT get ALLOC_HIGHATOMIC under kernels[i]? */
static const bool nowait_highatomic[] = { false, false, true, true, false };

/* 64 MiB, one zone, 256 KiB pageblocks: 1% of the zone is three blocks. */
static struct cma_mm *small_block_machine(const char *kernel)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 6, .metadata_only = true, .kernel = kernel);

	assert_true(mm->kernel.highatomic);
	assert_true(highatomic_reserve_limit(&mm->zones[ZONE_NORMAL]) >= mm->pageblock_nr_pages);
	return mm;
}

static unsigned long block_of(struct cma_mm *mm, struct cma_page *p)
{
	return cma_page_to_pfn(mm, p) & ~(mm->pageblock_nr_pages - 1);
}

/*
 * Expect (reserve_highatomic_pageblock after get_page_from_freelist):
 * an order-2 GFP_NOWAIT page from the slow path leaves its pageblock
 * HIGHATOMIC, one block in nr_reserved_highatomic, under 6.3-6.11
 * only; under 4.4, 6.2 and 6.12 its block keeps a pcp type and nothing
 * is reserved. GFP_ATOMIC reserves under all five.
 */
static void alloc_pages_nowait_high_order_reserves_6_3_to_6_11(const char *kernel, unsigned i)
{
	struct cma_mm *mm = small_block_machine(kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	struct cma_page *p = test_alloc_pages_slowpath(mm, CMA_GFP_NOWAIT, 2), *q;
	int mt = get_pageblock_migratetype(mm, block_of(mm, p));

	assert_int_equal(mm->kernel.alloc_non_block, i >= 2);
	assert_int_equal(is_migrate_highatomic(mt), nowait_highatomic[i]);
	assert_true(mt < MIGRATE_PCPTYPES || nowait_highatomic[i]);
	assert_int_equal(z->nr_reserved_highatomic, nowait_highatomic[i] ? mm->pageblock_nr_pages : 0);
	assert_int_equal(test_count_pageblocks(mm, MIGRATE_HIGHATOMIC), nowait_highatomic[i]);
	assert_verify(mm);
	cma_free_pages(mm, p, 2);

	q = test_alloc_pages_slowpath(mm, CMA_GFP_ATOMIC, 2);
	assert_int_equal(get_pageblock_migratetype(mm, block_of(mm, q)), MIGRATE_HIGHATOMIC);
	assert_int_equal(z->nr_reserved_highatomic, mm->pageblock_nr_pages);
	assert_int_equal(test_count_pageblocks(mm, MIGRATE_HIGHATOMIC), 1);
	assert_verify(mm);
	cma_free_pages(mm, q, 2);
	cma_mm_destroy(mm);
}

/*
 * Expect (rmqueue_buddy's first try): with a block a GFP_ATOMIC order-4
 * request reserved, the next order-4 GFP_NOWAIT page from the slow
 * path (a costly order, never on the per-CPU lists) comes off that
 * HIGHATOMIC block's free lists under 6.3-6.11, reserving no other;
 * under 4.4, 6.2 and 6.12 from a block of a pcp type, as __rmqueue
 * never falls back to HIGHATOMIC while another block has pages.
 */
static void alloc_pages_nowait_high_order_takes_highatomic_6_3_to_6_11(const char *kernel,
									unsigned i)
{
	struct cma_mm *mm = small_block_machine(kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	struct cma_page *p = test_alloc_pages_slowpath(mm, CMA_GFP_ATOMIC, 4), *q;
	unsigned long reserved = block_of(mm, p);
	long free_ha = atomic_load(&z->free_highatomic);

	assert_int_equal(get_pageblock_migratetype(mm, reserved), MIGRATE_HIGHATOMIC);
	assert_int_equal(free_ha, mm->pageblock_nr_pages - 16);
	q = test_alloc_pages_slowpath(mm, CMA_GFP_NOWAIT, 4);
	assert_int_equal(block_of(mm, q) == reserved, nowait_highatomic[i]);
	assert_int_equal(atomic_load(&z->free_highatomic), free_ha - (nowait_highatomic[i] ? 16 : 0));
	assert_int_equal(z->nr_reserved_highatomic, mm->pageblock_nr_pages);
	assert_int_equal(test_count_pageblocks(mm, MIGRATE_HIGHATOMIC), 1);
	assert_verify(mm);
	cma_free_pages(mm, q, 4);
	cma_free_pages(mm, p, 4);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (__zone_watermark_unusable_free): with one block reserved, a
 * blocking __GFP_HIGH request (ALLOC_HIGH alone: min halved) meets a
 * mark whose half is one page under the zone's free pages only if the
 * reserve counts as free for it: from 6.3 (ALLOC_RESERVES), not under
 * 4.4 or 6.2 (ALLOC_HARDER's rights). ALLOC_HARDER meets it in all.
 */
static void zone_watermark_ok_min_reserve_counts_highatomic_from_6_3(const char *kernel,
								     unsigned i)
{
	struct cma_mm *mm = small_block_machine(kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	struct cma_page *p = test_alloc_pages_slowpath(mm, CMA_GFP_ATOMIC, 2);
	unsigned long mark = 2 * (zone_page_state(z, NR_FREE_PAGES) - 1);

	assert_int_equal(z->nr_reserved_highatomic, mm->pageblock_nr_pages);
	assert_true(atomic_load(&z->free_highatomic) > 0);
	assert_int_equal(zone_watermark_ok(z, 0, mark, ZONE_NORMAL, ALLOC_HIGH), i >= 2);
	assert_true(zone_watermark_ok(z, 0, mark, ZONE_NORMAL, ALLOC_HIGH | ALLOC_HARDER));
	assert_false(zone_watermark_ok(z, 0, mark / 2 + 1, ZONE_NORMAL, 0));
	cma_free_pages(mm, p, 2);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct test_kernel_case cases[] = {
		test_kernel_case(alloc_pages_nowait_high_order_reserves_6_3_to_6_11, kernels),
		test_kernel_case(alloc_pages_nowait_high_order_takes_highatomic_6_3_to_6_11, kernels),
		test_kernel_case(zone_watermark_ok_min_reserve_counts_highatomic_from_6_3, kernels),
	};

	return test_run_kernel_cases("highatomic_nowait (per kernel)", cases);
}
