// SPDX-License-Identifier: GPL-2.0
/*
 * The buddy allocator's rules, one test each: the fallback table of seeds
 * 004/005, the stealing rules of __rmqueue_fallback, the two CMA rules,
 * expand's type, MIGRATE_RESERVE as the last resort, merging on free, GFP
 * zone selection, zeroing, and refusals.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* Let the lists run dry: no watermark holds pages back. */
struct live {
	struct cma_page **pages;
	unsigned *orders;
	size_t nr, cap;
};

static void live_add(struct live *l, struct cma_page *p, unsigned order)
{
	if (l->nr == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->pages = realloc(l->pages, l->cap * sizeof(*l->pages));
		l->orders = realloc(l->orders, l->cap * sizeof(*l->orders));
		assert_non_null(l->pages);
		assert_non_null(l->orders);
	}
	l->pages[l->nr] = p;
	l->orders[l->nr++] = order;
}

static void live_free_all(struct cma_mm *mm, struct live *l)
{
	for (size_t i = 0; i < l->nr; i++)
		cma_free_pages(mm, l->pages[i], l->orders[i]);
	free(l->pages);
	free(l->orders);
	memset(l, 0, sizeof(*l));
}

/* Allocate order-@order pages of @gfp until the allocator says no. */
static size_t exhaust(struct cma_mm *mm, struct live *l, cma_gfp_t gfp, unsigned order)
{
	size_t n = 0;
	struct cma_page *p;

	while ((p = cma_alloc_pages(mm, gfp | CMA_GFP_NOWARN, order))) {
		live_add(l, p, order);
		n++;
	}
	return n;
}

static bool pfn_in(unsigned long pfn, unsigned long start, unsigned long nr)
{
	return pfn >= start && pfn < start + nr;
}

static struct zone *normal_zone(struct cma_mm *mm)
{
	return &mm->zones[ZONE_NORMAL];
}

static unsigned long pfn_of(struct cma_mm *mm, struct cma_page *p)
{
	return cma_page_to_pfn(mm, p);
}

/* The list type of the free block covering @pfn, or -1 if @pfn is not in one. */
static int free_list_type_of(struct cma_mm *mm, unsigned long pfn)
{
	for (unsigned o = 0; o < mm->max_order; o++) {
		struct cma_page *head = pfn_to_page(mm, pfn & ~((1ul << o) - 1));

		if (page_test(head, PG_buddy) && page_order(head) >= o)
			return (int)head->private;
	}
	return -1;
}

/* ---- CMA rule 1 and the fallback table ---- */

/*
 * Expect: with every non-CMA page taken by unmovable allocations, further
 * unmovable requests fail although the CMA pageblocks are all free; a
 * movable request then succeeds from them.
 */
