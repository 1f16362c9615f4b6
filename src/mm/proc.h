/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The /proc files' pieces shared by the two layouts (the zone snapshots
 * both print are vmstat.c's); proc.c writes the files and hands vmstat
 * and zoneinfo to proc_v6.c under mm->kernel.proc_v6, which calls
 * nothing of proc.c back.
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

/* The 6.x layout (proc_v6.c). */
int show_vmstat_v6(struct cma_mm *mm, FILE *out);
int show_zoneinfo_v6(struct cma_mm *mm, FILE *out);

#endif
