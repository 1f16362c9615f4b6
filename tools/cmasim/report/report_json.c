// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON report, schema "cmasim-report/1" (doc/cmasim-json.md). Every
 * number has a fixed format and every field a fixed place, so two runs
 * of one seed print the same bytes once each run's "host" object, the
 * only host-time values, is deleted.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "report/report.h"

/* An indenting writer: objects one member a line, number arrays on one line. */
struct json {
	FILE *out;
	unsigned depth;
	bool comma;		/* a value precedes at this depth */
};

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* Starts a member @key (an array element when NULL) on its own line. */
static void json_key(struct json *j, const char *key)
{
	fprintf(j->out, "%s\n%*s", j->comma ? "," : "", (int)j->depth * 2, "");
	if (key) {
		json_string(j->out, key);
		fputs(": ", j->out);
	}
	j->comma = true;
}

static void json_open(struct json *j, const char *key, char bracket)
{
	json_key(j, key);
	fputc(bracket, j->out);
	j->depth++;
	j->comma = false;
}

static void json_close(struct json *j, char bracket)
{
	j->depth--;
	fprintf(j->out, "\n%*s%c", (int)j->depth * 2, "", bracket);
	j->comma = true;
}

/* @figure is already a JSON number (one of the fmt_* helpers). */
static void json_number(struct json *j, const char *key, const char *figure)
{
	json_key(j, key);
	fputs(figure, j->out);
}

static void json_u64(struct json *j, const char *key, uint64_t v)
{
	char buf[FIGURE_MAX];

	json_number(j, key, fmt_u64(buf, v));
}

static void json_str(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j->out, s);
}

/* One field of every sample, the uint64_t at @offset; as seconds when @seconds. */
static void json_series(struct json *j, const char *key, const struct sim_result *r,
			size_t offset, bool seconds)
{
	char buf[FIGURE_MAX];
	uint64_t v;
	size_t i;

	json_key(j, key);
	fputc('[', j->out);
	for (i = 0; i < r->nr_samples; i++) {
		memcpy(&v, (const char *)&r->samples[i] + offset, sizeof(v));
		fprintf(j->out, "%s%s", i ? ", " : "", seconds ? fmt_s(buf, v) : fmt_u64(buf, v));
	}
	fputc(']', j->out);
}

static void json_latency(struct json *j, const struct sim_latency *l)
{
	char buf[FIGURE_MAX];

	json_open(j, "latency_ms", '{');
	json_number(j, "min", fmt_ms(buf, l->min));
	json_number(j, "mean", fmt_ms(buf, l->mean));
	json_number(j, "p50", fmt_ms(buf, l->p50));
	json_number(j, "p90", fmt_ms(buf, l->p90));
	json_number(j, "p99", fmt_ms(buf, l->p99));
	json_number(j, "p99_9", fmt_ms(buf, l->p99_9));
	json_number(j, "max", fmt_ms(buf, l->max));
	json_close(j, '}');
}

static void json_parts(struct json *j, const char *key, const struct cost_parts *p)
{
	char buf[FIGURE_MAX];

	json_open(j, key, '{');
	for (unsigned i = 0; i < NR_COST_PARTS; i++)
		json_number(j, cost_part_names[i], fmt_ms(buf, p->ns[i]));
	json_close(j, '}');
}

static void json_breakdown(struct json *j, const struct latency_breakdown *b)
{
	json_open(j, "latency_breakdown", '{');
	json_parts(j, "total", &b->total);
	json_parts(j, "slowest", &b->slowest);
	json_close(j, '}');
}

static void json_device(struct json *j, const struct device_result *d)
{
	char buf[FIGURE_MAX], key[FIGURE_MAX], *dash;
	unsigned c;

	json_open(j, NULL, '{');
	json_str(j, "name", d->name);
	json_u64(j, "buffer_bytes", d->buffer_bytes);
	json_number(j, "deadline_ms", fmt_ms(buf, d->deadline_ns));
	json_u64(j, "requests", d->requests);
	json_u64(j, "successes", d->successes);
	json_open(j, "failures", '{');
	for (c = 0; c < NR_FAIL_CAUSES; c++) {
		/* keys are identifiers: "too-large" becomes "too_large" */
		snprintf(key, sizeof(key), "%s", fail_cause_name(c));
		while ((dash = strchr(key, '-')))
			*dash = '_';
		json_u64(j, key, d->fail[c]);
	}
	json_close(j, '}');
	json_u64(j, "deadline_misses", d->deadline_misses);
	json_u64(j, "busy_retries", d->busy_retries);
	json_u64(j, "frames", d->frames);
	json_latency(j, &d->lat);
	json_u64(j, "over_10x_median", d->lat.over_10x_p50);
	json_breakdown(j, &d->breakdown);
	json_close(j, '}');
}

