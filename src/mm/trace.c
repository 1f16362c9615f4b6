// SPDX-License-Identifier: GPL-2.0
/*
 * Trace events: each call site fills its tracepoint's record (struct
 * cma_trace_event) only when someone reads the event, hands it to the
 * event's probe as it is, and formats it as the kernel's TP_printk line
 * ("mm_page_alloc: page=... pfn=... order=...") only for the text
 * consumer, so a probe costs no formatting.
 */
#include <string.h>

#include "mm/internal.h"

static const char *const migratetype_names[MIGRATE_TYPES] = {
	"Unmovable", "Reclaimable", "Movable", "Reserve", "CMA", "Isolate",
};

const char *migratetype_name(int mt)
{
	return mt >= 0 && mt < MIGRATE_TYPES ? migratetype_names[mt] : "Unknown";
}

const char *migratetype_name_of(const struct cma_mm *mm, int mt)
{
	if (mm->kernel.highatomic && is_migrate_highatomic(mt))
		return "HighAtomic";
	return migratetype_name(mt);
}

/* show_gfp_flags() of v3.4: composites first, each match removes its bits */
static const struct {
	cma_gfp_t mask;
	const char *name;
} gfp_flag_names[] = {
	{ CMA_GFP_HIGHUSER_MOVABLE, "GFP_HIGHUSER_MOVABLE" },
	{ CMA_GFP_HIGHUSER, "GFP_HIGHUSER" },
	{ CMA_GFP_USER, "GFP_USER" },
	{ CMA_GFP_KERNEL, "GFP_KERNEL" },
	{ CMA_GFP_NOFS, "GFP_NOFS" },
	{ CMA_GFP_ATOMIC, "GFP_ATOMIC" },
	{ CMA_GFP_NOIO, "GFP_NOIO" },
	{ CMA_GFP_HIGH, "GFP_HIGH" },
	{ CMA_GFP_WAIT, "GFP_WAIT" },
	{ CMA_GFP_IO, "GFP_IO" },
	{ CMA_GFP_COLD, "GFP_COLD" },
	{ CMA_GFP_NOWARN, "GFP_NOWARN" },
	{ CMA_GFP_RETRY_MAYFAIL, "GFP_REPEAT" },
	{ CMA_GFP_NORETRY, "GFP_NORETRY" },
	{ CMA_GFP_ZERO, "GFP_ZERO" },
	{ CMA_GFP_HARDWALL, "GFP_HARDWALL" },
	{ CMA_GFP_THISNODE, "GFP_THISNODE" },
	{ CMA_GFP_RECLAIMABLE, "GFP_RECLAIMABLE" },
	{ CMA_GFP_MOVABLE, "GFP_MOVABLE" },
};

void show_gfp_flags(cma_gfp_t gfp, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (!gfp) {
		snprintf(buf, len, "GFP_NOWAIT");
		return;
	}
	for (size_t i = 0; i < sizeof(gfp_flag_names) / sizeof(gfp_flag_names[0]) && n < len; i++) {
		if ((gfp & gfp_flag_names[i].mask) != gfp_flag_names[i].mask)
			continue;
		gfp &= ~gfp_flag_names[i].mask;
		n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "", gfp_flag_names[i].name);
	}
	if (gfp && n < len)
		snprintf(buf + n, len - n, "%s%#x", n ? "|" : "", gfp);
}

/* Where TP_printk prints a page: its struct page in x86-64's vmemmap. */
static const void *vmemmap_ptr(unsigned long pfn)
{
	return (const void *)(0xffffea0000000000ul + pfn * 64);
}

/* ... or NULL, for a failed allocation's */
static const void *trace_page_ptr(const struct cma_page *page, unsigned long pfn)
{
	return page ? vmemmap_ptr(pfn) : NULL;
}

static const char *reclaim_wb_flags(bool file)
{
	return file ? "RECLAIM_WB_FILE|RECLAIM_WB_ASYNC" : "RECLAIM_WB_ANON|RECLAIM_WB_ASYNC";
}

/* ---- each event's TP_printk, from its record ---- */

typedef void (*trace_print_fn)(const struct cma_mm *mm, const struct cma_trace_event *ev,
			       char *buf, size_t len);

