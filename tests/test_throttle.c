// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim and compaction that sleep on the host's clock (issue 30 item 1):
 * with a fake clock, each of the kernel's sleeps happens where and as long
 * as each release's does (3.5-5.15 congestion_wait and wait_iff_congested,
 * from 5.16 reclaim_throttle), ends early on its wake-up, and is not taken
 * at all without sleep ops. HZ is 250: HZ/10 is 100000 us, HZ/50 20000 us,
 * one jiffy 4000 us.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

/* the last release of the congestion waits, and the first of reclaim_throttle */
static const char *const kernels[] = { "3.5", "4.8", "4.9", "5.15", "5.16", "6.12", NULL };

static bool throttles(const char *kernel)
{
	return cma_kernel_has(kernel, "reclaim_throttle") == 1;
}

/*
 * The fake host: time stands still but for sleeps. A sleep may run one
 * event of the host's (a write completing, congestion clearing) @event_us
 * into it; a wake from the library meanwhile ends the sleep there.
 */
struct fake_clock {
	struct cma_mm *mm;
	uint64_t now_us;
	unsigned sleeps[CMA_NR_SLEEP_REASONS], wakes[CMA_NR_SLEEP_REASONS];
	uint64_t timeout_us, slept_us;	/* of the last sleep */
	bool woken;
	uint64_t event_us;
	unsigned checkpoints;
	void (*event)(struct fake_clock *c);
	void *event_arg;
	char trace[4096];
	size_t trace_len;
};

static uint64_t clock_sleep(void *ctx, enum cma_sleep_reason why, uint64_t timeout_us)
{
	struct fake_clock *c = ctx;
	void (*event)(struct fake_clock *) = c->event;

	c->sleeps[why]++;
	c->timeout_us = timeout_us;
	c->woken = false;
	c->slept_us = timeout_us;
	if (event && c->event_us < timeout_us) {
		c->event = NULL;
		event(c);
		if (c->woken)
			c->slept_us = c->event_us;
	}
	c->now_us += c->slept_us;
	return c->slept_us;
}

static void clock_wake(void *ctx, enum cma_sleep_reason why)
{
	struct fake_clock *c = ctx;

	c->wakes[why]++;
	c->woken = true;
}

static void clock_checkpoint(void *ctx)
{
	struct fake_clock *c = ctx;

	c->checkpoints++;
}

static const struct cma_mm_sleep_ops clock_ops = { clock_sleep, clock_wake, clock_checkpoint };

static void trace_sleeps(void *ctx, const char *event, const char *line)
{
	struct fake_clock *c = ctx;

	if (c->trace_len < sizeof(c->trace))
		c->trace_len += (size_t)snprintf(c->trace + c->trace_len,
						 sizeof(c->trace) - c->trace_len, "%s: %s\n",
						 event, line);
}

/* @c's machine of @kernel, its clock set unless @no_clock; sleeps traced either way. */
static struct cma_mm *clock_mm(struct fake_clock *c, const char *kernel, bool no_clock)
{
	memset(c, 0, sizeof(*c));
	c->mm = test_mm(.kernel = kernel, .size = 32 * MiB, .swap = 8 * MiB);
	if (!no_clock)
		cma_mm_set_sleep_ops(c->mm, &clock_ops, c);
	cma_mm_set_trace(c->mm, trace_sleeps, c);
	assert_int_equal(cma_mm_set_trace_events(c->mm, "writeback_congestion_wait "
						 "writeback_wait_iff_congested mm_vmscan_throttled"), 0);
	return c->mm;
}

static unsigned total_sleeps(const struct fake_clock *c)
{
	unsigned n = 0;

	for (int i = 0; i < CMA_NR_SLEEP_REASONS; i++)
		n += c->sleeps[i];
	return n;
}

/* @n of @o's file pages taken off the LRU, as a parallel reclaimer holds them. */
static void isolate_file_pages(struct fake_owner *o, struct page_list *list, uint64_t n)
{
	page_list_init(list);
	lru_add_drain_all(o->mm);
	for (uint64_t i = 0; i < n; i++) {
		assert_int_equal(isolate_lru_page(o->mm, o->slots[i].page), 0);
		page_list_add(o->mm, list, o->slots[i].page);
	}
}

