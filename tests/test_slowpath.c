// SPDX-License-Identifier: GPL-2.0
/*
 * The allocator's slow path (src/mm/slowpath.c) against v3.5's
 * __alloc_pages_slowpath, __alloc_pages_may_oom and should_alloc_retry:
 * when the OOM handler is called, when a request fails instead, how often
 * kswapd is woken, and that a machine full of dirty page cache waits for
 * kswapd's writeback instead of killing. Each test boots a small machine
 * (32 MiB, one Normal zone, unless it needs a DMA zone) with no swap.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

#define MAX_PAGES	20000

struct oom_count {
	unsigned calls;
	struct cma_mm *mm;
	struct cma_page *victim;	/* freed by the handler, once */
};

static unsigned long count_oom(void *ctx, struct cma_mm *mm, unsigned order)
{
	struct oom_count *c = ctx;

	c->calls++;
	if (!c->victim)
		return 0;
	cma_free_pages(mm, c->victim, 0);
	c->victim = NULL;
	cma_drain_all_pages(mm);
	return 1;
}

/* A test's machine and what it holds, torn down even when the test fails. */
struct sp_test {
	struct cma_mm *mm;
	struct cma_page **pages;
	unsigned long nr_pages;
	struct fake_owner *owner;
	struct oom_count oom;
};

/* @kernel NULL: the run's profile (CMA_TEST_KERNEL). */
static struct sp_test *sp_test_kernel(void **state, uint64_t size, cma_phys_t dma_end,
				      const char *kernel)
{
	struct sp_test *t = calloc(1, sizeof(*t));
	struct cma_bank bank = { 0, size };
	struct cma_mm_config cfg = {
		.banks = &bank, .nr_banks = 1, .cmdline = "cma=0", .zone_dma_end = dma_end,
		.nr_cpus = 1, .kernel = kernel,
	};

	assert_non_null(t);
	*state = t;
	t->pages = calloc(MAX_PAGES, sizeof(*t->pages));
	assert_non_null(t->pages);
	t->mm = test_boot(&cfg);
	cma_mm_set_oom_handler(t->mm, count_oom, &t->oom);
	return t;
}

static struct sp_test *sp_test(void **state, uint64_t size, cma_phys_t dma_end)
{
	return sp_test_kernel(state, size, dma_end, NULL);
}

static int sp_teardown(void **state)
{
	struct sp_test *t = *state;

	if (!t)
		return 0;
	cma_kswapd_stop(t->mm);
	if (t->owner)
		owner_destroy(t->owner);
	while (t->nr_pages)
		cma_free_pages(t->mm, t->pages[--t->nr_pages], 0);
	if (t->oom.victim)
		cma_free_pages(t->mm, t->oom.victim, 0);
	cma_mm_destroy(t->mm);
	free(t->pages);
	free(t);
	*state = NULL;
	return 0;
}

