// SPDX-License-Identifier: GPL-2.0
/*
 * The buddy allocator of the CMA patch set (v23 on v3.4): free areas per
 * order and migrate type, the fallback table with MIGRATE_CMA, per-CPU
 * page lists, watermarks, lowmem_reserve and the MIGRATE_RESERVE blocks.
 *
 * The one idea: a free block of 2^order pages is known by its head page
 * (PG_buddy, order in the flags, list type in page->private), and its
 * buddy is at pfn ^ 2^order; freeing merges buddies up to MAX_ORDER-1.
 * The two CMA rules live in __rmqueue_fallback(): MOVABLE falls back to
 * CMA first, nothing else ever reaches the CMA lists, and no fallback
 * changes the type of a CMA pageblock.
 *
 * Under the 6.12 profile (profile.h's switches) __rmqueue follows the
 * later kernels: ALLOC_CMA lets movable requests at CMA before any steal
 * (and first, while CMA holds over half of the free pages), 6.12's claim
 * and steal replace __rmqueue_fallback, HIGHATOMIC blocks reserved on
 * demand replace the RESERVE ones, and a steal boosts the watermarks.
 *
 * This file never calls upward: reclaim and compaction belong to the
 * slow path (slowpath.c), which calls in here.
 */
#include <string.h>

#include "lib/bitmap.h"
#include "mm/internal.h"

/* ---- counters ---- */

void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	VM_BUG_ON(item == NR_FREE_PAGES || item == NR_FREE_CMA_PAGES);
	atomic_fetch_add_explicit(&zone->vm_stat[item], delta, memory_order_relaxed);
}

/*
 * NR_FREE_PAGES and NR_FREE_CMA_PAGES follow the lists, from 3.7 all but
 * the ISOLATE ones (kernel.isolated_free_uncounted); zone->lock held.
 */
static void zone_free_add(struct zone *zone, long nr, int mt)
{
	lockdep_assert_held(&zone->lock);
	if (mt == MIGRATE_ISOLATE && zone->mm->kernel.isolated_free_uncounted)
		return;
	atomic_store_explicit(&zone->free_pages,
			      atomic_load_explicit(&zone->free_pages, memory_order_relaxed) + nr,
			      memory_order_relaxed);
	if (is_migrate_cma(mt))
		atomic_store_explicit(&zone->free_cma,
				      atomic_load_explicit(&zone->free_cma, memory_order_relaxed) + nr,
				      memory_order_relaxed);
	else if (is_migrate_highatomic(mt))
		atomic_store_explicit(&zone->free_highatomic,
				      atomic_load_explicit(&zone->free_highatomic, memory_order_relaxed) + nr,
				      memory_order_relaxed);
}

/* ---- free areas (zone->lock held) ---- */

/* nr_free is read without the lock by zone_watermark_ok(): store atomically. */
static void nr_free_add(struct free_area *area, long delta)
{
	__atomic_store_n(&area->nr_free, area->nr_free + delta, __ATOMIC_RELAXED);
}

/* CONFIG_PCP_BATCH_SCALE_MAX's default: a refill or bulk free grows to at most batch << 5 */
#define PCP_BATCH_SCALE_MAX	5

static inline int min_int(int a, int b)
{
	return a < b ? a : b;
}

static inline int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* The kernel's clamp(): @lo wins over @hi */
static inline int clamp_int(int v, int lo, int hi)
{
	return max_int(min_int(v, hi), lo);
}

/* pcp->count changes under slot->lock; drain_all_pages() peeks at it without. */
static void pcp_count_add(struct per_cpu_pages *pcp, int delta)
{
	__atomic_store_n(&pcp->count, pcp->count + delta, __ATOMIC_RELAXED);
}

/*
 * A free head came (@delta 1) or went (-1) at @pfn: its pageblock's count
 * of free_heads bits follows, and its head_blocks bit at the first or last.
 */
static void block_heads_add(struct zone *zone, unsigned long pfn, int delta)
{
	unsigned long b = zone_block_index(zone, pfn);
	unsigned heads = zone->block_heads[b] + (unsigned)delta;

	__atomic_store_n(&zone->block_heads[b], heads, __ATOMIC_RELAXED);
	if (heads == (delta > 0)) {
		unsigned long *w = &zone->head_blocks[BIT_WORD(b)];

		__atomic_store_n(w, heads ? *w | BIT_MASK(b) : *w & ~BIT_MASK(b), __ATOMIC_RELAXED);
	}
}

/* PG_buddy and the order on the head of a free block of @zone, and its bit in free_heads. */
static void set_page_order(struct zone *zone, struct cma_page *page, unsigned order)
{
	unsigned long pfn = page_to_pfn(zone->mm, page);

	page_flags_store(page, (page_flags(page) & (PG_ZONE_MASK)) | PG_buddy |
			       (order << PG_ORDER_SHIFT));
	/* read without zone->lock by the free scanner (suitable_migration_target) */
	assign_bit_once(pfn - zone->zone_start_pfn, zone->free_heads, true);
	block_heads_add(zone, pfn, 1);
}

static void rmv_page_order(struct zone *zone, struct cma_page *page)
{
	unsigned long pfn = page_to_pfn(zone->mm, page);

	page_flags_store(page, page_flags(page) & PG_ZONE_MASK);
	assign_bit_once(pfn - zone->zone_start_pfn, zone->free_heads, false);
	block_heads_add(zone, pfn, -1);
}

static void add_to_free_area(struct zone *zone, struct cma_page *page, unsigned order, int mt,
			     bool tail)
{
	struct page_list *l = &zone->free_area[order].free_list[mt];

	set_page_order(zone, page, order);
	page->private = mt;
	if (tail)
		page_list_add_tail(zone->mm, l, page);
	else
		page_list_add(zone->mm, l, page);
	nr_free_add(&zone->free_area[order], 1);
	zone_free_add(zone, 1l << order, mt);
}

static void del_from_free_area(struct zone *zone, struct cma_page *page, unsigned order)
{
	int mt = (int)page->private;

	page_list_del(zone->mm, &zone->free_area[order].free_list[mt], page);
	rmv_page_order(zone, page);
	nr_free_add(&zone->free_area[order], -1);
	zone_free_add(zone, -(1l << order), mt);
}

/* Untouched pages moved to @mt's list: to its tail under kernel.move_free_to_tail, else its head. */
static void move_to_free_list(struct zone *zone, struct cma_page *page, unsigned order, int mt)
{
	struct page_list *l = &zone->free_area[order].free_list[mt];
	int old = (int)page->private;

	page_list_del(zone->mm, &zone->free_area[order].free_list[old], page);
	zone_free_add(zone, -(1l << order), old);
	page->private = mt;
	if (zone->mm->kernel.move_free_to_tail)
		page_list_add_tail(zone->mm, l, page);
	else
		page_list_add(zone->mm, l, page);
	zone_free_add(zone, 1l << order, mt);
}

static bool page_is_buddy(struct zone *zone, unsigned long buddy_pfn, unsigned order)
{
	struct cma_mm *mm = zone->mm;
	struct cma_page *buddy;
	uint32_t f;

	if (buddy_pfn < mm->base_pfn || buddy_pfn >= mm->end_pfn)
		return false;
	buddy = pfn_to_page(mm, buddy_pfn);
	f = page_flags(buddy);
	/* holes have no flags, so PG_buddy also stands for pfn_valid_within */
	return (f & PG_buddy) && page_order(buddy) == order &&
	       ((f & PG_ZONE_MASK) >> PG_ZONE_SHIFT) == (uint32_t)zone->idx;
}

static bool pageblock_isolated(struct cma_mm *mm, unsigned long pfn)
{
	return get_pageblock_migratetype(mm, pfn) == MIGRATE_ISOLATE;
}

/*
 * Departure from v3.5 (later kernels refuse the same merge in
 * __free_one_page): while pageblocks are isolated, two pageblock-sized
 * buddies merge only if both or neither are isolated, so that no free
 * block lies partly in an isolated pageblock, where a pageblock-granular
 * isolation would leave part of it allocatable. zone->lock held.
 */
static bool merge_crosses_isolation(struct cma_mm *mm, unsigned long pfn, unsigned long buddy_pfn,
				    unsigned order)
{
	lockdep_assert_held(&page_zone(mm, pfn_to_page(mm, pfn))->lock);
	if (order < mm->pageblock_order)
		return false;
	/*
	 * cma_pageblock_align: a CMA area may be a single pageblock ("mm: cma:
	 * use pageblock_order as the single alignment"), so as "mm:
	 * page_alloc: avoid merging non-fallbackable pageblocks with others"
	 * a CMA pageblock does not merge with a pageblock of another type.
	 */
	if (mm->kernel.cma_pageblock_align &&
	    is_migrate_cma(get_pageblock_migratetype(mm, pfn)) !=
	    is_migrate_cma(get_pageblock_migratetype(mm, buddy_pfn)))
		return true;
	return atomic_load_explicit(&mm->isolated_pageblocks, memory_order_relaxed) &&
	       pageblock_isolated(mm, pfn) != pageblock_isolated(mm, buddy_pfn);
}

static void change_pageblock_range(struct cma_mm *mm, unsigned long pfn, unsigned order, int mt)
{
	unsigned long nr = 1ul << (order - mm->pageblock_order);

	for (; nr--; pfn += mm->pageblock_nr_pages)
		set_pageblock_migratetype(mm, pfn, mt);
}

/*
 * kernel.highatomic (6.12's __free_one_page): pageblock-sized buddies of
 * different types merge only if both types are mergeable (the pcp
 * types), so that a HIGHATOMIC block keeps its own free pages.
 */
static bool merge_crosses_types(struct cma_mm *mm, unsigned long pfn, unsigned long buddy_pfn,
				unsigned order)
{
	int mt, buddy_mt;

	if (order < mm->pageblock_order || !mm->kernel.highatomic)
		return false;
	mt = get_pageblock_migratetype(mm, pfn);
	buddy_mt = get_pageblock_migratetype(mm, buddy_pfn);
	return mt != buddy_mt && (mt >= MIGRATE_PCPTYPES || buddy_mt >= MIGRATE_PCPTYPES);
}

/*
 * __free_one_page: merge with free buddies up to MAX_ORDER-1, whatever
 * their pageblocks' types (short of an isolation edge), and put the
 * result on @mt's list. If the buddy one order up is free too, the block
 * goes to the tail, so that it stays free long enough to merge.
 */
static void __free_one_page_fpi(struct zone *zone, struct cma_page *page, unsigned order, int mt,
				bool to_tail)
{
	struct cma_mm *mm = zone->mm;
	unsigned long pfn = page_to_pfn(mm, page);
	bool tail = to_tail;

	VM_BUG_ON(pfn & ((1ul << order) - 1));
	while (order < mm->max_order - 1) {
		unsigned long buddy_pfn = pfn ^ (1ul << order);

		if (!page_is_buddy(zone, buddy_pfn, order) ||
		    merge_crosses_isolation(mm, pfn, buddy_pfn, order) ||
		    merge_crosses_types(mm, pfn, buddy_pfn, order))
			break;
		del_from_free_area(zone, pfn_to_page(mm, buddy_pfn), order);
		/* kernel.highatomic: the merged block is all of @mt, as 6.12 retypes the buddy */
		if (order >= mm->pageblock_order && mm->kernel.highatomic &&
		    get_pageblock_migratetype(mm, buddy_pfn) != mt)
			change_pageblock_range(mm, buddy_pfn, order, mt);
		pfn &= buddy_pfn;
		order++;
	}
	if (!tail && order + 2 < mm->max_order) {
		unsigned long higher = pfn & ~(1ul << order);

		tail = page_is_buddy(zone, higher ^ (1ul << (order + 1)), order + 1);
	}
	add_to_free_area(zone, pfn_to_page(mm, pfn), order, mt, tail);
}

static void __free_one_page(struct zone *zone, struct cma_page *page, unsigned order, int mt)
{
	__free_one_page_fpi(zone, page, order, mt, false);
}

/*
 * Free a block bigger than a pageblock as its pageblocks, each to its own
 * block's type, as 6.10's split_large_buddy: part of it may lie in an
 * isolated pageblock. @to_tail puts them at their lists' tail
 * (FPI_TO_TAIL). zone->lock held.
 */
static void free_pageblocks_of(struct zone *zone, unsigned long pfn, unsigned order, bool to_tail)
{
	struct cma_mm *mm = zone->mm;

	lockdep_assert_held(&zone->lock);
	for (unsigned long p = pfn; p < pfn + (1ul << order); p += mm->pageblock_nr_pages)
		__free_one_page_fpi(zone, pfn_to_page(mm, p), mm->pageblock_order,
				    get_pageblock_migratetype(mm, p), to_tail);
}

