// SPDX-License-Identifier: GPL-2.0
/*
 * CMA under both kernel profiles (issue 14, items 4-6): each test runs the
 * same steps on a "3.5" and a "6.12" machine and asserts what each kernel
 * does: alloc_contig_range's granularity, pagevecs, migration reason and
 * watermark bump (contig_v6); cma=, area slots, alignment, order_per_bit
 * and the messages of mm/cma.c (cma_generic); the areas' sysfs and
 * debugfs files and trace formats (cma_stats).
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "mm/cma.h"
#include "owners.h"

static const char *const kernels[] = { "3.5", "6.12" };
static const char *const around_cma_align[] = { "3.18", "3.19", "4.12", "4.13", "6.12" };

static bool is_v6(struct cma_mm *mm)
{
	return !strcmp(cma_mm_kernel(mm), "6.12");
}

/* The machine's log, for the caller to free. */
static char *dmesg(struct cma_mm *mm)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cma_mm_dmesg(mm, f), 0);
	fclose(f);
	return buf;
}

/* cma_write_proc(@name) into a string (NULL on error, *ret set). */
static char *proc(struct cma_mm *mm, const char *name, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*ret = cma_write_proc(mm, name, f);
	fclose(f);
	if (*ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

static char trace_buf[1 << 16];
static size_t trace_len;

static void trace_collect(void *ctx, const char *event, const char *line)
{
	if (!strncmp(event, "mm_page_", 8) || trace_len >= sizeof(trace_buf))
		return;
	trace_len += (size_t)snprintf(trace_buf + trace_len, sizeof(trace_buf) - trace_len, "%s\n", line);
}

static void trace_start(struct cma_mm *mm)
{
	trace_len = 0;
	trace_buf[0] = '\0';
	cma_mm_set_trace(mm, trace_collect, NULL);
}

/* ---- item 4: alloc_contig_range (contig_v6) ---- */

/*
 * Expect (5.19 "mm: make alloc_contig_range work at pageblock
 * granularity"): with the first pageblock of a CMA MAX_ORDER block
 * isolated by someone else, a range in the second can be taken under
 * 6.12, which isolates only the pageblocks the range touches; v3.5 works
 * on the whole MAX_ORDER block and refuses (its pageblocks are not all
 * CMA: -EINVAL where the kernel would BUG).
 */
static void alloc_contig_range_granularity_by_profile(const char *kernel, unsigned k)
{
	/* pageblock 512 pages, MAX_ORDER block 1024 */
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .kernel = kernel,
				    .cma_base = 32 * MiB, .cma_size = 8 * MiB);
	unsigned long base = (32 * MiB) >> mm->page_shift;

	assert_int_equal(cma_start_isolate_page_range(mm, base, base + 512, CMA_MIGRATE_CMA), 0);
	if (!is_v6(mm)) {
		assert_int_equal(cma_alloc_contig_range(mm, base + 512, base + 528, CMA_MIGRATE_CMA),
				 -EINVAL);
	} else {
		assert_int_equal(cma_alloc_contig_range(mm, base + 512, base + 528, CMA_MIGRATE_CMA), 0);
		assert_int_equal(cma_pageblock_migratetype(mm, base), CMA_MIGRATE_ISOLATE);
		cma_free_contig_range(mm, base + 512, 16);
	}
	assert_int_equal(cma_pageblock_migratetype(mm, base + 512), CMA_MIGRATE_CMA);
	assert_int_equal(cma_undo_isolate_page_range(mm, base, base + 512, CMA_MIGRATE_CMA), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* A movable page of @o's slot 0 faulted on CPU 1: it waits in CPU 1's pagevec, off the LRU; back on CPU 0. */
static struct cma_page *fault_in_other_cpu_pagevec(struct cma_mm *mm, struct fake_owner *o)
{
	struct cma_page *page;

	cma_mm_bind_cpu(mm, 1);
	page = owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 7);
	assert_non_null(page);
	cma_mm_bind_cpu(mm, 0);
	return page;
}

/*
 * Expect (5.13 "mm: disable LRU pagevec during the migration
 * temporarily", with 4.15's isolate_scan_movable): a movable page still
 * in another CPU's pagevec is not on the LRU. v3.5, which drains only
 * its own CPU's before migrating, cannot move it: -EBUSY for a MOVABLE
 * range and for a CMA one. 6.12's isolation refuses the MOVABLE block
 * holding it (-EBUSY, the page where it was) but does not scan a CMA
 * block asked for as CMA, where lru_cache_disable drains every CPU's
 * pagevec first and the page moves, its bytes intact.
 */
static void alloc_contig_range_other_cpu_pagevec_by_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.cpus = 2, .kernel = kernel, .dma_end = 16 * MiB,
				    .pageblock_order = 9, .cma_base = 32 * MiB, .cma_size = 8 * MiB);
	unsigned long area = (32 * MiB) >> mm->page_shift, pfn;
	struct fake_owner *o = owner_create(mm, true, 2);
	struct cma_page *page = fault_in_other_cpu_pagevec(mm, o), *in_area;

	pfn = cma_page_to_pfn(mm, page);
	assert_int_equal(cma_pageblock_migratetype(mm, pfn), CMA_MIGRATE_MOVABLE);
	assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), -EBUSY);
	assert_ptr_equal(o->slots[0].page, page);
	cma_mm_bind_cpu(mm, 1);
	in_area = owner_fault_at(o, 1, area + 7, 8);
	cma_mm_bind_cpu(mm, 0);
	assert_non_null(in_area);
	if (!is_v6(mm)) {
		assert_int_equal(cma_alloc_contig_range(mm, area, area + 16, CMA_MIGRATE_CMA), -EBUSY);
		assert_ptr_equal(o->slots[1].page, in_area);
	} else {
		assert_int_equal(cma_alloc_contig_range(mm, area, area + 16, CMA_MIGRATE_CMA), 0);
		assert_ptr_not_equal(o->slots[1].page, in_area);
		cma_free_contig_range(mm, area, 16);
	}
	assert_true(owner_check(o) >= 0);
	owner_destroy(o);
	lru_add_drain_all(mm);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (3.8 "mm: use migrate_prep() instead of migrate_prep_local()",
 * __alloc_contig_migrate_range): the same page in another CPU's pagevec
 * is still -EBUSY on 3.7, which drains only its own CPU's; from 3.8 on
 * (4.14 here, the RPi and Android sources' kernel) migrate_prep empties
 * every CPU's first and the page moves: alloc_contig_range then calls
 * lru_add_drain_all twice (before migrating and after), where 3.7 calls
 * it once.
 */
static void alloc_contig_range_drains_every_cpu_first_from_38(void **state)
{
	static const char *const releases[] = { "3.7", "3.8", "4.14" };

	for (size_t i = 0; i < 3; i++) {
		struct cma_mm *mm = test_mm(.cpus = 2, .kernel = releases[i]);
		struct fake_owner *o = owner_create(mm, true, 1);
		struct cma_page *page = fault_in_other_cpu_pagevec(mm, o);
		unsigned long pfn = cma_page_to_pfn(mm, page);
		bool drains_all = i > 0;
		uint64_t before, after;
		assert_int_equal(cma_mm_counter(mm, "lru_add_drain_all", &before), 0);
		assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE),
				 drains_all ? 0 : -EBUSY);
		assert_int_equal(cma_mm_counter(mm, "lru_add_drain_all", &after), 0);
		if (drains_all) {
			assert_ptr_not_equal(o->slots[0].page, page);
			assert_int_equal(after - before, 2);
			cma_free_contig_range(mm, pfn, 1);
		} else {
			assert_ptr_equal(o->slots[0].page, page);
			assert_int_equal(after - before, 1);
		}
		assert_true(owner_check(o) >= 0);
		owner_destroy(o);
		lru_add_drain_all(mm);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (4.5 "mm/cma: always check which page caused allocation
 * failure", alloc_contig_range): a page whose owner refuses migration
 * makes the range -EBUSY on 4.4 and 4.5 alike, but 4.4 gives up as soon
 * as migration does, while 4.5 drains (a second lru_add_drain_all) and
 * lets test_pages_isolated find the busy page, logged as "PFNs busy".
 */
static void alloc_contig_range_busy_page_tested_from_45(void **state)
{
	static const char *const releases[] = { "4.4", "4.5" };

	for (size_t i = 0; i < 2; i++) {
		struct cma_mm *mm = test_mm(.kernel = releases[i]);
		struct fake_owner *o = owner_create(mm, false, 1);
		uint64_t before, after;
		unsigned long pfn;
		char *log;

		assert_non_null(owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 3));
		/* dirty: 3.8's reclaim_clean_pages_from_list leaves it to migration */
		owner_set_dirty(o, 0, true);
		lru_add_drain_all(mm);
		o->refuse_migrate = -EAGAIN;
		pfn = cma_page_to_pfn(mm, o->slots[0].page);
		assert_int_equal(cma_mm_counter(mm, "lru_add_drain_all", &before), 0);
		assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), -EBUSY);
		assert_int_equal(cma_mm_counter(mm, "lru_add_drain_all", &after), 0);
		assert_int_equal(after - before, i ? 2 : 1);
		log = dmesg(mm);
		/* 4.5 words it as 3.19 does ("mm: alloc_contig_range: demote pages busy message ...") */
		assert_int_equal(strstr(log, "PFNs busy") != NULL, i == 1);
		free(log);
		o->refuse_migrate = 0;
		owner_destroy(o);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect: alloc_contig_range migrates in MIGRATE_SYNC_LIGHT with v3.5's
 * trace line; 6.12 in MIGRATE_SYNC with MR_CONTIG_RANGE, its
 * mm_migrate_pages_start and its mm_migrate_pages TP_printk.
 */
static void alloc_contig_range_migrate_reason_by_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct fake_owner *o = owner_create(mm, false, 1);
	unsigned long pfn;

	assert_non_null(owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 3));
	owner_set_dirty(o, 0, true);	/* migrated, not reclaimed (3.8) */
	lru_add_drain_all(mm);
	pfn = cma_page_to_pfn(mm, o->slots[0].page);
	trace_start(mm);
	assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
	cma_mm_set_trace(mm, NULL, NULL);
	if (!is_v6(mm)) {
		assert_non_null(strstr(trace_buf, "mm_migrate_pages: nr_succeeded=1 nr_failed=0 mode=MIGRATE_SYNC\n"));
		assert_null(strstr(trace_buf, "reason="));
	} else {
		assert_non_null(strstr(trace_buf, "mm_migrate_pages_start: mode=MIGRATE_SYNC reason=contig_range\n"));
		assert_non_null(strstr(trace_buf, "mm_migrate_pages: nr_succeeded=1 nr_failed=0 nr_thp_succeeded=0 nr_thp_failed=0 nr_thp_split=0 nr_split=0 mode=MIGRATE_SYNC reason=contig_range\n"));
	}
	cma_free_contig_range(mm, pfn, 1);
	assert_true(owner_check(o) >= 0);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (seed 008's __reclaim_pages, removed by 3.8's "mm: cma: remove
 * watermark hacks"): a free CMA range taken with free memory just above
 * the low mark makes v3.5 raise the marks and reclaim; 6.12 takes it
 * without reclaiming a page.
 */
static void alloc_contig_range_watermark_bump_by_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .cpus = 2,
				    .cmdline = "cma=8M", .kernel = kernel);
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	unsigned long base = cma_area_base_pfn(cma), nr = mm->end_pfn - mm->base_pfn;
	struct zone *z = page_zone(mm, pfn_to_page(mm, base));
	struct fake_owner *o = owner_create(mm, false, nr);
	uint64_t reclaimed = 0;

	for (uint64_t i = 0; i < nr && zone_page_state(z, NR_FREE_PAGES) > low_wmark_pages(z) + 64; i++)
		assert_non_null(owner_fault(o, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1));
	/* empty the range: its owner pages go */
	for (uint64_t i = 0; i < nr; i++) {
		struct cma_page *p = o->slots[i].page;

		if (p && cma_page_to_pfn(mm, p) >= base && cma_page_to_pfn(mm, p) < base + 1024)
			owner_release(o, i);
	}
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	assert_true(zone_page_state(z, NR_FREE_PAGES) < low_wmark_pages(z) + 2 * 1024);
	assert_int_equal(cma_alloc_contig_range(mm, base, base + 1024, CMA_MIGRATE_CMA), 0);
	assert_int_equal(cma_mm_counter(mm, "pgsteal_direct_normal", &reclaimed), 0);
	if (is_v6(mm))
		assert_int_equal(reclaimed, 0);
	else
		assert_true(reclaimed > 0);
	assert_int_equal(z->min_cma_pages, 0);
	cma_free_contig_range(mm, base, 1024);
	assert_true(owner_check(o) >= 0);
	owner_destroy(o);
	lru_add_drain_all(mm);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (6.12 __cma_alloc): a failed cma_alloc is said in the log with
 * the area's free runs (cma_debug_show_areas), unless no_warn; its
 * cma_alloc_finish event carries the last pfn tried (-1: none). v3.5
 * says nothing and our trace gave pfn 0.
 */
