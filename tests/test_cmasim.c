// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator from the outside: runs the cmasim binary built beside
 * this test (BUILD/cmasim; CMASIM=path overrides) and compares what it
 * prints with the golden files in tests/golden/ (CMA_GOLDEN_DIR
 * overrides). CMA_UPDATE_GOLDEN=1 rewrites the golden files from the
 * current output instead; review the diff before committing it.
 *
 * Every bad input must exit 2 with a message on stderr naming what was
 * wrong and what is accepted; the table below lists each one with a
 * piece of the message it must print.
 *
 * The manual pages are checked against the program: doc/cmasim.1 and
 * doc/libcma.3 must format under groff -ww without a word, cmasim(1)
 * must name every option --help prints and every section and key the
 * file readers accept, and libcma(3) every function cma.h declares.
 */
#include <ctype.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <libgen.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

static char cmasim[PATH_MAX], golden_dir[PATH_MAX], platforms_dir[PATH_MAX];
static char source_dir[PATH_MAX + 8];	/* the tree: doc/ and include/ for the manual pages' tests */

struct run {
	int status;		/* exit status, or -1 if it did not exit */
	char *out, *err;
};

static char *read_all(FILE *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int c;

	assert_non_null(mem);
	rewind(f);
	while ((c = fgetc(f)) != EOF)
		fputc(c, mem);
	fclose(mem);
	return buf;
}

/* Run cmasim with @args (NULL-terminated, without argv[0]). */
static struct run run_cmasim(const char *const *args)
{
	const char *argv[32] = { cmasim };
	FILE *out = tmpfile(), *err = tmpfile();
	struct run r = { -1, NULL, NULL };
	int status, n = 1;
	pid_t pid;

	assert_non_null(out);
	assert_non_null(err);
	while (*args && n < 31)
		argv[n++] = *args++;
	argv[n] = NULL;
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		execv(cmasim, (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status))
		r.status = WEXITSTATUS(status);
	r.out = read_all(out);
	r.err = read_all(err);
	fclose(out);
	fclose(err);
	return r;
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;

	if (!f)
		return NULL;
	s = read_all(f);
	fclose(f);
	return s;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static void expect_golden(const char *name, const char *output)
{
	char path[PATH_MAX + 64];
	char *want;

	snprintf(path, sizeof(path), "%s/%s", golden_dir, name);
	if (getenv("CMA_UPDATE_GOLDEN")) {
		write_file(path, output);
		printf("updated %s\n", path);
		return;
	}
	want = read_file(path);
	if (!want)
		fail_msg("golden file %s is missing: run with CMA_UPDATE_GOLDEN=1 to write it", path);
	if (strcmp(want, output)) {
		int line = first_difference(want, output);

		free(want);
		fail_msg("output differs from %s from line %d on; the output was:\n%s", path, line, output);
	}
	free(want);
}

/* Expect: exit 0, nothing on stderr, stdout as in the golden file. */
static void expect_boot_golden(const char *golden, const char *const *args)
{
	struct run r = run_cmasim(args);

	if (r.status != 0 || *r.err)
		fail_msg("cmasim %s ...: expected exit 0 and no stderr, found exit %d and stderr:\n%s",
			 args[0], r.status, r.err);
	expect_golden(golden, r.out);
	run_free(&r);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void boot_x86_golden(void **state)
{
	expect_boot_golden("boot-x86.txt", ARGS("boot", "--platform", "x86", "--dump", "pagetypeinfo",
						"--dump", "cma"));
}

/* Expect: x86 is the default platform. */
static void boot_default_platform_is_x86(void **state)
{
	expect_boot_golden("boot-x86.txt", ARGS("boot", "--dump", "pagetypeinfo", "--dump", "cma"));
}

static void boot_arm_golden(void **state)
{
	expect_boot_golden("boot-arm.txt", ARGS("boot", "--platform", "arm", "--dump", "pagetypeinfo",
						"--dump", "cma"));
}

static void boot_s5p_mfc_golden(void **state)
{
	expect_boot_golden("boot-s5p-mfc.txt", ARGS("boot", "--platform", "s5p-mfc", "--dump",
						    "pagetypeinfo", "--dump", "cma"));
}

/* Expect: with cma=0 the first MFC area becomes the default and gives the atomic pool. */
static void boot_s5p_mfc_cma0_golden(void **state)
{
	expect_boot_golden("boot-s5p-mfc-cma0.txt", ARGS("boot", "--platform", "s5p-mfc", "--cmdline",
							 "cma=0", "--dump", "cma"));
}

/* Expect: the built-in s5p-mfc, written as a file, boots to the same output. */
static void boot_platform_file_same_as_builtin(void **state)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/s5p-mfc.ini", platforms_dir);
	expect_boot_golden("boot-s5p-mfc.txt", ARGS("boot", "--platform", path, "--dump", "pagetypeinfo",
						    "--dump", "cma"));
}

/* Expect: a file's devices (own area, area below a limit, shared, none), cmdline and Kconfig. */
static void boot_platform_file_devices_golden(void **state)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/camera-board.ini", platforms_dir);
	expect_boot_golden("boot-camera-board.txt", ARGS("boot", "--platform", path, "--dump", "cma",
							 "--dump", "meminfo"));
}

/* Expect: --cmdline and --kconfig replace the platform's; every dump is accepted, repeated too. */
static void boot_overrides_and_every_dump(void **state)
{
	char kconfig[] = "/tmp/cmasim-kconfig-XXXXXX";
	int fd = mkstemp(kconfig);
	struct run r;

	assert_true(fd >= 0);
	assert_true(write(fd, "CONFIG_CMA_SIZE_MBYTES=48\n", 26) == 26);
	close(fd);
	r = run_cmasim(ARGS("boot", "--platform", "arm", "--kconfig", kconfig, "--dump", "buddyinfo",
			    "--dump", "vmstat", "--dump", "meminfo", "--dump", "zoneinfo", "--dump", "cma",
			    "--dump", "cma"));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "cma: CMA: reserved 48 MiB at 6c800000\n"));
	for (const char *const *d = ARGS("buddyinfo", "vmstat", "meminfo", "zoneinfo", "cma"); *d; d++) {
		char header[64];

		snprintf(header, sizeof(header), "\n==> /proc/%s <==\n", *d);
		assert_non_null(strstr(r.out, header));
	}
	run_free(&r);
	r = run_cmasim(ARGS("boot", "--platform", "arm", "--cmdline", "cma=24M coherent_pool=1M"));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "cma: CMA: reserved 24 MiB at 6e000000\n"));
	assert_non_null(strstr(r.out, "DMA: preallocated 1024 KiB pool for atomic coherent allocations\n"));
	run_free(&r);
	unlink(kconfig);
}

