// SPDX-License-Identifier: GPL-2.0
/*
 * Slab users: kernel allocations that cannot move, of an order mix, each
 * freed after an exponentially distributed lifetime. A share is
 * __GFP_RECLAIMABLE (dentries, inodes): grouped apart by mobility, and
 * counted as reclaimable slab (SReclaimable), though nothing shrinks them
 * here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/inifile.h"
#include "engine/sim_api.h"

struct slab_wl {
	double carry;
	uint64_t live_pages;
	struct slab_obj *objs;		/* every live allocation, for the end of the run */
};

struct slab_obj {
	struct workload *w;
	struct cma_page *page;
	unsigned order;
	enum cma_kmem_kind kind;
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
	cma_free_kmem_pages(sim_mm(s), o->page, o->order, o->kind);
	sl->live_pages -= 1ull << o->order;
	sim_account_class(s, MC_SLAB, -(1l << o->order));
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
	enum cma_kmem_kind kind = CMA_KMEM_SLAB_UNRECLAIMABLE;
	cma_gfp_t gfp = CMA_GFP_KERNEL;
	struct slab_obj *o;

	if (spec->max_bytes && (sl->live_pages + (1ull << order)) * sim_page_bytes(s) > spec->max_bytes)
		return;
	if (sim_rand_below(s, 100) < spec->reclaimable) {
		gfp |= CMA_GFP_RECLAIMABLE;
		kind = CMA_KMEM_SLAB_RECLAIMABLE;
	}
	w->res->ops++;
	o = calloc(1, sizeof(*o));
	if (!o)
		return;
	o->page = cma_alloc_kmem_pages(sim_mm(s), gfp | CMA_GFP_NOWARN, order, kind);
	if (!o->page) {
		w->res->alloc_failures++;
		free(o);
		return;
	}
	o->w = w;
	o->order = order;
	o->kind = kind;
	o->next = sl->objs;
	if (sl->objs)
		sl->objs->prev = o;
	sl->objs = o;
	sl->live_pages += 1ull << order;
	sim_account_class(s, MC_SLAB, 1l << order);
	sim_schedule(s, sim_now(s) + sim_rand_exp(s, spec->lifetime_ns), slab_free, o);
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
	sim_schedule(s, sim_now(s) + SIM_TICK_NS, slab_tick, w);
}

static int slab_start(struct sim *s, struct workload *w)
{
	w->priv = calloc(1, sizeof(struct slab_wl));
	if (!w->priv)
		return -ENOMEM;
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
	sim_workload_release(w);
}

static uint64_t slab_resident(const struct workload *w)
{
	const struct slab_wl *sl = w->priv;

	return sl ? sl->live_pages : 0;
}

static const struct workload_ops slab_ops = {
	.start = slab_start,
	.stop = slab_stop,
	.resident = slab_resident,
};

/* "0:70 1:20 3:10": orders and their weights, into struct wl_slab. */
static int parse_orders(const char *value, void *field, char *err, size_t len)
{
	struct wl_slab *slab = field;
	const char *s = value;

	slab->nr_orders = 0;
	while (*s) {
		char *end;
		unsigned long order, weight;

		s += strspn(s, " \t");
		if (!*s)
			break;
		errno = 0;
		order = strtoul(s, &end, 10);
		if (end == s || *end != ':' || order > 19)
			goto bad;
		s = end + 1;
		weight = strtoul(s, &end, 10);
		if (end == s || errno || !weight || weight > 1000000 || (*end && *end != ' ' && *end != '\t'))
			goto bad;
		if (slab->nr_orders == SIM_MAX_SLAB_ORDERS)
			return ini_fail(err, len, "orders = %s: at most %d orders", value, SIM_MAX_SLAB_ORDERS);
		slab->orders[slab->nr_orders] = (unsigned)order;
		slab->weights[slab->nr_orders++] = (unsigned)weight;
		s = end;
	}
	if (slab->nr_orders)
		return 1;
bad:
	return ini_fail(err, len, "orders = %s: expected ORDER:WEIGHT pairs separated by blanks, orders 0 to 19 and weights above 0 (e.g. orders = 0:70 1:20 3:10)",
			value);
}

static const struct scenario_key slab_keys[] = {
	{ .name = "rate", .type = KEY_UINT, .offset = WL(slab.rate), .max = 10000000, .required = true },
	{ .name = "orders", .type = KEY_CUSTOM, .offset = WL(slab), .parse = parse_orders },
	{ .name = "lifetime", .type = KEY_DURATION, .offset = WL(slab.lifetime_ns), .required = true },
	{ .name = "reclaimable", .type = KEY_PERCENT, .offset = WL(slab.reclaimable) },
	{ .name = "max", .type = KEY_SIZE, .offset = WL(slab.max_bytes), .max = SIM_MAX_BYTES },
};

static void slab_defaults(struct wl_spec *w)
{
	w->slab.orders[0] = 0;
	w->slab.weights[0] = 1;
	w->slab.nr_orders = 1;
}

static int slab_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	if (!w->slab.lifetime_ns)
		return ini_fail(err, len, "[%s %s]: lifetime = 0: give allocations a mean lifetime",
				w->kind->name, w->name);
	return 1;
}

const struct wl_kind wl_kind_slab = {
	.name = "slab",
	.ops = &slab_ops,
	WL_KEYS(slab_keys),
	.defaults = slab_defaults,
	.check = slab_check,
};
