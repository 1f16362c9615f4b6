// SPDX-License-Identifier: GPL-2.0
/*
 * cma_write_proc(): the v3.5 /proc files, golden. Every expected line is
 * built here with the kernel's own format string (mm/vmstat.c,
 * fs/proc/meminfo.c) from the machine's state, and compared whole, so a
 * change of one column width fails; header lines are literal strings.
 * Those tests name the 3.5 profile: the 6.12 layout (proc_v6) is checked
 * against a 6.x kernel's own files in tests/proc-6.x/ (the proc_v6_*
 * tests), under both profiles. zoneinfo, whose every line is a number,
 * is a golden file per profile (tests/golden/zoneinfo-K.txt;
 * CMA_UPDATE_GOLDEN=1 rewrites them, CMA_GOLDEN_DIR moves them).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mm/internal.h"
#include "helpers.h"
#include "owners.h"

/* The machine of every test: 256 MiB at 0, ZONE_DMA below 16 MiB, no DMA32. */
#define RAM_SIZE	(256 * MiB)
#define DMA_END		(16 * MiB)

/* A growing string the expected text is built in. */
struct text {
	char *buf;
	size_t len;
	FILE *f;
};

static void text_open(struct text *t)
{
	t->buf = NULL;
	t->len = 0;
	t->f = open_memstream(&t->buf, &t->len);
	assert_non_null(t->f);
}

static char *text_close(struct text *t)
{
	assert_int_equal(fclose(t->f), 0);
	return t->buf;
}

/* Line @n (from 0) of @s, without its newline, in @line; false past the end. */
static bool nth_line(const char *s, unsigned n, char *line, size_t size)
{
	const char *end;

	for (; n; n--) {
		s = strchr(s, '\n');
		if (!s)
			return false;
		s++;
	}
	if (!*s)
		return false;
	end = strchrnul(s, '\n');
	assert_true((size_t)(end - s) < size);
	memcpy(line, s, end - s);
	line[end - s] = '\0';
	return true;
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The line of @s that starts with @prefix, or NULL. */
static const char *find_line(const char *s, const char *prefix)
{
	size_t len = strlen(prefix);

	for (; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		if (!strncmp(s, prefix, len))
			return s;
	return NULL;
}

static unsigned long kb(struct cma_mm *mm, unsigned long pages)
{
	return pages << (mm->page_shift - 10);
}

static unsigned long blocks_in(struct cma_mm *mm, uint64_t bytes)
{
	return (unsigned long)(bytes >> mm->page_shift) / mm->pageblock_nr_pages;
}

static unsigned nr_populated(struct cma_mm *mm)
{
	unsigned n = 0;
	struct zone *z;

	for_each_populated_zone(mm, z)
		n++;
	return n;
}

/* ---- buddyinfo ---- */

static char *expected_buddyinfo(struct cma_mm *mm)
{
	struct text t;
	struct zone *z;

	text_open(&t);
	for_each_populated_zone(mm, z) {
		fprintf(t.f, "Node %d, zone %8s ", 0, z->name);
		for (unsigned o = 0; o < mm->max_order; o++)
			fprintf(t.f, "%6lu ", z->free_area[o].nr_free);
		fputc('\n', t.f);
	}
	return text_close(&t);
}

/*
 * Expect: one line per populated zone (DMA, Normal), "%6lu " per order;
 * the Normal line is 13 + 8 + 1 + 7 * max_order bytes. An order-3
 * allocation splits a block and the counts follow.
 */
static void buddyinfo_lines_match_free_areas(void **state)
{
	struct cma_mm *mm = test_mm(.size = RAM_SIZE, .dma_end = DMA_END);
	char *before = test_proc_read(mm, "buddyinfo"), *after, *want = expected_buddyinfo(mm);
	char line[512];
	const char *normal;
	struct cma_page *page;

	assert_string_equal(before, want);
	assert_int_equal(count_lines(before), 2);
	assert_int_equal(nr_populated(mm), 2);
	normal = find_line(before, "Node 0, zone   Normal ");
	assert_non_null(normal);
	assert_true(nth_line(normal, 0, line, sizeof(line)));
	assert_int_equal(strlen(line), 13 + 8 + 1 + 7 * mm->max_order);
	assert_null(find_line(before, "Node 0, zone    DMA32 "));
	free(want);

	page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 3);
	assert_non_null(page);
	after = test_proc_read(mm, "buddyinfo");
	want = expected_buddyinfo(mm);
	assert_string_equal(after, want);
	assert_string_not_equal(after, before);
	cma_free_pages(mm, page, 3);
	free(want);
	free(after);
	free(before);
	cma_mm_destroy(mm);
}

/* ---- pagetypeinfo ---- */

/* Expect: the v3.5 header lines, byte for byte, for max_order 11 and 4 MiB blocks. */
static void pagetypeinfo_header_lines_are_exact(void **state)
{
	struct cma_mm *mm = test_mm(.kernel = "3.5", .size = RAM_SIZE, .dma_end = DMA_END);
	char *s = test_proc_read(mm, "pagetypeinfo");
	unsigned zones = nr_populated(mm), free_hdr = 3, block_hdr = 3 + 1 + zones * MIGRATE_TYPES + 1;
	char line[512];

	assert_int_equal(mm->max_order, 11);
	assert_int_equal(mm->pageblock_order, 10);
	assert_true(nth_line(s, 0, line, sizeof(line)));
	assert_string_equal(line, "Page block order: 10");
	assert_true(nth_line(s, 1, line, sizeof(line)));
	assert_string_equal(line, "Pages per block:  1024");
	assert_true(nth_line(s, 2, line, sizeof(line)));
	assert_string_equal(line, "");
	assert_true(nth_line(s, free_hdr, line, sizeof(line)));
	assert_string_equal(line, "Free pages count per migrate type at order       0      1      2"
				  "      3      4      5      6      7      8      9     10 ");
	assert_true(nth_line(s, block_hdr - 1, line, sizeof(line)));
	assert_string_equal(line, "");
	assert_true(nth_line(s, block_hdr, line, sizeof(line)));
	assert_string_equal(line, "Number of blocks type     Unmovable  Reclaimable      Movable"
				  "      Reserve          CMA      Isolate ");
	assert_int_equal(count_lines(s), block_hdr + 1 + zones);
	free(s);
	cma_mm_destroy(mm);
}

/*
 * The free-count lines of @s: each "Node %4d, zone %8s, type %12s " and
 * "%6lu " per order; the counts of all types at one order must add up
 * to free_area[order].nr_free.
 */
static void check_free_counts(struct cma_mm *mm, const char *s)
{
	unsigned n = 4;
	struct zone *z;

	for_each_populated_zone(mm, z) {
		unsigned long sum[MAX_ORDER_LIMIT] = { 0 };

		for (int t = 0; t < MIGRATE_TYPES; t++, n++) {
			char line[512], prefix[64];
			const char *p;

			assert_true(nth_line(s, n, line, sizeof(line)));
			snprintf(prefix, sizeof(prefix), "Node %4d, zone %8s, type %12s ", 0, z->name,
				 migratetype_name(t));
			assert_memory_equal(line, prefix, strlen(prefix));
			assert_int_equal(strlen(line), strlen(prefix) + 7 * mm->max_order);
			p = line + strlen(prefix);
			for (unsigned o = 0; o < mm->max_order; o++, p += 7) {
				char field[8];

				snprintf(field, sizeof(field), "%6lu ", strtoul(p, NULL, 10));
				assert_memory_equal(p, field, 7);
				sum[o] += strtoul(p, NULL, 10);
			}
		}
		for (unsigned o = 0; o < mm->max_order; o++)
			assert_int_equal(sum[o], z->free_area[o].nr_free);
	}
}

/*
 * Expect: per zone and type, blocks per order; the types add up to
 * nr_free, before and after an allocation.
 */
static void pagetypeinfo_free_counts_add_up_to_nr_free(void **state)
{
	struct cma_mm *mm = test_mm(.kernel = "3.5", .size = RAM_SIZE, .dma_end = DMA_END);
	char *before = test_proc_read(mm, "pagetypeinfo"), *after;
	struct cma_page *page;

	check_free_counts(mm, before);
	page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 3);
	assert_non_null(page);
	after = test_proc_read(mm, "pagetypeinfo");
	check_free_counts(mm, after);
	assert_string_not_equal(after, before);
	cma_free_pages(mm, page, 3);
	free(after);
	free(before);
	cma_mm_destroy(mm);
}

