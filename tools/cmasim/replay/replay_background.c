// SPDX-License-Identifier: GPL-2.0
/*
 * What ran beside the device's demand, rebuilt from what the user has:
 * the trace's own page events where it recorded them (mm_page_alloc,
 * mm_page_free, mm_filemap_*), else a /proc snapshot of the device,
 * else nothing. Either way it becomes the amounts of anonymous memory,
 * page cache and kernel memory the run's workloads hold; where their
 * pages sit is the run's to choose.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "import/import.h"

int replay_background_read(const char *dir, struct replay_background *bg, char *err, size_t errlen)
{
	struct snapshot snap = { 0 };
	struct page_kinds pk = { 0 };
	int ret = snapshot_read(dir, &snap, err, errlen);

	if (!ret)
		ret = page_kinds_classify(&snap, snap.nr_orders, &pk, err, errlen);
	if (!ret) {
		*bg = (struct replay_background){ .source = RBG_SNAPSHOT };
		bg->anon = pk.total[PK_ANON] + pk.total[PK_THP] + pk.total[PK_MLOCKED];
		bg->file = pk.total[PK_FILE];
		bg->dirty = pk.total[PK_FILE_DIRTY];
		bg->slab = pk.total[PK_SLAB];
		snprintf(bg->from, sizeof(bg->from), "%s", dir);
	}
	page_kinds_free(&pk);
	snapshot_free(&snap);
	return ret;
}

/* Whose a page given out in the trace is now. */
enum page_owner { PO_NONE, PO_ANON, PO_KERNEL, PO_CACHE, NR_PO };

struct page_slot {
	unsigned long key;		/* pfn + 1; 0: empty */
	unsigned long pages;
	enum page_owner owner;
	size_t alloc;			/* the first pass: its last allocation's event + 1 */
};

/* The pages the trace saw given out, by pfn (open addressing; a page given back keeps its slot, owned by none). */
struct page_map {
	struct page_slot *slot;
	size_t mask;
};

static struct page_slot *page_lookup(struct page_map *m, unsigned long pfn)
{
	size_t i = (pfn * 0x9e3779b97f4a7c15ull) & m->mask;

	while (m->slot[i].key && m->slot[i].key != pfn + 1)
		i = (i + 1) & m->mask;
	m->slot[i].key = pfn + 1;
	return &m->slot[i];
}

/* The running amounts of each owner, their most at once and what each was given. */
struct page_tally {
	unsigned long now[NR_PO], most[NR_PO], given[NR_PO];
};

static void page_take(struct page_tally *t, struct page_slot *s, enum page_owner o, unsigned long pages)
{
	t->now[o] += pages;
	t->given[o] += pages;
	if (t->now[o] > t->most[o])
		t->most[o] = t->now[o];
	s->owner = o;
	s->pages = pages;
}

static void page_drop(struct page_tally *t, struct page_slot *s)
{
	t->now[s->owner] -= s->pages < t->now[s->owner] ? s->pages : t->now[s->owner];
	s->owner = PO_NONE;
}

/* The first pass: which allocations the page cache took (@cache, by event). */
static void page_cache_taken(struct page_map *m, const struct replay_trace *tr, bool *cache)
{
	for (size_t i = 0; i < tr->nr_pev; i++) {
		const struct replay_page_event *e = &tr->pev[i];
		struct page_slot *s = page_lookup(m, e->pfn);

		if (e->op == RPP_ALLOC_MOVABLE || e->op == RPP_ALLOC_KERNEL)
			s->alloc = i + 1;
		else if (e->op == RPP_CACHE_ADD && s->alloc)
			cache[s->alloc - 1] = true;
		if (e->op != RPP_ALLOC_MOVABLE && e->op != RPP_ALLOC_KERNEL)
			s->alloc = 0;
	}
}

static void page_event(struct page_tally *t, struct page_map *m, const struct replay_page_event *e, bool cache)
{
	struct page_slot *s = page_lookup(m, e->pfn);
	unsigned long pages = 1ul << e->order;

	switch (e->op) {
	case RPP_ALLOC_MOVABLE:
	case RPP_ALLOC_KERNEL:
		if (s->owner != PO_NONE)
			page_drop(t, s);	/* its free was not recorded */
		page_take(t, s, cache ? PO_CACHE : e->op == RPP_ALLOC_MOVABLE ? PO_ANON : PO_KERNEL, pages);
		break;
	case RPP_CACHE_ADD:
		/* a page given out before the trace: the page cache's from now */
		if (s->owner != PO_CACHE) {
			if (s->owner != PO_NONE)
				page_drop(t, s);
			page_take(t, s, PO_CACHE, pages);
		}
		break;
	case RPP_FREE:
	case RPP_CACHE_DELETE:
		if (s->owner != PO_NONE)
			page_drop(t, s);
		break;
	}
}