static void cma_alloc_failure_message_by_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9,
				    .cmdline = "cma=8M", .kernel = kernel);
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	struct cma_page *p = cma_dma_alloc_from_contiguous(mm, NULL, 100, 0);
	char *log;

	assert_non_null(p);
	trace_start(mm);
	assert_null(cma_dma_alloc_from_contiguous(mm, NULL, 2000, 0));
	assert_null(cma_area_alloc(mm, cma, 1990, 0, true));
	cma_mm_set_trace(mm, NULL, NULL);
	log = dmesg(mm);
	if (is_v6(mm)) {
		assert_non_null(strstr(log, "cma: __cma_alloc: reserved: alloc failed, req-size: 2000 pages, ret: -12\n"
					    "cma: number of available pages: 1948@100=> 1948 free of 2048 total pages\n"));
		assert_null(strstr(log, "req-size: 1990"));
		assert_non_null(strstr(trace_buf, "cma_alloc_finish: name=reserved pfn=0xffffffffffffffff page=(nil) count=2000 align=0 errorno=-12\n"));
	} else {
		assert_null(strstr(log, "alloc failed"));
		assert_non_null(strstr(trace_buf, "cma_alloc_finish: name=reserved pfn=0x0 page=(nil) count=2000 align=0 errorno=-12\n"));
	}
	free(log);
	assert_true(cma_area_release(mm, cma, p, 100));
	assert_false(cma_area_release(mm, cma, p, 100));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- item 5: areas (cma_generic) ---- */

