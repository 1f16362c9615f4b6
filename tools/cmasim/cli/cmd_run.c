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
	int report;			/* enum report_kind */
	bool policies[SIM_MAX_POLICIES];	/* by registry index */
	struct opt_list dumps;
	const char *seed_arg;		/* --seed as given; NULL: the scenario's */
	struct scenario_overrides over;	/* --cma, --cmdline, --kernel, --set */
	struct sim_options opt;
	const char *kernels[RUN_MAX_KERNELS];	/* --kernels; none: the scenario's (after --kernel) */
	unsigned nr_kernels;
};

/* One run or compare a process: the tables bind their options to these. */
static struct run_args run_args;

/* "cma, carveout, buddy" */
static const char *policy_list(char *buf, size_t len)
{
	return sim_policy_names(buf, len, ", ", ", ");
}

/* --policies "cma,buddy" into the bool per policy at o->value. */
static int policies_cb(const struct cmd_option *o, const char *list, const char *cmd)
{
	bool *policies = o->value;
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	memset(policies, 0, sizeof(run_args.policies));
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p = sim_policy_index(sim_policy_find(tok));
		char names[256];

		if (p < 0) {
			fprintf(stderr, "cmasim %s: --policies '%s': unknown policy '%s': accepted %s, separated by commas\n",
				cmd, list, tok, policy_list(names, sizeof(names)));
			return -EINVAL;
		}
		policies[p] = true;
	}
	return 0;
}

/* --kernels "3.5,6.12" into the run_args at o->value. */
static int kernels_cb(const struct cmd_option *o, const char *list, const char *cmd)
{
	struct run_args *a = o->value;
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	a->nr_kernels = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *k = platform_kernel_find(tok);

		if (!k) {
			fprintf(stderr, "cmasim %s: --kernels '%s': unknown kernel profile '%s': accepted "
				PLATFORM_KERNELS_ACCEPTED ", separated by commas\n", cmd, list, tok);
			return -EINVAL;
		}
		if (a->nr_kernels == RUN_MAX_KERNELS) {
			fprintf(stderr, "cmasim %s: --kernels '%s': at most %d of them\n", cmd, list, RUN_MAX_KERNELS);
			return -EINVAL;
		}
		a->kernels[a->nr_kernels++] = k;
	}
	if (a->nr_kernels)
		return 0;
	fprintf(stderr, "cmasim %s: --kernels '%s' names no kernel profile: accepted " PLATFORM_KERNELS_ACCEPTED
		", separated by commas\n", cmd, list);
	return -EINVAL;
}

/* "cma|carveout|buddy" */
static const char *policy_choices(void)
{
	static char buf[256];

	return sim_policy_names(buf, sizeof(buf), "|", "|");
}

/* The options run and compare share, in their tables' order. */
#define RUN_SCENARIO \
	OPT_SCENARIO(&run_args.scenario, 1, SCENARIO_OPTION_HELP), \
	OPT_PLATFORM(&run_args.platform, 2, PLATFORM_OPTION_HELP), \
	OPT_SCENARIO_OVERRIDES(&run_args.over)
#define RUN_REPORT \
	{ .type = OPTION_CHOICE, .name = "report", .value = &run_args.report, .arg = "text|json|html", \
	  .choices = (const char *const[]){ [REPORT_TEXT] = "text", [REPORT_JSON] = "json", [REPORT_HTML] = "html", NULL }, \
	  .help_rank = 4, .help = "text (default), json or html; with --output FILE the text summary\nstill goes to standard output" }, \
	{ .type = OPTION_STRING, .name = "output", .value = &run_args.output, .arg = "FILE", \
	  .usage = "[--output FILE | -o DIR]" }, \
	{ .type = OPTION_STRING, .short_name = 'o', .value = &run_args.outdir, .arg = "DIR", .usage = "", \
	  .label = "-o DIR", .help_rank = 3, .what = "a directory", \
	  .help = "write the report to DIR/SCENARIO-POLICY.EXT (compare: SCENARIO-compare.EXT)" }
