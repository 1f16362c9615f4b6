// SPDX-License-Identifier: GPL-2.0
/*
 * Figures the reports share (see report.h). The comparison table is
 * defined here once, as row numbers: each device of the first run gives
 * DEV_FIGURES rows, the system SYS_FIGURES more.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cma/cma.h>
#include "report/report.h"

const struct block_style block_styles[NR_BLOCK_STYLES] = {
	[CMA_MIGRATE_UNMOVABLE]		= { "Unmovable", 'U', 0, 70 },
	[CMA_MIGRATE_RECLAIMABLE]	= { "Reclaimable", 'R', 30, 85 },
	[CMA_MIGRATE_MOVABLE]		= { "Movable", 'M', 120, 50 },
	[CMA_MIGRATE_RESERVE]		= { "Reserve (3.5) or HighAtomic (6.12)", 'V', 280, 45 },
	[CMA_MIGRATE_CMA]		= { "CMA", 'C', 210, 75 },
	[CMA_MIGRATE_ISOLATE]		= { "Isolate", 'I', 55, 90 },
	[BLOCK_STYLE_HOLE]		= { "hole", '-', 0, 0 },
};

const char *fmt_ms(char buf[FIGURE_MAX], uint64_t ns)
{
	snprintf(buf, FIGURE_MAX, "%.3f", ns / 1e6);
	return buf;
}

const char *fmt_s(char buf[FIGURE_MAX], uint64_t ns)
{
	snprintf(buf, FIGURE_MAX, "%.6f", ns / 1e9);
	return buf;
}

const char *fmt_mib(char buf[FIGURE_MAX], uint64_t bytes)
{
	snprintf(buf, FIGURE_MAX, "%.1f", bytes / 1048576.0);
	return buf;
}

const char *fmt_u64(char buf[FIGURE_MAX], uint64_t v)
{
	snprintf(buf, FIGURE_MAX, "%" PRIu64, v);
	return buf;
}

/* In integers: -1000 must print "-1.000" and -5 "-0.005", which %d.%03d alone would not. */
const char *fmt_frag(char buf[FIGURE_MAX], int frag_index)
{
	unsigned a = frag_index < 0 ? -(unsigned)frag_index : (unsigned)frag_index;

	snprintf(buf, FIGURE_MAX, "%s%u.%03u", frag_index < 0 ? "-" : "", a / 1000, a % 1000);
	return buf;
}

bool runs_mixed_kernels(const struct sim_result *runs, unsigned nr)
{
	for (unsigned i = 1; i < nr; i++)
		if (strcmp(runs[i].kernel, runs[0].kernel))
			return true;
	return false;
}

const char *run_label(const struct sim_result *runs, unsigned nr, unsigned i, char buf[LABEL_MAX])
{
	if (runs_mixed_kernels(runs, nr))
		snprintf(buf, LABEL_MAX, "%s %s", runs[i].policy, runs[i].kernel);
	else
		snprintf(buf, LABEL_MAX, "%s", runs[i].policy);
	return buf;
}

const char *fmt_host(char buf[LABEL_MAX], const struct sim_result *runs, unsigned nr)
{
	double seconds = 0;
	uint64_t events = 0;
	unsigned i;

	for (i = 0; i < nr; i++) {
		seconds += runs[i].host_seconds;
		events += runs[i].events;
	}
	snprintf(buf, LABEL_MAX, "host: %.2f s, %" PRIu64 " events", seconds, events);
	return buf;
}

/* SNAP_HOLE, or a block with no valid page whatever its type says. */
bool block_is_hole(const struct snap_block *b)
{
	return b->migratetype >= CMA_MIGRATE_TYPES || !b->nr_pages;
}

const struct block_style *block_style(const struct snap_block *b)
{
	if (block_is_hole(b))
		return &block_styles[BLOCK_STYLE_HOLE];
	return &block_styles[b->migratetype];
}

unsigned block_used_permille(const struct snap_block *b)
{
	if (!b->nr_pages || b->nr_free >= b->nr_pages)
		return 0;
	return (b->nr_pages - b->nr_free) * 1000u / b->nr_pages;
}

