// SPDX-License-Identifier: GPL-2.0
/*
 * The carveout policy, what seed 011 replaced: each device's ring
 * reserved at boot with memblock and never usable by anyone else; a
 * request takes a free slot of it.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine/sim_api.h"

struct carveout_region {
	cma_phys_t base;		/* 0: the reservation failed */
	uint64_t slot_bytes;
	bool *used;			/* per slot */
};

struct carveout {
	struct carveout_region region[SIM_MAX_WORKLOADS];	/* by workload index */
	board_reserve_fn board_reserve;	/* the board's own, without CMA (policy_without_cma) */
};

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

/* The board's reserve() under the carveout policy: the board's own without CMA, then every device's ring. */
static void carveout_reserve(struct cma_mm *mm, const struct platform *p,
			     struct cma_device *const *devs)
{
	struct sim *s = p->reserve_ctx;
	struct carveout *co = sim_policy_priv(s);

	if (co->board_reserve)
		co->board_reserve(mm, p, devs);

	for (unsigned i = 0; i < sim_scenario(s)->nr_wl; i++) {
		const struct wl_spec *w = &sim_scenario(s)->wl[i];
		struct carveout_region *r = &co->region[i];
		uint64_t align, size;

		if (!w->kind->device)
			continue;
		align = w->device.align_bytes > sim_page_bytes(s) ? w->device.align_bytes : sim_page_bytes(s);
		r->slot_bytes = round_up(w->device.buffer_bytes, align);
		size = r->slot_bytes * w->device.ring;
		r->base = cma_memblock_alloc_base(mm, size, align,
						  w->device.mask == UINT64_MAX ? 0 : w->device.mask + 1);
		if (!r->base) {
			cma_mm_pr_err(mm, "%s: cannot reserve a carveout of %llu bytes\n", w->name,
				      (unsigned long long)size);
			continue;
		}
		cma_mm_printk(mm, "%s: carveout of %llu MiB at 0x%08llx\n", w->name,
			      (unsigned long long)(size >> 20), (unsigned long long)r->base);
		sim_run_result(s)->carveout_pages += size / sim_page_bytes(s);
	}
}

static int carveout_prepare(struct sim *s)
{
	struct carveout *co;
	int ret = policy_without_cma(s);

	if (ret)
		return ret;
	co = calloc(1, sizeof(*co));
	if (!co)
		return -ENOMEM;
	sim_set_policy_priv(s, co);
	co->board_reserve = sim_platform(s)->reserve;
	sim_platform_to_prepare(s)->reserve = carveout_reserve;
	sim_platform_to_prepare(s)->reserve_ctx = s;
	return 0;
}

static int carveout_attach(struct sim *s)
{
	struct carveout *co = sim_policy_priv(s);

	for (unsigned i = 0; i < sim_scenario(s)->nr_wl; i++) {
		struct carveout_region *r = &co->region[i];

		if (!sim_scenario(s)->wl[i].kind->device)
			continue;
		r->used = calloc(sim_scenario(s)->wl[i].device.ring, sizeof(*r->used));
		if (!r->used)
			return -ENOMEM;
	}
	sim_account_class(s, MC_CARVEOUT, (long)sim_run_result(s)->carveout_pages);
	return 0;
}

static int carveout_alloc(struct sim *s, struct workload *w, struct dev_buffer *b,
			  struct cost_work *work, enum fail_cause *cause)
{
	struct carveout *co = sim_policy_priv(s);
	struct carveout_region *r = &co->region[w->idx];

	work->locks++;
	for (unsigned i = 0; r->base && i < w->spec->device.ring; i++)
		if (!r->used[i]) {
			r->used[i] = true;
			b->slot = i;
			b->nr_chunks = 0;
			b->handle = r->base + i * r->slot_bytes;
			policy_account(s, b, sim_pages(s, w->spec->device.buffer_bytes), work);
			work->handled += b->pages_held;
			sim_account_class(s, MC_CARVEOUT, -(long)b->pages_held);
			return 0;
		}
	*cause = FAIL_NOMEM;
	return -ENOMEM;
}

static void carveout_free(struct sim *s, struct workload *w, struct dev_buffer *b)
{
	struct carveout *co = sim_policy_priv(s);

	co->region[w->idx].used[b->slot] = false;
	sim_account_class(s, MC_CARVEOUT, (long)b->pages_held);
}

/* The carveouts are lost to the system whether a device holds them or not. */
static uint64_t carveout_usable(const struct sim *s)
{
	return sim_run_result(s)->total_pages - sim_run_result(s)->carveout_pages;
}

static void carveout_destroy(struct sim *s)
{
	struct carveout *co = sim_policy_priv(s);

	if (!co)
		return;
	for (unsigned i = 0; i < SIM_MAX_WORKLOADS; i++)
		free(co->region[i].used);
	free(co);
	sim_set_policy_priv(s, NULL);
}

const struct sim_policy_ops policy_carveout = {
	.name = "carveout",
	.prepare = carveout_prepare,
	.attach = carveout_attach,
	.alloc = carveout_alloc,
	.free = carveout_free,
	.usable = carveout_usable,
	.destroy = carveout_destroy,
};
