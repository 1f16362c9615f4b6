// SPDX-License-Identifier: GPL-2.0
/*
 * The predict policy (ours): CMA, plus each device's future. A device
 * that runs in sessions asks for its ring at each session's start and
 * gives it all back at its end; the policy learns online, from what the
 * device did so far (never the scenario's schedule), the idle time
 * between a session's end and the next start and the ranges the session
 * took. A lead time before the next start is due it evacuates those
 * ranges in the background, a pageblock at a time (alloc_contig_range of
 * the batch, then free_contig_range: the movable pages move out and the
 * range is free again), each batch priced by the cost model and spaced so
 * that the work takes at most half a CPU. Only at the last moment does it
 * allocate the buffers themselves from the CMA area, by then mostly free,
 * and hold them for the device; a request then costs what handing out a
 * held buffer costs. If the device does not come, the buffers go back
 * unused and the work counts as wasted.
 *
 * A device's prefetch = LEAD key gives the lead and lets the policy use
 * the schedule the scenario declares (session and gap) from the start:
 * for a user who knows it.
 *
 * A device's first session comes before anything is known of it, and the
 * second before a gap was seen. For small requests the policy keeps a
 * standing pool instead: a thousandth of the machine's memory, taken
 * from the default CMA area at attach (a power of two of pages, aligned
 * to its size), from which any request that fits is served at once and
 * to which it returns at its end. The pool's free pages count against
 * usable memory as held buffers do; what it serves is never predicted.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/bitmap.h"
#include "engine/sim_api.h"

#define PREDICT_LEAD_NS		(1000 * 1000000ull)	/* default lead before a predicted start */
#define PREDICT_HOLD_NS		(20 * 1000000ull)	/* the buffers are taken this long before it */
#define PREDICT_GRACE_NS	(500 * 1000000ull)	/* past it, unused buffers go back */
#define PREDICT_MIN_GAP_NS	(50 * 1000000ull)	/* shorter idle times are not worth predicting */
#define PREDICT_POOL_SHARE	1024			/* the standing pool: at most this share of memory */

extern const struct sim_policy_ops policy_cma;

struct predict_dev {
	struct workload *w;
	/* what the device did */
	unsigned nr_out;		/* buffers it holds now: a session runs while there are some */
	uint64_t last_end;		/* its last session's end (last free); 0: none yet */
	uint64_t gap_ns;		/* learned idle time; 0: nothing learned */
	unsigned nr_ranges;		/* buffers its last session took */
	unsigned long range_pfn[DEV_MAX_CHUNKS];
	uint64_t range_pages[DEV_MAX_CHUNKS];
	/* the prediction under way */
	uint64_t due;			/* predicted start; 0: none */
	unsigned next_range;		/* evacuation: the range and pfn to do next */
	unsigned long next_pfn;
	uint64_t advance_ns;		/* this prediction's work so far */
	unsigned nr_held, nr_used;	/* buffers taken for it; of those handed out */
	struct cma_page *held[DEV_MAX_CHUNKS];
	uintptr_t generation;		/* events of an older prediction see a newer one and stop */
};

struct predict {
	struct predict_dev dev[SIM_MAX_WORKLOADS];	/* by workload index */
	double held_page_ns;
	uint64_t held_pages, held_at;
	/* the standing pool, from the default area */
	struct cma_page *pool;
	unsigned long pool_pfn, pool_pages;
	unsigned pool_order;
	unsigned long *pool_busy;	/* its pages handed out */
};

static struct predict_dev *dev_of(struct sim *s, struct workload *w)
{
	struct predict_dev *d = &((struct predict *)sim_policy_priv(s))->dev[w->idx];

	d->w = w;
	return d;
}

static struct cma_device *cma_dev(struct sim *s, struct predict_dev *d)
{
	return sim_workload_device(s, d->w);
}

