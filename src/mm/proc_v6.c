// SPDX-License-Identifier: GPL-2.0
/*
 * The 6.x layout of /proc/vmstat and /proc/zoneinfo (Linux 6.12's
 * mm/vmstat.c; meminfo's is in proc.c beside v3.5's), for machines whose
 * profile sets proc_v6. Only the counters the model keeps are printed,
 * each in 6.12's place and under its 6.12 name; a line 6.12 prints for a
 * subsystem the model does not have (NUMA, THP, hugetlb, zswap, the
 * anon and shadow-node workingset items) is left out, not printed as 0.
 *
 * The one idea: 6.12 splits v3.5's zone counters into zone items
 * (nr_free_pages, the nr_zone_* LRU sizes, nr_mlock, nr_bounce,
 * nr_free_cma) and node items (the rest), and its per-zone events
 * (pgrefill_*, pgsteal_*, pgscan_*) into one count each; the tables
 * below say where each 6.12 line comes from in our counters.
 */
#include "mm/proc.h"

/* Where a 6.12 counter's value comes from. */
enum v6_source {
	V6_STAT,		/* one zone_stat_item */
	V6_WRITE_PENDING,	/* NR_FILE_DIRTY + NR_WRITEBACK (nr_zone_write_pending) */
	V6_STACK_KB,		/* NR_KERNEL_STACK in kB, as 6.x counts it */
	V6_SWAPCACHE,		/* the swap cache's pages (NR_SWAPCACHE) */
	V6_DIRTY_LIMIT,		/* global_dirty_limits: @idx 0 the dirty, 1 the background one */
	V6_EVENT,		/* one vm_event_item */
	V6_EVENT_SUM,		/* v3.5's five per-zone events of @idx summed */
	V6_EVENT_PER_ZONE,	/* one line per zone of the machine: @name "_dma" ... */
};

struct v6_item {
	const char *name;
	enum v6_source src;
	int idx;
};

/* enum zone_stat_item of 6.12: per zone, in zoneinfo and summed in vmstat. */
static const struct v6_item zone_items[] = {
	{ "nr_free_pages", V6_STAT, NR_FREE_PAGES },
	{ "nr_zone_inactive_anon", V6_STAT, NR_INACTIVE_ANON },
	{ "nr_zone_active_anon", V6_STAT, NR_ACTIVE_ANON },
	{ "nr_zone_inactive_file", V6_STAT, NR_INACTIVE_FILE },
	{ "nr_zone_active_file", V6_STAT, NR_ACTIVE_FILE },
	{ "nr_zone_unevictable", V6_STAT, NR_UNEVICTABLE },
	{ "nr_zone_write_pending", V6_WRITE_PENDING, 0 },
	{ "nr_mlock", V6_STAT, NR_MLOCK },
	{ "nr_bounce", V6_STAT, NR_BOUNCE },
	{ "nr_free_cma", V6_STAT, NR_FREE_CMA_PAGES },
};

