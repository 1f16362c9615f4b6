// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU lists release by release (src/mm/page_alloc.c): 4.19's
 * 1 MiB batch, 5.14's high from the low mark and its doubling bulk frees,
 * 6.7's auto-tuned high with its doubling refills, ZONE_BELOW_HIGH and
 * its decay every second; 3.16's type recorded from the free list.
 * Each test runs the profiles on both sides of its boundary and computes
 * what it expects from the formulas, not from the library's fields.
 * Pages on a per-CPU list are not in NR_FREE_PAGES, which the watermark
 * check and the CMA balance read: each test shows how many sit there.
 * Machines of 1 GiB, 4 KiB pages, one Normal zone, metadata only.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define NR_PAGES	8192

static struct zone *normal(struct cma_mm *mm)
{
	return &mm->zones[ZONE_NORMAL];
}

static struct per_cpu_pages *pcp0(struct cma_mm *mm)
{
	return &mm->slots[0].pcp[ZONE_NORMAL];
}

static unsigned long free_pages(struct cma_mm *mm)
{
	return zone_page_state(normal(mm), NR_FREE_PAGES);
}

/* zone_highsize: the low mark's share of each CPU, at least 4 * batch (5.14). */
static int low_mark_share(struct cma_mm *mm, int batch)
{
	unsigned long share = low_wmark_pages(normal(mm)) / mm->nr_cpus;

	return share > 4ul * (unsigned long)batch ? (int)share : 4 * batch;
}

/* Take @n order-0 pages, then empty the lists: the buddy allocator holds the rest. */
static void take(struct cma_mm *mm, struct cma_page **pages, int n)
{
	for (int i = 0; i < n; i++)
		assert_non_null(pages[i] = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0));
	cma_drain_all_pages(mm);
}

static void expect_int(const char *kernel, const char *what, long found, long expected)
{
	if (found != expected) {
		print_error("%s: expected %s %ld, found %ld\n", kernel, what, expected, found);
		fail();
	}
}

/*
 * Expect (zone_batchsize of 6.12, "mm, page_alloc: double zone's
 * batchsize", 4.19): a 1 GiB zone's batch is 31 (512 KiB / 4 / 4 KiB,
 * as 2^n - 1) and high 186 until 4.18; 63 and 378 from 4.19. The first
 * allocation pulls a batch: NR_FREE_PAGES falls by it.
 */
