// SPDX-License-Identifier: GPL-2.0
/*
 * The trace sink: events formatted as the kernel's TP_printk lines
 * ("mm_page_alloc: page=... pfn=... order=..."), handed to the caller's
 * function. Formatting happens only when a sink is set.
 */
#include <stdarg.h>
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

/* Every event the library emits, as available_events lists them. */
static const char *const trace_event_names[] = {
	"cma_alloc_busy_retry", "cma_alloc_finish", "cma_alloc_start",
	"cma_release", "cma_wait_on_page_writeback",
	"mm_compaction_fast_isolate_freepages",
	"mm_compaction_isolate_freepages", "mm_compaction_isolate_migratepages",
	"mm_compaction_migratepages", "mm_migrate_pages", "mm_migrate_pages_start",
	"mm_page_alloc", "mm_page_alloc_extfrag", "mm_page_free",
	"mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end",
	"mm_vmscan_kswapd_sleep", "mm_vmscan_kswapd_wake",
	"mm_vmscan_lru_shrink_inactive", "mm_vmscan_throttled", "mm_vmscan_wakeup_kswapd",
	"mm_vmscan_writepage", "writeback_congestion_wait", "writeback_wait_iff_congested",
};
#define NR_TRACE_EVENTS (sizeof(trace_event_names) / sizeof(trace_event_names[0]))
_Static_assert(NR_TRACE_EVENTS <= 32, "mm->trace_events has a bit per event");

static int trace_event_id(const char *name, size_t len)
{
	for (size_t i = 0; i < NR_TRACE_EVENTS; i++)
		if (strlen(trace_event_names[i]) == len && !strncmp(trace_event_names[i], name, len))
			return (int)i;
	return -1;
}

static bool trace_event_wanted(const struct cma_mm *mm, _Atomic int *id, const char *event)
{
	int i;

	if (!mm->trace_events)
		return true;
	i = atomic_load_explicit(id, memory_order_relaxed);
	if (i < 0) {
		i = trace_event_id(event, strlen(event));
		VM_BUG_ON(i < 0);	/* an event missing from trace_event_names[] */
		atomic_store_explicit(id, i, memory_order_relaxed);
	}
	return i >= 0 && (mm->trace_events & (1u << i));
}

void __trace_event(struct cma_mm *mm, _Atomic int *id, const char *event, const char *fmt, ...)
{
	cma_trace_fn fn = mm->trace_fn;
	char line[512];
	int n;
	va_list ap;

	if (!fn || !trace_event_wanted(mm, id, event))
		return;
	n = snprintf(line, sizeof(line), "%s: ", event);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	fn(mm->trace_ctx, event, line);
}

void cma_mm_set_trace(struct cma_mm *mm, cma_trace_fn fn, void *ctx)
{
	mm->trace_ctx = ctx;
	mm->trace_fn = fn;
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
			mm_pr_err(mm, "trace: no event '%.*s': accepted the names of the library's TP_printk lines, such as cma_alloc_start or mm_page_alloc\n",
				      (int)len, p);
			return -EINVAL;
		}
		mask |= 1u << id;
		p += len;
	}
	mm->trace_events = mask;
	return 0;
}
