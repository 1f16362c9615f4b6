// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim (src/mm/vmscan.c): direct reclaim, kswapd as a step and as a
 * thread, swap-out, and the OOM handler. Each test boots its own small
 * backed machine (one Normal zone unless it needs more) and fills it with
 * fake owners' pages (owners.c), whose bytes carry checksums. After every
 * phase: owner_check() >= 0 (no resident page lost its bytes) and
 * cma_mm_verify() == 0.
 *
 * Reclaim never starts on its own here: pages are faulted only while the
 * zone stays above the mark a test aims at, so the allocator's slow path
 * is not entered.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "mm/mm_inline.h"
#include "owners.h"

#define GFP_FILE	(CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN)
#define MAX_OWNERS	4

/* A test's machine and owners, torn down even when the test fails. */
struct vm_test {
	struct cma_mm *mm;
	struct fake_owner *owners[MAX_OWNERS];
	unsigned nr_owners;
};

/* 32 MiB, one Normal zone: 8192 pages, high mark 271. */
static struct vm_test *vm_test(void **state, uint64_t swap_bytes, unsigned cpus)
{
	struct vm_test *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	*state = t;
	t->mm = test_mm(.size = 32 * MiB, .swap = swap_bytes, .cpus = cpus);
	return t;
}

static int vm_teardown(void **state)
{
	struct vm_test *t = *state;

	if (!t)
		return 0;
	while (t->nr_owners)
		owner_destroy(t->owners[--t->nr_owners]);
	cma_mm_destroy(t->mm);
	free(t);
	*state = NULL;
	return 0;
}

static struct fake_owner *new_owner(struct vm_test *t, bool anon, uint64_t slots)
{
	struct fake_owner *o;

	assert_true(t->nr_owners < MAX_OWNERS);
	o = owner_create(t->mm, anon, slots);
	assert_non_null(o);
	t->owners[t->nr_owners++] = o;
	return o;
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/* Every phase ends here: data intact, machine consistent. */
static void check_phase(struct vm_test *t, const char *phase)
{
	for (unsigned i = 0; i < t->nr_owners; i++) {
		long n = owner_check(t->owners[i]);

		if (n < 0) {
			print_error("%s: owner %u: a resident page's bytes changed\n", phase, i);
			fail();
		}
	}
	if (cma_mm_verify(t->mm)) {
		print_error("%s: cma_mm_verify failed\n", phase);
		fail();
	}
}

/* Pages on the file LRU lists, pagevecs drained first. */
static unsigned long file_lru(struct cma_mm *mm)
{
	lru_add_drain_all(mm);
	return global_page_state(mm, NR_INACTIVE_FILE) + global_page_state(mm, NR_ACTIVE_FILE);
}

/* Free pages once the pagevecs and per-CPU lists have given back what they hold. */
static unsigned long free_pages(struct cma_mm *mm)
{
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	return global_page_state(mm, NR_FREE_PAGES);
}

static unsigned long count_slots(struct fake_owner *o, bool dropped, bool swapped)
{
	unsigned long n = 0;

	pthread_mutex_lock(&o->lock);
	for (uint64_t i = 0; i < o->nr_slots; i++)
		n += (dropped && o->slots[i].dropped) || (swapped && o->slots[i].swapped);
	pthread_mutex_unlock(&o->lock);
	return n;
}

static struct zone *normal(struct cma_mm *mm)
{
	return &mm->zones[ZONE_NORMAL];
}

static bool zone_above(struct zone *zone, enum zone_watermarks w)
{
	return zone_watermark_ok(zone, 0, __atomic_load_n(&zone->watermark[w], __ATOMIC_RELAXED),
				 0, 0);
}

/* KSWAPD_ZONE_BALANCE_GAP_RATIO (100): min(low mark, 1% of the zone) */
static unsigned long balance_gap_of(struct zone *zone)
{
	unsigned long gap = (zone->present_pages + 99) / 100;

	return gap < low_wmark_pages(zone) ? gap : low_wmark_pages(zone);
}

/*
 * Fault the empty slots of @o, lowest first, until the Normal zone is
 * below mark @w; returns how many were faulted (on a fresh owner: slots
 * 0 .. n-1).
 */
static uint64_t fill_below(struct cma_mm *mm, struct fake_owner *o, enum zone_watermarks w)
{
	uint64_t n = 0;

	/* below the mark with the per-CPU lists empty, which hold more from 5.14 */
	for (uint64_t i = 0; zone_above(normal(mm), w) ||
			     (cma_drain_all_pages(mm), zone_above(normal(mm), w)); i++) {
		if (i == o->nr_slots) {
			print_error("fill_below: %llu slots faulted, zone still above mark %d\n",
				    (unsigned long long)n, (int)w);
			fail();
		}
		if (owner_slot_resident(o, i))
			continue;
		assert_non_null(owner_fault(o, i, GFP_FILE, i * 31 + 7));
		n++;
	}
	return n;
}

/* ---- direct reclaim: file pages ---- */

/*
 * Expect: clean file pages are dropped through their owner: the slots
 * become "dropped", the file LRU shrinks by as many as were reclaimed, and
 * each freed page is back with the allocator.
 */
static void try_to_free_pages_drops_clean_file_pages(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 256);
	unsigned long free0, lru0, got, rest;

	free0 = free_pages(mm);
	owner_fault_range(o, 0, 256, GFP_FILE);
	lru0 = file_lru(mm);
	assert_int_equal(lru0, 256);
	check_phase(t, "faulted");

	got = cma_try_to_free_pages(mm, 64, CMA_GFP_KERNEL);
	assert_true(got >= 64 && got <= 256);
	assert_int_equal(o->reclaimed, got);
	assert_int_equal(count_slots(o, true, false), got);
	assert_int_equal(owner_resident(o), 256 - got);
	assert_int_equal(file_lru(mm), lru0 - got);
	assert_int_equal(counter(mm, "allocstall"), 1);
	assert_int_equal(counter(mm, "pgsteal_direct_normal"), got);
	assert_true(counter(mm, "pgscan_direct_normal") >= got);
	assert_int_equal(counter(mm, "pgscan_kswapd_normal"), 0);
	assert_int_equal(global_page_state(mm, NR_ISOLATED_FILE), 0);
	check_phase(t, "first reclaim");

	rest = cma_try_to_free_pages(mm, 1000, CMA_GFP_KERNEL);
	assert_int_equal(rest, 256 - got);
	assert_int_equal(owner_resident(o), 0);
	assert_int_equal(file_lru(mm), 0);
	assert_int_equal(free_pages(mm), free0);
	assert_int_equal(counter(mm, "allocstall"), 2);
	check_phase(t, "all reclaimed");
}

/*
 * Expect: direct reclaim does not write dirty file pages (it would
 * overflow the kernel stack in ->writepage); they stay resident and
 * dirty, counted as nr_vmscan_immediate_reclaim, kept on the inactive
 * list (v3.5) or from 4.11 (kernel.dirty_activate) activated out of the
 * way, each when first met.
 */
static void try_to_free_pages_skips_dirty_file_pages(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 64);
	unsigned long active, got;

	owner_fault_range(o, 0, 64, GFP_FILE);
	for (uint64_t i = 0; i < 64; i++)
		owner_set_dirty(o, i, true);
	assert_int_equal(counter(mm, "nr_dirty"), 64);

	assert_int_equal(cma_try_to_free_pages(mm, 64, CMA_GFP_KERNEL), 0);
	assert_int_equal(o->written_back, 0);
	assert_int_equal(owner_resident(o), 64);
	assert_int_equal(counter(mm, "nr_dirty"), 64);
	assert_int_equal(counter(mm, "nr_vmscan_write"), 0);
	assert_true(counter(mm, "nr_vmscan_immediate_reclaim") >= 64);
	assert_true(counter(mm, "pgscan_direct_normal") >= 64);
	assert_int_equal(file_lru(mm), 64);
	if (mm->kernel.dirty_activate)
		assert_true(counter(mm, "pgactivate") >= 64);
	else
		assert_int_equal(counter(mm, "pgactivate"), 0);
	check_phase(t, "direct reclaim over dirty pages");

	/* cleaned by their owner, they go: the inactive ones first, from 4.11 the active ones once aged */
	for (uint64_t i = 0; i < 64; i++)
		owner_set_dirty(o, i, false);
	/* nr_dirtied counts pages made dirty: cleaning takes none back */
	assert_int_equal(counter(mm, "nr_dirtied"), 64);
	active = counter(mm, "nr_active_file");
	assert_true(mm->kernel.dirty_activate ? active > 0 : active == 0);
	got = cma_try_to_free_pages(mm, 64, CMA_GFP_KERNEL);
	assert_true(got >= 64 - active);
	assert_int_equal(cma_try_to_free_pages(mm, 64 - got, CMA_GFP_KERNEL), 64 - got);
	assert_int_equal(owner_resident(o), 0);
	assert_int_equal(counter(mm, "nr_dirty"), 0);
	check_phase(t, "after cleaning");
}

/*
 * Expect: a page with a pin besides owner and isolation stays, activated;
 * unpinned, it goes. v3.5's get_scan_count scans lru_size >> priority, so
 * the 16 active pages reach the inactive list a few per priority and the
 * last of them only after the inactive list's turn at priority 0: a
 * second call takes those.
 */
static void try_to_free_pages_keeps_pinned_pages(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 32);
	unsigned long free0 = free_pages(mm), got;

	owner_fault_range(o, 0, 32, GFP_FILE);
	for (uint64_t i = 0; i < 32; i += 2)
		cma_page_get(mm, o->slots[i].page);

	assert_int_equal(cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL), 16);
	for (uint64_t i = 0; i < 32; i++)
		assert_int_equal(o->slots[i].page != NULL, i % 2 == 0);
	assert_true(counter(mm, "pgactivate") >= 16);
	check_phase(t, "pinned kept");

	for (uint64_t i = 0; i < 32; i += 2)
		cma_page_put(mm, o->slots[i].page);
	got = cma_try_to_free_pages(mm, 16, CMA_GFP_KERNEL);
	assert_true(got > 0 && got <= 16);
	assert_int_equal(cma_try_to_free_pages(mm, 16, CMA_GFP_KERNEL), 16 - got);
	assert_int_equal(owner_resident(o), 0);
	assert_int_equal(free_pages(mm), free0);
	check_phase(t, "unpinned reclaimed");
}

