/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options that change a scenario before it runs, shared by the
 * commands that run one: --cma SIZE, --cmdline STR, --kernel NAME and
 * --set SECTION.KEY=VALUE. A command puts OPT_SCENARIO_OVERRIDES in its option
 * table, passes every id opt_next() returns to scenario_overrides_option()
 * first, and calls scenario_overrides_apply() once the scenario is read.
 * Each goes through the scenario file's parser (scenario_override()), so
 * a value is checked and refused as the same line in a file would be.
 */
#ifndef CMASIM_RUN_OPTIONS_H
#define CMASIM_RUN_OPTIONS_H

#include "cli/options.h"
#include "board/platform.h"
#include "scenario/scenario.h"

/* Their ids, above any command's own. */
enum { OPT_ID_CMA = 1000, OPT_ID_CMDLINE, OPT_ID_SET, OPT_ID_KERNEL };

/* --platform's help line in the commands that run a scenario: every kind platform_load() reads */
#define PLATFORM_OPTION_HELP \
	"a built-in platform, a platform file or a device tree (FILE.dtb,\nFILE.dts), replacing the scenario's"

#define OPT_CMA { .id = OPT_ID_CMA, .name = "cma", .arg = "SIZE", .help_rank = 2, \
	.what = "a size, e.g. 64M (0: no default area)", \
	.help = "cma=SIZE on the scenario's command line (--cmdline's if given),\nreplacing any cma= there (e.g. 64M; 0: no default CMA area)" }
#define OPT_CMDLINE { .id = OPT_ID_CMDLINE, .name = "cmdline", .arg = "STR", .help_rank = 2, \
	.what = "a kernel command line", \
	.help = "the kernel command line, replacing the scenario's and the\nplatform's" }
#define OPT_SET { .id = OPT_ID_SET, .name = "set", .arg = "SECTION.KEY=VALUE", .repeats = true, \
	.help_rank = 2, .what = "SECTION.KEY=VALUE, e.g. camera.ring=2", \
	.help = "a scenario-file key, as the line KEY = VALUE in [SECTION] would set it;\nSECTION is scenario, cost, a workload's name or its kind (e.g.\n--set camera.ring=2, --set anon.rss=512M); repeatable" }
#define OPT_KERNEL { .id = OPT_ID_KERNEL, .name = "kernel", .arg = "3.5..6.12", .help_rank = 2, \
	.what = "a kernel profile: " PLATFORM_KERNELS_ACCEPTED, \
	.help = "the kernel profile, replacing the platform's and the scenario's" }
#define OPT_SCENARIO_OVERRIDES OPT_CMA, OPT_CMDLINE, OPT_KERNEL, OPT_SET

#define SCENARIO_MAX_SETS 32

/* --seeds N and --jobs N of size and sweep: each from 1 to these (the _TEXT for help lines) */
#define RUN_MAX_SEEDS	1000
#define RUN_MAX_JOBS	1024
#define __run_stringify(x)	#x
#define run_stringify(x)	__run_stringify(x)
#define RUN_MAX_SEEDS_TEXT	run_stringify(RUN_MAX_SEEDS)
#define RUN_MAX_JOBS_TEXT	run_stringify(RUN_MAX_JOBS)

struct scenario_overrides {
	const char *cma;			/* --cma SIZE; NULL: none */
	const char *cmdline;			/* --cmdline STR; NULL: none */
	const char *kernel;			/* --kernel NAME; NULL: none */
	const char *sets[SCENARIO_MAX_SETS];	/* --set SECTION.KEY=VALUE, in the order given */
	unsigned nr_sets;
};

/*
 * Option @id's @value into @o: 0; 1 when @id is none of these options
 * (the command's own); -EINVAL after saying on stderr, as "cmasim @cmd:
 * ...", what was wrong and what is accepted.
 */
int scenario_overrides_option(struct scenario_overrides *o, int id, const char *value, const char *cmd);
/*
 * --seeds or --jobs (@opt) of command @cmd: @value, a number from 1 to
 * @max, into *@out; 0, or -EINVAL after saying on stderr what is accepted.
 */
int run_count_option(const char *cmd, const char *opt, const char *value, unsigned max, unsigned *out);
/*
 * @o on @sc, read already: --cmdline, then --cma, --kernel, then each --set in
 * order, then the whole scenario's checks. 0, or -EINVAL after saying on
 * stderr which option was refused and why.
 */
int scenario_overrides_apply(struct scenario *sc, const struct scenario_overrides *o, const char *cmd);
/*
 * --platform @platform (NULL: none) on @sc, read already, before
 * scenario_overrides_apply(). A device tree with its own default CMA
 * pool (linux,cma-default) keeps it: unless @o sizes the default area
 * (--cma, --cmdline, --set scenario.cma or scenario.cmdline) or the
 * command does otherwise (@cma_sized: a sweep's grid over cma), the
 * scenario's own cma= is dropped, as a board boots with its pool, and
 * stderr says so. 0, or -ENOMEM.
 */
int scenario_platform_apply(struct scenario *sc, const char *platform, const struct scenario_overrides *o,
			    bool cma_sized, const char *cmd);

#endif
