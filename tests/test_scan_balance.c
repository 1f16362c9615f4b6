// SPDX-License-Identifier: GPL-2.0
/*
 * How much of each LRU list a reclaim pass scans (src/mm/scan_balance.c,
 * the kernel's get_scan_count) under each release: v3.5's swappiness and
 * rotation fractions and its tiny-file rule; 3.8's plenty of inactive
 * file (kernel.scan_plenty_file); 5.8's cost model, cache_trim_mode and
 * file_is_tiny (kernel.lru_cost_balance) and its pgscan_anon/file
 * counters (kernel.vmstat_lru_type); 6.2's rotations in the cost
 * (kernel.lru_cost_rotations); vm.swappiness from the command line
 * (kernel.sysctl_cmdline, 5.8). The tests read the counts of a zone set
 * up by hand, each expected from the kernel's formula, and each under
 * releases on both sides of the switch it covers (test_kernel_since, not
 * the library's table).
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"
#include "mm/mm_inline.h"

#define GFP_USER_PAGE	(CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN)

/* A machine with swap (or none), @nr_anon anonymous and @nr_file file pages on the LRU. */
struct lru_machine {
	struct cma_mm *mm;
	struct fake_owner *anon, *file;
	struct zone *zone;
};

static void lru_machine_up(struct lru_machine *m, const char *kernel, bool swap,
			   uint64_t nr_anon, uint64_t nr_file)
{
	m->mm = test_mm(.size = 128 * MiB, .swap = swap ? 64 * MiB : 0, .kernel = kernel,
			.metadata_only = true);
	m->anon = owner_create(m->mm, true, nr_anon);
	m->file = owner_create(m->mm, false, nr_file);
	owner_fault_range(m->anon, 0, nr_anon, GFP_USER_PAGE);
	owner_fault_range(m->file, 0, nr_file, GFP_USER_PAGE);
	lru_add_drain_all(m->mm);
	m->zone = page_zone(m->mm, (nr_file ? m->file : m->anon)->slots[0].page);
}

static void lru_machine_down(struct lru_machine *m)
{
	owner_destroy(m->anon);
	owner_destroy(m->file);
	cma_mm_destroy(m->mm);
}

/* Every page of @o onto its kind's @active or inactive list. */
static void set_lists(struct lru_machine *m, struct fake_owner *o, bool active)
{
	for (uint64_t i = 0; i < o->nr_slots; i++) {
		struct cma_page *page = o->slots[i].page;

		spin_lock(&m->zone->lru_lock);
		del_page_from_lru_list(m->zone, page, page_lru(page));
		if (active)
			page_flags_set(page, PG_active);
		else
			page_flags_clear(page, PG_active);
		add_page_to_lru_list(m->zone, page, page_lru(page));
		spin_unlock(&m->zone->lru_lock);
	}
}

static unsigned long lru_size(struct lru_machine *m, enum lru_list lru)
{
	return zone_page_state(m->zone, NR_INACTIVE_ANON + lru);
}

static const char *const v35_side[] = { "3.5", "3.7", NULL };

/*
 * Expect (v3.5): with swap room each list is scanned its size >>
 * priority times its kind's fraction over their sum plus 1: with no
 * history (60 + 1) for anon and (140 + 1) for file; each times the
 * pages of its kind recently scanned over those found referenced and
 * kept (recent_scanned + 1, recent_rotated + 1): 100 anon pages scanned
 * and none kept raise anon's to 61 * 101, all 100 kept bring it back
 * to 61. Scanning both kinds alike by size is what a missing balance
 * gives.
 */
static void v35_fractions_follow_rotations(void **state)
{
	static const struct {
		unsigned long scanned, rotated;
		uint64_t ap;
	} steps[] = { { 0, 0, 61 }, { 100, 0, 61 * 101 }, { 0, 100, 61 } };

	for_each_kernel(k, v35_side) {
		struct lru_machine m;
		unsigned long nr[NR_LRU_LISTS];
		const uint64_t fp = 141;
		int prio = 4;

		lru_machine_up(&m, *k, true, 4096, 4096);
		set_lists(&m, m.file, true);	/* inactive file low: no 3.8 rule */
		for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
			uint64_t ap = steps[i].ap;

			lru_note_scan(m.zone, false, steps[i].scanned, steps[i].rotated);
			get_scan_count(m.zone, prio, false, nr);
			expect_kernel(*k, "anon inactive",
				      (long)((lru_size(&m, LRU_INACTIVE_ANON) >> prio) * ap / (ap + fp + 1)),
				      (long)nr[LRU_INACTIVE_ANON]);
			expect_kernel(*k, "file active",
				      (long)((lru_size(&m, LRU_ACTIVE_FILE) >> prio) * fp / (ap + fp + 1)),
				      (long)nr[LRU_ACTIVE_FILE]);
		}
		lru_machine_down(&m);
	}
}

