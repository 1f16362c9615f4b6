// SPDX-License-Identifier: GPL-2.0
/*
 * bench/oracle/counters.sh, the guest's vmstat counters beside cmasim's:
 * its awk core on a small fixture (the deltas, the sums, the ratio, the
 * three verdicts), and the script on one committed experiment against
 * cmasim's run of its scenario. What is checked is that it compares, not
 * what it finds: a row per counter in the fixed format, the guest's
 * column the committed after/vmstat less before/vmstat, and the closing
 * counts equal to the rows. On the reclaim experiments (results-reclaim/,
 * whose guests swap to zram and drop page cache during the allocation),
 * what it finds too: against the committed table (results-reclaim/
 * counters.txt) no counter may move away from the guest's.
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

#define MAX_ROWS 256

struct row {
	char exp[64], counter[64], span[8], guest[24], sim[24], ratio[16], verdict[16];
};

struct table {
	struct row rows[MAX_ROWS];
	int nr, agree, disagree, absent, total;	/* the closing line's */
	int summaries;				/* per-experiment lines */
};

static char counters_sh[PATH_MAX], counters_awk[PATH_MAX], results[PATH_MAX], sim[PATH_MAX];
static char reclaim[PATH_MAX], reclaim_scenarios[PATH_MAX];

/* Reads @p's rows (and counters.sh's summary) into @t; returns pclose's status. */
static int read_table(FILE *p, struct table *t)
{
	char line[1024];

	memset(t, 0, sizeof(*t));
	t->total = -1;
	while (fgets(line, sizeof(line), p)) {
		struct row *r = &t->rows[t->nr];
		int a, d, n, all;

		if (!strncmp(line, "experiment ", 11))
			continue;
		if (sscanf(line, "counters: %d of %d agree, %d disagree, %d absent", &a, &all, &d, &n) == 4) {
			t->agree = a, t->total = all, t->disagree = d, t->absent = n;
			continue;
		}
		if (strstr(line, ": ") && strstr(line, " absent of ")) {
			t->summaries++;
			continue;
		}
		assert_int_equal(t->total, -1);	/* the total is the last line */
		assert_int_equal(t->summaries, 0);
		assert_true(t->nr < MAX_ROWS);
		assert_int_equal(sscanf(line, "%63s %63s %7s %23s %23s %15s %15s", r->exp, r->counter, r->span,
					r->guest, r->sim, r->ratio, r->verdict), 7);
		t->nr++;
	}
	return pclose(p);
}

static const struct row *find(const struct table *t, const char *counter)
{
	for (int i = 0; i < t->nr; i++)
		if (!strcmp(t->rows[i].counter, counter))
			return &t->rows[i];
	fail_msg("no row for %s", counter);
	return NULL;
}

static void expect(const struct table *t, const char *counter, const char *guest, const char *sim_,
		   const char *ratio, const char *verdict)
{
	const struct row *r = find(t, counter);

	assert_string_equal(r->guest, guest);
	assert_string_equal(r->sim, sim_);
	assert_string_equal(r->ratio, ratio);
	assert_string_equal(r->verdict, verdict);
}

