/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DMA layer's state: devices (struct device's DMA part), the default
 * CMA area (dma_contiguous_default_area), what the architecture keeps
 * (ARM: the reserved ranges it remaps, the atomic pool), and the hook
 * table through which the machine's architecture differs.
 *
 * Locking rules
 *   dma_state.lock   the device list; devices are created in any phase,
 *                    live as long as the machine, and the list is
 *                    append-only
 *   pool->lock       the atomic pool's bitmap (ARM); a leaf lock, never
 *                    held across a call into src/mm
 * The default area, each dev->cma_area and the remap records change only
 * in the early phase and the initcalls (one thread), or through
 * dev_set_cma_area, which like the kernel's takes no lock: boards call it
 * at postcore, before devices allocate.
 */
#ifndef CMA_DMA_DMA_H
#define CMA_DMA_DMA_H

#include "mm/cma.h"
#include "mm/internal.h"

struct cma_device {
	char name[32];
	uint64_t coherent_dma_mask;
	struct cma *cma_area;		/* dev->cma_area */
	struct cma_device *next;
};

/* A range dma_contiguous_early_fixup recorded (ARM's dma_mmu_remap[]). */
struct dma_remap {
	cma_phys_t base;
	uint64_t size;
};

/*
 * ARM's pool for atomic dma_alloc_coherent: pages taken from the default
 * CMA area at postcore initcall, handed out first fit from a bitmap, one
 * bit per page, each block aligned to its own order (as v3.6 does).
 */
struct dma_pool {
	pthread_mutex_t lock;		/* bitmap */
	unsigned long base_pfn;		/* 0 with nr_pages 0: no pool */
	unsigned long nr_pages;
	unsigned long *bitmap;
	bool warned_small;		/* "pool is too small" said once */
};

struct dma_state {
	pthread_mutex_t lock;		/* the device list */
	struct cma_device *devices;
	struct cma *default_area;	/* dma_contiguous_default_area */

	/* ARM */
	uint64_t pool_size;		/* coherent_pool= or cfg.atomic_pool_size */
	struct dma_pool pool;
	atomic_bool warned_no_pool;	/* "coherent pool not initialised" said once */
	struct dma_remap *remap;	/* one per reserved area, max_areas slots */
	unsigned nr_remap;
};

static inline struct dma_state *dma_state(struct cma_mm *mm)
{
	return mm->dma;
}

/*
 * What differs between architectures (arch.c). Every hook is set; an
 * architecture with nothing to do has an empty one, as x86's empty
 * dma_contiguous_early_fixup.
 */
struct dma_arch_ops {
	const char *name;
	/* setup_arch's dma_contiguous_reserve(limit): x86 0, ARM min(arm_dma_limit, arm_lowmem_limit) */
	cma_phys_t (*contiguous_limit)(struct cma_mm *mm);
	/* once per reserved area, right after memblock took it */
	void (*early_fixup)(struct cma_mm *mm, cma_phys_t base, uint64_t size);
	/* postcore_initcall: after the areas are active (ARM: the atomic pool) */
	void (*postcore_initcall)(struct cma_mm *mm);
	/* dma_alloc_coherent / dma_free_coherent (mapping.c) */
	int (*alloc_coherent)(struct cma_mm *mm, struct cma_device *dev, size_t size,
			      cma_gfp_t gfp, cma_phys_t *dma_handle, void **vaddr);
	void (*free_coherent)(struct cma_mm *mm, struct cma_device *dev, size_t size,
			      cma_phys_t dma_handle);
};

/* ---- contiguous.c ---- */

void dma_contiguous_reserve(struct cma_mm *mm, cma_phys_t limit);
void dev_set_cma_area(struct cma_mm *mm, struct cma_device *dev, struct cma *cma);
struct cma *dev_get_cma_area(struct cma_mm *mm, struct cma_device *dev);
void dma_devices_free(struct cma_mm *mm);
struct cma_page *dma_alloc_from_contiguous(struct cma_mm *mm, struct cma_device *dev,
					   unsigned long count, unsigned int align);
bool dma_release_from_contiguous(struct cma_mm *mm, struct cma_device *dev,
				 struct cma_page *pages, unsigned long count);

/* ---- arch.c ---- */

const struct dma_arch_ops *dma_arch(const struct cma_mm *mm);
cma_phys_t arm_dma_limit(const struct cma_mm *mm);	/* inclusive, as the kernel keeps it */
int dma_arch_init(struct cma_mm *mm);		/* at create: cmdline, remap slots */
void dma_arch_free(struct cma_mm *mm);
/* get_order(): the smallest order whose block holds @size bytes (0 for size 0). */
unsigned dma_get_order(const struct cma_mm *mm, uint64_t size);
/* ARM's atomic pool: NULL when empty or full; free returns false for pages not the pool's. */
struct cma_page *dma_pool_alloc(struct cma_mm *mm, unsigned long count, unsigned order);
bool dma_pool_free(struct cma_mm *mm, unsigned long pfn, unsigned long count);

/* ---- mapping.c ---- */

int x86_dma_alloc_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_gfp_t gfp, cma_phys_t *dma_handle, void **vaddr);
void x86_dma_free_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_phys_t dma_handle);
int arm_dma_alloc_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_gfp_t gfp, cma_phys_t *dma_handle, void **vaddr);
void arm_dma_free_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_phys_t dma_handle);

#endif