const char *fmt_percent(char buf[FIGURE_MAX], uint64_t part, uint64_t whole)
{
	snprintf(buf, FIGURE_MAX, "%.1f", whole ? 100.0 * (double)part / (double)whole : 0.0);
	return buf;
}

/* ---- the CMA areas ---- */

const char *const area_heads[AREA_COLS] = {
	"CMA area", "base", "MiB", "pages", "device peak", "peak %", "device mean", "mean %", "origin",
};

const char *area_origin_text(const struct area_result *a, char buf[LABEL_MAX])
{
	static const char *const what[] = {
		[AREA_FROM_CMDLINE] = "cma= on the command line",
		[AREA_FROM_KCONFIG] = "Kconfig default",
		[AREA_FROM_DECLARED] = "dma_declare_contiguous",
	};

	if (a->origin == AREA_FROM_DT)
		snprintf(buf, LABEL_MAX, "%.*s from the device tree", LABEL_MAX - 22, a->dt_node);
	else
		snprintf(buf, LABEL_MAX, "%s", what[a->origin]);
	return buf;
}

void area_cell(const struct sim_result *r, unsigned row, unsigned col, char buf[LABEL_MAX])
{
	const struct area_result *a = &r->areas[row];

	switch (col) {
	case 0:	snprintf(buf, LABEL_MAX, "%s", a->name); break;
	case 1:	snprintf(buf, LABEL_MAX, "0x%08" PRIx64, a->base); break;
	case 2:	fmt_mib(buf, pages_bytes(r, a->pages)); break;
	case 3:	fmt_u64(buf, a->pages); break;
	case 4:	fmt_u64(buf, a->peak_pages); break;
	case 5:	fmt_percent(buf, a->peak_pages, a->pages); break;
	case 6:	fmt_u64(buf, a->mean_pages); break;
	case 7:	fmt_percent(buf, a->mean_pages, a->pages); break;
	default: area_origin_text(a, buf); break;
	}
}

/* What holds for a run without a CMA area, by what its figures show rather than by its policy's name. */
const char *area_none(const struct sim_result *r, char *buf, size_t len)
{
	char mib[FIGURE_MAX];

	if (r->carveout_pages)
		snprintf(buf, len, "none: %s MiB reserved for the devices at boot (policy %s), lost to the rest of the machine for the whole run",
			 fmt_mib(mib, pages_bytes(r, r->carveout_pages)), r->policy);
	else
		snprintf(buf, len, "none: the devices' buffers come from the buddy allocator (policy %s)",
			 r->policy);
	return buf;
}

const char *area_cost(const struct sim_result *r, char *buf, size_t len)
{
	char avg[FIGURE_MAX], max[FIGURE_MAX];

	snprintf(buf, len, "usable memory given up avg %s MiB, max %s MiB; for the devices' requests %" PRIu64
		 " pages migrated, %" PRIu64 " reclaimed",
		 fmt_mib(avg, pages_bytes(r, given_up_pages(r, r->usable_avg_pages))),
		 fmt_mib(max, pages_bytes(r, given_up_pages(r, r->usable_min_pages))),
		 r->device_migrated, r->device_reclaimed);
	return buf;
}

/* ---- the comparison table ---- */

enum dev_figure { DF_REQUESTS, DF_SERVED, DF_FAILED, DF_MIN, DF_MEAN, DF_P99, DF_P99_9, DF_MAX, DF_MISSES,
		  DEV_FIGURES };
enum sys_figure {
	SF_USABLE_AVG, SF_USABLE_MIN, SF_CARVEOUT, SF_CMA_AREA, SF_AREA_PEAK, SF_AREA_MEAN,
	SF_DEV_MIGRATED, SF_DEV_RECLAIMED, SF_REFAULTS, SF_OOM, SF_MIGRATED,
	SF_RECLAIMED, SF_WRITTEN_BACK, SF_FRAG, SYS_FIGURES
};

static const char *const dev_labels[DEV_FIGURES] = {
	"requests", "served", "failed", "min ms", "mean ms", "p99 ms", "p99.9 ms", "max ms", "deadline misses",
};
static const char *const sys_labels[SYS_FIGURES] = {
	"usable avg MiB", "usable min MiB", "carveout MiB", "CMA area MiB", "device peak % of area",
	"device mean % of area", "device pages migrated", "device pages reclaimed", "refaults",
	"OOM kills", "pages migrated", "pages reclaimed", "pages written back", "frag index",
};