#define RUN_SEED_AND_DUMP \
	OPT_SEED(&run_args.opt.seed, &run_args.seed_arg, "N", 5, \
		 "replaces the scenario's seed; --duration replaces its duration (e.g. 30s)"), \
	OPT_DURATION(&run_args.opt.duration_ns, NULL, 0, NULL), \
	OPT_DUMP(&run_args.dumps, SIM_MAX_PROCS, 6, "add /proc/NAME of the machine at the end of each run to the report;\n" \
		 "NAME is one of " PROC_NAMES_ACCEPTED "; repeatable")

static const struct cmd_option run_options[] = {
	RUN_SCENARIO,
	{ .type = OPTION_CALLBACK, .name = "policy", .value = &run_args.opt.policy, .arg = "%s", .fill = policy_choices,
	  .callback = opt_policy_cb },
	OPT_REFUSED("policies", "LIST", "--policies is compare's option: give --policy NAME"),
	RUN_REPORT,
	OPT_STRING("trace", &run_args.trace, "FILE", 7, "write the run's events to FILE in ftrace text format"),
	RUN_SEED_AND_DUMP,
	OPT_REFUSED("kernels", "LIST", "--kernels is compare's option: give --kernel 3.5..6.12"),
	OPT_HELP_ENTRY,
};

static const struct cmd_option compare_options[] = {
	RUN_SCENARIO,
	OPT_CALLBACK("policies", run_args.policies, "LIST", policies_cb, 0, NULL),
	OPT_REFUSED("policy", "NAME", "--policy is run's option: give --policies LIST"),
	RUN_REPORT,
	OPT_REFUSED("trace", "FILE", "--trace is run's option: trace one policy with cmasim run --trace FILE"),
	RUN_SEED_AND_DUMP,
	OPT_CALLBACK("kernels", &run_args, "LIST", kernels_cb, 9,
		     "run each kernel profile of LIST (e.g. 3.5,6.12) under each policy,\nside by side"),
	OPT_HELP_ENTRY,
};

const struct cmd_table run_table = { .opts = OPTS(run_options) };
const struct cmd_table compare_table = { .opts = OPTS(compare_options) };

/* 0, 1 for --help, or -EINVAL after saying what was wrong. */
static int parse_args(int argc, char **argv, bool compare, struct run_args *a)
{
	const char *cmd = compare ? "compare" : "run";
	const struct cmd_table *t = compare ? &compare_table : &run_table;
	char names[256];
	int ret = opt_parse(cmd, t->opts, t->nr, argc, argv);

	if (ret)
		return ret;
	a->opt.seed_set = a->seed_arg;
	a->opt.dumps = a->dumps.v;
	a->opt.nr_dumps = a->dumps.nr;
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

/* compare --help: what it runs, its policies named. */
static int compare_help(void)
{
	char names[256], about[512];
	int n = snprintf(about, sizeof(about), "  runs the scenario under each policy of --policies LIST (of %s;\n  default",
			 sim_policy_names(names, sizeof(names), ",", ","));

	for (unsigned i = 0, first = 1; i < sim_nr_policies(); i++)
		if (!sim_policy(i)->opt_in) {
			n += snprintf(about + n, sizeof(about) - (size_t)n, "%s%s", first ? " " : ",", sim_policy(i)->name);
			first = 0;
		}
	snprintf(about + n, sizeof(about) - (size_t)n, ") and reports them side by side\n");
	return cmd_help("compare", &compare_table, about);
}

static int run_or_compare(int argc, char **argv, bool compare)
{
	struct run_args *a = &run_args;
	int ret;

	*a = (struct run_args){ .scenario = SCENARIO_DEFAULT, .opt.policy = sim_policy(0) };
	for (unsigned i = 0; i < sim_nr_policies(); i++)
		a->policies[i] = !sim_policy(i)->opt_in;
	ret = parse_args(argc, argv, compare, a);
	if (ret > 0)
		return compare ? compare_help() : cmd_help("run", &run_table, NULL);
	return ret ? ret : run_scenario(a, compare);
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
