// SPDX-License-Identifier: GPL-2.0
/*
 * Owners, references and the LRU pagevecs; migrate_pages in v23's
 * MIGRATE_SYNC_LIGHT mode; page isolation; fail_page_alloc. Fake owners
 * (owners.c) carry a checksum per page, checked after every migration.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

static struct cma_page *alloc_target(struct cma_mm *mm, struct cma_page *page, unsigned long priv)
{
	return cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, page_order(page));
}

/* Isolate every resident page of @o onto @list; returns how many. */
static unsigned long isolate_owner(struct cma_mm *mm, struct fake_owner *o, struct page_list *list)
{
	unsigned long n = 0;

	lru_add_drain_all(mm);
	for (uint64_t i = 0; i < o->nr_slots; i++) {
		struct cma_page *page = o->slots[i].page;

		if (page && !isolate_lru_page(mm, page)) {
			page_list_add_tail(mm, list, page);
			n++;
		}
	}
	return n;
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/* ---- owners, references, pagevecs ---- */

/*
 * Expect: a new movable page waits in this CPU's pagevec (holding a
 * reference) until the kernel's PAGEVEC_SIZE have gathered (14; 15 from
 * 4.16, 31 from 6.9) or it is drained; then it is on the inactive file
 * or active anon list with only its owner's reference.
 */
static void alloc_movable_goes_through_pagevec(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *file = owner_create(mm, false, 32), *anon = owner_create(mm, true, 4);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned size = pagevec_size(mm);
	struct cma_page *p;

	p = owner_fault(file, 0, CMA_GFP_HIGHUSER_MOVABLE, 1);
	assert_false(page_test(p, PG_lru));
	assert_int_equal(page_count(p), 2);
	for (uint64_t i = 1; i + 1 < size; i++)	/* one page short */
		assert_non_null(owner_fault(file, i, CMA_GFP_HIGHUSER_MOVABLE, i));
	assert_false(page_test(p, PG_lru));
	assert_non_null(owner_fault(file, size - 1, CMA_GFP_HIGHUSER_MOVABLE, 5));	/* the last */
	assert_true(page_test(p, PG_lru));
	assert_int_equal(page_count(p), 1);
	assert_int_equal(zone_page_state(z, NR_INACTIVE_FILE), size);
	p = owner_fault(anon, 0, CMA_GFP_HIGHUSER_MOVABLE, 2);
	lru_add_drain(mm);
	/* a new anonymous page starts active, inactive from 5.9 (kernel.anon_inactive) */
	assert_true(page_test(p, PG_lru) && page_test(p, PG_swapbacked));
	assert_int_equal(page_test(p, PG_active) != 0, !mm->kernel.anon_inactive);
	assert_int_equal(zone_page_state(z, mm->kernel.anon_inactive ? NR_INACTIVE_ANON : NR_ACTIVE_ANON), 1);
	assert_verify(mm);
	owner_destroy(file);
	owner_destroy(anon);
	lru_add_drain_all(mm);
	assert_int_equal(zone_page_state(z, NR_INACTIVE_FILE) + zone_page_state(z, NR_ACTIVE_ANON) +
			 zone_page_state(z, NR_INACTIVE_ANON), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: an owner freeing a page still in a pagevec frees it at the drain. */
static void free_movable_in_pagevec_freed_at_drain(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 4);
	unsigned long before;

	cma_drain_all_pages(mm);
	before = global_page_state(mm, NR_FREE_PAGES);
	owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 1);
	owner_release(o, 0);
	assert_verify(mm);
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), before);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static void page_tryget_fails_while_frozen(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct cma_page *p = owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 1);

	lru_add_drain(mm);
	assert_true(page_freeze_refs(p, 1));
	assert_false(cma_page_tryget(mm, p));
	page_unfreeze_refs(p, 1);
	assert_true(cma_page_tryget(mm, p));
	assert_int_equal(page_count(p), 2);
	cma_page_put(mm, p);
	assert_false(page_freeze_refs(p, 2));	/* only the owner's reference is there */
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- migration ---- */

/*
 * Expect: every page moves to a new frame, the owner points at it, the
 * bytes are the same, the old frames are free again, and the counters
 * and trace say so.
 */
static int nr_trace;
static char last_trace[256];
static void trace_cb(void *ctx, const char *event, const char *line)
{
	if (!strcmp(event, "mm_migrate_pages")) {
		nr_trace++;
		snprintf(last_trace, sizeof(last_trace), "%s", line);
	}
}

static void migrate_pages_moves_bytes_and_owner(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 100);
	struct page_list list = { PAGE_NIL, PAGE_NIL };
	struct cma_page *old[100];

	owner_fault_range(o, 0, 100, CMA_GFP_HIGHUSER_MOVABLE);
	for (int i = 0; i < 100; i++)
		old[i] = o->slots[i].page;
	cma_mm_set_trace(mm, trace_cb, NULL);
	assert_int_equal(isolate_owner(mm, o, &list), 100);
	assert_int_equal(zone_page_state(&mm->zones[ZONE_NORMAL], NR_ISOLATED_FILE), 100);
	assert_verify(mm);
	assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, MIGRATE_SYNC_LIGHT), 0);
	assert_true(page_list_empty(&list));
	assert_int_equal(owner_check(o), 100);
	/* the old frames were freed; targets may reuse them, but never a slot's own */
	for (int i = 0; i < 100; i++)
		assert_ptr_not_equal(o->slots[i].page, old[i]);
	assert_int_equal(o->migrated, 100);
	assert_int_equal(counter(mm, "pgmigrate_success"), 100);
	assert_int_equal(nr_trace, 1);
	/* v3.5 has no such event: ours; 5.9 adds the THP counts and reason, 6.7 nr_split */
	if (!test_kernel_since(cma_mm_kernel(mm), 5, 9))
		assert_string_equal(last_trace,
				    "mm_migrate_pages: nr_succeeded=100 nr_failed=0 mode=MIGRATE_SYNC_LIGHT");
	else if (!test_kernel_since(cma_mm_kernel(mm), 6, 7))
		assert_string_equal(last_trace,
				    "mm_migrate_pages: nr_succeeded=100 nr_failed=0 nr_thp_succeeded=0 nr_thp_failed=0 nr_thp_split=0 mode=MIGRATE_SYNC_LIGHT reason=compaction");
	else
		assert_string_equal(last_trace,
				    "mm_migrate_pages: nr_succeeded=100 nr_failed=0 nr_thp_succeeded=0 nr_thp_failed=0 nr_thp_split=0 nr_split=0 mode=MIGRATE_SYNC_LIGHT reason=compaction");
	assert_int_equal(zone_page_state(&mm->zones[ZONE_NORMAL], NR_ISOLATED_FILE), 0);
	lru_add_drain_all(mm);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* A process's page table: slot i is mapped by 1 + i % 2 entries (a parent and a child). */
