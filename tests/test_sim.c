// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for the simulator itself (tools/cmasim, all but main.c): small
 * scenarios written here as INI text, read by scenario_parse() and run
 * by sim_run() on the real library, judged by the result the run fills.
 * Each lasts a few simulated seconds on a 64 or 128 MiB ARM board, so
 * the whole program takes about a second of host time.
 *
 * Expect: one seed gives one report; every workload kind does its work
 * through the library; each policy shows its defining property; the
 * cost model adds up as its profiles say.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "report/report.h"
#include "cli/commands.h"
#include "engine/owned.h"
#include "engine/sim_api.h"
#include "policies/registry.h"
#include "sim_helpers.h"
#include "util/big_table.h"

#define MS	1000000ull
#define S	1000000000ull

/* The boards: ARM, 4 KiB pages, 4 MiB pageblocks (order 10), no swap. */
#define BOARD_64M	"[scenario]\nplatform = arm\nmemory = 64M\ncmdline = cma=16M\n"
#define BOARD_128M	"[scenario]\nplatform = arm\nmemory = 128M\ncmdline = cma=16M\n"

static struct scenario *parse(const char *ini)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	char err[768];

	assert_non_null(sc);
	if (scenario_parse("test.ini", ini, sc, err, sizeof(err)))
		fail_msg("the test's scenario does not parse: %s", err);
	return sc;
}

/* @sc under @policy, with @seed unless 0, into @res. */
static void run(const struct scenario *sc, const char *policy, uint64_t seed, struct sim_result *res)
{
	struct sim_options o = { .policy = sim_policy_find(policy), .seed = seed, .seed_set = seed != 0 };
	int ret;

	assert_non_null(o.policy);
	ret = sim_run(sc, &o, res);
	if (ret)
		fail_msg("sim_run under policy %s: expected 0, found %d (see stderr)", policy, ret);
}

static void run_ini(const char *ini, const char *policy, struct sim_result *res)
{
	struct scenario *sc = parse(ini);

	run(sc, policy, 0, res);
	free(sc);
}

/* @ini under @policy with the trace captured: the trace's text (free() it), @res filled. */
static char *run_traced(const char *ini, const char *policy, struct sim_result *res)
{
	struct scenario *sc = parse(ini);
	struct sim_options o = { .policy = sim_policy_find(policy) };
	char *text = NULL;
	size_t len = 0;

	o.trace = open_memstream(&text, &len);
	assert_non_null(o.trace);
	assert_int_equal(sim_run(sc, &o, res), 0);
	assert_int_equal(fclose(o.trace), 0);
	free(sc);
	return text;
}

static const struct workload_result *workload(const struct sim_result *r, const char *name)
{
	for (unsigned i = 0; i < r->nr_workloads; i++)
		if (!strcmp(r->workloads[i].name, name))
			return &r->workloads[i];
	fail_msg("no workload %s in the result", name);
	return NULL;
}

/* Each scenario here has one device. */
static const struct device_result *the_device(const struct sim_result *r)
{
	assert_int_equal(r->nr_devices, 1);
	return &r->devices[0];
}

static uint64_t failures(const struct device_result *d)
{
	uint64_t n = 0;

	for (unsigned c = 0; c < NR_FAIL_CAUSES; c++)
		n += d->fail[c];
	return n;
}

/* ---- determinism ---- */

/* Every kind of workload, so that every user of the generator takes part. */
static const char every_kind[] =
	BOARD_64M
	"duration = 3s\n"
	"snapshot = 2500ms\n"
	"[pagecache files]\nfile = 96M\nrate = 8000\n"
	"[writer logs]\nfile = 8M\nrate = 1000\ndirty_expire = 1s\n"
	"[anon app]\nrss = 16M\nrate = 20000\nlifetime = 1s\nrestart = 200ms\n"
	"[slab kernel]\nrate = 500\norders = 0:80 1:10 3:10\nlifetime = 1s\nreclaimable = 30\n"
	"[pinner dio]\ntarget = app\nshare = 10\nhold = 300ms\nperiod = 500ms\n"
	"[device cam]\nsize = 3M\nring = 3\nperiod = 33ms\nstart = 1s\nsession = 500ms\ngap = 500ms\n";

/* @r's JSON report without its "host" object, the one part host time changes. */
static char *json_without_host(const struct sim_result *r)
{
	char *buf = NULL, *host;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_json(r, 1, f), 0);
	assert_int_equal(fclose(f), 0);
	while ((host = strstr(buf, "\"host\": {"))) {
		char *end = strchr(host, '}');

		assert_non_null(end);
		memmove(host, end + 1, strlen(end + 1) + 1);
	}
	return buf;
}

/* Expect: one seed twice gives one report under every policy; another seed another run. */
static void sim_run_same_seed_same_report(void **state)
{
	struct scenario *sc = parse(every_kind);

	for (unsigned i = 0; i < sim_nr_policies(); i++) {
		const char *p = sim_policy(i)->name;
		struct sim_result a, b, c;
		char *ja, *jb, *jc;

		run(sc, p, 7, &a);
		run(sc, p, 7, &b);
		run(sc, p, 8, &c);
		ja = json_without_host(&a);
		jb = json_without_host(&b);
		jc = json_without_host(&c);
		if (strcmp(ja, jb))
			fail_msg("policy %s, seed 7 twice: expected the same JSON, found a difference at line %d",
				 p, first_difference(ja, jb));
		/* past the seed's own field */
		if (!strcmp(strstr(ja, "\"runs\""), strstr(jc, "\"runs\"")))
			fail_msg("policy %s: seeds 7 and 8 gave the same run", p);
		free(ja);
		free(jb);
		free(jc);
		sim_result_free(&a);
		sim_result_free(&b);
		sim_result_free(&c);
	}
	free(sc);
}

/*
 * Expect: a traced run answers as an untraced one under every policy.
 * The untraced teardown lets the workloads' pages go with the machine
 * instead of freeing each (nothing the run reports reads them); the
 * traced one frees them, its trace holding those frees at the run's end.
 */
static void sim_run_traced_answers_as_untraced(void **state)
{
	struct scenario *sc = parse(every_kind);

	for (unsigned i = 0; i < sim_nr_policies(); i++) {
		const char *p = sim_policy(i)->name;
		struct sim_options o = { .policy = sim_policy(i), .seed = 7, .seed_set = true };
		struct sim_result a, b;
		char *ja, *jb, *text = NULL;
		size_t len = 0;

		run(sc, p, 7, &a);
		o.trace = open_memstream(&text, &len);
		assert_non_null(o.trace);
		assert_int_equal(sim_run(sc, &o, &b), 0);
		assert_int_equal(fclose(o.trace), 0);
		ja = json_without_host(&a);
		jb = json_without_host(&b);
		if (strcmp(ja, jb))
			fail_msg("policy %s: traced and untraced runs differ at line %d", p, first_difference(ja, jb));
		if (!strstr(text, "     3.000000: mm_page_free: "))
			fail_msg("policy %s: the trace has no teardown's frees at the run's end (3 s)", p);
		free(text);
		free(ja);
		free(jb);
		sim_result_free(&a);
		sim_result_free(&b);
	}
	free(sc);
}

/*
 * Expect: a big table reads as zeroes at every size, half a huge
 * page's or more aligned to the huge page, writable through its end, and
 * freed; a size past half the address space is refused.
 */
static void big_table_zeroed_aligned_writable(void **state)
{
	static const size_t nr[] = { 0, 1, 1000, (1u << 20) / 8, (2u << 20) / 8, (5u << 20) / 8 + 3 };

	for (unsigned i = 0; i < sizeof(nr) / sizeof(nr[0]); i++) {
		size_t n = nr[i] ? nr[i] : 1;
		uint64_t *t = big_table_alloc(nr[i], sizeof(*t));

		assert_non_null(t);
		for (size_t j = 0; j < n; j++)
			if (t[j])
				fail_msg("table of %zu: slot %zu is %llu, not 0", nr[i], j, (unsigned long long)t[j]);
		if (n * sizeof(*t) >= (1u << 20))
			assert_int_equal((uintptr_t)t % (2u << 20), 0);
		for (size_t j = 0; j < n; j++)
			t[j] = j + 1;
		assert_int_equal(t[n - 1], n);
		big_table_free(t, nr[i], sizeof(*t));
	}
	big_table_free(NULL, 1, 8);
	assert_null(big_table_alloc(SIZE_MAX / 2, 2));
}

/* ---- the workloads ---- */

/*
 * Expect: an 8 MiB file read in sequential passes is read in once: 2048
 * misses, no refault. An 80 MiB one does not fit in 64 MiB: reclaim
 * drops each page before the next pass, so every read misses and every
 * miss past the first 20480 is a refault.
 */
static void wl_pagecache_misses_and_refaults(void **state)
{
	static const char fits[] = BOARD_64M "duration = 3s\n"
		"[pagecache files]\nfile = 8M\nrate = 10000\npattern = sequential\n";
	/* no proactive compaction (5.9): a page it migrates goes back on the LRU and may outlive a pass */
	static const char too_big[] = "[scenario]\nplatform = arm\nmemory = 64M\n"
		"cmdline = cma=16M sysctl.vm.compaction_proactiveness=0\nduration = 3s\n"
		"[pagecache files]\nfile = 80M\nrate = 10000\npattern = sequential\n";
	const struct workload_result *w;
	struct sim_result r;

	run_ini(fits, "cma", &r);
	w = workload(&r, "files");
	assert_true(w->ops > 2048);
	assert_int_equal(w->misses, 2048);
	assert_int_equal(w->refaults, 0);
	assert_int_equal(w->resident_pages, 2048);
	sim_result_free(&r);

	run_ini(too_big, "cma", &r);
	w = workload(&r, "files");
	assert_true(w->ops > 20480);
	assert_int_equal(w->alloc_failures, 0);
	assert_int_equal(w->misses, w->ops);
	assert_int_equal(w->refaults, w->misses - 20480);
	assert_int_equal(r.refaults, w->refaults);
	assert_true(r.pages_reclaimed > 0);
	sim_result_free(&r);
}

/*
 * Expect: a writer dirtying 2000 pages a second of a 64 MiB file, with
 * dirty_expire 1s, has pages written back, but no more than a 1 MB/s
 * storage writes in the 12 s run (2929 pages of 4 KiB); with the default
 * 30 s expiry an 8 MiB file (under the background threshold, a tenth of
 * the ~120 MiB free) has none old enough, and none are written. Memory is
 * ample, so reclaim writes nothing itself.
 */
static void wl_writer_writeback_at_storage_speed(void **state)
{
#define WRITER(file, expire) BOARD_128M "duration = 12s\n[cost]\nstorage_write_mbps = 1\n" \
	"[writer logs]\nfile = " file "\nrate = 2000\n" expire
	struct sim_result r;
	uint64_t bound;

	run_ini(WRITER("64M", "dirty_expire = 1s\n"), "cma", &r);
	bound = 1 * 1000000ull * (r.duration_ns / S) / r.page_bytes;
	assert_int_equal(bound, 2929);
	assert_int_equal(r.pages_reclaimed, 0);
	if (!r.pages_written_back || r.pages_written_back > bound)
		fail_msg("expected 1 to %llu pages written back, found %llu", (unsigned long long)bound,
			 (unsigned long long)r.pages_written_back);
	sim_result_free(&r);

	run_ini(WRITER("8M", ""), "cma", &r);
	assert_true(workload(&r, "logs")->ops > 20000);
	assert_int_equal(r.pages_written_back, 0);
	sim_result_free(&r);
#undef WRITER
}

/* nr_written and whether nr_dirty is over the background threshold, @ini run for @duration. */
static uint64_t written_by(const char *ini, const char *duration, bool *over)
{
	static const char *const dumps[] = { "vmstat" };
	char buf[1024];
	struct sim_result r;
	uint64_t written;

	snprintf(buf, sizeof(buf), "%sduration = %s\n%s", BOARD_128M, duration, ini);
	sim_test_run_ini_dumps(buf, "cma", dumps, 1, &r);
	written = sim_test_dumped(&r, "vmstat", "nr_written");
	*over = sim_test_dumped(&r, "vmstat", "nr_dirty") >
		sim_test_dumped(&r, "vmstat", "nr_dirty_background_threshold");
	sim_result_free(&r);
	return written;
}

/*
 * Expect: the flusher sleeps while it has nothing to write (wb_workfn).
 * A writer done dirtying leaves its pages under the background
 * threshold; a process taking 80 MiB at 2 s lowers the threshold under
 * them, and nothing is written until the flusher's periodic wakeup
 * (dirty_writeback_interval, 5 s after the writer began), which brings
 * the dirty pages back to the threshold. A writer still dirtying wakes
 * it at once (balance_dirty_pages): pages are written within 100 ms.
 */
static void wl_writer_flusher_sleeps_until_woken(void **state)
{
	static const char done[] = "[writer logs]\nfile = 8M\nrate = 100000\npasses = 1\ndirty_expire = 1000s\n"
				   "[anon hog]\nrss = 80M\nrate = 200000\nstart = 2s\n";
	static const char dirtying[] = "[writer logs]\nfile = 8M\nrate = 800\ndirty_expire = 1000s\n"
				       "[anon hog]\nrss = 80M\nrate = 200000\nstart = 2s\n";
	bool over;

	assert_int_equal(written_by(done, "1900ms", &over), 0);
	assert_false(over);
	assert_int_equal(written_by(done, "4900ms", &over), 0);
	assert_true(over);
	assert_true(written_by(done, "6s", &over) > 0);
	assert_false(over);

	assert_int_equal(written_by(dirtying, "1900ms", &over), 0);
	assert_true(written_by(dirtying, "2100ms", &over) > 0);
}

/*
 * Expect: with the default 30 s expiry, a 64 MiB file dirtied at 2000
 * pages a second passes the background threshold (dirty_background_ratio,
 * 10% of the free and file pages) within seconds, and the flusher writes
 * back before any page has expired; no sample shows writeback before the
 * dirty pages reached that threshold (half the dirty limit).
 */
static void wl_writer_background_writeback_before_expire(void **state)
{
	struct sim_result r;
	bool crossed = false;

	run_ini(BOARD_128M "duration = 12s\nsample = 10ms\n[cost]\nstorage_write_mbps = 1\n"
		"[writer logs]\nfile = 64M\nrate = 2000\n", "cma", &r);
	assert_int_equal(r.pages_reclaimed, 0);
	if (!r.pages_written_back)
		fail_msg("expected background writeback in 12 s, before the 30 s expiry");
	for (size_t i = 0; i < r.nr_samples; i++) {
		const struct sim_sample *smp = &r.samples[i];

		/* bg_thresh is dirty_thresh / 2 but for rounding */
		if (smp->dirty_pages + smp->writeback_pages + 1 >= smp->dirty_thresh / 2)
			crossed = true;
		if (smp->writeback_pages && !crossed)
			fail_msg("writeback at %.2f s with %llu dirty, under the background threshold",
				 (double)smp->t_ns / S, (unsigned long long)smp->dirty_pages);
	}
	sim_result_free(&r);
}

/*
 * Expect: a writer dirtying 20000 pages a second on a 1 MB/s storage (244
 * pages a second) is held at the dirty limit: no sample shows dirty and
 * writeback pages more than one tick's dirtying (200 pages) over it, and
 * past the limit it dirties only as fast as the storage writes: its new
 * pages in 20 s (every one of its writes dirties a new page, the 64 MiB
 * file is not written through) are the limit plus at most the storage's
 * 20 s and at least 80% of it (its own reads share the queue).
 */
