// SPDX-License-Identifier: GPL-2.0
/*
 * The text report: for one run its devices, workloads and the system;
 * for several (cmasim compare) one table with a column per policy. Every
 * table is printed in two passes over a cell function, the first to size
 * the columns, so no cell is stored and any name fits.
 */
#include <inttypes.h>
#include <string.h>

#include "report/report.h"

#define MAX_COLS 20

/* Writes the cell at @row, @col below the headings. */
typedef void (*cell_fn)(const struct sim_result *runs, unsigned row, unsigned col,
			char buf[LABEL_MAX]);

static void table_cell(const struct sim_result *runs, const char *const *heads, cell_fn cell,
		       unsigned row, unsigned col, char buf[LABEL_MAX])
{
	if (row)
		cell(runs, row - 1, col, buf);
	else
		snprintf(buf, LABEL_MAX, "%s", heads[col]);
}

/* @heads above @rows rows of @cols columns. */
static void print_table(FILE *out, const struct sim_result *runs, const char *const *heads,
			unsigned rows, unsigned cols, cell_fn cell)
{
	unsigned width[MAX_COLS] = { 0 }, row, col;
	char buf[LABEL_MAX];

	for (row = 0; row <= rows; row++)
		for (col = 0; col < cols; col++) {
			table_cell(runs, heads, cell, row, col, buf);
			if (strlen(buf) > width[col])
				width[col] = strlen(buf);
		}
	for (row = 0; row <= rows; row++) {
		for (col = 0; col < cols; col++) {
			table_cell(runs, heads, cell, row, col, buf);
			/* names left, figures right */
			fprintf(out, col ? "  %*s" : "%-*s", (int)width[col], buf);
		}
		fputc('\n', out);
	}
}

static const char *const device_heads[] = {
	"device", "buffer MiB", "requests", "ok", "pinned", "busy", "nomem", "too-large", "retries",
	"min ms", "mean ms", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", ">10x p50", "missed",
};
#define DEVICE_COLS (sizeof(device_heads) / sizeof(device_heads[0]))
_Static_assert(DEVICE_COLS <= MAX_COLS, "print_table sizes at most MAX_COLS columns");

static void device_cell(const struct sim_result *r, unsigned row, unsigned col,
			char buf[LABEL_MAX])
{
	const struct device_result *d = &r->devices[row];

	if (col == 0)
		snprintf(buf, LABEL_MAX, "%s", d->name);
	else if (col == 1)
		fmt_mib(buf, d->buffer_bytes);
	else if (col == 2)
		fmt_u64(buf, d->requests);
	else if (col == 3)
		fmt_u64(buf, d->successes);
	else if (col < 4 + NR_FAIL_CAUSES)
		fmt_u64(buf, d->fail[col - 4]);
	else if (col == 4 + NR_FAIL_CAUSES)
		fmt_u64(buf, d->busy_retries);
	else if (col < 13 + NR_FAIL_CAUSES && !d->successes)
		snprintf(buf, LABEL_MAX, "-");		/* nothing served: no latency */
	else if (col == 5 + NR_FAIL_CAUSES)
		fmt_ms(buf, d->lat.min);
	else if (col == 6 + NR_FAIL_CAUSES)
		fmt_ms(buf, d->lat.mean);
	else if (col == 7 + NR_FAIL_CAUSES)
		fmt_ms(buf, d->lat.p50);
	else if (col == 8 + NR_FAIL_CAUSES)
		fmt_ms(buf, d->lat.p90);
	else if (col == 9 + NR_FAIL_CAUSES)
		fmt_ms(buf, d->lat.p99);
	else if (col == 10 + NR_FAIL_CAUSES)
		fmt_ms(buf, d->lat.p99_9);
	else if (col == 11 + NR_FAIL_CAUSES)
		fmt_ms(buf, d->lat.max);
	else if (col == 12 + NR_FAIL_CAUSES)
		fmt_u64(buf, d->lat.over_10x_p50);
	else
		fmt_u64(buf, d->deadline_misses);
}

