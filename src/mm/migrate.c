// SPDX-License-Identifier: GPL-2.0
/*
 * Page migration (mm/migrate.c): move isolated movable pages to new
 * pages. For each page: allocate the target, freeze the references (only
 * the owner's and the isolation's may exist, else -EAGAIN), copy the
 * bytes, let the owner switch over (ops->migrate), then free the old page
 * and put the new one on the LRU. A list is retried up to 10 passes.
 *
 * A page under writeback: MIGRATE_ASYNC and MIGRATE_SYNC_LIGHT give it
 * up (-EBUSY: back to the LRU at once); MIGRATE_SYNC waits for the write
 * (wait_on_page_writeback), in v3.5 only once the `force` passes come
 * (pass > 2, -EAGAIN before), in 6.12 at its first synchronous try.
 * A page locked for its read (trylock_page fails) is left for a later
 * pass (-EAGAIN) but where MIGRATE_SYNC would sleep in lock_page, at the
 * same passes. Departure: MIGRATE_SYNC_LIGHT never sleeps on it, as
 * direct compaction (PF_MEMALLOC) and 6.12's light mode (the page is not
 * uptodate) do not, where 3.5's compact_memory would in its forced passes.
 *
 * There are no page tables here: a mapped page's owner says how many
 * entries map it (cma_owner_ops.mapcount), and migration counts the
 * unmapping, remapping and TLB flushing it would do for them.
 */
#include <string.h>

#include "mm/internal.h"


static const char *const migrate_mode_names[] = {
	[MIGRATE_ASYNC] = "MIGRATE_ASYNC",
	[MIGRATE_SYNC_LIGHT] = "MIGRATE_SYNC_LIGHT",
	[MIGRATE_SYNC] = "MIGRATE_SYNC",
};

static const char *const migrate_reason_names[MR_TYPES] = {
	"compaction", "memory_failure", "memory_hotplug", "syscall_or_cpuset", "mempolicy_mbind",
	"numa_misplaced", "contig_range", "longterm_pin", "demotion", "damon",
};

/* The owner's reference has moved to @newpage: hand over what goes with it. */
static void move_to_new_page(struct cma_mm *mm, struct cma_page *page, struct cma_page *newpage)
{
	uint32_t moving = page_flags(page) & PG_OWNER_MASK;

	if (mm->backing)
		memcpy(cma_page_address(mm, newpage), cma_page_address(mm, page),
		       (size_t)mm->page_size << page_order(page));
	newpage->owner = page->owner;
	newpage->private = page->private;
	page_flags_store(newpage, (page_flags(newpage) & ~PG_OWNER_MASK) | moving);
}

static void undo_new_page(struct cma_page *newpage)
{
	newpage->owner = NULL;
	newpage->private = 0;
	page_flags_store(newpage, page_flags(newpage) & ~PG_OWNER_MASK);
}

/* 6.12's migrate_pages_batch: the folios whose TLB flush goes together in MIGRATE_ASYNC. */
#define NR_MAX_BATCHED_MIGRATION 512

/* The page tables migration went through, for the events it counts when done. */
struct unmap_count {
	unsigned long mapped;		/* migrated pages that were mapped */
	unsigned long ptes;		/* their page table entries */
	unsigned long ipis;		/* each entry's flush times the other CPUs its owner runs on */
	unsigned cpus;			/* the most other CPUs one of those owners ran on */
};

/* migrate_pages' callbacks and their argument (the kernel's get_new_folio, put_new_folio, private). */
struct migration_target {
	new_page_t get_new_page;
	free_page_t put_new_page;	/* NULL: an unused target goes back to the buddy allocator */
	unsigned long private;
};

/*
 * unmap_and_move: 0 when the page moved (or was freed under us), -EAGAIN
 * to retry later, -ENOMEM when no target, another error when it cannot
 * move in this mode. Except on -EAGAIN and -ENOMEM the page has left
 * @from. As the kernel's, the target is allocated before anything else
 * is looked at: a page freed under us or under writeback still costs a
 * target, which goes straight back to the allocator.
 */