static void wl_writer_held_at_dirty_limit(void **state)
{
	const char *ini = BOARD_128M "duration = 20s\nsample = 10ms\n[cost]\nstorage_write_mbps = 1\n"
			  "[writer fast]\nfile = 64M\nrate = 20000\npattern = sequential\n";
	struct sim_result r;
	uint64_t thresh = 0, ops, storage;

	run_ini(ini, "cma", &r);
	for (size_t i = 0; i < r.nr_samples; i++) {
		const struct sim_sample *smp = &r.samples[i];

		if (smp->dirty_pages + smp->writeback_pages > smp->dirty_thresh + 200)
			fail_msg("%llu dirty and %llu under writeback at %.2f s, over the limit %llu",
				 (unsigned long long)smp->dirty_pages, (unsigned long long)smp->writeback_pages,
				 (double)smp->t_ns / S, (unsigned long long)smp->dirty_thresh);
		if (smp->dirty_thresh > thresh)
			thresh = smp->dirty_thresh;
	}
	ops = workload(&r, "fast")->ops;
	storage = 1000000ull * 20 / r.page_bytes;
	assert_true(ops < 16384);
	if (ops > thresh + storage + 200 || ops < thresh + storage * 8 / 10)
		fail_msg("dirtied %llu pages: expected the limit %llu plus 80-100%% of the storage's %llu",
			 (unsigned long long)ops, (unsigned long long)thresh, (unsigned long long)storage);
	sim_result_free(&r);
}

/*
 * Expect: a writer held at the dirty limit sleeps in balance_dirty_pages
 * and wants no CPU: from 3 s, with the 40 MiB writer long at the limit,
 * the camera's cheapest request costs the same whether the writer has
 * 1 thread or 8. Each session asks for a ring of two, and the second,
 * run on from the first past the sleeper's credit (engine/sched.c),
 * waits the turns of whatever threads share its run queue: the
 * cheapest is such a second request made while the writer is held (in
 * the ticks it gets room it runs). A reader of the same file, never
 * held, keeps four of its 8 threads on that queue: the dearest request
 * is dearer with 8.
 */
static uint64_t cheapest(const struct device_result *d)
{
	uint64_t least = UINT64_MAX;

	for (size_t i = 0; i < d->lat.nr; i++)
		if (d->lat.ns[i] < least)
			least = d->lat.ns[i];
	return least;
}

static void wl_writer_held_wants_no_cpu(void **state)
{
#define HELD(kind, threads) BOARD_64M "duration = 4s\n[" kind " w]\nfile = 40M\nrate = 20000\n" \
	"pattern = sequential\nthreads = " threads "\n" \
	"[device cam]\nsize = 4M\nperiod = 33ms\nstart = 3s\nsession = 500ms\nring = 2\n"
	struct sim_result one, eight;

	run_ini(HELD("writer", "1"), "cma", &one);
	run_ini(HELD("writer", "8"), "cma", &eight);
	assert_int_equal(cheapest(the_device(&eight)), cheapest(the_device(&one)));
	sim_result_free(&one);
	sim_result_free(&eight);

	run_ini(HELD("pagecache", "1"), "cma", &one);
	run_ini(HELD("pagecache", "8"), "cma", &eight);
	assert_true(the_device(&eight)->lat.max > the_device(&one)->lat.max);
	sim_result_free(&one);
	sim_result_free(&eight);
#undef HELD
}

/*
 * Expect: with passes, a reader or writer touches its file that many
 * times over and then stops, its pages left in the page cache: a 4 MiB
 * file (1024 pages) read once sequentially, written twice at random.
 */
static void wl_file_passes_stop(void **state)
{
	const char *ini = BOARD_128M "duration = 3s\n"
			  "[pagecache cp-in]\nfile = 4M\nrate = 10000\npattern = sequential\npasses = 1\n"
			  "[writer cp-out]\nfile = 4M\nrate = 10000\npasses = 2\n";
	const struct workload_result *in, *out;
	struct sim_result r;

	run_ini(ini, "cma", &r);
	in = workload(&r, "cp-in");
	out = workload(&r, "cp-out");
	assert_int_equal(in->ops, 1024);
	assert_int_equal(in->misses, 1024);
	assert_int_equal(in->resident_pages, 1024);
	assert_int_equal(out->ops, 2048);
	assert_true(out->resident_pages > 0);
	sim_result_free(&r);
}

/*
 * Expect: an 8 MiB process faults in all 2048 pages of its resident set
 * and keeps them; a 128 MiB one beside it, without swap, is OOM-killed,
 * again after each restart, and dead holds nothing.
 */
static void wl_anon_resident_and_oom_kills(void **state)
{
#define OOM(restart) BOARD_64M "duration = 3s\n" \
	"[anon small]\nrss = 8M\nrate = 50000\n" \
	"[anon big]\nrss = 128M\nrate = 100000\n" restart
	const struct workload_result *small, *big;
	struct sim_result r;

	run_ini(OOM("restart = 200ms\n"), "cma", &r);
	small = workload(&r, "small");
	big = workload(&r, "big");
	assert_int_equal(small->resident_pages, 2048);
	assert_int_equal(small->oom_kills, 0);
	if (big->oom_kills < 2)
		fail_msg("expected the restarted process killed again, found %llu kills",
			 (unsigned long long)big->oom_kills);
	assert_int_equal(r.oom_kills, big->oom_kills);
	sim_result_free(&r);

	run_ini(OOM(""), "cma", &r);
	big = workload(&r, "big");
	assert_int_equal(workload(&r, "small")->resident_pages, 2048);
	assert_int_equal(big->oom_kills, 1);
	assert_int_equal(big->resident_pages, 0);
	sim_result_free(&r);
#undef OOM
}

/*
 * Expect (Little's law): 1000 allocations a second living 400 ms on
 * average, half order 0 and half order 2 (2.5 pages), hold about 1000
 * pages once warmed up; with max = 2M they never hold more than 512.
 */
static void wl_slab_rate_times_lifetime_and_max(void **state)
{
#define SLAB(max) BOARD_64M "duration = 4s\nsample = 100ms\n" \
	"[slab dentries]\nrate = 1000\norders = 0:1 2:1\nlifetime = 400ms\n" max
	struct sim_result r;
	uint64_t sum = 0, n = 0, most = 0;

	run_ini(SLAB(""), "cma", &r);
	for (size_t i = 0; i < r.nr_samples; i++)
		if (r.samples[i].t_ns >= 2 * S) {
			sum += r.samples[i].used[MC_SLAB];
			n++;
		}
	assert_true(n >= 10);
	if (sum / n < 900 || sum / n > 1100)
		fail_msg("expected about 1000 slab pages on average, found %llu",
			 (unsigned long long)(sum / n));
	assert_int_equal(workload(&r, "dentries")->alloc_failures, 0);
	sim_result_free(&r);

	run_ini(SLAB("max = 2M\n"), "cma", &r);
	for (size_t i = 0; i < r.nr_samples; i++)
		if (r.samples[i].used[MC_SLAB] > most)
			most = r.samples[i].used[MC_SLAB];
	if (most > 512 || most < 480)
		fail_msg("expected the slab to reach its cap of 512 pages and stay under it, found at most %llu",
			 (unsigned long long)most);
	assert_true(workload(&r, "dentries")->resident_pages <= 512);
	sim_result_free(&r);
#undef SLAB
}

/*
 * Expect: a slab's pages count as slab (kmem_getpages' NR_SLAB_*): with
 * half its allocations reclaimable, /proc/vmstat's nr_slab_reclaimable
 * and nr_slab_unreclaimable add up to the pages it holds at the end,
 * both of them some, and meminfo's Slab is their sum in kB.
 */
static void wl_slab_pages_count_as_slab(void **state)
{
	static const char *const dumps[] = { "vmstat", "meminfo" };
	struct sim_result r;
	uint64_t rec, unrec;

	sim_test_run_ini_dumps(BOARD_64M "duration = 2s\n"
			       "[slab dentries]\nrate = 1000\norders = 0:1 2:1\nlifetime = 10s\nreclaimable = 50\n",
			       "cma", dumps, 2, &r);
	rec = sim_test_dumped(&r, "vmstat", "nr_slab_reclaimable");
	unrec = sim_test_dumped(&r, "vmstat", "nr_slab_unreclaimable");
	assert_true(rec > 100 && unrec > 100);
	assert_int_equal(rec + unrec, workload(&r, "dentries")->resident_pages);
	assert_int_equal(sim_test_dumped(&r, "meminfo", "Slab"), (rec + unrec) * 4);
	sim_result_free(&r);
}

/*
 * Expect: /proc/vmstat counts the board's faults and block I/O where the
 * kernel's fault handler and block layer do: pgfault is the process's
 * faults and those on the file's mapped half, each of the latter a major
 * one (filemap_fault reads every page not cached; no swap, so none of the
 * process's is); pgpgin a page's kB for each page the reader and the
 * writer missed (random reads, one page each); pgpgout a page's kB for
 * each page written back.
 */
static void vmstat_counts_faults_and_block_io(void **state)
{
	static const char *const dumps[] = { "vmstat" };
	const struct workload_result *proc, *files, *logs;
	struct sim_result r;
	uint64_t major, kb;

	sim_test_run_ini_dumps(BOARD_64M "duration = 8s\n"
			       "[anon proc]\nrss = 24M\nrate = 50000\n"
			       "[pagecache files]\nfile = 32M\nrate = 3000\nmapped = 50\n"
			       "[writer logs]\nfile = 8M\nrate = 1000\ndirty_expire = 1s\n",
			       "cma", dumps, 1, &r);
	proc = workload(&r, "proc");
	files = workload(&r, "files");
	logs = workload(&r, "logs");
	kb = r.page_bytes / 1024;
	major = sim_test_dumped(&r, "vmstat", "pgmajfault");
	if (major < files->misses / 3 || major > files->misses * 2 / 3)
		fail_msg("pgmajfault %llu: expected the mapped half of the file's %llu misses",
			 (unsigned long long)major, (unsigned long long)files->misses);
	assert_int_equal(sim_test_dumped(&r, "vmstat", "pgfault"), proc->misses + major);
	assert_int_equal(sim_test_dumped(&r, "vmstat", "pgpgin"), (files->misses + logs->misses) * kb);
	assert_true(r.pages_written_back > 0);
	assert_int_equal(sim_test_dumped(&r, "vmstat", "pgpgout"), r.pages_written_back * kb);
	sim_result_free(&r);
}

/*
 * Expect: under gcma a swapped page its frontswap kept comes back in a
 * fault that reads nothing from storage (not a miss) and is still a major
 * one, as do_swap_page counts it; only swap's reads are block I/O (pgpgin
 * a page's kB for each page swapped in), and swap's writes pgpgout's.
 * Under 3.17, GCMA's kernel (frontswap left the kernel in 6.x).
 */
static void vmstat_frontswap_load_is_a_major_fault(void **state)
{
	static const char *const dumps[] = { "vmstat" };
	struct sim_result r;
	uint64_t faults, kb;

	sim_test_run_ini_dumps(BOARD_64M "kernel = 3.17\nswap = 32M\nduration = 10s\n"
			       "[anon proc]\nrss = 56M\nrate = 50000\n", "gcma", dumps, 1, &r);
	kb = r.page_bytes / 1024;
	faults = sim_test_dumped(&r, "vmstat", "pgfault");
	assert_true(faults > workload(&r, "proc")->misses);
	assert_true(sim_test_dumped(&r, "vmstat", "pgmajfault") >= faults - workload(&r, "proc")->misses);
	assert_int_equal(sim_test_dumped(&r, "vmstat", "pgpgin"), sim_test_dumped(&r, "vmstat", "pswpin") * kb);
	assert_int_equal(sim_test_dumped(&r, "vmstat", "pgpgout"), sim_test_dumped(&r, "vmstat", "pswpout") * kb);
	sim_result_free(&r);
}

/*
 * Expect: a synchronous swap device's store (zram) is a bio all the same
 * (swap_writepage_bdev_sync submits one): pgpgout counts a page's kB for
 * each page swapped out, though no write goes through the queue.
 */
static void vmstat_zram_store_counts_as_written(void **state)
{
	static const char *const dumps[] = { "vmstat" };
	struct sim_result r;
	uint64_t out;

	sim_test_run_ini_dumps(BOARD_64M "swap = 32M\nswap_synchronous = yes\nduration = 4s\n"
			       "[anon proc]\nrss = 56M\nrate = 50000\n", "cma", dumps, 1, &r);
	out = sim_test_dumped(&r, "vmstat", "pswpout");
	assert_true(out > 0);
	assert_int_equal(sim_test_dumped(&r, "vmstat", "pgpgout"), out * (r.page_bytes / 1024));
	sim_result_free(&r);
}

/*
 * Expect: a 46 MiB process fills the 64 MiB board past its movable
 * blocks and into the 16 MiB CMA area (40 MiB fit outside it from 4.4,
 * which has no RESERVE blocks, to 5.7, before CMA is taken first: the
 * requests found no page to move); a pinner holds every one of its
 * pages from 1 s on, so a 12 MiB request, which every range of the area
 * overlaps, fails with cause "pinned".
 */
static void wl_pinner_fails_cma_requests(void **state)
{
	static const char ini[] = BOARD_64M "duration = 4s\n"
		"[anon hog]\nrss = 46M\nrate = 100000\n"
		"[pinner dio]\ntarget = hog\nshare = 100\nhold = 10s\nperiod = 1s\nstart = 1s\n"
		"[device cam]\nsize = 12M\nperiod = 33ms\nstart = 2s\nsession = 500ms\ngap = 500ms\n";
	const struct device_result *cam;
	struct sim_result r;

	run_ini(ini, "cma", &r);
	cam = the_device(&r);
	assert_true(workload(&r, "dio")->ops > 0);
	assert_true(cam->requests > 0);
	if (!cam->fail[FAIL_PINNED])
		fail_msg("expected failures with cause pinned, found %llu of %llu requests served, %llu busy, %llu nomem",
			 (unsigned long long)cam->successes, (unsigned long long)cam->requests,
			 (unsigned long long)cam->fail[FAIL_BUSY], (unsigned long long)cam->fail[FAIL_NOMEM]);
	assert_int_equal(cam->requests, cam->successes + failures(cam));
	sim_result_free(&r);
}

/*
 * Expect: the page cache fills the 64 MiB board, CMA area included, so
 * that a 12 MiB process started at 1 s gets pages in the area; from
 * 1.5 s a pinner holds all of them with long-term pins. Under kernel 3.5
 * (cma_page_pin_longterm is get_page) the 12 MiB requests fail with
 * cause "pinned"; under 6.12 each pin first moves the process's CMA
 * pages out of the area (check_and_migrate_movable_pages), so no request
 * meets a pinned page and they are served. The run's kernel field names
 * the profile the scenario's kernel key chose.
 */
static const char *const wl_pinner_longterm_moves_pages_out_of_cma_kernels[] = { "3.5", "6.12" };

static void wl_pinner_longterm_moves_pages_out_of_cma(const char *kernel, unsigned k)
{
	char ini[1024];
	const struct device_result *cam;
	struct sim_result r;

	snprintf(ini, sizeof(ini), BOARD_64M "kernel = %s\nduration = 4s\n"
		 /* read ahead, as a sequential reader's misses are: the board full in under 2 s */
		 "[pagecache files]\nfile = 96M\nrate = 20000\npattern = sequential\n"
		 "[anon hog]\nrss = 12M\nrate = 100000\nstart = 1s\n"
		 "[pinner dio]\ntarget = hog\nshare = 100\nhold = 10s\nperiod = 1s\nstart = 1500ms\nlongterm = yes\n"
		 "[device cam]\nsize = 12M\nperiod = 33ms\nstart = 2s\nsession = 500ms\ngap = 500ms\n",
		 kernel);
	run_ini(ini, "cma", &r);
	assert_string_equal(r.kernel, kernel);
	cam = the_device(&r);
	assert_true(workload(&r, "dio")->ops > 0);
	assert_true(cam->requests > 0);
	printf("kernel %s: %llu of %llu requests served, %llu pinned, %llu busy, %llu nomem; %llu pages migrated\n",
	       kernel, (unsigned long long)cam->successes, (unsigned long long)cam->requests,
	       (unsigned long long)cam->fail[FAIL_PINNED], (unsigned long long)cam->fail[FAIL_BUSY],
	       (unsigned long long)cam->fail[FAIL_NOMEM], (unsigned long long)r.pages_migrated);
	if (k == 0) {
		assert_true(cam->fail[FAIL_PINNED] > 0);
	} else {
		assert_int_equal(cam->fail[FAIL_PINNED], 0);
		assert_true(cam->successes > 0);
	}
	sim_result_free(&r);
}