/*
 * Expect (6.12 early_cma and dma_contiguous_reserve): cma=16M@32M is a
 * fixed default area at 32 MiB, reported in 6.12's words;
 * cma=8M@16M-32M is the highest fit in [16 MiB, 32 MiB). v3.5 reads only
 * a size: both are malformed (-EINVAL at create).
 */
static void cma_cmdline_base_limit_by_profile(const char *kernel, unsigned k)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 9,
				     .cmdline = "cma=16M@32M", .kernel = kernel, .quiet = true };
	struct cma_mm *mm = NULL;
	char *log;

	if (!strcmp(kernel, "3.5")) {
		assert_int_equal(cma_mm_create(&cfg, &mm), -EINVAL);
		cfg.cmdline = "cma=8M@16M-32M";
		assert_int_equal(cma_mm_create(&cfg, &mm), -EINVAL);
		return;
	}
	mm = test_boot(&cfg);
	assert_int_equal(cma_area_base_pfn(cma_dev_get_cma_area(mm, NULL)), (32 * MiB) >> 12);
	assert_int_equal(cma_area_count(cma_dev_get_cma_area(mm, NULL)), (16 * MiB) >> 12);
	log = dmesg(mm);
	assert_non_null(strstr(log, "cma: Reserved 16 MiB at 0x0000000002000000 on node -1\n"));
	free(log);
	cma_mm_destroy(mm);

	cfg.cmdline = "cma=8M@16M-32M";
	mm = test_boot(&cfg);
	assert_int_equal(cma_area_base_pfn(cma_dev_get_cma_area(mm, NULL)), (24 * MiB) >> 12);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect the declaration rules of each kernel: v3.5 has 1 + CONFIG_CMA_AREAS
 * slots, aligns a base up to 2^MAX_ORDER pages and says -ENOMEM for an
 * area larger than memory; 6.12 has CONFIG_CMA_AREAS slots, refuses an
 * unaligned fixed base and an area past the limit (-EINVAL), each with
 * its message, and aligns to a pageblock.
 */
