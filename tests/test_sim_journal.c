// SPDX-License-Identifier: GPL-2.0
/*
 * A file system's pages under a writer: its write dirties the page it
 * faults in before anything else may run (owned_write); a journaling
 * file system's metadata pages (wl_file.c's journal = N, owned.h's
 * OP_HELD), the block device's pages whose buffers the journal holds,
 * neither migrate nor reclaim, so cma_alloc finds their ranges busy,
 * until a checkpoint lets them go.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "sim_helpers.h"
#include "engine/owned.h"

static const char *const kernels[] = { "3.5", "6.12" };

/* A 3.x or 6.12 machine with its cmasim engine, for owned pages driven by hand. */
static struct sim *engine_init(const char *kernel)
{
	struct sim *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->mm = test_mm(.kernel = kernel, .swap = 8 * MiB);
	s->page_bytes = 4096;
	s->policy = sim_policy_find("cma");
	cost_profile(CMA_ARCH_X86, &s->cost);
	storage_attach_clock(s, s->mm);
	storage_request_start(s, 0);
	return s;
}

static void engine_destroy(struct sim *s)
{
	storage_destroy(&s->storage);
	cma_mm_destroy(s->mm);
	sim_events_destroy(s);
	free(s);
}

/* A workload driven by hand: no process of its own runs (no runnable hook). */
static const struct workload_ops by_hand_ops;

/* One kernel's engine and a workload's @nr owned file pages, driven by hand. */
struct by_hand {
	struct workload_result res;
	struct workload w;
	struct owned_pages o;
	struct sim *s;
};

/* The engine, h->s. */
static struct sim *by_hand_init(struct by_hand *h, const char *kernel, uint64_t nr)
{
	h->res = (struct workload_result){ 0 };
	h->w = (struct workload){ .res = &h->res, .ops = &by_hand_ops };
	h->s = engine_init(kernel);
	assert_int_equal(owned_init(&h->o, h->s, &h->w, nr, false), 0);
	return h->s;
}

static void by_hand_destroy(struct by_hand *h)
{
	owned_destroy(&h->o);
	engine_destroy(h->s);
}

/* Whoever preempts the writer at its scheduling point reclaims all it can. */
static void reclaim_all(struct sim *s, uint64_t t)
{
	lru_add_drain_all(s->mm);
	for (int i = 0; i < 4; i++)
		cma_try_to_free_pages(s->mm, 1u << 16, CMA_GFP_KERNEL);
}

/*
 * Expect (generic_perform_write: the page stays locked from
 * write_begin's lookup to write_end's set_page_dirty): a write dirties
 * the page it faults in before its task may be rescheduled, so reclaim
 * run there by another task keeps the page, and the write. A page only
 * read, clean at that point, is reclaimed by the same preemption.
 */
static void write_dirties_its_page_before_the_reschedule(void **state)
{
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct by_hand h;
		struct owned_pages *o = &h.o;
		struct sim *s = by_hand_init(&h, kernels[k], 2);
		struct cma_page *page;
		bool dirtied;

		s->preempt = reclaim_all;
		assert_int_equal(owned_touch(o, 1), 1);
		if (owned_page(o, 1))
			fail_msg("%s: expected the page only read to be reclaimed at the reschedule", kernels[k]);
		assert_int_equal(owned_write(o, 0, false, &dirtied), 1);
		page = owned_page(o, 0);
		if (!dirtied || !page || !page_test(page, PG_dirty))
			fail_msg("%s: expected the written page resident and dirty after the reschedule; "
				 "dirtied %d, %s", kernels[k], dirtied, page ? "clean" : "reclaimed");
		s->preempt = NULL;
		by_hand_destroy(&h);
	}
}

/*
 * Expect (6.12's buffer_migrate_folio_norefs; 3.x's fallback_migrate_page,
 * whose try_to_release_page fails on buffers the journal holds): a
 * metadata page with its buffers held stays at its pfn through
 * alloc_contig_range, which fails with -EBUSY, and through reclaim; let
 * go, the same dirty page migrates.
 */
