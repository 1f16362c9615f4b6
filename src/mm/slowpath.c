// SPDX-License-Identifier: GPL-2.0
/*
 * __alloc_pages_nodemask and its slow path (v3.5): the fast attempt at
 * the low mark; then wake kswapd, retry at the min mark with the
 * allowances of atomic and __GFP_HIGH requests, direct compaction (async,
 * then sync), direct reclaim, and at last the OOM handler. It sits above
 * page_alloc.c, compaction.c and vmscan.c so that none calls upward.
 */
#include "mm/internal.h"

/* Does a request that cannot sleep get ALLOC_HARDER? (kernel.gfp_atomic, alloc_non_block below) */
static bool nonblocking_is_harder(const struct kernel_profile *k, cma_gfp_t gfp)
{
	return !k->gfp_atomic || k->alloc_non_block || (gfp & CMA_GFP_HIGH);
}

/*
 * gfp_to_alloc_flags: __GFP_HIGH digs deeper, atomic requests deeper
 * still; movable ones may use CMA. kernel.highatomic: a high-order
 * request that is both may use and reserve HIGHATOMIC blocks.
 * kernel.gfp_atomic: a request that cannot sleep is atomic only with
 * __GFP_HIGH, until kernel.alloc_non_block marks every such request
 * again (__zone_watermark_ok then asks for __GFP_HIGH).
 */
static int gfp_to_alloc_flags(struct cma_mm *mm, cma_gfp_t gfp, unsigned order, int migratetype)
{
	const struct kernel_profile *k = &mm->kernel;
	int alloc_flags = ALLOC_WMARK_MIN | alloc_flags_cma(migratetype);

	if (gfp & CMA_GFP_HIGH)
		alloc_flags |= ALLOC_HIGH;
	if (!(gfp & CMA_GFP_WAIT)) {
		if (nonblocking_is_harder(k, gfp))
			alloc_flags |= ALLOC_HARDER;
		if (k->highatomic && order && (gfp & CMA_GFP_HIGH))
			alloc_flags |= ALLOC_HIGHATOMIC;
	}
	return alloc_flags;
}

/*
 * wake_all_kswapd: tell kswapd about the request through every zone it may
 * use; wakeup_kswapd raises kswapd_max_order and wakes it for a zone
 * below its low mark. The classzone is the first zone the request tries.
 */
static void wake_all_kswapd(struct cma_mm *mm, unsigned order, enum zone_type high_zoneidx)
{
	int classzone_idx = -1;

	for (int i = high_zoneidx; i >= 0; i--) {
		struct zone *z = &mm->zones[i];

		if (!z->present_pages)
			continue;
		if (classzone_idx < 0)
			classzone_idx = i;
		wakeup_kswapd(mm, z, order, classzone_idx);
	}
}

struct alloc_context {
	cma_gfp_t gfp;
	unsigned order;
	enum zone_type high_zoneidx;
	int alloc_flags;
	int migratetype;
};

static struct cma_page *try_freelist(struct cma_mm *mm, const struct alloc_context *ac, int alloc_flags)
{
	return get_page_from_freelist(mm, ac->gfp, ac->order, ac->high_zoneidx, alloc_flags,
				      ac->migratetype);
}

/* first_zones_zonelist: the highest populated zone the request may use. */
static struct zone *preferred_zone(struct cma_mm *mm, enum zone_type high_zoneidx)
{
	for (int i = (int)high_zoneidx; i >= 0; i--)
		if (mm->zones[i].present_pages)
			return &mm->zones[i];
	return NULL;
}

/*
 * Compaction helps only high orders; the first pass is async, later ones
 * sync. As v3.5, the preferred zone's deferral is consulted first; an
 * allocation that compaction made possible ends the deferral, and only
 * a sync failure defers (an async run sees only part of the zone).
 * kernel.compact_priority (6.12): try_to_compact_pages consults and sets
 * each zone's deferral itself, and a stall is counted here unless every
 * zone was skipped (one only deferred counts, and fails). *@result: the
 * compact_result.
 */