static void cma_declare_rules_by_profile(const char *kernel, unsigned k)
{
	struct cma_bank bank = { 0, 256 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 9,
				     .cmdline = "cma=0", .kconfig = "CONFIG_CMA_AREAS=2\n",
				     .kernel = kernel, .quiet = true };
	struct cma_mm *mm = NULL;
	bool v6 = !strcmp(kernel, "6.12");
	char *log;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(cma_dma_declare_contiguous(mm, NULL, 512 * MiB, 0, 0), v6 ? -EINVAL : -ENOMEM);
	/* a base 1 MiB past a 2 MiB pageblock */
	assert_int_equal(cma_dma_declare_contiguous(mm, NULL, 2 * MiB, 97 * MiB, 0), v6 ? -EINVAL : 0);
	assert_int_equal(cma_dma_declare_contiguous(mm, NULL, 2 * MiB, 200 * MiB, 0), 0);
	assert_int_equal(cma_dma_declare_contiguous(mm, NULL, 2 * MiB, 0, 0), 0);
	assert_int_equal(cma_dma_declare_contiguous(mm, NULL, 2 * MiB, 0, 0), -ENOSPC);
	log = dmesg(mm);
	if (v6) {
		assert_non_null(strstr(log, "cma: Size (0x0000000020000000) of region at 0x0000000000000000 exceeds limit (0x0000000010000000)\n"
					    "cma: Failed to reserve 512 MiB on node -1\n"));
		assert_non_null(strstr(log, "cma: Region at 0x0000000006100000 must be aligned to 0x0000000000200000 bytes\n"));
		assert_non_null(strstr(log, "cma: Reserved 2 MiB at 0x000000000c800000 on node -1\n"));
	} else {
		assert_non_null(strstr(log, "cma: CMA: reserved 8 MiB at 06800000\n"));
	}
	assert_non_null(strstr(log, "cma: Not enough slots for CMA reserved regions!\n"));
	free(log);
	assert_int_equal(cma_mm_boot(mm), 0);
	/* the last area declared with no device is the default: 2 MiB, or 8 MiB aligned */
	assert_int_equal(cma_area_count(cma_dev_get_cma_area(mm, NULL)), v6 ? 512 : 2048);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: with the default area at pfn 0x1c0 (aligned to its 64 pages of
 * MAX_ORDER - 1, not to 256), a one-page request aligned to order 8 gets
 * the area's first page up to 3.18 (the bitmap index is aligned); from
 * 3.19 the index is offset by the base's distance up to the next
 * boundary, 0x40, which gives pfn 0x280, off the alignment (the request
 * is four times as aligned as the base); from 4.13 by its distance from
 * the boundary below, 0xc0, which gives 0x200.
 */
static void cma_alloc_alignment_by_release(const char *kernel, unsigned k)
{
	static const unsigned long want[] = { 0x1c0, 0x280, 0x280, 0x200, 0x200 };
	struct cma_mm *mm = test_mm_early(.size = 16 * MiB, .max_order = 7, .pageblock_order = 5,
					  .kernel = kernel, .cmdline = "cma=0");
	struct cma_page *p;

	assert_int_equal(cma_dma_declare_contiguous(mm, NULL, 2 * MiB, 0x1c0ull << 12, 0), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_int_equal(cma_area_base_pfn(cma_dev_get_cma_area(mm, NULL)), 0x1c0);
	p = cma_dma_alloc_from_contiguous(mm, NULL, 1, 8);
	assert_non_null(p);
	expect_kernel(kernel, "the pfn of an order-8 aligned page", (long)want[k],
		      (long)cma_page_to_pfn(mm, p));
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 1));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (3.17 mm/cma.c): cma_declare_contiguous_nid makes a named area
 * with one bitmap bit per 2^order_per_bit pages, so 3 pages take 4; no
 * device uses it. v3.5 has no such call (-ENOSYS).
 */
static void cma_declare_contiguous_nid_by_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm_early(.pageblock_order = 9, .kernel = kernel);
	struct cma *cma = NULL;
	struct cma_page *p, *q;
	char *used;
	int ret;

	if (!is_v6(mm)) {
		assert_int_equal(cma_declare_contiguous_nid(mm, 0, 4 * MiB, 0, 0, 2, false, "heap",
							    &cma, -1), -ENOSYS);
		assert_null(cma);
		cma_mm_destroy(mm);
		return;
	}
	assert_int_equal(cma_declare_contiguous_nid(mm, 0, 4 * MiB, 0, 0, 2, false, "heap", &cma, -1), 0);
	assert_non_null(cma);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_null(cma_dev_get_cma_area(mm, NULL));
	assert_string_equal(cma_area_name(cma), "heap");
	p = cma_area_alloc(mm, cma, 3, 0, false);
	q = cma_area_alloc(mm, cma, 1, 0, false);
	assert_non_null(p);
	assert_non_null(q);
	assert_int_equal(cma_page_to_pfn(mm, q), cma_page_to_pfn(mm, p) + 4);
	used = proc(mm, "debug/cma/heap/used", &ret);
	assert_string_equal(used, "8\n");
	free(used);
	used = proc(mm, "debug/cma/heap/order_per_bit", &ret);
	assert_string_equal(used, "2\n");
	free(used);
	assert_true(cma_area_release(mm, cma, p, 3));
	assert_true(cma_area_release(mm, cma, q, 1));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (6.12 mm/cma.c cma_init_reserved_mem, as rmem_cma_setup calls
 * it): an area only over memory already reserved and aligned to a
 * pageblock, else -EINVAL; v3.5 has no such call (-ENOSYS).
 */
static void cma_init_reserved_mem_by_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm_early(.size = 256 * MiB, .pageblock_order = 9, .kernel = kernel, .cmdline = "cma=0");
	struct cma *cma = NULL;

	assert_int_equal(cma_memblock_reserve(mm, 64 * MiB, 8 * MiB), 0);
	if (!is_v6(mm)) {
		assert_int_equal(cma_init_reserved_mem(mm, 64 * MiB, 8 * MiB, 0, "pool", &cma), -ENOSYS);
		cma_mm_destroy(mm);
		return;
	}
	/* not reserved; not pageblock-aligned; a size of 0 */
	assert_int_equal(cma_init_reserved_mem(mm, 128 * MiB, 8 * MiB, 0, "pool", &cma), -EINVAL);
	assert_int_equal(cma_init_reserved_mem(mm, 65 * MiB, 4 * MiB, 0, "pool", &cma), -EINVAL);
	assert_int_equal(cma_init_reserved_mem(mm, 64 * MiB, 0, 0, "pool", &cma), -EINVAL);
	assert_null(cma);
	assert_int_equal(cma_init_reserved_mem(mm, 64 * MiB, 8 * MiB, 0, "pool", &cma), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_string_equal(cma_area_name(cma), "pool");
	assert_int_equal(cma_area_base_pfn(cma), (64 * MiB) >> 12);
	assert_int_equal(cma_area_count(cma), (8 * MiB) >> 12);
	assert_null(cma_dev_get_cma_area(mm, NULL));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (6.12 kernel/dma/contiguous.c): an area made the default early,
 * as rmem_cma_setup does for linux,cma-default, stops
 * dma_contiguous_reserve from reserving another; a device's area never
 * becomes the default (dev_set_cma_area sets dev->cma_area only).
 * v3.5 reserves the cma= area anyway and takes it as the default.
 */
static void dev_set_cma_area_default_by_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm_early(.size = 256 * MiB, .pageblock_order = 9, .kernel = kernel, .cmdline = "cma=16M");
	struct cma_device *dev = cma_device_create(mm, "vpu", ~0ull);
	struct cma *dt = NULL, *own = NULL;

	if (!is_v6(mm)) {
		struct cma *area;

		assert_int_equal(cma_mm_boot(mm), 0);
		area = cma_dev_get_cma_area(mm, NULL);
		cma_dev_set_cma_area(mm, NULL, NULL);
		cma_dev_set_cma_area(mm, dev, area);
		/* v23: with no default, the device's area became it */
		assert_ptr_equal(cma_dev_get_cma_area(mm, NULL), area);
		cma_mm_destroy(mm);
		return;
	}
	assert_int_equal(cma_memblock_reserve(mm, 64 * MiB, 8 * MiB), 0);
	assert_int_equal(cma_init_reserved_mem(mm, 64 * MiB, 8 * MiB, 0, "linux,cma", &dt), 0);
	cma_dev_set_cma_area(mm, NULL, dt);
	assert_int_equal(cma_declare_contiguous_nid(mm, 0, 4 * MiB, 0, 0, 0, false, "vpu", &own, -1), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	/* no "reserved" area of 16 MiB: the tree's is the default */
	assert_ptr_equal(cma_dev_get_cma_area(mm, NULL), dt);
	assert_int_equal(cma_area_count(dt), (8 * MiB) >> 12);
	cma_dev_set_cma_area(mm, NULL, NULL);
	cma_dev_set_cma_area(mm, dev, own);
	assert_null(cma_dev_get_cma_area(mm, NULL));
	assert_ptr_equal(cma_dev_get_cma_area(mm, dev), own);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- item 6: statistics (cma_stats) ---- */

/*
 * Expect (5.14 mm/cma_sysfs.c, 4.0 mm/cma_debug.c): under 6.12 an area's
 * sysfs and debugfs files read as the kernel prints them, and an unknown
 * one is -ENOENT naming the areas; v3.5 has none of them (-ENOENT).
 */
static void cma_area_files_by_profile(const char *kernel, unsigned k)
{
	static const char *const names[] = {
		"sys/kernel/mm/cma/reserved/alloc_pages_success",
		"sys/kernel/mm/cma/reserved/alloc_pages_fail",
		"sys/kernel/mm/cma/reserved/release_pages_success",
		"debug/cma/reserved/base_pfn", "debug/cma/reserved/count",
		"debug/cma/reserved/order_per_bit", "debug/cma/reserved/used",
		"debug/cma/reserved/maxchunk", "debug/cma/reserved/bitmap",
	};
	char expect_bitmap[2048];

	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9,
				    .cmdline = "cma=8M", .kernel = kernel);
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	struct cma_page *p = cma_dma_alloc_from_contiguous(mm, NULL, 40, 0);
	char base[32];
	size_t n = 0;
	char *log;
	int ret;

	assert_non_null(p);
	assert_null(cma_dma_alloc_from_contiguous(mm, NULL, 2040, 0));
	if (!is_v6(mm)) {
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			assert_null(proc(mm, names[i], &ret));
			assert_int_equal(ret, -ENOENT);
		}
		cma_dma_release_from_contiguous(mm, NULL, p, 40);
		cma_mm_destroy(mm);
		return;
	}
	/* 2048 pages: 64 words, bits 0..39 set */
	n += (size_t)snprintf(expect_bitmap + n, sizeof(expect_bitmap) - n, "4294967295 255");
	for (int w = 2; w < 64; w++)
		n += (size_t)snprintf(expect_bitmap + n, sizeof(expect_bitmap) - n, " 0");
	snprintf(expect_bitmap + n, sizeof(expect_bitmap) - n, "\n");
	snprintf(base, sizeof(base), "%lu\n", cma_area_base_pfn(cma));
	{
		const char *const expect[] = {
			"40\n", "2040\n", "0\n", base, "2048\n", "0\n", "40\n", "2008\n", expect_bitmap,
		};

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			char *text = proc(mm, names[i], &ret);

			assert_int_equal(ret, 0);
			if (strcmp(text, expect[i]))
				fail_msg("%s: expected '%s', found '%s'", names[i], expect[i], text);
			free(text);
		}
	}
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 40));
	log = proc(mm, "sys/kernel/mm/cma/reserved/release_pages_success", &ret);
	assert_string_equal(log, "40\n");
	free(log);
	assert_null(proc(mm, "sys/kernel/mm/cma/camera/alloc_pages_success", &ret));
	assert_int_equal(ret, -ENOENT);
	assert_null(proc(mm, "debug/cma/reserved/alloc", &ret));
	assert_int_equal(ret, -ENOENT);
	log = dmesg(mm);
	assert_non_null(strstr(log, "cma_write_proc: no file 'debug/cma/reserved/alloc': areas: reserved; files: base_pfn, count, order_per_bit, used, maxchunk, bitmap\n"));
	free(log);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect cma_mm_verify to know each profile's area rules: an area of
 * 1536 pages (not 2^MAX_ORDER-aligned) or with order_per_bit is wrong
 * only under 3.5; a zone's marks bumped by min_cma_pages only under 6.12
 * (no watermark bump since 3.8).
 */
