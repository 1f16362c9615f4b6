// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_contig_range (seeds 003, 006, 008): take a given pfn range out of
 * the buddy allocator whatever it holds now. Isolate the pageblocks
 * (aligned to MAX_ORDER_NR_PAGES, so no free block straddles the edge),
 * migrate every page in use out of the range, make the zone's watermarks
 * safe by reclaim (__reclaim_pages), then take the now free pages, give
 * back the head and tail of the aligned range and undo the isolation.
 * Under the contig_v6 switch, 6.12's: pageblock-aligned isolation, the
 * pagevecs disabled while migrating, no watermark bump.
 *
 * Callers hold mm->cma_mutex: one contiguous allocation at a time.
 */
#include "mm/internal.h"

static unsigned long pfn_max_align_down(struct cma_mm *mm, unsigned long pfn)
{
	return pfn & ~(max_order_nr_pages(mm) - 1);
}

static unsigned long pfn_max_align_up(struct cma_mm *mm, unsigned long pfn)
{
	return (pfn + max_order_nr_pages(mm) - 1) & ~(max_order_nr_pages(mm) - 1);
}

/*
 * v3.5's alloc_migrate_target asks GFP_HIGHUSER_MOVABLE; 4.13's
 * (kernel.retry_mayfail, new_page_nodemask) GFP_USER | __GFP_MOVABLE |
 * __GFP_RETRY_MAYFAIL, with __GFP_HIGHMEM only for a page in highmem or
 * ZONE_MOVABLE, so a target that cannot be found fails the range rather
 * than kill a task (6.12's alloc_migration_target keeps that mask).
 * A hugetlb page's (5.13, contig_hugetlb) is, as
 * alloc_hugetlb_folio_nodemask picks it, a free page of the pool
 * outside the isolated blocks (the old page then goes into the pool
 * when freed), else a fresh one of its size, for which
 * alloc_migrate_hugetlb_folio has alloc_buddy_hugetlb_folio try hard
 * (the old page then goes back to the buddy allocator).
 */
static struct cma_page *alloc_migrate_target(struct cma_mm *mm, struct cma_page *page,
					     unsigned long private)
{
	cma_gfp_t gfp = CMA_GFP_HIGHUSER_MOVABLE;

	if (page_test(page, PG_hugetlb)) {
		struct cma_page *pool = dequeue_huge_page_target(mm, page_order(page));

		return pool ? pool : mark_hugetlb(__alloc_pages(mm, gfp | CMA_GFP_RETRY_MAYFAIL |
								CMA_GFP_NOWARN, page_order(page)));
	}
	if (mm->kernel.retry_mayfail) {
		int zone = page_zone(mm, page)->idx;

		gfp = CMA_GFP_USER | CMA_GFP_MOVABLE | CMA_GFP_RETRY_MAYFAIL;
		if (zone == ZONE_HIGHMEM || zone == ZONE_MOVABLE)
			gfp |= CMA_GFP_HIGHMEM;
	}
	return __alloc_pages(mm, gfp | CMA_GFP_NOWARN, page_order(page));
}

/*
 * No kernel's (cma_mm_config.printk_contig_passes): the debugging printk
 * the linux-mm thread "mm/cma.c: High latency for cma allocation" (Pankaj
 * Suryawanshi, 19 March 2019) put in each pass of this loop and after
 * it, in its format and at printk's default level. That kernel printed
 * the microseconds each pass spent reclaiming, migrating and isolating;
 * the library has no clock, so the same fields carry the pass's pages
 * (a line as long to within a few characters).
 */
static void printk_contig_pass(struct cma_mm *mm, unsigned long reclaimed, unsigned long isolated,
			       uint64_t *migrated)
{
	uint64_t now = vm_event_sum(mm, PGMIGRATE_SUCCESS);

	cma_mm_printk(mm, "LATENCY reclaim= %lu migrate=%llu migrateranges=%lu\n", reclaimed,
		  (unsigned long long)(now - *migrated), isolated);
	*migrated = now;
}

/*
 * One try at @cc's batch: from 3.7 (kernel.contig_reclaim_clean) its
 * clean file pages are freed first (reclaim_clean_pages_from_list) and
 * only the rest migrated. migrate_pages' result; @isolated, the pages
 * the batch took, for printk_contig_pass.
 */
