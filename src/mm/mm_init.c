// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's life: create (setup_arch up to memblock), boot
 * (free_area_init, mem_init) and destroy; the flat mem_map and its backing
 * bytes. It sits at the top of src/mm (6.x has mm/mm_init.c for the same
 * reason): it calls down into memblock, page_alloc and the rest, and
 * nothing there calls it.
 *
 * mem_map and the backing bytes are anonymous NORESERVE mappings over the
 * whole pfn span, holes included: a hole costs address space, not memory.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/bitmap.h"
#include "mm/internal.h"

static const char *const zone_names[MAX_NR_ZONES] = {
	"DMA", "DMA32", "Normal", "HighMem", "Movable",
};

static atomic_uint_fast64_t mm_next_id = 1;

/*
 * arm64 came to mainline in 3.7, so only a later profile has it; its
 * zone limits are the architecture's own (arm64 zone_sizes_init), so the
 * config gives at most the firmware's DMA limit (zone_dma_end).
 */
static int check_config_arm64(const struct cma_mm_config *cfg)
{
	if (!kernel_profile_find(cfg->kernel)->arm64) {
		cma_mm_pr_err(NULL, "cma_mm_create: CMA_ARCH_ARM64 needs a kernel that has arm64 (3.7+): kernel '%s' has none: set kernel = \"6.12\"\n",
			  kernel_profile_find(cfg->kernel)->name);
		return -EINVAL;
	}
	if (cfg->zone_dma32_end || cfg->highmem_start) {
		cma_mm_pr_err(NULL, "cma_mm_create: arm64 computes ZONE_DMA32 itself and has no highmem: leave zone_dma32_end and highmem_start 0 (zone_dma_end is the firmware's DMA limit)\n");
		return -EINVAL;
	}
	return 0;
}

/* ---- create ---- */

static int check_config(const struct cma_mm_config *cfg)
{
	unsigned shift = cfg->page_shift ? cfg->page_shift : 12;
	unsigned max_order = cfg->max_order ? cfg->max_order : 11;
	uint64_t page_size = 1ull << shift;
	cma_phys_t prev_end = 0;

	if (!cfg->banks || !cfg->nr_banks) {
		cma_mm_pr_err(NULL, "cma_mm_create: no memory banks: give at least one {base, size}\n");
		return -EINVAL;
	}
	if (shift < 10 || shift > 21) {
		cma_mm_pr_err(NULL, "cma_mm_create: page_shift %u not supported: accepted 10..21 (0 means 12)\n", shift);
		return -EINVAL;
	}
	if (max_order < 1 || max_order > MAX_ORDER_LIMIT) {
		cma_mm_pr_err(NULL, "cma_mm_create: max_order %u not supported: accepted 1..%d (0 means 11)\n",
			  max_order, MAX_ORDER_LIMIT);
		return -EINVAL;
	}
	if (cfg->pageblock_order > max_order - 1) {
		cma_mm_pr_err(NULL, "cma_mm_create: pageblock_order %u is above max_order - 1 (%u)\n",
			  cfg->pageblock_order, max_order - 1);
		return -EINVAL;
	}
	if (!kernel_profile_find(cfg->kernel)) {
		cma_mm_pr_err(NULL, "cma_mm_create: kernel '%s' has no profile: accepted " KERNEL_PROFILES_ACCEPTED
			  " (NULL means 3.5)\n", cfg->kernel);
		return -EINVAL;
	}
	if (cfg->arch != CMA_ARCH_X86 && cfg->arch != CMA_ARCH_ARM && cfg->arch != CMA_ARCH_ARM64) {
		cma_mm_pr_err(NULL, "cma_mm_create: unknown arch %d: accepted CMA_ARCH_X86, CMA_ARCH_ARM, CMA_ARCH_ARM64\n",
			  (int)cfg->arch);
		return -EINVAL;
	}
	if (cfg->arch == CMA_ARCH_ARM64 && check_config_arm64(cfg))
		return -EINVAL;
	for (unsigned i = 0; i < cfg->nr_banks; i++) {
		const struct cma_bank *b = &cfg->banks[i];

		if (!b->size || (b->base | b->size) & (page_size - 1) || b->base + b->size < b->base) {
			cma_mm_pr_err(NULL, "cma_mm_create: bank %u [%#llx + %#llx]: base and size must be multiples of the page size (%#llx), the size non-zero\n",
				  i, (unsigned long long)b->base, (unsigned long long)b->size,
				  (unsigned long long)page_size);
			return -EINVAL;
		}
		if (i && b->base < prev_end) {
			cma_mm_pr_err(NULL, "cma_mm_create: bank %u at %#llx overlaps or precedes bank %u ending at %#llx: banks must be ascending and disjoint\n",
				  i, (unsigned long long)b->base, i - 1, (unsigned long long)prev_end);
			return -EINVAL;
		}
		prev_end = b->base + b->size;
	}
	if ((cfg->zone_dma_end | cfg->zone_dma32_end | cfg->highmem_start) & (page_size - 1)) {
		cma_mm_pr_err(NULL, "cma_mm_create: zone limits must be multiples of the page size\n");
		return -EINVAL;
	}
	if ((cfg->zone_dma_end && cfg->zone_dma32_end && cfg->zone_dma32_end <= cfg->zone_dma_end) ||
	    (cfg->highmem_start && cfg->highmem_start <= (cfg->zone_dma32_end > cfg->zone_dma_end ?
							   cfg->zone_dma32_end : cfg->zone_dma_end))) {
		cma_mm_pr_err(NULL, "cma_mm_create: zone limits must ascend: zone_dma_end < zone_dma32_end < highmem_start\n");
		return -EINVAL;
	}
	/* The swap header's info.last_page is a __u32: one area of at most 2^32 pages. */
	if (cfg->swap_bytes >> shift > SWAP_AREA_MAX_PAGES) {
		cma_mm_pr_err(NULL, "cma_mm_create: swap_bytes %#llx is %llu pages: accepted up to %llu (the swap header's 32-bit last_page)\n",
			  (unsigned long long)cfg->swap_bytes, (unsigned long long)(cfg->swap_bytes >> shift),
			  (unsigned long long)SWAP_AREA_MAX_PAGES);
		return -EINVAL;
	}
	if (cfg->nr_cpus > 256) {
		cma_mm_pr_err(NULL, "cma_mm_create: nr_cpus %u: accepted 1..256 (0 means 1)\n", cfg->nr_cpus);
		return -EINVAL;
	}
	return 0;
}

