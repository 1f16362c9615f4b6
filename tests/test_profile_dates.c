// SPDX-License-Identifier: GPL-2.0
/*
 * The release each profile switch starts in (issue 27): the table is
 * printed and compared with tests/golden/profiles.txt, so that moving a
 * switch is a deliberate change of that file; every switch is off in the
 * release before its own and on from it; and each switch whose date was
 * corrected against the kernel's history behaves as the release before
 * and as its own release say: compact_events_per_run (4.11),
 * cma_alloc_report (4.11, out of cma_generic), cma_stats (5.13),
 * batched_unmap_flush (6.3), compact_skip_pinned (3.15, out of
 * longterm_migrate), cma_pageblock_align (5.19, out of cma_generic).
 * cma_balance (5.8) is test_profile_alloc's, contig_reclaim_clean (3.7)
 * test_contig_reclaim's, free_scan_enough (4.0) test_compaction's,
 * contig_busy_info (3.18) test_console's and test_profile_alloc's,
 * hugetlb_cma (5.7) test_hugetlb_cma's, blkdev_migrate_norefs (5.0)
 * test_sim_journal's. The table with each switch's own
 * commits (scripts/profile-table.sh, from the "Commit:" sentence of its
 * comment) is compared with tests/golden/profile-table.md.
 *
 * CMA_GOLDEN_DIR overrides the golden files' directory; CMA_UPDATE_GOLDEN=1
 * rewrites profiles.txt and profile-table.md.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "mm/cma.h"
#include "mm/profile.h"
#include "owners.h"

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/* ---- the table ---- */

/* "name release" a line, in profile.h's order; the caller frees it. */
static char *profile_table(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *name;
	unsigned release;

	assert_non_null(f);
	for (size_t i = 0; kernel_profile_switch(i, &name, &release); i++)
		fprintf(f, "%-26s %u.%u\n", name, release / 100, release % 100);
	fclose(f);
	return buf;
}

/*
 * Expect: the switches and their releases are tests/golden/profiles.txt
 * line for line; a date moved without that file is a failure.
 */
static void profile_table_matches_golden(void **state)
{
	char *table = profile_table();

	test_expect_golden("profiles.txt", table);
	free(table);
}

/*
 * Expect: scripts/profile-table.sh succeeds (every switch's comment has one
 * "Commit:" sentence and profile.c a release for it) and prints
 * tests/golden/profile-table.md: a switch's row carries the commits that
 * sentence names, never an id cited only as evidence (dma_cma_blocking's
 * comment cites d0164adc89f6, 4.4's, to show the test its commits left).
 */
static void profile_table_names_each_switch_commits(void **state)
{
	char script[PATH_MAX], root[PATH_MAX], cmd[3 * PATH_MAX];
	char *table = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&table, &len), *p;
	int c;

	assert_int_equal(test_source_path("scripts/profile-table.sh", script, sizeof(script)), 0);
	assert_int_equal(test_source_path("src/mm/profile.h", root, sizeof(root)), 0);
	*strstr(root, "/src/mm/profile.h") = 0;
	snprintf(cmd, sizeof(cmd), "sh '%s' '%s'", script, root);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(out);
	while ((c = fgetc(p)) != EOF)
		fputc(c, out);
	assert_int_equal(pclose(p), 0);
	fclose(out);
	test_expect_golden("profile-table.md", table);
	free(table);
}

/* The release before @release ("3.6" before "3.7", "4.20" before "5.0"), into @buf. */
static void release_before(unsigned release, char *buf, size_t size)
{
	static const unsigned last_minor[] = { [3] = 19, [4] = 20, [5] = 19 };
	unsigned major = release / 100, minor = release % 100;

	if (minor)
		snprintf(buf, size, "%u.%u", major, minor - 1);
	else
		snprintf(buf, size, "%u.%u", major - 1, last_minor[major - 1]);
}

/*
 * Expect: each switch is named once, is off under the release before its
 * own (when that release has a profile) and on from its own release to
 * 6.12.
 */
static void profile_switch_starts_at_its_release(void **state)
{
	const char *name, *other;
	unsigned release, other_release;

	for (size_t i = 0; kernel_profile_switch(i, &name, &release); i++) {
		char this[24], before[24];

		for (size_t j = 0; j < i && kernel_profile_switch(j, &other, &other_release); j++)
			if (!strcmp(name, other))
				fail_msg("switch %s is listed twice", name);
		snprintf(this, sizeof(this), "%u.%u", release / 100, release % 100);
		release_before(release, before, sizeof(before));
		if (cma_kernel_has(this, name) != 1 || cma_kernel_has("6.12", name) != 1)
			fail_msg("%s: expected on under %s and 6.12", name, this);
		if (release > 305 && cma_kernel_has(before, name) != 0)
			fail_msg("%s: expected off under %s, the release before %s", name, before, this);
	}
}

