// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim sweep: every point of a grid of parameters, each seed of it a
 * plain `cmasim run ... --report json --output DIR/FILE` command line.
 * The grid is the --param lists (each value checked here, so a typo
 * stops the sweep before anything runs) times the seeds; the command
 * lines are run by a pool of processes (sweep_batch.c), or printed for
 * other machines (--print-commands), and the reports summarized
 * (sweep_summary.c). The manifest (sweep.h) ties files to points.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/atomic_file.h"
#include "cli/commands.h"
#include "util/inifile.h"
#include "cli/run_options.h"
#include "engine/sim_api.h"
#include "policies/registry.h"
#include "sweep/sweep.h"

struct sweep_args {
	const char *scenario, *platform;
	const char *policy;		/* --policy as given, for the points; NULL: none */
	const struct sim_policy_ops *policy_ops;
	const char *seed, *duration;	/* as given, for every point's command line; NULL: none */
	uint64_t first_seed, duration_ns;	/* their values, checked when given */
	struct scenario_overrides ov;	/* --cma, --cmdline, --kernel, --set: every point's */
	struct opt_list params;		/* --param, at most SWEEP_MAX_PARAMS */
	unsigned seeds;			/* 0: not given */
	unsigned jobs;			/* 0: the online CPUs */
	const char *dir, *collect;
	bool print;
};

#define KEYS_ACCEPTED "cma, seed, duration, or SECTION.KEY of the scenario (e.g. anon.rss, camera.ring)"

/* One sweep a process: the table binds its options to these. */
static struct sweep_args sweep_args;

static const struct cmd_option sweep_options[] = {
	{ .type = OPTION_LIST, .name = "param", .value = &sweep_args.params, .max = SWEEP_MAX_PARAMS,
	  .arg = "KEY=V1,V2,...", .help_rank = 3, .what = "KEY=V1,V2,... or KEY=START..END/STEP",
	  .help = "a parameter and its values, or a range START..END/STEP (16M..256M/16M);\n"
		  "KEY is " KEYS_ACCEPTED ";\n"
		  "repeatable: the grid is every combination" },
	OPT_SEEDS(&sweep_args.seeds, 4,
		  "runs each point with N seeds (default 4, at most " RUN_MAX_SEEDS_TEXT "): the scenario's\n"
		  "seed, or --seed S, and the N-1 after it"),
	{ .type = OPTION_UNSIGNED, .name = "jobs", .short_name = 'j', .value = &sweep_args.jobs, .arg = "N",
	  .max = RUN_MAX_JOBS, .help_rank = 5,
	  .help = "runs N points at a time (default: the online CPUs, at most " RUN_MAX_JOBS_TEXT ")" },
	{ .type = OPTION_STRING, .short_name = 'o', .value = &sweep_args.dir, .arg = "DIR", .label = "-o DIR",
	  .help_rank = 6, .usage = "-o DIR", .what = "a directory",
	  .help = "writes a JSON report per point and seed, summary.csv and summary.html into DIR;\n"
		  "run again with the same DIR, a sweep runs only the points not done" },
	OPT_BOOL("print-commands", &sweep_args.print, 7,
		 "prints each point's cmasim run command line instead of running it, naming\n"
		 "this cmasim by its path (and writes DIR/" SWEEP_MANIFEST " for --collect)"),
	OPT_STRING("collect", &sweep_args.collect, "DIR", 8,
		   "builds DIR's summary.csv and summary.html from the reports there"),
	OPT_SCENARIO(&sweep_args.scenario, 1,
		     "the scenario; it, --platform, --policy, --cma, --cmdline, --kernel, --set, --seed and\n"
		     "--duration are passed to every point's cmasim run (see cmasim run --help)"),
	OPT_PLATFORM(&sweep_args.platform, 0, NULL),
	OPT_POLICY(&sweep_args.policy_ops, &sweep_args.policy, "NAME", 0, NULL),
	OPT_SCENARIO_OVERRIDES(&sweep_args.ov),
	OPT_SEED(&sweep_args.first_seed, &sweep_args.seed, "S", 0, NULL),
	OPT_DURATION(&sweep_args.duration_ns, &sweep_args.duration, 0, NULL),
	OPT_HELP_ENTRY,
};