static char *strdup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

int mm_create(const struct cma_mm_config *cfg, struct cma_mm **mmp)
{
	struct cma_mm *mm;
	int ret;

	if (mmp)
		*mmp = NULL;
	if (!cfg || !mmp) {
		cma_mm_pr_err(NULL, "cma_mm_create: config and result pointer are required\n");
		return -EINVAL;
	}
	ret = check_config(cfg);
	if (ret)
		return ret;

	mm = mm_alloc();
	if (!mm)
		return -ENOMEM;
	pthread_mutex_init(&mm->cma_mutex, NULL);
	pthread_mutex_init(&mm->pcpu_drain_mutex, NULL);
	pthread_mutex_init(&mm->ops_lock, NULL);
	pthread_mutex_init(&mm->fail.lock, NULL);
	trace_lock_init(mm);
	spin_lock_init(&mm->hugetlb_lock);
	for (unsigned o = 0; o < MAX_ORDER_LIMIT; o++)
		page_list_init(&mm->hugetlb_free[o]);
	mm->id = atomic_fetch_add(&mm_next_id, 1);
	mm->arch = cfg->arch;
	mm->kernel = *kernel_profile_find(cfg->kernel);
	mm->watermark_scale_factor = 10;
	mm->page_shift = cfg->page_shift ? cfg->page_shift : 12;
	mm->page_size = 1ull << mm->page_shift;
	mm->max_order = cfg->max_order ? cfg->max_order : 11;
	mm->pageblock_order = cfg->pageblock_order ? cfg->pageblock_order : mm->max_order - 1;
	mm->pageblock_nr_pages = 1ul << mm->pageblock_order;
	mm->metadata_only = cfg->metadata_only;
	mm->nr_cpus = cfg->nr_cpus ? cfg->nr_cpus : 1;
	mm->swap_bytes = cfg->swap_bytes;
	mm->atomic_pool_size = cfg->atomic_pool_size ? cfg->atomic_pool_size : 256 << 10;
	mm->zone_end[ZONE_DMA] = cfg->zone_dma_end;
	mm->zone_end[ZONE_DMA32] = cfg->zone_dma32_end;
	mm->zone_end[ZONE_NORMAL] = cfg->highmem_start;
	mm->cmdline = strdup_or_empty(cfg->cmdline);
	mm->kconfig = strdup_or_empty(cfg->kconfig);
	mm->phase = MM_EARLY;
	ret = -ENOMEM;
	if (!mm->cmdline || !mm->kconfig || swap_init(mm))
		goto fail;
	mm->printk_contig_passes = cfg->printk_contig_passes;
	ret = console_setup(mm);
	if (ret)
		goto fail;
	ret = memblock_init(&mm->memblock, cfg->banks, cfg->nr_banks);
	if (ret)
		goto fail;
	if (cfg->memblock_limit)
		mm->memblock.current_limit = cfg->memblock_limit;
	else if (cfg->arch == CMA_ARCH_ARM && cfg->highmem_start)
		mm->memblock.current_limit = cfg->highmem_start;
	else
		mm->memblock.current_limit = memblock_end_of_DRAM(&mm->memblock);
	*mmp = mm;
	return 0;
fail:
	mm_destroy(mm);
	return ret;
}

