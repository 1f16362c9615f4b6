// SPDX-License-Identifier: GPL-2.0
/*
 * The events of a trace, decoded by one table whatever the reader, and
 * the ftrace text reader. A text line is
 *
 *   TASK-PID [CPU] [FLAGS] SECONDS: EVENT: FIELDS
 *
 * as the trace file, trace_pipe and trace-cmd report print it (FLAGS
 * absent in the latter); FIELDS is the event's TP_printk, read by name
 * ("count=8192"), never by position, so that a kernel printing another
 * field between two stays readable. An event the table does not know,
 * or one of its events without a field it needs (a kernel whose format
 * this reader does not model), stops the read at its line: a replay
 * from half a trace would be compared as if it were the whole.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "util/inifile.h"

const char replay_events_accepted[] =
	"cma_alloc_start, cma_alloc_finish, cma_alloc_busy_retry, cma_release, cma_alloc_info, "
	"mm_alloc_contig_migrate_range_info, mm_migrate_*, mm_page_alloc*, mm_page_free*, "
	"mm_filemap_*, mm_vmscan_*, writeback_*congest*, mm_compaction_*, test_pages_isolated, "
	"cma_wait_on_page_writeback, cma_lock_page, sched_switch, mark_victim and cmasim_*";

/* ---- the events ---- */

struct decode {
	struct replay_trace *t;
	const struct replay_fields *f;
	struct replay_event *e;
	const char *event;
	char *err;
	size_t errlen;
};

static bool field_num(struct decode *d, const char *name, uint64_t *v)
{
	return d->f->num(d->f->ctx, name, v);
}

/* The fields every event of @d needs, or the message naming the first missing. */
static int need(struct decode *d, const char *const *names, const char *format)
{
	for (; *names; names++)
		if (!d->f->has(d->f->ctx, *names))
			return ini_fail(d->err, d->errlen,
				    "%s has no field %s: an event format this reader does not model; accepted: %s",
				    d->event, *names, format), -EINVAL;
	return 0;
}

/*
 * A cma event's pfn: cma.h prints it in hex, as "0x%lx" since its finish
 * gained errorno and as "%lx" before (Android's 5.10 kernels too).
 */
static bool field_pfn(struct decode *d, unsigned long *pfn)
{
	char text[32], *end;
	const char *p = text;
	unsigned long long v;

	if (!d->f->str(d->f->ctx, "pfn", text, sizeof(text)))
		return false;
	if (!strncmp(p, "0x", 2))
		p += 2;
	errno = 0;
	v = strtoull(p, &end, 16);
	if (!*p || *end || errno)
		return false;
	*pfn = (unsigned long)v;
	return true;
}

/* The page a finish printed with %p: NULL as a number, "(null)" or trace-cmd's "(nil)". */
static bool page_null(struct decode *d)
{
	char text[32];
	uint64_t v;

	if (field_num(d, "page", &v))
		return !v;
	return d->f->str(d->f->ctx, "page", text, sizeof(text)) && (!strcmp(text, "(null)") || !strcmp(text, "(nil)"));
}

/*
 * cma_alloc_start, _finish, _busy_retry, cma_release: cma.h's, the area's
 * name first. A finish without errorno (the format before it, Android's
 * 5.10) failed when its page is NULL; why is not said: -ENOMEM.
 */
static int decode_cma(struct decode *d)
{
	static const char *const fields[NR_RP_TYPES][5] = {
		[RP_CMA_ALLOC_START] = { "name", "count", "align" },
		[RP_CMA_ALLOC_FINISH] = { "name", "pfn", "count", "align" },
		[RP_CMA_ALLOC_BUSY_RETRY] = { "name", "pfn", "count", "align" },
		[RP_CMA_RELEASE] = { "name", "pfn", "count" },
	};
	static const char *const formats[NR_RP_TYPES] = {
		[RP_CMA_ALLOC_START] = "name=%s count=%lu align=%u",
		[RP_CMA_ALLOC_FINISH] = "name=%s pfn=0x%lx page=%p count=%lu align=%u errorno=%d, or name=%s pfn=%lx page=%p count=%u align=%u",
		[RP_CMA_ALLOC_BUSY_RETRY] = "name=%s pfn=0x%lx page=%p count=%lu align=%u",
		[RP_CMA_RELEASE] = "name=%s pfn=0x%lx page=%p count=%lu",
	};
	struct replay_event *e = d->e;
	uint64_t v = 0;
	int ret = need(d, fields[e->type], formats[e->type]);

	if (ret)
		return ret;
	if (e->type != RP_CMA_ALLOC_START && !field_pfn(d, &e->pfn))
		return ini_fail(d->err, d->errlen, "%s: its pfn is not a hex number; accepted: %s", d->event,
				formats[e->type]), -EINVAL;
	d->f->str(d->f->ctx, "name", e->area, sizeof(e->area));
	field_num(d, "count", &v);
	e->count = (unsigned long)v;
	if (field_num(d, "align", &v))
		e->align = (unsigned)v;
	if (field_num(d, "errorno", &v))
		e->errorno = (int)v;
	else if (e->type == RP_CMA_ALLOC_FINISH && page_null(d))
		e->errorno = -ENOMEM;
	return 0;
}

