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
 * Each switch's comment gives its commits (the id where a source showed
 * one), the release, and how that release is known: the commit date
 * Linus's tree gives it, inside that release's merge window; a vX.Y-rc
 * shortlog; the -mm tree's since-X.Y shortlog (its queue on top of vX.Y,
 * sent in the next merge window); a pull request to Linus; akpm's mmotm
 * lists, the last against vX.Y-rcN to queue a patch for linux-next and
 * the first against vX.Y without it; a stable or fix mail; or stored
 * copies of the source at the releases around it. "Bracketed" marks a
 * release only bounded by such sources, "unverified" one no source was
 * found for. The comment's last sentence, "Commit: ...", names the
 * switch's own commits (ids, or subjects where no id was found; "none"
 * for a bundle of many): other ids in it are evidence.
 * tests/golden/profiles.txt lists every switch with its release;
 * scripts/profile-table.sh prints the table with each one's commits
 * (test_profile_dates checks both).
 *
 * Chosen at cma_mm_create (cma_mm_config.kernel) and fixed for the
 * machine's life, so it is read without a lock.
 */
#ifndef CMA_MM_PROFILE_H
#define CMA_MM_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

struct kernel_profile {
	const char *name;		/* "3.5", "4.8", "6.12" */
	unsigned release;		/* major * 100 + minor: 305, 408, 612 */