/* ---- boot ---- */

static void *map_anon(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static unsigned long align_down(unsigned long x, unsigned long a)
{
	return x & ~(a - 1);
}

static unsigned long align_up(unsigned long x, unsigned long a)
{
	return (x + a - 1) & ~(a - 1);
}

static void set_big_bank(struct cma_mm *mm)
{
	const struct memblock_type *mem = &mm->memblock.memory;

	for (unsigned long i = 0; i < mem->cnt; i++) {
		unsigned long b = mem->regions[i].base >> mm->page_shift;
		unsigned long e = (mem->regions[i].base + mem->regions[i].size) >> mm->page_shift;

		if (e - b > mm->big_bank_nr_pages) {
			mm->big_bank_pfn = b;
			mm->big_bank_nr_pages = e - b;
		}
	}
}

static int alloc_node_mem_map(struct cma_mm *mm)
{
	struct memblock_type *mem = &mm->memblock.memory;
	unsigned long align = max_order_nr_pages(mm) > mm->pageblock_nr_pages ?
			      max_order_nr_pages(mm) : mm->pageblock_nr_pages;
	unsigned long nr;

	mm->base_pfn = align_down(mem->regions[0].base >> mm->page_shift, align);
	mm->end_pfn = align_up(memblock_end_of_DRAM(&mm->memblock) >> mm->page_shift, align);
	set_big_bank(mm);
	nr = mm->end_pfn - mm->base_pfn;
	if (nr > PAGE_NIL) {
		cma_mm_pr_err(mm, "cma_mm_boot: %lu page frames exceed the %u a machine can index\n",
			  nr, PAGE_NIL);
		return -EINVAL;
	}
	mm->mem_map_bytes = nr * sizeof(struct cma_page);
	mm->mem_map = map_anon(mm->mem_map_bytes);
	/*
	 * memmap_init writes all of it and the allocator then reaches it at
	 * random: on huge pages that is a fault per 2 MiB and few TLB misses
	 * (advice only: where THP is off it stays on small pages)
	 */
	if (mm->mem_map)
		madvise(mm->mem_map, mm->mem_map_bytes, MADV_HUGEPAGE);
	mm->pageblock_flags = calloc((nr >> mm->pageblock_order) + 1, 1);
	mm->pageblock_clean = calloc((nr >> mm->pageblock_order) + 1, 1);
	mm->pageblock_skip = calloc((nr >> mm->pageblock_order) + 1, 1);
	mm->touched = calloc(nr + 1, sizeof(*mm->touched));
	mm->untouched = calloc((nr >> mm->pageblock_order) + 1, sizeof(*mm->untouched));
	if (!mm->mem_map || !mm->pageblock_flags || !mm->pageblock_clean || !mm->pageblock_skip ||
	    !mm->touched || !mm->untouched || swap_state_init(mm, nr))
		return -ENOMEM;
	for (unsigned long b = 0; b << mm->pageblock_order < nr; b++) {
		unsigned long first = b << mm->pageblock_order;

		atomic_init(&mm->untouched[b], (unsigned)(nr - first < 1ul << mm->pageblock_order ?
							  nr - first : 1ul << mm->pageblock_order));
	}
	if (!mm->metadata_only) {
		mm->backing_bytes = (size_t)nr << mm->page_shift;
		mm->backing = map_anon(mm->backing_bytes);
		if (!mm->backing)
			return -ENOMEM;
	}
	return 0;
}

static void free_node_mem_map(struct cma_mm *mm)
{
	if (mm->mem_map)
		munmap(mm->mem_map, mm->mem_map_bytes);
	if (mm->backing)
		munmap(mm->backing, mm->backing_bytes);
	swap_state_exit(mm);
	free(mm->pageblock_flags);
	free(mm->pageblock_clean);
	free(mm->pageblock_skip);
	free((void *)mm->touched);
	free((void *)mm->untouched);
	free(mm->slots);
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		free(mm->zones[i].free_heads);
		free(mm->zones[i].block_heads);
		free(mm->zones[i].head_blocks);
		free(mm->zones[i].target_blocks);
		mm->zones[i].free_heads = NULL;
		mm->zones[i].block_heads = NULL;
		mm->zones[i].head_blocks = NULL;
		mm->zones[i].target_blocks = NULL;
	}
	mm->mem_map = NULL;
	mm->backing = NULL;
	mm->pageblock_flags = NULL;
	mm->pageblock_clean = NULL;
	mm->pageblock_skip = NULL;
	mm->touched = NULL;
	mm->untouched = NULL;
	mm->slots = NULL;
}

