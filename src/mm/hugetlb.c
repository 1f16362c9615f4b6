// SPDX-License-Identifier: GPL-2.0
/*
 * A huge page pool's page, as nr_hugepages growing asks for it: from the
 * buddy allocator (mm/hugetlb.c's alloc_buddy_hugetlb_folio of 6.12,
 * alloc_fresh_huge_page_node of v3.5), or, for an order the buddy
 * allocator does not have, 6.12's alloc_gigantic_folio: the node's
 * hugetlb_cma area through cma_alloc when hugetlb_cma= reserved one
 * (5.7, kernel.hugetlb_cma), else (or when it is full) alloc_contig_pages.
 * The allocation, the hugetlb mark (PG_hugetlb, which
 * alloc_contig_pages reads) and the pool's free lists of one node (a
 * page freed into the pool is frozen at count 0 on mm->hugetlb_free,
 * as free_huge_folio enqueues it), which alloc_contig_range dissolves
 * from 5.13; the rest of the pool (nr_hugepages, reservations,
 * surplus, vmemmap) is the caller's.
 *
 * hugetlb_cma= is read at cma_mm_create (cmdline_parse_hugetlb_cma) and
 * its areas reserved at cma_mm_boot (hugetlb_cma_reserve), where the
 * architecture calls it: arm64's bootmem_init before the memmap and the
 * default area, x86's setup_arch after dma_contiguous_reserve; 32-bit
 * ARM has no call, and the option is only warned about. One node here:
 * the per-node form names node 0 or is refused as a node not online.
 */
#include <string.h>

#include "lib/cmdline.h"
#include "mm/cma.h"
#include "mm/internal.h"

#define SZ_1M (1ull << 20)

/*
 * cmdline_parse_hugetlb_cma: "SIZE", or "NODE:SIZE[,NODE:SIZE...]".
 * Departure: the kernel stops at the first malformed part and keeps what
 * it read; here a malformed value is refused as cma= is.
 */
int hugetlb_cma_parse(struct cma_mm *mm, const char *cmdline)
{
	struct cma_state *cs = mm->cma;
	const char *arg, *val, *end, *colon;
	size_t len;
	uint64_t nid, size;

	if (!mm->kernel.hugetlb_cma || !cmdline_find_option(cmdline, "hugetlb_cma", &arg, &len))
		return 0;
	val = arg;
	end = arg + len;
	if (!memchr(val, ':', len)) {
		if (memparse_strict(val, len, &cs->hugetlb_size))
			goto bad;
		return 0;
	}
	while (val < end) {
		const char *comma = memchr(val, ',', (size_t)(end - val));
		const char *stop = comma ? comma : end;

		colon = memchr(val, ':', (size_t)(stop - val));
		if (!colon || memparse_strict(val, (size_t)(colon - val), &nid) ||
		    memparse_strict(colon + 1, (size_t)(stop - colon - 1), &size) ||
		    size > UINT64_MAX - cs->hugetlb_size)
			goto bad;
		if (nid >= HUGETLB_MAX_NUMNODES) {
			cma_mm_pr_err(mm, "hugetlb_cma: node %llu past MAX_NUMNODES (%d): nodes 0..%d accepted\n",
				  (unsigned long long)nid, HUGETLB_MAX_NUMNODES, HUGETLB_MAX_NUMNODES - 1);
			return -EINVAL;
		}
		cs->hugetlb_size_in_node[nid] = size;
		cs->hugetlb_size += size;
		val = comma ? comma + 1 : end;
	}
	return 0;
bad:
	cma_mm_pr_err(mm, "hugetlb_cma: invalid hugetlb_cma=%.*s: expected a size (hugetlb_cma=1G) or NODE:SIZE pairs separated by commas (hugetlb_cma=0:1G)\n",
		  (int)len, arg);
	return -EINVAL;
}

/*
 * The gigantic page order hugetlb_cma_reserve is called with: PUD_SHIFT -
 * PAGE_SHIFT on x86 and on arm64 with 4 KiB pages, else arm64's
 * CONT_PMD_SHIFT - PAGE_SHIFT (16 KiB pages: 32 MiB, 64 KiB: 16 GiB);
 * 0 where the architecture does not call it (32-bit ARM).
 */
static unsigned hugetlb_cma_order(const struct cma_mm *mm)
{
	unsigned pmd_shift = 2 * mm->page_shift - 3;

	if (mm->arch == CMA_ARCH_X86 || (mm->arch == CMA_ARCH_ARM64 && mm->page_shift == 12))
		return 30 - mm->page_shift;
	if (mm->arch == CMA_ARCH_ARM64)
		return pmd_shift + 5 - mm->page_shift;
	return 0;
}

