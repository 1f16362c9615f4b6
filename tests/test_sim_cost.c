// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for what a device's request shares while it runs, in cmasim's
 * cost model (tools/cmasim/engine/cost.c, contention.c; doc/cost-model.md,
 * "CPU contention and drains" and "Lock waits"): the CPUs with the
 * background's runnable threads, the per-CPU drains under each kernel,
 * the zone and LRU locks with the background's allocations, and the CMA
 * mutex with the other devices' requests.
 *
 * Expect: each term follows its formula exactly, grows with what it
 * names (runnable threads, CPUs, the background's rate), and a small
 * scenario's requests carry it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "engine/sim_api.h"
#include "policies/registry.h"
#include "sim_helpers.h"

#define BOARD "[scenario]\nplatform = arm\nmemory = 64M\nduration = 3s\n"

/* @board's [scenario] and @workloads under @policy, into @res. */
static void run_board(const char *board, const char *workloads, const char *policy, struct sim_result *res)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_options o = { .policy = sim_policy_find(policy) };
	char ini[1024], err[768];

	assert_non_null(sc);
	snprintf(ini, sizeof(ini), "%s%s", board, workloads);
	if (scenario_parse("test.ini", ini, sc, err, sizeof(err)))
		fail_msg("the test's scenario does not parse: %s", err);
	assert_int_equal(sim_run(sc, &o, res), 0);
	free(sc);
}

/* @workloads for 3 s on an ARM board (two CPUs, profile arm, 64 MiB) under @policy, into @res. */
static void run_with(const char *workloads, const char *policy, struct sim_result *res)
{
	run_board(BOARD "cmdline = cma=16M\n", workloads, policy, res);
}

/* ---- CPU contention ---- */

/*
 * A task level with @others runnable threads on its run queue, at time 0
 * on a board of @cpus CPUs at HZ 250 (engine/sched.c): it waits their
 * turns, a slice each that the 4 ms tick ends, before it runs.
 */
static struct sched_task *level_task(struct sched_task *k, struct sched_tunables *t, unsigned cpus,
				     unsigned others)
{
	sched_tunables(cpus, 250, t);
	*k = (struct sched_task){ .tun = t, .nr_others = others };
	return k;
}

/*
 * Expect: the request's CPU work (scanning, bookkeeping, copying,
 * clearing, lock rounds) and its sleeps go through its run queue, and
 * nothing else: without a queue the runnable count changes nothing; on
 * a 2-CPU queue with one other level with it, the work (under a slice)
 * waits the other's turn, 8 ms; a wait for storage in the middle is its
 * own time, after which the task, woken with the sleeper's credit, runs
 * at once.
 */
static void cost_ns_queues_only_cpu_work(void **state)
{
	struct cost_work w = { .scanned = 512, .handled = 256, .migrated = 100, .zeroed_bytes = 1 << 20,
			       .locks = 1, .nr_cpus = 2 };
	struct sched_tunables t;
	struct sched_task k;
	struct cost_model m;
	uint64_t alone;

	cost_profile(CMA_ARCH_X86, &m);
	alone = cost_ns(&m, &w, 4096);
	w.runnable = 3;
	assert_int_equal(cost_ns(&m, &w, 4096), alone);
	w.sched = level_task(&k, &t, 2, 1);
	assert_int_equal(cost_ns(&m, &w, 4096), 8000000 + alone);
	w.sched = level_task(&k, &t, 2, 1);
	w.io_wait_ns = 1000000;
	w.blocks = 1;
	assert_int_equal(cost_ns(&m, &w, 4096), 8000000 + alone + 1000000);
}

/*
 * Expect: on a kernel without CONFIG_PREEMPT (no_preempt) the pages
 * handled in a loop with no scheduling point (nosched_pages) and the
 * clearing run at full speed whatever the run queue, while the rest of
 * the CPU work (scanning, the other pages, copying, lock rounds) still
 * waits its turn; under CONFIG_PREEMPT everything does, as before.
 */
static void cost_ns_without_preempt_leaves_nosched_work_unstretched(void **state)
{
	struct cost_work w = { .scanned = 512, .handled = 256, .nosched_pages = 200, .migrated = 100,
			       .zeroed_bytes = 1 << 20, .locks = 1, .nr_cpus = 2 };
	struct cost_work sched = w, quiet = { .handled = 200, .nosched_pages = 200, .zeroed_bytes = 1 << 20,
					      .nr_cpus = 2, .no_preempt = true };
	struct sched_tunables t;
	struct sched_task k, k2;
	struct cost_model m;
	uint64_t alone;

	cost_profile(CMA_ARCH_ARM, &m);
	alone = cost_ns(&m, &w, 4096);
	w.sched = level_task(&k, &t, 2, 1);
	assert_int_equal(cost_ns(&m, &w, 4096), 8000000 + alone);
	/* without CONFIG_PREEMPT: 200 pages and 1 MiB cleared are the same time alone or not */
	w.no_preempt = true;
	w.sched = NULL;
	assert_int_equal(cost_ns(&m, &w, 4096), alone);
	quiet.sched = level_task(&k, &t, 2, 1);
	assert_int_equal(cost_ns(&m, &quiet, 4096), 200 * 600 / 1.2 + 748982);
	sched.handled = 56;
	sched.nosched_pages = 0;
	sched.zeroed_bytes = 0;
	sched.sched = level_task(&k, &t, 2, 1);
	w.sched = level_task(&k2, &t, 2, 1);
	assert_int_equal(cost_ns(&m, &w, 4096), cost_ns(&m, &sched, 4096) + 200 * 600 / 1.2 + 748982);
}

