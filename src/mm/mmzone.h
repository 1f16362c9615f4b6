/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine: one node (pglist_data) of zones, each with its buddy free
 * areas and per-CPU page lists, over a flat mem_map covering every bank.
 *
 * Locking rules
 *   zone->lock      free_area lists and nr_free, the free-page counters
 *                   (zone->free_pages, zone->free_cma), page->private and
 *                   PG_buddy of free pages, pageblock migrate types, the
 *                   watermarks, watermark_boost, nr_migrate_reserve_block
 *                   and nr_reserved_highatomic
 *   slot->lock      one per-CPU slot: its pcp lists and counts for every
 *                   zone (drain_all_pages reads the counts without it),
 *                   its pagevec, its event counters; taken before
 *                   zone->lock, never after it, and never held while a
 *                   page is freed (freeing may need it)
 *   zone->lru_lock  the zone's LRU lists, PG_lru, PG_active and
 *                   PG_mlocked, the NR_*_ANON/FILE, NR_UNEVICTABLE and
 *                   NR_ISOLATED_* counts; a leaf lock
 *   mm->cma_mutex   contiguous allocations and isolations (seed 009);
 *                   before 3.16 also the CMA areas' bitmaps (cma.h)
 * Lock-free readers (watermark checks, /proc) read the counters with
 * relaxed atomic loads; writers hold the lock named above.
 */
#ifndef CMA_MM_MMZONE_H
#define CMA_MM_MMZONE_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cma/cma.h>
#include "lib/spinlock.h"
#include "mm/mm_types.h"
#include "mm/profile.h"
#include "mm/vmstat.h"

#define MAX_ORDER_LIMIT		20	/* largest max_order a config may ask for */
#define PAGE_ALLOC_COSTLY_ORDER	3
#define MIGRATE_PCPTYPES	CMA_MIGRATE_RESERVE	/* types with pcp lists */
/* 5.14 (kernel.pcp_high_order): a list per pcp type and order to the costly one, two for THP */
#define NR_LOWORDER_PCP_LISTS	(MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1))
#define NR_PCP_LISTS		(NR_LOWORDER_PCP_LISTS + 2)

enum migratetype {
	MIGRATE_UNMOVABLE	= CMA_MIGRATE_UNMOVABLE,
	MIGRATE_RECLAIMABLE	= CMA_MIGRATE_RECLAIMABLE,
	MIGRATE_MOVABLE		= CMA_MIGRATE_MOVABLE,
	MIGRATE_RESERVE		= CMA_MIGRATE_RESERVE,
	/*
	 * The 4.4 profiles (kernel.highatomic) have no RESERVE blocks: the
	 * same slot, the type after the pcp types in both kernels, holds
	 * the pageblocks high-order atomic requests reserve on demand.
	 */
	MIGRATE_HIGHATOMIC	= CMA_MIGRATE_RESERVE,
	/*
	 * MIGRATE_CMA: only movable allocations are served from these
	 * pageblocks, and the allocator never changes their type (only
	 * isolation does, and restores it). A CMA range must be aligned to
	 * MAX_ORDER_NR_PAGES when the largest buddy block spans more than a
	 * pageblock, or merging would mix CMA and other pageblocks.
	 */
	MIGRATE_CMA		= CMA_MIGRATE_CMA,
	MIGRATE_ISOLATE		= CMA_MIGRATE_ISOLATE,	/* can't allocate from here */
	MIGRATE_TYPES		= CMA_MIGRATE_TYPES
};

static inline bool is_migrate_cma(int mt)
{
	return mt == MIGRATE_CMA;
}

static inline bool is_migrate_highatomic(int mt)
{
	return mt == MIGRATE_HIGHATOMIC;
}

enum zone_type { ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, ZONE_HIGHMEM, ZONE_MOVABLE, MAX_NR_ZONES };

enum zone_watermarks { WMARK_MIN, WMARK_LOW, WMARK_HIGH, NR_WMARK };

/* A list of pages linked through page->next/prev by mem_map index. */
struct page_list {
	uint32_t head, tail;
};

/* nr_free == sum over t of len(free_list[t])      (zone->lock; verify_zone_locked) */
struct free_area {
	struct page_list free_list[MIGRATE_TYPES];
	unsigned long nr_free;		/* blocks of this order, all types */
};

/*
 * count == sum over i of len(lists[i]) << pindex_to_order(i), each head PG_pcp with
 * its order  (slot->lock; verify_pcp_locked); only order 0's lists before 5.14
 * high_min <= high_max; high == high_min == high_max == 6 * batch before 5.14
 */