static int unmap_and_move(struct cma_mm *mm, const struct migration_target *target,
			  struct page_list *from, struct cma_page *page, bool force,
			  enum migrate_mode mode, struct unmap_count *unmapped)
{
	const struct cma_owner_ops *ops = page_owner_ops(mm, page);
	struct cma_page *newpage;
	unsigned ptes, cpus;
	int rc;

	migration_alloc_begin();
	newpage = target->get_new_page(mm, page, target->private);
	migration_alloc_end();
	if (!newpage)
		return -ENOMEM;
	if (page_count(page) == 1) {
		/* the owner freed it while it was isolated: just let it go */
		page_list_del(mm, from, page);
		isolated_dec(mm, page);
		put_page(mm, page);
		rc = 0;
		goto free_new;
	}
	if (ops->locked && ops->locked(page->owner, page->private, page)) {
		if (!force || mode != MIGRATE_SYNC) {
			rc = -EAGAIN;
			goto free_new;
		}
		rc = lock_page(mm, page, ops);
		if (rc)
			goto putback;
	}
	if (page_test(page, PG_writeback)) {
		/* only a full sync migration may stall on the storage */
		if (mode != MIGRATE_SYNC) {
			rc = -EBUSY;
			goto putback;
		}
		if (!force) {
			rc = -EAGAIN;
			goto free_new;
		}
		rc = wait_on_page_writeback(mm, page, ops);
		if (rc)
			goto putback;
	}
	/* try_to_unmap: the owner's reverse map, read before it lets go of the page */
	ptes = ops->mapcount ? ops->mapcount(page->owner, page->private, page) : 0;
	cpus = ptes && ops->mm_cpus ? ops->mm_cpus(page->owner) : 0;
	if (!page_freeze_refs(page, 2)) {
		rc = -EAGAIN;
		goto free_new;
	}
	move_to_new_page(mm, page, newpage);
	/*
	 * The new page's one reference becomes the owner's when the owner
	 * switches over, and the owner may drop it at once: hold one of our
	 * own until the page is on its way to the LRU, as the kernel's
	 * migration keeps its reference until putback_lru_page(newpage).
	 */
	atomic_fetch_add_explicit(&newpage->count, 1, memory_order_relaxed);
	rc = ops->migrate(page->owner, page->private, page, newpage);
	if (rc) {
		atomic_fetch_sub_explicit(&newpage->count, 1, memory_order_relaxed);
		page_unfreeze_refs(page, 2);
		undo_new_page(newpage);
		if (rc == -EAGAIN)
			goto free_new;
		goto putback;
	}
	page_account_owner(mm, newpage);
	count_fresh_frames(mm, newpage, page_order(newpage));
	/* move_hugetlb_state: a target from the pool sends the old page there */
	if (page_test(newpage, PG_hugetlb) && hugetlb_to_pool(newpage)) {
		hugetlb_set_to_pool(newpage, false);
		hugetlb_set_to_pool(page, true);
	}
	/* only our isolation reference is left on the old page */
	page_unfreeze_refs(page, 1);
	page_list_del(mm, from, page);
	isolated_dec(mm, page);		/* before the anon bit goes with the owner */
	migrate_swap_cache(mm, page, newpage);	/* the swap slot went with the contents */
	page_forget_owner(mm, page);
	put_page(mm, page);
	/* a hugetlb page goes on no LRU list: its owner's reference keeps it */
	if (!page_test(newpage, PG_hugetlb))
		lru_cache_add(mm, newpage);
	put_page(mm, newpage);
	unmapped->mapped += ptes != 0;
	unmapped->ptes += ptes;
	unmapped->ipis += (unsigned long)ptes * cpus;
	if (cpus > unmapped->cpus)
		unmapped->cpus = cpus;
	return 0;
putback:
	page_list_del(mm, from, page);
	putback_lru_page(mm, page);
free_new:
	/* the target was never used: our reference is its only one */
	if (target->put_new_page)
		target->put_new_page(mm, newpage, target->private);
	else
		put_page(mm, newpage);
	return rc;
}

