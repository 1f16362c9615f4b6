// SPDX-License-Identifier: GPL-2.0
/*
 * Writes in flight (issue 15 item 2): an owner may leave a page under
 * writeback (its writeback op returns -EINPROGRESS, or its flusher calls
 * cma_page_start_writeback) until it calls cma_page_end_writeback.
 * Migration meets such a page as each kernel's __unmap_and_move does;
 * reclaim skips it as shrink_page_list does.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

static const char *const kernels[] = { "3.5", "6.12" };

#define WAIT_NS 250000ull	/* what the owner says each wait took */

static unsigned long waits;

/* The storage finishes the write when asked: the owner ends it and reports the wait. */
static uint64_t wait_done(void *owner, uint64_t idx, struct cma_page *page)
{
	struct fake_owner *o = owner;

	waits++;
	cma_page_end_writeback(o->mm, page);
	return WAIT_NS;
}

static int write_in_flight(void *owner, uint64_t idx, struct cma_page *page)
{
	return -EINPROGRESS;
}

static struct cma_owner_ops file_ops_with(uint64_t (*wait)(void *, uint64_t, struct cma_page *))
{
	struct cma_owner_ops ops = fake_file_ops;

	ops.wait_writeback = wait;
	return ops;
}

static unsigned long targets;

static struct cma_page *count_target(struct cma_mm *mm, struct cma_page *page, unsigned long priv)
{
	targets++;
	return cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, page_order(page));
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

static char trace_buf[1 << 14];
static size_t trace_len;

static void trace_collect(void *ctx, const char *event, const char *line)
{
	if (strcmp(event, "cma_wait_on_page_writeback") || trace_len >= sizeof(trace_buf))
		return;
	trace_len += (size_t)snprintf(trace_buf + trace_len, sizeof(trace_buf) - trace_len, "%s\n", line);
}

/* A dirty file page of @o's slot 0 put under writeback by its flusher, drained to the LRU. */
static struct cma_page *page_under_writeback(struct cma_mm *mm, struct fake_owner *o,
					     const struct cma_owner_ops *ops)
{
	struct cma_page *page = owner_fault_ops(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 11, ops);

	assert_non_null(page);
	owner_set_dirty(o, 0, true);
	assert_true(cma_page_start_writeback(mm, page));
	assert_int_equal(counter(mm, "nr_writeback"), 1);
	assert_int_equal(counter(mm, "nr_dirty"), 0);
	lru_add_drain_all(mm);
	return page;
}

/* The same, isolated onto @list for migrate_pages, the counts of waits and targets reset. */
static struct cma_page *isolate_under_writeback(struct cma_mm *mm, struct fake_owner *o,
						const struct cma_owner_ops *ops, struct page_list *list)
{
	struct cma_page *page = page_under_writeback(mm, o, ops);

	page_list_init(list);
	assert_int_equal(isolate_lru_page(mm, page), 0);
	page_list_add(mm, list, page);
	waits = targets = 0;
	return page;
}

/*
 * Expect (__alloc_contig_migrate_range in MIGRATE_SYNC, both kernels;
 * __unmap_and_move / migrate_folio_unmap): a range holding a page under
 * writeback is allocated after waiting for the write; the owner's wait
 * is reported with its time, and the page moved with its bytes.
 */
