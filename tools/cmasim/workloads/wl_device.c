// SPDX-License-Identifier: GPL-2.0
/*
 * Devices: a camera, codec or display streams in sessions. A session
 * starts by requesting its ring of buffers one after the other (as
 * VIDIOC_REQBUFS would); a request's latency is the device time the cost
 * model gives the work the allocator did for it. The session streams one
 * frame per period while its whole ring is held, and at its end gives
 * every buffer back; the next one starts after the gap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/inifile.h"
#include "engine/sim_api.h"

struct device_wl {
	struct dev_buffer *ring;
	unsigned held;
	bool streaming;
	uint64_t busy_until;		/* its last request's end: the next one starts no sooner */
	bool waited;			/* its session waited for another device's request ... */
	uint64_t waited_from;		/* ... from when it began */
	uint64_t ends_at;		/* the session's planned end, its requests' time inside it */
};

static void session_start(struct sim *s, void *arg);

static void request(struct sim *s, struct workload *w, struct device_wl *d)
{
	struct device_result *r = w->dev_res;
	struct dev_buffer *b = &d->ring[d->held];
	struct cost_work work = { 0 };
	struct cost_parts parts;
	enum fail_cause cause;
	uint64_t ns, start = d->busy_until > sim_now(s) ? d->busy_until : sim_now(s);
	int ret;

	/* a session that waited for the CMA mutex asked from when it began: the wait is its latency */
	if (d->waited && d->waited_from < start)
		start = d->waited_from;
	d->waited = false;
	/* asked by the thread of the request before it (serial): only once that one is over */
	if (w->spec->device.serial && sim_cma_mutex_free_at(s) > start)
		start = sim_cma_mutex_free_at(s);

	r->requests++;
	w->res->ops++;
	sim_usable_update(s);
	ret = policy_request(s, w, b, start, &work, &parts, &cause, &ns);
	r->busy_retries += sim_busy_retries(s);
	d->busy_until = start + ns;
	sim_trace_printf(s, "cmasim_device_request: dev=%s bytes=%llu pfn=0x%llx latency_ns=%llu result=%s",
			 w->spec->name, (unsigned long long)w->spec->device.buffer_bytes,
			 ret ? 0ull : (unsigned long long)(b->handle / sim_page_bytes(s)),
			 (unsigned long long)ns, ret ? fail_cause_name(cause) : "ok");
	sim_trace_latency_parts(s, w->spec->name, &parts);
	if (ret) {
		r->fail[cause]++;
		r->deadline_misses++;
		sim_request_missed(s);
		return;
	}
	r->successes++;
	sim_latency_add(&r->lat, ns);
	latency_breakdown_add(&r->breakdown, &parts);
	if (w->spec->device.deadline_ns && ns > w->spec->device.deadline_ns) {
		r->deadline_misses++;
		sim_request_missed(s);
	}
	d->held++;
}

static void release_all(struct sim *s, struct workload *w, struct device_wl *d)
{
	sim_usable_update(s);
	while (d->held)
		policy_free(s, w, &d->ring[--d->held]);
}

static void session_end(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct device_wl *d = w->priv;
	const struct wl_device *spec = &w->spec->device;

	if (!d->streaming || sim_defer_while_request(s, session_end, w))
		return;
	d->streaming = false;
	release_all(s, w, d);
	/* the next begins a gap after the planned end, however long this one's requests took */
	if (!sim_wl_over(s, w))
		sim_schedule(s, d->ends_at + (spec->gap_ns ? spec->gap_ns : spec->period_ns), session_start, w);
}

static void session_start(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct device_wl *d = w->priv;
	const struct wl_device *spec = &w->spec->device;
	uint64_t began, end, len;

	if (sim_wl_over(s, w))
		return;
	if (sim_defer_while_request(s, session_start, w)) {
		if (!d->waited)
			d->waited_from = sim_now(s);
		d->waited = true;
		return;
	}
	/* the session's schedule is the application's: it counts from when it began, its requests inside it */
	began = d->waited ? d->waited_from : sim_now(s);
	while (d->held < spec->ring) {
		unsigned before = d->held;

		request(s, w, d);
		if (d->held == before)
			break;		/* the driver gives up on the stream */
	}
	d->streaming = true;
	/* a session ends with its length, the workload's stop or the run, whichever comes first */
	end = spec->session_ns && began + spec->session_ns < sim_end_ns(s) ? began + spec->session_ns : sim_end_ns(s);
	if (w->spec->stop_ns && end > w->spec->stop_ns)
		end = w->spec->stop_ns;
	len = end - began;
	if (d->held == spec->ring)
		w->dev_res->frames += len / spec->period_ns;
	/* a failed start retries after the gap, as an application would */
	d->ends_at = d->held == spec->ring ? began + len : sim_now(s);
	sim_schedule(s, d->ends_at, session_end, w);
}

static int device_start(struct sim *s, struct workload *w)
{
	struct device_wl *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	w->priv = d;
	d->ring = calloc(w->spec->device.ring, sizeof(*d->ring));
	if (!d->ring)
		return -ENOMEM;
	sim_schedule(s, w->spec->start_ns, session_start, w);
	return 0;
}

static void device_stop(struct sim *s, struct workload *w)
{
	struct device_wl *d = w->priv;

	if (!d)
		return;
	release_all(s, w, d);
	free(d->ring);
	free(d);
	w->priv = NULL;
	w->stopped = true;
}

