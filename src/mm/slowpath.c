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
 * Does a high-order request that cannot sleep get ALLOC_HIGHATOMIC
 * without __GFP_HIGH? From kernel.alloc_non_block, GFP_NOWAIT too, until
 * kernel.highatomic_min_reserve.
 */
static bool nowait_is_highatomic(const struct kernel_profile *k)
{
	return k->alloc_non_block && !k->highatomic_min_reserve;
}

/*
 * gfp_to_alloc_flags: __GFP_HIGH digs deeper, atomic requests deeper
 * still; movable ones may use CMA. kernel.highatomic: a high-order
 * atomic request may use and reserve HIGHATOMIC blocks.
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
		if (k->highatomic && order && ((gfp & CMA_GFP_HIGH) || nowait_is_highatomic(k)))
			alloc_flags |= ALLOC_HIGHATOMIC;
	}
	return alloc_flags;
}

/*
 * wake_all_kswapd: tell kswapd about the request through every zone it may
 * use; wakeup_kswapd raises kswapd_max_order and wakes it for a zone that
 * wants it. The classzone is the first zone the request tries. From 4.8
 * (kernel.kswapd_wake_node) the node is asked once, through that zone.
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
		if (mm->kernel.kswapd_wake_node)
			break;
	}
}

/*
 * prepare_slowpath (3.12-3.14): the slow path's start wakes kswapd and,
 * under the fair zone policy before its retry (kernel.fair_zone_retry,
 * 3.15), refills the batches the fair first try found spent.
 */
