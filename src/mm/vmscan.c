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
 * zone's low mark, or one step at a time under the caller's control.
 *
 * The one idea: a page is reclaimed by freezing its references at exactly
 * owner + isolation (page_freeze_refs(page, 2)), as __remove_mapping does;
 * any other holder makes the freeze fail and the page stays. Owner
 * callbacks run with no library lock held.
 *
 * Simplified on purpose, where the kernel's machinery does not exist here:
 * - no rmap: an extra reference (a pin, a tryget in progress) stands for a
 *   referenced PTE; PG_referenced gives an active page one more round on
 *   the active list;
 * - get_scan_count has no swappiness or rotation balance: with swap room
 *   anon and file lists are scanned alike, without it anon is not scanned;
 * - writeback is synchronous; a written page is kept for a later pass (the
 *   kernel rotates it once the write completes);
 * - swap space is taken by swap-out and never given back: swap-in is not
 *   modelled, so a swapped-out slot holds its swap until the machine dies;
 * - kswapd makes one balance_pgdat pass per wakeup (the kernel loops until
 *   balanced, with all_unreclaimable to stop it), and there is no
 *   congestion_wait, lumpy reclaim, too_many_isolated or slab shrinking.
 */
#include <limits.h>
#include <sched.h>

#include "mm/internal.h"

/* ---- scan control and small helpers ---- */

struct scan_control {
	unsigned long nr_to_reclaim;	/* stop once this many pages are freed */
	unsigned long nr_reclaimed;
	cma_gfp_t gfp_mask;		/* __GFP_IO: may swap; __GFP_FS: may write back */
	unsigned order;
	bool kswapd;			/* current_is_kswapd() */
};

/* What shrink_page_list decided for one page. */
enum page_verdict { PAGE_KEEP, PAGE_ACTIVATE, PAGE_FREED };


static bool is_file_lru(enum lru_list lru)
{
	return lru == LRU_INACTIVE_FILE || lru == LRU_ACTIVE_FILE;
}

static bool is_active_lru(enum lru_list lru)
{
	return lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE;
}

static unsigned long zone_nr_lru_pages(struct zone *zone, enum lru_list lru)
{
	return zone_page_state(zone, NR_INACTIVE_ANON + lru);
}

static bool page_is_file_cache(const struct cma_page *page)
{
	return !page_test(page, PG_swapbacked);
}

static uint64_t page_bytes(struct cma_mm *mm, const struct cma_page *page)
{
	return mm->page_size << page_order(page);
}

static void *page_ptr(unsigned long pfn)
{
	return (void *)(0xffffea0000000000ul + pfn * 64);	/* as mm_page_alloc prints it */
}

/* Watermarks change under zone->lock (seed 008 raises them): read them whole. */
static unsigned long wmark(const struct zone *zone, enum zone_watermarks w)
{
	return __atomic_load_n(&zone->watermark[w], __ATOMIC_RELAXED);
}

/* ---- swap space (mm->swap_used, changed atomically; proc.c reads it) ---- */

static bool swap_room(struct cma_mm *mm, uint64_t bytes)
{
	return mm->swap_bytes - __atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED) >= bytes;
}