/*
 * Android's cma_alloc_info: a request's counts, printed after its finish.
 * Only the area and count are needed; the counts are the request's when
 * present.
 */
static int decode_alloc_info(struct decode *d)
{
	static const char *const fields[] = { "name", "count", NULL };
	uint64_t v;
	int ret = need(d, fields, "name=%s pfn=0x%lx page=%p count=%lu align=%u nr_migrated=%lu nr_reclaimed=%lu nr_mapped=%lu ...");

	if (ret)
		return ret;
	d->f->str(d->f->ctx, "name", d->e->area, sizeof(d->e->area));
	field_num(d, "count", &v);
	d->e->count = (unsigned long)v;
	if (field_num(d, "nr_migrated", &v))
		d->e->migrated = (unsigned long)v;
	if (field_num(d, "nr_reclaimed", &v))
		d->e->reclaimed = (unsigned long)v;
	if (field_num(d, "nr_mapped", &v))
		d->e->mapped = (unsigned long)v;
	return 0;
}

/*
 * mm_alloc_contig_migrate_range_info. 6.12's __alloc_contig_migrate_range
 * calls it as (start, end, migratetype, total_migrated, total_reclaimed,
 * total_mapped) while its TP_PROTO is (start, end, nr_migrated,
 * nr_reclaimed, nr_mapped, migratetype): each count lands one field on.
 * The printed nr_reclaimed is the pages migrated, nr_mapped those
 * reclaimed, migratetype those mapped and nr_migrated the migratetype
 * (mm/page_alloc.c and include/trace/events/kmem.h of 6.12).
 */
static int decode_contig_info(struct decode *d)
{
	static const char *const fields[] = { "start", "end", "migratetype", "nr_migrated", "nr_reclaimed",
					      "nr_mapped", NULL };
	uint64_t v;
	int ret = need(d, fields, "start=0x%lx end=0x%lx migratetype=%d nr_migrated=%lu nr_reclaimed=%lu nr_mapped=%lu");

	if (ret)
		return ret;
	field_num(d, "nr_reclaimed", &v);
	d->e->migrated = (unsigned long)v;
	field_num(d, "nr_mapped", &v);
	d->e->reclaimed = (unsigned long)v;
	field_num(d, "migratetype", &v);
	d->e->mapped = (unsigned long)(uint32_t)v;
	field_num(d, "start", &v);
	d->e->pfn = (unsigned long)v;
	return 0;
}

/* MR_CONTIG_RANGE: the migrations of alloc_contig_range's, counted to its request */
static bool migrate_for_contig(struct decode *d)
{
	char reason[32];

	return d->f->str(d->f->ctx, "reason", reason, sizeof(reason)) && !strcmp(reason, "contig_range");
}

static int decode_migrate_pages(struct decode *d)
{
	static const char *const fields[] = { "nr_succeeded", "nr_failed", NULL };
	uint64_t v;
	int ret = need(d, fields, "nr_succeeded=%lu nr_failed=%lu ... mode=%s reason=%s");

	if (ret)
		return ret;
	field_num(d, "nr_succeeded", &v);
	d->e->migrated = (unsigned long)v;
	return 0;
}

