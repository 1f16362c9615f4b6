// SPDX-License-Identifier: GPL-2.0
/*
 * What alloc_contig_range and compaction migrate, and which ranges
 * alloc_contig_pages tries, release by release (issue 27, items 2 and
 * 6): mlocked pages from 3.7 in a contiguous range (contig_unevictable)
 * and from 4.1 in compaction (compact_unevictable); in-use large folios
 * from 5.7 (contig_large_folio); a gigantic page's search passing ranges
 * in use before 5.13 (contig_try_in_use) and ranges holding hugetlb pages
 * from 6.3 (contig_skip_hugetlb); an owned hugetlb page migrated whole
 * from 5.13 (contig_hugetlb). Each test runs at the releases on both
 * sides of each boundary, the kernel in its failure messages.
 */
#include <stdio.h>
#include <string.h>

#include "helpers.h"

/* A machine with an 8 MiB CMA area at 32 MiB, pageblocks of 512 pages. */
static struct cma_mm *cma_machine(const char *kernel)
{
	return test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .kernel = kernel,
		       .cma_base = 32 * MiB, .cma_size = 8 * MiB);
}

static unsigned long cma_base_pfn(struct cma_mm *mm)
{
	return (32 * MiB) >> mm->page_shift;
}

/* A release and whether it has the change a test looks at, as the test's comment dates it. */
struct release {
	const char *kernel;
	bool has;
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* ---- one owner of one page of any order, whose bytes are checked after a move ---- */

struct one_owner {
	struct cma_mm *mm;
	struct cma_page *page[8];	/* by index: [0] alone, or each base page once split */
	unsigned order;			/* of page[0] until a split */
	unsigned nr_pages;		/* of the page faulted in */
	unsigned split;			/* split callbacks */
};

static int one_migrate(void *owner, uint64_t index, struct cma_page *from, struct cma_page *to)
{
	struct one_owner *o = owner;

	assert_ptr_equal(o->page[index], from);
	o->page[index] = to;
	return 0;
}

static int one_refuse(void *owner, uint64_t index, struct cma_page *page)
{
	return -EBUSY;
}

static int one_split(void *owner, uint64_t index, struct cma_page *page, unsigned order)
{
	struct one_owner *o = owner;

	assert_int_equal(index, 0);
	assert_ptr_equal(o->page[0], page);
	for (unsigned i = 0; i < 1u << order; i++)
		o->page[i] = cma_page_nth(o->mm, page, i);
	o->order = 0;
	o->split++;
	return 0;
}

static const struct cma_owner_ops one_ops = {
	.migrate = one_migrate, .reclaim = one_refuse, .writeback = one_refuse, .anon = true,
	.split = one_split,
};

static size_t one_bytes(const struct one_owner *o)
{
	return (size_t)o->mm->page_size << o->order;
}

/* The owner's page of @order at @pfn, filled with a pattern; on the LRU (drained). */
static void one_fault_at(struct one_owner *o, struct cma_mm *mm, unsigned long pfn, unsigned order)
{
	memset(o, 0, sizeof(*o));
	o->mm = mm;
	o->order = order;
	o->nr_pages = 1u << order;
	o->page[0] = cma_alloc_movable_at(mm, pfn, order, &one_ops, o, 0);
	assert_non_null(o->page[0]);
	memset(cma_page_address(mm, o->page[0]), 0x5a, one_bytes(o));
	lru_add_drain_all(mm);
}

/* Every page the owner holds (one, or each base page once split) kept its bytes; then freed. */
static void one_check_and_release(struct one_owner *o)
{
	unsigned nr = o->split ? o->nr_pages : 1;

	for (unsigned n = 0; n < nr; n++) {
		const unsigned char *p = cma_page_address(o->mm, o->page[n]);

		for (size_t i = 0; i < one_bytes(o); i++)
			if (p[i] != 0x5a)
				fail_msg("byte %zu of the owner's page %u lost in the move", i, n);
		cma_page_put(o->mm, o->page[n]);
	}
}

/* ---- item 2: unevictable pages ---- */

/*
 * Expect: cma_alloc_contig_range over a CMA range holding an mlocked page
 * fails with -EBUSY before 3.7, the page left where it was; from 3.7 it
 * succeeds, the page moved out with its bytes and still mlocked
 * (Mlocked: 1 page).
 */
static void contig_range_mlocked_page_by_release(void **state)
{
	static const struct release r[] = {
		{ "3.5", false }, { "3.6", false }, { "3.7", true }, { "4.0", true }, { "6.12", true },
	};

	for (size_t i = 0; i < NR(r); i++) {
		const char *kernel = r[i].kernel;
		struct cma_mm *mm = cma_machine(kernel);
		unsigned long base = cma_base_pfn(mm);
		bool moves = r[i].has;
		struct one_owner o;
		unsigned long pfn;
		int ret;

		one_fault_at(&o, mm, base + 100, 0);
		cma_page_set_mlocked(mm, o.page[0], true);
		ret = cma_alloc_contig_range(mm, base, base + 512, CMA_MIGRATE_CMA);
		expect_kernel(kernel, "alloc_contig_range over the mlocked page", moves ? 0 : -EBUSY, ret);
		pfn = cma_page_to_pfn(mm, o.page[0]);
		expect_kernel(kernel, "the page moved out of the range", moves,
			      pfn < base || pfn >= base + 512);
		expect_kernel(kernel, "pages mlocked after", 1, (long)global_page_state(mm, NR_MLOCK));
		expect_kernel(kernel, "the page still mlocked", 1, page_test(o.page[0], PG_mlocked));
		if (!ret)
			cma_free_contig_range(mm, base, 512);
		cma_page_set_mlocked(mm, o.page[0], false);
		one_check_and_release(&o);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: a compaction run's migrate scanner passes an mlocked page over
 * before 4.1 and isolates it from 4.1 on (compact_unevictable_allowed
 * at its default, 1), with the batch's other pages either way.
 */
static void compaction_isolates_mlocked_page_by_release(void **state)
{
	static const struct release r[] = {
		{ "3.5", false }, { "3.7", false }, { "4.0", false }, { "4.1", true }, { "6.12", true },
	};

	for (size_t i = 0; i < NR(r); i++) {
		const char *kernel = r[i].kernel;
		struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
		struct zone *z = &mm->zones[ZONE_NORMAL];
		unsigned long start = z->zone_start_pfn + 2048;
		struct one_owner o[8];
		struct compact_control cc = {
			.order = -1, .sync = true, .zone = z, .migratetype = MIGRATE_MOVABLE,
			.gfp_mask = CMA_GFP_KERNEL, .compacting = true,
		};

		for (int j = 0; j < 8; j++)
			one_fault_at(&o[j], mm, start + j, 0);
		cma_page_set_mlocked(mm, o[3].page[0], true);
		compact_control_init_lists(&cc);
		isolate_migratepages_range(z, &cc, start, start + 8);
		expect_kernel(kernel, "pages isolated", r[i].has ? 8 : 7,
			      (long)cc.nr_migratepages);
		putback_lru_pages(mm, &cc.migratepages);
		lru_add_drain_all(mm);
		cma_page_set_mlocked(mm, o[3].page[0], false);
		for (int j = 0; j < 8; j++)
			one_check_and_release(&o[j]);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/* ---- item 2: large folios ---- */

/*
 * Expect: an order-2 movable page in use inside the range makes
 * cma_alloc_contig_range -EBUSY before 5.7 (it is passed over as a
 * compound page); from 5.7 it is migrated whole, to a target of its
 * order outside the range, its bytes with it: pgmigrate_success counts
 * it as one page before 5.9 and as its 4 from 5.9 (migrate_count_pages).
 */
static void contig_range_large_folio_by_release(void **state)
{
	static const struct release r[] = {
		{ "3.5", false }, { "5.6", false }, { "5.7", true }, { "5.8", true }, { "5.9", true },
		{ "6.12", true },
	};

	for (size_t i = 0; i < NR(r); i++) {
		const char *kernel = r[i].kernel;
		struct cma_mm *mm = cma_machine(kernel);
		unsigned long base = cma_base_pfn(mm);
		bool moves = r[i].has;
		uint64_t before = test_counter(mm, "pgmigrate_success");
		struct one_owner o;
		unsigned long pfn;
		int ret;

		one_fault_at(&o, mm, base + 64, 2);
		ret = cma_alloc_contig_range(mm, base, base + 512, CMA_MIGRATE_CMA);
		expect_kernel(kernel, "alloc_contig_range over the order-2 page",
			      moves ? 0 : -EBUSY, ret);
		pfn = cma_page_to_pfn(mm, o.page[0]);
		expect_kernel(kernel, "the page moved out of the range", moves,
			      pfn < base || pfn >= base + 512);
		expect_kernel(kernel, "its order after", 2, page_order(o.page[0]));
		expect_kernel(kernel, "pages migrated",
			      moves ? (cma_kernel_has(kernel, "migrate_count_pages") ? 4 : 1) : 0,
			      (long)(test_counter(mm, "pgmigrate_success") - before));
		if (!ret)
			cma_free_contig_range(mm, base, 512);
		one_check_and_release(&o);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: when no order-2 target can be had (migration targets above
 * order 0 fail, by fault injection), the order-2 page in the range makes
 * cma_alloc_contig_range -EBUSY before 5.7 (passed over) and, from 5.7,
 * is split by its owner and its four base pages migrated one by one,
 * each out of the range with its bytes: the range is taken.
 */
static void contig_range_splits_large_folio_without_target(void **state)
{
	static const struct release r[] = {
		{ "5.6", false }, { "5.7", true }, { "5.19", true }, { "6.12", true },
	};

	for (size_t i = 0; i < NR(r); i++) {
		const char *kernel = r[i].kernel;
		struct cma_mm *mm = cma_machine(kernel);
		unsigned long base = cma_base_pfn(mm);
		struct one_owner o;
		int ret;

		one_fault_at(&o, mm, base + 64, 2);
		cma_fault_inject(mm, &(struct cma_fault_attr){ .probability = 100, .min_order = 1,
							       .only_migration = true });
		ret = cma_alloc_contig_range(mm, base, base + 512, CMA_MIGRATE_CMA);
		cma_fault_inject(mm, NULL);
		expect_kernel(kernel, "alloc_contig_range over the order-2 page",
			      r[i].has ? 0 : -EBUSY, ret);
		expect_kernel(kernel, "splits", r[i].has, o.split);
		for (unsigned n = 0; o.split && n < 4; n++) {
			unsigned long pfn = cma_page_to_pfn(mm, o.page[n]);

			expect_kernel(kernel, "a base page moved out of the range", 1,
				      pfn < base || pfn >= base + 512);
		}
		if (!ret)
			cma_free_contig_range(mm, base, 512);
		one_check_and_release(&o);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: with an order-3 page (first in the batch: the higher pfn) and
 * an order-2 page in the range, and no target of order 3 to be had
 * (fault injection), only the order-3 page is split, as 6.12's
 * migrate_pages_batch splits only the folio that found no target: its 8
 * base pages and the order-2 page, whole, all move out and the range is
 * taken. pgmigrate_success: 8 + 1 before 5.9, 8 + 4 from 5.9.
 */
static void contig_range_splits_only_the_folio_without_target(void **state)
{
	static const char *const releases[] = { "5.7", "5.8", "5.9", "6.2", "6.3", "6.12" };

	for (size_t i = 0; i < NR(releases); i++) {
		const char *kernel = releases[i];
		struct cma_mm *mm = cma_machine(kernel);
		unsigned long base = cma_base_pfn(mm);
		uint64_t before = test_counter(mm, "pgmigrate_success");
		struct one_owner o2, o3;
		int ret;

		one_fault_at(&o2, mm, base + 64, 2);
		one_fault_at(&o3, mm, base + 128, 3);
		cma_fault_inject(mm, &(struct cma_fault_attr){ .probability = 100, .min_order = 3,
							       .only_migration = true });
		ret = cma_alloc_contig_range(mm, base, base + 512, CMA_MIGRATE_CMA);
		cma_fault_inject(mm, NULL);
		expect_kernel(kernel, "alloc_contig_range over the two pages", 0, ret);
		expect_kernel(kernel, "order-3 page split", 1, o3.split);
		expect_kernel(kernel, "order-2 page split", 0, o2.split);
		expect_kernel(kernel, "order-2 page's order after", 2, page_order(o2.page[0]));
		expect_kernel(kernel, "order-2 page out of the range", 1,
			      cma_page_to_pfn(mm, o2.page[0]) >= base + 512);
		for (unsigned n = 0; n < 8; n++)
			expect_kernel(kernel, "a base page of the order-3 page out of the range", 1,
				      cma_page_to_pfn(mm, o3.page[n]) >= base + 512);
		expect_kernel(kernel, "pages migrated",
			      8 + (cma_kernel_has(kernel, "migrate_count_pages") ? 4 : 1),
			      (long)(test_counter(mm, "pgmigrate_success") - before));
		cma_free_contig_range(mm, base, 512);
		one_check_and_release(&o2);
		one_check_and_release(&o3);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: when no target at all can be had, an order-0 page first in
 * the batch ends the migration with -ENOMEM and the order-2 page behind
 * it is not split (6.12 splits a folio only for its own -ENOMEM): both
 * stay where they were, the order-2 page whole.
 */
static void contig_range_order0_enomem_splits_nothing(void **state)
{
	static const char *const releases[] = { "5.7", "6.2", "6.3", "6.12" };

	for (size_t i = 0; i < NR(releases); i++) {
		const char *kernel = releases[i];
		struct cma_mm *mm = cma_machine(kernel);
		unsigned long base = cma_base_pfn(mm);
		struct one_owner o0, o2;
		int ret;

		one_fault_at(&o2, mm, base + 64, 2);
		one_fault_at(&o0, mm, base + 128, 0);
		cma_fault_inject(mm, &(struct cma_fault_attr){ .probability = 100,
							       .only_migration = true });
		ret = cma_alloc_contig_range(mm, base, base + 512, CMA_MIGRATE_CMA);
		cma_fault_inject(mm, NULL);
		expect_kernel(kernel, "alloc_contig_range without targets", -ENOMEM, ret);
		expect_kernel(kernel, "order-2 page split", 0, o2.split);
		expect_kernel(kernel, "order-2 page where it was", base + 64,
			      cma_page_to_pfn(mm, o2.page[0]));
		expect_kernel(kernel, "order-2 page's order after", 2, page_order(o2.page[0]));
		expect_kernel(kernel, "order-0 page where it was", base + 128,
			      cma_page_to_pfn(mm, o0.page[0]));
		one_check_and_release(&o0);
		one_check_and_release(&o2);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/* ---- item 6: gigantic pages and the hugetlb pool ---- */

#define GIGANTIC_PAGES	1024	/* a 4 MiB "gigantic" page: past the buddy allocator's orders */

/*
 * Expect: each gigantic page of a pool of four comes from the lowest
 * free range; before 5.13 the search passes every range in use without
 * trying it, from 5.13 to 6.2 it tries each range the pool already holds
 * (isolating it and emptying the pagevecs for nothing: one
 * lru_add_drain_all per range tried, since isolate_or_dissolve_huge_page's
 * -ENOMEM ends it before any later drain), and from 6.3 it passes the
 * pool's ranges again. The
 * pages are marked hugetlb while held and not after.
 */
static void gigantic_pages_skip_the_pool_by_release(void **state)
{
	/* has: the pool's ranges are tried (5.13 to 6.2) */
	static const struct release r[] = {
		{ "5.12", false }, { "5.13", true }, { "6.2", true }, { "6.3", false }, { "6.12", false },
	};

	for (size_t i = 0; i < NR(r); i++) {
		const char *kernel = r[i].kernel;
		struct cma_mm *mm = test_mm(.size = 128 * MiB, .pageblock_order = 9, .kernel = kernel);
		bool tries = r[i].has;
		struct cma_page *pool[4];
		uint64_t per_range = 0;
		char what[64];

		for (int n = 0; n < 4; n++) {
			uint64_t drains = test_counter(mm, "lru_add_drain_all");

			pool[n] = cma_alloc_gigantic_page(mm, GIGANTIC_PAGES, CMA_GFP_HIGHUSER);
			assert_non_null(pool[n]);
			assert_true(page_test(pool[n], PG_hugetlb));
			assert_true(page_test(pool[n] + GIGANTIC_PAGES - 1, PG_hugetlb));
			drains = test_counter(mm, "lru_add_drain_all") - drains;
			/* the first page's one range: the drains a range taken costs */
			if (!n)
				per_range = drains;
			assert_true(per_range > 0);
			snprintf(what, sizeof(what), "drains for page %d", n + 1);
			expect_kernel(kernel, what, (long)per_range + (tries ? n : 0), (long)drains);
		}
		for (int n = 0; n < 4; n++) {
			unsigned long pfn = cma_page_to_pfn(mm, pool[n]);

			cma_free_contig_range(mm, pfn, GIGANTIC_PAGES);
			for (unsigned long p = pfn; p < pfn + GIGANTIC_PAGES; p++)
				if (page_test(cma_pfn_to_page(mm, p), PG_hugetlb))
					fail_msg("kernel %s: pfn %#lx freed still hugetlb", kernel, p);
		}
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/* ---- 5.13: a hugetlb page in use in the range (contig_hugetlb) ---- */

/*
 * A pool page of order 10 (MAX_ORDER - 1: the whole of the block v3.5's
 * alloc_contig_range isolates around it) mapped by @o, filled with the
 * pattern.
 */
static void one_huge_page(struct one_owner *o, struct cma_mm *mm)
{
	memset(o, 0, sizeof(*o));
	o->mm = mm;
	o->order = 10;
	o->page[0] = cma_alloc_huge_page(mm, o->order, NULL);
	assert_non_null(o->page[0]);
	memset(cma_page_address(mm, o->page[0]), 0x5a, one_bytes(o));
	assert_int_equal(cma_huge_page_set_owner(mm, o->page[0], &one_ops, o, 0), 0);
}

/*
 * Expect: cma_alloc_contig_range over a 4 MiB hugetlb page in use
 * (owned) is -EBUSY before 5.13, the page left where it was;
 * from 5.13 the page is migrated whole (one folio) to a hugetlb page of
 * its order outside the range, its bytes with it, and the range taken.
 * pgmigrate_success counts it as one page until 5.16 and as its 1024
 * from 5.17 (migrate_count_hugetlb). cma_mm_verify holds with the page
 * owned, and after.
 */
static void contig_range_owned_hugetlb_page_by_release(void **state)
{
	static const struct release r[] = {
		{ "3.5", false }, { "5.12", false }, { "5.13", true }, { "5.16", true },
		{ "5.17", true }, { "6.12", true },
	};

	for (size_t i = 0; i < NR(r); i++) {
		const char *kernel = r[i].kernel;
		struct cma_mm *mm = cma_machine(kernel);
		uint64_t before = test_counter(mm, "pgmigrate_success");
		bool moves = r[i].has;
		unsigned long start, pfn;
		struct one_owner o;
		int mt, ret;

		one_huge_page(&o, mm);
		assert_verify(mm);
		start = cma_page_to_pfn(mm, o.page[0]);
		mt = cma_pageblock_migratetype(mm, start);
		ret = cma_alloc_contig_range(mm, start, start + 1024, mt);
		expect_kernel(kernel, "alloc_contig_range over the hugetlb page", moves ? 0 : -EBUSY,
			      ret);
		pfn = cma_page_to_pfn(mm, o.page[0]);
		expect_kernel(kernel, "the page moved out of the range", moves,
			      pfn < start || pfn >= start + 1024);
		expect_kernel(kernel, "its order after", 10, page_order(o.page[0]));
		expect_kernel(kernel, "still a hugetlb page", 1, page_test(o.page[0], PG_hugetlb));
		expect_kernel(kernel, "pages migrated",
			      moves ? (cma_kernel_has(kernel, "migrate_count_hugetlb") ? 1024 : 1) : 0,
			      (long)(test_counter(mm, "pgmigrate_success") - before));
		assert_verify(mm);
		if (!ret)
			cma_free_contig_range(mm, start, 1024);
		one_check_and_release(&o);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: when no target of its order can be had (migration targets
 * above order 0 fail, by fault injection), an owned hugetlb page is not
 * split: the range is -ENOMEM, the page where it was, owned and whole,
 * its bytes intact, and put back on no LRU list (cma_mm_verify).
 */
static void contig_range_hugetlb_page_without_target(void **state)
{
	static const char *const releases[] = { "5.13", "6.12" };

	for (size_t i = 0; i < NR(releases); i++) {
		const char *kernel = releases[i];
		struct cma_mm *mm = cma_machine(kernel);
		unsigned long start;
		struct one_owner o;
		int ret;

		one_huge_page(&o, mm);
		start = cma_page_to_pfn(mm, o.page[0]);
		cma_fault_inject(mm, &(struct cma_fault_attr){ .probability = 100, .min_order = 1,
							       .only_migration = true });
		ret = cma_alloc_contig_range(mm, start, start + 1024,
					     cma_pageblock_migratetype(mm, start));
		cma_fault_inject(mm, NULL);
		expect_kernel(kernel, "alloc_contig_range without a target", -ENOMEM, ret);
		expect_kernel(kernel, "the page where it was", start, cma_page_to_pfn(mm, o.page[0]));
		expect_kernel(kernel, "split callbacks", 0, o.split);
		expect_kernel(kernel, "still owned", 1, page_test(o.page[0], PG_movable));
		lru_add_drain_all(mm);		/* a page put back in a pagevec would reach the LRU */
		assert_verify(mm);
		one_check_and_release(&o);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: cma_huge_page_set_owner refuses (-EINVAL, nothing changed) a
 * page that is not a huge page of cma_alloc_huge_page, and one owned
 * already; an owned one is not mlocked (NR_MLOCK 0) nor written back.
 */
static void huge_page_set_owner_refuses(void **state)
{
	struct cma_mm *mm = cma_machine("6.12");
	struct cma_page *plain = cma_alloc_pages(mm, CMA_GFP_KERNEL, 9);
	struct one_owner o;

	assert_non_null(plain);
	assert_int_equal(cma_huge_page_set_owner(mm, plain, &one_ops, &o, 0), -EINVAL);
	assert_false(page_test(plain, PG_movable));
	cma_free_pages(mm, plain, 9);
	one_huge_page(&o, mm);
	assert_int_equal(cma_huge_page_set_owner(mm, o.page[0], &one_ops, &o, 1), -EINVAL);
	assert_int_equal(o.page[0]->private, 0);
	/* an owned hugetlb page is neither mlocked nor written back */
	cma_page_set_mlocked(mm, o.page[0], true);
	assert_int_equal(global_page_state(mm, NR_MLOCK), 0);
	assert_false(cma_page_start_writeback(mm, o.page[0]));
	one_check_and_release(&o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(contig_range_mlocked_page_by_release),
		cmocka_unit_test(compaction_isolates_mlocked_page_by_release),
		cmocka_unit_test(contig_range_large_folio_by_release),
		cmocka_unit_test(contig_range_splits_large_folio_without_target),
		cmocka_unit_test(contig_range_splits_only_the_folio_without_target),
		cmocka_unit_test(contig_range_order0_enomem_splits_nothing),
		cmocka_unit_test(gigantic_pages_skip_the_pool_by_release),
		cmocka_unit_test(contig_range_owned_hugetlb_page_by_release),
		cmocka_unit_test(contig_range_hugetlb_page_without_target),
		cmocka_unit_test(huge_page_set_owner_refuses),
	};

	return cmocka_run_group_tests_name("migrate_profiles", tests, NULL, NULL);
}
