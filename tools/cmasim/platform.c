// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in platforms. x86 is a PC with the BIOS hole below 1 MiB and
 * the DMA zone below 16 MiB, as seed 010 targets.
 */
#include <string.h>

#include "platform.h"

static const struct cma_bank x86_banks[] = {
	{ 0x00000000, 0x0009f000 },	/* conventional memory, up to the EBDA */
	{ 0x00100000, 0x3ff00000 },	/* 1 MiB .. 1 GiB */
};

static const struct platform platforms[] = {
	{
		.name = "x86",
		.description = "PC, 1 GiB, ZONE_DMA below 16 MiB, ZONE_DMA32 below 4 GiB",
		.cfg = {
			.arch = CMA_ARCH_X86,
			.banks = x86_banks,
			.nr_banks = 2,
			.pageblock_order = 9,
			.zone_dma_end = 16ull << 20,
			.zone_dma32_end = 4ull << 30,
			.nr_cpus = 2,
		},
	},
};

const struct platform *platform_find(const char *name)
{
	for (size_t i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++)
		if (!strcmp(platforms[i].name, name))
			return &platforms[i];
	return NULL;
}

void platform_list(FILE *out)
{
	fprintf(out, "platforms:\n");
	for (size_t i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++)
		fprintf(out, "  %-10s %s\n", platforms[i].name, platforms[i].description);
}
