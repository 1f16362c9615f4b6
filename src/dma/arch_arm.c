// SPDX-License-Identifier: GPL-2.0
/*
 * ARM as the article and v3.5's arch/arm/mm have it: the default CMA
 * area below min(arm_dma_limit, arm_lowmem_limit), a
 * dma_contiguous_early_fixup that records each area (the kernel later
 * remaps those ranges of its linear mapping), and at postcore the pool
 * that atomic requests are served from, because dma_alloc_from_contiguous
 * may sleep. The pool is carved out of the default area; with no default
 * area there is no pool. dma_alloc_coherent (__dma_alloc with CMA) serves
 * atomic requests from the pool and the rest from CMA only; a free finds
 * the pages from the handle and gives them back to the pool or the area.
 */
#include <limits.h>
#include <stdlib.h>

#include "dma/dma.h"
#include "lib/bitmap.h"

#define SZ_1K 1024u

/*
 * At cma_mm_create, after the CMA parameters: the pool size (the
 * early_param "coherent_pool" beats cfg.atomic_pool_size) and the remap
 * records.
 */
static int arm_dma_setup(struct cma_mm *mm)
{
	struct dma_state *ds = dma_state(mm);
	int ret = dma_coherent_pool_param(mm, mm->atomic_pool_size);

	if (ret)
		return ret;
	ds->remap = calloc(mm->cma->max_areas, sizeof(*ds->remap));
	return ds->remap ? 0 : -ENOMEM;
}

static void arm_dma_teardown(struct cma_mm *mm)
{
	struct dma_state *ds = dma_state(mm);

	free(ds->pool.bitmap);
	free(ds->remap);
	ds->pool.bitmap = NULL;
	ds->remap = NULL;
}

/*
 * arm_dma_limit: the highest address GFP_DMA reaches, inclusive, as the
 * kernel keeps it (PHYS_OFFSET + dma_zone_size - 1); without ZONE_DMA
 * it is ~0 (u32), every 32-bit address.
 */
static cma_phys_t arm_dma_limit(const struct cma_mm *mm)
{
	return mm->zone_end[ZONE_DMA] ? mm->zone_end[ZONE_DMA] - 1 : 0xffffffffull;
}

/* arm_lowmem_limit: the end of the kernel's linear mapping (highmem starts there). */
static cma_phys_t arm_lowmem_limit(struct cma_mm *mm)
{
	cma_phys_t end = memblock_end_of_DRAM(&mm->memblock);

	return mm->zone_end[ZONE_NORMAL] && mm->zone_end[ZONE_NORMAL] < end ?
	       mm->zone_end[ZONE_NORMAL] : end;
}

/*
 * arm_memblock_init: dma_contiguous_reserve(min(arm_dma_limit,
 * arm_lowmem_limit)). With ZONE_DMA the inclusive arm_dma_limit, once
 * dma_declare_contiguous aligns it down, keeps the area one alignment
 * unit below the end of the zone, as in the kernel.
 */
static cma_phys_t arm_contiguous_limit(struct cma_mm *mm)
{
	cma_phys_t dma = arm_dma_limit(mm), lowmem = arm_lowmem_limit(mm);

	return dma < lowmem ? dma : lowmem;
}

/* dma_contiguous_early_fixup: remember the range; paging_init remaps it later. */
static void arm_early_fixup(struct cma_mm *mm, cma_phys_t base, uint64_t size)
{
	struct dma_state *ds = dma_state(mm);

	if (ds->nr_remap < mm->cma->max_areas)
		ds->remap[ds->nr_remap++] = (struct dma_remap){ base, size };
}

/*
 * The atomic pool (coherent_init, postcore_initcall): pool_size bytes
 * from the default area, aligned to their order and cleared, as
 * __alloc_from_contiguous(NULL, ...) takes them.
 */
static void arm_postcore_initcall(struct cma_mm *mm)
{
	struct dma_state *ds = dma_state(mm);
	struct dma_pool *pool = &ds->pool;
	unsigned long count = ds->pool_size >> mm->page_shift;
	unsigned kib = (unsigned)(ds->pool_size / SZ_1K);
	struct cma_page *page = NULL;

	if (!mm->cma->params.enabled)
		return;			/* !IS_ENABLED(CONFIG_CMA): no pool, no message */
	if (count)
		page = dma_alloc_from_contiguous(mm, NULL, count, dma_get_order(mm, ds->pool_size),
						 CMA_GFP_KERNEL);
	if (page) {
		pool->bitmap = calloc(BITS_TO_LONGS(count), sizeof(unsigned long));
		if (!pool->bitmap) {
			dma_release_from_contiguous(mm, NULL, page, count);
			page = NULL;
		}
	}
	if (!page) {
		cma_mm_pr_err(mm, "DMA: failed to allocate %u KiB pool for atomic coherent allocation\n", kib);
		if (!ds->default_area)
			cma_mm_printk(mm, "DMA: there is no default CMA area (cma=0?): atomic dma_alloc_coherent requests will fail\n");
		return;
	}
	dma_clear_buffer(mm, page, count);
	pool->base_pfn = page_to_pfn(mm, page);
	pool->nr_pages = count;
	cma_mm_printk(mm, "DMA: preallocated %u KiB pool for atomic coherent allocations\n", kib);
}

/* __alloc_from_pool: first fit, each block aligned to its order. */
static struct cma_page *dma_pool_alloc(struct cma_mm *mm, unsigned long count, unsigned order)
{
	struct dma_pool *pool = &dma_state(mm)->pool;
	unsigned long pageno = ULONG_MAX;
	bool warn = false;

