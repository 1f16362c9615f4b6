// SPDX-License-Identifier: GPL-2.0
/*
 * A recorded demand played back (cmasim replay): each request of a
 * device's trace asked of the same CMA area at the time it was asked,
 * for the same pages and alignment, and given back when the trace gave
 * it back. The requests are a demand file's lines,
 *
 *   AT_NS PAGES ALIGN HOLD_NS
 *
 * (ALIGN an order, HOLD_NS 0: held to the end), as cmasim replay
 * --emit-scenario writes them. The area is the default one ("reserved"),
 * a board device's, or the hugetlb_cma= area ("hugetlb..."), asked as
 * 6.12's alloc_gigantic_folio asks it (cma_alloc_gigantic_page: the
 * area, then alloc_contig_pages outside it). A request's latency is the
 * cost model's price of the work it made the library do, written to
 * the trace as a device request's is, which is where cmasim replay
 * reads its prediction from.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/inifile.h"
#include "engine/sim_api.h"
#include "workloads/demand.h"

struct replay_wl {
	struct replay_slot *slots;
	size_t nr;
	struct cma *cma;		/* NULL: the hugetlb route */
};

/* One demand line into @slot: true if it is one. */
static bool demand_line(const char *line, struct replay_slot *slot)
{
	unsigned long long at, pages, hold;
	unsigned align;
	char extra;

	if (sscanf(line, "%llu %llu %u %llu %c", &at, &pages, &align, &hold, &extra) != 4)
		return false;
	*slot = (struct replay_slot){ .at_ns = at, .pages = (unsigned long)pages, .align = align, .hold_ns = hold };
	return pages && pages <= SIM_MAX_BYTES / 4096 && align < 32;
}

long demand_read(const char *path, struct replay_slot **slots, char *err, size_t len)
{
	FILE *f;
	char line[256];
	long nr = 0, cap = 0;
	unsigned no = 0;

	f = ini_open_list(path);
	if (!f)
		return ini_fail(err, len, "requests = %s: cannot be read (%s); accepted: a demand file, one request a line: " DEMAND_SYNTAX,
				path, errno ? strerror(errno) : "not a regular file"), -1;
	while (fgets(line, sizeof(line), f)) {
		struct replay_slot slot;

		no++;
		if (ini_list_skip(line))
			continue;
		if (!demand_line(line, &slot)) {
			fclose(f);
			return ini_fail(err, len, "requests = %s:%u: not a request; accepted " DEMAND_SYNTAX, path, no), -1;
		}
		if (slots && nr == cap) {
			struct replay_slot *grown = realloc(*slots, (size_t)(cap = cap ? 2 * cap : 64) * sizeof(*grown));

			if (!grown) {
				fclose(f);
				return -ENOMEM;
			}
			*slots = grown;
		}
		if (slots)
			(*slots)[nr] = slot;
		nr++;
	}
	fclose(f);
	return nr;
}

static bool hugetlb_area(const char *area)
{
	return !strncmp(area, "hugetlb", 7);
}

/* The area named @area on the booted board; NULL if none. */
static struct cma *find_area(struct sim *s, const char *area)
{
	if (!strcmp(area, "reserved"))
		return cma_dev_get_cma_area(sim_mm(s), NULL);
	for (unsigned i = 0; i < sim_platform(s)->nr_devices; i++)
		if (!strcmp(sim_platform(s)->devices[i].name, area))
			return cma_dev_get_cma_area(sim_mm(s), sim_device(s, i));
	return NULL;
}

static void replay_release(struct sim *s, void *arg)
{
	struct replay_slot *slot = arg;
	struct replay_wl *r = slot->w->priv;

	/* cma_release and a gigantic page's free take cma_mutex (v3.5), which a device's request may hold */
	if (!slot->page || sim_defer_while_request(s, replay_release, slot))
		return;
	if (r->cma)
		cma_area_release(sim_mm(s), r->cma, slot->page, slot->pages);
	else
		cma_free_gigantic_page(sim_mm(s), slot->page, slot->pages);
	slot->page = NULL;
}

/*
 * A gigantic page whose cma_alloc failed comes from alloc_contig_pages
 * after it (alloc_gigantic_folio); a trace's cma_alloc_start and _finish
 * measured the first part alone, so say what that part cost
 * (cmasim_cma_alloc_latency), which cmasim replay compares with it.
 * Nothing is said when nothing came after cma_alloc_finish.
 */
static void trace_cma_share(struct sim *s, const struct workload *w, const struct cost_counters *before,
			    const struct cost_counters *end)
{
	struct cost_counters at_finish;
	struct cost_work work = { 0 };
	struct cost_parts parts;
	uint64_t ns;

	if (!sim_tracing(s) || !sim_cma_finish_counters(s, &at_finish) ||
	    !memcmp(&at_finish.stats, &end->stats, sizeof(end->stats)))
		return;
	cost_work_between(s, before, &at_finish, &work);
	ns = cost_ns_parts(sim_cost(s), &work, sim_page_bytes(s), &parts);
	sim_trace_parts(s, "cmasim_cma_alloc_latency", w->spec->name, ns, &parts);
}

