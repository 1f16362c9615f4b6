// SPDX-License-Identifier: GPL-2.0
/*
 * The gcma policy: GCMA, the Guaranteed Contiguous Memory Allocator
 * (SeongJae Park, Minchan Kim, Heon Y. Yeom; RFC on linux-mm, 2014-2015).
 * The CMA areas are reserved as CMA's are, then taken whole from the
 * buddy allocator at attach, so no movable page ever lands in them. Their
 * free room holds only what may be dropped at any time: a cleancache of
 * clean file pages reclaim evicts and a write-through frontswap of pages
 * swapped out (the swap holds them too). A device request takes its range
 * by CMA's bitmap and alignment rules and drops the copies there: no
 * migration, no writeback, so its cost is bounded by the range's size.
 *
 * Each page of an area is a slot: free, a device's, a copy (file or anon)
 * or foreign (what the boot had already taken from the area, e.g. ARM's
 * atomic pool). A copy takes the lowest free slot, as RFC v2's
 * gcma_alloc_page takes the area's first zero bit, and device ranges are
 * found first-fit from the bottom too, so requests meet the copies; when
 * no slot is free the oldest copy makes room. A hash from (owner, index)
 * to slot finds a copy on a refault.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bitmap.h"
#include "lib/kconfig.h"
#include "engine/owned.h"

enum slot_state { SLOT_FOREIGN, SLOT_FREE, SLOT_DEVICE, SLOT_FILE, SLOT_ANON };

struct gcma_area {
	unsigned long base_pfn, count;
	struct cma_device *dev;		/* one the area is the area of (NULL: the default) */
	unsigned long first;		/* its first slot */
	unsigned long *busy;		/* CMA's bitmap: foreign and device-held pages */
	struct cma_page *held[64];	/* the runs taken from the area at attach */
	unsigned long held_count[64];
	unsigned nr_held;
};

struct gcma_slot {
	const void *owner;		/* a copy's */
	uint64_t idx;
	long prev, next;		/* the copies' age list, oldest first; -1 ends it */
	uint8_t state;
};

struct gcma {
	struct gcma_area area[SIM_MAX_AREAS];
	unsigned nr_areas;
	unsigned cma_align;		/* CONFIG_CMA_ALIGNMENT */
	bool offset_aligned;		/* 4.1 on: candidates aligned in pfns, not in offsets in the area */
	struct gcma_slot *slot;
	unsigned long nr_slots, nr_free, nr_copies;
	unsigned long lowest_free;	/* no slot below it is free */
	long oldest, newest;
	long *hash;			/* slot of (owner, idx), -1 empty; linear probing */
	unsigned long hash_mask;
	double held_page_ns;		/* integral of nr_copies over virtual time */
	uint64_t held_at;
};

/* ---- the copies' index ---- */

static unsigned long hash_of(const struct gcma *g, const void *owner, uint64_t idx)
{
	uint64_t h = (uint64_t)(uintptr_t)owner * 0x9e3779b97f4a7c15ull ^ (idx * 0xc2b2ae3d27d4eb4full);

	return (unsigned long)(h ^ (h >> 29)) & g->hash_mask;
}

static long hash_find(const struct gcma *g, const void *owner, uint64_t idx, unsigned long *pos)
{
	unsigned long i = hash_of(g, owner, idx);

	for (; g->hash[i] >= 0; i = (i + 1) & g->hash_mask) {
		const struct gcma_slot *sl = &g->slot[g->hash[i]];

		if (sl->owner == owner && sl->idx == idx)
			break;
	}
	*pos = i;
	return g->hash[i];
}

/* Remove position @i, moving later entries of its probe run back into the hole. */
static void hash_remove_at(struct gcma *g, unsigned long i)
{
	unsigned long j = i;

	g->hash[i] = -1;
	for (;;) {
		unsigned long home;

		j = (j + 1) & g->hash_mask;
		if (g->hash[j] < 0)
			return;
		home = hash_of(g, g->slot[g->hash[j]].owner, g->slot[g->hash[j]].idx);
		/* stays unless the hole lies between its home and where it is */
		if (((j - home) & g->hash_mask) >= ((j - i) & g->hash_mask)) {
			g->hash[i] = g->hash[j];
			g->hash[j] = -1;
			i = j;
		}
	}
}

/* ---- copies held over time ---- */

static void held_integrate(struct sim *s, struct gcma *g)
{
	g->held_page_ns += (double)g->nr_copies * (double)(sim_now(s) - g->held_at);
	g->held_at = sim_now(s);
}

static void lru_unlink(struct gcma *g, long n)
{
	struct gcma_slot *sl = &g->slot[n];

	if (sl->prev >= 0)
		g->slot[sl->prev].next = sl->next;
	else
		g->oldest = sl->next;
	if (sl->next >= 0)
		g->slot[sl->next].prev = sl->prev;
	else
		g->newest = sl->prev;
}

