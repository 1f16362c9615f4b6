// SPDX-License-Identifier: GPL-2.0
/*
 * Swap slots, swap-in read-ahead and anon shadows (issue 30, section 2):
 * reclaim hands slots out in order (scan_swap_map's cursor), so pages
 * swapped out together lie together; cma_swapin() is do_swap_page with
 * swapin_readahead: the 2^page-cluster slots around the faulting one in
 * one request (3.5), a window that adapts to the read-ahead pages used
 * (3.14, kernel.swapin_ra_adaptive); from 5.9 (kernel.anon_workingset)
 * a page reclaimed from the swap cache leaves a shadow in its slot and
 * reading it back is a refault. Each test runs under the releases on
 * both sides of the switch it covers.
 *
 * The owner is the test's own: a table of slots, each a page or the swap
 * entry its reclaim left (cma_page_swap_entry in the callback).
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "mm/mm_inline.h"

#define GFP_USER_PAGE	(CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN)

struct slot {
	struct cma_page *page;
	uint64_t entry;		/* the swap entry while swapped out; 0: none */
};

struct swap_owner {
	struct cma_mm *mm;
	struct slot *slots;
	uint64_t nr;
};

static int swap_reclaim(void *owner, uint64_t idx, struct cma_page *page)
{
	struct swap_owner *o = owner;
	struct slot *s = &o->slots[idx];

	if (s->page != page)
		return -EAGAIN;
	s->entry = cma_page_swap_entry(o->mm, page);
	assert_true(s->entry != 0);
	s->page = NULL;
	return 0;
}

static int swap_migrate(void *owner, uint64_t idx, struct cma_page *from, struct cma_page *to)
{
	struct swap_owner *o = owner;

	if (o->slots[idx].page != from)
		return -EAGAIN;
	o->slots[idx].page = to;
	return 0;
}

static const struct cma_owner_ops swap_anon_ops = {
	.migrate = swap_migrate, .reclaim = swap_reclaim, .anon = true,
};

static struct swap_owner *owner_new(struct cma_mm *mm, uint64_t nr)
{
	struct swap_owner *o = calloc(1, sizeof(*o));

	assert_non_null(o);
	o->slots = calloc(nr, sizeof(*o->slots));
	assert_non_null(o->slots);
	o->mm = mm;
	o->nr = nr;
	return o;
}

static void owner_free(struct swap_owner *o)
{
	for (uint64_t i = 0; i < o->nr; i++) {
		if (o->slots[i].page)
			cma_page_put(o->mm, o->slots[i].page);
		else if (o->slots[i].entry)
			assert_int_equal(cma_swap_free(o->mm, o->slots[i].entry, 1), 0);
	}
	free(o->slots);
	free(o);
}

/*
 * Fault slots [@first, @first + @n) in and swap them all out: on the
 * inactive list in slot order (@first at the tail), so that reclaim
 * takes them in order.
 */
static void swap_out_range(struct swap_owner *o, uint64_t first, uint64_t n)
{
	struct cma_mm *mm = o->mm;
	int passes = 0;

	for (uint64_t i = first; i < first + n; i++) {
		o->slots[i].page = cma_alloc_movable(mm, GFP_USER_PAGE, 0, &swap_anon_ops, o, i);
		assert_non_null(o->slots[i].page);
	}
	lru_add_drain_all(mm);
	for (uint64_t i = first; i < first + n; i++) {
		struct cma_page *page = o->slots[i].page;
		struct zone *zone = page_zone(mm, page);

		spin_lock(&zone->lru_lock);
		del_page_from_lru_list(zone, page, page_lru(page));
		page_flags_clear(page, PG_active);
		add_page_to_lru_list(zone, page, page_lru(page));
		spin_unlock(&zone->lru_lock);
	}
	for (uint64_t i = first; i < first + n; i++)
		while (o->slots[i].page) {
			assert_true(++passes < 100);
			cma_try_to_free_pages(mm, n, CMA_GFP_KERNEL);
		}
}

static void swap_out_all(struct swap_owner *o, uint64_t n)
{
	swap_out_range(o, 0, n);
}

/* do_swap_page on slot @idx: the page is the owner's again. */
static struct cma_page *swap_in(struct swap_owner *o, uint64_t idx, struct cma_swapin_stat *st)
{
	struct cma_page *page = NULL;

