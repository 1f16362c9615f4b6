// SPDX-License-Identifier: GPL-2.0
/*
 * The /proc files of a v3.5 kernel (mm/vmstat.c, fs/proc/meminfo.c):
 * buddyinfo, pagetypeinfo, vmstat, meminfo and zoneinfo, written with the
 * kernel's own format strings so that scripts written for the real files
 * parse ours. Two later additions are marked where they appear: the
 * "managed" line of zoneinfo and the CmaTotal/CmaFree lines of meminfo.
 * Under mm->kernel.proc_v6 pagetypeinfo and meminfo take 6.x's layout
 * here, and vmstat and zoneinfo are 6.x's (proc_v6.c).
 *
 * The one idea: state is copied out under the lock that protects it
 * (zone->lock for free lists and pageblock types, slot->lock for the
 * per-CPU counts) and printed after the lock is dropped, so no stdio call
 * ever runs under a spinlock. Counters are read lock-free, as the
 * kernel's readers do.
 */
#include <string.h>

#include "mm/cma.h"
#include "mm/proc.h"

/* ---- snapshots, taken under the lock that protects them ---- */

/* Blocks on each free list, by type and order (pagetypeinfo_showfree_print). */
struct free_counts {
	unsigned long blocks[MIGRATE_TYPES][MAX_ORDER_LIMIT];
};

static void count_free_blocks_locked(struct zone *zone, struct free_counts *fc)
{
	struct cma_mm *mm = zone->mm;

	lockdep_assert_held(&zone->lock);
	memset(fc, 0, sizeof(*fc));
	for (unsigned o = 0; o < mm->max_order; o++)
		for (int t = 0; t < MIGRATE_TYPES; t++)
			for (struct cma_page *p = page_list_first(mm, &zone->free_area[o].free_list[t]); p;
			     p = page_list_next(mm, p))
				fc->blocks[t][o]++;
}

/*
 * Pageblocks by migrate type (pagetypeinfo_showblockcount_print): the
 * zone walked from its first pfn in pageblock steps, holes skipped.
 */
static void count_pageblocks_locked(struct zone *zone, unsigned long count[MIGRATE_TYPES])
{
	struct cma_mm *mm = zone->mm;
	unsigned long end = zone->zone_start_pfn + zone->spanned_pages;

	lockdep_assert_held(&zone->lock);
	memset(count, 0, MIGRATE_TYPES * sizeof(count[0]));
	for (unsigned long pfn = zone->zone_start_pfn; pfn < end; pfn += mm->pageblock_nr_pages) {
		int mt;

		if (!pfn_valid(mm, pfn))
			continue;
		mt = get_pageblock_migratetype(mm, pfn);
		if (mt >= 0 && mt < MIGRATE_TYPES)
			count[mt]++;
	}
}

static void count_pageblocks(struct zone *zone, unsigned long count[MIGRATE_TYPES])
{
	spin_lock(&zone->lock);
	count_pageblocks_locked(zone, count);
	spin_unlock(&zone->lock);
}

/* ---- /proc/buddyinfo: frag_show_print() ---- */

static int show_buddyinfo(struct cma_mm *mm, FILE *out)
{
	unsigned long nr_free[MAX_ORDER_LIMIT];
	struct zone *zone;

	for_each_populated_zone(mm, zone) {
		spin_lock(&zone->lock);
		for (unsigned o = 0; o < mm->max_order; o++)
			nr_free[o] = zone->free_area[o].nr_free;
		spin_unlock(&zone->lock);

		fprintf(out, "Node %d, zone %8s ", 0, zone->name);
		for (unsigned o = 0; o < mm->max_order; o++)
			fprintf(out, "%6lu ", nr_free[o]);
		fputc('\n', out);
	}
	return 0;
}

/* ---- /proc/pagetypeinfo: pagetypeinfo_show() ---- */

