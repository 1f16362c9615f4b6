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
	const struct sim_policy_ops *policy;	/* --policy, its name in what_if.policy */
	struct replay_board board;	/* the baseline: the board as recorded */
	struct replay_board what_if;	/* the same under --cma, --policy, --kernel */
	bool has_what_if;
	struct scenario_overrides over;
};

/* One replay a process: the table binds its options to these. */
static struct replay_args replay_args;

static const struct cmd_option replay_options[] = {
	OPT_PLATFORM(&replay_args.board.platform, 1,
		     "the board the trace was recorded on: " PLATFORM_OPTION_HELP "\n(without it the requests are only listed)"),
	OPT_CMA_HELP(&replay_args.over, 3,
		     "a what-if: the same demand with cma=SIZE on the board's command line\n(0: no default CMA area), reported beside the baseline replay"),
	OPT_CMDLINE(&replay_args.over),
	OPT_KERNEL(&replay_args.over.kernel, 3,
		   "the kernel the trace was recorded under, when its header does not say\n(default: the platform's); against a trace.dat header naming another,\na what-if: the same demand under this profile, beside the baseline"),
	OPT_POLICY(&replay_args.policy, &replay_args.what_if.policy, "NAME", 3,
		   "a what-if: the same demand served by another policy (default cma);\nwith --cma and --kernel, reported beside the baseline replay"),
	{ .type = OPTION_STRING, .name = "emit-scenario", .value = &replay_args.emit, .arg = "FILE", .help_rank = 4,
	  .what = "a file to write",
	  .help = "write the scenario built from the trace to FILE, and each area's\nrequests beside it (FILE-AREA.demand), for run, compare, size, sweep" },
	{ .type = OPTION_STRING, .name = "snapshot", .value = &replay_args.snapshot, .arg = "DIR", .help_rank = 2,
	  .what = "a snapshot directory",
	  .help = "the device's memory besides the demand, from cmasim snapshot's files,\nin place of the trace's page events (default: those, else the platform's,\nnothing else running)" },
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
	a->board.cmdline = a->over.cmdline;
	return 0;
}

/* The scenario of @b at @path (atomic), its demand files beside it. */
static int emit_scenario(const struct replay_trace *t, const struct replay_board *b, const char *path)
{
	struct atomic_file af;
	int ret = atomic_file_open(&af, path, "--emit-scenario");

	if (ret)
		return ret;
	ret = replay_scenario_write(t, b, path, af.f);
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
		replay_demand_group_path(path, t, i, demand, sizeof(demand));
		unlink(demand);
	}
	replay_background_unlink(path);
	unlink(path);
}

/* The demand run on board @b (its scenario kept at @keep, if given) and compared with @t into @sum. */
static int replay_one(const struct replay_trace *t, const struct replay_board *b, const char *keep,
		      struct replay_trace *pred, struct replay_summary *sum)
{
	char scratch[] = "/tmp/cmasim-replay-XXXXXX.ini", err[REPLAY_ERR_MAX] = "";
	const char *path = keep ? keep : scratch;
	int fd, ret;

	if (!keep) {
		fd = mkstemps(scratch, 4);
		if (fd < 0)
			return -errno;
		close(fd);
	}
	ret = emit_scenario(t, b, path);
	if (!ret)
		ret = replay_predict(path, b, pred, err, sizeof(err));
	if (ret == -EINVAL && err[0])
		fprintf(stderr, "cmasim replay: %s\n", err);
	if (!ret)
		ret = replay_compare(t, pred, sum);
	if (!keep)
		remove_scratch(t, scratch);
	return ret;
}