/*
 * Expect: --dump takes an area's sysfs or debugfs name and heads it with
 * its /sys path; the booted machine decides whether the file exists (a
 * 3.5 machine has none: the library's -ENOENT line, exit 1), while a name
 * that is no file anywhere is refused before booting.
 */
static void boot_dump_area_files(void **state)
{
	struct run r = run_cmasim(ARGS("boot", "--dump", "debug/cma/reserved/count", "--dump",
				       "sys/kernel/mm/cma/reserved/alloc_pages_success"));

	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "\n==> /sys/kernel/debug/cma/reserved/count <==\n"));
	assert_non_null(strstr(r.out, "\n==> /sys/kernel/mm/cma/reserved/alloc_pages_success <==\n"));
	assert_non_null(strstr(r.err, "cma_write_proc: no /proc file 'debug/cma/reserved/count'"));
	run_free(&r);
	r = run_cmasim(ARGS("boot", "--dump", "sys/kernel/mm/vmstat"));
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--dump 'sys/kernel/mm/vmstat': no such /proc file"));
	run_free(&r);
}

/* Expect: the S5P failure message names the device that failed, with its own size and base. */
static void boot_s5p_mfc_failure_names_the_device(void **state)
{
	char kconfig[] = "/tmp/cmasim-kconfig-XXXXXX";
	int fd = mkstemp(kconfig);
	struct run r;

	assert_true(fd >= 0);
	assert_true(write(fd, "CONFIG_CMA_AREAS=0\n", 19) == 19);	/* one slot: mfc-r takes it */
	close(fd);
	r = run_cmasim(ARGS("boot", "--platform", "s5p-mfc", "--kconfig", kconfig));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Failed to reserve memory for MFC device s5p-mfc-l (8388608 bytes at 0x51000000)\n"));
	assert_null(strstr(r.out, "MFC device s5p-mfc-r"));
	assert_non_null(strstr(r.err, "s5p-mfc-l (8388608 bytes at 0x51000000)"));
	run_free(&r);
	unlink(kconfig);
}

static void list_golden(void **state)
{
	struct run r = run_cmasim(ARGS("list"));

	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	expect_golden("list.txt", r.out);
	run_free(&r);
}

static void help_exits_0(void **state)
{
	for (const char *const *a = ARGS("--help", "-h"); *a; a++) {
		struct run r = run_cmasim((const char *const[]){ *a, NULL });

		assert_int_equal(r.status, 0);
		assert_non_null(strstr(r.out, "usage: cmasim run"));
		assert_non_null(strstr(r.out, "cmasim boot [--platform"));
		run_free(&r);
	}
	{
		struct run r = run_cmasim(ARGS("boot", "--help"));

		assert_int_equal(r.status, 0);
		assert_non_null(strstr(r.out, "--dump"));
		run_free(&r);
	}
}

/* ---- bad input ---- */

struct bad_case {
	const char *what;
	const char *args[12];		/* "@FILE" stands for a file holding .file */
	const char *file;		/* contents of @FILE, or NULL */
	int status;
	const char *message;		/* must appear on stderr */
};

