// SPDX-License-Identifier: GPL-2.0
/*
 * kcompactd's proactive compaction (5.9, kernel.compact_proactive): a
 * periodic look at how much of the node's free memory lies outside free
 * blocks of the huge page order, and a whole-node compaction when that
 * share is high. kcompactd's other work, the high-order compaction
 * kswapd wakes it for from 4.6, stays kswapd's own here (compact_pgdat,
 * as in 3.5) under every profile.
 *
 * The host calls cma_kcompactd_poll() when kcompactd's timeout ends and
 * sleeps it for as long as the call returns.
 */
#include "mm/internal.h"

/* HPAGE_FRAG_CHECK_INTERVAL_MSEC: kcompactd's timeout between checks */
#define FRAG_CHECK_INTERVAL_MS	500u
/* vm.compaction_proactiveness: its default, its largest value */
#define COMPACTION_PROACTIVENESS	20u
#define COMPACTION_PROACTIVENESS_MAX	100u

/* Each zone's score weighted by its share of the node's pages: small zones never count much. */
static unsigned fragmentation_score_node(struct cma_mm *mm)
{
	unsigned long node_present = 0, score = 0;
	struct zone *zone;

	for_each_populated_zone(mm, zone)
		node_present += zone->present_pages;
	for_each_populated_zone(mm, zone)
		score += zone->present_pages * fragmentation_score_zone(zone) / (node_present + 1);
	return (unsigned)score;
}

/* The low mark a run stops at, or the high one a check starts a run above: at least 5, at most 100. */
static unsigned fragmentation_score_wmark(const struct cma_mm *mm, bool low)
{
	unsigned wmark_low = 100 - mm->compaction_proactiveness;

	if (wmark_low < 5)
		wmark_low = 5;
	return low ? wmark_low : (wmark_low + 10 < 100 ? wmark_low + 10 : 100);
}

/*
 * compact_node(pgdat, true): each zone compacted whole, ignoring the skip
 * bits, in MIGRATE_SYNC_LIGHT, its scanning counted again as
 * compact_daemon_*. Departure: what another compactor scans meanwhile
 * (a threaded machine) counts there too.
 */
static void proactive_compact_node(struct cma_mm *mm)
{
	struct zone *zone;

	for_each_populated_zone(mm, zone) {
		struct compact_control cc = {
			.order = -1,
			.migratetype = MIGRATE_MOVABLE,
			.sync = true,
			.ignore_skip_hint = true,
			.whole_zone = true,
			.proactive_wmark = fragmentation_score_wmark(mm, true),
			.gfp_mask = CMA_GFP_KERNEL,
		};
		uint64_t migrate = vm_event_sum(mm, COMPACTMIGRATE_SCANNED);
		uint64_t free = vm_event_sum(mm, COMPACTFREE_SCANNED);

		compact_control_init_lists(&cc);
		compact_zone(zone, &cc);
		count_vm_events(mm, KCOMPACTD_MIGRATE_SCANNED, vm_event_sum(mm, COMPACTMIGRATE_SCANNED) - migrate);
		count_vm_events(mm, KCOMPACTD_FREE_SCANNED, vm_event_sum(mm, COMPACTFREE_SCANNED) - free);
	}
}

/**
 * cma_kcompactd_poll() - kcompactd's timeout is over: with kswapd not
 * running and the node's score above the high mark, one proactive
 * compaction. Returns the milliseconds until the next check: 500, or
 * 64 times that after a run that did not lower the score; 0 on a
 * release without proactive compaction (before 5.9), with
 * vm.compaction_proactiveness 0 (kcompactd then sleeps until woken, and
 * nothing here wakes it) or before boot.
 */
unsigned cma_kcompactd_poll(struct cma_mm *mm)
{
	unsigned prev_score;

	if (!mm || mm->phase != MM_BOOTED || !mm->kernel.compact_proactive)
		return 0;
	if (!mm->compaction_proactiveness)
		return 0;
	if (kswapd_is_running(mm))
		return FRAG_CHECK_INTERVAL_MS;
	prev_score = fragmentation_score_node(mm);
	if (prev_score <= fragmentation_score_wmark(mm, false))
		return FRAG_CHECK_INTERVAL_MS;
	proactive_compact_node(mm);
	if (fragmentation_score_node(mm) >= prev_score)
		return FRAG_CHECK_INTERVAL_MS << COMPACT_MAX_DEFER_SHIFT;
	return FRAG_CHECK_INTERVAL_MS;
}

/*
 * sysctl.vm.compaction_proactiveness=N on the command line (sysctl.c):
 * 0 to 100. Departure: between 5.8 and 5.9 the kernel says the
 * parameter is not found; here it is ignored.
 */
void setup_compaction_proactiveness(struct cma_mm *mm)
{
	mm->compaction_proactiveness = COMPACTION_PROACTIVENESS;
	if (mm->kernel.compact_proactive)
		sysctl_vm_from_cmdline(mm, "compaction_proactiveness", COMPACTION_PROACTIVENESS_MAX,
				       &mm->compaction_proactiveness);
}
