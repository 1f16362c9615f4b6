// SPDX-License-Identifier: GPL-2.0
/*
 * The fair zone allocation policy of 3.12-4.7 (kernel.fair_zone_alloc,
 * fair_zone_retry, fair_zone_depleted, fair_zone_removed): the first try
 * of an allocation spreads over the zones by their batches, and what a
 * fair pass that found nothing does, by release. Each case runs under the
 * releases around every switch; the machine has DMA32 below Normal.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "helpers.h"

static const char *const releases[] = { "3.11", "3.12", "3.14", "3.15", "3.16", "3.17", "4.7",
					"4.8", "6.12" };
/* by index into releases[]: the policy's era, and its rules' */
static const bool fair[] = { false, true, true, true, true, true, true, false, false };
static const bool retry[] = { false, false, false, true, true, true, true, false, false };
static const bool depleted_mark[] = { false, false, false, false, false, true, true, false, false };

/* 64 MiB of DMA32 under 64 MiB of Normal, metadata only. */
static struct cma_mm *two_zones(const char *kernel)
{
	struct cma_mm *mm = test_mm(.size = 128 * MiB, .dma32_end = 64 * MiB, .kernel = kernel,
				    .metadata_only = true);

	assert_string_equal(cma_mm_kernel(mm), kernel);
	assert_true(mm->zones[ZONE_DMA32].present_pages && mm->zones[ZONE_NORMAL].present_pages);
	return mm;
}

static long refill(struct zone *zone)
{
	return (long)(high_wmark_pages(zone) - low_wmark_pages(zone));
}

static long batch(struct zone *zone)
{
	return atomic_load_explicit(&zone->alloc_batch, memory_order_relaxed);
}

static void set_batch(struct zone *zone, long pages, bool spent)
{
	atomic_store_explicit(&zone->alloc_batch, pages, memory_order_relaxed);
	atomic_store_explicit(&zone->fair_depleted, spent, memory_order_relaxed);
}

static struct cma_page *alloc_movable(struct cma_mm *mm)
{
	struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);

	assert_non_null(page);
	return page;
}

/*
 * Expect (get_page_from_freelist and buffered_rmqueue of 3.12-4.7): with
 * every batch full, the first tries take Normal's batch from Normal and
 * the next page from DMA32, though Normal is far above its marks; without
 * the policy every page comes from Normal.
 */
static void first_tries_spread_over_zones_by_batch(const char *kernel, unsigned k)
{
	struct cma_mm *mm = two_zones(kernel);
	struct zone *normal = &mm->zones[ZONE_NORMAL];
	long n = refill(normal);
	struct cma_page **pages = calloc((size_t)n + 1, sizeof(*pages));

	assert_non_null(pages);
	assert_true(n > 0);
	if (fair[k])
		reset_alloc_batches(mm, ZONE_NORMAL);
	for (long i = 0; i <= n; i++)
		pages[i] = alloc_movable(mm);
	for (long i = 0; i < n; i++)
		assert_int_equal(page_zone(mm, pages[i])->idx, ZONE_NORMAL);
	assert_int_equal(page_zone(mm, pages[n])->idx, fair[k] ? ZONE_DMA32 : ZONE_NORMAL);
	assert_int_equal(batch(normal), 0);
	assert_int_equal(atomic_load(&normal->fair_depleted), depleted_mark[k]);
	if (fair[k])
		assert_int_equal(batch(&mm->zones[ZONE_DMA32]), refill(&mm->zones[ZONE_DMA32]) - 1);
	for (long i = 0; i <= n; i++)
		cma_free_pages(mm, pages[i], 0);
	free(pages);
	assert_int_equal(cma_mm_verify(mm), 0);
	cma_mm_destroy(mm);
}

/*
 * Expect (3.12's prepare_slowpath, 3.15's unfair retry): every batch spent
 * and Normal between its min and low marks. Before 3.15 the first try
 * fails, and the slow path refills the batches and takes the page from
 * Normal at its min mark; from 3.15 the retry without fairness, still at
 * the low mark, takes it from DMA32, as a profile without the policy does.
 */