/* A page freed to @zone: reclaim may find more there (v3.5 clears these in both free paths). */
static void zone_reclaim_reset(struct zone *zone)
{
	atomic_store_explicit(&zone->all_unreclaimable, false, memory_order_relaxed);
	atomic_store_explicit(&zone->pages_scanned, 0, memory_order_relaxed);
}

void free_one_page(struct zone *zone, struct cma_page *page, unsigned order, int mt)
{
	struct cma_mm *mm = zone->mm;

	spin_lock(&zone->lock);
	zone_reclaim_reset(zone);
	/*
	 * kernel.highatomic: each pageblock to its own list, as 6.12's
	 * split_large_buddy, so that no free block lies on another type's
	 * list (the hygiene the library keeps from 4.4; a departure before
	 * 6.12, which freed the block whole to its first pageblock's list).
	 * Before 4.4, a departure only while isolating: see
	 * merge_crosses_isolation().
	 */
	if (order > mm->pageblock_order &&
	    (mm->kernel.highatomic ||
	     atomic_load_explicit(&mm->isolated_pageblocks, memory_order_relaxed)))
		free_pageblocks_of(zone, page_to_pfn(mm, page), order, false);
	else
		__free_one_page(zone, page, order, mt);
	spin_unlock(&zone->lock);
}

/*
 * Split a 2^high block down to 2^low, putting the upper halves on @mt's
 * lists. The halves' pages lie far apart in mem_map: all are asked for
 * first, so that their misses overlap rather than come one by one.
 */
static void expand(struct zone *zone, struct cma_page *page, unsigned low, unsigned high, int mt)
{
	for (unsigned o = low; o < high; o++)
		prefetchw(page + (1ul << o));
	while (high > low) {
		high--;
		add_to_free_area(zone, page + (1ul << high), high, mt, false);
	}
}

static struct cma_page *__rmqueue_smallest(struct zone *zone, unsigned order, int mt)
{
	for (unsigned o = order; o < zone->mm->max_order; o++) {
		struct cma_page *page = page_list_first(zone->mm, &zone->free_area[o].free_list[mt]);

		if (!page)
			continue;
		del_from_free_area(zone, page, o);
		expand(zone, page, order, o, mt);
		return page;
	}
	return NULL;
}

/*
 * Where each type falls back to when its own lists are empty, ending at
 * MIGRATE_RESERVE (seeds 004, 005). MOVABLE tries CMA first; no other
 * row names CMA, which is rule 1 of CMA.
 */
static const int fallbacks[MIGRATE_TYPES][4] = {
	[MIGRATE_UNMOVABLE]   = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE,     MIGRATE_RESERVE },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE,   MIGRATE_MOVABLE,     MIGRATE_RESERVE },
	[MIGRATE_MOVABLE]     = { MIGRATE_CMA,         MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE,
				  MIGRATE_RESERVE },
	[MIGRATE_RESERVE]     = { MIGRATE_RESERVE },	/* never used */
	[MIGRATE_CMA]         = { MIGRATE_RESERVE },	/* never used */
	[MIGRATE_ISOLATE]     = { MIGRATE_RESERVE },	/* never used */
};

/*
 * Move the free blocks of [start_pfn, end_pfn] to @mt's lists; returns
 * the pages moved. The pageblock types are the caller's business.
 */
static int move_freepages(struct zone *zone, unsigned long start_pfn, unsigned long end_pfn, int mt)
{
	struct cma_mm *mm = zone->mm;
	int moved = 0;

	for (unsigned long pfn = start_pfn; pfn <= end_pfn;) {
		struct cma_page *page = pfn_to_page(mm, pfn);
		unsigned order;

		if (!page_test(page, PG_buddy)) {
			pfn++;
			continue;
		}
		VM_BUG_ON(page_zonenum(page) != (unsigned)zone->idx);
		order = page_order(page);
		move_to_free_list(zone, page, order, mt);
		pfn += 1ul << order;
		moved += 1 << order;
	}
	return moved;
}

int move_freepages_block(struct zone *zone, struct cma_page *page, int mt)
{
	struct cma_mm *mm = zone->mm;
	unsigned long pfn = page_to_pfn(mm, page);
	unsigned long start = pfn & ~(mm->pageblock_nr_pages - 1);
	unsigned long end = start + mm->pageblock_nr_pages - 1;
	int moved;

	/* do not cross zone boundaries */
	if (start < zone->zone_start_pfn)
		start = pfn;
	if (end >= zone->zone_start_pfn + zone->spanned_pages)
		return 0;
	moved = move_freepages(zone, start, end, mt);
	VM_VERIFY_ZONE(zone, "move_freepages_block");
	return moved;
}

/*
 * Is @pfn inside a free block of a pageblock or more? Its head in *@head.
 * A tail page has no PG_buddy: the first head found going up is the one.
 * zone->lock held.
 */
static bool free_block_covering(struct zone *zone, unsigned long pfn, unsigned long *head)
{
	struct cma_mm *mm = zone->mm;

	lockdep_assert_held(&zone->lock);
	for (unsigned order = 0; order < mm->max_order; order++) {
		unsigned long h = pfn & (~0ul << order);
		struct cma_page *page;

		if (h < zone->zone_start_pfn)
			return false;
		page = pfn_to_page(mm, h);
		if (!page_test(page, PG_buddy))
			continue;
		*head = h;
		return page_order(page) >= mm->pageblock_order && h + (1ul << page_order(page)) > pfn;
	}
	return false;
}

/*
 * The 2^@order block at @pfn (aligned to it) off the free lists, the rest
 * of the free buddy holding it put back as halves, as 6.12's
 * take_page_off_buddy() and break_down_buddy_pages() do for one page. NULL when the block is not wholly free. zone->lock held.
 */
static struct cma_page *take_free_block_at(struct zone *zone, unsigned long pfn, unsigned order)
{
	struct cma_mm *mm = zone->mm;

	lockdep_assert_held(&zone->lock);
	for (unsigned o = order; o < mm->max_order; o++) {
		unsigned long h = pfn & (~0ul << o);
		struct cma_page *head;
		unsigned ho;

		if (h < zone->zone_start_pfn)
			return NULL;
		head = pfn_to_page(mm, h);
		if (!page_test(head, PG_buddy))
			continue;
		ho = page_order(head);
		if (ho < order || h + (1ul << ho) <= pfn)
			return NULL;
		del_from_free_area(zone, head, ho);
		/* each half goes back to its own pageblock's list, as break_down_buddy_pages */
		while (ho > order) {
			unsigned long half = 1ul << --ho;

			if (pfn >= h + half) {
				add_to_free_area(zone, head, ho, get_pageblock_migratetype(mm, h), false);
				h += half;
				head += half;
			} else {
				add_to_free_area(zone, head + half, ho,
						 get_pageblock_migratetype(mm, h + half), false);
			}
		}
		return head;
	}
	return NULL;
}

/*
 * move_freepages_block_isolate: give the pageblock at @page type @mt, to
 * or from MIGRATE_ISOLATE, with its free pages. zone->lock held, and
 * mm->isolated_pageblocks counting the block while it is ISOLATE.
 * Departure from v3.5, as kernels since 5.19 do (isolate_single_pageblock,
 * then 6.10's move_freepages_block_isolate): a free block of a pageblock
 * or more that holds this one is taken off its list and freed again as
 * pageblocks, each to its block's type: a block straddling the edge of a
 * pageblock-granular isolation is split, and one whose isolation ends
 * merges with its free buddies. A HIGHATOMIC block keeps its pages in
 * nr_reserved_highatomic, as the kernel's (zone->highatomic_retyped).
 */
void move_freepages_block_isolate(struct zone *zone, struct cma_page *page, int mt)
{
	struct cma_mm *mm = zone->mm;
	unsigned long pfn = page_to_pfn(mm, page) & ~(mm->pageblock_nr_pages - 1), head;
	unsigned order;

	lockdep_assert_held(&zone->lock);
	if (is_migrate_highatomic(get_pageblock_migratetype(mm, pfn)) != is_migrate_highatomic(mt))
		zone->highatomic_retyped += is_migrate_highatomic(mt) ? -(long)mm->pageblock_nr_pages :
					    (long)mm->pageblock_nr_pages;
	set_pageblock_migratetype(mm, pfn, mt);
	if (!free_block_covering(zone, pfn, &head)) {
		move_freepages_block(zone, page, mt);
		return;
	}
	order = page_order(pfn_to_page(mm, head));
	del_from_free_area(zone, pfn_to_page(mm, head), order);
	/* untouched, as __putback_isolated_page's: to the tail under kernel.move_free_to_tail */
	free_pageblocks_of(zone, head, order, mm->kernel.move_free_to_tail);
}

static void trace_extfrag(struct zone *zone, struct cma_page *page, unsigned order,
			  unsigned fallback_order, int start_mt, int fallback_mt)
{
	struct cma_mm *mm = zone->mm;

	trace_event(mm, CMA_TRACE_MM_PAGE_ALLOC_EXTFRAG, extfrag,
		    .pfn = page_to_pfn(mm, page), .alloc_order = order, .fallback_order = fallback_order,
		    .pageblock_order = mm->pageblock_order, .alloc_migratetype = start_mt,
		    .fallback_migratetype = fallback_mt);
}

/*
 * The type a fallback's split remainder goes to: CMA's own; else the
 * requester's, except that from 3.13 to 3.19 a block not claimed keeps
 * it (kernel.fallback_respects_type, undone by 4.0's
 * kernel.fallback_steals_split).
 */
static int fallback_remainder_type(struct cma_mm *mm, int fallback_mt, int start_mt, bool claimed)
{
	if (is_migrate_cma(fallback_mt))
		return fallback_mt;
	if (claimed || !mm->kernel.fallback_respects_type || mm->kernel.fallback_steals_split)
		return start_mt;
	return fallback_mt;
}

/*
 * __rmqueue_fallback: steal the largest block of another type, so that
 * fragmentation is kept to few pageblocks. Large steals (or any for
 * RECLAIMABLE, and from 4.0 for UNMOVABLE: kernel.unmovable_steals_block)
 * move the whole pageblock's free pages, and claim the block if that was
 * at least half of it; never for MIGRATE_CMA, whose pages keep their type
 * so that only movable allocations hold them.
 */
static struct cma_page *__rmqueue_fallback(struct zone *zone, unsigned order, int start_mt)
{
	struct cma_mm *mm = zone->mm;

	for (int o = mm->max_order - 1; o >= (int)order; o--) {
		for (int i = 0;; i++) {
			int fallback_mt = fallbacks[start_mt][i], mt = fallback_mt;
			bool claimed = false;
			struct cma_page *page;
			unsigned long pfn;

			if (mt == MIGRATE_RESERVE)
				break;
			page = page_list_first(mm, &zone->free_area[o].free_list[mt]);
			if (!page)
				continue;
			pfn = page_to_pfn(mm, page);
			if (!is_migrate_cma(mt) &&
			    ((unsigned)o >= mm->pageblock_order / 2 ||
			     start_mt == MIGRATE_RECLAIMABLE ||
			     (start_mt == MIGRATE_UNMOVABLE && mm->kernel.unmovable_steals_block) ||
			     mm->page_group_by_mobility_disabled)) {
				int pages = move_freepages_block(zone, page, start_mt);

				if (pages >= (1 << (mm->pageblock_order - 1)) ||
				    mm->page_group_by_mobility_disabled) {
					set_pageblock_migratetype(mm, pfn, start_mt);
					claimed = true;
				}
				mt = start_mt;
			}
			del_from_free_area(zone, page, o);
			if ((unsigned)o >= mm->pageblock_order && !is_migrate_cma(mt)) {
				change_pageblock_range(mm, pfn, o, start_mt);
				claimed = true;
			}
			/* the page's list is its remainder's (rmqueue_bulk may record it) */
			page->private = fallback_remainder_type(mm, fallback_mt, start_mt, claimed);
			expand(zone, page, order, o, (int)page->private);
			trace_extfrag(zone, page, order, o, start_mt, mt);
			VM_VERIFY_ZONE(zone, "__rmqueue_fallback");
			return page;
		}
	}
	return NULL;
}

/* ---- the 6.12 fallback rules (kernel.highatomic) ---- */

/*
 * 6.12's fallbacks: the pcp types only. CMA is no one's fallback (movable
 * requests reach it by ALLOC_CMA, before any steal) and HIGHATOMIC
 * blocks only by their own rules. The rows are 3.5's less RESERVE.
 */
