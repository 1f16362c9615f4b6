// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for cmasim's background job (tools/cmasim/workloads/wl_job.c): a fixed
 * amount of CPU work in process lifetimes, whose completion time is the
 * metric of the ZONE_CMA anchor (calib/). Small ARM boards (two CPUs),
 * a few simulated seconds each.
 *
 * Expect: without memory pressure a job of N processes on C CPUs takes
 * its CPU work per process over min(1, C / N), (cpu / N) / min(1, C / N),
 * when its units divide among its processes;
 * memory pressure (swap-ins, storage reads, reclaim) stretches it; its
 * processes share the CPUs with other workloads' runnable threads
 * (workload_ops.runnable); its keys are checked.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "report/report.h"
#include "engine/sim_api.h"
#include "policies/registry.h"
#include "sim_helpers.h"

#define MS	1000000ull
#define S	1000000000ull

/* Two CPUs (the arm platform's nr_cpus), 4 KiB pages, no swap unless the text adds it. */
#define BOARD(mem)	"[scenario]\nplatform = arm\nmemory = " mem "\ncmdline = cma=16M\nduration = 30s\n"

/* @ini under cma into @res. */
static void run_ini(const char *ini, struct sim_result *res)
{
	sim_test_run_ini(ini, "cma", res);
}

static const struct workload_result *workload(const struct sim_result *r, const char *name)
{
	const struct workload_result *w = sim_result_workload(r, name);

	if (!w)
		fail_msg("no workload %s in the result", name);
	return w;
}

static void assert_near(uint64_t found, uint64_t expected, uint64_t tolerance)
{
	uint64_t diff = found > expected ? found - expected : expected - found;

	if (diff > tolerance)
		fail_msg("expected %llu ns (+-%llu), found %llu", (unsigned long long)expected,
			 (unsigned long long)tolerance, (unsigned long long)found);
}

/* A job on a 128 MiB board, far from any memory pressure: 4 MiB of anon per process. */
static uint64_t unloaded_ns(const char *procs, const char *cpu, const char *units)
{
	char ini[640];
	struct sim_result r;
	const struct workload_result *w;
	uint64_t done;

	snprintf(ini, sizeof(ini), BOARD("128M") "[job build]\nprocs = %s\ncpu = %s\nunits = %s\nrss = 4M\nrate = 20000\n",
		 procs, cpu, units);
	if (strchr(units, '\n'))	/* more keys after units */
		snprintf(ini, sizeof(ini), BOARD("128M") "[job build]\nprocs = %s\ncpu = %s\nunits = %srss = 4M\nrate = 20000\n",
			 procs, cpu, units);
	run_ini(ini, &r);
	w = workload(&r, "build");
	assert_int_equal(w->swapins, 0);
	assert_int_equal(w->io_wait_ns, 0);
	assert_int_equal(w->reclaim_wait_ns, 0);
	assert_int_equal(w->job_units_done, w->job_units);
	assert_near(w->job_cpu_ns, strtoull(cpu, NULL, 10) * S, 1 * MS);
	done = w->job_done_ns;
	sim_result_free(&r);
	return done;
}

/* Expect CPU work / min(1, C / N) per process: C = 2 CPUs here. */
static void wl_job_unloaded_takes_cpu_over_min_cpus(void **state)
{
	/* N = 4 > C: 10 s of CPU on 2 CPUs */
	assert_near(unloaded_ns("4", "10s", "8"), 5 * S, 1 * MS);
	/* N = 1 < C: the second CPU idles */
	assert_near(unloaded_ns("1", "3s", "3"), 3 * S, 1 * MS);
	/* N = C */
	assert_near(unloaded_ns("2", "4s", "4"), 2 * S, 1 * MS);
	/* 5 units of 2 s on 4 processes: 4 at half a CPU each (4 s), then the last alone on one (2 s) */
	assert_near(unloaded_ns("4", "10s", "5"), 6 * S, 1 * MS);
	/* units of random lengths still add up to the job's CPU time: one process takes all of it */
	assert_near(unloaded_ns("1", "3s", "30\nspread = 100\n"), 3 * S, 1 * MS);
}

