// SPDX-License-Identifier: GPL-2.0
/*
 * CMA areas (drivers/base/dma-contiguous.c of seed 009, split as later
 * kernels split it into mm/cma.c): sizing the default area from cma= and
 * Kconfig, reserving areas in memblock, activating them as MIGRATE_CMA
 * pageblocks at the core initcall, and allocating from an area's bitmap
 * with alloc_contig_range under the CMA mutex.
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

static int parse_cmdline(struct cma_mm *mm, const char *cmdline, struct cma_params *p)
{
	const char *val;
	size_t len;
	uint64_t size;

	p->size_cmdline = -1;
	if (!cmdline_find_option(cmdline, "cma", &val, &len))
		return 0;
	/* departure: the kernel's memparse reads "12Q" as 12 and "-5" as 0 */
	if (memparse_strict(val, len, &size) || size > INT64_MAX) {
		mm_pr_err(mm, "cma: invalid cma=%.*s: expected a size in bytes with an optional K, M, G, T, P or E suffix, e.g. cma=64M (cma=0 disables the default area)\n",
			  (int)len, val);
		return -EINVAL;
	}
	p->size_cmdline = (long long)size;
	return 0;
}

static int kconfig_range(struct cma_mm *mm, const struct kconfig *kc, const char *name,
			 unsigned long def, unsigned long lo, unsigned long hi, unsigned long *out)
{
	char err[160];

	if (kconfig_get_ulong(kc, name, def, out, err, sizeof(err))) {
		mm_pr_err(mm, "cma: %s\n", err);
		return -EINVAL;
	}
	if (*out < lo || *out > hi) {
		mm_pr_err(mm, "cma: %s=%lu out of range: accepted %lu..%lu\n", name, *out, lo, hi);
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
			mm_pr_err(mm, "cma: %s and %s are both set: the choice takes one of CONFIG_CMA_SIZE_SEL_MBYTES, _PERCENTAGE, _MIN, _MAX\n",
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
			mm_pr_err(mm, "cma: %s\n", err);
		return ret;
	}
	v = kconfig_get(kc, "CONFIG_CMA");
	p->enabled = !v || !strcmp(v, "y");
	ret = parse_cmdline(mm, cmdline, p);
	if (!ret)
		ret = kconfig_range(mm, kc, "CONFIG_CMA_SIZE_MBYTES", 16, 0, 1ul << 40, &p->size_mbytes);
	if (!ret)
		ret = kconfig_range(mm, kc, "CONFIG_CMA_SIZE_PERCENTAGE", 10, 0, 100, &p->percentage);
	if (!ret)
		ret = kconfig_range(mm, kc, "CONFIG_CMA_ALIGNMENT", 8, 4, 9, &p->alignment);
	if (!ret)
		ret = kconfig_range(mm, kc, "CONFIG_CMA_AREAS", 7, 0, 255, &p->areas);
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
 * cma_declare_contiguous: align base and size to the largest buddy block
 * or pageblock, take a fixed base or the highest fit below limit, and
 * record the area for activation at boot.
 */
int cma_declare_contiguous(struct cma_mm *mm, uint64_t size, cma_phys_t base, cma_phys_t limit,
			   void *dev, const char *name)
{
	struct cma_state *cs = mm->cma;
	unsigned order = mm->max_order > mm->pageblock_order ? mm->max_order : mm->pageblock_order;
	uint64_t alignment = mm->page_size << order;
	struct cma_reserved *r;
	int ret;

	if (cs->nr_reserved == cs->max_areas) {
		mm_pr_err(mm, "cma: Not enough slots for CMA reserved regions!\n");
		return -ENOSPC;
	}
	if (!size)
		return -EINVAL;
	if (base > UINT64_MAX - alignment || size > UINT64_MAX - alignment)
		return -EINVAL;
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
	r = &cs->reserved[cs->nr_reserved++];
	r->start = base;
	r->size = size;
	r->dev = dev;
	snprintf(r->name, sizeof(r->name), "%s", name);
	mm_printk(mm, "cma: CMA: reserved %llu MiB at %08llx\n", (unsigned long long)(size / SZ_1M),
		  (unsigned long long)base);
	return 0;
err:
	mm_pr_err(mm, "cma: CMA: failed to reserve %llu MiB\n", (unsigned long long)(size / SZ_1M));
	return ret;
}

/* ---- activation (core initcall) ---- */

/*
 * Departure: every pfn is checked before any pageblock is given back, so
 * an area spanning two zones (or a hole) is dropped whole, its memory
 * left reserved; the seed gives back the blocks up to the boundary.
 */
static int cma_check_area(struct cma_mm *mm, struct cma_reserved *r, unsigned long base_pfn,
			  unsigned long count)
{
	struct zone *zone = pfn_zone(mm, base_pfn);

	for (unsigned long pfn = base_pfn; pfn < base_pfn + count; pfn++) {
		struct zone *z = pfn_valid(mm, pfn) ? pfn_zone(mm, pfn) : NULL;

		if (!z) {
			mm_pr_err(mm, "cma: CMA: area at %08llx has no memory at pfn %#lx: dropped, its %llu MiB stay reserved\n",
				  (unsigned long long)r->start, pfn,
				  (unsigned long long)(r->size / SZ_1M));
			return -EINVAL;
		}
		if (z != zone) {
			mm_pr_err(mm, "cma: CMA: area at %08llx spans zones %s and %s: dropped, its %llu MiB stay reserved\n",
				  (unsigned long long)r->start, zone->name, z->name,
				  (unsigned long long)(r->size / SZ_1M));
			return -EINVAL;
		}
	}
	return 0;
}

static struct cma *cma_create_area(struct cma_mm *mm, struct cma_reserved *r)
{
	unsigned long base_pfn = r->start >> mm->page_shift, count = r->size >> mm->page_shift;
	struct cma *cma;

	if (cma_check_area(mm, r, base_pfn, count))
		return NULL;
	cma = calloc(1, sizeof(*cma));
	if (cma)
		cma->bitmap = calloc(BITS_TO_LONGS(count), sizeof(unsigned long));
	if (!cma || !cma->bitmap) {
		free(cma);
		mm_pr_err(mm, "cma: CMA: out of memory for the area at %08llx\n",
			  (unsigned long long)r->start);
		return NULL;
	}
	cma->base_pfn = base_pfn;
	cma->count = count;
	snprintf(cma->name, sizeof(cma->name), "%s", r->name);
	for (unsigned long pfn = base_pfn; pfn < base_pfn + count; pfn += mm->pageblock_nr_pages)
		init_cma_reserved_pageblock(mm, pfn_to_page(mm, pfn));
	mm_printk(mm, "cma: CMA: activated %s: %lu pages at pfn %#lx\n", cma->name, count, base_pfn);
	return cma;
}

/*
 * cma_init_reserved_areas: the core initcall. Departure: on a machine too
 * small for grouping by mobility every pageblock is UNMOVABLE and both
 * CMA rules would break, so areas are refused.
 */
void cma_init_reserved_areas(struct cma_mm *mm)
{
	struct cma_state *cs = mm->cma;

	for (unsigned i = 0; i < cs->nr_reserved; i++) {
		struct cma_reserved *r = &cs->reserved[i];

		if (mm->page_group_by_mobility_disabled) {
			mm_pr_err(mm, "cma: CMA: area at %08llx refused: grouping by mobility is off on a machine below %lu pages; its %llu MiB stay reserved\n",
				  (unsigned long long)r->start, mm->pageblock_nr_pages * MIGRATE_TYPES,
				  (unsigned long long)(r->size / SZ_1M));
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
		struct cma *cma = mm->cma->reserved[i].cma;

		if (cma) {
			free(cma->bitmap);
			free(cma);
		}
	}
	free(mm->cma->reserved);
	free(mm->cma);
	mm->cma = NULL;
}

/* ---- allocation ---- */

static void *trace_page_ptr(unsigned long pfn)
{
	return (void *)(0xffffea0000000000ul + pfn * 64);
}

/*
 * cma_alloc (dma_alloc_from_contiguous's core): first fit in the bitmap
 * at the clamped alignment; a busy range is retried past it.
 */
struct cma_page *cma_alloc(struct cma_mm *mm, struct cma *cma, unsigned long count, unsigned align)
{
	unsigned long mask, pfn = 0, pageno, start = 0;
	int ret = -ENOMEM;

	if (!cma || !cma->count)
		return NULL;
	if (align > mm->cma->params.alignment)
		align = (unsigned)mm->cma->params.alignment;
	if (!count)
		return NULL;
	trace_event(mm, "cma_alloc_start", "name=%s count=%lu align=%u", cma->name, count, align);
	mask = (1ul << align) - 1;
	pthread_mutex_lock(&mm->cma_mutex);
	for (;;) {
		pageno = bitmap_find_next_zero_area(cma->bitmap, cma->count, start, count, mask);
		if (pageno >= cma->count || count > cma->count) {
			ret = -ENOMEM;
			break;
		}
		pfn = cma->base_pfn + pageno;
		ret = alloc_contig_range(mm, pfn, pfn + count, MIGRATE_CMA);
		if (!ret) {
			bitmap_set(cma->bitmap, pageno, count);
			break;
		}
		if (ret != -EBUSY)
			break;
		trace_event(mm, "cma_alloc_busy_retry", "name=%s pfn=0x%lx page=%p count=%lu align=%u",
			    cma->name, pfn, trace_page_ptr(pfn), count, align);
		start = pageno + mask + 1;
	}
	pthread_mutex_unlock(&mm->cma_mutex);
	trace_event(mm, "cma_alloc_finish", "name=%s pfn=0x%lx page=%p count=%lu align=%u errorno=%d",
		    cma->name, ret ? 0 : pfn, ret ? NULL : trace_page_ptr(pfn), count, align, ret);
	if (ret) {
		atomic_fetch_add(&cma->alloc_pages_fail, count);
		count_vm_event(mm, CMA_ALLOC_FAIL);
		return NULL;
	}
	atomic_fetch_add(&cma->alloc_pages_success, count);
	count_vm_event(mm, CMA_ALLOC_SUCCESS);
	return pfn_to_page(mm, pfn);
}

/* cma_release: false, changing nothing, unless every page is one @cma handed out. */
bool cma_release(struct cma_mm *mm, struct cma *cma, struct cma_page *pages, unsigned long count)
{
	unsigned long pfn, pageno;

	if (!cma || !pages || pages < mm->mem_map || pages >= mm->mem_map + (mm->end_pfn - mm->base_pfn))
		return false;
	pfn = page_to_pfn(mm, pages);
	if (pfn < cma->base_pfn || pfn >= cma->base_pfn + cma->count)
		return false;
	pageno = pfn - cma->base_pfn;
	pthread_mutex_lock(&mm->cma_mutex);
	if (count > cma->count - pageno ||
	    find_next_zero_bit(cma->bitmap, pageno + count, pageno) < pageno + count) {
		pthread_mutex_unlock(&mm->cma_mutex);
		mm_pr_err(mm, "cma: release of %lu pages at pfn %#lx refused: not all of them were allocated from %s\n",
			  count, pfn, cma->name);
		return false;
	}
	bitmap_clear(cma->bitmap, pageno, count);
	free_contig_range(mm, pfn, count);
	pthread_mutex_unlock(&mm->cma_mutex);
	atomic_fetch_add(&cma->release_pages_success, count);
	trace_event(mm, "cma_release", "name=%s pfn=0x%lx page=%p count=%lu", cma->name, pfn,
		    trace_page_ptr(pfn), count);
	return true;
}

/* The per-area statistics of later kernels' debugfs, one block per area. */
void cma_write_areas(struct cma_mm *mm, FILE *out)
{
	for (unsigned i = 0; mm->cma && i < mm->cma->nr_reserved; i++) {
		struct cma *cma = mm->cma->reserved[i].cma;
		unsigned long used;

		if (!cma)
			continue;
		pthread_mutex_lock(&mm->cma_mutex);
		used = bitmap_weight(cma->bitmap, cma->count);
		fprintf(out, "%s:\n", cma->name);
		fprintf(out, "  base_pfn: %#lx\n", cma->base_pfn);
		fprintf(out, "  count: %lu\n", cma->count);
		fprintf(out, "  used: %lu\n", used);
		fprintf(out, "  maxchunk: %lu\n", bitmap_longest_zero_run(cma->bitmap, cma->count));
		fprintf(out, "  alloc_pages_success: %lu\n", atomic_load(&cma->alloc_pages_success));
		fprintf(out, "  alloc_pages_fail: %lu\n", atomic_load(&cma->alloc_pages_fail));
		fprintf(out, "  release_pages_success: %lu\n", atomic_load(&cma->release_pages_success));
		pthread_mutex_unlock(&mm->cma_mutex);
	}
}

unsigned long cma_area_base_pfn(const struct cma *cma)
{
	return cma ? cma->base_pfn : 0;
}

unsigned long cma_area_count(const struct cma *cma)
{
	return cma ? cma->count : 0;
}
