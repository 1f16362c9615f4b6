// SPDX-License-Identifier: GPL-2.0
/*
 * Cost profiles. The numbers are typical published figures for boards
 * of the seeds' era, not our measurements; doc/cost-model.md gives each
 * one's source and reasoning, and a scenario's [cost] section overrides
 * any of them.
 *
 * x86  a 2012 desktop: Sandy Bridge at 3.3 GHz, dual-channel DDR3-1333,
 *      a SATA SSD.
 * arm  the Exynos4210 of seed 011: two Cortex-A9 at 1.2 GHz, LPDDR2,
 *      eMMC 4.41 storage.
 * The storage queue's random IOPS and latency (c-io) are published
 * figures too: doc/cost-model.md, "Storage and I/O waits".
 */
#include <math.h>

#include "engine/sim.h"

/*
 * Migration beyond the copy on x86, from bench/kernel/micro-mig.sh on
 * this project's 2-vCPU EPYC KVM guest (doc/cost-model.md shows the
 * arithmetic): compaction's cost per unmapped page less the copy and the
 * scanning already priced; the extra cost of a mapped page.
 */
#define MIG_X86_COPY_MBPS	3800
#define MIG_X86_MIGRATE_US	1.2
#define MIG_X86_UNMAP_US	1.3
/*
 * One synchronous cross-CPU call to a CPU running user code, waited for:
 * micro-cpu's membarrier IPI (bench/kernel/results/micro-cpu-6.18.44-fc-
 * v1147-20261203.txt). A TLB shootdown (flush_tlb_multi) and v3.5's
 * drain_all_pages (on_each_cpu_mask) both make that call: one constant
 * for both fields (doc/cost-model.md, "One IPI, two constants?").
 */
#define X86_IPI_US		10.1
/*
 * The function_graph tracer, from bench/kernel/ftrace-icount.sh (Debian's
 * 6.1 under QEMU's TCG, whose -icount clock counts instructions; a free
 * 1 GiB alloc_contig_range): what its entry and return hooks add per
 * kernel call with tracing_thresh set (352.7 and 351.0 instructions), and
 * the calls alloc_contig_range makes: 6 of its own, 121 in a drain of
 * the per-CPU lists, 27,403 over 262,144 pages besides 6.1's PageHuge
 * test of every pfn (268,662 calls; not on 4.14's path for a CMA block)
 * and the timer's interrupts (6,396). A migrated page's calls were not
 * measured: none is priced.
 */
#define FGRAPH_CALL_INSNS		352
#define FGRAPH_CALLS_PER_ATTEMPT	6
#define FGRAPH_CALLS_PER_DRAIN		121
#define FGRAPH_CALLS_PER_PAGE		(27403.0 / 262144)
/*
 * What a huge page pool pays per page it takes from free memory, beyond
 * the allocator's work the library counts: bench/kernel/micro-hugetlb.sh
 * (bench/kernel/results/micro-hugetlb-6.18.44-fc-v1252-20261204.txt),
 * 2 MiB pages written to an idle guest's nr_hugepages, the least-squares
 * slope of 2021 ns a page over 1 to 2927 pages, per base page.
 */
#define HUGETLB_X86_PAGE_NS	3.95
/*
 * What compaction's scanners pay per pageblock they pass without looking
 * at its pages (skip bit set, not a target): the runs of 6.18.44-fc-v1252's
 * fragmented writes under perf (bench/kernel/results/6.18.44-fc-v1252-vm-
 * 20261204-fragmented-traced.txt) that crossed the Normal zone with no
 * event between their begin and end, 908 us over 41,344 pageblocks.
 */
#define BLOCK_PASS_X86_NS	22
/* ARM: the profiles' ratio of CPU time per page of bookkeeping (600/1200 over 400/3300) */
#define ARM_PER_X86		4.1
/* bench/kernel/results/micro-gcma-6.18.44-fc-v1272-20261205.txt: RFC v2's gcma_alloc_contig per page */
#define GCMA_FREE_X86_NS	5.6
#define GCMA_DROP_X86_NS	811
/*
 * A page reclaim's LRU scan looks at, isolated, checked for references
 * and freed or put back (shrink_inactive_list and its shrink_page_list):
 * the median of kswapd's 32-page batches of clean file pages, all freed,
 * in the oracle's 6.12 guests under -icount (bench/oracle/reclaim-cost.py
 * on results-reclaim/arm64-swapcache-1g and results-calib/amd64-swapcache-2m):
 * 53 us of guest time, 53,000 instructions, a batch on both, one a cycle.
 */
