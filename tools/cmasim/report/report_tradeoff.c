// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report's summary chart: the trade-off users choose a policy
 * on. Each run is one vertical bar at its usable memory (average, MiB),
 * spanning its devices' request latency from p50 to max, with p99
 * marked; the latencies of all its devices' requests are pooled. The
 * latency axis is logarithmic: the policies differ by orders of
 * magnitude (a cma request that migrates, a gcma one that drops). A run
 * that failed a request or missed a deadline is drawn hollow, labelled
 * with its failures, as compare_best() never ranks it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

static const char *const run_colours[] = {
	"#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#9c755f", "#edc948",
};
#define NR_RUN_COLOURS	(sizeof(run_colours) / sizeof(run_colours[0]))
#define MAX_RUNS	16	/* drawn; cmasim compares at most the five policies, or kernels */

struct pooled {
	uint64_t p50, p99, max;
	bool any;
};

/* Every successful request of @r's devices, through sim_latency's percentiles; false when out of memory. */
static bool pool(const struct sim_result *r, struct pooled *p)
{
	struct sim_latency l = { 0 };
	bool ok = true;

	*p = (struct pooled){ 0 };
	for (unsigned d = 0; d < r->nr_devices && ok; d++)
		for (size_t i = 0; i < r->devices[d].lat.nr && ok; i++)
			ok = !sim_latency_add(&l, r->devices[d].lat.ns[i]);
	if (ok && l.nr && !sim_latency_finish(&l))
		*p = (struct pooled){ .p50 = l.p50, .p99 = l.p99, .max = l.max, .any = true };
	free(l.ns);
	return ok;
}

struct axes {
	double x_lo, x_hi;		/* MiB */
	int y_lo, y_hi;			/* decades of ms */
};

static double x_of(const struct axes *a, double mib)
{
	return MARGIN_L + (mib - a->x_lo) / (a->x_hi - a->x_lo) * PLOT_W;
}

/* log10 of @ns in ms, a nanosecond at least */
static double decade(uint64_t ns)
{
	return log10(ns ? ns / 1e6 : 1e-6);
}

static double y_of(const struct axes *a, uint64_t ns)
{
	return MARGIN_T + PLOT_H - (decade(ns) - a->y_lo) / (a->y_hi - a->y_lo) * PLOT_H;
}

