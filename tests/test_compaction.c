// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for compaction (src/mm/compaction.c): the strict free-page
 * isolation and the migrate scanner's batches that CMA builds on, the
 * two-scanner run behind /proc/sys/vm/compact_memory and direct
 * compaction, and the fragmentation index. Movable pages belong to fake
 * owners (owners.c) whose checksums catch any data lost in migration.
 * Every machine has 4 KiB pages, orders 0..10 and 2 MiB pageblocks
 * (pageblock_order 9), one zone (Normal), no CMA area. The tests of 6.12's
 * cached positions and skip bits run each profile in turn.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

/*
 * A zone away from pageblock 0, as most are: from 5.1 a run's first
 * iteration in a zone that starts in pageblock 0 finishes that block
 * (the kernel's last_migrated_pfn starts at 0;
 * compact_zone_finishes_pageblock_0_first).
 */
#define ABOVE_BLOCK0	(1ull << 30)

static struct zone *normal(struct cma_mm *mm)
{
	return &mm->zones[ZONE_NORMAL];
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

static void compact_control_init(struct compact_control *cc, struct zone *zone, int order,
				 bool sync)
{
	memset(cc, 0, sizeof(*cc));
	compact_control_init_lists(cc);
	cc->order = order;
	cc->sync = sync;
	cc->zone = zone;
	cc->migratetype = MIGRATE_MOVABLE;
	cc->gfp_mask = CMA_GFP_KERNEL;	/* as compact_node's */
}

/* The largest order with a free block in @z's buddy lists, or -1. */
static int largest_free_order(struct cma_mm *mm, struct zone *z)
{
	int largest = -1;

	spin_lock(&z->lock);
	for (unsigned o = 0; o < mm->max_order; o++)
		if (z->free_area[o].nr_free)
			largest = (int)o;
	spin_unlock(&z->lock);
	return largest;
}

/*
 * Move the low mark to @mark; the high mark rises with it where it would
 * fall below (and stays there: these tests look at the low mark only), so
 * that min <= low <= high holds as the validators demand.
 */
static void set_low_wmark(struct zone *z, unsigned long mark)
{
	spin_lock(&z->lock);
	if (high_wmark_pages(z) < mark)
		__atomic_store_n(&z->watermark[WMARK_HIGH], mark, __ATOMIC_RELAXED);
	__atomic_store_n(&z->watermark[WMARK_LOW], mark, __ATOMIC_RELAXED);
	spin_unlock(&z->lock);
}

static void set_block_type(struct cma_mm *mm, struct zone *z, unsigned long pfn, int mt)
{
	spin_lock(&z->lock);
	set_pageblock_migratetype(mm, pfn, mt);
	spin_unlock(&z->lock);
}

/*
 * Fill the machine with file pages until free memory is just above the
 * low watermark (so the allocator's slow path, with its reclaim, never
 * runs): what is left free is the tail of the last split block, less
 * than a pageblock. Then release one page of each buddy pair at random:
 * half the memory free, in blocks that cannot reach order 9.
 */
static struct fake_owner *fragment(struct cma_mm *mm, uint64_t *rnd)
{
	unsigned long nr = mm->end_pfn - mm->base_pfn;
	struct zone *z = normal(mm);
	unsigned long stop = low_wmark_pages(z) + 64;
	struct fake_owner *o = owner_create(mm, false, nr);
	long *slot_at = malloc(nr * sizeof(*slot_at));
	uint64_t n;

	assert_non_null(o);
	assert_non_null(slot_at);
	assert_true(stop < mm->pageblock_nr_pages);
	for (n = 0; n < nr && zone_page_state(z, NR_FREE_PAGES) > stop; n++)
		assert_non_null(owner_fault(o, n, CMA_GFP_HIGHUSER_MOVABLE, n * 2654435761u + 1));
	assert_true(n > nr / 2);
	lru_add_drain_all(mm);
	for (unsigned long i = 0; i < nr; i++)
		slot_at[i] = -1;
	for (uint64_t i = 0; i < n; i++)
		slot_at[page_to_pfn(mm, o->slots[i].page) - mm->base_pfn] = (long)i;
	for (unsigned long i = 0; i + 1 < nr; i += 2) {
		long a = slot_at[i], b = slot_at[i + 1];
		bool first = prandom_u64_state(rnd) & 1;

		if (a >= 0 && b >= 0)
			owner_release(o, (uint64_t)(first ? a : b));
		else if ((a >= 0 || b >= 0) && first)
			owner_release(o, (uint64_t)(a >= 0 ? a : b));
	}
	free(slot_at);
	cma_drain_all_pages(mm);
	return o;
}

struct trace_counts {
	unsigned long isolate_migratepages, isolate_freepages, migratepages;
};

static void count_trace(void *ctx, const char *event, const char *line)
{
	struct trace_counts *tc = ctx;

	if (!strcmp(event, "mm_compaction_isolate_migratepages"))
		tc->isolate_migratepages++;
	else if (!strcmp(event, "mm_compaction_isolate_freepages"))
		tc->isolate_freepages++;
	else if (!strcmp(event, "mm_compaction_migratepages"))
		tc->migratepages++;
}

/* ---- compaction runs ---- */

/*
 * Expect: with half the memory free but no free block of order 9 or more,
 * compact_memory moves the movable pages up so that order-9 blocks form;
 * an order-9 allocation then succeeds and no owner lost a byte.
 */
static void compact_memory_fragmented_zone_satisfies_order9(void **state)
{
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct zone *z = normal(mm);
	struct trace_counts tc = { 0 };
	struct fake_owner *o = fragment(mm, &rnd);
	long resident = (long)owner_resident(o);
	struct cma_page *page;

	if (largest_free_order(mm, z) >= 9) {
		print_error("after fragmenting: expected no free block of order >= 9, found order %d\n",
			    largest_free_order(mm, z));
		fail();
	}
	assert_int_equal(owner_check(o), resident);
	assert_verify(mm);

	cma_mm_set_trace(mm, count_trace, &tc);
	assert_int_equal(cma_compact_memory(mm), 0);
	cma_mm_set_trace(mm, NULL, NULL);
	if (largest_free_order(mm, z) < 9) {
		print_error("after compact_memory: expected a free block of order >= 9, largest is %d\n",
			    largest_free_order(mm, z));
		fail();
	}
	assert_int_equal(owner_check(o), resident);
	assert_true(o->migrated > 0);
	assert_true(tc.isolate_migratepages > 0 && tc.isolate_freepages > 0 && tc.migratepages > 0);
	assert_true(counter(mm, "compact_migrate_scanned") > 0);
	assert_true(counter(mm, "compact_free_scanned") > 0);
	assert_true(counter(mm, "compact_isolated") > 0);
	assert_int_equal(zone_page_state(z, NR_ISOLATED_FILE), 0);
	assert_verify(mm);

	page = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 9);
	assert_non_null(page);
	assert_int_equal(owner_check(o), resident);
	cma_free_pages(mm, page, 9);
	assert_verify(mm);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: direct compaction for order 9 stops as soon as the allocation
 * can succeed (COMPACT_PARTIAL, not a full run), counts one stall, and
 * the order-9 allocation that follows succeeds.
 */
static void try_to_compact_pages_fragmented_zone_stops_at_order9(void **state)
{
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	long resident = (long)owner_resident(o);
	uint64_t stalls = counter(mm, "compact_stall");
	struct cma_page *page;
	unsigned long rc;

	assert_true(largest_free_order(mm, z) < 9);
	assert_verify(mm);
	rc = try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL, MIGRATE_UNMOVABLE);
	assert_int_equal(rc, COMPACT_PARTIAL);
	/* 6.12 (kernel.compact_priority): __alloc_pages_direct_compact counts it */
	assert_int_equal(counter(mm, "compact_stall"), stalls + !mm->kernel.compact_priority);
	assert_true(largest_free_order(mm, z) >= 9);
	assert_true(o->migrated > 0 && o->migrated < (unsigned long)resident);
	assert_int_equal(owner_check(o), resident);
	assert_verify(mm);

	page = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 9);
	assert_non_null(page);
	cma_free_pages(mm, page, 9);
	assert_int_equal(owner_check(o), resident);
	assert_verify(mm);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: a synchronous whole-zone run goes through the zone, migrating
 * around pinned pages: each pinned page stays where it is, its owner
 * still points at it, its bytes are intact; the migrations that failed
 * on the pins are counted.
 */
