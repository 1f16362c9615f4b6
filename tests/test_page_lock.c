// SPDX-License-Identifier: GPL-2.0
/*
 * Reads in flight: an owner may say a page is locked for the read that
 * brought it in (its locked op), as the kernel's page is from
 * add_to_page_cache_lru or the swap cache to the read's end_io. Migration
 * meets it as __unmap_and_move's trylock_page does (v3.5: lock_page only
 * in MIGRATE_SYNC's forced passes; 6.12's migrate_folio_unmap at its
 * first synchronous try); shrink_page_list keeps it.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

/* 6.2 and 6.3: either side of migrate_wait_at_once (2ef7dbb26990) */
static const char *const kernels[] = { "3.5", "6.2", "6.3", "6.12" };

#define WAIT_NS 180000ull	/* what the owner says the wait for its read took */

static bool reading;		/* the read of the owner's pages is in flight */
static unsigned long waits, targets;

static bool read_locked(void *owner, uint64_t idx, const struct cma_page *page)
{
	return reading;
}

/* The storage finishes the read when asked: the page is unlocked, the wait reported. */
static uint64_t read_done(void *owner, uint64_t idx, struct cma_page *page)
{
	waits++;
	reading = false;
	return WAIT_NS;
}

/* An owner that reports a wait but leaves the read running. */
static uint64_t read_left_running(void *owner, uint64_t idx, struct cma_page *page)
{
	waits++;
	return WAIT_NS;
}

static struct cma_owner_ops file_ops_with(uint64_t (*wait)(void *, uint64_t, struct cma_page *))
{
	struct cma_owner_ops ops = fake_file_ops;

	ops.locked = read_locked;
	ops.wait_locked = wait;
	return ops;
}

static struct cma_page *count_target(struct cma_mm *mm, struct cma_page *page, unsigned long priv)
{
	targets++;
	return cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, page_order(page));
}

static char trace_buf[1 << 12];
static size_t trace_len;

static void trace_collect(void *ctx, const char *event, const char *line)
{
	if (strcmp(event, "cma_lock_page") || trace_len >= sizeof(trace_buf))
		return;
	trace_len += (size_t)snprintf(trace_buf + trace_len, sizeof(trace_buf) - trace_len, "%s\n", line);
}

/* cma_alloc_contig_range() of the one page at @pfn, its cma_lock_page events in trace_buf. */
static int contig_traced(struct cma_mm *mm, unsigned long pfn)
{
	int rc;

	trace_len = 0;
	trace_buf[0] = '\0';
	cma_mm_set_trace(mm, trace_collect, NULL);
	rc = cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE);
	cma_mm_set_trace(mm, NULL, NULL);
	return rc;
}

/* A clean file page of @o's slot 0 on the LRU, its read in flight. */
static struct cma_page *page_being_read(struct cma_mm *mm, struct fake_owner *o,
					const struct cma_owner_ops *ops)
{
	struct cma_page *page = owner_fault_ops(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 17, ops);

	assert_non_null(page);
	lru_add_drain_all(mm);
	assert_true(page_test(page, PG_lru));
	reading = true;
	waits = targets = 0;
	return page;
}

/* The same, isolated onto @list for migrate_pages. */
static void isolate_being_read(struct cma_mm *mm, struct fake_owner *o,
			       const struct cma_owner_ops *ops, struct page_list *list)
{
	struct cma_page *page = page_being_read(mm, o, ops);

	page_list_init(list);
	assert_int_equal(isolate_lru_page(mm, page), 0);
	page_list_add(mm, list, page);
}

/*
 * Expect (__alloc_contig_migrate_range in MIGRATE_SYNC, both kernels): a
 * range holding a page locked for its read is allocated after waiting
 * for the read; the wait is traced with its time, the bytes moved.
 */