	/*
	 * Only allocations with ALLOC_CMA (movable ones) may take CMA pages,
	 * __zone_watermark_ok does not count free CMA pages for the others,
	 * and min_cma_pages and alloc_contig_range's __reclaim_pages are gone.
	 * "cma: fix watermark checking" (3.7) and "mm: cma: remove watermark
	 * hacks": 3.8 (the -mm since-3.7 shortlog,
	 * linux-mm 2012-12-17, queued for the 3.8 merge window).
	 * Commit: "mm: cma: remove watermark hacks".
	 */
	bool alloc_cma;
	/*
	 * __rmqueue takes movable allocations from CMA first while free CMA
	 * pages exceed half of the zone's free pages. 16867664936e
	 * "mm,page_alloc,cma: conditionally prefer cma pageblocks for movable
	 * allocations": 5.8 (not in v5.7.10: the stable bot lists it among
	 * the commits that tree lacks; still under review with akpm on
	 * 2020-04-01, inside the 5.7 merge window).
	 * Commit: 16867664936e.
	 */
	bool cma_balance;
	/*
	 * MIGRATE_HIGHATOMIC in place of MIGRATE_RESERVE, with that era's
	 * fallback and stealing rules. 0aaa29a56e4f "mm, page_alloc: reserve
	 * pageblocks for high-order atomic allocations on demand": 4.4 (a
	 * later fix for it asks "Cc: stable # 4.4+"; committed 2015-11-06;
	 * the per-release copies of mm/page_alloc.c in garghub/TROVON
	 * (dataset/codebase_cleansed/linux_kernel) show MIGRATE_RESERVE in
	 * v4.3 and unreserve_highatomic_pageblock in v4.4).
	 * Commit: 0aaa29a56e4f.
	 */
	bool highatomic;
	/*
	 * A fallback that steals from another type boosts the zone's
	 * watermarks and wakes kswapd. 1c30844d2dfe "mm: reclaim small
	 * amounts of memory when an external fragmentation event occurs": 5.0
	 * (committed by Linus 2018-12-28, in the 5.0 merge window).
	 * Commit: 1c30844d2dfe.
	 */
	bool watermark_boost;
	/*
	 * ALLOC_NOFRAGMENT: a request whose preferred zone is ZONE_NORMAL,
	 * on a machine with ZONE_DMA32, first takes no fallback smaller than
	 * a pageblock in any zone (a whole block may still be claimed), so
	 * that it spreads into DMA32 before it mixes types in Normal's
	 * blocks; only when every zone failed so does it retry with
	 * fallbacks as before. The slow path never sets it. 6bb154504f8b
	 * "mm, page_alloc: spread allocations across zones before
	 * introducing fragmentation" (committed 2018-12-28, the 5.0 merge
	 * window), whose flag 0a79cdad5eb2 "mm: use alloc_flags to record if
	 * kswapd can wake", the same series, stopped setting (Andrey
	 * Ryabinin: "removed setting of the ALLOC_NOFRAGMENT flag"): 5.0 has
	 * none. "mm/page_alloc.c: fix never set ALLOC_NOFRAGMENT flag"
	 * (posted 2019-04-23) is among the fixes ahead of mm.patch in akpm's
	 * mmotm 2019-04-25-16-30 against 5.1-rc6, the queue for that -rc,
	 * beside "mm, page_alloc: always use a captured page regardless of
	 * compaction result", a fix of 5.1's capture: 5.1 (bracketed).
	 * Commit: 6bb154504f8b, "mm/page_alloc.c: fix never set
	 * ALLOC_NOFRAGMENT flag".
	 */
	bool alloc_nofragment;
	/*
	 * The fair zone allocation policy: the first try of every allocation
	 * takes pages from the zones it may use in proportion to their size,
	 * each zone giving at most its batch (high mark less low mark) before
	 * it is passed over until every batch is spent, so that the pages of
	 * all zones age alike. 81c0a2bb515f "mm: page_alloc: fair zone
	 * allocator policy" (Johannes Weiner, v2 posted 2013-08-02): 3.12
	 * (akpm's mmotm 2013-08-27-16-51 against 3.11-rc7 queues it after
	 * mm.patch, for the 3.12 merge window; its fixes ask stable to take
	 * them into 3.12 and later).
	 * Before 3.13 fff4068cba48 "mm: page_alloc: revert NUMA aspect of
	 * fair allocation policy" (signed off by Linus, 2013-12-20) kept it
	 * to the local node, and Mel Gorman's series of the same day reverted
	 * the exemption of unreclaimable requests ("exclude unreclaimable
	 * allocations from zone fairness policy"): on one node every release
	 * applies it to every first try. Until 4.8 (fair_zone_removed).
	 * Before 3.15 (fair_zone_retry) a first try that found every batch
	 * spent enters the slow path, whose start (prepare_slowpath) refills
	 * the batches.
	 * Commit: 81c0a2bb515f, fff4068cba48.
	 */
	bool fair_zone_alloc;
	/*
	 * A fair first try that fails refills the batches and tries once
	 * more without fairness before the slow path wakes kswapd.
	 * 3a025760fc15 "mm: page_alloc: spill to remote nodes before waking
	 * kswapd" (posted 2014-03-20): 3.15 (the -mm tree's since-3.14
	 * shortlog, Michal Hocko, linux-mm 2014-04-16).
	 * Commit: 3a025760fc15.
	 */
	bool fair_zone_retry;
	/*
	 * A zone whose batch the allocation spent is marked
	 * ZONE_FAIR_DEPLETED there, the fair pass passes over marked zones,
	 * and a failed fair pass refills the batches (of the zones up to the
	 * preferred one, clearing the marks) and retries only if it passed
	 * one over: a pass that failed on the watermarks alone refills
	 * nothing. 4ffeaf3560a5 "mm: page_alloc: reduce cost of the fair
	 * zone allocation policy" (Mel Gorman, v5 6/6 posted 2014-07-09,
	 * after 3.16-rc4; cited by that id in his "mm: page_alloc: Fix
	 * setting of ZONE_FAIR_DEPLETED on UP", linux-mm 2014-09-05): 3.17
	 * (bracketed).
	 * Commit: 4ffeaf3560a5.
	 */
	bool fair_zone_depleted;
	/*
	 * The fair zone allocation policy is gone: reclaim is per node, so
	 * zones no longer age apart. e6cbd7f2efb4 "mm, page_alloc: remove
	 * fair zone allocation policy" (Mel Gorman's node-LRU series): 4.8
	 * (the -mm tree's since-4.7 shortlog, Michal Hocko, linux-mm
	 * 2016-07-29).
	 * Commit: e6cbd7f2efb4.
	 */
	bool fair_zone_removed;
	/*
	 * wakeup_kswapd wakes kswapd for a zone below its high mark, the
	 * mark kswapd balances to (zone_balanced: with a high order, that
	 * order's free blocks too), where v3.5 waited for the low mark.
	 * "mm: vmscan: fix numa reclaim balance problem in kswapd" (Johannes
	 * Weiner, v2 1/3 of the fair zone allocator series, posted
	 * 2013-08-02): 3.12 (akpm's mmotm 2013-08-27-16-51 against
	 * 3.11-rc7 queues it after mm.patch, beside
	 * mm-page_alloc-fair-zone-allocator-policy.patch).
	 * Commit: "mm: vmscan: fix numa reclaim balance problem in kswapd".
	 */
	bool kswapd_wake_high;
	/*
	 * kswapd is woken once for the node, and only if no zone up to the
	 * request's classzone meets its high mark with that classzone's
	 * lowmem reserve (one balanced zone is enough). "mm, vmscan: only
	 * wakeup kswapd once per node for the requested classzone" (Mel
	 * Gorman's node-LRU series): 4.8 (the -mm tree's since-4.7
	 * shortlog, Michal Hocko, linux-mm 2016-07-29).
	 * Commit: "mm, vmscan: only wakeup kswapd once per node for the
	 * requested classzone".
	 */
	bool kswapd_wake_node;
	/*
	 * __alloc_contig_migrate_range under lru_cache_disable, migrate_pages
	 * with MR_CONTIG_RANGE, -ENOMEM ending it, isolation at pageblock
	 * granularity: alloc_contig_range_v6 in place of the v3.5 one. An era
	 * switch, dated by its last part: d479960e44f2 "mm: disable LRU
	 * pagevec during the migration temporarily" (5.13: in the v5.13-rc1
	 * push's revision list) and b2c9e2fbba32 "mm: make alloc_contig_range
	 * work at pageblock granularity": 5.19 (committed to the mm tree
	 * 2022-05-13, after 5.18-rc1, for the 5.19 merge window). Between 5.13
	 * and 5.18 the v3.5 path runs, with contig_drain_all's drain.
	 * Commit: d479960e44f2, b2c9e2fbba32.
	 */
	bool contig_v6;
	/*
	 * Find and take a range of a given size anywhere, not only a given
	 * range (the search hugetlb's gigantic pages used, made generic).
	 * 5e27a2df03b8 "mm/page_alloc: add alloc_contig_pages()": 5.5
	 * (committed by Linus 2019-12-01, in the 5.5 merge window).
	 * Commit: 5e27a2df03b8.
	 */
	bool contig_pages;
	/*
	 * Memory freed to the buddy allocator at boot goes to the tail of the
	 * free lists, so the allocator hands out low addresses first.
	 * 7fef431be9c9 "mm/page_alloc: place pages to tail in
	 * __free_pages_core()": 5.10 (committed by Linus 2020-10-16, between
	 * v5.9 and v5.10-rc1 by a bisection on linux-mm; Vineet Gupta's ARC fix,
	 * in the 5.9 AUTOSEL stable review of 2020-11-09, names it as what
	 * "released v5.10-rc1" stopped booting on).
	 * Commit: 7fef431be9c9.
	 */
	bool boot_free_to_tail;
	/*
	 * mm/cma.c's named areas in CONFIG_CMA_AREAS slots, order_per_bit,
	 * cma_alloc retrying after a busy range, cma_release returning bool,
	 * cma=nn@[start[-end]] and their messages. a254129e8686 "CMA:
	 * generalize CMA reserved area management functionality": 3.17
	 * (committed by Linus 2014-08-06, in the 3.17 merge window); its
	 * cma= placement came before it ("cma: add placement specifier for
	 * "cma=" kernel parameter", 3.16: not in v3.15 by the -mm since-3.15
	 * shortlog, dated 2014-06-04 in the mainline log), shown from 3.17.
	 * Commit: a254129e8686.
	 */
	bool cma_generic;
	/*
	 * A failed cma_alloc logs "cma: __cma_alloc: NAME: alloc failed,
	 * req-size: N pages, ret: E" and dumps the area's bitmap
	 * (cma_debug_show_areas). "mm: cma: print allocation failure reason
	 * and bitmap status": 4.11 (the -mm since-4.10
	 * shortlog, linux-mm 2017-02-23, queued for the 4.11 merge window).
	 * The area's name in the line came later; not modelled.
	 * Commit: "mm: cma: print allocation failure reason and bitmap
	 * status".
	 */
	bool cma_alloc_report;
	/*
	 * A CMA area's base and size are aligned to a pageblock (or the
	 * requested alignment), not to the larger of a pageblock and a
	 * MAX_ORDER block, and a CMA pageblock does not merge with a pageblock
	 * of another type. "mm: cma: use pageblock_order as the single
	 * alignment", with "mm: page_alloc: avoid merging non-fallbackable
	 * pageblocks with others" under it (which has no
	 * effect until an area can be a single pageblock): 5.19 (committed to
	 * the mm tree 2022-05-13 with b2c9e2fbba32, see contig_v6). Before,
	 * mm/cma.c aligned to max(MAX_ORDER - 1, pageblock_order).
	 * Commit: "mm: cma: use pageblock_order as the single alignment".
	 */
	bool cma_pageblock_align;
	/*
	 * The areas' statistics and 6.12's trace event formats: the debugfs
	 * files ("mm: cma: debugfs interface", 4.1: posted 2015-02-12, after
	 * the 4.0 merge window opened, and listed in the -mm since-4.0
	 * shortlog of 2015-04-24, on top of v4.0), the sysfs
	 * files (43ca106fa8ec "mm: cma: support sysfs"), the cma_alloc_success
	 * and _fail vmstat events (bbb269206f3c "mm: vmstat: add cma
	 * statistics"), the cma_alloc_start, _busy_retry and _finish events
	 * with the area's name ("mm: cma: add the CMA instance name to cma
	 * trace events", 7bc1aec5e287 "mm: cma: add trace events for CMA alloc
	 * perf testing"): 5.13 (43ca106fa8ec committed by Linus 2021-05-05,
	 * the others beside it in the same batch in linux-next's history on
	 * 2021-05-06). The mm_migrate_pages_start event came with
	 * 7bc1aec5e287 (its patch adds it to include/trace/events/migrate.h);
	 * mm_migrate_pages' nr_thp_* fields came in 5.9 with
	 * migrate_count_pages' commit, its nr_split in 6.7
	 * (migrate_trace_nr_split), sysfs's release_pages_success in 6.9
	 * (cma_release_stats). Departure: the debugfs files came in 4.1, in
	 * directories named cma-<index>; here they come with the rest, under
	 * 6.12's area names. A release before 5.13 shows none of these.
	 * Commit: 43ca106fa8ec, bbb269206f3c, 7bc1aec5e287.
	 */
	bool cma_stats;
	/*
	 * A FOLL_LONGTERM pin first moves the page out of CMA, and migration
	 * refuses pinned folios by their expected references. "mm: update
	 * get_user_pages_longterm to migrate pages allocated from CMA region"
	 * (5.1) and d1e153fea2a8 "mm/gup: migrate pinned pages out
	 * of movable zone": 5.13 (committed by Linus 2021-05-05, in the 5.13
	 * merge window). A page that cannot be isolated is unpinned and the
	 * pin asked again (5.1 left it pinned in CMA): 6e7f34ebb8d2 "mm/gup:
	 * check for isolation errors" and f68749ec342b "mm/gup: longterm pin
	 * migration cleanup", the same series, listed beside d1e153fea2a8 in
	 * a later Fixes list (Pasha Tatashin's v9, 2021-02-01): 5.13.
	 * Commit: d1e153fea2a8, 6e7f34ebb8d2, f68749ec342b.
	 */
	bool longterm_migrate;
	/*
	 * Compaction (and alloc_contig_range) leaves an anonymous page with
	 * more references than mappings unisolated: migration would fail on
	 * the pin. 119d6d59dcc0 "mm, compaction: avoid isolating pinned
	 * pages": 3.15 (committed by Linus 2014-04-03, in the 3.15 merge
	 * window).
	 * Commit: 119d6d59dcc0.
	 */
	bool compact_skip_pinned;
	/*
	 * In MIGRATE_ASYNC, migrate_pages_batch unmaps up to
	 * NR_MAX_BATCHED_MIGRATION folios and flushes their TLB entries once;
	 * the synchronous modes still flush each page table entry as it is
	 * cleared, as v3.5 always does. 7e12beb8ca2a "migrate_pages: batch
	 * flushing TLB": 6.3 (in linux-next 2023-02-22, the 6.3 merge window,
	 * next to 5dfab109d519; in v6.5-rc5 by a later report).
	 * Commit: 7e12beb8ca2a.
	 */
	bool batched_unmap_flush;
	/*
	 * migrate_pages loses its `force` argument; MIGRATE_SYNC waits for a
	 * page under writeback, and sleeps on a locked page, at its first
	 * synchronous try, where v3.5 does both only from the fourth pass on
	 * (pass > 2) and retries (-EAGAIN) before. 5dfab109d519
	 * "migrate_pages: batch _unmap and _move" (in linux-next 2023-02-22,
	 * the 6.3 merge window) still passed force = pass > 2; its fix
	 * 2ef7dbb26990 "migrate_pages: try migrate in batch asynchronously
	 * firstly" (Huang Ying, posted 2023-03-03 with "Fixes: 5dfab109d519")
	 * dropped it, sync migration trying each folio alone after an
	 * asynchronous batch, and reached the akpm/mm hotfix branches on
	 * 2023-03-08 (kernel.org's post-receive notice of that day): a fix of
	 * a 6.3-rc1 commit, so 6.3, not confirmed by a tag here.
	 * Commit: 2ef7dbb26990.
	 */
	bool migrate_wait_at_once;
	/*
	 * A direct compaction starts its scanners where the zone's last run
	 * left them (compact_cached_free_pfn, compact_cached_migrate_pfn[async,
	 * sync]), back at the zone's ends once they met. c89511ab2f8f "mm:
	 * compaction: Restart compaction from near where it left off" (3.7)
	 * and 35979ef33931 "mm, compaction: add per-zone migration pfn cache
	 * for async compaction": 3.16 (not in v3.15: listed in the -mm
	 * since-3.15 shortlog; committed by Linus 2014-06-04, before
	 * v3.16-rc1).
	 * Commit: c89511ab2f8f, 35979ef33931.
	 */
	bool compact_cached_pfn;
	/*
	 * PB_migrate_skip on a pageblock where the migrate scanner isolated
	 * nothing or the free scanner scanned it whole; compaction passes such
	 * blocks by until __reset_isolation_suitable clears them (kswapd
	 * going to sleep, or compaction restarting after the longest
	 * deferral), unless cc->ignore_skip_hint. bb13ffeb9f6b "mm:
	 * compaction: cache if a pageblock was scanned and no pages were
	 * isolated": 3.7 (committed by Linus 2012-10-09, in the 3.7 merge
	 * window).
	 * Commit: bb13ffeb9f6b.
	 */
	bool compact_skip_hint;
	/*
	 * The scanner events are counted once per compact_zone (its
	 * total_migrate_scanned), so alloc_contig_range's scanning no longer
	 * shows in compact_migrate_scanned; the library counts it as
	 * contig_migrate_scanned (no kernel's), for the cost model.
	 * 7f354a548d1c "mm, compaction: add vmstats for kcompactd work": 4.11
	 * (the -mm since-4.10 shortlog, linux-mm 2017-02-23, queued for the
	 * 4.11 merge window; a later fix names it as where total_*_scanned
	 * began).
	 * Commit: 7f354a548d1c.
	 */
	bool compact_events_per_run;
	/*
	 * 6.x's /proc layout: pagetypeinfo's migrate type names and order,
	 * vmstat's names, zoneinfo's managed/cma lines, meminfo's
	 * KReclaimable and SecPageTables lines, NFS_Unstable at 0 and 16 KiB
	 * kernel stacks. Many changes, taken together from 6.0; a release
	 * before prints 3.5's layout. Dated and split out: MemAvailable
	 * (meminfo_available, 3.14), pagetypeinfo's types (pagetypeinfo_types,
	 * 4.4) and its cap (pagetypeinfo_cap, 5.4). Dated, not split, as the
	 * library's value is the same either way: NFS_Unstable 0 from 5.8
	 * (8d92890bd6b8 "mm/writeback: discard NR_UNSTABLE_NFS, use
	 * NR_WRITEBACK instead": Lustre's configure cites it as
	 * v5.8-rc1~201^2~75; the library has no unstable NFS pages). Not
	 * dated: KReclaimable ("mm, proc: add KReclaimable to /proc/meminfo",
	 * v4 posted 2018-07-31, the release that merged it not found),
	 * SecPageTables, 16 KiB stacks, vmstat's and zoneinfo's lines.
	 * Commit: none: 6.0's /proc layout, many changes taken together.
	 */
	bool proc_v6;
	/*
	 * CMA_ARCH_ARM64, with the zones of its zone_sizes_init and the
	 * coherent DMA of dma_direct_alloc: the arm64 port, 3.7 (merged by Linus on
	 * 2012-10-02, the first day of the 3.7 merge window, as
	 * linux-arm.info reported that day; the reports of 3.7's release in
	 * December 2012 list it). Its DMA took CMA later: arm64_dma_cma.
	 * Commit: none: the arm64 port, a merge of many commits.
	 */
	bool arm64;
	/*
	 * __alloc_contig_migrate_range first empties every CPU's LRU pagevecs
	 * (lru_add_drain_all), not only its own, so that a page another CPU
	 * has just added is on the LRU to be isolated; 5.13's
	 * lru_cache_disable took its place (contig_v6 here). "mm: use
	 * migrate_prep() instead of migrate_prep_local()": 3.8 (the -mm
	 * since-3.7 shortlog, linux-mm 2012-12-17).
	 * Commit: "mm: use migrate_prep() instead of migrate_prep_local()".
	 */
	bool contig_drain_all;
	/*
	 * Direct compaction runs for a request without __GFP_FS (not one
	 * without __GFP_IO), and a compaction or alloc_contig_range whose gfp
	 * mask lacks __GFP_FS isolates no page with a mapping: anonymous pages
	 * only. alloc_contig_range compacts as GFP_KERNEL unless contig_gfp
	 * gives it the caller's. 73e64c51afc5 "mm, compaction: allow
	 * compaction for GFP_NOFS requests": 4.10 (committed by Linus
	 * 2016-12-14, in the 4.10 merge window), with 424f6c4818bb "mm:
	 * alloc_contig: re-allow CMA to compact FS pages" (posted 2017-01-13,
	 * during 4.10-rc: it "made it into 4.10", Michal Hocko on linux-mm,
	 * 2017-08-07).
	 * Commit: 73e64c51afc5, 424f6c4818bb.
	 */
	bool compact_nofs;
	/*
	 * dma_alloc_coherent's gfp reaches alloc_contig_range's
	 * compact_control through cma_alloc; until cma_alloc_no_warn.
	 * "mm: alloc_contig_range: allow to specify GFP mask", e2f466e32f56
	 * "mm: cma_alloc: allow to specify GFP mask" and "mm: wire up GFP flag
	 * passing in dma_alloc_from_contiguous": 4.11 (committed by Linus
	 * 2017-02-24, in the 4.11 merge window).
	 * Commit: "mm: alloc_contig_range: allow to specify GFP mask",
	 * e2f466e32f56.
	 */
	bool contig_gfp;
	/*
	 * cma_alloc takes only no_warn and always compacts as GFP_KERNEL.
	 * 6518202970c1 "mm/cma: remove unsupported gfp_mask parameter from
	 * cma_alloc()" and its dma_alloc_from_contiguous twin: 4.19 (committed
	 * by Linus 2018-08-17, in the 4.19 merge window).
	 * Commit: 6518202970c1.
	 */
	bool cma_alloc_no_warn;
	/*
	 * drain_all_pages queues a work item on each CPU with pages on its
	 * lists (mm_percpu_wq) and flushes them one after another, where v3.5
	 * sent an IPI; until drain_pcp_remote. The library drains every CPU's
	 * lists from the caller under all three; cmasim prices what each
	 * kernel does (doc/cost-model.md). 0ccce3b92421 "mm, page_alloc: drain
	 * per-cpu pages from workqueue context": 4.11 (committed by Linus
	 * 2017-02-24, in the 4.11 merge window).
	 * Commit: 0ccce3b92421.
	 */
	bool drain_pcp_wq;
	/*
	 * The caller empties each CPU's lists itself under that CPU's pcp
	 * lock, no work item, no IPI. 443c2accd1b6 "mm/page_alloc: remotely
	 * drain per-cpu lists": 6.0 (in mm-stable under that id, which
	 * Linus's tree keeps, in linux-next's next-20220718 beside
	 * v5.19-rc7: the 6.0 merge window).
	 * Commit: 443c2accd1b6.
	 */
	bool drain_pcp_remote;
	/*
	 * Neither a -EBUSY from __alloc_contig_migrate_range nor a start page
	 * outside any free block ends alloc_contig_range: it drains and lets
	 * test_pages_isolated decide (and report the busy page), as 6.12
	 * does. 8ef5849fa8a2 "mm/cma: always check which page caused
	 * allocation failure": 4.5 (the -mm since-4.4 shortlog, linux-mm
	 * 2016-01-13, queued for the 4.5 merge window).
	 * Commit: 8ef5849fa8a2.
	 */
	bool contig_busy_test;
	/*
	 * A costly order's slow path compacts async first, then, after
	 * reclaim, at SYNC_LIGHT; __GFP_NORETRY ends it after the async try
	 * when that was skipped or deferred (or for __GFP_THISNODE), and only
	 * __GFP_RETRY_MAYFAIL loops, through should_reclaim_retry and
	 * should_compact_retry (MAX_COMPACT_RETRIES). try_to_compact_pages
	 * consults each zone's deferral at both priorities, defers a zone
	 * whose sync run failed, and a run that was only deferred still counts
	 * a stall. a5508cd83f10 "mm, compaction: introduce direct compaction
	 * priority" (4.8: committed by Linus 2016-07-28), "mm, compaction:
	 * more reliably increase direct compaction priority" (4.9: the parent
	 * of c2033b00dbe8, committed 2016-10-07) and dcda9b04713c "mm, tree
	 * wide: replace __GFP_REPEAT by __GFP_RETRY_MAYFAIL with more useful
	 * semantic": 4.13 (committed by Linus 2017-07-12, in the 4.13 merge
	 * window).
	 * Commit: a5508cd83f10, dcda9b04713c.
	 */
	bool compact_priority;
	/*
	 * A pool page is asked with __GFP_RETRY_MAYFAIL until one fails on
	 * its node, then with __GFP_NORETRY until one succeeds there again
	 * (node_alloc_noretry, kept over one resize). f60858f9d327
	 * "hugetlbfs: don't retry when pool page allocations start to fail":
	 * 5.4 (committed by Linus 2019-09-24, in the 5.4 merge window).
	 * Commit: f60858f9d327.
	 */
	bool hugetlb_noretry;
	/*
	 * The free scanner stops inside a pageblock once it holds as many
	 * free pages as the migrate scanner isolated, and the next call
	 * resumes there; v3.5 takes every free page of the block.
	 * 932ff6bbbdca "mm/compaction: stop the isolation when we isolate
	 * enough freepage": 4.0 (v2 posted 2015-01-30; in mmotm 2015-02-03,
	 * against 3.19-rc7, for linux-next; listed in the -mm since-3.19
	 * shortlog of 2015-02-26 and absent from the since-4.0 one of
	 * 2015-04-24, which lists only the other three patches of Joonsoo
	 * Kim's series, 4.1's compact_finish_fallback among them).
	 * Commit: 932ff6bbbdca.
	 */
	bool free_scan_enough;
	/*
	 * The free scanner looks at every stride-th pfn, the stride
	 * COMPACT_CLUSTER_MAX at an async run's start, 1 after a block that
	 * gave pages, doubled up to COMPACT_CLUSTER_MAX after one that gave
	 * none (sync runs too); a block sampled to its end is marked skip like
	 * one scanned whole. 4fca9730c51d "mm, compaction: sample pageblocks
	 * for free pages": 5.1 (its series "Increase success rates and reduce
	 * latency of compaction" was committed by Linus 2019-03-05, in the
	 * 5.1 merge window).
	 * Commit: 4fca9730c51d.
	 */
	bool free_scan_stride;
	/*
	 * One drain_all_pages runs at a time, under pcpu_drain_mutex. A
	 * caller that finds one running returns at once if it names no zone
	 * (the slow path, vmstat), and waits for the mutex and drains if it
	 * names one (CMA, hotplug, memory failure), which must find the lists
	 * empty after. v3.5's callers IPI the CPUs side by side. The mutex
	 * came with 0ccce3b92421 (see drain_pcp_wq) or with "mm, page_alloc:
	 * use static global work_struct for draining per-cpu pages" beside
	 * it: 4.11 either way (both in the -mm since-4.10 shortlog; 6.0's
	 * __drain_all_pages keeps it).
	 * Commit: 0ccce3b92421 or "mm, page_alloc: use static global
	 * work_struct for draining per-cpu pages" (which of the two was not
	 * found).
	 */
	bool drain_pcp_mutex;
	/*
	 * test_pages_isolated's failure is logged at KERN_INFO as
	 * "alloc_contig_range: [start, end) PFNs busy", where v3.5 warns
	 * "alloc_contig_range test_pages_isolated(start, end) failed".
	 * dae803e165a1 "mm: alloc_contig_range: demote pages busy message from
	 * warn to info": 3.18 (posted 2014-11-03, during 3.18-rc; in mmotm
	 * 2014-11-12, against 3.18-rc4, among the fixes for the current -rc
	 * above mm.patch, and absent from the -mm since-3.18 shortlog of
	 * 2014-12-16, on top of v3.18; "the printk has been there since the
	 * 3.18 days", Doug Ledford on linux-mm, 2017-08-04).
	 * Commit: dae803e165a1.
	 */
	bool contig_busy_info;
	/*
	 * The busy range is not logged at all (the test_pages_isolated
	 * tracepoint remains). 77febec20626 "mm/page_alloc: drop
	 * pr_info_ratelimited() in alloc_contig_range()": 5.13 (dated
	 * 2021-04-30 in the mainline log, in the 5.13 merge window).
	 * Commit: 77febec20626.
	 */
	bool contig_busy_quiet;
	/*
	 * Each batch __alloc_contig_migrate_range isolated first goes through
	 * reclaim_clean_pages_from_list, which frees its clean, evictable file
	 * pages (unmapping the mapped ones, their references ignored) through
	 * shrink_page_list; only the rest is migrated. 02c6de8d757c "mm: cma:
	 * discard clean pages during contiguous allocation instead of
	 * migration": 3.7 (committed by Linus 2012-10-09, in the 3.7 merge
	 * window).
	 * Commit: 02c6de8d757c.
	 */
	bool contig_reclaim_clean;
	/*
	 * Before its linear scan, a direct or background run's free scanner
	 * looks for a target on the MOVABLE free lists below the requested
	 * order (from the tail, fast_search_fail shortening the look), prefers
	 * one in the top quarter of the space between the scanners, takes it
	 * and the free pages of its pageblock (not in an async direct run),
	 * and at a scan's start moves the free scanner down to the highest
	 * candidate or halfway to the migrate scanner when it finds none.
	 * 5a811889de10 "mm, compaction: use free lists to quickly locate a
	 * migration target" and "mm, compaction: round-robin the order while
	 * searching the free lists for a target": 5.1 (the series of
	 * free_scan_stride, committed 2019-03-05).
	 * Commit: 5a811889de10.
	 */
	bool compact_fast_free;
	/*
	 * At a pageblock's start, a run for more than a costly order (a
	 * direct one only for a movable request) looks on the MOVABLE free
	 * lists of PAGE_ALLOC_COSTLY_ORDER and up for a block with free pages
	 * in the first half (at the run's start) or eighth of the space
	 * between the scanners, and migrates from there; its failures, with
	 * the free side's, shorten both searches; a compactor scanning a
	 * block from its start marks it skip as it takes its first page
	 * (test_and_set_skip), so that no search names it again.
	 * 70b44595eafe "mm, compaction: use free lists to quickly locate a
	 * migration source" (the id as Mel Gorman's reply to Andrew Morton
	 * on "Fix excessive CPU usage during compaction", January 2023,
	 * gives it) and
	 * e380bebe4771 "mm, compaction: keep migration source private to
	 * a single compaction instance": 5.1 (the same series, committed
	 * 2019-03-05; the latter posted as 10/22 of its v3, 2019-01-18).
	 * Before 6.5 (kernel.compact_fast_block_scanned) the search marks
	 * the block it names skip, and the scan then passes over it; the
	 * mark at the first page taken is made only when that page is the
	 * block's first.
	 * Commit: 70b44595eafe, e380bebe4771.
	 */
	bool compact_fast_migrate;
	/*
	 * A run whose migrate scanner starts an iteration in the pageblock
	 * it last isolated from (or, as the kernel's last_migrated_pfn starts
	 * at 0, in pageblock 0 at its first) finishes that block: its scan
	 * takes the block's remaining pages at once, not COMPACT_CLUSTER_MAX
	 * at a time, and updates the cached migrate pfn at the block's end
	 * (marking it skip when its scan began at the block's start) even
	 * though it isolated pages (cc->rescan, 6.3's finish_pageblock).
	 * Until 6.5 the block last isolated from is where the iteration that
	 * isolated began. 804d3121ba5f "mm, compaction: avoid rescanning
	 * the same pageblock multiple times": 5.1 (posted as 12/22 of the
	 * series' v3, 2019-01-18; committed 2019-03-05).
	 * Commit: 804d3121ba5f.
	 */
	bool compact_rescan;
	/*
	 * An async or sync-light batch that failed to migrate a page, its
	 * scanner stopped inside a pageblock, rescans that block's rest at
	 * once (finish_pageblock), before the run's finish check and its
	 * drain; for an order of a pageblock the drain waits until pages
	 * migrate again. While a block is to be finished the free-list search
	 * for a source names no other. cfccd2e63e7e "mm, compaction: finish
	 * pageblocks on complete migration failure" and f9d7fc1ae334 "mm,
	 * compaction: finish scanning the current pageblock if requested":
	 * 6.3 (Mel Gorman's "Fix excessive CPU usage during compaction", in
	 * Andrew Morton's "[GIT PULL] MM updates for 6.3-rc1", 2023-02-20).
	 * Not in a MIGRATE_SYNC run (/proc/sys/vm/compact_memory's), and
	 * from 6.5 (its "only force pageblock scan completion when skip
	 * hints are obeyed", kernel.compact_fast_block_scanned) not in a run
	 * that ignores skip hints.
	 * Commit: cfccd2e63e7e, f9d7fc1ae334.
	 */
	bool compact_rescan_failed;
	/*
	 * The pageblock the free-list search names is scanned, not marked
	 * skip and passed over: 90ed667c03fe, the revert of the revert of
	 * 7efc3b726103 "mm/compaction: fix set skip in fast_find_migrateblock"
	 * (that fix was in 6.1 and reverted for 6.2, its CPU-hog reports
	 * answered by 6.3's compact_rescan_failed; v6.1 is the departure,
	 * run as 6.0). With it in the same pull: a compactor marks the block
	 * as it takes its first page whenever its scan began at the block's
	 * start or the zone's ("mm: compaction: update pageblock skip when
	 * first migration candidate is not at the start"), and a block to be
	 * finished is scanned though marked; the block last isolated from is
	 * the one the scanner stopped in ("mm: compaction: ensure rescanning
	 * only happens on partially scanned pageblocks"). 6.5 (Mel Gorman's
	 * series in Andrew Morton's "[GIT PULL] MM updates for 6.5-rc1",
	 * 2023-06-26).
	 * Commit: 90ed667c03fe.
	 */
	bool compact_fast_block_scanned;
	/*
	 * The scanners count a compound page they step over, and the free
	 * scanner a free block it takes, as all its pages scanned
	 * (compact_free_scanned, compact_migrate_scanned). The free scanner
	 * steps over a compound page at once (4.2's "mm, compaction: skip
	 * compound pages by order in free scanner"; before 6.4 the step
	 * counted one pfn, which no profile models). "mm: compaction: include
	 * compound page count for scanning in pageblock isolation" and "mm:
	 * compaction: consider the number of scanning compound pages in
	 * isolate fail path": 6.4 (the first in mm-unstable by 2022-07-27;
	 * the second's v2 posted 2023-03-16, during 6.3-rc, and in Linus's
	 * tree after v6.3 by 2023-04-29, as 56d48d8dbefb in the linux-block
	 * push that took his 6.4 merge window).
	 * Commit: "mm: compaction: include compound page count for scanning
	 * in pageblock isolation", 56d48d8dbefb.
	 */
	bool compact_scan_count_order;
	/*
	 * A free block of a MIGRATE_ISOLATE pageblock is split off without a
	 * watermark check, its pages being no longer counted free; v3.5
	 * refuses it below low + 2^order, so that alloc_contig_range fails on
	 * a full zone once __reclaim_pages (gone in 3.8) no longer makes room
	 * first. "mm: cma: skip watermarks check for already isolated blocks
	 * in split_free_page()" (with "cma: fix counting of isolated pages",
	 * 3.7, under it): 3.8 (the -mm since-3.7 shortlog, linux-mm
	 * 2012-12-17).
	 * Commit: "mm: cma: skip watermarks check for already isolated
	 * blocks in split_free_page()".
	 */
	bool isolated_split_nowmark;
	/*
	 * /proc/vmstat shows pgmigrate_success/fail and
	 * compact_migrate_scanned, _free_scanned, _isolated where v3.5 shows
	 * compact_blocks_moved, _pages_moved and _pagemigrate_failed (the
	 * library counts both sets under every release). "mm: compaction:
	 * Move migration fail/success stats to migrate.c" and "mm:
	 * compaction: Add scanned and isolated counters for compaction": 3.8
	 * (the -mm since-3.7 shortlog, linux-mm 2012-12-17, through Mel
	 * Gorman's balancenuma tree).
	 * Commit: "mm: compaction: Move migration fail/success stats to
	 * migrate.c", "mm: compaction: Add scanned and isolated counters for
	 * compaction".
	 */
	bool vmstat_migrate_events;
	/*
	 * The LRU pagevec holds 15 pages where v3.5's holds 14 (swap.c's
	 * pagevec_size; cmasim's pages per LRU-lock round).
	 * 146500e9604c "mm: get 7% more pages in a pagevec": 4.16 (committed
	 * by Linus 2018-01-31, in the 4.16 merge window).
	 * Commit: 146500e9604c.
	 */
	bool lru_batch_15;
	/*
	 * The folio batch holds 31 pages. 9cecde80aae0 "mm: increase folio
	 * batch size": 6.9 (in Linus's v6.9-rc2 shortlog, 2024-03-31).
	 * Commit: 9cecde80aae0.
	 */
	bool lru_batch_31;
	/*
	 * d7b236e10ced "mm: drop migrate type checks from
	 * has_unmovable_pages" and 4da2ce250f98 "mm: distinguish CMA and
	 * MOVABLE isolation in has_unmovable_pages()" (both named in
	 * Vlastimil Babka's review of 22 May 2018 on linux-mm, and absent
	 * from 4.14 per the stable bot's dependency list of 14 Jun 2019):
	 * isolation scans MOVABLE pageblocks for unmovable pages, and CMA
	 * ones unless MIGRATE_CMA is asked for. 4.15: Michal Hocko's
	 * since-4.14 shortlog of the mm tree (linux-mm 2017-11-20, on v4.14
	 * and mmotm-2017-11-17-16-17) lists both; mmotm 2017-11-07, against
	 * 4.14-rc8, still queued them for linux-next, and mmotm 2017-11-17,
	 * against 4.14, no longer does; a kernel test robot blame of
	 * mm/page_isolation.c (linux-arch 2023-01-28) dates 4da2ce250f98
	 * 2017-11-15.
	 * Commit: d7b236e10ced, 4da2ce250f98.
	 */
	bool isolate_scan_movable;
	/*
	 * 1a9f219157b2 "mm/hotplug: treat CMA pages as unmovable":
	 * isolation refuses a CMA pageblock unless MIGRATE_CMA is asked for.
	 * 5.1, by the stable releases: its v4 was posted to linux-mm on
	 * 2019-04-16; Sasha Levin's AUTOSEL offered upstream commit
	 * 1a9f219157b2 to 5.0 on 2019-05-07, two days after v5.1;
	 * Greg's announcements of 5.0.17 and 5.1.3, sent in the same minute
	 * of 2019-05-17, differ on it: 5.0.17's shortlog lists it under
	 * "Qian Cai (2)", 5.1.3's does not, though both carry Dan
	 * Carpenter's two fsl_hypervisor fixes from after v5.1; and no stored
	 * 5.1.y announcement (5.1.1 to 5.1.21, 5.1.15 not stored) lists it,
	 * as a 5.2 commit mending 5.1 would be. So v5.1 had it. 5.0 had not:
	 * jacklin9/linux-5.0 (2995feb7b0f2, mm/page_alloc.c) returns early
	 * for a CMA block only when MIGRATE_CMA is asked for and scans it for
	 * any other caller.
	 * Commit: 1a9f219157b2.
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
	 * Commit: "mm, migration: do not trigger OOM killer when migrating
	 * memory", "mm: unify new_node_page and alloc_migrate_target".
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
	 * Commit: "x86: enable DMA CMA with swiotlb",
	 * "arch/x86/kernel/pci-dma.c: fix dma_generic_alloc_coherent() when
	 * CONFIG_DMA_CMA is enabled".
	 */
	bool dma_cma_blocking;
	/*
	 * bd2e75633c80 "dma-contiguous: use fallback alloc_pages for single
	 * pages" (Nicolin Chen; v2 posted 6 May 2019): 5.3, by Masahiro
	 * Yamada's report of an SDHCI ADMA failure that reverting it cures:
	 * v5.3-rc6 still fails ("This is included in v5.3-rc6 so I tested
	 * it. No, it did not fix the problem", of hch's 90ae409f9eb3,
	 * linux-arm-kernel 2019-08-26) and v5.2 does not ("I tested v5.2 and
	 * my MMC host controller works", linux-mmc 2019-08-28, the same mail
	 * explaining it by where buffers lay before bd2e75633c80).
	 * A device without an area of its own takes a one-page buffer from
	 * the buddy allocator, not the default area.
	 * Commit: bd2e75633c80.
	 */
	bool dma_single_page_buddy;
	/*
	 * e46a28790e59 "CMA: migrate mlocked pages" (Minchan Kim; in the
	 * -mm tree for linux-next in mmotm 2012-09-27, against 3.6-rc7, so
	 * 3.7 at the earliest, and in v3.7: the -mm since-3.7 shortlog of
	 * 2012-12-17, everything on top of v3.7, has no patch of his):
	 * 3.7. alloc_contig_range isolates with
	 * ISOLATE_UNEVICTABLE, so an mlocked page in the range is migrated
	 * (compaction kept passing it over until compact_unevictable).
	 * Commit: e46a28790e59.
	 */
	bool contig_unevictable;
	/*
	 * 5bbe3547aa3b "mm: allow compaction of unevictable pages" (Eric B
	 * Munson; "came along in v4.1-rc1", Sebastian Andrzej Siewior on
	 * linux-mm, 2019): compaction isolates mlocked pages too, under
	 * vm.compact_unevictable_allowed (default 1, the value modelled).
	 * Commit: 5bbe3547aa3b.
	 */
	bool compact_unevictable;
	/*
	 * 1da2f328fa64 "mm,thp,compaction,cma: allow THP migration for CMA
	 * allocations" (Rik van Riel; 5.7: "only in v5.7 were compound
	 * pages allowed through at all", Hugh Dickins on linux-mm, and the
	 * fixes that name it are marked "Cc: stable # v5.7+"):
	 * isolate_migratepages_block skips compound pages only when
	 * !cc->alloc_contig, so alloc_contig_range migrates an in-use large
	 * folio to a target of its order.
	 * Commit: 1da2f328fa64.
	 */
	bool contig_large_folio;
	/*
	 * eb14d4eefdc4 "mm,page_alloc: drop unnecessary checks from
	 * pfn_range_valid_contig" (Oscar Salvador's "Make alloc_contig_range
	 * handle Hugetlb pages", v6 posted 2021-03-19; in Linus's tree after
	 * v5.12 by 2021-05-06, when gregkh's char-misc-testing took it with
	 * the 5.13 merge window, beside the UFFDIO_CONTINUE series): 5.13. From
	 * 5.5's alloc_contig_pages on, pfn_range_valid_contig refused a range
	 * holding a page in use (page_count) or a hugetlb page (the two checks
	 * 4d73ba5fa710's changelog says it removed); from here on it tries
	 * such a range and lets alloc_contig_range migrate.
	 * Commit: eb14d4eefdc4.
	 */
	bool contig_try_in_use;
	/*
	 * 4d73ba5fa710 "mm: page_alloc: skip regions with hugetlbfs pages
	 * when allocating 1G pages" (Mel Gorman, 14 Apr 2023; a 6.3-rc
	 * hotfix: Linus merged it with mm-hotfixes-stable-2023-04-19-16-36
	 * before 457391b03803 "Linux 6.3", as the linux-6.3.y-rt-rebase push
	 * of 27 Apr 2023 lists them; in the 5.15.109 stable review of 24 Apr
	 * 2023 as "commit 4d73ba5fa710 upstream"): 6.3.
	 * pfn_range_valid_contig refuses a range holding a hugetlb page
	 * again, so that a new gigantic page does not retry every range
	 * of the pool.
	 * Commit: 4d73ba5fa710.
	 */
	bool contig_skip_hugetlb;
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
	 * Commit: 944d9fec8d7a.
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
	 * Commit: 7ee793a62fa8.
	 */
	bool cma_bitmap_lock;
	/*
	 * ee8eb9a5fe86 "mm/page_alloc: increase default min_free_kbytes
	 * bound" (Joel Savitz, posted 20 Feb 2020; 5.7, as OpenZFS's
	 * arc_os.c tests it with KERNEL_VERSION(5, 7, 0)): the default
	 * min_free_kbytes is clamped at 262144 (256 MiB), not 65536.
	 * Commit: ee8eb9a5fe86.
	 */
	bool min_free_kbytes_256m;
	/*
	 * compaction_suitable asks a non-costly order for the min mark (plus
	 * the gap) and skips the fragmentation index for it. 8348faf91f56
	 * "mm, compaction: require only min watermarks for non-costly orders"
	 * (committed 2016-10-07, in the 4.9 merge window) and "mm,
	 * compaction: restrict fragindex to costly orders" (posted
	 * 2016-09-26): 4.9 (both in the -mm since-4.8 shortlog, linux-mm
	 * 2016-10-12).
	 * Commit: 8348faf91f56, "mm, compaction: restrict fragindex to
	 * costly orders".
	 */
	bool compact_suitable_min;
	/*
	 * A direct compactor is done when a free block of its order is on its
	 * own list, on CMA's for a movable request, or on a fallback list
	 * whose block it could claim whole; v3.5 took any block of a
	 * pageblock or more, a CMA one for an unmovable request too.
	 * 2149cdaef6c0 "mm/compaction: enhance compaction finish condition":
	 * 4.1 (committed 2015-04-14, in the 4.1 merge window; posted as v4
	 * 2015-02-12).
	 * Commit: 2149cdaef6c0.
	 */
	bool compact_finish_fallback;
	/*
	 * Async compaction's migrate scanner is restricted only in a direct
	 * run (suitable_migration_source), and there to the request's own
	 * pageblocks: MOVABLE and CMA ones for a movable request, those of
	 * its type for another, so that an unmovable request empties an
	 * unmovable block rather than fall back into a movable one; before,
	 * every async run scanned MOVABLE and CMA blocks only. 282722b0d258
	 * "mm, compaction: restrict async compaction to pageblocks of same
	 * migratetype": 4.12 (posted as 7/8 of Vlastimil Babka's "try to
	 * reduce fragmenting fallbacks" v3, 2017-03-07; in the mm tree's
	 * since-4.11 shortlog, 2017-05-04).
	 * Commit: 282722b0d258.
	 */
	bool compact_async_same_type;
	/*
	 * A direct compactor finishes the pageblock its migrate scanner is in
	 * before it stops. d3a528a25601 "mm, compaction: always finish
	 * scanning of a full pageblock": 5.1 (the series of free_scan_stride,
	 * committed 2019-03-05). 4.12's "mm, compaction: finish whole
	 * pageblock to reduce fragmentation" did so for non-movable requests
	 * that would steal; not modelled.
	 * Commit: d3a528a25601.
	 */
	bool compact_finish_pageblock;
	/*
	 * compact_zone drains this CPU's pagevec and per-CPU lists once its
	 * migrate scanner has left the order-aligned block it last migrated
	 * from, so that the sources it freed merge in buddy and the run sees
	 * its block free (5.14's larger lists would hide them). "mm,
	 * compaction: more focused lru and pcplists draining": 3.19 (the -mm
	 * since-3.18 shortlog, linux-mm 2014-12-16, lists it, with "mm:
	 * introduce single zone pcplists drain", so after v3.18; the
	 * since-3.19 shortlog of 2015-02-26, on top of v3.19, no longer
	 * does). 6.12
	 * records the last migrated pageblock where 3.19 recorded the batch's
	 * first pfn; the 6.12 rule under both.
	 * Commit: "mm, compaction: more focused lru and pcplists draining".
	 */
	bool compact_drain_pcp;
	/*
	 * zone_batchsize caps the batch at 1 MiB of pages, not 512 KiB: 63
	 * pages of 4 KiB in place of 31, and high (6 * batch until 5.14)
	 * doubles with it. d8a759b57035 "mm, page_alloc: double zone's
	 * batchsize" (Aaron Lu): 4.19, by akpm's mmotm lists on linux-mm:
	 * mmotm 2018-08-09-20-10, against 4.18-rc8, still queues it for
	 * linux-next, and mmotm 2018-08-21-23-23, against 4.18, no longer
	 * carries it, so Linus took it after 4.18-rc8 (a stored v4.18,
	 * WindRiver-Labs/linux-yocto-4.18, still caps the batch at 512 KiB);
	 * and Mel Gorman cites it by its mainline id on linux-mm on
	 * 2018-10-17 (Re: [RFC v4 PATCH 2/5] mm/__free_one_page), before
	 * Greg released 4.19 on 2018-10-22 (his "Linux 4.19" announcement as
	 * linuxtoday.com carries it).
	 * Commit: d8a759b57035.
	 */
	bool pcp_batch_1m;
	/*
	 * pcp->high is the zone's low mark shared among the CPUs, at least
	 * 4 * batch (zone_highsize), recomputed whenever the marks change;
	 * a free over high gives back batch << free_factor pages, the factor
	 * doubling with each such free without an allocation between
	 * (nr_pcp_free), at most high - batch. b92ca18e8ca5
	 * "mm/page_alloc: disassociate the pcp->high from pcp->batch" and
	 * 3b12e7e97938 "mm/page_alloc: scale the number of pages that are
	 * batch freed": 5.14 (Mel Gorman's series, posted 2021-05-25 during
	 * 5.13-rc; both mainline ids are in Linus's tree by 2021-06-30, three
	 * days after v5.13, as acme's push merging it that day lists them).
	 * "limit
	 * the number of pages on PCP lists when reclaim is active", of the
	 * same series, is not modelled.
	 * Commit: b92ca18e8ca5, 3b12e7e97938.
	 */
	bool pcp_high_lowmark;
	/*
	 * PCP high auto-tuning: high moves between high_min (5.14's) and
	 * high_max (managed / 8 shared among the CPUs). A refill raises it by
	 * the refill and takes batch << alloc_factor pages, the factor
	 * growing with each refill without a free; a free over high frees
	 * free_count pages (those freed since allocations last halved it)
	 * and raises high to hold them; while the zone is under its high mark
	 * (ZONE_BELOW_HIGH) frees lower high toward high_min instead. 90b41691b988
	 * "mm: add framework for PCP high auto-tuning", 51a755c56dc0 "mm: tune
	 * PCP high automatically", c0a242394cb9 "mm, page_alloc: scale the
	 * number of pages that are batch allocated" and 57c0419c5f0e "mm,
	 * pcp: decrease PCP high if free pages < high watermark": 6.7 (Huang
	 * Ying's series, in mm-stable under these ids on 2023-10-26, three
	 * days before v6.6: the 6.7 merge window). Every
	 * second (cma_vmstat_update) high decays by an eighth toward high_min
	 * and the excess goes back (decay_pcp_high).
	 * Commit: 90b41691b988, 51a755c56dc0, c0a242394cb9, 57c0419c5f0e.
	 */
	bool pcp_high_auto;
	/*
	 * The per-CPU lists hold orders 1 to PAGE_ALLOC_COSTLY_ORDER and the
	 * THP order (pageblock_order) too, one list per order and pcp type
	 * (6.12's order_to_pindex: the THP order has a movable list and one
	 * the other two types share), pcp->count in pages; a refill of order
	 * n takes batch >> n blocks, at least 2. 44042b449872 "mm/page_alloc:
	 * allow high-order pages to be stored on the per-cpu lists": 5.14
	 * (Mel Gorman; the kernel.org post-receive mail of xiang/erofs of
	 * 2021-07-01 lists it among mainline's commits after v5.13, of
	 * 2021-06-27). 5.14 to 5.17 kept a THP list per type and 5.18 to 6.6
	 * one ("use only one PCP list for THP-sized allocations"): 6.12's two
	 * under each. 6.12's PCPF_PREV_FREE_HIGH_ORDER bulk frees of orders
	 * 1-3 are not modelled.
	 * Commit: 44042b449872.
	 */
	bool pcp_high_order;
	/*
	 * hugetlb_cma=: hugetlb_cma_reserve declares one CMA area per node
	 * ("hugetlb%d") for gigantic pages at boot (arm64 in bootmem_init,
	 * before sparse_init and the default area; x86 after
	 * dma_contiguous_reserve), and alloc_gigantic_folio takes a page
	 * from it through cma_alloc before falling back to
	 * alloc_contig_pages; freeing gives it back to the area.
	 * cf11e85fc08c "mm: hugetlb: optionally allocate gigantic hugepages
	 * using cma": 5.7 (Roman Gushchin; the later fixes that cite it tag
	 * it "# 5.7").
	 * Commit: cf11e85fc08c.
	 */
	bool hugetlb_cma;
	/*
	 * ae37c7ff79f1 "mm: make alloc_contig_range handle in-use hugetlb
	 * pages" with 369fa227c219 "mm: make alloc_contig_range handle free
	 * hugetlb pages" (Oscar Salvador's series; by these mainline
	 * hashes, next to eb14d4eefdc4 of contig_try_in_use, in the
	 * linux-next push of 2021-05-06 among the 5.13-rc1 merges): 5.13.
	 * isolate_migratepages_block's PageHuge branch, for
	 * alloc_contig_range only, calls isolate_or_dissolve_huge_page: a
	 * hugetlb page in use is isolated and migrated whole to a fresh one
	 * of its size, a free one dissolved. Before, alloc_contig_range
	 * stepped over it and the range was -EBUSY.
	 * Commit: ae37c7ff79f1, 369fa227c219.
	 */
	bool contig_hugetlb;
	/*
	 * pgmigrate_success and _fail count a large folio's pages, not one
	 * per folio. 1a5bae25e3cf "mm/vmstat: add events for THP migration
	 * without split" (Anshuman Khandual; v4 posted 2020-07-09; in
	 * mainline among the 5.9-rc1 merges, as the linux-leds push of
	 * 2020-12-16 lists it between "Merge tag 'leds-5.9-rc1'" and the
	 * 5.9 merge window's other tags): 5.9. The same commit gave
	 * mm_migrate_pages its nr_thp_* fields. A hugetlb page still counts
	 * one (migrate_count_hugetlb).
	 * Commit: 1a5bae25e3cf.
	 */
	bool migrate_count_pages;
	/*
	 * fd919a85cd55 "mm: page_isolation: prepare for hygienic freelists"
	 * (Johannes Weiner; in the mm-stable revision list Linus pushed to
	 * master on 2024-05-19, the 6.10 merge window): 6.10.
	 * isolate_single_pageblock no longer migrates an LRU or movable page
	 * larger than a pageblock straddling the range's pageblock-aligned
	 * edge (as 6e263fff1de4 "mm: page_isolation: enable arbitrary range
	 * page isolation", Zi Yan, 5.19 with contig_v6, did): the isolation
	 * fails with -EBUSY before anything migrates. hugetlb pages are left
	 * to the migration scan.
	 * Commit: fd919a85cd55.
	 */
	bool isolate_straddle_busy;
	/*
	 * Refault detection: an evicted page cache page leaves a shadow
	 * (the zone's inactive_age, advanced by each eviction and each
	 * activation); a refault whose distance fits in the active file
	 * list is activated at once (workingset_refault and
	 * workingset_activate in /proc/vmstat). a528910e12ec "mm: thrash
	 * detection-based file cache sizing": 3.15 (Johannes Weiner's
	 * series, last posted 2014-01-10; a release summary lists it beside
	 * 3.15's renameat2). Anon shadows (5.9) are not modelled.
	 * Commit: a528910e12ec.
	 */
	bool workingset;
	/*
	 * inactive_list_is_low takes its ratio from the list's own size,
	 * int_sqrt(10 * GB of that list's pages), for file pages too, where
	 * 3.5 kept file lists at 1:1 and took the anon ratio from the
	 * zone's present pages. 59dc76b0d4df "mm: vmscan: reduce size of
	 * inactive file list": 4.7 (posted 2016-04-04; Ganesh Mahendran's
	 * linux-mm mail of 2016-07-19 finds the ratio computed there in
	 * mainline).
	 * Commit: 59dc76b0d4df.
	 */
	bool inactive_ratio_lru;
	/*
	 * A workingset transition (workingset_activate moved since reclaim
	 * last looked) drops the file list's inactive ratio to 0, so the
	 * stale active pages are deactivated. 2a2e48854d70 "mm: vmscan: fix
	 * IO/refault regression in cache workingset transition": 4.12
	 * (posted 2017-04-04 with Andrew Morton's reply the same day, the
	 * 4.12 merge window a month later). 5.9's anon refaults are not
	 * modelled.
	 * Commit: 2a2e48854d70.
	 */
	bool inactive_low_refaults;
	/*
	 * Reclaim and compaction sleep in reclaim_throttle() on one of four
	 * queues (WRITEBACK HZ/10, ISOLATED HZ/50, NOPROGRESS and CONGESTED
	 * one jiffy) with their wake-ups, in place of congestion_wait() and
	 * wait_iff_congested() on the device's congestion, which the page
	 * allocator's slow path no longer calls. Mel Gorman's series:
	 * 8cd7c588decf "mm/vmscan: throttle reclaim until some writeback
	 * completes if congested", d818fca1cac3 "mm/vmscan: throttle reclaim
	 * and compaction when too may pages are isolated", 69392a403f49
	 * "mm/vmscan: throttle reclaim when no progress is being made": 5.16
	 * (in Linus's tree with the 5.16 merge window's merges by 2021-11-14,
	 * the v5.16-rc1 date, as a perf/core push rebased on it lists them).
	 * The same series' 132b0d21d21f "mm/page_alloc: remove the
	 * throttling logic from the page allocator" ([PATCH 5/8], Mel
	 * Gorman, linux-mm 2021-10-22) ends should_reclaim_retry's
	 * congestion_wait(HZ/10) for a round without progress when writes
	 * pending exceed half a passing zone's reclaimable pages, there
	 * since ede37713737834d9 "mm: throttle on IO only when there are too
	 * many dirty and writeback pages" (4.7); a kernel.org post-receive
	 * of 2021-11-09 (dhowells/linux-fs) lists it beside 69392a403f49,
	 * under Linus's "Merge branch 'akpm' (patches from Andrew)" among
	 * the 5.16 merge window's merges.
	 * Commit: 8cd7c588decf, d818fca1cac3, 69392a403f49, 132b0d21d21f.
	 */
	bool reclaim_throttle;
	/*
	 * The block device's page cache migrates with
	 * buffer_migrate_page_norefs (6.12's buffer_migrate_folio_norefs):
	 * a page whose buffers anyone references (a journal's heads, the
	 * per-CPU buffer-head LRU) is refused, however clean. Before it,
	 * def_blk_aops had no ->migratepage (v3.10's fs/block_dev.c), so
	 * fallback_migrate_page wrote a dirty page out (MIGRATE_SYNC) and
	 * try_to_release_page freed its buffers once the journal had
	 * committed them (jbd2_journal_try_to_free_buffers takes a clean
	 * checkpointed buffer off its list): a metadata page is held only
	 * while its transaction runs. Posted by Jan Kara as "[PATCH 5/6]
	 * blkdev: Avoid migration stalls for blkdev pages", linux-mm, 11 Dec
	 * 2018 <20181211172143.7358-6-jack@suse.cz>; 5.0, as Meelis Roos's
	 * bisection between 4.20.0 and 5.0-rc6 found it (linux-mm, 19 Feb
	 * 2019). The library has no block device: cmasim's journaling writer
	 * follows it (cma_kernel_has).
	 * Commit: 88dbcbb3a484 "blkdev: avoid migration stalls for blkdev pages".
	 */
	bool blkdev_migrate_norefs;
	/*
	 * Compaction migrates a large folio below its target order whole:
	 * the free scanner keeps each free block it takes whole on a list
	 * per order (cc->freepages[order]) and compaction_alloc hands out a
	 * target of the folio's order, splitting a larger block and keeping
	 * the halves; a folio of the target order or more (a pageblock or
	 * more for compact_memory) is still passed over
	 * (skip_isolation_on_order). 733aea0b3a7b "mm/compaction: add
	 * support for >0 order folio memory compaction" and ee6f62fd34f0
	 * "mm/compaction: enable compacting >0 order folios" (Zi Yan): 6.9
	 * (in the mm-stable revision list Linus pushed to master on
	 * 2024-03-15, the 6.9 merge window, v6.9-rc1 coming 2024-03-24).
	 * Commit: 733aea0b3a7b, ee6f62fd34f0.
	 */
	bool compact_folios;
	/*
	 * pgmigrate_success and _fail count a hugetlb page's pages, not one.
	 * 5d39a7ebc8be "mm: migrate: correct the hugetlb migration stats"
	 * (Baolin Wang, posted 2021-10-29): 5.17 (in linux-next-history's
	 * push of 2022-01-17, next-20220117, just before f56caedaf94f "Merge
	 * branch 'akpm' (patches from Andrew)", Linus's merge of the 5.17
	 * merge window that a bisection log of the time marks good between
	 * "Merge tag 'mips_5.17'" and the 5.17-rc1 tags).
	 * Commit: 5d39a7ebc8be.
	 */
	bool migrate_count_hugetlb;
	/*
	 * mm_migrate_pages prints nr_split. 49cac03a8f0a "mm/migrate: add
	 * nr_split to trace_mm_migrate_pages stats." (Zi Yan): 6.7 (under
	 * this id in mm-stable by 2023-10-26, as a tree based on it listed
	 * that day next to pcp_high_auto's commits: the 6.7 merge window).
	 * Commit: 49cac03a8f0a.
	 */
	bool migrate_trace_nr_split;
	/*
	 * An area's sysfs directory has release_pages_success. b9ad003af13a
	 * "mm/cma: add sysfs file 'release_pages_success'" (Anshuman
	 * Khandual, posted 2024-02-06): 6.9 (in Linus's master push of
	 * 2024-03-15, with compact_folios' commits).
	 * Commit: b9ad003af13a.
	 */
	bool cma_release_stats;
	/*
	 * /proc/meminfo has MemAvailable (si_mem_available). 34e431b0ae39
	 * "/proc/meminfo: provide estimated available memory" (Rik van
	 * Riel): 3.14 (committed 2014-01-21, two days after v3.13, in the
	 * 3.14 merge window, as its git log shows).
	 * Commit: 34e431b0ae39.
	 */
	bool meminfo_available;
	/*
	 * /proc/pagetypeinfo stops counting a free list at 100000 blocks and
	 * prints ">100000". 93b3a674485f "mm, vmstat: reduce zone->lock
	 * holding time by /proc/pagetypeinfo" (Michal Hocko, posted
	 * 2019-10-25): 5.4 (in Linus's "Linux 5.4-rc7" shortlog, 2019-11-10).
	 * Commit: 93b3a674485f.
	 */
	bool pagetypeinfo_cap;
	/*
	 * /proc/pagetypeinfo lists Movable before Reclaimable and HighAtomic
	 * in Reserve's place: "mm, page_alloc: use masks and shifts when
	 * converting GFP flags to migrate types" (which reorders enum
	 * migratetype) and "mm, page_alloc: remove MIGRATE_RESERVE" (Mel
	 * Gorman): 4.4 (both in the -mm since-4.3 shortlog, linux-mm
	 * 2015-11-11, on top of v4.3, as highatomic's commit is; TROVON's
	 * v4.3 copy of mm/page_alloc.c still has MIGRATE_RESERVE).
	 * Commit: "mm, page_alloc: use masks and shifts when converting GFP
	 * flags to migrate types", "mm, page_alloc: remove MIGRATE_RESERVE".
	 */
	bool pagetypeinfo_types;
	/*
	 * x86's dma_alloc_coherent is dma-direct's dma_direct_alloc: a CMA
	 * buffer beyond the coherent mask is given back and the buddy
	 * allocator asked in the same zone; a buddy page beyond the mask
	 * is retried in ZONE_DMA32, then ZONE_DMA (each retry asking CMA
	 * first again until dma_direct_cma_once); a buffer may end at the
	 * mask's last byte (dma_coherent_ok). Christoph Hellwig's "x86: use
	 * dma-direct" and "x86: remove dma_alloc_coherent_gfp_flags"
	 * (posted 2017-12-29, patches 37 and 41 of "consolidate direct dma
	 * mapping and swiotlb support"): 4.17. The kernel builds
	 * lib/dma-direct.c only with CONFIG_DMA_DIRECT_OPS: the .config
	 * syzbot attached for an x86_64 build of upstream c89be5242607
	 * (4.16.0-rc2+, quoted on linux-mm on 2018-02-28) has
	 * "# CONFIG_DMA_DIRECT_OPS is not set"; the one the 0-day robot
	 * attached for x86_64 4.16.0-07313-gc9e97a1 (linux-mm, 2018-04-19; a
	 * mainline commit 7313 past v4.16, 0adb32858b0b, in the 4.17 merge
	 * window) has CONFIG_DMA_DIRECT_OPS=y. Between them lie only
	 * 4.16-rc3 to v4.16, which took fixes; hch's cover letter of
	 * 2018-01-10 for the swiotlb consolidation (lkml.iu.edu
	 * hypermail/linux/kernel/1801.1/02730.html) had left x86 out, to be
	 * "handled in a later series with other x86 dma mapping changes".
	 * The x86_64 4.17.12 tree xjh19971110/linux-4.17.12 compiles
	 * lib/dma-direct.c (lib/.dma-direct.o.cmd), and hch, on linux-mm on
	 * 2018-04-26, says of x86's dma_alloc_coherent_gfp_flags and
	 * dma_generic_alloc_coherent: "All that code is long gone and
	 * replaced with dma-direct".
	 * Commit: "x86: use dma-direct", "x86: remove
	 * dma_alloc_coherent_gfp_flags".
	 */
	bool x86_dma_direct;
	/*
	 * dma-direct asks CMA once, before the zone retries, which then
	 * ask only the buddy allocator. 90ae409f9eb3 "dma-direct: fix zone
	 * selection after an unaddressable CMA allocation" (Christoph
	 * Hellwig, fixing b1d2dc009dec "dma-contiguous: add
	 * dma_{alloc,free}_contiguous() helpers" of the same merge window):
	 * 5.3 (the "dma-mapping fixes for 5.3-rc" pull,
	 * tags/dma-mapping-5.3-5 on top of v5.3-rc5).
	 * Commit: 90ae409f9eb3.
	 */
	bool dma_direct_cma_once;
	/*
	 * An area that fails to activate (its pages in two zones) gives its
	 * memory to the buddy allocator and keeps a count of 0, where
	 * before it stayed reserved. 072355c1cf2d "mm/cma: expose all pages
	 * to the buddy if activation of an area fails" (David Hildenbrand,
	 * posted 2021-01-27): 5.12 (linux-next's push of 2021-03-01,
	 * next-20210301, lists it under this id after Linus's merge of
	 * "nfs-for-5.12-1", the 5.12 merge window, with a052d4d13d88 "mm:
	 * cma: print region name on failure").
	 * Commit: 072355c1cf2d.
	 */
	bool cma_activate_release;
	/*
	 * dma_atomic_pool_init (kernel/dma/pool.c), arm64 at postcore: three
	 * atomic pools (GFP_KERNEL, GFP_DMA when ZONE_DMA has managed pages,
	 * GFP_DMA32), each of coherent_pool= or 128 KiB per GiB of totalram
	 * (at least 128 KiB, at most MAX_ORDER_NR_PAGES), taken from the
	 * default CMA area when it lies in the pool's zone (cma_in_zone),
	 * else from the buddy allocator, halving down to one page until a
	 * block comes. The pools take the area's first pages at boot.
	 * c84dc6e68a1d "dma-pool: add additional coherent pools to map to gfp
	 * mask" and 1d659236fb43 "dma-pool: scale the default DMA coherent
	 * pool size with memory capacity" (David Rientjes): 5.8, listed among
	 * "David Rientjes (13)" in the dma-mapping pull's shortlog and named
	 * "on track for 5.8" in a request to backport them to LTS kernels; a
	 * v5.8-rc6 boot regression report cites a fix of c84dc6e68a1d. cma_in_zone is
	 * "dma-pool: Only allocate from CMA when in same memory zone"
	 * (Nicolas Saenz Julienne), a 5.9 fix, taken as part of the switch.
	 * Before 5.8 arm64's single 256 KiB pool (kernel/dma/remap.c from
	 * 5.0, arch/arm64/mm/dma-mapping.c before) is not modelled.
	 * Commit: c84dc6e68a1d, 1d659236fb43.
	 */
	bool dma_atomic_pools;
	/*
	 * arm64 has DMA CMA (HAVE_DMA_CONTIGUOUS): early_cma reads cma=,
	 * arm64_memblock_init reserves the default area
	 * (dma_contiguous_reserve) and arm64_swiotlb_alloc_coherent takes
	 * coherent buffers with dma_alloc_from_contiguous. Before it an arm64
	 * machine has none: no default area and no dma_declare_contiguous;
	 * cma= is no parameter of the kernel, so init/main.c's
	 * unknown_bootoption hands it to init as an environment variable,
	 * printing nothing; coherent buffers come from the page allocator
	 * (swiotlb_alloc_coherent, GFP_DMA32 for a mask of 32 bits or less).
	 * The commit: 6ac2104debc2, whose stored copy of
	 * arch/arm64/include/asm/dma-contiguous.h (torvalds/linux) is the
	 * file's first, "Copyright (c) 2013, The Linux Foundation", with an
	 * empty dma_contiguous_early_fixup. Release bracketed, not confirmed:
	 * the per-release copies of arch/arm64/mm/dma-mapping.c in
	 * garghub/TROVON (dataset/codebase_cleansed/linux_kernel) have no CMA
	 * in v3.12 and call dma_alloc_from_contiguous in v3.14; v3.13's copy
	 * is not stored (the v3.13 directory holds other files), no v3.13
	 * tree with arch/arm64 was found, and no shortlog, pull request, tag
	 * or kernelnewbies page naming the commit was found; the stored mail
	 * archives have neither its id nor the string "arm64: Enable CMA",
	 * and a Linaro stable branch v3.14/topic/arm64-cma was seen only by
	 * name (its stored page shows only its head, a cherry-pick of
	 * 7363590d2c46 "arm64: Implement coherent DMA API based on
	 * swiotlb"). Also searched without result: trees named for 3.13
	 * (none of four holds arch/arm64), stored kernel configurations
	 * (none for arm64 3.13 or 3.14) and the commit's full id.
	 * Taken as 3.14.
	 * Commit: 6ac2104debc2.
	 */
	bool arm64_dma_cma;
	/*
	 * swapin_nr_pages: the swap read-ahead window adapts, 2 plus the
	 * read-ahead pages used since the last swap-in (rounded up to a
	 * power of two, at least 4), one page for a lone fault, never below
	 * half the last window; 3.5 always read 2^page-cluster. 579f82901f6f
	 * "swap: add a simple detector for inappropriate swapin readahead"
	 * (Shaohua Li, Hugh Dickins): 3.14, in the shortlog of the mm tree's
	 * since-3.13 branch (Michal Hocko, 2014-02-06, mmotm 2014-02-05) and
	 * listed under 3.14 in a RHEL 7 backport table. The VMA-based
	 * read-ahead of 4.14 (ec560175c0b6 "mm, swap: VMA based swap
	 * readahead", in the since-4.13 shortlog of 2017-09-12 with "mm,
	 * swap: don't use VMA based swap readahead if HDD is used as swap")
	 * is not modelled: it needs the owners' page tables.
	 * Commit: 579f82901f6f.
	 */
	bool swapin_ra_adaptive;
	/*
	 * Anon shadows: an anonymous page reclaimed from the swap cache
	 * leaves a shadow in its slot and ticks the workingset clock, as an
	 * activated anonymous page does; reading the slot back is a refault
	 * (workingset_refault_anon), activated when the distance fits in the
	 * file LRU and, with swap free, the active anon list
	 * (workingset_activate_anon). aae466b0052e "mm/swap: implement
	 * workingset detection for anonymous LRU" and 170b04b7ae49 "mm:
	 * workingset: age nonresident information alongside anonymous
	 * pages" (Joonsoo Kim, v6 posted 2020-06-17): 5.9, committed
	 * 2020-08-11 by Linus Torvalds in the 5.9 merge window (a
	 * bisection report quotes that commit line).
	 * Commit: aae466b0052e, 170b04b7ae49.
	 */
	bool anon_workingset;
	/*
	 * setup_per_zone_wmarks spaces min, low and high by
	 * max(a quarter of the zone's share of min_free_kbytes, present
	 * pages x watermark_scale_factor / 10000), the factor 10 by
	 * default, where v3.5 put low and high a quarter and a half of the
	 * share above min. 795ae7a0de6b "mm: scale kswapd watermarks in
	 * proportion to memory" (Johannes Weiner): 4.6 (committed by Linus
	 * 2016-03-17, after v4.5 of 2016-03-13, in the 4.6 merge window).
	 * Commit: 795ae7a0de6b.
	 */
	bool watermark_scale;
	/*
	 * Only a non-blocking request with __GFP_HIGH (the library's
	 * GFP_ATOMIC; __GFP_ATOMIC in the kernel) gets ALLOC_HARDER: a
	 * GFP_NOWAIT request no longer takes a quarter off the min mark,
	 * nor reaches HIGHATOMIC blocks. d0164adc89f6 "mm, page_alloc:
	 * distinguish between being unable to sleep, unwilling to sleep and
	 * avoiding waking kswapd" (Mel Gorman): "atomic reserves are not
	 * used" by callers that only clear __GFP_DIRECT_RECLAIM: 4.4, by
	 * the per-release copies of mm/page_alloc.c in garghub/TROVON
	 * (dataset/codebase_cleansed/linux_kernel): v4.3's
	 * gfp_to_alloc_flags gives ALLOC_HARDER to every request without
	 * __GFP_WAIT or __GFP_NO_KSWAPD, v4.4's only to one with
	 * __GFP_ATOMIC. No shortlog, pull request or tag naming it was
	 * found.
	 * Commit: d0164adc89f6.
	 */
	bool gfp_atomic;
	/*
	 * Every non-blocking request gets ALLOC_HARDER again (6.x's
	 * ALLOC_NON_BLOCK: HIGHATOMIC blocks and their free pages), but
	 * __zone_watermark_ok takes the quarter off min for it only with
	 * ALLOC_HIGH (ALLOC_MIN_RESERVE): GFP_ATOMIC ends at 3/8 of min,
	 * GFP_NOWAIT at min. A high-order one gets ALLOC_HIGHATOMIC with or
	 * without __GFP_HIGH, until highatomic_min_reserve. 1ebbb21811b7
	 * "mm/page_alloc: explicitly define how __GFP_HIGH non-blocking
	 * allocations accesses reserves" (the id from the Fixes: tag of
	 * highatomic_min_reserve's commit). With it the watermark check
	 * counts the HIGHATOMIC reserve as free for every reserve flag
	 * (ALLOC_RESERVES), a blocking __GFP_HIGH request's too, where it did
	 * for ALLOC_HARDER only: "mm/page_alloc: explicitly define what alloc
	 * flags deplete min reserves" (acked by Vlastimil Babka and Michal
	 * Hocko). Both in Mel Gorman's series "Discard __GFP_ATOMIC" v3
	 * (posted 2023-01-13, answering Michal Hocko's objection of
	 * 2023-01-11 to GFP_NOWAIT reaching the reserves): 6.3, in akpm's
	 * "[GIT PULL] MM updates for 6.3-rc1" (2023-02-20, tag
	 * mm-stable-2023-02-20-13-37), whose shortlog lists both.
	 * Commit: 1ebbb21811b7, "mm/page_alloc: explicitly define what alloc
	 * flags deplete min reserves".
	 */
	bool alloc_non_block;
	/*
	 * lru_cache_add empties the CPU's pagevec at once when the page
	 * added is compound, so that a large folio is never held off the
	 * LRU in one (isolation refuses a page off the LRU from 4.15).
	 * 8f182270dfec "mm/swap.c: flush lru pvecs on compound page
	 * arrival" (Lukasz Odzioba; v2 posted to linux-mm 2016-06-17):
	 * 4.7, as Hugh Dickins names it ("4.7's 8f182270dfec") in the
	 * cover letter of Muchun Song's THP vmstat series, and backported
	 * to 4.1.28 (the linux-mm report of a leak in that stable commit).
	 * Commit: 8f182270dfec.
	 */
	bool lru_add_compound;
	/*
	 * alloc_contig_range replaces the free pool pages left in the range
	 * after migration (replace_free_hugepage_folios): an in-use hugetlb
	 * page migrated to a free pool page (alloc_hugetlb_folio_nodemask)
	 * leaves the old page in the pool, which test_pages_isolated would
	 * find busy. 04f13d241b8b "mm: replace free hugepage folios after
	 * migration" (Ge Yang, posted 2024-12-18 Cc stable; in the mm tree
	 * for 6.14 as the linux-next merge logs of Dec 2024 list it).
	 * Release bracketed: upstream 6.14, and in the 6.12 source this
	 * profile reads (linux-source-6.12, mm/page_alloc.c's
	 * alloc_contig_range_noprof) as its stable backport: taken as 6.12.
	 * Commit: 04f13d241b8b.
	 */
	bool contig_hugetlb_replace;
	/*
	 * Reclaim moves dirty pages out of its way until they are flushed:
	 * shrink_page_list activates a page it finds under writeback, and a
	 * dirty file page it leaves for the flusher, both marked PG_reclaim;
	 * rotate_reclaimable_page takes an active page too, deactivating it
	 * onto its inactive tail when the write ends. c55e8d035b28 "mm:
	 * vmscan: move dirty pages out of the way until they're flushed"
	 * (Johannes Weiner, posted to linux-mm 2017-02-02): 4.11 (the -mm
	 * since-4.10 shortlog, linux-mm 2017-02-23, queued for the 4.11
	 * merge window). Marking a page found under writeback comes from Mel
	 * Gorman's "mm: vmscan: block kswapd if it is encountering pages
	 * under writeback" (posted to linux-mm 2013-04-11): 3.11, as Michal
	 * Hocko's since-3.10 shortlog of the mm tree (linux-mm 2013-07-03, on
	 * v3.10 and mmotm 2013-07-02-15-32) lists it; taken with this switch.
	 * Commit: c55e8d035b28.
	 */
	bool dirty_activate;
	/*
	 * The zone sizes that page_alloc.c's sizing reads are managed pages
	 * (what the buddy allocator was given) where v3.5 read present ones:
	 * the share of min_free_kbytes and the highmem min in
	 * __setup_per_zone_wmarks, lowmem_reserve, totalreserve_pages,
	 * nr_free_zone_pages (so min_free_kbytes itself) and zone_batchsize;
	 * so do vmscan.c's balance gap and pgdat_balanced and the anon
	 * inactive ratio (calculate_zone_inactive_ratio); 4.6's
	 * watermark_scale step reads managed pages from the start. And a
	 * zone's present pages stay the pages it has (spanned less holes):
	 * free_area_init_core takes the memmap and dma_reserve from the
	 * managed estimate only, where v3.5 took them from present_pages
	 * (zoneinfo's "present", the boot log's "LIFO batch" line).
	 * b40da04946aa "mm: use zone->present_pages instead of
	 * zone->managed_pages where appropriate" and "mm: set
	 * zone->present_pages to number of existing pages in the zone"
	 * (Jiang Liu, [RESEND PATCH v3 1/3] and 2/3 on linux-mm 2013-01-15,
	 * "resend the other three patches for v3.9"): 3.9, as Michal
	 * Hocko's since-3.8 shortlog of the mm tree (linux-mm 2013-02-20,
	 * "all mm patches based on v3.8 tag") lists both. The second's
	 * commit id was not found in the sources searched.
	 * Commit: b40da04946aa.
	 */
	bool managed_sizing;
	/*
	 * A request without reserve rights leaves out of the watermark check
	 * the free pages of HIGHATOMIC blocks (nr_free_highatomic), where
	 * 4.4 left out all of nr_reserved_highatomic, free or not, and a
	 * count isolation left behind. c928807f6f6b "mm/page_alloc: keep
	 * track of free highatomic" (Yu Zhao, posted 2024-10-28): 6.12, in
	 * the mm-hotfixes-stable-2024-11-09 pull merged before "Linux
	 * 6.12-rc7" (the kernel.org post-receive log of Linus's tree for
	 * 6.12-rc7 lists both).
	 * Commit: c928807f6f6b.
	 */
	bool wmark_free_highatomic;
	/*
	 * Below the costly order the slow path gives up on reclaim after
	 * MAX_RECLAIM_RETRIES rounds that freed nothing, or once no zone
	 * would pass its min mark even with every reclaimable page free
	 * (should_reclaim_retry); reclaim reports the pages it freed, not
	 * whether a zone is still reclaimable; compaction is retried up to
	 * MAX_COMPACT_RETRIES times and at each priority to SYNC_FULL
	 * (should_compact_retry); only then the OOM path, where v3.5 called
	 * it at the first round without progress and otherwise looped.
	 * 0a0337e0d1d1 "mm, oom: rework oom detection" and "mm, oom: protect
	 * !costly allocations some more" (Michal Hocko: [PATCH 1/3] of
	 * 2015-12-15, [PATCH 12/14] of 2016-04-20): 4.7, the series sent to Linus on
	 * 2016-05-21 (Tetsuo Handa on linux-mm, 2016-05-21, citing
	 * linux-mm-commits), "This has changed in 4.7 by 0a0337e0d1d1"
	 * (Michal Hocko) and a fix Cc'd "stable # 4.7+". The SYNC_FULL
	 * priority and its use by should_compact_retry: "mm, compaction: add
	 * the ultimate direct compaction priority" and "mm, compaction: more
	 * reliably increase direct compaction priority" (Vlastimil Babka),
	 * dropped from -mm on 2016-08-23 behind 4.8's "mm, oom: prevent
	 * premature OOM killer invocation for high order request", back with
	 * its revert in mmotm-2016-09-14 and a -fix posted 2016-09-26, so in
	 * the 4.9 merge window, as Michal Hocko's since-4.8 shortlog of the
	 * mm tree lists both (linux-mm 2016-10-12, on v4.8 and
	 * mmotm-2016-10-11-15-46). The switch takes 4.9; 4.7 and 4.8,
	 * whose compaction retries differed, keep v3.5's loop.
	 * Commit: 0a0337e0d1d1, "mm, oom: protect !costly allocations some
	 * more", "mm, compaction: add the ultimate direct compaction
	 * priority", "mm, compaction: more reliably increase direct
	 * compaction priority".
	 */
	bool reclaim_retry;
	/*
	 * Free pages on the MIGRATE_ISOLATE lists are not counted in
	 * NR_FREE_PAGES (nor a CMA block's in NR_FREE_CMA_PAGES):
	 * set_migratetype_isolate takes the moved pages out, a page freed
	 * into an isolated block is not added, unset_migratetype_isolate
	 * adds them back (6.12 keys account_freepages on the list's type).
	 * So a watermark check during alloc_contig_range no longer counts
	 * the range's own free pages. 2139cbe627b8 "cma: fix counting of
	 * isolated pages": 3.7 (dated 2012-10-08, in the 3.7 merge window,
	 * by a git blame of a later mm/page_isolation.c; "In kernel v3.7
	 * commit 2139cbe627b8" says its author's follow-up "mm: fix
	 * zone_watermark_ok_safe() accounting of isolated pages", linux-mm
	 * 2012-12-18).
	 * Commit: 2139cbe627b8.
	 */
	bool isolated_free_uncounted;
	/*
	 * Free pages moved between lists without being touched go to the
	 * tail of their new list, not the head: move_freepages_block's
	 * (isolation and its undo, stealing, the highatomic reserve), and a
	 * pageblock-or-larger block given back when its isolation ends. So
	 * after alloc_contig_range fails over busy ranges, the allocator
	 * hands out their free pages oldest-undone first, lowest range
	 * first. 293ffa5ebb9c "mm/page_alloc: move pages to tail in
	 * move_to_free_list()" and 47b6a24a2382 "mm/page_alloc: place pages
	 * to tail in __putback_isolated_page()", in the series of
	 * boot_free_to_tail's 7fef431be9c9: 5.10 (committed by Linus
	 * 2020-10-16; the linux-mm bisection of v5.9..v5.10-rc1 names
	 * 293ffa5 as the commit after 7fef431).
	 * Commit: 293ffa5ebb9c, 47b6a24a2382.
	 */
	bool move_free_to_tail;
	/*
	 * free_area_init_core no longer estimates what a zone will manage:
	 * managed pages start as the present pages until mem_init counts
	 * what it frees, with no memmap or dma_reserve taken and no "pages
	 * used for memmap" or "pages reserved" boot line; x86 no longer
	 * computes dma_reserve. 0ac5e785dcb7 "mm/mm_init.c: remove
	 * meaningless calculation of zone->managed_pages in
	 * free_area_init_core()", 6600a6b10c32 "mm/mm_init.c: remove the
	 * useless dma_reserve" and fdb022f6e930 "x86: remove unneeded
	 * memblock_find_dma_reserve()" (Baoquan He, the series
	 * "mm/mm_init.c: refactor free_area_init_core()", posted to
	 * linux-mm 2024-03-18): 6.10, in Andrew Morton's "[GIT PULL] MM
	 * updates for 6.10-rc1" (2024-05-17) and in the post-receive log of
	 * Linus's tree of 2024-05-19, after v6.9 (2024-05-12).
	 * Commit: 0ac5e785dcb7, 6600a6b10c32, fdb022f6e930.
	 */
	bool managed_init_present;
	/*
	 * A high-order request that cannot sleep gets ALLOC_HIGHATOMIC (may
	 * take and reserve HIGHATOMIC blocks) only with __GFP_HIGH
	 * (ALLOC_MIN_RESERVE), as before alloc_non_block: from 6.3 every
	 * such request, GFP_NOWAIT too, reserved blocks. 6a204d4b14c9
	 * "mm/page_alloc: only set ALLOC_HIGHATOMIC for __GPF_HIGH
	 * allocations" (Thadeu Lima de Souza Cascardo, posted to linux-mm
	 * 2025-08-14, acked by Michal Hocko, Fixes: 1ebbb21811b7): 6.18, in
	 * akpm's "[GIT PULL] MM updates for 6.18-rc1" (2025-10-01, tag
	 * mm-stable-2025-10-01-19-00), and "commit 6a204d4b14c9 upstream" in
	 * the 6.12.54-rc1 stable review (2025-10-17), which the 6.12 source
	 * this profile reads (linux-source-6.12, gfp_to_alloc_flags)
	 * carries: taken as 6.12, so 6.3-6.11 keep the reserving GFP_NOWAIT.
	 * Commit: 6a204d4b14c9.
	 */
	bool highatomic_min_reserve;
	/*
	 * rmqueue_buddy's last resort: a request that cannot sleep
	 * (ALLOC_NON_BLOCK, the library's ALLOC_HARDER), of any order,
	 * takes HIGHATOMIC pages when __rmqueue finds none, as such a
	 * request passes the watermark check on them and cannot reach
	 * unreserve_highatomic_pageblock, which only reclaim runs; an
	 * order-0 request goes on to buddy when the per-CPU lists cannot
	 * serve it. Before, HIGHATOMIC pages served order 0 for nobody
	 * ("the reserved pageblocks can not be used for order-0
	 * allocations", 4.4's 0aaa29a56e4f "mm, page_alloc: reserve
	 * pageblocks for high-order atomic allocations on demand"); later
	 * the last resort was ALLOC_OOM's, which the library does not model
	 * (release bracketed: after 4.4, before 281dd25c1a01, whose message
	 * falls back "the same way that ALLOC_OOM can"). 281dd25c1a01
	 * "mm/page_alloc: let GFP_ATOMIC order-0 allocs access highatomic
	 * reserves" (Matt Fleming; linux-source-6.12's rmqueue_buddy tests
	 * ALLOC_OOM|ALLOC_NON_BLOCK): 6.12, "fixed in 6.12-rc6 with commit
	 * 281dd25c1a01" in the CVE-2024-50219 announcement, merged by
	 * Linus with tag mm-hotfixes-stable-2024-10-28-21-50.
	 * Commit: 281dd25c1a01.
	 */
	bool nonblock_highatomic;
	/*
	 * free_area_init_core's warning for a zone whose memmap takes all
	 * of its pages says "pages exceeds freesize", where v3.5 said
	 * "pages exceeds realsize": the same patch split the estimate
	 * (freesize) from the zone's real pages. 9feedc9d831e "mm:
	 * introduce new field 'managed_pages' to struct zone" (Jiang Liu,
	 * posted to linux-mm 2012-11-18, its diff replacing the realsize
	 * line): 3.8, as its git describe v3.7-4152-g9feedc9d831e (cited
	 * in OpenZFS's kernel checks) and garghub/TROVON's copy of v3.8's
	 * mm/page_alloc.c show. Not modelled: "memmap pages exceeds
	 * freesize", Dong Aisheng's "mm/page_alloc: improve memmap_pages
	 * dbg msg" (in linux-next on 2021-06-30; its mainline id and
	 * release not found).
	 * Commit: 9feedc9d831e.
	 */
	bool memmap_exceeds_freesize;
	/*
	 * free_area_init_core takes no memmap from a highmem zone's
	 * estimate and prints no "pages used for memmap" line for it: the
	 * memmap of highmem lives in lowmem (01cefaef40c4). "mm: remove the
	 * highmem zones' memmap in the highmem zone" (Zhong Hongbo, posted
	 * to linux-mm 2014-11-27, "Looks right" from Andrew Morton on
	 * 2014-12-01): 3.19, in Michal Hocko's since-3.18 shortlog of the
	 * mm tree (linux-mm 2014-12-16, on v3.18 and
	 * mmotm-2014-12-15-17-05), and garghub/TROVON's copy of v3.18's
	 * mm/page_alloc.c prints the line for highmem where v3.19's does
	 * not. Its mainline commit id was not found in the sources
	 * searched.
	 * Commit: none found: "mm: remove the highmem zones' memmap in the
	 * highmem zone".
	 */
	bool highmem_memmap_lowmem;
	/*
	 * /proc/zoneinfo's zones no longer end with "inactive_ratio:": the
	 * LRU lists and their ratio moved to the node, printed as
	 * "node_inactive_ratio:" beside the node's own lines (a layout the
	 * library's pre-6.0 zoneinfo does not take), until Andrey
	 * Ryabinin's "mm: remove unused pgdat->inactive_ratio" (posted to
	 * linux-mm 2017-10-03) dropped that too. 599d0c954f91 "mm, vmscan:
	 * move LRU lists to node" (Mel Gorman, committed 2016-07-28): 4.8,
	 * as garghub/TROVON's copies of mm/vmstat.c show (v4.7 prints
	 * "inactive_ratio:", v4.8 "node_inactive_ratio:") and OpenZFS's
	 * kernel checks file it as a "4.8 API change".
	 * Commit: 599d0c954f91.
	 */
	bool zoneinfo_node_lru;
	/*
	 * kswapd gives a node up after MAX_RECLAIM_RETRIES (16) balance_pgdat
	 * runs in a row that reclaimed nothing (pgdat->kswapd_failures): a
	 * hopeless node is not woken, and kswapd sleeps on it; any reclaim
	 * that frees a page there, kswapd's or a direct reclaimer's, makes it
	 * hopeful again. It replaces v3.5's per-zone all_unreclaimable (set
	 * after six times the reclaimable pages scanned, cleared by any page
	 * freed), so kswapd and direct reclaim no longer pass over a zone
	 * given up on. c73322d098e4 "mm: fix 100% CPU kswapd busyloop on
	 * unreclaimable nodes", with "mm: don't avoid high-priority reclaim on
	 * unreclaimable nodes" and "mm: delete NR_PAGES_SCANNED and
	 * pgdat_reclaimable()" ([PATCH 1/9], 5/9 and 7/9 of Johannes Weiner's
	 * "mm: kswapd spinning on unreclaimable nodes", linux-mm 2017-02-28;
	 * committed 2017-05-03): 4.12, all three in Michal Hocko's since-4.11
	 * shortlog of the mm tree (linux-mm 2017-05-04, on the v4.11 tag and
	 * mmotm-2017-05-03-15-16).
	 * Commit: c73322d098e4.
	 */
	bool kswapd_failures;
	/*
	 * should_reclaim_retry no longer shrinks its estimate of what a zone
	 * could reclaim by no_progress_loops / MAX_RECLAIM_RETRIES with each
	 * round that freed nothing: every reclaimable page counts at every
	 * round. The backoff came with 0a0337e0d1d1 "mm, oom: rework oom
	 * detection" (4.7), and 4.9's should_reclaim_retry, behind
	 * kernel.reclaim_retry, has it (Michal Hocko's "mm, oom: protect
	 * !costly allocations some more" keeps it, on a pointer). Johannes
	 * Weiner's "mm: remove unnecessary back-off function when retrying
	 * page reclaim" ([PATCH 9/9] of "mm: kswapd spinning on
	 * unreclaimable nodes", linux-mm 2017-02-28, acked by Michal Hocko
	 * 2017-03-01) drops it: 4.12, listed in Michal Hocko's since-4.11
	 * shortlog of the mm tree (linux-mm 2017-05-04, on the v4.11 tag and
	 * mmotm-2017-05-03-15-16), so not in 4.11 and merged in the 4.12
	 * merge window. Its mainline commit id was not found in the stored
	 * sources.
	 * Commit: "mm: remove unnecessary back-off function when retrying
	 * page reclaim".
	 */
	bool reclaim_retry_no_backoff;
	/*
	 * A new anonymous page starts on the inactive list, as a file page
	 * does, and page_check_references looks twice at it: the referenced
	 * PTE every page has from its fault keeps it for one more trip with
	 * PG_referenced, a second reference activates it. v3.5 put a new
	 * anonymous page on the active list and activated one at its first
	 * referenced PTE. b518154e59aa "mm/vmscan: protect the workingset
	 * on anonymous LRU" (Joonsoo Kim, v7 posted to linux-mm 2020-07-23):
	 * 5.9, listed in the linux-leds post-receive revlist of 2020-12-16
	 * among the 5.9 merge window's mm commits, beside aae466b0052e and
	 * 170b04b7ae49 (anon_workingset's).
	 * Commit: b518154e59aa.
	 */
	bool anon_inactive;
	/*
	 * kswapd reclaims a zone's high mark at each priority, not without
	 * end: balance_pgdat's shrink of an unbalanced zone stops once it
	 * has freed max(SWAP_CLUSTER_MAX, the zone's high mark) pages
	 * (kswapd_shrink_zone's nr_to_reclaim), where v3.5's kswapd set no
	 * target and one low-priority pass could free a large share of the
	 * LRU. 75485363ce85 "mm: vmscan: limit the number of pages kswapd
	 * reclaims at each priority" (Mel Gorman): 3.11, in the shortlog of
	 * the mm tree's since-3.10 branch (Michal Hocko, 2013-07-03, mmotm
	 * 2013-07-02); the per-release copies of mm/vmscan.c in
	 * garghub/TROVON have no kswapd_shrink_zone in v3.10 and set its
	 * target in v3.11.
	 * Commit: 75485363ce85.
	 */
	bool kswapd_reclaim_target;
	/*
	 * kswapd in trouble no longer waits for the device: v3.5's
	 * balance_pgdat slept congestion_wait(HZ/10) after a round below
	 * DEF_PRIORITY - 2 that scanned (counting kswapd_skip_congestion_wait
	 * instead with a zone under its min mark); from 3.9 it goes straight
	 * on, reclaim's own throttling in shrink_inactive_list being thought
	 * enough. "mm: don't wait on congested zones in balance_pgdat()"
	 * (Zlatko Calusic, posted to linux-mm 2013-01-14): 3.9, in the
	 * shortlog of the mm tree's since-3.8 branch (Michal Hocko,
	 * 2013-02-20, mmotm 2013-02-19); the per-release copies of
	 * mm/vmscan.c in garghub/TROVON wait in v3.5 and not in v3.9. 3.8's
	 * wait was wait_iff_congested on the unbalanced zone (the same
	 * author's earlier patch, not dated here); 3.6-3.8 keep 3.5's.
	 * Departure: /proc/vmstat still lists kswapd_skip_congestion_wait,
	 * at 0, where 3.9 removed it.
	 * Commit: none: its id is in none of the stored sources (the posting
	 * and the shortlog give its subject only).
	 */
	bool kswapd_balance_nowait;
	/*
	 * The migrate scanner steps over a free block by its order (read
	 * without zone->lock; an order outside 1..MAX_ORDER-1 steps one pfn)
	 * where it used to look at each of its pages: alloc_contig_range
	 * rescanning a range it has emptied, and compaction crossing free
	 * memory, walk one pfn a block. It counts the block as one pfn
	 * scanned until compact_scan_count_order (6.4) counts all of it.
	 * 99c0fd5e51c4 "mm, compaction: skip buddy pages by their order in
	 * the migrate scanner" (Vlastimil Babka; v6 on linux-mm 2014-08-04,
	 * <1407142524-2025-12-git-send-email-vbabka@suse.cz>; committed
	 * 2014-10-09, in the 3.18 merge window): 3.18, in the shortlog of
	 * the mm tree's since-3.17 branch (Michal Hocko, 2014-10-16, mmotm
	 * 2014-10-15) and not in its since-3.18 one (2014-12-16).
	 * Commit: 99c0fd5e51c4.
	 */
	bool compact_skip_buddy;
	/*
	 * The migrate scanner passes a pageblock that is no source for its
	 * run (suitable_migration_source: an async run's block of another
	 * type) without marking it skip; before, its scan took nothing and
	 * marked it, and a later sync run passed it too. "mm: compaction: do
	 * not mark unmovable pageblocks as skipped in async compaction"
	 * (Vlastimil Babka, V2 5/6, 2013-12-11): 3.14, in the mm tree's
	 * since-3.13 shortlog (Michal Hocko, 2014-02-06) beside 3.14's
	 * "/proc/meminfo: provide estimated available memory"
	 * (kernel.meminfo_available). 3.18's edc2ca612496 "mm, compaction:
	 * move pageblock checks up from isolate_migratepages_range()" passes
	 * the block unscanned, as here from 3.14 (3.14 to 3.17 look at its
	 * first pfn and keep its end as the cached position: a departure);
	 * from 5.1 the passed block's end is the cached position again (that
	 * series' "keep cached migration PFNs synced for unusable
	 * pageblocks", under kernel.compact_fast_migrate).
	 * Commit: "mm: compaction: do not mark unmovable pageblocks as
	 * skipped in async compaction".
	 */
	bool compact_pass_unsuitable;
	/*
	 * A movable request whose own lists are empty takes the smallest
	 * free CMA block that fits (__rmqueue_cma_fallback, before any
	 * steal). Before, CMA was the first of MOVABLE's fallbacks in
	 * __rmqueue_fallback, whose walk from MAX_ORDER - 1 down takes the
	 * largest free block of CMA, RECLAIMABLE or UNMOVABLE: each such
	 * request broke another of the area's largest blocks, and a larger
	 * unmovable or reclaimable block was stolen before a smaller CMA one.
	 * dc67647b78b9 "mm/cma: change fallback behaviour for CMA freepage"
	 * (Joonsoo Kim; v4 on linux-mm 2015-02-12,
	 * <1423725305-3726-1-git-send-email-iamjoonsoo.kim@lge.com>): 4.1,
	 * in the shortlogs of the mm tree's since-3.19 branch (Michal Hocko,
	 * 2015-02-26) and of its since-4.0 one (2015-04-23, on the v4.0 tag).
	 * Commit: dc67647b78b9.
	 */
	bool cma_fallback_smallest;
	/*
	 * A page rmqueue_bulk puts on a per-CPU list records the type of the
	 * free list it came from (the fallback's, after the steal decision),
	 * so that one freed back unused returns to that list. Before, it
	 * recorded the requested type, unless its block was CMA or
	 * ISOLATE: a RESERVE page taken as the last resort and drained
	 * unused went to the requester's list, where a later fallback could
	 * steal it and retype the whole RESERVE block. "mm/page_alloc:
	 * prevent MIGRATE_RESERVE pages from being misplaced" (Vlastimil
	 * Babka; on linux-mm 2014-04-03,
	 * <1396539618-31362-1-git-send-email-vbabka@suse.cz>): 3.16, in the
	 * shortlog of the mm tree's since-3.15 branch (Michal Hocko,
	 * 2014-06-20, on the v3.15 tag and mmotm 2014-06-19).
	 * Commit: none: its id is in none of the stored sources (the posting
	 * and the shortlog give its subject only).
	 */
	bool freepage_mt_from_list;
	/*
	 * A fallback that does not claim the block it splits leaves the
	 * split remainder on the fallback type's lists, where 3.5 put it on
	 * the requester's: a movable request falling back into an unmovable
	 * block no longer hands that block's free pieces to movable
	 * requests. 0cbef29a7821 "mm: __rmqueue_fallback() should respect
	 * pageblock type" (KOSAKI Motohiro; linux-mm 2013-10-31,
	 * <1383193489-27331-1-git-send-email-kosaki.motohiro@gmail.com>):
	 * 3.13, in the shortlog of the mm tree's since-3.12 branch (beside
	 * cgroups/for-3.13). Undone by fallback_steals_split (4.0).
	 * Commit: 0cbef29a7821.
	 */
	bool fallback_respects_type;
	/*
	 * The split remainder of any fallback goes to the requester's lists
	 * again ("By stealing all pages that we have split, we can avoid
	 * further stealing"), ending fallback_respects_type. "mm: always
	 * steal split buddies in fallback allocations" (Vlastimil Babka; v3
	 * on linux-mm 2015-01-23,
	 * <1422018906-8880-3-git-send-email-vbabka@suse.cz>): 4.0, in the
	 * shortlog of the mm tree's since-3.19 branch (Michal Hocko,
	 * 2015-02-26, on the v3.19 tag) and not in its since-4.0 one
	 * (2015-04-23).
	 * Commit: 3a1086f, its first seven digits only (Vlastimil Babka's
	 * linux-mm reply of 2016-09-28 cites it so), "mm: always steal split
	 * buddies in fallback allocations".
	 */
	bool fallback_steals_split;
	/*
	 * Reclaim no longer waits for the device at the end of each zone's
	 * shrink while the pages under writeback exceed the dirty limit and
	 * a tenth (throttle_vm_writeout, from 2005; "the LRU scanning will
	 * throttle on writeback anyway" by then). "mm, vmscan: get rid of
	 * throttle_vm_writeout" (Michal Hocko; linux-mm 2016-08-14,
	 * <1471171473-21418-1-git-send-email-mhocko@kernel.org>): 4.9, in
	 * the shortlog of the mm tree's since-4.8 branch (Michal Hocko,
	 * 2016-10-12, on the v4.8 tag and mmotm 2016-10-11).
	 * Commit: bf48438354a7 "mm, vmscan: get rid of throttle_vm_writeout".
	 */
	bool vm_writeout_unthrottled;
	/*
	 * The dirtyable memory the dirty limits are shares of counts no
	 * anonymous page (they are not dirtyable), and the zones' reserve
	 * comes off the free pages alone ("at least the already allocated
	 * cache should be considered dirtyable"). Johannes Weiner's "mm:
	 * page-writeback: fix dirty_balance_reserve subtraction from
	 * dirtyable memory" and a1c3bfb2f67e "mm/page-writeback.c: do not
	 * count anon pages as dirtyable memory" (linux-mm 2014-01-24,
	 * <1390600984-13925-2-git-send-email-hannes@cmpxchg.org> and -3-;
	 * the latter committed 2014-01-29): 3.14, as kernel bugzilla 75101
	 * says ("Since v3.14", bisected to a1c3bfb2f67e; Andrew Morton's
	 * reply on linux-mm, 2014-04-29).
	 * Commit: a1c3bfb2f67e.
	 */
	bool dirtyable_file_only;
	/*
	 * An unmovable request falling back into another type's block moves
	 * that block's free pages to its own lists and claims the block when
	 * they are half of it, whatever the order it splits, as a
	 * reclaimable request always did; before, only for a split of at
	 * least half a pageblock ("mm: more aggressive page stealing for
	 * UNMOVABLE allocations", Vlastimil Babka, the third patch of
	 * fallback_steals_split's v3 series, linux-mm 2015-01-23): 4.0, in
	 * the shortlog of the mm tree's since-3.19 branch (Michal Hocko,
	 * 2015-02-26) and not in its since-4.0 one (2015-04-23).
	 * Commit: 9c0415e, its first seven digits only (Vlastimil Babka's
	 * linux-mm reply of 2016-09-28 cites it so), "mm: more aggressive page
	 * stealing for UNMOVABLE allocations".
	 */
	bool unmovable_steals_block;
	/*
	 * kcompactd compacts proactively: every 500 ms
	 * (HPAGE_FRAG_CHECK_INTERVAL_MSEC), while kswapd is not running, a
	 * node whose fragmentation score (the share of free memory outside
	 * free blocks of the huge page order, zones weighted by size) is
	 * above 100 - vm.compaction_proactiveness (20) + 10 is compacted
	 * whole, MIGRATE_SYNC_LIGHT, until each zone's score is at most
	 * 100 - 20; a run that lowers nothing defers the next check 64
	 * intervals. 5.9: the first bad commit of a v5.8..v5.9 bisect
	 * (Merlijn Wajer, linux-omap, 2021-12-10, "first bad commit:
	 * [facdaa917c4d5a376d09d25865f5a863f906234a] mm: proactive
	 * compaction"; Nitin Gupta, dated 2020-08-11). 6.12's (the
	 * defer as a timeout, the zone weights) throughout.
	 * Commit: facdaa917c4d "mm: proactive compaction".
	 */
	bool compact_proactive;
	/*
	 * Direct reclaim that freed nothing walks once more from
	 * DEF_PRIORITY (memcg_full_walk: the first walk may have covered
	 * only part of the cgroup tree), counting its allocstall again: a
	 * fruitless stall counts two. 6.11, bracketed: the commit is in
	 * linux-next's pushes of 28 May 2024 (beside the v6.10-rc1 tag)
	 * through June under changing ids, akpm's rebased mm-unstable
	 * queue, so after 6.10's merge window; 6.12's do_try_to_free_pages
	 * has it. Its fix, "mm: vmscan: reset sc->priority on retry"
	 * (Shakeel Butt, linux-kernel 2024-05-29), made the walk start at
	 * DEF_PRIORITY again, in the same queue.
	 * Commit: "mm: vmscan: restore incremental cgroup iteration", "mm: vmscan: reset sc->priority on retry".
	 */
	bool reclaim_full_walk;
	/*
	 * get_scan_count leaves the anonymous lists alone while the zone's
	 * inactive file list is not low (scan_balance.c): the single-use
	 * cache goes before any of the anonymous working set is swapped.
	 * 3.8, bracketed: Rik van Riel posted it as an RFC to linux-mm on
	 * 2012-10-30 (after v3.7-rc3); on 2012-12-12, two days after v3.7,
	 * Johannes Weiner's memcg follow-up ("mm: memcg: only evict file
	 * pages when we have plenty", 7c5bd705d8f9) still names it by its
	 * -mm id dc0422c, so it went to Linus in 3.8's merge window.
	 * Commit: e9868505987a "mm,vmscan: only evict file pages when we have plenty".
	 */
	bool scan_plenty_file;
	/*
	 * get_scan_count balances anon against file by the cost of
	 * reclaiming each (scan_balance.c): the pages a list's reclaim
	 * wrote (pageout) and refaulted back (IO) accumulate per list and
	 * decay, replacing v3.5's recently scanned/rotated ratios; a zone
	 * whose inactive file list is plentiful and not thrashing is trimmed
	 * first (cache_trim_mode), one with almost no file pages reclaims
	 * anon (file_is_tiny), and priority 0 scans both alike (SCAN_EQUAL).
	 * 5.8: the series "mm: balance LRU lists based on relative
	 * thrashing" v2 was posted to linux-mm on 2020-05-20 (Johannes
	 * Weiner, <20200520232525.798933-1-hannes@cmpxchg.org>), and on
	 * 2020-06-16 the kernel test robot reported its 1431d4d11abb in
	 * torvalds/linux.git master (<20200616075750.GM5653@shao2-debian>,
	 * Johannes Weiner's reply <20200616144529.GA616830@cmpxchg.org>),
	 * so between the 5.7 the series followed and 5.8; a stored table
	 * of the series' commits gives 5.8-rc1. 6.12's mm/vmscan.c has its
	 * prepare_scan_control.
	 * Commit: 1431d4d11abb "mm: base LRU balancing on an explicit cost model", "mm: balance LRU lists based on relative thrashing", "mm: vmscan: determine anon/file pressure balance at the reclaim root".
	 */
	bool lru_cost_balance;
	/*
	 * /proc/vmstat's pgscan_anon, pgscan_file, pgsteal_anon and
	 * pgsteal_file: what reclaim scanned and freed of each LRU type,
	 * beside the by-reclaimer counts. 5.8: patch 02/14 of the series
	 * above (2020-05-20, <20200520232525.798933-3-hannes@cmpxchg.org>),
	 * in master with it: the reply of 2020-06-16 above asks the robot
	 * for "the new pgscan_anon & pgscan_file vmstat counters".
	 * Commit: "mm: keep separate anon and file statistics on page reclaim activity".
	 */
	bool vmstat_lru_type;
	/*
	 * The cost of a list also counts its pages reclaim looked at and
	 * kept (rotations, nr_scanned - nr_reclaimed), each write or
	 * refault weighing SWAP_CLUSTER_MAX: a hot anonymous set that only
	 * rotates pushes the scanning back to the file list. 6.2,
	 * bracketed: Johannes Weiner posted it to Andrew Morton on
	 * 2022-10-13 (<20221013193113.726425-1-hannes@cmpxchg.org>), three
	 * days before v6.1-rc1, so for the next merge window; 6.12's
	 * mm/swap.c has its lru_note_cost(lruvec, file, nr_io, nr_rotated).
	 * Commit: "mm: vmscan: make rotations a secondary factor in balancing anon vs file".
	 */
	bool lru_cost_rotations;
	/*
	 * cma_alloc aligns the pfn to the requested order, not the area's
	 * bitmap index: the search is shifted by an offset of the base
	 * (bitmap_find_next_zero_area_off). b5be83e308f7 "mm: cma: align to
	 * physical address, not CMA region position" (Gregory Fong, posted
	 * to linux-mm 2014-11-05): 3.19, in Michal Hocko's since-3.18
	 * shortlog of the mm tree (2014-12-16, on the v3.18 tag). Until
	 * cma_align_offset_down the offset is the distance from the base up
	 * to the next boundary, right only when the base is aligned to half
	 * the request's alignment at least.
	 * Commit: b5be83e308f7.
	 */
	bool cma_align_phys;
	/*
	 * The offset is the base's distance from the boundary below, so
	 * every alignment holds. Doug Berger's "cma: fix calculation of
	 * aligned offset" (posted to linux-mm 2017-06-28,
	 * <20170628170742.2895-1-opendmb@gmail.com>, Fixes: b5be83e308f7):
	 * 4.13, in Michal Hocko's since-4.12 shortlog of the mm tree
	 * (2017-07-07, on the v4.12 tag).
	 * Commit: "cma: fix calculation of aligned offset".
	 */
	bool cma_align_offset_down;
	/*
	 * sysctl.<name>=<value> on the kernel command line writes a sysctl
	 * at boot (the library reads vm.swappiness so; 5.9's
	 * vm.compaction_proactiveness comes with its own switch). 5.8:
	 * Vlastimil Babka's commit, dated 2020-06-08, is "available as a
	 * bootparam since v5.8" (Kees Cook, linux-hardening, 2021).
	 * Commit: 3db978d480e2 "kernel/sysctl: support setting sysctl parameters from kernel command line".
	 */
	bool sysctl_cmdline;
};

/*
 * The profile of release @name ("3.5", "4.8", "6.12"); NULL names the
 * default, 3.5. NULL if there is none.
 */
const struct kernel_profile *kernel_profile_find(const char *name);
/*
 * The @i-th switch (from 0): its field's name and the release that has
 * it first (major * 100 + minor). false past the last.
 */
bool kernel_profile_switch(size_t i, const char **name, unsigned *release);
/* The accepted names, for messages. */
#define KERNEL_PROFILES_ACCEPTED "a release from 3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12)"

#endif
