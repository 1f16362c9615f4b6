// SPDX-License-Identifier: GPL-2.0
/*
 * A huge page pool's page from the buddy allocator, as nr_hugepages
 * growing asks for it (mm/hugetlb.c's alloc_buddy_hugetlb_folio of 6.12,
 * alloc_fresh_huge_page_node of v3.5). Only the allocation: the pool
 * itself (counts, reservations, vmemmap) is the caller's.
 */
#include "mm/internal.h"

struct cma_page *cma_alloc_huge_page(struct cma_mm *mm, unsigned order, bool *noretry)
{
	/* hugetlb's pages are movable on x86 (hugepage_movable_supported) */
	cma_gfp_t gfp = CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_THISNODE | CMA_GFP_NOWARN;
	bool try_hard = !mm->kernel.hugetlb_noretry || !noretry || !*noretry;
	struct cma_page *page;

	if (mm_require_phase(mm, MM_BOOTED, "cma_alloc_huge_page"))
		return NULL;
	/*
	 * v3.5 asks with __GFP_REPEAT, 4.13 on with __GFP_RETRY_MAYFAIL (the
	 * same bit); kernel.hugetlb_noretry: once a node failed a request
	 * that tried hard, the next ones there try once (__GFP_NORETRY).
	 */
	gfp |= try_hard ? CMA_GFP_RETRY_MAYFAIL : CMA_GFP_NORETRY;
	page = __alloc_pages(mm, gfp, order);
	if (mm->kernel.hugetlb_noretry && noretry) {
		/* a success without trying hard: the node's state changed */
		if (page && !try_hard)
			*noretry = false;
		if (!page && try_hard)
			*noretry = true;
	}
	return page;
}