	assert_int_equal(cma_swapin(o->mm, o->slots[idx].entry, GFP_USER_PAGE, &swap_anon_ops, o, idx,
				    &page, st), 0);
	assert_non_null(page);
	assert_false(page_test(page, PG_swapcache));
	o->slots[idx].page = page;
	o->slots[idx].entry = 0;
	return page;
}

/* Swap of @swap_pages slots; v3.5's get_scan_count leaves anon pages alone once it is full. */
static struct cma_mm *machine(const char *kernel, uint64_t swap_pages)
{
	return test_mm(.size = 32 * MiB, .swap = swap_pages * 4096, .kernel = kernel);
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	return test_counter(mm, name);
}

/* ---- slots ---- */

/*
 * Expect: 16 pages reclaimed in LRU order take slots 0-15 of 20 in that
 * order (entries 1-16), pswpout 16; the slots are in use until the owner
 * frees the entries. With 1-8 freed, the next 8 swap-outs go on from the
 * cursor (17-20) and wrap round to the freed ones (1-4), as
 * scan_swap_map's cluster_next does.
 */
static void swap_slots_follow_reclaim_order(void **state)
{
	static const char *const kernels[] = { "3.5", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct cma_mm *mm = machine(*k, 20);
		struct swap_owner *o = owner_new(mm, 16);

		swap_out_all(o, 16);
		for (uint64_t i = 0; i < 16; i++)
			expect_kernel(*k, "entry of slot i", (long)i + 1, (long)o->slots[i].entry);
		expect_kernel(*k, "pswpout", 16, (long)counter(mm, "pswpout"));
		expect_kernel(*k, "an entry nobody holds", -EINVAL, cma_swap_free(mm, 17, 1));
		test_verify_kernel(mm, *k, "swapped out");
		for (uint64_t i = 0; i < 8; i++) {
			assert_int_equal(cma_swap_free(mm, o->slots[i].entry, 1), 0);
			o->slots[i].entry = 0;
		}
		expect_kernel(*k, "swap_used after 8 freed", 8 * 4096,
			      (long)__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED));
		expect_kernel(*k, "a freed entry again", -EINVAL, cma_swap_free(mm, 1, 1));
		swap_out_all(o, 8);
		for (uint64_t i = 0; i < 8; i++)
			expect_kernel(*k, "on from the cursor, then wrapped", i < 4 ? (long)i + 17 :
				      (long)i - 3, (long)o->slots[i].entry);
		test_verify_kernel(mm, *k, "slots reused");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/* ---- read-ahead ---- */

/*
 * Expect, 3.5-3.13: a fault on slot 5 reads the aligned 8 slots 0-7 in
 * one request (pswpin 8, swap_ra 7), the 7 others staying in the swap
 * cache on the inactive anon list; faulting slot 6 then reads nothing
 * (a read-ahead hit). With page-cluster 0 a fault reads its page only.
 * 3.14 on: the window adapts: the first fault, next to no earlier one,
 * reads 1 page; slot 6 next to it reads 2 (6-7); slot 7 is then a hit,
 * and the fault on slot 12 after that hit reads 4 (12-15). A fault that
 * read is a major one (pgmajfault), a hit is not.
 */
static void swapin_reads_the_page_cluster(void **state)
{
	static const char *const kernels[] = { "3.5", "3.13", "3.14", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct cma_mm *mm = machine(*k, 32);
		struct swap_owner *o = owner_new(mm, 16);
		bool adaptive = test_kernel_since(*k, 3, 14);
		struct cma_swapin_stat st;

		swap_out_all(o, 16);
		swap_in(o, 5, &st);
		expect_kernel(*k, "slot 5: pages read", adaptive ? 1 : 8, (long)st.nr_read);
		expect_kernel(*k, "slot 5: requests", 1, st.nr_io);
		expect_kernel(*k, "pswpin", adaptive ? 1 : 8, (long)counter(mm, "pswpin"));
		expect_kernel(*k, "swap_ra", adaptive ? 0 : 7, (long)counter(mm, "swap_ra"));
		expect_kernel(*k, "pgmajfault: slot 5 was read", 1, (long)counter(mm, "pgmajfault"));
		lru_add_drain_all(mm);
		expect_kernel(*k, "read-ahead pages on the inactive anon list", adaptive ? 1 : 8,
			      (long)counter(mm, "nr_inactive_anon"));
		/* the faulted page leaves the swap cache as it is mapped (swapin.c's departure) */
		expect_kernel(*k, "SwapCached kB: the read-ahead pages", adaptive ? 0 : 28,
			      (long)test_meminfo_kb(mm, "SwapCached"));
		swap_in(o, 6, &st);
		expect_kernel(*k, "slot 6: pages read", adaptive ? 2 : 0, (long)st.nr_read);
		expect_kernel(*k, "slot 6: a hit", !adaptive, st.ra_hit);
		expect_kernel(*k, "pgmajfault after slot 6", adaptive ? 2 : 1,
			      (long)counter(mm, "pgmajfault"));
		expect_kernel(*k, "SwapCached kB after slot 6", adaptive ? 4 : 24,
			      (long)test_meminfo_kb(mm, "SwapCached"));
		if (test_kernel_since(*k, 6, 0))
			expect_kernel(*k, "6.x's nr_swapcached after slot 6", 1,
				      (long)test_vmstat_line(mm, "nr_swapcached"));
		if (adaptive) {
			swap_in(o, 7, &st);
			expect_kernel(*k, "slot 7: a hit", 1, st.ra_hit);
			swap_in(o, 12, &st);
			expect_kernel(*k, "slot 12 after a hit: pages read", 4, (long)st.nr_read);
			expect_kernel(*k, "pgmajfault: slot 7 a hit, slot 12 read", 3,
				      (long)counter(mm, "pgmajfault"));
		}
		expect_kernel(*k, "swap_ra_hit", 1, (long)counter(mm, "swap_ra_hit"));
		test_verify_kernel(mm, *k, "read ahead");

		assert_int_equal(cma_set_page_cluster(mm, 0), 0);
		swap_in(o, 9, &st);
		expect_kernel(*k, "page-cluster 0: one page", 1, (long)st.nr_read);
		expect_kernel(*k, "page-cluster 9 refused", -EINVAL, cma_set_page_cluster(mm, 9));
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (3.5's fixed window): read-ahead reads only slots an owner
 * still holds; the slot freed in the window (3) splits the read into
 * two requests (0-2 and 4-7), 7 pages.
 */
static void swapin_readahead_skips_free_slots(void **state)
{
	struct cma_mm *mm = machine("3.5", 32);
	struct swap_owner *o = owner_new(mm, 16);
	struct cma_swapin_stat st;

	swap_out_all(o, 16);
	assert_int_equal(cma_swap_free(mm, o->slots[3].entry, 1), 0);
	o->slots[3].entry = 0;
	swap_in(o, 5, &st);
	assert_int_equal(st.nr_read, 7);
	assert_int_equal(st.nr_io, 2);
	test_verify_kernel(mm, "3.5", "read around a hole");
	owner_free(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: faults on slots 8, 9, 10 leave slot 11 read ahead and unused
 * in the swap cache (3.5 with page-cluster 2: one read of 8-11; 3.14
 * on: 8, then 9, then 10-11 as the window opens). The owner frees 11's
 * entry: the slot stays in use, 13 in all, until reclaim takes the
 * page. Reclaiming every anon page then writes only the 3 the owner
 * mapped (pswpout 3) and leaves 15 slots: the read-ahead page went
 * without a write, its slot with it.
 */
static void readahead_pages_reclaimed_without_writes(void **state)
{
	static const char *const kernels[] = { "3.5", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct cma_mm *mm = machine(*k, 32);
		struct swap_owner *o = owner_new(mm, 16);
		struct cma_swapin_stat st;
		uint64_t pswpout;
		int passes = 0;

		swap_out_all(o, 16);
		assert_int_equal(cma_set_page_cluster(mm, 2), 0);
		for (uint64_t i = 8; i <= 10; i++)
			swap_in(o, i, &st);
		assert_int_equal(cma_swap_free(mm, o->slots[11].entry, 1), 0);
		o->slots[11].entry = 0;
		expect_kernel(*k, "slots in use, 11's cached", 13 * 4096,
			      (long)__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED));
		lru_add_drain_all(mm);
		pswpout = counter(mm, "pswpout");
		while (counter(mm, "nr_inactive_anon") + counter(mm, "nr_active_anon")) {
			assert_true(++passes < 100);
			cma_try_to_free_pages(mm, 16, CMA_GFP_KERNEL);
		}
		expect_kernel(*k, "pages written", 3, (long)(counter(mm, "pswpout") - pswpout));
		expect_kernel(*k, "slots in use", 15 * 4096,
			      (long)__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED));
		test_verify_kernel(mm, *k, "read-ahead reclaimed");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/* ---- anon shadows ---- */

/*
 * Expect, 5.9 on: the slots of pages reclaimed from the swap cache keep
 * shadows; with page-cluster 0, reading back the page swapped out last
 * and alone (distance 0) is a refault activated at once, one of the 15
 * before it (at least one eviction and an activation later, beyond an
 * empty file LRU and one active anon page) a refault left inactive: workingset_refault_anon 2,
 * workingset_activate_anon 1, both in 6.12's /proc/vmstat. Before 5.9
 * both pages come back inactive and nothing is counted.
 */
static void anon_refault_activates_within_distance(void **state)
{
	static const char *const kernels[] = { "3.5", "5.8", "5.9", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct cma_mm *mm = machine(*k, 32);
		struct swap_owner *o = owner_new(mm, 16);
		bool shadows = test_kernel_since(*k, 5, 9);
		struct cma_swapin_stat st;
		struct cma_page *last, *first;

		swap_out_range(o, 0, 15);
		swap_out_range(o, 15, 1);
		assert_int_equal(cma_set_page_cluster(mm, 0), 0);
		last = swap_in(o, 15, &st);
		first = swap_in(o, 0, &st);
		lru_add_drain_all(mm);
		expect_kernel(*k, "last swapped out: active", shadows, page_test(last, PG_active));
		expect_kernel(*k, "first swapped out: inactive", 0, page_test(first, PG_active));
		expect_kernel(*k, "workingset_refault_anon", shadows ? 2 : 0,
			      (long)counter(mm, "workingset_refault_anon"));
		expect_kernel(*k, "workingset_activate_anon", shadows,
			      (long)counter(mm, "workingset_activate_anon"));
		expect_kernel(*k, "file refaults untouched", 0, (long)counter(mm, "workingset_refault"));
		if (test_kernel_since(*k, 6, 0)) {
			char *vmstat = test_proc_read(mm, "vmstat");

			expect_kernel(*k, "vmstat workingset_refault_anon", 1,
				      strstr(vmstat, "workingset_refault_anon 2\n") != NULL);
			expect_kernel(*k, "vmstat workingset_activate_anon", 1,
				      strstr(vmstat, "workingset_activate_anon 1\n") != NULL);
			free(vmstat);
		}
		test_verify_kernel(mm, *k, "anon refaults");
		owner_free(o);
		cma_mm_destroy(mm);
	}
}

/* Expect: an entry nobody holds, or owner ops that are not anonymous, are refused, reading nothing. */
static void swapin_refuses_bad_entries(void **state)
{
	static const struct cma_owner_ops file_ops = { .migrate = swap_migrate, .reclaim = swap_reclaim };
	struct cma_mm *mm = machine("6.12", 32);
	struct swap_owner *o = owner_new(mm, 4);
	struct cma_swapin_stat st;
	struct cma_page *page = NULL;

	swap_out_all(o, 4);
	assert_int_equal(cma_swapin(mm, 0, GFP_USER_PAGE, &swap_anon_ops, o, 0, &page, &st), -EINVAL);
	assert_int_equal(cma_swapin(mm, 5, GFP_USER_PAGE, &swap_anon_ops, o, 0, &page, &st), -EINVAL);
	assert_int_equal(cma_swapin(mm, o->slots[0].entry, GFP_USER_PAGE, &file_ops, o, 0, &page, &st),
			 -EINVAL);
	assert_null(page);
	assert_int_equal(counter(mm, "pswpin"), 0);
	owner_free(o);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(swap_slots_follow_reclaim_order),
		cmocka_unit_test(swapin_reads_the_page_cluster),
		cmocka_unit_test(swapin_readahead_skips_free_slots),
		cmocka_unit_test(readahead_pages_reclaimed_without_writes),
		cmocka_unit_test(anon_refault_activates_within_distance),
		cmocka_unit_test(swapin_refuses_bad_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
