// SPDX-License-Identifier: GPL-2.0
/*
 * Swap space (the kernel's mm/swapfile.c): one device of mm->swap_bytes
 * cut into page-sized slots, swap_map[] counting who holds each (the
 * swap cache's SWAP_HAS_CACHE and the owners' entries), its use in
 * mm->swap_used, changed atomically (proc.c reads it).
 *
 * The one idea: slots are handed out in order from a cursor
 * (scan_swap_map's cluster_next), so the pages one reclaim pass swaps
 * out lie side by side, and swap-in's read-ahead (swap_state.c) reads
 * that neighbourhood back. Departure: 3.5 also restarts the cursor at a
 * free run of SWAPFILE_CLUSTER slots every 256 allocations, and 6.12
 * hands each CPU its own cluster; with one device and one cursor both
 * come to the same order here. Slot 0 is not kept for a swap header.
 */
#include <errno.h>
#include <stdlib.h>

#include "mm/internal.h"

int swap_init(struct cma_mm *mm)
{
	spin_lock_init(&mm->swap_lock);
	mm->page_cluster = SWAP_PAGE_CLUSTER_DEFAULT;
	mm->swap_max = (unsigned long)(mm->swap_bytes >> mm->page_shift);
	if (!mm->swap_max)
		return 0;
	mm->swap_map = calloc(mm->swap_max, sizeof(*mm->swap_map));
	mm->swap_cache = calloc(mm->swap_max, sizeof(*mm->swap_cache));
	mm->swap_shadow = calloc(mm->swap_max, sizeof(*mm->swap_shadow));
	return mm->swap_map && mm->swap_cache && mm->swap_shadow ? 0 : -ENOMEM;
}

void swap_exit(struct cma_mm *mm)
{
	free(mm->swap_map);
	free(mm->swap_cache);
	free(mm->swap_shadow);
	mm->swap_map = NULL;
	mm->swap_cache = NULL;
	mm->swap_shadow = NULL;
}

bool swap_room(struct cma_mm *mm, uint64_t bytes)
{
	return mm->swap_bytes - __atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED) >= bytes;
}

static bool run_free_locked(struct cma_mm *mm, unsigned long slot, unsigned long nr)
{
	lockdep_assert_held(&mm->swap_lock);
	for (unsigned long i = 0; i < nr; i++)
		if (mm->swap_map[slot + i])
			return false;
	return true;
}

/*
 * get_swap_page: @nr free slots in a row from the cursor on, wrapping
 * once, taken for the swap cache. The first slot, or -1 when none.
 * Called with swap_lock held.
 */
long get_swap_pages_locked(struct cma_mm *mm, unsigned long nr)
{
	unsigned long start = mm->cluster_next, slot = start;

	lockdep_assert_held(&mm->swap_lock);
	if (!swap_room(mm, nr << mm->page_shift) || nr > mm->swap_max)
		return -1;
	do {
		if (slot + nr > mm->swap_max)
			slot = 0;
		if (run_free_locked(mm, slot, nr)) {
			for (unsigned long i = 0; i < nr; i++)
				mm->swap_map[slot + i] = SWAP_HAS_CACHE;
			mm->cluster_next = slot + nr;
			__atomic_fetch_add(&mm->swap_used, nr << mm->page_shift, __ATOMIC_RELAXED);
			return (long)slot;
		}
		slot++;
	} while (slot != start);
	return -1;
}

/* The slot's last holder went: it is free for the next swap-out. swap_lock held. */
static void swap_slot_put_locked(struct cma_mm *mm, unsigned long slot)
{
	lockdep_assert_held(&mm->swap_lock);
	if (!mm->swap_map[slot])
		__atomic_fetch_sub(&mm->swap_used, mm->page_size, __ATOMIC_RELAXED);
}

/* swapcache_free: the swap cache lets go of @slot. swap_lock held. */
void swapcache_free_locked(struct cma_mm *mm, unsigned long slot)
{
	lockdep_assert_held(&mm->swap_lock);
	mm->swap_map[slot] &= (uint8_t)~(SWAP_HAS_CACHE | SWAP_RA);
	swap_slot_put_locked(mm, slot);
}

/* swap_duplicate: an owner takes the entry of @slot (try_to_unmap's swap PTE). swap_lock held. */
void swap_duplicate_locked(struct cma_mm *mm, unsigned long slot)
{
	lockdep_assert_held(&mm->swap_lock);
	mm->swap_map[slot]++;
	__atomic_fetch_add(&mm->swap_entries, 1, __ATOMIC_RELAXED);
}

/* swap_free: an owner lets go of its entry of @slot. swap_lock held. */
void swap_entry_free_locked(struct cma_mm *mm, unsigned long slot)
{
	lockdep_assert_held(&mm->swap_lock);
	mm->swap_map[slot]--;
	__atomic_fetch_sub(&mm->swap_entries, 1, __ATOMIC_RELAXED);
	swap_slot_put_locked(mm, slot);
}

/* An entry an owner may hold: a slot in range with an owner's count. swap_lock held. */
bool swap_entry_valid_locked(struct cma_mm *mm, uint64_t entry)
{
	lockdep_assert_held(&mm->swap_lock);
	return entry && entry <= mm->swap_max && (mm->swap_map[entry - 1] & SWAP_COUNT_MASK);
}

/*
 * cma_swap_free() - free_swap_and_cache(): the owner drops the swap
 * entries @entry .. @entry + @nr_pages - 1. Departure: a page still in
 * the swap cache for a slot (read ahead, never used) stays there, as
 * when the kernel's trylock of it fails, until reclaim takes it.
 */
int cma_swap_free(struct cma_mm *mm, uint64_t entry, unsigned long nr_pages)
{
	unsigned long i;

	spin_lock(&mm->swap_lock);
	for (i = 0; i < nr_pages; i++)
		if (!swap_entry_valid_locked(mm, entry + i))
			break;
	if (i < nr_pages) {
		spin_unlock(&mm->swap_lock);
		cma_mm_pr_err(mm, "cma_swap_free: entry %#llx is no swap entry an owner holds\n",
			      (unsigned long long)(entry + i));
		return -EINVAL;
	}
	for (i = 0; i < nr_pages; i++)
		swap_entry_free_locked(mm, (unsigned long)(entry + i - 1));
	spin_unlock(&mm->swap_lock);
	return 0;
}

/* vm.page-cluster */
int cma_set_page_cluster(struct cma_mm *mm, unsigned page_cluster)
{
	if (page_cluster > SWAP_PAGE_CLUSTER_MAX) {
		cma_mm_pr_err(mm, "cma_set_page_cluster: %u: accepted 0 to %u\n", page_cluster,
			      SWAP_PAGE_CLUSTER_MAX);
		return -EINVAL;
	}
	spin_lock(&mm->swap_lock);
	mm->page_cluster = page_cluster;
	spin_unlock(&mm->swap_lock);
	return 0;
}