static void held_page_neither_migrates_nor_reclaims(void **state)
{
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct by_hand h;
		struct owned_pages *o = &h.o;
		struct sim *s = by_hand_init(&h, kernels[k], 1);
		struct cma_page *page;
		unsigned long pfn;
		bool dirtied;

		assert_int_equal(owned_write(o, 0, true, &dirtied), 1);
		assert_true(dirtied);
		lru_add_drain_all(s->mm);
		page = owned_page(o, 0);
		pfn = cma_page_to_pfn(s->mm, page);
		if (cma_alloc_contig_range(s->mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE) != -EBUSY ||
		    owned_page(o, 0) != page)
			fail_msg("%s: expected -EBUSY and the held page left at pfn %#lx", kernels[k], pfn);
		for (int i = 0; i < 8; i++)
			cma_try_to_free_pages(s->mm, 32, CMA_GFP_KERNEL);
		if (owned_page(o, 0) != page || !page_test(page, PG_dirty))
			fail_msg("%s: expected reclaim to keep the held page, dirty", kernels[k]);
		owned_unhold(o, 0);
		assert_int_equal(cma_alloc_contig_range(s->mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
		if (!owned_page(o, 0) || owned_page(o, 0) == page)
			fail_msg("%s: expected the page let go to migrate out of pfn %#lx", kernels[k], pfn);
		assert_verify(s->mm);
		cma_free_contig_range(s->mm, pfn, 1);
		by_hand_destroy(&h);
	}
}

static bool normal_above_high(struct cma_mm *mm)
{
	struct zone *zone = &mm->zones[ZONE_NORMAL];

	return zone_watermark_ok(zone, 0, __atomic_load_n(&zone->watermark[WMARK_HIGH], __ATOMIC_RELAXED),
				 0, 0);
}

/*
 * Expect (kswapd's pageout at DEF_PRIORITY - 3 and below; the journal's
 * buffers are not the page's to write): memory filled with held dirty
 * metadata pages, kswapd writes none of them and frees none; let go, the
 * same pages are written back.
 */
static void kswapd_writes_no_held_page(void **state)
{
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct by_hand h;
		struct owned_pages *o = &h.o;
		struct sim *s = by_hand_init(&h, kernels[k], 1u << 16);
		uint64_t n = 0;
		bool dirtied;

		while (normal_above_high(s->mm) || (cma_drain_all_pages(s->mm), normal_above_high(s->mm))) {
			if (n == o->nr)
				fail_msg("%s: %" PRIu64 " pages faulted, Normal still above its high mark",
					 kernels[k], n);
			assert_int_equal(owned_write(o, n++, true, &dirtied), 1);
		}
		lru_add_drain_all(s->mm);
		for (int i = 0; i < 4; i++)
			cma_kswapd_step(s->mm);
		if (test_counter(s->mm, "nr_vmscan_write") || o->resident != n)
			fail_msg("%s: expected kswapd to write and free none of %" PRIu64 " held pages; "
				 "it wrote %" PRIu64 ", %" PRIu64 " left", kernels[k], n,
				 test_counter(s->mm, "nr_vmscan_write"), o->resident);
		for (uint64_t i = 0; i < n; i++)
			owned_unhold(o, i);
		/* a page freed clears 3.x's all_unreclaimable (6.12's kswapd_failures) */
		cma_free_pages(s->mm, cma_alloc_pages(s->mm, CMA_GFP_KERNEL, 0), 0);
		cma_drain_all_pages(s->mm);
		for (int i = 0; i < 4 && !test_counter(s->mm, "nr_vmscan_write"); i++)
			cma_kswapd_step(s->mm);
		if (!test_counter(s->mm, "nr_vmscan_write"))
			fail_msg("%s: expected kswapd to write the pages let go", kernels[k]);
		assert_verify(s->mm);
		by_hand_destroy(&h);
	}
}

struct traced {
	unsigned busy;		/* cma_alloc_busy_retry */
	unsigned failed;	/* mm_migrate_pages with a page that did not move */
	uint64_t successes;	/* the camera's */
};

/*
 * A 256 MiB board, its 64 MiB area and 165 MiB of anonymous memory: the
 * writer's pages (and its metadata) come to lie in the area under 3.5
 * (the movable lists run out) and 6.12 (free CMA over half the free
 * memory). A camera asks for 8 MiB buffers from @camera_at.
 */
