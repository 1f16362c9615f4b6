// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for the machine's life (src/mm/mmzone.c): cma_mm_create refusing
 * malformed configurations, the boot phases, zone layout on x86- and
 * ARM-like machines and across holes, the release of free memory to the
 * buddy allocator in the largest aligned blocks, page addresses, other
 * page sizes, grouping by mobility on small machines, the boot log, and
 * per-CPU slot binding.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* ---- bad configurations ---- */

/* Expect: -EINVAL, and *mmp set to NULL (it starts as garbage). */
static void expect_create_einval(const struct cma_mm_config *cfg, const char *what)
{
	static int garbage;
	struct cma_mm *mm = (struct cma_mm *)&garbage;
	int ret = cma_mm_create(cfg, &mm);

	if (ret != -EINVAL || mm != NULL) {
		print_error("cma_mm_create(%s): expected -EINVAL and *mmp NULL, found %d and *mmp %p\n",
			    what, ret, (void *)mm);
		if (ret == 0 && mm && mm != (struct cma_mm *)&garbage)
			cma_mm_destroy(mm);
		fail();
	}
}

static const struct cma_bank bank_64m = { 0, 64 * MiB };

static void mm_create_null_cfg_einval(void **state)
{
	expect_create_einval(NULL, "NULL cfg");
	assert_int_equal(cma_mm_create(&(struct cma_mm_config){ .banks = &bank_64m, .nr_banks = 1 },
				       NULL), -EINVAL);
}

static void mm_create_no_banks_einval(void **state)
{
	expect_create_einval(&(struct cma_mm_config){ .banks = &bank_64m, .nr_banks = 0 }, "zero banks");
	expect_create_einval(&(struct cma_mm_config){ .banks = NULL, .nr_banks = 1 }, "NULL banks");
}

static void mm_create_bad_banks_einval(void **state)
{
	static const struct cma_bank overlapping[] = { { 0, 64 * MiB }, { 32 * MiB, 64 * MiB } };
	static const struct cma_bank descending[] = { { 128 * MiB, 64 * MiB }, { 0, 64 * MiB } };
	static const struct cma_bank unaligned_base[] = { { 0x800, 64 * MiB } };
	static const struct cma_bank unaligned_size[] = { { 0, 64 * MiB + 0x800 } };
	static const struct cma_bank zero_size[] = { { 0, 64 * MiB }, { 128 * MiB, 0 } };
	static const struct cma_bank wrapping[] = { { UINT64_MAX - 64 * MiB + 1, 128 * MiB } };

	expect_create_einval(&(struct cma_mm_config){ .banks = overlapping, .nr_banks = 2 },
			     "overlapping banks");
	expect_create_einval(&(struct cma_mm_config){ .banks = descending, .nr_banks = 2 },
			     "descending banks");
	expect_create_einval(&(struct cma_mm_config){ .banks = unaligned_base, .nr_banks = 1 },
			     "bank base not page-aligned");
	expect_create_einval(&(struct cma_mm_config){ .banks = unaligned_size, .nr_banks = 1 },
			     "bank size not page-aligned");
	expect_create_einval(&(struct cma_mm_config){ .banks = zero_size, .nr_banks = 2 },
			     "zero-size bank");
	expect_create_einval(&(struct cma_mm_config){ .banks = wrapping, .nr_banks = 1 },
			     "bank wrapping the address space");
}

/*
 * Expect: swap beyond one area's 2^32 pages (the swap header's __u32
 * last_page) is -EINVAL, before any of it is allocated; the fuzzer's
 * all-ones SwapTotal once reached calloc instead.
 */
static void mm_create_swap_beyond_header_einval(void **state)
{
	expect_create_einval(&(struct cma_mm_config){ .banks = &bank_64m, .nr_banks = 1,
						      .swap_bytes = ((1ull << 32) + 1) << 12 },
			     "2^32 + 1 pages of swap");
	expect_create_einval(&(struct cma_mm_config){ .banks = &bank_64m, .nr_banks = 1,
						      .swap_bytes = UINT64_MAX & ~0xfffull },
			     "all-ones swap");
	expect_create_einval(&(struct cma_mm_config){ .banks = &bank_64m, .nr_banks = 1, .page_shift = 16,
						      .swap_bytes = ((1ull << 32) + 1) << 16 },
			     "2^32 + 1 64 KiB pages of swap");
}

/*
 * Expect: "3.5", "6.12" and the releases between ("4.19") are profiles,
 * NULL is 3.5 (through the real cma_mm_create: the suite's wrapper would
 * fill in CMA_TEST_KERNEL), and any other name is -EINVAL.
 */
