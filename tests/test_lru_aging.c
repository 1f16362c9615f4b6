// SPDX-License-Identifier: GPL-2.0
/*
 * An LRU that ages as the kernel's does (issue 30, section 2): owners
 * report references (cma_page_mkyoung: the young bit of a mapped page;
 * cma_mark_page_accessed: PG_referenced of a cached one), and reclaim
 * reads them as v3.5's page_check_references and shrink_active_list do;
 * the inactive ratio of each release (3.5: anon by the zone's size, file
 * 1:1; 4.7 kernel.inactive_ratio_lru: both by the pair's size; 4.12
 * kernel.inactive_low_refaults: refaults lift the file list's
 * protection); refault detection from 3.15 (kernel.workingset). Each
 * test runs under the releases on both sides of the switch it covers.
 *
 * The owner here is the test's own: a table of slots, each a page or the
 * shadow its reclaim left (cma_workingset_eviction in the callback).
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "mm/mm_inline.h"

#define GFP_USER_PAGE	(CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN)

struct slot {
	struct cma_page *page;
	uint64_t shadow;	/* the evicted page's shadow entry; 0: none */
	bool evicted;
};

struct lru_owner {
	struct cma_mm *mm;
	struct slot *slots;
	uint64_t nr;
};

static int lru_reclaim(void *owner, uint64_t idx, struct cma_page *page)
{
	struct lru_owner *o = owner;
	struct slot *s = &o->slots[idx];

	if (s->page != page)
		return -EAGAIN;
	s->shadow = cma_workingset_eviction(o->mm, page);
	s->page = NULL;
	s->evicted = true;
	return 0;
}

static int lru_migrate(void *owner, uint64_t idx, struct cma_page *from, struct cma_page *to)
{
	struct lru_owner *o = owner;

	if (o->slots[idx].page != from)
		return -EAGAIN;
	o->slots[idx].page = to;
	return 0;
}

static const struct cma_owner_ops lru_anon_ops = {
	.migrate = lru_migrate, .reclaim = lru_reclaim, .anon = true,
};
static const struct cma_owner_ops lru_file_ops = {
	.migrate = lru_migrate, .reclaim = lru_reclaim, .anon = false,
};

static struct lru_owner *owner_new(struct cma_mm *mm, uint64_t nr)
{
	struct lru_owner *o = calloc(1, sizeof(*o));

	assert_non_null(o);
	o->slots = calloc(nr, sizeof(*o->slots));
	assert_non_null(o->slots);
	o->mm = mm;
	o->nr = nr;
	return o;
}

static void owner_free(struct lru_owner *o)
{
	for (uint64_t i = 0; i < o->nr; i++)
		if (o->slots[i].page)
			cma_page_put(o->mm, o->slots[i].page);
	free(o->slots);
	free(o);
}

/* Slot @idx read in (again): a fresh page, on the LRU once the pagevecs drain. */
static struct cma_page *owner_read(struct lru_owner *o, bool anon, uint64_t idx)
{
	struct cma_page *page = cma_alloc_movable(o->mm, GFP_USER_PAGE, 0,
						  anon ? &lru_anon_ops : &lru_file_ops, o, idx);

	assert_non_null(page);
	o->slots[idx].page = page;
	o->slots[idx].evicted = false;
	return page;
}

static void owner_read_range(struct lru_owner *o, bool anon, uint64_t first, uint64_t n)
{
	for (uint64_t i = first; i < first + n; i++)
		owner_read(o, anon, i);
	lru_add_drain_all(o->mm);
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	return test_counter(mm, name);
}

static uint64_t pgrefill(struct cma_mm *mm)
{
	static const char *const zones[] = { "dma", "dma32", "normal", "high", "movable" };
	uint64_t sum = 0;

	for (size_t z = 0; z < 5; z++) {
		char name[32];

		snprintf(name, sizeof(name), "pgrefill_%s", zones[z]);
		sum += counter(mm, name);
	}
	return sum;
}

/*
 * Move the pages of slots [@first, @first + @n), on the LRU, to the head
 * of their kind's active or inactive list, in slot order, as tests of
 * the lists do. New anonymous pages start active (lru_cache_add_lru of
 * LRU_ACTIVE_ANON) before 5.9, inactive from 5.9; file pages inactive.
 */
