// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim run, compare and show: a scenario under one policy or several,
 * reported as text, JSON or HTML. Their options are the tables below.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/atomic_file.h"
#include "util/inifile.h"
#include "cli/commands.h"
#include "cli/run_options.h"
#include "engine/sim_api.h"
#include "policies/registry.h"

enum report_kind { REPORT_TEXT, REPORT_JSON, REPORT_HTML };

#define RUN_MAX_KERNELS 4	/* profiles one compare runs */

struct run_args {
	const char *scenario;
	const char *platform;		/* replaces the scenario's */
	const char *output;
	const char *outdir;		/* -o DIR: the report as DIR/SCENARIO-POLICY.EXT */
	const char *trace;
	enum report_kind report;
	bool policies[SIM_MAX_POLICIES];	/* by registry index */
	const char *dumps[SIM_MAX_PROCS];
	struct scenario_overrides over;	/* --cma, --cmdline, --set */
	struct sim_options opt;
	const char *kernels[RUN_MAX_KERNELS];	/* --kernels; none: the scenario's (after --kernel) */
	unsigned nr_kernels;
};

/*
 * A name cma_write_proc may know: a /proc file, or (kernel 6.12) an
 * area's sysfs or debugfs file, which only the booted machine can check.
 */
bool proc_name_ok(const char *name)
{
	static const char *const names[] = {
		"buddyinfo", "pagetypeinfo", "vmstat", "meminfo", "zoneinfo", "cma",
	};

	if ((!strncmp(name, "sys/kernel/mm/cma/", 18) || !strncmp(name, "debug/cma/", 10)) &&
	    strlen(name) < sizeof(((struct sim_proc *)0)->name))
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* "cma, carveout, buddy" */
static const char *policy_list(char *buf, size_t len)
{
	return sim_policy_names(buf, len, ", ", ", ");
}

/* "cma,buddy" into @a->policies; 0 or -EINVAL. */
static int parse_policy_list(const char *list, struct run_args *a)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	memset(a->policies, 0, sizeof(a->policies));
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p = sim_policy_index(sim_policy_find(tok));
		char names[256];

		if (p < 0) {
			fprintf(stderr, "cmasim: --policies '%s': unknown policy '%s': accepted %s, separated by commas\n",
				list, tok, policy_list(names, sizeof(names)));
			return -EINVAL;
		}
		a->policies[p] = true;
	}
	return 0;
}

enum run_option { O_SCENARIO, O_PLATFORM, O_POLICY, O_POLICIES, O_REPORT, O_OUTPUT, O_OUTDIR, O_TRACE,
		  O_SEED, O_DURATION, O_DUMP };

/* --kernels: an id apart from run_option's, so that the tables grow without clashing. */
enum { O_KERNELS = 64 };

/* --kernels "3.5,6.12" into @a->kernels; 0 or -EINVAL. */
static int parse_kernel_list(const char *list, struct run_args *a)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	a->nr_kernels = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *k = platform_kernel_find(tok);

		if (!k) {
			fprintf(stderr, "cmasim compare: --kernels '%s': unknown kernel profile '%s': accepted "
				PLATFORM_KERNELS_ACCEPTED ", separated by commas\n", list, tok);
			return -EINVAL;
		}
		if (a->nr_kernels == RUN_MAX_KERNELS) {
			fprintf(stderr, "cmasim compare: --kernels '%s': at most %d of them\n", list, RUN_MAX_KERNELS);
			return -EINVAL;
		}
		a->kernels[a->nr_kernels++] = k;
	}
	if (a->nr_kernels)
		return 0;
	fprintf(stderr, "cmasim compare: --kernels '%s' names no kernel profile: accepted " PLATFORM_KERNELS_ACCEPTED
		", separated by commas\n", list);
	return -EINVAL;
}

/* "cma|carveout|buddy" */
static const char *policy_choices(void)
{
	static char buf[256];

	return sim_policy_names(buf, sizeof(buf), "|", "|");
}

#define OPT_SCENARIO { .id = O_SCENARIO, .name = "scenario", .arg = "NAME|FILE", .help_rank = 1, \
	.help = "a built-in scenario (%s; default " SCENARIO_DEFAULT ") or a scenario file", \
	.fill = scenario_builtin_names }
#define OPT_PLATFORM { .id = O_PLATFORM, .name = "platform", .arg = "NAME|FILE", .help_rank = 2, \
	.help = PLATFORM_OPTION_HELP }
#define OPT_REPORT { .id = O_REPORT, .name = "report", .arg = "text|json|html", .help_rank = 4, \
	.help = "text (default), json or html; with --output FILE the text summary\nstill goes to standard output" }