/* The mm_migrate_pages event; 6.12's follows an mm_migrate_pages_start (trace.c prints each era's). */
static void trace_migrate_pages(struct cma_mm *mm, unsigned long succeeded, unsigned long failed,
				enum migrate_mode mode, enum migrate_reason reason)
{
	trace_event(mm, CMA_TRACE_MM_MIGRATE_PAGES, migrate, .nr_succeeded = succeeded,
		    .nr_failed = failed, .mode = migrate_mode_names[mode],
		    .reason = migrate_reason_names[reason]);
}

/*
 * split_folio_to_list: the isolated page @page of an order above 0
 * becomes 2^order isolated order-0 pages, each with the owner's and the
 * isolation's references, the others added to @list's tail. 0, or
 * -EBUSY with nothing changed: the owner has no split or refuses, the
 * page is under writeback, someone else holds a reference (the
 * kernel's can_split_folio), or it is a hugetlb page.
 */
int split_folio_to_list(struct cma_mm *mm, struct page_list *list, struct cma_page *page)
{
	const struct cma_owner_ops *ops = page_owner_ops(mm, page);
	unsigned order = page_order(page);
	uint32_t flags = page_flags(page);
	struct zone *zone = page_zone(mm, page);

	if (!order || !ops->split || (flags & (PG_writeback | PG_hugetlb)) || page_count(page) != 2 ||
	    ops->split(page->owner, page->private, page, order))
		return -EBUSY;
	for (unsigned long i = 1; i < 1ul << order; i++) {
		struct cma_page *tail = page + i;

		page_flags_store(tail, flags & ~PG_ORDER_MASK);
		tail->owner = page->owner;
		tail->private = page->private + i;
		set_page_count(tail, 2);
		page_list_add_tail(mm, list, tail);
	}
	page_flags_clear(page, PG_ORDER_MASK);
	/* counted per page where the library counts per allocation */
	mod_zone_page_state(zone, flags & PG_swapbacked ? NR_ISOLATED_ANON : NR_ISOLATED_FILE,
			    (1l << order) - 1);
	if ((flags & PG_dirty) && !(flags & PG_swapbacked))
		mod_zone_page_state(zone, NR_FILE_DIRTY, (1l << order) - 1);
	return 0;
}

/*
 * The TLB flushes for what migrate_pages unmapped: v3.5's try_to_unmap_one
 * flushes each entry as it clears it (ptep_clear_flush), as 6.12's
 * try_to_migrate_one does outside MIGRATE_ASYNC; 6.12's MIGRATE_ASYNC
 * defers them to one flush per batch of folios (try_to_unmap_flush),
 * sent to every CPU any of the batch's owners ran on. Batches here are
 * counted on the pages migrated, the lists migrated being short
 * (COMPACT_CLUSTER_MAX) next to a batch. A flush interrupts the other
 * CPUs its owner runs on (flush_tlb_mm_range): none for an owner asleep.
 */
static void count_unmapped(struct cma_mm *mm, const struct unmap_count *unmapped,
			   unsigned long nr_succeeded, enum migrate_mode mode)
{
	unsigned long flushes = unmapped->ptes, ipis = unmapped->ipis;

	if (!unmapped->mapped)
		return;
	if (mm->kernel.batched_unmap_flush && mode == MIGRATE_ASYNC) {
		flushes = (nr_succeeded + NR_MAX_BATCHED_MIGRATION - 1) / NR_MAX_BATCHED_MIGRATION;
		ipis = flushes * unmapped->cpus;
	}
	count_vm_events(mm, PGMIGRATE_MAPPED, unmapped->mapped);
	count_vm_events(mm, PGMIGRATE_MAPPED_PTES, unmapped->ptes);
	count_vm_events(mm, PGMIGRATE_TLB_FLUSH, flushes);
	count_vm_events(mm, NR_TLB_REMOTE_FLUSH_RECEIVED, ipis);
}