/* enum node_stat_item of 6.12: one node, so the machine's sums. */
static const struct v6_item node_items[] = {
	{ "nr_inactive_anon", V6_STAT, NR_INACTIVE_ANON },
	{ "nr_active_anon", V6_STAT, NR_ACTIVE_ANON },
	{ "nr_inactive_file", V6_STAT, NR_INACTIVE_FILE },
	{ "nr_active_file", V6_STAT, NR_ACTIVE_FILE },
	{ "nr_unevictable", V6_STAT, NR_UNEVICTABLE },
	{ "nr_slab_reclaimable", V6_STAT, NR_SLAB_RECLAIMABLE },
	{ "nr_slab_unreclaimable", V6_STAT, NR_SLAB_UNRECLAIMABLE },
	{ "nr_isolated_anon", V6_STAT, NR_ISOLATED_ANON },
	{ "nr_isolated_file", V6_STAT, NR_ISOLATED_FILE },
	{ "workingset_refault_anon", V6_EVENT, WORKINGSET_REFAULT_ANON },
	{ "workingset_refault_file", V6_EVENT, WORKINGSET_REFAULT },
	{ "workingset_activate_anon", V6_EVENT, WORKINGSET_ACTIVATE_ANON },
	{ "workingset_activate_file", V6_EVENT, WORKINGSET_ACTIVATE },
	{ "nr_anon_pages", V6_STAT, NR_ANON_PAGES },
	{ "nr_mapped", V6_STAT, NR_FILE_MAPPED },
	{ "nr_file_pages", V6_STAT, NR_FILE_PAGES },
	{ "nr_dirty", V6_STAT, NR_FILE_DIRTY },
	{ "nr_writeback", V6_STAT, NR_WRITEBACK },
	{ "nr_writeback_temp", V6_STAT, NR_WRITEBACK_TEMP },
	{ "nr_shmem", V6_STAT, NR_SHMEM },
	{ "nr_anon_transparent_hugepages", V6_STAT, NR_ANON_TRANSPARENT_HUGEPAGES },
	{ "nr_vmscan_write", V6_STAT, NR_VMSCAN_WRITE },
	{ "nr_vmscan_immediate_reclaim", V6_STAT, NR_VMSCAN_IMMEDIATE },
	{ "nr_dirtied", V6_STAT, NR_DIRTIED },
	{ "nr_written", V6_STAT, NR_WRITTEN },
	{ "nr_kernel_stack", V6_STACK_KB, 0 },
	{ "nr_page_table_pages", V6_STAT, NR_PAGETABLE },
	{ "nr_swapcached", V6_SWAPCACHE, 0 },
};