struct per_cpu_pages {
	int count;			/* pages on the lists */
	int high;			/* drain a batch above this (6.7: tuned in [high_min, high_max]) */
	int batch;			/* chunk size for buddy add/remove */
	int high_min;			/* 5.14 (kernel.pcp_high_lowmark): from the low mark */
	int high_max;			/* 6.7 (kernel.pcp_high_auto): from managed / 8; high_min before */
	int free_count;			/* 6.7: pages freed since allocations last halved it */
	unsigned char free_factor;	/* 5.14-6.6: each free without an allocation doubles the batch freed */
	unsigned char alloc_factor;	/* 6.7: each refill without a free doubles the next */
	struct page_list lists[NR_PCP_LISTS];	/* by order_to_pindex */
};

/* The largest pagevec of any profile (6.9's folio batch); pagevec_size() gives the kernel's. */
#define PAGEVEC_SIZE	31

/* Pages on their way to the LRU, by mem_map index; each holds a reference. */
struct pagevec {
	unsigned nr;
	uint32_t pages[PAGEVEC_SIZE];
};

enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,	/* mlocked pages: never scanned, never isolated */
	NR_LRU_LISTS
};

/* The lists reclaim scans: every list but LRU_UNEVICTABLE. */
#define for_each_evictable_lru(lru) for ((lru) = 0; (lru) <= LRU_ACTIVE_FILE; (lru)++)

/* One "CPU": a pcp slot, its LRU pagevecs, and the events its threads count. */
struct cpu_slot {
	spinlock_t lock;
	struct per_cpu_pages pcp[MAX_NR_ZONES];
	struct pagevec lru_add_pvec;
	struct pagevec lru_rotate_pvec;	/* written for reclaim, to the inactive tail */
	_Atomic uint64_t events[NR_VM_EVENT_ITEMS];
	/*
	 * Not the kernel's: frames of pageblock fresh_block this CPU's
	 * allocations marked touched and not yet taken off mm->untouched
	 * (mark_fresh_pcp_frame), one locked op a run of them, not a frame.
	 */
	unsigned long fresh_block;
	unsigned fresh_pending;
} __attribute__((aligned(64)));

/*
 * Invariants, as the validators of debug.c check them:
 *   free_pages == sum over o, t of len(free_area[o].free_list[t]) << o
 *   free_cma   == sum over o of len(free_area[o].free_list[MIGRATE_CMA]) << o
 *   free_highatomic == the same sum over the MIGRATE_HIGHATOMIC lists
 *   weight(free_heads) == sum over o of nr_free[o], and bit pfn - zone_start_pfn
 *                         is set iff that pfn has PG_buddy
 *   block_heads[b] == the free_heads bits of the zone's pageblock b
 *   bit b of head_blocks == (block_heads[b] != 0)
 *   bit b of target_blocks == migrate_async_suitable(the type of block b)
 *   nr_reserved_highatomic == pageblock_nr_pages * the HIGHATOMIC blocks
 *                             + highatomic_retyped (0 unless kernel.highatomic)
 *   watermark_boost <= max(pageblock_nr_pages, high * 15000 / 10000)
 *                             (0 unless kernel.watermark_boost)
 *   a block on free_list[MIGRATE_CMA] lies in CMA or ISOLATE pageblocks, and
 *   a free page of a CMA pageblock is on a CMA, ISOLATE or per-CPU list
 *   min <= low <= high                    (all under lock: verify_zone_locked)
 *   alloc_batch <= high - low with the fair zone policy, else 0 and never
 *                             fair_depleted
 *   vm_stat[NR_INACTIVE_ANON + l] == len(lru[l])   (lru_lock: verify_lru_locked)
 */
