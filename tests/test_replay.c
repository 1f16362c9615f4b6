// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim replay's reader: the QEMU oracle's guest traces (Debian's 6.12
 * under TCG, bench/oracle/results/) read back as the requests the kernel
 * served, 6.12's shifted mm_alloc_contig_migrate_range_info, trace-cmd
 * report's lines, a cmasim run's own trace, and each kind of bad input
 * stopped at its line with what is accepted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "board/platform.h"
#include "helpers.h"
#include "import/import.h"
#include "replay/replay.h"
#include "scenario/scenario.h"
#include "workloads/pfns.h"

static struct replay_trace t;
static char err[REPLAY_ERR_MAX];

static int reset(void **state)
{
	replay_trace_free(&t);
	memset(&t, 0, sizeof(t));
	err[0] = 0;
	return 0;
}

/* @text read and paired: 0 or the reader's error */
static int read_text(const char *text)
{
	int ret = replay_read_text("t.txt", text, strlen(text), &t, err, sizeof(err));

	return ret ? ret : replay_requests(&t, err, sizeof(err));
}

/* The trace of experiment @exp in the oracle's results directory @dir (results, results-state) */
static void read_oracle_in(const char *dir, const char *exp)
{
	char path[256];

	snprintf(path, sizeof(path), "bench/oracle/%s/%s/trace.txt", dir, exp);
	assert_int_equal(replay_read_file(path, &t, err, sizeof(err)), 0);
	assert_int_equal(replay_requests(&t, err, sizeof(err)), 0);
}

static void read_oracle(const char *exp)
{
	read_oracle_in("results", exp);
}

/*
 * Expect the guest's one 1 GiB page: hugetlb0 at 0x80000, order 18, got
 * after 384.206 ms with 43472 pages migrated (compare.txt's kernel figure,
 * from its vmstat).
 */
static void oracle_anon_1g_one_gigantic_page(void **state)
{
	read_oracle("arm64-anon-1g");
	assert_int_equal(t.nr_req, 1);
	assert_string_equal(t.req[0].area, "hugetlb0");
	assert_int_equal(t.req[0].count, 262144);
	assert_int_equal(t.req[0].align, 18);
	assert_int_equal(t.req[0].pfn, 0x80000);
	assert_int_equal(t.req[0].errorno, 0);
	assert_true(t.req[0].has_latency);
	assert_int_equal(t.req[0].latency_ns, 384206000);
	assert_true(t.req[0].has_migrated);
	assert_int_equal(t.req[0].migrated, 43472);
	assert_false(t.req[0].released);
}

/* Expect 40 32 MiB pages asked one at a time: 32 fill the 1 GiB area in order, the 8 after find it full
 * (-ENOMEM: no free range in the area's bitmap) within microseconds. */
static void oracle_fill_32m_fills_the_area_then_fails(void **state)
{
	unsigned ok = 0;

	read_oracle("arm64-fill-32m");
	assert_int_equal(t.nr_req, 40);
	for (size_t i = 0; i < t.nr_req; i++) {
		if (t.req[i].errorno) {
			assert_int_equal(t.req[i].errorno, -ENOMEM);
			assert_true(t.req[i].latency_ns < 10000);
			continue;
		}
		assert_int_equal(t.req[i].pfn, 0x80000 + ok * 8192);
		ok++;
	}
	assert_int_equal(ok, 32);
}

/* Expect 6.12's shifted fields read by meaning: the line, 56194 mapped pages migrated out of MIGRATE_CMA. */
static void contig_range_info_read_as_6_12_passes_it(void **state)
{
	assert_int_equal(read_text(
		"  app-7 [001] ..... 1.000000: cma_alloc_start: name=reserved count=65536 align=8\n"
		"  app-7 [001] ..... 1.000100: mm_alloc_contig_migrate_range_info: start=0x50000 end=0x60000 migratetype=56194 nr_migrated=4 nr_reclaimed=56194 nr_mapped=0\n"
		"  app-7 [001] ..... 1.500000: cma_alloc_finish: name=reserved pfn=0x50000 page=00000000deadbeef count=65536 align=8 errorno=0\n"), 0);
	assert_int_equal(t.nr_req, 1);
	assert_int_equal(t.req[0].migrated, 56194);
	assert_int_equal(t.req[0].reclaimed, 0);
	assert_int_equal(t.req[0].latency_ns, 500000000);
}

/*
 * Expect trace-cmd report's lines (no flags, padded fields, its header)
 * paired by task: two tasks' requests interleaved, each release matched
 * to the request at its pfn.
 */
static void trace_cmd_report_interleaved_tasks(void **state)
{
	assert_int_equal(read_text(
		"cpus=2\n"
		"CPU 1 is empty\n"
		"      camera-100   [000]     2.000000: cma_alloc_start:      name=cam count=256 align=4\n"
		"       codec-200   [001]     2.000500: cma_alloc_start:      name=cam count=512 align=4\n"
		"       codec-200   [001]     2.001000: cma_alloc_busy_retry: name=cam pfn=0x1000 page=0000000000000000 count=512 align=4\n"
		"       codec-200   [001]     2.002000: cma_alloc_finish:     name=cam pfn=0x1200 page=00000000aaaa0000 count=512 align=4 errorno=0\n"
		"      camera-100   [000]     2.004000: cma_alloc_finish:     name=cam pfn=0x1000 page=00000000bbbb0000 count=256 align=4 errorno=0\n"
		"      camera-100   [000]     3.000000: cma_release:          name=cam pfn=0x1000 page=00000000bbbb0000 count=256\n"), 0);
	assert_int_equal(t.nr_req, 2);
	assert_int_equal(t.req[0].count, 256);
	assert_int_equal(t.req[0].latency_ns, 4000000);
	assert_int_equal(t.req[0].busy_retries, 0);
	assert_true(t.req[0].released);
	assert_int_equal(t.req[0].release_ns, 3000000000ull);
	assert_int_equal(t.req[1].latency_ns, 1500000);
	assert_int_equal(t.req[1].busy_retries, 1);
	assert_false(t.req[1].released);
}

/* Expect a release printed after a finish but stamped before it (fuzz_replay's finding) to match nothing. */
static void release_before_finish_matches_nothing(void **state)
{
	assert_int_equal(read_text(
		"  a-1 [000] ..... 1.000000: cma_alloc_start: name=r count=8 align=3\n"
		"  a-1 [000] ..... 1.000002: cma_alloc_finish: name=r pfn=0x100 page=0000000000000001 count=8 align=3 errorno=0\n"
		"  b-2 [001] ..... 1.000001: cma_release: name=r pfn=0x100 page=0000000000000001 count=8\n"), 0);
	assert_int_equal(t.nr_req, 1);
	assert_false(t.req[0].released);
}

/* Expect cmasim run --trace's own latency, not finish - start (its clock stands still in a request). */
static void cmasim_trace_takes_the_runs_latency(void **state)
{
	assert_int_equal(read_text(
		"# tracer: nop\n"
		"          cmasim-1     [000] ....    10.000000: cma_alloc_start: name=reserved count=760 align=8\n"
		"          cmasim-1     [000] ....    10.000000: cma_alloc_finish: name=reserved pfn=0x6b900 page=0xffffea0001ae4000 count=760 align=8 errorno=0\n"
		"          cmasim-1     [000] ....    10.000000: cmasim_device_request: dev=camera bytes=3110400 pfn=0x6b900 latency_ns=2787777 result=ok\n"), 0);
	assert_true(t.own);
	assert_int_equal(t.nr_req, 1);
	assert_int_equal(t.req[0].latency_ns, 2787777);
}

/* Expect a finish stamped before its start (trace_pipe merging CPUs) refused at the finish's line. */
/* ---- the demand run ---- */

static const struct replay_board virt_1g = {
	.platform = "tests/dt/qemu-virt-arm64.dts",
	.cmdline = "console=ttyAMA0 panic=-1 nokaslr loglevel=1 hugetlb_cma=1G cma=64M",
};

/* @m's demand as a scenario on @b in a scratch directory, run into @pred. */
static void run_demand_on(const struct replay_trace *m, const struct replay_board *b, struct replay_trace *pred)
{
	char dir[] = "/tmp/test_replay_XXXXXX", path[64], demand[128];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/replay.ini", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(replay_scenario_write(m, b, path, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(replay_predict(path, b, pred, err, sizeof(err)), 0);
	for (size_t i = 0; i < m->nr_req; i++) {
		replay_demand_path(path, m->req[i].area, demand, sizeof(demand));
		unlink(demand);
		replay_demand_group_path(path, m, i, demand, sizeof(demand));
		unlink(demand);
	}
	replay_background_unlink(path);
	unlink(path);
	if (rmdir(dir))
		fail_msg("%s: files left behind", dir);
}

static void run_demand(const struct replay_trace *m, struct replay_trace *pred)
{
	run_demand_on(m, &virt_1g, pred);
}

/* Snapshot @dir as cmasim replay takes it: read, its kernel memory fitted to @b's boot. */
static void read_snapshot(const char *dir, struct replay_background *bg, const struct replay_board *b)
{
	assert_int_equal(replay_background_read(dir, bg, err, sizeof(err)), 0);
	assert_int_equal(replay_background_fit(bg, b, err, sizeof(err)), 0);
}

/*
 * Guest @exp's trace in the oracle's @results directory into t, replayed
 * on virt_1g beside its snapshot (@bg) into @pred, and compared into @sum.
 */
static void replay_oracle_snapshot(const char *results, const char *exp, struct replay_background *bg,
				   struct replay_trace *pred, struct replay_summary *sum)
{
	struct replay_board b = virt_1g;
	char dir[256];