static void print_cma_alloc_busy_retry(const struct cma_mm *mm, const struct cma_trace_event *ev,
				       char *buf, size_t len)
{
	snprintf(buf, len, "name=%s pfn=0x%lx page=%p count=%lu align=%u", ev->cma.name,
		 ev->cma.pfn, trace_page_ptr(ev->cma.page, ev->cma.pfn), ev->cma.count, ev->cma.align);
}

static void print_cma_alloc_finish(const struct cma_mm *mm, const struct cma_trace_event *ev,
				   char *buf, size_t len)
{
	snprintf(buf, len, "name=%s pfn=0x%lx page=%p count=%lu align=%u errorno=%d", ev->cma.name,
		 ev->cma.pfn, trace_page_ptr(ev->cma.page, ev->cma.pfn), ev->cma.count, ev->cma.align,
		 ev->cma.errorno);
}

static void print_cma_alloc_start(const struct cma_mm *mm, const struct cma_trace_event *ev,
				  char *buf, size_t len)
{
	snprintf(buf, len, "name=%s count=%lu align=%u", ev->cma.name, ev->cma.count, ev->cma.align);
}

static void print_cma_release(const struct cma_mm *mm, const struct cma_trace_event *ev,
			      char *buf, size_t len)
{
	snprintf(buf, len, "name=%s pfn=0x%lx page=%p count=%lu", ev->cma.name, ev->cma.pfn,
		 trace_page_ptr(ev->cma.page, ev->cma.pfn), ev->cma.count);
}

static void print_cma_wait_on_page_writeback(const struct cma_mm *mm, const struct cma_trace_event *ev,
					     char *buf, size_t len)
{
	snprintf(buf, len, "pfn=%lu waited_ns=%llu", ev->writeback_wait.pfn,
		 (unsigned long long)ev->writeback_wait.waited_ns);
}

static void print_fast_isolate_freepages(const struct cma_mm *mm, const struct cma_trace_event *ev,
					 char *buf, size_t len)
{
	snprintf(buf, len, "min_pfn=0x%lx free_pfn=0x%lx nr_scanned=%lu nr_taken=%lu",
		 ev->isolate.min_pfn, ev->isolate.free_pfn, ev->isolate.nr_scanned, ev->isolate.nr_taken);
}

static void print_isolate(const struct cma_mm *mm, const struct cma_trace_event *ev,
			  char *buf, size_t len)
{
	snprintf(buf, len, "nr_scanned=%lu nr_taken=%lu", ev->isolate.nr_scanned, ev->isolate.nr_taken);
}

static void print_compaction_migratepages(const struct cma_mm *mm, const struct cma_trace_event *ev,
					  char *buf, size_t len)
{
	snprintf(buf, len, "nr_migrated=%lu nr_failed=%lu", ev->compaction.nr_migrated,
		 ev->compaction.nr_failed);
}

/*
 * mm_migrate_pages: v3.5 has none, we print the counts and the mode.
 * 5.9's TP_printk (kernel.migrate_count_pages) adds the THP counts (none
 * here: no THP) and shows the reason, 6.7's (kernel.migrate_trace_nr_split)
 * nr_split; from 5.13 (kernel.cma_stats) an mm_migrate_pages_start comes
 * first. Departure: the kernel's reason is older than 5.9; before 5.9 ours
 * has none.
 */
static void print_migrate_pages(const struct cma_mm *mm, const struct cma_trace_event *ev,
				char *buf, size_t len)
{
	if (!mm->kernel.migrate_count_pages)
		snprintf(buf, len, "nr_succeeded=%lu nr_failed=%lu mode=%s", ev->migrate.nr_succeeded,
			 ev->migrate.nr_failed, ev->migrate.mode);
	else
		snprintf(buf, len, "nr_succeeded=%lu nr_failed=%lu nr_thp_succeeded=0 nr_thp_failed=0 nr_thp_split=0%s mode=%s reason=%s",
			 ev->migrate.nr_succeeded, ev->migrate.nr_failed,
			 mm->kernel.migrate_trace_nr_split ? " nr_split=0" : "", ev->migrate.mode,
			 ev->migrate.reason);
}

