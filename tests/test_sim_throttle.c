// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim's clock for the library's reclaim sleeps (engine/storage.c): the
 * storage queue is the backing device, congested at the block layer's
 * marks, and a sleep moves the request's clock on through the queue's
 * completions until its timeout or the wake-up they bring.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"
#include "engine/kswapd.h"
#include "engine/owned.h"
#include "engine/sim.h"
#include "policies/registry.h"

/* A workload driven by hand: no process of its own runs (no runnable hook). */
static const struct workload_ops by_hand_ops;

struct clocked {
	struct sim *s;
	struct cma_mm *mm;
	char trace[1024];
};

static void trace_keep(void *ctx, const char *event, const char *line)
{
	struct clocked *c = ctx;

	snprintf(c->trace, sizeof(c->trace), "%s", line);
}

/* A 3.5 machine whose sleeps are a bare engine's, on x86's storage at time 0. */
static void clocked_init(struct clocked *c)
{
	c->s = calloc(1, sizeof(*c->s));
	assert_non_null(c->s);
	c->mm = test_mm(.kernel = "3.5");
	c->s->mm = c->mm;
	cost_profile(CMA_ARCH_X86, &c->s->cost);
	storage_attach_clock(c->s, c->mm);
	storage_request_start(c->s, 0);
	cma_mm_set_trace(c->mm, trace_keep, c);
}

static void clocked_destroy(struct clocked *c)
{
	storage_destroy(&c->s->storage);
	cma_mm_destroy(c->mm);
	sim_events_destroy(c->s);	/* the tracked writes' completion events */
	free(c->s);
}

/* @n 4 KiB swap writes queued at 0: the i-th done at (i + 1) * 16384 ns + 100 us. */
static void queue_writes(struct clocked *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		storage_submit(&c->s->storage, &c->s->cost, 0, STORAGE_SEQ_WRITE, 4096);
}

/*
 * Expect (3.x blk_queue_congestion_threshold, nr_requests 128): the
 * device is congested from the 113th write queued, not the 112th.
 */
static void storage_congested_from_113_writes(void **state)
{
	struct clocked c;

	clocked_init(&c);
	queue_writes(&c, 112);
	assert_false(atomic_load(&c.mm->bdi_congested));
	queue_writes(&c, 1);
	assert_true(atomic_load(&c.mm->bdi_congested));
	clocked_destroy(&c);
}

/*
 * Expect (clear_bdi_congested wakes congestion_wait): a congestion wait
 * with 113 writes queued ends when the 11th completes and leaves 102,
 * below the mark of 103: at 11 * 16384 + 100000 = 280224 ns, not HZ/10.
 * The request's clock and its throttle time move by as much.
 */
static void storage_sleep_ends_when_congestion_clears(void **state)
{
	struct clocked c;

	clocked_init(&c);
	queue_writes(&c, 113);
	congestion_wait(c.mm, HZ / 10);
	assert_false(atomic_load(&c.mm->bdi_congested));
	assert_string_equal(c.trace, "writeback_congestion_wait: usec_timeout=100000 usec_delayed=280");
	assert_int_equal(c.s->storage.clock[0].throttle_ns, 280224);
	assert_int_equal(c.s->storage.clock[0].waited_to, 280224);
	assert_int_equal(c.s->storage.clock[0].sleeps, 1);
	clocked_destroy(&c);
}

/*
 * Expect: a sleep nothing wakes (too few writes queued to clear any
 * congestion) lasts its timeout, and a second one in the same request
 * starts where the first ended.
 */
static void storage_sleep_lasts_its_timeout_unwoken(void **state)
{
	struct clocked c;

	clocked_init(&c);
	queue_writes(&c, 10);
	congestion_wait(c.mm, HZ / 10);
	congestion_wait(c.mm, HZ / 10);
	assert_string_equal(c.trace, "writeback_congestion_wait: usec_timeout=100000 usec_delayed=100000");
	assert_int_equal(c.s->storage.clock[0].throttle_ns, 200000000);
	assert_int_equal(c.s->storage.clock[0].waited_to, 200000000);
	clocked_destroy(&c);
}

/*
 * Expect: a request's sleep is its latency as it is, apart from its CPU
 * work: seven runnable threads on its one CPU's queue stretch no part
 * of it, and a request with no CPU work does not wait for them.
 */
