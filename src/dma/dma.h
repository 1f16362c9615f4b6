/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DMA layer's state: devices (struct device's DMA part) and the
 * default CMA area (dma_contiguous_default_area). Devices are created in
 * any phase and live as long as the machine; the list is append-only
 * under lock.
 */
#ifndef CMA_DMA_DMA_H
#define CMA_DMA_DMA_H

#include "mm/cma.h"
#include "mm/internal.h"

struct cma_device {
	char name[32];
	uint64_t coherent_dma_mask;
	struct cma *cma_area;		/* dev->cma_area */
	struct cma_device *next;
};

struct dma_state {
	pthread_mutex_t lock;		/* the device list */
	struct cma_device *devices;
	struct cma *default_area;	/* dma_contiguous_default_area */
};

static inline struct dma_state *dma_state(struct cma_mm *mm)
{
	return mm->dma;
}

void dma_contiguous_reserve(struct cma_mm *mm, cma_phys_t limit);
void dev_set_cma_area(struct cma_mm *mm, struct cma_device *dev, struct cma *cma);
struct cma *dev_get_cma_area(struct cma_mm *mm, struct cma_device *dev);
void dma_devices_free(struct cma_mm *mm);

#endif
