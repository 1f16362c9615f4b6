// SPDX-License-Identifier: GPL-2.0
/*
 * Pages the kernel keeps for itself, counted where it counts them: a
 * slab's pages (3.5's kmem_getpages adds them to NR_SLAB_RECLAIMABLE or
 * NR_SLAB_UNRECLAIMABLE by the cache's SLAB_RECLAIM_ACCOUNT, and
 * kmem_freepages takes them off) and a page table's (pgtable_page_ctor
 * and pgtable_page_dtor, NR_PAGETABLE). An allocating entry point, above
 * the slow path, as memory.c is.
 */
#include <errno.h>

#include "mm/internal.h"

static const enum zone_stat_item kmem_item[CMA_NR_KMEM_KINDS] = {
	[CMA_KMEM_SLAB_RECLAIMABLE] = NR_SLAB_RECLAIMABLE,
	[CMA_KMEM_SLAB_UNRECLAIMABLE] = NR_SLAB_UNRECLAIMABLE,
	[CMA_KMEM_PAGETABLE] = NR_PAGETABLE,
};

static bool kmem_kind_valid(struct cma_mm *mm, const char *fn, enum cma_kmem_kind kind)
{
	if ((unsigned)kind < CMA_NR_KMEM_KINDS)
		return true;
	cma_mm_pr_err(mm, "%s: kind %d refused: give CMA_KMEM_SLAB_RECLAIMABLE, CMA_KMEM_SLAB_UNRECLAIMABLE or CMA_KMEM_PAGETABLE\n",
		      fn, (int)kind);
	errno = EINVAL;
	return false;
}

struct cma_page *cma_alloc_kmem_pages(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
				      enum cma_kmem_kind kind)
{
	struct cma_page *page;

	if (!kmem_kind_valid(mm, "cma_alloc_kmem_pages", kind))
		return NULL;
	page = cma_alloc_pages(mm, gfp, order);
	if (page)
		mod_zone_page_state(page_zone(mm, page), kmem_item[kind], 1l << order);
	return page;
}

void cma_free_kmem_pages(struct cma_mm *mm, struct cma_page *page, unsigned order,
			 enum cma_kmem_kind kind)
{
	/* a page the free would refuse keeps its count: the full check reports it */
	if (!kmem_kind_valid(mm, "cma_free_kmem_pages", kind) ||
	    (!free_page_usual(mm, page, order) && !__free_page_check(mm, page, order)))
		return;
	mod_zone_page_state(page_zone(mm, page), kmem_item[kind], -(1l << order));
	cma_free_pages(mm, page, order);
}