#define RECLAIM_PAGE_INSNS	1656
/*
 * And an anonymous page kswapd swaps out to zram, unmapped, added to the
 * swap cache, compressed (lzo-rle, Debian's default) and stored: its
 * batches' median less the file pages', 548 - 53 us (x86) and 259 - 53
 * us (arm64) a batch of 32, in the same guests.
 */
#define ZRAM_STORE_X86_INSNS	15469
#define ZRAM_STORE_ARM64_INSNS	6438
/* the Cortex-A9 broadcasts TLB maintenance in hardware: a DSB's wait, not an IPI */
#define MIG_ARM_TLB_BROADCAST_US	0.3

const char *const cost_field_names[NR_COST_FIELDS] = {
	[COST_CPU_MHZ] = "cpu_mhz",
	[COST_COPY_MBPS] = "copy_mbps",
	[COST_ZERO_MBPS] = "zero_mbps",
	[COST_SCAN_CYCLES] = "scan_cycles",
	[COST_PAGE_CYCLES] = "page_cycles",
	[COST_STORAGE_WRITE_MBPS] = "storage_write_mbps",
	[COST_STORAGE_READ_MBPS] = "storage_read_mbps",
	[COST_LOCK_US] = "lock_us",
	[COST_MIGRATE_US] = "migrate_us",
	[COST_UNMAP_US] = "unmap_us",
	[COST_TLB_IPI_US] = "tlb_ipi_us",
	[COST_IPI_US] = "ipi_us",
	[COST_WAKEUP_US] = "wakeup_us",
	[COST_PREEMPT_US] = "preempt_us",
	[COST_LOCK_HANDOFF_NS] = "lock_handoff_ns",
	[COST_MUTEX_HANDOFF_US] = "mutex_handoff_us",
	[COST_STORAGE_RAND_READ_IOPS] = "storage_rand_read_iops",
	[COST_STORAGE_RAND_WRITE_IOPS] = "storage_rand_write_iops",
	[COST_STORAGE_LAT_US] = "storage_lat_us",
	[COST_HOST_FAULT_US] = "host_fault_us",
	[COST_FGRAPH_CALL_CYCLES] = "fgraph_call_cycles",
	[COST_HUGETLB_PAGE_NS] = "hugetlb_page_ns",
	[COST_BLOCK_PASS_NS] = "block_pass_ns",
	[COST_STORAGE_DEPTH] = "storage_depth",
	[COST_STORAGE_GC_MIB] = "storage_gc_mib",
	[COST_GCMA_FREE_NS] = "gcma_free_ns",
	[COST_GCMA_DROP_NS] = "gcma_drop_ns",
	[COST_RECLAIM_CYCLES] = "reclaim_cycles",
	[COST_ZRAM_STORE_CYCLES] = "zram_store_cycles",
};

