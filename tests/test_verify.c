// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for cma_mm_verify (src/mm/debug.c): a check that cannot fail is a
 * defect, so each test builds a fresh machine that verifies clean,
 * corrupts exactly one thing through the internal structures, expects
 * -EUCLEAN, restores the damage and expects a clean machine again (which
 * also shows the corruption was the only thing wrong). Where a corruption
 * would also unbalance a counter, the counter is kept consistent, so that
 * only the check under test can see it.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "owners.h"
#include "lib/bitmap.h"

/* Teardown: destroy the machine the test left in *state, even after a failure. */
static int destroy_machine(void **state)
{
	cma_mm_destroy(*state);
	*state = NULL;
	return 0;
}

static void expect_verify_fails(struct cma_mm *mm, const char *corruption)
{
	int ret = cma_mm_verify(mm);

	if (ret != -EUCLEAN) {
		print_error("cma_mm_verify() after %s: expected -EUCLEAN, found %d\n", corruption, ret);
		fail();
	}
}

static void expect_verify_clean(struct cma_mm *mm, const char *after)
{
	int ret = cma_mm_verify(mm);

	if (ret != 0) {
		print_error("cma_mm_verify() after %s: expected 0, found %d\n", after, ret);
		fail();
	}
}

static struct zone *normal(struct cma_mm *mm)
{
	return &mm->zones[ZONE_NORMAL];
}

/* The first free block of @order on @mt's list of @zone; fails the test if none. */
static struct cma_page *first_free(struct cma_mm *mm, struct zone *zone, unsigned order, int mt)
{
	struct cma_page *page = page_list_first(mm, &zone->free_area[order].free_list[mt]);

	if (!page) {
		print_error("zone %s: expected a free order-%u block on the %s list, found none\n",
			    zone->name, order, migratetype_name(mt));
		fail();
	}
	return page;
}

/* Move a free block from one list to another, as a corruption would (zone->lock held). */
static void relink_free_block(struct cma_mm *mm, struct zone *zone, struct cma_page *page,
			      unsigned order, int to)
{
	struct free_area *area = &zone->free_area[order];

	page_list_del(mm, &area->free_list[page->private], page);
	page->private = to;
	page_list_add(mm, &area->free_list[to], page);
}

static void add_free_cma(struct zone *zone, long delta)
{
	atomic_store(&zone->free_cma, atomic_load(&zone->free_cma) + delta);
}

/* ---- no false alarms ---- */

/* Expect: a busy machine (all types allocated, pcp lists full, CMA in use) is clean. */
static void verify_clean_busy_machine_passes(void **state)
{
	static const cma_gfp_t gfps[] = {
		CMA_GFP_KERNEL, CMA_GFP_KERNEL | CMA_GFP_RECLAIMABLE, CMA_GFP_HIGHUSER_MOVABLE,
		CMA_GFP_KERNEL | CMA_GFP_DMA, CMA_GFP_ATOMIC,
	};
	struct cma_mm *mm = *state = test_mm(TEST_CMA_32M);
	struct cma_page *pages[400];
	unsigned orders[400];
	int n = 0;

	assert_verify(mm);
	for (int i = 0; i < 400; i++) {
		orders[n] = i % 4;
		pages[n] = cma_alloc_pages(mm, gfps[i % 5] | CMA_GFP_NOWARN, orders[n]);
		if (pages[n])
			n++;
	}
	assert_true(n > 300);
	expect_verify_clean(mm, "400 mixed allocations");
	for (int i = 0; i < n; i += 2)
		cma_free_pages(mm, pages[i], orders[i]);
	expect_verify_clean(mm, "freeing half of them");
	for (int i = 1; i < n; i += 2)
		cma_free_pages(mm, pages[i], orders[i]);
	cma_drain_all_pages(mm);
	expect_verify_clean(mm, "freeing all and draining");
}

/* ---- counters ---- */

static void verify_catches_free_pages_counter_off(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);
	long v = atomic_load(&z->free_pages);

	atomic_store(&z->free_pages, v + 1);
	expect_verify_fails(mm, "NR_FREE_PAGES + 1");
	atomic_store(&z->free_pages, v - 1);
	expect_verify_fails(mm, "NR_FREE_PAGES - 1");
	atomic_store(&z->free_pages, v);
	expect_verify_clean(mm, "restoring NR_FREE_PAGES");
}

/* Expect: SwapCached's count of swap cache pages off by one is caught (none is cached here). */
static void verify_catches_swapcache_counter_off(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true, .swap = 1 * MiB);

	atomic_store(&mm->swapcache_pages, 1);
	expect_verify_fails(mm, "swapcache_pages + 1");
	atomic_store(&mm->swapcache_pages, 0);
	expect_verify_clean(mm, "restoring swapcache_pages");
}

