// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU page lists and watermarks: zone_batchsize and high, pages on
 * pcp lists not counted free, the type recorded at free time, rmqueue_bulk
 * keeping CMA, drain_all_pages across slots; min_free_kbytes, the
 * min/low/high formulas, lowmem_reserve, zone_watermark_ok and the
 * MIGRATE_RESERVE blocks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* The zone size the reserves and the batch follow: present pages, managed ones from 3.9. */
static unsigned long sizing(struct cma_mm *mm, const struct zone *z)
{
	return mm->kernel.managed_sizing ? z->managed_pages : z->present_pages;
}

/* The formula of zone_batchsize(), computed independently: 512 KiB at most, 1 MiB from 4.19. */
static int expected_batch(struct cma_mm *mm, unsigned long present)
{
	unsigned long cap = (mm->kernel.pcp_batch_1m ? 1024 : 512) * 1024;
	unsigned long b = present / 1024;
	unsigned long p2 = 1;

	if (b * 4096 > cap)
		b = cap / 4096;
	b /= 4;
	if (b < 1)
		b = 1;
	while (p2 * 2 <= b + b / 2)
		p2 *= 2;
	return (int)p2 - 1;
}

/*
 * Expect: 1 GiB zone: batch 31, high 186 (4.19: batch 63; high from
 * 5.14 on is test_pcp_profiles' concern). The first order-0 allocation
 * pulls a batch off the buddy lists, so NR_FREE_PAGES drops by a batch
 * and batch - 1 pages wait on the pcp list, not counted free.
 */