static struct cma_page *__alloc_pages_direct_compact(struct cma_mm *mm,
						     const struct alloc_context *ac, bool sync,
						     int *result)
{
	struct zone *preferred = preferred_zone(mm, ac->high_zoneidx);
	bool v6 = mm->kernel.compact_priority;
	struct cma_page *page;

	*result = COMPACT_SKIPPED;
	if (!ac->order || !preferred || (!v6 && compaction_deferred(preferred, (int)ac->order)))
		return NULL;
	*result = (int)try_to_compact_pages(mm, ac->gfp, ac->order, sync, ac->high_zoneidx,
					    ac->migratetype);
	if (*result == COMPACT_SKIPPED)
		return NULL;
	if (v6)
		count_vm_event(mm, COMPACTSTALL);
	drain_local_pages(mm);
	page = try_freelist(mm, ac, ac->alloc_flags);
	if (page) {
		struct zone *zone = v6 ? page_zone(mm, page) : preferred;

		/* 3.7 on: the run gave a page, so its skip bits stay when kswapd sleeps */
		if (mm->kernel.compact_skip_hint)
			__atomic_store_n(&zone->compact_blockskip_flush, false, __ATOMIC_RELAXED);
		compaction_defer_reset(zone, (int)ac->order, true);
		count_vm_event(mm, COMPACTSUCCESS);
		return page;
	}
	count_vm_event(mm, COMPACTFAIL);
	if (sync && !v6)
		defer_compaction(preferred, (int)ac->order);
	return NULL;
}

static struct cma_page *__alloc_pages_direct_reclaim(struct cma_mm *mm,
						     const struct alloc_context *ac,
						     unsigned long *progress)
{
	struct cma_page *page;

	*progress = __perform_reclaim(mm, ac->gfp, ac->order);
	if (!*progress)
		return NULL;
	page = try_freelist(mm, ac, ac->alloc_flags);
	if (!page) {
		/* what reclaim freed may wait on per-CPU lists, or in HIGHATOMIC blocks (4.4) */
		if (mm->kernel.highatomic)
			unreserve_highatomic_pageblock(mm, ac->high_zoneidx, ac->migratetype, false);
		drain_all_pages(mm, NULL);
		page = try_freelist(mm, ac, ac->alloc_flags);
	}
	return page;
}

/*
 * should_alloc_retry (v3.5): __GFP_NORETRY never loops; up to
 * PAGE_ALLOC_COSTLY_ORDER the request loops as if __GFP_NOFAIL, with or
 * without progress (a !__GFP_FS request that cannot call the OOM handler
 * keeps trying); a costlier one gives up.
 */
static bool should_alloc_retry(const struct alloc_context *ac)
{
	return !(ac->gfp & CMA_GFP_NORETRY) && ac->order <= PAGE_ALLOC_COSTLY_ORDER;
}

/*
 * __alloc_pages_may_oom (v3.5): one last try at the high mark, which only
 * a concurrent OOM kill's freed memory can pass; then no kill for a costly
 * order (killing will not make a large block) nor for a request limited
 * to ZONE_DMA/DMA32 (innocent tasks would die for a low zone), nor, from
 * 4.13 (kernel.retry_mayfail), for __GFP_RETRY_MAYFAIL, whose caller has
 * a better fallback. *@killed tells whether the OOM handler freed something.
 */
static struct cma_page *__alloc_pages_may_oom(struct cma_mm *mm, const struct alloc_context *ac,
					      bool *killed)
{
	struct cma_page *page = try_freelist(mm, ac, ALLOC_WMARK_HIGH);

	*killed = false;
	if (page || ac->order > PAGE_ALLOC_COSTLY_ORDER || ac->high_zoneidx < ZONE_NORMAL)
		return page;
	if (mm->kernel.retry_mayfail && (ac->gfp & CMA_GFP_RETRY_MAYFAIL))
		return NULL;
	*killed = out_of_memory(mm, ac->gfp, ac->order) != 0;
	return NULL;
}

/*
 * The kernel loops as long as should_alloc_retry() says so, sleeping in
 * wait_iff_congested() (up to 5.15) while kswapd works. Departure: the rounds are
 * bounded so that a caller always gets an answer, and an OOM handler
 * that frees nothing fails the request (the kernel would panic).
 */
#define MAX_RECLAIM_ROUNDS 64

/* 6.12's MAX_COMPACT_RETRIES and MAX_RECLAIM_RETRIES */
#define MAX_COMPACT_RETRIES	16
#define MAX_RECLAIM_RETRIES	16

/*
 * should_reclaim_retry (4.7's "mm, oom: rework oom detection") for a
 * costly order: reclaim's progress never resets the count, and another
 * round is worth it only where a free block of the order exists and the
 * order-0 mark would hold were every reclaimable page freed.
 */