/* A hugetlb workload's nr_hugepages write. */
static void json_hugetlb(struct json *j, const struct hugetlb_result *h)
{
	char buf[FIGURE_MAX];

	json_open(j, "hugetlb", '{');
	json_u64(j, "page_kb", h->page_bytes >> 10);
	json_u64(j, "requested", h->requested);
	json_u64(j, "got", h->got);
	json_number(j, "write_ms", fmt_ms(buf, h->write_ns));
	json_open(j, "vmstat", '{');
	for (unsigned i = 0; i < NR_HUGETLB_VMSTAT; i++)
		json_u64(j, hugetlb_vmstat_names[i], h->vmstat[i]);
	json_close(j, '}');
	json_close(j, '}');
}

/* A job's completion and what stretched it. */
static void json_job(struct json *j, const struct workload_result *w)
{
	char buf[FIGURE_MAX];

	json_open(j, "job", '{');
	json_number(j, "completed", w->job_done_ns ? "true" : "false");
	json_number(j, "completion_s", w->job_done_ns ? fmt_s(buf, w->job_done_ns) : "null");
	json_u64(j, "units", w->job_units);
	json_u64(j, "units_done", w->job_units_done);
	json_number(j, "cpu_s", fmt_s(buf, w->job_cpu_ns));
	json_u64(j, "swapins", w->swapins);
	json_u64(j, "swapin_ios", w->swapin_ios);
	json_number(j, "io_wait_s", fmt_s(buf, w->io_wait_ns));
	json_number(j, "reclaim_wait_s", fmt_s(buf, w->reclaim_wait_ns));
	json_close(j, '}');
}

static void json_workload(struct json *j, const struct workload_result *w)
{
	json_open(j, NULL, '{');
	json_str(j, "name", w->name);
	json_str(j, "kind", w->kind);
	json_u64(j, "ops", w->ops);
	json_u64(j, "misses", w->misses);
	json_u64(j, "refaults", w->refaults);
	json_u64(j, "alloc_failures", w->alloc_failures);
	json_u64(j, "resident_pages", w->resident_pages);
	json_u64(j, "oom_kills", w->oom_kills);
	if (!strcmp(w->kind, "hugetlb"))
		json_hugetlb(j, &w->hugetlb);
	if (!strcmp(w->kind, "job"))
		json_job(j, w);
	json_close(j, '}');
}

/* Pages and their share of @whole, as "KEY_pages" and "KEY_percent". */
static void json_use(struct json *j, const char *key, uint64_t pages, uint64_t whole)
{
	char name[FIGURE_MAX], buf[FIGURE_MAX];

	snprintf(name, sizeof(name), "%s_pages", key);
	json_u64(j, name, pages);
	snprintf(name, sizeof(name), "%s_percent", key);
	json_number(j, name, fmt_percent(buf, pages, whole));
}

/* An area's origin as a stable key (doc/cmasim-json.md). */
static const char *const area_origin_key[] = {
	[AREA_FROM_DT] = "device_tree", [AREA_FROM_CMDLINE] = "cmdline",
	[AREA_FROM_KCONFIG] = "kconfig", [AREA_FROM_DECLARED] = "dma_declare_contiguous",
};

/* The CMA areas and the devices' use of them; null without one. */
static void json_cma(struct json *j, const struct sim_result *r)
{
	const struct area_result *a;

	if (!r->nr_areas) {
		json_number(j, "cma", "null");
		return;
	}
	json_open(j, "cma", '{');
	json_u64(j, "pages", areas_pages(r));
	json_use(j, "device_peak", r->area_peak_pages, areas_pages(r));
	json_use(j, "device_mean", r->area_mean_pages, areas_pages(r));
	json_open(j, "areas", '[');
	for (a = r->areas; a < r->areas + r->nr_areas; a++) {
		json_open(j, NULL, '{');
		json_str(j, "name", a->name);
		json_u64(j, "base", a->base);
		json_u64(j, "pages", a->pages);
		json_use(j, "device_peak", a->peak_pages, a->pages);
		json_use(j, "device_mean", a->mean_pages, a->pages);
		json_str(j, "origin", area_origin_key[a->origin]);
		if (a->origin == AREA_FROM_DT)
			json_str(j, "dt_node", a->dt_node);
		else
			json_number(j, "dt_node", "null");
		json_close(j, '}');
	}
	json_close(j, ']');
	json_close(j, '}');
}

