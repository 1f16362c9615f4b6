// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for where a device request's time went (cost_ns_parts() in
 * tools/cmasim/engine/cost.c, struct latency_breakdown in result.h):
 * each kind of work the cost model prices lands in its own part, the
 * parts add up to the request's latency to the nanosecond, and a run's
 * breakdowns are its requests' own, read back from the trace's
 * cmasim_device_request and cmasim_device_latency lines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "engine/sim_api.h"
#include "policies/registry.h"

/*
 * A small ARM board under 6.12 whose camera meets every kind of cost
 * but sleeps: page cache and mapped anonymous pages
 * to migrate (copy, unmap, tlb, scan), more runnable threads than CPUs
 * (run_wait), the background's lock traffic (lock_wait), a printk per
 * migration pass on a serial console (console), buffers cleared (zero).
 * and I/O waits (io_wait): the app's swap-outs stay under writeback
 * until the eMMC has written them, and a request whose range holds such
 * pages waits for them in MIGRATE_SYNC (2.6 s for one); so 6 s of it,
 * where 4 s served too few.
 */
static const char busy_board[] =
	"[scenario]\nplatform = arm\nmemory = 64M\ncmdline = cma=24M console=ttyS0,115200n8\n"
	"printk_contig_passes = yes\ncpus = 2\nduration = 6s\nswap = 64M\nkernel = 6.12\n"
	"[pagecache files]\nfile = 96M\nrate = 8000\n"
	"[writer logs]\nfile = 32M\nrate = 20000\ndirty_expire = 5s\n"
	"[anon app]\nrss = 40M\nrate = 400000\n"
	"[device cam]\nsize = 8M\nring = 3\nperiod = 33ms\nstart = 1s\nsession = 300ms\ngap = 200ms\n";

/* The parts a run's requests must show at least, for the scenario to test what it says. */
#define BUSY_PARTS	10

static struct cost_model x86(void)
{
	struct cost_model m;

	cost_profile(CMA_ARCH_X86, &m);
	return m;
}

/* @p has time in @part alone, and that much. */
static void expect_only(const struct cost_parts *p, enum cost_part part, uint64_t ns)
{
	for (int i = 0; i < NR_COST_PARTS; i++)
		if (p->ns[i] != (i == (int)part ? ns : 0))
			fail_msg("part %s: expected %" PRIu64 " ns, found %" PRIu64, cost_part_names[i],
				 i == (int)part ? ns : 0, p->ns[i]);
}

/*
 * Expect: work of one kind lands in its part whole, priced as the cost
 * model's profile says (x86: 60 cycles a page scanned at 3300 MHz, a
 * page copied at 3800 MB/s, 1.3 us an entry unmapped, 10.1 us a TLB
 * IPI, 8000 MB/s of clearing), and waits in theirs as given.
 */
static void cost_ns_parts_each_kind_in_its_part(void **state)
{
	struct cost_model m = x86();
	struct cost_parts p;
	struct {
		struct cost_work w;
		enum cost_part part;
		uint64_t ns;
	} cases[] = {
		{ { .scanned = 3300 }, COST_PART_SCAN, 60000 },
		{ { .mapped_ptes = 10 }, COST_PART_UNMAP, 13000 },
		{ { .tlb_ipis = 6 }, COST_PART_TLB, 60600 },
		{ { .zeroed_bytes = 8000000 }, COST_PART_ZERO, 1000000 },
		{ { .handled = 33 }, COST_PART_OTHER, 4000 },
		{ { .io_wait_ns = 12345 }, COST_PART_IO_WAIT, 12345 },
		{ { .throttle_ns = 100000000 }, COST_PART_THROTTLE, 100000000 },
		{ { .cma_mutex_wait_ns = 5000 }, COST_PART_LOCK_WAIT, 5740 },
		{ { .console_chars = 72, .console_baud = 115200, .console_frame_bits = 10 },
		  COST_PART_CONSOLE, 6250000 },
	};
	struct cost_work migrated = { .migrated = 1000 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(cost_ns_parts(&m, &cases[i].w, 4096, &p), cost_ns(&m, &cases[i].w, 4096));
		expect_only(&p, cases[i].part, cases[i].ns);
	}
	/* a migrated page: its copy, and its target and LRU rounds (1.2 us) as the allocator's other work */
	assert_int_equal(cost_ns_parts(&m, &migrated, 4096, &p), 1077894 + 1200000);
	assert_int_equal(p.ns[COST_PART_COPY], 1077894);
	assert_int_equal(p.ns[COST_PART_OTHER], 1200000);
}