const struct cmd_table sweep_table = { .opts = OPTS(sweep_options) };

/* 0, 1 for --help, or -EINVAL after saying what was wrong. */
static int parse_args(int argc, char **argv, struct sweep_args *a)
{
	int ret = opt_parse("sweep", OPTS(sweep_options), argc, argv);

	if (ret)
		return ret;
	if (a->collect && (a->params.nr || a->dir || a->print || a->scenario || a->seeds)) {
		fprintf(stderr, "cmasim sweep: --collect DIR takes no other option: the reports' manifest names the points\n");
		return -EINVAL;
	}
	if (!a->collect && !a->dir) {
		fprintf(stderr, "cmasim sweep: give -o DIR, where the reports and summaries go (or --collect DIR)\n");
		return -EINVAL;
	}
	return 0;
}

/* ---- the values ---- */

/*
 * Boot @sc's board under the sweep's policy, as each run will: 0 when
 * every CMA area is reserved; else -EINVAL after the kernel's failure line
 * and the largest cma= that fits, as run would exit 2 with them.
 */
static int check_areas(const struct scenario *sc, const char *policy, const char *what)
{
	char line[SIM_AREA_LINE_MAX];
	int ret = sim_check_areas(sc, policy ? sim_policy_find(policy) : NULL, line, sizeof(line));

	if (ret == -ENOSPC) {
		fprintf(stderr, "cmasim sweep: %s:\n", what);
		sim_report_area_failure(sc, line);
	}
	return ret ? -EINVAL : 0;
}

/*
 * @value for @key checked as cmasim run would take it, on @scratch, a
 * copy of the scenario as every point changes it: 0, or -EINVAL after
 * saying why (the scenario parser's message for cma and SECTION.KEY, the
 * kernel's for an area the board cannot reserve).
 */
static int check_value(const struct scenario *sc, struct scenario *scratch, const char *policy,
		       const char *key, const char *value)
{
	char what[160];

	char err[SCENARIO_ERR_MAX];
	uint64_t v;

	if (!*value || strpbrk(value, "\t\n")) {
		fprintf(stderr, "cmasim sweep: --param %s: an empty value, or one with a tab or newline\n", key);
		return -EINVAL;
	}
	if (!strcmp(key, "seed")) {
		if (ini_parse_number(value, strlen(value), false, &v))
			return 0;
		fprintf(stderr, "cmasim sweep: --param seed: '%s': expected a decimal or 0x hex number\n", value);
		return -EINVAL;
	}
	/* as run's --duration, not scenario.duration: snapshots past it are dropped, not refused */
	if (!strcmp(key, "duration")) {
		if (ini_parse_duration(value, &v) && v)
			return 0;
		fprintf(stderr, "cmasim sweep: --param duration: '%s': expected " INI_DURATION_SYNTAX ", above 0\n",
			value);
		return -EINVAL;
	}
	if (strcmp(key, "cma") && !strchr(key, '.')) {
		fprintf(stderr, "cmasim sweep: --param: unknown key '%s': accepted " KEYS_ACCEPTED "\n", key);
		return -EINVAL;
	}
	*scratch = *sc;
	snprintf(what, sizeof(what), "--param %s=%s", key, value);
	if (!scenario_override(scratch, strcmp(key, "cma") ? key : "scenario.cma", value, err, sizeof(err)) &&
	    !scenario_check(scratch, err, sizeof(err)))
		return check_areas(scratch, policy, what);
	fprintf(stderr, "cmasim sweep: %s: %s\n", what, err);
	return -EINVAL;
}

static int add_value(struct sweep_param *p, char *value)
{
	char **values = realloc(p->values, (p->nr + 1) * sizeof(*values));

	if (!values || !value) {
		free(value);
		return -ENOMEM;
	}
	p->values = values;
	p->values[p->nr++] = value;
	return 0;
}