/*
 * The block-count lines of @s ("Node %d, zone %8s " and "%12lu " per type):
 * the counts by type, summed over zones, in @total; the per-zone sums in @zone_sum.
 */
static void parse_block_counts(struct cma_mm *mm, const char *s, unsigned long total[MIGRATE_TYPES],
			       unsigned long zone_sum[MAX_NR_ZONES])
{
	unsigned n = 3 + 1 + nr_populated(mm) * MIGRATE_TYPES + 2;
	struct zone *z;

	memset(total, 0, MIGRATE_TYPES * sizeof(total[0]));
	memset(zone_sum, 0, MAX_NR_ZONES * sizeof(zone_sum[0]));
	for_each_populated_zone(mm, z) {
		char line[512], prefix[64];
		const char *p;

		assert_true(nth_line(s, n++, line, sizeof(line)));
		snprintf(prefix, sizeof(prefix), "Node %d, zone %8s ", 0, z->name);
		assert_memory_equal(line, prefix, strlen(prefix));
		assert_int_equal(strlen(line), strlen(prefix) + 13 * MIGRATE_TYPES);
		p = line + strlen(prefix);
		for (int t = 0; t < MIGRATE_TYPES; t++, p += 13) {
			unsigned long v = strtoul(p, NULL, 10);
			char field[16];

			snprintf(field, sizeof(field), "%12lu ", v);
			assert_memory_equal(p, field, 13);
			total[t] += v;
			zone_sum[z->idx] += v;
		}
	}
}

/* Expect: 64 blocks of 4 MiB: 4 in DMA, 60 in Normal; none CMA or isolated. */
static void pagetypeinfo_block_counts_cover_every_pageblock(void **state)
{
	struct cma_mm *mm = test_mm(.kernel = "3.5", .size = RAM_SIZE, .dma_end = DMA_END);
	char *s = test_proc_read(mm, "pagetypeinfo");
	unsigned long total[MIGRATE_TYPES], zone_sum[MAX_NR_ZONES], sum = 0;

	parse_block_counts(mm, s, total, zone_sum);
	for (int t = 0; t < MIGRATE_TYPES; t++)
		sum += total[t];
	assert_int_equal(sum, blocks_in(mm, RAM_SIZE));
	assert_int_equal(zone_sum[ZONE_DMA], blocks_in(mm, DMA_END));
	assert_int_equal(zone_sum[ZONE_NORMAL], blocks_in(mm, RAM_SIZE - DMA_END));
	assert_int_equal(total[MIGRATE_CMA], 0);
	assert_int_equal(total[MIGRATE_ISOLATE], 0);
	/* RESERVE blocks at boot in v3.5; 4.4's HIGHATOMIC ones only on demand */
	assert_int_equal(total[MIGRATE_RESERVE] > 0, !mm->kernel.highatomic);
	free(s);
	cma_mm_destroy(mm);
}

/*
 * Expect: with a 64 MiB hole between two banks, the hole's pageblocks
 * (pfn_valid false) are not counted: 48 blocks, not the 64 spanned.
 *
 *   0      16M            128M      192M       256M
 *   |  DMA  |    Normal     |  hole  |  Normal  |
 */
static void pagetypeinfo_block_counts_skip_holes(void **state)
{
	struct cma_bank banks[] = { { 0, 128 * MiB }, { 192 * MiB, 64 * MiB } };
	struct cma_mm_config cfg = { .kernel = "3.5", .banks = banks, .nr_banks = 2, .zone_dma_end = DMA_END };
	struct cma_mm *mm = test_boot(&cfg);
	char *s = test_proc_read(mm, "pagetypeinfo");
	unsigned long total[MIGRATE_TYPES], zone_sum[MAX_NR_ZONES];

	parse_block_counts(mm, s, total, zone_sum);
	assert_int_equal(zone_sum[ZONE_DMA], blocks_in(mm, DMA_END));
	assert_int_equal(zone_sum[ZONE_NORMAL], blocks_in(mm, 128 * MiB - DMA_END + 64 * MiB));
	check_free_counts(mm, s);
	free(s);
	cma_mm_destroy(mm);
}

/* ---- meminfo ---- */

/* v3.5's meminfo_proc_show() order, then CmaTotal/CmaFree of later kernels. */
static const char *const meminfo_labels[] = {
	"MemTotal", "MemFree", "Buffers", "Cached", "SwapCached", "Active", "Inactive",
	"Active(anon)", "Inactive(anon)", "Active(file)", "Inactive(file)", "Unevictable",
	"Mlocked", "SwapTotal", "SwapFree", "Dirty", "Writeback", "AnonPages", "Mapped", "Shmem",
	"Slab", "SReclaimable", "SUnreclaim", "KernelStack", "PageTables", "NFS_Unstable",
	"Bounce", "WritebackTmp", "CommitLimit", "Committed_AS", "VmallocTotal", "VmallocUsed",
	"VmallocChunk", "CmaTotal", "CmaFree",
};
#define NR_MEMINFO_LABELS (sizeof(meminfo_labels) / sizeof(meminfo_labels[0]))

/* The value of @label in @s, checking the line is "%-16s%8lu kB" with the colon. */
static unsigned long meminfo_value(const char *s, const char *label)
{
	char prefix[32], line[128], want[128];
	const char *p;
	unsigned long v;

	snprintf(prefix, sizeof(prefix), "%s:", label);
	p = find_line(s, prefix);
	if (!p)
		fail_msg("meminfo: expected a '%s' line, found none", prefix);
	assert_true(nth_line(p, 0, line, sizeof(line)));
	assert_int_equal(sscanf(line + 16, "%lu", &v), 1);
	snprintf(want, sizeof(want), "%-16s%8lu kB", prefix, v);
	assert_string_equal(line, want);
	return v;
}

/* The labels of @s in order, checked against @labels. */
static void check_meminfo_labels(const char *s, const char *const *labels, unsigned n)
{
	assert_int_equal(count_lines(s), n);
	for (unsigned i = 0; i < n; i++) {
		char line[128], prefix[32];

		assert_true(nth_line(s, i, line, sizeof(line)));
		snprintf(prefix, sizeof(prefix), "%s:", labels[i]);
		assert_memory_equal(line, prefix, strlen(prefix));
		(void)meminfo_value(s, labels[i]);
	}
}

/*
 * Expect: the v3.5 lines in order, 27 bytes each here; MemTotal is
 * totalram_pages, MemFree NR_FREE_PAGES, no CMA and no highmem lines. An
 * order-3 allocation lowers MemFree to the counter's new value.
 */
