// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim replay --report html: the predicted latency of each request
 * against the measured one on log-log axes, the diagonal where they are
 * equal and the band within 2x of it around; then the requests in time,
 * measured and predicted, on a log latency axis. Drawn with the HTML
 * report's chart pieces (report/report.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "replay/replay.h"
#include "report/report.h"
#include "util/escape.h"

/* Decades [lo, hi] of log10 ms that take in every latency compared. */
struct log_axis {
	double lo, hi;
};

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static struct log_axis latency_axis(const struct replay_summary *s)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < s->nr; i++) {
		const struct replay_pair *x = &s->pairs[i];

		if (x->ratio <= 0)
			continue;
		lo = fmin(lo, fmin(log10(ms(x->m->latency_ns)), log10(ms(x->p->latency_ns))));
		hi = fmax(hi, fmax(log10(ms(x->m->latency_ns)), log10(ms(x->p->latency_ns))));
	}
	lo = floor(lo);
	hi = ceil(hi);
	return (struct log_axis){ lo, hi > lo ? hi : lo + 1 };
}

static double plot_x(const struct log_axis *a, double log_ms)
{
	return MARGIN_L + PLOT_W * (log_ms - a->lo) / (a->hi - a->lo);
}

static double plot_y(const struct log_axis *a, double log_ms)
{
	return MARGIN_T + PLOT_H * (1 - (log_ms - a->lo) / (a->hi - a->lo));
}

/* A tick and its label at each decade of the y axis. */
static void y_decades(FILE *out, const struct log_axis *a)
{
	for (double d = a->lo; d <= a->hi; d++)
		fprintf(out, "<text x=\"%u\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", MARGIN_L - 6,
			plot_y(a, d) + 4, pow(10, d));
}

static void scatter(FILE *out, const struct replay_summary *s, const struct log_axis *a)
{
	const double two = log10(2);
	char label[32];

	svg_open(out);
	/* the band within 2x: between predicted = measured / 2 and predicted = 2 measured */
	fprintf(out, "<polygon fill=\"#dfe8f5\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
		plot_x(a, a->lo), plot_y(a, a->lo + two), plot_x(a, a->hi - two), plot_y(a, a->hi),
		plot_x(a, a->hi), plot_y(a, a->hi - two), plot_x(a, a->lo + two), plot_y(a, a->lo));
	fprintf(out, "<line stroke=\"#888\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", plot_x(a, a->lo),
		plot_y(a, a->lo), plot_x(a, a->hi), plot_y(a, a->hi));
	svg_axes(out, "measured latency, ms (log)", "predicted, ms (log)");
	for (double d = a->lo; d <= a->hi; d++) {
		snprintf(label, sizeof(label), "%g", pow(10, d));
		svg_x_label(out, plot_x(a, d), label);
	}
	y_decades(out, a);
	for (size_t i = 0; i < s->nr; i++) {
		const struct replay_pair *x = &s->pairs[i];

		if (x->ratio <= 0)
			continue;
		fprintf(out, "<circle r=\"3\" fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\"><title>#%zu: %.3f ms measured, %.3f ms predicted</title></circle>\n",
			x->ratio >= 0.5 && x->ratio <= 2 ? "#1f5fa8" : "#c0392b", plot_x(a, log10(ms(x->m->latency_ns))),
			plot_y(a, log10(ms(x->p->latency_ns))), i, ms(x->m->latency_ns), ms(x->p->latency_ns));
	}
	fputs("</svg>\n", out);
}

