// SPDX-License-Identifier: GPL-2.0
/*
 * A page in use larger than a pageblock that straddles a contiguous
 * range's edge, release by release (issue 27). Pageblocks of 512 pages,
 * the page of order 10 (two pageblocks), the range of 1024 pages
 * starting half-way into it (its start edge) or ending there (its end
 * edge):
 *
 *        [ page: 1024 pages  ]
 *   start edge:        [ range ... )
 *   end edge:  [ ... range )
 *
 * - a hugetlb page (5.13, contig_hugetlb): the scan takes it, from a
 *   tail at the start edge as the kernel's PageHuge reads the folio;
 * - an LRU large folio: 5.7 (contig_large_folio) takes it at the end
 *   edge (its head is in the range) but not from a tail; 5.19
 *   (contig_v6, isolate_single_pageblock) migrates it at either edge;
 *   6.10 (isolate_straddle_busy) fails the isolation, nothing migrated.
 */
#include <stdio.h>
#include <string.h>

#include "helpers.h"

#define ORDER	10
#define NR	(1ul << ORDER)

static const char *const releases[] = { "3.5", "5.7", "5.12", "5.13", "5.18", "5.19", "6.9",
					"6.10", "6.12" };

#define NR_RELEASES (sizeof(releases) / sizeof(releases[0]))

static int follow(void *owner, uint64_t index, struct cma_page *from, struct cma_page *to)
{
	*(struct cma_page **)owner = to;
	return 0;
}

static int refuse(void *owner, uint64_t index, struct cma_page *page)
{
	return -EBUSY;
}

static const struct cma_owner_ops follow_ops = {
	.migrate = follow, .reclaim = refuse, .writeback = refuse, .anon = true,
};

/*
 * An owned page of ORDER, hugetlb or an LRU folio, with a free block of
 * its size before it (the machine's first one taken, then given back).
 */
static struct cma_page *straddler(struct cma_mm *mm, bool huge, struct cma_page **slot)
{
	struct cma_page *first = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, ORDER);

	assert_non_null(first);
	if (huge) {
		*slot = cma_alloc_huge_page(mm, ORDER, NULL);
		assert_non_null(*slot);
		assert_int_equal(cma_huge_page_set_owner(mm, *slot, &follow_ops, slot, 0), 0);
	} else {
		*slot = cma_alloc_movable(mm, CMA_GFP_HIGHUSER_MOVABLE, ORDER, &follow_ops, slot, 0);
		assert_non_null(*slot);
	}
	cma_free_pages(mm, first, ORDER);
	assert_true(cma_page_to_pfn(mm, *slot) >= NR);
	return *slot;
}

static int major_minor(const char *kernel)
{
	int major, minor;

	assert_int_equal(sscanf(kernel, "%d.%d", &major, &minor), 2);
	return major * 100 + minor;
}

/* Does @kernel take the range over a straddling page of this kind at this edge? */
static bool takes(int release, bool huge, bool at_start)
{
	if (huge)
		return release >= 513;
	if (release >= 610 || release < 507)
		return false;
	return !at_start || release >= 519;
}

static void run_case(bool huge, bool at_start)
{
	for (size_t i = 0; i < NR_RELEASES; i++) {
		const char *kernel = releases[i];
		struct cma_mm *mm = test_mm(.size = 128 * MiB, .pageblock_order = 9, .kernel = kernel);
		struct cma_page *slot;
		unsigned long head = cma_page_to_pfn(mm, straddler(mm, huge, &slot));
		unsigned long start = at_start ? head + NR / 2 : head - NR / 2, now;
		uint64_t migrated = test_counter(mm, "pgmigrate_success");
		bool taken = takes(major_minor(kernel), huge, at_start);
		char what[96];
		int ret;

		ret = cma_alloc_contig_range(mm, start, start + NR, MIGRATE_MOVABLE);
		snprintf(what, sizeof(what), "alloc_contig_range, %s straddling the %s edge",
			 huge ? "hugetlb page" : "LRU folio", at_start ? "start" : "end");
		expect_kernel(kernel, what, taken ? 0 : -EBUSY, ret);
		/* all of a folio's pages count from 5.9 (migrate_count_pages), a hugetlb page's from 5.17 */
		expect_kernel(kernel, "pages migrated",
			      !taken ? 0 : major_minor(kernel) >= (huge ? 517 : 509) ? 1L << ORDER : 1,
			      (long)(test_counter(mm, "pgmigrate_success") - migrated));
		now = cma_page_to_pfn(mm, slot);
		expect_kernel(kernel, "the page out of the range", taken,
			      now + NR <= start || now >= start + NR);
		expect_kernel(kernel, "its order", ORDER, page_order(slot));
		assert_verify(mm);
		if (!ret)
			cma_free_contig_range(mm, start, NR);
		cma_page_put(mm, slot);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/* Expect: from 5.13 the range is taken, the page migrated whole; before, -EBUSY. */
static void contig_range_hugetlb_page_straddling_start(void **state)
{
	run_case(true, true);
}

static void contig_range_hugetlb_page_straddling_end(void **state)
{
	run_case(true, false);
}

/* Expect: taken from 5.19 to 6.9 only (migrated at isolation); -EBUSY, nothing moved, else. */
static void contig_range_lru_folio_straddling_start(void **state)
{
	run_case(false, true);
}

/* Expect: taken from 5.7 to 6.9; from 6.10 -EBUSY at isolation, nothing moved. */
static void contig_range_lru_folio_straddling_end(void **state)
{
	run_case(false, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(contig_range_hugetlb_page_straddling_start),
		cmocka_unit_test(contig_range_hugetlb_page_straddling_end),
		cmocka_unit_test(contig_range_lru_folio_straddling_start),
		cmocka_unit_test(contig_range_lru_folio_straddling_end),
	};

	return cmocka_run_group_tests_name("contig_straddle", tests, NULL, NULL);
}
