/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device cost model: what the library reports it did for a request
 * (pages migrated, scanned, handled, drains, lock rounds, I/O waits)
 * turned into time on the simulated board. Profiles and the sources of
 * their numbers: cost.c and doc/cost-model.md.
 */
#ifndef CMASIM_COST_H
#define CMASIM_COST_H

#include <stdbool.h>
#include <stdint.h>

#include <cma/cma.h>

#include "engine/sched.h"

enum cost_field {
	COST_CPU_MHZ,		/* CPU clock, MHz: turns the cycle counts below into time */
	COST_COPY_MBPS,		/* page copy bandwidth, MB/s (migration) */
	COST_ZERO_MBPS,		/* clearing bandwidth, MB/s (buffers handed out zeroed) */
	COST_SCAN_CYCLES,	/* per page a pfn scanner looks at (compaction, alloc_contig_range) */
	COST_PAGE_CYCLES,	/* bookkeeping per page allocated or isolated */
	COST_STORAGE_WRITE_MBPS,	/* writeback of dirty file pages */
	COST_STORAGE_READ_MBPS,	/* page-cache misses and refaults (workloads' time) */
	COST_LOCK_US,		/* one round of the CMA mutex and zone locks */
	/* c-mig: migration beyond the copy */
	COST_MIGRATE_US,	/* per migrated page: target, references, mapping, LRU rounds */
	COST_UNMAP_US,		/* per page table entry: rmap walk, unmap, local flush, remap */
	COST_TLB_IPI_US,	/* per TLB flush, per other CPU running the address space */
	/* c-cpu: CPU contention, per-CPU drains, lock waits (micro-cpu.c measures them) */
	COST_IPI_US,		/* an IPI's round trip to another CPU, its handler included */
	COST_WAKEUP_US,		/* a work item woken on an idle CPU until it runs */
	COST_PREEMPT_US,	/* more when that CPU runs a background thread */
	COST_LOCK_HANDOFF_NS,	/* a contended spinlock passing to another CPU */
	COST_MUTEX_HANDOFF_US,	/* a sleeping mutex waiter woken when the holder lets go */
	/* c-io: the storage queue (storage.c); the two bandwidths above are its sequential figures */
	COST_STORAGE_RAND_READ_IOPS,	/* 4 KiB random reads per second: swap-in, random page-cache misses */
	COST_STORAGE_RAND_WRITE_IOPS,	/* 4 KiB random writes per second: reclaim's pageout */
	COST_STORAGE_LAT_US,	/* a request's access latency on top of its transfer */
	/* r-vm: under a hypervisor */
	COST_HOST_FAULT_US,	/* a frame's first write since boot: the host backs it (0: bare metal) */
	/* ftrace: the source's instrument */
	COST_FGRAPH_CALL_CYCLES,	/* function_graph's entry and return hooks, per kernel call */
	COST_HUGETLB_PAGE_NS,	/* per base page of a huge page the pool takes: tails, accounting */
	COST_BLOCK_PASS_NS,	/* per pageblock compaction's scanners pass without scanning it */
	/* storage: the device's queue and its flash (storage.c) */
	COST_STORAGE_DEPTH,	/* commands the device serves at once */
	COST_STORAGE_GC_MIB,	/* MiB written per garbage collection draw (0: no stalls) */
	/* gcma: gcma_alloc_contig's own work per page (bench/kernel/micro-gcma.c) */
	COST_GCMA_FREE_NS,	/* a page of the range that held nothing: its bit under the area's lock */
	COST_GCMA_DROP_NS,	/* a page that held a copy: off the LRU, out of its tree, freed */
	/* reclaim: shrink_inactive_list's work per page (bench/oracle, kswapd's batches) */
	COST_RECLAIM_CYCLES,	/* a page reclaim looks at: isolated, referenced?, freed or put back */
	COST_ZRAM_STORE_CYCLES,	/* more for one it swaps out to zram: unmapped, swap cache, compressed */
	NR_COST_FIELDS
};

struct cost_model {
	char profile[16];		/* "x86" or "arm" */
	double v[NR_COST_FIELDS];
};

/* Work done for one request, from the machine's counters and trace. */
/*
 * What function_graph hooks while a request runs: nothing, every kernel
 * function (set_ftrace_filter empty), or only the one function
 * set_ftrace_filter names, the request's cma_alloc or each of its
 * alloc_contig_range attempts.
 */
