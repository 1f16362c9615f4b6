// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_contig_range and cma_alloc release by release (issue 27, the
 * medium items): which pageblocks a MOVABLE range may cover (3.16,
 * contig_any_movable), how cma_alloc and cma_release lock (3.16,
 * cma_bitmap_lock) and what a search that found only busy ranges reports.
 * Each test runs at the releases on both sides of the boundary, the
 * kernel in its failure messages.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "helpers.h"
#include "owners.h"

static void expect(const char *kernel, const char *what, long want, long got)
{
	if (want != got)
		fail_msg("kernel %s: %s: expected %ld, got %ld", kernel, what, want, got);
}

/*
 * Is release @kernel @first or later? The expectations are stated by
 * release, not read from the profile table, so that they pin the date.
 */
static bool since(const char *kernel, const char *first)
{
	unsigned km, kn, fm, fn;

	assert_int_equal(sscanf(kernel, "%u.%u", &km, &kn), 2);
	assert_int_equal(sscanf(first, "%u.%u", &fm, &fn), 2);
	return km * 100 + kn >= fm * 100 + fn;
}

/* ---- which pageblocks a MOVABLE range covers ---- */

static const char *const any_range_kernels[] = { "3.5", "3.15", "3.16", "6.12" };

/*
 * Expect: alloc_contig_range(MOVABLE) over an UNMOVABLE pageblock whose
 * pages are free and a RECLAIMABLE one holding an owner's page is
 * refused (-EINVAL, nothing changed) up to 3.15; from 3.16 (gigantic
 * pages' alloc_contig_range over any free range) it takes the range,
 * migrating the page out, and the blocks come back MOVABLE.
 */
static void contig_range_over_unmovable_blocks_by_release(const char *k, unsigned i)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = k);
	unsigned long block = (40 * MiB) >> mm->page_shift, moved;
	struct fake_owner *o = owner_create(mm, true, 1);
	bool any = since(k, "3.16");
	int ret;

	assert_int_equal(cma_set_pageblock_migratetype(mm, block, CMA_MIGRATE_UNMOVABLE), 0);
	assert_int_equal(cma_set_pageblock_migratetype(mm, block + 512, CMA_MIGRATE_RECLAIMABLE), 0);
	assert_non_null(owner_fault_at(o, 0, block + 600, 1));
	lru_add_drain_all(mm);	/* on the LRU: from a pagevec, isolation refuses it */
	ret = cma_alloc_contig_range(mm, block, block + 1024, CMA_MIGRATE_MOVABLE);
	expect(k, "alloc_contig_range over UNMOVABLE and RECLAIMABLE blocks", any ? 0 : -EINVAL, ret);
	moved = cma_page_to_pfn(mm, o->slots[0].page);
	if (any && moved >= block && moved < block + 1024)
		fail_msg("kernel %s: the owner's page is still in the range, at pfn %#lx", k, moved);
	if (!ret)
		cma_free_contig_range(mm, block, 1024);
	expect(k, "the first block's type after", any ? CMA_MIGRATE_MOVABLE : CMA_MIGRATE_UNMOVABLE,
	       cma_pageblock_migratetype(mm, block));
	expect(k, "the second block's type after",
	       any ? CMA_MIGRATE_MOVABLE : CMA_MIGRATE_RECLAIMABLE,
	       cma_pageblock_migratetype(mm, block + 512));
	assert_true(owner_check(o) >= 0);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- cma_alloc's locking ---- */

/*
 * An owner whose page's migration waits (up to a second) for the test
 * to say that a release elsewhere in the area returned, and records
 * whether it had.
 */
struct waiting_owner {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool migrating, released, released_before_migrate;
	struct cma_page *page;
};

static int waiting_migrate(void *owner, uint64_t index, struct cma_page *from, struct cma_page *to)
{
	struct waiting_owner *w = owner;
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 1;
	pthread_mutex_lock(&w->lock);
	w->migrating = true;
	pthread_cond_broadcast(&w->cond);
	while (!w->released && pthread_cond_timedwait(&w->cond, &w->lock, &deadline) == 0)
		;
	w->released_before_migrate = w->released;
	w->page = to;
	pthread_mutex_unlock(&w->lock);
	return 0;
}

static int waiting_refuse(void *owner, uint64_t index, struct cma_page *page)
{
	return -EBUSY;
}

static const struct cma_owner_ops waiting_ops = {
	.migrate = waiting_migrate, .reclaim = waiting_refuse, .writeback = waiting_refuse, .anon = true,
};

struct area_alloc {
	struct cma_mm *mm;
	struct cma *cma;
	struct cma_page *page;
};

static void *alloc_second_range(void *arg)
{
	struct area_alloc *a = arg;

	a->page = cma_area_alloc(a->mm, a->cma, 512, 9, false);
	return NULL;
}