static unsigned two_way_mapcount(void *owner, uint64_t index, const struct cma_page *page)
{
	return 1 + index % 2;
}

static uint64_t migrate_owner(struct cma_mm *mm, struct fake_owner *o, enum migrate_mode mode)
{
	struct page_list list = { PAGE_NIL, PAGE_NIL };
	unsigned long n = isolate_owner(mm, o, &list);

	assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, mode), 0);
	return n;
}

/*
 * Expect (pgalloc_fresh, the library's count of first writes since boot,
 * for the simulator's host faults): alloc_contig_range over a pageblock
 * holding 8 of an owner's pages counts the 8 targets the copy fills
 * (alloc_migrate_target, unmap_and_move) and none of the range's own
 * frames, which split_free_page hands over unwritten; the owner's pages,
 * written when faulted in, count once.
 */
static void alloc_contig_range_counts_fresh_targets_only(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	/* the top block shares its MAX_ORDER span with memblock's reservations */
	struct cma_page *hold = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 9);
	struct fake_owner *o = owner_create(mm, true, 8);
	uint64_t boot = counter(mm, "pgalloc_fresh"), faulted;
	unsigned long start, span;

	for (uint64_t i = 0; i < 8; i++)
		assert_non_null(owner_fault(o, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1));
	faulted = counter(mm, "pgalloc_fresh");
	assert_int_equal(faulted - boot, 8);
	lru_add_drain_all(mm);	/* on the LRU: from a pagevec, isolation refuses them */
	start = cma_page_to_pfn(mm, o->slots[0].page) & ~(mm->pageblock_nr_pages - 1);
	for (uint64_t i = 0; i < 8; i++)	/* all in one pageblock: the range below holds them */
		assert_int_equal(cma_page_to_pfn(mm, o->slots[i].page) & ~(mm->pageblock_nr_pages - 1), start);
	/* 4.15-5.18 isolate the whole MAX_ORDER span and refuse a reserved page in it */
	span = start & ~(max_order_nr_pages(mm) - 1);
	for (unsigned long pfn = span; pfn < span + max_order_nr_pages(mm); pfn++)
		assert_false(mm->kernel.isolate_scan_movable && !mm->kernel.contig_v6 &&
			     pfn_valid(mm, pfn) && page_test(pfn_to_page(mm, pfn), PG_reserved));
	assert_int_equal(cma_alloc_contig_range(mm, start, start + mm->pageblock_nr_pages, MIGRATE_MOVABLE), 0);
	assert_int_equal(counter(mm, "pgmigrate_success"), 8);
	assert_int_equal(counter(mm, "pgalloc_fresh") - faulted, 8);
	cma_free_contig_range(mm, start, mm->pageblock_nr_pages);
	assert_int_equal(owner_check(o), 8);
	cma_free_pages(mm, hold, 9);
	lru_add_drain_all(mm);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (unmap_and_move's try_to_unmap): migrating 8 anonymous pages
 * mapped by 12 entries and 8 unmapped page-cache pages counts 16
 * successes, 8 mapped pages, 12 entries, and 12 TLB flushes, one per
 * entry, as ptep_clear_flush does in v3.5 and in 6.12's synchronous
 * modes; in MIGRATE_ASYNC, 6.12's migrate_pages_batch flushes the batch
 * once (try_to_unmap_flush, from 6.3) where v3.5 still flushes each entry.
 */
static void migrate_pages_counts_mapped_pages(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *anon = owner_create(mm, true, 8), *file = owner_create(mm, false, 8);
	struct cma_owner_ops mapped_ops = fake_anon_ops;
	bool batched = test_kernel_since(cma_mm_kernel(mm), 6, 3);	/* batched_unmap_flush */

	mapped_ops.mapcount = two_way_mapcount;
	for (uint64_t i = 0; i < 8; i++) {
		assert_non_null(owner_fault_ops(anon, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1, &mapped_ops));
		assert_non_null(owner_fault(file, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1));
	}
	assert_int_equal(migrate_owner(mm, anon, MIGRATE_SYNC_LIGHT) + migrate_owner(mm, file, MIGRATE_SYNC_LIGHT), 16);
	assert_int_equal(counter(mm, "pgmigrate_success"), 16);
	assert_int_equal(counter(mm, "pgmigrate_mapped"), 8);
	assert_int_equal(counter(mm, "pgmigrate_mapped_ptes"), 12);
	assert_int_equal(counter(mm, "pgmigrate_tlb_flush"), 12);

	assert_int_equal(migrate_owner(mm, anon, MIGRATE_ASYNC), 8);
	assert_int_equal(counter(mm, "pgmigrate_mapped"), 16);
	assert_int_equal(counter(mm, "pgmigrate_mapped_ptes"), 24);
	assert_int_equal(counter(mm, "pgmigrate_tlb_flush"), batched ? 13 : 24);
	assert_int_equal(counter(mm, "nr_tlb_remote_flush_received"), 0);
	assert_int_equal(owner_check(anon), 8);
	lru_add_drain_all(mm);
	assert_verify(mm);
	owner_destroy(anon);
	owner_destroy(file);
	cma_mm_destroy(mm);
}

/* The other CPUs the fake owner's address space is on. */
static unsigned owner_cpus;

static unsigned fake_mm_cpus(void *owner)
{
	return owner_cpus;
}

/*
 * Expect (flush_tlb_mm_range): each flush interrupts the other CPUs the
 * owner's address space is on: 8 pages mapped by 12 entries of an owner
 * on 2 other CPUs take 24 IPIs in a synchronous migration; in
 * MIGRATE_ASYNC 6.12 flushes the batch once, to those 2, where v3.5
 * still flushes each entry (24 more); an owner asleep (no CPU) none.
 */
static void migrate_pages_flush_ipis_follow_the_owner(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *anon = owner_create(mm, true, 8);
	struct cma_owner_ops mapped_ops = fake_anon_ops;
	bool batched = test_kernel_since(cma_mm_kernel(mm), 6, 3);	/* batched_unmap_flush */

	mapped_ops.mapcount = two_way_mapcount;
	mapped_ops.mm_cpus = fake_mm_cpus;
	for (uint64_t i = 0; i < 8; i++)
		assert_non_null(owner_fault_ops(anon, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1, &mapped_ops));
	owner_cpus = 2;
	assert_int_equal(migrate_owner(mm, anon, MIGRATE_SYNC_LIGHT), 8);
	assert_int_equal(counter(mm, "nr_tlb_remote_flush_received"), 24);
	assert_int_equal(migrate_owner(mm, anon, MIGRATE_ASYNC), 8);
	assert_int_equal(counter(mm, "nr_tlb_remote_flush_received"), batched ? 26 : 48);
	owner_cpus = 0;
	assert_int_equal(migrate_owner(mm, anon, MIGRATE_SYNC_LIGHT), 8);
	assert_int_equal(counter(mm, "nr_tlb_remote_flush_received"), batched ? 26 : 48);
	assert_int_equal(counter(mm, "pgmigrate_tlb_flush"), batched ? 25 : 36);
	assert_int_equal(owner_check(anon), 8);
	lru_add_drain_all(mm);
	assert_verify(mm);
	owner_destroy(anon);
	cma_mm_destroy(mm);
}

/*
 * Expect: a pinned page is retried for all 10 passes (-EAGAIN), reported
 * as not migrated and left on the list for putback; its data stays put.
 */
static void migrate_pages_pinned_page_stays(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 4);
	struct page_list list = { PAGE_NIL, PAGE_NIL };
	struct cma_page *pinned;

	owner_fault_range(o, 0, 4, CMA_GFP_HIGHUSER_MOVABLE);
	pinned = o->slots[2].page;
	cma_page_get(mm, pinned);
	assert_int_equal(isolate_owner(mm, o, &list), 4);
	assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, MIGRATE_SYNC_LIGHT), 1);
	assert_ptr_equal(page_list_first(mm, &list), pinned);
	assert_ptr_equal(o->slots[2].page, pinned);
	assert_int_equal(counter(mm, "pgmigrate_fail"), 1);
	putback_lru_pages(mm, &list);
	lru_add_drain_all(mm);
	assert_true(page_test(pinned, PG_lru));
	cma_page_put(mm, pinned);
	assert_int_equal(owner_check(o), 4);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: an owner answering -EAGAIN is asked 10 times and its page left
 * on the list; any other answer sends the page straight back to the LRU.
 */
