// SPDX-License-Identifier: GPL-2.0
/*
 * From a trace's requests to a scenario the engine runs, and the run
 * read back. The demand is kept as recorded: one [replay AREA] workload
 * an area, its requests in a demand file beside the scenario (their
 * times, pages, alignments and holds, from the matched releases). The
 * board is the one the user names; the background is what
 * replay_background.c rebuilt (the trace's page events, a /proc
 * snapshot, or nothing): the report says which. The prediction
 * is the run's own --trace, read by the same reader as the device's, so
 * a request is compared with a request whatever produced it.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/replay.h"
#include "board/platform.h"
#include "engine/sim_api.h"
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

void replay_demand_path(const char *path, const char *area, char *buf, size_t len)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	int stem = dot && (!slash || dot > slash) ? (int)(dot - path) : (int)strlen(path);

	snprintf(buf, len, "%.*s-%s.demand", stem, path, area);
}

/* Is request @r of the group of request @g: its area, or with @by_size its area, size and alignment? */
static bool in_group(const struct replay_request *r, const struct replay_request *g, bool by_size)
{
	return !strcmp(r->area, g->area) && (!by_size || (r->count == g->count && r->align == g->align));
}

/* Has an earlier request the group of request @i? (one workload a group) */
static bool group_seen(const struct replay_trace *t, size_t i, bool by_size)
{
	for (size_t j = 0; j < i; j++)
		if (in_group(&t->req[j], &t->req[i], by_size))
			return true;
	return false;
}

/* A [demand]'s name: its area's (letters, digits, '-', '_', '.'), size and alignment, under SIM_NAME_MAX. */
static void group_name(const struct replay_request *r, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%.16s", r->area);

	for (int i = 0; i < n; i++)
		if (!isalnum((unsigned char)buf[i]) && !strchr("-_.", buf[i]))
			buf[i] = '_';
	snprintf(buf + n, len - (size_t)n, "-%lu-%u", r->count, r->align);
}

void replay_demand_group_path(const char *path, const struct replay_trace *t, size_t i, char *buf, size_t len)
{
	char name[SIM_NAME_MAX];

	group_name(&t->req[i], name, sizeof(name));
	replay_demand_path(path, name, buf, len);
}

/* The requests of request @g's group, one a line (demand files, wl_replay.c). */
static void write_demand(const struct replay_trace *t, const struct replay_request *g, bool by_size, FILE *f)
{
	fprintf(f, "# %s's requests of area %s, as recorded: AT_NS PAGES ALIGN HOLD_NS (0: held to the end)\n",
		t->path, g->area);
	for (size_t i = 0; i < t->nr_req; i++) {
		const struct replay_request *r = &t->req[i];
		uint64_t at = r->has_start ? r->start_ns : r->finish_ns;

		if (!in_group(r, g, by_size))
			continue;
		fprintf(f, "%llu %lu %u %llu\n", (unsigned long long)at, r->count, r->align,
			(unsigned long long)(r->released ? r->release_ns - at : 0));
	}
}

static int write_demand_file(const struct replay_trace *t, const struct replay_request *g, bool by_size,
			     const char *path)
{
	struct atomic_file af;
	int ret = atomic_file_open(&af, path, "--emit-scenario's demand");

	if (ret)
		return ret;
	write_demand(t, g, by_size, af.f);
	return atomic_file_commit(&af);
}

/*
 * The command line; under another policy than cma less its hugetlb_cma=:
 * the policy reserves for the demand, as policy_without_cma() drops
 * cma= and the devices' areas, and the area the demand no longer asks
 * would only take its room.
 */
static void write_cmdline(const char *cmdline, bool by_size, FILE *f)
{
	const char *p = cmdline;

	fputs("cmdline =", f);
	while (*(p += strspn(p, " "))) {
		size_t n = strcspn(p, " ");

		if (!by_size || strncmp(p, "hugetlb_cma=", 12))
			fprintf(f, " %.*s", (int)n, p);
		p += n;
	}
	fputc('\n', f);
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
	char platform[PATH_MAX], demand[PATH_MAX + 64], background[PATH_MAX + 256];
	const char *slash;
	uint64_t end_ms = (demand_end_ns(t) + 999999) / 1000000;
	/* the cma policy's demand asks its area as the driver did; another's is a device of each size */
	bool by_size = b->policy && strcmp(b->policy, "cma");
	int ret = platform_value(b, platform, sizeof(platform));

	if (ret) {
		fprintf(stderr, "cmasim replay: --platform %s: %s\n", b->platform, strerror(-ret));
		return -EINVAL;
	}
	replay_background_describe(b->background, background, sizeof(background));
	/* the reader takes lines of under 200 characters: the comments are cut there */
	fprintf(f, "# cmasim replay --emit-scenario: %zu CMA requests as recorded\n# trace: %.180s\n# board: %.180s\n# background: %.170s\n",
		t->nr_req, t->path, b->platform, background);
	fprintf(f, "[scenario]\nname = replay\ndescription = a device's CMA requests as recorded, replayed\nplatform = %s\n",
		platform);
	if (b->cmdline)
		write_cmdline(b->cmdline, by_size, f);
	if (b->cma)
		fprintf(f, "cma = %s\n", b->cma);
	if (b->kernel)
		fprintf(f, "kernel = %s\n", b->kernel);
	fprintf(f, "duration = %llums\n", (unsigned long long)end_ms);
	if (b->background && (ret = replay_background_write(b->background, t, end_ms, path, f)))
		return ret;
	for (size_t i = 0; i < t->nr_req; i++) {
		const struct replay_request *g = &t->req[i];
		char name[SIM_NAME_MAX];

		if (group_seen(t, i, by_size))
			continue;
		if (by_size)
			group_name(g, name, sizeof(name));
		replay_demand_path(path, by_size ? name : g->area, demand, sizeof(demand));
		ret = write_demand_file(t, g, by_size, demand);
		if (ret)
			return ret;
		/* beside the scenario: named from its directory, so that the two move together */
		slash = strrchr(demand, '/');
		fprintf(f, "\n[%s %s]\narea = %s\nrequests = %s\n", by_size ? "demand" : "replay",
			by_size ? name : g->area, g->area, slash ? slash + 1 : demand);
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
	/* a what-if may leave the demand no area to ask (hugetlb_cma= before 5.7): no request, compared as none */
	if (!ret && (pred->types[RP_CMA_ALLOC_FINISH] || pred->types[RP_DEMAND_REQUEST]))
		ret = replay_requests(pred, err, errlen);
	free(text);
	return ret;
}

/* --kernel's, else the header's release's, else the platform's: said as such */
void replay_board_kernel(const struct replay_trace *t, struct replay_board *b, char *said, size_t len)
{
	const char *k = t->release[0] ? platform_kernel_of_release(t->release) : NULL;

	if (b->kernel)
		snprintf(said, len, "%s (--kernel)", b->kernel);
	else if (k)
		snprintf(said, len, "%s (the trace's header: Linux %s%s)", k, t->release,
			 platform_kernel_release(t->release) > platform_kernel_release(k) ? ", the newest profile not newer" : "");
	else if (t->release[0])
		snprintf(said, len, "the platform's (the trace's header: Linux %s, older than every profile)", t->release);
	else
		snprintf(said, len, "the platform's (%s)",
			 t->dat ? "the trace.dat's header has no uname" : "a text trace does not name its kernel");
	if (!b->kernel)
		b->kernel = k;
	b->kernel_said = said;
}
