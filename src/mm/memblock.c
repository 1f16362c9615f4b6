// SPDX-License-Identifier: GPL-2.0
/*
 * memblock: the boot-time allocator. Two sorted arrays of disjoint
 * regions, memory and reserved; allocation searches the memory not
 * reserved from the top down, below a limit, as the kernel's
 * memblock_find_in_range does (bottom-up only for the memmap of 32-bit
 * ARM, which v3.5 takes from bootmem).
 */
#include <stdlib.h>
#include <string.h>

#include "mm/internal.h"

static int memblock_grow(struct memblock_type *type)
{
	unsigned long max = type->max ? type->max * 2 : 16;
	struct memblock_region *r = realloc(type->regions, max * sizeof(*r));

	if (!r)
		return -ENOMEM;
	type->regions = r;
	type->max = max;
	return 0;
}

/*
 * Add [base, base + size) to @type, merging it with every region it
 * overlaps or touches, so that regions stay sorted and disjoint.
 */
int memblock_add_region(struct memblock_type *type, cma_phys_t base, uint64_t size)
{
	cma_phys_t end = base + size;
	unsigned long first, last;

	if (!size)
		return 0;
	if (end < base)
		return -EINVAL;
	if (type->cnt == type->max && memblock_grow(type))
		return -ENOMEM;

	/* first region that ends at or after base; last that starts at or before end */
	for (first = 0; first < type->cnt; first++)
		if (type->regions[first].base + type->regions[first].size >= base)
			break;
	for (last = first; last < type->cnt; last++)
		if (type->regions[last].base > end)
			break;

	if (first < last) {
		cma_phys_t lo = type->regions[first].base;
		cma_phys_t hi = type->regions[last - 1].base + type->regions[last - 1].size;

		base = lo < base ? lo : base;
		end = hi > end ? hi : end;
		memmove(&type->regions[first + 1], &type->regions[last],
			(type->cnt - last) * sizeof(type->regions[0]));
		type->cnt -= last - first - 1;
	} else {
		memmove(&type->regions[first + 1], &type->regions[first],
			(type->cnt - first) * sizeof(type->regions[0]));
		type->cnt++;
	}
	type->regions[first].base = base;
	type->regions[first].size = end - base;
	return 0;
}

/*
 * Take [base, base + size) out of @type: a region inside it goes, one
 * across an end is cut there, one around it splits in two (the one case
 * that needs a slot more, found before anything changes).
 */
int memblock_remove_region(struct memblock_type *type, cma_phys_t base, uint64_t size)
{
	cma_phys_t end = base + size;
	unsigned long i = 0;

	if (!size)
		return 0;
	if (end < base)
		return -EINVAL;
	for (unsigned long k = 0; k < type->cnt; k++) {
		struct memblock_region *r = &type->regions[k];

		if (r->base < base && r->base + r->size > end && type->cnt == type->max &&
		    memblock_grow(type))
			return -ENOMEM;
	}
	while (i < type->cnt) {
		struct memblock_region *r = &type->regions[i];
		cma_phys_t r_end = r->base + r->size;

		if (r_end <= base || r->base >= end) {
			i++;
		} else if (r->base < base && r_end > end) {
			memmove(r + 1, r, (type->cnt - i) * sizeof(*r));
			type->cnt++;
			r->size = base - r->base;
			r[1].base = end;
			r[1].size = r_end - end;
			return 0;
		} else if (r->base < base) {
			r->size = base - r->base;
			i++;
		} else if (r_end > end) {
			r->size = r_end - end;
			r->base = end;
			i++;
		} else {
			memmove(r, r + 1, (type->cnt - i - 1) * sizeof(*r));
			type->cnt--;
		}
	}
	return 0;
}

int memblock_init(struct memblock *mb, const struct cma_bank *banks, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++) {
		int ret = memblock_add_region(&mb->memory, banks[i].base, banks[i].size);

		if (ret)
			return ret;
	}
	return 0;
}