/* get_swap_page: reserve @bytes of swap, or false when it is full. */
static bool swap_reserve(struct cma_mm *mm, uint64_t bytes)
{
	uint64_t used = __atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED);

	do {
		if (mm->swap_bytes - used < bytes)
			return false;
	} while (!__atomic_compare_exchange_n(&mm->swap_used, &used, used + bytes, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

/* The swap-out did not happen: the reservation goes back (swapcache_free). */
static void swap_unreserve(struct cma_mm *mm, uint64_t bytes)
{
	__atomic_fetch_sub(&mm->swap_used, bytes, __ATOMIC_RELAXED);
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
	page_forget_owner(mm, page);
	put_page(mm, page);
	return PAGE_FREED;
}

/*
 * pageout: write a dirty file page back through its owner, with no lock
 * held. As clear_page_dirty_for_io + ->writepage: the dirty bit is taken
 * first, so that a redirty during the write is not lost, and put back if
 * the write fails.
 */
static void pageout(struct cma_mm *mm, struct cma_page *page, const struct cma_owner_ops *ops)
{
	struct zone *zone = page_zone(mm, page);
	int rc;

	if (!(atomic_fetch_and_explicit(&page->flags, ~(uint32_t)PG_dirty,
					memory_order_relaxed) & PG_dirty))
		return;		/* cleaned under us */
	mod_zone_page_state(zone, NR_FILE_DIRTY, -1);
	page_flags_set(page, PG_writeback);
	mod_zone_page_state(zone, NR_WRITEBACK, 1);
	if (trace_enabled(mm))
		trace_event(mm, "mm_vmscan_writepage", "page=%p pfn=%lu flags=%s",
			    page_ptr(page_to_pfn(mm, page)), page_to_pfn(mm, page),
			    "RECLAIM_WB_FILE|RECLAIM_WB_ASYNC");
	rc = ops->writeback(page->owner, page->private, page);
	mod_zone_page_state(zone, NR_WRITEBACK, -1);
	page_flags_clear(page, PG_writeback);
	if (rc) {
		/* redirty_page_for_writepage */
		if (!(atomic_fetch_or_explicit(&page->flags, PG_dirty, memory_order_relaxed) & PG_dirty))
			mod_zone_page_state(zone, NR_FILE_DIRTY, 1);
		return;
	}
	mod_zone_page_state(zone, NR_VMSCAN_WRITE, 1);
	mod_zone_page_state(zone, NR_WRITTEN, 1);
}

/* A dirty file page: only kswapd writes, and only under pressure. */
static enum page_verdict shrink_dirty_file_page(struct cma_mm *mm, struct cma_page *page,
						const struct cma_owner_ops *ops,
						struct scan_control *sc, int priority)
{
	if (!sc->kswapd || priority >= DEF_PRIORITY - 2) {
		/* direct reclaim would overflow the stack in ->writepage */
		mod_zone_page_state(page_zone(mm, page), NR_VMSCAN_IMMEDIATE, 1);
		return PAGE_KEEP;
	}
	if (!ops->writeback)
		return PAGE_ACTIVATE;	/* no ->writepage */
	if (!(sc->gfp_mask & CMA_GFP_FS))
		return PAGE_KEEP;	/* !may_enter_fs */
	pageout(mm, page, ops);
	return PAGE_KEEP;
}

/* An anonymous page: swapped out (ops->reclaim) when there is swap room. */
static enum page_verdict shrink_anon_page(struct cma_mm *mm, struct cma_page *page,
					  const struct cma_owner_ops *ops, struct scan_control *sc)
{
	uint64_t bytes = page_bytes(mm, page);
	unsigned long nr = 1ul << page_order(page);

	if (!(sc->gfp_mask & CMA_GFP_IO))
		return PAGE_KEEP;
	if (!swap_reserve(mm, bytes))
		return PAGE_ACTIVATE;	/* add_to_swap failed */
	if (remove_mapping(mm, page, ops) != PAGE_FREED) {
		swap_unreserve(mm, bytes);
		return PAGE_KEEP;
	}
	count_vm_events(mm, PSWPOUT, nr);
	return PAGE_FREED;
}

static enum page_verdict shrink_page(struct cma_mm *mm, struct cma_page *page,
				     struct scan_control *sc, int priority)
{
	const struct cma_owner_ops *ops = page_owner_ops(mm, page);

	/* mlocked since it was isolated: kept, its putback culls it to LRU_UNEVICTABLE */
	if (page_test(page, PG_mlocked | PG_writeback))
		return PAGE_KEEP;
	/* page_check_references: someone besides owner and isolation holds it */
	if (page_count(page) > 2)
		return PAGE_ACTIVATE;
	if (!page_is_file_cache(page))
		return shrink_anon_page(mm, page, ops, sc);
	if (page_test(page, PG_dirty))
		return shrink_dirty_file_page(mm, page, ops, sc, priority);
	return remove_mapping(mm, page, ops);
}

/*
 * shrink_page_list: decide each isolated page of @list; the kept ones go
 * back to the LRU (activated ones to the active list). Returns the pages
 * freed.
 */
static unsigned long shrink_page_list(struct cma_mm *mm, struct page_list *list,
				      struct scan_control *sc, int priority)
{
	unsigned long nr_reclaimed = 0;
	struct cma_page *page;

	while ((page = page_list_first(mm, list))) {
		unsigned long nr = 1ul << page_order(page);

		page_list_del(mm, list, page);
		if (page_count(page) == 1) {
			/* the owner freed it while it was isolated: let it go */
			isolated_dec(mm, page);
			put_page(mm, page);
			continue;
		}
		switch (shrink_page(mm, page, sc, priority)) {
		case PAGE_FREED:
			nr_reclaimed += nr;
			continue;
		case PAGE_ACTIVATE:
			page_flags_set(page, PG_active);
			count_vm_events(mm, PGACTIVATE, nr);
			break;
		case PAGE_KEEP:
			break;
		}
		putback_lru_page(mm, page);
	}
	return nr_reclaimed;
}

/* ---- the LRU lists ---- */

/*
 * isolate_lru_pages: take up to @nr_to_scan pages from the tail of @lru
 * onto @dst, each with a reference. A page whose count is zero is being
 * freed (its last put waits for lru_lock; freezes happen only off the
 * LRU): it is rotated to the head, as the kernel's -EBUSY from
 * __isolate_lru_page does. Returns the pages taken.
 */
static unsigned long isolate_lru_pages(struct zone *zone, enum lru_list lru,
				       unsigned long nr_to_scan, struct page_list *dst,
				       unsigned long *nr_scanned)
{
	struct cma_mm *mm = zone->mm;
	struct page_list *src = &zone->lru[lru];
	unsigned long scan, taken = 0;
	struct cma_page *page;

	spin_lock(&zone->lru_lock);
	for (scan = 0; scan < nr_to_scan && (page = page_list_last(mm, src)); scan++) {
		if (!get_page_unless_zero(page)) {
			page_list_del(mm, src, page);
			page_list_add(mm, src, page);
			continue;
		}
		del_page_from_lru_list(zone, page, lru);
		page_flags_clear(page, PG_lru);
		page_flags_set(page, PG_isolated);
		page_list_add_tail(mm, dst, page);
		taken++;
	}
	if (taken)
		mod_zone_page_state(zone, is_file_lru(lru) ? NR_ISOLATED_FILE : NR_ISOLATED_ANON,
				    (long)taken);
	spin_unlock(&zone->lru_lock);
	*nr_scanned = scan;
	return taken;
}

static unsigned long shrink_inactive_list(struct zone *zone, enum lru_list lru,
					  unsigned long nr_to_scan, struct scan_control *sc,
					  int priority)
{
	struct cma_mm *mm = zone->mm;
	struct page_list list;
	unsigned long nr_scanned, nr_reclaimed = 0;

	page_list_init(&list);
	lru_add_drain(mm);
	if (isolate_lru_pages(zone, lru, nr_to_scan, &list, &nr_scanned))
		nr_reclaimed = shrink_page_list(mm, &list, sc, priority);
	if (nr_scanned)
		count_vm_events(mm, (sc->kswapd ? PGSCAN_KSWAPD_DMA : PGSCAN_DIRECT_DMA) + zone->idx,
				nr_scanned);
	if (nr_reclaimed)
		count_vm_events(mm, (sc->kswapd ? PGSTEAL_KSWAPD_DMA : PGSTEAL_DIRECT_DMA) + zone->idx,
				nr_reclaimed);
	if (trace_enabled(mm))
		trace_event(mm, "mm_vmscan_lru_shrink_inactive",
			    "nid=0 zid=%d nr_scanned=%ld nr_reclaimed=%ld priority=%d flags=%s",
			    (int)zone->idx, (long)nr_scanned, (long)nr_reclaimed, priority,
			    is_file_lru(lru) ? "RECLAIM_WB_FILE|RECLAIM_WB_ASYNC" :
			    "RECLAIM_WB_ANON|RECLAIM_WB_ASYNC");
	return nr_reclaimed;
}

/*
 * shrink_active_list: age up to @nr_to_scan pages from the tail of the
 * active list @lru. A page with PG_referenced loses the bit and goes
 * round the active list again; the others move to the inactive list. No
 * rmap walk means no reason to drop the lock, so the pages move in place
 * under lru_lock instead of through an isolated list.
 */
static void shrink_active_list(struct zone *zone, enum lru_list lru, unsigned long nr_to_scan)
{
	struct cma_mm *mm = zone->mm;
	unsigned long scan, nr_deactivated = 0;

	lru_add_drain(mm);
	spin_lock(&zone->lru_lock);
	/* each page once: rotated pages come back at the head */
	if (nr_to_scan > zone_nr_lru_pages(zone, lru))
		nr_to_scan = zone_nr_lru_pages(zone, lru);
	for (scan = 0; scan < nr_to_scan; scan++) {
		struct cma_page *page = page_list_last(mm, &zone->lru[lru]);

		if (!page)
			break;
		del_page_from_lru_list(zone, page, lru);
		if (atomic_fetch_and_explicit(&page->flags, ~(uint32_t)PG_referenced,
					      memory_order_relaxed) & PG_referenced) {
			add_page_to_lru_list(zone, page, lru);
			continue;
		}
		page_flags_clear(page, PG_active);
		add_page_to_lru_list(zone, page, lru - 1);	/* the inactive list of its kind */
		nr_deactivated++;
	}
	spin_unlock(&zone->lru_lock);
	if (scan)
		count_vm_events(mm, PGREFILL_DMA + zone->idx, scan);
	if (nr_deactivated)
		count_vm_events(mm, PGDEACTIVATE, nr_deactivated);
}

/* inactive_*_is_low: the inactive list is shorter than the active one. */
static bool inactive_list_is_low(struct zone *zone, bool file)
{
	enum lru_list base = file ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;

	return zone_nr_lru_pages(zone, base) < zone_nr_lru_pages(zone, base + 1);
}

/* Deactivating anon pages is pointless without swap. */
static bool inactive_anon_is_low(struct zone *zone)
{
	return zone->mm->swap_bytes && inactive_list_is_low(zone, false);
}

static unsigned long shrink_list(struct zone *zone, enum lru_list lru, unsigned long nr_to_scan,
				 struct scan_control *sc, int priority)
{
	bool file = is_file_lru(lru);

	if (is_active_lru(lru)) {
		if (file ? inactive_list_is_low(zone, true) : inactive_anon_is_low(zone))
			shrink_active_list(zone, lru, nr_to_scan);
		return 0;
	}
	return shrink_inactive_list(zone, lru, nr_to_scan, sc, priority);
}

/*
 * get_scan_count: lru_size >> priority pages of each list, at least a
 * batch of a non-empty list; no anon pages when swap is full or absent.
 */
static void get_scan_count(struct zone *zone, int priority, unsigned long nr[NR_LRU_LISTS])
{
	bool noswap = !swap_room(zone->mm, zone->mm->page_size);
	int lru;

	nr[LRU_UNEVICTABLE] = 0;
	for_each_evictable_lru(lru) {
		unsigned long size = zone_nr_lru_pages(zone, lru);
		unsigned long scan = size >> priority;

		if (!scan && size)
			scan = size < SWAP_CLUSTER_MAX ? size : SWAP_CLUSTER_MAX;
		nr[lru] = noswap && !is_file_lru(lru) ? 0 : scan;
	}
}

/* shrink_zone (shrink_mem_cgroup_zone): one pass over @zone's lists at @priority. */
static void shrink_zone(struct zone *zone, struct scan_control *sc, int priority)
{
	unsigned long nr[NR_LRU_LISTS], nr_reclaimed = 0;

	get_scan_count(zone, priority, nr);
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
	/* rebalance the anon lists even when they were not scanned */
	if (inactive_anon_is_low(zone))
		shrink_active_list(zone, LRU_ACTIVE_ANON, SWAP_CLUSTER_MAX);
}

/* ---- direct reclaim ---- */

/**
 * try_to_free_pages() - direct reclaim (do_try_to_free_pages): shrink
 * the populated zones up to gfp_zone(@gfp), highest first, at priority
 * 12 down to 0, until @nr pages are freed. Returns the pages freed; dirty
 * file pages are never written here.
 */
unsigned long try_to_free_pages(struct cma_mm *mm, unsigned long nr, cma_gfp_t gfp, unsigned order)
{
	struct scan_control sc = { .nr_to_reclaim = nr, .gfp_mask = gfp, .order = order };
	int high_zoneidx = gfp_zone(mm, gfp);

	if (trace_enabled(mm)) {
		char flags[256];

		show_gfp_flags(gfp, flags, sizeof(flags));
		trace_event(mm, "mm_vmscan_direct_reclaim_begin",
			    "order=%u may_writepage=1 gfp_flags=%s", order, flags);
	}
	count_vm_event(mm, ALLOCSTALL);
	for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
		for (int i = high_zoneidx; i >= 0; i--)
			if (mm->zones[i].present_pages)
				shrink_zone(&mm->zones[i], &sc, priority);
		if (sc.nr_reclaimed >= sc.nr_to_reclaim)
			break;
	}
	trace_event(mm, "mm_vmscan_direct_reclaim_end", "nr_reclaimed=%lu", sc.nr_reclaimed);
	return sc.nr_reclaimed;
}

/**
 * __perform_reclaim() - direct synchronous page reclaim (seed 007): a
 * batch of SWAP_CLUSTER_MAX pages. Returns the progress made (pages
 * freed); draining the per-CPU lists afterwards is the caller's. There
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
	if (mm_require_phase(mm, MM_BOOTED, "cma_try_to_free_pages") || !nr)
		return 0;
	lru_add_drain_all(mm);
	return try_to_free_pages(mm, nr, gfp, 0);
}

/* ---- kswapd ---- */

/* mm->kswapd_state; 0 is what cma_mm_create leaves */
/* POLLED: no thread; wakeups are recorded for cma_kswapd_poll() (vmscan.c). */
enum { KSWAPD_STOPPED, KSWAPD_STARTING, KSWAPD_RUNNING, KSWAPD_STOPPING, KSWAPD_POLLED };

static bool zone_balanced(struct zone *zone, unsigned order)
{
	return zone_watermark_ok(zone, order, wmark(zone, WMARK_HIGH), 0, 0);
}

static bool pgdat_balanced(struct cma_mm *mm, unsigned order)
{
	struct zone *zone;

	for_each_populated_zone(mm, zone)
		if (!zone_balanced(zone, order))
			return false;
	return true;
}

/*
 * balance_pgdat: shrink every zone below its high mark, priority 12 down
 * to 0, until all are balanced. kswapd may write dirty file pages back at
 * priorities below DEF_PRIORITY - 2. Returns the pages freed.
 */
static unsigned long balance_pgdat(struct cma_mm *mm, unsigned order)
{
	struct scan_control sc = {
		.nr_to_reclaim = ULONG_MAX, .gfp_mask = CMA_GFP_KERNEL, .order = order, .kswapd = true,
	};

	count_vm_event(mm, PAGEOUTRUN);
	for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
		struct zone *zone;

		if (pgdat_balanced(mm, order))
			break;
		for_each_populated_zone(mm, zone)
			if (!zone_balanced(zone, order))
				shrink_zone(zone, &sc, priority);
	}
	return sc.nr_reclaimed;
}