static void set_lru(struct lru_owner *o, uint64_t first, uint64_t n, bool active)
{
	for (uint64_t i = first; i < first + n; i++) {
		struct cma_page *page = o->slots[i].page;
		struct zone *zone = page_zone(o->mm, page);

		spin_lock(&zone->lru_lock);
		del_page_from_lru_list(zone, page, page_lru(page));
		if (active)
			page_flags_set(page, PG_active);
		else
			page_flags_clear(page, PG_active);
		add_page_to_lru_list(zone, page, page_lru(page));
		spin_unlock(&zone->lru_lock);
	}
}

static struct cma_mm *machine(const char *kernel, uint64_t size, uint64_t swap, bool metadata_only)
{
	return test_mm(.size = size, .swap = swap, .kernel = kernel, .metadata_only = metadata_only);
}

static const char *const both_ends[] = { "3.5", "6.12", NULL };

/* ---- page_check_references ---- */

/*
 * Expect: of 8 anonymous pages on the inactive list, the 4 whose young
 * bit the process sets between passes are activated (pgactivate) while
 * the 4 others are swapped out and freed (the owner's writes are
 * synchronous): after 4 pages freed, exactly the unreferenced ones are
 * gone. (An activated page the ratio deactivates again may be written
 * meanwhile, as in the kernel.) Before 5.9: from 5.9 a young anonymous
 * page is kept once and activated only when found young again
 * (kernel.anon_inactive, test_vmscan's
 * anon_page_starts_inactive_and_is_looked_at_twice).
 */
