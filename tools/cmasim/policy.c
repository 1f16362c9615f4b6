// SPDX-License-Identifier: GPL-2.0
/*
 * The three ways a device gets its buffers:
 *
 * cma       the seeds: dma_alloc_coherent from the device's CMA area (its
 *           own, or the default one), the area lent to movable pages
 *           between requests.
 * carveout  what seed 011 replaced: each device's ring reserved at boot
 *           with memblock and never usable by anyone else; a request
 *           takes a free slot of it.
 * buddy     no CMA: high-order buddy allocations (with the slow path's
 *           reclaim and compaction). Beyond MAX_ORDER a request is split
 *           into MAX_ORDER - 1 blocks if the device can scatter-gather,
 *           and fails otherwise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

struct carveout_region {
	cma_phys_t base;		/* 0: the reservation failed */
	uint64_t slot_bytes;
	bool *used;			/* per slot */
};

struct carveout {
	struct carveout_region region[SIM_MAX_WORKLOADS];	/* by workload index */
};

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

/* The board's reserve() under the carveout policy: every device's ring, at boot. */
static void carveout_reserve(struct cma_mm *mm, const struct platform *p,
			     struct cma_device *const *devs)
{
	struct sim *s = p->reserve_ctx;

	for (unsigned i = 0; i < s->sc->nr_wl; i++) {
		const struct wl_spec *w = &s->sc->wl[i];
		struct carveout_region *r = &s->carveout->region[i];
		uint64_t align, size;

		if (w->kind != WL_DEVICE)
			continue;
		align = w->device.align_bytes > s->page_bytes ? w->device.align_bytes : s->page_bytes;
		r->slot_bytes = round_up(w->device.buffer_bytes, align);
		size = r->slot_bytes * w->device.ring;
		r->base = cma_memblock_alloc_base(mm, size, align,
						  w->device.mask == UINT64_MAX ? 0 : w->device.mask + 1);
		if (!r->base) {
			cma_mm_pr_err(mm, "%s: cannot reserve a carveout of %llu bytes\n", w->name,
				      (unsigned long long)size);
			continue;
		}
		cma_mm_printk(mm, "%s: carveout of %llu MiB at 0x%08llx\n", w->name,
			      (unsigned long long)(size >> 20), (unsigned long long)r->base);
		s->res->carveout_pages += size / s->page_bytes;
	}
}

static void no_reserve(struct cma_mm *mm, const struct platform *p, struct cma_device *const *devs)
{
}

static int load_platform(struct sim *s)
{
	const struct platform *builtin = platform_builtin(s->sc->platform);
	char err[512];

	if (builtin) {
		s->plat = *builtin;
		return 0;
	}
	if (platform_read_file(s->sc->platform, &s->plat, err, sizeof(err))) {
		fprintf(stderr, "cmasim: scenario %s: %s\n", s->sc->name, err);
		return 2;
	}
	return 0;
}

static int platform_device_of(struct sim *s, const struct wl_spec *w)
{
	struct platform *p = &s->plat;
	struct platform_device *d;

	for (unsigned i = 0; i < p->nr_devices; i++) {
		/* the board's device: the scenario's mask and area size, if it gives them, win */
		if (strcmp(p->devices[i].name, w->name))
			continue;
		if (w->device.mask_given)
			p->devices[i].mask = w->device.mask;
		if (w->device.cma_given)
			p->devices[i].cma_size = w->device.cma_bytes;
		return (int)i;
	}
	if (p->nr_devices == PLATFORM_MAX_DEVICES) {
		fprintf(stderr, "cmasim: scenario %s: platform %s has no room for device %s (at most %d devices)\n",
			s->sc->name, p->name, w->name, PLATFORM_MAX_DEVICES);
		return -1;
	}
	d = &p->devices[p->nr_devices];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", w->name);
	d->mask = w->device.mask;
	d->cma_size = w->device.cma_bytes;
	return (int)p->nr_devices++;
}

