// SPDX-License-Identifier: GPL-2.0
/*
 * A device tree's own default CMA pool against cma=, through the
 * simulator (tools/cmasim, all but main.c) on tests/dt/board-arm64.dts:
 * 1 GiB at 0x40000000, a dynamic 64 MiB linux,cma-default pool, a static
 * 32 MiB reusable pool for the vpu.
 *
 * Expect (6.12 fdt_init_reserved_mem_node, rmem_cma_setup): cma= on the
 * command line bypasses the pool, which is given back, so MemTotal is
 * the same with the pool, with cma=0, with cma=N and under carveout
 * (which adds cma=0); --platform with such a tree keeps the pool over
 * the scenario's own cma= and says so, while --cma and --cmdline still
 * replace it (and so does a sweep's grid over cma); each area's origin
 * is in every report; and `cmasim size` reports at its answer the usable
 * memory a plain run with that cma= has.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "cli/commands.h"
#include "report/report.h"
#include "cli/run_options.h"
#include "engine/sim_api.h"
#include "policies/registry.h"

#define MiB (1ull << 20)

static char board[PATH_MAX];	/* tests/dt/board-arm64.dts */

/*
 * The board with one device whose 8 MiB buffers (above the buddy
 * allocator's largest block) only CMA serves: two at a time, 16 MiB.
 */
static const char *scenario_text(const char *cmdline, char ini[PATH_MAX + 256])
{
	snprintf(ini, PATH_MAX + 256,
		 "[scenario]\nplatform = %s\ncmdline = %s\nduration = 2s\n"
		 "[device cam]\nsize = 8M\nring = 2\nperiod = 100ms\n", board, cmdline);
	return ini;
}

static struct scenario *scenario(const char *cmdline)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	char ini[PATH_MAX + 256], err[768];

	assert_non_null(sc);
	scenario_text(cmdline, ini);
	if (scenario_parse("test.ini", ini, sc, err, sizeof(err)))
		fail_msg("the test's scenario does not parse: %s", err);
	return sc;
}

static void run(const struct scenario *sc, const char *policy, struct sim_result *res)
{
	struct sim_options o = { .policy = sim_policy_find(policy) };
	int ret;

	assert_non_null(o.policy);
	ret = sim_run(sc, &o, res);
	if (ret)
		fail_msg("sim_run under policy %s: expected 0, found %d (see stderr)", policy, ret);
}

/* @sc with --platform BOARD and the overrides @o, as cmasim run applies them; its stderr in *@err. */
static void apply_platform(struct scenario *sc, const struct scenario_overrides *o, char **err)
{
	FILE *saved = stderr;
	size_t len = 0;

	stderr = open_memstream(err, &len);
	assert_non_null(stderr);
	assert_int_equal(scenario_platform_apply(sc, board, o, false, "run"), 0);
	assert_int_equal(scenario_overrides_apply(sc, o, "run"), 0);
	fclose(stderr);
	stderr = saved;
}

static void expect_area(const struct sim_result *r, unsigned i, const char *name, uint64_t mib,
			enum area_origin origin, const char *node)
{
	const struct area_result *a = &r->areas[i];

	if (i >= r->nr_areas)
		fail_msg("expected area %u (%s), found %u areas", i, name, r->nr_areas);
	if (strcmp(a->name, name) || a->pages * 4096 != mib * MiB || a->origin != origin ||
	    (node && strcmp(a->dt_node, node)))
		fail_msg("area %u: expected %s, %llu MiB, origin %d %s; found %s, %llu MiB, origin %d %s", i, name,
			 (unsigned long long)mib, origin, node ? node : "", a->name,
			 (unsigned long long)(a->pages * 4096 / MiB), a->origin,
			 a->origin == AREA_FROM_DT ? a->dt_node : "");
}

/*
 * Expect: a scenario whose command line has cma=16M, run with --platform
 * BOARD and nothing else, keeps the board's 64 MiB pool as its default
 * area and says so on stderr; --cma 16M, --cmdline and --set
 * scenario.cma make the cma= area the default again.
 */