static unsigned long present_pages_in_range(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	struct memblock_type *mem = &mm->memblock.memory;
	unsigned long present = 0;

	for (unsigned long i = 0; i < mem->cnt; i++) {
		unsigned long b = mem->regions[i].base >> mm->page_shift;
		unsigned long e = (mem->regions[i].base + mem->regions[i].size) >> mm->page_shift;

		b = b > start ? b : start;
		e = e < end ? e : end;
		if (e > b)
			present += e - b;
	}
	return present;
}

/*
 * Each populated zone's free_heads, one bit a pfn of its span, and
 * block_heads, head_blocks and target_blocks: none set.
 */
static int alloc_free_heads(struct cma_mm *mm)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &mm->zones[i];
		unsigned long blocks;

		if (!z->spanned_pages)
			continue;
		blocks = zone_block_index(z, z->zone_start_pfn + z->spanned_pages - 1) + 1;
		z->free_heads = calloc(BITS_TO_LONGS(z->spanned_pages), sizeof(unsigned long));
		z->block_heads = calloc(blocks, sizeof(*z->block_heads));
		z->head_blocks = calloc(BITS_TO_LONGS(blocks), sizeof(unsigned long));
		z->target_blocks = calloc(BITS_TO_LONGS(blocks), sizeof(unsigned long));
		if (!z->free_heads || !z->block_heads || !z->head_blocks || !z->target_blocks)
			return -ENOMEM;
	}
	return 0;
}

/* Zone spans from the configured limits, clamped to memory (free_area_init_nodes). */
static void free_area_init_zones(struct cma_mm *mm)
{
	unsigned long mem_start = mm->memblock.memory.regions[0].base >> mm->page_shift;
	unsigned long mem_end = memblock_end_of_DRAM(&mm->memblock) >> mm->page_shift;
	unsigned long lo = 0;

	cma_mm_printk(mm, "Zone ranges:\n");
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &mm->zones[i];
		unsigned long hi;

		z->mm = mm;
		z->idx = i;
		z->name = zone_names[i];
		spin_lock_init(&z->lock);
		spin_lock_init(&z->lru_lock);
		for (int l = 0; l < NR_LRU_LISTS; l++)
			page_list_init(&z->lru[l]);
		for (unsigned o = 0; o < MAX_ORDER_LIMIT; o++)
			for (int t = 0; t < MIGRATE_TYPES; t++)
				page_list_init(&z->free_area[o].free_list[t]);
		if (i == ZONE_MOVABLE || (i != ZONE_NORMAL && i != ZONE_HIGHMEM && !mm->zone_end[i]))
			continue;
		if (i == ZONE_HIGHMEM && !mm->zone_end[ZONE_NORMAL])
			continue;
		z->configured = true;
		hi = i == ZONE_HIGHMEM || (i == ZONE_NORMAL && !mm->zone_end[ZONE_NORMAL]) ?
		     mem_end : mm->zone_end[i] >> mm->page_shift;
		lo = lo > mem_start ? lo : mem_start;
		hi = hi < mem_end ? hi : mem_end;
		if (hi > lo) {
			z->zone_start_pfn = lo;
			z->spanned_pages = hi - lo;
			z->present_pages = present_pages_in_range(mm, lo, hi);
			reset_cached_positions(z);
			cma_mm_printk(mm, "  %-8s [mem 0x%08llx-0x%08llx]\n", z->name,
				  (unsigned long long)lo << mm->page_shift,
				  ((unsigned long long)hi << mm->page_shift) - 1);
		} else {
			cma_mm_printk(mm, "  %-8s empty\n", z->name);
		}
		lo = hi > lo ? hi : lo;
	}
	cma_mm_printk(mm, "Movable zone start for each node\n");
	cma_mm_printk(mm, "Early memory node ranges\n");
	for (unsigned long i = 0; i < mm->memblock.memory.cnt; i++) {
		struct memblock_region *r = &mm->memblock.memory.regions[i];

		cma_mm_printk(mm, "  node   0: [mem 0x%08llx-0x%08llx]\n", (unsigned long long)r->base,
			  (unsigned long long)(r->base + r->size - 1));
	}
}

