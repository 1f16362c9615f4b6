// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for the engine's event queue (tools/cmasim/engine/engine.c): the
 * events of the clock's window of virtual time wait in a heap, the later
 * ones in a bucket a window ahead or, further still, beyond the buckets;
 * wherever an event waits, it runs in its place in one order, by time
 * and then by scheduling order, or one seed would no longer mean one run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "helpers.h"
#include "lib/prandom.h"
#include "engine/sim.h"

#define S		1000000000ull
#define NR_EVENTS	2000
#define NR_NESTED	4	/* what a nesting event schedules when it runs */

struct event_log;

/* An event: its place in the scheduling order; a nesting one schedules more when it runs. */
struct logged_event {
	struct event_log *log;
	unsigned nr;
	bool nests;
};

/* The events scheduled, and the order they ran in. */
struct event_log {
	struct logged_event ev[NR_EVENTS * (NR_NESTED + 1)];
	unsigned scheduled, ran;
	uint64_t ran_at[NR_EVENTS * (NR_NESTED + 1)];
	unsigned ran_nr[NR_EVENTS * (NR_NESTED + 1)];
};

static void log_event(struct sim *s, void *arg);

static void schedule_logged(struct sim *s, struct event_log *l, uint64_t at, bool nests)
{
	struct logged_event *e = &l->ev[l->scheduled];

	*e = (struct logged_event){ .log = l, .nr = l->scheduled++, .nests = nests };
	sim_schedule(s, at, log_event, e);
}

/*
 * A nesting event schedules one now, one a nanosecond on, one in a
 * bucket ahead and one past the buckets' reach.
 */
static void log_event(struct sim *s, void *arg)
{
	struct logged_event *e = arg;
	struct event_log *l = e->log;

	l->ran_at[l->ran] = s->now;
	l->ran_nr[l->ran++] = e->nr;
	if (!e->nests)
		return;
	schedule_logged(s, l, s->now, false);
	schedule_logged(s, l, s->now + 1, false);
	schedule_logged(s, l, s->now + 30 * S, false);
	schedule_logged(s, l, s->now + 200 * S, false);
}

/*
 * Expect: events at random times over an hour (within the clock's
 * window, a few windows ahead, beyond the buckets' reach; many at the
 * same instant) and the events they schedule as they run all run, each
 * after every event due before it or due at its time and scheduled
 * earlier.
 */
static void sim_loop_runs_events_in_time_then_scheduling_order(void **state)
{
	static struct event_log log;
	static struct sim s;
	uint64_t rng = test_seed("sim_loop_runs_events_in_time_then_scheduling_order");
	const uint64_t spans[] = { S / 100, 3 * S, 100 * S, 3600 * S };

	for (unsigned i = 0; i < NR_EVENTS; i++) {
		uint64_t span = spans[prandom_below(&rng, 4)];
		/* a coarse grid: ties are common */
		uint64_t at = prandom_below(&rng, 64) * (span / 64);

		schedule_logged(&s, &log, at, prandom_below(&rng, 4) == 0);
	}
	sim_loop(&s, UINT64_MAX, NULL);
	assert_int_equal(log.ran, log.scheduled);
	for (unsigned i = 1; i < log.ran; i++) {
		bool in_order = log.ran_at[i - 1] < log.ran_at[i] ||
				(log.ran_at[i - 1] == log.ran_at[i] && log.ran_nr[i - 1] < log.ran_nr[i]);

		if (!in_order)
			fail_msg("run %u: event %u at %llu ns after event %u at %llu ns", i,
				 log.ran_nr[i], (unsigned long long)log.ran_at[i], log.ran_nr[i - 1],
				 (unsigned long long)log.ran_at[i - 1]);
	}
	assert_false(sim_event_due(&s, UINT64_MAX));
	sim_events_destroy(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sim_loop_runs_events_in_time_then_scheduling_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
