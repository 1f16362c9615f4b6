// SPDX-License-Identifier: GPL-2.0
/*
 * Page reclaim (mm/vmscan.c of v3.4/3.5): the per-zone LRU lists are
 * scanned from their tails, at a priority that sets how much of each list
 * a pass looks at (lru_size >> priority, DEF_PRIORITY = 12 down to 0).
 * shrink_active_list() ages pages from the active to the inactive list;
 * shrink_inactive_list() isolates SWAP_CLUSTER_MAX pages at a time and
 * shrink_page_list() decides each one: drop a clean file page through its
 * owner (ops->reclaim), swap an anonymous one out when there is swap room,
 * have kswapd write back a dirty file page under pressure, keep or
 * activate the rest. Direct reclaim (try_to_free_pages) runs in the
 * allocating thread; kswapd (balance_pgdat) runs as a thread woken below a
 * zone's low mark, or one step at a time under the caller's control. Each
 * zone counts the pages scanned since one was last freed to it; kswapd
 * gives a zone up (all_unreclaimable) after six times its reclaimable
 * pages, and only then does direct reclaim report no progress. From 4.12
 * (kernel.kswapd_failures) kswapd gives the node up instead, after
 * MAX_RECLAIM_RETRIES runs in a row that freed nothing, until some
 * reclaim frees a page.
 *
 * The one idea: a page is reclaimed by freezing its references at exactly
 * owner + isolation (page_freeze_refs(page, 2)), as __remove_mapping does;
 * any other holder makes the freeze fail and the page stays. Owner
 * callbacks run with no library lock held.
 *
 * Simplified on purpose, where the kernel's machinery does not exist here:
 * - no rmap: page_referenced() reads the one young bit an owner sets
 *   (cma_page_mkyoung) for all the PTEs mapping a page, so a mapped file
 *   page is activated at its second referenced scan, never for several
 *   young PTEs at once; and an extra reference (a pin, a tryget in
 *   progress) activates a page as a referenced PTE of an anonymous one
 *   would; shrink_active_list has no VM_EXEC rule: every page it scans
 *   is deactivated;
 * - the LRU lists stay per zone under every profile, where 4.8 moved them
 *   to the node: 4.7's inactive ratio is taken of each zone's pair, and
 *   4.12's refault snapshot is the machine's (one node);
 * - an owner's ->writeback that completes in the callback is a synchronous
 *   device's (a ramdisk, zram): the page is freed in the same pass, as the
 *   kernel frees a page whose write ended before pageout returned. A write
 *   the owner leaves in flight (-EINPROGRESS) ends when the owner says so,
 *   and end_page_writeback rotates the page then (rotate_reclaimable_page);
 * - a swapped-out slot is given back only by its owner (cma_swapin,
 *   cma_swap_free) or, read ahead and unused, by reclaim of its page;
 * - balance_pgdat starts over at most MAX_BALANCE_LOOPS times per wakeup
 *   (v3.5: until balanced or every zone is all_unreclaimable);
 * - sleeps (congestion_wait, wait_iff_congested, 5.16's reclaim_throttle)
 *   happen only on a host's clock (backing-dev.c); without one nothing
 *   sleeps, the slow path's wait runs a polled kswapd's pending pass, and
 *   direct reclaim does not look at too_many_isolated. Not modelled:
 *   lumpy reclaim, compaction_ready, should_continue_reclaim, slab
 *   shrinking;
 * - direct reclaim counts a zone kswapd would give up on at its next look
 *   as all_unreclaimable when it reports progress.
 */
#include <limits.h>
#include <sched.h>

#include "mm/internal.h"
#include "mm/mm_inline.h"

/* ---- scan control and small helpers ---- */

/*
 * The walks ahead of reclaim's batches. A batch takes its pages from an
 * LRU tail one link at a time, a cache miss a page (the tail's pages are
 * the least recently used), and each miss waits for the one before. So
 * while a batch is decided, the pages the next batch of each list will
 * take are asked for, a link of each list a page: the lists' misses
 * overlap each other and the deciding. Prefetches only, read under
 * lru_lock: what reclaim decides does not change.
 */
struct lru_ahead {
	struct zone *zone;		/* the zone walked; NULL: none */
	uint32_t pfn[NR_LRU_LISTS];	/* each list's next page, asked for */
	unsigned left[NR_LRU_LISTS];	/* links its walk has left; 0: none */
};

struct scan_control {
	unsigned long nr_to_reclaim;	/* stop once this many pages are freed */
	unsigned long nr_reclaimed;
	unsigned long nr_scanned;	/* inactive pages looked at */
	cma_gfp_t gfp_mask;		/* __GFP_IO: may swap; __GFP_FS: may write back */
	unsigned order;
	bool kswapd;			/* current_is_kswapd() */
	bool ignore_references;		/* reclaim_clean_pages_from_list: no page_check_references */
	unsigned long nr_unmapped_ptes;	/* page table entries try_to_unmap cleared */
	unsigned long nr_tlb_ipis;	/* their flushes' IPIs to the other CPUs their owners ran on */
	unsigned long nr_immediate;	/* 5.16+ kswapd: under writeback once the node was flagged */
	struct lru_ahead ahead;		/* the walks ahead of this reclaim's next batches */
};

/* What shrink_page_list met (3.5's nr_dirty, nr_congested, nr_writeback; 5.16's reclaim_stat). */
struct reclaim_stat {
	unsigned long nr_dirty;		/* dirty pages it would write (5.16: or under writeback) */
	unsigned long nr_congested;	/* of those, refused by the congested device (5.16: cycling) */
	unsigned long nr_writeback;	/* pages already under writeback */
	unsigned long nr_pageout;	/* pages it started writing (file writeback, swap-out) */
	unsigned long nr_activate[2];	/* pages it put back active, anon [0] and file [1] */
};

/* What shrink_page_list decided for one page. */
enum page_verdict { PAGE_KEEP, PAGE_ACTIVATE, PAGE_FREED };

/* page_check_references' verdict on a page's recent use */
enum page_references {
	PAGEREF_RECLAIM,
	PAGEREF_RECLAIM_CLEAN,		/* reclaim if clean, do not write it back for this */
	PAGEREF_KEEP,			/* another round on the inactive list */
	PAGEREF_ACTIVATE,
};


static bool is_file_lru(enum lru_list lru)
{
	return lru == LRU_INACTIVE_FILE || lru == LRU_ACTIVE_FILE;
}

static bool is_active_lru(enum lru_list lru)
{
	return lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE;
}

static bool page_is_file_cache(const struct cma_page *page)
{
	return !page_test(page, PG_swapbacked);
}

/* Watermarks change under zone->lock (seed 008 raises them): read them whole. */
static unsigned long wmark(const struct zone *zone, enum zone_watermarks w)
{
	return wmark_pages(zone, w);
}

/* ---- shrink_page_list ---- */

/*
 * __remove_mapping: freeze the references at owner + isolation and ask
 * the owner to forget the page. On success the page is freed.
 */
static enum page_verdict remove_mapping(struct cma_mm *mm, struct cma_page *page,
					const struct cma_owner_ops *ops)
{
	if (!ops->reclaim || !page_freeze_refs(page, 2))
		return PAGE_KEEP;
	/* dirtied since we looked: it must be written first */
	if (page_is_file_cache(page) && page_test(page, PG_dirty)) {
		page_unfreeze_refs(page, 2);
		return PAGE_KEEP;
	}
	if (ops->reclaim(page->owner, page->private, page)) {
		page_unfreeze_refs(page, 2);
		return PAGE_KEEP;
	}
	/* only our isolation reference is left */
	page_unfreeze_refs(page, 1);
	isolated_dec(mm, page);
	if (page_is_file_cache(page) && mm->kernel.workingset)
		workingset_eviction(page_zone(mm, page));
	/* the slot keeps the contents: the owner's swap entry now, unless read ahead for none */
	if (page_test(page, PG_swapcache))
		delete_from_swap_cache_reclaim(mm, page, ops != &swapper_ops);
	page_forget_owner(mm, page);
	put_page(mm, page);
	return PAGE_FREED;
}

/*
 * A write reclaim started that ended before the owner's callback
 * returned (a synchronous device: a ramdisk, zram): pageout's
 * PAGE_SUCCESS finds the page neither under writeback nor dirty and
 * frees it at once (v3.5's shrink_page_list, 6.12's shrink_folio_list:
 * "a synchronous write"). The write's end finds the page isolated, so
 * it is not rotated.
 */
static enum page_verdict free_written_page(struct cma_mm *mm, struct cma_page *page,
					   const struct cma_owner_ops *ops)
{
	end_page_writeback(mm, page);
	if (page_test(page, PG_dirty))
		return PAGE_KEEP;
	return remove_mapping(mm, page, ops);
}

/*
 * pageout: write a dirty file page back through its owner, with no lock
 * held. As clear_page_dirty_for_io + ->writepage: the dirty bit is taken
 * first, so that a redirty during the write is not lost, and put back if
 * the write fails. A write the owner finished in the callback frees the
 * page now (free_written_page); one it left in flight (-EINPROGRESS)
 * keeps the page under writeback on the LRU until the owner ends it.
 */
static enum page_verdict pageout(struct cma_mm *mm, struct cma_page *page,
				 const struct cma_owner_ops *ops, struct reclaim_stat *stat)
{
	struct zone *zone = page_zone(mm, page);
	int ret;

	if (!(atomic_fetch_and_explicit(&page->flags, ~(uint32_t)PG_dirty,
					memory_order_relaxed) & PG_dirty))
		return PAGE_KEEP;	/* cleaned under us */
	mod_zone_page_state(zone, NR_FILE_DIRTY, -1);
	page_flags_set(page, PG_reclaim);
	set_page_writeback(mm, page, true);
	ret = ops->writeback(page->owner, page->private, page);
	if (ret && ret != -EINPROGRESS) {
		undo_page_writeback(mm, page);
		/* redirty_page_for_writepage */
		if (!(atomic_fetch_or_explicit(&page->flags, PG_dirty, memory_order_relaxed) & PG_dirty))
			mod_zone_page_state(zone, NR_FILE_DIRTY, 1);
		return PAGE_KEEP;
	}
	mod_zone_page_state(zone, NR_VMSCAN_WRITE, 1);
	stat->nr_pageout++;
	return ret ? PAGE_KEEP : free_written_page(mm, page, ops);
}

/*
 * A dirty file page: only kswapd writes, only under pressure, and not
 * for a page referenced since it was last looked at (PAGEREF_RECLAIM_CLEAN).
 */