unsigned compare_nr_rows(const struct sim_result *runs)
{
	return runs[0].nr_devices * DEV_FIGURES + SYS_FIGURES;
}

void compare_label(const struct sim_result *runs, unsigned row, char buf[LABEL_MAX])
{
	unsigned dev_rows = runs[0].nr_devices * DEV_FIGURES;

	if (row < dev_rows)
		snprintf(buf, LABEL_MAX, "%s %s", runs[0].devices[row / DEV_FIGURES].name,
			 dev_labels[row % DEV_FIGURES]);
	else if (row - dev_rows == SF_FRAG)
		snprintf(buf, LABEL_MAX, "frag index (order %u)", runs[0].frag_order);
	else
		snprintf(buf, LABEL_MAX, "%s", sys_labels[row - dev_rows]);
}

/* Runs of one scenario list the same devices; match by name all the same. */
static const struct device_result *find_device(const struct sim_result *r, const char *name)
{
	unsigned i;

	for (i = 0; i < r->nr_devices; i++)
		if (!strcmp(r->devices[i].name, name))
			return &r->devices[i];
	return NULL;
}

static uint64_t failures(const struct device_result *d)
{
	uint64_t n = 0;
	unsigned c;

	for (c = 0; c < NR_FAIL_CAUSES; c++)
		n += d->fail[c];
	return n;
}

/* "40 (nomem 30, too-large 10)": the failures and their causes. */
static void fmt_failures(char buf[LABEL_MAX], const struct device_result *d)
{
	int n = snprintf(buf, LABEL_MAX, "%" PRIu64, failures(d));
	const char *sep = " (";

	for (unsigned c = 0; c < NR_FAIL_CAUSES && n < LABEL_MAX; c++) {
		if (!d->fail[c])
			continue;
		n += snprintf(buf + n, LABEL_MAX - n, "%s%s %" PRIu64, sep, fail_cause_name(c), d->fail[c]);
		sep = ", ";
	}
	if (*sep == ',' && n < LABEL_MAX)
		snprintf(buf + n, LABEL_MAX - n, ")");
}

/* A device's latency figure @f, in ns. */
static uint64_t latency_figure(const struct device_result *d, enum dev_figure f)
{
	switch (f) {
	case DF_MIN:	return d->lat.min;
	case DF_MEAN:	return d->lat.mean;
	case DF_P99:	return d->lat.p99;
	case DF_P99_9:	return d->lat.p99_9;
	default:	return d->lat.max;
	}
}

static void device_cell(const struct device_result *d, enum dev_figure f, char buf[LABEL_MAX])
{
	switch (f) {
	case DF_REQUESTS:	fmt_u64(buf, d->requests); break;
	case DF_SERVED:		fmt_u64(buf, d->successes); break;
	case DF_FAILED:		fmt_failures(buf, d); break;
	case DF_MIN:
	case DF_MEAN:
	case DF_P99:
	case DF_P99_9:
	case DF_MAX:
		/* no request served, no latency: not a 0 that would look fastest */
		if (d->successes)
			fmt_ms(buf, latency_figure(d, f));
		else
			snprintf(buf, LABEL_MAX, "-");
		break;
	default:		fmt_u64(buf, d->deadline_misses); break;
	}
}

uint64_t areas_pages(const struct sim_result *r)
{
	uint64_t pages = 0;

	for (unsigned i = 0; i < r->nr_areas; i++)
		pages += r->areas[i].pages;
	return pages;
}

/* The areas' MiB (@whole 0) or @pages as a percentage of @whole; "-" for a run without an area. */
static void area_figure(const struct sim_result *r, uint64_t pages, uint64_t whole, char buf[FIGURE_MAX])
{
	if (!r->nr_areas)
		snprintf(buf, FIGURE_MAX, "-");
	else if (!whole)
		fmt_mib(buf, pages_bytes(r, pages));
	else
		fmt_percent(buf, pages, whole);
}

