// SPDX-License-Identifier: GPL-2.0
/*
 * dma_alloc_coherent / dma_free_coherent, per architecture. The DMA
 * handle is the buffer's physical address (no IOMMU), so a free finds
 * its pages from the handle alone and hands them back to whichever
 * allocator they came from: the atomic pool, the device's CMA area
 * (dma_release_from_contiguous says whether they are its), or else the
 * buddy allocator.
 *
 * x86 follows seed 010's dma_generic_alloc_coherent: the zone from the
 * coherent mask up front, CMA first unless atomic, the buddy allocator
 * otherwise, and a page beyond the mask given back, retried once with
 * GFP_DMA. ARM follows v3.5's __dma_alloc with CMA: atomic requests from
 * the pool, the rest from CMA only.
 */
#include <string.h>

#include "dma/dma.h"

#define DMA_BIT_MASK(n)		((n) == 64 ? ~0ull : (1ull << (n)) - 1)
#define ISA_DMA_BIT_MASK	DMA_BIT_MASK(24)

static uint64_t page_align(const struct cma_mm *mm, uint64_t size)
{
	return (size + mm->page_size - 1) & ~(mm->page_size - 1);
}

static cma_phys_t page_phys(const struct cma_mm *mm, const struct cma_page *page)
{
	return (cma_phys_t)page_to_pfn(mm, page) << mm->page_shift;
}

static void clear_pages(struct cma_mm *mm, struct cma_page *page, unsigned long count)
{
	if (mm->backing)
		memset(cma_page_address(mm, page), 0, (size_t)count << mm->page_shift);
}

/* The first page of a buffer from its handle; NULL (reported) if no page of this machine. */
static struct cma_page *handle_to_page(struct cma_mm *mm, cma_phys_t handle)
{
	struct cma_page *page = NULL;

	if (!(handle & (mm->page_size - 1)))
		page = cma_pfn_to_page(mm, (unsigned long)(handle >> mm->page_shift));
	if (!page)
		mm_pr_err(mm, "dma_free_coherent: handle %#llx is not the address of a page of this machine: nothing freed\n",
			  (unsigned long long)handle);
	return page;
}

/* ---- x86 (seed 010) ---- */

/*
 * dma_alloc_coherent_mask: the device's coherent mask; no device means
 * x86_dma_fallback_dev, an ISA device (24 bits); an unset mask means 24
 * or 32 bits by GFP_DMA.
 */
static uint64_t x86_coherent_mask(const struct cma_device *dev, cma_gfp_t gfp)
{
	uint64_t mask = dev ? dev->coherent_dma_mask : ISA_DMA_BIT_MASK;

	if (!mask)
		mask = (gfp & CMA_GFP_DMA) ? DMA_BIT_MASK(24) : DMA_BIT_MASK(32);
	return mask;
}

/* dma_alloc_attrs + dma_alloc_coherent_gfp_flags: the zone comes from the mask, not the caller. */
static cma_gfp_t x86_coherent_gfp(const struct cma_device *dev, cma_gfp_t gfp)
{
	uint64_t mask;

	gfp &= ~(CMA_GFP_DMA | CMA_GFP_HIGHMEM | CMA_GFP_DMA32);
	mask = x86_coherent_mask(dev, gfp);
	if (mask <= DMA_BIT_MASK(24))
		gfp |= CMA_GFP_DMA;
	if (mask <= DMA_BIT_MASK(32) && !(gfp & CMA_GFP_DMA))
		gfp |= CMA_GFP_DMA32;		/* CONFIG_X86_64 */
	return gfp;
}

/*
 * dma_generic_alloc_coherent. Atomic means the HIGH bit (the seed tests
 * "flag & GFP_ATOMIC"), so such requests never start a contiguous
 * allocation, which may migrate and reclaim.
 *
 * Two departures from the seed, both where a page came from CMA:
 *  - its memory is cleared like the buddy allocator's __GFP_ZERO pages
 *    (dma_alloc_from_contiguous does not clear, so the seed handed out
 *    CMA buffers with stale bytes);
 *  - a CMA buffer beyond the mask goes back through
 *    dma_release_from_contiguous (the seed calls __free_pages on it,
 *    leaving the area's bitmap set and the pages freed under it).
 * The retry asks CMA first again, as the seed does, so a device whose
 * mask the default area lies beyond gets nothing while CMA can serve
 * the request; later kernels fall back to the buddy allocator instead.
 */