/* cmasim run --trace: the latency the run gave the device request just made */
static int decode_device_request(struct decode *d)
{
	static const char *const fields[] = { "dev", "latency_ns", NULL };
	uint64_t v;
	int ret = need(d, fields, "dev=%s bytes=%llu pfn=0x%llx latency_ns=%llu result=%s");

	if (ret)
		return ret;
	d->f->str(d->f->ctx, "dev", d->e->area, sizeof(d->e->area));
	field_num(d, "latency_ns", &v);
	d->e->latency_ns = v;
	return 0;
}

/* dev=NAME and each part's ns (sim_trace_latency_parts, sim_trace_parts). */
static void decode_parts(struct decode *d)
{
	d->f->str(d->f->ctx, "dev", d->e->area, sizeof(d->e->area));
	for (unsigned i = 0; i < NR_COST_PARTS; i++)
		field_num(d, cost_part_names[i], &d->e->parts.ns[i]);
}

/* cmasim_device_latency: where a device request's time went. */
static int decode_device_latency(struct decode *d)
{
	static const char *const fields[] = { "dev", NULL };
	int ret = need(d, fields, "dev=%s copy=%llu ... console=%llu");

	if (!ret)
		decode_parts(d);
	return ret;
}

/* cmasim_cma_alloc_latency: the cma_alloc part of a request a fallback ended, and where it went. */
static int decode_cma_alloc_latency(struct decode *d)
{
	static const char *const fields[] = { "dev", "latency_ns", NULL };
	uint64_t v;
	int ret = need(d, fields, "dev=%s latency_ns=%llu copy=%llu ... console=%llu");

	if (ret)
		return ret;
	decode_parts(d);
	field_num(d, "latency_ns", &v);
	d->e->latency_ns = v;
	return 0;
}

/* ---- the page events: what the background is rebuilt from ---- */

/* A page event of @order pages, the largest block a kernel gives out being far below 2^32 pages. */
#define REPLAY_PAGE_ORDER_MAX 31

static int push_page(struct decode *d, unsigned long pfn, uint64_t order, enum replay_page_op op)
{
	struct replay_trace *t = d->t;

	if (order > REPLAY_PAGE_ORDER_MAX)
		return ini_fail(d->err, d->errlen, "%s: order=%llu: accepted 0 to %d", d->event,
				(unsigned long long)order, REPLAY_PAGE_ORDER_MAX), -EINVAL;
	if (t->nr_pev == t->cap_pev) {
		size_t cap = t->cap_pev ? 2 * t->cap_pev : 256;
		struct replay_page_event *pev = realloc(t->pev, cap * sizeof(*pev));

		if (!pev)
			return -ENOMEM;
		t->pev = pev;
		t->cap_pev = cap;
	}
	t->pev[t->nr_pev++] = (struct replay_page_event){ .ts_ns = d->e->ts_ns, .pfn = pfn, .order = (unsigned)order,
							  .op = op };
	return 0;
}

/*
 * Was the page given out movable? Its gfp_flags say so in every release
 * (__GFP_MOVABLE, 0x08), where the migratetype's number does not (4.x's
 * gfpflags_to_migratetype made MIGRATE_MOVABLE 2, 6.12's enum has it 1).
 * The text prints the flags by name, trace.dat holds the number.
 */
static bool gfp_movable(struct decode *d)
{
	char text[512];
	uint64_t v;

	if (field_num(d, "gfp_flags", &v))
		return v & 0x08;
	return d->f->str(d->f->ctx, "gfp_flags", text, sizeof(text)) && strstr(text, "MOVABLE");
}

/*
 * mm_page_alloc, mm_page_free, mm_page_free_batched (kmem.h): "page=%p
 * pfn=... order=%d", the pfn in decimal in older releases and 0x%lx in
 * 6.12's; a failed allocation prints a NULL page.
 */
static int decode_page(struct decode *d)
{
	static const char *const alloc[] = { "page", "pfn", "order", "gfp_flags", NULL };
	static const char *const freed[] = { "page", "pfn", NULL };
	bool is_alloc = !strcmp(d->event, "mm_page_alloc");
	uint64_t pfn, order = 0;
	int ret = need(d, is_alloc ? alloc : freed, is_alloc ?
		       "page=%p pfn=0x%lx order=%d migratetype=%d gfp_flags=%s" : "page=%p pfn=0x%lx order=%d");

	if (ret)
		return ret;
	d->t->families[RPF_PAGE]++;
	if (page_null(d) || !field_num(d, "pfn", &pfn))
		return 0;
	field_num(d, "order", &order);
	return push_page(d, (unsigned long)pfn, order,
			 !is_alloc ? RPP_FREE : gfp_movable(d) ? RPP_ALLOC_MOVABLE : RPP_ALLOC_KERNEL);
}

