// SPDX-License-Identifier: GPL-2.0
/*
 * Booting a device tree's reserved memory as Linux 6.12 does
 * (drivers/of/of_reserved_mem.c, kernel/dma/contiguous.c rmem_cma_setup,
 * kernel/dma/coherent.c rmem_dma_setup), in its order:
 *
 *   fdt_scan_reserved_mem      static regions (reg) reserved, or marked
 *                              no-map; then the dynamic ones (size,
 *                              alignment, alloc-ranges) placed and each
 *                              initialized at once
 *   /memreserve/               the header's ranges reserved
 *   unflatten_device_tree      the static regions initialized, in tree order
 *   dma_contiguous_reserve     (cma_mm_boot) the cma= or Kconfig default
 *                              area, unless linux,cma-default gave one
 *   device probe               each device's memory-region assigned
 *
 * Initializing a shared-dma-pool region: reusable and mapped, a CMA area
 * (cma_init_reserved_mem), the default one with linux,cma-default unless
 * cma= is on the command line ("bypass"); not reusable, a coherent pool
 * (on 32-bit ARM only with no-map). A no-map region never reaches the
 * page allocator: here it is reserved in memblock.
 *
 * A region whose initialization fails ("compatible matching fail": a
 * linux,cma-default bypassed by cma=, a pool the architecture refuses)
 * is given back, as fdt_init_reserved_mem_node does: memblock_phys_free,
 * or for a static no-map one memblock_clear_nomap; a dynamic no-map one
 * was also reserved when placed, and stays so.
 *
 * Departures: 32-bit ARM reserves the default area before the static
 * regions are initialized (arm_memblock_init runs before
 * unflatten_device_tree), so a static linux,cma-default region there
 * leaves two areas, the tree's the default; we initialize static regions
 * before the default area on both architectures. Nothing is remapped for
 * ARM (dma_contiguous_early_fixup).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "board/platform.h"

#define MiB (1ull << 20)
#define KiB (1ull << 10)
#define SMP_CACHE_BYTES 64	/* L1_CACHE_BYTES of arm64 and ARMv7 */

struct rmem_boot {
	struct cma_mm *mm;
	const struct platform *p;
	uint64_t cma_align;	/* CMA_MIN_ALIGNMENT_BYTES: a pageblock */
	int w;			/* %pa's digits */
	bool cmdline_cma;	/* size_cmdline != -1 */
	cma_phys_t base[PLATFORM_MAX_RMEM];	/* where each region is; 0: nowhere (yet) */
	uint64_t size[PLATFORM_MAX_RMEM];
	struct cma *cma[PLATFORM_MAX_RMEM];
};

#define rpr(b, ...) cma_mm_printk((b)->mm, "OF: reserved mem: " __VA_ARGS__)
#define rpr_err(b, ...) cma_mm_pr_err((b)->mm, "OF: reserved mem: " __VA_ARGS__)

void platform_cmdline_drop_cma(char *cmdline)
{
	size_t n = 0;

	for (const char *t = cmdline; *t;) {
		const char *end = t;
		bool quoted = false;

		if (*t == ' ' || *t == '\t') {
			t++;
			continue;
		}
		for (; *end && (quoted || (*end != ' ' && *end != '\t')); end++)
			if (*end == '"')
				quoted = !quoted;
		/* the kept tokens move down over the dropped ones: the write never passes the read */
		if (strncmp(t, "cma=", 4)) {
			if (n)
				cmdline[n++] = ' ';
			memmove(cmdline + n, t, (size_t)(end - t));
			n += (size_t)(end - t);
		}
		t = end;
	}
	cmdline[n] = '\0';
}

bool platform_cmdline_cma(const char *cmdline)
{
	for (const char *s = cmdline; (s = strstr(s, "cma=")); s++)
		if (s == cmdline || s[-1] == ' ')
			return true;
	return false;
}

/* rmem_cma_setup: 0, or -errno (the caller tries the next setup). */
static int rmem_cma_setup(struct rmem_boot *b, unsigned i)
{
	const struct platform_rmem *m = &b->p->rmem[i];
	int ret;

	if (b->cmdline_cma && m->cma_default) {
		cma_mm_printk(b->mm, "Reserved memory: bypass %s node, using cmdline CMA params instead\n",
			      m->name);
		return -EBUSY;
	}
	if (!m->reusable || m->nomap)
		return -EINVAL;
	if ((b->base[i] | b->size[i]) & (b->cma_align - 1)) {
		cma_mm_pr_err(b->mm, "Reserved memory: incorrect alignment of CMA region\n");
		return -EINVAL;
	}
	ret = cma_init_reserved_mem(b->mm, b->base[i], b->size[i], 0, m->name, &b->cma[i]);
	if (ret) {
		cma_mm_pr_err(b->mm, "Reserved memory: unable to setup CMA region\n");
		return ret;
	}
	if (m->cma_default)
		cma_dev_set_cma_area(b->mm, NULL, b->cma[i]);
	cma_mm_printk(b->mm, "Reserved memory: created CMA memory pool at 0x%0*llx, size %llu MiB\n",
		      b->w, (unsigned long long)b->base[i], (unsigned long long)(b->size[i] / MiB));
	return 0;
}