static void verify_catches_free_cma_counter_off(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);

	add_free_cma(z, 1);
	expect_verify_fails(mm, "NR_FREE_CMA_PAGES 1 on a machine without CMA");
	add_free_cma(z, -1);
	expect_verify_clean(mm, "restoring NR_FREE_CMA_PAGES");
	destroy_machine(state);

	mm = *state = test_mm(TEST_CMA_32M);
	z = normal(mm);
	assert_verify(mm);
	add_free_cma(z, -1);
	expect_verify_fails(mm, "NR_FREE_CMA_PAGES - 1");
	add_free_cma(z, 1);
	expect_verify_clean(mm, "restoring NR_FREE_CMA_PAGES");
}

static void verify_catches_nr_free_off(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);

	z->free_area[3].nr_free++;
	expect_verify_fails(mm, "free_area[3].nr_free + 1");
	z->free_area[3].nr_free--;
	z->free_area[10].nr_free--;
	expect_verify_fails(mm, "free_area[10].nr_free - 1");
	z->free_area[10].nr_free++;
	expect_verify_clean(mm, "restoring nr_free");
}

static void verify_catches_pcp_count_off(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cpu_slot *slot = &mm->slots[0];
	struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);

	assert_non_null(page);
	cma_free_pages(mm, page, 0);
	assert_true(pcp_count(mm, 0, ZONE_NORMAL) > 0);
	expect_verify_clean(mm, "filling the pcp list");
	spin_lock(&slot->lock);
	slot->pcp[ZONE_NORMAL].count++;
	spin_unlock(&slot->lock);
	expect_verify_fails(mm, "pcp count + 1");
	spin_lock(&slot->lock);
	slot->pcp[ZONE_NORMAL].count -= 2;
	spin_unlock(&slot->lock);
	expect_verify_fails(mm, "pcp count - 1");
	spin_lock(&slot->lock);
	slot->pcp[ZONE_NORMAL].count++;
	spin_unlock(&slot->lock);
	expect_verify_clean(mm, "restoring the pcp count");
}

/* ---- free pages ---- */

static void verify_catches_buddy_head_without_pg_buddy(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cma_page *head = first_free(mm, normal(mm), 10, MIGRATE_MOVABLE);
	uint32_t flags = page_flags(head);

	page_flags_store(head, flags & ~PG_buddy);
	expect_verify_fails(mm, "clearing PG_buddy of a free block's head");
	page_flags_store(head, flags);
	expect_verify_clean(mm, "restoring PG_buddy");
}

/* Expect: free_heads has the bit of every head on the lists and no other. */
static void verify_catches_free_heads_out_of_step(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long bit = page_to_pfn(mm, first_free(mm, z, 10, MIGRATE_MOVABLE)) - z->zone_start_pfn;

	clear_bit(bit, z->free_heads);
	expect_verify_fails(mm, "clearing the free_heads bit of a free block's head");
	set_bit(bit, z->free_heads);
	set_bit(bit + 1, z->free_heads);
	expect_verify_fails(mm, "setting the free_heads bit of a pfn inside a free block");
	clear_bit(bit + 1, z->free_heads);
	expect_verify_clean(mm, "restoring free_heads");
}

/* Expect: each pageblock's block_heads counts the free_heads bits in it. */
static void verify_catches_block_heads_out_of_step(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long pfn = page_to_pfn(mm, first_free(mm, z, 10, MIGRATE_MOVABLE));
	unsigned *n = &z->block_heads[zone_block_index(z, pfn)];

	(*n)++;
	expect_verify_fails(mm, "one more in block_heads than the block's free_heads bits");
	*n -= 2;
	expect_verify_fails(mm, "one fewer in block_heads than the block's free_heads bits");
	(*n)++;
	expect_verify_clean(mm, "restoring block_heads");
}

/*
 * Expect: a pageblock's head_blocks and target_blocks bits out of step
 * with its heads and type are caught.
 */
static void verify_catches_block_bits_out_of_step(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long pfn = page_to_pfn(mm, first_free(mm, z, 10, MIGRATE_MOVABLE));
	unsigned long b = zone_block_index(z, pfn);

	clear_bit(b, z->head_blocks);
	expect_verify_fails(mm, "no head_blocks bit for a block with a free head");
	set_bit(b, z->head_blocks);
	expect_verify_clean(mm, "restoring head_blocks");
	clear_bit(b, z->target_blocks);
	expect_verify_fails(mm, "no target_blocks bit for a MOVABLE block");
	set_bit(b, z->target_blocks);
	expect_verify_clean(mm, "restoring target_blocks");
}

/* Expect: each pageblock's untouched counts its frames never allocated, after an allocation too. */
static void verify_catches_untouched_out_of_step(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 2);
	atomic_uint *n;

	assert_non_null(page);
	expect_verify_clean(mm, "an order-2 allocation");
	n = &mm->untouched[pageblock_index(mm, page_to_pfn(mm, page))];
	(*n)++;
	expect_verify_fails(mm, "one more in untouched than the block's frames never touched");
	*n -= 2;
	expect_verify_fails(mm, "one fewer in untouched than the block's frames never touched");
	(*n)++;
	expect_verify_clean(mm, "restoring untouched");
	cma_free_pages(mm, page, 2);
}

