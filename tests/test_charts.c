// SPDX-License-Identifier: GPL-2.0
/*
 * What cmasim's comparison and sweep pages show, end to end (issue 26,
 * points 3 and 8): the cmasim built beside this test (BUILD/cmasim;
 * CMASIM=path overrides) runs a compare on tests/scenarios/buddy-fails.ini
 * and a small sweep, and the test reads the text, the HTML and its SVG as
 * a reader would look at them: which figure is marked best, whether every
 * value lies on its chart's axis, whether two equal series can be told
 * apart, the titles' words and units, the text's size on screen, and the
 * sweep's answer in its headline against the CSV it summarizes.
 */
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

#define SCENARIO	"tests/scenarios/buddy-fails.ini"
#define CHART_W		720	/* the charts' viewBox width (MARGIN_L + PLOT_W + MARGIN_R) */
#define PLOT_TOP	12	/* MARGIN_T */
#define PLOT_BOTTOM	232	/* MARGIN_T + PLOT_H */
#define SWEEP_CMA	"8M,16M,24M"
#define MAX_CHARTS	64

static char cmasim[PATH_MAX], source_dir[PATH_MAX];
static char sweep_dir[64];	/* the sweep's directory, made once for the sweep tests */

/* Run "cmasim @args" in the source tree, its stdout to @out; fail unless it exits 0. */
static void cmasim_ok(const char *args, const char *out)
{
	char cmd[2 * PATH_MAX + 512];
	int status;

	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' %s >'%s' 2>'%s.err'", source_dir, cmasim, args, out, out);
	status = system(cmd);
	if (status)
		fail_msg("%s: status %d", cmd, status);
}

/* The text's line that starts with @label and a space, or the test fails. */
static const char *line_of(const char *text, const char *label)
{
	for (const char *l = text; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, label, strlen(label)) && l[strlen(label)] == ' ')
			return l;
	fail_msg("no line \"%s\" in:\n%s", label, text);
	return NULL;
}

/* ---- compare ---- */

/*
 * Expect (issue 26 point 3) on the board where buddy cannot serve the
 * codec at all and fails some camera requests, yet keeps the most
 * usable memory: no "*" in buddy's column, cma marked for usable memory,
 * the rule naming cma and carveout and a line on what buddy failed; in
 * the HTML, no bold cell of buddy's, its bar hollow and labelled with
 * its failures, and a caption that names who served everything.
 */
