// SPDX-License-Identifier: GPL-2.0
/*
 * Sleeping on the host's clock (the kernel's mm/backing-dev.c congestion
 * waits; vmscan.c's reclaim_throttle sleeps here too). The library keeps
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

uint64_t sleep_on_timeout(struct cma_mm *mm, enum cma_sleep_reason q, long timeout)
{
	uint64_t timeout_us = jiffies_to_usecs(timeout), slept;

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

/* Both 3.x events print the same class (writeback_congest_waited_template). */
static void trace_congest_waited(struct cma_mm *mm, const char *event, long timeout,
				 uint64_t delayed_us)
{
	trace_event(mm, event, "usec_timeout=%u usec_delayed=%u",
		    (unsigned)jiffies_to_usecs(timeout), (unsigned)delayed_us);
}

void congestion_wait(struct cma_mm *mm, long timeout)
{
	uint64_t slept;

	if (!mm_may_sleep(mm))
		return;
	slept = sleep_on_timeout(mm, CMA_SLEEP_CONGESTION, timeout);
	trace_congest_waited(mm, "writeback_congestion_wait", timeout, slept);
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
	trace_congest_waited(mm, "writeback_wait_iff_congested", timeout, slept);
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