/*
 * The migrate types as pagetypeinfo lists them. v3.5 follows enum
 * migratetype; 4.4's enum (kernel.pagetypeinfo_types) puts Movable
 * before Reclaimable and has HighAtomic where Reserve was (the same
 * number here), so its columns are printed by name in its order.
 */
struct proc_type {
	int mt;
	const char *name;
};

static const struct proc_type types_v3_5[MIGRATE_TYPES] = {
	{ MIGRATE_UNMOVABLE, "Unmovable" }, { MIGRATE_RECLAIMABLE, "Reclaimable" },
	{ MIGRATE_MOVABLE, "Movable" }, { MIGRATE_RESERVE, "Reserve" },
	{ MIGRATE_CMA, "CMA" }, { MIGRATE_ISOLATE, "Isolate" },
};

static const struct proc_type types_v6[MIGRATE_TYPES] = {
	{ MIGRATE_UNMOVABLE, "Unmovable" }, { MIGRATE_MOVABLE, "Movable" },
	{ MIGRATE_RECLAIMABLE, "Reclaimable" }, { MIGRATE_RESERVE, "HighAtomic" },
	{ MIGRATE_CMA, "CMA" }, { MIGRATE_ISOLATE, "Isolate" },
};

static const struct proc_type *proc_types(const struct cma_mm *mm)
{
	return mm->kernel.pagetypeinfo_types ? types_v6 : types_v3_5;
}

/*
 * From 5.4 (kernel.pagetypeinfo_cap) a free list stops being counted at
 * 100000 blocks and prints ">100000" (pagetypeinfo_showfree_print caps
 * its walk under zone->lock); v3.5 counts them all.
 */
#define PAGETYPEINFO_FREE_CAP	100000ul

static void print_free_count(const struct cma_mm *mm, FILE *out, unsigned long n)
{
	if (mm->kernel.pagetypeinfo_cap && n >= PAGETYPEINFO_FREE_CAP)
		fprintf(out, ">%6lu ", PAGETYPEINFO_FREE_CAP);
	else
		fprintf(out, "%6lu ", n);
}

static void pagetypeinfo_showfree(struct cma_mm *mm, FILE *out)
{
	const struct proc_type *types = proc_types(mm);
	struct free_counts fc;
	struct zone *zone;

	fprintf(out, "%-43s ", "Free pages count per migrate type at order");
	for (unsigned o = 0; o < mm->max_order; o++)
		fprintf(out, "%6d ", (int)o);
	fputc('\n', out);

	for_each_populated_zone(mm, zone) {
		spin_lock(&zone->lock);
		count_free_blocks_locked(zone, &fc);
		spin_unlock(&zone->lock);

		for (int i = 0; i < MIGRATE_TYPES; i++) {
			const struct proc_type *pt = &types[i];

			fprintf(out, "Node %4d, zone %8s, type %12s ", 0, zone->name, pt->name);
			for (unsigned o = 0; o < mm->max_order; o++)
				print_free_count(mm, out, fc.blocks[pt->mt][o]);
			fputc('\n', out);
		}
	}
}

static void pagetypeinfo_showblockcount(struct cma_mm *mm, FILE *out)
{
	const struct proc_type *types = proc_types(mm);
	unsigned long count[MIGRATE_TYPES];
	struct zone *zone;

	fprintf(out, "\n%-23s", "Number of blocks type ");
	for (int i = 0; i < MIGRATE_TYPES; i++)
		fprintf(out, "%12s ", types[i].name);
	fputc('\n', out);

	for_each_populated_zone(mm, zone) {
		count_pageblocks(zone, count);
		fprintf(out, "Node %d, zone %8s ", 0, zone->name);
		for (int i = 0; i < MIGRATE_TYPES; i++)
			fprintf(out, "%12lu ", count[types[i].mt]);
		fputc('\n', out);
	}
}

