// SPDX-License-Identifier: GPL-2.0
/*
 * CMA areas (drivers/base/dma-contiguous.c of seed 009, split as later
 * kernels split it into mm/cma.c): sizing the default area from cma= and
 * Kconfig, reserving areas in memblock, activating them as MIGRATE_CMA
 * pageblocks at the core initcall, and allocating from an area's bitmap
 * with alloc_contig_range under the CMA mutex (cma.h: the locking rules,
 * which changed in 3.16).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/bitmap.h"
#include "lib/cmdline.h"
#include "lib/kconfig.h"
#include "mm/cma.h"
#include "mm/internal.h"

#define SZ_1M (1ull << 20)

/* ---- parameters ---- */

static int parse_cmdline_size(struct cma_mm *mm, const char *val, size_t len, const char *what,
			      uint64_t *out)
{
	/* departure: the kernel's memparse reads "12Q" as 12 and "-5" as 0 */
	if (memparse_strict(val, len, out) || *out > INT64_MAX) {
		cma_mm_pr_err(mm, "cma: invalid cma=%.*s: expected %s in bytes with an optional K, M, G, T, P or E suffix, e.g. cma=64M (cma=0 disables the default area)%s\n",
			  (int)len, val, what,
			  mm->kernel.cma_generic ? "; cma=SIZE@BASE or cma=SIZE@BASE-LIMIT" : "");
		return -EINVAL;
	}
	return 0;
}

/*
 * cma=: a size in v3.5; under cma_generic 6.12's early_cma
 * "size[@base[-limit]]", where a base alone makes the limit base + size
 * (a fixed area) and an empty base or limit reads as 0, as memparse does.
 */
static int parse_cmdline(struct cma_mm *mm, const char *cmdline, struct cma_params *p)
{
	const char *val, *at, *dash;
	size_t len;
	uint64_t size, base = 0, limit = 0;

	p->size_cmdline = -1;
	if (!cmdline_find_option(cmdline, "cma", &val, &len))
		return 0;
	at = mm->kernel.cma_generic ? memchr(val, '@', len) : NULL;
	if (parse_cmdline_size(mm, val, at ? (size_t)(at - val) : len, "a size", &size))
		return -EINVAL;
	if (at) {
		const char *end = val + len;

		dash = memchr(at + 1, '-', (size_t)(end - at - 1));
		if ((at + 1 < (dash ? dash : end) &&
		     parse_cmdline_size(mm, at + 1, (size_t)((dash ? dash : end) - at - 1), "a base", &base)) ||
		    (dash && dash + 1 < end &&
		     parse_cmdline_size(mm, dash + 1, (size_t)(end - dash - 1), "a limit", &limit)))
			return -EINVAL;
		if (!dash)
			limit = base + size;
	}
	p->size_cmdline = (long long)size;
	p->base_cmdline = base;
	p->limit_cmdline = limit;
	return 0;
}

/*
 * cma= where the architecture has no DMA CMA (arm64 before 3.14): no
 * early_cma reads it, so init/main.c's unknown_bootoption hands it to
 * init as an environment variable and no area is reserved. The kernel
 * prints nothing; the line is the library's, saying so.
 */
static void cmdline_without_dma_contiguous(struct cma_mm *mm, const char *cmdline,
					   struct cma_params *p)
{
	const char *val;
	size_t len;

	p->size_cmdline = -1;
	if (cmdline_find_option(cmdline, "cma", &val, &len))
		cma_mm_printk(mm, KERN_INFO "cma=%.*s: no such parameter in kernel %s on arm64 (its DMA has CMA from 3.14): the kernel passes it to init as an environment variable and reserves no area\n",
			      (int)len, val, mm->kernel.name);
}

static int kconfig_range(struct cma_mm *mm, const struct kconfig *kc, const char *name,
			 unsigned long def, unsigned long lo, unsigned long hi, unsigned long *out)
{
	char err[160];

	if (kconfig_get_ulong(kc, name, def, out, err, sizeof(err))) {
		cma_mm_pr_err(mm, "cma: %s\n", err);
		return -EINVAL;
	}
	if (*out < lo || *out > hi) {
		cma_mm_pr_err(mm, "cma: %s=%lu out of range: accepted %lu..%lu\n", name, *out, lo, hi);
		return -EINVAL;
	}
	return 0;
}

static int parse_size_sel(struct cma_mm *mm, const struct kconfig *kc, struct cma_params *p)
{
	static const char *const names[] = {
		[CMA_SEL_MBYTES] = "CONFIG_CMA_SIZE_SEL_MBYTES",
		[CMA_SEL_PERCENTAGE] = "CONFIG_CMA_SIZE_SEL_PERCENTAGE",
		[CMA_SEL_MIN] = "CONFIG_CMA_SIZE_SEL_MIN",
		[CMA_SEL_MAX] = "CONFIG_CMA_SIZE_SEL_MAX",
	};
	int chosen = -1;

	for (int i = 0; i < 4; i++) {
		if (!kconfig_bool(kc, names[i]))
			continue;
		if (chosen >= 0) {
			cma_mm_pr_err(mm, "cma: %s and %s are both set: the choice takes one of CONFIG_CMA_SIZE_SEL_MBYTES, _PERCENTAGE, _MIN, _MAX\n",
				  names[chosen], names[i]);
			return -EINVAL;
		}
		chosen = i;
	}
	p->sel = chosen < 0 ? CMA_SEL_MBYTES : (enum cma_size_sel)chosen;
	return 0;
}

int cma_parse_params(struct cma_mm *mm, const char *cmdline, const char *kconfig,
		     struct cma_params *p)
{
	struct kconfig *kc = NULL;
	char err[200];
	const char *v;
	int ret;

