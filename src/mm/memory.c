// SPDX-License-Identifier: GPL-2.0
/*
 * A new page for an owner, as a fault gives one (the kernel's
 * do_anonymous_page in mm/memory.c; filemap_add_folio for the page
 * cache): allocated movable, given the owner, accounted, and added to the
 * LRU through the local pagevec.
 *
 * It sits above the slow path it allocates through, with the other
 * allocating entry points (gup.c, hugetlb.c, contig.c): mobility (swap.c,
 * migrate.c, compaction.c, vmscan.c) is what the slow path calls, and
 * never calls it back.
 */
#include <limits.h>

#include "mm/internal.h"

/*
 * A movable page of @ops' owner @owner, anywhere (@pfn ULONG_MAX) or at
 * @pfn; a new anonymous page starts on the active list (3.5's
 * lru_cache_add_lru of do_anonymous_page) unless @inactive, and from 5.9
 * (kernel.anon_inactive) on the inactive list, as a file page.
 */
static struct cma_page *alloc_movable(struct cma_mm *mm, const char *fn, cma_gfp_t gfp,
				      unsigned order, unsigned long pfn,
				      const struct cma_owner_ops *ops, void *owner, uint64_t index,
				      bool inactive)
{
	struct cma_page *page;
	int id;

	if (mm_require_phase(mm, MM_BOOTED, fn))
		return NULL;
	if (!ops || !ops->migrate) {
		cma_mm_pr_err(mm, "%s: owner ops with a migrate callback are required\n", fn);
		return NULL;
	}
	id = owner_ops_id(mm, ops);
	if (id < 0) {
		cma_mm_pr_err(mm, "%s: more than %d distinct owner ops tables\n", fn, MAX_OWNER_OPS);
		return NULL;
	}
	/* a page with an owner is movable by definition */
	if (pfn == ULONG_MAX)
		page = __alloc_pages(mm, gfp | CMA_GFP_MOVABLE, order);
	else
		page = alloc_pages_at(mm, pfn, order, gfp | CMA_GFP_MOVABLE);
	if (!page)
		return NULL;
	page->owner = owner;
	page->private = index;
	/*
	 * The owner's ops and bits in one plain store, as the kernel's
	 * __SetPageSwapBacked on a new page: nobody else writes the flags of
	 * a page that is neither movable nor on an LRU list yet.
	 */
	page_flags_store(page, (page_flags(page) & ~PG_OPS_MASK) | ((uint32_t)id << PG_OPS_SHIFT) |
			       PG_movable | (ops->anon ? PG_swapbacked : 0) |
			       (ops->anon && !inactive && !mm->kernel.anon_inactive ? PG_active : 0));
	page_account_owner(mm, page);
	lru_cache_add(mm, page);
	return page;
}

struct cma_page *alloc_owned_page(struct cma_mm *mm, const char *fn, cma_gfp_t gfp,
				  const struct cma_owner_ops *ops, void *owner, uint64_t index,
				  bool active)
{
	return alloc_movable(mm, fn, gfp, 0, ULONG_MAX, ops, owner, index, !active);
}

struct cma_page *cma_alloc_movable(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
				   const struct cma_owner_ops *ops, void *owner, uint64_t index)
{
	return alloc_movable(mm, "cma_alloc_movable", gfp, order, ULONG_MAX, ops, owner, index,
			     false);
}

struct cma_page *cma_alloc_movable_at(struct cma_mm *mm, unsigned long pfn, unsigned order,
				      const struct cma_owner_ops *ops, void *owner, uint64_t index)
{
	return alloc_movable(mm, "cma_alloc_movable_at", CMA_GFP_HIGHUSER_MOVABLE, order, pfn, ops,
			     owner, index, false);
}