/* rmem_dma_setup: a coherent pool (CONFIG_DMA_DECLARE_COHERENT). */
static int rmem_dma_setup(struct rmem_boot *b, unsigned i)
{
	const struct platform_rmem *m = &b->p->rmem[i];

	if (m->reusable)
		return -EINVAL;
	if (b->p->cfg.arch == CMA_ARCH_ARM && !m->nomap) {
		cma_mm_pr_err(b->mm, "Reserved memory: regions without no-map are not yet supported\n");
		return -EINVAL;
	}
	cma_mm_printk(b->mm, "Reserved memory: created DMA memory pool at 0x%0*llx, size %llu MiB\n",
		      b->w, (unsigned long long)b->base[i], (unsigned long long)(b->size[i] / MiB));
	return 0;
}

/* fdt_init_reserved_mem_node */
static void init_rmem(struct rmem_boot *b, unsigned i)
{
	const struct platform_rmem *m = &b->p->rmem[i];
	int ret = -ENOENT;

	if (m->pool) {
		/* RESERVEDMEM_OF_DECLARE's table: contiguous.o links before coherent.o, if built */
		ret = b->p->without_cma ? -ENODEV : rmem_cma_setup(b, i);
		if (ret)
			ret = rmem_dma_setup(b, i);
		if (!ret)
			rpr(b, "initialized node %s, compatible id shared-dma-pool\n", m->name);
	}
	if (ret && ret != -ENOENT) {
		rpr(b, "node %s compatible matching fail\n", m->name);
		/* a static no-map region was only marked no-map: clearing it gives it back */
		if (!m->nomap || m->size)
			cma_memblock_phys_free(b->mm, b->base[i], b->size[i]);
		return;
	}
	rpr(b, "0x%0*llx..0x%0*llx (%llu KiB) %s %s %s\n", b->w, (unsigned long long)b->base[i], b->w,
	    (unsigned long long)(b->base[i] + b->size[i] - 1), (unsigned long long)(b->size[i] / KiB),
	    m->nomap ? "nomap" : "map", m->reusable ? "reusable" : "non-reusable", m->name);
}

/*
 * __reserved_mem_alloc_in_range: bottom-up when the range starts next to
 * a region placed before, top-down when it ends next to one, as is when both.
 */
static cma_phys_t alloc_in_range(struct rmem_boot *b, unsigned upto, uint64_t size, uint64_t align,
				 cma_phys_t start, cma_phys_t end)
{
	bool bottom_up = false, top_down = false;

	for (unsigned j = 0; j < upto; j++) {
		if (!b->size[j] || b->p->rmem[j].size)
			continue;	/* static ones are not in reserved_mem[] yet */
		if (start >= b->base[j] && start <= b->base[j] + b->size[j])
			bottom_up = true;
		if (end >= b->base[j] && end <= b->base[j] + b->size[j])
			top_down = true;
	}
	return cma_memblock_alloc_range(b->mm, size, align, start, end, bottom_up && !top_down);
}

/* __reserved_mem_alloc_size */
static void alloc_dynamic(struct rmem_boot *b, unsigned i)
{
	const struct platform_rmem *m = &b->p->rmem[i];
	uint64_t align = m->align;
	cma_phys_t base = 0;

	if (!b->p->without_cma && m->pool && m->reusable && !m->nomap && align < b->cma_align)
		align = b->cma_align;
	if (!align)
		align = SMP_CACHE_BYTES;
	for (unsigned r = 0; r < m->nr_ranges && !base; r++)
		base = alloc_in_range(b, i, m->dyn_size, align, m->ranges[r].base,
				      m->ranges[r].base + m->ranges[r].size);
	if (!m->nr_ranges)
		base = cma_memblock_alloc_range(b->mm, m->dyn_size, align, 0, 0, false);
	if (!base) {
		rpr_err(b, "failed to allocate memory for node '%s': size %llu MiB\n", m->name,
			(unsigned long long)(m->dyn_size / MiB));
		return;
	}
	b->base[i] = base;
	b->size[i] = m->dyn_size;
	init_rmem(b, i);
}

enum ram_overlap { IN_RAM, PART_RAM, NO_RAM };

static enum ram_overlap ram_overlap(const struct platform *p, cma_phys_t base, uint64_t size)
{
	uint64_t covered = 0;

	for (unsigned k = 0; k < p->nr_banks; k++) {
		cma_phys_t lo = base > p->banks[k].base ? base : p->banks[k].base;
		cma_phys_t hi = base + size < p->banks[k].base + p->banks[k].size ?
				base + size : p->banks[k].base + p->banks[k].size;

		if (hi > lo)
			covered += hi - lo;
	}
	return covered == size ? IN_RAM : covered ? PART_RAM : NO_RAM;
}

