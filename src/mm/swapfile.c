// SPDX-License-Identifier: GPL-2.0
/*
 * Swap space (the kernel's mm/swapfile.c): one device of mm->swap_bytes,
 * its use in mm->swap_used, changed atomically (proc.c reads it). A slot
 * is taken when reclaim swaps an anonymous page out, kept by the swap
 * cache and then by the owner as its swap entry, and given back when the
 * owner drops the page from the swap cache or frees the entry. It sits
 * below swap.c and vmscan.c, which both give slots back.
 */
#include <errno.h>

#include "mm/internal.h"

bool swap_room(struct cma_mm *mm, uint64_t bytes)
{
	return mm->swap_bytes - __atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED) >= bytes;
}

/* get_swap_page: reserve @bytes of swap, or false when it is full. */
bool swap_reserve(struct cma_mm *mm, uint64_t bytes)
{
	uint64_t used = __atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED);

	do {
		if (mm->swap_bytes - used < bytes)
			return false;
	} while (!__atomic_compare_exchange_n(&mm->swap_used, &used, used + bytes, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

/* The swap-out did not happen, or the page left the swap cache: the slot goes back. */
void swap_unreserve(struct cma_mm *mm, uint64_t bytes)
{
	__atomic_fetch_sub(&mm->swap_used, bytes, __ATOMIC_RELAXED);
}

/*
 * cma_swap_free() - the owner lets go of swap entries of pages reclaim
 * swapped out: free_swap_and_cache() as the process unmaps or exits, or
 * swap_free() once a swap-in no longer needs the slot. The slots are
 * free for the next swap-out.
 */
int cma_swap_free(struct cma_mm *mm, unsigned long nr_pages)
{
	uint64_t held = __atomic_load_n(&mm->swap_entries, __ATOMIC_RELAXED);

	do {
		if (held < nr_pages) {
			cma_mm_pr_err(mm, "cma_swap_free: %lu swap entries freed but owners hold %llu\n",
				  nr_pages, (unsigned long long)held);
			return -EINVAL;
		}
	} while (!__atomic_compare_exchange_n(&mm->swap_entries, &held, held - nr_pages, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	swap_unreserve(mm, (uint64_t)nr_pages << mm->page_shift);
	return 0;
}
