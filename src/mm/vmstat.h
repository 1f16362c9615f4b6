/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters behind /proc/vmstat and /proc/zoneinfo, in the kernel's
 * order (v3.5, plus nr_free_cma and the CMA events of later kernels).
 * Names live in vmstat.c.
 */
#ifndef CMA_MM_VMSTAT_H
#define CMA_MM_VMSTAT_H

enum zone_stat_item {
	NR_FREE_PAGES,
	NR_INACTIVE_ANON,
	NR_ACTIVE_ANON,
	NR_INACTIVE_FILE,
	NR_ACTIVE_FILE,
	NR_UNEVICTABLE,
	NR_MLOCK,
	NR_ANON_PAGES,
	NR_FILE_MAPPED,
	NR_FILE_PAGES,
	NR_FILE_DIRTY,
	NR_WRITEBACK,
	NR_SLAB_RECLAIMABLE,
	NR_SLAB_UNRECLAIMABLE,
	NR_PAGETABLE,
	NR_KERNEL_STACK,
	NR_UNSTABLE_NFS,
	NR_BOUNCE,
	NR_VMSCAN_WRITE,
	NR_VMSCAN_IMMEDIATE,
	NR_WRITEBACK_TEMP,
	NR_ISOLATED_ANON,
	NR_ISOLATED_FILE,
	NR_SHMEM,
	NR_DIRTIED,
	NR_WRITTEN,
	NR_ANON_TRANSPARENT_HUGEPAGES,
	NR_FREE_CMA_PAGES,
	NR_VM_ZONE_STAT_ITEMS
};