/*
 * Expect: without CONFIG_PREEMPT a lock round under a spinlock with
 * nothing sleeping around it (nosched_locks: predict's gen_pool-like
 * standing pool) takes lock_us whatever the run queue; a sleeping
 * lock's round (cma->lock, a mutex) still waits for the three others on
 * its queue of a 4-CPU board (slices of 4.5 ms, turns of 8 ms), and
 * under CONFIG_PREEMPT both do.
 */
static void cost_ns_without_preempt_leaves_spinlock_rounds_unstretched(void **state)
{
	struct cost_work spin = { .locks = 1, .nosched_locks = 1, .nr_cpus = 4, .no_preempt = true };
	struct cost_work mutex = { .locks = 1, .nr_cpus = 4, .no_preempt = true };
	struct sched_tunables t;
	struct sched_task k;
	struct cost_model m;

	cost_profile(CMA_ARCH_ARM, &m);
	spin.sched = level_task(&k, &t, 4, 3);
	assert_int_equal(cost_ns(&m, &spin, 4096), 2000);
	mutex.sched = level_task(&k, &t, 4, 3);
	assert_int_equal(cost_ns(&m, &mutex, 4096), 3 * 8000000 + 2000);
	spin.no_preempt = false;
	spin.sched = level_task(&k, &t, 4, 3);
	assert_int_equal(cost_ns(&m, &spin, 4096), 3 * 8000000 + 2000);
}

/*
 * Expect: a driver that asks CMA itself (cma_alloc, an alignment beyond
 * its size's, as GCMA's evaluation module did) gets its pages as they
 * were, under gcma as under cma: its 1 MiB request on the idle ARM board
 * costs exactly the clearing less (1 MiB at 1400 MB/s, 748982 ns) than
 * dma_alloc_coherent's.
 */
static void gcma_request_of_a_driver_asking_cma_clears_nothing(void **state)
{
	struct sim_result coherent, raw;

	run_with("[device cam]\nsize = 1M\nperiod = 100ms\n", "gcma", &coherent);
	run_with("[device cam]\nsize = 1M\nalign = 8K\nperiod = 100ms\n", "gcma", &raw);
	assert_int_equal(sim_test_device(&coherent, "cam")->lat.max, sim_test_device(&raw, "cam")->lat.max + 748982);
	sim_result_free(&coherent);
	sim_result_free(&raw);
}

/*
 * Expect: gcma_alloc_contig walks its pages under the area's spinlock
 * with no scheduling point, and a woken request this short (256 pages)
 * takes the CPU from three runnable threads on the two CPUs at once
 * (engine/sched.c: the sleeper's credit, then wake-up preemption), so
 * under CONFIG_PREEMPT_VOLUNTARY and CONFIG_PREEMPT alike it takes as
 * long as on an idle board. (What each model lets the queue take from a
 * longer request: cost_ns_without_preempt_leaves_nosched_work_unstretched.)
 */
static void gcma_request_without_preempt_keeps_its_cpu(void **state)
{
	static const char dev[] = "[device cam]\nsize = 1M\nalign = 8K\nperiod = 100ms\n";
	static const char hog[] = "[anon hog]\nrss = 4M\nrate = 0\nthreads = 3\n";
	static const char *const models[] = { "CONFIG_PREEMPT_VOLUNTARY=y", "CONFIG_PREEMPT=y" };

	for (size_t i = 0; i < 2; i++) {
		struct sim_result idle, busy;
		char ini[512];
		uint64_t a, b;

		snprintf(ini, sizeof(ini), "kconfig = %s\n%s", models[i], dev);
		run_with(ini, "gcma", &idle);
		snprintf(ini, sizeof(ini), "kconfig = %s\n%s%s", models[i], hog, dev);
		run_with(ini, "gcma", &busy);
		a = sim_test_device(&idle, "cam")->lat.max;
		b = sim_test_device(&busy, "cam")->lat.max;
		if (b != a)
			fail_msg("%s: alone %llu ns, with three runnable threads %llu", models[i],
				 (unsigned long long)a, (unsigned long long)b);
		sim_result_free(&idle);
		sim_result_free(&busy);
	}
}

/*
 * Expect: predict's standing pool hands a one-page buffer out under a
 * spinlock (as a gen_pool does), so on a CONFIG_PREEMPT_VOLUNTARY kernel
 * three runnable threads on the two CPUs do not stretch it at all.
 */
static void predict_pool_request_without_preempt_keeps_its_cpu(void **state)
{
	static const char dev[] = "kconfig = CONFIG_PREEMPT_VOLUNTARY=y\n"
				  "[device cam]\nsize = 4K\nalign = 4K\nperiod = 100ms\n";
	static const char busy_ini[] = "kconfig = CONFIG_PREEMPT_VOLUNTARY=y\n"
				       "[anon hog]\nrss = 4M\nrate = 0\nthreads = 3\n"
				       "[device cam]\nsize = 4K\nalign = 4K\nperiod = 100ms\n";
	struct sim_result idle, busy;

	run_with(dev, "predict", &idle);
	run_with(busy_ini, "predict", &busy);
	assert_true(idle.predict.pool_served > 0 && busy.predict.pool_served > 0);
	assert_int_equal(sim_test_device(&busy, "cam")->lat.max, sim_test_device(&idle, "cam")->lat.max);
	sim_result_free(&idle);
	sim_result_free(&busy);
}