/* enum vm_stat_item, then enum vm_event_item of 6.12. */
static const struct v6_item global_items[] = {
	{ "nr_dirty_threshold", V6_DIRTY_LIMIT, 0 },
	{ "nr_dirty_background_threshold", V6_DIRTY_LIMIT, 1 },
	{ "pgpgin", V6_EVENT, PGPGIN },
	{ "pgpgout", V6_EVENT, PGPGOUT },
	{ "pswpin", V6_EVENT, PSWPIN },
	{ "pswpout", V6_EVENT, PSWPOUT },
	{ "pgalloc", V6_EVENT_PER_ZONE, PGALLOC_DMA },
	{ "allocstall", V6_EVENT_PER_ZONE, ALLOCSTALL_DMA },
	{ "pgfree", V6_EVENT, PGFREE },
	{ "pgactivate", V6_EVENT, PGACTIVATE },
	{ "pgdeactivate", V6_EVENT, PGDEACTIVATE },
	{ "pgfault", V6_EVENT, PGFAULT },
	{ "pgmajfault", V6_EVENT, PGMAJFAULT },
	{ "pgrefill", V6_EVENT_SUM, PGREFILL_DMA },
	{ "pgsteal_kswapd", V6_EVENT_SUM, PGSTEAL_KSWAPD_DMA },
	{ "pgsteal_direct", V6_EVENT_SUM, PGSTEAL_DIRECT_DMA },
	{ "pgscan_kswapd", V6_EVENT_SUM, PGSCAN_KSWAPD_DMA },
	{ "pgscan_direct", V6_EVENT_SUM, PGSCAN_DIRECT_DMA },
	{ "pgscan_anon", V6_EVENT, PGSCAN_ANON },
	{ "pgscan_file", V6_EVENT, PGSCAN_FILE },
	{ "pgsteal_anon", V6_EVENT, PGSTEAL_ANON },
	{ "pgsteal_file", V6_EVENT, PGSTEAL_FILE },
	{ "pginodesteal", V6_EVENT, PGINODESTEAL },
	{ "slabs_scanned", V6_EVENT, SLABS_SCANNED },
	{ "kswapd_inodesteal", V6_EVENT, KSWAPD_INODESTEAL },
	{ "kswapd_low_wmark_hit_quickly", V6_EVENT, KSWAPD_LOW_WMARK_HIT_QUICKLY },
	{ "kswapd_high_wmark_hit_quickly", V6_EVENT, KSWAPD_HIGH_WMARK_HIT_QUICKLY },
	{ "pageoutrun", V6_EVENT, PAGEOUTRUN },
	{ "pgrotated", V6_EVENT, PGROTATED },
	{ "pgmigrate_success", V6_EVENT, PGMIGRATE_SUCCESS },
	{ "pgmigrate_fail", V6_EVENT, PGMIGRATE_FAIL },
	{ "compact_migrate_scanned", V6_EVENT, COMPACTMIGRATE_SCANNED },
	{ "compact_free_scanned", V6_EVENT, COMPACTFREE_SCANNED },
	{ "compact_isolated", V6_EVENT, COMPACTISOLATED },
	{ "compact_stall", V6_EVENT, COMPACTSTALL },
	{ "compact_fail", V6_EVENT, COMPACTFAIL },
	{ "compact_success", V6_EVENT, COMPACTSUCCESS },
	/* kcompactd's proactive scanning; its wakeups (compact_daemon_wake) are not modelled */
	{ "compact_daemon_migrate_scanned", V6_EVENT, KCOMPACTD_MIGRATE_SCANNED },
	{ "compact_daemon_free_scanned", V6_EVENT, KCOMPACTD_FREE_SCANNED },
	{ "cma_alloc_success", V6_EVENT, CMA_ALLOC_SUCCESS },
	{ "cma_alloc_fail", V6_EVENT, CMA_ALLOC_FAIL },
	{ "swap_ra", V6_EVENT, SWAP_RA_EVENT },
	{ "swap_ra_hit", V6_EVENT, SWAP_RA_HIT },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* TEXTS_FOR_ZONES' suffixes, by our zone index. */
static const char *const zone_suffix[MAX_NR_ZONES] = {
	"dma", "dma32", "normal", "high", "movable",
};

/*
 * The zones a 6.x kernel of this platform builds: those the platform
 * configures, and ZONE_MOVABLE, which 6.x always has (v3.5 without
 * movablecore= left it out). 6.x prints every one of them in zoneinfo,
 * populated or not, and one per-zone event each.
 */
static bool zone_built_v6(const struct zone *zone)
{
	return zone->configured || zone->idx == ZONE_MOVABLE;
}

/* The value of a stat item, of @zone, or of the machine if @zone is NULL. */
static unsigned long stat_value(struct cma_mm *mm, struct zone *zone, enum zone_stat_item i)
{
	return zone ? zone_page_state(zone, i) : global_page_state(mm, i);
}

static unsigned long item_value(struct cma_mm *mm, struct zone *zone, const struct v6_item *it)
{
	switch (it->src) {
	case V6_STAT:
		return stat_value(mm, zone, it->idx);
	case V6_WRITE_PENDING:
		return stat_value(mm, zone, NR_FILE_DIRTY) + stat_value(mm, zone, NR_WRITEBACK);
	case V6_STACK_KB:
		return stat_value(mm, zone, NR_KERNEL_STACK) * thread_size_kb(mm);
	case V6_SWAPCACHE:
		return atomic_load_explicit(&mm->swapcache_pages, memory_order_relaxed);
	case V6_DIRTY_LIMIT: {
		unsigned long background, dirty;

		global_dirty_limits(mm, &background, &dirty);
		return it->idx ? background : dirty;
	}
	case V6_EVENT:
		return (unsigned long)vm_event_shown(mm, it->idx);
	case V6_EVENT_SUM: {
		unsigned long sum = 0;

		for (int z = 0; z < MAX_NR_ZONES; z++)
			sum += (unsigned long)vm_event_sum(mm, it->idx + z);
		return sum;
	}
	default:
		return 0;
	}
}

/* ---- /proc/vmstat: vmstat_start() + vmstat_show() of 6.12 ---- */

static void vmstat_print_items(struct cma_mm *mm, FILE *out, const struct v6_item *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct v6_item *it = &items[i];

		if (it->src != V6_EVENT_PER_ZONE) {
			fprintf(out, "%s %lu\n", it->name, item_value(mm, NULL, it));
			continue;
		}
		for (int z = 0; z < MAX_NR_ZONES; z++)
			if (zone_built_v6(&mm->zones[z]))
				fprintf(out, "%s_%s %llu\n", it->name, zone_suffix[z],
					(unsigned long long)vm_event_sum(mm, it->idx + z));
	}
}

