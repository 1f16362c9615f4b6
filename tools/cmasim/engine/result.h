/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one simulated run found: per device, per workload and for the
 * system, plus the timeline and the physical-memory snapshots the HTML
 * report draws. Filled by the run (machine.c), read by the reports
 * (report_*.c). Times are virtual nanoseconds unless the field says host.
 */
#ifndef CMASIM_RESULT_H
#define CMASIM_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>

#include "engine/cost.h"

#define SIM_NAME_MAX 32

/* Why a device request failed. */
enum fail_cause {
	FAIL_PINNED,		/* migration gave up on pages a pinner held */
	FAIL_BUSY,		/* migration gave up for another reason (retried past every range) */
	FAIL_NOMEM,		/* no free range, reclaim and compaction could not make one */
	FAIL_TOO_LARGE,		/* buddy policy: beyond MAX_ORDER without scatter-gather */
	NR_FAIL_CAUSES
};

/* Who uses a page, for the timeline. */
enum mem_class {
	MC_PAGECACHE,		/* readers' and writers' file pages */
	MC_ANON,		/* processes' anonymous pages */
	MC_SLAB,		/* unmovable and reclaimable kernel allocations */
	MC_DEVICE,		/* device buffers held */
	MC_CARVEOUT,		/* reserved at boot for devices and not held now */
	NR_MEM_CLASSES
};

struct sim_latency {
	uint64_t *ns;		/* each successful request's device time, in request order */
	size_t nr, cap;
	uint64_t p50, p90, p99, max;	/* nearest-rank percentiles, set when the run ends */
	uint64_t min, mean;		/* likewise; the mean rounded to the nearest ns */
	uint64_t p99_9;			/* likewise, the 99.9th */
	uint64_t over_10x_p50;		/* requests slower than 10 times p50 */
};

/*
 * Where a device's request time went (cost_ns_parts): summed over its
 * successful requests, and the slowest one's, the first of equals.
 * cost_parts_sum(&total) is the sum of lat.ns[], cost_parts_sum(&slowest)
 * is lat.max.
 */
struct latency_breakdown {
	struct cost_parts total, slowest;
};

struct device_result {
	char name[SIM_NAME_MAX];
	uint64_t buffer_bytes;
	uint64_t deadline_ns;	/* 0: none */
	uint64_t requests, successes;
	uint64_t fail[NR_FAIL_CAUSES];
	uint64_t deadline_misses;	/* successes slower than the deadline, and every failure */
	uint64_t busy_retries;	/* ranges cma_alloc found busy and passed over (cma_alloc_busy_retry) */
	uint64_t frames;		/* periods served with the ring full */
	struct sim_latency lat;
	struct latency_breakdown breakdown;
};

/* The /proc/vmstat counters a hugetlb write reports (bench/kernel/contig.sh's), by their 6.x names. */
enum hugetlb_vmstat {
	HV_PGMIGRATE_SUCCESS, HV_PGMIGRATE_FAIL, HV_COMPACT_MIGRATE_SCANNED, HV_COMPACT_FREE_SCANNED,
	HV_COMPACT_ISOLATED, HV_COMPACT_STALL, HV_COMPACT_FAIL, HV_COMPACT_SUCCESS,
	HV_PGSCAN_DIRECT, HV_PGSTEAL_DIRECT, NR_HUGETLB_VMSTAT
};
extern const char *const hugetlb_vmstat_names[NR_HUGETLB_VMSTAT];

/* A hugetlb workload's write of nr_hugepages. */
struct hugetlb_result {
	uint64_t page_bytes;		/* the huge page size */
	uint64_t requested, got;	/* huge pages */
	uint64_t write_ns;		/* the write's wall time under the cost model */
	uint64_t vmstat[NR_HUGETLB_VMSTAT];	/* deltas over the write */
};

/* Per workload: what it did and what it met. Fields a kind lacks stay 0. */
struct workload_result {
	char name[SIM_NAME_MAX];
	char kind[16];		/* "pagecache", "writer", "anon", "slab", "pinner", "device", "hugetlb", "job" */
	uint64_t ops;		/* page reads, page writes, touches, allocations, pins, requests */
	uint64_t misses;	/* pages read in (first reads and refaults), swap-ins */
	uint64_t refaults;	/* pages read again after reclaim dropped them */
	uint64_t alloc_failures;	/* page allocations that failed */
	uint64_t resident_pages;	/* at the end */
	uint64_t oom_kills;	/* times the OOM killer chose it */
	struct hugetlb_result hugetlb;	/* hugetlb only */
	/* a job's (wl_job.c); 0 for other kinds */
	uint64_t job_units, job_units_done;	/* process lifetimes, and those finished */
	uint64_t job_cpu_ns;		/* CPU time it ran */
	uint64_t job_done_ns;		/* finished this long after its start; 0: not finished */
	uint64_t swapins;		/* anonymous pages read back from swap, read-ahead too (also an anon's) */
	uint64_t swapin_ios;		/* the read requests they took (pages read in a row make one) */
	uint64_t io_wait_ns;		/* its processes' waits for storage reads (all processes summed) */
	uint64_t reclaim_wait_ns;	/* their stalls in direct reclaim and compaction (likewise) */
};