static void migrate_pages_owner_refusals(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, true, 1);
	struct page_list list = { PAGE_NIL, PAGE_NIL };

	owner_fault_range(o, 0, 1, CMA_GFP_HIGHUSER_MOVABLE);
	o->refuse_migrate = -EAGAIN;
	isolate_owner(mm, o, &list);
	assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, MIGRATE_SYNC_LIGHT), 1);
	assert_int_equal(o->refused, 10);
	assert_false(page_list_empty(&list));
	o->refuse_migrate = -EIO;
	assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, MIGRATE_SYNC_LIGHT), 1);
	assert_int_equal(o->refused, 11);
	assert_true(page_list_empty(&list));	/* already put back */
	assert_false(page_test(o->slots[0].page, PG_isolated));
	assert_int_equal(owner_check(o), 1);
	lru_add_drain_all(mm);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* Expect: MIGRATE_SYNC_LIGHT does not wait for writeback: -EBUSY, straight back. */
static void migrate_pages_writeback_not_waited(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct page_list list = { PAGE_NIL, PAGE_NIL };
	struct cma_page *p;

	owner_fault_range(o, 0, 1, CMA_GFP_HIGHUSER_MOVABLE);
	p = o->slots[0].page;
	isolate_owner(mm, o, &list);
	page_flags_set(p, PG_writeback);
	assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, MIGRATE_SYNC_LIGHT), 1);
	assert_true(page_list_empty(&list));
	assert_ptr_equal(o->slots[0].page, p);
	page_flags_clear(p, PG_writeback);
	lru_add_drain_all(mm);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: dirty pages migrate and stay dirty; NR_FILE_DIRTY is unchanged,
 * and NR_DIRTIED (account_page_dirtied) counted each page once, a page
 * dirtied again while dirty not at all, and the migration none.
 */
static void migrate_pages_keeps_dirty(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 8);
	struct page_list list = { PAGE_NIL, PAGE_NIL };

	owner_fault_range(o, 0, 8, CMA_GFP_HIGHUSER_MOVABLE);
	for (int i = 0; i < 8; i += 2)
		owner_set_dirty(o, i, true);
	owner_set_dirty(o, 0, true);
	assert_int_equal(global_page_state(mm, NR_FILE_DIRTY), 4);
	assert_int_equal(global_page_state(mm, NR_DIRTIED), 4);
	isolate_owner(mm, o, &list);
	assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, MIGRATE_SYNC_LIGHT), 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(page_test(o->slots[i].page, PG_dirty), i % 2 == 0);
	assert_int_equal(global_page_state(mm, NR_FILE_DIRTY), 4);
	assert_int_equal(global_page_state(mm, NR_DIRTIED), 4);
	owner_destroy(o);
	lru_add_drain_all(mm);	/* the new pages' pagevec references go last */
	assert_int_equal(global_page_state(mm, NR_FILE_DIRTY), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: a page its owner freed while isolated is simply freed by migration. */
static void migrate_pages_page_freed_under_us(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 2);
	struct page_list list = { PAGE_NIL, PAGE_NIL };
	unsigned long before;

	cma_drain_all_pages(mm);
	before = global_page_state(mm, NR_FREE_PAGES);
	owner_fault_range(o, 0, 2, CMA_GFP_HIGHUSER_MOVABLE);
	isolate_owner(mm, o, &list);
	owner_release(o, 0);
	owner_release(o, 1);
	assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, MIGRATE_SYNC_LIGHT), 0);
	assert_int_equal(o->migrated, 0);
	cma_drain_all_pages(mm);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), before);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * An owner that lets go of its page the moment migration hands it over,
 * as a process unmapping it on another CPU right then would.
 */
