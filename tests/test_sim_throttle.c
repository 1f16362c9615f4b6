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
#include "engine/owned.h"
#include "engine/sim.h"
#include "policies/registry.h"

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
	storage_attach_clock(c->s, c->mm, 1);
	storage_request_start(c->s, 0);
	cma_mm_set_trace(c->mm, trace_keep, c);
}

static void clocked_destroy(struct clocked *c)
{
	storage_destroy(&c->s->storage);
	cma_mm_destroy(c->mm);
	free(c->s->heap);	/* the tracked writes' completion events */
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
	w.tlb_cpus = c->s->storage.tlb_cpus;
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

/*
 * Expect: a scheduling point at a later engine time is another task's:
 * its clock starts there, with none of the earlier request's work.
 */
static void checkpoint_at_a_new_time_starts_a_new_clock(void **state)
{
	struct clocked c;
	struct fake_owner *o;

	clocked_init(&c);
	c.s->page_bytes = 4096;
	o = owner_create(c.mm, false, 64);
	owner_fault_range(o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
	storage_request_start(c.s, 0);
	cma_try_to_free_pages(c.mm, 16, CMA_GFP_KERNEL);
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
	struct workload w = { .res = &res };
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(storage_congested_from_113_writes),
		cmocka_unit_test(checkpoint_ends_writes_the_work_outlasts),
		cmocka_unit_test(checkpoint_at_a_new_time_starts_a_new_clock),
		cmocka_unit_test(owned_release_all_ends_anon_write_in_flight),
		cmocka_unit_test(storage_sleep_ends_when_congestion_clears),
		cmocka_unit_test(storage_sleep_lasts_its_timeout_unwoken),
		cmocka_unit_test(cost_ns_adds_sleep_unstretched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
