// SPDX-License-Identifier: GPL-2.0
/*
 * CFS on the request's run queue (sched.h). The request's task runs
 * while it is the leftmost by vruntime, in slices the tick ends; once
 * its vruntime passes the queue's min_vruntime the others take a slice
 * each, round after round, until it is leftmost again. A task that
 * woke is placed no further back than half a latency period
 * (place_entity() with GENTLE_FAIR_SLEEPERS) and takes the CPU at once
 * when it is more than the wakeup granularity behind the running task
 * (check_preempt_wakeup()); otherwise it waits for that task's tick.
 *
 * Departures: the next and last buddies are not kept (NEXT_BUDDY is off
 * by default; LAST_BUDDY's hint to run the preempted task next is
 * dropped); the load balancer does not move tasks during a request;
 * from 6.6 the kernel runs EEVDF (base_slice 0.75 ms, scaled the same
 * way; eligibility and deadlines instead of the wakeup granularity),
 * which is priced here as CFS.
 */
#include "engine/sched.h"

/*
 * kernel/sched/fair.c, v2.6.38 to v6.5: normalized_sysctl_sched_latency
 * 6 ms, normalized_sysctl_sched_min_granularity 0.75 ms and
 * normalized_sysctl_sched_wakeup_granularity 1 ms, each multiplied by
 * 1 + ilog2(min(online CPUs, 8)) (get_update_sysctl_factor() under
 * SCHED_TUNABLESCALING_LOG, sysctl_sched_tunable_scaling's default).
 */
#define SCHED_LATENCY_NS	6000000ull
#define SCHED_MIN_GRAN_NS	750000ull
#define SCHED_WAKEUP_GRAN_NS	1000000ull
#define SCHED_SCALE_MAX_CPUS	8u
/* kernel/Kconfig.hz's default, HZ_250 */
#define SCHED_DEFAULT_HZ	250u

static unsigned ilog2_u(unsigned n)
{
	unsigned log = 0;

	while (n >>= 1)
		log++;
	return log;
}

void sched_tunables(unsigned nr_cpus, unsigned hz, struct sched_tunables *t)
{
	unsigned cpus = nr_cpus < SCHED_SCALE_MAX_CPUS ? nr_cpus : SCHED_SCALE_MAX_CPUS;
	uint64_t factor = 1 + ilog2_u(cpus ? cpus : 1);

	t->latency_ns = factor * SCHED_LATENCY_NS;
	t->min_gran_ns = factor * SCHED_MIN_GRAN_NS;
	t->wakeup_gran_ns = factor * SCHED_WAKEUP_GRAN_NS;
	t->tick_ns = 1000000000ull / (hz ? hz : SCHED_DEFAULT_HZ);
}

/* sched_slice() of one of @nr tasks of one weight: __sched_period() shared evenly. */
static uint64_t slice_ns(const struct sched_tunables *t, unsigned nr)
{
	uint64_t period = nr * t->min_gran_ns > t->latency_ns ? nr * t->min_gran_ns : t->latency_ns;

	return period / nr;
}

/* The slice of each task on @k's queue while @k is on it too. */
static uint64_t queue_slice_ns(const struct sched_task *k)
{
	return slice_ns(k->tun, k->nr_others + 1);
}

/*
 * check_preempt_tick(): the tick preempts a task once it ran more than
 * @slice, or at least min_granularity while its vruntime is more than
 * @slice past the leftmost waiting one's, @lead ahead of it when it was
 * picked. The least run that does.
 */
static uint64_t preempt_after(const struct sched_tunables *t, uint64_t slice, int64_t lead)
{
	int64_t catch_up = (int64_t)slice + 1 - lead;
	uint64_t ahead = catch_up > (int64_t)t->min_gran_ns ? (uint64_t)catch_up : t->min_gran_ns;

	return ahead < slice + 1 ? ahead : slice + 1;
}

/* Ticks fall on multiples of tick_ns: from @at, the run until the first tick at which at least @need has run. */
static uint64_t run_to_tick(const struct sched_tunables *t, uint64_t at, uint64_t need)
{
	uint64_t first = t->tick_ns - at % t->tick_ns;

	if (need <= first)
		return first;
	return first + (need - first + t->tick_ns - 1) / t->tick_ns * t->tick_ns;
}

