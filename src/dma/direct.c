// SPDX-License-Identifier: GPL-2.0
/*
 * Direct DMA, what every architecture here shares: there is no IOMMU, so
 * a DMA handle is the buffer's physical address, and a buffer is known
 * from its handle and size alone (pages from the page-aligned size, the
 * order from get_order()).
 */
#include <string.h>

#include "dma/dma.h"

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

unsigned long dma_nr_pages(const struct cma_mm *mm, uint64_t size)
{
	return (unsigned long)((size + mm->page_size - 1) >> mm->page_shift);
}

cma_phys_t dma_page_to_phys(const struct cma_mm *mm, const struct cma_page *page)
{
	return (cma_phys_t)page_to_pfn(mm, page) << mm->page_shift;
}

struct cma_page *dma_handle_to_page(struct cma_mm *mm, cma_phys_t handle)
{
	struct cma_page *page = NULL;

	if (!(handle & (mm->page_size - 1)))
		page = cma_pfn_to_page(mm, (unsigned long)(handle >> mm->page_shift));
	if (!page)
		cma_mm_pr_err(mm, "dma_free_coherent: handle %#llx is not the address of a page of this machine: nothing freed\n",
			  (unsigned long long)handle);
	return page;
}

/* __dma_clear_buffer: metadata-only machines have no bytes to clear. */
void dma_clear_buffer(struct cma_mm *mm, struct cma_page *page, unsigned long count)
{
	if (mm->backing)
		memset(cma_page_address(mm, page), 0, (size_t)count << mm->page_shift);
}

bool dma_coherent_ok(const struct cma_mm *mm, const struct cma_page *page, size_t size, uint64_t mask)
{
	return dma_page_to_phys(mm, page) + size - 1 <= mask;
}

bool dma_direct_lower_zone(uint64_t mask, cma_gfp_t *gfp)
{
	if (mask < DMA_BIT_MASK(64) && !(*gfp & (CMA_GFP_DMA32 | CMA_GFP_DMA))) {
		*gfp |= CMA_GFP_DMA32;
		return true;
	}
	if (*gfp & CMA_GFP_DMA)
		return false;
	*gfp = (*gfp & ~CMA_GFP_DMA32) | CMA_GFP_DMA;
	return true;
}
