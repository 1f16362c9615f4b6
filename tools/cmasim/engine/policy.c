// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's side of a policy: a workload asks for and gives back its
 * buffers here, which calls the run's struct sim_policy_ops, and here is
 * what the policies share (the buffer accounting, the platform without
 * CMA, a block's order, the CPUs a shootdown interrupts).
 */
#include <errno.h>
#include <string.h>

#include "engine/sim.h"

struct task_call {
	int (*fn)(struct sim *s, void *arg);
	void *arg;
	struct cost_work *work;
};

/*
 * The call on the task: its clock starts with it. What it waited for
 * writes in flight (migration's wait_on_page_writeback) and slept in
 * reclaim and compaction is its time too; each such wait takes it off
 * its run queue.
 */
static int task_call(struct sim *s, void *arg)
{
	struct task_call *a = arg;
	struct storage_clock *c = &s->storage.clock[s->storage.cur];
	int ret;

	storage_request_start(s, s->now);
	ret = a->fn(s, a->arg);
	storage_clock_waits(c, a->work);
	return ret;
}

int sim_task_call(struct sim *s, int (*fn)(struct sim *s, void *arg), void *arg, struct cost_work *work)
{
	struct task_call call = { fn, arg, work };

	return sim_task_run(s, s->cpu, task_call, &call);
}

struct alloc_call {
	struct workload *w;
	struct dev_buffer *b;
	struct cost_work *work;
	enum fail_cause *cause;
};

static int alloc_call(struct sim *s, void *arg)
{
	struct alloc_call *a = arg;

	return s->policy->alloc(s, a->w, a->b, a->work, a->cause);
}

/* The policy's alloc on the request's own task (task.c), so the others run while it waits. */
int policy_alloc(struct sim *s, struct workload *w, struct dev_buffer *b, struct cost_work *work,
		 enum fail_cause *cause)
{
	struct alloc_call call = { w, b, work, cause };

	return sim_task_call(s, alloc_call, &call, work);
}

int policy_request(struct sim *s, struct workload *w, struct dev_buffer *b, uint64_t start_ns,
		   struct cost_work *work, struct cost_parts *parts, enum fail_cause *cause, uint64_t *ns)
{
	int ret;

	sim_contention_begin(s, w, start_ns);
	ret = policy_alloc(s, w, b, work, cause);

	sim_contention_fill(s, w, start_ns, work->cma_attempts, work);
	*ns = cost_ns_parts(&s->cost, work, s->page_bytes, parts);
	sim_contention_done(s, w, start_ns, *ns, work->cma_attempts);
	s->res->device_migrated += work->migrated;
	s->res->device_reclaimed += work->reclaimed + work->dropped;
	return ret;
}

void policy_free(struct sim *s, struct workload *w, struct dev_buffer *b)
{
	sim_area_hold(s, b, false);
	s->class_pages[MC_DEVICE] -= b->pages_held;
	if (s->policy->free)
		s->policy->free(s, w, b);
	b->pages_held = 0;
}

uint64_t policy_usable(const struct sim *s)
{
	uint64_t held = s->class_pages[MC_DEVICE];

	if (s->policy->usable)
		return s->policy->usable(s);
	return s->res->total_pages > held ? s->res->total_pages - held : 0;
}

/*
 * A buffer handed out: held, and zeroed where the kernel zeroes it.
 * dma_alloc_coherent clears the buffer (from the buddy allocator, a
 * carveout's dma_alloc_from_coherent or CMA alike); a driver calling
 * dma_alloc_from_contiguous or cma_alloc itself (b->raw) gets the pages
 * as they were.
 * Taking its pages off the free lists is bookkeeping the caller adds
 * where no counter already has it (alloc_contig_range's
 * isolate_freepages_range counts compact_isolated).
 */
void policy_account(struct sim *s, struct dev_buffer *b, uint64_t pages, struct cost_work *work)
{
	b->pages_held = pages;
	s->class_pages[MC_DEVICE] += pages;
	sim_area_hold(s, b, true);
	if (!b->raw)
		work->zeroed_bytes += pages * s->page_bytes;
}

static void no_reserve(struct cma_mm *mm, const struct platform *p, struct cma_device *const *devs)
{
}

/*
 * No CMA at all: neither the default area nor the board's. A device
 * tree's other reserved memory (no-map regions, coherent pools) stays as
 * the kernel keeps it; its CMA pools fail and are given back. 0 or -EINVAL.
 */
int policy_without_cma(struct sim *s)
{
	struct platform *p = &s->plat;

	if (strlen(p->cmdline) + sizeof(" cma=0") > sizeof(p->cmdline)) {
		fprintf(stderr, "cmasim: scenario %s: the command line is too long to add cma=0\n", s->sc->name);
		return -EINVAL;
	}
	strcat(p->cmdline, p->cmdline[0] ? " cma=0" : "cma=0");
	for (unsigned i = 0; i < p->nr_devices; i++) {
		p->devices[i].cma_size = 0;
		p->devices[i].share[0] = '\0';
	}
	if (p->source[0])
		p->without_cma = true;
	else
		p->reserve = no_reserve;
	return 0;
}

cma_gfp_t policy_gfp(const struct wl_device *spec)
{
	return spec->atomic ? CMA_GFP_ATOMIC : spec->gfp;
}

bool policy_driver_asks_cma(const struct sim *s, const struct wl_device *spec)
{
	return spec->align_bytes > s->page_bytes;
}

unsigned policy_order_of(uint64_t pages)
{
	unsigned order = 0;

	while ((1ull << order) < pages)
		order++;
	return order;
}

