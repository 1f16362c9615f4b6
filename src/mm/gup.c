// SPDX-License-Identifier: GPL-2.0
/*
 * Long-term pins (the kernel's mm/gup.c, FOLL_LONGTERM): a reference held
 * for as long as a device wants the page (RDMA, vfio, io_uring buffers).
 *
 * v3.5 has no such notion: a long-term pin is get_page(), and a page
 * pinned inside a CMA area blocks every contiguous allocation over it
 * until it is released. From 5.1 ("mm: Update get_user_pages_longterm to
 * migrate pages allocated from CMA region") the pin first moves a page
 * that must stay movable (a CMA or isolated pageblock, ZONE_MOVABLE) to
 * memory where a pin hurts no one, through its owner, and pins the copy:
 * __gup_longterm_locked pins, check_and_migrate_movable_pages finds the
 * unpinnable pages, unpins them, migrates them with MR_LONGTERM_PIN and
 * asks for a new pin (-EAGAIN), until all pinned pages are pinnable; a
 * page it cannot isolate now is unpinned and asked for again (5.13's
 * "mm/gup: check for isolation errors").
 */
#include <errno.h>
#include <sched.h>

#include "mm/internal.h"

/* folio_is_longterm_pinnable: may a pin on @page last? */
static bool page_longterm_pinnable(struct cma_mm *mm, struct cma_page *page)
{
	int mt = get_pageblock_migratetype(mm, page_to_pfn(mm, page));

	if (is_migrate_cma(mt) || mt == MIGRATE_ISOLATE)
		return false;
	return page_zonenum(page) != ZONE_MOVABLE;
}

/*
 * alloc_migration_target as the pin calls it: GFP_USER with the pin's
 * memalloc_pin_save() scope, which strips __GFP_MOVABLE, so that the
 * target is never a CMA page (nor, under 6.12's ALLOC_CMA, counts on
 * them). Highmem stays allowed for a highmem page; a hugetlb page gets a
 * fresh one of its order, tried hard for (alloc_migrate_hugetlb_folio).
 * @private records the target for the caller, as the kernel finds it
 * again in the page tables.
 */
static struct cma_page *longterm_pin_target(struct cma_mm *mm, struct cma_page *page,
					    unsigned long private)
{
	cma_gfp_t gfp = CMA_GFP_USER | CMA_GFP_NOWARN;
	struct cma_page *newpage;

	if (page_zonenum(page) == ZONE_HIGHMEM)
		gfp |= CMA_GFP_HIGHMEM;
	if (page_test(page, PG_hugetlb))
		newpage = mark_hugetlb(__alloc_pages(mm, gfp | CMA_GFP_RETRY_MAYFAIL, page_order(page)));
	else
		newpage = __alloc_pages(mm, gfp, page_order(page));
	*(struct cma_page **)private = newpage;
	return newpage;
}

/*
 * collect_longterm_unpinnable_folios for one page: a hugetlb page through
 * isolate_hugetlb, another off its LRU list, an mlocked one too (the
 * kernel's isolate_lru_page and folio_isolate_lru take the unevictable
 * list as any other). 0 with the page on @list; -EAGAIN when it is not
 * on a list now (another migration or reclaim has it isolated): the pin
 * is asked again; -EBUSY for a page no owner holds, which no list will
 * ever take (the kernel pins only pages it finds mapped).
 */
static int isolate_unpinnable_page(struct cma_mm *mm, struct cma_page *page,
				   struct page_list *list)
{
	if (!page_test(page, PG_movable))
		return -EBUSY;
	if (page_test(page, PG_hugetlb))
		return isolate_hugetlb(mm, page, list) ? 0 : -EAGAIN;
	/* the drain also takes the pagevecs' references, which migration would count as pins */
	if (!page_test(page, PG_lru))
		lru_add_drain_all(mm);
	if (__isolate_lru_page(mm, page, ISOLATE_UNEVICTABLE))
		return -EAGAIN;
	page_list_add(mm, list, page);
	return 0;
}

/*
 * migrate_longterm_unpinnable_folios for one page, which the caller has
 * pinned: isolate it, drop the pin, migrate it synchronously to a page
 * outside CMA. 0 when it moved, *@moved then being the target; -EAGAIN
 * when it could not be isolated now; -EBUSY when it never can be;
 * -ENOMEM when migration failed (no target, or the page kept
 * references: the kernel's answer for both). The pin is dropped either
 * way.
 */
static int migrate_unpinnable_page(struct cma_mm *mm, struct cma_page *page,
				   struct cma_page **moved)
{
	struct page_list list;
	int ret;

	page_list_init(&list);
	ret = isolate_unpinnable_page(mm, page, &list);
	put_page(mm, page);		/* unpin_folio: migration refuses a pinned page */
	if (ret)
		return ret;
	*moved = NULL;
	if (migrate_pages_reason(mm, &list, longterm_pin_target, (unsigned long)moved, MIGRATE_SYNC,
				 MR_LONGTERM_PIN)) {
		putback_lru_pages(mm, &list);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The owner's page at @index, pinned for the next round: @page, the
 * migration's target or the page it could not isolate, unless the owner
 * freed it meanwhile (a target then went back to the allocator and may
 * be anyone's by now) or it moved again. NULL then. Departure: the
 * kernel finds the owner's new page in the page tables and pins that.
 */
static struct cma_page *pin_owner_page(struct cma_mm *mm, struct cma_page *page,
				       void *owner, uint64_t index)
{
	if (!page || !get_page_unless_zero(page))
		return NULL;
	if (page_test(page, PG_movable) && page->owner == owner && page->private == index)
		return page;
	put_page(mm, page);
	return NULL;
}

struct cma_page *cma_page_pin_longterm(struct cma_mm *mm, struct cma_page *page)
{
	if (!mm->kernel.longterm_migrate) {
		cma_page_get(mm, page);
		return page;
	}
	/*
	 * __gup_longterm_locked: pin, check, and while the page must move,
	 * unpin it, move it and pin the page the owner then holds; a page
	 * that cannot be isolated now (-EAGAIN) is pinned again as it is and
	 * checked again. The loop ends when the page is pinnable (moved out
	 * of CMA, or its pageblock no longer CMA or isolated), when a
	 * migration fails, when the page is no owner's, and when the owner
	 * lets go of it: whoever has it isolated puts it back or moves it.
	 */
	if (!get_page_unless_zero(page)) {
		errno = EBUSY;		/* frozen: another migration has it */
		return NULL;
	}
	while (!page_longterm_pinnable(mm, page)) {
		void *owner = page->owner;
		uint64_t index = page->private;
		struct cma_page *next = page;
		int ret = migrate_unpinnable_page(mm, page, &next);

		if (ret == -EAGAIN) {
			sched_yield();
		} else if (ret) {
			errno = -ret;
			return NULL;
		}
		page = pin_owner_page(mm, next, owner, index);
		if (!page) {
			errno = EBUSY;	/* freed or moved while unpinned */
			return NULL;
		}
	}
	return page;
}
