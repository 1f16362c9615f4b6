// SPDX-License-Identifier: GPL-2.0
/*
 * The slow path's retry rules below the costly order (src/mm/slowpath.c)
 * by release: v3.5's should_alloc_retry, which loops while reclaim
 * reports progress and calls the OOM handler at the first round without,
 * against should_reclaim_retry and should_compact_retry from 4.9
 * (kernel.reclaim_retry), which count rounds that freed nothing to
 * MAX_RECLAIM_RETRIES (16) while the reclaimable pages could lift a zone
 * above its min mark, escalate compaction to SYNC_FULL, and only then go
 * to the OOM path. Each machine is 32 MiB, one Normal zone, no swap, no
 * kswapd: dirty page cache is reclaimable but direct reclaim cannot free
 * it (only kswapd writes); the compaction case's holds anonymous pages
 * and clean page cache, scattered.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

#define MAX_PAGES		10000
#define MAX_RECLAIM_RETRIES	16	/* mm/page_alloc.c's */
#define DIRTY_PAGES		1024	/* 4 MiB: well above the min mark's pages */
#define FEW_DIRTY_PAGES		192	/* their half: more than a round's pagevec */
#define RANGE_PFN		0x1000	/* 16 MiB, free at boot */
#define RANGE_PAGES		64

static const char *const retry_kernels[] = { "3.5", "4.8", "4.9", "6.12" };
static const char *const range_kernels[] = { "3.5", "4.8", "4.9", "4.13", "6.12" };
static const char *const give_up_kernels[] = { "4.12", "4.13", "6.12" };
/* the first and last releases of the wait for writes pending, and either side */
static const char *const io_wait_kernels[] = { "3.5", "4.8", "4.9", "5.15", "5.16", "6.12" };
/* the first and last releases of should_reclaim_retry's backoff, and either side */
static const char *const backoff_kernels[] = { "3.5", "4.9", "4.11", "4.12", "6.12" };

/* HZ (250) / 10 in microseconds: congestion_wait's timeout in should_reclaim_retry */
#define IO_WAIT_US		100000

/* Direct reclaim rounds so far: each ends in one mm_vmscan_direct_reclaim_end. */
static struct {
	unsigned long rounds;
	unsigned long free_at;		/* another task frees @block at the end of this round */
	struct cma_mm *mm;
	struct cma_page *block;
	unsigned order;
} reclaim;

static void count_reclaim(void *ctx, const char *event, const char *line)
{
	if (strcmp(event, "mm_vmscan_direct_reclaim_end"))
		return;
	if (++reclaim.rounds == reclaim.free_at && reclaim.block) {
		cma_free_pages(reclaim.mm, reclaim.block, reclaim.order);
		reclaim.block = NULL;
	}
}

struct oom_seen {
	unsigned calls;
	unsigned long rounds;		/* of direct reclaim before the first call */
	bool zone_given_up;		/* v3.5's test: scanned six times its reclaimable pages */
	unsigned long free, reclaimable, min;	/* the zone's, at that call */
	unsigned long victims;		/* calls that kill: each frees one held page */
};

struct full_machine {
	struct cma_mm *mm;
	struct fake_owner *cache;
	struct cma_page *block;		/* order 9, held from before the machine filled */
	struct cma_page **pages;
	unsigned long nr_pages;
	struct oom_seen oom;
};

static unsigned long oom_record(void *ctx, struct cma_mm *mm, unsigned order)
{
	struct full_machine *m = ctx;
	struct zone *zone = &mm->zones[ZONE_NORMAL];

	if (!m->oom.calls++) {
		m->oom.rounds = reclaim.rounds;
		m->oom.zone_given_up = atomic_load(&zone->all_unreclaimable) ||
				       atomic_load(&zone->pages_scanned) >= zone_reclaimable_pages(zone) * 6;
		m->oom.free = zone_page_state(zone, NR_FREE_PAGES);
		m->oom.reclaimable = zone_reclaimable_pages(zone);
		m->oom.min = min_wmark_pages(zone);
	}
	if (!m->oom.victims || !m->nr_pages)
		return 0;
	m->oom.victims--;
	cma_free_pages(mm, m->pages[--m->nr_pages], 0);
	cma_drain_all_pages(mm);
	return 1;
}