/*
 * Expect: a zone with swap room whose inactive file list is not low
 * (all 4096 file pages inactive) and holds pages at the priority has
 * only its file lists scanned from 3.8; 3.7 scans anon by fraction.
 */
static void plenty_inactive_file_spares_anon(void **state)
{
	static const char *const kernels[] = { "3.7", "3.8", "5.7", NULL };

	for_each_kernel(k, kernels) {
		struct lru_machine m;
		unsigned long nr[NR_LRU_LISTS];

		lru_machine_up(&m, *k, true, 4096, 4096);
		set_lists(&m, m.file, false);
		get_scan_count(m.zone, 6, false, nr);
		expect_kernel(*k, "anon scanned", !test_kernel_since(*k, 3, 8),
			      nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON] > 0);
		expect_kernel(*k, "file scanned", 1, nr[LRU_INACTIVE_FILE] > 0);
		lru_machine_down(&m);
	}
}

/*
 * Expect: no swap room, only file is scanned, whole at priority 0; with
 * swap at priority 0, both kinds whole (v3.5's unfractioned last pass,
 * 5.8's SCAN_EQUAL), whatever the history says.
 */
static void priority_zero_and_no_swap(void **state)
{
	static const char *const kernels[] = { "3.5", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct lru_machine m;
		unsigned long nr[NR_LRU_LISTS];

		lru_machine_up(&m, *k, false, 1024, 1024);
		get_scan_count(m.zone, 0, false, nr);
		expect_kernel(*k, "no swap: anon", 0, (long)(nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON]));
		expect_kernel(*k, "no swap: file whole", (long)lru_size(&m, LRU_INACTIVE_FILE),
			      (long)nr[LRU_INACTIVE_FILE]);
		lru_machine_down(&m);

		lru_machine_up(&m, *k, true, 1024, 1024);
		lru_note_cost(m.zone, false, 200, 0);
		lru_note_scan(m.zone, false, 0, 1000);
		get_scan_count(m.zone, 0, false, nr);
		expect_kernel(*k, "priority 0: anon whole",
			      (long)(lru_size(&m, LRU_INACTIVE_ANON) + lru_size(&m, LRU_ACTIVE_ANON)),
			      (long)(nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON]));
		expect_kernel(*k, "priority 0: file whole", (long)lru_size(&m, LRU_INACTIVE_FILE),
			      (long)nr[LRU_INACTIVE_FILE]);
		lru_machine_down(&m);
	}
}

/*
 * Expect: the high mark raised above the zone's file and free pages
 * makes reclaim scan anon only: v3.5's check, and 5.8's file_is_tiny,
 * which also wants anon's inactive list not low and not empty at the
 * priority (all anon inactive here).
 */
static void tiny_file_scans_anon_only(void **state)
{
	static const char *const kernels[] = { "3.5", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct lru_machine m;
		unsigned long nr[NR_LRU_LISTS], high;

		lru_machine_up(&m, *k, true, 4096, 64);
		set_lists(&m, m.anon, false);
		spin_lock(&m.zone->lock);
		high = m.zone->watermark[WMARK_HIGH];
		m.zone->watermark[WMARK_HIGH] = m.zone->managed_pages;
		spin_unlock(&m.zone->lock);
		get_scan_count(m.zone, 4, false, nr);
		expect_kernel(*k, "file", 0, (long)(nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE]));
		expect_kernel(*k, "anon inactive", (long)(lru_size(&m, LRU_INACTIVE_ANON) >> 4),
			      (long)nr[LRU_INACTIVE_ANON]);
		spin_lock(&m.zone->lock);
		m.zone->watermark[WMARK_HIGH] = high;
		spin_unlock(&m.zone->lock);
		lru_machine_down(&m);
	}
}

/*
 * Expect (5.8's SCAN_FRACT, the inactive file list low so no cache
 * trimming): with costs a (anon) and f (file), total t = a + f, anon's
 * fraction 60 * (2t + a + f + 1) / (t + a + 1) and file's 140 * (...) /
 * (t + f + 1), over their sum; 5.7 uses v3.5's fractions instead.
 */
