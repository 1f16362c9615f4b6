/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interfaces between the files of src/mm, grouped by the file that defines
 * them (the kernel's mm/internal.h). Nothing here is public; tests may use it.
 * The ground's (mmzone.c: pfn <-> page, the CPU slots, events, printk,
 * VM_BUG_ON) are in mmzone.h, which mmzone.c includes alone, so that it
 * depends on no file above it.
 */
#ifndef CMA_MM_INTERNAL_H
#define CMA_MM_INTERNAL_H

#include <errno.h>
#include <stdio.h>

#include "mm/mmzone.h"

/* ---- console.c: the log's serial console ---- */

/* console=, loglevel=, quiet, debug and printk.time= of mm->cmdline; -EINVAL if malformed. */
int console_setup(struct cma_mm *mm);

/* ---- pageblock.c ---- */

static inline unsigned long pageblock_index(const struct cma_mm *mm, unsigned long pfn)
{
	return (pfn - mm->base_pfn) >> mm->pageblock_order;
}

/* zone->block_heads' index of the pageblock of @pfn. */
static inline unsigned long zone_block_index(const struct zone *zone, unsigned long pfn)
{
	return (pfn >> zone->mm->pageblock_order) - (zone->zone_start_pfn >> zone->mm->pageblock_order);
}

/* Seed 005: async compaction and the free scanner work in MOVABLE and CMA pageblocks only. */
static inline bool migrate_async_suitable(int migratetype)
{
	return is_migrate_cma(migratetype) || migratetype == MIGRATE_MOVABLE;
}

/* Written under zone->lock; the free path reads it without (inline: every free asks). */
static inline int get_pageblock_migratetype(struct cma_mm *mm, unsigned long pfn)
{
	return __atomic_load_n(&mm->pageblock_flags[pageblock_index(mm, pfn)], __ATOMIC_RELAXED);
}

void set_pageblock_migratetype(struct cma_mm *mm, unsigned long pfn, int mt);
bool pageblock_known_clean(const struct cma_mm *mm, unsigned long pfn);
void set_pageblock_known_clean(struct cma_mm *mm, unsigned long pfn);

/* ---- memblock.c ---- */

int memblock_init(struct memblock *mb, const struct cma_bank *banks, unsigned nr);
void memblock_free_all(struct memblock *mb);
int memblock_add_region(struct memblock_type *type, cma_phys_t base, uint64_t size);
int memblock_remove_region(struct memblock_type *type, cma_phys_t base, uint64_t size);
cma_phys_t memblock_alloc_base(struct cma_mm *mm, uint64_t size, uint64_t align, cma_phys_t limit);
cma_phys_t memblock_alloc_range(struct cma_mm *mm, uint64_t size, uint64_t align,
				cma_phys_t start, cma_phys_t end, bool bottom_up);
cma_phys_t memblock_find_in_range(struct memblock *mb, uint64_t size, uint64_t align,
				  cma_phys_t start, cma_phys_t limit, bool bottom_up);
bool memblock_is_region_reserved(struct memblock *mb, cma_phys_t base, uint64_t size);
bool memblock_is_memory(struct memblock *mb, cma_phys_t addr);
cma_phys_t memblock_phys_mem_size(struct memblock *mb);
cma_phys_t memblock_end_of_DRAM(struct memblock *mb);
/* Calls fn for each maximal [start, end) byte range of memory not reserved. */
void memblock_for_each_free_range(struct memblock *mb,
				  void (*fn)(void *ctx, cma_phys_t start, cma_phys_t end), void *ctx);

/* ---- page_alloc.c: the buddy allocator ---- */

/* page lists, linked by mem_map index (on the allocator's fast path: inline) */
static inline void page_list_add(struct cma_mm *mm, struct page_list *l, struct cma_page *page)
{
	uint32_t idx = page_idx(mm, page);

	page->prev = PAGE_NIL;
	page->next = l->head;
	if (l->head != PAGE_NIL)
		mm->mem_map[l->head].prev = idx;
	else
		l->tail = idx;
	l->head = idx;
}

static inline void page_list_add_tail(struct cma_mm *mm, struct page_list *l, struct cma_page *page)
{
	uint32_t idx = page_idx(mm, page);

	page->next = PAGE_NIL;
	page->prev = l->tail;
	if (l->tail != PAGE_NIL)
		mm->mem_map[l->tail].next = idx;
	else
		l->head = idx;
	l->tail = idx;
}

static inline void page_list_del(struct cma_mm *mm, struct page_list *l, struct cma_page *page)
{
	if (page->prev != PAGE_NIL)
		mm->mem_map[page->prev].next = page->next;
	else
		l->head = page->next;
	if (page->next != PAGE_NIL)
		mm->mem_map[page->next].prev = page->prev;
	else
		l->tail = page->prev;
	page->next = page->prev = PAGE_NIL;
}

static inline void page_list_init(struct page_list *l)
{
	l->head = l->tail = PAGE_NIL;
}
static inline bool page_list_empty(const struct page_list *l)
{
	return l->head == PAGE_NIL;
}
static inline struct cma_page *page_list_first(struct cma_mm *mm, const struct page_list *l)
{
	return l->head == PAGE_NIL ? NULL : mm->mem_map + l->head;
}
static inline struct cma_page *page_list_last(struct cma_mm *mm, const struct page_list *l)
{
	return l->tail == PAGE_NIL ? NULL : mm->mem_map + l->tail;
}
static inline struct cma_page *page_list_next(struct cma_mm *mm, const struct cma_page *page)
{
	return page->next == PAGE_NIL ? NULL : mm->mem_map + page->next;
}

/* A lock-free read of a zone counter; a transiently negative sum reads as 0. */
static inline unsigned long zone_page_state(struct zone *zone, enum zone_stat_item item)
{
	long v;

	if (item == NR_FREE_PAGES)
		v = atomic_load_explicit(&zone->free_pages, memory_order_relaxed);
	else if (item == NR_FREE_CMA_PAGES)
		v = atomic_load_explicit(&zone->free_cma, memory_order_relaxed);
	else
		v = atomic_load_explicit(&zone->vm_stat[item], memory_order_relaxed);
	return v < 0 ? 0 : v;
}

