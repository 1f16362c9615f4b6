// SPDX-License-Identifier: GPL-2.0
/*
 * Counter names, as /proc/vmstat prints them, and the lookup by name.
 * Events are summed over the per-CPU slots when read, as the kernel's
 * all_vm_events() does. The zone snapshots that both layouts of
 * /proc/zoneinfo print are here too, as the kernel's zoneinfo is.
 */
#include <string.h>

#include "mm/internal.h"

const char *const vmstat_zone_item_names[NR_VM_ZONE_STAT_ITEMS] = {
	"nr_free_pages", "nr_inactive_anon", "nr_active_anon", "nr_inactive_file",
	"nr_active_file", "nr_unevictable", "nr_mlock", "nr_anon_pages", "nr_mapped",
	"nr_file_pages", "nr_dirty", "nr_writeback", "nr_slab_reclaimable",
	"nr_slab_unreclaimable", "nr_page_table_pages", "nr_kernel_stack", "nr_unstable",
	"nr_bounce", "nr_vmscan_write", "nr_vmscan_immediate_reclaim", "nr_writeback_temp",
	"nr_isolated_anon", "nr_isolated_file", "nr_shmem", "nr_dirtied", "nr_written",
	"nr_anon_transparent_hugepages", "nr_free_cma",
};

#define ZONE_EVENTS(x) x "_dma", x "_dma32", x "_normal", x "_high", x "_movable"

const char *const vmstat_event_names[NR_VM_EVENT_ITEMS] = {
	"pgpgin", "pgpgout", "pswpin", "pswpout",
	ZONE_EVENTS("pgalloc"),
	"pgfree", "pgactivate", "pgdeactivate", "pgfault", "pgmajfault",
	ZONE_EVENTS("pgrefill"),
	ZONE_EVENTS("pgsteal_kswapd"),
	ZONE_EVENTS("pgsteal_direct"),
	ZONE_EVENTS("pgscan_kswapd"),
	ZONE_EVENTS("pgscan_direct"),
	"pginodesteal", "slabs_scanned", "kswapd_inodesteal", "kswapd_low_wmark_hit_quickly",
	"kswapd_high_wmark_hit_quickly", "kswapd_skip_congestion_wait", "pageoutrun",
	"allocstall", "pgrotated",
	"compact_blocks_moved", "compact_pages_moved", "compact_pagemigrate_failed",
	"compact_stall", "compact_fail", "compact_success",
	"cma_alloc_success", "cma_alloc_fail",
	/* by name only */
	"pgmigrate_success", "pgmigrate_fail",
	"compact_migrate_scanned", "compact_free_scanned", "compact_isolated",
	"pgmigrate_mapped", "pgmigrate_mapped_ptes", "pgmigrate_tlb_flush",
	"drain_all_pages", "lru_add_drain_all", "lru_add",
	"contig_migrate_scanned", "contig_free_scanned",
	"pgalloc_fresh",
	"console_chars",
	"contig_reclaim_clean", "contig_reclaim_unmapped_ptes",
	"compact_scan_stepped",
	"compact_blocks_passed",
	"compact_daemon_migrate_scanned", "compact_daemon_free_scanned",
	"workingset_refault", "workingset_activate",
	"workingset_refault_anon", "workingset_activate_anon",
	"swap_ra", "swap_ra_hit",
	"pgscan_anon", "pgscan_file", "pgsteal_anon", "pgsteal_file",
	ZONE_EVENTS("allocstall"),
	"nr_tlb_remote_flush_received",
};

unsigned vmstat_shown_events(const struct cma_mm *mm, enum vm_event_item *items)
{
	unsigned n = 0;

	for (int i = 0; i < NR_VMSTAT_EVENT_ITEMS; i++) {
		if (i == COMPACTBLOCKS && mm->kernel.vmstat_migrate_events) {
			for (int j = PGMIGRATE_SUCCESS; j <= COMPACTISOLATED; j++)
				items[n++] = j;
			i = COMPACTPAGEFAILED;
			continue;
		}
		if ((i == CMA_ALLOC_SUCCESS || i == CMA_ALLOC_FAIL) && !mm->kernel.cma_stats)
			continue;
		items[n++] = i;
	}
	return n;
}

unsigned long global_page_state(struct cma_mm *mm, enum zone_stat_item item)
{
	unsigned long sum = 0;
	struct zone *z;

	for_each_zone(mm, z)
		sum += zone_page_state(z, item);
	return sum;
}