static int contig_migrate_batch(struct cma_mm *mm, struct compact_control *cc,
				enum migrate_reason reason, unsigned long isolated,
				uint64_t *migrated)
{
	unsigned long reclaimed = 0;
	int ret;

	if (mm->kernel.contig_reclaim_clean)
		reclaimed = reclaim_clean_pages_from_list(cc->zone, &cc->migratepages);
	ret = migrate_pages_reason(mm, &cc->migratepages, alloc_migrate_target, 0, MIGRATE_SYNC,
				   reason);
	if (mm->printk_contig_passes)
		printk_contig_pass(mm, reclaimed, isolated, migrated);
	return ret;
}

/*
 * Migrate every LRU page of [start, end) away, batch by batch as
 * compaction does; a batch gets 5 tries, in MIGRATE_SYNC (v23 passed
 * `true`, MIGRATE_SYNC_LIGHT, and "cma: fix migration mode" made it
 * MIGRATE_SYNC before v3.5 was released: a page under writeback is waited
 * for). Returns 0, -EBUSY, -ENOMEM or -EINTR (isolation aborted). v3.5
 * empties only this CPU's pagevecs first (migrate_prep_local);
 * contig_drain_all (3.8) every CPU's (migrate_prep). Under
 * contig_v6, 6.12's: the pagevecs disabled for the whole migration
 * (lru_cache_disable, so that a page sitting in another CPU's pagevec is
 * seen), migrate_pages with MR_CONTIG_RANGE, -ENOMEM ending it at once.
 * Under contig_reclaim_clean (3.7), each try first frees the batch's clean
 * file pages (reclaim_clean_pages_from_list) and migrates only the rest.
 * Under compact_nofs (4.10) a @gfp without __GFP_FS isolates no page with
 * a mapping: its page cache stays where it is, and the range is busy.
 * A large folio (contig_large_folio, 5.7) that finds no target of its
 * order is split by migrate_pages, which migrates its base pages.
 */
static int __alloc_contig_migrate_range(struct cma_mm *mm, unsigned long start, unsigned long end,
					cma_gfp_t gfp)
{
	struct compact_control cc = {
		.order = -1,
		.zone = page_zone(mm, pfn_to_page(mm, start)),
		.sync = true,
		.gfp_mask = gfp,
	};
	bool v6 = mm->kernel.contig_v6;
	unsigned long pfn = start, isolated;
	uint64_t migrated = 0, first = 0;
	unsigned tries = 0;
	int ret = 0;

	compact_control_init_lists(&cc);
	if (v6)
		lru_cache_disable(mm);
	else if (mm->kernel.contig_drain_all)
		lru_add_drain_all(mm);	/* migrate_prep */
	else
		lru_add_drain(mm);	/* migrate_prep_local */
	if (mm->printk_contig_passes)
		migrated = first = vm_event_sum(mm, PGMIGRATE_SUCCESS);
	while (pfn < end || !page_list_empty(&cc.migratepages)) {
		isolated = 0;
		if (page_list_empty(&cc.migratepages)) {
			cc.nr_migratepages = 0;
			pfn = isolate_migratepages_range(cc.zone, &cc, pfn, end);
			if (cc.contig_err || !pfn) {
				ret = cc.contig_err ? cc.contig_err : -EINTR;
				break;
			}
			isolated = cc.nr_migratepages;
			tries = 0;
		} else if (++tries == 5) {
			ret = ret < 0 ? ret : -EBUSY;
			break;
		}
		ret = contig_migrate_batch(mm, &cc, v6 ? MR_CONTIG_RANGE : MR_COMPACTION, isolated,
					   &migrated);
		if (v6 && ret == -ENOMEM)
			break;
	}
	if (mm->printk_contig_passes)
		cma_mm_printk(mm, "OVERALL overall=%llu\n", (unsigned long long)(migrated - first));
	if (v6)
		lru_cache_enable(mm);
	putback_lru_pages(mm, &cc.migratepages);
	return ret > 0 ? 0 : ret;
}