static void mm_create_kernel_profile(void **state)
{
	static const char *const names[] = { NULL, "3.5", "6.12", "4.19" };
	static const char *const expect[] = { "3.5", "3.5", "6.12", "4.19" };
	struct cma_mm_config cfg = { .banks = &bank_64m, .nr_banks = 1, .cmdline = "cma=0" };
	struct cma_mm *mm;

	for (unsigned i = 0; i < 4; i++) {
		cfg.kernel = names[i];
		assert_int_equal(__real_cma_mm_create(&cfg, &mm), 0);
		assert_string_equal(cma_mm_kernel(mm), expect[i]);
		cma_mm_destroy(mm);
	}
	cfg.kernel = "6.13";
	expect_create_einval(&cfg, "kernel 6.13");
	cfg.kernel = "";
	expect_create_einval(&cfg, "kernel \"\"");
}

static void mm_create_bad_geometry_einval(void **state)
{
	struct cma_mm_config cfg = { .banks = &bank_64m, .nr_banks = 1 };
	struct cma_mm *mm = NULL;

	cfg.page_shift = 9;
	expect_create_einval(&cfg, "page_shift 9");
	cfg.page_shift = 22;
	expect_create_einval(&cfg, "page_shift 22");
	cfg.page_shift = 0;
	cfg.max_order = 25;
	expect_create_einval(&cfg, "max_order 25");
	cfg.max_order = 11;
	cfg.pageblock_order = 11;
	expect_create_einval(&cfg, "pageblock_order 11 > max_order - 1");
	cfg.max_order = 8;
	cfg.pageblock_order = 9;
	expect_create_einval(&cfg, "pageblock_order 9 with max_order 8");

	/* 0 means the defaults: MAX_ORDER 11, pageblock_order MAX_ORDER - 1, 4 KiB pages */
	cfg.max_order = 0;
	cfg.pageblock_order = 0;
	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(mm->max_order, 11);
	assert_int_equal(mm->pageblock_order, 10);
	assert_int_equal(mm->page_size, 4096);
	cma_mm_destroy(mm);
}

static void mm_create_zone_limits_not_ascending_einval(void **state)
{
	struct cma_mm_config cfg = { .banks = &bank_64m, .nr_banks = 1 };

	cfg.zone_dma_end = 16 * MiB;
	cfg.zone_dma32_end = 16 * MiB;
	expect_create_einval(&cfg, "zone_dma32_end == zone_dma_end");
	cfg.zone_dma32_end = 8 * MiB;
	expect_create_einval(&cfg, "zone_dma32_end < zone_dma_end");
	cfg.zone_dma32_end = 0;
	cfg.highmem_start = 16 * MiB;
	expect_create_einval(&cfg, "highmem_start == zone_dma_end");
	cfg.zone_dma_end = 0;
	cfg.zone_dma32_end = 4 * GiB;
	cfg.highmem_start = 32 * MiB;
	expect_create_einval(&cfg, "highmem_start < zone_dma32_end");
	cfg.zone_dma32_end = 0;
	cfg.highmem_start = 32 * MiB + 0x800;
	expect_create_einval(&cfg, "highmem_start not page-aligned");
}

/* ---- phases ---- */

static void mm_boot_twice_einval_changes_nothing(void **state)
{
	struct cma_mm *mm = test_mm();
	unsigned long free_pages = global_page_state(mm, NR_FREE_PAGES);
	struct cma_page *mem_map = mm->mem_map;
	unsigned long totalram = mm->totalram_pages;

	assert_int_equal(cma_mm_boot(mm), -EINVAL);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), free_pages);
	assert_ptr_equal(mm->mem_map, mem_map);
	assert_int_equal(mm->totalram_pages, totalram);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: before boot there are no pages: allocation fails, pfns have no page. */
static void alloc_pages_before_boot_null(void **state)
{
	struct cma_mm_config cfg = { .banks = &bank_64m, .nr_banks = 1, .cmdline = "cma=0" };
	struct cma_mm *mm = NULL;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_null(cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0));
	assert_null(cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, 3));
	assert_null(cma_pfn_to_page(mm, 100));
	assert_int_equal(cma_pageblock_migratetype(mm, 100), -EINVAL);
	cma_mm_destroy(mm);
}

/* ---- zones ---- */

static void expect_zone(struct cma_mm *mm, enum zone_type idx, unsigned long start,
			unsigned long spanned, unsigned long present)
{
	struct zone *z = &mm->zones[idx];

	if (present && (z->zone_start_pfn != start || z->spanned_pages != spanned)) {
		print_error("zone %s: expected pfns [%#lx, %#lx), found [%#lx, %#lx)\n",
			    z->name, start, start + spanned, z->zone_start_pfn,
			    z->zone_start_pfn + z->spanned_pages);
		fail();
	}
	if (z->present_pages != present) {
		print_error("zone %s: expected %lu present pages, found %lu\n", z->name, present,
			    z->present_pages);
		fail();
	}
}

