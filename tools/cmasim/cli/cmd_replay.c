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
#include "cli/run_options.h"
#include "policies/registry.h"
#include "replay/replay.h"
#include "util/atomic_file.h"

enum replay_option { O_PLATFORM, O_POLICY, O_EMIT, O_REPORT, O_SNAPSHOT };

static const struct cmd_option replay_options[] = {
	{ .id = O_PLATFORM, .name = "platform", .arg = "NAME|FILE", .help_rank = 1,
	  .what = "a built-in platform, a platform file or a device tree",
	  .help = "the board the trace was recorded on: " PLATFORM_OPTION_HELP "\n(without it the requests are only listed)" },
	OPT_CMA, OPT_CMDLINE, OPT_KERNEL,
	{ .id = O_POLICY, .name = "policy", .arg = "NAME", .help_rank = 3, .what = "a policy",
	  .help = "a what-if: the same demand served by another policy (default cma);\nwith --cma and --kernel, reported beside the baseline replay" },
	{ .id = O_EMIT, .name = "emit-scenario", .arg = "FILE", .help_rank = 4, .what = "a file to write",
	  .help = "write the scenario built from the trace to FILE, and each area's\nrequests beside it (FILE-AREA.demand), for run, compare, size, sweep" },
	{ .id = O_SNAPSHOT, .name = "snapshot", .arg = "DIR", .help_rank = 2, .what = "a snapshot directory",
	  .help = "the device's memory besides the demand, from cmasim snapshot's files,\nwhen the trace has no page events (default: the platform's, nothing else running)" },
	{ .id = O_REPORT, .name = "report", .arg = "text|json|html", .help_rank = 4, .what = "text, json or html",
	  .help = "the comparison as text (default), one JSON object (doc/cmasim-json.md,\nschema cmasim-replay/1) or an HTML page (a scatter and a timeline)" },
	{ .id = OPT_HELP, .name = "help", .short_name = 'h', .help_rank = 5, .help = "this help" },
};

struct replay_args {
	const char *trace;
	const char *emit;
	const char *snapshot;		/* --snapshot DIR */
	const char *report;		/* --report: text, json or html */
	struct replay_board board;	/* the baseline: the board as recorded */
	struct replay_board what_if;	/* the same under --cma, --policy, --kernel */
	bool has_what_if;
	struct scenario_overrides over;
};

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
static void print_trace(FILE *out, const struct replay_trace *t)
{
	static const char *const families[NR_RPF] = {
		[RPF_PAGE] = "page", [RPF_FILEMAP] = "filemap", [RPF_VMSCAN] = "vmscan",
		[RPF_COMPACTION] = "compaction", [RPF_MIGRATE] = "migrate", [RPF_SCHED] = "sched", [RPF_OOM] = "oom",
		[RPF_CMASIM] = "cmasim",
	};

	fprintf(out, "trace %s (%s%s): %zu requests\n", t->path, t->dat ? "trace.dat" : "text",
		t->own ? ", a cmasim run's" : "", t->nr_req);
	fprintf(out, "   # %12s %-12s %8s %5s %10s %-6s %10s %5s %9s %12s\n", "start_s", "area", "pages",
		"align", "latency_ms", "result", "pfn", "busy", "migrated", "released_s");
	for (size_t i = 0; i < t->nr_req; i++)
		print_request(out, &t->req[i], (unsigned)i);
	fprintf(out, "background events:");
	for (unsigned f = 0; f < NR_RPF; f++)
		fprintf(out, " %s %lu", families[f], t->families[f]);
	fprintf(out, "\n");
}

