// SPDX-License-Identifier: GPL-2.0
/*
 * Page references and the LRU (the kernel's mm/swap.c): movable pages and
 * their owners, the per-CPU pagevecs that batch LRU additions, isolation
 * of single pages from the LRU and their putback, and the final put that
 * takes a page off the LRU and frees it.
 *
 * A movable page's references: 1 held by its owner, 1 per pagevec or
 * isolation holding it, 1 per pin. Migration and reclaim "freeze" a page
 * by swapping its count from the expected value to 0; tryget fails and
 * put waits while a page is frozen.
 */
#include <sched.h>

#include "mm/internal.h"
#include "mm/mm_inline.h"

/* ---- owner ops ---- */

int owner_ops_id(struct cma_mm *mm, const struct cma_owner_ops *ops)
{
	unsigned n = atomic_load_explicit(&mm->nr_owner_ops, memory_order_acquire);
	int id = -1;

	for (unsigned i = 0; i < n; i++)
		if (mm->owner_ops[i] == ops)
			return (int)i;
	pthread_mutex_lock(&mm->ops_lock);
	n = atomic_load_explicit(&mm->nr_owner_ops, memory_order_relaxed);
	for (unsigned i = 0; i < n && id < 0; i++)
		if (mm->owner_ops[i] == ops)
			id = (int)i;
	if (id < 0 && n < MAX_OWNER_OPS) {
		mm->owner_ops[n] = ops;
		atomic_store_explicit(&mm->nr_owner_ops, n + 1, memory_order_release);
		id = (int)n;
	}
	pthread_mutex_unlock(&mm->ops_lock);
	return id;
}

const struct cma_owner_ops *page_owner_ops(struct cma_mm *mm, const struct cma_page *page)
{
	return mm->owner_ops[page_ops_id(page)];
}

/* ---- references ---- */

bool get_page_unless_zero(struct cma_page *page)
{
	int c = page_count(page);

	while (c > 0)
		if (atomic_compare_exchange_weak_explicit(&page->count, &c, c + 1,
							  memory_order_acquire, memory_order_relaxed))
			return true;
	return false;
}

bool page_freeze_refs(struct cma_page *page, int expected)
{
	return atomic_compare_exchange_strong_explicit(&page->count, &expected, 0,
						       memory_order_acquire, memory_order_relaxed);
}

void page_unfreeze_refs(struct cma_page *page, int count)
{
	atomic_store_explicit(&page->count, count, memory_order_release);
}

/* page_lru: the list @page's flags name; read under zone->lru_lock. */
enum lru_list page_lru(const struct cma_page *page)
{
	if (page_test(page, PG_mlocked))
		return LRU_UNEVICTABLE;
	return (page_test(page, PG_swapbacked) ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE) +
	       (page_test(page, PG_active) ? 1 : 0);
}

/*
 * NR_FILE_PAGES / NR_ANON_PAGES, NR_FILE_DIRTY and NR_MLOCK for an owned
 * page with @flags; none for a hugetlb page (HugePages_* count those).
 */
static void owner_account(struct cma_mm *mm, struct cma_page *page, uint32_t flags, long sign)
{
	struct zone *zone = page_zone(mm, page);

	if (!(flags & PG_movable) || (flags & PG_hugetlb))
		return;
	mod_zone_page_state(zone, flags & PG_swapbacked ? NR_ANON_PAGES : NR_FILE_PAGES,
			    sign * (1l << page_order(page)));
	if ((flags & PG_dirty) && !(flags & PG_swapbacked))
		mod_zone_page_state(zone, NR_FILE_DIRTY, sign);
	/* an mlocked page freed, migrated or reclaimed leaves NR_MLOCK (free_page_mlock) */
	if (flags & PG_mlocked)
		mod_zone_page_state(zone, NR_MLOCK, sign * (1l << page_order(page)));
}

