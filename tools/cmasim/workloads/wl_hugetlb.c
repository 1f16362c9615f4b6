// SPDX-License-Identifier: GPL-2.0
/*
 * Huge page pools: at its start time the workload does what
 * "echo COUNT > /sys/kernel/mm/hugepages/hugepages-SIZEkB/nr_hugepages"
 * does in 6.12 (set_max_huge_pages): it asks for one huge page after the
 * other and stops at the first that fails. A gigantic page (an order the
 * buddy allocator does not have, 1 GiB on x86) comes from
 * alloc_gigantic_folio (cma_alloc_gigantic_page): the hugetlb_cma= area
 * through cma_alloc when the command line reserved one (5.7 on), and then
 * alloc_contig_pages with GFP_HIGHUSER | __GFP_NOWARN (gigantic pages are
 * not movable: Normal, then DMA32, then DMA); freed back where they came
 * from (cma_free_gigantic_page). A smaller one
 * (2 MiB) comes from alloc_buddy_hugetlb_folio (cma_alloc_huge_page):
 * the buddy allocator with GFP_HIGHUSER_MOVABLE | __GFP_THISNODE |
 * __GFP_NOWARN and __GFP_RETRY_MAYFAIL, or __GFP_NORETRY after a failure
 * on the node within the same write (node_alloc_noretry, one node here).
 *
 * The write's wall time is the cost model's price of the work the
 * library did for it, as for a device request, and the vmstat counters
 * contig.sh reports are kept as deltas over the write. The pages are
 * held until the workload's stop time (echo 0), else the run's end.
 */
#include <errno.h>
#include <stdlib.h>

#include "util/inifile.h"
#include "engine/sim_api.h"

struct hugetlb_wl {
	struct cma_page **pages;
	uint64_t held;
	uint64_t page_pages;		/* base pages in a huge page */
	bool noretry;			/* the node's bit of node_alloc_noretry, for one write */
};

/* A /proc/vmstat counter; 3.5's per-zone ones (pgscan_direct_normal, ...) summed under their 6.x name. */
static uint64_t vmstat_read(struct cma_mm *mm, const char *name)
{
	static const char *const zones[] = { "dma", "dma32", "normal", "high", "movable" };
	uint64_t v = 0, sum = 0;
	char buf[64];

	if (!cma_mm_counter(mm, name, &v))
		return v;
	for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++) {
		snprintf(buf, sizeof(buf), "%s_%s", name, zones[i]);
		if (!cma_mm_counter(mm, buf, &v))
			sum += v;
	}
	return sum;
}

static unsigned hugetlb_order(const struct sim *s, const struct workload *w)
{
	return policy_order_of(w->spec->hugetlb.page_bytes / sim_page_bytes(s));
}

static bool gigantic(const struct sim *s, const struct workload *w)
{
	return hugetlb_order(s, w) >= sim_max_order(s);
}

static struct cma_page *alloc_huge_page(struct sim *s, struct workload *w)
{
	unsigned order = hugetlb_order(s, w);

	struct hugetlb_wl *h = w->priv;

	if (gigantic(s, w))
		return cma_alloc_gigantic_page(sim_mm(s), 1ul << order, CMA_GFP_HIGHUSER | CMA_GFP_NOWARN);
	return cma_alloc_huge_page(sim_mm(s), order, &h->noretry);
}

static void free_huge_page(struct sim *s, struct workload *w, struct cma_page *page)
{
	unsigned order = hugetlb_order(s, w);

	if (gigantic(s, w))
		cma_free_gigantic_page(sim_mm(s), page, 1ul << order);
	else
		cma_free_pages(sim_mm(s), page, order);
}

/* The pages the write asks for, one after the other. */
static void hugetlb_alloc_pages(struct sim *s, struct workload *w)
{
	struct hugetlb_wl *h = w->priv;

	while (h->held < w->spec->hugetlb.count) {
		struct cma_page *page = alloc_huge_page(s, w);

		w->res->ops++;
		if (!page)
			break;
		h->pages[h->held++] = page;
		/* where the pool's page is, as bench/oracle's guest maps it from hugetlbfs */
		sim_trace_printf(s, "cmasim_hugetlb_page: name=%s pfn=0x%lx pages=%llu", w->spec->name,
				 cma_page_to_pfn(sim_mm(s), page), (unsigned long long)h->page_pages);
	}
}

/* The write on its own task, its work read from the counters there (the others' kept apart). */
struct hugetlb_call {
	struct workload *w;
	struct cost_work *work;
};

static int hugetlb_call(struct sim *s, void *arg)
{
	struct hugetlb_call *a = arg;
	struct cost_counters c;

	cost_counters_read(s, &c);
	hugetlb_alloc_pages(s, a->w);
	cost_work_since(s, &c, a->work);
	return 0;
}