/* Raise (or lower) the zone's marks by @count through min_cma_pages (seed 008). */
static void __update_cma_watermarks(struct zone *zone, long count)
{
	spin_lock(&zone->lock);
	zone->min_cma_pages += count;
	spin_unlock(&zone->lock);
	setup_per_zone_wmarks(zone->mm);
}

/*
 * __reclaim_pages: reclaim until the zone could lose @count pages and
 * stay above its low mark, with the marks raised by @count meanwhile so
 * that kswapd works towards the new level: low + 2 * count in effect.
 * Departure: when neither reclaim nor the OOM handler frees anything,
 * give up with -ENOMEM; the kernel loops (or panics) here.
 */
static int __reclaim_pages(struct zone *zone, cma_gfp_t gfp, unsigned long count)
{
	struct cma_mm *mm = zone->mm;
	const unsigned order = 1;	/* as the seed */
	int ret = 0;

	__update_cma_watermarks(zone, (long)count);
	while (!zone_watermark_ok(zone, 0, low_wmark_pages(zone) + count, 0, 0)) {
		wakeup_kswapd(mm, zone, order, zone->idx);
		/*
		 * As the seed, nothing drains the per-CPU lists here: what
		 * reclaim frees counts once a list overflows its high mark.
		 */
		if (__perform_reclaim(mm, gfp, order))
			continue;
		if (!out_of_memory(mm, gfp, order)) {
			ret = -ENOMEM;
			break;
		}
	}
	__update_cma_watermarks(zone, -(long)count);
	return ret;
}

/* The first free block head at or below @start that isolate_freepages_range may start from. */
static int find_outer_start(struct cma_mm *mm, unsigned long start, unsigned long *outer)
{
	unsigned long pfn = start;
	unsigned order = 0;

	while (!page_test(pfn_to_page(mm, pfn), PG_buddy)) {
		if (++order >= mm->max_order)
			return -EBUSY;
		pfn &= ~0ul << order;
	}
	*outer = pfn;
	return 0;
}

/*
 * Take the free pages of [@outer_start, @end) off the buddy lists and
 * give back those before @start and past @end. 0 or -EBUSY.
 */
static int take_free_range(struct cma_mm *mm, unsigned long start, unsigned long end,
			   unsigned long outer_start)
{
	unsigned long outer_end = isolate_freepages_range(mm, outer_start, end);

	if (!outer_end)
		return -EBUSY;
	if (start != outer_start)
		free_contig_range(mm, outer_start, start - outer_start);
	if (end != outer_end)
		free_contig_range(mm, end, outer_end - end);
	return 0;
}

/* ---- 6.12 (contig_v6) ---- */

/* The range alloc_contig_range isolates: MAX_ORDER-aligned in v3.5, pageblock-aligned since 5.19. */
static void contig_isolation_range(struct cma_mm *mm, unsigned long start, unsigned long end,
				   unsigned long *astart, unsigned long *aend)
{
	if (mm->kernel.contig_v6) {
		*astart = pageblock_start(mm, start);
		*aend = pageblock_end(mm, end);
	} else {
		*astart = pfn_max_align_down(mm, start);
		*aend = pfn_max_align_up(mm, end);
	}
}

/*
 * test_pages_isolated's failure in the log, as each release words it:
 * v3.5 warns; 3.18 (contig_busy_info) says "PFNs busy" at KERN_INFO,
 * ratelimited from 4.14 ("mm: ratelimit PFNs busy info message");
 * 5.13 (contig_busy_quiet) says nothing. cma_alloc's own "memory range
 * ... is busy, retrying" is a pr_debug in every release, which a kernel
 * built without DEBUG or dynamic debug switched on does not print.
 * Departure: the library has no clock, so 4.14's ratelimit (10 lines
 * per 5 s) is not applied; every busy range is logged.
 */
static void contig_report_busy(struct cma_mm *mm, unsigned long outer_start, unsigned long end)
{
	if (mm->kernel.contig_busy_quiet)
		return;
	if (mm->kernel.contig_busy_info)
		cma_mm_printk(mm, KERN_INFO "alloc_contig_range: [%lx, %lx) PFNs busy\n", outer_start, end);
	else
		cma_mm_printk(mm, KERN_WARNING "alloc_contig_range test_pages_isolated(%lx, %lx) failed\n",
			  outer_start, end);
}