/* @pages given over @span_ns as pages a second; 0 (all at once) without a span. */
static unsigned long per_second(unsigned long pages, uint64_t span_ns)
{
	unsigned long rate = span_ns ? (unsigned long)((double)pages * 1e9 / (double)span_ns) : 0;

	return pages && span_ns && !rate ? 1 : rate;
}

int replay_background_from_trace(const struct replay_trace *t, struct replay_background *bg)
{
	struct page_tally tally = { 0 };
	struct page_map m;
	uint64_t span;
	size_t size = 16;
	bool *cache;

	if (!t->nr_pev)
		return -ENOENT;
	while (size < 2 * t->nr_pev)
		size *= 2;
	m.slot = calloc(size, sizeof(*m.slot));
	cache = calloc(t->nr_pev, sizeof(*cache));
	if (!m.slot || !cache) {
		free(m.slot);
		free(cache);
		return -ENOMEM;
	}
	m.mask = size - 1;
	page_cache_taken(&m, t, cache);
	memset(m.slot, 0, size * sizeof(*m.slot));
	for (size_t i = 0; i < t->nr_pev; i++)
		page_event(&tally, &m, &t->pev[i], cache[i]);
	free(m.slot);
	free(cache);
	span = t->pev[t->nr_pev - 1].ts_ns - t->pev[0].ts_ns;
	*bg = (struct replay_background){
		.source = RBG_TRACE,
		.anon = tally.most[PO_ANON], .file = tally.most[PO_CACHE], .slab = tally.most[PO_KERNEL],
		.anon_rate = per_second(tally.given[PO_ANON], span),
		.file_rate = per_second(tally.given[PO_CACHE], span),
		.slab_rate = per_second(tally.given[PO_KERNEL], span),
	};
	snprintf(bg->from, sizeof(bg->from), "%s", t->path);
	return 0;
}

static double mib(unsigned long pages)
{
	return (double)pages / 256;
}

void replay_background_describe(const struct replay_background *bg, char *buf, size_t len)
{
	if (!bg || bg->source == RBG_DEFAULTS)
		snprintf(buf, len, "the platform's defaults (no workload besides the demand)");
	else if (bg->source == RBG_SNAPSHOT)
		snprintf(buf, len, "from the snapshot %s: %lu MiB anonymous, %lu MiB page cache (%lu MiB dirty), %lu MiB slab",
			 bg->from, bg->anon >> 8, (bg->file + bg->dirty) >> 8, bg->dirty >> 8, bg->slab >> 8);
	else
		snprintf(buf, len, "from the trace's page events: %.1f MiB anonymous (%lu pages/s), %.1f MiB page cache (%lu pages/s), %.1f MiB kernel (%lu pages/s) held at most",
			 mib(bg->anon), bg->anon_rate, mib(bg->file), bg->file_rate, mib(bg->slab), bg->slab_rate);
}

/*
 * Each amount as a workload that faults it in at its rate (a snapshot's
 * over the run's first second) and holds it, in 4 KiB pages as
 * kpageflags and the trace count them.
 */
void replay_background_write(const struct replay_background *bg, FILE *f)
{
	const char *name = bg->source == RBG_TRACE ? "trace" : "snapshot";

	if (bg->anon)
		fprintf(f, "\n[anon %s-anon]\nrss = %luK\nrate = %lu\nhold = yes\n", name, bg->anon * 4,
			bg->anon_rate ? bg->anon_rate : bg->anon);
	if (bg->file)
		fprintf(f, "\n[pagecache %s-cache]\nfile = %luK\nrate = %lu\npasses = 1\n", name, bg->file * 4,
			bg->file_rate ? bg->file_rate : bg->file);
	if (bg->dirty)
		fprintf(f, "\n[writer %s-dirty]\nfile = %luK\nrate = %lu\npasses = 1\n", name, bg->dirty * 4, bg->dirty);
	if (bg->slab)
		fprintf(f, "\n[slab %s-slab]\nrate = %lu\nlifetime = 1h\nmax = %luK\n", name,
			bg->slab_rate ? bg->slab_rate : bg->slab, bg->slab * 4);
}