/* sizeof(struct page) in the kernel modelled: 64 bytes on x86-64, 32 on 32-bit ARM. */
static unsigned long arch_struct_page_size(const struct cma_mm *mm)
{
	return mm->arch == CMA_ARCH_ARM ? 32 : 64;
}

struct dma_free_count {
	struct cma_mm *mm;
	unsigned long max_dma_pfn, nr_free;
};

static void count_dma_free(void *ctx, cma_phys_t start, cma_phys_t end)
{
	struct dma_free_count *c = ctx;
	unsigned long spfn = (start + c->mm->page_size - 1) >> c->mm->page_shift;
	unsigned long epfn = end >> c->mm->page_shift;

	spfn = spfn < c->max_dma_pfn ? spfn : c->max_dma_pfn;
	epfn = epfn < c->max_dma_pfn ? epfn : c->max_dma_pfn;
	if (epfn > spfn)
		c->nr_free += epfn - spfn;
}

/*
 * memblock_find_dma_reserve: on x86-64 the pages below MAX_DMA_PFN that
 * memblock holds when the zones are sized are taken from ZONE_DMA's
 * present pages (set_dma_reserve). No other architecture sets it.
 */
static unsigned long find_dma_reserve(struct cma_mm *mm)
{
	struct dma_free_count c = { .mm = mm, .max_dma_pfn = mm->zone_end[ZONE_DMA] >> mm->page_shift };
	unsigned long nr_pages;

	if (mm->arch != CMA_ARCH_X86 || !c.max_dma_pfn)
		return 0;
	nr_pages = present_pages_in_range(mm, 0, c.max_dma_pfn);
	memblock_for_each_free_range(&mm->memblock, count_dma_free, &c);
	return nr_pages - c.nr_free;
}

/*
 * free_area_init_core's estimate of what a zone gives the buddy allocator
 * (freesize): its present pages less its own memmap, PAGE_ALIGN(spanned *
 * sizeof(struct page)) in pages, and for the lowest zone less dma_reserve,
 * each printed as it is taken (the pages themselves are reserved by
 * reserve_memmap). From 3.19 (kernel.highmem_memmap_lowmem) a highmem
 * zone's memmap, which lowmem holds, is neither taken nor printed; the
 * warning names the estimate "realsize" in v3.5, "freesize" from 3.8
 * (kernel.memmap_exceeds_freesize). Departure: a zone whose memmap would
 * take all of its pages keeps them (the kernel leaves it unpopulated), as
 * an empty zone here frees nothing.
 */
static unsigned long zone_freesize(struct cma_mm *mm, const struct zone *z, bool lowest,
				   unsigned long dma_reserve)
{
	unsigned long bytes = z->spanned_pages * arch_struct_page_size(mm);
	unsigned long memmap_pages = (bytes + mm->page_size - 1) >> mm->page_shift;
	unsigned long freesize = z->present_pages;

	if (is_highmem(z) && mm->kernel.highmem_memmap_lowmem)
		memmap_pages = 0;
	if (freesize > memmap_pages) {
		freesize -= memmap_pages;
		if (memmap_pages)
			cma_mm_printk(mm, "  %s zone: %lu pages used for memmap\n", z->name, memmap_pages);
	} else if (memmap_pages) {
		cma_mm_printk(mm, "  %s zone: %lu pages exceeds %s %lu\n", z->name, memmap_pages,
			      mm->kernel.memmap_exceeds_freesize ? "freesize" : "realsize", freesize);
	}
	if (lowest && freesize > dma_reserve) {
		freesize -= dma_reserve;
		cma_mm_printk(mm, "  %s zone: %lu pages reserved\n", z->name, dma_reserve);
	}
	return freesize;
}

/*
 * free_area_init_core's sizing. v3.5 stores freesize as the zone's
 * present pages, which the watermarks, lowmem_reserve, the pcp batch and
 * min_free_kbytes read. From 3.9 (kernel.managed_sizing) present pages
 * stay the pages the zone has and freesize is only the managed estimate
 * (highmem's: all of its pages), which the boot pcp batch and
 * build_all_zonelists read until mem_init counts what it frees; from
 * 6.10 (kernel.managed_init_present) the estimate is the present pages,
 * neither memmap nor dma_reserve taken.
 */
