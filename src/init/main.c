// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's life, the role of the kernel's init/main.c: create, boot
 * (what setup_arch and the initcalls do, in their order), destroy, and
 * the log that board code writes to in between. The one file above both
 * src/mm and src/dma: it calls down into each, and neither calls up.
 *
 *   cma_mm_create          memblock (banks)
 *   early calls            the caller's: the kernel image, the board's
 *                          reserve() with its dma_declare_contiguous()
 *   cma_mm_boot            hugetlb_init's hook for alloc_contig_range;
 *                          hugetlb_cma_reserve (hugetlb_cma=), then the
 *                          architecture's dma_contiguous_reserve(limit),
 *                          unless an early call made it (x86 makes it right
 *                          after memblock, ARM after the board's reserve);
 *                          zones, mem_map, free memory to the buddy allocator;
 *                          core_initcall: activate the CMA areas in
 *                          declaration order and give them to their devices;
 *                          postcore_initcall: the architecture's (ARM's atomic
 *                          pool); module_init: the watermarks, which see the
 *                          CMA memory; khugepaged's raise of them (THP)
 *
 * Device probe, and dev_set_cma_area for areas shared between devices,
 * come after cma_mm_boot returns.
 */
#include <stdlib.h>

#include "dma/dma.h"

int cma_mm_create(const struct cma_mm_config *cfg, struct cma_mm **mmp)
{
	struct cma_mm *mm;
	int ret = mm_create(cfg, mmp);

	if (ret)
		return ret;
	mm = *mmp;
	ret = -ENOMEM;
	mm->cma = calloc(1, sizeof(*mm->cma));
	mm->dma = calloc(1, sizeof(struct dma_state));
	if (!mm->cma || !mm->dma)
		goto fail;
	pthread_mutex_init(&dma_state(mm)->lock, NULL);
	pthread_mutex_init(&dma_state(mm)->pool.lock, NULL);
	ret = cma_parse_params(mm, cfg->cmdline, cfg->kconfig, &mm->cma->params);
	if (!ret)
		ret = hugetlb_cma_parse(mm, cfg->cmdline);
	if (ret)
		goto fail;
	/* __setup("transparent_hugepage=") */
	setup_transparent_hugepage(mm);
	/* sysctl.vm.compaction_proactiveness= */
	setup_compaction_proactiveness(mm);
	/* sysctl.vm.swappiness= */
	setup_swappiness(mm);
	/* MAX_CMA_AREAS: 1 + CONFIG_CMA_AREAS in v3.5 (the default area's slot), CONFIG_CMA_AREAS since 5.x */
	mm->cma->max_areas = (mm->kernel.cma_generic ? 0 : 1) + (unsigned)mm->cma->params.areas;
	mm->cma->reserved = calloc(mm->cma->max_areas, sizeof(*mm->cma->reserved));
	if (!mm->cma->reserved) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = arch_setup_dma_ops(mm);
	if (ret)
		goto fail;
	/* a refused configuration was said on stderr: no machine is left to read the log of */
	mm->quiet = cfg->quiet;
	return 0;
fail:
	cma_mm_destroy(mm);
	*mmp = NULL;
	return ret;
}

int cma_mm_boot(struct cma_mm *mm)
{
	const struct dma_map_ops *ops;
	int ret = mm_require_phase(mm, MM_EARLY, "cma_mm_boot");

	if (ret)
		return ret;
	ops = get_dma_ops(mm);
	hugetlb_init(mm);
	if (mm->arch == CMA_ARCH_ARM64)
		arm64_paging_init(mm);
	/* arm64's bootmem_init, before sparse_init and dma_contiguous_reserve; x86 made that early */
	hugetlb_cma_reserve(mm);
	if (mm->arch == CMA_ARCH_ARM64)
		arm64_sparse_init(mm);
	if (!mm->cma->reserve_called)
		dma_contiguous_reserve(mm, ops->contiguous_limit(mm));
	ret = mm_boot_memory(mm);
	if (ret)
		return ret;
	/* core_initcall(cma_init_reserved_areas) */
	cma_init_reserved_areas(mm);
	for (unsigned i = 0; i < mm->cma->nr_reserved; i++)
		if (mm->cma->reserved[i].cma && !mm->cma->reserved[i].no_dma)
			dev_set_cma_area(mm, mm->cma->reserved[i].dev, mm->cma->reserved[i].cma);
	ops->postcore_initcall(mm);
	/* module_init(init_per_zone_wmark_min) */
	init_per_zone_wmark_min(mm);
	/* 6.12's subsys_initcall(hugepage_init) runs after it as v3.5's late_initcall did */
	hugepage_init(mm);
	VM_VERIFY(mm);
	return 0;
}

void cma_mm_destroy(struct cma_mm *mm)
{
	if (!mm)
		return;
	if (mm->dma) {
		dma_devices_free(mm);
		arch_teardown_dma_ops(mm);
		pthread_mutex_destroy(&dma_state(mm)->pool.lock);
		pthread_mutex_destroy(&dma_state(mm)->lock);
		free(mm->dma);
		mm->dma = NULL;
	}
	cma_state_free(mm);
	mm_destroy(mm);
}