/*
 * Expect: the same job on 48 MiB with swap swaps its working sets out
 * and in, re-reads its sources and stalls in reclaim, and takes longer
 * than its CPU work over the CPUs.
 */
static void wl_job_memory_pressure_stretches_it(void **state)
{
	struct sim_result r;
	const struct workload_result *w;

	run_ini(BOARD("48M") "swap = 256M\n"
		"[job build]\nprocs = 2\ncpu = 4s\nunits = 4\nrss = 20M\nrate = 20000\nsource = 16M\nreads = 8M\n", &r);
	w = workload(&r, "build");
	assert_int_equal(w->job_units_done, 4);
	assert_true(w->swapins > 0);
	assert_true(w->refaults > 0);
	assert_true(w->io_wait_ns > 0);
	assert_true(w->reclaim_wait_ns > 0);
	if (w->job_done_ns <= 2 * S + 10 * MS)
		fail_msg("expected the job stretched past its 2 s of CPU per CPU, found %llu ns",
			 (unsigned long long)w->job_done_ns);
	sim_result_free(&r);
}

/*
 * Expect: swap slots come back as the kernel frees them (do_swap_page's
 * swap_free on a swap-in, zap_pte_range's free_swap_and_cache at exit):
 * eight lifetimes of two 20 MiB working sets on 48 MiB swap, in all,
 * more than the 24 MiB of swap holds, yet the job finishes with no OOM
 * kill (with slots never freed, swap fills and units are killed). The
 * swap is synchronous (swap_synchronous, zram's): with its writes in
 * flight on the storage queue, under 6.12 reclaim swaps out more pages
 * while the first swap-outs are in flight (each under writeback,
 * holding its slot) than the 24 MiB hold (at the arm profile's 15 MB/s,
 * and from 5.9's look-twice anon_inactive even at 1000 MB/s), and with
 * the swap full it scans no anonymous page (can_reclaim_anon_pages): a
 * process is OOM-killed in its first fill.
 */
static void wl_job_swap_slots_freed_at_swapin_and_exit(void **state)
{
	struct sim_result r;
	const struct workload_result *w;

	run_ini(BOARD("48M") "swap = 24M\nswap_synchronous = yes\n"
		"[job build]\nprocs = 2\ncpu = 8s\nunits = 8\nrss = 20M\nrate = 20000\n", &r);
	w = workload(&r, "build");
	assert_int_equal(w->job_units_done, 8);
	assert_int_equal(w->oom_kills, 0);
	assert_true(w->swapins > 0);
	sim_result_free(&r);
}

/*
 * Expect (do_swap_page's swapin_readahead: a read of one scattered page):
 * a swap-in is a 4 KiB random read through the storage queue, so each
 * costs its process at least the arm profile's 1 / 2000 IOPS plus its
 * 300 us request latency (800 us), not a page at the 40 MB/s sequential
 * rate (102 us). No sources: every storage wait is a swap-in's.
 */
static void wl_job_swap_in_is_a_random_read(void **state)
{
	struct sim_result r;
	const struct workload_result *w;

	run_ini(BOARD("48M") "swap = 256M\n"
		"[job build]\nprocs = 2\ncpu = 4s\nunits = 4\nrss = 20M\nrate = 20000\n", &r);
	w = workload(&r, "build");
	assert_true(w->swapins > 0);
	if (w->io_wait_ns < w->swapins * 800000)
		fail_msg("expected at least 800 us per swap-in, found %llu ns for %llu",
			 (unsigned long long)w->io_wait_ns, (unsigned long long)w->swapins);
	sim_result_free(&r);
}

/*
 * Expect (swapin_readahead): the job's processes touch their working sets
 * at random, so the slots around a faulting one hold pages of no use
 * soon. 3.5-3.13 read the whole 2^3 window anyway: several pages per
 * swap-in request (pswpin over twice the requests; the window's slots
 * whose page is still in the swap cache, its swap-out in flight or
 * written and not yet reclaimed, are not read: read_swap_cache_async
 * finds them there, so a window of 8 reads about 3). From 3.14 the
 * window shrinks to the page itself for faults that are not next to the
 * last one: under 1.2 pages per request, and fewer pages read in all.
 * The swap device writes at 100 MB/s: at the arm profile's 15 MB/s the
 * processes' swap-outs stay under writeback long enough for 3.13's
 * reclaim to scan its zone six times over with none freed
 * (zone_reclaimable) and OOM-kill a process, cutting its run short.
 */
