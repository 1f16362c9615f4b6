/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulation: a booted machine, the scenario's workloads and a
 * discrete-event engine on a virtual clock. A run is driven by one
 * thread at a time (a device request's own task and the engine's pass
 * one baton, engine/task.c) and one seeded generator, so a seed gives the same run; its state
 * is all in its struct sim and its result, so runs may go at once in
 * threads (cmasim size).
 *
 * Workloads act through the real library: their pages are owned movable
 * pages (migrated, reclaimed and written back by the library calling
 * their owner callbacks), kernel allocations are buddy allocations, and
 * devices allocate through the policy's ops (policy_*.c, listed in policy.c).
 *
 * This is all a workload, a policy or a command may use of the engine:
 * struct sim is the engine's own (engine/sim.h), reached through the
 * functions of "the run, as its workloads and policies see it" below.
 */
#ifndef CMASIM_SIM_API_H
#define CMASIM_SIM_API_H

#include <stdatomic.h>

#include "board/platform.h"
#include "scenario/scenario.h"
#include "engine/storage.h"

struct sim;
struct workload;

typedef void (*sim_event_fn)(struct sim *s, void *arg);

struct sim_event {
	uint64_t at;
	uint64_t seq;			/* ties broken in scheduling order */
	sim_event_fn fn;
	void *arg;
	unsigned cpu;			/* runs there: the CPU of the event that scheduled it */
};

struct workload_ops {
	/* Set up and schedule the first event at w->spec->start_ns. 0 or -errno (-ENOMEM). */
	int (*start)(struct sim *s, struct workload *w);
	/* Let go of everything (end of run, or the workload's stop time). */
	void (*stop)(struct sim *s, struct workload *w);
	/* OOM: free what it holds, return pages freed (NULL: not killable). */
	unsigned long (*kill)(struct sim *s, struct workload *w);
	/* Pages it holds now. */
	uint64_t (*resident)(const struct workload *w);
	/* Threads of it that want a CPU now (NULL: 0): the run queue the devices' requests share. */
	unsigned (*runnable)(const struct sim *s, const struct workload *w);
	/* Of those, the process's whose pages @owner holds (NULL: all of them, one process). */
	unsigned (*mm_runnable)(const struct sim *s, const struct workload *w, const void *owner);
	/* Does it hold a page pinned in [@start_pfn, @end_pfn)? (NULL: it pins nothing) */
	bool (*pinned_in)(struct sim *s, struct workload *w, unsigned long start_pfn,
			  unsigned long end_pfn);
	/* Add the buffers it holds to @snap's blocks' nr_device (NULL: none). */
	void (*mark_blocks)(struct sim *s, struct workload *w, struct sim_snapshot *snap);
};

struct workload {
	const struct wl_spec *spec;
	const struct workload_ops *ops;
	struct workload_result *res;
	struct device_result *dev_res;	/* devices only */
	unsigned idx;			/* in the scenario */
	bool stopped;
	void *priv;			/* the kind's state */
};

/* The policy's device memory: how a device gets and returns buffers. */
#define DEV_MAX_CHUNKS 64

struct dev_buffer {
	cma_phys_t handle;		/* physical address of the first page */
	uint64_t pages_held;		/* pages taken from the system for it */
	struct cma_page *pages[DEV_MAX_CHUNKS];	/* buddy policy: its blocks (several with scatter-gather) */
	unsigned nr_chunks;		/* 0: one run of pages_held pages from handle */
	unsigned chunk_order;
	unsigned slot;			/* carveout policy: its slot */
	struct cma_page *contig;	/* cma policy with an alignment: from dma_alloc_from_contiguous */
	bool raw;			/* the driver asked CMA itself: its pages as they were, not cleared */
};


/* ---- engine.c ---- */

