// SPDX-License-Identifier: GPL-2.0
/*
 * Long-term pins (mm/gup.c, cma_page_pin_longterm) under both kernel
 * profiles: 3.5 pins a CMA page where it is, and the area stays busy
 * until the pin goes; 6.12 moves the page out of CMA first, so that
 * contiguous allocations over the area still succeed. And 6.12's
 * compaction, which leaves a pinned anonymous page unisolated instead
 * of failing to migrate it.
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

/* 64 MiB at 0 (DMA below 16 MiB), a 16 MiB default area, pageblock order 9. */
static struct cma_mm *pin_machine(const char *kernel)
{
	struct cma_mm_config cfg = {
		.banks = &(struct cma_bank){ .base = 0, .size = 64 * MiB },
		.nr_banks = 1,
		.pageblock_order = 9,
		.zone_dma_end = 16 * MiB,
		.cmdline = "cma=16M",
		.kernel = kernel,
	};

	return test_boot(&cfg);
}

static bool in_area(struct cma_mm *mm, struct cma_page *page)
{
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	unsigned long pfn = cma_page_to_pfn(mm, page);

	return pfn >= cma_area_base_pfn(cma) && pfn < cma_area_base_pfn(cma) + cma_area_count(cma);
}

/*
 * An owner (@anon or file) whose only pages are @nr in the default CMA
 * area: it faults pages until that many land there (movable requests
 * reach CMA once the movable blocks are full), then lets go of the rest.
 */
static struct fake_owner *owner_in_cma(struct cma_mm *mm, bool anon, unsigned nr)
{
	struct fake_owner *o = owner_create(mm, anon, 16384);
	unsigned got = 0;

	for (uint64_t i = 0; i < o->nr_slots && got < nr; i++) {
		struct cma_page *p = owner_fault(o, i, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, i);

		assert_non_null(p);
		got += in_area(mm, p);
	}
	assert_int_equal(got, nr);
	for (uint64_t i = 0; i < o->nr_slots; i++)
		if (o->slots[i].page && !in_area(mm, o->slots[i].page))
			owner_release(o, i);
	lru_add_drain_all(mm);
	return o;
}

static uint64_t first_slot(struct fake_owner *o)
{
	for (uint64_t i = 0; i < o->nr_slots; i++)
		if (o->slots[i].page)
			return i;
	fail();
	return 0;
}

static const char *const kernels[] = { "3.5", "6.12" };

/*
 * Expect: under 3.5 the pin is get_page(): the page stays in the area,
 * and a contiguous allocation of the whole area fails while it is held;
 * under 6.12 (check_and_migrate_movable_pages) the owner's page moves
 * out of CMA, data intact, the pin holds the new page, and the whole
 * area can be allocated. Both release the pin with cma_page_put.
 */
