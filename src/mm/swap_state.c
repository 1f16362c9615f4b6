// SPDX-License-Identifier: GPL-2.0
/*
 * The swap cache (the kernel's mm/swap_state.c, its lower half): a page
 * in it holds a slot (PG_swapcache; swap_cache[slot] names it, and
 * swap_slot_of[pfn] the slot), from its swap-out until reclaim frees it,
 * or from its read at swap-in until its owner maps it. Pages read ahead
 * belong to no owner yet: swapper_ops owns them (owner: the machine,
 * index: the slot), so reclaim and migration treat them as any anonymous
 * page. It sits below vmscan.c, swap.c and migrate.c, which call it, and
 * below swapin.c, which fills it.
 */
#include <stdlib.h>

#include "mm/internal.h"

/* A read-ahead page still unclaimed: false once an owner took it (cma_swapin). */
static bool swapper_owns(void *owner, const struct cma_page *page)
{
	return page->owner == owner;
}

static int swapper_migrate(void *owner, uint64_t slot, struct cma_page *from, struct cma_page *to)
{
	return swapper_owns(owner, from) ? 0 : -EAGAIN;
}

/* A clean read-ahead page: nothing to write, the slot keeps the data. */
static int swapper_reclaim(void *owner, uint64_t slot, struct cma_page *page)
{
	return swapper_owns(owner, page) ? 0 : -EBUSY;
}

const struct cma_owner_ops swapper_ops = {
	.migrate = swapper_migrate, .reclaim = swapper_reclaim, .anon = true,
};

int swap_state_init(struct cma_mm *mm, unsigned long nr_pfns)
{
	if (!mm->swap_max)
		return 0;
	mm->swap_slot_of = calloc(nr_pfns ? nr_pfns : 1, sizeof(*mm->swap_slot_of));
	return mm->swap_slot_of ? 0 : -ENOMEM;
}

void swap_state_exit(struct cma_mm *mm)
{
	free(mm->swap_slot_of);
	mm->swap_slot_of = NULL;
}

/* add_to_swap_cache: @page holds @nr slots from @slot. swap_lock held. */
void add_to_swap_cache_locked(struct cma_mm *mm, struct cma_page *page, unsigned long slot,
			      unsigned long nr)
{
	lockdep_assert_held(&mm->swap_lock);
	for (unsigned long i = 0; i < nr; i++)
		mm->swap_cache[slot + i] = (uint32_t)page_idx(mm, page) + 1;
	mm->swap_slot_of[page_idx(mm, page)] = (uint32_t)slot;
	page_flags_set(page, PG_swapcache);
	atomic_fetch_add_explicit(&mm->swapcache_pages, nr, memory_order_relaxed);
}

bool add_to_swap(struct cma_mm *mm, struct cma_page *page)
{
	unsigned long nr = 1ul << page_order(page);
	long slot;

	spin_lock(&mm->swap_lock);
	slot = mm->swap_map ? get_swap_pages_locked(mm, nr) : -1;
	if (slot >= 0)
		add_to_swap_cache_locked(mm, page, (unsigned long)slot, nr);
	spin_unlock(&mm->swap_lock);
	return slot >= 0;
}

unsigned long page_swap_slot(struct cma_mm *mm, const struct cma_page *page)
{
	return mm->swap_slot_of[page_idx(mm, page)];
}

/* The cache lets go of @page's slots, leaving @shadow in them. swap_lock held. */
static void __delete_from_swap_cache_locked(struct cma_mm *mm, struct cma_page *page,
					    bool unmapped, uint64_t shadow)
{
	unsigned long slot = page_swap_slot(mm, page), nr = 1ul << page_order(page);

	lockdep_assert_held(&mm->swap_lock);
	for (unsigned long i = 0; i < nr; i++) {
		mm->swap_cache[slot + i] = 0;
		mm->swap_shadow[slot + i] = shadow;
		if (unmapped)
			swap_duplicate_locked(mm, slot + i);
		swapcache_free_locked(mm, slot + i);
	}
	page_flags_clear(page, PG_swapcache);
	atomic_fetch_sub_explicit(&mm->swapcache_pages, nr, memory_order_relaxed);
}

void delete_from_swap_cache_reclaim(struct cma_mm *mm, struct cma_page *page, bool unmapped)
{
	/* workingset_eviction ticks the clock: stamp the shadow before the lock */
	uint64_t shadow = workingset_eviction_anon(mm, page);

	spin_lock(&mm->swap_lock);
	__delete_from_swap_cache_locked(mm, page, unmapped, shadow);
	spin_unlock(&mm->swap_lock);
}

void delete_from_swap_cache(struct cma_mm *mm, struct cma_page *page)
{
	spin_lock(&mm->swap_lock);
	__delete_from_swap_cache_locked(mm, page, false, 0);
	spin_unlock(&mm->swap_lock);
}

void migrate_swap_cache(struct cma_mm *mm, struct cma_page *page, struct cma_page *newpage)
{
	unsigned long slot, nr = 1ul << page_order(page);

	if (!page_test(page, PG_swapcache))
		return;
	spin_lock(&mm->swap_lock);
	slot = page_swap_slot(mm, page);
	for (unsigned long i = 0; i < nr; i++)
		mm->swap_cache[slot + i] = (uint32_t)page_idx(mm, newpage) + 1;
	mm->swap_slot_of[page_idx(mm, newpage)] = (uint32_t)slot;
	spin_unlock(&mm->swap_lock);
	page_flags_clear(page, PG_swapcache);
}

/* The page of the swap cache at @slot, or NULL. swap_lock held. */
struct cma_page *lookup_swap_cache_locked(struct cma_mm *mm, unsigned long slot)
{
	lockdep_assert_held(&mm->swap_lock);
	return mm->swap_cache[slot] ? pfn_to_page(mm, mm->base_pfn + mm->swap_cache[slot] - 1) : NULL;
}

uint64_t cma_page_swap_entry(struct cma_mm *mm, const struct cma_page *page)
{
	if (!page_test(page, PG_swapcache))
		return 0;
	return page_swap_slot(mm, page) + 1;
}