static const struct bad_case bad_cases[] = {
	{ "no command", { NULL }, NULL, 2, "cmasim: no command: accepted run, compare, boot, list, show" },
	{ "unknown command", { "frobnicate" }, NULL, 2, "unknown command 'frobnicate': accepted run, compare, boot, list, show" },
	{ "list with an argument", { "list", "x86" }, NULL, 2, "unexpected argument 'x86': list takes none" },
	{ "unknown long option", { "boot", "--bogus" }, NULL, 2,
	  "unknown option '--bogus': accepted --platform, --cmdline, --kconfig, --dump, --help" },
	{ "unknown short option", { "boot", "-x" }, NULL, 2, "unknown option '-x': accepted" },
	{ "--platform without value", { "boot", "--platform" }, NULL, 2,
	  "--platform needs a value: a platform name or file" },
	{ "--cmdline without value", { "boot", "--cmdline" }, NULL, 2, "--cmdline needs a value: a kernel command line" },
	{ "--kconfig without value", { "boot", "--kconfig" }, NULL, 2, "--kconfig needs a value: a .config file" },
	{ "--dump without value", { "boot", "--dump" }, NULL, 2,
	  "--dump needs a value: a /proc file name (buddyinfo, pagetypeinfo" },
	{ "stray argument", { "boot", "x86" }, NULL, 2, "unexpected argument 'x86': boot takes only options" },
	{ "unknown platform", { "boot", "--platform", "pdp11" }, NULL, 2,
	  "--platform 'pdp11': no such platform: accepted x86, arm, s5p-mfc (see 'cmasim list'), or the path of a platform file" },
	{ "empty platform", { "boot", "--platform=" }, NULL, 2, "--platform '': no such platform" },
	{ "missing platform file", { "boot", "--platform", "/nonexistent/board.ini" }, NULL, 2,
	  "/nonexistent/board.ini: cannot read the platform file: No such file or directory" },
	{ "unknown dump", { "boot", "--dump", "slabinfo" }, NULL, 2,
	  "--dump 'slabinfo': no such /proc file: accepted buddyinfo, pagetypeinfo, vmstat, meminfo, zoneinfo, cma" },
	{ "missing kconfig file", { "boot", "--kconfig", "/nonexistent/.config" }, NULL, 2,
	  "--kconfig /nonexistent/.config: cannot read the .config fragment: No such file or directory" },
	{ "malformed kconfig line", { "boot", "--kconfig", "@FILE" }, "CONFIG_CMA_SIZE_MBYTES=16\nnot a config line\n", 2,
	  "line 2" },
	{ "kconfig value out of range", { "boot", "--kconfig", "@FILE" }, "CONFIG_CMA_ALIGNMENT=3\n", 2,
	  "CONFIG_CMA_ALIGNMENT=3 out of range: accepted 4..9" },
	{ "malformed cma=", { "boot", "--cmdline", "cma=12Q" }, NULL, 2,
	  "invalid cma=12Q: expected a size in bytes with an optional K, M, G, T, P or E suffix" },
	{ "negative cma=", { "boot", "--cmdline", "cma=-5" }, NULL, 2, "invalid cma=-5" },
	{ "malformed coherent_pool=", { "boot", "--platform", "arm", "--cmdline", "coherent_pool=lots" }, NULL, 2,
	  "invalid coherent_pool=lots: expected a size" },
	/* platform files */
	{ "file: not INI", { "boot", "--platform", "@FILE" }, "this is not a platform\n", 2,
	  ":1: expected 'key = value', '[platform]', '[device NAME]', a comment or a blank line" },
	{ "file: unknown section", { "boot", "--platform", "@FILE" }, "[board]\nbank = 0 64M\n", 2,
	  ":2: unknown section [board]; accepted: [platform], [device NAME]" },
	{ "file: key before any section", { "boot", "--platform", "@FILE" }, "bank = 0 64M\n", 2,
	  ":1: 'bank' comes before any section: put it under [platform] or [device NAME]" },
	{ "file: unknown key", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M\nram = 64M\n", 2,
	  ":3: unknown key 'ram' in [platform]; accepted: name, description, arch, bank" },
	{ "file: malformed bank", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0x40000000 lots\n", 2,
	  ":2: bank = 0x40000000 lots: expected BASE SIZE" },
	{ "file: bank with a '#' comment", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M # ram\n", 2,
	  ":2: bank = 0 64M # ram: expected BASE SIZE" },
	{ "file: malformed size", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M\nzone_dma_end = 16Q\n", 2,
	  ":3: zone_dma_end = 16Q: not a number: give a decimal or 0x hex number, optionally with a K, M, G or T suffix" },
	{ "file: unknown arch", { "boot", "--platform", "@FILE" }, "[platform]\narch = mips\nbank = 0 64M\n", 2,
	  ":2: arch = mips: accepted x86 or arm" },
	{ "file: bad boolean", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M\nmetadata_only = maybe\n", 2,
	  ":3: metadata_only = maybe: accepted yes, no, true, false, 1 or 0" },
	{ "file: key given twice", { "boot", "--platform", "@FILE" }, "[platform]\narch = arm\nbank = 0 64M\narch = x86\n", 2,
	  ":4: arch is given twice in [platform]" },
	{ "file: no bank", { "boot", "--platform", "@FILE" }, "[platform]\narch = arm\n", 2,
	  "no memory: give at least one 'bank = BASE SIZE' under [platform]" },
	{ "file: indented line", { "boot", "--platform", "@FILE" }, "[platform]\n  bank = 0 64M\n", 2,
	  ":2: indented line: start each 'key = value' and [section] at the beginning of the line" },
	{ "file: empty section", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M\n[device cam]\n", 2,
	  ":3: [device cam] has no keys" },
	{ "file: section twice", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M\n[platform]\narch = arm\n", 2,
	  ":3: [platform] appears twice" },
	{ "file: bad device name", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M\n[device my cam]\nmask = 1\n", 2,
	  "[device my cam]: a device name is 1 to 31 letters, digits, '-', '_' or '.'" },
	{ "file: device without mask", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M\n[device cam]\ncma_size = 8M\n", 2,
	  "[device cam] has no mask: give its coherent DMA mask (e.g. mask = 0xffffffff)" },
	{ "file: zero mask", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M\n[device cam]\nmask = 0\n", 2,
	  ":4: mask = 0: a coherent DMA mask of 0 lets the device reach nothing" },
	{ "file: unknown device key", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M\n[device cam]\nirq = 5\n", 2,
	  ":4: unknown key 'irq' in [device cam]; accepted: mask, cma_size, cma_base, cma_limit, share" },
	{ "file: cma_base without cma_size", { "boot", "--platform", "@FILE" },
	  "[platform]\nbank = 0 64M\n[device cam]\nmask = 0xffffffff\ncma_base = 32M\n", 2,
	  "[device cam]: cma_base and cma_limit need a cma_size" },
	{ "file: share and cma_size", { "boot", "--platform", "@FILE" },
	  "[platform]\nbank = 0 64M\n[device a]\nmask = 1\ncma_size = 8M\nshare = b\n[device b]\nmask = 1\n", 2,
	  "[device a]: give either cma_size (its own area) or share (another's), not both" },
	{ "file: share names nothing", { "boot", "--platform", "@FILE" },
	  "[platform]\nbank = 0 64M\n[device a]\nmask = 1\nshare = a\n", 2,
	  "[device a]: share = a names no other device of this platform" },
	{ "file: line too long", { "boot", "--platform", "@FILE" },
	  "[platform]\ndescription = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", 2,
	  ":2: line longer than 197 characters" },
	{ "file: geometry the machine refuses", { "boot", "--platform", "@FILE" },
	  "[platform]\nbank = 0 64M\npage_shift = 9\n", 2,
	  "page_shift 9 not supported: accepted 10..21" },
	{ "file: overlapping banks", { "boot", "--platform", "@FILE" },
	  "[platform]\nbank = 0 64M\nbank = 32M 64M\n", 2, "banks must be ascending and disjoint" },
	{ "file: more page frames than a machine indexes", { "boot", "--platform", "@FILE" },
	  "[platform]\nbank = 0 64M\nbank = 0x100000000000 64M\nmetadata_only = yes\n", 1,
	  "page frames exceed" },
	/* run, compare and show */
	{ "run: unknown policy", { "run", "--policy", "lru" }, NULL, 2,
	  "cmasim run: --policy 'lru': accepted cma, carveout or buddy" },
	{ "run: unknown report", { "run", "--report", "xml" }, NULL, 2,
	  "cmasim run: --report 'xml': accepted text, json or html" },
	{ "run: seed not a number", { "run", "--seed", "many" }, NULL, 2,
	  "cmasim run: --seed 'many': expected a decimal or 0x hex number" },
	{ "run: negative seed", { "run", "--seed", "-1" }, NULL, 2, "--seed '-1': expected a decimal" },
	{ "run: unknown /proc file", { "run", "--dump", "slabinfo" }, NULL, 2,
	  "cmasim run: --dump 'slabinfo': no such /proc file: accepted buddyinfo, pagetypeinfo, vmstat, meminfo, zoneinfo, cma" },
	{ "run: both --output and -o", { "run", "--output", "x", "-o", "d" }, NULL, 2,
	  "cmasim run: give --output FILE or -o DIR, not both" },
	{ "run: duration without a unit", { "run", "--duration", "5" }, NULL, 2,
	  "cmasim run: --duration '5': expected a number with a unit: us, ms, s, m or h (e.g. 33ms, 5s), above 0" },
	{ "run: zero duration", { "run", "--duration", "0s" }, NULL, 2, "--duration '0s': expected a number" },
	{ "compare: bad duration", { "compare", "--duration", "soon" }, NULL, 2, "cmasim compare: --duration 'soon'" },
	{ "run: unknown scenario", { "run", "--scenario", "nosuch" }, NULL, 2,
	  "--scenario 'nosuch': no such scenario: accepted camera-browser, video-pinned, mfc-decode, x86-4g (see 'cmasim list'), or the path of a scenario file" },
	{ "run: missing scenario file", { "run", "--scenario", "/nonexistent/s.ini" }, NULL, 2,
	  "/nonexistent/s.ini: cannot read the scenario file: No such file or directory" },
	{ "run: --scenario without value", { "run", "--scenario" }, NULL, 2, "--scenario needs a value" },
	{ "compare: unknown policy in the list", { "compare", "--policies", "cma,lru" }, NULL, 2,
	  "--policies 'cma,lru': unknown policy 'lru': accepted cma, carveout, buddy, separated by commas" },
	{ "show: unknown scenario", { "show", "nosuch" }, NULL, 2,
	  "cmasim show: 'nosuch': no such scenario: accepted camera-browser, video-pinned, mfc-decode, x86-4g" },
	{ "show: no name", { "show" }, NULL, 2, "cmasim show: give one built-in scenario's name: camera-browser" },
};