/* @page now holds an owner's data (a new page, or a migration target). */
void page_account_owner(struct cma_mm *mm, struct cma_page *page)
{
	owner_account(mm, page, page_flags(page), 1);
}

/*
 * The owner has let go of @page (reclaim, migration, or its last put): it
 * is an ordinary allocated page again. The flags are taken atomically so
 * that a dirty bit set by the owner up to that instant is accounted.
 */
void page_forget_owner(struct cma_mm *mm, struct cma_page *page)
{
	uint32_t old;

	if (!page_test(page, PG_movable))
		return;
	/* the owner dropped a page still in the swap cache: the cache lets go of its slot */
	if (page_test(page, PG_swapcache))
		delete_from_swap_cache(mm, page);
	old = atomic_fetch_and_explicit(&page->flags, ~(uint32_t)(PG_OWNER_MASK | PG_young | PG_reclaim),
					memory_order_relaxed);

	owner_account(mm, page, old, -1);
	page->owner = NULL;
	page->private = 0;
}

/* The isolation ends; a hugetlb page's was never in NR_ISOLATED_*. */
void isolated_dec(struct cma_mm *mm, struct cma_page *page)
{
	if (!page_test(page, PG_hugetlb))
		mod_zone_page_state(page_zone(mm, page), page_test(page, PG_swapbacked) ?
				    NR_ISOLATED_ANON : NR_ISOLATED_FILE, -1);
	page_flags_clear(page, PG_isolated);
}

/*
 * __page_cache_release: an owned page's last put takes it off the LRU,
 * forgets the owner, and frees the page.
 */
static noinline void __page_cache_release(struct cma_mm *mm, struct cma_page *page)
{
	if (page_test(page, PG_lru)) {
		struct zone *zone = page_zone(mm, page);

		spin_lock(&zone->lru_lock);
		del_page_from_lru_list(zone, page, page_lru(page));
		page_flags_clear(page, PG_lru);
		spin_unlock(&zone->lru_lock);
	}
	page_forget_owner(mm, page);
	__free_pages(mm, page, page_order(page));
}

/* ---- hugetlb's free pool lists (mm->hugetlb_free), below migration ---- */

void enqueue_huge_page(struct cma_mm *mm, struct cma_page *page)
{
	unsigned order = page_order(page);

	lockdep_assert_held(&mm->hugetlb_lock);
	hugetlb_set_to_pool(page, false);
	atomic_store_explicit(&page->count, 0, memory_order_release);
	page_list_add_tail(mm, &mm->hugetlb_free[order], page);
	mm->hugetlb_nr_free[order]++;
}

void dequeue_huge_page(struct cma_mm *mm, struct cma_page *page)
{
	unsigned order = page_order(page);

	lockdep_assert_held(&mm->hugetlb_lock);
	page_list_del(mm, &mm->hugetlb_free[order], page);
	mm->hugetlb_nr_free[order]--;
	atomic_store_explicit(&page->count, 1, memory_order_release);
}

struct cma_page *dequeue_huge_page_target(struct cma_mm *mm, unsigned order)
{
	struct cma_page *page;

	spin_lock(&mm->hugetlb_lock);
	for (page = page_list_first(mm, &mm->hugetlb_free[order]); page;
	     page = page_list_next(mm, page)) {
		/* dequeue_hugetlb_folio_node_exact passes over isolated blocks */
		if (get_pageblock_migratetype(mm, page_to_pfn(mm, page)) == MIGRATE_ISOLATE)
			continue;
		dequeue_huge_page(mm, page);
		hugetlb_set_to_pool(page, true);
		spin_unlock(&mm->hugetlb_lock);
		return page;
	}
	spin_unlock(&mm->hugetlb_lock);
	return NULL;
}

/* free_huge_folio of a page marked for the pool: back onto its free list. */
static noinline void free_huge_page_to_pool(struct cma_mm *mm, struct cma_page *page)
{
	spin_lock(&mm->hugetlb_lock);
	enqueue_huge_page(mm, page);
	spin_unlock(&mm->hugetlb_lock);
}