static const struct cost_model profiles[] = {
	[CMA_ARCH_X86] = { "x86", {
		[COST_CPU_MHZ] = 3300,
		[COST_COPY_MBPS] = MIG_X86_COPY_MBPS,
		[COST_ZERO_MBPS] = 8000,
		[COST_SCAN_CYCLES] = 60,
		[COST_PAGE_CYCLES] = 400,
		[COST_STORAGE_WRITE_MBPS] = 250,
		[COST_STORAGE_READ_MBPS] = 450,
		[COST_LOCK_US] = 1,
		/* bench/kernel/results/micro-mig-*.txt (doc/cost-model.md) */
		[COST_MIGRATE_US] = MIG_X86_MIGRATE_US,
		[COST_UNMAP_US] = MIG_X86_UNMAP_US,
		[COST_TLB_IPI_US] = X86_IPI_US,
		/* bench/kernel/results/micro-cpu-6.18.44-fc-v1147-20261203.txt */
		[COST_IPI_US] = X86_IPI_US,
		[COST_WAKEUP_US] = 10.1,
		[COST_PREEMPT_US] = 8.3,
		[COST_LOCK_HANDOFF_NS] = 29,
		[COST_MUTEX_HANDOFF_US] = 0.74,
		[COST_STORAGE_RAND_READ_IOPS] = 40000,
		[COST_STORAGE_RAND_WRITE_IOPS] = 18000,
		[COST_STORAGE_LAT_US] = 100,
		[COST_HOST_FAULT_US] = 0,
		/* bench/kernel/results/ftrace-icount-*.txt: instructions per call, one a cycle */
		[COST_FGRAPH_CALL_CYCLES] = FGRAPH_CALL_INSNS,
		[COST_HUGETLB_PAGE_NS] = HUGETLB_X86_PAGE_NS,
		[COST_BLOCK_PASS_NS] = BLOCK_PASS_X86_NS,
		/* AHCI's NCQ: 32 tags; an SSD with a DRAM cache, no published stall distribution */
		[COST_STORAGE_DEPTH] = 32,
		[COST_STORAGE_GC_MIB] = 0,
		[COST_GCMA_FREE_NS] = GCMA_FREE_X86_NS,
		[COST_GCMA_DROP_NS] = GCMA_DROP_X86_NS,
		[COST_RECLAIM_CYCLES] = RECLAIM_PAGE_INSNS,
		[COST_ZRAM_STORE_CYCLES] = ZRAM_STORE_X86_INSNS,
	} },
	[CMA_ARCH_ARM] = { "arm", {
		[COST_CPU_MHZ] = 1200,
		[COST_COPY_MBPS] = 700,
		[COST_ZERO_MBPS] = 1400,
		[COST_SCAN_CYCLES] = 100,
		[COST_PAGE_CYCLES] = 600,
		[COST_STORAGE_WRITE_MBPS] = 15,
		[COST_STORAGE_READ_MBPS] = 40,
		[COST_LOCK_US] = 2,
		/* x86's measured cost scaled by the profiles' page_cycles / cpu_mhz; no IPI on the A9 */
		[COST_MIGRATE_US] = MIG_X86_MIGRATE_US * ARM_PER_X86,
		[COST_UNMAP_US] = MIG_X86_UNMAP_US * ARM_PER_X86,
		[COST_TLB_IPI_US] = MIG_ARM_TLB_BROADCAST_US,
		/* the x86 measurements × 2.04, the clock ratio 2450 / 1200 MHz (doc/cost-model.md) */
		[COST_IPI_US] = 20.6,
		[COST_WAKEUP_US] = 20.6,
		[COST_PREEMPT_US] = 17,
		[COST_LOCK_HANDOFF_NS] = 59,
		[COST_MUTEX_HANDOFF_US] = 1.5,
		[COST_STORAGE_RAND_READ_IOPS] = 2000,
		[COST_STORAGE_RAND_WRITE_IOPS] = 150,
		[COST_STORAGE_LAT_US] = 300,
		[COST_HOST_FAULT_US] = 0,
		/* the same cycles at the board's clock, as the drains' figures (doc/cost-model.md) */
		[COST_FGRAPH_CALL_CYCLES] = FGRAPH_CALL_INSNS,
		/* x86's measured cost scaled as migrate_us is */
		[COST_HUGETLB_PAGE_NS] = HUGETLB_X86_PAGE_NS * ARM_PER_X86,
		[COST_BLOCK_PASS_NS] = BLOCK_PASS_X86_NS * ARM_PER_X86,
		/* eMMC 4.41: one command at a time (the command queue is eMMC 5.1's, Linux 4.15's cqhci) */
		[COST_STORAGE_DEPTH] = 1,
		/* one draw of storage.c's eMMC stalls per MiB, the unit they were measured in */
		[COST_STORAGE_GC_MIB] = 1,
		/* x86's measured cost scaled as migrate_us is */
		[COST_GCMA_FREE_NS] = GCMA_FREE_X86_NS * ARM_PER_X86,
		[COST_GCMA_DROP_NS] = GCMA_DROP_X86_NS * ARM_PER_X86,
		/* the arm64 guest's instructions, one a cycle, as x86's */
		[COST_RECLAIM_CYCLES] = RECLAIM_PAGE_INSNS,
		[COST_ZRAM_STORE_CYCLES] = ZRAM_STORE_ARM64_INSNS,
	} },
};

void cost_profile(enum cma_arch arch, struct cost_model *m)
{
	*m = profiles[arch == CMA_ARCH_ARM ? CMA_ARCH_ARM : CMA_ARCH_X86];
}

/* drivers/block/loop.c's LOOP_DEFAULT_HW_Q_DEPTH (6.12): a loop device's tags */
#define LOOP_QUEUE_DEPTH	128

/*
 * The storage is memory: a loop device over tmpfs, as the oracle's guests
 * have. Each request is a copy between the page cache and tmpfs's page,
 * done by the loop device's work item (woken per request: wakeup_us),
 * and memory has no flash to collect. Fields @set by the scenario stay.
 */
