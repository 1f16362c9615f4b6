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
};

/*
 * unmap_and_move: 0 when the page moved (or was freed under us), -EAGAIN
 * to retry later, -ENOMEM when no target, another error when it cannot
 * move in this mode. Except on -EAGAIN and -ENOMEM the page has left
 * @from. As the kernel's, the target is allocated before anything else
 * is looked at: a page freed under us or under writeback still costs a
 * target, which goes straight back to the allocator.
 */
static int unmap_and_move(struct cma_mm *mm, new_page_t get_new_page, unsigned long private,
			  struct page_list *from, struct cma_page *page, bool force,
			  enum migrate_mode mode, struct unmap_count *unmapped)
{
	const struct cma_owner_ops *ops = page_owner_ops(mm, page);
	struct cma_page *newpage;
	unsigned ptes;
	int rc;

	migration_alloc_begin();
	newpage = get_new_page(mm, page, private);
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
	/* only our isolation reference is left on the old page */
	page_unfreeze_refs(page, 1);
	page_list_del(mm, from, page);
	isolated_dec(mm, page);		/* before the anon bit goes with the owner */
	page_flags_clear(page, PG_swapcache);	/* the swap slot went with the contents */
	page_forget_owner(mm, page);
	put_page(mm, page);
	/* a hugetlb page goes on no LRU list: its owner's reference keeps it */
	if (!page_test(newpage, PG_hugetlb))
		lru_cache_add(mm, newpage);
	put_page(mm, newpage);
	unmapped->mapped += ptes != 0;
	unmapped->ptes += ptes;
	return 0;
putback:
	page_list_del(mm, from, page);
	putback_lru_page(mm, page);
free_new:
	/* the target was never used: our reference is its only one */
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

int migrate_pages(struct cma_mm *mm, struct page_list *from, new_page_t get_new_page,
		  unsigned long private, enum migrate_mode mode)
{
	return migrate_pages_reason(mm, from, get_new_page, private, mode, MR_COMPACTION);
}

/*
 * The TLB flushes for what migrate_pages unmapped: v3.5's try_to_unmap_one
 * flushes each entry as it clears it (ptep_clear_flush), as 6.12's
 * try_to_migrate_one does outside MIGRATE_ASYNC; 6.12's MIGRATE_ASYNC
 * defers them to one flush per batch of folios (try_to_unmap_flush).
 * Batches here are counted on the pages migrated, the lists migrated
 * being short (COMPACT_CLUSTER_MAX) next to a batch.
 */
static void count_unmapped(struct cma_mm *mm, const struct unmap_count *unmapped,
			   unsigned long nr_succeeded, enum migrate_mode mode)
{
	unsigned long flushes = unmapped->ptes;

	if (!unmapped->mapped)
		return;
	if (mm->kernel.batched_unmap_flush && mode == MIGRATE_ASYNC)
		flushes = (nr_succeeded + NR_MAX_BATCHED_MIGRATION - 1) / NR_MAX_BATCHED_MIGRATION;
	count_vm_events(mm, PGMIGRATE_MAPPED, unmapped->mapped);
	count_vm_events(mm, PGMIGRATE_MAPPED_PTES, unmapped->ptes);
	count_vm_events(mm, PGMIGRATE_TLB_FLUSH, flushes);
}

/*
 * migrate_pages: up to 10 passes over @from. Returns the number of pages
 * not migrated (left on @from when they kept saying -EAGAIN), or -ENOMEM.
 * The caller puts back what is left with putback_lru_pages().
 */
int migrate_pages_reason(struct cma_mm *mm, struct page_list *from, new_page_t get_new_page,
			 unsigned long private, enum migrate_mode mode, enum migrate_reason reason)
{
	unsigned long nr_succeeded = 0, nr_failed = 0;
	struct unmap_count unmapped = { 0 };
	int retry = 1, rc = 0;

	if (mm->kernel.cma_stats)
		trace_event(mm, CMA_TRACE_MM_MIGRATE_PAGES_START, migrate,
			    .mode = migrate_mode_names[mode], .reason = migrate_reason_names[reason]);

	for (int pass = 0; pass < 10 && retry; pass++) {
		struct cma_page *page = page_list_first(mm, from), *next;

		retry = 0;
		for (; page; page = next) {
			next = page_list_next(mm, page);
			rc = unmap_and_move(mm, get_new_page, private, from, page,
					    mm->kernel.migrate_wait_at_once || pass > 2, mode, &unmapped);
			if (rc == -ENOMEM)
				goto out;
			if (rc == -EAGAIN)
				retry++;
			else if (rc == 0)
				nr_succeeded++;
			else
				nr_failed++;
		}
	}
	rc = 0;
out:
	if (nr_succeeded)
		count_vm_events(mm, PGMIGRATE_SUCCESS, nr_succeeded);
	count_unmapped(mm, &unmapped, nr_succeeded, mode);
	if (nr_failed + retry)
		count_vm_events(mm, PGMIGRATE_FAIL, nr_failed + retry);
	trace_migrate_pages(mm, nr_succeeded, nr_failed + retry, mode, reason);
	VM_VERIFY_ZONES(mm, "migrate_pages");
	return rc ? rc : (int)(nr_failed + retry);
}
