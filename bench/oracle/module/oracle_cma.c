// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle's route to the default CMA area (cma=): a platform device
 * with no IOMMU and no per-device area, whose dma_alloc_coherent() of
 * more than a page goes dma_direct_alloc -> dma_alloc_contiguous ->
 * cma_alloc(dma_contiguous_default_area). Allocates count buffers of kb
 * KiB at load, prints each one's pfn (no IOMMU: the DMA address is the
 * physical one), and holds them until unloaded. Built by default-area.sh
 * against Debian's linux-headers with the cross compiler.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/dma-mapping.h>

static unsigned int kb = 32768;
static unsigned int count = 1;
module_param(kb, uint, 0444);
module_param(count, uint, 0444);

#define ORACLE_CMA_MAX 64
static struct platform_device *pdev;
static void *cpu[ORACLE_CMA_MAX];
static dma_addr_t dma[ORACLE_CMA_MAX];

static int __init oracle_cma_init(void)
{
	struct platform_device_info info = {
		.name = "oracle-cma",
		.id = PLATFORM_DEVID_NONE,
		.dma_mask = DMA_BIT_MASK(64),
	};
	unsigned int i;

	if (count > ORACLE_CMA_MAX)
		return -EINVAL;
	pdev = platform_device_register_full(&info);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	for (i = 0; i < count; i++) {
		cpu[i] = dma_alloc_coherent(&pdev->dev, (size_t)kb << 10, &dma[i], GFP_KERNEL);
		if (cpu[i])
			pr_info("oracle_cma: %u of %u: pfn=0x%llx\n", i + 1, count,
				(u64)dma[i] >> PAGE_SHIFT);
		else
			pr_info("oracle_cma: %u of %u: failed\n", i + 1, count);
	}
	return 0;
}

static void __exit oracle_cma_exit(void)
{
	unsigned int i;

	for (i = 0; i < count; i++)
		if (cpu[i])
			dma_free_coherent(&pdev->dev, (size_t)kb << 10, cpu[i], dma[i]);
	platform_device_unregister(pdev);
}
#ifndef ORACLE_CMA_DIRECT
module_init(oracle_cma_init);
module_exit(oracle_cma_exit);
MODULE_DESCRIPTION("libcma oracle: allocations from the default CMA area");
MODULE_LICENSE("GPL");
#endif

#ifdef ORACLE_CMA_DIRECT
/*
 * The direct variant (-DORACLE_CMA_DIRECT; oracle.sh builds it as
 * CACHE/arm64/oracle_cma-direct.ko for an experiment's module=oracle_cma
 * with module_variant=direct, installed as oracle_cma.ko; the build
 * without the define is the module above, its lines unchanged).
 * pages=0, the default: dma_alloc_coherent as above. pages=N: cma_alloc()
 * of N pages at align=ORDER (cma_alloc's align: mask (1 << ORDER) - 1)
 * from the default area (dev_get_cma_area of the platform device: no
 * per-device area, so dma_contiguous_default_area), count times in turn,
 * each timed with ktime_get_ns() around cma_alloc() and released with
 * cma_release() at once, unless hold=1 (every request) or keep=N (the
 * first N): then kept until unload, so that the next request starts past
 * it (as fill does). Printed per request:
 * "oracle_cma: direct I of COUNT: pages=N align=A ok pfn=0x.. ns=T" or
 * "... fail ns=T". Debian's 6.12 exports neither cma_alloc, cma_release
 * nor dma_contiguous_default_area (Module.symvers): their addresses come
 * from kallsyms_lookup_name, itself found through a kprobe (registered
 * and unregistered at load, before the first request).
 */
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/mm.h>

struct cma;
static unsigned int pages;
static unsigned int align = 1;
static unsigned int hold;
static unsigned int keep;
module_param(pages, uint, 0444);
module_param(keep, uint, 0444);
module_param(align, uint, 0444);
module_param(hold, uint, 0444);

static struct page *(*oc_cma_alloc)(struct cma *, unsigned long, unsigned int, bool);
static bool (*oc_cma_release)(struct cma *, const struct page *, unsigned long);
static struct cma *oc_area;
static struct page **held;

static int oracle_cma_symbols(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *);
	struct cma **area;
	int ret;

	ret = register_kprobe(&kp);
	if (ret < 0)
		return ret;
	lookup = (unsigned long (*)(const char *))kp.addr;
	unregister_kprobe(&kp);
	oc_cma_alloc = (void *)lookup("cma_alloc");
	oc_cma_release = (void *)lookup("cma_release");
	area = (struct cma **)lookup("dma_contiguous_default_area");
	if (!oc_cma_alloc || !oc_cma_release || !area || !*area)
		return -ENOENT;
	oc_area = *area;
	return 0;
}

static int __init oracle_cma_direct_init(void)
{
	unsigned int i;
	int ret;

	if (!pages)
		return oracle_cma_init();
	ret = oracle_cma_symbols();
	if (ret) {
		pr_info("oracle_cma: direct: no cma_alloc, cma_release or default area (%d)\n", ret);
		return ret;
	}
	held = kcalloc(count, sizeof(*held), GFP_KERNEL);
	if (!held)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		struct page *p;
		u64 t0, t1;

		t0 = ktime_get_ns();
		p = oc_cma_alloc(oc_area, pages, align, true);
		t1 = ktime_get_ns();
		if (p)
			pr_info("oracle_cma: direct %u of %u: pages=%u align=%u ok pfn=0x%lx ns=%llu\n",
				i + 1, count, pages, align, page_to_pfn(p), t1 - t0);
		else
			pr_info("oracle_cma: direct %u of %u: pages=%u align=%u fail ns=%llu\n",
				i + 1, count, pages, align, t1 - t0);
		if (p && (hold || i < keep))
			held[i] = p;
		else if (p)
			oc_cma_release(oc_area, p, pages);
	}
	return 0;
}

static void __exit oracle_cma_direct_exit(void)
{
	unsigned int i;

	if (!pages) {
		oracle_cma_exit();
		return;
	}
	for (i = 0; i < count; i++)
		if (held[i])
			oc_cma_release(oc_area, held[i], pages);
	kfree(held);
}

module_init(oracle_cma_direct_init);
module_exit(oracle_cma_direct_exit);
MODULE_DESCRIPTION("libcma oracle: allocations from the default CMA area, cma_alloc direct");
MODULE_LICENSE("GPL");
#endif
