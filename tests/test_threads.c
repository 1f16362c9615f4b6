// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator under threads: workers bound to their own per-CPU
 * slots allocate and free random order-0..3 blocks (a live set of 64
 * each, every byte stamped with a pattern no other live block uses and
 * checked before the free, so a block handed out twice is caught) while a
 * drainer empties every slot's pcp lists in a loop. Afterwards the machine
 * must verify clean with every page back on the buddy lists. Meant to run
 * under ThreadSanitizer too:
 *   make SAN=thread build-thread/tests/test_threads && build-thread/tests/test_threads
 * CMA_THREAD_OPS sets the operations per worker (default 200000);
 * CMA_TEST_SEED replays a run.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define NR_CPUS		4
#define LIVE		64	/* blocks per worker; NR_CPUS * LIVE <= 256 patterns */
#define MAX_ORDER_USED	3

static const cma_gfp_t worker_gfps[] = {
	CMA_GFP_KERNEL, CMA_GFP_KERNEL | CMA_GFP_RECLAIMABLE, CMA_GFP_HIGHUSER_MOVABLE,
	CMA_GFP_HIGHUSER_MOVABLE, CMA_GFP_ATOMIC, CMA_GFP_KERNEL | CMA_GFP_DMA,
};

struct live_block {
	struct cma_page *page;
	unsigned order;
};

struct worker {
	pthread_t thread;
	struct cma_mm *mm;
	pthread_barrier_t *start;
	unsigned cpu;
	unsigned long ops;
	uint64_t rand;
	struct live_block live[LIVE];
	/* results, read by the main thread after the join */
	unsigned long allocs, frees, failures, corrupt;
};

struct drainer {
	pthread_t thread;
	struct cma_mm *mm;
	pthread_barrier_t *start;
	atomic_bool stop;
	unsigned long drains;
};

/* The pattern of live slot @slot of the worker on @cpu: unique among all live blocks. */
static unsigned char pattern(unsigned cpu, unsigned slot)
{
	return (unsigned char)(cpu * LIVE + slot);
}

static size_t block_bytes(struct cma_mm *mm, unsigned order)
{
	return (size_t)mm->page_size << order;
}

/* Every byte equals the pattern: the first does, and each equals the next. */
static bool stamp_intact(const unsigned char *p, size_t len, unsigned char want)
{
	return p[0] == want && !memcmp(p, p + 1, len - 1);
}

static void worker_free(struct worker *w, unsigned slot)
{
	struct live_block *b = &w->live[slot];
	const unsigned char *p = cma_page_address(w->mm, b->page);

	if (!stamp_intact(p, block_bytes(w->mm, b->order), pattern(w->cpu, slot))) {
		if (w->corrupt++ < 5)
			fprintf(stderr, "cpu %u: block at pfn %#lx order %u: expected every byte %#x, found %#x at the start (handed out twice?)\n",
				w->cpu, cma_page_to_pfn(w->mm, b->page), b->order,
				pattern(w->cpu, slot), p[0]);
	}
	cma_free_pages(w->mm, b->page, b->order);
	b->page = NULL;
	w->frees++;
}

static void worker_alloc(struct worker *w, unsigned slot, uint64_t r)
{
	struct live_block *b = &w->live[slot];
	unsigned order = (unsigned)(r % (MAX_ORDER_USED + 1));
	cma_gfp_t gfp = worker_gfps[(r >> 8) % (sizeof(worker_gfps) / sizeof(worker_gfps[0]))];

	b->page = cma_alloc_pages(w->mm, gfp | CMA_GFP_NOWARN, order);
	if (!b->page) {
		w->failures++;
		return;
	}
	b->order = order;
	memset(cma_page_address(w->mm, b->page), pattern(w->cpu, slot), block_bytes(w->mm, order));
	w->allocs++;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	cma_mm_bind_cpu(w->mm, w->cpu);
	pthread_barrier_wait(w->start);
	for (unsigned long i = 0; i < w->ops; i++) {
		uint64_t r = prandom_u64_state(&w->rand);
		unsigned slot = (unsigned)(r % LIVE);

		if (w->live[slot].page)
			worker_free(w, slot);
		else
			worker_alloc(w, slot, r / LIVE);
	}
	for (unsigned slot = 0; slot < LIVE; slot++)
		if (w->live[slot].page)
			worker_free(w, slot);
	return NULL;
}

