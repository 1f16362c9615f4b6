// SPDX-License-Identifier: GPL-2.0
/*
 * bench/oracle/replay.sh, cmasim replay of the guests' traces: on two
 * committed traces, a row each in the fixed format whose counts are what
 * `cmasim replay` of that trace summarises, the total their sums; a
 * directory without a trace refused with exit 2. What is checked is that
 * the script reports the replays, not how well they agree (test_replay
 * holds that, per trace).
 */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "helpers.h"

struct counts {
	unsigned requests, success, pfn, placed, migrated, with;
};

static char replay_sh[PATH_MAX], oracle[PATH_MAX], sim[PATH_MAX];

/* "REQ S/REQ P/B M/W" after the row's name into @c: 0, or -1 if not that form */
static int parse_counts(const char *cells, struct counts *c)
{
	unsigned req2, with2;

	if (sscanf(cells, "%u %u/%u %u/%u %u/%u", &c->requests, &c->success, &req2, &c->pfn, &c->placed,
		   &c->migrated, &with2) != 7 || req2 != c->requests)
		return -1;
	c->with = with2;
	return 0;
}

/* What `cmasim replay` itself says of the trace in @dir (under bench/oracle). */
static void replay_summary(const char *dir, struct counts *c)
{
	char cmd[4 * PATH_MAX], line[512];
	FILE *p;
	int found = 0;

	snprintf(cmd, sizeof(cmd),
		 "d=%s/%s; %s replay $d/trace.txt --platform tests/dt/qemu-virt-arm64.dts "
		 "--cmdline \"$(cat $d/cmdline)\" --snapshot $d/snapshot --kernel 6.12",
		 oracle, dir, sim);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		struct counts l;

		if (sscanf(line, "%u requests: success agrees on %u, pfn on %u of %u placed by both, "
			   "pages migrated within 10%% on %u of %u", &l.requests, &l.success, &l.pfn,
			   &l.placed, &l.migrated, &l.with) == 6)
			*c = l, found++;
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(found, 1);
}

static void script_rows_are_the_replays(void **state)
{
	static const char *const dirs[] = { "results/arm64-anon-32m", "results/arm64-idle-1g" };
	struct counts row[2], want, total = { 0 }, sum = { 0 };
	char cmd[6 * PATH_MAX], line[512], name[128];
	int rows = 0, header = 0, totals = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s -c %s %s/%s %s/%s", replay_sh, sim, oracle, dirs[0], oracle, dirs[1]);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		int n;

		if (!strncmp(line, "trace ", 6)) {
			header++;
			continue;
		}
		if (!strncmp(line, "total (2 traces)", 16)) {
			assert_int_equal(parse_counts(line + 16, &total), 0);
			totals++;
			continue;
		}
		assert_true(rows < 2);
		assert_int_equal(sscanf(line, "%127s %n", name, &n), 1);
		assert_string_equal(name, dirs[rows]);
		assert_int_equal(parse_counts(line + n, &row[rows]), 0);
		rows++;
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(header, 1);
	assert_int_equal(rows, 2);
	assert_int_equal(totals, 1);
	for (int i = 0; i < 2; i++) {
		replay_summary(dirs[i], &want);
		assert_memory_equal(&row[i], &want, sizeof(want));
		sum.requests += want.requests, sum.success += want.success, sum.pfn += want.pfn;
		sum.placed += want.placed, sum.migrated += want.migrated, sum.with += want.with;
	}
	assert_memory_equal(&total, &sum, sizeof(sum));
}

static void script_refuses_a_directory_without_a_trace(void **state)
{
	char cmd[4 * PATH_MAX];
	int rc;

	snprintf(cmd, sizeof(cmd), "%s -c %s %s/experiments >/dev/null 2>&1", replay_sh, sim, oracle);
	rc = system(cmd);
	assert_true(WIFEXITED(rc));
	assert_int_equal(WEXITSTATUS(rc), 2);
}

static int setup(void **state)
{
	if (test_source_path("bench/oracle/replay.sh", replay_sh, sizeof(replay_sh)) ||
	    test_source_path("bench/oracle", oracle, sizeof(oracle)))
		return -1;
	return test_cmasim_program("test_oracle_replay", sim, sizeof(sim));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(script_rows_are_the_replays),
		cmocka_unit_test(script_refuses_a_directory_without_a_trace),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