/*
 * The last reference is gone: off the LRU, owner forgotten, back to
 * buddy, or a hugetlb page marked for the pool onto its free list.
 * Nobody else can set PG_lru or PG_movable now, so one look at the
 * flags tells a plain page, the allocator's fast path, from an owned
 * one, which is released out of line.
 */
static __always_inline void __put_page(struct cma_mm *mm, struct cma_page *page)
{
	uint32_t flags = page_flags(page);

	if (unlikely(flags & (PG_lru | PG_movable))) {
		__page_cache_release(mm, page);
		return;
	}
	if (unlikely(flags & PG_hugetlb) && hugetlb_to_pool(page)) {
		free_huge_page_to_pool(mm, page);
		return;
	}
	__free_pages(mm, page, page_order(page));
}

/*
 * put_page_testzero: drop a reference, one atomic compare-exchange; true
 * if it was the last. A frozen page (count 0 under migration or reclaim)
 * is waited for.
 */
static __always_inline bool put_page_testzero(struct cma_page *page)
{
	int c = page_count(page);

	for (;;) {
		if (unlikely(c == 0)) {
			sched_yield();
			c = page_count(page);
			continue;
		}
		if (atomic_compare_exchange_weak_explicit(&page->count, &c, c - 1,
							  memory_order_acq_rel, memory_order_relaxed))
			return c == 1;
	}
}

void put_page(struct cma_mm *mm, struct cma_page *page)
{
	if (put_page_testzero(page))
		__put_page(mm, page);
}

static noinline void free_pages_checked(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	if (__free_page_check(mm, page, order))
		put_page(mm, page);
}

/*
 * The usual case (free_page_usual, and one compare-exchange from the
 * count just read) makes no call but in tail position, so that it keeps
 * to the scratch registers; anything else takes the full checks and
 * put_page(), as nothing was changed.
 */
void cma_free_pages(struct cma_mm *mm, struct cma_page *page, unsigned order)
{
	int c;

	if (unlikely(!free_page_usual(mm, page, order))) {
		free_pages_checked(mm, page, order);
		return;
	}
	c = page_count(page);
	if (unlikely(c <= 0 || !atomic_compare_exchange_strong_explicit(&page->count, &c, c - 1,
									 memory_order_acq_rel,
									 memory_order_relaxed))) {
		put_page(mm, page);
		return;
	}
	if (c == 1)
		__put_page(mm, page);
}

bool cma_page_tryget(struct cma_mm *mm, struct cma_page *page)
{
	return get_page_unless_zero(page);
}

void cma_page_get(struct cma_mm *mm, struct cma_page *page)
{
	VM_BUG_ON(page_count(page) <= 0);
	atomic_fetch_add_explicit(&page->count, 1, memory_order_relaxed);
}

void cma_page_put(struct cma_mm *mm, struct cma_page *page)
{
	put_page(mm, page);
}

void cma_page_set_dirty(struct cma_mm *mm, struct cma_page *page, bool dirty)
{
	bool was;

	if (!page_test(page, PG_movable)) {
		cma_mm_pr_err(mm, "cma_page_set_dirty: pfn %#lx is not a movable page\n",
			  page_to_pfn(mm, page));
		return;
	}
	if (dirty) {
		/* set_page_dirty: a page dirtied again is no longer one to free when written */
		page_flags_clear(page, PG_reclaim);
		was = atomic_fetch_or_explicit(&page->flags, PG_dirty, memory_order_relaxed) & PG_dirty;
	} else {
		was = atomic_fetch_and_explicit(&page->flags, ~PG_dirty, memory_order_relaxed) & PG_dirty;
	}
	if (was == dirty || page_test(page, PG_swapbacked | PG_hugetlb))
		return;
	mod_zone_page_state(page_zone(mm, page), NR_FILE_DIRTY, dirty ? 1 : -1);
	/* account_page_dirtied: nr_dirtied counts every page made dirty, never taken back */
	if (dirty)
		mod_zone_page_state(page_zone(mm, page), NR_DIRTIED, 1);
}

