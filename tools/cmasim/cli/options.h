/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options declared once, as git's parse-options: a command's
 * table gives each option's flag, argument and help text, and its usage
 * synopsis, help lines, "unknown option ... accepted" list and the
 * parsing (getopt_long, so unique prefixes of long options work) are
 * generated from it.
 */
#ifndef CMASIM_OPTIONS_H
#define CMASIM_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* What opt_next() returns besides an option's id (ids are >= 0). */
enum { OPT_END = -1, OPT_HELP = -2, OPT_BAD = -3 };

struct cmd_option {
	int id;			/* returned for it; OPT_HELP: --help */
	const char *name;	/* long flag without "--"; NULL: short only */
	char short_name;	/* 0: none */
	const char *arg;	/* its argument in usage ("NAME|FILE"); NULL: takes none */
	const char *usage;	/* its synopsis entry when not "[--name ARG]"; "": none */
	bool repeats;		/* "..." after it in the synopsis */
	const char *label;	/* its help line's label when not "--name" */
	const char *help;	/* its help line(s), "\n" between; "%s" takes fill()'s text */
	unsigned help_rank;	/* help lines in ascending rank; 0: no help line */
	const char *what;	/* the value it takes, for "needs a value: ..." */
	const char *refused;	/* given, it is refused with this: another command's option */
	const char *(*fill)(void);	/* the text of "%s" in arg or help */
};

struct opt_parser {
	const char *cmd;
	const struct cmd_option *opts;
	unsigned nr;
	int argc;
	char **argv;
	struct option longopts[32];	/* a table's long flags, at most 31 */
	char shortopts[32];
};

void opt_init(struct opt_parser *p, const char *cmd, const struct cmd_option *opts, unsigned nr,
	      int argc, char **argv);
/*
 * The next option: its id with *@value its argument (or NULL), OPT_HELP,
 * OPT_END after the options (operands are refused), or OPT_BAD after
 * saying on stderr what was wrong and what is accepted.
 */
int opt_next(struct opt_parser *p, const char **value);

/* "usage: cmasim CMD [--a A] [--b B] ..." wrapped under itself, and the newline. */
void opt_usage(FILE *out, const char *cmd, const struct cmd_option *opts, unsigned nr);
/* The options' help lines, "  --name      text". */
void opt_help(FILE *out, const struct cmd_option *opts, unsigned nr);
/* "[--a A] [--b B]..." on one line (for the main usage). */
void opt_synopsis(FILE *out, const struct cmd_option *opts, unsigned nr);

/* Is @arg --help or -h? For the commands that take an operand and no option table. */
bool opt_is_help(const char *arg);

#define OPTS(t)	(t), (unsigned)(sizeof(t) / sizeof((t)[0]))

#endif