static void log_ticks(FILE *out, const struct axes *a)
{
	for (int d = a->y_lo; d <= a->y_hi; d++) {
		double y = MARGIN_T + PLOT_H - (double)(d - a->y_lo) / (a->y_hi - a->y_lo) * PLOT_H;

		fprintf(out, "<line class=\"grid\" x1=\"%u\" y1=\"%.1f\" x2=\"%u\" y2=\"%.1f\"/>"
			"<text x=\"%u\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			MARGIN_L, y, MARGIN_L + PLOT_W, y, MARGIN_L - 4, y + 4, pow(10, d));
	}
}

/* Round the usable range out to whole steps of 1, 2 or 5 times a power of ten, about five of them. */
static void x_range(struct axes *a, double lo, double hi)
{
	double span = hi - lo > 1 ? hi - lo : 1, step = pow(10, floor(log10(span / 5)));

	if (span / step > 25)
		step *= 5;
	else if (span / step > 10)
		step *= 2;
	a->x_lo = floor(lo / step) * step - step;
	a->x_hi = ceil(hi / step) * step + step;
	if (a->x_lo < 0)
		a->x_lo = 0;
}

static void x_ticks(FILE *out, const struct axes *a)
{
	double step = (a->x_hi - a->x_lo) / 5;
	char label[FIGURE_MAX];

	for (int i = 0; i <= 5; i++) {
		snprintf(label, sizeof(label), "%.0f", a->x_lo + i * step);
		svg_x_label(out, x_of(a, a->x_lo + i * step), label);
	}
}

/*
 * A policy's label beside its bar, placed so that no two overlap: the
 * bars of policies with about the same usable memory stand a few pixels
 * apart. The box is estimated from the label's length at the page's
 * 11 px font; it is the label's text line, anchored at (x, y) on the
 * baseline, to the right of x or (@end) to its left.
 */
#define LABEL_CHAR_W	7.0	/* wider than an 11 px sans-serif character, so estimates err apart */
#define LABEL_ASCENT	11.0
#define LABEL_LINE	14.0
#define LABEL_TRIES	24	/* lines above and below the point tried on each side */

struct label_box {
	double x, y, w;
	bool end;
};

static double box_left(const struct label_box *b)
{
	return b->end ? b->x - b->w : b->x;
}

static bool boxes_overlap(const struct label_box *a, const struct label_box *b)
{
	return box_left(a) < box_left(b) + b->w && box_left(b) < box_left(a) + a->w &&
	       a->y - LABEL_ASCENT < b->y + LABEL_LINE - LABEL_ASCENT &&
	       b->y - LABEL_ASCENT < a->y + LABEL_LINE - LABEL_ASCENT;
}

static bool box_fits(const struct label_box *b, const struct label_box *placed, unsigned nr_placed)
{
	if (box_left(b) < MARGIN_L || box_left(b) + b->w > MARGIN_L + PLOT_W + MARGIN_R ||
	    b->y - LABEL_ASCENT < 0 || b->y > MARGIN_T + PLOT_H)
		return false;
	for (unsigned i = 0; i < nr_placed; i++)
		if (boxes_overlap(b, &placed[i]))
			return false;
	return true;
}

/*
 * The first free place for a label of @chars characters by the point (@x, @y):
 * right of it, left of it, then a line further up or down each time.
 */
static struct label_box place_label(double x, double y, size_t chars, const struct label_box *placed,
				    unsigned nr_placed)
{
	struct label_box b = { .w = chars * LABEL_CHAR_W };

	for (int k = 0; k <= 2 * LABEL_TRIES; k++) {
		double dy = (k % 2 ? -1 : 1) * ((k + 1) / 2) * LABEL_LINE;

		for (int end = 0; end < 2; end++) {
			b.end = end;
			b.x = end ? x - 8 : x + 8;
			b.y = y + 4 + dy;
			if (box_fits(&b, placed, nr_placed))
				return b;
		}
	}
	b = (struct label_box){ .x = x + 8, .y = y + 4, .w = chars * LABEL_CHAR_W };
	return b;	/* no room left: where it would have gone first */
}

/*
 * A run's bar at its usable memory, p50 to max with p99 marked, labelled
 * at @at. Hollow and dashed when the run failed its devices: its figures
 * are of what it served, and the chart must not offer it as a choice.
 */
static void bar(FILE *out, const struct axes *a, const struct sim_result *r, const struct pooled *p,
		const char *colour, const char *name, const char *text, const struct label_box *at)
{
	double x = x_of(a, pages_bytes(r, r->usable_avg_pages) / 1048576.0);
	bool failed = !run_served_all(r);
	const char *fill = failed ? "#fff" : colour;
	char ms[3][FIGURE_MAX], why[SHORTFALL_MAX];

	fprintf(out, "<g%s><title>", failed ? " class=\"failed\"" : "");
	html_escape(out, name);
	fprintf(out, ": p50 %s ms, p99 %s ms, max %s ms", fmt_ms(ms[0], p->p50), fmt_ms(ms[1], p->p99),
		fmt_ms(ms[2], p->max));
	if (failed) {
		fputs(" of the requests it served; ", out);
		html_escape(out, run_shortfall(r, why, sizeof(why)));
	}
	fputs("</title>\n", out);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"%s/>\n",
		x, y_of(a, p->p50), x, y_of(a, p->max), colour, failed ? " stroke-dasharray=\"4 3\"" : "");
	fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		x, y_of(a, p->p50), fill, colour);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\" stroke=\"%s\" "
		"stroke-width=\"2\"/>\n", x - 4, y_of(a, p->p99) - 4, fill, colour);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		x - 6, y_of(a, p->max), x + 6, y_of(a, p->max), colour);
	fprintf(out, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\"%s>", at->x, at->y,
		at->end ? " text-anchor=\"end\"" : "");
	html_escape(out, text);
	fputs("</text></g>\n", out);
}

/* Is a policy that failed its devices among those drawn? */
static bool failed_drawn(const struct sim_result *runs, unsigned nr, const struct pooled *p)
{
	for (unsigned i = 0; i < nr; i++)
		if (p[i].any && !run_served_all(&runs[i]))
			return true;
	return false;
}

