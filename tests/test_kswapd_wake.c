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
#include <string.h>
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
	test_marks_from_free(normal, -32, -16, 16);
	test_marks_from_free(&mm->zones[ZONE_DMA32], -32, -16, 16);
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
	test_marks_from_free(normal, -16, 16, 32);
	assert_true(zone_watermark_ok(dma32, 0, high_wmark_pages(dma32), ZONE_NORMAL, 0));
	wakeup_kswapd(mm, normal, 0, ZONE_NORMAL);
	assert_int_equal(mm->kswapd_woken, !wake_node[k]);
	finish(mm);
}

static void count_wakeup(void *ctx, const char *event, const char *line)
{
	if (!strcmp(event, "mm_vmscan_wakeup_kswapd"))
		(*(unsigned *)ctx)++;
}

/*
 * Expect (wake_all_kswapds; 4.8's "once per node"): both zones below
 * their low marks, so an allocation's first try fails and the slow path
 * tells kswapd, which runs as a thread with nothing it could reclaim.
 * Until 4.7 each zone wakes it, one trace event each; from 4.8 the node
 * is asked once, through the classzone.
 */
static void slowpath_wakes_once_per_node_from_48(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.size = 128 * MiB, .dma32_end = 64 * MiB, .kernel = kernel,
				    .metadata_only = true);
	unsigned events = 0;
	struct cma_page *page;

	/* the consumer is set before kswapd starts and cleared after it stops */
	cma_mm_set_trace(mm, count_wakeup, &events);
	assert_int_equal(cma_kswapd_start(mm), 0);
	cma_drain_all_pages(mm);
	test_marks_from_free(&mm->zones[ZONE_NORMAL], -16, 16, 32);
	test_marks_from_free(&mm->zones[ZONE_DMA32], -16, 16, 32);
	page = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(page);
	cma_kswapd_stop(mm);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_int_equal(events, wake_node[k] ? 1 : 2);
	cma_free_pages(mm, page, 0);
	assert_int_equal(cma_mm_verify(mm), 0);
	cma_mm_destroy(mm);
}

/*
 * Expect (wakeup_kswapd's trace, as waitqueue_active() gates it): the
 * polled kswapd traces mm_vmscan_wakeup_kswapd when a wakeup finds it
 * asleep, and not again while it is woken; after its pass it sleeps
 * again, and the next wakeup is traced, unless the pass, which could free
 * nothing on this machine, gave the node up (4.12, kswapd_failures).
 */
static void polled_wakeup_traced_while_asleep(const char *kernel, unsigned k)
{
	struct cma_mm *mm = two_zones(kernel);
	struct zone *normal = &mm->zones[ZONE_NORMAL];
	unsigned events = 0;
	bool gives_up = cma_kernel_has(kernel, "kswapd_failures") == 1;

	cma_mm_set_trace(mm, count_wakeup, &events);
	cma_drain_all_pages(mm);
	test_marks_from_free(normal, 16, 32, 48);
	test_marks_from_free(&mm->zones[ZONE_DMA32], 16, 32, 48);
	wakeup_kswapd(mm, normal, 0, ZONE_NORMAL);
	assert_int_equal(events, 1);
	wakeup_kswapd(mm, normal, 0, ZONE_NORMAL);
	assert_int_equal(events, 1);
	assert_int_equal(cma_kswapd_poll(mm), 0);
	assert_false(mm->kswapd_woken);
	wakeup_kswapd(mm, normal, 0, ZONE_NORMAL);
	assert_int_equal(events, gives_up ? 1 : 2);
	cma_mm_set_trace(mm, NULL, NULL);
	finish(mm);
}

/* A probe on kswapd's own wake event: an allocation's wakeup while its pass runs. */
static void wake_during_pass(void *ctx, const struct cma_trace_event *ev)
{
	struct cma_mm *mm = ctx;

	wakeup_kswapd(mm, &mm->zones[ZONE_NORMAL], 0, ZONE_NORMAL);
}

/*
 * Expect (waitqueue_active() again): a wakeup that comes while the polled
 * kswapd is in its pass is not traced, kswapd not being asleep, though it
 * asks for another pass.
 */
static void polled_wakeup_in_pass_not_traced(const char *kernel, unsigned k)
{
	struct cma_mm *mm = two_zones(kernel);
	struct zone *normal = &mm->zones[ZONE_NORMAL];
	unsigned events = 0;

	cma_mm_set_trace(mm, count_wakeup, &events);
	assert_int_equal(cma_mm_set_trace_probe(mm, CMA_TRACE_MM_VMSCAN_KSWAPD_WAKE, wake_during_pass, mm),
			 0);
	cma_drain_all_pages(mm);
	test_marks_from_free(normal, 16, 32, 48);
	test_marks_from_free(&mm->zones[ZONE_DMA32], 16, 32, 48);
	wakeup_kswapd(mm, normal, 0, ZONE_NORMAL);
	assert_int_equal(events, 1);
	assert_int_equal(cma_kswapd_poll(mm), 0);
	assert_int_equal(events, 1);
	assert_true(mm->kswapd_woken);
	assert_int_equal(cma_mm_set_trace_probe(mm, CMA_TRACE_MM_VMSCAN_KSWAPD_WAKE, NULL, NULL), 0);
	cma_mm_set_trace(mm, NULL, NULL);
	finish(mm);
}

int main(void)
{
	static const struct test_kernel_case cases[] = {
		test_kernel_case(wakeup_between_low_and_high_from_312, releases),
		test_kernel_case(balanced_lower_zone_keeps_kswapd_asleep_from_48, releases),
		test_kernel_case(slowpath_wakes_once_per_node_from_48, releases),
		test_kernel_case(polled_wakeup_traced_while_asleep, releases),
		test_kernel_case(polled_wakeup_in_pass_not_traced, releases),
	};

	return test_run_kernel_cases("kswapd_wake", cases);
}