static const int fallbacks_v6[MIGRATE_PCPTYPES][MIGRATE_PCPTYPES - 1] = {
	[MIGRATE_UNMOVABLE]   = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE,   MIGRATE_MOVABLE },
	[MIGRATE_MOVABLE]     = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
};

/*
 * can_steal_fallback: a whole block is worth claiming for a large
 * block, and always for an unmovable or reclaimable request, whose
 * pages spoil a movable block more than movable pages spoil theirs.
 */
static bool can_steal_fallback(struct cma_mm *mm, unsigned order, int start_mt)
{
	return order >= mm->pageblock_order / 2 || start_mt != MIGRATE_MOVABLE ||
	       mm->page_group_by_mobility_disabled;
}

/* find_suitable_fallback: the first fallback type with a free block of @order, or -1. */
int find_suitable_fallback(struct zone *zone, unsigned order, int start_mt, bool *can_steal)
{
	struct free_area *area = &zone->free_area[order];

	if (!area->nr_free)
		return -1;
	for (int i = 0; i < MIGRATE_PCPTYPES - 1; i++) {
		int mt = fallbacks_v6[start_mt][i];

		if (page_list_empty(&area->free_list[mt]))
			continue;
		*can_steal = can_steal_fallback(zone->mm, order, start_mt);
		return mt;
	}
	return -1;
}

unsigned long max_watermark_boost(const struct zone *zone)
{
	unsigned long high = __atomic_load_n(&zone->watermark[WMARK_HIGH], __ATOMIC_RELAXED);
	/* mult_frac: no overflow for any mark */
	unsigned long max = high / 10000 * WATERMARK_BOOST_FACTOR +
			    high % 10000 * WATERMARK_BOOST_FACTOR / 10000;

	if (!max)
		return 0;
	return max > zone->mm->pageblock_nr_pages ? max : zone->mm->pageblock_nr_pages;
}

/*
 * boost_watermark (5.0): raise the zone's marks by a pageblock, up to
 * 150% of the high mark, so that kswapd reclaims ahead of the next
 * fallback. Not in zones of under four pageblocks, where the boost could
 * exhaust them at once, nor before the marks exist. zone->lock held.
 */
static bool boost_watermark(struct zone *zone)
{
	unsigned long nr = zone->mm->pageblock_nr_pages, max = max_watermark_boost(zone), boost;

	lockdep_assert_held(&zone->lock);
	if (nr * 4 > zone->managed_pages || !max)
		return false;
	boost = zone->watermark_boost + nr;
	__atomic_store_n(&zone->watermark_boost, boost < max ? boost : max, __ATOMIC_RELAXED);
	return true;
}

/*
 * prep_move_freepages_block: the pageblock of @page if it lies wholly in
 * @zone (its first pfn in *@start), with its free pages and the pages in
 * use that migration could move (on the LRU or movable). zone->lock held.
 */
static bool prep_move_freepages_block(struct zone *zone, struct cma_page *page,
				      unsigned long *start, unsigned long *free,
				      unsigned long *movable)
{
	struct cma_mm *mm = zone->mm;
	unsigned long pfn = page_to_pfn(mm, page) & ~(mm->pageblock_nr_pages - 1);
	unsigned long end = pfn + mm->pageblock_nr_pages;

	lockdep_assert_held(&zone->lock);
	if (!zone_spans_pfn(zone, pfn) || !zone_spans_pfn(zone, end - 1))
		return false;
	*start = pfn;
	*free = *movable = 0;
	while (pfn < end) {
		uint32_t f = page_flags(pfn_to_page(mm, pfn));

		if (f & PG_buddy) {
			*free += 1ul << page_order(pfn_to_page(mm, pfn));
			pfn += 1ul << page_order(pfn_to_page(mm, pfn));
			continue;
		}
		if (f & (PG_lru | PG_movable))
			(*movable)++;
		pfn++;
	}
	return true;
}

/* The block at @start and its free pages to @mt. zone->lock held. */
static void move_block_to(struct zone *zone, unsigned long start, int mt)
{
	lockdep_assert_held(&zone->lock);
	set_pageblock_migratetype(zone->mm, start, mt);
	move_freepages(zone, start, start + zone->mm->pageblock_nr_pages - 1, mt);
}

/*
 * try_to_steal_block (6.12): a block of a pageblock or more is claimed
 * whole; from a smaller one, the watermarks are boosted and the block is
 * claimed if at least half of it is free or holds pages alike the
 * request's (for a movable request its movable pages; for another, the
 * unmovable ones of a movable block; none otherwise). NULL when the
 * block stays its type. Never a HIGHATOMIC block.
 */
static struct cma_page *try_to_steal_block(struct zone *zone, struct cma_page *page,
					   unsigned current_order, unsigned order, int start_mt)
{
	struct cma_mm *mm = zone->mm;
	unsigned long pfn = page_to_pfn(mm, page), start, free, movable, alike;
	int block_mt = get_pageblock_migratetype(mm, pfn);

	if (is_migrate_highatomic(block_mt))
		return NULL;
	if (current_order >= mm->pageblock_order) {
		del_from_free_area(zone, page, current_order);
		change_pageblock_range(mm, pfn, current_order, start_mt);
		expand(zone, page, order, current_order, start_mt);
		return page;
	}
	if (mm->kernel.watermark_boost && boost_watermark(zone))
		atomic_store_explicit(&zone->boosted_watermark, true, memory_order_relaxed);
	if (!prep_move_freepages_block(zone, page, &start, &free, &movable))
		return NULL;
	if (start_mt == MIGRATE_MOVABLE)
		alike = movable;
	else if (block_mt == MIGRATE_MOVABLE)
		alike = mm->pageblock_nr_pages - (free + movable);
	else
		alike = 0;
	if (free + alike >= mm->pageblock_nr_pages / 2 || mm->page_group_by_mobility_disabled) {
		move_block_to(zone, start, start_mt);
		return __rmqueue_smallest(zone, order, start_mt);
	}
	return NULL;
}

/*
 * __rmqueue_claim: the largest fallback block whose pageblock can be
 * claimed; under ALLOC_NOFRAGMENT (kernel.alloc_nofragment) a whole
 * pageblock or more only.
 */
static struct cma_page *__rmqueue_claim(struct zone *zone, unsigned order, int start_mt,
					int alloc_flags)
{
	struct cma_mm *mm = zone->mm;
	int min_order = (int)order;

	if (order < mm->pageblock_order && (alloc_flags & ALLOC_NOFRAGMENT))
		min_order = (int)mm->pageblock_order;
	for (int o = mm->max_order - 1; o >= min_order; o--) {
		bool can_steal = false;
		int mt = find_suitable_fallback(zone, o, start_mt, &can_steal);
		struct cma_page *page;

		if (mt < 0)
			continue;
		if (!can_steal)
			break;
		page = try_to_steal_block(zone, page_list_first(mm, &zone->free_area[o].free_list[mt]),
					  o, order, start_mt);
		if (page) {
			trace_extfrag(zone, page, order, o, start_mt, mt);
			return page;
		}
	}
	return NULL;
}

/* __rmqueue_steal: the smallest fallback block, its rest left on its own type's lists. */
static struct cma_page *__rmqueue_steal(struct zone *zone, unsigned order, int start_mt)
{
	struct cma_mm *mm = zone->mm;

	for (unsigned o = order; o < mm->max_order; o++) {
		bool can_steal;
		int mt = find_suitable_fallback(zone, o, start_mt, &can_steal);
		struct cma_page *page;

		if (mt < 0)
			continue;
		page = page_list_first(mm, &zone->free_area[o].free_list[mt]);
		del_from_free_area(zone, page, o);
		expand(zone, page, order, o, mt);
		trace_extfrag(zone, page, order, o, start_mt, mt);
		return page;
	}
	return NULL;
}

/*
 * __rmqueue_v35: @mt's own lists, then the fallbacks, ending at the
 * RESERVE blocks, for any type; a movable request reaches CMA as the
 * first of its fallbacks, largest block first.
 * kernel.cma_fallback_smallest (4.1): a movable request (ALLOC_CMA)
 * takes the smallest CMA block that fits next, before stealing from
 * another type.
 */
static struct cma_page *__rmqueue_v35(struct zone *zone, unsigned order, int mt, int alloc_flags)
{
	struct cma_page *page;

	for (;;) {
		page = __rmqueue_smallest(zone, order, mt);
		if (page || mt == MIGRATE_RESERVE)
			return page;
		if (zone->mm->kernel.cma_fallback_smallest && (alloc_flags & ALLOC_CMA)) {
			page = __rmqueue_smallest(zone, order, MIGRATE_CMA);
			if (page)
				return page;
		}
		page = __rmqueue_fallback(zone, order, mt);
		if (page)
			return page;
		/* the reserve is the last resort, for any type */
		mt = MIGRATE_RESERVE;
	}
}

/*
 * __rmqueue_v6 (kernel.highatomic, 4.4; 6.12's shape): @mt's own lists,
 * CMA for a movable request (6.12's fallback table has none), then claim
 * a block and at last steal (not under ALLOC_NOFRAGMENT), with no
 * reserve. kernel.cma_balance (5.8): CMA first of all while it holds
 * more than half of the zone's free pages, so that CMA is used before
 * the rest runs out.
 */
static struct cma_page *__rmqueue_v6(struct zone *zone, unsigned order, int mt, int alloc_flags)
{
	struct cma_page *page;

	if (zone->mm->kernel.cma_balance && (alloc_flags & ALLOC_CMA) &&
	    zone_page_state(zone, NR_FREE_CMA_PAGES) > zone_page_state(zone, NR_FREE_PAGES) / 2) {
		page = __rmqueue_smallest(zone, order, MIGRATE_CMA);
		if (page)
			return page;
	}
	page = __rmqueue_smallest(zone, order, mt);
	if (page)
		return page;
	if (alloc_flags & ALLOC_CMA) {
		page = __rmqueue_smallest(zone, order, MIGRATE_CMA);
		if (page)
			return page;
	}
	page = __rmqueue_claim(zone, order, mt, alloc_flags);
	if (page || (alloc_flags & ALLOC_NOFRAGMENT))
		return page;
	return __rmqueue_steal(zone, order, mt);
}

/*
 * __rmqueue: the era's, chosen by kernel.highatomic. Releases add their
 * changes in order, so 4.1's cma_fallback_smallest is in every
 * highatomic profile and 5.8's cma_balance in none without it: each
 * variant reads only the switches of its own era.
 */
static struct cma_page *__rmqueue(struct zone *zone, unsigned order, int mt, int alloc_flags)
{
	if (zone->mm->kernel.highatomic)
		return __rmqueue_v6(zone, order, mt, alloc_flags);
	return __rmqueue_v35(zone, order, mt, alloc_flags);
}

/*
 * The type a block rmqueue_bulk took for @mt records, the list it is
 * freed to if it comes back unused: the free list it came from
 * (kernel.freepage_mt_from_list, 3.16; __rmqueue left it in
 * page->private); before, @mt unless its block is CMA or ISOLATE;
 * kernel.highatomic: always its block's, as 6.12 keeps every free page
 * on its block's lists.
 */
static int pcp_freepage_mt(struct cma_mm *mm, struct cma_page *page, int mt)
{
	int pmt;

	if (mm->kernel.freepage_mt_from_list && !mm->kernel.highatomic)
		return (int)page->private;
	pmt = get_pageblock_migratetype(mm, page_to_pfn(mm, page));
	if (mm->kernel.highatomic)
		return pmt;
	return is_migrate_cma(pmt) || pmt == MIGRATE_ISOLATE ? pmt : mt;
}

/* rmqueue_bulk: refill a per-CPU list with @count blocks of @order. */
static noinline int rmqueue_bulk(struct zone *zone, unsigned order, unsigned long count,
				 struct page_list *list, int mt, bool cold, int alloc_flags)
{
	struct cma_mm *mm = zone->mm;
	unsigned long i;

	spin_lock(&zone->lock);
	for (i = 0; i < count; i++) {
		struct cma_page *page = __rmqueue(zone, order, mt, alloc_flags);

		if (!page)
			break;
		page->private = pcp_freepage_mt(mm, page, mt);
		page_flags_store(page, page_flags(page) | PG_pcp | (order << PG_ORDER_SHIFT));
		/* the list is empty: either way the first page taken is the first pulled */
		if (cold)
			page_list_add(mm, list, page);
		else
			page_list_add_tail(mm, list, page);
	}
	VM_VERIFY_ZONE(zone, "rmqueue_bulk");
	spin_unlock(&zone->lock);
	return (int)i;
}