/* The largest of K, M, G, T that divides both, as its letter and size; "" and 1 if none. */
static const char *size_unit(uint64_t a, uint64_t b, uint64_t *unit)
{
	static const char *const letters[] = { "T", "G", "M", "K" };

	for (unsigned i = 0; i < 4; i++) {
		*unit = 1ULL << (10 * (4 - i));
		if (!(a % *unit) && !(b % *unit))
			return letters[i];
	}
	*unit = 1;
	return "";
}

/* The same for durations: s, ms or us. */
static const char *duration_unit(uint64_t a, uint64_t b, uint64_t *unit)
{
	static const char *const names[] = { "s", "ms", "us" };

	*unit = 1000000000;
	for (unsigned i = 0; i < 3; i++, *unit /= 1000)
		if (!(a % *unit) && !(b % *unit))
			return names[i];
	*unit = 1000;
	return "us";
}

/* START..END/STEP of @key into @p's values; 0, or -EINVAL after saying why. */
static int expand_range(const char *key, const char *tok, struct sweep_param *p)
{
	/* durations end in s (s, ms, us): a scenario key's range of them too (camera.period) */
	bool duration = !strcmp(key, "duration") || strstr(tok, "s/") || tok[strlen(tok) - 1] == 's';
	uint64_t lo, hi, step, unit;
	const char *dots = strstr(tok, ".."), *slash = strchr(tok, '/'), *suffix;
	char a[64], b[64];
	bool ok;

	ok = dots && slash > dots && dots - tok < 64 && slash - dots - 2 < 64;
	if (ok) {
		snprintf(a, sizeof(a), "%.*s", (int)(dots - tok), tok);
		snprintf(b, sizeof(b), "%.*s", (int)(slash - dots - 2), dots + 2);
		ok = duration ? ini_parse_duration(a, &lo) && ini_parse_duration(b, &hi) &&
				ini_parse_duration(slash + 1, &step) :
			 ini_parse_number(a, strlen(a), true, &lo) && ini_parse_number(b, strlen(b), true, &hi) &&
				ini_parse_number(slash + 1, strlen(slash + 1), true, &step);
	}
	if (!ok || !step || lo > hi || (hi - lo) / step >= SWEEP_MAX_POINTS) {
		fprintf(stderr, "cmasim sweep: --param %s: range '%s': expected START..END/STEP with START <= END, "
			"STEP above 0 and at most %d values, each %s\n", key, tok, SWEEP_MAX_POINTS,
			duration ? INI_DURATION_SYNTAX : INI_SIZE_SYNTAX);
		return -EINVAL;
	}
	/* plain numbers stay plain; sizes and durations are written in their largest exact unit */
	if (duration)
		suffix = duration_unit(lo, step, &unit);
	else if (strpbrk(tok, "KMGTkmgt"))
		suffix = size_unit(lo, step, &unit);
	else
		suffix = "", unit = 1;
	for (uint64_t v = lo; v <= hi && v >= lo; v += step) {
		char *s;

		if (asprintf(&s, "%llu%s", (unsigned long long)(v / unit), suffix) < 0)
			s = NULL;
		if (add_value(p, s))
			return -ENOMEM;
	}
	return 0;
}

/* "KEY=V1,V2,..." into @p, each value checked; 0 or -EINVAL after saying why. */
static int parse_param(const struct scenario *sc, const char *policy, const char *arg,
		       struct sweep_param *p)
{
	const char *eq = strchr(arg, '=');
	char *list, *save = NULL;
	struct scenario *scratch;
	int ret = 0;

	if (!eq || eq == arg || !eq[1]) {
		fprintf(stderr, "cmasim sweep: --param '%s': expected KEY=V1,V2,... or KEY=START..END/STEP; "
			"KEY is " KEYS_ACCEPTED "\n", arg);
		return -EINVAL;
	}
	p->key = strndup(arg, eq - arg);
	list = strdup(eq + 1);
	scratch = malloc(sizeof(*scratch));
	if (!p->key || !list || !scratch) {
		free(scratch);
		free(list);
		return -ENOMEM;
	}
	for (char *tok = strtok_r(list, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save))
		ret = strstr(tok, "..") ? expand_range(p->key, tok, p) : add_value(p, strdup(tok));
	/* a range's too: its bounds parsed, but the key may refuse a value */
	for (unsigned i = 0; i < p->nr && !ret; i++)
		ret = check_value(sc, scratch, policy, p->key, p->values[i]);
	free(scratch);
	free(list);
	if (!ret && !p->nr) {
		fprintf(stderr, "cmasim sweep: --param '%s': no values\n", arg);
		ret = -EINVAL;
	}
	return ret;
}

