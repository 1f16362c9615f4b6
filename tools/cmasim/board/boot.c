// SPDX-License-Identifier: GPL-2.0
/*
 * Booting a platform as its kernel would: memblock from the banks, the
 * kernel image reserved, then the board's reserve() and the
 * architecture's CMA reservation in that architecture's order (x86's
 * setup_arch reserves the default area right after memblock, before any
 * board code; ARM's arm_memblock_init runs the board's reserve() first),
 * then cma_mm_boot (zones, free memory, the core and postcore initcalls),
 * and at postcore the areas that boards share between devices.
 */
#include <errno.h>
#include <string.h>

#include "board/platform.h"

#define MiB (1ull << 20)

/* Any board: each device's own area, in the order the platform lists them. */
void board_reserve_generic(struct cma_mm *mm, const struct platform *p,
			   struct cma_device *const *devs)
{
	for (unsigned i = 0; i < p->nr_devices; i++) {
		const struct platform_device *d = &p->devices[i];
		int ret;

		if (!d->cma_size)
			continue;
		ret = cma_dma_declare_contiguous(mm, devs[i], d->cma_size, d->cma_base, d->cma_limit);
		if (ret)
			cma_mm_pr_err(mm, "%s: failed to reserve its CMA area (%llu bytes at 0x%08llx): %s\n",
				      d->name, (unsigned long long)d->cma_size,
				      (unsigned long long)d->cma_base, strerror(-ret));
	}
}

/*
 * s5p_mfc_reserve_mem (seed 011): one area per MFC memory port, each at a
 * fixed base. Departure: the second failure message gives the left
 * device's size and base, and each names its device; the seed repeats
 * rsize and rbase.
 */
static void s5p_mfc_reserve_mem(struct cma_mm *mm, struct cma_device *mfc_r, cma_phys_t rbase,
				unsigned rsize, struct cma_device *mfc_l, cma_phys_t lbase,
				unsigned lsize)
{
	if (cma_dma_declare_contiguous(mm, mfc_r, rsize, rbase, 0))
		cma_mm_pr_err(mm, "Failed to reserve memory for MFC device s5p-mfc-r (%u bytes at 0x%08llx)\n",
			      rsize, (unsigned long long)rbase);
	if (cma_dma_declare_contiguous(mm, mfc_l, lsize, lbase, 0))
		cma_mm_pr_err(mm, "Failed to reserve memory for MFC device s5p-mfc-l (%u bytes at 0x%08llx)\n",
			      lsize, (unsigned long long)lbase);
}

static int device_index(const struct platform *p, const char *name)
{
	for (unsigned i = 0; i < p->nr_devices; i++)
		if (!strcmp(p->devices[i].name, name))
			return (int)i;
	return -1;
}

/* The Exynos boards' reserve(): s5p_mfc_reserve_mem with the platform's two MFC areas. */
void board_reserve_s5p_mfc(struct cma_mm *mm, const struct platform *p,
			   struct cma_device *const *devs)
{
	int r = device_index(p, "s5p-mfc-r"), l = device_index(p, "s5p-mfc-l");

	if (r < 0 || l < 0) {
		cma_mm_pr_err(mm, "s5p_mfc_reserve_mem: the platform lacks the s5p-mfc-r or s5p-mfc-l device\n");
		return;
	}
	s5p_mfc_reserve_mem(mm, devs[r], p->devices[r].cma_base, (unsigned)p->devices[r].cma_size,
			    devs[l], p->devices[l].cma_base, (unsigned)p->devices[l].cma_size);
}

/* arm64_memblock_init, arm_memblock_init: the initrd's pages, whole, kept until it is unpacked */
static void reserve_initrd(struct cma_mm *mm, const struct platform *p)
{
	uint64_t page = p->cfg.page_shift ? 1ull << p->cfg.page_shift : 4096;
	cma_phys_t base = p->initrd.base & ~(page - 1);
	uint64_t size = ((p->initrd.base + p->initrd.size + page - 1) & ~(page - 1)) - base;

	if (cma_memblock_reserve(mm, base, size))
		cma_mm_pr_err(mm, "memblock: cannot reserve the initrd [%#llx + %#llx]\n",
			      (unsigned long long)base, (unsigned long long)size);
}