/*
 * Expect: a page under writeback is passed over, not activated (v3.5),
 * or from 4.11 (kernel.dirty_activate) activated and marked PG_reclaim,
 * so that the end of its write rotates it to the inactive tail
 * (pgrotated; v3.5 rotates none, the flusher's writes being unmarked);
 * once written, it goes.
 */
static void try_to_free_pages_skips_writeback_pages(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 32);
	unsigned long moved = mm->kernel.dirty_activate ? 8 : 0;

	owner_fault_range(o, 0, 32, GFP_FILE);
	for (uint64_t i = 0; i < 8; i++) {
		owner_set_dirty(o, i, true);
		assert_true(cma_page_start_writeback(mm, o->slots[i].page));
	}

	assert_int_equal(cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL), 24);
	for (uint64_t i = 0; i < 32; i++)
		assert_int_equal(o->slots[i].page != NULL, i < 8);
	assert_int_equal(counter(mm, "pgactivate"), moved);
	check_phase(t, "writeback pages kept");

	for (uint64_t i = 0; i < 8; i++)
		cma_page_end_writeback(mm, o->slots[i].page);
	lru_add_drain(mm);
	assert_int_equal(counter(mm, "pgrotated"), moved);
	assert_int_equal(counter(mm, "nr_active_file"), 0);
	assert_int_equal(cma_try_to_free_pages(mm, 8, CMA_GFP_KERNEL), 8);
	assert_int_equal(owner_resident(o), 0);
	check_phase(t, "written pages reclaimed");
}

/*
 * Expect: an owner that refuses keeps its pages: nothing freed, nothing
 * leaked (free pages unchanged). Anon pages were written to swap before
 * their owner was asked (v3.5: add_to_swap and the write come first), so
 * they keep their slots in the swap cache. When the owner stops refusing,
 * everything goes, without a second write, and every page comes back.
 */
static void try_to_free_pages_refusing_owner_keeps_pages(void **state)
{
	struct vm_test *t = vm_test(state, 64 * 4096, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *file = new_owner(t, false, 32);
	struct fake_owner *anon = new_owner(t, true, 32);
	unsigned long free0 = free_pages(mm), free1;

	owner_fault_range(file, 0, 32, GFP_FILE);
	owner_fault_range(anon, 0, 32, GFP_FILE);
	file->refuse_reclaim = -EBUSY;
	anon->refuse_reclaim = -EBUSY;
	free1 = free_pages(mm);

	assert_int_equal(cma_try_to_free_pages(mm, 64, CMA_GFP_KERNEL), 0);
	assert_int_equal(owner_resident(file), 32);
	assert_int_equal(owner_resident(anon), 32);
	assert_int_equal(free_pages(mm), free1);
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 32 * 4096);
	assert_int_equal(counter(mm, "pswpout"), 32);
	assert_true(counter(mm, "pgscan_direct_normal") >= 64);
	check_phase(t, "owners refused");

	file->refuse_reclaim = 0;
	anon->refuse_reclaim = 0;
	assert_int_equal(cma_try_to_free_pages(mm, 64, CMA_GFP_KERNEL), 64);
	assert_int_equal(owner_resident(file), 0);
	assert_int_equal(owner_resident(anon), 0);
	assert_int_equal(count_slots(anon, false, true), 32);
	assert_int_equal(counter(mm, "pswpout"), 32);
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 32 * 4096);
	assert_int_equal(free_pages(mm), free0);
	check_phase(t, "owners gave in");
}

/*
 * Expect: active file pages are aged to the inactive list before they can
 * go (pgrefill, pgdeactivate), whatever their use while active: v3.5's
 * shrink_active_list keeps only VM_EXEC pages, which are not modelled,
 * and PG_referenced buys an active page no round. Asked for 8 of 16,
 * reclaim takes at least 8, odd ones (marked accessed while active)
 * among them: found PG_referenced on the inactive list and clean, they
 * are reclaimed (PAGEREF_RECLAIM_CLEAN); those left still carry the bit.
 */
static void try_to_free_pages_referenced_pages_go_last(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 16);
	struct zone *zone = normal(mm);
	unsigned long got, odd_left = 0;

	owner_fault_range(o, 0, 16, GFP_FILE);
	lru_add_drain_all(mm);
	spin_lock(&zone->lru_lock);
	for (uint64_t i = 0; i < 16; i++) {
		struct cma_page *page = o->slots[i].page;

		del_page_from_lru_list(zone, page, LRU_INACTIVE_FILE);
		page_flags_set(page, PG_active);
		add_page_to_lru_list(zone, page, LRU_ACTIVE_FILE);
	}
	spin_unlock(&zone->lru_lock);
	for (uint64_t i = 1; i < 16; i += 2)
		cma_mark_page_accessed(mm, o->slots[i].page);
	check_phase(t, "pages made active");

	got = cma_try_to_free_pages(mm, 8, CMA_GFP_KERNEL);
	/* the last batch may overshoot: it takes what priority 0 isolated */
	assert_true(got >= 8);
	assert_int_equal(owner_resident(o), 16 - got);
	for (uint64_t i = 1; i < 16; i += 2) {
		struct cma_page *page = o->slots[i].page;

		if (!page)
			continue;
		odd_left++;
		assert_true(page_test(page, PG_referenced));
	}
	assert_true(odd_left < 8);
	assert_int_equal(counter(mm, "pgactivate"), 0);
	assert_true(counter(mm, "pgdeactivate") >= got);
	assert_true(counter(mm, "pgrefill_normal") >= 16);
	check_phase(t, "referenced pages aged alike");
}

/* Expect: reclaim looks only at the zones the request may use. */
static void try_to_free_pages_honours_gfp_zone(void **state)
{
	struct vm_test *t = calloc(1, sizeof(*t));
	struct fake_owner *o;
	struct cma_mm *mm;

	assert_non_null(t);
	*state = t;
	t->mm = mm = test_mm(.dma_end = 16 * MiB);
	o = new_owner(t, false, 32);
	owner_fault_range(o, 0, 32, GFP_FILE);
	for (uint64_t i = 0; i < 32; i++)
		assert_int_equal(page_zonenum(o->slots[i].page), ZONE_NORMAL);

	assert_int_equal(cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL | CMA_GFP_DMA), 0);
	assert_int_equal(owner_resident(o), 32);
	assert_int_equal(counter(mm, "pgscan_direct_normal"), 0);
	check_phase(t, "GFP_DMA reclaim");

	assert_int_equal(cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL), 32);
	assert_int_equal(owner_resident(o), 0);
	assert_true(counter(mm, "pgscan_direct_normal") >= 32);
	assert_int_equal(counter(mm, "pgscan_direct_dma"), 0);
	check_phase(t, "GFP_KERNEL reclaim");
}

/*
 * Expect: seed 007's __perform_reclaim frees at least a batch and reports
 * it as progress (v3.5 checks the target after each priority, whose scan
 * of lru_size >> priority pages can overshoot it); on a machine with
 * nothing to reclaim, 0 (from 6.11 after two walks, two stalls).
 */
static void perform_reclaim_reports_progress(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 100);
	int got;

	assert_int_equal(__perform_reclaim(mm, CMA_GFP_HIGHUSER_MOVABLE, 0), 0);
	owner_fault_range(o, 0, 100, GFP_FILE);
	lru_add_drain_all(mm);
	got = __perform_reclaim(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
	assert_true(got >= (int)SWAP_CLUSTER_MAX);
	assert_int_equal(owner_resident(o), 100 - got);
	assert_int_equal(counter(mm, "allocstall"), mm->kernel.reclaim_full_walk ? 3 : 2);
	check_phase(t, "one batch");
}

/* ---- anonymous pages and swap ---- */

/* Expect: with no swap, anonymous pages are not even scanned. */
static void try_to_free_pages_anon_without_swap_stays(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, true, 64);

	owner_fault_range(o, 0, 64, GFP_FILE);
	assert_int_equal(cma_try_to_free_pages(mm, 64, CMA_GFP_KERNEL), 0);
	assert_int_equal(owner_resident(o), 64);
	assert_int_equal(count_slots(o, false, true), 0);
	assert_int_equal(counter(mm, "pgscan_direct_normal"), 0);
	assert_int_equal(counter(mm, "pgdeactivate"), 0);
	assert_int_equal(counter(mm, "pswpout"), 0);
	/* 5.9 (kernel.anon_inactive) puts a new anonymous page on the inactive list */
	assert_int_equal(counter(mm, "nr_active_anon"), mm->kernel.anon_inactive ? 0 : 64);
	assert_int_equal(counter(mm, "nr_inactive_anon"), mm->kernel.anon_inactive ? 64 : 0);
	check_phase(t, "no swap");
}

/*
 * Expect: with swap for 32 pages, 32 of 64 anonymous pages are written to
 * swap (aged from the active list first) and, the owner's writes being
 * synchronous, freed by the scan that writes them: all 32 by the end of
 * the call, none rotated. Then swap is full, which is no swap: the anon
 * lists are not scanned; swap is never given back (no swap-in), so a
 * second try frees none.
 */
