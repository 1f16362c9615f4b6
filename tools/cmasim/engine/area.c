// SPDX-License-Identifier: GPL-2.0
/*
 * The devices' use of the CMA areas of a run: each area the boot made,
 * where it came from, and how many of its pages the devices held, at
 * the peak and on average over the run.
 */
#include <string.h>

#include "engine/sim.h"

#define AREA_NAME_KEPT 31	/* the library keeps an area's name to 31 characters */

/* The /reserved-memory pool area @cma was made of (it bears the node's name, cut short), or NULL. */
static const struct platform_rmem *area_region(const struct platform *p, const struct cma *cma)
{
	const char *name = cma_area_name(cma);
	size_t len = strlen(name);

	for (unsigned i = 0; p->source[0] && i < p->nr_rmem; i++)
		if (p->rmem[i].pool && !strncmp(p->rmem[i].name, name, len) &&
		    (!p->rmem[i].name[len] || len == AREA_NAME_KEPT))
			return &p->rmem[i];
	return NULL;
}

/* What reserved @a at boot: the tree, the default area's cma= or Kconfig, or a device's declaration. */
static void area_origin(const struct sim *s, const struct cma *cma, bool is_default, struct area_result *a)
{
	const struct platform_rmem *m = area_region(&s->plat, cma);

	if (m) {
		a->origin = AREA_FROM_DT;
		snprintf(a->dt_node, sizeof(a->dt_node), "%s", m->name);
	} else if (is_default) {
		a->origin = platform_cmdline_cma(s->plat.cmdline) ? AREA_FROM_CMDLINE : AREA_FROM_KCONFIG;
	} else {
		a->origin = AREA_FROM_DECLARED;
	}
}

/* Area @cma into the result, named @name, unless it is there already. */
static void add_area(struct sim *s, struct cma *cma, const char *name)
{
	struct sim_result *r = s->res;
	struct area_result *a;
	unsigned long base = cma_area_base_pfn(cma);

	for (unsigned i = 0; i < r->nr_areas; i++)
		if (s->area_pfn[i][0] == base)
			return;
	if (r->nr_areas == SIM_MAX_AREAS)
		return;
	s->area_pfn[r->nr_areas][0] = base;
	s->area_pfn[r->nr_areas][1] = base + cma_area_count(cma);
	a = &r->areas[r->nr_areas++];
	snprintf(a->name, sizeof(a->name), "%s", name);
	a->base = (uint64_t)base * s->page_bytes;
	a->pages = cma_area_count(cma);
	area_origin(s, cma, r->nr_areas == 1 && cma == cma_dev_get_cma_area(s->mm, NULL), a);
}

void sim_areas_init(struct sim *s)
{
	struct cma *def = cma_dev_get_cma_area(s->mm, NULL);

	if (def)
		add_area(s, def, "default");
	for (unsigned i = 0; i < s->plat.nr_devices; i++) {
		struct cma *cma = cma_dev_get_cma_area(s->mm, s->devs[i]);

		if (cma)
			add_area(s, cma, s->plat.devices[i].name);
	}
	s->area_at = s->now;
}

/* Up to now, each area's use as it has been since the last change. */
static void areas_integrate(struct sim *s)
{
	double dt = (double)(s->now - s->area_at);

	for (unsigned i = 0; i <= s->res->nr_areas; i++) {
		unsigned k = i < s->res->nr_areas ? i : SIM_MAX_AREAS;

		s->area_page_ns[k] += (double)s->area_used[k] * dt;
	}
	s->area_at = s->now;
}

/* A device's buffer is one run of pages from its handle under the cma policy, the only one with areas. */
void sim_area_hold(struct sim *s, const struct dev_buffer *b, bool held)
{
	unsigned long pfn = (unsigned long)(b->handle / s->page_bytes);
	struct sim_result *r = s->res;
	unsigned i;

	for (i = 0; i < r->nr_areas; i++)
		if (pfn >= s->area_pfn[i][0] && pfn < s->area_pfn[i][1])
			break;
	if (i == r->nr_areas || b->nr_chunks)
		return;
	areas_integrate(s);
	if (held) {
		s->area_used[i] += b->pages_held;
		s->area_used[SIM_MAX_AREAS] += b->pages_held;
	} else {
		s->area_used[i] -= b->pages_held;
		s->area_used[SIM_MAX_AREAS] -= b->pages_held;
	}
	if (s->area_used[i] > r->areas[i].peak_pages)
		r->areas[i].peak_pages = s->area_used[i];
	if (s->area_used[SIM_MAX_AREAS] > r->area_peak_pages)
		r->area_peak_pages = s->area_used[SIM_MAX_AREAS];
}

void sim_areas_finish(struct sim *s)
{
	struct sim_result *r = s->res;
	double end = (double)s->now;	/* end_ns, or where a stopped run stopped */

	areas_integrate(s);
	for (unsigned i = 0; i < r->nr_areas && end > 0; i++)
		r->areas[i].mean_pages = (uint64_t)(s->area_page_ns[i] / end + 0.5);
	if (end > 0)
		r->area_mean_pages = (uint64_t)(s->area_page_ns[SIM_MAX_AREAS] / end + 0.5);
}