/*
 * *@range (if asked) an owner's anonymous pages at RANGE_PFN, then @dirty
 * pages of dirty page cache, an order-9 block held, and every page
 * GFP_KERNEL gets, held; the trace counts direct reclaim rounds from here.
 */
static void full_machine_setup(struct full_machine *m, const char *kernel,
			       struct fake_owner **range, uint64_t dirty)
{
	m->mm = test_mm(.size = 32 * MiB, .kernel = kernel);
	if (range) {
		*range = owner_create(m->mm, true, RANGE_PAGES);
		assert_non_null(*range);
		for (uint64_t s = 0; s < RANGE_PAGES; s++)
			assert_non_null(owner_fault_at(*range, s, RANGE_PFN + s, s + 1));
	}
	m->cache = owner_create(m->mm, false, dirty);
	assert_non_null(m->cache);
	for (uint64_t i = 0; i < dirty; i++) {
		assert_non_null(owner_fault(m->cache, i, CMA_GFP_HIGHUSER_MOVABLE, i + 1));
		owner_set_dirty(m->cache, i, true);
	}
	lru_add_drain_all(m->mm);
	m->block = cma_alloc_pages(m->mm, CMA_GFP_KERNEL, 9);
	assert_non_null(m->block);
	m->pages = calloc(MAX_PAGES, sizeof(*m->pages));
	assert_non_null(m->pages);
	m->nr_pages = test_alloc_all(m->mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, m->pages, MAX_PAGES);
	assert_true(m->nr_pages > 0);
	memset(&reclaim, 0, sizeof(reclaim));
	reclaim.mm = m->mm;
	reclaim.order = 9;
	cma_mm_set_oom_handler(m->mm, oom_record, m);
	/* set while no other thread runs */
	cma_mm_set_trace(m->mm, count_reclaim, NULL);
}

static void full_machine_owner(struct full_machine *m, const char *kernel,
			       struct fake_owner **range)
{
	full_machine_setup(m, kernel, range, DIRTY_PAGES);
}

static void full_machine(struct full_machine *m, const char *kernel)
{
	full_machine_owner(m, kernel, NULL);
}

static void full_machine_destroy(struct full_machine *m)
{
	cma_mm_set_trace(m->mm, NULL, NULL);
	while (m->nr_pages)
		cma_free_pages(m->mm, m->pages[--m->nr_pages], 0);
	if (m->block)
		cma_free_pages(m->mm, m->block, 9);
	if (reclaim.block)
		cma_free_pages(m->mm, reclaim.block, reclaim.order);
	assert_true(owner_check(m->cache) >= 0);
	owner_destroy(m->cache);
	assert_verify(m->mm);
	cma_mm_destroy(m->mm);
	free(m->pages);
}

/* Does should_reclaim_retry shrink its estimate with each round without progress? */
static bool backs_off(const char *kernel)
{
	return cma_kernel_has(kernel, "reclaim_retry") == 1 &&
	       cma_kernel_has(kernel, "reclaim_retry_no_backoff") != 1;
}

/*
 * Rounds without progress before the OOM call on the full machine from
 * 4.9: MAX_RECLAIM_RETRIES + 1, but MAX_RECLAIM_RETRIES while the
 * estimate backs off, since at that round it is down to the free pages
 * alone, below the min mark where the request failed.
 */
static long rounds_before_oom(const char *kernel)
{
	return MAX_RECLAIM_RETRIES + !backs_off(kernel);
}