static void system_cell(const struct sim_result *r, enum sys_figure f, char buf[FIGURE_MAX])
{
	switch (f) {
	case SF_USABLE_AVG:	fmt_mib(buf, pages_bytes(r, r->usable_avg_pages)); break;
	case SF_USABLE_MIN:	fmt_mib(buf, pages_bytes(r, r->usable_min_pages)); break;
	case SF_CARVEOUT:	fmt_mib(buf, pages_bytes(r, r->carveout_pages)); break;
	case SF_CMA_AREA:	area_figure(r, areas_pages(r), 0, buf); break;
	case SF_AREA_PEAK:	area_figure(r, r->area_peak_pages, areas_pages(r), buf); break;
	case SF_AREA_MEAN:	area_figure(r, r->area_mean_pages, areas_pages(r), buf); break;
	case SF_DEV_MIGRATED:	fmt_u64(buf, r->device_migrated); break;
	case SF_DEV_RECLAIMED:	fmt_u64(buf, r->device_reclaimed); break;
	case SF_REFAULTS:	fmt_u64(buf, r->refaults); break;
	case SF_OOM:		fmt_u64(buf, r->oom_kills); break;
	case SF_MIGRATED:	fmt_u64(buf, r->pages_migrated); break;
	case SF_RECLAIMED:	fmt_u64(buf, r->pages_reclaimed); break;
	case SF_WRITTEN_BACK:	fmt_u64(buf, r->pages_written_back); break;
	default:		fmt_frag(buf, r->frag_index); break;
	}
}

void compare_cell(const struct sim_result *runs, unsigned run, unsigned row, char buf[LABEL_MAX])
{
	unsigned dev_rows = runs[0].nr_devices * DEV_FIGURES;
	const struct device_result *d;

	if (row >= dev_rows) {
		system_cell(&runs[run], row - dev_rows, buf);
		return;
	}
	d = find_device(&runs[run], runs[0].devices[row / DEV_FIGURES].name);
	if (d)
		device_cell(d, row % DEV_FIGURES, buf);
	else
		snprintf(buf, FIGURE_MAX, "-");
}

/*
 * Which way each row's figure is better: +1 higher, -1 lower, 0 neither
 * (the requests a workload makes; the fragmentation index, whose -1
 * "would succeed" and 0..1 scale do not order policies).
 */
static const signed char dev_better[DEV_FIGURES] = {
	[DF_REQUESTS] = 0, [DF_SERVED] = 1, [DF_FAILED] = -1, [DF_MIN] = -1, [DF_MEAN] = -1, [DF_P99] = -1,
	[DF_P99_9] = -1, [DF_MAX] = -1,
	[DF_MISSES] = -1,
};
static const signed char sys_better[SYS_FIGURES] = {
	[SF_USABLE_AVG] = 1, [SF_USABLE_MIN] = 1, [SF_CARVEOUT] = -1, [SF_REFAULTS] = -1, [SF_OOM] = -1,
	[SF_MIGRATED] = -1, [SF_RECLAIMED] = -1, [SF_WRITTEN_BACK] = -1, [SF_FRAG] = 0,
};

/* @row's figure of @run as a number to rank; false where the cell is "-". */
static bool compare_value(const struct sim_result *runs, unsigned run, unsigned row, double *v)
{
	unsigned dev_rows = runs[0].nr_devices * DEV_FIGURES;
	const struct sim_result *r = &runs[run];
	const struct device_result *d;

	if (row >= dev_rows) {
		static const size_t field[SYS_FIGURES] = {
			[SF_USABLE_AVG] = offsetof(struct sim_result, usable_avg_pages),
			[SF_USABLE_MIN] = offsetof(struct sim_result, usable_min_pages),
			[SF_CARVEOUT] = offsetof(struct sim_result, carveout_pages),
			[SF_REFAULTS] = offsetof(struct sim_result, refaults),
			[SF_OOM] = offsetof(struct sim_result, oom_kills),
			[SF_MIGRATED] = offsetof(struct sim_result, pages_migrated),
			[SF_RECLAIMED] = offsetof(struct sim_result, pages_reclaimed),
			[SF_WRITTEN_BACK] = offsetof(struct sim_result, pages_written_back),
		};
		unsigned f = row - dev_rows;

		/* pages, in bytes where pages differ in size between runs */
		*v = (double)*(const uint64_t *)((const char *)r + field[f]);
		if (f == SF_USABLE_AVG || f == SF_USABLE_MIN || f == SF_CARVEOUT)
			*v *= (double)r->page_bytes;
		return true;
	}
	d = find_device(r, runs[0].devices[row / DEV_FIGURES].name);
	if (!d)
		return false;
	switch (row % DEV_FIGURES) {
	case DF_SERVED:	*v = (double)d->successes; return true;
	case DF_FAILED:	*v = (double)failures(d); return true;
	case DF_MIN:
	case DF_MEAN:
	case DF_P99:
	case DF_P99_9:
	case DF_MAX:	*v = (double)latency_figure(d, (enum dev_figure)(row % DEV_FIGURES));
			return d->successes > 0;
	default:	*v = (double)d->deadline_misses; return true;
	}
}