	ret = kconfig_parse(kconfig, &kc, err, sizeof(err));
	if (ret) {
		if (ret == -EINVAL)
			cma_mm_pr_err(mm, "cma: %s\n", err);
		return ret;
	}
	v = kconfig_get(kc, "CONFIG_CMA");
	p->enabled = !v || !strcmp(v, "y");
	ret = 0;
	if (arch_has_dma_contiguous(mm))
		ret = parse_cmdline(mm, cmdline, p);
	else
		cmdline_without_dma_contiguous(mm, cmdline, p);
	if (!ret)
		ret = kconfig_range(mm, kc, "CONFIG_CMA_SIZE_MBYTES", 16, 0, 1ul << 40, &p->size_mbytes);
	if (!ret)
		ret = kconfig_range(mm, kc, "CONFIG_CMA_SIZE_PERCENTAGE", 10, 0, 100, &p->percentage);
	if (!ret)
		ret = kconfig_range(mm, kc, "CONFIG_CMA_ALIGNMENT", 8, 4, 9, &p->alignment);
	if (!ret)
		ret = kconfig_range(mm, kc, "CONFIG_CMA_AREAS", mm->kernel.cma_generic ? 8 : 7, 0, 255,
				    &p->areas);	/* 6.12's default without NUMA: 8 */
	if (!ret)
		ret = parse_size_sel(mm, kc, p);
	kconfig_free(kc);
	return ret;
}

/* ---- reservation (early) ---- */

static uint64_t cma_early_percent_memory(struct cma_mm *mm)
{
	uint64_t pages = memblock_phys_mem_size(&mm->memblock) >> mm->page_shift;

	return (pages * mm->cma->params.percentage / 100) << mm->page_shift;
}

/* The size of the default area: cma= beats the Kconfig choice. */
uint64_t cma_default_size(struct cma_mm *mm)
{
	const struct cma_params *p = &mm->cma->params;
	uint64_t bytes = p->size_mbytes * SZ_1M, percent = cma_early_percent_memory(mm);

	if (p->size_cmdline >= 0)
		return (uint64_t)p->size_cmdline;
	switch (p->sel) {
	case CMA_SEL_PERCENTAGE:
		return percent;
	case CMA_SEL_MIN:
		return bytes < percent ? bytes : percent;
	case CMA_SEL_MAX:
		return bytes > percent ? bytes : percent;
	default:
		return bytes;
	}
}

/*
 * The next slot takes the area at [@base, @base + @size) and @cma, its
 * struct cma from now on (3.17's cma_init_reserved_mem); the bitmap comes
 * at activation.
 */
static void cma_add_reserved(struct cma_mm *mm, struct cma *cma, cma_phys_t base, uint64_t size,
			     unsigned order_per_bit, void *dev, const char *name)
{
	struct cma_state *cs = mm->cma;
	struct cma_reserved *r = &cs->reserved[cs->nr_reserved];

	r->start = base;
	r->size = size;
	r->dev = dev;
	r->area = cma;
	/* 6.12 writes "cma%d\n", newline and all; we leave the newline out */
	if (name)
		snprintf(r->name, sizeof(r->name), "%s", name);
	else
		snprintf(r->name, sizeof(r->name), "cma%u", cs->nr_reserved);
	cma->base_pfn = base >> mm->page_shift;
	cma->count = size >> mm->page_shift;
	cma->order_per_bit = order_per_bit;
	snprintf(cma->name, sizeof(cma->name), "%s", r->name);
	cs->nr_reserved++;
}

/* The first checks of both kernels: a free slot (else -ENOSPC, said), a size. */
static int cma_declare_check_slot(struct cma_mm *mm, uint64_t size)
{
	if (mm->cma->nr_reserved == mm->cma->max_areas) {
		cma_mm_pr_err(mm, "cma: Not enough slots for CMA reserved regions!\n");
		return -ENOSPC;
	}
	return size ? 0 : -EINVAL;
}

unsigned long cma_min_align_pages(const struct cma_mm *mm)
{
	unsigned order = mm->max_order > mm->pageblock_order ? mm->max_order : mm->pageblock_order;

	if (mm->kernel.cma_pageblock_align)
		return mm->pageblock_nr_pages;
	/* mm/cma.c's max(MAX_ORDER - 1, pageblock_order); v3.5's dma-contiguous.c had MAX_ORDER */
	if (mm->kernel.cma_generic)
		return max_order_nr_pages(mm) > mm->pageblock_nr_pages ? max_order_nr_pages(mm) :
									 mm->pageblock_nr_pages;
	return 1ul << order;
}

/*
 * cma_declare_contiguous (v3.5): align base and size to the largest buddy
 * block or pageblock, take a fixed base or the highest fit below limit,
 * and record the area for activation at boot.
 */
static int cma_declare_contiguous_v35(struct cma_mm *mm, uint64_t size, cma_phys_t base,
				      cma_phys_t limit, void *dev, const char *name)
{
	uint64_t alignment = (uint64_t)cma_min_align_pages(mm) << mm->page_shift;
	struct cma *cma;
	int ret = cma_declare_check_slot(mm, size);

	if (ret)
		return ret;
	if (base > UINT64_MAX - alignment || size > UINT64_MAX - alignment)
		return -EINVAL;
	cma = calloc(1, sizeof(*cma));
	if (!cma)
		return -ENOMEM;
	base = (base + alignment - 1) & ~(alignment - 1);
	size = (size + alignment - 1) & ~(alignment - 1);
	limit &= ~(alignment - 1);
	if (base) {
		if (memblock_is_region_reserved(&mm->memblock, base, size) ||
		    memblock_add_region(&mm->memblock.reserved, base, size)) {
			ret = -EBUSY;
			goto err;
		}
	} else {
		base = memblock_alloc_base(mm, size, alignment, limit);
		if (!base) {
			ret = -ENOMEM;
			goto err;
		}
	}
	cma_add_reserved(mm, cma, base, size, 0, dev, name);
	cma_mm_printk(mm, "cma: CMA: reserved %llu MiB at %08llx\n", (unsigned long long)(size / SZ_1M),
		  (unsigned long long)base);
	return 0;
err:
	free(cma);
	cma_mm_pr_err(mm, "cma: CMA: failed to reserve %llu MiB\n", (unsigned long long)(size / SZ_1M));
	return ret;
}

