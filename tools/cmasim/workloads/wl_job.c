// SPDX-License-Identifier: GPL-2.0
/*
 * A background job of fixed work, such as a make -jN build: procs
 * processes at a time run the job's units (one compiler run each) until
 * all are done; the metric is how long that took. A unit is a process
 * lifetime with cpu / units of CPU work on average (each within +-spread
 * percent of that, drawn at random): while it computes it touches an
 * anonymous working set of rss (faulted in first, then at random, within
 * its first hot percent if given, rate
 * pages per second of CPU; a page table, an unmovable kernel page, for
 * each 2 MiB of it) and reads reads bytes at random from a source
 * tree of source bytes in the page cache; when it ends its memory is
 * freed and the next unit starts in its slot, as make starts the next
 * compiler.
 *
 * Time: every tick the processes that do not wait share the CPUs with
 * the other workloads' runnable threads (workload_ops.runnable); each
 * gets min(1, nr_cpus / runnable) of the tick. A process waits for the
 * storage when a page it reads is not in memory (a source page read in
 * or refaulted; an anonymous page swapped back in, a random read through
 * the storage queue) and stalls for what
 * direct reclaim and compaction did in its faults (cost_ns() of their
 * work); what it owes is paid from its next tick on, so with more
 * processes than CPUs one's wait is another's CPU time. Without memory
 * pressure and other runnable workloads, a job whose units divide among
 * its procs takes (cpu / procs) / min(1, nr_cpus / procs).
 */
#include <errno.h>
#include <stdlib.h>

#include "util/inifile.h"
#include "engine/owned.h"

/* Pages one page-table page maps (a PTE page of 4 KiB: 2 MiB of 4 KiB pages). */
#define PTE_SPAN	512

struct job_proc {
	struct owned_pages anon;	/* its working set */
	struct cma_page **ptes;		/* its page tables, unmovable kernel pages */
	uint64_t nr_ptes;
	uint64_t faulted;		/* pages of it touched so far */
	double done_ns;			/* CPU time its unit has had */
	double unit_ns;			/* and the CPU time it needs */
	double touch_carry, read_carry;
	double owed_ns;			/* waits not yet served */
	bool live;
};

struct job_wl {
	struct owned_pages src;		/* the source tree */
	struct job_proc *proc;
	unsigned waiting;		/* live processes owing a wait after the last tick */
	double unit_ns;			/* CPU time of a unit, on average */
	double read_rate;		/* source pages read per ns of CPU */
	uint64_t started;		/* units begun */
	double cpu_left;		/* CPU time of the units not begun */
};

/* One page read from storage, as a page-cache miss is charged. */
static double read_ns(const struct sim *s)
{
	return (double)cost_transfer_ns(sim_cost(s)->v[COST_STORAGE_READ_MBPS], sim_page_bytes(s));
}

/*
 * A swap-in: its reads (the page and those read ahead with it) through
 * the storage queue, as [anon]'s are, issued when the process's earlier
 * waits are over (it faults once it runs again); the wait is until they
 * complete, behind whatever else the device has queued (swap-outs, other
 * processes' reads). None for a page found in the swap cache.
 */
static double swap_in_ns(struct sim *s, struct job_proc *p, uint64_t idx)
{
	uint64_t at = sim_now(s) + (uint64_t)p->owed_ns;

	return (double)(owned_swapin_read(&p->anon, idx, at) - at);
}

/* The process ends (exit or OOM kill): its memory and page tables go back; the pages freed. */
static uint64_t end_proc(struct sim *s, struct job_proc *p)
{
	uint64_t freed = owned_release_all(&p->anon) + p->nr_ptes;

	while (p->nr_ptes)
		cma_free_kmem_pages(sim_mm(s), p->ptes[--p->nr_ptes], 0, CMA_KMEM_PAGETABLE);
	p->faulted = 0;
	p->done_ns = 0;
	return freed;
}

/*
 * The CPU time of the next unit: the mean of what is left, times a factor
 * within +-spread; the last unit takes what is left, so the units add up
 * to the job's CPU time exactly.
 */
