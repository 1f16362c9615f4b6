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

#include "cli/commands.h"
#include "replay/replay.h"

static const struct cmd_option replay_options[] = {
	{ .id = OPT_HELP, .name = "help", .short_name = 'h', .help_rank = 1, .help = "this help" },
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
		[RPF_COMPACTION] = "compaction", [RPF_MIGRATE] = "migrate", [RPF_SCHED] = "sched",
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

int cmd_replay(int argc, char **argv)
{
	struct replay_trace t = { 0 };
	char err[REPLAY_ERR_MAX];
	const char *path = NULL, *value;
	struct opt_parser p;
	int id, ret;

	if (argc > 1 && argv[1][0] != '-') {
		path = argv[1];
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	opt_init(&p, "replay", OPTS(replay_options), argc, argv);
	while ((id = opt_next(&p, &value)) != OPT_END) {
		if (id == OPT_HELP) {
			opt_usage(stdout, "replay TRACE", OPTS(replay_options));
			opt_help(stdout, OPTS(replay_options));
			return 0;
		}
		return -EINVAL;
	}
	if (!path) {
		fprintf(stderr, "cmasim replay: which trace? expected cmasim replay TRACE, TRACE %s\n",
			REPLAY_FORMATS);
		return -EINVAL;
	}
	ret = replay_read_file(path, &t, err, sizeof(err));
	if (!ret)
		ret = replay_requests(&t, err, sizeof(err));
	if (ret == -ENOMEM)
		fprintf(stderr, "cmasim replay: out of memory reading %s\n", path);
	else if (ret)
		fprintf(stderr, "cmasim replay: %s\n", err);
	else
		print_trace(stdout, &t);
	replay_trace_free(&t);
	/* a trace that cannot be read is bad input, whatever the reason */
	return ret && ret != -ENOMEM ? -EINVAL : ret;
}