/* find_large_buddy: the head of a free block that straddles @start, else @start. */
static unsigned long find_large_buddy(struct cma_mm *mm, unsigned long start)
{
	unsigned long pfn = start;
	unsigned order = 0;

	while (!page_test(pfn_to_page(mm, pfn), PG_buddy)) {
		if (++order >= mm->max_order)
			return start;
		pfn &= ~0ul << order;
	}
	return pfn + (1ul << page_order(pfn_to_page(mm, pfn))) > start ? pfn : start;
}

/*
 * The head of a page in use, other than a hugetlb page, that straddles
 * the pageblock boundary @boundary; else NULL.
 */
static struct cma_page *straddling_folio(struct cma_mm *mm, unsigned long boundary)
{
	struct cma_page *head;

	if (boundary <= mm->base_pfn || boundary >= mm->end_pfn || !pfn_valid(mm, boundary))
		return NULL;
	head = alloc_head_of(mm, boundary);
	if (!head || page_to_pfn(mm, head) == boundary || page_test(head, PG_hugetlb) ||
	    !page_count(head))
		return NULL;
	return head;
}

/*
 * isolate_single_pageblock's pages in use larger than a pageblock that
 * straddle the isolated range's edges (contig_v6, 5.19). A hugetlb page
 * is left to the migration scan, which takes it from a tail as 6.12's
 * PageHuge reads the folio (5.19 to 6.9 migrated it here: the same
 * outcome). Until 6.10 an LRU or owned page is migrated out of the way
 * here; from 6.10 (isolate_straddle_busy) it fails the isolation, as any
 * other page does in every release. 0 or -EBUSY; nothing else migrated.
 */
static int isolate_straddling_folios(struct cma_mm *mm, unsigned long start, unsigned long end,
				     cma_gfp_t gfp)
{
	const unsigned long edge[] = { pageblock_start(mm, start), pageblock_end(mm, end) };

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		struct cma_page *head = straddling_folio(mm, edge[i]);
		unsigned long pfn;

		if (!head)
			continue;
		if (mm->kernel.isolate_straddle_busy || !page_test(head, PG_lru | PG_movable))
			return -EBUSY;
		pfn = page_to_pfn(mm, head);
		if (__alloc_contig_migrate_range(mm, pfn, pfn + (1ul << page_order(head)), gfp))
			return -EBUSY;
	}
	return 0;
}

/*
 * alloc_contig_range of 6.12: isolate the pageblocks the range touches
 * (no wider), drain, migrate (a -EBUSY there still lets
 * test_pages_isolated decide), then take the pages and give back what
 * the free blocks held beyond the range. No watermark bump: since 3.8
 * the allocator does not count free CMA pages for the allocations that
 * cannot use them, so there is nothing to make safe.
 */
static int alloc_contig_range_v6(struct cma_mm *mm, unsigned long start, unsigned long end,
				 int migratetype, cma_gfp_t gfp)
{
	struct zone *zone = page_zone(mm, pfn_to_page(mm, start));
	unsigned long astart, aend, outer_start;
	int ret;

	contig_isolation_range(mm, start, end, &astart, &aend);
	ret = start_isolate_page_range(mm, start, end, migratetype);
	if (ret)
		return ret;
	ret = isolate_straddling_folios(mm, start, end, gfp);
	if (ret)
		goto done;
	drain_all_pages(mm, zone);
	ret = __alloc_contig_migrate_range(mm, start, end, gfp);
	if (ret && ret != -EBUSY)
		goto done;
	/* the pages a migration to a pool page left free in the pool */
	if (mm->kernel.contig_hugetlb_replace) {
		ret = mm->replace_free_huge_pages(mm, start, end);
		if (ret)
			goto done;
	}
	/*
	 * 6.12 frees a page of an isolated pageblock straight to the buddy
	 * lists (free_unref_page); ours go through a per-CPU list first.
	 */
	drain_all_pages(mm, zone);
	outer_start = find_large_buddy(mm, start);
	if (test_pages_isolated(mm, outer_start, end)) {
		contig_report_busy(mm, outer_start, end);
		ret = -EBUSY;
		goto done;
	}
	ret = take_free_range(mm, start, end, outer_start);
done:
	undo_isolate_page_range(mm, astart, aend, migratetype);
	VM_VERIFY_ZONES(mm, "alloc_contig_range");
	return ret;
}

