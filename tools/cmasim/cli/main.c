// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim: boot a described board on libcma and show what the kernel
 * would print (boot), or run workloads on it and report how its
 * contiguous allocations fared (run, compare). Exit status: 0 success,
 * 1 the run failed, 2 bad usage or bad input, with a message naming what
 * was wrong and what is accepted.
 *
 * The commands are the table below, as git's commands[]: the usage and
 * the "unknown command" message are generated from it.
 */
#include <errno.h>
#include <string.h>

#include "cli/commands.h"
#include "board/platform.h"
#include "scenario/scenario.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *description;	/* one line for the top-level --help */
	const struct cmd_table *table;	/* its operands and options; NULL: takes .operands only */
	const char *operands;
};

/* cmasim list: the built-in platforms and scenarios. */
static int cmd_list(int argc, char **argv)
{
	int ret;

	if (argc == 2 && opt_is_help(argv[1]))
		return CMD_USAGE;
	if (argc > 1) {
		fprintf(stderr, "cmasim list: unexpected argument '%s': list takes none\n", argv[1]);
		return -EINVAL;
	}
	platform_list(stdout);
	ret = scenario_list(stdout);
	return fflush(stdout) ? -EIO : ret;
}

static const struct command commands[] = {
	{ .name = "run", .fn = cmd_run, .table = &run_table,
	  .description = "run a scenario's workloads under one policy and report how its devices fared" },
	{ .name = "compare", .fn = cmd_compare, .table = &compare_table,
	  .description = "run a scenario under several policies and compare them side by side" },
	{ .name = "size", .fn = cmd_size, .table = &size_table,
	  .description = "find the smallest cma= that serves every device request in time, over several seeds" },
	{ .name = "sweep", .fn = cmd_sweep, .table = &sweep_table,
	  .description = "run a scenario over a grid of parameters and seeds, and summarize the runs" },
	{ .name = "boot", .fn = cmd_boot, .table = &boot_table,
	  .description = "boot a platform and print the kernel's log, its devices and /proc files" },
	{ .name = "import", .fn = cmd_import, .table = &import_table,
	  .description = "rebuild a running Linux machine from its /proc files; where could SIZE be had" },
	{ .name = "replay", .fn = cmd_replay, .table = &replay_table,
	  .description = "read a device's ftrace text or trace.dat: its CMA requests, and with --platform those run and compared" },
	{ .name = "snapshot", .fn = cmd_snapshot, .operands = "DIR",
	  .description = "copy this machine's /proc files for import into DIR (root, Linux)" },
	{ .name = "list", .fn = cmd_list,
	  .description = "list the built-in platforms and scenarios" },
	{ .name = "show", .fn = cmd_show, .operands = "SCENARIO",
	  .description = "print a built-in scenario as a file to edit" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* Every command with its line and its synopsis, generated from its option table. */
static void usage(FILE *out)
{
	fprintf(out, "cmasim: the Linux contiguous memory allocator (CMA) simulated on a described board,\n"
		"under kernel profiles " PLATFORM_KERNELS_ACCEPTED "\n\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].description);
	fprintf(out, "  %-9s %s\n\n", "--version", "print cmasim's version");
	for (size_t i = 0; i < NR_COMMANDS; i++) {
		const struct command *c = &commands[i];
		const char *prefix = i ? "      " : "usage:";

		if (c->table)
			opt_usage(out, prefix, c->name, c->table->operands, c->table->opts, c->table->nr);
		else
			fprintf(out, "%s cmasim %s%s%s\n", prefix, c->name, c->operands ? " " : "",
				c->operands ? c->operands : "");
	}
	fprintf(out, "\n  each command's options: 'cmasim COMMAND --help' (e.g. 'cmasim run --help') and cmasim(1)\n");
}

/* A command's result as cmasim's exit status: 0; 2 bad usage or input; 1 the run failed. */
static int exit_status(int ret)
{
	if (ret == CMD_USAGE) {
		usage(stdout);
		return 0;
	}
	return !ret ? 0 : ret == -EINVAL ? 2 : 1;
}

static void write_command_names(FILE *out)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "%s%s", i ? ", " : "", commands[i].name);
	fputc('\n', out);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "cmasim: no command: accepted ");
		write_command_names(stderr);
		usage(stderr);
		return 2;
	}
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return exit_status(commands[i].fn(argc - 1, argv + 1));
	if (opt_is_help(argv[1])) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cmasim %s\n", CMA_VERSION);
		return fflush(stdout) ? 1 : 0;
	}
	fprintf(stderr, "cmasim: unknown command '%s': accepted ", argv[1]);
	write_command_names(stderr);
	usage(stderr);
	return 2;
}
