// SPDX-License-Identifier: GPL-2.0
/*
 * Free pages of isolated pageblocks in the zone's counters (issue 27):
 * counted in NR_FREE_PAGES up to 3.6; from 3.7 ("cma: fix counting of
 * isolated pages", isolated_free_uncounted) isolating a block takes its
 * free pages out of NR_FREE_PAGES (and NR_FREE_CMA_PAGES for a CMA
 * block), a page freed into it is not added, and undoing the isolation
 * adds them back. Each test runs on both sides of the boundary (and
 * the last on both sides of 3.8, which dropped __reclaim_pages).
 */
#include <stdlib.h>

#include "helpers.h"
#include "owners.h"

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

static const char *const reclaim_kernels[] = { "3.5", "3.6", "3.7", "3.8", "6.12" };

/*
 * Expect: alloc_contig_range over a pageblock holding 16 of an owner's
 * pages, on a zone whose free pages outside it are its low mark + 640,
 * succeeds up to 3.6, fails with -ENOMEM under 3.7 and succeeds from
 * 3.8. Up to 3.7 __reclaim_pages wants low + 2 x 512 pages free before
 * taking the range (the marks raised by its size): up to 3.6 the
 * range's own 512 free pages count, in 3.7 they no longer do, and
 * nothing is reclaimable (the library gives up where the kernel loops);
 * 3.8 ("mm: cma: remove watermark hacks", alloc_cma) has no such check.
 */
static void contig_range_near_low_mark_by_release(const char *kernel, unsigned i)
{
	struct cma_mm *mm = test_mm(.size = 32 * MiB, .pageblock_order = 9, .kernel = kernel);
	unsigned long start = (8 * MiB) >> mm->page_shift, end = start + 512, n = 0, nr_free;
	struct zone *zone = pfn_zone(mm, start);
	struct fake_owner *o = owner_create(mm, true, 16);
	struct cma_page **taken = calloc(mm->end_pfn - mm->base_pfn, sizeof(*taken));
	bool fails = cma_kernel_has(kernel, "isolated_free_uncounted") == 1 &&
		     cma_kernel_has(kernel, "alloc_cma") != 1;
	int ret;

	assert_non_null(taken);
	cma_drain_all_pages(mm);
	for (uint64_t s = 0; s < 16; s++)
		assert_non_null(owner_fault_at(o, s, start + s, s + 1));
	lru_add_drain_all(mm);
	/* every free page outside the range taken, then low + 640 given back */
	for (unsigned long pfn = mm->base_pfn; pfn < mm->end_pfn; pfn++) {
		struct cma_page *page;

		if (pfn - start < end - start)
			continue;
		page = cma_alloc_pages_at(mm, pfn, 0, CMA_GFP_KERNEL);
		if (page)
			taken[n++] = page;
	}
	for (unsigned long k = low_wmark_pages(zone) + 640; k; k--)
		cma_free_pages(mm, taken[--n], 0);
	cma_drain_all_pages(mm);
	nr_free = zone_page_state(zone, NR_FREE_PAGES);
	assert_int_equal(nr_free, low_wmark_pages(zone) + 640 + 496);
	ret = cma_alloc_contig_range(mm, start, end, CMA_MIGRATE_MOVABLE);
	expect_kernel(kernel, "alloc_contig_range near the low mark", fails ? -ENOMEM : 0, ret);
	expect_kernel(kernel, "NR_FREE_PAGES after it", fails ? nr_free : nr_free - 512,
		      zone_page_state(zone, NR_FREE_PAGES));
	assert_int_equal(owner_check(o), 16);
	assert_verify(mm);
	if (!ret)
		cma_free_contig_range(mm, start, 512);
	while (n)
		cma_free_pages(mm, taken[--n], 0);
	owner_destroy(o);
	free(taken);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(isolated_block_free_pages_by_release, isolated_free_kernels),
		test_kernel_case(watermark_with_block_isolated_by_release, isolated_free_kernels),
		test_kernel_case(contig_range_near_low_mark_by_release, reclaim_kernels),
	};

	return test_run_kernel_cases("isolated_free (per kernel)", kernel_cases);
}