/* 4.8's NR_ZONE_WRITE_PENDING: the zone's pages dirty or under writeback. */
static inline unsigned long zone_write_pending(struct zone *zone)
{
	return zone_page_state(zone, NR_FILE_DIRTY) + zone_page_state(zone, NR_WRITEBACK);
}

void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
bool zone_watermark_ok(struct zone *z, unsigned order, unsigned long mark,
		       int classzone_idx, int alloc_flags);
/* zone_watermark_ok as if the zone had @free_pages free (should_reclaim_retry's question) */
bool zone_watermark_ok_free(struct zone *z, unsigned order, unsigned long mark, int classzone_idx,
			    int alloc_flags, unsigned long free_pages);
/* A free block of @order or more on a list the request may take from (6.12's watermark check). */
bool zone_has_free_block(struct zone *z, unsigned order, int alloc_flags);

static inline int allocflags_to_migratetype(struct cma_mm *mm, cma_gfp_t gfp)
{
	if (mm->page_group_by_mobility_disabled)
		return MIGRATE_UNMOVABLE;
	return (((gfp & CMA_GFP_MOVABLE) != 0) << 1) | ((gfp & CMA_GFP_RECLAIMABLE) != 0);
}

/* gfp_zone: the highest zone a request may use; a missing zone type is ZONE_NORMAL. */
static inline enum zone_type gfp_zone(struct cma_mm *mm, cma_gfp_t gfp)
{
	enum zone_type z = ZONE_NORMAL;

	if (gfp & CMA_GFP_DMA)
		z = ZONE_DMA;
	else if (gfp & CMA_GFP_DMA32)
		z = ZONE_DMA32;
	else if (gfp & CMA_GFP_HIGHMEM)
		z = ZONE_HIGHMEM;
	return mm->zones[z].configured ? z : ZONE_NORMAL;
}

/* alloc_flags, as the kernel's */
#define ALLOC_WMARK_MIN		WMARK_MIN
#define ALLOC_WMARK_LOW		WMARK_LOW
#define ALLOC_WMARK_HIGH	WMARK_HIGH
#define ALLOC_NO_WATERMARKS	0x04
#define ALLOC_WMARK_MASK	(ALLOC_NO_WATERMARKS - 1)
#define ALLOC_HARDER		0x10	/* 6.12's ALLOC_NON_BLOCK */
#define ALLOC_HIGH		0x20	/* 6.12's ALLOC_MIN_RESERVE */
/*
 * ALLOC_CMA: a movable request, which may take CMA pages. Set in every
 * profile; read only under kernel.alloc_cma (and cma_balance), as v23
 * tells CMA pages apart by the fallback table alone.
 */
#define ALLOC_CMA		0x80
/* kernel.fair_zone_alloc: the first try, fair among the zones (3.15's flag; 3.12's WMARK_LOW) */
#define ALLOC_FAIR		0x100
/* kernel.highatomic: a high-order atomic request, which may use and reserve HIGHATOMIC blocks */
#define ALLOC_HIGHATOMIC	0x200
/* kernel.alloc_nofragment: no fallback below a pageblock, until every zone has failed */
#define ALLOC_NOFRAGMENT	0x400
#define ALLOC_RESERVES		(ALLOC_HARDER | ALLOC_HIGH | ALLOC_HIGHATOMIC)

/* gfp_to_alloc_flags_cma: only movable requests may use CMA pages. */
static inline int alloc_flags_cma(int migratetype)
{
	return migratetype == MIGRATE_MOVABLE ? ALLOC_CMA : 0;
}

struct cma_page *get_page_from_freelist(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
					enum zone_type high_zoneidx, int alloc_flags,
					int migratetype);
/* ALLOC_NOFRAGMENT for a first try whose preferred zone is ZONE_NORMAL (5.1), else 0 */
int alloc_flags_nofragment(struct cma_mm *mm, enum zone_type high_zoneidx);
/* ALLOC_FAIR for the first try while the fair zone policy lasts (3.12-4.7), else 0 */
int alloc_flags_fair(const struct cma_mm *mm);
/* Every batch of the zones up to the preferred one of @high_zoneidx refilled, unmarked. */
void reset_alloc_batches(struct cma_mm *mm, enum zone_type high_zoneidx);
/* @zone's batch set to its high mark less its low mark, as new marks and a refill set it. */
void zone_refill_alloc_batch(struct zone *zone);
bool __free_page_check(struct cma_mm *mm, struct cma_page *page, unsigned order);

/*
 * The usual case of the free check, decided without a call: a booted
 * machine, and @page an allocated head of @order with references.
 * Anything else, __free_page_check() looks at, says why a page is bad,
 * and leaves a bad page alone.
 */
static inline bool free_page_usual(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	uintptr_t off = (uintptr_t)page - (uintptr_t)mm->mem_map;

	return mm->phase == MM_BOOTED && off < mm->mem_map_bytes && !(off % sizeof(*page)) &&
	       (page_flags(page) & (PG_head | PG_ORDER_MASK)) == (PG_head | order << PG_ORDER_SHIFT) &&
	       page_count(page) > 0;
}
void __free_pages(struct cma_mm *mm, struct cma_page *page, unsigned order);
void free_one_page(struct zone *zone, struct cma_page *page, unsigned order, int migratetype);
int move_freepages_block(struct zone *zone, struct cma_page *page, int migratetype);
void move_freepages_block_isolate(struct zone *zone, struct cma_page *page, int migratetype);
void drain_local_pages(struct cma_mm *mm);
void drain_all_pages(struct cma_mm *mm, struct zone *zone);
bool unreserve_highatomic_pageblock(struct cma_mm *mm, enum zone_type high_zoneidx,
				    int migratetype, bool force);
