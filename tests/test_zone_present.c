// SPDX-License-Identifier: GPL-2.0
/*
 * A zone's present pages and free_area_init_core's estimate of what it
 * will manage, release by release (issue 27): v3.5 takes the memmap and
 * dma_reserve from present_pages; 3.9 (managed_sizing) keeps present
 * pages whole and takes them from the managed estimate, which the
 * reclaim sizes read from then; 6.10 (managed_init_present) estimates
 * nothing, managed starting as present. Each test runs at the releases
 * on both sides of each boundary, the kernel in its failure messages.
 */
#include <stdio.h>
#include <string.h>

#include "helpers.h"

static const char *const present_kernels[] = { "3.5", "3.8", "3.9", "6.9", "6.10", "6.12" };

static bool keeps_present(const char *kernel)
{
	return cma_kernel_has(kernel, "managed_sizing") == 1;
}

static bool estimates_nothing(const char *kernel)
{
	return cma_kernel_has(kernel, "managed_init_present") == 1;
}

/* The batch of a zone of about 1 GiB: 31 (512 KiB cap), 63 from 4.19 (pcp_batch_1m). */
static unsigned big_zone_batch(const char *kernel)
{
	return cma_kernel_has(kernel, "pcp_batch_1m") == 1 ? 63 : 31;
}

static void expect_text(const char *kernel, const char *what, const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("kernel %s: %s: expected \"%s\" in:\n%s", kernel, what, part, text);
}

static void expect_no_text(const char *kernel, const char *what, const char *text, const char *part)
{
	if (strstr(text, part))
		fail_msg("kernel %s: %s: expected no \"%s\" in:\n%s", kernel, what, part, text);
}

/*
 * cmasim's x86 PC: banks [0, 0x9f000) and [1 MiB, 1 GiB) (159 + 261888
 * = 262047 pages), 1 MiB at 2 MiB reserved early (256 pages below 16 MiB:
 * dma_reserve), no CMA.
 */
