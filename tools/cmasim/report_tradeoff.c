// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report's summary chart: the trade-off users choose a policy
 * on. Each run is one vertical bar at its usable memory (average, MiB),
 * spanning its devices' request latency from p50 to max, with p99
 * marked; the latencies of all its devices' requests are pooled. The
 * latency axis is logarithmic: the policies differ by orders of
 * magnitude (a cma request that migrates, a gcma one that drops).
 */
#include <math.h>
#include <stdlib.h>

#include "report.h"

static const char *const run_colours[] = {
	"#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#9c755f", "#edc948",
};
#define NR_RUN_COLOURS	(sizeof(run_colours) / sizeof(run_colours[0]))

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

static void bar(FILE *out, const struct axes *a, const struct sim_result *r, const struct pooled *p,
		const char *colour, const char *label)
{
	double x = x_of(a, pages_bytes(r, r->usable_avg_pages) / 1048576.0);
	char ms[3][FIGURE_MAX];

	fprintf(out, "<g><title>%s: p50 %s ms, p99 %s ms, max %s ms</title>\n", label, fmt_ms(ms[0], p->p50),
		fmt_ms(ms[1], p->p99), fmt_ms(ms[2], p->max));
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n",
		x, y_of(a, p->p50), x, y_of(a, p->max), colour);
	fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x, y_of(a, p->p50), colour);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"/>\n", x - 4,
		y_of(a, p->p99) - 4, colour);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		x - 6, y_of(a, p->max), x + 6, y_of(a, p->max), colour);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 8, y_of(a, p->p50) + 4);
	html_escape(out, label);
	fputs("</text></g>\n", out);
}

void html_tradeoff(FILE *out, const struct sim_result *runs, unsigned nr)
{
	struct pooled p[16];
	struct axes a = { .y_lo = 100, .y_hi = -100 };
	double lo = 1e300, hi = 0;
	char label[LABEL_MAX];
	unsigned i, drawn = 0;

	fputs("<h2>Latency against usable memory</h2>\n", out);
	for (i = 0; i < nr && i < 16; i++) {
		double mib = pages_bytes(&runs[i], runs[i].usable_avg_pages) / 1048576.0;

		if (!pool(&runs[i], &p[i]) || !p[i].any)
			continue;
		drawn++;
		lo = mib < lo ? mib : lo;
		hi = mib > hi ? mib : hi;
		if ((int)floor(decade(p[i].p50)) < a.y_lo)
			a.y_lo = (int)floor(decade(p[i].p50));
		if ((int)ceil(decade(p[i].max)) > a.y_hi)
			a.y_hi = (int)ceil(decade(p[i].max));
	}
	if (!drawn) {
		fputs("<p class=\"note\">No device request was served.</p>\n", out);
		return;
	}
	if (a.y_hi <= a.y_lo)
		a.y_hi = a.y_lo + 1;
	x_range(&a, lo, hi);
	fputs("<p>", out);
	for (i = 0; i < nr && i < 16; i++) {
		char css[FIGURE_MAX];

		if (!p[i].any)
			continue;
		snprintf(css, sizeof(css), "background:%s", run_colours[i % NR_RUN_COLOURS]);
		swatch(out, css, run_label(runs, nr, i, label));
	}
	fputs("</p>\n", out);
	svg_open(out);
	log_ticks(out, &a);
	x_ticks(out, &a);
	svg_axes(out, "usable memory, average (MiB)", "device latency (ms, log)");
	for (i = 0; i < nr && i < 16; i++)
		if (p[i].any)
			bar(out, &a, &runs[i], &p[i], run_colours[i % NR_RUN_COLOURS], run_label(runs, nr, i, label));
	fputs("</svg>\n<p class=\"note\">Per policy, every device request served, pooled: the circle is "
	      "the median (p50), the square p99, the bar's top max. Up and left is worse: slower requests, "
	      "less memory for the rest of the machine.</p>\n", out);
}
