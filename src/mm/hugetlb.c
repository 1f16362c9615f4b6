// SPDX-License-Identifier: GPL-2.0
/*
 * A huge page pool's page, as nr_hugepages growing asks for it: from the
 * buddy allocator (mm/hugetlb.c's alloc_buddy_hugetlb_folio of 6.12,
 * alloc_fresh_huge_page_node of v3.5), or, for an order the buddy
 * allocator does not have, from alloc_contig_pages (6.12's
 * alloc_gigantic_folio). Only the allocation and the hugetlb mark
 * (PG_hugetlb, which alloc_contig_pages reads): the pool itself (counts,
 * reservations, vmemmap) is the caller's.
 */
#include "mm/internal.h"

/* prep_new_hugetlb_folio's folio_set_hugetlb: the allocation's head is the folio's */
static struct cma_page *mark_hugetlb(struct cma_page *page)
{
	if (page)
		page_flags_set(page, PG_hugetlb);
	return page;
}

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
	return mark_hugetlb(page);
}

struct cma_page *cma_alloc_gigantic_page(struct cma_mm *mm, unsigned long nr_pages, cma_gfp_t gfp)
{
	struct cma_page *page = cma_alloc_contig_pages(mm, nr_pages, gfp, -1);

	/* alloc_contig_pages' pages are order-0 allocations each: each is marked */
	for (unsigned long i = 0; page && i < nr_pages; i++)
		mark_hugetlb(page + i);
	return page;
}