static void cma_mm_verify_area_rules_by_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9,
				    .cmdline = "cma=8M", .kernel = kernel);
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	struct zone *z = page_zone(mm, pfn_to_page(mm, cma->base_pfn));
	int broken35 = is_v6(mm) ? 0 : -EUCLEAN, broken6 = is_v6(mm) ? -EUCLEAN : 0;

	assert_int_equal(cma->count, 2048);
	cma->count = 1536;
	assert_int_equal(cma_mm_verify(mm), broken35);
	cma->count = 2048;
	cma->order_per_bit = 1;
	assert_int_equal(cma_mm_verify(mm), broken35);
	cma->order_per_bit = 0;
	z->min_cma_pages = 1;
	assert_int_equal(cma_mm_verify(mm), broken6);
	z->min_cma_pages = 0;
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (alloc_contig_pages, 6.12's mm/page_alloc.c): "3.5" has no such
 * function, so NULL with ENOSYS and nothing taken; "6.12" takes the
 * first range of the size, aligned to it, and gives it back whole.
 */
static void alloc_contig_pages_by_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	const unsigned long nr = 2048;
	struct cma_page *page;

	errno = 0;
	page = cma_alloc_contig_pages(mm, nr, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, -1);
	if (!is_v6(mm)) {
		assert_null(page);
		assert_int_equal(errno, ENOSYS);
	} else {
		unsigned long pfn;

		assert_non_null(page);
		pfn = cma_page_to_pfn(mm, page);
		assert_int_equal(pfn % nr, 0);
		for (unsigned long i = 0; i < nr; i++)
			assert_int_equal(page_count(cma_pfn_to_page(mm, pfn + i)), 1);
		cma_free_contig_range(mm, pfn, nr);
	}
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (alloc_contig_pages): a range holding a page that cannot move
 * (one taken by alloc_contig_range, not on any LRU) fails in
 * alloc_contig_range, and the search goes on to the next aligned range;
 * the page in use that the next range holds is migrated out of it.
 */
static void alloc_contig_pages_past_unmovable_page(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = "6.12");
	struct fake_owner *o = owner_create(mm, true, 1);
	const unsigned long nr = 2048;
	unsigned long first, got;
	struct cma_page *page;

	page = cma_alloc_contig_pages(mm, nr, CMA_GFP_HIGHUSER_MOVABLE, -1);
	assert_non_null(page);
	first = cma_page_to_pfn(mm, page);
	cma_free_contig_range(mm, first, nr);
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	/* a pinned-down page in the first range, a movable one in the second */
	assert_int_equal(cma_alloc_contig_range(mm, first + 700, first + 701, CMA_MIGRATE_MOVABLE), 0);
	page = owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 7);
	assert_non_null(page);
	if (cma_page_to_pfn(mm, page) / nr * nr != first + nr) {
		/* put the movable page in the second range: move it there by taking its pfn */
		unsigned long want = first + nr + 100, at = cma_page_to_pfn(mm, page);

		assert_int_equal(cma_alloc_contig_range(mm, want, want + 1, CMA_MIGRATE_MOVABLE), 0);
		cma_free_contig_range(mm, want, 1);
		cma_drain_all_pages(mm);
		assert_int_equal(cma_alloc_contig_range(mm, at, at + 1, CMA_MIGRATE_MOVABLE), 0);
		cma_free_contig_range(mm, at, 1);
	}
	page = cma_alloc_contig_pages(mm, nr, CMA_GFP_HIGHUSER_MOVABLE, -1);
	assert_non_null(page);
	got = cma_page_to_pfn(mm, page);
	assert_int_equal(got % nr, 0);
	assert_true(got > first);
	assert_true(cma_page_to_pfn(mm, o->slots[0].page) < got ||
		    cma_page_to_pfn(mm, o->slots[0].page) >= got + nr);
	assert_true(owner_check(o) >= 0);
	cma_free_contig_range(mm, got, nr);
	cma_free_contig_range(mm, first + 700, 1);
	owner_destroy(o);
	lru_add_drain_all(mm);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (alloc_contig_pages): when every aligned range holds a page that
 * cannot move, NULL with ENOMEM, and the machine as it was: free pages
 * and pageblock types unchanged, nothing left isolated.
 */