static void alloc_contig_range_waits_for_writeback(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(wait_done);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct cma_page *page = page_under_writeback(mm, o, &ops);
	unsigned long pfn = cma_page_to_pfn(mm, page);

	waits = 0;
	trace_len = 0;
	cma_mm_set_trace(mm, trace_collect, NULL);
	assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_int_equal(waits, 1);
	assert_non_null(strstr(trace_buf, "waited_ns=250000\n"));
	assert_ptr_not_equal(o->slots[0].page, page);
	assert_int_equal(owner_check(o), 1);
	assert_int_equal(counter(mm, "nr_writeback"), 0);
	assert_int_equal(counter(mm, "nr_written"), 1);
	assert_verify(mm);
	cma_free_contig_range(mm, pfn, 1);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (v3.5's migrate_pages: unmap_and_move(..., pass > 2, ...)):
 * MIGRATE_SYNC retries a page under writeback (-EAGAIN, a target each
 * time) for three passes and waits on the fourth; 6.12's
 * migrate_folio_unmap waits at the first synchronous try.
 */
static void migrate_pages_sync_waits_when_forced(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(wait_done);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct page_list list;

	isolate_under_writeback(mm, o, &ops, &list);
	assert_int_equal(migrate_pages(mm, &list, count_target, 0, MIGRATE_SYNC), 0);
	assert_int_equal(waits, 1);
	assert_int_equal(targets, strcmp(kernel, "3.5") ? 1 : 4);
	assert_true(page_list_empty(&list));
	assert_int_equal(owner_check(o), 1);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (MIGRATE_SYNC_LIGHT, compaction's mode in both kernels): a page
 * under writeback is given up at once (-EBUSY, back on the LRU), never
 * waited for.
 */
static void migrate_pages_sync_light_gives_up(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(wait_done);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct page_list list;
	struct cma_page *page = isolate_under_writeback(mm, o, &ops, &list);

	assert_int_equal(migrate_pages(mm, &list, count_target, 0, MIGRATE_SYNC_LIGHT), 1);
	assert_int_equal(waits, 0);
	assert_ptr_equal(o->slots[0].page, page);
	lru_add_drain_all(mm);
	assert_true(page_test(page, PG_writeback) && page_test(page, PG_lru));
	assert_verify(mm);
	cma_page_end_writeback(mm, page);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: an owner that cannot wait (no wait_writeback) makes the range
 * busy, the write still in flight; once it ends, the allocation succeeds.
 */
static void alloc_contig_range_busy_until_write_ends(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_with(NULL);
	struct fake_owner *o = owner_create(mm, false, 1);
	struct cma_page *page = page_under_writeback(mm, o, &ops);
	unsigned long pfn = cma_page_to_pfn(mm, page);

	assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), -EBUSY);
	assert_ptr_equal(o->slots[0].page, page);
	assert_verify(mm);
	cma_page_end_writeback(mm, page);
	assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
	assert_verify(mm);
	cma_free_contig_range(mm, pfn, 1);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (shrink_page_list): a swap-out the owner leaves in flight keeps
 * the page under writeback on the LRU; reclaim skips it until the write
 * ends, then frees it from the swap cache.
 */
static void try_to_free_pages_skips_swap_in_flight(void **state)
{
	struct cma_mm *mm = test_mm(.swap = 8 * MiB);
	struct cma_owner_ops ops = fake_anon_ops;
	struct fake_owner *o = owner_create(mm, true, 1);
	struct cma_page *page;

	ops.writeback = write_in_flight;
	page = owner_fault_ops(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 5, &ops);
	assert_non_null(page);
	lru_add_drain_all(mm);
	for (int i = 0; i < 4 && !page_test(page, PG_writeback); i++)
		cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL);
	assert_true(page_test(page, PG_writeback | PG_swapcache));
	assert_int_equal(counter(mm, "nr_writeback"), 1);
	assert_verify(mm);
	for (int i = 0; i < 4; i++)
		cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL);
	assert_ptr_equal(o->slots[0].page, page);
	cma_page_end_writeback(mm, page);
	assert_verify(mm);
	for (int i = 0; i < 8 && o->slots[0].page; i++)
		cma_try_to_free_pages(mm, 32, CMA_GFP_KERNEL);
	assert_null(o->slots[0].page);
	assert_true(o->slots[0].swapped);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* Expect: a clean page has nothing to write; ending a write never started changes nothing. */
static void start_writeback_needs_dirty_page(void **state)
{
	struct cma_mm *mm = test_mm();
	struct fake_owner *o = owner_create(mm, false, 1);
	struct cma_page *page = owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 3);

	assert_false(cma_page_start_writeback(mm, page));
	cma_page_end_writeback(mm, page);
	assert_int_equal(counter(mm, "nr_written"), 0);
	owner_set_dirty(o, 0, true);
	assert_true(cma_page_start_writeback(mm, page));
	assert_false(cma_page_start_writeback(mm, page));
	cma_page_end_writeback(mm, page);
	assert_int_equal(counter(mm, "nr_written"), 1);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(try_to_free_pages_skips_swap_in_flight),
		cmocka_unit_test(start_writeback_needs_dirty_page),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(alloc_contig_range_waits_for_writeback, kernels),
		test_kernel_case(migrate_pages_sync_waits_when_forced, kernels),
		test_kernel_case(migrate_pages_sync_light_gives_up, kernels),
		test_kernel_case(alloc_contig_range_busy_until_write_ends, kernels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) +
	       test_run_kernel_cases("writeback (per kernel)", kernel_cases);
}
