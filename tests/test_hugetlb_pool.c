// SPDX-License-Identifier: GPL-2.0
/*
 * hugetlb's free pool and alloc_contig_range (issue 27): a pool page
 * freed with cma_free_huge_page sits on the pool's free list, count 0;
 * from 5.13 (contig_hugetlb, isolate_or_dissolve_huge_page) a
 * contiguous range over it replaces it with a fresh page from elsewhere
 * and takes the range, and a range over a gigantic page gives up with
 * -ENOMEM, where before 5.13 both are -EBUSY. Each test runs at the
 * releases on both sides of 5.13, the kernel in its failure messages.
 */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

#define POOL_ORDER	10	/* 4 MiB: two of the machine's pageblocks */
#define POOL_PAGES	(1ul << POOL_ORDER)
#define GIGANTIC_PAGES	2048	/* 8 MiB: past the buddy allocator's orders */

/* A release and whether it dissolves (contig_hugetlb), as the file's comment dates it. */
struct release {
	const char *kernel;
	bool has;
};

static const struct release releases[] = {
	{ "3.5", false }, { "5.12", false }, { "5.13", true }, { "6.12", true },
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static struct cma_mm *machine(const char *kernel)
{
	return test_mm(.size = 128 * MiB, .pageblock_order = 9, .kernel = kernel);
}

/* A pool page of POOL_ORDER freed into the pool; its pfn. */
static unsigned long free_pool_page(struct cma_mm *mm)
{
	struct cma_page *page = cma_alloc_huge_page(mm, POOL_ORDER, NULL);

	assert_non_null(page);
	assert_int_equal(cma_free_huge_page(mm, page), 0);
	assert_int_equal(page_count(page), 0);
	assert_true(page_test(page, PG_hugetlb));
	return cma_page_to_pfn(mm, page);
}

/* The pool's one page of POOL_ORDER taken back and freed; its pfn. The pool is empty after. */
static unsigned long drain_pool(struct cma_mm *mm)
{
	struct cma_page *page = cma_dequeue_huge_page(mm, POOL_ORDER);
	unsigned long pfn;

	assert_non_null(page);
	assert_null(cma_dequeue_huge_page(mm, POOL_ORDER));
	pfn = cma_page_to_pfn(mm, page);
	cma_free_pages(mm, page, POOL_ORDER);
	return pfn;
}

/*
 * Expect: cma_alloc_contig_range over a free pool page is -EBUSY before
 * 5.13, the page still the pool's; from 5.13 it succeeds, nothing
 * migrated, and the pool's one page is a fresh one outside the range.
 * cma_mm_verify holds after each step.
 */
static void contig_range_dissolves_free_pool_page_by_release(void **state)
{
	for (size_t i = 0; i < NR(releases); i++) {
		const char *kernel = releases[i].kernel;
		bool dissolves = releases[i].has;
		struct cma_mm *mm = machine(kernel);
		uint64_t migrated = test_counter(mm, "pgmigrate_success");
		unsigned long start = free_pool_page(mm), pool;
		int ret;

		assert_verify(mm);
		ret = cma_alloc_contig_range(mm, start, start + POOL_PAGES, MIGRATE_MOVABLE);
		expect_kernel(kernel, "alloc_contig_range over a free pool page", dissolves ? 0 : -EBUSY,
			      ret);
		expect_kernel(kernel, "pages migrated", 0,
			      (long)(test_counter(mm, "pgmigrate_success") - migrated));
		assert_verify(mm);
		if (!ret)
			cma_free_contig_range(mm, start, POOL_PAGES);
		pool = drain_pool(mm);
		expect_kernel(kernel, "the pool page left the range", dissolves,
			      pool < start || pool >= start + POOL_PAGES);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: when no replacement can be had (every allocation above order
 * 0 fails, by fault injection), the range is -ENOMEM from 5.13 (-EBUSY
 * before) and the pool page stays where it was, the pool's.
 */
static void contig_range_free_pool_page_without_replacement(void **state)
{
	for (size_t i = 0; i < NR(releases); i++) {
		const char *kernel = releases[i].kernel;
		struct cma_mm *mm = machine(kernel);
		unsigned long start = free_pool_page(mm);
		int ret;

		cma_fault_inject(mm, &(struct cma_fault_attr){ .probability = 100, .min_order = 1 });
		ret = cma_alloc_contig_range(mm, start, start + POOL_PAGES, MIGRATE_MOVABLE);
		cma_fault_inject(mm, NULL);
		expect_kernel(kernel, "alloc_contig_range without a replacement",
			      releases[i].has ? -ENOMEM : -EBUSY, ret);
		assert_verify(mm);
		expect_kernel(kernel, "the pool page where it was", start, drain_pool(mm));
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

static int follow(void *owner, uint64_t index, struct cma_page *from, struct cma_page *to)
{
	*(struct cma_page **)owner = to;
	return 0;
}

static const struct cma_owner_ops follow_ops = { .migrate = follow, .anon = true };

/*
 * Expect (alloc_hugetlb_folio_nodemask, 5.13): alloc_contig_range over
 * an in-use hugetlb page, with a free pool page of its size outside the
 * range, moves the page's contents into the pool page, and the old page
 * goes into the pool:
 * - 5.12: -EBUSY, nothing moved, the pool page where it was;
 * - 5.13: -EBUSY all the same: test_pages_isolated finds the old page
 *   free in the pool, which is where the pool's free page now is;
 * - 6.12 (contig_hugetlb_replace): the old page is replaced by a fresh
 *   one and the range taken; with no room for a fresh page (fault
 *   injection), -ENOMEM, the page moved and the old one left in the pool.
 */
static void contig_range_in_use_page_into_pool_page_by_release(void **state)
{
	static const char *const kernels[] = { "5.12", "5.13", "6.12" };

	for (size_t i = 0; i < NR(kernels); i++) {
		for (int room = 1; room >= 0; room--) {
			const char *kernel = kernels[i];
			struct cma_mm *mm = machine(kernel);
			bool moves = cma_kernel_has(kernel, "contig_hugetlb") == 1;
			bool replaces = cma_kernel_has(kernel, "contig_hugetlb_replace") == 1;
			unsigned long pool = free_pool_page(mm), start, left;
			struct cma_page *slot = cma_alloc_huge_page(mm, POOL_ORDER, NULL);
			int ret;

			assert_non_null(slot);
			assert_int_equal(cma_huge_page_set_owner(mm, slot, &follow_ops, &slot, 0), 0);
			start = cma_page_to_pfn(mm, slot);
			if (!room)
				cma_fault_inject(mm, &(struct cma_fault_attr){ .probability = 100,
									       .min_order = 1 });
			ret = cma_alloc_contig_range(mm, start, start + POOL_PAGES, MIGRATE_MOVABLE);
			cma_fault_inject(mm, NULL);
			expect_kernel(kernel, room ? "alloc_contig_range, room for a fresh page" :
						     "alloc_contig_range, no room for a fresh page",
				      moves && replaces ? (room ? 0 : -ENOMEM) : -EBUSY, ret);
			expect_kernel(kernel, "the in-use page's pfn after", moves ? pool : start,
				      cma_page_to_pfn(mm, slot));
			if (!ret)
				cma_free_contig_range(mm, start, POOL_PAGES);
			assert_verify(mm);
			left = drain_pool(mm);
			if (moves && replaces && room) {
				if (left == start || left == pool)
					fail_msg("kernel %s: the pool's free page at %#lx, not a fresh one",
						 kernel, left);
			} else {
				expect_kernel(kernel, "the pool's free page", moves ? start : pool, left);
			}
			cma_page_put(mm, slot);
			assert_verify(mm);
			cma_mm_destroy(mm);
		}
	}
}

/*
 * Expect: cma_alloc_contig_range over a gigantic page is -EBUSY before
 * 5.13 and -ENOMEM from 5.13 (6.12's isolate_or_dissolve_huge_page
 * fences gigantic pages off), the page untouched either way; a movable
 * page behind it in the range is migrated before 5.13 only, since
 * 5.13's -ENOMEM ends the range at the gigantic page's first pfn.
 */
static void contig_range_gigantic_page_by_release(void **state)
{
	static const struct release r[] = { { "5.12", false }, { "5.13", true }, { "6.12", true } };

	for (size_t i = 0; i < NR(r); i++) {
		const char *kernel = r[i].kernel;
		struct cma_mm *mm = machine(kernel);
		struct cma_page *giga = cma_alloc_gigantic_page(mm, GIGANTIC_PAGES, CMA_GFP_HIGHUSER);
		struct fake_owner *o = owner_create(mm, true, 1);
		unsigned long end, pfn;
		uint64_t migrated;
		int ret;

		assert_non_null(giga);
		pfn = cma_page_to_pfn(mm, giga);
		end = pfn + GIGANTIC_PAGES + 512;
		assert_non_null(owner_fault_at(o, 0, pfn + GIGANTIC_PAGES, 1));
		lru_add_drain_all(mm);	/* on the LRU: from a pagevec, isolation refuses it */
		migrated = test_counter(mm, "pgmigrate_success");
		ret = cma_alloc_contig_range(mm, pfn, end, MIGRATE_MOVABLE);
		expect_kernel(kernel, "alloc_contig_range over a gigantic page",
			      r[i].has ? -ENOMEM : -EBUSY, ret);
		expect_kernel(kernel, "pages migrated", !r[i].has,
			      (long)(test_counter(mm, "pgmigrate_success") - migrated));
		for (unsigned long p = pfn; p < pfn + GIGANTIC_PAGES; p++)
			if (!page_test(cma_pfn_to_page(mm, p), PG_hugetlb))
				fail_msg("kernel %s: pfn %#lx of the gigantic page no longer hugetlb",
					 kernel, p);
		assert_verify(mm);
		assert_int_equal(owner_check(o), 1);
		owner_destroy(o);
		cma_free_gigantic_page(mm, giga, GIGANTIC_PAGES);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: cma_free_huge_page refuses (-EINVAL, nothing changed) a page
 * that is not a pool page, one with an owner and one with a second
 * reference; cma_dequeue_huge_page refuses order 0 (EINVAL) and finds
 * none in an empty pool (ENOMEM); a page freed into the pool comes back
 * the same, held once.
 */
static void free_huge_page_refuses_and_round_trips(void **state)
{
	struct cma_mm *mm = machine("6.12");
	struct cma_page *plain = cma_alloc_pages(mm, CMA_GFP_KERNEL, POOL_ORDER);
	struct cma_page *huge = cma_alloc_huge_page(mm, POOL_ORDER, NULL);

	assert_non_null(plain);
	assert_non_null(huge);
	assert_int_equal(cma_free_huge_page(mm, plain), -EINVAL);
	assert_int_equal(page_count(plain), 1);
	cma_free_pages(mm, plain, POOL_ORDER);
	cma_page_get(mm, huge);
	assert_int_equal(cma_free_huge_page(mm, huge), -EINVAL);
	cma_page_put(mm, huge);
	errno = 0;
	assert_null(cma_dequeue_huge_page(mm, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(cma_dequeue_huge_page(mm, POOL_ORDER));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(cma_free_huge_page(mm, huge), 0);
	assert_verify(mm);
	assert_ptr_equal(cma_dequeue_huge_page(mm, POOL_ORDER), huge);
	assert_int_equal(page_count(huge), 1);
	assert_true(page_test(huge, PG_hugetlb));
	cma_free_pages(mm, huge, POOL_ORDER);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: cma_mm_verify fails when the pool's count disagrees with its
 * list, or a page on it holds a reference, and holds again once mended.
 */
static void verify_checks_the_pool(void **state)
{
	struct cma_mm *mm = machine("6.12");
	unsigned long pfn = free_pool_page(mm);
	struct cma_page *page = cma_pfn_to_page(mm, pfn);

	assert_verify(mm);
	mm->hugetlb_nr_free[POOL_ORDER]++;
	assert_int_not_equal(cma_mm_verify(mm), 0);
	mm->hugetlb_nr_free[POOL_ORDER]--;
	atomic_store(&page->count, 1);
	assert_int_not_equal(cma_mm_verify(mm), 0);
	atomic_store(&page->count, 0);
	assert_verify(mm);
	drain_pool(mm);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(contig_range_dissolves_free_pool_page_by_release),
		cmocka_unit_test(contig_range_free_pool_page_without_replacement),
		cmocka_unit_test(contig_range_gigantic_page_by_release),
		cmocka_unit_test(contig_range_in_use_page_into_pool_page_by_release),
		cmocka_unit_test(free_huge_page_refuses_and_round_trips),
		cmocka_unit_test(verify_checks_the_pool),
	};

	return cmocka_run_group_tests_name("hugetlb_pool", tests, NULL, NULL);
}
