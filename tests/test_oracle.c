// SPDX-License-Identifier: GPL-2.0
/*
 * make oracle's comparison (bench/oracle/compare.sh), short: two
 * experiments' committed guest results against cmasim's runs of their
 * scenarios, no QEMU. What is checked is that it compares, not what it
 * finds: a line per figure with the kernel's figure from
 * bench/oracle/results/figures.txt and cmasim's from its own run, a
 * verdict each, and the closing count equal to the lines that agree.
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

#define MAX_ROWS 32

struct row {
	char exp[64], fig[32], kernel[256], sim[256], verdict[16];
};

struct comparison {
	struct row rows[MAX_ROWS];
	int nr, agree_said, total_said, agree_seen;
};

static char compare_sh[PATH_MAX], scenarios[PATH_MAX], sim[PATH_MAX];

/* Runs compare.sh with @scen as its scenarios on @exps; returns its exit status. */
static int compare(const char *scen, const char *exps, struct comparison *c)
{
	char dir[] = "/tmp/test_oracle.XXXXXX", cmd[3 * PATH_MAX], line[1024];
	bool header = false;
	FILE *p;
	int rc;

	memset(c, 0, sizeof(*c));
	c->total_said = -1;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s -s %s -o %s -c %s %s", compare_sh, scen, dir, sim, exps);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		struct row *r = &c->rows[c->nr];

		if (!header) {
			assert_string_equal(line, "experiment           figure        kernel                       cmasim                       verdict\n");
			header = true;
			continue;
		}
		if (sscanf(line, "oracle: %d of %d agree", &c->agree_said, &c->total_said) == 2)
			continue;
		assert_int_equal(c->total_said, -1);	/* the count is the last line */
		assert_true(c->nr < MAX_ROWS);
		assert_int_equal(sscanf(line, "%63s %31s %255s %255s %15s", r->exp, r->fig, r->kernel, r->sim,
					r->verdict), 5);
		c->agree_seen += !strcmp(r->verdict, "agree");
		c->nr++;
	}
	rc = pclose(p);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	return rc;
}

/* The kernel's figure @key= of @exp in results/figures.txt. */
static void kernel_figure(const char *exp, const char *key, char *val, size_t len)
{
	char path[PATH_MAX], want[64];
	char *text, *line, *f;

	assert_int_equal(test_source_path("bench/oracle/results/figures.txt", path, sizeof(path)), 0);
	text = test_read_file(path);
	snprintf(want, sizeof(want), "\n%s ", exp);
	line = strstr(text, want);
	assert_non_null(line);
	snprintf(want, sizeof(want), " %s=", key);
	f = strstr(line, want);
	assert_non_null(f);
	f += strlen(want);
	snprintf(val, len, "%.*s", (int)strcspn(f, " \n"), f);
	free(text);
}

/* A line per figure, the kernel's as committed, cmasim's its own, and the count that adds up. */
static void compare_prints_each_figure_and_the_count(void **state)
{
	static const char *const figs[] = { "got", "pfns", "migrated", "busy_retries", "time" };
	static const char *const exps[] = { "arm64-idle-1g", "arm64-vmsplice-1g" };
	struct comparison c;
	char want[256];

	assert_int_equal(compare(scenarios, "arm64-idle-1g arm64-vmsplice-1g", &c), 0);
	assert_int_equal(c.nr, 10);
	for (int i = 0; i < c.nr; i++) {
		const struct row *r = &c.rows[i];

		assert_string_equal(r->exp, exps[i / 5]);
		assert_string_equal(r->fig, figs[i % 5]);
		if (i % 5 == 4) {
			assert_string_equal(r->verdict, "reported");
			continue;
		}
		assert_true(!strcmp(r->verdict, "agree") || !strcmp(r->verdict, "disagree"));
		kernel_figure(r->exp, r->fig, want, sizeof(want));
		assert_string_equal(r->kernel, want);
	}
	/* cmasim's pool: the granted page's pfn run (cmasim_hugetlb_page), not "-" */
	assert_int_equal(strncmp(c.rows[1].sim, "0x", 2), 0);
	assert_non_null(strchr(c.rows[1].sim, '+'));
	assert_int_equal(c.total_said, 8);
	assert_int_equal(c.agree_said, c.agree_seen);
}

