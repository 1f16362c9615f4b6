// SPDX-License-Identifier: GPL-2.0
/*
 * A recorded demand served by the run's policy (cmasim replay --policy):
 * the requests of a demand file of one size and alignment, each asked at
 * the time it was recorded and given back when it was, as a device
 * whose buffers are that size: what carveout, buddy, gcma or predict
 * would have given the device that made them. Where [replay] asks the
 * recorded area itself, this goes through policy_alloc() as a [device]
 * does; its ring is the most of its requests held at once, so a
 * carveout reserves what the demand needed and no more. A demand file's
 * pages are the trace's, 4 KiB.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/inifile.h"
#include "engine/sim_api.h"
#include "workloads/demand.h"

#define DEMAND_PAGE_BYTES 4096ull

struct demand_wl {
	struct replay_slot *slots;
	struct dev_buffer *bufs;	/* by slot */
	bool *held;
	size_t nr;
	uint64_t busy_until;		/* its last request's end: the next one starts no sooner */
};

static size_t slot_index(const struct replay_slot *slot)
{
	const struct demand_wl *d = slot->w->priv;

	return (size_t)(slot - d->slots);
}

static void demand_release(struct sim *s, void *arg)
{
	struct replay_slot *slot = arg;
	struct demand_wl *d = slot->w->priv;
	size_t i = slot_index(slot);

	if (!d->held[i] || sim_defer_while_request(s, demand_release, slot))
		return;
	sim_usable_update(s);
	/* the pfn before the policy lets the buffer go: cmasim replay matches it to its request */
	sim_trace_printf(s, "cmasim_demand_release: dev=%s area=%s pages=%lu pfn=0x%llx", slot->w->spec->name,
			 slot->w->spec->demand.replay.area, slot->pages,
			 (unsigned long long)(d->bufs[i].handle / sim_page_bytes(s)));
	policy_free(s, slot->w, &d->bufs[i]);
	d->held[i] = false;
}

static void demand_request(struct sim *s, void *arg)
{
	struct replay_slot *slot = arg;
	struct workload *w = slot->w;
	struct demand_wl *d = w->priv;
	struct device_result *r = w->dev_res;
	size_t i = slot_index(slot);
	struct dev_buffer *b = &d->bufs[i];
	struct cost_work work = { 0 };
	struct cost_parts parts;
	enum fail_cause cause;
	/* from its recorded time: one that waited for the CMA mutex (below) has that wait in its latency */
	uint64_t ns, start = d->busy_until > slot->at_ns ? d->busy_until : slot->at_ns;
	int ret;

	if (sim_wl_over(s, w) || sim_defer_while_request(s, demand_request, slot))
		return;
	r->requests++;
	w->res->ops++;
	sim_usable_update(s);
	ret = policy_request(s, w, b, start, &work, &parts, &cause, &ns);
	r->busy_retries += sim_busy_retries(s);
	d->busy_until = start + ns;
	sim_trace_printf(s, "cmasim_demand_request: dev=%s area=%s pages=%lu align=%u pfn=0x%llx migrated=%llu latency_ns=%llu result=%s",
			 w->spec->name, w->spec->demand.replay.area, slot->pages, slot->align,
			 ret ? 0ull : (unsigned long long)(b->handle / sim_page_bytes(s)),
			 (unsigned long long)work.migrated, (unsigned long long)ns,
			 ret ? fail_cause_name(cause) : "ok");
	sim_trace_latency_parts(s, w->spec->name, &parts);
	if (ret) {
		r->fail[cause]++;
		sim_request_missed(s);
		return;
	}
	r->successes++;
	sim_latency_add(&r->lat, ns);
	latency_breakdown_add(&r->breakdown, &parts);
	d->held[i] = true;
	if (slot->hold_ns)
		sim_schedule(s, slot->at_ns + slot->hold_ns, demand_release, slot);
}