static void write_temp(const char *text, char *path, size_t size)
{
	int fd;

	snprintf(path, size, "/tmp/cmasim-input-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
}

/* Expect for each: its exit status, nothing on stdout, and a message naming what was wrong. */
static void bad_input_is_refused(void **state)
{
	unsigned passed = 0;

	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		const char *args[13];
		char path[64] = "";
		struct run r;
		unsigned n;

		if (c->file)
			write_temp(c->file, path, sizeof(path));
		for (n = 0; c->args[n]; n++)
			args[n] = strcmp(c->args[n], "@FILE") ? c->args[n] : path;
		args[n] = NULL;
		r = run_cmasim(args);
		if (r.status != c->status || !strstr(r.err, c->message) || (c->status == 2 && *r.out))
			fail_msg("bad input '%s': expected exit %d, no stdout and \"%s\" on stderr; found exit %d, stdout:\n%s\nstderr:\n%s",
				 c->what, c->status, c->message, r.status, r.out, r.err);
		run_free(&r);
		if (c->file)
			unlink(path);
		passed++;
	}
	printf("bad inputs refused as expected: %u\n", passed);
}

static void platform_file_fixed_base_taken(void **state)
{
	char path[64];
	struct run r;

	/* the area's fixed base lies in the kernel image: the generic board says which device failed */
	write_temp("[platform]\nbank = 0 256M\nkernel = 16M 8M\npageblock_order = 9\n"
		   "[device cam]\nmask = 0xffffffff\ncma_size = 8M\ncma_base = 16M\n", path, sizeof(path));
	r = run_cmasim(ARGS("boot", "--platform", path));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "cam: failed to reserve its CMA area (8388608 bytes at 0x01000000): Device or resource busy\n"));
	assert_non_null(strstr(r.out, "cam        0x00000000ffffffff  0x0f000000-0x0fffffff (16 MiB, the default area)\n"));
	run_free(&r);
	unlink(path);
}

/* ---- run, compare and show ---- */

#define DIR_MAX		32	/* a test's directory's path, with the NUL */
#define DIR_PATH_MAX	128	/* a file's path in it */