static void print_migrate_pages_start(const struct cma_mm *mm, const struct cma_trace_event *ev,
				      char *buf, size_t len)
{
	snprintf(buf, len, "mode=%s reason=%s", ev->migrate.mode, ev->migrate.reason);
}

static void print_page_alloc(const struct cma_mm *mm, const struct cma_trace_event *ev,
			     char *buf, size_t len)
{
	char flags[256];

	show_gfp_flags(ev->page.gfp_flags, flags, sizeof(flags));
	snprintf(buf, len, "page=%p pfn=%lu order=%u migratetype=%d gfp_flags=%s",
		 trace_page_ptr(ev->page.page, ev->page.pfn), ev->page.pfn, ev->page.order,
		 ev->page.migratetype, flags);
}

static void print_page_alloc_extfrag(const struct cma_mm *mm, const struct cma_trace_event *ev,
				     char *buf, size_t len)
{
	unsigned long pfn = ev->extfrag.pfn;
	int start_mt = ev->extfrag.alloc_migratetype, fallback_mt = ev->extfrag.fallback_migratetype;

	snprintf(buf, len, "page=%p pfn=%lu alloc_order=%u fallback_order=%u pageblock_order=%u alloc_migratetype=%d fallback_migratetype=%d fragmenting=%d change_ownership=%d",
		 vmemmap_ptr(pfn), pfn, ev->extfrag.alloc_order, ev->extfrag.fallback_order,
		 ev->extfrag.pageblock_order, start_mt, fallback_mt,
		 ev->extfrag.fallback_order < ev->extfrag.pageblock_order, start_mt == fallback_mt);
}

static void print_page_free(const struct cma_mm *mm, const struct cma_trace_event *ev,
			    char *buf, size_t len)
{
	snprintf(buf, len, "page=%p pfn=%lu order=%u", vmemmap_ptr(ev->page.pfn), ev->page.pfn,
		 ev->page.order);
}

static void print_direct_reclaim_begin(const struct cma_mm *mm, const struct cma_trace_event *ev,
				       char *buf, size_t len)
{
	char flags[256];

	show_gfp_flags(ev->reclaim.gfp_flags, flags, sizeof(flags));
	snprintf(buf, len, "order=%u may_writepage=1 gfp_flags=%s", ev->reclaim.order, flags);
}

static void print_direct_reclaim_end(const struct cma_mm *mm, const struct cma_trace_event *ev,
				     char *buf, size_t len)
{
	snprintf(buf, len, "nr_reclaimed=%lu", ev->reclaim.nr_reclaimed);
}

static void print_kswapd_sleep(const struct cma_mm *mm, const struct cma_trace_event *ev,
			       char *buf, size_t len)
{
	snprintf(buf, len, "nid=0");
}

static void print_kswapd_wake(const struct cma_mm *mm, const struct cma_trace_event *ev,
			      char *buf, size_t len)
{
	snprintf(buf, len, "nid=0 order=%u", ev->reclaim.order);
}

static void print_lru_shrink_inactive(const struct cma_mm *mm, const struct cma_trace_event *ev,
				      char *buf, size_t len)
{
	snprintf(buf, len, "nid=0 zid=%d nr_scanned=%ld nr_reclaimed=%ld priority=%d flags=%s",
		 ev->shrink.zid, ev->shrink.nr_scanned, ev->shrink.nr_reclaimed, ev->shrink.priority,
		 reclaim_wb_flags(ev->shrink.file));
}

/* "usect_delayed": the kernel's spelling */
static void print_throttled(const struct cma_mm *mm, const struct cma_trace_event *ev,
			    char *buf, size_t len)
{
	snprintf(buf, len, "nid=0 usec_timeout=%d usect_delayed=%d reason=%s", ev->throttled.usec_timeout,
		 ev->throttled.usec_delayed, ev->throttled.reason);
}

static void print_wakeup_kswapd(const struct cma_mm *mm, const struct cma_trace_event *ev,
				char *buf, size_t len)
{
	snprintf(buf, len, "nid=0 zid=%d order=%u", ev->reclaim.zid, ev->reclaim.order);
}

