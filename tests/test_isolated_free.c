// SPDX-License-Identifier: GPL-2.0
/*
 * Free pages of isolated pageblocks in the zone's counters (issue 27):
 * counted in NR_FREE_PAGES up to 3.6; from 3.7 ("cma: fix counting of
 * isolated pages", isolated_free_uncounted) isolating a block takes its
 * free pages out of NR_FREE_PAGES (and NR_FREE_CMA_PAGES for a CMA
 * block), a page freed into it is not added, and undoing the isolation
 * adds them back. Each test runs on both sides of the boundary.
 */
#include "helpers.h"

/* A machine with an 8 MiB CMA area at 32 MiB, pageblocks of 512 pages. */
static struct cma_mm *cma_machine(const char *kernel)
{
	return test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .kernel = kernel,
		       .cma_base = 32 * MiB, .cma_size = 8 * MiB);
}

static const char *const isolated_free_kernels[] = { "3.5", "3.6", "3.7", "6.12" };

/*
 * Expect: isolating a CMA pageblock with one page in use takes its 511
 * free pages out of NR_FREE_PAGES from 3.7 (none before); freeing that
 * page into the isolated block adds nothing from 3.7 (one page before);
 * undoing the isolation leaves the counter one page above where it
 * started. NR_FREE_CMA_PAGES, 3.7's counter, which the library keeps
 * under every release, counts the CMA lists only: the 511 pages leave
 * it and the freed one stays out until the block is CMA again.
 */
static void isolated_block_free_pages_by_release(const char *kernel, unsigned i)
{
	struct cma_mm *mm = cma_machine(kernel);
	unsigned long base = (32 * MiB) >> mm->page_shift;
	struct zone *zone = pfn_zone(mm, base);
	long out = cma_kernel_has(kernel, "isolated_free_uncounted") == 1 ? 511 : 0;
	struct cma_page *page;
	long free, cma;

	cma_drain_all_pages(mm);
	page = cma_alloc_pages_at(mm, base + 3, 0, CMA_GFP_HIGHUSER_MOVABLE);
	assert_non_null(page);
	free = (long)zone_page_state(zone, NR_FREE_PAGES);
	cma = (long)zone_page_state(zone, NR_FREE_CMA_PAGES);
	assert_int_equal(cma_start_isolate_page_range(mm, base, base + 512, CMA_MIGRATE_CMA), 0);
	expect_kernel(kernel, "NR_FREE_PAGES with the block isolated", free - out,
		      (long)zone_page_state(zone, NR_FREE_PAGES));
	expect_kernel(kernel, "NR_FREE_CMA_PAGES with the block isolated", cma - 511,
		      (long)zone_page_state(zone, NR_FREE_CMA_PAGES));
	assert_verify(mm);
	cma_free_pages(mm, page, 0);
	cma_drain_all_pages(mm);
	expect_kernel(kernel, "NR_FREE_PAGES after a free into the block", free - out + !out,
		      (long)zone_page_state(zone, NR_FREE_PAGES));
	expect_kernel(kernel, "NR_FREE_CMA_PAGES after a free into the block", cma - 511,
		      (long)zone_page_state(zone, NR_FREE_CMA_PAGES));
	assert_verify(mm);
	assert_int_equal(cma_undo_isolate_page_range(mm, base, base + 512, CMA_MIGRATE_CMA), 0);
	expect_kernel(kernel, "NR_FREE_PAGES after undoing the isolation", free + 1,
		      (long)zone_page_state(zone, NR_FREE_PAGES));
	expect_kernel(kernel, "NR_FREE_CMA_PAGES after undoing the isolation", cma + 1,
		      (long)zone_page_state(zone, NR_FREE_CMA_PAGES));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: with a free MOVABLE pageblock isolated, a watermark check for
 * a mark 256 pages under the zone's free pages passes up to 3.6 (the
 * block's 512 free pages still counted) and fails from 3.7.
 */
static void watermark_with_block_isolated_by_release(const char *kernel, unsigned i)
{
	struct cma_mm *mm = test_mm(.size = 32 * MiB, .pageblock_order = 9, .kernel = kernel);
	unsigned long block = (8 * MiB) >> mm->page_shift;
	struct zone *zone = pfn_zone(mm, block);
	bool uncounted = cma_kernel_has(kernel, "isolated_free_uncounted") == 1;
	unsigned long mark;

	cma_drain_all_pages(mm);
	assert_int_equal(cma_pageblock_migratetype(mm, block), CMA_MIGRATE_MOVABLE);
	assert_int_equal(cma_test_pages_isolated(mm, block, block + 512), -EBUSY);
	mark = zone_page_state(zone, NR_FREE_PAGES) - 256;
	assert_true(zone_watermark_ok(zone, 0, mark, 0, 0));
	assert_int_equal(cma_start_isolate_page_range(mm, block, block + 512, CMA_MIGRATE_MOVABLE), 0);
	/* the block was wholly free: nothing left to migrate */
	assert_int_equal(cma_test_pages_isolated(mm, block, block + 512), 0);
	expect_kernel(kernel, "the watermark check with the block isolated", !uncounted,
		      zone_watermark_ok(zone, 0, mark, 0, 0));
	assert_verify(mm);
	assert_int_equal(cma_undo_isolate_page_range(mm, block, block + 512, CMA_MIGRATE_MOVABLE), 0);
	expect_kernel(kernel, "the watermark check after", 1, zone_watermark_ok(zone, 0, mark, 0, 0));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(isolated_block_free_pages_by_release, isolated_free_kernels),
		test_kernel_case(watermark_with_block_isolated_by_release, isolated_free_kernels),
	};

	return test_run_kernel_cases("isolated_free (per kernel)", kernel_cases);
}