static void alloc_pages_unmovable_never_from_cma(const struct test_shape *mode)
{
	struct cma_mm *mm = test_mm_mode(mode, TEST_CMA_32M);
	unsigned long cma_start = (32 * MiB) >> mm->page_shift;
	unsigned long cma_nr = (16 * MiB) >> mm->page_shift;
	struct live l = { 0 };
	struct cma_page *p;

	test_zero_watermarks(mm);
	exhaust(mm, &l, CMA_GFP_KERNEL, 0);
	exhaust(mm, &l, CMA_GFP_KERNEL | CMA_GFP_RECLAIMABLE, 0);
	exhaust(mm, &l, CMA_GFP_ATOMIC, 0);
	for (size_t i = 0; i < l.nr; i++)
		if (pfn_in(pfn_of(mm, l.pages[i]), cma_start, cma_nr))
			fail_msg("unmovable page at pfn %#lx inside the CMA area", pfn_of(mm, l.pages[i]));
	cma_drain_all_pages(mm);
	assert_int_equal(zone_page_state(normal_zone(mm), NR_FREE_CMA_PAGES) +
			 zone_page_state(&mm->zones[ZONE_DMA], NR_FREE_CMA_PAGES), cma_nr);
	p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(p);
	assert_true(pfn_in(pfn_of(mm, p), cma_start, cma_nr));
	live_add(&l, p, 0);
	assert_verify(mm);
	live_free_all(mm, &l);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: when the MOVABLE lists run dry, a movable request takes CMA
 * pages before it steals from the UNMOVABLE pageblock that has free pages.
 */
static void alloc_pages_movable_falls_back_to_cma_first(const struct test_shape *mode)
{
	struct cma_mm *mm = test_mm_mode(mode, TEST_CMA_32M);
	unsigned long cma_start = (32 * MiB) >> mm->page_shift;
	unsigned long cma_nr = (16 * MiB) >> mm->page_shift;
	struct live l = { 0 };
	struct cma_page *p;
	bool reached_cma = false;

	test_zero_watermarks(mm);
	/* an unmovable allocation claims a pageblock, leaving it mostly free */
	p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_non_null(p);
	live_add(&l, p, 0);
	while ((p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, 0))) {
		live_add(&l, p, 0);
		if (pfn_in(pfn_of(mm, p), cma_start, cma_nr)) {
			reached_cma = true;
			break;
		}
	}
	assert_true(reached_cma);
	if (free_pages_of_type(normal_zone(mm), MIGRATE_UNMOVABLE) +
	    free_pages_of_type(&mm->zones[ZONE_DMA], MIGRATE_UNMOVABLE) == 0)
		fail_msg("UNMOVABLE lists were emptied before CMA was used");
	live_free_all(mm, &l);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: the reserve is the last resort: the first page taken from a
 * MIGRATE_RESERVE pageblock comes only once every other list is empty.
 */
static void alloc_pages_reserve_is_last_resort(void **state)
{
	/* v3.5's MIGRATE_RESERVE blocks; 4.4 replaced them (test_profile_alloc) */
	SKIP_UNLESS_KERNEL_35();
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct zone *z = normal_zone(mm);
	struct live l = { 0 };
	struct cma_page *p;
	bool reached = false;

	test_zero_watermarks(mm);
	assert_true(z->nr_migrate_reserve_block > 0);
	while ((p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, 1))) {
		live_add(&l, p, 1);
		if (get_pageblock_migratetype(mm, pfn_of(mm, p)) == MIGRATE_RESERVE) {
			reached = true;
			for (int mt = 0; mt < MIGRATE_RESERVE; mt++)
				assert_int_equal(free_pages_of_type(z, mt), 0);
			break;
		}
	}
	assert_true(reached);
	live_free_all(mm, &l);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- CMA rule 2: the allocator never changes a CMA pageblock's type ---- */

static void assert_cma_blocks_intact(struct cma_mm *mm, unsigned long start, unsigned long nr)
{
	for (unsigned long pfn = start; pfn < start + nr; pfn += mm->pageblock_nr_pages)
		if (get_pageblock_migratetype(mm, pfn) != MIGRATE_CMA)
			fail_msg("pageblock at pfn %#lx is %s, expected CMA", pfn,
				 migratetype_name(get_pageblock_migratetype(mm, pfn)));
}

/*
 * Expect: thousands of random allocations of every type and order, large
 * unmovable ones included (which take ownership of whole pageblocks),
 * leave every CMA pageblock CMA and no unmovable page inside one.
 */
static void alloc_pages_random_mix_keeps_cma_pageblocks(const struct test_shape *mode)
{
	struct cma_mm *mm = test_mm_mode(mode, TEST_CMA_32M);
	unsigned long cma_start = (32 * MiB) >> mm->page_shift;
	unsigned long cma_nr = (16 * MiB) >> mm->page_shift;
	static const cma_gfp_t gfps[] = {
		CMA_GFP_KERNEL, CMA_GFP_KERNEL | CMA_GFP_RECLAIMABLE, CMA_GFP_HIGHUSER_MOVABLE,
		CMA_GFP_ATOMIC, CMA_GFP_DMA,
	};
	uint64_t rnd = test_seed(__func__);
	struct cma_page *pages[512] = { 0 };
	unsigned orders[512];

	test_zero_watermarks(mm);
	for (int step = 0; step < 20000; step++) {
		unsigned i = prandom_u64_state(&rnd) % 512;

		if (pages[i]) {
			cma_free_pages(mm, pages[i], orders[i]);
			pages[i] = NULL;
		} else {
			orders[i] = prandom_u64_state(&rnd) % mm->max_order;
			pages[i] = cma_alloc_pages(mm, gfps[prandom_u64_state(&rnd) % 5] | CMA_GFP_NOWARN,
						   orders[i]);
		}
		if (step % 16 == 0)
			assert_cma_blocks_intact(mm, cma_start, cma_nr);
		if (step % 1000 == 0) {
			assert_verify(mm);
			assert_cma_blocks_intact(mm, cma_start, cma_nr);
		}
	}
	for (unsigned i = 0; i < 512; i++)
		if (pages[i])
			cma_free_pages(mm, pages[i], orders[i]);
	assert_cma_blocks_intact(mm, cma_start, cma_nr);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: a movable order-1 request served from a CMA MAX_ORDER-1 block
 * leaves the split-off halves on the CMA lists (expand keeps CMA), not on
 * the MOVABLE lists.
 */
static void alloc_pages_expand_keeps_cma_type(const struct test_shape *mode)
{
	struct cma_mm *mm = test_mm_mode(mode, TEST_CMA_32M);
	struct zone *z = normal_zone(mm);
	struct live l = { 0 };
	unsigned long cma_before, movable_before;
	struct cma_page *p;

	test_zero_watermarks(mm);
	exhaust(mm, &l, CMA_GFP_KERNEL, 0);
	exhaust(mm, &l, CMA_GFP_ATOMIC, 0);
	cma_drain_all_pages(mm);
	cma_before = free_pages_of_type(z, MIGRATE_CMA);
	movable_before = free_pages_of_type(z, MIGRATE_MOVABLE);
	assert_int_equal(movable_before, 0);
	p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 1);
	assert_non_null(p);
	assert_int_equal(free_pages_of_type(z, MIGRATE_CMA), cma_before - 2);
	assert_int_equal(free_pages_of_type(z, MIGRATE_MOVABLE), 0);
	assert_int_equal(zone_page_state(z, NR_FREE_CMA_PAGES), cma_before - 2);
	cma_free_pages(mm, p, 1);
	live_free_all(mm, &l);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- __rmqueue_fallback stealing ---- */

/*
 * Fill a 64 MiB one-zone machine (pageblock order 9) with movable order-0
 * pages, then free the pages of pageblock @block whose offsets are listed,
 * each as a block of 2^@order pages, so the only free memory is there.
 */
static struct cma_mm *fragmented(struct live *l, unsigned long *block_pfn, const unsigned *offs,
				 unsigned nr, unsigned order)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	unsigned long base;

	test_zero_watermarks(mm);
	/*
	 * Until a round takes nothing: the last batch taken to the per-CPU
	 * list can strand pages there, as NR_FREE_PAGES (buddy only) already
	 * reads 0 at the watermark check; drained, they are allocated next
	 * round (6.7's refills grow, so that may take more than two).
	 */
	for (size_t before = (size_t)-1; before != l->nr;) {
		before = l->nr;
		exhaust(mm, l, CMA_GFP_HIGHUSER_MOVABLE, 0);
		cma_drain_all_pages(mm);
	}
	assert_int_equal(zone_page_state(normal_zone(mm), NR_FREE_PAGES), 0);
	/* a MOVABLE pageblock in the middle of memory */
	base = 20 * mm->pageblock_nr_pages;
	assert_int_equal(get_pageblock_migratetype(mm, base), MIGRATE_MOVABLE);
	for (size_t i = 0; i < l->nr; i++) {
		unsigned long pfn = pfn_of(mm, l->pages[i]);

		for (unsigned k = 0; k < nr; k++)
			if (pfn >= base + offs[k] && pfn < base + offs[k] + (1ul << order)) {
				cma_free_pages(mm, l->pages[i], 0);
				l->pages[i] = l->pages[--l->nr];
				i--;
				break;
			}
	}
	cma_drain_all_pages(mm);
	assert_int_equal(zone_page_state(normal_zone(mm), NR_FREE_PAGES), nr << order);
	*block_pfn = base;
	return mm;
}

static void finish(struct cma_mm *mm, struct live *l)
{
	live_free_all(mm, l);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: an unmovable steal of a block smaller than pageblock_order/2
 * takes just that block: the pageblock stays MOVABLE and its other free
 * block stays on the MOVABLE list.
 */
static void rmqueue_fallback_small_steal_takes_only_the_block(void **state)
{
	/* v3.5's __rmqueue_fallback; 6.12 steals by try_to_steal_block (test_profile_alloc) */
	SKIP_UNLESS_KERNEL_35();
	static const unsigned offs[] = { 0, 64 };
	struct live l = { 0 };
	unsigned long block;
	struct cma_mm *mm = fragmented(&l, &block, offs, 2, 3);
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 1);

	assert_non_null(p);
	live_add(&l, p, 1);
	assert_int_equal(get_pageblock_migratetype(mm, block), MIGRATE_MOVABLE);
	assert_int_equal(free_pages_of_type(normal_zone(mm), MIGRATE_MOVABLE), 8);
	assert_int_equal(free_pages_of_type(normal_zone(mm), MIGRATE_UNMOVABLE), 6);
	finish(mm, &l);
}

/*
 * Expect: a steal of order >= pageblock_order/2 moves every free page of
 * the pageblock to the stealer's lists, but claims the pageblock only when
 * that is at least half of it (here 32 of 512 pages: not claimed).
 */
static void rmqueue_fallback_large_steal_moves_free_pages(void **state)
{
	/* v3.5's __rmqueue_fallback; 6.12 steals by try_to_steal_block (test_profile_alloc) */
	SKIP_UNLESS_KERNEL_35();
	static const unsigned offs[] = { 0, 64 };
	struct live l = { 0 };
	unsigned long block;
	struct cma_mm *mm = fragmented(&l, &block, offs, 2, 4);
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 1);

	assert_non_null(p);
	live_add(&l, p, 1);
	assert_int_equal(free_pages_of_type(normal_zone(mm), MIGRATE_MOVABLE), 0);
	assert_int_equal(free_pages_of_type(normal_zone(mm), MIGRATE_UNMOVABLE), 30);
	assert_int_equal(get_pageblock_migratetype(mm, block), MIGRATE_MOVABLE);
	finish(mm, &l);
}

