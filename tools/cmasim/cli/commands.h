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

/* The /proc files --dump takes (cma_write_proc's names). */
#define PROC_NAMES_ACCEPTED "buddyinfo, pagetypeinfo, vmstat, meminfo, zoneinfo, cma,\nand on kernel 6.12 sys/kernel/mm/cma/AREA/FILE, debug/cma/AREA/FILE"
bool proc_name_ok(const char *name);

/* cmasim run: the scenario under one policy. */
int cmd_run(int argc, char **argv);
/* cmasim compare: the scenario under several policies, side by side. */
int cmd_compare(int argc, char **argv);
/* cmasim size: the smallest default CMA area serving every device request. */
int cmd_size(int argc, char **argv);
/* cmasim sweep: a grid of runs as processes, and their summaries. */
int cmd_sweep(int argc, char **argv);
/* cmasim show NAME: a built-in scenario's text. */
int cmd_show(int argc, char **argv);
/* cmasim boot: a platform booted, its log and devices. */
int cmd_boot(int argc, char **argv);
extern const struct cmd_option boot_options[];
extern const unsigned nr_boot_options;

/* cmasim import DIR: a machine from a running system's /proc files, and --what-if. */
int cmd_import(int argc, char **argv);
#define IMPORT_USAGE "DIR [--what-if SIZE[@ADDR]]... [--force] [--kernel 3.5..6.12] [--dump NAME]... [--report text|html]"
/* cmasim replay TRACE: a device's recorded CMA requests, read back. */
int cmd_replay(int argc, char **argv);
/* cmasim snapshot DIR: those files from this machine. */
int cmd_snapshot(int argc, char **argv);

struct scenario;
/* --scenario's value: a built-in name, else a file; 0, or -EINVAL after saying why (cmd_run.c). */
int load_scenario(const char *arg, struct scenario *sc);

/* A command's status asking for cmasim's usage on stdout, then 0 (boot --help). */
#define CMD_USAGE 1

#endif
