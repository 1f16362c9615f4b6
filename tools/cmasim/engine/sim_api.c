// SPDX-License-Identifier: GPL-2.0
/*
 * The run as its workloads and policies see it: struct sim stays the
 * engine's, and these are the only ways into it from outside engine/.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"

struct cma_mm *sim_mm(const struct sim *s)
{
	return s->mm;
}

uint64_t sim_now(const struct sim *s)
{
	return s->now;
}

uint64_t sim_end_ns(const struct sim *s)
{
	return s->end_ns;
}

uint64_t sim_cma_mutex_free_at(const struct sim *s)
{
	return s->cma_mutex_holder >= 0 ? s->cma_mutex_free_at : 0;
}

uint64_t sim_page_bytes(const struct sim *s)
{
	return s->page_bytes;
}

unsigned sim_max_order(const struct sim *s)
{
	return s->max_order;
}

unsigned long sim_pageblock_pages(const struct sim *s)
{
	return s->pageblock_pages;
}

const struct scenario *sim_scenario(const struct sim *s)
{
	return s->sc;
}

const struct platform *sim_platform(const struct sim *s)
{
	return &s->plat;
}

struct platform *sim_platform_to_prepare(struct sim *s)
{
	return &s->plat;
}

const struct cost_model *sim_cost(const struct sim *s)
{
	return &s->cost;
}

struct storage *sim_storage(struct sim *s)
{
	return &s->storage;
}

struct sim_result *sim_run_result(const struct sim *s)
{
	return s->res;
}

void *sim_policy_priv(const struct sim *s)
{
	return s->policy_priv;
}

void sim_set_policy_priv(struct sim *s, void *priv)
{
	s->policy_priv = priv;
}

uint64_t sim_class_pages(const struct sim *s, enum mem_class c)
{
	return s->class_pages[c];
}

void sim_account_class(struct sim *s, enum mem_class c, long delta)
{
	s->class_pages[c] += (uint64_t)delta;
}

void sim_account_pinned(struct sim *s, long delta)
{
	s->pinned_pages += (uint64_t)delta;
}

void sim_account_written_back(struct sim *s, uint64_t pages)
{
	s->written_back += pages;
}

struct workload *sim_workload(struct sim *s, unsigned idx)
{
	return &s->wl[idx];
}

struct cma_device *sim_device(const struct sim *s, unsigned i)
{
	return s->devs[i];
}

struct cma_device *sim_workload_device(const struct sim *s, const struct workload *w)
{
	return s->devs[s->dev_of_wl[w->idx]];
}

unsigned sim_cma_attempts(const struct sim *s)
{
	return s->cma_attempts;
}

unsigned sim_busy_retries(const struct sim *s)
{
	return s->busy_retries;
}

bool sim_tracing(const struct sim *s)
{
	return s->trace != NULL;
}

void sim_request_missed(struct sim *s)
{
	s->stop |= s->stop_at_miss;
}

uint64_t sim_pages(const struct sim *s, uint64_t bytes)
{
	return (bytes + s->page_bytes - 1) / s->page_bytes;
}

struct workload *sim_find_workload(struct sim *s, const char *name)
{
	for (unsigned i = 0; i < s->nr_wl; i++)
		if (!strcmp(s->wl[i].spec->name, name))
			return &s->wl[i];
	return NULL;
}

bool sim_wl_over(const struct sim *s, const struct workload *w)
{
	return w->stopped || (w->spec->stop_ns && s->now >= w->spec->stop_ns);
}

uint64_t sim_counter(struct sim *s, const char *name)
{
	uint64_t v = 0;

	cma_mm_counter(s->mm, name, &v);
	return v;
}

void sim_workload_release(struct workload *w)
{
	free(w->priv);
	w->priv = NULL;
	w->stopped = true;
}
