// SPDX-License-Identifier: GPL-2.0
/*
 * What a device's request shares while it runs (doc/cost-model.md, "CPU
 * contention and drains" and "Lock waits"): a CPU's run queue with the
 * background's runnable threads (sched.c), the zone and LRU locks with the
 * background's allocations, and the CMA mutex with the other devices'
 * requests. The others run while a request waits (task.c), but what it
 * shares is priced here from the moment it starts, not acted out.
 */
#include <math.h>

#include "lib/kconfig.h"
#include "engine/sim.h"

/* The background's lock traffic is measured over windows this long. */
#define BG_WINDOW_NS	(1000 * 1000000ull)

/* The background's traffic so far. */
struct bg_traffic {
	uint64_t zone, lru, drains;
};

static struct bg_traffic bg_traffic(struct sim *s)
{
	struct cma_mm_stats st;

	cma_mm_stats(s->mm, &st);
	return (struct bg_traffic){
		/* pages through the free lists: every allocation and free takes the zone lock in pcp batches */
		.zone = st.v[CMA_STAT_PGALLOC] + st.v[CMA_STAT_PGFREE],
		/* pages through the LRU lock: additions, and the isolations of kswapd's and direct reclaim's scans */
		.lru = st.v[CMA_STAT_LRU_ADD] + st.v[CMA_STAT_PGSCAN_KSWAPD] + st.v[CMA_STAT_PGSCAN_DIRECT],
		/* drain_all_pages: all of them but the devices' own */
		.drains = st.v[CMA_STAT_DRAIN_ALL_PAGES] - s->dev_drains,
	};
}

/* A window starts now, at @t. */
static void bg_window_start(struct sim *s, const struct bg_traffic *t)
{
	s->bg_at = s->now;
	s->bg_zone_pages = t->zone;
	s->bg_lru_pages = t->lru;
	s->bg_drains = t->drains;
}

/* Once a window: the rates over the window just ended. No per-page work. */
static void bg_window(struct sim *s, void *arg)
{
	struct bg_traffic t = bg_traffic(s);
	double secs = (double)(s->now - s->bg_at) / 1e9;

	if (secs > 0) {
		s->bg_zone_rate = (double)(t.zone - s->bg_zone_pages) / secs;
		s->bg_lru_rate = (double)(t.lru - s->bg_lru_pages) / secs;
		s->bg_drain_rate = (double)(t.drains - s->bg_drains) / secs;
	}
	bg_window_start(s, &t);
	sim_schedule(s, s->now + BG_WINDOW_NS, bg_window, arg);
}

/*
 * What the board's .config chose for the scheduler: the preemption model
 * (kernel/Kconfig.preempt) and CONFIG_HZ (0 when it gives none:
 * sched_tunables() takes Kconfig's default). Departure: a .config that
 * names no preemption model is priced as CONFIG_PREEMPT, all kernel work
 * sharing the CPUs, as before the model knew the choice, not as
 * Kconfig's default PREEMPT_NONE.
 */
static void kconfig_sched(const char *text, bool *no_preempt, unsigned *hz)
{
	struct kconfig *kc = NULL;
	unsigned long v = 0;
	char err[128];

	*no_preempt = false;
	*hz = 0;
	if (!kconfig_parse(text, &kc, err, sizeof(err))) {
		*no_preempt = kconfig_bool(kc, "CONFIG_PREEMPT_NONE") || kconfig_bool(kc, "CONFIG_PREEMPT_VOLUNTARY");
		if (!kconfig_get_ulong(kc, "CONFIG_HZ", 0, &v, err, sizeof(err)) && v <= 100000)
			*hz = (unsigned)v;
	}
	kconfig_free(kc);
}

/* Pages per LRU-lock round, PAGEVEC_SIZE: v3.5's 14, 15 from 4.16, 31 from 6.9. */
static unsigned lru_batch(const char *kernel)
{
	if (cma_kernel_has(kernel, "lru_batch_31") == 1)
		return 31;
	return cma_kernel_has(kernel, "lru_batch_15") == 1 ? 15 : 14;
}

