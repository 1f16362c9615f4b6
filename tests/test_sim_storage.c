// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim's storage device (engine/storage.c): its command queue's depth,
 * the block layer's merging of writes that continue one another, and the
 * flash's garbage collection stalls drawn from a published distribution,
 * and storage that is memory (storage_memory, a loop device over tmpfs);
 * and the other cost the held-back figures pointed at, GCMA's own work
 * per page of a request (policies/policy_gcma.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "engine/sim_api.h"
#include "lib/prandom.h"
#include "policies/registry.h"

#define PAGE 4096ull
/* arm: 15 MB/s of writes, 2000 random reads a second, 300 us a command */
#define ARM_PAGE_WRITE_NS 273066ull	/* 4096 bytes at 15 MB/s */
#define ARM_RAND_READ_NS 500000ull
#define ARM_LAT_NS 300000ull

/* The arm profile (eMMC 4.41) without its stalls, to see the queue alone. */
static void arm_no_gc(struct cost_model *m)
{
	cost_profile(CMA_ARCH_ARM, m);
	m->v[COST_STORAGE_GC_MIB] = 0;
}

/*
 * Expect (eMMC without a command queue: one command at a time): two
 * random reads queued together on the arm profile complete one after the
 * other, the second's access latency after the first's, not overlapping
 * it: 800 us, then 1600 us.
 */
static void storage_depth_one_serves_one_command(void **state)
{
	struct storage st = { 0 };
	struct cost_model m;

	cost_profile(CMA_ARCH_ARM, &m);
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE), 800000);
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE), 1600000);
	storage_destroy(&st);
}

/* The slot a scan of slot_done in order takes: the first of those free first. */
static unsigned scanned_slot(const struct storage *st, unsigned depth)
{
	unsigned best = 0;

	for (unsigned i = 1; i < depth; i++)
		if (st->slot_done[i] < st->slot_done[best])
			best = i;
	return best;
}

/*
 * Expect: the command slot a request takes is the first of those free
 * first, as a scan in order finds it, whatever the depth and the
 * latency (changed on the way: a later request may end first), ties
 * (requests of no bytes end together) and merges (which move a slot's
 * end on). 20000 requests and writes at random against the
 * scan: a slot tree that kept a stale round, took the later slot of a tie
 * or a slot past the depth would differ.
 */
static void storage_slot_is_the_scan_s_choice(void **state)
{
	const double depths[] = { 1, 2, 3, 7, 32, 0, 100 };
	static char file;
	struct storage st = { 0 };
	struct cost_model m;
	uint64_t mix = 0x5107, now = 0;

	cost_profile(CMA_ARCH_X86, &m);
	m.v[COST_STORAGE_GC_MIB] = 0;
	for (unsigned i = 0; i < 20000; i++) {
		uint64_t pick = prandom_u64_state(&mix), bytes = (pick >> 8) % 3 * PAGE;
		unsigned depth, want;

		if (pick % 64 == 0)
			m.v[COST_STORAGE_DEPTH] = depths[(pick >> 16) % 7];
		if (pick % 64 == 1)
			m.v[COST_STORAGE_LAT_US] = (double)((pick >> 16) % 400);
		depth = m.v[COST_STORAGE_DEPTH] < 1 ? 1 :
			m.v[COST_STORAGE_DEPTH] > STORAGE_MAX_DEPTH ? STORAGE_MAX_DEPTH :
			(unsigned)m.v[COST_STORAGE_DEPTH];
		now += (pick >> 24) % 4 * 20000;
		want = scanned_slot(&st, depth);
		if ((pick >> 32) % 4 == 0) {
			uint64_t merges = st.merges;

			storage_submit_at(&st, &m, now, STORAGE_SEQ_WRITE, (pick >> 44) % 64 * PAGE, &file,
					  (pick >> 40) % 2 ? st.last.end : 0);
			if (st.merges != merges)
				continue;
		} else {
			storage_submit(&st, &m, now, (enum storage_op)((pick >> 36) % 4), bytes);
		}
		if (st.last.slot != want)
			fail_msg("request %u, depth %u: slot %u, the scan's %u", i, depth,
				 st.last.slot, want);
	}
	storage_destroy(&st);
}