/*
 * What cleancache_put_page and frontswap_store rely on: the page's
 * contents are safe elsewhere, so a copy may be dropped at any time. A
 * file page is when it is clean and not under writeback (the file holds
 * it); an anonymous page when it sits in the swap cache with its swap
 * write done (the slot holds it).
 */
bool cma_page_backed(struct cma_mm *mm, const struct cma_page *page)
{
	if (!page_test(page, PG_movable) || page_test(page, PG_writeback))
		return false;
	if (page_test(page, PG_swapbacked))
		return page_test(page, PG_swapcache);
	return !page_test(page, PG_dirty);
}

/* ---- references an owner reports ---- */

/* Only an owned page has a young bit or PG_referenced to report; say so of any other. */
static bool page_reportable(struct cma_mm *mm, const struct cma_page *page, const char *fn)
{
	if (page_test(page, PG_movable))
		return true;
	cma_mm_pr_err(mm, "%s: pfn %#lx is not a movable page\n", fn, page_to_pfn(mm, page));
	return false;
}

/* As the MMU sets a PTE's accessed bit: only when it is clear, so a hot page's line stays clean. */
void cma_page_mkyoung(struct cma_mm *mm, struct cma_page *page)
{
	if (page_reportable(mm, page, "cma_page_mkyoung") && !page_test(page, PG_young))
		page_flags_set(page, PG_young);
}

/*
 * activate_page: an inactive page on an evictable LRU list moves to the
 * head of its active list. Departure: done at once under lru_lock, where
 * v3.5 batches it in a per-CPU activate pagevec.
 */
static void activate_page(struct cma_mm *mm, struct cma_page *page)
{
	struct zone *zone = page_zone(mm, page);
	bool activated = false;

	spin_lock(&zone->lru_lock);
	if (page_test(page, PG_lru) && !page_test(page, PG_active | PG_mlocked)) {
		enum lru_list lru = page_lru(page);

		del_page_from_lru_list(zone, page, lru);
		page_flags_set(page, PG_active);
		add_page_to_lru_list(zone, page, lru + 1);	/* the active list of its kind */
		activated = true;
	}
	spin_unlock(&zone->lru_lock);
	if (activated)
		count_vm_events(mm, PGACTIVATE, 1ul << page_order(page));
}

/* A page whose next mark_page_accessed activates it: referenced once already, inactive on an LRU. */
static inline bool accessed_activates(uint32_t flags)
{
	return !(flags & (PG_active | PG_mlocked | PG_hugetlb)) &&
	       (flags & (PG_referenced | PG_lru)) == (PG_referenced | PG_lru);
}

/*
 * mark_page_accessed (v3.5): the first access sets PG_referenced, the
 * second activates an inactive page on the LRU and clears it; from 3.15
 * (kernel.workingset) an activated file page ticks the refault clock.
 * A page still in a pagevec keeps PG_referenced until reclaim looks.
 */
void cma_mark_page_accessed(struct cma_mm *mm, struct cma_page *page)
{
	uint32_t flags;

	if (!page_reportable(mm, page, "cma_mark_page_accessed"))
		return;
	flags = page_flags(page);
	if (accessed_activates(flags)) {
		activate_page(mm, page);
		page_flags_clear(page, PG_referenced);
		workingset_activation(mm, page);
	} else if (!(flags & PG_referenced)) {
		page_flags_set(page, PG_referenced);
	}
}