/*
 * A zone's present pages under the run's profile: all @pages it holds
 * from 3.9 (managed_sizing), less what v3.5's free_area_init_core took
 * from them (@taken: the memmap, dma_reserve) before. test_zone_present
 * checks both sides of the boundary.
 */
static unsigned long profile_present(unsigned long pages, unsigned long taken)
{
	return cma_kernel_has(test_kernel(), "managed_sizing") == 1 ? pages : pages - taken;
}

/*
 * x86: 1 GiB at 0, ZONE_DMA below 16 MiB, ZONE_DMA32 below 4 GiB.
 * Expect: DMA pfns [0, 4096), DMA32 the rest, Normal empty; present pages
 * (profile_present) less the memmap up to 3.8 (free_area_init_core,
 * 64-byte struct page): DMA 4096 - 4096 * 64 / 4096 = 4032, DMA32
 * 258048 - 4032 = 254016; every page free but the vmemmap's: 8 sections
 * of 128 MiB, 2 MiB each, 4096 pages.
 */
static void mm_boot_zones_x86(void **state)
{
	struct cma_bank bank = { 0, 1 * GiB };
	struct cma_mm_config cfg = {
		.banks = &bank, .nr_banks = 1, .zone_dma_end = 16 * MiB, .zone_dma32_end = 4 * GiB,
		.metadata_only = true, .cmdline = "cma=0",
	};
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_page *page;

	expect_zone(mm, ZONE_DMA, 0, 4096, profile_present(4096, 64));
	expect_zone(mm, ZONE_DMA32, 4096, 262144 - 4096, profile_present(258048, 4032));
	expect_zone(mm, ZONE_NORMAL, 0, 0, 0);
	expect_zone(mm, ZONE_HIGHMEM, 0, 0, 0);
	expect_zone(mm, ZONE_MOVABLE, 0, 0, 0);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), 262144 - 4096);

	page = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_DMA, 0);
	assert_non_null(page);
	assert_true(cma_page_to_pfn(mm, page) < 4096);
	cma_free_pages(mm, page, 0);
	page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_non_null(page);
	assert_true(cma_page_to_pfn(mm, page) >= 4096);
	cma_free_pages(mm, page, 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * ARM: 1 GiB at 0x40000000, highmem from 0x70000000.
 * Expect: Normal pfns [0x40000, 0x70000), HighMem [0x70000, 0x80000);
 * present less the memmap up to 3.8 (32-byte struct page): Normal
 * 196608 - 1536, HighMem 65536 - 512.
 */
static void mm_boot_zones_arm_highmem(void **state)
{
	struct cma_bank bank = { 0x40000000, 1 * GiB };
	struct cma_mm_config cfg = {
		.arch = CMA_ARCH_ARM, .banks = &bank, .nr_banks = 1, .highmem_start = 0x70000000,
		.metadata_only = true, .cmdline = "cma=0",
	};
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_page *page;
	unsigned long pfn;

	expect_zone(mm, ZONE_DMA, 0, 0, 0);
	expect_zone(mm, ZONE_DMA32, 0, 0, 0);
	expect_zone(mm, ZONE_NORMAL, 0x40000, 0x30000, profile_present(0x30000, 1536));
	expect_zone(mm, ZONE_HIGHMEM, 0x70000, 0x10000, profile_present(0x10000, 512));
	assert_null(cma_pfn_to_page(mm, 0x3ffff));
	assert_non_null(cma_pfn_to_page(mm, 0x40000));
	assert_non_null(cma_pfn_to_page(mm, 0x7ffff));
	assert_null(cma_pfn_to_page(mm, 0x80000));

	page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_non_null(page);
	pfn = cma_page_to_pfn(mm, page);
	if (pfn < 0x40000 || pfn >= 0x70000) {
		print_error("GFP_KERNEL: expected a lowmem pfn, found %#lx\n", pfn);
		fail();
	}
	cma_free_pages(mm, page, 0);
	page = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(page);
	pfn = cma_page_to_pfn(mm, page);
	if (pfn < 0x70000 || pfn >= 0x80000) {
		print_error("GFP_HIGHUSER_MOVABLE: expected a highmem pfn, found %#lx\n", pfn);
		fail();
	}
	cma_free_pages(mm, page, 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 *   0          256M        512M        768M
 *   |---bank---|---hole----|---bank----|
 * Expect: the zone spans the hole but its present pages exclude it (and
 * up to 3.8 the memmap of the whole span, 0x30000 * 64 / 4096 = 3072
 * pages); the vmemmap itself takes 2 MiB for each of the 4 sections that
 * hold memory, 2048 pages, the hole's none; hole pfns have no page;
 * taking every free page never yields one in the hole.
 */
static void mm_boot_hole_excluded(void **state)
{
	static const struct cma_bank banks[] = { { 0, 256 * MiB }, { 512 * MiB, 256 * MiB } };
	struct cma_mm *mm = test_mm(.banks = banks, .nr_banks = 2, .metadata_only = true);
	const unsigned long hole_start = 0x10000, hole_end = 0x20000, present = 0x20000;
	unsigned long free_at_boot, n;
	struct cma_page **pages;

	expect_zone(mm, ZONE_NORMAL, 0, 0x30000, profile_present(present, 3072));
	free_at_boot = global_page_state(mm, NR_FREE_PAGES);
	assert_int_equal(free_at_boot, present - 2048);
	for (unsigned long pfn = hole_start; pfn < hole_end; pfn += 0x1fff) {
		assert_false(pfn_valid(mm, pfn));
		if (cma_pfn_to_page(mm, pfn)) {
			print_error("cma_pfn_to_page(hole pfn %#lx): expected NULL, found a page\n", pfn);
			fail();
		}
		assert_int_equal(cma_pageblock_migratetype(mm, pfn), -EINVAL);
	}
	assert_false(pfn_valid(mm, hole_end - 1));
	assert_true(pfn_valid(mm, hole_start - 1));
	assert_true(pfn_valid(mm, hole_end));
	assert_null(cma_pfn_to_page(mm, 0x30000));

	pages = calloc(present, sizeof(*pages));
	assert_non_null(pages);
	test_zero_watermarks(mm);
	n = test_alloc_all(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, pages, present);
	for (unsigned long i = 0; i < n; i++) {
		unsigned long pfn = cma_page_to_pfn(mm, pages[i]);

		if (pfn >= hole_start && pfn < hole_end) {
			print_error("allocation %lu: expected a pfn outside the hole, found %#lx\n", i, pfn);
			fail();
		}
	}
	if (n != free_at_boot) {
		print_error("expected all %lu free pages allocatable, found %lu\n", free_at_boot, n);
		fail();
	}
	assert_verify(mm);
	for (unsigned long i = 0; i < n; i++)
		cma_free_pages(mm, pages[i], 0);
	cma_drain_all_pages(mm);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), free_at_boot);
	/* everything merged back to order 10 on both sides of the hole; the 8 MiB vmemmap is whole blocks */
	assert_int_equal(mm->zones[ZONE_NORMAL].free_area[10].nr_free, (present - 2048) >> 10);
	assert_verify(mm);
	free(pages);
	cma_mm_destroy(mm);
}

static void expect_log_line(const char *log, const char *line)
{
	if (!strstr(log, line)) {
		print_error("expected the line \"%s\" in the log, found:\n%s\n", line, log);
		fail();
	}
}

/*
 * mem_init after sparse_init (x86-64, SPARSEMEM_VMEMMAP): the memmap's
 * pages are taken from memblock before the buddy allocator gets memory,
 * so MemTotal = RAM - reserved - memmap. cmasim's x86 PC, banks
 * [0, 0x9f000) and [1 MiB, 1 GiB) (159 + 261888 = 262047 pages), 1 MiB at
 * 2 MiB reserved early (256 pages). Expect, worked by hand:
 *   vmemmap  8 sections of 128 MiB hold memory, ALIGN(32768 * 64, 2 MiB)
 *            = 2 MiB each: 4096 pages in one PMD-aligned buffer, top-down
 *            below the end of RAM: pfns [0x3f000, 0x40000)
 *   MemTotal 262047 - 256 - 4096 = 257695 pages = 1030780 kB
 *   managed  DMA 159 + 3840 - 256 = 3743, DMA32 258048 - 4096 = 253952
 *   Memory:  1030780k/1048188k available, (256 + 4096) * 4 = 17408k reserved
 */
static void mem_init_memtotal_excludes_memmap_x86(void **state)
{
	static const struct cma_bank banks[] = { { 0, 0x9f000 }, { 1 * MiB, 1 * GiB - 1 * MiB } };
	struct cma_mm_config cfg = { .banks = banks, .nr_banks = 2, .zone_dma_end = 16 * MiB,
				     .zone_dma32_end = 4 * GiB, .metadata_only = true, .cmdline = "cma=0" };
	struct cma_mm *mm = NULL;
	char *text;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(cma_memblock_reserve(mm, 2 * MiB, 1 * MiB), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_int_equal(mm->totalram_pages, 257695);
	assert_int_equal(mm->zones[ZONE_DMA].managed_pages, 3743);
	assert_int_equal(mm->zones[ZONE_DMA32].managed_pages, 253952);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), 257695);
	assert_true(page_test(cma_pfn_to_page(mm, 0x3f000), PG_reserved));
	assert_true(page_test(cma_pfn_to_page(mm, 0x3ffff), PG_reserved));
	assert_false(page_test(cma_pfn_to_page(mm, 0x3efff), PG_reserved));
	text = test_dmesg(mm);
	expect_log_line(text, "Memory: 1030780k/1048188k available, 17408k reserved\n");
	free(text);
	text = test_proc_read(mm, "meminfo");
	expect_log_line(text, "MemTotal:        1030780 kB\n");
	free(text);
	text = test_proc_read(mm, "zoneinfo");
	expect_log_line(text, "        managed  253952");
	free(text);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * The same on 32-bit ARM (FLATMEM): alloc_node_mem_map takes one array of
 * 32-byte pages for the node from bootmem, the lowest lowmem that fits.
 * 1 GiB at 0x40000000 (262144 pages), lowmem up to 0x6f800000, the kernel
 * image [0x40004000, 0x40800000) reserved (2044 pages). Expect:
 *   memmap   262144 * 32 bytes = 8 MiB = 2048 pages, above the image:
 *            pfns [0x40800, 0x41000)
 *   MemTotal 262144 - 2044 - 2048 = 258052 pages = 1032208 kB
 *   managed  Normal 194560 - 2044 - 2048 = 190468, HighMem 67584
 *   Memory:  1032208k/1048576k available, (2044 + 2048) * 4 = 16368k reserved
 */
static void mem_init_memtotal_excludes_memmap_arm(void **state)
{
	struct cma_bank bank = { 0x40000000, 1 * GiB };
	struct cma_mm_config cfg = { .arch = CMA_ARCH_ARM, .banks = &bank, .nr_banks = 1,
				     .highmem_start = 0x6f800000, .metadata_only = true,
				     .cmdline = "cma=0" };
	struct cma_mm *mm = NULL;
	char *text;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(cma_memblock_reserve(mm, 0x40004000, 8 * MiB - 0x4000), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_int_equal(mm->totalram_pages, 258052);
	assert_int_equal(mm->zones[ZONE_NORMAL].managed_pages, 190468);
	assert_int_equal(mm->zones[ZONE_HIGHMEM].managed_pages, 67584);
	assert_true(page_test(cma_pfn_to_page(mm, 0x40800), PG_reserved));
	assert_true(page_test(cma_pfn_to_page(mm, 0x40fff), PG_reserved));
	assert_false(page_test(cma_pfn_to_page(mm, 0x41000), PG_reserved));
	text = test_dmesg(mm);
	expect_log_line(text, "Memory: 1032208k/1048576k available, 16368k reserved\n");
	free(text);
	text = test_proc_read(mm, "meminfo");
	expect_log_line(text, "MemTotal:        1032208 kB\n");
	free(text);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: a machine too small for its vmemmap (x86, 1 MiB: one section
 * wants 2 MiB) keeps every page and says why, where v3.5 would panic.
 */
static void mem_init_memmap_without_room_keeps_pages(void **state)
{
	struct cma_mm *mm = test_mm(.size = 1 * MiB, .metadata_only = true);
	char *log = test_dmesg(mm);

	expect_log_line(log, "memmap: no room in memblock: its pages stay in the machine\n");
	free(log);
	assert_int_equal(mm->totalram_pages, 256);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), 256);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 *   small bank | hole | largest bank | hole | small bank | hole | small bank
 * Expect: pfn_valid, whose fast path knows only the largest bank, agrees
 * with memblock about every pfn around and inside the machine, wherever
 * the largest bank sits; holes do not fall on pageblock boundaries.
 */
static void pfn_valid_agrees_with_memblock(void **state)
{
	static const struct cma_bank layouts[][4] = {
		{ { 0x100000, 0x3000 }, { 0x205000, 0x800000 }, { 0xa07000, 0x1000 },
		  { 0xc00000, 0x201000 } },
		{ { 0, 0x400000 }, { 0x401000, 0x1000 }, { 0x403000, 0x3fd000 },
		  { 0x900000, 0x2000 } },
		{ { 0x40000000, 0x1000 }, { 0x40002000, 0x1000 }, { 0x40004000, 0x1000 },
		  { 0x40006000, 0x600000 } },
	};

	for (size_t l = 0; l < sizeof(layouts) / sizeof(layouts[0]); l++) {
		struct cma_mm *mm = test_mm(.banks = layouts[l], .nr_banks = 4, .metadata_only = true);
		unsigned long from = mm->base_pfn > 2 ? mm->base_pfn - 2 : 0;

		for (unsigned long pfn = from; pfn < mm->end_pfn + 2; pfn++) {
			bool want = memblock_is_memory(&mm->memblock, (cma_phys_t)pfn << mm->page_shift);

			if (pfn_valid(mm, pfn) != want) {
				print_error("layout %zu, pfn %#lx: expected pfn_valid %d, found %d\n", l,
					    pfn, want, !want);
				fail();
			}
		}
		cma_mm_destroy(mm);
	}
}

/* ---- release of free memory ---- */

static void expect_nr_free(struct cma_mm *mm, struct zone *z, const unsigned long *want)
{
	for (unsigned o = 0; o < mm->max_order; o++) {
		if (z->free_area[o].nr_free != want[o]) {
			print_error("zone %s order %u: expected %lu free blocks, found %lu\n", z->name, o,
				    want[o], z->free_area[o].nr_free);
			fail();
		}
	}
}

/*
 * Expect: 64 MiB at 0, one zone: fifteen order-10 blocks and the order-9
 * block below the 2 MiB vmemmap at the top, nothing smaller (RESERVE
 * pageblocks take whole blocks, they split nothing).
 */
static void mm_boot_frees_in_max_order_blocks(void **state)
{
	struct cma_mm *mm = test_mm(.metadata_only = true);
	const unsigned long want[11] = { [9] = 1, [10] = 15 };

	expect_nr_free(mm, &mm->zones[ZONE_NORMAL], want);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), 16384 - 512);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * A bank at 0x10000 (pfn 16): blocks of order 4 (pfn 16), 5 (32), 6, 7,
 * 8, 9 (512), then order 10 from pfn 1024 up to the 2 MiB vmemmap at the
 * top (pfn 15872), and an order-9 block below it.
 */
static void mm_boot_unaligned_bank_start(void **state)
{
	struct cma_mm *mm = test_mm(.base = 0x10000, .size = 64 * MiB - 0x10000);
	const unsigned long want[11] = { 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 14 };
	struct cma_page *first = cma_pfn_to_page(mm, 16);

	expect_nr_free(mm, &mm->zones[ZONE_NORMAL], want);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), 16384 - 16 - 512);
	assert_non_null(first);
	assert_true(page_test(first, PG_buddy));
	assert_int_equal(page_order(first), 4);
	assert_null(cma_pfn_to_page(mm, 15));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- page addresses ---- */