/* What a migrate_pages call did, for its events and its result. */
struct migrate_pages_stats {
	unsigned long nr_succeeded;	/* pages moved: a large folio's all from 5.9 */
	unsigned long nr_failed;	/* folios that failed for good, or were split */
	unsigned long nr_failed_pages;	/* their pages, as nr_succeeded counts them */
	unsigned long nr_split;		/* large folios split for want of a target */
	struct unmap_count unmapped;
};

/*
 * The pages a folio of @order counts for in pgmigrate_success and _fail:
 * all of them from 5.9 (kernel.migrate_count_pages), one before; a
 * hugetlb page's all from 5.17 (kernel.migrate_count_hugetlb).
 */
static unsigned long migrate_nr_pages(const struct cma_mm *mm, const struct cma_page *page)
{
	bool counts_pages = page_test(page, PG_hugetlb) ? mm->kernel.migrate_count_hugetlb :
							  mm->kernel.migrate_count_pages;

	return counts_pages ? 1ul << page_order(page) : 1;
}

/*
 * 6.12's try_split_folio for a large folio that found no target: split
 * it and move its base pages from @from to @split, to be migrated once
 * the rest of @from is done. false, with nothing changed, when the folio
 * cannot be split (a hugetlb page, or one held by someone else).
 */
static bool try_split_folio(struct cma_mm *mm, struct page_list *from, struct page_list *split,
			    struct cma_page *page)
{
	struct page_list tails;
	struct cma_page *tail;

	page_list_init(&tails);
	if (split_folio_to_list(mm, &tails, page))
		return false;
	page_list_del(mm, from, page);
	page_list_add_tail(mm, split, page);
	while ((tail = page_list_first(mm, &tails))) {
		page_list_del(mm, &tails, tail);
		page_list_add_tail(mm, split, tail);
	}
	return true;
}

/*
 * migrate_pages_batch: up to @nr_pass passes over @from. A large folio
 * with no target (-ENOMEM) is split: before 6.3 in place, its head
 * retried at once and its tails queued at @from's tail, not counted as
 * a failure; from 6.3 (kernel.migrate_wait_at_once, the batched
 * migrate_pages) onto @split, counted as one failed folio, unless @split
 * is NULL. Any other -ENOMEM ends the call. Returns -ENOMEM or the
 * number of folios left on @from (-EAGAIN to the last pass).
 */
static int migrate_pages_batch(struct cma_mm *mm, struct page_list *from, struct page_list *split,
			       const struct migration_target *target, enum migrate_mode mode,
			       int nr_pass, struct migrate_pages_stats *stats)
{
	bool batched = mm->kernel.migrate_wait_at_once;
	unsigned long retry = 1, retry_pages = 0;

	for (int pass = 0; pass < nr_pass && retry; pass++) {
		struct cma_page *page = page_list_first(mm, from), *next;

		retry = retry_pages = 0;
		/* a scheduling point per pass (the kernel's gives way per folio) */
		cond_resched(mm);
		for (; page; page = next) {
			unsigned long nr_pages = migrate_nr_pages(mm, page);
			bool large = page_order(page) != 0;
			int rc;

			next = page_list_next(mm, page);
			rc = unmap_and_move(mm, target, from, page,
					    batched || pass > 2, mode, &stats->unmapped);
			if (rc == -ENOMEM && large && !batched &&
			    !split_folio_to_list(mm, from, page)) {
				next = page;
				continue;
			}
			if (rc == -ENOMEM) {
				stats->nr_failed++;
				if (large && batched && split && try_split_folio(mm, from, split, page)) {
					stats->nr_split++;
					continue;
				}
				stats->nr_failed_pages += nr_pages + retry_pages;
				return -ENOMEM;
			}
			if (rc == -EAGAIN) {
				retry++;
				retry_pages += nr_pages;
			} else if (rc == 0) {
				stats->nr_succeeded += nr_pages;
			} else {
				stats->nr_failed++;
				stats->nr_failed_pages += nr_pages;
			}
		}
	}
	stats->nr_failed_pages += retry_pages;
	return (int)retry;
}