/* alloc_contig_range of v3.5 (the seeds), with the 3.8 and 4.5 switches of the releases between. */
static int alloc_contig_range_v35(struct cma_mm *mm, unsigned long start, unsigned long end,
				  int migratetype, cma_gfp_t gfp)
{
	unsigned long astart = pfn_max_align_down(mm, start), aend = pfn_max_align_up(mm, end);
	struct zone *zone = page_zone(mm, pfn_to_page(mm, start));
	unsigned long outer_start;
	int ret;

	ret = start_isolate_page_range(mm, astart, aend, migratetype);
	if (ret)
		return ret;
	ret = __alloc_contig_migrate_range(mm, start, end, gfp);
	/*
	 * contig_busy_test (4.5): a busy page is test_pages_isolated's to
	 * find and report, from the start of the free block holding @start
	 * or from @start itself when there is none.
	 */
	if (ret && !(ret == -EBUSY && mm->kernel.contig_busy_test))
		goto done;
	/* pages put back or freed on other CPUs must reach the buddy lists */
	lru_add_drain_all(mm);
	drain_all_pages(mm, zone);
	if (mm->kernel.contig_busy_test) {
		outer_start = find_large_buddy(mm, start);
	} else {
		ret = find_outer_start(mm, start, &outer_start);
		if (ret)
			goto done;
	}
	if (test_pages_isolated(mm, outer_start, end)) {
		contig_report_busy(mm, outer_start, end);
		ret = -EBUSY;
		goto done;
	}
	/* kernel.alloc_cma (3.8): no watermark bump, no reclaim here */
	ret = mm->kernel.alloc_cma ? 0 : __reclaim_pages(zone, CMA_GFP_HIGHUSER_MOVABLE, end - start);
	if (ret)
		goto done;
	ret = take_free_range(mm, start, end, outer_start);
done:
	undo_isolate_page_range(mm, astart, aend, migratetype);
	VM_VERIFY_ZONES(mm, "alloc_contig_range");
	return ret;
}

/* @gfp: what compaction may touch (kernel.compact_nofs); v3.5 has none and moves every page */
int alloc_contig_range(struct cma_mm *mm, unsigned long start, unsigned long end, int migratetype,
		       cma_gfp_t gfp)
{
	if (mm->kernel.contig_v6)
		return alloc_contig_range_v6(mm, start, end, migratetype, gfp);
	return alloc_contig_range_v35(mm, start, end, migratetype, gfp);
}

/*
 * free_contig_range (seed 003): page by page, as __free_page does. Order-0
 * pages go through this CPU's per-CPU list (a CMA page rides the MOVABLE
 * one) and count in NR_FREE_PAGES only once a batch is drained to buddy;
 * pages of an isolated block go straight to its ISOLATE list.
 */
void free_contig_range(struct cma_mm *mm, unsigned long pfn, unsigned long nr_pages)
{
	for (; nr_pages--; ++pfn)
		put_page(mm, pfn_to_page(mm, pfn));
}

/* ---- public entry points ---- */

/*
 * May a @migratetype request cover a pageblock of type @mt? v3.5's
 * contract is "all pageblocks of the type asked for". From 3.16
 * (kernel.contig_any_movable) a MOVABLE request takes UNMOVABLE and
 * RECLAIMABLE blocks too: isolation scans them for unmovable pages and
 * the undo retypes them MOVABLE. From 4.4 (kernel.highatomic) so does it
 * HIGHATOMIC blocks: the kernel's alloc_contig_range checks no type, and
 * the zone's nr_reserved_highatomic keeps counting a block so retyped
 * (6.12's unreserve_highatomic_pageblock uncounts only a block still
 * HIGHATOMIC), which holds the reserve's limit that much lower for good.
 * Departure: CMA and RESERVE blocks stay refused, since retyping them
 * would break an area or v3.5's reserve (the kernel does not check).
 */
static bool contig_type_ok(struct cma_mm *mm, int migratetype, int mt)
{
	if (mt == migratetype)
		return true;
	if (migratetype != MIGRATE_MOVABLE)
		return false;
	return (mm->kernel.contig_any_movable && mt < MIGRATE_PCPTYPES) ||
	       (mm->kernel.highatomic && is_migrate_highatomic(mt));
}

