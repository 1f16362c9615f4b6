// SPDX-License-Identifier: GPL-2.0
/* The kernel profiles (profile.h): one row of switches per kernel. */
#include <string.h>

#include "mm/profile.h"

static const struct kernel_profile profiles[] = {
	{ .name = "3.5" },
	{
		.name = "6.12",
		.alloc_cma = true,
		.cma_balance = true,
		.highatomic = true,
		.watermark_boost = true,
		.contig_v6 = true,
		.contig_pages = true,
		.boot_free_to_tail = true,
		.cma_generic = true,
		.cma_stats = true,
		.longterm_migrate = true,
		.batched_unmap_flush = true,
		.migrate_wait_at_once = true,
		.compact_cached_pfn = true,
		.compact_skip_hint = true,
		.compact_events_per_run = true,
		.proc_v6 = true,
		.arm64 = true,
	},
};

const struct kernel_profile *kernel_profile_find(const char *name)
{
	if (!name)
		return &profiles[0];
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (!strcmp(name, profiles[i].name))
			return &profiles[i];
	return NULL;
}