#define OPT_OUTPUT { .id = O_OUTPUT, .name = "output", .arg = "FILE", .usage = "[--output FILE | -o DIR]" }, \
	{ .id = O_OUTDIR, .short_name = 'o', .arg = "DIR", .usage = "", .label = "-o DIR", .help_rank = 3, \
	  .help = "write the report to DIR/SCENARIO-POLICY.EXT (compare: SCENARIO-compare.EXT)" }
#define OPT_SEED { .id = O_SEED, .name = "seed", .arg = "N", .help_rank = 5, \
	.help = "replaces the scenario's seed; --duration replaces its duration (e.g. 30s)" }, \
	{ .id = O_DURATION, .name = "duration", .arg = "TIME" }
#define OPT_DUMP { .id = O_DUMP, .name = "dump", .arg = "NAME", .repeats = true, .help_rank = 6, \
	.help = "add /proc/NAME of the machine at the end of each run to the report;\nNAME is one of " \
		PROC_NAMES_ACCEPTED "; repeatable" }
#define OPT_HELP_ENTRY { .id = OPT_HELP, .name = "help", .short_name = 'h', .usage = "" }

static const struct cmd_option run_options[] = {
	OPT_SCENARIO,
	OPT_PLATFORM,
	OPT_SCENARIO_OVERRIDES,
	{ .id = O_POLICY, .name = "policy", .arg = "%s", .fill = policy_choices },
	{ .id = O_POLICIES, .name = "policies", .arg = "LIST",
	  .refused = "--policies is compare's option: give --policy NAME" },
	OPT_REPORT,
	OPT_OUTPUT,
	{ .id = O_TRACE, .name = "trace", .arg = "FILE", .help_rank = 7,
	  .help = "write the run's events to FILE in ftrace text format" },
	OPT_SEED,
	OPT_DUMP,
	{ .id = O_KERNELS, .name = "kernels", .arg = "LIST",
	  .refused = "--kernels is compare's option: give --kernel 3.5..6.12" },
	OPT_HELP_ENTRY,
};

static const struct cmd_option compare_options[] = {
	OPT_SCENARIO,
	OPT_PLATFORM,
	OPT_SCENARIO_OVERRIDES,
	{ .id = O_POLICIES, .name = "policies", .arg = "LIST" },
	{ .id = O_POLICY, .name = "policy", .arg = "NAME",
	  .refused = "--policy is run's option: give --policies LIST" },
	OPT_REPORT,
	OPT_OUTPUT,
	{ .id = O_TRACE, .name = "trace", .arg = "FILE",
	  .refused = "--trace is run's option: trace one policy with cmasim run --trace FILE" },
	OPT_SEED,
	OPT_DUMP,
	{ .id = O_KERNELS, .name = "kernels", .arg = "LIST", .help_rank = 9,
	  .help = "run each kernel profile of LIST (e.g. 3.5,6.12) under each policy,\nside by side" },
	OPT_HELP_ENTRY,
};

/* One option's value into @a: 0, or -EINVAL after saying what was wrong. */
static int set_option(int id, const char *value, const char *cmd, struct run_args *a)
{
	char names[256];
	uint64_t v;

	switch (id) {
	case O_SCENARIO:
		a->scenario = value;
		return 0;
	case O_PLATFORM:
		a->platform = value;
		return 0;
	case O_POLICY:
		a->opt.policy = sim_policy_find(value);
		if (a->opt.policy)
			return 0;
		fprintf(stderr, "cmasim run: --policy '%s': accepted %s\n", value,
			sim_policy_names(names, sizeof(names), ", ", " or "));
		return -EINVAL;
	case O_POLICIES:
		return parse_policy_list(value, a);
	case O_REPORT:
		if (!strcmp(value, "text"))
			a->report = REPORT_TEXT;
		else if (!strcmp(value, "json"))
			a->report = REPORT_JSON;
		else if (!strcmp(value, "html"))
			a->report = REPORT_HTML;
		else {
			fprintf(stderr, "cmasim %s: --report '%s': accepted text, json or html\n", cmd, value);
			return -EINVAL;
		}
		return 0;
	case O_OUTPUT:
		a->output = value;
		return 0;
	case O_OUTDIR:
		a->outdir = value;
		return 0;
	case O_TRACE:
		a->trace = value;
		return 0;
	case O_SEED:
		if (!ini_parse_number(value, strlen(value), false, &v)) {
			fprintf(stderr, "cmasim %s: --seed '%s': expected a decimal or 0x hex number\n", cmd, value);
			return -EINVAL;
		}
		a->opt.seed = v;
		a->opt.seed_set = true;
		return 0;
	case O_DURATION:
		if (ini_duration(value, &v) == -ERANGE) {
			fprintf(stderr, "cmasim %s: --duration '%s': %s\n", cmd, value, INI_DURATION_TOO_LARGE);
			return -EINVAL;
		}
		if (!ini_parse_duration(value, &v) || !v) {
			fprintf(stderr, "cmasim %s: --duration '%s': expected %s, above 0\n", cmd, value,
				INI_DURATION_SYNTAX);
			return -EINVAL;
		}
		a->opt.duration_ns = v;
		return 0;
	case O_DUMP:
		if (!proc_name_ok(value)) {
			fprintf(stderr, "cmasim %s: --dump '%s': no such /proc file: accepted " PROC_NAMES_ACCEPTED "\n",
				cmd, value);
			return -EINVAL;
		}
		if (a->opt.nr_dumps == SIM_MAX_PROCS) {
			fprintf(stderr, "cmasim %s: --dump: at most %d of them\n", cmd, SIM_MAX_PROCS);
			return -EINVAL;
		}
		a->dumps[a->opt.nr_dumps++] = value;
		a->opt.dumps = a->dumps;
		return 0;
	case O_KERNELS:
		return parse_kernel_list(value, a);
	}
	return -EINVAL;
}