/* ALIGN(managed / 100, pageblock_nr_pages), or 0 where that is under a pageblock */
unsigned long highatomic_reserve_limit(const struct zone *zone);
#define WATERMARK_BOOST_FACTOR	15000	/* vm.watermark_boost_factor's default: 150% of high */
unsigned long max_watermark_boost(const struct zone *zone);
/* The first pcp type @start_mt falls back to with a free block of @order, or -1; zone->lock held. */
int find_suitable_fallback(struct zone *zone, unsigned order, int start_mt, bool *can_steal);
int split_free_page(struct cma_mm *mm, struct cma_page *page);
int isolate_free_block(struct cma_mm *mm, struct cma_page *page);
/* @page made an allocated block of @order with one reference and no owner, as isolated pages are */
void prep_isolated_page(struct cma_mm *mm, struct cma_page *page, unsigned order);
/* cma_alloc_pages_at() without the phase check; NULL with errno EINVAL or EBUSY. */
struct cma_page *alloc_pages_at(struct cma_mm *mm, unsigned long pfn, unsigned order, cma_gfp_t gfp);
/* Mark frames written and count those written for the first time since boot (PGALLOC_FRESH). */
void count_fresh_frames(struct cma_mm *mm, struct cma_page *page, unsigned order);
void init_cma_reserved_pageblock(struct cma_mm *mm, struct cma_page *page);
/* The zone size the reserves, the pcp batch and kswapd follow (kernel.managed_sizing). */
unsigned long zone_sizing_pages(const struct zone *z);
void setup_per_zone_wmarks(struct cma_mm *mm);
void init_per_zone_wmark_min(struct cma_mm *mm);
void setup_per_zone_lowmem_reserve(struct cma_mm *mm);
int zone_batchsize(struct cma_mm *mm, struct zone *zone);
void zone_pcp_init(struct cma_mm *mm);

/* The orders with per-CPU lists: 0, and from 5.14 (kernel.pcp_high_order) 1-3 and THP's. */
static inline bool pcp_allowed_order(const struct cma_mm *mm, unsigned order)
{
	return !order || (mm->kernel.pcp_high_order &&
			  (order <= PAGE_ALLOC_COSTLY_ORDER || order == mm->pageblock_order));
}

/* The list of @order and pcp type @mt: by type within an order; THP's movable or not. */
static inline unsigned order_to_pindex(int mt, unsigned order)
{
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		return NR_LOWORDER_PCP_LISTS + (mt == MIGRATE_MOVABLE);
	return MIGRATE_PCPTYPES * order + (unsigned)mt;
}

static inline unsigned pindex_to_order(const struct cma_mm *mm, unsigned pindex)
{
	return pindex < NR_LOWORDER_PCP_LISTS ? pindex / MIGRATE_PCPTYPES : mm->pageblock_order;
}
/* Every zone's per-CPU batch and high bounds again, after the watermarks changed. */
void zone_pcp_update(struct cma_mm *mm);
unsigned long nr_free_pagecache_pages(struct cma_mm *mm);
unsigned long nr_free_buffer_pages(struct cma_mm *mm);
void free_bootmem_range(struct cma_mm *mm, unsigned long start_pfn, unsigned long end_pfn);
/* Each PG_reserved page of [start_pfn, end_pfn) to the buddy allocator (free_reserved_page): how many. */
long free_reserved_range(struct cma_mm *mm, unsigned long start_pfn, unsigned long end_pfn);

/*
 * The head of the allocation that holds @pfn (compound_head of an
 * allocated page), or NULL: a free or reserved pfn, a hole. Unlocked.
 */
struct cma_page *alloc_head_of(struct cma_mm *mm, unsigned long pfn);

/* ---- swapfile.c: swap space ---- */

/* swap_map[] bits: the owners' count below; SWAP_RA is the cache page's PG_readahead */
#define SWAP_COUNT_MASK		0x1f
#define SWAP_RA			0x20
#define SWAP_HAS_CACHE		0x40
#define SWAP_PAGE_CLUSTER_DEFAULT 3	/* vm.page-cluster's default (swap_setup) */
#define SWAP_PAGE_CLUSTER_MAX	8
#define SWAP_AREA_MAX_PAGES	(1ull << 32)	/* union swap_header: __u32 last_page, the last page index */

int swap_init(struct cma_mm *mm);
void swap_exit(struct cma_mm *mm);
/* Room for @bytes more of swap. */
bool swap_room(struct cma_mm *mm, uint64_t bytes);
long get_swap_pages_locked(struct cma_mm *mm, unsigned long nr);
void swapcache_free_locked(struct cma_mm *mm, unsigned long slot);
void swap_duplicate_locked(struct cma_mm *mm, unsigned long slot);
void swap_entry_free_locked(struct cma_mm *mm, unsigned long slot);
bool swap_entry_valid_locked(struct cma_mm *mm, uint64_t entry);

/* ---- swap_state.c: the swap cache and swap-in ---- */

/* add_to_swap: give anonymous @page slots and put it in the swap cache; false when swap is full. */
bool add_to_swap(struct cma_mm *mm, struct cma_page *page);
/*
 * __delete_from_swap_cache at reclaim (__remove_mapping): @page leaves
 * the swap cache; if its owner mapped it (@unmapped), the owner keeps the
 * entry; from 5.9 the slot keeps the page's shadow.
 */
void delete_from_swap_cache_reclaim(struct cma_mm *mm, struct cma_page *page, bool unmapped);
/* The owner dropped @page while in the swap cache: the cache lets go of its slots. */
void delete_from_swap_cache(struct cma_mm *mm, struct cma_page *page);
/* Migration moved @page's contents to @newpage: the swap cache follows. */
void migrate_swap_cache(struct cma_mm *mm, struct cma_page *page, struct cma_page *newpage);
/* The owner ops of pages read ahead into the swap cache, owned by nobody yet. */
extern const struct cma_owner_ops swapper_ops;
int swap_state_init(struct cma_mm *mm, unsigned long nr_pfns);
void swap_state_exit(struct cma_mm *mm);
void add_to_swap_cache_locked(struct cma_mm *mm, struct cma_page *page, unsigned long slot,
			      unsigned long nr);
unsigned long page_swap_slot(struct cma_mm *mm, const struct cma_page *page);
struct cma_page *lookup_swap_cache_locked(struct cma_mm *mm, unsigned long slot);

