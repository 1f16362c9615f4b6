// SPDX-License-Identifier: GPL-2.0
/*
 * Slab users: kernel allocations that cannot move, of an order mix, each
 * freed after an exponentially distributed lifetime. A share is
 * __GFP_RECLAIMABLE (dentries, inodes): grouped apart by mobility, though
 * nothing shrinks them here.
 */
#include <stdlib.h>

#include "sim.h"

struct slab_wl {
	double carry;
	uint64_t live_pages;
	struct slab_obj *objs;		/* every live allocation, for the end of the run */
};

struct slab_obj {
	struct workload *w;
	struct cma_page *page;
	unsigned order;
	struct slab_obj *prev, *next;
};

static unsigned pick_order(struct sim *s, const struct wl_slab *spec)
{
	unsigned total = 0, r;

	for (unsigned i = 0; i < spec->nr_orders; i++)
		total += spec->weights[i];
	r = (unsigned)sim_rand_below(s, total);
	for (unsigned i = 0; i < spec->nr_orders; i++) {
		if (r < spec->weights[i])
			return spec->orders[i];
		r -= spec->weights[i];
	}
	return spec->orders[0];
}

static void obj_unlink(struct slab_wl *sl, struct slab_obj *o)
{
	if (o->prev)
		o->prev->next = o->next;
	else
		sl->objs = o->next;
	if (o->next)
		o->next->prev = o->prev;
}

static void release(struct sim *s, struct slab_wl *sl, struct slab_obj *o)
{
	cma_free_pages(s->mm, o->page, o->order);
	sl->live_pages -= 1ull << o->order;
	s->class_pages[MC_SLAB] -= 1ull << o->order;
	obj_unlink(sl, o);
	free(o);
}

static void slab_free(struct sim *s, void *arg)
{
	struct slab_obj *o = arg;

	release(s, o->w->priv, o);
}

static void slab_alloc_one(struct sim *s, struct workload *w, struct slab_wl *sl)
{
	const struct wl_slab *spec = &w->spec->slab;
	unsigned order = pick_order(s, spec);
	cma_gfp_t gfp = CMA_GFP_KERNEL;
	struct slab_obj *o;

	if (spec->max_bytes && (sl->live_pages + (1ull << order)) * s->page_bytes > spec->max_bytes)
		return;
	if (sim_rand_below(s, 100) < spec->reclaimable)
		gfp |= CMA_GFP_RECLAIMABLE;
	w->res->ops++;
	o = calloc(1, sizeof(*o));
	if (!o)
		return;
	o->page = cma_alloc_pages(s->mm, gfp | CMA_GFP_NOWARN, order);
	if (!o->page) {
		w->res->alloc_failures++;
		free(o);
		return;
	}
	o->w = w;
	o->order = order;
	o->next = sl->objs;
	if (sl->objs)
		sl->objs->prev = o;
	sl->objs = o;
	sl->live_pages += 1ull << order;
	s->class_pages[MC_SLAB] += 1ull << order;
	sim_schedule(s, s->now + sim_rand_exp(s, spec->lifetime_ns), slab_free, o);
}

static void slab_tick(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct slab_wl *sl = w->priv;
	uint64_t n;

	if (sim_wl_over(s, w))
		return;
	n = sim_tick_ops(&sl->carry, w->spec->slab.rate);
	while (n--)
		slab_alloc_one(s, w, sl);
	sim_schedule(s, s->now + SIM_TICK_NS, slab_tick, w);
}

static int slab_start(struct sim *s, struct workload *w)
{
	w->priv = calloc(1, sizeof(struct slab_wl));
	if (!w->priv)
		return -1;
	sim_schedule(s, w->spec->start_ns, slab_tick, w);
	return 0;
}

/* At the end of the run: the free events still queued are never run. */
static void slab_stop(struct sim *s, struct workload *w)
{
	struct slab_wl *sl = w->priv;

	if (!sl)
		return;
	while (sl->objs)
		release(s, sl, sl->objs);
	free(sl);
	w->priv = NULL;
	w->stopped = true;
}

static uint64_t slab_resident(const struct workload *w)
{
	const struct slab_wl *sl = w->priv;

	return sl ? sl->live_pages : 0;
}

const struct workload_ops wl_slab_ops = {
	.start = slab_start,
	.stop = slab_stop,
	.resident = slab_resident,
};
