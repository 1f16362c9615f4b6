// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim run, compare and show: a scenario under one policy or all of
 * them, reported as text, JSON or HTML.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inifile.h"
#include "run.h"
#include "sim.h"

enum report_kind { REPORT_TEXT, REPORT_JSON, REPORT_HTML };

struct run_args {
	const char *scenario;
	const char *platform;		/* replaces the scenario's */
	const char *output;
	const char *outdir;		/* -o DIR: the report as DIR/SCENARIO-POLICY.EXT */
	const char *trace;
	enum report_kind report;
	bool policies[SIM_MAX_POLICIES];	/* by registry index */
	const char *dumps[SIM_MAX_PROCS];
	struct sim_options opt;
};

bool proc_name_ok(const char *name)
{
	static const char *const names[] = {
		"buddyinfo", "pagetypeinfo", "vmstat", "meminfo", "zoneinfo", "cma",
	};

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

/* "cma,buddy" into @a->policies; 0 or 2. */
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
			return 2;
		}
		a->policies[p] = true;
	}
	return 0;
}

static int parse_args(int argc, char **argv, bool compare, struct run_args *a)
{
	static const struct option opts[] = {
		{ "scenario", required_argument, NULL, 's' },
		{ "policy", required_argument, NULL, 'p' },
		{ "policies", required_argument, NULL, 'P' },
		{ "report", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'O' },
		{ "platform", required_argument, NULL, 'l' },
		{ "dump", required_argument, NULL, 'D' },
		{ "trace", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 'S' },
		{ "duration", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = compare ? "compare" : "run";
	char names[256];
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		uint64_t v;

		switch (opt) {
		case 's':
			a->scenario = optarg;
			break;
		case 'p':
			if (compare) {
				fprintf(stderr, "cmasim compare: --policy is run's option: give --policies LIST\n");
				return 2;
			}
			a->opt.policy = sim_policy_find(optarg);
			if (!a->opt.policy) {
				fprintf(stderr, "cmasim run: --policy '%s': accepted %s\n", optarg,
					sim_policy_names(names, sizeof(names), ", ", " or "));
				return 2;
			}
			break;
		case 'P':
			if (!compare) {
				fprintf(stderr, "cmasim run: --policies is compare's option: give --policy NAME\n");
				return 2;
			}
			if (parse_policy_list(optarg, a))
				return 2;
			break;
		case 'r':
			if (!strcmp(optarg, "text"))
				a->report = REPORT_TEXT;
			else if (!strcmp(optarg, "json"))
				a->report = REPORT_JSON;
			else if (!strcmp(optarg, "html"))
				a->report = REPORT_HTML;
			else {
				fprintf(stderr, "cmasim %s: --report '%s': accepted text, json or html\n", cmd, optarg);
				return 2;
			}
			break;
		case 'O':
			a->output = optarg;
			break;
		case 'o':
			a->outdir = optarg;
			break;
		case 'l':
			a->platform = optarg;
			break;
		case 'D':
			if (!proc_name_ok(optarg)) {
				fprintf(stderr, "cmasim %s: --dump '%s': no such /proc file: accepted " PROC_NAMES_ACCEPTED "\n",
					cmd, optarg);
				return 2;
			}
			if (a->opt.nr_dumps == SIM_MAX_PROCS) {
				fprintf(stderr, "cmasim %s: --dump: at most %d of them\n", cmd, SIM_MAX_PROCS);
				return 2;
			}
			a->dumps[a->opt.nr_dumps++] = optarg;
			a->opt.dumps = a->dumps;
			break;
		case 't':
			if (compare) {
				fprintf(stderr, "cmasim compare: --trace is run's option: trace one policy with cmasim run --trace FILE\n");
				return 2;
			}
			a->trace = optarg;
			break;
		case 'S':
			if (!ini_parse_number(optarg, strlen(optarg), false, &v)) {
				fprintf(stderr, "cmasim %s: --seed '%s': expected a decimal or 0x hex number\n", cmd, optarg);
				return 2;
			}
			a->opt.seed = v;
			a->opt.seed_set = true;
			break;
		case 'd':
			if (!ini_parse_duration(optarg, &v) || !v) {
				fprintf(stderr, "cmasim %s: --duration '%s': expected %s, above 0\n", cmd, optarg,
					INI_DURATION_SYNTAX);
				return 2;
			}
			a->opt.duration_ns = v;
			break;
		case 'h':
			return -1;
		case ':':
			fprintf(stderr, "cmasim %s: %s needs a value (see --help)\n", cmd, argv[optind - 1]);
			return 2;
		default:
			if (optopt)
				fprintf(stderr, "cmasim %s: unknown option '-%c'", cmd, optopt);
			else
				fprintf(stderr, "cmasim %s: unknown option '%s'", cmd, argv[optind - 1]);
			fprintf(stderr, ": accepted --scenario, --platform, %s, --report, --output, -o, %s--seed, --duration, --dump, --help\n",
				compare ? "--policies" : "--policy", compare ? "" : "--trace, ");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "cmasim %s: unexpected argument '%s': %s takes only options (see --help)\n",
			cmd, argv[optind], cmd);
		return 2;
	}
	if (a->output && a->outdir) {
		fprintf(stderr, "cmasim %s: give --output FILE or -o DIR, not both\n", cmd);
		return 2;
	}
	if (compare && !memchr(a->policies, true, sizeof(a->policies))) {
		fprintf(stderr, "cmasim compare: --policies names no policy: accepted %s, separated by commas\n",
			policy_list(names, sizeof(names)));
		return 2;
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
		return 1;
	}
	if ((size_t)snprintf(buf, len, "%s/%s-%s.%s", a->outdir, sc->name,
			     compare ? "compare" : a->opt.policy->name, ext[a->report]) >= len) {
		fprintf(stderr, "cmasim: -o %s: the path is too long\n", a->outdir);
		return 2;
	}
	a->output = buf;
	return 0;
}

/* A built-in name, else a file; 0, or 2 after saying why. */
static int load_scenario(const char *arg, struct scenario *sc)
{
	char err[768];

	if (!scenario_builtin(arg, sc))
		return 0;
	if (!strchr(arg, '/') && !strchr(arg, '.') && access(arg, F_OK)) {
		fprintf(stderr, "cmasim: --scenario '%s': no such scenario: accepted %s (see 'cmasim list'), or the path of a scenario file\n",
			arg, scenario_builtin_names());
		return 2;
	}
	if (scenario_read_file(arg, sc, err, sizeof(err))) {
		fprintf(stderr, "cmasim: %s\n", err);
		return 2;
	}
	return 0;
}

static int write_report(const struct run_args *a, const struct sim_result *runs, unsigned nr)
{
	static int (*const writers[])(const struct sim_result *, unsigned, FILE *) = {
		[REPORT_TEXT] = report_text, [REPORT_JSON] = report_json, [REPORT_HTML] = report_html,
	};
	FILE *out = stdout;
	int ret;

	if (a->output && !(out = fopen(a->output, "w"))) {
		fprintf(stderr, "cmasim: --output %s: cannot write it: %s\n", a->output, strerror(errno));
		return 1;
	}
	ret = writers[a->report](runs, nr, out);
	if (out != stdout)
		ret |= fclose(out);
	else
		ret |= fflush(out);
	if (ret) {
		fprintf(stderr, "cmasim: writing the report failed: %s\n", strerror(errno));
		return 1;
	}
	/* a report written to a file: the summary still goes to the terminal */
	if (a->output && report_text(runs, nr, stdout))
		return 1;
	return 0;
}

static int run_scenario(struct run_args *a, bool compare)
{
	static struct scenario sc;
	struct sim_result runs[SIM_MAX_POLICIES];
	char path[4096];
	unsigned nr = 0;
	FILE *trace = NULL;
	int ret = load_scenario(a->scenario, &sc);

	if (ret)
		return ret;
	if (a->platform)
		snprintf(sc.platform, sizeof(sc.platform), "%s", a->platform);
	if (a->outdir && (ret = outdir_path(a, &sc, compare, path, sizeof(path))))
		return ret;
	if (a->trace && !(trace = fopen(a->trace, "w"))) {
		fprintf(stderr, "cmasim: --trace %s: cannot write it: %s\n", a->trace, strerror(errno));
		return 1;
	}
	a->opt.trace = trace;
	a->opt.progress = true;
	for (unsigned p = 0; p < sim_nr_policies() && !ret; p++) {
		if (compare ? !a->policies[p] : sim_policy(p) != a->opt.policy)
			continue;
		a->opt.policy = sim_policy(p);
		ret = sim_run(&sc, &a->opt, &runs[nr]);
		if (!ret)
			nr++;
	}
	if (trace && fclose(trace)) {
		fprintf(stderr, "cmasim: --trace %s: %s\n", a->trace, strerror(errno));
		ret = ret ? ret : 1;
	}
	if (!ret)
		ret = write_report(a, runs, nr);
	for (unsigned i = 0; i < nr; i++)
		sim_result_free(&runs[i]);
	return ret;
}

static void usage(FILE *out, bool compare)
{
	char names[256];

	if (compare)
		fprintf(out,
			"usage: cmasim compare [--scenario NAME|FILE] [--platform NAME|FILE] [--policies LIST]\n"
			"                      [--report text|json|html] [--output FILE | -o DIR] [--seed N] [--duration TIME]\n"
			"                      [--dump NAME]...\n"
			"  runs the scenario under each policy (default %s) and reports them side by side\n",
			sim_policy_names(names, sizeof(names), ",", ","));
	else
		fprintf(out,
			"usage: cmasim run [--scenario NAME|FILE] [--platform NAME|FILE] [--policy %s]\n"
			"                  [--report text|json|html] [--output FILE | -o DIR] [--trace FILE] [--seed N]\n"
			"                  [--duration TIME] [--dump NAME]...\n",
			sim_policy_names(names, sizeof(names), "|", "|"));
	fprintf(out,
		"  --scenario  a built-in scenario (%s; default %s) or a scenario file\n"
		"  --platform  a built-in platform or a platform file, replacing the scenario's\n"
		"  -o DIR      write the report to DIR/SCENARIO-POLICY.EXT (compare: SCENARIO-compare.EXT)\n"
		"  --report    text (default), json or html; with --output FILE the text summary\n"
		"              still goes to standard output\n"
		"  --seed      replaces the scenario's seed; --duration replaces its duration (e.g. 30s)\n"
		"  --dump      add /proc/NAME of the machine at the end of each run to the report;\n"
		"              NAME is one of " PROC_NAMES_ACCEPTED "; repeatable\n",
		scenario_builtin_names(), SCENARIO_DEFAULT);
	if (!compare)
		fprintf(out, "  --trace     write the run's events to FILE in ftrace text format\n");
}

int cmd_run(int argc, char **argv, bool compare)
{
	struct run_args a = { .scenario = SCENARIO_DEFAULT, .opt.policy = sim_policy(0) };
	int ret;

	for (unsigned i = 0; i < sim_nr_policies(); i++)
		a.policies[i] = true;
	ret = parse_args(argc, argv, compare, &a);
	if (ret < 0) {
		usage(stdout, compare);
		return 0;
	}
	return ret ? ret : run_scenario(&a, compare);
}

int cmd_show(int argc, char **argv)
{
	const char *text = argc == 2 ? scenario_builtin_text(argv[1]) : NULL;

	if (argc != 2) {
		fprintf(stderr, "cmasim show: give one built-in scenario's name: %s\n", scenario_builtin_names());
		return 2;
	}
	if (!text) {
		fprintf(stderr, "cmasim show: '%s': no such scenario: accepted %s\n", argv[1],
			scenario_builtin_names());
		return 2;
	}
	fputs(text, stdout);
	return fflush(stdout) ? 1 : 0;
}