void memblock_free_all(struct memblock *mb)
{
	free(mb->memory.regions);
	free(mb->reserved.regions);
	memset(mb, 0, sizeof(*mb));
}

static bool regions_overlap(cma_phys_t b1, uint64_t s1, cma_phys_t b2, uint64_t s2)
{
	return b1 < b2 + s2 && b2 < b1 + s1;
}

bool memblock_is_region_reserved(struct memblock *mb, cma_phys_t base, uint64_t size)
{
	for (unsigned long i = 0; i < mb->reserved.cnt; i++)
		if (regions_overlap(base, size, mb->reserved.regions[i].base,
				    mb->reserved.regions[i].size))
			return true;
	return false;
}

bool memblock_is_memory(struct memblock *mb, cma_phys_t addr)
{
	for (unsigned long i = 0; i < mb->memory.cnt; i++) {
		struct memblock_region *r = &mb->memory.regions[i];

		if (addr >= r->base && addr - r->base < r->size)
			return true;
	}
	return false;
}

cma_phys_t memblock_phys_mem_size(struct memblock *mb)
{
	cma_phys_t total = 0;

	for (unsigned long i = 0; i < mb->memory.cnt; i++)
		total += mb->memory.regions[i].size;
	return total;
}

cma_phys_t memblock_end_of_DRAM(struct memblock *mb)
{
	struct memblock_region *r;

	if (!mb->memory.cnt)
		return 0;
	r = &mb->memory.regions[mb->memory.cnt - 1];
	return r->base + r->size;
}

/*
 * Free ranges are memory minus reserved; both arrays are sorted and
 * disjoint, so one merge-like walk finds them in ascending order.
 */
void memblock_for_each_free_range(struct memblock *mb,
				  void (*fn)(void *ctx, cma_phys_t start, cma_phys_t end), void *ctx)
{
	unsigned long ri = 0;

	for (unsigned long mi = 0; mi < mb->memory.cnt; mi++) {
		cma_phys_t start = mb->memory.regions[mi].base;
		cma_phys_t end = start + mb->memory.regions[mi].size;

		while (start < end) {
			struct memblock_region *r;

			while (ri < mb->reserved.cnt &&
			       mb->reserved.regions[ri].base + mb->reserved.regions[ri].size <= start)
				ri++;
			r = ri < mb->reserved.cnt ? &mb->reserved.regions[ri] : NULL;
			if (!r || r->base >= end) {
				fn(ctx, start, end);
				break;
			}
			if (r->base > start)
				fn(ctx, start, r->base);
			start = r->base + r->size;
		}
	}
}

struct find_ctx {
	uint64_t size, align;
	cma_phys_t start, limit;
	bool bottom_up;
	cma_phys_t found;		/* best fitting base so far, 0 for none */
};

static void find_in_free_range(void *data, cma_phys_t lo, cma_phys_t hi)
{
	struct find_ctx *c = data;
	cma_phys_t cand;

	lo = lo > c->start ? lo : c->start;
	hi = hi < c->limit ? hi : c->limit;
	if (hi <= lo || hi - lo < c->size)
		return;
	if (c->bottom_up) {
		/* ranges come in ascending order: the first fit is the lowest */
		cand = (lo + c->align - 1) & ~(c->align - 1);
		if (!c->found && cand >= lo && cand <= hi - c->size)
			c->found = cand;
		return;
	}
	cand = (hi - c->size) & ~(c->align - 1);
	if (cand >= lo && cand > c->found)
		c->found = cand;
}

/*
 * The highest (or, bottom_up, the lowest) aligned free range of @size in
 * [start, limit): memblock_find_in_range's top-down search, and the
 * first fit of the bootmem allocator. 0 when nothing fits.
 */