/* The seeds: --param seed=..., else --seeds N from --seed S or the scenario's. */
static int seed_values(const struct sweep_args *a, const struct scenario *sc, struct sweep_param *seeds)
{
	uint64_t first = a->seed ? a->first_seed : sc->seed;
	int ret = 0;

	if (seeds->nr) {
		if (a->seeds || a->seed) {
			fprintf(stderr, "cmasim sweep: --param seed=... gives the seeds: drop --seeds and --seed\n");
			return -EINVAL;
		}
		return 0;
	}
	seeds->key = strdup("seed");
	for (unsigned long i = 0; i < (a->seeds ? a->seeds : 4) && !ret; i++) {
		char *s;

		if (asprintf(&s, "%llu", (unsigned long long)(first + i)) < 0)
			s = NULL;
		ret = add_value(seeds, s);
	}
	return seeds->key ? ret : -ENOMEM;
}

/* ---- the points ---- */

/* "cma-64M_anon.rss-256M_seed-3.json": letters, digits and ".+-" kept, the rest '_'. */
static char *point_file(const struct sweep *s, const struct sweep_point *pt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (unsigned i = 0; i < s->nr_params; i++)
		fprintf(f, "%s-%s_", s->params[i].key, pt->values[i]);
	fprintf(f, "seed-%s.json", pt->seed);
	if (fclose(f))
		return NULL;
	for (char *c = buf; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+-", *c))
			*c = '_';
	return buf;
}

/* Words the shell reads back as they are; others go in single quotes. */
static void shell_quote(FILE *f, const char *word)
{
	if (*word && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=,:+@%-") ==
		     strlen(word)) {
		fputs(word, f);
		return;
	}
	fputc('\'', f);
	for (; *word; word++)
		if (*word == '\'')
			fputs("'\\''", f);
		else
			fputc(*word, f);
	fputc('\'', f);
}

struct argv_buf {
	char **v;
	unsigned n;
};

static void push(struct argv_buf *b, const char *opt, const char *value)
{
	b->v[b->n++] = strdup(opt);
	if (value)
		b->v[b->n++] = strdup(value);
}

/*
 * This cmasim's absolute path: the printed commands name it, so that they
 * run the program that printed them, whatever PATH holds ("cmasim" if
 * /proc cannot say, as the sweep's own children need /proc/self/exe).
 */
static const char *self_path(void)
{
	static char path[PATH_MAX];
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0 || n == (ssize_t)sizeof(path) - 1) {
		path[0] = '\0';
		return "cmasim";
	}
	path[n] = '\0';
	return path;
}

/* cmasim run's arguments for @pt, its report going to @output. */
static char **point_argv(const struct sweep_args *a, const struct sweep *s, const struct sweep_point *pt,
			 const char *output)
{
	struct argv_buf b = { calloc(2 * (16 + SCENARIO_MAX_SETS + SWEEP_MAX_PARAMS), sizeof(char *)), 0 };
	const char *cma = a->ov.cma, *duration = a->duration;

	if (!b.v)
		return NULL;
	push(&b, self_path(), NULL);
	push(&b, "run", NULL);
	push(&b, "--scenario", a->scenario ? a->scenario : SCENARIO_DEFAULT);
	if (a->platform)
		push(&b, "--platform", a->platform);
	if (a->policy)
		push(&b, "--policy", a->policy);
	if (a->ov.cmdline)
		push(&b, "--cmdline", a->ov.cmdline);
	if (a->ov.kernel)
		push(&b, "--kernel", a->ov.kernel);
	for (unsigned i = 0; i < s->nr_params; i++)
		if (!strcmp(s->params[i].key, "cma"))
			cma = pt->values[i];
		else if (!strcmp(s->params[i].key, "duration"))
			duration = pt->values[i];
	if (cma)
		push(&b, "--cma", cma);
	for (unsigned i = 0; i < a->ov.nr_sets; i++)
		push(&b, "--set", a->ov.sets[i]);
	for (unsigned i = 0; i < s->nr_params; i++)
		if (strchr(s->params[i].key, '.')) {
			char *set;

			if (asprintf(&set, "%s=%s", s->params[i].key, pt->values[i]) < 0)
				set = NULL;
			push(&b, "--set", set);
			free(set);
		}
	if (duration)
		push(&b, "--duration", duration);
	push(&b, "--seed", pt->seed);
	push(&b, "--report", "json");
	push(&b, "--output", output);
	for (unsigned i = 0; i < b.n; i++)
		if (!b.v[i]) {
			for (i = 0; i < b.n; i++)
				free(b.v[i]);
			free(b.v);
			return NULL;
		}
	return b.v;
}