static void run_board(const char *kernel, const char *journal, const char *camera_at,
		      const char *duration, struct traced *t)
{
	char ini[1024], line[512];
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_options o = { .policy = sim_policy_find("cma"), .trace = tmpfile() };
	struct sim_result r;
	char err[768];

	assert_non_null(sc);
	assert_non_null(o.trace);
	snprintf(ini, sizeof(ini),
		 /* the camera's migrations only: no proactive compaction (5.9) */
		 "[scenario]\nplatform = arm\nmemory = 256M\n"
		 "cmdline = cma=64M sysctl.vm.compaction_proactiveness=0\nkernel = %s\n"
		 "duration = %s\nseed = 1\n"
		 "[anon fill]\nrss = 165M\nrate = 200000\nhold = yes\n"
		 "[writer objects]\nfile = 32M\nrate = 20000\npattern = sequential\n%sstart = 1s\n"
		 "[device cam]\nsize = 8M\nring = 7\nperiod = 1s\nstart = %s\n",
		 kernel, duration, journal, camera_at);
	if (scenario_parse("test.ini", ini, sc, err, sizeof(err)))
		fail_msg("the test's scenario does not parse: %s", err);
	assert_int_equal(sim_run(sc, &o, &r), 0);
	*t = (struct traced){ .successes = sim_test_device(&r, "cam")->successes };
	rewind(o.trace);
	while (fgets(line, sizeof(line), o.trace)) {
		t->busy += strstr(line, " cma_alloc_busy_retry: ") != NULL;
		t->failed += strstr(line, " mm_migrate_pages: ") && !strstr(line, " nr_failed=0 ");
	}
	fclose(o.trace);
	/* the report's count is the trace's */
	if (sim_test_device(&r, "cam")->busy_retries != t->busy)
		fail_msg("%s: the camera's busy_retries %" PRIu64 ", the trace's %u", kernel,
			 sim_test_device(&r, "cam")->busy_retries, t->busy);
	sim_result_free(&r);
	free(sc);
}

/*
 * Expect: with no journal the camera's requests find nothing busy; with
 * 12 metadata pages held, cma_alloc meets their ranges busy and retries
 * further, each busy range's batch failing alloc_contig_range's five
 * migration passes (__alloc_contig_migrate_range's tries).
 */
static void held_metadata_makes_cma_alloc_retry(void **state)
{
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct traced none, held;

		run_board(kernels[k], "", "3s", "4s", &none);
		run_board(kernels[k], "journal = 12\n", "3s", "4s", &held);
		if (none.busy || none.failed)
			fail_msg("%s: expected no busy range without a journal, found %u busy retries",
				 kernels[k], none.busy);
		if (!held.busy || held.failed != 5 * held.busy)
			fail_msg("%s: expected busy retries with 12 held pages, each range failing "
				 "5 passes; found %u busy retries, %u failed passes",
				 kernels[k], held.busy, held.failed);
	}
}

/*
 * Expect (kernel.blkdev_migrate_norefs, 5.0): a writer done with its one
 * pass by 6 s dirties its metadata no more. Before 5.0 the journal's
 * commit at 6 s let the buffers go (fallback_migrate_page writes the
 * pages out and frees them): the camera at 7 s finds nothing busy and is
 * served every request. From 5.0 the journal's checkpointed heads hold
 * them until the block device's writeback at 31 s: its ranges are busy.
 */
static void committed_metadata_migrates_before_5_0(void **state)
{
	static const char *const eras[] = { "3.5", "4.20", "5.0", "6.12" };

	for (size_t k = 0; k < sizeof(eras) / sizeof(eras[0]); k++) {
		bool norefs = cma_kernel_has(eras[k], "blkdev_migrate_norefs") == 1;
		struct traced t;

		run_board(eras[k], "journal = 12\npasses = 1\n", "7s", "8s", &t);
		if (norefs && !t.busy)
			fail_msg("%s: expected the pages held until the writeback at 31 s", eras[k]);
		if (!norefs && (t.busy || t.successes != 7))
			fail_msg("%s: expected the pages let go at the 6 s commit, all 7 requests "
				 "served; found %u busy retries, %" PRIu64 " served", eras[k], t.busy,
				 t.successes);
	}
}

