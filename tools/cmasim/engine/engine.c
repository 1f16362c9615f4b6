// SPDX-License-Identifier: GPL-2.0
/*
 * The discrete-event engine: a binary heap of events ordered by virtual
 * time and then by scheduling order (the later ones waiting apart, a
 * bucket a window of virtual time), the virtual clock, one splitmix64
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

/*
 * A slab workload's frees, seconds ahead, would make the heap tens of
 * thousands deep, each step of a pop a cache miss. So the heap holds
 * only the events of the clock's window of virtual time; a later one
 * waits in its window's bucket and joins the heap when the window comes.
 * The order is the heap's still: each event of a window is in the heap
 * before the first of them runs, and none of a later window is.
 */

static bool event_before(const struct sim_event *a, const struct sim_event *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

static uint64_t event_window(const struct sim_event *e)
{
	return e->at >> SIM_WINDOW_SHIFT;
}

/* Room for one more in @v: 0, or -ENOMEM (the run fails, said once). */
static int events_grow(struct sim *s, struct sim_events *v)
{
	size_t cap = v->cap ? 2 * v->cap : 256;
	struct sim_event *ev;

	if (v->nr < v->cap)
		return 0;
	ev = realloc(v->ev, cap * sizeof(*ev));
	if (!ev) {
		/* the event is lost: the loop stops and the run fails */
		if (!s->error)
			fprintf(stderr, "cmasim: out of memory for the event queue\n");
		s->error = -ENOMEM;
		return -ENOMEM;
	}
	v->ev = ev;
	v->cap = cap;
	return 0;
}

static void heap_push(struct sim *s, const struct sim_event *e)
{
	struct sim_event *h;
	size_t i;

	if (events_grow(s, &s->heap))
		return;
	h = s->heap.ev;
	for (i = s->heap.nr++; i && event_before(e, &h[(i - 1) / 2]); i = (i - 1) / 2)
		h[i] = h[(i - 1) / 2];
	h[i] = *e;
}

/* Event @e waits apart: in its window's bucket, or past the buckets' reach in the last one. */
static void far_push(struct sim *s, const struct sim_event *e)
{
	uint64_t w = event_window(e);
	struct sim_events *v = &s->far[w - s->window <= SIM_FAR_WINDOWS ? w % SIM_FAR_WINDOWS :
									    SIM_FAR_WINDOWS];

	if (events_grow(s, v))
		return;
	v->ev[v->nr++] = *e;
	s->nr_far++;
}

/* The event goes where its window says: the heap, or a bucket ahead. */
static void queue_event(struct sim *s, const struct sim_event *e)
{
	if (event_window(e) <= s->window)
		heap_push(s, e);
	else
		far_push(s, e);
}

void sim_schedule(struct sim *s, uint64_t at, sim_event_fn fn, void *arg)
{
	sim_schedule_on(s, at, fn, arg, s->cpu);
}

void sim_schedule_on(struct sim *s, uint64_t at, sim_event_fn fn, void *arg, unsigned cpu)
{
	struct sim_event e = { .at = at < s->now ? s->now : at, .seq = s->seq++, .fn = fn, .arg = arg,
			       .cpu = cpu };

	queue_event(s, &e);
}

void sim_set_cpu(struct sim *s, unsigned cpu)
{
	s->cpu = cpu;
	if (s->mm)
		cma_mm_bind_cpu(s->mm, cpu);
}

/*
 * Bucket @v's events queued again, from the clock's window now. Those
 * that go back into @v itself are written at or before the one read.
 */
static void requeue(struct sim *s, struct sim_events *v)
{
	size_t n = v->nr;

	v->nr = 0;
	s->nr_far -= n;
	for (size_t i = 0; i < n; i++)
		queue_event(s, &v->ev[i]);
}

/*
 * Bucket @v's window has come: its events to the heap, and its room, if
 * nothing went back into it, to malloc, where the buckets filling next
 * find it (a bucket fills once in SIM_FAR_WINDOWS windows; fresh memory
 * costs a page fault a page).
 */
static void release_bucket(struct sim *s, struct sim_events *v)
{
	requeue(s, v);
	if (!v->nr) {
		free(v->ev);
		*v = (struct sim_events){ 0 };
	}
}

/* The first window an event beyond the buckets waits for. */
static uint64_t first_far_window(const struct sim *s)
{
	const struct sim_events *v = &s->far[SIM_FAR_WINDOWS];
	uint64_t w = UINT64_MAX;

	for (size_t i = 0; i < v->nr; i++)
		if (event_window(&v->ev[i]) < w)
			w = event_window(&v->ev[i]);
	return w;
}

/*
 * The heap ran dry: on to the next window with an event. Those beyond
 * the buckets come nearer each time the buckets have gone round (or
 * at once, when only they are left).
 */
static void next_window(struct sim *s)
{
	struct sim_events *beyond = &s->far[SIM_FAR_WINDOWS];

	if (s->nr_far == beyond->nr) {
		s->window = first_far_window(s);
		requeue(s, beyond);
		return;
	}
	s->window++;
	if (!(s->window % SIM_FAR_WINDOWS))
		requeue(s, beyond);
	release_bucket(s, &s->far[s->window % SIM_FAR_WINDOWS]);
}

/* The first event queued, or NULL. */
static const struct sim_event *first_event(struct sim *s)
{
	while (!s->heap.nr && s->nr_far)
		next_window(s);
	return s->heap.nr ? &s->heap.ev[0] : NULL;
}

static struct sim_event pop_event(struct sim *s)
{
	struct sim_event *h = s->heap.ev;
	struct sim_event top = h[0], last = h[--s->heap.nr];
	size_t i = 0, n = s->heap.nr;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && event_before(&h[c + 1], &h[c]))
			c++;
		if (!event_before(&h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = last;
	return top;
}

void sim_events_destroy(struct sim *s)
{
	free(s->heap.ev);
	s->heap = (struct sim_events){ 0 };
	for (unsigned i = 0; i <= SIM_FAR_WINDOWS; i++) {
		free(s->far[i].ev);
		s->far[i] = (struct sim_events){ 0 };
	}
	s->nr_far = 0;
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
	const struct sim_event *first;

	while (!s->error && !s->stop && (first = first_event(s)) && first->at <= end_ns &&
	       !(wake && *wake)) {
		struct sim_event e = pop_event(s);

		/* the next event's argument (a slab object, say, untouched for seconds) loads meanwhile */
		if (s->heap.nr)
			__builtin_prefetch(s->heap.ev[0].arg);
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

bool sim_event_due(struct sim *s, uint64_t t)
{
	const struct sim_event *first = first_event(s);

	return first && first->at <= t;
}

void sim_loop_until_woken(struct sim *s, uint64_t end_ns, const bool *wake)
{
	run_due(s, end_ns, wake);
	if (!s->stop && !*wake)
		s->now = end_ns;
}