static enum page_verdict shrink_dirty_file_page(struct cma_mm *mm, struct cma_page *page,
						const struct cma_owner_ops *ops,
						struct scan_control *sc, int priority,
						enum page_references references,
						struct reclaim_stat *stat)
{
	if (!sc->kswapd || priority >= DEF_PRIORITY - 2) {
		/* direct reclaim would overflow the stack in ->writepage: free it once the flusher has */
		mod_zone_page_state(page_zone(mm, page), NR_VMSCAN_IMMEDIATE, 1);
		page_flags_set(page, PG_reclaim);
		return mm->kernel.dirty_activate ? PAGE_ACTIVATE : PAGE_KEEP;
	}
	if (references == PAGEREF_RECLAIM_CLEAN)
		return PAGE_KEEP;
	if (!ops->writeback)
		return PAGE_ACTIVATE;	/* no ->writepage */
	if (!(sc->gfp_mask & CMA_GFP_FS))
		return PAGE_KEEP;	/* !may_enter_fs */
	return pageout(mm, page, ops, stat);
}

/*
 * may_write_to_queue (3.5-5.15): kswapd (PF_SWAPWRITE) always writes;
 * direct reclaim leaves the pages of a congested device for later.
 * Departure: the page keeps no swap slot meanwhile (3.5's add_to_swap
 * came first), so the write that takes one is the later scan's.
 */
static bool may_write_to_queue(struct cma_mm *mm, const struct scan_control *sc)
{
	return sc->kswapd || mm->kernel.reclaim_throttle ||
	       !atomic_load_explicit(&mm->bdi_congested, memory_order_relaxed);
}

/*
 * An anonymous page (v3.5): the first scan gives it a swap slot
 * (add_to_swap) and writes it there (swap_writepage: PSWPOUT, under
 * writeback); a later scan finds it clean in the swap cache and frees it
 * through its owner (ops->reclaim, __remove_mapping). No swap room:
 * activated. The slot stays with the page if the owner refuses. The
 * owner's writeback op, if any, hears of the write: -EINPROGRESS leaves
 * it in flight (the swap device's queue), anything else (or no op) is a
 * synchronous device's, done at once, and the page is freed now.
 */
static enum page_verdict shrink_anon_page(struct cma_mm *mm, struct cma_page *page,
					  const struct cma_owner_ops *ops, struct scan_control *sc,
					  struct reclaim_stat *stat)
{
	unsigned long nr = 1ul << page_order(page);

	if (page_test(page, PG_swapcache))
		return remove_mapping(mm, page, ops);
	if (!(sc->gfp_mask & CMA_GFP_IO))
		return PAGE_KEEP;
	stat->nr_dirty++;
	if (!may_write_to_queue(mm, sc)) {
		stat->nr_congested++;
		return PAGE_KEEP;
	}
	if (!add_to_swap(mm, page))
		return PAGE_ACTIVATE;
	page_flags_set(page, PG_reclaim);
	set_page_writeback(mm, page, false);
	count_vm_events(mm, PSWPOUT, nr);
	mod_zone_page_state(page_zone(mm, page), NR_VMSCAN_WRITE, 1);
	stat->nr_pageout += nr;
	if (ops->writeback && ops->writeback(page->owner, page->private, page) == -EINPROGRESS)
		return PAGE_KEEP;
	return free_written_page(mm, page, ops);
}

/*
 * page_referenced (were the PTEs mapping @page used since the last look?
 * PG_young) and TestClearPageReferenced in one atomic: the flags before,
 * both bits cleared.
 */
static uint32_t page_referenced(struct cma_page *page)
{
	return atomic_fetch_and_explicit(&page->flags, ~(uint32_t)(PG_young | PG_referenced),
					 memory_order_relaxed);
}

/*
 * page_check_references (v3.5): a page mapped by a referenced PTE is
 * activated if anonymous (before 5.9, kernel.anon_inactive); a file page,
 * and from 5.9 an anonymous one, is activated if it was referenced
 * before too (PG_referenced, or an earlier referenced PTE that this
 * scan left as PG_referenced), else kept for one more round. A page used
 * only through the cache (PG_referenced) is reclaimed if clean.
 */
static enum page_references page_check_references(struct cma_mm *mm, struct cma_page *page)
{
	uint32_t old = page_referenced(page);
	bool referenced_ptes = old & PG_young;
	bool referenced_page = old & PG_referenced;

	if (referenced_ptes) {
		if (!page_is_file_cache(page) && !mm->kernel.anon_inactive)
			return PAGEREF_ACTIVATE;
		/* every mapped page starts with a reference from its fault: look twice */
		page_flags_set(page, PG_referenced);
		return referenced_page ? PAGEREF_ACTIVATE : PAGEREF_KEEP;
	}
	if (referenced_page && page_is_file_cache(page))
		return PAGEREF_RECLAIM_CLEAN;
	return PAGEREF_RECLAIM;
}

/*
 * A page under writeback is kept (v3.5), or from 4.11 activated out of
 * reclaim's way, marked PG_reclaim so that the end of its write brings
 * it back to the inactive tail. From 5.16 it is dirty to reclaim's
 * counts, congested when already marked (cycling through the LRU faster
 * than its write), and kswapd counts a marked one as immediate once the
 * node is flagged (PGDAT_WRITEBACK).
 */
static enum page_verdict shrink_writeback_page(struct cma_mm *mm, struct cma_page *page,
					       struct scan_control *sc, struct reclaim_stat *stat)
{
	bool marked = page_test(page, PG_reclaim);

	stat->nr_writeback++;
	if (mm->kernel.reclaim_throttle) {
		stat->nr_dirty++;
		if (marked)
			stat->nr_congested++;
		if (marked && sc->kswapd &&
		    atomic_load_explicit(&mm->writeback_flagged, memory_order_relaxed))
			sc->nr_immediate++;
	}
	if (!mm->kernel.dirty_activate)
		return PAGE_KEEP;
	page_flags_set(page, PG_reclaim);
	return PAGE_ACTIVATE;
}

static enum page_verdict shrink_page(struct cma_mm *mm, struct cma_page *page,
				     struct scan_control *sc, int priority, struct reclaim_stat *stat)
{
	const struct cma_owner_ops *ops = page_owner_ops(mm, page);
	enum page_references references = PAGEREF_RECLAIM_CLEAN;	/* force_reclaim's */

	/* !trylock_page: its read is in flight, keep it for a later scan */
	if (ops->locked && ops->locked(page->owner, page->private, page))
		return PAGE_KEEP;
	/* mlocked since it was isolated: kept, its putback culls it to LRU_UNEVICTABLE */
	if (page_test(page, PG_mlocked))
		return PAGE_KEEP;
	if (page_test(page, PG_writeback))
		return shrink_writeback_page(mm, page, sc, stat);
	if (!sc->ignore_references) {
		/* someone besides owner and isolation holds it: as a referenced PTE would */
		if (page_count(page) > 2)
			return PAGE_ACTIVATE;
		references = page_check_references(mm, page);
		if (references == PAGEREF_ACTIVATE)
			return PAGE_ACTIVATE;
		if (references == PAGEREF_KEEP)
			return PAGE_KEEP;
	}
	if (!page_is_file_cache(page))
		return shrink_anon_page(mm, page, ops, sc, stat);
	if (page_test(page, PG_dirty)) {
		stat->nr_dirty++;
		return shrink_dirty_file_page(mm, page, ops, sc, priority, references, stat);
	}
	/* try_to_unmap: the owner's reverse map, read before it may let go of the page */
	if (ops->mapcount) {
		unsigned ptes = ops->mapcount(page->owner, page->private, page);

		sc->nr_unmapped_ptes += ptes;
		if (ptes && ops->mm_cpus)
			sc->nr_tlb_ipis += (unsigned long)ptes * ops->mm_cpus(page->owner);
	}
	return remove_mapping(mm, page, ops);
}

/*
 * The owners' data for a batch, asked for at once before the batch is
 * decided page by page (cma_owner_ops prefetch): the pages, just
 * isolated, are in the cache, their owners' lines mostly not, and their
 * misses overlap.
 */
static void prefetch_owners(struct cma_mm *mm, const struct page_list *list)
{
	const struct cma_owner_ops *ops;

	for (struct cma_page *page = page_list_first(mm, list); page; page = page_list_next(mm, page))
		if (page_count(page) > 1 && (ops = page_owner_ops(mm, page))->prefetch)
			ops->prefetch(page->owner, page->private, page);
}

/*
 * One link further on each list walked ahead, the zone's lru_lock held.
 * A page the walk reached may have left the LRU since (the lock was let
 * go between steps): its links are then another list's, under another
 * lock, so the walk stops there. PG_lru changes only under lru_lock.
 */
static void lru_ahead_step_locked(struct lru_ahead *a)
{
	struct cma_page *mem_map = a->zone->mm->mem_map;
	int lru;

	lockdep_assert_held(&a->zone->lru_lock);
	for_each_evictable_lru(lru) {
		if (!a->left[lru])
			continue;
		if (!page_test(mem_map + a->pfn[lru], PG_lru)) {
			a->left[lru] = 0;
			continue;
		}
		a->pfn[lru] = mem_map[a->pfn[lru]].prev;
		if (a->pfn[lru] == PAGE_NIL || !--a->left[lru])
			a->left[lru] = 0;
		else
			prefetchw(mem_map + a->pfn[lru]);
	}
}

/* The walk ahead of @lru's next batch begins at its tail, @zone's lru_lock held. */
static void lru_ahead_start_locked(struct lru_ahead *a, struct zone *zone, enum lru_list lru)
{
	uint32_t tail = zone->lru[lru].tail;

	lockdep_assert_held(&zone->lru_lock);
	if (a->zone != zone)
		*a = (struct lru_ahead){ .zone = zone };
	a->pfn[lru] = tail;
	a->left[lru] = tail == PAGE_NIL ? 0 : SWAP_CLUSTER_MAX;
	if (a->left[lru])
		prefetchw(zone->mm->mem_map + tail);
}

/* While a page is decided: the walks ahead take a link. */
static void lru_ahead_step(struct lru_ahead *a)
{
	if (!a->zone)
		return;
	spin_lock(&a->zone->lru_lock);
	lru_ahead_step_locked(a);
	spin_unlock(&a->zone->lru_lock);
}

/*
 * shrink_page_list: decide each isolated page of @list. The kept ones go
 * onto @ret when given (reclaim_clean_pages_from_list migrates them), else
 * back to the LRU (activated ones to the active list). Returns the pages
 * freed.
 */