static void json_system(struct json *j, const struct sim_result *r)
{
	char buf[FIGURE_MAX];

	json_open(j, "system", '{');
	json_u64(j, "usable_avg_pages", r->usable_avg_pages);
	json_u64(j, "usable_min_pages", r->usable_min_pages);
	json_u64(j, "refaults", r->refaults);
	json_u64(j, "oom_kills", r->oom_kills);
	json_u64(j, "pages_migrated", r->pages_migrated);
	json_u64(j, "pages_reclaimed", r->pages_reclaimed);
	json_u64(j, "pages_written_back", r->pages_written_back);
	json_u64(j, "usable_given_up_avg_pages", given_up_pages(r, r->usable_avg_pages));
	json_u64(j, "usable_given_up_max_pages", given_up_pages(r, r->usable_min_pages));
	json_u64(j, "device_migrated_pages", r->device_migrated);
	json_u64(j, "device_reclaimed_pages", r->device_reclaimed);
	json_number(j, "frag_index", fmt_frag(buf, r->frag_index));
	json_u64(j, "frag_order", r->frag_order);
	json_close(j, '}');
}

/* Opens object @key when @on, else writes it null: whether it opened. */
static bool json_object_or_null(struct json *j, const char *key, bool on)
{
	if (on) {
		json_open(j, key, '{');
		return true;
	}
	json_key(j, key);
	fputs("null", j->out);
	return false;
}

/* One use of the gcma area: its puts, gets, hits and hit ratio. */
static void json_gcma_use(struct json *j, const char *key, const struct gcma_result *g, int i)
{
	char buf[FIGURE_MAX];

	json_open(j, key, '{');
	json_u64(j, "puts", g->puts[i]);
	json_u64(j, "gets", g->gets[i]);
	json_u64(j, "hits", g->hits[i]);
	json_number(j, "hit_percent", fmt_percent(buf, g->hits[i], g->gets[i]));
	json_close(j, '}');
}

/* The gcma policy's area; null under the others. */
static void json_gcma(struct json *j, const struct sim_result *r)
{
	const struct gcma_result *g = &r->gcma;
	char buf[FIGURE_MAX];

	if (!json_object_or_null(j, "gcma", g->on))
		return;
	json_u64(j, "area_pages", g->area_pages);
	json_gcma_use(j, "cleancache", g, 0);
	json_gcma_use(j, "frontswap", g, 1);
	json_u64(j, "refused", g->refused);
	json_u64(j, "dropped_for_requests", g->dropped_for_requests);
	json_u64(j, "requests_dropping", g->requests_dropping);
	json_u64(j, "max_dropped", g->max_dropped);
	json_u64(j, "dropped_oldest", g->dropped_oldest);
	json_u64(j, "invalidated", g->invalidated);
	json_u64(j, "held_mean_pages", g->held_mean_pages);
	json_u64(j, "held_peak_pages", g->held_peak_pages);
	json_u64(j, "worth_pages", g->worth_pages);
	json_number(j, "copy_ms", fmt_ms(buf, g->copy_ns));
	json_number(j, "read_saved_ms", fmt_ms(buf, g->read_saved_ns));
	json_close(j, '}');
}

/* The predict policy's predictions and advance work; null under the others. */
static void json_predict(struct json *j, const struct sim_result *r)
{
	const struct predict_result *p = &r->predict;
	char buf[FIGURE_MAX];

	if (!json_object_or_null(j, "predict", p->on))
		return;
	json_u64(j, "predictions", p->predictions);
	json_u64(j, "hits", p->hits);
	json_u64(j, "early", p->early);
	json_u64(j, "misses", p->misses);
	json_number(j, "hit_percent", fmt_percent(buf, p->hits, p->predictions));
	json_u64(j, "served", p->served);
	json_u64(j, "take_failures", p->take_failures);
	json_u64(j, "released_unused", p->released_unused);
	json_u64(j, "advance_batches", p->advance_batches);
	json_u64(j, "advance_migrated_pages", p->advance_migrated);
	json_number(j, "advance_ms", fmt_ms(buf, p->advance_ns));
	json_number(j, "wasted_ms", fmt_ms(buf, p->wasted_ns));
	json_u64(j, "held_mean_pages", p->held_mean_pages);
	json_u64(j, "pool_pages", p->pool_pages);
	json_u64(j, "pool_served", p->pool_served);
	json_close(j, '}');
}