/*
 * Expect: a queue two deep overlaps two commands' latencies; the third
 * waits for the first to complete. x86: 25 us a random read, 100 us.
 */
static void storage_depth_limits_commands_in_flight(void **state)
{
	struct storage st = { 0 };
	struct cost_model m;

	cost_profile(CMA_ARCH_X86, &m);
	m.v[COST_STORAGE_DEPTH] = 2;
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE), 125000);
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE), 150000);
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE), 250000);
	/* 32 deep (the profile's NCQ): the third overlaps too, queued behind the transfers only */
	storage_destroy(&st);
	cost_profile(CMA_ARCH_X86, &m);
	for (int i = 0; i < 2; i++)
		storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE);
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE), 175000);
	storage_destroy(&st);
}

/*
 * Expect (a swap read queued behind writes, one command at a time): the
 * read starts when the last write has completed, its latency included:
 * 3 pages written (3 x 273066 ns + 300 us), then 500 + 300 us.
 */
static void storage_swap_read_waits_behind_writes(void **state)
{
	struct storage st = { 0 };
	struct cost_model m;
	uint64_t wrote = 0;

	cost_profile(CMA_ARCH_ARM, &m);
	for (int i = 0; i < 3; i++)
		wrote = storage_submit(&st, &m, 0, STORAGE_RAND_WRITE, PAGE);
	assert_int_equal(wrote, 3 * 6666666ull + ARM_LAT_NS * 3);
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE),
			 wrote + ARM_RAND_READ_NS + ARM_LAT_NS);
	storage_destroy(&st);
}

/*
 * Expect (the block layer's back merge, SWAP_CLUSTER_MAX): the 32 pages
 * of one reclaim pass's swap-out, queued at one instant, are one request
 * of 128 KiB: one command, one access latency. 128 pages fill 512 KiB
 * (max_sectors); the 129th starts a request of its own.
 */
static void storage_swap_cluster_is_one_request(void **state)
{
	struct storage st = { 0 };
	struct cost_model m;
	uint64_t done = 0;

	arm_no_gc(&m);
	for (int i = 0; i < 32; i++)
		done = storage_swap_write(&st, &m, 0, PAGE);
	assert_int_equal(st.requests, 1);
	assert_int_equal(st.merges, 31);
	assert_int_equal(done, 32 * ARM_PAGE_WRITE_NS + ARM_LAT_NS);
	for (int i = 32; i < 129; i++)
		storage_swap_write(&st, &m, 0, PAGE);
	assert_int_equal(st.requests, 2);
	assert_int_equal(st.merges, 127);
	storage_destroy(&st);
}

/*
 * Expect: only a write that continues the last request joins it: the
 * next page of the same file, while that request is still queued. A page
 * further on, another file, or a request the device already took (queued
 * at an earlier instant on an idle device) start requests of their own.
 */
