/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the text, JSON and HTML reports share: how a figure is written,
 * how a pageblock is named and coloured, and the rows of the policy
 * comparison table, so that the three reports never disagree.
 */
#ifndef CMASIM_REPORT_H
#define CMASIM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/escape.h"
#include "engine/result.h"

#define FIGURE_MAX	32	/* one formatted figure, with the NUL */
#define LABEL_MAX	64	/* a comparison row's label: a device name and a figure */
#define SNAP_HOLE	0xff	/* snap_block.migratetype of a block with no valid page */

/* Fixed formats, so that the same run always prints the same text. */
const char *fmt_ms(char buf[FIGURE_MAX], uint64_t ns);		/* "12.345" */
const char *fmt_s(char buf[FIGURE_MAX], uint64_t ns);		/* "600.000000" */
const char *fmt_mib(char buf[FIGURE_MAX], uint64_t bytes);	/* "8.0" */
const char *fmt_u64(char buf[FIGURE_MAX], uint64_t v);
/* As the kernel's extfrag_index prints it: index / 1000, 3 decimals; "-1.000": would succeed. */
const char *fmt_frag(char buf[FIGURE_MAX], int frag_index);
/* "host: 1.25 s, 123456 events" over all @nr runs: the one line of text that varies. */
const char *fmt_host(char buf[LABEL_MAX], const struct sim_result *runs, unsigned nr);

static inline uint64_t pages_bytes(const struct sim_result *r, uint64_t pages)
{
	return pages * r->page_bytes;
}

/* Memory the rest of the machine did not have when @usable pages were usable. */
static inline uint64_t given_up_pages(const struct sim_result *r, uint64_t usable)
{
	return r->total_pages > usable ? r->total_pages - usable : 0;
}

/* A pageblock's look: migrate types in enum cma_migratetype order, then the hole. */
struct block_style {
	const char *name;
	char code;		/* its letter in the JSON snapshot encoding */
	unsigned hue, sat;	/* HSL; lightness says how full the block is */
};

#define NR_BLOCK_STYLES		7
#define BLOCK_STYLE_HOLE	(NR_BLOCK_STYLES - 1)
extern const struct block_style block_styles[NR_BLOCK_STYLES];

bool block_is_hole(const struct snap_block *b);
const struct block_style *block_style(const struct snap_block *b);
/* Allocated pages (valid - free) per thousand valid pages; 0 for a hole. */
unsigned block_used_permille(const struct snap_block *b);

/*
 * The CMA areas of a run, a table of AREA_COLS columns under area_heads,
 * a row per area; area_none() says what is true for a run without one
 * ("none: ..."); area_cost() what the devices cost the rest of the machine.
 */
#define AREA_COLS 9
extern const char *const area_heads[AREA_COLS];
void area_cell(const struct sim_result *r, unsigned row, unsigned col, char buf[LABEL_MAX]);
/* The pages of all of @r's areas. */
uint64_t areas_pages(const struct sim_result *r);
/* What reserved area @a: "linux,cma from the device tree", "cma= on the command line", ... */
const char *area_origin_text(const struct area_result *a, char buf[LABEL_MAX]);
const char *area_none(const struct sim_result *r, char *buf, size_t len);
const char *area_cost(const struct sim_result *r, char *buf, size_t len);
/* @part as a percentage of @whole, one decimal ("12.5"); "0.0" when @whole is 0. */
const char *fmt_percent(char buf[FIGURE_MAX], uint64_t part, uint64_t whole);

/*
 * The policy comparison table: one column per run, one row per figure
 * (each device of runs[0], then the system). A device a run lacks is "-",
 * and so is the latency of a device that served nothing; failures are
 * followed by their causes.
 */
unsigned compare_nr_rows(const struct sim_result *runs);
/* Do the runs differ in kernel profile (cmasim compare --kernels)? */
bool runs_mixed_kernels(const struct sim_result *runs, unsigned nr);
/* Run @i's column head: its policy, with its kernel when the runs' kernels differ ("cma 6.12"). */
const char *run_label(const struct sim_result *runs, unsigned nr, unsigned i, char buf[LABEL_MAX]);
void compare_label(const struct sim_result *runs, unsigned row, char buf[LABEL_MAX]);
void compare_cell(const struct sim_result *runs, unsigned run, unsigned row, char buf[LABEL_MAX]);
/*
 * Did @r serve every request of its devices, none after its deadline?
 * Only such a run can be best in a row: a policy that failed a device
 * did not earn the memory or the speed it shows by failing it.
 */