/*
 * Expect: every frame a request allocates for the first time since boot
 * costs host_fault_us more (a guest's first write to a frame its host
 * does not back yet); the built-in profiles are bare metal and price it
 * at nothing.
 */
static void cost_ns_prices_fresh_frames_as_host_faults(void **state)
{
	struct cost_work w = { .migrated = 100, .fresh_frames = 60, .nr_cpus = 2 };
	struct cost_model m;
	uint64_t bare;

	cost_profile(CMA_ARCH_X86, &m);
	bare = cost_ns(&m, &w, 4096);
	w.fresh_frames = 0;
	assert_int_equal(cost_ns(&m, &w, 4096), bare);
	w.fresh_frames = 60;
	m.v[COST_HOST_FAULT_US] = 8;
	assert_int_equal(cost_ns(&m, &w, 4096), bare + 60 * 8000);
}

/*
 * Expect (reclaim_clean_pages_from_list, kernel.contig_reclaim_clean): a
 * clean page alloc_contig_range frees instead of migrating costs its free
 * (page_cycles: 400 / 3300 MHz on x86) and, mapped, its entry's unmap
 * (unmap_us) and flush to each other CPU (tlb_ipi_us), never a copy or
 * migrate_us: 100 dropped pages, 10 of them mapped by a process running
 * on the board's other CPU (10 IPIs), cost 100 * 121.2 ns + 10 *
 * (unmap_us + tlb_ipi_us) more than none.
 */
static void cost_ns_prices_dropped_pages_without_a_copy(void **state)
{
	struct cost_work w = { .migrated = 5, .nr_cpus = 2 };
	struct cost_model m;
	uint64_t none;

	cost_profile(CMA_ARCH_X86, &m);
	none = cost_ns(&m, &w, 4096);
	w.dropped = 100;
	w.dropped_ptes = 10;
	w.tlb_ipis = 10;
	assert_int_equal(cost_ns(&m, &w, 4096),
			 none + 12121 + 10 * (uint64_t)(1000 * (m.v[COST_UNMAP_US] + m.v[COST_TLB_IPI_US])));
	w.migrated += 100;
	w.dropped = w.dropped_ptes = w.tlb_ipis = 0;
	assert_true(cost_ns(&m, &w, 4096) > none + 100 * (1200 + 1000));
}

/*
 * Expect (doc/cost-model.md, "Reclaim's work per page"): a page direct
 * reclaim scans costs reclaim_cycles, 1656 at x86's 3300 MHz (501.8 ns),
 * kept or freed, where a pfn scanner's page costs scan_cycles; a page it
 * frees is not priced again as page_cycles' bookkeeping. 64 pages
 * scanned, 32 of them freed: 64 * 501.8 ns; the same 64 scanned by
 * compaction, 32 isolated: 64 * 60 + 32 * 400 cycles.
 */
static void cost_ns_prices_reclaim_scanning_per_page(void **state)
{
	struct cost_work w = { .nr_cpus = 2 };
	struct cost_model m;
	uint64_t none, reclaim, compaction;

	cost_profile(CMA_ARCH_X86, &m);
	assert_true(m.v[COST_RECLAIM_CYCLES] == 1656);
	none = cost_ns(&m, &w, 4096);
	w.scanned = w.reclaim_scanned = 64;
	w.handled = w.reclaimed = 32;
	reclaim = cost_ns(&m, &w, 4096) - none;
	assert_int_equal(reclaim, 64 * 1656 * 1000 / 3300);
	w.reclaim_scanned = w.reclaimed = 0;
	compaction = cost_ns(&m, &w, 4096) - none;
	assert_int_equal(compaction, (64 * 60 + 32 * 400) * 1000 / 3300);
	cost_profile(CMA_ARCH_ARM, &m);
	assert_true(m.v[COST_RECLAIM_CYCLES] == 1656);
}

/*
 * Expect (doc/cost-model.md, "Reclaim's work per page"): a page reclaim
 * swaps out to zram costs zram_store_cycles more, 15469 cycles at x86's
 * 3300 MHz, 6438 on arm at 1200 MHz: 10 pages, 46,875 and 53,650 ns.
 */
static void cost_ns_prices_zram_stores(void **state)
{
	struct cost_work w = { .nr_cpus = 2 };
	struct cost_model m;
	uint64_t none;

	cost_profile(CMA_ARCH_X86, &m);
	none = cost_ns(&m, &w, 4096);
	w.zram_stores = 10;
	assert_int_equal(cost_ns(&m, &w, 4096) - none, 10ull * 15469 * 1000 / 3300);
	cost_profile(CMA_ARCH_ARM, &m);
	w.zram_stores = 0;
	none = cost_ns(&m, &w, 4096);
	w.zram_stores = 10;
	assert_int_equal(cost_ns(&m, &w, 4096) - none, 10ull * 6438 * 1000 / 1200);
}