static void free_area_init_core(struct cma_mm *mm, unsigned long dma_reserve)
{
	const struct kernel_profile *k = &mm->kernel;
	unsigned long total = 0;
	bool lowest = true;
	struct zone *z;

	for_each_populated_zone(mm, z)
		total += z->present_pages;
	cma_mm_printk(mm, "On node 0 totalpages: %lu\n", total);
	for_each_zone(mm, z) {
		unsigned long freesize;

		if (!z->configured)
			continue;
		freesize = k->managed_init_present ? z->present_pages :
			   zone_freesize(mm, z, lowest, dma_reserve);
		lowest = false;
		if (k->managed_sizing)
			z->managed_pages = is_highmem(z) ? z->present_pages : freesize;
		else
			z->present_pages = freesize;
		if (z->present_pages)
			cma_mm_printk(mm, "  %s zone: %lu pages, LIFO batch:%d\n", z->name, z->present_pages,
				  zone_batchsize(mm, z));
	}
}

/*
 * The memmap's own pages, reserved in memblock as v3.5 allocates them,
 * after the early reservations (CMA areas, the kernel image) and before
 * memory goes to the buddy allocator, so that they never reach it and
 * MemTotal, managed and the boot line's "reserved" leave them out. Our
 * mem_map lives outside the machine: only the accounting is the kernel's.
 *
 * x86-64 (SPARSEMEM_VMEMMAP, sparse_init with ALLOC_MEM_MAP_TOGETHER):
 * every 128 MiB section holding memory gets ALIGN(pages * 64, PMD_SIZE)
 * of memmap, all of them in one PMD-aligned buffer taken top-down above
 * MAX_DMA_ADDRESS (16 MiB) and below memblock's limit, anywhere if
 * nothing fits there (__earlyonly_bootmem_alloc); when no buffer fits,
 * each section alone (vmemmap_alloc_block_buf).
 *
 * 32-bit ARM (FLATMEM, alloc_node_mem_map): one array of 32-byte pages
 * over the node rounded out to MAX_ORDER_NR_PAGES, from bootmem, which
 * in v3.5 ARM takes the lowest fitting lowmem (a first fit, bottom-up)
 * above ZONE_DMA when the board has one (MAX_DMA_ADDRESS is the goal).
 *
 * Only the memmap is taken: the page tables that map the vmemmap and the
 * section bitmaps (a few pages) are not.
 *
 * Departure: the kernel panics (or leaves a section without memmap, its
 * memory unused) when the memmap does not fit; here the machine keeps
 * those pages and says so. free_unused_memmap (ARM, holes between banks)
 * is not modelled: the memmap over a hole stays reserved.
 */
#define X86_SECTION_SHIFT	27
#define X86_PMD_SIZE		(2ull << 20)
#define X86_MAX_DMA_ADDRESS	(16ull << 20)

static bool memblock_has_memory_in(struct memblock *mb, cma_phys_t base, cma_phys_t end)
{
	for (unsigned long i = 0; i < mb->memory.cnt; i++) {
		struct memblock_region *r = &mb->memory.regions[i];

		if (r->base < end && base < r->base + r->size)
			return true;
	}
	return false;
}

/* Below memblock's limit, from @goal, else from the first page (___alloc_bootmem_nopanic). */
static cma_phys_t memmap_alloc(struct cma_mm *mm, uint64_t size, uint64_t align, cma_phys_t goal,
			       bool bottom_up)
{
	struct memblock *mb = &mm->memblock;
	cma_phys_t base;

	/* like memblock_alloc, never the first page: 0 means failure */
	goal = goal > mm->page_size ? goal : mm->page_size;
	base = memblock_find_in_range(mb, size, align, goal, mb->current_limit, bottom_up);
	if (!base && goal > mm->page_size)
		base = memblock_find_in_range(mb, size, align, mm->page_size, mb->current_limit, bottom_up);
	if (base && memblock_add_region(&mb->reserved, base, size))
		base = 0;
	return base;
}

/* Returns false when some section's memmap found no room. */
static bool reserve_vmemmap(struct cma_mm *mm)
{
	uint64_t section = 1ull << X86_SECTION_SHIFT;
	uint64_t per = ((section >> mm->page_shift) * 64 + X86_PMD_SIZE - 1) & ~(X86_PMD_SIZE - 1);
	cma_phys_t first = mm->memblock.memory.regions[0].base & ~(section - 1);
	cma_phys_t end = memblock_end_of_DRAM(&mm->memblock);
	unsigned long nr = 0;
	bool all = true;

	for (cma_phys_t s = first; s < end; s += section)
		nr += memblock_has_memory_in(&mm->memblock, s, s + section);
	if (memmap_alloc(mm, nr * per, X86_PMD_SIZE, X86_MAX_DMA_ADDRESS, false))
		return true;
	for (cma_phys_t s = first; s < end; s += section)
		if (memblock_has_memory_in(&mm->memblock, s, s + section) &&
		    !memmap_alloc(mm, per, X86_PMD_SIZE, X86_MAX_DMA_ADDRESS, false))
			all = false;
	return all;
}