static unsigned long shrink_page_list(struct cma_mm *mm, struct page_list *list,
				      struct scan_control *sc, int priority, struct page_list *ret,
				      struct reclaim_stat *stat)
{
	unsigned long nr_reclaimed = 0;
	struct cma_page *page;

	prefetch_owners(mm, list);
	/* a scheduling point per batch (the kernel's also gives way per page) */
	cond_resched(mm);
	while ((page = page_list_first(mm, list))) {
		unsigned long nr = 1ul << page_order(page);

		lru_ahead_step(&sc->ahead);
		page_list_del(mm, list, page);
		if (page_count(page) == 1) {
			/* the owner freed it while it was isolated: let it go */
			isolated_dec(mm, page);
			put_page(mm, page);
			continue;
		}
		switch (shrink_page(mm, page, sc, priority, stat)) {
		case PAGE_FREED:
			nr_reclaimed += nr;
			continue;
		case PAGE_ACTIVATE:
			page_flags_set(page, PG_active);
			count_vm_events(mm, PGACTIVATE, nr);
			stat->nr_activate[page_is_file_cache(page)] += nr;
			break;
		case PAGE_KEEP:
			break;
		}
		if (ret)
			page_list_add_tail(mm, ret, page);
		else
			putback_inactive_page(mm, page);
	}
	return nr_reclaimed;
}

/**
 * reclaim_clean_pages_from_list() - kernel.contig_reclaim_clean (3.7): free
 * the clean file pages of @list, pages alloc_contig_range isolated from
 * @zone, instead of migrating them. Those on the file LRU, not dirty and
 * evictable go through shrink_page_list as direct reclaim with their
 * references ignored (a mapped one is unmapped and freed); what it keeps
 * (under writeback, held by someone else, refused by its owner) goes back
 * on @list to be migrated. NR_ISOLATED_FILE falls by the pages freed; no
 * pgscan or pgsteal event counts them (4.14 and 6.12 alike). Departure:
 * 6.12's shrink_folio_list activates a page under writeback that it keeps
 * (PG_active, pgactivate); shrink_page_list here keeps it as v3.5's does.
 * Returns the pages freed.
 */
unsigned long reclaim_clean_pages_from_list(struct zone *zone, struct page_list *list)
{
	struct scan_control sc = { .gfp_mask = CMA_GFP_KERNEL, .ignore_references = true };
	struct cma_mm *mm = zone->mm;
	struct reclaim_stat stat = { 0 };
	struct page_list clean, kept;
	struct cma_page *page, *next;
	unsigned long nr_reclaimed;

	page_list_init(&clean);
	page_list_init(&kept);
	for (page = page_list_first(mm, list); page; page = next) {
		next = page_list_next(mm, page);
		/* an owned page here is an LRU page, or a hugetlb page (5.13), never reclaimed */
		if (page_is_file_cache(page) && !page_test(page, PG_dirty | PG_mlocked | PG_hugetlb)) {
			page_flags_clear(page, PG_active);
			page_list_del(mm, list, page);
			page_list_add_tail(mm, &clean, page);
		}
	}
	if (page_list_empty(&clean))
		return 0;
	nr_reclaimed = shrink_page_list(mm, &clean, &sc, DEF_PRIORITY, &kept, &stat);
	while ((page = page_list_last(mm, &kept))) {
		page_list_del(mm, &kept, page);
		page_list_add(mm, list, page);
	}
	count_vm_events(mm, CONTIG_RECLAIM_CLEAN, nr_reclaimed);
	count_vm_events(mm, CONTIG_RECLAIM_UNMAPPED_PTES, sc.nr_unmapped_ptes);
	count_vm_events(mm, NR_TLB_REMOTE_FLUSH_RECEIVED, sc.nr_tlb_ipis);
	return nr_reclaimed;
}

/* ---- the LRU lists ---- */

/*
 * v3.5's: the page before @page on its LRU list, the one a scan from the
 * tail looks at next, is asked for while @page is worked on (a cache
 * miss a page: the list's neighbours lie anywhere).
 */
static void prefetchw_prev_lru_page(struct cma_mm *mm, const struct cma_page *page)
{
	if (page->prev != PAGE_NIL)
		prefetchw(mm->mem_map + page->prev);
}

/*
 * isolate_lru_pages: take up to @nr_to_scan pages from the tail of @lru
 * onto @dst, each with a reference. A page whose count is zero is being
 * freed (its last put waits for lru_lock; freezes happen only off the
 * LRU): it is rotated to the head, as the kernel's -EBUSY from
 * __isolate_lru_page does. @lru's walk @ahead starts where this one
 * ends. Returns the pages taken.
 */
static unsigned long isolate_lru_pages(struct zone *zone, enum lru_list lru,
				       unsigned long nr_to_scan, struct page_list *dst,
				       unsigned long *nr_scanned, struct lru_ahead *ahead)
{
	struct cma_mm *mm = zone->mm;
	struct page_list *src = &zone->lru[lru];
	unsigned long scan, taken = 0;
	struct cma_page *page;

	spin_lock(&zone->lru_lock);
	for (scan = 0; scan < nr_to_scan && (page = page_list_last(mm, src)); scan++) {
		prefetchw_prev_lru_page(mm, page);
		if (!get_page_unless_zero(page)) {
			page_list_del(mm, src, page);
			page_list_add(mm, src, page);
			continue;
		}
		del_page_from_lru_list(zone, page, lru);
		page_flags_update(page, PG_lru, PG_isolated);
		page_list_add_tail(mm, dst, page);
		taken++;
	}
	if (taken)
		mod_zone_page_state(zone, is_file_lru(lru) ? NR_ISOLATED_FILE : NR_ISOLATED_ANON,
				    (long)taken);
	lru_ahead_start_locked(ahead, zone, lru);
	spin_unlock(&zone->lru_lock);
	*nr_scanned = scan;
	return taken;
}

/*
 * too_many_isolated (vmscan's): direct reclaimers hold more pages of the
 * list's kind off the LRU than its inactive list has left; kswapd never
 * waits. From 5.16 a look that finds too few wakes who waited for that.
 * Departure: no GFP_NOIO/NOFS allowance (3.19's inactive >>= 3).
 */
static bool too_many_isolated(struct zone *zone, bool file, const struct scan_control *sc)
{
	unsigned long inactive, isolated;
	bool too_many;

	if (sc->kswapd)
		return false;
	inactive = zone_page_state(zone, file ? NR_INACTIVE_FILE : NR_INACTIVE_ANON);
	isolated = zone_page_state(zone, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON);
	too_many = isolated > inactive;
	if (!too_many && zone->mm->kernel.reclaim_throttle)
		wake_throttle_isolated(zone->mm);
	return too_many;
}

/*
 * Direct reclaim waits while too many pages are isolated, on a host clock
 * only (without one, nothing could put them back meanwhile): 3.5-5.15
 * until fewer are (bounded here; the kernel loops), 5.16+ once, giving up
 * the batch if still too many. Returns true to give up.
 */
static bool isolation_throttled(struct zone *zone, bool file, const struct scan_control *sc)
{
	struct cma_mm *mm = zone->mm;

	if (!mm_may_sleep(mm))
		return false;
	for (int tries = 0; too_many_isolated(zone, file, sc); tries++) {
		if (mm->kernel.reclaim_throttle ? tries > 0 : tries == ISOLATED_WAIT_TRIES)
			return true;
		too_many_isolated_wait(mm);
	}
	return false;
}

/*
 * After a batch (3.5-5.15): a zone whose dirty pages the device refused
 * is congested, and a batch with enough pages under writeback (all of it
 * at DEF_PRIORITY, half at the next, ... ) waits for the device. From
 * 5.16 kswapd flags the node PGDAT_WRITEBACK when the whole batch is
 * under writeback, and LRUVEC_NODE_CONGESTED when all its dirty pages
 * are cycling under writeback. Departure: 5.16 sums a node's batches.
 */
static void throttle_after_batch(struct zone *zone, const struct scan_control *sc, int priority,
				 unsigned long nr_taken, const struct reclaim_stat *stat)
{
	struct cma_mm *mm = zone->mm;

	if (mm->kernel.reclaim_throttle) {
		if (!sc->kswapd)
			return;
		if (stat->nr_writeback && stat->nr_writeback == nr_taken)
			atomic_store_explicit(&mm->writeback_flagged, true, memory_order_relaxed);
		if (stat->nr_dirty && stat->nr_dirty == stat->nr_congested)
			atomic_store_explicit(&mm->node_congested, true, memory_order_relaxed);
		return;
	}
	if (stat->nr_dirty && stat->nr_dirty == stat->nr_congested)
		atomic_store_explicit(&zone->congested, true, memory_order_relaxed);
	if (stat->nr_writeback && stat->nr_writeback >= nr_taken >> (DEF_PRIORITY - priority))
		wait_iff_congested(zone, HZ / 10);
}

static unsigned long shrink_inactive_list(struct zone *zone, enum lru_list lru,
					  unsigned long nr_to_scan, struct scan_control *sc,
					  int priority)
{
	struct cma_mm *mm = zone->mm;
	struct reclaim_stat stat = { 0 };
	struct page_list list;
	unsigned long nr_scanned, nr_taken, nr_reclaimed = 0;
	bool file = is_file_lru(lru);

	if (isolation_throttled(zone, file, sc))
		return 0;
	page_list_init(&list);
	lru_add_drain(mm);
	nr_taken = isolate_lru_pages(zone, lru, nr_to_scan, &list, &nr_scanned, &sc->ahead);
	if (nr_taken) {
		nr_reclaimed = shrink_page_list(mm, &list, sc, priority, NULL, &stat);
		throttle_after_batch(zone, sc, priority, nr_taken, &stat);
	}
	lru_note_scan(zone, file, nr_taken, stat.nr_activate[file]);
	/*
	 * The pages reclaim kept. Departure: the scan counts list entries
	 * where 5.8's counts a folio's pages, so a large page freed can
	 * outnumber it: none were kept then (the difference must not wrap).
	 */
	lru_note_cost(zone, file, stat.nr_pageout,
		      nr_scanned > nr_reclaimed ? nr_scanned - nr_reclaimed : 0);
	if (mm->kernel.vmstat_lru_type) {
		count_vm_events(mm, PGSCAN_ANON + file, nr_scanned);
		count_vm_events(mm, PGSTEAL_ANON + file, nr_reclaimed);
	}
	sc->nr_scanned += nr_scanned;
	atomic_fetch_add_explicit(&zone->pages_scanned, nr_scanned, memory_order_relaxed);
	if (nr_scanned)
		count_vm_events(mm, (sc->kswapd ? PGSCAN_KSWAPD_DMA : PGSCAN_DIRECT_DMA) + zone->idx,
				nr_scanned);
	if (nr_reclaimed)
		count_vm_events(mm, (sc->kswapd ? PGSTEAL_KSWAPD_DMA : PGSTEAL_DIRECT_DMA) + zone->idx,
				nr_reclaimed);
	trace_event(mm, CMA_TRACE_MM_VMSCAN_LRU_SHRINK_INACTIVE, shrink,
		    .zid = (int)zone->idx, .nr_scanned = (long)nr_scanned,
		    .nr_reclaimed = (long)nr_reclaimed, .priority = priority, .file = file);
	return nr_reclaimed;
}