int x86_dma_alloc_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_gfp_t gfp, cma_phys_t *dma_handle, void **vaddr)
{
	unsigned long count = page_align(mm, size) >> mm->page_shift;
	unsigned order = dma_get_order(mm, size);
	struct cma_page *page;
	uint64_t dma_mask;
	cma_phys_t addr;
	bool from_cma;

	gfp = x86_coherent_gfp(dev, gfp);
	dma_mask = x86_coherent_mask(dev, gfp);
	gfp |= CMA_GFP_ZERO;
again:
	page = NULL;
	if (!(gfp & CMA_GFP_ATOMIC))
		page = dma_alloc_from_contiguous(mm, dev, count, order);
	from_cma = page != NULL;
	if (from_cma)
		clear_pages(mm, page, count);
	else
		page = cma_alloc_pages(mm, gfp, order);
	if (!page)
		return -ENOMEM;

	addr = page_phys(mm, page);
	/* the seed's test, which also refuses a buffer ending exactly at the mask's last byte */
	if (addr + size > dma_mask) {
		if (from_cma)
			dma_release_from_contiguous(mm, dev, page, count);
		else
			cma_free_pages(mm, page, order);
		if (dma_mask < DMA_BIT_MASK(32) && !(gfp & CMA_GFP_DMA)) {
			gfp = (gfp & ~CMA_GFP_DMA32) | CMA_GFP_DMA;
			goto again;
		}
		return -ENOMEM;
	}
	*dma_handle = addr;
	if (vaddr)
		*vaddr = cma_page_address(mm, page);
	return 0;
}

/* dma_generic_free_coherent: the device's CMA area takes its own pages, the buddy allocator the rest. */
void x86_dma_free_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_phys_t dma_handle)
{
	unsigned long count = page_align(mm, size) >> mm->page_shift;
	struct cma_page *page = handle_to_page(mm, dma_handle);

	if (page && !dma_release_from_contiguous(mm, dev, page, count))
		cma_free_pages(mm, page, dma_get_order(mm, size));
}

/* ---- ARM (v3.5 arch/arm/mm/dma-mapping.c with CMA) ---- */

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
		mm_pr_err(mm, "%s: coherent DMA mask is unset\n", dev->name);
		return 0;
	}
	if (~mask & limit) {
		mm_pr_err(mm, "%s: coherent DMA mask %#llx is smaller than system GFP_DMA mask %#llx\n",
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
int arm_dma_alloc_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_gfp_t gfp, cma_phys_t *dma_handle, void **vaddr)
{
	struct dma_state *ds = dma_state(mm);
	uint64_t bytes = page_align(mm, size);
	unsigned long count = bytes >> mm->page_shift;
	unsigned order = dma_get_order(mm, bytes);
	struct cma_page *page;

	if (!arm_coherent_mask(mm, dev))
		return -ENOMEM;
	if (gfp & CMA_GFP_ATOMIC) {
		if (!ds->pool.nr_pages) {
			if (!atomic_exchange(&ds->warned_no_pool, true))
				mm_pr_err(mm, "__alloc_from_pool: coherent pool not initialised!\n");
			return -ENOMEM;
		}
		page = dma_pool_alloc(mm, count, order);
	} else {
		page = dma_alloc_from_contiguous(mm, dev, count, order);
		if (page)
			clear_pages(mm, page, count);
	}
	if (!page)
		return -ENOMEM;
	*dma_handle = page_phys(mm, page);
	if (vaddr)
		*vaddr = cma_page_address(mm, page);
	return 0;
}

/* arm_dma_free: the pool's pages to the pool, the rest to the device's CMA area. */
void arm_dma_free_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_phys_t dma_handle)
{
	unsigned long count = page_align(mm, size) >> mm->page_shift;
	struct cma_page *page = handle_to_page(mm, dma_handle);

	if (!page || dma_pool_free(mm, page_to_pfn(mm, page), count))
		return;
	if (!dma_release_from_contiguous(mm, dev, page, count))
		mm_pr_err(mm, "dma_free_coherent: %lu pages at %#llx are neither the atomic pool's nor from %s's CMA area: nothing freed\n",
			  count, (unsigned long long)dma_handle, dev ? dev->name : "the default");
}

/* ---- the API ---- */

int cma_dma_alloc_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size, cma_gfp_t gfp,
			   cma_phys_t *dma_handle, void **vaddr)
{
	int ret = mm_require_phase(mm, MM_BOOTED, "dma_alloc_coherent");

	if (vaddr)
		*vaddr = NULL;
	if (ret)
		return ret;
	if (!dma_handle || !size) {
		mm_pr_err(mm, "dma_alloc_coherent: %s: give a non-zero size and a place for the DMA handle\n",
			  !size ? "size 0" : "dma_handle is NULL");
		return -EINVAL;
	}
	if (size > SIZE_MAX - mm->page_size)
		return -ENOMEM;
	return dma_arch(mm)->alloc_coherent(mm, dev, size, gfp, dma_handle, vaddr);
}

void cma_dma_free_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_phys_t dma_handle)
{
	if (mm_require_phase(mm, MM_BOOTED, "dma_free_coherent"))
		return;
	if (!size) {
		mm_pr_err(mm, "dma_free_coherent: size 0: give the size the buffer was allocated with\n");
		return;
	}
	dma_arch(mm)->free_coherent(mm, dev, size, dma_handle);
}
