// SPDX-License-Identifier: GPL-2.0
/*
 * Mlocked pages (mm/mlock.c): an owner may pin a movable page's contents
 * in memory, as mlock() does a process's pages. Such a page is
 * unevictable: it lives on LRU_UNEVICTABLE, which reclaim never scans.
 * v3.5's compaction and alloc_contig_range never isolate it, so a range
 * holding one stays busy; alloc_contig_range migrates it from 3.7
 * (kernel.contig_unevictable), compaction from 4.1
 * (kernel.compact_unevictable).
 *
 * The one idea: the page's LRU list follows from its flags (page_lru),
 * so the flag changes under zone->lru_lock together with the move
 * between lists; a page in a pagevec or isolated has no list yet and
 * takes the right one when it is put back.
 */
#include "mm/internal.h"
#include "mm/mm_inline.h"

/**
 * cma_page_set_mlocked() - mlock_vma_page() / munlock_vma_page(): mark
 * a movable page unevictable, or evictable again, moving it between its
 * LRU list and LRU_UNEVICTABLE and counting it in NR_MLOCK (Mlocked: in
 * /proc/meminfo) meanwhile. The caller holds a reference (its own, or a
 * cma_page_tryget() one), as for cma_page_set_dirty().
 */
void cma_page_set_mlocked(struct cma_mm *mm, struct cma_page *page, bool mlocked)
{
	struct zone *zone;
	bool on_lru;

	/* mlock_fixup leaves a hugetlb VMA's pages alone */
	if (!page_test(page, PG_movable) || page_test(page, PG_hugetlb)) {
		cma_mm_pr_err(mm, "cma_page_set_mlocked: pfn %#lx is not a movable page on an LRU list\n",
			  page_to_pfn(mm, page));
		return;
	}
	zone = page_zone(mm, page);
	spin_lock(&zone->lru_lock);
	if (page_test(page, PG_mlocked) == mlocked) {
		spin_unlock(&zone->lru_lock);
		return;
	}
	on_lru = page_test(page, PG_lru);
	if (on_lru)
		del_page_from_lru_list(zone, page, page_lru(page));
	if (mlocked)
		page_flags_set(page, PG_mlocked);
	else
		page_flags_clear(page, PG_mlocked);
	if (on_lru)
		add_page_to_lru_list(zone, page, page_lru(page));
	mod_zone_page_state(zone, NR_MLOCK, (mlocked ? 1l : -1l) * (1l << page_order(page)));
	spin_unlock(&zone->lru_lock);
}