void cost_storage_memory(struct cost_model *m, const bool set[NR_COST_FIELDS])
{
	double copy = m->v[COST_COPY_MBPS];
	const double v[NR_COST_FIELDS] = {
		[COST_STORAGE_WRITE_MBPS] = copy,
		[COST_STORAGE_READ_MBPS] = copy,
		[COST_STORAGE_RAND_READ_IOPS] = copy * 1e6 / 4096,
		[COST_STORAGE_RAND_WRITE_IOPS] = copy * 1e6 / 4096,
		[COST_STORAGE_LAT_US] = m->v[COST_WAKEUP_US],
		[COST_STORAGE_DEPTH] = LOOP_QUEUE_DEPTH,
		[COST_STORAGE_GC_MIB] = 0,
	};
	static const enum cost_field storage[] = {
		COST_STORAGE_WRITE_MBPS, COST_STORAGE_READ_MBPS, COST_STORAGE_RAND_READ_IOPS,
		COST_STORAGE_RAND_WRITE_IOPS, COST_STORAGE_LAT_US, COST_STORAGE_DEPTH, COST_STORAGE_GC_MIB,
	};

	for (size_t i = 0; i < sizeof(storage) / sizeof(storage[0]); i++)
		if (!set[storage[i]])
			m->v[storage[i]] = v[storage[i]];
}

/* A [cost] field whose 0 means "none" rather than a price that cannot be. */
bool cost_field_may_be_zero(enum cost_field f)
{
	return f == COST_HOST_FAULT_US || f == COST_STORAGE_GC_MIB || f == COST_ZRAM_STORE_CYCLES;
}

uint64_t cost_transfer_ns(double mbps, uint64_t bytes)
{
	/* MB/s is 10^6 bytes per 10^9 ns */
	return mbps > 0 ? (uint64_t)((double)bytes * 1000.0 / mbps) : 0;
}

/*
 * Migration's work around the copy: each page's target, references and
 * LRU rounds; each page table entry's unmap and remap; each TLB flush's
 * interrupt of every other CPU that runs the address space.
 */
static uint64_t us_ns(double count, double us)
{
	return (uint64_t)llround(count * us * 1000.0);
}

static void migration_overhead_ns(const struct cost_model *m, const struct cost_work *w, uint64_t *ns)
{
	ns[COST_PART_OTHER] += us_ns((double)w->migrated, m->v[COST_MIGRATE_US]);
	ns[COST_PART_UNMAP] += us_ns((double)w->mapped_ptes, m->v[COST_UNMAP_US]);
	ns[COST_PART_TLB] += us_ns((double)w->tlb_ipis, m->v[COST_TLB_IPI_US]);
}

/* Pages a CPU's lists give back when drained, and a pcp batch under the zone lock (v3.5's zone_batchsize for a large zone). */
#define PCP_BATCH	31
/* Pages isolated or put back per LRU-lock round (SWAP_CLUSTER_MAX). */
#define LRU_CLUSTER	32
/* Past this utilisation a queue's wait is priced as at it: the background would starve first. */
#define MAX_LOCK_UTIL	0.95

/*
 * M/D/1: the background's acquisitions come from many independent
 * threads (a Poisson stream) and hold the lock a fixed time; an
 * acquisition arriving at random waits rho * hold / (2 (1 - rho)) on
 * average, rho = rate * hold (Pollaczek-Khinchine with no variance in
 * the hold).
 */
double cost_lock_wait_ns(double rate, double hold_ns)
{
	double rho = rate * hold_ns / 1e9;

	if (rho <= 0)
		return 0;
	if (rho > MAX_LOCK_UTIL)
		rho = MAX_LOCK_UTIL;
	return rho * hold_ns / (2.0 * (1.0 - rho));
}

static double cycles_ns(const struct cost_model *m, double cycles)
{
	return cycles * 1000.0 / m->v[COST_CPU_MHZ];
}

/*
 * From 4.11 drain_all_pages takes pcpu_drain_mutex: a request's drain,
 * naming its zone, sleeps until a background drain in progress ends
 * (the slow path's, naming none, would have returned instead). The
 * background's drains arrive from many threads, each holds the mutex a
 * drain's time and wakes the sleeper: the lock waits' M/D/1 queue.
 */
static double drain_mutex_wait_ns(const struct cost_model *m, const struct cost_work *w, double drain_ns)
{
	if (!w->drain_mutex)
		return 0;
	return cost_lock_wait_ns(w->bg_drain_rate, drain_ns + m->v[COST_MUTEX_HANDOFF_US] * 1000.0);
}

