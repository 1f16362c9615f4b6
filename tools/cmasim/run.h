/* SPDX-License-Identifier: GPL-2.0 */
/* cmasim's subcommands beyond boot and list (run.c). */
#ifndef CMASIM_RUN_H
#define CMASIM_RUN_H

#include <stdbool.h>

/* The /proc files --dump takes (cma_write_proc's names). */
#define PROC_NAMES_ACCEPTED "buddyinfo, pagetypeinfo, vmstat, meminfo, zoneinfo, cma"
bool proc_name_ok(const char *name);

/* cmasim run (@compare false) or cmasim compare; argv[0] is the subcommand. Exit status. */
int cmd_run(int argc, char **argv, bool compare);
/* cmasim show NAME: a built-in scenario's text. */
int cmd_show(int argc, char **argv);

#endif