static int show_pagetypeinfo(struct cma_mm *mm, FILE *out)
{
	fprintf(out, "Page block order: %d\n", (int)mm->pageblock_order);
	fprintf(out, "Pages per block:  %lu\n", mm->pageblock_nr_pages);
	fputc('\n', out);
	pagetypeinfo_showfree(mm, out);
	pagetypeinfo_showblockcount(mm, out);
	return 0;
}

/* ---- /proc/vmstat: vmstat_start() + vmstat_show() ---- */

static int show_vmstat(struct cma_mm *mm, FILE *out)
{
	unsigned long background, dirty;

	if (mm->kernel.proc_v6)
		return show_vmstat_v6(mm, out);
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
		/* 3.15's workingset items sit before nr_anon_transparent_hugepages */
		if (i == NR_ANON_TRANSPARENT_HUGEPAGES && mm->kernel.workingset)
			for (int e = WORKINGSET_REFAULT; e <= WORKINGSET_ACTIVATE; e++)
				fprintf(out, "%s %llu\n", vmstat_event_names[e],
					(unsigned long long)vm_event_sum(mm, e));
		fprintf(out, "%s %lu\n", vmstat_zone_item_names[i], global_page_state(mm, i));
		/* 3.12-4.7's NR_ALLOC_BATCH follows NR_FREE_PAGES */
		if (i == NR_FREE_PAGES && alloc_flags_fair(mm))
			fprintf(out, "nr_alloc_batch %lu\n", nr_alloc_batch(mm, NULL));
	}
	/* enum writeback_stat_item: global_dirty_limits at the time of reading */
	global_dirty_limits(mm, &background, &dirty);
	fprintf(out, "%s %lu\n", "nr_dirty_threshold", dirty);
	fprintf(out, "%s %lu\n", "nr_dirty_background_threshold", background);
	enum vm_event_item items[NR_VM_EVENT_ITEMS];
	unsigned n = vmstat_shown_events(mm, items);

	for (unsigned i = 0; i < n; i++)
		fprintf(out, "%s %llu\n", vmstat_event_names[items[i]],
			(unsigned long long)vm_event_shown(mm, items[i]));
	return 0;
}

/* ---- /proc/meminfo: meminfo_proc_show(), v3.5's or 6.12's ---- */

struct meminfo_line {
	const char *label;
	unsigned long kb;
	bool hidden;		/* a line the machine's release does not print */
};

/* Every line is "%-16s%8lu kB": the label and its colon padded to 16. */
static void meminfo_print(struct cma_mm *mm, FILE *out, const struct meminfo_line *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char label[24];

		if (lines[i].hidden)
			continue;
		snprintf(label, sizeof(label), "%s:", lines[i].label);
		fprintf(out, "%-16s%8lu kB\n", label, lines[i].kb);
	}
}

/* CONFIG_HIGHMEM's four lines; totalhigh_pages is what highmem gave the buddy allocator. */
static void meminfo_print_highmem(struct cma_mm *mm, FILE *out, unsigned long totalram,
				  unsigned long freeram)
{
	struct zone *zone = &mm->zones[ZONE_HIGHMEM];
	unsigned long high_total = zone->managed_pages;
	unsigned long high_free = zone_page_state(zone, NR_FREE_PAGES);
	const struct meminfo_line lines[] = {
		{ "HighTotal", K(mm, high_total), false },
		{ "HighFree", K(mm, high_free), false },
		{ "LowTotal", K(mm, totalram - high_total), false },
		{ "LowFree", K(mm, freeram > high_free ? freeram - high_free : 0), false },
	};

	meminfo_print(mm, out, lines, sizeof(lines) / sizeof(lines[0]));
}

/*
 * si_mem_available() (3.14): free pages above the reserves, plus the page
 * cache and reclaimable slab that reclaim could give back, less what it
 * would leave behind to stay above the low watermarks (half of each, at
 * most the sum of the low marks).
 */