/*
 * shrink_active_list (v3.5): age up to @nr_to_scan pages from the tail of
 * the active list @lru to the inactive one, clearing their young bits
 * (page_referenced), so that only a use after this counts when they
 * reach the inactive tail; the referenced ones count as rotated for
 * get_scan_count's v3.5 balance. Without the VM_EXEC rule no page stays. No
 * rmap walk means no reason to drop the lock, so the pages move in place
 * under lru_lock instead of through an isolated list.
 */
static void shrink_active_list(struct zone *zone, enum lru_list lru, unsigned long nr_to_scan,
			       struct scan_control *sc)
{
	struct cma_mm *mm = zone->mm;
	unsigned long scan, nr_deactivated = 0, nr_rotated = 0;

	lru_add_drain(mm);
	spin_lock(&zone->lru_lock);
	for (scan = 0; scan < nr_to_scan; scan++) {
		struct cma_page *page = page_list_last(mm, &zone->lru[lru]);

		if (!page)
			break;
		prefetchw_prev_lru_page(mm, page);
		del_page_from_lru_list(zone, page, lru);
		/* page_referenced and the deactivation: one atomic */
		if (atomic_fetch_and_explicit(&page->flags, ~(uint32_t)(PG_young | PG_active),
					      memory_order_relaxed) & PG_young)
			nr_rotated++;
		add_page_to_lru_list(zone, page, lru - 1);	/* the inactive list of its kind */
		nr_deactivated++;
	}
	lru_ahead_start_locked(&sc->ahead, zone, lru);
	spin_unlock(&zone->lru_lock);
	/* v3.5 counts a referenced page rotated even though (no VM_EXEC here) it goes inactive */
	lru_note_scan(zone, is_file_lru(lru), scan, nr_rotated);
	atomic_fetch_add_explicit(&zone->pages_scanned, scan, memory_order_relaxed);
	if (scan)
		count_vm_events(mm, PGREFILL_DMA + zone->idx, scan);
	if (nr_deactivated)
		count_vm_events(mm, PGDEACTIVATE, nr_deactivated);
}

static bool inactive_anon_is_low(struct zone *zone)
{
	return inactive_list_is_low(zone, false);
}

/* snapshot_refaults (4.12): reclaim has seen the refaults so far. */
static void snapshot_refaults(struct cma_mm *mm)
{
	struct zone *zone;
	uint64_t refaults;

	if (!mm->kernel.inactive_low_refaults)
		return;
	refaults = vm_event_sum(mm, WORKINGSET_ACTIVATE);
	for_each_zone(mm, zone)
		atomic_store_explicit(&zone->refaults, refaults, memory_order_relaxed);
}

static unsigned long shrink_list(struct zone *zone, enum lru_list lru, unsigned long nr_to_scan,
				 struct scan_control *sc, int priority)
{
	if (is_active_lru(lru)) {
		if (inactive_list_is_low(zone, is_file_lru(lru)))
			shrink_active_list(zone, lru, nr_to_scan, sc);
		return 0;
	}
	return shrink_inactive_list(zone, lru, nr_to_scan, sc, priority);
}

/* zone_reclaimable_pages: the LRU pages reclaim could free; anon ones only with swap room. */
unsigned long zone_reclaimable_pages(struct zone *zone)
{
	unsigned long nr = zone_nr_lru_pages(zone, LRU_INACTIVE_FILE) +
			   zone_nr_lru_pages(zone, LRU_ACTIVE_FILE);

	if (swap_room(zone->mm, zone->mm->page_size))
		nr += zone_nr_lru_pages(zone, LRU_INACTIVE_ANON) +
		      zone_nr_lru_pages(zone, LRU_ACTIVE_ANON);
	return nr;
}

/* zone_reclaimable: fewer than six times its reclaimable pages scanned since a page was freed. */
static bool zone_reclaimable(struct zone *zone)
{
	return atomic_load_explicit(&zone->pages_scanned, memory_order_relaxed) <
	       zone_reclaimable_pages(zone) * 6;
}

static bool zone_all_unreclaimable(struct zone *zone)
{
	return atomic_load_explicit(&zone->all_unreclaimable, memory_order_relaxed);
}

/* The kernel's defaults of vm.dirty_ratio and vm.dirty_background_ratio (percent): no sysctl here. */
static const unsigned long vm_dirty_ratio = 20, dirty_background_ratio = 10;

/*
 * global_dirtyable_memory: the free pages and the LRU pages reclaim could
 * free (anonymous ones only with swap room), highmem left out
 * (vm_highmem_is_dirtyable 0), less dirty_balance_reserve (the zones'
 * reserves, totalreserve_pages) as far as they go; never 0. From 3.14
 * (kernel.dirtyable_file_only) the reserve comes off the free pages only
 * and no anonymous page counts.
 */
static unsigned long dirtyable_memory(struct cma_mm *mm)
{
	bool file_only = mm->kernel.dirtyable_file_only;
	unsigned long free = 0, lru = 0, reserve = mm->totalreserve_pages;
	struct zone *zone;

	for_each_populated_zone(mm, zone) {
		if (is_highmem(zone))
			continue;
		free += zone_page_state(zone, NR_FREE_PAGES);
		lru += file_only ? zone_nr_lru_pages(zone, LRU_INACTIVE_FILE) +
				   zone_nr_lru_pages(zone, LRU_ACTIVE_FILE) :
				   zone_reclaimable_pages(zone);
	}
	if (!file_only) {
		free += lru;
		lru = 0;
	}
	return free - (free < reserve ? free : reserve) + lru + 1;
}

void global_dirty_limits(struct cma_mm *mm, unsigned long *background, unsigned long *dirty)
{
	unsigned long available = dirtyable_memory(mm);

	*dirty = available * vm_dirty_ratio / 100;
	*background = available * dirty_background_ratio / 100;
	if (*background >= *dirty)
		*background = *dirty / 2;
}

void cma_mm_dirty_limits(struct cma_mm *mm, uint64_t *background, uint64_t *dirty)
{
	unsigned long bg, thresh;

	global_dirty_limits(mm, &bg, &thresh);
	*background = bg;
	*dirty = thresh;
}

/*
 * throttle_vm_writeout (3.5-4.8, at the end of each zone's shrink; the
 * kernel's is in mm/page-writeback.c, here beside its only caller):
 * while the pages under writeback are more than the dirty threshold and
 * a tenth (page allocators are not to be held up by heavy writers),
 * congestion_wait(HZ/10); a caller that may not start I/O or enter the
 * file system waits once, as it may hold what the writes need. Only on a
 * host's clock: without one nothing sleeps, and nothing would end a
 * write meanwhile. Departure: hard_dirty_limit's global_dirty_limit,
 * which follows a falling threshold down slowly, is the threshold itself.
 */
void throttle_vm_writeout(struct cma_mm *mm, cma_gfp_t gfp)
{
	if (!mm_may_sleep(mm))
		return;
	for (;;) {
		unsigned long background, thresh;

		global_dirty_limits(mm, &background, &thresh);
		if (global_page_state(mm, NR_WRITEBACK) <= thresh + thresh / 10)
			break;
		congestion_wait(mm, HZ / 10);
		/* a polled kswapd's pass ends at its nap; the next one looks again */
		if (mm->kswapd_napping)
			break;
		if ((gfp & (CMA_GFP_FS | CMA_GFP_IO)) != (CMA_GFP_FS | CMA_GFP_IO))
			break;
	}
}

/* The lists a pass will scan are walked ahead from their tails. */
static void lru_ahead_begin(struct zone *zone, struct scan_control *sc, const unsigned long *nr)
{
	int lru;

	spin_lock(&zone->lru_lock);
	for_each_evictable_lru(lru)
		if (nr[lru])
			lru_ahead_start_locked(&sc->ahead, zone, lru);
	spin_unlock(&zone->lru_lock);
}

/* shrink_zone (shrink_mem_cgroup_zone): one pass over @zone's lists at @priority. */
static void shrink_zone(struct zone *zone, struct scan_control *sc, int priority)
{
	unsigned long nr[NR_LRU_LISTS], nr_reclaimed = 0;

	sc->nr_immediate = 0;
	get_scan_count(zone, priority,
		       sc->kswapd && atomic_load_explicit(&zone->all_unreclaimable, memory_order_relaxed),
		       nr);
	lru_ahead_begin(zone, sc, nr);
	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) {
		int lru;

		for_each_evictable_lru(lru) {
			unsigned long nr_to_scan;

			if (!nr[lru])
				continue;
			nr_to_scan = nr[lru] < SWAP_CLUSTER_MAX ? nr[lru] : SWAP_CLUSTER_MAX;
			nr[lru] -= nr_to_scan;
			nr_reclaimed += shrink_list(zone, lru, nr_to_scan, sc, priority);
		}
		/* past the first priority, do not overshoot the target */
		if (nr_reclaimed >= sc->nr_to_reclaim && priority < DEF_PRIORITY)
			break;
	}
	sc->nr_reclaimed += nr_reclaimed;
	/* 4.12's shrink_node: progress, kswapd's or not, revives a node kswapd gave up on */
	if (nr_reclaimed)
		atomic_store_explicit(&zone->mm->kswapd_failures, 0, memory_order_relaxed);
	/* rebalance the anon lists even when they were not scanned */
	if (inactive_anon_is_low(zone))
		shrink_active_list(zone, LRU_ACTIVE_ANON, SWAP_CLUSTER_MAX, sc);
	/* 5.16+: kswapd met pages cycling faster than they are written */
	if (sc->nr_immediate)
		reclaim_throttle(zone->mm, CMA_SLEEP_THROTTLE_WRITEBACK);
	if (!zone->mm->kernel.vm_writeout_unthrottled)
		throttle_vm_writeout(zone->mm, sc->gfp_mask);
}