bool run_served_all(const struct sim_result *r)
{
	for (unsigned d = 0; d < r->nr_devices; d++)
		if (failures(&r->devices[d]) || r->devices[d].deadline_misses)
			return false;
	return true;
}

/* Requests @d served, but after its deadline (deadline_misses counts every failure too). */
static uint64_t served_late(const struct device_result *d)
{
	uint64_t failed = failures(d);

	return d->deadline_misses > failed ? d->deadline_misses - failed : 0;
}

const char *run_shortfall(const struct sim_result *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < r->nr_devices && n < len; i++) {
		const struct device_result *d = &r->devices[i];
		uint64_t failed = failures(d), late = served_late(d);

		if (!failed && !late)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "; " : "", d->name);
		if (failed && n < len)
			n += (size_t)snprintf(buf + n, len - n, " %" PRIu64 " of %" PRIu64 " failed", failed,
					      d->requests);
		if (late && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s %" PRIu64 " served late", failed ? "," : "",
					      late);
	}
	return buf;
}

const char *run_shortfall_brief(const struct sim_result *r, char buf[LABEL_MAX])
{
	uint64_t failed = 0, late = 0;

	for (unsigned i = 0; i < r->nr_devices; i++) {
		failed += failures(&r->devices[i]);
		late += served_late(&r->devices[i]);
	}
	if (late)
		snprintf(buf, LABEL_MAX, "%" PRIu64 " failed, %" PRIu64 " late", failed, late);
	else
		snprintf(buf, LABEL_MAX, "%" PRIu64 " failed", failed);
	return buf;
}

const char *compare_served_all(const struct sim_result *runs, unsigned nr, char *buf, size_t len)
{
	size_t n = 0;
	char label[LABEL_MAX];

	buf[0] = '\0';
	for (unsigned i = 0; i < nr && n < len; i++)
		if (run_served_all(&runs[i]))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      run_label(runs, nr, i, label));
	return buf;
}

int compare_best(const struct sim_result *runs, unsigned nr, unsigned row)
{
	unsigned dev_rows = runs[0].nr_devices * DEV_FIGURES, ranked = 0, equal = 0;
	int dir = row < dev_rows ? dev_better[row % DEV_FIGURES] : sys_better[row - dev_rows];
	int best = -1;
	double best_v = 0, v;

	/* a figure of a run that failed its devices is shown, never crowned */
	for (unsigned i = 0; dir && i < nr; i++)
		if (compare_value(runs, i, row, &v) && run_served_all(&runs[i]) &&
		    (best < 0 || v * dir > best_v * dir)) {
			best = (int)i;
			best_v = v;
		}
	/* but it does tie: a mark beside an equal figure would say the two differ */
	for (unsigned i = 0; best >= 0 && i < nr; i++)
		if (compare_value(runs, i, row, &v)) {
			ranked++;
			equal += v == best_v;
		}
	return ranked >= 2 && equal == 1 ? best : -1;
}

bool compare_requests_differ(const struct sim_result *runs, unsigned nr)
{
	for (unsigned i = 1; i < nr; i++)
		for (unsigned dev = 0; dev < runs[0].nr_devices; dev++) {
			const struct device_result *d = find_device(&runs[i], runs[0].devices[dev].name);

			if (d && d->requests != runs[0].devices[dev].requests)
				return true;
		}
	return false;
}