struct zone {
	spinlock_t lock;
	unsigned long watermark[NR_WMARK];	/* the kernel's _watermark: without the boost */
	/*
	 * 5.0's boost (kernel.watermark_boost): raised by boost_watermark()
	 * when a fallback steals from another type's pageblock, added to
	 * every mark by the *_wmark_pages() readers, and taken back once
	 * kswapd has reclaimed it.
	 */
	unsigned long watermark_boost;
	atomic_bool boosted_watermark;	/* ZONE_BOOSTED_WATERMARK: wake kswapd after the allocation */
	/*
	 * ZONE_BELOW_HIGH (6.7, kernel.pcp_high_auto): an allocation found the
	 * zone under its high mark; the free path shrinks pcp->high until a
	 * bulk free leaves the zone above it again.
	 */
	atomic_bool below_high;
	/*
	 * The fair zone allocation policy (3.12-4.7, kernel.fair_zone_alloc):
	 * NR_ALLOC_BATCH, what the zone may still give the fair pass (its
	 * high mark less its low mark when refilled, below 0 after a high
	 * order), and ZONE_FAIR_DEPLETED (3.17), set by the allocation that
	 * spent it. Changed by allocations under either lock, read without.
	 */
	atomic_long alloc_batch;
	atomic_bool fair_depleted;
	/* 4.4's on-demand reserve (kernel.highatomic): pages of the HIGHATOMIC pageblocks */
	unsigned long nr_reserved_highatomic;
	/*
	 * No kernel's, for the verifier: pages nr_reserved_highatomic still
	 * counts whose block an isolation retyped (alloc_contig_range over
	 * a HIGHATOMIC block gives it back MOVABLE and the kernel never
	 * uncounts it), less those an undo typed HIGHATOMIC uncounted.
	 */
	long highatomic_retyped;
	unsigned long lowmem_reserve[MAX_NR_ZONES];
	unsigned long min_cma_pages;	/* seed 008: raised during alloc_contig_range */
	int nr_migrate_reserve_block;

	struct free_area free_area[MAX_ORDER_LIMIT];
	/*
	 * Bit pfn - zone_start_pfn: that pfn heads a free block (PG_buddy),
	 * so that the free scanner reads the heads of a pageblock from a few
	 * words instead of every page's flags. Under lock, as PG_buddy;
	 * spanned_pages bits, NULL for an empty zone.
	 */
	unsigned long *free_heads;
	/*
	 * The free_heads bits of each pageblock (pfn >> pageblock_order,
	 * counted from the zone's first), so that the free scanner passes a
	 * block with none without taking the lock. Written under lock, read
	 * without (relaxed).
	 */
	unsigned *block_heads;
	/*
	 * One bit a pageblock (block_heads' index b): in head_blocks,
	 * block_heads[b] is not 0; in target_blocks, the block's type is
	 * MOVABLE or CMA (migrate_async_suitable), one a target is taken
	 * from without a free head. The v3.5 free scanner passes the blocks
	 * with no head and such a type a word at a time (free_scan_empty_run).
	 * Written under lock (target_blocks with locked ops: a block two
	 * zones share is typed under either one's), read without (relaxed).
	 */
	unsigned long *head_blocks;
	unsigned long *target_blocks;

	spinlock_t lru_lock;		/* the LRU lists, PG_lru, PG_active, PG_mlocked */
	struct page_list lru[NR_LRU_LISTS];
	atomic_long free_pages;		/* NR_FREE_PAGES: on the buddy lists */
	atomic_long free_cma;		/* NR_FREE_CMA_PAGES: on the CMA lists */
	atomic_long free_highatomic;	/* nr_free_highatomic: on the HIGHATOMIC (RESERVE) lists */
	atomic_long vm_stat[NR_VM_ZONE_STAT_ITEMS];	/* the other items */
	/*
	 * Reclaim's view of the zone (v3.5): pages scanned since a page was
	 * last freed to it, and kswapd's verdict that scanning it is futile
	 * (set after six times its reclaimable pages were scanned). Freeing
	 * a page to the buddy lists clears both. Relaxed atomics: reclaim
	 * writes them under lru_lock, the free paths under zone->lock.
	 */
	atomic_ulong pages_scanned;
	atomic_bool all_unreclaimable;
	/*
	 * kernel.workingset: evictions of page cache pages plus activations
	 * (3.15's inactive_age), the clock a shadow entry is stamped with;
	 * and (kernel.inactive_low_refaults) the machine's workingset_activate
	 * count when reclaim last looked (4.12's lruvec->refaults, one node).
	 * Relaxed atomics, as racy as the kernel's.
	 */
	atomic_ulong inactive_age;
	atomic_ulong refaults;
	/*
	 * get_scan_count's history (scan_balance.c), under lru_lock, [0]
	 * anon and [1] file: v3.5's reclaim_stat (pages scanned, and those
	 * found referenced and rotated) and 5.8's lruvec anon_cost and
	 * file_cost (kernel.lru_cost_balance).
	 */
	unsigned long recent_scanned[2];
	unsigned long recent_rotated[2];
	unsigned long lru_cost[2];
	/*
	 * ZONE_CONGESTED (3.5-5.15): reclaim found every dirty page it met
	 * refused by a congested device; wait_iff_congested() sleeps only
	 * then. Set by reclaim, cleared by kswapd once the zone is balanced.
	 */
	atomic_bool congested;