static void replay_request(struct sim *s, void *arg)
{
	struct replay_slot *slot = arg;
	struct workload *w = slot->w;
	struct replay_wl *r = w->priv;
	struct cost_counters c, end;
	struct cost_work work = { 0 };
	struct cost_parts parts;
	uint64_t ns;

	if (sim_wl_over(s, w) || sim_defer_while_request(s, replay_request, slot))
		return;
	cost_counters_read(s, &c);
	sim_usable_update(s);
	w->res->ops++;
	sim_trace_request(s, true);
	if (r->cma)
		slot->page = cma_area_alloc(sim_mm(s), r->cma, slot->pages, slot->align, false);
	else
		slot->page = cma_alloc_gigantic_page(sim_mm(s), slot->pages, CMA_GFP_HIGHUSER | CMA_GFP_NOWARN);
	sim_trace_request(s, false);
	cost_counters_read(s, &end);
	cost_work_between(s, &c, &end, &work);
	ns = cost_ns_parts(sim_cost(s), &work, sim_page_bytes(s), &parts);
	sim_trace_printf(s, "cmasim_device_request: dev=%s bytes=%llu pfn=0x%lx latency_ns=%llu result=%s",
			 w->spec->name, (unsigned long long)(slot->pages * sim_page_bytes(s)),
			 slot->page ? cma_page_to_pfn(sim_mm(s), slot->page) : 0ul, (unsigned long long)ns,
			 slot->page ? "ok" : "failed");
	sim_trace_latency_parts(s, w->spec->name, &parts);
	trace_cma_share(s, w, &c, &end);
	if (slot->page && slot->hold_ns)
		sim_schedule(s, slot->at_ns + slot->hold_ns, replay_release, slot);
}

static int replay_start(struct sim *s, struct workload *w)
{
	struct replay_wl *r = calloc(1, sizeof(*r));
	const char *area = w->spec->replay.area;
	char err[512] = "";
	long nr;

	if (!r)
		return -ENOMEM;
	w->priv = r;
	nr = demand_read(w->spec->replay.requests, &r->slots, err, sizeof(err));
	if (nr < 0) {
		if (nr == -1)
			fprintf(stderr, "cmasim: [replay %s]: %s\n", w->spec->name, err);
		return nr == -1 ? -EINVAL : (int)nr;
	}
	r->nr = (size_t)nr;
	r->cma = hugetlb_area(area) ? NULL : find_area(s, area);
	if (!hugetlb_area(area) && !r->cma) {
		fprintf(stderr, "cmasim: [replay %s]: area = %s: the board has no such CMA area; accepted: reserved (the default area), hugetlb (hugetlb_cma=), or a board device's name\n",
			w->spec->name, area);
		return -EINVAL;
	}
	for (size_t i = 0; i < r->nr; i++) {
		r->slots[i].w = w;
		sim_schedule(s, r->slots[i].at_ns, replay_request, &r->slots[i]);
	}
	return 0;
}

static void replay_stop(struct sim *s, struct workload *w)
{
	struct replay_wl *r = w->priv;

	if (!r)
		return;
	for (size_t i = 0; i < r->nr; i++)
		replay_release(s, &r->slots[i]);
	free(r->slots);
	free(r);
	w->priv = NULL;
	w->stopped = true;
}

static uint64_t replay_resident(const struct workload *w)
{
	const struct replay_wl *r = w->priv;
	uint64_t pages = 0;

	for (size_t i = 0; r && i < r->nr; i++)
		pages += r->slots[i].page ? r->slots[i].pages : 0;
	return pages;
}

static const struct workload_ops replay_ops = {
	.start = replay_start,
	.stop = replay_stop,
	.resident = replay_resident,
};

static const struct scenario_key replay_keys[] = {
	{ .name = "area", .type = KEY_NAME, .offset = WL(replay.area), .required = true },
	{ .name = "requests", .type = KEY_FILE, .offset = WL(replay.requests),
	  .size = sizeof(((struct wl_replay *)0)->requests), .required = true },
};

/* The demand file read once with the scenario, so that a bad line is said before the run. */
static int replay_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	char msg[512] = "";

	if (demand_read(w->replay.requests, NULL, msg, sizeof(msg)) < 0)
		return ini_fail(err, len, "[%s %s]: %s", w->kind->name, w->name, msg);
	return 1;
}

const struct wl_kind wl_kind_replay = {
	.name = "replay",
	.ops = &replay_ops,
	WL_KEYS(replay_keys),
	.check = replay_check,
};
