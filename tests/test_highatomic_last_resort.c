// SPDX-License-Identifier: GPL-2.0
/*
 * rmqueue_buddy's last resort (issue 27): when __rmqueue finds nothing,
 * a request that cannot sleep takes the free pages of HIGHATOMIC blocks
 * from 6.12 (281dd25c1a01, kernel.nonblock_highatomic), of any order; an
 * order-0 one gets there past the empty per-CPU lists. From 4.4, when
 * the blocks came, until then no order-0 request could use them (6.3's
 * ALLOC_OOM last resort is not modelled). GFP_NOWAIT counts as unable to
 * sleep from 6.3 (alloc_non_block), as GFP_ATOMIC always does.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "helpers.h"

static const char *const kernels[] = { "4.4", "6.2", "6.3", "6.11", "6.12" };

/* 64 MiB, one zone, 256 KiB pageblocks: 1% of the zone is three blocks. */
static struct cma_mm *small_block_machine(const char *kernel)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 6, .metadata_only = true, .kernel = kernel);

	assert_true(mm->kernel.highatomic);
	return mm;
}

static unsigned long block_of(struct cma_mm *mm, struct cma_page *p)
{
	return cma_page_to_pfn(mm, p) & ~(mm->pageblock_nr_pages - 1);
}

/*
 * Every free page outside the HIGHATOMIC blocks into pages[0..max):
 * order-0 movable requests past the watermarks and without reserve
 * rights, draining the per-CPU lists between rounds. Returns how many.
 */
static unsigned long take_all_but_highatomic(struct cma_mm *mm, struct cma_page **pages,
					     unsigned long max)
{
	unsigned long n = 0, before;
	struct cma_page *page;

	do {
		before = n;
		while ((page = get_page_from_freelist(mm, CMA_GFP_MOVABLE, 0, ZONE_NORMAL,
						      ALLOC_NO_WATERMARKS | ALLOC_CMA,
						      MIGRATE_MOVABLE))) {
			assert_true(n < max);
			pages[n++] = page;
		}
		cma_drain_all_pages(mm);
	} while (n != before);
	return n;
}

/*
 * Expect (rmqueue_buddy, 6.12): with one block reserved by an order-2
 * GFP_ATOMIC page and every other free page taken, watermarks at 0, an
 * order-0 request of @gfp gets a page of that block when @takes, and
 * none otherwise; the block stays HIGHATOMIC and reserved.
 */
static void expect_order0_from_highatomic(const char *kernel, cma_gfp_t gfp, bool takes)
{
	struct cma_mm *mm = small_block_machine(kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long max = mm->end_pfn - mm->base_pfn, n;
	struct cma_page **pages = calloc(max, sizeof(*pages));
	struct cma_page *p = test_alloc_pages_slowpath(mm, CMA_GFP_ATOMIC, 2), *q;
	unsigned long reserved = block_of(mm, p), free_ha;

	assert_non_null(pages);
	assert_int_equal(mm->kernel.nonblock_highatomic, takes);
	assert_int_equal(get_pageblock_migratetype(mm, reserved), MIGRATE_HIGHATOMIC);
	n = take_all_but_highatomic(mm, pages, max);
	free_ha = free_pages_of_type(z, MIGRATE_HIGHATOMIC);
	assert_int_equal(free_ha, mm->pageblock_nr_pages - 4);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), free_ha);
	test_zero_watermarks(mm);

	q = cma_alloc_pages(mm, gfp | CMA_GFP_NOWARN, 0);
	if (!takes)
		assert_null(q);
	else {
		assert_non_null(q);
		assert_int_equal(block_of(mm, q), reserved);
		assert_int_equal(free_pages_of_type(z, MIGRATE_HIGHATOMIC), free_ha - 1);
	}
	assert_int_equal(get_pageblock_migratetype(mm, reserved), MIGRATE_HIGHATOMIC);
	assert_int_equal(z->nr_reserved_highatomic, mm->pageblock_nr_pages);
	assert_verify(mm);

	if (q)
		cma_free_pages(mm, q, 0);
	while (n)
		cma_free_pages(mm, pages[--n], 0);
	cma_free_pages(mm, p, 2);
	assert_verify(mm);
	free(pages);
	cma_mm_destroy(mm);
}

static void alloc_pages_atomic_order0_takes_highatomic_from_6_12(const char *kernel, unsigned i)
{
	expect_order0_from_highatomic(kernel, CMA_GFP_ATOMIC, i == 4);
}

/* GFP_NOWAIT: no ALLOC_HARDER before 6.3; a last resort only from 6.12. */
static void alloc_pages_nowait_order0_takes_highatomic_from_6_12(const char *kernel, unsigned i)
{
	expect_order0_from_highatomic(kernel, CMA_GFP_NOWAIT, i == 4);
}

int main(void)
{
	const struct test_kernel_case cases[] = {
		test_kernel_case(alloc_pages_atomic_order0_takes_highatomic_from_6_12, kernels),
		test_kernel_case(alloc_pages_nowait_order0_takes_highatomic_from_6_12, kernels),
	};

	return test_run_kernel_cases("highatomic_last_resort (per kernel)", cases);
}
