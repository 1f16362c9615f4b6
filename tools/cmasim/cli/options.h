/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options declared once, as git's parse-options: a command's
 * table binds each option to the field it sets (OPT_BOOL, OPT_STRING,
 * OPT_INTEGER, OPT_SIZE, OPT_CALLBACK, ...), and the parsing (getopt_long,
 * so unique prefixes of long options work), the checking of each value,
 * the usage synopsis, the help lines and the "unknown option ... accepted"
 * list are generated from it. Every refusal names the option and what it
 * accepts, and opt_parse() answers -EINVAL for it (exit 2).
 */
#ifndef CMASIM_OPTIONS_H
#define CMASIM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPTION_HELP,		/* --help: opt_parse() returns 1 */
	OPTION_BOOL,		/* bool: set true */
	OPTION_STRING,		/* const char *: the argument */
	OPTION_INTEGER,		/* uint64_t: a decimal or 0x hex number */
	OPTION_UNSIGNED,	/* unsigned: a number from 1 to .max */
	OPTION_SIZE,		/* uint64_t: a size with an optional K, M, G or T suffix */
	OPTION_DURATION,	/* uint64_t ns: a whole number with a unit, above 0 */
	OPTION_CHOICE,		/* int: the index of the argument in .choices */
	OPTION_LIST,		/* struct opt_list: appended, at most .max */
	OPTION_CALLBACK,	/* .callback does it */
	OPTION_REFUSED,		/* another command's option: refused with .refused */
};

/* Bit of cmd_option.flags */
#define OPT_NONZERO	1u	/* OPTION_SIZE: 0 refused */

/* A repeatable option's arguments, in the order given. */
#define OPT_LIST_MAX	32
struct opt_list {
	const char *v[OPT_LIST_MAX];
	unsigned nr;
};

struct cmd_option;
/* 0, or -EINVAL after saying on stderr, as "cmasim @cmd: --name ...", what was wrong. */
typedef int (*opt_callback_fn)(const struct cmd_option *o, const char *arg, const char *cmd);

struct cmd_option {
	enum opt_type type;
	const char *name;	/* long flag without "--"; NULL: short only */
	char short_name;	/* 0: none */
	void *value;		/* the field it sets, of its type's kind */
	const char **given;	/* if set: the argument as given, NULL until it is */
	const char *arg;	/* its argument in usage ("NAME|FILE"); NULL: takes none */
	const char *usage;	/* its synopsis entry when not "[--name ARG]"; "": none */
	bool repeats;		/* "..." after it in the synopsis */
	const char *label;	/* its help line's label when not "--name" */
	const char *help;	/* its help line(s), "\n" between; "%s" takes fill()'s text */
	unsigned help_rank;	/* help lines in ascending rank; 0: no help line */
	const char *what;	/* the value it takes, for "needs a value: ..."; NULL: the type's */
	unsigned max;		/* OPTION_UNSIGNED: the largest; OPTION_LIST: the most */
	unsigned flags;		/* OPT_NONZERO */
	const char *const *choices;	/* OPTION_CHOICE: NULL-terminated */
	opt_callback_fn callback;	/* OPTION_CALLBACK */
	const char *refused;	/* OPTION_REFUSED: the message */
	const char *(*fill)(void);	/* the text of "%s" in arg or help */
};

#define OPT_HELP_ENTRY { .type = OPTION_HELP, .name = "help", .short_name = 'h', .usage = "", \
	.label = "-h, --help", .help_rank = 99, .help = "this help" }
#define OPT_BOOL(l, v, r, h) { .type = OPTION_BOOL, .name = (l), .value = (v), .help_rank = (r), .help = (h) }
#define OPT_STRING(l, v, a, r, h) { .type = OPTION_STRING, .name = (l), .value = (v), .arg = (a), \
	.help_rank = (r), .help = (h) }
#define OPT_INTEGER(l, v, g, a, r, h) { .type = OPTION_INTEGER, .name = (l), .value = (v), .given = (g), \
	.arg = (a), .help_rank = (r), .help = (h) }
#define OPT_UNSIGNED(l, v, m, r, h) { .type = OPTION_UNSIGNED, .name = (l), .value = (v), .arg = "N", \
	.max = (m), .help_rank = (r), .help = (h) }
#define OPT_SIZE(l, v, f, r, h) { .type = OPTION_SIZE, .name = (l), .value = (v), .arg = "SIZE", \
	.flags = (f), .help_rank = (r), .help = (h) }
#define OPT_CALLBACK(l, v, a, cb, r, h) { .type = OPTION_CALLBACK, .name = (l), .value = (v), .arg = (a), \
	.callback = (cb), .help_rank = (r), .help = (h) }
#define OPT_REFUSED(l, a, why) { .type = OPTION_REFUSED, .name = (l), .arg = (a), .refused = (why) }

/*
 * Parse @argv (@argv[0] the command's name) against @opts, setting each
 * option's field: 0; 1 for --help; -EINVAL after saying on stderr what
 * was wrong and what is accepted. An operand is refused.
 */
int opt_parse(const char *cmd, const struct cmd_option *opts, unsigned nr, int argc, char **argv);
/* opt_list_add() for callbacks: @arg appended to @o's list, or -EINVAL when it is full. */
int opt_list_add(const struct cmd_option *o, const char *arg, const char *cmd);

/* "usage: cmasim CMD OPERANDS [--a A] [--b B] ..." wrapped under itself, and the newline. */
void opt_usage(FILE *out, const char *prefix, const char *cmd, const char *operands,
	       const struct cmd_option *opts, unsigned nr);
/* The options' help lines, "  --name      text". */
void opt_help(FILE *out, const struct cmd_option *opts, unsigned nr);

/* opt_usage(), @about (lines of text, or NULL), opt_help() on stdout: 0, or -EIO. */
int opt_help_page(const char *cmd, const char *operands, const struct cmd_option *opts, unsigned nr,
		  const char *about);

/* Is @arg --help or -h? For the commands that take an operand and no option table. */
bool opt_is_help(const char *arg);

#define OPTS(t)	(t), (unsigned)(sizeof(t) / sizeof((t)[0]))

#endif