/*
 * Expect (from 5.0): the block device's dirty metadata is written back
 * and let go every dirty_expire: with dirty_expire = 2 s the pages of a
 * writer done with its pass are let go by the camera's 6 s, and every
 * request is served.
 */
static void written_back_metadata_lets_cma_alloc_through(void **state)
{
	struct traced t;

	run_board("6.12", "journal = 12\npasses = 1\ndirty_expire = 2s\n", "6s", "7s", &t);
	if (t.busy || t.successes != 7)
		fail_msg("6.12: expected the pages written back to let all 7 requests through, "
			 "found %u busy retries, %" PRIu64 " served", t.busy, t.successes);
}

/*
 * Expect: a writer still writing holds each page again as it begins the
 * next file of its directory: let go (3.5's commit at 6 s; 6.12's
 * writeback every 2.5 s, the last at 6 s), its pages are held again by
 * the camera's 7 s, and its ranges busy, as at the first pass.
 */
static void metadata_held_again_at_the_next_file(void **state)
{
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		struct traced again;

		run_board(kernels[k], "journal = 12\ndirty_expire = 2500ms\n", "7s", "8s", &again);
		if (!again.busy)
			fail_msg("%s: expected the pages held again by the writer's next files", kernels[k]);
	}
}

/*
 * Expect (3.x's grow_dev_page and 6.12's bdev mapping ask GFP_USER, no
 * __GFP_HIGHMEM, without __GFP_FS): on the 800 MiB ARM board, whose
 * HighMem zone starts at pfn 0x70000 (0x70000000), the writer's data
 * pages fill HighMem first and its metadata pages come from Normal.
 */
static void metadata_pages_stay_out_of_highmem(void **state)
{
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		char ini[512], line[512];
		struct scenario *sc = calloc(1, sizeof(*sc));
		struct sim_options o = { .policy = sim_policy_find("cma"), .trace = tmpfile() };
		unsigned long highmem = 0x70000, meta = 0, meta_high = 0, data_high = 0;
		struct sim_result r;
		char err[768];

		assert_non_null(sc);
		assert_non_null(o.trace);
		snprintf(ini, sizeof(ini),
			 "[scenario]\nplatform = arm\nmemory = 800M\nkernel = %s\nduration = 1s\nseed = 1\n"
			 "[writer objects]\nfile = 8M\nrate = 20000\npattern = sequential\njournal = 12\n",
			 kernels[k]);
		if (scenario_parse("test.ini", ini, sc, err, sizeof(err)))
			fail_msg("the test's scenario does not parse: %s", err);
		assert_int_equal(sim_run(sc, &o, &r), 0);
		rewind(o.trace);
		while (fgets(line, sizeof(line), o.trace)) {
			const char *pfn = strstr(line, " mm_page_alloc: ") ? strstr(line, " pfn=") : NULL;
			bool high = pfn && strtoul(pfn + 5, NULL, 10) >= highmem;

			if (!pfn)
				continue;
			if (strstr(line, " gfp_flags=GFP_NOFS|GFP_HARDWALL|GFP_MOVABLE")) {
				meta++;
				meta_high += high;
			} else if (strstr(line, " gfp_flags=GFP_HIGHUSER_MOVABLE")) {
				data_high += high;
			}
		}
		fclose(o.trace);
		sim_result_free(&r);
		free(sc);
		if (meta != 12 || meta_high || !data_high)
			fail_msg("%s: expected the 12 metadata pages in Normal beside data pages in HighMem; "
				 "found %lu metadata pages, %lu of them in HighMem, %lu data pages there",
				 kernels[k], meta, meta_high, data_high);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(write_dirties_its_page_before_the_reschedule),
		cmocka_unit_test(held_page_neither_migrates_nor_reclaims),
		cmocka_unit_test(kswapd_writes_no_held_page),
		cmocka_unit_test(held_metadata_makes_cma_alloc_retry),
		cmocka_unit_test(committed_metadata_migrates_before_5_0),
		cmocka_unit_test(written_back_metadata_lets_cma_alloc_through),
		cmocka_unit_test(metadata_held_again_at_the_next_file),
		cmocka_unit_test(metadata_pages_stay_out_of_highmem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