	snprintf(dir, sizeof(dir), "bench/oracle/%s/%s/snapshot", results, exp);
	read_snapshot(dir, bg, &b);
	b.background = bg;
	read_oracle_in(results, exp);
	run_demand_on(&t, &b, pred);
	assert_int_equal(replay_compare(&t, pred, sum), 0);
}

/*
 * Expect the guest's snapshot, taken as it asked for its 1 GiB page (900
 * MiB anonymous, 600 MiB of page cache read back), to make the replay
 * migrate what the kernel did
 * (85894 pages) within 10%, at the kernel's pfn.
 */
static void oracle_cache_1g_snapshot_background_migrates_as_the_kernel(void **state)
{
	static struct replay_background bg;
	struct replay_trace pred = { 0 };
	struct replay_summary sum;

	replay_oracle_snapshot("results", "arm64-cache-1g", &bg, &pred, &sum);
	assert_true(bg.file > 0);
	assert_int_equal(bg.source, RBG_SNAPSHOT);
	replay_background_describe(&bg, err, sizeof(err));
	assert_non_null(strstr(err, "from the snapshot bench/oracle/results/arm64-cache-1g/snapshot: "));
	assert_int_equal(sum.nr, 1);
	assert_int_equal(sum.pfn_agree, 1);
	assert_int_equal(sum.with_migrated, 1);
	assert_int_equal(t.req[0].migrated, 85894);
	assert_int_equal(sum.migrated_within_10, 1);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
}

/* The pages @nr runs @runs hold. */
static unsigned long run_pages(const struct replay_pfn_run *runs, size_t nr)
{
	unsigned long pages = 0;

	for (size_t i = 0; i < nr; i++)
		pages += runs[i].count;
	return pages;
}

/*
 * Expect the guest's snapshot to place its page cache where the guest had
 * it, dirty where kpageflags says dirty or writeback. Its 1 GiB page's
 * area held 9298 anonymous pages, 77808 dirty or under writeback and the
 * rest of its page cache clean: the kernel migrated 87054, the clean ones
 * dropped (reclaim_clean_pages_from_list), not moved. Left where the
 * run's allocator puts them, the same pages fill the area otherwise
 * (69216 migrated, 20% short).
 */
static void oracle_dirty_1g_snapshot_places_its_page_cache(void **state)
{
	static struct replay_background bg;
	struct replay_trace pred = { 0 };
	struct replay_summary sum;

	replay_oracle_snapshot("results", "arm64-dirty-1g", &bg, &pred, &sum);
	assert_true(bg.dirty > 0);
	assert_int_equal(run_pages(bg.file_at, bg.nr_file_at), bg.file);
	assert_int_equal(run_pages(bg.dirty_at, bg.nr_dirty_at), bg.dirty);
	assert_int_equal(sum.pfn_agree, 1);
	assert_int_equal(t.req[0].migrated, 87054);
	assert_int_equal(sum.migrated_within_10, 1);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
	replay_background_free(&bg);
}

/*
 * Expect the guest's snapshot to place its anonymous memory where the
 * guest had it. Its 256 MiB pinned long-term (FOLL_LONGTERM) were
 * migrated out of the area when pinned, before the snapshot: the area
 * held 10918 anonymous pages, and the kernel migrated 10832 of them for
 * the 1 GiB page. Left to the run's allocator, the same 1204 MiB fills
 * the area as the unpinned guest's (43158).
 */
static void oracle_longterm_1g_snapshot_places_its_anonymous_pages(void **state)
{
	static struct replay_background bg;
	struct replay_trace pred = { 0 };
	struct replay_summary sum;

	replay_oracle_snapshot("results", "arm64-longterm-1g", &bg, &pred, &sum);
	assert_int_equal(run_pages(bg.anon_at, bg.nr_anon_at), bg.anon);
	assert_int_equal(sum.pfn_agree, 1);
	assert_int_equal(t.req[0].migrated, 10832);
	assert_int_equal(sum.migrated_within_10, 1);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
	replay_background_free(&bg);
}

/*
 * Expect the guest's kernel memory besides slab (page tables, stacks,
 * pages no flag names: 52 MiB where slab is 6) held in the replay: with
 * 2003 MiB anonymous the 1 GiB request runs out of pages to migrate to
 * (-ENOMEM) after the kernel's 112924 pages; with only the slab held the
 * run has 16,000 pages more to migrate into (129558).
 */
static void oracle_anon2000_1g_kernel_memory_held(void **state)
{
	static struct replay_background bg;
	struct replay_trace pred = { 0 };
	struct replay_summary sum;

	replay_oracle_snapshot("results", "arm64-anon2000-1g", &bg, &pred, &sum);
	assert_int_equal(t.req[0].errorno, -ENOMEM);
	assert_int_equal(sum.success_agree, 1);
	assert_int_equal(t.req[0].migrated, 112924);
	assert_int_equal(sum.migrated_within_10, 1);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
	replay_background_free(&bg);
}

/* Expect --report json's summary to say what the comparison counted. */
static void expect_json_summary(const struct replay_summary *sum, int success, int pfn)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *root, *summary;

	assert_non_null(f);
	assert_int_equal(replay_print_json(sum, NULL, "t.txt", &virt_1g, f), 0);
	assert_int_equal(fclose(f), 0);
	root = json_loads(text, 0, NULL);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "schema")), "cmasim-replay/1");
	assert_string_equal(json_string_value(json_object_get(root, "background_from")), "defaults");
	assert_null(json_object_get(root, "what_if"));
	summary = json_object_get(root, "summary");
	assert_int_equal(json_integer_value(json_object_get(summary, "success_agree")), success);
	assert_int_equal(json_integer_value(json_object_get(summary, "pfn_agree")), pfn);
	assert_int_equal(json_integer_value(json_object_get(summary, "both_placed")), sum->both_placed);
	assert_int_equal(json_array_size(json_object_get(root, "requests")), sum->nr);
	json_decref(root);
	free(text);
}

/* Expect --report html to draw each request with both latencies once in the scatter and twice in the timeline. */
static void expect_html_points(const struct replay_summary *sum)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	unsigned circles = 0, svgs = 0;

	assert_non_null(f);
	assert_int_equal(replay_print_html(sum, NULL, "t.txt", &virt_1g, f), 0);
	assert_int_equal(fclose(f), 0);
	for (const char *p = text; (p = strstr(p, "<circle")); p++)
		circles++;
	for (const char *p = text; (p = strstr(p, "<svg")); p++)
		svgs++;
	assert_int_equal(svgs, 2);
	assert_int_equal(circles, 3 * sum->compared);
	assert_non_null(strstr(text, "</html>"));
	free(text);
}

/* Expect the text's summary line to begin with @line. */
static void expect_summary_line(const struct replay_summary *sum, const char *line)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	replay_print(sum, f);
	assert_int_equal(fclose(f), 0);
	if (!strstr(text, line))
		fail_msg("no \"%s\" in:\n%s", line, text);
	free(text);
}

/*
 * A gigantic page whose cma_alloc failed on a full area (-ENOMEM: no
 * free range in its bitmap, nothing tried) comes from alloc_contig_pages
 * outside it, which migrates; the trace measured cma_alloc alone, so the
 * prediction set beside it is cma_alloc's part: no copy, no unmap, and
 * its parts adding up to it (the whole request priced 31.5 ms here,
 * 8.8 ms of it copying, before the part was told apart).
 */
static void expect_failed_cma_span_alone(const struct replay_summary *sum)
{
	unsigned failed = 0;

	for (size_t i = 0; i < sum->nr; i++) {
		const struct replay_request *p = sum->pairs[i].p;

		if (!p || p->errorno != -ENOMEM)
			continue;
		failed++;
		assert_true(p->has_parts);
		assert_int_equal(p->parts.ns[COST_PART_COPY], 0);
		assert_int_equal(p->parts.ns[COST_PART_UNMAP], 0);
		assert_int_equal(cost_parts_sum(&p->parts), p->latency_ns);
	}
	assert_int_equal(failed, 8);
}

/*
 * Expect the guest's 40 32 MiB requests replayed on its board (the QEMU
 * virt device tree, hugetlb_cma=1G) to succeed and fail as the kernel's
 * did, each success at the kernel's pfn: the area fills in order, then
 * finds no room.
 */
/*
 * Each predicted request carries where its time went (the run's
 * cmasim_device_latency lines), the parts adding up to its latency; the
 * text's worst ten print them under each line.
 */
static void expect_worst_parts(const struct replay_summary *sum)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (size_t i = 0; i < sum->nr; i++)
		if (sum->pairs[i].p) {
			assert_true(sum->pairs[i].p->has_parts);
			assert_int_equal(cost_parts_sum(&sum->pairs[i].p->parts), sum->pairs[i].p->latency_ns);
		}
	assert_non_null(f);
	replay_print(sum, f);
	assert_int_equal(fclose(f), 0);
	if (!strstr(text, "\nworst ") || !strstr(strstr(text, "\nworst "), "\n       predicted ") ||
	    !strstr(strstr(text, "\nworst "), " ms = "))
		fail_msg("the worst ten without their predicted parts:\n%s", text);
	free(text);
}

static void oracle_fill_32m_replayed_success_and_pfn(void **state)
{
	struct replay_trace pred = { 0 };
	struct replay_summary sum;

	read_oracle("arm64-fill-32m");
	run_demand(&t, &pred);
	assert_int_equal(replay_compare(&t, &pred, &sum), 0);
	assert_int_equal(sum.nr, 40);
	assert_int_equal(sum.success_agree, 40);
	assert_int_equal(sum.pfn_agree, 32);
	assert_int_equal(sum.both_placed, 32);
	expect_json_summary(&sum, 40, 32);
	expect_summary_line(&sum, "40 requests: success agrees on 40, pfn on 32 of 32 placed by both");
	expect_html_points(&sum);
	expect_worst_parts(&sum);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
}