static double unit_cpu(struct sim *s, struct workload *w)
{
	struct job_wl *j = w->priv;
	uint64_t left = w->res->job_units - j->started++;
	double mean = j->cpu_left / (double)left, ns = mean;

	if (left > 1 && w->spec->job.spread) {
		double u = (double)sim_rand_below(s, 1u << 20) / (double)(1u << 20);

		ns = mean * (1.0 + (2.0 * u - 1.0) * w->spec->job.spread / 100.0);
	}
	if (ns > j->cpu_left || left == 1)
		ns = j->cpu_left;
	j->cpu_left -= ns;
	return ns;
}

/* The next unit in @p's slot, if any is left: a fresh process. */
static void next_unit(struct sim *s, struct workload *w, struct job_proc *p)
{
	struct job_wl *j = w->priv;

	end_proc(s, p);
	p->live = j->started < w->res->job_units;
	if (p->live)
		p->unit_ns = unit_cpu(s, w);
}

/* @n touches of @p's working set: the pages not yet touched first, in order, then any. */
static void touch_pages(struct sim *s, struct workload *w, struct job_proc *p, uint64_t n)
{
	for (uint64_t i = 0; i < n && p->live; i++) {
		uint64_t idx = p->faulted < p->anon.nr ? p->faulted++ :
			       owned_rand_below(&p->anon, owned_hot_pages(&p->anon, w->spec->job.hot));
		bool swap_in = owned_reads(&p->anon, idx);

		/* the first touch of each 2 MiB maps a page table: __pte_alloc, GFP_KERNEL */
		if (idx % PTE_SPAN == 0 && idx + 1 == p->faulted) {
			struct cma_page *pte = cma_alloc_kmem_pages(sim_mm(s), CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0,
								    CMA_KMEM_PAGETABLE);

			if (pte)
				p->ptes[p->nr_ptes++] = pte;
			else
				w->res->alloc_failures++;
		}

		w->res->ops++;
		if (owned_touch(&p->anon, idx) > 0 && swap_in)
			p->owed_ns += swap_in_ns(s, p, idx);
	}
}

/* What @cpu_ns of computing makes @p do to memory, and the waits it brings. */
static void compute(struct sim *s, struct workload *w, struct job_proc *p, double cpu_ns)
{
	struct job_wl *j = w->priv;
	struct cost_counters before;
	struct cost_work work = { 0 };
	uint64_t touches, reads, reclaim_ns, slept = sim_storage(s)->clock[0].throttle_ns;
	double before_wait = p->owed_ns;

	cost_counters_read(s, &before);
	p->touch_carry += cpu_ns * (double)w->spec->job.rate / 1e9;
	touches = (uint64_t)p->touch_carry;
	p->touch_carry -= (double)touches;
	touch_pages(s, w, p, touches);
	p->read_carry += cpu_ns * j->read_rate;
	reads = (uint64_t)p->read_carry;
	p->read_carry -= (double)reads;
	for (uint64_t i = 0; i < reads && j->src.nr; i++) {
		w->res->ops++;
		if (owned_touch(&j->src, owned_rand_below(&j->src, j->src.nr)) > 0)
			p->owed_ns += read_ns(s);
	}
	w->res->io_wait_ns += (uint64_t)(p->owed_ns - before_wait);
	cost_work_since(s, &before, &work);
	work.throttle_ns = sim_storage(s)->clock[0].throttle_ns - slept;
	reclaim_ns = cost_ns(sim_cost(s), &work, sim_page_bytes(s));
	w->res->reclaim_wait_ns += reclaim_ns;
	p->owed_ns += (double)reclaim_ns;
}