static void spent_batches_leave_first_try_to_slowpath_before_315(const char *kernel, unsigned k)
{
	struct cma_mm *mm = two_zones(kernel);
	struct zone *normal = &mm->zones[ZONE_NORMAL], *dma32 = &mm->zones[ZONE_DMA32];
	bool slowpath = fair[k] && !retry[k];
	struct cma_page *page;

	cma_drain_all_pages(mm);
	test_marks_from_free(normal, -16, 16, 32);
	if (fair[k]) {
		set_batch(normal, 0, true);
		set_batch(dma32, 0, true);
	}
	page = alloc_movable(mm);
	assert_int_equal(page_zone(mm, page)->idx, slowpath ? ZONE_NORMAL : ZONE_DMA32);
	if (fair[k]) {
		assert_int_equal(batch(normal), refill(normal) - slowpath);
		assert_int_equal(batch(dma32), refill(dma32) - !slowpath);
		assert_false(atomic_load(&normal->fair_depleted));
		assert_false(atomic_load(&dma32->fair_depleted));
	}
	cma_free_pages(mm, page, 0);
	assert_int_equal(cma_mm_verify(mm), 0);
	cma_mm_destroy(mm);
}

/*
 * Expect (3.17's get_page_from_freelist): a fair pass that failed on the
 * marks alone, no zone passed over, refills nothing from 3.17, and the
 * slow path's page spends the last of Normal's batch and marks it; before,
 * the batches are refilled (3.12-3.14 by prepare_slowpath, 3.15-3.16 ahead
 * of the retry) and the page spends one of Normal's new batch.
 */
static void failed_fair_pass_refills_only_a_passed_zone_from_317(const char *kernel, unsigned k)
{
	struct cma_mm *mm = two_zones(kernel);
	struct zone *normal = &mm->zones[ZONE_NORMAL], *dma32 = &mm->zones[ZONE_DMA32];
	struct cma_page *page;

	cma_drain_all_pages(mm);
	test_marks_from_free(normal, -16, 16, 32);
	test_marks_from_free(dma32, -16, 16, 32);
	if (fair[k]) {
		set_batch(normal, 1, false);
		set_batch(dma32, 1, false);
	}
	page = alloc_movable(mm);
	assert_int_equal(page_zone(mm, page)->idx, ZONE_NORMAL);
	if (fair[k]) {
		assert_int_equal(batch(normal), depleted_mark[k] ? 0 : refill(normal) - 1);
		assert_int_equal(batch(dma32), depleted_mark[k] ? 1 : refill(dma32));
		assert_int_equal(atomic_load(&normal->fair_depleted), depleted_mark[k]);
	} else {
		assert_int_equal(batch(normal), 0);
	}
	cma_free_pages(mm, page, 0);
	assert_int_equal(cma_mm_verify(mm), 0);
	cma_mm_destroy(mm);
}

/*
 * Expect (3.17's ZONE_FAIR_DEPLETED; __setup_per_zone_wmarks): new marks
 * refill the batches but leave a zone's mark, so from 3.17 the zone whose
 * batch was spent stays passed over until a failed fair pass clears it;
 * before, the refilled count alone decides. Without the policy the marks
 * give no batch, and Normal serves.
 */
static void new_marks_leave_spent_zone_marked_from_317(const char *kernel, unsigned k)
{
	struct cma_mm *mm = two_zones(kernel);
	struct zone *normal = &mm->zones[ZONE_NORMAL];
	struct cma_page *page;

	if (fair[k])
		set_batch(normal, 0, depleted_mark[k]);
	setup_per_zone_wmarks(mm);
	assert_int_equal(batch(normal), fair[k] ? refill(normal) : 0);
	page = alloc_movable(mm);
	assert_int_equal(page_zone(mm, page)->idx, depleted_mark[k] ? ZONE_DMA32 : ZONE_NORMAL);
	cma_free_pages(mm, page, 0);
	assert_int_equal(cma_mm_verify(mm), 0);
	cma_mm_destroy(mm);
}

