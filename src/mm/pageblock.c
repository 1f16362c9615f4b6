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

/*
 * A pageblock once seen with no hole and no reserved page stays so, as
 * PG_reserved is set only by memmap_init and only ever cleared after it;
 * setup_zone_migrate_reserve() remembers what it saw, under zone->lock,
 * so that it scans each block's pages at most until they are all free.
 */
bool pageblock_known_clean(const struct cma_mm *mm, unsigned long pfn)
{
	return mm->pageblock_clean[pageblock_index(mm, pfn)];
}

void set_pageblock_known_clean(struct cma_mm *mm, unsigned long pfn)
{
	mm->pageblock_clean[pageblock_index(mm, pfn)] = 1;
}

int cma_pageblock_migratetype(struct cma_mm *mm, unsigned long pfn)
{
	if (mm->phase != MM_BOOTED || !pfn_valid(mm, pfn))
		return -EINVAL;
	return get_pageblock_migratetype(mm, pfn);
}