/*
 * Expect (kcompactd's timer, 5.9): camera-browser's page cache and apps
 * leave its free memory in small pieces under 6.12 (from 6.7 its per-CPU
 * lists keep more pages back), and kcompactd, waking every 500 ms,
 * compacts it where the device's requests do not: pages migrated beyond
 * those of the requests. With sysctl.vm.compaction_proactiveness=0 on the
 * command line nothing but the requests migrates.
 */
static void kcompactd_proactive_compacts_in_the_background(void **state)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_result on, off;
	char err[256];

	assert_non_null(sc);
	assert_int_equal(scenario_builtin("camera-browser", sc, err, sizeof(err)), 0);
	sc->kernel = "6.12";
	run(sc, "cma", 0, &on);
	assert_true(sc->cmdline_set);
	assert_true(strlen(sc->cmdline) + 40 < sizeof(sc->cmdline));
	strcat(sc->cmdline, " sysctl.vm.compaction_proactiveness=0");
	run(sc, "cma", 0, &off);
	printf("proactiveness 20: %llu pages migrated, %llu for the requests; 0: %llu, %llu\n",
	       (unsigned long long)on.pages_migrated, (unsigned long long)on.device_migrated,
	       (unsigned long long)off.pages_migrated, (unsigned long long)off.device_migrated);
	assert_true(on.pages_migrated > on.device_migrated);
	assert_int_equal(off.pages_migrated, off.device_migrated);
	sim_result_free(&off);
	sim_result_free(&on);
	free(sc);
}

/* Expect: a platform file's kernel = PROFILE BASE SIZE gives both the profile and the image. */
static void platform_file_kernel_key(void **state)
{
	static const char text[] = "[platform]\narch = arm\nbank = 0x40000000 256M\nkernel = 6.12 0x40008000 8M\n";
	char path[] = "/tmp/test_sim-platform-XXXXXX", err[256];
	struct platform p;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	memset(&p, 0, sizeof(p));
	if (platform_read_file(path, &p, err, sizeof(err)))
		fail_msg("%s", err);
	unlink(path);
	assert_string_equal(p.cfg.kernel, "6.12");
	assert_int_equal(p.kernel.base, 0x40008000);
	assert_int_equal(p.kernel.size, 8 << 20);
}

/*
 * Expect: sessions of 1 s every 2 s in a 2.5 s run: two sessions of a
 * ring of 3, so 6 requests; frames of 100 ms: 10 in the first session
 * and 5 in the second, which the run's end cuts short.
 */
static void wl_device_requests_and_frames(void **state)
{
	static const char ini[] = BOARD_64M "duration = 2500ms\n"
		"[device cam]\nsize = 1M\nring = 3\nperiod = 100ms\nsession = 1s\ngap = 1s\n";
	const struct device_result *cam;
	struct sim_result r;

	run_ini(ini, "cma", &r);
	cam = the_device(&r);
	assert_int_equal(cam->requests, 2 * 3);
	assert_int_equal(cam->successes, 2 * 3);
	assert_int_equal(cam->lat.nr, 2 * 3);
	assert_true(cam->lat.p50 > 0);
	assert_int_equal(cam->frames, 10 + 5);
	assert_int_equal(workload(&r, "cam")->ops, 2 * 3);
	sim_result_free(&r);
}

/*
 * Expect: with stop_at_miss a run ends at its first failed request.
 * An 8 MiB area holds two 3 MiB buffers (at 1 MiB alignment the third
 * would end at 9 MiB), so each session of a ring of four fails its third
 * request; the run stops at the first session's, started at 1 s (its
 * requests' work moves the clock on, less than a frame's 33 ms): three
 * requests, one failure, and it says it stopped there. Without the
 * option it runs all three sessions.
 */
static void sim_run_stop_at_miss_ends_at_the_first(void **state)
{
	static const char ini[] = "[scenario]\nplatform = arm\nmemory = 64M\ncmdline = cma=8M\nduration = 5s\n"
		"[device cam]\nsize = 3M\nring = 4\nperiod = 33ms\nstart = 1s\nsession = 500ms\ngap = 1s\n";
	struct scenario *sc = parse(ini);
	struct sim_options o = { .policy = sim_policy_find("cma"), .stop_at_miss = true };
	const struct device_result *cam;
	struct sim_result r;

	run(sc, "cma", 0, &r);
	cam = the_device(&r);
	assert_false(r.stopped);
	assert_true(cam->requests > 4);
	assert_true(failures(cam) > 1);
	sim_result_free(&r);

	assert_int_equal(sim_run(sc, &o, &r), 0);
	cam = the_device(&r);
	assert_true(r.stopped);
	assert_true(r.stopped_ns >= 1 * S && r.stopped_ns < 1 * S + 33 * MS);
	assert_int_equal(cam->requests, 3);
	assert_int_equal(failures(cam), 1);
	assert_int_equal(cam->deadline_misses, 1);
	sim_result_free(&r);
	free(sc);
}

/*
 * Expect (serial = yes: the thread of the request in flight asks next,
 * as a test module issuing its requests in turn): a small request due
 * 1 ms into a large one's migration waits for the CMA mutex, the wait
 * in its latency; asked by the same thread it starts when the large one
 * is over, and its latency is its own work, whatever its start. The
 * large request is the same either way.
 */
static void device_serial_asks_after_the_request_in_flight(void **state)
{
#define SERIAL(yes) BOARD_64M "duration = 4s\n[pagecache r]\nfile = 60M\nrate = 50000\n" \
	"[device big]\nsize = 12M\nperiod = 1s\nstart = 3s\n" yes \
	"[device small]\nsize = 4K\nperiod = 1s\nstart = 3001ms\n" yes
	struct sim_result alone, serial;
	const struct device_result *big, *small, *big_s, *small_s;

	run_ini(SERIAL(""), "cma", &alone);
	run_ini(SERIAL("serial = yes\n"), "cma", &serial);
	big = sim_test_device(&alone, "big");
	small = sim_test_device(&alone, "small");
	big_s = sim_test_device(&serial, "big");
	small_s = sim_test_device(&serial, "small");
	assert_true(big->successes >= 1 && small->successes >= 1 && small_s->successes >= 1);
	printf("big %.3f ms; small on its own %.3f ms, serial %.3f ms\n", big->lat.ns[0] / 1e6,
	       small->lat.ns[0] / 1e6, small_s->lat.ns[0] / 1e6);
	if (big->lat.ns[0] <= 2000000)
		fail_msg("expected the large request to outlast the small one's start (2 ms); it took %" PRIu64
			 " ns", big->lat.ns[0]);
	assert_int_equal(big_s->lat.ns[0], big->lat.ns[0]);
	if (small->lat.ns[0] < big->lat.ns[0] - 1000000 || small_s->lat.ns[0] >= 1000000)
		fail_msg("expected the small request to wait out the large one on its own (at least %" PRIu64
			 " ns) and to take under 1 ms serial; found %" PRIu64 " and %" PRIu64 " ns",
			 big->lat.ns[0] - 1000000, small->lat.ns[0], small_s->lat.ns[0]);
	sim_result_free(&alone);
	sim_result_free(&serial);
#undef SERIAL
}

/*
 * Expect: a run whose cancel flag is set stops at its first poll (the
 * 4096th event), long before its end, and says it stopped; the figures
 * so far are kept. An event whose request's wait ran the polled one
 * (engine.c's run_due) ends after the stop and counts too, so the run
 * has fewer events than a second poll would come at, not exactly 4096.
 */
static void sim_run_cancelled_stops_early(void **state)
{
	struct scenario *sc = parse(every_kind);
	atomic_bool cancel = true;
	struct sim_options o = { .policy = sim_policy_find("cma"), .cancel = &cancel, .duration_ns = 60 * S };
	struct sim_result r;

	assert_int_equal(sim_run(sc, &o, &r), 0);
	assert_true(r.stopped);
	assert_true(r.stopped_ns < 60 * S);
	assert_true(r.events >= 4096 && r.events < 2 * 4096);
	assert_true(workload(&r, "files")->ops > 0);
	sim_result_free(&r);
	free(sc);
}

/* ---- the policies ---- */

/*
 * Expect: the carveout is reserved at boot and never reaches the page
 * allocator: the machine is as large as without it (buddy), workloads
 * and free memory fit in the rest at every sample, usable memory is
 * total - carveout throughout; the camera's ring of two 4 MiB buffers
 * (a pageblock each) fills its blocks while it streams (0.5-1.5 s and
 * 2.5-3.5 s), and in a gap (2 s) and at the end (4 s) those blocks hold
 * no free page though the board has memory to spare.
 */
static void policy_carveout_never_used_by_workloads(void **state)
{
	static const char ini[] = BOARD_128M "duration = 4s\nsnapshot = 1s\nsnapshot = 2s\nsnapshot = 4s\n"
		"[pagecache files]\nfile = 32M\nrate = 20000\n"
		"[slab kernel]\nrate = 500\nlifetime = 1s\n"
		"[device cam]\nsize = 4M\nring = 2\nperiod = 33ms\nstart = 500ms\nsession = 1s\ngap = 1s\n";
	struct sim_result co, buddy;
	const struct sim_snapshot *streaming;
	unsigned long nr_carveout_blocks = 0;
	uint64_t usable;

	run_ini(ini, "carveout", &co);
	run_ini(ini, "buddy", &buddy);
	assert_int_equal(co.carveout_pages, 2 * 1024);
	assert_int_equal(co.total_pages, buddy.total_pages);
	usable = co.total_pages - co.carveout_pages;
	assert_int_equal(co.usable_avg_pages, usable);
	assert_int_equal(co.usable_min_pages, usable);
	assert_int_equal(the_device(&co)->successes, 2 * 2);
	for (size_t i = 0; i < co.nr_samples; i++) {
		const struct sim_sample *s = &co.samples[i];
		uint64_t outside = s->free_pages + s->used[MC_PAGECACHE] + s->used[MC_ANON] + s->used[MC_SLAB];

		assert_int_equal(s->used[MC_DEVICE] + s->used[MC_CARVEOUT], co.carveout_pages);
		if (outside > usable)
			fail_msg("at %llu ms: free and workloads' pages %llu exceed total - carveout %llu",
				 (unsigned long long)(s->t_ns / MS), (unsigned long long)outside,
				 (unsigned long long)usable);
	}
	assert_int_equal(co.nr_snapshots, 3);
	streaming = &co.snapshots[0];
	for (unsigned long b = 0; b < streaming->nr_blocks; b++) {
		const struct snap_block *blk = &streaming->blocks[b];

		if (!blk->nr_device)
			continue;
		assert_int_equal(blk->nr_device, blk->nr_pages);
		nr_carveout_blocks++;
		for (unsigned i = 1; i < co.nr_snapshots; i++) {
			const struct snap_block *idle = &co.snapshots[i].blocks[b];

			if (idle->nr_free || idle->nr_device)
				fail_msg("at %llu ms carveout block %lu: expected no free and no device page, found %u free, %u device",
					 (unsigned long long)(co.snapshots[i].t_ns / MS), b, idle->nr_free,
					 idle->nr_device);
		}
	}
	assert_int_equal(nr_carveout_blocks * streaming->pageblock_pages, co.carveout_pages);
	sim_result_free(&co);
	sim_result_free(&buddy);
}

/*
 * Expect: a 6 MiB buffer is more than the largest buddy block (order 10,
 * 4 MiB): without scatter-gather every request fails as too large; with
 * it the buffer is two blocks and every request is served.
 */
static void policy_buddy_beyond_max_order(void **state)
{
#define BIG(sg) BOARD_64M "duration = 2s\n[pagecache files]\nfile = 8M\nrate = 5000\n" \
	"[device big]\nsize = 6M\nring = 2\nperiod = 33ms\nsession = 500ms\ngap = 500ms\n" sg
	const struct device_result *big;
	struct sim_result r;

	run_ini(BIG(""), "buddy", &r);
	big = the_device(&r);
	assert_true(big->requests > 0);
	assert_int_equal(big->successes, 0);
	assert_int_equal(big->fail[FAIL_TOO_LARGE], big->requests);
	sim_result_free(&r);

	run_ini(BIG("sg = yes\n"), "buddy", &r);
	big = the_device(&r);
	assert_true(big->requests > 0);
	assert_int_equal(big->successes, big->requests);
	sim_result_free(&r);
#undef BIG
}

/*
 * Expect: a device section named like a board's device is that device:
 * on s5p-mfc, [device s5p-mfc-r] uses the board's 8 MiB MFC area, and
 * with cma = 16M the board declares it 16 MiB (8 MiB more CMA pages);
 * mask = 0xfffff (1 MiB) replaces the board's mask, which then reaches
 * nothing of the area: every request fails.
 */
static void device_named_like_the_boards_takes_its_keys(void **state)
{
#define MFC(keys) "[scenario]\nplatform = s5p-mfc\ncmdline = cma=16M\nduration = 2s\n" \
	"[device s5p-mfc-r]\nsize = 1M\nperiod = 33ms\nstart = 1s\n" keys
	struct sim_result board, bigger, masked;

	run_ini(MFC(""), "cma", &board);
	run_ini(MFC("cma = 16M\n"), "cma", &bigger);
	assert_int_equal(bigger.cma_pages - board.cma_pages, (8ull << 20) / 4096);
	assert_int_equal(the_device(&board)->successes, 1);
	run_ini(MFC("mask = 0xfffff\n"), "cma", &masked);
	assert_int_equal(the_device(&masked)->successes, 0);
	sim_result_free(&board);
	sim_result_free(&bigger);
	sim_result_free(&masked);
#undef MFC
}

/*
 * Expect: under buddy on x86 a device's 24-bit mask keeps its buffers in
 * ZONE_DMA (below 16 MiB: the cmasim_device_request lines' pfns are
 * under 0x1000), a 32-bit one lets them anywhere in a 64 MiB board.
 */
static void buddy_mask_picks_the_zone(void **state)
{
#define MASKED(mask) "[scenario]\nplatform = x86\nmemory = 64M\nduration = 2s\n" \
	"[device dev]\nsize = 256K\nring = 4\nperiod = 33ms\nsession = 200ms\ngap = 100ms\nmask = " mask "\n"
	static const struct { const char *ini; unsigned long below; } cases[] = {
		{ MASKED("0xffffff"), 0x1000 }, { MASKED("0xffffffff"), 0x4000 },
	};
	unsigned long highest[2] = { 0, 0 };

	for (int c = 0; c < 2; c++) {
		struct sim_result r;
		char *text = run_traced(cases[c].ini, "buddy", &r), *line, *save = NULL;

		assert_true(the_device(&r)->successes > 0);
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			unsigned long pfn;

			if (strstr(line, "cmasim_device_request:") && strstr(line, "result=ok") &&
			    sscanf(strstr(line, "pfn="), "pfn=0x%lx", &pfn) == 1 && pfn > highest[c])
				highest[c] = pfn;
		}
		assert_true(highest[c] < cases[c].below);
		free(text);
		sim_result_free(&r);
	}
	/* top-down in its zone: the 32-bit mask's buffers lie above ZONE_DMA */
	assert_true(highest[1] >= 0x1000);
#undef MASKED
}

/*
 * Expect: a device's alignment is honoured. Under cma its 256 KiB
 * buffers, asked with align = 1M, start on 1 MiB boundaries (the
 * cma_alloc_finish events' pfns are multiples of 256); under buddy a
 * 2 MiB alignment takes an order-9 block and is served, and an 8 MiB one
 * is beyond MAX_ORDER, too large without scatter-gather.
 */