enum cost_fgraph {
	COST_FGRAPH_OFF,
	COST_FGRAPH_ALL,
	COST_FGRAPH_CMA_ALLOC,
	COST_FGRAPH_ALLOC_CONTIG_RANGE,
};

struct cost_work {
	uint64_t migrated;		/* pages copied */
	uint64_t scanned;		/* pages scanned */
	uint64_t reclaim_scanned;	/* of those, pages reclaim's LRU scan looked at (reclaim_cycles each) */
	uint64_t zram_stores;		/* pages reclaim swapped out to a synchronous device (zram) */
	uint64_t kswapd_scanned;	/* pages kswapd scanned meanwhile: the engine clock's work only (storage.c) */
	uint64_t blocks_passed;		/* pageblocks compaction's scanners passed unscanned */
	uint64_t handled;		/* pages allocated, isolated or reclaimed */
	uint64_t reclaimed;		/* of those, pages direct reclaim freed */
	uint64_t zeroed_bytes;
	uint64_t drains;		/* drain_all_pages and lru_add_drain_all calls */
	uint64_t locks;
	/* c-mig: migration beyond the copy */
	uint64_t mapped_ptes;		/* page table entries of migrated pages unmapped and remapped */
	uint64_t tlb_ipis;		/* their TLB flushes' IPIs, and the dropped pages': nr_tlb_remote_flush_received */
	/* c-cpu: where the request ran (doc/cost-model.md, "CPU contention and drains", "Lock waits") */
	uint64_t lru_drains;		/* of drains, the lru_add_drain_all calls */
	unsigned cma_attempts;		/* alloc_contig_range calls: the request held the CMA mutex */
	unsigned nr_cpus;		/* the board's CPUs (0: 1) */
	unsigned runnable;		/* background threads wanting a CPU meanwhile */
	struct sched_task *sched;	/* the request's task on its run queue, moved on (NULL: a CPU of its own) */
	unsigned blocks;		/* times it slept: reclaim's sleeps, waits for writes in flight */
	bool remote_drain;		/* 6.12: drain_all_pages empties other CPUs' lists itself */
	unsigned lru_batch;		/* pages per LRU-lock round: the pagevec's size (0: 14) */
	double zone_page_rate;		/* pages the background takes from or gives to the free lists, per second */
	double lru_page_rate;		/* pages the background adds to or isolates from the LRU, per second */
	uint64_t cma_mutex_wait_ns;	/* waiting for another device's request to let the CMA mutex go */
	/* c-io */
	uint64_t io_wait_ns;		/* migration waiting for writes in flight (storage.c) */
	uint64_t throttle_ns;		/* sleeping in reclaim and compaction (storage_sleep) */
	/* r-vm */
	uint64_t fresh_frames;		/* frames allocated for the first time since boot (migration targets) */
	/* rpi */
	bool drain_wq;			/* 4.11-5.19: drain_all_pages queues a work item per CPU and flushes them */
	/* printk: the log's serial console, written by the caller (doc/cost-model.md, "Console output") */
	uint64_t console_chars;		/* characters the request's printk lines put on the wire */
	unsigned console_baud;		/* its rate (0: no serial console) */
	unsigned console_frame_bits;	/* bits per character: start, data, parity, stop */
	/* gcma: work the scheduler cannot preempt on a kernel without CONFIG_PREEMPT */
	uint64_t nosched_pages;		/* of handled, pages handled in a loop with no cond_resched() or sleep */
	uint64_t nosched_locks;		/* of locks, rounds under a spinlock with nothing that sleeps around them */
	bool no_preempt;		/* CONFIG_PREEMPT_NONE or _VOLUNTARY: such loops and clearing run to their end */
	/* misc2: one drain_all_pages at a time (4.11 on, pcpu_drain_mutex) */
	bool drain_mutex;
	double bg_drain_rate;		/* the background's drain_all_pages calls per second */
	/* reclaim: clean file pages alloc_contig_range frees instead of migrating (contig_reclaim_clean, 3.7) */
	uint64_t dropped;		/* pages reclaim_clean_pages_from_list freed: no copy, no target */
	uint64_t dropped_ptes;		/* page table entries it unmapped for them */
	/* ftrace */
	enum cost_fgraph fgraph;	/* function_graph on (tracing_thresh set): which calls pay its hooks */
	/* hugetlb: the pool's own work for the huge pages a write took, beyond the allocator's */
	uint64_t hugetlb_pages;		/* base pages of those huge pages */
	/* gcma: the range gcma_alloc_contig walked, with no scheduling point (nosched work) */
	uint64_t gcma_free;		/* its pages that held nothing */
	uint64_t gcma_dropped;		/* its pages whose copy was dropped */
};