static void page_address_metadata_only_null(void **state)
{
	struct cma_mm *mm = test_mm(.metadata_only = true);
	struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 2);

	assert_non_null(page);
	assert_null(cma_page_address(mm, page));
	assert_null(cma_page_address(mm, cma_pfn_to_page(mm, 5)));
	cma_free_pages(mm, page, 2);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: page n's bytes start n pages after page 0's; every page can be written. */
static void page_address_backed_linear_and_writable(void **state)
{
	struct cma_mm *mm = test_mm(.size = 16 * MiB);
	unsigned char *base = cma_page_address(mm, cma_pfn_to_page(mm, 0));
	struct cma_page *pages[8];

	assert_non_null(base);
	for (unsigned long pfn = 0; pfn < 4096; pfn++) {
		unsigned char *a = cma_page_address(mm, cma_pfn_to_page(mm, pfn));

		if (a != base + pfn * 4096) {
			print_error("pfn %#lx: expected address %p, found %p\n", pfn,
				    (void *)(base + pfn * 4096), (void *)a);
			fail();
		}
	}
	for (int i = 0; i < 8; i++) {
		pages[i] = cma_alloc_pages(mm, CMA_GFP_KERNEL, 1);
		assert_non_null(pages[i]);
		memset(cma_page_address(mm, pages[i]), 0xa0 + i, 2 * 4096);
	}
	for (int i = 0; i < 8; i++) {
		unsigned char *a = cma_page_address(mm, pages[i]);

		for (size_t b = 0; b < 2 * 4096; b++)
			if (a[b] != 0xa0 + i) {
				print_error("allocation %d byte %zu: expected %#x, found %#x\n", i, b,
					    0xa0 + i, a[b]);
				fail();
			}
		cma_free_pages(mm, pages[i], 1);
	}
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: 64 KiB pages: the machine boots, allocates and frees, pages 64 KiB
 * apart; the vmemmap takes ALIGN(2048 * 64, 2 MiB) = 32 pages for each of
 * the 4 sections.
 */
static void mm_boot_page_shift_16(void **state)
{
	struct cma_bank bank = { 0, 512 * MiB };
	struct cma_mm_config cfg = {
		.banks = &bank, .nr_banks = 1, .page_shift = 16, .cmdline = "cma=0",
	};
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_page *p0, *p2;
	unsigned char *a;

	assert_int_equal(mm->page_size, 65536);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), 8192 - 128);
	p0 = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	p2 = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 2);
	assert_non_null(p0);
	assert_non_null(p2);
	a = cma_page_address(mm, p2);
	assert_ptr_equal(cma_page_address(mm, cma_page_nth(mm, p2, 1)), a + 65536);
	memset(a, 0x5a, 4 * 65536);
	memset(cma_page_address(mm, p0), 0xa5, 65536);
	assert_int_equal(a[4 * 65536 - 1], 0x5a);
	cma_free_pages(mm, p0, 0);
	cma_free_pages(mm, p2, 2);
	cma_drain_all_pages(mm);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), 8192 - 128);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- grouping by mobility ---- */

