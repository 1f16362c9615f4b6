// SPDX-License-Identifier: GPL-2.0
/*
 * Who reclaim gives up on, by release (kernel.kswapd_failures): v3.5
 * marks a zone all_unreclaimable once kswapd scanned six times its
 * reclaimable pages, and any page freed to it clears the mark; from 4.12
 * kswapd gives the node up after MAX_RECLAIM_RETRIES runs that freed
 * nothing, is no longer woken for it, and only reclaim that frees pages
 * makes it hopeful again. The machine's file pages are all pinned and
 * its marks sit above its free pages: kswapd is wanted and can free
 * nothing. kswapd is the polled one: a pass runs when the test polls.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "helpers.h"
#include "owners.h"

#define NR_FILE_PAGES	2048

static const char *const releases[] = { "3.5", "4.11", "4.12", "5.19", "6.12" };
/* by index into releases[] */
static const bool node_rule[] = { false, false, true, true, true };

struct pinned {
	struct cma_mm *mm;
	struct fake_owner *o;
	struct zone *zone;	/* the highest populated zone, where the pages are */
	uint64_t released;	/* slots below this one were let go */
};

static uint64_t counter_of(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/* @p's machine of @kernel: every page cache page pinned, every zone under its min mark; no kswapd. */
static void pinned_machine_bare(struct pinned *p, const char *kernel)
{
	struct zone *zone;

	p->mm = test_mm(.size = 32 * MiB, .kernel = kernel);
	p->released = 0;
	assert_string_equal(cma_mm_kernel(p->mm), kernel);
	p->o = owner_create(p->mm, false, NR_FILE_PAGES);
	owner_fault_range(p->o, 0, NR_FILE_PAGES, CMA_GFP_HIGHUSER_MOVABLE);
	for (uint64_t i = 0; i < NR_FILE_PAGES; i++)
		assert_non_null(owner_pin(p->o, i));
	cma_drain_all_pages(p->mm);
	for_each_populated_zone(p->mm, zone) {
		test_marks_from_free(zone, 8, 16, 32);
		p->zone = zone;
	}
}

/* pinned_machine_bare() with the polled kswapd. */
static void pinned_machine(struct pinned *p, const char *kernel)
{
	pinned_machine_bare(p, kernel);
	assert_int_equal(cma_kswapd_start_polled(p->mm), 0);
}

static void unpin_all(struct pinned *p)
{
	for (uint64_t i = p->released; i < NR_FILE_PAGES; i++)
		cma_page_put(p->mm, p->o->slots[i].page);
}

/* The owner lets its next page go: a page freed to its zone, not by reclaim. */
static void release_one(struct pinned *p)
{
	cma_page_put(p->mm, p->o->slots[p->released].page);
	owner_release(p->o, p->released++);
	cma_drain_all_pages(p->mm);
}

static void finish(struct pinned *p)
{
	cma_kswapd_stop(p->mm);
	assert_int_equal(cma_mm_verify(p->mm), 0);
	owner_destroy(p->o);
	cma_mm_destroy(p->mm);
}

/* A wakeup through @p's zone, then the pass it asked for: the pages freed. */
static unsigned long wake_and_poll(struct pinned *p)
{
	wakeup_kswapd(p->mm, p->zone, 0, (int)p->zone->idx);
	return cma_kswapd_poll(p->mm);
}

/* What the pass of pinned_machine() left: given up on, the zone's way or the node's. */
static void assert_given_up(struct pinned *p, unsigned k)
{
	struct zone *zone;

	assert_int_equal(kswapd_hopeless(p->mm), node_rule[k]);
	assert_int_equal(p->mm->kswapd_failures, node_rule[k] ? MAX_RECLAIM_RETRIES : 0);
	for_each_populated_zone(p->mm, zone) {
		assert_int_equal(zone->all_unreclaimable, !node_rule[k]);
		assert_true(zone_given_up(zone));
	}
}

/*
 * Expect (balance_pgdat; 4.12's kswapd_failures): the first pass frees
 * nothing. v3.5's loops until every zone is all_unreclaimable, and the
 * next wakeup runs another pass. From 4.12 each loop is a failed run:
 * the pass stops at the MAX_RECLAIM_RETRIES-th (one pageoutrun each, a
 * premature sleep between each two: 16 and 15, as the 6.12 guests of
 * bench/oracle/results/arm64-vmsplice-32m and arm64-anon2000-1g counted
 * in /proc/vmstat), and kswapd is not woken again.
 */
static void kswapd_gives_node_up_after_max_retries_from_412(const char *kernel, unsigned k)
{
	struct pinned p;
	uint64_t runs = 0;

	pinned_machine(&p, kernel);
	runs = counter_of(p.mm, "pageoutrun");
	assert_int_equal(wake_and_poll(&p), 0);
	runs = counter_of(p.mm, "pageoutrun") - runs;
	assert_given_up(&p, k);
	if (node_rule[k]) {
		/* as the oracle's 6.12 guests counted (arm64-vmsplice-32m, arm64-anon2000-1g) */
		assert_int_equal(runs, MAX_RECLAIM_RETRIES);
		assert_int_equal(counter_of(p.mm, "kswapd_high_wmark_hit_quickly"), MAX_RECLAIM_RETRIES - 1);
	} else {
		assert_true(runs >= 1);
	}

	runs = counter_of(p.mm, "pageoutrun");
	wakeup_kswapd(p.mm, p.zone, 0, (int)p.zone->idx);
	assert_int_equal(p.mm->kswapd_woken, !node_rule[k]);
	assert_int_equal(cma_kswapd_poll(p.mm), 0);
	assert_int_equal(counter_of(p.mm, "pageoutrun") > runs, !node_rule[k]);
	unpin_all(&p);
	finish(&p);
}

/*
 * Expect (free_pcppages_bulk's reset until 4.12): a page freed to the
 * zone clears v3.5's verdict; from 4.12 a freed page is no progress of
 * reclaim, and the node stays given up.
 */
static void freed_page_leaves_node_given_up_from_412(const char *kernel, unsigned k)
{
	struct pinned p;

	pinned_machine(&p, kernel);
	wake_and_poll(&p);
	assert_given_up(&p, k);
	release_one(&p);
	assert_false(p.zone->all_unreclaimable);
	assert_int_equal(zone_given_up(p.zone), node_rule[k]);
	unpin_all(&p);
	finish(&p);
}

/* /proc/zoneinfo's verdict line of @p's highest zone: 1 or 0. */
static int zoneinfo_verdict(struct pinned *p)
{
	const char *key = test_kernel_since(cma_mm_kernel(p->mm), 6, 0) ? "node_unreclaimable:" :
									   "all_unreclaimable:";
	char *buf = NULL, *at, *last = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int verdict;

	assert_non_null(f);
	assert_int_equal(cma_write_proc(p->mm, "zoneinfo", f), 0);
	fclose(f);
	for (at = strstr(buf, key); at; at = strstr(at + 1, key))
		last = at;
	assert_non_null(last);
	verdict = atoi(last + strlen(key));
	free(buf);
	return verdict;
}

/*
 * Expect (shrink_node's reset, 4.12; zoneinfo): the pins gone and a page
 * freed (which until 4.12 clears the zone's mark, so that direct reclaim
 * looks past its first priority again), direct reclaim frees pages, and
 * that makes the node hopeful again: /proc's verdict goes from 1 to 0
 * and a wakeup wakes kswapd.
 */
static void reclaim_progress_revives_node(const char *kernel, unsigned k)
{
	struct pinned p;
	struct zone *zone;

	pinned_machine(&p, kernel);
	wake_and_poll(&p);
	assert_given_up(&p, k);
	assert_int_equal(zoneinfo_verdict(&p), 1);
	release_one(&p);
	unpin_all(&p);
	assert_true(cma_try_to_free_pages(p.mm, SWAP_CLUSTER_MAX, CMA_GFP_KERNEL) > 0);
	assert_int_equal(p.mm->kswapd_failures, 0);
	for_each_populated_zone(p.mm, zone)
		assert_false(zone_given_up(zone));
	assert_int_equal(zoneinfo_verdict(&p), 0);
	for_each_populated_zone(p.mm, zone)
		test_marks_from_free(zone, 8, 16, 32);
	wakeup_kswapd(p.mm, p.zone, 0, (int)p.zone->idx);
	assert_true(p.mm->kswapd_woken);
	finish(&p);
}

/*
 * Expect (kswapd_try_to_sleep; 4.12's prepare_kswapd_sleep): kswapd as a
 * thread, woken on the pinned machine, gives it up and then sleeps,
 * though no zone is balanced: no pass runs and no premature sleep is
 * counted while the test waits. Until 4.12 the zones it gave up on count
 * as balanced.
 */
static void kswapd_thread_sleeps_on_what_it_gave_up(const char *kernel, unsigned k)
{
	const struct timespec tick = { .tv_nsec = 1000000 };
	struct pinned p;
	uint64_t runs, premature;

	pinned_machine_bare(&p, kernel);
	assert_int_equal(cma_kswapd_start(p.mm), 0);
	wakeup_kswapd(p.mm, p.zone, 0, (int)p.zone->idx);
	for (int i = 0; i < 10000 && !zone_given_up(p.zone); i++)
		nanosleep(&tick, NULL);
	assert_true(zone_given_up(p.zone));
	/* the pass that gave up ends, and kswapd goes to sleep */
	for (int i = 0; i < 20; i++)
		nanosleep(&tick, NULL);
	runs = counter_of(p.mm, "pageoutrun");
	premature = counter_of(p.mm, "kswapd_high_wmark_hit_quickly");
	for (int i = 0; i < 50; i++)
		nanosleep(&tick, NULL);
	assert_int_equal(counter_of(p.mm, "pageoutrun"), runs);
	assert_int_equal(counter_of(p.mm, "kswapd_high_wmark_hit_quickly"), premature);
	cma_kswapd_stop(p.mm);
	unpin_all(&p);
	finish(&p);
}

static void note_given_up_problem(void *ctx, const char *problem)
{
	if (strstr(problem, "kswapd_failures"))
		(*(unsigned *)ctx)++;
}

/*
 * Expect (cma_mm_verify): failures counted where no release counts them,
 * and a zone marked all_unreclaimable where the node's rule holds, are
 * each named.
 */
static void verify_names_a_verdict_of_the_wrong_era(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.size = 32 * MiB, .kernel = kernel, .metadata_only = true);
	struct zone *zone = &mm->zones[ZONE_NORMAL];
	unsigned named = 0;

	assert_true(zone->present_pages);
	assert_int_equal(cma_mm_verify_report(mm, note_given_up_problem, &named), 0);
	if (node_rule[k])
		atomic_store_explicit(&zone->all_unreclaimable, true, memory_order_relaxed);
	else
		atomic_store_explicit(&mm->kswapd_failures, 3, memory_order_relaxed);
	assert_int_equal(cma_mm_verify_report(mm, note_given_up_problem, &named), -EUCLEAN);
	assert_int_equal(named, 1);
	atomic_store_explicit(&zone->all_unreclaimable, false, memory_order_relaxed);
	atomic_store_explicit(&mm->kswapd_failures, node_rule[k] ? MAX_RECLAIM_RETRIES : 0,
			      memory_order_relaxed);
	assert_int_equal(cma_mm_verify_report(mm, note_given_up_problem, &named), 0);
	assert_int_equal(named, 1);
	cma_mm_destroy(mm);
}

int main(void)
{
	static const struct test_kernel_case cases[] = {
		test_kernel_case(kswapd_gives_node_up_after_max_retries_from_412, releases),
		test_kernel_case(freed_page_leaves_node_given_up_from_412, releases),
		test_kernel_case(reclaim_progress_revives_node, releases),
		test_kernel_case(kswapd_thread_sleeps_on_what_it_gave_up, releases),
		test_kernel_case(verify_names_a_verdict_of_the_wrong_era, releases),
	};

	return test_run_kernel_cases("kswapd_failures", cases);
}