void sim_contention_start(struct sim *s)
{
	struct bg_traffic t;
	unsigned hz;

	kconfig_sched(s->plat.kconfig, &s->no_preempt, &hz);
	sched_tunables(s->plat.cfg.nr_cpus, hz, &s->sched_tun);
	/* the devices' tasks have slept since before the run: the whole sleeper's credit is theirs */
	for (unsigned i = 0; i < SIM_MAX_WORKLOADS; i++)
		s->sched_lag[i] = -(int64_t)s->sched_tun.latency_ns;
	s->drain_remote = cma_kernel_has(cma_mm_kernel(s->mm), "drain_pcp_remote") == 1;
	s->drain_wq = !s->drain_remote && cma_kernel_has(cma_mm_kernel(s->mm), "drain_pcp_wq") == 1;
	s->drain_mutex = cma_kernel_has(cma_mm_kernel(s->mm), "drain_pcp_mutex") == 1;
	s->lru_batch = lru_batch(cma_mm_kernel(s->mm));
	s->cma_mutex_holder = -1;
	t = bg_traffic(s);
	bg_window_start(s, &t);
	sim_schedule(s, s->now + BG_WINDOW_NS, bg_window, NULL);
}

static bool wl_running(const struct sim *s, const struct workload *w)
{
	return !w->stopped && w->ops->runnable && w->spec->start_ns <= s->now && !sim_wl_over(s, w);
}

unsigned sim_runnable(const struct sim *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->nr_wl; i++)
		if (wl_running(s, &s->wl[i]))
			n += s->wl[i].ops->runnable(s, &s->wl[i]);
	return n;
}

unsigned sim_mm_cpus(const struct sim *s, const struct workload *w, const void *owner)
{
	unsigned threads, others = s->plat.cfg.nr_cpus - 1;

	if (!wl_running(s, w))
		return 0;
	threads = w->ops->mm_runnable ? w->ops->mm_runnable(s, w, owner) : w->ops->runnable(s, w);
	return threads < others ? threads : others;
}

/*
 * A touch of a page brings a page's worth of memory through the CPU (a
 * fault clears it, a read() copies it) and its bookkeeping: @rate such
 * touches a second keep that many CPUs busy, to the nearest whole one.
 */
unsigned sim_rate_threads(const struct sim *s, uint64_t rate)
{
	const struct cost_model *m = &s->cost;
	double op_ns = m->v[COST_PAGE_CYCLES] * 1000.0 / m->v[COST_CPU_MHZ] +
		       (double)s->page_bytes * 1000.0 / m->v[COST_COPY_MBPS];

	return (unsigned)lround((double)rate * op_ns / 1e9);
}

/* What the source's tracer hooked of a request (cma: it goes through cma_alloc) */
static enum cost_fgraph request_fgraph(const struct scenario *sc, bool cma)
{
	if (!sc->fgraph)
		return COST_FGRAPH_OFF;
	if (!sc->ftrace_filter)
		return COST_FGRAPH_ALL;
	/* a request the buddy allocator serves never enters cma_alloc */
	if (sc->ftrace_filter == COST_FGRAPH_CMA_ALLOC && !cma)
		return COST_FGRAPH_OFF;
	return sc->ftrace_filter;
}

/*
 * The device's task on a run queue: the load balancer has spread the
 * background's runnable threads evenly, and a waking task goes to the
 * least loaded CPU (select_task_rq_fair()), which has R / C of them. A
 * request that starts after the last one ended (or the device's first:
 * its task slept since the run began) woke from a sleep, while the
 * others ran; one that follows another at once runs on. The CMA mutex
 * another device holds is a sleep too.
 */
static void sched_fill(struct sim *s, const struct workload *w, uint64_t start_ns, struct cost_work *work,
		       struct sched_task *k)
{
	uint64_t end = s->sched_end[w->idx];
	bool woke = start_ns > end || !end;

