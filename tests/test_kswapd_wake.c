// SPDX-License-Identifier: GPL-2.0
/*
 * Which mark wakes kswapd, by release (kernel.kswapd_wake_high,
 * kswapd_wake_node): v3.5 wakes it for a zone below its low mark, 3.12
 * for one below its high mark, 4.8 for the node unless a zone up to the
 * request's classzone meets its high mark. The machine has DMA32 below
 * Normal; kswapd is the polled one, so a wakeup only marks it woken.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "helpers.h"

static const char *const releases[] = { "3.11", "3.12", "4.7", "4.8", "6.12" };
/* by index into releases[] */
static const bool wake_high[] = { false, true, true, true, true };
static const bool wake_node[] = { false, false, false, true, true };

static struct cma_mm *two_zones(const char *kernel)
{
	struct cma_mm *mm = test_mm(.size = 128 * MiB, .dma32_end = 64 * MiB, .kernel = kernel,
				    .metadata_only = true);

	assert_string_equal(cma_mm_kernel(mm), kernel);
	assert_true(mm->zones[ZONE_DMA32].present_pages && mm->zones[ZONE_NORMAL].present_pages);
	assert_int_equal(cma_kswapd_start_polled(mm), 0);
	return mm;
}

/* @zone's marks at its free pages plus @min, @low and @high, as a min_free_kbytes write sets them. */
static void marks_from_free(struct zone *zone, long min, long low, long high)
{
	long free = (long)zone_page_state(zone, NR_FREE_PAGES);

	spin_lock(&zone->lock);
	__atomic_store_n(&zone->watermark[WMARK_MIN], (unsigned long)(free + min), __ATOMIC_RELAXED);
	__atomic_store_n(&zone->watermark[WMARK_LOW], (unsigned long)(free + low), __ATOMIC_RELAXED);
	__atomic_store_n(&zone->watermark[WMARK_HIGH], (unsigned long)(free + high), __ATOMIC_RELAXED);
	zone_refill_alloc_batch(zone);
	spin_unlock(&zone->lock);
}

static void finish(struct cma_mm *mm)
{
	cma_kswapd_stop(mm);
	assert_int_equal(cma_mm_verify(mm), 0);
	cma_mm_destroy(mm);
}

/*
 * Expect (wakeup_kswapd; zone_balanced from 3.12): both zones between
 * their low and high marks. A wakeup through Normal wakes kswapd from
 * 3.12, which asks for the high mark, and not before, which asks for
 * the low one; under the node's rule of 4.8 no zone is balanced either.
 */
static void wakeup_between_low_and_high_from_312(const char *kernel, unsigned k)
{
	struct cma_mm *mm = two_zones(kernel);
	struct zone *normal = &mm->zones[ZONE_NORMAL];

	cma_drain_all_pages(mm);
	marks_from_free(normal, -32, -16, 16);
	marks_from_free(&mm->zones[ZONE_DMA32], -32, -16, 16);
	wakeup_kswapd(mm, normal, 0, ZONE_NORMAL);
	assert_int_equal(mm->kswapd_woken, wake_high[k]);
	finish(mm);
}

/*
 * Expect (4.8's "only wakeup kswapd once per node"): Normal below its low
 * mark and DMA32 far above its high mark with Normal's lowmem reserve.
 * Until 4.7 the wakeup through Normal wakes kswapd for Normal; from 4.8
 * DMA32's balance is the node's, and kswapd sleeps on.
 */
static void balanced_lower_zone_keeps_kswapd_asleep_from_48(const char *kernel, unsigned k)
{
	struct cma_mm *mm = two_zones(kernel);
	struct zone *normal = &mm->zones[ZONE_NORMAL], *dma32 = &mm->zones[ZONE_DMA32];

	cma_drain_all_pages(mm);
	marks_from_free(normal, -16, 16, 32);
	assert_true(zone_watermark_ok(dma32, 0, high_wmark_pages(dma32), ZONE_NORMAL, 0));
	wakeup_kswapd(mm, normal, 0, ZONE_NORMAL);
	assert_int_equal(mm->kswapd_woken, !wake_node[k]);
	finish(mm);
}

int main(void)
{
	static const struct test_kernel_case cases[] = {
		test_kernel_case(wakeup_between_low_and_high_from_312, releases),
		test_kernel_case(balanced_lower_zone_keeps_kswapd_asleep_from_48, releases),
	};

	return test_run_kernel_cases("kswapd_wake", cases);
}