static void json_timeline(struct json *j, const struct sim_result *r)
{
	unsigned c;

	json_open(j, "timeline", '{');
	json_series(j, "t_s", r, offsetof(struct sim_sample, t_ns), true);
	json_series(j, "free", r, offsetof(struct sim_sample, free_pages), false);
	json_series(j, "cma_free", r, offsetof(struct sim_sample, cma_free_pages), false);
	json_series(j, "dirty", r, offsetof(struct sim_sample, dirty_pages), false);
	json_series(j, "writeback", r, offsetof(struct sim_sample, writeback_pages), false);
	json_series(j, "dirty_thresh", r, offsetof(struct sim_sample, dirty_thresh), false);
	json_open(j, "used", '{');
	for (c = 0; c < NR_MEM_CLASSES; c++)
		json_series(j, mem_class_name(c), r,
			    offsetof(struct sim_sample, used) + c * sizeof(uint64_t), false);
	json_close(j, '}');
	json_close(j, '}');
}

/*
 * Three characters a block: its migrate type's letter ('-' for a hole),
 * how full it is in tenths rounded down ('0'..'9', 'X' for full), and
 * '.' (no device pages), 'd' (some) or 'D' (every valid page).
 */
static void json_blocks(struct json *j, const struct sim_snapshot *s)
{
	const struct snap_block *b;
	unsigned long i;
	unsigned tenths;

	json_key(j, "blocks");
	fputc('"', j->out);
	for (i = 0; i < s->nr_blocks; i++) {
		b = &s->blocks[i];
		tenths = block_used_permille(b) / 100;
		fputc(block_style(b)->code, j->out);
		fputc(tenths == 10 ? 'X' : '0' + tenths, j->out);
		fputc(!b->nr_device ? '.' : b->nr_device >= b->nr_pages ? 'D' : 'd', j->out);
	}
	fputc('"', j->out);
}

static void json_snapshot(struct json *j, const struct sim_snapshot *s)
{
	char buf[FIGURE_MAX];

	json_open(j, NULL, '{');
	json_number(j, "t_s", fmt_s(buf, s->t_ns));
	json_u64(j, "start_pfn", s->start_pfn);
	json_u64(j, "pageblock_pages", s->pageblock_pages);
	json_blocks(j, s);
	json_close(j, '}');
}

static void json_host(struct json *j, const struct sim_result *r)
{
	char buf[FIGURE_MAX];

	json_open(j, "host", '{');
	snprintf(buf, sizeof(buf), "%.6f", r->host_seconds);
	json_number(j, "seconds", buf);
	snprintf(buf, sizeof(buf), "%.0f", r->host_seconds > 0 ? r->events / r->host_seconds : 0.0);
	json_number(j, "events_per_second", buf);
	json_close(j, '}');
}

static void json_run(struct json *j, const struct sim_result *r)
{
	unsigned i;

	json_open(j, NULL, '{');
	json_str(j, "policy", r->policy);
	json_str(j, "kernel", r->kernel);
	json_u64(j, "page_bytes", r->page_bytes);
	json_u64(j, "total_pages", r->total_pages);
	json_u64(j, "carveout_pages", r->carveout_pages);
	json_u64(j, "cma_pages", r->cma_pages);
	json_cma(j, r);
	json_u64(j, "events", r->events);
	json_open(j, "devices", '[');
	for (i = 0; i < r->nr_devices; i++)
		json_device(j, &r->devices[i]);
	json_close(j, ']');
	json_open(j, "workloads", '[');
	for (i = 0; i < r->nr_workloads; i++)
		json_workload(j, &r->workloads[i]);
	json_close(j, ']');
	json_system(j, r);
	json_gcma(j, r);
	json_predict(j, r);
	json_timeline(j, r);
	json_open(j, "snapshots", '[');
	for (i = 0; i < r->nr_snapshots; i++)
		json_snapshot(j, &r->snapshots[i]);
	json_close(j, ']');
	json_open(j, "proc", '{');
	for (i = 0; i < r->nr_procs; i++)
		json_str(j, r->procs[i].name, r->procs[i].text);
	json_close(j, '}');
	json_host(j, r);
	json_close(j, '}');
}

int report_json(const struct sim_result *runs, unsigned nr, FILE *out)
{
	struct json j = { .out = out };
	char buf[FIGURE_MAX];
	unsigned i;

	if (!nr)
		return -1;
	fputc('{', out);
	j.depth = 1;
	json_str(&j, "schema", "cmasim-report/1");
	json_str(&j, "scenario", runs[0].scenario);
	json_str(&j, "platform", runs[0].platform);
	json_u64(&j, "seed", runs[0].seed);
	json_number(&j, "duration_s", fmt_s(buf, runs[0].duration_ns));
	json_open(&j, "runs", '[');
	for (i = 0; i < nr; i++)
		json_run(&j, &runs[i]);
	json_close(&j, ']');
	fputs("\n}\n", out);
	return ferror(out) ? -1 : 0;
}
