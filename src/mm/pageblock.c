// SPDX-License-Identifier: GPL-2.0
/*
 * Pageblock flags: the migrate type of each pageblock_nr_pages-aligned
 * block, one byte each. Written under zone->lock; compaction and the
 * free path read them without it, hence the relaxed atomics.
 */
#include <string.h>

#include "lib/bitmap.h"
#include "mm/internal.h"

/*
 * With grouping by mobility disabled every block is UNMOVABLE, as the
 * kernel's set_pageblock_migratetype() forces it; since 4.4
 * (kernel.highatomic) only the pcp types are forced, so that HIGHATOMIC
 * blocks keep their type. The target_blocks bit of each zone the block
 * lies in follows.
 */
void set_pageblock_migratetype(struct cma_mm *mm, unsigned long pfn, int mt)
{
	unsigned long start = pfn & ~(mm->pageblock_nr_pages - 1);
	struct zone *zone;

	if (mm->page_group_by_mobility_disabled && (mt < MIGRATE_PCPTYPES || !mm->kernel.highatomic))
		mt = MIGRATE_UNMOVABLE;
	__atomic_store_n(&mm->pageblock_flags[pageblock_index(mm, pfn)], (uint8_t)mt,
			 __ATOMIC_RELAXED);
	for_each_zone(mm, zone) {
		unsigned long b = zone_block_index(zone, pfn), *w;

		if (!zone->spanned_pages || zone->zone_start_pfn >= start + mm->pageblock_nr_pages ||
		    start >= zone->zone_start_pfn + zone->spanned_pages)
			continue;
		/* a locked op: a block two zones share is typed under either one's lock */
		w = &zone->target_blocks[BIT_WORD(b)];
		if (migrate_async_suitable(mt))
			__atomic_fetch_or(w, BIT_MASK(b), __ATOMIC_RELAXED);
		else
			__atomic_fetch_and(w, ~BIT_MASK(b), __ATOMIC_RELAXED);
	}
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

/* Is the block at @start the tail of a free buddy larger than a pageblock? */
static bool inside_free_buddy(struct cma_mm *mm, unsigned long start)
{
	for (unsigned o = mm->pageblock_order + 1; o < mm->max_order; o++) {
		unsigned long head = start & ~((1ul << o) - 1);
		struct cma_page *page;

		if (head == start || !pfn_valid(mm, head))
			continue;
		page = pfn_to_page(mm, head);
		if ((page_flags(page) & PG_buddy) && page_order(page) >= o)
			return true;
	}
	return false;
}

/*
 * cma_pageblock_stat() - what /proc/pagetypeinfo would say of one block,
 * for pictures: a racy read, like the kernel's pagetypeinfo_showblockcount.
 * Free pages are those in buddy blocks; per-CPU lists count as used.
 */
int cma_pageblock_stat(struct cma_mm *mm, unsigned long pfn, struct cma_pageblock_stat *st)
{
	unsigned long start, end, nr_pages = 0, nr_free = 0, nr_lru = 0, nr_reserved = 0;
	bool all_valid;

	if (!st || !mm || mm->phase != MM_BOOTED)
		return -EINVAL;
	start = pfn & ~(mm->pageblock_nr_pages - 1);
	end = start + mm->pageblock_nr_pages;
	memset(st, 0, sizeof(*st));
	st->migratetype = -1;
	if (inside_free_buddy(mm, start)) {
		st->migratetype = get_pageblock_migratetype(mm, start);
		st->nr_pages = st->nr_free = mm->pageblock_nr_pages;
		return 0;
	}
	/* a pass over every page of the block: the counts in registers, pfn_valid once if it can */
	all_valid = pfn_range_in_big_bank(mm, start, end);
	for (pfn = start; pfn < end; pfn++) {
		struct cma_page *page;
		uint32_t flags;

		if (!all_valid && !pfn_valid(mm, pfn))
			continue;
		if (st->migratetype < 0)
			st->migratetype = get_pageblock_migratetype(mm, pfn);
		nr_pages++;
		page = pfn_to_page(mm, pfn);
		flags = page_flags(page);
		if (flags & PG_reserved)
			nr_reserved++;
		else if (flags & PG_lru)
			nr_lru++;
		if (flags & PG_buddy) {
			unsigned long n = 1ul << ((flags & PG_ORDER_MASK) >> PG_ORDER_SHIFT);

			/* a buddy larger than a block covers it whole; count this block's part */
			if (pfn + n > end)
				n = end - pfn;
			nr_free += n;
			nr_pages += n - 1;
			pfn += n - 1;
		}
	}
	st->nr_pages = nr_pages;
	st->nr_free = nr_free;
	st->nr_lru = nr_lru;
	st->nr_reserved = nr_reserved;
	return st->migratetype < 0 ? -EINVAL : 0;
}

/*
 * cma_pageblock_free() - cma_pageblock_stat's type and counts of free
 * and valid pages from the zone's free_heads bits (set iff the pfn has
 * PG_buddy), which the walk of every page would find one by one; a
 * block with a hole or across a zone's end is walked.
 */
int cma_pageblock_free(struct cma_mm *mm, unsigned long pfn, struct cma_pageblock_stat *st)
{
	unsigned long start, end, base, last;
	struct zone *zone;
	int ret;

	if (!st || !mm || mm->phase != MM_BOOTED)
		return -EINVAL;
	start = pfn & ~(mm->pageblock_nr_pages - 1);
	end = start + mm->pageblock_nr_pages;
	zone = pfn_range_in_big_bank(mm, start, end) ? pfn_zone(mm, start) : NULL;
	if (!zone || start < zone->zone_start_pfn ||
	    end > zone->zone_start_pfn + zone->spanned_pages) {
		ret = cma_pageblock_stat(mm, pfn, st);
		st->nr_lru = st->nr_reserved = 0;
		return ret;
	}
	memset(st, 0, sizeof(*st));
	st->migratetype = get_pageblock_migratetype(mm, start);
	st->nr_pages = mm->pageblock_nr_pages;
	if (inside_free_buddy(mm, start)) {
		st->nr_free = mm->pageblock_nr_pages;
		return 0;
	}
	if (!__atomic_load_n(&zone->block_heads[zone_block_index(zone, start)], __ATOMIC_RELAXED))
		return 0;
	base = zone->zone_start_pfn;
	last = end - base;
	for (unsigned long b = find_next_bit(zone->free_heads, last, start - base); b < last;
	     b = find_next_bit(zone->free_heads, last, b + 1)) {
		unsigned long n = 1ul << page_order(pfn_to_page(mm, base + b));

		/* a buddy larger than a block covers it whole; count this block's part */
		st->nr_free += n < last - b ? n : last - b;
	}
	return 0;
}
