// SPDX-License-Identifier: GPL-2.0
/*
 * A device request's own task. The kernel's allocating task runs beside
 * the others: while it is preempted at cond_resched() or asleep in
 * reclaim, the compilers fault, swap in and free. So the library call of
 * a request runs on a thread of its own, and the engine's thread and it
 * pass one baton: only its holder runs, so a run stays what its seed
 * makes it (and TSan sees every hand-over through the mutex). When the
 * request's clock reaches a time ahead of the engine's (sim_task_wait),
 * the engine runs the events due until then and hands the baton back.
 *
 * What the parked request holds, and why no event run meanwhile waits
 * for it (the library's sleeping locks; no spinlock is held at its
 * scheduling points, cma_mm_sleep_ops says):
 *  - cma_mutex, around alloc_contig_range (and v3.5's whole cma_alloc
 *    and cma_release, 3.x's start/undo_isolate_page_range wrappers, and
 *    alloc_contig_pages): every event that takes it is a device's, a
 *    gigantic page's or predict's (a batch evacuated, buffers taken or
 *    given back), and those wait for the request's end
 *    (sim_defer_while_request), as the kernel's mutex makes them wait;
 *  - pcpu_drain_mutex, fail_page_alloc's lock, the DMA pool's and device
 *    list's locks, ops_lock and the log's: released before any point
 *    that calls the host (none of their sections reaches cond_resched()
 *    or a sleep);
 *  - kswapd_mutex: a thread's kswapd only; cmasim's is polled, on the
 *    engine's thread, between its events.
 * Each thread keeps its own library state (cpu_binding: the request runs
 * on its device's CPU; fail_page_alloc's in_migration), as each kernel
 * task does.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"

struct sim_task {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t turn;
	bool engine;		/* the engine's thread holds the baton */
	bool busy;		/* a request is in flight */
	bool exit;
	int (*fn)(struct sim *s, void *arg);
	void *arg;
	unsigned cpu_of[2];	/* the engine's CPU and the request's, while the other runs */
	int ret;
	uint64_t until;		/* the engine is to run the events due up to this */
	const bool *wake;	/* and stop early once this is set */
};

/*
 * Give the baton to the engine (@to_engine) or to the request, t->lock
 * left held for the wait that follows; s->cpu is the holder's CPU (the
 * one its sim_schedule() calls queue on).
 */
static void pass(struct sim *s, struct sim_task *t, bool to_engine)
{
	t->cpu_of[to_engine] = s->cpu;
	s->cpu = t->cpu_of[!to_engine];
	s->in_task = !to_engine;
	s->storage.cur = !to_engine;
	pthread_mutex_lock(&t->lock);
	t->engine = to_engine;
	pthread_cond_broadcast(&t->turn);
}

/* Pass the baton, and wait to have it back. */
static void hand_over(struct sim *s, struct sim_task *t, bool to_engine)
{
	pass(s, t, to_engine);
	while (t->engine == to_engine && !t->exit)
		pthread_cond_wait(&t->turn, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

static void *task_main(void *arg)
{
	struct sim *s = arg;
	struct sim_task *t = s->task;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		while (t->engine && !t->exit)
			pthread_cond_wait(&t->turn, &t->lock);
		if (t->exit)
			break;
		pthread_mutex_unlock(&t->lock);
		cma_mm_bind_cpu(s->mm, s->cpu);
		t->ret = t->fn(s, t->arg);
		t->busy = false;
		pass(s, t, true);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

static int task_create(struct sim *s)
{
	struct sim_task *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	t->engine = true;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->turn, NULL);
	s->task = t;
	if (!pthread_create(&t->thread, NULL, task_main, s))
		return 0;
	pthread_cond_destroy(&t->turn);
	pthread_mutex_destroy(&t->lock);
	free(t);
	s->task = NULL;
	return -1;
}

/* The events due up to the request's clock: its work since it parked is not its own. */
static void run_meanwhile(struct sim *s, struct sim_task *t)
{
	struct cost_counters before, after;

	cost_counters_read(s, &before);
	sim_loop_until_woken(s, t->until, t->wake);
	cost_counters_read(s, &after);
	cost_counters_add_growth(&s->foreign, &after, &before);
}

/* What waited for the request's end runs now, in the order it came, on its CPU. */
static void run_deferred(struct sim *s)
{
	for (size_t i = 0; i < s->nr_deferred; i++)
		sim_schedule_on(s, s->now, s->deferred[i].fn, s->deferred[i].arg, s->deferred[i].cpu);
	s->nr_deferred = 0;
}

int sim_task_run(struct sim *s, unsigned cpu, int (*fn)(struct sim *s, void *arg), void *arg)
{
	unsigned engine_cpu = s->cpu;
	struct sim_task *t;

	/* no thread for the request: the run ends with the error rather than price it otherwise */
	if (!s->task && task_create(s)) {
		s->error = -EAGAIN;
		return -EAGAIN;
	}
	t = s->task;
	t->fn = fn;
	t->arg = arg;
	t->cpu_of[1] = cpu;
	t->busy = true;
	memset(&s->foreign, 0, sizeof(s->foreign));
	for (;;) {
		hand_over(s, t, false);
		if (!t->busy)
			break;
		run_meanwhile(s, t);
	}
	if (s->cpu != engine_cpu)
		sim_set_cpu(s, engine_cpu);
	run_deferred(s);
	return t->ret;
}

uint64_t sim_task_wait(struct sim *s, uint64_t until, const bool *wake)
{
	static const bool never;

	if (until > s->end_ns)
		until = s->end_ns;
	if (!s->in_task || s->stop || s->error || until <= s->now)
		return s->now;
	if (!sim_event_due(s, until)) {
		s->now = until;		/* nothing else runs meanwhile */
		return until;
	}
	s->task->until = until;
	s->task->wake = wake ? wake : &never;
	hand_over(s, s->task, true);
	return s->now;
}

bool sim_task_parked(const struct sim *s)
{
	return s->task && s->task->busy && !s->in_task;
}

bool sim_defer_while_request(struct sim *s, sim_event_fn fn, void *arg)
{
	struct sim_deferred *d;

	if (!sim_task_parked(s))
		return false;
	if (s->nr_deferred == s->deferred_cap) {
		size_t cap = s->deferred_cap ? 2 * s->deferred_cap : 16;

		d = realloc(s->deferred, cap * sizeof(*d));
		if (!d) {
			s->error = -ENOMEM;
			return true;
		}
		s->deferred = d;
		s->deferred_cap = cap;
	}
	s->deferred[s->nr_deferred++] = (struct sim_deferred){ fn, arg, s->cpu };
	return true;
}

void sim_task_destroy(struct sim *s)
{
	struct sim_task *t = s->task;

	if (t) {
		pthread_mutex_lock(&t->lock);
		t->exit = true;
		pthread_cond_broadcast(&t->turn);
		pthread_mutex_unlock(&t->lock);
		pthread_join(t->thread, NULL);
		pthread_cond_destroy(&t->turn);
		pthread_mutex_destroy(&t->lock);
		free(t);
		s->task = NULL;
	}
	free(s->deferred);
	s->deferred = NULL;
	s->nr_deferred = s->deferred_cap = 0;
}
