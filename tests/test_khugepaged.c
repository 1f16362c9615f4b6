// SPDX-License-Identifier: GPL-2.0
/*
 * khugepaged's min_free_kbytes (src/mm/khugepaged.c): with THP on, boot
 * raises min_free_kbytes to pageblock_nr_pages * zones * (2 + 3 * 3)
 * pages, at most 5% of lowmem, never below the sqrt(16 * lowmem KiB)
 * that init_per_zone_wmark_min set; THP off (the .config, the command
 * line, under 512 MiB of RAM, 32-bit ARM) leaves that value alone.
 * Every case runs under 3.5 and 6.12, which both have the rule.
 *
 * Each machine is compared with the same machine booted without THP,
 * whose min_free_kbytes and nr_free_buffer_pages are those khugepaged
 * started from. x86, 4 KiB pages, pageblock order 9 as the kernel's,
 * ZONE_DMA below 16 MiB and ZONE_DMA32 below 4 GiB: two lowmem zones.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define THP_ALWAYS_KCONFIG "CONFIG_TRANSPARENT_HUGEPAGE=y\nCONFIG_TRANSPARENT_HUGEPAGE_ALWAYS=y\n"
#define THP_MADVISE_KCONFIG "CONFIG_TRANSPARENT_HUGEPAGE=y\nCONFIG_TRANSPARENT_HUGEPAGE_MADVISE=y\n"
#define THP_NEVER_KCONFIG "CONFIG_TRANSPARENT_HUGEPAGE=y\nCONFIG_TRANSPARENT_HUGEPAGE_NEVER=y\n"

static const char *const kernels[] = { "3.5", "6.12" };

struct pc {
	uint64_t size;
	unsigned pageblock_order;
	const char *kconfig;
	const char *cmdline;
};

static struct cma_mm *boot_pc(const char *kernel, const struct pc *pc)
{
	return test_mm(.size = pc->size, .dma_end = 16 * MiB, .dma32_end = 4 * GiB,
		       .pageblock_order = pc->pageblock_order ? pc->pageblock_order : 9,
		       .metadata_only = true, .kernel = kernel, .kconfig = pc->kconfig,
		       .cmdline = pc->cmdline);
}

/* min_free_kbytes of @pc, and of the same machine without THP in *@plain (its lowmem in *@buffer). */
static int min_free_kbytes_of(const char *kernel, const struct pc *pc, int *plain,
			      unsigned long *buffer)
{
	struct pc off = *pc;
	struct cma_mm *mm;
	int k;

	off.kconfig = NULL;
	off.cmdline = NULL;
	mm = boot_pc(kernel, &off);
	*plain = mm->min_free_kbytes;
	*buffer = nr_free_buffer_pages(mm);
	cma_mm_destroy(mm);
	mm = boot_pc(kernel, pc);
	k = mm->min_free_kbytes;
	cma_mm_destroy(mm);
	return k;
}

/*
 * Expect: 1 GiB, two zones: 512 * 2 * 11 = 11264 pages, 45056 KiB, well
 * above sqrt's 4063 and under 5% of lowmem (about 12,700 pages); the
 * zones' min marks share it (their sum within a page a zone of it).
 */
static void khugepaged_raises_min_free_kbytes(const char *kernel, unsigned k)
{
	struct pc pc = { .size = 1 * GiB, .kconfig = THP_ALWAYS_KCONFIG };
	unsigned long buffer, sum = 0;
	int plain, got = min_free_kbytes_of(kernel, &pc, &plain, &buffer);
	struct cma_mm *mm;

	assert_true(buffer / 20 > 11264);
	assert_true(plain < 45056);
	assert_int_equal(got, 45056);
	mm = boot_pc(kernel, &pc);
	for (int z = 0; z <= ZONE_NORMAL; z++)
		sum += min_wmark_pages(&mm->zones[z]) - mm->zones[z].min_cma_pages;
	assert_in_range(sum, 11264 - 2, 11264);
	cma_mm_destroy(mm);
}

/* Expect: "madvise", by the .config or the command line, raises it as "always" does. */
static void khugepaged_raises_it_under_madvise(const char *kernel, unsigned k)
{
	struct pc by_kconfig = { .size = 1 * GiB, .kconfig = THP_MADVISE_KCONFIG };
	struct pc by_cmdline = { .size = 1 * GiB, .kconfig = THP_NEVER_KCONFIG,
				 .cmdline = "cma=0 transparent_hugepage=madvise" };
	unsigned long buffer;
	int plain;

	assert_int_equal(min_free_kbytes_of(kernel, &by_kconfig, &plain, &buffer), 45056);
	assert_int_equal(min_free_kbytes_of(kernel, &by_cmdline, &plain, &buffer), 45056);
}

/*
 * Expect: 768 MiB, two zones: 11264 pages are more than 5% of lowmem,
 * so min_free_kbytes is that 5%: nr_free_buffer_pages / 20, in KiB.
 */
