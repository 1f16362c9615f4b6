/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct cma_page: the page frame descriptor, 32 bytes where the kernel
 * spends 64. Lists link pages by mem_map index (32 bits) instead of
 * pointers, and the small fields (order, zone, migrate type of the
 * allocation, owner ops id) are packed into the flags word.
 *
 * Glossary
 *   buddy page   head of a free block on zone->free_area[order]; private
 *                holds the migrate type of the list it is on
 *   pcp page     head of a free block on a per-CPU list, its order in the
 *                flags (0 before 5.14); private holds the migrate type it
 *                will be freed to (rmqueue_bulk/free_hot_cold)
 *   allocated    head of an allocation: count >= 1, order in the flags
 *   movable      an allocated page with an owner (ops id, owner, index)
 *
 * Concurrency: count is atomic (tryget/freeze race with owners); flag
 * bits are read with relaxed loads and written with atomic operations,
 * because owners set PG_dirty while the allocator may read PG_buddy.
 */
#ifndef CMA_MM_MM_TYPES_H
#define CMA_MM_MM_TYPES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define PAGE_NIL UINT32_MAX	/* end of a page list */

struct cma_page {
	_Atomic uint32_t flags;
	atomic_int count;		/* _count: references; 0 = free or frozen */
	uint32_t next, prev;		/* page_list links (mem_map indexes) */
	uint64_t private;		/* see the glossary */
	void *owner;			/* movable: the owner (mapping) */
};

/* Page flag bits and packed fields of page->flags. */
enum pageflags {
	PG_buddy	= 1u << 0,	/* head of a free buddy block */
	PG_reserved	= 1u << 1,	/* memblock-reserved, never free */
	PG_head		= 1u << 2,	/* head of an allocation */
	PG_lru		= 1u << 3,	/* on an LRU list */
	PG_active	= 1u << 4,
	PG_dirty	= 1u << 5,
	PG_writeback	= 1u << 6,
	PG_swapbacked	= 1u << 7,	/* anonymous: anon LRU */
	PG_movable	= 1u << 8,	/* has an owner (ops, owner, index) */
	PG_pcp		= 1u << 9,	/* on a per-CPU list */
	PG_isolated	= 1u << 10,	/* taken off the LRU for migration */
	PG_referenced	= 1u << 11,
	/*
	 * Written for reclaim: end_page_writeback rotates the page to the
	 * tail of its inactive list (rotate_reclaimable_page). The kernel
	 * shares the bit with PG_readahead, which the library has no use for.
	 */
	PG_reclaim	= 1u << 22,
	/*
	 * Mlocked by its owner (cma_page_set_mlocked): unevictable, on
	 * LRU_UNEVICTABLE whenever on the LRU; Departure: the kernel's PG_mlocked and
	 * PG_unevictable in one bit, so a page mlocked while in a pagevec
	 * goes straight to LRU_UNEVICTABLE when drained, where v3.5 adds it
	 * to an evictable list and culls it at reclaim's first look.
	 */
	PG_mlocked	= 1u << 23,
	PG_swapcache	= 1u << 24,	/* anon: holds a swap slot with its contents */
	/*
	 * The accessed ("young") bit of the page table entries that map the
	 * page, set by its owner (cma_page_mkyoung) where the hardware would
	 * set the PTE's; page_referenced() reads and clears it. Not owner
	 * state: migration maps the new page old, as v3.5's
	 * remove_migration_pte does (6.x keeps the bit in the migration
	 * entry: not modelled), and the owner's forgetting the page clears it.
	 */
	PG_young	= 1u << 30,
	/*
	 * A hugetlb pool's page (PageHuge: the kernel's folio type), set on
	 * every base page of it by the hugetlb allocation paths and cleared
	 * with the rest of the flags when it is freed. Owned (PG_movable)
	 * once mapped (cma_huge_page_set_owner), yet never on an LRU list.
	 */
	PG_hugetlb	= 1u << 31,
};

#define PG_ORDER_SHIFT	12		/* 5 bits: buddy or allocation order */
#define PG_ORDER_MASK	(0x1fu << PG_ORDER_SHIFT)
#define PG_ZONE_SHIFT	17		/* 3 bits: zone index */
#define PG_ZONE_MASK	(0x7u << PG_ZONE_SHIFT)
#define PG_MT_SHIFT	20		/* 2 bits: migrate type asked for, below MIGRATE_PCPTYPES */
#define PG_MT_MASK	(0x3u << PG_MT_SHIFT)
#define PG_OPS_SHIFT	25		/* 5 bits: owner ops id */
#define PG_OPS_MASK	(0x1fu << PG_OPS_SHIFT)
#define MAX_OWNER_OPS	32		/* distinct owner ops tables a machine can hold */

/* Owner state: travels with the contents on migration, goes when the owner forgets the page. */
#define PG_OWNER_MASK (PG_movable | PG_swapbacked | PG_dirty | PG_active | PG_referenced | \
		       PG_mlocked | PG_swapcache | PG_OPS_MASK)

static inline uint32_t page_flags(const struct cma_page *page)
{
	return atomic_load_explicit(&((struct cma_page *)page)->flags, memory_order_relaxed);
}

/* Only for a page nobody else can see changing (free, or owned by us). */
static inline void page_flags_store(struct cma_page *page, uint32_t flags)
{
	atomic_store_explicit(&page->flags, flags, memory_order_relaxed);
}

static inline void page_flags_set(struct cma_page *page, uint32_t bits)
{
	atomic_fetch_or_explicit(&page->flags, bits, memory_order_relaxed);
}

static inline void page_flags_clear(struct cma_page *page, uint32_t bits)
{
	atomic_fetch_and_explicit(&page->flags, ~bits, memory_order_relaxed);
}

/* Clear @clear and set @set in one atomic step: one locked instruction where two would be. */
static inline void page_flags_update(struct cma_page *page, uint32_t clear, uint32_t set)
{
	uint32_t old = page_flags(page);

	while (!atomic_compare_exchange_weak_explicit(&page->flags, &old, (old & ~clear) | set,
						      memory_order_relaxed, memory_order_relaxed))
		;
}

static inline bool page_test(const struct cma_page *page, uint32_t bit)
{
	return page_flags(page) & bit;
}

static inline unsigned page_order(const struct cma_page *page)
{
	return (page_flags(page) & PG_ORDER_MASK) >> PG_ORDER_SHIFT;
}

static inline unsigned page_zonenum(const struct cma_page *page)
{
	return (page_flags(page) & PG_ZONE_MASK) >> PG_ZONE_SHIFT;
}

static inline unsigned page_alloc_mt(const struct cma_page *page)
{
	return (page_flags(page) & PG_MT_MASK) >> PG_MT_SHIFT;
}

static inline unsigned page_ops_id(const struct cma_page *page)
{
	return (page_flags(page) & PG_OPS_MASK) >> PG_OPS_SHIFT;
}

/* Replace a packed field; the page must be ours (see page_flags_store). */
static inline void page_set_field(struct cma_page *page, uint32_t mask, unsigned shift,
				  unsigned val)
{
	page_flags_store(page, (page_flags(page) & ~mask) | ((uint32_t)val << shift));
}

static inline int page_count(const struct cma_page *page)
{
	return atomic_load_explicit(&((struct cma_page *)page)->count, memory_order_relaxed);
}

static inline void set_page_count(struct cma_page *page, int v)
{
	atomic_store_explicit(&page->count, v, memory_order_relaxed);
}

#endif