static void cost_fractions(void **state)
{
	static const char *const kernels[] = { "5.7", "5.8", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct lru_machine m;
		unsigned long nr[NR_LRU_LISTS];
		uint64_t a = 0, f = 0, t, anon_cost, file_cost, ap, fp;
		int prio = 4;

		lru_machine_up(&m, *k, true, 4096, 4096);
		set_lists(&m, m.file, true);
		lru_note_cost(m.zone, false, 10, 0);
		get_scan_count(m.zone, prio, false, nr);
		if (test_kernel_since(*k, 5, 8)) {
			a = test_kernel_since(*k, 6, 2) ? 10 * 32 : 10;
			t = a + f;
			anon_cost = t + a;
			file_cost = t + f;
			t = anon_cost + file_cost;
			ap = 60 * (t + 1) / (anon_cost + 1);
			fp = 140 * (t + 1) / (file_cost + 1);
			expect_kernel(*k, "anon by cost",
				      (long)((lru_size(&m, LRU_INACTIVE_ANON) >> prio) * ap / (ap + fp)),
				      (long)nr[LRU_INACTIVE_ANON]);
		} else {
			expect_kernel(*k, "anon by v3.5's fraction",
				      (long)((lru_size(&m, LRU_INACTIVE_ANON) >> prio) * 61 / 203),
				      (long)nr[LRU_INACTIVE_ANON]);
		}
		expect_kernel(*k, "cost kept", test_kernel_since(*k, 5, 8) ? (long)a : 0,
			      (long)m.zone->lru_cost[0]);
		lru_machine_down(&m);
	}
}

/*
 * Expect: 5.8 counts a write or refault as one page of cost and a
 * rotation as none; 6.2 weighs IO SWAP_CLUSTER_MAX and counts each page
 * kept. The costs halve once they pass a quarter of the LRU pages.
 */
static void cost_of_io_and_rotations(void **state)
{
	static const char *const kernels[] = { "6.1", "6.2", NULL };

	for_each_kernel(k, kernels) {
		struct lru_machine m;
		bool rot = test_kernel_since(*k, 6, 2);

		lru_machine_up(&m, *k, true, 512, 512);
		lru_note_cost(m.zone, true, 2, 0);
		expect_kernel(*k, "2 pages written", rot ? 64 : 2, (long)m.zone->lru_cost[1]);
		lru_note_cost(m.zone, true, 0, 50);
		expect_kernel(*k, "50 kept", rot ? 114 : 2, (long)m.zone->lru_cost[1]);
		/* the LRU's 1024 pages: 6.2's 114 + 9600 and 6.1's 2 + 300 pass 256, and halve */
		lru_note_cost(m.zone, false, 300, 0);
		expect_kernel(*k, "anon halved", rot ? 9600 / 2 : 300 / 2, (long)m.zone->lru_cost[0]);
		expect_kernel(*k, "file halved", rot ? 114 / 2 : 2 / 2, (long)m.zone->lru_cost[1]);
		lru_machine_down(&m);
	}
}

/*
 * Expect (5.8's cache_trim_mode): a plentiful inactive file list that
 * is not low has reclaim scan file only, even with anon cheaper.
 */
static void cache_trim_mode_spares_anon(void **state)
{
	static const char *const kernels[] = { "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct lru_machine m;
		unsigned long nr[NR_LRU_LISTS];

		lru_machine_up(&m, *k, true, 4096, 4096);
		set_lists(&m, m.file, false);
		lru_note_cost(m.zone, true, 100, 0);
		get_scan_count(m.zone, 6, false, nr);
		expect_kernel(*k, "anon", 0, (long)(nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON]));
		expect_kernel(*k, "file inactive", (long)(lru_size(&m, LRU_INACTIVE_FILE) >> 6),
			      (long)nr[LRU_INACTIVE_FILE]);
		lru_machine_down(&m);
	}
}

/*
 * Expect: reclaim keeps the history get_scan_count balances on. v3.5
 * (3.5, 5.7): the anon pages shrink_active_list finds young count as
 * rotated beside the pages scanned, and no cost. From 5.8, no such
 * history: the cost of anon is its pages swapped out, one each; from
 * 6.2 SWAP_CLUSTER_MAX each plus the anon pages scanned and kept
 * (pgscan_anon less pgsteal_anon). 8192 anonymous pages on the LRU keep
 * the costs below a quarter of it, so nothing halves them.
 */
