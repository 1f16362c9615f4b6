// SPDX-License-Identifier: GPL-2.0
/*
 * What the statistics show, release by release (issue 27, the dating of
 * the cma_stats and proc_v6 bundles): mm_migrate_pages' nr_thp_* fields
 * and reason from 5.9 (migrate_count_pages), the mm_migrate_pages_start
 * event from 5.13 (cma_stats), nr_split from 6.7 (migrate_trace_nr_split),
 * an area's sysfs release_pages_success from 6.9 (cma_release_stats),
 * meminfo's MemAvailable from 3.14 (meminfo_available), pagetypeinfo's
 * 4.4 type order (pagetypeinfo_types) and its ">100000" from 5.4
 * (pagetypeinfo_cap). Each test runs
 * on both sides of each boundary, the kernel in its messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* A release and whether it has the change a test looks at. */
struct release {
	const char *kernel;
	bool has;
};

static char trace_buf[1 << 14];
static size_t trace_len;

static void trace_migrate(void *ctx, const char *event, const char *line)
{
	if (strncmp(event, "mm_migrate_pages", 16) || trace_len >= sizeof(trace_buf))
		return;
	trace_len += (size_t)snprintf(trace_buf + trace_len, sizeof(trace_buf) - trace_len, "%s\n",
				      line);
}

/*
 * Expect: compact_memory moving one page prints, before 5.9, ours
 * (counts and mode); from 5.9 the kernel's with the THP counts and the
 * reason; from 5.13 after an mm_migrate_pages_start line; from 6.7 with
 * nr_split.
 */
static void mm_migrate_pages_format_by_release(void **state)
{
	static const struct {
		const char *kernel;
		bool start;		/* mm_migrate_pages_start first */
		const char *line;
	} r[] = {
		{ "5.8", false, "mm_migrate_pages: nr_succeeded=1 nr_failed=0 mode=MIGRATE_SYNC_LIGHT\n" },
		{ "5.9", false, "mm_migrate_pages: nr_succeeded=1 nr_failed=0 nr_thp_succeeded=0 nr_thp_failed=0 nr_thp_split=0 mode=MIGRATE_SYNC_LIGHT reason=compaction\n" },
		{ "5.12", false, "mm_migrate_pages: nr_succeeded=1 nr_failed=0 nr_thp_succeeded=0 nr_thp_failed=0 nr_thp_split=0 mode=MIGRATE_SYNC_LIGHT reason=compaction\n" },
		{ "5.13", true, "mm_migrate_pages: nr_succeeded=1 nr_failed=0 nr_thp_succeeded=0 nr_thp_failed=0 nr_thp_split=0 mode=MIGRATE_SYNC_LIGHT reason=compaction\n" },
		{ "6.6", true, "mm_migrate_pages: nr_succeeded=1 nr_failed=0 nr_thp_succeeded=0 nr_thp_failed=0 nr_thp_split=0 mode=MIGRATE_SYNC_LIGHT reason=compaction\n" },
		{ "6.7", true, "mm_migrate_pages: nr_succeeded=1 nr_failed=0 nr_thp_succeeded=0 nr_thp_failed=0 nr_thp_split=0 nr_split=0 mode=MIGRATE_SYNC_LIGHT reason=compaction\n" },
		{ "6.12", true, "mm_migrate_pages: nr_succeeded=1 nr_failed=0 nr_thp_succeeded=0 nr_thp_failed=0 nr_thp_split=0 nr_split=0 mode=MIGRATE_SYNC_LIGHT reason=compaction\n" },
	};

	for (size_t i = 0; i < NR(r); i++) {
		struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = r[i].kernel);
		struct zone *z = &mm->zones[ZONE_NORMAL];
		struct fake_owner *o = owner_create(mm, true, 1);

		assert_non_null(owner_fault_at(o, 0, z->zone_start_pfn + 2048, 1));
		lru_add_drain_all(mm);
		trace_len = 0;
		trace_buf[0] = '\0';
		cma_mm_set_trace(mm, trace_migrate, NULL);
		assert_int_equal(cma_compact_memory(mm), 0);
		cma_mm_set_trace(mm, NULL, NULL);
		if (!strstr(trace_buf, r[i].line))
			fail_msg("kernel %s: expected the line '%s' in the trace, found '%s'", r[i].kernel,
				 r[i].line, trace_buf);
		expect_kernel(r[i].kernel, "mm_migrate_pages_start lines", r[i].start,
			      strstr(trace_buf, "mm_migrate_pages_start: mode=MIGRATE_SYNC_LIGHT reason=compaction\n") !=
			      NULL);
		assert_int_equal(owner_check(o), 1);
		owner_destroy(o);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: after 40 pages of an area are released, its sysfs
 * release_pages_success reads 40 from 6.9; before (5.13 to 6.8) it is
 * -ENOENT and the files listed are the two alloc_pages_* ones.
 */
static void cma_release_pages_success_by_release(void **state)
{
	static const struct release r[] = { { "5.13", false }, { "6.8", false }, { "6.9", true }, { "6.12", true } };

	for (size_t i = 0; i < NR(r); i++) {
		const char *kernel = r[i].kernel;
		struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9,
					    .cmdline = "cma=8M", .kernel = kernel);
		struct cma_page *p = cma_dma_alloc_from_contiguous(mm, NULL, 40, 0);
		FILE *sink = fopen("/dev/null", "w");
		char *log;

		assert_non_null(p);
		assert_non_null(sink);
		assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 40));
		expect_kernel(kernel, "reading release_pages_success", r[i].has ? 0 : -ENOENT,
			      cma_write_proc(mm, "sys/kernel/mm/cma/reserved/release_pages_success", sink));
		fclose(sink);
		if (r[i].has) {
			char *text = test_proc_read(mm, "sys/kernel/mm/cma/reserved/release_pages_success");

			expect_kernel(kernel, "release_pages_success", 40, strtol(text, NULL, 10));
			free(text);
		}
		log = test_dmesg(mm);
		if (!r[i].has && !strstr(log, "files: alloc_pages_success, alloc_pages_fail\n"))
			fail_msg("kernel %s: expected -ENOENT to list the two alloc_pages_* files; log: %s",
				 kernel, log);
		free(log);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/* Expect: /proc/meminfo has a MemAvailable line, right after MemFree, from 3.14. */