int show_vmstat_v6(struct cma_mm *mm, FILE *out)
{
	vmstat_print_items(mm, out, zone_items, ARRAY_LEN(zone_items));
	vmstat_print_items(mm, out, node_items, ARRAY_LEN(node_items));
	vmstat_print_items(mm, out, global_items, ARRAY_LEN(global_items));
	return 0;
}

/* ---- /proc/zoneinfo: zoneinfo_show_print() of 6.12 ---- */

static bool is_zone_first_populated(struct cma_mm *mm, struct zone *zone)
{
	struct zone *z;

	for_each_populated_zone(mm, z)
		return z == zone;
	return false;
}

/*
 * The watermarks as 6.12 prints them: the boost, then each mark with the
 * boost added (min_wmark_pages() and the others); promo: 6.x sets
 * WMARK_PROMO one step (high - low) above high.
 */
static void zoneinfo_marks(struct cma_mm *mm, struct zone *zone, FILE *out)
{
	struct zone_marks zm;

	zone_marks_snapshot(zone, &zm);
	fprintf(out,
		"\n  pages free     %lu"
		"\n        boost    %lu"
		"\n        min      %lu"
		"\n        low      %lu"
		"\n        high     %lu"
		"\n        promo    %lu"
		"\n        spanned  %lu"
		"\n        present  %lu"
		"\n        managed  %lu"
		"\n        cma      %lu",
		zone_page_state(zone, NR_FREE_PAGES), zm.boost, zm.min + zm.boost, zm.low + zm.boost,
		zm.high + zm.boost, zm.high + (zm.high - zm.low) + zm.boost, zone->spanned_pages, zone->present_pages,
		zone->managed_pages, zone->cma_pages);
	/* lowmem_reserve has one entry per zone 6.x builds */
	fputs("\n        protection: (", out);
	for (int i = 0, n = 0; i < MAX_NR_ZONES; i++)
		if (zone_built_v6(&mm->zones[i]))
			fprintf(out, n++ ? ", %lu" : "%lu", zm.lowmem_reserve[i]);
	fputc(')', out);
}

static void zoneinfo_items(struct cma_mm *mm, struct zone *zone, FILE *out,
			   const struct v6_item *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "\n      %-12s %lu", items[i].name, item_value(mm, zone, &items[i]));
}

static void zoneinfo_show_print_v6(struct cma_mm *mm, struct zone *zone, FILE *out)
{
	fprintf(out, "Node %d, zone %8s", 0, zone->name);
	if (is_zone_first_populated(mm, zone)) {
		fputs("\n  per-node stats", out);
		zoneinfo_items(mm, NULL, out, node_items, ARRAY_LEN(node_items));
	}
	zoneinfo_marks(mm, zone, out);
	if (!zone->present_pages) {
		fputc('\n', out);
		return;
	}
	zoneinfo_items(mm, zone, out, zone_items, ARRAY_LEN(zone_items));
	zoneinfo_pagesets(mm, zone, out);
	fprintf(out,
		"\n  node_unreclaimable:  %u"
		"\n  start_pfn:           %lu\n",
		(unsigned)zone_given_up(zone),
		zone->zone_start_pfn);
}

int show_zoneinfo_v6(struct cma_mm *mm, FILE *out)
{
	struct zone *zone;

	for_each_zone(mm, zone)
		if (zone_built_v6(zone))
			zoneinfo_show_print_v6(mm, zone, out);
	return 0;
}