/*
 * free_pcppages_bulk: give at least @count pages of @pcp back to the
 * buddy lists (a whole block each), round-robin over the lists, each to
 * the type recorded when it was freed. Returns the pages given back,
 * taken off pcp->count.
 */
static int free_pcppages_bulk(struct zone *zone, int count, struct per_cpu_pages *pcp)
{
	struct cma_mm *mm = zone->mm;
	/* the round-robin's lists: before 5.14 order 0's, so that batch_free counts only those */
	int nr_lists = mm->kernel.pcp_high_order ? NR_PCP_LISTS : MIGRATE_PCPTYPES;
	int pindex = 0, batch_free = 0, freed = 0;

	/* never more than the lists hold, or the round-robin below finds none */
	if (count > pcp->count)
		count = pcp->count;
	spin_lock(&zone->lock);
	zone_reclaim_reset(zone);
	while (count > 0) {
		struct page_list *list;
		unsigned order;

		do {
			batch_free++;
			if (++pindex == nr_lists)
				pindex = 0;
			list = &pcp->lists[pindex];
		} while (page_list_empty(list));
		/* the only non-empty list: free it all */
		if (batch_free == nr_lists)
			batch_free = count;
		order = pindex_to_order(mm, (unsigned)pindex);
		do {
			struct cma_page *page = page_list_last(mm, list);
			int page_mt = (int)page->private;

			page_list_del(mm, list, page);
			page_flags_store(page, page_flags(page) & ~(PG_pcp | PG_ORDER_MASK));
			count -= 1 << order;
			freed += 1 << order;
			/*
			 * Departure from v3.5 (the fix of 3.18): a page whose block
			 * was isolated since it was freed goes to the ISOLATE list,
			 * not to the type it recorded, where a fallback could steal
			 * it and retype the isolated block.
			 */
			if (atomic_load_explicit(&mm->isolated_pageblocks, memory_order_relaxed) &&
			    get_pageblock_migratetype(mm, page_to_pfn(mm, page)) == MIGRATE_ISOLATE)
				page_mt = MIGRATE_ISOLATE;
			/*
			 * kernel.highatomic: to the block's type now, as 6.12, so
			 * that a block reserved or unreserved meanwhile keeps its
			 * free pages on its own lists.
			 */
			else if (mm->kernel.highatomic)
				page_mt = get_pageblock_migratetype(mm, page_to_pfn(mm, page));
			__free_one_page(zone, page, order, page_mt);
		} while (count > 0 && --batch_free && !page_list_empty(list));
	}
	VM_VERIFY_ZONE(zone, "free_pcppages_bulk");
	spin_unlock(&zone->lock);
	pcp_count_add(pcp, -freed);
	return freed;
}

/* ---- watermarks ---- */

/*
 * kernel.highatomic (4.4, "only enforce watermarks for order-0
 * allocations"): past the order-0 check, a high order needs one free
 * block of at least its order on a list it may take from. The kernel
 * peeks at the lists without the lock; here they are read under it.
 */
noinline bool zone_has_free_block(struct zone *z, unsigned order, int alloc_flags)
{
	bool found = false;

	spin_lock(&z->lock);
	for (unsigned o = order; o < z->mm->max_order && !found; o++) {
		const struct free_area *area = &z->free_area[o];

		for (int mt = 0; mt < MIGRATE_PCPTYPES && !found; mt++)
			found = !page_list_empty(&area->free_list[mt]);
		if ((alloc_flags & ALLOC_CMA) && !page_list_empty(&area->free_list[MIGRATE_CMA]))
			found = true;
		if ((alloc_flags & ALLOC_HIGHATOMIC) &&
		    !page_list_empty(&area->free_list[MIGRATE_HIGHATOMIC]))
			found = true;
	}
	spin_unlock(&z->lock);
	return found;
}

/*
 * The part of @min a request may take from the reserves: __GFP_HIGH half,
 * atomic requests a quarter of the rest. kernel.alloc_non_block: a
 * request that cannot sleep digs deeper only with __GFP_HIGH.
 */
static inline long reserve_min(const struct kernel_profile *k, long min, int alloc_flags)
{
	if (alloc_flags & ALLOC_HIGH)
		min -= min / 2;
	if ((alloc_flags & ALLOC_HARDER) && (!k->alloc_non_block || (alloc_flags & ALLOC_HIGH)))
		min -= min / 4;
	return min;
}

/*
 * The flags with rights to the HIGHATOMIC reserve's pages: ALLOC_HARDER's
 * until kernel.alloc_non_block gives them to every reserve flag,
 * __GFP_HIGH's too.
 */
static inline int highatomic_rights(const struct kernel_profile *k)
{
	return k->alloc_non_block ? ALLOC_RESERVES : ALLOC_HARDER;
}

/*
 * The HIGHATOMIC reserve a request without those rights may not count
 * as free (kernel.highatomic): all of nr_reserved_highatomic, free or
 * not, until 6.12 (kernel.wmark_free_highatomic) counts its free pages.
 */
static inline long highatomic_unusable(const struct zone *z, int alloc_flags)
{
	const struct kernel_profile *k = &z->mm->kernel;

	if (!k->highatomic || (alloc_flags & highatomic_rights(k)))
		return 0;
	if (k->wmark_free_highatomic)
		return atomic_load_explicit(&z->free_highatomic, memory_order_relaxed);
	return (long)__atomic_load_n(&z->nr_reserved_highatomic, __ATOMIC_RELAXED);
}

/*
 * zone_watermark_ok, inline for get_page_from_freelist(): every
 * allocation asks. @free_pages: the zone's free pages, or what
 * should_reclaim_retry supposes they could become.
 */
static inline bool __zone_watermark_ok(struct zone *z, unsigned order, unsigned long mark,
				       int classzone_idx, int alloc_flags, long free_pages)
{
	const struct kernel_profile *k = &z->mm->kernel;
	long min = mark;

	free_pages -= (1l << order) - 1;

	/*
	 * v23: free CMA pages count here for every request, movable or not;
	 * kernel.alloc_cma: only for those that may take them. Nor does the
	 * HIGHATOMIC reserve (highatomic_unusable).
	 */
	if (k->alloc_cma && !(alloc_flags & ALLOC_CMA))
		free_pages -= zone_page_state(z, NR_FREE_CMA_PAGES);
	free_pages -= highatomic_unusable(z, alloc_flags);
	min = reserve_min(k, min, alloc_flags);
	if (free_pages <= min + (long)__atomic_load_n(&z->lowmem_reserve[classzone_idx],
							  __ATOMIC_RELAXED))
		return false;
	if (k->highatomic)
		return !order || zone_has_free_block(z, order, alloc_flags);
	for (unsigned o = 0; o < order; o++) {
		/* at the next order, this order's pages become unavailable */
		free_pages -= (long)__atomic_load_n(&z->free_area[o].nr_free, __ATOMIC_RELAXED) << o;
		min >>= 1;
		if (free_pages <= min)
			return false;
	}
	return true;
}

bool zone_watermark_ok(struct zone *z, unsigned order, unsigned long mark, int classzone_idx,
		       int alloc_flags)
{
	return __zone_watermark_ok(z, order, mark, classzone_idx, alloc_flags,
				   zone_page_state(z, NR_FREE_PAGES));
}

bool zone_watermark_ok_free(struct zone *z, unsigned order, unsigned long mark, int classzone_idx,
			    int alloc_flags, unsigned long free_pages)
{
	return __zone_watermark_ok(z, order, mark, classzone_idx, alloc_flags, (long)free_pages);
}

/* ---- allocation ---- */

/*
 * count_fresh_frames: mark the 2^@order frames at @page as written and
 * count those never written before since boot (PGALLOC_FRESH). Not the
 * kernel's: a guest's frame the host has never backed costs a host fault
 * at its first write, which the simulator prices. Called where the frames
 * go to a user who writes them: the page allocator's callers, and a
 * migration target when the copy fills it (compaction's targets come
 * from split_free_page, as do alloc_contig_range's own pages, which
 * nobody writes there). mark_fresh_frames sets the bits and says how
 * many were clear, for a caller that holds the slot lock already.
 */
static inline unsigned long mark_fresh_frames(struct cma_mm *mm, struct cma_page *page,
					      unsigned order)
{
	unsigned long idx = page_to_pfn(mm, page) - mm->base_pfn, end = idx + (1ul << order);
	unsigned long fresh = 0;

	/* the frames are the caller's alone: nobody else writes their bytes meanwhile */
	for (unsigned long i = idx; i < end;) {
		unsigned long b = i >> mm->pageblock_order;
		unsigned long next = (b + 1) << mm->pageblock_order, n = 0;

		if (next > end)
			next = end;
		if (!atomic_load_explicit(&mm->untouched[b], memory_order_relaxed)) {
			i = next;
			continue;
		}
		for (; i < next; i++) {
			if (atomic_load_explicit(&mm->touched[i], memory_order_relaxed))
				continue;
			atomic_store_explicit(&mm->touched[i], 1, memory_order_relaxed);
			n++;
		}
		if (n)
			atomic_fetch_sub_explicit(&mm->untouched[b], (unsigned)n, memory_order_release);
		fresh += n;
	}
	return fresh;
}

/* Take @slot's pending fresh frames off their block's untouched; slot->lock held. */
static inline void flush_fresh_pending(struct cma_mm *mm, struct cpu_slot *slot)
{
	lockdep_assert_held(&slot->lock);
	if (!slot->fresh_pending)
		return;
	atomic_fetch_sub_explicit(&mm->untouched[slot->fresh_block], slot->fresh_pending,
				  memory_order_release);
	slot->fresh_pending = 0;
}

/*
 * mark_fresh_frames for one frame off @slot's pcp list: the count goes to
 * untouched once the CPU marks a frame of another block, or the block's
 * last (a pcp refill hands out runs of one block); slot->lock held.
 */
static inline bool mark_fresh_pcp_frame(struct cma_mm *mm, struct cpu_slot *slot,
					struct cma_page *page)
{
	unsigned long i = page_to_pfn(mm, page) - mm->base_pfn;
	unsigned long b = i >> mm->pageblock_order;
	unsigned left = atomic_load_explicit(&mm->untouched[b], memory_order_relaxed);

	lockdep_assert_held(&slot->lock);
	if (!left || atomic_load_explicit(&mm->touched[i], memory_order_relaxed))
		return false;
	atomic_store_explicit(&mm->touched[i], 1, memory_order_relaxed);
	if (slot->fresh_block != b) {
		flush_fresh_pending(mm, slot);
		slot->fresh_block = b;
	}
	/* left counts this frame and the pending ones: equal, none is left */
	if (++slot->fresh_pending == left)
		flush_fresh_pending(mm, slot);
	return true;
}

void count_fresh_frames(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	unsigned long fresh = mark_fresh_frames(mm, page, order);

	if (fresh)
		count_vm_events(mm, PGALLOC_FRESH, fresh);
}

/* An allocation asks for one of the types with pcp lists: two bits hold it. */
_Static_assert(MIGRATE_PCPTYPES <= (PG_MT_MASK >> PG_MT_SHIFT) + 1, "PG_MT_MASK too narrow");

static inline void prep_new_page(struct cma_mm *mm, struct cma_page *page, unsigned order,
				 cma_gfp_t gfp, int migratetype)
{
	uint32_t zone_bits = page_flags(page) & PG_ZONE_MASK;

	page_flags_store(page, zone_bits | PG_head | (order << PG_ORDER_SHIFT) |
			       ((uint32_t)migratetype << PG_MT_SHIFT));
	page->private = 0;
	page->owner = NULL;
	set_page_count(page, 1);
	if ((gfp & CMA_GFP_ZERO) && mm->backing)
		memset(cma_page_address(mm, page), 0, (size_t)mm->page_size << order);
}

/* ---- the fair zone allocation policy (3.12-4.7) ---- */

static inline bool fair_zone_policy(const struct cma_mm *mm)
{
	return mm->kernel.fair_zone_alloc && !mm->kernel.fair_zone_removed;
}

int alloc_flags_fair(const struct cma_mm *mm)
{
	return fair_zone_policy(mm) ? ALLOC_FAIR : 0;
}

void zone_refill_alloc_batch(struct zone *zone)
{
	long batch = (long)(high_wmark_pages(zone) - low_wmark_pages(zone));

	atomic_store_explicit(&zone->alloc_batch, fair_zone_policy(zone->mm) ? batch : 0,
			      memory_order_relaxed);
}