/*
 * The per-CPU drains, in wall time. drain_all_pages: v3.5 IPIs every CPU
 * with pages on its lists (on_each_cpu_mask) and waits, each empties
 * its own lists meanwhile; 4.11-5.19 (drain_local_pages_wq) queue a
 * work item on each of them and flush them, the items emptying the
 * lists in parallel; 6.12 (__drain_all_pages) empties each CPU's lists
 * from the caller, one after another, taking that CPU's pcp lock.
 * lru_add_drain_all, every kernel: a work item per CPU (v3.5's
 * schedule_on_each_cpu, 4.x's and 6.12's mm_percpu_wq) kicked one after
 * another, then waited for; one that lands on a CPU a background thread
 * keeps busy runs only once the scheduler lets it in. Every CPU is
 * counted: a background keeps every CPU's lists filled.
 */
static double lru_drain_ns(const struct cost_model *m, const struct cost_work *w)
{
	double cpus = w->nr_cpus ? w->nr_cpus : 1;

	return (cpus - 1) * m->v[COST_IPI_US] * 1000.0 +
	       (m->v[COST_WAKEUP_US] + (w->runnable ? m->v[COST_PREEMPT_US] : 0)) * 1000.0;
}

/* One drain_all_pages, the wait for pcpu_drain_mutex left out. */
static double pcp_drain_ns(const struct cost_model *m, const struct cost_work *w)
{
	double cpus = w->nr_cpus ? w->nr_cpus : 1;
	double empty = cycles_ns(m, PCP_BATCH * m->v[COST_PAGE_CYCLES]);

	if (w->remote_drain)
		return cpus * (empty + m->v[COST_LOCK_HANDOFF_NS]);
	return w->drain_wq ? lru_drain_ns(m, w) + empty : empty + (cpus - 1) * m->v[COST_IPI_US] * 1000.0;
}

static double drain_ns(const struct cost_model *m, const struct cost_work *w)
{
	double pcp = (double)(w->drains - w->lru_drains), lru = (double)w->lru_drains;
	double pcp_ns = pcp_drain_ns(m, w);

	return pcp * (pcp_ns + drain_mutex_wait_ns(m, w, pcp_ns)) + lru * lru_drain_ns(m, w);
}

/* Of drain_ns(), the request's drain_all_pages' waits for pcpu_drain_mutex. */
static double drain_wait_ns(const struct cost_model *m, const struct cost_work *w)
{
	return (double)(w->drains - w->lru_drains) * drain_mutex_wait_ns(m, w, pcp_drain_ns(m, w));
}

/*
 * Waiting for the zone and LRU locks the background holds. The request
 * takes the zone lock once per lock round and once per LRU_CLUSTER pages
 * it takes off or gives to the free lists, the LRU lock once per
 * LRU_CLUSTER pages scanned or migrated (isolation and putback go in
 * such batches). The background moves its pages through the zone lock
 * a pcp batch at a time and through the LRU lock a pagevec at a time;
 * a round holds the lock for each page's bookkeeping and a handoff.
 */
static double lock_wait_ns(const struct cost_model *m, const struct cost_work *w)
{
	double lru_batch = w->lru_batch ? w->lru_batch : 14;
	double zone_rounds = (double)w->locks + (double)w->handled / LRU_CLUSTER;
	double lru_rounds = (double)(w->scanned + w->migrated) / LRU_CLUSTER;
	double zone_hold = cycles_ns(m, PCP_BATCH * m->v[COST_PAGE_CYCLES]) + m->v[COST_LOCK_HANDOFF_NS];
	double lru_hold = cycles_ns(m, lru_batch * m->v[COST_PAGE_CYCLES]) + m->v[COST_LOCK_HANDOFF_NS];

	return zone_rounds * cost_lock_wait_ns(w->zone_page_rate / PCP_BATCH, zone_hold) +
	       lru_rounds * cost_lock_wait_ns(w->lru_page_rate / lru_batch, lru_hold);
}

/* Another device's request held the CMA mutex: its rest, then the wakeup of a sleeping waiter. */
static double cma_mutex_ns(const struct cost_model *m, const struct cost_work *w)
{
	return w->cma_mutex_wait_ns ? (double)w->cma_mutex_wait_ns + m->v[COST_MUTEX_HANDOFF_US] * 1000.0 : 0;
}

/*
 * A printk line the request wrote to a serial console: the caller waits
 * for the UART to take each character (4.14's console_unlock, 6.12's
 * legacy_direct), frame_bits of them at the line's rate; a physical
 * figure, not a profile's. Not stretched by the background: the caller
 * spins on the UART with interrupts off.
 */
