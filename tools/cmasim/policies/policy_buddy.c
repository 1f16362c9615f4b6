// SPDX-License-Identifier: GPL-2.0
/*
 * The buddy policy, no CMA: high-order buddy allocations (with the slow
 * path's reclaim and compaction). Beyond MAX_ORDER a request is split
 * into MAX_ORDER - 1 blocks if the device can scatter-gather, and fails
 * otherwise.
 */
#include <errno.h>

#include "engine/sim_api.h"

static void buddy_release(struct sim *s, struct dev_buffer *b)
{
	for (unsigned i = 0; i < b->nr_chunks; i++)
		cma_free_pages(sim_mm(s), b->pages[i], b->chunk_order);
	b->nr_chunks = 0;
}

/*
 * As dma_alloc_coherent picks the zone for a mask (x86, and arm64, whose
 * 32-bit requests stay below 4 GiB through ZONE_DMA32 or its fallback
 * ZONE_DMA; ARM has lowmem only).
 */
static cma_gfp_t buddy_gfp(const struct sim *s, const struct wl_device *spec)
{
	cma_gfp_t gfp = policy_gfp(spec) | CMA_GFP_NOWARN;

	if (sim_platform(s)->cfg.arch == CMA_ARCH_ARM)
		return gfp;
	if (spec->mask <= 0xffffffull)
		return gfp | CMA_GFP_DMA;
	return spec->mask <= 0xffffffffull ? gfp | CMA_GFP_DMA32 : gfp;
}

static int buddy_alloc(struct sim *s, struct workload *w, struct dev_buffer *b, struct cost_work *work,
		       enum fail_cause *cause)
{
	const struct wl_device *spec = &w->spec->device;
	uint64_t pages = sim_pages(s, spec->buffer_bytes), chunk;
	unsigned order = policy_order_of(pages), n;

	/* a block is aligned to its size: a larger alignment takes a larger block */
	if (spec->align_bytes > sim_page_bytes(s) && policy_order_of(spec->align_bytes / sim_page_bytes(s)) > order)
		order = policy_order_of(spec->align_bytes / sim_page_bytes(s));
	struct cost_counters before;

	work->locks++;
	*cause = FAIL_TOO_LARGE;
	if (order >= sim_max_order(s)) {
		if (!spec->sg)
			return -E2BIG;
		order = sim_max_order(s) - 1;
	}
	chunk = 1ull << order;
	n = (unsigned)((pages + chunk - 1) / chunk);
	if (n > DEV_MAX_CHUNKS)
		return -E2BIG;
	cost_counters_read(s, &before);
	b->chunk_order = order;
	for (b->nr_chunks = 0; b->nr_chunks < n; b->nr_chunks++) {
		struct cma_page *page = cma_alloc_pages(sim_mm(s), buddy_gfp(s, spec), order);

		if (!page)
			break;
		b->pages[b->nr_chunks] = page;
	}
	cost_work_since(s, &before, work);
	if (b->nr_chunks < n) {
		buddy_release(s, b);
		*cause = FAIL_NOMEM;
		return -ENOMEM;
	}
	b->handle = (cma_phys_t)cma_page_to_pfn(sim_mm(s), b->pages[0]) * sim_page_bytes(s);
	policy_account(s, b, (uint64_t)n << order, work);
	work->handled += b->pages_held;
	return 0;
}

static void buddy_free(struct sim *s, struct workload *w, struct dev_buffer *b)
{
	buddy_release(s, b);
}

const struct sim_policy_ops policy_buddy = {
	.name = "buddy",
	.prepare = policy_without_cma,
	.alloc = buddy_alloc,
	.free = buddy_free,
};