static void try_to_free_pages_anon_swapped_up_to_swap_size(void **state)
{
	struct vm_test *t = vm_test(state, 32 * 4096, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, true, 64);
	uint64_t scanned, got;

	owner_fault_range(o, 0, 64, GFP_FILE);
	got = cma_try_to_free_pages(mm, 64, CMA_GFP_KERNEL);
	assert_int_equal(got, 32);
	assert_int_equal(count_slots(o, false, true), got);
	assert_int_equal(owner_resident(o), 64 - got);
	assert_int_equal(counter(mm, "pswpout"), 32);
	assert_int_equal(counter(mm, "pgsteal_direct_normal"), got);
	assert_int_equal(counter(mm, "pgrotated"), 0);
	/*
	 * aged from the active list first, unless they started inactive
	 * (5.9): then only pages this reclaim activated (no swap left for
	 * them) can be aged back, as 6.12's balance scans part of the
	 * anon list a pass and fills the swap midway
	 */
	if (mm->kernel.anon_inactive)
		assert_true(counter(mm, "pgdeactivate") <= counter(mm, "pgactivate"));
	else
		assert_true(counter(mm, "pgdeactivate") >= 32);
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 32 * 4096);
	check_phase(t, "swap filled");

	/* swap full is no swap: the 32 left on the inactive anon list are not even scanned */
	scanned = counter(mm, "pgscan_direct_normal");
	lru_add_drain_all(mm);	/* the pages reclaim put back wait in the pagevec */
	assert_int_equal(counter(mm, "nr_inactive_anon") + counter(mm, "nr_active_anon"), 64 - got);
	assert_int_equal(cma_try_to_free_pages(mm, 64, CMA_GFP_KERNEL), 0);
	assert_int_equal(counter(mm, "pgscan_direct_normal"), scanned);
	assert_int_equal(owner_resident(o), 64 - got);
	assert_int_equal(counter(mm, "pswpout"), 32);
	/* releasing swapped slots does not give the swap back */
	for (uint64_t i = 0; i < 64; i++)
		if (!o->slots[i].page)
			owner_release(o, i);
	assert_int_equal(cma_try_to_free_pages(mm, 64, CMA_GFP_KERNEL), 0);
	check_phase(t, "swap full");
}

/*
 * Expect: a swap write the owner completes in its callback is a
 * synchronous device's (a ramdisk, zram): the scan that writes the page
 * frees it at once (v3.5's shrink_page_list and 6.12's
 * shrink_folio_list, PAGE_SUCCESS with the page neither under writeback
 * nor dirty), so pgsteal follows pswpout and nothing is rotated. A write
 * left in flight (-EINPROGRESS) keeps the page in the swap cache (as
 * test_writeback's in-flight swap-out), and an owner freeing it once the
 * write is done gives its slot back.
 */
static void try_to_free_pages_frees_a_page_written_synchronously(void **state)
{
	struct vm_test *t = vm_test(state, 8 * 4096, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, true, 2);
	struct cma_page *page;
	unsigned long got = 0;
	int calls = 0;

	/* one page: a call scans it once, at priority 0 */
	owner_fault_range(o, 0, 1, GFP_FILE);
	while (!counter(mm, "pswpout")) {
		assert_true(++calls < 10);
		got = cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL);
	}
	assert_int_equal(got, 1);
	assert_int_equal(owner_resident(o), 0);
	assert_int_equal(count_slots(o, false, true), 1);
	assert_int_equal(counter(mm, "pgsteal_direct_normal"), 1);
	assert_int_equal(counter(mm, "pgrotated"), 0);
	assert_int_equal(counter(mm, "nr_writeback"), 0);
	assert_int_equal(counter(mm, "nr_written"), 1);
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 4096);
	check_phase(t, "written and freed in one scan");

	/* a second page written to swap in flight, then dropped by its owner: its slot comes back */
	o->fail_writeback = -EINPROGRESS;
	page = owner_fault(o, 1, GFP_FILE, 7920);
	assert_non_null(page);
	while (!page_test(page, PG_swapcache)) {
		assert_true(++calls < 20);
		assert_int_equal(cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL), 0);
	}
	assert_true(page_test(page, PG_writeback));
	assert_int_equal(owner_resident(o), 1);
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 2 * 4096);
	cma_page_end_writeback(mm, page);
	owner_release(o, 1);
	/* the write's end rotated the page: the rotate pagevec's reference goes at the drain */
	lru_add_drain_all(mm);
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 4096);
	check_phase(t, "released");
}

/*
 * Expect (kernel.anon_inactive, 5.9): a new anonymous page starts on the
 * inactive list, and the referenced PTE its fault left keeps it for one
 * more trip (PG_referenced, no pgactivate); the next scan, with no new
 * reference, swaps it out. Before 5.9 it starts on the active list,
 * where aging it to the inactive list consumes that reference, and the
 * same call swaps it out. 5.8 and 5.9 are the boundary. From 6.11 the
 * call whose walk freed nothing walks again (reclaim_full_walk), and
 * that second look swaps the page out: one call, two scans.
 */
static void anon_page_starts_inactive_and_is_looked_at_twice(void **state)
{
	static const char *const kernels[] = { "3.5", "5.8", "5.9", "6.10", "6.11", "6.12" };

	for (unsigned k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct cma_mm *mm = test_mm(.kernel = kernels[k], .size = 32 * MiB, .swap = 8 * 4096);
		struct fake_owner *o = owner_create(mm, true, 1);
		bool v59 = k >= 2, walks_again = k >= 4;
		struct cma_page *page;
		uint64_t activated;

		assert_non_null(o);
		assert_int_equal(mm->kernel.anon_inactive, v59);
		page = owner_fault(o, 0, GFP_FILE, 11);
		assert_non_null(page);
		cma_page_mkyoung(mm, page);	/* the fault's PTE */
		lru_add_drain_all(mm);
		assert_int_equal(page_test(page, PG_active) != 0, !v59);
		assert_int_equal(counter(mm, "nr_inactive_anon"), v59);
		activated = counter(mm, "pgactivate");
		/* one page: a walk scans it once, at priority 0 */
		if (walks_again) {
			assert_int_equal(cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL), 1);
			assert_int_equal(owner_resident(o), 0);
			assert_int_equal(counter(mm, "pswpout"), 1);
			assert_int_equal(counter(mm, "pgscan_direct_normal"), 2);
			assert_int_equal(counter(mm, "pgactivate"), activated);
			assert_int_equal(counter(mm, "pgdeactivate"), 0);
		} else if (v59) {
			assert_int_equal(cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL), 0);
			assert_int_equal(owner_resident(o), 1);
			assert_int_equal(counter(mm, "pswpout"), 0);
			assert_int_equal(counter(mm, "pgscan_direct_normal"), 1);
			assert_false(page_test(page, PG_active));
			assert_true(page_test(page, PG_referenced));
			assert_int_equal(counter(mm, "pgactivate"), activated);
			assert_int_equal(cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL), 1);
			assert_int_equal(owner_resident(o), 0);
			assert_int_equal(counter(mm, "pswpout"), 1);
			assert_int_equal(counter(mm, "pgdeactivate"), 0);
		} else {
			assert_int_equal(cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL), 1);
			assert_int_equal(owner_resident(o), 0);
			assert_int_equal(counter(mm, "pswpout"), 1);
			assert_int_equal(counter(mm, "pgdeactivate"), 1);
			assert_int_equal(counter(mm, "pgactivate"), activated);
		}
		assert_int_equal(cma_mm_verify(mm), 0);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/*
 * cma_swap_free() follows free_swap_and_cache() and swap_free(): a slot
 * is in use until the last reference to the swap entry goes. Expect: 8
 * pages swapped out leave 4 of 12 slots, so of the next 8 pages only 4
 * are written to swap, and then reclaim finds no room (v3.5's
 * get_scan_count scans no anon pages with nr_swap_pages at 0): at least
 * 4 stay. Once the owner drops the entries of the first 8 (its process
 * exited, or brought them back) their slots take the rest. Dropping more
 * entries than are held is refused, changing nothing, and
 * cma_mm_verify() catches a slot nobody holds.
 */
static void swap_free_returns_slots_to_swap(void **state)
{
	struct vm_test *t = vm_test(state, 12 * 4096, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *first = new_owner(t, true, 8);
	struct fake_owner *second = new_owner(t, true, 8);
	int calls = 0;

	owner_fault_range(first, 0, 8, GFP_FILE);
	while (owner_resident(first)) {
		assert_true(++calls < 40);
		cma_try_to_free_pages(mm, 8, CMA_GFP_KERNEL);
	}
	assert_int_equal(count_slots(first, false, true), 8);
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 8 * 4096);
	assert_int_equal(mm->swap_entries, 8);
	check_phase(t, "first swapped out");

	owner_fault_range(second, 0, 8, GFP_FILE);
	for (int i = 0; i < 8; i++)
		cma_try_to_free_pages(mm, 8, CMA_GFP_KERNEL);
	assert_true(owner_resident(second) >= 4);
	assert_int_equal(count_slots(second, false, true), 8 - owner_resident(second));
	assert_int_equal(mm->swap_entries, 8 + count_slots(second, false, true));
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 12 * 4096);
	assert_int_equal(cma_swap_free(mm, 13, 1), -EINVAL);
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 12 * 4096);
	check_phase(t, "swap full");

	for (int i = 0; i < 8; i++)
		assert_int_equal(cma_swap_free(mm, first->slots[i].swap_entry, 1), 0);
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 4 * 4096);
	assert_int_equal(mm->swap_entries, count_slots(second, false, true));
	check_phase(t, "entries freed");
	calls = 0;
	while (owner_resident(second)) {
		assert_true(++calls < 40);
		cma_try_to_free_pages(mm, 8, CMA_GFP_KERNEL);
	}
	assert_int_equal(count_slots(second, false, true), 8);
	assert_int_equal(counter(mm, "pswpout"), 16);
	assert_int_equal(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED), 8 * 4096);
	check_phase(t, "swapped into the freed slots");

	mm->swap_used += 4096;
	assert_int_equal(cma_mm_verify(mm), -EUCLEAN);
	mm->swap_used -= 4096;
}

/*
 * cma_page_backed() follows what cleancache_put_page and frontswap_store
 * are given by __remove_mapping and swap_writepage. Expect: a file page
 * is backed while clean, not while dirty; an anonymous page only once
 * shrink_page_list has put it in the swap cache and its write is done;
 * a page that is not movable never.
 */