static uint64_t device_resident(const struct workload *w)
{
	const struct device_wl *d = w->priv;
	uint64_t pages = 0;

	for (unsigned i = 0; d && i < d->held; i++)
		pages += d->ring[i].pages_held;
	return pages;
}

static void mark_run(struct sim_snapshot *snap, unsigned long pfn, uint64_t n)
{
	for (; n; n--, pfn++) {
		unsigned long blk = (pfn - snap->start_pfn) / snap->pageblock_pages;

		if (pfn >= snap->start_pfn && blk < snap->nr_blocks)
			snap->blocks[blk].nr_device++;
	}
}

static void device_mark_blocks(struct sim *s, struct workload *w, struct sim_snapshot *snap)
{
	const struct device_wl *d = w->priv;

	for (unsigned i = 0; d && i < d->held; i++) {
		const struct dev_buffer *b = &d->ring[i];
		unsigned nr_runs = b->nr_chunks ? b->nr_chunks : 1;

		for (unsigned c = 0; c < nr_runs; c++) {
			unsigned long pfn = b->nr_chunks ? cma_page_to_pfn(sim_mm(s), b->pages[c]) :
					    (unsigned long)(b->handle / sim_page_bytes(s));
			uint64_t n = b->nr_chunks ? 1ull << b->chunk_order : b->pages_held;

			mark_run(snap, pfn, n);
		}
	}
}

static const struct workload_ops device_ops = {
	.start = device_start,
	.stop = device_stop,
	.resident = device_resident,
	.mark_blocks = device_mark_blocks,
};

/* gfp = GFP_KERNEL | GFP_NOFS | GFP_NOIO: what the driver passes dma_alloc_coherent */
static int parse_gfp(const char *value, void *field, char *err, size_t len)
{
	static const struct { const char *name; cma_gfp_t gfp; } flags[] = {
		{ "GFP_KERNEL", CMA_GFP_KERNEL },
		{ "GFP_NOFS", CMA_GFP_NOFS },
		{ "GFP_NOIO", CMA_GFP_NOIO },
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (!strcmp(value, flags[i].name)) {
			*(cma_gfp_t *)field = flags[i].gfp;
			return 1;
		}
	return ini_fail(err, len, "gfp = %s: accepted GFP_KERNEL, GFP_NOFS, GFP_NOIO (atomic = yes for GFP_ATOMIC)",
			value);
}

static const struct scenario_key device_keys[] = {
	{ .name = "size", .type = KEY_SIZE, .offset = WL(device.buffer_bytes), .max = SIM_MAX_BYTES, .required = true },
	{ .name = "period", .type = KEY_DURATION, .offset = WL(device.period_ns), .required = true },
	{ .name = "ring", .type = KEY_U32, .offset = WL(device.ring), .max = 64 },
	{ .name = "deadline", .type = KEY_DURATION, .offset = WL(device.deadline_ns) },
	{ .name = "session", .type = KEY_DURATION, .offset = WL(device.session_ns) },
	{ .name = "gap", .type = KEY_DURATION, .offset = WL(device.gap_ns) },
	{ .name = "align", .type = KEY_SIZE, .offset = WL(device.align_bytes), .max = SIM_MAX_BYTES },
	{ .name = "atomic", .type = KEY_BOOL, .offset = WL(device.atomic) },
	{ .name = "gfp", .type = KEY_CUSTOM, .offset = WL(device.gfp), .parse = parse_gfp },
	{ .name = "sg", .type = KEY_BOOL, .offset = WL(device.sg) },
	{ .name = "cma", .type = KEY_SIZE, .offset = WL(device.cma_bytes), .max = SIM_MAX_BYTES,
	  .given = WL(device.cma_given) },
	{ .name = "mask", .type = KEY_UINT, .offset = WL(device.mask), .given = WL(device.mask_given) },
	{ .name = "prefetch", .type = KEY_DURATION, .offset = WL(device.prefetch_ns) },
	{ .name = "serial", .type = KEY_BOOL, .offset = WL(device.serial) },
};

static void device_defaults(struct wl_spec *w)
{
	w->device.ring = 1;
	w->device.mask = 0xffffffffull;
	w->device.gfp = CMA_GFP_KERNEL;
}

static int device_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	const char *kind = w->kind->name;

	if (!w->device.buffer_bytes || !w->device.period_ns || !w->device.ring)
		return ini_fail(err, len, "[%s %s]: size, period and ring must be above 0", kind, w->name);
	if (w->device.align_bytes & (w->device.align_bytes - 1))
		return ini_fail(err, len, "[%s %s]: align = %llu: give a power of two", kind, w->name,
				(unsigned long long)w->device.align_bytes);
	if (!w->device.mask)
		return ini_fail(err, len, "[%s %s]: mask = 0 lets the device reach nothing (e.g. mask = 0xffffffff)",
				kind, w->name);
	if (w->device.atomic && w->device.gfp != CMA_GFP_KERNEL)
		return ini_fail(err, len, "[%s %s]: atomic = yes is GFP_ATOMIC: give it or gfp, not both", kind,
				w->name);
	return 1;
}

const struct wl_kind wl_kind_device = {
	.name = "device",
	.ops = &device_ops,
	WL_KEYS(device_keys),
	.device = true,
	.defaults = device_defaults,
	.check = device_check,
};
