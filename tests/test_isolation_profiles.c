// SPDX-License-Identifier: GPL-2.0
/*
 * Which pageblocks isolation accepts, release by release (issue 27,
 * item 1): v3.5's __count_immobile_pages takes MOVABLE and CMA blocks
 * without a look; 4.15 scans them (isolate_scan_movable); 5.1 refuses a
 * CMA block unless MIGRATE_CMA is asked for (isolate_cma_refuse). Each
 * test runs at the releases on both sides of each boundary, the kernel
 * in its failure messages.
 */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

/* A machine with an 8 MiB CMA area at 32 MiB, pageblocks of 512 pages. */
static struct cma_mm *cma_machine(const char *kernel)
{
	return test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .kernel = kernel,
		       .cma_base = 32 * MiB, .cma_size = 8 * MiB);
}

static const char *const isolate_cma_kernels[] = { "3.5", "4.14", "4.15", "5.0", "5.1", "6.12" };

/*
 * Expect: isolating a CMA pageblock for a MIGRATE_MOVABLE range works up
 * to 5.0 (its free pages scanned from 4.15) and is refused from 5.1,
 * the block left CMA; for MIGRATE_CMA it works under every release.
 */
static void isolate_cma_block_for_movable_by_release(const char *kernel, unsigned i)
{
	struct cma_mm *mm = cma_machine(kernel);
	unsigned long base = (32 * MiB) >> mm->page_shift;
	bool refuse = cma_kernel_has(kernel, "isolate_cma_refuse") == 1;
	int ret = cma_start_isolate_page_range(mm, base, base + 512, CMA_MIGRATE_MOVABLE);

	expect_kernel(kernel, "isolating a CMA block for MOVABLE", refuse ? -EBUSY : 0, ret);
	if (!ret)
		assert_int_equal(cma_undo_isolate_page_range(mm, base, base + 512, CMA_MIGRATE_CMA), 0);
	expect_kernel(kernel, "the block's type after", CMA_MIGRATE_CMA,
		      cma_pageblock_migratetype(mm, base));
	expect_kernel(kernel, "isolating it for CMA", 0,
		      cma_start_isolate_page_range(mm, base, base + 512, CMA_MIGRATE_CMA));
	assert_int_equal(cma_undo_isolate_page_range(mm, base, base + 512, CMA_MIGRATE_CMA), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * A MOVABLE pageblock holding an owner's pages and one page in use off
 * the LRU with no owner (a driver's): that page's pfn, the block at
 * *@block.
 */
static unsigned long block_with_unmovable_page(struct cma_mm *mm, struct fake_owner *o,
					       struct cma_page **raw, unsigned long *block)
{
	unsigned long pfn, owned = 0;

	owner_fault_range(o, 0, 256, CMA_GFP_HIGHUSER_MOVABLE);
	*raw = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(*raw);
	cma_drain_all_pages(mm);
	pfn = cma_page_to_pfn(mm, *raw);
	*block = pfn & ~511ul;
	assert_int_equal(cma_pageblock_migratetype(mm, *block), CMA_MIGRATE_MOVABLE);
	for (uint64_t i = 0; i < 256; i++)
		if ((cma_page_to_pfn(mm, o->slots[i].page) & ~511ul) == *block)
			owned++;
	assert_true(owned > 0);
	return pfn;
}

static const char *const scan_movable_kernels[] = { "3.5", "4.14", "4.15", "6.12" };

/*
 * Expect: alloc_contig_range(MOVABLE) over a MOVABLE pageblock holding
 * one unmovable page fails with -EBUSY under every release; up to 4.14
 * only after migrating the owner's pages out (isolation took the block
 * without a look), from 4.15 at isolation, nothing migrated.
 */
static void contig_range_over_unmovable_page_by_release(const char *kernel, unsigned i)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct fake_owner *o = owner_create(mm, true, 256);
	bool scan = cma_kernel_has(kernel, "isolate_scan_movable") == 1;
	struct cma_page *raw;
	unsigned long block;
	uint64_t before;

	block_with_unmovable_page(mm, o, &raw, &block);
	before = test_counter(mm, "pgmigrate_success");
	expect_kernel(kernel, "alloc_contig_range over the block", -EBUSY,
		      cma_alloc_contig_range(mm, block, block + 512, CMA_MIGRATE_MOVABLE));
	if (scan)
		expect_kernel(kernel, "pages migrated", 0,
			      (long)(test_counter(mm, "pgmigrate_success") - before));
	else if (test_counter(mm, "pgmigrate_success") == before)
		fail_msg("kernel %s: nothing migrated before -EBUSY", kernel);
	expect_kernel(kernel, "the block's type after", CMA_MIGRATE_MOVABLE,
		      cma_pageblock_migratetype(mm, block));
	cma_free_pages(mm, raw, 0);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: alloc_contig_pages never takes a range inside a CMA area
 * (its isolation refuses CMA blocks for MOVABLE), so after any number
 * of allocations and frees every block of the area is still CMA.
 */
static void contig_pages_leave_cma_area_alone(void **state)
{
	/* the area first in ZONE_NORMAL, where alloc_contig_pages starts looking */
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .kernel = "6.12",
				    .cma_base = 16 * MiB, .cma_size = 8 * MiB);
	unsigned long base = (16 * MiB) >> mm->page_shift, end = base + ((8 * MiB) >> mm->page_shift);
	struct cma_page *pages[8];

	for (int i = 0; i < 8; i++) {
		unsigned long pfn;

		pages[i] = cma_alloc_contig_pages(mm, 512, CMA_GFP_KERNEL, 0);
		if (!pages[i])
			break;
		pfn = cma_page_to_pfn(mm, pages[i]);
		if (pfn + 512 > base && pfn < end)
			fail_msg("alloc_contig_pages took pfn %#lx, inside the CMA area [%#lx, %#lx)",
				 pfn, base, end);
	}
	for (int i = 0; i < 8 && pages[i]; i++)
		cma_free_contig_range(mm, cma_page_to_pfn(mm, pages[i]), 512);
	for (unsigned long pfn = base; pfn < end; pfn += 512)
		assert_int_equal(cma_pageblock_migratetype(mm, pfn), CMA_MIGRATE_CMA);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: after any sequence of alloc_contig_pages and cma_alloc (and
 * their frees), on a machine whose area holds an owner's movable pages,
 * every pageblock of the area is still CMA and cma_mm_verify holds
 * after each step. The sequence is random (seed printed, CMA_TEST_SEED
 * replays it).
 */
static void contig_pages_and_cma_alloc_keep_the_machine_whole(void **state)
{
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .kernel = "6.12",
				    .size = 64 * MiB, .cmdline = "cma=8M@16M");
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	unsigned long base = (16 * MiB) >> mm->page_shift, end = base + ((8 * MiB) >> mm->page_shift);
	struct fake_owner *o = owner_create(mm, true, 2048);
	uint64_t rnd = test_seed("contig_pages_and_cma_alloc_keep_the_machine_whole");
	struct { struct cma_page *page; unsigned long nr; bool area; } held[16] = { 0 };

	assert_non_null(cma);
	assert_int_equal(cma_area_base_pfn(cma), base);
	owner_fault_range(o, 0, 2048, CMA_GFP_HIGHUSER_MOVABLE);
	for (int step = 0; step < 200; step++) {
		unsigned i = (unsigned)prandom_below(&rnd, 16);
		unsigned long nr = 1ul << prandom_below(&rnd, 10);

		if (held[i].page) {
			if (held[i].area)
				assert_true(cma_area_release(mm, cma, held[i].page, held[i].nr));
			else
				cma_free_contig_range(mm, cma_page_to_pfn(mm, held[i].page), held[i].nr);
			held[i].page = NULL;
		} else {
			held[i].area = prandom_below(&rnd, 2);
			held[i].nr = nr;
			held[i].page = held[i].area ? cma_area_alloc(mm, cma, nr, 0, true) :
					cma_alloc_contig_pages(mm, nr, CMA_GFP_KERNEL, 0);
		}
		for (unsigned long pfn = base; pfn < end; pfn += 512)
			if (cma_pageblock_migratetype(mm, pfn) != CMA_MIGRATE_CMA)
				fail_msg("step %d: pageblock %#lx of the area is %d", step, pfn,
					 cma_pageblock_migratetype(mm, pfn));
		assert_verify(mm);
	}
	for (unsigned i = 0; i < 16; i++)
		if (held[i].page && held[i].area)
			assert_true(cma_area_release(mm, cma, held[i].page, held[i].nr));
		else if (held[i].page)
			cma_free_contig_range(mm, cma_page_to_pfn(mm, held[i].page), held[i].nr);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: alloc_contig_range over a free MOVABLE pageblock where an
 * owner has just faulted 8 pages, still in this CPU's LRU pagevec:
 * - MOVABLE request: up to 4.14 isolation takes the block unscanned,
 *   the pagevec is drained after and the pages migrate (0); from 4.15
 *   has_unmovable_pages finds them off the LRU and refuses the block
 *   (-EBUSY, nothing migrated, the block left MOVABLE), 6.12's
 *   lru_cache_disable coming only after isolation; once the pagevec is
 *   drained, every release takes the range;
 * - a CMA block asked for as MIGRATE_CMA is not scanned: taken in every
 *   release.
 */
static void contig_range_over_pagevec_pages_by_release(const char *kernel, unsigned i)
{
	struct cma_mm *mm = cma_machine(kernel);
	unsigned long block = (24 * MiB) >> mm->page_shift, area = (32 * MiB) >> mm->page_shift;
	struct fake_owner *o = owner_create(mm, true, 16);
	bool scan = cma_kernel_has(kernel, "isolate_scan_movable") == 1;
	uint64_t before;
	int ret;

	cma_drain_all_pages(mm);
	assert_int_equal(cma_pageblock_migratetype(mm, block), CMA_MIGRATE_MOVABLE);
	for (uint64_t s = 0; s < 8; s++)
		assert_non_null(owner_fault_at(o, s, block + 16 * s, s + 1));
	assert_false(page_test(o->slots[0].page, PG_lru));
	before = test_counter(mm, "pgmigrate_success");
	ret = cma_alloc_contig_range(mm, block, block + 512, CMA_MIGRATE_MOVABLE);
	expect_kernel(kernel, "MOVABLE range over pagevec pages", scan ? -EBUSY : 0, ret);
	expect_kernel(kernel, "pages migrated", scan ? 0 : 8,
		      (long)(test_counter(mm, "pgmigrate_success") - before));
	expect_kernel(kernel, "the block's type after", CMA_MIGRATE_MOVABLE,
		      cma_pageblock_migratetype(mm, block));
	if (ret) {
		lru_add_drain_all(mm);
		expect_kernel(kernel, "the same range once drained", 0,
			      cma_alloc_contig_range(mm, block, block + 512, CMA_MIGRATE_MOVABLE));
	}
	cma_free_contig_range(mm, block, 512);
	for (uint64_t s = 8; s < 16; s++)
		assert_non_null(owner_fault_at(o, s, area + 16 * (s - 8), s + 1));
	assert_false(page_test(o->slots[8].page, PG_lru));
	expect_kernel(kernel, "CMA range over pagevec pages", 0,
		      cma_alloc_contig_range(mm, area, area + 512, CMA_MIGRATE_CMA));
	cma_free_contig_range(mm, area, 512);
	assert_true(owner_check(o) >= 0);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const pagevec_kernels[] = { "3.5", "4.15", "4.16", "6.8", "6.9", "6.12" };

/*
 * Expect: this CPU's LRU pagevec empties onto the LRU when it holds the
 * kernel's PAGEVEC_SIZE: 14 pages up to 4.15, 15 from 4.16, 31 from 6.9
 * (folio batch). One page fewer leaves every page off the LRU, which
 * from 4.15 is what isolation's scan refuses.
 */
static void pagevec_empties_at_its_size_by_release(const char *kernel, unsigned i)
{
	static const unsigned size[] = { 14, 14, 15, 15, 31, 31 };
	struct cma_mm *mm = cma_machine(kernel);
	unsigned long block = (24 * MiB) >> mm->page_shift;
	struct fake_owner *o = owner_create(mm, true, 32);

	cma_drain_all_pages(mm);
	lru_add_drain_all(mm);
	for (uint64_t s = 0; s + 1 < size[i]; s++)
		assert_non_null(owner_fault_at(o, s, block + s, s + 1));
	expect_kernel(kernel, "the first page on the LRU with one page short of PAGEVEC_SIZE", 0,
		      page_test(o->slots[0].page, PG_lru));
	assert_non_null(owner_fault_at(o, size[i] - 1, block + size[i] - 1, size[i]));
	expect_kernel(kernel, "the first page on the LRU once the pagevec is full", 1,
		      page_test(o->slots[0].page, PG_lru));
	expect_kernel(kernel, "the last page on the LRU once the pagevec is full", 1,
		      page_test(o->slots[size[i] - 1].page, PG_lru));
	assert_true(owner_check(o) >= 0);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const compound_kernels[] = { "3.5", "4.6", "4.7", "5.7", "6.12" };

static int follow(void *owner, uint64_t index, struct cma_page *from, struct cma_page *to)
{
	*(struct cma_page **)owner = to;
	return 0;
}

static const struct cma_owner_ops follow_ops = { .migrate = follow, .anon = true };

/*
 * Expect: an owner's large folio (order 2) just added is on the LRU at
 * once from 4.7 (lru_add_compound) and in this CPU's pagevec before.
 * From 5.7 (contig_large_folio), alloc_contig_range(MOVABLE) over its
 * free MOVABLE block takes the range, the folio migrated whole: held
 * in a pagevec, isolation would refuse it.
 */
static void fresh_large_folio_on_lru_by_release(const char *kernel, unsigned i)
{
	struct cma_mm *mm = cma_machine(kernel);
	unsigned long block = (24 * MiB) >> mm->page_shift, now;
	bool flush = cma_kernel_has(kernel, "lru_add_compound") == 1;
	struct cma_page *folio;

	cma_drain_all_pages(mm);
	folio = cma_alloc_movable_at(mm, block + 64, 2, &follow_ops, &folio, 0);
	assert_non_null(folio);
	expect_kernel(kernel, "the folio on the LRU once added", flush, page_test(folio, PG_lru));
	if (cma_kernel_has(kernel, "contig_large_folio") == 1) {
		expect_kernel(kernel, "MOVABLE range over the folio", 0,
			      cma_alloc_contig_range(mm, block, block + 512, CMA_MIGRATE_MOVABLE));
		now = cma_page_to_pfn(mm, folio);
		expect_kernel(kernel, "the folio out of the range", true,
			      now >= block + 512 || now < block);
		expect_kernel(kernel, "its order", 2, page_order(folio));
		cma_free_contig_range(mm, block, 512);
	}
	cma_page_put(mm, folio);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const target_zone_kernels[] = { "4.12", "4.13", "6.12" };

/*
 * Expect (alloc_migrate_target): on a 32-bit ARM board with highmem, an
 * owner's pages in a lowmem range taken by alloc_contig_range migrate
 * to ZONE_HIGHMEM up to 4.12 (GFP_HIGHUSER_MOVABLE, highest zone first)
 * and stay in lowmem from 4.13 (GFP_USER | __GFP_MOVABLE, __GFP_HIGHMEM
 * only for a highmem source: retry_mayfail).
 */
static void migration_target_zone_by_release(const char *kernel, unsigned i)
{
	struct cma_mm *mm = test_mm(.arch = CMA_ARCH_ARM, .base = 0x40000000, .size = 256 * MiB,
				    .highmem_start = 0x48000000, .kernel = kernel);
	unsigned long start = 0x44000;	/* 64 MiB into lowmem, free at boot */
	struct fake_owner *o = owner_create(mm, true, 16);
	bool mayfail = cma_kernel_has(kernel, "retry_mayfail") == 1;

	cma_drain_all_pages(mm);
	for (uint64_t s = 0; s < 16; s++)
		assert_non_null(owner_fault_at(o, s, start + s, s + 1));
	lru_add_drain_all(mm);	/* on the LRU: from a pagevec, isolation refuses them */
	assert_int_equal(page_zonenum(o->slots[0].page), ZONE_NORMAL);
	expect_kernel(kernel, "alloc_contig_range over the owner's pages", 0,
		      cma_alloc_contig_range(mm, start, start + 16, CMA_MIGRATE_MOVABLE));
	for (uint64_t s = 0; s < 16; s++)
		expect_kernel(kernel, "the zone a migrated page went to",
			      mayfail ? ZONE_NORMAL : ZONE_HIGHMEM, page_zonenum(o->slots[s].page));
	assert_true(owner_check(o) >= 0);
	cma_free_contig_range(mm, start, 16);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const to_tail_kernels[] = { "3.5", "5.9", "5.10", "6.12" };

/* The pfn of the first free block of @order on the CMA lists of @pfn's zone. */
static unsigned long first_cma_block(struct cma_mm *mm, unsigned long pfn, unsigned order)
{
	struct zone *z = page_zone(mm, pfn_to_page(mm, pfn));
	struct cma_page *head;

	spin_lock(&z->lock);
	head = page_list_first(mm, &z->free_area[order].free_list[MIGRATE_CMA]);
	spin_unlock(&z->lock);
	assert_non_null(head);
	return page_to_pfn(mm, head);
}

/* Isolate [@a, @a + @nr), then [@b, @b + @nr); undo them in the same order. */
static void isolate_undo_two(struct cma_mm *mm, unsigned long a, unsigned long b, unsigned long nr)
{
	assert_int_equal(cma_start_isolate_page_range(mm, a, a + nr, CMA_MIGRATE_CMA), 0);
	assert_int_equal(cma_start_isolate_page_range(mm, b, b + nr, CMA_MIGRATE_CMA), 0);
	assert_int_equal(cma_undo_isolate_page_range(mm, a, a + nr, CMA_MIGRATE_CMA), 0);
	assert_int_equal(cma_undo_isolate_page_range(mm, b, b + nr, CMA_MIGRATE_CMA), 0);
}

/*
 * Expect free pages given back by the end of an isolation on the tail of
 * their lists from 5.10 (move_free_to_tail), on the head before: of two
 * ranges isolated and undone in turn, the first range's blocks come out
 * first from 5.10 and the second's before. Both for a pageblock's
 * fragments (order 8 around one page taken, move_freepages_block) and
 * for whole free blocks of two pageblocks (order 10).
 */
static void undo_isolation_frees_to_tail_by_release(const char *kernel, unsigned i)
{
	struct cma_mm *mm = cma_machine(kernel);
	unsigned long base = (32 * MiB) >> mm->page_shift, far = base + 1024;
	bool tail = cma_kernel_has(kernel, "move_free_to_tail") == 1;

	isolate_undo_two(mm, base, far, 1024);
	expect_kernel(kernel, "the first order-10 CMA block after both undone", tail ? base : far,
		      first_cma_block(mm, base, 10));
	assert_int_equal(cma_alloc_contig_range(mm, base, base + 1, CMA_MIGRATE_CMA), 0);
	assert_int_equal(cma_alloc_contig_range(mm, far, far + 1, CMA_MIGRATE_CMA), 0);
	isolate_undo_two(mm, base, far, 512);
	expect_kernel(kernel, "the first order-8 CMA block after both undone", tail ? base + 256 : far + 256,
		      first_cma_block(mm, base, 8));
	cma_free_contig_range(mm, base, 1);
	cma_free_contig_range(mm, far, 1);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(contig_pages_leave_cma_area_alone),
		cmocka_unit_test(contig_pages_and_cma_alloc_keep_the_machine_whole),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(isolate_cma_block_for_movable_by_release, isolate_cma_kernels),
		test_kernel_case(contig_range_over_unmovable_page_by_release, scan_movable_kernels),
		test_kernel_case(contig_range_over_pagevec_pages_by_release, scan_movable_kernels),
		test_kernel_case(pagevec_empties_at_its_size_by_release, pagevec_kernels),
		test_kernel_case(fresh_large_folio_on_lru_by_release, compound_kernels),
		test_kernel_case(migration_target_zone_by_release, target_zone_kernels),
		test_kernel_case(undo_isolation_frees_to_tail_by_release, to_tail_kernels),
	};

	return cmocka_run_group_tests_name("isolation_profiles", tests, NULL, NULL) +
	       test_run_kernel_cases("isolation_profiles (per kernel)", kernel_cases);
}