static void cma_page_backed_clean_or_on_swap(void **state)
{
	struct vm_test *t = vm_test(state, 8 * 4096, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *file = new_owner(t, false, 1), *anon = new_owner(t, true, 1);
	struct cma_page *page, *kernel;
	int calls = 0;

	owner_fault_range(file, 0, 1, GFP_FILE);
	page = file->slots[0].page;
	assert_true(cma_page_backed(mm, page));
	cma_page_set_dirty(mm, page, true);
	assert_false(cma_page_backed(mm, page));
	cma_page_set_dirty(mm, page, false);
	assert_true(cma_page_backed(mm, page));

	/* the write left in flight, so that the page stays in the swap cache */
	anon->fail_writeback = -EINPROGRESS;
	owner_fault_range(anon, 0, 1, GFP_FILE);
	page = anon->slots[0].page;
	assert_false(cma_page_backed(mm, page));
	while (!page_test(page, PG_swapcache)) {
		assert_true(++calls < 10);
		cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL);
	}
	assert_false(cma_page_backed(mm, page));
	cma_page_end_writeback(mm, page);
	assert_true(cma_page_backed(mm, page));

	kernel = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_non_null(kernel);
	assert_false(cma_page_backed(mm, kernel));
	cma_free_pages(mm, kernel, 0);
	check_phase(t, "backed");
}

/* Expect: without __GFP_IO there is no swap-out, but clean file pages still go. */
static void try_to_free_pages_noio_keeps_anon(void **state)
{
	struct vm_test *t = vm_test(state, 64 * 4096, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *anon = new_owner(t, true, 32);
	struct fake_owner *file = new_owner(t, false, 32);

	owner_fault_range(anon, 0, 32, GFP_FILE);
	owner_fault_range(file, 0, 32, GFP_FILE);
	assert_int_equal(cma_try_to_free_pages(mm, 64, CMA_GFP_NOIO), 32);
	assert_int_equal(owner_resident(anon), 32);
	assert_int_equal(owner_resident(file), 0);
	assert_int_equal(counter(mm, "pswpout"), 0);
	check_phase(t, "GFP_NOIO");
}

/* ---- kswapd, step by step ---- */

/* Records, for each writepage event, the priority of the shrink pass it belonged to. */
struct wb_trace {
	unsigned long pending, writes, early_writes;
	int highest_prio_written;
};

static void wb_trace_fn(void *ctx, const char *event, const char *line)
{
	struct wb_trace *w = ctx;
	const char *p;

	if (!strcmp(event, "mm_vmscan_writepage")) {
		w->pending++;
		return;
	}
	if (strcmp(event, "mm_vmscan_lru_shrink_inactive") || !w->pending)
		return;
	p = strstr(line, "priority=");
	assert_non_null(p);
	int prio = atoi(p + strlen("priority="));

	w->writes += w->pending;
	if (prio >= DEF_PRIORITY - 2)
		w->early_writes += w->pending;
	if (prio > w->highest_prio_written)
		w->highest_prio_written = prio;
	w->pending = 0;
}

/*
 * Expect: on a machine below its high mark full of dirty file pages,
 * direct reclaim writes nothing; a kswapd step writes them back, only at
 * priorities below DEF_PRIORITY - 2, then reclaims written pages until the
 * zone is balanced. A failing ->writepage leaves the pages dirty, and
 * kswapd loops (balance_pgdat's loop_again) until it gives the zone up as
 * all_unreclaimable; then it scans it only at DEF_PRIORITY, where it does
 * not write, until a page freed to the zone clears the verdict. From 4.12
 * (kernel.kswapd_failures) it gives the node up instead, after
 * MAX_RECLAIM_RETRIES loops, still scanning the zone at every priority
 * when run again, and the pages it then frees revive the node.
 */
static void kswapd_step_writes_back_dirty_pages(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 8192);
	struct wb_trace w = { .highest_prio_written = -1 };
	uint64_t n = fill_below(mm, o, WMARK_HIGH), pageoutrun;
	bool node_rule = mm->kernel.kswapd_failures;
	unsigned long got;

	for (uint64_t i = 0; i < n; i++)
		owner_set_dirty(o, i, true);
	assert_int_equal(counter(mm, "nr_dirty"), n);
	check_phase(t, "filled with dirty pages");

	assert_int_equal(cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL), 0);
	assert_int_equal(o->written_back, 0);
	check_phase(t, "direct reclaim wrote nothing");

	o->fail_writeback = -EIO;
	assert_int_equal(cma_kswapd_step(mm), 0);
	assert_int_equal(o->written_back, 0);
	assert_int_equal(counter(mm, "nr_dirty"), n);
	assert_int_equal(counter(mm, "nr_writeback"), 0);
	assert_int_equal(counter(mm, "nr_vmscan_write"), 0);
	assert_true(counter(mm, "pageoutrun") >= 1);
	assert_int_equal(owner_resident(o), n);
	assert_int_equal(normal(mm)->all_unreclaimable, !node_rule);
	assert_int_equal(kswapd_hopeless(mm), node_rule);
	check_phase(t, "writeback failed");

	o->fail_writeback = 0;
	if (!node_rule) {
		assert_int_equal(cma_kswapd_step(mm), 0);
		assert_int_equal(o->written_back, 0);
		cma_free_pages(mm, cma_alloc_pages(mm, CMA_GFP_KERNEL, 0), 0);
		cma_drain_all_pages(mm);
		assert_false(normal(mm)->all_unreclaimable);
		assert_int_equal(normal(mm)->pages_scanned, 0);
	}
	pageoutrun = counter(mm, "pageoutrun");
	cma_mm_set_trace(mm, wb_trace_fn, &w);
	got = cma_kswapd_step(mm);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_true(o->written_back > 0);
	assert_int_equal(counter(mm, "nr_vmscan_write"), o->written_back);
	assert_int_equal(counter(mm, "nr_dirty"), n - o->written_back);
	assert_int_equal(counter(mm, "nr_writeback"), 0);
	assert_int_equal(w.writes, o->written_back);
	assert_int_equal(w.early_writes, 0);
	assert_int_equal(w.highest_prio_written, DEF_PRIORITY - 3);
	assert_true(got > 0);
	assert_int_equal(o->reclaimed, got);
	assert_int_equal(counter(mm, "pgsteal_kswapd_normal"), got);
	assert_true(counter(mm, "pageoutrun") > pageoutrun);
	/* each write was done in the owner's callback: its page went in the same pass, unrotated */
	assert_int_equal(counter(mm, "pgrotated"), 0);
	assert_true(zone_above(normal(mm), WMARK_HIGH));
	assert_false(kswapd_hopeless(mm));
	check_phase(t, "kswapd wrote back and reclaimed");
}

/* Expect: kswapd leaves a balanced machine alone; a step before boot does nothing. */
static void kswapd_step_balanced_machine_untouched(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm, *early = NULL;
	struct fake_owner *o = new_owner(t, false, 64);
	struct cma_bank bank = { 0, 32 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .cmdline = "cma=0" };

	owner_fault_range(o, 0, 64, GFP_FILE);
	assert_int_equal(cma_kswapd_step(mm), 0);
	assert_int_equal(owner_resident(o), 64);
	assert_int_equal(counter(mm, "pageoutrun"), 1);
	assert_int_equal(counter(mm, "pgscan_kswapd_normal"), 0);
	check_phase(t, "balanced");

	assert_int_equal(cma_mm_create(&cfg, &early), 0);
	assert_int_equal(cma_kswapd_step(early), 0);
	assert_int_equal(cma_try_to_free_pages(early, 1, CMA_GFP_KERNEL), 0);
	assert_int_equal(cma_kswapd_start(early), -EINVAL);
	cma_kswapd_stop(early);
	cma_mm_destroy(early);
}

/* Expect: kswapd reclaims clean pages of a zone below high until it is balanced. */
static void kswapd_step_balances_to_high(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 8192);
	uint64_t n = fill_below(mm, o, WMARK_LOW);
	unsigned long got;

	check_phase(t, "below low");
	got = cma_kswapd_step(mm);
	assert_true(got > 0 && got < n);
	assert_int_equal(owner_resident(o), n - got);
	assert_true(zone_above(normal(mm), WMARK_HIGH));
	assert_true(counter(mm, "pgscan_kswapd_normal") >= got);
	assert_int_equal(counter(mm, "pgsteal_kswapd_normal"), got);
	assert_int_equal(counter(mm, "pgscan_direct_normal"), 0);
	assert_int_equal(counter(mm, "allocstall"), 0);
	check_phase(t, "balanced by kswapd");
}

/*
 * Expect: balance_pgdat (v3.5) starts over at DEF_PRIORITY (a new
 * pageoutrun) each time a loop has freed SWAP_CLUSTER_MAX pages, until
 * the zone is balanced: a zone about a high-minus-low gap short takes
 * several loops within one wakeup, each freeing at least a batch.
 */
static void kswapd_step_loops_until_balanced(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 8192);
	unsigned long got;

	fill_below(mm, o, WMARK_MIN);
	got = cma_kswapd_step(mm);
	assert_true(zone_above(normal(mm), WMARK_HIGH));
	assert_true(counter(mm, "pageoutrun") > 1);
	assert_true(got >= counter(mm, "pageoutrun") * SWAP_CLUSTER_MAX - SWAP_CLUSTER_MAX);
	check_phase(t, "balanced in several loops");
}

/* Every page of the file is mapped by one page table entry. */
static unsigned all_mapped(void *owner, uint64_t idx, const struct cma_page *page)
{
	return 1;
}

/*
 * Fault @o's slots, lowest first, each page mapped and young once (its
 * fault's PTE), until the Normal zone is below mark @w, and drain them
 * to the LRU; how many were faulted.
 */
static uint64_t fill_young_mapped_below(struct cma_mm *mm, struct fake_owner *o, enum zone_watermarks w)
{
	static struct cma_owner_ops ops;	/* the pages keep it: it outlives the test */
	uint64_t n = 0;

	ops = fake_file_ops;
	ops.mapcount = all_mapped;
	while (zone_above(normal(mm), w) || (cma_drain_all_pages(mm), zone_above(normal(mm), w))) {
		struct cma_page *page = owner_fault_ops(o, n, GFP_FILE, n * 31 + 7, &ops);

		assert_non_null(page);
		cma_page_mkyoung(mm, page);
		n++;
	}
	lru_add_drain_all(mm);
	return n;
}