/* A node's share refused before any reservation: it is given back from the total. */
static void hugetlb_cma_drop_node(struct cma_state *cs, unsigned nid)
{
	cs->hugetlb_size -= cs->hugetlb_size_in_node[nid];
	cs->hugetlb_size_in_node[nid] = 0;
}

/* The node-specific sizes checked as hugetlb_cma_reserve checks them: is any left? */
static bool hugetlb_cma_check_nodes(struct cma_mm *mm, uint64_t gigantic)
{
	struct cma_state *cs = mm->cma;
	bool node_specific = false;

	for (unsigned nid = 0; nid < HUGETLB_MAX_NUMNODES; nid++) {
		if (!cs->hugetlb_size_in_node[nid])
			continue;
		if (nid) {
			cma_mm_printk(mm, KERN_WARNING "hugetlb_cma: invalid node %u specified\n", nid);
			hugetlb_cma_drop_node(cs, nid);
		} else if (cs->hugetlb_size_in_node[nid] < gigantic) {
			cma_mm_printk(mm, KERN_WARNING "hugetlb_cma: cma area of node %u should be at least %llu MiB\n",
				  nid, (unsigned long long)(gigantic / SZ_1M));
			hugetlb_cma_drop_node(cs, nid);
		} else {
			node_specific = true;
		}
	}
	return node_specific;
}

void hugetlb_cma_reserve(struct cma_mm *mm)
{
	struct cma_state *cs = mm->cma;
	unsigned order = hugetlb_cma_order(mm);
	uint64_t gigantic = (uint64_t)mm->page_size << order, size;
	bool node_specific;
	char name[32];
	int res;

	if (!cs->hugetlb_size)
		return;
	if (!order) {
		/* hugetlb_cma_check, at hugetlb_init */
		cma_mm_printk(mm, KERN_WARNING "hugetlb_cma: the option isn't supported by current arch\n");
		return;
	}
	node_specific = hugetlb_cma_check_nodes(mm, gigantic);
	if (!cs->hugetlb_size)
		return;
	if (cs->hugetlb_size < gigantic) {
		cma_mm_printk(mm, KERN_WARNING "hugetlb_cma: cma area should be at least %llu MiB\n",
			  (unsigned long long)(gigantic / SZ_1M));
		cs->hugetlb_size = 0;
		return;
	}
	/* one node online: node 0 takes it all (per_node is the whole, rounded up) */
	size = node_specific ? cs->hugetlb_size_in_node[0] : cs->hugetlb_size;
	size = (size + gigantic - 1) & ~(gigantic - 1);
	if (!node_specific)
		cma_mm_printk(mm, KERN_INFO "hugetlb_cma: reserve %llu MiB, up to %llu MiB per node\n",
			  (unsigned long long)(cs->hugetlb_size / SZ_1M), (unsigned long long)(size / SZ_1M));
	snprintf(name, sizeof(name), "hugetlb%d", 0);
	/* order_per_bit: HUGETLB_PAGE_ORDER, a PMD page, the least a demotion gives back */
	res = cma_declare_contiguous_nid(mm, 0, size, 0, gigantic, mm->pageblock_order, false, name,
					 &cs->hugetlb, 0);
	if (res) {
		cma_mm_printk(mm, KERN_WARNING "hugetlb_cma: reservation failed: err %d, node %d\n", res, 0);
		cs->hugetlb = NULL;
		cs->hugetlb_size = 0;
		return;
	}
	cma_mm_printk(mm, KERN_INFO "hugetlb_cma: reserved %llu MiB on node %d\n",
		  (unsigned long long)(size / SZ_1M), 0);
}

/*
 * alloc_buddy_hugetlb_folio: a fresh pool page of @order from the buddy
 * allocator. hugetlb's pages are movable on x86
 * (hugepage_movable_supported). v3.5 asks with __GFP_REPEAT, 4.13 on
 * with __GFP_RETRY_MAYFAIL (the same bit); kernel.hugetlb_noretry: once a
 * node failed a request that tried hard, the next ones there try once
 * (__GFP_NORETRY). @noretry NULL: always try hard.
 */
static struct cma_page *alloc_buddy_huge_page(struct cma_mm *mm, unsigned order, bool *noretry)
{
	cma_gfp_t gfp = CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_THISNODE | CMA_GFP_NOWARN;
	bool try_hard = !mm->kernel.hugetlb_noretry || !noretry || !*noretry;
	struct cma_page *page;

	gfp |= try_hard ? CMA_GFP_RETRY_MAYFAIL : CMA_GFP_NORETRY;
	page = __alloc_pages(mm, gfp, order);
	if (mm->kernel.hugetlb_noretry && noretry) {
		/* a success without trying hard: the node's state changed */
		if (page && !try_hard)
			*noretry = false;
		if (!page && try_hard)
			*noretry = true;
	}
	return mark_hugetlb(page);
}