/* ---- direct reclaim ---- */

/*
 * skip_throttle_noprogress: no use sleeping when kswapd gave the node up
 * (near OOM), or when writes pending are at most half the reclaimable
 * pages: those throttle as they reach the LRU's tail.
 */
static bool skip_throttle_noprogress(struct cma_mm *mm)
{
	unsigned long reclaimable = 0, write_pending = 0;
	struct zone *zone;

	if (kswapd_hopeless(mm))
		return true;
	for_each_populated_zone(mm, zone) {
		reclaimable += zone_reclaimable_pages(zone);
		write_pending += zone_write_pending(zone);
	}
	return 2 * write_pending <= reclaimable;
}

/*
 * consider_reclaim_throttle (5.16): direct reclaim freeing more than one
 * page in eight it scans wakes those that made no progress; one that
 * freed nothing at priority 1 sleeps a jiffy.
 */
static void consider_reclaim_throttle(struct cma_mm *mm, const struct scan_control *sc,
				      int priority)
{
	if (sc->nr_reclaimed > (sc->nr_scanned >> 3)) {
		wake_up_sleepers(mm, CMA_SLEEP_THROTTLE_NOPROGRESS);
		return;
	}
	if (priority == 1 && !sc->nr_reclaimed && !skip_throttle_noprogress(mm))
		reclaim_throttle(mm, CMA_SLEEP_THROTTLE_NOPROGRESS);
}

/*
 * shrink_zones: shrink the populated zones up to gfp_zone, highest first;
 * past the first priority a zone kswapd gave up on (all_unreclaimable)
 * is left to kswapd.
 */
static void shrink_zones(struct cma_mm *mm, struct scan_control *sc, int priority)
{
	for (int i = gfp_zone(mm, sc->gfp_mask); i >= 0; i--) {
		struct zone *zone = &mm->zones[i];

		if (!zone->present_pages)
			continue;
		if (zone_all_unreclaimable(zone) && priority != DEF_PRIORITY)
			continue;
		shrink_zone(zone, sc, priority);
	}
	if (!mm->kernel.reclaim_throttle)
		return;
	/* shrink_node's end: wait for I/O while kswapd finds the node congested */
	if (atomic_load_explicit(&mm->node_congested, memory_order_relaxed) &&
	    !skip_throttle_noprogress(mm))
		reclaim_throttle(mm, CMA_SLEEP_THROTTLE_CONGESTED);
	consider_reclaim_throttle(mm, sc, priority);
}

/*
 * all_unreclaimable: every zone the request may use was given up on.
 * Departure: a zone kswapd would give up on at its next look
 * (!zone_reclaimable) counts too, whether kswapd has looked or not: a
 * machine without a kswapd thread (none, or a polled one between its
 * passes) could otherwise never reach the OOM handler, and a caller that
 * loops on progress (__reclaim_pages) never return.
 */
static bool all_unreclaimable(struct cma_mm *mm, cma_gfp_t gfp)
{
	for (int i = gfp_zone(mm, gfp); i >= 0; i--) {
		struct zone *zone = &mm->zones[i];

		if (zone->present_pages && !zone_all_unreclaimable(zone) && zone_reclaimable(zone))
			return false;
	}
	return true;
}

/*
 * The zone 6.12 counts a direct reclaim's stall under: gfp_zone() of the
 * request, whose table sends __GFP_HIGHMEM | __GFP_MOVABLE to
 * ZONE_MOVABLE (the model's gfp_zone, which places pages, leaves that out).
 */
static enum zone_type stall_zone(struct cma_mm *mm, cma_gfp_t gfp)
{
	if ((gfp & CMA_GFP_HIGHMEM) && (gfp & CMA_GFP_MOVABLE))
		return ZONE_MOVABLE;
	return gfp_zone(mm, gfp);
}

/*
 * do_try_to_free_pages (v3.5): priority 12 down to 0 until the target is
 * freed. The progress reported is the pages freed, or 1 when nothing was
 * freed but some zone is still worth scanning: only a machine whose zones
 * are all_unreclaimable lets the caller go on to the OOM handler. From
 * 4.9 (kernel.reclaim_retry) only the pages freed: should_reclaim_retry
 * judges what is left. From 6.11 (kernel.reclaim_full_walk) a run that
 * freed nothing goes round once more, its stall counted again.
 */
static unsigned long do_try_to_free_pages(struct cma_mm *mm, struct scan_control *sc)
{
	trace_event(mm, CMA_TRACE_MM_VMSCAN_DIRECT_RECLAIM_BEGIN, reclaim,
		    .order = sc->order, .gfp_flags = sc->gfp_mask);
	for (bool full_walk = false;; full_walk = true) {
		count_vm_event(mm, ALLOCSTALL);
		count_vm_event(mm, ALLOCSTALL_DMA + stall_zone(mm, sc->gfp_mask));
		for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
			shrink_zones(mm, sc, priority);
			if (sc->nr_reclaimed >= sc->nr_to_reclaim)
				break;
		}
		if (sc->nr_reclaimed || full_walk || !mm->kernel.reclaim_full_walk)
			break;
	}
	trace_event(mm, CMA_TRACE_MM_VMSCAN_DIRECT_RECLAIM_END, reclaim, .nr_reclaimed = sc->nr_reclaimed);
	snapshot_refaults(mm);
	if (sc->nr_reclaimed || mm->kernel.reclaim_retry)
		return sc->nr_reclaimed;
	return !all_unreclaimable(mm, sc->gfp_mask);
}

/**
 * try_to_free_pages() - direct reclaim of @nr pages from the zones up to
 * gfp_zone(@gfp). Returns the progress as v3.5 counts it (see
 * do_try_to_free_pages); dirty file pages are never written here.
 */
unsigned long try_to_free_pages(struct cma_mm *mm, unsigned long nr, cma_gfp_t gfp, unsigned order)
{
	struct scan_control sc = { .nr_to_reclaim = nr, .gfp_mask = gfp, .order = order };

	return do_try_to_free_pages(mm, &sc);
}

/**
 * __perform_reclaim() - direct synchronous page reclaim (seed 007): a
 * batch of SWAP_CLUSTER_MAX pages. Returns the progress made (pages
 * freed, or 1 while a zone is still reclaimable); draining the per-CPU lists afterwards is the caller's. There
 * is no reclaim_state or PF_MEMALLOC here, and cond_resched has nothing
 * to give way to.
 */
int __perform_reclaim(struct cma_mm *mm, cma_gfp_t gfp, unsigned order)
{
	return (int)try_to_free_pages(mm, SWAP_CLUSTER_MAX, gfp, order);
}

/**
 * cma_try_to_free_pages() - try_to_free_pages() after lru_add_drain_all,
 * for order 0: reclaim at least @nr pages from the zones @gfp may use.
 * Returns the pages freed (they sit on the per-CPU lists until drained).
 */
unsigned long cma_try_to_free_pages(struct cma_mm *mm, unsigned long nr, cma_gfp_t gfp)
{
	struct scan_control sc = { .nr_to_reclaim = nr, .gfp_mask = gfp };

	if (mm_require_phase(mm, MM_BOOTED, "cma_try_to_free_pages") || !nr)
		return 0;
	lru_add_drain_all(mm);
	do_try_to_free_pages(mm, &sc);
	return sc.nr_reclaimed;
}

/* ---- kswapd ---- */

/* The gap above the high mark a zone must clear before kswapd leaves it alone. */
#define KSWAPD_ZONE_BALANCE_GAP_RATIO	100
/*
 * Departure: balance_pgdat starts over (loop_again) at most this many
 * times per call, so that a polled kswapd or cma_kswapd_step() always
 * returns; v3.5 loops until balanced or all zones are all_unreclaimable,
 * which in practice comes long before.
 */
#define MAX_BALANCE_LOOPS		256

/* age_active_anon: with swap, keep some anon pages inactive, where they can be referenced. */
static void age_active_anon(struct zone *zone, struct scan_control *sc)
{
	if (inactive_anon_is_low(zone))
		shrink_active_list(zone, LRU_ACTIVE_ANON, SWAP_CLUSTER_MAX, sc);
}

/* min(low mark, 1% of the zone: present pages in v3.5, managed from 3.9) */
static unsigned long balance_gap(const struct zone *zone)
{
	unsigned long gap = (zone_sizing_pages(zone) + KSWAPD_ZONE_BALANCE_GAP_RATIO - 1) /
			    KSWAPD_ZONE_BALANCE_GAP_RATIO;

	return gap < wmark(zone, WMARK_LOW) ? gap : wmark(zone, WMARK_LOW);
}

/*
 * pgdat_balanced: for a high order, balanced zones holding a quarter of
 * the pages suffice (zone sizes as zone_sizing_pages: managed from 3.9).
 */
static bool pgdat_balanced(struct cma_mm *mm, unsigned long balanced_pages, int classzone_idx)
{
	unsigned long pages = 0;

	for (int i = 0; i <= classzone_idx; i++)
		pages += zone_sizing_pages(&mm->zones[i]);
	return balanced_pages >= pages >> 2;
}

/*
 * sleeping_prematurely: would kswapd go to sleep with a zone up to
 * @classzone_idx unbalanced? Not on a node it gave up on (4.12): direct
 * reclaim has it.
 */
static bool sleeping_prematurely(struct cma_mm *mm, unsigned order, int classzone_idx)
{
	unsigned long balanced = 0;
	bool all_zones_ok = true;

	if (kswapd_hopeless(mm))
		return false;
	for (int i = 0; i <= classzone_idx; i++) {
		struct zone *zone = &mm->zones[i];

		if (!zone->present_pages)
			continue;
		/* balance_pgdat skips these after the first priority: they count as balanced */
		if (zone_all_unreclaimable(zone) ||
		    zone_watermark_ok(zone, order, wmark(zone, WMARK_HIGH), i, 0))
			balanced += zone_sizing_pages(zone);
		else
			all_zones_ok = false;
	}
	return order ? !pgdat_balanced(mm, balanced, classzone_idx) : !all_zones_ok;
}

struct balance_state {
	unsigned order;
	int classzone_idx;		/* in: the requests'; out: the last zone balanced (end_zone) */
	unsigned long nr_reclaimed;	/* over all the loops */
	int priority;			/* the first loop's first: a napped pass goes on where it slept */
};

