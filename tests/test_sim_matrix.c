// SPDX-License-Identifier: GPL-2.0
/*
 * Every built-in scenario under every policy ends, and accounts for its
 * requests. A run that never ends is a deadlock between the engine's
 * thread and a request's task (predict's events once took cma_mutex
 * under a parked request, gcma-board under 3.17); an alarm turns it into
 * a failure naming the run. make test runs each pair under the
 * scenario's own kernel for 20 s; make stress (CMA_TEST_EXHAUSTIVE)
 * under six kernels across the releases for 60 s, and checks the
 * README's gcma-board table against the runs it shows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "engine/sim_api.h"
#include "policies/registry.h"
#include "report/report.h"
#include "sim_helpers.h"

#define RUN_ALARM_S	120	/* a 60 s run takes a few seconds of host time at most */

static const char *const stress_kernels[] = { "3.5", "3.10", "3.17", "4.14", "5.10", "6.12" };

/* The run in progress, for the alarm's message. */
static char current[128];

static void on_alarm(int sig)
{
	static const char msg[] = "test_sim_matrix: no end after 120 s of host time: ";

	(void)sig;
	(void)!write(2, msg, sizeof(msg) - 1);
	(void)!write(2, current, strlen(current));
	(void)!write(2, "\n", 1);
	_exit(1);
}

/*
 * @name under @policy, @kernel (NULL: its own) for @seconds: it ends,
 * and every request is counted once.
 */
static void run_one(const char *name, const struct sim_policy_ops *policy, const char *kernel,
		    unsigned seconds)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_options o = { .policy = policy };
	struct sim_result r;
	char err[256];
	int ret;

	assert_non_null(sc);
	assert_int_equal(scenario_builtin(name, sc, err, sizeof(err)), 0);
	if (kernel)
		sc->kernel = kernel;
	sc->duration_ns = seconds * 1000000000ull;
	snprintf(current, sizeof(current), "%s under %s, kernel %s, %u s", name, policy->name,
		 kernel ? kernel : "its own", seconds);
	alarm(RUN_ALARM_S);
	ret = sim_run(sc, &o, &r);
	alarm(0);
	if (ret)
		fail_msg("%s: sim_run returned %d", current, ret);
	for (unsigned i = 0; i < r.nr_devices; i++) {
		const struct device_result *d = &r.devices[i];
		uint64_t failed = 0;

		for (int c = 0; c < NR_FAIL_CAUSES; c++)
			failed += d->fail[c];
		if (d->successes + failed != d->requests)
			fail_msg("%s: device %s: %llu served and %llu failed of %llu requests", current,
				 d->name, (unsigned long long)d->successes, (unsigned long long)failed,
				 (unsigned long long)d->requests);
	}
	sim_result_free(&r);
	free(sc);
}

static void every_builtin_under_every_policy_ends(void **state)
{
	bool all = getenv("CMA_TEST_EXHAUSTIVE") != NULL;
	const char *names = scenario_builtin_names();
	unsigned runs = 0;

	signal(SIGALRM, on_alarm);
	for (const char *p = names; *p;) {
		size_t len = strcspn(p, ",");
		char name[SIM_NAME_MAX];

		assert_true(len < sizeof(name));
		memcpy(name, p, len);
		name[len] = '\0';
		for (unsigned i = 0; i < sim_nr_policies(); i++) {
			if (!all) {
				run_one(name, sim_policy(i), NULL, 20);
				runs++;
				continue;
			}
			for (size_t k = 0; k < sizeof(stress_kernels) / sizeof(stress_kernels[0]); k++, runs++)
				run_one(name, sim_policy(i), stress_kernels[k], 60);
		}
		p += len;
		p += strspn(p, ", ");
	}
	printf("test_sim_matrix: %u runs ended\n", runs);
	assert_true(runs >= 25);
}

/* The README's table columns, in order, and its rows: the sizes' means, then usable memory. */
static const char *const readme_policies[] = { "cma", "gcma", "predict" };
#define README_ROWS	9

/* Row @row's cell for policy @col as the README prints it, from @r. */
static void readme_cell(const struct sim_result *r, unsigned row, char *cell, size_t len)
{
	char ms[FIGURE_MAX];

	if (row + 1 < README_ROWS)
		snprintf(cell, len, "%s ms", fmt_ms(ms, r->devices[row].lat.mean));
	else
		snprintf(cell, len, "%.1f MiB", (double)(r->usable_avg_pages * r->page_bytes) / (1 << 20));
}

/*
 * Expect (make stress): the README's gcma-board table says what the
 * scenario gives now, cell for cell (JSON latency_ms.mean and
 * usable_avg_pages), under each of its three policies: a change that
 * moves a figure fails here until the README is brought up to date.
 */
static void readme_gcma_table_is_current(void **state)
{
	char path[4096], line[512], cell[README_ROWS][3][32];
	unsigned row = 0;
	FILE *f;

	if (!getenv("CMA_TEST_EXHAUSTIVE"))
		skip();
	for (unsigned c = 0; c < 3; c++) {
		struct scenario *sc = calloc(1, sizeof(*sc));
		struct sim_options o = { .policy = sim_policy_find(readme_policies[c]) };
		struct sim_result r;
		char err[256];

		assert_non_null(sc);
		assert_non_null(o.policy);
		assert_int_equal(scenario_builtin("gcma-board", sc, err, sizeof(err)), 0);
		assert_int_equal(sim_run(sc, &o, &r), 0);
		assert_int_equal(r.nr_devices, README_ROWS - 1);
		for (unsigned i = 0; i < README_ROWS; i++)
			readme_cell(&r, i, cell[i][c], sizeof(cell[i][c]));
		sim_result_free(&r);
		free(sc);
	}
	assert_int_equal(test_source_path("README.md", path, sizeof(path)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && row < README_ROWS) {
		char *p = line;

		/* the table's rows: "| 1 page | cma | gcma | predict | published ..." from its first row on */
		if (strncmp(line, row ? "| " : "| 1 page |", row ? 2 : 9))
			continue;
		for (unsigned c = 0; c < 3; c++) {
			p = strchr(p + 1, '|');
			assert_non_null(p);
			if (strncmp(p + 2, cell[row][c], strlen(cell[row][c])) || p[2 + strlen(cell[row][c])] != ' ')
				fail_msg("README.md, gcma-board's table, row %u, %s: the run gives %s, the README %.*s",
					 row + 1, readme_policies[c], cell[row][c], (int)strcspn(p + 2, "|") - 1, p + 2);
		}
		row++;
	}
	fclose(f);
	assert_int_equal(row, README_ROWS);
	printf("README.md: gcma-board's table, %u rows of 3 policies, as the runs give\n", row);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_builtin_under_every_policy_ends),
		cmocka_unit_test(readme_gcma_table_is_current),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