/*
 * Expect a run's own trace to replay to itself: the demand of the oracle
 * trace run once, its --trace read back and run again, every request the
 * same latency to the nanosecond, the same result and pfn. The 8 the full
 * area refused cost their cma_alloc nothing the model prices (no range
 * tried): 0 ns both times, so 32 have a ratio.
 */
static void cmasim_trace_round_trip_is_exact(void **state)
{
	struct replay_trace first = { 0 }, second = { 0 };
	struct replay_summary sum;

	read_oracle("arm64-fill-32m");
	run_demand(&t, &first);
	assert_true(first.own);
	run_demand(&first, &second);
	assert_int_equal(replay_compare(&first, &second, &sum), 0);
	assert_int_equal(sum.nr, 40);
	assert_int_equal(sum.compared, 32);
	for (size_t i = 0; i < sum.nr; i++) {
		assert_non_null(sum.pairs[i].p);
		assert_int_equal(sum.pairs[i].p->latency_ns, sum.pairs[i].m->latency_ns);
		assert_int_equal(sum.pairs[i].p->errorno, sum.pairs[i].m->errorno);
		assert_int_equal(sum.pairs[i].p->pfn, sum.pairs[i].m->pfn);
	}
	assert_int_equal(sum.within_2x, 32);
	replay_summary_free(&sum);
	replay_trace_free(&first);
	replay_trace_free(&second);
}

/*
 * Scenario @ini read into @sc with a demand file cam.demand holding
 * @demand beside it (its path into @demand_path), both removed after:
 * scenario_read_file()'s result.
 */
static int read_beside(const char *demand, const char *ini, struct scenario *sc, char *serr, char *demand_path)
{
	char dir[] = "/tmp/test_replay_XXXXXX", path[64];
	FILE *f;
	int ret;

	assert_non_null(mkdtemp(dir));
	snprintf(demand_path, 64, "%s/cam.demand", dir);
	f = fopen(demand_path, "w");
	assert_non_null(f);
	fputs(demand, f);
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/s.ini", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(ini, f);
	assert_int_equal(fclose(f), 0);
	ret = scenario_read_file(path, sc, serr, SCENARIO_ERR_MAX);
	unlink(demand_path);
	unlink(path);
	rmdir(dir);
	return ret;
}

/* Expect a [replay] workload's demand file found beside its scenario, wherever cmasim runs. */
static void demand_file_beside_the_scenario(void **state)
{
	static struct scenario sc;
	char demand[64], serr[SCENARIO_ERR_MAX];

	assert_int_equal(read_beside("# at pages align hold\n1000000000 256 4 0\n",
				     "[scenario]\nplatform = arm\nduration = 2s\n\n[replay cam]\narea = reserved\nrequests = cam.demand\n",
				     &sc, serr, demand), 0);
	assert_string_equal(sc.wl[0].replay.requests, demand);
}

/*
 * Expect test_pages_isolated's fin_pfn short of end_pfn read as a page
 * the kernel could not move: the guest's 64 MiB held by unread pipes
 * (vmsplice) stopped five ranges of the area, 133 events naming five
 * page frames, each kept once in the order first seen.
 */
static void oracle_vmsplice_32m_busy_pages(void **state)
{
	static const unsigned long busy[] = { 0xa9c00, 0xaa000, 0xac3ae, 0xb45a3, 0xb834d };

	read_oracle("arm64-vmsplice-32m");
	assert_int_equal(t.nr_busy, 5);
	for (size_t i = 0; i < t.nr_busy; i++)
		assert_int_equal(t.busy[i], busy[i]);
}

/*
 * Expect the blocks a busy range's migration scanned with pages left
 * untaken kept, the first time the range is busy only: of the guest's
 * first busy range, 0xa9c00's block (27 of 512 taken, the rest free or
 * held by the pipes), and 0xac000's 32-page steps until the one
 * stopped by the pipes' 82 pages, 14 of 96 taken.
 */
static void oracle_vmsplice_32m_untaken_blocks(void **state)
{
	bool a9c00 = false, ac3a0 = false;

	read_oracle("arm64-vmsplice-32m");
	for (size_t i = 0; i < t.nr_untaken; i++) {
		const struct replay_scan *s = &t.untaken[i];

		assert_true(s->taken < s->hi - s->lo);
		for (size_t j = 0; j < i; j++)
			if (s->lo < t.untaken[j].hi && t.untaken[j].lo < s->hi)
				fail_msg("block [%#lx, %#lx) kept twice", s->lo, s->hi);
		a9c00 |= s->lo == 0xa9c00 && s->hi == 0xa9e00 && s->taken == 27;
		ac3a0 |= s->lo == 0xac3a0 && s->hi == 0xac400 && s->taken == 14;
	}
	assert_true(a9c00);
	assert_true(ac3a0);
}

/*
 * Expect a block kept only for the task whose range test_pages_isolated
 * found busy, inside that range, read from "range=(0x%lx ~ 0x%lx)": the
 * other task's block, the block of a range found free and a second
 * failure's blocks are not.
 */
static void untaken_blocks_of_the_busy_range(void **state)
{
	assert_int_equal(read_text(
		"  a-1 [000] ..... 1.000000: cma_alloc_start: name=r count=512 align=9\n"
		"  a-1 [000] ..... 1.000001: mm_compaction_isolate_migratepages: range=(0x1000 ~ 0x1020) nr_scanned=32 nr_taken=32\n"
		"  a-1 [000] ..... 1.000002: mm_compaction_isolate_migratepages: range=(0x1020 ~ 0x1200) nr_scanned=480 nr_taken=3\n"
		"  k-9 [001] ..... 1.000002: mm_compaction_isolate_migratepages: range=(0x1000 ~ 0x1200) nr_scanned=512 nr_taken=0\n"
		"  a-1 [000] ..... 1.000003: test_pages_isolated: start_pfn=0x1000 end_pfn=0x1200 fin_pfn=0x1100 ret=fail\n"
		"  a-1 [000] ..... 1.000004: mm_compaction_isolate_migratepages: range=(0x1200 ~ 0x1400) nr_scanned=512 nr_taken=7\n"
		"  a-1 [000] ..... 1.000005: test_pages_isolated: start_pfn=0x1200 end_pfn=0x1400 fin_pfn=0x1400 ret=success\n"
		"  a-1 [000] ..... 1.000006: cma_alloc_finish: name=r pfn=0x1200 page=0000000000000001 count=512 align=9 errorno=0\n"
		"  a-1 [000] ..... 2.000000: cma_alloc_start: name=r count=512 align=9\n"
		"  a-1 [000] ..... 2.000001: mm_compaction_isolate_migratepages: range=(0x1000 ~ 0x1200) nr_scanned=512 nr_taken=0\n"
		"  a-1 [000] ..... 2.000003: test_pages_isolated: start_pfn=0x1000 end_pfn=0x1200 fin_pfn=0x1100 ret=fail\n"
		"  a-1 [000] ..... 2.000006: cma_alloc_finish: name=r pfn=0x1000 page=0000000000000000 count=512 align=9 errorno=-16\n"), 0);
	assert_int_equal(t.nr_untaken, 1);
	assert_int_equal(t.untaken[0].lo, 0x1020);
	assert_int_equal(t.untaken[0].hi, 0x1200);
	assert_int_equal(t.untaken[0].taken, 3);
	assert_int_equal(t.nr_busy, 1);
	assert_int_equal(t.nr_scan, 1);
	assert_int_equal(t.scan[0].pid, 9);
}

/*
 * Expect a block's pins counted as the snapshot's anonymous pages there
 * less those the kernel took, from the range's busy frame on and round
 * to the block's start: 64 anonymous pages, 10 taken, 0x120 busy, so
 * 0x120-0x13f and 0x100-0x115; the busy frame outside any block pinned
 * alone.
 */