/* "12.345 ms = copy 4.100 + run_wait 8.245": the parts that took any time. */
static void print_parts(FILE *out, const struct cost_parts *p)
{
	char buf[FIGURE_MAX];
	const char *sep = " = ";

	fprintf(out, "%s ms", fmt_ms(buf, cost_parts_sum(p)));
	for (unsigned i = 0; i < NR_COST_PARTS; i++) {
		if (!p->ns[i])
			continue;
		fprintf(out, "%s%s %s", sep, cost_part_names[i], fmt_ms(buf, p->ns[i]));
		sep = " + ";
	}
}

/* Where each device's time went, a line each: all its served requests, then the slowest. */
static void print_breakdowns(FILE *out, const struct sim_result *r)
{
	fputs("device time by part, summed over the served requests; the slowest request's:\n", out);
	for (unsigned i = 0; i < r->nr_devices; i++) {
		const struct device_result *d = &r->devices[i];

		fprintf(out, "%s: ", d->name);
		if (!d->successes) {
			fputs("no request served\n", out);
			continue;
		}
		print_parts(out, &d->breakdown.total);
		fputs("; slowest ", out);
		print_parts(out, &d->breakdown.slowest);
		fputc('\n', out);
	}
	fputc('\n', out);
}

static const char *const workload_heads[] = {
	"workload", "kind", "ops", "misses", "refaults", "alloc fail", "resident MiB", "OOM kills",
};
#define WORKLOAD_COLS (sizeof(workload_heads) / sizeof(workload_heads[0]))

static void workload_cell(const struct sim_result *r, unsigned row, unsigned col,
			  char buf[LABEL_MAX])
{
	const struct workload_result *w = &r->workloads[row];

	switch (col) {
	case 0:
		snprintf(buf, LABEL_MAX, "%s", w->name);
		break;
	case 1:
		snprintf(buf, LABEL_MAX, "%s", w->kind);
		break;
	case 2:
		fmt_u64(buf, w->ops);
		break;
	case 3:
		fmt_u64(buf, w->misses);
		break;
	case 4:
		fmt_u64(buf, w->refaults);
		break;
	case 5:
		fmt_u64(buf, w->alloc_failures);
		break;
	case 6:
		fmt_mib(buf, pages_bytes(r, w->resident_pages));
		break;
	default:
		fmt_u64(buf, w->oom_kills);
		break;
	}
}

static const char *const hugetlb_heads[] = {
	"hugetlb", "page MiB", "requested", "got", "write ms", "migrated", "compact stalls",
};
#define HUGETLB_COLS (sizeof(hugetlb_heads) / sizeof(hugetlb_heads[0]))

static bool is_hugetlb(const struct workload_result *w)
{
	return !strcmp(w->kind, "hugetlb");
}

/* The @n-th hugetlb workload of @r. */
static const struct workload_result *hugetlb_nth(const struct sim_result *r, unsigned n)
{
	for (unsigned i = 0; i < r->nr_workloads; i++)
		if (is_hugetlb(&r->workloads[i]) && !n--)
			return &r->workloads[i];
	return NULL;
}

static void hugetlb_cell(const struct sim_result *r, unsigned row, unsigned col,
			 char buf[LABEL_MAX])
{
	const struct workload_result *w = hugetlb_nth(r, row);
	const struct hugetlb_result *h = &w->hugetlb;
	const uint64_t figures[] = { 0, 0, h->requested, h->got, 0, h->vmstat[HV_PGMIGRATE_SUCCESS],
				     h->vmstat[HV_COMPACT_STALL] };

	if (col == 0)
		snprintf(buf, LABEL_MAX, "%s", w->name);
	else if (col == 1)
		fmt_mib(buf, h->page_bytes);
	else if (col == 4)
		fmt_ms(buf, h->write_ns);
	else
		fmt_u64(buf, figures[col]);
}

static unsigned compare_nr_runs;	/* print_compare's @nr, for compare_text_cell */

