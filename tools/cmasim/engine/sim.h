/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's own view of a run: struct sim, which only engine/ reads
 * (scripts/check-layers.sh). Everyone else has engine/sim_api.h.
 */
#ifndef CMASIM_SIM_H
#define CMASIM_SIM_H

#include "engine/sim_api.h"

#define SIM_WINDOW_SHIFT	30	/* a window of the event queue: 2^30 ns, about a second */
#define SIM_FAR_WINDOWS		64	/* windows ahead with a bucket of their own */

/* An array of events, grown as needed. */
struct sim_events {
	struct sim_event *ev;
	size_t nr, cap;
};

struct sim {
	const struct scenario *sc;
	const struct sim_policy_ops *policy;
	void *policy_priv;		/* the policy's own state */
	struct platform plat;
	struct cma_mm *mm;
	struct cma_device *devs[PLATFORM_MAX_DEVICES];
	unsigned dev_of_wl[SIM_MAX_WORKLOADS];	/* device workloads' index in devs */
	struct cost_model cost;
	uint64_t page_bytes;
	unsigned max_order;

	unsigned long pageblock_pages;
	unsigned long start_pfn, end_pfn;	/* the banks' span */

	uint64_t now;
	unsigned cpu;			/* the running event's: the library's per-CPU lists are that CPU's */
	uint64_t end_ns;
	uint64_t sample_ns;
	uint64_t seq;
	uint64_t events;		/* run so far */
	void (*poll)(struct sim *s, uint64_t events);	/* sim_loop's, while it runs */
	int error;			/* the engine's: -ENOMEM when an event could not be queued */
	bool stop;			/* the loop ends after this event: the run is stopped early */
	bool drop_pages;		/* machine_teardown, untraced: the mm goes with every page still held */
	/*
	 * The events queued (engine.c): those of the clock's window of
	 * virtual time (and before) in a heap, the later ones apart, a
	 * bucket a window ahead (far[window % SIM_FAR_WINDOWS]) and those
	 * further still in far[SIM_FAR_WINDOWS].
	 */
	struct sim_events heap;
	struct sim_events far[SIM_FAR_WINDOWS + 1];
	size_t nr_far;
	uint64_t window;		/* the heap's: its events' times >> SIM_WINDOW_SHIFT are at most this */
	uint64_t rng;
	/*
	 * sim_rand_peek_below's draws below @peek_n, kept for the draws
	 * they foretell: @nr_peek from peek[@peek_head], valid while rng is
	 * @peek_rng (@peek_end after them), so that a loop looking ahead
	 * computes each number once. A draw moves the head rather than the
	 * numbers; a peek that would run past the end moves them back to
	 * the start, once every SIM_MAX_PEEK draws at most.
	 */
	uint64_t peek[2 * SIM_MAX_PEEK], peek_rng, peek_end, peek_n;
	unsigned peek_head, nr_peek;

	struct workload wl[SIM_MAX_WORKLOADS];
	unsigned nr_wl;
	uint64_t class_pages[NR_MEM_CLASSES];
	uint64_t pinned_pages;		/* pins held now */
	uint64_t written_back;		/* by writers' flushing */
	uint64_t zram_stores;		/* pages stored by a synchronous swap device (swap_synchronous) */
	struct storage storage;		/* the board's storage queue and its writes in flight */
	uint64_t kswapd_at;		/* the woken kswapd's pending run; UINT64_MAX: asleep */
	unsigned kswapd_cpu;		/* the CPU it runs on */
	bool in_kswapd;			/* its pass runs */
	/*
	 * kswapd.c's, for storage.c's sleep ops: wake_up() of kswapd by the
	 * running task at @t; an event's task on the engine's thread at a
	 * scheduling point at @t (who preempts it there)
	 */
	void (*kswapd_woken)(struct sim *s, uint64_t t);
	void (*preempt)(struct sim *s, uint64_t t);