/* mm_filemap_add_to/delete_from_page_cache (filemap.h): "... pfn=0x%lx ofs=%lu order=%u", no order before folios. */
static int decode_filemap(struct decode *d)
{
	static const char *const fields[] = { "pfn", "ofs", NULL };
	uint64_t pfn, order = 0;
	int ret = need(d, fields, "dev %d:%d ino %lx pfn=0x%lx ofs=%lu order=%u");

	if (ret)
		return ret;
	d->t->families[RPF_FILEMAP]++;
	field_num(d, "pfn", &pfn);
	field_num(d, "order", &order);
	return push_page(d, (unsigned long)pfn, order,
			 strstr(d->event, "_add_") ? RPP_CACHE_ADD : RPP_CACHE_DELETE);
}

void *replay_room(void *v, size_t *cap, size_t nr, size_t size)
{
	size_t n = *cap ? 2 * *cap : 64;

	if (nr < *cap)
		return v;
	v = realloc(v, n * size);
	if (v)
		*cap = n;
	return v;
}

int replay_run_add(struct replay_pfn_run **runs, size_t *nr, size_t *cap, unsigned long pfn)
{
	struct replay_pfn_run *last = *nr ? &(*runs)[*nr - 1] : NULL;

	if (last && last->first + last->count > pfn)
		return 0;
	if (last && last->first + last->count == pfn) {
		last->count++;
		return 0;
	}
	last = replay_room(*runs, cap, *nr, sizeof(**runs));
	if (!last)
		return -ENOMEM;
	*runs = last;
	(*runs)[(*nr)++] = (struct replay_pfn_run){ pfn, 1 };
	return 0;
}

/* @s appended to the @nr of @v (room for @cap): 0 or -ENOMEM */
static int push_scan(struct replay_scan **v, size_t *nr, size_t *cap, struct replay_scan s)
{
	struct replay_scan *room = replay_room(*v, cap, *nr, sizeof(**v));

	if (!room)
		return -ENOMEM;
	*v = room;
	room[(*nr)++] = s;
	return 0;
}

/* A block's page frames: start_pfn and end_pfn in trace.dat, printed "range=(0x%lx ~ 0x%lx)". */
static bool field_range(struct decode *d, uint64_t *lo, uint64_t *hi)
{
	char text[64];
	unsigned long a, b;
	int end = 0;

	if (field_num(d, "start_pfn", lo) && field_num(d, "end_pfn", hi))
		return true;
	if (!d->f->str(d->f->ctx, "range", text, sizeof(text)) ||
	    sscanf(text, "(%lx ~ %lx)%n", &a, &b, &end) != 2 || text[end])
		return false;
	*lo = a;
	*hi = b;
	return true;
}

/*
 * mm_compaction_isolate_migratepages (compaction.h): "range=(0x%lx ~
 * 0x%lx) nr_scanned=%lu nr_taken=%lu"; older releases print the counts
 * alone, counted and no more. A block where pages were left untaken is
 * kept for its task until test_pages_isolated says whether the range
 * it was scanned for was busy.
 */
static int decode_isolate_migratepages(struct decode *d)
{
	struct replay_trace *t = d->t;
	uint64_t lo, hi, taken;

	t->families[RPF_COMPACTION]++;
	if (!field_range(d, &lo, &hi) || !field_num(d, "nr_taken", &taken) || lo >= hi || taken >= hi - lo)
		return 0;
	return push_scan(&t->scan, &t->nr_scan, &t->cap_scan,
			 (struct replay_scan){ .pid = d->e->pid, .lo = lo, .hi = hi, .taken = taken });
}

/* Has test_pages_isolated found [@start, @end) busy before? */
static bool busy_before(const struct replay_trace *t, uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < t->nr_busy; i++)
		if (t->busy[i] >= start && t->busy[i] < end)
			return true;
	return false;
}

/*
 * Task @pid's blocks scanned since its last test_pages_isolated, now
 * checked on [@start, @end): with @busy, those in the range kept as the
 * range's untaken blocks; the task's dropped either way.
 */
