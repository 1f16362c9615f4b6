// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU lists of orders 1-3 and the THP order (5.14, 44042b449872
 * "mm/page_alloc: allow high-order pages to be stored on the per-cpu
 * lists"; kernel.pcp_high_order): a free of such a block stays on its
 * CPU's list of that order and type, the next allocation of both takes
 * it back, a refill takes batch >> order blocks (at least 2), the drain
 * empties every list, and NR_FREE_PAGES, which the watermark check reads,
 * leaves them out. 5.13 sends these orders straight to buddy.
 * Machines of 1 GiB, 4 KiB pages, one Normal zone, pageblocks of order 9,
 * metadata only: the batch is 63 (zone_batchsize with 4.19's 1 MiB cap).
 */
#include <string.h>

#include "helpers.h"

#define BATCH		63
#define THP_ORDER	9

static struct zone *normal(struct cma_mm *mm)
{
	return &mm->zones[ZONE_NORMAL];
}

static long pcp_pages(struct cma_mm *mm)
{
	return mm->slots[0].pcp[ZONE_NORMAL].count;
}

static unsigned long free_pages(struct cma_mm *mm)
{
	return zone_page_state(normal(mm), NR_FREE_PAGES);
}

/* A machine of @kernel with empty per-CPU lists. */
static struct cma_mm *machine(const char *kernel)
{
	struct cma_mm *mm = test_mm(.size = 1 * GiB, .metadata_only = true,
				    .pageblock_order = THP_ORDER, .kernel = kernel);

	cma_drain_all_pages(mm);
	return mm;
}

static bool has_high_order_lists(const char *kernel)
{
	return strcmp(kernel, "5.13");
}

static void expect_long(const char *kernel, const char *what, long found, long expected)
{
	if (found != expected) {
		print_error("%s: expected %s %ld, found %ld\n", kernel, what, expected, found);
		fail();
	}
}

/* The first block on CPU 0's list of @order and type @mt, or NULL. */
static struct cma_page *first_on_list(struct cma_mm *mm, unsigned order, int mt)
{
	return page_list_first(mm, &mm->slots[0].pcp[ZONE_NORMAL].lists[order_to_pindex(mt, order)]);
}

/*
 * A movable block of @order allocated, freed, and allocated again. 5.13:
 * both from buddy, the free merging it back (NR_FREE_PAGES as before).
 * 5.14: the allocation refills the CPU's list with max(63 >> order, 2)
 * blocks and takes one; the free puts it back at the head of that list
 * (NR_FREE_PAGES unchanged), where an unmovable request of the order
 * does not look and the next movable one finds it.
 */
static void free_and_realloc(const char *kernel, unsigned order)
{
	struct cma_mm *mm = machine(kernel);
	long block = 1l << order, refill = (BATCH >> order) > 2 ? BATCH >> order : 2;
	bool v514 = has_high_order_lists(kernel);
	unsigned long before = free_pages(mm), taken;
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, order), *u, *q;

	assert_non_null(p);
	expect_long(kernel, "pages taken from buddy", (long)(before - free_pages(mm)),
		    v514 ? refill * block : block);
	expect_long(kernel, "pages on the CPU's lists", pcp_pages(mm), v514 ? (refill - 1) * block : 0);
	taken = free_pages(mm);
	cma_free_pages(mm, p, order);
	if (v514) {
		expect_long(kernel, "NR_FREE_PAGES after the free", (long)free_pages(mm), (long)taken);
		expect_long(kernel, "pages on the CPU's lists", pcp_pages(mm), refill * block);
		assert_true(page_test(p, PG_pcp));
		assert_int_equal(page_order(p), order);
		assert_ptr_equal(first_on_list(mm, order, MIGRATE_MOVABLE), p);
	} else {
		expect_long(kernel, "NR_FREE_PAGES after the free", (long)free_pages(mm), (long)before);
		assert_false(page_test(p, PG_pcp));
	}
	assert_verify(mm);
	u = cma_alloc_pages(mm, CMA_GFP_KERNEL, order);
	assert_non_null(u);
	q = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, order);
	assert_non_null(q);
	if (v514) {
		assert_ptr_not_equal(u, p);
		assert_ptr_equal(q, p);
	}
	cma_free_pages(mm, u, order);
	cma_free_pages(mm, q, order);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const kernels[] = { "5.13", "5.14", "6.12" };

/* Expect: an order-2 movable free stays on CPU 0's order-2 list from 5.14 (free_and_realloc). */
static void order2_free_stays_on_cpu_list_from_514(const char *kernel, unsigned k)
{
	free_and_realloc(kernel, 2);
}

/* Expect: likewise a THP-order (pageblock_order) free, a refill being 2 blocks of 512. */
static void thp_order_free_stays_on_cpu_list_from_514(const char *kernel, unsigned k)
{
	free_and_realloc(kernel, THP_ORDER);
}

/* 5.13 and 5.14 alone, where a test says nothing of 6.12 */
static const char *const lists_kernels[] = { "5.13", "5.14" };

/*
 * Expect: movable and unmovable blocks of orders 1, 2, 3 and 9 freed
 * after allocation leave, from 5.14, pcp->count pages on the CPU's lists,
 * exactly what NR_FREE_PAGES lacks, with a block on each list used;
 * drain_all_pages gives every list back to buddy and NR_FREE_PAGES is
 * what it was. 5.13 keeps none of them.
 */