/* A fresh directory for a test's files; remove_dir() takes it away with them. */
static void make_dir(char dir[DIR_MAX])
{
	snprintf(dir, DIR_MAX, "/tmp/cmasim-test-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static void remove_dir(const char *dir)
{
	assert_int_equal(nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

/* @dir/@name, written with @text when it is not NULL. */
static const char *dir_file(const char *dir, const char *name, const char *text, char path[DIR_PATH_MAX])
{
	snprintf(path, DIR_PATH_MAX, "%s/%s", dir, name);
	if (text)
		write_file(path, text);
	return path;
}

/* A 64 MiB ARM board with one process: lines 1-7. */
#define SCENARIO_HEAD	"[scenario]\nplatform = arm\nmemory = 64M\nduration = 2s\n"
#define ONE_PROCESS	"[anon a]\nrss = 1M\nrate = 10\n"

struct scenario_error {
	const char *what;
	const char *text;
	int line;		/* 0: the message names no line */
	const char *message;
};

static const struct scenario_error scenario_errors[] = {
	{ "unknown section", SCENARIO_HEAD ONE_PROCESS "[fancy x]\nkey = 1\n", 9,
	  "unknown section [fancy x]; accepted: [scenario], [cost], [pagecache NAME], [writer NAME], [anon NAME], [slab NAME], [pinner NAME], [device NAME]" },
	{ "unknown key", SCENARIO_HEAD "bogus = 1\n" ONE_PROCESS, 5,
	  "unknown key 'bogus' in [scenario]; accepted: name, description, platform, cmdline, kconfig, memory, swap, duration, seed, sample, snapshot" },
	{ "unknown key of a workload", SCENARIO_HEAD ONE_PROCESS "size = 1M\n", 8,
	  "unknown key 'size' in [anon a]; accepted: start, stop, rss, rate, lifetime, restart" },
	{ "unknown cost key", SCENARIO_HEAD "[cost]\nwarp_mbps = 9\n" ONE_PROCESS, 6,
	  "unknown key 'warp_mbps' in [cost]; accepted: cpu_mhz, copy_mbps, zero_mbps, scan_cycles, page_cycles, storage_write_mbps, storage_read_mbps, drain_us, lock_us" },
	{ "bad size", SCENARIO_HEAD ONE_PROCESS "[device d]\nsize = 3Q\nperiod = 1s\n", 9,
	  "size = 3Q: expected a decimal or 0x hex number, optionally with a K, M, G or T suffix" },
	{ "bad duration", SCENARIO_HEAD ONE_PROCESS "[device d]\nsize = 3M\nperiod = 1 fortnight\n", 10,
	  "period = 1 fortnight: expected a number with a unit: us, ms, s, m or h (e.g. 33ms, 5s)" },
	{ "missing required key", SCENARIO_HEAD "[anon a]\nrate = 10\n", 0, "[anon a] has no rss: it is required" },
	{ "missing duration", "[scenario]\nplatform = arm\n" ONE_PROCESS, 0,
	  "[scenario] has no duration (e.g. duration = 60s)" },
	{ "duplicate key", SCENARIO_HEAD ONE_PROCESS "rss = 2M\n", 8, "rss is given twice in [anon a]: give it once" },
	{ "memory beyond the simulator's limit", "[scenario]\nplatform = arm\nmemory = 1T\nduration = 2s\n" ONE_PROCESS, 3,
	  "memory = 1T: at most 64G (the simulator's limit)" },
	{ "a file beyond the simulator's limit", SCENARIO_HEAD ONE_PROCESS "[pagecache f]\nfile = 65G\nrate = 1\n", 9,
	  "file = 65G: at most 64G (the simulator's limit)" },
	{ "pinner target naming nothing", SCENARIO_HEAD ONE_PROCESS
	  "[pinner p]\ntarget = nobody\nshare = 1\nhold = 1s\nperiod = 1s\n", 0,
	  "[pinner p]: target = nobody names no [anon], [pagecache] or [writer] workload" },
	{ "snapshot past duration", SCENARIO_HEAD "snapshot = 3s\n" ONE_PROCESS, 0,
	  "[scenario]: a snapshot at 3.000 s is past the duration" },
	{ "indented line", SCENARIO_HEAD "  seed = 4\n" ONE_PROCESS, 5,
	  "indented line: start each 'key = value' and [section] at the beginning of the line" },
	{ "unknown platform", "[scenario]\nplatform = vax\nduration = 1s\n" ONE_PROCESS, 2,
	  "platform = vax: no built-in platform has that name and the platform file @DIR/vax cannot be read (No such file or directory); accepted x86, arm, s5p-mfc, or the path of a platform file" },
	{ "platform file missing next to the scenario", "[scenario]\nplatform = boards/none.ini\nduration = 1s\n" ONE_PROCESS, 2,
	  "platform = boards/none.ini: no built-in platform has that name and the platform file @DIR/boards/none.ini cannot be read (No such file or directory)" },
	{ "platform file with an error", "[scenario]\nplatform = bad.ini\nduration = 1s\n" ONE_PROCESS, 0,
	  "scenario s: @DIR/bad.ini:2: unknown key 'ram' in [platform]; accepted: name, description, arch, bank" },
};

/* @pattern with "@DIR" replaced by @dir. */
static void expand_dir(const char *pattern, const char *dir, char *buf, size_t size)
{
	const char *at = strstr(pattern, "@DIR");

	if (!at)
		snprintf(buf, size, "%s", pattern);
	else
		snprintf(buf, size, "%.*s%s%s", (int)(at - pattern), pattern, dir, at + 4);
}

/* Expect for each: exit 2, no stdout, "cmasim: FILE:LINE: message" (no LINE when it has none). */
static void run_scenario_errors_name_file_line_and_key(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX], message[512], want[DIR_PATH_MAX + sizeof(message) + 32];
	unsigned passed = 0;

	make_dir(dir);
	dir_file(dir, "bad.ini", "[platform]\nram = 64M\n", path);
	for (size_t i = 0; i < sizeof(scenario_errors) / sizeof(scenario_errors[0]); i++) {
		const struct scenario_error *c = &scenario_errors[i];
		struct run r;

		dir_file(dir, "s.ini", c->text, path);
		expand_dir(c->message, dir, message, sizeof(message));
		if (c->line)
			snprintf(want, sizeof(want), "cmasim: %s:%d: %s", path, c->line, message);
		else if (strncmp(message, "scenario ", 9))
			snprintf(want, sizeof(want), "cmasim: %s: %s", path, message);
		else
			snprintf(want, sizeof(want), "cmasim: %s", message);
		r = run_cmasim(ARGS("run", "--scenario", path));
		if (r.status != 2 || *r.out || !strstr(r.err, want))
			fail_msg("scenario error '%s': expected exit 2, no stdout and \"%s\" on stderr; found exit %d, stdout:\n%s\nstderr:\n%s",
				 c->what, want, r.status, r.out, r.err);
		run_free(&r);
		passed++;
	}
	remove_dir(dir);
	printf("scenario errors refused as expected: %u\n", passed);
}

/* Expect: a platform file named relative to the scenario is found next to it, wherever cmasim runs. */
static void run_platform_file_next_to_the_scenario(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX], builtin[PATH_MAX + 32], *board;
	struct run r;

	make_dir(dir);
	snprintf(builtin, sizeof(builtin), "%s/s5p-mfc.ini", platforms_dir);
	board = read_file(builtin);
	assert_non_null(board);
	assert_int_equal(mkdir(dir_file(dir, "boards", NULL, path), 0700), 0);
	dir_file(dir, "boards/exynos.ini", board, path);
	dir_file(dir, "s.ini", "[scenario]\nplatform = boards/exynos.ini\nduration = 1s\n" ONE_PROCESS, path);
	r = run_cmasim(ARGS("run", "--scenario", path));
	if (r.status || !strstr(r.out, "scenario s, platform s5p-mfc-file, policy cma, seed 1, duration 1.000 s\n"))
		fail_msg("expected exit 0 and a run on the file's platform; found exit %d, stdout:\n%s\nstderr:\n%s", r.status,
			 r.out, r.err);
	run_free(&r);
	free(board);
	remove_dir(dir);
}

/* The built-in scenarios' names, from cmasim list; NULL-terminated, free() each. */
static char **builtin_scenarios(void)
{
	struct run r = run_cmasim(ARGS("list"));
	char **names = calloc(16, sizeof(*names)), name[64];
	const char *line = strstr(r.out, "\nscenarios (");
	unsigned n = 0;

	assert_int_equal(r.status, 0);
	assert_non_null(names);
	assert_non_null(line);
	while ((line = strchr(line + 1, '\n')) && sscanf(line + 1, "  %63s", name) == 1) {
		assert_true(n < 15);
		names[n++] = strdup(name);
	}
	run_free(&r);
	assert_true(n > 0);
	return names;
}

/* The text report without its last line, the host time. */
static void cut_host_line(char *text)
{
	char *host = strstr(text, "\nhost: ");

	assert_non_null(host);
	host[1] = '\0';
}

/*
 * Expect: what cmasim show prints is the whole scenario: saved as
 * NAME.ini and run, it gives the same report as the built-in NAME.
 */
static void show_round_trips_through_run(void **state)
{
	char **names = builtin_scenarios(), dir[DIR_MAX], path[DIR_PATH_MAX], file[48];

	make_dir(dir);
	for (char **name = names; *name; name++) {
		struct run shown = run_cmasim(ARGS("show", *name)), builtin, saved;

		assert_int_equal(shown.status, 0);
		snprintf(file, sizeof(file), "%s.ini", *name);
		dir_file(dir, file, shown.out, path);
		builtin = run_cmasim(ARGS("run", "--scenario", *name, "--duration", "2s"));
		saved = run_cmasim(ARGS("run", "--scenario", path, "--duration", "2s"));
		if (builtin.status || saved.status)
			fail_msg("%s: expected exit 0 from the built-in and from show's text, found %d and %d:\n%s%s",
				 *name, builtin.status, saved.status, builtin.err, saved.err);
		cut_host_line(builtin.out);
		cut_host_line(saved.out);
		if (strcmp(builtin.out, saved.out))
			fail_msg("%s: show's text runs differently from line %d on:\n%s", *name,
				 first_difference(builtin.out, saved.out), saved.out);
		run_free(&shown);
		run_free(&builtin);
		run_free(&saved);
		free(*name);
	}
	free(names);
	remove_dir(dir);
}

/* A camera streaming from the CMA area beside a page cache: each policy has requests to serve. */
static const char camera_scenario[] =
	"[scenario]\nplatform = arm\nmemory = 64M\ncmdline = cma=16M\nduration = 3s\n"
	"[pagecache files]\nfile = 96M\nrate = 20000\n"
	"[device cam]\nsize = 2M\nring = 2\nperiod = 33ms\nstart = 1s\nsession = 500ms\ngap = 500ms\n";

/*
 * Expect: the header ftrace prints for the nop tracer, then one event a
 * line in its format, the device requests' cma_alloc_start and
 * cma_alloc_finish among them, at timestamps that never go back.
 */
static void run_trace_is_ftrace_text(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX], trace[DIR_PATH_MAX], *text, *save = NULL;
	unsigned long events = 0, starts = 0, finishes = 0;
	double last = 0;
	regex_t line_re;
	struct run r;

	make_dir(dir);
	dir_file(dir, "s.ini", camera_scenario, path);
	dir_file(dir, "trace.txt", NULL, trace);
	r = run_cmasim(ARGS("run", "--scenario", path, "--trace", trace));
	assert_int_equal(r.status, 0);
	run_free(&r);
	text = read_file(trace);
	assert_non_null(text);
	assert_true(!strncmp(text, "# tracer: nop\n#\n", 16));
	assert_int_equal(regcomp(&line_re, "^          cmasim-1     \\[000\\] \\.\\.\\.\\. +([0-9]+\\.[0-9]{6}): "
				 "[a-z_]+: .+$", REG_EXTENDED), 0);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		regmatch_t m[2];
		double t;

		if (line[0] == '#')
			continue;
		if (regexec(&line_re, line, 2, m, 0))
			fail_msg("not an ftrace line: \"%s\"", line);
		t = strtod(line + m[1].rm_so, NULL);
		if (t < last)
			fail_msg("timestamp %.6f after %.6f: \"%s\"", t, last, line);
		last = t;
		events++;
		starts += strstr(line, ": cma_alloc_start: name=") != NULL;
		finishes += strstr(line, ": cma_alloc_finish: name=") != NULL;
	}
	regfree(&line_re);
	if (!starts || finishes != starts)
		fail_msg("expected as many cma_alloc_finish as cma_alloc_start events, at least one; found %lu and %lu",
			 finishes, starts);
	assert_true(last >= 1.0);
	printf("trace: %lu events, %lu CMA allocations\n", events, starts);
	free(text);
	remove_dir(dir);
}

