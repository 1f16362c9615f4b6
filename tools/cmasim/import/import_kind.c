// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim import: what each pfn holds, from its kpageflags word and its
 * kpagecount (Documentation/admin-guide/mm/pagemap.rst). The order of a
 * free buddy block is not exported (and up to 6.x only its head carries
 * KPF_BUDDY), so a block is rebuilt as the largest aligned run of free
 * pages after its head; a compound page is its head and the tails after it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

/* include/uapi/linux/kernel-page-flags.h and fs/proc/page.c's KPF_* above 31 */
enum {
	KPF_DIRTY = 4, KPF_LRU = 5, KPF_SLAB = 7, KPF_WRITEBACK = 8, KPF_BUDDY = 10,
	KPF_MMAP = 11, KPF_ANON = 12, KPF_SWAPCACHE = 13, KPF_SWAPBACKED = 14,
	KPF_COMPOUND_HEAD = 15, KPF_COMPOUND_TAIL = 16, KPF_HUGE = 17, KPF_UNEVICTABLE = 18,
	KPF_NOPAGE = 20, KPF_THP = 22, KPF_PGTABLE = 26, KPF_RESERVED = 32, KPF_MLOCKED = 33,
};

#define F(bit)	(1ull << (bit))

const char *const page_kind_names[NR_PAGE_KINDS] = {
	[PK_HOLE] = "hole", [PK_FREE] = "free", [PK_ANON] = "anonymous",
	[PK_FILE] = "page cache (clean)", [PK_FILE_DIRTY] = "page cache (dirty or writeback)",
	[PK_THP] = "transparent huge", [PK_MLOCKED] = "mlocked or unevictable",
	[PK_SLAB] = "slab", [PK_PGTABLE] = "page tables", [PK_HUGETLB] = "hugetlb",
	[PK_KERNEL] = "kernel (other)", [PK_RESERVED] = "reserved",
	[PK_UNINIT] = "not initialised",
};

/* The kind of a page in use with flags @f: for a compound page, its head's. */
static enum page_kind kind_of(uint64_t f, uint64_t count)
{
	if (f & F(KPF_RESERVED))
		return PK_RESERVED;
	if (f & F(KPF_HUGE))
		return PK_HUGETLB;
	if (f & F(KPF_SLAB))
		return PK_SLAB;
	if (f & F(KPF_PGTABLE))
		return PK_PGTABLE;
	if (f & (F(KPF_UNEVICTABLE) | F(KPF_MLOCKED)))
		return PK_MLOCKED;
	if (f & F(KPF_THP))
		return PK_THP;
	if (f & (F(KPF_ANON) | F(KPF_SWAPBACKED)))
		return PK_ANON;
	if (f & (F(KPF_LRU) | F(KPF_MMAP) | F(KPF_SWAPCACHE)))
		return f & (F(KPF_DIRTY) | F(KPF_WRITEBACK)) ? PK_FILE_DIRTY : PK_FILE;
	/*
	 * Mapped in a process but flagless: a user page off the LRU while the
	 * snapshot was read (in a per-CPU batch, or isolated by migration),
	 * movable once back. A 6.18 machine under load has a few hundred in
	 * every GiB, and its alloc_contig_pages() takes ranges holding them.
	 */
	if (!f && count)
		return PK_ANON;
	return PK_KERNEL;
}

/*
 * A free block's tail, or a page on a per-CPU list: no flag and no
 * mapping; or KPF_BUDDY alone, which Linux 6.18 reports on every page of
 * a free block, with a kpagecount from the page type that shares the
 * map count's word.
 */
static bool looks_free(const struct snapshot *s, const uint8_t *kind, unsigned long pfn)
{
	uint64_t f = s->flags[pfn];

	/* PK_FREE: not yet classified, neither a hole nor a page not initialised */
	return kind[pfn] == PK_FREE && (f == F(KPF_BUDDY) || (!f && !s->count[pfn]));
}

/* The order of the free block headed at @pfn: its largest aligned run of free-looking pages. */
static unsigned free_order(const struct snapshot *s, const uint8_t *kind, unsigned long pfn,
			   unsigned max_order)
{
	unsigned o = 0;

	while (o + 1 < max_order && !(pfn & ((2ul << o) - 1)) && pfn + (2ul << o) <= s->nr_pfns) {
		for (unsigned long p = pfn + (1ul << o); p < pfn + (2ul << o); p++)
			if (!looks_free(s, kind, p))
				return o;
		o++;
	}
	return o;
}