static int parse_replay_args(int argc, char **argv, struct replay_args *a)
{
	const char *value;
	struct opt_parser p;
	int id, ret;

	if (argc > 1 && argv[1][0] != '-') {
		a->trace = argv[1];
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	opt_init(&p, "replay", OPTS(replay_options), argc, argv);
	while ((id = opt_next(&p, &value)) != OPT_END) {
		if (id == OPT_HELP || id == OPT_BAD)
			return id == OPT_HELP ? CMD_USAGE : -EINVAL;
		ret = scenario_overrides_option(&a->over, id, value, "replay");
		if (ret <= 0) {
			if (ret)
				return ret;
			continue;
		}
		if (id == O_PLATFORM)
			a->board.platform = value;
		else if (id == O_POLICY && !sim_policy_find(value))
			return fprintf(stderr, "cmasim replay: --policy %s: no such policy; accepted %s\n", value,
				       sim_policy_names((char[256]){ 0 }, 256, ", ", " or ")), -EINVAL;
		else if (id == O_POLICY)
			a->what_if.policy = value;
		else if (id == O_REPORT && strcmp(value, "text") && strcmp(value, "json") && strcmp(value, "html"))
			return fprintf(stderr, "cmasim replay: --report %s: accepted text, json or html\n", value), -EINVAL;
		else if (id == O_REPORT)
			a->report = value;
		else if (id == O_SNAPSHOT)
			a->snapshot = value;
		else
			a->emit = value;
	}
	if (!a->trace)
		return fprintf(stderr, "cmasim replay: which trace? expected cmasim replay TRACE, TRACE %s\n",
			       REPLAY_FORMATS), -EINVAL;
	if ((a->emit || a->snapshot) && !a->board.platform)
		return fprintf(stderr, "cmasim replay: --emit-scenario and --snapshot need --platform: the trace does not say which board it ran on\n"),
		       -EINVAL;
	a->board.cmdline = a->over.cmdline;
	a->has_what_if = a->over.cma || a->over.kernel || a->what_if.policy;
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
	if (!ret && a->report && !strcmp(a->report, "json")) {
		ret = replay_print_json(&sum, w, t->path, &a->board, stdout);
	} else if (!ret && a->report && !strcmp(a->report, "html")) {
		ret = replay_print_html(&sum, w, t->path, &a->board, stdout);
	} else if (!ret) {
		replay_background_describe(a->board.background, background, sizeof(background));
		printf("replay of %s on %s under cma; background: %s\n", t->path, a->board.platform, background);
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

/* The background: the trace's page events where recorded, else --snapshot, else none. */
static int pick_background(const struct replay_trace *t, const struct replay_args *a, struct replay_background *bg)
{
	char err[REPLAY_ERR_MAX];
	int ret = replay_background_from_trace(t, bg);

	if (ret != -ENOENT) {
		if (!ret && a->snapshot)
			fprintf(stderr, "cmasim replay: --snapshot %s not used: the trace's page events give the background\n",
				a->snapshot);
		return ret;
	}
	if (!a->snapshot) {
		*bg = (struct replay_background){ .source = RBG_DEFAULTS };
		return 0;
	}
	ret = replay_background_read(a->snapshot, bg, err, sizeof(err));
	if (ret)
		fprintf(stderr, "cmasim replay: --snapshot %s: %s\n", a->snapshot, err);
	return ret == -ENOMEM ? ret : ret ? -EINVAL : 0;
}

int cmd_replay(int argc, char **argv)
{
	static struct replay_background bg;
	struct replay_args a = { 0 };
	struct replay_trace t = { 0 };
	char err[REPLAY_ERR_MAX];
	int ret = parse_replay_args(argc, argv, &a);

	if (ret == CMD_USAGE) {
		opt_usage(stdout, "replay TRACE", OPTS(replay_options));
		opt_help(stdout, OPTS(replay_options));
		return 0;
	}
	if (ret)
		return ret;
	ret = replay_read_file(a.trace, &t, err, sizeof(err));
	if (!ret)
		ret = replay_requests(&t, err, sizeof(err));
	if (ret == -ENOMEM)
		fprintf(stderr, "cmasim replay: out of memory reading %s\n", a.trace);
	else if (ret)
		fprintf(stderr, "cmasim replay: %s\n", err);
	else if (a.board.platform && !(ret = pick_background(&t, &a, &bg))) {
		a.board.background = a.what_if.background = &bg;
		a.what_if.platform = a.board.platform;
		a.what_if.cmdline = a.board.cmdline;
		a.what_if.cma = a.over.cma;
		a.what_if.kernel = a.over.kernel;
		ret = replay_run(&t, &a);
	} else if (!a.board.platform) {
		print_trace(stdout, &t);
	}
	replay_trace_free(&t);
	/* a trace that cannot be read is bad input, whatever the reason */
	return ret && ret != -ENOMEM && !a.board.platform ? -EINVAL : ret;
}