static void pcp_batch_and_high_follow_zone_size(void **state)
{
	struct cma_mm *mm = test_mm(.size = 1 * GiB, .metadata_only = true);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	struct per_cpu_pages *pcp = &mm->slots[0].pcp[ZONE_NORMAL];
	unsigned long before = zone_page_state(z, NR_FREE_PAGES);
	int batch = mm->kernel.pcp_batch_1m ? 63 : 31;
	struct cma_page *p;

	assert_int_equal(pcp->batch, expected_batch(mm, sizing(mm, z)));
	assert_int_equal(pcp->batch, batch);
	if (!mm->kernel.pcp_high_lowmark)
		assert_int_equal(pcp->high, 6 * batch);
	p = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_non_null(p);
	assert_int_equal(before - zone_page_state(z, NR_FREE_PAGES), batch);
	assert_int_equal(pcp->count, batch - 1);
	cma_free_pages(mm, p, 0);
	assert_int_equal(pcp->count, batch);
	cma_drain_all_pages(mm);
	assert_int_equal(pcp->count, 0);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (3.5's rule, on a 3.5 machine under every run; later releases'
 * in test_pcp_profiles): freeing past high gives one batch back to buddy
 * at once.
 */
static void pcp_free_above_high_drains_a_batch(void **state)
{
	struct cma_mm *mm = test_mm(.size = 1 * GiB, .metadata_only = true, .kernel = "3.5");
	struct per_cpu_pages *pcp = &mm->slots[0].pcp[ZONE_NORMAL];
	struct cma_page *pages[400];

	for (int i = 0; i < 400; i++)
		assert_non_null(pages[i] = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0));
	cma_drain_all_pages(mm);
	for (int i = 0; i < 400; i++) {
		cma_free_pages(mm, pages[i], 0);
		assert_true(pcp->count < pcp->high);
	}
	/* 400 frees: every time count reached 186 a batch of 31 left */
	assert_int_equal(pcp->count, 400 - 31 * ((400 - 186) / 31 + 1));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: a page goes back to buddy with the type its pageblock had when
 * it was freed onto the pcp list, even if the pageblock changed since.
 */
static void pcp_drain_frees_to_recorded_type(void **state)
{
	/* v3.5's recorded type; 6.12 frees to the block's type at the drain */
	SKIP_UNLESS_KERNEL_35();
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	struct cma_page *p = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
	unsigned long pfn = cma_page_to_pfn(mm, p);
	unsigned long unmovable_before;

	assert_int_equal(get_pageblock_migratetype(mm, pfn), MIGRATE_MOVABLE);
	cma_drain_all_pages(mm);
	unmovable_before = free_pages_of_type(z, MIGRATE_UNMOVABLE);
	cma_free_pages(mm, p, 0);
	assert_int_equal(p->private, MIGRATE_MOVABLE);
	spin_lock(&z->lock);
	set_pageblock_migratetype(mm, pfn, MIGRATE_UNMOVABLE);
	spin_unlock(&z->lock);
	cma_drain_all_pages(mm);
	assert_int_equal(free_pages_of_type(z, MIGRATE_UNMOVABLE), unmovable_before);
	spin_lock(&z->lock);
	set_pageblock_migratetype(mm, pfn, MIGRATE_MOVABLE);
	spin_unlock(&z->lock);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: rmqueue_bulk records CMA for pages it takes from CMA
 * pageblocks, so that they go back to the CMA lists, not MOVABLE.
 */
static void pcp_rmqueue_bulk_keeps_cma_type(void **state)
{
	/*
	 * 80 MiB of Normal: batch 3 under every release, so a refill leaves
	 * CMA pages on the list (from 3.9 the batch comes from the managed
	 * pages at boot, which leave the area out: 64 MiB gives 1)
	 */
	struct cma_mm *mm = test_mm(TEST_CMA_32M, .size = 96 * MiB);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	struct per_cpu_pages *pcp = &mm->slots[0].pcp[ZONE_NORMAL];
	unsigned long cma_start = (32 * MiB) >> 12, cma_free;
	struct cma_page *pages[20000];
	int n = 0, found = 0;

	for (struct zone *zz = mm->zones; zz < mm->zones + MAX_NR_ZONES; zz++) {
		memset(zz->watermark, 0, sizeof(zz->watermark));
		memset(zz->lowmem_reserve, 0, sizeof(zz->lowmem_reserve));
	}
	/*
	 * movable allocations until a refill leaves pages of the CMA area on
	 * the list (a refill may straddle the last Movable pages)
	 */
	while (!found && n < 20000) {
		pages[n] = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
		assert_non_null(pages[n++]);
		for (struct cma_page *p = page_list_first(mm, &pcp->lists[MIGRATE_MOVABLE]); p;
		     p = page_list_next(mm, p))
			if (cma_page_to_pfn(mm, p) >= cma_start && cma_page_to_pfn(mm, p) < cma_start + 4096) {
				assert_int_equal(p->private, MIGRATE_CMA);
				found++;
			}
	}
	assert_true(found > 0);
	while (n)
		cma_free_pages(mm, pages[--n], 0);
	cma_drain_all_pages(mm);
	cma_free = zone_page_state(z, NR_FREE_CMA_PAGES);
	assert_int_equal(cma_free, 4096);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

struct bound_ctx {
	struct cma_mm *mm;
	struct cma_page *page;
};

/* Expect: each thread's frees land on its own slot; drain_all empties all. */
static void pcp_bind_cpu_and_drain_all(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .cpus = 2, .metadata_only = true);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long before = zone_page_state(z, NR_FREE_PAGES);
	struct cma_page *a, *b;

	cma_mm_bind_cpu(mm, 1);
	a = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_true(pcp_count(mm, 1, ZONE_NORMAL) > 0);
	assert_int_equal(pcp_count(mm, 0, ZONE_NORMAL), 0);
	cma_mm_bind_cpu(mm, 0);
	b = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_true(pcp_count(mm, 0, ZONE_NORMAL) > 0);
	cma_free_pages(mm, a, 0);	/* allocated on cpu 1, freed on cpu 0 */
	cma_free_pages(mm, b, 0);
	cma_drain_all_pages(mm);
	assert_int_equal(pcp_count(mm, 0, ZONE_NORMAL), 0);
	assert_int_equal(pcp_count(mm, 1, ZONE_NORMAL), 0);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: drain_all_pages, which passes over slots with empty lists,
 * still finds a lone slot holding DMA pages and another holding Normal
 * pages among eight, and empties both.
 */
static void pcp_drain_all_finds_lone_slots(void **state)
{
	/*
	 * a DMA zone large enough for a pcp high above zero: 48 MiB, 12288
	 * pages less 192 of memmap, batch 1 (32 MiB less its memmap is 0)
	 */
	struct cma_bank bank = { 0, 128 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .zone_dma_end = 48 * MiB,
				     .nr_cpus = 8, .metadata_only = true };
	struct cma_mm *mm = test_boot(&cfg);
	unsigned long before = global_page_state(mm, NR_FREE_PAGES);
	struct cma_page *dma, *normal;

	cma_mm_bind_cpu(mm, 5);
	dma = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_DMA, 0);
	assert_non_null(dma);
	cma_free_pages(mm, dma, 0);
	cma_mm_bind_cpu(mm, 7);
	normal = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_non_null(normal);
	cma_free_pages(mm, normal, 0);
	cma_mm_bind_cpu(mm, 0);
	assert_true(pcp_count(mm, 5, ZONE_DMA) > 0);
	assert_true(pcp_count(mm, 7, ZONE_NORMAL) > 0);
	cma_drain_all_pages(mm);
	for (unsigned cpu = 0; cpu < 8; cpu++)
		for (int zone = 0; zone < MAX_NR_ZONES; zone++)
			assert_int_equal(pcp_count(mm, cpu, zone), 0);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- watermarks ---- */

static unsigned long isqrt(unsigned long x)
{
	unsigned long r = (unsigned long)sqrt((double)x);

	while (r * r > x)
		r--;
	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/*
 * Expect: min_free_kbytes = sqrt(16 * lowmem KiB), clamped to [128, 65536]
 * (init_per_zone_wmark_min), lowmem being the present pages, which
 * exclude the memmap (free_area_init_core). x86-64, 1 GiB: 262144 pages
 * less 262144 * 64 / 4096 = 4096 of memmap leave 258048, 1032192 KiB;
 * sqrt(16 * 1032192) = 4063 (4096 if the memmap were counted). From 3.9
 * (kernel.managed_sizing) lowmem is the managed pages, which also leave
 * out what boot reserved.
 */
static void wmark_min_free_kbytes_formula(void **state)
{
	static const uint64_t sizes[] = { 512 << 10, 64 * MiB, 1 * GiB, 3 * GiB };

	for (unsigned i = 0; i < 4; i++) {
		struct cma_mm *mm = test_mm(.size = sizes[i], .metadata_only = true);
		struct zone *z = &mm->zones[ZONE_NORMAL];
		unsigned long pages = sizes[i] >> 12, memmap = (pages * 64 + 4095) / 4096;
		unsigned long lowmem = mm->kernel.managed_sizing ? z->managed_pages : pages - memmap;
		unsigned long k = isqrt(16 * (lowmem << 2));

		k = k < 128 ? 128 : k > 65536 ? 65536 : k;
		assert_int_equal(mm->min_free_kbytes, k);
		if (sizes[i] == 1 * GiB && !mm->kernel.managed_sizing)
			assert_int_equal(mm->min_free_kbytes, 4063);
		cma_mm_destroy(mm);
	}
}

static const char *const clamp_kernels[] = { "3.5", "5.6", "5.7", "6.12" };

/*
 * Expect: a 320 GiB machine (2 MiB pages, metadata only), whose
 * sqrt(16 * lowmem KiB) is about 73000, gets min_free_kbytes 65536 up
 * to 5.6 and the formula's value from 5.7, whose clamp is 262144
 * ("mm/page_alloc: increase default min_free_kbytes bound"), lowmem
 * being the zone's managed pages there (3.9's managed_sizing).
 */
static void wmark_min_free_kbytes_clamp_by_release(const char *kernel, unsigned i)
{
	unsigned long pages = (320 * GiB) >> 21, memmap = (pages * 64 + (2 * MiB - 1)) / (2 * MiB);
	struct cma_mm *mm = test_mm(.size = 320 * GiB, .page_shift = 21, .metadata_only = true,
				    .kernel = kernel);
	unsigned long lowmem = i ? mm->zones[ZONE_NORMAL].managed_pages : pages - memmap;
	unsigned long k = isqrt(16 * (lowmem << 11));
	unsigned long want = i >= 2 ? k : 65536;

	assert_true(k > 65536 && k < 262144);
	assert_int_equal(mm->kernel.managed_sizing, i > 0);

	if ((unsigned long)mm->min_free_kbytes != want)
		fail_msg("kernel %s: min_free_kbytes %d, expected %lu", kernel,
			 mm->min_free_kbytes, want);
	cma_mm_destroy(mm);
}

static const char *const scale_kernels[] = { "3.5", "4.5", "4.6", "6.12" };

/*
 * Expect (setup_per_zone_wmarks; 795ae7a0de6b "mm: scale kswapd
 * watermarks in proportion to memory", 4.6), x86-64, one zone, 4 KiB
 * pages, sized by v3.5's present pages (the pages less the 64-byte
 * memmap) or, from 3.9, by managed pages, the same here (the vmemmap
 * takes as many pages); present pages are all of them from 3.9:
 * - 4 GiB: 1048576 - 16384 = 1032192 pages, min_free_kbytes =
 *   isqrt(16 * 4128768) = 8127, min = 8127 >> 2 = 2031. Up to 4.5 low =
 *   2031 + 507 = 2538, high = 2031 + 1015 = 3046; from 4.6 the step is
 *   max(507, 1032192 * 10 / 10000 = 1032): low 3063, high 4095.
 * - 128 MiB: 32768 - 512 = 32256 pages, isqrt(16 * 129024) = 1436,
 *   min 359: low 359 + 89 = 448 in all; high 359 + 179 = 538 up to 4.5,
 *   359 + 2 * 89 = 537 from 4.6 (the step, 32, is below 89).
 * - a factor of 100 (vm.watermark_scale_factor = 100) at 4 GiB from 4.6:
 *   step 10321, low 12352, high 22673; no effect before.
 */
static void wmark_scale_factor_by_release(const char *kernel, unsigned i)
{
	static const struct {
		uint64_t size;
		unsigned long present, memmap, min, low[2], high[2];
	} want[] = {
		{ 4 * GiB, 1032192, 16384, 2031, { 2538, 3063 }, { 3046, 4095 } },
		{ 128 * MiB, 32256, 512, 359, { 448, 448 }, { 538, 537 } },
	};
	bool scaled = i >= 2;

	for (unsigned w = 0; w < 2; w++) {
		struct cma_mm *mm = test_mm(.size = want[w].size, .metadata_only = true, .kernel = kernel);
		struct zone *z = &mm->zones[ZONE_NORMAL];

		assert_int_equal(mm->kernel.watermark_scale, scaled);
		assert_int_equal(z->present_pages, want[w].present + (i ? want[w].memmap : 0));
		assert_int_equal(z->managed_pages, want[w].present);
		assert_int_equal(min_wmark_pages(z), want[w].min);
		if (low_wmark_pages(z) != want[w].low[scaled] || high_wmark_pages(z) != want[w].high[scaled])
			fail_msg("kernel %s, %lu pages: low %lu high %lu, expected %lu %lu", kernel,
				 want[w].present, low_wmark_pages(z), high_wmark_pages(z),
				 want[w].low[scaled], want[w].high[scaled]);
		if (w == 0) {
			mm->watermark_scale_factor = 100;
			setup_per_zone_wmarks(mm);
			assert_int_equal(min_wmark_pages(z), 2031);
			assert_int_equal(low_wmark_pages(z), scaled ? 12352 : 2538);
			assert_int_equal(high_wmark_pages(z), scaled ? 22673 : 3046);
		}
		cma_mm_destroy(mm);
	}
}

static const char *const nonblock_kernels[] = { "3.5", "4.3", "4.4", "6.2", "6.3", "6.12" };

/*
 * Expect (gfp_to_alloc_flags, __zone_watermark_ok), x86-64 64 MiB, one
 * zone: 16128 present pages, min_free_kbytes isqrt(16 * 64512) = 1015,
 * min 253; from 3.9 the 15872 managed pages: isqrt(16 * 63488) = 1007,
 * min 251. Free pages, which leave out the per-CPU lists' (a refill
 * passes the check, then the allocations it feeds do not): a request
 * that can neither sleep nor has __GFP_HIGH (GFP_NOWAIT) runs them down
 * to min - min/4 (190; 189) up to 4.3; from 4.4 (d0164adc89f6, no
 * ALLOC_HARDER) and from 6.3 (ALLOC_NON_BLOCK counts only with
 * ALLOC_MIN_RESERVE) it stops above that, at min or below. GFP_ATOMIC
 * then goes on to min - min/2, less a quarter (253 - 126 = 127, less
 * 31: 96; 251 - 125 = 126, less 31: 95), in all.
 */
static void wmark_nonblocking_needs_gfp_high(const char *kernel, unsigned i)
{
	static const struct { unsigned long managed, min, nowait, atomic; } want[] = {
		{ 16128, 253, 190, 96 },	/* present pages, 3.5 */
		{ 15872, 251, 189, 95 },	/* managed pages, 3.9 on */
	};
	struct cma_mm *mm = test_mm(.size = 64 * MiB, .metadata_only = true, .kernel = kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long n = 0, free;
	unsigned w = mm->kernel.managed_sizing;

	assert_int_equal(w, i > 0);
	assert_int_equal(sizing(mm, z), want[w].managed);
	assert_int_equal(min_wmark_pages(z), want[w].min);
	while (cma_alloc_pages(mm, CMA_GFP_NOWARN, 0))
		n++;
	free = zone_page_state(z, NR_FREE_PAGES);
	if (free > want[w].min || (i < 2 ? free > want[w].nowait : free <= want[w].nowait))
		fail_msg("kernel %s: GFP_NOWAIT stopped at %lu free pages after %lu", kernel, free, n);
	while (cma_alloc_pages(mm, CMA_GFP_ATOMIC | CMA_GFP_NOWARN, 0))
		n++;
	free = zone_page_state(z, NR_FREE_PAGES);
	if (free > want[w].atomic)
		fail_msg("kernel %s: GFP_ATOMIC stopped at %lu free pages", kernel, free);
	cma_mm_destroy(mm);
}

/*
 * Expect (__zone_watermark_ok; "mm/page_alloc: explicitly define how
 * __GFP_HIGH non-blocking allocations accesses reserves", 6.3): free
 * pages between 3/4 of a mark and the mark pass with ALLOC_HARDER alone
 * up to 6.2, not from 6.3; with ALLOC_HARDER | ALLOC_HIGH in all; with
 * neither in none.
 */
static void wmark_ok_harder_needs_high_from_63(const char *kernel, unsigned i)
{
	struct cma_mm *mm = test_mm(.size = 64 * MiB, .metadata_only = true, .kernel = kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long free = zone_page_state(z, NR_FREE_PAGES), mark = free + free / 8;

	assert_int_equal(mm->kernel.alloc_non_block, i >= 4);
	assert_false(zone_watermark_ok(z, 0, mark, ZONE_NORMAL, 0));
	assert_int_equal(zone_watermark_ok(z, 0, mark, ZONE_NORMAL, ALLOC_HARDER), i < 4);
	assert_true(zone_watermark_ok(z, 0, mark, ZONE_NORMAL, ALLOC_HARDER | ALLOC_HIGH));
	cma_mm_destroy(mm);
}

/*
 * Expect, per zone: min = pages_min * size / lowmem (highmem:
 * size/1024 in [32, 128]), low = min + share/4, high = min + share/2;
 * from 4.6 (kernel.watermark_scale) a step of max(share/4, size *
 * 10 / 10000) between each. The size is the present pages, the managed
 * ones from 3.9 (kernel.managed_sizing).
 */
static void wmark_per_zone_formula(void **state)
{
	struct cma_bank bank = { 0x40000000, 1 * GiB };
	struct cma_mm_config cfg = { .arch = CMA_ARCH_ARM, .banks = &bank, .nr_banks = 1,
				     .zone_dma_end = 0x41000000, .highmem_start = 0x70000000,
				     .metadata_only = true };
	struct cma_mm *mm = test_boot(&cfg);
	unsigned long pages_min = (unsigned long)mm->min_free_kbytes >> 2, lowmem = 0;
	struct zone *z;

	for_each_populated_zone(mm, z)
		if (z->idx != ZONE_HIGHMEM)
			lowmem += z->present_pages;
	/* 32-bit ARM's 32-byte struct page: DMA 4096 - 32, Normal 192512 - 1504 (none from 3.9) */
	assert_int_equal(lowmem, ((0x70000000 - 0x40000000) >> 12) -
				 (mm->kernel.managed_sizing ? 0 : 32 + 1504));
	if (mm->kernel.managed_sizing) {
		lowmem = 0;
		for_each_populated_zone(mm, z)
			if (z->idx != ZONE_HIGHMEM)
				lowmem += z->managed_pages;
	}
	for_each_populated_zone(mm, z) {
		unsigned long share = pages_min * sizing(mm, z) / lowmem;
		unsigned long min = share;

		if (z->idx == ZONE_HIGHMEM) {
			min = sizing(mm, z) / 1024;
			min = min < 32 ? 32 : min > 128 ? 128 : min;
		}
		unsigned long step = share / 4, scaled = sizing(mm, z) * 10 / 10000;

		if (mm->kernel.watermark_scale && scaled > step)
			step = scaled;
		assert_int_equal(min_wmark_pages(z), min);
		assert_int_equal(low_wmark_pages(z), min + step);
		assert_int_equal(high_wmark_pages(z),
				 min + (mm->kernel.watermark_scale ? 2 * step : share / 2));
	}
	/* min_cma_pages raises all three (seed 008) */
	z = &mm->zones[ZONE_NORMAL];
	{
		unsigned long min = min_wmark_pages(z), low = low_wmark_pages(z), high = high_wmark_pages(z);

		z->min_cma_pages = 100;
		setup_per_zone_wmarks(mm);
		assert_int_equal(min_wmark_pages(z), min + 100);
		assert_int_equal(low_wmark_pages(z), low + 100);
		assert_int_equal(high_wmark_pages(z), high + 100);
		z->min_cma_pages = 0;
		setup_per_zone_wmarks(mm);
		assert_int_equal(min_wmark_pages(z), min);
	}
	cma_mm_destroy(mm);
}

/* Expect: lowmem_reserve[j] of a lower zone = pages (sizing()) of zones above it up to j / ratio. */
static void wmark_lowmem_reserve_ratios(void **state)
{
	struct cma_bank bank = { 0, 2 * GiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .zone_dma_end = 16 * MiB,
				     .zone_dma32_end = 1 * GiB, .metadata_only = true };
	struct cma_mm *mm = test_boot(&cfg);
	struct zone *dma = &mm->zones[ZONE_DMA], *dma32 = &mm->zones[ZONE_DMA32];
	struct zone *normal = &mm->zones[ZONE_NORMAL];

	assert_int_equal(dma->lowmem_reserve[ZONE_DMA], 0);
	assert_int_equal(dma->lowmem_reserve[ZONE_DMA32], sizing(mm, dma32) / 256);
	assert_int_equal(dma->lowmem_reserve[ZONE_NORMAL],
			 (sizing(mm, dma32) + sizing(mm, normal)) / 256);
	assert_int_equal(dma32->lowmem_reserve[ZONE_NORMAL], sizing(mm, normal) / 256);
	assert_int_equal(normal->lowmem_reserve[ZONE_NORMAL], 0);
	/* a GFP_KERNEL request may not dip into DMA32's reserve for Normal */
	assert_false(zone_watermark_ok(dma32, 0, zone_page_state(dma32, NR_FREE_PAGES) -
				       dma32->lowmem_reserve[ZONE_NORMAL], ZONE_NORMAL, 0));
	assert_true(zone_watermark_ok(dma32, 0, zone_page_state(dma32, NR_FREE_PAGES) -
				      dma32->lowmem_reserve[ZONE_NORMAL] - 1, ZONE_NORMAL, 0));
	cma_mm_destroy(mm);
}

/*
 * Expect: zone_watermark_ok(order) discounts the free pages of lower
 * orders: a zone whose free memory is all order-0 fails any order-1 check.
 */
static void wmark_ok_discounts_lower_orders(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	static struct cma_page *pages[16384];
	int n = 0;

	memset(z->watermark, 0, sizeof(z->watermark));
	/*
	 * Until a round takes nothing: the last refill of the per-CPU list
	 * can strand pages there once NR_FREE_PAGES (buddy only) reads 0;
	 * drained, they go (6.7's refills grow, so that may take rounds).
	 */
	n = (int)test_alloc_all(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, pages, 16384);
	/* free every other page: nothing can merge */
	for (int i = 0; i < n; i++)
		if (cma_page_to_pfn(mm, pages[i]) % 2 == 0) {
			cma_free_pages(mm, pages[i], 0);
			pages[i] = NULL;
		}
	cma_drain_all_pages(mm);
	assert_int_equal(zone_page_state(z, NR_FREE_PAGES), z->free_area[0].nr_free);
	assert_true(zone_page_state(z, NR_FREE_PAGES) > 1000);
	assert_true(zone_watermark_ok(z, 0, 10, ZONE_NORMAL, 0));
	assert_false(zone_watermark_ok(z, 1, 0, ZONE_NORMAL, 0));
	assert_null(cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 1));
	/* order 0: the mark itself, with ALLOC_HIGH halving it */
	{
		unsigned long f = zone_page_state(z, NR_FREE_PAGES);

		assert_false(zone_watermark_ok(z, 0, f, ZONE_NORMAL, 0));
		assert_true(zone_watermark_ok(z, 0, f - 1, ZONE_NORMAL, 0));
		assert_true(zone_watermark_ok(z, 0, 2 * f - 2, ZONE_NORMAL, ALLOC_HIGH));
	}
	for (int i = 0; i < n; i++)
		if (pages[i])
			cma_free_pages(mm, pages[i], 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static int count_blocks(struct cma_mm *mm, struct zone *z, int mt)
{
	int n = 0;

	for (unsigned long pfn = z->zone_start_pfn; pfn < z->zone_start_pfn + z->spanned_pages;
	     pfn += mm->pageblock_nr_pages)
		n += get_pageblock_migratetype(mm, pfn) == mt;
	return n;
}

/*
 * Expect: RESERVE blocks = min(2, ceil(min / pageblock)), only on blocks
 * with no reserved page; when min falls the surplus goes back to MOVABLE.
 */
static void wmark_migrate_reserve_follows_min(void **state)
{
	/* v3.5's setup_zone_migrate_reserve, gone in 4.4 */
	SKIP_UNLESS_KERNEL_35();
	struct cma_bank bank = { 0, 1 * GiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 9,
				     .metadata_only = true, .cmdline = "cma=0" };
	struct cma_mm *mm = NULL;
	struct zone *z;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	/* a reserved page in the first pageblock keeps it out of the reserve */
	assert_int_equal(cma_memblock_reserve(mm, 4096, 4096), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	z = &mm->zones[ZONE_NORMAL];
	/* min_free_kbytes 4063 (present 258048): min 1015 pages over 512-page blocks: 2 */
	assert_int_equal(min_wmark_pages(z), 1015);
	assert_int_equal(count_blocks(mm, z, MIGRATE_RESERVE), 2);
	assert_int_not_equal(get_pageblock_migratetype(mm, 0), MIGRATE_RESERVE);
	mm->min_free_kbytes = 1024;	/* min 256 pages: one block */
	setup_per_zone_wmarks(mm);
	assert_int_equal(count_blocks(mm, z, MIGRATE_RESERVE), 1);
	assert_int_equal(count_blocks(mm, z, MIGRATE_MOVABLE), 1024 * 1024 / 4 / 512 - 1);
	mm->min_free_kbytes = 65536;	/* never more than 2 */
	setup_per_zone_wmarks(mm);
	assert_int_equal(count_blocks(mm, z, MIGRATE_RESERVE), 2);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * The seed's setup_zone_migrate_reserve, written plainly over a copy of
 * the pageblock types: each block's pages are scanned for holes and
 * reserved pages before its type is looked at, and validity comes from
 * memblock, so neither the type-first order nor the clean-block memory
 * nor pfn_valid's fast path of the library is used here.
 */
static bool ref_block_reserved(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	for (unsigned long pfn = start; pfn < end; pfn++)
		if (!memblock_is_memory(&mm->memblock, (cma_phys_t)pfn << mm->page_shift) ||
		    page_test(pfn_to_page(mm, pfn), PG_reserved))
			return true;
	return false;
}

static void ref_migrate_reserve(struct cma_mm *mm, struct zone *z, uint8_t *mt)
{
	unsigned long nr = mm->pageblock_nr_pages;
	unsigned long end = z->zone_start_pfn + z->spanned_pages;
	long reserve = (long)((min_wmark_pages(z) + nr - 1) / nr);

	reserve = reserve > 2 ? 2 : reserve;
	for (unsigned long pfn = (z->zone_start_pfn + nr - 1) & ~(nr - 1); pfn < end; pfn += nr) {
		uint8_t *t = &mt[(pfn - mm->base_pfn) / nr];

		if (!memblock_is_memory(&mm->memblock, (cma_phys_t)pfn << mm->page_shift))
			continue;
		if (reserve > 0) {
			if (ref_block_reserved(mm, pfn, pfn + nr < end ? pfn + nr : end))
				continue;
			if (*t == MIGRATE_RESERVE || *t == MIGRATE_MOVABLE) {
				*t = MIGRATE_RESERVE;
				reserve--;
				continue;
			}
		}
		if (*t == MIGRATE_RESERVE)
			*t = MIGRATE_MOVABLE;
	}
}

/* Give the pageblock at @pfn type @mt, its free pages following, as a steal would. */
static void retype_block(struct cma_mm *mm, unsigned long pfn, int mt)
{
	struct zone *z = pfn_zone(mm, pfn);

	spin_lock(&z->lock);
	set_pageblock_migratetype(mm, pfn, mt);
	move_freepages_block(z, pfn_to_page(mm, pfn), mt);
	spin_unlock(&z->lock);
}

/*
 *   DMA 0..17M | Normal 17M..        (the block at 16M straddles both)
 *   bank 0..23M+20K, hole, bank 24M+8K..64M+8K, reserved pages here and there
 * Expect: whatever the mix of block types and the min mark, the RESERVE
 * blocks setup_per_zone_wmarks chooses are the ones the seed's walk
 * chooses, round after round (blocks once found clean are not rescanned).
 */
static void wmark_migrate_reserve_matches_seed_walk(void **state)
{
	/* v3.5's setup_zone_migrate_reserve, gone in 4.4 */
	SKIP_UNLESS_KERNEL_35();
	static const struct cma_bank banks[] = { { 0, 23 * MiB + 20 * KiB },
						 { 24 * MiB + 8 * KiB, 40 * MiB } };
	static const cma_phys_t reserved[] = { 3 * MiB + 4 * KiB, 16 * MiB + 512 * KiB,
					       17 * MiB + 64 * KiB, 41 * MiB, 63 * MiB + 12 * KiB };
	static const int types[] = { MIGRATE_UNMOVABLE, MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE,
				     MIGRATE_MOVABLE, MIGRATE_RESERVE };
	struct cma_mm_config cfg = { .banks = banks, .nr_banks = 2, .pageblock_order = 9,
				     .zone_dma_end = 17 * MiB, .metadata_only = true,
				     .cmdline = "cma=0" };
	uint64_t rnd = test_seed("wmark_migrate_reserve_matches_seed_walk");
	struct cma_mm *mm = NULL;
	unsigned long nr_blocks;
	uint8_t *want;
	struct zone *z;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		assert_int_equal(cma_memblock_reserve(mm, reserved[i], 4 * KiB), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	nr_blocks = (mm->end_pfn - mm->base_pfn) / mm->pageblock_nr_pages;
	want = malloc(nr_blocks);
	assert_non_null(want);
	for (int round = 0; round < 200; round++) {
		for (unsigned long b = 0; b < nr_blocks; b++) {
			unsigned long pfn = mm->base_pfn + b * mm->pageblock_nr_pages;

			if (pfn_valid(mm, pfn) && prandom_u64_state(&rnd) % 4 == 0)
				retype_block(mm, pfn, types[prandom_u64_state(&rnd) % 5]);
		}
		mm->min_free_kbytes = (int)(128 + prandom_u64_state(&rnd) % 8192);
		for (unsigned long b = 0; b < nr_blocks; b++)
			want[b] = (uint8_t)get_pageblock_migratetype(mm, mm->base_pfn + b * mm->pageblock_nr_pages);
		setup_per_zone_wmarks(mm);
		for_each_populated_zone(mm, z)
			ref_migrate_reserve(mm, z, want);
		for (unsigned long b = 0; b < nr_blocks; b++) {
			unsigned long pfn = mm->base_pfn + b * mm->pageblock_nr_pages;
			int found = get_pageblock_migratetype(mm, pfn);

			if (pfn_valid(mm, pfn) && found != want[b]) {
				print_error("round %d, min_free_kbytes %d, block at pfn %#lx: expected %s, found %s\n",
					    round, mm->min_free_kbytes, pfn, migratetype_name(want[b]),
					    migratetype_name(found));
				fail();
			}
		}
		assert_verify(mm);
	}
	free(want);
	cma_mm_destroy(mm);
}

static const char *const sizing_kernels[] = { "3.5", "3.8", "3.9", "6.12" };

/*
 * Expect (b40da04946aa, 3.9: kernel.managed_sizing), x86-64 208 MiB, DMA
 * below 16 MiB, 32 MiB of CMA at 64 MiB: each zone's share of
 * min_free_kbytes (its min) and lowmem_reserve follow the zones' present pages up to 3.8 and
 * their managed pages from 3.9. The pcp batch follows the Normal zone's
 * present pages (15) up to 3.8; from 3.9 its managed pages when the
 * per-CPU lists are set up, before the CMA area joins (7); from 5.14,
 * which sets the lists again with the marks, its managed pages with the
 * area (15 again).
 */
static void wmark_sizing_by_release(const char *kernel, unsigned i)
{
	struct cma_mm *mm = test_mm(.size = 208 * MiB, .dma_end = 16 * MiB, .cma_base = 64 * MiB,
				    .cma_size = 32 * MiB, .metadata_only = true, .kernel = kernel);
	struct zone *dma = &mm->zones[ZONE_DMA], *normal = &mm->zones[ZONE_NORMAL];
	unsigned long lowmem = sizing(mm, dma) + sizing(mm, normal);
	unsigned long pages_min = (unsigned long)mm->min_free_kbytes >> 2, boot;
	int batch;

	assert_int_equal(mm->kernel.managed_sizing, i >= 2);
	assert_int_equal(normal->cma_pages, (32 * MiB) >> 12);
	/* v3.5's present less the memmap tells the two sizings apart in DMA too; from 3.9 only Normal */
	assert_int_equal(dma->present_pages, i >= 2 ? 4096 : 4096 - 64);
	assert_int_equal(dma->managed_pages, 4096);
	assert_true(normal->managed_pages < normal->present_pages);
	assert_int_equal(min_wmark_pages(dma), pages_min * sizing(mm, dma) / lowmem);
	assert_int_equal(min_wmark_pages(normal), pages_min * sizing(mm, normal) / lowmem);
	assert_int_equal(dma->lowmem_reserve[ZONE_NORMAL], sizing(mm, normal) / 256);
	boot = !mm->kernel.managed_sizing ? normal->present_pages :
	       mm->kernel.pcp_high_lowmark ? normal->managed_pages :
	       normal->managed_pages - normal->cma_pages;
	batch = expected_batch(mm, boot);
	assert_int_equal(batch, i == 2 ? 7 : 15);
	assert_int_equal(mm->slots[0].pcp[ZONE_NORMAL].batch, batch);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pcp_batch_and_high_follow_zone_size),
		cmocka_unit_test(pcp_free_above_high_drains_a_batch),
		cmocka_unit_test(pcp_drain_frees_to_recorded_type),
		cmocka_unit_test(pcp_rmqueue_bulk_keeps_cma_type),
		cmocka_unit_test(pcp_bind_cpu_and_drain_all),
		cmocka_unit_test(pcp_drain_all_finds_lone_slots),
		cmocka_unit_test(wmark_min_free_kbytes_formula),
		cmocka_unit_test(wmark_per_zone_formula),
		cmocka_unit_test(wmark_lowmem_reserve_ratios),
		cmocka_unit_test(wmark_ok_discounts_lower_orders),
		cmocka_unit_test(wmark_migrate_reserve_follows_min),
		cmocka_unit_test(wmark_migrate_reserve_matches_seed_walk),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(wmark_min_free_kbytes_clamp_by_release, clamp_kernels),
		test_kernel_case(wmark_scale_factor_by_release, scale_kernels),
		test_kernel_case(wmark_nonblocking_needs_gfp_high, nonblock_kernels),
		test_kernel_case(wmark_ok_harder_needs_high_from_63, nonblock_kernels),
		test_kernel_case(wmark_sizing_by_release, sizing_kernels),
	};

	return cmocka_run_group_tests_name("pcp_wmark", tests, NULL, NULL) +
	       test_run_kernel_cases("pcp_wmark (per kernel)", kernel_cases);
}