/*
 * Expect (kernel.kswapd_reclaim_target, 3.11): kswapd's shrink of an
 * unbalanced zone stops at the zone's high mark in pages at each
 * priority. A file whose every page is mapped and young once rotates
 * whole before reclaim frees any of it, so the priority falls until one
 * shrink scans a large share of the list: v3.5 (and 3.10) frees all of
 * it that shrink scans, 3.11 and 6.12 stop near the high mark. Both
 * leave the zone balanced. 3.10 and 3.11 are the boundary.
 */
static void kswapd_reclaims_a_high_mark_per_priority(void **state)
{
	static const char *const kernels[] = { "3.5", "3.10", "3.11", "6.12" };

	for (unsigned k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct cma_mm *mm = test_mm(.kernel = kernels[k], .size = 32 * MiB);
		struct fake_owner *o = owner_create(mm, false, 8192);
		bool v311 = k >= 2;
		unsigned long got, high, bound;
		uint64_t n;

		assert_non_null(o);
		assert_int_equal(mm->kernel.kswapd_reclaim_target, v311);
		n = fill_young_mapped_below(mm, o, WMARK_MIN);
		high = wmark_pages(normal(mm), WMARK_HIGH);
		/* the deficit below the balance mark, and a zone's high mark and a batch per shrink */
		bound = high + balance_gap_of(normal(mm)) + 2 * (high + SWAP_CLUSTER_MAX);
		got = cma_kswapd_step(mm);
		print_message("%s: %llu pages faulted, high mark %lu, kswapd freed %lu\n", kernels[k],
			      (unsigned long long)n, high, got);
		assert_true(zone_above(normal(mm), WMARK_HIGH));
		assert_int_equal(owner_resident(o), n - got);
		if (v311)
			assert_true(got <= bound);
		else
			assert_true(got > 2 * bound);
		assert_int_equal(cma_mm_verify(mm), 0);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: polled kswapd runs only the pass a wakeup asked for: nothing
 * before one, a balance to the high mark after a wakeup below the low
 * mark, nothing again until the next wakeup; it excludes the thread
 * (-EBUSY both ways) and cma_kswapd_stop ends it.
 */
static void kswapd_polled_runs_only_when_woken(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 8192);
	uint64_t n;
	unsigned long got;

	assert_int_equal(cma_kswapd_poll(mm), 0);		/* not polled */
	assert_int_equal(cma_kswapd_start_polled(mm), 0);
	assert_int_equal(cma_kswapd_start_polled(mm), -EBUSY);
	assert_int_equal(cma_kswapd_start(mm), -EBUSY);
	n = fill_below(mm, o, WMARK_LOW);
	assert_int_equal(counter(mm, "pgsteal_kswapd_normal"), 0);	/* no thread ran */
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
	got = cma_kswapd_poll(mm);
	assert_true(got > 0 && got < n);
	assert_true(zone_above(normal(mm), WMARK_HIGH));
	assert_int_equal(counter(mm, "pgsteal_kswapd_normal"), got);
	assert_int_equal(cma_kswapd_poll(mm), 0);		/* the wakeup was used up */
	cma_kswapd_stop(mm);
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
	assert_int_equal(cma_kswapd_poll(mm), 0);		/* stopped */
	assert_int_equal(cma_kswapd_start(mm), 0);
	check_phase(t, "polled, then the thread");
}

struct wake_count {
	unsigned kswapd, others;
};

static void count_wake(void *ctx, enum cma_sleep_reason why)
{
	struct wake_count *c = ctx;

	if (why == CMA_SLEEP_KSWAPD)
		c->kswapd++;
	else
		c->others++;
}

/*
 * Expect: the wakeup that finds the polled kswapd asleep (below the low
 * mark, no pass pending) tells the host, once: wake(CMA_SLEEP_KSWAPD),
 * as wake_up_interruptible(&pgdat->kswapd_wait) runs the thread. A
 * wakeup while the pass is pending, or one above the low mark, does
 * not; after the pass, the next wakeup below the mark does again. Under
 * 3.12-3.14 the fill's own slow path, entered when a fair batch ran dry
 * (fair_zone_alloc before fair_zone_retry), may be that wakeup.
 */
static void kswapd_polled_wakeup_tells_the_host(void **state)
{
	static const struct cma_mm_sleep_ops ops = { .wake = count_wake };	/* no clock: no sleep */
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 8192);
	struct wake_count c = { 0 };
	/* 3.12-3.14: a fault whose fair batch ran dry enters the slow path, which may wake it */
	bool batch_wakes = mm->kernel.fair_zone_alloc && !mm->kernel.fair_zone_retry;
	uint64_t n;

	cma_mm_set_sleep_ops(mm, &ops, &c);
	assert_int_equal(cma_kswapd_start_polled(mm), 0);
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
	n = fill_below(mm, o, WMARK_LOW);
	if (batch_wakes)
		assert_true(c.kswapd <= 1);
	else
		assert_int_equal(c.kswapd, 0);			/* each fault found the zone above it */
	assert_non_null(owner_fault(o, n, GFP_FILE, 5));	/* the slow path's wakeup */
	assert_int_equal(c.kswapd, 1);
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
	assert_int_equal(c.kswapd, 1);				/* a pass is pending */
	assert_true(cma_kswapd_poll(mm) > 0);
	assert_true(zone_above(normal(mm), WMARK_HIGH));
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
	assert_int_equal(c.kswapd, 1);				/* above the low mark */
	fill_below(mm, o, WMARK_LOW);
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);		/* asleep again */
	assert_int_equal(c.kswapd, 2);
	assert_int_equal(c.others, 0);
	cma_kswapd_stop(mm);
	cma_mm_set_sleep_ops(mm, NULL, NULL);
	check_phase(t, "woken twice");
}

struct nap_count {
	unsigned naps, sleeps;
	uint64_t timeout_us;
};

static uint64_t count_sleep(void *ctx, enum cma_sleep_reason why, uint64_t timeout_us)
{
	struct nap_count *c = ctx;

	if (why == CMA_SLEEP_KSWAPD) {
		c->naps++;
		c->timeout_us = timeout_us;
	} else {
		c->sleeps++;
	}
	return timeout_us;
}

/*
 * Expect (v3.5's balance_pgdat: congestion_wait(HZ/10) once a round
 * below DEF_PRIORITY - 2 has scanned): on a clock, the polled kswapd's
 * pass ends where the thread would sleep, asking the host to poll it
 * again after the sleep's 100 ms (sleep(CMA_SLEEP_KSWAPD)); it stays
 * woken for the same request, and the polls that follow go on until the
 * zone is balanced. No sleep of another queue is taken.
 */
static void kswapd_polled_naps_where_the_thread_sleeps(void **state)
{
	static const struct cma_mm_sleep_ops ops = { .sleep = count_sleep };
	struct vm_test *t = vm_test(state, 0, 1);
	struct nap_count c = { 0 };
	struct fake_owner *o;
	struct cma_mm *mm;
	unsigned polls = 0;

	/* 3.5's sleep (5.16's kswapd throttles only on pages it met under writeback) */
	cma_mm_destroy(t->mm);
	mm = t->mm = test_mm(.kernel = "3.5", .size = 32 * MiB, .cpus = 1);
	o = new_owner(t, false, 8192);
	cma_mm_set_sleep_ops(mm, &ops, &c);
	assert_int_equal(cma_kswapd_start_polled(mm), 0);
	/*
	 * Young mapped pages: the first rounds rotate them, so the priority
	 * falls to a sleep; below the low mark, not the min (where 3.5's
	 * kswapd skips the sleep).
	 */
	fill_young_mapped_below(mm, o, WMARK_LOW);
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
	cma_kswapd_poll(mm);
	assert_int_equal(c.naps, 1);
	assert_int_equal(c.timeout_us, 100000);
	assert_false(zone_above(normal(mm), WMARK_HIGH));
	while (!zone_above(normal(mm), WMARK_HIGH) && polls++ < 64)
		cma_kswapd_poll(mm);
	assert_true(zone_above(normal(mm), WMARK_HIGH));
	assert_int_equal(c.sleeps, 0);
	cma_kswapd_stop(mm);
	cma_mm_set_sleep_ops(mm, NULL, NULL);
	check_phase(t, "balanced after its naps");
}

static uint64_t vm_counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/* Poll the polled kswapd until a pass ends without a nap in it (v3.5's congestion_wait naps). */
static void poll_past_naps(struct cma_mm *mm)
{
	unsigned polls = 0;

	do
		cma_kswapd_poll(mm);
	while (mm->kswapd_napping && ++polls < 64);
	assert_false(mm->kswapd_napping);
}

static void count_kswapd_sleep(void *ctx, const char *event, const char *line)
{
	if (!strcmp(event, "mm_vmscan_kswapd_sleep"))
		(*(unsigned *)ctx)++;
}

/*
 * Expect (kswapd_try_to_sleep, v3.5 and 6.12 alike): on a clock, the
 * polled kswapd's pass that balanced the zone is followed by a HZ/10
 * sleep on its waitqueue (a 100 ms nap the host polls it after). A
 * wakeup during it counts kswapd_low_wmark_hit_quickly and runs a pass;
 * a zone below its high mark when it ends counts
 * kswapd_high_wmark_hit_quickly and runs one, though nothing woke
 * kswapd; a balanced zone then sends it to sleep until woken
 * (mm_vmscan_kswapd_sleep), and a poll finds nothing to do.
 */
