/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CMA areas: a run of MIGRATE_CMA pageblocks and a bitmap of the pages
 * handed out from it, and the boot parameters that size the default one
 * (cma= beats the Kconfig choice).
 *
 * Locking rules
 *   cma->lock       the area's bitmap (cma_alloc's search, cma_release,
 *                   the debugfs and /proc readers); taken before
 *                   slot->lock and zone->lock (a release frees its pages
 *                   under it), never held across alloc_contig_range
 *   mm->cma_mutex   one alloc_contig_range at a time. Before 3.16
 *                   (kernel.cma_bitmap_lock) cma_alloc holds it over its
 *                   whole search and cma_release over the release, so a
 *                   release waits behind an allocation in progress; from
 *                   3.16 cma_alloc takes it around each alloc_contig_range
 *                   only, after reserving the bits, and a release not at
 *                   all. Taken before cma->lock.
 * The statistics are atomic. The reserved list is early-boot only (one
 * thread).
 */
#ifndef CMA_MM_CMA_H
#define CMA_MM_CMA_H

#include <stdatomic.h>

#include "mm/mmzone.h"

enum cma_size_sel { CMA_SEL_MBYTES, CMA_SEL_PERCENTAGE, CMA_SEL_MIN, CMA_SEL_MAX };

/* The Kconfig values and the command line, checked at cma_mm_create. */
struct cma_params {
	bool enabled;			/* CONFIG_CMA (y unless "is not set") */
	long long size_cmdline;		/* cma=; -1: not given */
	cma_phys_t base_cmdline;	/* cma=size@base (cma_generic); 0: not given */
	cma_phys_t limit_cmdline;	/* cma=size@base-limit, or base + size; 0: not given */
	unsigned long size_mbytes;	/* CONFIG_CMA_SIZE_MBYTES */
	unsigned long percentage;	/* CONFIG_CMA_SIZE_PERCENTAGE */
	enum cma_size_sel sel;		/* CONFIG_CMA_SIZE_SEL_* */
	unsigned long alignment;	/* CONFIG_CMA_ALIGNMENT, 4..9 */
	unsigned long areas;		/* CONFIG_CMA_AREAS */
};

/*
 * HAVE_DMA_CONTIGUOUS: the architecture has DMA CMA, and with it
 * dma-contiguous's cma= and default area. x86 and ARM have it in every
 * profile, arm64 from kernel.arm64_dma_cma.
 */
static inline bool arch_has_dma_contiguous(const struct cma_mm *mm)
{
	return mm->arch != CMA_ARCH_ARM64 || mm->kernel.arm64_dma_cma;
}

struct cma {
	unsigned long base_pfn;
	unsigned long count;
	unsigned long *bitmap;		/* one bit per 2^order_per_bit pages; NULL until activated; lock */
	spinlock_t lock;		/* the bitmap (3.16's, a mutex until 5.13) */
	unsigned order_per_bit;		/* 0 in v3.5 */
	char name[32];
	/* statistics, as later kernels keep them (in pages) */
	atomic_ulong alloc_pages_success;
	atomic_ulong alloc_pages_fail;
	atomic_ulong release_pages_success;
};

/* An area reserved early, activated at the core initcall. */
struct cma_reserved {
	cma_phys_t start;
	uint64_t size;
	void *dev;			/* the DMA layer's device, or NULL */
	char name[32];
	struct cma *area;		/* made at reservation, freed with the machine */
	struct cma *cma;		/* == area once activated, else NULL */
	bool no_dma;			/* cma_declare_contiguous_nid's: no device, never the default */
};

/* MAX_NUMNODES of Debian's arm64 6.12 (NODES_SHIFT 4): hugetlb_cma=N:SIZE refuses N past it */
#define HUGETLB_MAX_NUMNODES	16

struct cma_state {
	struct cma_params params;
	struct cma_reserved *reserved;	/* MAX_CMA_AREAS slots: 1 + CONFIG_CMA_AREAS (v3.5), CONFIG_CMA_AREAS (cma_generic) */
	unsigned nr_reserved, max_areas;
	bool reserve_called;		/* dma_contiguous_reserve ran in the early phase */
	/* hugetlb.c's: hugetlb_cma= (the total, and its per-node form), and the node's area */
	uint64_t hugetlb_size;
	uint64_t hugetlb_size_in_node[HUGETLB_MAX_NUMNODES];
	struct cma *hugetlb;		/* hugetlb_cma[0]: one node */
};

int cma_parse_params(struct cma_mm *mm, const char *cmdline, const char *kconfig,
		     struct cma_params *p);
int cma_declare_contiguous(struct cma_mm *mm, uint64_t size, cma_phys_t base, cma_phys_t limit,
			   bool fixed, void *dev, const char *name);
uint64_t cma_default_size(struct cma_mm *mm);
/*
 * The alignment of a CMA area's base and size, in pages: a pageblock
 * under kernel.cma_pageblock_align (5.19), else the larger of a pageblock
 * and the buddy allocator's largest block (which must not straddle an
 * area's edge until 5.19's merge rule): MAX_ORDER_NR_PAGES under
 * cma_generic (3.17), twice that in v3.5.
 */
unsigned long cma_min_align_pages(const struct cma_mm *mm);
void cma_init_reserved_areas(struct cma_mm *mm);
void cma_state_free(struct cma_mm *mm);
unsigned long cma_total_pages(struct cma_mm *mm);
void cma_write_areas(struct cma_mm *mm, FILE *out);
int cma_write_area_file(struct cma_mm *mm, const char *name, FILE *out);

#endif
