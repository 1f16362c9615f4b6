// SPDX-License-Identifier: GPL-2.0
/*
 * Strings from inputs never reach a message, a log or a report raw
 * (escape.h): the escaping itself, then each kind of input cmasim reads
 * with a newline or an escape sequence where a name or a value goes, and
 * what it says about it. Expect: one line, the bytes escaped (\n, \x1b),
 * or the name refused as dtc refuses it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "cli/commands.h"
#include "util/escape.h"
#include "import/import.h"
#include "board/platform.h"
#include "scenario/scenario.h"

#define SEED_DTB	"fuzz/corpus/fuzz_dt/seed-arm.dtb"
#define REGRESSION_DTB	"fuzz/regressions/fuzz_dt/reserved-memory-node-name-newline"

static char err[1024];

static void assert_one_line(const char *msg)
{
	for (const char *s = msg; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fail_msg("control character 0x%02x at %zu of the message: %s", *s, (size_t)(s - msg), msg);
}

static void assert_contains(const char *haystack, const char *needle)
{
	if (!strstr(haystack, needle))
		fail_msg("expected \"%s\" in: %s", needle, haystack);
}

/* ---- the helper ---- */

/* Expect printable ASCII as it is; \n, \r, \t, \\ by name; any other byte as \xNN. */
static void str_escape_controls_and_high_bytes(void **state)
{
	char buf[128];

	assert_string_equal(str_escape("linux,cma@45000000", buf, sizeof(buf)), "linux,cma@45000000");
	assert_string_equal(str_escape("a\nb\r\tc\\d\x1b[31me\x7f\xff", buf, sizeof(buf)),
			    "a\\nb\\r\\tc\\\\d\\x1b[31me\\x7f\\xff");
	assert_string_equal(ESCAPED("odd@45000000\n"), "odd@45000000\\n");
}

/* Expect a result too long for the buffer cut at a whole escape, ending in "...". */
static void str_escape_cut_at_whole_escape(void **state)
{
	char buf[10];

	assert_string_equal(str_escape("abcdef\x01", buf, sizeof(buf)), "abcdef...");
	assert_string_equal(str_escape("abcde\x01", buf, sizeof(buf)), "abcde\\x01");
	assert_string_equal(str_escape("abcdefghijk", buf, sizeof(buf)), "abcdef...");
	assert_string_equal(str_escape("abcd\x01\x02", buf, sizeof(buf)), "abcd...");
	assert_string_equal(str_escape("abcdef", buf, 3), "..");
}

/* Expect HTML's specials as entities, controls escaped, a <pre>'s newlines and tabs kept. */
static void html_escape_specials_and_controls(void **state)
{
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	html_escape(out, "<b>&\"'\x1b[2J\n\t");
	fclose(out);
	assert_string_equal(text, "&lt;b&gt;&amp;&quot;&#39;\\x1b[2J\n\t");
	free(text);
}

/* ---- device trees ---- */