	struct cma_mm *mm;
	enum zone_type idx;
	const char *name;
	bool configured;		/* the platform has this zone type */
	unsigned long zone_start_pfn;
	unsigned long spanned_pages;
	/* pages in banks within the span, less the memmap and dma_reserve (free_area_init_core) */
	unsigned long present_pages;
	/* pages handed to the buddy allocator: the memmap's too, as it is not in the machine's RAM */
	unsigned long managed_pages;
	/* of those, the pages given as MIGRATE_CMA pageblocks (6.x's zone->cma_pages) */
	unsigned long cma_pages;

	/*
	 * Deferred compaction (compaction.c): after a sync failure at
	 * order >= compact_order_failed, the next 1 << compact_defer_shift
	 * considerations skip it. Hints, read and written with relaxed
	 * atomics and no lock, as the kernel leaves them racy.
	 */
	unsigned compact_considered;
	unsigned compact_defer_shift;
	int compact_order_failed;
	/*
	 * Where direct compaction's scanners resume (kernel.compact_cached_pfn):
	 * the free scanner's pageblock, the migrate scanner's pfn for async
	 * [0] and sync [1] runs; inside the zone always. compact_blockskip_flush:
	 * a direct run's scanners met, so the skip bits may be cleared
	 * (__reset_isolation_suitable). Hints as above, relaxed atomics.
	 */
	unsigned long compact_cached_free_pfn;
	unsigned long compact_cached_migrate_pfn[2];
	bool compact_blockskip_flush;
	/*
	 * kernel.compact_fast_free: where __reset_isolation_suitable last
	 * started the free scanner; a free scan from there or above is a
	 * scan's start, searched deeper. 0 until the first reset, as in the
	 * kernel, so every scan counts as a start until then.
	 */
	unsigned long compact_init_free_pfn;
};

struct memblock_region {
	cma_phys_t base;
	uint64_t size;
};

struct memblock_type {
	unsigned long cnt, max;
	struct memblock_region *regions;
};

struct memblock {
	cma_phys_t current_limit;
	struct memblock_type memory;
	struct memblock_type reserved;
};

enum mm_phase { MM_EARLY, MM_BOOTED };

/* fault-injection state; lock protects all but enabled */
struct fail_page_alloc {
	pthread_mutex_t lock;
	atomic_bool enabled;
	struct cma_fault_attr attr;
	unsigned long space;		/* pages still let through */
	long times;			/* failures left; -1: unlimited */
	unsigned long count;		/* eligible calls, for interval */
	uint64_t rnd;
};

/*
 * The whole machine (cma_mm_verify): each valid pfn is in exactly one state
 * (free in one buddy block, on one per-CPU list, allocated, reserved), and
 * no unmovable or reclaimable allocation lies in a CMA pageblock;
 * untouched[b] == the frames of pageblock b whose touched byte is clear
 *                 + the fresh_pending of each CPU whose fresh_block is b.
 */
/* transparent_hugepage/enabled: THP off, on in MADV_HUGEPAGE areas only, on everywhere */
enum thp_mode { THP_NEVER, THP_MADVISE, THP_ALWAYS };

struct cma_mm {
	/* geometry, fixed at create */
	unsigned page_shift;
	uint64_t page_size;
	unsigned max_order;
	unsigned pageblock_order;
	unsigned long pageblock_nr_pages;
	enum cma_arch arch;
	struct kernel_profile kernel;	/* the switches of the kernel it behaves as */
	bool metadata_only;
	bool quiet;			/* errors to the log only */
	unsigned nr_cpus;
	uint64_t swap_bytes;
	uint64_t atomic_pool_size;
	char *cmdline;
	char *kconfig;
	/* the log's console (console.c), from the command line */
	struct {
		unsigned baud;		/* 0: no serial console */
		unsigned frame_bits;	/* bits a character takes on the wire: start, data, parity, stop */
		int loglevel;		/* console_loglevel: lines of a lower level reach it */
		bool time;		/* printk.time: the "[%5lu.%06lu] " prefix */
	} console;
	bool printk_contig_passes;	/* cma_mm_config's debugging knob (contig.c) */

	enum mm_phase phase;
	struct memblock memblock;
	bool memmap_reserved;		/* sparse_init ran early (arm64's bootmem_init) */

