// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim import: the machine of a snapshot. An x86-64 machine of the
 * snapshot's RAM banks and zone limits boots with every PG_reserved range
 * memblock-reserved; its pageblocks get the types pagetypeinfo counts,
 * and then each page in use is placed at its pfn (cma_alloc_pages_at,
 * cma_alloc_movable_at), so that what is left free is what was free.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "board/platform.h"

/* The imported pages' owner: it keeps no page, so a move or a drop is always accepted. */
static int owner_migrate(void *owner, uint64_t index, struct cma_page *from, struct cma_page *to)
{
	return 0;
}

static int owner_reclaim(void *owner, uint64_t index, struct cma_page *page)
{
	return 0;
}

static int owner_writeback(void *owner, uint64_t index, struct cma_page *page)
{
	return 0;
}

static const struct cma_owner_ops anon_ops = {
	.migrate = owner_migrate, .reclaim = owner_reclaim, .writeback = owner_writeback, .anon = true,
};
static const struct cma_owner_ops file_ops = {
	.migrate = owner_migrate, .reclaim = owner_reclaim, .writeback = owner_writeback,
};

/* The end of zone @name in bytes, or 0 when the snapshot has no such zone. */
static cma_phys_t zone_end(const struct snapshot *s, const char *name)
{
	for (unsigned z = 0; z < s->nr_zones; z++)
		if (!strcmp(s->zones[z].name, name))
			return (cma_phys_t)(s->zones[z].start_pfn + s->zones[z].spanned) << 12;
	return 0;
}

/*
 * The snapshot's cma= for the imported machine's command line, and
 * cma=0 when it has none: the rest of a command line is the real
 * machine's business. Departure: the CMA area is placed as the library
 * places it, not where the snapshot's kernel did.
 */
static void cma_arg(const char *cmdline, char *out, size_t len)
{
	const char *p = cmdline;

	snprintf(out, len, "cma=0");
	while ((p = strstr(p, "cma="))) {
		if (p == cmdline || p[-1] == ' ')
			snprintf(out, len, "%.*s", (int)strcspn(p, " \n"), p);
		p += 4;
	}
}

/*
 * memblock_reserve each run of PG_reserved pages, as the kernel had them
 * at boot, and of pages not initialised, which it has not given to buddy.
 */
static int reserve_runs(struct cma_mm *mm, const struct page_kinds *pk)
{
	for (unsigned long pfn = 0; pfn < pk->nr_pfns;) {
		unsigned long end = pfn;

		while (end < pk->nr_pfns && page_kind_unmanaged(pk->kind[end]))
			end++;
		if (end > pfn && cma_memblock_reserve(mm, (cma_phys_t)pfn << 12, (uint64_t)(end - pfn) << 12))
			return -ENOMEM;
		pfn = end + 1;
	}
	return 0;
}

struct block_rank {
	unsigned long pfn;
	unsigned long unmovable;	/* pages of unmovable kinds but reserved */
};

