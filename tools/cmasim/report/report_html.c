// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report: one self-contained page (inline CSS and SVG drawn
 * here, no script, nothing fetched) with the policy comparison table
 * and, per run, the physical memory by pageblock at each snapshot, a
 * latency histogram per device and a timeline of memory by use.
 *
 * Every SVG is laid out in user units with a viewBox, so the browser
 * scales it; coordinates are printed with one decimal.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <cma/cma.h>
#include "report/report.h"

#define MAP_COLS	64	/* pageblocks a row in the memory map */
#define MAP_CELL	14	/* a block's square and its gap, in SVG units */
#define MAP_AXIS	96	/* left of the rows: each row's first address */

#define EDGES_PER_DECADE 4
#define EDGE_FIRST	(3 * EDGES_PER_DECADE)	/* 1 us: the smallest latency bin */
#define EDGE_LAST	(18 * EDGES_PER_DECADE)	/* 10^18 ns: as far as uint64_t goes */
#define MIN_BINS	8	/* a histogram spans two decades at least */

static const char *const class_colours[NR_MEM_CLASSES] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#9c755f",
};
#define FREE_COLOUR	"#cfe8c0"
#define CMA_FREE_COLOUR	"#1f4e9a"

const char html_style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1240px}\n"
	"h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc}h3{font-size:1em}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid #ccc;padding:2px 8px}td{text-align:right}\n"
	"th{background:#f0f0f0}td.l{text-align:left}td.best{font-weight:bold}\n"
	"svg{display:block;margin:.3em 0}svg text{font-size:11px;fill:#222}\n"
	".dev{stroke:#000;stroke-width:2}.hole{stroke:#bbb;stroke-width:.5}\n"
	".axis{stroke:#444;stroke-width:1}.grid{stroke:#ddd;stroke-width:1}\n"
	".sw{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;"
	"vertical-align:middle;border:1px solid #999}\n"
	".note{color:#666}\n";

/* ---- the comparison table ---- */

/* What bold means, among which policies, and what kept each other one out. */
static void html_best_rule(FILE *out, const struct sim_result *runs, unsigned nr)
{
	char served[SERVED_ALL_MAX], why[SHORTFALL_MAX], label[LABEL_MAX];

	if (*compare_served_all(runs, nr, served, sizeof(served))) {
		fputs("<b>Bold</b>: best in its row among the policies that served every device request in time (",
		      out);
		html_escape(out, served);
		fputs("): " COMPARE_BEST_FIGURES ". ", out);
	} else {
		fputs("<b>No policy served every device request in time</b>: no figure is bold. ", out);
	}
	for (unsigned i = 0; i < nr; i++) {
		if (run_served_all(&runs[i]))
			continue;
		fputs("<b>", out);
		html_escape(out, run_label(runs, nr, i, label));
		fputs("</b> is not ranked: ", out);
		html_escape(out, run_shortfall(&runs[i], why, sizeof(why)));
		fputs(". ", out);
	}
}