	/* the flat page array covers [base_pfn, end_pfn), holes included */
	unsigned long base_pfn, end_pfn;
	/* the largest bank, which pfn_valid() checks without a search */
	unsigned long big_bank_pfn, big_bank_nr_pages;
	struct cma_page *mem_map;
	size_t mem_map_bytes;
	uint8_t *pageblock_flags;	/* one migrate type per pageblock */
	uint8_t *pageblock_clean;	/* 1: no hole, no reserved page (pageblock.c) */
	uint8_t *pageblock_skip;	/* 1: PB_migrate_skip (compaction.c, kernel.compact_skip_hint) */
	/*
	 * No kernel's: one byte per frame, set once it has been allocated since
	 * boot (prep_new_page), for the pgalloc_fresh event: under a hypervisor
	 * a frame's first use faults in its host backing. A byte, not a bit:
	 * only the thread the frame was handed to writes it, with no locked op.
	 */
	_Atomic uint8_t *touched;
	/*
	 * Per pageblock (pageblock_index), its frames whose touched byte is
	 * clear, counted down after the bytes are set (once a call, or in
	 * runs batched per CPU): a block with none left (every block on a
	 * full machine) answers mark_fresh_frames without the frames' bytes,
	 * a cache miss an allocation. Never under the true count.
	 */
	atomic_uint *untouched;
	unsigned char *backing;		/* page bytes, or NULL if metadata-only */
	size_t backing_bytes;

	struct zone zones[MAX_NR_ZONES];
	cma_phys_t zone_end[MAX_NR_ZONES];	/* configured zone upper bounds */
	struct cpu_slot *slots;
	/* one drain_all_pages at a time from 4.11 (kernel.drain_pcp_mutex): pcpu_drain_mutex */
	pthread_mutex_t pcpu_drain_mutex;
	bool page_group_by_mobility_disabled;
	int min_free_kbytes;
	enum thp_mode transparent_hugepage;	/* khugepaged.c: the enabled mode after boot */
	unsigned compaction_proactiveness;	/* kcompactd.c: vm.compaction_proactiveness, 0 to 100 */
	unsigned vm_swappiness;			/* scan_balance.c: vm.swappiness, 0 to 200 */
	int watermark_scale_factor;	/* the sysctl, in 1/10000 of a zone; read under kernel.watermark_scale */
	unsigned long totalram_pages;
	unsigned long totalcma_pages;	/* pages given to the allocator as MIGRATE_CMA */
	unsigned long totalreserve_pages;

	pthread_mutex_t cma_mutex;
	struct cma_state *cma;			/* mm/cma.h: parameters, reserved areas */
	void *dma;				/* the DMA layer's state (devices, pool) */
	/* == the ISOLATE pageblocks of the machine; cma_mutex (verify_pageblocks) */
	atomic_long isolated_pageblocks;
	atomic_int lru_disable_count;		/* lru_cache_disable nesting (contig_v6) */