	*k = (struct sched_task){
		.tun = &s->sched_tun,
		.nr_others = work->runnable / (work->nr_cpus ? work->nr_cpus : 1),
		.woke = woke,
		.lag_ns = s->sched_lag[w->idx],
		.at_ns = woke ? end : start_ns,
		.blocks = work->blocks + (work->cma_mutex_wait_ns != 0),
	};
	if (woke)
		sched_sleep(k, start_ns - end);
	work->sched = k;
}

/*
 * What the request in flight shares: the CPUs (how drain_all_pages
 * reaches the others is the profile's: IPIs, work items (4.11) or the
 * caller itself (6.0)), the tracer, and the background's threads and
 * lock traffic as they were when it started (its clock and its end price
 * its work alike).
 */
static void contention_env(struct sim *s, bool cma, struct cost_work *work)
{
	work->nr_cpus = s->plat.cfg.nr_cpus;
	work->no_preempt = s->no_preempt;
	work->runnable = s->req.runnable;
	work->remote_drain = s->drain_remote;
	work->drain_wq = s->drain_wq;
	work->fgraph = request_fgraph(s->sc, cma);
	work->lru_batch = s->lru_batch;
	work->zone_page_rate = s->req.zone_rate;
	work->lru_page_rate = s->req.lru_rate;
	/*
	 * The request's own drain_all_pages (each naming its zone) wait for
	 * a background one in progress; they are no background's traffic.
	 */
	work->drain_mutex = s->drain_mutex;
	work->bg_drain_rate = s->req.drain_rate;
}

void sim_contention_begin(struct sim *s, const struct workload *w, uint64_t start_ns)
{
	s->req.wl = w;
	s->req.start = start_ns;
	s->req.runnable = sim_runnable(s);
	s->req.zone_rate = s->bg_zone_rate;
	s->req.lru_rate = s->bg_lru_rate;
	s->req.drain_rate = s->bg_drain_rate;
}

void sim_contention_fill(struct sim *s, const struct workload *w, uint64_t start_ns, bool cma,
			 struct cost_work *work)
{
	contention_env(s, cma, work);
	s->dev_drains += work->drains - work->lru_drains;
	/* a device's own requests follow one another: only another device's keeps it waiting */
	if (cma && s->cma_mutex_holder >= 0 && (unsigned)s->cma_mutex_holder != w->idx &&
	    s->cma_mutex_free_at > start_ns)
		work->cma_mutex_wait_ns = s->cma_mutex_free_at - start_ns;
	sched_fill(s, w, start_ns, work, &s->sched_req);
}

/*
 * The request's clock moves on by this at its scheduling points, so the
 * others run for as long as it takes, drains and waits to run included:
 * the price its end gives all its work, less its waits for I/O and its
 * sleeps (the clock took them as they came) and the CMA mutex's wait
 * (before its first step).
 */
uint64_t sim_contention_price(struct sim *s, const struct cost_work *work)
{
	unsigned attempts = sim_cma_attempts(s);
	struct cost_work w = *work;
	struct sched_task k;

	w.cma_attempts = attempts ? attempts + sim_busy_retries(s) : 0;
	contention_env(s, attempts != 0, &w);
	sched_fill(s, s->req.wl, s->req.start, &w, &k);
	return cost_ns(&s->cost, &w, s->page_bytes) - w.io_wait_ns - w.throttle_ns;
}

void sim_contention_done(struct sim *s, const struct workload *w, uint64_t start_ns, uint64_t ns, bool cma)
{
	s->sched_lag[w->idx] = s->sched_req.lag_ns;
	s->sched_end[w->idx] = start_ns + ns;
	s->req.wl = NULL;
	if (!cma)
		return;
	s->cma_mutex_holder = (int)w->idx;
	s->cma_mutex_free_at = start_ns + ns;
}
