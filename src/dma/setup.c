// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's boot as setup_arch and the initcalls run it: memblock,
 * the architecture's CMA reservation, zones and mem_init, the core
 * initcall that activates the CMA areas and gives them to their devices,
 * then module_init's watermarks (min_free_kbytes sees CMA memory).
 */
#include <stdlib.h>
#include <string.h>

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
	ret = cma_parse_params(mm, cfg->cmdline, cfg->kconfig, &mm->cma->params);
	if (ret)
		goto fail;
	mm->cma->max_areas = 1 + (unsigned)mm->cma->params.areas;
	mm->cma->reserved = calloc(mm->cma->max_areas, sizeof(*mm->cma->reserved));
	if (!mm->cma->reserved) {
		ret = -ENOMEM;
		goto fail;
	}
	return 0;
fail:
	cma_mm_destroy(mm);
	*mmp = NULL;
	return ret;
}

/* The limit of the architecture's default reservation (x86: 0, any; ARM: lowmem and DMA). */
static cma_phys_t arch_cma_limit(struct cma_mm *mm)
{
	cma_phys_t limit = 0;

	if (mm->arch != CMA_ARCH_ARM)
		return 0;
	limit = mm->zone_end[ZONE_NORMAL] ? mm->zone_end[ZONE_NORMAL] : memblock_end_of_DRAM(&mm->memblock);
	if (mm->zone_end[ZONE_DMA] && mm->zone_end[ZONE_DMA] < limit)
		limit = mm->zone_end[ZONE_DMA];
	return limit;
}

int cma_mm_boot(struct cma_mm *mm)
{
	int ret = mm_require_phase(mm, MM_EARLY, "cma_mm_boot");

	if (ret)
		return ret;
	if (!mm->cma->reserve_called)
		dma_contiguous_reserve(mm, arch_cma_limit(mm));
	ret = mm_boot_memory(mm);
	if (ret)
		return ret;
	/* core_initcall(cma_init_reserved_areas) */
	cma_init_reserved_areas(mm);
	for (unsigned i = 0; i < mm->cma->nr_reserved; i++)
		if (mm->cma->reserved[i].cma)
			dev_set_cma_area(mm, mm->cma->reserved[i].dev, mm->cma->reserved[i].cma);
	/* module_init(init_per_zone_wmark_min) */
	init_per_zone_wmark_min(mm);
	VM_VERIFY(mm);
	return 0;
}

void cma_mm_destroy(struct cma_mm *mm)
{
	if (!mm)
		return;
	if (mm->dma) {
		dma_devices_free(mm);
		pthread_mutex_destroy(&dma_state(mm)->lock);
		free(mm->dma);
		mm->dma = NULL;
	}
	cma_state_free(mm);
	mm_destroy(mm);
}
