// SPDX-License-Identifier: GPL-2.0
/*
 * The run queue a device's request shares (tools/cmasim/engine/sched.c):
 * CFS's tunables for the board's CPUs, the fair share of a CPU among the
 * tasks on it, wake-up preemption by the wakeup granularity, a sleeping
 * task off the queue, and the wait to run counted in the latency, as
 * cost_ns() and a run see them.
 *
 * The figures: 2 CPUs and HZ 250 scale CFS's tunables by 1 + ilog2(2):
 * latency 12 ms, min_granularity 1.5 ms, wakeup_granularity 2 ms, a
 * tick every 4 ms. Two tasks on a queue get slices of 6 ms, which the
 * tick ends at 8 ms.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim_helpers.h"

#define MS	1000000ull

/* Expect: kernel/sched/fair.c's 6, 0.75 and 1 ms times 1 + ilog2(CPUs), the CPUs counted up to 8. */
static void sched_tunables_scale_with_log2_of_the_cpus(void **state)
{
	static const struct { unsigned cpus, factor; } cases[] = { { 1, 1 }, { 2, 2 }, { 3, 2 }, { 4, 3 },
								   { 8, 4 }, { 64, 4 } };
	struct sched_tunables t;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sched_tunables(cases[i].cpus, 0, &t);
		assert_int_equal(t.latency_ns, cases[i].factor * 6 * MS);
		assert_int_equal(t.min_gran_ns, cases[i].factor * 750000);
		assert_int_equal(t.wakeup_gran_ns, cases[i].factor * MS);
		assert_int_equal(t.tick_ns, 4 * MS);	/* Kconfig.hz's default HZ_250 */
	}
	sched_tunables(2, 1000, &t);
	assert_int_equal(t.tick_ns, MS);
}

/* A request of @cpu_ns of x86 page bookkeeping (400 cycles at 3300 MHz a page: 121212 ns per 1000). */
static struct cost_work bookkeeping(unsigned pages, unsigned runnable, struct sched_task *k)
{
	return (struct cost_work){ .handled = pages, .nr_cpus = 2, .runnable = runnable, .sched = k };
}

/*
 * Expect: the fair share of the request's own CPU. Two background
 * threads on two CPUs leave one on the request's queue: a second of CPU
 * work that is not woken (it ran on from an earlier request, level with
 * the others) takes turns with that one, 8 ms each, and ends after
 * about two seconds: half a CPU, not the average's 2 / 3.
 */
static void cost_ns_shares_the_request_cpu_with_its_queue(void **state)
{
	struct sched_tunables t;
	struct sched_task k;
	struct cost_model m;
	struct cost_work w;
	uint64_t alone, ns;

	cost_profile(CMA_ARCH_X86, &m);
	sched_tunables(2, 250, &t);
	k = (struct sched_task){ .tun = &t, .nr_others = 1 };
	w = bookkeeping(8250000, 2, &k);
	alone = cost_ns(&m, &(struct cost_work){ .handled = 8250000 }, 4096);
	assert_int_equal(alone, 1000 * MS);
	ns = cost_ns(&m, &w, 4096);
	/* 125 turns of the other's 8 ms; its own turns are ticks too, so it may lose one more */
	assert_in_range(ns, 2 * alone - 8 * MS, 2 * alone + 8 * MS);
	/* the queue's min_vruntime moved on as far as the request's vruntime: level again */
	if (k.lag_ns <= -8 * (int64_t)MS || k.lag_ns >= 8 * (int64_t)MS)
		fail_msg("expected a lag within a turn (8 ms) of level, found %lld ns", (long long)k.lag_ns);
}

/*
 * Expect (place_entity(), check_preempt_wakeup()): a request that woke
 * after a long sleep is put half a latency period (6 ms) behind the
 * others and preempts the running one at once: 3 ms of work on a CPU
 * with three others takes 3 ms. One that woke level with the others
 * preempts only a task more than the wakeup granularity (2 ms) ahead of
 * it: 3 ms into that one's turn it takes the CPU, 1 ms into it it waits
 * for the tick that ends the turn (slices of 3 ms among four: 4 ms) and
 * the two others' turns, level with it and queued before it.
 */