/* Expect: with half the pageblock free, the stealer claims the pageblock. */
static void rmqueue_fallback_claims_half_free_block(void **state)
{
	static const unsigned offs[] = { 256 };
	struct live l = { 0 };
	unsigned long block;
	struct cma_mm *mm = fragmented(&l, &block, offs, 1, 8);
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 1);

	assert_non_null(p);
	live_add(&l, p, 1);
	assert_int_equal(get_pageblock_migratetype(mm, block), MIGRATE_UNMOVABLE);
	finish(mm, &l);
}

/* Expect: RECLAIMABLE steals move free pages even for small blocks. */
static void rmqueue_fallback_reclaimable_moves_small_blocks(void **state)
{
	/* v3.5's __rmqueue_fallback; 6.12 steals by try_to_steal_block (test_profile_alloc) */
	SKIP_UNLESS_KERNEL_35();
	static const unsigned offs[] = { 0, 64 };
	struct live l = { 0 };
	unsigned long block;
	struct cma_mm *mm = fragmented(&l, &block, offs, 2, 3);
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_RECLAIMABLE, 1);

	assert_non_null(p);
	live_add(&l, p, 1);
	assert_int_equal(free_pages_of_type(normal_zone(mm), MIGRATE_MOVABLE), 0);
	assert_int_equal(free_pages_of_type(normal_zone(mm), MIGRATE_RECLAIMABLE), 14);
	assert_int_equal(get_pageblock_migratetype(mm, block), MIGRATE_MOVABLE);
	finish(mm, &l);
}