static void cost_ns_adds_sleep_unstretched(void **state)
{
	struct cost_work slept = { .throttle_ns = 100000000, .runnable = 7, .nr_cpus = 1 };
	struct sched_tunables t;
	struct sched_task k;
	struct cost_model m;

	cost_profile(CMA_ARCH_X86, &m);
	assert_int_equal(cost_ns(&m, &slept, 4096), 100000000);
	sched_tunables(1, 250, &t);
	k = (struct sched_task){ .tun = &t, .nr_others = 7, .blocks = 1 };
	slept.sched = &k;
	assert_int_equal(cost_ns(&m, &slept, 4096), 100000000);
}

/* A tracked write's end: when it came, on the request's clock. */
static void write_ended(void *owner, uint64_t idx, struct cma_page *page, uint64_t done)
{
	uint64_t *ended = owner;

	*ended = done;
}

/* The CPU work the counters show since the request's start, priced as the clock prices it. */
static uint64_t work_so_far(struct clocked *c)
{
	struct cost_work w = { 0 };

	cost_work_since(c->s, &c->s->storage.clock[0].base, &w);
	return cost_cpu_ns(&c->s->cost, &w, c->s->page_bytes);
}

/*
 * Expect (the kernel's task runs while it reclaims): two writes queued
 * at the request's start, one done 1 ns in, one a second in. Direct
 * reclaim of 64 clean file pages reaches its scheduling points, and one
 * more after it; the request's clock moves by the CPU work priced so far
 * (scans and reclaimed pages, some microseconds), so the first write ends inside
 * the request, before the engine runs any event, and the second does
 * not. The clock's steps add up to the price of the whole work, and a
 * sleep after them counts only its own time: the clock is the CPU work
 * plus the sleep, each nanosecond once.
 */