/*
 * Expect: on a 2-CPU run queue with one other task level with it, the
 * request's CPU work (under a slice) waits the other's turn, 8 ms
 * (engine/sched.c); its own work stays in its kinds and the wait is
 * run_wait. A drain's wait
 * for pcpu_drain_mutex is lock_wait, the drain itself drain (what it
 * costs without the mutex, within the nanosecond one truncation of the
 * pair loses), and the two add up to what the pair was priced.
 */
static void cost_ns_parts_waits_apart_from_work(void **state)
{
	struct cost_model m = x86();
	struct sched_tunables t;
	struct sched_task k;
	struct cost_work w = { .scanned = 3300, .runnable = 5, .nr_cpus = 2, .sched = &k };
	struct cost_work d = { .drains = 3, .nr_cpus = 4, .drain_mutex = true, .bg_drain_rate = 2000 };
	struct cost_work alone = d;
	struct cost_parts p;

	sched_tunables(2, 250, &t);
	k = (struct sched_task){ .tun = &t, .nr_others = 1 };
	assert_int_equal(cost_ns_parts(&m, &w, 4096, &p), 60000 + 8000000);
	assert_int_equal(p.ns[COST_PART_SCAN], 60000);
	assert_int_equal(p.ns[COST_PART_RUN_WAIT], 8000000);
	assert_int_equal(cost_parts_sum(&p), 60000 + 8000000);

	alone.drain_mutex = false;
	cost_ns_parts(&m, &d, 4096, &p);
	assert_true(p.ns[COST_PART_LOCK_WAIT] > 0);
	assert_true(p.ns[COST_PART_DRAIN] - cost_ns(&m, &alone, 4096) <= 1);
	assert_int_equal(p.ns[COST_PART_DRAIN] + p.ns[COST_PART_LOCK_WAIT], cost_ns(&m, &d, 4096));
}

/* One request of the trace: its cmasim_device_request and cmasim_device_latency lines. */
struct traced {
	char dev[SIM_NAME_MAX];
	uint64_t latency_ns;
	bool ok;
	struct cost_parts parts;
};

/* The figure after " @key=" in @line. */
static uint64_t field(const char *line, const char *key)
{
	char pat[48];
	const char *at;

	snprintf(pat, sizeof(pat), " %s=", key);
	at = strstr(line, pat);
	if (!at)
		fail_msg("no %s= in \"%.200s\"", key, line);
	return strtoull(at + strlen(pat), NULL, 10);
}

/* The line at @at into @line, without its newline; the next line. */
static const char *get_line(const char *at, char line[512])
{
	const char *end = strchr(at, '\n');

	assert_non_null(end);
	assert_true(end - at < 512);
	memcpy(line, at, (size_t)(end - at));
	line[end - at] = '\0';
	return end + 1;
}

/* The request line at @at and the breakdown line after it, into @t; the line after both. */
static const char *parse_request(const char *at, struct traced *t)
{
	char line[512];
	const char *dev;

	at = get_line(at, line);
	dev = strstr(line, " dev=");
	assert_non_null(dev);
	sscanf(dev, " dev=%31s", t->dev);
	t->latency_ns = field(line, "latency_ns");
	t->ok = !!strstr(line, " result=ok");
	at = get_line(at, line);
	if (!strstr(line, ": cmasim_device_latency: dev="))
		fail_msg("the line after a request is not its breakdown: \"%s\"", line);
	for (int i = 0; i < NR_COST_PARTS; i++)
		t->parts.ns[i] = field(line, cost_part_names[i]);
	return at;
}