/*
 * Expect: an unmovable allocation of pageblock order taken from a
 * MOVABLE block of order 10 changes both pageblocks of that block to
 * UNMOVABLE (ownership for orders >= pageblock_order). From 5.14 the
 * refill takes the other half onto the CPU's THP list too: drained, it
 * goes back to buddy.
 */
static void rmqueue_fallback_takes_ownership_of_large_blocks(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 9);
	unsigned long pfn, base;

	assert_non_null(p);
	cma_drain_all_pages(mm);
	pfn = pfn_of(mm, p);
	base = pfn & ~1023ul;
	assert_int_equal(get_pageblock_migratetype(mm, base), MIGRATE_UNMOVABLE);
	assert_int_equal(get_pageblock_migratetype(mm, base + 512), MIGRATE_UNMOVABLE);
	/* the other half stays free on the UNMOVABLE list */
	assert_int_equal(free_list_type_of(mm, pfn ^ 512), MIGRATE_UNMOVABLE);
	cma_free_pages(mm, p, 9);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- merging and freeing ---- */

/*
 * Expect: a block merges with its buddy whatever the pageblock types on
 * the way (here an UNMOVABLE-claimed half and a MOVABLE half), up to
 * MAX_ORDER-1, onto the list of the type the freeing page's block had.
 * From 5.14 both halves pass the CPU's THP list: the drain frees them,
 * the allocated half last.
 */