void cma_page_prefetch_accessed(struct cma_mm *mm, const struct cma_page *page)
{
	uint32_t flags = page_flags(page);

	/* a movable page that activation would unlink, writing its neighbours */
	if ((flags & PG_movable) && accessed_activates(flags)) {
		/* read without lru_lock: a link changing meanwhile only asks for a line in vain */
		uint32_t prev = __atomic_load_n(&page->prev, __ATOMIC_RELAXED);
		uint32_t next = __atomic_load_n(&page->next, __ATOMIC_RELAXED);

		if (prev != PAGE_NIL)
			prefetchw(mm->mem_map + prev);
		if (next != PAGE_NIL)
			prefetchw(mm->mem_map + next);
	}
}

/* ---- the LRU and its pagevecs ---- */

/*
 * pagevec_lru_move_fn's locking: @page's zone's lru_lock, kept from the
 * page before when it is the same zone's; @locked is the zone held.
 */
static struct zone *relock_lru(struct cma_mm *mm, struct cma_page *page, struct zone *locked)
{
	struct zone *zone = page_zone(mm, page);

	if (zone != locked) {
		if (locked)
			spin_unlock(&locked->lru_lock);
		spin_lock(&zone->lru_lock);
	}
	return zone;
}

/* __pagevec_lru_add: onto the LRU, then drop the pagevec's references. */
static void pagevec_lru_add(struct cma_mm *mm, const struct pagevec *pv)
{
	struct zone *locked = NULL;

	/* the pages lie anywhere: their lines load together, not one miss after another */
	for (unsigned i = 0; i < pv->nr; i++)
		prefetchw(mm->mem_map + pv->pages[i]);
	for (unsigned i = 0; i < pv->nr; i++) {
		struct cma_page *page = mm->mem_map + pv->pages[i];

		locked = relock_lru(mm, page, locked);
		page_flags_set(page, PG_lru);
		add_page_to_lru_list(locked, page, page_lru(page));
	}
	if (locked)
		spin_unlock(&locked->lru_lock);
	for (unsigned i = 0; i < pv->nr; i++)
		put_page(mm, mm->mem_map + pv->pages[i]);
}

/*
 * pagevec_move_tail: each page still on an evictable inactive list goes
 * to its tail, where reclaim's next scan takes it first (PGROTATED); an
 * active one stays (v3.5's pagevec_move_tail_fn), or from 4.11
 * (kernel.dirty_activate) is deactivated onto the inactive tail. Then
 * the pagevec's references go.
 */
static void pagevec_move_tail(struct cma_mm *mm, const struct pagevec *pv)
{
	struct zone *locked = NULL;
	unsigned long moved = 0;

	for (unsigned i = 0; i < pv->nr; i++) {
		struct cma_page *page = mm->mem_map + pv->pages[i];

		locked = relock_lru(mm, page, locked);
		if (page_test(page, PG_lru) && !page_test(page, PG_mlocked) &&
		    (mm->kernel.dirty_activate || !page_test(page, PG_active))) {
			del_page_from_lru_list(locked, page, page_lru(page));
			page_flags_clear(page, PG_active);
			add_page_to_lru_list_tail(locked, page, page_lru(page));
			moved += 1ul << page_order(page);
		}
	}
	if (locked)
		spin_unlock(&locked->lru_lock);
	if (moved)
		count_vm_events(mm, PGROTATED, moved);
	for (unsigned i = 0; i < pv->nr; i++)
		put_page(mm, mm->mem_map + pv->pages[i]);
}

/* Empty @slot's pagevecs; the pages move outside the slot lock. */
static void drain_slot_pagevec(struct cma_mm *mm, struct cpu_slot *slot)
{
	struct pagevec pv, rotate;

	spin_lock(&slot->lock);
	pv = slot->lru_add_pvec;
	slot->lru_add_pvec.nr = 0;
	rotate = slot->lru_rotate_pvec;
	slot->lru_rotate_pvec.nr = 0;
	spin_unlock(&slot->lock);
	if (pv.nr)
		pagevec_lru_add(mm, &pv);
	if (rotate.nr)
		pagevec_move_tail(mm, &rotate);
}