static void pinned_pages_of_an_untaken_block(void **state)
{
	struct replay_pfn_run anon[] = { { 0x100, 64 }, { 0x400, 1 } };
	struct replay_background bg = { .anon_at = anon, .nr_anon_at = 2 };
	struct replay_scan block = { .lo = 0x100, .hi = 0x180, .taken = 10 };
	unsigned long busy[] = { 0x120, 0x400 };
	struct replay_trace tr = { .busy = busy, .nr_busy = 2, .untaken = &block, .nr_untaken = 1 };
	struct replay_pfn_run *runs;
	size_t nr;

	assert_int_equal(replay_pinned(&bg, &tr, &runs, &nr), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(runs[0].first, 0x100);
	assert_int_equal(runs[0].count, 0x16);
	assert_int_equal(runs[1].first, 0x120);
	assert_int_equal(runs[1].count, 0x20);
	assert_int_equal(runs[2].first, 0x400);
	assert_int_equal(runs[2].count, 1);
	free(runs);
}

/*
 * Expect the guest's 1 GiB request over the area held by its unread
 * pipes to migrate what the kernel did (81870 pages, -EBUSY) within 10%:
 * the 8,190 pipe pages in the area are pinned, where with only
 * test_pages_isolated's one busy frame the run moved them too (90106).
 */
static void oracle_vmsplice_1g_pipe_pages_not_moved(void **state)
{
	static struct replay_background bg;
	struct replay_trace pred = { 0 };
	struct replay_summary sum;

	replay_oracle_snapshot("results", "arm64-vmsplice-1g", &bg, &pred, &sum);
	assert_int_equal(t.req[0].errorno, -EBUSY);
	assert_int_equal(sum.success_agree, 1);
	assert_int_equal(t.req[0].migrated, 81870);
	assert_int_equal(sum.migrated_within_10, 1);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
	replay_background_free(&bg);
}

/*
 * Expect the pages the kernel could not move pinned in the replay, at the
 * frames the snapshot placed them: the guest's 40 32 MiB requests then
 * succeed and fail as the kernel's did (27 got their pages, each at the
 * kernel's pfn; 13 -EBUSY), where without the pins the area gave 32
 * (success agreeing on 35, pfn on 20). With every pipe page the scans
 * left pinned, not only the busy frames, the 21st request migrates the
 * kernel's 16331 pages (24577 otherwise). The last five, failing over
 * the busy ranges, migrate within 10% of the kernel's 3200, 6831, 22406,
 * 32764 and 32764 once a range's free pages go back to the tail of their
 * lists as its isolation ends (move_free_to_tail, 5.10): from the head
 * the pages migrated meanwhile filled the highest range first (11707,
 * 16325, 20421 for the last three); and once the replay starts with the
 * guest's free pages (replay_background_fit): 1004 fewer, and the
 * fallbacks' migration targets took the busy ranges' free pages sooner
 * under 6.12's CMA balance (3525 and 8127 for the 36th and 37th).
 */
static void oracle_vmsplice_32m_busy_pages_pinned(void **state)
{
	static struct replay_background bg;
	struct replay_trace pred = { 0 };
	struct replay_summary sum;

	replay_oracle_snapshot("results", "arm64-vmsplice-32m", &bg, &pred, &sum);
	assert_int_equal(sum.nr, 40);
	assert_int_equal(sum.success_agree, 40);
	assert_int_equal(sum.pfn_agree, 27);
	assert_int_equal(replay_served(&sum, true), 27);
	assert_int_equal(t.req[20].migrated, 16331);
	assert_int_equal(pred.req[20].migrated, t.req[20].migrated);
	assert_int_equal(sum.migrated_within_10, 40);
	/* every one: from the 36th, the pages migrated between requests landed in the busy ranges' free pages */
	for (size_t i = 0; i < 40; i++)
		if (labs((long)pred.req[i].migrated - (long)t.req[i].migrated) * 10 > (long)t.req[i].migrated)
			fail_msg("request %zu: %lu pages migrated, the kernel's %lu", i, pred.req[i].migrated,
				 t.req[i].migrated);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
	replay_background_free(&bg);
}

/*
 * Expect the same experiment, run with a wrapper reading the zone's free
 * counts around each write (bench/oracle/calib/arm64-vmsplice-32m-state.exp,
 * results-state/), replayed as the kernel ran it. The wrapper's forks
 * place pages a little differently, and the kernel's 36th to 39th requests
 * then migrated nothing out of the busy ranges where the plain run moved
 * 3200, 6831, 22406 and 32764 pages, and its 40th 3071: the fallbacks'
 * targets land in the busy ranges' free pages or not as the CMA balance
 * (free CMA above half the zone's free pages) falls a few hundred pages
 * either way. The replay follows the kernel in both runs: here every
 * request's success, pfn and pages migrated (within 10%, none where none).
 */
static void oracle_vmsplice_32m_state_run_replayed(void **state)
{
	static struct replay_background bg;
	struct replay_trace pred = { 0 };
	struct replay_summary sum;

	replay_oracle_snapshot("results-state", "arm64-vmsplice-32m-state", &bg, &pred, &sum);
	for (size_t i = 35; i < 39; i++)
		assert_int_equal(t.req[i].migrated, 0);
	assert_int_equal(t.req[39].migrated, 3071);
	assert_int_equal(sum.nr, 40);
	assert_int_equal(sum.success_agree, 40);
	assert_int_equal(replay_served(&sum, true), 29);
	assert_int_equal(sum.pfn_agree, 29);
	for (size_t i = 0; i < 40; i++)
		if (labs((long)pred.req[i].migrated - (long)t.req[i].migrated) * 10 > (long)t.req[i].migrated)
			fail_msg("request %zu: %lu pages migrated, the kernel's %lu", i, pred.req[i].migrated,
				 t.req[i].migrated);
	assert_int_equal(sum.migrated_within_10, 40);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
	replay_background_free(&bg);
}

/* Expect a pfns file that is not one, or places more pages than rss holds, refused naming it. */
static void bad_pfns_file(void **state)
{
	static struct scenario sc;
	char pfns[64], serr[SCENARIO_ERR_MAX];
	const char *ini = "[scenario]\nplatform = arm\nduration = 2s\n\n[anon a]\nrss = 1M\nrate = 1000\nhold = yes\npfns = cam.demand\n";

	assert_int_equal(read_beside("# FIRST COUNT\n0x30000 16\n", ini, &sc, serr, pfns), 0);
	assert_string_equal(sc.wl[0].anon.pfns, pfns);
	assert_int_not_equal(read_beside("0x30000 16\n0x30100\n", ini, &sc, serr, pfns), 0);
	if (!strstr(serr, "[anon a]: pfns = ") || !strstr(serr, "cam.demand:2: not a run of page frames; accepted FIRST COUNT"))
		fail_msg("%s", serr);
	assert_int_not_equal(read_beside("0x30000 257\n", ini, &sc, serr, pfns), 0);
	if (!strstr(serr, "places 257 pages, more than rss holds"))
		fail_msg("%s", serr);
	assert_int_not_equal(read_beside("-16 16\n", ini, &sc, serr, pfns), 0);
	assert_int_not_equal(read_beside("0x 16\n", ini, &sc, serr, pfns), 0);
	assert_int_not_equal(read_beside("16 16 junk\n", ini, &sc, serr, pfns), 0);
}

/* Expect a page-cache workload's pfns file taken, and refused when it places more pages than the file holds. */
static void bad_file_pfns_file(void **state)
{
	static struct scenario sc;
	char pfns[64], serr[SCENARIO_ERR_MAX];
	const char *ini = "[scenario]\nplatform = arm\nduration = 2s\n\n[writer w]\nfile = 1M\nrate = 1000\npfns = cam.demand\n";

	assert_int_equal(read_beside("0x30000 256\n", ini, &sc, serr, pfns), 0);
	assert_string_equal(sc.wl[0].file.pfns, pfns);
	assert_int_not_equal(read_beside("0x30000 257\n", ini, &sc, serr, pfns), 0);
	if (!strstr(serr, "[writer w]: pfns = ") || !strstr(serr, "places 257 pages, more than file holds"))
		fail_msg("%s", serr);
}

/* Expect a pfns file's numbers in decimal, or hex after 0x: a leading 0 is no octal. */
static void pfns_file_decimal_or_hex(void **state)
{
	char path[] = "/tmp/test_replay_pfns_XXXXXX", msg[256];
	unsigned long *got = NULL;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "010 2\n0x10 1\n", 13), 13);
	assert_int_equal(close(fd), 0);
	assert_int_equal(pfns_read(path, &got, msg, sizeof(msg)), 3);
	unlink(path);
	assert_int_equal(got[0], 10);
	assert_int_equal(got[1], 11);
	assert_int_equal(got[2], 16);
	free(got);
}

/* Expect the same demand under 5.4, before hugetlb_cma= (5.7), to ask no area: each request compared with none. */
static void what_if_kernel_without_the_area(void **state)
{
	struct replay_board b = virt_1g;
	struct replay_trace pred = { 0 };
	struct replay_summary sum;

	b.kernel = "5.4";
	read_oracle("arm64-anon-32m");
	run_demand_on(&t, &b, &pred);
	assert_int_equal(pred.nr_req, 0);
	assert_int_equal(replay_compare(&t, &pred, &sum), 0);
	assert_int_equal(sum.nr, 1);
	assert_null(sum.pairs[0].p);
	assert_int_equal(sum.success_agree, 0);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
}

/* ---- the background from the trace's page events ---- */

/*
 * A movable page, a page taken for the page cache (its add just after
 * its alloc), a kernel page, then each given back, and a free of a page
 * given out before the trace: one second of page events.
 */
static const char page_events[] =
	"  app-10 [000] ..... 1.000000: mm_page_alloc: page=00000000aabb0000 pfn=0x1000 order=0 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE\n"
	"  app-10 [000] ..... 1.100000: mm_page_alloc: page=00000000aabb0001 pfn=0x1004 order=2 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE\n"
	"  app-10 [000] ..... 1.100001: mm_filemap_add_to_page_cache: dev 254:1 ino 8c pfn=0x1004 ofs=0 order=2\n"
	"  app-10 [000] ..... 1.200000: mm_page_alloc: page=00000000aabb0002 pfn=0x2000 order=1 migratetype=0 gfp_flags=GFP_KERNEL\n"
	"  app-10 [000] ..... 1.300000: mm_page_alloc: page=0000000000000000 pfn=0 order=9 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE\n"
	"  app-10 [000] ..... 1.400000: mm_page_free: page=00000000aabb0000 pfn=0x1000 order=0\n"
	"  app-10 [000] ..... 1.500000: mm_filemap_delete_from_page_cache: dev 254:1 ino 8c pfn=0x1004 ofs=0 order=2\n"
	"  app-10 [000] ..... 1.600000: mm_page_free_batched: page=00000000aabb0001 pfn=0x1004 order=0\n"
	"  app-10 [000] ..... 2.000000: mm_page_free: page=00000000aabb9999 pfn=0x9999 order=3\n"
	"  cam-20 [001] ..... 3.000000: cma_alloc_start: name=reserved count=256 align=4\n"
	"  cam-20 [001] ..... 3.001000: cma_alloc_finish: name=reserved pfn=0x6c000 page=00000000eeee0000 count=256 align=4 errorno=0\n";

/*
 * Expect each page counted as whose it is: 1 page anonymous, the
 * movable page the page cache took as page cache (4, never anonymous),
 * 2 kernel pages, each the most held at once; what each was given over
 * the second of events as its rate; the failed allocation and the free
 * of a page from before the trace counted nowhere.
 */