static void platform_dt_keeps_pool_over_scenario_cma(void **state)
{
	static const struct scenario_overrides none, cma = { .cma = "16M" },
		cmdline = { .cmdline = "console=ttyS0 cma=16M" }, set = { .sets = { "scenario.cma=16M" }, .nr_sets = 1 };
	const struct scenario_overrides *replacing[] = { &cma, &cmdline, &set };
	struct scenario *sc = scenario("console=ttyS0 cma=16M");
	struct sim_result r;
	char *err;

	apply_platform(sc, &none, &err);
	assert_non_null(strstr(err, "board-arm64.dts has its own default CMA pool, /reserved-memory/linux,cma (64 MiB): "
				    "it is used, not scenario test's cma=16M"));
	assert_string_equal(sc->cmdline, "console=ttyS0");
	free(err);
	run(sc, "cma", &r);
	expect_area(&r, 0, "default", 64, AREA_FROM_DT, "linux,cma");
	expect_area(&r, 1, "38300000.vpu", 32, AREA_FROM_DT, "vpu@60000000");
	sim_result_free(&r);
	free(sc);
	for (size_t i = 0; i < sizeof(replacing) / sizeof(replacing[0]); i++) {
		sc = scenario("console=ttyS0 cma=16M");
		apply_platform(sc, replacing[i], &err);
		assert_string_equal(err, "");
		free(err);
		run(sc, "cma", &r);
		expect_area(&r, 0, "default", 16, AREA_FROM_CMDLINE, NULL);
		sim_result_free(&r);
		free(sc);
	}
}

/*
 * Expect: the machine's memory as the reports count it (MemTotal, the
 * pages managed at boot, with carveout's carve-outs) with the board's
 * pool equals that with cma=0 and cma=16M under cma, and under carveout
 * and buddy (cma=0, the tree's CMA pools failing as without CMA, its
 * no-map regions kept): a pool that fails is given back. Kept reserved,
 * it would take 64 MiB off; carveout and buddy used to drop the tree's
 * whole /reserved-memory, 5 MiB of no-map regions too.
 */
static void pool_bypassed_is_given_back(void **state)
{
	static const struct { const char *cmdline, *policy; } boots[] = {
		{ "console=ttyS0 cma=0", "cma" }, { "console=ttyS0 cma=16M", "cma" },
		{ "console=ttyS0", "carveout" }, { "console=ttyS0", "buddy" },
	};
	struct scenario *sc = scenario("console=ttyS0");
	struct sim_result pool, r;

	run(sc, "cma", &pool);
	expect_area(&pool, 0, "default", 64, AREA_FROM_DT, "linux,cma");
	free(sc);
	for (size_t i = 0; i < sizeof(boots) / sizeof(boots[0]); i++) {
		sc = scenario(boots[i].cmdline);
		run(sc, boots[i].policy, &r);
		if (r.total_pages != pool.total_pages)
			fail_msg("%s under %s: %llu MiB of memory (%llu MiB of it carved out), with the board's pool %llu MiB",
				 boots[i].cmdline, boots[i].policy, (unsigned long long)(r.total_pages * 4096 / MiB),
				 (unsigned long long)(r.carveout_pages * 4096 / MiB),
				 (unsigned long long)(pool.total_pages * 4096 / MiB));
		sim_result_free(&r);
		free(sc);
	}
	sim_result_free(&pool);
}

typedef int (*report_fn)(const struct sim_result *, unsigned, FILE *);

/* @report of @runs (@what, for the message) has each string after @nr, up to a NULL, in it. */
static void expect_report(const char *what, report_fn report, const struct sim_result *runs, unsigned nr, ...)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const char *want;
	va_list ap;

	assert_non_null(f);
	assert_int_equal(report(runs, nr, f), 0);
	assert_int_equal(fclose(f), 0);
	va_start(ap, nr);
	while ((want = va_arg(ap, const char *)))
		if (!strstr(text, want))
			fail_msg("%s: expected \"%s\" in it; found:\n%s", what, want, text);
	va_end(ap);
	free(text);
}

