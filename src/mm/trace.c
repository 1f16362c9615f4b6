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
	{ CMA_GFP_WAIT | CMA_GFP_IO, "GFP_NOFS" },
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

void trace_event(struct cma_mm *mm, const char *event, const char *fmt, ...)
{
	cma_trace_fn fn = mm->trace_fn;
	char line[512];
	int n;
	va_list ap;

	if (!fn)
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
