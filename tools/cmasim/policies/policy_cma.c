// SPDX-License-Identifier: GPL-2.0
/*
 * The cma policy, the seeds': dma_alloc_coherent from the device's CMA
 * area (its own, or the default one), the area lent to movable pages
 * between requests. A failed request is put down to pinned pages when
 * migration gave up and a pinner holds a page of the area.
 */
#include <errno.h>

#include "engine/sim_api.h"

static struct cma_device *device_of(struct sim *s, struct workload *w)
{
	return sim_workload_device(s, w);
}

static int cma_alloc(struct sim *s, struct workload *w, struct dev_buffer *b, struct cost_work *work,
		     enum fail_cause *cause)
{
	const struct wl_device *spec = &w->spec->device;
	struct cma_device *dev = device_of(s, w);
	struct cost_counters before;
	unsigned attempts;
	struct cma *area;
	int ret;

	cost_counters_read(s, &before);
	sim_trace_request(s, true);
	b->contig = NULL;
	b->raw = policy_driver_asks_cma(s, spec);
	if (b->raw) {
		/* a driver that needs more than the size's alignment asks CMA itself */
		b->contig = cma_dma_alloc_from_contiguous(sim_mm(s), dev, (int)sim_pages(s, spec->buffer_bytes),
							 policy_order_of(spec->align_bytes / sim_page_bytes(s)));
		ret = b->contig ? 0 : -ENOMEM;
		if (b->contig)
			b->handle = (cma_phys_t)cma_page_to_pfn(sim_mm(s), b->contig) * sim_page_bytes(s);
	} else {
		ret = cma_dma_alloc_coherent(sim_mm(s), dev, spec->buffer_bytes, policy_gfp(spec), &b->handle, NULL);
	}
	sim_trace_request(s, false);
	cost_work_since(s, &before, work);
	/* the library counts each alloc_contig_range's drains (cost_work_since) */
	attempts = sim_cma_attempts(s) ? sim_cma_attempts(s) + sim_busy_retries(s) : 0;
	work->cma_attempts = attempts;
	work->locks += attempts ? attempts : 1;
	if (!ret) {
		b->nr_chunks = 0;
		policy_account(s, b, sim_pages(s, spec->buffer_bytes), work);
		return 0;
	}
	*cause = FAIL_NOMEM;
	if (!sim_busy_retries(s))
		return -ENOMEM;
	area = cma_dev_get_cma_area(sim_mm(s), dev);
	if (area && sim_pinned_in(s, cma_area_base_pfn(area),
				 cma_area_base_pfn(area) + cma_area_count(area)))
		*cause = FAIL_PINNED;
	else
		*cause = FAIL_BUSY;
	return -EBUSY;
}

static void cma_free(struct sim *s, struct workload *w, struct dev_buffer *b)
{
	if (b->contig)
		cma_dma_release_from_contiguous(sim_mm(s), device_of(s, w), b->contig, (int)b->pages_held);
	else
		cma_dma_free_coherent(sim_mm(s), device_of(s, w), w->spec->device.buffer_bytes, b->handle);
}

const struct sim_policy_ops policy_cma = {
	.name = "cma",
	.alloc = cma_alloc,
	.free = cma_free,
};