static void page_events_make_the_background(void **state)
{
	struct replay_background bg;

	assert_int_equal(read_text(page_events), 0);
	assert_int_equal(t.families[RPF_PAGE], 7);
	assert_int_equal(t.families[RPF_FILEMAP], 2);
	assert_int_equal(replay_background_from_trace(&t, &bg), 0);
	assert_int_equal(bg.source, RBG_TRACE);
	assert_int_equal(bg.anon, 1);
	assert_int_equal(bg.file, 4);
	assert_int_equal(bg.slab, 2);
	assert_int_equal(bg.dirty, 0);
	assert_int_equal(bg.anon_rate, 1);
	assert_int_equal(bg.file_rate, 4);
	assert_int_equal(bg.slab_rate, 2);
	replay_background_describe(&bg, err, sizeof(err));
	assert_non_null(strstr(err, "from the trace's page events: "));
}

/* Expect a trace without page events to give none (the caller falls back on --snapshot, then the defaults). */
static void no_page_events_no_background(void **state)
{
	struct replay_background bg;

	read_oracle("arm64-anon-32m");
	assert_int_equal(replay_background_from_trace(&t, &bg), -ENOENT);
	replay_background_describe(NULL, err, sizeof(err));
	assert_string_equal(err, "the platform's defaults (no workload besides the demand)");
}

/*
 * Expect an older kmem.h's format read as well: the pfn in decimal, and
 * the migratetypes numbered as 4.x's gfpflags_to_migratetype numbers them
 * (MOVABLE 2, RECLAIMABLE 1): whose a page is comes from its gfp_flags.
 * An mm_page_alloc without them is refused, as is an order no kernel
 * gives out. Flags of any length are read: 6.12's migration targets print
 * 66 characters of them (the oracle's guest, traced with kmem).
 */
static void page_event_formats(void **state)
{
	struct replay_background bg;

	assert_int_equal(read_text(
		"  app-10 [000] ..... 1.000000: mm_page_alloc: page=c0a00000 pfn=4096 order=1 migratetype=2 gfp_flags=GFP_HIGHUSER_MOVABLE\n"
		"  app-10 [000] ..... 1.000001: mm_page_alloc: page=c0a00000 pfn=8192 order=0 migratetype=1 gfp_flags=GFP_KERNEL|__GFP_RECLAIMABLE\n"
		" oracle-helper.r-372 [000] ..... 2.000000: mm_page_alloc: page=000000008cbcd8c3 pfn=0xcf7f2 order=0 migratetype=1 "
		"gfp_flags=GFP_USER|__GFP_NOWARN|__GFP_RETRY_MAYFAIL|__GFP_COMP|__GFP_MOVABLE\n"
		"  cam-20 [001] ..... 3.000000: cma_alloc_start: name=reserved count=256 align=4\n"
		"  cam-20 [001] ..... 3.001000: cma_alloc_finish: name=reserved pfn=0x6c000 page=00000000eeee0000 count=256 align=4 errorno=0\n"), 0);
	assert_int_equal(t.nr_pev, 3);
	assert_int_equal(t.pev[0].pfn, 4096);
	assert_int_equal(t.pev[2].pfn, 0xcf7f2);
	assert_int_equal(t.pev[2].op, RPP_ALLOC_MOVABLE);
	assert_int_equal(replay_background_from_trace(&t, &bg), 0);
	assert_int_equal(bg.anon, 3);
	assert_int_equal(bg.slab, 1);
	reset(NULL);
	assert_int_equal(read_text("  app-10 [000] ..... 1.000000: mm_page_alloc: page=c0a00000 pfn=4096 order=1 migratetype=2\n"), -EINVAL);
	assert_non_null(strstr(err, "t.txt:1: mm_page_alloc has no field gfp_flags: an event format this reader does not model"));
	reset(NULL);
	assert_int_equal(read_text("  app-10 [000] ..... 1.000000: mm_page_free: page=c0a00000 pfn=4096 order=40\n"), -EINVAL);
	assert_non_null(strstr(err, "t.txt:1: mm_page_free: order=40: accepted 0 to 31"));
}

/* @t's scenario on @b, as text; its demand files removed. */
static char *scenario_text(const struct replay_board *b)
{
	char dir[] = "/tmp/test_replay_XXXXXX", path[64], demand[128], *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/replay.ini", dir);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(replay_scenario_write(&t, b, path, f), 0);
	assert_int_equal(fclose(f), 0);
	for (size_t i = 0; i < t.nr_req; i++) {
		replay_demand_path(path, t.req[i].area, demand, sizeof(demand));
		unlink(demand);
		replay_demand_group_path(path, &t, i, demand, sizeof(demand));
		unlink(demand);
	}
	assert_int_equal(rmdir(dir), 0);
	return text;
}

/* Expect the trace's background in the scenario as workloads of its amounts and rates (4 KiB pages). */
static void page_events_background_in_the_scenario(void **state)
{
	static struct replay_background bg;
	struct replay_board b = virt_1g;
	char *text;

	assert_int_equal(read_text(page_events), 0);
	assert_int_equal(replay_background_from_trace(&t, &bg), 0);
	b.background = &bg;
	text = scenario_text(&b);
	assert_non_null(strstr(text, "# background: from the trace's page events: "));
	assert_non_null(strstr(text, "\n[anon trace-anon]\nrss = 4K\nrate = 1\nhold = yes\n"));
	assert_non_null(strstr(text, "\n[pagecache trace-cache]\nfile = 16K\nrate = 4\npasses = 1\n"));
	assert_non_null(strstr(text, "\n[slab trace-slab]\nrate = 2\nlifetime = 1h\nmax = 8K\n"));
	free(text);
}

/* ---- the what-if ---- */

/*
 * A 512 MiB board under 6.12 (movable pages fill the CMA area once it
 * holds over half of the free memory), and a device's four 8 MiB
 * requests of the default area, each held, after 400 MiB of anonymous
 * memory given out.
 */
static char small_board[64];

static int write_small_board(void **state)
{
	int fd;
	static const char text[] = "[platform]\narch = arm\nbank = 0x40000000 512M\nkernel = 6.12\nnr_cpus = 2\n";

	snprintf(small_board, sizeof(small_board), "/tmp/test_replay_board_XXXXXX");
	fd = mkstemp(small_board);
	if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)(sizeof(text) - 1))
		return -1;
	return close(fd);
}

static int remove_small_board(void **state)
{
	return unlink(small_board);
}

/* The four requests, after @anon_mib MiB of anonymous memory given out in the trace (0: no page events). */
static void read_camera_trace(unsigned anon_mib)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	for (unsigned i = 0; i < anon_mib / 2; i++)
		fprintf(f, "  app-10 [000] ..... %.6f: mm_page_alloc: page=00000000aabb%04x pfn=%#x order=9 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE\n",
			1 + i * 0.001, i, 0x48000 + i * 512);
	for (unsigned k = 0; k < 4; k++)
		fprintf(f, "  cam-20 [001] ..... %u.000000: cma_alloc_start: name=reserved count=2048 align=4\n"
			   "  cam-20 [001] ..... %u.010000: cma_alloc_finish: name=reserved pfn=%#x page=00000000eeee0000 count=2048 align=4 errorno=0\n",
			3 + k, 3 + k, 0x6c000 + k * 2048);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(read_text(text), 0);
	free(text);
}

/* @m's demand on @b compared with @m into @sum. */
static void replay_on(const struct replay_board *b, struct replay_trace *pred, struct replay_summary *sum)
{
	run_demand_on(&t, b, pred);
	assert_int_equal(replay_compare(&t, pred, sum), 0);
}

/* Expect the what-if beside the baseline in the text, the JSON (what_if, each pair's) and the HTML. */
static void expect_what_if_reports(const struct replay_summary *base, const struct replay_what_if *w)
{
	const struct replay_board b = { .platform = small_board, .background = w->board->background };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *root, *wj, *pair;

	assert_non_null(f);
	replay_print_what_if(base, w, f);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(text, "what-if: policy carveout, kernel the platform's"));
	assert_non_null(strstr(text, "served: measured 4, baseline 4, what-if 4 of 4 requests"));
	free(text);
	f = open_memstream(&text, &len);
	assert_int_equal(replay_print_json(base, w, "t.txt", &b, f), 0);
	assert_int_equal(fclose(f), 0);
	root = json_loads(text, 0, NULL);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "background_from")), "trace");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(root, "summary"), "served")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(root, "summary"), "measured_served")), 4);
	wj = json_object_get(root, "what_if");
	assert_string_equal(json_string_value(json_object_get(wj, "policy")), "carveout");
	assert_true(json_is_null(json_object_get(wj, "cma")));
	assert_int_equal(json_integer_value(json_object_get(wj, "served")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(wj, "summary"), "requests")), 4);
	pair = json_array_get(json_object_get(root, "requests"), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(pair, "what_if"), "migrated")), 0);
	assert_non_null(json_object_get(pair, "what_if_ratio"));
	json_decref(root);
	free(text);
	f = open_memstream(&text, &len);
	assert_int_equal(replay_print_html(base, w, "t.txt", &b, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(text, "<h2>What if: policy carveout, kernel the platform&#39;s</h2>"));
	free(text);
}

/*
 * Expect cma=16M, two of the requests' size, to fail requests the
 * baseline's cma=64M served: the what-if serves 2, the baseline all 4.
 */