/* A scenario asking two pages where the guest asked one: the pages got disagree. */
static void compare_sets_cmasim_against_the_kernel(void **state)
{
	char dir[] = "/tmp/test_oracle_scen.XXXXXX", src[PATH_MAX + 32], dst[64], cmd[2 * PATH_MAX];
	char *text, *count;
	struct comparison c;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/arm64-idle-1g.ini", scenarios);
	text = test_read_file(src);
	count = strstr(text, "\ncount = 1\n");
	assert_non_null(count);
	count[9] = '2';
	snprintf(dst, sizeof(dst), "%s/arm64-idle-1g.ini", dir);
	f = fopen(dst, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	free(text);
	/* the board is named relative to the scenario's directory, which moved */
	snprintf(cmd, sizeof(cmd), "sed -i 's|^platform = |platform = %s/|' %s", scenarios, dst);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(compare(dir, "arm64-idle-1g", &c), 0);
	assert_string_equal(c.rows[0].fig, "got");
	assert_string_equal(c.rows[0].kernel, "1/1");
	assert_int_equal(strncmp(c.rows[0].sim, "1/2", 3) && strncmp(c.rows[0].sim, "2/2", 3), 0);
	assert_string_equal(c.rows[0].verdict, "disagree");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * The row of @exp's figure @fig in @c, which says @kernel and agrees, and
 * says @cmasim_fig for cmasim unless NULL (a figure within a tolerance).
 */
static const struct row *expect_row(const struct comparison *c, const char *exp, const char *fig,
				    const char *kernel, const char *cmasim_fig)
{
	for (int i = 0; i < c->nr; i++) {
		const struct row *r = &c->rows[i];

		if (strcmp(r->exp, exp) || strcmp(r->fig, fig))
			continue;
		assert_string_equal(r->kernel, kernel);
		if (cmasim_fig)
			assert_string_equal(r->sim, cmasim_fig);
		assert_string_equal(r->verdict, "agree");
		return r;
	}
	fail_msg("no row %s %s", exp, fig);
	return NULL;
}

/*
 * With the guest kernel's boot-time pages ([slab boot], from the idle
 * run's zoneinfo), x86's alloc_contig_pages finds the bottom of ZONE_NORMAL
 * unmovable and takes DMA32's 0x40000 unmigrated, as the guest did; and on
 * arm64 as much of the fill enters the hugetlb_cma area as in the guest.
 * Without them cmasim took 0x100000 and migrated 35,393 pages of 43,472.
 */
static void compare_agrees_with_the_guests_boot_time_pages(void **state)
{
	struct comparison c;

	assert_int_equal(compare(scenarios, "amd64-idle-1g arm64-anon-1g", &c), 0);
	expect_row(&c, "amd64-idle-1g", "pfns", "0x40000+262144", "0x40000+262144");
	assert_true(atol(expect_row(&c, "arm64-anon-1g", "migrated", "43472", NULL)->sim) > 0);
}

/*
 * The importer's route beside the scenario's: the x86 guest's snapshot
 * through `cmasim import --what-if`, which has the kernel's late slab
 * pages at 0x4cc00 and so refuses every range, as the guest did under
 * 3000 MiB; the scenario's run still grants 0x40000.
 */
static void compare_answers_x86_through_the_importer(void **state)
{
	struct comparison c;

	assert_int_equal(compare(scenarios, "amd64-anon-1g", &c), 0);
	expect_row(&c, "amd64-anon-1g", "import", "-", "-");
	assert_int_equal(c.total_said, 5);
	assert_int_equal(c.agree_said, c.agree_seen);
}

/* The committed scenarios are scenario.sh's output from the committed results, unedited. */
static void scenarios_are_what_scenario_sh_writes(void **state)
{
	/*
	 * arm64-dirty-1g: its tmpfs image is the guest's Shmem (before/meminfo);
	 * arm64-cache-1g: its disk is memory (storage_memory)
	 */
	static const char *const exps[] = { "amd64-idle-1g", "arm64-anon-1g", "arm64-vmsplice-32m",
					    "arm64-dirty-1g", "arm64-cache-1g" };
	char dir[] = "/tmp/test_oracle_gen.XXXXXX", sh[PATH_MAX], cmd[3 * PATH_MAX + 64];

	assert_non_null(mkdtemp(dir));
	assert_int_equal(test_source_path("bench/oracle/scenario.sh", sh, sizeof(sh)), 0);
	snprintf(cmd, sizeof(cmd), "%s -o %s %s %s %s %s %s", sh, dir, exps[0], exps[1], exps[2], exps[3],
		 exps[4]);
	assert_int_equal(system(cmd), 0);
	for (unsigned i = 0; i < sizeof(exps) / sizeof(exps[0]); i++) {
		snprintf(cmd, sizeof(cmd), "cmp %s/%s.ini %s/%s.ini", scenarios, exps[i], dir, exps[i]);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(cmd, sizeof(cmd), "grep -q '^\\[slab boot\\]$' %s/%s.ini", dir, exps[0]);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "grep -q '^storage_memory = yes$' %s/%s.ini", dir, exps[4]);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A comparison that cannot run (no such experiment) says so and exits 2. */
static void compare_refuses_an_unknown_experiment(void **state)
{
	struct comparison c;
	int rc = compare(scenarios, "no-such-experiment 2>/dev/null", &c);

	assert_true(WIFEXITED(rc));
	assert_int_equal(WEXITSTATUS(rc), 2);
	assert_int_equal(c.total_said, -1);
}

static int setup(void **state)
{
	if (test_source_path("bench/oracle/compare.sh", compare_sh, sizeof(compare_sh)) ||
	    test_source_path("bench/oracle/scenarios", scenarios, sizeof(scenarios)))
		return -1;
	return test_cmasim_program("test_oracle", sim, sizeof(sim));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compare_prints_each_figure_and_the_count),
		cmocka_unit_test(compare_sets_cmasim_against_the_kernel),
		cmocka_unit_test(compare_refuses_an_unknown_experiment),
		cmocka_unit_test(compare_agrees_with_the_guests_boot_time_pages),
		cmocka_unit_test(compare_answers_x86_through_the_importer),
		cmocka_unit_test(scenarios_are_what_scenario_sh_writes),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