/* Slot @n is free again: the search for the lowest free slot may have to start lower. */
static void slot_freed(struct gcma *g, unsigned long n)
{
	g->slot[n].state = SLOT_FREE;
	g->nr_free++;
	if (n < g->lowest_free)
		g->lowest_free = n;
}

/* Forget copy @n: its slot is free again (device code then takes it). */
static void drop_copy(struct sim *s, struct gcma *g, long n)
{
	struct gcma_slot *sl = &g->slot[n];
	unsigned long pos;

	held_integrate(s, g);
	hash_find(g, sl->owner, sl->idx, &pos);
	hash_remove_at(g, pos);
	lru_unlink(g, n);
	slot_freed(g, n);
	sl->owner = NULL;
	g->nr_copies--;
}

/* The lowest free slot, for a copy (gcma_alloc_page's first zero bit); -1 if none. */
static long free_slot(struct gcma *g)
{
	if (!g->nr_free)
		return -1;
	while (g->lowest_free < g->nr_slots && g->slot[g->lowest_free].state != SLOT_FREE)
		g->lowest_free++;
	return g->lowest_free < g->nr_slots ? (long)g->lowest_free : -1;
}

/* cleancache_put_page / frontswap_store: keep a copy of the evicted page if room can be made. */
static void gcma_evicted(struct sim *s, const void *owner, uint64_t idx, struct cma_page *page)
{
	struct gcma *g = sim_policy_priv(s);
	const struct owned_pages *o = owner;
	struct gcma_result *r = &sim_run_result(s)->gcma;
	unsigned long pos;
	long n;

	if (!cma_page_backed(sim_mm(s), page)) {
		r->refused++;		/* its only copy: dropping ours later would lose it */
		return;
	}
	n = hash_find(g, owner, idx, &pos);
	if (n >= 0)
		drop_copy(s, g, n);	/* a stale copy from an earlier eviction */
	n = free_slot(g);
	if (n < 0 && g->oldest >= 0) {
		n = g->oldest;
		drop_copy(s, g, n);
		r->dropped_oldest++;
		n = free_slot(g);
	}
	if (n < 0)
		return;		/* devices hold the whole area */
	held_integrate(s, g);
	g->slot[n] = (struct gcma_slot){ .owner = owner, .idx = idx, .prev = g->newest, .next = -1,
				       .state = o->anon ? SLOT_ANON : SLOT_FILE };
	if (g->newest >= 0)
		g->slot[g->newest].next = n;
	else
		g->oldest = n;
	g->newest = n;
	hash_find(g, owner, idx, &pos);
	g->hash[pos] = n;
	g->nr_free--;
	g->nr_copies++;
	if (g->nr_copies > r->held_peak_pages)
		r->held_peak_pages = g->nr_copies;
	r->puts[o->anon]++;
	r->copy_ns += cost_transfer_ns(sim_cost(s)->v[COST_COPY_MBPS], sim_page_bytes(s));
}

/* cleancache_get_page / frontswap_load: a hit is copied back and leaves the area. */
static bool gcma_lookup(struct sim *s, const void *owner, uint64_t idx, bool anon, bool take)
{
	struct gcma *g = sim_policy_priv(s);
	struct gcma_result *r = &sim_run_result(s)->gcma;
	unsigned long pos;
	long n = hash_find(g, owner, idx, &pos);

	if (!take)
		return n >= 0;
	r->gets[anon]++;
	if (n < 0)
		return false;
	drop_copy(s, g, n);
	r->hits[anon]++;
	r->copy_ns += cost_transfer_ns(sim_cost(s)->v[COST_COPY_MBPS], sim_page_bytes(s));
	if (!anon)
		r->read_saved_ns += cost_transfer_ns(sim_cost(s)->v[COST_STORAGE_READ_MBPS], sim_page_bytes(s));
	return true;
}

/* cleancache_invalidate_inode / frontswap_invalidate_area. */
static void gcma_invalidate(struct sim *s, const void *owner)
{
	struct gcma *g = sim_policy_priv(s);

	for (long n = g->oldest, next; n >= 0; n = next) {
		next = g->slot[n].next;
		if (g->slot[n].owner == owner) {
			drop_copy(s, g, n);
			sim_run_result(s)->gcma.invalidated++;
		}
	}
}

/* ---- the areas ---- */

static struct gcma_area *area_of(struct gcma *g, unsigned long pfn)
{
	for (unsigned i = 0; i < g->nr_areas; i++)
		if (pfn >= g->area[i].base_pfn && pfn < g->area[i].base_pfn + g->area[i].count)
			return &g->area[i];
	return NULL;
}