static int settle_scans(struct replay_trace *t, int pid, uint64_t start, uint64_t end, bool busy)
{
	size_t kept = 0;
	int ret = 0;

	for (size_t i = 0; i < t->nr_scan; i++) {
		const struct replay_scan *s = &t->scan[i];

		if (s->pid != pid)
			t->scan[kept++] = *s;
		else if (busy && !ret && s->lo >= start && s->hi <= end)
			ret = push_scan(&t->untaken, &t->nr_untaken, &t->cap_untaken, *s);
	}
	t->nr_scan = kept;
	return ret;
}

/*
 * test_pages_isolated (page_isolation.h): "start_pfn=0x%lx end_pfn=0x%lx
 * fin_pfn=0x%lx", fin_pfn the first page frame of the range not free
 * after its migration, end_pfn when all were. One short of the end is a
 * page the kernel could not move (pinned, or busy past the retries). The
 * first time a range is found busy, the blocks its migration scanned
 * say how many pages it could not take (settle_scans).
 */
static int decode_isolated(struct decode *d)
{
	static const char *const fields[] = { "start_pfn", "end_pfn", "fin_pfn", NULL };
	struct replay_trace *t = d->t;
	uint64_t start, end, fin;
	unsigned long *busy;
	int ret = need(d, fields, "start_pfn=0x%lx end_pfn=0x%lx fin_pfn=0x%lx ret=%s");

	if (ret)
		return ret;
	t->families[RPF_COMPACTION]++;
	if (!field_num(d, "start_pfn", &start) || !field_num(d, "end_pfn", &end) || !field_num(d, "fin_pfn", &fin))
		return 0;
	ret = settle_scans(t, d->e->pid, start, end, fin < end && !busy_before(t, start, end));
	if (ret || fin >= end)
		return ret;
	for (size_t i = 0; i < t->nr_busy; i++)
		if (t->busy[i] == fin)
			return 0;
	busy = replay_room(t->busy, &t->cap_busy, t->nr_busy, sizeof(*busy));
	if (!busy)
		return -ENOMEM;
	t->busy = busy;
	busy[t->nr_busy++] = (unsigned long)fin;
	return 0;
}

/* cmasim_demand_request (wl_demand.c): a recorded request asked through the run's policy */
static int decode_demand_request(struct decode *d)
{
	static const char *const fields[] = { "area", "pages", "align", "pfn", "latency_ns", "result", NULL };
	char result[32];
	uint64_t v;
	int ret = need(d, fields, "dev=%s area=%s pages=%lu align=%u pfn=0x%llx migrated=%llu latency_ns=%llu result=%s");

	if (ret)
		return ret;
	d->f->str(d->f->ctx, "area", d->e->area, sizeof(d->e->area));
	field_num(d, "pages", &v);
	d->e->count = (unsigned long)v;
	field_num(d, "align", &v);
	d->e->align = (unsigned)v;
	field_num(d, "pfn", &v);
	d->e->pfn = (unsigned long)v;
	if (field_num(d, "migrated", &v))
		d->e->migrated = (unsigned long)v;
	field_num(d, "latency_ns", &v);
	d->e->latency_ns = v;
	d->f->str(d->f->ctx, "result", result, sizeof(result));
	d->e->errorno = strcmp(result, "ok") ? -ENOMEM : 0;
	return 0;
}

/* cmasim_demand_release (wl_demand.c): a [demand] request given back to the policy, matched as a cma_release */
static int decode_demand_release(struct decode *d)
{
	static const char *const fields[] = { "area", "pages", "pfn", NULL };
	uint64_t v;
	int ret = need(d, fields, "dev=%s area=%s pages=%lu pfn=0x%llx");

	if (ret)
		return ret;
	d->f->str(d->f->ctx, "area", d->e->area, sizeof(d->e->area));
	field_num(d, "pages", &v);
	d->e->count = (unsigned long)v;
	field_num(d, "pfn", &v);
	d->e->pfn = (unsigned long)v;
	return 0;
}

