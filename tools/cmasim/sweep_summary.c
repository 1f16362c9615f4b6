// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's summaries, read back from its JSON reports (with jansson):
 * summary.csv, a row per point and seed, and summary.html, each figure
 * against the swept parameter, the mean over the seeds with a bar from
 * the smallest to the largest, drawn with the run report's chart pieces.
 *
 * A report's figures are flattened to dotted names ("camera.latency_ms.p99",
 * "system.pages_migrated"): every number of its run but the timeline,
 * snapshots, workloads and host times, so figures the report gains show
 * up here without a change. The first report's names are the columns.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "atomic_file.h"
#include "report.h"
#include "sweep.h"

#define MAX_COLUMNS	512
#define NAME_MAX_LEN	128

struct figures {
	unsigned nr;
	char *names[MAX_COLUMNS];
	double values[MAX_COLUMNS];
	bool integer[MAX_COLUMNS];
};

struct table {
	const struct sweep *s;
	struct figures cols;		/* the first report's: names and kinds */
	double **rows;			/* by point: values by column, NAN where missing; NULL: not done */
	char title[256];		/* "SCENARIO on PLATFORM, policy P" */
};

static void add_figure(struct figures *f, const char *prefix, const char *key, json_t *v)
{
	if (f->nr == MAX_COLUMNS || asprintf(&f->names[f->nr], "%s%s", prefix, key) < 0)
		return;
	f->integer[f->nr] = json_is_integer(v);
	f->values[f->nr++] = json_number_value(v);
}

/* @obj's numbers, into @f as PREFIX.KEY, nested objects as PREFIX.KEY.SUB. */
static void flatten(struct figures *f, const char *prefix, json_t *obj)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		char sub[NAME_MAX_LEN];

		if (json_is_number(v)) {
			add_figure(f, prefix, key, v);
		} else if (json_is_object(v)) {
			snprintf(sub, sizeof(sub), "%s%s.", prefix, key);
			flatten(f, sub, v);
		}
	}
}

/* A run's figures: each device's under its name, then the run's own and its objects'. */
static void run_figures(struct figures *f, json_t *run)
{
	static const char *const skipped[] = { "devices", "workloads", "timeline", "snapshots", "proc", "host" };
	json_t *dev, *v;
	const char *key;
	size_t i;

	json_array_foreach(json_object_get(run, "devices"), i, dev) {
		char prefix[NAME_MAX_LEN];

		snprintf(prefix, sizeof(prefix), "%s.", json_string_value(json_object_get(dev, "name")) ?: "?");
		flatten(f, prefix, dev);
	}
	json_object_foreach(run, key, v) {
		bool skip = false;

		for (i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++)
			skip |= !strcmp(key, skipped[i]);
		if (skip)
			continue;
		if (json_is_number(v)) {
			add_figure(f, "", key, v);
		} else if (json_is_object(v)) {
			char prefix[NAME_MAX_LEN];

			snprintf(prefix, sizeof(prefix), "%s.", key);
			flatten(f, prefix, v);
		}
	}
}

static void free_figures(struct figures *f)
{
	for (unsigned i = 0; i < f->nr; i++)
		free(f->names[i]);
	f->nr = 0;
}

/* Point @k's report into the table; the first one read names the columns. */
static int read_report(struct table *t, size_t k)
{
	const struct sweep_point *pt = &t->s->points[k];
	struct figures f = { 0 };
	json_error_t err;
	json_t *root, *run;
	char path[4096];
	bool first;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", t->s->dir, pt->file);
	root = json_load_file(path, 0, &err);
	run = json_array_get(json_object_get(root, "runs"), 0);
	if (!run) {
		fprintf(stderr, "cmasim sweep: %s: not a cmasim JSON report (%s)\n", path,
			root ? "no runs" : err.text);
		json_decref(root);
		return -EINVAL;
	}
	run_figures(&f, run);
	first = !t->cols.nr;
	if (first) {
		t->cols = f;
		snprintf(t->title, sizeof(t->title), "%s on %s, policy %s",
			 json_string_value(json_object_get(root, "scenario")) ?: "?",
			 json_string_value(json_object_get(root, "platform")) ?: "?",
			 json_string_value(json_object_get(run, "policy")) ?: "?");
	}
	t->rows[k] = malloc(t->cols.nr * sizeof(double));
	if (!t->rows[k])
		ret = -ENOMEM;
	for (unsigned c = 0; c < t->cols.nr && !ret; c++) {
		t->rows[k][c] = NAN;
		for (unsigned j = 0; j < f.nr; j++)
			if (!strcmp(f.names[j], t->cols.names[c])) {
				t->rows[k][c] = f.values[j];
				break;
			}
	}
	if (!first)
		free_figures(&f);
	json_decref(root);
	return ret;
}