struct sim_sample {
	uint64_t t_ns;
	uint64_t free_pages;
	uint64_t cma_free_pages;
	uint64_t used[NR_MEM_CLASSES];	/* pages */
	uint64_t dirty_pages;		/* NR_FILE_DIRTY */
	uint64_t writeback_pages;	/* NR_WRITEBACK */
	uint64_t dirty_thresh;		/* the dirty limit (dirty.h) */
};

/* One pageblock at a snapshot instant. */
struct snap_block {
	uint8_t migratetype;	/* enum cma_migratetype; 0xff: a hole (no valid page) */
	uint16_t nr_pages;	/* valid pages in the block */
	uint16_t nr_free;	/* in the buddy allocator */
	uint16_t nr_device;	/* held by device buffers */
};

struct sim_snapshot {
	uint64_t t_ns;
	unsigned long start_pfn;	/* first block's first pfn */
	unsigned long pageblock_pages;
	unsigned long nr_blocks;
	struct snap_block *blocks;
	uint64_t page_bytes;		/* for the map's addresses; 0: unknown, the map gives pfns */
};

#define SIM_MAX_AREAS 8

/* Where a CMA area comes from: what reserved it at boot. */
enum area_origin {
	AREA_FROM_DT,		/* a reusable shared-dma-pool of the tree's /reserved-memory (rmem_cma_setup) */
	AREA_FROM_CMDLINE,	/* the default area, sized by cma= (dma_contiguous_reserve) */
	AREA_FROM_KCONFIG,	/* the default area, sized by CONFIG_CMA_SIZE_* */
	AREA_FROM_DECLARED,	/* a device's own, the board's reserve() (dma_declare_contiguous) */
};

/* A CMA area of the run and the devices' use of it. */
struct area_result {
	char name[SIM_NAME_MAX];	/* "default", or the device it is its own area of */
	enum area_origin origin;
	char dt_node[64];		/* AREA_FROM_DT: the /reserved-memory node's name */
	uint64_t base;			/* physical address of its first page */
	uint64_t pages;
	uint64_t peak_pages;		/* held by device buffers, at most */
	uint64_t mean_pages;		/* held by device buffers, averaged over virtual time */
};

#define SIM_MAX_PROCS 6

/* A /proc file of the machine at the end of the run (--dump). */
struct sim_proc {
	char name[64];
	char *text;
};

/*
 * Where the file @name (a cma_write_proc name) lives: "/proc/" for the
 * /proc files, "/" for "sys/kernel/mm/cma/..." (sysfs), "/sys/kernel/"
 * for "debug/cma/..." (debugfs, kernel 6.12).
 */
static inline const char *proc_dir_of(const char *name)
{
	if (!strncmp(name, "sys/", 4))
		return "/";
	if (!strncmp(name, "debug/", 6))
		return "/sys/kernel/";
	return "/proc/";
}

/*
 * The gcma policy's area (all areas together): a cleancache of clean
 * file pages and a write-through frontswap of swapped-out pages kept in
 * the room devices do not hold. Zero under other policies.
 */
struct gcma_result {
	bool on;
	uint64_t area_pages;		/* taken from the buddy allocator for good */
	uint64_t puts[2], gets[2], hits[2];	/* [0] cleancache (file), [1] frontswap (anon) */
	uint64_t refused;		/* evicted pages not safe elsewhere (dirty, not on swap): never kept */
	uint64_t dropped_for_requests;	/* copies device requests dropped */
	uint64_t requests_dropping;	/* requests that dropped at least one */
	uint64_t max_dropped;		/* the most one request dropped */
	uint64_t dropped_oldest;	/* copies dropped for room, oldest first */
	uint64_t invalidated;		/* copies of pages their owner let go (exit, truncate) */
	uint64_t held_mean_pages;	/* copies held, averaged over virtual time */
	uint64_t held_peak_pages;
	uint64_t worth_pages;		/* held_mean_pages * hits / puts: the memory the copies were worth */
	uint64_t copy_ns;		/* copying puts and hits at the cost model's copy bandwidth */
	uint64_t read_saved_ns;		/* storage reads the file hits avoided */
};

