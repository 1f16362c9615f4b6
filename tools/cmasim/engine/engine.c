// SPDX-License-Identifier: GPL-2.0
/*
 * The discrete-event engine: a binary heap of events ordered by virtual
 * time and then by scheduling order, the virtual clock, one splitmix64
 * generator, and the loop. It knows only time, callbacks and the CPU an
 * event runs on (the one that scheduled it, so a workload's events stay
 * on its CPU; the library's per-CPU lists follow it): what a run
 * does (boot, workloads, sampling, snapshots, the end) are events and
 * handlers machine.c and the workloads schedule.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/prandom.h"
#include "engine/sim.h"

/* Every this many events the loop calls its poll callback. */
#define POLL_EVENTS	4096

/* ---- events ---- */

static bool event_before(const struct sim_event *a, const struct sim_event *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

void sim_schedule(struct sim *s, uint64_t at, sim_event_fn fn, void *arg)
{
	sim_schedule_on(s, at, fn, arg, s->cpu);
}

void sim_schedule_on(struct sim *s, uint64_t at, sim_event_fn fn, void *arg, unsigned cpu)
{
	struct sim_event e = { .at = at < s->now ? s->now : at, .seq = s->seq++, .fn = fn, .arg = arg,
			       .cpu = cpu };
	size_t i;

	if (s->nr_events == s->heap_cap) {
		size_t cap = s->heap_cap ? 2 * s->heap_cap : 256;
		struct sim_event *h = realloc(s->heap, cap * sizeof(*h));

		if (!h) {
			/* the event is lost: the loop stops and the run fails */
			if (!s->error)
				fprintf(stderr, "cmasim: out of memory for the event queue\n");
			s->error = -ENOMEM;
			return;
		}
		s->heap = h;
		s->heap_cap = cap;
	}
	for (i = s->nr_events++; i && event_before(&e, &s->heap[(i - 1) / 2]); i = (i - 1) / 2)
		s->heap[i] = s->heap[(i - 1) / 2];
	s->heap[i] = e;
}

void sim_set_cpu(struct sim *s, unsigned cpu)
{
	s->cpu = cpu;
	if (s->mm)
		cma_mm_bind_cpu(s->mm, cpu);
}

static struct sim_event pop_event(struct sim *s)
{
	struct sim_event top = s->heap[0], last = s->heap[--s->nr_events];
	size_t i = 0, n = s->nr_events;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && event_before(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!event_before(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = last;
	return top;
}

/* ---- randomness ---- */

/* The library's generator (lib/prandom.h), so that one seed means one sequence everywhere. */
uint64_t sim_rand(struct sim *s)
{
	return prandom_u64_state(&s->rng);
}

/*
 * Do the draws peeked at still foretell those below @n from here? Not
 * below 0: prandom_below steps nothing there, so a kept draw would.
 */
static bool peek_valid(const struct sim *s, uint64_t n)
{
	return n && s->nr_peek && s->peek_rng == s->rng && s->peek_n == n;
}

bool sim_rand_peeked(const struct sim *s, uint64_t n)
{
	return peek_valid(s, n);
}

uint64_t sim_rand_below(struct sim *s, uint64_t n)
{
	if (!peek_valid(s, n))
		return prandom_below(&s->rng, n);
	/* the draw peeked at: the generator steps as the draw would step it */
	(void)prandom_u64_state(&s->rng);
	s->peek_rng = s->rng;
	s->nr_peek--;
	return s->peek[s->peek_head++];
}

const uint64_t *sim_rand_peek_below(struct sim *s, uint64_t n, unsigned nr)
{
	assert(nr <= SIM_MAX_PEEK);
	if (!peek_valid(s, n)) {
		s->nr_peek = s->peek_head = 0;
		s->peek_rng = s->peek_end = s->rng;
		s->peek_n = n;
	}
	if (s->peek_head + nr > 2 * SIM_MAX_PEEK) {
		memmove(s->peek, s->peek + s->peek_head, s->nr_peek * sizeof(*s->peek));
		s->peek_head = 0;
	}
	for (; s->nr_peek < nr; s->nr_peek++)
		s->peek[s->peek_head + s->nr_peek] = prandom_below(&s->peek_end, n);
	return s->peek + s->peek_head;
}

uint64_t sim_rand_exp(struct sim *s, uint64_t mean_ns)
{
	double u = ((double)(sim_rand(s) >> 11) + 1.0) / 9007199254740993.0;
	double v = -log(u) * (double)mean_ns;

	return v < 1.0 ? 1 : (uint64_t)v;
}

uint64_t sim_tick_ops(double *carry, uint64_t rate)
{
	double want = (double)rate * (double)SIM_TICK_NS / 1e9 + *carry;
	uint64_t n = (uint64_t)want;

	*carry = want - (double)n;	/* the fraction left goes to the next tick */
	return n;
}

/*
 * The events due by @end_ns, in order; after the one that sets *@wake
 * (if given), no more. Those a request's waits run (task.c) count and
 * poll as the loop's own.
 */
static void run_due(struct sim *s, uint64_t end_ns, const bool *wake)
{
	while (!s->error && !s->stop && s->nr_events && s->heap[0].at <= end_ns && !(wake && *wake)) {
		struct sim_event e = pop_event(s);

		/* the next event's argument (a slab object, say, untouched for seconds) loads meanwhile */
		if (s->nr_events)
			__builtin_prefetch(s->heap[0].arg);
		s->now = e.at;
		if (e.cpu != s->cpu)
			sim_set_cpu(s, e.cpu);
		e.fn(s, e.arg);
		s->events++;
		if (s->poll && !(s->events % POLL_EVENTS))
			s->poll(s, s->events);
	}
}

uint64_t sim_loop(struct sim *s, uint64_t end_ns, void (*poll)(struct sim *s, uint64_t events))
{
	uint64_t from = s->events;

	s->poll = poll;
	run_due(s, end_ns, NULL);
	s->poll = NULL;
	if (!s->stop)
		s->now = end_ns;
	return s->events - from;
}

bool sim_event_due(const struct sim *s, uint64_t t)
{
	return s->nr_events && s->heap[0].at <= t;
}

void sim_loop_until_woken(struct sim *s, uint64_t end_ns, const bool *wake)
{
	run_due(s, end_ns, wake);
	if (!s->stop && !*wake)
		s->now = end_ns;
}
