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
 * asks for a new pin (-EAGAIN), until all pinned pages are pinnable.
 */
#include <errno.h>

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
 * them). Highmem stays allowed for a highmem page. @private records the
 * target for the caller, as the kernel finds it again in the page tables.
 */
static struct cma_page *longterm_pin_target(struct cma_mm *mm, struct cma_page *page,
					    unsigned long private)
{
	cma_gfp_t gfp = CMA_GFP_USER | CMA_GFP_NOWARN;
	struct cma_page *newpage;

	if (page_zonenum(page) == ZONE_HIGHMEM)
		gfp |= CMA_GFP_HIGHMEM;
	newpage = __alloc_pages(mm, gfp, page_order(page));
	*(struct cma_page **)private = newpage;
	return newpage;
}

/*
 * migrate_longterm_unpinnable_folios for one page, which the caller has
 * pinned: isolate it, drop the pin, migrate it synchronously to a page
 * outside CMA. 0 when it moved, *@moved then being the target; -EBUSY
 * when it cannot be isolated (no owner's page, already isolated by a
 * migration or reclaim, mlocked); -ENOMEM when migration failed (no
 * target, or the page kept references: the kernel's answer for both).
 * The pin is dropped either way.
 *
 * Departure: where the page cannot be isolated the kernel unpins and
 * asks again (-EAGAIN) until it can; we answer -EBUSY at once, as a page
 * that is no owner's would be asked forever.
 */
static int migrate_unpinnable_page(struct cma_mm *mm, struct cma_page *page,
				   struct cma_page **moved)
{
	struct page_list list;

	/* the drain also takes the pagevecs' references, which migration would count as pins */
	if (page_test(page, PG_movable) && !page_test(page, PG_lru))
		lru_add_drain_all(mm);
	if (!page_test(page, PG_movable) || isolate_lru_page(mm, page)) {
		put_page(mm, page);
		return -EBUSY;
	}
	page_list_init(&list);
	page_list_add(mm, &list, page);
	put_page(mm, page);		/* unpin_folio: migration refuses a pinned page */
	*moved = NULL;
	if (migrate_pages_reason(mm, &list, longterm_pin_target, (unsigned long)moved, MIGRATE_SYNC,
				 MR_LONGTERM_PIN)) {
		putback_lru_pages(mm, &list);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The page the owner holds after a migration: the target, unless the
 * owner freed the page meanwhile (the target then went back to the
 * allocator and may be anyone's by now) or moved it again. With a
 * reference held, as the next round's pin.
 */
static struct cma_page *pin_moved_page(struct cma_mm *mm, struct cma_page *moved,
				       void *owner, uint64_t index)
{
	if (!moved || !get_page_unless_zero(moved))
		return NULL;
	if (page_test(moved, PG_movable) && moved->owner == owner && moved->private == index)
		return moved;
	put_page(mm, moved);
	return NULL;
}

struct cma_page *cma_page_pin_longterm(struct cma_mm *mm, struct cma_page *page)
{
	if (!mm->kernel.longterm_migrate) {
		cma_page_get(mm, page);
		return page;
	}
	/*
	 * __gup_longterm_locked: pin, check, and after a migration pin the
	 * page the owner now holds. Each round returns or moves the page
	 * out of CMA, to a page the next round finds pinnable unless its
	 * pageblock was isolated meanwhile.
	 */
	if (!get_page_unless_zero(page)) {
		errno = EBUSY;		/* frozen: another migration has it */
		return NULL;
	}
	while (!page_longterm_pinnable(mm, page)) {
		void *owner = page->owner;
		uint64_t index = page->private;
		struct cma_page *moved;
		int ret = migrate_unpinnable_page(mm, page, &moved);

		if (ret) {
			errno = -ret;
			return NULL;
		}
		page = pin_moved_page(mm, moved, owner, index);
		if (!page) {
			errno = EBUSY;	/* freed or moved again while unpinned */
			return NULL;
		}
	}
	return page;
}