static void khugepaged_caps_at_5_percent_of_lowmem(const char *kernel, unsigned k)
{
	struct pc pc = { .size = 768 * MiB, .kconfig = THP_ALWAYS_KCONFIG };
	unsigned long buffer;
	int plain, got = min_free_kbytes_of(kernel, &pc, &plain, &buffer);

	assert_true(buffer / 20 < 11264);
	assert_true((unsigned long)plain < buffer / 20 * 4);
	assert_int_equal(got, buffer / 20 * 4);
}

/*
 * Expect: with 128 KiB pageblocks (order 5) the rule asks 32 * 2 * 11 =
 * 704 pages, 2816 KiB, below sqrt's 4063 for 1 GiB: nothing is lowered.
 */
static void khugepaged_never_lowers_it(const char *kernel, unsigned k)
{
	struct pc pc = { .size = 1 * GiB, .pageblock_order = 5, .kconfig = THP_ALWAYS_KCONFIG };
	unsigned long buffer;
	int plain, got = min_free_kbytes_of(kernel, &pc, &plain, &buffer);

	assert_true(plain > 2816);
	assert_int_equal(got, plain);
}

/*
 * Expect: THP off leaves sqrt's value: no CONFIG_TRANSPARENT_HUGEPAGE,
 * the NEVER choice, transparent_hugepage=never over ALWAYS, and 448 MiB
 * of RAM (hugepage_init turns THP off under 512 MiB).
 */
static void khugepaged_leaves_it_with_thp_off(const char *kernel, unsigned k)
{
	static const struct pc offs[] = {
		{ .size = 1 * GiB, .kconfig = "CONFIG_TRANSPARENT_HUGEPAGE=n\n" },
		{ .size = 1 * GiB, .kconfig = THP_NEVER_KCONFIG },
		{ .size = 1 * GiB, .kconfig = THP_ALWAYS_KCONFIG,
		  .cmdline = "cma=0 transparent_hugepage=never" },
		{ .size = 448 * MiB, .kconfig = THP_ALWAYS_KCONFIG },
	};
	unsigned long buffer;
	int plain;

	for (unsigned i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		int got = min_free_kbytes_of(kernel, &offs[i], &plain, &buffer);

		if (got != plain)
			fail_msg("case %u: THP off, min_free_kbytes %d, expected sqrt's %d", i, got, plain);
	}
}

/* Expect: a bad transparent_hugepage= is warned of and the .config's mode stays. */
static void khugepaged_bad_option_keeps_the_kconfig_mode(const char *kernel, unsigned k)
{
	struct pc pc = { .size = 1 * GiB, .kconfig = THP_ALWAYS_KCONFIG,
			 .cmdline = "cma=0 transparent_hugepage=sometimes" };
	struct cma_mm *mm = boot_pc(kernel, &pc);
	char *log = test_dmesg(mm);

	if (!strstr(log, "transparent_hugepage= cannot parse, ignored\n"))
		fail_msg("no warning of the bad option; the log:\n%s", log);
	assert_int_equal(mm->transparent_hugepage, THP_ALWAYS);
	assert_int_equal(mm->min_free_kbytes, 45056);
	free(log);
	cma_mm_destroy(mm);
}

/* Expect: 32-bit ARM (THP needs LPAE there) keeps sqrt's value whatever the .config says. */
static void khugepaged_not_on_32bit_arm(const char *kernel, unsigned k)
{
	struct cma_mm *plain = test_mm(.size = 1 * GiB, .arch = CMA_ARCH_ARM, .base = 0x40000000,
				       .highmem_start = 0x40000000 + 760 * MiB, .metadata_only = true,
				       .kernel = kernel);
	struct cma_mm *mm = test_mm(.size = 1 * GiB, .arch = CMA_ARCH_ARM, .base = 0x40000000,
				    .highmem_start = 0x40000000 + 760 * MiB, .metadata_only = true,
				    .kernel = kernel, .kconfig = THP_ALWAYS_KCONFIG);

	assert_int_equal(mm->transparent_hugepage, THP_NEVER);
	assert_int_equal(mm->min_free_kbytes, plain->min_free_kbytes);
	cma_mm_destroy(plain);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct test_kernel_case cases[] = {
		test_kernel_case(khugepaged_raises_min_free_kbytes, kernels),
		test_kernel_case(khugepaged_raises_it_under_madvise, kernels),
		test_kernel_case(khugepaged_caps_at_5_percent_of_lowmem, kernels),
		test_kernel_case(khugepaged_never_lowers_it, kernels),
		test_kernel_case(khugepaged_leaves_it_with_thp_off, kernels),
		test_kernel_case(khugepaged_bad_option_keeps_the_kconfig_mode, kernels),
		test_kernel_case(khugepaged_not_on_32bit_arm, kernels),
	};

	return test_run_kernel_cases("khugepaged (per kernel)", cases);
}