static uint64_t buffer_pages(struct sim *s, struct predict_dev *d)
{
	return sim_pages(s, d->w->spec->device.buffer_bytes);
}

static void held_integrate(struct sim *s, struct predict *p)
{
	p->held_page_ns += (double)p->held_pages * (double)(sim_now(s) - p->held_at);
	p->held_at = sim_now(s);
}

/* Prefetched buffers held over time (the memory they keep from the rest of the machine). */
static void held_change(struct sim *s, long delta)
{
	struct predict *p = sim_policy_priv(s);

	sim_usable_update(s);
	held_integrate(s, p);
	p->held_pages += (uint64_t)delta;
}

/*
 * The events of a prediction carry its device's index and generation in
 * the argument itself: nothing to free when the run ends before them.
 */
static void schedule(struct sim *s, struct predict_dev *d, uint64_t at, sim_event_fn fn)
{
	uintptr_t arg = (uintptr_t)d->generation * SIM_MAX_WORKLOADS + d->w->idx;

	sim_schedule(s, at, fn, (void *)arg);
}

/* The event's device if its prediction still stands. */
static struct predict_dev *event_dev(struct sim *s, void *arg)
{
	struct predict *p = sim_policy_priv(s);
	uintptr_t v = (uintptr_t)arg;
	struct predict_dev *d = &p->dev[v % SIM_MAX_WORKLOADS];

	return d->generation == v / SIM_MAX_WORKLOADS && d->due ? d : NULL;
}

/* Give back what the prediction holds and has not handed out: wasted. */
static void release_unused(struct sim *s, struct predict_dev *d)
{
	struct predict_result *r = &sim_run_result(s)->predict;
	uint64_t pages = buffer_pages(s, d);
	unsigned unused = d->nr_held - d->nr_used;

	if (unused) {
		held_change(s, -(long)(unused * pages));
		for (unsigned i = d->nr_used; i < d->nr_held; i++)
			cma_dma_release_from_contiguous(sim_mm(s), cma_dev(s, d), d->held[i], (int)pages);
		r->released_unused += unused;
		/* the share of the work for buffers never used */
		r->wasted_ns += d->advance_ns * unused / d->nr_held;
	}
	d->nr_held = d->nr_used = 0;
}

/* The prediction ends: its pending events see a newer generation. */
static void end_prediction(struct predict_dev *d)
{
	d->due = 0;
	d->generation++;
}

/* The device did not come in time: the prediction missed, its buffers go back. */
static void expire(struct sim *s, void *arg)
{
	struct predict_dev *d = event_dev(s, arg);

	if (!d || d->nr_out || sim_defer_while_request(s, expire, arg))
		return;
	sim_run_result(s)->predict.misses++;
	sim_run_result(s)->predict.wasted_ns += d->nr_held ? 0 : d->advance_ns;
	release_unused(s, d);
	end_prediction(d);
}

/* The last moment: the buffers themselves, from a range the batches emptied. */
static void take(struct sim *s, void *arg)
{
	struct predict_dev *d = event_dev(s, arg);
	struct predict_result *r = &sim_run_result(s)->predict;
	const struct wl_device *spec;
	struct cost_counters before;
	struct cost_work work = { 0 };
	uint64_t pages, ns;

	if (!d || d->nr_out || sim_defer_while_request(s, take, arg))
		return;
	spec = &d->w->spec->device;
	pages = buffer_pages(s, d);
	cost_counters_read(s, &before);
	while (d->nr_held < d->nr_ranges) {
		unsigned align = spec->align_bytes > sim_page_bytes(s) ?
				 policy_order_of(spec->align_bytes / sim_page_bytes(s)) : policy_order_of(pages);
		struct cma_page *page = cma_dma_alloc_from_contiguous(sim_mm(s), cma_dev(s, d), (int)pages, align);

		if (!page) {
			r->take_failures++;
			break;
		}
		d->held[d->nr_held++] = page;
		held_change(s, (long)pages);
	}
	cost_work_since(s, &before, &work);
	work.locks += d->nr_held;
	ns = cost_ns(sim_cost(s), &work, sim_page_bytes(s));
	d->advance_ns += ns;
	r->advance_ns += ns;
	r->advance_migrated += work.migrated;
}