static void meminfo_lines_follow_the_counters(void **state)
{
	struct cma_mm *mm = test_mm(.kernel = "3.5", .size = RAM_SIZE, .dma_end = DMA_END);
	char *before = test_proc_read(mm, "meminfo"), *after;
	unsigned long free_before = meminfo_value(before, "MemFree");
	struct cma_page *page;

	check_meminfo_labels(before, meminfo_labels, NR_MEMINFO_LABELS);
	assert_int_equal(meminfo_value(before, "MemTotal"), kb(mm, mm->totalram_pages));
	assert_int_equal(free_before, kb(mm, global_page_state(mm, NR_FREE_PAGES)));
	assert_int_equal(meminfo_value(before, "CommitLimit"), kb(mm, mm->totalram_pages / 2));
	assert_int_equal(meminfo_value(before, "CmaTotal"), 0);
	assert_int_equal(meminfo_value(before, "CmaFree"), 0);
	assert_null(find_line(before, "HighTotal:"));

	page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 3);
	assert_non_null(page);
	after = test_proc_read(mm, "meminfo");
	assert_int_equal(meminfo_value(after, "MemTotal"), kb(mm, mm->totalram_pages));
	assert_int_equal(meminfo_value(after, "MemFree"), kb(mm, global_page_state(mm, NR_FREE_PAGES)));
	assert_true(meminfo_value(after, "MemFree") <= free_before - kb(mm, 8));
	cma_free_pages(mm, page, 3);
	free(after);
	free(before);
	cma_mm_destroy(mm);
}

/*
 * Expect: with 64 MiB of swap, none of it used, SwapTotal and SwapFree are
 * 65536 kB and CommitLimit is half of RAM plus the swap (overcommit_ratio 50).
 */
static void meminfo_swap_lines_follow_swap_config(void **state)
{
	struct cma_bank bank = { 0, RAM_SIZE };
	struct cma_mm_config cfg = { .kernel = "3.5", .banks = &bank, .nr_banks = 1, .zone_dma_end = DMA_END,
				     .swap_bytes = 64 * MiB };
	struct cma_mm *mm = test_boot(&cfg);
	char *s = test_proc_read(mm, "meminfo");

	check_meminfo_labels(s, meminfo_labels, NR_MEMINFO_LABELS);
	assert_int_equal(meminfo_value(s, "SwapTotal"), 65536);
	assert_int_equal(meminfo_value(s, "SwapFree"), 65536);
	assert_int_equal(meminfo_value(s, "CommitLimit"),
			 kb(mm, mm->totalram_pages / 2 + (64 * MiB >> mm->page_shift)));
	free(s);
	cma_mm_destroy(mm);
}

/*
 * Expect: with 8 MiB at 64 MiB handed over as MIGRATE_CMA, CmaTotal is
 * 8192 kB, CmaFree the NR_FREE_CMA_PAGES counter, and pagetypeinfo
 * counts 8 MiB / block size CMA blocks.
 */
static void meminfo_cma_lines_count_cma_pageblocks(void **state)
{
	const uint64_t cma_base = 64 * MiB, cma_size = 8 * MiB;
	struct cma_mm *mm = test_mm(.kernel = "3.5", .size = RAM_SIZE, .dma_end = DMA_END,
				    .cma_base = cma_base, .cma_size = cma_size);
	char *mi = test_proc_read(mm, "meminfo"), *pti = test_proc_read(mm, "pagetypeinfo");
	unsigned long total[MIGRATE_TYPES], zone_sum[MAX_NR_ZONES], sum = 0;

	assert_int_equal(meminfo_value(mi, "CmaTotal"), 8192);
	assert_int_equal(meminfo_value(mi, "CmaTotal"), kb(mm, cma_size >> mm->page_shift));
	assert_int_equal(meminfo_value(mi, "CmaFree"), kb(mm, global_page_state(mm, NR_FREE_CMA_PAGES)));
	assert_true(meminfo_value(mi, "CmaFree") > 0);
	parse_block_counts(mm, pti, total, zone_sum);
	assert_int_equal(total[MIGRATE_CMA], blocks_in(mm, cma_size));
	for (int t = 0; t < MIGRATE_TYPES; t++)
		sum += total[t];
	assert_int_equal(sum, blocks_in(mm, RAM_SIZE));
	check_free_counts(mm, pti);
	free(pti);
	free(mi);
	cma_mm_destroy(mm);
}

/*
 * Expect: with ZONE_HIGHMEM above 128 MiB, HighTotal/HighFree/LowTotal/
 * LowFree follow Mlocked; HighTotal is what highmem gave the allocator
 * and Low* are the rest.
 */
static void meminfo_highmem_lines_only_with_highmem(void **state)
{
	struct cma_bank bank = { 0, RAM_SIZE };
	struct cma_mm_config cfg = { .kernel = "3.5", .banks = &bank, .nr_banks = 1, .zone_dma_end = DMA_END,
				     .highmem_start = 128 * MiB };
	struct cma_mm *mm = test_boot(&cfg);
	struct zone *high = &mm->zones[ZONE_HIGHMEM];
	const char *labels[NR_MEMINFO_LABELS + 4];
	unsigned n = 0;
	char *s;

	assert_true(high->present_pages > 0);
	for (unsigned i = 0; i < NR_MEMINFO_LABELS; i++) {
		labels[n++] = meminfo_labels[i];
		if (!strcmp(meminfo_labels[i], "Mlocked")) {
			labels[n++] = "HighTotal";
			labels[n++] = "HighFree";
			labels[n++] = "LowTotal";
			labels[n++] = "LowFree";
		}
	}
	s = test_proc_read(mm, "meminfo");
	check_meminfo_labels(s, labels, n);
	assert_int_equal(meminfo_value(s, "HighTotal"), kb(mm, high->managed_pages));
	assert_int_equal(meminfo_value(s, "HighFree"), kb(mm, zone_page_state(high, NR_FREE_PAGES)));
	assert_int_equal(meminfo_value(s, "LowTotal") + meminfo_value(s, "HighTotal"),
			 meminfo_value(s, "MemTotal"));
	assert_int_equal(meminfo_value(s, "LowFree") + meminfo_value(s, "HighFree"),
			 meminfo_value(s, "MemFree"));
	free(s);
	cma_mm_destroy(mm);
}

/* ---- vmstat ---- */

/*
 * v3.5's global_dirty_limits at the default vm.dirty_ratio (20): a fifth
 * of the lowmem zones' free pages and LRU pages (anonymous ones only with
 * swap room), less the zones' reserves as far as they go, plus one; from
 * 3.14 the reserves come off the free pages and only file pages count.
 * The background threshold is half of it (dirty_background_ratio 10).
 */
static unsigned long expected_dirty_threshold(struct cma_mm *mm)
{
	bool file_only = cma_kernel_has(cma_mm_kernel(mm), "dirtyable_file_only") == 1;
	bool anon = !file_only && swap_room(mm, mm->page_size);
	unsigned long free = 0, lru = 0, reserve = mm->totalreserve_pages;
	struct zone *z;

	for_each_populated_zone(mm, z) {
		if (is_highmem(z))
			continue;
		free += zone_page_state(z, NR_FREE_PAGES);
		lru += zone_page_state(z, NR_INACTIVE_FILE) + zone_page_state(z, NR_ACTIVE_FILE);
		if (anon)
			lru += zone_page_state(z, NR_INACTIVE_ANON) + zone_page_state(z, NR_ACTIVE_ANON);
	}
	if (!file_only) {
		free += lru;
		lru = 0;
	}
	free -= free < reserve ? free : reserve;
	return (free + lru + 1) * 20 / 100;
}