/*
 * One loop of balance_pgdat over the priorities: find the highest zone
 * below its high mark (end_zone), then shrink each zone up to it, from
 * the lowest, that is below high + balance gap with end_zone's
 * lowmem_reserve (for a high order that compaction could serve, at order
 * 0). kswapd marks a zone all_unreclaimable once it scanned six times its
 * reclaimable pages (until 4.12, kernel.kswapd_failures). Returns whether
 * the machine is balanced; *@end_zone and *@priority are where the loop
 * stopped.
 */
/*
 * clear_pgdat_congested (5.16): a node whose zones up to @classzone_idx
 * all meet their high marks is no longer congested or flagged; zones
 * given up on (all_unreclaimable) do not count as balanced here, as they
 * do not for 5.16's pgdat_balanced.
 */
static void clear_pgdat_congested(struct cma_mm *mm, int classzone_idx)
{
	for (int i = 0; i <= classzone_idx; i++) {
		struct zone *zone = &mm->zones[i];

		if (zone->present_pages &&
		    !zone_watermark_ok(zone, 0, wmark(zone, WMARK_HIGH), classzone_idx, 0))
			return;
	}
	atomic_store_explicit(&mm->node_congested, false, memory_order_relaxed);
	atomic_store_explicit(&mm->writeback_flagged, false, memory_order_relaxed);
}

/*
 * kswapd in trouble (3.5-3.8) waits for the device, unless a zone is
 * under its min mark, where it counts the wait it skipped. Only on a host
 * clock; the counter is kept either way. 3.9 dropped both.
 */
static void kswapd_congestion_wait(struct cma_mm *mm, bool under_min)
{
	if (mm->kernel.kswapd_balance_nowait)
		return;
	if (under_min)
		count_vm_event(mm, KSWAPD_SKIP_CONGESTION_WAIT);
	else
		congestion_wait(mm, HZ / 10);
}

/* A napping pass goes on at the priority after @priority's round when polled again. */
static bool kswapd_nap_at(struct cma_mm *mm, int priority)
{
	spin_lock(&mm->kswapd_lock);
	mm->kswapd_nap_priority = priority > 0 ? priority - 1 : 0;
	spin_unlock(&mm->kswapd_lock);
	return false;
}

static bool balance_pgdat_loop(struct cma_mm *mm, struct balance_state *b, struct scan_control *sc,
			       int *end_zone, int *priority)
{
	unsigned order = b->order;

	for (*priority = b->priority; *priority >= 0; (*priority)--) {
		unsigned long balanced = 0;
		bool all_zones_ok = true, under_min = false;
		int i;

		for (i = MAX_NR_ZONES - 1; i >= 0; i--) {
			struct zone *zone = &mm->zones[i];

			if (!zone->present_pages ||
			    (zone_all_unreclaimable(zone) && *priority != DEF_PRIORITY))
				continue;
			age_active_anon(zone, sc);
			if (!zone_watermark_ok(zone, order, wmark(zone, WMARK_HIGH), 0, 0)) {
				*end_zone = i;
				break;
			}
		}
		if (i < 0)
			return true;

		for (i = 0; i <= *end_zone; i++) {
			struct zone *zone = &mm->zones[i];
			unsigned testorder = order;

			if (!zone->present_pages ||
			    (zone_all_unreclaimable(zone) && *priority != DEF_PRIORITY))
				continue;
			/* kswapd reclaims order-0 pages for compaction to assemble */
			if (order && compaction_suitable(zone, (int)order) != COMPACT_SKIPPED)
				testorder = 0;
			if (!zone_watermark_ok(zone, testorder, wmark(zone, WMARK_HIGH) + balance_gap(zone),
					       *end_zone, 0)) {
				/* 3.11: a zone's high mark at each priority (kswapd_shrink_zone) */
				if (mm->kernel.kswapd_reclaim_target)
					sc->nr_to_reclaim = wmark(zone, WMARK_HIGH) > SWAP_CLUSTER_MAX ?
							    wmark(zone, WMARK_HIGH) : SWAP_CLUSTER_MAX;
				shrink_zone(zone, sc, *priority);
				if (mm->kswapd_napping)
					return kswapd_nap_at(mm, *priority);
				if (!mm->kernel.kswapd_failures && !zone_reclaimable(zone))
					atomic_store_explicit(&zone->all_unreclaimable, true,
							      memory_order_relaxed);
			}
			if (zone_all_unreclaimable(zone)) {
				if (*end_zone && *end_zone == i)
					(*end_zone)--;
				continue;
			}
			if (!zone_watermark_ok(zone, testorder, wmark(zone, WMARK_HIGH), *end_zone, 0)) {
				all_zones_ok = false;
				if (!zone_watermark_ok(zone, order, wmark(zone, WMARK_MIN), *end_zone, 0))
					under_min = true;
			} else {
				atomic_store_explicit(&zone->congested, false, memory_order_relaxed);
				if (i <= b->classzone_idx)
					balanced += zone_sizing_pages(zone);
			}
		}
		if (all_zones_ok || (order && pgdat_balanced(mm, balanced, b->classzone_idx))) {
			clear_pgdat_congested(mm, b->classzone_idx);
			return true;
		}
		if (sc->nr_scanned && *priority < DEF_PRIORITY - 2)
			kswapd_congestion_wait(mm, under_min);
		if (mm->kswapd_napping)
			return kswapd_nap_at(mm, *priority);
		/* start over at DEF_PRIORITY rather than build up pressure */
		if (sc->nr_reclaimed >= SWAP_CLUSTER_MAX)
			break;
	}
	return false;
}

/*
 * For a high order reached without every zone at its order-0 high mark:
 * go on at order 0 (start over), or reclaim until compaction has room;
 * then compact when no zone has the order free above its low mark.
 * Returns true to start over.
 */
static bool balance_pgdat_high_order(struct cma_mm *mm, struct balance_state *b,
				     int end_zone, int priority)
{
	bool need_compaction = true;

	for (int i = 0; i <= end_zone; i++) {
		struct zone *zone = &mm->zones[i];

		if (!zone->present_pages || (zone_all_unreclaimable(zone) && priority != DEF_PRIORITY))
			continue;
		if (compaction_suitable(zone, (int)b->order) == COMPACT_SKIPPED)
			return true;
		if (!zone_watermark_ok(zone, 0, wmark(zone, WMARK_HIGH), 0, 0)) {
			b->order = 0;
			return true;
		}
		if (zone_watermark_ok(zone, b->order, wmark(zone, WMARK_LOW), b->classzone_idx, 0))
			need_compaction = false;
	}
	if (need_compaction)
		compact_pgdat(mm, b->order);
	return false;
}

/*
 * 4.12 (kernel.kswapd_failures): a run over the priorities that ended
 * unbalanced having freed nothing (@freed 0) counts against the node.
 * Returns true once that gave the node up: kswapd stops.
 */
static bool kswapd_run_failed(struct cma_mm *mm, unsigned long freed)
{
	if (!mm->kernel.kswapd_failures || freed)
		return false;
	atomic_fetch_add_explicit(&mm->kswapd_failures, 1, memory_order_relaxed);
	return kswapd_hopeless(mm);
}

/*
 * kernel.watermark_boost: the boosts seen when kswapd started, reclaimed
 * by its pass as part of the high marks, are taken back (6.12's
 * balance_pgdat; a boost raised meanwhile stays for the next pass).
 * Departure: the boosted pass reclaims as any other, where 6.12's
 * neither writes back nor swaps for a boost.
 */
static void reset_watermark_boosts(struct cma_mm *mm, const unsigned long *boosts)
{
	struct zone *zone;

	for_each_zone(mm, zone) {
		if (!boosts[zone->idx])
			continue;
		spin_lock(&zone->lock);
		__atomic_store_n(&zone->watermark_boost, zone->watermark_boost -
				 (boosts[zone->idx] < zone->watermark_boost ? boosts[zone->idx] :
				  zone->watermark_boost), __ATOMIC_RELAXED);
		spin_unlock(&zone->lock);
	}
}

/*
 * balance_pgdat (v3.5): loop over the priorities until the zones up to the
 * requests' classzone are at their high marks (for a high order, a
 * quarter of the pages in balanced zones), starting over at DEF_PRIORITY
 * after each SWAP_CLUSTER_MAX pages reclaimed, until balanced or every
 * zone is all_unreclaimable. A high order that stays unbalanced after a
 * loop that freed less than a batch falls back to order 0. kswapd may
 * write dirty file pages back at priorities below DEF_PRIORITY - 2.
 * From 4.12 (kernel.kswapd_failures) each loop stands for one of
 * kswapd's runs (3.11 made each loop a balance_pgdat of its own, the
 * kswapd thread looping while unbalanced) and counts against the node
 * when it freed nothing (departure: a polled pass's loop cut by a nap
 * counts each part alone, so a part after the nap that freed nothing
 * counts, one failure early at most: what the part before it freed had
 * reset the count), and a loop that went through every priority and
 * another follows counts kswapd_high_wmark_hit_quickly, as the thread's
 * try to sleep between runs does; the node given up ends the pass.
 * Returns the order it balanced at; b->classzone_idx becomes end_zone.
 */
static unsigned balance_pgdat(struct cma_mm *mm, struct balance_state *b)
{
	int end_zone = 0, priority = DEF_PRIORITY;
	unsigned long boosts[MAX_NR_ZONES];
	struct zone *zone;

	for_each_zone(mm, zone)
		boosts[zone->idx] = __atomic_load_n(&zone->watermark_boost, __ATOMIC_RELAXED);

	for (int loops = 0; loops < MAX_BALANCE_LOOPS; loops++) {
		struct scan_control sc = {
			.nr_to_reclaim = ULONG_MAX, .gfp_mask = CMA_GFP_KERNEL, .order = b->order,
			.kswapd = true,
		};
		bool balanced;

		count_vm_event(mm, PAGEOUTRUN);
		balanced = balance_pgdat_loop(mm, b, &sc, &end_zone, &priority);
		b->nr_reclaimed += sc.nr_reclaimed;
		b->priority = DEF_PRIORITY;
		if (mm->kswapd_napping)
			break;
		if (!balanced) {
			if (sc.nr_reclaimed < SWAP_CLUSTER_MAX)
				b->order = 0;
			if (kswapd_run_failed(mm, sc.nr_reclaimed))
				break;
			/* 4.12: a whole run left it unbalanced, so kswapd's try to sleep was premature */
			if (mm->kernel.kswapd_failures && priority < 0)
				count_vm_event(mm, KSWAPD_HIGH_WMARK_HIT_QUICKLY);
			continue;
		}
		if (!b->order || !balance_pgdat_high_order(mm, b, end_zone, priority))
			break;
	}
	b->classzone_idx = end_zone;
	snapshot_refaults(mm);
	/* a napping pass is not over: the boosts go when it is */
	if (!mm->kswapd_napping)
		reset_watermark_boosts(mm, boosts);
	return b->order;
}