/* ---- memory.c: pages for owners ---- */

/* A new movable page of @ops' owner, on the LRU through the pagevec; @active: its first list. */
struct cma_page *alloc_owned_page(struct cma_mm *mm, const char *fn, cma_gfp_t gfp,
				  const struct cma_owner_ops *ops, void *owner, uint64_t index,
				  bool active);

/* ---- swap.c: references, the LRU, owners ---- */

/* The owner ops table's number in mm->owner_ops, added if new; -1 when full. */
int owner_ops_id(struct cma_mm *mm, const struct cma_owner_ops *ops);

const struct cma_owner_ops *page_owner_ops(struct cma_mm *mm, const struct cma_page *page);
bool get_page_unless_zero(struct cma_page *page);
bool page_freeze_refs(struct cma_page *page, int expected);
void page_unfreeze_refs(struct cma_page *page, int count);
void put_page(struct cma_mm *mm, struct cma_page *page);
void page_account_owner(struct cma_mm *mm, struct cma_page *page);
void page_forget_owner(struct cma_mm *mm, struct cma_page *page);
void isolated_dec(struct cma_mm *mm, struct cma_page *page);
void lru_cache_add(struct cma_mm *mm, struct cma_page *page);
/* The pages this kernel's LRU pagevec holds before it empties (at most PAGEVEC_SIZE). */
unsigned pagevec_size(const struct cma_mm *mm);
void lru_add_drain(struct cma_mm *mm);
void lru_add_drain_all(struct cma_mm *mm);
void rotate_reclaimable_page(struct cma_mm *mm, struct cma_page *page);
void lru_cache_disable(struct cma_mm *mm);
void lru_cache_enable(struct cma_mm *mm);
/* __isolate_lru_page's modes: ISOLATE_UNEVICTABLE takes mlocked pages too */
typedef unsigned isolate_mode_t;
#define ISOLATE_UNEVICTABLE	0x8u
int __isolate_lru_page(struct cma_mm *mm, struct cma_page *page, isolate_mode_t mode);
int isolate_lru_page(struct cma_mm *mm, struct cma_page *page);
/*
 * isolate_hugetlb: an owned hugetlb page (hugetlb's migratable one, not
 * on any LRU) onto @list's tail with a reference of ours, PG_isolated
 * standing for the cleared migratable mark. False if it has no owner,
 * is being freed, or is isolated already.
 */
bool isolate_hugetlb(struct cma_mm *mm, struct cma_page *page, struct page_list *list);
/* enqueue_hugetlb_folio: @page onto the free pool, count 0 from now on. hugetlb_lock held. */
void enqueue_huge_page(struct cma_mm *mm, struct cma_page *page);
/* remove_hugetlb_folio of a free page: the caller's, count 1. hugetlb_lock held. */
void dequeue_huge_page(struct cma_mm *mm, struct cma_page *page);
/*
 * dequeue_hugetlb_folio_nodemask for a migration target (5.13,
 * contig_hugetlb): a free pool page of @order outside any isolated
 * pageblock, marked to go back to the pool when freed; NULL if none.
 */
struct cma_page *dequeue_huge_page_target(struct cma_mm *mm, unsigned order);

/*
 * A hugetlb page freed into the pool rather than to the buddy
 * allocator: one dequeued as a migration target, and after a migration
 * the page it replaced (move_hugetlb_state). The library's other
 * hugetlb pages go back to the buddy allocator, as the kernel's
 * temporary (HPageTemporary) ones do; the mark lives in the first tail
 * page, as the kernel keeps hugetlb's state in a folio's tails.
 */
static inline bool hugetlb_to_pool(const struct cma_page *page)
{
	return page_order(page) && page[1].private;
}

static inline void hugetlb_set_to_pool(struct cma_page *page, bool to_pool)
{
	if (page_order(page))
		page[1].private = to_pool;
}
enum lru_list page_lru(const struct cma_page *page);
void putback_lru_page(struct cma_mm *mm, struct cma_page *page);
void putback_inactive_page(struct cma_mm *mm, struct cma_page *page);
void putback_lru_pages(struct cma_mm *mm, struct page_list *list);

/* ---- workingset.c: refault detection (kernel.workingset) ---- */

/* A page cache page of @zone was evicted: the refault clock ticks. */
void workingset_eviction(struct zone *zone);
/* @page was activated: a file page ticks its zone's refault clock from 3.15. */
void workingset_activation(struct cma_mm *mm, struct cma_page *page);
/* 5.9's anon shadows: stamped as the page leaves the swap cache, read as one is read back. */
uint64_t workingset_eviction_anon(struct cma_mm *mm, const struct cma_page *page);
void workingset_refault_anon(struct cma_mm *mm, struct cma_page *page, uint64_t shadow);

/* ---- page_writeback.c ---- */

/* set_page_writeback for reclaim's write of a file (@file) or anonymous page: traced. */
void set_page_writeback(struct cma_mm *mm, struct cma_page *page, bool file);
/* The write did not start after all: as if PG_writeback was never set. */
void undo_page_writeback(struct cma_mm *mm, struct cma_page *page);
/* test_clear_page_writeback: the write is done, NR_WRITTEN counts it. */
void end_page_writeback(struct cma_mm *mm, struct cma_page *page);
/* Wait for @page's write through @ops->wait_writeback: 0, or -EBUSY if it cannot. */
int wait_on_page_writeback(struct cma_mm *mm, struct cma_page *page,
			   const struct cma_owner_ops *ops);
/* Wait for @page's read through @ops->wait_locked: 0 once it is ours, or -EBUSY if it cannot. */
int lock_page(struct cma_mm *mm, struct cma_page *page, const struct cma_owner_ops *ops);

/* ---- page_isolation.c ---- */

int set_migratetype_isolate(struct cma_mm *mm, struct cma_page *page, int migratetype,
			    unsigned long start, unsigned long end);
void unset_migratetype_isolate(struct cma_mm *mm, struct cma_page *page, int migratetype);
/*
 * Isolate every pageblock [@start, @end) touches, scanning only the
 * range itself for unmovable pages: 0, or -EBUSY with none changed.
 */
