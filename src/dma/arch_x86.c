// SPDX-License-Identifier: GPL-2.0
/*
 * x86 as seed 010 has it: dma_contiguous_reserve(0) right after memblock,
 * an empty dma_contiguous_early_fixup, nothing at postcore, and
 * dma_generic_alloc_coherent: the zone from the coherent mask up front,
 * CMA first unless atomic, the buddy allocator otherwise, and a page
 * beyond the mask given back, retried once with GFP_DMA; from 4.17
 * dma-direct's dma_direct_alloc, which falls back from CMA to the buddy
 * allocator and from zone to lower zone. A free hands the pages to the
 * device's CMA area if they are its, else to the buddy allocator.
 */
#include "dma/dma.h"

#define ISA_DMA_BIT_MASK	DMA_BIT_MASK(24)

static int x86_dma_setup(struct cma_mm *mm)
{
	return 0;
}

static void x86_dma_teardown(struct cma_mm *mm)
{
}

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
 * -ENOMEM, with a line for a request without a device: the fallback
 * device reaches only ZONE_DMA, which surprises a caller that passed NULL
 * for "any device". Departure: v3.5 prints nothing here (at most the page
 * allocator's own failure line); the line is the library's.
 */
static int x86_no_memory(struct cma_mm *mm, const struct cma_device *dev, size_t size, cma_gfp_t gfp)
{
	if (!dev && !(gfp & CMA_GFP_NOWARN))
		cma_mm_printk(mm, "dma_alloc_coherent: %zu bytes for no device: the x86 fallback device (ISA) has a 24-bit mask, so only memory below 16 MiB will do; pass a device with its own mask\n",
			  size);
	return -ENOMEM;
}

/*
 * Whether a request may start a contiguous allocation: the seed's "not
 * atomic" (the HIGH bit); from 3.16 (kernel.dma_cma_blocking) only a
 * request that may sleep, and from 5.3 (kernel.dma_single_page_buddy) a
 * device without an area of its own takes a single page from the buddy
 * allocator (6.12's dma_direct_alloc -> dma_alloc_contiguous, the same
 * rules).
 */
static bool x86_may_use_cma(struct cma_mm *mm, const struct cma_device *dev, size_t size,
			    cma_gfp_t gfp)
{
	if (!mm->kernel.dma_cma_blocking)
		return !(gfp & CMA_GFP_ATOMIC);
	if (!(gfp & CMA_GFP_WAIT))
		return false;
	return !mm->kernel.dma_single_page_buddy || size > mm->page_size || (dev && dev->cma_area);
}

/* Give back a buffer that lies beyond the mask, to where it came from. */
static void x86_give_back(struct cma_mm *mm, struct cma_device *dev, struct cma_page *page,
			  size_t size, bool from_cma)
{
	if (from_cma)
		dma_release_from_contiguous(mm, dev, page, dma_nr_pages(mm, size));
	else
		cma_free_pages(mm, page, dma_get_order(mm, size));
}

/*
 * dma_generic_alloc_coherent, as the seed has it: CMA first, the buddy
 * allocator when CMA gives nothing, and a buffer beyond the mask given
 * back and, for a mask below 32 bits, retried once with GFP_DMA, CMA
 * first again, so a device whose mask the default area lies beyond gets
 * nothing while CMA can serve the request. The seed's test also refuses
 * a buffer ending exactly at the mask's last byte.
 *
 * Departure: a CMA buffer beyond the mask goes back through
 * dma_release_from_contiguous (the seed calls __free_pages on it,
 * leaving the area's bitmap set and the pages freed under it).
 */
static struct cma_page *x86_generic_alloc_pages(struct cma_mm *mm, struct cma_device *dev,
						size_t size, cma_gfp_t gfp, uint64_t mask,
						bool *from_cma)
{
	struct cma_page *page;

again:
	page = NULL;
	if (x86_may_use_cma(mm, dev, size, gfp))
		page = dma_alloc_from_contiguous(mm, dev, dma_nr_pages(mm, size),
						 dma_get_order(mm, size), gfp);
	*from_cma = page != NULL;
	if (!page)
		page = cma_alloc_pages(mm, gfp, dma_get_order(mm, size));
	if (!page || dma_page_to_phys(mm, page) + size <= mask)
		return page;
	x86_give_back(mm, dev, page, size, *from_cma);
	if (mask < DMA_BIT_MASK(32) && !(gfp & CMA_GFP_DMA)) {
		gfp = (gfp & ~CMA_GFP_DMA32) | CMA_GFP_DMA;
		goto again;
	}
	return NULL;
}

/* dma-direct's CMA step: a buffer beyond the mask goes back at once. */
static struct cma_page *x86_direct_alloc_cma(struct cma_mm *mm, struct cma_device *dev,
					     size_t size, cma_gfp_t gfp, uint64_t mask)
{
	struct cma_page *page = NULL;

	if (x86_may_use_cma(mm, dev, size, gfp))
		page = dma_alloc_from_contiguous(mm, dev, dma_nr_pages(mm, size),
						 dma_get_order(mm, size), gfp);
	if (page && !dma_coherent_ok(mm, page, size, mask)) {
		x86_give_back(mm, dev, page, size, true);
		page = NULL;
	}
	return page;
}

/*
 * dma_direct_alloc's __dma_direct_alloc_pages (4.17, kernel.x86_dma_direct):
 * CMA, else the buddy allocator in the mask's zone; a buddy page beyond
 * the mask is given back and the request retried in ZONE_DMA32, then
 * ZONE_DMA. Each retry asks CMA first again until 5.2; from 5.3
 * (kernel.dma_direct_cma_once) only the buddy allocator, CMA's answer
 * being the same however often it is asked.
 */
static struct cma_page *x86_direct_alloc_pages(struct cma_mm *mm, struct cma_device *dev,
					       size_t size, cma_gfp_t gfp, uint64_t mask,
					       bool *from_cma)
{
	struct cma_page *page = x86_direct_alloc_cma(mm, dev, size, gfp, mask);

	for (;;) {
		*from_cma = page != NULL;
		if (!page)
			page = cma_alloc_pages(mm, gfp, dma_get_order(mm, size));
		if (!page || dma_coherent_ok(mm, page, size, mask))
			return page;
		x86_give_back(mm, dev, page, size, false);
		if (!dma_direct_lower_zone(mask, &gfp))
			return NULL;
		page = NULL;
		if (!mm->kernel.dma_direct_cma_once)
			page = x86_direct_alloc_cma(mm, dev, size, gfp, mask);
	}
}

/*
 * dma_alloc_coherent: the zone from the mask, then the seed's
 * dma_generic_alloc_coherent or, from 4.17, dma-direct's.
 *
 * Departure from the seed: CMA memory is cleared like the buddy
 * allocator's __GFP_ZERO pages (dma_alloc_from_contiguous does not
 * clear, so the seed handed out CMA buffers with stale bytes).
 */
static int x86_dma_alloc_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
				  cma_gfp_t gfp, cma_phys_t *dma_handle, void **vaddr)
{
	struct cma_page *page;
	uint64_t dma_mask;
	bool from_cma;

	gfp = x86_coherent_gfp(dev, gfp);
	dma_mask = x86_coherent_mask(dev, gfp);
	gfp |= CMA_GFP_ZERO;
	if (mm->kernel.x86_dma_direct)
		page = x86_direct_alloc_pages(mm, dev, size, gfp, dma_mask, &from_cma);
	else
		page = x86_generic_alloc_pages(mm, dev, size, gfp, dma_mask, &from_cma);
	if (!page)
		return x86_no_memory(mm, dev, size, gfp);
	if (from_cma)
		dma_clear_buffer(mm, page, dma_nr_pages(mm, size));
	*dma_handle = dma_page_to_phys(mm, page);
	if (vaddr)
		*vaddr = cma_page_address(mm, page);
	return 0;
}

/* dma_generic_free_coherent: the device's CMA area takes its own pages, the buddy allocator the rest. */
static void x86_dma_free_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
				  cma_phys_t dma_handle)
{
	unsigned long count = dma_nr_pages(mm, size);
	struct cma_page *page = dma_handle_to_page(mm, dma_handle);

	if (page && !dma_release_from_contiguous(mm, dev, page, count))
		cma_free_pages(mm, page, dma_get_order(mm, size));
}

const struct dma_map_ops x86_dma_ops = {
	.setup = x86_dma_setup,
	.teardown = x86_dma_teardown,
	.contiguous_limit = x86_contiguous_limit,
	.early_fixup = x86_early_fixup,
	.postcore_initcall = x86_postcore_initcall,
	.alloc = x86_dma_alloc_coherent,
	.free = x86_dma_free_coherent,
};