static void reclaim_notes_rotations_and_cost(void **state)
{
	static const char *const kernels[] = { "3.5", "5.7", "5.8", "6.1", "6.2", "6.12", NULL };

	for_each_kernel(k, kernels) {
		bool cost = test_kernel_since(*k, 5, 8), rot = test_kernel_since(*k, 6, 2);
		struct lru_machine m;
		uint64_t out;

		lru_machine_up(&m, *k, true, 8192, 0);
		set_lists(&m, m.anon, true);
		/* the process touches half its pages: young for shrink_active_list */
		for (uint64_t i = 0; i < 8192; i += 2)
			cma_page_mkyoung(m.mm, m.anon->slots[i].page);
		expect_kernel(*k, "reclaimed", 1, cma_try_to_free_pages(m.mm, 32, CMA_GFP_KERNEL) > 0);
		out = test_counter(m.mm, "pswpout");
		expect_kernel(*k, "swapped", 1, out > 0);
		expect_kernel(*k, "v3.5's rotations", !cost, m.zone->recent_rotated[0] > 0);
		expect_kernel(*k, "rotated of the scanned", 1,
			      m.zone->recent_rotated[0] <= m.zone->recent_scanned[0]);
		if (rot)
			expect_kernel(*k, "anon cost: IO and kept pages",
				      (long)(out * 32 + test_counter(m.mm, "pgscan_anon") -
					     test_counter(m.mm, "pgsteal_anon")),
				      (long)m.zone->lru_cost[0]);
		else
			expect_kernel(*k, "anon cost: pages written", cost ? (long)out : 0,
				      (long)m.zone->lru_cost[0]);
		expect_kernel(*k, "file cost", 0, (long)m.zone->lru_cost[1]);
		lru_machine_down(&m);
	}
}

/*
 * Expect: from 5.8 a refault that activates a file page adds its read
 * to file's cost (one page; SWAP_CLUSTER_MAX from 6.2); 5.7 notes none.
 * The shadow is taken with the active file list not empty, so the
 * distance (0: nothing evicted or activated since) fits in it; 512 file
 * pages keep the cost below a quarter of the LRU, so it does not halve.
 */
static void refault_costs_its_kind(void **state)
{
	static const char *const kernels[] = { "5.7", "5.8", "6.12", NULL };

	for_each_kernel(k, kernels) {
		struct lru_machine m;
		struct cma_page *page;
		uint64_t shadow;

		lru_machine_up(&m, *k, false, 0, 512);
		set_lists(&m, m.file, true);
		/* the page evicted: its shadow, the clock's tick (workingset_eviction), its slot empty */
		shadow = cma_workingset_eviction(m.mm, m.file->slots[0].page);
		workingset_eviction(m.zone);
		owner_release(m.file, 0);
		page = owner_fault(m.file, 0, GFP_USER_PAGE, 7);
		expect_kernel(*k, "activated", 1, cma_workingset_refault(m.mm, page, shadow));
		expect_kernel(*k, "file cost",
			      !test_kernel_since(*k, 5, 8) ? 0 : test_kernel_since(*k, 6, 2) ? 32 : 1,
			      (long)page_zone(m.mm, page)->lru_cost[1]);
		lru_machine_down(&m);
	}
}

/*
 * Expect: from 5.8 reclaim counts what it scanned and freed of each LRU
 * type (pgscan_anon + pgscan_file = pgscan_kswapd + pgscan_direct, the
 * same of pgsteal), and 6.12's /proc/vmstat prints them; 5.7 counts
 * none. The v3.5 history counts the pass (recent_scanned) until 5.8.
 */
static void scanned_and_freed_by_type(void **state)
{
	static const char *const kernels[] = { "5.7", "5.8", "6.12", NULL };
	static const char *const zones[] = { "dma", "dma32", "normal", "high", "movable" };

	for_each_kernel(k, kernels) {
		struct lru_machine m;
		bool typed = test_kernel_since(*k, 5, 8);
		uint64_t scan = 0, steal = 0;
		char *vmstat;

		lru_machine_up(&m, *k, true, 2048, 2048);
		expect_kernel(*k, "reclaimed", 1, cma_try_to_free_pages(m.mm, 256, CMA_GFP_KERNEL) > 0);
		for (size_t z = 0; z < 5; z++) {
			char name[40];

			snprintf(name, sizeof(name), "pgscan_direct_%s", zones[z]);
			scan += test_counter(m.mm, name);
			snprintf(name, sizeof(name), "pgsteal_direct_%s", zones[z]);
			steal += test_counter(m.mm, name);
		}
		expect_kernel(*k, "pgscan by type",
			      typed ? (long)scan : 0,
			      (long)(test_counter(m.mm, "pgscan_anon") + test_counter(m.mm, "pgscan_file")));
		expect_kernel(*k, "pgsteal by type",
			      typed ? (long)steal : 0,
			      (long)(test_counter(m.mm, "pgsteal_anon") + test_counter(m.mm, "pgsteal_file")));
		expect_kernel(*k, "v3.5's history", !typed,
			      m.zone->recent_scanned[0] + m.zone->recent_scanned[1] > 0);
		vmstat = test_proc_read(m.mm, "vmstat");
		expect_kernel(*k, "vmstat prints pgscan_anon", !strcmp(*k, "6.12"),
			      strstr(vmstat, "\npgscan_anon ") != NULL);
		free(vmstat);
		test_verify_kernel(m.mm, *k, "after reclaim");
		lru_machine_down(&m);
	}
}