/*
 * Expect: the fresh frames of order-0 allocations off a per-CPU list,
 * pending on their CPU, count with untouched; a pending count off by one
 * is caught.
 */
static void verify_catches_fresh_pending_out_of_step(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cma_page *pages[4];
	struct cpu_slot *slot = NULL;

	for (unsigned i = 0; i < 4; i++)
		assert_non_null(pages[i] = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0));
	expect_verify_clean(mm, "order-0 allocations");
	for (unsigned c = 0; c < mm->nr_cpus; c++)
		if (mm->slots[c].fresh_pending)
			slot = &mm->slots[c];
	assert_non_null(slot);
	slot->fresh_pending++;
	expect_verify_fails(mm, "one more frame pending than marked");
	slot->fresh_pending--;
	expect_verify_clean(mm, "restoring fresh_pending");
	for (unsigned i = 0; i < 4; i++)
		cma_free_pages(mm, pages[i], 0);
}

static void verify_catches_buddy_order_wrong(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cma_page *head = first_free(mm, normal(mm), 10, MIGRATE_MOVABLE);

	page_set_field(head, PG_ORDER_MASK, PG_ORDER_SHIFT, 9);
	expect_verify_fails(mm, "order 9 in the flags of a block on the order-10 list");
	page_set_field(head, PG_ORDER_MASK, PG_ORDER_SHIFT, 10);
	expect_verify_clean(mm, "restoring the order");
}

/* Expect: page->private must name the list the block is on. */
static void verify_catches_free_page_private_changed(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cma_page *head = first_free(mm, normal(mm), 10, MIGRATE_MOVABLE);

	head->private = MIGRATE_UNMOVABLE;
	expect_verify_fails(mm, "private Unmovable on a block of the Movable list");
	head->private = MIGRATE_MOVABLE;
	expect_verify_clean(mm, "restoring private");
}

static void verify_catches_broken_list_link(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);
	struct cma_page *head = first_free(mm, z, 10, MIGRATE_MOVABLE);
	struct cma_page *second = page_list_next(mm, head);
	uint32_t prev;

	assert_non_null(second);
	prev = second->prev;
	second->prev = PAGE_NIL;
	expect_verify_fails(mm, "a broken prev link on a free list");
	second->prev = prev;
	expect_verify_clean(mm, "restoring the link");
}

/*
 * Expect: a page inside a free block that claims to be an allocation
 * head (PG_head, count 1) is both free and allocated: cma_free_pages()
 * would accept it and free it into the middle of a free block.
 */
static void verify_catches_allocation_head_inside_free_block(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cma_page *head = first_free(mm, normal(mm), 10, MIGRATE_MOVABLE);
	struct cma_page *tail = cma_page_nth(mm, head, 5);
	uint32_t flags = page_flags(tail);

	page_flags_store(tail, flags | PG_head);
	set_page_count(tail, 1);
	expect_verify_fails(mm, "PG_head and count 1 on pfn 5 of a free order-10 block");
	page_flags_store(tail, flags);
	set_page_count(tail, 0);
	expect_verify_clean(mm, "clearing PG_head again");
}

/* Expect: a free block's head cannot also be reserved. */
static void verify_catches_reserved_flag_on_free_block(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cma_page *head = first_free(mm, normal(mm), 10, MIGRATE_MOVABLE);
	uint32_t flags = page_flags(head);

	page_flags_store(head, flags | PG_reserved);
	expect_verify_fails(mm, "PG_reserved on a free block's head");
	page_flags_store(head, flags);
	expect_verify_clean(mm, "clearing PG_reserved");
}

/* ---- allocated pages ---- */

/* Expect: an allocation head without PG_head leaves its pfns in no state. */
static void verify_catches_allocated_page_without_head(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 2);

	assert_non_null(page);
	expect_verify_clean(mm, "an order-2 allocation");
	page_flags_clear(page, PG_head);
	expect_verify_fails(mm, "clearing PG_head of an allocation");
	page_flags_set(page, PG_head);
	expect_verify_clean(mm, "restoring PG_head");
	cma_free_pages(mm, page, 2);
}

/*
 *   Q        Q+2       Q+4
 *   |alloc o1|free o1  |free o2 ...      (Q is where the order-1 allocation split a block)
 * Expect: widening the allocation's order to 2 makes Q+2 and Q+3 both
 * allocated and on a buddy list (from 5.14 on the CPU's order-1 list,
 * where the refill put the rest of the split block).
 */
static void verify_catches_pfn_both_allocated_and_free(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 1);
	struct cma_page *buddy;

	assert_non_null(page);
	buddy = cma_page_nth(mm, page, 2);
	assert_true(page_test(buddy, mm->kernel.pcp_high_order ? PG_pcp : PG_buddy));
	assert_int_equal(page_order(buddy), 1);
	page_set_field(page, PG_ORDER_MASK, PG_ORDER_SHIFT, 2);
	expect_verify_fails(mm, "an order-1 allocation widened to order 2 over a free buddy");
	page_set_field(page, PG_ORDER_MASK, PG_ORDER_SHIFT, 1);
	expect_verify_clean(mm, "restoring the order");
	cma_free_pages(mm, page, 1);
}