/*
 * Expect: --dump NAME adds the machine's /proc/NAME at the end of the run
 * to the report: a "==> /proc/NAME ..." section of the text report, and
 * the run's "proc" object in JSON; -o DIR writes DIR/SCENARIO-POLICY.json.
 */
static void run_dump_and_output_dir(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX], json[DIR_PATH_MAX], cmd[2 * DIR_PATH_MAX];
	char *line = NULL;
	size_t cap = 0;
	struct run r;
	FILE *jq;

	make_dir(dir);
	dir_file(dir, "s.ini", camera_scenario, path);
	r = run_cmasim(ARGS("run", "--scenario", path, "--dump", "meminfo", "--dump", "buddyinfo"));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "==> /proc/meminfo at the end, policy cma <==\nMemTotal:"));
	assert_non_null(strstr(r.out, "==> /proc/buddyinfo at the end, policy cma <==\nNode 0, zone"));
	run_free(&r);
	r = run_cmasim(ARGS("run", "--scenario", path, "--policy", "buddy", "--report", "json", "-o", dir,
			    "--dump", "meminfo"));
	assert_int_equal(r.status, 0);
	run_free(&r);
	snprintf(json, sizeof(json), "%s/s-buddy.json", dir);
	snprintf(cmd, sizeof(cmd), "jq -r '.runs[0].policy + \" \" + (.runs[0].proc.meminfo | split(\"\\n\")[0])' %s", json);
	jq = popen(cmd, "r");
	assert_non_null(jq);
	assert_true(getline(&line, &cap, jq) > 0);
	assert_int_equal(pclose(jq), 0);
	assert_true(!strncmp(line, "buddy MemTotal:", 15));
	free(line);
	remove_dir(dir);
}

/* The comparison table's header: the three policies' columns, in order, widths aside. */
static bool has_policy_columns(const char *out)
{
	regex_t re;
	bool found;

	assert_int_equal(regcomp(&re, "^ +cma +carveout +buddy$", REG_EXTENDED | REG_NEWLINE), 0);
	found = !regexec(&re, out, 0, NULL, 0);
	regfree(&re);
	return found;
}

/*
 * Expect: compare --output writes the report to the file, JSON with a
 * run per policy or a whole HTML page, and the comparison table still
 * goes to standard output.
 */