static unsigned long si_mem_available(struct cma_mm *mm)
{
	unsigned long wmark_low = 0, pagecache, reclaimable;
	long available;
	struct zone *zone;

	for_each_zone(mm, zone)
		wmark_low += low_wmark_pages(zone);
	available = (long)global_page_state(mm, NR_FREE_PAGES) - (long)mm->totalreserve_pages;
	pagecache = global_page_state(mm, NR_ACTIVE_FILE) + global_page_state(mm, NR_INACTIVE_FILE);
	pagecache -= pagecache / 2 < wmark_low ? pagecache / 2 : wmark_low;
	available += (long)pagecache;
	reclaimable = global_page_state(mm, NR_SLAB_RECLAIMABLE);
	available += (long)reclaimable - (long)(reclaimable / 2 < wmark_low ? reclaimable / 2 : wmark_low);
	return available < 0 ? 0 : (unsigned long)available;
}

/*
 * What the model has no counterpart for prints 0, as on a kernel where it
 * is idle: buffers, Committed_AS, the vmalloc area, and
 * 6.x's secondary page tables and per-CPU chunks. 6.x's lines of options
 * the model lacks (zswap, THP, hugetlb, DirectMap) are left out. Swap
 * slots in use are mm->swap_used; NR_KERNEL_STACK counts stacks.
 */
static int show_meminfo(struct cma_mm *mm, FILE *out)
{
	unsigned long totalram = mm->totalram_pages;
	unsigned long freeram = global_page_state(mm, NR_FREE_PAGES);
	unsigned long swap_total = (unsigned long)(mm->swap_bytes >> 10);
	unsigned long swap_used =
		(unsigned long)(__atomic_load_n(&mm->swap_used, __ATOMIC_RELAXED) >> 10);
	unsigned long swap_pages = (unsigned long)(mm->swap_bytes >> mm->page_shift);
	unsigned long active_anon = global_page_state(mm, NR_ACTIVE_ANON);
	unsigned long inactive_anon = global_page_state(mm, NR_INACTIVE_ANON);
	unsigned long active_file = global_page_state(mm, NR_ACTIVE_FILE);
	unsigned long inactive_file = global_page_state(mm, NR_INACTIVE_FILE);
	unsigned long slab_r = global_page_state(mm, NR_SLAB_RECLAIMABLE);
	unsigned long slab_u = global_page_state(mm, NR_SLAB_UNRECLAIMABLE);
	const struct meminfo_line head[] = {
		{ "MemTotal", K(mm, totalram), false },
		{ "MemFree", K(mm, freeram), false },
		{ "MemAvailable", mm->kernel.meminfo_available ? K(mm, si_mem_available(mm)) : 0,
		  !mm->kernel.meminfo_available },
		{ "Buffers", 0, false },
		{ "Cached", K(mm, global_page_state(mm, NR_FILE_PAGES)), false },
		{ "SwapCached", K(mm, atomic_load_explicit(&mm->swapcache_pages, memory_order_relaxed)), false },
		{ "Active", K(mm, active_anon + active_file), false },
		{ "Inactive", K(mm, inactive_anon + inactive_file), false },
		{ "Active(anon)", K(mm, active_anon), false },
		{ "Inactive(anon)", K(mm, inactive_anon), false },
		{ "Active(file)", K(mm, active_file), false },
		{ "Inactive(file)", K(mm, inactive_file), false },
		{ "Unevictable", K(mm, global_page_state(mm, NR_UNEVICTABLE)), false },
		{ "Mlocked", K(mm, global_page_state(mm, NR_MLOCK)), false },
	};
	const struct meminfo_line tail[] = {
		{ "SwapTotal", swap_total, false },
		{ "SwapFree", swap_total > swap_used ? swap_total - swap_used : 0, false },
		{ "Dirty", K(mm, global_page_state(mm, NR_FILE_DIRTY)), false },
		{ "Writeback", K(mm, global_page_state(mm, NR_WRITEBACK)), false },
		{ "AnonPages", K(mm, global_page_state(mm, NR_ANON_PAGES)), false },
		{ "Mapped", K(mm, global_page_state(mm, NR_FILE_MAPPED)), false },
		{ "Shmem", K(mm, global_page_state(mm, NR_SHMEM)), false },
		{ "KReclaimable", K(mm, slab_r), !mm->kernel.proc_v6 },
		{ "Slab", K(mm, slab_r + slab_u), false },
		{ "SReclaimable", K(mm, slab_r), false },
		{ "SUnreclaim", K(mm, slab_u), false },
		{ "KernelStack", global_page_state(mm, NR_KERNEL_STACK) * thread_size_kb(mm), false },
		{ "PageTables", K(mm, global_page_state(mm, NR_PAGETABLE)), false },
		{ "SecPageTables", 0, !mm->kernel.proc_v6 },
		/* 5.8 folded unstable NFS pages into Writeback; 6.x's line stays 0 */
		{ "NFS_Unstable", mm->kernel.proc_v6 ? 0 : K(mm, global_page_state(mm, NR_UNSTABLE_NFS)),
		  false },
		{ "Bounce", K(mm, global_page_state(mm, NR_BOUNCE)), false },
		{ "WritebackTmp", K(mm, global_page_state(mm, NR_WRITEBACK_TEMP)), false },
		{ "CommitLimit", K(mm, totalram * SYSCTL_OVERCOMMIT_RATIO / 100 + swap_pages), false },
		{ "Committed_AS", 0, false },
		{ "VmallocTotal", 0, false },
		{ "VmallocUsed", 0, false },
		{ "VmallocChunk", 0, false },
		{ "Percpu", 0, !mm->kernel.proc_v6 },
		/* later kernels (v4.1+) */
		{ "CmaTotal", K(mm, cma_total_pages(mm)), false },
		{ "CmaFree", K(mm, global_page_state(mm, NR_FREE_CMA_PAGES)), false },
	};

	meminfo_print(mm, out, head, sizeof(head) / sizeof(head[0]));
	if (mm->zones[ZONE_HIGHMEM].present_pages)
		meminfo_print_highmem(mm, out, totalram, freeram);
	meminfo_print(mm, out, tail, sizeof(tail) / sizeof(tail[0]));
	return 0;
}