static void drain_all_pages_empties_high_order_lists(const char *kernel, unsigned k)
{
	static const unsigned orders[] = { 1, 2, 3, THP_ORDER };
	static const cma_gfp_t gfps[] = { CMA_GFP_HIGHUSER_MOVABLE, CMA_GFP_KERNEL };

	struct cma_mm *mm = machine(kernel);
	bool v514 = has_high_order_lists(kernel);
	unsigned long before = free_pages(mm);

	for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]); o++)
		for (size_t g = 0; g < 2; g++) {
			struct cma_page *p = cma_alloc_pages(mm, gfps[g], orders[o]);

			assert_non_null(p);
			cma_free_pages(mm, p, orders[o]);
			if (v514)
				assert_non_null(first_on_list(mm, orders[o], g ? MIGRATE_UNMOVABLE :
										  MIGRATE_MOVABLE));
		}
	assert_true(v514 ? pcp_pages(mm) > 2 * (1l << THP_ORDER) : pcp_pages(mm) == 0);
	expect_long(kernel, "NR_FREE_PAGES short by the lists' pages",
		    (long)(before - free_pages(mm)), pcp_pages(mm));
	assert_verify(mm);
	cma_drain_all_pages(mm);
	expect_long(kernel, "pages on the CPU's lists after the drain", pcp_pages(mm), 0);
	for (unsigned i = 0; i < NR_PCP_LISTS; i++)
		assert_true(page_list_empty(&mm->slots[0].pcp[ZONE_NORMAL].lists[i]));
	expect_long(kernel, "NR_FREE_PAGES after the drain", (long)free_pages(mm),
		    (long)before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: a mark 256 pages under the free pages of a drained machine.
 * After a THP-order block is allocated and freed, 5.13 is above it
 * (the block back in buddy) and 5.14 under it (1024 pages on the CPU's
 * THP list, not in NR_FREE_PAGES); after the drain both are above it.
 */
static void watermark_check_misses_high_order_lists(const char *kernel, unsigned k)
{
	struct cma_mm *mm = machine(kernel);
	unsigned long mark = free_pages(mm) - 256;
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, THP_ORDER);

	assert_non_null(p);
	cma_free_pages(mm, p, THP_ORDER);
	if (zone_watermark_ok(normal(mm), 0, mark, ZONE_NORMAL, 0) ==
	    has_high_order_lists(kernel)) {
		print_error("%s: %lu free pages, %ld on the lists, mark %lu\n", kernel,
			    free_pages(mm), pcp_pages(mm), mark);
		fail();
	}
	cma_drain_all_pages(mm);
	assert_true(zone_watermark_ok(normal(mm), 0, mark, ZONE_NORMAL, 0));
	cma_mm_destroy(mm);
}

static long list_len(struct cma_mm *mm, unsigned pindex)
{
	long n = 0;

	for (struct cma_page *p = page_list_first(mm, &mm->slots[0].pcp[ZONE_NORMAL].lists[pindex]);
	     p; p = page_list_next(mm, p))
		n++;
	return n;
}

/*
 * Expect (v3.5's free_pcppages_bulk, kept until 5.13): the bulk free
 * steps round the three order-0 lists, taking from each as many pages
 * as lists it stepped over since the last: with RECLAIMABLE empty, two
 * MOVABLE pages for each UNMOVABLE one. 3 * batch unmovable pages freed,
 * then movable ones until the count reaches high (6 * batch; the batch
 * is 31 until 4.18, 63 from 4.19): the batch given back is batch / 3
 * unmovable pages and the rest movable. The lists of higher orders,
 * always empty there, are not stepped over.
 */
static void bulk_free_steps_over_order0_lists_only_before_514(void **state)
{
	static const struct { const char *kernel; long batch; } cases[] = {
		{ "3.5", 31 }, { "5.13", BATCH },
	};
	struct cma_page *pages[6 * BATCH];

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const char *kernel = cases[k].kernel;
		long batch = cases[k].batch, high = 6 * batch, unmovable = 3 * batch;
		struct cma_mm *mm = machine(kernel);

		for (long i = 0; i < high; i++)
			assert_non_null(pages[i] = cma_alloc_pages(mm, i < unmovable ? CMA_GFP_KERNEL :
								       CMA_GFP_HIGHUSER_MOVABLE, 0));
		cma_drain_all_pages(mm);
		for (long i = 0; i < high; i++)
			cma_free_pages(mm, pages[i], 0);
		expect_long(kernel, "pages on the lists", pcp_pages(mm), high - batch);
		expect_long(kernel, "unmovable pages left", list_len(mm, MIGRATE_UNMOVABLE),
			    unmovable - batch / 3);
		expect_long(kernel, "movable pages left", list_len(mm, MIGRATE_MOVABLE),
			    high - unmovable - (batch - batch / 3));
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bulk_free_steps_over_order0_lists_only_before_514),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(order2_free_stays_on_cpu_list_from_514, kernels),
		test_kernel_case(thp_order_free_stays_on_cpu_list_from_514, kernels),
		test_kernel_case(drain_all_pages_empties_high_order_lists, lists_kernels),
		test_kernel_case(watermark_check_misses_high_order_lists, lists_kernels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) +
	       test_run_kernel_cases("pcp_orders (per kernel)", kernel_cases);
}
