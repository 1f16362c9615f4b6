// SPDX-License-Identifier: GPL-2.0
/*
 * Sleeping on the host's clock (the kernel's mm/backing-dev.c congestion
 * waits, and vmscan.c's reclaim_throttle of 5.16). The library keeps
 * no time: a sleep on a wait queue is the host's (cma_mm_set_sleep_ops),
 * and the queue's wake_up() is the host's wake, called only for a queue
 * with sleepers as the kernel's waitqueue_active() checks. The one idea:
 * what wakes a sleeper is the host's own completions calling back into
 * the library (clearing congestion, ending writes) while it sleeps, so a
 * sleep ends early exactly when the kernel's would. Without sleep ops
 * nothing sleeps and nothing is traced: every caller goes on as before.
 */
#include "mm/internal.h"

/* jiffies_to_usecs() at the machine's HZ */
static uint64_t jiffies_to_usecs(long j)
{
	return (uint64_t)j * (1000000 / HZ);
}

bool mm_may_sleep(const struct cma_mm *mm)
{
	return mm->sleep_ops.sleep != NULL;
}

/* The machine whose polled kswapd's pass this thread runs; NULL: none. */
static _Thread_local struct cma_mm *kswapd_pass;

/*
 * kswapd_naps() - a sleep of the polled kswapd's pass (congestion_wait,
 * reclaim_throttle): the pass ends there, and the host is told to poll
 * it again after @timeout_us (sleep(CMA_SLEEP_KSWAPD)), as the thread
 * would go on once its sleep ends; the allocators run meanwhile. The
 * kernel's thread sleeps within its pass: the next one goes on at the
 * priority after (vmscan.c). false: not such a sleep.
 */
static bool kswapd_naps(struct cma_mm *mm, uint64_t timeout_us)
{
	if (kswapd_pass != mm || !mm->sleep_ops.sleep)
		return false;
	spin_lock(&mm->kswapd_lock);
	mm->kswapd_napping = true;
	spin_unlock(&mm->kswapd_lock);
	mm->sleep_ops.sleep(mm->sleep_ctx, CMA_SLEEP_KSWAPD, timeout_us);
	return true;
}

void kswapd_pass_set(struct cma_mm *mm)
{
	kswapd_pass = mm;
}

bool kswapd_schedule_timeout(struct cma_mm *mm, long timeout)
{
	if (!mm->sleep_ops.sleep)
		return false;
	mm->sleep_ops.sleep(mm->sleep_ctx, CMA_SLEEP_KSWAPD, jiffies_to_usecs(timeout));
	return true;
}

uint64_t sleep_on_timeout(struct cma_mm *mm, enum cma_sleep_reason q, long timeout)
{
	uint64_t timeout_us = jiffies_to_usecs(timeout), slept;

	if (kswapd_naps(mm, timeout_us))
		return timeout_us;
	atomic_fetch_add_explicit(&mm->sleepers[q], 1, memory_order_relaxed);
	slept = mm->sleep_ops.sleep(mm->sleep_ctx, q, timeout_us);
	atomic_fetch_sub_explicit(&mm->sleepers[q], 1, memory_order_relaxed);
	return slept < timeout_us ? slept : timeout_us;
}

void wake_up_sleepers(struct cma_mm *mm, enum cma_sleep_reason q)
{
	if (atomic_load_explicit(&mm->sleepers[q], memory_order_relaxed) && mm->sleep_ops.wake)
		mm->sleep_ops.wake(mm->sleep_ctx, q);
}

/*
 * The kernel's task runs for real time between its sleeps, and the
 * device completes writes meanwhile; the host prices that work after the
 * fact, so it is told where the task could have been rescheduled.
 */
void cond_resched(struct cma_mm *mm)
{
	if (mm->sleep_ops.checkpoint)
		mm->sleep_ops.checkpoint(mm->sleep_ctx);
}

/* Both 3.x events print the same class (writeback_congest_waited_template). */
static void trace_congest_waited(struct cma_mm *mm, enum cma_trace_id event, long timeout,
				 uint64_t delayed_us)
{
	trace_event(mm, event, congest_waited, .usec_timeout = (unsigned)jiffies_to_usecs(timeout),
		    .usec_delayed = (unsigned)delayed_us);
}

void congestion_wait(struct cma_mm *mm, long timeout)
{
	uint64_t slept;

	if (!mm_may_sleep(mm))
		return;
	slept = sleep_on_timeout(mm, CMA_SLEEP_CONGESTION, timeout);
	trace_congest_waited(mm, CMA_TRACE_WRITEBACK_CONGESTION_WAIT, timeout, slept);
}

