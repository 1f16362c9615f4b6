// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line options from a table (options.h). getopt_long does the
 * matching, so abbreviations are the unique prefixes of the table's long
 * flags; each value is checked and stored by its type, and everything
 * said to the user comes from the table too.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "util/inifile.h"
#include "cli/options.h"

#define USAGE_WIDTH	110	/* synopsis lines wrap before passing this column */
#define HELP_COLUMN	14	/* "  --scenario  " */
#define ID_BASE		256	/* getopt's value for table entry i: ID_BASE + i */
#define MAX_LONGOPTS	40

struct opt_parser {
	const char *cmd;
	const struct cmd_option *opts;
	unsigned nr;
	int argc;
	char **argv;
	struct option longopts[MAX_LONGOPTS];
	char shortopts[32];
};

static void parser_init(struct opt_parser *p, const char *cmd, const struct cmd_option *opts, unsigned nr,
			int argc, char **argv)
{
	unsigned n = 0, s = 0;

	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->opts = opts;
	p->nr = nr;
	p->argc = argc;
	p->argv = argv;
	p->shortopts[s++] = ':';
	for (unsigned i = 0; i < nr && n + 1 < MAX_LONGOPTS; i++) {
		if (opts[i].name)
			p->longopts[n++] = (struct option){ opts[i].name,
				opts[i].arg ? required_argument : no_argument, NULL, ID_BASE + (int)i };
		if (opts[i].short_name && s + 3 < sizeof(p->shortopts)) {
			p->shortopts[s++] = opts[i].short_name;
			if (opts[i].arg)
				p->shortopts[s++] = ':';
		}
	}
	opterr = 0;
	optind = 1;
}

static const struct cmd_option *entry_of(const struct opt_parser *p, int val)
{
	if (val >= ID_BASE && val - ID_BASE < (int)p->nr)
		return &p->opts[val - ID_BASE];
	for (unsigned i = 0; i < p->nr && val > 0; i++)
		if (p->opts[i].short_name == val)
			return &p->opts[i];
	return NULL;
}