	/* owner ops, by the id stored in page->flags; append-only under ops_lock */
	pthread_mutex_t ops_lock;
	const struct cma_owner_ops *owner_ops[MAX_OWNER_OPS];
	_Atomic unsigned nr_owner_ops;
	uint64_t swap_used;		/* bytes of swap holding swapped-out anon pages */
	/*
	 * Of those, the pages whose memory reclaim freed: their slots are
	 * the owners' swap entries (in their page tables, as the kernel's
	 * PTEs hold them) until cma_swap_free(); the rest belong to pages
	 * in the swap cache (PG_swapcache). Changed atomically.
	 */
	uint64_t swap_entries;
	/*
	 * The swap device's slots (swapfile.c, the kernel's swap_info_struct)
	 * and the swap cache over them (swap_state.c), under swap_lock:
	 * swap_map[slot] holds SWAP_HAS_CACHE when a page of the swap cache
	 * holds the slot, SWAP_RA while that page was read ahead and not yet
	 * used (the kernel's PG_readahead), and the owners' count (0 or 1);
	 * a slot is free when it is 0. swap_cache[slot] is the pfn + 1 of the
	 * cache page, swap_shadow[slot] the shadow a page reclaimed from it
	 * left (5.9), swap_slot_of[pfn] the slot of a page with PG_swapcache.
	 * swapcache_pages counts the cache's pages (3.5's swapper_space
	 * nrpages, meminfo's SwapCached). Equations: swap_used == slots with
	 * swap_map != 0, times page_size; swap_entries == the owners' counts;
	 * swapcache_pages == slots with SWAP_HAS_CACHE.
	 */
	spinlock_t swap_lock;
	_Atomic unsigned long swapcache_pages;
	uint8_t *swap_map;
	uint32_t *swap_cache;
	uint64_t *swap_shadow;
	uint32_t *swap_slot_of;
	unsigned long swap_max;			/* slots */
	unsigned long cluster_next;		/* where the next slot search starts */
	/* swapin_nr_pages' state (3.14): read-ahead pages used since, last offset, last window */
	atomic_uint swapin_readahead_hits;
	unsigned long swap_ra_prev_offset;
	unsigned swap_ra_last_pages;
	unsigned page_cluster;			/* vm.page-cluster: read-ahead of 2^n slots */
	/*
	 * hugetlb's free pool, one node (the hstates' hugepage_freelists, by
	 * order): pages of cma_alloc_huge_page given back with
	 * cma_free_huge_page, or freed after a migration into a pool page
	 * (hugetlb_to_pool), count 0 (frozen, as a free hugetlb folio's
	 * refcount), PG_head and PG_hugetlb kept. hugetlb_lock protects the
	 * lists and hugetlb_nr_free[o] == len(hugetlb_free[o]).
	 */
	spinlock_t hugetlb_lock;
	struct page_list hugetlb_free[MAX_ORDER_LIMIT];
	unsigned long hugetlb_nr_free[MAX_ORDER_LIMIT];
	/*
	 * hugetlb.c's isolate_or_dissolve_huge_page, set by hugetlb_init():
	 * alloc_contig_range's scan (compaction.c) reaches hugetlb through
	 * it, as hugetlb, and the slow path its new pages come from, sit
	 * above compaction and call it.
	 */
	int (*isolate_or_dissolve_huge_page)(struct cma_mm *mm, struct cma_page *page,
					     struct page_list *list);
	/* hugetlb.c's replace_free_hugepage_folios, for alloc_contig_range (contig.c) */
	int (*replace_free_huge_pages)(struct cma_mm *mm, unsigned long start, unsigned long end);
	struct fail_page_alloc fail;

	/*
	 * The trace's consumers (trace.c). An emitter reads them with relaxed
	 * loads to decide whether to build its event at all, then calls them
	 * holding trace_lock for reading; the setters change them holding it
	 * for writing, so that once a setter returns nothing runs what it
	 * replaced (tracepoint_synchronize_unregister).
	 */
	pthread_rwlock_t trace_lock;
	cma_trace_fn trace_fn;
	void *trace_ctx;
	uint32_t trace_events;		/* bit per enum cma_trace_id for trace_fn; 0: all */
	struct {
		cma_trace_probe_fn fn;
		void *ctx;
	} trace_probes[NR_CMA_TRACE_EVENTS];
	cma_oom_fn oom_fn;
	void *oom_ctx;

	/*
	 * The host's clock (backing-dev.c): set before the machine is shared,
	 * then read without a lock. sleepers[] counts each queue's sleepers
	 * (waitqueue_active); bdi_congested is the backing device's congested
	 * bit (3.5-5.15). nr_writeback_throttled and nr_reclaim_start are
	 * 5.16's pgdat fields of the same names, nr_throttled_written its
	 * NR_THROTTLED_WRITTEN; writeback_flagged its PGDAT_WRITEBACK and
	 * node_congested its LRUVEC_NODE_CONGESTED.
	 */
	struct cma_mm_sleep_ops sleep_ops;
	void *sleep_ctx;
	atomic_int sleepers[CMA_NR_SLEEP_REASONS];
	atomic_bool bdi_congested;
	atomic_int nr_writeback_throttled;
	atomic_ulong nr_throttled_written;
	unsigned long nr_reclaim_start;
	atomic_bool writeback_flagged;
	atomic_bool node_congested;

	uint64_t id;			/* tells machines apart in per-thread state */