/*
 * Expect: a carveout request on the two-CPU ARM board (256 pages of
 * bookkeeping, 1 MiB cleared, a lock round: 878982 ns alone) wakes the
 * device's task, which takes a CPU at once whatever the background (the
 * sleeper's credit: half of a 12 ms latency period). A 16 MiB one, 14 ms
 * of work, runs to the tick past its 6 ms slice and then waits the turn
 * of the one thread on its queue (three over two CPUs), 8 ms; with the
 * scenario's four CPUs, it has a CPU of its own.
 */
static void device_request_shares_the_cpus_with_the_background(void **state)
{
	static const struct { const char *hog; uint64_t ns; } cases[] = {
		{ "", 878982 },
		{ "[anon hog]\nrss = 4M\nrate = 0\nthreads = 1\n", 878982 },
		{ "[anon hog]\nrss = 4M\nrate = 0\nthreads = 3\n", 878982 },
		{ "[pagecache reader]\nfile = 4M\nrate = 10\nthreads = 5\n", 878982 },
	};
	static const struct { const char *hog; uint64_t more_ns; } long_cases[] = {
		{ "[anon hog]\nrss = 4M\nrate = 0\nthreads = 3\n", 8000000 },
		{ "[anon hog]\nrss = 4M\nrate = 0\nthreads = 3\nstart = 500ms\n", 0 },
		{ "cpus = 4\n[anon hog]\nrss = 4M\nrate = 0\nthreads = 3\n", 0 },
	};
	struct sim_result r, idle;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char ini[512];

		snprintf(ini, sizeof(ini), "%s[device cam]\nsize = 1M\nperiod = 100ms\n", cases[i].hog);
		run_with(ini, "carveout", &r);
		if (sim_test_device(&r, "cam")->lat.max != cases[i].ns)
			fail_msg("with\n%s\nexpected %llu ns, found %llu", cases[i].hog,
				 (unsigned long long)cases[i].ns, (unsigned long long)sim_test_device(&r, "cam")->lat.max);
		sim_result_free(&r);
	}
	run_with("[device cam]\nsize = 16M\nperiod = 100ms\n", "carveout", &idle);
	for (size_t i = 0; i < sizeof(long_cases) / sizeof(long_cases[0]); i++) {
		char ini[512];

		snprintf(ini, sizeof(ini), "%s[device cam]\nsize = 16M\nperiod = 100ms\n", long_cases[i].hog);
		run_with(ini, "carveout", &r);
		if (sim_test_device(&r, "cam")->lat.max != sim_test_device(&idle, "cam")->lat.max + long_cases[i].more_ns)
			fail_msg("with\n%s\nexpected %llu ns more than alone (%llu), found %llu", long_cases[i].hog,
				 (unsigned long long)long_cases[i].more_ns,
				 (unsigned long long)sim_test_device(&idle, "cam")->lat.max,
				 (unsigned long long)sim_test_device(&r, "cam")->lat.max);
		sim_result_free(&r);
	}
	sim_result_free(&idle);
}

/* ---- drains ---- */

/*
 * Expect: a drain's cost grows with the CPUs under both kernels.
 * drain_all_pages: v3.5 (IPIs, on_each_cpu_mask) a batch of frees and
 * an ipi_us per other CPU; 6.12 (__drain_all_pages, remote) a batch of
 * frees and a lock handoff per CPU. lru_add_drain_all (a work item per
 * CPU under both): an ipi_us per other CPU and a wakeup, and preempt_us
 * more when a background thread is runnable.
 */
static void cost_drain_grows_with_the_cpus_per_kernel(void **state)
{
	struct cost_model m;
	double frees;

	cost_profile(CMA_ARCH_X86, &m);
	frees = 31 * m.v[COST_PAGE_CYCLES] * 1000.0 / m.v[COST_CPU_MHZ];
	for (unsigned cpus = 1; cpus <= 8; cpus *= 2) {
		struct cost_work pcp = { .drains = 1, .nr_cpus = cpus };
		struct cost_work remote = { .drains = 1, .nr_cpus = cpus, .remote_drain = true };
		struct cost_work lru = { .drains = 1, .lru_drains = 1, .nr_cpus = cpus };
		struct cost_work lru_busy = { .drains = 1, .lru_drains = 1, .nr_cpus = cpus, .runnable = 1 };
		struct cost_work more = pcp, more_remote = remote, more_lru = lru;

		assert_int_equal(cost_ns(&m, &pcp, 4096), (uint64_t)(frees + (cpus - 1) * 10100.0));
		assert_int_equal(cost_ns(&m, &remote, 4096), (uint64_t)(cpus * (frees + 29.0)));
		assert_int_equal(cost_ns(&m, &lru, 4096), (uint64_t)((cpus - 1) * 10100.0 + 10100.0));
		assert_int_equal(cost_ns(&m, &lru_busy, 4096), (uint64_t)((cpus - 1) * 10100.0 + 10100.0 + 8300.0));
		more.nr_cpus = more_remote.nr_cpus = more_lru.nr_cpus = 2 * cpus;
		assert_true(cost_ns(&m, &more, 4096) > cost_ns(&m, &pcp, 4096));
		assert_true(cost_ns(&m, &more_remote, 4096) > cost_ns(&m, &remote, 4096));
		assert_true(cost_ns(&m, &more_lru, 4096) > cost_ns(&m, &lru, 4096));
	}
}

