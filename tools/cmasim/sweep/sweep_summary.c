// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's summaries, read back from its JSON reports (with jansson):
 * summary.csv, a row per point and seed, and summary.html: a headline
 * that answers the sweep (from which value on every run served its
 * devices in time), then each figure against the swept parameter, in
 * words and MiB, the mean over the seeds with a bar from the smallest to
 * the largest, drawn with the run report's chart pieces.
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

#include "util/atomic_file.h"
#include "report/report.h"
#include "sweep/sweep.h"

#define MAX_COLUMNS	1024	/* 23 devices of 42 figures each (latency_breakdown is 24), the system besides */
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

/*
 * Charts side by side, two to a row on a wide window: each 720-unit SVG
 * drawn 500 px wide, so its text is set at 16 units to be 11 px on screen.
 */
#define CHART_PX	500
#define CHART_FONT	16
static const char charts_style[] =
	".charts{display:flex;flex-wrap:wrap;gap:0 24px}.charts svg{width:500px;height:auto}\n"
	".charts svg text{font-size:16px}\n"
	".key{display:inline-block;vertical-align:middle;margin:0 4px 0 12px}\n"
	".headline{font-size:1.1em}\n";
_Static_assert(CHART_FONT * CHART_PX >= 11 * (MARGIN_L + PLOT_W + MARGIN_R), "chart text under 11 px");

#define MAX_CATEGORIES	256
#define MAX_X_LABELS	16	/* more values than this: every second, third ... labelled */

/*
 * A series' look: colour, dashes and marker each cycle, so that two
 * series with equal values stay apart: the second's dashes and hollow
 * marker let the first show through.
 */
static const char *const series_colours[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f",
};
#define NR_COLOURS (sizeof(series_colours) / sizeof(series_colours[0]))
static const char *const series_dashes[] = { "none", "8 4", "2 3", "10 3 2 3" };
#define NR_DASHES (sizeof(series_dashes) / sizeof(series_dashes[0]))
enum marker { MARK_DOT, MARK_SQUARE, MARK_TRIANGLE, MARK_DIAMOND, NR_MARKERS };

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

/* ---- what a chart shows, in words ---- */

/* The report's own figures, named as a reader would; others are named from their keys (chart_words). */
static const struct { const char *name, *words; } figure_words[] = {
	{ "cma.pages", "CMA area size" },
	{ "cma.device_peak_pages", "devices' peak use of the CMA area" },
	{ "cma.device_peak_percent", "devices' peak use of the CMA area" },
	{ "cma.device_mean_pages", "devices' mean use of the CMA area" },
	{ "cma.device_mean_percent", "devices' mean use of the CMA area" },
	{ "system.usable_avg_pages", "usable memory, average" },
	{ "system.usable_min_pages", "usable memory, lowest" },
	{ "system.refaults", "refaults: rereads of what reclaim dropped" },
	{ "system.oom_kills", "OOM kills" },
	{ "system.pages_migrated", "memory migrated" },
	{ "system.pages_reclaimed", "memory reclaimed" },
	{ "system.pages_written_back", "memory written back" },
	{ "system.usable_given_up_avg_pages", "usable memory given up, average" },
	{ "system.usable_given_up_max_pages", "usable memory given up, most" },
	{ "system.device_migrated_pages", "memory migrated for the devices" },
	{ "system.device_reclaimed_pages", "memory reclaimed for the devices" },
	{ "system.frag_index", "fragmentation index at the end (-1: would succeed)" },
};

/* One chart: the figure @name (summed under it), titled, in its unit. */
struct chart_spec {
	const char *name;
	char title[3 * NAME_MAX_LEN];
	const char *unit;	/* the y axis' title */
	bool pages;		/* drawn in MiB, at each report's page size */
};

static bool key_has_word(const char *key, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = key; (p = strstr(p, word)); p += len)
		if ((p == key || p[-1] == '_') && (!p[len] || p[len] == '_'))
			return true;
	return false;
}