static void device_align_is_honoured(void **state)
{
#define ALIGNED(align) BOARD_64M "duration = 2s\n[pagecache files]\nfile = 8M\nrate = 5000\n" \
	"[device cam]\nsize = 256K\nring = 3\nperiod = 33ms\nsession = 500ms\ngap = 500ms\nalign = " align "\n"
	unsigned long finishes = 0;
	struct sim_result r;
	char *text = run_traced(ALIGNED("1M"), "cma", &r), *line, *save = NULL;

	assert_true(the_device(&r)->successes > 0);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long pfn, count;

		if (!strstr(line, "cma_alloc_finish: name=") ||
		    sscanf(strstr(line, "pfn="), "pfn=0x%lx", &pfn) != 1 ||
		    sscanf(strstr(line, "count="), "count=%lu", &count) != 1 || count != 64)
			continue;	/* not the camera's 256 KiB */
		assert_int_equal(pfn % 256, 0);
		finishes++;
	}
	assert_int_equal(finishes, the_device(&r)->successes);
	free(text);
	sim_result_free(&r);

	run_ini(ALIGNED("2M"), "buddy", &r);
	assert_true(the_device(&r)->successes > 0);
	assert_int_equal(failures(the_device(&r)), 0);
	sim_result_free(&r);
	run_ini(ALIGNED("8M"), "buddy", &r);
	assert_int_equal(the_device(&r)->fail[FAIL_TOO_LARGE], the_device(&r)->requests);
	sim_result_free(&r);
#undef ALIGNED
}

/*
 * Expect (dma_alloc_from_contiguous, which hands out its pages as they
 * are, against dma_alloc_coherent's clearing): on an idle board where
 * clearing 256 KiB would take 262 s (zero_mbps = 0.001), a camera asking
 * with align = 1M is served in well under a second; without align its
 * requests go through dma_alloc_coherent and pay those 262 s.
 */
static void device_align_buffers_are_not_zeroed(void **state)
{
#define CAM(align) BOARD_64M "duration = 2s\n[cost]\nzero_mbps = 0.001\n" \
	"[device cam]\nsize = 256K\nring = 3\nperiod = 33ms\nsession = 500ms\ngap = 500ms\n" align
	struct sim_result r;

	run_ini(CAM("align = 1M\n"), "cma", &r);
	assert_true(the_device(&r)->successes > 0);
	assert_true(the_device(&r)->lat.max < 1000000000ull);
	sim_result_free(&r);
	run_ini(CAM(""), "cma", &r);
	assert_true(the_device(&r)->successes > 0);
	assert_true(the_device(&r)->lat.min >= 262144000000ull);
	sim_result_free(&r);
#undef CAM
}

/*
 * Expect: a page cache twice the board fills the CMA area with movable
 * pages; the camera's requests migrate them out (pages_migrated > 0; from
 * 3.8 on, reclaim_clean_pages_from_list frees these clean pages instead) and
 * are all served; in the gap between sessions (3.5 s) every CMA block
 * holds movable pages again and no device page.
 */
static void policy_cma_lends_the_area_to_movable_pages(void **state)
{
	static const char ini[] = BOARD_64M "duration = 6s\nseed = 3\nsnapshot = 3500ms\n"
		"[pagecache files]\nfile = 128M\nrate = 20000\npattern = sequential\n"
		"[device cam]\nsize = 4M\nring = 2\nperiod = 33ms\nstart = 2s\nsession = 1s\ngap = 1s\n";
	const struct device_result *cam;
	const struct sim_snapshot *gap;
	unsigned long nr_cma = 0;
	struct sim_result r;

	run_ini(ini, "cma", &r);
	cam = the_device(&r);
	assert_true(cam->requests > 0);
	assert_int_equal(cam->successes, cam->requests);
	assert_true(r.pages_migrated > 0 || cma_kernel_has(test_kernel(), "contig_reclaim_clean") == 1);
	assert_int_equal(r.nr_snapshots, 1);
	gap = &r.snapshots[0];
	for (unsigned long b = 0; b < gap->nr_blocks; b++) {
		const struct snap_block *blk = &gap->blocks[b];

		if (blk->migratetype != CMA_MIGRATE_CMA)
			continue;
		nr_cma++;
		if (blk->nr_device || blk->nr_free >= blk->nr_pages)
			fail_msg("CMA block %lu in the gap: expected movable pages and no device page, found %u of %u free, %u device",
				 b, blk->nr_free, blk->nr_pages, blk->nr_device);
	}
	assert_int_equal(nr_cma, 4);		/* cma=16M */
	sim_result_free(&r);
}

static uint64_t latency_sum(const struct device_result *d)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < d->lat.nr; i++)
		sum += d->lat.ns[i];
	return sum;
}

/*
 * Expect: the same run with its file mmap'ed whole (mapped = 100) migrates
 * the same pages for the camera, and each costs one page table entry
 * more (unmap_us: arm 5.33 us) and at most one shootdown to the board's
 * other CPU (tlb_ipi_us: 0.3 us; fewer flushes where 6.12's asynchronous
 * compaction batches them); read through read() (the default) none. The
 * file is a writer's, dirty, so that 3.8's reclaim of clean pages leaves
 * them to migration; those its flusher has cleaned (background writeback
 * over 10% of memory) are dropped instead, each also unmapped first
 * (dropped_ptes), so the difference is bounded by the pages migrated and
 * the pages dropped for the camera.
 */
static void wl_pagecache_mapped_pages_pay_unmap(void **state)
{
#define MAPPED(pct) BOARD_64M "duration = 4s\nseed = 3\n[writer files]\nfile = 128M\nrate = 20000\n" pct \
	"[device cam]\nsize = 4M\nring = 2\nperiod = 33ms\nstart = 2s\nsession = 1s\ngap = 1s\n"
	struct sim_result cache, mapped;
	uint64_t diff;

	run_ini(MAPPED(""), "cma", &cache);
	run_ini(MAPPED("mapped = 100\n"), "cma", &mapped);
	assert_true(cache.device_migrated > 0);
	assert_int_equal(mapped.device_migrated, cache.device_migrated);
	assert_int_equal(the_device(&mapped)->successes, the_device(&cache)->successes);
	diff = latency_sum(the_device(&mapped)) - latency_sum(the_device(&cache));
	printf("migrated %llu, dropped %llu, latency difference %llu ns\n",
	       (unsigned long long)cache.device_migrated, (unsigned long long)cache.device_reclaimed,
	       (unsigned long long)diff);
	assert_true(diff >= cache.device_migrated * 5330);
	assert_int_equal(mapped.device_reclaimed, cache.device_reclaimed);
	assert_true(diff <= (cache.device_migrated + cache.device_reclaimed) * (5330 + 300));
	sim_result_free(&cache);
	sim_result_free(&mapped);
#undef MAPPED
}

/*
 * Expect (reclaim_clean_pages_from_list, 3.7): the camera's requests over
 * a clean page cache migrate it on 3.6 and free it on 3.7, where the pages
 * show as reclaimed for the device (device_reclaimed) and in the run's
 * pages_reclaimed, though no pgsteal event counts them.
 */
static void device_reclaimed_counts_clean_pages_contig_frees(void **state)
{
#define CLEAN(kernel) "[scenario]\nplatform = arm\nmemory = 64M\ncmdline = cma=16M\nkernel = " kernel \
	"\nduration = 4s\nseed = 3\n[pagecache files]\nfile = 128M\nrate = 20000\n" \
	"[device cam]\nsize = 4M\nring = 2\nperiod = 33ms\nstart = 2s\nsession = 1s\ngap = 1s\n"
	struct sim_result migrates, frees;

	run_ini(CLEAN("3.6"), "cma", &migrates);
	run_ini(CLEAN("3.7"), "cma", &frees);
	assert_true(migrates.device_migrated > 0);
	assert_int_equal(migrates.device_reclaimed, 0);
	assert_true(frees.device_reclaimed > 0);
	assert_true(frees.device_migrated < migrates.device_migrated);
	assert_true(frees.pages_reclaimed >= frees.device_reclaimed);
	sim_result_free(&migrates);
	sim_result_free(&frees);
#undef CLEAN
}

/* ---- the cost model ---- */

/* One of each kind of work: 100 pages copied, 1000 scanned, 50 handled, 4 MiB zeroed, ... */
static const struct cost_work some_work = {
	.migrated = 100, .scanned = 1000, .handled = 50, .zeroed_bytes = 4 << 20,
	.drains = 2, .locks = 3, .io_wait_ns = 777000,
};

/*
 * Expect: cost_ns() is the sum of its terms, each truncated to a whole
 * ns; by column: scanned * scan_cycles + handled * page_cycles at
 * cpu_mhz (x86: 80000 cycles at 3300 MHz, arm: 130000 at 1200), pages
 * copied at copy_mbps, bytes zeroed at zero_mbps, two v3.5
 * drain_all_pages on one CPU (a pcp batch of 31 pages * page_cycles
 * each), locks * lock_us, pages migrated * migrate_us (x86 1.2 us
 * measured, arm 4.1 times that), and the I/O wait as it is (a write in
 * flight is the storage queue's time, not a price of the request).
 * Contention: test_sim_cost.c.
 */
static void cost_ns_adds_up_per_profile(void **state)
{
	static const struct {
		enum cma_arch arch;
		const char *profile;
		uint64_t page_bytes, ns;
	} cases[] = {
		{ CMA_ARCH_X86, "x86", 4096, 24242 + 107789 + 524288 + 7515 + 3000 + 120000 + 777000 },
		{ CMA_ARCH_ARM, "arm", 4096, 108333 + 585142 + 2995931 + 31000 + 6000 + 492000 + 777000 },
		/* 64 KiB pages: the copy term grows 16 times */
		{ CMA_ARCH_ARM, "arm", 65536, 108333 + 9362285 + 2995931 + 31000 + 6000 + 492000 + 777000 },
	};
	const struct cost_work none = { 0 };
	struct cost_model m;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cost_profile(cases[i].arch, &m);
		assert_string_equal(m.profile, cases[i].profile);
		assert_int_equal(cost_ns(&m, &none, cases[i].page_bytes), 0);
		assert_int_equal(cost_ns(&m, &some_work, cases[i].page_bytes), cases[i].ns);
	}
}

/*
 * Expect: 100 migrated anonymous pages, one entry each, whose process
 * runs on the other CPU cost more than 100 unmapped page-cache pages by
 * exactly 100 unmaps (unmap_us) and 100 shootdowns to one CPU
 * (tlb_ipi_us): x86 100 * (1.3 + 10.1) us (the shootdown is x86's one IPI
 * constant), arm 100 * (1.3 * 4.1 + 0.3) us;
 * with the process asleep (no other CPU) the shootdowns cost nothing.
 */
static void cost_ns_mapped_pages_pay_unmap_and_shootdown(void **state)
{
	const struct cost_work cache = { .migrated = 100 };
	const struct cost_work anon = { .migrated = 100, .mapped_ptes = 100, .tlb_ipis = 100 };
	const struct cost_work asleep = { .migrated = 100, .mapped_ptes = 100 };
	struct cost_model m;

	cost_profile(CMA_ARCH_X86, &m);
	assert_int_equal(cost_ns(&m, &anon, 4096) - cost_ns(&m, &cache, 4096), 130000 + 1010000);
	assert_int_equal(cost_ns(&m, &asleep, 4096) - cost_ns(&m, &cache, 4096), 130000);
	cost_profile(CMA_ARCH_ARM, &m);
	assert_int_equal(cost_ns(&m, &anon, 4096) - cost_ns(&m, &cache, 4096), 533000 + 30000);
}

/*
 * Expect (flush_tlb_mm_range, cma_owner_ops.mm_cpus): a camera's request
 * migrating a process's pages sends each entry's flush to the other CPU
 * while the process runs, and to none once it sleeps holding what it
 * faulted in (mm_cpumask: no CPU has its address space): the same pages
 * unmapped (unmap part), no shootdown (tlb part 0).
 */
static const char *const request_shootdowns_follow_the_owner_kernels[] = { "3.5", "6.12" };

static void request_shootdowns_follow_the_owner(const char *kernel, unsigned k)
{
	static const char *const hold[2] = { "no", "yes" };
	uint64_t unmap[2], tlb[2];

	for (int h = 0; h < 2; h++) {
		char ini[512];
		struct sim_result r;
		const struct device_result *cam;

		snprintf(ini, sizeof(ini), "[scenario]\nplatform = x86\nkernel = %s\nmemory = 64M\n"
			 "cmdline = cma=32M\nduration = 300ms\n"
			 "[anon app]\nrss = 30M\nrate = 100000000\nhold = %s\n"
			 "[device cam]\nsize = 16M\nperiod = 1s\nstart = 200ms\n", kernel, hold[h]);
		run_ini(ini, "cma", &r);
		cam = the_device(&r);
		assert_int_equal(cam->successes, 1);
		unmap[h] = cam->breakdown.total.ns[COST_PART_UNMAP];
		tlb[h] = cam->breakdown.total.ns[COST_PART_TLB];
		sim_result_free(&r);
	}
	if (!unmap[0] || !unmap[1] || !tlb[0] || tlb[1])
		fail_msg("unmap %" PRIu64 " and %" PRIu64 " ns, tlb %" PRIu64 " ns running and %" PRIu64
			 " ns asleep", unmap[0], unmap[1], tlb[0], tlb[1]);
}

/*
 * Expect (the storage queue, storage.c): a request completes after its
 * service time (bytes at the sequential bandwidth, or 4 KiB blocks at the
 * random IOPS) plus the latency; requests queued together wait for the
 * transfers before them but overlap their latencies; an idle device
 * starts the next at once. x86: 450 MB/s reads, 250 MB/s writes, 40000
 * and 18000 IOPS, 100 us.
 */
static void storage_submit_bandwidth_latency_queueing(void **state)
{
	struct storage st = { 0 };
	struct cost_model m;

	cost_profile(CMA_ARCH_X86, &m);
	/* 450000 bytes at 450 MB/s: 1 ms, + 100 us */
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_SEQ_READ, 450000), 1100000);
	/* queued behind it: starts at 1 ms, one random read of 25 us */
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, 4096), 1125000);
	/* two blocks of random write at 18000 IOPS: 111111 ns */
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_WRITE, 8192), 1025000 + 111111 + 100000);
	/* the device idle again: a 4 KiB sequential write of 16384 ns starts at once */
	assert_int_equal(storage_submit(&st, &m, 5000000, STORAGE_SEQ_WRITE, 4096), 5000000 + 16384 + 100000);
	storage_destroy(&st);
}

/*
 * Expect (6.12: alloc_contig_range in MIGRATE_SYNC waits for writeback):
 * on a 48 MiB board a writer of 40 MiB, faster than the eMMC writes
 * (3 MB/s), is held at the dirty limit while its flusher keeps the
 * storage busy with its writes; a camera request that meets one of them
 * in flight on a page of its range waits for it (trace
 * cma_wait_on_page_writeback) and its latency holds the wait. The
 * request's clock moves with its own CPU work: at the profile's 15 MB/s
 * the flusher's writes (at most a tick's worth queued) have all ended by
 * the time migration reaches their pages. Whether the
 * page in flight at a given instant lies in the range depends on the
 * whole run's state, so the first request is tried at four instants and
 * one of them must meet a write.
 */
static void device_request_waits_for_writes_in_flight(void **state)
{
	static const char *const starts[] = { "4100ms", "4600ms", "5100ms", "5500ms" };
	unsigned met = 0;

	for (unsigned i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		char ini[512];
		const struct device_result *cam;
		struct sim_result r;
		char *text, *wait, *finish;
		unsigned long long waited;

		snprintf(ini, sizeof(ini),
			 "[scenario]\nplatform = arm\nmemory = 48M\ncmdline = cma=16M\nkernel = 6.12\nduration = 6s\n"
			 "[cost]\nstorage_write_mbps = 3\n"
			 "[writer w]\nfile = 40M\nrate = 20000\npattern = sequential\ndirty_expire = 1s\n"
			 "[device cam]\nsize = 8M\nperiod = 33ms\nstart = %s\nsession = 100ms\n", starts[i]);
		text = run_traced(ini, "cma", &r);
		wait = strstr(text, "cma_wait_on_page_writeback: ");
		finish = strstr(text, "cma_alloc_finish: ");
		cam = the_device(&r);
		assert_true(cam->successes >= 1);
		if (wait && finish && wait < finish) {
			assert_non_null(strstr(wait, "waited_ns="));
			waited = strtoull(strstr(wait, "waited_ns=") + strlen("waited_ns="), NULL, 10);
			printf("start %s: first request %llu ns, a wait of %llu ns\n", starts[i],
			       (unsigned long long)cam->lat.ns[0], waited);
			assert_true(waited > 0 && cam->lat.ns[0] > waited);
			met++;
		}
		free(text);
		sim_result_free(&r);
	}
	if (!met)
		fail_msg("expected a first request at one of 4 instants to wait for a write in flight; none did");
}