static void meminfo_available_by_release(void **state)
{
	static const struct release r[] = { { "3.5", false }, { "3.13", false }, { "3.14", true }, { "6.12", true } };

	for (size_t i = 0; i < NR(r); i++) {
		struct cma_mm *mm = test_mm(.kernel = r[i].kernel);
		char *text = test_proc_read(mm, "meminfo");
		const char *free_line = strstr(text, "MemFree:");
		const char *next = free_line ? strchr(free_line, '\n') : NULL;

		assert_non_null(next);
		expect_kernel(r[i].kernel, "MemAvailable after MemFree", r[i].has,
			      !strncmp(next + 1, "MemAvailable:", 13));
		expect_kernel(r[i].kernel, "MemAvailable lines", r[i].has,
			      strstr(text, "MemAvailable:") != NULL);
		free(text);
		cma_mm_destroy(mm);
	}
}

/* The order-0 field of Normal's Movable line in pagetypeinfo @text, as printed. */
static void movable_order0(const char *text, char *field, size_t len)
{
	const char *line = strstr(text, "zone   Normal, type      Movable");

	assert_non_null(line);
	assert_int_equal(sscanf(line + strlen("zone   Normal, type      Movable"), "%15s", field), 1);
	assert_true(strlen(field) < len);
}

/*
 * Expect: with every other page of a 1 GiB zone free (over 100000
 * order-0 blocks on Movable's list), /proc/pagetypeinfo prints their
 * count before 5.4 and ">100000" from 5.4.
 */
static void pagetypeinfo_cap_by_release(void **state)
{
	static const struct release r[] = { { "5.3", false }, { "5.4", true } };
	const unsigned long max = (1 * GiB) >> 12;

	for (size_t i = 0; i < NR(r); i++) {
		struct cma_mm *mm = test_mm(.size = 1 * GiB, .metadata_only = true, .kernel = r[i].kernel);
		struct cma_page **pages = calloc(max, sizeof(*pages));
		char *text, field[16];
		unsigned long n;

		assert_non_null(pages);
		test_zero_watermarks(mm);
		n = test_alloc_all(mm, CMA_GFP_HIGHUSER_MOVABLE, pages, max);
		for (unsigned long p = 0; p < n; p += 2)
			cma_free_pages(mm, pages[p], 0);
		cma_drain_all_pages(mm);
		text = test_proc_read(mm, "pagetypeinfo");
		movable_order0(text, field, sizeof(field));
		if (r[i].has ? strcmp(field, ">100000") : strtol(field, NULL, 10) <= 100000)
			fail_msg("kernel %s: Movable's order-0 blocks printed as '%s', expected %s",
				 r[i].kernel, field, r[i].has ? ">100000" : "their count, over 100000");
		free(text);
		for (unsigned long p = 1; p < n; p += 2)
			cma_free_pages(mm, pages[p], 0);
		free(pages);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: /proc/pagetypeinfo's "Number of blocks" header lists
 * Unmovable, Reclaimable, Movable, Reserve before 4.4 and Unmovable,
 * Movable, Reclaimable, HighAtomic from 4.4.
 */
static void pagetypeinfo_types_by_release(void **state)
{
	static const struct release r[] = {
		{ "3.5", false }, { "4.3", false }, { "4.4", true }, { "6.12", true },
	};

	for (size_t i = 0; i < NR(r); i++) {
		struct cma_mm *mm = test_mm(.kernel = r[i].kernel);
		char *text = test_proc_read(mm, "pagetypeinfo");
		const char *header = strstr(text, "Number of blocks type");
		char names[4][16];

		assert_non_null(header);
		assert_int_equal(sscanf(header, "Number of blocks type %15s %15s %15s %15s", names[0],
					names[1], names[2], names[3]), 4);
		expect_kernel(r[i].kernel, "Movable second", r[i].has, !strcmp(names[1], "Movable"));
		expect_kernel(r[i].kernel, "Reclaimable second", !r[i].has,
			      !strcmp(names[1], "Reclaimable"));
		expect_kernel(r[i].kernel, "HighAtomic fourth", r[i].has,
			      !strcmp(names[3], "HighAtomic"));
		expect_kernel(r[i].kernel, "Reserve fourth", !r[i].has, !strcmp(names[3], "Reserve"));
		free(text);
		cma_mm_destroy(mm);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mm_migrate_pages_format_by_release),
		cmocka_unit_test(cma_release_pages_success_by_release),
		cmocka_unit_test(meminfo_available_by_release),
		cmocka_unit_test(pagetypeinfo_cap_by_release),
		cmocka_unit_test(pagetypeinfo_types_by_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