/*
 * Expect: an order-0 GFP_KERNEL request on a machine whose only
 * reclaimable pages are dirty page cache calls the OOM handler (which
 * frees nothing) once and fails. Up to 4.8 the call comes at the first
 * round whose reclaim reported no progress, which v3.5 reports only once
 * the zone is given up on (scanned six times its reclaimable pages; here
 * the first round does it); from 4.9 (kernel.reclaim_retry) after
 * MAX_RECLAIM_RETRIES + 1 rounds that freed nothing, the reclaimable
 * pages lifting the zone above its min mark all along; until 4.12 after
 * MAX_RECLAIM_RETRIES (rounds_before_oom).
 */
static void order0_rounds_before_oom_by_release(const char *kernel, unsigned k)
{
	bool v6 = cma_kernel_has(kernel, "reclaim_retry") == 1;
	struct full_machine m = { 0 };

	full_machine(&m, kernel);
	assert_null(cma_alloc_pages(m.mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0));
	expect_kernel(kernel, "OOM handler calls", 1, m.oom.calls);
	if (v6)
		expect_kernel(kernel, "reclaim rounds before the OOM call", rounds_before_oom(kernel),
			      (long)m.oom.rounds);
	else
		expect_kernel(kernel, "the zone given up on at the OOM call", true, m.oom.zone_given_up);
	expect_kernel(kernel, "reclaim rounds in all", (long)m.oom.rounds, (long)reclaim.rounds);
	full_machine_destroy(&m);
}

/*
 * The full machine with FEW_DIRTY_PAGES of dirty page cache, taken below
 * its min mark by atomic requests, then given pages back until its free
 * and reclaimable pages together pass the min mark by half the latter.
 */
static void thin_machine(struct full_machine *m, const char *kernel)
{
	struct zone *zone;
	unsigned long target;

	full_machine_setup(m, kernel, NULL, FEW_DIRTY_PAGES);
	zone = &m->mm->zones[ZONE_NORMAL];
	m->nr_pages += test_alloc_all(m->mm, CMA_GFP_ATOMIC | CMA_GFP_NOWARN, m->pages + m->nr_pages,
				      MAX_PAGES - m->nr_pages);
	target = min_wmark_pages(zone) + FEW_DIRTY_PAGES / 2 - zone_reclaimable_pages(zone);
	assert_true(zone_page_state(zone, NR_FREE_PAGES) < target);
	while (zone_page_state(zone, NR_FREE_PAGES) < target) {
		cma_free_pages(m->mm, m->pages[--m->nr_pages], 0);
		cma_drain_all_pages(m->mm);
	}
}

/*
 * Expect: an order-0 GFP_KERNEL request on that machine, whose reclaim
 * frees nothing, calls the OOM handler (which frees nothing) once and
 * fails. From 4.9 (kernel.reclaim_retry) until 4.12
 * (kernel.reclaim_retry_no_backoff) should_reclaim_retry takes
 * no_progress_loops / MAX_RECLAIM_RETRIES of the reclaimable pages off
 * its estimate, which no longer lifts the zone above its min mark half
 * way through the retries: the OOM call comes at that round, while the
 * free and reclaimable pages together still pass the mark. From 4.12 the
 * request retries the whole MAX_RECLAIM_RETRIES + 1 rounds. v3.5's loop
 * calls the OOM handler once the zone is given up on.
 */