/*
 * Take what is left of @cma from the buddy allocator: the whole of it in
 * one allocation when the boot took nothing from it, else the largest
 * runs still free. Nothing is movable there yet, so nothing migrates.
 */
static void take_area(struct sim *s, struct gcma_area *a, struct cma_device *dev)
{
	unsigned long want = a->count;

	while (want && a->nr_held < sizeof(a->held) / sizeof(a->held[0])) {
		struct cma_page *page = cma_dma_alloc_from_contiguous(sim_mm(s), dev, (int)want, 0);

		if (!page) {
			want /= 2;
			continue;
		}
		a->held[a->nr_held] = page;
		a->held_count[a->nr_held++] = want;
	}
}

static int add_area(struct sim *s, struct gcma *g, struct cma_device *dev)
{
	struct cma *cma = cma_dev_get_cma_area(sim_mm(s), dev);
	struct gcma_area *a;

	if (!cma || !cma_area_count(cma) || area_of(g, cma_area_base_pfn(cma)))
		return 0;
	a = &g->area[g->nr_areas++];
	a->base_pfn = cma_area_base_pfn(cma);
	a->count = cma_area_count(cma);
	a->dev = dev;
	a->busy = calloc(BITS_TO_LONGS(a->count) + 1, sizeof(long));
	if (!a->busy)
		return -ENOMEM;
	bitmap_set(a->busy, 0, a->count);
	take_area(s, a, dev);
	for (unsigned i = 0; i < a->nr_held; i++)
		bitmap_clear(a->busy, cma_page_to_pfn(sim_mm(s), a->held[i]) - a->base_pfn, a->held_count[i]);
	g->nr_slots += a->count;
	return 0;
}

static unsigned kconfig_cma_alignment(const char *text)
{
	struct kconfig *kc = NULL;
	unsigned long v = 8;
	char err[128];

	if (!kconfig_parse(text, &kc, err, sizeof(err)))
		kconfig_get_ulong(kc, "CONFIG_CMA_ALIGNMENT", 8, &v, err, sizeof(err));
	kconfig_free(kc);
	return (unsigned)v;
}

static int gcma_attach(struct sim *s)
{
	struct gcma *g = calloc(1, sizeof(*g));
	unsigned long n = 0;
	int ret = 0;

	if (!g)
		return -ENOMEM;
	sim_set_policy_priv(s, g);
	g->cma_align = kconfig_cma_alignment(sim_platform(s)->kconfig);
	/* "mm: cma: align to physical address, not CMA region position" (4.1) */
	g->offset_aligned = platform_kernel_release(cma_mm_kernel(sim_mm(s))) >= 401;
	ret = add_area(s, g, NULL);
	for (unsigned i = 0; !ret && i < sim_platform(s)->nr_devices && g->nr_areas < SIM_MAX_AREAS; i++)
		ret = add_area(s, g, sim_device(s, i));
	if (ret)
		return ret;
	g->slot = calloc(g->nr_slots ? g->nr_slots : 1, sizeof(*g->slot));
	for (g->hash_mask = 1; g->hash_mask < 2 * g->nr_slots; g->hash_mask <<= 1)
		;
	g->hash = malloc(g->hash_mask * sizeof(*g->hash));
	if (!g->slot || !g->hash)
		return -ENOMEM;
	memset(g->hash, 0xff, g->hash_mask * sizeof(*g->hash));
	g->hash_mask--;
	for (unsigned i = 0; i < g->nr_areas; i++) {
		struct gcma_area *a = &g->area[i];

		a->first = n;
		for (unsigned long p = 0; p < a->count; p++, n++) {
			g->slot[n].state = test_bit(p, a->busy) ? SLOT_FOREIGN : SLOT_FREE;
			g->nr_free += g->slot[n].state == SLOT_FREE;
		}
	}
	g->oldest = g->newest = -1;
	g->held_at = sim_now(s);
	sim_run_result(s)->gcma.on = true;
	sim_run_result(s)->gcma.area_pages = g->nr_free;
	return 0;
}

/* dma_alloc_from_contiguous's choice: first fit at the request's alignment, clamped as CMA clamps it. */
static unsigned long find_range(const struct gcma *g, const struct gcma_area *a, uint64_t pages,
				unsigned align)
{
	unsigned long mask, offset;

	if (align > g->cma_align)
		align = g->cma_align;
	mask = (1ul << align) - 1;
	offset = g->offset_aligned ? a->base_pfn & mask : 0;
	return bitmap_find_next_zero_area_off(a->busy, a->count, 0, (unsigned)pages, mask, offset);
}