/* ---- the corrected dates, by behaviour ---- */

/*
 * Expect (compact_zone's count_compact_events of "mm, compaction: add
 * vmstats for kcompactd work", 4.11): alloc_contig_range's scanning
 * shows in compact_migrate_scanned under 4.10, and under 4.11 only in the
 * library's contig_migrate_scanned.
 */
static void alloc_contig_range_scan_counter_from_411(void **state)
{
	static const char *const releases[] = { "4.10", "4.11" };

	for (unsigned r = 0; r < 2; r++) {
		struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = releases[r]);
		struct fake_owner *o = owner_create(mm, true, 8);
		uint64_t compact, contig;
		unsigned long pfn;

		assert_non_null(owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 1));
		lru_add_drain_all(mm);
		pfn = cma_page_to_pfn(mm, o->slots[0].page);
		compact = counter(mm, "compact_migrate_scanned");
		contig = counter(mm, "contig_migrate_scanned");
		assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
		if ((counter(mm, "compact_migrate_scanned") > compact) != (r == 0) ||
		    (counter(mm, "contig_migrate_scanned") > contig) != (r == 1))
			fail_msg("%s: compact_migrate_scanned +%llu, contig_migrate_scanned +%llu", releases[r],
				 (unsigned long long)(counter(mm, "compact_migrate_scanned") - compact),
				 (unsigned long long)(counter(mm, "contig_migrate_scanned") - contig));
		cma_free_contig_range(mm, pfn, 1);
		assert_int_equal(owner_check(o), 1);
		assert_verify(mm);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect ("mm: cma: print allocation failure reason and bitmap status",
 * 4.11): a cma_alloc too large for the area fails silently under 4.10,
 * 3.17's mm/cma.c; 4.11 logs the failure and the bitmap's free runs.
 */
static void cma_alloc_failure_logged_from_411(void **state)
{
	static const char *const releases[] = { "4.10", "4.11" };

	for (unsigned r = 0; r < 2; r++) {
		struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .cmdline = "cma=8M",
					    .kernel = releases[r]);
		char *log;

		assert_null(cma_dma_alloc_from_contiguous(mm, NULL, 4096, 0));
		log = test_dmesg(mm);
		if ((strstr(log, "cma: __cma_alloc: reserved: alloc failed, req-size: 4096 pages, ret: -12\n") != NULL) !=
		    (r == 1) || (strstr(log, "cma: number of available pages:") != NULL) != (r == 1))
			fail_msg("%s: expected the failure %slogged; the log is:\n%s", releases[r],
				 r ? "" : "not ", log);
		free(log);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect ("mm: cma: support sysfs" and "mm: vmstat: add cma statistics",
 * 5.13): the area's sys/kernel/mm/cma files and the cma_alloc_success
 * vmstat line exist under 5.13, not under 5.12.
 */
static void cma_sysfs_and_vmstat_from_513(void **state)
{
	static const char *const releases[] = { "5.12", "5.13" };

	for (unsigned r = 0; r < 2; r++) {
		struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .cmdline = "cma=8M",
					    .kernel = releases[r]);
		struct cma_page *p = cma_dma_alloc_from_contiguous(mm, NULL, 8, 0);
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		int ret;

		assert_non_null(p);
		assert_non_null(f);
		ret = cma_write_proc(mm, "sys/kernel/mm/cma/reserved/alloc_pages_success", f);
		fclose(f);
		assert_int_equal(ret, r ? 0 : -ENOENT);
		if (r)
			assert_string_equal(text, "8\n");
		free(text);
		text = test_proc_read(mm, "vmstat");
		if ((strstr(text, "\ncma_alloc_success 1\n") != NULL) != (r == 1))
			fail_msg("%s: expected %scma_alloc_success line", releases[r], r ? "a " : "no ");
		free(text);
		assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 8));
		cma_mm_destroy(mm);
	}
}

static unsigned one_mapping(void *owner, uint64_t index, const struct cma_page *page)
{
	return 1;
}

static struct cma_page *alloc_target(struct cma_mm *mm, struct cma_page *page, unsigned long priv)
{
	return cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, page_order(page));
}

/*
 * Expect ("migrate_pages: batch flushing TLB", 6.3): migrating 8 mapped
 * anonymous pages in MIGRATE_ASYNC flushes each entry under 6.2 (8
 * flushes) and the whole batch once under 6.3.
 */
