// SPDX-License-Identifier: GPL-2.0
/*
 * A run on the engine: the machine booted (machine_boot.c), then the
 * handlers the engine calls back (sampling, snapshots, kswapd, progress,
 * the trace sink), and at the end the figures, the /proc dumps and the
 * teardown.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/dirty.h"
#include "engine/kcompactd.h"
#include "engine/kswapd.h"
#include "engine/sim.h"

#define NS_PER_S	1000000000ull
#define MAX_SAMPLES	100000
#define VMSTAT_INTERVAL	(1000 * 1000000ull)	/* vmstat_update: every second */

static double host_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the trace: ftrace text, and the attempts the cost model needs ---- */

static void trace_line(struct sim *s, const char *line)
{
	fprintf(s->trace, "          cmasim-1     [000] .... %5llu.%06llu: %s\n",
		(unsigned long long)(s->now / NS_PER_S),
		(unsigned long long)(s->now % NS_PER_S / 1000), line);
}

static void trace_sink(void *ctx, const char *event, const char *line)
{
	trace_line(ctx, line);
}

static void count_cma_attempt(void *ctx, const struct cma_trace_event *ev)
{
	struct sim *s = ctx;

	s->cma_attempts++;
}

static void count_busy_retry(void *ctx, const struct cma_trace_event *ev)
{
	struct sim *s = ctx;

	s->busy_retries++;
}

/* The counters at the request's first cma_alloc_finish: what cma_alloc alone did. */
static void note_cma_finish(void *ctx, const struct cma_trace_event *ev)
{
	struct sim *s = ctx;

	if (s->cma_finished)
		return;
	cost_counters_read(s, &s->at_cma_finish);
	s->cma_finished = true;
}

void sim_trace_printf(struct sim *s, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	if (!s->trace)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	trace_line(s, line);
}

/* "dev=DEV[ latency_ns=NS] PART=NS ..." into @line; latency_ns only if @ns. */
static void format_parts(char *line, size_t len, const char *dev, const uint64_t *ns, const struct cost_parts *p)
{
	int n = ns ? snprintf(line, len, "dev=%s latency_ns=%llu", dev, (unsigned long long)*ns) :
		     snprintf(line, len, "dev=%s", dev);

	for (int i = 0; i < NR_COST_PARTS && n > 0 && (size_t)n < len; i++)
		n += snprintf(line + n, len - (size_t)n, " %s=%llu", cost_part_names[i],
			      (unsigned long long)p->ns[i]);
}

/* Where the request's @p went, a line beside its cmasim_device_request. */
void sim_trace_latency_parts(struct sim *s, const char *dev, const struct cost_parts *p)
{
	char line[256];

	if (!s->trace)
		return;		/* no formatting per request for a trace nobody writes */
	format_parts(line, sizeof(line), dev, NULL, p);
	sim_trace_printf(s, "cmasim_device_latency: %s", line);
}

void sim_trace_parts(struct sim *s, const char *event, const char *dev, uint64_t ns, const struct cost_parts *p)
{
	char line[256];

	if (!s->trace)
		return;
	format_parts(line, sizeof(line), dev, &ns, p);
	sim_trace_printf(s, "%s: %s", event, line);
}

static void trace_header(FILE *f)
{
	fprintf(f, "# tracer: nop\n#\n"
		   "#           TASK-PID     CPU#  ||||    TIMESTAMP  FUNCTION\n"
		   "#              | |         |   ||||       |         |\n");
}

void sim_trace_request(struct sim *s, bool on)
{
	if (on) {
		s->busy_retries = s->cma_attempts = 0;
		s->cma_finished = false;
	}
	/* probes, not the text: formatting every page's event would cost the run its speed */
	cma_mm_set_trace_probe(s->mm, CMA_TRACE_CMA_ALLOC_START, on ? count_cma_attempt : NULL, s);
	cma_mm_set_trace_probe(s->mm, CMA_TRACE_CMA_ALLOC_BUSY_RETRY, on ? count_busy_retry : NULL, s);
	cma_mm_set_trace_probe(s->mm, CMA_TRACE_CMA_ALLOC_FINISH, on ? note_cma_finish : NULL, s);
}

bool sim_cma_finish_counters(const struct sim *s, struct cost_counters *c)
{
	if (s->cma_finished)
		*c = s->at_cma_finish;
	return s->cma_finished;
}

/* ---- what the run records ---- */