/* @a and @b part by part, naming the first that differs and @what. */
static void expect_parts(const struct cost_parts *a, const struct cost_parts *b, const char *what)
{
	for (int i = 0; i < NR_COST_PARTS; i++)
		if (a->ns[i] != b->ns[i])
			fail_msg("%s, part %s: expected %" PRIu64 " ns, found %" PRIu64, what,
				 cost_part_names[i], a->ns[i], b->ns[i]);
}

/*
 * Expect, over a real run: every request's parts (served or failed) add
 * up to its latency_ns; the camera's breakdown total is its served
 * requests' parts summed, part by part, and adds up to the sum of its
 * latencies; its slowest is the first served request of the greatest
 * latency, whose parts add up to lat.max.
 */
static void run_breakdowns_are_the_requests_own(void **state)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_options o = { .policy = sim_policy_find("cma") };
	struct cost_parts total = { { 0 } }, slowest = { { 0 } };
	uint64_t served = 0, slowest_ns = 0, lat_sum = 0, nr = 0;
	struct sim_result r;
	const struct device_result *cam;
	char *text = NULL, err[768];
	size_t len = 0;
	unsigned kinds = 0;

	assert_non_null(sc);
	if (scenario_parse("busy.ini", busy_board, sc, err, sizeof(err)))
		fail_msg("the test's scenario does not parse: %s", err);
	o.trace = open_memstream(&text, &len);
	assert_non_null(o.trace);
	assert_int_equal(sim_run(sc, &o, &r), 0);
	assert_int_equal(fclose(o.trace), 0);
	for (const char *line = strstr(text, "cmasim_device_request:"); line;
	     line = strstr(line, "cmasim_device_request:")) {
		struct traced t = { .ok = false };

		line = parse_request(line, &t);
		nr++;
		if (cost_parts_sum(&t.parts) != t.latency_ns)
			fail_msg("request %" PRIu64 ": parts add up to %" PRIu64 " ns, latency_ns=%" PRIu64, nr,
				 cost_parts_sum(&t.parts), t.latency_ns);
		if (!t.ok)
			continue;
		assert_string_equal(t.dev, "cam");
		cost_parts_add(&total, &t.parts);
		if (!served++ || t.latency_ns > slowest_ns) {
			slowest = t.parts;
			slowest_ns = t.latency_ns;
		}
	}
	cam = &r.devices[0];
	assert_int_equal(nr, cam->requests);
	assert_int_equal(served, cam->successes);
	assert_true(cam->successes > 10 && cam->successes < cam->requests);
	expect_parts(&total, &cam->breakdown.total, "summed over the served requests");
	expect_parts(&slowest, &cam->breakdown.slowest, "the slowest request");
	for (size_t i = 0; i < cam->lat.nr; i++)
		lat_sum += cam->lat.ns[i];
	assert_int_equal(cost_parts_sum(&cam->breakdown.total), lat_sum);
	assert_int_equal(cost_parts_sum(&cam->breakdown.slowest), cam->lat.max);
	for (int i = 0; i < NR_COST_PARTS; i++)
		kinds += total.ns[i] > 0;
	if (kinds < BUSY_PARTS)
		fail_msg("the scenario's requests show %u parts, expected %u at least", kinds, BUSY_PARTS);
	printf("%" PRIu64 " requests, %" PRIu64 " served in %" PRIu64 " ns over %u parts; slowest %" PRIu64
	       " ns\n", nr, served, lat_sum, kinds, cam->lat.max);
	free(text);
	sim_result_free(&r);
	free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cost_ns_parts_each_kind_in_its_part),
		cmocka_unit_test(cost_ns_parts_waits_apart_from_work),
		cmocka_unit_test(run_breakdowns_are_the_requests_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