cma_phys_t memblock_find_in_range(struct memblock *mb, uint64_t size, uint64_t align,
				  cma_phys_t start, cma_phys_t limit, bool bottom_up)
{
	struct find_ctx c = { size, align, start, limit, bottom_up, 0 };

	memblock_for_each_free_range(mb, find_in_free_range, &c);
	return c.found;
}

cma_phys_t memblock_alloc_base(struct cma_mm *mm, uint64_t size, uint64_t align, cma_phys_t limit)
{
	cma_phys_t base;

	if (!size || (align & (align - 1))) {
		cma_mm_printk(mm, "memblock: alloc of %#llx bytes aligned to %#llx refused: size must be non-zero and alignment a power of two\n",
			  (unsigned long long)size, (unsigned long long)align);
		return 0;
	}
	if (!align)
		align = 1;
	if (size > UINT64_MAX - align)
		return 0;
	size = (size + align - 1) & ~(align - 1);
	if (!limit)
		limit = mm->memblock.current_limit;
	/* like the kernel, never hand out the first page: 0 means failure */
	base = memblock_find_in_range(&mm->memblock, size, align, mm->page_size, limit, false);
	if (!base || memblock_add_region(&mm->memblock.reserved, base, size))
		return 0;
	return base;
}

/* memblock_alloc_range_nid: a free aligned range in [@start, @end), reserved; 0 if none. */
cma_phys_t memblock_alloc_range(struct cma_mm *mm, uint64_t size, uint64_t align,
				cma_phys_t start, cma_phys_t end, bool bottom_up)
{
	cma_phys_t addr;

	if (start < mm->page_size)
		start = mm->page_size;
	addr = memblock_find_in_range(&mm->memblock, size, align, start, end, bottom_up);
	if (!addr || memblock_add_region(&mm->memblock.reserved, addr, size))
		return 0;
	return addr;
}

/* memblock_phys_alloc_range, as of_reserved_mem places a node's dynamic region. */
cma_phys_t cma_memblock_alloc_range(struct cma_mm *mm, uint64_t size, uint64_t align,
				    cma_phys_t start, cma_phys_t end, bool bottom_up)
{
	if (mm_require_phase(mm, MM_EARLY, "memblock_phys_alloc_range"))
		return 0;
	if (!size || (align & (align - 1)) || size > UINT64_MAX - align)
		return 0;
	if (!align)
		align = 1;
	if (!end)
		end = memblock_end_of_DRAM(&mm->memblock);
	return memblock_alloc_range(mm, size, align, start, end, bottom_up);
}

cma_phys_t cma_memblock_alloc_base(struct cma_mm *mm, uint64_t size, uint64_t align,
				   cma_phys_t limit)
{
	if (mm_require_phase(mm, MM_EARLY, "memblock_alloc_base"))
		return 0;
	return memblock_alloc_base(mm, size, align, limit);
}

/* An early call's range: 0, or -EINVAL after saying that it is the wrong phase or wraps. */
static int early_range_check(struct cma_mm *mm, const char *fn, const char *what, cma_phys_t base,
			     uint64_t size)
{
	int ret = mm_require_phase(mm, MM_EARLY, fn);

	if (ret)
		return ret;
	if (base + size < base) {
		cma_mm_printk(mm, "memblock: %s [%#llx + %#llx] wraps around the address space\n", what,
			  (unsigned long long)base, (unsigned long long)size);
		return -EINVAL;
	}
	return 0;
}

int cma_memblock_reserve(struct cma_mm *mm, cma_phys_t base, uint64_t size)
{
	int ret = early_range_check(mm, "memblock_reserve", "reserve", base, size);

	return ret ? ret : memblock_add_region(&mm->memblock.reserved, base, size);
}

int cma_memblock_phys_free(struct cma_mm *mm, cma_phys_t base, uint64_t size)
{
	int ret = early_range_check(mm, "memblock_phys_free", "free", base, size);

	return ret ? ret : memblock_remove_region(&mm->memblock.reserved, base, size);
}