static void print_writepage(const struct cma_mm *mm, const struct cma_trace_event *ev,
			    char *buf, size_t len)
{
	snprintf(buf, len, "page=%p pfn=%lu flags=%s", vmemmap_ptr(ev->writepage.pfn),
		 ev->writepage.pfn, reclaim_wb_flags(ev->writepage.file));
}

/* writeback_congestion_wait and _wait_iff_congested: writeback_congest_waited_template */
static void print_congest_waited(const struct cma_mm *mm, const struct cma_trace_event *ev,
				 char *buf, size_t len)
{
	snprintf(buf, len, "usec_timeout=%u usec_delayed=%u", ev->congest_waited.usec_timeout,
		 ev->congest_waited.usec_delayed);
}

/* Every event the library emits, as available_events lists them, and its TP_printk. */
static const struct {
	const char *name;
	trace_print_fn print;
} trace_events[NR_CMA_TRACE_EVENTS] = {
	[CMA_TRACE_CMA_ALLOC_BUSY_RETRY] = { "cma_alloc_busy_retry", print_cma_alloc_busy_retry },
	[CMA_TRACE_CMA_ALLOC_FINISH] = { "cma_alloc_finish", print_cma_alloc_finish },
	[CMA_TRACE_CMA_ALLOC_START] = { "cma_alloc_start", print_cma_alloc_start },
	[CMA_TRACE_CMA_LOCK_PAGE] = { "cma_lock_page", print_cma_wait_on_page_writeback },
	[CMA_TRACE_CMA_RELEASE] = { "cma_release", print_cma_release },
	[CMA_TRACE_CMA_WAIT_ON_PAGE_WRITEBACK] = { "cma_wait_on_page_writeback",
						   print_cma_wait_on_page_writeback },
	[CMA_TRACE_MM_COMPACTION_FAST_ISOLATE_FREEPAGES] = { "mm_compaction_fast_isolate_freepages",
							     print_fast_isolate_freepages },
	[CMA_TRACE_MM_COMPACTION_ISOLATE_FREEPAGES] = { "mm_compaction_isolate_freepages", print_isolate },
	[CMA_TRACE_MM_COMPACTION_ISOLATE_MIGRATEPAGES] = { "mm_compaction_isolate_migratepages",
							   print_isolate },
	[CMA_TRACE_MM_COMPACTION_MIGRATEPAGES] = { "mm_compaction_migratepages",
						   print_compaction_migratepages },
	[CMA_TRACE_MM_MIGRATE_PAGES] = { "mm_migrate_pages", print_migrate_pages },
	[CMA_TRACE_MM_MIGRATE_PAGES_START] = { "mm_migrate_pages_start", print_migrate_pages_start },
	[CMA_TRACE_MM_PAGE_ALLOC] = { "mm_page_alloc", print_page_alloc },
	[CMA_TRACE_MM_PAGE_ALLOC_EXTFRAG] = { "mm_page_alloc_extfrag", print_page_alloc_extfrag },
	[CMA_TRACE_MM_PAGE_FREE] = { "mm_page_free", print_page_free },
	[CMA_TRACE_MM_VMSCAN_DIRECT_RECLAIM_BEGIN] = { "mm_vmscan_direct_reclaim_begin",
						       print_direct_reclaim_begin },
	[CMA_TRACE_MM_VMSCAN_DIRECT_RECLAIM_END] = { "mm_vmscan_direct_reclaim_end",
						     print_direct_reclaim_end },
	[CMA_TRACE_MM_VMSCAN_KSWAPD_SLEEP] = { "mm_vmscan_kswapd_sleep", print_kswapd_sleep },
	[CMA_TRACE_MM_VMSCAN_KSWAPD_WAKE] = { "mm_vmscan_kswapd_wake", print_kswapd_wake },
	[CMA_TRACE_MM_VMSCAN_LRU_SHRINK_INACTIVE] = { "mm_vmscan_lru_shrink_inactive",
						      print_lru_shrink_inactive },
	[CMA_TRACE_MM_VMSCAN_THROTTLED] = { "mm_vmscan_throttled", print_throttled },
	[CMA_TRACE_MM_VMSCAN_WAKEUP_KSWAPD] = { "mm_vmscan_wakeup_kswapd", print_wakeup_kswapd },
	[CMA_TRACE_MM_VMSCAN_WRITEPAGE] = { "mm_vmscan_writepage", print_writepage },
	[CMA_TRACE_WRITEBACK_CONGESTION_WAIT] = { "writeback_congestion_wait", print_congest_waited },
	[CMA_TRACE_WRITEBACK_WAIT_IFF_CONGESTED] = { "writeback_wait_iff_congested", print_congest_waited },
};
_Static_assert(NR_CMA_TRACE_EVENTS <= 32, "mm->trace_events has a bit per event");