/* Holes: pfns outside iomem's RAM and outside the zones, or without a struct page. */
static void mark_holes(const struct snapshot *s, uint8_t *kind)
{
	memset(kind, PK_HOLE, s->nr_pfns);
	for (unsigned b = 0; b < s->nr_banks; b++) {
		unsigned long lo = s->banks[b].base >> 12, hi = (s->banks[b].base + s->banks[b].size) >> 12;

		for (unsigned long p = lo; p < hi && p < s->nr_pfns; p++)
			kind[p] = PK_FREE;
	}
	for (unsigned long p = 0; p < s->nr_pfns; p++)
		if (s->flags[p] & F(KPF_NOPAGE))
			kind[p] = PK_HOLE;
}

/*
 * The pages zone @z has present but neither managed nor PG_reserved were
 * never given to the buddy allocator: deferred struct page init leaves
 * them at the top of the node's last zone, flagless and unmapped as a
 * free page looks, until the zone grows into them. Taken from the zone's
 * end down, as many as zoneinfo counts, up to the first page that is not
 * flagless (a free block's head, a page in use). A 3.5 zoneinfo has no
 * managed line: there are none.
 */
static void mark_uninit(const struct snapshot *s, const struct import_zone *z, uint8_t *kind)
{
	unsigned long end = z->start_pfn + z->spanned, reserved = 0, left;

	if (!z->has_managed || end > s->nr_pfns)
		return;
	for (unsigned long p = z->start_pfn; p < end; p++)
		reserved += kind[p] != PK_HOLE && (s->flags[p] & F(KPF_RESERVED));
	if (z->present <= z->managed + reserved)
		return;
	left = z->present - z->managed - reserved;
	for (unsigned long p = end; p-- > z->start_pfn && left;) {
		if (kind[p] == PK_HOLE || (s->flags[p] & F(KPF_RESERVED)))
			continue;
		if (s->flags[p] || s->count[p])
			break;
		kind[p] = PK_UNINIT;
		left--;
	}
}

/* Mark the @n pages from @pfn as @k, a block of @order headed at @pfn. */
static void mark(struct page_kinds *pk, unsigned long pfn, unsigned long n, enum page_kind k,
		 unsigned order)
{
	memset(pk->kind + pfn, k, n);
	pk->head[pfn] = 1;
	pk->order[pfn] = (uint8_t)order;
}

/* log2 of @n when it is a power of two and @pfn is aligned to it, else 0. */
static unsigned compound_order(unsigned long pfn, unsigned long n)
{
	unsigned o = 0;

	while ((1ul << o) < n)
		o++;
	return (1ul << o) == n && !(pfn & (n - 1)) ? o : 0;
}

int page_kinds_classify(const struct snapshot *s, unsigned max_order, struct page_kinds *pk,
			char *err, size_t errlen)
{
	unsigned long pfn = 0;

	memset(pk, 0, sizeof(*pk));
	pk->nr_pfns = s->nr_pfns;
	pk->kind = malloc(s->nr_pfns);
	pk->order = calloc(s->nr_pfns, 1);
	pk->head = calloc(s->nr_pfns, 1);
	pk->mapcount = malloc(s->nr_pfns);
	if (!pk->kind || !pk->order || !pk->head || !pk->mapcount) {
		page_kinds_free(pk);
		snprintf(err, errlen, "no memory for %lu pfns", s->nr_pfns);
		return -ENOMEM;
	}
	mark_holes(s, pk->kind);
	for (unsigned z = 0; z < s->nr_zones; z++)
		mark_uninit(s, &s->zones[z], pk->kind);
	while (pfn < s->nr_pfns) {
		uint64_t f = s->flags[pfn];
		unsigned long n = 1;
		enum page_kind k;

		if (pk->kind[pfn] == PK_HOLE || pk->kind[pfn] == PK_UNINIT) {
			pfn++;
			continue;
		}
		if (f & F(KPF_BUDDY)) {
			unsigned o = free_order(s, pk->kind, pfn, max_order);

			mark(pk, pfn, 1ul << o, PK_FREE, o);
			pfn += 1ul << o;
			continue;
		}
		if (!f && !s->count[pfn]) {
			mark(pk, pfn, 1, PK_FREE, 0);
			pfn++;
			continue;
		}
		k = kind_of(f, s->count[pfn]);
		if (f & F(KPF_COMPOUND_HEAD))
			while (pfn + n < s->nr_pfns && pk->kind[pfn + n] == PK_FREE &&
			       (s->flags[pfn + n] & F(KPF_COMPOUND_TAIL)))
				n++;
		mark(pk, pfn, n, k, compound_order(pfn, n));
		pfn += n;
	}
	for (pfn = 0; pfn < s->nr_pfns; pfn++) {
		pk->total[pk->kind[pfn]]++;
		pk->mapcount[pfn] = s->count[pfn] > 255 ? 255 : (uint8_t)s->count[pfn];
	}
	return 0;
}

void page_kinds_free(struct page_kinds *pk)
{
	free(pk->kind);
	free(pk->order);
	free(pk->head);
	free(pk->mapcount);
	memset(pk, 0, sizeof(*pk));
}