/* "gcma.cleancache.hit_percent" -> "gcma cleancache: hit"; the unit's word ("pages", "percent", "ms") dropped. */
static void words_of(const char *name, char *buf, size_t len)
{
	const char *key = strrchr(name, '.') ? strrchr(name, '.') + 1 : name;
	int prefix = key != name ? (int)(key - name - 1) : 0;
	size_t n = (size_t)snprintf(buf, len, "%.*s%s", prefix, name, prefix ? ":" : "");
	char copy[NAME_MAX_LEN], *save = NULL;

	for (char *p = buf; *p; p++)
		*p = *p == '.' ? ' ' : *p;
	snprintf(copy, sizeof(copy), "%s", key);
	for (char *w = strtok_r(copy, "_", &save); w && n < len; w = strtok_r(NULL, "_", &save))
		if (strcmp(w, "pages") && strcmp(w, "percent") && strcmp(w, "ms"))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", w);
}

static void chart_words(struct chart_spec *c, const char *name)
{
	const char *key = strrchr(name, '.') ? strrchr(name, '.') + 1 : name;
	char words[2 * NAME_MAX_LEN] = "";

	for (size_t i = 0; i < sizeof(figure_words) / sizeof(figure_words[0]); i++)
		if (!strcmp(figure_words[i].name, name))
			snprintf(words, sizeof(words), "%s", figure_words[i].words);
	if (!*words)
		words_of(name, words, sizeof(words));
	c->name = name;
	c->pages = key_has_word(key, "pages");
	c->unit = c->pages ? "MiB" : key_has_word(key, "percent") ? "%" : key_has_word(key, "ms") ? "ms" : "";
	snprintf(c->title, sizeof(c->title), *c->unit ? "%s (%s)" : "%s", words, c->unit);
	if (!*c->unit)
		c->unit = strstr(name, "frag_index") ? "index" : "count";
}

/* Point @k's value of @c, in MiB where it counts pages. */
static double chart_value(const struct table *t, size_t k, const struct chart_spec *c)
{
	double v = figure(t, k, c->name);

	return c->pages ? v * figure(t, k, "page_bytes") / 1048576.0 : v;
}

/* ---- the charts ---- */

struct stat_cell {
	unsigned n;
	double sum, min, max;
};

struct y_axis {
	double lo, hi;
};

static double chart_y(const struct y_axis *a, double v)
{
	return MARGIN_T + PLOT_H - (v - a->lo) / (a->hi - a->lo) * PLOT_H;
}

static double chart_x(const struct layout *l, unsigned x)
{
	return MARGIN_L + (x + 0.5) * PLOT_W / l->xs.nr;
}

/*
 * Series @sr's marker at (@x, @y), its tag left open for a <title>; the
 * element's name, to close it. The first series' is filled, the others
 * hollow and larger, so that an equal value of the first shows inside.
 */
static const char *marker_open(FILE *out, unsigned sr, double x, double y)
{
	const char *colour = series_colours[sr % NR_COLOURS], *element = "polygon";

	switch ((enum marker)(sr % NR_MARKERS)) {
	case MARK_DOT:
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"", x, y);
		element = "circle";
		break;
	case MARK_SQUARE:
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\"", x - 6, y - 6);
		element = "rect";
		break;
	case MARK_TRIANGLE:
		fprintf(out, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - 8, x - 7, y + 5, x + 7,
			y + 5);
		break;
	default:
		fprintf(out, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - 9, x + 9, y, x,
			y + 9, x - 9, y);
		break;
	}
	fprintf(out, " fill=\"%s\" stroke=\"%s\" stroke-width=\"2\">", sr ? "none" : colour, colour);
	return element;
}

static void chart_series(FILE *out, const struct layout *l, const struct stat_cell *cells, unsigned sr,
			 const struct y_axis *a)
{
	const char *colour = series_colours[sr % NR_COLOURS], *element;
	bool first = true;

	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" points=\"",
		colour, series_dashes[sr % NR_DASHES]);
	for (unsigned x = 0; x < l->xs.nr; x++) {
		const struct stat_cell *c = &cells[sr * l->xs.nr + x];

		if (c->n)
			fprintf(out, "%s%.1f,%.1f", first ? "" : " ", chart_x(l, x), chart_y(a, c->sum / c->n));
		first &= !c->n;
	}
	fputs("\"/>\n", out);
	for (unsigned x = 0; x < l->xs.nr; x++) {
		const struct stat_cell *c = &cells[sr * l->xs.nr + x];
		double cx = chart_x(l, x);

		if (!c->n)
			continue;
		fprintf(out, "<line stroke=\"%s\" stroke-width=\"1.5\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			colour, cx, chart_y(a, c->min), cx, chart_y(a, c->max));
		element = marker_open(out, sr, cx, chart_y(a, c->sum / c->n));
		fputs("<title>", out);
		if (l->series.nr > 1) {
			html_escape(out, l->series.names[sr]);
			fputs(", ", out);
		}
		html_escape(out, l->xs.names[x]);
		fprintf(out, ": mean %g, %g to %g over %u seeds</title></%s>\n", c->sum / c->n, c->min, c->max,
			c->n, element);
	}
}