int start_isolate_page_range(struct cma_mm *mm, unsigned long start, unsigned long end,
			     int migratetype);
void undo_isolate_page_range(struct cma_mm *mm, unsigned long start, unsigned long end,
			     int migratetype);
int test_pages_isolated(struct cma_mm *mm, unsigned long start, unsigned long end);

/* ---- compaction.c ---- */

/*
 * compact_control: one compaction run, or one alloc_contig_range batch.
 * The migrate scanner (migrate_pfn) climbs from the zone start, the free
 * scanner (free_pfn) comes down from its end; the run is over when they
 * meet. Both lists link pages through page->next/prev and belong to the
 * run alone (no lock); compact_zone() leaves them empty.
 * isolate_migratepages_range() returns 0 when too many pages are isolated;
 * isolate_freepages_range() is strict (all free, or 0). Neither expects a
 * lock held; compact_zone() and try_to_compact_pages() hold none across
 * migration.
 */
#define COMPACT_CLUSTER_MAX 32	/* pages isolated per migration batch */

struct compact_control {
	/*
	 * Isolated free blocks, the migration targets, by order: all order-0
	 * pages before 6.9, whole blocks from it (kernel.compact_folios).
	 * nr_freepages counts their pages.
	 */
	struct page_list freepages[MAX_ORDER_LIMIT];
	struct page_list migratepages;	/* isolated pages to migrate */
	unsigned long nr_freepages;
	unsigned long nr_migratepages;
	unsigned long free_pfn;		/* the free scanner, moving down */
	unsigned long migrate_pfn;	/* the migration scanner, moving up */
	bool sync;
	int order;			/* -1: compact the whole zone */
	int migratetype;
	cma_gfp_t gfp_mask;		/* kernel.compact_nofs: without __GFP_FS, anonymous pages only */
	struct zone *zone;
	/* 6.12 (kernel.compact_skip_hint): scan blocks whatever their skip bit (compact_memory) */
	bool ignore_skip_hint;
	/* COMPACT_PRIO_SYNC_FULL: the scanners start at the zone's ends, targets come from any block */
	bool whole_zone;
	bool ignore_block_suitable;
	bool direct;			/* try_to_compact_pages' run: its meeting scanners flush skip bits */
	unsigned proactive_wmark;	/* kcompactd's run (kcompactd.c): ends at this score; 0: not one */
	bool compacting;		/* inside compact_zone, not alloc_contig_range */
	/* kernel.compact_rescan: the migrate scanner's pageblock is scanned to its end in one batch */
	bool finish_pageblock;
	bool skip_updated;		/* the last scan met a page to take (test_and_set_skip's place) */
	/* kernel.compact_fast_free: the order the free-list search starts at, its failures */
	int search_order;
	unsigned fast_search_fail;
	/* kernel.compact_fast_migrate: the lowest source pfn a search found; ULONG_MAX once used */
	unsigned long fast_start_pfn;
	/* alloc_contig_range: -ENOMEM once isolate_or_dissolve_huge_page gave it; the range ends */
	int contig_err;
	/* the free scanner's events, counted when isolate_freepages() ends */
	unsigned long free_scanned, free_stepped, free_taken, blocks_passed;
};

/*
 * DEFERRED and CONTENDED only under kernel.compact_priority: no zone ran,
 * one was deferred; a run ended early, out of targets or with too many
 * pages isolated (v3.5 calls that PARTIAL, as a run whose block is free).
 */
enum compact_result {
	COMPACT_SKIPPED, COMPACT_DEFERRED, COMPACT_CONTINUE, COMPACT_CONTENDED, COMPACT_PARTIAL,
	COMPACT_COMPLETE
};

unsigned long isolate_freepages_range(struct cma_mm *mm, unsigned long start_pfn,
				      unsigned long end_pfn);
unsigned long isolate_migratepages_range(struct zone *zone, struct compact_control *cc,
					 unsigned long low_pfn, unsigned long end_pfn);
int compact_zone(struct zone *zone, struct compact_control *cc);
/* At most 64 considerations are skipped after a run of failures. */
#define COMPACT_MAX_DEFER_SHIFT	6
/* extfrag_for_order() at the huge page order: the % of @zone's free pages outside such blocks */
unsigned fragmentation_score_zone(struct zone *zone);
/* sysctl.c: vm.@name from the command line (from 5.8) into *@value if at most @max, else refused */
void sysctl_vm_from_cmdline(struct cma_mm *mm, const char *name, unsigned max, unsigned *value);
/* kcompactd.c: vm.compaction_proactiveness from the command line, at boot */
void setup_compaction_proactiveness(struct cma_mm *mm);
/* Empty lists of free blocks and of pages to migrate, before a first use of @cc */
void compact_control_init_lists(struct compact_control *cc);
/* SKIPPED: too little free memory for @order; PARTIAL: it would succeed now; else CONTINUE. */
int compaction_suitable(struct zone *zone, int order);
int fragmentation_index(struct zone *zone, unsigned order);
/*
 * How hard direct compaction tries (4.8's priorities; v3.5 knows ASYNC
 * and SYNC_LIGHT only): SYNC_FULL also ignores deferral, skip bits,
 * cached positions and the free scanner's choice of blocks.
 */
enum compact_priority { COMPACT_PRIO_SYNC_FULL, COMPACT_PRIO_SYNC_LIGHT, COMPACT_PRIO_ASYNC };
#define MIN_COMPACT_PRIORITY		COMPACT_PRIO_SYNC_FULL
#define MIN_COMPACT_COSTLY_PRIORITY	COMPACT_PRIO_SYNC_LIGHT
#define DEF_COMPACT_PRIORITY		COMPACT_PRIO_SYNC_LIGHT
#define INIT_COMPACT_PRIORITY		COMPACT_PRIO_ASYNC
unsigned long try_to_compact_pages(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
				   enum compact_priority prio, enum zone_type high_zoneidx,
				   int migratetype);