/* One batch of the evacuation: a pageblock of the next range, migrated out and left free. */
static void evacuate(struct sim *s, void *arg)
{
	struct predict_dev *d = event_dev(s, arg);
	struct predict_result *r = &sim_run_result(s)->predict;
	struct cost_counters before;
	struct cost_work work = { 0 };
	unsigned long start, end, range_end;
	uint64_t ns;

	/* done, or the moment to take the buffers has come */
	if (!d || d->nr_out || d->next_range == d->nr_ranges || sim_now(s) + PREDICT_HOLD_NS >= d->due)
		return;
	/* the request in flight may hold cma_mutex, which the batch takes: after it */
	if (sim_defer_while_request(s, evacuate, arg))
		return;
	range_end = d->range_pfn[d->next_range] + d->range_pages[d->next_range];
	start = d->next_pfn;
	end = (start / sim_pageblock_pages(s) + 1) * sim_pageblock_pages(s);
	if (end > range_end)
		end = range_end;
	cost_counters_read(s, &before);
	/* busy (a pin, another device's buffer there now): left to the request, as under cma */
	if (!cma_alloc_contig_range(sim_mm(s), start, end, CMA_MIGRATE_CMA))
		cma_free_contig_range(sim_mm(s), start, end - start);
	cost_work_since(s, &before, &work);
	work.drains += 2;
	work.locks++;
	ns = cost_ns(sim_cost(s), &work, sim_page_bytes(s));
	d->advance_ns += ns;
	r->advance_ns += ns;
	r->advance_migrated += work.migrated;
	r->advance_batches++;
	if (end == range_end && ++d->next_range < d->nr_ranges)
		d->next_pfn = d->range_pfn[d->next_range];
	else
		d->next_pfn = end;
	/* idle CPU time: at most half of one */
	schedule(s, d, sim_now(s) + 2 * ns, evacuate);
}

/* What the device will do next, from what it did; the evacuation scheduled. */
static void predict_next(struct sim *s, struct predict_dev *d)
{
	const struct wl_device *spec = &d->w->spec->device;
	uint64_t lead = spec->prefetch_ns ? spec->prefetch_ns : PREDICT_LEAD_NS;
	uint64_t gap = spec->prefetch_ns ? (spec->gap_ns ? spec->gap_ns : spec->period_ns) : d->gap_ns;

	/* the device's stop time is the scenario's schedule, not known: a stopped device is a miss */
	if (gap < PREDICT_MIN_GAP_NS || !d->nr_ranges)
		return;
	d->due = sim_now(s) + gap;
	d->next_range = 0;
	d->next_pfn = d->range_pfn[0];
	d->advance_ns = 0;
	sim_run_result(s)->predict.predictions++;
	schedule(s, d, d->due > lead ? d->due - lead : 0, evacuate);
	schedule(s, d, d->due > PREDICT_HOLD_NS ? d->due - PREDICT_HOLD_NS : 0, take);
	schedule(s, d, d->due + PREDICT_GRACE_NS, expire);
}

/*
 * The standing pool: the largest power of two of pages within a
 * PREDICT_POOL_SHARE-th of memory, from the default area, at attach.
 * Its cost is work in advance; none if the area cannot give it.
 */