int policy_prepare(struct sim *s)
{
	const struct scenario *sc = s->sc;
	struct platform *p = &s->plat;
	int ret = load_platform(s);

	if (ret)
		return ret;
	if (sc->memory_bytes) {
		p->banks[0].size = sc->memory_bytes;
		p->nr_banks = 1;
	}
	if (sc->cmdline_set)
		snprintf(p->cmdline, sizeof(p->cmdline), "%s", sc->cmdline);
	if (sc->kconfig_set)
		snprintf(p->kconfig, sizeof(p->kconfig), "%s", sc->kconfig);
	if (sc->swap_bytes)
		p->cfg.swap_bytes = sc->swap_bytes;
	p->cfg.metadata_only = true;	/* the simulation never looks at the bytes */
	p->cfg.quiet = true;		/* the boot's errors are in the log; a run fails loudly */
	cost_profile(p->cfg.arch, &s->cost);
	for (int i = 0; i < NR_COST_FIELDS; i++)
		if (sc->cost_set[i])
			s->cost.v[i] = sc->cost.v[i];
	for (unsigned i = 0; i < sc->nr_wl; i++) {
		int d = sc->wl[i].kind == WL_DEVICE ? platform_device_of(s, &sc->wl[i]) : 0;

		if (d < 0)
			return 2;
		s->dev_of_wl[i] = (unsigned)d;
	}
	if (s->policy == POLICY_CMA)
		return 0;
	/* no CMA at all: neither the default area nor the board's */
	if (strlen(p->cmdline) + sizeof(" cma=0") > sizeof(p->cmdline)) {
		fprintf(stderr, "cmasim: scenario %s: the command line is too long to add cma=0\n", sc->name);
		return 2;
	}
	strcat(p->cmdline, p->cmdline[0] ? " cma=0" : "cma=0");
	for (unsigned i = 0; i < p->nr_devices; i++) {
		p->devices[i].cma_size = 0;
		p->devices[i].share[0] = '\0';
	}
	p->reserve = no_reserve;
	if (s->policy == POLICY_CARVEOUT) {
		s->carveout = calloc(1, sizeof(*s->carveout));
		if (!s->carveout)
			return 1;
		p->reserve = carveout_reserve;
		p->reserve_ctx = s;
	}
	return 0;
}

int policy_attach(struct sim *s)
{
	if (s->policy != POLICY_CARVEOUT)
		return 0;
	for (unsigned i = 0; i < s->sc->nr_wl; i++) {
		struct carveout_region *r = &s->carveout->region[i];

		if (s->sc->wl[i].kind != WL_DEVICE)
			continue;
		r->used = calloc(s->sc->wl[i].device.ring, sizeof(*r->used));
		if (!r->used)
			return -ENOMEM;
	}
	s->class_pages[MC_CARVEOUT] = s->res->carveout_pages;
	return 0;
}

/*
 * A buffer handed out: held, and zeroed. Taking its pages off the free
 * lists is bookkeeping the caller adds where no counter already has it
 * (alloc_contig_range's isolate_freepages_range counts compact_isolated).
 */
static void account(struct sim *s, struct dev_buffer *b, uint64_t pages, struct cost_work *work)
{
	b->pages_held = pages;
	s->class_pages[MC_DEVICE] += pages;
	work->zeroed_bytes += pages * s->page_bytes;
}

static int carveout_alloc(struct sim *s, struct workload *w, struct dev_buffer *b,
			  struct cost_work *work)
{
	struct carveout_region *r = &s->carveout->region[w->idx];

	work->locks++;
	for (unsigned i = 0; r->base && i < w->spec->device.ring; i++)
		if (!r->used[i]) {
			r->used[i] = true;
			b->slot = i;
			b->nr_chunks = 0;
			b->handle = r->base + i * r->slot_bytes;
			account(s, b, sim_pages(s, w->spec->device.buffer_bytes), work);
			work->handled += b->pages_held;
			s->class_pages[MC_CARVEOUT] -= b->pages_held;
			return 0;
		}
	return FAIL_NOMEM + 1;
}

static unsigned order_of(uint64_t pages)
{
	unsigned order = 0;

	while ((1ull << order) < pages)
		order++;
	return order;
}

static int cma_policy_alloc(struct sim *s, struct workload *w, struct dev_buffer *b,
			    struct cost_work *work)
{
	const struct wl_device *spec = &w->spec->device;
	struct cma_device *dev = s->devs[s->dev_of_wl[w->idx]];
	struct cost_counters before;
	unsigned attempts;
	struct cma *area;
	int ret;

	cost_counters_read(s->mm, &before);
	sim_trace_request(s, true);
	b->contig = NULL;
	if (spec->align_bytes > s->page_bytes) {
		/* a driver that needs more than the size's alignment asks CMA itself */
		b->contig = cma_dma_alloc_from_contiguous(s->mm, dev, (int)sim_pages(s, spec->buffer_bytes),
							 order_of(spec->align_bytes / s->page_bytes));
		ret = b->contig ? 0 : -ENOMEM;
		if (b->contig)
			b->handle = (cma_phys_t)cma_page_to_pfn(s->mm, b->contig) * s->page_bytes;
	} else {
		ret = cma_dma_alloc_coherent(s->mm, dev, spec->buffer_bytes,
					     spec->atomic ? CMA_GFP_ATOMIC : CMA_GFP_KERNEL, &b->handle, NULL);
	}
	sim_trace_request(s, false);
	cost_work_since(s->mm, &before, work);
	/* each alloc_contig_range drains the LRU pagevecs and the per-CPU lists */
	attempts = s->cma_attempts ? s->cma_attempts + s->busy_retries : 0;
	work->drains += 2ull * attempts;
	work->locks += attempts ? attempts : 1;
	if (!ret) {
		b->nr_chunks = 0;
		account(s, b, sim_pages(s, spec->buffer_bytes), work);
		return 0;
	}
	if (!s->busy_retries)
		return FAIL_NOMEM + 1;
	area = cma_dev_get_cma_area(s->mm, dev);
	if (area && wl_pinned_in(s, cma_area_base_pfn(area),
				 cma_area_base_pfn(area) + cma_area_count(area)))
		return FAIL_PINNED + 1;
	return FAIL_BUSY + 1;
}