/*
 * rotate_reclaimable_page (v3.5; 6.12's folio_rotate_reclaimable): a
 * write reclaim started has ended (PG_reclaim); a page still clean,
 * evictable, inactive (from 4.11 active too: reclaim activated it to get
 * it out of the way) and on the LRU goes to the tail of its inactive
 * list through this CPU's rotate pagevec, which holds a reference and
 * empties when full, at once for a compound page from 4.7
 * (lru_add_compound) and while the pagevecs are disabled (5.13), and at
 * every lru_add_drain.
 */
void rotate_reclaimable_page(struct cma_mm *mm, struct cma_page *page)
{
	struct cpu_slot *slot;
	struct pagevec *pv, full;

	if (page_test(page, PG_dirty | PG_mlocked) || !page_test(page, PG_lru) ||
	    (!mm->kernel.dirty_activate && page_test(page, PG_active)) ||
	    !get_page_unless_zero(page))
		return;
	slot = this_cpu_slot(mm);
	pv = &slot->lru_rotate_pvec;
	full.nr = 0;	/* only what it takes from @pv is read: not the whole of it zeroed */
	spin_lock(&slot->lock);
	pv->pages[pv->nr++] = page_idx(mm, page);
	if (pv->nr == pagevec_size(mm) || (mm->kernel.lru_add_compound && page_order(page)) ||
	    atomic_load(&mm->lru_disable_count)) {
		full = *pv;
		pv->nr = 0;
	}
	spin_unlock(&slot->lock);
	if (full.nr)
		pagevec_move_tail(mm, &full);
}

/* The profile's PAGEVEC_SIZE: 14, 15 from 4.16 (lru_batch_15), 31 from 6.9 (lru_batch_31). */
unsigned pagevec_size(const struct cma_mm *mm)
{
	if (mm->kernel.lru_batch_31)
		return 31;
	return mm->kernel.lru_batch_15 ? 15 : 14;
}

/*
 * lru_cache_add: through this CPU's pagevec, which holds a reference;
 * a compound page empties it at once from 4.7 (lru_add_compound).
 */
void lru_cache_add(struct cma_mm *mm, struct cma_page *page)
{
	struct cpu_slot *slot = this_cpu_slot(mm);
	struct pagevec *pv = &slot->lru_add_pvec, full;
	bool flush = mm->kernel.lru_add_compound && page_order(page);

	full.nr = 0;	/* only what it takes from @pv is read: not the whole of it zeroed */
	atomic_fetch_add_explicit(&page->count, 1, memory_order_relaxed);
	spin_lock(&slot->lock);
	pv->pages[pv->nr++] = page_idx(mm, page);
	__count_vm_events(slot, LRU_ADD, 1);
	/*
	 * Empty it in the same critical section: threads may share a slot.
	 * While the pagevecs are disabled (lru_cache_disable) every page
	 * goes straight on.
	 */
	if (pv->nr == pagevec_size(mm) || flush || atomic_load(&mm->lru_disable_count)) {
		full = *pv;
		pv->nr = 0;
	}
	spin_unlock(&slot->lock);
	if (full.nr)
		pagevec_lru_add(mm, &full);
}

void lru_add_drain(struct cma_mm *mm)
{
	drain_slot_pagevec(mm, this_cpu_slot(mm));
}

void lru_add_drain_all(struct cma_mm *mm)
{
	count_vm_event(mm, LRU_ADD_DRAIN_ALL);
	for (unsigned c = 0; c < mm->nr_cpus; c++)
		drain_slot_pagevec(mm, &mm->slots[c]);
}

/*
 * lru_cache_disable (5.13): drain every CPU's pagevec and keep them
 * empty until lru_cache_enable, so that no page a migration wants is
 * hidden in one. Nests.
 */