/* ---- /proc/zoneinfo: zoneinfo_show_print() ---- */

/*
 * The zone's anon inactive ratio, up to 4.7: 4.7 (kernel.inactive_ratio_lru)
 * no longer computes it and prints the field's 0; 4.8
 * (kernel.zoneinfo_node_lru) moved it to the node's lines.
 */
static void zoneinfo_inactive_ratio(struct cma_mm *mm, struct zone *zone, FILE *out)
{
	if (mm->kernel.zoneinfo_node_lru)
		return;
	fprintf(out, "\n  inactive_ratio:    %u",
		mm->kernel.inactive_ratio_lru ? 0 : (unsigned)zone_inactive_ratio(zone));
}

static void zoneinfo_show_print(struct cma_mm *mm, struct zone *zone, FILE *out)
{
	struct zone_marks zm;

	zone_marks_snapshot(zone, &zm);
	fprintf(out, "Node %d, zone %8s", 0, zone->name);
	fprintf(out,
		"\n  pages free     %lu"
		"\n        min      %lu"
		"\n        low      %lu"
		"\n        high     %lu"
		"\n        scanned  %lu"
		"\n        spanned  %lu"
		"\n        present  %lu"
		"\n        managed  %lu",	/* 3.8+; above present by the memmap before 3.9 */
		zone_page_state(zone, NR_FREE_PAGES), zm.min, zm.low, zm.high,
		atomic_load_explicit(&zone->pages_scanned, memory_order_relaxed),
		zone->spanned_pages, zone->present_pages, zone->managed_pages);
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
		fprintf(out, "\n    %-12s %lu", vmstat_zone_item_names[i], zone_page_state(zone, i));
		if (i == NR_FREE_PAGES && alloc_flags_fair(mm))
			fprintf(out, "\n    %-12s %lu", "nr_alloc_batch", nr_alloc_batch(mm, zone));
	}
	fprintf(out, "\n        protection: (%lu", zm.lowmem_reserve[0]);
	for (int i = 1; i < MAX_NR_ZONES; i++)
		fprintf(out, ", %lu", zm.lowmem_reserve[i]);
	fputc(')', out);
	zoneinfo_pagesets(mm, zone, out);
	fprintf(out,
		"\n  all_unreclaimable: %u"
		"\n  start_pfn:         %lu",
		(unsigned)zone_given_up(zone),
		zone->zone_start_pfn);
	zoneinfo_inactive_ratio(mm, zone, out);
	fputc('\n', out);
}