static void *drainer_main(void *arg)
{
	struct drainer *d = arg;

	pthread_barrier_wait(d->start);
	while (!atomic_load_explicit(&d->stop, memory_order_relaxed)) {
		cma_drain_all_pages(d->mm);
		d->drains++;
	}
	return NULL;
}

static unsigned long ops_per_worker(void)
{
	const char *env = getenv("CMA_THREAD_OPS");

	return env ? strtoul(env, NULL, 0) : 200000;
}

/*
 * Expect: @nr_workers workers and a drainer leave no trace: no block is
 * ever handed to two owners, the machine verifies clean, and every page
 * is free again.
 */
static void run_workers(unsigned nr_workers, const char *name)
{
	/* 64 MiB of Normal, whose pcp batch (3) leaves pages on the lists */
	struct cma_mm *mm = test_mm(TEST_CMA_32M, .size = 80 * MiB, .cpus = NR_CPUS);
	unsigned long free_at_boot = global_page_state(mm, NR_FREE_PAGES);
	unsigned long seed = test_seed(name), corrupt = 0, allocs = 0;
	struct worker *w = calloc(nr_workers, sizeof(*w));
	struct drainer d = { .mm = mm };
	pthread_barrier_t start;

	assert_non_null(w);
	assert_true(nr_workers <= NR_CPUS);
	pthread_barrier_init(&start, NULL, nr_workers + 1);
	d.start = &start;
	atomic_init(&d.stop, false);
	for (unsigned i = 0; i < nr_workers; i++) {
		w[i].mm = mm;
		w[i].start = &start;
		w[i].cpu = i;
		w[i].ops = ops_per_worker();
		w[i].rand = seed * 0x9e3779b97f4a7c15ull + i + 1;
		assert_int_equal(pthread_create(&w[i].thread, NULL, worker_main, &w[i]), 0);
	}
	assert_int_equal(pthread_create(&d.thread, NULL, drainer_main, &d), 0);
	for (unsigned i = 0; i < nr_workers; i++)
		test_join_or_fail(mm, w[i].thread, "worker", TEST_JOIN_DEADLINE);
	atomic_store(&d.stop, true);
	test_join_or_fail(mm, d.thread, "drainer", TEST_JOIN_DEADLINE);
	pthread_barrier_destroy(&start);

	for (unsigned i = 0; i < nr_workers; i++) {
		printf("%s: cpu %u: %lu ops: %lu allocations, %lu frees, %lu failed allocations, %lu corrupt blocks\n",
		       name, w[i].cpu, w[i].ops, w[i].allocs, w[i].frees, w[i].failures, w[i].corrupt);
		corrupt += w[i].corrupt;
		allocs += w[i].allocs;
		assert_int_equal(w[i].allocs, w[i].frees);
	}
	printf("%s: drainer: %lu drain_all_pages\n", name, d.drains);
	if (corrupt) {
		print_error("expected every block's pattern intact, found %lu corrupt blocks\n", corrupt);
		fail();
	}
	assert_true(allocs > 0);
	cma_drain_all_pages(mm);
	assert_verify(mm);
	if (global_page_state(mm, NR_FREE_PAGES) != free_at_boot) {
		print_error("expected NR_FREE_PAGES %lu as after boot, found %lu\n", free_at_boot,
			    global_page_state(mm, NR_FREE_PAGES));
		fail();
	}
	free(w);
	cma_mm_destroy(mm);
}

static void alloc_free_two_threads_with_drainer(void **state)
{
	run_workers(2, "alloc_free_two_threads_with_drainer");
}

static void alloc_free_four_threads_with_drainer(void **state)
{
	run_workers(4, "alloc_free_four_threads_with_drainer");
}