static char *argv_line(char **argv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (unsigned i = 0; argv[i]; i++) {
		if (i)
			fputc(' ', f);
		shell_quote(f, argv[i]);
	}
	return fclose(f) ? NULL : buf;
}

static void free_argv(char **argv)
{
	for (unsigned i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* Point @idx's file, command line and argv. */
static int make_point(const struct sweep_args *a, struct sweep *s, struct sweep_point *pt)
{
	char *output = NULL;
	char **line_argv;

	pt->file = point_file(s, pt);
	if (!pt->file || asprintf(&output, "%s/%s", s->dir, pt->file) < 0 ||
	    asprintf(&pt->part, "%s/%s.part", s->dir, pt->file) < 0)
		goto nomem;
	line_argv = point_argv(a, s, pt, output);
	pt->argv = point_argv(a, s, pt, pt->part);
	if (!line_argv || !pt->argv || !(pt->command = argv_line(line_argv))) {
		free_argv(line_argv);
		goto nomem;
	}
	free_argv(line_argv);
	free(output);
	return 0;
nomem:
	free(output);
	return -ENOMEM;
}

/* Every combination of the params' values, the last changing fastest, then each seed. */
static int make_points(const struct sweep_args *a, struct sweep *s, const struct sweep_param *seeds)
{
	size_t n = seeds->nr;
	int ret;

	for (unsigned i = 0; i < s->nr_params; i++)
		n = n > SWEEP_MAX_POINTS ? n : n * s->params[i].nr;
	if (n > SWEEP_MAX_POINTS) {
		fprintf(stderr, "cmasim sweep: the grid has more than %d points: sweep fewer values\n",
			SWEEP_MAX_POINTS);
		return -EINVAL;
	}
	s->points = calloc(n, sizeof(*s->points));
	if (!s->points)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		struct sweep_point *pt = &s->points[s->nr_points++];
		size_t rest = k / seeds->nr;

		for (unsigned i = s->nr_params; i-- > 0;) {
			pt->values[i] = strdup(s->params[i].values[rest % s->params[i].nr]);
			rest /= s->params[i].nr;
			if (!pt->values[i])
				return -ENOMEM;
		}
		pt->seed = strdup(seeds->values[k % seeds->nr]);
		if (!pt->seed || (ret = make_point(a, s, pt)))
			return -ENOMEM;
		for (size_t j = 0; j + 1 < s->nr_points; j++)
			if (!strcmp(s->points[j].file, pt->file)) {
				fprintf(stderr, "cmasim sweep: two points share the report file %s: give values that differ in letters or digits\n",
					pt->file);
				return -EINVAL;
			}
	}
	return 0;
}

static void free_param(struct sweep_param *p)
{
	for (unsigned i = 0; i < p->nr; i++)
		free(p->values[i]);
	free(p->values);
	free(p->key);
}

void sweep_free(struct sweep *s)
{
	for (size_t k = 0; k < s->nr_points; k++) {
		struct sweep_point *pt = &s->points[k];

		for (unsigned i = 0; i < s->nr_params; i++)
			free(pt->values[i]);
		free(pt->file);
		free(pt->seed);
		free(pt->command);
		free(pt->part);
		free_argv(pt->argv);
	}
	free(s->points);
	for (unsigned i = 0; i < s->nr_params; i++)
		free_param(&s->params[i]);
	s->nr_points = s->nr_params = 0;
	s->points = NULL;
}

/* Does a param change the board or its command line (is it cma or a scenario key)? */
static bool changes_board(const struct sweep *s)
{
	for (unsigned i = 0; i < s->nr_params; i++)
		if (strcmp(s->params[i].key, "duration"))
			return true;
	return false;
}

/* The params and seeds of @a into @s's points; 0, or -EINVAL after saying why. */
static int build_grid(const struct sweep_args *a, const struct scenario *sc, struct sweep *s)
{
	struct sweep_param seeds = { 0 };
	int ret = 0;

	for (unsigned i = 0; i < a->params.nr && !ret; i++) {
		struct sweep_param p = { 0 };

		ret = parse_param(sc, a->policy, a->params.v[i], &p);
		for (unsigned j = 0; j < s->nr_params && !ret; j++)
			if (!strcmp(s->params[j].key, p.key)) {
				fprintf(stderr, "cmasim sweep: --param %s is given twice: list its values in one\n", p.key);
				ret = -EINVAL;
			}
		if (!ret && ((!strcmp(p.key, "cma") && a->ov.cma) || (!strcmp(p.key, "duration") && a->duration))) {
			fprintf(stderr, "cmasim sweep: --param %s sweeps what --%s fixes: give one of them\n", p.key, p.key);
			ret = -EINVAL;
		}
		if (!ret && !strcmp(p.key, "seed")) {
			seeds = p;
			continue;
		}
		if (ret)
			free_param(&p);
		else
			s->params[s->nr_params++] = p;
	}
	/* the scenario as given boots in every point unless a param changes it (and is checked) */
	if (!ret && !changes_board(s))
		ret = check_areas(sc, a->policy, "the scenario");
	if (!ret)
		ret = seed_values(a, sc, &seeds);
	if (!ret)
		ret = make_points(a, s, &seeds);
	free_param(&seeds);
	return ret;
}

/* ---- the manifest ---- */

int sweep_manifest_write(const struct sweep *s)
{
	struct atomic_file af;
	char *path = NULL;
	FILE *f;
	int ret;

	if (asprintf(&path, "%s/" SWEEP_MANIFEST, s->dir) < 0)
		return -ENOMEM;
	if ((ret = atomic_file_open(&af, path, "sweep manifest"))) {
		free(path);
		return ret;
	}
	f = af.f;
	fputs("file\tseed", f);
	for (unsigned i = 0; i < s->nr_params; i++)
		fprintf(f, "\t%s", s->params[i].key);
	fputs("\tcommand\n", f);
	for (size_t k = 0; k < s->nr_points; k++) {
		const struct sweep_point *pt = &s->points[k];

		fprintf(f, "%s\t%s", pt->file, pt->seed);
		for (unsigned i = 0; i < s->nr_params; i++)
			fprintf(f, "\t%s", pt->values[i]);
		fprintf(f, "\t%s\n", pt->command);
	}
	ret = atomic_file_commit(&af);
	free(path);
	return ret;
}

/* Line @line's tab-separated fields into @fields (at most @max); their number. */
static unsigned split_tabs(char *line, char **fields, unsigned max)
{
	unsigned n = 0;

	line[strcspn(line, "\n")] = 0;
	for (char *f = line; f && n < max; n++) {
		fields[n] = f;
		f = strchr(f, '\t');
		if (f)
			*f++ = 0;
	}
	return n;
}

static int manifest_row(struct sweep *s, char **fields, unsigned n)
{
	struct sweep_point *pt = &s->points[s->nr_points];

	if (n != s->nr_params + 3 || strchr(fields[0], '/'))
		return -EINVAL;
	s->nr_points++;
	pt->file = strdup(fields[0]);
	pt->seed = strdup(fields[1]);
	pt->command = strdup(fields[n - 1]);
	if (!pt->file || !pt->seed || !pt->command)
		return -ENOMEM;
	for (unsigned i = 0; i < s->nr_params; i++)
		if (!(pt->values[i] = strdup(fields[2 + i])))
			return -ENOMEM;
	return 0;
}

/* 0; -ENOENT when @dir has no manifest (the caller says so); else -errno after saying why. */
int sweep_manifest_read(const char *dir, struct sweep *s)
{
	char *path = NULL, *line = NULL, *fields[SWEEP_MAX_PARAMS + 4];
	size_t cap = 0;
	unsigned n, lineno = 1;
	int ret = -ENOMEM;
	FILE *f;

	memset(s, 0, sizeof(*s));
	s->dir = dir;
	if (asprintf(&path, "%s/" SWEEP_MANIFEST, dir) < 0)
		return -ENOMEM;
	if (!(f = fopen(path, "r"))) {
		ret = errno == ENOENT ? -ENOENT : -EIO;
		if (ret == -EIO)
			fprintf(stderr, "cmasim sweep: cannot read %s: %s\n", path, strerror(errno));
		goto out;
	}
	ret = -EINVAL;
	if (getline(&line, &cap, f) < 0)
		goto bad;
	n = split_tabs(line, fields, SWEEP_MAX_PARAMS + 4);
	if (n < 3 || n > SWEEP_MAX_PARAMS + 3 || strcmp(fields[0], "file") || strcmp(fields[1], "seed") ||
	    strcmp(fields[n - 1], "command"))
		goto bad;
	for (unsigned i = 2; i + 1 < n; i++)
		if (!(s->params[s->nr_params++].key = strdup(fields[i])))
			goto nomem;
	if (!(s->points = calloc(SWEEP_MAX_POINTS, sizeof(*s->points))))
		goto nomem;
	while (getline(&line, &cap, f) >= 0 && s->nr_points < SWEEP_MAX_POINTS) {
		lineno++;
		ret = manifest_row(s, fields, split_tabs(line, fields, SWEEP_MAX_PARAMS + 4));
		if (ret == -ENOMEM)
			goto nomem;
		if (ret)
			goto bad;
	}
	ret = 0;
	goto close;
nomem:
	ret = -ENOMEM;
	goto close;
bad:
	fprintf(stderr, "cmasim sweep: %s:%u: not a line of a sweep's manifest (file, seed, values, command separated by tabs)\n",
		path, lineno);
close:
	fclose(f);
out:
	free(line);
	free(path);
	if (ret)
		sweep_free(s);
	return ret;
}

/* ---- the command ---- */

static bool file_exists(const char *dir, const char *file)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* Each point whose report is there, by the manifest's same command line, is done. */
static void mark_done(struct sweep *s)
{
	struct sweep before;

	if (sweep_manifest_read(s->dir, &before))
		return;
	for (size_t k = 0; k < s->nr_points; k++)
		for (size_t j = 0; j < before.nr_points; j++)
			if (!strcmp(s->points[k].file, before.points[j].file)) {
				s->points[k].done = !strcmp(s->points[k].command, before.points[j].command) &&
						    file_exists(s->dir, s->points[k].file);
				break;
			}
	sweep_free(&before);
}

/*
 * The summaries of the points done, and which are missing: 0; -EINVAL if
 * a run refused its input (exit 2, as run's own); else -EAGAIN if some are.
 */
static int finish(const struct sweep *s, const char *again)
{
	size_t missing = 0, shown = 0, refused = 0;
	int ret = sweep_summarize(s);

	for (size_t k = 0; k < s->nr_points; k++) {
		missing += !s->points[k].done;
		refused += s->points[k].refused;
	}
	if (!ret)
		fprintf(stderr, "cmasim sweep: %zu of %zu points in %s/summary.csv and %s/summary.html\n",
			s->nr_points - missing, s->nr_points, s->dir, s->dir);
	if (!missing)
		return ret;
	fprintf(stderr, "cmasim sweep: %zu of %zu points missing:", missing, s->nr_points);
	for (size_t k = 0; k < s->nr_points && shown < 10; k++)
		if (!s->points[k].done)
			fprintf(stderr, "%s %s", shown++ ? "," : "", s->points[k].file);
	fprintf(stderr, "%s\n  %s\n", missing > shown ? ", ..." : "", again);
	if (refused)
		return -EINVAL;
	return ret && ret != -ENOENT ? ret : -EAGAIN;
}

static int collect(const char *dir)
{
	struct sweep s;
	int ret = sweep_manifest_read(dir, &s);

	if (ret == -ENOENT)
		fprintf(stderr, "cmasim sweep: --collect %s: no %s/" SWEEP_MANIFEST
			" (cmasim sweep --print-commands -o %s writes it)\n", dir, dir, dir);
	if (ret)
		return ret == -ENOMEM ? ret : -EINVAL;
	for (size_t k = 0; k < s.nr_points; k++)
		s.points[k].done = file_exists(dir, s.points[k].file);
	ret = finish(&s, "run their commands (" SWEEP_MANIFEST "'s last column), then --collect again");
	sweep_free(&s);
	return ret;
}

/*
 * Stopped by @sig, after saying what is missing: end as its default action
 * does, as run does, so that a shell sees 128 + @sig (130 for Ctrl-C) and
 * a script running the sweep stops too.
 */
static void die_of(int sig)
{
	fflush(NULL);
	signal(sig, SIG_DFL);
	raise(sig);
	exit(128 + sig);	/* @sig held by whoever started the sweep */
}

static int sweep_run(const struct sweep_args *a, struct sweep *s)
{
	size_t before = 0;
	int ret, stop;

	mark_done(s);
	ret = sweep_manifest_write(s);
	if (ret)
		return ret;
	for (size_t k = 0; k < s->nr_points; k++) {
		before += s->points[k].done;
		if (!s->points[k].done)
			unlink(s->points[k].part);	/* left by an interrupted sweep */
	}
	if (before)
		fprintf(stderr, "cmasim sweep: %zu of %zu points done before: running the other %zu\n", before,
			s->nr_points, s->nr_points - before);
	stop = sweep_batch_run(s, a->jobs ? a->jobs : (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	if (stop < 0)
		return stop;
	ret = finish(s, "run the same command again to run only those");
	if (stop)
		die_of(stop);
	return ret;
}

/* Whether the grid sizes the default area at each point (cma, scenario.cma, scenario.cmdline), as --cma would. */
static bool grid_sizes_cma(const struct sweep_args *a)
{
	for (unsigned i = 0; i < a->params.nr; i++)
		if (!strncmp(a->params.v[i], "cma=", 4) || !strncmp(a->params.v[i], "scenario.cma=", 13) ||
		    !strncmp(a->params.v[i], "scenario.cmdline=", 17))
			return true;
	return false;
}

static int sweep_main(const struct sweep_args *a)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sweep s = { .dir = a->dir };
	int ret = sc ? load_scenario(a->scenario ? a->scenario : SCENARIO_DEFAULT, sc) : -ENOMEM;

	if (!ret)
		ret = scenario_platform_apply(sc, a->platform, &a->ov, grid_sizes_cma(a), "sweep");
	if (!ret)
		ret = scenario_overrides_apply(sc, &a->ov, "sweep");
	if (!ret)
		ret = build_grid(a, sc, &s);
	free(sc);
	if (ret)
		goto out;
	if (mkdir(a->dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "cmasim sweep: -o %s: cannot make the directory: %s\n", a->dir, strerror(errno));
		ret = -EIO;
		goto out;
	}
	if (a->print) {
		ret = sweep_manifest_write(&s);
		for (size_t k = 0; k < s.nr_points && !ret; k++)
			printf("%s\n", s.points[k].command);
		ret = ret ? ret : fflush(stdout) ? -EIO : 0;
	} else {
		ret = sweep_run(a, &s);
	}
out:
	sweep_free(&s);
	return ret;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args *a = &sweep_args;
	int ret;

	*a = (struct sweep_args){ 0 };
	ret = parse_args(argc, argv, a);
	if (ret > 0)
		return cmd_help("sweep", &sweep_table, NULL);
	if (ret)
		return ret;
	return a->collect ? collect(a->collect) : sweep_main(a);
}