/* One wakeup's work, as @b asks; the pages freed. */
static unsigned long kswapd_balance(struct cma_mm *mm, struct balance_state *b)
{
	trace_event(mm, CMA_TRACE_MM_VMSCAN_KSWAPD_WAKE, reclaim, .order = b->order);
	balance_pgdat(mm, b);
	return b->nr_reclaimed;
}

/**
 * cma_kswapd_step() - one balance_pgdat() at order 0 in the calling
 * thread, as kswapd would run it on a wakeup: a deterministic stand-in
 * for the thread. Returns the pages freed.
 */
unsigned long cma_kswapd_step(struct cma_mm *mm)
{
	struct balance_state b = { .order = 0, .classzone_idx = MAX_NR_ZONES - 1, .priority = DEF_PRIORITY };

	if (mm_require_phase(mm, MM_BOOTED, "cma_kswapd_step"))
		return 0;
	return kswapd_balance(mm, &b);
}

/* Take the order and classzone asked for since kswapd last looked. Under kswapd's lock. */
static void kswapd_take_request(struct cma_mm *mm, unsigned *order, int *classzone_idx)
{
	*order = mm->kswapd_max_order;
	*classzone_idx = mm->kswapd_classzone_idx;
	mm->kswapd_max_order = 0;
	mm->kswapd_classzone_idx = MAX_NR_ZONES - 1;
}

/* kswapd sleeps until woken: what compaction found unusable may be usable after the reclaim (6.12). */
static void kswapd_going_to_sleep(struct cma_mm *mm)
{
	reset_isolation_suitable(mm);
	trace_event(mm, CMA_TRACE_MM_VMSCAN_KSWAPD_SLEEP, reclaim, .zid = 0);
}

/*
 * kswapd_try_to_sleep, with kswapd_mutex held: unless the zones kswapd
 * balanced are still short (then it goes straight back to work), sleep
 * until woken or told to stop.
 */
static void kswapd_try_to_sleep(struct cma_mm *mm, unsigned order, int classzone_idx)
{
	if (mm->kswapd_should_stop)
		return;
	if (sleeping_prematurely(mm, order, classzone_idx)) {
		count_vm_event(mm, KSWAPD_HIGH_WMARK_HIT_QUICKLY);
		return;
	}
	kswapd_going_to_sleep(mm);
	while (!mm->kswapd_woken && !mm->kswapd_should_stop)
		pthread_cond_wait(&mm->kswapd_wait, &mm->kswapd_mutex);
}

/*
 * kswapd() (v3.5): balance at the largest order asked for; a request for
 * a higher order or a lower classzone arriving meanwhile is served
 * without sleeping in between.
 */
static void *kswapd(void *arg)
{
	struct cma_mm *mm = arg;
	unsigned order = 0, new_order = 0, balanced_order = 0;
	int classzone_idx = MAX_NR_ZONES - 1, new_classzone_idx = MAX_NR_ZONES - 1;
	int balanced_classzone_idx = MAX_NR_ZONES - 1;

	for (;;) {
		struct balance_state b;

		pthread_mutex_lock(&mm->kswapd_mutex);
		if (balanced_classzone_idx >= new_classzone_idx && balanced_order == new_order)
			kswapd_take_request(mm, &new_order, &new_classzone_idx);
		if (order < new_order || classzone_idx > new_classzone_idx) {
			order = new_order;
			classzone_idx = new_classzone_idx;
		} else {
			kswapd_try_to_sleep(mm, balanced_order, balanced_classzone_idx);
			kswapd_take_request(mm, &order, &classzone_idx);
			new_order = order;
			new_classzone_idx = classzone_idx;
		}
		mm->kswapd_woken = false;
		if (mm->kswapd_should_stop) {
			pthread_mutex_unlock(&mm->kswapd_mutex);
			return NULL;
		}
		pthread_mutex_unlock(&mm->kswapd_mutex);

		trace_event(mm, CMA_TRACE_MM_VMSCAN_KSWAPD_WAKE, reclaim, .order = order);
		b = (struct balance_state){ .order = order, .classzone_idx = classzone_idx,
					     .priority = DEF_PRIORITY };
		atomic_store_explicit(&mm->kswapd_balancing, true, memory_order_relaxed);
		balanced_order = balance_pgdat(mm, &b);
		atomic_store_explicit(&mm->kswapd_balancing, false, memory_order_relaxed);
		balanced_classzone_idx = b.classzone_idx;
	}
}

static void kswapd_set_state(struct cma_mm *mm, int state)
{
	spin_lock(&mm->kswapd_lock);
	atomic_store_explicit(&mm->kswapd_state, state, memory_order_relaxed);
	spin_unlock(&mm->kswapd_lock);
}

/**
 * cma_kswapd_start() - start the machine's kswapd thread (kswapd_run).
 * 0, -EBUSY if it runs already, -EINVAL before boot, or the negative
 * error of pthread_create.
 */
int cma_kswapd_start(struct cma_mm *mm)
{
	int ret;

	if (mm_require_phase(mm, MM_BOOTED, "cma_kswapd_start"))
		return -EINVAL;
	spin_lock(&mm->kswapd_lock);
	ret = atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed) == KSWAPD_STOPPED ?
	      0 : -EBUSY;
	if (!ret)
		atomic_store_explicit(&mm->kswapd_state, KSWAPD_STARTING, memory_order_relaxed);
	spin_unlock(&mm->kswapd_lock);
	if (ret)
		return ret;

	pthread_mutex_init(&mm->kswapd_mutex, NULL);
	pthread_cond_init(&mm->kswapd_wait, NULL);
	mm->kswapd_woken = mm->kswapd_should_stop = false;
	mm->kswapd_max_order = 0;
	mm->kswapd_classzone_idx = MAX_NR_ZONES - 1;
	ret = -pthread_create(&mm->kswapd_thread, NULL, kswapd, mm);
	if (ret) {
		cma_mm_pr_err(mm, "kswapd: could not start the thread (error %d)\n", -ret);
		pthread_cond_destroy(&mm->kswapd_wait);
		pthread_mutex_destroy(&mm->kswapd_mutex);
		kswapd_set_state(mm, KSWAPD_STOPPED);
		return ret;
	}
	kswapd_set_state(mm, KSWAPD_RUNNING);
	return 0;
}

/**
 * cma_kswapd_stop() - stop and join the kswapd thread (kswapd_stop). Does
 * nothing when none runs; waits for a concurrent start or stop to finish.
 */
void cma_kswapd_stop(struct cma_mm *mm)
{
	int state;

	if (!mm)
		return;
	for (;;) {
		spin_lock(&mm->kswapd_lock);
		state = atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed);
		if (state == KSWAPD_RUNNING)
			atomic_store_explicit(&mm->kswapd_state, KSWAPD_STOPPING, memory_order_relaxed);
		if (state == KSWAPD_POLLED)
			atomic_store_explicit(&mm->kswapd_state, state = KSWAPD_STOPPED, memory_order_relaxed);
		spin_unlock(&mm->kswapd_lock);
		if (state == KSWAPD_RUNNING)
			break;
		if (state == KSWAPD_STOPPED)
			return;
		sched_yield();
	}
	/* no waker touches the mutex once the state left RUNNING */
	pthread_mutex_lock(&mm->kswapd_mutex);
	mm->kswapd_should_stop = true;
	pthread_cond_signal(&mm->kswapd_wait);
	pthread_mutex_unlock(&mm->kswapd_mutex);
	pthread_join(mm->kswapd_thread, NULL);
	pthread_cond_destroy(&mm->kswapd_wait);
	pthread_mutex_destroy(&mm->kswapd_mutex);
	kswapd_set_state(mm, KSWAPD_STOPPED);
}

/* A request of @order for @classzone_idx: kswapd will balance for it. Under kswapd's lock. */
static void kswapd_raise_request(struct cma_mm *mm, unsigned order, int classzone_idx)
{
	if (mm->kswapd_max_order < order) {
		mm->kswapd_max_order = order;
		if (mm->kswapd_classzone_idx > classzone_idx)
			mm->kswapd_classzone_idx = classzone_idx;
	}
}

/*
 * Departure: a machine without kswapd has no one to reclaim a boost
 * (kernel.watermark_boost), which would hold its marks up for good; the
 * wakeup that would have handed the boost to kswapd drops it instead.
 */
static void drop_watermark_boost(struct zone *zone)
{
	if (!__atomic_load_n(&zone->watermark_boost, __ATOMIC_RELAXED))
		return;
	spin_lock(&zone->lock);
	__atomic_store_n(&zone->watermark_boost, 0, __ATOMIC_RELAXED);
	spin_unlock(&zone->lock);
}

static bool zone_boosted(struct zone *zone)
{
	return __atomic_load_n(&zone->watermark_boost, __ATOMIC_RELAXED);
}

/*
 * Does a request of @order, first zone @classzone_idx, want kswapd for
 * @zone? Never once kswapd gave the node up (4.12,
 * kernel.kswapd_failures). v3.5: @zone is below its low mark; from 3.12
 * (kernel.kswapd_wake_high) below its high mark, the one kswapd
 * balances to; from 4.8 (kernel.kswapd_wake_node) no zone up to the
 * classzone meets its high mark with the classzone's lowmem reserve. A
 * boosted zone (kernel.watermark_boost, 5.0) wants it too: @zone, or
 * under the node's rule any zone up to the classzone
 * (pgdat_watermark_boosted).
 */
static bool kswapd_wanted(struct cma_mm *mm, struct zone *zone, unsigned order, int classzone_idx)
{
	bool balanced = false;

	if (kswapd_hopeless(mm))
		return false;
	if (!mm->kernel.kswapd_wake_node)
		return zone_boosted(zone) ||
		       !zone_watermark_ok(zone, order,
					  wmark(zone, mm->kernel.kswapd_wake_high ? WMARK_HIGH : WMARK_LOW),
					  0, 0);
	for (int i = 0; i <= classzone_idx; i++) {
		struct zone *z = &mm->zones[i];

		if (!z->present_pages)
			continue;
		if (zone_boosted(z))
			return true;
		balanced |= zone_watermark_ok(z, order, wmark(z, WMARK_HIGH), classzone_idx, 0);
	}
	return !balanced;
}

