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
 */
#include <math.h>
#include <string.h>

#include "cost.h"

/*
 * Migration beyond the copy on x86, from bench/kernel/micro-mig.sh on
 * this project's 2-vCPU EPYC KVM guest (doc/cost-model.md shows the
 * arithmetic): compaction's cost per unmapped page less the copy and the
 * scanning already priced; the extra cost of a mapped page; a flush's
 * shootdown to a CPU running the address space less the local one.
 */
#define MIG_X86_COPY_MBPS	3800
#define MIG_X86_MIGRATE_US	1.2
#define MIG_X86_UNMAP_US	1.3
#define MIG_X86_TLB_IPI_US	4.4
/* ARM: the profiles' ratio of CPU time per page of bookkeeping (600/1200 over 400/3300) */
#define ARM_PER_X86		4.1
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
	[COST_DRAIN_US] = "drain_us",
	[COST_LOCK_US] = "lock_us",
	[COST_MIGRATE_US] = "migrate_us",
	[COST_UNMAP_US] = "unmap_us",
	[COST_TLB_IPI_US] = "tlb_ipi_us",
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
		[COST_DRAIN_US] = 10,
		[COST_LOCK_US] = 1,
		/* bench/kernel/results/micro-mig-*.txt (doc/cost-model.md) */
		[COST_MIGRATE_US] = MIG_X86_MIGRATE_US,
		[COST_UNMAP_US] = MIG_X86_UNMAP_US,
		[COST_TLB_IPI_US] = MIG_X86_TLB_IPI_US,
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
		/* x86's measured cost scaled by the profiles' page_cycles / cpu_mhz; no IPI on the A9 */
		[COST_MIGRATE_US] = MIG_X86_MIGRATE_US * ARM_PER_X86,
		[COST_UNMAP_US] = MIG_X86_UNMAP_US * ARM_PER_X86,
		[COST_TLB_IPI_US] = MIG_ARM_TLB_BROADCAST_US,
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

/*
 * Migration's work around the copy: each page's target, references and
 * LRU rounds; each page table entry's unmap and remap; each TLB flush's
 * interrupt of every other CPU that runs the address space.
 */
static uint64_t us_ns(double count, double us)
{
	return (uint64_t)llround(count * us * 1000.0);
}

static uint64_t migration_overhead_ns(const struct cost_model *m, const struct cost_work *w)
{
	return us_ns((double)w->migrated, m->v[COST_MIGRATE_US]) +
	       us_ns((double)w->mapped_ptes, m->v[COST_UNMAP_US]) +
	       us_ns((double)w->tlb_flushes * (double)w->tlb_cpus, m->v[COST_TLB_IPI_US]);
}

uint64_t cost_ns(const struct cost_model *m, const struct cost_work *w, uint64_t page_bytes)
{
	double ns_per_cycle = 1000.0 / m->v[COST_CPU_MHZ];
	double cpu_cycles = (double)w->scanned * m->v[COST_SCAN_CYCLES] +
			    (double)w->handled * m->v[COST_PAGE_CYCLES];

	return (uint64_t)(cpu_cycles * ns_per_cycle) + migration_overhead_ns(m, w) +
	       cost_transfer_ns(m->v[COST_COPY_MBPS], w->migrated * page_bytes) +
	       cost_transfer_ns(m->v[COST_ZERO_MBPS], w->zeroed_bytes) +
	       cost_transfer_ns(m->v[COST_STORAGE_WRITE_MBPS], w->written * page_bytes) +
	       (uint64_t)((double)w->drains * m->v[COST_DRAIN_US] * 1000.0) +
	       (uint64_t)((double)w->locks * m->v[COST_LOCK_US] * 1000.0);
}

/* Which work a counter measures. */
enum { W_MIGRATED, W_SCANNED, W_HANDLED, W_WRITTEN, W_DRAINS, W_RECLAIMED,
       W_MAPPED_PTES, W_TLB_FLUSHES, NR_W };

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
	{ "nr_vmscan_write", W_WRITTEN },
	/* a stall in reclaim or compaction drains every CPU's lists */
	{ "allocstall", W_DRAINS },
	{ "compact_stall", W_DRAINS },
	/* the library's, from its owners' mapcounts */
	{ "pgmigrate_mapped_ptes", W_MAPPED_PTES },
	{ "pgmigrate_tlb_flush", W_TLB_FLUSHES },
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
	w->written += now.v[W_WRITTEN] - before->v[W_WRITTEN];
	w->drains += now.v[W_DRAINS] - before->v[W_DRAINS];
	w->reclaimed += now.v[W_RECLAIMED] - before->v[W_RECLAIMED];
	w->mapped_ptes += now.v[W_MAPPED_PTES] - before->v[W_MAPPED_PTES];
	w->tlb_flushes += now.v[W_TLB_FLUSHES] - before->v[W_TLB_FLUSHES];
}