/* reset_alloc_batches: on one node, the zones up to the preferred one are the zonelist's. */
void reset_alloc_batches(struct cma_mm *mm, enum zone_type high_zoneidx)
{
	for (int i = 0; i <= (int)high_zoneidx; i++) {
		struct zone *zone = &mm->zones[i];

		if (!zone->present_pages)
			continue;
		zone_refill_alloc_batch(zone);
		atomic_store_explicit(&zone->fair_depleted, false, memory_order_relaxed);
	}
}

/* Has @zone spent its batch? From 3.17 the mark its last allocation set says; before, the count. */
static inline bool zone_fair_depleted(struct zone *zone)
{
	if (zone->mm->kernel.fair_zone_depleted)
		return atomic_load_explicit(&zone->fair_depleted, memory_order_relaxed);
	return atomic_load_explicit(&zone->alloc_batch, memory_order_relaxed) <= 0;
}

/* buffered_rmqueue's NR_ALLOC_BATCH: a block handed out spends its pages of the zone's batch. */
static __always_inline void zone_spend_alloc_batch(struct zone *zone, unsigned order)
{
	long pages = 1l << order;

	if (likely(!fair_zone_policy(zone->mm)))
		return;
	if (atomic_fetch_sub_explicit(&zone->alloc_batch, pages, memory_order_relaxed) <= pages &&
	    zone->mm->kernel.fair_zone_depleted)
		atomic_store_explicit(&zone->fair_depleted, true, memory_order_relaxed);
}

/* A block of @order off a non-empty pcp list of @slot; slot->lock held. */
static __always_inline struct cma_page *pcp_take_page(struct cma_mm *mm, struct cpu_slot *slot,
						      enum zone_type zid, struct page_list *list,
						      unsigned order, bool cold)
{
	struct cma_page *page = cold ? page_list_last(mm, list) : page_list_first(mm, list);

	lockdep_assert_held(&slot->lock);
	page_list_del(mm, list, page);
	page_flags_store(page, page_flags(page) & ~(PG_pcp | PG_ORDER_MASK));
	pcp_count_add(&slot->pcp[zid], -(1 << order));
	/* an allocation halves the batch the next frees give back (5.14, 6.7) */
	slot->pcp[zid].free_factor >>= 1;
	slot->pcp[zid].free_count >>= 1;
	__count_vm_events(slot, PGALLOC_DMA + zid, 1ul << order);
	zone_spend_alloc_batch(&mm->zones[zid], order);
	return page;
}

/* 5.14 (kernel.pcp_high_order): a refill of @order takes @batch >> @order blocks, at least 2. */
static int pcp_batch_blocks(int batch, unsigned order)
{
	return batch > 1 ? max_int(batch >> order, 2) : batch;
}

/*
 * nr_pcp_alloc: how many blocks of @order a refill takes. The batch
 * until 6.7 (kernel.pcp_high_auto); then high first grows by the refill,
 * unless the zone is under its high mark, and an order-0 refill doubles
 * with each one without a free between, within what high leaves room for.
 */
static int nr_pcp_alloc(struct per_cpu_pages *pcp, struct zone *zone, unsigned order)
{
	int base = pcp->batch, high, batch, room;

	if (!zone->mm->kernel.pcp_high_auto)
		return pcp_batch_blocks(base, order);
	high = pcp->high = clamp_int(pcp->high, pcp->high_min, pcp->high_max);
	if (high < base)
		return 1;
	batch = order ? base : base << pcp->alloc_factor;
	if (pcp->high_min != pcp->high_max &&
	    !atomic_load_explicit(&zone->below_high, memory_order_relaxed))
		high = pcp->high = min_int(high + batch, pcp->high_max);
	if (order)
		return pcp_batch_blocks(batch, order);
	room = max_int(high - pcp->count - base, base);
	if (batch <= room && pcp->alloc_factor < PCP_BATCH_SCALE_MAX)
		pcp->alloc_factor++;
	return min_int(batch, room);
}

/*
 * A block of @order (pcp_allowed_order) off this CPU's list, refilled
 * from buddy (under zone->lock) when empty. One atomic exchange
 * (slot->lock); the counts and the event are plain stores under it.
 */
static __always_inline struct cma_page *rmqueue_pcp(struct zone *zone, unsigned order, bool cold,
						    int mt, int alloc_flags)
{
	struct cma_mm *mm = zone->mm;
	struct cpu_slot *slot = this_cpu_slot(mm);
	struct per_cpu_pages *pcp = &slot->pcp[zone->idx];
	struct page_list *list = &pcp->lists[order_to_pindex(mt, order)];
	struct cma_page *page;

	spin_lock(&slot->lock);
	if (unlikely(page_list_empty(list))) {
		int blocks = rmqueue_bulk(zone, order, (unsigned long)nr_pcp_alloc(pcp, zone, order),
					  list, mt, cold, alloc_flags);

		pcp_count_add(pcp, blocks << order);
		if (page_list_empty(list)) {
			spin_unlock(&slot->lock);
			return NULL;
		}
	}
	page = pcp_take_page(mm, slot, zone->idx, list, order, cold);
	spin_unlock(&slot->lock);
	return page;
}

/*
 * kernel.nonblock_highatomic (6.12): may a request that found nothing
 * else take HIGHATOMIC pages? One that cannot sleep may, of any order,
 * as failing it now is worse than failing a future high-order one and
 * only reclaim can unreserve the blocks. Before, ALLOC_OOM's only.
 */
static inline bool highatomic_last_resort(const struct zone *zone, int alloc_flags)
{
	return zone->mm->kernel.nonblock_highatomic && (alloc_flags & ALLOC_HARDER);
}

/*
 * Higher orders straight from buddy, under zone->lock. kernel.highatomic
 * (6.12's rmqueue_buddy): a high-order atomic request tries the
 * HIGHATOMIC blocks first; highatomic_last_resort() says who may take
 * them last.
 */
static noinline struct cma_page *rmqueue_buddy(struct zone *zone, unsigned order, int mt,
					       int alloc_flags)
{
	struct cma_page *page = NULL;

	spin_lock(&zone->lock);
	if (alloc_flags & ALLOC_HIGHATOMIC)
		page = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	if (!page)
		page = __rmqueue(zone, order, mt, alloc_flags);
	if (!page && highatomic_last_resort(zone, alloc_flags))
		page = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	spin_unlock(&zone->lock);
	if (page) {
		count_vm_events(zone->mm, PGALLOC_DMA + zone->idx, 1ul << order);
		zone_spend_alloc_batch(zone, order);
	}
	return page;
}

/*
 * buffered_rmqueue: order 0 (and from 5.14 orders 1-3 and THP's) through
 * the per-CPU lists, the rest from buddy. A high order the lists cannot
 * serve goes on to buddy, as 6.12's rmqueue; so does an order-0 request
 * with a last resort there (highatomic_last_resort).
 */
static __always_inline struct cma_page *buffered_rmqueue(struct zone *zone, unsigned order,
							 cma_gfp_t gfp, int mt, int alloc_flags)
{
	struct cma_page *page;

	if (!pcp_allowed_order(zone->mm, order))
		return rmqueue_buddy(zone, order, mt, alloc_flags);
	page = rmqueue_pcp(zone, order, gfp & CMA_GFP_COLD, mt, alloc_flags);
	if (unlikely(!page) && (order || highatomic_last_resort(zone, alloc_flags)))
		page = rmqueue_buddy(zone, order, mt, alloc_flags);
	return page;
}

unsigned long highatomic_reserve_limit(const struct zone *zone)
{
	unsigned long nr = zone->mm->pageblock_nr_pages, pct = zone->managed_pages / 100;

	return pct < nr ? 0 : (pct + nr - 1) & ~(nr - 1);
}

/*
 * reserve_highatomic_pageblock (4.4): after a high-order atomic
 * allocation, keep its pageblock for such requests, up to about 1% of
 * the zone (none where 1% is under a pageblock). Only a block of a pcp
 * type is taken.
 */
static noinline void reserve_highatomic_pageblock(struct zone *zone, struct cma_page *page,
						  unsigned order)
{
	struct cma_mm *mm = zone->mm;
	unsigned long max = highatomic_reserve_limit(zone), pfn = page_to_pfn(mm, page), start;
	unsigned long free, movable;
	int mt;

	if (!max || __atomic_load_n(&zone->nr_reserved_highatomic, __ATOMIC_RELAXED) >= max)
		return;
	spin_lock(&zone->lock);
	mt = get_pageblock_migratetype(mm, pfn);
	if (zone->nr_reserved_highatomic >= max || mt >= MIGRATE_PCPTYPES)
		goto out;
	if (order < mm->pageblock_order) {
		if (!prep_move_freepages_block(zone, page, &start, &free, &movable))
			goto out;
		move_block_to(zone, start, MIGRATE_HIGHATOMIC);
		__atomic_store_n(&zone->nr_reserved_highatomic,
				 zone->nr_reserved_highatomic + mm->pageblock_nr_pages, __ATOMIC_RELAXED);
	} else {
		change_pageblock_range(mm, pfn, order, MIGRATE_HIGHATOMIC);
		__atomic_store_n(&zone->nr_reserved_highatomic,
				 zone->nr_reserved_highatomic + (1ul << order), __ATOMIC_RELAXED);
	}
out:
	spin_unlock(&zone->lock);
}

/*
 * unreserve_highatomic_pageblock (4.4): an allocation about to fail takes
 * back one HIGHATOMIC block of the zones it may use, as @migratetype,
 * keeping the last one unless @force. True if free pages moved.
 */
bool unreserve_highatomic_pageblock(struct cma_mm *mm, enum zone_type high_zoneidx,
				    int migratetype, bool force)
{
	for (int i = high_zoneidx; i >= 0; i--) {
		struct zone *zone = &mm->zones[i];

		if (!zone->present_pages ||
		    (!force && __atomic_load_n(&zone->nr_reserved_highatomic, __ATOMIC_RELAXED) <=
			       mm->pageblock_nr_pages))
			continue;
		spin_lock(&zone->lock);
		for (unsigned o = 0; o < mm->max_order; o++) {
			struct cma_page *page =
				page_list_first(mm, &zone->free_area[o].free_list[MIGRATE_HIGHATOMIC]);
			unsigned long pfn, size, start, free, movable;

			if (!page)
				continue;
			pfn = page_to_pfn(mm, page);
			if (is_migrate_highatomic(get_pageblock_migratetype(mm, pfn))) {
				size = mm->pageblock_nr_pages > 1ul << o ? mm->pageblock_nr_pages : 1ul << o;
				if (size > zone->nr_reserved_highatomic)
					size = zone->nr_reserved_highatomic;
				__atomic_store_n(&zone->nr_reserved_highatomic,
						 zone->nr_reserved_highatomic - size, __ATOMIC_RELAXED);
			}
			if (o < mm->pageblock_order) {
				/* as 6.12, a block across the zone's edge is left alone */
				if (!prep_move_freepages_block(zone, page, &start, &free, &movable))
					continue;
				move_block_to(zone, start, migratetype);
			} else {
				move_to_free_list(zone, page, o, migratetype);
				change_pageblock_range(mm, pfn, o, migratetype);
			}
			spin_unlock(&zone->lock);
			return true;
		}
		spin_unlock(&zone->lock);
	}
	return false;
}

/*
 * The mark of @alloc_flags with the boost; as 6.12's zone_watermark_fast,
 * a __GFP_HIGH order-0 request at the min mark ignores the boost, so that
 * a boost never fails what the min mark lets through.
 */
static inline bool zone_watermark_fast(struct zone *zone, unsigned order, int alloc_flags,
				       int classzone_idx)
{
	enum zone_watermarks w = alloc_flags & ALLOC_WMARK_MASK;

	if (__zone_watermark_ok(zone, order, wmark_pages(zone, w), classzone_idx, alloc_flags,
				zone_page_state(zone, NR_FREE_PAGES)))
		return true;
	return !order && (alloc_flags & ALLOC_HIGH) && w == WMARK_MIN &&
	       __atomic_load_n(&zone->watermark_boost, __ATOMIC_RELAXED) &&
	       __zone_watermark_ok(zone, 0, __atomic_load_n(&zone->watermark[WMARK_MIN], __ATOMIC_RELAXED),
				   classzone_idx, alloc_flags, zone_page_state(zone, NR_FREE_PAGES));
}

/*
 * 6.7 (kernel.pcp_high_auto): each zone an allocation looks at is
 * checked against its high mark first, and one found under it marked
 * ZONE_BELOW_HIGH, which makes frees shrink the per-CPU lists.
 */
