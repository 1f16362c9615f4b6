// SPDX-License-Identifier: GPL-2.0
/*
 * Counter names, as /proc/vmstat prints them, and the lookup by name.
 * Events are summed over the per-CPU slots when read, as the kernel's
 * all_vm_events() does.
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
	"workingset_refault", "workingset_activate",
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

int cma_mm_counter(struct cma_mm *mm, const char *name, uint64_t *value)
{
	if (!mm || !name || !value)
		return -EINVAL;
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (!strcmp(name, vmstat_zone_item_names[i])) {
			*value = mm->phase == MM_BOOTED ? global_page_state(mm, i) : 0;
			return 0;
		}
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		if (!strcmp(name, vmstat_event_names[i])) {
			*value = mm->phase == MM_BOOTED ? vm_event_sum(mm, i) : 0;
			return 0;
		}
	return -ENOENT;
}
