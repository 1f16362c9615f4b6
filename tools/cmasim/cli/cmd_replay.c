// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim replay TRACE: a device's recorded contiguous allocations, read
 * from its ftrace text or trace.dat (replay/), as the requests the
 * kernel served: when each began, its area, size and alignment, how long
 * it took, what it got and when it was given back.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/common_options.h"
#include "policies/registry.h"
#include "replay/replay.h"
#include "util/atomic_file.h"

enum replay_report { RR_TEXT, RR_JSON, RR_HTML };

struct replay_args {
	const char *trace;
	const char *emit;
	const char *snapshot;		/* --snapshot DIR */
	int report;			/* --report: enum replay_report */
	const struct sim_policy_ops *policy;	/* --policy, its name in board.policy */
	struct replay_board board;
	struct scenario_overrides over;
};

/* One replay a process: the table binds its options to these. */
static struct replay_args replay_args;

static const struct cmd_option replay_options[] = {
	OPT_PLATFORM(&replay_args.board.platform, 1,
		     "the board the trace was recorded on: " PLATFORM_OPTION_HELP "\n(without it the requests are only listed)"),
	OPT_CMA(&replay_args.over), OPT_CMDLINE(&replay_args.over), OPT_SCENARIO_KERNEL(&replay_args.over),
	OPT_POLICY(&replay_args.policy, &replay_args.board.policy, "NAME", 3,
		   "the policy the run serves the demand under (default cma)"),
	{ .type = OPTION_STRING, .name = "emit-scenario", .value = &replay_args.emit, .arg = "FILE", .help_rank = 4,
	  .what = "a file to write",
	  .help = "write the scenario built from the trace to FILE, and each area's\nrequests beside it (FILE-AREA.demand), for run, compare, size, sweep" },
	{ .type = OPTION_STRING, .name = "snapshot", .value = &replay_args.snapshot, .arg = "DIR", .help_rank = 2,
	  .what = "a snapshot directory",
	  .help = "the device's memory besides the demand, from cmasim snapshot's files\n(default: the platform's, nothing else running)" },
	{ .type = OPTION_CHOICE, .name = "report", .value = &replay_args.report, .arg = "text|json|html",
	  .choices = (const char *const[]){ [RR_TEXT] = "text", [RR_JSON] = "json", [RR_HTML] = "html", NULL },
	  .help_rank = 4,
	  .help = "the comparison as text (default), one JSON object (doc/cmasim-json.md,\nschema cmasim-replay/1) or an HTML page (a scatter and a timeline)" },
	OPT_HELP_ENTRY,
};

const struct cmd_table replay_table = { .operands = "TRACE", .opts = OPTS(replay_options) };

static void print_request(FILE *out, const struct replay_request *r, unsigned i)
{
	char latency[32] = "-", migrated[32] = "-", released[32] = "held", pfn[32] = "-";

	if (r->has_latency)
		snprintf(latency, sizeof(latency), "%.3f", (double)r->latency_ns / 1e6);
	if (r->has_migrated)
		snprintf(migrated, sizeof(migrated), "%lu", r->migrated);
	if (!r->errorno)
		snprintf(pfn, sizeof(pfn), "%#lx", r->pfn);
	if (r->released)
		snprintf(released, sizeof(released), "%.6f", (double)r->release_ns / 1e9);
	fprintf(out, "%4u %12.6f %-12s %8lu %5u %10s %-6s %10s %5u %9s %12s\n", i,
		(double)(r->has_start ? r->start_ns : r->finish_ns) / 1e9, r->area, r->count, r->align,
		latency, r->errorno ? "failed" : "ok", pfn, r->busy_retries, migrated, released);
}

/* The requests as recorded, and what else the trace holds. */
static void print_trace(FILE *out, const struct replay_trace *t, const char *kernel)
{
	static const char *const families[NR_RPF] = {
		[RPF_PAGE] = "page", [RPF_FILEMAP] = "filemap", [RPF_VMSCAN] = "vmscan",
		[RPF_COMPACTION] = "compaction", [RPF_MIGRATE] = "migrate", [RPF_SCHED] = "sched", [RPF_OOM] = "oom",
		[RPF_CMASIM] = "cmasim",
	};

	fprintf(out, "trace %s (%s%s): %zu requests\n", t->path, t->dat ? "trace.dat" : "text",
		t->own ? ", a cmasim run's" : "", t->nr_req);
	fprintf(out, "kernel %s\n", kernel);
	fprintf(out, "   # %12s %-12s %8s %5s %10s %-6s %10s %5s %9s %12s\n", "start_s", "area", "pages",
		"align", "latency_ms", "result", "pfn", "busy", "migrated", "released_s");
	for (size_t i = 0; i < t->nr_req; i++)
		print_request(out, &t->req[i], (unsigned)i);
	fprintf(out, "background events:");
	for (unsigned f = 0; f < NR_RPF; f++)
		fprintf(out, " %s %lu", families[f], t->families[f]);
	fprintf(out, "\n");
}