/*
 * Expect: the run's text, JSON and HTML reports and a comparison's text
 * name each area's origin: the tree's pools; the default area of cma=
 * (scenario BOARD_ARM) and of Kconfig (no cma=); a device's own area
 * (dma_declare_contiguous).
 */
static void area_origin_in_every_report(void **state)
{
	static const char arm[] = "[scenario]\nplatform = arm\nmemory = 128M\nduration = 1s\ncmdline = %s\n"
				  "[device cam]\nsize = 1M\nperiod = 100ms\ncma = 8M\n";
	struct scenario *sc = scenario("console=ttyS0");
	struct sim_result runs[2];
	char ini[256], err[768];

	run(sc, "cma", &runs[0]);
	run(sc, "buddy", &runs[1]);
	expect_report("the text report", report_text, runs, 1, "linux,cma from the device tree\n",
		      "vpu@60000000 from the device tree\n", NULL);
	expect_report("the JSON report", report_json, runs, 1,
		      "\"origin\": \"device_tree\",\n            \"dt_node\": \"linux,cma\"\n", NULL);
	expect_report("the HTML report", report_html, runs, 1,
		      "<td class=\"l\">linux,cma from the device tree</td>", NULL);
	expect_report("the comparison", report_text, runs, 2,
		      "CMA areas under cma: default 64.0 MiB (linux,cma from the device tree), "
		      "38300000.vpu 32.0 MiB (vpu@60000000 from the device tree)\n", NULL);
	sim_result_free(&runs[0]);
	sim_result_free(&runs[1]);
	for (int kconfig = 0; kconfig < 2; kconfig++) {
		snprintf(ini, sizeof(ini), arm, kconfig ? "console=ttyS0" : "cma=16M");
		memset(sc, 0, sizeof(*sc));
		if (scenario_parse("arm.ini", ini, sc, err, sizeof(err)))
			fail_msg("the test's scenario does not parse: %s", err);
		run(sc, "cma", &runs[0]);
		expect_area(&runs[0], 0, "default", 16, kconfig ? AREA_FROM_KCONFIG : AREA_FROM_CMDLINE, NULL);
		expect_area(&runs[0], 1, "cam", 8, AREA_FROM_DECLARED, NULL);
		expect_report("the JSON report", report_json, runs, 1,
			      kconfig ? "\"origin\": \"kconfig\",\n            \"dt_node\": null\n"
				      : "\"origin\": \"cmdline\",\n            \"dt_node\": null\n",
			      "\"origin\": \"dma_declare_contiguous\",\n            \"dt_node\": null\n", NULL);
		expect_report("the text report", report_text, runs, 1,
			      kconfig ? "Kconfig default\n" : "cma= on the command line\n", "dma_declare_contiguous\n",
			      NULL);
		sim_result_free(&runs[0]);
	}
	free(sc);
}

/*
 * `cmasim ARGS...` by @cmd in this process: its standard output (free()
 * it), its standard error in *@err (free() it); its status must be 0.
 */