static void sched_woken_task_preempts_past_the_wakeup_granularity(void **state)
{
	struct sched_tunables t;
	struct sched_task slept, level, ahead;

	sched_tunables(2, 250, &t);
	slept = (struct sched_task){ .tun = &t, .nr_others = 3, .woke = true, .lag_ns = -1000 * (int64_t)MS,
				     .at_ns = 100 * MS + MS };
	assert_int_equal(sched_run_ns(&slept, 3 * MS), 3 * MS);
	assert_int_equal(slept.lag_ns, -6 * (int64_t)MS + 3 * (int64_t)MS);
	/* 3 ms into the running task's turn, it is 3 ms ahead: more than 2 ms, preempted */
	ahead = (struct sched_task){ .tun = &t, .nr_others = 3, .woke = true, .at_ns = 3 * MS };
	assert_int_equal(sched_run_ns(&ahead, MS), MS);
	/* 1 ms into it: 1 ms ahead, not preempted */
	level = (struct sched_task){ .tun = &t, .nr_others = 3, .woke = true, .at_ns = MS };
	assert_int_equal(sched_run_ns(&level, MS), (4 * MS - MS) + 2 * 4 * MS + MS);
}

/*
 * Expect: a task that sleeps leaves the queue. A request that sleeps
 * 100 ms halfway through 10 ms of CPU work, on a queue with one other,
 * is not charged for the other's running meanwhile: it comes back
 * behind by the sleeper's credit (6 ms), runs its second 5 ms at once,
 * and takes 110 ms. Awake throughout and level with the other, it waits
 * for the other's turn (a 6 ms slice the tick ends at 8 ms) first.
 */
static void sched_sleeping_task_leaves_the_queue(void **state)
{
	struct sched_tunables t;
	struct sched_task k;
	struct cost_model m;
	struct cost_work w = { .nr_cpus = 2, .runnable = 2, .throttle_ns = 100 * MS, .blocks = 1 };

	cost_profile(CMA_ARCH_X86, &m);
	sched_tunables(2, 250, &t);
	k = (struct sched_task){ .tun = &t, .nr_others = 1, .woke = true, .lag_ns = -6 * (int64_t)MS,
				 .blocks = 1 };
	w.sched = &k;
	w.handled = 82500;		/* 10 ms of bookkeeping */
	assert_int_equal(cost_ns(&m, &w, 4096), 110 * MS);
	assert_int_equal(k.lag_ns, -6 * (int64_t)MS + 5 * (int64_t)MS);
	k = (struct sched_task){ .tun = &t, .nr_others = 1 };
	assert_int_equal(sched_run_ns(&k, 5 * MS), 8 * MS + 5 * MS);
}

/*
 * Expect: work no one preempts (a loop with no scheduling point on a
 * CONFIG_PREEMPT_VOLUNTARY kernel: 200 pages of ARM bookkeeping, 100 us)
 * holds the CPU to its end, and the task's vruntime grows by it all the
 * same: a woken task 6 ms behind is 100 us less behind, the others
 * having waited.
 */
static void cost_ns_unpreemptible_work_counts_in_the_vruntime(void **state)
{
	struct sched_tunables t;
	struct sched_task k;
	struct cost_model m;
	struct cost_work w = { .handled = 200, .nosched_pages = 200, .nr_cpus = 2, .no_preempt = true };

	cost_profile(CMA_ARCH_ARM, &m);
	sched_tunables(2, 250, &t);
	k = (struct sched_task){ .tun = &t, .nr_others = 1, .woke = true, .lag_ns = -6 * (int64_t)MS };
	w.sched = &k;
	assert_int_equal(cost_ns(&m, &w, 4096), 100000);
	assert_int_equal(k.lag_ns, -6 * (int64_t)MS + 100000);
	assert_int_equal(k.at_ns, 100000);
}

/*
 * A camera on the 2-CPU ARM board with a background of @threads
 * CPU-bound threads (an anon workload that touches nothing), each
 * session a ring of 8 buffers of 4 MiB asked for one after the other,
 * about 3.5 ms of work each.
 */