/* Every page the allocator gives to GFP_KERNEL, held: nothing on the LRU to reclaim. */
static void fill_unmovable(struct sp_test *t)
{
	t->nr_pages = test_alloc_all(t->mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, t->pages, MAX_PAGES);
	assert_true(t->nr_pages > 0);
	t->oom = (struct oom_count){ 0 };
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/*
 * Expect: on a full machine, an order-5 GFP_KERNEL request fails without
 * calling the OOM handler: __alloc_pages_may_oom kills for no order above
 * PAGE_ALLOC_COSTLY_ORDER (3).
 */
static void alloc_pages_costly_order_fails_without_oom(void **state)
{
	struct sp_test *t = sp_test(state, 32 * MiB, 0);

	fill_unmovable(t);
	assert_null(cma_alloc_pages(t->mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 5));
	assert_int_equal(t->oom.calls, 0);
	assert_verify(t->mm);
}

/*
 * Expect: on a full machine with a DMA zone, a GFP_DMA request fails
 * without calling the OOM handler: __alloc_pages_may_oom kills for no
 * request limited below ZONE_NORMAL.
 */
static void alloc_pages_lowmem_request_fails_without_oom(void **state)
{
	struct sp_test *t = sp_test(state, 64 * MiB, 16 * MiB);

	fill_unmovable(t);
	/* what lowmem_reserve kept from GFP_KERNEL */
	t->nr_pages += test_alloc_all(t->mm, CMA_GFP_KERNEL | CMA_GFP_DMA | CMA_GFP_NOWARN,
				      t->pages + t->nr_pages, MAX_PAGES - t->nr_pages);
	assert_null(cma_alloc_pages(t->mm, CMA_GFP_KERNEL | CMA_GFP_DMA | CMA_GFP_NOWARN, 0));
	assert_int_equal(t->oom.calls, 0);
	assert_verify(t->mm);
}

/*
 * Expect: an order-0 GFP_KERNEL request on a full machine calls the OOM
 * handler; the page it frees serves the request (v3.5: restart after the
 * kill).
 */
static void alloc_pages_oom_kill_serves_request(void **state)
{
	struct sp_test *t = sp_test(state, 32 * MiB, 0);
	struct cma_page *page;

	fill_unmovable(t);
	t->oom.victim = t->pages[--t->nr_pages];
	page = cma_alloc_pages(t->mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);
	assert_non_null(page);
	assert_int_equal(t->oom.calls, 1);
	cma_free_pages(t->mm, page, 0);
	assert_verify(t->mm);
}

/*
 * Expect: an order-0 __GFP_RETRY_MAYFAIL request on a full machine calls
 * the OOM handler up to 4.12 (the bit was __GFP_REPEAT, which kills like
 * any other); from 4.13 it fails without it ("mm, tree wide: replace
 * __GFP_REPEAT by __GFP_RETRY_MAYFAIL with more useful semantic").
 */
static const char *const alloc_pages_retry_mayfail_oom_by_release_kernels[] = { "4.12", "4.13", "6.12" };

static void alloc_pages_retry_mayfail_oom_by_release(void **state, const char *kernel, unsigned k)
{
	struct sp_test *t = sp_test_kernel(state, 32 * MiB, 0, kernel);
	bool mayfail = cma_kernel_has(kernel, "retry_mayfail") == 1;
	struct cma_page *page;

	fill_unmovable(t);
	t->oom.victim = t->pages[--t->nr_pages];
	page = cma_alloc_pages(t->mm, CMA_GFP_KERNEL | CMA_GFP_RETRY_MAYFAIL | CMA_GFP_NOWARN, 0);
	if (mayfail ? page != NULL || t->oom.calls : !page || t->oom.calls != 1)
		fail_msg("page %p after %u OOM calls", (void *)page, t->oom.calls);
	if (page)
		cma_free_pages(t->mm, page, 0);
	assert_verify(t->mm);
}

/*
 * Expect: a __GFP_NORETRY request fails after one round of reclaim,
 * without the OOM handler. The round frees nothing: from 6.11 it walks
 * twice and counts two stalls.
 */
static void alloc_pages_noretry_fails_without_oom(void **state)
{
	struct sp_test *t = sp_test(state, 32 * MiB, 0);
	uint64_t walks = t->mm->kernel.reclaim_full_walk ? 2 : 1;
	uint64_t stalls;

	fill_unmovable(t);
	stalls = counter(t->mm, "allocstall");
	assert_null(cma_alloc_pages(t->mm, CMA_GFP_KERNEL | CMA_GFP_NORETRY | CMA_GFP_NOWARN, 0));
	assert_int_equal(t->oom.calls, 0);
	assert_int_equal(counter(t->mm, "allocstall"), stalls + walks);
	assert_verify(t->mm);
}

static unsigned wakeups;

static void count_wakeups(void *ctx, const char *event, const char *line)
{
	if (!strcmp(event, "mm_vmscan_wakeup_kswapd"))
		__atomic_fetch_add(&wakeups, 1, __ATOMIC_RELAXED);
}

/*
 * Expect: a GFP_NOFS order-0 request on a full machine never calls the
 * OOM handler, but should_alloc_retry has it retry direct reclaim (v3.5
 * loops; here the rounds are bounded) before it fails; kswapd is woken
 * on entry only, not on each retry (goto rebalance). From 4.9
 * (kernel.reclaim_retry) the OOM path tells such a request to retry
 * without killing, and each retry wakes kswapd again: one wakeup more
 * than rounds of direct reclaim, until kswapd, failing as often as the
 * slow path retries, gives the node up (4.12, kernel.kswapd_failures):
 * when its thread gets there, before the first wakeup or later, is the
 * host's timing. Each round frees
 * nothing: from 6.11 it walks twice, counting two stalls.
 */
static void alloc_pages_nofs_retries_waking_kswapd_once(void **state)
{
	struct sp_test *t = sp_test(state, 32 * MiB, 0);
	bool v6 = t->mm->kernel.reclaim_retry;
	uint64_t walks = t->mm->kernel.reclaim_full_walk ? 2 : 1;
	uint64_t stalls, rounds;

	fill_unmovable(t);
	stalls = counter(t->mm, "allocstall");
	wakeups = 0;
	/* set while no other thread runs */
	cma_mm_set_trace(t->mm, count_wakeups, NULL);
	assert_int_equal(cma_kswapd_start(t->mm), 0);
	assert_null(cma_alloc_pages(t->mm, CMA_GFP_WAIT | CMA_GFP_IO | CMA_GFP_NOWARN, 0));
	cma_kswapd_stop(t->mm);
	cma_mm_set_trace(t->mm, NULL, NULL);
	assert_int_equal(t->oom.calls, 0);
	rounds = counter(t->mm, "allocstall") - stalls;
	assert_int_equal(rounds % walks, 0);
	rounds /= walks;
	assert_true(rounds > 1);
	if (t->mm->kernel.kswapd_failures) {
		/* kswapd may give up before the first wakeup: it starts on an unbalanced node */
		assert_in_range(__atomic_load_n(&wakeups, __ATOMIC_RELAXED), 0, rounds + 1);
	} else {
		assert_int_equal(__atomic_load_n(&wakeups, __ATOMIC_RELAXED), v6 ? rounds + 1 : 1);
	}
	assert_verify(t->mm);
}

/* Memory another task frees while direct reclaim runs (as a concurrent OOM kill would). */
static struct {
	struct cma_mm *mm;
	struct cma_page *block;
	unsigned order;
} freed_under_reclaim;

static void free_at_reclaim_end(void *ctx, const char *event, const char *line)
{
	if (strcmp(event, "mm_vmscan_direct_reclaim_end") || !freed_under_reclaim.block)
		return;
	cma_free_pages(freed_under_reclaim.mm, freed_under_reclaim.block, freed_under_reclaim.order);
	freed_under_reclaim.block = NULL;
}

/*
 * Expect: when direct reclaim makes no progress but memory was freed
 * meanwhile, __alloc_pages_may_oom's last try at the high mark serves the
 * request and the OOM handler is not called (without that try, it would
 * be).
 */
static void alloc_pages_last_try_at_high_mark_spares_oom(void **state)
{
	struct sp_test *t = sp_test(state, 32 * MiB, 0);
	struct cma_page *page;

	freed_under_reclaim.mm = t->mm;
	freed_under_reclaim.order = 9;
	freed_under_reclaim.block = cma_alloc_pages(t->mm, CMA_GFP_KERNEL, 9);
	assert_non_null(freed_under_reclaim.block);
	fill_unmovable(t);
	/* set while no other thread runs */
	cma_mm_set_trace(t->mm, free_at_reclaim_end, NULL);
	page = cma_alloc_pages(t->mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);
	cma_mm_set_trace(t->mm, NULL, NULL);
	assert_null(freed_under_reclaim.block);
	assert_non_null(page);
	assert_int_equal(t->oom.calls, 0);
	cma_free_pages(t->mm, page, 0);
	assert_verify(t->mm);
}

/*
 * Expect: with a polled kswapd, a machine below its min mark with nothing
 * but dirty page cache does not OOM-kill an order-0 GFP_KERNEL request:
 * direct reclaim cannot write, but reports progress while the zone is
 * reclaimable (do_try_to_free_pages), so the request waits for kswapd,
 * which writes the pages back and frees them.
 */
static void alloc_pages_dirty_cache_waits_for_kswapd(void **state)
{
	struct sp_test *t = sp_test(state, 32 * MiB, 0);
	struct zone *zone = &t->mm->zones[ZONE_NORMAL];
	struct cma_page *page;
	uint64_t i;

	t->owner = owner_create(t->mm, false, MAX_PAGES);
	assert_non_null(t->owner);
	/* below the mark with the per-CPU lists empty, which hold more from 5.14 */
	for (i = 0; zone_watermark_ok(zone, 0, min_wmark_pages(zone), 0, 0) ||
		    (cma_drain_all_pages(t->mm), zone_watermark_ok(zone, 0, min_wmark_pages(zone), 0, 0)); i++) {
		assert_non_null(owner_fault(t->owner, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1));
		owner_set_dirty(t->owner, i, true);
	}
	assert_int_equal(counter(t->mm, "allocstall"), 0);
	assert_int_equal(cma_kswapd_start_polled(t->mm), 0);

	page = cma_alloc_pages(t->mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);
	assert_non_null(page);
	assert_int_equal(t->oom.calls, 0);
	assert_true(t->owner->written_back > 0);
	assert_true(counter(t->mm, "pgsteal_kswapd_normal") > 0);
	cma_free_pages(t->mm, page, 0);
	assert_true(owner_check(t->owner) >= 0);
	assert_verify(t->mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(alloc_pages_costly_order_fails_without_oom, sp_teardown),
		cmocka_unit_test_teardown(alloc_pages_lowmem_request_fails_without_oom, sp_teardown),
		cmocka_unit_test_teardown(alloc_pages_oom_kill_serves_request, sp_teardown),
		cmocka_unit_test_teardown(alloc_pages_noretry_fails_without_oom, sp_teardown),
		cmocka_unit_test_teardown(alloc_pages_nofs_retries_waking_kswapd_once, sp_teardown),
		cmocka_unit_test_teardown(alloc_pages_dirty_cache_waits_for_kswapd, sp_teardown),
		cmocka_unit_test_teardown(alloc_pages_last_try_at_high_mark_spares_oom, sp_teardown),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case_teardown(alloc_pages_retry_mayfail_oom_by_release,
					  alloc_pages_retry_mayfail_oom_by_release_kernels, sp_teardown),
	};
	int failed = cmocka_run_group_tests_name("slowpath", tests, NULL, NULL);

	return failed + test_run_kernel_cases("slowpath (per kernel)", kernel_cases);
}