void defer_compaction(struct zone *zone, int order);
bool compaction_deferred(struct zone *zone, int order);
void compact_pgdat(struct cma_mm *mm, unsigned order);	/* kswapd's */
void compaction_defer_reset(struct zone *zone, int order, bool alloc_success);
/* 6.12's cached scanner positions and skip bits (kernel.compact_cached_pfn, compact_skip_hint) */
void reset_cached_positions(struct zone *zone);
void reset_isolation_suitable(struct cma_mm *mm);
bool get_pageblock_skip(const struct cma_mm *mm, unsigned long pfn);
void set_pageblock_skip(struct cma_mm *mm, unsigned long pfn);

/* ---- migrate.c ---- */

enum migrate_mode { MIGRATE_ASYNC, MIGRATE_SYNC_LIGHT, MIGRATE_SYNC };
/* Why pages move (later kernels' enum migrate_reason; v3.5 has none): the trace's reason=. */
enum migrate_reason {
	MR_COMPACTION, MR_MEMORY_FAILURE, MR_MEMORY_HOTPLUG, MR_SYSCALL, MR_MEMPOLICY_MBIND,
	MR_NUMA_MISPLACED, MR_CONTIG_RANGE, MR_LONGTERM_PIN, MR_DEMOTION, MR_DAMON, MR_TYPES
};
typedef struct cma_page *(*new_page_t)(struct cma_mm *mm, struct cma_page *page,
				       unsigned long private);
/* free_folio_t: a target migration did not use, our reference its only one, given back. */
typedef void (*free_page_t)(struct cma_mm *mm, struct cma_page *newpage, unsigned long private);
int migrate_pages(struct cma_mm *mm, struct page_list *from, new_page_t get_new_page,
		  unsigned long private, enum migrate_mode mode);
/* migrate_pages() with the kernel's put_new_folio: @put_new_page takes the targets not used. */
int migrate_pages_free(struct cma_mm *mm, struct page_list *from, new_page_t get_new_page,
		       free_page_t put_new_page, unsigned long private, enum migrate_mode mode);
/* migrate_pages() saying why (the reason shows in the trace under cma_stats). */
int split_folio_to_list(struct cma_mm *mm, struct page_list *list, struct cma_page *page);
int migrate_pages_reason(struct cma_mm *mm, struct page_list *from, new_page_t get_new_page,
			 unsigned long private, enum migrate_mode mode, enum migrate_reason reason);

/* ---- contig.c, cma.c (the types are in mm/cma.h) ---- */

int alloc_contig_range(struct cma_mm *mm, unsigned long start, unsigned long end, int migratetype,
		       cma_gfp_t gfp);
void free_contig_range(struct cma_mm *mm, unsigned long pfn, unsigned long nr_pages);
struct cma_page *cma_alloc(struct cma_mm *mm, struct cma *cma, unsigned long count, unsigned align,
			   cma_gfp_t gfp);
bool cma_release(struct cma_mm *mm, struct cma *cma, const struct cma_page *pages, unsigned long count);

/* ---- vmscan.c: reclaim, kswapd, OOM; called with no library lock held, and callbacks run so ---- */

#define DEF_PRIORITY		12	/* a pass scans lru_size >> priority pages, 12 down to 0 */
#define SWAP_CLUSTER_MAX	32UL	/* pages isolated and decided per batch */

/* Direct reclaim over zones <= gfp_zone(gfp) until @nr pages are freed; counts ALLOCSTALL. */
unsigned long try_to_free_pages(struct cma_mm *mm, unsigned long nr, cma_gfp_t gfp, unsigned order);
/* Seed 007: one SWAP_CLUSTER_MAX batch of direct reclaim; progress = pages freed. */
int __perform_reclaim(struct cma_mm *mm, cma_gfp_t gfp, unsigned order);
/* The LRU pages reclaim could free in @zone (anonymous ones only with swap room). */
unsigned long zone_reclaimable_pages(struct zone *zone);
unsigned long reclaim_clean_pages_from_list(struct zone *zone, struct page_list *list);

/* ---- scan_balance.c: how much of each LRU list a reclaim pass scans, under no lock ---- */

/* The active:inactive anon ratio v3.5 keeps @zone at (zone->inactive_ratio). */
unsigned long zone_inactive_ratio(const struct zone *zone);
/* Is @zone's inactive @file (or anon) list short of its ratio to the active one? */
bool inactive_list_is_low(struct zone *zone, bool file);

/* get_scan_count: @nr[lru], the pages of each list a pass at @priority scans. */
void get_scan_count(struct zone *zone, int priority, bool force_scan, unsigned long nr[NR_LRU_LISTS]);
/* v3.5's history: @scanned pages isolated from @file's lists, @rotated of them referenced and kept. */
void lru_note_scan(struct zone *zone, bool file, unsigned long scanned, unsigned long rotated);
/* vm.swappiness from the command line (5.8's sysctl boot parameters), at boot */
void setup_swappiness(struct cma_mm *mm);
/* 5.8's cost of reclaiming @file's kind: pages written or refaulted, pages kept. */
void lru_note_cost(struct zone *zone, bool file, unsigned long nr_io, unsigned long nr_rotated);
/* A request of @order (classzone @classzone_idx) may use @zone: raise kswapd's order, wake it below low. */
void wakeup_kswapd(struct cma_mm *mm, struct zone *zone, unsigned order, int classzone_idx);
/* The slow path's pause before a retry: a polled kswapd's pending pass runs here. */
void kswapd_run_meanwhile(struct cma_mm *mm);
/* The polled kswapd's pass runs in this thread on @mm (NULL: it ended): its sleeps are naps. */
void kswapd_pass_set(struct cma_mm *mm);
/*
 * The polled kswapd asleep on its waitqueue for @timeout jiffies: the
 * host polls it at the timeout, or at a wakeup. false without a host clock.
 */
bool kswapd_schedule_timeout(struct cma_mm *mm, long timeout);
/* mm->kswapd_state; 0 is what cma_mm_create leaves */
/* POLLED: no thread; wakeups are recorded for cma_kswapd_poll() (vmscan.c). */
enum { KSWAPD_STOPPED, KSWAPD_STARTING, KSWAPD_RUNNING, KSWAPD_STOPPING, KSWAPD_POLLED };