static void alloc_contig_pages_fails_cleanly(void **state)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = "6.12");
	const unsigned long nr = 4096;
	unsigned long start, end;
	uint64_t free_before, free_after;
	struct cma_page *page;

	end = (64 * MiB) >> 12;
	for (start = 0; start < end; start += nr)
		assert_int_equal(cma_alloc_contig_range(mm, start + nr / 2, start + nr / 2 + 1,
							CMA_MIGRATE_MOVABLE), 0);
	cma_drain_all_pages(mm);
	assert_int_equal(cma_mm_counter(mm, "nr_free_pages", &free_before), 0);
	errno = 0;
	page = cma_alloc_contig_pages(mm, nr, CMA_GFP_HIGHUSER_MOVABLE, -1);
	assert_null(page);
	assert_int_equal(errno, ENOMEM);
	cma_drain_all_pages(mm);
	assert_int_equal(cma_mm_counter(mm, "nr_free_pages", &free_after), 0);
	assert_int_equal(free_after, free_before);
	for (unsigned long pfn = 0; pfn < end; pfn += 512)
		assert_int_not_equal(cma_pageblock_migratetype(mm, pfn), CMA_MIGRATE_ISOLATE);
	for (start = 0; start < end; start += nr)
		cma_free_contig_range(mm, start + nr / 2, 1);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (5.10 "mm/page_alloc: place pages to tail in
 * __free_pages_core()"): 6.12 queues the memory freed at boot in address
 * order, so a fresh machine hands out its lowest free blocks first; v3.5
 * puts each boot block at the head, so the highest come first.
 */
static void boot_free_order_by_profile(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	const unsigned long half = (64 * MiB >> 12) / 2;
	/* order 10: the boot's own blocks, not the smaller remainder at the top */
	struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 10);
	unsigned long pfn;

	assert_non_null(page);
	pfn = cma_page_to_pfn(mm, page);
	if (is_v6(mm))
		assert_true(pfn < half);
	else
		assert_true(pfn >= half);
	cma_free_pages(mm, page, 10);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_contig_range_drains_every_cpu_first_from_38),
		cmocka_unit_test(alloc_contig_range_busy_page_tested_from_45),
		cmocka_unit_test(alloc_contig_pages_past_unmovable_page),
		cmocka_unit_test(alloc_contig_pages_fails_cleanly),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(alloc_contig_range_granularity_by_profile, kernels),
		test_kernel_case(alloc_contig_range_other_cpu_pagevec_by_profile, kernels),
		test_kernel_case(alloc_contig_range_migrate_reason_by_profile, kernels),
		test_kernel_case(alloc_contig_range_watermark_bump_by_profile, kernels),
		test_kernel_case(cma_alloc_failure_message_by_profile, kernels),
		test_kernel_case(cma_cmdline_base_limit_by_profile, kernels),
		test_kernel_case(cma_declare_rules_by_profile, kernels),
		test_kernel_case(cma_alloc_alignment_by_release, around_cma_align),
		test_kernel_case(cma_declare_contiguous_nid_by_profile, kernels),
		test_kernel_case(cma_init_reserved_mem_by_profile, kernels),
		test_kernel_case(dev_set_cma_area_default_by_profile, kernels),
		test_kernel_case(cma_area_files_by_profile, kernels),
		test_kernel_case(cma_mm_verify_area_rules_by_profile, kernels),
		test_kernel_case(alloc_contig_pages_by_profile, kernels),
		test_kernel_case(boot_free_order_by_profile, kernels),
	};

	return cmocka_run_group_tests_name("cma under both profiles", tests, NULL, NULL) +
	       test_run_kernel_cases("cma (per kernel)", kernel_cases);
}