static void compare_never_crowns_the_policy_that_failed(void **state)
{
	char out[64] = "/tmp/test_charts_XXXXXX", html_path[64], args[256];	/* room for ".err" */
	const char *usable, *head, *l;
	char *text, *html, *row, cells[128];
	double cma_mib, carveout_mib, buddy_mib;
	size_t buddy_col;
	int fd = mkstemp(out);

	assert_true(fd >= 0);
	close(fd);
	cmasim_ok("compare --scenario " SCENARIO, out);
	text = test_read_file(out);
	/* the scenario still shows what it was written for */
	usable = line_of(text, "usable avg MiB");
	snprintf(cells, sizeof(cells), "%.*s", (int)strcspn(usable, "\n"), usable + strlen("usable avg MiB"));
	for (char *star = cells; (star = strchr(star, '*'));)
		*star = ' ';
	assert_int_equal(sscanf(cells, "%lf %lf %lf", &cma_mib, &carveout_mib, &buddy_mib), 3);
	if (!(buddy_mib > cma_mib && buddy_mib > carveout_mib))
		fail_msg("buddy no longer keeps the most usable memory:\n%s", usable);
	assert_non_null(strstr(line_of(text, "codec failed"), "(too-large"));
	/* buddy's column is the last; no mark in it on any line of the table */
	head = strstr(text, "\n\n") + 2;
	buddy_col = (size_t)(strstr(head, "buddy") - head) - 1;
	for (l = head; *l && *l != '\n'; l = strchr(l, '\n') + 1) {
		const char *star = memchr(l, '*', (size_t)(strchrnul(l, '\n') - l));

		if (star && (size_t)(star - l) >= buddy_col)
			fail_msg("a mark in buddy's column: %.*s", (int)(strchrnul(l, '\n') - l), l);
	}
	assert_non_null(strstr(text, "\n* best in its row among the policies that served every device request in "
				     "time (cma, carveout):\n"));
	row = strstr(text, "\nbuddy is not ranked: camera ");
	assert_non_null(row);
	/* "camera N of M failed[, K served late]; codec 14 of 14 failed" */
	assert_non_null(strstr(row, " failed"));
	assert_true(strstr(row, " failed") < strstr(row, "; codec 14 of 14 failed\n"));
	free(text);

	snprintf(html_path, sizeof(html_path), "%s.html", out);
	snprintf(args, sizeof(args), "compare --scenario " SCENARIO " --report html --output '%s'", html_path);
	cmasim_ok(args, out);
	html = test_read_file(html_path);
	for (const char *tr = strstr(html, "<tr><td class=\"l\">"); tr; tr = strstr(tr + 1, "<tr><td class=\"l\">")) {
		const char *last = tr, *end = strstr(tr, "</tr>");

		for (const char *td = strstr(tr, "<td"); td && td < end; td = strstr(td + 1, "<td"))
			last = td;
		if (!strncmp(last, "<td class=\"best\">", 17))
			fail_msg("buddy's cell is bold: %.*s", (int)(end - tr), tr);
	}
	assert_non_null(strstr(html, "<td class=\"l\">usable avg MiB</td><td class=\"best\">"));
	assert_non_null(strstr(html, "<g class=\"failed\"><title>buddy: "));
	assert_non_null(strstr(html, ">buddy: "));
	assert_null(strstr(html, "every device request served"));
	assert_non_null(strstr(html, "<b>Served every device request in time: cma, carveout.</b>"));
	free(html);
	unlink(out);
	unlink(html_path);
	strcat(out, ".err");
	unlink(out);
}

/* ---- sweep summary ---- */

