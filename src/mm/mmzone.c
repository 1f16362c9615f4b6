// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's life: create (setup_arch up to memblock), boot
 * (free_area_init, mem_init, the initcalls) and destroy; the flat mem_map
 * and its backing bytes; pfn <-> page; the per-CPU slots and which one a
 * thread uses; the kernel log.
 *
 * mem_map and the backing bytes are anonymous NORESERVE mappings over the
 * whole pfn span, holes included: a hole costs address space, not memory.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mm/internal.h"

static const char *const zone_names[MAX_NR_ZONES] = {
	"DMA", "DMA32", "Normal", "HighMem", "Movable",
};

static atomic_uint_fast64_t mm_next_id = 1;

_Thread_local struct cpu_binding cpu_binding;

void cma_bug(const char *file, int line, const char *cond)
{
	fprintf(stderr, "libcma: BUG at %s:%d: %s\n", file, line, cond);
	abort();
}

/* ---- the kernel log ---- */

struct printk_log {
	pthread_mutex_t lock;
	char *buf;
	size_t len, cap;
};

static struct printk_log *mm_log(struct cma_mm *mm);

static void log_append(struct printk_log *log, const char *s, size_t n)
{
	pthread_mutex_lock(&log->lock);
	if (log->len + n + 1 > log->cap) {
		size_t cap = (log->len + n + 1) * 2;
		char *buf = realloc(log->buf, cap);

		if (!buf)
			goto out;
		log->buf = buf;
		log->cap = cap;
	}
	memcpy(log->buf + log->len, s, n);
	log->len += n;
	log->buf[log->len] = '\0';
out:
	pthread_mutex_unlock(&log->lock);
}

static void vprintk(struct cma_mm *mm, bool err, const char *fmt, va_list ap)
{
	char line[512];
	int n = vsnprintf(line, sizeof(line), fmt, ap);

	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	if (mm)
		log_append(mm_log(mm), line, n);
	if (!mm || (err && !mm->quiet))
		fputs(line, stderr);
}

void mm_printk(struct cma_mm *mm, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintk(mm, false, fmt, ap);
	va_end(ap);
}

void mm_pr_err(struct cma_mm *mm, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintk(mm, true, fmt, ap);
	va_end(ap);
}

int cma_mm_dmesg(struct cma_mm *mm, FILE *out)
{
	struct printk_log *log = mm_log(mm);
	int ret = 0;

	pthread_mutex_lock(&log->lock);
	if (log->len && fwrite(log->buf, 1, log->len, out) != log->len)
		ret = -EIO;
	pthread_mutex_unlock(&log->lock);
	return ret;
}

/* ---- pfns, zones, slots ---- */