/* printk's %pa: a phys_addr_t as 0x and all its hex digits (32 bits on ARM, 64 elsewhere). */
static int pa_width(const struct cma_mm *mm)
{
	return mm->arch == CMA_ARCH_ARM ? 8 : 16;
}

#define SZ_4G (1ull << 32)

/*
 * cma_declare_contiguous_nid of 6.12 (cma_generic): cma_min_align_pages
 * (or @alignment if larger), a fixed base must be aligned and must not
 * straddle the end of lowmem, the limit is at most the end of memory;
 * without a fixed base, on a 64-bit machine with memory past 4 GiB + size
 * the lowest fit above 4 GiB, else the highest fit, highmem first.
 */
static int cma_declare_contiguous_v6(struct cma_mm *mm, cma_phys_t base, uint64_t size,
				     cma_phys_t limit, uint64_t alignment, unsigned order_per_bit,
				     bool fixed, void *dev, const char *name, struct cma **res_cma,
				     int nid)
{
	cma_phys_t memblock_end = memblock_end_of_DRAM(&mm->memblock);
	cma_phys_t highmem_start = mm->zone_end[ZONE_NORMAL] ? mm->zone_end[ZONE_NORMAL] : memblock_end;
	int w = pa_width(mm);
	struct cma *cma = NULL;
	int ret = cma_declare_check_slot(mm, size);

	if (ret)
		return ret;
	if (alignment & (alignment - 1))
		return -EINVAL;
	if (nid != 0)
		nid = -1;	/* one node, 0; anything else NUMA_NO_NODE */
	if (alignment < (uint64_t)cma_min_align_pages(mm) << mm->page_shift)
		alignment = (uint64_t)cma_min_align_pages(mm) << mm->page_shift;
	if (fixed && (base & (alignment - 1))) {
		cma_mm_pr_err(mm, "cma: Region at 0x%0*llx must be aligned to 0x%0*llx bytes\n",
			  w, (unsigned long long)base, w, (unsigned long long)alignment);
		ret = -EINVAL;
		goto err;
	}
	if (base > UINT64_MAX - alignment || size > UINT64_MAX - alignment)
		return -EINVAL;
	base = (base + alignment - 1) & ~(alignment - 1);
	size = (size + alignment - 1) & ~(alignment - 1);
	limit &= ~(alignment - 1);
	if (!base)
		fixed = false;
	if ((size >> mm->page_shift) & ((1ull << order_per_bit) - 1))
		return -EINVAL;
	if (fixed && base < highmem_start && base + size > highmem_start) {
		cma_mm_pr_err(mm, "cma: Region at 0x%0*llx defined on low/high memory boundary (0x%0*llx)\n",
			  w, (unsigned long long)base, w, (unsigned long long)highmem_start);
		ret = -EINVAL;
		goto err;
	}
	if (!limit || limit > memblock_end)
		limit = memblock_end;
	if (base + size > limit) {
		cma_mm_pr_err(mm, "cma: Size (0x%0*llx) of region at 0x%0*llx exceeds limit (0x%0*llx)\n",
			  w, (unsigned long long)size, w, (unsigned long long)base,
			  w, (unsigned long long)limit);
		ret = -EINVAL;
		goto err;
	}
	cma = calloc(1, sizeof(*cma));
	if (!cma) {
		ret = -ENOMEM;
		goto err;
	}
	if (fixed) {
		if (memblock_is_region_reserved(&mm->memblock, base, size) ||
		    memblock_add_region(&mm->memblock.reserved, base, size)) {
			ret = -EBUSY;
			goto err;
		}
	} else {
		cma_phys_t addr = 0;

		/* CONFIG_PHYS_ADDR_T_64BIT: not our 32-bit ARM */
		if (mm->arch != CMA_ARCH_ARM && memblock_end >= SZ_4G + size)
			addr = memblock_alloc_range(mm, size, alignment, SZ_4G, limit, true);
		if (!addr && base < highmem_start && limit > highmem_start) {
			addr = memblock_alloc_range(mm, size, alignment, highmem_start, limit, false);
			limit = highmem_start;
		}
		if (!addr)
			addr = memblock_alloc_range(mm, size, alignment, base, limit, false);
		if (!addr) {
			ret = -ENOMEM;
			goto err;
		}
		base = addr;
	}
	cma_add_reserved(mm, cma, base, size, order_per_bit, dev, name);
	if (res_cma)
		*res_cma = cma;
	cma_mm_printk(mm, KERN_INFO "cma: Reserved %llu MiB at 0x%0*llx on node %d\n",
		  (unsigned long long)(size / SZ_1M), w, (unsigned long long)base, nid);
	return 0;
err:
	free(cma);
	cma_mm_pr_err(mm, "cma: Failed to reserve %llu MiB on node %d\n",
		  (unsigned long long)(size / SZ_1M), nid);
	return ret;
}

/*
 * The DMA layer's declaration: v3.5's cma_declare_contiguous (a nonzero
 * @base is fixed, @fixed unused), or under cma_generic 6.12's with
 * order_per_bit 0.
 */
int cma_declare_contiguous(struct cma_mm *mm, uint64_t size, cma_phys_t base, cma_phys_t limit,
			   bool fixed, void *dev, const char *name)
{
	if (mm->kernel.cma_generic)
		return cma_declare_contiguous_v6(mm, base, size, limit, 0, 0, fixed, dev, name,
						 NULL, -1);
	return cma_declare_contiguous_v35(mm, size, base, limit, dev, name);
}

