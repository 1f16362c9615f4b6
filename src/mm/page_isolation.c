// SPDX-License-Identifier: GPL-2.0
/*
 * Page isolation (mm/page_isolation.c with seed 006): mark pageblocks
 * MIGRATE_ISOLATE so that the allocator hands out none of their pages
 * while their contents are migrated away, and restore a given type after.
 * A failed range isolation undoes the pageblocks it already changed.
 */
#include "mm/internal.h"

static struct cma_page *__first_valid_page(struct cma_mm *mm, unsigned long pfn, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++)
		if (pfn_valid(mm, pfn + i))
			return pfn_to_page(mm, pfn + i);
	return NULL;
}

/*
 * Does [@start, @end) of one pageblock hold a page that is reserved
 * (4.15 on) or in use off the LRU and no hugetlb page's? Like the
 * kernel's PageLRU test, this refuses an owner's page still in a CPU's
 * pagevec (or isolated by someone else): alloc_contig_range drains the
 * pagevecs only after isolation (migrate_prep, 5.13's lru_cache_disable).
 * The library has no non-LRU movable pages (__PageMovable), so an
 * owner's page counts only when on the LRU.
 */
static bool range_has_unmovable_page(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	for (unsigned long pfn = start; pfn < end; pfn++) {
		struct cma_page *page;

		if (!pfn_valid(mm, pfn))
			continue;
		page = pfn_to_page(mm, pfn);
		if (mm->kernel.isolate_scan_movable && page_test(page, PG_reserved))
			return true;
		if (!page_count(page)) {
			if (page_test(page, PG_buddy))
				pfn += (1ul << page_order(page)) - 1;
			continue;
		}
		/*
		 * 6.12 passes a hugetlb page as movable when its size can
		 * migrate (hugepage_migration_supported: both of x86's);
		 * alloc_contig_range fails on it later, after the drains.
		 */
		if (page_test(page, PG_hugetlb)) {
			pfn += (1ul << page_order(page)) - 1;
			continue;
		}
		if (!page_test(page, PG_lru))
			return true;
	}
	return false;
}

/*
 * has_unmovable_pages: may the pageblock holding [@start, @end) be
 * isolated for a @migratetype allocation? Only [@start, @end) is
 * scanned. By release:
 * - v3.5 (__count_immobile_pages): ZONE_MOVABLE, MOVABLE and CMA blocks
 *   without a look; others when no page is in use off the LRU;
 * - 4.15 (isolate_scan_movable): every block is scanned but
 *   ZONE_MOVABLE's and, for a MIGRATE_CMA request, CMA ones;
 * - 5.1 (isolate_cma_refuse): a CMA block is refused unless MIGRATE_CMA
 *   is asked for, so that no other caller turns it into another type.
 * zone->lock held.
 */
static bool has_unmovable_pages(struct cma_mm *mm, struct zone *zone, unsigned long start,
				unsigned long end, int migratetype)
{
	int mt = get_pageblock_migratetype(mm, start);

	lockdep_assert_held(&zone->lock);
	if (is_migrate_cma(mt)) {
		if (is_migrate_cma(migratetype) || !mm->kernel.isolate_scan_movable)
			return false;
		if (mm->kernel.isolate_cma_refuse)
			return true;
	}
	if (zone->idx == ZONE_MOVABLE)
		return false;
	if (mt == MIGRATE_MOVABLE && !mm->kernel.isolate_scan_movable)
		return false;
	return range_has_unmovable_page(mm, start, end);
}

/*
 * Isolate the pageblock holding @page for a @migratetype allocation of
 * [@start, @end) (which the block must intersect): 0, or -EBUSY when
 * it is isolated already or holds an unmovable page in the range.
 */
int set_migratetype_isolate(struct cma_mm *mm, struct cma_page *page, int migratetype,
			    unsigned long start, unsigned long end)
{
	struct zone *zone = page_zone(mm, page);
	unsigned long pfn = pageblock_start(mm, page_to_pfn(mm, page));
	unsigned long check_start = start > pfn ? start : pfn;
	unsigned long check_end = pfn + mm->pageblock_nr_pages;
	int ret = -EBUSY;

	if (check_end > end)
		check_end = end;
	spin_lock(&zone->lock);
	/* an ISOLATE block is someone else's isolation: refuse, as later kernels do */
	if (get_pageblock_migratetype(mm, pfn) != MIGRATE_ISOLATE &&
	    !has_unmovable_pages(mm, zone, check_start, check_end, migratetype)) {
		atomic_fetch_add(&mm->isolated_pageblocks, 1);
		move_freepages_block_isolate(zone, page, MIGRATE_ISOLATE);
		ret = 0;
	}
	spin_unlock(&zone->lock);
	if (!ret)
		drain_all_pages(mm, zone);
	return ret;
}

void unset_migratetype_isolate(struct cma_mm *mm, struct cma_page *page, int migratetype)
{
	struct zone *zone = page_zone(mm, page);
	unsigned long pfn = page_to_pfn(mm, page);

	spin_lock(&zone->lock);
	if (get_pageblock_migratetype(mm, pfn) == MIGRATE_ISOLATE) {
		move_freepages_block_isolate(zone, page, migratetype);
		atomic_fetch_sub(&mm->isolated_pageblocks, 1);
	}
	spin_unlock(&zone->lock);
}

