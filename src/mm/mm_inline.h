/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's mm_inline.h: a page onto or off its LRU list, the zone's
 * count with it. Apart from internal.h, which every file includes, so that
 * only the LRU's own files (swap.c, vmscan.c, mlock.c, workingset.c) lean
 * on page_alloc.c's mod_zone_page_state through it.
 */
#ifndef CMA_MM_INLINE_H
#define CMA_MM_INLINE_H

#include "mm/internal.h"

static inline void add_page_to_lru_list(struct zone *zone, struct cma_page *page, enum lru_list lru)
{
	page_list_add(zone->mm, &zone->lru[lru], page);
	mod_zone_page_state(zone, NR_INACTIVE_ANON + lru, 1);
}

static inline void del_page_from_lru_list(struct zone *zone, struct cma_page *page, enum lru_list lru)
{
	page_list_del(zone->mm, &zone->lru[lru], page);
	mod_zone_page_state(zone, NR_INACTIVE_ANON + lru, -1);
}

#endif