struct cma_page *cma_alloc_huge_page(struct cma_mm *mm, unsigned order, bool *noretry)
{
	if (mm_require_phase(mm, MM_BOOTED, "cma_alloc_huge_page"))
		return NULL;
	return alloc_buddy_huge_page(mm, order, noretry);
}

/* ---- the free pool (hugepage_freelists of one node), hugetlb_lock ---- */

/* Is @page a pool page held only by its caller, without an owner? */
static bool huge_page_held_alone(struct cma_mm *mm, struct cma_page *page)
{
	unsigned order = page ? page_order(page) : 0;

	return page && page_test(page, PG_hugetlb) && page_test(page, PG_head) && order &&
	       order < mm->max_order && !page_test(page, PG_movable) && page_count(page) == 1;
}

int cma_free_huge_page(struct cma_mm *mm, struct cma_page *page)
{
	if (mm_require_phase(mm, MM_BOOTED, "cma_free_huge_page"))
		return -EINVAL;
	if (!huge_page_held_alone(mm, page)) {
		cma_mm_pr_err(mm, "cma_free_huge_page: not a page of cma_alloc_huge_page held only by its caller without an owner\n");
		return -EINVAL;
	}
	spin_lock(&mm->hugetlb_lock);
	enqueue_huge_page(mm, page);
	spin_unlock(&mm->hugetlb_lock);
	return 0;
}

struct cma_page *cma_dequeue_huge_page(struct cma_mm *mm, unsigned order)
{
	struct cma_page *page;

	if (mm_require_phase(mm, MM_BOOTED, "cma_dequeue_huge_page"))
		return NULL;
	if (!order || order >= mm->max_order) {
		cma_mm_pr_err(mm, "cma_dequeue_huge_page: order %u refused: 1..%u accepted\n", order,
			  mm->max_order - 1);
		errno = EINVAL;
		return NULL;
	}
	spin_lock(&mm->hugetlb_lock);
	page = page_list_first(mm, &mm->hugetlb_free[order]);
	if (page)
		dequeue_huge_page(mm, page);
	spin_unlock(&mm->hugetlb_lock);
	if (!page)
		errno = ENOMEM;
	return page;
}

/* A free pool page: frozen at count 0, still a hugetlb head. */
static bool huge_page_free(struct cma_page *page)
{
	return page_test(page, PG_hugetlb) && page_test(page, PG_head) && !page_count(page);
}

/*
 * alloc_and_dissolve_hugetlb_folio: replace the free pool page @old by a
 * fresh one from the buddy allocator (trying hard, this node only) and
 * give @old's pages back to the buddy allocator, so that the range
 * holding it can be taken. 0; -ENOMEM without a replacement; -EAGAIN
 * when @old left the pool meanwhile (the caller looks again).
 */
static int alloc_and_dissolve_huge_page(struct cma_mm *mm, struct cma_page *old)
{
	struct cma_page *new = alloc_buddy_huge_page(mm, page_order(old), NULL);
	bool replaced = false;

	if (!new)
		return -ENOMEM;
	spin_lock(&mm->hugetlb_lock);
	if (huge_page_free(old)) {
		dequeue_huge_page(mm, old);
		enqueue_huge_page(mm, new);
		replaced = true;
	}
	spin_unlock(&mm->hugetlb_lock);
	/* update_and_free_hugetlb_folio: the page, or the unused replacement */
	put_page(mm, replaced ? old : new);
	return replaced ? 0 : -EAGAIN;
}

/*
 * Base pages of a gigantic page (cma_alloc_gigantic_page marks each of
 * its pages, all order 0): hugetlb has no order-0 page size otherwise.
 */
static bool hugetlb_gigantic(struct cma_page *page)
{
	return !page_order(page);
}

/*
 * isolate_or_dissolve_huge_page (5.13, contig_hugetlb) for
 * alloc_contig_range's scan at the hugetlb head @page: an owned page in
 * use is isolated onto @list; a free pool page is replaced by a fresh
 * one and its pages freed (no longer PG_hugetlb then). 0; -EBUSY (not
 * isolated); -ENOMEM for a gigantic page or without a replacement,
 * which ends the range at once.
 */
static int isolate_or_dissolve_huge_page(struct cma_mm *mm, struct cma_page *page,
					  struct page_list *list)
{
	int ret;

	do {
		if (!page_test(page, PG_hugetlb))
			return 0;
		/* the cycle a gigantic page would start: give up at once */
		if (hugetlb_gigantic(page))
			return -ENOMEM;
		if (page_count(page))
			return isolate_hugetlb(mm, page, list) ? 0 : -EBUSY;
		ret = alloc_and_dissolve_huge_page(mm, page);
	} while (ret == -EAGAIN);
	return ret;
}