int start_isolate_page_range(struct cma_mm *mm, unsigned long start, unsigned long end,
			     int migratetype)
{
	unsigned long first = pageblock_start(mm, start), last = pageblock_end(mm, end);
	unsigned long pfn;

	for (pfn = first; pfn < last; pfn += mm->pageblock_nr_pages) {
		struct cma_page *page = __first_valid_page(mm, pfn, mm->pageblock_nr_pages);

		if (page && set_migratetype_isolate(mm, page, migratetype, start, end))
			goto undo;
	}
	VM_VERIFY_PAGEBLOCKS(mm, first, last, MIGRATE_ISOLATE, "start_isolate_page_range");
	return 0;
undo:
	for (unsigned long p = first; p < pfn; p += mm->pageblock_nr_pages) {
		struct cma_page *page = __first_valid_page(mm, p, mm->pageblock_nr_pages);

		if (page)
			unset_migratetype_isolate(mm, page, migratetype);
	}
	VM_VERIFY_PAGEBLOCKS(mm, first, pfn, migratetype, "start_isolate_page_range undo");
	return -EBUSY;
}

void undo_isolate_page_range(struct cma_mm *mm, unsigned long start, unsigned long end,
			     int migratetype)
{
	for (unsigned long pfn = start; pfn < end; pfn += mm->pageblock_nr_pages) {
		struct cma_page *page = __first_valid_page(mm, pfn, mm->pageblock_nr_pages);

		if (page && get_pageblock_migratetype(mm, pfn) == MIGRATE_ISOLATE)
			unset_migratetype_isolate(mm, page, migratetype);
	}
	VM_VERIFY_PAGEBLOCKS(mm, start, end, migratetype, "undo_isolate_page_range");
}

/* Every page free (in buddy) or in a free pcp block recorded ISOLATE. zone->lock held. */
static bool __test_page_isolated_in_pageblock(struct zone *zone, unsigned long pfn,
					      unsigned long end)
{
	struct cma_mm *mm = zone->mm;

	lockdep_assert_held(&zone->lock);
	while (pfn < end) {
		struct cma_page *page;

		if (!pfn_valid(mm, pfn)) {
			pfn++;
			continue;
		}
		page = pfn_to_page(mm, pfn);
		if (page_test(page, PG_buddy))
			pfn += 1ul << page_order(page);
		else if (!page_count(page) && page_test(page, PG_pcp) &&
			 page->private == MIGRATE_ISOLATE)
			pfn += 1ul << page_order(page);
		else
			return false;
	}
	return true;
}

int test_pages_isolated(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	struct cma_page *page;
	struct zone *zone;
	unsigned long pfn;
	bool ok;

	for (pfn = start; pfn < end; pfn += mm->pageblock_nr_pages) {
		page = __first_valid_page(mm, pfn, mm->pageblock_nr_pages);
		if (page && get_pageblock_migratetype(mm, pfn) != MIGRATE_ISOLATE)
			return -EBUSY;
	}
	page = __first_valid_page(mm, start, end - start);
	if (!page)
		return -EBUSY;
	zone = page_zone(mm, page);
	spin_lock(&zone->lock);
	ok = __test_page_isolated_in_pageblock(zone, start, end);
	spin_unlock(&zone->lock);
	return ok ? 0 : -EBUSY;
}

/* ---- public entry points: checked, and serialized by the CMA mutex ---- */

static int check_isolate_range(struct cma_mm *mm, const char *fn, unsigned long start,
			       unsigned long end, int migratetype)
{
	int ret = mm_require_phase(mm, MM_BOOTED, fn);

	if (ret)
		return ret;
	/*
	 * Any pageblock-aligned range, as v3.5's callers (memory offlining,
	 * soft offline) ask for; a free block straddling its edge is split
	 * (move_freepages_block_isolate).
	 */
	if (start >= end || start < mm->base_pfn || end > mm->end_pfn ||
	    (start | end) & (mm->pageblock_nr_pages - 1)) {
		cma_mm_pr_err(mm, "%s: range [%#lx, %#lx) refused: it must be non-empty, within memory and aligned to pageblocks (%lu pages)\n",
			  fn, start, end, mm->pageblock_nr_pages);
		return -EINVAL;
	}
	if (migratetype < 0 || migratetype >= MIGRATE_TYPES || migratetype == MIGRATE_ISOLATE) {
		cma_mm_pr_err(mm, "%s: migratetype %d refused: accepted 0..%d except MIGRATE_ISOLATE\n",
			  fn, migratetype, MIGRATE_TYPES - 1);
		return -EINVAL;
	}
	return 0;
}

int cma_start_isolate_page_range(struct cma_mm *mm, unsigned long start, unsigned long end,
				 int migratetype)
{
	int ret = check_isolate_range(mm, "start_isolate_page_range", start, end, migratetype);

	if (ret)
		return ret;
	pthread_mutex_lock(&mm->cma_mutex);
	ret = start_isolate_page_range(mm, start, end, migratetype);
	pthread_mutex_unlock(&mm->cma_mutex);
	return ret;
}

int cma_undo_isolate_page_range(struct cma_mm *mm, unsigned long start, unsigned long end,
				int migratetype)
{
	int ret = check_isolate_range(mm, "undo_isolate_page_range", start, end, migratetype);

	if (ret)
		return ret;
	pthread_mutex_lock(&mm->cma_mutex);
	undo_isolate_page_range(mm, start, end, migratetype);
	pthread_mutex_unlock(&mm->cma_mutex);
	return 0;
}

int cma_test_pages_isolated(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	int ret = mm_require_phase(mm, MM_BOOTED, "test_pages_isolated");

	if (ret)
		return ret;
	if (start >= end || start < mm->base_pfn || end > mm->end_pfn)
		return -EINVAL;
	return test_pages_isolated(mm, start, end);
}