static int gcma_alloc(struct sim *s, struct workload *w, struct dev_buffer *b, struct cost_work *work,
		      enum fail_cause *cause)
{
	const struct wl_device *spec = &w->spec->device;
	struct gcma *g = sim_policy_priv(s);
	struct cma *cma = cma_dev_get_cma_area(sim_mm(s), sim_workload_device(s, w));
	struct gcma_area *a = cma ? area_of(g, cma_area_base_pfn(cma)) : NULL;
	struct gcma_result *r = &sim_run_result(s)->gcma;
	uint64_t pages = sim_pages(s, spec->buffer_bytes), dropped = 0;
	unsigned align = spec->align_bytes > sim_page_bytes(s) ?
			 policy_order_of(spec->align_bytes / sim_page_bytes(s)) : policy_order_of(pages);
	unsigned long pageno;

	work->locks++;
	*cause = FAIL_NOMEM;
	if (!a || pages > a->count)
		return -ENOMEM;
	pageno = find_range(g, a, pages, align);
	if (pageno >= a->count)
		return -ENOMEM;
	for (unsigned long p = pageno; p < pageno + pages; p++) {
		long n = (long)(a->first + p);

		if (g->slot[n].state == SLOT_FILE || g->slot[n].state == SLOT_ANON) {
			drop_copy(s, g, n);
			dropped++;
		}
		g->slot[n].state = SLOT_DEVICE;
		g->nr_free--;
	}
	bitmap_set(a->busy, pageno, (unsigned long)pages);
	r->dropped_for_requests += dropped;
	r->requests_dropping += dropped > 0;
	if (dropped > r->max_dropped)
		r->max_dropped = dropped;
	/*
	 * gcma_alloc_contig (RFC v2) takes the area's spinlock for each page
	 * and drops the copies' entries after, with no cond_resched() and no
	 * sleep in either loop: its own work per page, measured
	 * (bench/kernel/micro-gcma.c), no copy and no page allocator.
	 */
	work->gcma_free += pages - dropped;
	work->gcma_dropped += dropped;
	b->nr_chunks = 0;
	b->raw = policy_driver_asks_cma(s, spec);
	b->handle = (cma_phys_t)(a->base_pfn + pageno) * sim_page_bytes(s);
	policy_account(s, b, pages, work);
	return 0;
}

static void gcma_free(struct sim *s, struct workload *w, struct dev_buffer *b)
{
	struct gcma *g = sim_policy_priv(s);
	unsigned long pfn = (unsigned long)(b->handle / sim_page_bytes(s));
	struct gcma_area *a = area_of(g, pfn);
	unsigned long pageno = pfn - a->base_pfn;

	bitmap_clear(a->busy, pageno, (unsigned long)b->pages_held);
	for (unsigned long p = pageno; p < pageno + b->pages_held; p++)
		slot_freed(g, a->first + p);
}

/*
 * The areas are lost to the buddy allocator; what they give back is the
 * copies they hold, each worth what the share of kept copies that served
 * a fault so far says.
 */
static uint64_t gcma_usable(const struct sim *s)
{
	const struct gcma *g = sim_policy_priv(s);
	const struct gcma_result *r = &sim_run_result(s)->gcma;
	uint64_t puts = r->puts[0] + r->puts[1], hits = r->hits[0] + r->hits[1];
	uint64_t base = sim_run_result(s)->total_pages > r->area_pages ? sim_run_result(s)->total_pages - r->area_pages : 0;

	return base + (g && puts ? (uint64_t)((double)g->nr_copies * (double)hits / (double)puts) : 0);
}

static void gcma_destroy(struct sim *s)
{
	struct gcma *g = sim_policy_priv(s);
	struct gcma_result *r = &sim_run_result(s)->gcma;
	uint64_t puts, hits;

	if (!g)
		return;
	held_integrate(s, g);
	r->held_mean_pages = sim_now(s) ? (uint64_t)(g->held_page_ns / (double)sim_now(s)) : 0;
	puts = r->puts[0] + r->puts[1];
	hits = r->hits[0] + r->hits[1];
	r->worth_pages = puts ? (uint64_t)((double)r->held_mean_pages * (double)hits / (double)puts) : 0;
	for (unsigned i = 0; i < g->nr_areas; i++) {
		struct gcma_area *a = &g->area[i];

		for (unsigned h = 0; h < a->nr_held; h++)
			cma_dma_release_from_contiguous(sim_mm(s), a->dev, a->held[h], (int)a->held_count[h]);
		free(a->busy);
	}
	free(g->slot);
	free(g->hash);
	free(g);
	sim_set_policy_priv(s, NULL);
}

const struct sim_policy_ops policy_gcma = {
	.name = "gcma",
	.opt_in = true,
	.attach = gcma_attach,
	.alloc = gcma_alloc,
	.free = gcma_free,
	.usable = gcma_usable,
	.destroy = gcma_destroy,
	.evicted = gcma_evicted,
	.lookup = gcma_lookup,
	.invalidate = gcma_invalidate,
};