static void migrate_async_batches_tlb_flush_from_63(void **state)
{
	static const char *const releases[] = { "6.2", "6.3" };
	static const uint64_t flushes[] = { 8, 1 };

	for (unsigned r = 0; r < 2; r++) {
		struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = releases[r]);
		struct fake_owner *o = owner_create(mm, true, 8);
		struct cma_owner_ops mapped = fake_anon_ops;
		struct page_list list = { PAGE_NIL, PAGE_NIL };
		uint64_t before;

		mapped.mapcount = one_mapping;
		for (uint64_t i = 0; i < 8; i++)
			assert_non_null(owner_fault_ops(o, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1, &mapped));
		lru_add_drain_all(mm);
		for (uint64_t i = 0; i < 8; i++) {
			assert_int_equal(isolate_lru_page(mm, o->slots[i].page), 0);
			page_list_add_tail(mm, &list, o->slots[i].page);
		}
		before = counter(mm, "pgmigrate_tlb_flush");
		assert_int_equal(migrate_pages(mm, &list, alloc_target, 0, MIGRATE_ASYNC), 0);
		if (counter(mm, "pgmigrate_tlb_flush") - before != flushes[r])
			fail_msg("%s: expected %llu TLB flushes, found %llu", releases[r],
				 (unsigned long long)flushes[r],
				 (unsigned long long)(counter(mm, "pgmigrate_tlb_flush") - before));
		assert_int_equal(owner_check(o), 8);
		lru_add_drain_all(mm);
		assert_verify(mm);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect ("mm, compaction: avoid isolating pinned pages", 3.15): a
 * pinned anonymous page (a reference beyond its one mapping) is isolated
 * under 3.14, to fail in migration, and passed by under 3.15.
 */
static void isolate_passes_pinned_page_from_315(void **state)
{
	static const char *const releases[] = { "3.14", "3.15" };

	for (unsigned r = 0; r < 2; r++) {
		struct cma_mm *mm = test_mm(.pageblock_order = 9, .metadata_only = true,
					    .kernel = releases[r]);
		struct zone *z = &mm->zones[ZONE_NORMAL];
		struct fake_owner *o = owner_create(mm, true, 1);
		struct compact_control cc = { .order = -1, .zone = z, .sync = true };
		struct cma_page *p = owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 1);
		unsigned long pfn;

		assert_non_null(p);
		lru_add_drain_all(mm);
		pfn = page_to_pfn(mm, p);
		cma_page_get(mm, p);
		compact_control_init_lists(&cc);
		assert_int_equal(isolate_migratepages_range(z, &cc, pfn, pfn + 1), pfn + 1);
		if (cc.nr_migratepages != (r == 0 ? 1u : 0u))
			fail_msg("%s: expected the pinned page %sisolated", releases[r], r ? "not " : "");
		putback_lru_pages(mm, &cc.migratepages);
		lru_add_drain(mm);
		cma_page_put(mm, p);
		assert_verify(mm);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect ("mm: cma: use pageblock_order as the single alignment", 5.19):
 * an area of one pageblock (2 MiB) is rounded up to MAX_ORDER_NR_PAGES
 * (4 MiB here: mm/cma.c's max(MAX_ORDER - 1, pageblock_order)) under 5.18
 * and is one pageblock under 5.19.
 */
static void cma_area_pageblock_aligned_from_519(void **state)
{
	static const char *const releases[] = { "5.18", "5.19" };

	for (unsigned r = 0; r < 2; r++) {
		struct cma_mm *mm = test_mm_early(.pageblock_order = 9, .kernel = releases[r]);
		struct cma *cma = NULL;
		unsigned long want = r ? mm->pageblock_nr_pages : max_order_nr_pages(mm);

		assert_true(max_order_nr_pages(mm) > mm->pageblock_nr_pages);
		assert_int_equal(cma_declare_contiguous_nid(mm, 0, 2 * MiB, 0, 0, 0, false, "one",
							    &cma, -1), 0);
		assert_int_equal(cma_mm_boot(mm), 0);
		if (cma_area_count(cma) != want)
			fail_msg("%s: expected an area of %lu pages, found %lu", releases[r], want,
				 cma_area_count(cma));
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(profile_table_matches_golden),
		cmocka_unit_test(profile_table_names_each_switch_commits),
		cmocka_unit_test(profile_switch_starts_at_its_release),
		cmocka_unit_test(alloc_contig_range_scan_counter_from_411),
		cmocka_unit_test(cma_alloc_failure_logged_from_411),
		cmocka_unit_test(cma_sysfs_and_vmstat_from_513),
		cmocka_unit_test(migrate_async_batches_tlb_flush_from_63),
		cmocka_unit_test(isolate_passes_pinned_page_from_315),
		cmocka_unit_test(cma_area_pageblock_aligned_from_519),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