/*
 * replace_free_hugepage_folios (contig_hugetlb_replace): after
 * alloc_contig_range's migration, replace each free pool page left in
 * [@start, @end) (one freed into the pool when its contents moved to
 * another pool page) by a fresh one. 0, or -ENOMEM without a fresh one.
 */
static int replace_free_huge_pages(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	int ret = 0;

	for (unsigned long pfn = start; pfn < end && !ret; pfn++) {
		struct cma_page *page;

		if (!pfn_valid(mm, pfn))
			continue;
		page = pfn_to_page(mm, pfn);
		if (huge_page_free(page) && !hugetlb_gigantic(page)) {
			do
				ret = alloc_and_dissolve_huge_page(mm, page);
			while (ret == -EAGAIN && huge_page_free(page));
			if (ret == -EAGAIN)
				ret = 0;
		}
	}
	return ret;
}

void hugetlb_init(struct cma_mm *mm)
{
	mm->isolate_or_dissolve_huge_page = isolate_or_dissolve_huge_page;
	mm->replace_free_huge_pages = replace_free_huge_pages;
}

/*
 * A pool page mapped by a fault (hugetlb_no_page): @owner's from now on,
 * and migratable (folio_set_hugetlb_migratable), so that 5.13's
 * alloc_contig_range moves it. Never on an LRU list, and not in
 * NR_ANON_PAGES or NR_FILE_PAGES (swap.c's owner_account).
 */
int cma_huge_page_set_owner(struct cma_mm *mm, struct cma_page *page,
			    const struct cma_owner_ops *ops, void *owner, uint64_t index)
{
	unsigned order;
	int id;

	if (mm_require_phase(mm, MM_BOOTED, "cma_huge_page_set_owner"))
		return -EINVAL;
	order = page ? page_order(page) : 0;
	if (!page || !page_test(page, PG_hugetlb) || !page_test(page, PG_head) || !order ||
	    order >= mm->max_order || page_test(page, PG_movable) || page_count(page) != 1) {
		cma_mm_pr_err(mm, "cma_huge_page_set_owner: not a page of cma_alloc_huge_page held only by its caller\n");
		return -EINVAL;
	}
	if (!ops || !ops->migrate) {
		cma_mm_pr_err(mm, "cma_huge_page_set_owner: owner ops with a migrate callback are required\n");
		return -EINVAL;
	}
	id = owner_ops_id(mm, ops);
	if (id < 0) {
		cma_mm_pr_err(mm, "cma_huge_page_set_owner: more than %d distinct owner ops tables\n",
			  MAX_OWNER_OPS);
		return -EINVAL;
	}
	page->owner = owner;
	page->private = index;
	page_set_field(page, PG_OPS_MASK, PG_OPS_SHIFT, (unsigned)id);
	/* last: isolate_hugetlb reads the owner once it sees the bit */
	page_flags_set(page, PG_movable);
	return 0;
}

/* The hugetlb_cma area's pages of a gigantic page, once the area is active; else NULL. */
static struct cma *hugetlb_cma_of(struct cma_mm *mm)
{
	struct cma *cma = mm->kernel.hugetlb_cma ? mm->cma->hugetlb : NULL;

	return cma && cma_area_count(cma) ? cma : NULL;
}

struct cma_page *cma_alloc_gigantic_page(struct cma_mm *mm, unsigned long nr_pages, cma_gfp_t gfp)
{
	struct cma *cma = hugetlb_cma_of(mm);
	struct cma_page *page = NULL;

	if (mm_require_phase(mm, MM_BOOTED, "cma_alloc_gigantic_page"))
		return NULL;
	/* cma_alloc_folio: a folio's order, its pages aligned to it */
	if (cma && nr_pages && !(nr_pages & (nr_pages - 1)))
		page = cma_alloc(mm, cma, nr_pages, (unsigned)__builtin_ctzl(nr_pages), gfp);
	if (!page)
		page = cma_alloc_contig_pages(mm, nr_pages, gfp, -1);

	/* alloc_contig_pages' pages are order-0 allocations each: each is marked */
	for (unsigned long i = 0; page && i < nr_pages; i++)
		mark_hugetlb(page + i);
	return page;
}

void cma_free_gigantic_page(struct cma_mm *mm, struct cma_page *page, unsigned long nr_pages)
{
	struct cma *cma = hugetlb_cma_of(mm);
	unsigned long pfn;

	if (mm_require_phase(mm, MM_BOOTED, "cma_free_gigantic_page") || !page)
		return;
	pfn = page_to_pfn(mm, page);
	/* hugetlb_free_folio: cma_free_folio when the folio is the area's, else folio_put */
	if (cma && pfn >= cma->base_pfn && pfn < cma->base_pfn + cma->count) {
		cma_release(mm, cma, page, nr_pages);
		return;
	}
	cma_free_contig_range(mm, pfn, nr_pages);
}
