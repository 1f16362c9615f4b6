/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel profiles: which kernel's CMA the machine behaves as. A profile
 * is a list of switches, one per upstream change that altered what CMA
 * does or reports; each switch names the change and the release that
 * merged it (profile.c keeps the releases). "3.5" has none set (the
 * patch set as merged); "6.12" has them all; a release between, "4.8"
 * say, has those whose release is not after it. Only the switched
 * changes are modelled: everything else a release changed is not.
 *
 * Chosen at cma_mm_create (cma_mm_config.kernel) and fixed for the
 * machine's life, so it is read without a lock.
 */
#ifndef CMA_MM_PROFILE_H
#define CMA_MM_PROFILE_H

#include <stdbool.h>

struct kernel_profile {
	const char *name;		/* "3.5", "4.8", "6.12" */
	unsigned release;		/* major * 100 + minor: 305, 408, 612 */

	/*
	 * "cma: fix watermark checking" and "mm: cma: remove watermark hacks"
	 * (3.7/3.8): only allocations with ALLOC_CMA (movable ones) may take
	 * CMA pages, and __zone_watermark_ok does not count free CMA pages
	 * for the others; min_cma_pages and alloc_contig_range's
	 * __reclaim_pages are gone.
	 */
	bool alloc_cma;
	/*
	 * "mm,page_alloc,cma: conditionally prefer cma pageblocks for movable
	 * allocations" (5.7): __rmqueue takes movable allocations from CMA
	 * first while free CMA pages exceed half of the zone's free pages.
	 */
	bool cma_balance;
	/*
	 * "mm, page_alloc: reserve pageblocks for high-order atomic
	 * allocations on demand" (4.4): MIGRATE_HIGHATOMIC in place of
	 * MIGRATE_RESERVE, with that era's fallback and stealing rules.
	 */
	bool highatomic;
	/*
	 * "mm: reclaim small amounts of memory when an external
	 * fragmentation event occurs" (5.0): a fallback that steals from
	 * another type boosts the zone's watermarks and wakes kswapd.
	 */
	bool watermark_boost;
	/*
	 * "mm: disable LRU pagevec during the migration temporarily" (5.13)
	 * and "mm: make alloc_contig_range work at pageblock granularity"
	 * (5.19): __alloc_contig_migrate_range under lru_cache_disable,
	 * migrate_pages with MR_CONTIG_RANGE, no watermark bump.
	 */
	bool contig_v6;
	/*
	 * "mm/page_alloc: add alloc_contig_pages()" (5.5, the search that
	 * hugetlb's gigantic pages used, made generic): find and take a
	 * range of a given size anywhere, not only a given range.
	 */
	bool contig_pages;
	/*
	 * "mm/page_alloc: place pages to tail in __free_pages_core()" (5.10):
	 * memory freed to the buddy allocator at boot goes to the tail of
	 * the free lists, so the allocator hands out low addresses first.
	 */
	bool boot_free_to_tail;
	/*
	 * "CMA: generalize CMA reserved area management functionality"
	 * (3.17) and its successors: mm/cma.c's named areas in
	 * CONFIG_CMA_AREAS slots, order_per_bit, cma_alloc(cma, count,
	 * align, no_warn) retrying after a busy range, cma_release
	 * returning bool, cma=nn@[start[-end]], and their messages.
	 */
	bool cma_generic;
	/*
	 * "mm: cma: debugfs interface" (4.0), "mm: cma: support sysfs"
	 * (5.14) and the cma_alloc_success/fail vmstat events (5.14): the
	 * areas' statistics and 6.12's trace event formats (5.14 on; a
	 * release before has none of them).
	 */
	bool cma_stats;
	/*
	 * "mm: Update get_user_pages_longterm to migrate pages allocated
	 * from CMA region" (5.1), then "mm/gup: migrate pinned pages out of
	 * movable zone" (5.13): a FOLL_LONGTERM pin first moves the page out
	 * of CMA; migration refuses pinned folios by their expected
	 * references, and "mm/compaction: avoid isolating pinned pages"
	 * (5.12) leaves pinned anonymous pages unisolated.
	 */
	bool longterm_migrate;
	/*
	 * "migrate_pages: batch flushing TLB" (6.4): in MIGRATE_ASYNC,
	 * migrate_pages_batch unmaps up to NR_MAX_BATCHED_MIGRATION folios
	 * and flushes their TLB entries once; the synchronous modes still
	 * flush each page table entry as it is cleared, as v3.5 always does.
	 */
	bool batched_unmap_flush;
	/*
	 * "migrate_pages: batch _unmap and _move" (6.3): migrate_pages loses
	 * its `force` argument; MIGRATE_SYNC waits for a page under writeback
	 * at its first synchronous try, where v3.5 waits only from the fourth
	 * pass on (pass > 2) and retries (-EAGAIN) before.
	 */
	bool migrate_wait_at_once;
	/*
	 * "mm: compaction: Restart compaction from near where it left off"
	 * (3.7) and "mm, compaction: add per-zone migration pfn cache for
	 * async compaction" (3.16): a direct compaction starts its scanners
	 * where the zone's last run left them (compact_cached_free_pfn,
	 * compact_cached_migrate_pfn[async, sync]), back at the zone's ends
	 * once they met.
	 */
	bool compact_cached_pfn;
	/*
	 * "mm: compaction: cache if a pageblock was scanned and no pages were
	 * isolated" (3.7): PB_migrate_skip on a pageblock where the migrate
	 * scanner isolated nothing or the free scanner scanned it whole;
	 * compaction passes such blocks by until __reset_isolation_suitable
	 * clears them (kswapd going to sleep, or compaction restarting after
	 * the longest deferral), unless cc->ignore_skip_hint.
	 */
	bool compact_skip_hint;
	/*
	 * "mm, compaction: add vmstats for kcompactd work" (4.19): the scanner
	 * events are counted once per compact_zone (count_compact_events of
	 * cc->total_migrate_scanned), so alloc_contig_range's scanning no
	 * longer shows in compact_migrate_scanned; the library counts it as
	 * contig_migrate_scanned (no kernel's), for the cost model.
	 */
	bool compact_events_per_run;
	/*
	 * 6.x's /proc layout: migrate type names and order, vmstat names,
	 * zoneinfo's managed/cma lines. Many changes, not one: taken from
	 * 6.0 on; a release before prints 3.5's layout.
	 */
	bool proc_v6;
	/*
	 * "arm64: Kernel booting and initialisation" and the rest of the
	 * arm64 port (3.7): CMA_ARCH_ARM64, with the zones of its
	 * zone_sizes_init and the CMA of dma_direct_alloc.
	 */
	bool arm64;
	/*
	 * "mm: use migrate_prep() instead of migrate_prep_local()" (3.8):
	 * __alloc_contig_migrate_range first empties every CPU's LRU
	 * pagevecs (lru_add_drain_all), not only its own, so that a page
	 * another CPU has just added is on the LRU to be isolated; 5.13's
	 * lru_cache_disable took its place (contig_v6 here).
	 */
	bool contig_drain_all;
	/*
	 * "mm, compaction: allow compaction for GFP_NOFS requests" (4.10)
	 * with "mm: alloc_contig: re-allow CMA to compact FS pages" (4.10):
	 * direct compaction runs for a request without __GFP_FS (not one
	 * without __GFP_IO), and a compaction or alloc_contig_range whose
	 * gfp mask lacks __GFP_FS isolates no page with a mapping (page
	 * cache, swap cache): anonymous pages only. alloc_contig_range
	 * compacts as GFP_KERNEL unless contig_gfp gives it the caller's.
	 */
	bool compact_nofs;
	/*
	 * "mm: alloc_contig_range: allow to specify GFP mask", "mm: cma_alloc:
	 * allow to specify GFP mask" and "mm: wire up GFP flag passing in
	 * dma_alloc_from_contiguous" (4.11): dma_alloc_coherent's gfp reaches
	 * alloc_contig_range's compact_control through cma_alloc; until
	 * cma_alloc_no_warn.
	 */
	bool contig_gfp;
	/*
	 * "mm/cma: remove unsupported gfp_mask parameter from cma_alloc()"
	 * and its dma_alloc_from_contiguous twin (4.19): cma_alloc takes
	 * only no_warn and always compacts as GFP_KERNEL.
	 */
	bool cma_alloc_no_warn;
	/*
	 * "mm, page_alloc: drain per-cpu pages from workqueue context"
	 * (4.11): drain_all_pages queues a work item on each CPU with pages
	 * on its lists (mm_percpu_wq) and flushes them one after another,
	 * where v3.5 sent an IPI; until drain_pcp_remote. The library
	 * drains every CPU's lists from the caller under all three; cmasim
	 * prices what each kernel does (doc/cost-model.md).
	 */
	bool drain_pcp_wq;
	/*
	 * "mm/page_alloc: remotely drain per-cpu lists" (6.0): the caller
	 * empties each CPU's lists itself under that CPU's pcp lock, no
	 * work item, no IPI.
	 */
	bool drain_pcp_remote;
	/*
	 * "mm/cma: always check which page caused allocation failure" (4.5):
	 * neither a -EBUSY from __alloc_contig_migrate_range nor a start
	 * page outside any free block ends alloc_contig_range: it drains
	 * and lets test_pages_isolated decide (and report the busy page),
	 * as 6.12 does.
	 */
	bool contig_busy_test;
	/*
	 * "mm, compaction: introduce direct compaction priority" and "mm,
	 * compaction: more reliably increase direct compaction priority"
	 * (4.8), "mm: tree wide: replace __GFP_REPEAT by __GFP_RETRY_MAYFAIL
	 * with more useful semantic" (4.13): a costly order's slow path
	 * compacts async first, then, after reclaim, at SYNC_LIGHT;
	 * __GFP_NORETRY ends it after the async try when that was skipped or
	 * deferred (or for __GFP_THISNODE), and only __GFP_RETRY_MAYFAIL
	 * loops, through should_reclaim_retry and should_compact_retry
	 * (MAX_COMPACT_RETRIES). try_to_compact_pages consults each zone's
	 * deferral at both priorities, defers a zone whose sync run failed,
	 * and a run that was only deferred still counts a stall.
	 */
	bool compact_priority;
	/*
	 * "hugetlbfs: don't retry when pool page allocations start to fail"
	 * (5.4): a pool page is asked with __GFP_RETRY_MAYFAIL until one
	 * fails on its node, then with __GFP_NORETRY until one succeeds
	 * there again (node_alloc_noretry, kept over one resize).
	 */
	bool hugetlb_noretry;
	/*
	 * "mm/compaction: stop the isolation when we isolate enough
	 * freepage" (4.1): the free scanner stops inside a pageblock once it
	 * holds as many free pages as the migrate scanner isolated, and the
	 * next call resumes there; v3.5 takes every free page of the block.
	 */
	bool free_scan_enough;
	/*
	 * "mm, compaction: sample pageblocks for free pages" (5.1): the free
	 * scanner looks at every stride-th pfn, the stride COMPACT_CLUSTER_MAX
	 * at an async run's start, 1 after a block that gave pages, doubled
	 * up to COMPACT_CLUSTER_MAX after one that gave none (sync runs too);
	 * a block sampled to its end is marked skip like one scanned whole.
	 */
	bool free_scan_stride;
	/*
	 * "mm, page_alloc: drain per-cpu pages from workqueue context"
	 * (4.11), kept by 6.0's __drain_all_pages: one drain_all_pages runs
	 * at a time, under pcpu_drain_mutex. A caller that finds one running
	 * returns at once if it names no zone (the slow path, vmstat), and
	 * waits for the mutex and drains if it names one (CMA, hotplug,
	 * memory failure), which must find the lists empty after. v3.5's
	 * callers IPI the CPUs side by side.
	 */
	bool drain_pcp_mutex;
	/*
	 * "mm: alloc_contig_range: demote pages busy message from warn to
	 * info" (3.19): test_pages_isolated's failure is logged at KERN_INFO
	 * as "alloc_contig_range: [start, end) PFNs busy", where v3.5 warns
	 * "alloc_contig_range test_pages_isolated(start, end) failed".
	 */
	bool contig_busy_info;
	/*
	 * "mm/page_alloc: drop pr_info_ratelimited() in alloc_contig_range()"
	 * (5.13): the busy range is not logged at all (the test_pages_isolated
	 * tracepoint remains).
	 */
	bool contig_busy_quiet;
	/*
	 * "mm: cma: discard clean pages during contiguous allocation instead
	 * of migration" (3.8): each batch __alloc_contig_migrate_range
	 * isolated first goes through reclaim_clean_pages_from_list, which
	 * frees its clean, evictable file pages (unmapping the mapped ones,
	 * their references ignored) through shrink_page_list; only the rest
	 * is migrated.
	 */
	bool contig_reclaim_clean;
	/*
	 * "mm, compaction: use free lists to quickly locate a migration
	 * target" and "mm, compaction: round-robin the order while searching
	 * the free lists for a target" (5.1): before its linear scan, a
	 * direct or background run's free scanner looks for a target on the
	 * MOVABLE free lists below the requested order (from the tail,
	 * fast_search_fail shortening the look), prefers one in the top
	 * quarter of the space between the scanners, takes it and the free
	 * pages of its pageblock (not in an async direct run), and at a
	 * scan's start moves the free scanner down to the highest candidate
	 * or halfway to the migrate scanner when it finds none.
	 */
	bool compact_fast_free;
	/*
	 * "mm, compaction: use free lists to quickly locate a migration
	 * source" (5.1): at a pageblock's start, a run for more than a costly
	 * order (a direct one only for a movable request) looks on the
	 * MOVABLE free lists of PAGE_ALLOC_COSTLY_ORDER and up for a block
	 * with free pages in the first half (at the run's start) or eighth of
	 * the space between the scanners, and migrates from there; its
	 * failures, with the free side's, shorten both searches.
	 */
	bool compact_fast_migrate;
	/*
	 * "mm: compaction: include compound page count for scanning in
	 * pageblock isolation" (release not checked here) and "mm:
	 * compaction: consider the number of scanning compound pages in
	 * isolate fail path" (6.4): the scanners count a compound page they
	 * step over, and the free scanner a free block it takes, as all its
	 * pages scanned (compact_free_scanned, compact_migrate_scanned). The
	 * free scanner steps over a compound page at once (4.2's "mm,
	 * compaction: skip compound pages by order in free scanner"; before
	 * 6.4 the step counted one pfn, which no profile models).
	 */
	bool compact_scan_count_order;
	/*
	 * "mm: cma: skip watermarks check for already isolated blocks in
	 * split_free_page()" (3.8, with "cma: fix counting of isolated
	 * pages" of 3.7 under it): a free block of a MIGRATE_ISOLATE
	 * pageblock is split off without a watermark check, its pages being
	 * no longer counted free; v3.5 refuses it below low + 2^order, so
	 * that alloc_contig_range fails on a full zone once __reclaim_pages
	 * (gone in 3.8) no longer makes room first.
	 */
	bool isolated_split_nowmark;
	/*
	 * "mm: compaction: move migration fail/success stats to migrate.c"
	 * and "mm: compaction: add scanned and isolated counters for
	 * compaction" (3.8): /proc/vmstat shows pgmigrate_success/fail and
	 * compact_migrate_scanned, _free_scanned, _isolated where v3.5 shows
	 * compact_blocks_moved, _pages_moved and _pagemigrate_failed (the
	 * library counts both sets under every release).
	 */
	bool vmstat_migrate_events;
	/*
	 * d7b236e10ced "mm: drop migrate type checks from
	 * has_unmovable_pages" and 4da2ce250f98 "mm: distinguish CMA and
	 * MOVABLE isolation in has_unmovable_pages()" (Oct 2017, 4.15; both
	 * named in Vlastimil Babka's review of 22 May 2018 on linux-mm, and
	 * absent from 4.14 per the stable bot's dependency list of
	 * 14 Jun 2019): isolation scans MOVABLE pageblocks for unmovable
	 * pages, and CMA ones unless MIGRATE_CMA is asked for.
	 */
	bool isolate_scan_movable;
	/*
	 * 1a9f219157b2 "mm/hotplug: treat CMA pages as unmovable" (April
	 * 2019; in 5.0.17 as a stable backport, so upstream by 5.1):
	 * isolation refuses a CMA pageblock unless MIGRATE_CMA is asked for.
	 */
	bool isolate_cma_refuse;
	/*
	 * "mm, tree wide: replace __GFP_REPEAT by __GFP_RETRY_MAYFAIL with
	 * more useful semantic", "mm: unify new_node_page and
	 * alloc_migrate_target" and "mm, migration: do not trigger OOM killer
	 * when migrating memory" (Michal Hocko; listed together in the mm
	 * tree's since-4.12 shortlog of 7 Jul 2017, merged for 4.13): the OOM
	 * killer is not called for __GFP_RETRY_MAYFAIL, and alloc_contig_range's
	 * migration targets ask GFP_USER | __GFP_MOVABLE | __GFP_RETRY_MAYFAIL.
	 */
	bool retry_mayfail;
	/*
	 * Akinobu Mita's "x86: enable DMA CMA with swiotlb" and
	 * "arch/x86/kernel/pci-dma.c: fix dma_generic_alloc_coherent() when
	 * CONFIG_DMA_CMA is enabled" (the mm tree's since-3.15 shortlog, 19
	 * Jun 2014, merged for 3.16; 4.4's d0164adc89f6 diff shows the test
	 * it left, "flag & __GFP_WAIT", become gfpflags_allow_blocking):
	 * x86's coherent allocations take CMA only when they may sleep, where
	 * the seed's test was "not GFP_ATOMIC".
	 */
	bool dma_cma_blocking;
	/*
	 * bd2e75633c80 "dma-contiguous: use fallback alloc_pages for single
	 * pages" (Nicolin Chen; v2 posted 6 May 2019, in mainline by 29 Aug
	 * 2019 per Masahiro Yamada's report of that date: 5.3): a device
	 * without an area of its own takes a one-page buffer from the buddy
	 * allocator, not the default area.
	 */
	bool dma_single_page_buddy;
	/*
	 * 944d9fec8d7a "hugetlb: add support for gigantic page allocation at
	 * runtime" (Luiz Capitulino, committed 4 Jun 2014; 3.16-rc1, and
	 * listed in the mm tree's since-3.15 shortlog of 20 Jun 2014):
	 * alloc_gigantic_page calls alloc_contig_range(MIGRATE_MOVABLE) over
	 * any free range of a zone, whatever its pageblocks' types, relying
	 * on has_unmovable_pages to scan UNMOVABLE and RECLAIMABLE blocks
	 * and on the undo to retype them MOVABLE. v3.5's code does the same
	 * but no caller asked it; its kernel-doc still demands blocks of the
	 * requested type, which the library holds to before 3.16.
	 */
	bool contig_any_movable;
	/*
	 * 7ee793a62fa8 "cma: Remove potential deadlock situation" (Laura
	 * Abbott; in the same since-3.15 shortlog, so after 3.15; Joonsoo
	 * Kim's June 2014 patches that became 3.17's mm/cma.c already find
	 * its lock in drivers/base/dma-contiguous.c, and a mainline
	 * dma-contiguous.c has the lock with 3.16's cma=size@base-limit but
	 * without 3.17's order_per_bit: 3.16): the bitmap gets its own lock,
	 * cma->lock (a mutex; a spinlock since 5.13); cma_alloc reserves
	 * the bits under it, holds cma_mutex only around each
	 * alloc_contig_range and clears the bits of a range that failed;
	 * a release frees the pages, then clears the bits, without
	 * cma_mutex. The loop no longer sets -ENOMEM when the bitmap runs
	 * out, so the failure message (cma_generic) shows the last
	 * alloc_contig_range's error: "ret: -16" after busy ranges.
	 */
	bool cma_bitmap_lock;
	/*
	 * ee8eb9a5fe86 "mm/page_alloc: increase default min_free_kbytes
	 * bound" (Joel Savitz, posted 20 Feb 2020; 5.7, as OpenZFS's
	 * arc_os.c tests it with KERNEL_VERSION(5, 7, 0)): the default
	 * min_free_kbytes is clamped at 262144 (256 MiB), not 65536.
	 */
	bool min_free_kbytes_256m;
};

/*
 * The profile of release @name ("3.5", "4.8", "6.12"); NULL names the
 * default, 3.5. NULL if there is none.
 */
const struct kernel_profile *kernel_profile_find(const char *name);
/* The accepted names, for messages. */
#define KERNEL_PROFILES_ACCEPTED "a release from 3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12)"

#endif