static void free_pages_merges_across_pageblock_types(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	unsigned long before = zone_page_state(normal_zone(mm), NR_FREE_PAGES);
	unsigned long before10 = normal_zone(mm)->free_area[10].nr_free;
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 9);
	unsigned long pfn = pfn_of(mm, p);

	/* give the other half's pageblock back to MOVABLE by hand */
	set_pageblock_migratetype(mm, pfn ^ 512, MIGRATE_MOVABLE);
	cma_free_pages(mm, p, 9);
	cma_drain_all_pages(mm);
	assert_int_equal(zone_page_state(normal_zone(mm), NR_FREE_PAGES), before);
	assert_int_equal(normal_zone(mm)->free_area[10].nr_free, before10);
	assert_int_equal(free_list_type_of(mm, pfn), MIGRATE_UNMOVABLE);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: freeing everything merges memory back into the blocks it was
 * free in at boot: MAX_ORDER-1 blocks, and one order-9 block below the
 * 2 MiB vmemmap at the top of the 4 MiB block that holds it.
 */
static void free_pages_merges_back_to_max_order(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9);
	struct zone *z = normal_zone(mm);
	struct live l = { 0 };
	uint64_t rnd = test_seed(__func__);
	unsigned long boot[MAX_ORDER_LIMIT];

	for (unsigned o = 0; o < mm->max_order; o++)
		boot[o] = z->free_area[o].nr_free;
	assert_int_equal(boot[9], 1);

	for (int i = 0; i < 3000; i++) {
		unsigned order = prandom_u64_state(&rnd) % 4;
		struct cma_page *p = cma_alloc_pages(mm, i % 2 ? CMA_GFP_KERNEL : CMA_GFP_HIGHUSER_MOVABLE,
						     order);

		assert_non_null(p);
		live_add(&l, p, order);
	}
	/* free in a shuffled order */
	for (size_t i = l.nr; i > 1; i--) {
		size_t j = prandom_u64_state(&rnd) % i;
		struct cma_page *tp = l.pages[i - 1];
		unsigned to = l.orders[i - 1];

		l.pages[i - 1] = l.pages[j];
		l.orders[i - 1] = l.orders[j];
		l.pages[j] = tp;
		l.orders[j] = to;
	}
	live_free_all(mm, &l);
	cma_drain_all_pages(mm);
	for (unsigned o = 0; o < mm->max_order; o++)
		assert_int_equal(z->free_area[o].nr_free, boot[o]);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- GFP ---- */