static void storage_merges_only_adjacent_queued_writes(void **state)
{
	struct storage st = { 0 };
	struct cost_model m;
	int a, b;

	arm_no_gc(&m);
	storage_submit_at(&st, &m, 0, STORAGE_SEQ_WRITE, PAGE, &a, 5 * PAGE);
	storage_submit_at(&st, &m, 0, STORAGE_SEQ_WRITE, PAGE, &a, 6 * PAGE);
	assert_int_equal(st.merges, 1);
	storage_submit_at(&st, &m, 0, STORAGE_SEQ_WRITE, PAGE, &a, 8 * PAGE);	/* a hole */
	storage_submit_at(&st, &m, 0, STORAGE_SEQ_WRITE, PAGE, &b, 9 * PAGE);	/* another file */
	storage_submit_at(&st, &m, 0, STORAGE_RAND_WRITE, PAGE, &b, 10 * PAGE);	/* another kind */
	assert_int_equal(st.requests, 4);
	assert_int_equal(st.merges, 1);
	storage_destroy(&st);

	/* idle device: the first write is dispatched at 0, the next at 1 us cannot join it */
	storage_submit_at(&st, &m, 0, STORAGE_SEQ_WRITE, PAGE, &a, 0);
	storage_submit_at(&st, &m, 1000, STORAGE_SEQ_WRITE, PAGE, &a, PAGE);
	assert_int_equal(st.requests, 2);
	assert_int_equal(st.merges, 0);
	storage_destroy(&st);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Expect (storage.c's published eMMC distribution, 1 MiB writes): over a
 * million seeded draws, the stalls' percentiles are the published
 * latencies less the median (19 ms) within 5%: none at p50, 1 ms at p90,
 * 3 at p95, 9 at p99, 10 at p99.9, 556 at p99.99 (within 10%, the tail's
 * steepest point); and a seed draws the same stalls again.
 */
static void storage_gc_stalls_follow_published_percentiles(void **state)
{
	static const struct { double pct, ms, tol; } want[] = {
		{ 50, 0, 0 }, { 90, 1, 0.05 }, { 95, 3, 0.05 }, { 99, 9, 0.05 },
		{ 99.9, 10, 0.05 }, { 99.99, 556, 0.10 },
	};
	enum { N = 1000000 };
	uint64_t *v = malloc(N * sizeof(*v));
	struct storage st = { 0 }, again = { 0 };

	assert_non_null(v);
	storage_seed(&st, 1);
	storage_seed(&again, 1);
	for (int i = 0; i < N; i++)
		v[i] = storage_gc_draw(&st);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(storage_gc_draw(&again), v[i]);
	qsort(v, N, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		double got = (double)v[(size_t)(want[i].pct / 100.0 * N)] / 1e6;

		assert_true(got >= want[i].ms * (1 - want[i].tol) && got <= want[i].ms * (1 + want[i].tol));
	}
	free(v);
}

/*
 * Expect: on the arm profile each MiB written draws one stall, added to
 * the write's service, so the device is busy for the transfer and the
 * stalls both; a read queued behind waits for them too. Another storage
 * seeded alike draws the same 64 stalls.
 */
static void storage_gc_stalls_occupy_the_device(void **state)
{
	struct storage st = { 0 }, ref = { 0 };
	struct cost_model m;
	uint64_t stalls = 0, wrote = 0;

	cost_profile(CMA_ARCH_ARM, &m);
	storage_seed(&st, 7);
	storage_seed(&ref, 7);
	for (int i = 0; i < 64; i++) {
		wrote = storage_submit(&st, &m, 0, STORAGE_SEQ_WRITE, 1ull << 20);
		stalls += storage_gc_draw(&ref);
	}
	assert_true(stalls > 0);
	assert_int_equal(st.gc_ns, stalls);
	assert_int_equal(st.busy_until, 64 * cost_transfer_ns(15, 1ull << 20) + 63 * ARM_LAT_NS + stalls);
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE),
			 wrote + ARM_RAND_READ_NS + ARM_LAT_NS);
	storage_destroy(&st);
}

/*
 * Expect (storage_memory: a loop device over tmpfs): the arm profile's
 * storage priced as memory, a 4 KiB random read its copy at copy_mbps
 * (700 MB/s) and its latency the loop device's work item woken
 * (wakeup_us, 20.6 us); 128 commands in flight, so a second read
 * queued with it waits only for the first's transfer; 64 MiB written
 * without a garbage collection stall. A field the scenario set stays.
 */
static void storage_memory_is_a_copy_a_request(void **state)
{
	bool set[NR_COST_FIELDS] = { [COST_STORAGE_RAND_WRITE_IOPS] = true };
	uint64_t copy_ns = (uint64_t)(1e9 / (700e6 / 4096));
	struct storage st = { 0 };
	struct cost_model m;

	cost_profile(CMA_ARCH_ARM, &m);
	cost_storage_memory(&m, set);
	assert_int_equal(m.v[COST_STORAGE_RAND_WRITE_IOPS], 150);
	assert_int_equal(m.v[COST_STORAGE_DEPTH], 128);
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE), copy_ns + 20600);
	assert_int_equal(storage_submit(&st, &m, 0, STORAGE_RAND_READ, PAGE), 2 * copy_ns + 20600);
	for (int i = 0; i < 64; i++)
		storage_submit(&st, &m, 0, STORAGE_SEQ_WRITE, 1ull << 20);
	assert_int_equal(st.gc_ns, 0);
	storage_destroy(&st);
}

