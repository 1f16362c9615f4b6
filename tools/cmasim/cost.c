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
#include <string.h>

#include "cost.h"

const char *const cost_field_names[NR_COST_FIELDS] = {
	[COST_CPU_MHZ] = "cpu_mhz",
	[COST_COPY_MBPS] = "copy_mbps",
	[COST_ZERO_MBPS] = "zero_mbps",
	[COST_SCAN_CYCLES] = "scan_cycles",
	[COST_PAGE_CYCLES] = "page_cycles",
	[COST_STORAGE_WRITE_MBPS] = "storage_write_mbps",
	[COST_STORAGE_READ_MBPS] = "storage_read_mbps",
	[COST_DRAIN_US] = "drain_us",
	[COST_LOCK_US] = "lock_us",
	[COST_STORAGE_RAND_READ_IOPS] = "storage_rand_read_iops",
	[COST_STORAGE_RAND_WRITE_IOPS] = "storage_rand_write_iops",
	[COST_STORAGE_LAT_US] = "storage_lat_us",
};

static const struct cost_model profiles[] = {
	[CMA_ARCH_X86] = { "x86", {
		[COST_CPU_MHZ] = 3300,
		[COST_COPY_MBPS] = 5000,
		[COST_ZERO_MBPS] = 8000,
		[COST_SCAN_CYCLES] = 60,
		[COST_PAGE_CYCLES] = 400,
		[COST_STORAGE_WRITE_MBPS] = 250,
		[COST_STORAGE_READ_MBPS] = 450,
		[COST_DRAIN_US] = 10,
		[COST_LOCK_US] = 1,
		[COST_STORAGE_RAND_READ_IOPS] = 40000,
		[COST_STORAGE_RAND_WRITE_IOPS] = 18000,
		[COST_STORAGE_LAT_US] = 100,
	} },
	[CMA_ARCH_ARM] = { "arm", {
		[COST_CPU_MHZ] = 1200,
		[COST_COPY_MBPS] = 700,
		[COST_ZERO_MBPS] = 1400,
		[COST_SCAN_CYCLES] = 100,
		[COST_PAGE_CYCLES] = 600,
		[COST_STORAGE_WRITE_MBPS] = 15,
		[COST_STORAGE_READ_MBPS] = 40,
		[COST_DRAIN_US] = 30,
		[COST_LOCK_US] = 2,
		[COST_STORAGE_RAND_READ_IOPS] = 2000,
		[COST_STORAGE_RAND_WRITE_IOPS] = 150,
		[COST_STORAGE_LAT_US] = 300,
	} },
};

void cost_profile(enum cma_arch arch, struct cost_model *m)
{
	*m = profiles[arch == CMA_ARCH_ARM ? CMA_ARCH_ARM : CMA_ARCH_X86];
}

uint64_t cost_transfer_ns(double mbps, uint64_t bytes)
{
	/* MB/s is 10^6 bytes per 10^9 ns */
	return mbps > 0 ? (uint64_t)((double)bytes * 1000.0 / mbps) : 0;
}

uint64_t cost_ns(const struct cost_model *m, const struct cost_work *w, uint64_t page_bytes)
{
	double ns_per_cycle = 1000.0 / m->v[COST_CPU_MHZ];
	double cpu_cycles = (double)w->scanned * m->v[COST_SCAN_CYCLES] +
			    (double)w->handled * m->v[COST_PAGE_CYCLES];

	return (uint64_t)(cpu_cycles * ns_per_cycle) +
	       cost_transfer_ns(m->v[COST_COPY_MBPS], w->migrated * page_bytes) +
	       cost_transfer_ns(m->v[COST_ZERO_MBPS], w->zeroed_bytes) +
	       (uint64_t)((double)w->drains * m->v[COST_DRAIN_US] * 1000.0) +
	       (uint64_t)((double)w->locks * m->v[COST_LOCK_US] * 1000.0) +
	       w->io_wait_ns;
}

/* Which work a counter measures. */
enum { W_MIGRATED, W_SCANNED, W_HANDLED, W_DRAINS, W_RECLAIMED, NR_W };

#define PER_ZONE(event, w) \
	{ event "_dma", w }, { event "_dma32", w }, { event "_normal", w }, \
	{ event "_high", w }, { event "_movable", w }

static const struct { const char *name; int work; } counters[] = {
	{ "pgmigrate_success", W_MIGRATED },
	{ "compact_migrate_scanned", W_SCANNED },
	{ "compact_free_scanned", W_SCANNED },
	PER_ZONE("pgscan_direct", W_SCANNED),
	{ "compact_isolated", W_HANDLED },
	PER_ZONE("pgsteal_direct", W_HANDLED),
	PER_ZONE("pgsteal_direct", W_RECLAIMED),	/* what reclaim takes from the workloads */
	/* a stall in reclaim or compaction drains every CPU's lists */
	{ "allocstall", W_DRAINS },
	{ "compact_stall", W_DRAINS },
};

#define NR_COUNTERS (sizeof(counters) / sizeof(counters[0]))

_Static_assert(NR_W <= sizeof(((struct cost_counters *)0)->v) / sizeof(uint64_t),
	       "struct cost_counters too small");

void cost_counters_read(struct cma_mm *mm, struct cost_counters *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < NR_COUNTERS; i++) {
		uint64_t v = 0;

		cma_mm_counter(mm, counters[i].name, &v);
		c->v[counters[i].work] += v;
	}
}

void cost_work_since(struct cma_mm *mm, const struct cost_counters *before, struct cost_work *w)
{
	struct cost_counters now;

	cost_counters_read(mm, &now);
	w->migrated += now.v[W_MIGRATED] - before->v[W_MIGRATED];
	w->scanned += now.v[W_SCANNED] - before->v[W_SCANNED];
	w->handled += now.v[W_HANDLED] - before->v[W_HANDLED];
	w->drains += now.v[W_DRAINS] - before->v[W_DRAINS];
	w->reclaimed += now.v[W_RECLAIMED] - before->v[W_RECLAIMED];
}