static inline void zone_check_below_high(struct zone *zone, unsigned order, int classzone_idx,
					 int alloc_flags)
{
	if (zone->mm->kernel.pcp_high_auto &&
	    !atomic_load_explicit(&zone->below_high, memory_order_relaxed) &&
	    !__zone_watermark_ok(zone, order, high_wmark_pages(zone), classzone_idx, alloc_flags,
				zone_page_state(zone, NR_FREE_PAGES)))
		atomic_store_explicit(&zone->below_high, true, memory_order_relaxed);
}

/*
 * The zonelist walk of get_page_from_freelist: each zone above its mark, in
 * turn; a fair pass passes over the zones whose batch is spent, and says
 * in *@fair_skipped that it did.
 */
static noinline struct cma_page *get_page_from_freelist_slow(struct cma_mm *mm, cma_gfp_t gfp,
							     unsigned order,
							     enum zone_type high_zoneidx,
							     int alloc_flags, int migratetype,
							     bool *fair_skipped)
{
	int classzone_idx = -1;

	for (int i = high_zoneidx; i >= 0; i--) {
		struct zone *zone = &mm->zones[i];
		struct cma_page *page;

		if (!zone->present_pages)
			continue;
		if (classzone_idx < 0)
			classzone_idx = i;
		if ((alloc_flags & ALLOC_FAIR) && zone_fair_depleted(zone)) {
			*fair_skipped = true;
			continue;
		}
		zone_check_below_high(zone, order, classzone_idx, alloc_flags);
		if (!(alloc_flags & ALLOC_NO_WATERMARKS) &&
		    !zone_watermark_fast(zone, order, alloc_flags, classzone_idx))
			continue;
		page = buffered_rmqueue(zone, order, gfp, migratetype, alloc_flags);
		if (page) {
			prep_new_page(mm, page, order, gfp, migratetype);
			count_fresh_frames(mm, page, order);
			if (unlikely(alloc_flags & ALLOC_HIGHATOMIC))
				reserve_highatomic_pageblock(zone, page, order);
			return page;
		}
	}
	return NULL;
}

/*
 * The first try of every allocation is at the low mark. At order 0 the
 * usual case is the first zone above its mark (the highest, or below a
 * small HighMem zone that is not), its pcp list holding a page and the
 * slot lock free: taken here with no call at all, so that the fast path
 * keeps to the scratch registers (later kernels likewise only try the
 * pcp lock, pcp_spin_trylock). Anything else is left to the full loop,
 * which starts over: the fast try changed nothing it would not (a zone
 * found below its high mark stays marked).
 */
static __always_inline struct cma_page *get_page_from_freelist_fast(struct cma_mm *mm,
								    cma_gfp_t gfp,
								    enum zone_type high_zoneidx,
								    int alloc_flags, int migratetype)
{
	struct zone *zone = &mm->zones[high_zoneidx];
	struct cpu_slot *slot;
	struct page_list *list;
	struct cma_page *page;
	int classzone_idx;

	while (!zone->present_pages)
		if (zone-- == mm->zones)
			return NULL;
	classzone_idx = zone->idx;
	for (;;) {
		if (!((alloc_flags & ALLOC_FAIR) && zone_fair_depleted(zone))) {
			zone_check_below_high(zone, 0, classzone_idx, alloc_flags);
			if (__zone_watermark_ok(zone, 0, low_wmark_pages(zone), classzone_idx,
						alloc_flags, zone_page_state(zone, NR_FREE_PAGES)))
				break;
		}
		do
			if (zone-- == mm->zones)
				return NULL;
		while (!zone->present_pages);
	}
	slot = this_cpu_slot(mm);
	list = &slot->pcp[zone->idx].lists[order_to_pindex(migratetype, 0)];
	if (!spin_trylock(&slot->lock))
		return NULL;
	if (page_list_empty(list)) {
		spin_unlock(&slot->lock);
		return NULL;
	}
	page = pcp_take_page(mm, slot, zone->idx, list, 0, gfp & CMA_GFP_COLD);
	/* count_fresh_frames, under the slot lock it would take again */
	if (mark_fresh_pcp_frame(mm, slot, page))
		__count_vm_events(slot, PGALLOC_FRESH, 1);
	spin_unlock(&slot->lock);
	prep_new_page(mm, page, 0, gfp, migratetype);
	return page;
}

/*
 * A fair pass that found nothing: from 3.15 (kernel.fair_zone_retry) the
 * batches are refilled and the zones tried once more without fairness,
 * before the slow path would wake kswapd; from 3.17
 * (kernel.fair_zone_depleted) only if the pass passed a zone over, as one
 * that failed on the marks alone would fail again. Before 3.15 the slow
 * path's start refills them (slowpath.c's prepare_slowpath).
 */
static noinline struct cma_page *fair_pass_failed(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
						  enum zone_type high_zoneidx, int alloc_flags,
						  int migratetype, bool skipped)
{
	if (!mm->kernel.fair_zone_retry || (mm->kernel.fair_zone_depleted && !skipped))
		return NULL;
	reset_alloc_batches(mm, high_zoneidx);
	return get_page_from_freelist_slow(mm, gfp, order, high_zoneidx, alloc_flags & ~ALLOC_FAIR,
					   migratetype, &skipped);
}

struct cma_page *get_page_from_freelist(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
					enum zone_type high_zoneidx, int alloc_flags,
					int migratetype)
{
	bool fair_skipped = false;
	struct cma_page *page;

	if (order == 0 &&
	    (alloc_flags & ~(ALLOC_CMA | ALLOC_NOFRAGMENT | ALLOC_FAIR)) == ALLOC_WMARK_LOW) {
		page = get_page_from_freelist_fast(mm, gfp, high_zoneidx, alloc_flags, migratetype);
		if (likely(page))
			return page;
	}
	page = get_page_from_freelist_slow(mm, gfp, order, high_zoneidx, alloc_flags, migratetype,
					   &fair_skipped);
	if (!page && (alloc_flags & ALLOC_FAIR))
		page = fair_pass_failed(mm, gfp, order, high_zoneidx, alloc_flags, migratetype,
					fair_skipped);
	/* every zone fragmented: avoiding it failed, so go on without */
	if (!page && (alloc_flags & ALLOC_NOFRAGMENT))
		page = get_page_from_freelist_slow(mm, gfp, order, high_zoneidx,
						   alloc_flags & ~ALLOC_NOFRAGMENT, migratetype,
						   &fair_skipped);
	return page;
}

/*
 * alloc_flags_nofragment (kernel.alloc_nofragment, 5.1): ALLOC_NOFRAGMENT
 * for a request whose preferred zone, the first populated one at or below
 * @high_zoneidx, is ZONE_NORMAL on a machine that has ZONE_DMA32 (the
 * kernel's CONFIG_ZONE_DMA32; on one node it does not ask whether DMA32
 * is populated).
 */
int alloc_flags_nofragment(struct cma_mm *mm, enum zone_type high_zoneidx)
{
	int z = (int)high_zoneidx;

	if (!mm->kernel.alloc_nofragment || !mm->zones[ZONE_DMA32].configured)
		return 0;
	while (z > 0 && !mm->zones[z].present_pages)
		z--;
	return z == ZONE_NORMAL ? ALLOC_NOFRAGMENT : 0;
}

/* ---- freeing ---- */

/*
 * The block of @order at @page onto @slot's pcp list of type @list_mt,
 * recording @mt (its pageblock's type) for the buddy list it will go to.
 * slot->lock held. True if the lists are now over pcp->high (6.7:
 * always, to tune it).
 */
static __always_inline bool pcp_add_page(struct cma_mm *mm, struct cpu_slot *slot, unsigned zid,
					 struct cma_page *page, unsigned order, int mt, int list_mt,
					 bool cold)
{
	struct per_cpu_pages *pcp = &slot->pcp[zid];
	struct page_list *list = &pcp->lists[order_to_pindex(list_mt, order)];

	lockdep_assert_held(&slot->lock);
	page->private = mt;
	__count_vm_events(slot, PGFREE, 1ul << order);
	page_flags_store(page, page_flags(page) | PG_pcp | (order << PG_ORDER_SHIFT));
	if (cold)
		page_list_add_tail(mm, list, page);
	else
		page_list_add(mm, list, page);
	pcp_count_add(pcp, 1 << order);
	/* a free halves the next refill and counts toward the next bulk free (6.7) */
	pcp->alloc_factor >>= 1;
	if (pcp->free_count < pcp->batch << PCP_BATCH_SCALE_MAX)
		pcp->free_count += 1 << order;
	/* 6.7 (kernel.pcp_high_auto) tunes high on every free: pcp_trim_unlock */
	return pcp->count >= pcp->high || mm->kernel.pcp_high_auto;
}

/*
 * nr_pcp_high (6.7): the count a free may leave, tuning pcp->high into
 * [high_min, high_max] on the way: down by the pages freed lately while
 * the zone is under its high mark (and then anything above high_min
 * goes), up to hold them when the lists are full otherwise.
 */
static int nr_pcp_high(struct per_cpu_pages *pcp, struct zone *zone)
{
	int high_min = pcp->high_min, high_max = pcp->high_max, batch = pcp->batch;
	int high = pcp->high = clamp_int(pcp->high, high_min, high_max);

	if (!high || high_min == high_max)
		return high;
	if (atomic_load_explicit(&zone->below_high, memory_order_relaxed)) {
		pcp->high = max_int(high - max_int(pcp->free_count, batch), high_min);
		return max_int(pcp->count, high_min);
	}
	if (pcp->count >= high && pcp->high < pcp->free_count + batch)
		pcp->high = clamp_int(pcp->free_count + batch, high_min, high_max);
	return high;
}

/*
 * nr_pcp_free: how many pages a free over @high gives back, leaving at
 * least a batch. v3.5: a batch. 5.14 (kernel.pcp_high_lowmark): the
 * batch doubled per free without an allocation between. 6.7: the pages
 * freed since allocations last halved the count.
 */
static int nr_pcp_free(const struct kernel_profile *k, struct per_cpu_pages *pcp, int high)
{
	int batch = pcp->batch, n = batch;

	if (high < batch)
		return 1;
	if (k->pcp_high_auto)
		n = pcp->free_count;
	else if (k->pcp_high_lowmark) {
		n = batch << pcp->free_factor;
		if (n < high - batch)
			pcp->free_factor++;
	} else
		return batch;
	return clamp_int(n, batch, high - batch);
}

/*
 * Over high: pages back to buddy, then slot->lock is dropped. 6.7 clears
 * ZONE_BELOW_HIGH once a bulk free leaves the zone above its high mark.
 */
static noinline void pcp_trim_unlock(struct cma_mm *mm, struct cpu_slot *slot, unsigned zid)
{
	struct per_cpu_pages *pcp = &slot->pcp[zid];
	struct zone *zone = &mm->zones[zid];
	int high = mm->kernel.pcp_high_auto ? nr_pcp_high(pcp, zone) : pcp->high;

	if (pcp->count >= high) {
		free_pcppages_bulk(zone, nr_pcp_free(&mm->kernel, pcp, high), pcp);
		if (atomic_load_explicit(&zone->below_high, memory_order_relaxed) &&
		    zone_watermark_ok(zone, 0, high_wmark_pages(zone), ZONE_MOVABLE, 0))
			atomic_store_explicit(&zone->below_high, false, memory_order_relaxed);
	}
	spin_unlock(&slot->lock);
}

/*
 * Only UNMOVABLE, RECLAIMABLE and MOVABLE have pcp lists: RESERVE and CMA
 * pages ride on the MOVABLE list and are freed to their own type later;
 * ISOLATE pages go straight back so that they stay isolated.
 */
static inline int pcp_list_type(int mt)
{
	return mt < MIGRATE_PCPTYPES ? mt : MIGRATE_MOVABLE;
}

/*
 * A block of @order (pcp_allowed_order) onto this CPU's list of its
 * pageblock's type, waiting for slot->lock.
 */
static noinline void free_hot_cold_page(struct cma_mm *mm, struct cma_page *page, unsigned order,
					bool cold)
{
	unsigned zid = page_zonenum(page);
	int mt = get_pageblock_migratetype(mm, page_to_pfn(mm, page));
	struct cpu_slot *slot;

	if (unlikely(mt == MIGRATE_ISOLATE)) {
		page->private = mt;
		count_vm_events(mm, PGFREE, 1ul << order);
		free_one_page(&mm->zones[zid], page, order, mt);
		return;
	}
	slot = this_cpu_slot(mm);
	spin_lock(&slot->lock);
	if (pcp_add_page(mm, slot, zid, page, order, mt, pcp_list_type(mt), cold))
		pcp_trim_unlock(mm, slot, zid);
	else
		spin_unlock(&slot->lock);
}