static void check_vmstat(struct cma_mm *mm, const char *s)
{
	enum vm_event_item items[NR_VM_EVENT_ITEMS];
	unsigned n = 0, nr_events = vmstat_shown_events(mm, items);
	/* 3.15's workingset_refault and workingset_activate, before nr_anon_transparent_hugepages */
	unsigned nr_workingset = mm->kernel.workingset ? 2 : 0;

	assert_int_equal(count_lines(s), NR_VM_ZONE_STAT_ITEMS + nr_workingset + 2 + nr_events);
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++, n++) {
		char line[128], want[128];

		for (unsigned w = 0; i == NR_ANON_TRANSPARENT_HUGEPAGES && w < nr_workingset; w++, n++) {
			assert_true(nth_line(s, n, line, sizeof(line)));
			snprintf(want, sizeof(want), "%s %llu", vmstat_event_names[WORKINGSET_REFAULT + w],
				 (unsigned long long)vm_event_sum(mm, WORKINGSET_REFAULT + w));
			assert_string_equal(line, want);
		}
		assert_true(nth_line(s, n, line, sizeof(line)));
		snprintf(want, sizeof(want), "%s %lu", vmstat_zone_item_names[i], global_page_state(mm, i));
		assert_string_equal(line, want);
	}
	{
		char line[128], want[128];
		unsigned long dirty = expected_dirty_threshold(mm);

		assert_true(nth_line(s, n++, line, sizeof(line)));
		snprintf(want, sizeof(want), "nr_dirty_threshold %lu", dirty);
		assert_string_equal(line, want);
		assert_true(nth_line(s, n++, line, sizeof(line)));
		snprintf(want, sizeof(want), "nr_dirty_background_threshold %lu", dirty / 2);
		assert_string_equal(line, want);
	}
	for (unsigned i = 0; i < nr_events; i++, n++) {
		char line[128], want[128];
		/* vmstat_start(): sectors read and written are shown in kB */
		unsigned shift = items[i] == PGPGIN || items[i] == PGPGOUT;

		assert_true(nth_line(s, n, line, sizeof(line)));
		snprintf(want, sizeof(want), "%s %llu", vmstat_event_names[items[i]],
			 (unsigned long long)vm_event_sum(mm, items[i]) >> shift);
		assert_string_equal(line, want);
	}
}

/* Each name exactly once: no name is a line of the file twice. */
static void check_vmstat_names_unique(const char *s)
{
	char line[128], other[128];

	for (unsigned i = 0; nth_line(s, i, line, sizeof(line)); i++) {
		*strchr(line, ' ') = '\0';
		for (unsigned j = i + 1; nth_line(s, j, other, sizeof(other)); j++) {
			*strchr(other, ' ') = '\0';
			if (!strcmp(line, other))
				fail_msg("vmstat: '%s' on lines %u and %u, expected once", line, i, j);
		}
	}
}

/*
 * Expect: the zone items, the two dirty thresholds, then the events, each
 * "name value" once in enum order; an order-3 allocation shows in
 * nr_free_pages and pgalloc_normal.
 */
static void vmstat_names_once_in_kernel_order(void **state)
{
	struct cma_mm *mm = test_mm(.kernel = "3.5", .size = RAM_SIZE, .dma_end = DMA_END);
	char *before = test_proc_read(mm, "vmstat"), *after, line[128];
	uint64_t allocs = vm_event_sum(mm, PGALLOC_NORMAL);
	struct cma_page *page;

	check_vmstat(mm, before);
	check_vmstat_names_unique(before);
	assert_true(nth_line(before, 0, line, sizeof(line)));
	assert_memory_equal(line, "nr_free_pages ", 14);
	assert_true(nth_line(before, NR_VM_ZONE_STAT_ITEMS + 2, line, sizeof(line)));
	assert_memory_equal(line, "pgpgin ", 7);

	page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 3);
	assert_non_null(page);
	after = test_proc_read(mm, "vmstat");
	check_vmstat(mm, after);
	assert_int_equal(vm_event_sum(mm, PGALLOC_NORMAL), allocs + 8);
	assert_string_not_equal(after, before);
	cma_free_pages(mm, page, 3);
	free(after);
	free(before);
	cma_mm_destroy(mm);
}

/*
 * Expect (vmstat_text of v3.5, 3.8 and 5.13): the pre-6.0 layout's
 * events by release. v3.5 has compact_blocks_moved, _pages_moved and
 * _pagemigrate_failed after pgrotated and no cma_alloc_* line; 3.7 the
 * same; 3.8 has pgmigrate_success, pgmigrate_fail,
 * compact_migrate_scanned, _free_scanned and _isolated there instead;
 * cma_alloc_success and cma_alloc_fail come with 5.13 ("mm: vmstat: add
 * cma statistics").
 */
static void vmstat_event_lines_by_release(void **state)
{
	static const char *const v3_8[] = {
		"pgrotated", "pgmigrate_success", "pgmigrate_fail", "compact_migrate_scanned",
		"compact_free_scanned", "compact_isolated", "compact_stall",
	};
	static const struct { const char *kernel; bool v3_8, cma; } rows[] = {
		{ "3.5", false, false }, { "3.7", false, false }, { "3.8", true, false },
		{ "4.14", true, false }, { "5.12", true, false }, { "5.13", true, true },
	};

	for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct cma_mm *mm = test_mm(.kernel = rows[r].kernel, .size = RAM_SIZE,
					    .dma_end = DMA_END);
		char *s = test_proc_read(mm, "vmstat");
		const char *at = find_line(s, "pgrotated ");

		check_vmstat(mm, s);
		check_vmstat_names_unique(s);
		assert_non_null(at);
		if (rows[r].v3_8) {
			for (unsigned i = 0; i < sizeof(v3_8) / sizeof(v3_8[0]); i++) {
				size_t len = strlen(v3_8[i]);

				if (strncmp(at, v3_8[i], len) || at[len] != ' ')
					fail_msg("vmstat of %s: expected '%s' next, found '%.40s'",
						 rows[r].kernel, v3_8[i], at);
				at = strchr(at, '\n') + 1;
			}
		}
		assert_int_equal(find_line(s, "compact_blocks_moved ") != NULL, !rows[r].v3_8);
		assert_int_equal(find_line(s, "compact_pagemigrate_failed ") != NULL, !rows[r].v3_8);
		assert_int_equal(find_line(s, "cma_alloc_success ") != NULL, rows[r].cma);
		assert_int_equal(find_line(s, "cma_alloc_fail ") != NULL, rows[r].cma);
		free(s);
		cma_mm_destroy(mm);
	}
}