static void buddy_release(struct sim *s, struct dev_buffer *b)
{
	for (unsigned i = 0; i < b->nr_chunks; i++)
		cma_free_pages(s->mm, b->pages[i], b->chunk_order);
	b->nr_chunks = 0;
}

/* As dma_alloc_coherent picks the zone for a mask (x86; ARM has lowmem only). */
static cma_gfp_t buddy_gfp(const struct sim *s, const struct wl_device *spec)
{
	cma_gfp_t gfp = (spec->atomic ? CMA_GFP_ATOMIC : CMA_GFP_KERNEL) | CMA_GFP_NOWARN;

	if (s->plat.cfg.arch != CMA_ARCH_X86)
		return gfp;
	if (spec->mask <= 0xffffffull)
		return gfp | CMA_GFP_DMA;
	return spec->mask <= 0xffffffffull ? gfp | CMA_GFP_DMA32 : gfp;
}

static int buddy_alloc(struct sim *s, struct workload *w, struct dev_buffer *b,
		       struct cost_work *work)
{
	const struct wl_device *spec = &w->spec->device;
	uint64_t pages = sim_pages(s, spec->buffer_bytes), chunk;
	unsigned order = order_of(pages), n;

	/* a block is aligned to its size: a larger alignment takes a larger block */
	if (spec->align_bytes > s->page_bytes && order_of(spec->align_bytes / s->page_bytes) > order)
		order = order_of(spec->align_bytes / s->page_bytes);
	struct cost_counters before;

	work->locks++;
	if (order >= s->max_order) {
		if (!spec->sg)
			return FAIL_TOO_LARGE + 1;
		order = s->max_order - 1;
	}
	chunk = 1ull << order;
	n = (unsigned)((pages + chunk - 1) / chunk);
	if (n > DEV_MAX_CHUNKS)
		return FAIL_TOO_LARGE + 1;
	cost_counters_read(s->mm, &before);
	b->chunk_order = order;
	for (b->nr_chunks = 0; b->nr_chunks < n; b->nr_chunks++) {
		struct cma_page *page = cma_alloc_pages(s->mm, buddy_gfp(s, spec), order);

		if (!page)
			break;
		b->pages[b->nr_chunks] = page;
	}
	cost_work_since(s->mm, &before, work);
	if (b->nr_chunks < n) {
		buddy_release(s, b);
		return FAIL_NOMEM + 1;
	}
	b->handle = (cma_phys_t)cma_page_to_pfn(s->mm, b->pages[0]) * s->page_bytes;
	account(s, b, (uint64_t)n << order, work);
	work->handled += b->pages_held;
	return 0;
}

int policy_alloc(struct sim *s, struct workload *w, struct dev_buffer *b, struct cost_work *work)
{
	switch (s->policy) {
	case POLICY_CARVEOUT:
		return carveout_alloc(s, w, b, work);
	case POLICY_BUDDY:
		return buddy_alloc(s, w, b, work);
	default:
		return cma_policy_alloc(s, w, b, work);
	}
}

void policy_free(struct sim *s, struct workload *w, struct dev_buffer *b)
{
	s->class_pages[MC_DEVICE] -= b->pages_held;
	switch (s->policy) {
	case POLICY_CARVEOUT:
		s->carveout->region[w->idx].used[b->slot] = false;
		s->class_pages[MC_CARVEOUT] += b->pages_held;
		break;
	case POLICY_BUDDY:
		buddy_release(s, b);
		break;
	default:
		if (b->contig)
			cma_dma_release_from_contiguous(s->mm, s->devs[s->dev_of_wl[w->idx]], b->contig,
							(int)b->pages_held);
		else
			cma_dma_free_coherent(s->mm, s->devs[s->dev_of_wl[w->idx]],
					      w->spec->device.buffer_bytes, b->handle);
		break;
	}
	b->pages_held = 0;
}

void policy_destroy(struct sim *s)
{
	if (!s->carveout)
		return;
	for (unsigned i = 0; i < SIM_MAX_WORKLOADS; i++)
		free(s->carveout->region[i].used);
	free(s->carveout);
	s->carveout = NULL;
}