/* Below the chart: what the marks are, which policies served everything, and who is not drawn. */
static void tradeoff_caption(FILE *out, const struct sim_result *runs, unsigned nr, const struct pooled *p)
{
	char served[SERVED_ALL_MAX], label[LABEL_MAX];

	fputs("<p class=\"note\">Per policy, the latency of the device requests it served, pooled: the circle "
	      "is the median (p50), the square p99, the bar's top max. Up and left is worse: slower requests, "
	      "less memory for the rest of the machine. ", out);
	if (*compare_served_all(runs, nr, served, sizeof(served))) {
		fputs("<b>Served every device request in time: ", out);
		html_escape(out, served);
		fputs(".</b> ", out);
	} else {
		fputs("<b>No policy served every device request in time.</b> ", out);
	}
	if (failed_drawn(runs, nr, p))
		fputs("Hollow and dashed: a policy that failed requests or served them late, its failures beside "
		      "it; its latencies leave out what it did not serve. ", out);
	for (unsigned i = 0; i < nr; i++)
		if (!p[i].any) {
			html_escape(out, run_label(runs, nr, i, label));
			fputs(" served no request: not drawn. ", out);
		}
	fputs("</p>\n", out);
}

/* Run @i's label in the chart: its policy, and what it failed ("buddy: 16 failed"). */
static const char *bar_label(const struct sim_result *runs, unsigned nr, unsigned i, char buf[2 * LABEL_MAX])
{
	char name[LABEL_MAX], why[LABEL_MAX];

	run_label(runs, nr, i, name);
	if (run_served_all(&runs[i]))
		snprintf(buf, 2 * LABEL_MAX, "%s", name);
	else
		snprintf(buf, 2 * LABEL_MAX, "%s: %s", name, run_shortfall_brief(&runs[i], why));
	return buf;
}

static void legend(FILE *out, const struct sim_result *runs, unsigned nr, const struct pooled *p)
{
	char css[64], label[LABEL_MAX];

	fputs("<p>", out);
	for (unsigned i = 0; i < nr; i++) {
		const char *colour = run_colours[i % NR_RUN_COLOURS];

		if (!p[i].any)
			continue;
		if (run_served_all(&runs[i]))
			snprintf(css, sizeof(css), "background:%s", colour);
		else
			snprintf(css, sizeof(css), "background:#fff;border:2px dashed %s", colour);
		swatch(out, css, run_label(runs, nr, i, label));
	}
	fputs("</p>\n", out);
}

/* The axes' ranges over the runs drawn; false when none served a request. */
static bool tradeoff_axes(const struct sim_result *runs, unsigned nr, struct pooled *p, struct axes *a)
{
	double lo = 1e300, hi = 0;
	unsigned drawn = 0;

	*a = (struct axes){ .y_lo = 100, .y_hi = -100 };
	for (unsigned i = 0; i < nr; i++) {
		double mib = pages_bytes(&runs[i], runs[i].usable_avg_pages) / 1048576.0;

		if (!pool(&runs[i], &p[i]) || !p[i].any)
			continue;
		drawn++;
		lo = mib < lo ? mib : lo;
		hi = mib > hi ? mib : hi;
		if ((int)floor(decade(p[i].p50)) < a->y_lo)
			a->y_lo = (int)floor(decade(p[i].p50));
		if ((int)ceil(decade(p[i].max)) > a->y_hi)
			a->y_hi = (int)ceil(decade(p[i].max));
	}
	if (!drawn)
		return false;
	if (a->y_hi <= a->y_lo)
		a->y_hi = a->y_lo + 1;
	x_range(a, lo, hi);
	return true;
}

void html_tradeoff(FILE *out, const struct sim_result *runs, unsigned nr)
{
	struct pooled p[MAX_RUNS];
	struct label_box boxes[MAX_RUNS];
	struct axes a;
	char name[LABEL_MAX], text[2 * LABEL_MAX];
	unsigned placed = 0;

	nr = nr < MAX_RUNS ? nr : MAX_RUNS;
	fputs("<h2>Latency against usable memory</h2>\n", out);
	if (!tradeoff_axes(runs, nr, p, &a)) {
		fputs("<p class=\"note\">No device request was served.</p>\n", out);
		return;
	}
	legend(out, runs, nr, p);
	svg_open(out);
	log_ticks(out, &a);
	x_ticks(out, &a);
	svg_axes(out, "usable memory, average (MiB)", "device latency (ms, log)");
	for (unsigned i = 0; i < nr; i++) {
		double x = x_of(&a, pages_bytes(&runs[i], runs[i].usable_avg_pages) / 1048576.0);

		if (!p[i].any)
			continue;
		bar_label(runs, nr, i, text);
		boxes[placed] = place_label(x, y_of(&a, p[i].p50), strlen(text), boxes, placed);
		bar(out, &a, &runs[i], &p[i], run_colours[i % NR_RUN_COLOURS], run_label(runs, nr, i, name), text,
		    &boxes[placed]);
		placed++;
	}
	fputs("</svg>\n", out);
	tradeoff_caption(out, runs, nr, p);
}