static uint64_t vmstat_value(const char *s, const char *name)
{
	char prefix[64];
	const char *line;

	snprintf(prefix, sizeof(prefix), "%s ", name);
	line = find_line(s, prefix);
	if (!line)
		fail_msg("vmstat: expected a line '%s N', found none", name);
	return strtoull(line + strlen(prefix), NULL, 10);
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/* @n LRU pages of @o, every other one released, then compact_memory: migrations to count. */
static void compact_every_other_page(struct cma_mm *mm, struct fake_owner *o, uint64_t n)
{
	assert_non_null(o);
	for (uint64_t i = 0; i < n; i++)
		assert_non_null(owner_fault(o, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1));
	for (uint64_t i = 0; i < n; i += 2)
		owner_release(o, i);
	lru_add_drain_all(mm);
	assert_int_equal(cma_compact_memory(mm), 0);
}

/*
 * Expect v3.5's compaction lines after pgrotated (vmstat_text):
 * compact_blocks_moved, compact_pages_moved, compact_pagemigrate_failed,
 * compact_stall, compact_fail, compact_success, counted as v3.5's
 * compact_zone() counts them: a block per batch the migrate scanner took
 * (even an empty one), moved = pages that left the batch. No line of
 * 3.8's pgmigrate_* and compact_{migrate,free}_scanned, compact_isolated;
 * cma_mm_counter() still answers those names (the simulator's cost model
 * reads them). Here the pages are LRU pages of every other pfn; compact_
 * memory moves them up until the free scanner runs dry, so the last
 * batch, at most COMPACT_CLUSTER_MAX pages, may find no target and count
 * as failed (compact_zone's -ENOMEM).
 */
static void vmstat_compaction_lines_of_v3_5(void **state)
{
	static const char *const later[] = {
		"pgmigrate_success ", "pgmigrate_fail ", "compact_migrate_scanned ",
		"compact_free_scanned ", "compact_isolated ",
	};
	static const char *const v3_5[] = {
		"pgrotated", "compact_blocks_moved", "compact_pages_moved",
		"compact_pagemigrate_failed", "compact_stall", "compact_fail", "compact_success",
	};
	struct cma_mm *mm = test_mm(.kernel = "3.5", .size = RAM_SIZE, .dma_end = DMA_END);
	struct fake_owner *o = owner_create(mm, false, 4096);
	const char *at;
	char *s;

	compact_every_other_page(mm, o, 4096);
	assert_true(o->migrated > 0);
	s = test_proc_read(mm, "vmstat");
	check_vmstat(mm, s);
	at = find_line(s, "pgrotated ");
	assert_non_null(at);
	for (unsigned i = 0; i < sizeof(v3_5) / sizeof(v3_5[0]); i++) {
		size_t len = strlen(v3_5[i]);

		if (strncmp(at, v3_5[i], len) || at[len] != ' ')
			fail_msg("vmstat: expected '%s' on the line after the last, found '%.40s'", v3_5[i], at);
		at = strchr(at, '\n') + 1;
	}
	for (unsigned i = 0; i < sizeof(later) / sizeof(later[0]); i++)
		if (find_line(s, later[i]))
			fail_msg("vmstat: expected no '%s' line (3.8), found one", later[i]);
	assert_true(vmstat_value(s, "compact_blocks_moved") > 0);
	assert_int_equal(vmstat_value(s, "compact_pages_moved"), o->migrated);
	assert_true(vmstat_value(s, "compact_pagemigrate_failed") <= COMPACT_CLUSTER_MAX);
	assert_int_equal(counter(mm, "compact_pages_moved"), o->migrated);
	assert_int_equal(counter(mm, "pgmigrate_success"), o->migrated);
	assert_true(counter(mm, "compact_isolated") >= o->migrated);
	assert_true(counter(mm, "compact_migrate_scanned") > 0);
	free(s);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- zoneinfo ---- */

/* The profiles whose zoneinfo is golden: v3.5's layout (with v3.11's "managed" line) and 6.x's. */
static const char *const zoneinfo_kernels[] = { "3.5", "6.12" };

/* "@prefix@value" is a line of @zone's block in @text. */
static void expect_zone_line(const char *text, const char *zone, const char *prefix,
			     unsigned long value)
{
	const char *block = find_line(text, zone), *end;
	char line[128];

	assert_non_null(block);
	end = strstr(block + 1, "\nNode ");
	snprintf(line, sizeof(line), "\n%s%lu\n", prefix, value);
	if (!strstr(block, line) || (end && strstr(block, line) > end))
		fail_msg("%s: expected the line \"%s%lu\" in:\n%s", zone, prefix, value, text);
}

/*
 * Expect: per populated zone, the profile's zoneinfo_show_print() block
 * with two CPUs' pagesets, byte for byte tests/golden/zoneinfo-K.txt:
 * the file read at boot, then read again after an order-0 allocation
 * filled CPU 0's pcp list. A text built here with proc.c's own format
 * strings would share their mistakes; the golden file does not. The
 * zone's "pages free" and min watermark are its state's, each time.
 */
static void zoneinfo_matches_golden(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel, .size = RAM_SIZE, .dma_end = DMA_END, .cpus = 2);
	struct zone *normal = &mm->zones[ZONE_NORMAL];
	char *before = test_proc_read(mm, "zoneinfo"), *after, *both, golden[64];
	struct cma_page *page;

	expect_zone_line(before, "Node 0, zone   Normal", "  pages free     ",
			 zone_page_state(normal, NR_FREE_PAGES));
	page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_non_null(page);
	assert_true(mm->slots[0].pcp[ZONE_NORMAL].count > 0);
	after = test_proc_read(mm, "zoneinfo");
	expect_zone_line(after, "Node 0, zone   Normal", "  pages free     ",
			 zone_page_state(normal, NR_FREE_PAGES));
	expect_zone_line(after, "Node 0, zone   Normal", "        min      ", min_wmark_pages(normal));
	assert_string_not_equal(after, before);

	assert_true(asprintf(&both, "%s%s", before, after) > 0);
	snprintf(golden, sizeof(golden), "zoneinfo-%s.txt", kernel);
	test_expect_golden(golden, both);
	cma_free_pages(mm, page, 0);
	free(both);
	free(after);
	free(before);
	cma_mm_destroy(mm);
}

/* ---- names and phases ---- */

/* Expect: -ENOENT, nothing written, and the log names the accepted files. */
static void write_proc_unknown_name_is_enoent(void **state)
{
	struct cma_mm *mm = test_mm(.size = RAM_SIZE, .dma_end = DMA_END);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cma_write_proc(mm, "slabinfo", f), -ENOENT);
	assert_int_equal(cma_write_proc(mm, "", f), -ENOENT);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(len, 0);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(cma_mm_dmesg(mm, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "'slabinfo'"));
	assert_non_null(strstr(buf, "buddyinfo, pagetypeinfo, vmstat, meminfo, zoneinfo, cma"));
	free(buf);
	cma_mm_destroy(mm);
}

/* Expect: -EINVAL before boot and for NULL arguments. */
static void write_proc_before_boot_is_einval(void **state)
{
	static const char *const names[] = { "buddyinfo", "pagetypeinfo", "vmstat", "meminfo",
					     "zoneinfo", "cma" };
	struct cma_bank bank = { 0, RAM_SIZE };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .zone_dma_end = DMA_END };
	struct cma_mm *mm = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_int_equal(cma_write_proc(mm, names[i], f), -EINVAL);
	assert_int_equal(cma_write_proc(NULL, "meminfo", f), -EINVAL);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_int_equal(cma_write_proc(mm, "meminfo", NULL), -EINVAL);
	assert_int_equal(cma_write_proc(mm, NULL, f), -EINVAL);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(len, 0);
	free(buf);
	cma_mm_destroy(mm);
}

/* Expect: "cma" is accepted and, with no area list yet, empty. */
static void write_proc_cma_is_empty_without_areas(void **state)
{
	struct cma_mm *mm = test_mm(.size = RAM_SIZE, .dma_end = DMA_END,
				    .cma_base = 64 * MiB, .cma_size = 8 * MiB);
	char *s = test_proc_read(mm, "cma");

	assert_string_equal(s, "");
	free(s);
	cma_mm_destroy(mm);
}

/* ---- pageblock snapshots and the fragmentation index ---- */

/*
 * Expect: the sum over every block of cma_pageblock_stat's free pages is
 * NR_FREE_PAGES less the per-CPU lists, each block's type is
 * get_pageblock_migratetype's, a hole's block is -EINVAL, and an
 * allocation shows in its block (x86 geometry: a free order-10 buddy
 * covers two order-9 blocks, the second through inside_free_buddy).
 */