static void html_compare(FILE *out, const struct sim_result *runs, unsigned nr)
{
	char buf[LABEL_MAX];
	unsigned row, i;

	fputs("<h2>Policies side by side</h2>\n<table>\n<tr><th></th>", out);
	for (i = 0; i < nr; i++)
		fprintf(out, "<th>%s</th>", run_label(runs, nr, i, buf));
	fputs("</tr>\n", out);
	for (row = 0; row < compare_nr_rows(runs); row++) {
		compare_label(runs, row, buf);
		fputs("<tr><td class=\"l\">", out);
		html_escape(out, buf);
		fputs("</td>", out);
		for (i = 0; i < nr; i++) {
			compare_cell(runs, i, row, buf);
			fputs(compare_best(runs, nr, row) == (int)i ? "<td class=\"best\">" : "<td>", out);
			html_escape(out, buf);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n<p class=\"note\">", out);
	if (nr > 1)
		html_best_rule(out, runs, nr);
	fputs("<b>frag index</b>: the kernel's fragmentation index at the end of the run, for one allocation "
	      "of that order: -1.000, it would succeed now; from 0 to 1, it would fail, for lack of free memory "
	      "(near 0) or because the free memory is in pieces too small (near 1).</p>\n", out);
}

/* "5", "0.5", "2.345": seconds without trailing zeros. */
static const char *fmt_seconds(char buf[FIGURE_MAX], uint64_t ns)
{
	size_t n = (size_t)snprintf(buf, FIGURE_MAX, "%.6f", ns / 1e9);

	while (n > 1 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (buf[n - 1] == '.')
		buf[n - 1] = '\0';
	return buf;
}

/* ---- the memory map ---- */

/*
 * A block's CSS colour: its type's hue, lighter the emptier (78% lightness
 * free, 30% full). Not lighter than 78%: there an empty CMA block and an
 * empty movable one, the two a reader most needs apart, were both near
 * white.
 */
static const char *block_colour(char buf[FIGURE_MAX], const struct block_style *st,
				unsigned used_permille)
{
	if (st == &block_styles[BLOCK_STYLE_HOLE])
		return "#fff";
	snprintf(buf, FIGURE_MAX, "hsl(%u,%u%%,%u%%)", st->hue, st->sat,
		 78 - used_permille * 48 / 1000);
	return buf;
}

void html_map_legend(FILE *out)
{
	static const char *const fullness[] = { "empty", "half used", "full" };
	char css[64], colour[FIGURE_MAX];
	unsigned i;

	fputs("<p>", out);
	for (i = 0; i < NR_BLOCK_STYLES; i++) {
		snprintf(css, sizeof(css), "background:%s",
			 block_colour(colour, &block_styles[i], 650));
		swatch(out, css, block_styles[i].name);
	}
	swatch(out, "background:#fff;border:2px solid #000", "held by a device");
	fputs("<br><span class=\"note\">Lightness is occupancy:</span>", out);
	for (i = 0; i < 3; i++) {
		snprintf(css, sizeof(css), "background:%s",
			 block_colour(colour, &block_styles[CMA_MIGRATE_MOVABLE], i * 500));
		swatch(out, css, fullness[i]);
	}
	fputs("</p>\n", out);
}

/* Where block @i of @s starts: its physical address, or its pfn when the page size is unknown. */
static const char *block_address(char buf[FIGURE_MAX], const struct sim_snapshot *s, unsigned long i)
{
	unsigned long pfn = s->start_pfn + i * s->pageblock_pages;

	if (s->page_bytes)
		snprintf(buf, FIGURE_MAX, "0x%08" PRIx64, (uint64_t)pfn * s->page_bytes);
	else
		snprintf(buf, FIGURE_MAX, "pfn %#lx", pfn);
	return buf;
}

/* The tooltip of block @i: where it is, its type, and how its pages are used. */
static void map_block_title(FILE *out, const struct sim_snapshot *s, unsigned long i)
{
	const struct snap_block *b = &s->blocks[i];
	char at[FIGURE_MAX];

	fprintf(out, "<title>%s, pfn %#lx: ", block_address(at, s, i), s->start_pfn + i * s->pageblock_pages);
	if (block_is_hole(b))
		fputs("hole, no valid page", out);
	else
		fprintf(out, "%s, %u of %u pages free", block_style(b)->name, b->nr_free, b->nr_pages);
	if (b->nr_device)
		fprintf(out, ", %u held by a device", b->nr_device);
	fputs("</title>", out);
}

void html_map(FILE *out, const struct sim_snapshot *s)
{
	unsigned long rows = (s->nr_blocks + MAP_COLS - 1) / MAP_COLS, i;
	unsigned width = MAP_AXIS + MAP_COLS * MAP_CELL;
	char t[FIGURE_MAX], colour[FIGURE_MAX], at[FIGURE_MAX];

	fprintf(out, "<h3>t = %s s: %lu pageblocks of %lu pages from pfn %#lx, %u a row</h3>\n",
		fmt_seconds(t, s->t_ns), s->nr_blocks, s->pageblock_pages, s->start_pfn, MAP_COLS);
	fprintf(out, "<svg viewBox=\"0 0 %u %lu\" width=\"%u\" height=\"%lu\" role=\"img\">\n",
		width, rows * MAP_CELL, width, rows * MAP_CELL);
	for (i = 0; i < rows; i++)
		fprintf(out, "<text x=\"%u\" y=\"%lu\" text-anchor=\"end\">%s</text>\n", MAP_AXIS - 6,
			i * MAP_CELL + MAP_CELL - 3, block_address(at, s, i * MAP_COLS));
	for (i = 0; i < s->nr_blocks; i++) {
		const struct snap_block *b = &s->blocks[i];
		const char *cls = b->nr_device ? " class=\"dev\"" :
				  block_is_hole(b) ? " class=\"hole\"" : "";

		fprintf(out, "<rect x=\"%lu\" y=\"%lu\" width=\"%u\" height=\"%u\"%s fill=\"%s\">",
			MAP_AXIS + i % MAP_COLS * MAP_CELL + 1, i / MAP_COLS * MAP_CELL + 1, MAP_CELL - 2,
			MAP_CELL - 2, cls, block_colour(colour, block_style(b), block_used_permille(b)));
		map_block_title(out, s, i);
		fputs("</rect>\n", out);
	}
	fputs("</svg>\n", out);
}

/* ---- latency histograms ---- */

/* Bin edges 10^(i/4) ns: four a decade, so each bin is about 1.78 times the last. */
static uint64_t edge_ns(unsigned i)
{
	static const uint64_t mant_milli[EDGES_PER_DECADE] = { 1000, 1778, 3162, 5623 };
	uint64_t decade = 1;
	unsigned d;

	for (d = 0; d < i / EDGES_PER_DECADE; d++)
		decade *= 10;
	/* 5623 * 10^18 / 1000 would overflow: divide first from 10^3 on */
	return decade >= 1000 ? mant_milli[i % EDGES_PER_DECADE] * (decade / 1000) :
				mant_milli[i % EDGES_PER_DECADE] * decade / 1000;
}

/* The edge index at or below @ns, within [EDGE_FIRST, EDGE_LAST). */
static unsigned edge_below(uint64_t ns)
{
	unsigned i = EDGE_FIRST;

	while (i + 1 < EDGE_LAST && edge_ns(i + 1) <= ns)
		i++;
	return i;
}

/*
 * The first edge and the number of bins from @min to @max; a narrow
 * spread is widened around its middle, so one bar is not the whole chart.
 */
static unsigned histogram_range(uint64_t min, uint64_t max, unsigned *nbins)
{
	unsigned lo = edge_below(min), hi = edge_below(max) + 1;

	if (hi - lo < MIN_BINS) {
		lo = lo - EDGE_FIRST < (MIN_BINS - (hi - lo)) / 2 ? EDGE_FIRST :
		     lo - (MIN_BINS - (hi - lo)) / 2;
		lo = lo + MIN_BINS > EDGE_LAST ? EDGE_LAST - MIN_BINS : lo;
		hi = lo + MIN_BINS;
	}
	*nbins = hi - lo;
	return lo;
}

static void histogram_bars(FILE *out, const uint64_t *counts, unsigned nbins, uint64_t top)
{
	double w = (double)PLOT_W / nbins, h;
	unsigned b;

	for (b = 0; b < nbins; b++) {
		if (!counts[b])
			continue;
		h = (double)counts[b] / top * PLOT_H;
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"#4e79a7\"><title>%" PRIu64 "</title></rect>\n",
			MARGIN_L + b * w + 1, MARGIN_T + PLOT_H - h, w - 2, h, counts[b]);
	}
}

/*
 * Round labels on the log axis: 1, 2 and 5 times each power of ten (only
 * the powers past three decades), each where it falls between the edges
 * 10^(i/4) ns: at i = 4 * (decade + log10 of 1, 2 or 5).
 */
static void histogram_x_ticks(FILE *out, unsigned lo, unsigned nbins)
{
	static const struct { unsigned mult; double at; } marks[] = {
		{ 1, 0 }, { 2, EDGES_PER_DECADE * 0.30103 }, { 5, EDGES_PER_DECADE * 0.69897 },
	};
	bool decades_only = nbins > 3 * EDGES_PER_DECADE;
	char label[FIGURE_MAX];
	double power = 1e-6;	/* 10^decade ns in ms */
	unsigned d;

	for (d = 0; d < lo / EDGES_PER_DECADE; d++)
		power *= 10;
	for (; d * EDGES_PER_DECADE <= lo + nbins; d++, power *= 10)
		for (unsigned m = 0; m < (decades_only ? 1 : 3); m++) {
			double at = d * EDGES_PER_DECADE + marks[m].at;

			if (at < lo || at > lo + nbins)
				continue;
			snprintf(label, sizeof(label), "%g", marks[m].mult * power);
			svg_x_label(out, MARGIN_L + (at - lo) * PLOT_W / nbins, label);
		}
}

static void histogram_axes(FILE *out, unsigned lo, unsigned nbins, uint64_t top)
{
	svg_axes(out, "device time, ms (log scale)", "requests");
	svg_y_ticks(out, 0, top);
	histogram_x_ticks(out, lo, nbins);
}

/*
 * One x range for a device's histograms in every run, from the fastest
 * to the slowest request any run served, so that the policies' charts
 * line up; false when no run served one.
 */
static bool histogram_span(const struct sim_result *runs, unsigned nr, const char *name, unsigned *lo,
			   unsigned *nbins)
{
	uint64_t min = UINT64_MAX, max = 0;

	for (unsigned i = 0; i < nr; i++)
		for (unsigned k = 0; k < runs[i].nr_devices; k++) {
			const struct sim_latency *l = &runs[i].devices[k].lat;

			if (strcmp(runs[i].devices[k].name, name))
				continue;
			for (size_t j = 0; j < l->nr; j++) {
				min = l->ns[j] < min ? l->ns[j] : min;
				max = l->ns[j] > max ? l->ns[j] : max;
			}
		}
	if (min > max)
		return false;
	*lo = histogram_range(min, max, nbins);
	return true;
}

/* @d's histogram over the x range its device has in every run (histogram_span). */
static void html_histogram(FILE *out, const struct device_result *d, const struct sim_result *runs,
			   unsigned nr)
{
	uint64_t counts[EDGE_LAST - EDGE_FIRST] = { 0 }, top = 0;
	unsigned lo, nbins, b;
	char min[FIGURE_MAX], mean[FIGURE_MAX], p50[FIGURE_MAX], p99[FIGURE_MAX], p99_9[FIGURE_MAX];
	char max[FIGURE_MAX];
	size_t i;

	fputs("<h3>", out);
	html_escape(out, d->name);
	if (!d->lat.nr) {
		fputs(": 0 requests served</h3>\n<p class=\"note\">No request was served.</p>\n", out);
		return;
	}
	fprintf(out, ": %zu requests served, min %s ms, mean %s ms, p50 %s ms, p99 %s ms, p99.9 %s ms, "
		"max %s ms; %" PRIu64 " over 10x p50</h3>\n",
		d->lat.nr, fmt_ms(min, d->lat.min), fmt_ms(mean, d->lat.mean), fmt_ms(p50, d->lat.p50),
		fmt_ms(p99, d->lat.p99), fmt_ms(p99_9, d->lat.p99_9), fmt_ms(max, d->lat.max),
		d->lat.over_10x_p50);
	if (!histogram_span(runs, nr, d->name, &lo, &nbins))
		return;		/* not reached: @d served requests */
	for (i = 0; i < d->lat.nr; i++)
		counts[edge_below(d->lat.ns[i]) - lo]++;
	for (b = 0; b < nbins; b++)
		top = counts[b] > top ? counts[b] : top;
	svg_open(out);
	histogram_axes(out, lo, nbins, top);
	histogram_bars(out, counts, nbins, top);
	fputs("</svg>\n", out);
}

/* ---- where a device's time went ---- */

/* By enum cost_part: the CPU's kinds of work in cool colours, the waits in warm ones. */
static const char *const part_colours[NR_COST_PARTS] = {
	"#4e79a7", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f", "#bab0ac",
	"#f28e2b", "#e15759", "#ff9da7", "#8c2d04", "#555555",
};

#define BAR_H		18
#define BAR_GAP		8
#define BARS_H		(MARGIN_T + 2 * (BAR_H + BAR_GAP))

/* @p's parts side by side across the plot's width, in proportion, each with its figures as a tooltip. */
static void breakdown_bar(FILE *out, const struct cost_parts *p, unsigned y, const char *label)
{
	uint64_t sum = cost_parts_sum(p);
	char ms[FIGURE_MAX], pct[FIGURE_MAX];
	double x = MARGIN_L;

	fprintf(out, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\">%s</text>\n", MARGIN_L - 6, y + 13, label);
	for (unsigned i = 0; sum && i < NR_COST_PARTS; i++) {
		double w = (double)PLOT_W * (double)p->ns[i] / (double)sum;

		if (!p->ns[i])
			continue;
		fprintf(out, "<rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"%u\" fill=\"%s\">"
			"<title>%s %s ms (%s%%)</title></rect>\n", x, y, w, BAR_H, part_colours[i],
			cost_part_names[i], fmt_ms(ms, p->ns[i]), fmt_percent(pct, p->ns[i], sum));
		x += w;
	}
}

/* The parts either bar has, in the bars' colours. */
static void breakdown_legend(FILE *out, const struct latency_breakdown *b)
{
	char css[64], label[LABEL_MAX], ms[FIGURE_MAX];

	fputs("<p>", out);
	for (unsigned i = 0; i < NR_COST_PARTS; i++) {
		if (!b->total.ns[i] && !b->slowest.ns[i])
			continue;
		snprintf(css, sizeof(css), "background:%s", part_colours[i]);
		snprintf(label, sizeof(label), "%s %s ms", cost_part_names[i], fmt_ms(ms, b->total.ns[i]));
		swatch(out, css, label);
	}
	fputs("</p>\n", out);
}

/*
 * Where @d's device time went: a stacked bar of its served requests'
 * time summed, one of its slowest request's, each part's share of it.
 */
static void html_breakdown(FILE *out, const struct device_result *d)
{
	unsigned w = MARGIN_L + PLOT_W + MARGIN_R;
	char total[FIGURE_MAX], slowest[FIGURE_MAX];

	if (!d->lat.nr)
		return;
	fputs("<p>Where ", out);
	html_escape(out, d->name);
	fprintf(out, "&#39;s device time went: %s ms over its served requests, %s ms in the slowest "
		"(the parts&#39; shares; each part&#39;s time in its tooltip)</p>\n",
		fmt_ms(total, cost_parts_sum(&d->breakdown.total)),
		fmt_ms(slowest, cost_parts_sum(&d->breakdown.slowest)));
	fprintf(out, "<svg class=\"breakdown\" viewBox=\"0 0 %u %u\" width=\"%u\" height=\"%u\" role=\"img\">\n",
		w, BARS_H, w, BARS_H);
	breakdown_bar(out, &d->breakdown.total, MARGIN_T, "all");
	breakdown_bar(out, &d->breakdown.slowest, MARGIN_T + BAR_H + BAR_GAP, "slowest");
	fputs("</svg>\n", out);
	breakdown_legend(out, &d->breakdown);
}

/* ---- the timeline ---- */

#define NR_SERIES (NR_MEM_CLASSES + 1)	/* the classes stacked, free on top */

/* Pages of series 0..@k stacked at sample @s. */
static uint64_t stacked(const struct sim_sample *s, unsigned k)
{
	uint64_t sum = k >= NR_MEM_CLASSES ? s->free_pages : 0;
	unsigned c;

	for (c = 0; c <= k && c < NR_MEM_CLASSES; c++)
		sum += s->used[c];
	return sum;
}

struct chart {
	const struct sim_result *r;
	double t_max;		/* seconds at the right edge */
	double mib_max;		/* MiB at the top */
};

static double chart_x(const struct chart *c, uint64_t t_ns)
{
	return MARGIN_L + t_ns / 1e9 / c->t_max * PLOT_W;
}

static double chart_y(const struct chart *c, uint64_t pages)
{
	return MARGIN_T + PLOT_H - pages_bytes(c->r, pages) / 1048576.0 / c->mib_max * PLOT_H;
}

/* A sample holds until the next one; the last until the end of the run. */
static uint64_t sample_end(const struct sim_result *r, size_t i)
{
	if (i + 1 < r->nr_samples)
		return r->samples[i + 1].t_ns;
	return r->duration_ns > r->samples[i].t_ns ? r->duration_ns : r->samples[i].t_ns;
}

/* Series @k's band: its top edge left to right, the one below right to left. */
static void timeline_band(FILE *out, const struct chart *c, unsigned k, const char *colour)
{
	const struct sim_result *r = c->r;
	size_t i;

	fprintf(out, "<polygon fill=\"%s\" points=\"", colour);
	for (i = 0; i < r->nr_samples; i++)
		fprintf(out, "%.1f,%.1f %.1f,%.1f ", chart_x(c, r->samples[i].t_ns),
			chart_y(c, stacked(&r->samples[i], k)), chart_x(c, sample_end(r, i)),
			chart_y(c, stacked(&r->samples[i], k)));
	for (i = r->nr_samples; i-- > 0;) {
		uint64_t below = k ? stacked(&r->samples[i], k - 1) : 0;

		fprintf(out, "%.1f,%.1f %.1f,%.1f ", chart_x(c, sample_end(r, i)),
			chart_y(c, below), chart_x(c, r->samples[i].t_ns), chart_y(c, below));
	}
	fputs("\"/>\n", out);
}

static void timeline_cma_free(FILE *out, const struct chart *c)
{
	const struct sim_result *r = c->r;
	size_t i;

	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
		"stroke-dasharray=\"6 3\" points=\"", CMA_FREE_COLOUR);
	for (i = 0; i < r->nr_samples; i++)
		fprintf(out, "%.1f,%.1f %.1f,%.1f ", chart_x(c, r->samples[i].t_ns),
			chart_y(c, r->samples[i].cma_free_pages), chart_x(c, sample_end(r, i)),
			chart_y(c, r->samples[i].cma_free_pages));
	fputs("\"/>\n", out);
}

