/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmasim's commands (cmd_*.c), listed in main.c's commands[]. Each takes
 * its argv (argv[0] its name) and returns 0, or -errno after saying what
 * went wrong: -EINVAL for bad usage or input, another when the run
 * failed; or CMD_USAGE. Only main.c turns these into exit statuses.
 */
#ifndef CMASIM_COMMANDS_H
#define CMASIM_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/options.h"

/* A command's operands and option table: its usage and help, and main.c's, come from it. */
struct cmd_table {
	const char *operands;	/* before the options ("DIR"); NULL: none */
	const struct cmd_option *opts;
	unsigned nr;
};

/* "usage: cmasim @name ...", @about (lines of text, or NULL) and the help lines, on stdout: 0 or -EIO. */
static inline int cmd_help(const char *name, const struct cmd_table *t, const char *about)
{
	return opt_help_page(name, t->operands, t->opts, t->nr, about);
}

/* cmasim run: the scenario under one policy. */
int cmd_run(int argc, char **argv);
extern const struct cmd_table run_table;
/* cmasim compare: the scenario under several policies, side by side. */
int cmd_compare(int argc, char **argv);
extern const struct cmd_table compare_table;
/* cmasim size: the smallest default CMA area serving every device request. */
int cmd_size(int argc, char **argv);
extern const struct cmd_table size_table;
/* cmasim sweep: a grid of runs as processes, and their summaries. */
int cmd_sweep(int argc, char **argv);
extern const struct cmd_table sweep_table;
/* cmasim show NAME: a built-in scenario's text. */
int cmd_show(int argc, char **argv);
/* cmasim boot: a platform booted, its log and devices. */
int cmd_boot(int argc, char **argv);
extern const struct cmd_table boot_table;

/* cmasim import DIR: a machine from a running system's /proc files, and --what-if. */
int cmd_import(int argc, char **argv);
extern const struct cmd_table import_table;
/* cmasim replay TRACE: a device's recorded CMA requests, read back. */
int cmd_replay(int argc, char **argv);
extern const struct cmd_table replay_table;
/* cmasim snapshot DIR: those files from this machine. */
int cmd_snapshot(int argc, char **argv);

struct scenario;
/* --scenario's value: a built-in name, else a file; 0, or -EINVAL after saying why (cmd_run.c). */
int load_scenario(const char *arg, struct scenario *sc);

/* A command's status asking for cmasim's usage on stdout, then 0 (list --help, show --help). */
#define CMD_USAGE 1

#endif
