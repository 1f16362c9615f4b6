/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options several commands take, declared once: each macro binds the
 * option to the caller's field, and its flag, its argument, the check of
 * its value and every message about it are here. A command gives the
 * help line where its meaning differs (boot's --kernel replaces the
 * platform's profile, run's the scenario's).
 */
#ifndef CMASIM_COMMON_OPTIONS_H
#define CMASIM_COMMON_OPTIONS_H

#include "cli/options.h"
#include "board/platform.h"
#include "scenario/scenario.h"

#define SCENARIO_MAX_SETS 32

/* What changes a scenario before it runs: --cma, --cmdline, --kernel, --set (run_options.h applies them). */
struct scenario_overrides {
	const char *cma;			/* --cma SIZE; NULL: none */
	const char *cmdline;			/* --cmdline STR; NULL: none */
	const char *kernel;			/* --kernel NAME, the profile's own name; NULL: none */
	const char *sets[SCENARIO_MAX_SETS];	/* --set SECTION.KEY=VALUE, in the order given */
	unsigned nr_sets;
};

/* The /proc files --dump takes (cma_write_proc's names). */
#define PROC_NAMES_ACCEPTED "buddyinfo, pagetypeinfo, vmstat, meminfo, zoneinfo, cma,\nand on kernel 6.12 sys/kernel/mm/cma/AREA/FILE, debug/cma/AREA/FILE"
bool proc_name_ok(const char *name);

/* --seeds N and --jobs N of size and sweep: each from 1 to these (the _TEXT for help lines) */
#define RUN_MAX_SEEDS	1000
#define RUN_MAX_JOBS	1024
#define __run_stringify(x)	#x
#define run_stringify(x)	__run_stringify(x)
#define RUN_MAX_SEEDS_TEXT	run_stringify(RUN_MAX_SEEDS)
#define RUN_MAX_JOBS_TEXT	run_stringify(RUN_MAX_JOBS)

/* --platform's help line in the commands that run a scenario: every kind platform_load() reads */
#define PLATFORM_OPTION_HELP \
	"a built-in platform, a platform file or a device tree (FILE.dtb,\nFILE.dts), replacing the scenario's"
#define SCENARIO_OPTION_HELP "a built-in scenario (%s; default " SCENARIO_DEFAULT ") or a scenario file"

/* The callbacks behind them (common_options.c). */
int opt_kernel_cb(const struct cmd_option *o, const char *arg, const char *cmd);
int opt_dump_cb(const struct cmd_option *o, const char *arg, const char *cmd);
int opt_cma_cb(const struct cmd_option *o, const char *arg, const char *cmd);
int opt_set_cb(const struct cmd_option *o, const char *arg, const char *cmd);
int opt_policy_cb(const struct cmd_option *o, const char *arg, const char *cmd);

/* --scenario NAME|FILE into const char *@v */
#define OPT_SCENARIO(v, r, h) { .type = OPTION_STRING, .name = "scenario", .value = (v), .arg = "NAME|FILE", \
	.help_rank = (r), .help = (h), .fill = scenario_builtin_names, .what = "a scenario name or file" }
/* --platform NAME|FILE into const char *@v */
#define OPT_PLATFORM(v, r, h) { .type = OPTION_STRING, .name = "platform", .value = (v), .arg = "NAME|FILE", \
	.help_rank = (r), .help = (h), .fill = platform_builtin_names, .what = "a platform name or file" }
/* --kernel 3.5..6.12: the profile's name into const char *@v */
#define OPT_KERNEL(v, r, h) { .type = OPTION_CALLBACK, .name = "kernel", .value = (v), .arg = "3.5..6.12", \
	.callback = opt_kernel_cb, .help_rank = (r), .help = (h), \
	.what = "a kernel profile (" PLATFORM_KERNELS_ACCEPTED ")" }
/* --dump NAME, repeatable, into struct opt_list @v, at most @m */
#define OPT_DUMP(v, m, r, h) { .type = OPTION_CALLBACK, .name = "dump", .value = (v), .arg = "NAME", \
	.repeats = true, .max = (m), .callback = opt_dump_cb, .help_rank = (r), .help = (h), \
	.what = "a /proc file name (" PROC_NAMES_ACCEPTED ")" }
/* --seed N into uint64_t @v, and its text into const char *@g (NULL: not given) */
#define OPT_SEED(v, g, a, r, h) OPT_INTEGER("seed", (v), (g), (a), (r), (h))
/* --duration TIME into uint64_t @v ns */
#define OPT_DURATION(v, g, r, h) { .type = OPTION_DURATION, .name = "duration", .value = (v), .given = (g), \
	.arg = "TIME", .help_rank = (r), .help = (h) }
/* --policy NAME: the policy (policies/registry.h) into const struct sim_policy_ops *@v, its name into @g */
#define OPT_POLICY(v, g, a, r, h) { .type = OPTION_CALLBACK, .name = "policy", .value = (v), .given = (g), \
	.arg = (a), .callback = opt_policy_cb, .help_rank = (r), .help = (h), .what = "a policy" }
/* --seeds N and --jobs N into unsigned @v */
#define OPT_SEEDS(v, r, h) OPT_UNSIGNED("seeds", (v), RUN_MAX_SEEDS, (r), (h))
#define OPT_JOBS(v, r, h) OPT_UNSIGNED("jobs", (v), RUN_MAX_JOBS, (r), (h))

/* --cma, --cmdline, --kernel and --set into struct scenario_overrides *@ov */
#define OPT_CMA_HELP(ov, rank, h) { .type = OPTION_CALLBACK, .name = "cma", .value = &(ov)->cma, .arg = "SIZE", \
	.callback = opt_cma_cb, .help_rank = (rank), .what = "a size, e.g. 64M (0: no default area)", .help = (h) }
#define OPT_CMA(ov) OPT_CMA_HELP(ov, 2, "cma=SIZE on the scenario's command line (--cmdline's if given),\n" \
				 "replacing any cma= there (e.g. 64M; 0: no default CMA area)")
#define OPT_CMDLINE(ov) { .type = OPTION_STRING, .name = "cmdline", .value = &(ov)->cmdline, .arg = "STR", \
	.help_rank = 2, .what = "a kernel command line", \
	.help = "the kernel command line, replacing the scenario's and the\nplatform's" }
#define OPT_SET(ov) { .type = OPTION_CALLBACK, .name = "set", .value = (ov), .arg = "SECTION.KEY=VALUE", \
	.repeats = true, .callback = opt_set_cb, .help_rank = 2, .what = "SECTION.KEY=VALUE, e.g. camera.ring=2", \
	.help = "a scenario-file key, as the line KEY = VALUE in [SECTION] would set it;\nSECTION is scenario, cost, a workload's name or its kind (e.g.\n--set camera.ring=2, --set anon.rss=512M); repeatable" }
#define OPT_SCENARIO_KERNEL(ov) OPT_KERNEL(&(ov)->kernel, 2, "the kernel profile, replacing the platform's and the scenario's")
#define OPT_SCENARIO_OVERRIDES(ov) OPT_CMA(ov), OPT_CMDLINE(ov), OPT_SCENARIO_KERNEL(ov), OPT_SET(ov)

#endif
