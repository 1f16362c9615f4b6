// SPDX-License-Identifier: GPL-2.0
/*
 * The board's kswapd, woken rather than polled (kswapd.h). Before, it
 * ran at a 10 ms poll: a fault or a request that drained the free pages
 * meanwhile went into direct reclaim that the kernel's kswapd, running
 * from the wakeup on, would have spared it.
 */
#include "engine/kswapd.h"
#include "engine/sim.h"
#include "engine/storage.h"

/* The pass; its own scheduling points run no other. */
static void kswapd_run(struct sim *s)
{
	s->in_kswapd = true;
	cma_kswapd_poll(s->mm);
	s->in_kswapd = false;
}

/*
 * Woken by @t: the pass runs at the task's scheduling point, on kswapd's
 * own clock (storage_run_apart): its sleeps are not the task's, which
 * finds the pages it freed. The scheduler puts the woken thread on an
 * idle CPU if the board has one; else on the waker's, which it preempts
 * for its CPU work (a woken task's vruntime is its queue's least).
 */
static void kswapd_preempt(struct sim *s, uint64_t t)
{
	bool idle_cpu;

	if (s->in_kswapd || s->kswapd_at > t)
		return;
	s->kswapd_at = UINT64_MAX;
	idle_cpu = sim_runnable(s) + 1 < s->plat.cfg.nr_cpus;
	storage_run_apart(s, t, kswapd_run, !idle_cpu);
}

/* The scheduled pass; an event whose pass ran already, or was put off to a later wake, runs none. */
static void kswapd(struct sim *s, void *arg)
{
	if (s->kswapd_at != s->now)
		return;
	s->kswapd_at = UINT64_MAX;
	kswapd_run(s);
}

/*
 * Woken at @at, the waker's time: a wakeup while it is awake (a pass
 * pending) is that pass's; one after the pass began finds it asleep
 * again and runs it again. A pending event whose pass ran early finds
 * nothing to do: a pass never runs before the wake's time.
 */
static void kswapd_woken(struct sim *s, uint64_t at)
{
	if (at < s->now)
		at = s->now;
	if (s->kswapd_at <= at)
		return;
	s->kswapd_at = at;
	sim_schedule_on(s, at, kswapd, NULL, s->kswapd_cpu);
}

int sim_kswapd_start(struct sim *s)
{
	s->kswapd_at = UINT64_MAX;
	s->kswapd_cpu = s->cpu;
	s->kswapd_woken = kswapd_woken;
	s->preempt = kswapd_preempt;
	return cma_kswapd_start_polled(s->mm);
}