static double console_ns(const struct cost_work *w)
{
	if (!w->console_baud)
		return 0;
	return (double)w->console_chars * w->console_frame_bits * 1e9 / w->console_baud;
}

/*
 * The request's own CPU work (@cpu_ns) and its sleeps (@blocked_ns: the
 * CMA mutex, waits for writes, reclaim's throttling) on its run queue
 * (sched.c): with others there, its turns and its waits for them; alone,
 * none. @held_ns of work no one can preempt (below) runs at its end as
 * it is, and counts in its vruntime all the same. Returns the time it
 * waited to run, beyond its work and its sleeps.
 */
static uint64_t run_wait_ns(const struct cost_work *w, uint64_t cpu_ns, uint64_t blocked_ns,
			    uint64_t held_ns)
{
	uint64_t ns;

	if (!w->sched)
		return 0;
	w->sched->blocked_ns = blocked_ns;
	ns = sched_run_ns(w->sched, cpu_ns);
	sched_hold(w->sched, held_ns);
	return ns - cpu_ns - blocked_ns;
}

/*
 * What the background's threads cannot take from the request. CFS takes
 * the CPU from a thread in the kernel only where the kernel lets it: at
 * any preempt_enable() under CONFIG_PREEMPT, but without it (PREEMPT_NONE,
 * PREEMPT_VOLUNTARY) only at cond_resched() and where the thread sleeps
 * (a mutex, a wait; might_sleep() too under VOLUNTARY). Work in a loop
 * with neither, such as gcma_alloc_contig's walk over its pages or the
 * memset that clears a dma_alloc_coherent buffer, then runs to its end
 * once begun. alloc_contig_range has such points throughout (the
 * migrate loop's cond_resched(), lru_add_drain_all's wait, the CMA
 * mutex), so its work shares the CPUs under every model.
 */
/*
 * GCMA's walk over a request's range (RFC v2's gcma_alloc_contig): each
 * page's bit under the area's spinlock, and for a page holding a copy the
 * LRU move, the tree erase and search and the entry's free; its own
 * measured cost per page, not the page allocator's bookkeeping.
 */
static uint64_t gcma_ns(const struct cost_model *m, const struct cost_work *w)
{
	return (uint64_t)((double)w->gcma_free * m->v[COST_GCMA_FREE_NS] +
			  (double)w->gcma_dropped * m->v[COST_GCMA_DROP_NS]);
}

static void nosched_ns(const struct cost_model *m, const struct cost_work *w, uint64_t *ns)
{
	ns[COST_PART_OTHER] += gcma_ns(m, w) +
			       (uint64_t)cycles_ns(m, (double)w->nosched_pages * m->v[COST_PAGE_CYCLES]) +
			       (uint64_t)((double)w->nosched_locks * m->v[COST_LOCK_US] * 1000.0);
	ns[COST_PART_ZERO] += cost_transfer_ns(m->v[COST_ZERO_MBPS], w->zeroed_bytes);
}

/*
 * A clean file page alloc_contig_range frees instead of migrating
 * (kernel.contig_reclaim_clean): no copy, no target, no remap; its free,
 * the bookkeeping of any page reclaimed (page_cycles), and for each entry
 * that mapped it the unmap (unmap_us); the TLB flush IPIs that go with
 * them are counted with migration's (tlb_ipis).
 */
static void dropped_ns(const struct cost_model *m, const struct cost_work *w, uint64_t *ns)
{
	ns[COST_PART_OTHER] += (uint64_t)cycles_ns(m, (double)w->dropped * m->v[COST_PAGE_CYCLES]);
	ns[COST_PART_UNMAP] += us_ns((double)w->dropped_ptes, m->v[COST_UNMAP_US]);
}

/*
 * The source's instrument: function_graph hooks the entry and return of
 * every function set_ftrace_filter lets through, and tracing_thresh only
 * decides what is written after the return, so the request pays the
 * hooks on each such call it makes. With no filter, every call:
 * alloc_contig_range's own per attempt, a drain's, and those per page it
 * handles; with a filter naming one function, that function's calls
 * alone (doc/cost-model.md, "The tracer").
 */
static double fgraph_calls(const struct cost_work *w)
{
	switch (w->fgraph) {
	case COST_FGRAPH_ALL:
		return (double)w->cma_attempts * FGRAPH_CALLS_PER_ATTEMPT +
		       (double)w->drains * FGRAPH_CALLS_PER_DRAIN + (double)w->handled * FGRAPH_CALLS_PER_PAGE;
	case COST_FGRAPH_CMA_ALLOC:
		return 1;
	case COST_FGRAPH_ALLOC_CONTIG_RANGE:
		return (double)w->cma_attempts;
	default:
		return 0;
	}
}