/* @p's tick: its wait first, then its CPU share, unit after unit. */
static void run_proc(struct sim *s, struct workload *w, struct job_proc *p, double share)
{
	double wait = p->owed_ns < SIM_TICK_NS ? p->owed_ns : SIM_TICK_NS;
	double at = (double)sim_now(s) + wait, wall = SIM_TICK_NS - wait;

	p->owed_ns -= wait;
	while (p->live && wall > 0) {
		double need = (p->unit_ns - p->done_ns) / share;
		double run = need < wall ? need : wall;

		compute(s, w, p, run * share);
		w->res->job_cpu_ns += (uint64_t)(run * share);
		p->done_ns += run * share;
		wall -= run;
		at += run;
		if (run < need)
			break;
		w->res->job_units_done++;
		if (w->res->job_units_done == w->res->job_units)
			w->res->job_done_ns = (uint64_t)(at + 0.5) - w->spec->start_ns;
		next_unit(s, w, p);
	}
}

static void job_tick(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct job_wl *j = w->priv;
	unsigned nr_cpus = sim_platform(s)->cfg.nr_cpus;
	double runnable = sim_runnable(s) - w->ops->runnable(s, w), share;

	if (sim_wl_over(s, w) || w->res->job_done_ns)
		return;
	/* a process owing a wait wants the CPU for the rest of the tick only */
	for (unsigned i = 0; i < w->spec->job.procs; i++)
		if (j->proc[i].live && j->proc[i].owed_ns < SIM_TICK_NS)
			runnable += 1.0 - j->proc[i].owed_ns / SIM_TICK_NS;
	share = runnable > nr_cpus ? nr_cpus / runnable : 1.0;
	j->waiting = 0;
	for (unsigned i = 0; i < w->spec->job.procs; i++) {
		run_proc(s, w, &j->proc[i], share);
		j->waiting += j->proc[i].live && j->proc[i].owed_ns > 0;
	}
	if (!w->res->job_done_ns)
		sim_schedule(s, sim_now(s) + SIM_TICK_NS, job_tick, w);
}

static void job_begin(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct job_wl *j = w->priv;

	if (sim_wl_over(s, w))
		return;
	for (unsigned i = 0; i < w->spec->job.procs; i++)
		next_unit(s, w, &j->proc[i]);
	job_tick(s, w);
}

static void job_stop(struct sim *s, struct workload *w);

static int job_start(struct sim *s, struct workload *w)
{
	const struct wl_job *spec = &w->spec->job;
	struct job_wl *j = calloc(1, sizeof(*j));
	uint64_t units = spec->units ? spec->units : spec->procs;

	if (!j)
		return -ENOMEM;
	w->priv = j;
	j->proc = calloc(spec->procs, sizeof(*j->proc));
	if (!j->proc || owned_init(&j->src, s, w, sim_pages(s, spec->source_bytes), false))
		goto nomem;
	for (unsigned i = 0; i < spec->procs; i++) {
		uint64_t pages = sim_pages(s, spec->rss_bytes);

		j->proc[i].ptes = calloc(pages / PTE_SPAN + 1, sizeof(*j->proc[i].ptes));
		if (!j->proc[i].ptes || owned_init(&j->proc[i].anon, s, w, pages, true))
			goto nomem;
	}
	w->res->job_units = units;
	j->unit_ns = (double)spec->cpu_ns / (double)units;
	j->cpu_left = (double)spec->cpu_ns;
	j->read_rate = (double)sim_pages(s, spec->reads_bytes) / j->unit_ns;
	sim_schedule(s, w->spec->start_ns, job_begin, w);
	return 0;
nomem:
	job_stop(s, w);
	return -ENOMEM;
}

static void job_stop(struct sim *s, struct workload *w)
{
	struct job_wl *j = w->priv;

	if (!j)
		return;
	for (unsigned i = 0; j->proc && i < w->spec->job.procs; i++) {
		struct job_proc *p = &j->proc[i];

		while (p->nr_ptes)
			cma_free_kmem_pages(sim_mm(s), p->ptes[--p->nr_ptes], 0, CMA_KMEM_PAGETABLE);
		free(p->ptes);
		owned_destroy(&p->anon);
	}
	owned_destroy(&j->src);
	free(j->proc);
	free(j);
	w->priv = NULL;
	w->stopped = true;
}