/*
 * The usual order-0 free: the slot lock free and the page not ISOLATE,
 * with no call but in tail position, so that it keeps to the scratch
 * registers; else free_hot_cold_page(), as the try changed nothing.
 * One atomic exchange (slot->lock); the counts and the event are plain
 * stores under it.
 */
static __always_inline void free_hot_cold_page_fast(struct cma_mm *mm, struct cma_page *page)
{
	unsigned zid = page_zonenum(page);
	int mt = get_pageblock_migratetype(mm, page_to_pfn(mm, page));
	struct cpu_slot *slot = this_cpu_slot(mm);

	if (unlikely(mt == MIGRATE_ISOLATE) || !spin_trylock(&slot->lock)) {
		free_hot_cold_page(mm, page, 0, false);
		return;
	}
	if (unlikely(pcp_add_page(mm, slot, zid, page, 0, mt, pcp_list_type(mt), false)))
		pcp_trim_unlock(mm, slot, zid);
	else
		spin_unlock(&slot->lock);
}

static void trace_page_free(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	trace_event(mm, CMA_TRACE_MM_PAGE_FREE, page,
		    .page = page, .pfn = page_to_pfn(mm, page), .order = order);
}

/* The page is ours (count dropped to zero): clear what allocation set. */
static inline void free_pages_prepare(struct cma_mm *mm, struct cma_page *page)
{
	page_flags_store(page, page_flags(page) & PG_ZONE_MASK);
	page->owner = NULL;
	page->private = 0;
}

/* Orders without per-CPU lists straight to buddy. */
static noinline void __free_pages_ok(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	count_vm_events(mm, PGFREE, 1ul << order);
	free_one_page(page_zone(mm, page), page, order,
		      get_pageblock_migratetype(mm, page_to_pfn(mm, page)));
}

/* The rest of __free_pages: a traced free, or a higher order. */
static noinline void __free_pages_slow(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	free_pages_prepare(mm, page);
	trace_page_free(mm, page, order);
	if (pcp_allowed_order(mm, order))
		free_hot_cold_page(mm, page, order, false);
	else
		__free_pages_ok(mm, page, order);
}

/* __free_pages once the last reference is gone. */
void __free_pages(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	if (unlikely(order || trace_event_enabled(mm, CMA_TRACE_MM_PAGE_FREE))) {
		__free_pages_slow(mm, page, order);
		return;
	}
	free_pages_prepare(mm, page);
	free_hot_cold_page_fast(mm, page);
}

static bool page_in_mem_map(struct cma_mm *mm, const struct cma_page *page)
{
	return page >= mm->mem_map && page < mm->mem_map + (mm->end_pfn - mm->base_pfn) &&
	       ((uintptr_t)page - (uintptr_t)mm->mem_map) % sizeof(*page) == 0;
}

/*
 * Why a page that is no free page's or allocation's head cannot be
 * freed: the block it lies inside, free (a buddy) or allocated, found
 * by that block's head and order; or it was never handed out.
 */
static const char *not_head_why(struct cma_mm *mm, unsigned long pfn, char *buf, size_t len)
{
	for (unsigned o = 1; o < mm->max_order; o++) {
		unsigned long head = pfn & ~((1ul << o) - 1);
		struct cma_page *hp;
		bool free;

		if (head < mm->base_pfn)
			break;
		hp = pfn_to_page(mm, head);
		free = page_test(hp, PG_buddy | PG_pcp);
		if (!free && !page_test(hp, PG_head))
			continue;	/* a tail page too: the head is further down */
		if (page_order(hp) < o)
			break;
		snprintf(buf, len, "%s, inside the order-%u %s block at pfn:%#lx",
			 free ? "page already free" : "not the head of its allocation",
			 page_order(hp), free ? "free" : "allocated", head);
		return buf;
	}
	return "page was never allocated";
}

/* bad_page(): report, and leave the page alone rather than corrupt the lists. */
bool __free_page_check(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	const char *why = NULL;
	char buf[96];

	if (mm->phase != MM_BOOTED)
		why = "machine not booted";
	else if (!page || !page_in_mem_map(mm, page))
		why = "not a page of this machine";
	else if (!page_test(page, PG_head))
		why = page_test(page, PG_buddy) || page_test(page, PG_pcp) ? "page already free" :
		      page_test(page, PG_reserved) ? "reserved page" :
		      not_head_why(mm, page_to_pfn(mm, page), buf, sizeof(buf));
	else if (page_order(page) != order)
		why = "order differs from the allocation's";
	else if (page_count(page) < 0 || (!page_count(page) && !page_test(page, PG_movable)))
		why = "nonzero _count expected";
	if (!why)
		return true;
	cma_mm_pr_err(mm, "BUG: Bad page state: %s: pfn:%#lx order:%u (page not freed)\n", why,
		  page && page_in_mem_map(mm, page) ? page_to_pfn(mm, page) : 0ul, order);
	return false;
}

/* ---- per-CPU lists ---- */

static void drain_slot(struct cma_mm *mm, struct cpu_slot *slot)
{
	spin_lock(&slot->lock);
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct per_cpu_pages *pcp = &slot->pcp[i];

		if (pcp->count)
			free_pcppages_bulk(&mm->zones[i], pcp->count, pcp);
	}
	VM_VERIFY_PCP(mm, slot, "drain_slot");
	spin_unlock(&slot->lock);
}

void drain_local_pages(struct cma_mm *mm)
{
	drain_slot(mm, this_cpu_slot(mm));
}

static bool slot_has_pcp_pages(struct cpu_slot *slot)
{
	for (int i = 0; i < MAX_NR_ZONES; i++)
		if (__atomic_load_n(&slot->pcp[i].count, __ATOMIC_RELAXED))
			return true;
	return false;
}

/*
 * Slots with empty lists are passed over unlocked, as later kernels send
 * no IPI to such CPUs: a page freed to one just after the look would
 * have been missed just the same by a drain taken a moment earlier.
 *
 * From 4.11 (kernel.drain_pcp_mutex) drains do not overlap, as in
 * drain_all_pages/__drain_all_pages: a caller that need not see the
 * lists empty leaves the work to the drain in progress and returns (not
 * counted, having drained nothing); one that must waits its turn.
 */
static void __drain_all_pages(struct cma_mm *mm, bool must_drain)
{
	bool serialized = mm->kernel.drain_pcp_mutex;

	if (serialized && pthread_mutex_trylock(&mm->pcpu_drain_mutex)) {
		if (!must_drain)
			return;
		pthread_mutex_lock(&mm->pcpu_drain_mutex);
	}
	count_vm_event(mm, DRAIN_ALL_PAGES);
	for (unsigned c = 0; c < mm->nr_cpus; c++)
		if (slot_has_pcp_pages(&mm->slots[c]))
			drain_slot(mm, &mm->slots[c]);
	if (serialized)
		pthread_mutex_unlock(&mm->pcpu_drain_mutex);
}

/*
 * A caller naming its @zone (CMA, hotplug) must find the lists empty
 * after; one naming none (the slow path) need not. Departure: every
 * zone's lists are drained either way, where 3.19 on drain only @zone's.
 */
void drain_all_pages(struct cma_mm *mm, struct zone *zone)
{
	__drain_all_pages(mm, zone != NULL);
}

/* The public call promises empty lists on return: it waits, as a caller naming a zone does. */
void cma_drain_all_pages(struct cma_mm *mm)
{
	if (!mm_require_phase(mm, MM_BOOTED, "cma_drain_all_pages"))
		__drain_all_pages(mm, true);
}

static unsigned long rounddown_pow_of_two(unsigned long n)
{
	return 1ul << (63 - __builtin_clzl(n));
}

/*
 * A zone's size where the kernel wants the pages it can allocate: the
 * reserves, the pcp batch, kswapd's balance gap and pgdat_balanced, the
 * anon inactive ratio. Present pages in v3.5 (less the memmap there),
 * managed ones from 3.9 (kernel.managed_sizing), which leave out what
 * boot kept (the kernel image, reservations) and count CMA areas once
 * activated.
 */
unsigned long zone_sizing_pages(const struct zone *z)
{
	return z->mm->kernel.managed_sizing ? z->managed_pages : z->present_pages;
}

/*
 * zone_batchsize: about a quarter of a percent of the zone
 * (zone_sizing_pages: managed pages from 3.9), at most 512 KiB worth
 * (1 MiB from 4.19, kernel.pcp_batch_1m), rounded down to 2^n - 1.
 */
int zone_batchsize(struct cma_mm *mm, struct zone *zone)
{
	unsigned long cap = (mm->kernel.pcp_batch_1m ? 1024 : 512) * 1024 / mm->page_size;
	unsigned long batch = zone_sizing_pages(zone) / 1024;

	if (batch > cap)
		batch = cap;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	return (int)(rounddown_pow_of_two(batch + batch / 2) - 1);
}

/* zone_highsize (5.14): @total pages shared among the CPUs, at least 4 * @batch. */
static int zone_highsize(struct cma_mm *mm, unsigned long total, int batch)
{
	unsigned long high = total / mm->nr_cpus;

	return (int)(high > 4ul * (unsigned long)batch ? high : 4ul * (unsigned long)batch);
}

/*
 * zone_set_pageset_high_and_batch: every CPU's batch and high bounds for
 * @zone. v3.5: high = 6 * batch. 5.14 (kernel.pcp_high_lowmark): the low
 * mark's share (zone_highsize). 6.7 (kernel.pcp_high_auto): high_max the
 * share of managed / 8 (MIN_PERCPU_PAGELIST_HIGH_FRACTION), high itself
 * left to the tuning, which starts it at 0 as 6.12's per_cpu_pages_init.
 */
static void zone_set_pageset_high_and_batch(struct cma_mm *mm, struct zone *zone)
{
	const struct kernel_profile *k = &mm->kernel;
	int batch = zone_batchsize(mm, zone), high_min = 6 * batch, high_max;

	if (k->pcp_high_lowmark) {
		batch = max_int(batch, 1);
		high_min = zone_highsize(mm, low_wmark_pages(zone), batch);
	}
	high_max = k->pcp_high_auto ? zone_highsize(mm, zone->managed_pages / 8, batch) : high_min;
	for (unsigned c = 0; c < mm->nr_cpus; c++) {
		struct per_cpu_pages *pcp = &mm->slots[c].pcp[zone->idx];

		spin_lock(&mm->slots[c].lock);
		pcp->batch = max_int(batch, 1);
		pcp->high_min = high_min;
		pcp->high_max = high_max;
		if (!k->pcp_high_auto)
			pcp->high = high_min;
		spin_unlock(&mm->slots[c].lock);
	}
}

/*
 * decay_pcp_high (6.7, kernel.pcp_high_auto): what vmstat_update does to
 * one CPU's list of @zone once a second. High falls by an eighth toward
 * high_min (by at most batch << PCP_BATCH_SCALE_MAX below the count), and
 * what the list holds above it goes back to buddy a batch at a time, the
 * CPU's lock dropped between, so that idle lists empty over seconds.
 */
static void decay_pcp_high(struct zone *zone, struct cpu_slot *slot)
{
	struct per_cpu_pages *pcp = &slot->pcp[zone->idx];
	int to_drain;

	spin_lock(&slot->lock);
	if (pcp->high > pcp->high_min)
		pcp->high = max_int(max_int(pcp->count - (pcp->batch << PCP_BATCH_SCALE_MAX),
					    pcp->high - (pcp->high >> 3)), pcp->high_min);
	to_drain = pcp->count - pcp->high;
	spin_unlock(&slot->lock);
	while (to_drain > 0) {
		int n;

		spin_lock(&slot->lock);
		n = free_pcppages_bulk(zone, min_int(to_drain, pcp->batch), pcp);
		spin_unlock(&slot->lock);
		to_drain = n ? to_drain - n : 0;
	}
}

void cma_vmstat_update(struct cma_mm *mm)
{
	struct zone *zone;

	if (mm_require_phase(mm, MM_BOOTED, "cma_vmstat_update") || !mm->kernel.pcp_high_auto)
		return;
	for (unsigned c = 0; c < mm->nr_cpus; c++)
		for_each_populated_zone(mm, zone)
			decay_pcp_high(zone, &mm->slots[c]);
}

/* zone_pcp_update: the bounds again, as the watermarks they follow (5.14) have changed. */
void zone_pcp_update(struct cma_mm *mm)
{
	for (int i = 0; i < MAX_NR_ZONES; i++)
		zone_set_pageset_high_and_batch(mm, &mm->zones[i]);
}