struct remote_alloc {
	struct cma_mm *mm;
	struct cma_page *page;
};

static void *alloc_on_cpu1(void *arg)
{
	struct remote_alloc *ra = arg;

	cma_mm_bind_cpu(ra->mm, 1);
	ra->page = cma_alloc_pages(ra->mm, CMA_GFP_KERNEL, 0);
	return NULL;
}

static bool on_pcp_list(struct cma_mm *mm, unsigned cpu, struct cma_page *page)
{
	struct per_cpu_pages *pcp = &mm->slots[cpu].pcp[page_zonenum(page)];

	for (int t = 0; t < MIGRATE_PCPTYPES; t++)
		for (struct cma_page *p = page_list_first(mm, &pcp->lists[t]); p; p = page_list_next(mm, p))
			if (p == page)
				return true;
	return false;
}

/*
 * Expect: a page allocated by a thread on cpu 1 and freed on cpu 0 lands
 * on cpu 0's pcp list. 96 MiB: from 3.9 the batch comes from the managed
 * pages at boot, before the area is activated, and 80 MiB gives a batch
 * of 1, whose refill leaves the list empty.
 */
static void free_pages_on_other_cpu_lands_on_its_pcp(void **state)
{
	struct cma_mm *mm = test_mm(TEST_CMA_32M, .size = 96 * MiB, .cpus = NR_CPUS);
	struct remote_alloc ra = { .mm = mm };
	pthread_t t;
	unsigned long before0, before1;
	enum zone_type z;

	assert_int_equal(pthread_create(&t, NULL, alloc_on_cpu1, &ra), 0);
	test_join_or_fail(mm, t, "cpu 1", TEST_JOIN_DEADLINE);
	assert_non_null(ra.page);
	z = page_zonenum(ra.page);
	assert_true(pcp_count(mm, 1, z) > 0);
	assert_false(on_pcp_list(mm, 1, ra.page));

	cma_mm_bind_cpu(mm, 0);
	before0 = pcp_count(mm, 0, z);
	before1 = pcp_count(mm, 1, z);
	cma_free_pages(mm, ra.page, 0);
	if (!on_pcp_list(mm, 0, ra.page) || on_pcp_list(mm, 1, ra.page)) {
		print_error("page freed on cpu 0: expected on cpu 0's pcp list only, found on cpu 0: %d, cpu 1: %d\n",
			    on_pcp_list(mm, 0, ra.page), on_pcp_list(mm, 1, ra.page));
		fail();
	}
	assert_true(page_test(ra.page, PG_pcp));
	assert_int_equal(pcp_count(mm, 0, z), before0 + 1);
	assert_int_equal(pcp_count(mm, 1, z), before1);
	assert_verify(mm);
	cma_drain_all_pages(mm);
	assert_int_equal(pcp_count(mm, 0, z), 0);
	assert_int_equal(pcp_count(mm, 1, z), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

struct blocked_pair {
	struct cma_mm *mm;
	struct cma_page *page;
	atomic_int stage;	/* 1: allocated, 2: freed */
};

static void *pair_on_cpu1(void *arg)
{
	struct blocked_pair *bp = arg;

	cma_mm_bind_cpu(bp->mm, 1);
	bp->page = cma_alloc_pages(bp->mm, CMA_GFP_KERNEL, 0);
	atomic_store(&bp->stage, 1);
	if (bp->page)
		cma_free_pages(bp->mm, bp->page, 0);
	atomic_store(&bp->stage, 2);
	return NULL;
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/*
 * Expect: while slot 1's lock is held (as a drain holds it), an order-0
 * alloc+free pair on cpu 1 waits for it: the fast path only tries the
 * lock (pcp_spin_trylock in later kernels) and then takes the waiting
 * path of buffered_rmqueue / free_hot_cold_page (v3.5), never going
 * around the lock; once it is released both finish and count.
 */
static void alloc_free_wait_for_held_slot_lock(void **state)
{
	struct cma_mm *mm = test_mm(TEST_CMA_32M, .size = 80 * MiB, .cpus = NR_CPUS);
	struct blocked_pair bp = { .mm = mm };
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	uint64_t pgfree = counter(mm, "pgfree");
	uint64_t pgalloc = counter(mm, "pgalloc_dma") + counter(mm, "pgalloc_normal");
	pthread_t t;

	spin_lock(&mm->slots[1].lock);
	assert_int_equal(pthread_create(&t, NULL, pair_on_cpu1, &bp), 0);
	nanosleep(&pause, NULL);
	if (atomic_load(&bp.stage) != 0) {
		print_error("allocation on cpu 1 went past its held slot lock (stage %d)\n",
			    atomic_load(&bp.stage));
		fail();
	}
	spin_unlock(&mm->slots[1].lock);
	test_join_or_fail(mm, t, "cpu 1", TEST_JOIN_DEADLINE);
	assert_non_null(bp.page);
	assert_int_equal(atomic_load(&bp.stage), 2);
	assert_int_equal(counter(mm, "pgalloc_dma") + counter(mm, "pgalloc_normal"), pgalloc + 1);
	assert_int_equal(counter(mm, "pgfree"), pgfree + 1);
	assert_true(on_pcp_list(mm, 1, bp.page));
	assert_verify(mm);
	cma_mm_destroy(mm);
}

struct racing_drain {
	pthread_t thread;
	struct cma_mm *mm;
	unsigned cpu;
	struct zone *zone;	/* drain_all_pages' argument; the public call if @full */
	bool full;
	atomic_bool done;
};

static void *drain_on_cpu(void *arg)
{
	struct racing_drain *rd = arg;

	cma_mm_bind_cpu(rd->mm, rd->cpu);
	if (rd->full)
		cma_drain_all_pages(rd->mm);
	else
		drain_all_pages(rd->mm, rd->zone);
	atomic_store(&rd->done, true);
	return NULL;
}

/* on_pcp_list under the slot's lock, for a look while drains run */
static bool on_pcp_list_locked(struct cma_mm *mm, unsigned cpu, struct cma_page *page)
{
	bool on;

	spin_lock(&mm->slots[cpu].lock);
	on = on_pcp_list(mm, cpu, page);
	spin_unlock(&mm->slots[cpu].lock);
	return on;
}

static unsigned pcp_count_racy(struct cma_mm *mm, unsigned cpu, enum zone_type z)
{
	return __atomic_load_n(&mm->slots[cpu].pcp[z].count, __ATOMIC_RELAXED);
}

struct drain_race {
	bool done_meanwhile;	/* the second drain returned while the first was held up */
	bool page_left_meanwhile;	/* the page freed on cpu 0 was still on its list then */
	bool page_left_after;	/* ... and once both drains had ended */
};

/*
 * A drain held up at cpu 1's list (its lock held here, as a busy CPU
 * holds it), a page freed on cpu 0 after the first drain passed cpu 0,
 * and a second drain from cpu 3, naming @zone_named's zone or none.
 */
static struct drain_race race_two_drains(const char *kernel, bool zone_named)
{
	struct cma_mm *mm = test_mm(TEST_CMA_32M, .size = 80 * MiB, .cpus = NR_CPUS, .kernel = kernel);
	struct blocked_pair bp = { .mm = mm };
	struct racing_drain first = { .mm = mm, .cpu = 2, .full = true };
	struct racing_drain second = { .mm = mm, .cpu = 3 };
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	struct drain_race r;
	struct cma_page *page;
	pthread_t t;
	int waited;

	/* pages on cpu 1's list for the first drain to stop at */
	assert_int_equal(pthread_create(&t, NULL, pair_on_cpu1, &bp), 0);
	test_join_or_fail(mm, t, "cpu 1", TEST_JOIN_DEADLINE);
	assert_true(on_pcp_list(mm, 1, bp.page));
	cma_mm_bind_cpu(mm, 0);
	page = cma_alloc_pages(mm, CMA_GFP_KERNEL, 0);
	assert_non_null(page);

	spin_lock(&mm->slots[1].lock);
	assert_int_equal(pthread_create(&first.thread, NULL, drain_on_cpu, &first), 0);
	for (waited = 0; pcp_count_racy(mm, 0, page_zonenum(page)) && waited < 10000; waited++)
		nanosleep(&(struct timespec){ 0, 1000 * 1000 }, NULL);
	assert_int_equal(pcp_count_racy(mm, 0, page_zonenum(page)), 0);
	nanosleep(&pause, NULL);
	assert_false(atomic_load(&first.done));
	cma_free_pages(mm, page, 0);
	assert_true(on_pcp_list_locked(mm, 0, page));

	second.zone = zone_named ? page_zone(mm, page) : NULL;
	assert_int_equal(pthread_create(&second.thread, NULL, drain_on_cpu, &second), 0);
	/*
	 * Until the second drain returns or empties cpu 0's list, or for
	 * two seconds if it does neither (it waits): a loaded machine may
	 * be slow to run it, and a fixed pause then reads "not yet" as
	 * "never".
	 */
	for (waited = 0; !atomic_load(&second.done) && on_pcp_list_locked(mm, 0, page) && waited < 2000; waited++)
		nanosleep(&(struct timespec){ 0, 1000 * 1000 }, NULL);
	r.done_meanwhile = atomic_load(&second.done);
	r.page_left_meanwhile = on_pcp_list_locked(mm, 0, page);
	spin_unlock(&mm->slots[1].lock);
	test_join_or_fail(mm, first.thread, "first drain", TEST_JOIN_DEADLINE);
	test_join_or_fail(mm, second.thread, "second drain", TEST_JOIN_DEADLINE);
	r.page_left_after = on_pcp_list(mm, 0, page);

	cma_drain_all_pages(mm);
	assert_false(on_pcp_list(mm, 0, page));
	assert_verify(mm);
	cma_mm_destroy(mm);
	return r;
}

/*
 * Expect (drain_all_pages of 4.11, __drain_all_pages of 6.0): a drain
 * naming no zone that finds another in progress returns at once and
 * drains nothing, so a page freed behind the running drain stays on its
 * list; up to 4.10 it drains side by side, emptying cpu 0's list and
 * stopping at cpu 1's lock as the first did.
 */
static void drain_all_pages_no_zone_leaves_it_to_the_drain_in_progress(void **state)
{
	struct drain_race r = race_two_drains("4.11", false);

	assert_true(r.done_meanwhile);
	assert_true(r.page_left_meanwhile && r.page_left_after);
	r = race_two_drains("4.10", false);
	assert_false(r.done_meanwhile);
	assert_false(r.page_left_meanwhile || r.page_left_after);
}

/*
 * Expect: a drain naming its zone (alloc_contig_range's, CMA's) waits
 * for the one in progress under 4.11's pcpu_drain_mutex, the page still
 * on cpu 0's list meanwhile, then drains it; up to 4.10 it drains cpu
 * 0's list at once and stops at cpu 1's lock.
 */
static void drain_all_pages_zone_waits_for_the_drain_in_progress(void **state)
{
	struct drain_race r = race_two_drains("4.11", true);

	assert_false(r.done_meanwhile);
	assert_true(r.page_left_meanwhile);
	assert_false(r.page_left_after);
	r = race_two_drains("4.10", true);
	assert_false(r.done_meanwhile);
	assert_false(r.page_left_meanwhile || r.page_left_after);
	r = race_two_drains("6.12", true);
	assert_false(r.done_meanwhile);
	assert_true(r.page_left_meanwhile);
	assert_false(r.page_left_after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(free_pages_on_other_cpu_lands_on_its_pcp),
		cmocka_unit_test(alloc_free_wait_for_held_slot_lock),
		cmocka_unit_test(drain_all_pages_no_zone_leaves_it_to_the_drain_in_progress),
		cmocka_unit_test(drain_all_pages_zone_waits_for_the_drain_in_progress),
		cmocka_unit_test(alloc_free_two_threads_with_drainer),
		cmocka_unit_test(alloc_free_four_threads_with_drainer),
	};

	return cmocka_run_group_tests_name("threads", tests, NULL, NULL);
}