static void compare_reports_to_files(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX], json[DIR_PATH_MAX], html[DIR_PATH_MAX], cmd[2 * DIR_PATH_MAX];
	char *page, *policies = NULL;
	size_t cap = 0;
	struct run r;
	FILE *jq;

	make_dir(dir);
	dir_file(dir, "s.ini", camera_scenario, path);
	dir_file(dir, "r.json", NULL, json);
	dir_file(dir, "r.html", NULL, html);
	r = run_cmasim(ARGS("compare", "--scenario", path, "--report", "json", "--output", json));
	assert_int_equal(r.status, 0);
	assert_true(has_policy_columns(r.out));
	run_free(&r);
	snprintf(cmd, sizeof(cmd), "jq -r '[.schema, (.runs | length), .runs[].policy] | @csv' %s", json);
	jq = popen(cmd, "r");
	assert_non_null(jq);
	assert_true(getline(&policies, &cap, jq) > 0);
	assert_int_equal(pclose(jq), 0);
	assert_string_equal(policies, "\"cmasim-report/1\",3,\"cma\",\"carveout\",\"buddy\"\n");
	free(policies);

	r = run_cmasim(ARGS("compare", "--scenario", path, "--report", "html", "--output", html));
	assert_int_equal(r.status, 0);
	assert_true(has_policy_columns(r.out));
	assert_null(strstr(r.out, "<html"));
	run_free(&r);
	page = read_file(html);
	assert_non_null(page);
	assert_true(!strncmp(page, "<!DOCTYPE html>\n", 16));
	assert_non_null(strstr(page, "<th>cma</th><th>carveout</th><th>buddy</th>"));
	assert_non_null(strstr(page, "</body>\n</html>\n"));
	free(page);
	remove_dir(dir);
}

/* ---- the manual pages ---- */

static char *source_file(const char *rel)
{
	char path[PATH_MAX + 64];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", source_dir, rel);
	text = read_file(path);
	if (!text)
		fail_msg("%s is missing", path);
	return text;
}

/* The page's roff source with "\-" as "-", so options read as typed. */
static char *man_source(const char *rel)
{
	char *text = source_file(rel), *in, *out;

	for (in = out = text; *in; in++) {
		if (in[0] == '\\' && in[1] == '-')
			in++;
		*out++ = *in;
	}
	*out = '\0';
	return text;
}

/* Does @word occur in @text with no letter, digit, '_' or '-' either side? */
static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *s = strstr(text, word); s; s = strstr(s + 1, word)) {
		bool left = s == text || !(isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '-');
		bool right = !(isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '-');

		if (left && right)
			return true;
	}
	return false;
}

/* Expect: groff formats each page with every warning on and says nothing. */
static void man_pages_render_without_warnings(void **state)
{
	static const char *const pages[] = { "doc/cmasim.1", "doc/libcma.3" };

	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		char cmd[PATH_MAX + 128], *out;
		FILE *p;
		int status;

		snprintf(cmd, sizeof(cmd), "groff -man -Tutf8 -ww -z '%s/%s' 2>&1", source_dir, pages[i]);
		p = popen(cmd, "r");
		assert_non_null(p);
		out = read_all(p);
		status = pclose(p);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			fail_msg("groff is not installed: it is in Debian's groff-base (scripts/ensure-deps.sh test installs it)");
		if (status || *out)
			fail_msg("%s: expected groff -ww to exit 0 with no output; found status %d and:\n%s",
				 pages[i], status, out);
		free(out);
	}
}

/*
 * Expect: every option a --help prints, and every section and key the
 * file readers accept (their "accepted:" lists), appear in cmasim(1).
 */
static unsigned expect_options_documented(const char *page, const char *cmd)
{
	struct run r = run_cmasim((const char *const[]){ cmd, "--help", NULL });
	unsigned found = 0;

	assert_int_equal(r.status, 0);
	for (const char *s = strstr(r.out, "--"); s; s = strstr(s + 2, "--")) {
		char opt[64];
		size_t n = 2 + strspn(s + 2, "abcdefghijklmnopqrstuvwxyz-");

		if (n == 2 || n >= sizeof(opt))
			continue;
		snprintf(opt, sizeof(opt), "%.*s", (int)n, s);
		if (!has_word(page, opt))
			fail_msg("cmasim %s --help prints %s, which doc/cmasim.1 does not document", cmd, opt);
		found++;
	}
	run_free(&r);
	return found;
}

/* Feed a file whose last line is an unknown key; check the names its refusal accepts. */
static unsigned expect_accepted_documented(const char *page, const char *cmd, const char *text)
{
	const char *last = strrchr(text, '[');	/* the section the unknown key is in */
	char path[64];
	const char *args[] = { cmd, cmd[0] == 'b' ? "--platform" : "--scenario", path, NULL };
	struct run r;
	const char *list;
	unsigned found = 0;

	write_temp(text, path, sizeof(path));
	r = run_cmasim(args);
	unlink(path);
	list = strstr(r.err, "accepted: ");
	if (r.status != 2 || !list)
		fail_msg("cmasim %s with\n%s\nexpected exit 2 and an 'accepted:' list; found exit %d and:\n%s",
			 cmd, text, r.status, r.err);
	for (list += strlen("accepted: "); *list && *list != '\n'; ) {
		size_t n = strcspn(list, ",\n");
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1), list);
		if (!has_word(page, name))
			fail_msg("cmasim %s accepts %s (after %.*s), which doc/cmasim.1 does not document",
				 cmd, name, (int)strcspn(last, "\n"), last);
		found++;
		list += n;
		list += strspn(list, ", ");
	}
	run_free(&r);
	return found;
}

/*
 * The sections a scenario file accepts, as cmasim lists them from its
 * registry ("[scenario], [cost], [pagecache NAME], ..."): for each, an
 * unknown key in it, to check the keys that section accepts.
 */