/*
 * The predict policy: its predictions of each device's next session, the
 * work done in advance (evacuating the ranges, taking the buffers) and
 * what of it was wasted. Zero under other policies.
 */
struct predict_result {
	bool on;
	uint64_t predictions;		/* sessions predicted */
	uint64_t hits;			/* the session found its buffers taken for it */
	uint64_t early;			/* it came before they were taken */
	uint64_t misses;		/* it did not come in time: the buffers went back unused */
	uint64_t served;		/* requests served from taken buffers */
	uint64_t take_failures;		/* buffers CMA could not give at the last moment */
	uint64_t released_unused;	/* buffers taken and given back unused */
	uint64_t advance_batches;	/* evacuation batches (a pageblock or less each) */
	uint64_t advance_migrated;	/* pages migrated in advance */
	uint64_t advance_ns;		/* the work done in advance, priced by the cost model */
	uint64_t wasted_ns;		/* of it, for buffers never used */
	uint64_t held_mean_pages;	/* taken and not yet handed out, averaged over virtual time */
	uint64_t pool_pages;		/* the standing pool's size */
	uint64_t pool_served;		/* requests served from it */
};

struct sim_result {
	char scenario[SIM_NAME_MAX];
	char platform[SIM_NAME_MAX];
	char policy[SIM_NAME_MAX];	/* the policy's registered name (sim.h) */
	char kernel[8];			/* the machine's kernel profile, "3.5" or "6.12" */
	uint64_t seed;
	uint64_t duration_ns;
	uint64_t page_bytes;
	uint64_t total_pages;		/* managed by the buddy allocator at boot */
	uint64_t carveout_pages;	/* reserved for devices at boot (carveout policy) */
	uint64_t cma_pages;		/* in CMA areas */
	/* the areas, default first; none under carveout and buddy, nor with cma=0 and no device area */
	struct area_result areas[SIM_MAX_AREAS];
	unsigned nr_areas;
	uint64_t area_peak_pages;	/* held by device buffers in all areas together, at most */
	uint64_t area_mean_pages;	/* the same, averaged over virtual time */

	struct device_result *devices;
	unsigned nr_devices;
	struct workload_result *workloads;	/* devices included, in scenario order */
	unsigned nr_workloads;

	/* the system */
	uint64_t usable_avg_pages;	/* time-weighted: total - carveout - device-held */
	uint64_t usable_min_pages;
	uint64_t refaults;
	uint64_t oom_kills;
	uint64_t pages_migrated;
	uint64_t pages_reclaimed;
	uint64_t pages_written_back;
	uint64_t device_migrated;	/* pages migrated while device requests were served */
	uint64_t device_reclaimed;	/* pages reclaim freed for device requests: direct reclaim, alloc_contig_range's clean pages */
	int frag_index;			/* fragmentation index * 1000 at MAX_ORDER - 1, at the end; -1000: would succeed */
	unsigned frag_order;

	struct sim_sample *samples;
	size_t nr_samples;
	struct sim_snapshot *snapshots;
	unsigned nr_snapshots;

	struct sim_proc procs[SIM_MAX_PROCS];
	unsigned nr_procs;

	struct gcma_result gcma;
	struct predict_result predict;

	/* ended before duration_ns (sim_options.stop_at_miss or cancel): the figures are so far */
	bool stopped;
	uint64_t stopped_ns;

	/* host-time fields: the only ones that differ between two runs of one seed */
	double host_seconds;
	uint64_t events;		/* discrete events processed (deterministic) */
};

const char *fail_cause_name(enum fail_cause c);
const char *mem_class_name(enum mem_class c);
void sim_result_free(struct sim_result *r);
/* The workload named @name in @r, or NULL. */
const struct workload_result *sim_result_workload(const struct sim_result *r, const char *name);

/*
 * A device's latencies: sim_latency_add() appends one successful
 * request's device time (0, or -1 when out of memory, @l unchanged);
 * sim_latency_finish() sets min/mean/p50/p90/p99/p99.9/max and the requests
 * over 10x p50 once the run ends (0, or -1
 * when out of memory for the sorted copy, percentiles then 0).
 */
int sim_latency_add(struct sim_latency *l, uint64_t ns);
int sim_latency_finish(struct sim_latency *l);
/* A successful request took @p: add it to @b, as the slowest if none before was as slow. */
void latency_breakdown_add(struct latency_breakdown *b, const struct cost_parts *p);

/*
 * Reports of @nr runs of one scenario (one per policy for compare, else
 * one). 0, or -1 if writing failed.
 */
int report_text(const struct sim_result *runs, unsigned nr, FILE *out);
int report_json(const struct sim_result *runs, unsigned nr, FILE *out);
int report_html(const struct sim_result *runs, unsigned nr, FILE *out);

#endif