/* The baseline replay, the what-if's if asked, and the report of both against the trace. */
static int replay_run(const struct replay_trace *t, const struct replay_args *a)
{
	char background[PATH_MAX + 256];
	struct replay_trace pred = { 0 }, wpred = { 0 };
	struct replay_summary sum = { 0 };
	struct replay_what_if wi = { .board = &a->what_if };
	const struct replay_what_if *w = a->has_what_if ? &wi : NULL;
	int ret = replay_one(t, &a->board, w ? NULL : a->emit, &pred, &sum);

	if (!ret && w)
		ret = replay_one(t, &a->what_if, a->emit, &wpred, &wi.sum);
	if (!ret && a->report == RR_JSON) {
		ret = replay_print_json(&sum, w, t->path, &a->board, stdout);
	} else if (!ret && a->report == RR_HTML) {
		ret = replay_print_html(&sum, w, t->path, &a->board, stdout);
	} else if (!ret) {
		replay_background_describe(a->board.background, background, sizeof(background));
		printf("replay of %s on %s under cma, kernel %s; background: %s\n", t->path, a->board.platform,
		       a->board.kernel_said, background);
		replay_print(&sum, stdout);
		if (w)
			replay_print_what_if(&sum, w, stdout);
	}
	replay_summary_free(&wi.sum);
	replay_summary_free(&sum);
	replay_trace_free(&wpred);
	replay_trace_free(&pred);
	return ret;
}

/*
 * The background: --snapshot's when given (the user asked for it, and a
 * trace may hold page events of only part of the run), else the trace's
 * page events where recorded, else none.
 */
static int pick_background(const struct replay_trace *t, const struct replay_args *a, struct replay_background *bg)
{
	char err[REPLAY_ERR_MAX];
	int ret;

	if (!a->snapshot) {
		ret = replay_background_from_trace(t, bg);
		if (ret != -ENOENT)
			return ret;
		*bg = (struct replay_background){ .source = RBG_DEFAULTS };
		return 0;
	}
	ret = replay_background_read(a->snapshot, bg, err, sizeof(err));
	/* the baseline's board: a what-if keeps the device's kernel memory as fitted here */
	if (!ret)
		ret = replay_background_fit(bg, &a->board, err, sizeof(err));
	if (ret)
		fprintf(stderr, "cmasim replay: --snapshot %s: %s\n", a->snapshot, err);
	else
		bg->unused_pev = t->nr_pev;
	return ret == -ENOMEM ? ret : ret ? -EINVAL : 0;
}

/*
 * The baseline's kernel: the one the trace.dat header names, else
 * --kernel's, else the platform's. --kernel naming another than the
 * header's is a what-if, as --cma and --policy are.
 */
static void pick_kernel(const struct replay_trace *t, struct replay_args *a, char *said, size_t len)
{
	struct replay_board header = a->board;

	replay_board_kernel(t, &header, said, len);
	if (!header.kernel)
		a->board.kernel = a->over.kernel;
	replay_board_kernel(t, &a->board, said, len);
	a->has_what_if = a->over.cma || a->what_if.policy ||
			 (a->over.kernel && strcmp(a->over.kernel, a->board.kernel));
	a->what_if.kernel = a->has_what_if && a->over.kernel ? a->over.kernel : a->board.kernel;
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
	ret = replay_read_file(a->trace, &t, err, sizeof(err));
	if (!ret)
		ret = replay_requests(&t, err, sizeof(err));
	if (ret == -ENOMEM)
		fprintf(stderr, "cmasim replay: out of memory reading %s\n", a->trace);
	else if (ret)
		fprintf(stderr, "cmasim replay: %s\n", err);
	if (!ret)
		pick_kernel(&t, a, kernel, sizeof(kernel));
	if (!ret && a->board.platform && !(ret = pick_background(&t, a, &bg))) {
		a->board.background = a->what_if.background = &bg;
		a->what_if.platform = a->board.platform;
		a->what_if.cmdline = a->board.cmdline;
		a->what_if.cma = a->over.cma;
		ret = replay_run(&t, a);
	} else if (!ret && !a->board.platform) {
		print_trace(stdout, &t, kernel);
	}
	replay_trace_free(&t);
	replay_background_free(&bg);
	/* a trace that cannot be read is bad input, whatever the reason */
	return ret && ret != -ENOMEM && !a->board.platform ? -EINVAL : ret;
}
