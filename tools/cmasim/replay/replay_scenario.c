// SPDX-License-Identifier: GPL-2.0
/*
 * From a trace's requests to a scenario the engine runs, and the run
 * read back. The demand is kept as recorded: one [replay AREA] workload
 * an area, its requests in a demand file beside the scenario (their
 * times, pages, alignments and holds, from the matched releases). The
 * board is the one the user names; the background is the amounts of
 * anonymous memory, page cache and slab a /proc snapshot of the device
 * holds (where they sit is the run's to choose), else nothing: the
 * report says which. The prediction
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
#include "engine/sim_api.h"
#include "import/import.h"
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

int replay_background_read(const char *dir, struct replay_background *bg, char *err, size_t errlen)
{
	struct snapshot snap = { 0 };
	struct page_kinds pk = { 0 };
	int ret = snapshot_read(dir, &snap, err, errlen);

	if (!ret)
		ret = page_kinds_classify(&snap, snap.nr_orders, &pk, err, errlen);
	if (!ret) {
		bg->anon = pk.total[PK_ANON] + pk.total[PK_THP] + pk.total[PK_MLOCKED];
		bg->file = pk.total[PK_FILE];
		bg->dirty = pk.total[PK_FILE_DIRTY];
		bg->slab = pk.total[PK_SLAB];
		snprintf(bg->dir, sizeof(bg->dir), "%s", dir);
	}
	page_kinds_free(&pk);
	snapshot_free(&snap);
	return ret;
}

void replay_background_describe(const struct replay_background *bg, char *buf, size_t len)
{
	if (!bg || !bg->dir[0])
		snprintf(buf, len, "the platform's defaults (no workload besides the demand)");
	else
		snprintf(buf, len, "from the snapshot %s: %lu MiB anonymous, %lu MiB page cache (%lu MiB dirty), %lu MiB slab",
			 bg->dir, bg->anon >> 8, (bg->file + bg->dirty) >> 8, bg->dirty >> 8, bg->slab >> 8);
}

/*
 * The snapshot's memory as workloads faulting it in over the first
 * second and holding it: their amounts, in 4 KiB pages as kpageflags
 * counts them.
 */
static void write_background(const struct replay_background *bg, FILE *f)
{
	if (bg->anon)
		fprintf(f, "\n[anon snapshot-anon]\nrss = %luK\nrate = %lu\nhold = yes\n", bg->anon * 4, bg->anon);
	if (bg->file)
		fprintf(f, "\n[pagecache snapshot-cache]\nfile = %luK\nrate = %lu\npasses = 1\n", bg->file * 4, bg->file);
	if (bg->dirty)
		fprintf(f, "\n[writer snapshot-dirty]\nfile = %luK\nrate = %lu\npasses = 1\n", bg->dirty * 4, bg->dirty);
	if (bg->slab)
		fprintf(f, "\n[slab snapshot-slab]\nrate = %lu\nlifetime = 1h\nmax = %luK\n", bg->slab, bg->slab * 4);
}

int replay_scenario_write(const struct replay_trace *t, const struct replay_board *b, const char *path,
			  FILE *f)
{
	char platform[PATH_MAX], demand[PATH_MAX + 64], background[PATH_MAX + 256];
	const char *slash;
	uint64_t end_ms = (demand_end_ns(t) + 999999) / 1000000;
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
		fprintf(f, "cmdline = %s\n", b->cmdline);
	if (b->cma)
		fprintf(f, "cma = %s\n", b->cma);
	if (b->kernel)
		fprintf(f, "kernel = %s\n", b->kernel);
	fprintf(f, "duration = %llums\n", (unsigned long long)end_ms);
	if (b->background)
		write_background(b->background, f);
	for (size_t i = 0; i < t->nr_req; i++) {
		if (area_seen(t, i))
			continue;
		replay_demand_path(path, t->req[i].area, demand, sizeof(demand));
		ret = write_demand_file(t, t->req[i].area, demand);
		if (ret)
			return ret;
		/* beside the scenario: named from its directory, so that the two move together */
		slash = strrchr(demand, '/');
		fprintf(f, "\n[replay %s]\narea = %s\nrequests = %s\n", t->req[i].area, t->req[i].area,
			slash ? slash + 1 : demand);
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
	if (!ret && pred->types[RP_CMA_ALLOC_FINISH])
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