int cma_declare_contiguous_nid(struct cma_mm *mm, cma_phys_t base, uint64_t size,
			       cma_phys_t limit, uint64_t alignment, unsigned order_per_bit,
			       bool fixed, const char *name, struct cma **res_cma, int nid)
{
	int ret = mm_require_phase(mm, MM_EARLY, "cma_declare_contiguous_nid");

	if (ret)
		return ret;
	if (!mm->kernel.cma_generic) {
		cma_mm_pr_err(mm, "cma_declare_contiguous_nid: not in kernel %s (3.17's mm/cma.c): use cma_dma_declare_contiguous\n",
			  mm->kernel.name);
		return -ENOSYS;
	}
	if (!mm->cma->params.enabled) {
		cma_mm_pr_err(mm, "cma: cma_declare_contiguous_nid: CONFIG_CMA is not set\n");
		return -ENOSYS;
	}
	if (order_per_bit >= mm->max_order + 20) {
		cma_mm_pr_err(mm, "cma_declare_contiguous_nid: order_per_bit %u refused\n", order_per_bit);
		return -EINVAL;
	}
	ret = cma_declare_contiguous_v6(mm, base, size, limit, alignment, order_per_bit, fixed,
					NULL, name, res_cma, nid);
	if (!ret)
		mm->cma->reserved[mm->cma->nr_reserved - 1].no_dma = true;
	return ret;
}

/*
 * cma_init_reserved_mem of 6.12: an area over memory the caller already
 * reserved (a device tree's reserved-memory node, rmem_cma_setup), both
 * ends aligned to cma_min_align_pages (CMA_MIN_ALIGNMENT_BYTES). No
 * message of its own on success or failure but the slot one, as in the
 * kernel.
 */
int cma_init_reserved_mem(struct cma_mm *mm, cma_phys_t base, uint64_t size,
			  unsigned order_per_bit, const char *name, struct cma **res_cma)
{
	uint64_t align = (uint64_t)cma_min_align_pages(mm) << mm->page_shift;
	struct cma *cma;
	int ret = mm_require_phase(mm, MM_EARLY, "cma_init_reserved_mem");

	if (ret)
		return ret;
	if (!mm->kernel.cma_generic) {
		cma_mm_pr_err(mm, "cma_init_reserved_mem: not in kernel %s (3.17's mm/cma.c)\n",
			  mm->kernel.name);
		return -ENOSYS;
	}
	if (!mm->cma->params.enabled) {
		cma_mm_pr_err(mm, "cma: cma_init_reserved_mem: CONFIG_CMA is not set\n");
		return -ENOSYS;
	}
	ret = cma_declare_check_slot(mm, size);
	if (ret)
		return ret;
	if (!memblock_is_region_reserved(&mm->memblock, base, size) || ((base | size) & (align - 1)) ||
	    base + size < base || order_per_bit >= mm->max_order + 20 ||
	    ((size >> mm->page_shift) & ((1ull << order_per_bit) - 1)))
		return -EINVAL;
	cma = calloc(1, sizeof(*cma));
	if (!cma)
		return -ENOMEM;
	cma_add_reserved(mm, cma, base, size, order_per_bit, NULL, name);
	mm->cma->reserved[mm->cma->nr_reserved - 1].no_dma = true;
	if (res_cma)
		*res_cma = cma;
	return 0;
}

/* ---- activation (core initcall) ---- */

/*
 * What becomes of the memory of an area that could not be activated:
 * from 5.12 (kernel.cma_activate_release) the buddy allocator's, as
 * 6.12's cma_activate_area gives it (its out_error path); before, it
 * stayed reserved, useless to CMA and to everyone else.
 */
static const char *cma_drop_fate(struct cma_mm *mm)
{
	return mm->kernel.cma_activate_release ? "go to the buddy allocator" : "stay reserved";
}

/*
 * The area failed to activate: a count of 0, and its memory as
 * cma_drop_fate() says, but where @in_hole (the pages do not all exist).
 */
static void cma_drop_area(struct cma_mm *mm, struct cma_reserved *r, bool in_hole)
{
	r->area->count = 0;
	if (mm->kernel.cma_activate_release && !in_hole)
		free_reserved_range(mm, (unsigned long)(r->start >> mm->page_shift),
				    (unsigned long)((r->start + r->size) >> mm->page_shift));
}

/*
 * Departure: every pfn is checked before any pageblock is given back, so
 * an area spanning two zones (or a hole) is dropped whole; the seed gives
 * back the blocks up to the boundary. -ENOENT for a hole: 6.12 only
 * warns of one (and would free pages that do not exist), so that area's
 * memory stays reserved under every profile; -EINVAL for two zones,
 * 6.12's not_in_zone.
 */
static int cma_check_area(struct cma_mm *mm, struct cma_reserved *r, unsigned long base_pfn,
			  unsigned long count)
{
	struct zone *zone = pfn_zone(mm, base_pfn);

	for (unsigned long pfn = base_pfn; pfn < base_pfn + count; pfn++) {
		struct zone *z = pfn_valid(mm, pfn) ? pfn_zone(mm, pfn) : NULL;

		if (!z) {
			cma_mm_pr_err(mm, "cma: CMA: area at %08llx has no memory at pfn %#lx: dropped, its %llu MiB stay reserved\n",
				  (unsigned long long)r->start, pfn,
				  (unsigned long long)(r->size / SZ_1M));
			return -ENOENT;
		}
		if (z != zone) {
			cma_mm_pr_err(mm, "cma: CMA: area at %08llx spans zones %s and %s: dropped, its %llu MiB %s\n",
				  (unsigned long long)r->start, zone->name, z->name,
				  (unsigned long long)(r->size / SZ_1M), cma_drop_fate(mm));
			return -EINVAL;
		}
	}
	return 0;
}

static unsigned long cma_bitmap_maxno(const struct cma *cma)
{
	return cma->count >> cma->order_per_bit;
}

static struct cma *cma_create_area(struct cma_mm *mm, struct cma_reserved *r)
{
	unsigned long base_pfn = r->start >> mm->page_shift, count = r->size >> mm->page_shift;
	struct cma *cma = r->area;
	int ret = cma_check_area(mm, r, base_pfn, count);