static void what_if_cma_too_small_fails_requests(void **state)
{
	struct replay_board base = { .platform = small_board, .cmdline = "cma=64M" }, w = base;
	struct replay_trace bp = { 0 }, wp = { 0 };
	struct replay_summary bs, ws;
	unsigned lost = 0;

	w.cma = "16M";
	read_camera_trace(0);
	replay_on(&base, &bp, &bs);
	replay_on(&w, &wp, &ws);
	assert_int_equal(replay_served(&bs, true), 4);
	assert_int_equal(replay_served(&bs, false), 4);
	assert_true(replay_served(&ws, false) < 4);
	for (size_t i = 0; i < ws.nr; i++)
		lost += !bs.pairs[i].p->errorno && ws.pairs[i].p->errorno;
	assert_int_equal(lost, 4 - replay_served(&ws, false));
	replay_summary_free(&bs);
	replay_summary_free(&ws);
	replay_trace_free(&bp);
	replay_trace_free(&wp);
}

/*
 * Expect --policy carveout to serve every request through the policy
 * (a [demand] device, each request in the run's trace) with no page
 * migrated, where the cma baseline migrates the anonymous memory out of
 * the area for its first request.
 */
static void what_if_carveout_serves_without_migrating(void **state)
{
	struct replay_board base = { .platform = small_board, .cmdline = "cma=64M" }, w = base;
	static struct replay_background bg;
	struct replay_trace bp = { 0 }, wp = { 0 };
	struct replay_summary bs;
	struct replay_what_if wi = { .board = &w };
	unsigned long migrated = 0;

	read_camera_trace(400);
	assert_int_equal(replay_background_from_trace(&t, &bg), 0);
	base.background = w.background = &bg;
	w.policy = "carveout";
	replay_on(&base, &bp, &bs);
	replay_on(&w, &wp, &wi.sum);
	for (size_t i = 0; i < bs.nr; i++)
		migrated += bs.pairs[i].p->migrated;
	assert_true(migrated > 0);
	assert_int_equal(wp.types[RP_DEMAND_REQUEST], 4);
	assert_int_equal(replay_served(&wi.sum, false), 4);
	for (size_t i = 0; i < wi.sum.nr; i++) {
		assert_true(wi.sum.pairs[i].p->has_migrated);
		assert_int_equal(wi.sum.pairs[i].p->migrated, 0);
		assert_true(wi.sum.pairs[i].p->has_latency);
	}
	expect_what_if_reports(&bs, &wi);
	replay_summary_free(&bs);
	replay_summary_free(&wi.sum);
	replay_trace_free(&bp);
	replay_trace_free(&wp);
}

/*
 * Expect a [demand] request given back under another policy to say so
 * in the run's trace (cmasim_demand_release), matched to its request at
 * the time the recorded one was released, as [replay]'s cma_release is.
 */
static void what_if_policy_releases(void **state)
{
	static const char *const policies[] = { "carveout", "gcma", "predict" };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	for (unsigned k = 0; k < 2; k++)
		fprintf(f, "  cam-20 [001] ..... %u.000000: cma_alloc_start: name=reserved count=2048 align=4\n"
			   "  cam-20 [001] ..... %u.010000: cma_alloc_finish: name=reserved pfn=%#x page=00000000eeee0000 count=2048 align=4 errorno=0\n"
			   "  cam-20 [001] ..... %u.500000: cma_release: name=reserved pfn=%#x page=00000000eeee0000 count=2048\n",
			3 + k, 3 + k, 0x6c000 + k * 2048, 3 + k, 0x6c000 + k * 2048);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(read_text(text), 0);
	free(text);
	assert_true(t.req[0].released && t.req[1].released);
	for (size_t k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		struct replay_board w = { .platform = small_board, .cmdline = "cma=64M", .policy = policies[k] };
		struct replay_trace wp = { 0 };
		struct replay_summary ws;

		replay_on(&w, &wp, &ws);
		assert_int_equal(wp.types[RP_DEMAND_RELEASE], 2);
		assert_int_equal(wp.nr_req, 2);
		for (size_t i = 0; i < wp.nr_req; i++) {
			assert_int_equal(wp.req[i].errorno, 0);
			assert_true(wp.req[i].released);
			assert_int_equal(wp.req[i].release_ns, t.req[i].release_ns);
		}
		replay_summary_free(&ws);
		replay_trace_free(&wp);
	}
}

/* Expect the what-if under each policy of the registry: each request answered (served or not) through it. */
static void what_if_every_policy(void **state)
{
	static const char *const policies[] = { "buddy", "gcma", "predict" };

	read_camera_trace(0);
	for (size_t k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		struct replay_board w = { .platform = small_board, .cmdline = "cma=64M", .policy = policies[k] };
		struct replay_trace wp = { 0 };
		struct replay_summary ws;

		replay_on(&w, &wp, &ws);
		assert_int_equal(wp.types[RP_DEMAND_REQUEST], 4);
		for (size_t i = 0; i < ws.nr; i++)
			assert_non_null(ws.pairs[i].p);
		replay_summary_free(&ws);
		replay_trace_free(&wp);
	}
}

/*
 * Expect the demand under another policy written as one [demand] a size
 * and alignment of each area, and the hugetlb_cma= area it no longer
 * asks left off the command line; under cma one [replay] an area and the
 * command line whole.
 */
static void what_if_policy_scenario(void **state)
{
	struct replay_board b = { .platform = "arm", .cmdline = "hugetlb_cma=1G  cma=64M" };
	char *text;

	assert_int_equal(read_text(
		"  a-1 [000] ..... 1.000000: cma_alloc_start: name=reserved count=256 align=4\n"
		"  a-1 [000] ..... 1.001000: cma_alloc_finish: name=reserved pfn=0x100 page=0000000000000001 count=256 align=4 errorno=0\n"
		"  a-1 [000] ..... 2.000000: cma_alloc_start: name=reserved count=512 align=4\n"
		"  a-1 [000] ..... 2.001000: cma_alloc_finish: name=reserved pfn=0x200 page=0000000000000001 count=512 align=4 errorno=0\n"
		"  a-1 [000] ..... 3.000000: cma_alloc_start: name=hugetlb0 count=8192 align=13\n"
		"  a-1 [000] ..... 3.001000: cma_alloc_finish: name=hugetlb0 pfn=0x80000 page=0000000000000001 count=8192 align=13 errorno=0\n"), 0);
	text = scenario_text(&b);
	assert_non_null(strstr(text, "\ncmdline = hugetlb_cma=1G cma=64M\n"));
	assert_non_null(strstr(text, "\n[replay reserved]\narea = reserved\nrequests = replay-reserved.demand\n"));
	assert_null(strstr(text, "[demand "));
	free(text);
	b.policy = "carveout";
	text = scenario_text(&b);
	assert_non_null(strstr(text, "\ncmdline = cma=64M\n"));
	assert_non_null(strstr(text, "\n[demand reserved-256-4]\narea = reserved\nrequests = replay-reserved-256-4.demand\n"));
	assert_non_null(strstr(text, "\n[demand reserved-512-4]\n"));
	assert_non_null(strstr(text, "\n[demand hugetlb0-8192-13]\narea = hugetlb0\n"));
	assert_null(strstr(text, "[replay "));
	free(text);
}

/* Expect a [demand] whose requests differ in size refused when the scenario is read, naming the request. */
static void bad_demand_of_two_sizes(void **state)
{
	static struct scenario sc;
	char demand[64], serr[SCENARIO_ERR_MAX];

	assert_int_not_equal(read_beside("1000000000 256 4 0\n2000000000 512 4 0\n",
					 "[scenario]\nplatform = arm\nduration = 3s\n\n[demand cam]\narea = reserved\nrequests = cam.demand\n",
					 &sc, serr, demand), 0);
	if (!strstr(serr, "[demand cam]: request 2 asks 512 pages at order 4, the first 256 at order 4"))
		fail_msg("%s", serr);
}

static void bad_finish_before_start(void **state)
{
	assert_int_equal(read_text("  a-1 [001] ..... 2.000000: cma_alloc_start: name=r count=8 align=3\n"
				   "  a-1 [000] ..... 1.000000: cma_alloc_finish: name=r pfn=0x100 page=0000000000000001 count=8 align=3 errorno=0\n"),
			 -EINVAL);
	assert_non_null(strstr(err, "t.txt:2: cma_alloc_finish at 1000000000 ns, before its start at 2000000000 ns"));
}

static void bad_unknown_event_names_its_line(void **state)
{
	assert_int_equal(read_text("# x\n  a-1 [000] ..... 1.000000: irq_handler_entry: irq=5 name=x\n"), -EINVAL);
	assert_non_null(strstr(err, "t.txt:2: unknown event irq_handler_entry; accepted: cma_alloc_start"));
}

/*
 * Expect the format before errorno (Android's 5.10 cma.h: pfn=%lx, no
 * 0x) read in hex, a NULL page a failure, and cma_alloc_info's counts.
 */
static void android_5_10_format(void **state)
{
	assert_int_equal(read_text(
		"  cam-9 [002] ..... 3.000000: cma_alloc_start: name=cam count=256 align=4\n"
		"  cam-9 [002] ..... 3.002000: cma_alloc_finish: name=cam pfn=80000 page=00000000bbbb0000 count=256 align=4\n"
		"  cam-9 [002] ..... 3.002001: cma_alloc_info: name=cam pfn=0x80000 count=256 align=4 nr_migrated=30 nr_reclaimed=2 nr_mapped=7 err_iso=0 err_mig=0 err_test=0\n"
		"  cam-9 [002] ..... 4.000000: cma_alloc_start: name=cam count=256 align=4\n"
		"  cam-9 [002] ..... 4.000100: cma_alloc_finish: name=cam pfn=80100 page=0000000000000000 count=256 align=4\n"
		"  cam-9 [002] ..... 5.000000: cma_release: name=cam pfn=80000 page=00000000bbbb0000 count=256\n"), 0);
	assert_int_equal(t.nr_req, 2);
	assert_int_equal(t.req[0].pfn, 0x80000);
	assert_int_equal(t.req[0].errorno, 0);
	assert_int_equal(t.req[0].migrated, 30);
	assert_int_equal(t.req[0].reclaimed, 2);
	assert_true(t.req[0].released);
	assert_int_equal(t.req[1].errorno, -ENOMEM);
}