/* The mean and spread of @c's figure per x value and series; the y range in @a. NULL when out of memory. */
static struct stat_cell *chart_cells(const struct table *t, const struct layout *l, const struct chart_spec *c,
				     struct y_axis *a)
{
	struct stat_cell *cells = calloc((size_t)l->xs.nr * l->series.nr, sizeof(*cells));

	*a = (struct y_axis){ 0, 0 };
	for (size_t k = 0; cells && k < t->s->nr_points; k++) {
		struct stat_cell *cell;
		double v;

		/* past MAX_CATEGORIES values or series, a point is in the CSV only */
		if (!t->rows[k] || l->point_x[k] == MAX_CATEGORIES || l->point_series[k] == MAX_CATEGORIES ||
		    isnan(v = chart_value(t, k, c)))
			continue;
		cell = &cells[l->point_series[k] * l->xs.nr + l->point_x[k]];
		cell->min = cell->n ? fmin(cell->min, v) : v;
		cell->max = cell->n ? fmax(cell->max, v) : v;
		cell->sum += v;
		cell->n++;
		a->lo = fmin(a->lo, v);
		a->hi = fmax(a->hi, v);
	}
	svg_y_range(&a->lo, &a->hi);
	return cells;
}

static const char *x_title(const struct sweep *s, const struct layout *l)
{
	if (l->x < 0)
		return "";
	return strcmp(s->params[l->x].key, "cma") ? s->params[l->x].key : "cma= (the CMA area's size)";
}

/* One chart: @c's mean and spread over the seeds, per x value and series. */
static void html_chart(FILE *out, const struct table *t, const struct layout *l, const struct chart_spec *c)
{
	struct y_axis a;
	struct stat_cell *cells = chart_cells(t, l, c, &a);

	if (!cells)
		return;
	fputs("<div><h3>", out);
	html_escape(out, c->title);
	fputs("</h3>\n", out);
	svg_open(out);
	svg_y_ticks(out, a.lo, a.hi);
	svg_axes(out, x_title(t->s, l), c->unit);
	for (unsigned x = 0; x < l->xs.nr; x += (l->xs.nr + MAX_X_LABELS - 1) / MAX_X_LABELS)
		svg_x_label(out, chart_x(l, x), l->xs.names[x]);
	for (unsigned sr = 0; sr < l->series.nr; sr++)
		chart_series(out, l, cells, sr, &a);
	fputs("</svg></div>\n", out);
	free(cells);
}