/* The core on four small vmstat copies: each rule of counters.awk's header. */
static void core_compares_each_counter(void **state)
{
	static const char fixture[] =
		"gb pgmigrate_success 100\nga pgmigrate_success 1100\n"
		"cb pgmigrate_success 5\ncb pgmigrate_fail 0\n"
		"ca pgmigrate_success 1085\nca pgmigrate_fail 7\n"
		"gb pgmigrate_fail 2\nga pgmigrate_fail 2\n"
		"ga compact_stall 0\nca compact_stall 0\n"
		"gb allocstall_dma 1\nga allocstall_dma 1\nga allocstall_normal 128\n"
		"ga pgsteal_kswapd 40\nca pgsteal_kswapd 44\nga pgsteal_anon 3\n"
		"ga thp_fault_alloc 2\nga thp_migration_success 87\n"
		"gb nr_free_pages 9000\nga nr_free_pages 1000\nca nr_free_pages 1200\n"
		"ga nr_free_cma 0\nca nr_free_cma 0\n"
		"ga pgfault 5000\nca pgfault 1\n";
	char dir[] = "/tmp/test_oracle_counters.XXXXXX", in[PATH_MAX], cmd[3 * PATH_MAX];
	struct table t;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(in, sizeof(in), "%s/in", dir);
	f = fopen(in, "w");
	assert_non_null(f);
	fputs(fixture, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "awk -v experiment=fix -v span=alloc -f %s %s", counters_awk, in);
	assert_int_equal(read_table(popen(cmd, "r"), &t), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);

	/* only the listed counters, in the list's order: pgfault is not one */
	assert_int_equal(t.nr, 10);
	assert_string_equal(t.rows[0].counter, "pgmigrate_success");
	assert_string_equal(t.rows[t.nr - 1].counter, "nr_free_cma");
	for (int i = 0; i < t.nr; i++) {
		assert_string_equal(t.rows[i].exp, "fix");
		assert_string_equal(t.rows[i].span, "alloc");
	}
	expect(&t, "pgmigrate_success", "1000", "1080", "1.08", "agree");
	expect(&t, "pgmigrate_fail", "0", "7", "inf", "disagree");
	expect(&t, "compact_stall", "0", "0", "-", "agree");
	/* allocstall_* summed, deltas each; cmasim has none */
	expect(&t, "allocstall", "128", "-", "-", "absent");
	/* a prefix expands to each counter, the guest's first */
	expect(&t, "pgsteal_kswapd", "40", "44", "1.10", "agree");
	expect(&t, "pgsteal_anon", "3", "-", "-", "absent");
	expect(&t, "thp_fault_alloc", "2", "-", "-", "absent");
	expect(&t, "thp_migration_success", "87", "-", "-", "absent");
	/* the free pages are the values after, not deltas */
	expect(&t, "nr_free_pages", "1000", "1200", "1.20", "disagree");
	expect(&t, "nr_free_cma", "0", "0", "-", "agree");
}

/* @counter's after/vmstat less before/vmstat in results/@exp. */
static long guest_delta(const char *exp, const char *counter)
{
	char cmd[2 * PATH_MAX + 256], out[64];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "awk -v k=%s '$1 == k { v[FILENAME] = $2 } "
		 "END { print v[ARGV[2]] - v[ARGV[1]] }' %s/%s/before/vmstat %s/%s/after/vmstat",
		 counter, results, exp, results, exp);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(out, sizeof(out), p));
	assert_int_equal(pclose(p), 0);
	return atol(out);
}

/* counters.sh on committed results: each row's form, the guest's deltas, the counts. */
static void script_sets_cmasim_beside_the_guest(void **state)
{
	static const char *const listed[] = { "pgmigrate_success", "pgmigrate_fail", "compact_stall",
					      "pgscan_direct", "pgscan_kswapd", "pswpin", "pgmajfault",
					      "pgpgin", "pgpgout", "nr_dirtied", "nr_written" };
	char dir[] = "/tmp/test_oracle_counters.XXXXXX", cmd[3 * PATH_MAX];
	int agree = 0, disagree = 0, absent = 0;
	struct table t;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s -o %s -c %s arm64-anon-1g", counters_sh, dir, sim);
	assert_int_equal(read_table(popen(cmd, "r"), &t), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);

	assert_true(t.nr > 0);
	assert_int_equal(t.summaries, 1);
	for (int i = 0; i < t.nr; i++) {
		const struct row *r = &t.rows[i];

		assert_string_equal(r->exp, "arm64-anon-1g");
		assert_string_equal(r->span, "alloc");
		if (!strcmp(r->verdict, "agree"))
			agree++;
		else if (!strcmp(r->verdict, "disagree"))
			disagree++;
		else if (!strcmp(r->verdict, "absent"))
			absent++, assert_string_equal(r->sim, "-");
		else
			fail_msg("verdict %s", r->verdict);
	}
	assert_int_equal(agree + disagree + absent, t.nr);
	assert_int_equal(t.total, t.nr);
	assert_int_equal(t.agree, agree);
	assert_int_equal(t.disagree, disagree);
	assert_int_equal(t.absent, absent);
	/* the guest's column is the committed delta; cmasim keeps these counters */
	for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
		const struct row *r = find(&t, listed[i]);

		assert_int_equal(atol(r->guest), guest_delta("arm64-anon-1g", listed[i]));
		assert_string_not_equal(r->sim, "-");
	}
	/* cmasim migrates over its allocation: its span holds the write */
	assert_true(atol(find(&t, "pgmigrate_success")->sim) > 0);
}