void zone_pcp_init(struct cma_mm *mm)
{
	for (unsigned c = 0; c < mm->nr_cpus; c++) {
		spin_lock_init(&mm->slots[c].lock);
		for (int i = 0; i < MAX_NR_ZONES; i++) {
			struct per_cpu_pages *pcp = &mm->slots[c].pcp[i];

			*pcp = (struct per_cpu_pages){ 0 };
			for (unsigned p = 0; p < NR_PCP_LISTS; p++)
				page_list_init(&pcp->lists[p]);
		}
	}
	zone_pcp_update(mm);
}

/* ---- boot and CMA activation ---- */

/* Release [start_pfn, end_pfn) to buddy in the largest aligned blocks, zone by zone. */
void free_bootmem_range(struct cma_mm *mm, unsigned long start_pfn, unsigned long end_pfn)
{
	while (start_pfn < end_pfn) {
		struct zone *zone = pfn_zone(mm, start_pfn);
		unsigned long zend = zone->zone_start_pfn + zone->spanned_pages;
		unsigned long end = end_pfn < zend ? end_pfn : zend;
		unsigned order = mm->max_order - 1;
		struct cma_page *page;

		if (start_pfn)
			order = order < (unsigned)__builtin_ctzl(start_pfn) ? order :
				(unsigned)__builtin_ctzl(start_pfn);
		while (start_pfn + (1ul << order) > end)
			order--;
		page = pfn_to_page(mm, start_pfn);
		for (unsigned long i = 0; i < (1ul << order); i++) {
			page_flags_store(page + i, page_flags(page + i) & PG_ZONE_MASK);
			set_page_count(page + i, 0);
		}
		/*
		 * kernel.boot_free_to_tail (6.12's __free_pages_core, FPI_TO_TAIL):
		 * the boot blocks queue in address order, so allocations start
		 * from the low end of each zone; v3.5 puts each at the head, the
		 * highest first.
		 */
		spin_lock(&zone->lock);
		__free_one_page_fpi(zone, page, order, get_pageblock_migratetype(mm, start_pfn),
				    mm->kernel.boot_free_to_tail);
		spin_unlock(&zone->lock);
		zone->managed_pages += 1ul << order;
		mm->totalram_pages += 1ul << order;
		start_pfn += 1ul << order;
	}
}

/*
 * init_cma_reserved_pageblock: hand a reserved pageblock to the
 * allocator as MIGRATE_CMA. The caller has checked that the block is
 * valid, reserved and in one zone.
 */
void init_cma_reserved_pageblock(struct cma_mm *mm, struct cma_page *page)
{
	unsigned long pfn = page_to_pfn(mm, page);
	struct zone *zone = page_zone(mm, page);

	for (unsigned long i = 0; i < mm->pageblock_nr_pages; i++) {
		VM_BUG_ON(!page_test(page + i, PG_reserved));
		page_flags_store(page + i, page_flags(page + i) & PG_ZONE_MASK);
		set_page_count(page + i, 0);
	}
	spin_lock(&zone->lock);
	set_pageblock_migratetype(mm, pfn, MIGRATE_CMA);
	spin_unlock(&zone->lock);
	if (mm->pageblock_order == 0) {
		free_hot_cold_page(mm, page, 0, false);
	} else {
		free_one_page(zone, page, mm->pageblock_order, MIGRATE_CMA);
	}
	zone->managed_pages += mm->pageblock_nr_pages;
	zone->cma_pages += mm->pageblock_nr_pages;
	mm->totalram_pages += mm->pageblock_nr_pages;
	mm->totalcma_pages += mm->pageblock_nr_pages;
}

/*
 * The mark split_free_page keeps: low + 2^order in v3.5, as if the block
 * were allocated. kernel.alloc_cma: 6.12's __isolate_free_page, min
 * (unboosted) + 2^order counting free CMA pages.
 * kernel.isolated_split_nowmark (3.8): none at all for an isolated
 * block, which alloc_contig_range takes now that no __reclaim_pages
 * made room for it first.
 */
static bool split_free_page_allowed(struct zone *zone, unsigned long pfn, unsigned order)
{
	struct cma_mm *mm = zone->mm;

	if (mm->kernel.isolated_split_nowmark && get_pageblock_migratetype(mm, pfn) == MIGRATE_ISOLATE)
		return true;
	if (!mm->kernel.alloc_cma)
		return zone_watermark_ok(zone, 0, low_wmark_pages(zone) + (1ul << order), 0, 0);
	return zone_watermark_ok(zone, 0, zone->watermark[WMARK_MIN] + (1ul << order), 0, ALLOC_CMA);
}

/*
 * take_isolated_block: the free block of @order at @page off the lists,
 * if the zone keeps its mark (above); a pageblock or more of it (less
 * one order, as the kernel's) becomes MOVABLE. zone->lock held.
 */
static bool take_isolated_block(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	struct zone *zone = page_zone(mm, page);
	unsigned long pfn = page_to_pfn(mm, page);

	lockdep_assert_held(&zone->lock);
	if (!split_free_page_allowed(zone, pfn, order))
		return false;
	del_from_free_area(zone, page, order);
	if (order + 1 >= mm->pageblock_order) {
		for (unsigned long p = pfn; p < pfn + (1ul << order); p += mm->pageblock_nr_pages) {
			int mt = get_pageblock_migratetype(mm, p);

			/* kernel.highatomic: only a pcp type's block, as 6.12's __isolate_free_page */
			if (mt != MIGRATE_ISOLATE && !is_migrate_cma(mt) &&
			    (!mm->kernel.highatomic || mt < MIGRATE_PCPTYPES))
				set_pageblock_migratetype(mm, p, MIGRATE_MOVABLE);
		}
	}
	return true;
}

/*
 * split_free_page: take a free block off the lists as 2^order separate
 * allocated pages, but only if the zone keeps its mark (above).
 * zone->lock held. Returns the pages taken, or 0.
 */
int split_free_page(struct cma_mm *mm, struct cma_page *page)
{
	unsigned order = page_order(page);

	lockdep_assert_held(&page_zone(mm, page)->lock);
	if (!take_isolated_block(mm, page, order))
		return 0;
	for (unsigned long i = 0; i < (1ul << order); i++)
		prep_isolated_page(mm, page + i, 0);
	return 1 << order;
}

/*
 * isolate_free_block: as split_free_page, but the block stays whole, one
 * allocated page of its order (6.9's compaction keeps its targets so,
 * kernel.compact_folios). zone->lock held. Returns the pages taken, or 0.
 */
int isolate_free_block(struct cma_mm *mm, struct cma_page *page)
{
	unsigned order = page_order(page);

	lockdep_assert_held(&page_zone(mm, page)->lock);
	if (!take_isolated_block(mm, page, order))
		return 0;
	prep_isolated_page(mm, page, order);
	return 1 << order;
}

void prep_isolated_page(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	prep_new_page(mm, page, order, 0, MIGRATE_MOVABLE);
}

/* ---- placing pages where a described machine has them ---- */

struct cma_page *alloc_pages_at(struct cma_mm *mm, unsigned long pfn, unsigned order, cma_gfp_t gfp)
{
	struct zone *zone;
	struct cma_page *page;

	if (order >= mm->max_order || (pfn & ((1ul << order) - 1)) || !pfn_valid(mm, pfn) ||
	    !pfn_valid(mm, pfn + (1ul << order) - 1)) {
		errno = EINVAL;
		return NULL;
	}
	zone = pfn_zone(mm, pfn);
	if (!zone || zone != pfn_zone(mm, pfn + (1ul << order) - 1)) {
		errno = EINVAL;
		return NULL;
	}
	/* a free page on a per-CPU list is not on the buddy lists */
	drain_all_pages(mm, zone);
	spin_lock(&zone->lock);
	page = take_free_block_at(zone, pfn, order);
	spin_unlock(&zone->lock);
	if (!page) {
		errno = EBUSY;
		return NULL;
	}
	prep_new_page(mm, page, order, gfp, allocflags_to_migratetype(mm, gfp));
	return page;
}

struct cma_page *cma_alloc_pages_at(struct cma_mm *mm, unsigned long pfn, unsigned order,
				    cma_gfp_t gfp)
{
	if (mm_require_phase(mm, MM_BOOTED, "cma_alloc_pages_at")) {
		errno = EINVAL;
		return NULL;
	}
	return alloc_pages_at(mm, pfn, order, gfp);
}

/*
 * A free block larger than a pageblock that holds @pfn's block, given back
 * as its pageblocks each on its own block's list, unmerged: the blocks'
 * types may now differ, and a free block lies on its head block's list.
 * zone->lock held.
 */
static void split_covering_free_block(struct zone *zone, unsigned long pfn)
{
	struct cma_mm *mm = zone->mm;
	unsigned long head, pb = mm->pageblock_nr_pages;
	unsigned order;

	lockdep_assert_held(&zone->lock);
	if (!free_block_covering(zone, pfn & ~(pb - 1), &head))
		return;
	order = page_order(pfn_to_page(mm, head));
	if (order <= mm->pageblock_order)
		return;
	del_from_free_area(zone, pfn_to_page(mm, head), order);
	for (unsigned long p = head; p < head + (1ul << order); p += pb)
		add_to_free_area(zone, pfn_to_page(mm, p), mm->pageblock_order,
				 get_pageblock_migratetype(mm, p), false);
}

/*
 * As the fallback path gives a pageblock a new type when it steals it
 * (move_freepages_block and set_pageblock_migratetype), for a caller that
 * knows each block's type: only the types with per-CPU lists, and never a
 * CMA or isolated block, whose type belongs to CMA and isolation.
 */
int cma_set_pageblock_migratetype(struct cma_mm *mm, unsigned long pfn, int migratetype)
{
	struct zone *zone;
	int old;

	if (mm_require_phase(mm, MM_BOOTED, "cma_set_pageblock_migratetype"))
		return -EINVAL;
	if (!pfn_valid(mm, pfn) || migratetype < 0 || migratetype >= MIGRATE_PCPTYPES)
		return -EINVAL;
	zone = pfn_zone(mm, pfn);
	spin_lock(&zone->lock);
	old = get_pageblock_migratetype(mm, pfn);
	if (old == MIGRATE_ISOLATE || is_migrate_cma(old) || old >= MIGRATE_PCPTYPES) {
		spin_unlock(&zone->lock);
		return -EBUSY;
	}
	set_pageblock_migratetype(mm, pfn, migratetype);
	split_covering_free_block(zone, pfn);
	/* the type the block got: UNMOVABLE when grouping by mobility is off */
	move_freepages_block(zone, pfn_to_page(mm, pfn), get_pageblock_migratetype(mm, pfn));
	spin_unlock(&zone->lock);
	return 0;
}

/*
 * free_reserved_area(): each PG_reserved page of the range to the buddy
 * allocator, as the kernel frees its init sections; the others are left.
 */
long cma_free_reserved_area(struct cma_mm *mm, unsigned long start_pfn, unsigned long end_pfn)
{
	if (mm_require_phase(mm, MM_BOOTED, "cma_free_reserved_area"))
		return -EINVAL;
	return free_reserved_range(mm, start_pfn, end_pfn);
}

long free_reserved_range(struct cma_mm *mm, unsigned long start_pfn, unsigned long end_pfn)
{
	long freed = 0;

	for (unsigned long pfn = start_pfn; pfn < end_pfn;) {
		struct zone *zone = pfn_valid(mm, pfn) ? pfn_zone(mm, pfn) : NULL;
		unsigned long end = pfn;

		/* a run of reserved pages in one zone */
		while (zone && end < end_pfn && pfn_valid(mm, end) && pfn_zone(mm, end) == zone &&
		       page_test(pfn_to_page(mm, end), PG_reserved))
			end++;
		if (end == pfn) {
			pfn++;
			continue;
		}
		free_bootmem_range(mm, pfn, end);
		freed += (long)(end - pfn);
		pfn = end;
	}
	return freed;
}

/*
 * The head of the allocation that holds @pfn, looking back as far as
 * the largest order, or NULL (a free or reserved pfn, a hole). An
 * unlocked look, as the kernel's PageHuge of a tail page.
 */
struct cma_page *alloc_head_of(struct cma_mm *mm, unsigned long pfn)
{
	for (unsigned order = 0; order < mm->max_order; order++) {
		unsigned long head = pfn & (~0ul << order);
		struct cma_page *page;

		if (head < mm->base_pfn || !pfn_valid(mm, head))
			return NULL;
		page = pfn_to_page(mm, head);
		if (page_test(page, PG_head))
			return head + (1ul << page_order(page)) > pfn ? page : NULL;
	}
	return NULL;
}