static void pcp_batch_doubles_at_419(void **state)
{
	static const struct { const char *kernel; int batch; } cases[] = {
		{ "3.5", 31 }, { "4.18", 31 }, { "4.19", 63 }, { "6.12", 63 },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct cma_mm *mm = test_mm(.size = 1 * GiB, .metadata_only = true,
					    .kernel = cases[k].kernel);
		unsigned long before = free_pages(mm);
		struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);

		assert_non_null(p);
		expect_int(cases[k].kernel, "batch", pcp0(mm)->batch, cases[k].batch);
		expect_int(cases[k].kernel, "pages pulled", (long)(before - free_pages(mm)),
			   cases[k].batch);
		if (strcmp(cases[k].kernel, "6.12"))
			expect_int(cases[k].kernel, "high", pcp0(mm)->high, 6 * cases[k].batch);
		cma_free_pages(mm, p, 0);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

static const char *const low_mark_kernels[] = { "5.13", "5.14", "6.6" };

/*
 * Expect (zone_highsize of 6.12, "mm/page_alloc: disassociate the
 * pcp->high from pcp->batch", 5.14): high is 6 * batch (378) until 5.13;
 * from 5.14 the low mark shared among the CPUs, at least 4 * batch, and
 * it follows the mark when min_free_kbytes changes. Freeing 600 pages
 * then leaves 600 on one CPU's list, out of NR_FREE_PAGES, where 5.13
 * keeps fewer than 378.
 */
static void pcp_high_follows_low_mark_at_514(const char *kernel, unsigned k)
{
	struct cma_page **pages = calloc(NR_PAGES, sizeof(*pages));

	assert_non_null(pages);
	for (unsigned cpus = 1; cpus <= 4; cpus += 3) {
		struct cma_mm *mm = test_mm(.size = 1 * GiB, .metadata_only = true,
					    .cpus = cpus, .kernel = kernel);
		bool v514 = strcmp(kernel, "5.13");
		int high = v514 ? low_mark_share(mm, 63) : 6 * 63;
		unsigned long before;

		expect_int(kernel, "high", pcp0(mm)->high, high);
		mm->min_free_kbytes *= 2;
		setup_per_zone_wmarks(mm);
		if (v514)
			high = low_mark_share(mm, 63);
		expect_int(kernel, "high after min_free_kbytes doubled", pcp0(mm)->high,
			   high);
		assert_true(!v514 || high > 600);
		take(mm, pages, 600);
		before = free_pages(mm);
		for (int i = 0; i < 600; i++)
			cma_free_pages(mm, pages[i], 0);
		if (v514)
			expect_int(kernel, "pages on the list", pcp0(mm)->count, 600);
		else
			assert_true(pcp0(mm)->count < 6 * 63);
		expect_int(kernel, "NR_FREE_PAGES gained",
			   (long)(free_pages(mm) - before), 600 - pcp0(mm)->count);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
	free(pages);
}

/*
 * The count left by @n frees one after another onto an empty list of
 * @high and @batch: a free reaching high gives back @batch << factor
 * pages (at most high - batch), the factor growing while that is under
 * high - batch (5.14's nr_pcp_free), or one batch (@doubling false).
 */
static int count_after_frees(int n, int high, int batch, bool doubling)
{
	int count = 0, factor = 0;

	for (int i = 0; i < n; i++) {
		int nr = batch;

		if (++count < high)
			continue;
		if (doubling) {
			nr = batch << factor;
			if (nr < high - batch)
				factor++;
			nr = nr < batch ? batch : nr > high - batch ? high - batch : nr;
		}
		count -= nr;
	}
	return count;
}

static const char *const bulk_free_kernels[] = { "5.13", "5.14" };

/*
 * Expect (nr_pcp_free of 5.14, "mm/page_alloc: scale the number of
 * pages that are batch freed"): with frees only, each bulk free past
 * high doubles, where 5.13 gives back one batch each time.
 */
static void pcp_bulk_free_doubles_at_514(const char *kernel, unsigned k)
{
	struct cma_page **pages = calloc(NR_PAGES, sizeof(*pages));

	assert_non_null(pages);
	struct cma_mm *mm = test_mm(.size = 1 * GiB, .metadata_only = true,
				    .kernel = kernel);
	bool v514 = strcmp(kernel, "5.13");
	int high = pcp0(mm)->high, n = high + 40 * 63;

	take(mm, pages, n);
	for (int i = 0; i < n; i++)
		cma_free_pages(mm, pages[i], 0);
	expect_int(kernel, "count after the frees", pcp0(mm)->count,
		   count_after_frees(n, high, 63, v514));
	assert_verify(mm);
	cma_mm_destroy(mm);
	free(pages);
}

static const char *const refill_kernels[] = { "6.6", "6.7", "6.12" };

/*
 * Expect (nr_pcp_alloc of 6.12, "mm, page_alloc: scale the number of
 * pages that are batch allocated" and "mm: tune PCP high automatically",
 * 6.7): refills with no free between take 63, 126, 252, 504 pages, and
 * high, 0 until first used, rises from the low mark's share by each
 * refill; 6.6 refills a batch at a time under a fixed high.
 */
static void pcp_refills_double_at_67(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.size = 1 * GiB, .metadata_only = true,
				    .kernel = kernel);
	bool v67 = strcmp(kernel, "6.6");
	int high_min = low_mark_share(mm, 63), refilled = 0;

	expect_int(kernel, "high before use", pcp0(mm)->high, v67 ? 0 : high_min);
	for (int r = 0; r < 4; r++) {
		unsigned long before = free_pages(mm);
		int expected = v67 ? 63 << r : 63;

		/* the list is empty: the first allocation refills it */
		assert_non_null(cma_alloc_pages(mm, CMA_GFP_KERNEL, 0));
		expect_int(kernel, "refill", (long)(before - free_pages(mm)), expected);
		refilled += expected;
		for (int i = 1; i < expected; i++)
			assert_non_null(cma_alloc_pages(mm, CMA_GFP_KERNEL, 0));
		assert_int_equal(pcp0(mm)->count, 0);
	}
	expect_int(kernel, "high", pcp0(mm)->high, v67 ? high_min + refilled : high_min);
	cma_mm_destroy(mm);
}

/*
 * Expect (nr_pcp_high of 6.12, "mm, pcp: decrease PCP high if free
 * pages < high watermark", 6.7): frees of many pages in a row raise high
 * to hold them, so the list ends above the low mark's share; once an
 * allocation has found the zone under its high mark, the same frees
 * lower high to that share and keep the list at most there.
 */
static void pcp_below_high_mark_shrinks_at_67(void **state)
{
	struct cma_page **pages = calloc(NR_PAGES, sizeof(*pages));

	assert_non_null(pages);
	for (int below = 0; below <= 1; below++) {
		struct cma_mm *mm = test_mm(.size = 1 * GiB, .metadata_only = true,
					    .kernel = "6.7");
		struct zone *z = normal(mm);
		int high_min = low_mark_share(mm, 63), n = high_min + 2000;
		unsigned long high_mark = high_wmark_pages(z);

		take(mm, pages, n);
		if (below) {
			spin_lock(&z->lock);
			__atomic_store_n(&z->watermark[WMARK_HIGH], free_pages(mm) + 1,
					 __ATOMIC_RELAXED);
			spin_unlock(&z->lock);
			assert_non_null(pages[n] = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0));
			n++;
			cma_drain_all_pages(mm);
			spin_lock(&z->lock);
			__atomic_store_n(&z->watermark[WMARK_HIGH], high_mark, __ATOMIC_RELAXED);
			spin_unlock(&z->lock);
		}
		for (int i = 0; i < n; i++)
			cma_free_pages(mm, pages[i], 0);
		if (below ? pcp0(mm)->count > high_min : pcp0(mm)->count <= high_min) {
			print_error("%s the high mark: expected a list %s %d pages, found %d\n",
				    below ? "under" : "above", below ? "of at most" : "over", high_min,
				    pcp0(mm)->count);
			fail();
		}
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
	free(pages);
}

static const char *const decay_kernels[] = { "6.6", "6.7" };

/*
 * Expect (decay_pcp_high of 6.12, 6.7): on 4 CPUs (high_min a quarter
 * of the low mark), after refills raised high to high_min + 945 and 945
 * frees filled the list, each second's update lowers high by an eighth
 * (or to the count less 63 << 5) toward high_min and gives back what the
 * list holds above it, until high is high_min; 6.6's changes nothing.
 */
static void pcp_high_decays_at_67(const char *kernel, unsigned k)
{
	struct cma_page **pages = calloc(NR_PAGES, sizeof(*pages));

	assert_non_null(pages);
	struct cma_mm *mm = test_mm(.size = 1 * GiB, .metadata_only = true, .cpus = 4,
				    .kernel = kernel);
	bool v67 = strcmp(kernel, "6.6");
	int high_min = low_mark_share(mm, 63), n = 945, seconds = 0;

	assert_true(high_min < n);

	for (int i = 0; i < n; i++)
		assert_non_null(pages[i] = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0));
	for (int i = 0; i < n; i++)
		cma_free_pages(mm, pages[i], 0);
	while (pcp0(mm)->high > high_min) {
		int high = pcp0(mm)->high, count = pcp0(mm)->count, want;

		want = high - (high >> 3);
		if (count - (63 << 5) > want)
			want = count - (63 << 5);
		if (want < high_min)
			want = high_min;
		cma_vmstat_update(mm);
		expect_int(kernel, "high after a second", pcp0(mm)->high, want);
		expect_int(kernel, "count after a second", pcp0(mm)->count,
			   count < want ? count : want);
		seconds++;
	}
	expect_int(kernel, "high at last", pcp0(mm)->high, high_min);
	assert_true(v67 ? seconds > 1 : seconds == 0);
	cma_vmstat_update(mm);
	if (v67)
		expect_int(kernel, "count at last", pcp0(mm)->count, high_min);
	assert_verify(mm);
	cma_mm_destroy(mm);
	free(pages);
}

