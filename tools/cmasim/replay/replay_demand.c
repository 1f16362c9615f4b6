// SPDX-License-Identifier: GPL-2.0
/*
 * From events to requests. cma_alloc runs in the task that asked, start
 * to finish (it sleeps, it does not hand over), so a finish belongs to
 * the last open start of its task and area; what that task traced in
 * between (busy retries, alloc_contig_range's migrations) is the
 * request's work. A release frees what a request got: the first
 * unreleased one at its pfn and count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"

/* The request open in @pid (started, not finished), optionally of area @area; NULL if none. */
static struct replay_request *open_request(struct replay_trace *t, const int *pids, int pid,
					   const char *area)
{
	for (size_t i = t->nr_req; i-- > 0;) {
		struct replay_request *r = &t->req[i];

		if (pids[i] == pid && r->has_start && !r->finished && (!area || !strcmp(r->area, area)))
			return r;
	}
	return NULL;
}

/* @e finishes @r: -EINVAL when it is stamped before the start (lines out of order). */
static int finish(struct replay_trace *t, struct replay_request *r, const struct replay_event *e,
		  char *err, size_t errlen)
{
	if (r->has_start && e->ts_ns < r->start_ns)
		return snprintf(err, errlen, "%s:%u: cma_alloc_finish at %llu ns, before its start at %llu ns: the trace's lines are out of order (a trace_pipe of several CPUs?); accepted: events in time order, as the trace file and trace-cmd report give them",
				t->path, e->where, (unsigned long long)e->ts_ns, (unsigned long long)r->start_ns),
		       -EINVAL;
	r->finished = true;
	r->finish_ns = e->ts_ns;
	r->pfn = e->pfn;
	r->errorno = e->errorno;
	r->align = e->align;
	r->count = e->count;
	r->where = e->where;
	r->has_latency = r->has_start;
	r->latency_ns = r->has_start ? e->ts_ns - r->start_ns : 0;
	return 0;
}

static void release(struct replay_trace *t, const struct replay_event *e)
{
	for (size_t i = 0; i < t->nr_req; i++) {
		struct replay_request *r = &t->req[i];

		if (!r->released && !r->errorno && r->finished && r->finish_ns <= e->ts_ns && r->pfn == e->pfn &&
		    r->count == e->count && !strcmp(r->area, e->area)) {
			r->released = true;
			r->release_ns = e->ts_ns;
			return;
		}
	}
}

/* The last request of @pid that finished, for what is printed after its finish. */
static struct replay_request *last_finished(struct replay_trace *t, const int *pids, int pid)
{
	for (size_t i = t->nr_req; i-- > 0;)
		if (pids[i] == pid && t->req[i].finished)
			return &t->req[i];
	return NULL;
}

static void add_work(struct replay_request *r, const struct replay_event *e)
{
	if (!r)
		return;
	switch (e->type) {
	case RP_CMA_ALLOC_BUSY_RETRY:
		r->busy_retries++;
		break;
	case RP_MIGRATE_PAGES:
	case RP_CONTIG_RANGE_INFO:
		r->migrated += e->migrated;
		r->reclaimed += e->reclaimed;
		r->has_migrated = true;
		break;
	default:
		break;
	}
}

/* Did the recording enable the events that count a request's migrations? */
static bool migrations_traced(const struct replay_trace *t)
{
	return t->types[RP_MIGRATE_PAGES] || t->types[RP_CONTIG_RANGE_INFO] || t->types[RP_CMA_ALLOC_INFO] ||
	       t->families[RPF_MIGRATE];
}

/* A request a policy served (a cmasim run's [demand]): whole in its one line. */
static void demand_request(struct replay_request *r, const struct replay_event *e)
{
	*r = (struct replay_request){
		.start_ns = e->ts_ns, .finish_ns = e->ts_ns, .finished = true, .has_start = true,
		.count = e->count, .align = e->align, .pfn = e->pfn, .errorno = e->errorno,
		.migrated = e->migrated, .has_migrated = true, .latency_ns = e->latency_ns, .has_latency = true,
		.where = e->where,
	};
	snprintf(r->area, sizeof(r->area), "%s", e->area);
}