/* Device memory is about to change: account the time it was as it was. */
void sim_usable_update(struct sim *s)
{
	uint64_t usable = policy_usable(s);

	s->usable_area += (uint64_t)((double)usable * (double)(s->now - s->last_usable_at) / 1e6);
	s->last_usable_at = s->now;
	if (usable < s->res->usable_min_pages)
		s->res->usable_min_pages = usable;
}

static void sample(struct sim *s, void *arg)
{
	struct sim_result *r = s->res;
	struct sim_sample *smp = &r->samples[r->nr_samples++];
	struct dirty_state d;

	smp->t_ns = s->now;
	smp->free_pages = sim_counter(s, "nr_free_pages");
	smp->cma_free_pages = sim_counter(s, "nr_free_cma");
	memcpy(smp->used, s->class_pages, sizeof(smp->used));
	dirty_state(s, &d);
	smp->dirty_pages = d.dirty;
	smp->writeback_pages = d.writeback;
	smp->dirty_thresh = d.thresh;
	if (s->now + s->sample_ns <= s->end_ns)
		sim_schedule(s, s->now + s->sample_ns, sample, NULL);
}

int sim_snapshot_fill(struct cma_mm *mm, unsigned long start_pfn, unsigned long end_pfn,
		      unsigned long pb, struct sim_snapshot *snap)
{
	snap->start_pfn = start_pfn & ~(pb - 1);
	snap->pageblock_pages = pb;
	snap->nr_blocks = (end_pfn - snap->start_pfn + pb - 1) / pb;
	snap->blocks = calloc(snap->nr_blocks, sizeof(*snap->blocks));
	if (!snap->blocks)
		return -ENOMEM;
	for (unsigned long i = 0; i < snap->nr_blocks; i++) {
		struct cma_pageblock_stat st;
		struct snap_block *b = &snap->blocks[i];

		if (cma_pageblock_free(mm, snap->start_pfn + i * pb, &st)) {
			b->migratetype = 0xff;
			continue;
		}
		b->migratetype = (uint8_t)st.migratetype;
		b->nr_pages = (uint16_t)st.nr_pages;
		b->nr_free = (uint16_t)st.nr_free;
	}
	return 0;
}

static void snapshot(struct sim *s, void *arg)
{
	struct sim_snapshot *snap = &s->res->snapshots[s->res->nr_snapshots];

	snap->t_ns = s->now;
	if (sim_snapshot_fill(s->mm, s->start_pfn, s->end_pfn, s->pageblock_pages, snap))
		return;
	snap->page_bytes = s->page_bytes;
	for (unsigned i = 0; i < s->nr_wl; i++)
		if (s->wl[i].ops->mark_blocks)
			s->wl[i].ops->mark_blocks(s, &s->wl[i], snap);
	s->res->nr_snapshots++;
}

/* select_bad_process(): the killable workload holding the most pages. */
static unsigned long sim_oom(void *ctx, struct cma_mm *mm, unsigned order)
{
	struct sim *s = ctx;
	struct workload *victim = NULL;
	uint64_t most = 0;

	for (unsigned i = 0; i < s->nr_wl; i++) {
		struct workload *w = &s->wl[i];
		uint64_t held = w->ops->kill && w->ops->resident ? w->ops->resident(w) : 0;

		if (held > most) {
			most = held;
			victim = w;
		}
	}
	if (!victim)
		return 0;
	sim_trace_printf(s, "mark_victim: comm=%s pages=%llu order=%u", victim->spec->name,
			 (unsigned long long)most, order);
	return victim->ops->kill(s, victim);
}

bool sim_pinned_in(struct sim *s, unsigned long start_pfn, unsigned long end_pfn)
{
	for (unsigned i = 0; i < s->nr_wl; i++)
		if (s->wl[i].ops->pinned_in && s->wl[i].ops->pinned_in(s, &s->wl[i], start_pfn, end_pfn))
			return true;
	return false;
}

/* sysctl_stat_interval: every CPU's vmstat work once a second (6.7's per-CPU list decay). */
static void vmstat_update(struct sim *s, void *arg)
{
	cma_vmstat_update(s->mm);
	sim_schedule(s, s->now + VMSTAT_INTERVAL, vmstat_update, NULL);
}

/* Every few thousand events: a cancelled run stops; a long one says how far it is. */
static void host_poll(struct sim *s, uint64_t events)
{
	double t;

	if (s->cancel && atomic_load_explicit(s->cancel, memory_order_relaxed))
		s->stop = true;
	if (!s->progress)
		return;
	t = host_now();
	if (t < s->host_next_progress)
		return;
	s->host_next_progress = t + 1.0;
	if (t - s->host_start >= 1.0)
		fprintf(stderr, "cmasim: %s: %.1f s of %.1f s simulated (%.0f%%), %llu events\n",
			s->policy->name, (double)s->now / 1e9, (double)s->end_ns / 1e9,
			100.0 * (double)s->now / (double)s->end_ns, (unsigned long long)events);
}

