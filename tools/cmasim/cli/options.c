// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line options from a table (options.h). getopt_long does the
 * matching, so abbreviations are the unique prefixes of the table's long
 * flags; everything said to the user comes from the table too.
 */
#include <string.h>

#include "cli/options.h"

#define USAGE_WIDTH	110	/* synopsis lines wrap before passing this column */
#define HELP_COLUMN	14	/* "  --scenario  " */
#define ID_BASE		256	/* getopt's value for table entry i: ID_BASE + i */

void opt_init(struct opt_parser *p, const char *cmd, const struct cmd_option *opts, unsigned nr,
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
	for (unsigned i = 0; i < nr && n + 1 < sizeof(p->longopts) / sizeof(p->longopts[0]); i++) {
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

/* "--scenario, --platform, ..., -o, ..., --help": what is accepted, in table order. */
static void write_accepted(FILE *out, const struct opt_parser *p)
{
	bool first = true;

	for (unsigned i = 0; i < p->nr; i++) {
		const struct cmd_option *o = &p->opts[i];

		if (o->refused)
			continue;
		if (o->name)
			fprintf(out, "%s--%s", first ? "" : ", ", o->name);
		else
			fprintf(out, "%s-%c", first ? "" : ", ", o->short_name);
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

int opt_next(struct opt_parser *p, const char **value)
{
	const struct cmd_option *o;
	int val = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);

	*value = optarg;
	if (val == -1) {
		if (optind < p->argc) {
			fprintf(stderr, "cmasim %s: unexpected argument '%s': %s takes only options (see --help)\n",
				p->cmd, p->argv[optind], p->cmd);
			return OPT_BAD;
		}
		return OPT_END;
	}
	if (val == ':') {
		o = entry_of(p, optopt);
		fprintf(stderr, "cmasim %s: %s needs a value", p->cmd, p->argv[optind - 1]);
		if (o && o->what)
			fprintf(stderr, ": %s\n", o->what);
		else
			fprintf(stderr, " (see --help)\n");
		return OPT_BAD;
	}
	o = entry_of(p, val);
	if (!o) {
		if (!optopt && write_ambiguous(stderr, p, p->argv[optind - 1]))
			return OPT_BAD;
		if (optopt)
			fprintf(stderr, "cmasim %s: unknown option '-%c'", p->cmd, optopt);
		else
			fprintf(stderr, "cmasim %s: unknown option '%s'", p->cmd, p->argv[optind - 1]);
		fprintf(stderr, ": accepted ");
		write_accepted(stderr, p);
		fprintf(stderr, "\n");
		return OPT_BAD;
	}
	if (o->refused) {
		fprintf(stderr, "cmasim %s: %s\n", p->cmd, o->refused);
		return OPT_BAD;
	}
	return o->id;
}

/* @o's synopsis entry into @buf. */
static void synopsis_entry(const struct cmd_option *o, char *buf, size_t len)
{
	char arg[128] = "";

	if (o->arg)
		snprintf(arg, sizeof(arg), o->arg, o->fill ? o->fill() : "");
	if (o->usage)
		snprintf(buf, len, "%s", o->usage);
	else if (o->name)
		snprintf(buf, len, "[--%s%s%s]%s", o->name, o->arg ? " " : "", arg, o->repeats ? "..." : "");
	else
		snprintf(buf, len, "[-%c%s%s]%s", o->short_name, o->arg ? " " : "", arg, o->repeats ? "..." : "");
}

void opt_usage(FILE *out, const char *cmd, const struct cmd_option *opts, unsigned nr)
{
	int indent = fprintf(out, "usage: cmasim %s", cmd) + 1, col = indent - 1;

	for (unsigned i = 0; i < nr; i++) {
		char entry[160];
		int len;

		if (opts[i].refused || (opts[i].usage && !opts[i].usage[0]))
			continue;
		synopsis_entry(&opts[i], entry, sizeof(entry));
		len = (int)strlen(entry);
		if (col + 1 + len > USAGE_WIDTH && col > indent)
			col = fprintf(out, "\n%*s", indent - 1, "") - 1;
		col += fprintf(out, " %s", entry);
	}
	fputc('\n', out);
}

void opt_synopsis(FILE *out, const struct cmd_option *opts, unsigned nr)
{
	for (unsigned i = 0, first = 1; i < nr; i++) {
		char entry[160];

		if (opts[i].refused || (opts[i].usage && !opts[i].usage[0]))
			continue;
		synopsis_entry(&opts[i], entry, sizeof(entry));
		fprintf(out, "%s%s", first ? "" : " ", entry);
		first = 0;
	}
}

void opt_help(FILE *out, const struct cmd_option *opts, unsigned nr)
{
	for (unsigned rank = 1; rank <= nr; rank++)
		for (unsigned i = 0; i < nr; i++) {
			const struct cmd_option *o = &opts[i];
			char label[32], text[1024];
			const char *line;

			if (o->help_rank != rank)
				continue;
			if (o->label)
				snprintf(label, sizeof(label), "%s", o->label);
			else
				snprintf(label, sizeof(label), "--%s", o->name);
			snprintf(text, sizeof(text), o->help, o->fill ? o->fill() : "");
			line = text;
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
}

bool opt_is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}