static void order0_backoff_gives_up_early_by_release(const char *kernel, unsigned k)
{
	bool v6 = cma_kernel_has(kernel, "reclaim_retry") == 1;
	struct full_machine m = { 0 };
	unsigned long rounds, backoff;

	thin_machine(&m, kernel);
	assert_null(cma_alloc_pages(m.mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0));
	expect_kernel(kernel, "OOM handler calls", 1, m.oom.calls);
	rounds = m.oom.rounds;
	if (!v6) {
		expect_kernel(kernel, "the zone given up on at the OOM call", true, m.oom.zone_given_up);
	} else if (backs_off(kernel)) {
		backoff = (rounds * m.oom.reclaimable + MAX_RECLAIM_RETRIES - 1) / MAX_RECLAIM_RETRIES;
		expect_kernel(kernel, "OOM call before half the retries", true,
			      rounds <= MAX_RECLAIM_RETRIES / 2);
		expect_kernel(kernel, "free and reclaimable pages above the min mark", true,
			      m.oom.free + m.oom.reclaimable > m.oom.min);
		expect_kernel(kernel, "the shrunk estimate at the min mark", true,
			      m.oom.free + m.oom.reclaimable - backoff <= m.oom.min);
	} else {
		expect_kernel(kernel, "reclaim rounds before the OOM call", MAX_RECLAIM_RETRIES + 1,
			      (long)rounds);
	}
	expect_kernel(kernel, "reclaim rounds in all", (long)rounds, (long)reclaim.rounds);
	full_machine_destroy(&m);
}

/*
 * Expect: the same request when another task frees an order-9 block at
 * the end of the tenth round of direct reclaim: up to 4.8 the request
 * has called the OOM handler by then (the zone given up on before), and
 * the handler's victim serves it; from 4.9 it is still retrying without
 * progress and the freed block serves it, no OOM call.
 */
static void order0_served_by_a_later_free_by_release(const char *kernel, unsigned k)
{
	bool v6 = cma_kernel_has(kernel, "reclaim_retry") == 1;
	struct full_machine m = { 0 };
	struct cma_page *page;

	full_machine(&m, kernel);
	m.oom.victims = 1;
	reclaim.block = m.block;
	m.block = NULL;
	reclaim.free_at = 10;
	page = cma_alloc_pages(m.mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);
	assert_non_null(page);
	expect_kernel(kernel, "OOM handler calls", !v6, m.oom.calls);
	expect_kernel(kernel, "reclaim rounds", v6 ? 10 : (long)m.oom.rounds, (long)reclaim.rounds);
	cma_free_pages(m.mm, page, 0);
	full_machine_destroy(&m);
}

/*
 * Expect: alloc_contig_range(MOVABLE) over an owner's 64 anonymous pages
 * on the full machine with 20 pages given back first, another task
 * freeing an order-9 block at the end of the tenth round of direct
 * reclaim, and an OOM handler that kills (frees one page) at each call.
 * The first 20 targets are served at once. Up to 4.8 each later one
 * calls the OOM handler at its first round and the victim serves it:
 * the range is taken. From 4.9 (kernel.reclaim_retry) the next target
 * retries without progress until the block is freed, which serves it
 * and the rest, no OOM call: taken too. From 4.13 the targets ask
 * __GFP_RETRY_MAYFAIL, and v3.5's loop gave up at its first round
 * without the OOM handler: -ENOMEM with 20 pages moved, where 6.12's
 * rules take the range.
 */
/*
 * alloc_contig_range(MOVABLE) over an owner's pages at RANGE_PFN on the
 * full machine, another task freeing an order-9 block at the end of
 * direct reclaim round @free_at (0: never), an OOM handler that kills
 * (frees one page) at each call. Returns its result; *@moved: the pages
 * that left the range.
 */
static int contig_range_run(struct full_machine *m, const char *kernel, unsigned long free_at,
			    unsigned long *moved)
{
	struct fake_owner *o;
	int ret;

	full_machine_owner(m, kernel, &o);
	m->oom.victims = RANGE_PAGES;
	reclaim.block = m->block;
	m->block = NULL;
	reclaim.free_at = free_at;
	ret = cma_alloc_contig_range(m->mm, RANGE_PFN, RANGE_PFN + RANGE_PAGES, CMA_MIGRATE_MOVABLE);
	*moved = 0;
	for (uint64_t s = 0; s < RANGE_PAGES; s++) {
		unsigned long pfn = cma_page_to_pfn(m->mm, o->slots[s].page);

		*moved += pfn < RANGE_PFN || pfn >= RANGE_PFN + RANGE_PAGES;
	}
	if (!ret)
		cma_free_contig_range(m->mm, RANGE_PFN, RANGE_PAGES);
	assert_true(owner_check(o) >= 0);
	owner_destroy(o);
	return ret;
}