static int migrate_then_release(void *owner, uint64_t idx, struct cma_page *from, struct cma_page *to)
{
	struct fake_owner *o = owner;

	pthread_mutex_lock(&o->lock);
	if (idx >= o->nr_slots || o->slots[idx].page != from) {
		pthread_mutex_unlock(&o->lock);
		return -EAGAIN;
	}
	o->slots[idx].page = NULL;
	o->migrated++;
	pthread_mutex_unlock(&o->lock);
	cma_free_pages(o->mm, to, 0);
	return 0;
}

/*
 * Expect: a new page its owner drops right after switching over is freed
 * once, when migration has let go of it too: never put on the LRU after
 * it was freed (migration holds its own reference until then), every
 * page back in the free lists, the machine consistent.
 */
static void migrate_pages_owner_drops_new_page_at_once(void **state)
{
	static const struct cma_owner_ops ops = { .migrate = migrate_then_release };
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 8);
	struct page_list list = { PAGE_NIL, PAGE_NIL };
	unsigned long before;

	cma_drain_all_pages(mm);
	before = global_page_state(mm, NR_FREE_PAGES);
	for (uint64_t i = 0; i < 8; i++)
		assert_non_null(owner_fault_ops(o, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1, &ops));
	assert_int_equal(isolate_owner(mm, o, &list), 8);
	assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, MIGRATE_SYNC_LIGHT), 0);
	assert_int_equal(o->migrated, 8);
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	assert_verify(mm);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), before);
	assert_int_equal(global_page_state(mm, NR_FILE_PAGES), 0);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* Expect: with every target allocation failing, -ENOMEM, pages left for putback, data intact. */
static void migrate_pages_no_target_is_enomem(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 4);
	struct page_list list = { PAGE_NIL, PAGE_NIL };
	struct cma_fault_attr fa = { .probability = 100, .only_migration = true };

	owner_fault_range(o, 0, 4, CMA_GFP_HIGHUSER_MOVABLE);
	isolate_owner(mm, o, &list);
	cma_fault_inject(mm, &fa);
	assert_non_null(owner_fault(o, 3, CMA_GFP_HIGHUSER_MOVABLE, 3) ? NULL : mm); /* slot taken */
	assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, MIGRATE_SYNC_LIGHT), -ENOMEM);
	cma_fault_inject(mm, NULL);
	putback_lru_pages(mm, &list);
	assert_int_equal(owner_check(o), 4);
	lru_add_drain_all(mm);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static unsigned long targets_asked;

static struct cma_page *counting_target(struct cma_mm *mm, struct cma_page *page, unsigned long priv)
{
	targets_asked++;
	return priv ? NULL : alloc_target(mm, page, 0);
}

/*
 * Expect (unmap_and_move, v3.5): the target is asked for before the page
 * is looked at. A page under writeback in MIGRATE_SYNC_LIGHT costs one
 * target, given straight back (-EBUSY, nothing leaked); a page its owner
 * freed meanwhile, with no target to be had, is -ENOMEM and stays on
 * the list for the caller's putback.
 */