static void early_phase(struct cma_mm *mm, const struct platform *p, struct cma_device *const *devs)
{
	board_reserve_fn reserve = p->reserve ? p->reserve : board_reserve_generic;

	if (p->kernel.size && cma_memblock_reserve(mm, p->kernel.base, p->kernel.size))
		cma_mm_pr_err(mm, "memblock: cannot reserve the kernel image [%#llx + %#llx]\n",
			      (unsigned long long)p->kernel.base, (unsigned long long)p->kernel.size);
	if (p->initrd.size)
		reserve_initrd(mm, p);
	if (p->cfg.arch == CMA_ARCH_X86)
		cma_dma_contiguous_reserve(mm, 0);
	reserve(mm, p, devs);
	/*
	 * ARM: cma_mm_boot reserves the default area now, below
	 * min(arm_dma_limit, arm_lowmem_limit); arm64 (bootmem_init, after
	 * the reserved-memory nodes) below arm64_dma_phys_limit
	 */
}

/* Like the article's foo_set_up_cma_areas, at postcore_initcall. */
static void share_areas(struct cma_mm *mm, const struct platform *p, struct cma_device *const *devs)
{
	for (unsigned i = 0; i < p->nr_devices; i++) {
		int from = p->devices[i].share[0] ? device_index(p, p->devices[i].share) : -1;

		if (from >= 0)
			cma_dev_set_cma_area(mm, devs[i], cma_dev_get_cma_area(mm, devs[from]));
	}
}

int platform_boot(const struct platform *p, const char *cmdline, const char *kconfig,
		  struct cma_mm **mmp, struct cma_device **devs)
{
	struct cma_mm_config cfg = p->cfg;
	struct cma_mm *mm;
	char err[512];

	*mmp = NULL;
	if (platform_dt_check(p, err, sizeof(err))) {
		fprintf(stderr, "cmasim: %s\n", err);
		return -EINVAL;
	}
	cfg.banks = p->banks;
	cfg.nr_banks = p->nr_banks;
	cfg.cmdline = cmdline ? cmdline : p->cmdline;
	cfg.kconfig = kconfig ? kconfig : p->kconfig;
	if (cma_mm_create(&cfg, &mm))
		return -EINVAL;
	for (unsigned i = 0; i < p->nr_devices; i++) {
		devs[i] = cma_device_create(mm, p->devices[i].name, p->devices[i].mask);
		if (!devs[i]) {
			cma_mm_destroy(mm);
			return -ENOMEM;
		}
	}
	early_phase(mm, p, devs);
	*mmp = mm;
	/* whatever the boot's own code, a machine that did not boot is a failed run, not a refusal */
	if (cma_mm_boot(mm))
		return -EIO;
	share_areas(mm, p, devs);
	platform_dt_probe(mm, p, devs);
	return 0;
}

static void write_area(struct cma_mm *mm, const struct platform *p, struct cma *cma, FILE *out)
{
	unsigned shift = p->cfg.page_shift ? p->cfg.page_shift : 12;
	unsigned long long base, bytes;

	if (!cma) {
		fprintf(out, "none\n");
		return;
	}
	base = (unsigned long long)cma_area_base_pfn(cma) << shift;
	bytes = (unsigned long long)cma_area_count(cma) << shift;
	fprintf(out, "0x%08llx-0x%08llx (%llu MiB%s)\n", base, base + bytes - 1, bytes / MiB,
		cma == cma_dev_get_cma_area(mm, NULL) ? ", the default area" : "");
}

void platform_write_devices(struct cma_mm *mm, const struct platform *p,
			    struct cma_device *const *devs, FILE *out)
{
	int w = (int)strlen("(default)");

	for (unsigned i = 0; i < p->nr_devices; i++)
		if ((int)strlen(p->devices[i].name) > w)
			w = (int)strlen(p->devices[i].name);
	fprintf(out, "%-*s  %-18s  %s\n", w, "device", "coherent mask", "CMA area");
	fprintf(out, "%-*s  %-18s  ", w, "(default)", "-");
	write_area(mm, p, cma_dev_get_cma_area(mm, NULL), out);
	for (unsigned i = 0; i < p->nr_devices; i++) {
		struct cma *cma = cma_dev_get_cma_area(mm, devs[i]);

		fprintf(out, "%-*s  0x%016llx  ", w, p->devices[i].name,
			(unsigned long long)p->devices[i].mask);
		/* a tree's device whose region is no area of its own: a coherent pool, or failed */
		if (p->devices[i].region[0] && (!cma || strcmp(cma_area_name(cma), p->devices[i].region))) {
			fprintf(out, "none of its own (memory-region %s, not CMA); default ", p->devices[i].region);
			write_area(mm, p, cma_dev_get_cma_area(mm, NULL), out);
			continue;
		}
		write_area(mm, p, cma, out);
	}
}