/*
 * kswapd_is_running() (5.9): the kswapd task runnable, as proactive
 * compaction asks before it starts and at each step: in its pass, or
 * (polled) woken and not yet at it. One asleep in congestion_wait or
 * reclaim_throttle is not running.
 */
static inline bool kswapd_is_running(struct cma_mm *mm)
{
	bool woken;

	if (atomic_load_explicit(&mm->kswapd_balancing, memory_order_relaxed))
		return true;
	if (atomic_load_explicit(&mm->kswapd_state, memory_order_relaxed) != KSWAPD_POLLED)
		return false;
	spin_lock(&mm->kswapd_lock);
	woken = mm->kswapd_woken && !mm->kswapd_napping;
	spin_unlock(&mm->kswapd_lock);
	return woken;
}

/* 6.12's MAX_RECLAIM_RETRIES: the slow path's rounds without progress, kswapd's runs */
#define MAX_RECLAIM_RETRIES	16

/*
 * kswapd gave the node up (4.12, kernel.kswapd_failures): as many
 * balance_pgdat runs in a row freed nothing as the slow path retries.
 */
static inline bool kswapd_hopeless(struct cma_mm *mm)
{
	return mm->kernel.kswapd_failures &&
	       atomic_load_explicit(&mm->kswapd_failures, memory_order_relaxed) >= MAX_RECLAIM_RETRIES;
}

/* kswapd gave @zone up: v3.5's all_unreclaimable, or from 4.12 its node's state. */
static inline bool zone_given_up(struct zone *zone)
{
	if (zone->mm->kernel.kswapd_failures)
		return kswapd_hopeless(zone->mm);
	return atomic_load_explicit(&zone->all_unreclaimable, memory_order_relaxed);
}
/* global_dirty_limits: the dirty background and dirty thresholds, shares of the dirtyable pages. */
void global_dirty_limits(struct cma_mm *mm, unsigned long *background, unsigned long *dirty);
/* 3.5-4.8: reclaim waits while the pages under writeback are over the dirty limit. */
void throttle_vm_writeout(struct cma_mm *mm, cma_gfp_t gfp);
/* 5.16's reclaim_throttle(): sleep on @reason's queue, if the host has a clock. */
void reclaim_throttle(struct cma_mm *mm, enum cma_sleep_reason reason);
/* 5.16's acct_reclaim_writeback(): a write ended; wake the writeback-throttled once enough did. */
void acct_reclaim_writeback(struct cma_mm *mm, unsigned long nr);
/* 5.16's wake_throttle_isolated(): fewer pages isolated now, wake who waited on that. */
void wake_throttle_isolated(struct cma_mm *mm);
/* Too many pages isolated, on a host clock: congestion_wait(HZ/10), from 5.16 reclaim_throttle(ISOLATED). */
void too_many_isolated_wait(struct cma_mm *mm);
/* A synchronous isolator waits this many times for isolated pages to drain, then gives up. */
#define ISOLATED_WAIT_TRIES	1000

/* ---- backing-dev.c: sleeping on the host's clock ---- */

#define HZ	250	/* CONFIG_HZ: kernel/Kconfig.hz's default (HZ_250); no profile sets another */

/* The host gave the machine a clock: the kernel's sleeps happen. */
bool mm_may_sleep(const struct cma_mm *mm);
/* schedule_timeout(@timeout jiffies) on queue @q: the microseconds slept, at most the timeout. */
uint64_t sleep_on_timeout(struct cma_mm *mm, enum cma_sleep_reason q, long timeout);
/* wake_up() of @q when it has sleepers. */
void wake_up_sleepers(struct cma_mm *mm, enum cma_sleep_reason q);
/* cond_resched(): a scheduling point, where the host's clock may catch up with the work done. */
void cond_resched(struct cma_mm *mm);
/* 3.5-5.15 congestion_wait(BLK_RW_ASYNC, @timeout): until the device is uncongested. */
void congestion_wait(struct cma_mm *mm, long timeout);
/* 3.5-5.15 wait_iff_congested(@zone, BLK_RW_ASYNC, @timeout). */
void wait_iff_congested(struct zone *zone, long timeout);
/* Calls the machine's OOM handler: the pages it freed, or 0. */
unsigned long out_of_memory(struct cma_mm *mm, cma_gfp_t gfp, unsigned order);

/* ---- slowpath.c (fail_page_alloc.c: the injection rules) ---- */

struct cma_page *__alloc_pages(struct cma_mm *mm, cma_gfp_t gfp, unsigned order);
/* Allocations between these are migration targets (fail_page_alloc's only_migration). */
void migration_alloc_begin(void);
void migration_alloc_end(void);
bool __should_fail_alloc_page(struct cma_mm *mm, unsigned order);

/* Fault injection, off in all but a few runs: the fast path pays one load for it. */
static inline bool should_fail_alloc_page(struct cma_mm *mm, unsigned order)
{
	return atomic_load_explicit(&mm->fail.enabled, memory_order_relaxed) &&
	       __should_fail_alloc_page(mm, order);
}

/* ---- trace.c ---- */

/* The text consumer takes @id: set_trace_events chose it, or chose none. */
static inline bool trace_text_wanted(const struct cma_mm *mm, enum cma_trace_id id)
{
	uint32_t events = __atomic_load_n(&mm->trace_events, __ATOMIC_RELAXED);

	return __atomic_load_n(&mm->trace_fn, __ATOMIC_RELAXED) && (!events || (events & (1u << id)));
}

/* Someone reads event @id: a probe, or the text. Two loads when no one does. */
static inline bool trace_event_enabled(const struct cma_mm *mm, enum cma_trace_id id)
{
	return __atomic_load_n(&mm->trace_probes[id].fn, __ATOMIC_RELAXED) || trace_text_wanted(mm, id);
}

/*
 * trace_event(mm, ID, member, .field = value, ...): event ID's record,
 * its fields in the union's @member, built and handed on only when
 * trace_event_enabled(), so its arguments cost nothing otherwise.
 */