/*
 * Expect: the range with another task freeing an order-9 block at the
 * end of the tenth round of direct reclaim is taken, every page moved,
 * under every release. Up to 4.8 the first target calls the OOM handler
 * at its first round without progress, and the victim serves it. From
 * 4.9 (kernel.reclaim_retry) it retries without progress until the
 * block is freed, which serves it and the rest: no OOM call. From 4.13
 * the targets ask __GFP_RETRY_MAYFAIL: v3.5's loop would give up at its
 * first round, without the OOM handler, and the range fail with -ENOMEM.
 */
static void contig_range_served_by_a_later_free_by_release(const char *kernel, unsigned k)
{
	bool v6 = cma_kernel_has(kernel, "reclaim_retry") == 1;
	struct full_machine m = { 0 };
	unsigned long moved;

	expect_kernel(kernel, "alloc_contig_range", 0, contig_range_run(&m, kernel, 10, &moved));
	expect_kernel(kernel, "pages moved", RANGE_PAGES, (long)moved);
	if (v6) {
		expect_kernel(kernel, "OOM handler calls", 0, m.oom.calls);
		expect_kernel(kernel, "reclaim rounds", 10, (long)reclaim.rounds);
	} else {
		assert_true(m.oom.calls > 0);
		expect_kernel(kernel, "reclaim rounds before the OOM call", 1, (long)m.oom.rounds);
	}
	full_machine_destroy(&m);
}

/*
 * Expect: the range with nothing freed meanwhile. A target retries
 * MAX_RECLAIM_RETRIES + 1 rounds without progress (kernel.reclaim_retry,
 * 4.9), then goes to the OOM path: up to 4.12 the handler's victim
 * (one page) serves it, and so for each target, the range's freed pages
 * not counting free (kernel.isolated_free_uncounted, 3.7): the range is
 * taken after one OOM call a page; from 4.13
 * (kernel.retry_mayfail) it fails without the OOM handler, and the range
 * with -ENOMEM, no page moved, each batch's try (5 before 5.19, one
 * from it) having given up after those rounds.
 */
static void contig_range_target_gives_up_by_release(const char *kernel, unsigned k)
{
	bool mayfail = cma_kernel_has(kernel, "retry_mayfail") == 1;
	struct full_machine m = { 0 };
	unsigned long moved;
	int ret = contig_range_run(&m, kernel, 0, &moved);

	expect_kernel(kernel, "alloc_contig_range", mayfail ? -ENOMEM : 0, ret);
	expect_kernel(kernel, "pages moved", mayfail ? 0 : RANGE_PAGES, (long)moved);
	expect_kernel(kernel, "OOM handler calls", mayfail ? 0 : RANGE_PAGES, m.oom.calls);
	expect_kernel(kernel, "reclaim rounds before the first target gave up or killed", 0,
		      (long)(reclaim.rounds % (MAX_RECLAIM_RETRIES + 1)));
	if (!mayfail)
		expect_kernel(kernel, "reclaim rounds before the OOM call", MAX_RECLAIM_RETRIES + 1,
			      (long)m.oom.rounds);
	full_machine_destroy(&m);
}

/*
 * The host's clock as the slow path sees it: each sleep lasts its timeout
 * and is counted by queue; the first may end the writes in flight on the
 * full machine's page cache (*@end_writes).
 */
static struct {
	unsigned long sleeps;
	unsigned long congestion;	/* of them on the congestion queue */
	uint64_t congestion_us;		/* their length */
	struct full_machine *end_writes;
} host;