/* "--name" or "-c" of @o into @buf, as messages name it. */
static const char *flag_of(const struct cmd_option *o, char *buf, size_t len)
{
	if (o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", o->short_name);
	return buf;
}

/* "text, json or html": @o's choices. */
static void write_choices(FILE *out, const struct cmd_option *o)
{
	for (unsigned i = 0; o->choices[i]; i++)
		fprintf(out, "%s%s", !i ? "" : o->choices[i + 1] ? ", " : " or ", o->choices[i]);
}

/* What @o's value is, for "needs a value: ...": its own words, else its type's. */
static void write_what(FILE *out, const struct cmd_option *o)
{
	if (o->what) {
		fputs(o->what, out);
		return;
	}
	switch (o->type) {
	case OPTION_INTEGER:
		fputs("a decimal or 0x hex number", out);
		break;
	case OPTION_UNSIGNED:
		fprintf(out, "a number from 1 to %u", o->max);
		break;
	case OPTION_SIZE:
		fputs(INI_SIZE_SYNTAX, out);
		break;
	case OPTION_DURATION:
		fputs(INI_DURATION_SYNTAX, out);
		break;
	case OPTION_CHOICE:
		write_choices(out, o);
		break;
	default:
		fputs("see --help", out);
	}
}

/* "--scenario, --platform, ..., -o, ..., --help": what is accepted, in table order. */
static void write_accepted(FILE *out, const struct opt_parser *p)
{
	bool first = true;
	char flag[64];

	for (unsigned i = 0; i < p->nr; i++) {
		if (p->opts[i].type == OPTION_REFUSED)
			continue;
		fprintf(out, "%s%s", first ? "" : ", ", flag_of(&p->opts[i], flag, sizeof(flag)));
		first = false;
	}
}

/*
 * getopt_long answers '?' both for an unknown long option and for an
 * abbreviation that begins several: count the table's flags @arg begins,
 * and name them when there is more than one, as "--s: could be --scenario, --seed".
 */
static bool write_ambiguous(FILE *out, const struct opt_parser *p, const char *arg)
{
	unsigned matches = 0;
	size_t len;

	if (strncmp(arg, "--", 2))
		return false;
	len = strcspn(arg + 2, "=");
	if (!len)
		return false;
	for (const struct option *l = p->longopts; l->name; l++)
		if (!strncmp(l->name, arg + 2, len))
			matches++;
	if (matches < 2)
		return false;
	fprintf(out, "cmasim %s: option '%.*s' is ambiguous: it could be ", p->cmd, (int)len + 2, arg);
	for (const struct option *l = p->longopts; l->name; l++)
		if (!strncmp(l->name, arg + 2, len))
			fprintf(out, "--%s%s", l->name, --matches ? ", " : "");
	fprintf(out, "; give more of its name\n");
	return true;
}

/* What getopt_long refused (@val '?' or ':'), said on stderr. */
static void write_refusal(const struct opt_parser *p, int val)
{
	const struct cmd_option *o;

	if (val == ':') {
		o = entry_of(p, optopt);
		fprintf(stderr, "cmasim %s: %s needs a value: ", p->cmd, p->argv[optind - 1]);
		if (o)
			write_what(stderr, o);
		fputc('\n', stderr);
		return;
	}
	if (!optopt && write_ambiguous(stderr, p, p->argv[optind - 1]))
		return;
	if (optopt)
		fprintf(stderr, "cmasim %s: unknown option '-%c'", p->cmd, optopt);
	else
		fprintf(stderr, "cmasim %s: unknown option '%s'", p->cmd, p->argv[optind - 1]);
	fprintf(stderr, ": accepted ");
	write_accepted(stderr, p);
	fprintf(stderr, "\n");
}

int opt_list_add(const struct cmd_option *o, const char *arg, const char *cmd)
{
	struct opt_list *l = o->value;
	unsigned max = o->max && o->max < OPT_LIST_MAX ? o->max : OPT_LIST_MAX;
	char flag[64];

	if (l->nr == max) {
		fprintf(stderr, "cmasim %s: %s: at most %u of them\n", cmd, flag_of(o, flag, sizeof(flag)), max);
		return -EINVAL;
	}
	l->v[l->nr++] = arg;
	return 0;
}

static int set_choice(const struct cmd_option *o, const char *arg, const char *cmd, const char *flag)
{
	for (int i = 0; o->choices[i]; i++)
		if (!strcmp(arg, o->choices[i])) {
			*(int *)o->value = i;
			return 0;
		}
	fprintf(stderr, "cmasim %s: %s '%s': accepted ", cmd, flag, arg);
	write_choices(stderr, o);
	fputc('\n', stderr);
	return -EINVAL;
}

/* @o's argument @arg checked and stored in its field: 0, or -EINVAL after saying why. */
static int set_value(const struct cmd_option *o, const char *arg, const char *cmd)
{
	char flag[64];
	uint64_t v;

	flag_of(o, flag, sizeof(flag));
	switch (o->type) {
	case OPTION_BOOL:
		*(bool *)o->value = true;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_INTEGER:
		if (!ini_parse_number(arg, strlen(arg), false, &v))
			break;
		*(uint64_t *)o->value = v;
		return 0;
	case OPTION_UNSIGNED:
		if (!ini_parse_number(arg, strlen(arg), false, &v) || !v || v > o->max) {
			fprintf(stderr, "cmasim %s: %s '%s': expected a number from 1 to %u\n", cmd, flag, arg, o->max);
			return -EINVAL;
		}
		*(unsigned *)o->value = (unsigned)v;
		return 0;
	case OPTION_SIZE:
		if (!ini_parse_number(arg, strlen(arg), true, &v) || (o->flags & OPT_NONZERO && !v)) {
			fprintf(stderr, "cmasim %s: %s '%s': expected " INI_SIZE_SYNTAX "%s\n", cmd, flag, arg,
				o->flags & OPT_NONZERO ? ", above 0" : "");
			return -EINVAL;
		}
		*(uint64_t *)o->value = v;
		return 0;
	case OPTION_DURATION:
		if (ini_duration(arg, &v) == -ERANGE) {
			fprintf(stderr, "cmasim %s: %s '%s': " INI_DURATION_TOO_LARGE "\n", cmd, flag, arg);
			return -EINVAL;
		}
		if (!ini_parse_duration(arg, &v) || !v) {
			fprintf(stderr, "cmasim %s: %s '%s': expected " INI_DURATION_SYNTAX ", above 0\n", cmd, flag, arg);
			return -EINVAL;
		}
		*(uint64_t *)o->value = v;
		return 0;
	case OPTION_CHOICE:
		return set_choice(o, arg, cmd, flag);
	case OPTION_LIST:
		return opt_list_add(o, arg, cmd);
	case OPTION_CALLBACK:
		return o->callback(o, arg, cmd);
	case OPTION_REFUSED:
		fprintf(stderr, "cmasim %s: %s\n", cmd, o->refused);
		return -EINVAL;
	case OPTION_HELP:
		return 1;
	}
	fprintf(stderr, "cmasim %s: %s '%s': expected a decimal or 0x hex number\n", cmd, flag, arg);
	return -EINVAL;
}

int opt_parse(const char *cmd, const struct cmd_option *opts, unsigned nr, int argc, char **argv)
{
	struct opt_parser p;
	int val, ret;

	parser_init(&p, cmd, opts, nr, argc, argv);
	while ((val = getopt_long(p.argc, p.argv, p.shortopts, p.longopts, NULL)) != -1) {
		const struct cmd_option *o = val == ':' ? NULL : entry_of(&p, val);

		if (!o) {
			write_refusal(&p, val);
			return -EINVAL;
		}
		ret = set_value(o, optarg, cmd);
		if (ret)
			return ret;
		if (o->given)
			*o->given = optarg;
	}
	if (optind < p.argc) {
		fprintf(stderr, "cmasim %s: unexpected argument '%s': %s takes only options (see --help)\n",
			cmd, p.argv[optind], cmd);
		return -EINVAL;
	}
	return 0;
}

/* @o's synopsis entry into @buf. */
static void synopsis_entry(const struct cmd_option *o, char *buf, size_t len)
{
	char arg[128] = "", flag[64];

	if (o->arg)
		snprintf(arg, sizeof(arg), o->arg, o->fill ? o->fill() : "");
	if (o->usage)
		snprintf(buf, len, "%s", o->usage);
	else
		snprintf(buf, len, "[%s%s%s]%s", flag_of(o, flag, sizeof(flag)), o->arg ? " " : "", arg,
			 o->repeats || o->type == OPTION_LIST ? "..." : "");
}

void opt_usage(FILE *out, const char *prefix, const char *cmd, const char *operands,
	       const struct cmd_option *opts, unsigned nr)
{
	int indent = fprintf(out, "%s cmasim %s", prefix, cmd) + 1, col = indent - 1;

	if (operands && operands[0])
		col += fprintf(out, " %s", operands);
	for (unsigned i = 0; i < nr; i++) {
		char entry[160];
		int len;

		if (opts[i].type == OPTION_REFUSED || (opts[i].usage && !opts[i].usage[0]))
			continue;
		synopsis_entry(&opts[i], entry, sizeof(entry));
		len = (int)strlen(entry);
		if (col + 1 + len > USAGE_WIDTH && col > indent)
			col = fprintf(out, "\n%*s", indent - 1, "") - 1;
		col += fprintf(out, " %s", entry);
	}
	fputc('\n', out);
}

/* One help line of @o, its text's further lines under its first. */
static void help_line(FILE *out, const struct cmd_option *o)
{
	char label[32], text[1024];
	const char *line = text;

	if (o->label)
		snprintf(label, sizeof(label), "%s", o->label);
	else
		flag_of(o, label, sizeof(label));
	snprintf(text, sizeof(text), o->help, o->fill ? o->fill() : "");
	fprintf(out, "  %-*s  ", HELP_COLUMN - 4, label);
	for (;;) {
		size_t n = strcspn(line, "\n");

		fprintf(out, "%.*s\n", (int)n, line);
		if (!line[n])
			break;
		line += n + 1;
		fprintf(out, "%*s", HELP_COLUMN, "");
	}
}

void opt_help(FILE *out, const struct cmd_option *opts, unsigned nr)
{
	unsigned last = 0;

	for (unsigned i = 0; i < nr; i++)
		last = opts[i].help_rank > last ? opts[i].help_rank : last;
	for (unsigned rank = 1; rank <= last; rank++)
		for (unsigned i = 0; i < nr; i++)
			if (opts[i].help_rank == rank && opts[i].help)
				help_line(out, &opts[i]);
}

int opt_help_page(const char *cmd, const char *operands, const struct cmd_option *opts, unsigned nr,
		  const char *about)
{
	opt_usage(stdout, "usage:", cmd, operands, opts, nr);
	if (about)
		fputs(about, stdout);
	opt_help(stdout, opts, nr);
	return fflush(stdout) ? -EIO : 0;
}

bool opt_is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}