static const char *const bitmap_lock_kernels[] = { "3.5", "3.15", "3.16", "6.12" };

/*
 * Expect: with one thread's cma_alloc migrating a page out of the second
 * range of an area (its owner waiting for the release), a cma_release
 * of the first range returns at once from 3.16 (cma_mutex is held
 * around alloc_contig_range only, the release does not take it); up to
 * 3.15 it waits for the allocation, which goes on alone after the
 * owner's second. Both end with the second range allocated.
 */
static void cma_release_during_alloc_by_release(const char *k, unsigned i)
{
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .cmdline = "cma=8M",
				    .kernel = k);
	struct waiting_owner w = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };
	struct area_alloc a = { .mm = mm, .cma = cma_dev_get_cma_area(mm, NULL) };
	unsigned long base = cma_area_base_pfn(a.cma);
	struct cma_page *first = cma_area_alloc(mm, a.cma, 512, 9, false);
	pthread_t t;

	assert_int_equal(cma_page_to_pfn(mm, first), base);
	assert_non_null(cma_alloc_movable_at(mm, base + 512 + 10, 0, &waiting_ops, &w, 0));
	assert_int_equal(pthread_create(&t, NULL, alloc_second_range, &a), 0);
	pthread_mutex_lock(&w.lock);
	while (!w.migrating)
		pthread_cond_wait(&w.cond, &w.lock);
	pthread_mutex_unlock(&w.lock);
	assert_true(cma_area_release(mm, a.cma, first, 512));
	pthread_mutex_lock(&w.lock);
	w.released = true;
	pthread_cond_broadcast(&w.cond);
	pthread_mutex_unlock(&w.lock);
	test_join_or_fail(mm, t, "cma_alloc of the second range", TEST_JOIN_DEADLINE);
	expect(k, "the release returned while the allocation migrated",
	       since(k, "3.16"), w.released_before_migrate);
	expect(k, "the second range's first pfn", (long)(base + 512),
	       a.page ? (long)cma_page_to_pfn(mm, a.page) : -1);
	assert_true(cma_area_release(mm, a.cma, a.page, 512));
	cma_free_pages(mm, w.page, 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* The trace function of a test that wants one event: its last line, in @ctx (256 bytes). */
static void keep_last_line(void *ctx, const char *event, const char *line)
{
	snprintf(ctx, 256, "%s", line);
}

static const char *const busy_error_kernels[] = { "3.5", "3.15", "3.16", "4.10", "4.11", "6.12" };

/*
 * Expect: when both 1024-page candidates of an 8 MiB area hold a page
 * its owner will not let go, cma_alloc fails; its cma_alloc_finish event
 * carries -ENOMEM up to 3.15, and from 3.16 the last alloc_contig_range's
 * -EBUSY, which the failure message (cma_alloc_report, 4.11) shows too:
 * "ret: -16".
 */
static void cma_alloc_busy_ranges_error_by_release(const char *k, unsigned i)
{
	struct cma_mm *mm = test_mm(.dma_end = 16 * MiB, .pageblock_order = 9, .cmdline = "cma=8M",
				    .kernel = k);
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	unsigned long base = cma_area_base_pfn(cma);
	struct fake_owner *o = owner_create(mm, true, 2);
	int want = since(k, "3.16") ? -EBUSY : -ENOMEM;
	char line[160], finish[256] = "", *log;

	assert_non_null(owner_fault_at(o, 0, base + 100, 1));
	assert_non_null(owner_fault_at(o, 1, base + 1024 + 100, 2));
	o->refuse_migrate = -EAGAIN;
	assert_int_equal(cma_mm_set_trace_events(mm, "cma_alloc_finish"), 0);
	cma_mm_set_trace(mm, keep_last_line, finish);
	assert_null(cma_area_alloc(mm, cma, 1024, 10, false));
	cma_mm_set_trace(mm, NULL, NULL);
	snprintf(line, sizeof(line), "count=1024 align=10 errorno=%d", want);
	if (!strstr(finish, line))
		fail_msg("kernel %s: expected \"%s\" in cma_alloc_finish, got \"%s\"", k, line, finish);
	log = test_dmesg(mm);
	snprintf(line, sizeof(line), "alloc failed, req-size: 1024 pages, ret: %d\n", want);
	if (!strstr(log, line) != !since(k, "4.11"))
		fail_msg("kernel %s: \"%s\" expected %s the log:\n%s", k, line,
			 since(k, "4.11") ? "in" : "not in", log);
	free(log);
	o->refuse_migrate = 0;
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(contig_range_over_unmovable_blocks_by_release, any_range_kernels),
		test_kernel_case(cma_release_during_alloc_by_release, bitmap_lock_kernels),
		test_kernel_case(cma_alloc_busy_ranges_error_by_release, busy_error_kernels),
	};

	return test_run_kernel_cases("contig_profiles (per kernel)", kernel_cases);
}