static uint64_t host_sleep(void *ctx, enum cma_sleep_reason why, uint64_t timeout_us)
{
	struct full_machine *m = host.end_writes;

	host.sleeps++;
	if (why == CMA_SLEEP_CONGESTION) {
		host.congestion++;
		host.congestion_us += timeout_us;
	}
	host.end_writes = NULL;
	for (uint64_t i = 0; m && i < DIRTY_PAGES; i++)
		cma_page_end_writeback(m->mm, m->cache->slots[i].page);
	return timeout_us;
}

static void host_wake(void *ctx, enum cma_sleep_reason why)
{
}

static const struct cma_mm_sleep_ops host_ops = { host_sleep, host_wake, NULL };

static bool waits_for_writes(const char *kernel)
{
	return cma_kernel_has(kernel, "reclaim_retry") == 1 &&
	       cma_kernel_has(kernel, "reclaim_throttle") != 1;
}

/*
 * Expect: the request of order0_rounds_before_oom_by_release, on a host
 * clock. From 4.9 (kernel.reclaim_retry) until 5.16
 * (kernel.reclaim_throttle) each round that freed nothing and retries,
 * its zone's reclaimable pages all dirty, sleeps HZ/10 on the congestion
 * queue before the retry; the rounds are counted all the same, and the
 * OOM handler is called after rounds_before_oom of them, the last not
 * sleeping. Before 4.9 and from 5.16 the slow path does not sleep there.
 */
static void order0_waits_for_writes_pending_by_release(const char *kernel, unsigned k)
{
	unsigned long waits = waits_for_writes(kernel) ? rounds_before_oom(kernel) - 1 : 0;
	struct full_machine m = { 0 };

	full_machine(&m, kernel);
	memset(&host, 0, sizeof(host));
	cma_mm_set_sleep_ops(m.mm, &host_ops, NULL);
	assert_null(cma_alloc_pages(m.mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0));
	expect_kernel(kernel, "sleeps on the congestion queue", (long)waits, (long)host.congestion);
	expect_kernel(kernel, "their microseconds", (long)(waits * IO_WAIT_US),
		      (long)host.congestion_us);
	expect_kernel(kernel, "OOM handler calls", 1, m.oom.calls);
	if (cma_kernel_has(kernel, "reclaim_retry") == 1)
		expect_kernel(kernel, "reclaim rounds before the OOM call", rounds_before_oom(kernel),
			      (long)m.oom.rounds);
	cma_mm_set_sleep_ops(m.mm, NULL, NULL);
	full_machine_destroy(&m);
}

/*
 * Expect: the request of order0_rounds_before_oom_by_release with the
 * page cache's owner refusing to let its pages go and @dirty of them
 * dirty, the rest clean: reclaim frees nothing either way. Under 4.9 and
 * 5.15 the rounds sleep when the dirty pages are more than half of the
 * reclaimable ones (DIRTY_PAGES / 2 + 1), not when they are fewer
 * (DIRTY_PAGES / 2 - PAGEVEC_SIZE: the pages reclaim puts back wait in
 * per-CPU pagevecs, off the lists that count as reclaimable).
 */
static void order0_waits_only_past_half_dirty_by_release(const char *kernel, unsigned k)
{
	static const uint64_t dirty_pages[] = { DIRTY_PAGES / 2 - PAGEVEC_SIZE, DIRTY_PAGES / 2 + 1 };

	for (int d = 0; d < 2; d++) {
		unsigned long waits = waits_for_writes(kernel) && d ? rounds_before_oom(kernel) - 1 : 0;
		struct full_machine m = { 0 };

		full_machine(&m, kernel);
		m.cache->refuse_reclaim = -EAGAIN;
		for (uint64_t i = dirty_pages[d]; i < DIRTY_PAGES; i++)
			owner_set_dirty(m.cache, i, false);
		memset(&host, 0, sizeof(host));
		cma_mm_set_sleep_ops(m.mm, &host_ops, NULL);
		assert_null(cma_alloc_pages(m.mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0));
		expect_kernel(kernel, d ? "sleeps past half dirty" : "sleeps below half dirty",
			      (long)waits, (long)host.congestion);
		expect_kernel(kernel, "OOM handler calls", 1, m.oom.calls);
		cma_mm_set_sleep_ops(m.mm, NULL, NULL);
		m.cache->refuse_reclaim = 0;
		full_machine_destroy(&m);
	}
}

