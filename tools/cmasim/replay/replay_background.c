// SPDX-License-Identifier: GPL-2.0
/*
 * What ran beside the device's demand, rebuilt from what the user has:
 * a /proc snapshot of the device when given, else the trace's own page
 * events where it recorded them (mm_page_alloc, mm_page_free,
 * mm_filemap_*), else nothing. Either way it becomes the amounts of
 * anonymous memory, page cache and kernel memory the run's workloads
 * hold. A snapshot also says where its anonymous and page-cache pages
 * were, and which of the latter were dirty or under writeback
 * (kpageflags): they come in at those page frames, so that the pages a
 * range has to move, and the clean ones it may drop instead, are the
 * device's; kernel memory sits where the run puts it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/replay.h"
#include "import/import.h"

/* Anonymous memory as the anon workload holds it: base pages, THPs' and mlocked ones. */
static bool kind_anon(uint8_t kind)
{
	return kind == PK_ANON || kind == PK_THP || kind == PK_MLOCKED;
}

/* The runs of @pk's page frames of a kind @want takes into *@runs, *@nr: 0 or -ENOMEM. */
static int kind_runs(const struct page_kinds *pk, bool (*want)(uint8_t kind), struct replay_pfn_run **runs, size_t *nr)
{
	size_t cap = 0;
	int ret = 0;

	for (unsigned long pfn = 0; pfn < pk->nr_pfns && !ret; pfn++)
		if (want(pk->kind[pfn]))
			ret = replay_run_add(runs, nr, &cap, pfn);
	return ret;
}

static bool kind_file(uint8_t kind)
{
	return kind == PK_FILE;
}

static bool kind_dirty(uint8_t kind)
{
	return kind == PK_FILE_DIRTY;
}

/*
 * The pages the device's kernel held besides user memory: what its
 * zones managed less what was free (on the buddy lists or per-CPU
 * lists) and less @user, the pages kpageflags shows as anonymous or
 * page cache. Slab is not all of it: page tables, stacks, vmalloc and
 * pages no flag names are held too, and none of them move.
 */
static unsigned long kernel_held(const struct snapshot *snap, const struct page_kinds *pk, unsigned long user)
{
	unsigned long used = 0;

	for (unsigned z = 0; z < snap->nr_zones; z++) {
		const struct import_zone *zone = &snap->zones[z];
		unsigned long managed = zone->has_managed ? zone->managed : zone->present;

		if (managed > zone->free + zone->pcp)
			used += managed - zone->free - zone->pcp;
	}
	return used > user + pk->total[PK_SLAB] ? used - user : pk->total[PK_SLAB];
}

/* The pages the device had free: on its zones' buddy lists and their CPUs' lists. */
static unsigned long snapshot_free_pages(const struct snapshot *snap)
{
	unsigned long free = 0;

	for (unsigned z = 0; z < snap->nr_zones; z++)
		free += snap->zones[z].free + snap->zones[z].pcp;
	return free;
}

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
		bg->slab = kernel_held(&snap, &pk, bg->anon + bg->file + bg->dirty);
		bg->free = snapshot_free_pages(&snap);
		snprintf(bg->from, sizeof(bg->from), "%s", dir);
		ret = kind_runs(&pk, kind_anon, &bg->anon_at, &bg->nr_anon_at);
		if (!ret)
			ret = kind_runs(&pk, kind_file, &bg->file_at, &bg->nr_file_at);
		if (!ret)
			ret = kind_runs(&pk, kind_dirty, &bg->dirty_at, &bg->nr_dirty_at);
		if (ret) {
			replay_background_free(bg);
			snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		}
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
	int n;

	if (!bg || bg->source == RBG_DEFAULTS)
		n = snprintf(buf, len, "the platform's defaults (no workload besides the demand)");
	else if (bg->source == RBG_SNAPSHOT && bg->device_kernel)
		n = snprintf(buf, len, "from the snapshot %s: %lu MiB anonymous and %lu MiB page cache (%lu MiB dirty) where it had them, "
			     "%.1f MiB kernel (the device's %.1f MiB less what the board's boot holds or manages otherwise)",
			     bg->from, bg->anon >> 8, (bg->file + bg->dirty) >> 8, bg->dirty >> 8, mib(bg->slab), mib(bg->device_kernel));
	else if (bg->source == RBG_SNAPSHOT)
		n = snprintf(buf, len, "from the snapshot %s: %lu MiB anonymous and %lu MiB page cache (%lu MiB dirty) where it had them, %lu MiB kernel",
			     bg->from, bg->anon >> 8, (bg->file + bg->dirty) >> 8, bg->dirty >> 8, bg->slab >> 8);
	else
		n = snprintf(buf, len, "from the trace's page events: %.1f MiB anonymous (%lu pages/s), %.1f MiB page cache (%lu pages/s), %.1f MiB kernel (%lu pages/s) held at most",
			     mib(bg->anon), bg->anon_rate, mib(bg->file), bg->file_rate, mib(bg->slab), bg->slab_rate);
	if (bg && bg->unused_pev && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "; the trace's %zu page events not used", bg->unused_pev);
}

void replay_background_free(struct replay_background *bg)
{
	free(bg->anon_at);
	free(bg->file_at);
	free(bg->dirty_at);
	bg->anon_at = bg->file_at = bg->dirty_at = NULL;
	bg->nr_anon_at = bg->nr_file_at = bg->nr_dirty_at = 0;
}