/* A figure, with "*" before it when its run is the row's best. */
static void compare_text_cell(const struct sim_result *runs, unsigned row, unsigned col,
			      char buf[LABEL_MAX])
{
	char cell[LABEL_MAX];

	if (!col) {
		compare_label(runs, row, buf);
		return;
	}
	compare_cell(runs, col - 1, row, cell);
	snprintf(buf, LABEL_MAX, "%s%.*s", compare_best(runs, compare_nr_runs, row) == (int)col - 1 ? "*" : "",
		 LABEL_MAX - 2, cell);
}

/* What "*" means, among which policies, and what kept each other one out. */
static void print_best_rule(FILE *out, const struct sim_result *runs, unsigned nr)
{
	char served[SERVED_ALL_MAX], why[SHORTFALL_MAX], label[LABEL_MAX];

	if (*compare_served_all(runs, nr, served, sizeof(served)))
		fprintf(out, "\n* best in its row among the policies that served every device request in time "
			"(%s):\n  " COMPARE_BEST_FIGURES "\n", served);
	else
		fprintf(out, "\nno policy served every device request in time: no figure is marked best\n");
	for (unsigned i = 0; i < nr; i++)
		if (!run_served_all(&runs[i]))
			fprintf(out, "%s is not ranked: %s\n", run_label(runs, nr, i, label),
				run_shortfall(&runs[i], why, sizeof(why)));
}

/* Where each policy's device time went: a line per device and policy, its served requests summed. */
static void print_compare_breakdowns(FILE *out, const struct sim_result *runs, unsigned nr,
				     const char *const *heads)
{
	if (!runs[0].nr_devices)
		return;
	fputs("\ndevice time by part, summed over the served requests:\n", out);
	for (unsigned d = 0; d < runs[0].nr_devices; d++)
		for (unsigned i = 0; i < nr; i++) {
			const struct device_result *dr = &runs[i].devices[d];

			fprintf(out, "%s under %s: ", dr->name, heads[i + 1]);
			if (dr->successes)
				print_parts(out, &dr->breakdown.total);
			else
				fputs("no request served", out);
			fputc('\n', out);
		}
}

static void print_compare(FILE *out, const struct sim_result *runs, unsigned nr)
{
	const char *heads[MAX_COLS] = { "" };
	char labels[MAX_COLS][LABEL_MAX];
	unsigned i;

	for (i = 0; i < nr; i++)
		heads[i + 1] = run_label(runs, nr, i, labels[i]);
	compare_nr_runs = nr;
	print_table(out, runs, heads, compare_nr_rows(runs), nr + 1, compare_text_cell);
	print_best_rule(out, runs, nr);
	if (compare_requests_differ(runs, nr))
		fprintf(out, COMPARE_REQUESTS_NOTE "\n");
	print_compare_breakdowns(out, runs, nr, heads);
}

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static void area_text_cell(const struct sim_result *r, unsigned row, unsigned col, char buf[LABEL_MAX])
{
	area_cell(r, row, col, buf);
}

/* The areas and the devices' use of them, or what holds without one. */
static void print_areas(FILE *out, const struct sim_result *r)
{
	char line[256];

	if (r->nr_areas)
		print_table(out, r, area_heads, r->nr_areas, AREA_COLS, area_text_cell);
	else
		fprintf(out, "CMA area            %s\n", area_none(r, line, sizeof(line)));
	fputc('\n', out);
}

/* A comparison's table has the areas' sizes only: where each run's areas come from. */
static void print_area_origins(FILE *out, const struct sim_result *runs, unsigned nr)
{
	char label[LABEL_MAX], mib[FIGURE_MAX], origin[LABEL_MAX];

	for (unsigned i = 0; i < nr; i++) {
		if (!runs[i].nr_areas)
			continue;
		fprintf(out, "\nCMA areas under %s:", run_label(runs, nr, i, label));
		for (unsigned k = 0; k < runs[i].nr_areas; k++)
			fprintf(out, "%s %s %s MiB (%s)", k ? "," : "", runs[i].areas[k].name,
				fmt_mib(mib, pages_bytes(&runs[i], runs[i].areas[k].pages)),
				area_origin_text(&runs[i].areas[k], origin));
		fputc('\n', out);
	}
}