/*
 * -EINVAL here for what the kernel would BUG on or corrupt: a range
 * outside memory or across zones, a type other than MOVABLE or CMA, or
 * a pageblock in the aligned range that contig_type_ok() refuses.
 */
static int check_contig_range(struct cma_mm *mm, unsigned long start, unsigned long end,
			      int migratetype)
{
	unsigned long astart, aend;
	struct zone *zone;

	if (start >= end || start < mm->base_pfn || end > mm->end_pfn || !pfn_valid(mm, start)) {
		cma_mm_pr_err(mm, "alloc_contig_range: [%#lx, %#lx) is not a range of this machine's memory\n",
			  start, end);
		return -EINVAL;
	}
	contig_isolation_range(mm, start, end, &astart, &aend);
	if (migratetype != MIGRATE_MOVABLE && migratetype != MIGRATE_CMA) {
		cma_mm_pr_err(mm, "alloc_contig_range: migratetype %d refused: MIGRATE_MOVABLE (%d) or MIGRATE_CMA (%d)\n",
			  migratetype, MIGRATE_MOVABLE, MIGRATE_CMA);
		return -EINVAL;
	}
	zone = pfn_zone(mm, start);
	if (!zone || !zone_spans_pfn(zone, astart) || !zone_spans_pfn(zone, aend - 1)) {
		cma_mm_pr_err(mm, "alloc_contig_range: [%#lx, %#lx) aligned to [%#lx, %#lx) leaves zone %s\n",
			  start, end, astart, aend, zone ? zone->name : "(none)");
		return -EINVAL;
	}
	for (unsigned long pfn = astart; pfn < aend; pfn += mm->pageblock_nr_pages) {
		if (!pfn_valid(mm, pfn) ||
		    !contig_type_ok(mm, migratetype, get_pageblock_migratetype(mm, pfn))) {
			cma_mm_pr_err(mm, "alloc_contig_range: pageblock at pfn %#lx is %s, not %s: every pageblock of [%#lx, %#lx) must be\n",
				  pfn, pfn_valid(mm, pfn) ? migratetype_name(get_pageblock_migratetype(mm, pfn)) : "a hole",
				  migratetype_name(migratetype), astart, aend);
			return -EINVAL;
		}
	}
	return 0;
}

int cma_alloc_contig_range(struct cma_mm *mm, unsigned long start, unsigned long end, int migratetype)
{
	int ret = mm_require_phase(mm, MM_BOOTED, "alloc_contig_range");

	if (ret)
		return ret;
	pthread_mutex_lock(&mm->cma_mutex);
	ret = check_contig_range(mm, start, end, migratetype);
	if (!ret)
		ret = alloc_contig_range(mm, start, end, migratetype, CMA_GFP_KERNEL);
	pthread_mutex_unlock(&mm->cma_mutex);
	return ret;
}

void cma_free_contig_range(struct cma_mm *mm, unsigned long pfn, unsigned long nr_pages)
{
	if (mm_require_phase(mm, MM_BOOTED, "free_contig_range"))
		return;
	for (unsigned long p = pfn; p < pfn + nr_pages; p++) {
		struct cma_page *page = p >= mm->base_pfn && p < mm->end_pfn && pfn_valid(mm, p) ?
					pfn_to_page(mm, p) : NULL;

		if (!page || !page_test(page, PG_head) || page_order(page) || page_count(page) != 1 ||
		    page_test(page, PG_movable)) {
			cma_mm_pr_err(mm, "free_contig_range: pfn %#lx is not a page of a contiguous allocation: nothing freed\n",
				  p);
			return;
		}
	}
	free_contig_range(mm, pfn, nr_pages);
}

/* ---- alloc_contig_pages (6.12, contig_pages) ---- */

/*
 * The allocation pfn_range_valid_contig meets at @pfn: the head there,
 * or, at the range's first pfn, the allocation that pfn lies in (the
 * kernel's PageHuge and page_count read a tail's folio).
 */
static struct cma_page *range_alloc_at(struct cma_mm *mm, unsigned long pfn, unsigned long start)
{
	struct cma_page *page = pfn_to_page(mm, pfn);