static struct cma_mm *x86_pc(const char *kernel)
{
	static const struct cma_bank banks[] = { { 0, 0x9f000 }, { 1 * MiB, 1 * GiB - 1 * MiB } };
	struct cma_mm_config cfg = { .banks = banks, .nr_banks = 2, .zone_dma_end = 16 * MiB,
				     .zone_dma32_end = 4 * GiB, .metadata_only = true,
				     .cmdline = "cma=0", .kernel = kernel };
	struct cma_mm *mm = NULL;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(cma_memblock_reserve(mm, 2 * MiB, 1 * MiB), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	return mm;
}

/*
 * Expect, worked by hand: DMA spans 4096 pages of which 3999 exist,
 * memmap 64, dma_reserve 256; DMA32 spans and holds 258048, memmap 4032.
 * present up to 3.8: DMA 3999 - 64 - 256 = 3679, DMA32 254016; from 3.9
 * all of them, 3999 and 258048, in zoneinfo's "present" too. managed
 * (what mem_init freed) the same at every release: DMA 3999 - 256 = 3743,
 * DMA32 258048 - 4096 (the vmemmap) = 253952.
 */
static void zone_present_pages_by_release(const char *kernel, unsigned k)
{
	struct cma_mm *mm = x86_pc(kernel);
	bool whole = keeps_present(kernel);
	char *zoneinfo, line[64];

	expect_kernel(kernel, "DMA present", whole ? 3999 : 3679, mm->zones[ZONE_DMA].present_pages);
	expect_kernel(kernel, "DMA32 present", whole ? 258048 : 254016,
		      mm->zones[ZONE_DMA32].present_pages);
	expect_kernel(kernel, "DMA managed", 3743, mm->zones[ZONE_DMA].managed_pages);
	expect_kernel(kernel, "DMA32 managed", 253952, mm->zones[ZONE_DMA32].managed_pages);
	zoneinfo = test_proc_read(mm, "zoneinfo");
	snprintf(line, sizeof(line), "\n        present  %d\n", whole ? 258048 : 254016);
	expect_text(kernel, "zoneinfo", zoneinfo, line);
	expect_text(kernel, "zoneinfo", zoneinfo, "\n        managed  253952\n");
	free(zoneinfo);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect the boot log free_area_init_core prints: up to 6.9 the memmap
 * and dma_reserve lines, then each zone's present pages with its batch
 * (from present pages up to 3.8, from the managed estimate after: the
 * same 254016 for DMA32), 3679 and 254016 up to 3.8, 3999 and 258048
 * from 3.9; from 6.10 neither memmap nor reserved line, and the estimate
 * (so build_all_zonelists' "Total pages", the sum of managed pages less
 * the high marks, 0 at boot) is all present pages: 262047 where it was
 * 3679 + 254016 = 257695.
 */
static void free_area_init_core_log_by_release(const char *kernel, unsigned k)
{
	struct cma_mm *mm = x86_pc(kernel);
	bool whole = keeps_present(kernel), none = estimates_nothing(kernel);
	char *log, lines[320];

	log = test_dmesg(mm);
	expect_text(kernel, "boot log", log, "On node 0 totalpages: 262047\n");
	snprintf(lines, sizeof(lines), "%s  DMA zone: %d pages, LIFO batch:0\n%s"
		 "  DMA32 zone: %d pages, LIFO batch:%u\n",
		 none ? "\n" : "  DMA zone: 64 pages used for memmap\n  DMA zone: 256 pages reserved\n",
		 whole ? 3999 : 3679, none ? "" : "  DMA32 zone: 4032 pages used for memmap\n",
		 whole ? 258048 : 254016, big_zone_batch(kernel));
	expect_text(kernel, "boot log", log, lines);
	if (none) {
		expect_no_text(kernel, "boot log", log, "used for memmap");
		expect_no_text(kernel, "boot log", log, "pages reserved\n");
	}
	expect_text(kernel, "boot log", log, none ? "Total pages: 262047\n" : "Total pages: 257695\n");
	free(log);
	expect_kernel(kernel, "free pages", 159 + 261888 - 256 - 4096,
		      global_page_state(mm, NR_FREE_PAGES));
	expect_kernel(kernel, "DMA32's pcp batch", big_zone_batch(kernel),
		      mm->slots[0].pcp[ZONE_DMA32].batch);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const arm_kernels[] = { "3.5", "3.8", "3.9", "3.18", "3.19", "6.9", "6.10",
					   "6.12" };

/*
 * The same on 32-bit ARM: 1 GiB at 0x40000000, lowmem up to 0x6f800000,
 * the kernel image reserved, 32-byte pages, no dma_reserve. Expect:
 * Normal 194560 pages, memmap 1520; HighMem 67584, memmap 528, printed
 * up to 3.18 (3.19's "mm: remove the highmem zones' memmap in the
 * highmem zone": lowmem holds it); present 193040 and 67056 up to 3.8,
 * 194560 and 67584 from 3.9 (3.9 to 3.18 take highmem's memmap from
 * its freesize only, managing all of highmem); HighMem's batch 66 / 4
 * = 16 -> 15 at every release.
 */
static void free_area_init_core_log_arm_by_release(const char *kernel, unsigned k)
{
	struct cma_bank bank = { 0x40000000, 1 * GiB };
	struct cma_mm_config cfg = { .arch = CMA_ARCH_ARM, .banks = &bank, .nr_banks = 1,
				     .highmem_start = 0x6f800000, .metadata_only = true,
				     .cmdline = "cma=0", .kernel = kernel };
	bool whole = keeps_present(kernel), none = estimates_nothing(kernel);
	bool high_memmap = !none && !test_kernel_since(kernel, 3, 19);
	struct cma_mm *mm = NULL;
	char *log, lines[320];

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(cma_memblock_reserve(mm, 0x40004000, 8 * MiB - 0x4000), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	expect_kernel(kernel, "Normal start", 0x40000, mm->zones[ZONE_NORMAL].zone_start_pfn);
	expect_kernel(kernel, "HighMem span", 67584, mm->zones[ZONE_HIGHMEM].spanned_pages);
	expect_kernel(kernel, "Normal present", whole ? 194560 : 193040,
		      mm->zones[ZONE_NORMAL].present_pages);
	expect_kernel(kernel, "HighMem present", whole ? 67584 : 67056,
		      mm->zones[ZONE_HIGHMEM].present_pages);
	expect_kernel(kernel, "HighMem managed", 67584, mm->zones[ZONE_HIGHMEM].managed_pages);
	log = test_dmesg(mm);
	snprintf(lines, sizeof(lines), "On node 0 totalpages: 262144\n%s"
		 "  Normal zone: %d pages, LIFO batch:%u\n%s"
		 "  HighMem zone: %d pages, LIFO batch:15\n",
		 none ? "" : "  Normal zone: 1520 pages used for memmap\n  Normal zone: 0 pages reserved\n",
		 whole ? 194560 : 193040, big_zone_batch(kernel),
		 high_memmap ? "  HighMem zone: 528 pages used for memmap\n" : "",
		 whole ? 67584 : 67056);
	expect_text(kernel, "boot log", log, lines);
	if (!high_memmap)
		expect_no_text(kernel, "boot log", log, "HighMem zone: 528 pages used for memmap");
	free(log);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const exceeds_kernels[] = { "3.5", "3.7", "3.8", "3.18", "3.19", "6.12" };

/*
 * A highmem zone whose memmap outweighs it: 32 MiB of lowmem at
 * 0x40000000, HighMem from 0x42000000 with only the 64 KiB bank at
 * 0x4fff0000. HighMem spans 57344 pages, 16 present; its memmap (32-byte
 * pages, FLATMEM: calc_memmap_size counts the span) is 448 pages, which
 * free_area_init_core cannot take. Expect, up to 3.18, "HighMem zone:
 * 448 pages exceeds realsize 16" (v3.5), "freesize" from 3.8
 * (9feedc9d831e); from 3.19 no memmap line for highmem at all, and none
 * from 6.10. HighMem keeps its 16 pages.
 */
static void memmap_exceeds_wording_by_release(const char *kernel, unsigned k)
{
	static const struct cma_bank banks[] = { { 0x40000000, 32 * MiB }, { 0x4fff0000, 64 * KiB } };
	struct cma_mm_config cfg = { .arch = CMA_ARCH_ARM, .banks = banks, .nr_banks = 2,
				     .highmem_start = 0x42000000, .metadata_only = true,
				     .cmdline = "cma=0", .kernel = kernel };
	bool warns = !test_kernel_since(kernel, 3, 19), freesize = test_kernel_since(kernel, 3, 8);
	struct cma_mm *mm = NULL;
	char *log, line[80];

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	expect_kernel(kernel, "HighMem span", 57344, mm->zones[ZONE_HIGHMEM].spanned_pages);
	expect_kernel(kernel, "HighMem present", 16, mm->zones[ZONE_HIGHMEM].present_pages);
	log = test_dmesg(mm);
	snprintf(line, sizeof(line), "  HighMem zone: 448 pages exceeds %s 16\n",
		 freesize ? "freesize" : "realsize");
	if (warns) {
		expect_text(kernel, "boot log", log, line);
		expect_no_text(kernel, "boot log", log, freesize ? "realsize" : "freesize");
	} else {
		expect_no_text(kernel, "boot log", log, "exceeds");
	}
	expect_no_text(kernel, "boot log", log, "HighMem zone: 448 pages used for memmap");
	free(log);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const ratio_kernels[] = { "3.5", "3.8", "3.9", "4.6", "4.7", "4.8", "6.12" };

/*
 * calculate_zone_inactive_ratio sizes a zone by its present pages in
 * v3.5 and by its managed ones from 3.9 (up to 4.6: 4.7 sizes the lists
 * themselves). x86, one bank [0, 1088 MiB), 64 MiB reserved early. DMA32
 * spans 274432 pages: 3.5's present less the memmap (4288) is 270144,
 * over 1 GiB (262144): int_sqrt(10 * 1) = 3; managed is 274432 less the
 * vmemmap (9 sections, 4608 pages) and the reservation (16384): 253440,
 * under 1 GiB: 1. Expect zoneinfo's inactive_ratio 3 up to 3.8, 1 from
 * 3.9 to 4.6; 4.7 (59dc76b0d4df) no longer sets the field and prints 0;
 * from 4.8 (599d0c954f91, the LRUs on the node) a zone has no such line.
 */
static void zone_inactive_ratio_by_release(const char *kernel, unsigned k)
{
	struct cma_bank bank = { 0, 1088 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .zone_dma_end = 16 * MiB,
				     .zone_dma32_end = 4 * GiB, .metadata_only = true,
				     .cmdline = "cma=0", .kernel = kernel };
	bool managed = keeps_present(kernel);
	struct cma_mm *mm = NULL;
	char *zoneinfo, *dma32;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(cma_memblock_reserve(mm, 512 * MiB, 64 * MiB), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	expect_kernel(kernel, "DMA32 managed", 253440, mm->zones[ZONE_DMA32].managed_pages);
	expect_kernel(kernel, "DMA32 present", managed ? 274432 : 270144,
		      mm->zones[ZONE_DMA32].present_pages);
	zoneinfo = test_proc_read(mm, "zoneinfo");
	dma32 = strstr(zoneinfo, "zone    DMA32");
	assert_non_null(dma32);
	if (test_kernel_since(kernel, 4, 8))
		expect_no_text(kernel, "DMA32's zoneinfo", dma32, "inactive_ratio");
	else
		expect_text(kernel, "DMA32's zoneinfo", dma32,
			    test_kernel_since(kernel, 4, 7) ? "\n  inactive_ratio:    0\n" :
			    managed ? "\n  inactive_ratio:    1\n" : "\n  inactive_ratio:    3\n");
	free(zoneinfo);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	static const struct test_kernel_case cases[] = {
		test_kernel_case(zone_present_pages_by_release, present_kernels),
		test_kernel_case(free_area_init_core_log_by_release, present_kernels),
		test_kernel_case(free_area_init_core_log_arm_by_release, arm_kernels),
		test_kernel_case(memmap_exceeds_wording_by_release, exceeds_kernels),
		test_kernel_case(zone_inactive_ratio_by_release, ratio_kernels),
	};

	return test_run_kernel_cases("zone_present", cases);
}