static void pageblock_stat_counts_match_the_allocator(void **state)
{
	struct cma_bank banks[] = { { 0, 128 * MiB }, { 192 * MiB, 64 * MiB } };
	struct cma_mm_config cfg = { .banks = banks, .nr_banks = 2, .zone_dma_end = DMA_END,
				     .pageblock_order = 9, .metadata_only = true };
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_pageblock_stat st;
	unsigned long nr_pb = 1ul << 9, free_sum = 0, pages_sum = 0, pfn;
	uint64_t nr_free;
	struct cma_page *page;

	cma_drain_all_pages(mm);
	for (pfn = 0; pfn < (256 * MiB) >> 12; pfn += nr_pb) {
		int ret = cma_pageblock_stat(mm, pfn + 3, &st);

		if (pfn >= (128 * MiB) >> 12 && pfn < (192 * MiB) >> 12) {
			assert_int_equal(ret, -EINVAL);
			continue;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(st.migratetype, cma_pageblock_migratetype(mm, pfn));
		assert_int_equal(st.nr_pages, nr_pb);
		assert_true(st.nr_free + st.nr_reserved <= st.nr_pages);
		free_sum += st.nr_free;
		pages_sum += st.nr_pages;
	}
	assert_int_equal(cma_mm_counter(mm, "nr_free_pages", &nr_free), 0);
	assert_int_equal(free_sum, nr_free);
	assert_int_equal(pages_sum, (192 * MiB) >> 12);

	page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 3);
	assert_non_null(page);
	pfn = cma_page_to_pfn(mm, page);
	assert_int_equal(cma_pageblock_stat(mm, pfn, &st), 0);
	assert_true(st.nr_pages - st.nr_free >= 8);
	cma_free_pages(mm, page, 3);
	assert_int_equal(cma_pageblock_stat(mm, pfn, NULL), -EINVAL);
	cma_mm_destroy(mm);
}

/*
 * Expect: cma_pageblock_free gives each block's return, type, valid and
 * free pages as cma_pageblock_stat does, and 0 for the rest, through a
 * hole, a bank smaller than the largest (walked), blocks inside a free
 * order-10 buddy, and allocations of several orders held in between.
 */
static void pageblock_free_matches_pageblock_stat(void **state)
{
	struct cma_bank banks[] = { { 0, 128 * MiB }, { 192 * MiB, 64 * MiB } };
	struct cma_mm_config cfg = { .banks = banks, .nr_banks = 2, .zone_dma_end = DMA_END,
				     .pageblock_order = 9, .metadata_only = true };
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_page *held[64];
	unsigned n = 0;

	for (unsigned round = 0; round < 2; round++) {
		for (unsigned long pfn = 0; pfn < (256 * MiB) >> 12; pfn += 1ul << 9) {
			struct cma_pageblock_stat st, fst;
			int ret = cma_pageblock_stat(mm, pfn + 5, &st);

			assert_int_equal(cma_pageblock_free(mm, pfn + 5, &fst), ret);
			if (ret)
				continue;
			assert_int_equal(fst.migratetype, st.migratetype);
			assert_int_equal(fst.nr_pages, st.nr_pages);
			assert_int_equal(fst.nr_free, st.nr_free);
			assert_int_equal(fst.nr_lru, 0);
			assert_int_equal(fst.nr_reserved, 0);
		}
		/* then a machine with blocks of every order taken here and there */
		for (unsigned i = 0; round == 0 && i < 64; i++) {
			held[n] = cma_alloc_pages(mm, CMA_GFP_KERNEL, i % 5);
			assert_non_null(held[n]);
			n++;
			if (i % 3 == 0)
				cma_free_pages(mm, held[--n], (i % 5));
		}
	}
	assert_int_equal(cma_pageblock_free(mm, 0, NULL), -EINVAL);
	cma_mm_destroy(mm);
}

/*
 * Expect: -1000 while a MAX_ORDER - 1 block is free; after taking every
 * such block and leaving only order-0 holes, an index near 1000
 * (fragmentation, not lack of memory); -EINVAL for an order beyond
 * MAX_ORDER - 1 or an unbooted machine.
 */
static void fragmentation_index_follows_free_blocks(void **state)
{
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .metadata_only = true);
	unsigned long max = (64 * MiB) >> 12, n;
	struct cma_page **pages = calloc(max, sizeof(*pages));
	int index;

	assert_non_null(pages);
	assert_int_equal(cma_fragmentation_index(mm, 10, &index), 0);
	assert_int_equal(index, -1000);
	assert_int_equal(cma_fragmentation_index(mm, 11, &index), -EINVAL);
	test_zero_watermarks(mm);
	n = test_alloc_all(mm, CMA_GFP_KERNEL, pages, max);
	/* free all but one page of each 2^10 block: 2^10 requests now fail for fragmentation */
	for (unsigned long i = 0; i < n; i++)
		if (cma_page_to_pfn(mm, pages[i]) & 1023)
			cma_free_pages(mm, pages[i], 0);
	cma_drain_all_pages(mm);
	assert_int_equal(cma_fragmentation_index(mm, 10, &index), 0);
	/* each block: 1023 free pages in 10 buddies (orders 0..9): 1000 - (1000 + 999 N) / 10 N, about 900 */
	assert_in_range(index, 880, 910);
	assert_int_equal(cma_fragmentation_index(mm, 0, &index), 0);
	assert_int_equal(index, -1000);
	free(pages);
	cma_mm_destroy(mm);
}

/* ---- the 6.x layout (proc_v6), against a 6.x kernel's own files ---- */

static char fixture_dir[PATH_MAX];

/* tests/proc-6.x of the source tree: BUILD/tests/test_proc -> BUILD/.. ; CMA_PROC_FIXTURES overrides. */
static const char *proc_fixture_dir(void)
{
	char exe[PATH_MAX];
	const char *env = getenv("CMA_PROC_FIXTURES");
	ssize_t n;

	if (env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	snprintf(fixture_dir, sizeof(fixture_dir), "%s/tests/proc-6.x", dirname(dirname(dirname(exe))));
	return fixture_dir;
}

static char *read_fixture(const char *name)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", proc_fixture_dir(), name);
	return test_read_file(path);
}

/*
 * The shape of a /proc line: its indentation kept, the zone name after
 * "zone" made "Z", every number (a digit run not inside a name) made
 * "N", a list of numbers ("N N N", "N, N") made one "N", inner blanks
 * made one space, trailing blanks dropped. Two lines of one layout have
 * one shape whatever the machine's numbers, zones and orders.
 */