static bool should_reclaim_retry_costly(struct cma_mm *mm, const struct alloc_context *ac,
					int *no_progress_loops)
{
	if (++*no_progress_loops > MAX_RECLAIM_RETRIES)
		return false;
	for (int i = (int)ac->high_zoneidx; i >= 0; i--) {
		struct zone *z = &mm->zones[i];
		unsigned long available;

		if (!z->present_pages)
			continue;
		available = zone_reclaimable_pages(z) + zone_page_state(z, NR_FREE_PAGES);
		if (available > min_wmark_pages(z) + (1ul << ac->order) - 1 +
				__atomic_load_n(&z->lowmem_reserve[ac->high_zoneidx], __ATOMIC_RELAXED) &&
		    zone_has_free_block(z, ac->order, ac->alloc_flags))
			return true;
	}
	return false;
}

/*
 * compaction_zonelist_suitable: would compaction run somewhere if reclaim
 * freed a share (1/order) of the reclaimable pages? The order-0 part of
 * __compaction_suitable: the low mark plus compact_gap (2^(order+1)).
 */
static bool compaction_zonelist_suitable(struct cma_mm *mm, const struct alloc_context *ac)
{
	for (int i = (int)ac->high_zoneidx; i >= 0; i--) {
		struct zone *z = &mm->zones[i];
		unsigned long available;

		if (!z->present_pages)
			continue;
		available = zone_reclaimable_pages(z) / ac->order + zone_page_state(z, NR_FREE_PAGES);
		if (available > low_wmark_pages(z) + (2ul << ac->order) +
				__atomic_load_n(&z->lowmem_reserve[ac->high_zoneidx], __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

/*
 * should_compact_retry for a costly order: after a skip, retry if reclaim
 * can make compaction possible; after a run that freed a block someone
 * else took, up to MAX_COMPACT_RETRIES / 4 times; after a failed async
 * run, once more at SYNC_LIGHT (MIN_COMPACT_COSTLY_PRIORITY, no further).
 */
static bool should_compact_retry(struct cma_mm *mm, const struct alloc_context *ac, int result,
				 bool *sync, int *retries)
{
	if (result == COMPACT_SKIPPED)
		return compaction_zonelist_suitable(mm, ac);
	if (result == COMPACT_PARTIAL && ++*retries <= MAX_COMPACT_RETRIES / 4)
		return true;
	if (*sync)
		return false;
	*sync = true;
	*retries = 0;
	return true;
}

/*
 * 6.12's __alloc_pages_slowpath for a costly order (kernel.compact_priority):
 * async compaction before anything else; __GFP_NORETRY gives up there if
 * compaction was skipped or deferred, or the request is for this node
 * (hugetlb's), and otherwise keeps async; then rounds of reclaim and
 * compaction, repeated only for __GFP_RETRY_MAYFAIL. No OOM kill for
 * such an order. Departure: smaller orders keep v3.5's loop.
 */
static struct cma_page *__alloc_pages_slowpath_costly(struct cma_mm *mm, struct alloc_context *ac)
{
	int result, retries = 0, no_progress_loops = 0, rounds = 0;
	struct cma_page *page;
	unsigned long progress;
	bool sync = true, killed;

	wake_all_kswapd(mm, ac->order, ac->high_zoneidx);
	page = try_freelist(mm, ac, ac->alloc_flags);
	if (page || !(ac->gfp & CMA_GFP_WAIT))
		return page;
	page = __alloc_pages_direct_compact(mm, ac, false, &result);
	if (page)
		return page;
	if (ac->gfp & CMA_GFP_NORETRY) {
		if (result == COMPACT_SKIPPED || result == COMPACT_DEFERRED ||
		    (ac->gfp & CMA_GFP_THISNODE))
			return NULL;
		sync = false;
	}
	for (;;) {
		wake_all_kswapd(mm, ac->order, ac->high_zoneidx);
		page = try_freelist(mm, ac, ac->alloc_flags);
		if (page)
			return page;
		page = __alloc_pages_direct_reclaim(mm, ac, &progress);
		if (page)
			return page;
		page = __alloc_pages_direct_compact(mm, ac, sync, &result);
		if (page || (ac->gfp & CMA_GFP_NORETRY) || !(ac->gfp & CMA_GFP_RETRY_MAYFAIL) ||
		    ++rounds >= MAX_RECLAIM_ROUNDS)
			return page;
		if (should_reclaim_retry_costly(mm, ac, &no_progress_loops))
			continue;
		if (progress && should_compact_retry(mm, ac, result, &sync, &retries))
			continue;
		/* __alloc_pages_may_oom: the last try at the high mark, no kill for this order */
		return __alloc_pages_may_oom(mm, ac, &killed);
	}
}

/*
 * __alloc_pages_slowpath_v35: kswapd is woken on entry and again only
 * after an OOM kill (restart); the retries after reclaim (rebalance) do
 * not wake it. The OOM handler is reached only when direct reclaim made
 * no progress, which v3.5 reports only when every zone is
 * all_unreclaimable, and only for a request that may enter the file
 * system and may retry. From 4.4 (kernel.highatomic) the last HIGHATOMIC
 * blocks go before it; from 5.16 (kernel.reclaim_throttle) a retry no
 * longer waits for congestion.
 */
static struct cma_page *__alloc_pages_slowpath_v35(struct cma_mm *mm, struct alloc_context *ac)
{
	cma_gfp_t gfp = ac->gfp;
	unsigned order = ac->order;
	struct cma_page *page;
	bool sync_migration = false, killed;
	unsigned long progress;
	int rounds = 0, result;

restart:
	wake_all_kswapd(mm, order, ac->high_zoneidx);
rebalance:
	page = try_freelist(mm, ac, ac->alloc_flags);
	if (page || !(gfp & CMA_GFP_WAIT))
		return page;
	page = __alloc_pages_direct_compact(mm, ac, sync_migration, &result);
	if (page)
		return page;
	sync_migration = true;
	page = __alloc_pages_direct_reclaim(mm, ac, &progress);
	if (page)
		return page;
	if (!progress && (gfp & CMA_GFP_FS) && !(gfp & CMA_GFP_NORETRY)) {
		/* 4.4's should_reclaim_retry: before OOM, the last HIGHATOMIC blocks too */
		if (mm->kernel.highatomic &&
		    unreserve_highatomic_pageblock(mm, ac->high_zoneidx, ac->migratetype, true)) {
			if (++rounds >= MAX_RECLAIM_ROUNDS)
				return NULL;
			goto rebalance;
		}
		page = __alloc_pages_may_oom(mm, ac, &killed);
		if (page || !killed || order > PAGE_ALLOC_COSTLY_ORDER ||
		    ac->high_zoneidx < ZONE_NORMAL || ++rounds >= MAX_RECLAIM_ROUNDS)
			return page;
		goto restart;
	}
	if (should_alloc_retry(ac)) {
		if (++rounds >= MAX_RECLAIM_ROUNDS)
			return NULL;
		kswapd_run_meanwhile(mm);
		if (!mm->kernel.reclaim_throttle)
			wait_iff_congested(preferred_zone(mm, ac->high_zoneidx), HZ / 50);
		goto rebalance;
	}
	/* reclaim made room for compaction: one more try */
	return __alloc_pages_direct_compact(mm, ac, sync_migration, &result);
}

/*
 * __alloc_pages_slowpath: the era's path for the request, and the
 * warning when it fails. From 4.13 (kernel.compact_priority) a costly
 * order takes 6.12's path; every other request v3.5's loop.
 */
static struct cma_page *__alloc_pages_slowpath(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
					       enum zone_type high_zoneidx, int migratetype)
{
	struct alloc_context ac = {
		.gfp = gfp, .order = order, .high_zoneidx = high_zoneidx,
		.alloc_flags = gfp_to_alloc_flags(mm, gfp, order, migratetype),
		.migratetype = migratetype,
	};
	struct cma_page *page;

	if (mm->kernel.compact_priority && order > PAGE_ALLOC_COSTLY_ORDER)
		page = __alloc_pages_slowpath_costly(mm, &ac);
	else
		page = __alloc_pages_slowpath_v35(mm, &ac);
	if (!page && !(gfp & CMA_GFP_NOWARN))
		cma_mm_printk(mm, KERN_WARNING "page allocation failure: order:%u, mode:0x%x\n", order, gfp);
	return page;
}

static void trace_page_alloc(struct cma_mm *mm, struct cma_page *page, unsigned order,
			     cma_gfp_t gfp, int migratetype)
{
	trace_event(mm, CMA_TRACE_MM_PAGE_ALLOC, page, .page = page,
		    .pfn = page ? page_to_pfn(mm, page) : 0, .order = order,
		    .migratetype = migratetype, .gfp_flags = gfp);
}

/*
 * gfp combinations no machine serves: both mobility flags, or more than
 * one zone modifier (x & (x - 1) clears the lowest bit set, where
 * __builtin_popcount() would be a libgcc call on CPUs without POPCNT).
 */
static inline bool gfp_invalid(cma_gfp_t gfp)
{
	cma_gfp_t z = gfp & (CMA_GFP_DMA | CMA_GFP_DMA32 | CMA_GFP_HIGHMEM);

	return (gfp & (CMA_GFP_MOVABLE | CMA_GFP_RECLAIMABLE)) ==
	       (CMA_GFP_MOVABLE | CMA_GFP_RECLAIMABLE) || (z & (z - 1));
}

/* A request no machine serves (logged), or one fault injection fails. */
static noinline bool alloc_pages_refused(struct cma_mm *mm, cma_gfp_t gfp, unsigned order)
{
	if (order >= mm->max_order) {
		if (!(gfp & CMA_GFP_NOWARN))
			cma_mm_pr_err(mm, "alloc_pages: order %u refused: this machine's largest order is %u (MAX_ORDER %u)\n",
				  order, mm->max_order - 1, mm->max_order);
		return true;
	}
	if (gfp_invalid(gfp)) {
		cma_mm_pr_err(mm, "alloc_pages: gfp 0x%x refused: at most one of GFP_DMA, GFP_DMA32, GFP_HIGHMEM and one of GFP_MOVABLE, GFP_RECLAIMABLE\n",
			  gfp);
		return true;
	}
	return should_fail_alloc_page(mm, order);
}

/*
 * kernel.watermark_boost: a fallback that boosted a zone's marks asks
 * for kswapd once the allocation is done (6.12's rmqueue, with
 * ZONE_BOOSTED_WATERMARK; page_alloc.c calls nothing above it).
 */
static void wake_boosted_kswapd(struct cma_mm *mm)
{
	struct zone *zone;

	for_each_populated_zone(mm, zone)
		if (atomic_load_explicit(&zone->boosted_watermark, memory_order_relaxed) &&
		    atomic_exchange_explicit(&zone->boosted_watermark, false, memory_order_relaxed))
			wakeup_kswapd(mm, zone, 0, zone->idx);
}

/* After the first try: the slow path if it failed, a boost's wakeup, and the trace event. */
static noinline struct cma_page *__alloc_pages_finish(struct cma_mm *mm, cma_gfp_t gfp,
						      unsigned order, struct cma_page *page)
{
	enum zone_type high_zoneidx = gfp_zone(mm, gfp);
	int migratetype = allocflags_to_migratetype(mm, gfp);

	if (!page)
		page = __alloc_pages_slowpath(mm, gfp, order, high_zoneidx, migratetype);
	wake_boosted_kswapd(mm);
	trace_page_alloc(mm, page, order, gfp, migratetype);
	return page;
}

/*
 * The usual request (valid, no fault injection, served by the first try)
 * keeps only mm, gfp and order across its one call; the rest is out of line.
 */
struct cma_page *__alloc_pages(struct cma_mm *mm, cma_gfp_t gfp, unsigned order)
{
	int migratetype = allocflags_to_migratetype(mm, gfp);
	struct cma_page *page;

	if (unlikely(order >= mm->max_order || gfp_invalid(gfp) ||
		     atomic_load_explicit(&mm->fail.enabled, memory_order_relaxed)) &&
	    alloc_pages_refused(mm, gfp, order))
		return NULL;
	page = get_page_from_freelist(mm, gfp, order, gfp_zone(mm, gfp),
				      ALLOC_WMARK_LOW | alloc_flags_cma(migratetype), migratetype);
	/* a steal that boosted the page's zone left it a flag to wake kswapd by */
	if (likely(page && !trace_event_enabled(mm, CMA_TRACE_MM_PAGE_ALLOC) &&
		   !atomic_load_explicit(&page_zone(mm, page)->boosted_watermark, memory_order_relaxed)))
		return page;
	return __alloc_pages_finish(mm, gfp, order, page);
}

struct cma_page *cma_alloc_pages(struct cma_mm *mm, cma_gfp_t gfp, unsigned order)
{
	if (mm_require_phase(mm, MM_BOOTED, "cma_alloc_pages"))
		return NULL;
	return __alloc_pages(mm, gfp, order);
}