/*
 * Expect (5.14, kernel.pcp_high_order): an order-2 block freed onto the
 * CPU's order-2 list passes, its four pages counted; the same head
 * marked order 1 does not (its list is order 2's), nor does one whose
 * tail looks allocated.
 */
static void verify_checks_high_order_pcp_blocks(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true, .kernel = "5.14");
	struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 2);

	assert_non_null(page);
	cma_free_pages(mm, page, 2);
	assert_true(page_test(page, PG_pcp));
	expect_verify_clean(mm, "an order-2 block on the CPU's order-2 list");
	page_set_field(page, PG_ORDER_MASK, PG_ORDER_SHIFT, 1);
	expect_verify_fails(mm, "an order-2 pcp block marked order 1");
	page_set_field(page, PG_ORDER_MASK, PG_ORDER_SHIFT, 2);
	expect_verify_clean(mm, "restoring the order");
	page_flags_set(cma_page_nth(mm, page, 3), PG_head);
	expect_verify_fails(mm, "a head inside an order-2 pcp block");
	page_flags_clear(cma_page_nth(mm, page, 3), PG_head);
	expect_verify_clean(mm, "clearing it");
}

/* A movable allocation of @order lying in a CMA pageblock; the others go to @others. */
static struct cma_page *alloc_movable_in_cma(struct cma_mm *mm, unsigned order,
					     struct cma_page **others, int *nr_others)
{
	for (int i = 0; i < 64; i++) {
		struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, order);

		assert_non_null(page);
		if (cma_pageblock_migratetype(mm, cma_page_to_pfn(mm, page)) == CMA_MIGRATE_CMA)
			return page;
		others[(*nr_others)++] = page;
	}
	print_error("expected a movable order-%u allocation from CMA within 64 tries, found none\n", order);
	fail();
	return NULL;
}

/* Expect: CMA rule 1 — an unmovable allocation recorded inside a CMA pageblock is caught. */
static void verify_catches_unmovable_allocation_in_cma_pageblock(void **state)
{
	struct cma_mm *mm = *state = test_mm(TEST_CMA_32M);
	struct cma_page *others[64], *page;
	int nr_others = 0;

	assert_verify(mm);
	page = alloc_movable_in_cma(mm, 10, others, &nr_others);
	expect_verify_clean(mm, "a movable allocation from CMA");
	assert_int_equal(page_alloc_mt(page), MIGRATE_MOVABLE);
	page_set_field(page, PG_MT_MASK, PG_MT_SHIFT, MIGRATE_UNMOVABLE);
	expect_verify_fails(mm, "recording the CMA allocation as Unmovable");
	page_set_field(page, PG_MT_MASK, PG_MT_SHIFT, MIGRATE_RECLAIMABLE);
	expect_verify_fails(mm, "recording the CMA allocation as Reclaimable");
	page_set_field(page, PG_MT_MASK, PG_MT_SHIFT, MIGRATE_MOVABLE);
	expect_verify_clean(mm, "restoring Movable");
	cma_free_pages(mm, page, 10);
	for (int i = 0; i < nr_others; i++)
		cma_free_pages(mm, others[i], 10);
}

/*
 * Expect: CMA rule 1 for free pages — a free block of a CMA pageblock on
 * the Movable list is caught (free_cma is adjusted to match the lists, so
 * that only the type check can see it).
 */
static void verify_catches_cma_free_block_on_movable_list(void **state)
{
	struct cma_mm *mm = *state = test_mm(TEST_CMA_32M);
	struct zone *z = normal(mm);
	struct cma_page *page;

	assert_verify(mm);
	page = first_free(mm, z, 10, MIGRATE_CMA);
	spin_lock(&z->lock);
	relink_free_block(mm, z, page, 10, MIGRATE_MOVABLE);
	add_free_cma(z, -1024);
	spin_unlock(&z->lock);
	expect_verify_fails(mm, "moving a CMA pageblock's free block to the Movable list");
	spin_lock(&z->lock);
	relink_free_block(mm, z, page, 10, MIGRATE_CMA);
	add_free_cma(z, 1024);
	spin_unlock(&z->lock);
	expect_verify_clean(mm, "moving it back");
}

/* Expect: nothing on a CMA list may lie outside a CMA (or ISOLATE) pageblock. */
static void verify_catches_movable_free_block_on_cma_list(void **state)
{
	struct cma_mm *mm = *state = test_mm(TEST_CMA_32M);
	struct zone *z = normal(mm);
	struct cma_page *page;

	assert_verify(mm);
	page = first_free(mm, z, 10, MIGRATE_MOVABLE);
	spin_lock(&z->lock);
	relink_free_block(mm, z, page, 10, MIGRATE_CMA);
	add_free_cma(z, 1024);
	spin_unlock(&z->lock);
	expect_verify_fails(mm, "moving a Movable pageblock's free block to the CMA list");
	spin_lock(&z->lock);
	relink_free_block(mm, z, page, 10, MIGRATE_MOVABLE);
	add_free_cma(z, -1024);
	spin_unlock(&z->lock);
	expect_verify_clean(mm, "moving it back");
}