/* ---- summary.csv ---- */

static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++)
		fprintf(out, *s == '"' ? "\"\"" : "%c", *s);
	fputc('"', out);
}

static void write_csv(FILE *out, const struct table *t)
{
	const struct sweep *s = t->s;

	for (unsigned i = 0; i < s->nr_params; i++) {
		csv_field(out, s->params[i].key);
		fputc(',', out);
	}
	fputs("seed", out);
	for (unsigned c = 0; c < t->cols.nr; c++) {
		fputc(',', out);
		csv_field(out, t->cols.names[c]);
	}
	fputc('\n', out);
	for (size_t k = 0; k < s->nr_points; k++) {
		if (!t->rows[k])
			continue;
		for (unsigned i = 0; i < s->nr_params; i++) {
			csv_field(out, s->points[k].values[i]);
			fputc(',', out);
		}
		csv_field(out, s->points[k].seed);
		for (unsigned c = 0; c < t->cols.nr; c++) {
			double v = t->rows[k][c];

			if (isnan(v))
				fputc(',', out);
			else if (t->cols.integer[c])
				fprintf(out, ",%.0f", v);
			else
				fprintf(out, ",%.3f", v);
		}
		fputc('\n', out);
	}
}

/* ---- summary.html ---- */

/* Charts side by side, two to a row on a wide window. */
static const char charts_style[] =
	".charts{display:flex;flex-wrap:wrap;gap:0 24px}.charts svg{width:500px;height:auto}\n";

#define MAX_CATEGORIES	256
#define MAX_X_LABELS	16	/* more values than this: every second, third ... labelled */

static const char *const series_colours[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f",
};
#define NR_COLOURS (sizeof(series_colours) / sizeof(series_colours[0]))

/* The distinct strings, in the order first seen. */
struct categories {
	unsigned nr;
	char *names[MAX_CATEGORIES];
};

static unsigned category(struct categories *c, const char *name, bool add)
{
	unsigned i;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->names[i], name))
			return i;
	if (!add || c->nr == MAX_CATEGORIES)
		return MAX_CATEGORIES;
	c->names[c->nr] = strdup(name);
	return c->names[c->nr] ? c->nr++ : MAX_CATEGORIES;
}

/* The x axis: the first parameter with two values or more, else the first, else none. */
struct layout {
	int x;			/* param index; -1: none */
	struct categories xs, series;
	unsigned *point_x, *point_series;	/* by point */
};

/* "anon.rss=256M, camera.ring=2": the point's values of every parameter but the x axis'. */
static void series_name(const struct sweep *s, int x, size_t k, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < s->nr_params && n < len; i++)
		if ((int)i != x)
			n += snprintf(buf + n, len - n, "%s%s=%s", n ? ", " : "", s->params[i].key,
				      s->points[k].values[i]);
}

static int make_layout(const struct table *t, struct layout *l)
{
	const struct sweep *s = t->s;
	char name[512];

	l->x = s->nr_params ? 0 : -1;
	for (unsigned i = 0; i < s->nr_params; i++) {
		struct categories c = { 0 };

		for (size_t k = 0; k < s->nr_points && c.nr < 2; k++)
			category(&c, s->points[k].values[i], true);
		for (unsigned j = 0; j < c.nr; j++)
			free(c.names[j]);
		if (c.nr > 1) {
			l->x = (int)i;
			break;
		}
	}
	l->point_x = calloc(s->nr_points, sizeof(unsigned));
	l->point_series = calloc(s->nr_points, sizeof(unsigned));
	if (!l->point_x || !l->point_series)
		return -ENOMEM;
	for (size_t k = 0; k < s->nr_points; k++) {
		series_name(s, l->x, k, name, sizeof(name));
		l->point_x[k] = category(&l->xs, l->x < 0 ? "all" : s->points[k].values[l->x], true);
		l->point_series[k] = category(&l->series, name, true);
	}
	return 0;
}

static void free_layout(struct layout *l)
{
	for (unsigned i = 0; i < l->xs.nr; i++)
		free(l->xs.names[i]);
	for (unsigned i = 0; i < l->series.nr; i++)
		free(l->series.names[i]);
	free(l->point_x);
	free(l->point_series);
}

