// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/check-layers.sh must fail on a violation of each rule it keeps.
 * Each test copies the sources and the build's objects into a scratch
 * tree, plants one violation there (a file or a few lines added, and its
 * object compiled), runs the check on the copy and looks for its
 * complaint. The tree itself must pass (make test runs the check on it).
 */
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stddef.h>
#include <cmocka.h>

static char source_dir[PATH_MAX + 4], build_dir[PATH_MAX], scratch[PATH_MAX];

/* Run sh -c on a formatted command: its exit status, its output in @out (may be NULL). */
static int shell(char *out, size_t len, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	FILE *p;
	size_t n = 0;
	int status;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	assert_non_null(p);
	if (out) {
		n = fread(out, 1, len - 1, p);
		out[n] = '\0';
	} else {
		char sink[4096];

		while (fread(sink, 1, sizeof(sink), p) > 0)
			;
	}
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A copy of the tree in scratch/w: its sources, and its objects in scratch/w/B. */
static int copy_tree(void)
{
	return shell(NULL, 0,
		     "set -e; mkdir -p '%1$s/w/B'; cd '%2$s';"
		     " cp -r include src tools scripts Makefile '%1$s/w/';"
		     " cd '%3$s'; find src tools -name '*.o' -exec cp --parents -t '%1$s/w/B' {} +;"
		     " cp libcma.so '%1$s/w/B/'",
		     scratch, source_dir, build_dir);
}

/* The file planted in the copy, put back as the tree has it after each test. */
static char planted[PATH_MAX];

static int restore(void **state)
{
	size_t n = strlen(planted);

	if (!n)
		return 0;
	/* a file of the tree is copied back with its object; a new one goes */
	if (shell(NULL, 0,
		  "cd '%1$s/w' && f='%2$s' && o=B/'%3$.*4$s'.o &&"
		  " if [ -e '%5$s'/\"$f\" ]; then cp '%5$s'/\"$f\" \"$f\" &&"
		  "  { [ ! -e '%6$s'/\"${o#B/}\" ] || cp '%6$s'/\"${o#B/}\" \"$o\"; };"
		  " else rm -f \"$f\" \"$o\"; fi",
		  scratch, planted, planted, (int)(n > 2 ? n - 2 : n), source_dir, build_dir))
		return -1;
	planted[0] = '\0';
	return 0;
}

/* Add @text to the copy's @file (created if new), and compile it into the copy's objects if a .c. */
static void plant(const char *file, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;
	size_t n = strlen(file);

	snprintf(planted, sizeof(planted), "%s", file);
	snprintf(path, sizeof(path), "%s/w/%s", scratch, file);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	if (n > 2 && !strcmp(file + n - 2, ".c"))
		assert_int_equal(shell(NULL, 0,
				       "cd '%s/w' && o=B/'%.*s'.o && mkdir -p \"$(dirname $o)\" && rm -f $o &&"
				       " cc -std=c11 -D_GNU_SOURCE -fPIC -pthread -Iinclude -Isrc -Itools/cmasim"
				       " -DCMA_DEBUG=1 -w -c -o $o '%s' 2>&1",
				       scratch, (int)(n - 2), file, file), 0);
}

/* The check on the copy fails, saying @expect. */
static void check_fails_saying(const char *expect)
{
	char out[16384];
	int ret = shell(out, sizeof(out), "cd '%s/w' && sh scripts/check-layers.sh B 2>&1", scratch);

	if (ret != 1 || !strstr(out, expect))
		fail_msg("check-layers: exit %d (1 wanted), no \"%s\" in:\n%s", ret, expect, out);
}

static void the_copy_passes(void **state)
{
	char out[4096];

	if (shell(out, sizeof(out), "cd '%s/w' && sh scripts/check-layers.sh B 2>&1", scratch))
		fail_msg("the unplanted copy fails:\n%s", out);
}

static void library_call_up_fails(void **state)
{
	plant("src/lib/planted.c", "extern int cma_mm_verify();\nint planted(void) { return cma_mm_verify(); }\n");
	check_fails_saying("src/lib/planted.c calls up into src/mm/");
}

static void mobility_calling_the_slow_path_fails(void **state)
{
	plant("src/mm/migrate.c", "\nvoid *planted_slowpath(void) { return (void *)__alloc_pages; }\n");
	check_fails_saying("mobility src/mm/migrate.c calls the slow path src/mm/slowpath.c");
}

static void lock_held_without_assertion_fails(void **state)
{
	plant("src/mm/page_alloc.c", "\n/* Called with zone->lock held. */\nvoid planted_unasserted(void)\n{\n}\n");
	check_fails_saying("planted_unasserted() is said to hold a lock but does not lockdep_assert_held() it");
}

/* proc.c hands the 6.x layouts to proc_v6.c: proc_v6.c calling proc.c back closes a circle. */
static void mm_circle_fails(void **state)
{
	plant("src/mm/proc_v6.c", "\nvoid *planted_call_back(void) { return (void *)cma_write_proc; }\n");
	check_fails_saying("the src/mm files call each other in a circle");
}

/* mapping.c -> arch_x86.c -> direct.c: direct.c calling mapping.c closes a circle. */
static void dma_circle_fails(void **state)
{
	plant("src/dma/direct.c", "\nvoid *planted_call_back(void) { return (void *)arch_setup_dma_ops; }\n");
	check_fails_saying("the src/dma files call each other in a circle");
}

static void ground_calling_a_file_fails(void **state)
{
	plant("src/mm/mmzone.c", "\nextern void __free_pages();\nvoid *planted_call(void) { return (void *)__free_pages; }\n");
	check_fails_saying("the ground file src/mm/mmzone.c calls src/mm/page_alloc.c");
}

/* alloc_cma (3.8), highatomic (4.4) and cma_balance (5.8) in one body: three eras mixed. */
static void function_reading_three_switches_fails(void **state)
{
	plant("src/mm/page_alloc.c", "\nint planted_eras(struct cma_mm *mm);\nint planted_eras(struct cma_mm *mm)\n{\n"
	      "\tconst struct kernel_profile *k = &mm->kernel;\n\n"
	      "\t/* kernel.watermark_boost: a comment is no read */\n"
	      "\treturn mm->kernel.alloc_cma + mm->kernel.highatomic * 2 + k->cma_balance * 4;\n}\n");
	check_fails_saying("src/mm/page_alloc.c:");
	check_fails_saying(": planted_eras() reads 3 profile switches (alloc_cma, highatomic, cma_balance): "
			   "split it into era variants");
}

/* Two switches, however often read, pass. */
static void function_reading_two_switches_passes(void **state)
{
	plant("src/mm/page_alloc.c", "\nint planted_eras(struct cma_mm *mm);\nint planted_eras(struct cma_mm *mm)\n{\n"
	      "\t/* kernel.watermark_boost: a comment is no read */\n"
	      "\treturn mm->kernel.alloc_cma + mm->kernel.highatomic * 2 + mm->kernel.alloc_cma;\n}\n");
	the_copy_passes(state);
}

static void declared_but_not_exported_fails(void **state)
{
	plant("include/cma/cma.h", "\nint cma_planted_declaration(void);\n");
	check_fails_saying("include/cma/cma.h declares cma_planted_declaration not exported");
}

static void simulator_folder_circle_fails(void **state)
{
	/* cli/ calls board/; board/ calling cli/ closes a circle */
	plant("tools/cmasim/board/planted.c", "extern int cmd_run();\nint planted(void) { return cmd_run(); }\n");
	check_fails_saying("cmasim's folders call each other in a circle");
}

/* machine.c runs the boot and the areas' accounting of area.c: area.c calling sim_run() back closes a circle. */
static void simulator_file_circle_fails(void **state)
{
	plant("tools/cmasim/engine/area.c", "\nvoid *planted_call_back(void) { return (void *)sim_run; }\n");
	check_fails_saying("the tools/cmasim/engine files call each other in a circle");
}

static void engine_calling_a_workload_fails(void **state)
{
	plant("tools/cmasim/engine/planted.c", "extern const int wl_kind_anon;\nconst void *planted = &wl_kind_anon;\n");
	check_fails_saying("the engine calls workloads/ directly: tools/cmasim/engine/planted.c calls wl_kind_anon");
}

static void engine_calling_a_policy_fails(void **state)
{
	plant("tools/cmasim/engine/planted.c", "extern int sim_policy_find();\nint planted(void) { return sim_policy_find(); }\n");
	check_fails_saying("the engine calls policies/ directly: tools/cmasim/engine/planted.c calls sim_policy_find");
}

static void struct_sim_outside_the_engine_fails(void **state)
{
	plant("tools/cmasim/workloads/wl_compact.c", "\n#include \"engine/sim.h\"\n");
	check_fails_saying("tools/cmasim/workloads/wl_compact.c includes engine/sim.h, the engine's own");
}

static void simulator_calling_the_library_inside_fails(void **state)
{
	plant("tools/cmasim/util/planted.c", "extern int cma_alloc();\nint planted(void) { return cma_alloc(); }\n");
	check_fails_saying("tools/cmasim/util/planted.c calls the library's cma_alloc, not declared in include/cma/cma.h");
}

static int setup(void **state)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *tmp;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	/* BUILD/tests/test_layers -> BUILD -> the source tree */
	snprintf(build_dir, sizeof(build_dir), "%s", dirname(dirname(exe)));
	snprintf(source_dir, sizeof(source_dir), "%s/..", build_dir);
	snprintf(scratch, sizeof(scratch), "%s/test_layers.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	tmp = mkdtemp(scratch);
	return tmp && !copy_tree() ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(the_copy_passes, restore),
		cmocka_unit_test_teardown(library_call_up_fails, restore),
		cmocka_unit_test_teardown(mobility_calling_the_slow_path_fails, restore),
		cmocka_unit_test_teardown(lock_held_without_assertion_fails, restore),
		cmocka_unit_test_teardown(mm_circle_fails, restore),
		cmocka_unit_test_teardown(dma_circle_fails, restore),
		cmocka_unit_test_teardown(ground_calling_a_file_fails, restore),
		cmocka_unit_test_teardown(function_reading_three_switches_fails, restore),
		cmocka_unit_test_teardown(function_reading_two_switches_passes, restore),
		cmocka_unit_test_teardown(declared_but_not_exported_fails, restore),
		cmocka_unit_test_teardown(simulator_folder_circle_fails, restore),
		cmocka_unit_test_teardown(simulator_file_circle_fails, restore),
		cmocka_unit_test_teardown(engine_calling_a_workload_fails, restore),
		cmocka_unit_test_teardown(engine_calling_a_policy_fails, restore),
		cmocka_unit_test_teardown(simulator_calling_the_library_inside_fails, restore),
		cmocka_unit_test_teardown(struct_sim_outside_the_engine_fails, restore),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