	/*
	 * kswapd (vmscan.c). kswapd_lock, a spinlock that the zeroed machine
	 * leaves unlocked, guards kswapd_state (STOPPED, STARTING, RUNNING,
	 * STOPPING; 0 = STOPPED; read without it by wakers as a hint) and
	 * keeps the mutex and condvar alive for wakers: they exist from
	 * cma_kswapd_start to the end of cma_kswapd_stop, which destroys them
	 * only after leaving RUNNING. kswapd_mutex protects kswapd_woken,
	 * kswapd_should_stop, kswapd_max_order and kswapd_classzone_idx (in
 * polled mode kswapd_lock does); kswapd_thread belongs to
	 * whoever moved the state out of STOPPED or RUNNING.
	 */
	spinlock_t kswapd_lock;
	atomic_int kswapd_state;
	pthread_t kswapd_thread;
	pthread_mutex_t kswapd_mutex;
	pthread_cond_t kswapd_wait;
	bool kswapd_woken;		/* a wakeup since kswapd last looked */
	/*
	 * polled, under kswapd_lock: its pass slept, so it ended; the host
	 * polls it again after the timeout, and the pass goes on at
	 * kswapd_nap_priority
	 */
	bool kswapd_napping;
	int kswapd_nap_priority;
	/*
	 * polled, under kswapd_lock: in kswapd_try_to_sleep's HZ/10 sleep
	 * after a pass that balanced kswapd_nap_order for
	 * kswapd_nap_classzone; the host polls it at the timeout or a wakeup
	 */
	bool kswapd_short_nap;
	unsigned kswapd_nap_order;
	int kswapd_nap_classzone;
	atomic_bool kswapd_balancing;	/* in balance_pgdat: task_is_running(kswapd), near enough */
	bool kswapd_should_stop;
	unsigned kswapd_max_order;	/* largest order asked for since then */
	int kswapd_classzone_idx;	/* lowest classzone of those requests */
	/*
	 * 4.12 (kernel.kswapd_failures): balance_pgdat runs in a row that
	 * freed nothing; any reclaim that frees a page resets it
	 */
	atomic_int kswapd_failures;
};

#define for_each_zone(mm, z) \
	for ((z) = (mm)->zones; (z) < (mm)->zones + MAX_NR_ZONES; (z)++)
#define for_each_populated_zone(mm, z) \
	for_each_zone(mm, z) if (!(z)->present_pages) {} else

static inline unsigned long max_order_nr_pages(const struct cma_mm *mm)
{
	return 1ul << (mm->max_order - 1);
}

/* The first pfn of @pfn's pageblock. */
static inline unsigned long pageblock_start(const struct cma_mm *mm, unsigned long pfn)
{
	return pfn & ~(mm->pageblock_nr_pages - 1);
}

/* @pfn rounded up to a pageblock boundary: the end of a range ending at @pfn, aligned. */
static inline unsigned long pageblock_end(const struct cma_mm *mm, unsigned long pfn)
{
	return (pfn + mm->pageblock_nr_pages - 1) & ~(mm->pageblock_nr_pages - 1);
}

/* wmark_pages: the mark with the boost (always 0 without kernel.watermark_boost) */
static inline unsigned long wmark_pages(const struct zone *z, enum zone_watermarks w)
{
	return __atomic_load_n(&z->watermark[w], __ATOMIC_RELAXED) +
	       __atomic_load_n(&z->watermark_boost, __ATOMIC_RELAXED);
}

static inline unsigned long min_wmark_pages(const struct zone *z)
{
	return wmark_pages(z, WMARK_MIN);
}

static inline unsigned long low_wmark_pages(const struct zone *z)
{
	return wmark_pages(z, WMARK_LOW);
}

static inline unsigned long high_wmark_pages(const struct zone *z)
{
	return wmark_pages(z, WMARK_HIGH);
}

static inline bool is_highmem(const struct zone *z)
{
	return z->idx == ZONE_HIGHMEM;
}

static inline bool zone_spans_pfn(const struct zone *z, unsigned long pfn)
{
	return pfn >= z->zone_start_pfn && pfn < z->zone_start_pfn + z->spanned_pages;
}

/* Assertion levels (STYLE.md): 1 cheap preconditions, 2 also the validators. */
#ifndef CMA_DEBUG
#define CMA_DEBUG 1
#endif

/* The kernel's compiler hints, for the allocator's fast path. */
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define noinline	__attribute__((noinline))
#ifndef __always_inline		/* glibc's sys/cdefs.h has it */
#define __always_inline	inline __attribute__((always_inline))
#endif

void cma_bug(const char *file, int line, const char *cond);
#define VM_BUG_ON(c) do { if (CMA_DEBUG >= 1 && (c)) cma_bug(__FILE__, __LINE__, #c); } while (0)

/*
 * Kernel-style log lines (printk); the level prefix is not printed. A
 * line may start with a KERN_ level as the kernel's do; without one it
 * has MESSAGE_LOGLEVEL_DEFAULT, cma_mm_pr_err's have KERN_ERR's. The level
 * decides whether the line reaches the console (console.c).
 */
#define KERN_SOH_ASCII		'\001'
#define KERN_ERR		"\0013"
#define KERN_WARNING		"\0014"
#define KERN_INFO		"\0016"
#define LOGLEVEL_ERR		3
#define MESSAGE_LOGLEVEL_DEFAULT 4	/* CONFIG_MESSAGE_LOGLEVEL_DEFAULT's default */
/*
 * The library's own lines take the calls board code has (cma.h:
 * cma_mm_printk, cma_mm_pr_err, whose lines also go to stderr).
 */