static char *command_output(int (*cmd)(int, char **), const char *const *args, int argc, char **err)
{
	char path[] = "/tmp/test_dt_pool.XXXXXX", *argv[16], *out;
	int fd = mkstemp(path), saved = dup(1);
	FILE *saved_err = stderr, *f;
	size_t err_len = 0;
	long len;
	int status;

	assert_true(fd >= 0 && saved >= 0 && argc < 16);
	for (int i = 0; i < argc; i++)
		argv[i] = (char *)args[i];
	argv[argc] = NULL;
	fflush(stdout);
	assert_int_equal(dup2(fd, 1), 1);
	stderr = open_memstream(err, &err_len);
	assert_non_null(stderr);
	status = cmd(argc, argv);
	fclose(stderr);
	stderr = saved_err;
	fflush(stdout);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	f = fdopen(fd, "r");
	unlink(path);
	if (status)
		fail_msg("cmasim %s: expected status 0, found %d; stderr:\n%s", args[0], status, *err);
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	out = calloc(1, (size_t)len + 1);
	assert_non_null(out);
	assert_int_equal(fread(out, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return out;
}

/*
 * Expect: a sweep with --platform BOARD says once that the board's pool
 * is used when its grid leaves cma= alone, and not when the grid sizes
 * the default area (cma, scenario.cma): each point's --cma replaces it.
 */
static void sweep_grid_over_cma_replaces_pool(void **state)
{
	static const char *const grids[] = { "camera.ring=2,3", "cma=16M,32M", "scenario.cma=16M,32M" };
	char dir[] = "/tmp/test_dt_pool.XXXXXX", manifest[64], *out, *err;
	const char *args[] = { "sweep", "--platform", board, "--param", NULL, "--seeds", "1", "-o", dir,
			       "--print-commands" };

	assert_non_null(mkdtemp(dir));
	snprintf(manifest, sizeof(manifest), "%s/sweep-points.tsv", dir);

	for (size_t i = 0; i < sizeof(grids) / sizeof(grids[0]); i++) {
		bool said;

		args[4] = grids[i];
		out = command_output(cmd_sweep, args, sizeof(args) / sizeof(args[0]), &err);
		said = strstr(err, "board-arm64.dts has its own default CMA pool") != NULL;
		if (said != !i)
			fail_msg("sweep --param %s: expected %s the pool on stderr; found \"%s\"", grids[i],
				 i ? "nothing about" : "a line about", err);
		free(out);
		free(err);
		unlink(manifest);
	}
	assert_int_equal(rmdir(dir), 0);
}

/*
 * Expect: size on the board (each point's cma= bypassing the pool)
 * answers cma=18M (the camera's two 8 MiB buffers, and the arm64 atomic
 * DMA pools' 384 KiB at the area's start, in 2 MiB steps), and its
 * table's usable MiB there is a plain run's with cma=18M (seed 1, the
 * scenario's), whose MemTotal is the board's with its pool.
 */
static void size_usable_matches_run_at_its_answer(void **state)
{
	char ini_path[] = "/tmp/test_dt_pool.ini.XXXXXX", ini[PATH_MAX + 256], row[64], *out, *err;
	const char *args[] = { "size", "--scenario", ini_path, "--seeds", "1", "--jobs", "1", "--max", "64M" };
	struct scenario *sc = scenario("console=ttyS0");
	struct sim_result pool, r;
	int fd = mkstemp(ini_path);
	FILE *f = fdopen(fd, "w");

	assert_non_null(f);
	fputs(scenario_text("console=ttyS0", ini), f);
	assert_int_equal(fclose(f), 0);
	out = command_output(cmd_size, args, sizeof(args) / sizeof(args[0]), &err);
	free(err);
	unlink(ini_path);
	if (!strstr(out, "smallest: cma=18M\n") || !strstr(out, "\n     18M  served"))
		fail_msg("size: expected a row \"18M  served\" and \"smallest: cma=18M\"; found:\n%s", out);
	run(sc, "cma", &pool);
	free(sc);
	sc = scenario("console=ttyS0 cma=18M");
	run(sc, "cma", &r);
	if (r.total_pages != pool.total_pages)
		fail_msg("cma=18M: %llu pages of memory, with the board's pool %llu", (unsigned long long)r.total_pages,
			 (unsigned long long)pool.total_pages);
	snprintf(row, sizeof(row), "%10.1f\n", (double)r.usable_avg_pages * 4096 / MiB);
	if (strncmp(strchr(strstr(out, "\n     18M  served") + 1, '\n') - strlen(row) + 1, row, strlen(row)))
		fail_msg("size's row for cma=18M: expected usable MiB%s(a run's with cma=18M); found:\n%s", row, out);
	free(out);
	sim_result_free(&pool);
	sim_result_free(&r);
	free(sc);
}

static int setup(void **state)
{
	return test_source_path("tests/dt/board-arm64.dts", board, sizeof(board));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(platform_dt_keeps_pool_over_scenario_cma),
		cmocka_unit_test(pool_bypassed_is_given_back),
		cmocka_unit_test(area_origin_in_every_report),
		cmocka_unit_test(size_usable_matches_run_at_its_answer),
		cmocka_unit_test(sweep_grid_over_cma_replaces_pool),
	};

	return cmocka_run_group_tests_name("a device tree's own CMA pool and cma=", tests, setup, NULL);
}