static int trace_event_id(const char *name, size_t len)
{
	for (int i = 0; i < NR_CMA_TRACE_EVENTS; i++)
		if (strlen(trace_events[i].name) == len && !strncmp(trace_events[i].name, name, len))
			return i;
	return -1;
}

/* The text consumer's line: "event: " and the event's TP_printk. */
static void trace_event_text(struct cma_mm *mm, const struct cma_trace_event *ev)
{
	const char *name = trace_events[ev->id].name;
	char line[512];
	int n = snprintf(line, sizeof(line), "%s: ", name);

	trace_events[ev->id].print(mm, ev, line + n, sizeof(line) - n);
	mm->trace_fn(mm->trace_ctx, name, line);
}

/* The consumers, read again under trace_lock: a setter may have changed them since the check. */
void __trace_event(struct cma_mm *mm, const struct cma_trace_event *ev)
{
	cma_trace_probe_fn probe;

	pthread_rwlock_rdlock(&mm->trace_lock);
	probe = mm->trace_probes[ev->id].fn;
	if (probe)
		probe(mm->trace_probes[ev->id].ctx, ev);
	if (trace_text_wanted(mm, ev->id))
		trace_event_text(mm, ev);
	pthread_rwlock_unlock(&mm->trace_lock);
}

/*
 * Reader-preferring, as a consumer that frees pages emits events of its
 * own, taking trace_lock for reading again: a setter waiting meanwhile
 * must not hold that up.
 */
void trace_lock_init(struct cma_mm *mm)
{
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_READER_NP);
	pthread_rwlock_init(&mm->trace_lock, &attr);
	pthread_rwlockattr_destroy(&attr);
}

int cma_mm_set_trace_probe(struct cma_mm *mm, enum cma_trace_id id, cma_trace_probe_fn fn, void *ctx)
{
	if (!mm || (unsigned)id >= NR_CMA_TRACE_EVENTS)
		return -EINVAL;
	pthread_rwlock_wrlock(&mm->trace_lock);
	mm->trace_probes[id].ctx = ctx;
	__atomic_store_n(&mm->trace_probes[id].fn, fn, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&mm->trace_lock);
	return 0;
}

void cma_mm_set_trace(struct cma_mm *mm, cma_trace_fn fn, void *ctx)
{
	pthread_rwlock_wrlock(&mm->trace_lock);
	mm->trace_ctx = ctx;
	__atomic_store_n(&mm->trace_fn, fn, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&mm->trace_lock);
}

/*
 * What tracing/set_event takes: event names separated by spaces, commas or
 * newlines; NULL or an empty list enables every event. An unknown name is
 * -EINVAL and leaves the choice as it was.
 */
int cma_mm_set_trace_events(struct cma_mm *mm, const char *events)
{
	static const char sep[] = " ,\n\t";
	uint32_t mask = 0;

	for (const char *p = events; p && *p; ) {
		size_t len;
		int id;

		p += strspn(p, sep);
		len = strcspn(p, sep);
		if (!len)
			break;
		id = trace_event_id(p, len);
		if (id < 0) {
			cma_mm_pr_err(mm, "trace: no event '%.*s': accepted the names of the library's TP_printk lines, such as cma_alloc_start or mm_page_alloc\n",
				      (int)len, p);
			return -EINVAL;
		}
		mask |= 1u << id;
		p += len;
	}
	pthread_rwlock_wrlock(&mm->trace_lock);
	__atomic_store_n(&mm->trace_events, mask, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&mm->trace_lock);
	return 0;
}