static void kswapd_polled_short_sleep_after_a_pass(void **state)
{
	static const struct cma_mm_sleep_ops ops = { .sleep = count_sleep };
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 8192);
	struct nap_count c = { 0 };
	unsigned sleeps = 0;

	cma_mm_set_sleep_ops(mm, &ops, &c);
	cma_mm_set_trace(mm, count_kswapd_sleep, &sleeps);
	assert_int_equal(cma_kswapd_start_polled(mm), 0);
	fill_below(mm, o, WMARK_LOW);
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
	poll_past_naps(mm);
	assert_true(zone_above(normal(mm), WMARK_HIGH));
	assert_true(mm->kswapd_short_nap);
	assert_int_equal(c.timeout_us, 100000);

	/* a slow path's pause does not end the nap before its time */
	kswapd_run_meanwhile(mm);
	assert_true(mm->kswapd_short_nap);
	assert_int_equal(vm_counter(mm, "kswapd_high_wmark_hit_quickly"), 0);
	assert_int_equal(sleeps, 0);

	/* woken during the nap */
	fill_below(mm, o, WMARK_LOW);
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
	poll_past_naps(mm);
	assert_int_equal(vm_counter(mm, "kswapd_low_wmark_hit_quickly"), 1);
	assert_int_equal(vm_counter(mm, "kswapd_high_wmark_hit_quickly"), 0);
	assert_true(zone_above(normal(mm), WMARK_HIGH));
	assert_true(mm->kswapd_short_nap);

	/* below the high mark at its end, nobody having woken it */
	fill_below(mm, o, WMARK_HIGH);
	assert_false(mm->kswapd_woken);
	poll_past_naps(mm);
	assert_int_equal(vm_counter(mm, "kswapd_high_wmark_hit_quickly"), 1);
	assert_true(zone_above(normal(mm), WMARK_HIGH));
	assert_true(mm->kswapd_short_nap);

	/* balanced at its end: asleep until woken */
	assert_int_equal(sleeps, 0);
	assert_int_equal(cma_kswapd_poll(mm), 0);
	assert_false(mm->kswapd_short_nap);
	assert_int_equal(sleeps, 1);
	assert_int_equal(cma_kswapd_poll(mm), 0);
	assert_int_equal(vm_counter(mm, "kswapd_low_wmark_hit_quickly"), 1);
	assert_int_equal(vm_counter(mm, "kswapd_high_wmark_hit_quickly"), 1);
	assert_int_equal(c.sleeps, 0);

	/* stopped in its short sleep: a poll then finds no kswapd to run */
	fill_below(mm, o, WMARK_LOW);
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
	poll_past_naps(mm);
	assert_true(mm->kswapd_short_nap);
	cma_kswapd_stop(mm);
	assert_int_equal(cma_kswapd_poll(mm), 0);
	assert_int_equal(sleeps, 1);
	assert_int_equal(vm_counter(mm, "kswapd_high_wmark_hit_quickly"), 1);
	cma_kswapd_stop(mm);
	cma_mm_set_trace(mm, NULL, NULL);
	cma_mm_set_sleep_ops(mm, NULL, NULL);
	check_phase(t, "short sleeps after three passes");
}

/*
 * Expect (kernel.kswapd_balance_nowait, 3.9): kswapd in trouble (a round
 * below DEF_PRIORITY - 2 that scanned) sleeps for the device up to 3.8,
 * and goes straight on from 3.9: on a clock the 3.5 and 3.8 passes nap,
 * the 3.9 and 6.12 ones balance the zone in one pass without a sleep,
 * then take kswapd_try_to_sleep's HZ/10 (a nap too, after the pass).
 * 3.8 and 3.9 are the boundary.
 */