static void timeline_legend(FILE *out)
{
	char css[64];
	unsigned c;

	fputs("<p>", out);
	for (c = 0; c < NR_MEM_CLASSES; c++) {
		snprintf(css, sizeof(css), "background:%s", class_colours[c]);
		swatch(out, css, mem_class_name(c));
	}
	swatch(out, "background:" FREE_COLOUR, "free");
	swatch(out, "background:#fff;border:2px dashed " CMA_FREE_COLOUR, "CMA free");
	fputs("<br><span class=\"note\">The dashed line, CMA free, is the part of the free memory that lies in "
	      "CMA areas: it is inside the free band, not stacked on it.</span></p>\n", out);
}

static void html_timeline(FILE *out, const struct sim_result *r)
{
	struct chart c = { .r = r, .t_max = 0, .mib_max = 0 };
	size_t i;
	unsigned k;

	fputs("<h3>Memory by use over virtual time</h3>\n", out);
	if (!r->nr_samples) {
		fputs("<p class=\"note\">No samples were taken.</p>\n", out);
		return;
	}
	for (i = 0; i < r->nr_samples; i++) {
		double mib = pages_bytes(r, stacked(&r->samples[i], NR_SERIES - 1)) / 1048576.0;

		c.mib_max = mib > c.mib_max ? mib : c.mib_max;
	}
	c.t_max = sample_end(r, r->nr_samples - 1) / 1e9;
	c.t_max = c.t_max > 0 ? c.t_max : 1;
	c.mib_max = c.mib_max > 0 ? c.mib_max : 1;
	svg_open(out);
	svg_y_ticks(out, 0, c.mib_max);
	for (k = 0; k < NR_SERIES; k++)
		timeline_band(out, &c, k, k < NR_MEM_CLASSES ? class_colours[k] : FREE_COLOUR);
	timeline_cma_free(out, &c);
	svg_axes(out, "virtual time, s", "MiB");
	svg_x_ticks(out, c.t_max);
	fputs("</svg>\n", out);
	timeline_legend(out);
}