/* Give the pages of @split back to @from, for the caller to put back. */
static void splice_split(struct cma_mm *mm, struct page_list *from, struct page_list *split)
{
	struct cma_page *page;

	while ((page = page_list_first(mm, split))) {
		page_list_del(mm, split, page);
		page_list_add_tail(mm, from, page);
	}
}

/*
 * migrate_pages: up to 10 passes over @from, then, as 6.12, one
 * MIGRATE_ASYNC pass over the base pages of the large folios split on
 * the way. Returns the number of folios not migrated (a split folio
 * counts one unless all its pages moved; those that kept saying -EAGAIN
 * are left on @from), or -ENOMEM. The caller puts back what is left with
 * putback_lru_pages().
 */
static int __migrate_pages(struct cma_mm *mm, struct page_list *from,
			   const struct migration_target *target, enum migrate_mode mode,
			   enum migrate_reason reason)
{
	struct migrate_pages_stats stats = { 0 };
	struct page_list split;
	int rc;

	if (mm->kernel.cma_stats)
		trace_event(mm, CMA_TRACE_MM_MIGRATE_PAGES_START, migrate,
			    .mode = migrate_mode_names[mode], .reason = migrate_reason_names[reason]);
	page_list_init(&split);
	rc = migrate_pages_batch(mm, from, &split, target, mode, 10, &stats);
	if (rc >= 0) {
		unsigned long failed = stats.nr_failed;
		int left = 0;

		if (!page_list_empty(&split))
			left = migrate_pages_batch(mm, &split, NULL, target, MIGRATE_ASYNC, 1, &stats);
		/* 0 when every folio moved, the split ones' pages too; their failures not counted */
		if (!rc && !left && failed == stats.nr_split && stats.nr_failed == failed &&
		    page_list_empty(&split))
			failed = 0;
		rc = (int)failed + rc;
	}
	splice_split(mm, from, &split);
	if (stats.nr_succeeded)
		count_vm_events(mm, PGMIGRATE_SUCCESS, stats.nr_succeeded);
	count_unmapped(mm, &stats.unmapped, stats.nr_succeeded, mode);
	if (stats.nr_failed_pages)
		count_vm_events(mm, PGMIGRATE_FAIL, stats.nr_failed_pages);
	trace_migrate_pages(mm, stats.nr_succeeded, stats.nr_failed_pages, mode, reason);
	VM_VERIFY_ZONES(mm, "migrate_pages");
	return rc;
}

int migrate_pages_reason(struct cma_mm *mm, struct page_list *from, new_page_t get_new_page,
			 unsigned long private, enum migrate_mode mode, enum migrate_reason reason)
{
	struct migration_target target = { get_new_page, NULL, private };

	return __migrate_pages(mm, from, &target, mode, reason);
}

int migrate_pages_free(struct cma_mm *mm, struct page_list *from, new_page_t get_new_page,
		       free_page_t put_new_page, unsigned long private, enum migrate_mode mode)
{
	struct migration_target target = { get_new_page, put_new_page, private };

	return __migrate_pages(mm, from, &target, mode, MR_COMPACTION);
}

int migrate_pages(struct cma_mm *mm, struct page_list *from, new_page_t get_new_page,
		  unsigned long private, enum migrate_mode mode)
{
	return migrate_pages_free(mm, from, get_new_page, NULL, private, mode);
}
