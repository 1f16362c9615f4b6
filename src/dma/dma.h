/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DMA layer's state: devices (struct device's DMA part), the default
 * CMA area (dma_contiguous_default_area), what the architecture keeps
 * (ARM: the reserved ranges it remaps, the atomic pool), and the hook
 * table through which the machine's architecture differs.
 *
 * Calls go down: mapping.c picks the table and dispatches to it; each
 * arch_*.c uses contiguous.c and direct.c; those two use only src/mm.
 * contiguous.c reaches the architecture's dma_contiguous_early_fixup
 * only through the table, as a hook.
 *
 * Locking rules
 *   dma_state.lock   the device list; devices are created in any phase,
 *                    live as long as the machine, and the list is
 *                    append-only
 *   pool->lock       the atomic pool's bitmap (ARM); a leaf lock, never
 *                    held across a call into src/mm
 * The table is set once, at create. The default area, each
 * dev->cma_area and the remap records change only in the early phase and
 * the initcalls (one thread), or through dev_set_cma_area, which like the
 * kernel's takes no lock: boards call it at postcore, before devices
 * allocate.
 */
#ifndef CMA_DMA_DMA_H
#define CMA_DMA_DMA_H

#include "mm/cma.h"
#include "mm/internal.h"

/* The mask of an @n-bit DMA address: a device's coherent_dma_mask, a zone's limit. */
#define DMA_BIT_MASK(n)		((n) == 64 ? ~0ull : (1ull << (n)) - 1)

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

/*
 * An architecture (arch_x86.c, arch_arm.c, arch_arm64.c): the kernel's dma_map_ops
 * (alloc, free) with the arch functions that setup_arch, dma-contiguous
 * and the initcalls call, in one table, so that each architecture is one
 * file and the rest of the layer dispatches through get_dma_ops(). Every
 * hook is set; an architecture with nothing to do has an empty one, as
 * x86's empty dma_contiguous_early_fixup.
 */
struct dma_map_ops {
	/* at cma_mm_create, after the CMA parameters: early params, what the hooks keep */
	int (*setup)(struct cma_mm *mm);
	void (*teardown)(struct cma_mm *mm);
	/* setup_arch's dma_contiguous_reserve(limit): x86 0, ARM min(arm_dma_limit, arm_lowmem_limit) */
	cma_phys_t (*contiguous_limit)(struct cma_mm *mm);
	/* once per reserved area, right after memblock took it */
	void (*early_fixup)(struct cma_mm *mm, cma_phys_t base, uint64_t size);
	/* postcore_initcall: after the areas are active (ARM: the atomic pool) */
	void (*postcore_initcall)(struct cma_mm *mm);
	/* dma_alloc_coherent / dma_free_coherent */
	int (*alloc)(struct cma_mm *mm, struct cma_device *dev, size_t size,
		     cma_gfp_t gfp, cma_phys_t *dma_handle, void **vaddr);
	void (*free)(struct cma_mm *mm, struct cma_device *dev, size_t size,
		     cma_phys_t dma_handle);
};

struct dma_state {
	pthread_mutex_t lock;		/* the device list */
	struct cma_device *devices;
	struct cma *default_area;	/* dma_contiguous_default_area */
	const struct dma_map_ops *ops;	/* the architecture's, from arch_setup_dma_ops */

	/* ARM: coherent_pool= or cfg.atomic_pool_size; arm64: coherent_pool=, 0 scaling with RAM */
	uint64_t pool_size;

	/* ARM */
	struct dma_pool pool;
	atomic_bool warned_no_pool;	/* "coherent pool not initialised" said once */
	struct dma_remap *remap;	/* one per reserved area, max_areas slots */
	unsigned nr_remap;

	/* arm64 (zone_sizes_init) */
	cma_phys_t zone_dma_limit;	/* the last address ZONE_DMA may reach (zone_dma_limit) */
	cma_phys_t dma_phys_limit;	/* the end of ZONE_DMA (arm64_dma_phys_limit) */
};

static inline struct dma_state *dma_state(struct cma_mm *mm)
{
	return mm->dma;
}

static inline const struct dma_map_ops *get_dma_ops(struct cma_mm *mm)
{
	return dma_state(mm)->ops;
}

/* ---- contiguous.c ---- */

void dma_contiguous_reserve(struct cma_mm *mm, cma_phys_t limit);
void dev_set_cma_area(struct cma_mm *mm, struct cma_device *dev, struct cma *cma);
struct cma *dev_get_cma_area(struct cma_mm *mm, struct cma_device *dev);
void dma_devices_free(struct cma_mm *mm);
struct cma_page *dma_alloc_from_contiguous(struct cma_mm *mm, struct cma_device *dev,
					   unsigned long count, unsigned int align, cma_gfp_t gfp);
bool dma_release_from_contiguous(struct cma_mm *mm, struct cma_device *dev,
				 struct cma_page *pages, unsigned long count);
/*
 * 6.x's dma_alloc_contiguous: NULL unless @gfp may sleep; the device's
 * own area, else for more than a page the default one. dma_free_contiguous
 * gives the buffer back to the area it came from, else to the buddy
 * allocator. @size is page-aligned.
 */
struct cma_page *dma_alloc_contiguous(struct cma_mm *mm, struct cma_device *dev, size_t size,
				      cma_gfp_t gfp);
void dma_free_contiguous(struct cma_mm *mm, struct cma_device *dev, struct cma_page *page,
			 size_t size);
/* coherent_pool= into pool_size (@dflt without it); -EINVAL, said, when malformed. */
int dma_coherent_pool_param(struct cma_mm *mm, uint64_t dflt);

/* ---- direct.c ---- */

/* get_order(): the smallest order whose block holds @size bytes (0 for size 0). */
unsigned dma_get_order(const struct cma_mm *mm, uint64_t size);
/* The pages a buffer of @size bytes takes: PAGE_ALIGN(size) >> PAGE_SHIFT. */
unsigned long dma_nr_pages(const struct cma_mm *mm, uint64_t size);
cma_phys_t dma_page_to_phys(const struct cma_mm *mm, const struct cma_page *page);
/* The first page of a buffer from its handle; NULL (reported) if no page of this machine. */
struct cma_page *dma_handle_to_page(struct cma_mm *mm, cma_phys_t handle);
void dma_clear_buffer(struct cma_mm *mm, struct cma_page *page, unsigned long count);
/* dma_coherent_ok: the last byte of @size bytes at @page within @mask. */
bool dma_coherent_ok(const struct cma_mm *mm, const struct cma_page *page, size_t size, uint64_t mask);
/*
 * The zone __dma_direct_alloc_pages retries in after a buddy page beyond
 * @mask: ZONE_DMA32 for a mask below 64 bits that named no zone, else
 * ZONE_DMA; false when @gfp already asked ZONE_DMA.
 */
bool dma_direct_lower_zone(uint64_t mask, cma_gfp_t *gfp);

/* ---- arch_x86.c, arch_arm.c, arch_arm64.c ---- */

extern const struct dma_map_ops x86_dma_ops;
extern const struct dma_map_ops arm_dma_ops;
extern const struct dma_map_ops arm64_dma_ops;

/* ---- mapping.c ---- */

/* At cma_mm_create, after the CMA parameters: the machine's table, then its setup. */
int arch_setup_dma_ops(struct cma_mm *mm);
void arch_teardown_dma_ops(struct cma_mm *mm);

#endif
