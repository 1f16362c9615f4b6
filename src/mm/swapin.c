// SPDX-License-Identifier: GPL-2.0
/*
 * Swap-in (do_swap_page's half in mm/memory.c, and swapin_readahead of
 * mm/swap_state.c): the owner's swap entry is looked up in the swap
 * cache; a page read ahead earlier is simply taken. Otherwise the slots
 * around the entry's are read with it, in one plugged batch: each slot
 * in use and not cached gets a page in the swap cache and on the
 * inactive anon list (pswpin counts each), the slots read in a row
 * merging into one request; such a fault is a major one (pgmajfault).
 * The window is 2^page-cluster slots aligned on that size; from 3.14
 * (kernel.swapin_ra_adaptive) it grows with the read-ahead pages used
 * since the last swap-in and shrinks to one page when none were and the
 * fault is not next to the last one.
 *
 * It allocates, so it sits above the slow path with memory.c.
 */
#include "mm/internal.h"

/*
 * swapin_nr_pages (3.14): 2 plus the hits, rounded up to a power of two
 * of at least 4; with no hits 2 for a fault next to the last, else 1;
 * never below half the last window, never above 2^page-cluster.
 * swap_lock held.
 */
static unsigned swapin_nr_pages_locked(struct cma_mm *mm, unsigned long slot)
{
	unsigned max = 1u << mm->page_cluster, hits, pages;

	lockdep_assert_held(&mm->swap_lock);
	if (!mm->kernel.swapin_ra_adaptive || max <= 1)
		return max;
	hits = atomic_exchange_explicit(&mm->swapin_readahead_hits, 0, memory_order_relaxed);
	if (!hits) {
		pages = slot == mm->swap_ra_prev_offset + 1 || slot + 1 == mm->swap_ra_prev_offset ?
			2 : 1;
		mm->swap_ra_prev_offset = slot;
	} else {
		pages = 4;
		while (pages < hits + 2)
			pages <<= 1;
	}
	if (pages > max)
		pages = max;
	if (pages < mm->swap_ra_last_pages / 2)
		pages = mm->swap_ra_last_pages / 2;
	mm->swap_ra_last_pages = pages;
	return pages;
}

/*
 * read_swap_cache_async: read @slot into a new page of the swap cache,
 * owned by swapper_ops until an owner takes it. NULL if the slot is free
 * (no owner holds it), already cached, or no page could be had.
 */
static struct cma_page *read_swap_cache_async(struct cma_mm *mm, cma_gfp_t gfp, unsigned long slot)
{
	struct cma_page *page;
	uint64_t shadow;

	spin_lock(&mm->swap_lock);
	if (!(mm->swap_map[slot] & SWAP_COUNT_MASK) || (mm->swap_map[slot] & SWAP_HAS_CACHE)) {
		spin_unlock(&mm->swap_lock);
		return NULL;
	}
	mm->swap_map[slot] |= SWAP_HAS_CACHE;	/* swapcache_prepare: the slot is ours to fill */
	spin_unlock(&mm->swap_lock);
	page = alloc_owned_page(mm, "cma_swapin", gfp, &swapper_ops, mm, slot, false);
	spin_lock(&mm->swap_lock);
	if (!page) {
		swapcache_free_locked(mm, slot);
		spin_unlock(&mm->swap_lock);
		return NULL;
	}
	add_to_swap_cache_locked(mm, page, slot, 1);
	shadow = mm->swap_shadow[slot];
	mm->swap_shadow[slot] = 0;
	spin_unlock(&mm->swap_lock);
	count_vm_event(mm, PSWPIN);
	if (shadow)
		workingset_refault_anon(mm, page, shadow);
	return page;
}

/* Mark @slot's page as read ahead (SetPageReadahead): its first use is a hit. */
static void set_readahead(struct cma_mm *mm, unsigned long slot)
{
	spin_lock(&mm->swap_lock);
	mm->swap_map[slot] |= SWAP_RA;
	spin_unlock(&mm->swap_lock);
	count_vm_event(mm, SWAP_RA_EVENT);
}

/* swapin_readahead: the window around @slot read in one plugged batch; the requests it made. */
static unsigned swapin_readahead(struct cma_mm *mm, cma_gfp_t gfp, unsigned long slot,
				 struct cma_swapin_stat *st)
{
	unsigned long mask, start, end;
	bool prev_read = false;
	unsigned nr_io = 0;