static const struct replay_kind {
	const char *name;
	bool prefix;			/* names beginning so */
	enum replay_type type;		/* NR_RP_TYPES: background only */
	enum replay_family family;
	int (*decode)(struct decode *d);
} replay_kinds[] = {
	{ "cma_alloc_start", false, RP_CMA_ALLOC_START, 0, decode_cma },
	{ "cma_alloc_finish", false, RP_CMA_ALLOC_FINISH, 0, decode_cma },
	{ "cma_alloc_busy_retry", false, RP_CMA_ALLOC_BUSY_RETRY, 0, decode_cma },
	{ "cma_release", false, RP_CMA_RELEASE, 0, decode_cma },
	{ "cma_alloc_info", false, RP_CMA_ALLOC_INFO, 0, decode_alloc_info },
	{ "mm_alloc_contig_migrate_range_info", false, RP_CONTIG_RANGE_INFO, 0, decode_contig_info },
	{ "mm_migrate_pages", false, RP_MIGRATE_PAGES, RPF_MIGRATE, decode_migrate_pages },
	{ "cmasim_device_request", false, RP_DEVICE_REQUEST, 0, decode_device_request },
	{ "cmasim_device_latency", false, RP_DEVICE_LATENCY, 0, decode_device_latency },
	{ "cmasim_cma_alloc_latency", false, RP_CMA_ALLOC_LATENCY, 0, decode_cma_alloc_latency },
	{ "cmasim_demand_request", false, RP_DEMAND_REQUEST, 0, decode_demand_request },
	{ "cmasim_demand_release", false, RP_DEMAND_RELEASE, 0, decode_demand_release },
	{ "cma_wait_on_page_writeback", false, NR_RP_TYPES, RPF_MIGRATE, NULL },
	{ "cma_lock_page", false, NR_RP_TYPES, RPF_MIGRATE, NULL },
	{ "mm_migrate_", true, NR_RP_TYPES, RPF_MIGRATE, NULL },
	{ "mm_page_alloc", false, NR_RP_TYPES, RPF_PAGE, decode_page },
	{ "mm_page_free", false, NR_RP_TYPES, RPF_PAGE, decode_page },
	{ "mm_page_free_batched", false, NR_RP_TYPES, RPF_PAGE, decode_page },
	{ "mm_filemap_add_to_page_cache", false, NR_RP_TYPES, RPF_FILEMAP, decode_filemap },
	{ "mm_filemap_delete_from_page_cache", false, NR_RP_TYPES, RPF_FILEMAP, decode_filemap },
	{ "mm_page_alloc", true, NR_RP_TYPES, RPF_PAGE, NULL },
	{ "mm_page_free", true, NR_RP_TYPES, RPF_PAGE, NULL },
	{ "mm_filemap_", true, NR_RP_TYPES, RPF_FILEMAP, NULL },
	{ "mm_vmscan_", true, NR_RP_TYPES, RPF_VMSCAN, NULL },
	{ "writeback_congestion_wait", false, NR_RP_TYPES, RPF_VMSCAN, NULL },
	{ "writeback_wait_iff_congested", false, NR_RP_TYPES, RPF_VMSCAN, NULL },
	{ "mm_compaction_isolate_migratepages", false, NR_RP_TYPES, RPF_COMPACTION, decode_isolate_migratepages },
	{ "mm_compaction_", true, NR_RP_TYPES, RPF_COMPACTION, NULL },
	{ "test_pages_isolated", false, NR_RP_TYPES, RPF_COMPACTION, decode_isolated },
	{ "sched_switch", false, NR_RP_TYPES, RPF_SCHED, NULL },
	{ "mark_victim", false, NR_RP_TYPES, RPF_OOM, NULL },
	{ "cmasim_", true, NR_RP_TYPES, RPF_CMASIM, NULL },
};

static const struct replay_kind *find_kind(const char *name)
{
	for (size_t i = 0; i < sizeof(replay_kinds) / sizeof(replay_kinds[0]); i++) {
		const struct replay_kind *k = &replay_kinds[i];

		if (k->prefix ? !strncmp(name, k->name, strlen(k->name)) : !strcmp(name, k->name))
			return k;
	}
	return NULL;
}

static struct replay_event *push_event(struct replay_trace *t)
{
	if (t->nr_ev == t->cap_ev) {
		size_t cap = t->cap_ev ? 2 * t->cap_ev : 64;
		struct replay_event *ev = realloc(t->ev, cap * sizeof(*ev));

		if (!ev)
			return NULL;
		t->ev = ev;
		t->cap_ev = cap;
	}
	memset(&t->ev[t->nr_ev], 0, sizeof(t->ev[0]));
	return &t->ev[t->nr_ev++];
}