static void alloc_pages_gfp_selects_zone(void **state)
{
	struct cma_bank bank = { 0, 1 * GiB };
	struct cma_mm_config cfg = {
		.banks = &bank, .nr_banks = 1, .zone_dma_end = 16 * MiB, .zone_dma32_end = 512 * MiB,
	};
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_page *dma = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_DMA, 0);
	struct cma_page *dma32 = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_DMA32, 0);
	struct cma_page *normal = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	struct cma_page *high = cma_alloc_pages(mm, CMA_GFP_HIGHUSER, 0); /* no highmem: Normal */

	assert_int_equal(page_zonenum(dma), ZONE_DMA);
	assert_int_equal(page_zonenum(dma32), ZONE_DMA32);
	assert_int_equal(page_zonenum(normal), ZONE_NORMAL);
	assert_int_equal(page_zonenum(high), ZONE_NORMAL);
	assert_true(pfn_of(mm, dma) < (16 * MiB >> 12));
	cma_free_pages(mm, dma, 0);
	cma_free_pages(mm, dma32, 0);
	cma_free_pages(mm, normal, 0);
	cma_free_pages(mm, high, 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: GFP_KERNEL never gets highmem, even when lowmem runs out. */
static void alloc_pages_kernel_never_highmem(void **state)
{
	struct cma_bank bank = { 0x40000000, 256 * MiB };
	struct cma_mm_config cfg = {
		.arch = CMA_ARCH_ARM, .banks = &bank, .nr_banks = 1, .highmem_start = 0x48000000,
	};
	struct cma_mm *mm = test_boot(&cfg);
	struct live l = { 0 };
	struct cma_page *p;

	exhaust(mm, &l, CMA_GFP_KERNEL, 0);
	for (size_t i = 0; i < l.nr; i++)
		assert_int_equal(page_zonenum(l.pages[i]), ZONE_NORMAL);
	p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(p);
	assert_int_equal(page_zonenum(p), ZONE_HIGHMEM);
	live_add(&l, p, 0);
	finish(mm, &l);
}

static void alloc_pages_gfp_zero_clears_bytes(void **state)
{
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB);
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 2);
	unsigned char *b = cma_page_address(mm, p);

	memset(b, 0xaa, 4 * 4096);
	cma_free_pages(mm, p, 2);
	p = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_ZERO, 2);
	assert_ptr_equal(cma_page_address(mm, p), b);	/* the same block comes back first */
	for (int i = 0; i < 4 * 4096; i++)
		if (b[i])
			fail_msg("byte %d is %#x after GFP_ZERO", i, b[i]);
	cma_free_pages(mm, p, 2);
	cma_mm_destroy(mm);
}

/* ---- refusals ---- */

