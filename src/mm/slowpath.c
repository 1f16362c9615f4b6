// SPDX-License-Identifier: GPL-2.0
/*
 * __alloc_pages_nodemask and its slow path: the fast attempt at the low
 * mark, then the min mark with the allowances of atomic and __GFP_HIGH
 * requests. It sits above page_alloc.c (and reclaim and compaction) so
 * that the allocator itself never calls upward.
 */
#include "mm/internal.h"

/* gfp_to_alloc_flags: __GFP_HIGH digs deeper, atomic requests deeper still. */
static int gfp_to_alloc_flags(cma_gfp_t gfp)
{
	int alloc_flags = ALLOC_WMARK_MIN;

	if (gfp & CMA_GFP_HIGH)
		alloc_flags |= ALLOC_HIGH;
	if (!(gfp & CMA_GFP_WAIT))
		alloc_flags |= ALLOC_HARDER;
	return alloc_flags;
}

static struct cma_page *__alloc_pages_slowpath(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
					       enum zone_type high_zoneidx, int migratetype)
{
	struct cma_page *page;

	page = get_page_from_freelist(mm, gfp, order, high_zoneidx, gfp_to_alloc_flags(gfp),
				      migratetype);
	if (!page && !(gfp & CMA_GFP_NOWARN))
		mm_printk(mm, "page allocation failure: order:%u, mode:0x%x\n", order, gfp);
	return page;
}

static void trace_page_alloc(struct cma_mm *mm, struct cma_page *page, unsigned order,
			     cma_gfp_t gfp, int migratetype)
{
	unsigned long pfn = page ? page_to_pfn(mm, page) : 0;
	char flags[256];

	show_gfp_flags(gfp, flags, sizeof(flags));
	trace_event(mm, "mm_page_alloc", "page=%p pfn=%lu order=%u migratetype=%d gfp_flags=%s",
		    page ? (void *)(0xffffea0000000000ul + pfn * 64) : NULL, pfn, order,
		    migratetype, flags);
}

struct cma_page *__alloc_pages(struct cma_mm *mm, cma_gfp_t gfp, unsigned order)
{
	enum zone_type high_zoneidx;
	int migratetype;
	struct cma_page *page;

	if (order >= mm->max_order) {
		if (!(gfp & CMA_GFP_NOWARN))
			mm_pr_err(mm, "alloc_pages: order %u refused: this machine's largest order is %u (MAX_ORDER %u)\n",
				  order, mm->max_order - 1, mm->max_order);
		return NULL;
	}
	if ((gfp & (CMA_GFP_MOVABLE | CMA_GFP_RECLAIMABLE)) ==
	    (CMA_GFP_MOVABLE | CMA_GFP_RECLAIMABLE) ||
	    __builtin_popcount(gfp & (CMA_GFP_DMA | CMA_GFP_DMA32 | CMA_GFP_HIGHMEM)) > 1) {
		mm_pr_err(mm, "alloc_pages: gfp 0x%x refused: at most one of GFP_DMA, GFP_DMA32, GFP_HIGHMEM and one of GFP_MOVABLE, GFP_RECLAIMABLE\n",
			  gfp);
		return NULL;
	}
	if (should_fail_alloc_page(mm, order))
		return NULL;
	high_zoneidx = gfp_zone(mm, gfp);
	migratetype = allocflags_to_migratetype(mm, gfp);
	page = get_page_from_freelist(mm, gfp, order, high_zoneidx, ALLOC_WMARK_LOW, migratetype);
	if (!page)
		page = __alloc_pages_slowpath(mm, gfp, order, high_zoneidx, migratetype);
	if (trace_enabled(mm))
		trace_page_alloc(mm, page, order, gfp, migratetype);
	return page;
}