	if (ret)
		goto fail;
	/* one word at least: calloc(0) may give NULL */
	cma->bitmap = calloc(BITS_TO_LONGS(cma_bitmap_maxno(cma)) + 1, sizeof(unsigned long));
	if (!cma->bitmap) {
		cma_mm_pr_err(mm, "cma: CMA: out of memory for the area at %08llx\n",
			  (unsigned long long)r->start);
		ret = -ENOMEM;
		goto fail;
	}
	spin_lock_init(&cma->lock);
	for (unsigned long pfn = base_pfn; pfn < base_pfn + count; pfn += mm->pageblock_nr_pages)
		init_cma_reserved_pageblock(mm, pfn_to_page(mm, pfn));
	cma_mm_printk(mm, "cma: CMA: activated %s: %lu pages at pfn %#lx\n", cma->name, count, base_pfn);
	return cma;
fail:
	cma_drop_area(mm, r, ret == -ENOENT);
	if (mm->kernel.cma_generic)
		cma_mm_pr_err(mm, "cma: CMA area %s could not be activated\n", cma->name);
	return NULL;
}

/*
 * cma_init_reserved_areas: the core initcall. Departure: on a machine too
 * small for grouping by mobility every pageblock is UNMOVABLE and both
 * CMA rules would break, so areas are refused, their memory left
 * reserved (the kernel activates them: nothing of its own to follow).
 */
void cma_init_reserved_areas(struct cma_mm *mm)
{
	struct cma_state *cs = mm->cma;

	for (unsigned i = 0; i < cs->nr_reserved; i++) {
		struct cma_reserved *r = &cs->reserved[i];

		if (mm->page_group_by_mobility_disabled) {
			cma_mm_pr_err(mm, "cma: CMA: area at %08llx refused: grouping by mobility is off on a machine below %lu pages; its %llu MiB stay reserved\n",
				  (unsigned long long)r->start, mm->pageblock_nr_pages * MIGRATE_TYPES,
				  (unsigned long long)(r->size / SZ_1M));
			r->area->count = 0;
			continue;
		}
		r->cma = cma_create_area(mm, r);
	}
}

/* CmaTotal (totalcma_pages of later kernels) */
unsigned long cma_total_pages(struct cma_mm *mm)
{
	return mm->totalcma_pages;
}

void cma_state_free(struct cma_mm *mm)
{
	if (!mm->cma)
		return;
	for (unsigned i = 0; i < mm->cma->nr_reserved; i++) {
		struct cma *cma = mm->cma->reserved[i].area;

		free(cma->bitmap);
		free(cma);
	}
	free(mm->cma->reserved);
	free(mm->cma);
	mm->cma = NULL;
}

/* ---- allocation ---- */

static unsigned long cma_bitmap_aligned_mask(const struct cma *cma, unsigned align)
{
	return align <= cma->order_per_bit ? 0 : (1ul << (align - cma->order_per_bit)) - 1;
}

/*
 * The offset (in bits) of the bitmap's index that aligns the pfn: none
 * before kernel.cma_align_phys (the index is aligned); then the distance
 * from the base up to the next 2^@align boundary, which misaligns a
 * request more than twice as aligned as the base; from
 * kernel.cma_align_offset_down the base's distance from the one below.
 */
static unsigned long cma_bitmap_aligned_offset(const struct cma_mm *mm, const struct cma *cma,
					       unsigned align)
{
	unsigned long mask = (1ul << align) - 1;

	if (!mm->kernel.cma_align_phys)
		return 0;
	if (!mm->kernel.cma_align_offset_down)
		return align <= cma->order_per_bit ? 0 :
		       (((cma->base_pfn + mask) & ~mask) - cma->base_pfn) >> cma->order_per_bit;
	return (cma->base_pfn & mask) >> cma->order_per_bit;
}

static unsigned long cma_bitmap_pages_to_bits(const struct cma *cma, unsigned long pages)
{
	unsigned long unit = 1ul << cma->order_per_bit;

	return (pages + unit - 1) / unit;
}

/*
 * cma_debug_show_areas (6.12): the free runs of the bitmap on one line,
 * each as pages@bit, and the total.
 */
static void cma_debug_show_areas(struct cma_mm *mm, struct cma *cma)
{
	unsigned long nbits = cma_bitmap_maxno(cma), start = 0, total = 0;
	char line[1024];
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "cma: number of available pages: ");
	spin_lock(&cma->lock);
	for (;;) {
		unsigned long zero = find_next_zero_bit(cma->bitmap, nbits, start), set, part;

		if (zero >= nbits)
			break;
		set = find_next_bit(cma->bitmap, nbits, zero);
		part = (set - zero) << cma->order_per_bit;
		if (n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%lu@%lu",
					      total ? "+" : "", part, zero);
		total += part;
		start = set;
	}
	spin_unlock(&cma->lock);
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "=> %lu free of %lu total pages", total,
			 cma->count);
	cma_mm_printk(mm, "%s\n", line);
}

/* What cma_alloc looks for in the bitmap: a run of @bits at 2^align pages. */
struct cma_req {
	unsigned long count, bits, mask, offset, maxno;
	cma_gfp_t gfp;			/* what alloc_contig_range compacts with */
};

/* The first free run at or past bit @start, or req->maxno. cma->lock held. */
static unsigned long cma_find_bits_locked(struct cma *cma, const struct cma_req *req,
					  unsigned long start)
{
	lockdep_assert_held(&cma->lock);
	return bitmap_find_next_zero_area_off(cma->bitmap, req->maxno, start, (unsigned)req->bits,
					      req->mask, req->offset);
}

static void cma_set_bits(struct cma *cma, unsigned long pageno, unsigned long bits)
{
	spin_lock(&cma->lock);
	bitmap_set(cma->bitmap, pageno, bits);
	spin_unlock(&cma->lock);
}

static void cma_clear_bits(struct cma *cma, unsigned long pageno, unsigned long bits)
{
	spin_lock(&cma->lock);
	bitmap_clear(cma->bitmap, pageno, bits);
	spin_unlock(&cma->lock);
}