/*
 * Expect ("mm, page_alloc: drain per-cpu pages from workqueue context",
 * 4.11, until 6.0's remote drain): drain_all_pages by work items costs
 * what lru_add_drain_all's do (an ipi_us per other CPU, a wakeup, a
 * preempt_us more on a busy board) plus one CPU's batch of frees, the
 * items emptying their lists in parallel.
 */
static void cost_drain_all_pages_by_work_items(void **state)
{
	struct cost_model m;
	double frees;

	cost_profile(CMA_ARCH_ARM, &m);
	frees = 31 * m.v[COST_PAGE_CYCLES] * 1000.0 / m.v[COST_CPU_MHZ];
	for (unsigned cpus = 1; cpus <= 8; cpus *= 2) {
		struct cost_work wq = { .drains = 1, .nr_cpus = cpus, .drain_wq = true };
		struct cost_work wq_busy = wq;
		double kick = (cpus - 1) * 20600.0;

		wq_busy.runnable = 1;
		assert_int_equal(cost_ns(&m, &wq, 4096), (uint64_t)(kick + 20600.0 + frees));
		assert_int_equal(cost_ns(&m, &wq_busy, 4096), (uint64_t)(kick + 20600.0 + 17000.0 + frees));
	}
}

/*
 * Expect (drain_all_pages from 4.11, __drain_all_pages in 6.12: one drain
 * at a time under pcpu_drain_mutex): each of a request's pcp drains
 * also waits, by the lock waits' M/D/1 queue, for the background's
 * drains, each holding the mutex a drain's time and a mutex handoff;
 * before 4.11 (no mutex) the background's drains cost it nothing.
 */
static void cost_drain_waits_for_the_backgrounds_drain_under_the_mutex(void **state)
{
	struct cost_model m;
	struct cost_work v35 = { .drains = 3, .lru_drains = 1, .nr_cpus = 4, .bg_drain_rate = 2000 };
	struct cost_work wq = v35, remote = v35;
	struct cost_work wq_still, remote_still;
	double frees, hold, wait;

	cost_profile(CMA_ARCH_ARM, &m);
	frees = 31 * m.v[COST_PAGE_CYCLES] * 1000.0 / m.v[COST_CPU_MHZ];
	wq.drain_wq = wq.drain_mutex = true;
	remote.remote_drain = remote.drain_mutex = true;
	wq_still = wq;
	remote_still = remote;
	wq_still.bg_drain_rate = remote_still.bg_drain_rate = 0;

	hold = 3 * 20600.0 + 20600.0 + frees + m.v[COST_MUTEX_HANDOFF_US] * 1000.0;
	wait = cost_lock_wait_ns(2000, hold);
	assert_true(wait > 0);
	assert_int_equal(cost_ns(&m, &wq, 4096), (uint64_t)(cost_ns(&m, &wq_still, 4096) + 2 * wait));
	hold = 4 * (frees + m.v[COST_LOCK_HANDOFF_NS]) + m.v[COST_MUTEX_HANDOFF_US] * 1000.0;
	wait = cost_lock_wait_ns(2000, hold);
	assert_int_equal(cost_ns(&m, &remote, 4096), (uint64_t)(cost_ns(&m, &remote_still, 4096) + 2 * wait));
	v35.bg_drain_rate = 0;
	wq_still = v35;
	v35.bg_drain_rate = 2000;
	assert_int_equal(cost_ns(&m, &v35, 4096), cost_ns(&m, &wq_still, 4096));
}

/* The slowest of a 1 MiB device's requests on the arm board under @kernel, one thread busy. */
static uint64_t busy_request_ns(const char *kernel)
{
	char ini[512];
	struct sim_result r;
	uint64_t ns;

	snprintf(ini, sizeof(ini), "kernel = %s\n[anon hog]\nrss = 4M\nrate = 0\nthreads = 1\n"
		 "[device cam]\nsize = 1M\nperiod = 100ms\n", kernel);
	run_with(ini, "cma", &r);
	ns = sim_test_device(&r, "cam")->lat.max;
	sim_result_free(&r);
	return ns;
}

/*
 * Expect: the same request's drain_all_pages calls cost more from 4.11
 * (a work item per CPU, waited for: a wakeup and, on the busy board, a
 * preemption, 37.6 us on arm) than on 4.10 (IPIs), and less again from
 * 6.0 (emptied by the caller) than on 5.19 (work items). The request
 * makes at least two drain_all_pages (one per pageblock isolated, one
 * after migrating).
 */
static void cma_request_drain_all_pages_by_release(void **state)
{
	uint64_t k410 = busy_request_ns("4.10"), k411 = busy_request_ns("4.11");
	uint64_t k519 = busy_request_ns("5.19"), k60 = busy_request_ns("6.0");

	if (k411 < k410 + 2 * 37600)
		fail_msg("4.11: expected at least 75.2 us more than 4.10's %llu ns, found %llu",
			 (unsigned long long)k410, (unsigned long long)k411);
	if (k60 >= k519)
		fail_msg("6.0: expected less than 5.19's %llu ns, found %llu",
			 (unsigned long long)k519, (unsigned long long)k60);
}

static const char *const kernels[] = { "3.5", "6.12" };

