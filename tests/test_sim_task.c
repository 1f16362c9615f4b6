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
#include <stdlib.h>

#include "helpers.h"
#include "owners.h"
#include "engine/sim.h"

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
	storage_attach_clock(c->s, c->s->mm, 1);
	c->o = owner_create(c->s->mm, false, 64);
	owner_fault_range(c->o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
}

static void tasked_destroy(struct tasked *c)
{
	sim_task_destroy(c->s);
	owner_destroy(c->o);
	storage_destroy(&c->s->storage);
	cma_mm_destroy(c->s->mm);
	free(c->s->heap);
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
	assert_int_equal(c.s->nr_events, 0);
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
	w.tlb_cpus = c.s->storage.tlb_cpus;
	assert_true(f.after.stats.v[CMA_STAT_PGSCAN_DIRECT] > f.before.stats.v[CMA_STAT_PGSCAN_DIRECT]);
	assert_int_equal(c.s->storage.clock[1].cpu_ns, cost_cpu_ns(&c.s->cost, &w, c.s->page_bytes));
	tasked_destroy(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(task_runs_events_due_while_parked),
		cmocka_unit_test(cma_mutex_event_waits_for_the_request),
		cmocka_unit_test(parked_request_keeps_its_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