static int demand_start(struct sim *s, struct workload *w)
{
	struct demand_wl *d = calloc(1, sizeof(*d));
	char err[512] = "";
	long nr;

	if (!d)
		return -ENOMEM;
	w->priv = d;
	nr = demand_read(w->spec->demand.replay.requests, &d->slots, err, sizeof(err));
	if (nr < 0) {
		if (nr == -1)
			fprintf(stderr, "cmasim: [demand %s]: %s\n", w->spec->name, err);
		return nr == -1 ? -EINVAL : (int)nr;
	}
	d->nr = (size_t)nr;
	d->bufs = calloc(d->nr ? d->nr : 1, sizeof(*d->bufs));
	d->held = calloc(d->nr ? d->nr : 1, sizeof(*d->held));
	if (!d->bufs || !d->held)
		return -ENOMEM;
	for (size_t i = 0; i < d->nr; i++) {
		d->slots[i].w = w;
		sim_schedule(s, d->slots[i].at_ns, demand_request, &d->slots[i]);
	}
	return 0;
}

static void demand_stop(struct sim *s, struct workload *w)
{
	struct demand_wl *d = w->priv;

	if (!d)
		return;
	for (size_t i = 0; d->held && i < d->nr; i++)
		demand_release(s, &d->slots[i]);
	free(d->slots);
	free(d->bufs);
	free(d->held);
	free(d);
	w->priv = NULL;
	w->stopped = true;
}

static uint64_t demand_resident(const struct workload *w)
{
	const struct demand_wl *d = w->priv;
	uint64_t pages = 0;

	for (size_t i = 0; d && d->held && i < d->nr; i++)
		pages += d->held[i] ? d->bufs[i].pages_held : 0;
	return pages;
}

static const struct workload_ops demand_ops = {
	.start = demand_start,
	.stop = demand_stop,
	.resident = demand_resident,
};

static const struct scenario_key demand_keys[] = {
	{ .name = "area", .type = KEY_NAME, .offset = WL(demand.replay.area), .required = true },
	{ .name = "requests", .type = KEY_FILE, .offset = WL(demand.replay.requests),
	  .size = sizeof(((struct wl_replay *)0)->requests), .required = true },
};

/* The most of @slots held at once: a request holds from its time to its release (0: the end). */
static unsigned most_held(const struct replay_slot *slots, size_t nr)
{
	unsigned most = 0;

	for (size_t i = 0; i < nr; i++) {
		unsigned held = 0;

		for (size_t j = 0; j <= i; j++)
			held += !slots[j].hold_ns || slots[j].at_ns + slots[j].hold_ns > slots[i].at_ns;
		most = held > most ? held : most;
	}
	return most;
}

/* The demand file read with the scenario: one size and alignment, the device's buffer and ring. */
static int demand_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	struct replay_slot *slots = NULL;
	char msg[512] = "";
	long nr = demand_read(w->demand.replay.requests, &slots, msg, sizeof(msg));

	if (nr < 0) {
		free(slots);
		return nr == -1 ? ini_fail(err, len, "[%s %s]: %s", w->kind->name, w->name, msg) : (int)nr;
	}
	for (long i = 1; i < nr; i++)
		if (slots[i].pages != slots[0].pages || slots[i].align != slots[0].align) {
			int ret = ini_fail(err, len, "[%s %s]: request %ld asks %lu pages at order %u, the first %lu at order %u; accepted: one size and alignment a [demand]",
					   w->kind->name, w->name, i + 1, slots[i].pages, slots[i].align,
					   slots[0].pages, slots[0].align);

			free(slots);
			return ret;
		}
	w->demand.device.buffer_bytes = nr ? slots[0].pages * DEMAND_PAGE_BYTES : DEMAND_PAGE_BYTES;
	w->demand.device.align_bytes = nr ? DEMAND_PAGE_BYTES << slots[0].align : 0;
	w->demand.device.ring = nr ? most_held(slots, (size_t)nr) : 1;
	w->demand.device.mask = UINT64_MAX;
	w->demand.device.gfp = CMA_GFP_KERNEL;
	free(slots);
	return 1;
}

const struct wl_kind wl_kind_demand = {
	.name = "demand",
	.ops = &demand_ops,
	WL_KEYS(demand_keys),
	.device = true,
	.check = demand_check,
};