/*
 * Expect: a pcp page of a CMA pageblock must go back to buddy as CMA. With
 * the Movable blocks taken, an order-0 movable request refills the pcp
 * list from CMA; one of the pages left there is then recorded as Movable.
 */
static void verify_catches_cma_pcp_page_with_movable_type(void **state)
{
	/*
	 * the setup needs v3.5's __rmqueue, where a movable request takes CMA only after its own
	 * lists (5.7 balancing takes CMA first here)
	 */
	SKIP_UNLESS_KERNEL_35();
	struct cma_mm *mm = *state = test_mm(TEST_CMA_32M, .size = 80 * MiB);
	struct per_cpu_pages *pcp = &mm->slots[0].pcp[ZONE_NORMAL];
	struct cma_page *others[64], *big, *half, *small, *page;
	int nr_others = 0;

	assert_verify(mm);
	big = alloc_movable_in_cma(mm, 10, others, &nr_others);
	/* the order-9 Movable block left below the 2 MiB vmemmap */
	half = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 9);
	assert_non_null(half);
	assert_int_equal(cma_pageblock_migratetype(mm, cma_page_to_pfn(mm, half)), CMA_MIGRATE_MOVABLE);
	small = cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
	assert_non_null(small);
	assert_int_equal(cma_pageblock_migratetype(mm, cma_page_to_pfn(mm, small)), CMA_MIGRATE_CMA);
	page = page_list_first(mm, &pcp->lists[MIGRATE_MOVABLE]);
	if (!page || get_pageblock_migratetype(mm, page_to_pfn(mm, page)) != MIGRATE_CMA ||
	    page->private != MIGRATE_CMA) {
		print_error("expected a CMA page left on cpu 0's Movable pcp list, found %s\n",
			    page ? "another page" : "none");
		fail();
	}
	expect_verify_clean(mm, "refilling the pcp list from CMA");
	spin_lock(&mm->slots[0].lock);
	page->private = MIGRATE_MOVABLE;
	spin_unlock(&mm->slots[0].lock);
	expect_verify_fails(mm, "recording a CMA pcp page as Movable");
	spin_lock(&mm->slots[0].lock);
	page->private = MIGRATE_CMA;
	spin_unlock(&mm->slots[0].lock);
	expect_verify_clean(mm, "restoring CMA");
	cma_free_pages(mm, small, 0);
	cma_free_pages(mm, half, 9);
	cma_free_pages(mm, big, 10);
	for (int i = 0; i < nr_others; i++)
		cma_free_pages(mm, others[i], 10);
	cma_drain_all_pages(mm);
	expect_verify_clean(mm, "freeing everything");
}

/* ---- pageblocks, watermarks ---- */

static void verify_catches_bad_pageblock_type(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	unsigned long idx = (4096 - mm->base_pfn) >> mm->pageblock_order;
	uint8_t old = mm->pageblock_flags[idx];

	__atomic_store_n(&mm->pageblock_flags[idx], 7, __ATOMIC_RELAXED);
	expect_verify_fails(mm, "pageblock type 7");
	__atomic_store_n(&mm->pageblock_flags[idx], MIGRATE_TYPES, __ATOMIC_RELAXED);
	expect_verify_fails(mm, "pageblock type MIGRATE_TYPES");
	__atomic_store_n(&mm->pageblock_flags[idx], old, __ATOMIC_RELAXED);
	expect_verify_clean(mm, "restoring the pageblock type");
}

/* Expect: a free MAX_ORDER block one of whose pageblocks is ISOLATE is caught. */
static void verify_catches_free_block_partly_isolated(void **state)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 9 };
	struct cma_mm *mm = *state = test_boot(&cfg);
	unsigned top = mm->max_order - 1;
	unsigned long pfn;
	int old;

	expect_verify_clean(mm, "boot");
	assert_true(mm->pageblock_order < top);
	pfn = page_to_pfn(mm, first_free(mm, normal(mm), top, MIGRATE_MOVABLE)) +
	      mm->pageblock_nr_pages;
	old = get_pageblock_migratetype(mm, pfn);
	set_pageblock_migratetype(mm, pfn, MIGRATE_ISOLATE);
	atomic_fetch_add(&mm->isolated_pageblocks, 1);
	expect_verify_fails(mm, "isolating one pageblock of a free MAX_ORDER block in place");
	atomic_fetch_sub(&mm->isolated_pageblocks, 1);
	set_pageblock_migratetype(mm, pfn, old);
	expect_verify_clean(mm, "restoring the pageblock type");
}