/* |cmasim - guest| of a row with both columns, or -1 (absent) */
static long distance(const struct row *r)
{
	long d = atol(r->sim) - atol(r->guest);

	return strcmp(r->sim, "-") ? labs(d) : -1;
}

/*
 * counters.sh -r results-reclaim -s scenarios-reclaim against its committed
 * output: the same rows, the guest's column as committed, every row that
 * agreed still agreeing, and no other row's cmasim further from the
 * guest's than committed (a model change that brings one nearer passes,
 * and counters.txt is then written again).
 */
static void reclaim_counters_move_no_further_from_the_guest(void **state)
{
	char dir[] = "/tmp/test_oracle_counters.XXXXXX", cmd[6 * PATH_MAX], path[PATH_MAX + 16];
	static struct table now, was;
	int nearer = 0;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s -r %s -s %s -o %s -c %s", counters_sh, reclaim, reclaim_scenarios,
		 dir, sim);
	assert_int_equal(read_table(popen(cmd, "r"), &now), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/counters.txt", reclaim);
	snprintf(cmd, sizeof(cmd), "cat %s", path);
	assert_int_equal(read_table(popen(cmd, "r"), &was), 0);

	assert_true(was.nr > 0);
	assert_int_equal(now.nr, was.nr);
	assert_int_equal(now.summaries, 3);
	for (int i = 0; i < now.nr; i++) {
		const struct row *n = &now.rows[i], *w = &was.rows[i];

		assert_string_equal(n->exp, w->exp);
		assert_string_equal(n->counter, w->counter);
		assert_string_equal(n->guest, w->guest);
		if (!strcmp(w->verdict, "agree"))
			assert_string_equal(n->verdict, "agree");
		if (distance(w) >= 0) {
			if (distance(n) < 0 || distance(n) > distance(w))
				fail_msg("%s %s: cmasim %s, was %s, guest %s", n->exp, n->counter,
					 n->sim, w->sim, n->guest);
			nearer += distance(n) < distance(w);
		}
	}
	if (nearer)
		fprintf(stderr, "%d rows nearer the guest than %s: write it again\n", nearer, path);
	assert_true(now.agree >= was.agree);
}

static void script_refuses_an_unknown_experiment(void **state)
{
	char cmd[3 * PATH_MAX];
	int rc;

	snprintf(cmd, sizeof(cmd), "%s -o /tmp -c %s no-such-experiment >/dev/null 2>&1", counters_sh, sim);
	rc = system(cmd);
	assert_true(WIFEXITED(rc));
	assert_int_equal(WEXITSTATUS(rc), 2);
}

static int setup(void **state)
{
	if (test_source_path("bench/oracle/counters.sh", counters_sh, sizeof(counters_sh)) ||
	    test_source_path("bench/oracle/counters.awk", counters_awk, sizeof(counters_awk)) ||
	    test_source_path("bench/oracle/results", results, sizeof(results)) ||
	    test_source_path("bench/oracle/results-reclaim", reclaim, sizeof(reclaim)) ||
	    test_source_path("bench/oracle/scenarios-reclaim", reclaim_scenarios, sizeof(reclaim_scenarios)))
		return -1;
	return test_cmasim_program("test_oracle_counters", sim, sizeof(sim));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(core_compares_each_counter),
		cmocka_unit_test(script_sets_cmasim_beside_the_guest),
		cmocka_unit_test(reclaim_counters_move_no_further_from_the_guest),
		cmocka_unit_test(script_refuses_an_unknown_experiment),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