/*
 * The allocating thread's own CPU work, shared with the background, by
 * kind. Scanning and bookkeeping are priced as one sum of cycles,
 * truncated once: the scanners' share is taken out of it, so the kinds
 * add up to what the sum was.
 */
static void cpu_work_ns(const struct cost_model *m, const struct cost_work *w, uint64_t page_bytes, uint64_t *ns)
{
	/* without CONFIG_PREEMPT the loops with no scheduling point are priced apart, unstretched */
	uint64_t handled = w->no_preempt ? w->handled - w->nosched_pages : w->handled;
	uint64_t locks = w->no_preempt ? w->locks - w->nosched_locks : w->locks;
	/* a page reclaim frees is priced in its scan (reclaim_cycles), not as bookkeeping */
	double scan_cycles = (double)(w->scanned - w->reclaim_scanned) * m->v[COST_SCAN_CYCLES] +
			     (double)w->reclaim_scanned * m->v[COST_RECLAIM_CYCLES];
	/* zram's compression of what reclaim swapped out: its CPU's, synchronously */
	double zram_cycles = (double)w->zram_stores * m->v[COST_ZRAM_STORE_CYCLES];
	uint64_t scan_ns = (uint64_t)cycles_ns(m, scan_cycles);
	uint64_t cycles = (uint64_t)cycles_ns(m, scan_cycles + zram_cycles +
					     (double)(handled > w->reclaimed ? handled - w->reclaimed : 0) *
						     m->v[COST_PAGE_CYCLES]);

	ns[COST_PART_SCAN] += scan_ns + (uint64_t)((double)w->blocks_passed * m->v[COST_BLOCK_PASS_NS]);
	ns[COST_PART_COPY] += cost_transfer_ns(m->v[COST_COPY_MBPS], w->migrated * page_bytes);
	if (!w->no_preempt)
		ns[COST_PART_ZERO] += cost_transfer_ns(m->v[COST_ZERO_MBPS], w->zeroed_bytes);
	ns[COST_PART_OTHER] += cycles - scan_ns +
			       (uint64_t)((double)locks * m->v[COST_LOCK_US] * 1000.0) +
			       us_ns((double)w->fresh_frames, m->v[COST_HOST_FAULT_US]) +
			       (uint64_t)cycles_ns(m, fgraph_calls(w) * m->v[COST_FGRAPH_CALL_CYCLES]) +
			       (uint64_t)((double)w->hugetlb_pages * m->v[COST_HUGETLB_PAGE_NS]);
	if (!w->no_preempt)
		ns[COST_PART_OTHER] += gcma_ns(m, w);
	migration_overhead_ns(m, w, ns);
	dropped_ns(m, w, ns);
}

/*
 * What the request waited for: the CPU (its @cpu of work and @held of
 * unpreemptible work on its run queue), locks and mutexes, storage,
 * sleeps, the console.
 */
static void wait_ns(const struct cost_model *m, const struct cost_work *w, uint64_t cpu, uint64_t held,
		    uint64_t *ns)
{
	uint64_t drain = (uint64_t)drain_ns(m, w), drain_wait = (uint64_t)drain_wait_ns(m, w);
	uint64_t cma_mutex = (uint64_t)cma_mutex_ns(m, w);

	ns[COST_PART_RUN_WAIT] += run_wait_ns(w, cpu, cma_mutex + w->io_wait_ns + w->throttle_ns, held);
	/* one truncation, as drain_ns() was priced: its mutex waits are taken out of it */
	ns[COST_PART_DRAIN] += drain - drain_wait;
	ns[COST_PART_LOCK_WAIT] += drain_wait + (uint64_t)lock_wait_ns(m, w) + cma_mutex;
	ns[COST_PART_IO_WAIT] += w->io_wait_ns;
	ns[COST_PART_THROTTLE] += w->throttle_ns;
	ns[COST_PART_CONSOLE] += (uint64_t)console_ns(w);
}

uint64_t cost_cpu_ns(const struct cost_model *m, const struct cost_work *w, uint64_t page_bytes)
{
	struct cost_parts p = { { 0 } };

	cpu_work_ns(m, w, page_bytes, p.ns);
	if (w->no_preempt)
		nosched_ns(m, w, p.ns);
	return cost_parts_sum(&p);
}

uint64_t cost_ns_parts(const struct cost_model *m, const struct cost_work *w, uint64_t page_bytes,
		       struct cost_parts *p)
{
	struct cost_parts held = { { 0 } };