static void verify_catches_watermarks_not_ascending(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long wm[NR_WMARK];

	memcpy(wm, z->watermark, sizeof(wm));
	assert_true(wm[WMARK_MIN] < wm[WMARK_LOW] && wm[WMARK_LOW] < wm[WMARK_HIGH]);
	z->watermark[WMARK_LOW] = wm[WMARK_HIGH] + 1;
	expect_verify_fails(mm, "low above high");
	z->watermark[WMARK_LOW] = wm[WMARK_LOW];
	z->watermark[WMARK_MIN] = wm[WMARK_LOW] + 1;
	expect_verify_fails(mm, "min above low");
	memcpy(z->watermark, wm, sizeof(wm));
	expect_verify_clean(mm, "restoring the watermarks");
}

/* ---- the per-object validators (CMA_DEBUG=2 runs them at state changes) ---- */

/* Expect the log to hold @text; fail with the log otherwise. */
static void expect_logged(struct cma_mm *mm, const char *text)
{
	char *log = test_dmesg(mm);

	if (!strstr(log, text)) {
		print_error("expected the log to say \"%s\"; it says:\n%s", text, log);
		free(log);
		fail();
	}
	free(log);
}

/*
 * Expect: a zone's validator, run under its lock, sees one block's worth
 * of nr_free gone and names the transition it was told of, then passes
 * once the count is restored.
 */
static void verify_zone_locked_names_the_transition(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);
	unsigned long nr = z->free_area[mm->max_order - 1].nr_free;

	spin_lock(&z->lock);
	assert_int_equal(verify_zone_locked(z, "a test's transition"), 0);
	z->free_area[mm->max_order - 1].nr_free = nr + 1;
	assert_int_equal(verify_zone_locked(z, "a test's transition"), -EUCLEAN);
	z->free_area[mm->max_order - 1].nr_free = nr;
	assert_int_equal(verify_zone_locked(z, "a test's transition"), 0);
	spin_unlock(&z->lock);
	expect_logged(mm, "cma_mm_verify: after a test's transition: zone Normal order 10: nr_free");
}

/* Expect: a CPU slot's validator counts its lists against pcp->count. */
static void verify_pcp_locked_catches_count_off(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct cpu_slot *slot = &mm->slots[0];
	struct cma_page *page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);

	cma_free_pages(mm, page, 0);		/* the slot's lists now hold a batch */
	spin_lock(&slot->lock);
	assert_true(slot->pcp[ZONE_NORMAL].count > 0);
	assert_int_equal(verify_pcp_locked(mm, slot, "a free"), 0);
	slot->pcp[ZONE_NORMAL].count++;
	assert_int_equal(verify_pcp_locked(mm, slot, "a free"), -EUCLEAN);
	slot->pcp[ZONE_NORMAL].count--;
	assert_int_equal(verify_pcp_locked(mm, slot, "a free"), 0);
	spin_unlock(&slot->lock);
	expect_logged(mm, "after a free: cpu 0 zone Normal: pcp count");
}

/* Expect: an LRU validator compares each list with its counter. */
static void verify_lru_locked_catches_counter_off(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);

	spin_lock(&z->lru_lock);
	assert_int_equal(verify_lru_locked(z, "an LRU move"), 0);
	atomic_fetch_add(&z->vm_stat[NR_INACTIVE_FILE], 1);
	assert_int_equal(verify_lru_locked(z, "an LRU move"), -EUCLEAN);
	atomic_fetch_sub(&z->vm_stat[NR_INACTIVE_FILE], 1);
	assert_int_equal(verify_lru_locked(z, "an LRU move"), 0);
	spin_unlock(&z->lru_lock);
	expect_logged(mm, "after an LRU move: zone Normal: LRU list 2 holds 0 pages, counter says 1");
}

/* Three file pages on the inactive file list of the Normal zone: @o's, its list returned. */
static struct page_list *three_on_lru(struct cma_mm *mm, struct fake_owner *o)
{
	for (uint64_t i = 0; i < 3; i++)
		assert_non_null(owner_fault(o, i, CMA_GFP_HIGHUSER_MOVABLE, 80 + i));
	lru_add_drain_all(mm);
	assert_int_equal(atomic_load(&normal(mm)->vm_stat[NR_INACTIVE_FILE]), 3);
	return &normal(mm)->lru[LRU_INACTIVE_FILE];
}

/*
 * Expect: a page in the middle of an LRU list with the flags of another
 * list is named, by its pfn, as the walk from the list's head names it
 * (the walk from both ends doubts, and leaves the saying to that one).
 */
static void verify_lru_locked_names_a_page_of_another_list(void **state)
{
	struct cma_mm *mm = *state = test_mm();
	struct fake_owner *o = owner_create(mm, false, 3);
	struct page_list *list = three_on_lru(mm, o);
	struct cma_page *mid = page_list_next(mm, page_list_first(mm, list));
	char text[96];

	spin_lock(&normal(mm)->lru_lock);
	assert_int_equal(verify_lru_locked(normal(mm), "an LRU move"), 0);
	page_flags_set(mid, PG_active);
	assert_int_equal(verify_lru_locked(normal(mm), "an LRU move"), -EUCLEAN);
	page_flags_clear(mid, PG_active);
	assert_int_equal(verify_lru_locked(normal(mm), "an LRU move"), 0);
	spin_unlock(&normal(mm)->lru_lock);
	snprintf(text, sizeof(text), "after an LRU move: pfn %#lx on zone Normal LRU list %d: flags",
		 page_to_pfn(mm, mid), LRU_INACTIVE_FILE);
	expect_logged(mm, text);
	owner_destroy(o);
}