static void kswapd_in_trouble_waits_until_3_9(void **state)
{
	static const char *const kernels[] = { "3.5", "3.8", "3.9", "6.12" };
	static const struct cma_mm_sleep_ops ops = { .sleep = count_sleep };

	for (unsigned k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct cma_mm *mm = test_mm(.kernel = kernels[k], .size = 32 * MiB, .cpus = 1);
		struct fake_owner *o = owner_create(mm, false, 8192);
		struct nap_count c = { 0 };
		bool waits = k < 2;

		assert_non_null(o);
		assert_int_equal(mm->kernel.kswapd_balance_nowait, !waits);
		cma_mm_set_sleep_ops(mm, &ops, &c);
		assert_int_equal(cma_kswapd_start_polled(mm), 0);
		fill_young_mapped_below(mm, o, WMARK_LOW);
		wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
		cma_kswapd_poll(mm);
		/* one sleep either way: in the pass, or kswapd_try_to_sleep's HZ/10 after it */
		if (c.naps != 1 || mm->kswapd_napping != waits || mm->kswapd_short_nap == waits ||
		    zone_above(normal(mm), WMARK_HIGH) == waits)
			fail_msg("%s: expected %s, found %u naps (%s), the zone %s its high mark", kernels[k],
				 waits ? "a nap in the pass" : "a balanced zone and the short sleep after",
				 c.naps, mm->kswapd_napping ? "in the pass" : "after it",
				 zone_above(normal(mm), WMARK_HIGH) ? "above" : "below");
		assert_int_equal(c.timeout_us, 100000);
		assert_int_equal(c.sleeps, 0);
		cma_kswapd_stop(mm);
		cma_mm_set_sleep_ops(mm, NULL, NULL);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/* ---- kswapd, the thread ---- */

static void kswapd_thread_lifecycle(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;

	cma_kswapd_stop(mm);			/* none runs: nothing to do */
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);	/* nobody to wake */
	assert_int_equal(cma_kswapd_start(mm), 0);
	assert_int_equal(cma_kswapd_start(mm), -EBUSY);
	cma_kswapd_stop(mm);
	cma_kswapd_stop(mm);
	assert_int_equal(cma_kswapd_start(mm), 0);
	/* left running: cma_mm_destroy in the teardown stops it */
	check_phase(t, "restarted");
}

struct allocator {
	struct cma_mm *mm;
	struct fake_owner *o;
	unsigned cpu;
	uint64_t seed;
	unsigned long faulted, failed;
};

/*
 * An allocating "process": faults its file, waking kswapd whenever the
 * zone is below its low mark (as the slow path does), falls back to
 * direct reclaim when a fault fails, and now and then rewrites or drops
 * one of its pages while reclaim runs beside it.
 */
static void *allocator_fn(void *arg)
{
	struct allocator *a = arg;
	struct zone *zone = normal(a->mm);

	cma_mm_bind_cpu(a->mm, a->cpu);
	for (uint64_t i = 0; i < a->o->nr_slots; i++) {
		int tries = 0;

		while (!owner_fault(a->o, i, GFP_FILE, a->seed + i)) {
			wakeup_kswapd(a->mm, zone, 0, zone->idx);
			cma_try_to_free_pages(a->mm, SWAP_CLUSTER_MAX, GFP_FILE);
			if (++tries == 100) {
				a->failed++;
				break;
			}
		}
		a->faulted += tries < 100;
		if (!zone_above(zone, WMARK_LOW))
			wakeup_kswapd(a->mm, zone, 0, zone->idx);
		uint64_t r = prandom_u64_state(&a->seed);

		if (r % 7 == 0)
			owner_write(a->o, (r >> 8) % (i + 1), r);
		else if (r % 29 == 0)
			owner_release(a->o, (r >> 8) % (i + 1));
	}
	return NULL;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Expect: with kswapd running, two threads on two CPUs fault more file
 * pages than the machine holds; kswapd (and direct reclaim when a fault
 * fails) makes room. Then, driven below low and woken, kswapd balances the
 * zone to its high mark within 10 s, and stops when told. How much kswapd
 * does while the threads run is up to the scheduler. Run clean under
 * ThreadSanitizer too.
 */
static void kswapd_thread_balances_under_allocation(void **state)
{
	struct vm_test *t = vm_test(state, 0, 2);
	struct cma_mm *mm = t->mm;
	struct allocator a[2];
	pthread_t th[2];
	struct fake_owner *last = new_owner(t, false, 8192);
	unsigned long seed = test_seed("kswapd_thread_balances_under_allocation");
	double deadline;

	for (int i = 0; i < 2; i++)
		a[i] = (struct allocator){ .mm = mm, .o = new_owner(t, false, 5000), .cpu = (unsigned)i,
					   .seed = seed * 2 + (uint64_t)i + 1 };
	assert_int_equal(cma_kswapd_start(mm), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, allocator_fn, &a[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	assert_true(a[0].faulted + a[1].faulted > 8192);

	cma_mm_bind_cpu(mm, 0);
	fill_below(mm, last, WMARK_LOW);
	wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
	deadline = now_seconds() + 10;
	while (!zone_above(normal(mm), WMARK_HIGH)) {
		if (now_seconds() > deadline) {
			print_error("kswapd did not balance the zone within 10 s: %lu free, high %lu\n",
				    zone_page_state(normal(mm), NR_FREE_PAGES),
				    high_wmark_pages(normal(mm)));
			fail();
		}
		wakeup_kswapd(mm, normal(mm), 0, ZONE_NORMAL);
		usleep(1000);
	}
	/* only kswapd frees pages now: whether it ran earlier is up to the scheduler */
	assert_true(counter(mm, "pageoutrun") > 0);
	assert_true(counter(mm, "pgsteal_kswapd_normal") > 0);
	cma_kswapd_stop(mm);
	cma_kswapd_stop(mm);
	printf("kswapd thread: %lu + %lu faults (%lu + %lu gave up), %llu kswapd runs, %llu pages reclaimed by kswapd, %llu directly\n",
	       a[0].faulted, a[1].faulted, a[0].failed, a[1].failed,
	       (unsigned long long)counter(mm, "pageoutrun"),
	       (unsigned long long)counter(mm, "pgsteal_kswapd_normal"),
	       (unsigned long long)counter(mm, "pgsteal_direct_normal"));
	check_phase(t, "after kswapd thread");
}

/*
 * Expect: get_scan_count (v3.5) scans lru_size >> priority pages, no
 * minimum batch: asked for one page from a 100-page file list, direct
 * reclaim looks at nothing until priority 6 (100 >> 6 = 1), then at one
 * page, which it frees.
 */
static void try_to_free_pages_scans_size_shifted_by_priority(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 100);

	owner_fault_range(o, 0, 100, GFP_FILE);
	assert_int_equal(cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL), 1);
	assert_int_equal(counter(mm, "pgscan_direct_normal"), 1);
	assert_int_equal(owner_resident(o), 99);
	check_phase(t, "one page scanned");
}

/*
 * Expect: kswapd gives a zone up (all_unreclaimable, shown in
 * /proc/zoneinfo) once it scanned six times its reclaimable pages, here
 * pinned ones (balance_pgdat, zone_reclaimable); direct reclaim then
 * reports no progress; a page freed to the zone clears both the verdict
 * and pages_scanned (free_pcppages_bulk). From 4.12
 * (kernel.kswapd_failures) kswapd gives the node up, no zone marked; a
 * freed page is no reclaim progress and leaves it so, the pages direct
 * reclaim frees once the pins are gone revive it.
 */
static void kswapd_gives_up_on_unreclaimable(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *o = new_owner(t, false, 8192);
	uint64_t n = fill_below(mm, o, WMARK_LOW);
	bool node_rule = mm->kernel.kswapd_failures;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	for (uint64_t i = 0; i < n; i++)
		cma_page_get(mm, o->slots[i].page);
	assert_int_equal(cma_kswapd_step(mm), 0);
	assert_int_equal(normal(mm)->all_unreclaimable, !node_rule);
	assert_int_equal(kswapd_hopeless(mm), node_rule);
	if (!node_rule)
		assert_true(normal(mm)->pages_scanned >= 6 * n);
	assert_int_equal(__perform_reclaim(mm, CMA_GFP_KERNEL, 0), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(cma_write_proc(mm, "zoneinfo", f), 0);
	fclose(f);
	/* 6.x's zoneinfo (proc_v6, dated 6.0) shows the flag as the node's (one node here) */
	assert_non_null(strstr(buf, test_kernel_since(cma_mm_kernel(mm), 6, 0) ?
				    "\n  node_unreclaimable:  1\n" : "\n  all_unreclaimable: 1\n"));
	free(buf);

	cma_free_pages(mm, cma_alloc_pages(mm, CMA_GFP_KERNEL, 0), 0);
	cma_drain_all_pages(mm);
	assert_false(normal(mm)->all_unreclaimable);
	assert_int_equal(kswapd_hopeless(mm), node_rule);
	if (!node_rule)
		assert_int_equal(normal(mm)->pages_scanned, 0);
	for (uint64_t i = 0; i < n; i++)
		cma_page_put(mm, o->slots[i].page);
	if (node_rule) {
		assert_true(cma_try_to_free_pages(mm, SWAP_CLUSTER_MAX, CMA_GFP_KERNEL) > 0);
		assert_false(kswapd_hopeless(mm));
	}
	check_phase(t, "reclaim given up, then hopeful again");
}

/*
 * Expect: wakeup_kswapd (v3.5) raises kswapd_max_order, and the
 * classzone with it, even for a zone above its low mark, which it does
 * not wake; the next wakeup balances at that order. From 4.8
 * (kernel.kswapd_wake_node) the zones up to the classzone decide the
 * wakeup: here DMA alone, woken unless it meets its high mark.
 */
static void wakeup_kswapd_raises_max_order(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct zone *dma = &mm->zones[ZONE_DMA];

	assert_int_equal(cma_kswapd_start_polled(mm), 0);
	wakeup_kswapd(mm, normal(mm), 3, ZONE_DMA);
	assert_int_equal(mm->kswapd_woken,
			 mm->kernel.kswapd_wake_node &&
			 !zone_watermark_ok(dma, 3, high_wmark_pages(dma), ZONE_DMA, 0));
	assert_int_equal(mm->kswapd_max_order, 3);
	assert_int_equal(mm->kswapd_classzone_idx, ZONE_DMA);
	wakeup_kswapd(mm, normal(mm), 2, ZONE_NORMAL);
	assert_int_equal(mm->kswapd_max_order, 3);
	assert_int_equal(mm->kswapd_classzone_idx, ZONE_DMA);
	cma_kswapd_stop(mm);
}

/* Is @dma above @mark and above its high mark + 32 (so still above high once one more page goes)? */
static bool dma_between(struct zone *dma, unsigned long mark)
{
	return zone_watermark_ok(dma, 0, mark, 0, 0) &&
	       zone_watermark_ok(dma, 0, high_wmark_pages(dma) + 32, 0, 0);
}

/*
 * Expect: balance_pgdat (v3.5) checks a lower zone against its high mark
 * plus the balance gap plus its lowmem_reserve for the highest unbalanced
 * zone (end_zone): with Normal below high, a DMA zone above its own high
 * mark but within high + gap + lowmem_reserve[NORMAL] is reclaimed too.
 */
static void kswapd_step_balances_lower_zone_for_classzone(void **state)
{
	struct vm_test *t = calloc(1, sizeof(*t));
	struct zone *dma;
	struct fake_owner *low, *high;
	unsigned long mark;
	struct cma_mm *mm;
	uint64_t i = 0;

	assert_non_null(t);
	*state = t;
	t->mm = mm = test_mm(.size = 64 * MiB, .dma_end = 16 * MiB);
	dma = &mm->zones[ZONE_DMA];
	low = new_owner(t, false, 8192);
	high = new_owner(t, false, 16384);
	mark = high_wmark_pages(dma) + balance_gap_of(dma) + dma->lowmem_reserve[ZONE_NORMAL];
	assert_true(dma->lowmem_reserve[ZONE_NORMAL] > 0);
	while (dma_between(dma, mark) || (cma_drain_all_pages(mm), dma_between(dma, mark))) {
		assert_non_null(owner_fault(low, i, CMA_GFP_USER | CMA_GFP_MOVABLE | CMA_GFP_DMA,
					    i + 1));
		assert_int_equal(page_zonenum(low->slots[i++].page), ZONE_DMA);
	}
	assert_true(zone_watermark_ok(dma, 0, high_wmark_pages(dma), 0, 0));
	fill_below(mm, high, WMARK_HIGH);
	assert_true(zone_watermark_ok(dma, 0, high_wmark_pages(dma), 0, 0));

	assert_true(cma_kswapd_step(mm) > 0);
	assert_true(counter(mm, "pgsteal_kswapd_dma") > 0);
	check_phase(t, "DMA reclaimed for the Normal classzone");
}

/*
 * Expect: woken for order 3 on a zone with plenty of free but scattered
 * pages, kswapd (balance_pgdat, v3.5) reclaims nothing, since compaction
 * could serve the order (it checks order 0 then), and compacts instead,
 * so that an order-3 block is free above the low mark afterwards.
 */
static void kswapd_compacts_for_high_order(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct zone *zone = normal(mm);
	struct fake_owner *o = new_owner(t, false, 8192);
	struct cma_page *held[512];
	unsigned nr_held = 0;
	uint64_t n = fill_below(mm, o, WMARK_MIN);

	for (uint64_t i = 0; i < n; i += 2)
		owner_release(o, i);
	cma_drain_all_pages(mm);
	/* no free block of order 3 or more is left */
	while ((held[nr_held] = cma_alloc_pages(mm, CMA_GFP_NOWARN, 3)))
		assert_true(++nr_held < 512);
	assert_false(zone_watermark_ok(zone, 3, low_wmark_pages(zone), 0, 0));
	check_phase(t, "fragmented");

	assert_int_equal(cma_kswapd_start_polled(mm), 0);
	wakeup_kswapd(mm, zone, 3, ZONE_NORMAL);
	assert_true(mm->kswapd_woken);
	cma_kswapd_poll(mm);
	cma_kswapd_stop(mm);
	assert_int_equal(counter(mm, "pgsteal_kswapd_normal"), 0);
	assert_true(zone_watermark_ok(zone, 3, low_wmark_pages(zone), 0, 0));
	while (nr_held)
		cma_free_pages(mm, held[--nr_held], 3);
	check_phase(t, "compacted");
}

/* ---- out of memory ---- */

struct oom_ctx {
	unsigned calls, order;
	struct cma_mm *mm;
	unsigned long frees;
};

static unsigned long oom_handler(void *ctx, struct cma_mm *mm, unsigned order)
{
	struct oom_ctx *c = ctx;

	c->calls++;
	c->order = order;
	c->mm = mm;
	return c->frees;
}

/* Expect: out_of_memory calls the handler and passes on what it freed; without one, 0. */
static void out_of_memory_calls_handler(void **state)
{
	struct vm_test *t = vm_test(state, 0, 1);
	struct cma_mm *mm = t->mm;
	struct oom_ctx c = { .frees = 7 };
	char *log;

	assert_int_equal(out_of_memory(mm, CMA_GFP_KERNEL, 2), 0);
	log = test_dmesg(mm);
	assert_non_null(strstr(log, "Out of memory"));
	assert_non_null(strstr(log, "no killable processes"));
	free(log);

	cma_mm_set_oom_handler(mm, oom_handler, &c);
	assert_int_equal(out_of_memory(mm, CMA_GFP_KERNEL, 3), 7);
	assert_int_equal(c.calls, 1);
	assert_int_equal(c.order, 3);
	assert_ptr_equal(c.mm, mm);

	c.frees = 0;
	assert_int_equal(out_of_memory(mm, CMA_GFP_HIGHUSER_MOVABLE, 0), 0);
	assert_int_equal(c.calls, 2);

	cma_mm_set_oom_handler(mm, NULL, NULL);
	assert_int_equal(out_of_memory(mm, CMA_GFP_KERNEL, 0), 0);
	assert_int_equal(c.calls, 2);
	check_phase(t, "after OOM calls");
}

/* ---- counters ---- */

/* The value on @vmstat's line "@name N", or -1 if it has none. */
static long vmstat_line(const char *vmstat, const char *name)
{
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), "\n%s ", name);
	p = strstr(vmstat, want);
	return p ? strtol(p + strlen(want), NULL, 10) : -1;
}

/*
 * Expect, from 6.0's /proc/vmstat layout (6.12's do_try_to_free_pages
 * counts ALLOCSTALL under sc->reclaim_idx, gfp_zone of the request):
 * one stall each of a GFP_KERNEL, a GFP_DMA and a GFP_HIGHUSER_MOVABLE
 * reclaim on a DMA and Normal machine show as allocstall_normal,
 * allocstall_dma and allocstall_movable 1, in pgalloc_*'s place after
 * them, none of dma32 (not built) and no single allocstall line. Under
 * 3.5 the one "allocstall" line counts all three and no allocstall_*.
 */
static void allocstall_by_the_requests_zone(void **state)
{
	static const char *const kernels[] = { "3.5", "6.0", "6.12" };
	/* each stall frees nothing: from 6.11 it walks twice, counted twice */
	static const int stalls[] = { 1, 1, 2 };
	static const cma_gfp_t gfps[] = { CMA_GFP_KERNEL, CMA_GFP_KERNEL | CMA_GFP_DMA,
					  CMA_GFP_HIGHUSER_MOVABLE };

	for (unsigned k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct cma_mm *mm = test_mm(.kernel = kernels[k], .size = 32 * MiB, .dma_end = 16 * MiB);
		bool v6 = mm->kernel.proc_v6;
		char *s;

		for (unsigned i = 0; i < sizeof(gfps) / sizeof(gfps[0]); i++)
			cma_try_to_free_pages(mm, 1, gfps[i]);
		s = test_proc_read(mm, "vmstat");
		if (v6) {
			assert_int_equal(vmstat_line(s, "allocstall_dma"), stalls[k]);
			assert_int_equal(vmstat_line(s, "allocstall_normal"), stalls[k]);
			assert_int_equal(vmstat_line(s, "allocstall_movable"), stalls[k]);
			assert_int_equal(vmstat_line(s, "allocstall_dma32"), -1);
			assert_int_equal(vmstat_line(s, "allocstall"), -1);
			assert_non_null(strstr(s, "\npgalloc_movable 0\nallocstall_dma "));
		} else {
			assert_int_equal(vmstat_line(s, "allocstall"), 3 * stalls[k]);
			assert_null(strstr(s, "\nallocstall_"));
		}
		assert_int_equal(v6, strcmp(kernels[k], "3.5") != 0);
		free(s);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (6.12's do_try_to_free_pages, "mm: vmscan: restore incremental
 * cgroup iteration", 6.11): a direct reclaim that frees nothing (an
 * empty LRU) walks once more from DEF_PRIORITY and counts its stall
 * again, under one direct_reclaim_begin; one that frees something counts
 * once. 6.10 counts every stall once.
 */
static void count_reclaim_begins(void *ctx, const char *event, const char *line)
{
	*(unsigned *)ctx += !strcmp(event, "mm_vmscan_direct_reclaim_begin");
}

static void try_to_free_pages_fruitless_walks_again(void **state)
{
	static const char *const kernels[] = { "6.10", "6.11", "6.12" };

	for (unsigned k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct cma_mm *mm = test_mm(.kernel = kernels[k], .size = 32 * MiB);
		struct fake_owner *file = owner_create(mm, false, 64);
		uint64_t fruitless = k > 0 ? 2 : 1;
		unsigned begins = 0;

		assert_non_null(file);
		cma_mm_set_trace(mm, count_reclaim_begins, &begins);
		assert_int_equal(cma_try_to_free_pages(mm, 32, CMA_GFP_HIGHUSER_MOVABLE), 0);
		assert_int_equal(begins, 1);
		if (counter(mm, "allocstall_movable") != fruitless)
			fail_msg("%s: a fruitless stall counted %llu, expected %llu", kernels[k],
				 (unsigned long long)counter(mm, "allocstall_movable"),
				 (unsigned long long)fruitless);
		owner_fault_range(file, 0, 64, GFP_FILE);
		lru_add_drain_all(mm);
		assert_true(cma_try_to_free_pages(mm, 32, CMA_GFP_HIGHUSER_MOVABLE) > 0);
		assert_int_equal(begins, 2);
		cma_mm_set_trace(mm, NULL, NULL);
		if (counter(mm, "allocstall_movable") != fruitless + 1)
			fail_msg("%s: a stall that freed pages counted %llu, expected 1", kernels[k],
				 (unsigned long long)(counter(mm, "allocstall_movable") - fruitless));
		assert_verify(mm);
		owner_destroy(file);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (v3.5's putback_inactive_pages, 6.12's move_folios_to_lru): a
 * page reclaim isolated and kept (its fault's young PTE: looked at
 * twice) is back on its LRU list when the call returns, holding no
 * reference of a pagevec. 6.10 stands for 6.x: from 6.11 the fruitless
 * call walks again and frees the page at its second look.
 */
static void try_to_free_pages_puts_kept_pages_straight_back(void **state)
{
	static const char *const kernels[] = { "3.5", "6.10" };

	for (unsigned k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct cma_mm *mm = test_mm(.kernel = kernels[k], .size = 32 * MiB);
		struct fake_owner *o = owner_create(mm, false, 1);
		struct cma_page *page;

		assert_non_null(o);
		page = owner_fault(o, 0, GFP_FILE, 7);
		assert_non_null(page);
		lru_add_drain_all(mm);
		cma_page_mkyoung(mm, page);
		assert_int_equal(cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL), 0);
		assert_int_equal(counter(mm, "pgscan_direct_normal"), 1);
		if (owner_resident(o) != 1 || !page_test(page, PG_lru) || page_count(page) != 1)
			fail_msg("%s: expected the kept page on the LRU with its owner's reference alone; "
				 "resident %lu, PG_lru %d, count %d", kernels[k], owner_resident(o),
				 page_test(page, PG_lru) != 0, page_count(page));
		assert_verify(mm);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/* Expect: the /proc/vmstat names of the reclaim counters all answer and move. */
static void reclaim_counters_move(void **state)
{
	struct vm_test *t = vm_test(state, 8 * 4096, 1);
	struct cma_mm *mm = t->mm;
	struct fake_owner *anon = new_owner(t, true, 16);
	struct fake_owner *file = new_owner(t, false, 8192);
	static const char *const names[] = {
		"pgscan_direct_normal", "pgsteal_direct_normal", "allocstall", "pageoutrun",
		"pswpout", "pgscan_kswapd_normal", "pgsteal_kswapd_normal",
	};
	uint64_t before[7];

	for (int i = 0; i < 7; i++)
		before[i] = counter(mm, names[i]);
	owner_fault_range(anon, 0, 16, GFP_FILE);
	fill_below(mm, file, WMARK_LOW);
	/* more than the file pages: v3.5 reaches a 16-page anon list only at priority 4 */
	assert_true(cma_try_to_free_pages(mm, 8192, CMA_GFP_KERNEL) >= 64);
	fill_below(mm, file, WMARK_LOW);
	assert_true(cma_kswapd_step(mm) > 0);
	for (int i = 0; i < 7; i++)
		if (counter(mm, names[i]) == before[i]) {
			print_error("counter %s: expected it to move from %llu, found it unchanged\n",
				    names[i], (unsigned long long)before[i]);
			fail();
		}
	check_phase(t, "counters");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(try_to_free_pages_drops_clean_file_pages, vm_teardown),
		cmocka_unit_test(kswapd_reclaims_a_high_mark_per_priority),
		cmocka_unit_test_teardown(kswapd_polled_wakeup_tells_the_host, vm_teardown),
		cmocka_unit_test_teardown(kswapd_polled_naps_where_the_thread_sleeps, vm_teardown),
		cmocka_unit_test(kswapd_in_trouble_waits_until_3_9),
		cmocka_unit_test_teardown(kswapd_polled_short_sleep_after_a_pass, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_skips_dirty_file_pages, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_keeps_pinned_pages, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_skips_writeback_pages, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_refusing_owner_keeps_pages, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_referenced_pages_go_last, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_honours_gfp_zone, vm_teardown),
		cmocka_unit_test_teardown(perform_reclaim_reports_progress, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_anon_without_swap_stays, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_anon_swapped_up_to_swap_size, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_frees_a_page_written_synchronously, vm_teardown),
		cmocka_unit_test(anon_page_starts_inactive_and_is_looked_at_twice),
		cmocka_unit_test_teardown(cma_page_backed_clean_or_on_swap, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_noio_keeps_anon, vm_teardown),
		cmocka_unit_test_teardown(kswapd_step_writes_back_dirty_pages, vm_teardown),
		cmocka_unit_test_teardown(kswapd_step_balanced_machine_untouched, vm_teardown),
		cmocka_unit_test_teardown(kswapd_step_balances_to_high, vm_teardown),
		cmocka_unit_test_teardown(kswapd_step_loops_until_balanced, vm_teardown),
		cmocka_unit_test_teardown(kswapd_polled_runs_only_when_woken, vm_teardown),
		cmocka_unit_test_teardown(kswapd_thread_lifecycle, vm_teardown),
		cmocka_unit_test_teardown(kswapd_thread_balances_under_allocation, vm_teardown),
		cmocka_unit_test_teardown(try_to_free_pages_scans_size_shifted_by_priority, vm_teardown),
		cmocka_unit_test_teardown(kswapd_gives_up_on_unreclaimable, vm_teardown),
		cmocka_unit_test_teardown(wakeup_kswapd_raises_max_order, vm_teardown),
		cmocka_unit_test_teardown(kswapd_step_balances_lower_zone_for_classzone, vm_teardown),
		cmocka_unit_test_teardown(kswapd_compacts_for_high_order, vm_teardown),
		cmocka_unit_test_teardown(out_of_memory_calls_handler, vm_teardown),
		cmocka_unit_test_teardown(reclaim_counters_move, vm_teardown),
		cmocka_unit_test(allocstall_by_the_requests_zone),
		cmocka_unit_test(try_to_free_pages_fruitless_walks_again),
		cmocka_unit_test(try_to_free_pages_puts_kept_pages_straight_back),
		cmocka_unit_test_teardown(swap_free_returns_slots_to_swap, vm_teardown),
	};

	return cmocka_run_group_tests_name("vmscan", tests, NULL, NULL);
}
