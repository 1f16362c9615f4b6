// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_contig_range(MIGRATE_MOVABLE) over a HIGHATOMIC pageblock (issue
 * 27): from 4.4, when reserve_highatomic_pageblock came, the kernel's
 * alloc_contig_range checks no pageblock type. Isolation scans the
 * block as any other (has_unmovable_pages), the undo gives it back
 * MOVABLE, and the zone's nr_reserved_highatomic goes on counting it:
 * unreserve_highatomic_pageblock uncounts only a block still HIGHATOMIC.
 * Until 6.12 the watermark check of an ordinary request leaves that
 * whole count out of the free pages. No HIGHATOMIC block exists before
 * 4.4.
 */
#include "helpers.h"

static const char *const kernels[] = { "4.4", "6.11", "6.12" };

/* 64 MiB, one zone, 256 KiB pageblocks: 1% of the zone is three blocks. */
static struct cma_mm *small_block_machine(const char *kernel)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 6, .metadata_only = true, .kernel = kernel);

	assert_true(mm->kernel.highatomic);
	return mm;
}

/*
 * An order-2 GFP_ATOMIC page from the slow path, which reserves its
 * pageblock HIGHATOMIC (reserve_highatomic_pageblock). The block's start
 * in *@block.
 */
static struct cma_page *reserve_block(struct cma_mm *mm, unsigned long *block)
{
	struct cma_page *p = test_alloc_pages_slowpath(mm, CMA_GFP_ATOMIC, 2);

	*block = cma_page_to_pfn(mm, p) & ~(mm->pageblock_nr_pages - 1);
	assert_int_equal(get_pageblock_migratetype(mm, *block), MIGRATE_HIGHATOMIC);
	return p;
}

/*
 * Expect: once the atomic page is freed, a MOVABLE request for the
 * HIGHATOMIC block succeeds (-EINVAL before this change), takes its
 * pages and, freed, leaves the block MOVABLE with its free pages on the
 * MOVABLE lists; nr_reserved_highatomic still counts the block, and the
 * reserve's next block adds to it; cma_mm_verify holds throughout. An
 * ordinary request's watermark check leaves the retyped block's pages
 * out up to 6.11 (nr_reserved_highatomic), not from 6.12
 * (nr_free_highatomic, now 0).
 */
static void contig_range_retypes_highatomic_block(const char *kernel, unsigned i)
{
	struct cma_mm *mm = small_block_machine(kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long nr = mm->pageblock_nr_pages, block, other;
	struct cma_page *p = reserve_block(mm, &block);

	assert_int_equal(z->nr_reserved_highatomic, nr);
	cma_free_pages(mm, p, 2);
	cma_drain_all_pages(mm);
	assert_int_equal(cma_alloc_contig_range(mm, block, block + nr, MIGRATE_MOVABLE), 0);
	for (unsigned long pfn = block; pfn < block + nr; pfn++)
		assert_int_equal(page_count(cma_pfn_to_page(mm, pfn)), 1);
	assert_int_equal(get_pageblock_migratetype(mm, block), MIGRATE_MOVABLE);
	assert_int_equal(test_count_pageblocks(mm, MIGRATE_HIGHATOMIC), 0);
	assert_int_equal(z->nr_reserved_highatomic, nr);
	assert_verify(mm);
	cma_free_contig_range(mm, block, nr);
	cma_drain_all_pages(mm);
	assert_int_equal(atomic_load(&z->free_highatomic), 0);
	assert_int_equal(z->nr_reserved_highatomic, nr);
	assert_verify(mm);
	assert_int_equal(mm->kernel.wmark_free_highatomic, i == 2);
	assert_int_equal(zone_watermark_ok(z, 0, zone_page_state(z, NR_FREE_PAGES) - nr / 2,
					   ZONE_NORMAL, 0), i == 2);
	assert_true(zone_watermark_ok(z, 0, zone_page_state(z, NR_FREE_PAGES) - nr / 2, ZONE_NORMAL,
				      ALLOC_HARDER | ALLOC_HIGH));
	/* the count caps the reserve: the next block makes two blocks' worth for one block */
	p = reserve_block(mm, &other);
	assert_int_equal(z->nr_reserved_highatomic, 2 * nr);
	assert_int_equal(test_count_pageblocks(mm, MIGRATE_HIGHATOMIC), 1);
	assert_verify(mm);
	cma_free_pages(mm, p, 2);
	cma_mm_destroy(mm);
}

/*
 * Expect: a request for the half of the HIGHATOMIC block without the
 * atomic page. 6.11 and 6.12 isolate whole pageblocks but scans only the range
 * (5.19's pageblock-granular isolation): it succeeds and retypes the
 * block MOVABLE under the page, which freed goes to the MOVABLE lists.
 * 4.4 scans the whole block and fails with -EBUSY, the block and count
 * as they were.
 */
static void contig_range_beside_highatomic_page(const char *kernel, unsigned i)
{
	struct cma_mm *mm = small_block_machine(kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long nr = mm->pageblock_nr_pages, block;
	struct cma_page *p = reserve_block(mm, &block);
	unsigned long half = cma_page_to_pfn(mm, p) - block < nr / 2 ? block + nr / 2 : block;
	int ret = cma_alloc_contig_range(mm, half, half + nr / 2, MIGRATE_MOVABLE);

	assert_int_equal(mm->kernel.contig_v6, i > 0);
	assert_int_equal(ret, mm->kernel.contig_v6 ? 0 : -EBUSY);
	assert_int_equal(get_pageblock_migratetype(mm, block),
			 mm->kernel.contig_v6 ? MIGRATE_MOVABLE : MIGRATE_HIGHATOMIC);
	assert_int_equal(z->nr_reserved_highatomic, nr);
	assert_verify(mm);
	if (!ret)
		cma_free_contig_range(mm, half, nr / 2);
	cma_free_pages(mm, p, 2);
	cma_drain_all_pages(mm);
	assert_int_equal(atomic_load(&z->free_highatomic) == 0, mm->kernel.contig_v6);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct test_kernel_case cases[] = {
		test_kernel_case(contig_range_retypes_highatomic_block, kernels),
		test_kernel_case(contig_range_beside_highatomic_page, kernels),
	};

	return test_run_kernel_cases("contig_highatomic (per kernel)", cases);
}