/* The OOM killer takes the largest process; make runs its unit again from the start. */
static unsigned long job_kill(struct sim *s, struct workload *w)
{
	struct job_wl *j = w->priv;
	struct job_proc *victim = NULL;

	for (unsigned i = 0; j && i < w->spec->job.procs; i++)
		if (j->proc[i].anon.resident && (!victim || j->proc[i].anon.resident > victim->anon.resident))
			victim = &j->proc[i];
	if (!victim)
		return 0;
	w->res->oom_kills++;
	return end_proc(s, victim);
}

static uint64_t job_resident(const struct workload *w)
{
	const struct job_wl *j = w->priv;
	uint64_t pages;

	if (!j)
		return 0;
	pages = j->src.resident;
	for (unsigned i = 0; i < w->spec->job.procs; i++)
		pages += j->proc[i].anon.resident + j->proc[i].nr_ptes;
	return pages;
}

/* Its live processes that are not waiting for storage or reclaim. */
static unsigned job_runnable(const struct sim *s, const struct workload *w)
{
	const struct job_wl *j = w->priv;
	unsigned live = 0;

	if (!j || w->res->job_done_ns)
		return 0;
	for (unsigned i = 0; i < w->spec->job.procs; i++)
		live += j->proc[i].live;
	return live - j->waiting;
}

/* A process's own (@owner its anon): one thread, on a CPU while live and not waiting. */
static unsigned job_mm_runnable(const struct sim *s, const struct workload *w, const void *owner)
{
	const struct job_wl *j = w->priv;
	uintptr_t at = (uintptr_t)owner, base = j ? (uintptr_t)j->proc : 0;
	const struct job_proc *p;

	if (!j || w->res->job_done_ns || at < base || at >= base + w->spec->job.procs * sizeof(*p))
		return 0;
	p = &j->proc[(at - base) / sizeof(*p)];
	return owner == &p->anon && p->live && p->owed_ns <= 0;
}

static const struct workload_ops job_ops = {
	.start = job_start,
	.stop = job_stop,
	.kill = job_kill,
	.resident = job_resident,
	.runnable = job_runnable,
	.mm_runnable = job_mm_runnable,
};

#define JOB_MAX_PROCS	1024

static const struct scenario_key job_keys[] = {
	{ .name = "procs", .type = KEY_U32, .offset = WL(job.procs), .max = JOB_MAX_PROCS, .required = true },
	{ .name = "cpu", .type = KEY_DURATION, .offset = WL(job.cpu_ns), .required = true },
	{ .name = "units", .type = KEY_UINT, .offset = WL(job.units), .max = 100000000 },
	{ .name = "spread", .type = KEY_PERCENT, .offset = WL(job.spread) },
	{ .name = "rss", .type = KEY_SIZE, .offset = WL(job.rss_bytes), .max = SIM_MAX_BYTES, .required = true },
	{ .name = "rate", .type = KEY_UINT, .offset = WL(job.rate), .max = 100000000, .required = true },
	{ .name = "source", .type = KEY_SIZE, .offset = WL(job.source_bytes), .max = SIM_MAX_BYTES },
	{ .name = "reads", .type = KEY_SIZE, .offset = WL(job.reads_bytes), .max = SIM_MAX_BYTES },
	{ .name = "hot", .type = KEY_PERCENT, .offset = WL(job.hot), .given = WL(job.hot_given) },
};

static int job_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	const char *kind = w->kind->name;

	if (!w->job.procs || !w->job.cpu_ns || !w->job.rss_bytes)
		return ini_fail(err, len, "[%s %s]: procs, cpu and rss must be above 0", kind, w->name);
	if (!w->job.source_bytes != !w->job.reads_bytes)
		return ini_fail(err, len, "[%s %s]: give source and reads together (the tree, and what a unit reads of it)",
				kind, w->name);
	if (w->job.hot_given && !w->job.hot)
		return ini_fail(err, len, "[%s %s]: hot = 0: no page would be touched after the fault-in; give 1 to 100 (percent)",
				kind, w->name);
	return 1;
}

const struct wl_kind wl_kind_job = {
	.name = "job",
	.ops = &job_ops,
	WL_KEYS(job_keys),
	.check = job_check,
};