void replay_background_path(const char *path, const char *what, char *buf, size_t len)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	int stem = dot && (!slash || dot > slash) ? (int)(dot - path) : (int)strlen(path);

	snprintf(buf, len, "%.*s-%s.pfns", stem, path, what);
}

void replay_background_unlink(const char *path)
{
	static const char *const what[] = { "snapshot-anon", "snapshot-cache", "snapshot-dirty", "busy" };
	char file[PATH_MAX + 32];

	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		replay_background_path(path, what[i], file, sizeof(file));
		unlink(file);
	}
}

/*
 * Pfns file @what of scenario @path: the @nr runs @runs under comment
 * @about; its key to @f, the name from the scenario's directory, as the
 * demand files are.
 */
static int write_pfns(const char *path, const char *what, const char *about, const struct replay_pfn_run *runs,
		      size_t nr, FILE *ini)
{
	char file[PATH_MAX + 32];
	const char *slash;
	FILE *f;
	int ret = 0;

	replay_background_path(path, what, file, sizeof(file));
	f = fopen(file, "w");
	if (!f)
		ret = -errno;
	if (f) {
		fprintf(f, "# %.180s: FIRST COUNT\n", about);
		for (size_t i = 0; i < nr; i++)
			fprintf(f, "%#lx %lu\n", runs[i].first, runs[i].count);
		if (ferror(f))
			ret = -EIO;
		if (fclose(f) && !ret)
			ret = -errno;
	}
	if (ret) {
		fprintf(stderr, "cmasim replay: %s: %s\n", file, strerror(-ret));
		return ret;
	}
	slash = strrchr(file, '/');
	fprintf(ini, "pfns = %s\n", slash ? slash + 1 : file);
	return 0;
}

/*
 * A page-cache workload placed at @runs: read once in order, each of its
 * pages at the frame the snapshot had it (random reads would bring in
 * only some of them, at frames in another order).
 */
static int write_placed(const char *path, const char *what, const char *about, const struct replay_pfn_run *runs,
			size_t nr, FILE *ini)
{
	fprintf(ini, "pattern = sequential\n");
	return write_pfns(path, what, about, runs, nr, ini);
}

/*
 * The pages the kernel could not move (replay_pinned), pinned from when
 * the snapshot's memory is in (the run's first second) to the end: where
 * they are the snapshot's anonymous pages, they are the run's at the
 * same frames.
 */
static int write_pinned(const struct replay_background *bg, const struct replay_trace *t, uint64_t end_ms,
			const char *name, const char *path, FILE *f)
{
	char about[4096 + 96];
	struct replay_pfn_run *runs;
	size_t nr;
	int ret = replay_pinned(bg, t, &runs, &nr);

	if (ret)
		return ret;
	fprintf(f, "\n[pinner trace-busy]\ntarget = %s-anon\nshare = 100\nstart = 1s\nhold = %llums\nperiod = %llums\n",
		name, (unsigned long long)end_ms, (unsigned long long)end_ms);
	snprintf(about, sizeof(about), "the pages test_pages_isolated found in use in %s, and those its scans left", t->path);
	ret = write_pfns(path, "busy", about, runs, nr, f);
	free(runs);
	return ret;
}

/*
 * Each amount as a workload that faults it in at its rate (a snapshot's
 * over the run's first second) and holds it, in 4 KiB pages as
 * kpageflags and the trace count them.
 */
int replay_background_write(const struct replay_background *bg, const struct replay_trace *t, uint64_t end_ms,
			    const char *path, FILE *f)
{
	const char *name = bg->source == RBG_TRACE ? "trace" : "snapshot";
	char about[4096 + 64];
	int ret;

	if (bg->anon)
		fprintf(f, "\n[anon %s-anon]\nrss = %luK\nrate = %lu\nhold = yes\n", name, bg->anon * 4,
			bg->anon_rate ? bg->anon_rate : bg->anon);
	if (bg->anon && bg->nr_anon_at) {
		snprintf(about, sizeof(about), "the anonymous pages of the snapshot %s", bg->from);
		ret = write_pfns(path, "snapshot-anon", about, bg->anon_at, bg->nr_anon_at, f);
		if (ret)
			return ret;
	}
	if (bg->anon && bg->nr_anon_at && t->nr_busy && (ret = write_pinned(bg, t, end_ms, name, path, f)))
		return ret;
	if (bg->file)
		fprintf(f, "\n[pagecache %s-cache]\nfile = %luK\nrate = %lu\npasses = 1\n", name, bg->file * 4,
			bg->file_rate ? bg->file_rate : bg->file);
	if (bg->file && bg->nr_file_at) {
		snprintf(about, sizeof(about), "the clean page cache of the snapshot %s", bg->from);
		ret = write_placed(path, "snapshot-cache", about, bg->file_at, bg->nr_file_at, f);
		if (ret)
			return ret;
	}
	if (bg->dirty)
		fprintf(f, "\n[writer %s-dirty]\nfile = %luK\nrate = %lu\npasses = 1\n", name, bg->dirty * 4, bg->dirty);
	if (bg->dirty && bg->nr_dirty_at) {
		snprintf(about, sizeof(about), "the page cache dirty or under writeback in the snapshot %s", bg->from);
		ret = write_placed(path, "snapshot-dirty", about, bg->dirty_at, bg->nr_dirty_at, f);
		if (ret)
			return ret;
	}
	if (bg->slab)
		fprintf(f, "\n[slab %s-slab]\nrate = %lu\nlifetime = 1h\nmax = %luK\n", name,
			bg->slab_rate ? bg->slab_rate : bg->slab, bg->slab * 4);
	return 0;
}