static void prepare_slowpath(struct cma_mm *mm, unsigned order, enum zone_type high_zoneidx)
{
	wake_all_kswapd(mm, order, high_zoneidx);
	if (alloc_flags_fair(mm) && !mm->kernel.fair_zone_retry)
		reset_alloc_batches(mm, high_zoneidx);
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
 * Compaction helps only high orders. v3.5's path compacts async first,
 * sync after; as v3.5, the preferred zone's deferral is consulted first
 * (not at SYNC_FULL; DEFERRED for should_compact_retry, which 4.9-4.12
 * reach without kernel.compact_priority); an allocation that compaction made possible ends
 * the deferral, and only a sync failure defers (an async run sees only
 * part of the zone). kernel.compact_priority (6.12): try_to_compact_pages
 * consults and sets each zone's deferral itself, and a stall is counted
 * here unless every zone was skipped (one only deferred counts, and
 * fails). *@result: the compact_result.
 */
static struct cma_page *__alloc_pages_direct_compact(struct cma_mm *mm,
						     const struct alloc_context *ac,
						     enum compact_priority prio, int *result)
{
	struct zone *preferred = preferred_zone(mm, ac->high_zoneidx);
	bool v6 = mm->kernel.compact_priority;
	struct cma_page *page;

	*result = COMPACT_SKIPPED;
	if (!ac->order || !preferred)
		return NULL;
	if (!v6 && prio > MIN_COMPACT_PRIORITY && compaction_deferred(preferred, (int)ac->order)) {
		*result = COMPACT_DEFERRED;
		return NULL;
	}
	*result = (int)try_to_compact_pages(mm, ac->gfp, ac->order, prio, ac->high_zoneidx,
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
	if (prio != COMPACT_PRIO_ASYNC && !v6)
		defer_compaction(preferred, (int)ac->order);
	return NULL;
}

static struct cma_page *__alloc_pages_direct_reclaim(struct cma_mm *mm,
						     const struct alloc_context *ac,
						     unsigned long *progress)
{
	struct cma_page *page;

	*progress = __perform_reclaim(mm, ac->gfp, ac->order);
	/* 3.5's __alloc_pages_direct_reclaim, 6.12's __perform_reclaim */
	cond_resched(mm);
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
 * a better fallback. A request without __GFP_FS (only 6.12's path gets
 * here with one) kills nothing, since killing does not make up for
 * reclaim that could not enter the file system, but is told to retry.
 * *@progress: the OOM handler freed something, or the request should
 * retry all the same.
 */
static struct cma_page *__alloc_pages_may_oom(struct cma_mm *mm, const struct alloc_context *ac,
					      bool *progress)
{
	struct cma_page *page = try_freelist(mm, ac, ALLOC_WMARK_HIGH);

	*progress = false;
	if (page || ac->order > PAGE_ALLOC_COSTLY_ORDER || ac->high_zoneidx < ZONE_NORMAL)
		return page;
	if (mm->kernel.retry_mayfail && (ac->gfp & CMA_GFP_RETRY_MAYFAIL))
		return NULL;
	*progress = !(ac->gfp & CMA_GFP_FS) || out_of_memory(mm, ac->gfp, ac->order) != 0;
	return NULL;
}

/*
 * The kernel loops as long as its retry rules say so, sleeping in
 * wait_iff_congested() (up to 5.15) while kswapd works. Departure: the rounds are
 * bounded so that a caller always gets an answer, and an OOM handler
 * that frees nothing fails the request (the kernel would panic).
 */
#define MAX_RECLAIM_ROUNDS 64

/* 6.12's MAX_COMPACT_RETRIES (MAX_RECLAIM_RETRIES: internal.h) */
#define MAX_COMPACT_RETRIES	16

/*
 * What a zone could still reclaim, as should_reclaim_retry counts it:
 * until 4.12 (kernel.reclaim_retry_no_backoff) a share of the reclaimable
 * pages, rounded up, is taken off for each round that freed nothing, so
 * that the retries converge on the OOM path while the last few pages are
 * being thrashed over.
 */
static unsigned long reclaim_retry_estimate(const struct cma_mm *mm, unsigned long reclaimable,
					    int no_progress_loops)
{
	if (mm->kernel.reclaim_retry_no_backoff)
		return reclaimable;
	return reclaimable - ((unsigned long)no_progress_loops * reclaimable + MAX_RECLAIM_RETRIES - 1) /
			     MAX_RECLAIM_RETRIES;
}

/*
 * should_reclaim_retry (4.7's "mm, oom: rework oom detection"): a round
 * of reclaim that freed something resets the count below the costly
 * order; after MAX_RECLAIM_RETRIES rounds without, or once no zone would
 * pass its min mark for the order even were every reclaimable page
 * freed (until 4.12, fewer of them with each such round), reclaim is
 * given up, and with it (4.4) the last HIGHATOMIC
 * blocks before the OOM path. Until 5.16 (kernel.reclaim_throttle) a
 * round that freed nothing, with more than half of a passing zone's
 * reclaimable pages dirty or under writeback, waits HZ/10 for the device
 * before the retry, so that the retries outlast the writes.
 */
static bool should_reclaim_retry(struct cma_mm *mm, const struct alloc_context *ac,
				 unsigned long progress, int *no_progress_loops)
{
	bool retry = false;

	if (progress && ac->order <= PAGE_ALLOC_COSTLY_ORDER)
		*no_progress_loops = 0;
	else
		++*no_progress_loops;
	if (*no_progress_loops > MAX_RECLAIM_RETRIES)
		return unreserve_highatomic_pageblock(mm, ac->high_zoneidx, ac->migratetype, true);
	for (int i = (int)ac->high_zoneidx; i >= 0 && !retry; i--) {
		struct zone *z = &mm->zones[i];
		unsigned long reclaimable;

		if (!z->present_pages)
			continue;
		reclaimable = zone_reclaimable_pages(z);
		retry = zone_watermark_ok_free(z, ac->order, min_wmark_pages(z), ac->high_zoneidx,
					       ac->alloc_flags,
					       reclaim_retry_estimate(mm, reclaimable, *no_progress_loops) +
					       zone_page_state(z, NR_FREE_PAGES));
		if (!retry || progress || mm->kernel.reclaim_throttle)
			continue;
		if (2 * zone_write_pending(z) > reclaimable) {
			congestion_wait(mm, HZ / 10);
			return true;
		}
	}
	/* the zones are looked at, then the loop gives way before retrying or giving up */
	cond_resched(mm);
	return retry || unreserve_highatomic_pageblock(mm, ac->high_zoneidx, ac->migratetype, true);
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
 * should_compact_retry: after a skip, retry if reclaim can make
 * compaction possible; after a run that freed a block someone else took,
 * up to MAX_COMPACT_RETRIES times (a quarter of that for a costly
 * order); after a failure, once more at each higher priority, down to
 * SYNC_FULL below the costly order (MIN_COMPACT_PRIORITY), SYNC_LIGHT
 * above (MIN_COMPACT_COSTLY_PRIORITY).
 */
static bool should_compact_retry(struct cma_mm *mm, const struct alloc_context *ac, int result,
				 enum compact_priority *prio, int *retries)
{
	bool costly = ac->order > PAGE_ALLOC_COSTLY_ORDER;

	if (!ac->order)
		return false;
	if (result == COMPACT_SKIPPED)
		return compaction_zonelist_suitable(mm, ac);
	if (result == COMPACT_PARTIAL &&
	    ++*retries <= (costly ? MAX_COMPACT_RETRIES / 4 : MAX_COMPACT_RETRIES))
		return true;
	if (*prio <= (costly ? MIN_COMPACT_COSTLY_PRIORITY : MIN_COMPACT_PRIORITY))
		return false;
	--*prio;
	*retries = 0;
	return true;
}

/*
 * 6.12's __alloc_pages_slowpath: from 4.13 (kernel.compact_priority) for a
 * costly order, from 4.9 (kernel.reclaim_retry) for the others. Async
 * compaction first for a costly order or an unmovable/reclaimable high
 * one; __GFP_NORETRY gives up there for a costly order if compaction was
 * skipped or deferred, or the request is for this node (hugetlb's), and
 * otherwise keeps async. Then rounds of reclaim and compaction (at
 * SYNC_LIGHT), repeated for a costly order only with __GFP_RETRY_MAYFAIL,
 * as long as should_reclaim_retry or should_compact_retry says so; then
 * the OOM path, and another round after a kill.
 */
static struct cma_page *__alloc_pages_slowpath_v6(struct cma_mm *mm, struct alloc_context *ac)
{
	int result = COMPACT_SKIPPED, retries = 0, no_progress_loops = 0, rounds = 0;
	enum compact_priority prio = DEF_COMPACT_PRIORITY;
	bool costly = ac->order > PAGE_ALLOC_COSTLY_ORDER, oom_progress;
	struct cma_page *page;
	unsigned long progress;

	wake_all_kswapd(mm, ac->order, ac->high_zoneidx);
	page = try_freelist(mm, ac, ac->alloc_flags);
	if (page || !(ac->gfp & CMA_GFP_WAIT))
		return page;
	if (costly || (ac->order && ac->migratetype != MIGRATE_MOVABLE)) {
		page = __alloc_pages_direct_compact(mm, ac, INIT_COMPACT_PRIORITY, &result);
		if (page)
			return page;
		if (costly && (ac->gfp & CMA_GFP_NORETRY)) {
			if (result == COMPACT_SKIPPED || result == COMPACT_DEFERRED ||
			    (ac->gfp & CMA_GFP_THISNODE))
				return NULL;
			prio = INIT_COMPACT_PRIORITY;
		}
	}
	for (;;) {
		wake_all_kswapd(mm, ac->order, ac->high_zoneidx);
		page = try_freelist(mm, ac, ac->alloc_flags);
		if (page)
			return page;
		page = __alloc_pages_direct_reclaim(mm, ac, &progress);
		if (page)
			return page;
		page = __alloc_pages_direct_compact(mm, ac, prio, &result);
		if (page || (ac->gfp & CMA_GFP_NORETRY) ||
		    (costly && !(ac->gfp & CMA_GFP_RETRY_MAYFAIL)) || ++rounds >= MAX_RECLAIM_ROUNDS)
			return page;
		if (should_reclaim_retry(mm, ac, progress, &no_progress_loops)) {
			kswapd_run_meanwhile(mm);
			continue;
		}
		if (progress && should_compact_retry(mm, ac, result, &prio, &retries))
			continue;
		page = __alloc_pages_may_oom(mm, ac, &oom_progress);
		if (page || !oom_progress)
			return page;
		no_progress_loops = 0;
	}
}

/*
 * __alloc_pages_slowpath_v35: kswapd is woken on entry and again only
 * after an OOM kill (restart); the retries after reclaim (rebalance) do
 * not wake it. The OOM handler is reached only when direct reclaim made
 * no progress, which v3.5 reports only when every zone is
 * all_unreclaimable, and only for a request that may enter the file
 * system and may retry. From 4.4 (kernel.highatomic) the last HIGHATOMIC
 * blocks go before it. A smaller order takes it until 4.9, a costly one
 * until 4.13 (__alloc_pages_slowpath).
 */
static struct cma_page *__alloc_pages_slowpath_v35(struct cma_mm *mm, struct alloc_context *ac)
{
	cma_gfp_t gfp = ac->gfp;
	unsigned order = ac->order;
	struct cma_page *page;
	enum compact_priority prio = COMPACT_PRIO_ASYNC;
	bool killed;
	unsigned long progress;
	int rounds = 0, result;

restart:
	prepare_slowpath(mm, order, ac->high_zoneidx);
rebalance:
	page = try_freelist(mm, ac, ac->alloc_flags);
	if (page || !(gfp & CMA_GFP_WAIT))
		return page;
	page = __alloc_pages_direct_compact(mm, ac, prio, &result);
	if (page)
		return page;
	prio = COMPACT_PRIO_SYNC_LIGHT;
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
		wait_iff_congested(preferred_zone(mm, ac->high_zoneidx), HZ / 50);
		goto rebalance;
	}
	/* reclaim made room for compaction: one more try */
	return __alloc_pages_direct_compact(mm, ac, prio, &result);
}

/*
 * __alloc_pages_slowpath: the era's path for the request, and the
 * warning when it fails: 6.12's for a costly order from 4.13
 * (kernel.compact_priority), for a smaller one from 4.9
 * (kernel.reclaim_retry); v3.5's loop before.
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

	if (order > PAGE_ALLOC_COSTLY_ORDER ? mm->kernel.compact_priority : mm->kernel.reclaim_retry)
		page = __alloc_pages_slowpath_v6(mm, &ac);
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
	enum zone_type high_zoneidx = gfp_zone(mm, gfp);
	struct cma_page *page;

	if (unlikely(order >= mm->max_order || gfp_invalid(gfp) ||
		     atomic_load_explicit(&mm->fail.enabled, memory_order_relaxed)) &&
	    alloc_pages_refused(mm, gfp, order))
		return NULL;
	page = get_page_from_freelist(mm, gfp, order, high_zoneidx,
				      ALLOC_WMARK_LOW | alloc_flags_cma(migratetype) |
				      alloc_flags_fair(mm) | alloc_flags_nofragment(mm, high_zoneidx),
				      migratetype);
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