int replay_add_event(struct replay_trace *t, const char *name, uint64_t ts_ns, int pid, unsigned where,
		     const struct replay_fields *f, char *err, size_t errlen)
{
	const struct replay_kind *k = find_kind(name);
	struct decode d = { .t = t, .f = f, .event = name, .err = err, .errlen = errlen };
	int ret;

	if (!k)
		return ini_fail(err, errlen, "unknown event %s; accepted: %s", name, replay_events_accepted), -EINVAL;
	if (k->type == NR_RP_TYPES && k->decode) {
		struct replay_event page = { .ts_ns = ts_ns, .pid = pid, .where = where };

		d.e = &page;
		return k->decode(&d);
	}
	if (k->type == NR_RP_TYPES || (k->type == RP_MIGRATE_PAGES && !migrate_for_contig(&d))) {
		t->families[k->family]++;
		return 0;
	}
	d.e = push_event(t);
	if (!d.e)
		return -ENOMEM;
	*d.e = (struct replay_event){ .ts_ns = ts_ns, .pid = pid, .type = k->type, .where = where };
	ret = k->decode(&d);
	if (ret) {
		t->nr_ev--;
		return ret;
	}
	t->types[k->type]++;
	t->own |= k->type == RP_DEVICE_REQUEST || k->type == RP_DEMAND_REQUEST ||
		  k->type == RP_CMA_ALLOC_LATENCY;
	return 0;
}

/* ---- the text reader ---- */

/* A text line's fields: "name=value" in its TP_printk output, a value in parentheses whole ("range=(0x1 ~ 0x2)"). */
static const char *text_field(const char *fields, const char *name, size_t *len)
{
	size_t n = strlen(name);

	for (const char *p = fields; (p = strstr(p, name)); p += n) {
		if ((p == fields || p[-1] == ' ' || p[-1] == '\t') && p[n] == '=') {
			const char *close = p[n + 1] == '(' ? strchr(p + n + 1, ')') : NULL;

			p += n + 1;
			*len = close ? (size_t)(close - p) + 1 : strcspn(p, " \t\n");
			return p;
		}
	}
	return NULL;
}

static bool text_num(void *ctx, const char *name, uint64_t *v)
{
	size_t len;
	const char *p = text_field(ctx, name, &len);
	char buf[32], *end;

	if (!p || !len || len >= sizeof(buf))
		return false;
	memcpy(buf, p, len);
	buf[len] = 0;
	errno = 0;
	*v = buf[0] == '-' ? (uint64_t)strtoll(buf, &end, 0) : strtoull(buf, &end, 0);
	return !*end && !errno;
}

static bool text_has(void *ctx, const char *name)
{
	size_t len;

	return text_field(ctx, name, &len) && len;
}

static bool text_str(void *ctx, const char *name, char *buf, size_t size)
{
	size_t len;
	const char *p = text_field(ctx, name, &len);

	if (!p || !len || len >= size)
		return false;
	memcpy(buf, p, len);
	buf[len] = 0;
	return true;
}

/* Lines that are not events: comments, trace-cmd report's header, its notes on the buffer. */
static bool text_skip(const char *line)
{
	line += strspn(line, " \t");
	return !*line || *line == '#' || !strncmp(line, "cpus=", 5) || !strncmp(line, "version = ", 10) ||
	       !strncmp(line, "CPU ", 4) || !strncmp(line, "CPU:", 4);
}

/* "SECONDS.FRACTION:" into ns: true if @tok is one */
static bool text_timestamp(const char *tok, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ull;
	size_t i = 0;

	if (len < 3 || tok[len - 1] != ':')
		return false;
	for (; i < len && tok[i] >= '0' && tok[i] <= '9'; i++)
		sec = sec * 10 + (uint64_t)(tok[i] - '0');
	if (!i || i > 12 || tok[i++] != '.')
		return false;
	for (size_t digits = 0; i < len - 1; i++, digits++) {
		if (tok[i] < '0' || tok[i] > '9' || digits == 9)
			return false;
		frac = frac * 10 + (uint64_t)(tok[i] - '0');
		scale /= 10;
	}
	*ns = sec * 1000000000ull + frac * scale;
	return scale < 1000000000ull;
}