	spin_lock(&mm->swap_lock);
	mask = swapin_nr_pages_locked(mm, slot) - 1;
	spin_unlock(&mm->swap_lock);
	start = slot & ~mask;
	end = slot | mask;
	if (end >= mm->swap_max)
		end = mm->swap_max - 1;
	for (unsigned long s = start; s <= end; s++) {
		bool read = read_swap_cache_async(mm, gfp, s) != NULL;

		if (read && s != slot)
			set_readahead(mm, s);
		nr_io += read && !prev_read;	/* the plug merges reads in a row */
		st->nr_read += read;
		prev_read = read;
	}
	lru_add_drain(mm);
	return nr_io;
}

/*
 * The cached page of @slot for the owner: 0 and *@pagep, or -EAGAIN if
 * reclaim or migration holds it this instant, -ENOENT if none, -ESRCH if
 * the owner let go of the entry meanwhile (an OOM kill the read's
 * allocation caused ended its process).
 */
static int take_swap_cache(struct cma_mm *mm, unsigned long slot, const struct cma_owner_ops *ops,
			   void *owner, uint64_t index, int ops_id, struct cma_page **pagep,
			   struct cma_swapin_stat *st)
{
	struct cma_page *page;
	int ret = -ENOENT;

	spin_lock(&mm->swap_lock);
	page = lookup_swap_cache_locked(mm, slot);
	if (!(mm->swap_map[slot] & SWAP_COUNT_MASK)) {
		ret = -ESRCH;
	} else if (page && (page->owner != mm || page_test(page, PG_isolated) ||
		     !get_page_unless_zero(page))) {
		ret = -EAGAIN;
	} else if (page) {
		page->owner = owner;
		page->private = index;
		page_set_field(page, PG_OPS_MASK, PG_OPS_SHIFT, (unsigned)ops_id);
		if (mm->swap_map[slot] & SWAP_RA) {
			st->ra_hit = true;
			atomic_fetch_add_explicit(&mm->swapin_readahead_hits, 1, memory_order_relaxed);
		}
		mm->swap_map[slot] &= (uint8_t)~SWAP_RA;
		*pagep = page;
		ret = 0;
	}
	spin_unlock(&mm->swap_lock);
	if (ret)
		return ret;
	if (st->ra_hit)
		count_vm_event(mm, SWAP_RA_HIT);
	put_page(mm, page);	/* the owner's reference is the cache's */
	return 0;
}

/*
 * The owner maps the page: swap_free(entry), then try_to_free_swap at
 * once (departure: the kernel frees a read-faulted page's slot only when
 * swap is half full; cmasim takes every swap-in as a write fault).
 */
static void map_swapped_page(struct cma_mm *mm, struct cma_page *page, unsigned long slot)
{
	spin_lock(&mm->swap_lock);
	swap_entry_free_locked(mm, slot);
	spin_unlock(&mm->swap_lock);
	delete_from_swap_cache(mm, page);
}

int cma_swapin(struct cma_mm *mm, uint64_t entry, cma_gfp_t gfp, const struct cma_owner_ops *ops,
	       void *owner, uint64_t index, struct cma_page **pagep, struct cma_swapin_stat *st)
{
	int id = ops && ops->anon && ops->migrate ? owner_ops_id(mm, ops) : -1;
	unsigned long slot = (unsigned long)entry - 1;
	bool valid;
	int ret;

	*st = (struct cma_swapin_stat){ 0 };
	*pagep = NULL;
	if (mm_require_phase(mm, MM_BOOTED, "cma_swapin"))
		return -EINVAL;
	spin_lock(&mm->swap_lock);
	valid = mm->swap_map && swap_entry_valid_locked(mm, entry);
	spin_unlock(&mm->swap_lock);
	if (!valid || id < 0) {
		cma_mm_pr_err(mm, "cma_swapin: %s\n", valid ? "anonymous owner ops with a migrate "
			      "callback are required" : "no swap entry an owner holds");
		return -EINVAL;
	}
	ret = take_swap_cache(mm, slot, ops, owner, index, id, pagep, st);
	if (ret == -ENOENT) {
		st->nr_io = swapin_readahead(mm, gfp, slot, st);
		ret = take_swap_cache(mm, slot, ops, owner, index, id, pagep, st);
		/* had to read the page from the swap area: a major fault */
		if (!ret)
			count_vm_event(mm, PGMAJFAULT);
	}
	if (ret)
		return ret == -EAGAIN ? ret : -ENOMEM;
	map_swapped_page(mm, *pagep, slot);
	return 0;
}