static bool reserve_node_mem_map(struct cma_mm *mm)
{
	unsigned long align = max_order_nr_pages(mm);
	unsigned long start = align_down(mm->memblock.memory.regions[0].base >> mm->page_shift, align);
	unsigned long end = align_up(memblock_end_of_DRAM(&mm->memblock) >> mm->page_shift, align);
	uint64_t size = ((uint64_t)(end - start) * 32 + mm->page_size - 1) & ~(mm->page_size - 1);

	return memmap_alloc(mm, size, mm->page_size, mm->zone_end[ZONE_DMA], true);
}

static void reserve_memmap(struct cma_mm *mm)
{
	bool all;

	if (mm->memmap_reserved)
		return;
	mm->memmap_reserved = true;
	all = mm->arch == CMA_ARCH_ARM ? reserve_node_mem_map(mm) : reserve_vmemmap(mm);
	if (!all)
		cma_mm_printk(mm, "memmap: no room in memblock: its pages stay in the machine\n");
}

/*
 * arm64 (6.12, as Debian builds it: rodata=full, NUMA, 52-bit physical
 * addresses, page_ext), what setup_arch takes from memblock top-down
 * before bootmem_init's reservations, which therefore find the top of
 * memory taken:
 *
 *   paging_init      the linear map at page granularity (rodata=full):
 *                    a PTE table per 2 MiB and a PMD table per 1 GiB of
 *                    each memory region, one page each
 *   arch_numa_init   NODE_DATA(0), sizeof(pg_data_t): 14144 bytes in
 *                    Debian's 6.12.118 arm64 (its boot log's range)
 *
 * Only the memory regions are mapped; page tables of the upper levels,
 * the idmap and the unflattened tree (a few pages) are not taken.
 */
#define ARM64_PMD_SIZE		(2ull << 20)
#define ARM64_PUD_SIZE		(1ull << 30)
#define ARM64_NODE_DATA_BYTES	14144
#define L1_CACHE_BYTES		64

static uint64_t arm64_linear_map_tables(const struct cma_mm *mm)
{
	uint64_t pages = 0;

	for (unsigned long i = 0; i < mm->memblock.memory.cnt; i++) {
		const struct memblock_region *r = &mm->memblock.memory.regions[i];
		cma_phys_t end = r->base + r->size;

		pages += (align_up(end, ARM64_PMD_SIZE) - align_down(r->base, ARM64_PMD_SIZE)) / ARM64_PMD_SIZE;
		pages += (align_up(end, ARM64_PUD_SIZE) - align_down(r->base, ARM64_PUD_SIZE)) / ARM64_PUD_SIZE;
	}
	return pages;
}

void arm64_paging_init(struct cma_mm *mm)
{
	uint64_t tables = arm64_linear_map_tables(mm) << mm->page_shift;

	if (!memblock_alloc_base(mm, tables, mm->page_size, 0) ||
	    !memblock_alloc_base(mm, ARM64_NODE_DATA_BYTES, L1_CACHE_BYTES, 0))
		cma_mm_printk(mm, "paging_init: no room in memblock for the linear map or NODE_DATA\n");
}

/*
 * sparse_init where arm64's bootmem_init calls it, after hugetlb_cma_reserve
 * and before dma_contiguous_reserve: first memblocks_present's root array
 * of mem_section pointers, one per SECTIONS_PER_ROOT sections of the
 * 52-bit physical space (2^25 sections of 128 MiB, 128 32-byte
 * mem_sections a page: 2 MiB), and a page per root holding memory; then
 * the memmap buffer (reserve_vmemmap). The section usage maps (a few
 * hundred bytes) are not taken.
 */
#define ARM64_MAX_PHYSMEM_BITS	52
#define ARM64_MEM_SECTION_BYTES	32

void arm64_sparse_init(struct cma_mm *mm)
{
	uint64_t per_root = mm->page_size / ARM64_MEM_SECTION_BYTES;
	uint64_t roots = (1ull << (ARM64_MAX_PHYSMEM_BITS - X86_SECTION_SHIFT)) / per_root;
	uint64_t root_span = per_root << X86_SECTION_SHIFT;
	cma_phys_t end = memblock_end_of_DRAM(&mm->memblock);

	if (!memblock_alloc_base(mm, roots * sizeof(void *), L1_CACHE_BYTES, 0))
		cma_mm_printk(mm, "sparse_init: no room in memblock for mem_section\n");
	for (cma_phys_t r = align_down(mm->memblock.memory.regions[0].base, root_span); r < end; r += root_span)
		if (memblock_has_memory_in(&mm->memblock, r, r + root_span))
			memblock_alloc_base(mm, mm->page_size, mm->page_size, 0);
	reserve_memmap(mm);
}