static void line_shape(const char *line, char *out, size_t size)
{
	size_t o = 0;
	const char *p = line;

	while (*p == ' ' && o + 1 < size)
		out[o++] = *p++;
	for (; *p && o + 4 < size; p++) {
		if (*p == ' ' || *p == '\t') {
			if (o && out[o - 1] != ' ')
				out[o++] = ' ';
			continue;
		}
		if (isdigit((unsigned char)*p) && (p == line || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
			while (isdigit((unsigned char)p[1]))
				p++;
			/* a number after "N " or "N, " joins that N */
			if (o >= 2 && out[o - 1] == ' ' && out[o - 2] == 'N')
				o--;
			else if (o >= 3 && out[o - 1] == ' ' && out[o - 2] == ',' && out[o - 3] == 'N')
				o -= 2;
			else
				out[o++] = 'N';
			continue;
		}
		out[o++] = *p;
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
	/* the zone's name: "zone DMA32," -> "zone Z," */
	{
		char *z = strstr(out, "zone ");

		if (z) {
			char *name = z + 5, *end = name + strcspn(name, ", ");

			memmove(name + 1, end, strlen(end) + 1);
			*name = 'Z';
		}
	}
}

/* The distinct shapes of @text in the order they first appear, @drop's left out. */
struct shapes {
	char (*s)[256];
	unsigned n;
};

static bool shape_dropped(const char *shape, const char *const *drop)
{
	for (; drop && *drop; drop++)
		if (strstr(shape, *drop))
			return true;
	return false;
}

static void text_shapes(const char *text, const char *const *drop, const char *strip,
			struct shapes *sh)
{
	char line[1024];

	sh->n = 0;
	sh->s = calloc(count_lines(text) + 1, sizeof(*sh->s));
	assert_non_null(sh->s);
	for (unsigned i = 0; nth_line(text, i, line, sizeof(line)); i++) {
		char shape[256], *cut;
		bool seen = false;

		line_shape(line, shape, sizeof(shape));
		if (shape_dropped(shape, drop))
			continue;
		if (strip && (cut = strstr(shape, strip)))
			memmove(cut, cut + strlen(strip), strlen(cut + strlen(strip)) + 1);
		for (unsigned j = 0; j < sh->n && !seen; j++)
			seen = !strcmp(sh->s[j], shape);
		if (!seen)
			snprintf(sh->s[sh->n++], sizeof(sh->s[0]), "%s", shape);
	}
}

/*
 * NULL if every line shape of @ours is one of @kernel's, in @kernel's
 * order (a line the model has no counterpart for may be missing from
 * ours, not added or moved), and each of @required (shapes that 6.x
 * always prints) is among ours; else what broke it, in @why.
 */
static const char *layout_mismatch(const char *ours, const char *kernel, const char *const *drop,
				   const char *strip, const char *const *required, char *why,
				   size_t size)
{
	struct shapes o, k;
	unsigned j = 0;
	const char *ret = NULL;

	text_shapes(ours, drop, strip, &o);
	text_shapes(kernel, NULL, NULL, &k);
	for (unsigned i = 0; i < o.n && !ret; i++) {
		unsigned at = j;

		while (at < k.n && strcmp(o.s[i], k.s[at]))
			at++;
		if (at == k.n) {
			snprintf(why, size, "our line '%s' (after '%s') is not in the kernel's file after '%s'",
				 o.s[i], i ? o.s[i - 1] : "", j ? k.s[j - 1] : "");
			ret = why;
		}
		j = at + 1;
	}
	for (; required && *required && !ret; required++) {
		bool found = false;

		for (unsigned i = 0; i < o.n && !found; i++)
			found = !strcmp(o.s[i], *required);
		if (!found) {
			snprintf(why, size, "no line '%s', which 6.x always prints", *required);
			ret = why;
		}
	}
	free(o.s);
	free(k.s);
	return ret;
}

/*
 * Lines 6.12 prints that the fixture's kernel may not: those of CONFIG_CMA
 * (the CMA migrate type, CmaTotal/CmaFree, cma_alloc_*), and nr_bounce and
 * nr_writeback_temp, gone from vmstat by 6.18. Each is left out of ours only when the
 * fixture has no such line.
 */
static const char *const fixture_may_lack[] = { "type CMA ", "CmaTotal:", "CmaFree:",
						"cma_alloc_success", "cma_alloc_fail", "nr_bounce ",
						"nr_writeback_temp ",
						NULL };

struct layout_file {
	const char *name;
	const char *const *required;	/* shapes 6.x prints whatever its config */
};

static const char *const pagetypeinfo_required[] = { "Node N, zone Z, type HighAtomic N", NULL };
static const char *const vmstat_required[] = { "nr_zone_inactive_anon N", "pgmigrate_success N",
					       "compact_isolated N", NULL };
static const char *const meminfo_required[] = { "MemAvailable: N kB", "KReclaimable: N kB", NULL };
static const char *const zoneinfo_required[] = { "  per-node stats", "        promo N", "        cma N",
						 "  node_unreclaimable: N", NULL };

static const struct layout_file layout_files[] = {
	{ "buddyinfo", NULL },
	{ "pagetypeinfo", pagetypeinfo_required },
	{ "vmstat", vmstat_required },
	{ "meminfo", meminfo_required },
	{ "zoneinfo", zoneinfo_required },
};

/* A machine laid out as the fixture's: DMA, DMA32 to 4 GiB, Normal above, 2 CPUs, 2 MiB blocks, CMA. */
static struct cma_mm *layout_machine(const char *kernel)
{
	return test_mm(.kernel = kernel, .size = 4 * GiB + 512 * MiB, .dma_end = 16 * MiB,
		       .dma32_end = 4 * GiB, .cpus = 2, .pageblock_order = 9, .metadata_only = true,
		       .cma_base = 256 * MiB, .cma_size = 64 * MiB);
}

/* The first mismatch of the machine's /proc/@f against the fixture's, or NULL. */
static const char *file_mismatch(struct cma_mm *mm, const struct layout_file *f, char *why, size_t size)
{
	char *ours = test_proc_read(mm, f->name), *kernel = read_fixture(f->name), *mi;
	const char *drop[sizeof(fixture_may_lack) / sizeof(fixture_may_lack[0])], *ret;
	bool kernel_has_cma;
	unsigned n = 0;

	mi = read_fixture("meminfo");
	kernel_has_cma = find_line(mi, "CmaTotal:") != NULL;
	free(mi);
	for (const char *const *l = fixture_may_lack; *l; l++)
		if (!strstr(kernel, *l) && !(kernel_has_cma && strstr(*l, "Cma")))
			drop[n++] = *l;
	drop[n] = NULL;
	/* the CMA column of pagetypeinfo's block-count header goes with the type */
	ret = layout_mismatch(ours, kernel, drop, kernel_has_cma ? NULL : " CMA", f->required, why,
			      size);
	free(kernel);
	free(ours);
	return ret;
}

/*
 * Expect, under 6.12: every line of our buddyinfo, pagetypeinfo, vmstat,
 * meminfo and zoneinfo has the shape of a line of the 6.x kernel's own
 * file (tests/proc-6.x), in its order, with the lines 6.x always
 * prints. Under 3.5 the same machine's files keep v3.5's layout, so all
 * but buddyinfo (unchanged since) break it: Reserve for HighAtomic,
 * Reclaimable before Movable, no nr_zone_* or pgmigrate_* lines, no
 * MemAvailable, no per-node stats, boost, promo or cma lines.
 */
static void proc_layout_matches_a_6x_kernel(void **state)
{
	struct cma_mm *v6 = layout_machine("6.12"), *v3 = layout_machine("3.5");
	char why[512];

	for (unsigned i = 0; i < sizeof(layout_files) / sizeof(layout_files[0]); i++) {
		const struct layout_file *f = &layout_files[i];
		const char *bad = file_mismatch(v6, f, why, sizeof(why));

		if (bad)
			fail_msg("6.12 /proc/%s: expected the 6.x layout: %s", f->name, bad);
		bad = file_mismatch(v3, f, why, sizeof(why));
		if (!strcmp(f->name, "buddyinfo") ? bad != NULL : bad == NULL)
			fail_msg("3.5 /proc/%s: expected %s", f->name,
				 bad ? bad : "v3.5's layout, not 6.x's");
	}
	assert_verify(v6);
	cma_mm_destroy(v3);
	cma_mm_destroy(v6);
}

/* The value of the zoneinfo line "        @label N" in @zone's block of @s, or -1 if it has none. */
static long zoneinfo_value(const char *s, const char *zone, const char *label)
{
	char head[64], prefix[64];
	const char *p, *end;

	snprintf(head, sizeof(head), "Node 0, zone %8s\n", zone);
	p = strstr(s, head);
	assert_non_null(p);
	end = strstr(p + 1, "Node 0, zone ");
	snprintf(prefix, sizeof(prefix), "\n        %-8s ", label);
	p = strstr(p, prefix);
	if (!p || (end && p > end))
		return -1;
	return strtol(p + strlen(prefix), NULL, 10);
}

/*
 * Expect, under 6.12 (zoneinfo_show_print): the zone holding the CMA
 * area shows it on its "cma" line (zone->cma_pages: 64 MiB of 4 KiB
 * pages in DMA32, 0 elsewhere), "managed" counts those pages too, and
 * ZONE_MOVABLE, empty, is listed with only its marks and protection.
 * /proc/pagetypeinfo's columns are 6.x's: Unmovable, Movable,
 * Reclaimable, HighAtomic, CMA, Isolate, and the CMA column counts the
 * area's blocks. Under 3.5 there is no "cma" line and no Movable zone.
 */
static void proc_v6_zoneinfo_cma_lines_and_type_columns(void **state)
{
	struct cma_mm *v6 = layout_machine("6.12"), *v3 = layout_machine("3.5");
	char *zi6 = test_proc_read(v6, "zoneinfo"), *zi3 = test_proc_read(v3, "zoneinfo");
	char *pt6 = test_proc_read(v6, "pagetypeinfo");
	struct zone *dma32 = &v6->zones[ZONE_DMA32];
	const char *movable, *blocks;
	char line[256], want[256];

	assert_int_equal(zoneinfo_value(zi6, "DMA32", "cma"), (long)((64 * MiB) >> 12));
	assert_int_equal(zoneinfo_value(zi6, "DMA32", "managed"), (long)dma32->managed_pages);
	assert_int_equal(zoneinfo_value(zi6, "Normal", "cma"), 0);
	assert_int_equal(zoneinfo_value(zi3, "DMA32", "cma"), -1);
	assert_int_equal(zoneinfo_value(zi3, "DMA32", "managed"),
			 (long)v3->zones[ZONE_DMA32].managed_pages);
	movable = strstr(zi6, "Node 0, zone  Movable\n");
	assert_non_null(movable);
	assert_non_null(strstr(movable, "protection: (0, 0, 0, 0)\n"));
	assert_null(strstr(movable, "pagesets"));
	assert_null(strstr(zi3, "zone  Movable"));

	blocks = find_line(pt6, "Number of blocks type ");
	assert_true(nth_line(blocks, 0, line, sizeof(line)));
	assert_string_equal(line, "Number of blocks type     Unmovable      Movable  Reclaimable"
				  "   HighAtomic          CMA      Isolate ");
	assert_true(nth_line(blocks, 2, line, sizeof(line)));
	snprintf(want, sizeof(want), "Node 0, zone %8s ", "DMA32");
	assert_memory_equal(line, want, strlen(want));
	/* the fifth column, CMA: 64 MiB of 2 MiB blocks */
	assert_int_equal(strtoul(line + strlen(want) + 4 * 13, NULL, 10), 32);
	/* cma_mm_verify: the zones' CMA pages add up to CmaTotal */
	assert_verify(v6);
	dma32->cma_pages--;
	assert_int_equal(cma_mm_verify(v6), -EUCLEAN);
	dma32->cma_pages++;
	free(pt6);
	free(zi3);
	free(zi6);
	cma_mm_destroy(v3);
	cma_mm_destroy(v6);
}

/*
 * Expect, under 6.12 (vmstat_text, meminfo_proc_show): vmstat's
 * pgmigrate_success and compact_isolated are the counters cma_mm_counter
 * reads, pgrefill the sum of v3.5's per-zone ones, pgalloc one line per
 * zone 6.x builds (dma, dma32, normal, movable here; no high); meminfo's
 * MemAvailable lies between MemFree less the reserves and MemFree plus
 * the page cache, and CmaTotal is the area. Under 3.5 none of these
 * vmstat lines but pgalloc_* (all five zones) and no MemAvailable.
 */
static void proc_v6_vmstat_and_meminfo_values(void **state)
{
	struct cma_mm *v6 = layout_machine("6.12"), *v3 = layout_machine("3.5");
	struct fake_owner *o = owner_create(v6, false, 512);
	char *vm6, *vm3 = test_proc_read(v3, "vmstat"), *mi6, *mi3 = test_proc_read(v3, "meminfo");
	unsigned long mem_free, avail;

	compact_every_other_page(v6, o, 512);
	vm6 = test_proc_read(v6, "vmstat");
	mi6 = test_proc_read(v6, "meminfo");
	assert_int_equal(vmstat_value(vm6, "pgmigrate_success"), counter(v6, "pgmigrate_success"));
	assert_int_equal(vmstat_value(vm6, "compact_isolated"), counter(v6, "compact_isolated"));
	assert_int_equal(vmstat_value(vm6, "pgrefill"),
			 counter(v6, "pgrefill_dma") + counter(v6, "pgrefill_dma32") +
			 counter(v6, "pgrefill_normal") + counter(v6, "pgrefill_high") +
			 counter(v6, "pgrefill_movable"));
	assert_int_equal(vmstat_value(vm6, "pgalloc_normal"), counter(v6, "pgalloc_normal"));
	assert_int_equal(vmstat_value(vm6, "nr_dirty_threshold"), expected_dirty_threshold(v6));
	assert_int_equal(vmstat_value(vm6, "nr_dirty_background_threshold"),
			 expected_dirty_threshold(v6) / 2);
	assert_true(expected_dirty_threshold(v6) > 0);
	{
		uint64_t background, dirty;

		cma_mm_dirty_limits(v6, &background, &dirty);
		assert_int_equal(dirty, vmstat_value(vm6, "nr_dirty_threshold"));
		assert_int_equal(background, vmstat_value(vm6, "nr_dirty_background_threshold"));
	}
	assert_non_null(find_line(vm6, "pgalloc_movable "));
	assert_null(find_line(vm6, "pgalloc_high "));
	assert_null(find_line(vm6, "compact_blocks_moved "));
	assert_null(find_line(vm3, "pgmigrate_success "));
	assert_null(find_line(vm3, "pgrefill "));
	assert_non_null(find_line(vm3, "pgalloc_high "));

	mem_free = meminfo_value(mi6, "MemFree");
	avail = meminfo_value(mi6, "MemAvailable");
	assert_true(avail + kb(v6, v6->totalreserve_pages) >= mem_free);
	assert_true(avail <= mem_free + kb(v6, global_page_state(v6, NR_FILE_PAGES)));
	assert_int_equal(meminfo_value(mi6, "CmaTotal"), 64 * 1024);
	assert_null(find_line(mi3, "MemAvailable:"));
	free(mi6);
	free(vm6);
	free(mi3);
	free(vm3);
	owner_destroy(o);
	assert_verify(v6);
	cma_mm_destroy(v3);
	cma_mm_destroy(v6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buddyinfo_lines_match_free_areas),
		cmocka_unit_test(pageblock_stat_counts_match_the_allocator),
		cmocka_unit_test(pageblock_free_matches_pageblock_stat),
		cmocka_unit_test(fragmentation_index_follows_free_blocks),
		cmocka_unit_test(pagetypeinfo_header_lines_are_exact),
		cmocka_unit_test(pagetypeinfo_free_counts_add_up_to_nr_free),
		cmocka_unit_test(pagetypeinfo_block_counts_cover_every_pageblock),
		cmocka_unit_test(pagetypeinfo_block_counts_skip_holes),
		cmocka_unit_test(meminfo_lines_follow_the_counters),
		cmocka_unit_test(meminfo_swap_lines_follow_swap_config),
		cmocka_unit_test(meminfo_cma_lines_count_cma_pageblocks),
		cmocka_unit_test(meminfo_highmem_lines_only_with_highmem),
		cmocka_unit_test(vmstat_names_once_in_kernel_order),
		cmocka_unit_test(vmstat_compaction_lines_of_v3_5),
		cmocka_unit_test(vmstat_event_lines_by_release),
		cmocka_unit_test(write_proc_unknown_name_is_enoent),
		cmocka_unit_test(write_proc_before_boot_is_einval),
		cmocka_unit_test(write_proc_cma_is_empty_without_areas),
		cmocka_unit_test(proc_layout_matches_a_6x_kernel),
		cmocka_unit_test(proc_v6_zoneinfo_cma_lines_and_type_columns),
		cmocka_unit_test(proc_v6_vmstat_and_meminfo_values),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(zoneinfo_matches_golden, zoneinfo_kernels),
	};

	return cmocka_run_group_tests_name("proc", tests, NULL, NULL) +
	       test_run_kernel_cases("proc (per kernel)", kernel_cases);
}