uint64_t vm_event_sum(struct cma_mm *mm, enum vm_event_item item)
{
	uint64_t sum = 0;

	for (unsigned c = 0; c < mm->nr_cpus; c++)
		sum += atomic_load_explicit(&mm->slots[c].events[item], memory_order_relaxed);
	return sum;
}

/* vmstat_start(): pgpgin and pgpgout are counted in sectors and shown in kB. */
uint64_t vm_event_shown(struct cma_mm *mm, enum vm_event_item item)
{
	uint64_t sum = vm_event_sum(mm, item);

	return item == PGPGIN || item == PGPGOUT ? sum / 2 : sum;
}

int cma_count_vm_events(struct cma_mm *mm, enum cma_vm_event item, unsigned long delta)
{
	static const enum vm_event_item events[NR_CMA_VM_EVENTS] = {
		[CMA_PGFAULT] = PGFAULT, [CMA_PGMAJFAULT] = PGMAJFAULT,
		[CMA_PGPGIN] = PGPGIN, [CMA_PGPGOUT] = PGPGOUT,
	};
	int ret = mm_require_phase(mm, MM_BOOTED, "cma_count_vm_events");

	if (ret)
		return ret;
	if ((unsigned)item >= NR_CMA_VM_EVENTS) {
		cma_mm_pr_err(mm, "cma_count_vm_events: no event %d: pgfault, pgmajfault, pgpgin "
			      "and pgpgout are the host's to count\n", (int)item);
		return -EINVAL;
	}
	count_vm_events(mm, events[item], delta);
	return 0;
}

/*
 * NR_ALLOC_BATCH (3.12-4.7) as zone_page_state and global_page_state read
 * it: @zone's, or the sum over the zones (NULL), a negative sum as 0.
 */
unsigned long nr_alloc_batch(struct cma_mm *mm, struct zone *zone)
{
	long sum = 0;
	struct zone *z;

	if (zone)
		sum = atomic_load_explicit(&zone->alloc_batch, memory_order_relaxed);
	else
		for_each_zone(mm, z)
			sum += atomic_load_explicit(&z->alloc_batch, memory_order_relaxed);
	return sum < 0 ? 0 : (unsigned long)sum;
}

int cma_mm_counter(struct cma_mm *mm, const char *name, uint64_t *value)
{
	if (!mm || !name || !value)
		return -EINVAL;
	if (!strcmp(name, "nr_alloc_batch") && alloc_flags_fair(mm)) {
		*value = mm->phase == MM_BOOTED ? nr_alloc_batch(mm, NULL) : 0;
		return 0;
	}
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (!strcmp(name, vmstat_zone_item_names[i])) {
			*value = mm->phase == MM_BOOTED ? global_page_state(mm, i) : 0;
			return 0;
		}
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		if (!strcmp(name, vmstat_event_names[i])) {
			*value = mm->phase == MM_BOOTED ? vm_event_shown(mm, i) : 0;
			return 0;
		}
	return -ENOENT;
}

/* ---- the pieces of /proc/zoneinfo both layouts print ---- */