/* @fn(@arg) at @at (now, if past), on the CPU of the event running now. */
void sim_schedule(struct sim *s, uint64_t at, sim_event_fn fn, void *arg);
/* The same on @cpu: the simulator's own work (writeback completions) on CPU 0. */
void sim_schedule_on(struct sim *s, uint64_t at, sim_event_fn fn, void *arg, unsigned cpu);
/* What runs now runs on @cpu (bound on s->mm, once booted), as do the events it schedules. */
void sim_set_cpu(struct sim *s, unsigned cpu);
/*
 * Run the events due up to @end_ns in order, the clock at each one's
 * time, then at @end_ns; @poll (if any) every few thousand events, with
 * the number run so far.
 * The number of events run. It stops early once s->error or s->stop is
 * set, the clock then left at the last event's time.
 */
uint64_t sim_loop(struct sim *s, uint64_t end_ns, void (*poll)(struct sim *s, uint64_t events));
uint64_t sim_rand(struct sim *s);
/* Uniform in [0, n). */
uint64_t sim_rand_below(struct sim *s, uint64_t n);
/*
 * The next @nr (at most SIM_MAX_PEEK) sim_rand_below(s, @n), if nothing
 * else draws first; draws nothing. They stay there until the next draw
 * or peek.
 */
#define SIM_MAX_PEEK 16
const uint64_t *sim_rand_peek_below(struct sim *s, uint64_t n, unsigned nr);
/* Do draws peeked at below @n still foretell the next (no other draw came between)? */
bool sim_rand_peeked(const struct sim *s, uint64_t n);
/* Exponential with mean @mean_ns, at least 1. */
uint64_t sim_rand_exp(struct sim *s, uint64_t mean_ns);
/* Workloads act every tick; @rate per second comes to this many this tick. */
#define SIM_TICK_NS (10 * 1000000ull)
uint64_t sim_tick_ops(double *carry, uint64_t rate);

/* ---- task.c: the device request in flight ---- */

/*
 * An event about to take the CMA mutex (a device's request or free, a
 * gigantic page's) while a request in flight holds it: @fn(@arg) runs
 * when that request ends, at its clock, and true is returned (the event
 * returns at once). false: nothing is in flight, go on.
 */
bool sim_defer_while_request(struct sim *s, sim_event_fn fn, void *arg);

/* ---- machine.c: the run, and the handlers it gives the engine ---- */

/*
 * Around a device request: count its cma_alloc attempts and busy
 * retries, and note the counters at its first cma_alloc_finish.
 */
void sim_trace_request(struct sim *s, bool on);
struct cost_counters;
/*
 * The counters as they stood at this request's first cma_alloc_finish
 * (the part of it cma_alloc did, before any fallback); false if none came.
 */