static void pin_longterm_cma_page_then_cma_alloc(const char *kernel, unsigned k)
{
	bool v6 = k == 1;
	struct cma_mm *mm = pin_machine(kernel);
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	struct fake_owner *o = owner_in_cma(mm, false, 4);
	uint64_t idx = first_slot(o);
	struct cma_page *page = o->slots[idx].page, *pinned, *area;
	int count = page_count(page);

	pinned = cma_page_pin_longterm(mm, page);
	assert_non_null(pinned);
	assert_ptr_equal(o->slots[idx].page, pinned);
	assert_int_equal(pinned == page, !v6);
	assert_int_equal(in_area(mm, pinned), !v6);
	if (!v6)
		assert_int_equal(page_count(pinned), count + 1);
	assert_true(owner_check(o) >= 0);
	assert_verify(mm);

	area = cma_dma_alloc_from_contiguous(mm, NULL, (int)cma_area_count(cma), 0);
	if (v6)
		assert_non_null(area);
	else
		assert_null(area);
	assert_verify(mm);
	if (area)
		assert_true(cma_dma_release_from_contiguous(mm, NULL, area, (int)cma_area_count(cma)));
	cma_page_put(mm, pinned);
	assert_true(owner_check(o) >= 0);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* The migration events' lines, in order, one a line (cma_trace_fn). */
static void migrate_events(void *ctx, const char *event, const char *line)
{
	char *buf = ctx;
	size_t len = strlen(buf);

	snprintf(buf + len, 512 - len, "%s\n", line);
}

/*
 * Expect: the migration out of CMA that a 6.12 long-term pin makes is
 * traced with the reason MR_LONGTERM_PIN, "longterm_pin" (as the
 * kernel's check_and_migrate_movable_pages passes to migrate_pages),
 * not compaction's.
 */
static void pin_longterm_migration_reason(void **state)
{
	struct cma_mm *mm = pin_machine("6.12");
	struct fake_owner *o = owner_in_cma(mm, false, 1);
	uint64_t idx = first_slot(o);
	char buf[512] = "";
	struct cma_page *pinned;

	assert_int_equal(cma_mm_set_trace_events(mm, "mm_migrate_pages_start mm_migrate_pages"), 0);
	cma_mm_set_trace(mm, migrate_events, buf);
	pinned = cma_page_pin_longterm(mm, o->slots[idx].page);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_non_null(pinned);
	assert_string_equal(buf, "mm_migrate_pages_start: mode=MIGRATE_SYNC reason=longterm_pin\n"
				 "mm_migrate_pages: nr_succeeded=1 nr_failed=0 nr_thp_succeeded=0 nr_thp_failed=0 "
				 "nr_thp_split=0 nr_split=0 mode=MIGRATE_SYNC reason=longterm_pin\n");
	cma_page_put(mm, pinned);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* Expect: a page outside CMA is pinned where it is under 6.12 too. */
static void pin_longterm_page_outside_cma_stays(void **state)
{
	struct cma_mm *mm = pin_machine("6.12");
	struct fake_owner *o = owner_create(mm, true, 1);
	struct cma_page *page = owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 7);
	int count;

	assert_non_null(page);
	assert_false(in_area(mm, page));
	count = page_count(page);
	assert_ptr_equal(cma_page_pin_longterm(mm, page), page);
	assert_int_equal(page_count(page), count + 1);
	cma_page_put(mm, page);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: under 6.12, when no target can be allocated the pin fails with
 * ENOMEM (migrate_longterm_unpinnable_folios' answer), nothing pinned,
 * the page still the owner's, in the area, on the LRU.
 */
static void pin_longterm_no_target_is_enomem(void **state)
{
	struct cma_mm *mm = pin_machine("6.12");
	struct fake_owner *o = owner_in_cma(mm, true, 1);
	uint64_t idx = first_slot(o);
	struct cma_page *page = o->slots[idx].page;
	int count = page_count(page);

	cma_fault_inject(mm, &(struct cma_fault_attr){ .probability = 100, .times = ~0ul,
						      .interval = 1, .only_migration = true });
	errno = 0;
	assert_null(cma_page_pin_longterm(mm, page));
	assert_int_equal(errno, ENOMEM);
	cma_fault_inject(mm, &(struct cma_fault_attr){ 0 });
	lru_add_drain_all(mm);
	assert_ptr_equal(o->slots[idx].page, page);
	assert_true(in_area(mm, page));
	assert_int_equal(page_count(page), count);
	assert_true(page_test(page, PG_lru));
	assert_true(owner_check(o) >= 0);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: under 6.12, a CMA page that already has a short-term pin (an
 * O_DIRECT reference) cannot be moved: migration finds a reference past
 * the owner's and the isolation's (folio_expected_ref_count), answers
 * -EAGAIN each of its passes and gives up; the long-term pin fails with
 * ENOMEM, the page stays in the area, and a contiguous allocation of
 * the whole area then fails on it.
 */
static void pin_longterm_page_with_another_pin_is_enomem(void **state)
{
	struct cma_mm *mm = pin_machine("6.12");
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	struct fake_owner *o = owner_in_cma(mm, false, 1);
	uint64_t idx = first_slot(o), fail_before, fail_after;
	struct cma_page *page = o->slots[idx].page;

	cma_page_get(mm, page);
	assert_int_equal(cma_mm_counter(mm, "pgmigrate_fail", &fail_before), 0);
	errno = 0;
	assert_null(cma_page_pin_longterm(mm, page));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(cma_mm_counter(mm, "pgmigrate_fail", &fail_after), 0);
	assert_true(fail_after > fail_before);
	lru_add_drain_all(mm);
	assert_ptr_equal(o->slots[idx].page, page);
	assert_true(in_area(mm, page));
	assert_int_equal(page_count(page), 2);
	assert_verify(mm);
	assert_null(cma_dma_alloc_from_contiguous(mm, NULL, (int)cma_area_count(cma), 0));
	assert_verify(mm);
	cma_page_put(mm, page);
	assert_true(owner_check(o) >= 0);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: a CMA page that is no owner's (a driver's buffer) cannot be
 * moved: under 6.12 EBUSY and no reference taken; 3.5 pins it as is.
 */
static void pin_longterm_unowned_cma_page(const char *kernel, unsigned k)
{
	struct cma_mm *mm = pin_machine(kernel);
	struct cma_page *buf = cma_dma_alloc_from_contiguous(mm, NULL, 1, 0);
	struct cma_page *pinned;

	assert_non_null(buf);
	errno = 0;
	pinned = cma_page_pin_longterm(mm, buf);
	if (k == 1) {
		assert_null(pinned);
		assert_int_equal(errno, EBUSY);
		assert_int_equal(page_count(buf), 1);
	} else {
		assert_ptr_equal(pinned, buf);
		assert_int_equal(page_count(buf), 2);
		cma_page_put(mm, buf);
	}
	assert_true(cma_dma_release_from_contiguous(mm, NULL, buf, 1));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: an anonymous page pinned by a plain reference (O_DIRECT, not
 * long-term) in a range makes cma_alloc_contig_range -EBUSY under both
 * kernels; 3.5 isolates it and fails to migrate it (pgmigrate_fail
 * counts the attempts), 6.12's isolate_migratepages_block leaves it
 * alone ("mm/compaction: avoid isolating pinned pages"): no attempt.
 */
static void alloc_contig_range_pinned_anon_page(const char *kernel, unsigned k)
{
	struct cma_mm *mm = pin_machine(kernel);
	struct fake_owner *o = owner_in_cma(mm, true, 1);
	struct cma_page *page = o->slots[first_slot(o)].page;
	unsigned long pfn = cma_page_to_pfn(mm, page);
	unsigned long start = pfn & ~(mm->pageblock_nr_pages - 1);
	uint64_t fail_before, fail_after;

	cma_page_get(mm, page);
	assert_int_equal(cma_mm_counter(mm, "pgmigrate_fail", &fail_before), 0);
	assert_int_equal(cma_alloc_contig_range(mm, start, start + mm->pageblock_nr_pages,
						CMA_MIGRATE_CMA), -EBUSY);
	assert_int_equal(cma_mm_counter(mm, "pgmigrate_fail", &fail_after), 0);
	if (k == 1)
		assert_int_equal(fail_after, fail_before);
	else
		assert_true(fail_after > fail_before);
	assert_int_equal(cma_pageblock_migratetype(mm, pfn), CMA_MIGRATE_CMA);
	cma_page_put(mm, page);
	assert_true(owner_check(o) >= 0);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * The long-term pin's retry (5.13's "mm/gup: check for isolation
 * errors", under longterm_migrate) and what it isolates: 3.5 and 5.12
 * pin the page where it is; 5.13 and 6.12 move it out of CMA first.
 */
static const char *const pin_move_kernels[] = { "3.5", "5.12", "5.13", "6.12" };

/* Expect (pin_move_kernels): @pinned is @page, in the area, under 3.5 and 5.12; a page outside CMA, the owner's, from 5.13. */
static void assert_pin_moved(struct cma_mm *mm, unsigned k, struct cma_page *page,
			     struct cma_page *pinned, struct cma_page *owners)
{
	bool moved = k >= 2;

	if (!pinned)
		fail_msg("kernel %s: the pin failed with errno %d", mm->kernel.name, errno);
	if ((pinned != page) != moved || in_area(mm, pinned) == moved || owners != pinned)
		fail_msg("kernel %s: expected the page %s, found it %s (in the area: %d, the owner's: %d)",
			 mm->kernel.name, moved ? "moved" : "pinned where it is",
			 pinned != page ? "moved" : "where it was", in_area(mm, pinned), owners == pinned);
}

/*
 * Expect: an mlocked page in the area is migrated by the pin from 5.13
 * (folio_isolate_lru takes the unevictable list too), still mlocked.
 */
static void pin_longterm_mlocked_page(const char *kernel, unsigned k)
{
	struct cma_mm *mm = pin_machine(kernel);
	struct fake_owner *o = owner_in_cma(mm, true, 1);
	uint64_t idx = first_slot(o);
	struct cma_page *page = o->slots[idx].page, *pinned;

	cma_page_get(mm, page);
	cma_page_set_mlocked(mm, page, true);
	cma_page_put(mm, page);
	errno = 0;
	pinned = cma_page_pin_longterm(mm, page);
	assert_pin_moved(mm, k, page, pinned, o->slots[idx].page);
	assert_true(page_test(pinned, PG_mlocked));
	assert_true(owner_check(o) >= 0);
	cma_page_put(mm, pinned);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

struct putback_later {
	struct cma_mm *mm;
	struct cma_page *page;
};

/* Another migration's end: the page it held isolated goes back to its list, 50 ms on. */
static void *putback_later(void *arg)
{
	struct putback_later *p = arg;

	nanosleep(&(struct timespec){ .tv_nsec = 50 * 1000 * 1000 }, NULL);
	putback_lru_page(p->mm, p->page);
	return NULL;
}

/*
 * Expect: a page in the area that another migration holds isolated when
 * the pin comes is pinned once it is back on its list, moved out of CMA
 * from 5.13 (the kernel unpins, -EAGAIN, and pins again); before 5.13
 * it is pinned where it is at once.
 */
static void pin_longterm_page_isolated_meanwhile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = pin_machine(kernel);
	struct fake_owner *o = owner_in_cma(mm, false, 1);
	uint64_t idx = first_slot(o);
	struct putback_later p = { mm, o->slots[idx].page };
	struct cma_page *pinned;
	pthread_t thread;

	assert_int_equal(__isolate_lru_page(mm, p.page, 0), 0);
	assert_int_equal(pthread_create(&thread, NULL, putback_later, &p), 0);
	errno = 0;
	pinned = cma_page_pin_longterm(mm, p.page);
	test_join_or_fail(mm, thread, "putback_later", 10);
	assert_pin_moved(mm, k, p.page, pinned, o->slots[idx].page);
	assert_true(owner_check(o) >= 0);
	cma_page_put(mm, pinned);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static int follow(void *owner, uint64_t index, struct cma_page *from, struct cma_page *to)
{
	*(struct cma_page **)owner = to;
	return 0;
}

static int refuse(void *owner, uint64_t index, struct cma_page *page)
{
	return -EBUSY;
}

/* A hugetlb page's owner: a pointer to it, which migration moves. */
static const struct cma_owner_ops huge_owner_ops = {
	.migrate = follow, .reclaim = refuse, .writeback = refuse, .anon = true,
};

/* A mapped hugetlb page of order 9 in the default area, the pool's others freed. */
static struct cma_page *huge_page_in_cma(struct cma_mm *mm, struct cma_page **slot)
{
	struct cma_page *outside[32];
	unsigned n = 0;

	for (*slot = NULL; !*slot && n < 32;) {
		struct cma_page *p = cma_alloc_huge_page(mm, 9, NULL);

		assert_non_null(p);
		if (in_area(mm, p))
			*slot = p;
		else
			outside[n++] = p;
	}
	assert_non_null(*slot);
	while (n)
		cma_free_pages(mm, outside[--n], 9);
	assert_int_equal(cma_huge_page_set_owner(mm, *slot, &huge_owner_ops, slot, 0), 0);
	return *slot;
}

/* Expect: a hugetlb page in the area is migrated whole by the pin from 5.13, to a hugetlb page. */
static void pin_longterm_hugetlb_page(const char *kernel, unsigned k)
{
	struct cma_mm *mm = pin_machine(kernel);
	struct cma_page *slot, *page = huge_page_in_cma(mm, &slot), *pinned;

	errno = 0;
	pinned = cma_page_pin_longterm(mm, page);
	assert_pin_moved(mm, k, page, pinned, slot);
	assert_true(page_test(pinned, PG_hugetlb));
	assert_int_equal(page_order(pinned), 9);
	cma_page_put(mm, pinned);	/* the pin */
	cma_page_put(mm, pinned);	/* the owner's reference: the page is freed */
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pin_longterm_migration_reason),
		cmocka_unit_test(pin_longterm_page_outside_cma_stays),
		cmocka_unit_test(pin_longterm_no_target_is_enomem),
		cmocka_unit_test(pin_longterm_page_with_another_pin_is_enomem),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(pin_longterm_cma_page_then_cma_alloc, kernels),
		test_kernel_case(pin_longterm_unowned_cma_page, kernels),
		test_kernel_case(alloc_contig_range_pinned_anon_page, kernels),
		test_kernel_case(pin_longterm_mlocked_page, pin_move_kernels),
		test_kernel_case(pin_longterm_page_isolated_meanwhile, pin_move_kernels),
		test_kernel_case(pin_longterm_hugetlb_page, pin_move_kernels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) +
	       test_run_kernel_cases("gup (per kernel)", kernel_cases);
}
