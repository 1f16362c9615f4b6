// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel profiles (profile.h): a release between 3.5 and 6.12 is
 * 3.5 with every switch whose change that release had.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/profile.h"

/* A release as major * 100 + minor: 3.8 is 308, 6.12 is 612. */
#define RELEASE(major, minor)	((major) * 100 + (minor))

struct profile_switch {
	size_t offset;		/* of the bool in struct kernel_profile */
	unsigned release;	/* the first release with the whole of it */
	const char *name;	/* the field's, for cma_kernel_has() */
};

#define SWITCH(field, major, minor) \
	{ offsetof(struct kernel_profile, field), RELEASE(major, minor), #field }

/* Each switch's release, as profile.h gives it with its source; a switch of several changes takes the last one's. */
static const struct profile_switch switches[] = {
	SWITCH(alloc_cma, 3, 8),
	SWITCH(cma_balance, 5, 8),
	SWITCH(highatomic, 4, 4),
	SWITCH(watermark_boost, 5, 0),
	SWITCH(alloc_nofragment, 5, 1),
	SWITCH(fair_zone_alloc, 3, 12),
	SWITCH(fair_zone_retry, 3, 15),
	SWITCH(fair_zone_depleted, 3, 17),
	SWITCH(fair_zone_removed, 4, 8),
	SWITCH(kswapd_wake_high, 3, 12),
	SWITCH(kswapd_wake_node, 4, 8),
	SWITCH(contig_v6, 5, 19),
	SWITCH(contig_pages, 5, 5),
	SWITCH(boot_free_to_tail, 5, 10),
	SWITCH(cma_generic, 3, 17),
	SWITCH(cma_alloc_report, 4, 11),
	SWITCH(cma_pageblock_align, 5, 19),
	SWITCH(cma_stats, 5, 13),
	SWITCH(longterm_migrate, 5, 13),
	SWITCH(compact_skip_pinned, 3, 15),
	SWITCH(batched_unmap_flush, 6, 3),
	SWITCH(migrate_wait_at_once, 6, 3),
	SWITCH(compact_cached_pfn, 3, 16),
	SWITCH(compact_skip_hint, 3, 7),
	SWITCH(compact_events_per_run, 4, 11),
	SWITCH(proc_v6, 6, 0),
	SWITCH(arm64, 3, 7),
	SWITCH(contig_drain_all, 3, 8),
	SWITCH(compact_nofs, 4, 10),
	SWITCH(contig_gfp, 4, 11),
	SWITCH(cma_alloc_no_warn, 4, 19),
	SWITCH(drain_pcp_wq, 4, 11),
	SWITCH(drain_pcp_remote, 6, 0),
	SWITCH(contig_busy_test, 4, 5),
	SWITCH(compact_priority, 4, 13),
	SWITCH(hugetlb_noretry, 5, 4),
	SWITCH(free_scan_enough, 4, 0),
	SWITCH(free_scan_stride, 5, 1),
	SWITCH(drain_pcp_mutex, 4, 11),
	SWITCH(contig_busy_info, 3, 18),
	SWITCH(contig_busy_quiet, 5, 13),
	SWITCH(contig_reclaim_clean, 3, 7),
	SWITCH(compact_fast_free, 5, 1),
	SWITCH(compact_fast_migrate, 5, 1),
	SWITCH(compact_rescan, 5, 1),
	SWITCH(compact_rescan_failed, 6, 3),
	SWITCH(compact_fast_block_scanned, 6, 5),
	SWITCH(compact_scan_count_order, 6, 4),
	SWITCH(isolated_split_nowmark, 3, 8),
	SWITCH(vmstat_migrate_events, 3, 8),
	SWITCH(lru_batch_15, 4, 16),
	SWITCH(lru_batch_31, 6, 9),
	SWITCH(isolate_scan_movable, 4, 15),
	SWITCH(isolate_cma_refuse, 5, 1),
	SWITCH(retry_mayfail, 4, 13),
	SWITCH(dma_cma_blocking, 3, 16),
	SWITCH(dma_single_page_buddy, 5, 3),
	SWITCH(contig_unevictable, 3, 7),
	SWITCH(compact_unevictable, 4, 1),
	SWITCH(contig_large_folio, 5, 7),
	SWITCH(contig_try_in_use, 5, 13),
	SWITCH(contig_skip_hugetlb, 6, 3),
	SWITCH(contig_any_movable, 3, 16),
	SWITCH(cma_bitmap_lock, 3, 16),
	SWITCH(min_free_kbytes_256m, 5, 7),
	SWITCH(compact_suitable_min, 4, 9),
	SWITCH(compact_finish_fallback, 4, 1),
	SWITCH(compact_async_same_type, 4, 12),
	SWITCH(compact_finish_pageblock, 5, 1),
	SWITCH(compact_drain_pcp, 3, 19),
	SWITCH(pcp_batch_1m, 4, 19),
	SWITCH(pcp_high_lowmark, 5, 14),
	SWITCH(pcp_high_auto, 6, 7),
	SWITCH(pcp_high_order, 5, 14),
	SWITCH(hugetlb_cma, 5, 7),
	SWITCH(contig_hugetlb, 5, 13),
	SWITCH(migrate_count_pages, 5, 9),
	SWITCH(isolate_straddle_busy, 6, 10),
	SWITCH(workingset, 3, 15),
	SWITCH(inactive_ratio_lru, 4, 7),
	SWITCH(inactive_low_refaults, 4, 12),
	SWITCH(reclaim_throttle, 5, 16),
	SWITCH(blkdev_migrate_norefs, 5, 0),
	SWITCH(compact_folios, 6, 9),
	SWITCH(migrate_count_hugetlb, 5, 17),
	SWITCH(migrate_trace_nr_split, 6, 7),
	SWITCH(cma_release_stats, 6, 9),
	SWITCH(meminfo_available, 3, 14),
	SWITCH(pagetypeinfo_cap, 5, 4),
	SWITCH(pagetypeinfo_types, 4, 4),
	SWITCH(x86_dma_direct, 4, 17),
	SWITCH(dma_direct_cma_once, 5, 3),
	SWITCH(cma_activate_release, 5, 12),
	SWITCH(dma_atomic_pools, 5, 8),
	SWITCH(arm64_dma_cma, 3, 14),
	SWITCH(swapin_ra_adaptive, 3, 14),
	SWITCH(anon_workingset, 5, 9),
	SWITCH(watermark_scale, 4, 6),
	SWITCH(gfp_atomic, 4, 4),
	SWITCH(alloc_non_block, 6, 3),
	SWITCH(lru_add_compound, 4, 7),
	SWITCH(contig_hugetlb_replace, 6, 12),
	SWITCH(dirty_activate, 4, 11),
	SWITCH(managed_sizing, 3, 9),
	SWITCH(wmark_free_highatomic, 6, 12),
	SWITCH(reclaim_retry, 4, 9),
	SWITCH(isolated_free_uncounted, 3, 7),
	SWITCH(move_free_to_tail, 5, 10),
	SWITCH(managed_init_present, 6, 10),
	SWITCH(highatomic_min_reserve, 6, 12),
	SWITCH(nonblock_highatomic, 6, 12),
	SWITCH(memmap_exceeds_freesize, 3, 8),
	SWITCH(highmem_memmap_lowmem, 3, 19),
	SWITCH(zoneinfo_node_lru, 4, 8),
	SWITCH(reclaim_retry_no_backoff, 4, 12),
	SWITCH(kswapd_failures, 4, 12),
	SWITCH(anon_inactive, 5, 9),
	SWITCH(kswapd_reclaim_target, 3, 11),
	SWITCH(kswapd_balance_nowait, 3, 9),
	SWITCH(compact_skip_buddy, 3, 18),
	SWITCH(compact_pass_unsuitable, 3, 14),
	SWITCH(cma_fallback_smallest, 4, 1),
	SWITCH(freepage_mt_from_list, 3, 16),
	SWITCH(fallback_respects_type, 3, 13),
	SWITCH(fallback_steals_split, 4, 0),
	SWITCH(vm_writeout_unthrottled, 4, 9),
	SWITCH(dirtyable_file_only, 3, 14),
	SWITCH(unmovable_steals_block, 4, 0),
	SWITCH(compact_proactive, 5, 9),
	SWITCH(reclaim_full_walk, 6, 11),
	SWITCH(scan_plenty_file, 3, 8),
	SWITCH(lru_cost_balance, 5, 8),
	SWITCH(vmstat_lru_type, 5, 8),
	SWITCH(lru_cost_rotations, 6, 2),
	SWITCH(cma_align_phys, 3, 19),
	SWITCH(cma_align_offset_down, 4, 13),
	SWITCH(sysctl_cmdline, 5, 8),
};
#define NR_SWITCHES	(sizeof(switches) / sizeof(switches[0]))
/*
 * One switch per bool of struct kernel_profile, alloc_cma the first and
 * sysctl_cmdline the last.
 */
_Static_assert(offsetof(struct kernel_profile, sysctl_cmdline) + sizeof(bool) -
	       offsetof(struct kernel_profile, alloc_cma) == NR_SWITCHES * sizeof(bool),
	       "a bool of struct kernel_profile without its switch, or a switch without its bool");

/* The last minor release of each major one in the range: 3.19, 4.20, 5.19, 6.12. */
static const unsigned last_minor[] = { [3] = 19, [4] = 20, [5] = 19, [6] = 12 };
#define FIRST_RELEASE	RELEASE(3, 5)
#define NR_PROFILES	(15 + 21 + 20 + 13)	/* 3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12 */

static struct kernel_profile profiles[NR_PROFILES];
static char names[NR_PROFILES][8];
static pthread_once_t profiles_once = PTHREAD_ONCE_INIT;

static void profile_build(struct kernel_profile *p, char *name, unsigned major, unsigned minor)
{
	snprintf(name, sizeof(names[0]), "%u.%u", major, minor);
	p->name = name;
	p->release = RELEASE(major, minor);
	for (size_t i = 0; i < NR_SWITCHES; i++)
		*(bool *)((char *)p + switches[i].offset) = switches[i].release <= p->release;
}

static void profiles_build(void)
{
	size_t n = 0;

	for (unsigned major = 3; major <= 6; major++)
		for (unsigned minor = major == 3 ? 5 : 0; minor <= last_minor[major]; minor++, n++)
			profile_build(&profiles[n], names[n], major, minor);
}

/* "M.m" with decimal numbers and nothing else: its release, or 0. */
static unsigned parse_release(const char *name)
{
	unsigned long major, minor;
	char *end;

	if (*name < '0' || *name > '9')
		return 0;
	major = strtoul(name, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return 0;
	minor = strtoul(end + 1, &end, 10);
	if (*end || major < 3 || major > 6 || minor > last_minor[major] ||
	    RELEASE(major, minor) < FIRST_RELEASE)
		return 0;
	return (unsigned)RELEASE(major, minor);
}

const struct kernel_profile *kernel_profile_find(const char *name)
{
	pthread_once(&profiles_once, profiles_build);
	if (!name)
		return &profiles[0];
	for (size_t i = 0; i < NR_PROFILES; i++)
		if (profiles[i].release == parse_release(name))
			return &profiles[i];
	return NULL;
}

bool kernel_profile_switch(size_t i, const char **name, unsigned *release)
{
	if (i >= NR_SWITCHES)
		return false;
	*name = switches[i].name;
	*release = switches[i].release;
	return true;
}

const char *cma_kernel_find(const char *name)
{
	const struct kernel_profile *p = name ? kernel_profile_find(name) : NULL;

	return p ? p->name : NULL;
}

int cma_kernel_has(const char *kernel, const char *change)
{
	const struct kernel_profile *p = kernel ? kernel_profile_find(kernel) : NULL;

	for (size_t i = 0; p && change && i < NR_SWITCHES; i++)
		if (!strcmp(switches[i].name, change))
			return *(const bool *)((const char *)p + switches[i].offset);
	return -EINVAL;
}