static unsigned expect_every_section_documented(const char *page)
{
	const char *args[] = { "run", "--scenario", NULL, NULL };
	char path[64], text[128];
	unsigned found = 0, sections = 0;
	const char *list;
	struct run r;

	write_temp("[zzz]\nkey = 1\n", path, sizeof(path));
	args[2] = path;
	r = run_cmasim(args);
	unlink(path);
	list = strstr(r.err, "accepted: ");
	assert_non_null(list);
	for (list += strlen("accepted: "); *list == '['; sections++) {
		size_t n = strcspn(list + 1, " ]");

		snprintf(text, sizeof(text), "[%.*s%s]\nzzz = 1\n", (int)n, list + 1,
			 list[1 + n] == ' ' ? " a" : "");
		found += expect_accepted_documented(page, "run", text);
		list += strcspn(list, "]") + 1;
		list += strspn(list, ", ");
	}
	run_free(&r);
	if (sections < 3)
		fail_msg("cmasim lists %u scenario sections, expected [scenario], [cost] and the workloads'", sections);
	return found;
}

static void man_page_documents_every_option_and_key(void **state)
{
	char *page = man_source("doc/cmasim.1");
	unsigned options = 0, names = 0;

	options += expect_options_documented(page, "run");
	options += expect_options_documented(page, "compare");
	options += expect_options_documented(page, "boot");
	names += expect_every_section_documented(page);
	names += expect_accepted_documented(page, "run", "[zzz]\nkey = 1\n");
	names += expect_accepted_documented(page, "boot", "[platform]\nzzz = 1\n");
	names += expect_accepted_documented(page, "boot", "[platform]\nbank = 0 64M\n[device a]\nzzz = 1\n");
	printf("doc/cmasim.1 documents the %u options --help prints (with repeats) and %u file sections and keys\n",
	       options, names);
	free(page);
}

/* Expect: every function cma.h declares is named in libcma(3), as NAME(. */
static void libcma_page_names_every_function(void **state)
{
	char *header = source_file("include/cma/cma.h"), *page = man_source("doc/libcma.3");
	unsigned found = 0;

	for (const char *s = strstr(header, "cma_"); s; s = strstr(s + 1, "cma_")) {
		size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
		char call[80];

		if (s[n] != '(' || (s > header && (isalnum((unsigned char)s[-1]) || s[-1] == '_')) ||
		    n + 2 > sizeof(call))
			continue;
		snprintf(call, sizeof(call), "%.*s(", (int)n, s);
		if (!strstr(page, call))
			fail_msg("include/cma/cma.h declares %.*s, which doc/libcma.3 does not name", (int)n, s);
		found++;
	}
	assert_true(found > 50);
	printf("doc/libcma.3 names the %u function references of cma.h\n", found);
	free(header);
	free(page);
}

/*
 * Expect: the README and the design document point only inside the
 * repository: every relative link names a file of the tree, and no link
 * or quoted path climbs out of it with "../".
 */
static void docs_link_inside_the_repository(void **state)
{
	static const char *const docs[] = { "README.md", "doc/design.md" };
	unsigned links = 0;

	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		char *text = source_file(docs[i]);

		if (strstr(text, "../"))
			fail_msg("%s refers to \"%.40s\", outside the repository", docs[i],
				 strstr(text, "../"));
		for (const char *s = strstr(text, "]("); s; s = strstr(s + 1, "](")) {
			size_t n = strcspn(s + 2, ")#");
			char rel[256], path[PATH_MAX + 300];

			if (!n || n >= sizeof(rel) || !strncmp(s + 2, "http", 4))
				continue;
			snprintf(rel, sizeof(rel), "%.*s", (int)n, s + 2);
			snprintf(path, sizeof(path), "%s/%s", source_dir, rel);
			if (access(path, R_OK))
				fail_msg("%s links to %s, which the tree does not have", docs[i], rel);
			links++;
		}
		free(text);
	}
	assert_true(links >= 2);
	printf("README.md and doc/design.md: %u links, all inside the tree\n", links);
}

static int setup_paths(void **state)
{
	char exe[PATH_MAX], build[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *env;

	assert_true(n > 0);
	exe[n] = '\0';
	/* BUILD/tests/test_cmasim -> BUILD -> the source tree */
	snprintf(build, sizeof(build), "%s", dirname(dirname(exe)));
	snprintf(source_dir, sizeof(source_dir), "%s/..", build);
	env = getenv("CMASIM");
	snprintf(cmasim, sizeof(cmasim), "%s", env ? env : build);
	if (!env)
		strncat(cmasim, "/cmasim", sizeof(cmasim) - strlen(cmasim) - 1);
	env = getenv("CMA_GOLDEN_DIR");
	if (env) {
		snprintf(golden_dir, sizeof(golden_dir), "%s", env);
	} else {
		snprintf(golden_dir, sizeof(golden_dir), "%s", dirname(build));
		strncat(golden_dir, "/tests/golden", sizeof(golden_dir) - strlen(golden_dir) - 1);
	}
	snprintf(platforms_dir, sizeof(platforms_dir), "%s/../platforms", golden_dir);
	if (access(cmasim, X_OK)) {
		print_error("cmasim binary %s is missing: run make first, or set CMASIM\n", cmasim);
		return -1;
	}
	printf("cmasim: %s, golden files: %s\n", cmasim, golden_dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(boot_x86_golden),
		cmocka_unit_test(boot_default_platform_is_x86),
		cmocka_unit_test(boot_dump_area_files),
		cmocka_unit_test(boot_arm_golden),
		cmocka_unit_test(boot_s5p_mfc_golden),
		cmocka_unit_test(boot_s5p_mfc_cma0_golden),
		cmocka_unit_test(boot_platform_file_same_as_builtin),
		cmocka_unit_test(boot_platform_file_devices_golden),
		cmocka_unit_test(boot_overrides_and_every_dump),
		cmocka_unit_test(boot_s5p_mfc_failure_names_the_device),
		cmocka_unit_test(list_golden),
		cmocka_unit_test(help_exits_0),
		cmocka_unit_test(bad_input_is_refused),
		cmocka_unit_test(platform_file_fixed_base_taken),
		cmocka_unit_test(run_scenario_errors_name_file_line_and_key),
		cmocka_unit_test(run_platform_file_next_to_the_scenario),
		cmocka_unit_test(show_round_trips_through_run),
		cmocka_unit_test(run_trace_is_ftrace_text),
		cmocka_unit_test(compare_reports_to_files),
		cmocka_unit_test(run_dump_and_output_dir),
		cmocka_unit_test(man_pages_render_without_warnings),
		cmocka_unit_test(man_page_documents_every_option_and_key),
		cmocka_unit_test(libcma_page_names_every_function),
		cmocka_unit_test(docs_link_inside_the_repository),
	};

	return cmocka_run_group_tests_name("cmasim", tests, setup_paths, NULL);
}
