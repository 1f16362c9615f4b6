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
 * (each device of runs[0], then the system). A device a run lacks is "-".
 */
unsigned compare_nr_rows(const struct sim_result *runs);
void compare_label(const struct sim_result *runs, unsigned row, char buf[LABEL_MAX]);
void compare_cell(const struct sim_result *runs, unsigned run, unsigned row, char buf[FIGURE_MAX]);

#endif