/*
 * set_max_huge_pages: the write, timed and counted. It runs on its own
 * task, as a device request does (the others run while it works, its
 * clock priced as its end prices it), and so waits for a request in
 * flight, whose task it would need; the vmstat deltas are the whole
 * machine's over it, as contig.sh reads them.
 */
static void hugetlb_write(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct hugetlb_wl *h = w->priv;
	struct hugetlb_result *r = &w->res->hugetlb;
	uint64_t before[NR_HUGETLB_VMSTAT], start = sim_now(s), held0;
	struct cost_work work = { 0 };
	struct hugetlb_call call = { w, &work };

	if (sim_wl_over(s, w) || sim_defer_while_request(s, hugetlb_write, w))
		return;
	for (unsigned i = 0; i < NR_HUGETLB_VMSTAT; i++)
		before[i] = vmstat_read(sim_mm(s), hugetlb_vmstat_names[i]);
	sim_usable_update(s);
	h->noretry = false;	/* set_max_huge_pages allocates node_alloc_noretry cleared */
	held0 = h->held;
	sim_contention_begin(s, w, start);
	sim_task_call(s, hugetlb_call, &call, &work);
	work.hugetlb_pages = (h->held - held0) * h->page_pages;
	sim_contention_fill(s, w, start, false, &work);
	r->requested = w->spec->hugetlb.count;
	r->got = h->held;
	r->page_bytes = w->spec->hugetlb.page_bytes;
	r->write_ns = cost_ns(sim_cost(s), &work, sim_page_bytes(s));
	sim_contention_done(s, w, start, r->write_ns, false);
	for (unsigned i = 0; i < NR_HUGETLB_VMSTAT; i++)
		r->vmstat[i] = vmstat_read(sim_mm(s), hugetlb_vmstat_names[i]) - before[i];
	sim_trace_printf(s, "cmasim_hugetlb_write: name=%s size_kb=%llu requested=%llu got=%llu latency_ns=%llu",
			 w->spec->name, (unsigned long long)(r->page_bytes >> 10),
			 (unsigned long long)r->requested, (unsigned long long)r->got,
			 (unsigned long long)r->write_ns);
}

/* echo 0: every page back. */
static void hugetlb_release(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct hugetlb_wl *h = w->priv;

	if (gigantic(s, w) && sim_defer_while_request(s, hugetlb_release, w))
		return;
	sim_usable_update(s);
	while (h->held)
		free_huge_page(s, w, h->pages[--h->held]);
}

static int hugetlb_start(struct sim *s, struct workload *w)
{
	struct hugetlb_wl *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	w->priv = h;
	h->page_pages = w->spec->hugetlb.page_bytes / sim_page_bytes(s);
	h->pages = calloc(w->spec->hugetlb.count, sizeof(*h->pages));
	if (!h->pages)
		return -ENOMEM;
	sim_schedule(s, w->spec->start_ns, hugetlb_write, w);
	if (w->spec->stop_ns)
		sim_schedule(s, w->spec->stop_ns, hugetlb_release, w);
	return 0;
}

static void hugetlb_stop(struct sim *s, struct workload *w)
{
	struct hugetlb_wl *h = w->priv;

	if (!h)
		return;
	hugetlb_release(s, w);
	free(h->pages);
	free(h);
	w->priv = NULL;
	w->stopped = true;
}

static uint64_t hugetlb_resident(const struct workload *w)
{
	const struct hugetlb_wl *h = w->priv;

	return h ? h->held * h->page_pages : 0;
}

static const struct workload_ops hugetlb_ops = {
	.start = hugetlb_start,
	.stop = hugetlb_stop,
	.resident = hugetlb_resident,
};

static const struct scenario_key hugetlb_keys[] = {
	{ .name = "size", .type = KEY_SIZE, .offset = WL(hugetlb.page_bytes), .max = SIM_MAX_BYTES, .required = true },
	{ .name = "count", .type = KEY_UINT, .offset = WL(hugetlb.count), .max = 1u << 20, .required = true },
};

static int hugetlb_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	uint64_t b = w->hugetlb.page_bytes;

	if (b < (8u << 10) || (b & (b - 1)))
		return ini_fail(err, len, "[%s %s]: size = %llu: give a huge page size, a power of two of two pages or more (2M, 1G)",
				w->kind->name, w->name, (unsigned long long)b);
	if (!w->hugetlb.count)
		return ini_fail(err, len, "[%s %s]: count = 0 asks for nothing (e.g. count = 8)", w->kind->name,
				w->name);
	return 1;
}

const struct wl_kind wl_kind_hugetlb = {
	.name = "hugetlb",
	.ops = &hugetlb_ops,
	WL_KEYS(hugetlb_keys),
	.check = hugetlb_check,
};