/* 0, 1 for --help, or -EINVAL after saying what was wrong. */
static int parse_args(int argc, char **argv, bool compare, struct run_args *a)
{
	const char *cmd = compare ? "compare" : "run", *value;
	struct opt_parser p;
	char names[256];
	int id, ret;

	if (compare)
		opt_init(&p, cmd, OPTS(compare_options), argc, argv);
	else
		opt_init(&p, cmd, OPTS(run_options), argc, argv);
	while ((id = opt_next(&p, &value)) != OPT_END) {
		if (id == OPT_HELP)
			return 1;
		if (id == OPT_BAD)
			return -EINVAL;
		ret = scenario_overrides_option(&a->over, id, value, cmd);
		if (ret > 0)
			ret = set_option(id, value, cmd, a);
		if (ret)
			return -EINVAL;
	}
	if (a->output && a->outdir) {
		fprintf(stderr, "cmasim %s: give --output FILE or -o DIR, not both\n", cmd);
		return -EINVAL;
	}
	if (compare && !memchr(a->policies, true, sizeof(a->policies))) {
		fprintf(stderr, "cmasim compare: --policies names no policy: accepted %s, separated by commas\n",
			policy_list(names, sizeof(names)));
		return -EINVAL;
	}
	return 0;
}

/* -o DIR: DIR/SCENARIO-POLICY.EXT (compare for several policies), DIR made if missing. */
static int outdir_path(struct run_args *a, const struct scenario *sc, bool compare, char *buf,
		       size_t len)
{
	static const char *const ext[] = { [REPORT_TEXT] = "txt", [REPORT_JSON] = "json",
					   [REPORT_HTML] = "html" };

	if (mkdir(a->outdir, 0777) && errno != EEXIST) {
		fprintf(stderr, "cmasim: -o %s: cannot make the directory: %s\n", a->outdir, strerror(errno));
		return -EIO;
	}
	if ((size_t)snprintf(buf, len, "%s/%s-%s.%s", a->outdir, sc->name,
			     compare ? "compare" : a->opt.policy->name, ext[a->report]) >= len) {
		fprintf(stderr, "cmasim: -o %s: the path is too long\n", a->outdir);
		return -EINVAL;
	}
	a->output = buf;
	return 0;
}