/* In a run's trace of [demand] requests, the cma events are the policy's own work, not requests. */
static bool a_request(const struct replay_trace *t, const struct replay_event *e)
{
	return !t->types[RP_DEMAND_REQUEST] || e->type == RP_DEMAND_REQUEST || e->type == RP_DEMAND_RELEASE ||
	       e->type == RP_DEVICE_LATENCY;
}

int replay_requests(struct replay_trace *t, char *err, size_t errlen)
{
	size_t n = t->types[RP_CMA_ALLOC_START] + t->types[RP_CMA_ALLOC_FINISH] + t->types[RP_DEMAND_REQUEST];
	int *pids = calloc(n ? n : 1, sizeof(*pids));
	bool contig_info = t->types[RP_CONTIG_RANGE_INFO];
	size_t kept = 0;
	int ret;

	free(t->req);
	t->req = calloc(n ? n : 1, sizeof(*t->req));
	t->nr_req = 0;
	if (!pids || !t->req) {
		free(pids);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->nr_ev; i++) {
		const struct replay_event *e = &t->ev[i];
		struct replay_request *r;

		if (!a_request(t, e))
			continue;
		switch (e->type) {
		case RP_DEMAND_REQUEST:
			pids[t->nr_req] = e->pid;
			demand_request(&t->req[t->nr_req++], e);
			break;
		case RP_CMA_ALLOC_START:
			r = &t->req[t->nr_req];
			pids[t->nr_req++] = e->pid;
			snprintf(r->area, sizeof(r->area), "%s", e->area);
			r->start_ns = e->ts_ns;
			r->has_start = true;
			r->count = e->count;
			r->align = e->align;
			break;
		case RP_CMA_ALLOC_FINISH:
			r = open_request(t, pids, e->pid, e->area);
			if (!r) {
				r = &t->req[t->nr_req];
				pids[t->nr_req++] = e->pid;
				snprintf(r->area, sizeof(r->area), "%s", e->area);
			}
			ret = finish(t, r, e, err, errlen);
			if (ret) {
				free(pids);
				return ret;
			}
			break;
		case RP_CMA_RELEASE:
		case RP_DEMAND_RELEASE:
			release(t, e);
			break;
		case RP_MIGRATE_PAGES:
			/* the range's own count, when traced, is the better: one of the two */
			if (!contig_info)
				add_work(open_request(t, pids, e->pid, NULL), e);
			break;
		case RP_CONTIG_RANGE_INFO:
		case RP_CMA_ALLOC_BUSY_RETRY:
			add_work(open_request(t, pids, e->pid, NULL), e);
			break;
		case RP_CMA_ALLOC_INFO:
			r = last_finished(t, pids, e->pid);
			if (r && !r->has_migrated) {
				r->migrated = e->migrated;
				r->reclaimed = e->reclaimed;
				r->has_migrated = true;
			}
			break;
		case RP_DEVICE_REQUEST:
			r = last_finished(t, pids, e->pid);
			if (r) {
				r->latency_ns = e->latency_ns;
				r->has_latency = true;
			}
			break;
		case RP_DEVICE_LATENCY:
			r = last_finished(t, pids, e->pid);
			if (r) {
				r->parts = e->parts;
				r->has_parts = true;
			}
			break;
		case RP_CMA_ALLOC_LATENCY:
			/* the fallback after a failed cma_alloc is no part of its span */
			r = last_finished(t, pids, e->pid);
			if (r) {
				r->latency_ns = e->latency_ns;
				r->has_latency = true;
				r->parts = e->parts;
				r->has_parts = true;
			}
			break;
		default:
			break;
		}
	}
	free(pids);
	/* a start the trace ends inside of was never a request it can compare */
	for (size_t i = 0; i < t->nr_req; i++)
		if (t->req[i].finished)
			t->req[kept++] = t->req[i];
	t->nr_req = kept;
	/* a request with no migration while the trace records them migrated none */
	for (size_t i = 0; i < t->nr_req && migrations_traced(t); i++)
		t->req[i].has_migrated = true;
	if (!t->nr_req)
		return snprintf(err, errlen, "%s: no CMA request: the trace has no cma_alloc_finish event (record with trace-cmd record -e cma, or echo 1 > events/cma/enable)",
				t->path), -EINVAL;
	return 0;
}
