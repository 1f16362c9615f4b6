// SPDX-License-Identifier: GPL-2.0
/*
 * Pages under writeback (the kernel's mm/page-writeback.c and
 * filemap.c's wait_on_page_writeback): a write starts with the dirty bit
 * taken and PG_writeback set (NR_WRITEBACK), and ends when the storage
 * says it is done (NR_WRITTEN). Reclaim starts writes through the owner's
 * writeback op, an owner's flusher through cma_page_start_writeback();
 * either may leave the write in flight, to be ended by the owner with
 * cma_page_end_writeback(). A write reclaim started (PG_reclaim) ends
 * with the page rotated to the tail of its inactive list. Migration that
 * must wait for such a write asks the owner (ops->wait_writeback):
 * nothing here sleeps. From 5.16 an ended write may wake reclaim
 * throttled on writeback. A page locked for its read (ops->locked) is
 * waited for the same way (filemap.c's lock_page, ops->wait_locked).
 */
#include "mm/internal.h"

void set_page_writeback(struct cma_mm *mm, struct cma_page *page, bool file)
{
	page_flags_set(page, PG_writeback);
	mod_zone_page_state(page_zone(mm, page), NR_WRITEBACK, 1);
	trace_event(mm, CMA_TRACE_MM_VMSCAN_WRITEPAGE, writepage,
		    .pfn = page_to_pfn(mm, page), .file = file);
}

void undo_page_writeback(struct cma_mm *mm, struct cma_page *page)
{
	mod_zone_page_state(page_zone(mm, page), NR_WRITEBACK, -1);
	page_flags_clear(page, PG_writeback | PG_reclaim);
}

/* A page reclaim wrote (PG_reclaim) goes to the tail of its inactive list for the next scan. */
void end_page_writeback(struct cma_mm *mm, struct cma_page *page)
{
	if (atomic_fetch_and_explicit(&page->flags, ~(uint32_t)PG_reclaim,
				      memory_order_relaxed) & PG_reclaim)
		rotate_reclaimable_page(mm, page);
	undo_page_writeback(mm, page);
	mod_zone_page_state(page_zone(mm, page), NR_WRITTEN, 1);
	if (mm->kernel.reclaim_throttle)
		acct_reclaim_writeback(mm, 1ul << page_order(page));
}

bool cma_page_start_writeback(struct cma_mm *mm, struct cma_page *page)
{
	/* hugetlbfs writes nothing back */
	if (!page_test(page, PG_movable) || page_test(page, PG_hugetlb)) {
		cma_mm_pr_err(mm, "cma_page_start_writeback: pfn %#lx is not a movable page on an LRU list\n",
			  page_to_pfn(mm, page));
		return false;
	}
	if (page_test(page, PG_writeback))
		return false;
	/* clear_page_dirty_for_io: a redirty during the write is then not lost */
	if (!(atomic_fetch_and_explicit(&page->flags, ~(uint32_t)PG_dirty,
					memory_order_relaxed) & PG_dirty))
		return false;
	if (!page_test(page, PG_swapbacked))
		mod_zone_page_state(page_zone(mm, page), NR_FILE_DIRTY, -1);
	/* the flusher's write, not reclaim's: no mm_vmscan_writepage */
	page_flags_set(page, PG_writeback);
	mod_zone_page_state(page_zone(mm, page), NR_WRITEBACK, 1);
	return true;
}

void cma_page_end_writeback(struct cma_mm *mm, struct cma_page *page)
{
	if (!page_test(page, PG_writeback)) {
		cma_mm_pr_err(mm, "cma_page_end_writeback: pfn %#lx is not under writeback\n",
			  page_to_pfn(mm, page));
		return;
	}
	end_page_writeback(mm, page);
}

/*
 * lock_page of a page locked for its read: the owner completes the read
 * and says how long that took; 0 once the lock is ours, -EBUSY when the
 * owner cannot wait (no wait_locked) or left the read running. Traced as
 * the library's cma_lock_page (neither kernel has that event).
 */
int lock_page(struct cma_mm *mm, struct cma_page *page, const struct cma_owner_ops *ops)
{
	uint64_t waited;

	if (!ops->wait_locked)
		return -EBUSY;
	waited = ops->wait_locked(page->owner, page->private, page);
	if (ops->locked(page->owner, page->private, page))
		return -EBUSY;
	trace_event(mm, CMA_TRACE_CMA_LOCK_PAGE, writeback_wait,
		    .pfn = page_to_pfn(mm, page), .waited_ns = waited);
	return 0;
}

/*
 * wait_on_page_writeback: the owner completes the write and says how
 * long that took; 0 once the page is clean of it, -EBUSY when the owner
 * cannot wait (no wait_writeback) or left the write running. The wait is
 * the library's trace event (neither kernel has one at this spot), so
 * that a trace shows what a request waited for.
 */
int wait_on_page_writeback(struct cma_mm *mm, struct cma_page *page,
			   const struct cma_owner_ops *ops)
{
	uint64_t waited;

	if (!ops->wait_writeback)
		return -EBUSY;
	waited = ops->wait_writeback(page->owner, page->private, page);
	if (page_test(page, PG_writeback))
		return -EBUSY;
	trace_event(mm, CMA_TRACE_CMA_WAIT_ON_PAGE_WRITEBACK, writeback_wait,
		    .pfn = page_to_pfn(mm, page), .waited_ns = waited);
	return 0;
}