/*
 * Expect: alloc_contig_range's lru_add_drain_all (v3.5 directly, 6.12
 * through lru_cache_disable) waits for its work item on a CPU a
 * background thread keeps busy: with one runnable thread on two CPUs
 * (no stretch) a cma request costs at least preempt_us (17 us on arm)
 * more than on an idle board, under both kernels.
 */
static void cma_request_lru_drain_waits_on_a_busy_cpu_per_kernel(const char *kernel, unsigned k)
{
	char ini[512];
	struct sim_result idle, busy;
	uint64_t a, b;

	snprintf(ini, sizeof(ini), "kernel = %s\n[device cam]\nsize = 1M\nperiod = 100ms\n", kernel);
	run_with(ini, "cma", &idle);
	snprintf(ini, sizeof(ini), "kernel = %s\n[anon hog]\nrss = 4M\nrate = 0\nthreads = 1\n"
		 "[device cam]\nsize = 1M\nperiod = 100ms\n", kernel);
	run_with(ini, "cma", &busy);
	a = sim_test_device(&idle, "cam")->lat.max;
	b = sim_test_device(&busy, "cam")->lat.max;
	/* one runnable thread on two CPUs: no stretch, only the busy CPU's wakeup */
	if (b < a + 17000)
		fail_msg("kernel %s: expected the busy board's request to cost at least 17 us more than %llu ns, found %llu",
			 kernel, (unsigned long long)a, (unsigned long long)b);
	sim_result_free(&idle);
	sim_result_free(&busy);
}

/* ---- lock waits ---- */

/* Expect: M/D/1's mean wait rho * hold / (2 (1 - rho)), no wait without traffic, capped at rho 0.95. */
static void cost_lock_wait_is_md1(void **state)
{
	assert_true(cost_lock_wait_ns(0, 1000) == 0);
	assert_true(cost_lock_wait_ns(500000, 1000) == 500.0);		/* rho 0.5 */
	assert_true(cost_lock_wait_ns(250000, 1000) == 125.0 / 0.75);	/* rho 0.25 */
	assert_true(cost_lock_wait_ns(10e6, 1000) == cost_lock_wait_ns(0.95e6, 1000));
}

/*
 * Expect: a request's lock waits grow with the background's allocation
 * rate (zone lock) and its LRU traffic (LRU lock), under both kernels'
 * batch sizes, from nothing when the background is still.
 */
static void cost_lock_wait_grows_with_the_background_rate(void **state)
{
	struct cost_model m;

	cost_profile(CMA_ARCH_ARM, &m);
	for (unsigned batch = 14; batch <= 31; batch += 17) {
		struct cost_work w = { .scanned = 1024, .handled = 512, .migrated = 256, .locks = 1,
				       .nr_cpus = 2, .lru_batch = batch };
		uint64_t still = cost_ns(&m, &w, 4096), last = still;

		for (double rate = 1000; rate <= 1e6; rate *= 10) {
			struct cost_work zone = w, lru = w;
			uint64_t ns;

			zone.zone_page_rate = rate;
			lru.lru_page_rate = rate;
			assert_true(cost_ns(&m, &lru, 4096) > still);
			ns = cost_ns(&m, &zone, 4096);
			assert_true(ns > last);
			last = ns;
		}
	}
}

/*
 * Expect: the background's allocations reach the request as a lock
 * wait: a carveout request after a second of a page-cache reader costs
 * more than the same request on a still board (the reader's pages are
 * measured over the first second of virtual time).
 */
static void device_request_waits_for_the_backgrounds_locks(void **state)
{
	static const char reader[] = "[pagecache reader]\nfile = 8M\nrate = 200000\npattern = sequential\nthreads = 0\n";
	static const char cam[] = "[device cam]\nsize = 1M\nperiod = 100ms\nstart = 1500ms\n";
	char ini[512];
	struct sim_result still, busy;

	snprintf(ini, sizeof(ini), "%s", cam);
	run_with(ini, "carveout", &still);
	snprintf(ini, sizeof(ini), "%s%s", reader, cam);
	run_with(ini, "carveout", &busy);
	assert_int_equal(sim_test_device(&still, "cam")->lat.max, 878982);
	assert_true(sim_test_device(&busy, "cam")->lat.max > 878982);
	sim_result_free(&still);
	sim_result_free(&busy);
}

/*
 * Expect: cma_mutex (v3.5's dma_alloc_from_contiguous, 6.12's cma_alloc
 * around alloc_contig_range) makes a device's request wait for another
 * device's request in flight: two devices asking at the same moment,
 * the second waits out the first and a mutex handoff; a device's own
 * ring of requests, one after another, never waits for itself.
 */
static void cma_mutex_waits_for_the_other_devices_request(void **state)
{
	static const char both[] = "[device a]\nsize = 1M\nperiod = 100ms\n[device b]\nsize = 1M\nperiod = 100ms\n";
	static const char apart[] = "[device a]\nsize = 1M\nperiod = 100ms\n"
				    "[device b]\nsize = 1M\nperiod = 100ms\nstart = 50ms\n";
	static const char ring[] = "[device a]\nsize = 1M\nperiod = 100ms\nring = 3\n";
	struct sim_result together, later, own;
	uint64_t a;

	run_with(both, "cma", &together);
	run_with(apart, "cma", &later);
	a = sim_test_device(&together, "a")->lat.max;
	assert_int_equal(sim_test_device(&together, "b")->lat.max, sim_test_device(&later, "b")->lat.max + a + 1500);
	run_with(ring, "cma", &own);
	assert_true(sim_test_device(&own, "a")->lat.max < 2 * a);
	sim_result_free(&together);
	sim_result_free(&later);
	sim_result_free(&own);
}