static void migrate_pages_allocates_target_first(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 2);
	struct page_list list = { PAGE_NIL, PAGE_NIL };
	unsigned long before;
	struct cma_page *p;

	owner_fault_range(o, 0, 2, CMA_GFP_HIGHUSER_MOVABLE);
	p = o->slots[0].page;
	assert_int_equal(isolate_owner(mm, o, &list), 2);
	page_list_del(mm, &list, o->slots[1].page);
	cma_drain_all_pages(mm);
	before = global_page_state(mm, NR_FREE_PAGES);
	page_flags_set(p, PG_writeback);
	targets_asked = 0;
	assert_int_equal(migrate_pages(mm, &list, counting_target, 0, MIGRATE_SYNC_LIGHT), 1);
	assert_int_equal(targets_asked, 1);
	assert_true(page_list_empty(&list));
	assert_ptr_equal(o->slots[0].page, p);
	page_flags_clear(p, PG_writeback);
	cma_drain_all_pages(mm);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), before);

	p = o->slots[1].page;
	page_list_add(mm, &list, p);
	owner_release(o, 1);
	targets_asked = 0;
	assert_int_equal(migrate_pages(mm, &list, counting_target, 1, MIGRATE_SYNC_LIGHT), -ENOMEM);
	assert_int_equal(targets_asked, 1);
	assert_ptr_equal(page_list_first(mm, &list), p);
	putback_lru_pages(mm, &list);
	lru_add_drain_all(mm);
	assert_verify(mm);
	assert_int_equal(owner_check(o), 1);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (v3.5 mlock and shrink_zone's evictable lists): reclaim never
 * takes an mlocked page. Mlocked on the LRU or still in a pagevec, a page
 * lands on LRU_UNEVICTABLE; Unevictable: and Mlocked: count it; reclaim
 * drops every other clean page and none of these; munlocked, they are
 * evictable again and freeing them leaves NR_MLOCK at 0.
 */
static void reclaim_skips_mlocked_pages(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct fake_owner *o = owner_create(mm, false, 64);
	unsigned long freed;

	owner_fault_range(o, 0, 60, CMA_GFP_HIGHUSER_MOVABLE);
	lru_add_drain_all(mm);
	for (uint64_t i = 0; i < 60; i += 10)
		cma_page_set_mlocked(mm, o->slots[i].page, true);
	assert_non_null(owner_fault(o, 60, CMA_GFP_HIGHUSER_MOVABLE, 61));
	cma_page_set_mlocked(mm, o->slots[60].page, true);	/* still in the pagevec */
	lru_add_drain_all(mm);
	assert_int_equal(page_lru(o->slots[60].page), LRU_UNEVICTABLE);
	assert_int_equal(global_page_state(mm, NR_UNEVICTABLE), 7);
	assert_int_equal(global_page_state(mm, NR_MLOCK), 7);
	assert_verify(mm);

	freed = cma_try_to_free_pages(mm, 1000, CMA_GFP_KERNEL);
	assert_int_equal(freed, 54);
	for (uint64_t i = 0; i <= 60; i++)
		assert_int_equal(o->slots[i].page != NULL, i % 10 == 0);
	assert_int_equal(owner_check(o), 7);
	assert_verify(mm);

	for (uint64_t i = 0; i <= 60; i += 10)
		cma_page_set_mlocked(mm, o->slots[i].page, false);
	assert_int_equal(global_page_state(mm, NR_UNEVICTABLE), 0);
	assert_int_equal(global_page_state(mm, NR_MLOCK), 0);
	assert_int_equal(cma_try_to_free_pages(mm, 1000, CMA_GFP_KERNEL), 7);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* ---- racing owners ---- */

struct race {
	struct cma_mm *mm;
	struct fake_owner *o;
	atomic_bool stop;
	unsigned long writes, migrations;
};

static void *writer(void *arg)
{
	struct race *r = arg;
	uint64_t rnd = 12345;

	cma_mm_bind_cpu(r->mm, 1);
	while (!atomic_load(&r->stop)) {
		uint64_t i = prandom_u64_state(&rnd) % r->o->nr_slots;

		r->writes += owner_write(r->o, i, prandom_u64_state(&rnd));
	}
	return NULL;
}

/*
 * Expect: an owner thread rewriting its pages through tryget/put while
 * another thread migrates them loses no write: every checksum matches.
 */
static void migrate_pages_races_owner_writes(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .cpus = 2);
	struct race r = { .mm = mm };
	pthread_t t;

	r.o = owner_create(mm, false, 64);
	owner_fault_range(r.o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
	assert_int_equal(pthread_create(&t, NULL, writer, &r), 0);
	for (int round = 0; round < 200; round++) {
		struct page_list list = { PAGE_NIL, PAGE_NIL };
		unsigned long n = 0;

		lru_add_drain_all(mm);
		pthread_mutex_lock(&r.o->lock);
		for (uint64_t i = 0; i < r.o->nr_slots; i++) {
			struct cma_page *page = r.o->slots[i].page;

			if (page && !isolate_lru_page(mm, page)) {
				page_list_add_tail(mm, &list, page);
				n++;
			}
		}
		pthread_mutex_unlock(&r.o->lock);
		if (n && migrate_pages(mm, &list, alloc_target, 0, MIGRATE_SYNC_LIGHT) >= 0)
			r.migrations++;
		putback_lru_pages(mm, &list);
	}
	atomic_store(&r.stop, true);
	pthread_join(t, NULL);
	printf("races: %lu writes, %lu migration rounds, %lu pages moved\n", r.writes,
	       r.migrations, r.o->migrated);
	assert_true(r.o->migrated > 0);
	assert_int_equal(owner_check(r.o), 64);
	lru_add_drain_all(mm);
	assert_verify(mm);
	owner_destroy(r.o);
	cma_mm_destroy(mm);
}

/* ---- isolation ---- */

static unsigned long free_on_list(struct zone *z, int mt)
{
	return free_pages_of_type(z, mt);
}

/*
 * The order-9 block left free below the 2 MiB vmemmap, at the top of its
 * MAX_ORDER block: held, so that the next small page comes from a whole
 * MAX_ORDER block with no reserved page in it.
 */
static struct cma_page *hold_vmemmap_neighbour(struct cma_mm *mm)
{
	struct cma_page *hold = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 9);

	assert_non_null(hold);
	assert_true(page_test(cma_pfn_to_page(mm, cma_page_to_pfn(mm, hold) + 512), PG_reserved));
	return hold;
}

/*
 * Expect: isolating MOVABLE pageblocks moves their free pages to the
 * ISOLATE lists, out of the allocator's reach; a page freed inside stays
 * there; undo restores the given type and gives the pages back.
 */
static void isolate_range_hides_free_pages(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long start = 8 * 512, end = 12 * 512;
	struct cma_page *p;

	assert_int_equal(cma_start_isolate_page_range(mm, start, end, MIGRATE_MOVABLE), 0);
	for (unsigned long pfn = start; pfn < end; pfn += 512)
		assert_int_equal(cma_pageblock_migratetype(mm, pfn), MIGRATE_ISOLATE);
	assert_int_equal(free_on_list(z, MIGRATE_ISOLATE), end - start);
	assert_int_equal(cma_test_pages_isolated(mm, start, end), 0);
	assert_verify(mm);
	/* nothing is handed out from there */
	for (int i = 0; i < 3000; i++) {
		p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 1);
		assert_non_null(p);
		assert_false(cma_page_to_pfn(mm, p) >= start && cma_page_to_pfn(mm, p) < end);
	}
	assert_int_equal(cma_undo_isolate_page_range(mm, start, end, MIGRATE_MOVABLE), 0);
	for (unsigned long pfn = start; pfn < end; pfn += 512)
		assert_int_equal(cma_pageblock_migratetype(mm, pfn), MIGRATE_MOVABLE);
	assert_int_equal(free_on_list(z, MIGRATE_ISOLATE), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: pages a per-CPU list held (recorded MOVABLE) when their block
 * was isolated are drained to the ISOLATE list, so the whole isolated
 * range is there; and an UNMOVABLE fallback that steals from MOVABLE
 * blocks never retypes the isolated ones. (v3.5 freed them to the type
 * they recorded, from where __rmqueue_fallback could steal the block and
 * retype it; the isolation count then disagreed with the blocks.)
 */
static void isolate_drains_pcp_pages_to_the_isolate_list(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	struct cma_page *hold = hold_vmemmap_neighbour(mm);
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0), **taken;
	unsigned long pfn, start, end, n = 0, max = (64 * MiB) >> 12;

	assert_non_null(p);
	pfn = cma_page_to_pfn(mm, p);
	start = pfn & ~1023ul;
	end = start + 1024;
	cma_free_pages(mm, p, 0);	/* on this CPU's list, recorded MOVABLE */
	assert_true(pcp_count(mm, 0, ZONE_NORMAL) > 0);
	assert_int_equal(cma_start_isolate_page_range(mm, start, end, MIGRATE_MOVABLE), 0);
	assert_int_equal(free_on_list(z, MIGRATE_ISOLATE), end - start);
	assert_verify(mm);
	/* unmovable requests until none is left: they fall back onto MOVABLE blocks */
	taken = calloc(max, sizeof(*taken));
	assert_non_null(taken);
	test_zero_watermarks(mm);
	while (n < max && (taken[n] = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0)))
		assert_false(cma_page_to_pfn(mm, taken[n++]) - start < end - start);
	for (pfn = start; pfn < end; pfn += 512)
		assert_int_equal(cma_pageblock_migratetype(mm, pfn), MIGRATE_ISOLATE);
	assert_verify(mm);
	while (n)
		cma_free_pages(mm, taken[--n], 0);
	free(taken);
	assert_int_equal(cma_undo_isolate_page_range(mm, start, end, MIGRATE_MOVABLE), 0);
	cma_free_pages(mm, hold, 9);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: a page freed into an isolated range goes to the ISOLATE list,
 * not a per-CPU list. (The range is MAX_ORDER-aligned, as
 * alloc_contig_range isolates; the page is a process's, on the LRU, which
 * isolation accepts under every profile.)
 */
static void isolate_range_page_freed_inside_stays_isolated(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	struct cma_page *hold = hold_vmemmap_neighbour(mm);
	struct fake_owner *o = owner_create(mm, true, 1);
	struct cma_page *p = owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 1);
	unsigned long pfn = cma_page_to_pfn(mm, p), start = pfn & ~1023ul;

	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	assert_int_equal(cma_start_isolate_page_range(mm, start, start + 1024, MIGRATE_MOVABLE), 0);
	assert_int_equal(cma_test_pages_isolated(mm, start, start + 1024), -EBUSY);
	owner_release(o, 0);
	lru_add_drain_all(mm);
	assert_int_equal(pcp_count(mm, 0, ZONE_NORMAL), 0);
	assert_int_equal(free_on_list(z, MIGRATE_ISOLATE), 1024);
	assert_int_equal(cma_test_pages_isolated(mm, start, start + 1024), 0);
	assert_int_equal(cma_undo_isolate_page_range(mm, start, start + 1024, MIGRATE_MOVABLE), 0);
	cma_free_pages(mm, hold, 9);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: a range reaching an UNMOVABLE pageblock with an unmovable page
 * fails with -EBUSY and the blocks isolated before it are restored.
 */
static void isolate_range_busy_block_undoes_all(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct cma_page *u = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	unsigned long ublock = cma_page_to_pfn(mm, u) & ~511ul;
	unsigned long umax = ublock & ~1023ul;		/* its MAX_ORDER block */
	unsigned long start = umax >= 4 * 1024 ? umax - 4 * 1024 : 0, end = umax + 1024;

	assert_int_equal(cma_pageblock_migratetype(mm, ublock), MIGRATE_UNMOVABLE);
	assert_int_equal(cma_start_isolate_page_range(mm, start, end, MIGRATE_MOVABLE), -EBUSY);
	for (unsigned long pfn = start; pfn < end; pfn += 512)
		assert_int_not_equal(cma_pageblock_migratetype(mm, pfn), MIGRATE_ISOLATE);
	assert_int_equal(atomic_load(&mm->isolated_pageblocks), 0);
	assert_verify(mm);
	/* once the unmovable page is gone, all-free UNMOVABLE blocks may be isolated */
	cma_free_pages(mm, u, 0);
	cma_drain_all_pages(mm);
	assert_int_equal(cma_start_isolate_page_range(mm, umax, end, MIGRATE_UNMOVABLE), 0);
	/* an isolated block is not isolated a second time */
	assert_int_equal(cma_start_isolate_page_range(mm, umax, end, MIGRATE_UNMOVABLE), -EBUSY);
	assert_int_equal(atomic_load(&mm->isolated_pageblocks), 2);
	assert_int_equal(cma_undo_isolate_page_range(mm, umax, end, MIGRATE_UNMOVABLE), 0);
	assert_int_equal(cma_pageblock_migratetype(mm, ublock), MIGRATE_UNMOVABLE);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: each malformed request refused on its own ground (the
 * migratetype ones on an aligned range), nothing isolated, and a range
 * off the pageblocks with a message that says what is accepted; a range
 * that is not isolated tests -EBUSY; before boot, every entry point
 * -EINVAL.
 */
static void isolate_range_bad_input(void **state)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 9 };
	struct cma_mm *mm = test_mm(.pageblock_order = 9), *early;
	char *log;

	assert_int_equal(cma_start_isolate_page_range(mm, 100, 612, MIGRATE_MOVABLE), -EINVAL);
	assert_int_equal(cma_start_isolate_page_range(mm, 512, 512, MIGRATE_MOVABLE), -EINVAL);
	/* not pageblock-aligned, at either end */
	assert_int_equal(cma_start_isolate_page_range(mm, 256, 1024, MIGRATE_MOVABLE), -EINVAL);
	assert_int_equal(cma_undo_isolate_page_range(mm, 512, 768, MIGRATE_MOVABLE), -EINVAL);
	log = test_dmesg(mm);
	assert_non_null(strstr(log, "start_isolate_page_range: range [0x100, 0x400) refused: it must be non-empty, within memory and aligned to pageblocks (512 pages)"));
	assert_non_null(strstr(log, "undo_isolate_page_range: range [0x200, 0x300) refused"));
	free(log);
	assert_int_equal(cma_start_isolate_page_range(mm, 0, 1ul << 40, MIGRATE_MOVABLE), -EINVAL);
	assert_int_equal(cma_start_isolate_page_range(mm, 0, 1024, MIGRATE_ISOLATE), -EINVAL);
	assert_int_equal(cma_start_isolate_page_range(mm, 0, 1024, -1), -EINVAL);
	assert_int_equal(cma_start_isolate_page_range(mm, 0, 1024, 9), -EINVAL);
	assert_int_equal(cma_undo_isolate_page_range(mm, 0, 1024, MIGRATE_ISOLATE), -EINVAL);
	assert_int_equal(cma_undo_isolate_page_range(mm, 1024, 512, MIGRATE_MOVABLE), -EINVAL);
	assert_int_equal(atomic_load(&mm->isolated_pageblocks), 0);
	assert_int_equal(cma_test_pages_isolated(mm, 512, 512), -EINVAL);
	assert_int_equal(cma_test_pages_isolated(mm, 0, 1ul << 40), -EINVAL);
	assert_int_equal(cma_test_pages_isolated(mm, 0, 1024), -EBUSY);
	assert_verify(mm);
	cma_mm_destroy(mm);

	assert_int_equal(cma_mm_create(&cfg, &early), 0);
	assert_int_equal(cma_start_isolate_page_range(early, 0, 1024, MIGRATE_MOVABLE), -EINVAL);
	assert_int_equal(cma_undo_isolate_page_range(early, 0, 1024, MIGRATE_MOVABLE), -EINVAL);
	assert_int_equal(cma_test_pages_isolated(early, 0, 1024), -EINVAL);
	cma_mm_destroy(early);
}

