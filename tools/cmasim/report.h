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

#include "escape.h"
#include "result.h"

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
#define AREA_COLS 8
extern const char *const area_heads[AREA_COLS];
void area_cell(const struct sim_result *r, unsigned row, unsigned col, char buf[LABEL_MAX]);
/* The pages of all of @r's areas. */
uint64_t areas_pages(const struct sim_result *r);
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
 * The run best in @row, or -1 where "best" is not clear: a figure with no
 * better direction (requests, the fragmentation index), fewer than two
 * runs with a figure, or a tie for the best. Better is fewer failures,
 * deadline misses, p99 ms, carveout, refaults, OOM kills and pages
 * migrated, reclaimed or written back; more served and usable memory.
 */
int compare_best(const struct sim_result *runs, unsigned nr, unsigned row);
#define COMPARE_BEST_RULE \
	"* best in its row: fewest failures, misses, p99 ms, carveout, refaults, OOM kills and pages moved;\n" \
	"  most served and usable memory; no mark on a tie"
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
 * The HTML report's page style and chart pieces (report_html.c), which
 * sweep's summary page draws with too. A chart is an SVG of a plot area
 * PLOT_W x PLOT_H at (MARGIN_L, MARGIN_T), with the axes' labels around it.
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
/* Ticks at multiples of a round step from 0 to @max, with grid lines across. */
void svg_y_ticks(FILE *out, double max);
/* The summary chart (report_tradeoff.c): per run, device latency p50/p99/max against usable memory. */
void html_tradeoff(FILE *out, const struct sim_result *runs, unsigned nr);

/* ---- report_html.c's pieces, for other pages (cmasim import --report html) ---- */

/* The pageblock map's legend, and the map of @s. */
void html_map_legend(FILE *out);
void html_map(FILE *out, const struct sim_snapshot *s);

#endif
