// SPDX-License-Identifier: GPL-2.0
/*
 * Pageblock flags: the migrate type of each pageblock_nr_pages-aligned
 * block, one byte each. Written under zone->lock; compaction and the
 * free path read them without it, hence the relaxed atomics.
 */
#include "mm/internal.h"

static unsigned long pageblock_index(const struct cma_mm *mm, unsigned long pfn)
{
	return (pfn - mm->base_pfn) >> mm->pageblock_order;
}

int get_pageblock_migratetype(struct cma_mm *mm, unsigned long pfn)
{
	return __atomic_load_n(&mm->pageblock_flags[pageblock_index(mm, pfn)], __ATOMIC_RELAXED);
}

/*
 * With grouping by mobility disabled every block is UNMOVABLE, as the
 * kernel's set_pageblock_migratetype() forces it.
 */
void set_pageblock_migratetype(struct cma_mm *mm, unsigned long pfn, int mt)
{
	if (mm->page_group_by_mobility_disabled)
		mt = MIGRATE_UNMOVABLE;
	__atomic_store_n(&mm->pageblock_flags[pageblock_index(mm, pfn)], (uint8_t)mt,
			 __ATOMIC_RELAXED);
}

int cma_pageblock_migratetype(struct cma_mm *mm, unsigned long pfn)
{
	if (mm->phase != MM_BOOTED || !pfn_valid(mm, pfn))
		return -EINVAL;
	return get_pageblock_migratetype(mm, pfn);
}