static void alloc_pages_order_too_high_refused(const struct test_shape *mode)
{
	struct cma_mm *mm = test_mm_mode(mode);
	unsigned long before = zone_page_state(normal_zone(mm), NR_FREE_PAGES);
	struct cma_page *p;

	assert_null(cma_alloc_pages(mm, CMA_GFP_KERNEL, mm->max_order));
	assert_null(cma_alloc_pages(mm, CMA_GFP_KERNEL, 40));
	assert_int_equal(zone_page_state(normal_zone(mm), NR_FREE_PAGES), before);
	p = cma_alloc_pages(mm, CMA_GFP_KERNEL, mm->max_order - 1);
	assert_non_null(p);
	cma_free_pages(mm, p, mm->max_order - 1);
	assert_null(cma_alloc_pages(mm, CMA_GFP_MOVABLE | CMA_GFP_RECLAIMABLE, 0));
	assert_null(cma_alloc_pages(mm, CMA_GFP_DMA | CMA_GFP_HIGHMEM, 0));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Did the machine's log say "BUG: Bad page state: @why: pfn:@pfn"? */
static void expect_bad_page(struct cma_mm *mm, const char *why, unsigned long pfn)
{
	char want[200], *log = test_dmesg(mm);

	snprintf(want, sizeof(want), "BUG: Bad page state: %s: pfn:%#lx ", why, pfn);
	if (!strstr(log, want))
		fail_msg("expected the log to say \"%s\"; it says:\n%s", want, log);
	free(log);
}

/*
 * Expect: freeing a page that was never allocated, twice, with the wrong
 * order, a tail page or a pointer from elsewhere is reported and changes
 * nothing; a page inside a block is reported with that block's head and
 * order (free, or an allocation's tail).
 */
static void free_pages_bad_page_changes_nothing(const struct test_shape *mode)
{
	struct cma_mm *mm = test_mm_mode(mode);
	struct zone *z = normal_zone(mm);
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 2);
	unsigned long pfn = pfn_of(mm, p), buddy = pfn ^ 4;
	struct cma_page outside;
	unsigned long free_before;
	char why[100];

	cma_drain_all_pages(mm);
	free_before = zone_page_state(z, NR_FREE_PAGES);
	cma_free_pages(mm, cma_pfn_to_page(mm, buddy), 0);	/* its free buddy */
	expect_bad_page(mm, "page already free", buddy);
	assert_true(page_test(cma_pfn_to_page(mm, buddy), PG_buddy) && page_order(cma_pfn_to_page(mm, buddy)) == 2);
	cma_free_pages(mm, cma_pfn_to_page(mm, buddy + 1), 0);	/* inside that free buddy */
	snprintf(why, sizeof(why), "page already free, inside the order-2 free block at pfn:%#lx", buddy);
	expect_bad_page(mm, why, buddy + 1);
	cma_free_pages(mm, p, 1);				/* wrong order */
	expect_bad_page(mm, "order differs from the allocation's", pfn);
	cma_free_pages(mm, cma_page_nth(mm, p, 1), 0);		/* tail */
	snprintf(why, sizeof(why), "not the head of its allocation, inside the order-2 allocated block at pfn:%#lx", pfn);
	expect_bad_page(mm, why, pfn + 1);
	cma_free_pages(mm, &outside, 0);			/* not ours */
	cma_free_pages(mm, NULL, 0);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), free_before);
	assert_verify(mm);
	cma_free_pages(mm, p, 2);
	free_before = zone_page_state(z, NR_FREE_PAGES);
	cma_free_pages(mm, p, 2);				/* double free */
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), free_before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static uint64_t fresh_frames(struct cma_mm *mm)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, "pgalloc_fresh", &v), 0);
	return v;
}

/*
 * Expect: pgalloc_fresh (the library's, for the simulator's host faults;
 * prep_new_page hands the frames out) counts each frame the first time
 * it is allocated since boot: an order-2 block 4, the same block freed
 * and taken again nothing, another page 1.
 */