/* A point's figure: the column @name, or the sum of the columns under it ("camera.failures"). */
static double figure(const struct table *t, size_t k, const char *name)
{
	size_t len = strlen(name);
	double sum = NAN;

	for (unsigned c = 0; c < t->cols.nr; c++)
		if (!strncmp(t->cols.names[c], name, len) &&
		    (!t->cols.names[c][len] || t->cols.names[c][len] == '.') && !isnan(t->rows[k][c]))
			sum = isnan(sum) ? t->rows[k][c] : sum + t->rows[k][c];
	return sum;
}

struct stat_cell {
	unsigned n;
	double sum, min, max;
};

static double chart_y(double v, double top)
{
	return MARGIN_T + PLOT_H - v / top * PLOT_H;
}

static double chart_x(const struct layout *l, unsigned x)
{
	return MARGIN_L + (x + 0.5) * PLOT_W / l->xs.nr;
}

static void chart_series(FILE *out, const struct layout *l, const struct stat_cell *cells, unsigned sr,
			 double top)
{
	const char *colour = series_colours[sr % NR_COLOURS];
	bool first = true;

	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
	for (unsigned x = 0; x < l->xs.nr; x++) {
		const struct stat_cell *c = &cells[sr * l->xs.nr + x];

		if (c->n)
			fprintf(out, "%s%.1f,%.1f", first ? "" : " ", chart_x(l, x), chart_y(c->sum / c->n, top));
		first &= !c->n;
	}
	fputs("\"/>\n", out);
	for (unsigned x = 0; x < l->xs.nr; x++) {
		const struct stat_cell *c = &cells[sr * l->xs.nr + x];
		double cx = chart_x(l, x);

		if (!c->n)
			continue;
		fprintf(out, "<line stroke=\"%s\" stroke-width=\"1.5\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			colour, cx, chart_y(c->min, top), cx, chart_y(c->max, top));
		fprintf(out, "<circle fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>mean %g, %g to %g over %u seeds</title></circle>\n",
			colour, cx, chart_y(c->sum / c->n, top), c->sum / c->n, c->min, c->max, c->n);
	}
}

/* One chart: the figure @name's mean and spread over the seeds, per x value and series. */
static void html_chart(FILE *out, const struct table *t, const struct layout *l, const char *name,
		       const char *title)
{
	const struct sweep *s = t->s;
	struct stat_cell *cells = calloc((size_t)l->xs.nr * l->series.nr, sizeof(*cells));
	double top = 0;

	if (!cells)
		return;
	for (size_t k = 0; k < s->nr_points; k++) {
		struct stat_cell *c;
		double v;

		/* past MAX_CATEGORIES values or series, a point is in the CSV only */
		if (!t->rows[k] || l->point_x[k] == MAX_CATEGORIES || l->point_series[k] == MAX_CATEGORIES ||
		    isnan(v = figure(t, k, name)))
			continue;
		c = &cells[l->point_series[k] * l->xs.nr + l->point_x[k]];
		c->min = c->n ? fmin(c->min, v) : v;
		c->max = c->n ? fmax(c->max, v) : v;
		c->sum += v;
		c->n++;
		top = fmax(top, v);
	}
	top = top > 0 ? top : 1;
	fputs("<div><h3>", out);
	html_escape(out, title);
	fputs("</h3>\n", out);
	svg_open(out);
	svg_y_ticks(out, top);
	svg_axes(out, l->x < 0 ? "" : s->params[l->x].key, title);
	for (unsigned x = 0; x < l->xs.nr; x += (l->xs.nr + MAX_X_LABELS - 1) / MAX_X_LABELS)
		svg_x_label(out, chart_x(l, x), l->xs.names[x]);
	for (unsigned sr = 0; sr < l->series.nr; sr++)
		chart_series(out, l, cells, sr, top);
	fputs("</svg></div>\n", out);
	free(cells);
}

static void html_legend(FILE *out, const struct layout *l)
{
	char css[64];

	if (l->series.nr < 2)
		return;
	fputs("<p>", out);
	for (unsigned sr = 0; sr < l->series.nr; sr++) {
		snprintf(css, sizeof(css), "background:%s", series_colours[sr % NR_COLOURS]);
		swatch(out, css, "");
		html_escape(out, l->series.names[sr]);
	}
	fputs("</p>\n", out);
}

/* Is column @c the first of a device's ("camera.requests")? Its name then, in @dev. */
static bool device_column(const struct table *t, unsigned c, char *dev, size_t len)
{
	const char *name = t->cols.names[c], *dot = strchr(name, '.');

	if (!dot || strcmp(dot, ".requests"))
		return false;
	snprintf(dev, len, "%.*s", (int)(dot - name), name);
	return true;
}

static void html_device_charts(FILE *out, const struct table *t, const struct layout *l)
{
	static const char *const figs[][2] = {
		{ "failures", "failed requests (all causes)" },
		{ "deadline_misses", "deadline misses" },
		{ "latency_ms.p99", "p99 latency, ms (device time)" },
	};
	char dev[NAME_MAX_LEN], name[2 * NAME_MAX_LEN], title[3 * NAME_MAX_LEN];

	for (unsigned c = 0; c < t->cols.nr; c++) {
		if (!device_column(t, c, dev, sizeof(dev)))
			continue;
		fputs("<h2>Device ", out);
		html_escape(out, dev);
		fputs("</h2>\n<div class=\"charts\">\n", out);
		for (unsigned f = 0; f < sizeof(figs) / sizeof(figs[0]); f++) {
			snprintf(name, sizeof(name), "%s.%s", dev, figs[f][0]);
			snprintf(title, sizeof(title), "%s: %s", dev, figs[f][1]);
			html_chart(out, t, l, name, title);
		}
		fputs("</div>\n", out);
	}
}

/* The system's figures and any other object's the run reports, one chart each. */
static void html_system_charts(FILE *out, const struct table *t, const struct layout *l)
{
	char dev[NAME_MAX_LEN];

	fputs("<h2>The rest of the machine</h2>\n<div class=\"charts\">\n", out);
	for (unsigned c = 0; c < t->cols.nr; c++) {
		const char *name = t->cols.names[c], *dot = strchr(name, '.');
		bool of_device = false;

		for (unsigned d = 0; d < t->cols.nr && dot && !of_device; d++)
			of_device = device_column(t, d, dev, sizeof(dev)) && strlen(dev) == (size_t)(dot - name) &&
				    !strncmp(name, dev, dot - name);
		if (dot && !of_device && !strstr(name, "frag_order"))
			html_chart(out, t, l, name, name);
	}
	fputs("</div>\n", out);
}

static void write_html(FILE *out, const struct table *t, const struct layout *l)
{
	size_t done = 0;

	for (size_t k = 0; k < t->s->nr_points; k++)
		done += t->rows[k] != NULL;
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>cmasim sweep: ");
	html_escape(out, t->title);
	fprintf(out, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n<h1>cmasim sweep: ", html_style,
		charts_style);
	html_escape(out, t->title);
	fprintf(out, "</h1>\n<p>%zu runs (of %zu points and seeds). Each dot is the mean over the seeds of a point; "
		"its bar spans the smallest to the largest value.</p>\n", done, t->s->nr_points);
	html_legend(out, l);
	html_device_charts(out, t, l);
	html_system_charts(out, t, l);
	fputs("</body>\n</html>\n", out);
}

/* DIR/NAME, whole or not at all (atomic_file.h). */
static int write_file(const struct table *t, const char *name, const struct layout *l)
{
	struct atomic_file af;
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", t->s->dir, name);
	if ((ret = atomic_file_open(&af, path, "sweep summary")))
		return ret;
	if (l)
		write_html(af.f, t, l);
	else
		write_csv(af.f, t);
	return atomic_file_commit(&af);
}

int sweep_summarize(const struct sweep *s)
{
	struct table t = { .s = s };
	struct layout l = { 0 };
	int ret = 0;

	t.rows = calloc(s->nr_points ? s->nr_points : 1, sizeof(*t.rows));
	if (!t.rows)
		return -ENOMEM;
	for (size_t k = 0; k < s->nr_points && !ret; k++)
		if (s->points[k].done)
			ret = read_report(&t, k);
	if (!ret && !t.cols.nr) {
		fprintf(stderr, "cmasim sweep: %s holds no report yet: no summary\n", s->dir);
		ret = -ENOENT;
	}
	if (!ret)
		ret = make_layout(&t, &l);
	if (!ret)
		ret = write_file(&t, "summary.csv", NULL);
	if (!ret)
		ret = write_file(&t, "summary.html", &l);
	free_layout(&l);
	for (size_t k = 0; k < s->nr_points; k++)
		free(t.rows[k]);
	free(t.rows);
	free_figures(&t.cols);
	return ret;
}