static int show_zoneinfo(struct cma_mm *mm, FILE *out)
{
	struct zone *zone;

	if (mm->kernel.proc_v6)
		return show_zoneinfo_v6(mm, out);
	for_each_populated_zone(mm, zone)
		zoneinfo_show_print(mm, zone, out);
	return 0;
}

/* ---- per-area CMA statistics ---- */

/* The per-area statistics of later kernels (mm/cma.c writes them). */
static int write_cma_areas(struct cma_mm *mm, FILE *out)
{
	cma_write_areas(mm, out);
	return 0;
}

/* ---- the file table ---- */

static const struct {
	const char *name;
	int (*show)(struct cma_mm *mm, FILE *out);
} proc_files[] = {
	{ "buddyinfo", show_buddyinfo },
	{ "pagetypeinfo", show_pagetypeinfo },
	{ "vmstat", show_vmstat },
	{ "meminfo", show_meminfo },
	{ "zoneinfo", show_zoneinfo },
	{ "cma", write_cma_areas },
};

#define NR_PROC_FILES (sizeof(proc_files) / sizeof(proc_files[0]))

static void report_unknown(struct cma_mm *mm, const char *name)
{
	char accepted[128];
	size_t n = 0;

	accepted[0] = '\0';
	for (size_t i = 0; i < NR_PROC_FILES && n < sizeof(accepted); i++)
		n += snprintf(accepted + n, sizeof(accepted) - n, "%s%s", i ? ", " : "",
			      proc_files[i].name);
	cma_mm_pr_err(mm, "cma_write_proc: no /proc file '%s': accepted %s%s\n", name, accepted,
		  mm->kernel.cma_stats ? ", sys/kernel/mm/cma/AREA/FILE, debug/cma/AREA/FILE" : "");
}

/**
 * cma_write_proc() - the kernel's /proc/@name (mm/vmstat.c, fs/proc/meminfo.c)
 * written to @out. -EINVAL for a machine not booted or a NULL argument,
 * -ENOENT for an unknown @name, -EIO if @out reports a write error.
 */
int cma_write_proc(struct cma_mm *mm, const char *name, FILE *out)
{
	int ret;

	if (!name || !out) {
		cma_mm_pr_err(mm, "cma_write_proc: NULL %s\n", name ? "stream" : "name");
		return -EINVAL;
	}
	for (size_t i = 0; i < NR_PROC_FILES; i++) {
		if (strcmp(name, proc_files[i].name))
			continue;
		ret = mm_require_phase(mm, MM_BOOTED, "cma_write_proc");
		if (ret)
			return ret;
		ret = proc_files[i].show(mm, out);
		if (!ret && ferror(out))
			ret = -EIO;
		return ret;
	}
	/* the areas' sysfs and debugfs files, since 4.0 and 5.13 */
	if (mm->kernel.cma_stats) {
		ret = cma_write_area_file(mm, name, out);
		if (ret <= 0)
			return !ret && ferror(out) ? -EIO : ret;
	}
	report_unknown(mm, name);
	return -ENOENT;
}