/**
 * wakeup_kswapd() - a request of @order, whose first zone is
 * @classzone_idx, may use @zone: as v3.5, raise kswapd_max_order (and
 * lower the classzone with it) whatever the zone's state, and wake
 * kswapd if kswapd_wanted() says so. Nothing happens when no kswapd
 * runs. mm_vmscan_wakeup_kswapd is traced, as the kernel traces it only
 * for a kswapd asleep on its waitqueue, when a polled kswapd was neither
 * woken already nor in its pass; departure: a kswapd thread's every
 * wakeup is traced, asleep or not.
 */
void wakeup_kswapd(struct cma_mm *mm, struct zone *zone, unsigned order, int classzone_idx)
{
	int state = atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed);
	bool low, woke = false, traced = false;

	if (!zone->present_pages)
		return;
	if (state != KSWAPD_RUNNING && state != KSWAPD_POLLED) {
		drop_watermark_boost(zone);
		return;
	}
	low = kswapd_wanted(mm, zone, order, classzone_idx);
	/* kswapd_lock keeps the mutex alive: stop destroys it only after leaving RUNNING */
	spin_lock(&mm->kswapd_lock);
	state = atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed);
	if (state == KSWAPD_POLLED) {
		kswapd_raise_request(mm, order, classzone_idx);
		woke = low && !mm->kswapd_woken;
		mm->kswapd_woken |= low;
		/* asleep, as on its waitqueue: not woken yet, and not in its pass */
		traced = woke && !atomic_load_explicit(&mm->kswapd_balancing, memory_order_relaxed);
	} else if (state == KSWAPD_RUNNING) {
		pthread_mutex_lock(&mm->kswapd_mutex);
		kswapd_raise_request(mm, order, classzone_idx);
		if (low) {
			mm->kswapd_woken = true;
			pthread_cond_signal(&mm->kswapd_wait);
		}
		pthread_mutex_unlock(&mm->kswapd_mutex);
		traced = low;
	}
	spin_unlock(&mm->kswapd_lock);
	if (traced)
		trace_event(mm, CMA_TRACE_MM_VMSCAN_WAKEUP_KSWAPD, reclaim, .zid = (int)zone->idx,
			    .order = order);
	/* the polled kswapd sleeps in its host: the wake_up_interruptible that runs it */
	if (woke && mm->sleep_ops.wake)
		mm->sleep_ops.wake(mm->sleep_ctx, CMA_SLEEP_KSWAPD);
}

/**
 * cma_kswapd_start_polled() - kswapd without a thread, for deterministic
 * callers (a simulator on a virtual clock): allocations wake it as they
 * would the thread, and cma_kswapd_poll() runs the pass a wakeup asked
 * for. cma_kswapd_stop() ends it. -EBUSY if kswapd already runs.
 */
int cma_kswapd_start_polled(struct cma_mm *mm)
{
	int ret;

	if (mm_require_phase(mm, MM_BOOTED, "cma_kswapd_start_polled"))
		return -EINVAL;
	spin_lock(&mm->kswapd_lock);
	ret = atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed) == KSWAPD_STOPPED ?
	      0 : -EBUSY;
	if (!ret) {
		mm->kswapd_woken = false;
		mm->kswapd_short_nap = false;
		mm->kswapd_max_order = 0;
		mm->kswapd_classzone_idx = MAX_NR_ZONES - 1;
		atomic_store_explicit(&mm->kswapd_state, KSWAPD_POLLED, memory_order_relaxed);
	}
	spin_unlock(&mm->kswapd_lock);
	return ret;
}

/*
 * kswapd_try_to_sleep's first step for the polled kswapd, after a pass
 * that left the node balanced: on a host's clock it sleeps HZ/10 on its
 * waitqueue (kswapd_short_nap), where a wakeup finds it; without a clock
 * nothing sleeps, and it waits for a wakeup as before.
 */
static void kswapd_short_nap_start(struct cma_mm *mm, const struct balance_state *b)
{
	if (!mm_may_sleep(mm) || sleeping_prematurely(mm, b->order, b->classzone_idx))
		return;
	spin_lock(&mm->kswapd_lock);
	mm->kswapd_short_nap = true;
	mm->kswapd_nap_order = b->order;
	mm->kswapd_nap_classzone = b->classzone_idx;
	spin_unlock(&mm->kswapd_lock);
	kswapd_schedule_timeout(mm, HZ / 10);
}

/*
 * The polled kswapd's HZ/10 sleep after balancing @order for
 * @classzone_idx is over: a wakeup during it counts
 * kswapd_low_wmark_hit_quickly, a node unbalanced again at its end
 * kswapd_high_wmark_hit_quickly, and either sends kswapd back to work
 * (true); else it goes to sleep until woken (the thread's
 * kswapd_try_to_sleep).
 */
static bool kswapd_short_nap_end(struct cma_mm *mm, bool woken, unsigned order, int classzone_idx)
{
	if (woken) {
		count_vm_event(mm, KSWAPD_LOW_WMARK_HIT_QUICKLY);
		return true;
	}
	if (sleeping_prematurely(mm, order, classzone_idx)) {
		count_vm_event(mm, KSWAPD_HIGH_WMARK_HIT_QUICKLY);
		return true;
	}
	kswapd_going_to_sleep(mm);
	return false;
}

/* The polled kswapd's pass, if a wakeup or the end of its short sleep asks for one: the pages freed. */
static unsigned long kswapd_poll(struct cma_mm *mm)
{
	struct balance_state b = { .order = 0, .classzone_idx = MAX_NR_ZONES - 1, .priority = DEF_PRIORITY };
	struct balance_state asked;
	unsigned long freed = 0;
	unsigned nap_order;
	int nap_classzone;
	bool polled, woken, short_nap;

	spin_lock(&mm->kswapd_lock);
	polled = atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed) == KSWAPD_POLLED;
	woken = polled && mm->kswapd_woken;
	/* a short sleep cma_kswapd_stop() cut off is over */
	short_nap = polled && mm->kswapd_short_nap;
	mm->kswapd_short_nap = false;
	nap_order = mm->kswapd_nap_order;
	nap_classzone = mm->kswapd_nap_classzone;
	if (woken) {
		kswapd_take_request(mm, &b.order, &b.classzone_idx);
		mm->kswapd_woken = false;
		if (mm->kswapd_napping)
			b.priority = mm->kswapd_nap_priority;
		mm->kswapd_napping = false;
	}
	spin_unlock(&mm->kswapd_lock);
	if (short_nap)
		woken = kswapd_short_nap_end(mm, woken, nap_order, nap_classzone);
	if (!woken)
		return 0;
	asked = b;
	kswapd_pass_set(mm);
	atomic_store_explicit(&mm->kswapd_balancing, true, memory_order_relaxed);
	freed = kswapd_balance(mm, &b);
	atomic_store_explicit(&mm->kswapd_balancing, false, memory_order_relaxed);
	kswapd_pass_set(NULL);
	/* napping: still woken, for the same request, when the host polls it again */
	spin_lock(&mm->kswapd_lock);
	if (mm->kswapd_napping) {
		kswapd_raise_request(mm, asked.order, asked.classzone_idx);
		mm->kswapd_woken = true;
	}
	short_nap = !mm->kswapd_napping;
	spin_unlock(&mm->kswapd_lock);
	if (short_nap)
		kswapd_short_nap_start(mm, &b);
	return freed;
}

/**
 * cma_kswapd_poll() - if an allocation woke the polled kswapd since the
 * last poll, one balance_pgdat() (which loops until balanced) at the
 * largest order asked for. Returns the pages freed; 0 when not woken or
 * not polled.
 */
unsigned long cma_kswapd_poll(struct cma_mm *mm)
{
	if (mm_require_phase(mm, MM_BOOTED, "cma_kswapd_poll"))
		return 0;
	return kswapd_poll(mm);
}

/**
 * kswapd_run_meanwhile() - the slow path pauses before it retries, and
 * kswapd works meanwhile: a kswapd thread is given the CPU, and a polled
 * kswapd's pending pass runs in the calling thread, so that a
 * deterministic run sees what kswapd would have done during the pause
 * (written back dirty pages, say). The sleep itself is
 * wait_iff_congested()'s, on a host clock.
 */
void kswapd_run_meanwhile(struct cma_mm *mm)
{
	int state = atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed);
	bool napping;

	spin_lock(&mm->kswapd_lock);
	/* its short sleep is not over before the timeout, unless a wakeup ended it */
	napping = mm->kswapd_napping || (mm->kswapd_short_nap && !mm->kswapd_woken);
	spin_unlock(&mm->kswapd_lock);
	if (state == KSWAPD_POLLED && !napping)
		kswapd_poll(mm);
	else if (state == KSWAPD_RUNNING)
		sched_yield();
}

/* ---- reclaim_throttle (5.16) ---- */

/* ---- out of memory ---- */

/**
 * out_of_memory() - reclaim made no progress: call the machine's OOM
 * handler (the kernel would kill the worst process) with no lock held.
 * Returns the pages it freed; 0 with no handler or nothing to kill.
 */
unsigned long out_of_memory(struct cma_mm *mm, cma_gfp_t gfp, unsigned order)
{
	cma_oom_fn fn = __atomic_load_n(&mm->oom_fn, __ATOMIC_ACQUIRE);
	void *ctx = __atomic_load_n(&mm->oom_ctx, __ATOMIC_RELAXED);
	unsigned long freed = 0;

	cma_mm_printk(mm, KERN_WARNING "Out of memory: gfp_mask=0x%x, order=%u%s\n", gfp, order,
		  fn ? "" : ", no OOM handler");
	if (fn)
		freed = fn(ctx, mm, order);
	if (!freed)
		cma_mm_printk(mm, KERN_ERR "Out of memory and no killable processes...\n");
	return freed;
}

/**
 * cma_mm_set_oom_handler() - the function out_of_memory() calls (NULL:
 * none). Set it before other threads allocate: a handler changed under a
 * running out_of_memory() may be called with either context.
 */
void cma_mm_set_oom_handler(struct cma_mm *mm, cma_oom_fn fn, void *ctx)
{
	if (!mm)
		return;
	__atomic_store_n(&mm->oom_ctx, ctx, __ATOMIC_RELAXED);
	__atomic_store_n(&mm->oom_fn, fn, __ATOMIC_RELEASE);
}