/* The host's event: the parallel reclaimer puts its pages back. */
static void put_back(struct fake_clock *c)
{
	putback_lru_pages(c->mm, c->event_arg);
}

/* The host's event: the storage queue drains below its congestion mark. */
static void uncongest(struct fake_clock *c)
{
	cma_mm_set_congested(c->mm, false);
}

/* The same, and the other reclaimer's pages go back. */
static void uncongest_put_back(struct fake_clock *c)
{
	uncongest(c);
	put_back(c);
}

/* The host's event: every write of the owner in @c->event_arg ends. */
static void end_all_writes(struct fake_clock *c)
{
	struct fake_owner *o = c->event_arg;

	for (uint64_t i = 0; i < o->nr_slots; i++)
		if (o->slots[i].page && page_test(o->slots[i].page, PG_writeback))
			cma_page_end_writeback(c->mm, o->slots[i].page);
}

/*
 * 64 file pages of a new owner on @c's machine, @nr_held of them isolated
 * onto @held by another reclaimer, whose pages go back @event_us into the
 * first sleep, with @event.
 */
static struct fake_owner *file_pages_held(struct fake_clock *c, struct page_list *held,
					  uint64_t nr_held, void (*event)(struct fake_clock *),
					  uint64_t event_us)
{
	struct fake_owner *o = owner_create(c->mm, false, 64);

	owner_fault_range(o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
	isolate_file_pages(o, held, nr_held);
	c->event = event;
	c->event_arg = held;
	c->event_us = event_us;
	return o;
}

/*
 * Expect (3.5 shrink_inactive_list's loop, 5.16+ its one stall): direct
 * reclaim that finds more file pages isolated than inactive sleeps, in
 * congestion_wait(HZ/10) up to 5.15 and in reclaim_throttle(ISOLATED,
 * HZ/50) from 5.16; the other reclaimer puts its pages back meanwhile and
 * reclaim goes on after the one sleep.
 */
static void direct_reclaim_sleeps_while_too_many_isolated(void **state)
{
	for_each_kernel(k, kernels) {
		struct fake_clock c;
		struct cma_mm *mm = clock_mm(&c, *k, false);
		struct page_list held;
		struct fake_owner *o = file_pages_held(&c, &held, 40, put_back, 1000);

		cma_try_to_free_pages(mm, 8, CMA_GFP_KERNEL);
		if (throttles(*k)) {
			assert_int_equal(c.sleeps[CMA_SLEEP_THROTTLE_ISOLATED], 1);
			assert_int_equal(c.timeout_us, 20000);
			assert_non_null(strstr(c.trace, "mm_vmscan_throttled: nid=0 usec_timeout=20000 "
						      "usect_delayed=20000 reason=VMSCAN_THROTTLE_ISOLATED\n"));
		} else {
			assert_int_equal(c.sleeps[CMA_SLEEP_CONGESTION], 1);
			assert_int_equal(c.timeout_us, 100000);
			assert_non_null(strstr(c.trace, "writeback_congestion_wait: usec_timeout=100000 "
						      "usec_delayed=100000\n"));
		}
		assert_int_equal(total_sleeps(&c), 1);
		assert_true(page_list_empty(&held));
		assert_verify(mm);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (3.5: clear_bdi_congested wakes congestion_wqh): a congestion
 * wait ends when the device clears its congestion, 30 ms in, not at
 * HZ/10; the event says how long it was delayed.
 */
static void congestion_wait_ends_when_congestion_clears(void **state)
{
	struct fake_clock c;
	struct cma_mm *mm = clock_mm(&c, "3.5", false);
	struct page_list held;
	struct fake_owner *o = file_pages_held(&c, &held, 40, uncongest_put_back, 30000);

	cma_mm_set_congested(mm, true);
	cma_try_to_free_pages(mm, 8, CMA_GFP_KERNEL);
	assert_int_equal(c.sleeps[CMA_SLEEP_CONGESTION], 1);
	assert_int_equal(c.wakes[CMA_SLEEP_CONGESTION], 1);
	assert_int_equal(c.now_us, 30000);
	assert_non_null(strstr(c.trace, "writeback_congestion_wait: usec_timeout=100000 "
					"usec_delayed=30000\n"));
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect: without sleep ops nothing sleeps, nothing is traced, and
 * reclaim does not wait on isolated pages (the library before the clock).
 */
static void nothing_sleeps_without_a_clock(void **state)
{
	for_each_kernel(k, kernels) {
		struct fake_clock c;
		struct cma_mm *mm = clock_mm(&c, *k, true);
		struct page_list held;
		struct fake_owner *o = file_pages_held(&c, &held, 40, NULL, 0);

		cma_mm_set_congested(mm, true);
		assert_true(cma_try_to_free_pages(mm, 8, CMA_GFP_KERNEL) > 0);
		assert_int_equal(c.trace_len, 0);
		putback_lru_pages(mm, &held);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (compaction's too_many_isolated, sync): with more than half of
 * the zone's LRU pages isolated, compaction sleeps once, congestion_wait
 * (HZ/10) up to 5.15 and reclaim_throttle(ISOLATED) from 5.16, and goes
 * on once the pages are back.
 */
static void compaction_sleeps_while_too_many_isolated(void **state)
{
	for_each_kernel(k, kernels) {
		struct fake_clock c;
		struct cma_mm *mm = clock_mm(&c, *k, false);
		struct page_list held;
		struct fake_owner *o = file_pages_held(&c, &held, 48, put_back, 1000);

		assert_int_equal(cma_compact_memory(mm), 0);
		assert_int_equal(total_sleeps(&c), 1);
		assert_int_equal(c.sleeps[throttles(*k) ? CMA_SLEEP_THROTTLE_ISOLATED :
					  CMA_SLEEP_CONGESTION], 1);
		assert_int_equal(c.timeout_us, throttles(*k) ? 20000 : 100000);
		assert_true(page_list_empty(&held));
		assert_int_equal(owner_check(o), 64);
		assert_verify(mm);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (5.16 consider_reclaim_throttle): direct reclaim that frees
 * nothing by priority 1, with more than half the reclaimable pages dirty,
 * sleeps one jiffy on NOPROGRESS; 3.5-5.15 have no such sleep. 6.12's
 * second walk of a fruitless reclaim (6.11) reaches priority 1 again and
 * sleeps again.
 */
static void direct_reclaim_without_progress_sleeps_a_jiffy(void **state)
{
	for_each_kernel(k, kernels) {
		struct fake_clock c;
		struct cma_mm *mm = clock_mm(&c, *k, false);
		struct fake_owner *o = owner_create(mm, false, 64);

		owner_fault_range(o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
		for (uint64_t i = 0; i < 64; i++)
			owner_set_dirty(o, i, true);
		lru_add_drain_all(mm);
		assert_int_equal(cma_try_to_free_pages(mm, 8, CMA_GFP_KERNEL), 0);
		assert_int_equal(owner_resident(o), 64);
		unsigned walks = strcmp(*k, "6.12") ? 1 : 2;

		if (throttles(*k)) {
			assert_int_equal(c.sleeps[CMA_SLEEP_THROTTLE_NOPROGRESS], walks);
			assert_int_equal(c.timeout_us, 4000);
			assert_non_null(strstr(c.trace, "reason=VMSCAN_THROTTLE_NOPROGRESS\n"));
		}
		assert_int_equal(total_sleeps(&c), throttles(*k) ? walks : 0);
		assert_verify(mm);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (3.5 shrink_inactive_list's end, zone_set_flag(ZONE_CONGESTED)):
 * direct reclaim whose anonymous pages the congested swap device refuses
 * marks the zone congested; a following batch of file pages all under
 * writeback waits in wait_iff_congested(HZ/10), until the device clears
 * 30 ms in. Once the device is clear, later waits are only traced
 * (usec_delayed=0). 5.16 has neither the bit nor the wait.
 */
/* @nr_anon anonymous pages and 32 file pages under writeback, the device congested. */
static void congested_machine(struct fake_clock *c, struct fake_owner **anon,
			      struct fake_owner **file, uint64_t nr_anon)
{
	*anon = owner_create(c->mm, true, 32);
	*file = owner_create(c->mm, false, 32);
	owner_fault_range(*anon, 0, nr_anon, CMA_GFP_HIGHUSER_MOVABLE);
	owner_fault_range(*file, 0, 32, CMA_GFP_HIGHUSER_MOVABLE);
	for (uint64_t i = 0; i < 32; i++) {
		owner_set_dirty(*file, i, true);
		assert_true(cma_page_start_writeback(c->mm, (*file)->slots[i].page));
	}
	cma_mm_set_congested(c->mm, true);
	c->event = uncongest;
	c->event_us = 30000;
}

static void congested_machine_destroy(struct fake_clock *c, struct fake_owner *anon,
				      struct fake_owner *file)
{
	assert_verify(c->mm);
	for (uint64_t i = 0; i < 32; i++)
		cma_page_end_writeback(c->mm, file->slots[i].page);
	owner_destroy(anon);
	owner_destroy(file);
	cma_mm_destroy(c->mm);
}

static void reclaim_waits_iff_zone_congested(void **state)
{
	for_each_kernel(k, kernels) {
		struct fake_clock c;
		struct cma_mm *mm = clock_mm(&c, *k, false);
		struct fake_owner *anon, *file;

		congested_machine(&c, &anon, &file, 32);
		cma_try_to_free_pages(mm, 16, CMA_GFP_KERNEL);
		if (throttles(*k)) {
			assert_int_equal(c.sleeps[CMA_SLEEP_CONGESTION], 0);
			assert_null(strstr(c.trace, "writeback_wait_iff_congested"));
		} else {
			assert_int_equal(c.sleeps[CMA_SLEEP_CONGESTION], 1);
			assert_int_equal(c.wakes[CMA_SLEEP_CONGESTION], 1);
			assert_non_null(strstr(c.trace, "writeback_wait_iff_congested: "
						      "usec_timeout=100000 usec_delayed=30000\n"));
			assert_non_null(strstr(c.trace, "writeback_wait_iff_congested: "
						      "usec_timeout=100000 usec_delayed=0\n"));
		}
		congested_machine_destroy(&c, anon, file);
	}
}

/*
 * Expect (3.5 wait_iff_congested): with no dirty page refused (no
 * anonymous pages), the zone is not congested and the wait after a batch
 * under writeback is only cond_resched(), traced with usec_delayed=0.
 */
static void reclaim_does_not_wait_on_an_uncongested_zone(void **state)
{
	struct fake_clock c;
	struct cma_mm *mm = clock_mm(&c, "3.5", false);
	struct fake_owner *anon, *file;

	congested_machine(&c, &anon, &file, 0);
	cma_try_to_free_pages(mm, 16, CMA_GFP_KERNEL);
	assert_int_equal(total_sleeps(&c), 0);
	assert_non_null(strstr(c.trace, "writeback_wait_iff_congested: "
					"usec_timeout=100000 usec_delayed=0\n"));
	congested_machine_destroy(&c, anon, file);
}

/* The machine's one populated zone. */
static struct zone *only_zone(struct cma_mm *mm)
{
	struct zone *zone, *found = NULL;

	for_each_populated_zone(mm, zone) {
		assert_null(found);
		found = zone;
	}
	return found;
}

/*
 * kswapd with work it cannot do: 64 file pages whose owner refuses to let
 * them go, and free memory taken by atomic allocations (which never
 * reclaim) down to between the min and high marks, or to half the min
 * one when @under_min; with @writeback, each page is under writeback
 * instead. The clock is set after, so that only reclaim's sleeps are
 * seen. Returns the owner; the taken pages in @taken.
 */
static struct fake_owner *kswapd_in_trouble(struct fake_clock *c, const char *kernel,
					    bool under_min, bool writeback, struct page_list *taken)
{
	struct cma_mm *mm = clock_mm(c, kernel, true);
	struct fake_owner *o = owner_create(mm, false, 64);
	struct zone *zone = only_zone(mm);
	unsigned long free_pages = under_min ? min_wmark_pages(zone) / 2 :
				   (min_wmark_pages(zone) + high_wmark_pages(zone)) / 2;
	struct cma_page *page;

	owner_fault_range(o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
	o->refuse_reclaim = -EBUSY;
	for (uint64_t i = 0; writeback && i < 64; i++) {
		owner_set_dirty(o, i, true);
		assert_true(cma_page_start_writeback(mm, o->slots[i].page));
	}
	page_list_init(taken);
	while (zone_page_state(zone, NR_FREE_PAGES) > free_pages &&
	       (page = cma_alloc_pages(mm, CMA_GFP_ATOMIC | CMA_GFP_NOWARN, 0)))
		page_list_add(mm, taken, page);
	assert_true(zone_page_state(zone, NR_FREE_PAGES) <= free_pages);
	cma_mm_set_sleep_ops(mm, &clock_ops, c);
	return o;
}

static void kswapd_in_trouble_destroy(struct fake_clock *c, struct fake_owner *o,
				      struct page_list *taken)
{
	struct cma_page *page;

	while ((page = page_list_first(c->mm, taken))) {
		page_list_del(c->mm, taken, page);
		cma_free_pages(c->mm, page, 0);
	}
	for (uint64_t i = 0; i < 64; i++)
		if (page_test(o->slots[i].page, PG_writeback))
			cma_page_end_writeback(c->mm, o->slots[i].page);
	owner_destroy(o);
	cma_mm_destroy(c->mm);
}

/*
 * Expect (3.5 balance_pgdat): kswapd that scanned and is still short of
 * the high mark below DEF_PRIORITY - 2 waits in congestion_wait(HZ/10)
 * when no zone is under its min mark; 3.9 dropped that wait
 * (kernel.kswapd_balance_nowait). 3.8 and 3.9 are the boundary.
 */
static void kswapd_in_trouble_waits_for_the_device(void **state)
{
	static const char *const waiting[] = { "3.5", "3.8", "3.9", "4.8", "5.15", "6.12", NULL };

	for_each_kernel(k, waiting) {
		struct fake_clock c;
		struct page_list taken;
		struct fake_owner *o = kswapd_in_trouble(&c, *k, false, false, &taken);

		cma_kswapd_step(c.mm);
		if (cma_kernel_has(*k, "kswapd_balance_nowait") == 1) {
			assert_int_equal(total_sleeps(&c), 0);
		} else {
			assert_true(c.sleeps[CMA_SLEEP_CONGESTION] > 0);
			assert_int_equal(total_sleeps(&c), c.sleeps[CMA_SLEEP_CONGESTION]);
			assert_int_equal(c.timeout_us, 100000);
		}
		assert_int_equal(o->reclaimed, 0);
		kswapd_in_trouble_destroy(&c, o, &taken);
	}
}

/*
 * Expect (3.5 balance_pgdat): with a zone under its min mark, kswapd
 * does not wait but counts the wait it skipped
 * (kswapd_skip_congestion_wait), whether or not there is a clock.
 */
static void kswapd_under_min_skips_the_wait(void **state)
{
	struct fake_clock c;
	struct page_list taken;
	struct fake_owner *o = kswapd_in_trouble(&c, "3.5", true, false, &taken);
	uint64_t skipped = 0;

	cma_kswapd_step(c.mm);
	assert_int_equal(total_sleeps(&c), 0);
	assert_int_equal(cma_mm_counter(c.mm, "kswapd_skip_congestion_wait", &skipped), 0);
	assert_true(skipped > 0);
	kswapd_in_trouble_destroy(&c, o, &taken);
}

/*
 * Expect (5.16 shrink_node): kswapd whose batches are all under writeback
 * flags the node (PGDAT_WRITEBACK, LRUVEC_NODE_CONGESTED), then sleeps on
 * WRITEBACK (HZ/10) as the pages come round again; direct reclaim then
 * sleeps a jiffy on CONGESTED, the writes pending being more than half
 * the reclaimable pages, unless kswapd gave the node up. 3.5-5.15 have
 * neither queue; 3.5-4.8's kswapd waits instead in throttle_vm_writeout
 * (congestion_wait), the writes over the dirty limit of a machine this
 * full, until they end. From 4.12
 * writes that do not end leave kswapd's runs freeing nothing until it
 * gives the node up (kswapd_failures).
 */
static void kswapd_throttles_on_pages_cycling_under_writeback(void **state)
{
	for_each_kernel(k, kernels) {
		struct fake_clock c;
		struct page_list taken;
		struct fake_owner *o = kswapd_in_trouble(&c, *k, false, true, &taken);
		bool vm_writeout = cma_kernel_has(*k, "vm_writeout_unthrottled") == 0;
		struct cma_page *page;

		/* 3.5-4.8: kswapd's throttle_vm_writeout waits for these writes; they end 30 ms in */
		if (vm_writeout) {
			c.event = end_all_writes;
			c.event_arg = o;
			c.event_us = 30000;
		}
		cma_kswapd_step(c.mm);
		assert_int_equal(c.sleeps[CMA_SLEEP_CONGESTION] > 0, vm_writeout);
		assert_int_equal(c.sleeps[CMA_SLEEP_THROTTLE_WRITEBACK] > 0, throttles(*k));
		if (throttles(*k))
			assert_int_equal(c.timeout_us, 100000);
		/* 4.12: writes that never end leave kswapd nothing to free, so it gives the node up */
		if (!vm_writeout)
			assert_int_equal(kswapd_hopeless(c.mm), cma_kernel_has(*k, "kswapd_failures") == 1);
		/* a page freed to buddy: the zone kswapd gave up on is worth a look again (until 4.12) */
		page = page_list_first(c.mm, &taken);
		page_list_del(c.mm, &taken, page);
		cma_free_pages(c.mm, page, 0);
		cma_drain_all_pages(c.mm);
		if (throttles(*k)) {
			/* a node kswapd gave up on is near OOM: no use sleeping (skip_throttle_noprogress) */
			cma_try_to_free_pages(c.mm, 8, CMA_GFP_KERNEL);
			assert_int_equal(c.sleeps[CMA_SLEEP_THROTTLE_CONGESTED], 0);
			/* as after a run that freed pages elsewhere: kswapd hopeful again */
			atomic_store_explicit(&c.mm->kswapd_failures, 0, memory_order_relaxed);
			c.trace_len = 0;
		}
		cma_try_to_free_pages(c.mm, 8, CMA_GFP_KERNEL);
		assert_int_equal(c.sleeps[CMA_SLEEP_THROTTLE_CONGESTED] > 0, throttles(*k));
		if (throttles(*k))
			assert_non_null(strstr(c.trace, "usec_timeout=4000 usect_delayed=4000 "
							"reason=VMSCAN_THROTTLE_CONGESTED\n"));
		kswapd_in_trouble_destroy(&c, o, &taken);
	}
}

/*
 * Expect (3.5 __alloc_pages_slowpath): an order-0 allocation below the min
 * mark whose reclaim reports progress (a zone still worth scanning) but
 * frees nothing waits in wait_iff_congested(HZ/50) before each retry,
 * only traced when the device is not congested. From 4.9
 * (kernel.reclaim_retry) 6.12's should_reclaim_retry decides the retry,
 * with no such wait (nor, here, 4.9-5.15's congestion_wait, which needs
 * writes pending: tests/test_reclaim_retry.c).
 */
static void slow_path_waits_iff_congested_before_retrying(void **state)
{
	for_each_kernel(k, kernels) {
		struct fake_clock c;
		struct page_list taken;
		struct fake_owner *o = kswapd_in_trouble(&c, *k, true, false, &taken);
		struct cma_page *page = cma_alloc_pages(c.mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);

		if (page)
			cma_free_pages(c.mm, page, 0);
		if (cma_kernel_has(*k, "reclaim_retry") == 1)
			assert_null(strstr(c.trace, "writeback_wait_iff_congested"));
		else
			assert_non_null(strstr(c.trace, "writeback_wait_iff_congested: "
							"usec_timeout=20000 usec_delayed=0\n"));
		assert_int_equal(c.sleeps[CMA_SLEEP_CONGESTION], 0);
		kswapd_in_trouble_destroy(&c, o, &taken);
	}
}

/* The host's event: 33 writes in flight complete. */
static void end_writes(struct fake_clock *c)
{
	struct fake_owner *o = c->event_arg;

	for (uint64_t i = 0; i < 33; i++)
		cma_page_end_writeback(c->mm, o->slots[i].page);
}

/*
 * Expect (5.16 __acct_reclaim_writeback): a task throttled on writeback
 * is woken once more than SWAP_CLUSTER_MAX pages finished writeback since
 * it went to sleep: 33 writes ending 10 ms into the HZ/10 sleep end it.
 */
static void writeback_throttle_ends_when_enough_is_written(void **state)
{
	struct fake_clock c;
	struct cma_mm *mm = clock_mm(&c, "6.12", false);
	struct fake_owner *o = owner_create(mm, false, 33);

	owner_fault_range(o, 0, 33, CMA_GFP_HIGHUSER_MOVABLE);
	for (uint64_t i = 0; i < 33; i++) {
		owner_set_dirty(o, i, true);
		assert_true(cma_page_start_writeback(mm, o->slots[i].page));
	}
	c.event = end_writes;
	c.event_arg = o;
	c.event_us = 10000;
	reclaim_throttle(mm, CMA_SLEEP_THROTTLE_WRITEBACK);
	assert_int_equal(c.wakes[CMA_SLEEP_THROTTLE_WRITEBACK], 1);
	assert_int_equal(c.timeout_us, 100000);
	assert_non_null(strstr(c.trace, "mm_vmscan_throttled: nid=0 usec_timeout=100000 "
					"usect_delayed=10000 reason=VMSCAN_THROTTLE_WRITEBACK\n"));
	assert_int_equal(atomic_load(&mm->nr_writeback_throttled), 0);
	assert_verify(mm);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* 3000 file pages of a new owner on @c's machine, all under writeback. */
static struct fake_owner *writeback_flood(struct fake_clock *c)
{
	struct fake_owner *o = owner_create(c->mm, false, 3000);

	owner_fault_range(o, 0, 3000, CMA_GFP_HIGHUSER_MOVABLE);
	for (uint64_t i = 0; i < 3000; i++) {
		owner_set_dirty(o, i, true);
		assert_true(cma_page_start_writeback(c->mm, o->slots[i].page));
	}
	return o;
}

/*
 * Expect (throttle_vm_writeout, 3.5-4.8; "mm, vmscan: get rid of
 * throttle_vm_writeout", 4.9): with 3000 of a 32 MiB machine's pages
 * under writeback, over the dirty threshold (20% of the free and
 * reclaimable pages) and a tenth, direct reclaim sleeps in
 * congestion_wait(HZ/10) at the end of the zone's shrink, once: the
 * writes end 30 ms into the sleep, which the device's congestion queue
 * does not hear of, so it lasts its 100 ms. 4.9 on: no such sleep. A
 * GFP_NOIO caller sleeps once and goes on though the writes never end;
 * a GFP_KERNEL one under the threshold does not sleep.
 */
static void reclaim_waits_while_writeback_over_the_limit_until_48(void **state)
{
	for_each_kernel(k, kernels) {
		struct fake_clock c;
		struct cma_mm *mm = clock_mm(&c, *k, false);
		struct fake_owner *o = writeback_flood(&c);
		bool throttled = cma_kernel_has(*k, "vm_writeout_unthrottled") == 0;
		unsigned long background, thresh;

		global_dirty_limits(mm, &background, &thresh);
		assert_true(3000 > thresh + thresh / 10);
		c.event = end_all_writes;
		c.event_arg = o;
		c.event_us = 30000;
		cma_try_to_free_pages(mm, 16, CMA_GFP_KERNEL);
		if (c.sleeps[CMA_SLEEP_CONGESTION] != (throttled ? 1u : 0u))
			fail_msg("%s: %u congestion waits, expected %u", *k,
				 c.sleeps[CMA_SLEEP_CONGESTION], throttled ? 1u : 0u);
		assert_int_equal(strstr(c.trace, "writeback_congestion_wait: usec_timeout=100000 "
					"usec_delayed=100000\n") != NULL, throttled);
		assert_verify(mm);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
	for (unsigned noio = 0; noio < 2; noio++) {
		struct fake_clock c;
		struct cma_mm *mm = clock_mm(&c, "3.5", false);
		struct fake_owner *o = owner_create(mm, false, 3000);

		owner_fault_range(o, 0, 3000, CMA_GFP_HIGHUSER_MOVABLE);
		for (uint64_t i = 0; i < (noio ? 3000u : 100u); i++) {
			owner_set_dirty(o, i, true);
			assert_true(cma_page_start_writeback(mm, o->slots[i].page));
		}
		throttle_vm_writeout(mm, noio ? CMA_GFP_NOIO : CMA_GFP_KERNEL);
		assert_int_equal(c.sleeps[CMA_SLEEP_CONGESTION], noio);
		c.event_arg = o;
		end_all_writes(&c);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/* The dirty threshold with the per-CPU lists and pagevecs emptied. */
static unsigned long drained_dirty_thresh(struct cma_mm *mm)
{
	unsigned long background, thresh;

	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	global_dirty_limits(mm, &background, &thresh);
	return thresh;
}

/*
 * Expect (global_dirtyable_memory; 3.14's "do not count anon pages as
 * dirtyable memory"): 2000 anonymous pages faulted in on a machine with
 * swap leave the dirty threshold as it was under 3.13 (free pages became
 * anonymous ones, both dirtyable) and lower it by a fifth of them from
 * 3.14.
 */
static void dirty_threshold_counts_anon_until_313(void **state)
{
	static const char *const eras[] = { "3.13", "3.14", NULL };

	for_each_kernel(k, eras) {
		struct fake_clock c;
		struct cma_mm *mm = clock_mm(&c, *k, false);
		struct fake_owner *o = owner_create(mm, true, 2000);
		unsigned long before = drained_dirty_thresh(mm), after;
		long drop;

		owner_fault_range(o, 0, 2000, CMA_GFP_HIGHUSER_MOVABLE);
		after = drained_dirty_thresh(mm);
		drop = (long)before - (long)after;
		if (strcmp(*k, "3.13") ? drop != 2000 * 20 / 100 : drop != 0)
			fail_msg("%s: the threshold fell by %ld pages, from %lu", *k, drop, before);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

/*
 * Expect (cond_resched(), 3.5 and 6.12): the host is given a scheduling
 * point at each shrink_page_list batch, each migrate_pages pass and after
 * direct reclaim, and none while nothing runs; an uncongested
 * wait_iff_congested gives one instead of a sleep.
 */
static void reclaim_and_migration_give_way_to_the_clock(void **state)
{
	static const char *const eras[] = { "3.5", "6.12", NULL };

	for_each_kernel(k, eras) {
		struct fake_clock c;
		struct cma_mm *mm = clock_mm(&c, *k, false);
		struct fake_owner *o = owner_create(mm, false, 64);
		unsigned long pfn;
		unsigned before;

		owner_fault_range(o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
		assert_int_equal(c.checkpoints, 0);
		assert_true(cma_try_to_free_pages(mm, 8, CMA_GFP_KERNEL) > 0);
		assert_true(c.checkpoints >= 1);
		before = c.checkpoints;
		pfn = cma_page_to_pfn(mm, o->slots[63].page);
		assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
		if (c.checkpoints <= before)
			fail_msg("kernel %s: migrating a page gave no scheduling point", *k);
		cma_free_contig_range(mm, pfn, 1);
		before = c.checkpoints;
		wait_iff_congested(&mm->zones[ZONE_NORMAL], HZ / 50);
		assert_int_equal(c.checkpoints, before + 1);
		assert_int_equal(total_sleeps(&c), 0);
		assert_verify(mm);
		owner_destroy(o);
		cma_mm_destroy(mm);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(direct_reclaim_sleeps_while_too_many_isolated),
		cmocka_unit_test(congestion_wait_ends_when_congestion_clears),
		cmocka_unit_test(nothing_sleeps_without_a_clock),
		cmocka_unit_test(compaction_sleeps_while_too_many_isolated),
		cmocka_unit_test(direct_reclaim_without_progress_sleeps_a_jiffy),
		cmocka_unit_test(reclaim_waits_iff_zone_congested),
		cmocka_unit_test(reclaim_does_not_wait_on_an_uncongested_zone),
		cmocka_unit_test(kswapd_in_trouble_waits_for_the_device),
		cmocka_unit_test(kswapd_under_min_skips_the_wait),
		cmocka_unit_test(kswapd_throttles_on_pages_cycling_under_writeback),
		cmocka_unit_test(slow_path_waits_iff_congested_before_retrying),
		cmocka_unit_test(writeback_throttle_ends_when_enough_is_written),
		cmocka_unit_test(reclaim_and_migration_give_way_to_the_clock),
		cmocka_unit_test(reclaim_waits_while_writeback_over_the_limit_until_48),
		cmocka_unit_test(dirty_threshold_counts_anon_until_313),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