/* @ini run under @policy into @r; a scenario that does not parse fails the test. */
static void run_ini(const char *ini, const char *policy, struct sim_result *r)
{
	struct sim_options o = { .policy = sim_policy_find(policy) };
	struct scenario *sc = calloc(1, sizeof(*sc));
	char err[512];

	assert_non_null(sc);
	if (scenario_parse("test.ini", ini, sc, err, sizeof(err)))
		fail_msg("the scenario does not parse: %s", err);
	assert_int_equal(sim_run(sc, &o, r), 0);
	free(sc);
}

/* A reader's pages read in during a second on the arm board, with @extra in [scenario] and @cost. */
static uint64_t reader_misses(const char *extra, const char *cost)
{
	char ini[512];
	struct sim_result r;
	uint64_t misses;

	snprintf(ini, sizeof(ini),
		 "[scenario]\nplatform = arm\nmemory = 256M\nduration = 1s\n%s"
		 "[pagecache src]\nfile = 64M\nrate = 100000\npattern = sequential\npasses = 1\n%s",
		 extra, cost);
	run_ini(ini, "cma", &r);
	misses = r.workloads[0].misses;
	sim_result_free(&r);
	return misses;
}

/*
 * Expect: on the arm board's eMMC (40 MB/s) a reader of a 64 MiB file
 * reads at most 40 MB in a second; with storage_memory it reads all of
 * its 16384 pages; and with storage_memory but the scenario's own
 * storage_read_mbps of 10, at most 10 MB: the [cost] key is kept.
 * storage_gc_mib and host_fault_us may be 0.
 */
static void storage_memory_reads_at_memory_speed(void **state)
{
	uint64_t emmc = reader_misses("", "");
	uint64_t memory = reader_misses("storage_memory = yes\n", "");
	uint64_t kept = reader_misses("storage_memory = yes\n", "[cost]\nstorage_read_mbps = 10\n");
	/* 0 is "none" for these two: accepted; a reader writes nothing, so nothing moves */
	uint64_t no_gc = reader_misses("", "[cost]\nstorage_gc_mib = 0\nhost_fault_us = 0\n");

	printf("a second's misses: eMMC %llu, memory %llu, memory at 10 MB/s %llu\n",
	       (unsigned long long)emmc, (unsigned long long)memory, (unsigned long long)kept);
	assert_true(emmc > 0 && emmc <= 40000000 / PAGE);
	assert_int_equal(memory, 16384);
	assert_true(kept > 0 && kept <= 10000000 / PAGE);
	assert_int_equal(no_gc, emmc);
}

/*
 * Expect (bench/kernel/micro-gcma.c's measurement, scaled to arm as
 * migrate_us is): gcma_alloc_contig's walk is priced per page, 22.96 ns a
 * page that held nothing and 3325.1 ns a copy dropped, not as page
 * allocator bookkeeping; with no scheduling point in the walk, seven
 * runnable threads on its CPU's run queue do not delay it under a
 * voluntary preemption kernel, and under CONFIG_PREEMPT it waits their
 * turns.
 */
static void gcma_walk_priced_from_its_measurement(void **state)
{
	struct sched_tunables t;
	struct sched_task k;
	struct cost_work w = { .gcma_free = 1000, .gcma_dropped = 100, .no_preempt = true,
			       .runnable = 7, .nr_cpus = 1, .sched = &k };
	struct cost_model m;

	cost_profile(CMA_ARCH_ARM, &m);
	sched_tunables(1, 250, &t);
	k = (struct sched_task){ .tun = &t, .nr_others = 7 };
	/* 1000 x 22.96 + 100 x 3325.1 ns, to the ns the sum of doubles rounds to */
	assert_in_range(cost_ns(&m, &w, PAGE), 355469, 355470);
	w.no_preempt = false;
	k = (struct sched_task){ .tun = &t, .nr_others = 7 };
	/* preemptible, it waits the seven others' turns on its CPU: a slice each at least */
	assert_true(cost_ns(&m, &w, PAGE) >= 355469 + 7 * t.min_gran_ns);
}