/*
 * Expect: a process bigger than the board swaps; each swap-in is a random
 * read it waits for, so on the eMMC it touches fewer pages than with
 * storage a hundred times faster, the same seed. Both write at
 * 1000 MB/s: a swap-out stays under writeback until written, which
 * reclaim passes over, so a process faulting pages in at 200 MB/s
 * against the arm profile's 15 MB/s of writes is OOM-killed before its
 * swap-ins are what holds it back: 3.5 gives a zone up once it has
 * scanned six times its reclaimable pages with none freed
 * (zone_reclaimable); under 6.12 the pages swapped out meanwhile fill
 * the swap, and with none left reclaim scans no anonymous page
 * (can_reclaim_anon_pages).
 */
static void wl_anon_swap_in_stalls(void **state)
{
#define SWAPPER(cost) BOARD_64M "swap = 64M\nduration = 3s\n" \
	"[anon big]\nrss = 72M\nrate = 50000\n[cost]\nstorage_write_mbps = 1000\n" cost
	struct sim_result slow, fast;

	run_ini(SWAPPER(""), "cma", &slow);
	run_ini(SWAPPER("storage_rand_read_iops = 200000\nstorage_lat_us = 3\n"), "cma", &fast);
	printf("eMMC: %llu touches, %llu misses; fast storage: %llu touches\n",
	       (unsigned long long)workload(&slow, "big")->ops,
	       (unsigned long long)workload(&slow, "big")->misses,
	       (unsigned long long)workload(&fast, "big")->ops);
	assert_true(workload(&slow, "big")->misses > 0);
	assert_true(workload(&slow, "big")->ops < workload(&fast, "big")->ops);
	sim_result_free(&slow);
	sim_result_free(&fast);
#undef SWAPPER
}

/*
 * Expect: touching 20% of its 56 MiB hot, a process keeps that part
 * resident while a reader streams a 256 MiB file through the 64 MiB
 * board (its young bits activate it at reclaim's every look; the
 * stream's pages and its cold ones go) and swaps in less than a fifth of
 * what it does touching all 56 MiB uniformly, the same pressure, under
 * 3.5 and 6.12: about 400 and 1100 swap-ins against 17300 and 13200.
 * 56 MiB is more than fits beside the stream, so anonymous pages are
 * reclaimed however get_scan_count favours the stream's (40 MiB were
 * not swapped at all once it did). With no access reported the LRU is
 * first in, first out and the hot part is swapped out in its turn.
 */
static void wl_anon_hot_set_swaps_far_less(void **state)
{
#define HOT_SET(kernel, hot) BOARD_64M "kernel = " kernel "\nswap = 64M\nduration = 30s\nseed = 3\n" \
	"[pagecache stream]\nfile = 256M\nrate = 5000\npattern = sequential\n" \
	"[anon big]\nrss = 56M\nrate = 20000\n" hot
	static const char *const inis[][2] = {
		{ HOT_SET("3.5", "hot = 20\n"), HOT_SET("3.5", "") },
		{ HOT_SET("6.12", "hot = 20\n"), HOT_SET("6.12", "") },
	};
	struct sim_result hot, uniform;

	for (size_t k = 0; k < sizeof(inis) / sizeof(inis[0]); k++) {
		run_ini(inis[k][0], "cma", &hot);
		run_ini(inis[k][1], "cma", &uniform);
		printf("kernel %s: swap-ins %llu with hot = 20, %llu uniformly\n", k ? "6.12" : "3.5",
		       (unsigned long long)workload(&hot, "big")->swapins,
		       (unsigned long long)workload(&uniform, "big")->swapins);
		assert_true(workload(&uniform, "big")->swapins > 0);
		assert_true(workload(&hot, "big")->swapins * 5 < workload(&uniform, "big")->swapins);
		sim_result_free(&hot);
		sim_result_free(&uniform);
	}
	/* hot = 0 would touch nothing after the fault-in: refused, saying what is accepted */
	{
		struct scenario *sc = calloc(1, sizeof(*sc));
		char err[768];

		assert_non_null(sc);
		assert_int_not_equal(scenario_parse("test.ini", HOT_SET("3.5", "hot = 0\n"), sc, err,
						    sizeof(err)), 0);
		assert_non_null(strstr(err, "give 1 to 100 (percent)"));
		free(sc);
	}
#undef HOT_SET
}

/* Expect: MB/s is 10^6 bytes a second; no bandwidth costs nothing rather than dividing by 0. */
static void cost_transfer_ns_megabytes(void **state)
{
	assert_int_equal(cost_transfer_ns(250, 1000000), 4000000);
	assert_int_equal(cost_transfer_ns(1, 1), 1000);
	assert_int_equal(cost_transfer_ns(8000, 4 << 20), 524288);
	assert_int_equal(cost_transfer_ns(0, 4096), 0);
}

/*
 * Expect: a carveout request's work is known exactly (256 pages handed
 * out and zeroed, one lock round): 878982 ns under the ARM profile, and
 * with [cost] overrides 256 * 1000 cycles at 1000 MHz + 1 MiB at 10 MB/s
 * + 5 us = 105118600 ns; keys not given keep the profile's value.
 */
static void cost_section_overrides_the_profile(void **state)
{
#define ONE_MIB(cost) BOARD_64M "duration = 1s\n" cost \
	"[device cam]\nsize = 1M\nperiod = 100ms\n"
	struct scenario *sc = parse(ONE_MIB("[cost]\ncpu_mhz = 1000\npage_cycles = 1000\nzero_mbps = 10\nlock_us = 5\n"));
	const struct device_result *cam;
	struct sim_result r;

	assert_true(sc->cost_set[COST_ZERO_MBPS]);
	assert_true(sc->cost.v[COST_ZERO_MBPS] == 10);
	assert_false(sc->cost_set[COST_COPY_MBPS]);
	run(sc, "carveout", 0, &r);
	cam = the_device(&r);
	assert_int_equal(cam->successes, 1);
	assert_int_equal(cam->lat.max, 256000 + 104857600 + 5000);
	sim_result_free(&r);
	free(sc);

	run_ini(ONE_MIB(""), "carveout", &r);
	/* 256 * 600 cycles at 1200 MHz + 1 MiB at 1400 MB/s + 2 us */
	assert_int_equal(the_device(&r)->lat.max, 128000 + 748982 + 2000);
	sim_result_free(&r);
#undef ONE_MIB
}

/*
 * Expect: sim_run says how a run failed as -errno, the exit status left to
 * main.c: a Kconfig the machine refuses (CMA_ALIGNMENT below 4) is -EINVAL
 * under every policy, and the result is left empty.
 */
static void sim_run_refused_configuration_is_einval(void **state)
{
	struct scenario *sc = parse(BOARD_64M "duration = 1s\nkconfig = CONFIG_CMA_ALIGNMENT=3\n"
				    "[device cam]\nsize = 1M\nperiod = 100ms\n");

	for (unsigned i = 0; i < sim_nr_policies(); i++) {
		struct sim_options o = { .policy = sim_policy(i) };
		struct sim_result r;

		assert_int_equal(sim_run(sc, &o, &r), -EINVAL);
		assert_int_equal(r.nr_samples, 0);
		assert_null(r.workloads);
	}
	free(sc);
}

/*
 * Expect: a cma= the board cannot hold is refused as a configuration
 * (-EINVAL, result empty) under the cma policy; sim_check_areas() says
 * -ENOSPC with dma_contiguous_reserve's failure line; sim_cma_fit() finds
 * the largest size that is reserved: it is, and one alignment step more is
 * not. The carveout policy, without CMA, runs.
 */
static void sim_run_area_not_reserved_is_einval(void **state)
{
	struct scenario *sc = parse(BOARD_64M "duration = 1s\ncma = 1G\n[device cam]\nsize = 1M\nperiod = 100ms\n");
	struct sim_options o = { .policy = sim_policy_find("cma") };
	char line[SIM_AREA_LINE_MAX];
	uint64_t fit, align = sim_cma_alignment(sc);
	struct sim_result r;

	assert_int_equal(align, 8ull << 20);	/* 4 KiB << MAX_ORDER */
	assert_int_equal(sim_run(sc, &o, &r), -EINVAL);
	assert_null(r.workloads);
	assert_int_equal(sim_check_areas(sc, o.policy, line, sizeof(line)), -ENOSPC);
	/* dma_contiguous_reserve's line in v3.5, cma_declare_contiguous_nid's from 3.17 (cma_generic) */
	assert_string_equal(line, test_kernel_since(test_kernel(), 3, 17) ?
				  "cma: Failed to reserve 1024 MiB on node -1" :
				  "cma: CMA: failed to reserve 1024 MiB");
	assert_int_equal(sim_cma_fit(sc, &fit), 0);
	assert_true(fit > 0 && fit % align == 0 && fit < (64ull << 20));
	snprintf(sc->cma, sizeof(sc->cma), "%lluK", (unsigned long long)(fit >> 10));
	assert_int_equal(sim_check_areas(sc, o.policy, line, sizeof(line)), 0);
	snprintf(sc->cma, sizeof(sc->cma), "%lluK", (unsigned long long)((fit + align) >> 10));
	assert_int_equal(sim_check_areas(sc, o.policy, line, sizeof(line)), -ENOSPC);
	assert_int_equal(sim_check_areas(sc, sim_policy_find("carveout"), line, sizeof(line)), 0);
	free(sc);
}

/*
 * Expect: under 6.12 an area rounds to a pageblock (cma_declare_contiguous_nid's
 * CMA_MIN_ALIGNMENT_BYTES: 4 MiB on this ARM board, against v3.5's 8 MiB),
 * and the largest fit is found in those steps: one step more does not fit.
 */
static void sim_cma_alignment_follows_the_kernel(void **state)
{
	struct scenario *sc = parse(BOARD_64M "kernel = 6.12\nduration = 1s\n[device cam]\nsize = 1M\nperiod = 100ms\n");
	char line[SIM_AREA_LINE_MAX];
	uint64_t fit, align = sim_cma_alignment(sc);

	assert_int_equal(align, 4ull << 20);
	assert_int_equal(sim_cma_fit(sc, &fit), 0);
	assert_true(fit > 0 && fit % align == 0 && fit < (64ull << 20));
	snprintf(sc->cma, sizeof(sc->cma), "%lluK", (unsigned long long)(fit >> 10));
	assert_int_equal(sim_check_areas(sc, sim_policy_find("cma"), line, sizeof(line)), 0);
	snprintf(sc->cma, sizeof(sc->cma), "%lluK", (unsigned long long)((fit + align) >> 10));
	assert_int_equal(sim_check_areas(sc, sim_policy_find("cma"), line, sizeof(line)), -ENOSPC);
	free(sc);
}

/*
 * Expect: the run records its CMA area (16 MiB: 4096 pages) and the
 * devices' use of it: two 1 MiB buffers (512 pages) held in [1 s, 2 s)
 * and [3 s, 4 s) of 4.5 s are a peak of 512 and a time-weighted mean of
 * 512 * 2 / 4.5 = 227.6 pages, less the time each session's requests
 * take before it holds them (their device time, a few ms: migration
 * waits for the writer's pages under writeback): at most 228, at least
 * 512 * (2 s less all four requests' time) / 4.5 s; the page cache in
 * the area is migrated for them (a writer's, dirty: since 3.8 clean
 * pages are reclaimed, not migrated), part of the run's migrations.
 * Under carveout there is no area.
 */
static void sim_run_records_the_devices_use_of_the_area(void **state)
{
	static const char ini[] = BOARD_64M "duration = 4500ms\n"
		"[writer files]\nfile = 96M\nrate = 20000\n"
		"[device cam]\nsize = 1M\nring = 2\nperiod = 100ms\nstart = 1s\nsession = 1s\ngap = 1s\n";
	struct sim_result r;

	run_ini(ini, "cma", &r);
	assert_int_equal(the_device(&r)->successes, 4);
	assert_int_equal(r.nr_areas, 1);
	assert_string_equal(r.areas[0].name, "default");
	assert_int_equal(r.areas[0].pages, 4096);
	assert_int_equal(r.areas[0].base % (4ull << 20), 0);
	assert_int_equal(r.areas[0].peak_pages, 512);
	{
		const struct sim_latency *lat = &the_device(&r)->lat;
		uint64_t busy_ns = 0;

		for (size_t i = 0; i < lat->nr; i++)
			busy_ns += lat->ns[i];
		assert_true(busy_ns < 100000000);
		assert_in_range(r.areas[0].mean_pages, 512 * (2000000000 - busy_ns) / 4500000000u, 228);
	}
	assert_int_equal(r.area_peak_pages, 512);
	assert_int_equal(r.area_mean_pages, r.areas[0].mean_pages);
	assert_true(r.device_migrated > 0 && r.device_migrated <= r.pages_migrated);
	sim_result_free(&r);
	run_ini(ini, "carveout", &r);
	assert_int_equal(r.nr_areas, 0);
	assert_int_equal(r.area_peak_pages, 0);
	assert_int_equal(r.device_migrated, 0);
	sim_result_free(&r);
}

/* ---- gcma and predict: their defining properties, watched from a wrapper ---- */

/*
 * A board under pressure: 128 MiB less a 16 MiB area, processes that
 * come and go and swap, a file read and one written, and a device whose
 * 8 MiB requests land on the area's copies.
 */
#define PRESSURE_INI BOARD_128M "swap = 64M\nduration = 8s\nseed = 5\n" \
	"[anon cc]\nrss = 64M\nrate = 20000\nlifetime = 3s\nrestart = 200ms\n" \
	"[pagecache src]\nfile = 128M\nrate = 4000\npattern = sequential\n" \
	"[writer obj]\nfile = 32M\nrate = 1000\ndirty_expire = 1s\n" \
	"[device dev]\nsize = 8M\nperiod = 10ms\nstart = 2s\nsession = 500ms\ngap = 1s\n"

/* What the wrapper saw of the policy it wraps. */
static struct {
	const struct sim_policy_ops *base;
	uint64_t requests, migrated_in_requests;
	uint64_t evictions, dirty_evictions, unbacked_evictions;
	bool inject;
	struct cma_fault_attr fault;
} watch;

static int watched_attach(struct sim *s)
{
	int ret = watch.base->attach ? watch.base->attach(s) : 0;

	if (!ret && watch.inject)
		cma_fault_inject(sim_mm(s), &watch.fault);
	return ret;
}

static uint64_t pgmigrate(struct sim *s)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(sim_mm(s), "pgmigrate_success", &v), 0);
	return v;
}

static int watched_alloc(struct sim *s, struct workload *w, struct dev_buffer *b, struct cost_work *work,
			 enum fail_cause *cause)
{
	uint64_t before = pgmigrate(s);
	int ret = watch.base->alloc(s, w, b, work, cause);

	watch.requests++;
	watch.migrated_in_requests += pgmigrate(s) - before;
	return ret;
}

/* The owner's own record says whether the page was dirty; the library whether it is backed. */
static void watched_evicted(struct sim *s, const void *owner, uint64_t idx, struct cma_page *page)
{
	const struct owned_pages *o = owner;

	watch.evictions++;
	watch.dirty_evictions += !o->anon && (o->slot[idx].state & OP_DIRTY);
	watch.unbacked_evictions += !cma_page_backed(sim_mm(s), page);
	watch.base->evicted(s, owner, idx, page);
}

