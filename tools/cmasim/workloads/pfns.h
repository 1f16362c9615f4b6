/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a workload's pages were on a real device: a pfns file, one run
 * of page frames a line, FIRST COUNT (as cmasim replay --snapshot writes
 * it from the snapshot's kpageflags). Page N of the workload faults in
 * at the Nth pfn the file lists, if that page frame is free then.
 */
#ifndef CMASIM_WORKLOADS_PFNS_H
#define CMASIM_WORKLOADS_PFNS_H

#include <stddef.h>
#include <stdint.h>

#define PFNS_SYNTAX "FIRST COUNT (a run of page frames: its first pfn, 0x for hex, and how many)"

/*
 * The pfns file @path into *@pfns, one pfn a page (NULL: only checked):
 * how many, or -1 after ini_fail(@err) naming the line, or -ENOMEM.
 */
long pfns_read(const char *path, unsigned long **pfns, char *err, size_t len);

struct wl_spec;
struct owned_pages;

/* [KIND NAME]'s pfns = @path checked to place no more pages than its @key's @bytes hold: 1, or 0 after ini_fail(@err). */
int pfns_check(const struct wl_spec *w, const char *path, const char *key, uint64_t bytes, char *err, size_t len);

/* @o's pages placed at @path's page frames (pfns.h): 0, -EINVAL or -ENOMEM. */
int pfns_place(struct owned_pages *o, const char *path);

#endif
