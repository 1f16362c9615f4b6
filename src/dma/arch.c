// SPDX-License-Identifier: GPL-2.0
/*
 * The architecture hooks of the DMA layer, one table per architecture
 * (no #ifdefs): where setup_arch reserves the default CMA area, what
 * dma_contiguous_early_fixup does with each reserved area, what runs at
 * postcore initcall, and which dma_alloc_coherent serves the machine.
 *
 * x86 (seed 010): dma_contiguous_reserve(0), an empty fixup, nothing at
 * postcore. ARM (the article, and v3.5's arch/arm/mm): the default area
 * below min(arm_dma_limit, arm_lowmem_limit), a fixup that records each
 * area (the kernel later remaps those ranges of its linear mapping), and
 * at postcore the pool that atomic requests are served from, because
 * dma_alloc_from_contiguous may sleep. The pool is carved out of the
 * default area; with no default area there is no pool.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dma/dma.h"
#include "lib/bitmap.h"
#include "lib/cmdline.h"

#define SZ_1K 1024u

unsigned dma_get_order(const struct cma_mm *mm, uint64_t size)
{
	unsigned order = 0;

	if (!size)
		return 0;
	size = (size - 1) >> mm->page_shift;
	while (size) {
		size >>= 1;
		order++;
	}
	return order;
}

/* ---- x86 ---- */

static cma_phys_t x86_contiguous_limit(struct cma_mm *mm)
{
	return 0;
}

static void x86_early_fixup(struct cma_mm *mm, cma_phys_t base, uint64_t size)
{
}

static void x86_postcore_initcall(struct cma_mm *mm)
{
}

/* ---- ARM ---- */

/*
 * arm_dma_limit: the highest address GFP_DMA reaches, inclusive, as the
 * kernel keeps it (PHYS_OFFSET + dma_zone_size - 1); without ZONE_DMA
 * it is ~0 (u32), every 32-bit address.
 */
cma_phys_t arm_dma_limit(const struct cma_mm *mm)
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
		page = dma_alloc_from_contiguous(mm, NULL, count, dma_get_order(mm, ds->pool_size));
	if (page) {
		pool->bitmap = calloc(BITS_TO_LONGS(count), sizeof(unsigned long));
		if (!pool->bitmap) {
			dma_release_from_contiguous(mm, NULL, page, count);
			page = NULL;
		}
	}
	if (!page) {
		mm_pr_err(mm, "DMA: failed to allocate %u KiB pool for atomic coherent allocation\n", kib);
		if (!ds->default_area)
			mm_printk(mm, "DMA: there is no default CMA area (cma=0?): atomic dma_alloc_coherent requests will fail\n");
		return;
	}
	if (mm->backing)
		memset(cma_page_address(mm, page), 0, (size_t)count << mm->page_shift);
	pool->base_pfn = page_to_pfn(mm, page);
	pool->nr_pages = count;
	mm_printk(mm, "DMA: preallocated %u KiB pool for atomic coherent allocations\n", kib);
}

/* __alloc_from_pool: first fit, each block aligned to its order. */
struct cma_page *dma_pool_alloc(struct cma_mm *mm, unsigned long count, unsigned order)
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
		mm_pr_err(mm, "ERROR: %u KiB atomic DMA coherent pool is too small!\n"
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
bool dma_pool_free(struct cma_mm *mm, unsigned long pfn, unsigned long count)
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
		mm_pr_err(mm, "DMA: freeing %lu pages at pfn %#lx from the atomic pool refused: not all of them were allocated from it\n",
			  count, pfn);
	return true;
}

/* ---- the tables ---- */

static const struct dma_arch_ops x86_ops = {
	.name = "x86",
	.contiguous_limit = x86_contiguous_limit,
	.early_fixup = x86_early_fixup,
	.postcore_initcall = x86_postcore_initcall,
	.alloc_coherent = x86_dma_alloc_coherent,
	.free_coherent = x86_dma_free_coherent,
};

static const struct dma_arch_ops arm_ops = {
	.name = "arm",
	.contiguous_limit = arm_contiguous_limit,
	.early_fixup = arm_early_fixup,
	.postcore_initcall = arm_postcore_initcall,
	.alloc_coherent = arm_dma_alloc_coherent,
	.free_coherent = arm_dma_free_coherent,
};

const struct dma_arch_ops *dma_arch(const struct cma_mm *mm)
{
	return mm->arch == CMA_ARCH_ARM ? &arm_ops : &x86_ops;
}

/*
 * At cma_mm_create, after the CMA parameters: the pool size (ARM's
 * early_param "coherent_pool" beats cfg.atomic_pool_size) and the remap
 * records. Departure, as for cma=: a malformed coherent_pool= is refused
 * (the kernel's memparse reads "1Q" as 1 byte).
 */
int dma_arch_init(struct cma_mm *mm)
{
	struct dma_state *ds = dma_state(mm);
	const char *val;
	size_t len;

	ds->pool_size = mm->atomic_pool_size;
	if (mm->arch != CMA_ARCH_ARM)
		return 0;
	if (cmdline_find_option(mm->cmdline, "coherent_pool", &val, &len) &&
	    memparse_strict(val, len, &ds->pool_size)) {
		mm_pr_err(mm, "DMA: invalid coherent_pool=%.*s: expected a size in bytes with an optional K, M, G, T, P or E suffix, e.g. coherent_pool=512K\n",
			  (int)len, val);
		return -EINVAL;
	}
	ds->remap = calloc(mm->cma->max_areas, sizeof(*ds->remap));
	return ds->remap ? 0 : -ENOMEM;
}

void dma_arch_free(struct cma_mm *mm)
{
	struct dma_state *ds = dma_state(mm);

	free(ds->pool.bitmap);
	free(ds->remap);
	ds->pool.bitmap = NULL;
	ds->remap = NULL;
}
