// SPDX-License-Identifier: GPL-2.0
/*
 * Pinners: every period, take a reference on a share of another
 * workload's resident pages (as O_DIRECT or RDMA would pin them) and hold
 * them for a while. A pinned page cannot be migrated: a contiguous
 * request over it fails or moves on. Long-term pins (longterm = yes, as
 * RDMA or vfio take them) go through cma_page_pin_longterm: under 6.12
 * they first move a CMA page out of the area, and a page that cannot
 * move is not pinned.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/inifile.h"
#include "engine/owned.h"
#include "workloads/pfns.h"


struct pin_episode {
	struct workload *w;
	struct cma_page **pages;
	unsigned long nr;
	struct pin_episode *prev, *next;
};

struct pinner_wl {
	struct pin_episode *live;
	unsigned long *at;		/* pfns' page frames, sorted; NULL: any */
	long nr_at;
};

static int cmp_pfn(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

/* May @page be pinned: any, or one at a page frame pfns lists? */
static bool pinnable(struct sim *s, const struct pinner_wl *p, struct cma_page *page)
{
	unsigned long pfn;

	if (!p->at)
		return true;
	pfn = cma_page_to_pfn(sim_mm(s), page);
	return bsearch(&pfn, p->at, (size_t)p->nr_at, sizeof(pfn), cmp_pfn) != NULL;
}

static void unpin(struct sim *s, struct pin_episode *e)
{
	struct pinner_wl *p = e->w->priv;

	for (unsigned long i = 0; i < e->nr; i++)
		cma_page_put(sim_mm(s), e->pages[i]);
	sim_account_pinned(s, -(long)e->nr);
	if (e->prev)
		e->prev->next = e->next;
	else
		p->live = e->next;
	if (e->next)
		e->next->prev = e->prev;
	free(e->pages);
	free(e);
}

static void unpin_event(struct sim *s, void *arg)
{
	unpin(s, arg);
}

static void pin(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct pinner_wl *p = w->priv;
	const struct wl_pinner *spec = &w->spec->pinner;
	struct owned_pages *o = owned_of(sim_workload(s, spec->target_idx));
	struct pin_episode *e;

	if (sim_wl_over(s, w))
		return;
	/*
	 * A request parked in its migration may hold the target's pages
	 * isolated, and a long-term pin retries such a page until it is back:
	 * on this thread it never would be. Pin once the request is done.
	 */
	if (spec->longterm && sim_defer_while_request(s, pin, w))
		return;
	sim_schedule(s, sim_now(s) + spec->period_ns, pin, w);
	if (!o || !o->resident)
		return;
	e = calloc(1, sizeof(*e));
	if (!e || !(e->pages = calloc(o->resident, sizeof(*e->pages)))) {
		free(e);
		return;
	}
	for (uint64_t i = 0; i < o->nr && e->nr < o->resident; i++)
		if (owned_page(o, i) && pinnable(s, p, owned_page(o, i)) && sim_rand_below(s, 100) < spec->share) {
			struct cma_page *page = owned_page(o, i);

			if (!spec->longterm)
				cma_page_get(sim_mm(s), page);
			else if (!(page = cma_page_pin_longterm(sim_mm(s), page)))
				continue;
			e->pages[e->nr++] = page;
		}
	e->w = w;
	e->next = p->live;
	if (p->live)
		p->live->prev = e;
	p->live = e;
	sim_account_pinned(s, (long)e->nr);
	w->res->ops += e->nr;
	sim_schedule(s, sim_now(s) + spec->hold_ns, unpin_event, e);
}

static bool pinner_pinned_in(struct sim *s, struct workload *w, unsigned long start_pfn,
			     unsigned long end_pfn)
{
	struct pinner_wl *p = w->priv;

	for (struct pin_episode *e = p ? p->live : NULL; e; e = e->next)
		for (unsigned long j = 0; j < e->nr; j++) {
			unsigned long pfn = cma_page_to_pfn(sim_mm(s), e->pages[j]);

			if (pfn >= start_pfn && pfn < end_pfn)
				return true;
		}
	return false;
}

static int pinner_start(struct sim *s, struct workload *w)
{
	struct pinner_wl *p = calloc(1, sizeof(*p));

	w->priv = p;
	if (!p)
		return -ENOMEM;
	if (w->spec->pinner.pfns[0]) {
		char err[512];

		p->nr_at = pfns_read(w->spec->pinner.pfns, &p->at, err, sizeof(err));
		if (p->nr_at < 0)
			return p->nr_at == -ENOMEM ? -ENOMEM : -EINVAL;
		qsort(p->at, (size_t)p->nr_at, sizeof(*p->at), cmp_pfn);
	}
	sim_schedule(s, w->spec->start_ns, pin, w);
	return 0;
}

/* At the end of the run: drop every pin (their unpin events are never run). */
static void pinner_stop(struct sim *s, struct workload *w)
{
	struct pinner_wl *p = w->priv;

	if (!p)
		return;
	while (p->live)
		unpin(s, p->live);
	free(p->at);
	sim_workload_release(w);
}

static uint64_t pinner_resident(const struct workload *w)
{
	uint64_t n = 0;
	const struct pinner_wl *p = w->priv;

	for (const struct pin_episode *e = p ? p->live : NULL; e; e = e->next)
		n += e->nr;
	return n;
}

static const struct workload_ops pinner_ops = {
	.start = pinner_start,
	.stop = pinner_stop,
	.resident = pinner_resident,
	.pinned_in = pinner_pinned_in,
};

static const struct scenario_key pinner_keys[] = {
	{ .name = "target", .type = KEY_NAME, .offset = WL(pinner.target), .required = true },
	{ .name = "share", .type = KEY_PERCENT, .offset = WL(pinner.share), .required = true },
	{ .name = "hold", .type = KEY_DURATION, .offset = WL(pinner.hold_ns), .required = true },
	{ .name = "period", .type = KEY_DURATION, .offset = WL(pinner.period_ns), .required = true },
	{ .name = "longterm", .type = KEY_BOOL, .offset = WL(pinner.longterm) },
	{ .name = "pfns", .type = KEY_FILE, .offset = WL(pinner.pfns), .size = sizeof(((struct wl_pinner *)0)->pfns) },
};

/* The target: a workload of pages the pinner can take (an owned kind). */
static int pinner_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	w->pinner.target_idx = -1;
	for (unsigned i = 0; i < sc->nr_wl; i++)
		if (!strcmp(sc->wl[i].name, w->pinner.target) && sc->wl[i].kind->owned)
			w->pinner.target_idx = (int)i;
	if (w->pinner.target_idx < 0)
		return ini_fail(err, len, "[%s %s]: target = %s names no [anon], [pagecache] or [writer] workload",
				w->kind->name, w->name, w->pinner.target);
	if (!w->pinner.period_ns)
		return ini_fail(err, len, "[%s %s]: period = 0: give the time between pins", w->kind->name, w->name);
	if (w->pinner.pfns[0]) {
		char msg[512] = "";

		if (pfns_read(w->pinner.pfns, NULL, msg, sizeof(msg)) < 0)
			return ini_fail(err, len, "[%s %s]: %s", w->kind->name, w->name, msg);
	}
	return 1;
}

const struct wl_kind wl_kind_pinner = {
	.name = "pinner",
	.ops = &pinner_ops,
	WL_KEYS(pinner_keys),
	.check = pinner_check,
};