static int take_pool(struct sim *s, struct predict *p)
{
	struct predict_result *r = &sim_run_result(s)->predict;
	uint64_t most = sim_run_result(s)->total_pages / PREDICT_POOL_SHARE;
	struct cost_counters before;
	struct cost_work work = { .locks = 1 };
	unsigned order = 0;
	uint64_t ns;

	if (!most || !cma_dev_get_cma_area(sim_mm(s), NULL))
		return 0;
	while ((2ull << order) <= most)
		order++;
	cost_counters_read(s, &before);
	p->pool = cma_dma_alloc_from_contiguous(sim_mm(s), NULL, 1 << order, order);
	if (!p->pool)
		return 0;
	/* set before anything can fail: predict_destroy gives the pool back */
	p->pool_pages = 1ul << order;
	p->pool_busy = calloc(BITS_TO_LONGS(p->pool_pages) + 1, sizeof(long));
	if (!p->pool_busy)
		return -ENOMEM;
	cost_work_since(s, &before, &work);
	ns = cost_ns(sim_cost(s), &work, sim_page_bytes(s));
	r->advance_ns += ns;
	r->advance_migrated += work.migrated;
	p->pool_pfn = cma_page_to_pfn(sim_mm(s), p->pool);
	p->pool_order = order;
	p->held_pages = p->pool_pages;
	r->pool_pages = p->pool_pages;
	return 0;
}

static int predict_attach(struct sim *s)
{
	struct predict *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	sim_set_policy_priv(s, p);
	p->held_at = sim_now(s);
	sim_run_result(s)->predict.on = true;
	return take_pool(s, p);
}

/* A request served from the standing pool if the device's area is the pool's and a fitting run is free. */
static bool pool_take(struct sim *s, struct predict_dev *d, struct dev_buffer *b, struct cost_work *work)
{
	struct predict *p = sim_policy_priv(s);
	const struct wl_device *spec = &d->w->spec->device;
	uint64_t pages = buffer_pages(s, d);
	unsigned align = spec->align_bytes > sim_page_bytes(s) ?
			 policy_order_of(spec->align_bytes / sim_page_bytes(s)) : policy_order_of(pages);
	unsigned long pos;

	if (!p->pool || pages > p->pool_pages || align > p->pool_order ||
	    cma_dev_get_cma_area(sim_mm(s), cma_dev(s, d)) != cma_dev_get_cma_area(sim_mm(s), NULL))
		return false;
	pos = bitmap_find_next_zero_area_off(p->pool_busy, p->pool_pages, 0, (unsigned)pages,
					     (1ul << align) - 1, 0);
	if (pos >= p->pool_pages)
		return false;
	bitmap_set(p->pool_busy, pos, (unsigned)pages);
	b->contig = NULL;
	b->nr_chunks = 0;
	b->raw = policy_driver_asks_cma(s, spec);
	b->handle = (cma_phys_t)(p->pool_pfn + pos) * sim_page_bytes(s);
	held_change(s, -(long)pages);
	/*
	 * Handed out as a gen_pool hands out ARM's atomic pool: a bitmap
	 * under a spinlock, no CMA mutex, nothing that sleeps.
	 */
	work->locks++;
	work->nosched_locks++;
	policy_account(s, b, pages, work);
	sim_run_result(s)->predict.pool_served++;
	return true;
}

/* Back to the pool if @b came from it. */
static bool pool_put(struct sim *s, struct dev_buffer *b, uint64_t pages)
{
	struct predict *p = sim_policy_priv(s);
	unsigned long pfn = (unsigned long)(b->handle / sim_page_bytes(s));

	if (!p->pool || b->contig || pfn < p->pool_pfn || pfn >= p->pool_pfn + p->pool_pages)
		return false;
	bitmap_clear(p->pool_busy, pfn - p->pool_pfn, (unsigned)pages);
	held_change(s, (long)pages);
	return true;
}