static unsigned long read_ulong(const unsigned long *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/*
 * THREAD_SIZE in kB: v3.5's x86_64 and ARM stacks are 8 KiB; since 3.15
 * x86_64's are 16 KiB, as arm64's, ARM's still 8.
 */
unsigned long thread_size_kb(const struct cma_mm *mm)
{
	return mm->kernel.proc_v6 && mm->arch != CMA_ARCH_ARM ? 16 : 8;
}

void zone_marks_snapshot(struct zone *zone, struct zone_marks *zm)
{
	spin_lock(&zone->lock);
	zm->min = read_ulong(&zone->watermark[WMARK_MIN]);
	zm->low = read_ulong(&zone->watermark[WMARK_LOW]);
	zm->high = read_ulong(&zone->watermark[WMARK_HIGH]);
	zm->boost = read_ulong(&zone->watermark_boost);
	for (int i = 0; i < MAX_NR_ZONES; i++)
		zm->lowmem_reserve[i] = read_ulong(&zone->lowmem_reserve[i]);
	spin_unlock(&zone->lock);
}

void zoneinfo_pagesets(struct cma_mm *mm, struct zone *zone, FILE *out)
{
	fprintf(out, "\n  pagesets");
	for (unsigned cpu = 0; cpu < mm->nr_cpus; cpu++) {
		struct cpu_slot *slot = &mm->slots[cpu];
		struct per_cpu_pages pcp;

		spin_lock(&slot->lock);
		pcp = slot->pcp[zone->idx];
		spin_unlock(&slot->lock);

		fprintf(out,
			"\n    cpu: %i"
			"\n              count: %i"
			"\n              high:  %i"
			"\n              batch: %i",
			(int)cpu, pcp.count, pcp.high, pcp.batch);
		/* CONFIG_SMP: counters are exact here, no per-CPU drift */
		fprintf(out, "\n  vm stats threshold: %d", 0);
	}
}

/* Each typed counter's event, and how many per-zone events follow it from there. */
static const struct {
	enum vm_event_item item;
	unsigned nr;
} cma_stat_events[NR_CMA_STAT_ITEMS] = {
	[CMA_STAT_PGMIGRATE_SUCCESS] = { PGMIGRATE_SUCCESS, 1 },
	[CMA_STAT_COMPACT_MIGRATE_SCANNED] = { COMPACTMIGRATE_SCANNED, 1 },
	[CMA_STAT_COMPACT_FREE_SCANNED] = { COMPACTFREE_SCANNED, 1 },
	[CMA_STAT_COMPACT_ISOLATED] = { COMPACTISOLATED, 1 },
	[CMA_STAT_CONTIG_MIGRATE_SCANNED] = { CONTIGMIGRATE_SCANNED, 1 },
	[CMA_STAT_CONTIG_FREE_SCANNED] = { CONTIGFREE_SCANNED, 1 },
	[CMA_STAT_COMPACT_SCAN_STEPPED] = { COMPACT_SCAN_STEPPED, 1 },
	[CMA_STAT_COMPACT_BLOCKS_PASSED] = { COMPACT_BLOCKS_PASSED, 1 },
	[CMA_STAT_PGSCAN_DIRECT] = { PGSCAN_DIRECT_DMA, MAX_NR_ZONES },
	[CMA_STAT_PGSTEAL_DIRECT] = { PGSTEAL_DIRECT_DMA, MAX_NR_ZONES },
	[CMA_STAT_DRAIN_ALL_PAGES] = { DRAIN_ALL_PAGES, 1 },
	[CMA_STAT_LRU_ADD_DRAIN_ALL] = { LRU_ADD_DRAIN_ALL, 1 },
	[CMA_STAT_PGMIGRATE_MAPPED_PTES] = { PGMIGRATE_MAPPED_PTES, 1 },
	[CMA_STAT_PGMIGRATE_TLB_FLUSH] = { PGMIGRATE_TLB_FLUSH, 1 },
	[CMA_STAT_PGALLOC_FRESH] = { PGALLOC_FRESH, 1 },
	[CMA_STAT_CONSOLE_CHARS] = { CONSOLE_CHARS, 1 },
	[CMA_STAT_CONTIG_RECLAIM_CLEAN] = { CONTIG_RECLAIM_CLEAN, 1 },
	[CMA_STAT_CONTIG_RECLAIM_UNMAPPED_PTES] = { CONTIG_RECLAIM_UNMAPPED_PTES, 1 },
	[CMA_STAT_PGALLOC] = { PGALLOC_DMA, MAX_NR_ZONES },
	[CMA_STAT_PGFREE] = { PGFREE, 1 },
	[CMA_STAT_LRU_ADD] = { LRU_ADD, 1 },
	[CMA_STAT_PGSCAN_KSWAPD] = { PGSCAN_KSWAPD_DMA, MAX_NR_ZONES },
	[CMA_STAT_NR_TLB_REMOTE_FLUSH_RECEIVED] = { NR_TLB_REMOTE_FLUSH_RECEIVED, 1 },
};

int cma_mm_stats(struct cma_mm *mm, struct cma_mm_stats *stats)
{
	if (!mm || !stats)
		return -EINVAL;
	memset(stats, 0, sizeof(*stats));
	if (mm->phase != MM_BOOTED)
		return 0;
	for (int i = 0; i < NR_CMA_STAT_ITEMS; i++)
		for (unsigned j = 0; j < cma_stat_events[i].nr; j++)
			stats->v[i] += vm_event_sum(mm, cma_stat_events[i].item + j);
	return 0;
}