bool sim_cma_finish_counters(const struct sim *s, struct cost_counters *c);
/* After a request's cmasim_device_request line: where its time went (cmasim_device_latency). */
void sim_trace_latency_parts(struct sim *s, const char *dev, const struct cost_parts *p);
/* @event's line: a part of a request, its latency @ns and where it went. */
void sim_trace_parts(struct sim *s, const char *event, const char *dev, uint64_t ns, const struct cost_parts *p);
/* A line of the simulator's own in the --trace file ("event: fields"). */
void sim_trace_printf(struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Call before device-held memory changes: integrates usable memory over time. */
void sim_usable_update(struct sim *s);
/*
 * The pageblocks of @mm's [@start_pfn, @end_pfn) into @snap (blocks of
 * @pb pages from the one holding @start_pfn), none held by a device:
 * 0, or -ENOMEM.
 */
int sim_snapshot_fill(struct cma_mm *mm, unsigned long start_pfn, unsigned long end_pfn,
		      unsigned long pb, struct sim_snapshot *snap);

struct sim_options {
	const struct sim_policy_ops *policy;	/* required (policies/registry.h) */
	FILE *trace;			/* NULL: no trace */
	bool progress;			/* to stderr, for runs over a second of host time */
	uint64_t seed;			/* with seed_set: replaces the scenario's */
	bool seed_set;
	uint64_t duration_ns;		/* non-zero: replaces the scenario's */
	const char *const *dumps;	/* /proc files (cma_write_proc names) kept at the end */
	unsigned nr_dumps;		/* at most SIM_MAX_PROCS */
	/*
	 * cmasim size needs only to know whether a run serves everything:
	 * with stop_at_miss the run ends at its first failed or late
	 * request, and once *cancel (if any) is set, within a few thousand
	 * events; either way sim_result.stopped says so.
	 */
	bool stop_at_miss;
	const atomic_bool *cancel;
};

/*
 * Boot the scenario's board under @o->policy, run it and fill @res. 0,
 * -EINVAL without a policy, or -errno after saying why on stderr: -EINVAL when the machine refused the configuration or the
 * boot could not reserve a CMA area (sim_report_area_failure()), another
 * when the run failed (the boot, the setup, the machine inconsistent
 * at the end); @res is then empty.
 */
int sim_run(const struct scenario *sc, const struct sim_options *o, struct sim_result *res);

/* ---- machine_boot.c: the board of a run, booted ---- */

#define SIM_AREA_LINE_MAX 512

/* The board @sc runs on: @p, its platform, with the scenario's memory, kernel and cpus. */
void sim_board(const struct scenario *sc, struct platform *p);
/*
 * Boot @sc's board as sim_run() would under @policy (NULL: its areas
 * as declared, which the cma policy keeps) and run nothing: 0 when every
 * CMA area the command line, Kconfig and board ask for is reserved; -ENOSPC with the kernel's
 * failure line(s) in @line when one is not (the kernel boots on without
 * it); -EINVAL when the machine refuses the configuration, another
 * -errno when it does not boot (both said on stderr).
 */
int sim_check_areas(const struct scenario *sc, const struct sim_policy_ops *policy, char *line,
		    size_t len);
/*
 * The lines of @mm's kernel log saying a CMA area could not be reserved
 * or was dropped, into @line ("\n" between them): true if there is one.
 */
bool sim_area_failed(struct cma_mm *mm, char *line, size_t len);

/* ---- cma_fit.c: the largest cma= a board reserves ---- */

/* The size a CMA area is rounded up to on @sc's board, in bytes; 0 when the platform cannot be read. */
uint64_t sim_cma_alignment(const struct scenario *sc);
/*
 * The largest cma= with which every CMA area of @sc is reserved under the
 * cma policy, found by bisection over multiples of sim_cma_alignment() up
 * to the board's RAM, booting it for each (a boot is about 10 ms), into
 * *@bytes: 0 when found (*@bytes 0: even cma=0 leaves an area of the
 * board's own unreserved); -errno when the board does not boot.
 */
int sim_cma_fit(const struct scenario *sc, uint64_t *bytes);
/* On stderr: the kernel's failure line(s) @line for @sc, and the largest cma= that would fit. */
void sim_report_area_failure(const struct scenario *sc, const char *line);

/* ---- area.c: the devices' use of the CMA areas of a run ---- */

/* After boot: the machine's CMA areas into the result, their use 0. */
void sim_areas_init(struct sim *s);
/* Buffer @b is now held by a device (@held) or given back: count it in its area, if any. */
void sim_area_hold(struct sim *s, const struct dev_buffer *b, bool held);
/* At the end: the areas' mean use. */
void sim_areas_finish(struct sim *s);

/* ---- contention.c: the CPUs and locks a device's request shares ---- */

/* After boot: start measuring the background's lock rates. */
void sim_contention_start(struct sim *s);
/*
 * A request of device workload @w issued at @start_ns starts on its own
 * task: the background's runnable threads and lock rates are taken now,
 * for its clock (sim_contention_price) and its price, until
 * sim_contention_done().
 */
void sim_contention_begin(struct sim *s, const struct workload *w, uint64_t start_ns);
/*
 * Before pricing @work, the request of sim_contention_begin(): the
 * board's CPUs, the background as it was at the start, the device's task
 * on its run queue (woken if its last request ended before @start_ns),
 * and how long the CMA mutex keeps it waiting when the request went
 * through alloc_contig_range (@cma).
 */
void sim_contention_fill(struct sim *s, const struct workload *w, uint64_t start_ns, bool cma,
			 struct cost_work *work);
/*
 * The wall time the request in flight has taken for @work so far (its
 * waits for I/O and sleeps among it): its CPU work, its drains, its lock
 * waits and its waits to run; the waits and sleeps themselves left out
 * (its clock has them already).
 */
uint64_t sim_contention_price(struct sim *s, const struct cost_work *work);
/* The request took @ns from @start_ns: it held the CMA mutex (@cma) until its end; its task's vruntime kept. */
void sim_contention_done(struct sim *s, const struct workload *w, uint64_t start_ns, uint64_t ns, bool cma);
/* The background's threads wanting a CPU now (workloads' runnable hooks). */
unsigned sim_runnable(const struct sim *s);
/*
 * The CPUs besides the running task's that @w's process holding
 * @owner's pages runs on now: its mm_cpumask less the flushing CPU.
 */
unsigned sim_mm_cpus(const struct sim *s, const struct workload *w, const void *owner);
/* The runnable hook's rule for a workload touching @rate pages a second: whole CPUs its work fills. */
unsigned sim_rate_threads(const struct sim *s, uint64_t rate);

/* ---- policies (policy.c: the registry; policy_*.c) ---- */

/*
 * How devices get their buffers. Only name and alloc are required.
 * Functions returning int give 0 or -errno (-EINVAL: the configuration
 * is refused).
 */
struct sim_policy_ops {
	const char *name;
	bool opt_in;			/* compare runs it only when --policies names it */
	/* Before boot: change s->plat (areas, command line, reserve()); may set s->policy_priv. */
	int (*prepare)(struct sim *s);
	/* After boot, before the workloads start. */
	int (*attach)(struct sim *s);
	/*
	 * One buffer for device workload @w: 0 with @b filled and accounted
	 * (policy_account), or -errno with @cause set. @work gets what the
	 * allocator did.
	 */
	int (*alloc)(struct sim *s, struct workload *w, struct dev_buffer *b, struct cost_work *work,
		     enum fail_cause *cause);
	void (*free)(struct sim *s, struct workload *w, struct dev_buffer *b);
	/* Pages the rest of the system can use now (NULL: total less device-held). */
	uint64_t (*usable)(const struct sim *s);
	/* Free s->policy_priv; also after a failed prepare or attach. */
	void (*destroy)(struct sim *s);
	/*
	 * Page @idx of owner @o leaves memory through reclaim (owned.c's
	 * callback), clean or on swap: the policy may keep a copy (gcma).
	 */
	void (*evicted)(struct sim *s, const void *o, uint64_t idx, struct cma_page *page);
	/* Is there a copy of @o's page @idx? With @take it serves the fault and is gone from the policy. */
	bool (*lookup)(struct sim *s, const void *o, uint64_t idx, bool anon, bool take);
	/* @o's pages are gone (exit, truncate, OOM kill): its copies with them. */
	void (*invalidate)(struct sim *s, const void *o);
};

/*
 * @fn(@s, @arg) on the request's own task (task.c), as a device request
 * or a huge page pool's write runs: the others run while it waits, its
 * clock priced as sim_contention_price() says (between
 * sim_contention_begin() and _done()). Its waits for writes, sleeps and
 * their count are added to @work. @fn's result, or -EAGAIN with no
 * thread for it (the run ends with the error).
 */
int sim_task_call(struct sim *s, int (*fn)(struct sim *s, void *arg), void *arg, struct cost_work *work);
/* Through s->policy, with what every policy shares around it. */
int policy_alloc(struct sim *s, struct workload *w, struct dev_buffer *b, struct cost_work *work,
		 enum fail_cause *cause);
/*
 * A device request of workload @w for @b, issued at @start_ns: through
 * policy_alloc(), priced with the CPUs and locks it shares (its latency
 * into *@ns, by part into @parts), its migrations and reclaim counted in
 * the run's device totals. policy_alloc()'s result; @work what it did.
 */
int policy_request(struct sim *s, struct workload *w, struct dev_buffer *b, uint64_t start_ns,
		   struct cost_work *work, struct cost_parts *parts, enum fail_cause *cause, uint64_t *ns);
void policy_free(struct sim *s, struct workload *w, struct dev_buffer *b);
uint64_t policy_usable(const struct sim *s);

/* For the policies: @b holds @pages, zeroed unless b->raw. */
void policy_account(struct sim *s, struct dev_buffer *b, uint64_t pages, struct cost_work *work);
/* prepare() of a policy without CMA: no default area, no device areas, no board reserve(). */
int policy_without_cma(struct sim *s);
/* Whether @spec's driver asks CMA itself (an alignment beyond its size's) rather than dma_alloc_coherent. */
bool policy_driver_asks_cma(const struct sim *s, const struct wl_device *spec);
/* The flags the device's driver allocates with: GFP_ATOMIC, or its gfp key (GFP_KERNEL) */
cma_gfp_t policy_gfp(const struct wl_device *spec);
/* The order of the smallest block of at least @pages. */
unsigned policy_order_of(uint64_t pages);

/* ---- what the workloads say of themselves (their ops) ---- */

/* Does a workload hold a page pinned in [@start_pfn, @end_pfn)? */
bool sim_pinned_in(struct sim *s, unsigned long start_pfn, unsigned long end_pfn);

/* ---- the run, as its workloads and policies see it (sim_api.c) ---- */

struct cma_mm *sim_mm(const struct sim *s);
/* The virtual clock, in ns. */
uint64_t sim_now(const struct sim *s);
uint64_t sim_end_ns(const struct sim *s);
/* When the last device request's CMA mutex is free again (0 before any). */
uint64_t sim_cma_mutex_free_at(const struct sim *s);
uint64_t sim_page_bytes(const struct sim *s);
unsigned sim_max_order(const struct sim *s);
unsigned long sim_pageblock_pages(const struct sim *s);
const struct scenario *sim_scenario(const struct sim *s);
const struct platform *sim_platform(const struct sim *s);
/* The board, for a policy's prepare() to change before it boots. */
struct platform *sim_platform_to_prepare(struct sim *s);
const struct cost_model *sim_cost(const struct sim *s);
struct storage *sim_storage(struct sim *s);
/* The result being filled. */
struct sim_result *sim_run_result(const struct sim *s);
/* The policy's own state (NULL until it sets one). */
void *sim_policy_priv(const struct sim *s);
void sim_set_policy_priv(struct sim *s, void *priv);
/* Pages in use by class @c, for the timeline; a workload adds and takes away its own. */
uint64_t sim_class_pages(const struct sim *s, enum mem_class c);
void sim_account_class(struct sim *s, enum mem_class c, long delta);
/* Pins held now, and pages the writers' flushing wrote back: @delta more. */
void sim_account_pinned(struct sim *s, long delta);
void sim_account_written_back(struct sim *s, uint64_t pages);
/* The @idx-th workload of the scenario. */
struct workload *sim_workload(struct sim *s, unsigned idx);
/* The board's @i-th device, and the device a device workload drives. */
struct cma_device *sim_device(const struct sim *s, unsigned i);
struct cma_device *sim_workload_device(const struct sim *s, const struct workload *w);
/* This request's cma_alloc attempts and busy retries, from the trace probes. */
unsigned sim_cma_attempts(const struct sim *s);
unsigned sim_busy_retries(const struct sim *s);
/* Is a --trace file being written? */
bool sim_tracing(const struct sim *s);
/* A request failed or was late: the run ends here if it was asked to (stop_at_miss). */
void sim_request_missed(struct sim *s);
/* Pages of @bytes, rounded up. */
uint64_t sim_pages(const struct sim *s, uint64_t bytes);
/* The workload named @name, or NULL. */
struct workload *sim_find_workload(struct sim *s, const char *name);
/* Has @w's time come to stop? */
bool sim_wl_over(const struct sim *s, const struct workload *w);
/* A library counter of the machine (cma_mm_counter), 0 if it has none of that name. */
uint64_t sim_counter(struct sim *s, const char *name);
/* The end of a workload's stop, once it let go of its pages: its state freed, it stopped. */
void sim_workload_release(struct workload *w);

#endif