/*
 * Expect: the same machine with its page cache under writeback instead,
 * the writes ending in the first sleep. From 4.9 until 5.16 the first
 * round without progress sleeps on the congestion queue, the writes end
 * meanwhile, and the next round reclaims the written pages: the request
 * is served without the OOM handler, after two rounds. From 5.16 reclaim
 * itself sleeps (reclaim_throttle), not on that queue, and the request
 * is served too. Before 4.9 the first round's reclaim waits on that queue
 * at the end of the zone's shrink (throttle_vm_writeout: the writes are
 * over the dirty limit), the writes end meanwhile, and the same round
 * reclaims them: served in one round, without the OOM handler.
 */
static void order0_served_after_writes_end_by_release(const char *kernel, unsigned k)
{
	bool waits = waits_for_writes(kernel);
	bool vm_writeout = cma_kernel_has(kernel, "vm_writeout_unthrottled") == 0;
	struct full_machine m = { 0 };
	struct cma_page *page;

	full_machine(&m, kernel);
	for (uint64_t i = 0; i < DIRTY_PAGES; i++)
		assert_true(cma_page_start_writeback(m.mm, m.cache->slots[i].page));
	memset(&host, 0, sizeof(host));
	host.end_writes = &m;
	cma_mm_set_sleep_ops(m.mm, &host_ops, NULL);
	page = cma_alloc_pages(m.mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);
	expect_kernel(kernel, "the page served", 1, page != NULL);
	expect_kernel(kernel, "OOM handler calls", 0, m.oom.calls);
	expect_kernel(kernel, "sleeps on the congestion queue", waits || vm_writeout,
		      (long)host.congestion);
	expect_kernel(kernel, "sleeps", 1, host.sleeps > 0);
	if (waits || vm_writeout)
		expect_kernel(kernel, "reclaim rounds", waits ? 2 : 1, (long)reclaim.rounds);
	if (page)
		cma_free_pages(m.mm, page, 0);
	cma_mm_set_sleep_ops(m.mm, NULL, NULL);
	if (host.end_writes)
		host_sleep(NULL, CMA_NR_SLEEP_REASONS, 0);
	full_machine_destroy(&m);
}

/* Deferred as far as it goes: 1 << COMPACT_MAX_DEFER_SHIFT (6) considerations. */
#define COMPACT_DEFERRALS	6
#define HOLES			400	/* free pages left, apart: above the min mark */

/*
 * Every free page of the zone taken, in groups of four pfns: anonymous
 * pages (no swap: not reclaimable) at 0, 2 and 3, a clean file page at
 * 1, but the first HOLES pfns at 3 left free. No two free or
 * reclaimable pages are buddies: reclaim frees order-0 pages only, and
 * an order-2 block needs compaction.
 */