/* ---- console output ---- */

/*
 * Expect (4.14's console_unlock and 6.12's legacy_direct write from the
 * caller; uart_console_write waits for the UART): a line's characters
 * times the bits of a frame over the rate, 65 characters of 8N1 at
 * 115200 baud 5.642 ms; nothing without a serial console.
 */
static void cost_ns_prices_console_characters_on_the_wire(void **state)
{
	struct cost_model m;
	struct cost_work w = { .console_chars = 65, .console_baud = 115200, .console_frame_bits = 10 };

	cost_profile(CMA_ARCH_ARM, &m);
	assert_int_equal(cost_ns(&m, &w, 4096), 5642361);
	w.console_frame_bits = 11;
	assert_int_equal(cost_ns(&m, &w, 4096), 6206597);
	w.console_baud = 0;
	assert_int_equal(cost_ns(&m, &w, 4096), 0);
}

/*
 * Expect: the instrumentation knob alone costs a request nothing (the
 * lines go to the log only); with a 115200-baud console each pass's line
 * costs its time on the wire, at least a 61-character line (5.3 ms) per
 * request that migrated.
 */
static void device_request_pays_the_console_per_line(void **state)
{
	static const char bg[] = "[anon fill]\nrss = 44M\nrate = 100000\n"
				 "[device cam]\nsize = 4M\nperiod = 100ms\nstart = 2s\n";
	struct sim_result plain, knob, console;
	char ini[256];

	run_with(bg, "cma", &plain);
	snprintf(ini, sizeof(ini), "printk_contig_passes = yes\n%s", bg);
	run_with(ini, "cma", &knob);
	run_board(BOARD "cmdline = cma=16M console=ttyS0,115200n8\n", ini, "cma", &console);
	assert_true(plain.device_migrated > 0);
	assert_int_equal(sim_test_device(&knob, "cam")->lat.max, sim_test_device(&plain, "cam")->lat.max);
	if (sim_test_device(&console, "cam")->lat.max < sim_test_device(&plain, "cam")->lat.max + 5295138)
		fail_msg("expected a request to pay at least one line on the console over %llu ns, found %llu",
			 (unsigned long long)sim_test_device(&plain, "cam")->lat.max,
			 (unsigned long long)sim_test_device(&console, "cam")->lat.max);
	sim_result_free(&plain);
	sim_result_free(&knob);
	sim_result_free(&console);
}

/* ---- The tracer ---- */

/*
 * Expect: without tracer = function_graph the term is nothing; with it and
 * no filter a request pays fgraph_call_cycles at the profile's clock on
 * each call it makes (cost.c's fgraph_calls: 6 per attempt, 121 per
 * drain, 27403 per 262144 pages handled; a one-page request on the arm
 * profile with four drains and 65 pages, 496.8 calls of 352 cycles at
 * 1200 MHz, 145.7 us), and more drains or more pages cost more. With
 * set_ftrace_filter naming cma_alloc it pays one call (293 ns) whatever
 * its work; naming alloc_contig_range, one per attempt.
 */
static void cost_ns_prices_the_graph_tracer_per_call(void **state)
{
	struct cost_work w = { .cma_attempts = 1, .drains = 4, .lru_drains = 2, .handled = 65, .migrated = 1,
			       .nr_cpus = 4 };
	struct cost_model m;
	uint64_t plain, traced, more;

	cost_profile(CMA_ARCH_ARM, &m);
	plain = cost_ns(&m, &w, 4096);
	w.fgraph = COST_FGRAPH_ALL;
	traced = cost_ns(&m, &w, 4096);
	assert_in_range(traced - plain, 145725, 145727);
	m.v[COST_FGRAPH_CALL_CYCLES] = 0;
	assert_int_equal(cost_ns(&m, &w, 4096), plain);
	cost_profile(CMA_ARCH_ARM, &m);
	w.handled = 65 + 262144;
	more = cost_ns(&m, &w, 4096);
	w.fgraph = COST_FGRAPH_OFF;
	assert_in_range(more - cost_ns(&m, &w, 4096), traced - plain + 8038212, traced - plain + 8038214);
	w.fgraph = COST_FGRAPH_ALL;
	w.handled = 65;
	w.drains = 8;
	w.lru_drains = 4;
	more = cost_ns(&m, &w, 4096);
	w.fgraph = COST_FGRAPH_OFF;
	assert_in_range(more - cost_ns(&m, &w, 4096), traced - plain + 141973, traced - plain + 141975);

	/* a filter: the one function's calls, whatever the rest of the work */
	w.drains = 4;
	w.lru_drains = 2;
	w.fgraph = COST_FGRAPH_CMA_ALLOC;
	assert_in_range(cost_ns(&m, &w, 4096) - plain, 292, 294);
	w.handled = 65 + 262144;
	w.fgraph = COST_FGRAPH_OFF;
	more = cost_ns(&m, &w, 4096);
	w.fgraph = COST_FGRAPH_CMA_ALLOC;
	assert_in_range(cost_ns(&m, &w, 4096) - more, 292, 294);
	w.fgraph = COST_FGRAPH_ALLOC_CONTIG_RANGE;
	w.cma_attempts = 3;
	plain = cost_ns(&m, &w, 4096);
	w.fgraph = COST_FGRAPH_OFF;
	assert_in_range(plain - cost_ns(&m, &w, 4096), 879, 881);
}