/* ---- setting up ---- */

static int init_workloads(struct sim *s)
{
	struct sim_result *r = s->res;
	unsigned nr_dev = 0;

	r->workloads = calloc(s->sc->nr_wl, sizeof(*r->workloads));
	r->devices = calloc(s->sc->nr_wl, sizeof(*r->devices));
	if (!r->workloads || !r->devices)
		return -ENOMEM;
	r->nr_workloads = s->nr_wl = s->sc->nr_wl;
	for (unsigned i = 0; i < s->nr_wl; i++) {
		struct workload *w = &s->wl[i];

		w->spec = &s->sc->wl[i];
		w->ops = w->spec->kind->ops;
		w->idx = i;
		w->res = &r->workloads[i];
		snprintf(w->res->name, sizeof(w->res->name), "%s", w->spec->name);
		snprintf(w->res->kind, sizeof(w->res->kind), "%s", w->spec->kind->name);
		if (w->spec->kind->device) {
			w->dev_res = &r->devices[nr_dev++];
			snprintf(w->dev_res->name, sizeof(w->dev_res->name), "%s", w->spec->name);
			w->dev_res->buffer_bytes = w->spec->device.buffer_bytes;
			w->dev_res->deadline_ns = w->spec->device.deadline_ns;
		}
	}
	r->nr_devices = nr_dev;
	for (unsigned i = 0; i < s->nr_wl; i++) {
		int ret;

		/* its first events, and so all it schedules after, run on its CPU */
		sim_set_cpu(s, s->wl[i].spec->cpu);
		ret = s->wl[i].ops->start(s, &s->wl[i]);
		if (ret)
			return ret;
	}
	sim_set_cpu(s, 0);
	return 0;
}

static int init_result(struct sim *s, const struct sim_options *o)
{
	struct sim_result *r = s->res;
	uint64_t nr_samples = s->end_ns / s->sample_ns + 2;

	snprintf(r->scenario, sizeof(r->scenario), "%s", s->sc->name);
	snprintf(r->platform, sizeof(r->platform), "%s", s->plat.name);
	snprintf(r->policy, sizeof(r->policy), "%s", s->policy->name);
	snprintf(r->kernel, sizeof(r->kernel), "%s", cma_mm_kernel(s->mm));
	r->seed = o->seed_set ? o->seed : s->sc->seed;
	r->duration_ns = s->end_ns;
	r->page_bytes = s->page_bytes;
	r->samples = calloc(nr_samples, sizeof(*r->samples));
	r->snapshots = calloc(SIM_MAX_SNAPSHOTS, sizeof(*r->snapshots));
	if (!r->samples || !r->snapshots)
		return -ENOMEM;
	r->total_pages = sim_counter(s, "nr_free_pages") + r->carveout_pages;
	r->cma_pages = sim_counter(s, "nr_free_cma");
	sim_areas_init(s);
	r->usable_min_pages = UINT64_MAX;
	return 0;
}

static void finish(struct sim *s)
{
	struct sim_result *r = s->res;

	sim_usable_update(s);
	sim_areas_finish(s);
	r->usable_avg_pages = s->now ? (uint64_t)((double)s->usable_area * 1e6 / (double)s->now) : 0;
	r->stopped = s->stop;
	r->stopped_ns = s->stop ? s->now : 0;
	if (r->usable_min_pages == UINT64_MAX)
		r->usable_min_pages = policy_usable(s);
	r->frag_order = s->max_order - 1;
	cma_fragmentation_index(s->mm, r->frag_order, &r->frag_index);
	r->pages_migrated = sim_counter(s, "pgmigrate_success");
	r->pages_reclaimed = 0;
	for (unsigned i = 0; i < 5; i++) {
		static const char *const zones[] = { "dma", "dma32", "normal", "high", "movable" };
		char name[64];

		snprintf(name, sizeof(name), "pgsteal_kswapd_%s", zones[i]);
		r->pages_reclaimed += sim_counter(s, name);
		snprintf(name, sizeof(name), "pgsteal_direct_%s", zones[i]);
		r->pages_reclaimed += sim_counter(s, name);
	}
	/* and the clean pages alloc_contig_range freed (3.8), which no pgsteal counts */
	r->pages_reclaimed += sim_counter(s, "contig_reclaim_clean");
	r->pages_written_back = sim_counter(s, "nr_vmscan_write") + s->written_back;
	for (unsigned i = 0; i < s->nr_wl; i++) {
		struct workload *w = &s->wl[i];

		w->res->resident_pages = w->ops->resident ? w->ops->resident(w) : 0;
		r->refaults += w->res->refaults;
		r->oom_kills += w->res->oom_kills;
	}
	for (unsigned i = 0; i < r->nr_devices; i++)
		sim_latency_finish(&r->devices[i].lat);
	for (unsigned i = 0; i < s->nr_dumps && i < SIM_MAX_PROCS; i++) {
		struct sim_proc *p = &r->procs[r->nr_procs];
		size_t len = 0;
		FILE *f = open_memstream(&p->text, &len);

		if (!f)
			continue;
		cma_write_proc(s->mm, s->dumps[i], f);
		if (fclose(f)) {
			free(p->text);
			p->text = NULL;
			continue;
		}
		snprintf(p->name, sizeof(p->name), "%s", s->dumps[i]);
		r->nr_procs++;
	}
}