static int by_unmovable_desc(const void *a, const void *b)
{
	const struct block_rank *x = a, *y = b;

	if (x->unmovable != y->unmovable)
		return x->unmovable < y->unmovable ? 1 : -1;
	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

/*
 * Give zone @z's pageblocks pagetypeinfo's counts: the blocks holding the
 * most unmovable pages become UNMOVABLE, the next RECLAIMABLE, the rest
 * MOVABLE. HighAtomic, CMA and Isolate blocks are counted as movable:
 * this rebuild makes none of them. A block not initialised at all is not
 * the zone's yet, and pagetypeinfo does not count it.
 */
static int set_block_types(struct import_machine *im, const struct snapshot *s, unsigned zi,
			   unsigned long pb)
{
	const struct import_zone *z = &s->zones[zi];
	unsigned long first = z->start_pfn & ~(pb - 1), end = z->start_pfn + z->spanned, n = 0;
	struct block_rank *r = calloc((end - first) / pb + 1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	/* a block the zone starts inside is the zone's, as pagetypeinfo counts it */
	for (unsigned long b = first; b + pb <= end; b += pb) {
		unsigned long uninit = 0;

		r[n].pfn = b < z->start_pfn ? z->start_pfn : b;
		for (unsigned long p = r[n].pfn; p < b + pb; p++) {
			if (page_kind_unmovable(im->pk.kind[p]) && !page_kind_unmanaged(im->pk.kind[p]))
				r[n].unmovable++;
			uninit += im->pk.kind[p] == PK_UNINIT;
		}
		if (uninit < b + pb - r[n].pfn)
			n++;
	}
	qsort(r, n, sizeof(*r), by_unmovable_desc);
	for (unsigned long i = 0; i < n; i++) {
		int mt = i < z->blocks[CMA_MIGRATE_UNMOVABLE] ? CMA_MIGRATE_UNMOVABLE :
			 i < z->blocks[CMA_MIGRATE_UNMOVABLE] + z->blocks[CMA_MIGRATE_RECLAIMABLE] ?
			 CMA_MIGRATE_RECLAIMABLE : CMA_MIGRATE_MOVABLE;

		if (!cma_set_pageblock_migratetype(im->mm, r[i].pfn, mt))
			im->blocks_set[zi][cma_pageblock_migratetype(im->mm, r[i].pfn)]++;
	}
	free(r);
	return 0;
}

/*
 * Departure: the library reserves its own memmap at boot, where the real
 * machine's is already among the snapshot's reserved pages; what it
 * reserved where the snapshot has no reserved page is let go again.
 */
static unsigned long free_own_reservations(struct import_machine *im)
{
	const struct page_kinds *pk = &im->pk;
	unsigned long freed = 0;

	for (unsigned long pfn = 0; pfn < pk->nr_pfns;) {
		unsigned long end = pfn;

		while (end < pk->nr_pfns && !page_kind_unmanaged(pk->kind[end]) && pk->kind[end] != PK_HOLE)
			end++;
		if (end > pfn) {
			long n = cma_free_reserved_area(im->mm, pfn, end);

			freed += n > 0 ? (unsigned long)n : 0;
		}
		pfn = end + 1;
	}
	return freed;
}

/* Place the 2^@order pages at @pfn as kind @k; false when the machine has them in use. */
static bool place(struct cma_mm *mm, unsigned long pfn, unsigned order, enum page_kind k)
{
	struct cma_page *page;

	switch (k) {
	case PK_ANON:
	case PK_THP:
	case PK_MLOCKED:
		page = cma_alloc_movable_at(mm, pfn, order, &anon_ops, NULL, pfn);
		if (page && k == PK_MLOCKED)
			cma_page_set_mlocked(mm, page, true);
		return page;
	case PK_FILE:
	case PK_FILE_DIRTY:
		page = cma_alloc_movable_at(mm, pfn, order, &file_ops, NULL, pfn);
		/* Departure: a page under writeback is imported dirty; the library has no writeback state */
		if (page && k == PK_FILE_DIRTY)
			cma_page_set_dirty(mm, page, true);
		return page;
	case PK_HUGETLB:
		return cma_alloc_pages_at(mm, pfn, order, CMA_GFP_HIGHUSER);
	default:
		return cma_alloc_pages_at(mm, pfn, order, CMA_GFP_KERNEL);
	}
}

/* Every page in use at its pfn; compound pages above the largest order in its largest blocks. */
static void place_pages(struct import_machine *im, unsigned max_order)
{
	const struct page_kinds *pk = &im->pk;

	for (unsigned long pfn = 0; pfn < pk->nr_pfns;) {
		enum page_kind k = pk->kind[pfn];
		unsigned order = pk->head[pfn] ? pk->order[pfn] : 0, o = order;
		unsigned long n = 1ul << order;

		if (k == PK_HOLE || k == PK_FREE || page_kind_unmanaged(k)) {
			pfn += k == PK_FREE ? n : 1;
			continue;
		}
		if (o >= max_order)
			o = max_order - 1;
		for (unsigned long p = pfn; p < pfn + n; p += 1ul << o)
			if (!place(im->mm, p, o, k))
				im->unplaced += 1ul << o;
		pfn += n;
	}
}

int import_build(const struct snapshot *s, const char *kernel, struct import_machine *im,
		 char *err, size_t errlen)
{
	char cmdline[64];
	struct cma_mm_config cfg = {
		.arch = CMA_ARCH_X86,
		.banks = s->banks,
		.nr_banks = s->nr_banks,
		.max_order = s->nr_orders,
		.pageblock_order = s->pageblock_order,
		.zone_dma_end = zone_end(s, "DMA"),
		.zone_dma32_end = zone_end(s, "DMA32"),
		.swap_bytes = s->swap_bytes,
		.metadata_only = true,
		.quiet = true,
		.kernel = kernel ? kernel : s->kernel,
		.cmdline = cmdline,
		.kconfig = "",
	};
	int ret;

	cma_arg(s->cmdline, cmdline, sizeof(cmdline));
	memset(im, 0, sizeof(*im));
	if (s->pageblock_order >= s->nr_orders) {
		snprintf(err, errlen, "pagetypeinfo's pageblock order %u is not below buddyinfo's %u orders",
			 s->pageblock_order, s->nr_orders);
		return -EINVAL;
	}
	im->kernel = cfg.kernel;
	im->kernel_given = kernel != NULL;
	snprintf(im->release, sizeof(im->release), "%s", s->release);
	im->contig_pages = cma_kernel_has(cfg.kernel, "contig_pages") == 1;
	memcpy(im->zones, s->zones, sizeof(im->zones));
	im->nr_zones = s->nr_zones;
	im->pageblock_pages = 1ul << s->pageblock_order;
	ret = page_kinds_classify(s, s->nr_orders, &im->pk, err, errlen);
	if (ret)
		return ret;
	ret = cma_mm_create(&cfg, &im->mm);
	if (ret) {
		snprintf(err, errlen, "the library refused the machine of the snapshot's banks, zones and swap (%s)",
			 strerror(-ret));
		goto fail;
	}
	ret = reserve_runs(im->mm, &im->pk);
	if (!ret)
		ret = cma_mm_boot(im->mm);
	if (ret) {
		snprintf(err, errlen, "the machine did not boot (%s)", strerror(-ret));
		goto fail;
	}
	/*
	 * while every block is still MOVABLE: a free block merging across two
	 * pageblocks of different types would land on one's list in the other
	 */
	im->own_reserved = free_own_reservations(im);
	for (unsigned z = 0; z < s->nr_zones && !ret; z++)
		if (s->zones[z].has_blocks)
			ret = set_block_types(im, s, z, 1ul << s->pageblock_order);
	if (ret) {
		snprintf(err, errlen, "no memory to rank the pageblocks");
		goto fail;
	}
	place_pages(im, s->nr_orders);
	if (cma_mm_verify(im->mm)) {
		cma_mm_dmesg(im->mm, stderr);
		snprintf(err, errlen, "the imported machine is inconsistent (see its log above)");
		ret = -EIO;
		goto fail;
	}
	ret = import_check(im, s);
	if (ret) {
		snprintf(err, errlen, "its buddyinfo could not be read back (%s)", strerror(-ret));
		goto fail;
	}
	return 0;
fail:
	import_machine_free(im);
	return ret ? ret : -EINVAL;
}

void import_machine_free(struct import_machine *im)
{
	cma_mm_destroy(im->mm);
	page_kinds_free(&im->pk);
	im->mm = NULL;
}

void import_kernel_said(const struct import_machine *im, char *buf, size_t len)
{
	const char *how = im->kernel_given ? " (--kernel)" : " (from zoneinfo's layout)";

	if (!im->release[0])
		snprintf(buf, len, "kernel profile %s%s", im->kernel, how);
	else if (!strcmp(im->kernel, IMPORT_KERNEL_NEWEST) &&
		 platform_kernel_release(im->release) > platform_kernel_release(IMPORT_KERNEL_NEWEST))
		snprintf(buf, len, "kernel %s read with the %s profile, the newest modelled", im->release,
			 im->kernel);
	else
		snprintf(buf, len, "kernel %s read with the %s profile%s", im->release, im->kernel, how);
}
