// SPDX-License-Identifier: GPL-2.0
/*
 * Memory compaction (mm/compaction.c of v3.5, as seed 002 splits it so
 * that alloc_contig_range can use its two isolation helpers).
 *
 * The one idea: two scanners walk a zone towards each other. The migrate
 * scanner climbs from the bottom, taking movable pages off the LRU in
 * batches of COMPACT_CLUSTER_MAX; the free scanner comes down from the
 * top, a pageblock at a time, splitting free blocks into order-0 pages
 * that become the migration targets (from 6.9 it keeps them whole, one
 * list per order, and cuts a target of each folio's order out of them).
 * Moving contents upwards gathers the free memory at the bottom into
 * contiguous blocks. A run ends when the
 * scanners meet, or, for a direct compactor, as soon as a block of the
 * wanted order is free.
 *
 * The exports for CMA (seed 002):
 *   isolate_freepages_range()     strict: every page of the range free,
 *                                 taken as order-0 pages, or nothing
 *   isolate_migratepages_range()  one batch of LRU pages to migrate
 *
 * Locking: the free scanner holds zone->lock over one pageblock at a
 * time (split_free_page needs it); isolate_lru_page takes lru_lock itself.
 * Events and traces are emitted once zone->lock is dropped, because
 * count_vm_events takes slot->lock, which must not nest inside it. No
 * lock is held across migrate_pages() or while pages are freed.
 */
#include <limits.h>
#include <sched.h>

#include "lib/bitmap.h"
#include "mm/internal.h"

/* sysctl_extfrag_threshold: an index above this blames fragmentation, not lack of memory */
#define EXTFRAG_THRESHOLD	500

