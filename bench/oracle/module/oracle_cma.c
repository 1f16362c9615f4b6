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

module_init(oracle_cma_init);
module_exit(oracle_cma_exit);
MODULE_DESCRIPTION("libcma oracle: allocations from the default CMA area");
MODULE_LICENSE("GPL");