/*
 * Expect: a scenario without the key and one with tracer = none run the
 * same; tracer = function_graph makes a migrating request slower, and
 * with ftrace_filter = cma_alloc (the source hooked that function alone)
 * slower than untraced by one call's hooks at most, far less than
 * unfiltered; any other tracer or filter is refused, and a filter without
 * the tracer.
 */
static void device_request_pays_the_graph_tracer(void **state)
{
	static const char bg[] = "[anon fill]\nrss = 44M\nrate = 100000\n"
				 "[device cam]\nsize = 4M\nperiod = 100ms\nstart = 2s\n";
	struct sim_result plain, none, traced, filtered;
	struct scenario *sc = calloc(1, sizeof(*sc));
	char ini[512], err[768];
	uint64_t plain_max, filtered_max;

	run_with(bg, "cma", &plain);
	run_board(BOARD "cmdline = cma=16M\ntracer = none\n", bg, "cma", &none);
	run_board(BOARD "cmdline = cma=16M\ntracer = function_graph\n", bg, "cma", &traced);
	run_board(BOARD "cmdline = cma=16M\ntracer = function_graph\nftrace_filter = cma_alloc\n", bg, "cma",
		  &filtered);
	assert_true(plain.device_migrated > 0);
	plain_max = sim_test_device(&plain, "cam")->lat.max;
	filtered_max = sim_test_device(&filtered, "cam")->lat.max;
	assert_int_equal(sim_test_device(&none, "cam")->lat.max, plain_max);
	assert_true(sim_test_device(&traced, "cam")->lat.max > plain_max);
	/* one call of 352 cycles at the arm profile's 1200 MHz, stretched by the background at most twice */
	assert_true(filtered_max > plain_max);
	assert_true(filtered_max - plain_max < 1000);
	assert_true(sim_test_device(&traced, "cam")->lat.max - plain_max > 100 * (filtered_max - plain_max));
	assert_non_null(sc);
	snprintf(ini, sizeof(ini), BOARD "tracer = function\n%s", bg);
	assert_int_not_equal(scenario_parse("test.ini", ini, sc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "tracer = function"));
	snprintf(ini, sizeof(ini), BOARD "tracer = function_graph\nftrace_filter = kmalloc\n%s", bg);
	assert_int_not_equal(scenario_parse("test.ini", ini, sc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "ftrace_filter = kmalloc: accepted cma_alloc"));
	snprintf(ini, sizeof(ini), BOARD "ftrace_filter = cma_alloc\n%s", bg);
	assert_int_not_equal(scenario_parse("test.ini", ini, sc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "ftrace_filter needs tracer = function_graph"));
	free(sc);
	sim_result_free(&plain);
	sim_result_free(&none);
	sim_result_free(&traced);
	sim_result_free(&filtered);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cost_ns_queues_only_cpu_work),
		cmocka_unit_test(device_request_shares_the_cpus_with_the_background),
		cmocka_unit_test(cost_drain_grows_with_the_cpus_per_kernel),
		cmocka_unit_test(cost_drain_all_pages_by_work_items),
		cmocka_unit_test(cost_drain_waits_for_the_backgrounds_drain_under_the_mutex),
		cmocka_unit_test(cma_request_drain_all_pages_by_release),
		cmocka_unit_test(cost_lock_wait_is_md1),
		cmocka_unit_test(cost_lock_wait_grows_with_the_background_rate),
		cmocka_unit_test(device_request_waits_for_the_backgrounds_locks),
		cmocka_unit_test(cma_mutex_waits_for_the_other_devices_request),
		cmocka_unit_test(cost_ns_prices_fresh_frames_as_host_faults),
		cmocka_unit_test(cost_ns_prices_dropped_pages_without_a_copy),
		cmocka_unit_test(cost_ns_prices_reclaim_scanning_per_page),
		cmocka_unit_test(cost_ns_prices_zram_stores),
		cmocka_unit_test(cost_ns_prices_console_characters_on_the_wire),
		cmocka_unit_test(device_request_pays_the_console_per_line),
		cmocka_unit_test(cost_ns_prices_the_graph_tracer_per_call),
		cmocka_unit_test(device_request_pays_the_graph_tracer),
		cmocka_unit_test(cost_ns_without_preempt_leaves_nosched_work_unstretched),
		cmocka_unit_test(cost_ns_without_preempt_leaves_spinlock_rounds_unstretched),
		cmocka_unit_test(gcma_request_of_a_driver_asking_cma_clears_nothing),
		cmocka_unit_test(gcma_request_without_preempt_keeps_its_cpu),
		cmocka_unit_test(predict_pool_request_without_preempt_keeps_its_cpu),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(cma_request_lru_drain_waits_on_a_busy_cpu_per_kernel, kernels),
	};

	return cmocka_run_group_tests_name("cmasim cost contention", tests, NULL, NULL) +
	       test_run_kernel_cases("sim_cost (per kernel)", kernel_cases);
}