/* @name wrapped and registered once as "@name-watched"; the watch reset. */
static const struct sim_policy_ops *watched(const char *name)
{
	static struct sim_policy_ops ops[2];
	static char names[2][32];
	unsigned i = !strcmp(name, "gcma") ? 0 : 1;

	memset(&watch, 0, sizeof(watch));
	watch.base = sim_policy_find(name);
	assert_non_null(watch.base);
	if (!ops[i].name) {
		ops[i] = *watch.base;
		snprintf(names[i], sizeof(names[i]), "%s-watched", name);
		ops[i].name = names[i];
		ops[i].attach = watched_attach;
		ops[i].alloc = watched_alloc;
		if (watch.base->evicted)
			ops[i].evicted = watched_evicted;
		assert_int_equal(sim_policy_register(&ops[i]), 0);
	}
	return &ops[i];
}

static void run_watched(const char *ini, const char *name, struct sim_result *res)
{
	struct scenario *sc = parse(ini);
	struct sim_options o = { .policy = watched(name) };
	int ret = sim_run(sc, &o, res);

	free(sc);
	/* sim_run verifies the machine at the end: -EIO when cma_mm_verify fails */
	if (ret)
		fail_msg("sim_run under %s: expected 0, found %d (see stderr)", name, ret);
}

/*
 * PRESSURE_INI with a process that does not fit beside the rest (100 MiB
 * on the 128 MiB board) and a random reader of 32 MiB, so that both
 * swapped-out pages and dropped file pages are read back: reclaim
 * prefers a plentiful or cheap file list (get_scan_count), and
 * PRESSURE_INI's 64 MiB process is not swapped enough for that. Under
 * 3.5: 4.9's balance, whose 3.8 rule takes this reader's inactive pages
 * first, swaps too little of the process for any of it to be read back.
 */
#define SWAPPING_INI BOARD_128M "kernel = 3.5\nswap = 64M\nduration = 8s\nseed = 5\n" \
	"[anon cc]\nrss = 100M\nrate = 20000\n" \
	"[pagecache src]\nfile = 32M\nrate = 4000\npattern = random\n" \
	"[writer obj]\nfile = 32M\nrate = 1000\ndirty_expire = 1s\n" \
	"[device dev]\nsize = 8M\nperiod = 10ms\nstart = 2s\nsession = 500ms\ngap = 1s\n"

/*
 * GCMA's promise (Park, Kim, Yeom): a device request never migrates,
 * and nothing kept in the area is the only copy of its data. Expect:
 * every request served with pgmigrate_success unchanged across each;
 * the requests dropped copies (the test reaches the drop path); both
 * uses kept pages and served faults from them; no page reclaim evicted
 * was dirty by its owner's record or unbacked by the library's, and
 * gcma refused none.
 */
static void policy_gcma_drops_copies_never_migrates(void **state)
{
	const struct device_result *dev;
	struct sim_result r;

	run_watched(SWAPPING_INI, "gcma", &r);
	dev = the_device(&r);
	assert_true(dev->requests > 3);
	assert_int_equal(dev->successes, dev->requests);
	assert_int_equal(watch.requests, dev->requests);
	assert_int_equal(watch.migrated_in_requests, 0);
	assert_int_equal(r.device_migrated, 0);
	assert_int_equal(r.device_reclaimed, 0);
	assert_true(r.gcma.on);
	assert_true(r.gcma.dropped_for_requests > 0);
	assert_true(r.gcma.hits[0] > 0 && r.gcma.hits[1] > 0);
	assert_true(watch.evictions >= r.gcma.puts[0] + r.gcma.puts[1]);
	assert_int_equal(watch.dirty_evictions, 0);
	assert_int_equal(watch.unbacked_evictions, 0);
	assert_int_equal(r.gcma.refused, 0);
	sim_result_free(&r);
}

/*
 * The device path's fault sweep, as test_fault_sweep's for the library's
 * own operations: with the policy attached, the Nth page allocation of
 * the run fails (once, and from the Nth on), N over a geometric range
 * past the run's first device request. Expect: every run ends with
 * cma_mm_verify clean (sim_run returns 0); under gcma no request
 * migrates, whatever failed.
 */
static void fault_sweep_policy(const char *name)
{
	for (unsigned long n = 1; n <= 1ul << 16; n *= 4)
		for (int persistent = 0; persistent < 2; persistent++) {
			const struct sim_policy_ops *p = watched(name);
			struct scenario *sc = parse(PRESSURE_INI);
			struct sim_options o = { .policy = p };
			struct sim_result r;
			int ret;

			watch.inject = true;
			watch.fault = (struct cma_fault_attr){ .space = n - 1, .probability = 100,
							       .times = persistent ? 0 : 1 };
			ret = sim_run(sc, &o, &r);
			free(sc);
			if (ret)
				fail_msg("%s, page allocation %lu failing%s: sim_run returned %d", name, n,
					 persistent ? " and every later one" : "", ret);
			if (!strcmp(name, "gcma"))
				assert_int_equal(watch.migrated_in_requests, 0);
			sim_result_free(&r);
		}
}

static void policy_gcma_fault_sweep(void **state)
{
	fault_sweep_policy("gcma");
}

/*
 * predict learns the device's idle time (1 s) from its first gap and
 * predicts every session after. Expect: predictions made and hit, their
 * requests served from buffers taken for them; the work done in advance
 * counted (batches, pages, time) and bounded: each prediction evacuates
 * its ranges once and takes its buffers once, so it migrates at most
 * twice the pages the session asks for; nothing wasted when every
 * prediction comes true; cma_mm_verify clean at the end.
 */
static void policy_predict_advance_work_counted_and_bounded(void **state)
{
	const struct device_result *dev;
	struct sim_result r;
	uint64_t session_pages = 8 << 20 >> 12;

	run_watched(PRESSURE_INI, "predict", &r);
	dev = the_device(&r);
	assert_int_equal(dev->successes, dev->requests);
	assert_true(r.predict.on);
	assert_true(r.predict.predictions >= 3);
	assert_true(r.predict.hits >= 2);
	assert_int_equal(r.predict.served, r.predict.hits);
	assert_true(r.predict.advance_batches > 0);
	assert_true(r.predict.advance_ns > 0);
	assert_true(r.predict.advance_migrated <= 2 * r.predict.predictions * session_pages);
	assert_int_equal(r.predict.misses, 0);
	assert_int_equal(r.predict.released_unused, 0);
	assert_int_equal(r.predict.wasted_ns, 0);
	sim_result_free(&r);
}

/*
 * A device that stops in its third session: the second ends with a gap
 * learned, so the third is predicted and hit; the policy does not read
 * the stop time, predicts a fourth, takes its buffer and, when the device
 * does not come, gives it back. Expect: one hit, one miss, one buffer
 * released unused, wasted work > 0 and no more than the work done.
 */
static void policy_predict_wrong_prediction_released_unused(void **state)
{
	static const char ini[] = BOARD_128M "duration = 8s\nseed = 5\n"
		"[pagecache src]\nfile = 256M\nrate = 20000\n"
		"[device dev]\nsize = 8M\nperiod = 10ms\nstart = 2s\nsession = 500ms\ngap = 1s\nstop = 5200ms\n";
	struct sim_result r;

	run_watched(ini, "predict", &r);
	assert_int_equal(r.predict.predictions, 2);
	assert_int_equal(r.predict.hits, 1);
	assert_int_equal(r.predict.misses, 1);
	assert_int_equal(r.predict.released_unused, 1);
	assert_true(r.predict.wasted_ns > 0 && r.predict.wasted_ns <= r.predict.advance_ns);
	sim_result_free(&r);
}

/*
 * predict's events (an evacuation batch, the buffers taken, a prediction
 * expired) take cma_mutex, which a request parked at a scheduling point
 * inside alloc_contig_range may hold: the engine's thread, running the
 * events due meanwhile, must not block on it. gcma-board under 3.17 has
 * a batch come due at 39.5 s while an unpredicted request waits inside
 * its range, and hung there. Expect: the 40 s run ends (alarm(): a hang
 * fails the test), every request served, batches run.
 */
static void policy_predict_events_wait_for_a_parked_request(void **state)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_result r;
	char err[256];

	assert_non_null(sc);
	assert_int_equal(scenario_builtin("gcma-board", sc, err, sizeof(err)), 0);
	sc->kernel = "3.17";
	sc->duration_ns = 40000000000ull;	/* 40 s */
	alarm(60);
	run(sc, "predict", 0, &r);
	alarm(0);
	for (unsigned i = 0; i < r.nr_devices; i++)
		assert_int_equal(r.devices[i].successes, r.devices[i].requests);
	assert_true(r.predict.advance_batches > 0);
	sim_result_free(&r);
	free(sc);
}

/*
 * A buffer taken in advance is taken raw (dma_alloc_from_contiguous);
 * handed to a driver that asked dma_alloc_coherent it is cleared then,
 * as the kernel clears every such buffer. Expect: the predicted sessions
 * hit, and no request of the 8 MiB device, predicted or not, costs less
 * than clearing 8 MiB at the arm profile's 1400 MB/s (5991862 ns).
 */
static void policy_predict_hand_out_clears_for_dma_alloc_coherent(void **state)
{
	struct sim_result r;

	run_watched(PRESSURE_INI, "predict", &r);
	assert_true(r.predict.hits >= 2);
	assert_int_equal(r.predict.served, r.predict.hits);
	assert_true(r.devices[0].lat.min >= 5991862);
	sim_result_free(&r);
}

/*
 * The standing pool: the largest power of two within a thousandth of the
 * 128 MiB board's free pages at boot (31), 16 pages, from the default
 * area at attach. Expect: a 16 KiB device is served from it
 * in every session, its first included, so nothing is predicted or
 * evacuated for it and no request migrates a page; the pool's 16 pages
 * are all predict holds on average; a device larger than the pool is
 * served as before (policy_predict_advance_work_counted_and_bounded).
 */
static void policy_predict_pool_serves_small_requests_from_the_first(void **state)
{
	static const char ini[] = BOARD_128M "swap = 64M\nduration = 8s\nseed = 5\n"
		"[anon cc]\nrss = 64M\nrate = 20000\nlifetime = 3s\nrestart = 200ms\n"
		"[pagecache src]\nfile = 128M\nrate = 4000\npattern = sequential\n"
		"[device dev]\nsize = 16K\nperiod = 10ms\nstart = 2s\nsession = 500ms\ngap = 1s\n";
	struct sim_result r;

	run_watched(ini, "predict", &r);
	assert_int_equal(r.predict.pool_pages, 16);
	assert_true(r.devices[0].requests >= 4);
	assert_int_equal(r.predict.pool_served, r.devices[0].requests);
	assert_int_equal(r.predict.predictions, 0);
	assert_int_equal(r.predict.advance_batches, 0);
	assert_int_equal(watch.migrated_in_requests, 0);
	assert_true(r.predict.held_mean_pages <= 16);
	sim_result_free(&r);
}

static void policy_predict_fault_sweep(void **state)
{
	fault_sweep_policy("predict");
}

/* A policy that refuses every request: all a new policy has to give. */
static int stub_alloc(struct sim *s, struct workload *w, struct dev_buffer *b, struct cost_work *work,
		      enum fail_cause *cause)
{
	*cause = FAIL_NOMEM;
	return -ENOMEM;
}

static const struct sim_policy_ops stub_policy = { .name = "stub", .alloc = stub_alloc };

/* The file's text (free() it). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;

	assert_non_null(f);
	assert_int_not_equal(getdelim(&text, &len, '\0', f), -1);
	fclose(f);
	return text;
}

/*
 * Expect: a policy registered from outside the simulator (one struct, one
 * call) is a policy like the built-in ones: sim_run runs it (every request
 * of the camera fails as out of memory), and cmasim compare takes it in
 * --policies and reports it beside cma. Runs last: the stub stays registered.
 */
static void policy_registered_from_a_test_runs_through_compare(void **state)
{
#define STUB_INI BOARD_64M "duration = 1s\n[device cam]\nsize = 1M\nperiod = 100ms\n"
	char ini[] = "/tmp/test_sim_stub_XXXXXX", out[] = "/tmp/test_sim_stub_json_XXXXXX";
	char *argv[] = { "compare", "--scenario", ini, "--policies", "cma,stub", "--report", "json",
			 "--output", out, NULL };
	const struct device_result *cam;
	struct sim_result r;
	char *json;
	int fd;

	assert_int_equal(sim_policy_register(&stub_policy), 0);
	assert_int_equal(sim_policy_register(&stub_policy), -EEXIST);
	assert_ptr_equal(sim_policy_find("stub"), &stub_policy);

	run_ini(STUB_INI, "stub", &r);
	cam = the_device(&r);
	assert_string_equal(r.policy, "stub");
	assert_true(cam->requests > 0);
	assert_int_equal(cam->successes, 0);
	assert_int_equal(cam->fail[FAIL_NOMEM], cam->requests);
	sim_result_free(&r);

	fd = mkstemp(ini);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, STUB_INI, strlen(STUB_INI)), (ssize_t)strlen(STUB_INI));
	close(fd);
	fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(cmd_compare((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv), 0);
	json = slurp(out);
	assert_non_null(strstr(json, "\"policy\": \"cma\""));
	assert_non_null(strstr(json, "\"policy\": \"stub\""));
	free(json);
	unlink(ini);
	unlink(out);
#undef STUB_INI
}

/* ---- scenarios ---- */

/*
 * Expect: every built-in scenario parses, the default among them, and
 * scenario_builtin_names() (what the "no such scenario" messages offer)
 * names each one 'cmasim list' lists.
 */