/* A held buffer, handed out: its pages were taken and counted when prefetched. */
static int hand_out(struct sim *s, struct predict_dev *d, struct dev_buffer *b, struct cost_work *work)
{
	uint64_t pages = buffer_pages(s, d);

	b->contig = d->held[d->nr_used++];
	b->nr_chunks = 0;
	/* taken raw in advance: cleared now if the driver asked dma_alloc_coherent */
	b->raw = policy_driver_asks_cma(s, &d->w->spec->device);
	b->handle = (cma_phys_t)cma_page_to_pfn(sim_mm(s), b->contig) * sim_page_bytes(s);
	held_change(s, -(long)pages);
	work->locks++;
	policy_account(s, b, pages, work);
	sim_run_result(s)->predict.served++;
	return 0;
}

static int predict_alloc(struct sim *s, struct workload *w, struct dev_buffer *b, struct cost_work *work,
			 enum fail_cause *cause)
{
	struct predict_dev *d = dev_of(s, w);
	bool pooled = false;
	int ret = 0;

	if (!d->nr_out && !d->nr_used) {
		/* a session starts: what it takes is learned afresh */
		if (d->last_end)
			d->gap_ns = sim_now(s) - d->last_end;
		if (d->due) {
			if (d->nr_held)
				sim_run_result(s)->predict.hits++;
			else
				sim_run_result(s)->predict.early++;
			end_prediction(d);
		}
		d->nr_ranges = 0;
	}
	if (d->nr_used < d->nr_held)
		ret = hand_out(s, d, b, work);
	else if (pool_take(s, d, b, work))
		pooled = true;
	else
		ret = policy_cma.alloc(s, w, b, work, cause);
	if (ret)
		return ret;
	d->nr_out++;
	/* the pool serves it again: nothing to predict */
	if (!pooled && d->nr_ranges < DEV_MAX_CHUNKS) {
		d->range_pfn[d->nr_ranges] = (unsigned long)(b->handle / sim_page_bytes(s));
		d->range_pages[d->nr_ranges++] = b->pages_held;
	}
	return ret;
}

static void predict_free(struct sim *s, struct workload *w, struct dev_buffer *b)
{
	struct predict_dev *d = dev_of(s, w);

	if (!pool_put(s, b, buffer_pages(s, d)))
		policy_cma.free(s, w, b);
	if (--d->nr_out)
		return;
	/* the session's end: buffers prefetched beyond what it asked for were wasted */
	d->last_end = sim_now(s);
	release_unused(s, d);
	predict_next(s, d);
}

/* As under cma, less the prefetched buffers held for a device that has not asked yet and the pool's free pages. */
static uint64_t predict_usable(const struct sim *s)
{
	const struct predict *p = sim_policy_priv(s);
	uint64_t held = sim_class_pages(s, MC_DEVICE) + (p ? p->held_pages : 0);

	return sim_run_result(s)->total_pages > held ? sim_run_result(s)->total_pages - held : 0;
}

static void predict_destroy(struct sim *s)
{
	struct predict *p = sim_policy_priv(s);

	if (!p)
		return;
	held_integrate(s, p);
	sim_run_result(s)->predict.held_mean_pages = sim_now(s) ? (uint64_t)(p->held_page_ns / (double)sim_now(s)) : 0;
	/* the run is over: what a prediction still holds goes back uncounted */
	for (unsigned i = 0; i < SIM_MAX_WORKLOADS; i++) {
		struct predict_dev *d = &p->dev[i];

		for (unsigned h = d->nr_used; d->w && h < d->nr_held; h++)
			cma_dma_release_from_contiguous(sim_mm(s), cma_dev(s, d), d->held[h],
							(int)buffer_pages(s, d));
	}
	/* the devices gave back their buffers when they stopped */
	if (p->pool)
		cma_dma_release_from_contiguous(sim_mm(s), NULL, p->pool, (int)p->pool_pages);
	free(p->pool_busy);
	free(p);
	sim_set_policy_priv(s, NULL);
}

const struct sim_policy_ops policy_predict = {
	.name = "predict",
	.opt_in = true,
	.attach = predict_attach,
	.alloc = predict_alloc,
	.free = predict_free,
	.usable = predict_usable,
	.destroy = predict_destroy,
};
