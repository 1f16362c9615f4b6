/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU a device's request runs on: one CFS run queue on the virtual
 * clock (kernel/sched/fair.c of 2.6.38 to 6.5). The request's task shares
 * it with the background's runnable threads the load balancer put there,
 * CPU-bound tasks of the same weight; it runs in slices ended by the
 * tick, waits its turn by vruntime, and leaves the queue while it sleeps
 * (I/O waits, reclaim's throttling, the CMA mutex). Its latency is the
 * wall time of all that: waiting to run included.
 *
 * The other tasks are one fluid group: all at the queue's min_vruntime,
 * taking turns of a slice each, so a request costs one step per slice of
 * its own and the group's position follows from the clock.
 */
#ifndef CMASIM_SCHED_H
#define CMASIM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

/* CFS's tunables as the kernel sets them for the board's CPUs, and its tick. */
struct sched_tunables {
	uint64_t latency_ns;		/* sysctl_sched_latency: a period shared by up to sched_nr_latency tasks */
	uint64_t min_gran_ns;		/* sysctl_sched_min_granularity: the shortest slice */
	uint64_t wakeup_gran_ns;	/* sysctl_sched_wakeup_granularity: how far ahead a woken task must be */
	uint64_t tick_ns;		/* 1 / CONFIG_HZ: where a running task's slice is checked */
};

/* The request's task on its run queue, moved on by sched_run_ns(). */
struct sched_task {
	const struct sched_tunables *tun;
	unsigned nr_others;		/* the other tasks on its queue, runnable throughout */
	bool woke;			/* it slept before the request: it is placed and may preempt */
	int64_t lag_ns;			/* its vruntime less the queue's min_vruntime */
	uint64_t at_ns;			/* its clock: the virtual time it has come to */
	unsigned blocks;		/* times it sleeps within the request, between equal parts of its work */
	uint64_t blocked_ns;		/* how long those sleeps take together */
};

/* The tunables for @nr_cpus CPUs (sysctl_sched_tunable_scaling "log") and a tick of @hz. */
void sched_tunables(unsigned nr_cpus, unsigned hz, struct sched_tunables *t);
/*
 * Run @cpu_ns of CPU work and @k's sleeps from k->at_ns: the wall time
 * it takes; k->at_ns and k->lag_ns are left where the request ends.
 */
uint64_t sched_run_ns(struct sched_task *k, uint64_t cpu_ns);
/* @k slept @ns while its queue's others ran: their min_vruntime moved on. */
void sched_sleep(struct sched_task *k, uint64_t ns);
/* @k ran @ns where nothing preempts it (no scheduling point, no CONFIG_PREEMPT): its vruntime moved on. */
void sched_hold(struct sched_task *k, uint64_t ns);

#endif