/*
 * The gcma board: 128 MiB, a 16 MiB area, a reader whose evicted pages
 * fill it with copies, one request of %s at 1.5 s, when they take about
 * half of it.
 */
#define GCMA_BOARD \
	"[scenario]\nplatform = arm\nmemory = 128M\ncmdline = cma=16M\nduration = 2s\n" \
	"[anon cc]\nrss = 64M\nrate = 20000\n" \
	"[pagecache src]\nfile = 128M\nrate = 8000\npattern = sequential\n" \
	"[device dev]\nsize = %s\nalign = 8K\nring = 1\nperiod = 100ms\nstart = 1500ms\n" \
	"session = 100ms\ngap = 10s\n%s"

/* The gcma board's request of @size with @cost ([cost] or ""): its time, and the copies dropped. */
static uint64_t gcma_request_ns(const char *size, const char *cost, uint64_t *dropped)
{
	char ini[1024];
	struct sim_result r;
	uint64_t ns;

	snprintf(ini, sizeof(ini), GCMA_BOARD, size, cost);
	run_ini(ini, "gcma", &r);
	assert_int_equal(r.devices[0].successes, 1);
	ns = r.devices[0].lat.max;
	*dropped = r.gcma.dropped_for_requests;
	sim_result_free(&r);
	return ns;
}

/*
 * Expect: the request's time moves by exactly its pages' share of each
 * constant: 3584 pages, of which the copies it dropped cost gcma_drop_ns
 * and the rest gcma_free_ns; the run is the same otherwise.
 */
static void gcma_request_pays_its_pages_constants(void **state)
{
	uint64_t dropped, again;
	uint64_t base = gcma_request_ns("14M", "[cost]\ngcma_free_ns = 100\ngcma_drop_ns = 1000\n", &dropped);
	uint64_t free_more = gcma_request_ns("14M", "[cost]\ngcma_free_ns = 200\ngcma_drop_ns = 1000\n", &again);
	uint64_t drop_more = gcma_request_ns("14M", "[cost]\ngcma_free_ns = 100\ngcma_drop_ns = 3000\n", &again);

	assert_true(dropped > 0 && dropped < 3584);
	assert_int_equal(again, dropped);
	assert_int_equal(free_more - base, (3584 - dropped) * 100);
	assert_int_equal(drop_more - base, dropped * 2000);
}

/*
 * Expect (RFC v2's gcma_alloc_page: the area's first zero bit): copies
 * fill the area from the bottom, where cma_alloc's first fit puts a
 * request, so a 1 MiB request with half the area in copies drops a copy
 * for each of its 256 pages.
 */
static void gcma_copies_take_the_lowest_slots(void **state)
{
	uint64_t dropped;

	gcma_request_ns("1M", "", &dropped);
	assert_int_equal(dropped, 256);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(storage_depth_one_serves_one_command),
		cmocka_unit_test(storage_depth_limits_commands_in_flight),
		cmocka_unit_test(storage_swap_read_waits_behind_writes),
		cmocka_unit_test(storage_swap_cluster_is_one_request),
		cmocka_unit_test(storage_merges_only_adjacent_queued_writes),
		cmocka_unit_test(storage_slot_is_the_scan_s_choice),
		cmocka_unit_test(storage_gc_stalls_follow_published_percentiles),
		cmocka_unit_test(storage_gc_stalls_occupy_the_device),
		cmocka_unit_test(storage_memory_is_a_copy_a_request),
		cmocka_unit_test(storage_memory_reads_at_memory_speed),
		cmocka_unit_test(gcma_walk_priced_from_its_measurement),
		cmocka_unit_test(gcma_request_pays_its_pages_constants),
		cmocka_unit_test(gcma_copies_take_the_lowest_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