/*
 * Where a request's time went, as cost_ns_parts() splits it: the CPU
 * work it did by kind, then what it waited for. The parts add up to
 * cost_ns() exactly, to the nanosecond.
 */
enum cost_part {
	COST_PART_COPY,		/* migration's page copies */
	COST_PART_UNMAP,	/* page table entries unmapped and remapped */
	COST_PART_TLB,		/* TLB flushes' interrupts of the other CPUs */
	COST_PART_SCAN,		/* pages the scanners looked at, pageblocks they passed */
	COST_PART_ZERO,		/* clearing the buffer */
	COST_PART_DRAIN,	/* emptying every CPU's lists, the IPIs and work items it takes */
	COST_PART_OTHER,	/* the allocator's other work: bookkeeping, lock rounds, targets, tracer hooks */
	COST_PART_RUN_WAIT,	/* waiting for a CPU on the request's run queue (sched.c) */
	COST_PART_IO_WAIT,	/* waiting for writes in flight */
	COST_PART_LOCK_WAIT,	/* waiting for the zone and LRU locks and the CMA and drain mutexes */
	COST_PART_THROTTLE,	/* sleeping in reclaim and compaction */
	COST_PART_CONSOLE,	/* printk lines on the serial console */
	NR_COST_PARTS
};

struct cost_parts {
	uint64_t ns[NR_COST_PARTS];
};

/* Their names in reports: identifiers, "copy" ... "console". */
extern const char *const cost_part_names[NR_COST_PARTS];

/* Counter values a request's work is the difference of. */
struct cost_counters {
	struct cma_mm_stats stats;
	uint64_t zram_stores;		/* the host's: pages a synchronous swap device stored (owned.c) */
};

extern const char *const cost_field_names[NR_COST_FIELDS];
/* The profile of @arch. */
void cost_profile(enum cma_arch arch, struct cost_model *m);
void cost_storage_memory(struct cost_model *m, const bool set[NR_COST_FIELDS]);
bool cost_field_may_be_zero(enum cost_field f);
/* Device time of @w under @m, in ns, for pages of @page_bytes; w->sched, if any, is moved on to the request's end. */
uint64_t cost_ns(const struct cost_model *m, const struct cost_work *w, uint64_t page_bytes);
/*
 * Of that, the request's own CPU work on a CPU of its own: the copy,
 * unmap, TLB, scan, zero and other parts, before any wait. What the
 * request's clock moves by at its scheduling points (storage.c).
 */
uint64_t cost_cpu_ns(const struct cost_model *m, const struct cost_work *w, uint64_t page_bytes);
/* The same, split into @p; returns their sum, cost_ns(). */
uint64_t cost_ns_parts(const struct cost_model *m, const struct cost_work *w, uint64_t page_bytes,
		       struct cost_parts *p);
/* The sum of @p's parts. */
uint64_t cost_parts_sum(const struct cost_parts *p);
/* Add @p to @sum, part by part. */
void cost_parts_add(struct cost_parts *sum, const struct cost_parts *p);
/* Expected wait of one acquisition of a lock the background takes @rate times a second, each held @hold_ns ns. */
double cost_lock_wait_ns(double rate, double hold_ns);
/* Time to move @bytes at @mbps MB/s, in ns. */
uint64_t cost_transfer_ns(double mbps, uint64_t bytes);

struct sim;
/*
 * Read the counters cost_work_since() compares, as the running task sees
 * them: on a request's thread, less what the others did while it was
 * parked (task.c).
 */
void cost_counters_read(struct sim *s, struct cost_counters *c);
/* @acc += @after - @before, counter by counter. */
void cost_counters_add_growth(struct cost_counters *acc, const struct cost_counters *after,
			      const struct cost_counters *before);
/* Add what the counters say was done since @before to @w. */
void cost_work_since(struct sim *s, const struct cost_counters *before, struct cost_work *w);
/* Add what they say was done from @before to @after to @w. */
void cost_work_between(struct sim *s, const struct cost_counters *before, const struct cost_counters *after,
		       struct cost_work *w);

#endif
