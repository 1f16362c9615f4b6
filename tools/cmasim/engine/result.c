// SPDX-License-Identifier: GPL-2.0
/*
 * The result of a simulated run: the names the reports print, the
 * latency record each device keeps, and freeing all of it. Percentiles
 * are nearest-rank (the smallest value with at least p% of the values
 * at or below it), so each is a latency some request really had.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/result.h"

#define LATENCY_MIN_CAP 64

static const char *const fail_cause_names[NR_FAIL_CAUSES] = {
	"pinned", "busy", "nomem", "too-large",
};
static const char *const mem_class_names[NR_MEM_CLASSES] = {
	"pagecache", "anon", "slab", "device", "carveout",
};

const char *fail_cause_name(enum fail_cause c)
{
	return (unsigned)c < NR_FAIL_CAUSES ? fail_cause_names[c] : "unknown";
}

const char *mem_class_name(enum mem_class c)
{
	return (unsigned)c < NR_MEM_CLASSES ? mem_class_names[c] : "unknown";
}

int sim_latency_add(struct sim_latency *l, uint64_t ns)
{
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : LATENCY_MIN_CAP;
		uint64_t *ns_new;

		if (cap > SIZE_MAX / sizeof(*ns_new))
			return -1;
		ns_new = realloc(l->ns, cap * sizeof(*ns_new));
		if (!ns_new)
			return -1;
		l->ns = ns_new;
		l->cap = cap;
	}
	l->ns[l->nr++] = ns;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest rank: the ceil(permille/1000 * nr)-th smallest value; nr > 0. */
static uint64_t nearest_rank(const uint64_t *sorted, size_t nr, unsigned permille)
{
	size_t rank = (permille * nr + 999) / 1000;

	return sorted[rank ? rank - 1 : 0];
}

/* Of the @nr @sorted values, those above @limit. */
static size_t count_above(const uint64_t *sorted, size_t nr, uint64_t limit)
{
	size_t n = 0;

	while (n < nr && sorted[nr - 1 - n] > limit)
		n++;
	return n;
}

int sim_latency_finish(struct sim_latency *l)
{
	uint64_t *sorted;

	uint64_t sum = 0;

	l->p50 = l->p90 = l->p99 = l->p99_9 = l->max = l->min = l->mean = 0;
	l->over_10x_p50 = 0;
	if (!l->nr)
		return 0;
	for (size_t i = 0; i < l->nr; i++)
		sum += l->ns[i];
	l->mean = (sum + l->nr / 2) / l->nr;
	/* a copy: ns[] stays in request order for whoever reads it later */
	sorted = malloc(l->nr * sizeof(*sorted));
	if (!sorted)
		return -1;
	memcpy(sorted, l->ns, l->nr * sizeof(*sorted));
	qsort(sorted, l->nr, sizeof(*sorted), cmp_u64);
	l->p50 = nearest_rank(sorted, l->nr, 500);
	l->p90 = nearest_rank(sorted, l->nr, 900);
	l->p99 = nearest_rank(sorted, l->nr, 990);
	l->p99_9 = nearest_rank(sorted, l->nr, 999);
	/* the tail a mean hides: requests an order of magnitude past the typical one */
	l->over_10x_p50 = count_above(sorted, l->nr, 10 * l->p50);
	l->max = sorted[l->nr - 1];
	l->min = sorted[0];
	free(sorted);
	return 0;
}

void latency_breakdown_add(struct latency_breakdown *b, const struct cost_parts *p)
{
	cost_parts_add(&b->total, p);
	if (cost_parts_sum(p) > cost_parts_sum(&b->slowest))
		b->slowest = *p;
}

void sim_result_free(struct sim_result *r)
{
	unsigned i;

	for (i = 0; i < r->nr_devices; i++)
		free(r->devices[i].lat.ns);
	for (i = 0; i < r->nr_snapshots; i++)
		free(r->snapshots[i].blocks);
	for (i = 0; i < r->nr_procs; i++)
		free(r->procs[i].text);
	free(r->devices);
	free(r->workloads);
	free(r->samples);
	free(r->snapshots);
	memset(r, 0, sizeof(*r));
}

const char *const hugetlb_vmstat_names[NR_HUGETLB_VMSTAT] = {
	[HV_PGMIGRATE_SUCCESS] = "pgmigrate_success",
	[HV_PGMIGRATE_FAIL] = "pgmigrate_fail",
	[HV_COMPACT_MIGRATE_SCANNED] = "compact_migrate_scanned",
	[HV_COMPACT_FREE_SCANNED] = "compact_free_scanned",
	[HV_COMPACT_ISOLATED] = "compact_isolated",
	[HV_COMPACT_STALL] = "compact_stall",
	[HV_COMPACT_FAIL] = "compact_fail",
	[HV_COMPACT_SUCCESS] = "compact_success",
	[HV_PGSCAN_DIRECT] = "pgscan_direct",
	[HV_PGSTEAL_DIRECT] = "pgsteal_direct",
};

const struct workload_result *sim_result_workload(const struct sim_result *r, const char *name)
{
	for (unsigned i = 0; i < r->nr_workloads; i++)
		if (!strcmp(r->workloads[i].name, name))
			return &r->workloads[i];
	return NULL;
}