static void print_system(FILE *out, const struct sim_result *r)
{
	char avg[FIGURE_MAX], min[FIGURE_MAX], total[FIGURE_MAX], frag[FIGURE_MAX], line[256];

	fprintf(out, "usable memory       avg %s MiB (%.1f%%), min %s MiB (%.1f%%) of %s MiB\n",
		fmt_mib(avg, pages_bytes(r, r->usable_avg_pages)),
		percent(r->usable_avg_pages, r->total_pages),
		fmt_mib(min, pages_bytes(r, r->usable_min_pages)),
		percent(r->usable_min_pages, r->total_pages),
		fmt_mib(total, pages_bytes(r, r->total_pages)));
	fprintf(out, "devices' cost       %s\n", area_cost(r, line, sizeof(line)));
	fprintf(out, "refaults            %" PRIu64 "\n", r->refaults);
	fprintf(out, "OOM kills           %" PRIu64 "\n", r->oom_kills);
	fprintf(out, "pages migrated      %" PRIu64 "\n", r->pages_migrated);
	fprintf(out, "pages reclaimed     %" PRIu64 "\n", r->pages_reclaimed);
	fprintf(out, "pages written back  %" PRIu64 "\n", r->pages_written_back);
	fprintf(out, "fragmentation index at order %u: %s\n", r->frag_order,
		fmt_frag(frag, r->frag_index));
}

/* The gcma policy's area: what its two uses kept and served, and what requests dropped. */
static void print_gcma(FILE *out, const struct sim_result *r)
{
	const struct gcma_result *g = &r->gcma;
	static const char *const use[2] = { "cleancache (file) ", "frontswap (anon)  " };
	char a[FIGURE_MAX], b[FIGURE_MAX], c[FIGURE_MAX], d[FIGURE_MAX];

	fprintf(out, "\ngcma area          %s MiB, copies held mean %s MiB, peak %s MiB, worth %s MiB\n",
		fmt_mib(a, pages_bytes(r, g->area_pages)), fmt_mib(b, pages_bytes(r, g->held_mean_pages)),
		fmt_mib(c, pages_bytes(r, g->held_peak_pages)), fmt_mib(d, pages_bytes(r, g->worth_pages)));
	for (int i = 0; i < 2; i++)
		fprintf(out, "%s puts %" PRIu64 ", gets %" PRIu64 ", hits %" PRIu64 " (%s%%)\n", use[i],
			g->puts[i], g->gets[i], g->hits[i], fmt_percent(a, g->hits[i], g->gets[i]));
	fprintf(out, "dropped            %" PRIu64 " copies by %" PRIu64 " requests (at most %" PRIu64
		" by one), %" PRIu64 " oldest for room, %" PRIu64 " invalidated; %" PRIu64 " evictions refused\n",
		g->dropped_for_requests, g->requests_dropping, g->max_dropped, g->dropped_oldest,
		g->invalidated, g->refused);
	fprintf(out, "copying            %s ms, storage reads saved %s ms\n", fmt_ms(a, g->copy_ns),
		fmt_ms(b, g->read_saved_ns));
}

/* The predict policy: how its predictions fared and what the work in advance cost. */
static void print_predict(FILE *out, const struct sim_result *r)
{
	const struct predict_result *p = &r->predict;
	char a[FIGURE_MAX], b[FIGURE_MAX], c[FIGURE_MAX];

	fprintf(out, "\npredictions        %" PRIu64 ": %" PRIu64 " hits (%s%%), %" PRIu64 " early, %" PRIu64
		" missed; %" PRIu64 " requests served from taken buffers\n", p->predictions, p->hits,
		fmt_percent(a, p->hits, p->predictions), p->early, p->misses, p->served);
	fprintf(out, "work in advance    %s ms: %" PRIu64 " pages migrated in %" PRIu64 " batches; wasted %s ms, "
		"%" PRIu64 " buffers released unused, %" PRIu64 " not taken; held mean %s MiB\n",
		fmt_ms(b, p->advance_ns), p->advance_migrated, p->advance_batches, fmt_ms(c, p->wasted_ns),
		p->released_unused, p->take_failures, fmt_mib(a, pages_bytes(r, p->held_mean_pages)));
	fprintf(out, "standing pool      %s MiB: %" PRIu64 " requests served from it\n",
		fmt_mib(a, pages_bytes(r, p->pool_pages)), p->pool_served);
}