/* ---- mmzone.c: pfn <-> page, zones, per-CPU slots ---- */

static inline unsigned long page_idx(const struct cma_mm *mm, const struct cma_page *page)
{
	return (unsigned long)(page - mm->mem_map);
}

static inline unsigned long page_to_pfn(const struct cma_mm *mm, const struct cma_page *page)
{
	return mm->base_pfn + page_idx(mm, page);
}

/* linux/prefetch.h's: a cache line asked for ahead of its use; no effect on what runs. */
static inline void prefetch(const void *x)
{
	__builtin_prefetch(x);
}

/* The same, for a line about to be written. */
static inline void prefetchw(const void *x)
{
	__builtin_prefetch(x, 1);
}

/* Only for pfns inside [base_pfn, end_pfn). */
static inline struct cma_page *pfn_to_page(const struct cma_mm *mm, unsigned long pfn)
{
	return mm->mem_map + (pfn - mm->base_pfn);
}

static inline struct zone *page_zone(struct cma_mm *mm, const struct cma_page *page)
{
	return &mm->zones[page_zonenum(page)];
}

bool __pfn_valid(const struct cma_mm *mm, unsigned long pfn);	/* searches the banks */

/*
 * pfn_valid: is @pfn in a bank? Hot loops ask this per pfn; most machines
 * are one bank, so the largest bank is a range check and only pfns
 * outside it pay for the search.
 */
static inline bool pfn_valid(const struct cma_mm *mm, unsigned long pfn)
{
	return pfn - mm->big_bank_pfn < mm->big_bank_nr_pages || __pfn_valid(mm, pfn);
}

/* Is every pfn of [@pfn, @end_pfn) valid, known by a range check (all in the largest bank)? */
static inline bool pfn_range_in_big_bank(const struct cma_mm *mm, unsigned long pfn,
					 unsigned long end_pfn)
{
	return pfn - mm->big_bank_pfn < mm->big_bank_nr_pages &&
	       end_pfn - mm->big_bank_pfn <= mm->big_bank_nr_pages;
}
/* A zeroed machine with its kernel log ready; mm_free() undoes it. */
struct cma_mm *mm_alloc(void);
void mm_free(struct cma_mm *mm);

/* The slot the calling thread bound itself to, and on which machine. */
struct cpu_binding {
	uint64_t mm_id;
	unsigned cpu;
};
/*
 * initial-exec: libcma.so reads it with one %fs-relative load instead of
 * a __tls_get_addr() call per allocation and free; 16 bytes fit the
 * static TLS that glibc keeps for libraries loaded later by dlopen().
 */
extern _Thread_local struct cpu_binding cpu_binding __attribute__((tls_model("initial-exec")));

static inline struct cpu_slot *this_cpu_slot(struct cma_mm *mm)
{
	return &mm->slots[cpu_binding.mm_id == mm->id ? cpu_binding.cpu : 0];
}

struct zone *pfn_zone(struct cma_mm *mm, unsigned long pfn);	/* NULL outside all zones */
int mm_phase_error(struct cma_mm *mm, enum mm_phase phase, const char *what);

/* 0 if @mm is in @phase, else -EINVAL and a log line naming @what; inline: every API call asks. */
static inline int mm_require_phase(struct cma_mm *mm, enum mm_phase phase, const char *what)
{
	if (likely(mm && mm->phase == phase))
		return 0;
	return mm_phase_error(mm, phase, what);
}

/*
 * Events live in the per-CPU slots and change only under slot->lock, so
 * that the allocator's fast path, which holds it anyway, counts with
 * plain stores (__count_vm_events).
 */
static inline void __count_vm_events(struct cpu_slot *slot, enum vm_event_item item, uint64_t n)
{
	atomic_store_explicit(&slot->events[item],
			      atomic_load_explicit(&slot->events[item], memory_order_relaxed) + n,
			      memory_order_relaxed);
}

static inline void count_vm_events(struct cma_mm *mm, enum vm_event_item item, uint64_t n)
{
	struct cpu_slot *slot = this_cpu_slot(mm);

	spin_lock(&slot->lock);
	__count_vm_events(slot, item, n);
	spin_unlock(&slot->lock);
}

static inline void count_vm_event(struct cma_mm *mm, enum vm_event_item item)
{
	count_vm_events(mm, item, 1);
}


#endif