/**
 * cma_kswapd_step() - one balance_pgdat() pass at order 0 in the calling
 * thread, as kswapd would make it: a deterministic stand-in for the
 * thread. Returns the pages freed.
 */
unsigned long cma_kswapd_step(struct cma_mm *mm)
{
	if (mm_require_phase(mm, MM_BOOTED, "cma_kswapd_step"))
		return 0;
	return balance_pgdat(mm, 0);
}

/* kswapd(): sleep until woken or told to stop; balance at the largest order asked for. */
static void *kswapd(void *arg)
{
	struct cma_mm *mm = arg;

	for (;;) {
		unsigned order;

		pthread_mutex_lock(&mm->kswapd_mutex);
		while (!mm->kswapd_woken && !mm->kswapd_should_stop)
			pthread_cond_wait(&mm->kswapd_wait, &mm->kswapd_mutex);
		if (mm->kswapd_should_stop) {
			pthread_mutex_unlock(&mm->kswapd_mutex);
			return NULL;
		}
		order = mm->kswapd_max_order;
		mm->kswapd_max_order = 0;
		mm->kswapd_woken = false;
		pthread_mutex_unlock(&mm->kswapd_mutex);

		trace_event(mm, "mm_vmscan_kswapd_wake", "nid=0 order=%u", order);
		balance_pgdat(mm, order);
		trace_event(mm, "mm_vmscan_kswapd_sleep", "nid=0");
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
	ret = -pthread_create(&mm->kswapd_thread, NULL, kswapd, mm);
	if (ret) {
		mm_pr_err(mm, "kswapd: could not start the thread (error %d)\n", -ret);
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

/**
 * wakeup_kswapd() - a request of @order found @zone below its low mark:
 * wake kswapd to balance it to high. Nothing happens when no kswapd
 * thread runs or the zone is above its low mark after all.
 */
void wakeup_kswapd(struct cma_mm *mm, struct zone *zone, unsigned order)
{
	int state = atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed);

	if (!zone->present_pages || (state != KSWAPD_RUNNING && state != KSWAPD_POLLED))
		return;
	if (zone_watermark_ok(zone, order, wmark(zone, WMARK_LOW), 0, 0))
		return;
	/* kswapd_lock keeps the mutex alive: stop destroys it only after leaving RUNNING */
	spin_lock(&mm->kswapd_lock);
	state = atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed);
	if (state == KSWAPD_POLLED) {
		if (mm->kswapd_max_order < order)
			mm->kswapd_max_order = order;
		mm->kswapd_woken = true;
	} else if (state == KSWAPD_RUNNING) {
		pthread_mutex_lock(&mm->kswapd_mutex);
		if (mm->kswapd_max_order < order)
			mm->kswapd_max_order = order;
		mm->kswapd_woken = true;
		pthread_cond_signal(&mm->kswapd_wait);
		pthread_mutex_unlock(&mm->kswapd_mutex);
		trace_event(mm, "mm_vmscan_wakeup_kswapd", "nid=0 zid=%d order=%u",
			    (int)zone->idx, order);
	}
	spin_unlock(&mm->kswapd_lock);
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
		mm->kswapd_max_order = 0;
		atomic_store_explicit(&mm->kswapd_state, KSWAPD_POLLED, memory_order_relaxed);
	}
	spin_unlock(&mm->kswapd_lock);
	return ret;
}

