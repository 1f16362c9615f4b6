// SPDX-License-Identifier: GPL-2.0
/*
 * The charts' pieces, which the HTML report, its trade-off summary and
 * sweep's summary page draw with: a legend's swatch, the SVG of a plot
 * area PLOT_W x PLOT_H at (MARGIN_L, MARGIN_T), its axes and their ticks
 * at round steps. Coordinates are printed with one decimal.
 */
#include <math.h>
#include <stdio.h>

#include "report/report.h"

#define MAX_TICKS	6

void swatch(FILE *out, const char *css, const char *label)
{
	fprintf(out, "<span class=\"sw\" style=\"%s\"></span>%s", css, label);
}

/* 1, 2 or 5 times a power of ten, giving at most MAX_TICKS steps over @range. */
static double nice_step(double range)
{
	static const double mult[] = { 1, 2, 5 };
	double decade = 1e-6;
	unsigned k;

	for (k = 0;; k++) {
		if (range / (mult[k % 3] * decade) <= MAX_TICKS)
			return mult[k % 3] * decade;
		if (k % 3 == 2)
			decade *= 10;
	}
}

void svg_open(FILE *out)
{
	unsigned w = MARGIN_L + PLOT_W + MARGIN_R, h = MARGIN_T + PLOT_H + MARGIN_B;

	fprintf(out, "<svg viewBox=\"0 0 %u %u\" width=\"%u\" height=\"%u\" role=\"img\">\n",
		w, h, w, h);
}

/* The two axis lines and their titles. */
void svg_axes(FILE *out, const char *x_title, const char *y_title)
{
	fprintf(out, "<line class=\"axis\" x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\"/>\n",
		MARGIN_L, MARGIN_T + PLOT_H, MARGIN_L + PLOT_W, MARGIN_T + PLOT_H);
	fprintf(out, "<line class=\"axis\" x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\"/>\n",
		MARGIN_L, MARGIN_T, MARGIN_L, MARGIN_T + PLOT_H);
	fprintf(out, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">%s</text>\n",
		MARGIN_L + PLOT_W / 2, MARGIN_T + PLOT_H + 39, x_title);
	fprintf(out, "<text transform=\"translate(14 %u) rotate(-90)\" text-anchor=\"middle\">"
		"%s</text>\n", MARGIN_T + PLOT_H / 2, y_title);
}

/* The label's baseline 21 units below the axis: clear of a mark drawn on the axis, at 16 units too. */
void svg_x_label(FILE *out, double x, const char *label)
{
	fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%u\" x2=\"%.1f\" y2=\"%u\"/>"
		"<text x=\"%.1f\" y=\"%u\" text-anchor=\"middle\">%s</text>\n",
		x, MARGIN_T + PLOT_H, x, MARGIN_T + PLOT_H + 4, x, MARGIN_T + PLOT_H + 21, label);
}

void svg_y_range(double *lo, double *hi)
{
	double step;

	*lo = *lo < 0 ? *lo : 0;
	*hi = *hi > *lo ? *hi : *lo + 1;
	step = nice_step(*hi - *lo);
	*lo = floor(*lo / step + 1e-9) * step;
	*hi = ceil(*hi / step - 1e-9) * step;
}

/* Ticks at multiples of a nice step from @lo to @hi (svg_y_range's), with grid lines across. */
void svg_y_ticks(FILE *out, double lo, double hi)
{
	double step = nice_step(hi - lo), y;

	for (unsigned i = 0; lo + i * step <= hi + (hi - lo) * 1e-9; i++) {
		double v = lo + i * step;

		v = fabs(v) < step * 1e-9 ? 0 : v;	/* not -1.38778e-17 after steps of 0.2 */
		y = MARGIN_T + PLOT_H - (v - lo) / (hi - lo) * PLOT_H;
		fprintf(out, "<line class=\"grid\" x1=\"%u\" y1=\"%.1f\" x2=\"%u\" y2=\"%.1f\"/>"
			"<text x=\"%u\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			MARGIN_L, y, MARGIN_L + PLOT_W, y, MARGIN_L - 4, y + 4, v);
	}
}

void svg_x_ticks(FILE *out, double max)
{
	double step = nice_step(max), v;
	char label[FIGURE_MAX];

	for (v = 0; v <= max * (1 + 1e-9); v += step) {
		snprintf(label, sizeof(label), "%g", v);
		svg_x_label(out, MARGIN_L + v / max * PLOT_W, label);
	}
}
