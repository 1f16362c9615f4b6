// SPDX-License-Identifier: GPL-2.0
/*
 * From a trace's requests to a scenario the engine runs, and the run
 * read back. The demand is kept as recorded: one [replay AREA] workload
 * an area, its requests in a demand file beside the scenario (their
 * times, pages, alignments and holds, from the matched releases). The
 * board is the one the user names; the background is the platform's
 * (nothing but the demand runs), which the report says. The prediction
 * is the run's own --trace, read by the same reader as the device's, so
 * a request is compared with a request whatever produced it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/replay.h"
#include "board/platform.h"
#include "engine/sim.h"
#include "policies/registry.h"
#include "util/atomic_file.h"

/* Where the run's requests end: the last start, finish or release, then a second. */
static uint64_t demand_end_ns(const struct replay_trace *t)
{
	uint64_t end = 0;

	for (size_t i = 0; i < t->nr_req; i++) {
		const struct replay_request *r = &t->req[i];
		uint64_t last = r->released ? r->release_ns : r->finish_ns;

		end = last > end ? last : end;
	}
	return end + 1000000000ull;
}

/* Has an earlier request the same area as request @i? (one workload an area) */
static bool area_seen(const struct replay_trace *t, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(t->req[j].area, t->req[i].area))
			return true;
	return false;
}

void replay_demand_path(const char *path, const char *area, char *buf, size_t len)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	int stem = dot && (!slash || dot > slash) ? (int)(dot - path) : (int)strlen(path);

	snprintf(buf, len, "%.*s-%s.demand", stem, path, area);
}

/* Area @area's requests, one a line (demand files, wl_replay.c). */
static void write_demand(const struct replay_trace *t, const char *area, FILE *f)
{
	fprintf(f, "# %s's requests of area %s, as recorded: AT_NS PAGES ALIGN HOLD_NS (0: held to the end)\n",
		t->path, area);
	for (size_t i = 0; i < t->nr_req; i++) {
		const struct replay_request *r = &t->req[i];
		uint64_t at = r->has_start ? r->start_ns : r->finish_ns;

		if (strcmp(r->area, area))
			continue;
		fprintf(f, "%llu %lu %u %llu\n", (unsigned long long)at, r->count, r->align,
			(unsigned long long)(r->released ? r->release_ns - at : 0));
	}
}

static int write_demand_file(const struct replay_trace *t, const char *area, const char *path)
{
	struct atomic_file af;
	int ret = atomic_file_open(&af, path, "--emit-scenario's demand");

	if (ret)
		return ret;
	write_demand(t, area, af.f);
	return atomic_file_commit(&af);
}

/* @b's platform as the scenario names it: a built-in's name, else the file's absolute path. */
static int platform_value(const struct replay_board *b, char *buf, size_t len)
{
	if (platform_builtin(b->platform)) {
		snprintf(buf, len, "%s", b->platform);
		return 0;
	}
	if (!realpath(b->platform, buf))
		return -errno;
	return 0;
}

int replay_scenario_write(const struct replay_trace *t, const struct replay_board *b, const char *path,
			  FILE *f)
{
	char platform[PATH_MAX], demand[PATH_MAX + 64], abs[PATH_MAX];
	uint64_t end_ms = (demand_end_ns(t) + 999999) / 1000000;
	int ret = platform_value(b, platform, sizeof(platform));

	if (ret) {
		fprintf(stderr, "cmasim replay: --platform %s: %s\n", b->platform, strerror(-ret));
		return -EINVAL;
	}
	fprintf(f, "# cmasim replay %s: its %zu CMA requests as recorded, on %s; background: %s\n",
		t->path, t->nr_req, b->platform, REPLAY_BACKGROUND);
	fprintf(f, "[scenario]\nname = replay\ndescription = the CMA requests of %s, replayed\nplatform = %s\n",
		t->path, platform);
	if (b->cmdline)
		fprintf(f, "cmdline = %s\n", b->cmdline);
	if (b->cma)
		fprintf(f, "cma = %s\n", b->cma);
	if (b->kernel)
		fprintf(f, "kernel = %s\n", b->kernel);
	fprintf(f, "duration = %llums\n", (unsigned long long)end_ms);
	for (size_t i = 0; i < t->nr_req; i++) {
		if (area_seen(t, i))
			continue;
		replay_demand_path(path, t->req[i].area, demand, sizeof(demand));
		ret = write_demand_file(t, t->req[i].area, demand);
		if (ret)
			return ret;
		/* the run reads it from wherever it runs: its absolute path */
		if (!realpath(demand, abs))
			return -errno;
		fprintf(f, "\n[replay %s]\narea = %s\nrequests = %s\n", t->req[i].area, t->req[i].area, abs);
	}
	return 0;
}

int replay_predict(const char *scenario_path, const struct replay_board *b, struct replay_trace *pred,
		   char *err, size_t errlen)
{
	static struct scenario sc;
	struct sim_options o = { .policy = sim_policy_find(b->policy ? b->policy : "cma") };
	struct sim_result res = { 0 };
	char serr[SCENARIO_ERR_MAX + PATH_MAX], *text = NULL;
	size_t len = 0;
	FILE *trace;
	int ret;

	if (scenario_read_file(scenario_path, &sc, serr, sizeof(serr))) {
		snprintf(err, errlen, "the scenario built from the trace does not read: %s", serr);
		return -EINVAL;
	}
	trace = open_memstream(&text, &len);
	if (!trace)
		return -ENOMEM;
	o.trace = trace;
	ret = sim_run(&sc, &o, &res);
	fclose(trace);
	sim_result_free(&res);
	if (!ret)
		ret = replay_read_text("the replay's run", text, len, pred, err, errlen);
	if (!ret)
		ret = replay_requests(pred, err, errlen);
	free(text);
	return ret;
}