static void wl_job_swapin_readahead_by_release(void **state)
{
	static const char *const kernels[] = { "3.13", "3.14", "6.12" };
	uint64_t fixed_pages = 0;

	for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		bool adaptive = i > 0;
		char ini[512];
		struct sim_result r;
		const struct workload_result *w;

		snprintf(ini, sizeof(ini), BOARD("48M") "kernel = %s\nswap = 256M\n"
			 "[job build]\nprocs = 2\ncpu = 4s\nunits = 4\nrss = 20M\nrate = 20000\n"
			 "[cost]\nstorage_write_mbps = 100\n",
			 kernels[i]);
		run_ini(ini, &r);
		w = workload(&r, "build");
		assert_true(w->swapin_ios > 0);
		if (!adaptive)
			fixed_pages = w->swapins;
		if (adaptive ? w->swapins * 10 >= w->swapin_ios * 12 || w->swapins >= fixed_pages :
			       w->swapins <= 2 * w->swapin_ios)
			fail_msg("kernel %s: %llu pages read in %llu swap-in requests (3.13: %llu pages)",
				 kernels[i], (unsigned long long)w->swapins,
				 (unsigned long long)w->swapin_ios, (unsigned long long)fixed_pages);
		sim_result_free(&r);
	}
}

/* Expect: a scenario may name a release between 3.5 and 6.12 (the ZONE_CMA anchor's 4.8). */
static void wl_job_runs_under_a_release_profile(void **state)
{
	struct sim_result r;

	run_ini(BOARD("128M") "kernel = 4.8\n[job build]\nprocs = 2\ncpu = 1s\nrss = 4M\nrate = 20000\n", &r);
	assert_string_equal(r.kernel, "4.8");
	assert_int_equal(workload(&r, "build")->job_units_done, 2);
	sim_result_free(&r);
}

/*
 * Expect: two jobs of two processes each on two CPUs run at half speed
 * while both run (each counts the other's runnable processes), so each
 * of 4 s of CPU takes about 4 s instead of 2 s.
 */
static void wl_job_shares_cpus_with_runnable_workloads(void **state)
{
	struct sim_result r;

	run_ini(BOARD("128M")
		"[job a]\nprocs = 2\ncpu = 4s\nrss = 4M\nrate = 20000\n"
		"[job b]\nprocs = 2\ncpu = 4s\nrss = 4M\nrate = 20000\n", &r);
	assert_near(workload(&r, "a")->job_done_ns, 4 * S, 20 * MS);
	assert_near(workload(&r, "b")->job_done_ns, 4 * S, 20 * MS);
	sim_result_free(&r);
}

/* Expect: a run that ends first reports the units done and no completion time. */
static void wl_job_unfinished_has_no_completion(void **state)
{
	struct sim_result r;
	const struct workload_result *w;
	char *json = NULL;
	size_t len = 0;
	FILE *f;

	run_ini("[scenario]\nplatform = arm\nmemory = 128M\nduration = 2s\n"
		"[job build]\nprocs = 1\ncpu = 10s\nunits = 10\nrss = 1M\nrate = 1000\n", &r);
	w = workload(&r, "build");
	assert_int_equal(w->job_done_ns, 0);
	assert_int_equal(w->job_units, 10);
	assert_int_equal(w->job_units_done, 2);
	f = open_memstream(&json, &len);
	assert_non_null(f);
	assert_int_equal(report_json(&r, 1, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(json, "\"completed\": false"));
	assert_non_null(strstr(json, "\"completion_s\": null"));
	free(json);
	sim_result_free(&r);
}

static void expect_refused(const char *job, const char *message)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	char ini[512], err[768];

	assert_non_null(sc);
	snprintf(ini, sizeof(ini), BOARD("128M") "[job build]\n%s", job);
	assert_int_equal(scenario_parse("test.ini", ini, sc, err, sizeof(err)), -1);
	if (!strstr(err, message))
		fail_msg("expected \"%s\" in the message, found: %s", message, err);
	free(sc);
}

