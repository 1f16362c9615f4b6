// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 as Linux 6.12 has it (arch/arm64/mm/init.c, kernel/dma/direct.c,
 * kernel/dma/contiguous.c); the machine's profile must have arm64
 * (check_config refuses it under 3.5).
 *
 * Zones (zone_sizes_init): ZONE_DMA ends at the firmware's DMA limit (the
 * DT's dma-ranges or ACPI's IORT; cfg.zone_dma_end here, none meaning
 * every address), capped at 4 GiB when RAM starts below 4 GiB, and at the
 * end of RAM (max_zone_phys): arm64_dma_phys_limit. ZONE_DMA32 ends at
 * max_zone_phys(4 GiB - 1), so it is empty when ZONE_DMA already covers
 * the 32-bit space. No highmem. The default CMA area is reserved below
 * arm64_dma_phys_limit, after the board's reservations
 * (arm64_memblock_init, then dma_contiguous_reserve in bootmem_init).
 *
 * dma_alloc_coherent is dma_direct_alloc: the zone picked from the
 * coherent mask (dma_direct_optimal_gfp_mask), dma_alloc_contiguous
 * first (the device's own area, else the default one for more than a
 * page; none for a request that cannot sleep), the buddy allocator when
 * that gives nothing or memory beyond the mask, retried in the lower
 * zones. The buffer is zeroed. A free goes back to the area it came from,
 * else to the buddy allocator (dma_free_contiguous).
 *
 * Before 3.14 (kernel.arm64_dma_cma) arm64 has no DMA CMA: no area can
 * be made (arch_has_dma_contiguous; the other ways come later), so the
 * CMA step gives nothing and every buffer comes from the page allocator,
 * as arm64_swiotlb_alloc_coherent's do, in the zone below 4 GiB for a
 * 32-bit mask (its GFP_DMA32; this file's ZONE_DMA, as 6.12 lays the
 * zones out).
 *
 * At postcore (kernel.dma_atomic_pools, 5.8) dma_atomic_pool_init fills
 * the atomic pools of kernel/dma/pool.c, first from the default area: on
 * a small machine their 384 pages or so are the area's first.
 *
 * Departures: devices are DMA-coherent, so an atomic request goes
 * straight to the buddy allocator and the pools, once filled, are never
 * drawn on or grown (atomic_pool_work_fn); there is no swiotlb or IOMMU,
 * and one NUMA node, so no cma_pernuma or numa_cma areas
 * (CONFIG_DMA_NUMA_CMA).
 */
#include "dma/dma.h"

#define U32_MAX			0xffffffffull
#define PHYS_ADDR_MAX		(~0ull)
#define SZ_128K			(128ull << 10)
#define SZ_1G			(1ull << 30)

/* max_zone_phys(): the end of a zone whose last address is @zone_limit, clamped to RAM. */
static cma_phys_t max_zone_phys(struct cma_mm *mm, cma_phys_t zone_limit)
{
	cma_phys_t last = memblock_end_of_DRAM(&mm->memblock) - 1;

	return (zone_limit < last ? zone_limit : last) + 1;
}

/*
 * zone_sizes_init(): the zone limits the machine boots with, and
 * zone_dma_limit, the last address GFP_DMA reaches, which
 * dma_direct_optimal_gfp_mask compares a device's mask with; before
 * them coherent_pool= (0 without it: the pools scale with RAM).
 */
static int arm64_dma_setup(struct cma_mm *mm)
{
	struct dma_state *ds = dma_state(mm);
	cma_phys_t fw_limit = mm->zone_end[ZONE_DMA] ? mm->zone_end[ZONE_DMA] - 1 : PHYS_ADDR_MAX;
	int ret = dma_coherent_pool_param(mm, 0);

	if (ret)
		return ret;
	ds->zone_dma_limit = fw_limit;
	if (mm->memblock.memory.regions[0].base < U32_MAX && ds->zone_dma_limit > U32_MAX)
		ds->zone_dma_limit = U32_MAX;
	ds->dma_phys_limit = max_zone_phys(mm, ds->zone_dma_limit);
	mm->zone_end[ZONE_DMA] = ds->dma_phys_limit;
	mm->zone_end[ZONE_DMA32] = max_zone_phys(mm, DMA_BIT_MASK(32));
	mm->zone_end[ZONE_NORMAL] = 0;		/* no highmem: Normal runs to the end of RAM */
	return 0;
}