/**
 * cma_kswapd_poll() - if an allocation woke the polled kswapd since the
 * last poll, one balance_pgdat() pass at the largest order asked for.
 * Returns the pages freed; 0 when not woken or not polled.
 */
unsigned long cma_kswapd_poll(struct cma_mm *mm)
{
	unsigned order = 0;
	bool woken;

	if (mm_require_phase(mm, MM_BOOTED, "cma_kswapd_poll"))
		return 0;
	spin_lock(&mm->kswapd_lock);
	woken = atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed) == KSWAPD_POLLED &&
		mm->kswapd_woken;
	if (woken) {
		order = mm->kswapd_max_order;
		mm->kswapd_woken = false;
		mm->kswapd_max_order = 0;
	}
	spin_unlock(&mm->kswapd_lock);
	if (!woken)
		return 0;
	trace_event(mm, "mm_vmscan_kswapd_wake", "nid=0 order=%u", order);
	return balance_pgdat(mm, order);
}

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

	mm_printk(mm, "Out of memory: gfp_mask=0x%x, order=%u%s\n", gfp, order,
		  fn ? "" : ", no OOM handler");
	if (fn)
		freed = fn(ctx, mm, order);
	if (!freed)
		mm_printk(mm, "Out of memory and no killable processes...\n");
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