static void young_anon_page_survives_reclaim(void **state)
{
	static const char *const kernels[] = { "3.5", "5.8", NULL };

	for_each_kernel(k, kernels) {
		struct cma_mm *mm = machine(*k, 32 * MiB, 64 * 4096, false);
		struct lru_owner *o = owner_new(mm, 8);
		unsigned long freed = 0;

		owner_read_range(o, true, 0, 8);
		set_lru(o, 0, 8, false);
		for (int pass = 0; pass < 4 && freed < 4; pass++) {
			/* the process touches its hot half between passes */
			for (uint64_t i = 0; i < 8; i += 2)
				cma_page_mkyoung(mm, o->slots[i].page);
			freed += cma_try_to_free_pages(mm, 4 - freed, CMA_GFP_KERNEL);
		}
		expect_kernel(*k, "pages freed", 4, (long)freed);
		for (uint64_t i = 0; i < 8; i++)
			expect_kernel(*k, "slot evicted (odd ones)", i % 2, o->slots[i].evicted);
		expect_kernel(*k, "the 4 young ones activated", 1, counter(mm, "pgactivate") >= 4);
		test_verify_kernel(mm, *k, "young anon pages kept");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: a mapped file page found young at the inactive tail is kept
 * for another round and marked PG_referenced (every mapped page starts
 * with its fault's reference); found young again it is activated. The
 * unreferenced page beside it is dropped at the first pass. The second
 * pass frees nothing: from 6.11 (reclaim_full_walk) it walks again, and
 * that walk, finding the inactive list empty, ages the page back to it.
 */
static void young_file_page_kept_then_activated(void **state)
{
	for_each_kernel(k, both_ends) {
		struct cma_mm *mm = machine(*k, 32 * MiB, 0, false);
		struct lru_owner *o = owner_new(mm, 2);
		struct cma_page *page;
		bool walks_again;

		owner_read_range(o, false, 0, 2);
		page = o->slots[1].page;
		cma_page_mkyoung(mm, page);
		expect_kernel(*k, "first pass frees", 1, (long)cma_try_to_free_pages(mm, 2, CMA_GFP_KERNEL));
		expect_kernel(*k, "unreferenced slot dropped", 1, o->slots[0].evicted);
		expect_kernel(*k, "young page kept", 1, o->slots[1].page == page);
		expect_kernel(*k, "kept: PG_referenced", 1, page_test(page, PG_referenced));
		expect_kernel(*k, "kept: inactive", 0, page_test(page, PG_active));
		expect_kernel(*k, "kept: pgactivate", 0, (long)counter(mm, "pgactivate"));

		cma_page_mkyoung(mm, page);
		expect_kernel(*k, "second pass frees", 0, (long)cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL));
		walks_again = !strcmp(*k, "6.12");
		expect_kernel(*k, "used twice: active", !walks_again, page_test(page, PG_active));
		expect_kernel(*k, "used twice: pgactivate", 1, (long)counter(mm, "pgactivate"));
		expect_kernel(*k, "aged back by the second walk", walks_again, (long)counter(mm, "pgdeactivate"));
		test_verify_kernel(mm, *k, "young file page activated");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: mark_page_accessed of an inactive cached page sets
 * PG_referenced; the second call activates it (pgactivate) and clears
 * the bit. A page used only through the cache once is still reclaimed
 * when clean (PAGEREF_RECLAIM_CLEAN).
 */
static void mark_page_accessed_twice_activates(void **state)
{
	for_each_kernel(k, both_ends) {
		struct cma_mm *mm = machine(*k, 32 * MiB, 0, false);
		struct lru_owner *o = owner_new(mm, 2);
		struct cma_page *hot, *once;
		uint32_t flags;

		owner_read_range(o, false, 0, 2);
		hot = o->slots[0].page;
		once = o->slots[1].page;
		cma_mark_page_accessed(mm, hot);
		cma_mark_page_accessed(mm, once);
		expect_kernel(*k, "first access: PG_referenced", 1, page_test(hot, PG_referenced));
		expect_kernel(*k, "first access: inactive", 0, page_test(hot, PG_active));
		/* the hint of a coming access changes nothing */
		flags = page_flags(hot);
		cma_page_prefetch_accessed(mm, hot);
		expect_kernel(*k, "prefetch hint: flags kept", flags, page_flags(hot));
		cma_mark_page_accessed(mm, hot);
		expect_kernel(*k, "second access: active", 1, page_test(hot, PG_active));
		expect_kernel(*k, "second access: PG_referenced cleared", 0,
			      page_test(hot, PG_referenced));
		expect_kernel(*k, "pgactivate", 1, (long)counter(mm, "pgactivate"));
		expect_kernel(*k, "nr_active_file", 1, (long)counter(mm, "nr_active_file"));

		expect_kernel(*k, "pages freed", 1, (long)cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL));
		expect_kernel(*k, "accessed once, clean: dropped", 1, o->slots[1].evicted);
		expect_kernel(*k, "active page stays", 1, o->slots[0].page == hot);
		test_verify_kernel(mm, *k, "accessed pages");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/* ---- shrink_active_list ---- */

/*
 * Expect: shrink_active_list deactivates every page it scans, young or
 * not (no VM_EXEC rule), and clears the young bits: pgrefill counts the
 * 32 scanned, pgdeactivate the 32 moved. A polled kswapd on a balanced
 * machine only ages the anon list (age_active_anon), one batch.
 */
static void active_list_aging_uses_up_young_bits(void **state)
{
	for_each_kernel(k, both_ends) {
		struct cma_mm *mm = machine(*k, 32 * MiB, 64 * 4096, false);
		struct lru_owner *o = owner_new(mm, 64);

		owner_read_range(o, true, 0, 64);
		set_lru(o, 0, 64, true);	/* where they start before 5.9 */
		for (uint64_t i = 0; i < 64; i++)
			cma_page_mkyoung(mm, o->slots[i].page);
		cma_kswapd_step(mm);
		expect_kernel(*k, "pgrefill", 32, (long)pgrefill(mm));
		expect_kernel(*k, "pgdeactivate", 32, (long)counter(mm, "pgdeactivate"));
		expect_kernel(*k, "nr_inactive_anon", 32, (long)counter(mm, "nr_inactive_anon"));
		for (uint64_t i = 0; i < 64; i++) {
			struct cma_page *page = o->slots[i].page;

			/* the 32 at the tail of the active list, the first read, were deactivated */
			expect_kernel(*k, "deactivated page's young bit", page_test(page, PG_active),
				      page_test(page, PG_young));
		}
		test_verify_kernel(mm, *k, "active anon aged");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/* ---- the inactive ratio ---- */

/*
 * Expect (3.5, calculate_zone_inactive_ratio): the anon lists of a 2 GiB
 * zone (1 GiB and more once the memmap is taken: int_sqrt(10 * 1) = 3)
 * are kept at 3 active pages per inactive one, so 40 active beside 14
 * inactive are balanced and kswapd's age_active_anon leaves them; from
 * 4.7 the ratio comes from the 54 pages of the pair (ratio 1), and it
 * deactivates a batch.
 */
static void inactive_anon_ratio_by_release(void **state)
{
	static const char *const kernels[] = { "3.5", "4.6", "4.7", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct cma_mm *mm = machine(*k, 2048 * MiB, 64 * 4096, true);
		struct lru_owner *o = owner_new(mm, 54);
		bool by_pair = test_kernel_since(*k, 4, 7);

		owner_read_range(o, true, 0, 54);
		set_lru(o, 0, 40, true);
		set_lru(o, 40, 14, false);
		cma_kswapd_step(mm);
		expect_kernel(*k, "pgrefill", by_pair ? 32 : 0, (long)pgrefill(mm));
		expect_kernel(*k, "pgdeactivate", by_pair ? 32 : 0, (long)counter(mm, "pgdeactivate"));
		test_verify_kernel(mm, *k, "anon ratio");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: a file pair of 1.03 GiB (180000 active, 90000 inactive pages)
 * is low on inactive pages at 3.5's 1:1 and a reclaim pass ages the
 * active list (pgrefill); from 4.7 the pair's ratio is int_sqrt(10 * 1)
 * = 3, 90000 * 3 >= 180000, and the active list is left alone.
 */
static void inactive_file_ratio_by_release(void **state)
{
	static const char *const kernels[] = { "3.5", "4.6", "4.7", "6.12", NULL };
	enum { ACTIVE = 180000, INACTIVE = 90000 };

	for_each_kernel(k, kernels) {
		struct cma_mm *mm = machine(*k, 2048 * MiB, 0, true);
		struct lru_owner *o = owner_new(mm, ACTIVE + INACTIVE);
		bool by_pair = test_kernel_since(*k, 4, 7);

		owner_read_range(o, false, 0, ACTIVE + INACTIVE);
		set_lru(o, 0, ACTIVE, true);
		cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL);
		/* at DEF_PRIORITY, 180000 >> 12 = 43 active pages are due */
		expect_kernel(*k, "pgrefill", by_pair ? 0 : 43, (long)pgrefill(mm));
		test_verify_kernel(mm, *k, "file ratio");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/* ---- refault detection ---- */

/*
 * Expect: from 3.15 a file page evicted and read straight back is a
 * refault (workingset_refault) whose distance, 0, fits in any active
 * file list: it is activated (workingset_activate, on the active list).
 * One read back after 11 evictions, more than the 4 active pages, is
 * counted but stays inactive. A shadow has bit 0 set (cma.h: a value
 * entry). 3.14 has no shadows: nothing counted, nothing activated, and
 * no workingset lines in /proc/vmstat.
 */
static void refault_activates_within_active_list(void **state)
{
	static const char *const kernels[] = { "3.5", "3.14", "3.15", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct cma_mm *mm = machine(*k, 32 * MiB, 0, false);
		struct lru_owner *o = owner_new(mm, 16);
		bool workingset = test_kernel_since(*k, 3, 15);
		const char *line = test_kernel_since(*k, 6, 0) ? "workingset_refault_file 2" :
				   "workingset_refault 2";
		struct cma_page *page;
		char *vmstat;

		/* slots 0-3 active; 4 is evicted first, then 5-15 */
		owner_read_range(o, false, 0, 16);
		set_lru(o, 0, 4, true);
		expect_kernel(*k, "pages freed", 12, (long)cma_try_to_free_pages(mm, 12, CMA_GFP_KERNEL));
		expect_kernel(*k, "slot 4 evicted", 1, o->slots[4].evicted);
		expect_kernel(*k, "slot 15 evicted", 1, o->slots[15].evicted);
		expect_kernel(*k, "a shadow left", workingset, o->slots[15].shadow != 0);
		expect_kernel(*k, "a shadow is a value entry", workingset, (long)(o->slots[15].shadow & 1));

		page = owner_read(o, false, 15);
		expect_kernel(*k, "distance 0: activated", workingset,
			      cma_workingset_refault(mm, page, o->slots[15].shadow));
		lru_add_drain_all(mm);
		expect_kernel(*k, "refault on the active list", workingset, page_test(page, PG_active));
		page = owner_read(o, false, 4);
		expect_kernel(*k, "distance 11 > 4 active: not activated", 0,
			      cma_workingset_refault(mm, page, o->slots[4].shadow));
		lru_add_drain_all(mm);
		expect_kernel(*k, "far refault inactive", 0, page_test(page, PG_active));
		expect_kernel(*k, "workingset_refault", workingset ? 2 : 0,
			      (long)counter(mm, "workingset_refault"));
		expect_kernel(*k, "workingset_activate", workingset,
			      (long)counter(mm, "workingset_activate"));

		vmstat = test_proc_read(mm, "vmstat");
		expect_kernel(*k, "vmstat shows workingset_refault", workingset,
			      strstr(vmstat, line) != NULL);
		free(vmstat);
		test_verify_kernel(mm, *k, "refaults");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/* Expect: a value no cma_workingset_eviction() returned is refused, nothing counted. */
static void refault_rejects_a_bad_shadow(void **state)
{
	struct cma_mm *mm = machine("3.15", 32 * MiB, 0, false);
	struct lru_owner *o = owner_new(mm, 1);
	struct cma_page *page = owner_read(o, false, 0);

	assert_int_equal(cma_workingset_refault(mm, page, 2), -EINVAL);
	assert_int_equal(counter(mm, "workingset_refault"), 0);
	assert_int_equal(cma_workingset_refault(mm, page, 0), 0);
	owner_free(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (4.12): a refault activation since reclaim last looked means a
 * new workingset, and the active file list loses its protection: with
 * 2048 active pages beside 2053 inactive ones (not low at ratio 1, nor
 * after the page each pass frees),
 * reclaim ages the active list anyway (pgrefill 1, at the priority that
 * first scans a page of each); the pass takes a snapshot, and the next
 * one leaves the list alone. 4.11 never ages it here.
 */
static void refaults_lift_active_protection(void **state)
{
	static const char *const kernels[] = { "4.11", "4.12", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct cma_mm *mm = machine(*k, 64 * MiB, 0, false);
		struct lru_owner *o = owner_new(mm, 4101);
		bool transition = test_kernel_since(*k, 4, 12);
		struct cma_page *page;
		uint64_t before;

		owner_read_range(o, false, 0, 4101);
		expect_kernel(*k, "first pass frees", 1, (long)cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL));
		expect_kernel(*k, "slot 0 evicted", 1, o->slots[0].evicted);
		set_lru(o, 1, 2047, true);
		page = owner_read(o, false, 0);
		expect_kernel(*k, "refault activated", 1,
			      cma_workingset_refault(mm, page, o->slots[0].shadow));
		lru_add_drain_all(mm);
		expect_kernel(*k, "nr_active_file", 2048, (long)counter(mm, "nr_active_file"));
		expect_kernel(*k, "nr_inactive_file", 2053, (long)counter(mm, "nr_inactive_file"));
		before = pgrefill(mm);
		cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL);
		expect_kernel(*k, "pgrefill after a refault", transition, (long)(pgrefill(mm) - before));
		before = pgrefill(mm);
		cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL);
		expect_kernel(*k, "pgrefill once seen", 0, (long)(pgrefill(mm) - before));
		test_verify_kernel(mm, *k, "workingset transition");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(young_anon_page_survives_reclaim),
		cmocka_unit_test(young_file_page_kept_then_activated),
		cmocka_unit_test(mark_page_accessed_twice_activates),
		cmocka_unit_test(active_list_aging_uses_up_young_bits),
		cmocka_unit_test(inactive_anon_ratio_by_release),
		cmocka_unit_test(inactive_file_ratio_by_release),
		cmocka_unit_test(refault_activates_within_active_list),
		cmocka_unit_test(refault_rejects_a_bad_shadow),
		cmocka_unit_test(refaults_lift_active_protection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
