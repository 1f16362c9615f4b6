// SPDX-License-Identifier: GPL-2.0
/*
 * A device request's own task (engine/task.c): while the request waits
 * at a scheduling point ahead of the engine's time, the engine runs the
 * events due meanwhile; what would take the CMA mutex the request holds
 * waits for its end; and the request keeps its own clock and its own
 * work whatever the events run meanwhile do.
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
#include "owners.h"
#include "sim_helpers.h"

#define NS_PER_S 1000000000ull

struct tasked {
	struct sim *s;
	struct fake_owner *o;		/* 64 clean file pages for reclaim to take */
};

/* A bare engine on a 3.5 machine with x86's storage, a run of 10 s, at time 0. */
static void tasked_init(struct tasked *c)
{
	c->s = calloc(1, sizeof(*c->s));
	assert_non_null(c->s);
	c->s->mm = test_mm(.kernel = "3.5");
	c->s->page_bytes = 4096;
	c->s->end_ns = 10 * NS_PER_S;
	cost_profile(CMA_ARCH_X86, &c->s->cost);
	storage_attach_clock(c->s, c->s->mm);
	c->o = owner_create(c->s->mm, false, 64);
	owner_fault_range(c->o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
}

static void tasked_destroy(struct tasked *c)
{
	sim_task_destroy(c->s);
	owner_destroy(c->o);
	storage_destroy(&c->s->storage);
	cma_mm_destroy(c->s->mm);
	sim_events_destroy(c->s);
	free(c->s);
}

/* What an event saw when it ran. */
struct seen {
	bool ran;
	uint64_t at;
	bool parked;		/* a request was parked meanwhile */
	bool deferred;		/* sim_defer_while_request said wait */
	uint64_t request_cpu;	/* the request's clock's work then */
};

static void note(struct sim *s, struct seen *e)
{
	e->ran = true;
	e->at = s->now;
	e->parked = sim_task_parked(s);
	e->request_cpu = s->storage.clock[1].cpu_ns;
}

static void fault_event(struct sim *s, void *arg)
{
	note(s, arg);
}

/* The request: direct reclaim, its scheduling points, and one more after it. */
static int reclaiming_request(struct sim *s, void *arg)
{
	storage_request_start(s, s->now);
	if (cma_try_to_free_pages(s->mm, 32, CMA_GFP_KERNEL) <= 0)
		return -1;
	cond_resched(s->mm);
	return 0;
}

/*
 * Expect (a task preempted at cond_resched() lets the others run): an
 * event due 1 ns into a request whose reclaim takes microseconds runs
 * before the request returns, while it is parked, at its own time; the
 * engine's clock is then at the request's end, its CPU work from 0.
 * Run at one instant (no task), the event would still be queued.
 */
static void task_runs_events_due_while_parked(void **state)
{
	struct tasked c;
	struct seen e = { 0 };

	tasked_init(&c);
	sim_schedule(c.s, 1, fault_event, &e);
	assert_int_equal(sim_task_run(c.s, 0, reclaiming_request, NULL), 0);
	assert_true(e.ran);
	assert_true(e.parked);
	assert_int_equal(e.at, 1);
	assert_true(c.s->now > 1);
	assert_int_equal(c.s->now, c.s->storage.clock[1].cpu_ns);
	assert_false(sim_event_due(c.s, UINT64_MAX));
	tasked_destroy(&c);
}

static void wants_cma_mutex(struct sim *s, void *arg)
{
	struct seen *e = arg;

	if (!e->ran && sim_defer_while_request(s, wants_cma_mutex, e)) {
		e->deferred = true;
		return;
	}
	note(s, e);
}

/*
 * Expect (cma_mutex: a second device's request waits for the first's
 * end): an event that would take the mutex, due while the request is
 * parked, waits; it runs once the request has returned, at the
 * request's end. With nothing in flight it goes on at once.
 */
static void cma_mutex_event_waits_for_the_request(void **state)
{
	struct tasked c;
	struct seen e = { 0 }, alone = { 0 };
	uint64_t end;

	tasked_init(&c);
	sim_schedule(c.s, 1, wants_cma_mutex, &e);
	assert_int_equal(sim_task_run(c.s, 0, reclaiming_request, NULL), 0);
	assert_true(e.deferred);
	assert_false(e.ran);
	end = c.s->now;
	assert_true(end > 1);
	sim_loop(c.s, c.s->end_ns, NULL);
	assert_true(e.ran);
	assert_false(e.parked);
	assert_int_equal(e.at, end);
	sim_schedule(c.s, c.s->now, wants_cma_mutex, &alone);
	sim_loop(c.s, c.s->end_ns, NULL);
	assert_false(alone.deferred);
	assert_true(alone.ran);
	tasked_destroy(&c);
}

/* A workload's fault meanwhile: its own direct reclaim and scheduling point, on the engine's clock. */
struct fault {
	struct seen seen;
	struct cost_counters before, after;	/* the counters around its work */
};

static void reclaiming_fault(struct sim *s, void *arg)
{
	struct fault *f = arg;

	cost_counters_read(s, &f->before);
	cma_try_to_free_pages(s->mm, 32, CMA_GFP_KERNEL);
	cond_resched(s->mm);
	cost_counters_read(s, &f->after);
	note(s, &f->seen);
}

/*
 * Expect: a fault run while the request is parked reaches a scheduling
 * point at a new engine time: its clock starts there (the engine's),
 * and the request's is not reset: it starts from 0, no waits, so it is
 * the request's CPU work, which is the price of the counters' growth
 * over the request less the fault's own.
 */
static void parked_request_keeps_its_clock(void **state)
{
	struct tasked c;
	struct fault f = { 0 };
	struct cost_counters start, own;
	struct cost_work w = { 0 };

	tasked_init(&c);
	cost_counters_read(c.s, &start);
	sim_schedule(c.s, 1, reclaiming_fault, &f);
	assert_int_equal(sim_task_run(c.s, 0, reclaiming_request, NULL), 0);
	assert_true(f.seen.ran && f.seen.parked);
	assert_int_equal(c.s->storage.clock[0].at, 1);
	assert_true(c.s->storage.clock[0].cpu_ns > 0);
	assert_int_equal(c.s->storage.clock[1].at, 0);
	assert_int_equal(c.s->storage.clock[1].waited_to, c.s->storage.clock[1].cpu_ns);
	own = start;
	cost_counters_add_growth(&own, &f.after, &f.before);
	cost_work_since(c.s, &own, &w);
	assert_true(f.after.stats.v[CMA_STAT_PGSCAN_DIRECT] > f.before.stats.v[CMA_STAT_PGSCAN_DIRECT]);
	assert_int_equal(c.s->storage.clock[1].cpu_ns, cost_cpu_ns(&c.s->cost, &w, c.s->page_bytes));
	tasked_destroy(&c);
}

/*
 * A busy board (four CPU-bound threads) where a camera's raw 8 MiB
 * requests (nothing cleared after) migrate a full area's pages, wait
 * for writes and retry past a journal's held metadata: run under
 * @kernel with its trace, each request's span on the engine's clock
 * (cma_alloc_start to cma_alloc_finish) and its latency.
 */
static unsigned run_busy_camera(const char *kernel, double span_ms[8], double latency_ms[8])
{
	char ini[1024], line[512];
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_options o = { .policy = sim_policy_find("cma"), .trace = tmpfile() };
	struct sim_result r;
	double start = 0, finish = 0, t;
	unsigned n = 0;
	char err[768];

	assert_non_null(sc);
	assert_non_null(o.trace);
	snprintf(ini, sizeof(ini),
		 "[scenario]\nplatform = arm\nmemory = 256M\ncmdline = cma=64M\nkernel = %s\n"
		 "duration = 4s\nseed = 1\n"
		 "[anon fill]\nrss = 165M\nrate = 200000\nhold = yes\n"
		 "[anon busy]\nrss = 1M\nrate = 1\nthreads = 4\n"
		 "[writer objects]\nfile = 32M\nrate = 20000\npattern = sequential\njournal = 12\n"
		 "dirty_expire = 30s\nstart = 1s\n"
		 "[device cam]\nsize = 8M\nalign = 16M\nring = 7\nperiod = 1s\nstart = 3s\n",
		 kernel);
	if (scenario_parse("test.ini", ini, sc, err, sizeof(err)))
		fail_msg("the test's scenario does not parse: %s", err);
	assert_int_equal(sim_run(sc, &o, &r), 0);
	rewind(o.trace);
	while (fgets(line, sizeof(line), o.trace) && n < 8) {
		const char *ev = strstr(line, "] .... ");
		const char *lat = strstr(line, " latency_ns=");

		if (!ev || sscanf(ev + 7, "%lf:", &t) != 1)
			continue;
		if (strstr(line, " cma_alloc_start: "))
			start = t;
		else if (strstr(line, " cma_alloc_finish: "))
			finish = t;
		else if (lat && strstr(line, " cmasim_device_request: ") && strstr(line, " result=ok")) {
			span_ms[n] = (finish - start) * 1e3;
			latency_ms[n++] = strtod(lat + strlen(" latency_ns="), NULL) / 1e6;
		}
	}
	fclose(o.trace);
	sim_result_free(&r);
	free(sc);
	return n;
}

/*
 * Expect: while a request runs, the others run for as long as it takes.
 * Its clock moves on at each scheduling point by the price of its work
 * so far, drains and waits to run included, as its latency prices all
 * of it; so a slow request spans on the engine's clock what its latency
 * says, within the work after its last scheduling point (its pages
 * taken off the free lists). A clock that moved by the CPU work alone
 * spans a third to a half of it here, where waits to run are most of a
 * request.
 */
static const char *const request_spans_its_latency_on_the_engine_clock_kernels[] = { "3.5", "6.12" };

static void request_spans_its_latency_on_the_engine_clock(const char *kernel, unsigned k)
{
	double span[8], lat[8];
	unsigned n = run_busy_camera(kernel, span, lat), slow = 0;

	for (unsigned i = 0; i < n; i++) {
		if (lat[i] < 20)
			continue;
		slow++;
		if (span[i] < 0.85 * lat[i] || span[i] > 1.1 * lat[i])
			fail_msg("request %u of latency %.3f ms spans %.3f ms of the engine's clock",
				 i, lat[i], span[i]);
	}
	if (slow < 3)
		fail_msg("expected 3 requests over 20 ms, found %u of %u", slow, n);
}

/*
 * Expect: a huge page pool's write runs on its own task as a request
 * does: while it compacts and waits to run among four busy threads, the
 * others run on, so it ends on the engine's clock when its latency says
 * (its trace line, written at its end, 0.85-1.1 of its latency after its
 * start at 100 ms), where a write done at one instant ends where it began.
 */
static const char *const hugetlb_write_spans_its_latency_kernels[] = { "3.5", "6.12" };

static void hugetlb_write_spans_its_latency(const char *kernel, unsigned k)
{
	char ini[768], line[512];
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_options o = { .policy = sim_policy_find("cma"), .trace = tmpfile() };
	struct sim_result r;
	double t = 0, end = -1, latency_ms = 0;
	char err[768];

	assert_non_null(sc);
	assert_non_null(o.trace);
	snprintf(ini, sizeof(ini),
		 "[scenario]\nplatform = x86\nmemory = 64M\ncmdline = cma=0\nkernel = %s\n"
		 "duration = 300ms\n"
		 "[anon bg]\nrss = 40M\nrate = 100000000\nhold = yes\nfragment = yes\n"
		 "[anon busy]\nrss = 1M\nrate = 1\nthreads = 4\n"
		 "[hugetlb huge]\nsize = 2M\ncount = 32\nstart = 100ms\n", kernel);
	if (scenario_parse("test.ini", ini, sc, err, sizeof(err)))
		fail_msg("the test's scenario does not parse: %s", err);
	assert_int_equal(sim_run(sc, &o, &r), 0);
	rewind(o.trace);
	while (fgets(line, sizeof(line), o.trace)) {
		const char *ev = strstr(line, "] .... "), *lat = strstr(line, " latency_ns=");

		if (ev && lat && strstr(line, " cmasim_hugetlb_write: ") && sscanf(ev + 7, "%lf:", &t) == 1) {
			end = t;
			latency_ms = strtod(lat + strlen(" latency_ns="), NULL) / 1e6;
		}
	}
	fclose(o.trace);
	sim_result_free(&r);
	free(sc);
	if (end < 0 || latency_ms < 5)
		fail_msg("expected a write of 5 ms or more, found %s%.3f ms", end < 0 ? "none, " : "",
			 latency_ms);
	if ((end - 0.1) * 1e3 < 0.85 * latency_ms || (end - 0.1) * 1e3 > 1.1 * latency_ms)
		fail_msg("the write of latency %.3f ms spans %.3f ms of the engine's clock", latency_ms,
			 (end - 0.1) * 1e3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(task_runs_events_due_while_parked),
		cmocka_unit_test(cma_mutex_event_waits_for_the_request),
		cmocka_unit_test(parked_request_keeps_its_clock),
	};
	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(request_spans_its_latency_on_the_engine_clock,
				 request_spans_its_latency_on_the_engine_clock_kernels),
		test_kernel_case(hugetlb_write_spans_its_latency, hugetlb_write_spans_its_latency_kernels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) +
	       test_run_kernel_cases("the request's task (per kernel)", kernel_cases);
}
