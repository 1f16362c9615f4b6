// SPDX-License-Identifier: GPL-2.0
/*
 * dma-mapping: the machine's architecture chosen once, at create
 * (arch_setup_dma_ops), and dma_alloc_coherent / dma_free_coherent
 * checked here and dispatched through its table. What each architecture
 * does is in its own file (arch_x86.c, arch_arm.c, arch_arm64.c); another
 * architecture is another file and one more entry here.
 */
#include "dma/dma.h"

int arch_setup_dma_ops(struct cma_mm *mm)
{
	struct dma_state *ds = dma_state(mm);

	static const struct dma_map_ops *const arch_ops[] = {
		[CMA_ARCH_X86] = &x86_dma_ops,
		[CMA_ARCH_ARM] = &arm_dma_ops,
		[CMA_ARCH_ARM64] = &arm64_dma_ops,
	};

	ds->ops = arch_ops[mm->arch];
	return ds->ops->setup(mm);
}

/* A machine refused before arch_setup_dma_ops has no table and nothing to tear down. */
void arch_teardown_dma_ops(struct cma_mm *mm)
{
	struct dma_state *ds = dma_state(mm);

	if (ds->ops)
		ds->ops->teardown(mm);
}

int cma_dma_alloc_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size, cma_gfp_t gfp,
			   cma_phys_t *dma_handle, void **vaddr)
{
	int ret = mm_require_phase(mm, MM_BOOTED, "dma_alloc_coherent");

	if (vaddr)
		*vaddr = NULL;
	if (ret)
		return ret;
	if (!dma_handle || !size) {
		cma_mm_pr_err(mm, "dma_alloc_coherent: %s: give a non-zero size and a place for the DMA handle\n",
			  !size ? "size 0" : "dma_handle is NULL");
		return -EINVAL;
	}
	if (size > SIZE_MAX - mm->page_size)
		return -ENOMEM;
	return get_dma_ops(mm)->alloc(mm, dev, size, gfp, dma_handle, vaddr);
}

void cma_dma_free_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_phys_t dma_handle)
{
	if (mm_require_phase(mm, MM_BOOTED, "dma_free_coherent"))
		return;
	if (!size) {
		cma_mm_pr_err(mm, "dma_free_coherent: size 0: give the size the buffer was allocated with\n");
		return;
	}
	get_dma_ops(mm)->free(mm, dev, size, dma_handle);
}