/* Each request at its start: its measured latency, and the run's beside it. */
static void timeline(FILE *out, const struct replay_summary *s, const struct log_axis *a)
{
	uint64_t first = s->pairs[0].m->start_ns, last = first;
	char label[32];

	for (size_t i = 0; i < s->nr; i++)
		last = s->pairs[i].m->start_ns > last ? s->pairs[i].m->start_ns : last;
	svg_open(out);
	svg_axes(out, "start, s", "latency, ms (log)");
	y_decades(out, a);
	for (unsigned k = 0; k <= 4; k++) {
		snprintf(label, sizeof(label), "%.3f", ((double)first + (double)(last - first) * k / 4) / 1e9);
		svg_x_label(out, MARGIN_L + PLOT_W * k / 4.0, label);
	}
	for (size_t i = 0; i < s->nr; i++) {
		const struct replay_pair *x = &s->pairs[i];
		double cx = MARGIN_L + (last > first ? PLOT_W * (double)(x->m->start_ns - first) / (double)(last - first) : 0);

		if (x->ratio <= 0)
			continue;
		fprintf(out, "<circle r=\"3\" fill=\"#333\" cx=\"%.1f\" cy=\"%.1f\"/><circle r=\"3\" fill=\"#e67e22\" cx=\"%.1f\" cy=\"%.1f\"/>\n",
			cx, plot_y(a, log10(ms(x->m->latency_ns))), cx, plot_y(a, log10(ms(x->p->latency_ns))));
	}
	fputs("</svg>\n", out);
}

/* The what-if's summary beside the baseline's, and its own scatter against the measured latencies. */
static void what_if_html(FILE *out, const struct replay_summary *base, const struct replay_what_if *w)
{
	const struct replay_summary *s = &w->sum;
	char change[256];
	struct log_axis a;

	replay_what_if_describe(w->board, change, sizeof(change));
	fputs("<h2>What if: ", out);
	html_escape(out, change);
	fprintf(out, "</h2>\n<p>Served: measured %u, baseline %u, what-if %u of %zu requests; against the measured run the what-if agrees on success %u (baseline %u), on pfn %u (baseline %u), latency within 2x on %u of %u (baseline %u of %u).</p>\n",
		replay_served(s, true), replay_served(base, false), replay_served(s, false), s->nr, s->success_agree,
		base->success_agree, s->pfn_agree, base->pfn_agree, s->within_2x, s->compared, base->within_2x,
		base->compared);
	if (!s->compared)
		return;
	a = latency_axis(s);
	scatter(out, s, &a);
}

int replay_print_html(const struct replay_summary *s, const struct replay_what_if *w, const char *trace,
		      const struct replay_board *b, FILE *out)
{
	char background[4096 + 256];
	struct log_axis a;

	replay_background_describe(b->background, background, sizeof(background));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>cmasim replay: ", out);
	html_escape(out, trace);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>cmasim replay: ", html_style);
	html_escape(out, trace);
	fputs("</h1>\n<p>On ", out);
	html_escape(out, b->platform);
	fprintf(out, " under %s; background: ", b->policy ? b->policy : "cma");
	html_escape(out, background);
	fprintf(out, ".</p>\n<p>%zu requests: success agrees on %u, pfn on %u of %u placed by both; latency within 2x on %u of %u",
		s->nr, s->success_agree, s->pfn_agree, s->both_placed, s->within_2x, s->compared);
	if (s->compared)
		fprintf(out, ", median ratio (predicted/measured) %.2f", s->median_ratio);
	fputs(".</p>\n", out);
	if (!s->compared) {
		fputs("<p>No request has both latencies: nothing to draw.</p>\n", out);
		if (w)
			what_if_html(out, s, w);
		return fputs("</body>\n</html>\n", out) < 0 ? -EIO : 0;
	}
	a = latency_axis(s);
	fputs("<h2>Predicted against measured</h2>\n<p>", out);
	swatch(out, "background:#dfe8f5", "within 2x");
	fputs("</p>\n", out);
	scatter(out, s, &a);
	fputs("<h2>In time</h2>\n<p>", out);
	swatch(out, "background:#333", "measured");
	swatch(out, "background:#e67e22", "predicted");
	fputs("</p>\n", out);
	timeline(out, s, &a);
	if (w)
		what_if_html(out, s, w);
	return fputs("</body>\n</html>\n", out) < 0 ? -EIO : 0;
}