static void run_camera(unsigned threads, struct sim_result *res)
{
	char ini[1024];

	snprintf(ini, sizeof(ini),
		 "[scenario]\nplatform = arm\nmemory = 256M\ncmdline = cma=64M\nduration = 3s\n"
		 "[anon busy]\nrss = 1M\nrate = 1\nthreads = %u\n"
		 "[device camera]\nsize = 4M\nring = 8\nperiod = 33ms\nsession = 500ms\ngap = 200ms\n",
		 threads);
	sim_test_run_ini(ini, "cma", res);
}

/*
 * Expect: the latency includes the wait to run. A session's first
 * request wakes the camera's task, which preempts and runs at once; the
 * ring's next ones follow it without a sleep, so once its vruntime is
 * past the others' it waits their turns, whole ticks, and the slowest
 * request takes more than a 4 ms tick longer than the fastest. With no
 * background every request runs at once and they take about the same.
 */
static void sim_request_latency_includes_the_wait_to_run(void **state)
{
	struct sim_result quiet, busy;

	run_camera(0, &quiet);
	run_camera(4, &busy);
	assert_true(busy.devices[0].successes > 8);
	assert_true(quiet.devices[0].lat.max - quiet.devices[0].lat.min < MS);
	if (busy.devices[0].lat.max < busy.devices[0].lat.min + 4 * MS)
		fail_msg("expected a wait of a tick or more, found min %llu ns, max %llu ns",
			 (unsigned long long)busy.devices[0].lat.min,
			 (unsigned long long)busy.devices[0].lat.max);
	sim_result_free(&quiet);
	sim_result_free(&busy);
}

/*
 * Expect: the tick is the board's CONFIG_HZ. One 16 MiB carveout
 * request (14.03 ms of ARM work, woken at 0 with 6 ms of credit) behind
 * one of three CPU-bound threads on its queue: at HZ 250 (Kconfig's
 * default) it runs to the tick at 8 ms, waits the other's 8 ms turn and
 * ends its last 6.03 ms still the leftmost, 8 ms over alone; at HZ 1000
 * its turns and the other's end at 7 ms, so its last 0.03 ms waits a
 * second turn: 14 ms over alone.
 */
static void sim_tick_is_the_board_config_hz(void **state)
{
	static const char board[] = "[scenario]\nplatform = arm\nmemory = 64M\nduration = 3s\ncmdline = cma=16M\n";
	static const char hog[] = "[anon hog]\nrss = 4M\nrate = 0\nthreads = 3\n";
	static const char cam[] = "[device cam]\nsize = 16M\nperiod = 100ms\n";
	static const struct { const char *kconfig, *hog; uint64_t more_ns; } cases[] = {
		{ "", hog, 8 * MS },
		{ "kconfig = CONFIG_HZ=1000\n", hog, 14 * MS },
	};
	struct sim_result idle, r;
	char ini[512];

	snprintf(ini, sizeof(ini), "%s%s", board, cam);
	sim_test_run_ini(ini, "carveout", &idle);
	assert_int_equal(idle.devices[0].lat.max, 14033725);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(ini, sizeof(ini), "%s%s%s%s", board, cases[i].kconfig, cases[i].hog, cam);
		sim_test_run_ini(ini, "carveout", &r);
		if (r.devices[0].lat.max != idle.devices[0].lat.max + cases[i].more_ns)
			fail_msg("%sexpected %llu ns over alone, found %llu", cases[i].kconfig,
				 (unsigned long long)cases[i].more_ns,
				 (unsigned long long)(r.devices[0].lat.max - idle.devices[0].lat.max));
		sim_result_free(&r);
	}
	sim_result_free(&idle);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sched_tunables_scale_with_log2_of_the_cpus),
		cmocka_unit_test(cost_ns_shares_the_request_cpu_with_its_queue),
		cmocka_unit_test(sched_woken_task_preempts_past_the_wakeup_granularity),
		cmocka_unit_test(sched_sleeping_task_leaves_the_queue),
		cmocka_unit_test(cost_ns_unpreemptible_work_counts_in_the_vruntime),
		cmocka_unit_test(sim_request_latency_includes_the_wait_to_run),
		cmocka_unit_test(sim_tick_is_the_board_config_hz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
