// SPDX-License-Identifier: GPL-2.0
/*
 * PG_reclaim (issue 30): a page reclaim writes (pageout of a file page,
 * swap-out of an anonymous one), or leaves dirty for the flusher, is
 * marked for immediate reclaim; when its write ends, end_page_writeback
 * moves it to the tail of its inactive list through the CPU's rotate
 * pagevec (v3.5's rotate_reclaimable_page, 6.12's
 * folio_rotate_reclaimable), so that reclaim's next scan frees it first;
 * from 4.11 an active page too, deactivated.
 */
#include "helpers.h"
#include "owners.h"

static const char *const kernels[] = { "3.5", "6.12" };

#define NR_PAGES 64

static int write_in_flight(void *owner, uint64_t idx, struct cma_page *page)
{
	return -EINPROGRESS;
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

static struct cma_page *inactive_tail(struct cma_mm *mm, struct cma_page *page)
{
	struct zone *zone = page_zone(mm, page);

	return page_list_last(mm, &zone->lru[page_test(page, PG_swapbacked) ?
					     LRU_INACTIVE_ANON : LRU_INACTIVE_FILE]);
}

/* The slots of @o whose pages are under writeback, in slot order, into @idx: how many. */
static unsigned in_flight(struct fake_owner *o, uint64_t *idx, unsigned max)
{
	unsigned n = 0;

	for (uint64_t i = 0; i < o->nr_slots && n < max; i++)
		if (o->slots[i].page && page_test(o->slots[i].page, PG_writeback))
			idx[n++] = i;
	return n;
}

/*
 * A process of NR_PAGES pages whose swap-outs stay in flight; direct
 * reclaim runs until at least @want of them are written. Returns their
 * slots in @idx.
 */
static struct fake_owner *swap_out_in_flight(struct cma_mm *mm, struct cma_owner_ops *ops,
					     uint64_t *idx, unsigned want)
{
	struct fake_owner *o = owner_create(mm, true, NR_PAGES);
	unsigned n = 0;

	*ops = fake_anon_ops;
	ops->writeback = write_in_flight;
	for (uint64_t i = 0; i < NR_PAGES; i++)
		assert_non_null(owner_fault_ops(o, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1, ops));
	lru_add_drain_all(mm);
	for (int i = 0; i < 8 && (n = in_flight(o, idx, NR_PAGES)) < want; i++)
		cma_try_to_free_pages(mm, SWAP_CLUSTER_MAX, CMA_GFP_KERNEL);
	assert_true(n >= want);
	/* on the LRU, not in the pagevec reclaim put them back through: only there do they rotate */
	lru_add_drain_all(mm);
	return o;
}

/*
 * Expect: a swap-out reclaim left in flight is marked PG_reclaim; when
 * it ends, the page waits in the CPU's rotate pagevec (not yet rotated),
 * the next drain puts it at the tail of the inactive anon list
 * (pgrotated), and the next reclaim frees it from there in its first
 * batch.
 */
static void swap_out_rotated_when_write_ends(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.swap = 8 * MiB, .kernel = kernel);
	struct cma_owner_ops ops;
	uint64_t idx[NR_PAGES], rotated, scanned;
	struct fake_owner *o = swap_out_in_flight(mm, &ops, idx, 2);
	struct cma_page *page = o->slots[idx[0]].page;

	assert_true(page_test(page, PG_reclaim | PG_swapcache));
	assert_int_equal(page_count(page), 1);
	rotated = counter(mm, "pgrotated");
	cma_page_end_writeback(mm, page);
	assert_false(page_test(page, PG_reclaim | PG_writeback));
	assert_int_equal(counter(mm, "pgrotated"), rotated);
	assert_int_equal(page_count(page), 2);	/* the pagevec's reference */
	lru_add_drain(mm);
	assert_int_equal(counter(mm, "pgrotated"), rotated + 1);
	assert_ptr_equal(inactive_tail(mm, page), page);
	assert_verify(mm);
	scanned = counter(mm, "pgscan_direct_normal") + counter(mm, "pgscan_direct_dma");
	cma_try_to_free_pages(mm, 1, CMA_GFP_KERNEL);
	assert_null(o->slots[idx[0]].page);
	assert_true(o->slots[idx[0]].swapped);
	assert_true(counter(mm, "pgscan_direct_normal") + counter(mm, "pgscan_direct_dma") - scanned <=
		    SWAP_CLUSTER_MAX);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* Expect: a full rotate pagevec (the kernel's PAGEVEC_SIZE pages) moves its pages without a drain. */
static void rotate_pagevec_moves_when_full(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.swap = 8 * MiB, .kernel = kernel);
	unsigned size = pagevec_size(mm);
	struct cma_owner_ops ops;
	uint64_t idx[NR_PAGES], rotated;
	struct fake_owner *o = swap_out_in_flight(mm, &ops, idx, size);
	struct cma_page *last = o->slots[idx[size - 1]].page;

	rotated = counter(mm, "pgrotated");
	for (unsigned i = 0; i < size - 1; i++)
		cma_page_end_writeback(mm, o->slots[idx[i]].page);
	assert_int_equal(counter(mm, "pgrotated"), rotated);
	cma_page_end_writeback(mm, last);
	assert_int_equal(counter(mm, "pgrotated"), rotated + size);
	assert_ptr_equal(inactive_tail(mm, last), last);
	assert_int_equal(page_count(last), 1);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (set_page_dirty, folio_mark_dirty): a page dirtied again while
 * its write is in flight loses PG_reclaim; its write ends without a
 * rotation: the page stays where it was on its list, between the same
 * neighbours (6.12 scans less of the anon list a pass, so the page may
 * already be the tail).
 */
static void redirtied_page_not_rotated(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.swap = 8 * MiB, .kernel = kernel);
	struct cma_owner_ops ops;
	uint64_t idx[NR_PAGES], rotated;
	struct fake_owner *o = swap_out_in_flight(mm, &ops, idx, 2);
	struct cma_page *page = o->slots[idx[0]].page;
	uint32_t prev = page->prev, next = page->next;

	owner_set_dirty(o, idx[0], true);
	assert_false(page_test(page, PG_reclaim));
	rotated = counter(mm, "pgrotated");
	cma_page_end_writeback(mm, page);
	lru_add_drain(mm);
	assert_int_equal(counter(mm, "pgrotated"), rotated);
	assert_int_equal(page->prev, prev);
	assert_int_equal(page->next, next);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: a page activated while its swap-out was in flight stays active
 * when the write ends (v3.5's rotate_reclaimable_page passes over an
 * active page); from 4.11 (kernel.dirty_activate) it is deactivated onto
 * the inactive tail.
 */
static void active_page_rotated_from_4_11(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.swap = 8 * MiB, .kernel = kernel);
	struct cma_owner_ops ops;
	uint64_t idx[NR_PAGES], rotated;
	struct fake_owner *o = swap_out_in_flight(mm, &ops, idx, 2);
	struct cma_page *page = o->slots[idx[0]].page;
	bool moves = mm->kernel.dirty_activate;

	cma_mark_page_accessed(mm, page);
	cma_mark_page_accessed(mm, page);
	assert_true(page_test(page, PG_active | PG_reclaim));
	rotated = counter(mm, "pgrotated");
	cma_page_end_writeback(mm, page);
	lru_add_drain(mm);
	assert_int_equal(counter(mm, "pgrotated"), rotated + moves);
	assert_int_equal(page_test(page, PG_active), !moves);
	assert_int_equal(inactive_tail(mm, page) == page, moves);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (v3.5 shrink_page_list, NR_VMSCAN_IMMEDIATE): a dirty file page
 * direct reclaim leaves for the flusher is marked PG_reclaim; when the
 * flusher's write of it ends, it goes to the inactive file tail. A page
 * the flusher writes that reclaim never met is not rotated.
 */
static void flusher_write_of_marked_page_rotated(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct fake_owner *o = owner_create(mm, false, NR_PAGES + 1);
	struct cma_page *marked = NULL, *unmarked = NULL;
	uint64_t rotated;

	owner_fault_range(o, 0, NR_PAGES, CMA_GFP_HIGHUSER_MOVABLE);
	for (uint64_t i = 0; i < NR_PAGES; i++)
		owner_set_dirty(o, i, true);
	lru_add_drain_all(mm);
	for (int i = 0; i < 8 && !marked; i++) {
		cma_try_to_free_pages(mm, SWAP_CLUSTER_MAX, CMA_GFP_KERNEL);
		for (uint64_t s = 0; s < NR_PAGES && !marked; s++)
			if (page_test(o->slots[s].page, PG_reclaim))
				marked = o->slots[s].page;
	}
	assert_non_null(marked);
	assert_true(counter(mm, "nr_vmscan_immediate_reclaim") > 0);
	/* a page written after reclaim looked */
	unmarked = owner_fault(o, NR_PAGES, CMA_GFP_HIGHUSER_MOVABLE, 1);
	owner_set_dirty(o, NR_PAGES, true);
	lru_add_drain_all(mm);

	rotated = counter(mm, "pgrotated");
	assert_true(cma_page_start_writeback(mm, unmarked));
	cma_page_end_writeback(mm, unmarked);
	lru_add_drain(mm);
	assert_int_equal(counter(mm, "pgrotated"), rotated);
	assert_true(cma_page_start_writeback(mm, marked));
	cma_page_end_writeback(mm, marked);
	lru_add_drain(mm);
	assert_int_equal(counter(mm, "pgrotated"), rotated + 1);
	assert_ptr_equal(inactive_tail(mm, marked), marked);
	assert_false(page_test(marked, PG_reclaim));
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(swap_out_rotated_when_write_ends, kernels),
		test_kernel_case(rotate_pagevec_moves_when_full, kernels),
		test_kernel_case(redirtied_page_not_rotated, kernels),
		test_kernel_case(active_page_rotated_from_4_11, kernels),
		test_kernel_case(flusher_write_of_marked_page_rotated, kernels),
	};

	return test_run_kernel_cases("rotate (per kernel)", kernel_cases);
}
