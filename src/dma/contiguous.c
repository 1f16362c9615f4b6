// SPDX-License-Identifier: GPL-2.0
/*
 * dma-contiguous (seed 009): devices' CMA areas. The default area is
 * sized by cma= or Kconfig and reserved by the architecture's setup;
 * boards declare per-device areas; each reservation is shown to the
 * architecture (dma_contiguous_early_fixup); at the core initcall each
 * area is handed to its device, and the default follows v23's rule.
 */
#include <stdlib.h>
#include <string.h>

#include "dma/dma.h"
#include "lib/cmdline.h"

struct cma_device *cma_device_create(struct cma_mm *mm, const char *name, uint64_t coherent_dma_mask)
{
	struct dma_state *ds = dma_state(mm);
	struct cma_device *dev;

	if (!name || !*name) {
		cma_mm_pr_err(mm, "cma_device_create: a device needs a name\n");
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	dev->coherent_dma_mask = coherent_dma_mask;
	pthread_mutex_lock(&ds->lock);
	dev->next = ds->devices;
	ds->devices = dev;
	pthread_mutex_unlock(&ds->lock);
	return dev;
}

void dma_devices_free(struct cma_mm *mm)
{
	struct dma_state *ds = dma_state(mm);

	while (ds->devices) {
		struct cma_device *dev = ds->devices;

		ds->devices = dev->next;
		free(dev);
	}
}

struct cma *dev_get_cma_area(struct cma_mm *mm, struct cma_device *dev)
{
	if (dev && dev->cma_area)
		return dev->cma_area;
	return dma_state(mm)->default_area;
}

/*
 * v23: an area with no device, or the first device's if none yet, becomes
 * the default. 6.12's dev_set_cma_area sets the device's only; the
 * default is dma_contiguous_default_area, set by dma_contiguous_reserve or
 * a device tree's linux,cma-default node (rmem_cma_setup), here an area
 * given to no device.
 */
void dev_set_cma_area(struct cma_mm *mm, struct cma_device *dev, struct cma *cma)
{
	struct dma_state *ds = dma_state(mm);

	if (dev)
		dev->cma_area = cma;
	if (!dev || (!mm->kernel.cma_generic && !ds->default_area))
		ds->default_area = cma;
}

struct cma *cma_dev_get_cma_area(struct cma_mm *mm, struct cma_device *dev)
{
	return dev_get_cma_area(mm, dev);
}

void cma_dev_set_cma_area(struct cma_mm *mm, struct cma_device *dev, struct cma *cma)
{
	dev_set_cma_area(mm, dev, cma);
}

/*
 * dma_declare_contiguous: reserve the area, then let the architecture see
 * it (dma_contiguous_early_fixup), once per area, as the seed does at the
 * end of a successful reservation.
 */
static int dma_declare_contiguous(struct cma_mm *mm, struct cma_device *dev, uint64_t size,
				  cma_phys_t base, cma_phys_t limit, bool fixed)
{
	unsigned before = mm->cma->nr_reserved;
	int ret = cma_declare_contiguous(mm, size, base, limit, fixed, dev,
					 dev ? dev->name : "reserved");

	if (!ret && mm->cma->nr_reserved > before) {
		const struct cma_reserved *r = &mm->cma->reserved[mm->cma->nr_reserved - 1];

		get_dma_ops(mm)->early_fixup(mm, r->start, r->size);
	}
	return ret;
}

/*
 * dma_contiguous_reserve: the default area, cma= beating the Kconfig
 * choice; none where the architecture has no DMA CMA. Under cma_generic cma= may also give a base and a limit (the
 * lower of it and the architecture's): fixed when base + size is the
 * limit, as 6.12 decides, which also makes none when there is a default
 * already.
 */
void dma_contiguous_reserve(struct cma_mm *mm, cma_phys_t limit)
{
	const struct cma_params *p = &mm->cma->params;
	cma_phys_t base = 0;
	bool fixed = false;
	uint64_t size;

	mm->cma->reserve_called = true;
	/* 6.12: not when an early call (rmem_cma_setup) already made the default */
	if (!p->enabled || !arch_has_dma_contiguous(mm) ||
	    (mm->kernel.cma_generic && dma_state(mm)->default_area))
		return;
	size = cma_default_size(mm);
	if (mm->kernel.cma_generic && p->size_cmdline >= 0) {
		base = p->base_cmdline;
		if (p->limit_cmdline && (!limit || p->limit_cmdline < limit))
			limit = p->limit_cmdline;
		fixed = base + size == p->limit_cmdline;
	}
	if (size)
		dma_declare_contiguous(mm, NULL, size, base, limit, fixed);
}

void cma_dma_contiguous_reserve(struct cma_mm *mm, cma_phys_t limit)
{
	if (!mm_require_phase(mm, MM_EARLY, "dma_contiguous_reserve"))
		dma_contiguous_reserve(mm, limit);
}

int cma_dma_declare_contiguous(struct cma_mm *mm, struct cma_device *dev, uint64_t size,
			       cma_phys_t base, cma_phys_t limit)
{
	int ret = mm_require_phase(mm, MM_EARLY, "dma_declare_contiguous");

	if (ret)
		return ret;
	if (!mm->cma->params.enabled) {
		cma_mm_pr_err(mm, "cma: dma_declare_contiguous: CONFIG_CMA is not set\n");
		return -ENOSYS;
	}
	if (!arch_has_dma_contiguous(mm)) {
		cma_mm_pr_err(mm, "cma: dma_declare_contiguous: not in kernel %s on arm64 (its DMA has CMA from 3.14)\n",
			      mm->kernel.name);
		return -ENOSYS;
	}
	return dma_declare_contiguous(mm, dev, size, base, limit, base != 0);
}

/*
 * early_param("coherent_pool"): the atomic pool's size, @dflt when the
 * command line gives none. Departure, as for cma=: a malformed value is
 * refused (the kernel's memparse reads "1Q" as 1 byte).
 */
int dma_coherent_pool_param(struct cma_mm *mm, uint64_t dflt)
{
	struct dma_state *ds = dma_state(mm);
	const char *val;
	size_t len;

	ds->pool_size = dflt;
	if (cmdline_find_option(mm->cmdline, "coherent_pool", &val, &len) &&
	    memparse_strict(val, len, &ds->pool_size)) {
		cma_mm_pr_err(mm, "DMA: invalid coherent_pool=%.*s: expected a size in bytes with an optional K, M, G, T, P or E suffix, e.g. coherent_pool=512K\n",
			  (int)len, val);
		return -EINVAL;
	}
	return 0;
}

/*
 * dma_alloc_from_contiguous: from the device's area, or else the default
 * one, the alignment clamped to CONFIG_CMA_ALIGNMENT (in both kernels).
 * @gfp is the caller's (4.11-4.18 pass it down to alloc_contig_range:
 * kernel.contig_gfp); 6.12's no_warn is false here, as v3.5 has none.
 */
struct cma_page *dma_alloc_from_contiguous(struct cma_mm *mm, struct cma_device *dev,
					   unsigned long count, unsigned int align, cma_gfp_t gfp)
{
	if (align > mm->cma->params.alignment)
		align = (unsigned)mm->cma->params.alignment;
	return cma_alloc(mm, dev_get_cma_area(mm, dev), count, align, gfp & ~CMA_GFP_NOWARN);
}

/* dma_release_from_contiguous: false, changing nothing, for pages not the area's. */
bool dma_release_from_contiguous(struct cma_mm *mm, struct cma_device *dev,
				 struct cma_page *pages, unsigned long count)
{
	return cma_release(mm, dev_get_cma_area(mm, dev), pages, count);
}

/* cma_alloc_aligned: @size from @cma, aligned to its order clamped to CONFIG_CMA_ALIGNMENT. */
static struct cma_page *cma_alloc_aligned(struct cma_mm *mm, struct cma *cma, size_t size,
					  cma_gfp_t gfp)
{
	unsigned align = dma_get_order(mm, size);

	if (align > mm->cma->params.alignment)
		align = (unsigned)mm->cma->params.alignment;
	return cma_alloc(mm, cma, dma_nr_pages(mm, size), align, gfp);
}

struct cma_page *dma_alloc_contiguous(struct cma_mm *mm, struct cma_device *dev, size_t size,
				      cma_gfp_t gfp)
{
	if (!(gfp & CMA_GFP_WAIT))
		return NULL;
	if (dev && dev->cma_area)
		return cma_alloc_aligned(mm, dev->cma_area, size, gfp);
	if (size <= mm->page_size)
		return NULL;
	return cma_alloc_aligned(mm, dma_state(mm)->default_area, size, gfp);
}

void dma_free_contiguous(struct cma_mm *mm, struct cma_device *dev, struct cma_page *page,
			 size_t size)
{
	struct cma *cma = dev && dev->cma_area ? dev->cma_area : dma_state(mm)->default_area;

	if (!cma_release(mm, cma, page, dma_nr_pages(mm, size)))
		cma_free_pages(mm, page, dma_get_order(mm, size));
}

struct cma_page *cma_dma_alloc_from_contiguous(struct cma_mm *mm, struct cma_device *dev,
					       int count, unsigned int align)
{
	if (mm_require_phase(mm, MM_BOOTED, "dma_alloc_from_contiguous") || count <= 0)
		return NULL;
	return dma_alloc_from_contiguous(mm, dev, (unsigned long)count, align, CMA_GFP_KERNEL);
}

bool cma_dma_release_from_contiguous(struct cma_mm *mm, struct cma_device *dev,
				     struct cma_page *pages, int count)
{
	if (mm->phase != MM_BOOTED || count < 0)
		return false;
	return dma_release_from_contiguous(mm, dev, pages, (unsigned long)count);
}