/* The free block at @pfn: its order, or -1 if @pfn heads none. */
static int free_order_at(struct cma_mm *mm, unsigned long pfn)
{
	struct cma_page *page = pfn_to_page(mm, pfn);

	return page_test(page, PG_buddy) ? (int)page_order(page) : -1;
}

/* A free MAX_ORDER block on the MOVABLE list of Normal, per-CPU lists drained first. */
static unsigned long free_max_order_block(struct cma_mm *mm)
{
	struct zone *z = &mm->zones[ZONE_NORMAL];
	struct cma_page *head;

	cma_drain_all_pages(mm);
	head = page_list_first(mm, &z->free_area[mm->max_order - 1].free_list[MIGRATE_MOVABLE]);
	assert_non_null(head);
	return page_to_pfn(mm, head);
}

/*
 * Of the free MAX_ORDER block at @h (two pageblocks of 512), the upper
 * pageblock is isolated and free, the lower one free apart from it.
 */
static void assert_upper_half_isolated(struct cma_mm *mm, unsigned long h)
{
	assert_int_equal(free_pages_of_type(&mm->zones[ZONE_NORMAL], MIGRATE_ISOLATE), 512);
	assert_int_equal(free_order_at(mm, h), 9);
	assert_int_equal(free_order_at(mm, h + 512), 9);
	assert_int_equal(cma_test_pages_isolated(mm, h + 512, h + 1024), 0);
	assert_verify(mm);
}

