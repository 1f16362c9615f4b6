// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in platforms, one table each. Where the numbers come from:
 *
 * x86      the PC seed 010 targets: x86-64, ZONE_DMA below 16 MiB
 *          (MAX_DMA_ADDRESS), ZONE_DMA32 below 4 GiB, 1 GiB of RAM with
 *          the BIOS hole below 1 MiB; pageblock order 9 (HUGETLB_PAGE_ORDER);
 *          the kernel at CONFIG_PHYSICAL_START (16 MiB).
 * arm      a 32-bit ARMv7 board with 1 GiB at PHYS_OFFSET 0x40000000 and
 *          the default 3G/1G split: lowmem is 760 MiB (the 240 MiB vmalloc
 *          area and its 8 MiB guard below 0xff000000), so arm_lowmem_limit
 *          is 0x6f800000 and HighMem holds the rest; no ZONE_DMA;
 *          pageblock order MAX_ORDER - 1 = 10 (no hugetlb on ARM then);
 *          swapper_pg_dir at +0x4000 and the image from +0x8000.
 * s5p-mfc  the Exynos4210 Universal C210 (one of the boards whose reserve()
 *          calls s5p_mfc_reserve_mem, seed 011): two 256 MiB banks, one
 *          per memory controller, at 0x40000000 and 0x50000000; the
 *          boards' call s5p_mfc_reserve_mem(0x43000000, 8 << 20,
 *          0x51000000, 8 << 20) puts "s5p-mfc-r" in the first bank and
 *          "s5p-mfc-l" in the second. All of it is lowmem.
 * arm64    a 64-bit ARMv8 board under Linux 6.12 (the profile it boots
 *          with: arm64 needs one that has it): 4 GiB at 0x40000000, as on
 *          i.MX8 and many Cortex-A53/A72 boards; no firmware DMA limit, so
 *          ZONE_DMA is the RAM below 4 GiB and Normal the rest (arm64
 *          zone_sizes_init); pageblock order 9 (HPAGE_PMD_ORDER, 4 KiB
 *          pages); CONFIG_CMA_SIZE_MBYTES=32 as in arm64's defconfig.
 * The kernel images' sizes (8 MiB; arm64's defconfig Image with its bss,
 * 32 MiB at the start of RAM) are typical, not measured.
 */
#include <stdio.h>
#include <string.h>

#include "board/platform.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* ARM's default lowmem: VMALLOC_END 0xff000000 - 240 MiB - 8 MiB, less PAGE_OFFSET 0xc0000000. */
#define ARM_LOWMEM_SIZE		(760 * MiB)
#define ARM_PHYS_OFFSET		0x40000000ull
#define ARM64_PHYS_BASE		0x40000000ull

static const struct platform builtins[] = {
	{
		.name = "x86",
		.description = "PC of the CMA v23 x86 patch, 1 GiB, ZONE_DMA below 16 MiB, ZONE_DMA32 below 4 GiB",
		.cfg = {
			.arch = CMA_ARCH_X86,
			.pageblock_order = 9,
			.zone_dma_end = 16 * MiB,
			.zone_dma32_end = 4 * GiB,
			.nr_cpus = 2,
		},
		.banks = {
			{ 0x00000000, 0x0009f000 },	/* conventional memory, up to the EBDA */
			{ 0x00100000, 0x3ff00000 },	/* 1 MiB .. 1 GiB */
		},
		.nr_banks = 2,
		.kernel = { 16 * MiB, 8 * MiB },
	},
	{
		.name = "arm",
		.description = "ARMv7, 1 GiB at 0x40000000, 760 MiB lowmem + HighMem, atomic DMA pool",
		.cfg = {
			.arch = CMA_ARCH_ARM,
			.pageblock_order = 10,
			.highmem_start = ARM_PHYS_OFFSET + ARM_LOWMEM_SIZE,
			.nr_cpus = 2,
		},
		.banks = { { ARM_PHYS_OFFSET, 1 * GiB } },
		.nr_banks = 1,
		.kernel = { ARM_PHYS_OFFSET + 0x4000, 8 * MiB - 0x4000 },
	},
	{
		.name = "s5p-mfc",
		.description = "Samsung Exynos4210 of the CMA v23 s5p-mfc patch, 2 banks, MFC areas at 0x43000000 and 0x51000000",
		.cfg = {
			.arch = CMA_ARCH_ARM,
			.pageblock_order = 10,
			.highmem_start = ARM_PHYS_OFFSET + ARM_LOWMEM_SIZE,
			.nr_cpus = 2,
		},
		.banks = {
			{ 0x40000000, 256 * MiB },	/* DMC0 */
			{ 0x50000000, 256 * MiB },	/* DMC1 */
		},
		.nr_banks = 2,
		.kernel = { ARM_PHYS_OFFSET + 0x4000, 8 * MiB - 0x4000 },
		.devices = {
			{ .name = "s5p-mfc-r", .mask = 0xffffffff, .cma_size = 8 * MiB, .cma_base = 0x43000000 },
			{ .name = "s5p-mfc-l", .mask = 0xffffffff, .cma_size = 8 * MiB, .cma_base = 0x51000000 },
		},
		.nr_devices = 2,
		.reserve = board_reserve_s5p_mfc,
	},
	{
		.name = "arm64",
		.description = "ARMv8 under Linux 6.12, 4 GiB at 0x40000000, ZONE_DMA below 4 GiB",
		.cfg = {
			.arch = CMA_ARCH_ARM64,
			.kernel = "6.12",
			.pageblock_order = 9,
			.nr_cpus = 4,
		},
		.banks = { { ARM64_PHYS_BASE, 4 * GiB } },
		.nr_banks = 1,
		.kernel = { ARM64_PHYS_BASE, 32 * MiB },
		.kconfig = ARM64_DEBIAN_KCONFIG,
	},
};

#define NR_BUILTINS (sizeof(builtins) / sizeof(builtins[0]))

const struct platform *platform_builtin(const char *name)
{
	for (size_t i = 0; i < NR_BUILTINS; i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

const char *platform_builtin_names(void)
{
	return "x86, arm, s5p-mfc, arm64";
}

void platform_list(FILE *out)
{
	fprintf(out, "platforms (--platform NAME, or the path of a platform file):\n");
	for (size_t i = 0; i < NR_BUILTINS; i++)
		fprintf(out, "  %-10s %s\n", builtins[i].name, builtins[i].description);
}