static const char *const reserve_kernels[] = { "3.15", "3.16" };

/* Free pages of RESERVE blocks whose free list is another type's. */
static unsigned long reserve_pages_misplaced(struct cma_mm *mm)
{
	unsigned long n = 0;

	for (unsigned long pfn = mm->base_pfn; pfn < mm->end_pfn; pfn++) {
		struct cma_page *page = pfn_to_page(mm, pfn);

		if (get_pageblock_migratetype(mm, pfn) == MIGRATE_RESERVE &&
		    (page_flags(page) & PG_buddy) && page->private != MIGRATE_RESERVE)
			n += 1ul << ((page_flags(page) & PG_ORDER_MASK) >> PG_ORDER_SHIFT);
	}
	return n;
}

/*
 * Expect ("mm/page_alloc: prevent MIGRATE_RESERVE pages from being
 * misplaced", 3.16): unmovable requests with no watermark in the way
 * empty every other list and refill CPU 0's list from a RESERVE block
 * (the last resort); drained unused, those pages go back to the RESERVE
 * lists from 3.16, and to the unmovable lists inside the RESERVE block
 * before (the requester's type, recorded by rmqueue_bulk), where a later
 * fallback may steal the block.
 */
static void pcp_reserve_pages_keep_their_list_from_316(const char *kernel, unsigned k)
{
	struct cma_page **pages = calloc(NR_PAGES * 4, sizeof(*pages));

	assert_non_null(pages);
	struct cma_mm *mm = test_mm(.size = 64 * MiB, .metadata_only = true, .kernel = kernel);
	bool v316 = strcmp(kernel, "3.15");
	unsigned long n = 0, on_pcp;
	struct cma_page *p;

	assert_true(test_count_pageblocks(mm, MIGRATE_RESERVE) > 0);
	test_zero_watermarks(mm);
	do {
		assert_true(n < NR_PAGES * 4);
		p = pages[n++] = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);
		assert_non_null(p);
	} while (get_pageblock_migratetype(mm, cma_page_to_pfn(mm, p)) != MIGRATE_RESERVE);
	on_pcp = (unsigned long)pcp0(mm)->count;
	assert_true(on_pcp > 0);
	cma_drain_all_pages(mm);
	if (v316)
		expect_int(kernel, "RESERVE pages on other lists", (long)reserve_pages_misplaced(mm), 0);
	else if (reserve_pages_misplaced(mm) < on_pcp)
		fail_msg("%s: %lu RESERVE pages on other lists, expected the %lu drained", kernel,
			 reserve_pages_misplaced(mm), on_pcp);
	assert_verify(mm);
	while (n)
		cma_free_pages(mm, pages[--n], 0);
	cma_mm_destroy(mm);
	free(pages);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pcp_batch_doubles_at_419),
		cmocka_unit_test(pcp_below_high_mark_shrinks_at_67),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(pcp_high_follows_low_mark_at_514, low_mark_kernels),
		test_kernel_case(pcp_bulk_free_doubles_at_514, bulk_free_kernels),
		test_kernel_case(pcp_refills_double_at_67, refill_kernels),
		test_kernel_case(pcp_high_decays_at_67, decay_kernels),
		test_kernel_case(pcp_reserve_pages_keep_their_list_from_316, reserve_kernels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) +
	       test_run_kernel_cases("pcp_profiles (per kernel)", kernel_cases);
}