/* The busy range is passed over: its trace event, and the next candidate's first bit. */
static unsigned long cma_busy_retry(struct cma_mm *mm, struct cma *cma, const struct cma_req *req,
				    unsigned long pageno, unsigned long pfn, unsigned align)
{
	trace_event(mm, CMA_TRACE_CMA_ALLOC_BUSY_RETRY, cma, .name = cma->name, .pfn = pfn,
		    .page = pfn_to_page(mm, pfn), .count = req->count, .align = align);
	return pageno + req->mask + 1;
}

/*
 * v3.5's loop: the whole search under cma_mutex, the bits set once
 * alloc_contig_range has taken the range. -ENOMEM when the bitmap has
 * no candidate left, whatever the ranges tried returned.
 */
static int __cma_alloc_v35(struct cma_mm *mm, struct cma *cma, const struct cma_req *req,
			   unsigned align, unsigned long *pfn)
{
	unsigned long pageno, start = 0;
	int ret;

	pthread_mutex_lock(&mm->cma_mutex);
	for (;;) {
		spin_lock(&cma->lock);
		pageno = cma_find_bits_locked(cma, req, start);
		spin_unlock(&cma->lock);
		if (pageno >= req->maxno) {
			ret = -ENOMEM;
			break;
		}
		*pfn = cma->base_pfn + (pageno << cma->order_per_bit);
		ret = alloc_contig_range(mm, *pfn, *pfn + req->count, MIGRATE_CMA, req->gfp);
		if (!ret)
			cma_set_bits(cma, pageno, req->bits);
		if (ret != -EBUSY)
			break;
		start = cma_busy_retry(mm, cma, req, pageno, *pfn, align);
	}
	pthread_mutex_unlock(&mm->cma_mutex);
	return ret;
}

/*
 * 3.16's loop (kernel.cma_bitmap_lock, as 6.12 keeps it): the bits are
 * reserved under cma->lock, cma_mutex is held only around each
 * alloc_contig_range, and a range that failed gives its bits back. A
 * bitmap that runs out leaves the last range's error (-ENOMEM if none
 * was tried).
 */
static int __cma_alloc_v316(struct cma_mm *mm, struct cma *cma, const struct cma_req *req,
			    unsigned align, unsigned long *pfn)
{
	unsigned long pageno, start = 0;
	int ret = -ENOMEM;

	for (;;) {
		spin_lock(&cma->lock);
		pageno = cma_find_bits_locked(cma, req, start);
		if (pageno < req->maxno)
			bitmap_set(cma->bitmap, pageno, req->bits);
		spin_unlock(&cma->lock);
		if (pageno >= req->maxno)
			break;
		*pfn = cma->base_pfn + (pageno << cma->order_per_bit);
		pthread_mutex_lock(&mm->cma_mutex);
		ret = alloc_contig_range(mm, *pfn, *pfn + req->count, MIGRATE_CMA, req->gfp);
		pthread_mutex_unlock(&mm->cma_mutex);
		if (!ret)
			break;
		cma_clear_bits(cma, pageno, req->bits);
		if (ret != -EBUSY)
			break;
		start = cma_busy_retry(mm, cma, req, pageno, *pfn, align);
	}
	return ret;
}

/* The era's loop: 3.16's (kernel.cma_bitmap_lock) or v3.5's. */
static int __cma_alloc(struct cma_mm *mm, struct cma *cma, const struct cma_req *req,
		       unsigned align, unsigned long *pfn)
{
	if (mm->kernel.cma_bitmap_lock)
		return __cma_alloc_v316(mm, cma, req, align, pfn);
	return __cma_alloc_v35(mm, cma, req, align, pfn);
}

/*
 * The gfp alloc_contig_range compacts with: from 4.11 to 4.18
 * (kernel.contig_gfp, until 4.19's cma_alloc_no_warn) the caller's;
 * before and after, GFP_KERNEL.
 */
static cma_gfp_t cma_alloc_gfp(const struct cma_mm *mm, cma_gfp_t gfp)
{
	return mm->kernel.contig_gfp && !mm->kernel.cma_alloc_no_warn ? gfp : CMA_GFP_KERNEL;
}

/*
 * From 4.11 (kernel.cma_alloc_report) a failure says so unless @gfp has
 * __GFP_NOWARN (6.12's __cma_alloc message, then cma_debug_show_areas);
 * v3.5 and 3.17's mm/cma.c say nothing.
 */
static void cma_alloc_report_failure(struct cma_mm *mm, struct cma *cma, unsigned long count,
				     int ret, cma_gfp_t gfp)
{
	if (!mm->kernel.cma_alloc_report || (gfp & CMA_GFP_NOWARN))
		return;
	cma_mm_pr_err(mm, "cma: __cma_alloc: %s: alloc failed, req-size: %lu pages, ret: %d\n",
		  cma->name, count, ret);
	cma_debug_show_areas(mm, cma);
}

/*
 * cma_alloc: first fit in the bitmap at 2^@align pages (in bits of the
 * area's order_per_bit, offset by the base's misalignment), a busy range
 * retried at the next aligned candidate past it, in the era's loop
 * (__cma_alloc). From 5.13 (kernel.cma_stats) a request larger than the
 * area fails unseen, and a failure's trace gives the last pfn tried.
 */