static void arm64_dma_teardown(struct cma_mm *mm)
{
}

/* bootmem_init: dma_contiguous_reserve(arm64_dma_phys_limit). */
static cma_phys_t arm64_contiguous_limit(struct cma_mm *mm)
{
	return dma_state(mm)->dma_phys_limit;
}

static void arm64_early_fixup(struct cma_mm *mm, cma_phys_t base, uint64_t size)
{
}

/* cma_in_zone: the default area lies wholly in the zone @gfp names (an area never straddles one). */
static bool cma_in_zone(struct cma_mm *mm, cma_gfp_t gfp)
{
	struct dma_state *ds = dma_state(mm);
	struct cma *cma = ds->default_area;
	cma_phys_t end;

	if (!cma || !cma->count)
		return false;
	end = (((cma_phys_t)cma->base_pfn + cma->count) << mm->page_shift) - 1;
	if (gfp & CMA_GFP_DMA)
		return end <= ds->zone_dma_limit;
	if (gfp & CMA_GFP_DMA32)
		return end <= (ds->zone_dma_limit > U32_MAX ? ds->zone_dma_limit : U32_MAX);
	return true;
}

/* %pGg of the three pools' flags */
static const char *pool_gfp_name(cma_gfp_t gfp)
{
	if (gfp & CMA_GFP_DMA)
		return "GFP_KERNEL|GFP_DMA";
	return gfp & CMA_GFP_DMA32 ? "GFP_KERNEL|GFP_DMA32" : "GFP_KERNEL";
}

/*
 * __dma_atomic_pool_init with atomic_pool_expand: one block of the
 * smallest order holding @pool_size (at most MAX_PAGE_ORDER), from the
 * default area when it is in the pool's zone, else from the buddy
 * allocator, the order halved until a block comes. The pool never gives
 * it back.
 */
static void dma_atomic_pool_init_one(struct cma_mm *mm, uint64_t pool_size, cma_gfp_t gfp)
{
	unsigned order = dma_get_order(mm, pool_size);
	struct cma_page *page = NULL;

	if (order > mm->max_order - 1)
		order = mm->max_order - 1;
	for (;;) {
		if (cma_in_zone(mm, gfp))
			page = dma_alloc_from_contiguous(mm, NULL, 1ul << order, order, CMA_GFP_KERNEL);
		if (!page)
			page = cma_alloc_pages(mm, gfp | CMA_GFP_NOWARN, order);
		if (page || !order)
			break;
		order--;
	}
	if (!page) {
		cma_mm_pr_err(mm, "DMA: failed to allocate %llu KiB %s pool for atomic allocation\n",
			      (unsigned long long)(pool_size >> 10), pool_gfp_name(gfp));
		return;
	}
	cma_mm_printk(mm, "DMA: preallocated %llu KiB %s pool for atomic allocations\n",
		      (unsigned long long)((1ull << order) << mm->page_shift >> 10), pool_gfp_name(gfp));
}

/*
 * dma_atomic_pool_init: without coherent_pool=, 128 KiB of pool per GiB
 * of totalram, at least 128 KiB and at most MAX_ORDER_NR_PAGES; the
 * GFP_DMA pool only when ZONE_DMA has managed pages (has_managed_dma),
 * the GFP_DMA32 one always (arm64 has CONFIG_ZONE_DMA32).
 */