static void bad_unmodelled_format_says_which_field(void **state)
{
	assert_int_equal(read_text("  a-1 [000] ..... 1.000000: cma_alloc_finish: pfn=0x80000 count=8 align=3\n"),
			 -EINVAL);
	assert_non_null(strstr(err, "t.txt:1: cma_alloc_finish has no field name: an event format this reader does not model; accepted: name=%s pfn=0x%lx"));
}

static void bad_truncated_last_line(void **state)
{
	assert_int_equal(read_text("  a-1 [000] ..... 1.000000: cma_alloc_start: name=r count=8 align=3\n  a-1 [000] ..... 1.00"),
			 -EINVAL);
	assert_non_null(strstr(err, "t.txt:2: no timestamp"));
	assert_non_null(strstr(err, "is the file truncated?"));
}

static void bad_not_a_trace_line(void **state)
{
	assert_int_equal(read_text("hello world\n"), -EINVAL);
	assert_non_null(strstr(err, "t.txt:1: not an ftrace event line; expected TASK-PID [CPU] [FLAGS] SECONDS: EVENT: FIELDS"));
}

static void bad_binary_is_not_text(void **state)
{
	static const char bin[] = "\x7f" "ELF\0\0";

	assert_int_equal(replay_read_text("t.bin", bin, sizeof(bin), &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.bin: holds a NUL byte: not a text trace"));
}

/* Expect a file beginning as trace.dat does, but cut after its magic, refused by libtracecmd with the file's name. */
static void bad_corrupt_trace_dat(void **state)
{
	char path[] = "/tmp/test_replay_XXXXXX";
	int fd = mkstemp(path);
	static const char head[] = "\027\010\104tracing6\0\0\0\0garbage";

	assert_true(fd >= 0);
	assert_int_equal(write(fd, head, sizeof(head)), (ssize_t)sizeof(head));
	close(fd);
	assert_int_equal(replay_read_file(path, &t, err, sizeof(err)), -EINVAL);
	unlink(path);
	assert_true(t.dat);
	assert_non_null(strstr(err, "libtracecmd cannot read its headers"));
}

/*
 * Expect tests/replay/hugetlb.dat (make-dat.py: the guest's first two
 * 32 MiB requests, a failed one and a release, laid out as 6.12's ring
 * buffer does) read through libtracecmd as trace-cmd report prints it.
 */
static void trace_dat_read_by_its_formats(void **state)
{
	assert_int_equal(replay_read_file("tests/replay/hugetlb.dat", &t, err, sizeof(err)), 0);
	assert_int_equal(replay_requests(&t, err, sizeof(err)), 0);
	assert_true(t.dat);
	assert_int_equal(t.nr_req, 3);
	assert_string_equal(t.req[0].area, "hugetlb0");
	assert_int_equal(t.req[0].count, 8192);
	assert_int_equal(t.req[0].align, 13);
	assert_int_equal(t.req[0].pfn, 0x80000);
	assert_int_equal(t.req[0].latency_ns, 4244000);
	assert_true(t.req[0].released);
	assert_int_equal(t.req[0].release_ns, 6000000000ull);
	assert_int_equal(t.req[1].pfn, 0x82000);
	assert_false(t.req[1].released);
	assert_int_equal(t.req[2].errorno, -ENOMEM);
	assert_int_equal(t.req[2].latency_ns, 1000);
}

/* Expect a trace.dat cut inside its records refused with its name (libtracecmd 3.1.6 crashed closing it). */
static void bad_truncated_trace_dat(void **state)
{
	char path[] = "/tmp/test_replay_XXXXXX";
	FILE *in = fopen("tests/replay/hugetlb.dat", "rb");
	char buf[5000];
	int fd = mkstemp(path);

	assert_non_null(in);
	assert_true(fd >= 0);
	assert_int_equal(fread(buf, 1, sizeof(buf), in), sizeof(buf));
	fclose(in);
	assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	close(fd);
	assert_int_equal(replay_read_file(path, &t, err, sizeof(err)), -EINVAL);
	unlink(path);
	assert_non_null(strstr(err, "libtracecmd cannot load its records (truncated or corrupt?)"));
}

/*
 * Expect a trace.dat whose first record is an unknown event refused at
 * that record, although every record after it reads (libtracecmd 3.1.6
 * goes on after a callback's stop: a later record cleared the error).
 */
static void bad_unknown_event_in_trace_dat_stops_at_its_record(void **state)
{
	assert_int_equal(replay_read_file("tests/replay/unknown-first.dat", &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown-first.dat: record 1 (CPU 0): unknown event cma_debug_range; accepted: "));
}

/* Expect a trace without CMA events (the amd64 guest: no CONFIG_CMA) to say so. */
static void no_cma_events_says_so(void **state)
{
	assert_int_equal(replay_read_file("bench/oracle/results/amd64-idle-1g/trace.txt", &t, err, sizeof(err)), 0);
	assert_int_equal(replay_requests(&t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "amd64-idle-1g/trace.txt: no CMA request"));
}

/* ---- trace.dat recorded by the oracle's guests (bench/oracle/dat.sh) ---- */

/* tests/replay/NAME.xz decompressed into the scratch file @path (libtracecmd reads a path, not memory). */
static void unxz_to_file(const char *name, char *path)
{
	char *buf;
	size_t len;
	int fd;

	assert_int_equal(import_read_file("tests/replay", name, &buf, &len, err, sizeof(err)), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
	free(buf);
}

/* The guest's trace.dat of experiment @exp read and paired into @dat. */
static void read_oracle_dat(const char *exp, struct replay_trace *dat)
{
	char name[128], path[] = "/tmp/test_replay_XXXXXX";

	snprintf(name, sizeof(name), "oracle-%s.dat", exp);
	unxz_to_file(name, path);
	assert_int_equal(replay_read_file(path, dat, err, sizeof(err)), 0);
	unlink(path);
	assert_true(dat->dat);
	assert_int_equal(replay_requests(dat, err, sizeof(err)), 0);
}

/*
 * Expect the kernel's trace.dat of a run to hold the events its text
 * trace of the same run holds (both read from one ring buffer: the text
 * first, then the raw pages), decoded alike: libtraceevent's fields
 * where the format has them, the printed names where it prints another
 * (6.12's mm_migrate_pages stores "succeeded", prints "nr_succeeded").
 * The text's clock has microseconds (rounded), the file's nanoseconds.
 */
static void expect_dat_equals_text(const char *exp)
{
	struct replay_trace dat = { 0 };
	char name[128], *text;
	size_t len;

	read_oracle_dat(exp, &dat);
	snprintf(name, sizeof(name), "oracle-%s.txt", exp);
	assert_int_equal(import_read_file("tests/replay", name, &text, &len, err, sizeof(err)), 0);
	assert_int_equal(replay_read_text(name, text, len, &t, err, sizeof(err)), 0);
	free(text);
	assert_int_equal(replay_requests(&t, err, sizeof(err)), 0);
	if (dat.nr_ev != t.nr_ev)
		fail_msg("%s: %zu events in its trace.dat, %zu in its text", exp, dat.nr_ev, t.nr_ev);
	assert_memory_equal(dat.types, t.types, sizeof(t.types));
	assert_memory_equal(dat.families, t.families, sizeof(t.families));
	for (size_t i = 0; i < t.nr_ev; i++) {
		assert_int_equal(dat.ev[i].type, t.ev[i].type);
		assert_int_equal(dat.ev[i].pid, t.ev[i].pid);
		assert_true(dat.ev[i].ts_ns + 500 >= t.ev[i].ts_ns && dat.ev[i].ts_ns < t.ev[i].ts_ns + 500);
		assert_int_equal(dat.ev[i].pfn, t.ev[i].pfn);
		assert_int_equal(dat.ev[i].count, t.ev[i].count);
		assert_int_equal(dat.ev[i].errorno, t.ev[i].errorno);
		assert_int_equal(dat.ev[i].migrated, t.ev[i].migrated);
	}
	assert_int_equal(dat.nr_scan, t.nr_scan);
	assert_memory_equal(dat.scan, t.scan, t.nr_scan * sizeof(*t.scan));
	assert_int_equal(dat.nr_untaken, t.nr_untaken);
	assert_memory_equal(dat.untaken, t.untaken, t.nr_untaken * sizeof(*t.untaken));
	assert_int_equal(dat.nr_req, t.nr_req);
	for (size_t i = 0; i < t.nr_req; i++) {
		assert_int_equal(dat.req[i].pfn, t.req[i].pfn);
		assert_int_equal(dat.req[i].errorno, t.req[i].errorno);
		assert_int_equal(dat.req[i].has_migrated, t.req[i].has_migrated);
		assert_int_equal(dat.req[i].migrated, t.req[i].migrated);
	}
	replay_trace_free(&dat);
}

static void oracle_dat_anon_32m_equals_its_text(void **state)
{
	expect_dat_equals_text("arm64-anon-32m");
	assert_int_equal(t.nr_req, 1);
	assert_int_equal(t.req[0].pfn, 0x80000);
}

static void oracle_dat_fill_32m_equals_its_text(void **state)
{
	expect_dat_equals_text("arm64-fill-32m");
	assert_int_equal(t.nr_req, 40);
	assert_int_equal(t.types[RP_MIGRATE_PAGES], 3435);
}

/*
 * Expect the guest's 40 32 MiB requests, from its trace.dat, replayed on
 * its board with its snapshot (1203 MiB anonymous) under the header's
 * kernel: every success and pfn as the kernel's; the pages migrated
 * within 10% on all 40: the anonymous pages are placed where the
 * snapshot had them (left to the run's allocator, its fill reached the
 * area less far: 0 and 4301 pages out of the 27th and 28th ranges, where
 * the kernel migrated 2586 and 8191).
 */
static void oracle_dat_fill_32m_replayed_with_its_snapshot(void **state)
{
	static struct replay_background bg;
	struct replay_board b = virt_1g;
	struct replay_trace pred = { 0 };
	struct replay_summary sum;
	unsigned long migrated = 0;
	char said[160];

	read_oracle_dat("arm64-fill-32m", &t);
	read_snapshot("tests/replay/oracle-arm64-fill-32m.snapshot", &bg, &b);
	b.background = &bg;
	replay_board_kernel(&t, &b, said, sizeof(said));
	assert_string_equal(b.kernel, "6.12");
	run_demand_on(&t, &b, &pred);
	assert_int_equal(replay_compare(&t, &pred, &sum), 0);
	assert_int_equal(sum.nr, 40);
	assert_int_equal(sum.success_agree, 40);
	assert_int_equal(sum.pfn_agree, 32);
	assert_int_equal(sum.with_migrated, 40);
	assert_int_equal(sum.migrated_within_10, 40);
	for (size_t i = 0; i < t.nr_req; i++)
		migrated += t.req[i].migrated;
	assert_int_equal(migrated, 43540);
	expect_failed_cma_span_alone(&sum);
	replay_summary_free(&sum);
	replay_trace_free(&pred);
}

/*
 * Expect the kernel of a trace.dat's header (its uname option, written
 * by dat-uname.py as trace-cmd record writes it) to choose the profile
 * the replay runs under, unless --kernel does; a file without one (the
 * hand-made hugetlb.dat) leaves it to the platform.
 */
static void dat_header_names_its_kernel(void **state)
{
	struct replay_board b = virt_1g;
	char said[160];

	read_oracle_dat("arm64-anon-32m", &t);
	assert_string_equal(t.release, "6.12.118+deb12-arm64");
	replay_board_kernel(&t, &b, said, sizeof(said));
	assert_string_equal(b.kernel, "6.12");
	assert_string_equal(said, "6.12 (the trace's header: Linux 6.12.118+deb12-arm64)");
	b.kernel = "5.10";
	replay_board_kernel(&t, &b, said, sizeof(said));
	assert_string_equal(b.kernel, "5.10");
	assert_string_equal(said, "5.10 (--kernel)");
	replay_trace_free(&t);
	memset(&t, 0, sizeof(t));

	assert_int_equal(replay_read_file("tests/replay/hugetlb.dat", &t, err, sizeof(err)), 0);
	assert_string_equal(t.release, "");
	b.kernel = NULL;
	replay_board_kernel(&t, &b, said, sizeof(said));
	assert_null(b.kernel);
	assert_string_equal(said, "the platform's (the trace.dat's header has no uname)");
}

/*
 * Expect the amd64 guest's trace.dat (Debian's amd64 6.12 has no
 * CONFIG_CMA: its 1 GiB page came from alloc_contig_pages) to name its
 * kernel, hold the compaction its text holds, and say it has no CMA request.
 */
static void oracle_dat_amd64_has_no_cma_request(void **state)
{
	char path[] = "/tmp/test_replay_XXXXXX", *text;
	static struct replay_trace txt;
	size_t len;

	unxz_to_file("oracle-amd64-idle-1g.dat", path);
	assert_int_equal(replay_read_file(path, &t, err, sizeof(err)), 0);
	assert_string_equal(t.release, "6.12.118+deb12-amd64");
	assert_int_equal(import_read_file("tests/replay", "oracle-amd64-idle-1g.txt", &text, &len, err, sizeof(err)), 0);
	assert_int_equal(replay_read_text("amd64.txt", text, len, &txt, err, sizeof(err)), 0);
	free(text);
	assert_true(t.families[RPF_COMPACTION] > 0);
	assert_memory_equal(t.families, txt.families, sizeof(t.families));
	replay_trace_free(&txt);
	assert_int_equal(replay_requests(&t, err, sizeof(err)), -EINVAL);
	unlink(path);
	assert_non_null(strstr(err, "no CMA request"));
}

/* Expect a release mapped to the newest profile not newer than it, and none before 3.5. */
static void kernel_of_release_is_the_newest_not_newer(void **state)
{
	assert_string_equal(platform_kernel_of_release("6.12.118+deb12-arm64"), "6.12");
	assert_string_equal(platform_kernel_of_release("6.14.2"), "6.12");
	assert_string_equal(platform_kernel_of_release("7.0"), "6.12");
	assert_string_equal(platform_kernel_of_release("5.10.198-android12"), "5.10");
	assert_string_equal(platform_kernel_of_release("5.0.21"), "5.0");
	assert_string_equal(platform_kernel_of_release("4.21"), "4.20");
	assert_string_equal(platform_kernel_of_release("3.5.0"), "3.5");
	assert_null(platform_kernel_of_release("3.4.113"));
	assert_null(platform_kernel_of_release("2.6.32"));
	assert_null(platform_kernel_of_release("linux"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(oracle_anon_1g_one_gigantic_page, reset),
		cmocka_unit_test_setup(oracle_fill_32m_fills_the_area_then_fails, reset),
		cmocka_unit_test_setup(contig_range_info_read_as_6_12_passes_it, reset),
		cmocka_unit_test_setup(trace_cmd_report_interleaved_tasks, reset),
		cmocka_unit_test_setup(release_before_finish_matches_nothing, reset),
		cmocka_unit_test_setup(cmasim_trace_takes_the_runs_latency, reset),
		cmocka_unit_test_setup(oracle_fill_32m_replayed_success_and_pfn, reset),
		cmocka_unit_test_setup(cmasim_trace_round_trip_is_exact, reset),
		cmocka_unit_test_setup(oracle_cache_1g_snapshot_background_migrates_as_the_kernel, reset),
		cmocka_unit_test_setup(oracle_longterm_1g_snapshot_places_its_anonymous_pages, reset),
		cmocka_unit_test_setup(oracle_dirty_1g_snapshot_places_its_page_cache, reset),
		cmocka_unit_test_setup(oracle_anon2000_1g_kernel_memory_held, reset),
		cmocka_unit_test_setup(bad_pfns_file, reset),
		cmocka_unit_test_setup(bad_file_pfns_file, reset),
		cmocka_unit_test_setup(pfns_file_decimal_or_hex, reset),
		cmocka_unit_test_setup(oracle_vmsplice_32m_busy_pages, reset),
		cmocka_unit_test_setup(oracle_vmsplice_32m_busy_pages_pinned, reset),
		cmocka_unit_test_setup(oracle_vmsplice_32m_state_run_replayed, reset),
		cmocka_unit_test_setup(oracle_vmsplice_32m_untaken_blocks, reset),
		cmocka_unit_test_setup(untaken_blocks_of_the_busy_range, reset),
		cmocka_unit_test_setup(pinned_pages_of_an_untaken_block, reset),
		cmocka_unit_test_setup(oracle_vmsplice_1g_pipe_pages_not_moved, reset),
		cmocka_unit_test_setup(what_if_kernel_without_the_area, reset),
		cmocka_unit_test_setup(demand_file_beside_the_scenario, reset),
		cmocka_unit_test_setup(bad_finish_before_start, reset),
		cmocka_unit_test_setup(bad_unknown_event_names_its_line, reset),
		cmocka_unit_test_setup(android_5_10_format, reset),
		cmocka_unit_test_setup(bad_unmodelled_format_says_which_field, reset),
		cmocka_unit_test_setup(bad_truncated_last_line, reset),
		cmocka_unit_test_setup(bad_not_a_trace_line, reset),
		cmocka_unit_test_setup(bad_binary_is_not_text, reset),
		cmocka_unit_test_setup(bad_corrupt_trace_dat, reset),
		cmocka_unit_test_setup(no_cma_events_says_so, reset),
		cmocka_unit_test_setup(trace_dat_read_by_its_formats, reset),
		cmocka_unit_test_setup(bad_truncated_trace_dat, reset),
		cmocka_unit_test_setup(bad_unknown_event_in_trace_dat_stops_at_its_record, reset),
		cmocka_unit_test_setup(oracle_dat_anon_32m_equals_its_text, reset),
		cmocka_unit_test_setup(oracle_dat_fill_32m_equals_its_text, reset),
		cmocka_unit_test_setup(oracle_dat_fill_32m_replayed_with_its_snapshot, reset),
		cmocka_unit_test_setup(dat_header_names_its_kernel, reset),
		cmocka_unit_test_setup(oracle_dat_amd64_has_no_cma_request, reset),
		cmocka_unit_test_setup(kernel_of_release_is_the_newest_not_newer, reset),
		cmocka_unit_test_setup(page_events_make_the_background, reset),
		cmocka_unit_test_setup(no_page_events_no_background, reset),
		cmocka_unit_test_setup(page_event_formats, reset),
		cmocka_unit_test_setup(page_events_background_in_the_scenario, reset),
		cmocka_unit_test_setup(what_if_cma_too_small_fails_requests, reset),
		cmocka_unit_test_setup(what_if_carveout_serves_without_migrating, reset),
		cmocka_unit_test_setup(what_if_every_policy, reset),
		cmocka_unit_test_setup(what_if_policy_releases, reset),
		cmocka_unit_test_setup(what_if_policy_scenario, reset),
		cmocka_unit_test_setup(bad_demand_of_two_sizes, reset),
	};
	int ret = cmocka_run_group_tests(tests, write_small_board, remove_small_board);

	reset(NULL);
	return ret;
}