/*
 * wait_iff_congested (3.5-5.15): sleep only when the device is congested
 * and reclaim found @zone's dirty pages all refused by it; otherwise
 * cond_resched(), and the event still says a wait was considered.
 */
void wait_iff_congested(struct zone *zone, long timeout)
{
	struct cma_mm *mm = zone->mm;
	uint64_t slept = 0;

	if (!mm_may_sleep(mm))
		return;
	if (atomic_load_explicit(&mm->bdi_congested, memory_order_relaxed) &&
	    atomic_load_explicit(&zone->congested, memory_order_relaxed))
		slept = sleep_on_timeout(mm, CMA_SLEEP_CONGESTION, timeout);
	else
		cond_resched(mm);
	trace_congest_waited(mm, CMA_TRACE_WRITEBACK_WAIT_IFF_CONGESTED, timeout, slept);
}

void cma_mm_set_sleep_ops(struct cma_mm *mm, const struct cma_mm_sleep_ops *ops, void *ctx)
{
	if (!mm)
		return;
	mm->sleep_ops = ops ? *ops : (struct cma_mm_sleep_ops){ 0 };
	mm->sleep_ctx = ctx;
}

void cma_mm_set_congested(struct cma_mm *mm, bool congested)
{
	if (!mm)
		return;
	if (!atomic_exchange_explicit(&mm->bdi_congested, congested, memory_order_relaxed) ||
	    congested)
		return;
	wake_up_sleepers(mm, CMA_SLEEP_CONGESTION);
}

/* ---- 5.16's reclaim_throttle() and what wakes it ---- */

static const char *const throttle_names[CMA_NR_SLEEP_REASONS] = {
	[CMA_SLEEP_THROTTLE_WRITEBACK] = "VMSCAN_THROTTLE_WRITEBACK",
	[CMA_SLEEP_THROTTLE_ISOLATED] = "VMSCAN_THROTTLE_ISOLATED",
	[CMA_SLEEP_THROTTLE_NOPROGRESS] = "VMSCAN_THROTTLE_NOPROGRESS",
	[CMA_SLEEP_THROTTLE_CONGESTED] = "VMSCAN_THROTTLE_CONGESTED",
};

/* The timeout of @reason's sleep in jiffies. */
static long reclaim_throttle_timeout(struct cma_mm *mm, enum cma_sleep_reason reason)
{
	switch (reason) {
	case CMA_SLEEP_THROTTLE_WRITEBACK:
		if (atomic_fetch_add_explicit(&mm->nr_writeback_throttled, 1,
					      memory_order_relaxed) == 0)
			mm->nr_reclaim_start = atomic_load_explicit(&mm->nr_throttled_written,
								    memory_order_relaxed);
		return HZ / 10;
	case CMA_SLEEP_THROTTLE_CONGESTED:
	case CMA_SLEEP_THROTTLE_NOPROGRESS:
		return 1;	/* the caller checked skip_throttle_noprogress */
	default:
		return HZ / 50;
	}
}

void reclaim_throttle(struct cma_mm *mm, enum cma_sleep_reason reason)
{
	long timeout;
	uint64_t slept;

	if (!mm_may_sleep(mm))
		return;
	timeout = reclaim_throttle_timeout(mm, reason);
	slept = sleep_on_timeout(mm, reason, timeout);
	if (reason == CMA_SLEEP_THROTTLE_WRITEBACK)
		atomic_fetch_sub_explicit(&mm->nr_writeback_throttled, 1, memory_order_relaxed);
	trace_event(mm, CMA_TRACE_MM_VMSCAN_THROTTLED, throttled,
		    .usec_timeout = (int)(timeout * (1000000 / HZ)), .usec_delayed = (int)slept,
		    .reason = throttle_names[reason]);
}

void acct_reclaim_writeback(struct cma_mm *mm, unsigned long nr)
{
	int nr_throttled = atomic_load_explicit(&mm->nr_writeback_throttled, memory_order_relaxed);
	unsigned long nr_written;

	if (!nr_throttled)
		return;
	nr_written = atomic_fetch_add_explicit(&mm->nr_throttled_written, nr,
					       memory_order_relaxed) + nr - mm->nr_reclaim_start;
	if (nr_written > SWAP_CLUSTER_MAX * (unsigned long)nr_throttled)
		wake_up_sleepers(mm, CMA_SLEEP_THROTTLE_WRITEBACK);
}

void wake_throttle_isolated(struct cma_mm *mm)
{
	wake_up_sleepers(mm, CMA_SLEEP_THROTTLE_ISOLATED);
}

void too_many_isolated_wait(struct cma_mm *mm)
{
	if (mm->kernel.reclaim_throttle)
		reclaim_throttle(mm, CMA_SLEEP_THROTTLE_ISOLATED);
	else
		congestion_wait(mm, HZ / 10);
}