	*p = (struct cost_parts){ { 0 } };
	cpu_work_ns(m, w, page_bytes, p->ns);
	if (w->no_preempt)
		nosched_ns(m, w, held.ns);
	/* the work so far shares the CPU; the unpreemptible work is held to the end */
	wait_ns(m, w, cost_parts_sum(p), cost_parts_sum(&held), p->ns);
	cost_parts_add(p, &held);
	return cost_parts_sum(p);
}

uint64_t cost_ns(const struct cost_model *m, const struct cost_work *w, uint64_t page_bytes)
{
	struct cost_parts p;

	return cost_ns_parts(m, w, page_bytes, &p);
}

void cost_counters_read(struct sim *s, struct cost_counters *c)
{
	cma_mm_stats(s->mm, &c->stats);
	c->zram_stores = s->zram_stores;
	if (!s->in_task)
		return;
	for (int i = 0; i < NR_CMA_STAT_ITEMS; i++)
		c->stats.v[i] -= s->foreign.stats.v[i];
	c->zram_stores -= s->foreign.zram_stores;
}

void cost_counters_add_growth(struct cost_counters *acc, const struct cost_counters *after,
			      const struct cost_counters *before)
{
	for (int i = 0; i < NR_CMA_STAT_ITEMS; i++)
		acc->stats.v[i] += after->stats.v[i] - before->stats.v[i];
	acc->zram_stores += after->zram_stores - before->zram_stores;
}

/*
 * What each kind of work a request did is, in the library's counters:
 * the pfns its scanners looked at (less those counted without a look:
 * compact_scan_stepped), the pages it isolated or reclaimed, the drains
 * of every CPU's lists (drain_all_pages, lru_add_drain_all), and the
 * library's own counts of mapped entries, TLB flushes, fresh frames,
 * console characters, clean pages freed and pageblocks passed.
 */
void cost_work_since(struct sim *s, const struct cost_counters *before, struct cost_work *w)
{
	struct cost_counters now;

	cost_counters_read(s, &now);
	cost_work_between(s, before, &now, w);
}

void cost_work_between(struct sim *s, const struct cost_counters *before, const struct cost_counters *after,
		       struct cost_work *w)
{
	uint64_t d[NR_CMA_STAT_ITEMS];

	for (int i = 0; i < NR_CMA_STAT_ITEMS; i++)
		d[i] = after->stats.v[i] - before->stats.v[i];
	w->migrated += d[CMA_STAT_PGMIGRATE_SUCCESS];
	w->scanned += d[CMA_STAT_COMPACT_MIGRATE_SCANNED] + d[CMA_STAT_CONTIG_MIGRATE_SCANNED] +
		      d[CMA_STAT_CONTIG_FREE_SCANNED] + d[CMA_STAT_COMPACT_FREE_SCANNED] +
		      d[CMA_STAT_PGSCAN_DIRECT] - d[CMA_STAT_COMPACT_SCAN_STEPPED];
	w->reclaim_scanned += d[CMA_STAT_PGSCAN_DIRECT];
	w->zram_stores += after->zram_stores - before->zram_stores;
	w->kswapd_scanned += d[CMA_STAT_PGSCAN_KSWAPD];
	w->handled += d[CMA_STAT_COMPACT_ISOLATED] + d[CMA_STAT_PGSTEAL_DIRECT];
	w->drains += d[CMA_STAT_DRAIN_ALL_PAGES] + d[CMA_STAT_LRU_ADD_DRAIN_ALL];
	w->reclaimed += d[CMA_STAT_PGSTEAL_DIRECT];	/* what reclaim takes from the workloads */
	w->mapped_ptes += d[CMA_STAT_PGMIGRATE_MAPPED_PTES];
	w->tlb_ipis += d[CMA_STAT_NR_TLB_REMOTE_FLUSH_RECEIVED];
	w->lru_drains += d[CMA_STAT_LRU_ADD_DRAIN_ALL];
	w->fresh_frames += d[CMA_STAT_PGALLOC_FRESH];
	w->blocks_passed += d[CMA_STAT_COMPACT_BLOCKS_PASSED];
	w->console_chars += d[CMA_STAT_CONSOLE_CHARS];
	w->dropped += d[CMA_STAT_CONTIG_RECLAIM_CLEAN];
	w->dropped_ptes += d[CMA_STAT_CONTIG_RECLAIM_UNMAPPED_PTES];
	cma_mm_console(s->mm, &w->console_baud, &w->console_frame_bits, NULL);
}