/* ---- the CMA areas ---- */

static void html_areas(FILE *out, const struct sim_result *r)
{
	char buf[256];

	fputs("<h3>CMA area</h3>\n", out);
	if (!r->nr_areas) {
		fputs("<p class=\"note\">", out);
		html_escape(out, area_none(r, buf, sizeof(buf)));
		fputs("</p>\n", out);
	} else {
		fputs("<table>\n<tr>", out);
		for (unsigned col = 0; col < AREA_COLS; col++)
			fprintf(out, "<th>%s</th>", area_heads[col]);
		fputs("</tr>\n", out);
		for (unsigned row = 0; row < r->nr_areas; row++) {
			fputs("<tr>", out);
			for (unsigned col = 0; col < AREA_COLS; col++) {
				area_cell(r, row, col, buf);
				/* names and origins left, figures right */
				fputs(col && col < AREA_COLS - 1 ? "<td>" : "<td class=\"l\">", out);
				html_escape(out, buf);
				fputs("</td>", out);
			}
			fputs("</tr>\n", out);
		}
		fputs("</table>\n", out);
	}
	fputs("<p>Cost to the rest of the machine: ", out);
	html_escape(out, area_cost(r, buf, sizeof(buf)));
	fputs(".</p>\n", out);
}

/* ---- the page ---- */