/* 0, 1 for --help, or -EINVAL after saying what was wrong. */
static int parse_replay_args(int argc, char **argv, struct replay_args *a)
{
	int ret;

	if (argc > 1 && argv[1][0] != '-') {
		a->trace = argv[1];
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	ret = opt_parse("replay", OPTS(replay_options), argc, argv);
	if (ret)
		return ret;
	if (!a->trace)
		return fprintf(stderr, "cmasim replay: which trace? expected cmasim replay TRACE, TRACE %s\n",
			       REPLAY_FORMATS), -EINVAL;
	if ((a->emit || a->snapshot) && !a->board.platform)
		return fprintf(stderr, "cmasim replay: --emit-scenario and --snapshot need --platform: the trace does not say which board it ran on\n"),
		       -EINVAL;
	a->board.cma = a->over.cma;
	a->board.cmdline = a->over.cmdline;
	a->board.kernel = a->over.kernel;
	return 0;
}

/* The scenario at @path (atomic), its demand files beside it. */
static int emit_scenario(const struct replay_trace *t, const struct replay_args *a, const char *path)
{
	struct atomic_file af;
	int ret = atomic_file_open(&af, path, "--emit-scenario");

	if (ret)
		return ret;
	ret = replay_scenario_write(t, &a->board, path, af.f);
	if (ret) {
		atomic_file_abort(&af);
		return ret;
	}
	return atomic_file_commit(&af);
}

/* A scratch scenario for a run nobody asked to keep, and its demand files, removed after. */
static void remove_scratch(const struct replay_trace *t, const char *path)
{
	char demand[PATH_MAX + 64];

	for (size_t i = 0; i < t->nr_req; i++) {
		replay_demand_path(path, t->req[i].area, demand, sizeof(demand));
		unlink(demand);
	}
	unlink(path);
}

/* The demand run on the board, and the run against the trace. */
static int replay_run(const struct replay_trace *t, const struct replay_args *a)
{
	char scratch[] = "/tmp/cmasim-replay-XXXXXX.ini", err[REPLAY_ERR_MAX] = "", background[PATH_MAX + 256];
	const char *path = a->emit ? a->emit : scratch;
	struct replay_trace pred = { 0 };
	struct replay_summary sum = { 0 };
	int fd, ret;

	if (!a->emit) {
		fd = mkstemps(scratch, 4);
		if (fd < 0)
			return -errno;
		close(fd);
	}
	ret = emit_scenario(t, a, path);
	if (!ret)
		ret = replay_predict(path, &a->board, &pred, err, sizeof(err));
	if (ret == -EINVAL && err[0])
		fprintf(stderr, "cmasim replay: %s\n", err);
	if (!ret)
		ret = replay_compare(t, &pred, &sum);
	if (!ret && a->report == RR_JSON) {
		ret = replay_print_json(&sum, t->path, &a->board, stdout);
	} else if (!ret && a->report == RR_HTML) {
		ret = replay_print_html(&sum, t->path, &a->board, stdout);
	} else if (!ret) {
		replay_background_describe(a->board.background, background, sizeof(background));
		printf("replay of %s on %s under %s, kernel %s; background: %s\n", t->path, a->board.platform,
		       a->board.policy ? a->board.policy : "cma", a->board.kernel_said, background);
		replay_print(&sum, stdout);
	}
	if (!a->emit)
		remove_scratch(t, scratch);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
	return ret;
}

int cmd_replay(int argc, char **argv)
{
	static struct replay_background bg;
	struct replay_args *a = &replay_args;
	struct replay_trace t = { 0 };
	char err[REPLAY_ERR_MAX], kernel[160];
	int ret;

	*a = (struct replay_args){ 0 };
	ret = parse_replay_args(argc, argv, a);
	if (ret > 0)
		return cmd_help("replay", &replay_table, NULL);
	if (ret)
		return ret;
	if (a->snapshot && (ret = replay_background_read(a->snapshot, &bg, err, sizeof(err)))) {
		fprintf(stderr, "cmasim replay: --snapshot %s: %s\n", a->snapshot, err);
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	a->board.background = a->snapshot ? &bg : NULL;
	ret = replay_read_file(a->trace, &t, err, sizeof(err));
	if (!ret)
		ret = replay_requests(&t, err, sizeof(err));
	if (ret == -ENOMEM)
		fprintf(stderr, "cmasim replay: out of memory reading %s\n", a->trace);
	else if (ret)
		fprintf(stderr, "cmasim replay: %s\n", err);
	if (!ret)
		replay_board_kernel(&t, &a->board, kernel, sizeof(kernel));
	if (!ret && a->board.platform)
		ret = replay_run(&t, a);
	else if (!ret)
		print_trace(stdout, &t, kernel);
	replay_trace_free(&t);
	/* a trace that cannot be read is bad input, whatever the reason */
	return ret && ret != -ENOMEM && !a->board.platform ? -EINVAL : ret;
}