static void html_legend(FILE *out, const struct layout *l)
{
	if (l->series.nr < 2)
		return;
	fputs("<p>", out);
	for (unsigned sr = 0; sr < l->series.nr; sr++) {
		fprintf(out, "<svg class=\"key\" width=\"40\" height=\"20\" viewBox=\"0 0 40 20\">"
			"<line x1=\"0\" y1=\"10\" x2=\"40\" y2=\"10\" stroke=\"%s\" stroke-width=\"2\" "
			"stroke-dasharray=\"%s\"/>", series_colours[sr % NR_COLOURS], series_dashes[sr % NR_DASHES]);
		fprintf(out, "</%s></svg>", marker_open(out, sr, 20, 10));
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
	static const char *const figs[][3] = {
		{ "failures", "failed requests (all causes)", "requests" },
		{ "deadline_misses", "deadline misses (failures included)", "requests" },
		{ "latency_ms.p99", "p99 latency, ms (device time)", "ms" },
	};
	char dev[NAME_MAX_LEN], name[2 * NAME_MAX_LEN];

	for (unsigned c = 0; c < t->cols.nr; c++) {
		if (!device_column(t, c, dev, sizeof(dev)))
			continue;
		fputs("<h2>Device ", out);
		html_escape(out, dev);
		fputs("</h2>\n<div class=\"charts\">\n", out);
		for (unsigned f = 0; f < sizeof(figs) / sizeof(figs[0]); f++) {
			struct chart_spec spec = { .name = name, .unit = figs[f][2] };

			snprintf(name, sizeof(name), "%s.%s", dev, figs[f][0]);
			snprintf(spec.title, sizeof(spec.title), "%s: %s", dev, figs[f][1]);
			html_chart(out, t, l, &spec);
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
		struct chart_spec spec;

		for (unsigned d = 0; d < t->cols.nr && dot && !of_device; d++)
			of_device = device_column(t, d, dev, sizeof(dev)) && strlen(dev) == (size_t)(dot - name) &&
				    !strncmp(name, dev, dot - name);
		if (!dot || of_device || strstr(name, "frag_order"))
			continue;
		chart_words(&spec, name);
		html_chart(out, t, l, &spec);
	}
	fputs("</div>\n", out);
}

/* ---- the headline: from which x value on every run served its devices in time ---- */

/* Point @k's deadline misses over all its devices (every failure is one), NAN if it has none. */
static double point_misses(const struct table *t, size_t k)
{
	char dev[NAME_MAX_LEN], name[2 * NAME_MAX_LEN];
	double sum = NAN;

	for (unsigned c = 0; c < t->cols.nr; c++) {
		double v;

		if (!device_column(t, c, dev, sizeof(dev)))
			continue;
		snprintf(name, sizeof(name), "%s.deadline_misses", dev);
		v = figure(t, k, name);
		if (!isnan(v))
			sum = isnan(sum) ? v : sum + v;
	}
	return sum;
}

struct x_count {
	unsigned runs, missed;
};

/* The runs and those that missed per x value; false when no run has a device. */
static bool count_misses(const struct table *t, const struct layout *l, struct x_count *per_x)
{
	bool any = false;

	for (size_t k = 0; k < t->s->nr_points; k++) {
		double misses;

		if (!t->rows[k] || l->point_x[k] == MAX_CATEGORIES || isnan(misses = point_misses(t, k)))
			continue;
		any = true;
		per_x[l->point_x[k]].runs++;
		per_x[l->point_x[k]].missed += misses > 0;
	}
	return any;
}

/* "cma=16M": the x parameter at its value @x. */
static void x_value(FILE *out, const struct table *t, const struct layout *l, unsigned x)
{
	html_escape(out, t->s->params[l->x].key);
	fputc('=', out);
	html_escape(out, l->xs.names[x]);
}

/*
 * The sweep's answer in a line: from which value of the x parameter on
 * (in the order swept) every run served every device request in time,
 * and how many runs before it did not.
 */
static void html_headline(FILE *out, const struct table *t, const struct layout *l)
{
	struct x_count per_x[MAX_CATEGORIES] = { 0 }, all = { 0 }, before = { 0 };
	unsigned from = l->xs.nr;

	if (!count_misses(t, l, per_x))
		return;
	while (from > 0 && !per_x[from - 1].missed)
		from--;
	for (unsigned x = 0; x < l->xs.nr; x++) {
		struct x_count *sum = x < from ? &before : &all;

		sum->runs += per_x[x].runs;
		sum->missed += per_x[x].missed;
	}
	fputs("<p class=\"headline\"><b>", out);
	if (from == 0) {
		fprintf(out, "No failure or deadline miss in any of the %u runs.", all.runs);
	} else if (l->x < 0) {
		fprintf(out, "%u of %u runs failed a device request or missed a deadline.", before.missed,
			before.runs);
	} else if (from == l->xs.nr) {
		fputs("Failures or deadline misses up to ", out);
		x_value(out, t, l, l->xs.nr - 1);
		fputs(", the last value swept: none of them is enough.", out);
	} else {
		fputs("No failure or deadline miss from ", out);
		x_value(out, t, l, from);
		fprintf(out, " on (%u runs); before it, %u of %u runs failed a request or missed a deadline.",
			all.runs, before.missed, before.runs);
	}
	fputs("</b></p>\n", out);
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
	fputs("</h1>\n", out);
	html_headline(out, t, l);
	fprintf(out, "<p>%zu runs (of %zu points and seeds). Each mark is the mean over the seeds of a point; "
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