static void alloc_pages_counts_fresh_frames_once(void **state)
{
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB);
	uint64_t before = fresh_frames(mm);
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 2), *again, *q;

	assert_int_equal(fresh_frames(mm) - before, 4);
	cma_free_pages(mm, p, 2);
	again = cma_alloc_pages(mm, CMA_GFP_KERNEL, 2);
	assert_ptr_equal(again, p);	/* the same block comes back first */
	assert_int_equal(fresh_frames(mm) - before, 4);
	q = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_int_equal(fresh_frames(mm) - before, 5);
	cma_free_pages(mm, q, 0);
	cma_free_pages(mm, again, 2);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (get_page_from_freelist's zonelist walk, zone_watermark_ok with
 * the preferred zone's classzone_idx): an order-0 movable request at the
 * low mark whose Normal zone is under its mark falls back to DMA32 only
 * above DMA32's mark plus its lowmem_reserve for Normal, even with a
 * page on DMA32's per-CPU list for it.
 */
static void fallback_zone_keeps_its_lowmem_reserve(void **state)
{
	/* DMA32 large enough for a per-CPU list under every profile (3.5: 6 * batch) */
	struct cma_mm *mm = test_mm(.size = 128 * MiB, .metadata_only = true, .dma32_end = 64 * MiB);
	struct zone *dma32 = &mm->zones[ZONE_DMA32], *normal = &mm->zones[ZONE_NORMAL];
	unsigned long free, reserve, dma32_low = dma32->watermark[WMARK_LOW];
	unsigned long normal_low = normal->watermark[WMARK_LOW];
	struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_USER | CMA_GFP_MOVABLE | CMA_GFP_DMA32, 0);

	assert_non_null(page);
	cma_free_pages(mm, page, 0);	/* onto DMA32's per-CPU list of movable pages */
	assert_true(this_cpu_slot(mm)->pcp[ZONE_DMA32].count > 0);
	free = zone_page_state(dma32, NR_FREE_PAGES);
	reserve = dma32->lowmem_reserve[ZONE_NORMAL];
	assert_true(reserve > 2 && free > reserve);
	normal->watermark[WMARK_LOW] = zone_page_state(normal, NR_FREE_PAGES) + 1;
	dma32->watermark[WMARK_LOW] = free - reserve / 2;
	page = get_page_from_freelist(mm, CMA_GFP_USER | CMA_GFP_MOVABLE, 0, ZONE_NORMAL,
				      ALLOC_WMARK_LOW, MIGRATE_MOVABLE);
	if (page)
		fail_msg("expected no page: DMA32's %lu free pages are above its low mark %lu "
			 "but not above it plus its reserve for Normal, %lu; got pfn %#lx",
			 free, dma32->watermark[WMARK_LOW], reserve, cma_page_to_pfn(mm, page));
	dma32->watermark[WMARK_LOW] = 0;
	page = get_page_from_freelist(mm, CMA_GFP_USER | CMA_GFP_MOVABLE, 0, ZONE_NORMAL,
				      ALLOC_WMARK_LOW, MIGRATE_MOVABLE);
	assert_non_null(page);
	assert_int_equal(page_zonenum(page), ZONE_DMA32);
	cma_free_pages(mm, page, 0);
	dma32->watermark[WMARK_LOW] = dma32_low;
	normal->watermark[WMARK_LOW] = normal_low;
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_pages_reserve_is_last_resort),
		cmocka_unit_test(fallback_zone_keeps_its_lowmem_reserve),
		cmocka_unit_test(rmqueue_fallback_small_steal_takes_only_the_block),
		cmocka_unit_test(rmqueue_fallback_large_steal_moves_free_pages),
		cmocka_unit_test(rmqueue_fallback_claims_half_free_block),
		cmocka_unit_test(rmqueue_fallback_reclaimable_moves_small_blocks),
		cmocka_unit_test(rmqueue_fallback_takes_ownership_of_large_blocks),
		cmocka_unit_test(free_pages_merges_across_pageblock_types),
		cmocka_unit_test(free_pages_merges_back_to_max_order),
		cmocka_unit_test(alloc_pages_gfp_selects_zone),
		cmocka_unit_test(alloc_pages_kernel_never_highmem),
		cmocka_unit_test(alloc_pages_gfp_zero_clears_bytes),
		cmocka_unit_test(alloc_pages_counts_fresh_frames_once),
	};

	const struct test_mode_case mode_cases[] = {
		test_mode_case(alloc_pages_unmovable_never_from_cma),
		test_mode_case(alloc_pages_movable_falls_back_to_cma_first),
		test_mode_case(alloc_pages_random_mix_keeps_cma_pageblocks),
		test_mode_case(alloc_pages_expand_keeps_cma_type),
		test_mode_case(alloc_pages_order_too_high_refused),
		test_mode_case(free_pages_bad_page_changes_nothing),
	};

	return cmocka_run_group_tests_name("page_alloc", tests, NULL, NULL) +
	       test_run_mode_cases("page_alloc in every mode", mode_cases);
}