/* Undo @start..@end and expect the MAX_ORDER block at @h whole again. */
static void assert_undo_merges_back(struct cma_mm *mm, unsigned long start, unsigned long end,
				    unsigned long h)
{
	assert_int_equal(cma_undo_isolate_page_range(mm, start, end, MIGRATE_MOVABLE), 0);
	assert_int_equal(free_order_at(mm, h), (int)mm->max_order - 1);
	assert_int_equal(free_pages_of_type(&mm->zones[ZONE_NORMAL], MIGRATE_ISOLATE), 0);
	assert_verify(mm);
}

/*
 * Expect (start_isolate_page_range of v3.5 on one pageblock, as memory
 * offlining asks, with the split of move_freepages_block_isolate since
 * 5.19): isolating a pageblock in the middle of a free MAX_ORDER block
 * puts exactly that pageblock on the ISOLATE list; allocating everything
 * else never hands out one of its pages; undo merges the block back.
 *
 *   h          h+256      h+512      h+768      h+1024  (pageblocks of 256)
 *   | movable  | movable  | ISOLATE  | movable  |
 */
static void isolate_pageblock_inside_free_max_order_block(void **state)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 8,
				     .nr_cpus = 1 };
	struct cma_mm *mm = test_boot(&cfg);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long max = (64 * MiB) >> 12, n, h = free_max_order_block(mm), start, end;
	struct cma_page **taken = calloc(max, sizeof(*taken));

	assert_non_null(taken);
	start = h + 512;
	end = start + 256;
	assert_int_equal(cma_start_isolate_page_range(mm, start, end, MIGRATE_MOVABLE), 0);
	assert_int_equal(free_on_list(z, MIGRATE_ISOLATE), 256);
	assert_int_equal(free_order_at(mm, start), 8);
	assert_int_equal(cma_test_pages_isolated(mm, start, end), 0);
	assert_verify(mm);

	test_zero_watermarks(mm);
	n = test_alloc_all(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, taken, max);
	for (unsigned long i = 0; i < n; i++)
		assert_false(cma_page_to_pfn(mm, taken[i]) - start < end - start);
	/* everything but the isolated pageblock, counted free up to 3.6, was handed out */
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES),
			 mm->kernel.isolated_free_uncounted ? 0 : 256);
	assert_int_equal(free_on_list(z, MIGRATE_ISOLATE), 256);
	assert_verify(mm);
	while (n)
		cma_free_pages(mm, taken[--n], 0);
	cma_drain_all_pages(mm);
	assert_int_equal(free_order_at(mm, start), 8);
	assert_verify(mm);

	assert_undo_merges_back(mm, start, end, h);
	free(taken);
	cma_mm_destroy(mm);
}

/*
 * Expect (free_one_page split per pageblock while isolation is on, as
 * 6.10's split_large_buddy): a MAX_ORDER allocation freed while its upper
 * pageblock is isolated leaves that pageblock on the ISOLATE list and the
 * lower one allocatable; once undone, they merge back whole.
 */
static void isolate_pageblock_of_allocated_max_order_block(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	unsigned top = mm->max_order - 1;
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, top);
	unsigned long h;

	assert_non_null(p);
	h = cma_page_to_pfn(mm, p);
	assert_int_equal(cma_start_isolate_page_range(mm, h + 512, h + 1024, MIGRATE_MOVABLE), 0);
	assert_int_equal(cma_test_pages_isolated(mm, h + 512, h + 1024), -EBUSY);
	cma_free_pages(mm, p, top);
	assert_upper_half_isolated(mm, h);
	assert_undo_merges_back(mm, h + 512, h + 1024, h);
	cma_mm_destroy(mm);
}

/*
 * Expect: undoing half of an isolated free MAX_ORDER block splits it, so
 * the undone half is allocatable and the other stays isolated; undoing
 * the rest merges it back.
 */
static void undo_isolate_part_of_isolated_max_order_block(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	unsigned long h = free_max_order_block(mm);

	assert_int_equal(cma_start_isolate_page_range(mm, h, h + 1024, MIGRATE_MOVABLE), 0);
	assert_int_equal(cma_undo_isolate_page_range(mm, h, h + 512, MIGRATE_MOVABLE), 0);
	assert_upper_half_isolated(mm, h);
	assert_undo_merges_back(mm, h + 512, h + 1024, h);
	cma_mm_destroy(mm);
}

/*
 * Expect: a range across a hole between banks isolates the pageblocks
 * that have pages and leaves the hole's alone; it tests isolated once
 * free, the hole by itself tests -EBUSY (no page to isolate), and undo
 * gives every block back its type.
 *
 *   pfn 0        3072     4096 (hole) 6144     7168      10240
 *       | bank 0 |  range  ...........  range  | bank 1  |
 */