int sim_run(const struct scenario *sc, const struct sim_options *o, struct sim_result *res)
{
	struct sim *s = calloc(1, sizeof(*s));
	char line[SIM_AREA_LINE_MAX];
	int ret;

	if (!s || !o->policy) {
		free(s);
		return s ? -EINVAL : -ENOMEM;
	}
	memset(res, 0, sizeof(*res));
	s->sc = sc;
	s->policy = o->policy;
	s->res = res;
	s->trace = o->trace;
	s->progress = o->progress;
	s->stop_at_miss = o->stop_at_miss;
	s->cancel = o->cancel;
	s->dumps = o->dumps;
	s->nr_dumps = o->nr_dumps;
	s->rng = o->seed_set ? o->seed : sc->seed;
	storage_seed(&s->storage, s->rng);
	s->end_ns = o->duration_ns ? o->duration_ns : sc->duration_ns;
	/* at most MAX_SAMPLES points on the timeline, however fine the scenario asks */
	s->sample_ns = sc->sample_ns ? sc->sample_ns : s->end_ns / 200;
	if (s->sample_ns < s->end_ns / MAX_SAMPLES)
		s->sample_ns = s->end_ns / MAX_SAMPLES;
	if (!s->sample_ns)
		s->sample_ns = 1;
	ret = machine_boot(s);
	if (ret) {
		machine_teardown(s);
		free(s);
		return ret;
	}
	if (sim_area_failed(s->mm, line, sizeof(line))) {
		machine_teardown(s);
		free(s);
		sim_report_area_failure(sc, line);
		return -EINVAL;
	}
	if (s->trace) {
		trace_header(s->trace);
		cma_mm_set_trace(s->mm, trace_sink, s);
	}
	cma_mm_set_oom_handler(s->mm, sim_oom, s);
	storage_attach_clock(s, s->mm);
	ret = sim_kswapd_start(s);
	sim_kcompactd_start(s);
	/* the result's total is the boot's: a policy's attach may take memory for good (gcma) */
	if (!ret)
		ret = init_result(s, o);
	if (!ret && s->policy->attach)
		ret = s->policy->attach(s);
	if (!ret)
		ret = init_workloads(s);
	if (ret) {
		cma_mm_dmesg(s->mm, stderr);
		fprintf(stderr, "cmasim: %s: could not set up the scenario's workloads or devices (see above)\n",
			s->policy->name);
		machine_teardown(s);
		free(s);
		/* a setup that fails on a booted machine is never the configuration's refusal */
		return ret < 0 && ret != -EINVAL ? ret : -EIO;
	}
	sample(s, NULL);
	for (unsigned i = 0; i < sc->nr_snapshots; i++)
		sim_schedule(s, sc->snapshot_ns[i], snapshot, NULL);
	sim_schedule(s, VMSTAT_INTERVAL, vmstat_update, NULL);
	sim_contention_start(s);
	s->host_start = host_now();
	s->host_next_progress = s->host_start + 1.0;
	res->events = sim_loop(s, s->end_ns, s->progress || s->cancel ? host_poll : NULL);
	ret = s->error;
	finish(s);
	if (machine_teardown(s))
		ret = -EIO;
	res->host_seconds = host_now() - s->host_start;
	free(s);
	if (ret)
		sim_result_free(res);
	return ret;
}