static void wl_job_keys_are_checked(void **state)
{
	expect_refused("cpu = 10s\nrss = 4M\nrate = 1000\n", "has no procs: it is required");
	expect_refused("procs = 4\nrss = 4M\nrate = 1000\n", "has no cpu: it is required");
	expect_refused("procs = 0\ncpu = 10s\nrss = 4M\nrate = 1000\n", "procs, cpu and rss must be above 0");
	expect_refused("procs = 4\ncpu = 10s\nrss = 0\nrate = 1000\n", "procs, cpu and rss must be above 0");
	expect_refused("procs = 4\ncpu = 10s\nrss = 4M\nrate = 1000\nreads = 1M\n", "give source and reads together");
	expect_refused("procs = 2000\ncpu = 10s\nrss = 4M\nrate = 1000\n", "procs");
	expect_refused("procs = 4\ncpu = ten\nrss = 4M\nrate = 1000\n", "cpu");
	expect_refused("procs = 4\ncpu = 10s\nrss = 4M\nrate = 1000\nspread = 101\n", "spread");
	expect_refused("procs = 4\ncpu = 10s\nrss = 4M\nrate = 1000\nthreads = 4\n", "threads");
}

/*
 * Expect: every scenario of calib/anchors.tsv parses, names a workload or
 * a device for its JSON field, and boots its areas (tests run from the
 * source tree's top; scenarios are named relative to calib/).
 */
static void calib_scenarios_parse(void **state)
{
	FILE *f = fopen("calib/anchors.tsv", "r");
	char line[512], err[768];
	unsigned rows = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char name[64], file[128], path[160], field[128];
		struct scenario *sc;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		assert_int_equal(sscanf(line, "%63s %*s %*s %127s %127s", name, file, field), 3);
		snprintf(path, sizeof(path), "calib/%s", file);
		sc = calloc(1, sizeof(*sc));
		assert_non_null(sc);
		if (scenario_read_file(path, sc, err, sizeof(err)))
			fail_msg("anchor %s: %s", name, err);
		if (strncmp(field, "workloads.", 10) && strncmp(field, "devices.", 8))
			fail_msg("anchor %s: unexpected field %s", name, field);
		assert_int_equal(sim_check_areas(sc, sim_policy_find("cma"), err, sizeof(err)), 0);
		free(sc);
		rows++;
	}
	fclose(f);
	assert_true(rows >= 15);
}

/*
 * Expect: a job's page tables count as page tables (pgtable_page_ctor's
 * NR_PAGETABLE). Four processes that never finish (100 s of CPU on two
 * CPUs in a 30 s run) have each faulted its 4 MiB in, a page table per 2 MiB:
 * /proc/vmstat's nr_page_table_pages is 8 at the end (it was 0 when the
 * job's page tables were plain kernel pages).
 */
static void wl_job_page_tables_are_counted(void **state)
{
	static const char *const dumps[] = { "vmstat" };
	struct sim_result r;

	sim_test_run_ini_dumps(BOARD("128M")
			       "[job build]\nprocs = 4\ncpu = 100s\nunits = 4\nrss = 4M\nrate = 20000\n",
			       "cma", dumps, 1, &r);
	assert_int_equal(sim_test_dumped(&r, "vmstat", "nr_page_table_pages"), 8);
	sim_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wl_job_unloaded_takes_cpu_over_min_cpus),
		cmocka_unit_test(wl_job_memory_pressure_stretches_it),
		cmocka_unit_test(wl_job_swap_slots_freed_at_swapin_and_exit),
		cmocka_unit_test(wl_job_runs_under_a_release_profile),
		cmocka_unit_test(wl_job_swap_in_is_a_random_read),
		cmocka_unit_test(wl_job_swapin_readahead_by_release),
		cmocka_unit_test(wl_job_shares_cpus_with_runnable_workloads),
		cmocka_unit_test(wl_job_unfinished_has_no_completion),
		cmocka_unit_test(wl_job_page_tables_are_counted),
		cmocka_unit_test(wl_job_keys_are_checked),
		cmocka_unit_test(calib_scenarios_parse),
	};

	return cmocka_run_group_tests_name("cmasim background job", tests, NULL, NULL);
}