/*
 * Expect (3.12-4.7's enum zone_stat_item): NR_ALLOC_BATCH follows
 * NR_FREE_PAGES in /proc/vmstat, the zones' sum, and in each zone of
 * /proc/zoneinfo, the zone's; no line without the policy.
 */
static void proc_shows_nr_alloc_batch_3_12_to_4_7(const char *kernel, unsigned k)
{
	struct cma_mm *mm = two_zones(kernel);
	struct zone *normal = &mm->zones[ZONE_NORMAL], *dma32 = &mm->zones[ZONE_DMA32];
	char *vmstat, *zoneinfo, want[96];
	uint64_t counted;

	if (fair[k]) {
		set_batch(normal, 7, false);
		set_batch(dma32, 5, false);
	}
	vmstat = test_proc_read(mm, "vmstat");
	zoneinfo = test_proc_read(mm, "zoneinfo");
	snprintf(want, sizeof(want), "nr_free_pages %lu\nnr_alloc_batch 12\n",
		 global_page_state(mm, NR_FREE_PAGES));
	assert_true((strstr(vmstat, want) != NULL) == fair[k]);
	snprintf(want, sizeof(want), "    nr_free_pages %lu\n    nr_alloc_batch 7\n",
		 zone_page_state(normal, NR_FREE_PAGES));
	assert_true((strstr(zoneinfo, want) != NULL) == fair[k]);
	assert_true((strstr(vmstat, "nr_alloc_batch") != NULL) == fair[k]);
	assert_true((strstr(zoneinfo, "nr_alloc_batch") != NULL) == fair[k]);
	assert_int_equal(cma_mm_counter(mm, "nr_alloc_batch", &counted), fair[k] ? 0 : -ENOENT);
	if (fair[k])
		assert_int_equal(counted, 12);
	free(vmstat);
	free(zoneinfo);
	cma_mm_destroy(mm);
}

static void note_batch_problem(void *ctx, const char *problem)
{
	if (strstr(problem, "zone Normal: alloc_batch"))
		(*(unsigned *)ctx)++;
}

/*
 * Expect (cma_mm_verify; the kernel's invariant that only new marks and
 * refills raise NR_ALLOC_BATCH, to high less low): a batch over its
 * refill is named, and so is any batch where no release has the policy.
 */
static void verify_names_a_batch_over_its_refill(const char *kernel, unsigned k)
{
	struct cma_mm *mm = two_zones(kernel);
	struct zone *normal = &mm->zones[ZONE_NORMAL];
	unsigned named = 0;

	assert_int_equal(cma_mm_verify_report(mm, note_batch_problem, &named), 0);
	assert_int_equal(named, 0);
	set_batch(normal, fair[k] ? refill(normal) + 1 : 1, false);
	assert_int_equal(cma_mm_verify_report(mm, note_batch_problem, &named), -EUCLEAN);
	assert_int_equal(named, 1);
	set_batch(normal, fair[k] ? refill(normal) : 0, false);
	assert_int_equal(cma_mm_verify_report(mm, note_batch_problem, &named), 0);
	cma_mm_destroy(mm);
}

int main(void)
{
	static const struct test_kernel_case cases[] = {
		test_kernel_case(first_tries_spread_over_zones_by_batch, releases),
		test_kernel_case(spent_batches_leave_first_try_to_slowpath_before_315, releases),
		test_kernel_case(failed_fair_pass_refills_only_a_passed_zone_from_317, releases),
		test_kernel_case(new_marks_leave_spent_zone_marked_from_317, releases),
		test_kernel_case(proc_shows_nr_alloc_batch_3_12_to_4_7, releases),
		test_kernel_case(verify_names_a_batch_over_its_refill, releases),
	};

	return test_run_kernel_cases("fair_zone", cases);
}