#define trace_event(mm, ID, member, ...)						\
	do {										\
		if (trace_event_enabled(mm, ID))					\
			__trace_event(mm, &(const struct cma_trace_event){		\
				.id = (ID), .member = { __VA_ARGS__ } });		\
	} while (0)
void __trace_event(struct cma_mm *mm, const struct cma_trace_event *ev);
/* mm->trace_lock, at cma_mm_create (trace.c). */
void trace_lock_init(struct cma_mm *mm);
const char *migratetype_name(int mt);
/* The profile's name of @mt: "HighAtomic" for the RESERVE slot under kernel.highatomic. */
const char *migratetype_name_of(const struct cma_mm *mm, int mt);
void show_gfp_flags(cma_gfp_t gfp, char *buf, size_t len);

/* ---- vmstat.c ---- */

unsigned long global_page_state(struct cma_mm *mm, enum zone_stat_item item);
/* NR_ALLOC_BATCH of @zone, or of every zone (NULL), as /proc shows it (3.12-4.7) */
unsigned long nr_alloc_batch(struct cma_mm *mm, struct zone *zone);
uint64_t vm_event_sum(struct cma_mm *mm, enum vm_event_item item);
uint64_t vm_event_shown(struct cma_mm *mm, enum vm_event_item item);

/* The kernel's stack size in kB, for NR_KERNEL_STACK (which counts stacks). */
unsigned long thread_size_kb(const struct cma_mm *mm);

struct zone_marks {
	unsigned long min, low, high;
	unsigned long boost;		/* 5.0's watermark boost (kernel.watermark_boost) */
	unsigned long lowmem_reserve[MAX_NR_ZONES];
};

/* The zone's watermarks and lowmem_reserve, copied under zone->lock. */
void zone_marks_snapshot(struct zone *zone, struct zone_marks *zm);
/* "\n  pagesets" and each CPU's count, high, batch and stat threshold. */
void zoneinfo_pagesets(struct cma_mm *mm, struct zone *zone, FILE *out);

/*
 * ---- debug.c: validators of one object each (the equations beside the
 * structs in mmzone.h). @where names the transition just made; on a
 * failure each reports what broke, after what, and returns -EUCLEAN.
 */

int verify_zone_locked(struct zone *zone, const char *where);		/* zone->lock held */
int verify_pcp_locked(struct cma_mm *mm, struct cpu_slot *slot, const char *where); /* slot->lock */
int verify_lru_locked(struct zone *zone, const char *where);		/* zone->lru_lock held */
/* @expect MIGRATE_ISOLATE: every block of the range isolated; another type: none; -1: any */
int verify_pageblocks(struct cma_mm *mm, unsigned long start, unsigned long end, int expect,
		      const char *where);				/* cma_mutex held */
int verify_zones(struct cma_mm *mm, const char *where);	/* takes each zone's locks */

/* CMA_DEBUG=2: run the validators where a structure changes state. */
#if CMA_DEBUG >= 2
#define VM_VERIFY(mm) VM_BUG_ON(cma_mm_verify(mm))
#define VM_VERIFY_ZONE(zone, where) VM_BUG_ON(verify_zone_locked(zone, where))
#define VM_VERIFY_PCP(mm, slot, where) VM_BUG_ON(verify_pcp_locked(mm, slot, where))
#define VM_VERIFY_PAGEBLOCKS(mm, start, end, expect, where) \
	VM_BUG_ON(verify_pageblocks(mm, start, end, expect, where))
#define VM_VERIFY_ZONES(mm, where) VM_BUG_ON(verify_zones(mm, where))
#else
#define VM_VERIFY(mm) do { } while (0)
#define VM_VERIFY_ZONE(zone, where) do { } while (0)
#define VM_VERIFY_PCP(mm, slot, where) do { } while (0)
#define VM_VERIFY_PAGEBLOCKS(mm, start, end, expect, where) do { } while (0)
#define VM_VERIFY_ZONES(mm, where) do { } while (0)
#endif

/* ---- khugepaged.c: THP's raise of min_free_kbytes (init/main.c calls these) ---- */

/* transparent_hugepage= against the .config's mode, at cma_mm_create */
void setup_transparent_hugepage(struct cma_mm *mm);
/* after init_per_zone_wmark_min: khugepaged's min_free_kbytes where THP is on */
void hugepage_init(struct cma_mm *mm);

/* ---- hugetlb.c: hugetlb_cma= (init/main.c calls these in the kernel's order) ---- */

/* prep_new_hugetlb_folio's folio_set_hugetlb: the allocation's head (if any) is the folio's. */
static inline struct cma_page *mark_hugetlb(struct cma_page *page)
{
	if (page)
		page_flags_set(page, PG_hugetlb);
	return page;
}

/*
 * hugetlb_init (subsys_initcall): hands alloc_contig_range's scan, in
 * compaction.c below hugetlb and the slow path, its PageHuge step
 * (mm->isolate_or_dissolve_huge_page).
 */
void hugetlb_init(struct cma_mm *mm);
/* cmdline_parse_hugetlb_cma at cma_mm_create (from 5.7): 0, or -EINVAL said in the log. */
int hugetlb_cma_parse(struct cma_mm *mm, const char *cmdline);
/* hugetlb_cma_reserve(order) as the architecture calls it, early; ARM: hugetlb_cma_check's warning. */
void hugetlb_cma_reserve(struct cma_mm *mm);

/* ---- mm_init.c: the machine's life, at the top of src/mm ---- */

/* cma_mm_create/boot/destroy (init/main.c) add CMA and devices around these. */
int mm_create(const struct cma_mm_config *cfg, struct cma_mm **mmp);
int mm_boot_memory(struct cma_mm *mm);	/* free_area_init + mem_init; phase -> BOOTED */
/* arm64's setup_arch before bootmem_init: the linear map's page tables and NODE_DATA, top-down */
void arm64_paging_init(struct cma_mm *mm);
/* arm64's bootmem_init: sparse_init (mem_section, the memmap) before dma_contiguous_reserve */
void arm64_sparse_init(struct cma_mm *mm);
void mm_destroy(struct cma_mm *mm);

#endif