static void html_run(FILE *out, const struct sim_result *r, const struct sim_result *runs, unsigned nr)
{
	unsigned i;

	fprintf(out, "<h2>Policy %s, kernel %s</h2>\n<h3>Physical memory by pageblock</h3>\n",
		r->policy, r->kernel);
	if (r->nr_snapshots)
		html_map_legend(out);
	else
		fputs("<p class=\"note\">No snapshots were taken.</p>\n", out);
	for (i = 0; i < r->nr_snapshots; i++)
		html_map(out, &r->snapshots[i]);
	html_areas(out, r);
	if (!r->nr_devices)
		fputs("<h3>Device latency</h3>\n<p class=\"note\">No devices.</p>\n", out);
	for (i = 0; i < r->nr_devices; i++) {
		html_histogram(out, &r->devices[i], runs, nr);
		html_breakdown(out, &r->devices[i]);
	}
	html_timeline(out, r);
	for (i = 0; i < r->nr_procs; i++) {
		fprintf(out, "<h3>%s%s at the end</h3>\n<pre>", proc_dir_of(r->procs[i].name),
			r->procs[i].name);
		html_escape(out, r->procs[i].text);
		fputs("</pre>\n", out);
	}
}

static void html_header(FILE *out, const struct sim_result *r)
{
	char t[FIGURE_MAX];

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>cmasim: ",
	      out);
	html_escape(out, r->scenario);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>cmasim: ", html_style);
	html_escape(out, r->scenario);
	fputs(" on ", out);
	html_escape(out, r->platform);
	fprintf(out, "</h1>\n<p>seed %" PRIu64 ", %s s of virtual time</p>\n", r->seed,
		fmt_seconds(t, r->duration_ns));
}

int report_html(const struct sim_result *runs, unsigned nr, FILE *out)
{
	char host[LABEL_MAX];
	unsigned i;

	if (!nr)
		return -1;
	html_header(out, runs);
	html_compare(out, runs, nr);
	html_tradeoff(out, runs, nr);
	for (i = 0; i < nr; i++)
		html_run(out, &runs[i], runs, nr);
	fprintf(out, "<p class=\"note\">%s</p>\n</body>\n</html>\n", fmt_host(host, runs, nr));
	return ferror(out) ? -1 : 0;
}