/* Per-zone events are followed by one entry per zone type (DMA .. MOVABLE). */
enum vm_event_item {
	PGPGIN, PGPGOUT, PSWPIN, PSWPOUT,
	PGALLOC_DMA, PGALLOC_DMA32, PGALLOC_NORMAL, PGALLOC_HIGH, PGALLOC_MOVABLE,
	PGFREE, PGACTIVATE, PGDEACTIVATE,
	PGFAULT, PGMAJFAULT,
	PGREFILL_DMA, PGREFILL_DMA32, PGREFILL_NORMAL, PGREFILL_HIGH, PGREFILL_MOVABLE,
	PGSTEAL_KSWAPD_DMA, PGSTEAL_KSWAPD_DMA32, PGSTEAL_KSWAPD_NORMAL,
	PGSTEAL_KSWAPD_HIGH, PGSTEAL_KSWAPD_MOVABLE,
	PGSTEAL_DIRECT_DMA, PGSTEAL_DIRECT_DMA32, PGSTEAL_DIRECT_NORMAL,
	PGSTEAL_DIRECT_HIGH, PGSTEAL_DIRECT_MOVABLE,
	PGSCAN_KSWAPD_DMA, PGSCAN_KSWAPD_DMA32, PGSCAN_KSWAPD_NORMAL,
	PGSCAN_KSWAPD_HIGH, PGSCAN_KSWAPD_MOVABLE,
	PGSCAN_DIRECT_DMA, PGSCAN_DIRECT_DMA32, PGSCAN_DIRECT_NORMAL,
	PGSCAN_DIRECT_HIGH, PGSCAN_DIRECT_MOVABLE,
	PGINODESTEAL, SLABS_SCANNED, KSWAPD_INODESTEAL,
	KSWAPD_LOW_WMARK_HIT_QUICKLY, KSWAPD_HIGH_WMARK_HIT_QUICKLY,
	KSWAPD_SKIP_CONGESTION_WAIT, PAGEOUTRUN, ALLOCSTALL, PGROTATED,
	COMPACTBLOCKS, COMPACTPAGES, COMPACTPAGEFAILED,
	COMPACTSTALL, COMPACTFAIL, COMPACTSUCCESS,
	CMA_ALLOC_SUCCESS, CMA_ALLOC_FAIL,
	NR_VMSTAT_EVENT_ITEMS,		/* /proc/vmstat shows the events above */
	/*
	 * 3.8's migration and compaction scanner events: not in v3.5's
	 * /proc/vmstat, but counted, and read by name (cma_mm_counter), for
	 * the simulator's cost model and reports.
	 */
	PGMIGRATE_SUCCESS = NR_VMSTAT_EVENT_ITEMS, PGMIGRATE_FAIL,
	COMPACTMIGRATE_SCANNED, COMPACTFREE_SCANNED, COMPACTISOLATED,
	/*
	 * No kernel's: what migration did beyond the copy, for the cost
	 * model (cma_owner_ops.mapcount): migrated pages that were mapped,
	 * the page table entries unmapped and remapped, the TLB flushes.
	 */
	PGMIGRATE_MAPPED, PGMIGRATE_MAPPED_PTES, PGMIGRATE_TLB_FLUSH,
	/*
	 * No kernel counts these: calls of drain_all_pages() and
	 * lru_add_drain_all(), and pages put on the LRU through the per-CPU
	 * pagevecs, read by name for the simulator's drain and lock-wait
	 * terms (doc/cost-model.md).
	 */
	DRAIN_ALL_PAGES, LRU_ADD_DRAIN_ALL, LRU_ADD,
	/*
	 * No kernel's either: the pfns alloc_contig_range's migrate scanner
	 * looked at, which 6.12 leaves out of compact_migrate_scanned
	 * (kernel.compact_events_per_run), read by name for the cost model.
	 */
	CONTIGMIGRATE_SCANNED,
	/* and its free scanner's, left out of compact_free_scanned alike */
	CONTIGFREE_SCANNED,
	/*
	 * No kernel's: frames allocated for the first time since boot, read
	 * by name for the simulator's host-fault term (doc/cost-model.md,
	 * "Host faults of fresh frames"): under a hypervisor the first write
	 * to such a frame leaves the guest to have the host back it.
	 */
	PGALLOC_FRESH,
	/*
	 * No kernel's: characters printk lines put on the serial console
	 * from the caller (console.c), read by name for the simulator's
	 * console term (doc/cost-model.md, "Console output").
	 */
	CONSOLE_CHARS,
	/*
	 * No kernel's: the clean file pages reclaim_clean_pages_from_list
	 * freed for alloc_contig_range (kernel.contig_reclaim_clean; 6.12's
	 * mm_alloc_contig_migrate_range_info traces their sum, no vmstat
	 * counts them) and the page table entries it unmapped for them, read
	 * by name for the simulator's cost model (doc/cost-model.md).
	 */
	CONTIG_RECLAIM_CLEAN, CONTIG_RECLAIM_UNMAPPED_PTES,
	/*
	 * No kernel's: of compact_migrate_scanned and compact_free_scanned,
	 * the pfns counted without being looked at (6.4 counts a compound
	 * page stepped over and a free block taken as all their pages:
	 * kernel.compact_scan_count_order), which the cost model takes off
	 * its scanning.
	 */
	COMPACT_SCAN_STEPPED,
	/*
	 * No kernel's: pageblocks compaction's scanners passed without
	 * looking at their pages (skip bit set, not a target, another zone),
	 * which the cost model prices per block.
	 */
	COMPACT_BLOCKS_PASSED,
	/* 4.11's compact_daemon_migrate_scanned and _free_scanned: kcompactd's scanning (kcompactd.c) */
	KCOMPACTD_MIGRATE_SCANNED, KCOMPACTD_FREE_SCANNED,
	/*
	 * kernel.workingset (3.15): refaults of evicted page cache pages, and
	 * those activated for a short refault distance. Zone items in 3.15,
	 * node items in 6.12 (_file): /proc/vmstat prints them in each
	 * layout's place, from 3.15 on.
	 */
	WORKINGSET_REFAULT, WORKINGSET_ACTIVATE,
	/*
	 * kernel.anon_workingset (5.9): refaults of anonymous pages read back
	 * over a shadow, and those activated; 6.12's node items.
	 */
	WORKINGSET_REFAULT_ANON, WORKINGSET_ACTIVATE_ANON,
	/* swap read-ahead: pages read ahead, and those used (6.12's swap_ra, swap_ra_hit) */
	SWAP_RA_EVENT, SWAP_RA_HIT,
	/* kernel.vmstat_lru_type (5.8): reclaim's pages scanned and freed by LRU type */
	PGSCAN_ANON, PGSCAN_FILE, PGSTEAL_ANON, PGSTEAL_FILE,
	/*
	 * 6.x's allocstall_<zone>: each ALLOCSTALL again under the highest
	 * zone its reclaim may use (6.12's sc->reclaim_idx, gfp_zone of the
	 * request), not where the pages lie: GFP_KERNEL stalls count
	 * allocstall_normal on a machine whose memory is all DMA.
	 */
	ALLOCSTALL_DMA, ALLOCSTALL_DMA32, ALLOCSTALL_NORMAL, ALLOCSTALL_HIGH, ALLOCSTALL_MOVABLE,
	/*
	 * x86's CONFIG_DEBUG_TLBFLUSH (Dave Hansen's vmstats, linux-mm, July
	 * 2013): the TLB flush IPIs the other
	 * CPUs took (cma_owner_ops.mm_cpus) for migration's entries and
	 * those of the clean pages alloc_contig_range frees; counted, read
	 * by name, not shown.
	 */
	NR_TLB_REMOTE_FLUSH_RECEIVED,
	NR_VM_EVENT_ITEMS
};

extern const char *const vmstat_zone_item_names[NR_VM_ZONE_STAT_ITEMS];
extern const char *const vmstat_event_names[NR_VM_EVENT_ITEMS];
/*
 * The events the pre-6.0 /proc/vmstat shows, in its order, into @items:
 * v3.5's, with 3.8's migration and scanner events in place of
 * compact_blocks_moved, _pages_moved and _pagemigrate_failed
 * (kernel.vmstat_migrate_events) and cma_alloc_success/fail only from
 * 5.13 (kernel.cma_stats). Returns how many.
 */
unsigned vmstat_shown_events(const struct cma_mm *mm, enum vm_event_item *items);

#endif