static void checkpoint_ends_writes_the_work_outlasts(void **state)
{
	struct clocked c;
	struct fake_owner *o;
	uint64_t first = 0, second = 0, cpu;

	clocked_init(&c);
	c.s->page_bytes = 4096;
	o = owner_create(c.mm, false, 64);
	owner_fault_range(o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
	storage_request_start(c.s, 0);
	assert_int_equal(storage_track(c.s, &first, 0, NULL, 1, write_ended), 0);
	assert_int_equal(storage_track(c.s, &second, 0, NULL, 1000000000, write_ended), 0);
	assert_true(cma_try_to_free_pages(c.mm, 32, CMA_GFP_KERNEL) > 0);
	cond_resched(c.mm);
	cpu = work_so_far(&c);
	if (!cpu || cpu >= 1000000000)
		fail_msg("reclaim priced at %" PRIu64 " ns: expected some, under a second", cpu);
	assert_int_equal(first, 1);
	assert_int_equal(second, 0);
	assert_int_equal(c.s->storage.clock[0].cpu_ns, cpu);
	assert_int_equal(c.s->storage.clock[0].waited_to, cpu);
	assert_int_equal(c.s->storage.nr, 1);
	congestion_wait(c.mm, HZ / 10);
	assert_int_equal(c.s->storage.clock[0].waited_to,
			 c.s->storage.clock[0].cpu_ns + c.s->storage.clock[0].throttle_ns + c.s->storage.clock[0].wait_ns);
	assert_int_equal(c.s->storage.clock[0].throttle_ns, 100000000);
	owner_destroy(o);
	clocked_destroy(&c);
}

/* A clocked machine whose request at 0 reclaimed 16 of 64 file pages: its owner. */
static struct fake_owner *clocked_reclaiming(struct clocked *c)
{
	struct fake_owner *o;

	clocked_init(c);
	c->s->page_bytes = 4096;
	o = owner_create(c->mm, false, 64);
	owner_fault_range(o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
	storage_request_start(c->s, 0);
	cma_try_to_free_pages(c->mm, 16, CMA_GFP_KERNEL);
	return o;
}

/*
 * Expect: a scheduling point at a later engine time is another task's:
 * its clock starts there, with none of the earlier request's work.
 */
static void checkpoint_at_a_new_time_starts_a_new_clock(void **state)
{
	struct clocked c;
	struct fake_owner *o = clocked_reclaiming(&c);

	assert_true(c.s->storage.clock[0].cpu_ns > 0);
	c.s->now = 5000000;
	cma_try_to_free_pages(c.mm, 16, CMA_GFP_KERNEL);
	cond_resched(c.mm);
	assert_int_equal(c.s->storage.clock[0].at, 5000000);
	assert_int_equal(c.s->storage.clock[0].cpu_ns, work_so_far(&c));
	assert_int_equal(c.s->storage.clock[0].waited_to, 5000000 + c.s->storage.clock[0].cpu_ns);
	owner_destroy(o);
	clocked_destroy(&c);
}

/*
 * Expect (truncate_inode_pages, zap_pte_range): a process that exits
 * while a write of one of its anonymous pages is in flight waits it out
 * as the page goes, so the page is not freed under writeback and
 * NR_WRITEBACK comes back to 0 (the slot's writeback state survives the
 * exit's clearing of its swap state until forget() ends the write).
 */
static void owned_release_all_ends_anon_write_in_flight(void **state)
{
	struct workload_result res = { 0 };
	struct workload w = { .res = &res, .ops = &by_hand_ops };
	struct owned_pages o;
	struct clocked c;

	clocked_init(&c);
	c.s->mm = c.mm;
	c.s->page_bytes = 4096;
	c.s->policy = sim_policy_find("cma");
	assert_int_equal(owned_init(&o, c.s, &w, 4, true), 0);
	assert_int_equal(owned_touch(&o, 0), 1);
	cma_page_set_dirty(c.mm, owned_page(&o, 0), true);
	assert_true(owned_start_write(&o, 0));
	assert_int_equal(test_counter(c.mm, "nr_writeback"), 1);
	assert_int_equal(owned_release_all(&o), 1);
	assert_int_equal(test_counter(c.mm, "nr_writeback"), 0);
	assert_verify(c.mm);
	owned_destroy(&o);
	clocked_destroy(&c);
}

/* A @kernel machine with 8 MiB of swap, on @arch's storage and a bare engine's clock at 0. */
static void swapping_init(struct clocked *c, const char *kernel, enum cma_arch arch)
{
	c->s = calloc(1, sizeof(*c->s));
	assert_non_null(c->s);
	c->mm = test_mm(.kernel = kernel, .swap = 8 * MiB);
	c->s->mm = c->mm;
	c->s->page_bytes = 4096;
	c->s->policy = sim_policy_find("cma");
	cost_profile(arch, &c->s->cost);
	storage_attach_clock(c->s, c->mm);
	storage_request_start(c->s, 0);
}

/*
 * A request's clock after it waited for I/O in flight: past @until, all
 * of it waiting but the CPU work priced before (each nanosecond once).
 */
static void expect_waited_out(const char *kernel, const struct storage_clock *clock, uint64_t until)
{
	if (!clock->wait_ns || clock->waited_to < until ||
	    clock->wait_ns + clock->cpu_ns != clock->waited_to)
		fail_msg("%s: expected the clock past %" PRIu64 " ns, waiting all but its CPU work; "
			 "found %" PRIu64 " ns, %" PRIu64 " waited, %" PRIu64 " of CPU work",
			 kernel, until, clock->waited_to, clock->wait_ns, clock->cpu_ns);
}

/* Reclaim swaps out @o's page 0, whose write the storage queue has in flight. */
static struct cma_page *swap_out_in_flight(struct clocked *c, struct owned_pages *o, const char *kernel)
{
	struct cma_page *page;

	assert_int_equal(owned_touch(o, 0), 1);
	page = owned_page(o, 0);
	lru_add_drain_all(c->mm);
	for (int i = 0; i < 4 && !page_test(page, PG_writeback); i++)
		cma_try_to_free_pages(c->mm, 32, CMA_GFP_KERNEL);
	if (!page_test(page, PG_writeback | PG_swapcache) || owned_page(o, 0) != page)
		fail_msg("%s: expected the swapped-out page in the swap cache under writeback", kernel);
	assert_int_equal(test_counter(c->mm, "nr_writeback"), 1);
	return page;
}

/*
 * Expect (swap_writepage: the page stays PG_writeback in the swap cache
 * until the write completes; alloc_contig_range's MIGRATE_SYNC waits for
 * it, v3.5 from its fourth pass, 6.12 at once): a range holding a page
 * whose swap-out the storage still has in flight is allocated once the
 * write is waited out: the request's clock reaches the write's end (its
 * service at x86's 250 MB/s and its 100 us latency, 116384 ns), all of
 * it waiting but the CPU work priced before (each nanosecond once).
 */
static void contig_range_waits_for_swap_out_in_flight(void **state)
{
	static const char *const kernels[] = { "3.5", "6.12" };

	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct workload_result res = { 0 };
		struct workload w = { .res = &res, .ops = &by_hand_ops };
		struct owned_pages o;
		const struct storage_clock *clock;
		struct clocked c;
		unsigned long pfn;

		swapping_init(&c, kernels[k], CMA_ARCH_X86);
		clock = &c.s->storage.clock[0];
		assert_int_equal(owned_init(&o, c.s, &w, 4, true), 0);
		pfn = cma_page_to_pfn(c.mm, swap_out_in_flight(&c, &o, kernels[k]));
		/* 6.12 activated it out of reclaim's way, into a per-CPU batch: on the LRU first */
		lru_add_drain_all(c.mm);
		assert_int_equal(cma_alloc_contig_range(c.mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
		expect_waited_out(kernels[k], clock, 116384);
		assert_int_equal(test_counter(c.mm, "nr_writeback"), 0);
		assert_verify(c.mm);
		cma_free_contig_range(c.mm, pfn, 1);
		owned_destroy(&o);
		clocked_destroy(&c);
	}
}

/*
 * Expect (do_swap_page's lookup_swap_cache): a page whose swap-out is
 * in flight (on the arm profile's eMMC, 0.57 ms) stays in the swap
 * cache, so a fault on it meanwhile finds it there: the same page, no
 * read (pswpin 0), no swap-in.
 */
static void fault_finds_swap_out_in_flight_in_swap_cache(void **state)
{
	static const char *const kernels[] = { "3.5", "6.12" };

	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct workload_result res = { 0 };
		struct workload w = { .res = &res, .ops = &by_hand_ops };
		struct owned_pages o;
		struct clocked c;
		struct cma_page *page;

		swapping_init(&c, kernels[k], CMA_ARCH_ARM);
		assert_int_equal(owned_init(&o, c.s, &w, 4, true), 0);
		page = swap_out_in_flight(&c, &o, kernels[k]);
		assert_int_equal(owned_touch(&o, 0), 0);
		if (owned_page(&o, 0) != page || test_counter(c.mm, "pswpin") || res.swapins)
			fail_msg("%s: expected the page found in the swap cache, found %s, pswpin %" PRIu64,
				 kernels[k], owned_page(&o, 0) == page ? "it" : "another",
				 test_counter(c.mm, "pswpin"));
		assert_true(page_test(page, PG_swapcache));
		owned_destroy(&o);
		assert_int_equal(test_counter(c.mm, "nr_writeback"), 0);
		assert_verify(c.mm);
		clocked_destroy(&c);
	}
}

/*
 * Expect (a page cache page is locked from add_to_page_cache_lru until its
 * read's end_io; alloc_contig_range's MIGRATE_SYNC sleeps in lock_page,
 * v3.5 from its fourth pass, 6.12 at once, and from 3.8 its clean-page
 * reclaim passes over the locked page): a range holding a page whose
 * read completes at 0.5 ms is allocated once the read is waited out, the
 * request's clock reaching the read's end, all of it waiting but the
 * CPU work priced before.
 */
static void contig_range_waits_for_read_in_flight(void **state)
{
	static const char *const kernels[] = { "3.5", "6.12" };

	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct workload_result res = { 0 };
		struct workload w = { .res = &res, .ops = &by_hand_ops };
		struct owned_pages o;
		const struct storage_clock *clock;
		struct clocked c;
		unsigned long pfn;

		swapping_init(&c, kernels[k], CMA_ARCH_X86);
		clock = &c.s->storage.clock[0];
		assert_int_equal(owned_init(&o, c.s, &w, 4, false), 0);
		assert_int_equal(owned_touch(&o, 0), 1);
		owned_read_until(&o, 0, 500000);
		lru_add_drain_all(c.mm);
		pfn = cma_page_to_pfn(c.mm, owned_page(&o, 0));
		assert_int_equal(cma_alloc_contig_range(c.mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
		if (!owned_page(&o, 0) || cma_page_to_pfn(c.mm, owned_page(&o, 0)) == pfn)
			fail_msg("%s: expected the page moved out of pfn %#lx", kernels[k], pfn);
		expect_waited_out(kernels[k], clock, 500000);
		assert_verify(c.mm);
		cma_free_contig_range(c.mm, pfn, 1);
		owned_destroy(&o);
		clocked_destroy(&c);
	}
}

/*
 * Expect (shrink_page_list's trylock_page): reclaim keeps a clean page
 * cache page while its read is in flight, and frees it once the clock
 * is past the read's end.
 */
static void reclaim_frees_a_read_page_once_its_read_ends(void **state)
{
	static const char *const kernels[] = { "3.5", "6.12" };

	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct workload_result res = { 0 };
		struct workload w = { .res = &res, .ops = &by_hand_ops };
		struct owned_pages o;
		struct clocked c;

		swapping_init(&c, kernels[k], CMA_ARCH_X86);
		assert_int_equal(owned_init(&o, c.s, &w, 4, false), 0);
		assert_int_equal(owned_touch(&o, 0), 1);
		owned_read_until(&o, 0, 2000000);
		lru_add_drain_all(c.mm);
		for (int i = 0; i < 8; i++)
			cma_try_to_free_pages(c.mm, 32, CMA_GFP_KERNEL);
		if (!owned_page(&o, 0))
			fail_msg("%s: expected reclaim to keep the page its read still locks", kernels[k]);
		c.s->now = 3000000;
		storage_request_start(c.s, c.s->now);
		for (int i = 0; i < 8 && owned_page(&o, 0); i++)
			cma_try_to_free_pages(c.mm, 32, CMA_GFP_KERNEL);
		if (owned_page(&o, 0))
			fail_msg("%s: expected reclaim to free the page once its read was over", kernels[k]);
		assert_verify(c.mm);
		owned_destroy(&o);
		clocked_destroy(&c);
	}
}

/*
 * Expect: an owner's reads in flight end each at its own time, in the
 * order the storage completes them: at 1.5 ms reclaim frees the page
 * whose read ended at 1 ms and keeps the one whose read ends at 2 ms;
 * a read said to end before the one issued ahead of it ends with that
 * one (at 3 ms, not 2.5 ms).
 */
static void reads_end_each_at_its_own_time(void **state)
{
	struct workload_result res = { 0 };
	struct workload w = { .res = &res, .ops = &by_hand_ops };
	struct owned_pages o;
	struct clocked c;
	unsigned long pfn;

	swapping_init(&c, "6.12", CMA_ARCH_X86);
	assert_int_equal(owned_init(&o, c.s, &w, 4, false), 0);
	for (uint64_t i = 0; i < 4; i++)
		assert_int_equal(owned_touch(&o, i), 1);
	owned_read_until(&o, 0, 1000000);
	owned_read_until(&o, 1, 2000000);
	owned_read_until(&o, 2, 3000000);
	owned_read_until(&o, 3, 2500000);
	lru_add_drain_all(c.mm);
	c.s->now = 1500000;
	storage_request_start(c.s, c.s->now);
	for (int i = 0; i < 8 && owned_page(&o, 0); i++)
		cma_try_to_free_pages(c.mm, 32, CMA_GFP_KERNEL);
	if (owned_page(&o, 0) || !owned_page(&o, 1))
		fail_msg("at 1.5 ms expected page 0 (read until 1 ms) freed and page 1 (until 2 ms) kept; "
			 "page 0 %s, page 1 %s", owned_page(&o, 0) ? "kept" : "freed",
			 owned_page(&o, 1) ? "kept" : "freed");
	c.s->now = 2700000;
	storage_request_start(c.s, c.s->now);
	for (int i = 0; i < 8 && owned_page(&o, 1); i++)
		cma_try_to_free_pages(c.mm, 32, CMA_GFP_KERNEL);
	if (owned_page(&o, 1) || !owned_page(&o, 2) || !owned_page(&o, 3))
		fail_msg("at 2.7 ms expected page 1 freed, pages 2 and 3 kept (their reads end at 3 ms); "
			 "page 1 %s, 2 %s, 3 %s", owned_page(&o, 1) ? "kept" : "freed",
			 owned_page(&o, 2) ? "kept" : "freed", owned_page(&o, 3) ? "kept" : "freed");
	pfn = cma_page_to_pfn(c.mm, owned_page(&o, 3));
	/* reclaim kept it in a per-CPU batch (6.12): on the LRU first */
	lru_add_drain_all(c.mm);
	assert_int_equal(cma_alloc_contig_range(c.mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
	if (c.s->storage.clock[0].waited_to < 3000000)
		fail_msg("expected the range over page 3 to wait until its read ends with page 2's, "
			 "at 3 ms; its clock is at %" PRIu64 " ns", c.s->storage.clock[0].waited_to);
	assert_verify(c.mm);
	cma_free_contig_range(c.mm, pfn, 1);
	owned_destroy(&o);
	clocked_destroy(&c);
}

/*
 * Expect (a read ends at its own time, whoever waited for another): a
 * request that waited until 2 ms for one page's read then sees the
 * reads over by then as over, and takes the page whose read ended at
 * 1 ms without waiting again; the engine, at 1.2 ms, still finds locked
 * the page whose read ends at 1.5 ms, and reclaim keeps it until then.
 */
static void a_read_waited_out_stays_in_flight_for_the_others(void **state)
{
	static const char *const kernels[] = { "3.5", "6.12" };

	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct workload_result res = { 0 };
		struct workload w = { .res = &res, .ops = &by_hand_ops };
		const struct storage_clock *clock;
		struct owned_pages o;
		struct clocked c;
		unsigned long pfn;
		uint64_t waited;

		swapping_init(&c, kernels[k], CMA_ARCH_X86);
		clock = &c.s->storage.clock[0];
		assert_int_equal(owned_init(&o, c.s, &w, 3, false), 0);
		for (uint64_t i = 0; i < 3; i++)
			assert_int_equal(owned_touch(&o, i), 1);
		owned_read_until(&o, 0, 1000000);
		owned_read_until(&o, 2, 1500000);
		owned_read_until(&o, 1, 2000000);
		lru_add_drain_all(c.mm);
		pfn = cma_page_to_pfn(c.mm, owned_page(&o, 1));
		assert_int_equal(cma_alloc_contig_range(c.mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
		expect_waited_out(kernels[k], clock, 2000000);
		cma_free_contig_range(c.mm, pfn, 1);
		waited = clock->wait_ns;
		pfn = cma_page_to_pfn(c.mm, owned_page(&o, 0));
		assert_int_equal(cma_alloc_contig_range(c.mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
		if (clock->wait_ns != waited)
			fail_msg("%s: expected the request, at 2 ms, to take the page read until 1 ms "
				 "without waiting again; it waited %" PRIu64 " ns more",
				 kernels[k], clock->wait_ns - waited);
		cma_free_contig_range(c.mm, pfn, 1);
		c.s->now = 1200000;
		storage_request_start(c.s, c.s->now);
		lru_add_drain_all(c.mm);
		for (int i = 0; i < 8; i++)
			cma_try_to_free_pages(c.mm, 32, CMA_GFP_KERNEL);
		if (!owned_page(&o, 2))
			fail_msg("%s: at 1.2 ms expected reclaim to keep the page whose read ends at "
				 "1.5 ms (the request that waited until 2 ms ended only its own)",
				 kernels[k]);
		c.s->now = 1600000;
		storage_request_start(c.s, c.s->now);
		for (int i = 0; i < 8 && owned_page(&o, 2); i++)
			cma_try_to_free_pages(c.mm, 32, CMA_GFP_KERNEL);
		if (owned_page(&o, 2))
			fail_msg("%s: at 1.6 ms expected reclaim to free the page read until 1.5 ms",
				 kernels[k]);
		assert_verify(c.mm);
		owned_destroy(&o);
		clocked_destroy(&c);
	}
}

/*
 * Expect (the kernel's kswapd scans for real time): a polled kswapd's
 * passes, run on the engine's thread, move that clock by their scanning
 * (pgscan_kswapd at x86's 60 cycles of 3300 MHz a page, but for the
 * pages of the batch after its last scheduling point), so the writes it
 * started can complete while it works; storage_engine_clock() says where
 * they left it, and a new engine time starts afresh.
 */
static void kswapd_scanning_moves_the_engine_clock(void **state)
{
	struct workload_result res = { 0 };
	struct workload w = { .res = &res, .ops = &by_hand_ops };
	struct owned_pages o;
	struct clocked c;
	uint64_t scanned, floor_ns;

	swapping_init(&c, "3.5", CMA_ARCH_X86);
	assert_int_equal(cma_kswapd_start_polled(c.mm), 0);
	assert_int_equal(owned_init(&o, c.s, &w, 16384, true), 0);
	for (uint64_t i = 0; i < o.nr && test_counter(c.mm, "pgscan_kswapd_normal") +
	     test_counter(c.mm, "pgscan_kswapd_dma32") <= SWAP_CLUSTER_MAX; i++) {
		owned_touch(&o, i);
		cma_kswapd_poll(c.mm);
	}
	scanned = test_counter(c.mm, "pgscan_kswapd_normal") + test_counter(c.mm, "pgscan_kswapd_dma32");
	assert_true(scanned > SWAP_CLUSTER_MAX);
	floor_ns = (scanned - SWAP_CLUSTER_MAX) * 60 * 1000 / 3300;
	if (c.s->storage.clock[0].cpu_ns < floor_ns || storage_engine_clock(c.s) < floor_ns)
		fail_msg("expected kswapd's %" PRIu64 " pages scanned to move the clock %" PRIu64
			 " ns at least, found %" PRIu64 " of CPU work", scanned, floor_ns,
			 c.s->storage.clock[0].cpu_ns);
	c.s->now = 1;
	assert_int_equal(storage_engine_clock(c.s), 1);
	cma_kswapd_stop(c.mm);
	owned_destroy(&o);
	clocked_destroy(&c);
}

/*
 * The storage clock's CPU work after direct reclaim of @o's anonymous
 * pages until 32 went to a synchronous swap device (zram), each store's
 * compression priced at @cycles; *@stores: how many it stored.
 */
static uint64_t reclaim_to_zram(double cycles, uint64_t *stores)
{
	static const struct scenario sc = { .swap_synchronous = true };
	struct workload_result res = { 0 };
	struct workload w = { .res = &res, .ops = &by_hand_ops };
	struct owned_pages o;
	struct clocked c;
	uint64_t cpu, pswpout;

	swapping_init(&c, "3.5", CMA_ARCH_X86);
	c.s->sc = &sc;
	c.s->cost.v[COST_ZRAM_STORE_CYCLES] = cycles;
	assert_int_equal(owned_init(&o, c.s, &w, 256, true), 0);
	for (uint64_t i = 0; i < o.nr; i++)
		assert_int_equal(owned_touch(&o, i), 1);
	lru_add_drain_all(c.mm);
	for (int i = 0; i < 64 && c.s->zram_stores < 32; i++)
		cma_try_to_free_pages(c.mm, 32, CMA_GFP_KERNEL);
	pswpout = test_counter(c.mm, "pswpout");
	cond_resched(c.mm);
	cpu = c.s->storage.clock[0].cpu_ns;
	*stores = c.s->zram_stores;
	assert_int_equal(*stores, pswpout);
	assert_verify(c.mm);
	owned_destroy(&o);
	clocked_destroy(&c);
	return cpu;
}

/*
 * Expect (swap_synchronous, zram_store_cycles): a page direct reclaim
 * swaps out to zram is counted once, when swap_writepage stores it, and
 * its compression moves the reclaiming task's clock: 15,469 cycles at
 * x86's 3300 MHz a store, to the nanosecond of the cost model's rounding,
 * the same reclaim otherwise.
 */
static void zram_store_moves_the_reclaimers_clock(void **state)
{
	uint64_t stores, stores0, priced = reclaim_to_zram(15469, &stores),
		 unpriced = reclaim_to_zram(0, &stores0);
	uint64_t want = stores * 15469 * 1000 / 3300;

	assert_true(stores >= 32);
	assert_int_equal(stores, stores0);
	if (priced < unpriced + want - 1 || priced > unpriced + want + 1)
		fail_msg("expected %" PRIu64 " zram stores to add %" PRIu64 " ns of CPU work, found %" PRIu64
			 " (%" PRIu64 " against %" PRIu64 ")", stores, want, priced - unpriced, priced, unpriced);
}

/* Another task's work: 16 pages reclaimed and a 100 ms congestion_wait. */
static void reclaim_and_sleep(struct sim *s)
{
	cma_try_to_free_pages(s->mm, 16, CMA_GFP_KERNEL);
	congestion_wait(s->mm, HZ / 10);
}

/*
 * Expect: a task run apart at the running task's scheduling point
 * (storage_run_apart: a woken kswapd) leaves the running task's clock
 * as it was: neither its sleep nor its work count at the task's next
 * scheduling point; when it preempts the task (no idle CPU), the task
 * goes on later by its CPU work, and by nothing of its sleep.
 */
static void run_apart_leaves_the_task_s_clock(void **state)
{
	for (int preempts = 0; preempts < 2; preempts++) {
		struct clocked c;
		struct fake_owner *o = clocked_reclaiming(&c);
		uint64_t cpu, at, throttle, apart;

		cond_resched(c.mm);
		cpu = c.s->storage.clock[0].cpu_ns;
		at = c.s->storage.clock[0].waited_to;
		throttle = c.s->storage.clock[0].throttle_ns;
		assert_true(cpu > 0 && at == cpu);
		apart = test_counter(c.mm, "pgsteal_direct_normal") + test_counter(c.mm, "pgsteal_direct_dma32");
		storage_run_apart(c.s, at, reclaim_and_sleep, preempts);
		apart = test_counter(c.mm, "pgsteal_direct_normal") + test_counter(c.mm, "pgsteal_direct_dma32") -
			apart;
		assert_true(apart >= 16);
		assert_int_equal(c.s->storage.clock[0].throttle_ns, throttle);
		assert_int_equal(c.s->storage.clock[0].cpu_ns, cpu);
		if (preempts)
			assert_true(c.s->storage.clock[0].waited_to > at &&
				    c.s->storage.clock[0].waited_to < at + 100000000);
		else
			assert_int_equal(c.s->storage.clock[0].waited_to, at);
		at = c.s->storage.clock[0].waited_to;
		cond_resched(c.mm);
		assert_int_equal(c.s->storage.clock[0].cpu_ns, cpu);
		assert_int_equal(c.s->storage.clock[0].waited_to, at);
		owner_destroy(o);
		clocked_destroy(&c);
	}
}

/*
 * Expect (wake_up_interruptible of kswapd_wait, then the woken thread's
 * turn): the fault that wakes the board's polled kswapd gets it to run
 * at the next scheduling point, before any event of the engine's runs,
 * and before any fault went into direct reclaim. A 10 ms poll ran it at
 * its next event.
 */
static void kswapd_woken_runs_at_the_next_scheduling_point(void **state)
{
	struct workload_result res = { 0 };
	struct workload w = { .res = &res, .ops = &by_hand_ops };
	struct owned_pages o;
	struct clocked c;
	uint64_t i;

	swapping_init(&c, "3.5", CMA_ARCH_X86);
	c.s->plat.cfg.nr_cpus = 2;
	assert_int_equal(sim_kswapd_start(c.s), 0);
	assert_int_equal(owned_init(&o, c.s, &w, 16384, true), 0);
	for (i = 0; i < o.nr && test_counter(c.mm, "pgscan_kswapd_normal") +
	     test_counter(c.mm, "pgscan_kswapd_dma32") == 0; i++)
		owned_touch(&o, i);
	if (i == o.nr)
		fail_msg("expected kswapd to scan while %" PRIu64 " pages were touched", i);
	assert_int_equal(c.s->events, 0);
	assert_int_equal(test_counter(c.mm, "pgscan_direct_normal") + test_counter(c.mm, "pgscan_direct_dma32"), 0);
	cma_kswapd_stop(c.mm);
	owned_destroy(&o);
	clocked_destroy(&c);
}

/* Touch @o's slots until kswapd has scanned: the fault's clock at that point. */
static uint64_t touch_until_kswapd_scans(struct clocked *c, struct owned_pages *o)
{
	for (uint64_t i = 0; i < o->nr && test_counter(c->mm, "pgscan_kswapd_normal") +
	     test_counter(c->mm, "pgscan_kswapd_dma32") == 0; i++)
		owned_touch(o, i);
	return c->s->storage.clock[0].waited_to;
}

/*
 * Expect (select_idle_sibling, then wakeup preemption): the woken kswapd
 * runs on an idle CPU when the board has one, its CPU work nobody's;
 * on a board whose one CPU the faulting task holds it preempts the task,
 * whose clock goes on that much later.
 */
static void kswapd_preempts_its_waker_without_an_idle_cpu(void **state)
{
	uint64_t at[2];

	for (unsigned cpus = 1; cpus <= 2; cpus++) {
		struct workload_result res = { 0 };
		struct workload w = { .res = &res, .ops = &by_hand_ops };
		struct owned_pages o;
		struct clocked c;

		swapping_init(&c, "3.5", CMA_ARCH_X86);
		c.s->plat.cfg.nr_cpus = cpus;
		assert_int_equal(sim_kswapd_start(c.s), 0);
		assert_int_equal(owned_init(&o, c.s, &w, 16384, true), 0);
		at[cpus - 1] = touch_until_kswapd_scans(&c, &o);
		cma_kswapd_stop(c.mm);
		owned_destroy(&o);
		clocked_destroy(&c);
	}
	if (at[0] <= at[1])
		fail_msg("expected kswapd's CPU work on the waker's clock with one CPU: %" PRIu64
			 " ns, with two %" PRIu64 " ns", at[0], at[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(storage_congested_from_113_writes),
		cmocka_unit_test(checkpoint_ends_writes_the_work_outlasts),
		cmocka_unit_test(checkpoint_at_a_new_time_starts_a_new_clock),
		cmocka_unit_test(owned_release_all_ends_anon_write_in_flight),
		cmocka_unit_test(contig_range_waits_for_swap_out_in_flight),
		cmocka_unit_test(fault_finds_swap_out_in_flight_in_swap_cache),
		cmocka_unit_test(contig_range_waits_for_read_in_flight),
		cmocka_unit_test(reclaim_frees_a_read_page_once_its_read_ends),
		cmocka_unit_test(reads_end_each_at_its_own_time),
		cmocka_unit_test(a_read_waited_out_stays_in_flight_for_the_others),
		cmocka_unit_test(kswapd_scanning_moves_the_engine_clock),
		cmocka_unit_test(zram_store_moves_the_reclaimers_clock),
		cmocka_unit_test(run_apart_leaves_the_task_s_clock),
		cmocka_unit_test(kswapd_woken_runs_at_the_next_scheduling_point),
		cmocka_unit_test(kswapd_preempts_its_waker_without_an_idle_cpu),
		cmocka_unit_test(storage_sleep_ends_when_congestion_clears),
		cmocka_unit_test(storage_sleep_lasts_its_timeout_unwoken),
		cmocka_unit_test(cost_ns_adds_sleep_unstretched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