/* An other task's turn, begun on a tick while @k waits behind it. */
static uint64_t turn_ns(const struct sched_task *k)
{
	return run_to_tick(k->tun, 0, queue_slice_ns(k) + 1);
}

void sched_sleep(struct sched_task *k, uint64_t ns)
{
	k->at_ns += ns;
	if (k->nr_others)
		k->lag_ns -= (int64_t)(ns / k->nr_others);
}

void sched_hold(struct sched_task *k, uint64_t ns)
{
	k->at_ns += ns;
	if (k->nr_others)
		k->lag_ns += (int64_t)ns;
}

/*
 * place_entity() and check_preempt_wakeup(): the woken task is put no
 * more than half a latency period behind min_vruntime; it preempts the
 * running task, @phase into its turn, if that one's vruntime is more
 * than the wakeup granularity ahead of its own (true: it has the CPU),
 * and otherwise waits for the tick that ends the turn, and for the
 * others' turns when it is not the leftmost then.
 */
static bool wake(struct sched_task *k)
{
	const struct sched_tunables *t = k->tun;
	int64_t thresh = (int64_t)(t->latency_ns / 2);
	uint64_t turn = turn_ns(k), phase = k->at_ns % turn, end, next_tick;
	int64_t lead;

	if (k->lag_ns < -thresh)
		k->lag_ns = -thresh;
	if ((int64_t)phase - k->lag_ns > (int64_t)t->wakeup_gran_ns)
		return true;
	/* the running task's lead over the leftmost waiting one when it was picked: @k, or one of the others */
	lead = k->nr_others > 1 && k->lag_ns > 0 ? 0 : -k->lag_ns;
	end = run_to_tick(t, 0, preempt_after(t, queue_slice_ns(k), lead));
	next_tick = (phase / t->tick_ns + 1) * t->tick_ns;
	k->at_ns += (end > next_tick ? end : next_tick) - phase;
	if (k->lag_ns >= 0) {
		/* the rest of the others, level with it and queued first, have their turns too */
		k->at_ns += (k->nr_others - 1) * turn;
		k->lag_ns -= (int64_t)turn;
	}
	return false;
}

/* The others each take turns until the queue's min_vruntime passes @k's vruntime. */
static void wait_turn(struct sched_task *k)
{
	uint64_t turn = turn_ns(k), rounds = (uint64_t)k->lag_ns / turn + 1;

	k->at_ns += rounds * k->nr_others * turn;
	k->lag_ns -= (int64_t)(rounds * turn);
}

/* @work of CPU work from k->at_ns, from a wake-up if k->woke. */
static void run_part(struct sched_task *k, uint64_t work)
{
	bool on_cpu;

	if (!work)
		return;
	if (!k->nr_others) {
		k->at_ns += work;
		k->lag_ns = 0;
		k->woke = false;
		return;
	}
	on_cpu = k->woke && wake(k);
	k->woke = false;
	for (; work; on_cpu = false) {
		uint64_t run;

		/* off the CPU, it runs again once it is the leftmost */
		if (!on_cpu && k->lag_ns >= 0)
			wait_turn(k);
		run = run_to_tick(k->tun, k->at_ns, preempt_after(k->tun, queue_slice_ns(k), k->lag_ns));
		if (run > work)
			run = work;
		work -= run;
		k->at_ns += run;
		k->lag_ns += (int64_t)run;
	}
}

uint64_t sched_run_ns(struct sched_task *k, uint64_t cpu_ns)
{
	uint64_t from = k->at_ns;
	/* time asleep is at least one sleep */
	unsigned blocks = k->blocks ? k->blocks : k->blocked_ns != 0, parts = blocks + 1;

	for (unsigned i = 0; i < parts; i++) {
		if (i) {
			sched_sleep(k, k->blocked_ns / blocks + (i - 1 < k->blocked_ns % blocks));
			k->woke = true;
		}
		run_part(k, cpu_ns / parts + (i < cpu_ns % parts));
	}
	return k->at_ns - from;
}