static void scattered_machine(struct full_machine *m, const char *kernel, struct fake_owner **anon)
{
	struct cma_page *hole[HOLES];
	struct zone *zone;
	unsigned long holes = 0, na = 0, nf = 0, zone_end;

	m->mm = test_mm(.size = 32 * MiB, .kernel = kernel);
	zone = &m->mm->zones[ZONE_NORMAL];
	*anon = owner_create(m->mm, true, zone->spanned_pages);
	m->cache = owner_create(m->mm, false, zone->spanned_pages / 4 + 1);
	assert_non_null(*anon);
	assert_non_null(m->cache);
	cma_drain_all_pages(m->mm);
	zone_end = zone->zone_start_pfn + zone->spanned_pages;
	for (unsigned long pfn = zone->zone_start_pfn; pfn < zone_end; pfn++) {
		if (pfn % 4 == 1)
			nf += !!owner_fault_at(m->cache, nf, pfn, pfn + 1);
		else if (pfn % 4 == 3 && holes < HOLES && pfn >= zone_end - 8 * HOLES &&
			 (hole[holes] = cma_alloc_pages_at(m->mm, pfn, 0, CMA_GFP_KERNEL)))
			holes++;
		else
			na += !!owner_fault_at(*anon, na, pfn, pfn + 1);
	}
	assert_int_equal(holes, HOLES);
	while (holes)
		cma_free_pages(m->mm, hole[--holes], 0);
	cma_drain_all_pages(m->mm);
	lru_add_drain_all(m->mm);
	memset(&reclaim, 0, sizeof(reclaim));
	cma_mm_set_oom_handler(m->mm, oom_record, m);
	/* set while no other thread runs */
	cma_mm_set_trace(m->mm, count_reclaim, NULL);
}

/*
 * Expect: an order-2 GFP_KERNEL request on that machine, its zone's
 * compaction deferred as far as it goes for order 2. Up to 4.8 the
 * deferral outlasts the rounds in which reclaim frees file pages: no
 * compaction runs, and once reclaim has nothing left the OOM handler
 * (which frees nothing here) is called and the request fails. From 4.9
 * (kernel.reclaim_retry) the deferred compaction at SYNC_LIGHT makes
 * should_compact_retry raise the priority to SYNC_FULL, which ignores
 * the deferral: the second round compacts, and the request is served
 * without the OOM handler.
 */
static void order2_compaction_past_deferral_by_release(const char *kernel, unsigned k)
{
	bool v6 = cma_kernel_has(kernel, "reclaim_retry") == 1;
	struct full_machine m = { 0 };
	struct fake_owner *anon;
	struct cma_page *page;
	uint64_t before = 0, after = 0;

	scattered_machine(&m, kernel, &anon);
	for (int i = 0; i < COMPACT_DEFERRALS; i++)
		defer_compaction(&m.mm->zones[ZONE_NORMAL], 2);
	assert_int_equal(cma_mm_counter(m.mm, "compact_migrate_scanned", &before), 0);
	page = cma_alloc_pages(m.mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 2);
	expect_kernel(kernel, "the order-2 page served", v6, page != NULL);
	expect_kernel(kernel, "OOM handler calls", !v6, m.oom.calls);
	if (v6) {
		expect_kernel(kernel, "reclaim rounds", 2, (long)reclaim.rounds);
		cma_free_pages(m.mm, page, 2);
	}
	assert_int_equal(cma_mm_counter(m.mm, "compact_migrate_scanned", &after), 0);
	expect_kernel(kernel, "compaction scanned", v6, after > before);
	cma_mm_set_trace(m.mm, NULL, NULL);
	assert_true(owner_check(anon) >= 0);
	owner_destroy(anon);
	assert_true(owner_check(m.cache) >= 0);
	owner_destroy(m.cache);
	assert_verify(m.mm);
	cma_mm_destroy(m.mm);
}

int main(void)
{
	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(order0_rounds_before_oom_by_release, retry_kernels),
		test_kernel_case(order0_backoff_gives_up_early_by_release, backoff_kernels),
		test_kernel_case(order0_served_by_a_later_free_by_release, retry_kernels),
		test_kernel_case(contig_range_served_by_a_later_free_by_release, range_kernels),
		test_kernel_case(contig_range_target_gives_up_by_release, give_up_kernels),
		test_kernel_case(order2_compaction_past_deferral_by_release, retry_kernels),
		test_kernel_case(order0_waits_for_writes_pending_by_release, io_wait_kernels),
		test_kernel_case(order0_served_after_writes_end_by_release, io_wait_kernels),
		test_kernel_case(order0_waits_only_past_half_dirty_by_release, io_wait_kernels),
	};

	return test_run_kernel_cases("reclaim_retry (per kernel)", kernel_cases);
}