/*
 * Expect: 8 MiB with 1024-page pageblocks is below 6 pageblocks: grouping
 * by mobility is off, every pageblock UNMOVABLE, movable requests still served.
 */
static void mm_boot_small_machine_disables_mobility_grouping(void **state)
{
	struct cma_bank bank = { 0, 8 * MiB };
	struct cma_mm_config cfg = {
		.banks = &bank, .nr_banks = 1, .pageblock_order = 10, .cmdline = "cma=0",
	};
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_page *page;
	char *log;

	assert_true(mm->page_group_by_mobility_disabled);
	for (unsigned long pfn = 0; pfn < 2048; pfn += 1024)
		if (cma_pageblock_migratetype(mm, pfn) != CMA_MIGRATE_UNMOVABLE) {
			print_error("pageblock at pfn %#lx: expected Unmovable, found %d\n", pfn,
				    cma_pageblock_migratetype(mm, pfn));
			fail();
		}
	page = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(page);
	cma_free_pages(mm, page, 0);
	page = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 3);
	assert_non_null(page);
	cma_free_pages(mm, page, 3);
	assert_int_equal(cma_pageblock_migratetype(mm, 0), CMA_MIGRATE_UNMOVABLE);
	assert_int_equal(cma_pageblock_migratetype(mm, 1024), CMA_MIGRATE_UNMOVABLE);
	log = test_dmesg(mm);
	assert_non_null(strstr(log, "mobility grouping off"));
	free(log);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: on such a machine (16 MiB, below 6 pageblocks too) a CMA area
 * is refused with a message, as every pageblock UNMOVABLE would break
 * both CMA rules: no default area, no CMA pageblock, and its 8 MiB (the
 * areas' alignment here) stay reserved, out of the free pages.
 */
static void mm_boot_small_machine_refuses_cma_area(void **state)
{
	struct cma_bank bank = { 0, 16 * MiB };
	struct cma_mm_config cfg = {
		.banks = &bank, .nr_banks = 1, .pageblock_order = 10, .cmdline = "cma=8M",
	};
	struct cma_mm *mm = test_boot(&cfg);
	char *log;

	assert_true(mm->page_group_by_mobility_disabled);
	assert_null(cma_dev_get_cma_area(mm, NULL));
	for (unsigned long pfn = 0; pfn < 4096; pfn += 1024)
		assert_int_equal(cma_pageblock_migratetype(mm, pfn), CMA_MIGRATE_UNMOVABLE);
	cma_drain_all_pages(mm);
	assert_true(global_page_state(mm, NR_FREE_PAGES) <= 2048);
	log = test_dmesg(mm);
	assert_non_null(strstr(log, "refused: grouping by mobility is off"));
	free(log);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: at 64 MiB grouping is on: every pageblock MOVABLE or (1..2 of
 * them) RESERVE; none RESERVE under a profile with 4.4's on-demand
 * HIGHATOMIC reserve (setup_zone_migrate_reserve gone).
 */
static void mm_boot_64m_enables_mobility_grouping(void **state)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = {
		.banks = &bank, .nr_banks = 1, .pageblock_order = 10, .cmdline = "cma=0",
		.metadata_only = true,
	};
	struct cma_mm *mm = test_boot(&cfg);
	int reserve = 0, least;
	char *log;

	assert_false(mm->page_group_by_mobility_disabled);
	for (unsigned long pfn = 0; pfn < 16384; pfn += 1024) {
		int mt = cma_pageblock_migratetype(mm, pfn);

		if (mt == CMA_MIGRATE_RESERVE)
			reserve++;
		else if (mt != CMA_MIGRATE_MOVABLE) {
			print_error("pageblock at pfn %#lx: expected Movable or Reserve, found %d\n", pfn, mt);
			fail();
		}
	}
	least = mm->kernel.highatomic ? 0 : 1;
	if (reserve < least || reserve > 2 * least ||
	    reserve != mm->zones[ZONE_NORMAL].nr_migrate_reserve_block) {
		print_error("expected 1..2 Reserve pageblocks (nr_migrate_reserve_block %d), found %d\n",
			    mm->zones[ZONE_NORMAL].nr_migrate_reserve_block, reserve);
		fail();
	}
	log = test_dmesg(mm);
	assert_non_null(strstr(log, "mobility grouping on"));
	free(log);
	cma_mm_destroy(mm);
}

/* ---- log, CPUs ---- */

static void mm_dmesg_has_boot_messages(void **state)
{
	struct cma_mm *mm = test_mm(.metadata_only = true);
	char *log = test_dmesg(mm);

	if (!strstr(log, "Zone ranges:") || !strstr(log, "Built 1 zonelists")) {
		print_error("expected \"Zone ranges:\" and \"Built 1 zonelists\" in the log, found:\n%s\n", log);
		fail();
	}
	free(log);
	cma_mm_destroy(mm);
}

static void mm_create_nr_cpus_zero_means_one(void **state)
{
	struct cma_mm *mm = test_mm(.metadata_only = true);

	assert_int_equal(mm->nr_cpus, 1);
	cma_mm_bind_cpu(mm, 1);		/* out of range: slot 0 stays */
	assert_ptr_equal(this_cpu_slot(mm), &mm->slots[0]);
	cma_mm_bind_cpu(mm, 0);
	assert_ptr_equal(this_cpu_slot(mm), &mm->slots[0]);
	cma_mm_destroy(mm);
}

/* Expect: an out-of-range cpu is refused and the thread keeps the slot it had. */
static void mm_bind_cpu_out_of_range_keeps_binding(void **state)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = {
		.banks = &bank, .nr_banks = 1, .nr_cpus = 4, .cmdline = "cma=0", .metadata_only = true,
	};
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_page *page;

	cma_mm_bind_cpu(mm, 2);
	assert_ptr_equal(this_cpu_slot(mm), &mm->slots[2]);
	cma_mm_bind_cpu(mm, 4);
	cma_mm_bind_cpu(mm, UINT_MAX);
	if (this_cpu_slot(mm) != &mm->slots[2]) {
		print_error("after binding cpus 4 and UINT_MAX: expected slot 2, found slot %ld\n",
			    (long)(this_cpu_slot(mm) - mm->slots));
		fail();
	}
	/* the pcp lists used are slot 2's */
	page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_non_null(page);
	assert_true(pcp_count(mm, 2, ZONE_NORMAL) > 0);
	assert_int_equal(pcp_count(mm, 0, ZONE_NORMAL), 0);
	cma_free_pages(mm, page, 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mm_create_null_cfg_einval),
		cmocka_unit_test(mm_create_no_banks_einval),
		cmocka_unit_test(mm_create_bad_banks_einval),
		cmocka_unit_test(mm_create_swap_beyond_header_einval),
		cmocka_unit_test(mm_create_bad_geometry_einval),
		cmocka_unit_test(mm_create_kernel_profile),
		cmocka_unit_test(mm_create_zone_limits_not_ascending_einval),
		cmocka_unit_test(mm_boot_twice_einval_changes_nothing),
		cmocka_unit_test(alloc_pages_before_boot_null),
		cmocka_unit_test(mm_boot_zones_x86),
		cmocka_unit_test(mm_boot_zones_arm_highmem),
		cmocka_unit_test(mm_boot_hole_excluded),
		cmocka_unit_test(mem_init_memtotal_excludes_memmap_x86),
		cmocka_unit_test(mem_init_memtotal_excludes_memmap_arm),
		cmocka_unit_test(mem_init_memmap_without_room_keeps_pages),
		cmocka_unit_test(pfn_valid_agrees_with_memblock),
		cmocka_unit_test(mm_boot_frees_in_max_order_blocks),
		cmocka_unit_test(mm_boot_unaligned_bank_start),
		cmocka_unit_test(page_address_metadata_only_null),
		cmocka_unit_test(page_address_backed_linear_and_writable),
		cmocka_unit_test(mm_boot_page_shift_16),
		cmocka_unit_test(mm_boot_small_machine_disables_mobility_grouping),
		cmocka_unit_test(mm_boot_small_machine_refuses_cma_area),
		cmocka_unit_test(mm_boot_64m_enables_mobility_grouping),
		cmocka_unit_test(mm_dmesg_has_boot_messages),
		cmocka_unit_test(mm_create_nr_cpus_zero_means_one),
		cmocka_unit_test(mm_bind_cpu_out_of_range_keeps_binding),
	};

	return cmocka_run_group_tests_name("boot", tests, NULL, NULL);
}
