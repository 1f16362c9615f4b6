/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device cost model: what the library reports it did for a request
 * (pages migrated, scanned, handled, written back, drains, lock rounds)
 * turned into time on the simulated board. Profiles and the sources of
 * their numbers: cost.c and doc/cost-model.md.
 */
#ifndef CMASIM_COST_H
#define CMASIM_COST_H

#include <stdint.h>

#include <cma/cma.h>

enum cost_field {
	COST_CPU_MHZ,		/* CPU clock, MHz: turns the cycle counts below into time */
	COST_COPY_MBPS,		/* page copy bandwidth, MB/s (migration) */
	COST_ZERO_MBPS,		/* clearing bandwidth, MB/s (buffers handed out zeroed) */
	COST_SCAN_CYCLES,	/* per page a scanner looks at (compaction, reclaim) */
	COST_PAGE_CYCLES,	/* bookkeeping per page allocated, isolated or reclaimed */
	COST_STORAGE_WRITE_MBPS,	/* writeback of dirty file pages */
	COST_STORAGE_READ_MBPS,	/* page-cache misses and refaults (workloads' time) */
	COST_DRAIN_US,		/* one drain of every CPU's page lists (an IPI round) */
	COST_LOCK_US,		/* one round of the CMA mutex and zone locks */
	/* c-mig: migration beyond the copy */
	COST_MIGRATE_US,	/* per migrated page: target, references, mapping, LRU rounds */
	COST_UNMAP_US,		/* per page table entry: rmap walk, unmap, local flush, remap */
	COST_TLB_IPI_US,	/* per TLB flush, per other CPU running the address space */
	NR_COST_FIELDS
};

struct cost_model {
	char profile[16];		/* "x86" or "arm" */
	double v[NR_COST_FIELDS];
};

/* Work done for one request, from the machine's counters and trace. */
struct cost_work {
	uint64_t migrated;		/* pages copied */
	uint64_t scanned;		/* pages scanned */
	uint64_t handled;		/* pages allocated, isolated or reclaimed */
	uint64_t reclaimed;		/* of those, pages direct reclaim freed */
	uint64_t zeroed_bytes;
	uint64_t written;		/* pages written back */
	uint64_t drains;
	uint64_t locks;
	/* c-mig: migration beyond the copy */
	uint64_t mapped_ptes;		/* page table entries of migrated pages unmapped and remapped */
	uint64_t tlb_flushes;		/* TLB flushes migration made for them */
	uint64_t tlb_cpus;		/* other CPUs each flush interrupts */
};

/* Counter values a request's work is the difference of. */
struct cost_counters {
	uint64_t v[12];
};

extern const char *const cost_field_names[NR_COST_FIELDS];
/* The profile of @arch. */
void cost_profile(enum cma_arch arch, struct cost_model *m);
/* Device time of @w under @m, in ns, for pages of @page_bytes. */
uint64_t cost_ns(const struct cost_model *m, const struct cost_work *w, uint64_t page_bytes);
/* Time to move @bytes at @mbps MB/s, in ns. */
uint64_t cost_transfer_ns(double mbps, uint64_t bytes);

/* Read the counters cost_work_since() compares. */
void cost_counters_read(struct cma_mm *mm, struct cost_counters *c);
/* Add what the counters say was done since @before to @w. */
void cost_work_since(struct cma_mm *mm, const struct cost_counters *before, struct cost_work *w);

#endif