static void isolate_range_across_hole(void **state)
{
	static const struct cma_bank banks[] = { { 0, 16 * MiB }, { 24 * MiB, 16 * MiB } };
	struct cma_mm_config cfg = { .banks = banks, .nr_banks = 2, .pageblock_order = 9 };
	struct cma_mm *mm = test_boot(&cfg);
	unsigned long start = 3072, end = 7168;

	cma_drain_all_pages(mm);
	for (unsigned long pfn = start; pfn < end; pfn += 512)
		if (pfn < 4096 || pfn >= 6144)
			assert_int_equal(cma_pageblock_migratetype(mm, pfn), MIGRATE_MOVABLE);
	assert_int_equal(cma_start_isolate_page_range(mm, start, end, MIGRATE_MOVABLE), 0);
	assert_int_equal(atomic_load(&mm->isolated_pageblocks), 4);
	assert_int_equal(cma_test_pages_isolated(mm, start, end), 0);
	assert_int_equal(cma_test_pages_isolated(mm, 4096, 6144), -EBUSY);
	assert_verify(mm);
	assert_int_equal(cma_undo_isolate_page_range(mm, start, end, MIGRATE_MOVABLE), 0);
	assert_int_equal(atomic_load(&mm->isolated_pageblocks), 0);
	for (unsigned long pfn = start; pfn < end; pfn += 512)
		if (pfn < 4096 || pfn >= 6144)
			assert_int_equal(cma_pageblock_migratetype(mm, pfn), MIGRATE_MOVABLE);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: a page sitting in another CPU's pagevec cannot be isolated until drained. */
static void isolate_lru_page_in_other_cpu_pagevec_busy(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .cpus = 2);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct cma_page *p;

	cma_mm_bind_cpu(mm, 1);
	p = owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 1);
	cma_mm_bind_cpu(mm, 0);
	lru_add_drain(mm);	/* this CPU only, as migrate_prep_local */
	assert_int_equal(isolate_lru_page(mm, p), -EBUSY);
	lru_add_drain_all(mm);
	assert_int_equal(isolate_lru_page(mm, p), 0);
	putback_lru_page(mm, p);
	lru_add_drain_all(mm);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* ---- fail_page_alloc ---- */

static int count_failures(struct cma_mm *mm, int calls, unsigned order)
{
	int fails = 0;

	for (int i = 0; i < calls; i++) {
		struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, order);

		if (p)
			cma_free_pages(mm, p, order);
		else
			fails++;
	}
	return fails;
}

static void fault_inject_rules(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct cma_fault_attr fa = { .probability = 100, .space = 5, .times = 3 };

	cma_fault_inject(mm, &fa);	/* 5 through, then 3 failures */
	assert_int_equal(count_failures(mm, 5, 0), 0);
	assert_int_equal(count_failures(mm, 10, 0), 3);
	fa = (struct cma_fault_attr){ .probability = 100, .interval = 4 };
	cma_fault_inject(mm, &fa);	/* every 4th */
	assert_int_equal(count_failures(mm, 40, 0), 10);
	fa = (struct cma_fault_attr){ .probability = 100, .min_order = 2 };
	cma_fault_inject(mm, &fa);
	assert_int_equal(count_failures(mm, 10, 1), 0);
	assert_int_equal(count_failures(mm, 10, 2), 10);
	fa = (struct cma_fault_attr){ .probability = 30, .seed = 42 };
	cma_fault_inject(mm, &fa);
	{
		int f = count_failures(mm, 1000, 0);

		assert_true(f > 200 && f < 400);
	}
	fa = (struct cma_fault_attr){ .probability = 100, .only_migration = true };
	cma_fault_inject(mm, &fa);
	assert_int_equal(count_failures(mm, 10, 0), 0);
	cma_fault_inject(mm, NULL);
	assert_int_equal(count_failures(mm, 10, 0), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect should_fail_alloc_page's draws to be lib/prandom.h's from the
 * seed (the kernel's fault attribute draws from prandom_u32 too): the
 * n-th allocation fails exactly when the n-th prandom_below(100) from the
 * seed is below the probability.
 */
static void fault_inject_draws_follow_prandom(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct cma_fault_attr fa = { .probability = 30, .seed = 42 };
	uint64_t s = 42;

	cma_fault_inject(mm, &fa);
	for (int i = 0; i < 200; i++) {
		bool fail = prandom_below(&s, 100) < 30;

		if (count_failures(mm, 1, 0) != fail)
			fail_msg("allocation %d: expected it to %s, as the generator's draw says", i,
				 fail ? "fail" : "succeed");
	}
	cma_fault_inject(mm, NULL);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_movable_goes_through_pagevec),
		cmocka_unit_test(free_movable_in_pagevec_freed_at_drain),
		cmocka_unit_test(page_tryget_fails_while_frozen),
		cmocka_unit_test(migrate_pages_moves_bytes_and_owner),
		cmocka_unit_test(migrate_pages_counts_mapped_pages),
		cmocka_unit_test(migrate_pages_flush_ipis_follow_the_owner),
		cmocka_unit_test(migrate_pages_pinned_page_stays),
		cmocka_unit_test(migrate_pages_owner_refusals),
		cmocka_unit_test(migrate_pages_writeback_not_waited),
		cmocka_unit_test(migrate_pages_keeps_dirty),
		cmocka_unit_test(migrate_pages_page_freed_under_us),
		cmocka_unit_test(migrate_pages_owner_drops_new_page_at_once),
		cmocka_unit_test(migrate_pages_no_target_is_enomem),
		cmocka_unit_test(migrate_pages_allocates_target_first),
		cmocka_unit_test(reclaim_skips_mlocked_pages),
		cmocka_unit_test(migrate_pages_races_owner_writes),
		cmocka_unit_test(isolate_range_hides_free_pages),
		cmocka_unit_test(isolate_drains_pcp_pages_to_the_isolate_list),
		cmocka_unit_test(isolate_range_page_freed_inside_stays_isolated),
		cmocka_unit_test(isolate_range_busy_block_undoes_all),
		cmocka_unit_test(isolate_range_bad_input),
		cmocka_unit_test(isolate_range_across_hole),
		cmocka_unit_test(isolate_pageblock_inside_free_max_order_block),
		cmocka_unit_test(isolate_pageblock_of_allocated_max_order_block),
		cmocka_unit_test(undo_isolate_part_of_isolated_max_order_block),
		cmocka_unit_test(isolate_lru_page_in_other_cpu_pagevec_busy),
		cmocka_unit_test(fault_inject_rules),
		cmocka_unit_test(alloc_contig_range_counts_fresh_targets_only),
		cmocka_unit_test(fault_inject_draws_follow_prandom),
	};

	return cmocka_run_group_tests_name("migrate", tests, NULL, NULL);
}