/* memmap_init_zone: every valid page reserved and in its zone; pageblocks MOVABLE. */
static void memmap_init(struct cma_mm *mm)
{
	struct zone *z;

	for_each_populated_zone(mm, z) {
		unsigned long end = z->zone_start_pfn + z->spanned_pages;

		for (unsigned long pfn = z->zone_start_pfn; pfn < end; pfn++) {
			struct cma_page *page;

			if (!pfn_valid(mm, pfn))
				continue;
			page = pfn_to_page(mm, pfn);
			page_flags_store(page, PG_reserved | ((uint32_t)z->idx << PG_ZONE_SHIFT));
			set_page_count(page, 1);
			page->next = page->prev = PAGE_NIL;
			if (!(pfn & (mm->pageblock_nr_pages - 1)) || pfn == z->zone_start_pfn)
				set_pageblock_migratetype(mm, pfn, MIGRATE_MOVABLE);
		}
	}
}

/* build_all_zonelists: grouping by mobility is pointless below this many pages. */
static void build_all_zonelists(struct cma_mm *mm)
{
	unsigned long total = nr_free_pagecache_pages(mm);

	mm->page_group_by_mobility_disabled =
		total < mm->pageblock_nr_pages * MIGRATE_TYPES;
	cma_mm_printk(mm, "Built 1 zonelists in Zone order, mobility grouping %s.  Total pages: %lu\n",
		  mm->page_group_by_mobility_disabled ? "off" : "on", total);
}

static void free_range_cb(void *ctx, cma_phys_t start, cma_phys_t end)
{
	struct cma_mm *mm = ctx;
	unsigned long spfn = (start + mm->page_size - 1) >> mm->page_shift;
	unsigned long epfn = end >> mm->page_shift;

	if (epfn > spfn)
		free_bootmem_range(mm, spfn, epfn);
}

static void mem_init(struct cma_mm *mm)
{
	unsigned long reserved;

	memblock_for_each_free_range(&mm->memblock, free_range_cb, mm);
	reserved = (memblock_phys_mem_size(&mm->memblock) >> mm->page_shift) - mm->totalram_pages;
	cma_mm_printk(mm, "Memory: %lluk/%lluk available, %lluk reserved\n",
		  (unsigned long long)mm->totalram_pages << (mm->page_shift - 10),
		  (unsigned long long)memblock_phys_mem_size(&mm->memblock) >> 10,
		  (unsigned long long)reserved << (mm->page_shift - 10));
}

int mm_boot_memory(struct cma_mm *mm)
{
	unsigned long dma_reserve;
	struct zone *z;
	int ret = alloc_node_mem_map(mm);

	if (ret)
		goto fail;
	mm->slots = aligned_alloc(64, mm->nr_cpus * sizeof(struct cpu_slot));
	if (!mm->slots) {
		ret = -ENOMEM;
		goto fail;
	}
	memset(mm->slots, 0, mm->nr_cpus * sizeof(struct cpu_slot));
	/* x86-64: memblock_find_dma_reserve runs before paging_init allocates the vmemmap */
	dma_reserve = find_dma_reserve(mm);
	reserve_memmap(mm);
	free_area_init_zones(mm);
	ret = alloc_free_heads(mm);
	if (ret)
		goto fail;
	free_area_init_core(mm, dma_reserve);
	build_all_zonelists(mm);
	memmap_init(mm);
	zone_pcp_init(mm);
	mm->phase = MM_BOOTED;
	/* reset_all_zones_managed_pages: the estimate gives way to what mem_init frees */
	for_each_zone(mm, z)
		z->managed_pages = 0;
	mem_init(mm);
	/* setup_per_cpu_pageset: the batch from what the zones manage now, CMA areas not yet */
	zone_pcp_update(mm);
	return 0;
fail:
	/* back to a clean early machine: boot may be retried after freeing memory */
	free_node_mem_map(mm);
	return ret;
}

void mm_destroy(struct cma_mm *mm)
{
	if (!mm)
		return;
	cma_kswapd_stop(mm);	/* before anything its thread touches goes */
	free_node_mem_map(mm);
	memblock_free_all(&mm->memblock);
	swap_exit(mm);
	free(mm->cmdline);
	free(mm->kconfig);
	pthread_mutex_destroy(&mm->cma_mutex);
	pthread_mutex_destroy(&mm->pcpu_drain_mutex);
	pthread_mutex_destroy(&mm->ops_lock);
	pthread_mutex_destroy(&mm->fail.lock);
	pthread_rwlock_destroy(&mm->trace_lock);
	mm_free(mm);
}