bool __pfn_valid(const struct cma_mm *mm, unsigned long pfn)
{
	const struct memblock_type *mem = &mm->memblock.memory;
	unsigned long lo = 0, hi = mem->cnt;

	if (pfn < mm->base_pfn || pfn >= mm->end_pfn)
		return false;
	/* binary search: banks are sorted and disjoint */
	while (lo < hi) {
		unsigned long mid = (lo + hi) / 2;
		cma_phys_t base = mem->regions[mid].base >> mm->page_shift;
		cma_phys_t end = (mem->regions[mid].base + mem->regions[mid].size) >> mm->page_shift;

		if (pfn < base)
			hi = mid;
		else if (pfn >= end)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

struct zone *pfn_zone(struct cma_mm *mm, unsigned long pfn)
{
	struct zone *z;

	for_each_populated_zone(mm, z)
		if (zone_spans_pfn(z, pfn))
			return z;
	return NULL;
}

void cma_mm_bind_cpu(struct cma_mm *mm, unsigned cpu)
{
	if (cpu >= mm->nr_cpus) {
		mm_pr_err(mm, "cma_mm_bind_cpu: cpu %u out of range: this machine has %u (0..%u)\n",
			  cpu, mm->nr_cpus, mm->nr_cpus - 1);
		return;
	}
	cpu_binding.mm_id = mm->id;
	cpu_binding.cpu = cpu;
}

/* mm_require_phase() found @mm missing or in the other phase. */
int mm_phase_error(struct cma_mm *mm, enum mm_phase phase, const char *what)
{
	mm_pr_err(mm, "%s: only valid %s\n", what,
		  phase == MM_EARLY ? "before cma_mm_boot() (early boot)" : "after cma_mm_boot()");
	return -EINVAL;
}

/* ---- page API ---- */

unsigned long cma_page_to_pfn(struct cma_mm *mm, const struct cma_page *page)
{
	return page_to_pfn(mm, page);
}

struct cma_page *cma_pfn_to_page(struct cma_mm *mm, unsigned long pfn)
{
	if (mm->phase != MM_BOOTED || !pfn_valid(mm, pfn))
		return NULL;
	return pfn_to_page(mm, pfn);
}

void *cma_page_address(struct cma_mm *mm, const struct cma_page *page)
{
	if (!mm->backing || !page)
		return NULL;
	return mm->backing + (page_idx(mm, page) << mm->page_shift);
}

struct cma_page *cma_page_nth(struct cma_mm *mm, struct cma_page *page, unsigned long n)
{
	return page + n;
}

/* ---- create ---- */

static int check_config(const struct cma_mm_config *cfg)
{
	unsigned shift = cfg->page_shift ? cfg->page_shift : 12;
	unsigned max_order = cfg->max_order ? cfg->max_order : 11;
	uint64_t page_size = 1ull << shift;
	cma_phys_t prev_end = 0;

	if (!cfg->banks || !cfg->nr_banks) {
		mm_pr_err(NULL, "cma_mm_create: no memory banks: give at least one {base, size}\n");
		return -EINVAL;
	}
	if (shift < 10 || shift > 21) {
		mm_pr_err(NULL, "cma_mm_create: page_shift %u not supported: accepted 10..21 (0 means 12)\n", shift);
		return -EINVAL;
	}
	if (max_order < 1 || max_order > MAX_ORDER_LIMIT) {
		mm_pr_err(NULL, "cma_mm_create: max_order %u not supported: accepted 1..%d (0 means 11)\n",
			  max_order, MAX_ORDER_LIMIT);
		return -EINVAL;
	}
	if (cfg->pageblock_order > max_order - 1) {
		mm_pr_err(NULL, "cma_mm_create: pageblock_order %u is above max_order - 1 (%u)\n",
			  cfg->pageblock_order, max_order - 1);
		return -EINVAL;
	}
	if (cfg->arch != CMA_ARCH_X86 && cfg->arch != CMA_ARCH_ARM) {
		mm_pr_err(NULL, "cma_mm_create: unknown arch %d: accepted CMA_ARCH_X86, CMA_ARCH_ARM\n",
			  (int)cfg->arch);
		return -EINVAL;
	}
	for (unsigned i = 0; i < cfg->nr_banks; i++) {
		const struct cma_bank *b = &cfg->banks[i];

		if (!b->size || (b->base | b->size) & (page_size - 1) || b->base + b->size < b->base) {
			mm_pr_err(NULL, "cma_mm_create: bank %u [%#llx + %#llx]: base and size must be non-zero multiples of the page size (%#llx)\n",
				  i, (unsigned long long)b->base, (unsigned long long)b->size,
				  (unsigned long long)page_size);
			return -EINVAL;
		}
		if (i && b->base < prev_end) {
			mm_pr_err(NULL, "cma_mm_create: bank %u at %#llx overlaps or precedes bank %u ending at %#llx: banks must be ascending and disjoint\n",
				  i, (unsigned long long)b->base, i - 1, (unsigned long long)prev_end);
			return -EINVAL;
		}
		prev_end = b->base + b->size;
	}
	if ((cfg->zone_dma_end | cfg->zone_dma32_end | cfg->highmem_start) & (page_size - 1)) {
		mm_pr_err(NULL, "cma_mm_create: zone limits must be multiples of the page size\n");
		return -EINVAL;
	}
	if ((cfg->zone_dma_end && cfg->zone_dma32_end && cfg->zone_dma32_end <= cfg->zone_dma_end) ||
	    (cfg->highmem_start && cfg->highmem_start <= (cfg->zone_dma32_end > cfg->zone_dma_end ?
							   cfg->zone_dma32_end : cfg->zone_dma_end))) {
		mm_pr_err(NULL, "cma_mm_create: zone limits must ascend: zone_dma_end < zone_dma32_end < highmem_start\n");
		return -EINVAL;
	}
	if (cfg->nr_cpus > 256) {
		mm_pr_err(NULL, "cma_mm_create: nr_cpus %u: accepted 1..256 (0 means 1)\n", cfg->nr_cpus);
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
		mm_pr_err(NULL, "cma_mm_create: config and result pointer are required\n");
		return -EINVAL;
	}
	ret = check_config(cfg);
	if (ret)
		return ret;

	mm = calloc(1, sizeof(*mm) + sizeof(struct printk_log));
	if (!mm)
		return -ENOMEM;
	pthread_mutex_init(&mm_log(mm)->lock, NULL);
	pthread_mutex_init(&mm->cma_mutex, NULL);
	pthread_mutex_init(&mm->ops_lock, NULL);
	pthread_mutex_init(&mm->fail.lock, NULL);
	mm->id = atomic_fetch_add(&mm_next_id, 1);
	mm->arch = cfg->arch;
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
	if (!mm->cmdline || !mm->kconfig)
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

static struct printk_log *mm_log(struct cma_mm *mm)
{
	return (struct printk_log *)(mm + 1);
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
		mm_pr_err(mm, "cma_mm_boot: %lu page frames exceed the %u a machine can index\n",
			  nr, PAGE_NIL);
		return -EINVAL;
	}
	mm->mem_map_bytes = nr * sizeof(struct cma_page);
	mm->mem_map = map_anon(mm->mem_map_bytes);
	mm->pageblock_flags = calloc((nr >> mm->pageblock_order) + 1, 1);
	mm->pageblock_clean = calloc((nr >> mm->pageblock_order) + 1, 1);
	if (!mm->mem_map || !mm->pageblock_flags || !mm->pageblock_clean)
		return -ENOMEM;
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
	free(mm->pageblock_flags);
	free(mm->pageblock_clean);
	free(mm->slots);
	mm->mem_map = NULL;
	mm->backing = NULL;
	mm->pageblock_flags = NULL;
	mm->pageblock_clean = NULL;
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

/* Zone spans from the configured limits, clamped to memory (free_area_init_nodes). */
static void free_area_init_zones(struct cma_mm *mm)
{
	unsigned long mem_start = mm->memblock.memory.regions[0].base >> mm->page_shift;
	unsigned long mem_end = memblock_end_of_DRAM(&mm->memblock) >> mm->page_shift;
	unsigned long lo = 0;

	mm_printk(mm, "Zone ranges:\n");
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
			mm_printk(mm, "  %-8s [mem 0x%08llx-0x%08llx]\n", z->name,
				  (unsigned long long)lo << mm->page_shift,
				  ((unsigned long long)hi << mm->page_shift) - 1);
		} else {
			mm_printk(mm, "  %-8s empty\n", z->name);
		}
		lo = hi > lo ? hi : lo;
	}
	mm_printk(mm, "Movable zone start for each node\n");
	mm_printk(mm, "Early memory node ranges\n");
	for (unsigned long i = 0; i < mm->memblock.memory.cnt; i++) {
		struct memblock_region *r = &mm->memblock.memory.regions[i];

		mm_printk(mm, "  node   0: [mem 0x%08llx-0x%08llx]\n", (unsigned long long)r->base,
			  (unsigned long long)(r->base + r->size - 1));
	}
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
	mm_printk(mm, "Built 1 zonelists in Zone order, mobility grouping %s.  Total pages: %lu\n",
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
	mm_printk(mm, "Memory: %lluk/%lluk available, %lluk reserved\n",
		  (unsigned long long)mm->totalram_pages << (mm->page_shift - 10),
		  (unsigned long long)memblock_phys_mem_size(&mm->memblock) >> 10,
		  (unsigned long long)reserved << (mm->page_shift - 10));
}

int mm_boot_memory(struct cma_mm *mm)
{
	int ret = alloc_node_mem_map(mm);

	if (ret)
		goto fail;
	mm->slots = aligned_alloc(64, mm->nr_cpus * sizeof(struct cpu_slot));
	if (!mm->slots) {
		ret = -ENOMEM;
		goto fail;
	}
	memset(mm->slots, 0, mm->nr_cpus * sizeof(struct cpu_slot));
	free_area_init_zones(mm);
	build_all_zonelists(mm);
	memmap_init(mm);
	zone_pcp_init(mm);
	mm->phase = MM_BOOTED;
	mem_init(mm);
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
	free(mm->cmdline);
	free(mm->kconfig);
	pthread_mutex_destroy(&mm->cma_mutex);
	pthread_mutex_destroy(&mm->ops_lock);
	pthread_mutex_destroy(&mm->fail.lock);
	pthread_mutex_destroy(&mm_log(mm)->lock);
	free(mm_log(mm)->buf);
	free(mm);
}
