/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmasim sweep: a grid of `cmasim run` command lines (cmd_sweep.c), run
 * as a pool of processes (sweep_batch.c) or printed for other machines,
 * and summarized from the JSON reports they leave (sweep_summary.c).
 *
 * A sweep's directory holds one JSON report per point and seed, named
 * after its values, and the manifest SWEEP_MANIFEST: a header line
 * "file<TAB>seed<TAB>KEY...<TAB>command", then one line per point. It
 * is all --collect needs, and what a resumed sweep compares its command
 * lines with: a report counts as done when its file is there (reports are
 * renamed into place whole) and the manifest gave it the same command.
 */
#ifndef CMASIM_SWEEP_H
#define CMASIM_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SWEEP_MAX_PARAMS	8
#define SWEEP_MAX_POINTS	10000
#define SWEEP_MANIFEST		"sweep-points.tsv"

struct sweep_param {
	char *key;		/* "cma", "seed", "duration" or "SECTION.KEY" */
	char **values;
	unsigned nr;
};

struct sweep_point {
	char *file;		/* its JSON report's name in the directory */
	char *values[SWEEP_MAX_PARAMS];	/* in the sweep's param order */
	char *seed;
	char *command;		/* one shell line: what --print-commands prints */
	char **argv;		/* the same, with the report going to part (sweep_batch) */
	char *part;		/* where the report is written before it is renamed */
	bool done;
	bool refused;		/* its run exited 2: bad input, such as an area that cannot be reserved */
};

struct sweep {
	const char *dir;
	unsigned nr_params;
	struct sweep_param params[SWEEP_MAX_PARAMS];
	size_t nr_points;
	struct sweep_point *points;
};

/*
 * Run every point not done, @jobs at a time, as child processes of this
 * program (/proc/self/exe), each writing point->part and renamed to its
 * file when it exits 0; a point that fails keeps its stderr in
 * DIR/FILE.log. Progress on stderr. Sets ->done and ->refused; stops launching on
 * SIGINT or SIGTERM. 0; that signal's number, once the children it stopped
 * have ended (the caller then dies of it, as a stopped program does); or
 * -errno when a child could not be started.
 */
int sweep_batch_run(struct sweep *s, unsigned jobs);

/* The manifest: written (through a temporary file), and read back into @s (free with sweep_free). */
int sweep_manifest_write(const struct sweep *s);
int sweep_manifest_read(const char *dir, struct sweep *s);
void sweep_free(struct sweep *s);

/*
 * DIR/summary.csv and DIR/summary.html from the reports of the points
 * whose file is there. 0, -ENOENT when none is, or -errno after saying
 * which file could not be read or written.
 */
int sweep_summarize(const struct sweep *s);

#endif