/* One sweep for the tests that read its summaries: 3 sizes, 2 browser sizes, a seed, 20 s each. */
static int sweep_setup(void **state)
{
	char args[256], out[sizeof(sweep_dir) + 16];

	snprintf(sweep_dir, sizeof(sweep_dir), "/tmp/test_charts_XXXXXX");
	if (!mkdtemp(sweep_dir))
		return -1;
	snprintf(args, sizeof(args), "sweep --param cma=" SWEEP_CMA " --param anon.rss=256M,512M --seeds 1 "
		 "--duration 20s --jobs 2 -o '%s'", sweep_dir);
	snprintf(out, sizeof(out), "%s/out", sweep_dir);
	cmasim_ok(args, out);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static int sweep_teardown(void **state)
{
	return nftw(sweep_dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* summary.html's text. */
static char *summary_html(void)
{
	char path[sizeof(sweep_dir) + 16];

	snprintf(path, sizeof(path), "%s/summary.html", sweep_dir);
	return test_read_file(path);
}

/* The charts of the page: each <svg>...</svg> after an <h3>, with its title. */
struct chart {
	char title[160];
	const char *svg, *end;
};

static unsigned charts_of(const char *html, struct chart *c, unsigned max)
{
	unsigned n = 0;

	for (const char *h = strstr(html, "<h3>"); h && n < max; h = strstr(h + 1, "<h3>")) {
		const char *close = strstr(h, "</h3>");

		snprintf(c[n].title, sizeof(c[n].title), "%.*s", (int)(close - h - 4), h + 4);
		c[n].svg = strstr(close, "<svg");
		c[n].end = strstr(c[n].svg, "</svg>");
		n++;
	}
	assert_true(n > 0);
	return n;
}

/* The next number after @key (such as "cy=\"") in [@p, @end), or NULL. */
static const char *next_number(const char *p, const char *end, const char *key, double *v)
{
	p = strstr(p, key);
	if (!p || p >= end)
		return NULL;
	*v = strtod(p + strlen(key), NULL);
	return p + strlen(key);
}

/*
 * Expect (issue 26 point 8): in every chart, every value (each mark's
 * tooltip: mean, smallest, largest) is at or above the axis' lowest tick,
 * and every mark and bar lies inside the plot; the fragmentation index
 * of -1 was drawn 220 units below an axis that began at 0.
 */
static void sweep_summary_axis_holds_every_value(void **state)
{
	char *html = summary_html();
	struct chart c[MAX_CHARTS];
	unsigned n = charts_of(html, c, MAX_CHARTS), frag = 0;

	for (unsigned i = 0; i < n; i++) {
		double lowest = INFINITY, v, mean, lo, hi;
		const char *p;

		for (p = c[i].svg; (p = next_number(p, c[i].end, "text-anchor=\"end\">", &v));)
			lowest = fmin(lowest, v);
		for (p = c[i].svg; (p = strstr(p, "<title>")) && p < c[i].end; p++) {
			const char *m = strstr(p, "mean ");

			assert_int_equal(sscanf(m, "mean %lf, %lf to %lf", &mean, &lo, &hi), 3);
			if (fmin(mean, lo) < lowest)
				fail_msg("chart \"%s\": the value %g lies below its axis, which starts at %g",
					 c[i].title, fmin(mean, lo), lowest);
		}
		/* the spread bars: lines with a stroke of their own (ticks and grid have a class) */
		for (p = c[i].svg; (p = strstr(p, "<line stroke=")) && p < c[i].end; p++) {
			double y1, y2;

			next_number(p, c[i].end, "y1=\"", &y1);
			next_number(p, c[i].end, "y2=\"", &y2);
			if (fmax(y1, y2) > PLOT_BOTTOM + 0.05 || fmin(y1, y2) < PLOT_TOP - 0.05)
				fail_msg("chart \"%s\": a bar from y %.1f to %.1f, outside the plot", c[i].title, y1,
					 y2);
		}
		for (p = c[i].svg; (p = next_number(p, c[i].end, "cy=\"", &v));)
			if (v > PLOT_BOTTOM + 0.05 || v < PLOT_TOP - 0.05)
				fail_msg("chart \"%s\": a mark at y %.1f, outside the plot", c[i].title, v);
		frag += strstr(c[i].title, "fragmentation index") != NULL;
	}
	assert_int_equal(frag, 1);	/* the chart that showed it */
	free(html);
}

/*
 * Expect: two series whose values are equal (the camera's failures at
 * anon.rss=256M and 512M, 0 from cma=16M on) are drawn so that both
 * show: each polyline of a chart has its own dash pattern, and each
 * series its own mark.
 */
static void sweep_summary_equal_series_stay_visible(void **state)
{
	char *html = summary_html();
	struct chart c[MAX_CHARTS];
	unsigned n = charts_of(html, c, MAX_CHARTS);

	for (unsigned i = 0; i < n; i++) {
		char dashes[8][32] = { { 0 } };
		unsigned lines = 0;

		for (const char *p = c[i].svg; (p = strstr(p, "<polyline")) && p < c[i].end && lines < 8; p++) {
			const char *d = strstr(p, "stroke-dasharray=\""), *gt = strchr(p, '>');

			if (d && d < gt)
				snprintf(dashes[lines], sizeof(dashes[lines]), "%.*s",
					 (int)strcspn(d + 18, "\""), d + 18);
			for (unsigned j = 0; j < lines; j++)
				if (!strcmp(dashes[j], dashes[lines]))
					fail_msg("chart \"%s\": series %u and %u are drawn alike (dashes \"%s\"): "
						 "equal values hide one", c[i].title, j, lines, dashes[lines]);
			lines++;
		}
		assert_int_equal(lines, 2);
		/* series 0 marks with circles; series 1 with another shape */
		assert_non_null(strstr(c[i].svg, "<circle"));
		assert_true(strstr(c[i].svg, "<rect") && strstr(c[i].svg, "<rect") < c[i].end);
	}
	free(html);
}

/*
 * Expect: chart titles are words, with MiB for memory: no dotted JSON
 * name ("cma.pages", "system.usable_avg_pages") and no "pages"; the
 * usable-memory chart's values are MiB of the 1 GiB board, where pages
 * would be about 256000.
 */
static void sweep_summary_titles_in_words_and_mib(void **state)
{
	char *html = summary_html();
	struct chart c[MAX_CHARTS];
	unsigned n = charts_of(html, c, MAX_CHARTS);
	bool usable = false;

	for (unsigned i = 0; i < n; i++) {
		double mean;

		for (const char *t = c[i].title; *t; t++)
			if (t[0] == '.' && t > c[i].title && t[-1] >= 'a' && t[-1] <= 'z' && t[1] >= 'a' && t[1] <= 'z')
				fail_msg("chart title \"%s\" is a JSON name, not words", c[i].title);
		if (strstr(c[i].title, "pages"))
			fail_msg("chart title \"%s\" counts pages", c[i].title);
		if (strcmp(c[i].title, "usable memory, average (MiB)"))
			continue;
		usable = true;
		assert_non_null(next_number(c[i].svg, c[i].end, "mean ", &mean));
		if (mean < 512 || mean > 1024)
			fail_msg("usable memory, average: %g, not MiB of a 1 GiB board", mean);
	}
	assert_true(usable);
	free(html);
}

/* The CSS property @prop in the first rule whose selector is exactly @selector, in px; 0 if none. */
static double css_px(const char *html, const char *selector, const char *prop)
{
	char key[128];
	const char *p, *end;

	snprintf(key, sizeof(key), "%s{", selector);
	for (p = strstr(html, key); p; p = strstr(p + 1, key))
		if (p[-1] == '\n' || p[-1] == '}') {
			end = strchr(p, '}');
			p = strstr(p, prop);
			return p && p < end ? strtod(p + strlen(prop) + 1, NULL) : 0;
		}
	return 0;
}

/*
 * Expect: the charts' text is 11 px on screen at least: its font size,
 * in SVG units, times the width the page draws a chart at over the
 * viewBox width (a chart's text was 11 units on 500 px of 720, 7.6 px).
 */
static void sweep_summary_text_at_least_11px(void **state)
{
	char *html = summary_html();
	double font = css_px(html, ".charts svg text", "font-size"), width = css_px(html, ".charts svg", "width");

	if (!font)
		font = css_px(html, "svg text", "font-size");
	assert_true(font > 0 && width > 0);
	assert_non_null(strstr(html, "<svg viewBox=\"0 0 720 "));
	if (font * width / CHART_W < 11)
		fail_msg("chart text is %.1f px on screen (%g units, %g px wide for %d)", font * width / CHART_W,
			 font, width, CHART_W);
	free(html);
}

/*
 * Expect: a headline answers the sweep: the first cma= value from which
 * every run served every device request in time, as summary.csv has it
 * (a run with camera.deadline_misses 0; every failure is a miss).
 */
static void sweep_summary_headline_answers(void **state)
{
	char path[sizeof(sweep_dir) + 16], want[128], cma[16], *csv, *html, *line, *save = NULL;
	static const char *const values[] = { "8M", "16M", "24M" };
	bool missed[3] = { false };
	int misses_col = -1, col = 0, from = 3;

	snprintf(path, sizeof(path), "%s/summary.csv", sweep_dir);
	csv = test_read_file(path);
	line = strtok_r(csv, "\n", &save);
	for (char *f = line; f; f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL, col++)
		if (!strncmp(f, "camera.deadline_misses,", 23))
			misses_col = col;
	assert_true(misses_col > 0);
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *f = line;

		snprintf(cma, sizeof(cma), "%.*s", (int)strcspn(line, ","), line);
		for (col = 0; col < misses_col; col++)
			f = strchr(f, ',') + 1;
		for (unsigned i = 0; i < 3; i++)
			missed[i] |= !strcmp(cma, values[i]) && atof(f) > 0;
	}
	while (from > 0 && !missed[from - 1])
		from--;
	if (from == 0 || from == 3)
		fail_msg("the sweep no longer crosses from failing to serving (from %d): choose other sizes", from);
	snprintf(want, sizeof(want), "<p class=\"headline\"><b>No failure or deadline miss from cma=%s on (",
		 values[from]);
	html = summary_html();
	if (!strstr(html, want))
		fail_msg("no headline \"%s\" in summary.html", want);
	free(html);
	free(csv);
}

/* BUILD/tests/test_charts -> BUILD/cmasim and the source tree (BUILD's parent), unless CMASIM. */
static int setup_paths(void)
{
	char exe[PATH_MAX], dir[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	snprintf(dir, sizeof(dir), "%s", dirname(dirname(exe)));	/* BUILD */
	snprintf(cmasim, sizeof(cmasim), "%s", getenv("CMASIM") ? getenv("CMASIM") : "");
	if (!*cmasim)
		snprintf(cmasim, sizeof(cmasim), "%.*s/cmasim", PATH_MAX - 8, dir);
	snprintf(source_dir, sizeof(source_dir), "%s", dirname(dir));
	return 0;
}

/*
 * Expect: a sweep of a board with 13 devices, 42 figures each with its
 * latency breakdown, keeps every figure in summary.csv: the last
 * device's last part and the system's after it (546 columns and more).
 */
static void sweep_summary_keeps_every_figure_of_many_devices(void **state)
{
	char dir[] = "/tmp/test_charts_many_XXXXXX", path[64], args[256], *csv;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/many.ini", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[scenario]\nplatform = arm\nmemory = 128M\nduration = 1s\n", f);
	for (int i = 0; i < 13; i++)
		fprintf(f, "[device d%d]\nsize = 256K\nring = 1\nperiod = 100ms\nsession = 200ms\n", i);
	assert_int_equal(fclose(f), 0);
	snprintf(args, sizeof(args), "sweep --scenario '%s' --param cma=16M --seeds 1 -o '%s/sweep'", path, dir);
	snprintf(path, sizeof(path), "%s/out", dir);
	cmasim_ok(args, path);
	snprintf(path, sizeof(path), "%s/sweep/summary.csv", dir);
	csv = test_read_file(path);
	*strchr(csv, '\n') = '\0';
	assert_non_null(strstr(csv, ",d12.latency_breakdown.slowest.console,"));
	assert_non_null(strstr(csv, ",system.frag_order"));
	free(csv);
	assert_int_equal(nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

int main(void)
{
	const struct CMUnitTest compare[] = {
		cmocka_unit_test(compare_never_crowns_the_policy_that_failed),
		cmocka_unit_test(sweep_summary_keeps_every_figure_of_many_devices),
	};
	const struct CMUnitTest sweep[] = {
		cmocka_unit_test(sweep_summary_axis_holds_every_value),
		cmocka_unit_test(sweep_summary_equal_series_stay_visible),
		cmocka_unit_test(sweep_summary_titles_in_words_and_mib),
		cmocka_unit_test(sweep_summary_text_at_least_11px),
		cmocka_unit_test(sweep_summary_headline_answers),
	};
	int failed;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (setup_paths())
		return 1;
	failed = cmocka_run_group_tests_name("cmasim compare", compare, NULL, NULL);
	return failed | cmocka_run_group_tests_name("cmasim sweep summary", sweep, sweep_setup, sweep_teardown);
}