struct cma_page *cma_alloc(struct cma_mm *mm, struct cma *cma, unsigned long count, unsigned align,
			   cma_gfp_t gfp)
{
	unsigned long pfn = -1ul;
	struct cma_req req;
	int ret;

	if (!cma || !cma->count || !cma->bitmap || !count)
		return NULL;
	req = (struct cma_req){
		.count = count,
		.bits = cma_bitmap_pages_to_bits(cma, count),
		.mask = cma_bitmap_aligned_mask(cma, align),
		.offset = cma_bitmap_aligned_offset(mm, cma, align),
		.maxno = cma_bitmap_maxno(cma),
		.gfp = cma_alloc_gfp(mm, gfp),
	};
	trace_event(mm, CMA_TRACE_CMA_ALLOC_START, cma, .name = cma->name, .count = count,
		    .align = align);
	/* 6.12 gives up here unseen; we counted it a failure, as below */
	if (req.bits > req.maxno && mm->kernel.cma_stats)
		return NULL;
	ret = __cma_alloc(mm, cma, &req, align, &pfn);
	if (ret)
		cma_alloc_report_failure(mm, cma, count, ret, gfp);
	/* 6.12 reports the last pfn tried (or -1) with a NULL page; we reported 0 */
	if (ret && !mm->kernel.cma_stats)
		pfn = 0;
	trace_event(mm, CMA_TRACE_CMA_ALLOC_FINISH, cma, .name = cma->name, .pfn = pfn,
		    .page = ret ? NULL : pfn_to_page(mm, pfn), .count = count, .align = align,
		    .errorno = ret);
	if (ret) {
		atomic_fetch_add(&cma->alloc_pages_fail, count);
		count_vm_event(mm, CMA_ALLOC_FAIL);
		return NULL;
	}
	atomic_fetch_add(&cma->alloc_pages_success, count);
	count_vm_event(mm, CMA_ALLOC_SUCCESS);
	return pfn_to_page(mm, pfn);
}

/*
 * Free @count pages at @pfn and clear their bits, or refuse (false) when
 * any of them is not allocated. The pages go back before the bits, as
 * 6.12 has it, so that no cma_alloc reserves a range still in use.
 * cma->lock held: a second release of the same range waits and is
 * refused.
 */
static bool cma_release_locked(struct cma_mm *mm, struct cma *cma, unsigned long pfn,
			       unsigned long count)
{
	unsigned long pageno = (pfn - cma->base_pfn) >> cma->order_per_bit;
	unsigned long bits = cma_bitmap_pages_to_bits(cma, count);

	lockdep_assert_held(&cma->lock);
	if (count > cma->base_pfn + cma->count - pfn ||
	    find_next_zero_bit(cma->bitmap, pageno + bits, pageno) < pageno + bits)
		return false;
	free_contig_range(mm, pfn, count);
	bitmap_clear(cma->bitmap, pageno, bits);
	return true;
}

/*
 * cma_release: false, changing nothing, unless every page is one @cma
 * handed out. Departure: 6.12 checks only that the first page is in the
 * area (and VM_BUG_ONs an overrun); a release of pages not allocated
 * would corrupt the machine, so both profiles refuse it. Before 3.16
 * (kernel.cma_bitmap_lock) it waits for cma_mutex, behind any
 * alloc_contig_range in progress; from 3.16 it does not take it.
 */
bool cma_release(struct cma_mm *mm, struct cma *cma, const struct cma_page *pages,
		 unsigned long count)
{
	bool mutex = !mm->kernel.cma_bitmap_lock, ok;
	unsigned long pfn;

	if (!cma || !pages || pages < mm->mem_map || pages >= mm->mem_map + (mm->end_pfn - mm->base_pfn))
		return false;
	pfn = page_to_pfn(mm, pages);
	if (pfn < cma->base_pfn || pfn >= cma->base_pfn + cma->count)
		return false;
	if (mutex)
		pthread_mutex_lock(&mm->cma_mutex);
	spin_lock(&cma->lock);
	ok = cma_release_locked(mm, cma, pfn, count);
	spin_unlock(&cma->lock);
	if (mutex)
		pthread_mutex_unlock(&mm->cma_mutex);
	if (!ok) {
		cma_mm_pr_err(mm, "cma: release of %lu pages at pfn %#lx refused: not all of them were allocated from %s\n",
			  count, pfn, cma->name);
		return false;
	}
	atomic_fetch_add(&cma->release_pages_success, count);
	trace_event(mm, CMA_TRACE_CMA_RELEASE, cma, .name = cma->name, .pfn = pfn,
		    .page = pfn_to_page(mm, pfn), .count = count);
	return true;
}

/* The per-area statistics of later kernels' debugfs, one block per area. */
void cma_write_areas(struct cma_mm *mm, FILE *out)
{
	for (unsigned i = 0; mm->cma && i < mm->cma->nr_reserved; i++) {
		struct cma *cma = mm->cma->reserved[i].cma;
		unsigned long used, maxchunk;

		if (!cma)
			continue;
		spin_lock(&cma->lock);
		used = bitmap_weight(cma->bitmap, cma_bitmap_maxno(cma)) << cma->order_per_bit;
		maxchunk = bitmap_longest_zero_run(cma->bitmap, cma_bitmap_maxno(cma)) << cma->order_per_bit;
		spin_unlock(&cma->lock);
		fprintf(out, "%s:\n", cma->name);
		fprintf(out, "  base_pfn: %#lx\n", cma->base_pfn);
		fprintf(out, "  count: %lu\n", cma->count);
		fprintf(out, "  used: %lu\n", used);
		fprintf(out, "  maxchunk: %lu\n", maxchunk);
		fprintf(out, "  alloc_pages_success: %lu\n", atomic_load(&cma->alloc_pages_success));
		fprintf(out, "  alloc_pages_fail: %lu\n", atomic_load(&cma->alloc_pages_fail));
		fprintf(out, "  release_pages_success: %lu\n", atomic_load(&cma->release_pages_success));
	}
}

/* ---- the areas' sysfs and debugfs files, cma_stats (5.13) ---- */

/* release_pages_success the last: from 6.9 only (cma_sysfs_nr_files) */
static const char *const cma_sysfs_files[] = {
	"alloc_pages_success", "alloc_pages_fail", "release_pages_success",
};
static const char *const cma_debugfs_files[] = {
	"base_pfn", "count", "order_per_bit", "used", "maxchunk", "bitmap",
};
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The sysfs files @mm's release has: release_pages_success from 6.9 (kernel.cma_release_stats). */
static size_t cma_sysfs_nr_files(const struct cma_mm *mm)
{
	return ARRAY_LEN(cma_sysfs_files) - !mm->kernel.cma_release_stats;
}

