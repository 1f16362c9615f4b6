/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The /proc files' pieces shared by the two layouts: the snapshots taken
 * under the lock that protects what they copy (proc.c); proc_v6.c writes
 * the 6.x layout of vmstat and zoneinfo from them (mm->kernel.proc_v6).
 */
#ifndef CMA_MM_PROC_H
#define CMA_MM_PROC_H

#include <stdio.h>

#include "mm/internal.h"

/* pages -> kB, fs/proc/meminfo.c's K(); page_shift >= 10 (check_config). */
static inline unsigned long K(const struct cma_mm *mm, unsigned long pages)
{
	return pages << (mm->page_shift - 10);
}

#define SYSCTL_OVERCOMMIT_RATIO	50	/* the kernel's default */

/* The kernel's stack size in kB, for NR_KERNEL_STACK (which counts stacks). */
unsigned long thread_size_kb(const struct cma_mm *mm);

struct zone_marks {
	unsigned long min, low, high;
	unsigned long boost;		/* 5.0's watermark boost (kernel.watermark_boost) */
	unsigned long lowmem_reserve[MAX_NR_ZONES];
};

/* The zone's watermarks and lowmem_reserve, copied under zone->lock. */
void zone_marks_snapshot(struct zone *zone, struct zone_marks *zm);
/* "\n  pagesets" and each CPU's count, high, batch and stat threshold. */
void zoneinfo_pagesets(struct cma_mm *mm, struct zone *zone, FILE *out);

/* The 6.x layout (proc_v6.c). */
int show_vmstat_v6(struct cma_mm *mm, FILE *out);
int show_zoneinfo_v6(struct cma_mm *mm, FILE *out);

#endif
