/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's mm_inline.h: a page onto or off its LRU list, the zone's
 * count with it. Apart from internal.h, which every file includes, so that
 * only the LRU's own files (swap.c, vmscan.c, scan_balance.c, mlock.c,
 * workingset.c) lean on page_alloc.c's mod_zone_page_state through it.
 */
#ifndef CMA_MM_INLINE_H
#define CMA_MM_INLINE_H

#include "mm/internal.h"

/*
 * The count of list @lru changes under zone->lru_lock only (mmzone.h):
 * a plain add, not a locked one (__mod_zone_page_state's, with the lock
 * held), for the lock-free readers' relaxed loads.
 */
static inline void lru_count_add(struct zone *zone, enum lru_list lru, long nr)
{
	atomic_long *count = &zone->vm_stat[NR_INACTIVE_ANON + lru];

	lockdep_assert_held(&zone->lru_lock);
	atomic_store_explicit(count, atomic_load_explicit(count, memory_order_relaxed) + nr,
			      memory_order_relaxed);
}

/* The pages on @zone's list @lru (lruvec_lru_size of one zone), read without the lock. */
static inline unsigned long zone_nr_lru_pages(struct zone *zone, enum lru_list lru)
{
	return zone_page_state(zone, NR_INACTIVE_ANON + lru);
}

static inline void add_page_to_lru_list(struct zone *zone, struct cma_page *page, enum lru_list lru)
{
	page_list_add(zone->mm, &zone->lru[lru], page);
	lru_count_add(zone, lru, 1);
}

/* At the tail, where reclaim's scan takes pages first. */
static inline void add_page_to_lru_list_tail(struct zone *zone, struct cma_page *page,
					     enum lru_list lru)
{
	page_list_add_tail(zone->mm, &zone->lru[lru], page);
	lru_count_add(zone, lru, 1);
}

static inline void del_page_from_lru_list(struct zone *zone, struct cma_page *page, enum lru_list lru)
{
	page_list_del(zone->mm, &zone->lru[lru], page);
	lru_count_add(zone, lru, -1);
}

#endif