void lru_cache_disable(struct cma_mm *mm)
{
	atomic_fetch_add(&mm->lru_disable_count, 1);
	lru_add_drain_all(mm);
}

void lru_cache_enable(struct cma_mm *mm)
{
	atomic_fetch_sub(&mm->lru_disable_count, 1);
}

/*
 * __isolate_lru_page: take @page off the LRU for migration, holding a
 * reference. -EBUSY if it is not on the LRU (in a pagevec, already
 * isolated, or being freed). -EINVAL for an unevictable page unless
 * @mode has ISOLATE_UNEVICTABLE (alloc_contig_range's from 3.7,
 * compaction's from 4.1).
 */
int __isolate_lru_page(struct cma_mm *mm, struct cma_page *page, isolate_mode_t mode)
{
	struct zone *zone = page_zone(mm, page);
	int ret = -EBUSY;

	spin_lock(&zone->lru_lock);
	if (page_test(page, PG_mlocked) && !(mode & ISOLATE_UNEVICTABLE))
		ret = -EINVAL;
	else if (page_test(page, PG_lru) && get_page_unless_zero(page)) {
		del_page_from_lru_list(zone, page, page_lru(page));
		page_flags_update(page, PG_lru, PG_isolated);
		mod_zone_page_state(zone, page_test(page, PG_swapbacked) ? NR_ISOLATED_ANON :
				    NR_ISOLATED_FILE, 1);
		ret = 0;
	}
	spin_unlock(&zone->lru_lock);
	return ret;
}

/*
 * isolate_lru_page: __isolate_lru_page without ISOLATE_UNEVICTABLE, as
 * v3.5's compaction asks it; nothing here needs the kernel's
 * isolate_lru_page, which mlock itself uses to move a page between
 * lists.
 */
int isolate_lru_page(struct cma_mm *mm, struct cma_page *page)
{
	return __isolate_lru_page(mm, page, 0);
}

bool isolate_hugetlb(struct cma_mm *mm, struct cma_page *page, struct page_list *list)
{
	if (!get_page_unless_zero(page))
		return false;
	/* the owner may have let go before our reference: look after taking it */
	if (!page_test(page, PG_hugetlb) || !page_test(page, PG_movable) ||
	    (atomic_fetch_or_explicit(&page->flags, PG_isolated, memory_order_relaxed) &
	     PG_isolated)) {
		put_page(mm, page);
		return false;
	}
	page_list_add_tail(mm, list, page);
	return true;
}

/*
 * putback_lru_page: back through the pagevec, dropping the isolation
 * reference; a hugetlb page only drops it, its owner still holding it
 * (putback_movable_pages' folio_putback_active_hugetlb).
 */
void putback_lru_page(struct cma_mm *mm, struct cma_page *page)
{
	isolated_dec(mm, page);
	if (!page_test(page, PG_hugetlb))
		lru_cache_add(mm, page);
	put_page(mm, page);
}

/*
 * putback_inactive_pages (v3.5; 6.12's move_folios_to_lru): a page
 * reclaim kept goes straight back onto its LRU list under lru_lock (the
 * active one if activated), not through a pagevec; the isolation's
 * reference goes after, freeing it if its owner let go meanwhile.
 */
void putback_inactive_page(struct cma_mm *mm, struct cma_page *page)
{
	struct zone *zone = page_zone(mm, page);

	isolated_dec(mm, page);
	spin_lock(&zone->lru_lock);
	page_flags_set(page, PG_lru);
	add_page_to_lru_list(zone, page, page_lru(page));
	spin_unlock(&zone->lru_lock);
	put_page(mm, page);
}

void putback_lru_pages(struct cma_mm *mm, struct page_list *list)
{
	struct cma_page *page;

	while ((page = page_list_first(mm, list))) {
		page_list_del(mm, list, page);
		putback_lru_page(mm, page);
	}
}