static void print_heading(FILE *out, const struct sim_result *runs, unsigned nr)
{
	fprintf(out, "scenario %s, platform %s", runs[0].scenario, runs[0].platform);
	if (!runs_mixed_kernels(runs, nr))
		fprintf(out, ", kernel %s", runs[0].kernel);
	if (nr == 1)
		fprintf(out, ", policy %s", runs[0].policy);
	fprintf(out, ", seed %" PRIu64 ", duration %.3f s\n\n", runs[0].seed,
		runs[0].duration_ns / 1e9);
}

/* Each job's completion time and what stretched it, a line each. */
static void print_jobs(FILE *out, const struct sim_result *r)
{
	char done[FIGURE_MAX], cpu[FIGURE_MAX], io[FIGURE_MAX], reclaim[FIGURE_MAX];
	bool any = false;

	for (unsigned i = 0; i < r->nr_workloads; i++) {
		const struct workload_result *w = &r->workloads[i];

		if (strcmp(w->kind, "job"))
			continue;
		any = true;
		if (w->job_done_ns)
			fprintf(out, "job %s: done in %s s", w->name, fmt_s(done, w->job_done_ns));
		else
			fprintf(out, "job %s: not done, %" PRIu64 " of %" PRIu64 " units", w->name,
				w->job_units_done, w->job_units);
		fprintf(out, " (CPU %s s); swap-ins %" PRIu64 ", waits: storage %s s, reclaim %s s\n",
			fmt_s(cpu, w->job_cpu_ns), w->swapins, fmt_s(io, w->io_wait_ns),
			fmt_s(reclaim, w->reclaim_wait_ns));
	}
	if (any)
		fputc('\n', out);
}

static void print_run(FILE *out, const struct sim_result *r)
{
	unsigned nr_huge;

	if (r->nr_devices) {
		print_table(out, r, device_heads, r->nr_devices, DEVICE_COLS, device_cell);
		fputc('\n', out);
		print_breakdowns(out, r);
	}
	print_areas(out, r);
	if (r->nr_workloads) {
		print_table(out, r, workload_heads, r->nr_workloads, WORKLOAD_COLS, workload_cell);
		fputc('\n', out);
		print_jobs(out, r);
	}
	for (nr_huge = 0; hugetlb_nth(r, nr_huge); nr_huge++)
		;
	if (nr_huge) {
		print_table(out, r, hugetlb_heads, nr_huge, HUGETLB_COLS, hugetlb_cell);
		fputc('\n', out);
	}
	print_system(out, r);
	if (r->gcma.on)
		print_gcma(out, r);
	if (r->predict.on)
		print_predict(out, r);
}

int report_text(const struct sim_result *runs, unsigned nr, FILE *out)
{
	char host[LABEL_MAX], label[LABEL_MAX];

	if (!nr || nr + 1 > MAX_COLS)
		return -1;
	print_heading(out, runs, nr);
	if (nr == 1)
		print_run(out, runs);
	else
		print_compare(out, runs, nr);
	if (nr > 1)
		print_area_origins(out, runs, nr);
	for (unsigned i = 0; i < nr; i++)
		for (unsigned p = 0; p < runs[i].nr_procs; p++)
			fprintf(out, "\n==> %s%s at the end, policy %s <==\n%s",
				proc_dir_of(runs[i].procs[p].name), runs[i].procs[p].name,
				run_label(runs, nr, i, label), runs[i].procs[p].text);
	/* the one line that changes from run to run of one seed: tests drop it */
	fprintf(out, "\n%s\n", fmt_host(host, runs, nr));
	return ferror(out) ? -1 : 0;
}