void board_reserve_dt(struct cma_mm *mm, const struct platform *p, struct cma_device *const *devs)
{
	struct rmem_boot b;
	unsigned shift = p->cfg.page_shift ? p->cfg.page_shift : 12;

	memset(&b, 0, sizeof(b));
	b.mm = mm;
	b.p = p;
	b.cma_align = 1ull << (shift + p->cfg.pageblock_order);
	b.w = p->phys_wide ? 16 : 8;
	b.cmdline_cma = platform_cmdline_cma(p->cmdline);
	if (!p->has_reserved_memory)
		return;
	for (unsigned i = 0; i < p->nr_rmem; i++) {
		const struct platform_rmem *m = &p->rmem[i];

		if (!m->size)
			continue;
		/* outside RAM (platform_dt_check lets only device memory be): nothing to keep from the allocator */
		if (ram_overlap(p, m->base, m->size) == IN_RAM && cma_memblock_reserve(mm, m->base, m->size)) {
			rpr_err(&b, "Reserved memory: failed to reserve memory for node '%s': base 0x%0*llx, size %llu MiB\n",
				m->name, b.w, (unsigned long long)m->base, (unsigned long long)(m->size / MiB));
			continue;
		}
		b.base[i] = m->base;
		b.size[i] = m->size;
	}
	for (unsigned i = 0; i < p->nr_rmem; i++)
		if (p->rmem[i].dyn_size)
			alloc_dynamic(&b, i);
	for (unsigned i = 0; i < p->nr_memreserve; i++)
		cma_memblock_reserve(mm, p->memreserve[i].base, p->memreserve[i].size);
	for (unsigned i = 0; i < p->nr_rmem; i++)
		if (p->rmem[i].size && b.size[i])
			init_rmem(&b, i);
	/* of_reserved_mem_device_init at probe: the device's dev->cma_area */
	for (unsigned d = 0; d < p->nr_devices; d++)
		for (unsigned i = 0; i < p->nr_rmem; i++)
			if (b.cma[i] && !strcmp(p->devices[d].region, p->rmem[i].name))
				cma_dev_set_cma_area(mm, devs[d], b.cma[i]);
}

const struct platform_rmem *platform_dt_default_pool(const struct platform *p)
{
	for (unsigned i = 0; i < p->nr_rmem; i++)
		if (p->rmem[i].pool && p->rmem[i].cma_default && p->rmem[i].reusable && !p->rmem[i].nomap)
			return &p->rmem[i];
	return NULL;
}

/* Whether the region @name came to be a coherent pool, as far as the tree tells. */
static bool is_pool(const struct platform *p, const char *name)
{
	for (unsigned i = 0; i < p->nr_rmem; i++)
		if (!strcmp(p->rmem[i].name, name))
			return p->rmem[i].pool && !p->rmem[i].reusable &&
			       !(p->cfg.arch == CMA_ARCH_ARM && !p->rmem[i].nomap);
	return false;
}

void platform_dt_probe(struct cma_mm *mm, const struct platform *p, struct cma_device *const *devs)
{
	if (!p->source[0])
		return;
	if (!p->has_reserved_memory)
		cma_mm_printk(mm, "OF: reserved mem: Reserved memory: No reserved-memory node in the DT\n");
	/* of_reserved_mem_device_init: only a region whose setup gave it ops */
	for (unsigned d = 0; d < p->nr_devices; d++) {
		struct cma *cma = cma_dev_get_cma_area(mm, devs[d]);
		const char *region = p->devices[d].region;

		if ((cma && !strcmp(cma_area_name(cma), region)) || is_pool(p, region))
			cma_mm_printk(mm, "%s: assigned reserved memory node %s\n", p->devices[d].name, region);
	}
}

int platform_dt_check(const struct platform *p, char *err, size_t len)
{
	if (!p->source[0])
		return 0;
	if (!p->nr_banks) {
		snprintf(err, len, "%s: the tree has no memory node (a bootloader fills it in): give the RAM with --memory SIZE[@BASE] (or memory = SIZE in a scenario)",
			 p->source);
		return -EINVAL;
	}
	for (unsigned i = 0; i < p->nr_rmem; i++) {
		const struct platform_rmem *m = &p->rmem[i];
		enum ram_overlap where = m->size ? ram_overlap(p, m->base, m->size) : IN_RAM;

		/* device memory (SRAM, VRAM) holds pools and carve-outs; a CMA area is RAM */
		if (where == PART_RAM || (where == NO_RAM && m->reusable)) {
			snprintf(err, len, "%s: /reserved-memory/%s (0x%llx..0x%llx) is %s the memory (%u bank%s from 0x%llx): %s",
				 p->source, m->name, (unsigned long long)m->base,
				(unsigned long long)(m->base + m->size - 1),
				where == PART_RAM ? "partly outside" : "outside", p->nr_banks,
				p->nr_banks == 1 ? "" : "s", (unsigned long long)p->banks[0].base,
				where == PART_RAM ? "a reserved region is either in RAM or not"
						  : "a reusable (CMA) region must lie in RAM");
			return -EINVAL;
		}
	}
	return 0;
}