/*
 * Expect: an LRU list whose tail links back to its head is walked, from
 * the head, until it has seen more pages than the machine has, and that
 * count is set against the counter.
 */
static void verify_lru_locked_catches_a_list_that_loops(void **state)
{
	struct cma_mm *mm = *state = test_mm();
	struct fake_owner *o = owner_create(mm, false, 3);
	struct page_list *list = three_on_lru(mm, o);
	struct cma_page *tail = page_list_last(mm, list);
	char text[96];

	spin_lock(&normal(mm)->lru_lock);
	tail->next = list->head;
	assert_int_equal(verify_lru_locked(normal(mm), "an LRU move"), -EUCLEAN);
	tail->next = PAGE_NIL;
	assert_int_equal(verify_lru_locked(normal(mm), "an LRU move"), 0);
	spin_unlock(&normal(mm)->lru_lock);
	snprintf(text, sizeof(text), "zone Normal: LRU list %d holds %lu pages, counter says 3",
		 LRU_INACTIVE_FILE, mm->end_pfn - mm->base_pfn + 1);
	expect_logged(mm, text);
	owner_destroy(o);
}

/*
 * Expect: the pageblock validator holds a range to the type its caller
 * expects (all ISOLATE after isolation, none after undo), and the
 * machine's ISOLATE blocks to the isolation count.
 */
static void verify_pageblocks_expects_the_isolation_state(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	unsigned long start = 4096, end = start + max_order_nr_pages(mm);
	unsigned long blocks = max_order_nr_pages(mm) / mm->pageblock_nr_pages;
	char line[128];

	assert_int_equal(verify_pageblocks(mm, start, end, MIGRATE_MOVABLE, "boot"), 0);
	assert_int_equal(verify_pageblocks(mm, start, end, MIGRATE_ISOLATE, "isolation"), -EUCLEAN);
	assert_int_equal(cma_start_isolate_page_range(mm, start, end, MIGRATE_MOVABLE), 0);
	assert_int_equal(verify_pageblocks(mm, start, end, MIGRATE_ISOLATE, "isolation"), 0);
	assert_int_equal(verify_pageblocks(mm, start, end, MIGRATE_MOVABLE, "undo"), -EUCLEAN);
	atomic_fetch_add(&mm->isolated_pageblocks, 1);
	assert_int_equal(verify_pageblocks(mm, start, end, MIGRATE_ISOLATE, "a miscount"), -EUCLEAN);
	atomic_fetch_sub(&mm->isolated_pageblocks, 1);
	cma_undo_isolate_page_range(mm, start, end, MIGRATE_MOVABLE);
	assert_int_equal(verify_pageblocks(mm, start, end, MIGRATE_MOVABLE, "undo"), 0);
	expect_logged(mm, "after isolation: pageblock at pfn 0x1000 is Movable, expected Isolate");
	snprintf(line, sizeof(line), "after a miscount: %lu ISOLATE pageblocks but isolation accounts for %lu",
		 blocks, blocks + 1);
	expect_logged(mm, line);
}

/*
 * Expect: the compaction hints are checked: a cached free scanner pfn
 * past the zone's end, a cached migrate pfn below its start, and a skip
 * bit under 3.5 (which has none: kernel.compact_skip_hint) each fail the
 * verifier; 6.12 may mark a valid block.
 */
static const char *const verify_compaction_hints_kernels[] = { "3.5", "6.12" };

static void verify_compaction_hints(void **state, const char *kernel, unsigned k)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true, .kernel = kernel);
	struct zone *z = normal(mm);
	unsigned long end = z->zone_start_pfn + z->spanned_pages;
	unsigned long saved = z->compact_cached_free_pfn, block = pageblock_index(mm, end - 1);

	expect_verify_clean(mm, "boot");
	z->compact_cached_free_pfn = end;
	expect_verify_fails(mm, "a cached free pfn at the zone's end");
	z->compact_cached_free_pfn = saved;
	saved = z->compact_cached_migrate_pfn[1];
	z->compact_cached_migrate_pfn[1] = z->zone_start_pfn - 1;
	expect_verify_fails(mm, "a cached migrate pfn below the zone");
	z->compact_cached_migrate_pfn[1] = saved;
	expect_verify_clean(mm, "the cached pfns restored");
	mm->pageblock_skip[block] = 1;
	if (mm->kernel.compact_skip_hint)
		expect_verify_clean(mm, "a skip bit on a valid block under 6.12");
	else
		expect_verify_fails(mm, "a skip bit under 3.5");
	mm->pageblock_skip[block] = 0;
}