/* The seed board with @from replaced by @to (as long) in /tmp; its path. */
static const char *patched_dtb(const char *from, const char *to, size_t len, char *path, size_t pathlen)
{
	FILE *f = fopen(SEED_DTB, "rb");
	static char buf[1 << 16];
	size_t n;
	char *at;
	int fd;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	at = memmem(buf, n, from, len);
	if (!at)
		fail_msg("%s has no \"%s\"", SEED_DTB, from);
	memcpy(at, to, len);
	snprintf(path, pathlen, "/tmp/test_escape.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, n), (ssize_t)n);
	close(fd);
	return path;
}

static void expect_dt_refused(const char *path, const char *why)
{
	static struct platform p;

	assert_int_equal(platform_read_dt(path, &p, err, sizeof(err)), -1);
	assert_one_line(err);
	assert_int_equal(strncmp(err, path, strlen(path)), 0);
	assert_contains(err, why);
}

/* Expect fuzz_dt's finding refused as dtc refuses it, naming the node, the newline escaped. */
static void dt_node_name_newline_refused(void **state)
{
	expect_dt_refused(REGRESSION_DTB, ": node /reserved-memory/odd@45000000\\n: '\\n' is not allowed in a node name");
}

static void dt_node_name_two_ats_refused(void **state)
{
	char path[64];

	expect_dt_refused(patched_dtb("vpu@44000000", "vpu@44@00000", 12, path, sizeof(path)),
			  "node /reserved-memory/vpu@44@00000: more than one '@'");
	unlink(path);
}

/* Property names live in the strings block: "reusable" there becomes "reusab\x1b" for every node. */
static void dt_property_name_escape_refused(void **state)
{
	char path[64];

	expect_dt_refused(patched_dtb("reusable", "reusab\x1b\0", 9, path, sizeof(path)),
			  "property reusab\\x1b: '\\x1b' is not allowed in a property name");
	unlink(path);
}

/* A string property may hold anything: the description shows the root's compatible escaped. */
static void dt_compatible_escaped_in_description(void **state)
{
	static struct platform p;
	char path[64];

	patched_dtb("libcma,seed-arm", "libcma,seed\narm", 15, path, sizeof(path));
	if (platform_read_dt(path, &p, err, sizeof(err)))
		fail_msg("%s", err);
	unlink(path);
	assert_one_line(p.description);
	assert_contains(p.description, "(libcma,seed\\narm, arm)");
}

/* Expect a command line with an escape sequence refused: the library would quote the parameter. */
static void dt_bootargs_control_character_refused(void **state)
{
	char path[64];

	expect_dt_refused(patched_dtb("console=ttyS0 cma=8M", "console=tty\x1b" "0 cma=xM", 20, path, sizeof(path)),
			  ": /chosen/bootargs: control character '\\x1b' in \"console=tty\\x1b0 cma=xM\"");
	unlink(path);
}

/* ---- platform and scenario files ---- */

/* @text written to a new file in /tmp named @name; its path. */
static const char *text_file(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "/tmp/test_escape.%d.%s", (int)getpid(), name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

#define PLATFORM_HEAD "[platform]\narch = x86\nbank = 0 64M\n"

/* Expect a value with an escape sequence refused at its line, the byte escaped: no value carries one. */
static void platform_file_control_character_refused(void **state)
{
	static struct platform p;
	char path[128];

	text_file("board.ini", PLATFORM_HEAD "description = board\x1b[2J\n", path, sizeof(path));
	assert_int_not_equal(platform_read_file(path, &p, err, sizeof(err)), 0);
	unlink(path);
	assert_one_line(err);
	assert_contains(err, ":4: control character '\\x1b' in the line");
}

/* Expect CRLF line ends and tabs still read. */
static void platform_file_crlf_and_tab_accepted(void **state)
{
	static struct platform p;
	char path[128];

	text_file("board.ini", "[platform]\r\narch = x86\r\nbank = 0 64M\r\ndescription = a\tboard\r\n",
		  path, sizeof(path));
	if (platform_read_file(path, &p, err, sizeof(err)))
		fail_msg("%s", err);
	unlink(path);
	assert_string_equal(p.description, "a\tboard");
}

/* Expect an unknown key that is not ASCII named escaped in the one-line refusal. */
static void platform_file_unknown_key_escaped(void **state)
{
	static struct platform p;
	char path[128];

	text_file("board.ini", PLATFORM_HEAD "b\xc3\xa4nk = 1\n", path, sizeof(path));
	assert_int_not_equal(platform_read_file(path, &p, err, sizeof(err)), 0);
	unlink(path);
	assert_one_line(err);
	assert_contains(err, "unknown key 'b\\xc3\\xa4nk' in [platform]");
}

static void scenario_file_control_character_refused(void **state)
{
	static struct scenario sc;

	assert_int_not_equal(scenario_parse("odd.scn", "[scenario]\nduration = 1s\nplatform = x86\ncmdline = quiet\rcma=8M\n"
						"[anon a]\nrss = 1M\n", &sc, err, sizeof(err)), 0);
	assert_one_line(err);
	assert_contains(err, "control character '\\r' in the line");
}

/* A section's name in a message ("appears twice") comes from the file too. */
static void scenario_file_section_name_escaped(void **state)
{
	static struct scenario sc;

	assert_int_not_equal(scenario_parse("odd.scn", "[anon \xff]\nrss = 1M\n[anon \xff]\nrss = 1M\n",
					    &sc, err, sizeof(err)), 0);
	assert_one_line(err);
	assert_contains(err, "[anon \\xff] appears twice");
}

/* cmasim's @argv run in this process, its stderr into @out; its exit status. */
static int run_capturing_stderr(int argc, char **argv, char *out, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), ret;
	size_t n;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	ret = cmd_boot(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, len - 1, tmp);
	out[n] = 0;
	fclose(tmp);
	return ret;
}

/* A .config fragment the library parses: its line quoted back must not carry the escape. */
static void kconfig_fragment_control_character_refused(void **state)
{
	char path[128], said[2048];
	char *argv[] = { "boot", "--platform", "x86", "--kconfig", path, NULL };

	text_file("frag.config", "CONFIG_CMA=y\nCONFIG_CMA_AREAS=\x1b[2J\n", path, sizeof(path));
	assert_int_not_equal(run_capturing_stderr(5, argv, said, sizeof(said)), 0);
	unlink(path);
	assert_non_null(strchr(said, '\n'));
	*strchr(said, '\n') = 0;
	assert_one_line(said);
	assert_contains(said, "frag.config:2: control character '\\x1b' in the line");
}

/* ---- snapshots ---- */

/* Expect a zone's name with an escape sequence refused with the file named and the byte escaped. */
static void snapshot_zone_name_escaped(void **state)
{
	struct snapshot s;
	char dir[64], cmd[512];

	snprintf(dir, sizeof(dir), "/tmp/test_escape.%d.snapshot", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf %s && cp -r tests/import/small %s && sed -i 's/DMA32/DMA\\x1b32/' %s/zoneinfo",
		 dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_int_not_equal(snapshot_read(dir, &s, err, sizeof(err)), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	assert_one_line(err);
	assert_contains(err, "/zoneinfo: zone DMA\\x1b32: ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(str_escape_controls_and_high_bytes),
		cmocka_unit_test(str_escape_cut_at_whole_escape),
		cmocka_unit_test(html_escape_specials_and_controls),
		cmocka_unit_test(dt_node_name_newline_refused),
		cmocka_unit_test(dt_node_name_two_ats_refused),
		cmocka_unit_test(dt_property_name_escape_refused),
		cmocka_unit_test(dt_compatible_escaped_in_description),
		cmocka_unit_test(dt_bootargs_control_character_refused),
		cmocka_unit_test(platform_file_control_character_refused),
		cmocka_unit_test(platform_file_crlf_and_tab_accepted),
		cmocka_unit_test(platform_file_unknown_key_escaped),
		cmocka_unit_test(scenario_file_control_character_refused),
		cmocka_unit_test(scenario_file_section_name_escaped),
		cmocka_unit_test(kconfig_fragment_control_character_refused),
		cmocka_unit_test(snapshot_zone_name_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