	if (page_test(page, PG_head))
		return page;
	return pfn == start ? alloc_head_of(mm, pfn) : NULL;
}

/*
 * Is @pfn in use in a way pfn_range_valid_contig refuses? Before 5.13
 * (!contig_try_in_use) any page in use is (its page_count and PageHuge
 * checks); from 6.3 (contig_skip_hugetlb) a hugetlb page is, as a range
 * holding one cannot give a new gigantic page without moving the pool.
 */
static bool pfn_refused_in_use(struct cma_mm *mm, unsigned long pfn, unsigned long start)
{
	struct cma_page *head;

	if (mm->kernel.contig_try_in_use && !mm->kernel.contig_skip_hugetlb)
		return false;
	head = range_alloc_at(mm, pfn, start);
	return head && (!mm->kernel.contig_try_in_use || page_test(head, PG_hugetlb));
}

/*
 * pfn_range_valid_contig: may [@start, @start + @nr) be tried? Every pfn
 * is memory of @zone and not reserved, and none is refused for what
 * holds it (pfn_refused_in_use).
 */
static bool pfn_range_valid_contig(struct cma_mm *mm, struct zone *zone, unsigned long start,
				   unsigned long nr)
{
	for (unsigned long pfn = start; pfn < start + nr; pfn++) {
		struct cma_page *page;

		if (!pfn_valid(mm, pfn))
			return false;
		page = pfn_to_page(mm, pfn);
		if (page_zone(mm, page) != zone || page_test(page, PG_reserved) ||
		    pfn_refused_in_use(mm, pfn, start))
			return false;
	}
	return true;
}

/*
 * alloc_contig_pages: walk the zones @gfp may use, highest first (its
 * zonelist), and in each try every range of @nr pages aligned to @nr
 * (rounded up to a multiple of @nr when it is not a power of two) from
 * the zone's start, whose last page the zone spans and whose pages are
 * all valid, with alloc_contig_range(MIGRATE_MOVABLE). 0 with the first
 * pfn taken in *@first, or -ENOMEM.
 */
static int alloc_contig_pages(struct cma_mm *mm, unsigned long nr, cma_gfp_t gfp,
			      unsigned long *first)
{
	for (int z = gfp_zone(mm, gfp); z >= 0; z--) {
		struct zone *zone = &mm->zones[z];
		unsigned long end, pfn;

		if (!zone->present_pages)
			continue;
		end = zone->zone_start_pfn + zone->spanned_pages;
		spin_lock(&zone->lock);
		for (pfn = (zone->zone_start_pfn + nr - 1) / nr * nr; pfn + nr <= end; pfn += nr) {
			if (!pfn_range_valid_contig(mm, zone, pfn, nr))
				continue;
			/* alloc_contig_range takes the zone lock itself */
			spin_unlock(&zone->lock);
			if (!alloc_contig_range(mm, pfn, pfn + nr, MIGRATE_MOVABLE, gfp)) {
				*first = pfn;
				return 0;
			}
			spin_lock(&zone->lock);
		}
		spin_unlock(&zone->lock);
	}
	return -ENOMEM;
}

struct cma_page *cma_alloc_contig_pages(struct cma_mm *mm, unsigned long nr_pages, cma_gfp_t gfp,
					int nid)
{
	unsigned long pfn;
	int ret = mm_require_phase(mm, MM_BOOTED, "alloc_contig_pages");

	if (!ret && !mm->kernel.contig_pages) {
		cma_mm_pr_err(mm, "alloc_contig_pages: not in kernel %s (added in 2020): use cma_alloc_contig_range\n",
			  mm->kernel.name);
		ret = -ENOSYS;
	}
	if (!ret && !nr_pages) {
		cma_mm_pr_err(mm, "alloc_contig_pages: nr_pages 0 refused\n");
		ret = -EINVAL;
	}
	if (ret) {
		errno = -ret;
		return NULL;
	}
	pthread_mutex_lock(&mm->cma_mutex);
	ret = alloc_contig_pages(mm, nr_pages, gfp, &pfn);
	pthread_mutex_unlock(&mm->cma_mutex);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	return pfn_to_page(mm, pfn);
}