/*
 * Expect (the sysctl boot parameters, 5.8, and swappiness's 5.8 range,
 * 0 to 200): sysctl.vm.swappiness=N and its sysctl/vm/ spelling set it;
 * a value out of range or not a number is refused with the kernel's
 * message and 60 stays; 5.7's command line cannot set it. At 100, with
 * no cost yet, anon and file weigh the same: each list half its size
 * >> priority; at 200 file is not scanned, at 0 anon is not.
 */
static void swappiness_from_the_command_line(void **state)
{
	static const struct {
		const char *cmdline;
		unsigned value;
		const char *refused;
	} cases[] = {
		{ "cma=0 sysctl.vm.swappiness=100", 100, NULL },
		{ "cma=0 sysctl/vm/swappiness=200", 200, NULL },
		{ "cma=0 sysctl.vm.swappiness=0", 0, NULL },
		{ "cma=0 sysctl.vm.swappiness=201", 60, "201" },
		{ "cma=0 sysctl.vm.swappiness=6o", 60, "6o" },
	};
	static const char *const kernels[] = { "5.7", "5.8", "6.12", NULL };

	for_each_kernel(k, kernels) {
		bool settable = test_kernel_since(*k, 5, 8);

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct cma_mm *mm = test_mm(.kernel = *k, .cmdline = cases[i].cmdline);
			char *log = test_dmesg(mm), want[96];

			snprintf(want, sizeof(want), "Failed to set sysctl parameter 'vm.swappiness=%s': invalid value",
				 cases[i].refused ? cases[i].refused : "");
			expect_kernel(*k, cases[i].cmdline, settable ? (long)cases[i].value : 60,
				      (long)mm->vm_swappiness);
			expect_kernel(*k, "refusal said", settable && cases[i].refused,
				      strstr(log, want) != NULL);
			free(log);
			cma_mm_destroy(mm);
		}
	}
}

/* Expect: the weights vm.swappiness gives anon and file (6.12, no cost recorded). */
static void swappiness_weighs_the_kinds(void **state)
{
	static const struct {
		unsigned swappiness;
		uint64_t ap, fp;
	} cases[] = { { 100, 100, 100 }, { 200, 200, 0 }, { 0, 0, 200 }, { 60, 60, 140 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lru_machine m;
		unsigned long nr[NR_LRU_LISTS];
		int prio = 4;

		lru_machine_up(&m, "6.12", true, 4096, 4096);
		set_lists(&m, m.file, true);
		m.mm->vm_swappiness = cases[i].swappiness;
		get_scan_count(m.zone, prio, false, nr);
		expect_kernel("6.12", "anon inactive",
			      (long)((lru_size(&m, LRU_INACTIVE_ANON) >> prio) * cases[i].ap / 200),
			      (long)nr[LRU_INACTIVE_ANON]);
		expect_kernel("6.12", "file active",
			      (long)((lru_size(&m, LRU_ACTIVE_FILE) >> prio) * cases[i].fp / 200),
			      (long)nr[LRU_ACTIVE_FILE]);
		lru_machine_down(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v35_fractions_follow_rotations),
		cmocka_unit_test(plenty_inactive_file_spares_anon),
		cmocka_unit_test(priority_zero_and_no_swap),
		cmocka_unit_test(tiny_file_scans_anon_only),
		cmocka_unit_test(cost_fractions),
		cmocka_unit_test(cost_of_io_and_rotations),
		cmocka_unit_test(cache_trim_mode_spares_anon),
		cmocka_unit_test(scanned_and_freed_by_type),
		cmocka_unit_test(reclaim_notes_rotations_and_cost),
		cmocka_unit_test(refault_costs_its_kind),
		cmocka_unit_test(swappiness_from_the_command_line),
		cmocka_unit_test(swappiness_weighs_the_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