static void scenario_builtin_every_one_parses(void **state)
{
	char names[512], *save = NULL, *listed = NULL, err[SCENARIO_ERR_MAX];
	struct scenario *sc = calloc(1, sizeof(*sc));
	bool seen_default = false;
	unsigned nr_names = 0, nr_listed = 0;
	size_t len = 0;
	FILE *f = open_memstream(&listed, &len);

	assert_non_null(sc);
	assert_non_null(f);
	assert_int_equal(scenario_list(f), 0);
	fclose(f);
	snprintf(names, sizeof(names), "%s", scenario_builtin_names());
	for (char *name = strtok_r(names, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
		char line[64];

		if (scenario_builtin(name, sc, err, sizeof(err)))
			fail_msg("built-in scenario %s does not parse: %s", name, err);
		assert_string_equal(sc->name, name);
		assert_true(sc->nr_wl > 0 && sc->duration_ns > 0 && sc->platform[0]);
		seen_default |= !strcmp(name, SCENARIO_DEFAULT);
		snprintf(line, sizeof(line), "\n  %s ", name);
		if (!strstr(listed, line))
			fail_msg("scenario_builtin_names() has %s, 'cmasim list' does not", name);
		nr_names++;
	}
	for (const char *l = strchr(listed, '\n'); l && l[1]; l = strchr(l + 1, '\n'))
		nr_listed++;
	assert_int_equal(nr_names, nr_listed);
	assert_true(seen_default);
	assert_int_equal(scenario_builtin("no-such-scenario", sc, err, sizeof(err)), -ENOENT);
	assert_null(scenario_builtin_text("no-such-scenario"));
	free(listed);
	free(sc);
}

/* Write @text to DIR/@name in a new directory: the file's path in @path (remove with remove_file). */
static void write_named_file(char *path, size_t len, const char *name, const char *text)
{
	char dir[] = "/tmp/test_sim-XXXXXX";
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void remove_file(char *path)
{
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
}

/*
 * Expect: a description takes whatever its line carries (the line's 197
 * characters are the one limit, and refused with a message naming it),
 * in scenario and platform files alike: neither is cut short or refused
 * for a smaller buffer of its own.
 */
static void scenario_description_as_long_as_its_line(void **state)
{
	char desc[184], text[512], path[256], err[SCENARIO_ERR_MAX];
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct platform p;

	assert_non_null(sc);
	memset(desc, 'd', sizeof(desc) - 1);
	desc[sizeof(desc) - 1] = '\0';		/* "description = " and it: 197 characters */
	snprintf(text, sizeof(text), "[scenario]\ndescription = %s\nplatform = arm\nduration = 1s\n[anon a]\nrss = 1M\nrate = 1\n",
		 desc);
	if (scenario_parse("test.ini", text, sc, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(sc->description, desc);
	snprintf(text, sizeof(text), "[scenario]\ndescription = %sd\nplatform = arm\nduration = 1s\n", desc);
	assert_int_equal(scenario_parse("test.ini", text, sc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "test.ini:2: line longer than 197 characters"));

	snprintf(text, sizeof(text), "[platform]\ndescription = %s\nbank = 0x40000000 64M\n", desc);
	write_named_file(path, sizeof(path), "board.ini", text);
	if (platform_read_file(path, &p, err, sizeof(err)))
		fail_msg("%s", err);
	remove_file(path);
	assert_string_equal(p.description, desc);
	free(sc);
}

/*
 * Expect: a scenario or platform file without a name key is named after
 * the file, and one whose name does not fit (31 characters) is refused
 * with the limit, not cut short: two such files would share a name, and
 * -o's report files with it.
 */
static void scenario_file_name_too_long_for_a_default(void **state)
{
	static const char scenario[] = "[scenario]\nplatform = arm\nduration = 1s\n[anon a]\nrss = 1M\nrate = 1\n";
	static const char board[] = "[platform]\nbank = 0x40000000 64M\n";
	char path[256], err[SCENARIO_ERR_MAX];
	const char *long_name = "a-scenario-named-past-31-characters";
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct platform p;

	assert_non_null(sc);
	snprintf(path, sizeof(path), "dir/%s.ini", long_name);
	assert_int_equal(scenario_parse(path, scenario, sc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is longer than 31 characters: give the scenario a shorter name (name = ...)"));
	assert_int_equal(scenario_parse("dir/exactly-31-characters-long-name.ini", scenario, sc, err, sizeof(err)),
			 0);
	assert_string_equal(sc->name, "exactly-31-characters-long-name");
	if (scenario_parse(path, "[scenario]\nname = short\nplatform = arm\nduration = 1s\n[anon a]\nrss = 1M\nrate = 1\n",
			   sc, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(sc->name, "short");

	write_named_file(path, sizeof(path), "a-platform-named-past-31-chars.ini", board);
	assert_int_equal(platform_read_file(path, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is longer than 31 characters: give the platform a shorter name (name = ...)"));
	remove_file(path);
	write_named_file(path, sizeof(path), "a-platform-named-past-31-chars.ini", "[platform]\nname = short\nbank = 0x40000000 64M\n");
	if (platform_read_file(path, &p, err, sizeof(err)))
		fail_msg("%s", err);
	remove_file(path);
	assert_string_equal(p.name, "short");
	free(sc);
}

/*
 * Expect: sections are told apart by their whole names, however long:
 * two workloads whose names share their first 63 characters are not
 * "given twice"; the reader says what is wrong with the first.
 */
static void scenario_file_long_sections_compared_whole(void **state)
{
	char name[80], text[512], err[SCENARIO_ERR_MAX];
	struct scenario *sc = calloc(1, sizeof(*sc));

	assert_non_null(sc);
	memset(name, 'w', 70);
	name[70] = '\0';
	snprintf(text, sizeof(text), "[scenario]\nplatform = arm\nduration = 1s\n[anon %s1]\nrss = 1M\n[anon %s2]\nrss = 1M\n",
		 name, name);
	assert_int_equal(scenario_parse("test.ini", text, sc, err, sizeof(err)), -1);
	assert_null(strstr(err, "appears twice"));
	assert_non_null(strstr(err, "test.ini:5: [anon w"));
	assert_non_null(strstr(err, "give the workload a name of 1 to 31"));
	free(sc);
}

/*
 * Expect: the messages that list what is accepted list all of it: every
 * workload's name (32 of 31 characters) for an override naming none,
 * every [cost] key for an unknown one.
 */
static void scenario_file_accepted_lists_whole(void **state)
{
	char *text = malloc(8192), err[SCENARIO_ERR_MAX], last[SIM_NAME_MAX];
	struct scenario *sc = calloc(1, sizeof(*sc));
	size_t n;

	assert_non_null(text);
	assert_non_null(sc);
	n = (size_t)snprintf(text, 8192, "[scenario]\nplatform = arm\nduration = 1s\n");
	for (int i = 0; i < SIM_MAX_WORKLOADS; i++) {
		snprintf(last, sizeof(last), "anon-workload-with-a-long-nam%02d", i);
		n += (size_t)snprintf(text + n, 8192 - n, "[anon %s]\nrss = 1M\nrate = 1\n", last);
	}
	if (scenario_parse("test.ini", text, sc, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(scenario_override(sc, "nosuch.rss", "2M", err, sizeof(err)), -1);
	assert_non_null(strstr(err, last));
	assert_non_null(strstr(err, ", or a workload's kind"));

	snprintf(text, 8192, "[scenario]\nplatform = arm\nduration = 1s\n[cost]\nnosuch = 1\n");
	assert_int_equal(scenario_parse("test.ini", text, sc, err, sizeof(err)), -1);
	n = strlen(err) - strlen(cost_field_names[NR_COST_FIELDS - 1]);
	assert_string_equal(err + n, cost_field_names[NR_COST_FIELDS - 1]);
	free(text);
	free(sc);
}

/*
 * Expect: scenario_override() sets a key as the file's line would (by a
 * workload's name or its only kind), a repeating key starts over, a [cost]
 * key may be set again, scenario.cmdline drops the file's cma; what the
 * file would refuse is refused with its message, and scenario_check()
 * finds what only the whole scenario shows.
 */
static void scenario_override_sets_keys_as_the_file(void **state)
{
	struct scenario *sc = parse(BOARD_64M "duration = 2s\ncma = 8M\nsnapshot = 1s\nsnapshot = 2s\n"
				    "[cost]\ncopy_mbps = 700\n"
				    "[anon app]\nrss = 16M\nrate = 100\n[device cam]\nsize = 1M\nperiod = 100ms\n");
	char err[768];

	assert_string_equal(sc->cma, "8M");
	assert_int_equal(scenario_override(sc, "app.rss", "32M", err, sizeof(err)), 0);
	assert_int_equal(sc->wl[0].anon.rss_bytes, 32ull << 20);
	assert_int_equal(scenario_override(sc, "device.ring", "3", err, sizeof(err)), 0);
	assert_int_equal(sc->wl[1].device.ring, 3);
	assert_int_equal(scenario_override(sc, "scenario.snapshot", "500ms", err, sizeof(err)), 0);
	assert_int_equal(sc->nr_snapshots, 1);
	assert_int_equal(sc->snapshot_ns[0], 500 * MS);
	assert_int_equal(scenario_override(sc, "cost.copy_mbps", "900", err, sizeof(err)), 0);
	assert_true(sc->cost.v[COST_COPY_MBPS] == 900.0);
	assert_int_equal(scenario_override(sc, "scenario.cmdline", "cma=4M", err, sizeof(err)), 0);
	assert_string_equal(sc->cmdline, "cma=4M");
	assert_string_equal(sc->cma, "");
	assert_int_equal(scenario_check(sc, err, sizeof(err)), 0);

	assert_int_equal(scenario_override(sc, "cam.size", "3Q", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "[device cam]: size = 3Q: expected a decimal or 0x hex number"));
	assert_int_equal(scenario_override(sc, "scenario.cma", "1X", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "[scenario]: cma = 1X: expected a size in bytes"));
	assert_int_equal(scenario_override(sc, "cam", "1", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cam: expected SECTION.KEY"));
	assert_int_equal(scenario_override(sc, "cam.stop", "0", err, sizeof(err)), 0);
	assert_int_equal(scenario_override(sc, "cam.start", "3s", err, sizeof(err)), 0);
	assert_int_equal(scenario_override(sc, "cam.stop", "1s", err, sizeof(err)), 0);
	assert_int_equal(scenario_check(sc, err, sizeof(err)), -1);
	assert_string_equal(err, "[device cam]: stop must come after start");
	free(sc);
}

/* x86, 64 MiB: ZONE_DMA below 16 MiB, DMA32 the rest; 8 MiB is order 11, beyond the buddy allocator. */
#define BOARD_X86_64M(kernel) "[scenario]\nplatform = x86\nmemory = 64M\ncmdline = cma=0\nkernel = " kernel "\n"
#define HUGETLB_BG "duration = 200ms\n[anon bg]\nrss = 16M\nrate = 100000000\nhold = yes\n"

/*
 * Expect (6.12's set_max_huge_pages, alloc_gigantic_folio): three 8 MiB
 * gigantic pages from alloc_contig_pages once 16 MiB of anonymous
 * memory is in place; it lies at the low end of DMA32 (boot memory
 * queued to the tail), so the first ranges migrate it. The write's time
 * is the cost model's price of that work, the vmstat deltas what the
 * library counted; the pages are held (resident) to the end.
 */
static void wl_hugetlb_gigantic_pages_migrate_the_background(void **state)
{
	const struct workload_result *h;
	struct sim_result r;

	run_ini(BOARD_X86_64M("6.12") HUGETLB_BG "[hugetlb giga]\nsize = 8M\ncount = 3\nstart = 100ms\n",
		"cma", &r);
	h = workload(&r, "giga");
	assert_string_equal(h->kind, "hugetlb");
	assert_int_equal(h->hugetlb.requested, 3);
	assert_int_equal(h->hugetlb.got, 3);
	assert_int_equal(h->hugetlb.page_bytes, 8 << 20);
	assert_int_equal(h->resident_pages, 3 * 2048);
	assert_true(h->hugetlb.vmstat[HV_PGMIGRATE_SUCCESS] > 0);
	assert_true(h->hugetlb.vmstat[HV_COMPACT_ISOLATED] >= 3 * 2048);
	assert_true(h->hugetlb.write_ns > 0);
	assert_int_equal(workload(&r, "bg")->resident_pages, 4096);
	assert_int_equal(workload(&r, "bg")->oom_kills, 0);
	sim_result_free(&r);
}

/*
 * Expect (issue 27, item 7): on x86 with 6 GiB, cma= places the default
 * area at 4 GiB, the first range alloc_contig_pages tries in ZONE_NORMAL;
 * 5.1's isolation refuses its CMA pageblocks for MIGRATE_MOVABLE, so the
 * gigantic page comes from a range past the area and the machine is
 * consistent at the end (run() fails on sim_run's -EIO otherwise).
 * Before, the page was taken inside the area and freed back as MOVABLE.
 */
static const char *const wl_hugetlb_gigantic_page_skips_the_cma_area_kernels[] = { "6.3", "6.12" };

static void wl_hugetlb_gigantic_page_skips_the_cma_area(const char *kernel, unsigned k)
{
	char ini[256];
	struct sim_result r;

	snprintf(ini, sizeof(ini), "[scenario]\nplatform = x86\nkernel = %s\nmemory = 6G\n"
		 "duration = 2s\n[hugetlb g]\nsize = 1G\ncount = 1\nstart = 1s\n", kernel);
	run_ini(ini, "cma", &r);
	assert_int_equal(workload(&r, "g")->hugetlb.got, 1);
	sim_result_free(&r);
}

/*
 * Expect (echo 0 > nr_hugepages): at its stop time the workload gives its
 * gigantic pages back with free_contig_range, so none is resident at the
 * end and a second write after it gets the same count again.
 */
static void wl_hugetlb_stop_gives_the_pages_back(void **state)
{
	struct sim_result r;

	run_ini(BOARD_X86_64M("6.12") "duration = 300ms\n"
		"[hugetlb first]\nsize = 8M\ncount = 4\nstart = 100ms\nstop = 150ms\n"
		"[hugetlb again]\nsize = 8M\ncount = 4\nstart = 200ms\n", "cma", &r);
	assert_int_equal(workload(&r, "first")->hugetlb.got, 4);
	assert_int_equal(workload(&r, "first")->resident_pages, 0);
	assert_int_equal(workload(&r, "again")->hugetlb.got, 4);
	assert_int_equal(workload(&r, "again")->resident_pages, 4 * 2048);
	sim_result_free(&r);
}

/* Expect: 3.5 has no alloc_contig_pages, so no gigantic page is got, in no time. */
static void wl_hugetlb_gigantic_none_under_35(void **state)
{
	const struct workload_result *h;
	struct sim_result r;

	run_ini(BOARD_X86_64M("3.5") "duration = 200ms\n[hugetlb giga]\nsize = 8M\ncount = 2\nstart = 100ms\n",
		"cma", &r);
	h = workload(&r, "giga");
	assert_int_equal(h->hugetlb.requested, 2);
	assert_int_equal(h->hugetlb.got, 0);
	assert_int_equal(h->hugetlb.write_ns, 0);
	assert_int_equal(h->resident_pages, 0);
	sim_result_free(&r);
}

/*
 * Expect (alloc_buddy_hugetlb_folio): 2 MiB pages come from the buddy
 * allocator; with the background's every other page given back
 * (fragment) the free memory beyond it still serves a few, and the
 * write stops at the first that fails, as set_max_huge_pages does, so
 * got < requested and every page got is held. The JSON report carries
 * the write under workloads[].hugetlb.
 */
static void wl_hugetlb_2m_under_fragmentation(void **state)
{
	const struct workload_result *h;
	struct sim_result r;
	char *json = NULL;
	size_t len = 0;
	FILE *f;

	run_ini(BOARD_X86_64M("6.12") "duration = 200ms\n[anon bg]\nrss = 40M\nrate = 100000000\nhold = yes\nfragment = yes\n"
		"[hugetlb huge]\nsize = 2M\ncount = 32\nstart = 100ms\n", "cma", &r);
	h = workload(&r, "huge");
	assert_int_equal(workload(&r, "bg")->resident_pages, 40 * 256 / 2);
	assert_int_equal(h->hugetlb.requested, 32);
	assert_true(h->hugetlb.got > 0 && h->hugetlb.got < 32);
	assert_int_equal(h->resident_pages, h->hugetlb.got * 512);
	f = open_memstream(&json, &len);
	assert_non_null(f);
	assert_int_equal(report_json(&r, 1, f), 0);
	fclose(f);
	assert_non_null(strstr(json, "\"hugetlb\": {"));
	assert_non_null(strstr(json, "\"write_ms\": "));
	assert_non_null(strstr(json, "\"compact_stall\": "));
	free(json);
	sim_result_free(&r);
}

/*
 * Expect (set_max_huge_pages, and the pool's own work per page): a write
 * that finds free 2 MiB blocks does no other work the library counts, so
 * its time is hugetlb_page_ns for each base page of the pages it took.
 */
static void wl_hugetlb_write_prices_the_pool_pages(void **state)
{
	static const unsigned ns[] = { 4, 10 };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		const struct workload_result *h;
		struct sim_result r;
		char ini[512];

		snprintf(ini, sizeof(ini), BOARD_X86_64M("6.12") "duration = 200ms\n[cost]\nhugetlb_page_ns = %u\n"
			 "[hugetlb huge]\nsize = 2M\ncount = 4\nstart = 100ms\n", ns[i]);
		run_ini(ini, "cma", &r);
		h = workload(&r, "huge");
		assert_int_equal(h->hugetlb.got, 4);
		assert_int_equal(h->hugetlb.vmstat[HV_COMPACT_STALL], 0);
		assert_int_equal(h->hugetlb.write_ns, 4 * 512 * ns[i]);
		sim_result_free(&r);
	}
}

/*
 * A 64 MiB x86 board under @kernel with @extra after [scenario] (a
 * [cost] line, a [compact] step), a fragmented anonymous hold, and a
 * write of 32 2 MiB pages at 100 ms, run under cma into @r.
 */
static void run_fragmented_write(const char *kernel, const char *extra, struct sim_result *r)
{
	char ini[768];

	snprintf(ini, sizeof(ini), "[scenario]\nplatform = x86\nmemory = 64M\ncmdline = cma=0\n"
		 "kernel = %s\nduration = 200ms\n%s"
		 "[anon bg]\nrss = 40M\nrate = 100000000\nhold = yes\nfragment = yes\n"
		 "[hugetlb huge]\nsize = 2M\ncount = 32\nstart = 100ms\n",
		 kernel, extra);
	run_ini(ini, "cma", r);
}

/*
 * Expect (6.12's compact_node, isolate_migratepages_block): a [compact]
 * workload before the background sets the skip bit of every block it
 * scans with nothing to isolate; the hold then fills those blocks, and
 * the write's direct compaction (async, then SYNC_LIGHT: both honour
 * the bits) passes them by, so it migrates nothing, succeeds never and
 * gets only the blocks left free, where without it compaction serves
 * more. v3.5 has no skip bits (3.7): the step changes nothing there.
 */
static const char *const wl_compact_leaves_skip_bits_direct_compaction_honours_kernels[] = { "6.12", "3.5" };

static void wl_compact_leaves_skip_bits_direct_compaction_honours(const char *kernel, unsigned k)
{
	uint64_t got[2];

	for (int c = 0; c < 2; c++) {
		const struct workload_result *h;
		struct sim_result r;

		run_fragmented_write(kernel, c ? "[compact quiet]\nstart = 0ms\n" : "", &r);
		if (c)
			assert_int_equal(workload(&r, "quiet")->ops, 1);
		h = workload(&r, "huge");
		got[c] = h->hugetlb.got;
		if (k == 0 && c) {
			assert_int_equal(h->hugetlb.vmstat[HV_PGMIGRATE_SUCCESS], 0);
			assert_int_equal(h->hugetlb.vmstat[HV_COMPACT_SUCCESS], 0);
			assert_true(h->hugetlb.vmstat[HV_COMPACT_STALL] > 0);
		}
		if (k == 0 && !c)
			assert_true(h->hugetlb.vmstat[HV_COMPACT_SUCCESS] > 0);
		sim_result_free(&r);
	}
	if (k == 0)
		assert_true(got[1] < got[0]);
	else
		assert_int_equal(got[1], got[0]);
}

/*
 * Expect: a write whose direct compaction passes skip-marked pageblocks
 * (the 6.12 case above, with [compact quiet]) pays block_pass_ns for each
 * block its scanners pass: the same run priced at 1000 and at 2000 ns a
 * block differs by a whole number of microseconds, at least one per
 * pageblock of the zone for each stall (its SYNC_LIGHT run crosses the
 * zone from end to end), and nothing else moves.
 */
static void wl_hugetlb_write_prices_the_passed_pageblocks(void **state)
{
	static const unsigned ns[] = { 1000, 2000 };
	uint64_t write_ns[2], stalls = 0, got = 0;

	for (size_t i = 0; i < 2; i++) {
		const struct workload_result *h;
		struct sim_result r;
		char extra[96];

		snprintf(extra, sizeof(extra), "[cost]\nblock_pass_ns = %u\n[compact quiet]\nstart = 0ms\n", ns[i]);
		run_fragmented_write("6.12", extra, &r);
		h = workload(&r, "huge");
		write_ns[i] = h->hugetlb.write_ns;
		if (i) {
			assert_int_equal(h->hugetlb.vmstat[HV_COMPACT_STALL], stalls);
			assert_int_equal(h->hugetlb.got, got);
		}
		stalls = h->hugetlb.vmstat[HV_COMPACT_STALL];
		got = h->hugetlb.got;
		sim_result_free(&r);
	}
	assert_true(stalls > 0);
	assert_true(write_ns[1] > write_ns[0]);
	assert_int_equal((write_ns[1] - write_ns[0]) % 1000, 0);
	/* 48 MiB of ZONE_DMA32 above 16 MiB: 24 pageblocks of 2 MiB */
	assert_true((write_ns[1] - write_ns[0]) / 1000 >= stalls * 22);
}

/*
 * Expect (cma_alloc's gfp, 4.11 to 4.18; compaction without __GFP_FS,
 * 4.10 on): a device whose driver asks GFP_NOIO, its one-page requests
 * meeting the page cache a reader spilled into the area, walks past the
 * cached pages it may not move under 4.14, so its requests grow slower
 * than the same device's with GFP_KERNEL; under 3.5 and 6.12 the flag
 * changes nothing.
 */
static const char *const wl_device_gfp_noio_leaves_page_cache_under_414_kernels[] = { "4.14", "6.12", "3.5" };
static const bool noio_slower[] = { true, false, false };

static void wl_device_gfp_noio_leaves_page_cache_under_414(const char *kernel, unsigned k)
{
	static const char *const gfps[] = { "GFP_NOIO", "GFP_KERNEL" };
	uint64_t max[2], mean[2];
	char ini[512];

	for (size_t g = 0; g < 2; g++) {
		struct sim_result r;

		snprintf(ini, sizeof(ini), BOARD_64M "kernel = %s\nduration = 3s\n"
			 "[pagecache files]\nfile = 256M\nrate = 20000\n"
			 "[device d]\nsize = 4K\nperiod = 100ms\nsession = 50ms\ngap = 50ms\ngfp = %s\n",
			 kernel, gfps[g]);
		run_ini(ini, "cma", &r);
		assert_true(the_device(&r)->successes > 20);
		max[g] = the_device(&r)->lat.max;
		mean[g] = the_device(&r)->lat.mean;
		sim_result_free(&r);
	}
	if (noio_slower[k]) {
		assert_true(max[0] > 5 * max[1]);
	} else {
		assert_int_equal(max[0], max[1]);
		assert_int_equal(mean[0], mean[1]);
	}
}

/* Expect: gfp = GFP_ATOMIC, and gfp with atomic = yes, are refused. */
static void wl_device_gfp_atomic_refused(void **state)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	char ini[512], err[512];

	assert_non_null(sc);
	snprintf(ini, sizeof(ini), BOARD_64M "duration = 1s\n[device d]\nsize = 4K\nperiod = 1s\ngfp = GFP_ATOMIC\n");
	assert_int_equal(scenario_parse("test.ini", ini, sc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "gfp = GFP_ATOMIC: accepted GFP_KERNEL, GFP_NOFS, GFP_NOIO"));
	snprintf(ini, sizeof(ini), BOARD_64M "duration = 1s\n[device d]\nsize = 4K\nperiod = 1s\natomic = yes\n"
		 "gfp = GFP_NOIO\n");
	assert_int_equal(scenario_parse("test.ini", ini, sc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "atomic = yes is GFP_ATOMIC"));
	free(sc);
}

/* Times @event's lines appear in the trace @text. */
static unsigned trace_count(const char *text, const char *event)
{
	unsigned n = 0;

	for (const char *p = text; (p = strstr(p, event)); p += strlen(event))
		n++;
	return n;
}

/*
 * Expect (on_cpu): a workload allocates from and frees to its own CPU's
 * per-CPU lists. The GFP_NOIO device of the test above, its one-page
 * buffer freed to its CPU's list: on the reader's CPU the reader takes
 * the page back as page cache, which the next request may not move, so
 * requests walk past a growing run of them (busy retries); on a CPU of
 * its own the page waits there for the next request, which finds it
 * free, every time. A CPU the board does not have is refused, naming it.
 */
static void wl_on_cpu_keeps_a_freed_page_on_its_cpu(void **state)
{
	static const char *const device_cpu[] = { "0", "1" };
	unsigned retries[2];

	for (size_t c = 0; c < 2; c++) {
		char ini[512], *text;
		struct sim_result r;

		snprintf(ini, sizeof(ini), BOARD_64M "kernel = 4.14\nduration = 3s\n"
			 "[pagecache files]\nfile = 256M\nrate = 20000\non_cpu = 0\n"
			 "[device d]\nsize = 4K\nperiod = 100ms\nsession = 50ms\ngap = 50ms\ngfp = GFP_NOIO\n"
			 "on_cpu = %s\n", device_cpu[c]);
		text = run_traced(ini, "cma", &r);
		assert_true(the_device(&r)->successes > 20);
		assert_int_equal(the_device(&r)->successes, the_device(&r)->requests);
		retries[c] = trace_count(text, "cma_alloc_busy_retry");
		if (c == 1)
			assert_true(the_device(&r)->lat.max < 2 * the_device(&r)->lat.min);
		free(text);
		sim_result_free(&r);
	}
	assert_true(retries[0] > 20);
	assert_int_equal(retries[1], 0);

	struct scenario *sc = parse(BOARD_64M "duration = 1s\n[device d]\nsize = 4K\nperiod = 100ms\non_cpu = 2\n");
	struct sim_options o = { .policy = sim_policy_find("cma") };
	struct sim_result r;

	assert_int_equal(sim_run(sc, &o, &r), -EINVAL);
	assert_null(r.workloads);
	free(sc);
}

/* Expect: the hugetlb and anon hold keys' errors name the section and what is accepted. */
static void wl_hugetlb_and_hold_keys_refused(void **state)
{
	static const struct { const char *ini, *says; } bad[] = {
		{ "[hugetlb h]\nsize = 3M\ncount = 1\n", "give a huge page size" },
		{ "[hugetlb h]\nsize = 2M\ncount = 0\n", "count = 0 asks for nothing" },
		{ "[hugetlb h]\nsize = 2M\n", "count" },
		{ "[anon a]\nrss = 8M\nrate = 10\nfragment = yes\n", "add hold = yes" },
		{ "[anon a]\nrss = 8M\nrate = 10\nhold = yes\nrestart = 1s\n", "drop lifetime and restart" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct scenario *sc = calloc(1, sizeof(*sc));
		char ini[512], err[768];

		assert_non_null(sc);
		snprintf(ini, sizeof(ini), "%sduration = 1s\n%s", BOARD_X86_64M("6.12"), bad[i].ini);
		assert_int_equal(scenario_parse("test.ini", ini, sc, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].says))
			fail_msg("case %zu: expected \"%s\" in: %s", i, bad[i].says, err);
		free(sc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sim_run_same_seed_same_report),
		cmocka_unit_test(sim_run_traced_answers_as_untraced),
		cmocka_unit_test(big_table_zeroed_aligned_writable),
		cmocka_unit_test(wl_pagecache_misses_and_refaults),
		cmocka_unit_test(wl_writer_writeback_at_storage_speed),
		cmocka_unit_test(wl_writer_background_writeback_before_expire),
		cmocka_unit_test(wl_writer_flusher_sleeps_until_woken),
		cmocka_unit_test(wl_writer_held_at_dirty_limit),
		cmocka_unit_test(wl_writer_held_wants_no_cpu),
		cmocka_unit_test(wl_file_passes_stop),
		cmocka_unit_test(wl_anon_resident_and_oom_kills),
		cmocka_unit_test(wl_hugetlb_gigantic_pages_migrate_the_background),
		cmocka_unit_test(wl_hugetlb_gigantic_none_under_35),
		cmocka_unit_test(wl_hugetlb_stop_gives_the_pages_back),
		cmocka_unit_test(wl_hugetlb_2m_under_fragmentation),
		cmocka_unit_test(wl_hugetlb_and_hold_keys_refused),
		cmocka_unit_test(wl_hugetlb_write_prices_the_pool_pages),
		cmocka_unit_test(wl_hugetlb_write_prices_the_passed_pageblocks),
		cmocka_unit_test(wl_device_gfp_atomic_refused),
		cmocka_unit_test(wl_on_cpu_keeps_a_freed_page_on_its_cpu),
		cmocka_unit_test(wl_slab_rate_times_lifetime_and_max),
		cmocka_unit_test(wl_slab_pages_count_as_slab),
		cmocka_unit_test(vmstat_counts_faults_and_block_io),
		cmocka_unit_test(vmstat_frontswap_load_is_a_major_fault),
		cmocka_unit_test(vmstat_zram_store_counts_as_written),
		cmocka_unit_test(wl_pinner_fails_cma_requests),
		cmocka_unit_test(kcompactd_proactive_compacts_in_the_background),
		cmocka_unit_test(platform_file_kernel_key),
		cmocka_unit_test(wl_device_requests_and_frames),
		cmocka_unit_test(sim_run_stop_at_miss_ends_at_the_first),
		cmocka_unit_test(sim_run_cancelled_stops_early),
		cmocka_unit_test(device_serial_asks_after_the_request_in_flight),
		cmocka_unit_test(policy_carveout_never_used_by_workloads),
		cmocka_unit_test(policy_buddy_beyond_max_order),
		cmocka_unit_test(device_align_is_honoured),
		cmocka_unit_test(device_align_buffers_are_not_zeroed),
		cmocka_unit_test(buddy_mask_picks_the_zone),
		cmocka_unit_test(device_named_like_the_boards_takes_its_keys),
		cmocka_unit_test(policy_cma_lends_the_area_to_movable_pages),
		cmocka_unit_test(wl_pagecache_mapped_pages_pay_unmap),
		cmocka_unit_test(device_reclaimed_counts_clean_pages_contig_frees),
		cmocka_unit_test(cost_ns_adds_up_per_profile),
		cmocka_unit_test(cost_ns_mapped_pages_pay_unmap_and_shootdown),
		cmocka_unit_test(storage_submit_bandwidth_latency_queueing),
		cmocka_unit_test(device_request_waits_for_writes_in_flight),
		cmocka_unit_test(wl_anon_swap_in_stalls),
		cmocka_unit_test(wl_anon_hot_set_swaps_far_less),
		cmocka_unit_test(cost_transfer_ns_megabytes),
		cmocka_unit_test(cost_section_overrides_the_profile),
		cmocka_unit_test(scenario_builtin_every_one_parses),
		cmocka_unit_test(scenario_description_as_long_as_its_line),
		cmocka_unit_test(scenario_file_name_too_long_for_a_default),
		cmocka_unit_test(scenario_file_long_sections_compared_whole),
		cmocka_unit_test(scenario_file_accepted_lists_whole),
		cmocka_unit_test(scenario_override_sets_keys_as_the_file),
		cmocka_unit_test(sim_run_refused_configuration_is_einval),
		cmocka_unit_test(sim_run_area_not_reserved_is_einval),
		cmocka_unit_test(sim_cma_alignment_follows_the_kernel),
		cmocka_unit_test(sim_run_records_the_devices_use_of_the_area),
		cmocka_unit_test(policy_gcma_drops_copies_never_migrates),
		cmocka_unit_test(policy_gcma_fault_sweep),
		cmocka_unit_test(policy_predict_advance_work_counted_and_bounded),
		cmocka_unit_test(policy_predict_wrong_prediction_released_unused),
		cmocka_unit_test(policy_predict_events_wait_for_a_parked_request),
		cmocka_unit_test(policy_predict_fault_sweep),
		cmocka_unit_test(policy_predict_hand_out_clears_for_dma_alloc_coherent),
		cmocka_unit_test(policy_predict_pool_serves_small_requests_from_the_first),
		cmocka_unit_test(policy_registered_from_a_test_runs_through_compare),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(wl_pinner_longterm_moves_pages_out_of_cma, wl_pinner_longterm_moves_pages_out_of_cma_kernels),
		test_kernel_case(wl_hugetlb_gigantic_page_skips_the_cma_area, wl_hugetlb_gigantic_page_skips_the_cma_area_kernels),
		test_kernel_case(request_shootdowns_follow_the_owner, request_shootdowns_follow_the_owner_kernels),
		test_kernel_case(wl_compact_leaves_skip_bits_direct_compaction_honours, wl_compact_leaves_skip_bits_direct_compaction_honours_kernels),
		test_kernel_case(wl_device_gfp_noio_leaves_page_cache_under_414, wl_device_gfp_noio_leaves_page_cache_under_414_kernels),
	};

	return cmocka_run_group_tests_name("cmasim simulation", tests, NULL, NULL) +
	       test_run_kernel_cases("cmasim simulation (per kernel)", kernel_cases);
}