int load_scenario(const char *arg, struct scenario *sc)
{
	char err[SCENARIO_ERR_MAX + PATH_MAX];
	int ret = scenario_builtin(arg, sc, err, sizeof(err));

	if (!ret)
		return 0;
	if (ret != -ENOENT) {
		fprintf(stderr, "cmasim: built-in scenario %s: %s\n", arg, err);
		return -EIO;
	}
	if (!strchr(arg, '/') && !strchr(arg, '.') && access(arg, F_OK)) {
		fprintf(stderr, "cmasim: --scenario '%s': no such scenario: accepted %s (see 'cmasim list'), or the path of a scenario file\n",
			arg, scenario_builtin_names());
		return -EINVAL;
	}
	if (scenario_read_file(arg, sc, err, sizeof(err))) {
		fprintf(stderr, "cmasim: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

static int write_report(const struct run_args *a, const struct sim_result *runs, unsigned nr)
{
	static int (*const writers[])(const struct sim_result *, unsigned, FILE *) = {
		[REPORT_TEXT] = report_text, [REPORT_JSON] = report_json, [REPORT_HTML] = report_html,
	};
	struct atomic_file file = { .f = stdout };
	int ret;

	if (a->output && (ret = atomic_file_open(&file, a->output, a->outdir ? "-o" : "--output")))
		return ret;
	ret = writers[a->report](runs, nr, file.f);
	if (a->output) {
		/* a writer's failure other than the file's (which commit reports) */
		if (ret && !ferror(file.f)) {
			atomic_file_abort(&file);
			fprintf(stderr, "cmasim: %s: the report could not be made; it is left as it was\n", a->output);
			return -EIO;
		}
		if (atomic_file_commit(&file))
			return -EIO;
	} else if (ret | fflush(stdout)) {
		fprintf(stderr, "cmasim: writing the report to standard output failed: %s\n", strerror(errno));
		return -EIO;
	}
	/* a report written to a file: the summary still goes to the terminal */
	if (a->output && report_text(runs, nr, stdout))
		return -EIO;
	return 0;
}

static int run_scenario(struct run_args *a, bool compare)
{
	static struct scenario sc;
	struct sim_result runs[SIM_MAX_POLICIES * RUN_MAX_KERNELS];
	char path[4096];
	unsigned nr = 0;
	struct atomic_file trace_file;
	FILE *trace = NULL;
	int ret = load_scenario(a->scenario, &sc);

	if (ret)
		return ret;
	ret = scenario_platform_apply(&sc, a->platform, &a->over, false, compare ? "compare" : "run");
	if (!ret)
		ret = scenario_overrides_apply(&sc, &a->over, compare ? "compare" : "run");
	if (ret)
		return ret;
	if (a->outdir && (ret = outdir_path(a, &sc, compare, path, sizeof(path))))
		return ret;
	/* a directory is refused now, not after the runs */
	if (a->output && (ret = atomic_file_check(a->output, a->outdir ? "-o" : "--output")))
		return ret;
	if (a->trace && (ret = atomic_file_open(&trace_file, a->trace, "--trace")))
		return ret;
	a->opt.trace = trace = a->trace ? trace_file.f : NULL;
	a->opt.progress = true;
	/* by kernel, then by policy: a kernel's runs stand side by side */
	for (unsigned k = 0; k < (a->nr_kernels ? a->nr_kernels : 1) && !ret; k++) {
		const struct sim_policy_ops *policy = a->opt.policy;

		if (a->nr_kernels)
			sc.kernel = a->kernels[k];
		for (unsigned p = 0; p < sim_nr_policies() && !ret; p++) {
			if (compare ? !a->policies[p] : sim_policy(p) != policy)
				continue;
			a->opt.policy = sim_policy(p);
			ret = sim_run(&sc, &a->opt, &runs[nr]);
			if (!ret)
				nr++;
		}
		a->opt.policy = policy;
	}
	/* a failed run's trace too: it shows how the run got there */
	if (trace && atomic_file_commit(&trace_file))
		ret = ret ? ret : -EIO;
	if (!ret)
		ret = write_report(a, runs, nr);
	for (unsigned i = 0; i < nr; i++)
		sim_result_free(&runs[i]);
	return ret;
}

static void usage(FILE *out, bool compare)
{
	char names[256];

	if (compare) {
		opt_usage(out, "compare", OPTS(compare_options));
		fprintf(out, "  runs the scenario under each policy of --policies LIST (of %s;\n"
			"  default", sim_policy_names(names, sizeof(names), ",", ","));
		for (unsigned i = 0, n = 0; i < sim_nr_policies(); i++)
			if (!sim_policy(i)->opt_in)
				fprintf(out, "%s%s", n++ ? "," : " ", sim_policy(i)->name);
		fprintf(out, ") and reports them side by side\n");
		opt_help(out, OPTS(compare_options));
	} else {
		opt_usage(out, "run", OPTS(run_options));
		opt_help(out, OPTS(run_options));
	}
}

static int run_or_compare(int argc, char **argv, bool compare)
{
	struct run_args a = { .scenario = SCENARIO_DEFAULT, .opt.policy = sim_policy(0) };
	int ret;

	for (unsigned i = 0; i < sim_nr_policies(); i++)
		a.policies[i] = !sim_policy(i)->opt_in;
	ret = parse_args(argc, argv, compare, &a);
	if (ret > 0) {
		usage(stdout, compare);
		return 0;
	}
	return ret ? ret : run_scenario(&a, compare);
}

int cmd_run(int argc, char **argv)
{
	return run_or_compare(argc, argv, false);
}

int cmd_compare(int argc, char **argv)
{
	return run_or_compare(argc, argv, true);
}

int cmd_show(int argc, char **argv)
{
	const char *text = argc == 2 ? scenario_builtin_text(argv[1]) : NULL;

	if (argc == 2 && opt_is_help(argv[1]))
		return CMD_USAGE;
	if (argc != 2) {
		fprintf(stderr, "cmasim show: give one built-in scenario's name: %s\n", scenario_builtin_names());
		return -EINVAL;
	}
	if (!text) {
		fprintf(stderr, "cmasim show: '%s': no such scenario: accepted %s\n", argv[1],
			scenario_builtin_names());
		return -EINVAL;
	}
	fputs(text, stdout);
	return fflush(stdout) ? -EIO : 0;
}