static void arm64_postcore_initcall(struct cma_mm *mm)
{
	uint64_t pool_size = dma_state(mm)->pool_size;

	if (!mm->kernel.dma_atomic_pools)
		return;
	if (!pool_size) {
		unsigned long pages = mm->totalram_pages / (SZ_1G / SZ_128K);

		if (pages > max_order_nr_pages(mm))
			pages = max_order_nr_pages(mm);
		pool_size = (uint64_t)pages << mm->page_shift;
		if (pool_size < SZ_128K)
			pool_size = SZ_128K;
	}
	dma_atomic_pool_init_one(mm, pool_size, CMA_GFP_KERNEL);
	if (mm->zones[ZONE_DMA].managed_pages)
		dma_atomic_pool_init_one(mm, pool_size, CMA_GFP_KERNEL | CMA_GFP_DMA);
	dma_atomic_pool_init_one(mm, pool_size, CMA_GFP_KERNEL | CMA_GFP_DMA32);
}

/*
 * The device's coherent mask; no device stands for a platform device
 * that set none, which of_dma_configure gives 32 bits.
 */
static uint64_t arm64_coherent_mask(const struct cma_device *dev)
{
	return dev && dev->coherent_dma_mask ? dev->coherent_dma_mask : DMA_BIT_MASK(32);
}

/* dma_direct_optimal_gfp_mask: the zone the mask falls in, tried first. */
static cma_gfp_t dma_direct_optimal_gfp_mask(struct cma_mm *mm, uint64_t mask)
{
	if (mask <= dma_state(mm)->zone_dma_limit)
		return CMA_GFP_DMA;
	if (mask <= DMA_BIT_MASK(32))
		return CMA_GFP_DMA32;
	return 0;
}

/* __dma_direct_alloc_pages: CMA, else the buddy allocator, falling back to lower zones. */
static struct cma_page *dma_direct_alloc_pages(struct cma_mm *mm, struct cma_device *dev,
					       size_t size, cma_gfp_t gfp, uint64_t mask)
{
	unsigned order = dma_get_order(mm, size);
	struct cma_page *page;

	gfp |= dma_direct_optimal_gfp_mask(mm, mask);
	page = dma_alloc_contiguous(mm, dev, size, gfp);
	if (page && !dma_coherent_ok(mm, page, size, mask)) {
		dma_free_contiguous(mm, dev, page, size);
		page = NULL;
	}
	for (;;) {
		if (!page)
			page = cma_alloc_pages(mm, gfp, order);
		if (!page || dma_coherent_ok(mm, page, size, mask))
			return page;
		cma_free_pages(mm, page, order);
		page = NULL;
		if (!dma_direct_lower_zone(mask, &gfp))
			return NULL;
	}
}

/* dma_alloc_attrs + dma_direct_alloc: the caller's zone flags dropped, the size page-aligned. */
static int arm64_dma_alloc(struct cma_mm *mm, struct cma_device *dev, size_t size, cma_gfp_t gfp,
			   cma_phys_t *dma_handle, void **vaddr)
{
	size_t aligned = (size_t)dma_nr_pages(mm, size) << mm->page_shift;
	struct cma_page *page;

	gfp &= ~(CMA_GFP_DMA | CMA_GFP_DMA32 | CMA_GFP_HIGHMEM | CMA_GFP_ZERO);
	page = dma_direct_alloc_pages(mm, dev, aligned, gfp, arm64_coherent_mask(dev));
	if (!page)
		return -ENOMEM;
	dma_clear_buffer(mm, page, dma_nr_pages(mm, size));
	*dma_handle = dma_page_to_phys(mm, page);
	if (vaddr)
		*vaddr = cma_page_address(mm, page);
	return 0;
}

/* dma_direct_free: __dma_direct_free_pages -> dma_free_contiguous. */
static void arm64_dma_free(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_phys_t dma_handle)
{
	struct cma_page *page = dma_handle_to_page(mm, dma_handle);

	if (page)
		dma_free_contiguous(mm, dev, page, (size_t)dma_nr_pages(mm, size) << mm->page_shift);
}

const struct dma_map_ops arm64_dma_ops = {
	.setup = arm64_dma_setup,
	.teardown = arm64_dma_teardown,
	.contiguous_limit = arm64_contiguous_limit,
	.early_fixup = arm64_early_fixup,
	.postcore_initcall = arm64_postcore_initcall,
	.alloc = arm64_dma_alloc,
	.free = arm64_dma_free,
};