static void compact_zone_sync_leaves_pinned_pages(void **state)
{
	enum { NR_PINS = 16 };
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	long resident = (long)owner_resident(o);
	struct cma_page *pinned[NR_PINS];
	uint64_t slot[NR_PINS], fails = counter(mm, "pgmigrate_fail");
	struct compact_control cc;
	int n = 0, rc;

	/* the lowest pages: the migrate scanner reaches them first */
	for (unsigned long pfn = z->zone_start_pfn; n < NR_PINS; pfn++) {
		struct cma_page *page = pfn_to_page(mm, pfn);

		if (!page_test(page, PG_movable) || page->owner != o)
			continue;
		cma_page_get(mm, page);
		pinned[n] = page;
		slot[n++] = page->private;
	}
	assert_verify(mm);

	compact_control_init(&cc, z, -1, true);
	lru_add_drain_all(mm);
	rc = compact_zone(z, &cc);
	/* the scanners met, or the last batch found no free page left above them (6.12: CONTENDED) */
	assert_true(rc == COMPACT_COMPLETE ||
		    rc == (mm->kernel.compact_priority ? COMPACT_CONTENDED : COMPACT_PARTIAL));
	assert_true(cc.free_pfn <= cc.migrate_pfn + 2 * mm->pageblock_nr_pages);
	for (unsigned ord = 0; ord < mm->max_order; ord++)
		assert_true(page_list_empty(&cc.freepages[ord]));
	assert_true(page_list_empty(&cc.migratepages));
	assert_int_equal(cc.nr_freepages, 0);
	assert_int_equal(cc.nr_migratepages, 0);
	for (int i = 0; i < NR_PINS; i++) {
		assert_ptr_equal(o->slots[slot[i]].page, pinned[i]);
		assert_true(page_test(pinned[i], PG_movable));
		assert_true(page_count(pinned[i]) >= 2);
	}
	assert_true(o->migrated > 0);
	assert_true(counter(mm, "pgmigrate_fail") >= fails + NR_PINS);
	assert_int_equal(owner_check(o), resident);
	assert_verify(mm);

	for (int i = 0; i < NR_PINS; i++)
		cma_page_put(mm, pinned[i]);
	assert_int_equal(owner_check(o), resident);
	assert_verify(mm);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (isolate_freepages_block and isolate_migratepages_range of v3.5
 * both list_add): two neighbouring pages low in an otherwise free zone
 * move to the top of the first free pageblock the free scanner takes.
 * The free list hands out the last page it took first, and the batch
 * migrates its highest page first, so the higher page lands on the last
 * pfn of that pageblock and the lower one just below it. (Adding at the
 * tail put them on the pageblock's first two pfns.) From 6.9
 * (compact_folios) the free scanner keeps the block whole and each
 * target is cut from its lowest pfns: the higher page lands on the
 * pageblock's first pfn, the lower one just above it.
 */
static void compact_zone_targets_in_kernel_list_order(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct zone *z = normal(mm);
	unsigned long nr = mm->end_pfn - mm->base_pfn, pa = 0, pb;
	struct fake_owner *o = owner_create(mm, false, nr);
	uint64_t n, a = UINT64_MAX, b = UINT64_MAX;
	struct compact_control cc;

	for (n = 0; n < nr && zone_page_state(z, NR_FREE_PAGES) > low_wmark_pages(z) + 64; n++)
		assert_non_null(owner_fault(o, n, CMA_GFP_HIGHUSER_MOVABLE, n + 1));
	lru_add_drain_all(mm);
	/* the lowest pair of neighbours the owner holds */
	for (unsigned long pfn = z->zone_start_pfn; a == UINT64_MAX; pfn++) {
		struct cma_page *lo = pfn_to_page(mm, pfn), *hi = lo + 1;

		if (page_test(lo, PG_movable) && page_test(hi, PG_movable)) {
			a = lo->private;
			b = hi->private;
			pa = pfn;
		}
	}
	assert_true(pa < z->zone_start_pfn + z->spanned_pages / 2);
	for (uint64_t i = 0; i < n; i++)
		if (i != a && i != b)
			owner_release(o, i);
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	assert_verify(mm);

	compact_control_init(&cc, z, -1, true);
	assert_int_equal(compact_zone(z, &cc), COMPACT_COMPLETE);
	assert_int_equal(o->migrated, 2);
	pa = page_to_pfn(mm, o->slots[a].page);
	pb = page_to_pfn(mm, o->slots[b].page);
	if (mm->kernel.compact_folios && (pb % mm->pageblock_nr_pages || pa != pb + 1)) {
		print_error("expected the pair on a pageblock's first two pfns, higher page first; found %#lx and %#lx\n",
			    pa, pb);
		fail();
	}
	if (!mm->kernel.compact_folios && ((pb + 1) % mm->pageblock_nr_pages || pa != pb - 1)) {
		print_error("expected the pair on a pageblock's last two pfns, higher page last; found %#lx and %#lx\n",
			    pa, pb);
		fail();
	}
	assert_int_equal(owner_check(o), 2);
	assert_verify(mm);
	owner_destroy(o);
	lru_add_drain_all(mm);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* An owner at work on CPU 1 while compaction runs on CPU 0. */
struct race {
	struct cma_mm *mm;
	struct fake_owner *o;
	atomic_bool stop;
	uint64_t seed;
	unsigned long writes, refaults;
};

static void *owner_at_work(void *arg)
{
	struct race *r = arg;
	uint64_t rnd = r->seed;

	cma_mm_bind_cpu(r->mm, 1);
	while (!atomic_load(&r->stop)) {
		uint64_t i = prandom_u64_state(&rnd) % r->o->nr_slots;
		bool resident = owner_write(r->o, i, prandom_u64_state(&rnd));

		r->writes += resident;
		if (resident && prandom_u64_state(&rnd) % 8 == 0) {
			owner_release(r->o, i);
			r->refaults += owner_fault(r->o, i, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN,
						   prandom_u64_state(&rnd)) != NULL;
		}
	}
	return NULL;
}

/*
 * Expect: while an owner rewrites its pages through tryget/put, and
 * frees and refaults some (so that pages are freed while isolated, and
 * new ones wait in CPU 1's pagevec), compact_memory loses no write and
 * leaves a consistent machine.
 */
static void compact_memory_races_owner(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .cpus = 2);
	struct race r = { .mm = mm, .seed = test_seed(__func__) };
	pthread_t t;

	r.o = fragment(mm, &r.seed);
	assert_verify(mm);
	assert_int_equal(pthread_create(&t, NULL, owner_at_work, &r), 0);
	for (int round = 0; round < 3; round++)
		assert_int_equal(cma_compact_memory(mm), 0);
	atomic_store(&r.stop, true);
	pthread_join(t, NULL);
	printf("races: %lu writes, %lu refaults, %lu pages moved\n", r.writes, r.refaults,
	       r.o->migrated);
	assert_true(r.o->migrated > 0);
	assert_int_equal(owner_check(r.o), (long)owner_resident(r.o));
	lru_add_drain_all(mm);
	assert_verify(mm);
	owner_destroy(r.o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: direct compaction runs only for order > 0 with __GFP_FS and
 * __GFP_IO, and each run counts one compact_stall, even one that finds
 * compaction not worth it (watermark not met: COMPACT_SKIPPED; the low
 * mark, from 4.9 the min mark for order 3). On a
 * fresh zone an order-3 request can already succeed: COMPACT_PARTIAL.
 * 6.12 (kernel.compact_priority) counts the stall in its caller,
 * __alloc_pages_direct_compact: none here.
 */
static void try_to_compact_pages_counts_stalls(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long low = low_wmark_pages(z), min = min_wmark_pages(z);
	uint64_t stalls = counter(mm, "compact_stall");
	uint64_t per_run = !mm->kernel.compact_priority;

	assert_int_equal(try_to_compact_pages(mm, CMA_GFP_KERNEL, 0, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL,
					      MIGRATE_UNMOVABLE), COMPACT_SKIPPED);
	assert_int_equal(try_to_compact_pages(mm, CMA_GFP_NOIO, 3, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL,
					      MIGRATE_UNMOVABLE), COMPACT_SKIPPED);
	assert_int_equal(counter(mm, "compact_stall"), stalls);

	assert_int_equal(try_to_compact_pages(mm, CMA_GFP_KERNEL, 3, COMPACT_PRIO_ASYNC, ZONE_NORMAL,
					      MIGRATE_UNMOVABLE), COMPACT_PARTIAL);
	assert_int_equal(counter(mm, "compact_stall"), stalls + per_run);
	assert_verify(mm);

	set_low_wmark(z, zone_page_state(z, NR_FREE_PAGES) + 1);
	/* from 4.9 (kernel.compact_suitable_min) order 3 is held to the min mark */
	if (mm->kernel.compact_suitable_min)
		__atomic_store_n(&z->watermark[WMARK_MIN], low_wmark_pages(z), __ATOMIC_RELAXED);
	assert_int_equal(try_to_compact_pages(mm, CMA_GFP_KERNEL, 3, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL,
					      MIGRATE_UNMOVABLE), COMPACT_SKIPPED);
	__atomic_store_n(&z->watermark[WMARK_MIN], min, __ATOMIC_RELAXED);
	set_low_wmark(z, low);
	assert_int_equal(counter(mm, "compact_stall"), stalls + 2 * per_run);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * A zone where no order-9 block can ever form: every other page held
 * unmovable, the holes free or holding @nr_file clean file pages that
 * reclaim can always drop. Returns the unmovable pages (free() them).
 */
static struct cma_page **interleave_unmovable(struct cma_mm *mm, struct fake_owner *o,
					      uint64_t nr_file, unsigned long *nr_pinned)
{
	unsigned long nr = mm->end_pfn - mm->base_pfn, n, kept = 0;
	struct cma_page **pages = malloc(nr * sizeof(*pages));

	assert_non_null(pages);
	n = test_alloc_all(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, pages, nr);
	for (unsigned long i = 0; i < n; i++) {
		if (page_to_pfn(mm, pages[i]) & 1)
			cma_free_pages(mm, pages[i], 0);
		else
			pages[kept++] = pages[i];
	}
	cma_drain_all_pages(mm);
	owner_fault_range(o, 0, nr_file, CMA_GFP_HIGHUSER_MOVABLE);
	lru_add_drain_all(mm);
	*nr_pinned = kept;
	return pages;
}

/*
 * Expect (__alloc_pages_direct_compact, compaction_deferred and
 * defer_compaction of v3.5): order-9 requests that compaction cannot
 * help. The first compacts async, reclaims, compacts sync and fails:
 * only that sync failure defers. From then on the requests consider
 * compaction twice each (async, then sync after reclaim) and run it
 * only at the 2nd, 4th, 8th consideration after each failure: 2, 1, 0,
 * 1, 0, 0, 0, 1 stalls. Today's every-request compaction stalls twice
 * each time.
 */
static void direct_compact_deferred_after_sync_failure(void **state)
{
	static const uint64_t expect[] = { 2, 1, 0, 1, 0, 0, 0, 1 };
	/* v3.5's path; 6.12's is alloc_pages_deferred_consideration_counts_stall's */
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true, .kernel = "3.5");
	struct fake_owner *o = owner_create(mm, false, 1024);
	unsigned long nr_pinned;
	struct cma_page **pinned = interleave_unmovable(mm, o, 1024, &nr_pinned);
	uint64_t stalls[8], before;

	for (int i = 0; i < 8; i++) {
		before = counter(mm, "compact_stall");

		assert_null(cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 9));
		stalls[i] = counter(mm, "compact_stall") - before;
	}
	for (int i = 0; i < 8; i++) {
		if (stalls[i] != expect[i]) {
			print_error("request %d: expected %llu compaction stalls, found %llu\n", i + 1,
				    (unsigned long long)expect[i], (unsigned long long)stalls[i]);
			fail();
		}
	}
	assert_int_equal(normal(mm)->compact_defer_shift, 4);	/* four failures */
	/* it starts at 0, as the kernel's zeroed zone: only a success raises it */
	assert_int_equal(normal(mm)->compact_order_failed, 0);
	assert_int_equal(counter(mm, "compact_success"), 0);
	assert_verify(mm);
	owner_destroy(o);
	for (unsigned long i = 0; i < nr_pinned; i++)
		cma_free_pages(mm, pinned[i], 0);
	free(pinned);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (__alloc_pages_direct_compact and defer_compaction of v3.5):
 * compaction that gives an order-9 request its page ends the zone's
 * deferral and raises compact_order_failed to 10, so that smaller orders
 * are never deferred until one of them fails in sync mode, which lowers
 * it to that order.
 */
static void direct_compact_success_resets_deferral(void **state)
{
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	struct cma_page *page;

	assert_true(largest_free_order(mm, z) < 9);
	/* as after a sync failure at order 9, with the next consideration let through */
	defer_compaction(z, 9);
	assert_true(compaction_deferred(z, 9));
	page = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 9);
	assert_non_null(page);
	assert_int_equal(counter(mm, "compact_success"), 1);
	assert_int_equal(z->compact_defer_shift, 0);
	assert_int_equal(z->compact_considered, 0);
	assert_int_equal(z->compact_order_failed, 10);
	assert_false(compaction_deferred(z, 9));
	defer_compaction(z, 4);
	assert_int_equal(z->compact_order_failed, 4);
	assert_false(compaction_deferred(z, 3));
	assert_true(compaction_deferred(z, 4));
	cma_free_pages(mm, page, 9);
	assert_verify(mm);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- isolate_freepages_range ---- */

/* The buddy state, with every per-CPU list drained into it first. */
struct free_state {
	unsigned long free;
	unsigned long nr_free[MAX_ORDER_LIMIT];
};

static void free_state(struct cma_mm *mm, struct zone *z, struct free_state *s)
{
	cma_drain_all_pages(mm);
	spin_lock(&z->lock);
	s->free = zone_page_state(z, NR_FREE_PAGES);
	for (unsigned o = 0; o < MAX_ORDER_LIMIT; o++)
		s->nr_free[o] = z->free_area[o].nr_free;
	spin_unlock(&z->lock);
}

static void assert_free_state_unchanged(struct cma_mm *mm, struct zone *z,
					const struct free_state *before, const char *after)
{
	struct free_state now;

	free_state(mm, z, &now);
	if (now.free != before->free) {
		print_error("after %s: expected %lu free pages, found %lu\n", after, before->free,
			    now.free);
		fail();
	}
	for (unsigned o = 0; o < MAX_ORDER_LIMIT; o++) {
		if (now.nr_free[o] != before->nr_free[o]) {
			print_error("after %s: expected %lu free blocks of order %u, found %lu\n",
				    after, before->nr_free[o], o, now.nr_free[o]);
			fail();
		}
	}
}

/* The pfn of the first free block of @order on the MOVABLE lists. */
static unsigned long free_block_pfn(struct cma_mm *mm, struct zone *z, unsigned order)
{
	struct cma_page *page;

	spin_lock(&z->lock);
	page = page_list_first(mm, &z->free_area[order].free_list[MIGRATE_MOVABLE]);
	spin_unlock(&z->lock);
	assert_non_null(page);
	return page_to_pfn(mm, page);
}

/* Every page of [start, end) is an order-0 allocation that isolation made. */
static void assert_taken(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	for (unsigned long pfn = start; pfn < end; pfn++) {
		struct cma_page *page = pfn_to_page(mm, pfn);

		if (!page_test(page, PG_head) || page_test(page, PG_buddy | PG_pcp) ||
		    page_order(page) != 0 || page_count(page) != 1) {
			print_error("pfn %#lx: expected an order-0 page with count 1, found flags %#x count %d\n",
				    pfn, page_flags(page), page_count(page));
			fail();
		}
	}
}

static void give_back(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	for (unsigned long pfn = start; pfn < end; pfn++)
		cma_free_pages(mm, pfn_to_page(mm, pfn), 0);
}

/*
 * Lay out a free order-10 block at @p with one page allocated at p + 700:
 *
 *   p       p+512   p+640 p+672 p+688 p+696 p+700 p+701 p+702  p+704  p+768   p+1024
 *   | o9    | o7    | o5  | o4  | o3  | o2  | X   | o0  | o1   | o6   | o8    |
 */
static void layout_one_allocated(struct cma_mm *mm, unsigned long p)
{
	assert_int_equal(isolate_freepages_range(mm, p, p + 1024), p + 1024);
	give_back(mm, p, p + 700);
	give_back(mm, p + 701, p + 1024);
	cma_drain_all_pages(mm);
}

/*
 * Expect: a free range is taken whole, every page an order-0 allocation,
 * and the return value is its end; giving the pages back restores the
 * buddy state exactly. A range starting inside a free block is refused.
 */
static void isolate_freepages_range_free_range_taken(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long p = free_block_pfn(mm, z, 10);
	uint64_t isolated = counter(mm, "compact_isolated");
	struct free_state before;

	free_state(mm, z, &before);
	assert_int_equal(isolate_freepages_range(mm, p, p + 1024), p + 1024);
	assert_taken(mm, p, p + 1024);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), before.free - 1024);
	assert_int_equal(counter(mm, "compact_isolated"), isolated + 1024);
	assert_verify(mm);
	give_back(mm, p, p + 1024);
	assert_free_state_unchanged(mm, z, &before, "giving the range back");
	assert_verify(mm);

	assert_int_equal(isolate_freepages_range(mm, p + 1, p + 2), 0);
	assert_free_state_unchanged(mm, z, &before, "a range starting inside a free block");
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: when the range ends inside a free block the whole block is
 * taken and the pfn past it returned, for the caller to give back.
 */
static void isolate_freepages_range_ends_inside_block_returns_past_end(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long p = free_block_pfn(mm, z, 10);
	struct free_state before;

	free_state(mm, z, &before);
	assert_int_equal(isolate_freepages_range(mm, p, p + 100), p + 1024);
	assert_taken(mm, p, p + 1024);
	assert_verify(mm);
	give_back(mm, p, p + 1024);
	assert_free_state_unchanged(mm, z, &before, "giving the block back");
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: one allocated page in the range makes it fail with 0, and the
 * blocks already split before reaching it (p .. p+699) go back: the
 * buddy state after a drain is the one before the call.
 */
static void isolate_freepages_range_allocated_page_undoes_all(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long p = free_block_pfn(mm, z, 10);
	struct free_state before;

	layout_one_allocated(mm, p);
	assert_verify(mm);
	free_state(mm, z, &before);
	assert_int_equal(isolate_freepages_range(mm, p, p + 1024), 0);
	assert_free_state_unchanged(mm, z, &before, "a refused range");
	assert_verify(mm);

	/* around the allocated page, both sides are free ranges */
	assert_int_equal(isolate_freepages_range(mm, p, p + 700), p + 700);
	assert_int_equal(isolate_freepages_range(mm, p + 701, p + 1024), p + 1024);
	assert_taken(mm, p, p + 1024);
	assert_verify(mm);
	give_back(mm, p, p + 1024);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: split_free_page's watermark (low + 2^order, v3.5) refuses a split:
 * with the low mark above the free count nothing is taken; with it set so
 * that the order-9 block passes but the order-7 one after it does not,
 * the order-9 block is given back. Nothing leaks either way.
 */
static void isolate_freepages_range_watermark_refusal(void **state)
{
	/* v3.5's split_free_page mark (low); 6.12's is min, none for an isolated block */
	SKIP_UNLESS_KERNEL_35();
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long low = low_wmark_pages(z);
	unsigned long p = free_block_pfn(mm, z, 10);
	struct free_state before;

	free_state(mm, z, &before);
	set_low_wmark(z, before.free + 1);
	assert_int_equal(isolate_freepages_range(mm, p, p + 1024), 0);
	set_low_wmark(z, low);
	assert_free_state_unchanged(mm, z, &before, "a split refused by the watermark");
	assert_verify(mm);

	layout_one_allocated(mm, p);
	free_state(mm, z, &before);
	/* p (order 9): free > low + 512 holds; p + 512 (order 7): free - 512 > low + 128 fails */
	set_low_wmark(z, before.free - 600);
	assert_int_equal(isolate_freepages_range(mm, p, p + 700), 0);
	set_low_wmark(z, low);
	assert_free_state_unchanged(mm, z, &before, "a second split refused by the watermark");
	assert_verify(mm);

	assert_int_equal(isolate_freepages_range(mm, p, p + 700), p + 700);
	give_back(mm, p, p + 700);
	assert_free_state_unchanged(mm, z, &before, "giving the range back");
	cma_free_pages(mm, pfn_to_page(mm, p + 700), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- isolate_migratepages_range ---- */

static void expect_isolated(struct cma_mm *mm, struct compact_control *cc, struct fake_owner *o,
			    uint64_t max_slot)
{
	unsigned long n = 0;

	for (struct cma_page *page = page_list_first(mm, &cc->migratepages); page;
	     page = page_list_next(mm, page), n++) {
		if (!page_test(page, PG_isolated) || page_test(page, PG_lru) ||
		    page_order(page) != 0 || page->owner != o || page->private >= max_slot) {
			print_error("pfn %#lx isolated: expected an order-0 page of slots 0..%llu, found flags %#x index %llu\n",
				    page_to_pfn(mm, page), (unsigned long long)max_slot - 1,
				    page_flags(page), (unsigned long long)page->private);
			fail();
		}
	}
	assert_int_equal(n, cc->nr_migratepages);
}

static void put_back(struct cma_mm *mm, struct compact_control *cc)
{
	putback_lru_pages(mm, &cc->migratepages);
	cc->nr_migratepages = 0;
	lru_add_drain(mm);
}

/*
 * Expect: walking the zone takes the 100 LRU pages in batches of at most
 * 32, each call returning the pfn after its last page; it leaves alone
 * pages still in another CPU's pagevec, unmovable pages and an order-2
 * movable page on the LRU. The scan is alloc_contig_range's (not
 * compacting), so the release is one before 5.7, whose alloc_contig_range
 * takes the order-2 page too (test_migrate_profiles checks both sides).
 */
static void isolate_migratepages_range_takes_lru_pages_in_batches(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true, .cpus = 2,
				    .kernel = "3.5");
	struct zone *z = normal(mm);
	struct fake_owner *o = owner_create(mm, true, 200);
	unsigned long end = z->zone_start_pfn + z->spanned_pages, total = 0;
	struct cma_page *unmovable[10], *big;
	struct compact_control cc;
	int calls = 0;

	owner_fault_range(o, 0, 100, CMA_GFP_HIGHUSER_MOVABLE);
	lru_add_drain_all(mm);
	cma_mm_bind_cpu(mm, 1);
	owner_fault_range(o, 100, 5, CMA_GFP_HIGHUSER_MOVABLE);		/* left in CPU 1's pagevec */
	cma_mm_bind_cpu(mm, 0);
	for (int i = 0; i < 10; i++)
		assert_non_null(unmovable[i] = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0));
	/* slot 199 does not point at it: an order-2 movable page no owner would let go */
	big = cma_alloc_movable(mm, CMA_GFP_HIGHUSER_MOVABLE, 2, &fake_anon_ops, o, 199);
	assert_non_null(big);
	lru_add_drain(mm);
	assert_true(page_test(big, PG_lru));
	assert_verify(mm);

	compact_control_init(&cc, z, -1, true);
	for (unsigned long pfn = z->zone_start_pfn; pfn < end; calls++) {
		unsigned long next = isolate_migratepages_range(z, &cc, pfn, end);

		assert_true(next > pfn);
		assert_true(cc.nr_migratepages <= COMPACT_CLUSTER_MAX);
		expect_isolated(mm, &cc, o, 100);
		if (next < end) {
			assert_int_equal(cc.nr_migratepages, COMPACT_CLUSTER_MAX);
			/* the last page taken is at the head (list_add) */
			assert_int_equal(next, page_to_pfn(mm, page_list_first(mm, &cc.migratepages)) + 1);
		}
		total += cc.nr_migratepages;
		put_back(mm, &cc);
		pfn = next;
	}
	assert_int_equal(total, 100);
	assert_int_equal(calls, 4);
	assert_true(page_test(big, PG_lru) && !page_test(big, PG_isolated));
	for (uint64_t i = 100; i < 105; i++)
		assert_false(page_test(o->slots[i].page, PG_lru | PG_isolated));
	assert_int_equal(zone_page_state(z, NR_ISOLATED_ANON), 0);
	assert_verify(mm);

	cma_free_pages(mm, big, 2);
	for (int i = 0; i < 10; i++)
		cma_free_pages(mm, unmovable[i], 0);
	owner_destroy(o);
	lru_add_drain_all(mm);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (v3.5 isolate_migratepages_range through __isolate_lru_page):
 * an mlocked page on LRU_UNEVICTABLE is passed over, in sync mode too;
 * the others of the batch are taken. v3.5's: alloc_contig_range's scan
 * takes it from 3.7 on (test_migrate_profiles checks both sides).
 */
static void isolate_migratepages_range_skips_mlocked(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true, .kernel = "3.5");
	struct zone *z = normal(mm);
	struct fake_owner *o = owner_create(mm, true, 8);
	struct compact_control cc;
	struct cma_page *locked;

	owner_fault_range(o, 0, 8, CMA_GFP_HIGHUSER_MOVABLE);
	lru_add_drain_all(mm);
	locked = o->slots[3].page;
	cma_page_set_mlocked(mm, locked, true);
	assert_int_equal(page_lru(locked), LRU_UNEVICTABLE);
	compact_control_init(&cc, z, -1, true);
	isolate_migratepages_range(z, &cc, z->zone_start_pfn, z->zone_start_pfn + z->spanned_pages);
	assert_int_equal(cc.nr_migratepages, 7);
	assert_true(page_test(locked, PG_lru) && !page_test(locked, PG_isolated));
	put_back(mm, &cc);
	assert_verify(mm);
	owner_destroy(o);
	lru_add_drain_all(mm);
	assert_int_equal(global_page_state(mm, NR_MLOCK), 0);
	assert_int_equal(global_page_state(mm, NR_UNEVICTABLE), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const nofs_kernels[] = { "3.5", "4.10", "6.12" };

/*
 * Expect ("mm, compaction: allow compaction for GFP_NOFS requests", 4.10):
 * a compaction run whose gfp mask lacks __GFP_FS isolates the anonymous
 * pages and leaves the file pages (they have a mapping); with __GFP_FS it
 * takes both; v3.5 takes both whatever the mask. Direct compaction of a
 * GFP_NOFS request runs from 4.10 on (a fresh zone: it would succeed
 * now), where v3.5 skips it; a GFP_NOIO one is skipped by both.
 */
static void isolate_migratepages_range_nofs_anon_only(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
				    .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *anon = owner_create(mm, true, 4), *file = owner_create(mm, false, 4);
	bool v410 = k > 0;
	struct compact_control cc;

	assert_int_equal(try_to_compact_pages(mm, CMA_GFP_NOFS, 3, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL,
					      MIGRATE_MOVABLE), v410 ? COMPACT_PARTIAL : COMPACT_SKIPPED);
	assert_int_equal(try_to_compact_pages(mm, CMA_GFP_NOIO, 3, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL,
					      MIGRATE_MOVABLE), COMPACT_SKIPPED);
	owner_fault_range(anon, 0, 4, CMA_GFP_HIGHUSER_MOVABLE);
	owner_fault_range(file, 0, 4, CMA_GFP_HIGHUSER_MOVABLE);
	lru_add_drain_all(mm);
	for (int fs = 0; fs < 2; fs++) {
		compact_control_init(&cc, z, -1, true);
		cc.gfp_mask = fs ? CMA_GFP_KERNEL : CMA_GFP_NOFS;
		isolate_migratepages_range(z, &cc, z->zone_start_pfn,
					   z->zone_start_pfn + z->spanned_pages);
		assert_int_equal(cc.nr_migratepages, fs || !v410 ? 8 : 4);
		for (uint64_t i = 0; i < 4 && !fs && v410; i++)
			assert_false(page_test(file->slots[i].page, PG_isolated));
		put_back(mm, &cc);
		assert_verify(mm);
	}
	owner_destroy(anon);
	owner_destroy(file);
	cma_mm_destroy(mm);
}

/*
 * Expect: a direct async scan for a movable request passes over whole
 * pageblocks that are neither MOVABLE nor CMA (every async scan before
 * 4.12, kernel.compact_async_same_type), and over pages under writeback;
 * sync mode takes them.
 */
static void isolate_migratepages_range_async_skips(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true);
	struct zone *z = normal(mm);
	struct fake_owner *o = owner_create(mm, true, 64);
	unsigned long nr = mm->pageblock_nr_pages, block, lru = 0, wpfn;
	struct compact_control cc;
	struct cma_page *w;

	owner_fault_range(o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
	lru_add_drain_all(mm);
	block = page_to_pfn(mm, o->slots[0].page) & ~(nr - 1);
	for (unsigned long pfn = block; pfn < block + nr; pfn++)
		lru += page_test(pfn_to_page(mm, pfn), PG_lru);
	assert_true(lru > 0);
	if (lru > COMPACT_CLUSTER_MAX)
		lru = COMPACT_CLUSTER_MAX;

	set_block_type(mm, z, block, MIGRATE_UNMOVABLE);
	compact_control_init(&cc, z, -1, false);
	cc.direct = true;
	assert_int_equal(isolate_migratepages_range(z, &cc, block, block + nr), block + nr);
	assert_int_equal(cc.nr_migratepages, 0);
	cc.sync = true;
	isolate_migratepages_range(z, &cc, block, block + nr);
	assert_int_equal(cc.nr_migratepages, lru);
	put_back(mm, &cc);

	set_block_type(mm, z, block, MIGRATE_CMA);	/* CMA blocks are fine for async */
	cc.sync = false;
	isolate_migratepages_range(z, &cc, block, block + nr);
	assert_int_equal(cc.nr_migratepages, lru);
	put_back(mm, &cc);
	set_block_type(mm, z, block, MIGRATE_MOVABLE);
	assert_verify(mm);

	w = o->slots[1].page;
	wpfn = page_to_pfn(mm, w);
	assert_true(page_test(w, PG_lru));
	page_flags_set(w, PG_writeback);
	assert_int_equal(isolate_migratepages_range(z, &cc, wpfn, wpfn + 1), wpfn + 1);
	assert_int_equal(cc.nr_migratepages, 0);
	cc.sync = true;
	isolate_migratepages_range(z, &cc, wpfn, wpfn + 1);
	assert_int_equal(cc.nr_migratepages, 1);
	assert_ptr_equal(page_list_first(mm, &cc.migratepages), w);
	put_back(mm, &cc);
	page_flags_clear(w, PG_writeback);
	assert_verify(mm);

	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: a pinned page is isolated like any other (the pin makes its
 * migration fail, not its isolation), holding one more reference; put
 * back, it is on the LRU with its owner's and the pin's references.
 */
static void isolate_migratepages_range_isolates_pinned_page(void **state)
{
	/*
	 * v3.5 isolates a pinned anonymous page; 6.12 leaves it ("mm/compaction:
	 * avoid isolating pinned pages"), tested in test_gup.c.
	 */
	SKIP_UNLESS_KERNEL_35();
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true);
	struct zone *z = normal(mm);
	struct fake_owner *o = owner_create(mm, true, 8);
	struct compact_control cc;
	struct cma_page *p;
	unsigned long pfn;

	owner_fault_range(o, 0, 8, CMA_GFP_HIGHUSER_MOVABLE);
	lru_add_drain_all(mm);
	p = o->slots[3].page;
	pfn = page_to_pfn(mm, p);
	cma_page_get(mm, p);
	assert_int_equal(page_count(p), 2);

	compact_control_init(&cc, z, -1, true);
	assert_int_equal(isolate_migratepages_range(z, &cc, pfn, pfn + 1), pfn + 1);
	assert_int_equal(cc.nr_migratepages, 1);
	assert_ptr_equal(page_list_first(mm, &cc.migratepages), p);
	assert_int_equal(page_count(p), 3);
	assert_int_equal(zone_page_state(z, NR_ISOLATED_ANON), 1);
	assert_verify(mm);
	put_back(mm, &cc);
	assert_true(page_test(p, PG_lru));
	assert_int_equal(page_count(p), 2);
	assert_int_equal(zone_page_state(z, NR_ISOLATED_ANON), 0);
	assert_verify(mm);

	cma_page_put(mm, p);
	assert_int_equal(page_count(p), 1);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: with more pages isolated than half of those on the LRU (64
 * isolated, 36 left), async isolation gives up at once and sync gives up
 * after its bounded wait, both returning 0 and taking nothing; once the
 * pages are back, isolation works again.
 */
static void isolate_migratepages_range_too_many_isolated(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true);
	struct zone *z = normal(mm);
	struct fake_owner *o = owner_create(mm, true, 100);
	unsigned long end = z->zone_start_pfn + z->spanned_pages, pfn;
	struct compact_control cc, other;

	owner_fault_range(o, 0, 100, CMA_GFP_HIGHUSER_MOVABLE);
	lru_add_drain_all(mm);
	compact_control_init(&cc, z, -1, true);
	pfn = isolate_migratepages_range(z, &cc, z->zone_start_pfn, end);
	assert_int_equal(cc.nr_migratepages, 32);
	cc.nr_migratepages = 0;		/* a second batch on the same list */
	pfn = isolate_migratepages_range(z, &cc, pfn, end);
	assert_int_equal(cc.nr_migratepages, 32);
	assert_int_equal(zone_page_state(z, NR_ISOLATED_ANON), 64);

	compact_control_init(&other, z, -1, false);
	assert_int_equal(isolate_migratepages_range(z, &other, pfn, end), 0);
	other.sync = true;
	assert_int_equal(isolate_migratepages_range(z, &other, pfn, end), 0);
	assert_int_equal(other.nr_migratepages, 0);
	assert_true(page_list_empty(&other.migratepages));
	assert_verify(mm);

	put_back(mm, &cc);
	assert_int_equal(zone_page_state(z, NR_ISOLATED_ANON), 0);
	assert_true(isolate_migratepages_range(z, &other, pfn, end) > pfn);
	assert_int_equal(other.nr_migratepages, COMPACT_CLUSTER_MAX);	/* of the 36 left */
	put_back(mm, &other);
	assert_verify(mm);

	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- fragmentation_index ---- */

static void expect_index(struct zone *z, unsigned order, int expected)
{
	int found = fragmentation_index(z, order);

	if (found != expected) {
		print_error("fragmentation_index(order %u): expected %d, found %d\n", order, expected,
			    found);
		fail();
	}
}

/*
 * Expect the kernel's index, 1000 - (1000 + 1000 * free / 2^order) / blocks,
 * on states built by allocating everything and freeing chosen pages:
 *   nothing free                 0 for any order
 *   one order-0 page             order 1: 1000 - 1500 = -500 (the formula's own quirk)
 *   four order-0 pages           order 1: 250, 2: 500, 3: 625, 10: 750; order 0: -1000
 *   four order-0 + one order-1   order 1: -1000, 2: 500, 3: 650
 * and -1000 on a fresh machine, where blocks of the largest order are free.
 */
static void fragmentation_index_crafted_states(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .size = 16 * MiB, .metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long nr = mm->end_pfn - mm->base_pfn, max = 4096, n, singles[4], pair = 0;
	struct cma_page **pages = calloc(max, sizeof(*pages));
	long *index_at = malloc(nr * sizeof(*index_at));
	int found = 0;

	assert_non_null(pages);
	assert_non_null(index_at);
	expect_index(z, 9, -1000);
	expect_index(z, 10, -1000);

	test_zero_watermarks(mm);
	n = test_alloc_all(mm, CMA_GFP_KERNEL, pages, max);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), 0);
	assert_verify(mm);
	expect_index(z, 0, 0);
	expect_index(z, 5, 0);

	for (unsigned long i = 0; i < nr; i++)
		index_at[i] = -1;
	for (unsigned long i = 0; i < n; i++)
		index_at[page_to_pfn(mm, pages[i]) - mm->base_pfn] = (long)i;
	/* singles at pfn % 64 == 0, the pair at % 64 == 34: no two are buddies */
	for (unsigned long i = 0; i + 1 < nr && (found < 4 || !pair); i++) {
		if (i % 64 == 0 && found < 4 && index_at[i] >= 0)
			singles[found++] = i;
		else if (i % 64 == 34 && !pair && index_at[i] >= 0 && index_at[i + 1] >= 0)
			pair = i;
	}
	assert_int_equal(found, 4);
	assert_true(pair != 0);

	cma_free_pages(mm, pages[index_at[singles[0]]], 0);
	cma_drain_all_pages(mm);
	expect_index(z, 0, -1000);
	expect_index(z, 1, -500);
	assert_verify(mm);

	for (int i = 1; i < 4; i++)
		cma_free_pages(mm, pages[index_at[singles[i]]], 0);
	cma_drain_all_pages(mm);
	assert_int_equal(z->free_area[0].nr_free, 4);
	expect_index(z, 0, -1000);
	expect_index(z, 1, 250);
	expect_index(z, 2, 500);
	expect_index(z, 3, 625);
	expect_index(z, 10, 750);
	assert_verify(mm);

	cma_free_pages(mm, pages[index_at[pair]], 0);
	cma_free_pages(mm, pages[index_at[pair + 1]], 0);
	cma_drain_all_pages(mm);
	assert_int_equal(z->free_area[1].nr_free, 1);
	expect_index(z, 1, -1000);
	expect_index(z, 2, 500);
	expect_index(z, 3, 650);
	assert_verify(mm);

	for (int i = 0; i < 4; i++)
		pages[index_at[singles[i]]] = NULL;
	pages[index_at[pair]] = pages[index_at[pair + 1]] = NULL;
	for (unsigned long i = 0; i < n; i++)
		if (pages[i])
			cma_free_pages(mm, pages[i], 0);
	cma_drain_all_pages(mm);
	expect_index(z, 10, -1000);
	assert_verify(mm);
	free(index_at);
	free(pages);
	cma_mm_destroy(mm);
}

/* the profiles in turn: k == 1 is 6.12 */
static const char *const kernels[] = { "3.5", "6.12" };

static unsigned long top_block(struct cma_mm *mm, struct zone *z)
{
	return (z->zone_start_pfn + z->spanned_pages - 1) & ~(mm->pageblock_nr_pages - 1);
}

/* Two pageblocks below the middle of @z, at a pageblock's start. */
static unsigned long top_half_start(struct cma_mm *mm, struct zone *z)
{
	return ((z->zone_start_pfn + z->spanned_pages / 2) & ~(mm->pageblock_nr_pages - 1)) -
	       2 * mm->pageblock_nr_pages;
}

static const char *const cached_kernels[] = { "3.5", "5.0" };

/*
 * Expect (compact_zone and isolate_freepages of 6.12, "Restart compaction
 * from near where it left off", 3.7): the zone's cached positions start
 * at its ends; a direct run that stops once its order-9 block is free
 * leaves the free scanner's position below the top block for the next
 * run. v3.5 restarts every run at the zone's ends and caches nothing.
 * Run on 5.0: from 5.1 the free-list search takes targets anywhere in
 * the top quarter, and the run's unused ones, given back, pull the
 * position back up to their block (compact_zone's end), which may be
 * the top one.
 */
static void try_to_compact_pages_caches_free_scanner_position(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct zone *z = normal(mm);
	unsigned long top = top_block(mm, z);
	struct fake_owner *o;
	unsigned long rc;

	assert_int_equal(z->compact_cached_free_pfn, top);
	assert_int_equal(z->compact_cached_migrate_pfn[0], z->zone_start_pfn);
	assert_int_equal(z->compact_cached_migrate_pfn[1], z->zone_start_pfn);
	o = fragment(mm, &rnd);
	rc = try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL, MIGRATE_UNMOVABLE);
	assert_int_equal(rc, COMPACT_PARTIAL);
	if (v6) {
		assert_true(z->compact_cached_free_pfn < top);
		assert_true(z->compact_cached_free_pfn > z->zone_start_pfn);
	} else {
		assert_int_equal(z->compact_cached_free_pfn, top);
	}
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (isolation_suitable, __reset_isolation_suitable and
 * compaction_restarting of 6.12, "cache if a pageblock was scanned and no
 * pages were isolated", 3.7): with every pageblock of a fragmented zone
 * marked skip, a direct order-9 run scans nothing, its scanners meet
 * (COMPACT_COMPLETE, nothing migrated) and the positions go back to the
 * zone's ends; once the zone's deferral has run its longest course, the
 * next run clears the marks first and gets its block. The marked run's
 * scanners pass each pageblock between them once, unscanned: that is
 * what compact_blocks_passed counts (the cost model prices it). v3.5 has
 * no skip bits: the marks are ignored and the first run succeeds.
 */
static void compact_zone_skip_bits_until_compaction_restarts(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct zone *z = normal(mm);
	unsigned long first = pageblock_index(mm, z->zone_start_pfn);
	unsigned long last = pageblock_index(mm, z->zone_start_pfn + z->spanned_pages - 1);
	struct fake_owner *o = fragment(mm, &rnd);
	long resident = (long)owner_resident(o);
	unsigned long rc;

	uint64_t passed = counter(mm, "compact_blocks_passed");

	for (unsigned long i = first; i <= last; i++)
		mm->pageblock_skip[i] = 1;
	rc = try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL, MIGRATE_UNMOVABLE);
	passed = counter(mm, "compact_blocks_passed") - passed;
	if (!v6) {
		assert_int_equal(rc, COMPACT_PARTIAL);
		assert_true(o->migrated > 0);
		for (unsigned long i = first; i <= last; i++)
			mm->pageblock_skip[i] = 0;
		goto out;
	}
	assert_int_equal(rc, COMPACT_COMPLETE);
	assert_int_equal(o->migrated, 0);
	assert_in_range(passed, last - first - 1, last - first + 1);
	assert_true(largest_free_order(mm, z) < 9);
	assert_int_equal(z->compact_cached_free_pfn, top_block(mm, z));
	assert_true(z->compact_blockskip_flush);
	/* the longest deferral over: 64 considerations at shift 6 */
	z->compact_defer_shift = 6;
	z->compact_considered = 64;
	rc = try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL, MIGRATE_UNMOVABLE);
	assert_int_equal(rc, COMPACT_PARTIAL);
	assert_false(z->compact_blockskip_flush);
	assert_true(o->migrated > 0);
	assert_true(largest_free_order(mm, z) >= 9);
out:
	assert_int_equal(owner_check(o), resident);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (isolate_migratepages_block and compact_zone's
 * count_compact_events of 6.12, "mm, compaction: add vmstats for
 * kcompactd work", 4.19): alloc_contig_range's scanning (a cc outside
 * compact_zone) shows in compact_migrate_scanned under 3.5 and not under
 * 6.12, where the library counts it as contig_migrate_scanned; a
 * compaction run counts compact_migrate_scanned under both.
 */
static void isolate_migratepages_range_contig_scan_counter(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
				    .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = owner_create(mm, true, 64);
	uint64_t compact = counter(mm, "compact_migrate_scanned");
	uint64_t contig = counter(mm, "contig_migrate_scanned");
	struct compact_control cc;

	owner_fault_range(o, 0, 16, CMA_GFP_HIGHUSER_MOVABLE);
	lru_add_drain_all(mm);
	compact_control_init(&cc, z, -1, true);
	assert_true(isolate_migratepages_range(z, &cc, z->zone_start_pfn,
					       z->zone_start_pfn + z->spanned_pages) > 0);
	assert_int_equal(cc.nr_migratepages, 16);
	put_back(mm, &cc);
	if (v6) {
		assert_int_equal(counter(mm, "compact_migrate_scanned"), compact);
		assert_true(counter(mm, "contig_migrate_scanned") > contig);
	} else {
		assert_true(counter(mm, "compact_migrate_scanned") > compact);
		assert_int_equal(counter(mm, "contig_migrate_scanned"), contig);
	}
	compact = counter(mm, "compact_migrate_scanned");
	assert_int_equal(cma_compact_memory(mm), 0);
	assert_true(counter(mm, "compact_migrate_scanned") > compact);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (isolate_freepages_block and compact_zone's count_compact_events
 * of 6.12, as on the migrate side): the free pfns alloc_contig_range's
 * isolate_freepages_range scans show in compact_free_scanned under 3.5
 * and not under 6.12, where the library counts them as
 * contig_free_scanned; compact_isolated counts the pages under both.
 */
static void isolate_freepages_range_contig_scan_counter(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
				    .kernel = kernel);
	struct zone *z = normal(mm);
	unsigned long p = free_block_pfn(mm, z, 10);
	uint64_t compact = counter(mm, "compact_free_scanned");
	uint64_t contig = counter(mm, "contig_free_scanned");
	uint64_t isolated = counter(mm, "compact_isolated");

	assert_int_equal(isolate_freepages_range(mm, p, p + 1024), p + 1024);
	assert_int_equal(counter(mm, "compact_isolated"), isolated + 1024);
	if (v6) {
		assert_int_equal(counter(mm, "compact_free_scanned"), compact);
		assert_true(counter(mm, "contig_free_scanned") > contig);
	} else {
		assert_true(counter(mm, "compact_free_scanned") > compact);
		assert_int_equal(counter(mm, "contig_free_scanned"), contig);
	}
	give_back(mm, p, p + 1024);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (isolate_migratepages_block and update_cached_migrate of 6.12):
 * a whole-zone run marks skip the pageblock holding a kernel order-9
 * page (nothing on it to isolate), and the sync and async cached migrate
 * positions move past it when it is the zone's first block; the free
 * scanner marks the blocks it scanned whole. 3.5 marks nothing.
 */
static void compact_zone_marks_blocks_without_candidates(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct zone *z = normal(mm);
	struct cma_page *kpage = cma_alloc_pages(mm, CMA_GFP_KERNEL, 9);
	unsigned long kpfn, marked = 0;
	struct fake_owner *o;

	assert_non_null(kpage);
	kpfn = page_to_pfn(mm, kpage);
	o = fragment(mm, &rnd);
	assert_int_equal(cma_compact_memory(mm), 0);
	for (unsigned long pfn = z->zone_start_pfn; pfn < z->zone_start_pfn + z->spanned_pages;
	     pfn += mm->pageblock_nr_pages)
		marked += get_pageblock_skip(mm, pfn);
	if (v6) {
		assert_true(get_pageblock_skip(mm, kpfn));
		assert_true(marked > 1);
	} else {
		assert_int_equal(marked, 0);
	}
	assert_verify(mm);
	owner_destroy(o);
	cma_free_pages(mm, kpage, 9);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- 6.12's slow path for costly orders, hugetlb's retries, the free scanner's stop ---- */

/* A /proc/vmstat event under either profile's name (3.5 counts per zone: pgscan_direct_normal). */
static uint64_t event(struct cma_mm *mm, const char *name)
{
	char zoned[64];
	uint64_t v = 0;

	if (!cma_mm_counter(mm, name, &v))
		return v;
	snprintf(zoned, sizeof(zoned), "%s_normal", name);
	assert_int_equal(cma_mm_counter(mm, zoned, &v), 0);
	return v;
}

static void free_all(struct cma_mm *mm, struct cma_page **pages, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		cma_free_pages(mm, pages[i], 0);
	free(pages);
}

/*
 * Expect (__alloc_pages_slowpath and try_to_compact_pages of 6.12,
 * kernel.compact_priority): on a zone where no order-9 block can form, an
 * order-9 __GFP_NORETRY | __GFP_THISNODE request compacts once, async,
 * and gives up without direct reclaim; then GFP_KERNEL requests compact
 * async, reclaim and compact at SYNC_LIGHT: 1, 2, 2 stalls, each a
 * failure. Every pageblock is UNMOVABLE (the pinned pages' fallbacks), so
 * the free scanner finds no target and marks the blocks it passes skip;
 * an unmovable request's async run scans UNMOVABLE blocks (4.12's
 * suitable_migration_source), so the first two async runs and the
 * second request's SYNC_LIGHT run meet the file pages with nowhere to
 * put them and end COMPACT_CONTENDED, which does not defer the zone; by
 * the third request every block below the free scanner's is marked, its
 * async run meets the migrate scanner (an async run does not defer) and
 * its SYNC_LIGHT run meets it too, deferring the zone once.
 * v3.5: the NORETRY
 * request reclaims and compacts sync too, a sync failure defers the
 * zone, and the deferral turns later considerations away: 2, 1, 0.
 */
static void alloc_pages_costly_order_compaction_priorities(const char *kernel, unsigned k)
{
	static const uint64_t expect[2][3] = { { 2, 1, 0 }, { 1, 2, 2 } };

	bool v6 = k == 1;
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
				    .kernel = kernel);
	struct fake_owner *o = owner_create(mm, false, 1024);
	unsigned long nr_pinned;
	struct cma_page **pinned = interleave_unmovable(mm, o, 1024, &nr_pinned);
	uint64_t scanned = event(mm, "pgscan_direct");

	for (int i = 0; i < 3; i++) {
		cma_gfp_t gfp = CMA_GFP_KERNEL | CMA_GFP_NOWARN;
		uint64_t stalls = counter(mm, "compact_stall"), fails = counter(mm, "compact_fail");

		if (!i)
			gfp |= CMA_GFP_NORETRY | CMA_GFP_THISNODE;
		assert_null(cma_alloc_pages(mm, gfp, 9));
		if (counter(mm, "compact_stall") - stalls != expect[k][i]) {
			print_error("%s, request %d: expected %llu stalls, found %llu\n", kernel,
				    i + 1, (unsigned long long)expect[k][i],
				    (unsigned long long)(counter(mm, "compact_stall") - stalls));
			fail();
		}
		assert_int_equal(counter(mm, "compact_fail") - fails, expect[k][i]);
		if (!i && v6)
			assert_int_equal(event(mm, "pgscan_direct"), scanned);
		else if (!i)
			assert_true(event(mm, "pgscan_direct") > scanned);
	}
	/*
	 * 6.12: only the last SYNC_LIGHT run met the migrate scanner, the
	 * others ran out of targets; v3.5's sync failures deferred twice
	 */
	assert_int_equal(normal(mm)->compact_defer_shift, v6 ? 1 : 2);
	assert_verify(mm);
	owner_destroy(o);
	free_all(mm, pinned, nr_pinned);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (alloc_buddy_hugetlb_folio of 6.12, kernel.hugetlb_noretry, 5.4):
 * a pool page that fails after trying hard (__GFP_RETRY_MAYFAIL) sets the
 * node's noretry bit; the next request is __GFP_NORETRY | __GFP_THISNODE:
 * one async consideration (deferred: a stall), no direct reclaim; once
 * memory is free a request succeeds and clears the bit. v3.5 leaves the
 * bit alone and every request reclaims.
 */
static void alloc_huge_page_noretry_after_node_failure(const char *kernel, unsigned k)
{
	bool v6 = k == 1, noretry = false;
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
				    .kernel = kernel);
	struct fake_owner *o = owner_create(mm, false, 1024);
	unsigned long nr_pinned;
	struct cma_page **pinned = interleave_unmovable(mm, o, 1024, &nr_pinned);
	struct cma_page *page;
	uint64_t scanned, stalls;

	assert_null(cma_alloc_huge_page(mm, 9, &noretry));
	assert_int_equal(noretry, v6);
	scanned = event(mm, "pgscan_direct");
	stalls = counter(mm, "compact_stall");
	assert_null(cma_alloc_huge_page(mm, 9, &noretry));
	assert_int_equal(noretry, v6);
	assert_int_equal(counter(mm, "compact_stall"), stalls + 1);
	if (v6)
		assert_int_equal(event(mm, "pgscan_direct"), scanned);
	else
		assert_true(event(mm, "pgscan_direct") > scanned);

	free_all(mm, pinned, nr_pinned);
	cma_drain_all_pages(mm);
	page = cma_alloc_huge_page(mm, 9, &noretry);
	assert_non_null(page);
	assert_false(noretry);
	cma_free_pages(mm, page, 9);
	assert_verify(mm);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (try_to_compact_pages and __alloc_pages_direct_compact of 6.12,
 * kernel.compact_priority): on a zone of unmovable pages and free holes
 * (nothing to migrate, no reclaim progress), each order-9 request runs or
 * considers compaction twice, async then SYNC_LIGHT; the sync runs end
 * with the scanners met and defer the zone, which then turns away all
 * but the 2nd, 4th and 8th consideration after each failure, yet each
 * one turned away still counts a stall and a failure: 2 per request,
 * four failures deferred after eight. v3.5 gives up after the async run
 * when reclaim makes no progress (no OOM kill for the order): one stall
 * each, never sync, never deferred.
 */
static void alloc_pages_deferred_consideration_counts_stall(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
				    .kernel = kernel);
	struct fake_owner *o = owner_create(mm, false, 1);
	unsigned long nr_pinned;
	struct cma_page **pinned = interleave_unmovable(mm, o, 0, &nr_pinned);

	for (int i = 0; i < 8; i++) {
		uint64_t stalls = counter(mm, "compact_stall"), fails = counter(mm, "compact_fail");

		assert_null(cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 9));
		if (counter(mm, "compact_stall") - stalls != (v6 ? 2u : 1u)) {
			print_error("%s, request %d: expected %u stalls, found %llu\n", kernel,
				    i + 1, v6 ? 2u : 1u,
				    (unsigned long long)(counter(mm, "compact_stall") - stalls));
			fail();
		}
		assert_int_equal(counter(mm, "compact_fail") - fails, v6 ? 2 : 1);
	}
	assert_int_equal(normal(mm)->compact_defer_shift, v6 ? 4 : 0);
	assert_verify(mm);
	owner_destroy(o);
	free_all(mm, pinned, nr_pinned);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

struct taken {
	unsigned long max_free, free, max_migrate, migrate;
};

static void count_taken(void *ctx, const char *event_name, const char *line)
{
	struct taken *t = ctx;
	const char *p = strstr(line, "nr_taken=");
	unsigned long n = p ? strtoul(p + 9, NULL, 10) : 0;

	if (!strcmp(event_name, "mm_compaction_isolate_freepages")) {
		t->free += n;
		if (n > t->max_free)
			t->max_free = n;
	} else if (!strcmp(event_name, "mm_compaction_isolate_migratepages")) {
		t->migrate += n;
		if (n > t->max_migrate)
			t->max_migrate = n;
	}
}

/*
 * Allocate every free block of order @min_order or more from @from up;
 * up to @max blocks, freed by the caller.
 */
static unsigned long take_free_from(struct cma_mm *mm, unsigned long from, unsigned min_order,
				    struct cma_page **pages, unsigned *orders, unsigned long max)
{
	struct zone *z = normal(mm);
	unsigned long n = 0, end = z->zone_start_pfn + z->spanned_pages;

	cma_drain_all_pages(mm);
	for (unsigned long pfn = from; pfn < end && n < max; pfn++) {
		struct cma_page *page = pfn_to_page(mm, pfn);
		unsigned order;

		if (!page_test(page, PG_buddy) || (order = page_order(page)) < min_order)
			continue;
		pages[n] = cma_alloc_pages_at(mm, pfn, order, CMA_GFP_HIGHUSER_MOVABLE);
		assert_non_null(pages[n]);
		orders[n++] = order;
		pfn += (1ul << order) - 1;
	}
	return n;
}

/*
 * Allocate every free block of order 1 or more (fragment()'s tail), so
 * that only order-0 pages are free; up to @max blocks, freed by the caller.
 */
static unsigned long take_free_blocks(struct cma_mm *mm, struct cma_page **pages, unsigned *orders,
				      unsigned long max)
{
	return take_free_from(mm, normal(mm)->zone_start_pfn, 1, pages, orders, max);
}

struct taken_above {
	struct cma_page **pages;
	unsigned *orders;
	unsigned long n;
};

/*
 * Allocate every free page of the zone's top half and two pageblocks
 * below it, so that a free scanner starting at the top finds nothing
 * until the middle.
 */
static void take_top_half(struct cma_mm *mm, struct taken_above *t)
{
	struct zone *z = normal(mm);
	unsigned long max = z->spanned_pages;

	t->pages = malloc(max * sizeof(*t->pages));
	t->orders = malloc(max * sizeof(*t->orders));
	assert_non_null(t->pages);
	assert_non_null(t->orders);
	t->n = take_free_from(mm, top_half_start(mm, z), 0, t->pages, t->orders, max);
}

static void give_back_taken(struct cma_mm *mm, struct taken_above *t)
{
	while (t->n--)
		cma_free_pages(mm, t->pages[t->n], t->orders[t->n]);
	free(t->pages);
	free(t->orders);
}

static const char *const enough_kernels[] = { "3.5", "3.19", "4.0", "6.12" };

/*
 * Expect (isolate_freepages_block and isolate_freepages of 6.12,
 * kernel.free_scan_enough, 4.0): a direct sync order-9 run on a fragmented
 * zone takes no more free pages at a time than the largest batch it must
 * place (COMPACT_CLUSTER_MAX, or from 5.1 a pageblock's rest taken at
 * once to finish it), stopping inside the pageblock and resuming there,
 * and in all no more than it migrates; v3.5 takes each block's every free
 * page (half a block here) and gives the rest back at the end, and so
 * does 3.19, the release before. Only order-0 pages are left free, so no
 * buddy block overshoots the batch.
 */
static void compact_zone_free_scanner_stops_when_enough(const char *kernel, unsigned k)
{
	bool v6 = k >= 2;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct fake_owner *o = fragment(mm, &rnd);
	struct cma_page *blocks[256];
	unsigned orders[256];
	unsigned long nr_blocks = take_free_blocks(mm, blocks, orders, 256);
	struct taken t = { 0 };

	cma_mm_set_trace(mm, count_taken, &t);
	try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL, MIGRATE_MOVABLE);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_true(t.migrate > 0);
	if (v6) {
		assert_true(t.max_free <= t.max_migrate);
		assert_true(t.free <= t.migrate);
	} else {
		assert_true(t.max_migrate <= COMPACT_CLUSTER_MAX);
		assert_true(t.max_free > COMPACT_CLUSTER_MAX);
		assert_true(t.free > t.migrate);
	}
	while (nr_blocks--)
		cma_free_pages(mm, blocks[nr_blocks], orders[nr_blocks]);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static void first_free_scan(void *ctx, const char *event_name, const char *line)
{
	long *first = ctx;
	const char *p = strstr(line, "nr_scanned=");

	if (*first < 0 && p && !strcmp(event_name, "mm_compaction_isolate_freepages"))
		*first = strtol(p + 11, NULL, 10);
}

/*
 * Expect (isolate_freepages of 6.12, kernel.free_scan_stride, 5.1's
 * "sample pageblocks for free pages"): an async direct run's free scanner
 * looks at every COMPACT_CLUSTER_MAX-th pfn of its first pageblock, so
 * that block's scan looks at no more than pageblock_nr_pages /
 * COMPACT_CLUSTER_MAX pfns; v3.5 looks at every pfn of it. The top
 * half's free pages are taken, so that 6.12's free-list search finds
 * nothing and the linear scan runs (from the middle).
 */
static void compact_zone_async_free_scanner_samples(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct fake_owner *o = fragment(mm, &rnd);
	struct taken_above t;
	long first = -1;

	take_top_half(mm, &t);
	cma_mm_set_trace(mm, first_free_scan, &first);
	try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_ASYNC, ZONE_NORMAL, MIGRATE_MOVABLE);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_true(first > 0);
	if (v6)
		assert_true(first <= (long)(mm->pageblock_nr_pages / COMPACT_CLUSTER_MAX));
	else
		assert_true(first > (long)(mm->pageblock_nr_pages / COMPACT_CLUSTER_MAX));
	give_back_taken(mm, &t);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

struct free_scans {
	unsigned long fast, fast_taken, scanned;
	unsigned long empty_before;	/* linear scans that took nothing before the first that took */
	bool took;
};

static unsigned long field(const char *line, const char *name)
{
	const char *p = strstr(line, name);

	return p ? strtoul(p + strlen(name), NULL, 10) : 0;
}

static void count_free_scans(void *ctx, const char *event_name, const char *line)
{
	struct free_scans *f = ctx;

	if (!strcmp(event_name, "mm_compaction_fast_isolate_freepages")) {
		f->fast++;
		f->fast_taken += field(line, "nr_taken=");
		f->scanned += field(line, "nr_scanned=");
	} else if (!strcmp(event_name, "mm_compaction_isolate_freepages")) {
		f->scanned += field(line, "nr_scanned=");
		if (field(line, "nr_taken="))
			f->took = true;
		else if (!f->took)
			f->empty_before++;
	}
}

/*
 * Expect (fast_isolate_freepages of 6.12, kernel.compact_fast_free, 5.1's
 * "use free lists to quickly locate a migration target"): an async
 * direct order-9 run on a fragmented zone takes targets from the
 * MOVABLE free lists, and compact_free_scanned counts the entries the
 * searches looked at with the linear scans' pfns; v3.5 has no search.
 */
static void compact_zone_fast_search_takes_targets_from_free_lists(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct fake_owner *o = fragment(mm, &rnd);
	uint64_t scanned = counter(mm, "compact_free_scanned");
	struct free_scans f = { 0 };

	/* the search's event is one tracing/set_event can name */
	assert_int_equal(cma_mm_set_trace_events(mm, "mm_compaction_fast_isolate_freepages,"
						     "mm_compaction_isolate_freepages"), 0);
	cma_mm_set_trace(mm, count_free_scans, &f);
	try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_ASYNC, ZONE_NORMAL, MIGRATE_MOVABLE);
	cma_mm_set_trace(mm, NULL, NULL);
	if (v6) {
		assert_true(f.fast > 0);
		assert_true(f.fast_taken > 0);
	} else {
		assert_int_equal(f.fast, 0);
	}
	assert_int_equal(counter(mm, "compact_free_scanned") - scanned, f.scanned);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (fast_isolate_freepages of 6.12, kernel.compact_fast_free): with
 * no free page in the zone's top half, a direct run's first search, at
 * a scan's start, finds no candidate and moves the free scanner halfway
 * to the migrate scanner, so the linear scan meets at most the two
 * emptied pageblocks below the middle before taking pages; v3.5's free
 * scanner walks down the whole empty top half first.
 */
static void compact_zone_fast_search_moves_free_scanner_halfway(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .base = ABOVE_BLOCK0, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	unsigned long empty_blocks = (top_block(mm, z) - top_half_start(mm, z)) /
				     mm->pageblock_nr_pages;
	struct free_scans f = { 0 };
	struct taken_above t;

	take_top_half(mm, &t);
	cma_mm_set_trace(mm, count_free_scans, &f);
	try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_ASYNC, ZONE_NORMAL, MIGRATE_MOVABLE);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_true(f.took);
	if (v6)
		assert_true(f.empty_before <= 2);
	else
		assert_true(f.empty_before >= empty_blocks);
	give_back_taken(mm, &t);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (isolate_freepages_block and isolate_migratepages_block of 6.12,
 * kernel.compact_scan_count_order, 6.4's "consider the number of scanning
 * compound pages in isolate fail path"): a free block taken counts its
 * every page as scanned, and an order-4 allocation the
 * migrate scanner steps over counts 16 pfns scanned; v3.5 counts the one
 * pfn looked at. The pfns counted but not looked at are the library's
 * compact_scan_stepped, which the cost model takes off its scanning.
 */
static void isolate_scanners_count_compound_pages_whole(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
				    .kernel = kernel);
	struct zone *z = normal(mm);
	unsigned long p = free_block_pfn(mm, z, 10), pfn;
	uint64_t stepped = counter(mm, "compact_scan_stepped"), migrate_scanned;
	struct free_scans f = { 0 };
	struct compact_control cc;
	struct cma_page *big;

	/* the trace: 6.12 leaves alloc_contig_range's free scanning out of the vmstat */
	cma_mm_set_trace(mm, count_free_scans, &f);
	assert_int_equal(isolate_freepages_range(mm, p, p + 1024), p + 1024);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_int_equal(f.scanned, v6 ? 1024 : 1);
	assert_int_equal(counter(mm, "compact_scan_stepped") - stepped, v6 ? 1023 : 0);
	give_back(mm, p, p + 1024);

	assert_non_null(big = cma_alloc_pages(mm, CMA_GFP_KERNEL, 4));
	pfn = page_to_pfn(mm, big);
	migrate_scanned = counter(mm, "compact_migrate_scanned") +
			  counter(mm, "contig_migrate_scanned");
	compact_control_init(&cc, z, -1, true);
	assert_int_equal(isolate_migratepages_range(z, &cc, pfn, pfn + 16), pfn + 16);
	assert_int_equal(cc.nr_migratepages, 0);
	assert_int_equal(counter(mm, "compact_migrate_scanned") +
			 counter(mm, "contig_migrate_scanned") - migrate_scanned, v6 ? 16 : 1);
	cma_free_pages(mm, big, 4);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const skip_buddy_kernels[] = { "3.17", "3.18", "6.3", "6.4", "6.12" };

/*
 * Expect (isolate_migratepages_block of 6.12; kernel.compact_skip_buddy,
 * 3.18's 99c0fd5e51c4): the migrate scanner steps over a free order-10
 * block at once, counting it as one pfn scanned before 6.4 and as all
 * its pages from 6.4 (compact_scan_count_order), the pfns it did not
 * look at in compact_scan_stepped; 3.17, the release before, looks at
 * every pfn. Started inside the block, a pfn past its head, it looks at
 * each pfn in every release (no head to read an order from). A range
 * ending inside the block returns its end.
 */
static void isolate_migratepages_steps_over_free_blocks(const char *kernel, unsigned k)
{
	bool skip = k >= 1, count_all = k >= 3;
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
				    .kernel = kernel);
	struct zone *z = normal(mm);
	unsigned long p = free_block_pfn(mm, z, 10);
	uint64_t stepped = counter(mm, "compact_scan_stepped");
	uint64_t scanned = counter(mm, "compact_migrate_scanned") +
			   counter(mm, "contig_migrate_scanned");
	struct compact_control cc;

	compact_control_init(&cc, z, -1, true);
	assert_int_equal(isolate_migratepages_range(z, &cc, p, p + 1024), p + 1024);
	assert_int_equal(cc.nr_migratepages, 0);
	assert_int_equal(counter(mm, "compact_migrate_scanned") +
			 counter(mm, "contig_migrate_scanned") - scanned,
			 !skip || count_all ? 1024 : 1);
	assert_int_equal(counter(mm, "compact_scan_stepped") - stepped, skip && count_all ? 1023 : 0);

	/* the block's head, its range ending at its middle */
	assert_int_equal(isolate_migratepages_range(z, &cc, p, p + 512), p + 512);
	/* from a pfn past the head, every pfn is looked at */
	stepped = counter(mm, "compact_scan_stepped");
	scanned = counter(mm, "compact_migrate_scanned") + counter(mm, "contig_migrate_scanned");
	assert_int_equal(isolate_migratepages_range(z, &cc, p + 1, p + 1024), p + 1024);
	assert_int_equal(counter(mm, "compact_migrate_scanned") +
			 counter(mm, "contig_migrate_scanned") - scanned, 1023);
	assert_int_equal(counter(mm, "compact_scan_stepped"), stepped);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* The slot whose page is at @pfn, or -1. */
static long slot_at_pfn(struct fake_owner *o, unsigned long pfn)
{
	for (uint64_t i = 0; i < o->nr_slots; i++)
		if (owner_slot_resident(o, i) && page_to_pfn(o->mm, o->slots[i].page) == pfn)
			return (long)i;
	return -1;
}

/* Release the owner's pages in [@pfn, @pfn + @nr), so that the range is one free block. */
static void release_range(struct fake_owner *o, unsigned long pfn, unsigned long nr)
{
	for (unsigned long p = pfn; p < pfn + nr; p++) {
		long slot = slot_at_pfn(o, p);

		if (slot >= 0)
			owner_release(o, (uint64_t)slot);
	}
	cma_drain_all_pages(o->mm);
}

/* The free pages of the pageblock at @start, the per-CPU lists drained first. */
static unsigned long free_in_block(struct cma_mm *mm, unsigned long start)
{
	unsigned long nr = 0;

	cma_drain_all_pages(mm);
	for (unsigned long pfn = start; pfn < start + mm->pageblock_nr_pages; pfn++) {
		struct cma_page *page = pfn_to_page(mm, pfn);

		if (page_test(page, PG_buddy)) {
			nr += 1ul << page_order(page);
			pfn += (1ul << page_order(page)) - 1;
		}
	}
	return nr;
}

/*
 * Expect (fast_find_migrateblock of 6.12, kernel.compact_fast_migrate,
 * 5.1's "use free lists to quickly locate a migration source"): with
 * only order-0 pages free but for one order-4 block a quarter up the
 * zone, an async direct order-9 run starts migrating in that block's
 * pageblock, leaving the zone's lowest movable page where it was (the
 * free-list search for targets, whose oldest entries now lie below the
 * migrate scanner, soon brings the scanners together, so the block is
 * not emptied), and marks that block skip as it takes its first page
 * (5.1's test_and_set_skip); v3.5's migrate scanner starts at the zone's bottom and
 * frees a lower block before it reaches that one.
 */
static void compact_zone_fast_search_finds_source_block(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .base = ABOVE_BLOCK0, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	unsigned long nb = mm->pageblock_nr_pages, low = z->zone_start_pfn;
	unsigned long quarter = (z->zone_start_pfn + z->spanned_pages / 4) & ~(nb - 1);
	struct cma_page *blocks[256];
	unsigned orders[256];
	unsigned long nr_blocks = take_free_blocks(mm, blocks, orders, 256);
	unsigned long free_before;
	struct cma_page *head;
	long first;

	release_range(o, quarter + 64, 16);
	head = pfn_to_page(mm, quarter + 64);
	assert_true(page_test(head, PG_buddy) && page_order(head) >= 4);
	while ((first = slot_at_pfn(o, low)) < 0)
		low++;
	assert_true(low < quarter);
	free_before = free_in_block(mm, quarter);
	try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_ASYNC, ZONE_NORMAL, MIGRATE_MOVABLE);
	if (v6) {
		assert_true(free_in_block(mm, quarter) > free_before);
		assert_int_equal(page_to_pfn(mm, o->slots[first].page), low);
		/* test_and_set_skip: the block it took pages from is its own until the bits reset */
		assert_true(get_pageblock_skip(mm, quarter));
	} else {
		assert_int_equal(free_in_block(mm, quarter), free_before);
	}
	while (nr_blocks--)
		cma_free_pages(mm, blocks[nr_blocks], orders[nr_blocks]);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (__alloc_pages_direct_compact of 6.12, kernel.compact_skip_hint,
 * 3.7's "cache if a pageblock was scanned and no pages were isolated"):
 * an allocation that direct compaction made succeed clears its zone's
 * compact_blockskip_flush, so that kswapd going to sleep keeps the skip
 * bits; v3.5 has no skip bits and leaves the flag alone.
 */
static void alloc_pages_compaction_success_keeps_skip_bits(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	uint64_t success = counter(mm, "compact_success");
	struct cma_page *page;

	__atomic_store_n(&z->compact_blockskip_flush, true, __ATOMIC_RELAXED);
	page = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 9);
	assert_non_null(page);
	assert_int_equal(counter(mm, "compact_success") - success, 1);
	assert_int_equal(__atomic_load_n(&z->compact_blockskip_flush, __ATOMIC_RELAXED), !v6);
	cma_free_pages(mm, page, 9);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* ---- kcompactd's proactive compaction (5.9, kcompactd.c) ---- */

struct batches {
	long first;			/* the run's first batch (pages), -1 before it */
	unsigned long max;
};

static void count_batches(void *ctx, const char *event_name, const char *line)
{
	struct batches *b = ctx;
	const char *p = strstr(line, "nr_taken=");
	unsigned long n;

	if (!p || strcmp(event_name, "mm_compaction_isolate_migratepages"))
		return;
	n = strtoul(p + 9, NULL, 10);
	if (!n)
		return;
	if (b->first < 0)
		b->first = (long)n;
	if (n > b->max)
		b->max = n;
}

/*
 * An async direct order-9 run on a fragmented zone at @base whose only
 * free block above order 0 is an order-4 one at @quarter + 64, its
 * batches in @b; the pfn the page first at the zone's lowest movable
 * pfn (*@low) and the one first at @quarter's lowest (*@low_q) are at
 * after it, in @moved[0] and @moved[1].
 */
static void run_fast_search_case(const char *kernel, cma_phys_t base, struct batches *b,
				 unsigned long *low, unsigned long *low_q, unsigned long moved[2],
				 bool *quarter_skip)
{
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .base = base, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	unsigned long nb = mm->pageblock_nr_pages;
	unsigned long quarter = (z->zone_start_pfn + z->spanned_pages / 4) & ~(nb - 1);
	struct cma_page *blocks[256];
	unsigned orders[256];
	unsigned long nr_blocks = take_free_blocks(mm, blocks, orders, 256);
	long first, first_q;

	release_range(o, quarter + 64, 16);
	assert_true(page_test(pfn_to_page(mm, quarter + 64), PG_buddy));
	for (*low = z->zone_start_pfn; (first = slot_at_pfn(o, *low)) < 0; (*low)++)
		;
	for (*low_q = quarter; (first_q = slot_at_pfn(o, *low_q)) < 0; (*low_q)++)
		;
	assert_true(*low_q < quarter + 64);
	*b = (struct batches){ .first = -1 };
	cma_mm_set_trace(mm, count_batches, b);
	try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_ASYNC, ZONE_NORMAL, MIGRATE_MOVABLE);
	cma_mm_set_trace(mm, NULL, NULL);
	moved[0] = page_to_pfn(mm, o->slots[first].page);
	moved[1] = page_to_pfn(mm, o->slots[first_q].page);
	*quarter_skip = get_pageblock_skip(mm, quarter);
	while (nr_blocks--)
		cma_free_pages(mm, blocks[nr_blocks], orders[nr_blocks]);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static const char *const rescan_kernels[] = { "5.0", "5.1", "6.2", "6.3", "6.4", "6.5", "6.12" };

/*
 * Expect (compact_zone, isolate_migratepages and fast_find_migrateblock
 * by release; kernel.compact_rescan, compact_rescan_failed,
 * compact_fast_block_scanned): in a zone starting at pfn 0, a run's
 * first iteration starts in the pageblock of last_migrated_pfn's 0, so
 * from 5.1 it is to finish that block. 5.0 scans it COMPACT_CLUSTER_MAX
 * pages at a time; 5.1 and 6.2 still search the free lists, name the
 * block a quarter up, mark it skip and pass over it (the block 0 page
 * stays where it is); from 6.3 the block to finish is scanned, its
 * movable pages taken in one batch. In a zone above pageblock 0 the
 * search's block is passed over, its lowest movable page left, until
 * 6.5, which scans it from its start; either way the block the search
 * named ends marked skip, and the batch after one that stopped inside a
 * block takes the block's rest, past COMPACT_CLUSTER_MAX.
 */
static void compact_zone_finishes_pageblock_0_first(const char *kernel, unsigned k)
{
	bool rescan = k >= 1, finish_first = k >= 3, fast_scanned = k >= 5;
	unsigned long low, low_q, moved[2];
	struct batches b;
	bool skip;

	run_fast_search_case(kernel, 0, &b, &low, &low_q, moved, &skip);
	assert_true(b.first > 0);
	if (!rescan) {
		assert_int_equal(b.first, COMPACT_CLUSTER_MAX);
		assert_int_equal(b.max, COMPACT_CLUSTER_MAX);
		assert_int_not_equal(moved[0], low);
	} else if (!finish_first) {
		assert_int_equal(moved[0], low);
		assert_int_equal(moved[1], low_q);
		assert_true(skip);
	} else {
		assert_true(b.first > COMPACT_CLUSTER_MAX);
		assert_int_not_equal(moved[0], low);
	}
	if (!rescan)
		return;
	run_fast_search_case(kernel, ABOVE_BLOCK0, &b, &low, &low_q, moved, &skip);
	assert_true(skip);
	assert_int_equal(moved[0], low);
	assert_true(b.max > COMPACT_CLUSTER_MAX);
	if (fast_scanned) {
		assert_int_not_equal(moved[1], low_q);
	} else {
		assert_int_equal(moved[1], low_q);
	}
}

struct two_batches {
	unsigned long n[2];
	unsigned nr;
};

static void first_two_batches(void *ctx, const char *event_name, const char *line)
{
	struct two_batches *b = ctx;
	const char *p = strstr(line, "nr_taken=");
	unsigned long n = p ? strtoul(p + 9, NULL, 10) : 0;

	if (n && b->nr < 2 && !strcmp(event_name, "mm_compaction_isolate_migratepages"))
		b->n[b->nr++] = n;
}

static const char *const failed_rescan_kernels[] = { "5.0", "6.2", "6.3", "6.5", "6.12" };

/*
 * Expect (compact_zone's "goto rescan" of 6.3, kernel.compact_rescan_failed):
 * an async direct order-9 run whose first block is marked skip passes
 * it and takes its first batch, COMPACT_CLUSTER_MAX pages, from the
 * next; none migrates (their owner refuses), the scanner stopped inside
 * the block, so from 6.3 the block's rest is taken at once. Before, the
 * next iteration starts in that block, but 5.1's last_migrated_pfn is
 * where the iteration that isolated began, the passed block, so 6.2
 * takes another COMPACT_CLUSTER_MAX (as 5.0 does, without the rule);
 * from 6.5 the record is the block the scan stopped in, which the next
 * iteration finishes anyway.
 */
static void compact_zone_finishes_block_after_failed_batch(const char *kernel, unsigned k)
{
	bool finish = k >= 2;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .base = ABOVE_BLOCK0, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	struct two_batches b = { 0 };

	set_pageblock_skip(mm, z->zone_start_pfn);
	o->refuse_migrate = -EBUSY;
	cma_mm_set_trace(mm, first_two_batches, &b);
	try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_ASYNC, ZONE_NORMAL, MIGRATE_MOVABLE);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_int_equal(b.nr, 2);
	assert_int_equal(b.n[0], COMPACT_CLUSTER_MAX);
	if (finish)
		assert_true(b.n[1] > COMPACT_CLUSTER_MAX);
	else
		assert_int_equal(b.n[1], COMPACT_CLUSTER_MAX);
	o->refuse_migrate = 0;
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* An owner whose movable pages fill @mm down to its low mark, all on the LRU. */
static struct fake_owner *fill_zone(struct cma_mm *mm)
{
	unsigned long nr = mm->end_pfn - mm->base_pfn, stop = low_wmark_pages(normal(mm)) + 64;
	struct fake_owner *o = owner_create(mm, false, nr);
	uint64_t n;

	assert_non_null(o);
	for (n = 0; n < nr && zone_page_state(normal(mm), NR_FREE_PAGES) > stop; n++)
		assert_non_null(owner_fault(o, n, CMA_GFP_HIGHUSER_MOVABLE, n + 1));
	lru_add_drain_all(mm);
	return o;
}

static const char *const first_take_kernels[] = { "5.0", "5.1", "6.4", "6.5", "6.12" };

/*
 * Expect (isolate_migratepages_block's test_and_set_skip by release,
 * kernel.compact_fast_migrate and compact_fast_block_scanned): a
 * compactor's scan of a pageblock already marked skip leaves it at the
 * first page it would take, from 5.1 when that page is the block's
 * first; from 6.5 a scan to finish the block (cc->finish_pageblock)
 * takes its pages though. A scan whose first page to take is not the
 * block's first marks the block from 6.5 only (valid_page: the scan
 * began at the block's start), not before; 5.0 has no such mark.
 */
static void isolate_migratepages_range_marks_block_at_first_take(const char *kernel, unsigned k)
{
	bool marks = k >= 1, v65 = k >= 3;
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
				    .base = ABOVE_BLOCK0, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fill_zone(mm);
	unsigned long nb = mm->pageblock_nr_pages, b = z->zone_start_pfn + nb;
	struct compact_control cc;

	assert_true(slot_at_pfn(o, b) >= 0);
	for (int finish = 0; finish < 2; finish++) {
		bool takes = !marks || (v65 && finish);

		set_pageblock_skip(mm, b);
		compact_control_init(&cc, z, 9, true);
		cc.compacting = true;
		cc.finish_pageblock = finish;
		isolate_migratepages_range(z, &cc, b, b + nb);
		if (takes)
			assert_true(cc.nr_migratepages > 0);
		else
			assert_int_equal(cc.nr_migratepages, 0);
		put_back(mm, &cc);
	}
	release_range(o, b, 1);
	/* as when a run's scanners met: the skip bits go */
	z->compact_blockskip_flush = true;
	reset_isolation_suitable(mm);
	assert_false(get_pageblock_skip(mm, b));
	compact_control_init(&cc, z, 9, true);
	cc.compacting = true;
	isolate_migratepages_range(z, &cc, b, b + nb);
	assert_true(cc.nr_migratepages > 0);
	assert_int_equal(get_pageblock_skip(mm, b), v65);
	put_back(mm, &cc);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* Where each resident slot's page is now (0 for the others); freed by the caller. */
static unsigned long *record_pfns(struct fake_owner *o)
{
	unsigned long *was = calloc(o->nr_slots, sizeof(*was));

	assert_non_null(was);
	for (uint64_t i = 0; i < o->nr_slots; i++)
		if (owner_slot_resident(o, i))
			was[i] = page_to_pfn(o->mm, o->slots[i].page);
	return was;
}

/* The owner's pages now elsewhere than @was says, counted by where they were: in @block or not. */
static void count_moved(struct fake_owner *o, const unsigned long *was, unsigned long block,
			unsigned long nb, unsigned long moved[2])
{
	moved[0] = moved[1] = 0;
	for (uint64_t i = 0; i < o->nr_slots; i++) {
		if (!was[i] || !owner_slot_resident(o, i) ||
		    page_to_pfn(o->mm, o->slots[i].page) == was[i])
			continue;
		moved[was[i] >= block && was[i] < block + nb]++;
	}
}

/*
 * Expect (suitable_migration_source of 4.12, kernel.compact_async_same_type):
 * kswapd's async run (compact_pgdat, kcompactd's work here, for order 9)
 * is no direct one, so from 4.12 it scans every pageblock: a MOVABLE
 * block held by an unmovable page, which it cannot empty, and the
 * UNMOVABLE one above it, whose movable pages it moves; 4.11 scans
 * MOVABLE and CMA blocks only and leaves the UNMOVABLE one's.
 */
static void compact_pgdat_scans_every_block_from_412(const char *kernel, unsigned k)
{
	bool every = k >= 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .base = ABOVE_BLOCK0, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	unsigned long nb = mm->pageblock_nr_pages, block = z->zone_start_pfn + nb, pfn;
	unsigned long *was, moved[2];
	struct cma_page *pin;

	for (pfn = z->zone_start_pfn; !page_test(pfn_to_page(mm, pfn), PG_buddy); pfn++)
		assert_true(pfn < block);
	pin = cma_alloc_pages_at(mm, pfn, 0, CMA_GFP_KERNEL);
	assert_non_null(pin);
	assert_int_equal(cma_set_pageblock_migratetype(mm, block, CMA_MIGRATE_UNMOVABLE), 0);
	was = record_pfns(o);
	compact_pgdat(mm, 9);
	count_moved(o, was, block, nb, moved);
	assert_true(moved[0] > 0);
	if (every)
		assert_true(moved[1] > 0);
	else
		assert_int_equal(moved[1], 0);
	cma_free_pages(mm, pin, 0);
	free(was);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static const char *const pass_kernels[] = { "3.13", "3.14", "6.12" };

/*
 * Expect (isolate_migratepages_range of 3.14, kernel.compact_pass_unsuitable):
 * an async direct order-9 run for a movable request on a fragmented zone
 * whose two lowest pageblocks are UNMOVABLE (or 3.x's MIGRATE_RESERVE)
 * passes them without a scan and leaves them unmarked, so a later sync
 * run may take from them; 3.13's scan of each takes nothing and marks
 * it skip.
 */
static void compact_zone_async_passes_other_blocks_unmarked(const char *kernel, unsigned k)
{
	bool unmarked = k >= 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .base = ABOVE_BLOCK0, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	unsigned long nb = mm->pageblock_nr_pages, start = z->zone_start_pfn;
	uint64_t passed = counter(mm, "compact_migrate_scanned");

	/* a 3.x zone's lowest block is its MIGRATE_RESERVE one, no async source either */
	for (unsigned b = 0; b < 2; b++) {
		int err = cma_set_pageblock_migratetype(mm, start + b * nb, CMA_MIGRATE_UNMOVABLE);

		assert_true(!err || (err == -EBUSY && mm->kernel.release < 404));
		assert_int_not_equal(cma_pageblock_migratetype(mm, start + b * nb), CMA_MIGRATE_MOVABLE);
	}
	try_to_compact_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 9, COMPACT_PRIO_ASYNC, ZONE_NORMAL,
			     MIGRATE_MOVABLE);
	/* the run went past them: it scanned the movable block above */
	assert_true(counter(mm, "compact_migrate_scanned") - passed > 2);
	for (unsigned b = 0; b < 2; b++)
		assert_int_equal(get_pageblock_skip(mm, start + b * nb), !unmarked);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static const char *const batch_mark_kernels[] = { "4.19", "5.1", "6.12" };

/*
 * Expect (isolate_migratepages_block's end by release): a sync direct
 * run for an unmovable order-9 request (no free-list search) whose first
 * pageblock holds 32 movable pages from its second pfn on, and after
 * them only free pages and, at its end, an unmovable one: its first scan
 * takes the 32, the next one from there takes nothing and reaches the
 * block's end. Until 5.0 that scan marks the block skip (its first page
 * is valid_page); 5.1's marks only from the block's start, and its
 * test_and_set_skip only when the first page taken is the block's
 * first, so the block stays unmarked; 6.5's test_and_set_skip marks it
 * as the first scan takes its first page.
 */
static void compact_zone_marks_block_by_last_batch(const char *kernel, unsigned k)
{
	bool marked = k != 1;
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
				    .base = ABOVE_BLOCK0, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fill_zone(mm);
	unsigned long nb = mm->pageblock_nr_pages, b = z->zone_start_pfn, kept = 0;
	struct cma_page *pin;

	for (uint64_t i = 0; i < o->nr_slots; i++) {
		unsigned long pfn;

		if (!owner_slot_resident(o, i))
			continue;
		pfn = page_to_pfn(mm, o->slots[i].page);
		if (pfn >= b && pfn < b + nb) {
			if (pfn > b && pfn <= b + COMPACT_CLUSTER_MAX)
				kept++;
			else
				owner_release(o, i);
		} else if (pfn & 1) {
			owner_release(o, i);
		}
	}
	cma_drain_all_pages(mm);
	assert_int_equal(kept, COMPACT_CLUSTER_MAX);
	pin = cma_alloc_pages_at(mm, b + nb - 1, 0, CMA_GFP_KERNEL);
	assert_non_null(pin);
	try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL,
			     MIGRATE_UNMOVABLE);
	assert_int_equal(get_pageblock_skip(mm, b), marked);
	cma_free_pages(mm, pin, 0);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static const char *const block0_mark_kernels[] = { "5.1", "6.12" };

/*
 * Expect (isolate_migratepages_block's end from 5.1): a sync direct
 * run for an unmovable request (no free-list search) in a zone starting
 * at pfn 0 finishes pageblock 0 in one batch at its first iteration; its
 * pfn 0 free, the first page taken is not the block's first.
 * 5.1's test_and_set_skip looks only at a first page at the block's
 * start and so leaves the block unmarked, and the scan's end does not
 * mark it either, as it met pages to take; 6.5's test_and_set_skip
 * marks it as the scan began at the block's start.
 */
static void compact_zone_block0_finish_marks_by_release(const char *kernel, unsigned k)
{
	bool v65 = k == 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	long slot = slot_at_pfn(o, z->zone_start_pfn);
	struct batches b = { .first = -1 };

	assert_int_equal(z->zone_start_pfn, 0);
	if (slot >= 0)
		owner_release(o, (uint64_t)slot);
	cma_drain_all_pages(mm);
	assert_true(page_test(pfn_to_page(mm, 0), PG_buddy));
	cma_mm_set_trace(mm, count_batches, &b);
	try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_SYNC_LIGHT, ZONE_NORMAL,
			     MIGRATE_UNMOVABLE);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_true(b.first > COMPACT_CLUSTER_MAX);
	assert_int_equal(get_pageblock_skip(mm, 0), v65);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static const char *const same_type_kernels[] = { "4.11", "4.12", "6.12" };

/*
 * Expect (suitable_migration_source of 4.12, kernel.compact_async_same_type):
 * an async direct run for an unmovable order-9 request on a fragmented
 * zone, one of whose pageblocks is UNMOVABLE with movable pages in it,
 * migrates from that block only; 4.11's async run scans MOVABLE (and
 * CMA) blocks only and leaves that block's pages where they are.
 */
static void compact_zone_async_scans_request_type_blocks(const char *kernel, unsigned k)
{
	bool same_type = k >= 1;
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .base = ABOVE_BLOCK0, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	unsigned long nb = mm->pageblock_nr_pages, block = z->zone_start_pfn + 4 * nb;
	unsigned long *was, moved[2];

	assert_int_equal(cma_set_pageblock_migratetype(mm, block, CMA_MIGRATE_UNMOVABLE), 0);
	was = record_pfns(o);
	try_to_compact_pages(mm, CMA_GFP_KERNEL, 9, COMPACT_PRIO_ASYNC, ZONE_NORMAL, MIGRATE_UNMOVABLE);
	count_moved(o, was, block, nb, moved);
	if (same_type) {
		assert_true(moved[1] > 0);
		assert_int_equal(moved[0], 0);
	} else {
		assert_int_equal(moved[1], 0);
		assert_true(moved[0] > 0);
	}
	free(was);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static const char *const proactive_kernels[] = { "5.8", "5.9", "6.12" };
static const char *const proactive_only_kernels[] = { "5.9", "6.12" };

/* extfrag_for_order(zone, 9): the percentage of @z's free pages outside free blocks of order 9 or more. */
static unsigned long score_order9(struct cma_mm *mm, struct zone *z)
{
	unsigned long free = 0, suitable = 0;

	spin_lock(&z->lock);
	for (unsigned o = 0; o < mm->max_order; o++) {
		free += z->free_area[o].nr_free << o;
		if (o >= 9)
			suitable += z->free_area[o].nr_free << o;
	}
	spin_unlock(&z->lock);
	return free ? (free - suitable) * 100 / free : 0;
}

static void set_kswapd_woken(struct cma_mm *mm, bool woken, bool napping)
{
	spin_lock(&mm->kswapd_lock);
	mm->kswapd_woken = woken;
	mm->kswapd_napping = napping;
	spin_unlock(&mm->kswapd_lock);
}

/*
 * Expect (kcompactd() and compact_node() of 6.12, "mm: proactive
 * compaction", 5.9): a quiet node is only looked at (500 ms to the next
 * look); a node whose free memory lies outside order-9 blocks (score
 * above 90) is compacted whole until its score is at most 80, which stops
 * it before the scanners meet: it migrates fewer pages than
 * compact_memory on the same machine. Its scanning counts in
 * compact_daemon_*_scanned as well as compact_*_scanned; no stall is
 * counted and no data is lost. 5.8 has no proactive compaction: the call
 * does nothing and asks for no other.
 */
static void kcompactd_proactive_compacts_fragmented_node(const char *kernel, unsigned k)
{
	bool has = k > 0;
	uint64_t rnd = test_seed(__func__), rnd_again = rnd;
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct cma_mm *full = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o, *o_full;
	uint64_t migrated, scanned, free_scanned;
	long resident;

	assert_int_equal(cma_kcompactd_poll(mm), has ? 500 : 0);
	assert_int_equal(counter(mm, "pgmigrate_success"), 0);
	o = fragment(mm, &rnd);
	o_full = fragment(full, &rnd_again);
	resident = (long)owner_resident(o);
	assert_true(score_order9(mm, z) > 90);
	migrated = counter(mm, "pgmigrate_success");
	scanned = counter(mm, "compact_migrate_scanned");
	free_scanned = counter(mm, "compact_free_scanned");

	assert_int_equal(cma_kcompactd_poll(mm), has ? 500 : 0);
	if (!has) {
		assert_int_equal(counter(mm, "pgmigrate_success"), migrated);
		assert_int_equal(counter(mm, "compact_daemon_migrate_scanned"), 0);
		assert_true(score_order9(mm, z) > 90);
	} else {
		assert_true(counter(mm, "pgmigrate_success") > migrated);
		assert_true(counter(mm, "compact_daemon_migrate_scanned") > 0);
		assert_int_equal(counter(mm, "compact_daemon_migrate_scanned"),
				 counter(mm, "compact_migrate_scanned") - scanned);
		assert_int_equal(counter(mm, "compact_daemon_free_scanned"),
				 counter(mm, "compact_free_scanned") - free_scanned);
		/* 6.0's /proc/vmstat layout prints them too */
		if (test_kernel_since(kernel, 6, 0))
			assert_int_equal(test_vmstat_line(mm, "compact_daemon_migrate_scanned"),
					 counter(mm, "compact_daemon_migrate_scanned"));
		assert_true(score_order9(mm, z) <= 80);
		assert_int_equal(cma_compact_memory(full), 0);
		assert_true(counter(mm, "pgmigrate_success") - migrated < counter(full, "pgmigrate_success"));
	}
	assert_int_equal(counter(mm, "compact_stall"), 0);
	assert_int_equal(owner_check(o), resident);
	assert_verify(mm);
	owner_destroy(o_full);
	owner_destroy(o);
	cma_mm_destroy(full);
	cma_mm_destroy(mm);
}

/*
 * Expect (should_proactive_compact_node and __compact_finished of 6.12,
 * kswapd_is_running): a woken kswapd that has not run yet keeps the look
 * from compacting, and a proactive run it finds running stops before
 * migrating anything; a kswapd asleep in its nap (congestion_wait,
 * reclaim_throttle) is not running, and the look compacts.
 */
static void kcompactd_proactive_yields_to_running_kswapd(const char *kernel, unsigned k)
{
	uint64_t rnd = test_seed(__func__);
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct zone *z = normal(mm);
	struct fake_owner *o = fragment(mm, &rnd);
	struct compact_control cc;
	uint64_t migrated = counter(mm, "pgmigrate_success");

	assert_int_equal(cma_kswapd_start_polled(mm), 0);
	set_kswapd_woken(mm, true, false);
	assert_int_equal(cma_kcompactd_poll(mm), 500);
	assert_int_equal(counter(mm, "pgmigrate_success"), migrated);

	compact_control_init(&cc, z, -1, true);
	cc.whole_zone = cc.ignore_skip_hint = true;
	cc.proactive_wmark = 80;
	assert_int_equal(compact_zone(z, &cc), COMPACT_PARTIAL);
	assert_int_equal(counter(mm, "pgmigrate_success"), migrated);

	set_kswapd_woken(mm, true, true);
	assert_int_equal(cma_kcompactd_poll(mm), 500);
	assert_true(counter(mm, "pgmigrate_success") > migrated);
	assert_true(score_order9(mm, z) <= 80);
	set_kswapd_woken(mm, false, false);
	cma_kswapd_stop(mm);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (kcompactd() of 6.12): a node fragmented by unmovable pages,
 * which compaction cannot move, keeps its score; the run that did not
 * lower it puts the next look 64 intervals away (32 s).
 */
static void kcompactd_proactive_defers_without_progress(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct zone *z = normal(mm);
	unsigned long nr = mm->end_pfn - mm->base_pfn, stop = low_wmark_pages(z) + 64, n = 0;
	struct cma_page **pages = calloc(nr, sizeof(*pages));
	unsigned long score;

	assert_non_null(pages);
	while (n < nr && zone_page_state(z, NR_FREE_PAGES) > stop)
		assert_non_null(pages[n++] = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0));
	for (unsigned long i = 0; i < n; i++)
		if (page_to_pfn(mm, pages[i]) & 1) {
			cma_free_pages(mm, pages[i], 0);
			pages[i] = NULL;
		}
	cma_drain_all_pages(mm);
	score = score_order9(mm, z);
	assert_true(score > 90);
	assert_int_equal(cma_kcompactd_poll(mm), 500 << 6);
	assert_int_equal(score_order9(mm, z), score);
	assert_int_equal(counter(mm, "pgmigrate_success"), 0);
	for (unsigned long i = 0; i < n; i++)
		if (pages[i])
			cma_free_pages(mm, pages[i], 0);
	free(pages);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (the sysctl boot parameters, 5.8, and compaction_proactiveness's
 * range, 0 to 100): sysctl.vm.compaction_proactiveness=N and its
 * sysctl/vm/ spelling set the tunable; 0 turns the looks off (the poll
 * compacts nothing and asks for no other); a value out of range or not
 * a number is refused with the kernel's message and the default, 20,
 * stays. 5.8 has no such tunable: the default stands, unreported.
 */
static void kcompactd_proactiveness_from_the_command_line(const char *kernel, unsigned k)
{
	static const struct {
		const char *cmdline;
		unsigned value;
		const char *refused;
	} cases[] = {
		{ "cma=0 sysctl.vm.compaction_proactiveness=0", 0, NULL },
		{ "cma=0 sysctl/vm/compaction_proactiveness=50", 50, NULL },
		{ "cma=0 sysctl.vm.compaction_proactiveness=100", 100, NULL },
		{ "cma=0 sysctl.vm.compaction_proactiveness=101", 20, "101" },
		{ "cma=0 sysctl.vm.compaction_proactiveness=2x", 20, "2x" },
		{ "cma=0 sysctl.vm.compaction_proactiveness=", 20, "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel, .cmdline = cases[i].cmdline);
		char *log = test_dmesg(mm), want[128];

		snprintf(want, sizeof(want), "Failed to set sysctl parameter 'vm.compaction_proactiveness=%s': invalid value",
			 cases[i].refused ? cases[i].refused : "");
		if (k == 0) {
			assert_int_equal(mm->compaction_proactiveness, 20);
			assert_null(strstr(log, "compaction_proactiveness"));
		} else {
			assert_int_equal(mm->compaction_proactiveness, cases[i].value);
			if (cases[i].refused)
				assert_non_null(strstr(log, want));
			else
				assert_null(strstr(log, "compaction_proactiveness"));
		}
		free(log);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (kcompactd() of 6.12): with vm.compaction_proactiveness 0 a
 * fragmented node is left as it is and no look follows; at 100 the run
 * aims at a score of 5, and goes further than the default's (80): more
 * pages migrated, a lower score.
 */
static void kcompactd_proactiveness_sets_the_marks(const char *kernel, unsigned k)
{
	uint64_t rnd = test_seed(__func__), rnd2 = rnd, rnd3 = rnd;
	struct cma_mm *off = test_mm(.pageblock_order = 9, .kernel = kernel,
				     .cmdline = "cma=0 sysctl.vm.compaction_proactiveness=0");
	struct cma_mm *dflt = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct cma_mm *eager = test_mm(.pageblock_order = 9, .kernel = kernel,
				       .cmdline = "cma=0 sysctl.vm.compaction_proactiveness=100");
	struct fake_owner *o_off = fragment(off, &rnd), *o_dflt = fragment(dflt, &rnd2);
	struct fake_owner *o_eager = fragment(eager, &rnd3);

	assert_int_equal(cma_kcompactd_poll(off), 0);
	assert_int_equal(counter(off, "pgmigrate_success"), 0);
	assert_true(score_order9(off, normal(off)) > 90);
	assert_int_equal(cma_kcompactd_poll(dflt), 500);
	assert_int_equal(cma_kcompactd_poll(eager), 500);
	assert_true(counter(eager, "pgmigrate_success") > counter(dflt, "pgmigrate_success"));
	assert_true(score_order9(eager, normal(eager)) < score_order9(dflt, normal(dflt)));
	assert_verify(eager);
	owner_destroy(o_eager);
	owner_destroy(o_dflt);
	owner_destroy(o_off);
	cma_mm_destroy(eager);
	cma_mm_destroy(dflt);
	cma_mm_destroy(off);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compact_memory_fragmented_zone_satisfies_order9),
		cmocka_unit_test(try_to_compact_pages_fragmented_zone_stops_at_order9),
		cmocka_unit_test(compact_zone_sync_leaves_pinned_pages),
		cmocka_unit_test(compact_zone_targets_in_kernel_list_order),
		cmocka_unit_test(direct_compact_deferred_after_sync_failure),
		cmocka_unit_test(direct_compact_success_resets_deferral),
		cmocka_unit_test(compact_memory_races_owner),
		cmocka_unit_test(try_to_compact_pages_counts_stalls),
		cmocka_unit_test(isolate_freepages_range_free_range_taken),
		cmocka_unit_test(isolate_freepages_range_ends_inside_block_returns_past_end),
		cmocka_unit_test(isolate_freepages_range_allocated_page_undoes_all),
		cmocka_unit_test(isolate_freepages_range_watermark_refusal),
		cmocka_unit_test(isolate_migratepages_range_takes_lru_pages_in_batches),
		cmocka_unit_test(isolate_migratepages_range_async_skips),
		cmocka_unit_test(isolate_migratepages_range_skips_mlocked),
		cmocka_unit_test(isolate_migratepages_range_isolates_pinned_page),
		cmocka_unit_test(isolate_migratepages_range_too_many_isolated),
		cmocka_unit_test(fragmentation_index_crafted_states),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(isolate_migratepages_range_nofs_anon_only, nofs_kernels),
		test_kernel_case(try_to_compact_pages_caches_free_scanner_position, cached_kernels),
		test_kernel_case(compact_zone_skip_bits_until_compaction_restarts, kernels),
		test_kernel_case(isolate_migratepages_range_contig_scan_counter, kernels),
		test_kernel_case(isolate_freepages_range_contig_scan_counter, kernels),
		test_kernel_case(compact_zone_marks_blocks_without_candidates, kernels),
		test_kernel_case(alloc_pages_costly_order_compaction_priorities, kernels),
		test_kernel_case(alloc_huge_page_noretry_after_node_failure, kernels),
		test_kernel_case(alloc_pages_deferred_consideration_counts_stall, kernels),
		test_kernel_case(compact_zone_free_scanner_stops_when_enough, enough_kernels),
		test_kernel_case(compact_zone_async_free_scanner_samples, kernels),
		test_kernel_case(compact_zone_fast_search_takes_targets_from_free_lists, kernels),
		test_kernel_case(compact_zone_fast_search_moves_free_scanner_halfway, kernels),
		test_kernel_case(isolate_scanners_count_compound_pages_whole, kernels),
		test_kernel_case(isolate_migratepages_steps_over_free_blocks, skip_buddy_kernels),
		test_kernel_case(compact_zone_fast_search_finds_source_block, kernels),
		test_kernel_case(compact_zone_finishes_pageblock_0_first, rescan_kernels),
		test_kernel_case(compact_zone_finishes_block_after_failed_batch, failed_rescan_kernels),
		test_kernel_case(isolate_migratepages_range_marks_block_at_first_take, first_take_kernels),
		test_kernel_case(compact_zone_async_scans_request_type_blocks, same_type_kernels),
		test_kernel_case(compact_zone_async_passes_other_blocks_unmarked, pass_kernels),
		test_kernel_case(compact_pgdat_scans_every_block_from_412, same_type_kernels),
		test_kernel_case(compact_zone_marks_block_by_last_batch, batch_mark_kernels),
		test_kernel_case(compact_zone_block0_finish_marks_by_release, block0_mark_kernels),
		test_kernel_case(alloc_pages_compaction_success_keeps_skip_bits, kernels),
		test_kernel_case(kcompactd_proactive_compacts_fragmented_node, proactive_kernels),
		test_kernel_case(kcompactd_proactive_yields_to_running_kswapd, proactive_only_kernels),
		test_kernel_case(kcompactd_proactive_defers_without_progress, proactive_only_kernels),
		test_kernel_case(kcompactd_proactiveness_from_the_command_line, proactive_kernels),
		test_kernel_case(kcompactd_proactiveness_sets_the_marks, proactive_only_kernels),
	};

	return cmocka_run_group_tests_name("compaction", tests, NULL, NULL) +
	       test_run_kernel_cases("compaction (per kernel)", kernel_cases);
}