#define TEXT_LINE_SYNTAX "TASK-PID [CPU] [FLAGS] SECONDS: EVENT: FIELDS"

/* One event line @line (its number @no) into @t. */
static int text_line(struct replay_trace *t, char *line, unsigned no, char *err, size_t errlen)
{
	struct replay_fields f = { .num = text_num, .str = text_str, .has = text_has };
	char *cpu = line, *p, *dash, *event, *colon, msg[REPLAY_ERR_MAX];
	uint64_t ts;
	int pid = 0, ret;

	/* the task's name may hold spaces and brackets: the CPU is the first "[digits]" after a space */
	while ((cpu = strchr(cpu, '[')) && !(cpu > line && cpu[-1] == ' ' && cpu[1] >= '0' &&
					      cpu[1] <= '9' && cpu[1 + strspn(cpu + 1, "0123456789")] == ']'))
		cpu++;
	if (!cpu)
		return ini_fail(err, errlen, "%s:%u: not an ftrace event line; expected " TEXT_LINE_SYNTAX,
			    t->path, no), -EINVAL;
	*cpu = 0;
	dash = strrchr(line, '-');
	if (dash)
		pid = atoi(dash + 1);
	p = strchr(cpu + 1, ']') + 1;
	/* the flags ("d..2." or "....."), then the timestamp */
	for (unsigned tok = 0;; tok++) {
		size_t len;

		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (text_timestamp(p, len, &ts)) {
			p += len;
			break;
		}
		if (tok == 1 || !len)
			return ini_fail(err, errlen, "%s:%u: no timestamp (SECONDS.MICROSECONDS:) after the CPU; expected " TEXT_LINE_SYNTAX,
				    t->path, no), -EINVAL;
		p += len;
	}
	event = p + strspn(p, " \t");
	colon = strchr(event, ':');
	if (!colon || colon == event || strcspn(event, " \t") < (size_t)(colon - event))
		return ini_fail(err, errlen, "%s:%u: no event name after the timestamp; expected " TEXT_LINE_SYNTAX,
			    t->path, no), -EINVAL;
	*colon = 0;
	f.ctx = colon + 1;
	msg[0] = 0;
	ret = replay_add_event(t, event, ts, pid, no, &f, msg, sizeof(msg));
	if (ret == -EINVAL)
		snprintf(err, errlen, "%s:%u: %s", t->path, no, msg);	/* msg is escaped already */
	return ret;
}

int replay_read_text(const char *path, const char *text, size_t len, struct replay_trace *t,
		     char *err, size_t errlen)
{
	char line[4096];
	unsigned no = 0;

	snprintf(t->path, sizeof(t->path), "%s", path);
	err[0] = 0;
	if (memchr(text, 0, len))
		return ini_fail(err, errlen, "%s: holds a NUL byte: not a text trace; accepted %s", path,
			    REPLAY_FORMATS), -EINVAL;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = (nl ? (size_t)(nl - text) : len) - at;
		int ret;

		no++;
		if (n >= sizeof(line))
			return ini_fail(err, errlen, "%s:%u: a line of over %zu characters: not an ftrace text",
				    path, no, sizeof(line) - 1), -EINVAL;
		memcpy(line, text + at, n);
		line[n] = 0;
		at += n + 1;
		if (text_skip(line))
			continue;
		ret = text_line(t, line, no, err, errlen);
		if (ret == -EINVAL && !nl) {
			size_t used = strlen(err);

			snprintf(err + used, errlen - used, " (the last line has no newline: is the file truncated?)");
		}
		if (ret)
			return ret;
	}
	return 0;
}

void replay_trace_free(struct replay_trace *t)
{
	free(t->ev);
	free(t->req);
	free(t->pev);
	free(t->busy);
	free(t->untaken);
	free(t->scan);
	t->ev = NULL;
	t->req = NULL;
	t->pev = NULL;
	t->busy = NULL;
	t->untaken = t->scan = NULL;
	t->nr_ev = t->cap_ev = t->nr_req = t->nr_pev = t->cap_pev = t->nr_busy = t->cap_busy = 0;
	t->nr_untaken = t->cap_untaken = t->nr_scan = t->cap_scan = 0;
}