static unsigned long min_ul(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

static unsigned long max_ul(unsigned long a, unsigned long b)
{
	return a > b ? a : b;
}

/* The first pfn of the pageblock after the one holding @pfn. */
static unsigned long next_pageblock_pfn(const struct cma_mm *mm, unsigned long pfn)
{
	return (pfn | (mm->pageblock_nr_pages - 1)) + 1;
}

/* The base pages of the blocks on @list, each of its page_order. */
static unsigned long page_list_nr_pages(struct cma_mm *mm, const struct page_list *list)
{
	unsigned long n = 0;

	for (struct cma_page *page = page_list_first(mm, list); page; page = page_list_next(mm, page))
		n += 1ul << page_order(page);
	return n;
}

/* The pages of the isolated blocks on @lists, one list per order. */
static unsigned long freepages_count(struct cma_mm *mm, const struct page_list *lists)
{
	unsigned long n = 0;

	for (unsigned o = 0; o < mm->max_order; o++)
		n += page_list_nr_pages(mm, &lists[o]);
	return n;
}

/* Give the isolated blocks on @lists back to the allocator; returns their pages. */
static unsigned long release_freepages(struct cma_mm *mm, struct page_list *lists)
{
	unsigned long n = 0;

	for (unsigned o = 0; o < mm->max_order; o++) {
		struct cma_page *page;

		while ((page = page_list_first(mm, &lists[o]))) {
			page_list_del(mm, &lists[o], page);
			put_page(mm, page);
			n += 1ul << o;
		}
	}
	return n;
}

static void free_lists_init(struct page_list *lists)
{
	for (unsigned o = 0; o < MAX_ORDER_LIMIT; o++)
		page_list_init(&lists[o]);
}

void compact_control_init_lists(struct compact_control *cc)
{
	free_lists_init(cc->freepages);
	page_list_init(&cc->migratepages);
}

/* ---- 6.12's skip bits and cached scanner positions ---- */

bool get_pageblock_skip(const struct cma_mm *mm, unsigned long pfn)
{
	return __atomic_load_n(&mm->pageblock_skip[pageblock_index(mm, pfn)], __ATOMIC_RELAXED);
}

/* A hint, as the kernel's PB_migrate_skip: set without zone->lock, racy by design. */
void set_pageblock_skip(struct cma_mm *mm, unsigned long pfn)
{
	if (mm->kernel.compact_skip_hint)
		__atomic_store_n(&mm->pageblock_skip[pageblock_index(mm, pfn)], 1, __ATOMIC_RELAXED);
}

/* isolation_suitable: scan the pageblock at @pfn, its skip bit clear or ignored? */
static bool isolation_suitable(const struct compact_control *cc, unsigned long pfn)
{
	struct cma_mm *mm = cc->zone->mm;

	return !mm->kernel.compact_skip_hint || cc->ignore_skip_hint || !get_pageblock_skip(mm, pfn);
}

/*
 * test_and_set_skip (kernel.compact_fast_migrate): a compactor that is
 * about to take a page from a block marks the block skip, so that no
 * free-list search names it again (and no other compactor scans it)
 * until the bits are reset; true if it was marked already, and the scan
 * leaves the block. Without it a search could name the same block batch
 * after batch while its pages fail to move. e380bebe4771 "mm,
 * compaction: keep migration source private to a single compaction
 * instance", in the 5.1 series of fast_find_migrateblock.
 */
static bool test_and_set_skip(const struct compact_control *cc, unsigned long pfn)
{
	struct cma_mm *mm = cc->zone->mm;
	bool skip;

	if (cc->ignore_skip_hint)
		return false;
	skip = get_pageblock_skip(mm, pfn);
	if (!skip)
		set_pageblock_skip(mm, pfn);
	return skip;
}

/*
 * suitable_migration_source: whether the migrate scanner takes from a
 * pageblock of type @mt. An async run scans MOVABLE and CMA blocks only;
 * from 4.12 (kernel.compact_async_same_type) only a direct async run is
 * restricted, to its request's blocks: movable ones for a movable
 * request, its own type's for another. kswapd's async run
 * (compact_pgdat, standing for kcompactd's) scans every block then.
 */
static bool suitable_migration_source(const struct compact_control *cc, int mt)
{
	if (cc->sync)
		return true;
	if (!cc->zone->mm->kernel.compact_async_same_type)
		return migrate_async_suitable(mt);
	if (!cc->direct)
		return true;
	return cc->migratetype == MIGRATE_MOVABLE ? migrate_async_suitable(mt) : mt == cc->migratetype;
}

/*
 * valid_page: a scan that begins at its pageblock's start (from 6.5,
 * kernel.compact_fast_block_scanned, or at the zone's) is the one that
 * may mark the block.
 */
static bool scan_starts_block(const struct zone *zone, unsigned long pfn)
{
	const struct cma_mm *mm = zone->mm;

	return !(pfn & (mm->pageblock_nr_pages - 1)) ||
	       (mm->kernel.compact_fast_block_scanned && pfn == zone->zone_start_pfn);
}

/*
 * The first page a compactor's scan would take at @pfn (cc->skip_updated
 * says it came): test_and_set_skip, from 5.1 when that page is its
 * block's first, from 6.5 (kernel.compact_fast_block_scanned) whenever
 * the scan began at the block's start (@valid_page). True to leave the
 * block another compactor has, which from 6.5 a block to be finished
 * (cc->finish_pageblock) is not.
 */
static bool first_take_leaves(const struct zone *zone, struct compact_control *cc, bool valid_page,
			      unsigned long pfn)
{
	const struct cma_mm *mm = zone->mm;

	cc->skip_updated = true;
	if (!cc->compacting || !mm->kernel.compact_fast_migrate)
		return false;
	if (!mm->kernel.compact_fast_block_scanned)
		return !(pfn & (mm->pageblock_nr_pages - 1)) && test_and_set_skip(cc, pfn);
	return valid_page && test_and_set_skip(cc, pfn) && !cc->finish_pageblock;
}

static unsigned long zone_end_pfn(const struct zone *zone)
{
	return zone->zone_start_pfn + zone->spanned_pages;
}

/* reset_cached_positions: the next direct run starts at the zone's two ends. */
void reset_cached_positions(struct zone *zone)
{
	unsigned long free_pfn = (zone_end_pfn(zone) - 1) & ~(zone->mm->pageblock_nr_pages - 1);

	__atomic_store_n(&zone->compact_cached_migrate_pfn[0], zone->zone_start_pfn, __ATOMIC_RELAXED);
	__atomic_store_n(&zone->compact_cached_migrate_pfn[1], zone->zone_start_pfn, __ATOMIC_RELAXED);
	__atomic_store_n(&zone->compact_cached_free_pfn, free_pfn, __ATOMIC_RELAXED);
}

/*
 * __reset_isolation_suitable: once a direct run's scanners met
 * (compact_blockskip_flush), clear the zone's skip bits and start over.
 * Departure: 6.12 (__reset_isolation_pfn) also looks into each block for
 * a candidate page and starts the scanners at the first block that has
 * one; here they start at the zone's ends.
 */
static void __reset_isolation_suitable(struct zone *zone)
{
	struct cma_mm *mm = zone->mm;
	unsigned long first, last;

	if (!__atomic_exchange_n(&zone->compact_blockskip_flush, false, __ATOMIC_RELAXED))
		return;
	first = pageblock_index(mm, zone->zone_start_pfn);
	last = pageblock_index(mm, zone_end_pfn(zone) - 1);
	for (unsigned long i = first; i <= last; i++)
		__atomic_store_n(&mm->pageblock_skip[i], 0, __ATOMIC_RELAXED);
	reset_cached_positions(zone);
	/* kernel.compact_fast_free: a free scan from here on is a scan's start */
	__atomic_store_n(&zone->compact_init_free_pfn,
			 __atomic_load_n(&zone->compact_cached_free_pfn, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
}

/* reset_isolation_suitable: kswapd goes to sleep; every zone's skip bits may go. */
void reset_isolation_suitable(struct cma_mm *mm)
{
	struct zone *zone;

	if (!mm->kernel.compact_skip_hint)
		return;
	for_each_populated_zone(mm, zone)
		__reset_isolation_suitable(zone);
}

/*
 * compaction_restarting: the longest deferral for @order has run out;
 * the blocks skipped since may have changed, so the skip bits go.
 */
static bool compaction_restarting(struct zone *zone, int order)
{
	unsigned shift = __atomic_load_n(&zone->compact_defer_shift, __ATOMIC_RELAXED);

	if (order < __atomic_load_n(&zone->compact_order_failed, __ATOMIC_RELAXED))
		return false;
	return shift == COMPACT_MAX_DEFER_SHIFT &&
	       __atomic_load_n(&zone->compact_considered, __ATOMIC_RELAXED) >= 1u << shift;
}

/* update_cached_migrate: the next run of this mode resumes past the block ending at @end_pfn. */
static void update_cached_migrate(struct compact_control *cc, unsigned long end_pfn)
{
	struct zone *zone = cc->zone;

	if (!zone->mm->kernel.compact_cached_pfn)
		return;
	for (int i = 0; i <= (int)cc->sync; i++)
		if (end_pfn > __atomic_load_n(&zone->compact_cached_migrate_pfn[i], __ATOMIC_RELAXED))
			__atomic_store_n(&zone->compact_cached_migrate_pfn[i], end_pfn,
					 __ATOMIC_RELAXED);
}

/* update_pageblock_skip: the free scanner scanned the block at @pfn whole. */
static void update_pageblock_skip(struct compact_control *cc, unsigned long pfn)
{
	struct zone *zone = cc->zone;
	unsigned long below = pfn - zone->mm->pageblock_nr_pages;

	set_pageblock_skip(zone->mm, pfn);
	if (zone->mm->kernel.compact_cached_pfn && pfn > zone->zone_start_pfn &&
	    below < __atomic_load_n(&zone->compact_cached_free_pfn, __ATOMIC_RELAXED))
		__atomic_store_n(&zone->compact_cached_free_pfn, below, __ATOMIC_RELAXED);
}

/* ---- the free scanner ---- */

/*
 * Take the free block whose head is @pfn onto @freelists (one list per
 * order). @whole (6.9's compaction, kernel.compact_folios): as one block
 * at the tail of its order's list. Else as 2^order allocated order-0
 * pages pushed at the head of the order-0 list, as the kernel's
 * split_map_pages leaves them: the last page taken is the first target
 * handed out. Returns the pages taken: 0 if @pfn is not the head of a
 * free block of @zone, or if the watermark forbids taking it.
 * zone->lock held.
 */
static unsigned long take_free_block(struct zone *zone, unsigned long pfn,
				     struct page_list *freelists, bool whole)
{
	struct cma_mm *mm = zone->mm;
	struct cma_page *page = pfn_to_page(mm, pfn);
	unsigned long isolated;

	lockdep_assert_held(&zone->lock);
	if (!page_test(page, PG_buddy) || page_zonenum(page) != (unsigned)zone->idx)
		return 0;
	if (whole) {
		unsigned order = page_order(page);

		isolated = (unsigned long)isolate_free_block(mm, page);
		if (isolated)
			page_list_add_tail(mm, &freelists[order], page);
		return isolated;
	}
	isolated = (unsigned long)split_free_page(mm, page);
	for (unsigned long i = 0; i < isolated; i++)
		page_list_add(mm, &freelists[0], page + i);
	return isolated;
}

/*
 * The pages of the allocated compound page (6.12's PageCompound: an
 * allocation's head with an order) at @pfn, or 0. An unlocked look, as
 * the kernel's: only the danger of stepping too far, which the callers
 * bound.
 */
static unsigned long compound_nr_at(struct cma_mm *mm, unsigned long pfn)
{
	uint32_t flags = page_flags(pfn_to_page(mm, pfn));
	unsigned order = (flags & PG_ORDER_MASK) >> PG_ORDER_SHIFT;

	if ((flags & (PG_head | PG_buddy)) != PG_head || !order || order >= mm->max_order)
		return 0;
	return 1ul << order;
}

/*
 * The first pfn of @pfn, @pfn + @stride, ... that heads a free block of
 * @zone, or the first at or past @end_pfn: where the scan looks next to
 * any effect, as take_free_block refuses every pfn in between. Read from
 * zone->free_heads rather than each page's flags. zone->lock held.
 */
static unsigned long next_free_head(struct zone *zone, unsigned long pfn, unsigned long end_pfn,
				    unsigned stride)
{
	unsigned long base = zone->zone_start_pfn;
	unsigned long last = min_ul(end_pfn, zone_end_pfn(zone));

	lockdep_assert_held(&zone->lock);
	while (pfn < end_pfn) {
		unsigned long head = max_ul(pfn, base);

		if (head < last)
			head = base + find_next_bit(zone->free_heads, last - base, head - base);
		if (head >= last)
			head = end_pfn;
		pfn += (head - pfn + stride - 1) / stride * stride;
		if (pfn == head)
			break;
	}
	return pfn;
}

/* The valid pfns of @pfn, @pfn + @stride, ... below @end_pfn: those a scan counts. */
static unsigned long valid_pfns(const struct cma_mm *mm, unsigned long pfn, unsigned long end_pfn,
				unsigned stride)
{
	unsigned long nr = 0;

	if (pfn >= end_pfn)
		return 0;
	if (pfn_range_in_big_bank(mm, pfn, end_pfn))
		return (end_pfn - pfn + stride - 1) / stride;
	for (; pfn < end_pfn; pfn += stride)
		nr += pfn_valid(mm, pfn);
	return nr;
}

/*
 * isolate_freepages_block: take the free blocks found from *@pfn to
 * @end_pfn onto @freelists (take_free_block; whole ones only for a
 * compaction under kernel.compact_folios, never @strict); a block found
 * at its head is taken entire even where it extends past @end_pfn. Strict: the first pfn that is invalid,
 * not free, or refused by the watermark ends the scan with 0; what was
 * taken stays on @freelist for the caller to give back. Otherwise the
 * scan stops once @want pages are taken (kernel.free_scan_enough; -1ul:
 * the whole range), and looks at every @stride-th pfn only
 * (kernel.free_scan_stride; strict scans take 1). zone->lock held.
 * Returns the pages taken; *@pfn is where the scan stopped, *nr_scanned
 * grows by the valid pfns looked at and, under
 * kernel.compact_scan_count_order, by the rest of each block taken and
 * of each compound page stepped over (*nr_stepped: those not looked at).
 */
static unsigned long isolate_freepages_block(struct zone *zone, unsigned long *pfnp,
					     unsigned long end_pfn, struct page_list *freelists,
					     bool strict, unsigned long want, unsigned stride,
					     unsigned long *nr_scanned, unsigned long *nr_stepped)
{
	struct cma_mm *mm = zone->mm;
	bool by_order = mm->kernel.compact_scan_count_order;
	bool whole = !strict && mm->kernel.compact_folios;
	unsigned long total = 0, pfn = *pfnp;

	lockdep_assert_held(&zone->lock);
	for (; pfn < end_pfn; pfn += stride) {
		unsigned long isolated = 0;

		/* only the heads matter unless the pfns between stop the scan or step over compounds */
		if (!strict && !by_order) {
			unsigned long head = next_free_head(zone, pfn, end_pfn, stride);

			*nr_scanned += valid_pfns(mm, pfn, head, stride);
			pfn = head;
			if (pfn >= end_pfn)
				break;
		}
		if (pfn_valid(mm, pfn)) {
			(*nr_scanned)++;
			isolated = take_free_block(zone, pfn, freelists, whole);
		}
		if (!isolated) {
			unsigned long nr = by_order && pfn_valid(mm, pfn) ? compound_nr_at(mm, pfn) : 0;

			if (strict)
				return 0;
			/* 6.12 steps over a compound page that ends inside the range */
			if (nr && pfn + nr <= end_pfn) {
				pfn += nr - 1;
				*nr_scanned += nr - 1;
				*nr_stepped += nr - 1;
			}
			continue;
		}
		if (by_order) {
			*nr_scanned += isolated - 1;
			*nr_stepped += isolated - 1;
		}
		total += isolated;
		pfn += isolated - 1;
		if (total >= want) {
			pfn++;
			break;
		}
	}
	*pfnp = pfn;
	return total;
}

/*
 * After zone->lock is dropped: the trace and the events of one free-page
 * scan. 6.12 counts compaction's scanning per run and alloc_contig_range's
 * (@contig) not at all, as on the migrate side.
 */
static void account_free_scan(struct cma_mm *mm, bool contig, unsigned long nr_scanned,
			      unsigned long nr_stepped, unsigned long nr_taken)
{
	trace_event(mm, CMA_TRACE_MM_COMPACTION_ISOLATE_FREEPAGES, isolate,
		    .nr_scanned = nr_scanned, .nr_taken = nr_taken);
	count_vm_events(mm, contig && mm->kernel.compact_events_per_run ?
			CONTIGFREE_SCANNED : COMPACTFREE_SCANNED, nr_scanned);
	if (nr_stepped)
		count_vm_events(mm, COMPACT_SCAN_STEPPED, nr_stepped);
	if (nr_taken)
		count_vm_events(mm, COMPACTISOLATED, nr_taken);
}

/*
 * The free scanner's pageblock in compaction: traced at once, counted
 * in @cc until isolate_freepages() ends. The kernel's per-CPU counters
 * cost a plain add; ours take the slot's lock, once per scan this way
 * rather than once per pageblock. No scheduling point lies in between,
 * so no reader sees the difference.
 */
static void note_free_scan(struct cma_mm *mm, struct compact_control *cc,
			   unsigned long nr_scanned, unsigned long nr_stepped, unsigned long nr_taken)
{
	trace_event(mm, CMA_TRACE_MM_COMPACTION_ISOLATE_FREEPAGES, isolate,
		    .nr_scanned = nr_scanned, .nr_taken = nr_taken);
	cc->free_scanned += nr_scanned;
	cc->free_stepped += nr_stepped;
	cc->free_taken += nr_taken;
}

static void count_free_scans(struct cma_mm *mm, struct compact_control *cc)
{
	if (cc->free_scanned)
		count_vm_events(mm, COMPACTFREE_SCANNED, cc->free_scanned);
	if (cc->free_stepped)
		count_vm_events(mm, COMPACT_SCAN_STEPPED, cc->free_stepped);
	if (cc->free_taken)
		count_vm_events(mm, COMPACTISOLATED, cc->free_taken);
	if (cc->blocks_passed)
		count_vm_events(mm, COMPACT_BLOCKS_PASSED, cc->blocks_passed);
	cc->free_scanned = cc->free_stepped = cc->free_taken = cc->blocks_passed = 0;
}

/**
 * isolate_freepages_range() - take every page of [start_pfn, end_pfn) off
 * the free lists (the kernel's isolate_freepages_range, seed 002).
 *
 * Strict: each pfn must be valid, in the zone of @start_pfn, and the head
 * of a free block or inside one taken by this call; a split refused by the
 * watermark counts as a failure too. On any failure everything taken so
 * far goes back to the allocator and 0 is returned. On success the pages
 * are allocated order-0 pages (count 1) and the return value is the pfn
 * where taking stopped: past @end_pfn when the last free block extended
 * beyond it, in which case the caller gives back the tail.
 */
unsigned long isolate_freepages_range(struct cma_mm *mm, unsigned long start_pfn,
				      unsigned long end_pfn)
{
	struct page_list freelist[MAX_ORDER_LIMIT];
	unsigned long pfn = start_pfn;
	struct zone *zone;

	if (start_pfn >= end_pfn || !pfn_valid(mm, start_pfn))
		return 0;
	free_lists_init(freelist);
	zone = page_zone(mm, pfn_to_page(mm, start_pfn));
	while (pfn < end_pfn) {
		unsigned long block_end = min_ul(next_pageblock_pfn(mm, pfn), end_pfn);
		unsigned long isolated, nr_scanned = 0, nr_stepped = 0, next = pfn;

		if (!pfn_valid(mm, pfn) || page_zone(mm, pfn_to_page(mm, pfn)) != zone)
			break;
		spin_lock(&zone->lock);
		isolated = isolate_freepages_block(zone, &next, block_end, freelist, true, -1ul, 1,
						   &nr_scanned, &nr_stepped);
		spin_unlock(&zone->lock);
		account_free_scan(mm, true, nr_scanned, nr_stepped, isolated);
		if (!isolated)
			break;
		/* strict: the pages taken are exactly [pfn, pfn + isolated) */
		pfn += isolated;
	}
	if (pfn < end_pfn) {
		release_freepages(mm, freelist);
		return 0;
	}
	/* the list links of the pages taken are left as they are: nobody reads them */
	return pfn;
}

/*
 * suitable_migration_target: may the free scanner take pages from the
 * pageblock at @pfn? Not from ISOLATE (CMA or hot-remove at work) or
 * RESERVE (min_free_kbytes) blocks; from a whole free pageblock, whose
 * split makes it MOVABLE; otherwise only from MOVABLE and CMA blocks, so
 * that movable pages do not scatter into unmovable ones.
 */
static inline bool suitable_migration_target(const struct compact_control *cc, unsigned long pfn)
{
	struct zone *zone = cc->zone;
	struct cma_mm *mm = zone->mm;
	int mt = get_pageblock_migratetype(mm, pfn);

	if (mt == MIGRATE_ISOLATE || mt == MIGRATE_RESERVE)
		return false;
	/*
	 * The kernel looks at the page first; the type is looked at first
	 * here, and free_heads' bit stands for PG_buddy, so that the page,
	 * a cache miss a block, is read only for a free block's order.
	 */
	if (cc->ignore_block_suitable || migrate_async_suitable(mt))
		return true;
	return test_bit_once(pfn - zone->zone_start_pfn, zone->free_heads) &&
	       page_order(pfn_to_page(mm, pfn)) >= mm->pageblock_order;
}

/* ---- 6.12's search of the free lists for a target (kernel.compact_fast_free) ---- */

/* freelist_scan_limit: how many free-list entries a search looks at, fewer after each failure. */
static unsigned freelist_scan_limit(const struct compact_control *cc)
{
	unsigned shift = min_ul(cc->fast_search_fail, sizeof(unsigned long) * 8 - 1);

	return (unsigned)(COMPACT_CLUSTER_MAX >> shift) + 1;
}

/*
 * move_freelist_head: rotate @list so that @page comes first and the
 * entries that were before it go to the tail, where the next search from
 * the tail meets them first. zone->lock held.
 */
static void move_freelist_head(struct cma_mm *mm, struct page_list *list, struct cma_page *page)
{
	uint32_t idx = page_idx(mm, page), before = page->prev;

	lockdep_assert_held(&page_zone(mm, page)->lock);
	if (before == PAGE_NIL)
		return;
	mm->mem_map[list->tail].next = list->head;
	mm->mem_map[list->head].prev = list->tail;
	mm->mem_map[before].next = PAGE_NIL;
	page->prev = PAGE_NIL;
	list->head = idx;
	list->tail = before;
}

/*
 * next_search_order: the search goes down from cc->search_order and wraps
 * at 0 to cc->order - 1; back where it started, it gives up (-1) and the
 * next search starts an order lower.
 */
static int next_search_order(struct compact_control *cc, int order)
{
	if (--order < 0)
		order = cc->order - 1;
	if (order != cc->search_order)
		return order;
	if (--cc->search_order < 0)
		cc->search_order = cc->order - 1;
	return -1;
}

/*
 * fast_isolate_around: a target was found at @pfn; unless the run is an
 * async direct one or has its targets, take the free pages of its
 * pageblock too, and mark the block skip when scanned to its end. The
 * block's type is not checked: the search looked at MOVABLE lists only.
 */
static void fast_isolate_around(struct zone *zone, struct compact_control *cc, unsigned long pfn)
{
	struct cma_mm *mm = zone->mm;
	unsigned long start = max_ul(pfn & ~(mm->pageblock_nr_pages - 1), zone->zone_start_pfn);
	unsigned long end = min_ul(next_pageblock_pfn(mm, pfn), zone_end_pfn(zone));
	unsigned long isolated, nr_scanned = 0, nr_stepped = 0;

	if (cc->nr_freepages >= cc->nr_migratepages || (cc->direct && !cc->sync))
		return;
	spin_lock(&zone->lock);
	isolated = isolate_freepages_block(zone, &start, end, cc->freepages, false,
					   cc->nr_migratepages - cc->nr_freepages, 1, &nr_scanned,
					   &nr_stepped);
	spin_unlock(&zone->lock);
	note_free_scan(mm, cc, nr_scanned, nr_stepped, isolated);
	cc->nr_freepages += isolated;
	if (start >= end)
		set_pageblock_skip(mm, pfn);
}

/*
 * Look at up to *@limit entries of @order's MOVABLE free list from its
 * tail: the first in [low_pfn, ...) is taken, else the highest in
 * [min_pfn, low_pfn), each such candidate halving *@limit; the list is
 * rotated past what was looked at and the page is isolated. *@highest
 * follows the highest pageblock seen. Returns the pages taken; 0 with
 * *@refused when the watermark refused the split. zone->lock held.
 */
static unsigned long fast_search_order(struct zone *zone, struct compact_control *cc, int order,
				       unsigned long low_pfn, unsigned long min_pfn,
				       unsigned *limit, unsigned long *highest,
				       unsigned long *nr_scanned, unsigned long *nr_stepped,
				       unsigned long *found_pfn, bool *refused)
{
	struct cma_mm *mm = zone->mm;
	struct page_list *list = &zone->free_area[order].free_list[MIGRATE_MOVABLE];
	struct cma_page *page = NULL, *last = NULL;
	unsigned long high_pfn = 0, taken;
	unsigned scanned = 0;

	lockdep_assert_held(&zone->lock);
	for (struct cma_page *p = page_list_last(mm, list); p;
	     p = p->prev == PAGE_NIL ? NULL : mm->mem_map + p->prev) {
		unsigned long pfn = page_to_pfn(mm, p);

		last = p;
		scanned++;
		(*nr_scanned)++;
		if (pfn >= *highest)
			*highest = max_ul(pfn & ~(mm->pageblock_nr_pages - 1), zone->zone_start_pfn);
		if (pfn >= low_pfn) {
			cc->fast_search_fail = 0;
			cc->search_order = order;
			page = p;
			break;
		}
		if (pfn >= min_pfn && pfn > high_pfn) {
			high_pfn = pfn;
			*limit >>= 1;
		}
		if (scanned >= *limit)
			break;
	}
	if (!page && high_pfn)
		last = page = pfn_to_page(mm, high_pfn);
	/* a walk that ran off the list's head leaves it as it was */
	if (last && (page || scanned >= *limit))
		move_freelist_head(mm, list, last);
	if (scanned >= *limit)
		*limit = (unsigned)max_ul(1, *limit >> 1);
	if (!page)
		return 0;
	*found_pfn = page_to_pfn(mm, page);
	taken = take_free_block(zone, *found_pfn, cc->freepages, mm->kernel.compact_folios);
	if (!taken) {
		*refused = true;
		return 0;
	}
	*nr_scanned += taken - 1;
	*nr_stepped += taken - 1;
	return taken;
}

/*
 * fast_isolate_freepages: 6.12's search of the free lists for a target
 * near the free scanner, before its linear scan (kernel.compact_fast_free).
 * Orders below the request are searched round-robin from the last one
 * that gave a target; a page in the top quarter of the space between the
 * scanners is preferred, one in its top half taken when none is. At a
 * scan's start (the free scanner at or above where the zone's last reset
 * put it) the search looks further and, finding nothing, moves the free
 * scanner down: to the highest pageblock seen above the halfway point,
 * else (a direct run) to the halfway point itself. The zone's cached free
 * position follows the highest pageblock seen. The entries looked at
 * count as free pfns scanned, a block taken as its pages.
 */
static void fast_isolate_freepages(struct zone *zone, struct compact_control *cc)
{
	struct cma_mm *mm = zone->mm;
	unsigned long mask = ~(mm->pageblock_nr_pages - 1);
	unsigned limit = (unsigned)max_ul(1, freelist_scan_limit(cc) >> 1);
	unsigned long distance, low_pfn, min_pfn, highest = 0, target = 0;
	unsigned long nr_scanned = 0, nr_stepped = 0, total = 0;
	bool scan_start = false, found = false;

	if (cc->order <= 0)
		return;
	if (cc->free_pfn >= __atomic_load_n(&zone->compact_init_free_pfn, __ATOMIC_RELAXED)) {
		limit = (unsigned)(mm->pageblock_nr_pages >> 1);
		scan_start = true;
	}
	distance = cc->free_pfn - cc->migrate_pfn;
	low_pfn = (cc->free_pfn - (distance >> 2)) & mask;
	min_pfn = (cc->free_pfn - (distance >> 1)) & mask;
	if (cc->search_order > cc->order - 1)
		cc->search_order = cc->order - 1;
	for (int order = cc->search_order; !found && order >= 0;
	     order = next_search_order(cc, order)) {
		unsigned long taken;
		bool refused = false;

		if (!__atomic_load_n(&zone->free_area[order].nr_free, __ATOMIC_RELAXED))
			continue;
		spin_lock(&zone->lock);
		taken = fast_search_order(zone, cc, order, low_pfn, min_pfn, &limit, &highest,
					  &nr_scanned, &nr_stepped, &target, &refused);
		spin_unlock(&zone->lock);
		found = taken;
		total += taken;
		cc->nr_freepages += taken;
		/* a refused split ends the search as a wrapped one does */
		if (refused)
			order = cc->search_order + 1;
		if (cc->nr_freepages >= cc->nr_migratepages)
			break;
	}
	trace_event(mm, CMA_TRACE_MM_COMPACTION_FAST_ISOLATE_FREEPAGES, isolate,
		    .min_pfn = min_pfn, .free_pfn = cc->free_pfn, .nr_scanned = nr_scanned,
		    .nr_taken = total);
	count_vm_events(mm, COMPACTFREE_SCANNED, nr_scanned);
	if (nr_stepped)
		count_vm_events(mm, COMPACT_SCAN_STEPPED, nr_stepped);
	if (total)
		count_vm_events(mm, COMPACTISOLATED, total);
	if (!found) {
		cc->fast_search_fail++;
		if (scan_start && highest >= min_pfn) {
			target = cc->free_pfn = highest;
			found = true;
		} else if (scan_start && cc->direct && pfn_valid(mm, min_pfn)) {
			target = cc->free_pfn = min_pfn;
			found = page_zonenum(pfn_to_page(mm, min_pfn)) == (unsigned)zone->idx &&
				suitable_migration_target(cc, min_pfn);
		}
	}
	if (highest && highest >= __atomic_load_n(&zone->compact_cached_free_pfn, __ATOMIC_RELAXED))
		__atomic_store_n(&zone->compact_cached_free_pfn, highest - mm->pageblock_nr_pages,
				 __ATOMIC_RELAXED);
	if (found)
		fast_isolate_around(zone, cc, target);
}

/*
 * The scan of isolate_freepages_block from *@start to @end_pfn where the
 * pageblock holds no free head: nothing taken, every @stride-th pfn
 * looked at, *@start left on the first past the range. Departure: the
 * kernel's scanner looks at the block's pages itself, under zone->lock
 * for the whole block in 3.5's; here the block's count of heads, read
 * without the lock, stands for that look. It answers as the locked scan
 * does, but for a page freed into the block while it looks, which a scan
 * under the lock misses too when the free comes just after it.
 */
static unsigned long scan_block_without_heads(const struct cma_mm *mm, unsigned long *start,
					      unsigned long end_pfn, unsigned stride)
{
	unsigned long nr_scanned = valid_pfns(mm, *start, end_pfn, stride);

	if (*start < end_pfn)
		*start += (end_pfn - *start + stride - 1) / stride * stride;
	return nr_scanned;
}

/* No free head in @pfn's pageblock of @zone (a relaxed read, without zone->lock)? */
static bool block_without_heads(const struct zone *zone, unsigned long pfn)
{
	return !__atomic_load_n(&zone->block_heads[zone_block_index(zone, pfn)], __ATOMIC_RELAXED);
}

/*
 * The free scanner at the pageblock @pfn (to @block_end), from *@start:
 * false if the block is passed over unlocked; else up to @limit of its
 * free pages, one pfn in @stride looked at, go to cc->freepages, and
 * *@isolated and *@nr_scanned say how many were taken and looked at.
 * A block with no free head is looked at without the lock, unless the
 * scan steps over compound pages (kernel.compact_scan_count_order),
 * which it counts from their pages.
 */
static bool free_scan_pageblock(struct zone *zone, struct compact_control *cc, unsigned long pfn,
				unsigned long *start, unsigned long block_end, unsigned long limit,
				unsigned stride, unsigned long *isolated, unsigned long *nr_scanned)
{
	struct cma_mm *mm = zone->mm;
	unsigned long nr_stepped = 0;

	*isolated = *nr_scanned = 0;
	/*
	 * Checked unlocked first, to keep zone->lock for the blocks worth it.
	 * The kernel's page_zone(page) != zone, without reading the page (a
	 * cache miss a block): a valid page is in the zone whose span holds
	 * it (memmap_init; the validator's claim() checks it).
	 */
	if (!pfn_valid(mm, pfn) || !zone_spans_pfn(zone, pfn) ||
	    !suitable_migration_target(cc, pfn) || !isolation_suitable(cc, pfn)) {
		cc->blocks_passed++;
		return false;
	}
	if (!mm->kernel.compact_scan_count_order && block_without_heads(zone, pfn)) {
		*nr_scanned = scan_block_without_heads(mm, start, block_end, stride);
	} else {
		spin_lock(&zone->lock);
		if (suitable_migration_target(cc, pfn))
			*isolated = isolate_freepages_block(zone, start, block_end, cc->freepages,
							    false, limit, stride, nr_scanned,
							    &nr_stepped);
		spin_unlock(&zone->lock);
	}
	note_free_scan(mm, cc, *nr_scanned, nr_stepped, *isolated);
	cc->nr_freepages += *isolated;
	return true;
}

/*
 * The highest block of @zone (zone_block_index) from @hi down to @lo with
 * a free head or a type other than MOVABLE and CMA, read a word at a time
 * from head_blocks and target_blocks without the lock; @lo - 1 if none.
 */
static unsigned long last_stop_block(const struct zone *zone, unsigned long lo, unsigned long hi)
{
	for (unsigned long w = BIT_WORD(hi);; w--) {
		unsigned long stop = __atomic_load_n(&zone->head_blocks[w], __ATOMIC_RELAXED) |
				     ~__atomic_load_n(&zone->target_blocks[w], __ATOMIC_RELAXED);

		if (w == BIT_WORD(hi))
			stop &= BITMAP_LAST_WORD_MASK(hi + 1);
		if (w == BIT_WORD(lo))
			stop &= BITMAP_FIRST_WORD_MASK(lo);
		if (stop)
			return w * BITS_PER_LONG + BITS_PER_LONG - 1 - (unsigned long)__builtin_clzl(stop);
		if (w == BIT_WORD(lo))
			return lo - 1;
	}
}

/*
 * The v3.5 scanner's common case (x86-4g: 78 of its 83 million blocks in
 * ten minutes): a whole block of the zone and of the big bank, with no
 * free head, of a suitable type, not skipped, scanned whole without the
 * lock for nothing. From @pfn down to above @low_pfn, a run of them is
 * counted as free_scan_pageblock() and isolate_freepages_v35() count each
 * (its pfns scanned, the block's skip updated), without their calls;
 * returns the pfn of the first block not of the run. A tracer, which has
 * an event for each block, and kernel.compact_scan_count_order, whose
 * scans take the lock, have none. Without the skip hint (3.5) the run's
 * blocks are found a word of blocks at a time, and only the last two
 * moves of compact_cached_free_pfn are made: the lowest wins.
 */
static unsigned long free_scan_empty_run(struct zone *zone, struct compact_control *cc,
					 unsigned long pfn, unsigned long low_pfn)
{
	struct cma_mm *mm = zone->mm;
	unsigned long nr = mm->pageblock_nr_pages, scanned = 0;
	/* the blocks above low_pfn whole in the zone and the big bank: [lo, end) */
	unsigned long lo = max_ul(low_pfn + 1, max_ul(zone->zone_start_pfn, mm->big_bank_pfn));
	unsigned long end = min_ul(zone_end_pfn(zone), mm->big_bank_pfn + mm->big_bank_nr_pages);

	if (mm->kernel.compact_scan_count_order ||
	    trace_event_enabled(mm, CMA_TRACE_MM_COMPACTION_ISOLATE_FREEPAGES) || pfn + nr > end)
		return pfn;
	if (!mm->kernel.compact_skip_hint && pfn >= lo) {
		unsigned long hi = zone_block_index(zone, pfn);
		unsigned long blocks = hi - last_stop_block(zone, hi - (pfn - lo) / nr, hi);

		if (blocks) {
			scanned = blocks * nr;
			pfn -= blocks * nr;
			if (blocks > 1)
				update_pageblock_skip(cc, pfn + 2 * nr);
			update_pageblock_skip(cc, pfn + nr);
		}
	}
	for (; pfn >= lo && block_without_heads(zone, pfn) && suitable_migration_target(cc, pfn) &&
	       isolation_suitable(cc, pfn); pfn -= nr) {
		scanned += nr;
		update_pageblock_skip(cc, pfn);
	}
	cc->free_scanned += scanned;
	return pfn;
}

/*
 * isolate_freepages_v35: from cc->free_pfn down, pageblock by pageblock,
 * take free pages until there are as many as pages to migrate, staying a
 * pageblock above the migrate scanner. Each block gives its every free
 * page, and the next scan restarts at the highest pageblock that gave
 * pages, as migration may have freed more.
 */
static void isolate_freepages_v35(struct zone *zone, struct compact_control *cc)
{
	unsigned long nr = zone->mm->pageblock_nr_pages;
	unsigned long zone_end = zone->zone_start_pfn + zone->spanned_pages;
	unsigned long low_pfn = cc->migrate_pfn + nr;
	unsigned long start = cc->free_pfn, pfn = start & ~(nr - 1);
	unsigned long high_pfn = min_ul(low_pfn, pfn);

	for (; pfn > low_pfn && cc->nr_migratepages > cc->nr_freepages; pfn -= nr, start = pfn) {
		unsigned long isolated, nr_scanned, below;

		/* a run passed over: on at the first block below it */
		if (start == pfn && (below = free_scan_empty_run(zone, cc, pfn, low_pfn)) != pfn) {
			pfn = below + nr;
			continue;
		}
		if (!free_scan_pageblock(zone, cc, pfn, &start, min_ul(pfn + nr, zone_end), -1ul, 1,
					 &isolated, &nr_scanned))
			continue;
		/*
		 * The block counts as scanned to its end when the run needed
		 * all it gave: none are left over to give back there.
		 */
		if (nr_scanned && cc->nr_freepages <= cc->nr_migratepages)
			update_pageblock_skip(cc, pfn);
		if (isolated)
			high_pfn = max_ul(high_pfn, pfn);
	}
	cc->free_pfn = high_pfn;
}

/*
 * isolate_freepages_v40 (kernel.free_scan_enough, 4.0): as v3.5's, but
 * the scan stops inside the block once it has enough and the next one
 * resumes at that pfn (at the block below when it ended the block); a
 * block scanned to its end is marked skip. kernel.free_scan_stride
 * (5.1): the scan looks at every stride-th pfn, the stride starting at
 * COMPACT_CLUSTER_MAX for an async run (1 for a sync one), back to 1
 * after a block that gave pages and doubled (up to COMPACT_CLUSTER_MAX)
 * after one that gave none, in either mode. kernel.compact_fast_free
 * (5.1): the free lists are searched first.
 */
static void isolate_freepages_v40(struct zone *zone, struct compact_control *cc)
{
	struct cma_mm *mm = zone->mm;
	unsigned long nr = mm->pageblock_nr_pages;
	unsigned long zone_end = zone->zone_start_pfn + zone->spanned_pages;
	unsigned long low_pfn = cc->migrate_pfn + nr;
	unsigned long start, pfn;
	bool sample = mm->kernel.free_scan_stride;
	unsigned stride = sample && !cc->sync ? COMPACT_CLUSTER_MAX : 1;

	if (mm->kernel.compact_fast_free) {
		fast_isolate_freepages(zone, cc);
		if (cc->nr_freepages)
			return;
	}
	start = cc->free_pfn;
	for (pfn = start & ~(nr - 1); pfn > low_pfn && cc->nr_migratepages > cc->nr_freepages;
	     pfn -= nr, start = pfn) {
		unsigned long block_end = min_ul(pfn + nr, zone_end), isolated, nr_scanned;

		if (!free_scan_pageblock(zone, cc, pfn, &start, block_end,
					 cc->nr_migratepages - cc->nr_freepages, stride, &isolated,
					 &nr_scanned))
			continue;
		if (sample)
			stride = isolated ? 1 : (unsigned)min_ul(COMPACT_CLUSTER_MAX, stride << 1);
		if (start >= block_end)
			update_pageblock_skip(cc, pfn);
		if (cc->nr_freepages >= cc->nr_migratepages) {
			cc->free_pfn = start < block_end ? start : pfn - nr;
			return;
		}
	}
	cc->free_pfn = pfn;
}

/*
 * isolate_freepages: the era's free scanner. Releases add their changes
 * in order, so 5.1's stride and fast search come only with 4.0's
 * free_scan_enough, and only that variant reads them.
 */
static void isolate_freepages(struct zone *zone, struct compact_control *cc)
{
	if (zone->mm->kernel.free_scan_enough)
		isolate_freepages_v40(zone, cc);
	else
		isolate_freepages_v35(zone, cc);
	count_free_scans(zone->mm, cc);
}

/* The lowest order from @order up whose list of cc->freepages has a block, or max_order. */
static unsigned first_free_order(struct cma_mm *mm, const struct compact_control *cc,
				 unsigned order)
{
	while (order < mm->max_order && page_list_empty(&cc->freepages[order]))
		order++;
	return order;
}

/*
 * The first block of @from's list, cut down to @order: each upper half
 * goes to the head of its order's list, where the next target of that
 * order is taken from (6.9's compaction_alloc). From 6.9 the source it
 * is for leaves cc->nr_migratepages, so that a refill in the middle of a
 * batch isolates only what the rest of the batch needs (ab755bf4249b).
 */
static struct cma_page *take_target(struct cma_mm *mm, struct compact_control *cc,
				    unsigned from, unsigned order)
{
	struct cma_page *page = page_list_first(mm, &cc->freepages[from]);

	page_list_del(mm, &cc->freepages[from], page);
	while (from > order) {
		from--;
		prep_isolated_page(mm, page + (1ul << from), from);
		page_list_add(mm, &cc->freepages[from], page + (1ul << from));
	}
	prep_isolated_page(mm, page, order);
	cc->nr_freepages -= 1ul << order;
	if (mm->kernel.compact_folios)
		cc->nr_migratepages -= 1ul << order;
	return page;
}

/*
 * compaction_alloc: migrate_pages' new_page_t. A target of the source's
 * order off cc->freepages, the free scanner refilling them once when
 * none is there; NULL when it finds none, which ends the run (-ENOMEM).
 * Before 6.9 only order-0 pages are isolated for compaction and the
 * targets are order-0 pages; a larger source (alloc_contig_range's are
 * not compaction's) gets no target rather than a wrong one.
 */
static struct cma_page *compaction_alloc(struct cma_mm *mm, struct cma_page *migratepage,
					 unsigned long data)
{
	struct compact_control *cc = (struct compact_control *)data;
	unsigned order = page_order(migratepage), from;

	if (order && !mm->kernel.compact_folios)
		return NULL;
	from = first_free_order(mm, cc, order);
	if (from == mm->max_order) {
		isolate_freepages(cc->zone, cc);
		from = first_free_order(mm, cc, order);
		if (from == mm->max_order)
			return NULL;
	}
	return take_target(mm, cc, from, order);
}

/*
 * compaction_free (6.9, kernel.compact_folios): a target migration did
 * not use goes back to cc->freepages for the next source, unless someone
 * else took a reference to it meanwhile; its source is counted in
 * cc->nr_migratepages again. Before 6.9 it goes back to the buddy
 * allocator (NULL in migrate_batch).
 */
static void compaction_free(struct cma_mm *mm, struct cma_page *newpage, unsigned long data)
{
	struct compact_control *cc = (struct compact_control *)data;
	unsigned order = page_order(newpage);

	if (page_count(newpage) == 1) {
		page_list_add(mm, &cc->freepages[order], newpage);
		cc->nr_freepages += 1ul << order;
	} else {
		put_page(mm, newpage);
	}
	cc->nr_migratepages += 1ul << order;
}

/* ---- the migrate scanner ---- */

/*
 * too_many_isolated: more pages off the LRU (for reclaim, compaction or
 * CMA) than half of those still on it; isolating more would leave too
 * little for reclaim to work with.
 */
static bool too_many_isolated(struct zone *zone)
{
	unsigned long inactive = zone_page_state(zone, NR_INACTIVE_FILE) +
				 zone_page_state(zone, NR_INACTIVE_ANON);
	unsigned long active = zone_page_state(zone, NR_ACTIVE_FILE) +
			       zone_page_state(zone, NR_ACTIVE_ANON);
	unsigned long isolated = zone_page_state(zone, NR_ISOLATED_FILE) +
				 zone_page_state(zone, NR_ISOLATED_ANON);
	bool too_many = isolated > (inactive + active) / 2;

	if (!too_many && zone->mm->kernel.reclaim_throttle)
		wake_throttle_isolated(zone->mm);
	return too_many;
}

/*
 * While too many pages are isolated, async gives up at once; sync waits
 * for them to be put back, but not forever: on a host clock in the
 * kernel's sleep (congestion_wait, from 5.16 reclaim_throttle), without
 * one yielding the CPU. Returns true to give up. Departure: 6.12 gives up
 * at once while it holds pages to migrate; they are migrated first here.
 */
static bool throttle_isolation(struct zone *zone, bool sync)
{
	for (int tries = 0; too_many_isolated(zone); tries++) {
		if (!sync || tries == ISOLATED_WAIT_TRIES)
			return true;
		if (mm_may_sleep(zone->mm))
			too_many_isolated_wait(zone->mm);
		else
			sched_yield();
	}
	return false;
}

/* page_mapping: a file page's, or a swap cache page's; an anonymous page has none */
static bool page_has_mapping(uint32_t flags)
{
	return !(flags & PG_swapbacked) || (flags & PG_swapcache);
}

/*
 * kernel.compact_skip_pinned (3.15): isolate_migratepages_block leaves
 * an anonymous page (no mapping: not in the swap cache) with references
 * beyond its mappings alone, as migration would only refuse it: the
 * owner's reference is the one mapping, any other a pin. A racy look, as
 * the kernel's.
 */
static bool anon_page_pinned(const struct cma_page *page, uint32_t flags)
{
	return !page_has_mapping(flags) && page_count(page) > 1;
}

/* kernel.compact_nofs (4.10): a run that may not enter the file system moves anonymous pages only */
static bool nofs_leaves(const struct cma_mm *mm, const struct compact_control *cc, uint32_t flags)
{
	return mm->kernel.compact_nofs && !(cc->gfp_mask & CMA_GFP_FS) && page_has_mapping(flags);
}

/*
 * Past the tails of the compound page (or free block) of @order at
 * *@low_pfn; 6.4 counts each as scanned.
 */
static void step_over_compound(const struct cma_mm *mm, unsigned order, unsigned long *low_pfn,
			       unsigned long *nr_stepped)
{
	*low_pfn += (1ul << order) - 1;
	if (mm->kernel.compact_scan_count_order)
		*nr_stepped += (1ul << order) - 1;
}

/*
 * Past the free block of @order at *@low_pfn, from 3.18
 * (kernel.compact_skip_buddy); before, a free block is passed one pfn at
 * a time. An order read without zone->lock that is out of range steps
 * one pfn, as the kernel's.
 */
static void step_over_free_block(const struct cma_mm *mm, unsigned order, unsigned long *low_pfn,
				 unsigned long *nr_stepped)
{
	if (mm->kernel.compact_skip_buddy && order && order < mm->max_order)
		step_over_compound(mm, order, low_pfn, nr_stepped);
}

/*
 * The isolate mode of @cc's scan: alloc_contig_range takes mlocked pages
 * from 3.7 (ISOLATE_UNEVICTABLE), compaction from 4.1 (the sysctl
 * compact_unevictable_allowed, at its default of 1).
 */
static isolate_mode_t migrate_isolate_mode(const struct cma_mm *mm,
					   const struct compact_control *cc)
{
	bool unevictable = cc->compacting ? mm->kernel.compact_unevictable :
					    mm->kernel.contig_unevictable;

	return unevictable ? ISOLATE_UNEVICTABLE : 0;
}

/*
 * skip_isolation_on_order: compaction for @target_order leaves a folio
 * of @order alone when a free block of the target order would not come
 * of moving it: one of the target order or more, or for a whole-zone
 * run (-1, compact_memory) one of a pageblock or more.
 */
static bool skip_isolation_on_order(const struct cma_mm *mm, unsigned order, int target_order)
{
	if (target_order >= 0)
		return order >= (unsigned)target_order;
	return order >= mm->pageblock_order;
}

/*
 * May the scan take the in-use compound page of @order it is at?
 * alloc_contig_range's from 5.7 (contig_large_folio); compaction's from
 * 6.9 (compact_folios) when skip_isolation_on_order lets it; before,
 * compaction moves order-0 pages only.
 */
static bool migrate_large_folio(const struct cma_mm *mm, const struct compact_control *cc,
				unsigned order)
{
	if (order >= mm->max_order)
		return false;
	if (cc->compacting)
		return mm->kernel.compact_folios && !skip_isolation_on_order(mm, order, cc->order);
	return mm->kernel.contig_large_folio;
}

/*
 * isolate_migratepages_block's PageHuge branch (5.13, contig_hugetlb):
 * compaction steps over a hugetlb page (-EBUSY here); alloc_contig_range
 * isolates an owned one, dissolves a free pool page, and gives up with
 * -ENOMEM on a gigantic one (isolate_or_dissolve_huge_page). The pages
 * of one not yet taken are stepped over.
 */
static int isolate_huge_page(struct cma_mm *mm, struct compact_control *cc,
			     struct cma_page *page)
{
	if (cc->compacting)
		return -EBUSY;
	return mm->isolate_or_dissolve_huge_page(mm, page, &cc->migratepages);
}

/*
 * Where alloc_contig_range's scan from @pfn starts: at the head of a
 * hugetlb page @pfn is a tail of (5.13, contig_hugetlb), as the kernel's
 * PageHuge of a tail page reads its folio; else at @pfn. The scan meets
 * a tail only at its first pfn, the rest of a page being stepped over.
 */
static unsigned long huge_page_scan_start(struct cma_mm *mm, const struct compact_control *cc,
					  unsigned long pfn)
{
	struct cma_page *head;

	if (cc->compacting || !mm->kernel.contig_hugetlb || !pfn_valid(mm, pfn) ||
	    page_test(pfn_to_page(mm, pfn), PG_head))
		return pfn;
	head = alloc_head_of(mm, pfn);
	return head && page_test(head, PG_hugetlb) ? page_to_pfn(mm, head) : pfn;
}

/*
 * -ENOMEM from isolate_huge_page: the batch goes back and the range
 * ends, as 6.12's isolate_fail path bails out without retrying.
 */
static void isolate_abort_nomem(struct cma_mm *mm, struct compact_control *cc,
				unsigned long *nr_isolated)
{
	putback_lru_pages(mm, &cc->migratepages);
	cc->nr_migratepages = 0;
	*nr_isolated = 0;
	cc->contig_err = -ENOMEM;
}

/*
 * A batch's scan in the trace and the counters. From 4.11
 * (kernel.compact_events_per_run) compaction's scanning counts per run
 * and alloc_contig_range's not at all (a counter of its own here).
 */
static void account_migrate_scan(struct cma_mm *mm, const struct compact_control *cc,
				 unsigned long nr_scanned, unsigned long nr_stepped,
				 unsigned long nr_isolated)
{
	trace_event(mm, CMA_TRACE_MM_COMPACTION_ISOLATE_MIGRATEPAGES, isolate,
		    .nr_scanned = nr_scanned, .nr_taken = nr_isolated);
	count_vm_events(mm, !mm->kernel.compact_events_per_run || cc->compacting ?
			COMPACTMIGRATE_SCANNED : CONTIGMIGRATE_SCANNED, nr_scanned);
	if (nr_stepped)
		count_vm_events(mm, COMPACT_SCAN_STEPPED, nr_stepped);
	if (nr_isolated)
		count_vm_events(mm, COMPACTISOLATED, nr_isolated);
}

/**
 * isolate_migratepages_range() - isolate one batch of migratable pages
 * from [low_pfn, end_pfn) onto cc->migratepages (the kernel's, seed 002).
 *
 * Walks pfn by pfn, taking LRU pages with __isolate_lru_page(): pages
 * still in a pagevec, free pages (from 3.18 a free block at once,
 * kernel.compact_skip_buddy), mlocked (unevictable) pages unless
 * migrate_isolate_mode() takes them, and higher-order pages (whose tails
 * it skips) unless migrate_large_folio() takes them, stay; from 5.13 a
 * hugetlb page is isolate_huge_page()'s to take, dissolve or step over,
 * and its -ENOMEM ends the scan with cc->contig_err set. In async mode
 * (!cc->sync) whole pageblocks suitable_migration_source() refuses are
 * skipped, and so are pages under writeback. Stops once
 * cc->nr_migratepages (in base pages, as 6.12 counts a folio's) reaches
 * COMPACT_CLUSTER_MAX, unless the block is to be finished
 * (cc->finish_pageblock). A compactor's first page to take marks its
 * block (first_take_leaves; cc->skip_updated says whether one came).
 *
 * Returns the pfn to continue from, or 0 when too many pages are already
 * isolated in @zone (async at once, sync after waiting a bounded time).
 * Reads and writes no other field of @cc.
 */
unsigned long isolate_migratepages_range(struct zone *zone, struct compact_control *cc,
					 unsigned long low_pfn, unsigned long end_pfn)
{
	struct cma_mm *mm = zone->mm;
	unsigned long nr_scanned = 0, nr_stepped = 0, nr_isolated = 0;
	isolate_mode_t mode = migrate_isolate_mode(mm, cc);
	bool valid_page = scan_starts_block(zone, low_pfn);

	cc->skip_updated = false;
	if (throttle_isolation(zone, cc->sync))
		return 0;
	low_pfn = huge_page_scan_start(mm, cc, low_pfn);
	for (; low_pfn < end_pfn; low_pfn++) {
		struct cma_page *page;
		uint32_t flags;
		unsigned order;

		if (!pfn_valid(mm, low_pfn))
			continue;
		nr_scanned++;
		page = pfn_to_page(mm, low_pfn);
		flags = page_flags(page);	/* one snapshot: the page may change under us */
		if (((flags & PG_ZONE_MASK) >> PG_ZONE_SHIFT) != (uint32_t)zone->idx)
			continue;
		order = (flags & PG_ORDER_MASK) >> PG_ORDER_SHIFT;
		if (flags & PG_buddy) {
			step_over_free_block(mm, order, &low_pfn, &nr_stepped);
			continue;
		}
		if (!suitable_migration_source(cc, get_pageblock_migratetype(mm, low_pfn))) {
			low_pfn = next_pageblock_pfn(mm, low_pfn) - 1;
			continue;
		}
		if ((flags & PG_hugetlb) && mm->kernel.contig_hugetlb) {
			int err = isolate_huge_page(mm, cc, page);

			if (err == -ENOMEM) {
				isolate_abort_nomem(mm, cc, &nr_isolated);
				low_pfn = end_pfn;
				break;
			}
			/* not taken, or dissolved: its pages are free ones now */
			if (err || !page_test(page, PG_hugetlb)) {
				if (order < mm->max_order)
					step_over_compound(mm, order, &low_pfn, &nr_stepped);
				continue;
			}
		} else {
			if ((flags & PG_head) && order && !migrate_large_folio(mm, cc, order)) {
				if (order < mm->max_order)
					step_over_compound(mm, order, &low_pfn, &nr_stepped);
				continue;
			}
			/* async does not wait for writeback, so a page under it would only fail */
			if (!(flags & PG_lru) || (!cc->sync && (flags & PG_writeback)) ||
			    (mm->kernel.compact_skip_pinned && anon_page_pinned(page, flags)) ||
			    nofs_leaves(mm, cc, flags))
				continue;
			/* the first page it would take: another compactor's block is left to it */
			if (!cc->skip_updated && first_take_leaves(zone, cc, valid_page, low_pfn)) {
				low_pfn = end_pfn;
				break;
			}
			if (__isolate_lru_page(mm, page, mode))
				continue;
			/* at the head, as the kernel's list_add: the batch migrates highest pfn first */
			page_list_add(mm, &cc->migratepages, page);
		}
		cc->nr_migratepages += 1ul << order;
		nr_isolated += 1ul << order;
		/* a large folio taken: its tails go with it */
		if (order)
			step_over_compound(mm, order, &low_pfn, &nr_stepped);
		/* a block to be finished is taken whole (kernel.compact_rescan) */
		if (cc->nr_migratepages >= COMPACT_CLUSTER_MAX && !cc->finish_pageblock) {
			low_pfn++;
			break;
		}
	}
	/* a free block stepped over may end past the range */
	if (low_pfn > end_pfn)
		low_pfn = end_pfn;
	account_migrate_scan(mm, cc, nr_scanned + nr_stepped, nr_stepped, nr_isolated);
	return low_pfn;
}

/* ---- 6.12's search of the free lists for a source (kernel.compact_fast_migrate) ---- */

/*
 * move_freelist_tail: rotate @list so that @page and the entries before
 * it go to the tail, where the next search from the head meets them
 * last. zone->lock held.
 */
static void move_freelist_tail(struct cma_mm *mm, struct page_list *list, struct cma_page *page)
{
	lockdep_assert_held(&page_zone(mm, page)->lock);
	if (page->next != PAGE_NIL)
		move_freelist_head(mm, list, mm->mem_map + page->next);
}

/*
 * Look at @order's MOVABLE free list from its head, up to *@nr_scanned
 * reaching @limit, for a free block below @high_pfn whose pageblock is not
 * marked skip; the list is rotated past it (or past the last entry looked
 * at when the limit ends the walk). Its pfn, or 0. zone->lock held.
 */
static unsigned long fast_find_source_order(struct zone *zone, int order, unsigned long high_pfn,
					    unsigned limit, unsigned *nr_scanned)
{
	struct cma_mm *mm = zone->mm;
	struct page_list *list = &zone->free_area[order].free_list[MIGRATE_MOVABLE];

	lockdep_assert_held(&zone->lock);
	for (struct cma_page *p = page_list_first(mm, list); p; p = page_list_next(mm, p)) {
		unsigned long pfn = page_to_pfn(mm, p);

		if ((*nr_scanned)++ >= limit) {
			move_freelist_tail(mm, list, p);
			return 0;
		}
		if (pfn >= high_pfn || get_pageblock_skip(mm, pfn))
			continue;
		move_freelist_tail(mm, list, p);
		return pfn;
	}
	return 0;
}

/*
 * fast_find_migrateblock: 6.12's search of the free lists for a pageblock
 * that already has free pages to migrate from (kernel.compact_fast_migrate),
 * at a pageblock's start of a run for more than a costly order (a direct
 * one only for a movable request), unless skip hints are ignored. A free
 * block of order PAGE_ALLOC_COSTLY_ORDER up to the request's, below the
 * first half (at the run's start) or eighth of the space between the
 * scanners, names the block; the lowest pfn found is remembered for the
 * next failure to restart from. The entries looked at count as migrate
 * pfns scanned. Returns the pfn to scan from.
 */
static unsigned long fast_find_migrateblock(struct zone *zone, struct compact_control *cc)
{
	struct cma_mm *mm = zone->mm;
	unsigned long pfn = cc->migrate_pfn, distance, high_pfn, found = 0;
	unsigned limit = freelist_scan_limit(cc), nr_scanned = 0;

	if (cc->ignore_skip_hint || cc->order <= PAGE_ALLOC_COSTLY_ORDER ||
	    (cc->finish_pageblock && mm->kernel.compact_rescan_failed) ||
	    (cc->direct && cc->migratetype != MIGRATE_MOVABLE) ||
	    (pfn != zone->zone_start_pfn && (pfn & (mm->pageblock_nr_pages - 1))))
		return pfn;
	distance = (cc->free_pfn - pfn) >> 1;
	if (pfn != zone->zone_start_pfn)
		distance >>= 2;
	high_pfn = (pfn + distance) & ~(mm->pageblock_nr_pages - 1);
	for (int order = cc->order - 1; order >= PAGE_ALLOC_COSTLY_ORDER && !found &&
	     nr_scanned < limit; order--) {
		if (!__atomic_load_n(&zone->free_area[order].nr_free, __ATOMIC_RELAXED))
			continue;
		spin_lock(&zone->lock);
		found = fast_find_source_order(zone, order, high_pfn, limit, &nr_scanned);
		spin_unlock(&zone->lock);
	}
	count_vm_events(mm, COMPACTMIGRATE_SCANNED, nr_scanned);
	if (found) {
		/* until 6.5 the search marks what it names, and the scan then passes over it */
		if (!mm->kernel.compact_fast_block_scanned)
			set_pageblock_skip(mm, found);
		if (cc->fast_start_pfn != ULONG_MAX)
			cc->fast_start_pfn = cc->fast_start_pfn ? min_ul(cc->fast_start_pfn, found) : found;
		cc->fast_search_fail = 0;
		return max_ul(found & ~(mm->pageblock_nr_pages - 1), zone->zone_start_pfn);
	}
	cc->fast_search_fail++;
	/* reinit_migrate_pfn: restart once from the lowest block a search found */
	if (cc->fast_start_pfn && cc->fast_start_pfn != ULONG_MAX) {
		cc->migrate_pfn = cc->fast_start_pfn;
		cc->fast_start_pfn = ULONG_MAX;
	}
	return cc->migrate_pfn;
}

/*
 * 3.14 (kernel.compact_pass_unsuitable): a pageblock that is no source for
 * the run is passed unmarked, without a scan (3.18's); from 5.1
 * (kernel.compact_fast_migrate's series) its end is the cached position.
 */
static bool passes_unsuitable_block(struct zone *zone, struct compact_control *cc,
				    unsigned long low_pfn, unsigned long end_pfn)
{
	struct cma_mm *mm = zone->mm;

	if (!mm->kernel.compact_pass_unsuitable ||
	    suitable_migration_source(cc, get_pageblock_migratetype(mm, low_pfn)))
		return false;
	if (mm->kernel.compact_fast_migrate)
		update_cached_migrate(cc, end_pfn);
	count_vm_event(mm, COMPACT_BLOCKS_PASSED);
	cc->migrate_pfn = end_pfn;
	return true;
}

/*
 * A scan of the migrate scanner's that reached its block's end, having
 * isolated @nr_isolated pages (isolate_migratepages_block's end): one
 * that took nothing marks the block skip, and the mode's next run
 * resumes past it. Before 5.1 (kernel.compact_rescan) any such scan
 * marks it, its first page being valid_page; from 5.1 one that began at
 * the block's start (@valid_page) and met no page to take, whose
 * test_and_set_skip would have marked it; one finishing the block
 * (cc->finish_pageblock) moves the cached position on though it took.
 */
static void migrate_block_scanned(struct zone *zone, struct compact_control *cc, bool valid_page,
				  unsigned long nr_isolated, unsigned long end_pfn)
{
	bool mark = zone->mm->kernel.compact_rescan ? valid_page && !cc->skip_updated : !nr_isolated;

	if (nr_isolated && !cc->finish_pageblock)
		return;
	if (mark)
		set_pageblock_skip(zone->mm, end_pfn - 1);
	update_cached_migrate(cc, end_pfn);
}

enum isolate_migrate {
	ISOLATE_ABORT,		/* too many isolated: end the run */
	ISOLATE_NONE,		/* nothing scanned (a hole, the free scanner): scan on */
	ISOLATE_SUCCESS,	/* a batch to migrate, perhaps empty */
};

/*
 * isolate_migratepages: the next batch from cc->migrate_pfn, within one
 * pageblock, never reaching the free scanner's pageblock.
 */
static enum isolate_migrate isolate_migratepages(struct zone *zone, struct compact_control *cc)
{
	struct cma_mm *mm = zone->mm;
	unsigned long low_pfn = max_ul(cc->migrate_pfn, zone->zone_start_pfn), end_pfn;
	unsigned long nr_before = cc->nr_migratepages;
	bool fast_found = false, valid_page;

	if (mm->kernel.compact_fast_migrate) {
		low_pfn = fast_find_migrateblock(zone, cc);
		/* a block the search named was checked for its skip bit there (and until 6.5 marked) */
		fast_found = mm->kernel.compact_fast_block_scanned && low_pfn != cc->migrate_pfn &&
			     !cc->fast_search_fail;
	}
	end_pfn = next_pageblock_pfn(mm, low_pfn);
	if (end_pfn > cc->free_pfn || !pfn_valid(mm, low_pfn)) {
		cc->migrate_pfn = end_pfn;
		return ISOLATE_NONE;
	}
	/* a block is checked once, at its start: later batches of it were let in */
	if ((!(low_pfn & (mm->pageblock_nr_pages - 1)) || low_pfn == zone->zone_start_pfn) &&
	    !fast_found && !isolation_suitable(cc, low_pfn)) {
		count_vm_event(mm, COMPACT_BLOCKS_PASSED);
		cc->migrate_pfn = end_pfn;
		return ISOLATE_NONE;
	}
	if (passes_unsuitable_block(zone, cc, low_pfn, end_pfn))
		return ISOLATE_NONE;
	valid_page = scan_starts_block(zone, low_pfn);
	low_pfn = isolate_migratepages_range(zone, cc, low_pfn, end_pfn);
	if (!low_pfn)
		return ISOLATE_ABORT;
	cc->migrate_pfn = low_pfn;
	if (low_pfn >= end_pfn)
		migrate_block_scanned(zone, cc, valid_page, cc->nr_migratepages - nr_before, end_pfn);
	/* v3.5: a scanned chunk is a batch even when it took nothing; it counts as a block */
	return ISOLATE_SUCCESS;
}

/* ---- the run ---- */

/*
 * Move the batch on cc->migratepages into pages of the free scanner. What
 * kept failing goes back to the LRU. Returns migrate_pages()' result:
 * the pages not migrated, or -ENOMEM when the free scanner ran dry.
 */
static int migrate_batch(struct zone *zone, struct compact_control *cc)
{
	struct cma_mm *mm = zone->mm;
	unsigned long nr_migrate = cc->nr_migratepages, nr_failed;
	int err;

	err = nr_migrate ? migrate_pages_free(mm, &cc->migratepages, compaction_alloc,
					      mm->kernel.compact_folios ? compaction_free : NULL,
					      (unsigned long)cc,
					      cc->sync ? MIGRATE_SYNC_LIGHT : MIGRATE_ASYNC) : 0;
	/* update_nr_listpages: migration took pages from both lists */
	cc->nr_migratepages = page_list_nr_pages(mm, &cc->migratepages);
	cc->nr_freepages = freepages_count(mm, cc->freepages);
	/*
	 * compact_zone's events (v3.5): one block per batch, moved = the pages
	 * that left the list (a page that failed for good left it too, put
	 * back), failed = those still on it (retries used up, or no target).
	 */
	count_vm_event(mm, COMPACTBLOCKS);
	count_vm_events(mm, COMPACTPAGES, nr_migrate - cc->nr_migratepages);
	if (cc->nr_migratepages)
		count_vm_events(mm, COMPACTPAGEFAILED, cc->nr_migratepages);
	nr_failed = err >= 0 ? (unsigned long)err : cc->nr_migratepages;
	trace_event(mm, CMA_TRACE_MM_COMPACTION_MIGRATEPAGES, compaction,
		    .nr_migrated = nr_migrate - min_ul(nr_failed, nr_migrate), .nr_failed = nr_failed);
	putback_lru_pages(mm, &cc->migratepages);
	cc->nr_migratepages = 0;
	return err;
}

/*
 * compaction_suitable: is compaction for @order worth it? The order-0
 * watermark must hold with 2^(order+1) to spare (targets and sources
 * coexist during migration); a fragmentation index up to the threshold
 * means the memory is missing, not fragmented; -1000 with the watermark
 * met at @order means the allocation can already succeed. From 4.9
 * (kernel.compact_suitable_min) a non-costly order needs only the min
 * mark and ignores the index: its alternative is the OOM killer.
 */
int compaction_suitable(struct zone *zone, int order)
{
	/* the low mark and the index: every order before 4.9, costly ones from it */
	bool cautious = order > PAGE_ALLOC_COSTLY_ORDER || !zone->mm->kernel.compact_suitable_min;
	unsigned long mark;
	int fragindex;

	if (order < 0)
		return COMPACT_CONTINUE;
	mark = __atomic_load_n(&zone->watermark[cautious ? WMARK_LOW : WMARK_MIN], __ATOMIC_RELAXED) +
	       (2ul << order);
	/* ALLOC_CMA: free CMA pages are migration targets (6.12's __compaction_suitable) */
	if (!zone_watermark_ok(zone, 0, mark, 0, ALLOC_CMA))
		return COMPACT_SKIPPED;
	fragindex = fragmentation_index(zone, (unsigned)order);
	if (cautious && fragindex >= 0 && fragindex <= EXTFRAG_THRESHOLD)
		return COMPACT_SKIPPED;
	if (fragindex == -1000 && zone_watermark_ok(zone, (unsigned)order, mark, 0, ALLOC_CMA))
		return COMPACT_PARTIAL;
	return COMPACT_CONTINUE;
}

/*
 * A free block at @o that an allocation of @cc's type would take without
 * spoiling a pageblock. v3.5: one on its own list, or any of a pageblock
 * or more (the allocation would claim it). 4.1 (kernel.compact_finish_fallback):
 * its own list, CMA's for a movable request, or a fallback whose block
 * the allocation could claim whole; a CMA block no longer ends an
 * unmovable request's run. zone->lock held.
 */
static bool compact_block_ready(struct zone *zone, struct compact_control *cc, unsigned o)
{
	struct free_area *area = &zone->free_area[o];
	bool can_steal = false;

	lockdep_assert_held(&zone->lock);
	if (!page_list_empty(&area->free_list[cc->migratetype]))
		return true;
	if (!zone->mm->kernel.compact_finish_fallback)
		return o >= zone->mm->pageblock_order && area->nr_free;
	if (cc->migratetype == MIGRATE_MOVABLE && !page_list_empty(&area->free_list[MIGRATE_CMA]))
		return true;
	return cc->migratetype < MIGRATE_PCPTYPES &&
	       find_suitable_fallback(zone, o, cc->migratetype, &can_steal) != -1 && can_steal;
}

/*
 * The scanners met: the run is COMPLETE. From 3.16
 * (kernel.compact_cached_pfn) the next run starts anew; from 3.7
 * (kernel.compact_skip_hint) a direct one lets the skip bits be flushed.
 */
static int compact_zone_complete(struct zone *zone, struct compact_control *cc)
{
	struct cma_mm *mm = zone->mm;

	if (mm->kernel.compact_cached_pfn)
		reset_cached_positions(zone);
	if (mm->kernel.compact_skip_hint && cc->direct)
		__atomic_store_n(&zone->compact_blockskip_flush, true, __ATOMIC_RELAXED);
	return COMPACT_COMPLETE;
}

/*
 * __compact_finished() of kcompactd's proactive run (5.9) whose scanners
 * have not met: it yields to a running kswapd, and ends once @zone's own
 * score is at the run's low mark.
 */
static int proactive_compact_finished(struct zone *zone, const struct compact_control *cc)
{
	if (kswapd_is_running(zone->mm))
		return COMPACT_PARTIAL;
	return fragmentation_score_zone(zone) > cc->proactive_wmark ? COMPACT_CONTINUE : COMPACT_PARTIAL;
}

/*
 * compact_finished: COMPLETE when the scanners met; a whole-zone run
 * (order -1) goes on until then, a proactive one until its zone's score
 * is low enough (proactive_compact_finished). A direct compactor is done (PARTIAL)
 * once the watermark holds at its order and a block of that order or
 * more is ready for it (compact_block_ready). From 5.1
 * (kernel.compact_finish_pageblock) it first finishes the pageblock the
 * migrate scanner is in, so that a later fallback finds it emptier.
 */
static int compact_finished(struct zone *zone, struct compact_control *cc)
{
	struct cma_mm *mm = zone->mm;
	unsigned long mark;
	int ret = COMPACT_CONTINUE;

	if (cc->free_pfn <= cc->migrate_pfn)
		return compact_zone_complete(zone, cc);
	if (cc->proactive_wmark)
		return proactive_compact_finished(zone, cc);
	if (cc->order < 0)
		return COMPACT_CONTINUE;
	if (mm->kernel.compact_finish_pageblock && (cc->migrate_pfn & (mm->pageblock_nr_pages - 1)))
		return COMPACT_CONTINUE;
	mark = __atomic_load_n(&zone->watermark[WMARK_LOW], __ATOMIC_RELAXED) + (1ul << cc->order);
	if (!zone_watermark_ok(zone, (unsigned)cc->order, mark, 0, alloc_flags_cma(cc->migratetype)))
		return COMPACT_CONTINUE;
	spin_lock(&zone->lock);
	for (unsigned o = (unsigned)cc->order; o < mm->max_order; o++) {
		if (compact_block_ready(zone, cc, o)) {
			ret = COMPACT_PARTIAL;
			break;
		}
	}
	spin_unlock(&zone->lock);
	return ret;
}

/*
 * 3.19 (kernel.compact_drain_pcp): once the migrate scanner has left the
 * @cc->order-aligned block it last migrated from, this CPU's pagevec and
 * per-CPU lists go back (6.12's lru_add_drain_cpu_zone), so that the
 * freed sources merge and compact_finished sees their block at once.
 */
static void compact_drain_freed(struct zone *zone, struct compact_control *cc,
				unsigned long *last_migrated_pfn)
{
	if (cc->order <= 0 || !*last_migrated_pfn ||
	    *last_migrated_pfn >= (cc->migrate_pfn & ~((1ul << cc->order) - 1)))
		return;
	lru_add_drain(zone->mm);
	drain_local_pages(zone->mm);
	*last_migrated_pfn = 0;
}

/*
 * 6.12's compact_zone: a run for an order resumes where the zone's last
 * run of its mode left the scanners, each brought back inside the zone.
 */
static void load_cached_positions(struct zone *zone, struct compact_control *cc)
{
	unsigned long start = zone->zone_start_pfn, end = zone_end_pfn(zone);

	cc->migrate_pfn = __atomic_load_n(&zone->compact_cached_migrate_pfn[cc->sync],
					  __ATOMIC_RELAXED);
	cc->free_pfn = __atomic_load_n(&zone->compact_cached_free_pfn, __ATOMIC_RELAXED);
	if (cc->free_pfn < start || cc->free_pfn >= end) {
		cc->free_pfn = (end - 1) & ~(zone->mm->pageblock_nr_pages - 1);
		__atomic_store_n(&zone->compact_cached_free_pfn, cc->free_pfn, __ATOMIC_RELAXED);
	}
	if (cc->migrate_pfn < start || cc->migrate_pfn >= end) {
		cc->migrate_pfn = start;
		__atomic_store_n(&zone->compact_cached_migrate_pfn[0], start, __ATOMIC_RELAXED);
		__atomic_store_n(&zone->compact_cached_migrate_pfn[1], start, __ATOMIC_RELAXED);
	}
}

/*
 * The end of 6.12's compact_zone: the free pages given back lie above
 * the free scanner; it moves back up to the block of the highest one, so
 * that the next run finds them (only up: a meeting already reset it).
 */
static void keep_released_in_reach(struct zone *zone, struct compact_control *cc)
{
	struct cma_mm *mm = zone->mm;
	unsigned long high = 0;

	for (unsigned o = 0; o < mm->max_order; o++)
		for (struct cma_page *page = page_list_first(mm, &cc->freepages[o]); page;
		     page = page_list_next(mm, page))
			high = max_ul(high, page_to_pfn(mm, page));
	high &= ~(mm->pageblock_nr_pages - 1);
	if (high > __atomic_load_n(&zone->compact_cached_free_pfn, __ATOMIC_RELAXED))
		__atomic_store_n(&zone->compact_cached_free_pfn, high, __ATOMIC_RELAXED);
}

/*
 * The pageblock the migrate scanner last isolated from, as the run's
 * finish test and its drain (3.19) know it: from 5.1 to 6.4
 * (kernel.compact_rescan) where the iteration that isolated began
 * (@iteration_start_pfn), else the block its scan stopped in (6.5's;
 * 3.19 to 5.0 kept the first iteration's start until a drain, a
 * departure).
 */
static unsigned long last_migrated_at(const struct zone *zone, const struct compact_control *cc,
				      unsigned long iteration_start_pfn)
{
	const struct cma_mm *mm = zone->mm;

	if (mm->kernel.compact_rescan && !mm->kernel.compact_fast_block_scanned)
		return iteration_start_pfn;
	return max_ul(zone->zone_start_pfn, (cc->migrate_pfn - 1) & ~(mm->pageblock_nr_pages - 1));
}

/*
 * cc->finish_pageblock at an iteration's start (kernel.compact_rescan):
 * it starts in the pageblock last isolated from; 0, where the run's
 * record starts and a drain leaves it, stands for pageblock 0 as in the
 * kernel.
 */
static bool rescan_due(const struct zone *zone, unsigned long last_migrated_pfn,
		       unsigned long iteration_start_pfn)
{
	unsigned long mask = ~(zone->mm->pageblock_nr_pages - 1);

	return zone->mm->kernel.compact_rescan &&
	       (last_migrated_pfn & mask) == (iteration_start_pfn & mask);
}

/*
 * 6.3 (kernel.compact_rescan_failed): a batch that failed to migrate
 * with the scanner inside a pageblock has the block's rest scanned at
 * once, unless it is being finished already or the run is a
 * MIGRATE_SYNC one (compact_memory's, order -1 and not proactive); from
 * 6.5 (kernel.compact_fast_block_scanned) not in a run that ignores skip
 * hints either.
 */
static bool finish_after_failure(const struct zone *zone, const struct compact_control *cc)
{
	const struct cma_mm *mm = zone->mm;

	if (!mm->kernel.compact_rescan_failed || cc->finish_pageblock ||
	    !(cc->migrate_pfn & (mm->pageblock_nr_pages - 1)))
		return false;
	if (cc->order < 0 && !cc->proactive_wmark)
		return false;
	return !cc->ignore_skip_hint || !mm->kernel.compact_fast_block_scanned;
}

/*
 * One iteration of the run's scan: a batch isolated and migrated, and a
 * failed one's block finished at once (finish_after_failure), the
 * kernel's "goto rescan"; *@last_migrated_pfn follows each batch taken
 * (from 5.1 a batch of pages; before, an empty one too). The result of
 * the last isolation, or ISOLATE_ABORT when a batch found no targets.
 */
static enum isolate_migrate compact_iteration(struct zone *zone, struct compact_control *cc,
					      unsigned long iteration_start_pfn,
					      unsigned long *last_migrated_pfn)
{
	struct cma_mm *mm = zone->mm;

	for (;;) {
		enum isolate_migrate isolated = isolate_migratepages(zone, cc);
		int err;

		if (isolated != ISOLATE_SUCCESS)
			return isolated;
		if (cc->nr_migratepages || !mm->kernel.compact_rescan)
			*last_migrated_pfn = last_migrated_at(zone, cc, iteration_start_pfn);
		err = migrate_batch(zone, cc);
		if (err == -ENOMEM)
			return ISOLATE_ABORT;
		if (!err || !finish_after_failure(zone, cc))
			return ISOLATE_SUCCESS;
		cc->finish_pageblock = true;
		/* a huge page's block keeps a page that failed: draining would not free it */
		if (cc->order == (int)mm->pageblock_order)
			*last_migrated_pfn = 0;
	}
}

/*
 * The run's scan: the migrate scanner isolates a batch, the free scanner
 * (through migrate_batch's targets) takes free pages for it, until
 * compact_finished says the run is done or a batch fails with -ENOMEM
 * (@stopped: the era's result for a run cut short). 3.19
 * (kernel.compact_drain_pcp) gives back this CPU's freed pages as the
 * migrate scanner leaves a block. A kernel iteration passes over blocks
 * until one is scanned; the library's passes one block a call, so an
 * iteration's start is where the first of those began.
 */
static int compact_zone_scan(struct zone *zone, struct compact_control *cc, int stopped)
{
	struct cma_mm *mm = zone->mm;
	unsigned long last_migrated_pfn = 0, iteration_start_pfn = 0;
	enum isolate_migrate isolated = ISOLATE_SUCCESS;
	int ret;

	/* migrate_prep_local: pages in this CPU's pagevec could not be isolated */
	lru_add_drain(mm);
	while ((ret = compact_finished(zone, cc)) == COMPACT_CONTINUE) {
		if (isolated == ISOLATE_SUCCESS) {
			iteration_start_pfn = cc->migrate_pfn;
			cc->finish_pageblock = rescan_due(zone, last_migrated_pfn, iteration_start_pfn);
		}
		isolated = compact_iteration(zone, cc, iteration_start_pfn, &last_migrated_pfn);
		if (isolated == ISOLATE_ABORT)
			return stopped;
		if (mm->kernel.compact_drain_pcp)
			compact_drain_freed(zone, cc, &last_migrated_pfn);
	}
	return ret;
}

/* The scanners at the zone's two ends: the migrate one at its start, the free one in its last pageblock. */
static void start_at_zone_ends(struct zone *zone, struct compact_control *cc)
{
	cc->migrate_pfn = zone->zone_start_pfn;
	cc->free_pfn = zone_end_pfn(zone) & ~(zone->mm->pageblock_nr_pages - 1);
}

/*
 * compact_zone_v35: every run starts at the zone's two ends; one cut
 * short is PARTIAL. From 3.7 (kernel.compact_skip_hint) a run that
 * restarts after a deferral first clears the zone's skip bits.
 */
static int compact_zone_v35(struct zone *zone, struct compact_control *cc)
{
	if (zone->mm->kernel.compact_skip_hint && compaction_restarting(zone, cc->order))
		__reset_isolation_suitable(zone);
	start_at_zone_ends(zone, cc);
	return compact_zone_scan(zone, cc, COMPACT_PARTIAL);
}

/*
 * compact_zone_v316 (kernel.compact_cached_pfn, 3.16): a run for an order
 * resumes where the zone's last run of its mode left the scanners, and
 * leaves the free scanner where its unused free pages lie. From 4.13
 * (kernel.compact_priority) a run cut short is CONTENDED: no block
 * freed, no deferral.
 */
static int compact_zone_v316(struct zone *zone, struct compact_control *cc)
{
	int ret;

	if (compaction_restarting(zone, cc->order))
		__reset_isolation_suitable(zone);
	if (cc->order >= 0 && !cc->whole_zone)
		load_cached_positions(zone, cc);
	else
		start_at_zone_ends(zone, cc);
	ret = compact_zone_scan(zone, cc, zone->mm->kernel.compact_priority ? COMPACT_CONTENDED :
									       COMPACT_PARTIAL);
	keep_released_in_reach(zone, cc);
	return ret;
}

/**
 * compact_zone() - one compaction run over @zone (the kernel's compact_zone).
 *
 * cc->order (-1: the whole zone), cc->sync, cc->migratetype and empty
 * lists are the caller's; where the scanners start is the era's
 * (compact_zone_v35, compact_zone_v316). Sync runs migrate in
 * MIGRATE_SYNC_LIGHT, async ones in MIGRATE_ASYNC. Returns a
 * compact_result: SKIPPED or PARTIAL straight from the suitability
 * check, PARTIAL when a direct compactor's block is free or (v3.5) the
 * run had to stop early (4.13: CONTENDED), COMPLETE when the scanners
 * met. Leaves both lists empty. Takes and drops the zone's locks itself.
 */
int compact_zone(struct zone *zone, struct compact_control *cc)
{
	struct cma_mm *mm = zone->mm;
	int ret = compaction_suitable(zone, cc->order);

	if (ret != COMPACT_CONTINUE)
		return ret;
	cc->zone = zone;
	cc->compacting = true;
	cc->search_order = cc->order;
	cc->fast_start_pfn = 0;
	if (mm->kernel.compact_cached_pfn)
		ret = compact_zone_v316(zone, cc);
	else
		ret = compact_zone_v35(zone, cc);
	cc->nr_freepages -= release_freepages(mm, cc->freepages);
	VM_BUG_ON(cc->nr_freepages != 0);
	VM_BUG_ON(!page_list_empty(&cc->migratepages));
	VM_VERIFY_ZONES(mm, "compact_zone");
	return ret;
}

/*
 * compact_pgdat() - kswapd's compaction (v3.5): an async run for @order
 * over each zone whose compaction is not deferred (v3.5's cc leaves the
 * migratetype 0). A zone left with the order free above its low mark no
 * longer counts failures at or below it; async runs never defer.
 */
void compact_pgdat(struct cma_mm *mm, unsigned order)
{
	struct zone *zone;

	for_each_populated_zone(mm, zone) {
		struct compact_control cc = { .order = (int)order, .zone = zone, .gfp_mask = CMA_GFP_KERNEL };

		compact_control_init_lists(&cc);
		if (!compaction_deferred(zone, (int)order))
			compact_zone(zone, &cc);
		if (zone_watermark_ok(zone, order, low_wmark_pages(zone), 0, 0) &&
		    (int)order > __atomic_load_n(&zone->compact_order_failed, __ATOMIC_RELAXED))
			__atomic_store_n(&zone->compact_order_failed, (int)order + 1, __ATOMIC_RELAXED);
	}
}

struct frag_counts {
	unsigned long free_pages, blocks_total, blocks_suitable;
};

/* Add @zone's free blocks to @c, for a request of 2^@order. Reads without zone->lock. */
static void frag_count_zone(struct zone *zone, unsigned order, struct frag_counts *c)
{
	for (unsigned o = 0; o < zone->mm->max_order; o++) {
		unsigned long blocks = __atomic_load_n(&zone->free_area[o].nr_free, __ATOMIC_RELAXED);

		c->blocks_total += blocks;
		c->free_pages += blocks << o;
		if (o >= order)
			c->blocks_suitable += blocks << (o - order);
	}
}

/*
 * The kernel's __fragmentation_index(): -1000 if a large enough block is
 * free; otherwise towards 0 for lack of memory, towards 1000 for
 * fragmentation: 1000 - (1000 + 1000 * free_pages / 2^order) / free_blocks.
 * 0 when nothing is free.
 */
static int frag_index(const struct frag_counts *c, unsigned order)
{
	if (!c->blocks_total)
		return 0;
	if (c->blocks_suitable)
		return -1000;
	return 1000 - (int)((1000 + c->free_pages * 1000ull / (1ul << order)) / c->blocks_total);
}

/*
 * extfrag_for_order() at the huge page order (COMPACTION_HPAGE_ORDER,
 * which is the pageblock order of every configuration modelled): the
 * percentage of @zone's free pages not in a free block of that order.
 */
unsigned fragmentation_score_zone(struct zone *zone)
{
	unsigned order = zone->mm->pageblock_order;
	struct frag_counts c = { 0 };

	frag_count_zone(zone, order, &c);
	if (!c.free_pages)
		return 0;
	return (unsigned)((c.free_pages - (c.blocks_suitable << order)) * 100 / c.free_pages);
}

/* fragmentation_index() - why would an allocation of 2^@order fail in @zone? */
int fragmentation_index(struct zone *zone, unsigned order)
{
	struct frag_counts c = { 0 };

	frag_count_zone(zone, order, &c);
	return frag_index(&c, order);
}

int cma_fragmentation_index(struct cma_mm *mm, unsigned order, int *index)
{
	struct frag_counts c = { 0 };
	struct zone *zone;

	if (!mm || !index || mm->phase != MM_BOOTED || order >= mm->max_order)
		return -EINVAL;
	for_each_populated_zone(mm, zone)
		frag_count_zone(zone, order, &c);
	*index = frag_index(&c, order);
	return 0;
}

/* ---- deferred compaction (include/linux/compaction.h of v3.5) ---- */

/*
 * defer_compaction: a sync compaction for @order failed to give the
 * allocation its page: skip the next 1 << compact_defer_shift
 * considerations at this order or above, the shift growing with each
 * failure in a row.
 */
void defer_compaction(struct zone *zone, int order)
{
	unsigned shift = __atomic_load_n(&zone->compact_defer_shift, __ATOMIC_RELAXED) + 1;

	__atomic_store_n(&zone->compact_considered, 0, __ATOMIC_RELAXED);
	if (shift > COMPACT_MAX_DEFER_SHIFT)
		shift = COMPACT_MAX_DEFER_SHIFT;
	__atomic_store_n(&zone->compact_defer_shift, shift, __ATOMIC_RELAXED);
	if (order < __atomic_load_n(&zone->compact_order_failed, __ATOMIC_RELAXED))
		__atomic_store_n(&zone->compact_order_failed, order, __ATOMIC_RELAXED);
}

/* compaction_deferred: true to skip compaction for @order this time; counts the consideration. */
bool compaction_deferred(struct zone *zone, int order)
{
	unsigned long limit = 1ul << __atomic_load_n(&zone->compact_defer_shift, __ATOMIC_RELAXED);
	unsigned long considered;

	if (order < __atomic_load_n(&zone->compact_order_failed, __ATOMIC_RELAXED))
		return false;
	considered = __atomic_load_n(&zone->compact_considered, __ATOMIC_RELAXED) + 1ul;
	if (considered > limit)
		considered = limit;	/* no overflow however long it is deferred */
	__atomic_store_n(&zone->compact_considered, (unsigned)considered, __ATOMIC_RELAXED);
	return considered < limit;
}

/*
 * compaction_defer_reset: compaction gave an allocation of @order its
 * page: no more deferral and, when the allocation did succeed
 * (@alloc_success), failures below @order + 1 no longer count (v3.5 does
 * this inline in __alloc_pages_direct_compact; 3.12 named it; 6.12's
 * try_to_compact_pages resets without @alloc_success when a zone's run
 * says the allocation should now succeed).
 */
void compaction_defer_reset(struct zone *zone, int order, bool alloc_success)
{
	__atomic_store_n(&zone->compact_considered, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&zone->compact_defer_shift, 0, __ATOMIC_RELAXED);
	if (alloc_success && order >= __atomic_load_n(&zone->compact_order_failed, __ATOMIC_RELAXED))
		__atomic_store_n(&zone->compact_order_failed, order + 1, __ATOMIC_RELAXED);
}

static int compact_zone_order(struct zone *zone, unsigned order, int migratetype,
			      enum compact_priority prio, cma_gfp_t gfp)
{
	struct compact_control cc = {
		.order = (int)order,
		.migratetype = migratetype,
		.sync = prio != COMPACT_PRIO_ASYNC,
		.zone = zone,
		.gfp_mask = gfp,
		.whole_zone = prio == MIN_COMPACT_PRIORITY,
		.ignore_skip_hint = prio == MIN_COMPACT_PRIORITY,
		.ignore_block_suitable = prio == MIN_COMPACT_PRIORITY,
	};

	cc.direct = true;
	compact_control_init_lists(&cc);
	return compact_zone(zone, &cc);
}

/*
 * 6.12's try_to_compact_pages for one zone (kernel.compact_priority):
 * a deferred zone is passed by (COMPACT_DEFERRED) but at the last
 * priority; a run whose block is free ends the deferral; a sync run
 * whose scanners met defers it. Returns the run's result, or DEFERRED.
 */
static int compact_zone_prio(struct zone *zone, unsigned order, int migratetype,
			     enum compact_priority prio, cma_gfp_t gfp)
{
	int status;

	if (prio > MIN_COMPACT_PRIORITY && compaction_deferred(zone, (int)order))
		return COMPACT_DEFERRED;
	status = compact_zone_order(zone, order, migratetype, prio, gfp);
	if (status == COMPACT_PARTIAL)
		compaction_defer_reset(zone, (int)order, false);
	else if (prio != COMPACT_PRIO_ASYNC && status == COMPACT_COMPLETE)
		defer_compaction(zone, (int)order);
	return status;
}

/**
 * try_to_compact_pages() - direct compaction for an allocation of 2^@order
 * (the kernel's try_to_compact_pages).
 *
 * Only for order > 0 and requests that may do I/O and enter the file
 * system (kernel.compact_nofs: that may do I/O; one that may not enter
 * the file system moves anonymous pages only); in v3.5 those count one compact_stall here (kernel.compact_priority:
 * the caller counts it, when the result is not SKIPPED). Compacts each
 * populated zone from @high_zoneidx down, stopping at the first where the
 * allocation would now pass the low watermark. Returns the best
 * compact_result seen (COMPACT_SKIPPED if none ran). The caller retries
 * the allocation and counts compact_success or compact_fail.
 */
unsigned long try_to_compact_pages(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
				   enum compact_priority prio, enum zone_type high_zoneidx,
				   int migratetype)
{
	int rc = COMPACT_SKIPPED;

	if (!order || !(gfp & CMA_GFP_IO) || (!(gfp & CMA_GFP_FS) && !mm->kernel.compact_nofs))
		return rc;
	VM_BUG_ON(order >= mm->max_order);
	if (!mm->kernel.compact_priority)
		count_vm_event(mm, COMPACTSTALL);
	for (int i = (int)high_zoneidx; i >= 0; i--) {
		struct zone *zone = &mm->zones[i];
		int status;

		if (!zone->present_pages)
			continue;
		if (mm->kernel.compact_priority)
			status = compact_zone_prio(zone, order, migratetype, prio, gfp);
		else
			status = compact_zone_order(zone, order, migratetype, prio, gfp);
		if (status > rc)
			rc = status;
		if (status == COMPACT_DEFERRED)
			continue;
		if (zone_watermark_ok(zone, order,
				      __atomic_load_n(&zone->watermark[WMARK_LOW], __ATOMIC_RELAXED),
				      0, alloc_flags_cma(migratetype)))
			break;
	}
	return (unsigned long)rc;
}

/**
 * cma_compact_memory() - write to /proc/sys/vm/compact_memory: every
 * pagevec drained, then a synchronous whole-zone run over each populated
 * zone (the kernel's compact_nodes). 0, or -EINVAL before boot.
 */
int cma_compact_memory(struct cma_mm *mm)
{
	int ret = mm_require_phase(mm, MM_BOOTED, "cma_compact_memory");
	struct zone *zone;

	if (ret)
		return ret;
	lru_add_drain_all(mm);
	for_each_populated_zone(mm, zone) {
		struct compact_control cc = {
			.order = -1,
			.migratetype = MIGRATE_MOVABLE,
			.sync = true,
			.zone = zone,
			.ignore_skip_hint = true,	/* 6.12's compact_node */
			.gfp_mask = CMA_GFP_KERNEL,
		};

		compact_control_init_lists(&cc);
		compact_zone(zone, &cc);
	}
	return 0;
}