bool run_served_all(const struct sim_result *r);
/* What @r did not serve, per device: "codec 10 of 10 failed; camera 4 of 24 failed, 1 served late". */
const char *run_shortfall(const struct sim_result *r, char *buf, size_t len);
/* The same over all its devices, for a chart's label: "14 failed", "14 failed, 1 late". */
const char *run_shortfall_brief(const struct sim_result *r, char buf[LABEL_MAX]);
/* The labels of the runs that served everything, "cma, carveout"; "" when none did. */
const char *compare_served_all(const struct sim_result *runs, unsigned nr, char *buf, size_t len);
/*
 * The run best in @row, or -1 where "best" is not clear: a figure with no
 * better direction (requests, the fragmentation index), fewer than two
 * runs with a figure, no run that served everything (run_served_all),
 * or a tie for the best among those that did. Better is fewer failures,
 * deadline misses, p99, p99.9 and max ms, carveout, refaults, OOM kills and pages
 * migrated, reclaimed or written back; more served and usable memory.
 */
int compare_best(const struct sim_result *runs, unsigned nr, unsigned row);
#define COMPARE_BEST_FIGURES \
	"fewest failures, misses, p99, p99.9 and max ms, carveout, refaults, OOM kills and pages moved;\n" \
	"  most served and usable memory; no mark on a tie"
#define SERVED_ALL_MAX	(16 * LABEL_MAX)	/* compare_served_all's buffer */
#define SHORTFALL_MAX	512			/* run_shortfall's buffer */
/*
 * Did a device make a different number of requests in some run? (A
 * session asks for its ring one buffer at a time and stops at the first
 * failure, so a policy that fails asks for fewer.)
 */
bool compare_requests_differ(const struct sim_result *runs, unsigned nr);
#define COMPARE_REQUESTS_NOTE \
	"requests differ between policies: a session asks for its ring one buffer at a time, stops at the\n" \
	"first failure (giving back what it got) and starts again after its gap, so failures change the count"

/*
 * The HTML report's page style (report_html.c) and chart pieces
 * (report_svg.c), which sweep's summary page draws with too. A chart is
 * an SVG of a plot area PLOT_W x PLOT_H at (MARGIN_L, MARGIN_T), with
 * the axes' labels around it.
 */
#define PLOT_W		640
#define PLOT_H		220
#define MARGIN_L	64
#define MARGIN_R	16
#define MARGIN_T	12
#define MARGIN_B	44

extern const char html_style[];
/* A legend entry: a small square styled by @css, then @label. */
void swatch(FILE *out, const char *css, const char *label);
void svg_open(FILE *out);
/* The two axis lines and their titles. */
void svg_axes(FILE *out, const char *x_title, const char *y_title);
/* A tick at @x on the x axis, labelled. */
void svg_x_label(FILE *out, double x, const char *label);
/*
 * A y axis over [@lo, @hi] widened to take in 0 and to start and end at
 * a tick, so that every value drawn lies on it (a fragmentation index of
 * -1 too).
 */
void svg_y_range(double *lo, double *hi);
/* Ticks at multiples of a round step from @lo to @hi, with grid lines across. */
void svg_y_ticks(FILE *out, double lo, double hi);
/* Ticks at round steps from 0 to @max along the x axis, labelled with their values. */
void svg_x_ticks(FILE *out, double max);
/* The summary chart (report_tradeoff.c): per run, device latency p50/p99/max against usable memory. */
void html_tradeoff(FILE *out, const struct sim_result *runs, unsigned nr);

/* ---- report_html.c's pieces, for other pages (cmasim import --report html) ---- */

/* The pageblock map's legend, and the map of @s. */
void html_map_legend(FILE *out);
void html_map(FILE *out, const struct sim_snapshot *s);

#endif