static void alloc_contig_range_waits_for_the_read(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(read_done);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct cma_page *page = page_being_read(mm, o, &ops);
	unsigned long pfn = cma_page_to_pfn(mm, page);

	assert_int_equal(contig_traced(mm, pfn), 0);
	assert_int_equal(waits, 1);
	assert_non_null(strstr(trace_buf, "waited_ns=180000\n"));
	assert_ptr_not_equal(o->slots[0].page, page);
	assert_int_equal(owner_check(o), 1);
	assert_verify(mm);
	cma_free_contig_range(mm, pfn, 1);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (v3.5's unmap_and_move(..., pass > 2, ...): trylock_page fails,
 * !force gives -EAGAIN, a target each time): MIGRATE_SYNC passes over
 * the locked page three times and sleeps in lock_page on the fourth, up
 * to 6.2; from 6.3 (no force) it sleeps at the first synchronous try.
 */
static void migrate_pages_sync_locks_when_forced(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(read_done);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct page_list list;

	isolate_being_read(mm, o, &ops, &list);
	assert_int_equal(migrate_pages(mm, &list, count_target, 0, MIGRATE_SYNC), 0);
	assert_int_equal(waits, 1);
	assert_int_equal(targets, k < 2 ? 4 : 1);
	assert_true(page_list_empty(&list));
	assert_int_equal(owner_check(o), 1);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (MIGRATE_ASYNC gives up at trylock_page; MIGRATE_SYNC_LIGHT does
 * for direct compaction under PF_MEMALLOC, and in 6.12 for a page not
 * uptodate): the locked page is retried every pass and left on the
 * list, never waited for.
 */
static void migrate_pages_async_and_light_pass_over_it(const char *kernel, unsigned k)
{
	static const enum migrate_mode modes[] = { MIGRATE_ASYNC, MIGRATE_SYNC_LIGHT };
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(read_done);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct cma_page *page = page_being_read(mm, o, &ops);

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct page_list list;

		targets = 0;
		page_list_init(&list);
		assert_int_equal(isolate_lru_page(mm, page), 0);
		page_list_add(mm, &list, page);
		assert_int_equal(migrate_pages(mm, &list, count_target, 0, modes[m]), 1);
		assert_int_equal(waits, 0);
		assert_int_equal(targets, 10);
		assert_ptr_equal(page_list_first(mm, &list), page);
		assert_ptr_equal(o->slots[0].page, page);
		putback_lru_pages(mm, &list);
		lru_add_drain_all(mm);
		assert_verify(mm);
	}
	reading = false;
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: an owner that cannot wait (no wait_locked) makes the range
 * busy while the read is in flight; once it is over, the range is had.
 */
static void alloc_contig_range_busy_until_read_ends(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(NULL);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct cma_page *page = page_being_read(mm, o, &ops);
	unsigned long pfn = cma_page_to_pfn(mm, page);

	assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), -EBUSY);
	assert_ptr_equal(o->slots[0].page, page);
	assert_verify(mm);
	reading = false;
	assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
	/* migrated, or (from 3.8) freed as a clean page by reclaim_clean_pages_from_list */
	assert_ptr_not_equal(o->slots[0].page, page);
	assert_int_equal(owner_check(o), o->slots[0].page ? 1 : 0);
	assert_verify(mm);
	cma_free_contig_range(mm, pfn, 1);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: an owner whose wait_locked returns with the read still in
 * flight leaves the page busy: the range is refused (-EBUSY) after the
 * waits, no cma_lock_page is traced and the page stays where it is.
 */
static void alloc_contig_range_busy_when_the_read_goes_on(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(read_left_running);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct cma_page *page = page_being_read(mm, o, &ops);
	unsigned long pfn = cma_page_to_pfn(mm, page);

	assert_int_equal(contig_traced(mm, pfn), -EBUSY);
	assert_true(waits >= 1);
	assert_int_equal(trace_len, 0);
	assert_ptr_equal(o->slots[0].page, page);
	assert_verify(mm);
	reading = false;
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (shrink_page_list: !trylock_page, keep): a clean page cache page
 * whose read is in flight is kept by reclaim, however often it scans;
 * once the read is over the next reclaim frees it.
 */
static void reclaim_keeps_a_page_being_read(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(read_done);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct cma_page *page = page_being_read(mm, o, &ops);

	for (int i = 0; i < 8; i++)
		cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL);
	assert_ptr_equal(o->slots[0].page, page);
	assert_int_equal(waits, 0);
	assert_verify(mm);
	reading = false;
	for (int i = 0; i < 8 && o->slots[0].page; i++)
		cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL);
	assert_null(o->slots[0].page);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

static unsigned long hints, stray_hints;

/* The prefetch hint: it must name a page the owner holds at that index. */
static void count_hint(void *owner, uint64_t idx, const struct cma_page *page)
{
	struct fake_owner *o = owner;

	hints++;
	if (idx >= o->nr_slots || o->slots[idx].page != page)
		stray_hints++;
}

/*
 * Expect (the owner's prefetch hint, no kernel's): reclaim deciding on
 * a list of the owner's pages hints each next one, naming the page the
 * owner holds at that index; the pages are reclaimed all the same.
 */
static void reclaim_hints_the_next_page(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(read_done);
	struct fake_owner *o = owner_create(mm, false, 8);

	ops.prefetch = count_hint;
	for (uint64_t i = 0; i < 8; i++)
		assert_non_null(owner_fault_ops(o, i, CMA_GFP_HIGHUSER_MOVABLE, i, &ops));
	lru_add_drain_all(mm);
	hints = stray_hints = 0;
	reading = false;
	for (int i = 0; i < 8 && o->slots[7].page; i++)
		cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL);
	assert_null(o->slots[7].page);
	assert_true(hints > 0);
	assert_int_equal(stray_hints, 0);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(alloc_contig_range_waits_for_the_read, kernels),
		test_kernel_case(migrate_pages_sync_locks_when_forced, kernels),
		test_kernel_case(migrate_pages_async_and_light_pass_over_it, kernels),
		test_kernel_case(alloc_contig_range_busy_until_read_ends, kernels),
		test_kernel_case(alloc_contig_range_busy_when_the_read_goes_on, kernels),
		test_kernel_case(reclaim_keeps_a_page_being_read, kernels),
		test_kernel_case(reclaim_hints_the_next_page, kernels),
	};

	return test_run_kernel_cases("page lock (per kernel)", kernel_cases);
}