	if (!pool->nr_pages || !count)
		return NULL;
	pthread_mutex_lock(&pool->lock);
	if (count <= pool->nr_pages)
		pageno = bitmap_find_next_zero_area(pool->bitmap, pool->nr_pages, 0,
						    (unsigned)count, (1ul << order) - 1);
	if (pageno < pool->nr_pages)
		bitmap_set(pool->bitmap, pageno, count);
	else if (!pool->warned_small)
		warn = pool->warned_small = true;
	pthread_mutex_unlock(&pool->lock);
	if (warn)
		cma_mm_pr_err(mm, "ERROR: %u KiB atomic DMA coherent pool is too small!\n"
			  "Please increase it with coherent_pool= kernel parameter!\n",
			  (unsigned)((pool->nr_pages << mm->page_shift) / SZ_1K));
	return pageno < pool->nr_pages ? pfn_to_page(mm, pool->base_pfn + pageno) : NULL;
}

/*
 * __free_from_pool: false for pages outside the pool. Pages inside it
 * are the pool's whatever happens: a free of pages it never handed out
 * is reported and changes nothing (they must not reach the CMA area,
 * which sees the whole pool as one allocation).
 */
static bool dma_pool_free(struct cma_mm *mm, unsigned long pfn, unsigned long count)
{
	struct dma_pool *pool = &dma_state(mm)->pool;
	unsigned long pageno;
	bool ok;

	if (!pool->nr_pages || pfn < pool->base_pfn || pfn >= pool->base_pfn + pool->nr_pages)
		return false;
	pageno = pfn - pool->base_pfn;
	pthread_mutex_lock(&pool->lock);
	ok = count && count <= pool->nr_pages - pageno &&
	     find_next_zero_bit(pool->bitmap, pageno + count, pageno) == pageno + count;
	if (ok)
		bitmap_clear(pool->bitmap, pageno, count);
	pthread_mutex_unlock(&pool->lock);
	if (!ok)
		cma_mm_pr_err(mm, "DMA: freeing %lu pages at pfn %#lx from the atomic pool refused: not all of them were allocated from it\n",
			  count, pfn);
	return true;
}

/*
 * get_coherent_dma_mask: no device means the system's GFP_DMA mask; a
 * device's mask must be set and cover arm_dma_limit, or it gets nothing.
 */
static uint64_t arm_coherent_mask(struct cma_mm *mm, const struct cma_device *dev)
{
	uint64_t limit = arm_dma_limit(mm), mask = limit;

	if (!dev)
		return mask;
	mask = dev->coherent_dma_mask;
	if (!mask) {
		cma_mm_pr_err(mm, "%s: coherent DMA mask is unset\n", dev->name);
		return 0;
	}
	if (~mask & limit) {
		cma_mm_pr_err(mm, "%s: coherent DMA mask %#llx is smaller than system GFP_DMA mask %#llx\n",
			  dev->name, (unsigned long long)mask, (unsigned long long)limit);
		return 0;
	}
	return mask;
}

/*
 * __dma_alloc on ARMv6+: atomic requests from the pool (its blocks are
 * not cleared again when reused, as in the kernel), everything else from
 * CMA and cleared (__dma_clear_buffer); never the buddy allocator.
 */
static int arm_dma_alloc_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
				  cma_gfp_t gfp, cma_phys_t *dma_handle, void **vaddr)
{
	struct dma_state *ds = dma_state(mm);
	unsigned long count = dma_nr_pages(mm, size);
	unsigned order = dma_get_order(mm, size);
	struct cma_page *page;

	if (!arm_coherent_mask(mm, dev))
		return -ENOMEM;
	if (gfp & CMA_GFP_ATOMIC) {
		if (!ds->pool.nr_pages) {
			if (!atomic_exchange(&ds->warned_no_pool, true))
				cma_mm_pr_err(mm, "__alloc_from_pool: coherent pool not initialised!\n");
			return -ENOMEM;
		}
		page = dma_pool_alloc(mm, count, order);
	} else {
		page = dma_alloc_from_contiguous(mm, dev, count, order, gfp);
		if (page)
			dma_clear_buffer(mm, page, count);
	}
	if (!page)
		return -ENOMEM;
	*dma_handle = dma_page_to_phys(mm, page);
	if (vaddr)
		*vaddr = cma_page_address(mm, page);
	return 0;
}

/* arm_dma_free: the pool's pages to the pool, the rest to the device's CMA area. */
static void arm_dma_free_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
				  cma_phys_t dma_handle)
{
	unsigned long count = dma_nr_pages(mm, size);
	struct cma_page *page = dma_handle_to_page(mm, dma_handle);

	if (!page || dma_pool_free(mm, page_to_pfn(mm, page), count))
		return;
	if (!dma_release_from_contiguous(mm, dev, page, count))
		cma_mm_pr_err(mm, "dma_free_coherent: %lu pages at %#llx are neither the atomic pool's nor from %s's CMA area: nothing freed\n",
			  count, (unsigned long long)dma_handle, dev ? dev->name : "the default");
}

const struct dma_map_ops arm_dma_ops = {
	.setup = arm_dma_setup,
	.teardown = arm_dma_teardown,
	.contiguous_limit = arm_contiguous_limit,
	.early_fixup = arm_early_fixup,
	.postcore_initcall = arm_postcore_initcall,
	.alloc = arm_dma_alloc_coherent,
	.free = arm_dma_free_coherent,
};