	/* per request, from the trace sink */
	unsigned cma_attempts;		/* cma_alloc_start events */
	unsigned busy_retries;
	bool cma_finished;		/* a cma_alloc_finish came: its counters are at_cma_finish */
	struct cost_counters at_cma_finish;
	/* contention.c: the background's lock traffic over the last window, pages per second */
	uint64_t bg_at, bg_zone_pages, bg_lru_pages;	/* the counters at the window's start */
	double bg_zone_rate, bg_lru_rate;
	uint64_t cma_mutex_free_at;	/* the CMA mutex is held until then */
	int cma_mutex_holder;		/* by this workload (-1: none yet) */
	bool no_preempt;		/* the kernel's .config chose PREEMPT_NONE or PREEMPT_VOLUNTARY */
	bool drain_remote, drain_wq;	/* how the profile's drain_all_pages reaches the other CPUs */
	unsigned lru_batch;		/* the profile's pages per LRU-lock round (contention.c) */
	/* misc2: drains take turns under pcpu_drain_mutex (4.11 on); the background's drains per second */
	bool drain_mutex;
	uint64_t bg_drains, dev_drains;	/* drain_all_pages at the window's start; the devices' own so far */
	double bg_drain_rate;
	/* sched.c: each device's task on the run queue its requests share with the background */
	struct sched_tunables sched_tun;
	struct sched_task sched_req;		/* the request being priced */
	/* the request in flight (sim_contention_begin) and what it shares, as they were when it started */
	struct {
		const struct workload *wl;	/* NULL: none in flight */
		uint64_t start;
		unsigned runnable;
		double zone_rate, lru_rate, drain_rate;
	} req;
	int64_t sched_lag[SIM_MAX_WORKLOADS];	/* its vruntime less its queue's min_vruntime, at ... */
	uint64_t sched_end[SIM_MAX_WORKLOADS];	/* ... the end of its last request */

	FILE *trace;			/* --trace: ftrace text */
	const char *const *dumps;	/* --dump: /proc files kept at the end */
	unsigned nr_dumps;
	struct sim_result *res;
	uint64_t usable_area;		/* integral of usable pages over time, in page-ms */
	uint64_t last_usable_at;
	/* the devices' use of the CMA areas (area.c): per area, then all together */
	unsigned long area_pfn[SIM_MAX_AREAS][2];	/* [start, end) */
	uint64_t area_used[SIM_MAX_AREAS + 1];
	double area_page_ns[SIM_MAX_AREAS + 1];
	uint64_t area_at;
	double host_start;
	double host_next_progress;
	bool progress;
	bool stop_at_miss;		/* sim_options' */
	const atomic_bool *cancel;
	/* task.c: the device request in flight on a thread of its own */
	struct sim_task *task;		/* NULL until the first request */
	bool in_task;			/* the request's thread holds the baton */
	struct cost_counters foreign;	/* the counters' growth by the others while it was parked */
	struct sim_deferred *deferred;	/* events waiting for its end */
	size_t nr_deferred, deferred_cap;
};

/* An event that waits for the request in flight to end (sim_defer_while_request). */
struct sim_deferred {
	sim_event_fn fn;
	void *arg;
	unsigned cpu;
};

/* ---- engine.c: the loop, from inside a request ---- */

/* Is an event due by @t? */
bool sim_event_due(struct sim *s, uint64_t t);
/* The events still queued go, never run (the end of the run). */
void sim_events_destroy(struct sim *s);
/*
 * sim_loop()'s events from inside one of them, stopping after the one
 * that sets *@wake: the clock is then that event's time, and @end_ns
 * otherwise.
 */
void sim_loop_until_woken(struct sim *s, uint64_t end_ns, const bool *wake);

/* ---- task.c: a device request's own task ---- */

/*
 * Run @fn(@s, @arg) on the request's thread, bound to @cpu, the events
 * due meanwhile run on this one whenever it waits (sim_task_wait): its
 * result. The clock is left where the request's last wait left it; what
 * waited for its end (sim_defer_while_request) is queued at that time.
 */
int sim_task_run(struct sim *s, unsigned cpu, int (*fn)(struct sim *s, void *arg), void *arg);
/*
 * From the request's thread: the others run the events due up to
 * @until (within the run), stopping early after one that sets *@wake
 * (NULL: never); the engine's clock then. From the engine's own thread
 * (no request in flight, or an event run meanwhile): nothing, s->now.
 */
uint64_t sim_task_wait(struct sim *s, uint64_t until, const bool *wake);
/* Is a request parked, the events due meanwhile running (on this thread)? */
bool sim_task_parked(const struct sim *s);
/* The thread gone, the events deferred forgotten (the end of a run). */
void sim_task_destroy(struct sim *s);

/* ---- machine_boot.c: the machine of a run, before and after it ---- */

/*
 * The scenario's board under s->policy, booted: 0, or -errno as
 * platform_boot's after printing the log and, for a refusal, the
 * configuration refused. A board that could not be described (its
 * platform unreadable, a device it lacks) was never booted: its error,
 * already said, is the only line.
 */
int machine_boot(struct sim *s);
/* 0, or -EIO if the machine is inconsistent at the end (cma_mm_verify said what). */
int machine_teardown(struct sim *s);

#endif