/* Expect: @call(@z), made in a child without @z's lock, dies of SIGABRT (lockdep_assert_held). */
static void expect_bug_without_zone_lock(struct zone *z, void (*call)(struct zone *z))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		fclose(stderr);		/* the BUG line is expected */
		call(z);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
		fail_msg("called without zone->lock: expected SIGABRT from lockdep_assert_held(); the child %s %d",
			 WIFSIGNALED(status) ? "died of signal" : "exited with",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

static void verify_without_the_lock(struct zone *z)
{
	verify_zone_locked(z, "without the lock");
}

/*
 * Expect: at CMA_DEBUG >= 1 a function that demands zone->lock aborts
 * when called without it (lockdep_assert_held); with the lock it runs.
 * The call is made in a child, whose death the parent inspects.
 */
static void lockdep_assert_held_catches_a_missing_lock(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);

	if (CMA_DEBUG < 1)
		skip();
	spin_lock(&z->lock);
	assert_int_equal(verify_zone_locked(z, "with the lock"), 0);
	spin_unlock(&z->lock);
	expect_bug_without_zone_lock(z, verify_without_the_lock);
}

/* The zone's first whole pageblock. */
static unsigned long first_pageblock(struct zone *z)
{
	unsigned long nr = z->mm->pageblock_nr_pages;

	return (z->zone_start_pfn + nr - 1) & ~(nr - 1);
}

/* That pageblock given its own type again: a change of nothing. */
static void retype_first_pageblock(struct zone *z)
{
	struct cma_mm *mm = z->mm;
	unsigned long pfn = first_pageblock(z);

	move_freepages_block_isolate(z, pfn_to_page(mm, pfn), get_pageblock_migratetype(mm, pfn));
}

/*
 * Expect: move_freepages_block_isolate(), whose comment demands
 * zone->lock, runs with it (the machine verifies clean after) and aborts
 * without it, as lockdep_assert_held() has it check. The pageblock is
 * allocated whole first, so that no free page is moved: the abort is the
 * function's own, not that of the free-list helpers it calls.
 */
static void move_freepages_block_isolate_demands_zone_lock(void **state)
{
	struct cma_mm *mm = *state = test_mm(.metadata_only = true);
	struct zone *z = normal(mm);

	if (CMA_DEBUG < 1)
		skip();
	assert_non_null(cma_alloc_pages_at(mm, first_pageblock(z), mm->pageblock_order,
					   CMA_GFP_KERNEL));
	spin_lock(&z->lock);
	retype_first_pageblock(z);
	spin_unlock(&z->lock);
	assert_int_equal(cma_mm_verify(mm), 0);
	expect_bug_without_zone_lock(z, retype_first_pageblock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(verify_clean_busy_machine_passes, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_free_pages_counter_off, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_swapcache_counter_off, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_free_cma_counter_off, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_nr_free_off, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_pcp_count_off, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_buddy_head_without_pg_buddy, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_free_heads_out_of_step, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_block_heads_out_of_step, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_block_bits_out_of_step, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_untouched_out_of_step, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_fresh_pending_out_of_step, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_buddy_order_wrong, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_free_page_private_changed, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_broken_list_link, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_allocation_head_inside_free_block, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_reserved_flag_on_free_block, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_allocated_page_without_head, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_pfn_both_allocated_and_free, destroy_machine),
		cmocka_unit_test_teardown(verify_checks_high_order_pcp_blocks, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_unmovable_allocation_in_cma_pageblock, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_cma_free_block_on_movable_list, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_movable_free_block_on_cma_list, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_cma_pcp_page_with_movable_type, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_bad_pageblock_type, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_free_block_partly_isolated, destroy_machine),
		cmocka_unit_test_teardown(verify_catches_watermarks_not_ascending, destroy_machine),
		cmocka_unit_test_teardown(verify_zone_locked_names_the_transition, destroy_machine),
		cmocka_unit_test_teardown(verify_pcp_locked_catches_count_off, destroy_machine),
		cmocka_unit_test_teardown(verify_lru_locked_catches_counter_off, destroy_machine),
		cmocka_unit_test_teardown(verify_lru_locked_names_a_page_of_another_list, destroy_machine),
		cmocka_unit_test_teardown(verify_lru_locked_catches_a_list_that_loops, destroy_machine),
		cmocka_unit_test_teardown(verify_pageblocks_expects_the_isolation_state, destroy_machine),
		cmocka_unit_test_teardown(lockdep_assert_held_catches_a_missing_lock, destroy_machine),
		cmocka_unit_test_teardown(move_freepages_block_isolate_demands_zone_lock, destroy_machine),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case_teardown(verify_compaction_hints, verify_compaction_hints_kernels,
					  destroy_machine),
	};
	int failed = cmocka_run_group_tests_name("verify", tests, NULL, NULL);

	return failed + test_run_kernel_cases("verify (per kernel)", kernel_cases);
}