/* The area named @name (its first @len bytes), activated, or NULL. */
static struct cma *cma_find_area(struct cma_mm *mm, const char *name, size_t len)
{
	for (unsigned i = 0; i < mm->cma->nr_reserved; i++) {
		struct cma *cma = mm->cma->reserved[i].cma;

		if (cma && strlen(cma->name) == len && !strncmp(cma->name, name, len))
			return cma;
	}
	return NULL;
}

/* debugfs_create_u32_array's text: the bitmap as 32-bit words, space-separated. */
static void cma_write_bitmap(struct cma *cma, FILE *out)
{
	unsigned long words = (cma_bitmap_maxno(cma) + 31) / 32;

	for (unsigned long w = 0; w < words; w++) {
		uint32_t v = (uint32_t)(cma->bitmap[w * 32 / BITS_PER_LONG] >> (w * 32 % BITS_PER_LONG));

		fprintf(out, "%u%c", v, w + 1 < words ? ' ' : '\n');
	}
	if (!words)
		fputc('\n', out);
}

static void cma_write_debugfs(struct cma *cma, const char *file, FILE *out)
{
	unsigned long maxno = cma_bitmap_maxno(cma);

	spin_lock(&cma->lock);
	if (!strcmp(file, "base_pfn"))
		fprintf(out, "%lu\n", cma->base_pfn);
	else if (!strcmp(file, "count"))
		fprintf(out, "%lu\n", cma->count);
	else if (!strcmp(file, "order_per_bit"))
		fprintf(out, "%u\n", cma->order_per_bit);
	else if (!strcmp(file, "used"))
		fprintf(out, "%lu\n", bitmap_weight(cma->bitmap, maxno) << cma->order_per_bit);
	else if (!strcmp(file, "maxchunk"))
		fprintf(out, "%lu\n", bitmap_longest_zero_run(cma->bitmap, maxno) << cma->order_per_bit);
	else
		cma_write_bitmap(cma, out);
	spin_unlock(&cma->lock);
}

static bool name_in(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/*
 * An area's file: "sys/kernel/mm/cma/<area>/<file>" (mm/cma_sysfs.c) or
 * "debug/cma/<area>/<file>" (mm/cma_debug.c), in the kernel's text.
 * -ENOENT, after listing what exists, for anything else under those
 * prefixes; 1 if @name has neither (not an area file: the caller's).
 */
int cma_write_area_file(struct cma_mm *mm, const char *name, FILE *out)
{
	static const char sys[] = "sys/kernel/mm/cma/", dbg[] = "debug/cma/";
	bool is_sys = !strncmp(name, sys, sizeof(sys) - 1);
	const char *rest, *slash;
	struct cma *cma;
	int ret;

	if (!is_sys && strncmp(name, dbg, sizeof(dbg) - 1))
		return 1;
	ret = mm_require_phase(mm, MM_BOOTED, "cma_write_proc");
	if (ret)
		return ret;
	rest = name + (is_sys ? sizeof(sys) : sizeof(dbg)) - 1;
	slash = strchr(rest, '/');
	cma = slash ? cma_find_area(mm, rest, (size_t)(slash - rest)) : NULL;
	if (cma && is_sys && name_in(slash + 1, cma_sysfs_files, cma_sysfs_nr_files(mm))) {
		atomic_ulong *v = !strcmp(slash + 1, "alloc_pages_success") ? &cma->alloc_pages_success :
				  !strcmp(slash + 1, "alloc_pages_fail") ? &cma->alloc_pages_fail :
				  &cma->release_pages_success;

		fprintf(out, "%lu\n", atomic_load(v));
		return 0;
	}
	if (cma && !is_sys && name_in(slash + 1, cma_debugfs_files, ARRAY_LEN(cma_debugfs_files))) {
		cma_write_debugfs(cma, slash + 1, out);
		return 0;
	}
	{
		char areas[256] = "", files[160] = "";
		const char *const *f = is_sys ? cma_sysfs_files : cma_debugfs_files;
		size_t nf = is_sys ? cma_sysfs_nr_files(mm) : ARRAY_LEN(cma_debugfs_files);
		size_t n = 0;

		for (unsigned i = 0; i < mm->cma->nr_reserved && n < sizeof(areas); i++)
			if (mm->cma->reserved[i].cma)
				n += (size_t)snprintf(areas + n, sizeof(areas) - n, "%s%s", n ? ", " : "",
						      mm->cma->reserved[i].cma->name);
		n = 0;
		for (size_t i = 0; i < nf && n < sizeof(files); i++)
			n += (size_t)snprintf(files + n, sizeof(files) - n, "%s%s", i ? ", " : "", f[i]);
		cma_mm_pr_err(mm, "cma_write_proc: no file '%s': areas: %s; files: %s\n", name,
			  *areas ? areas : "(none)", files);
	}
	return -ENOENT;
}

/* ---- public: 6.12's cma_alloc / cma_release on an area ---- */

struct cma_page *cma_area_alloc(struct cma_mm *mm, struct cma *cma, unsigned long count,
				unsigned align, bool no_warn)
{
	if (mm_require_phase(mm, MM_BOOTED, "cma_alloc"))
		return NULL;
	if (align >= mm->max_order + 20) {
		cma_mm_pr_err(mm, "cma_alloc: align %u refused\n", align);
		return NULL;
	}
	return cma_alloc(mm, cma, count, align, CMA_GFP_KERNEL | (no_warn ? CMA_GFP_NOWARN : 0));
}

bool cma_area_release(struct cma_mm *mm, struct cma *cma, const struct cma_page *pages,
		      unsigned long count)
{
	if (mm->phase != MM_BOOTED)
		return false;
	return cma_release(mm, cma, pages, count);
}

const char *cma_area_name(const struct cma *cma)
{
	return cma ? cma->name : NULL;
}

unsigned long cma_area_base_pfn(const struct cma *cma)
{
	return cma ? cma->base_pfn : 0;
}

unsigned long cma_area_count(const struct cma *cma)
{
	return cma ? cma->count : 0;
}
