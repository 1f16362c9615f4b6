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
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <libgen.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

static char cmasim[PATH_MAX], golden_dir[PATH_MAX], platforms_dir[PATH_MAX];
static rlim_t child_file_limit = RLIM_INFINITY;	/* RLIMIT_FSIZE of the cmasim a test runs */
static char source_dir[PATH_MAX + 8];	/* the tree: doc/ and include/ for the manual pages' tests */
static char build_name[NAME_MAX + 1];	/* the build directory's name in the tree: build, build-address... */

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
		struct rlimit limit = { child_file_limit, child_file_limit };

		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		/* past the limit a write fails with EFBIG, as on a full disk, instead of killing cmasim */
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &limit))
			_exit(126);
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

/*
 * Expect the arm64 board under its 6.12 profile: ZONE_DMA below 4 GiB
 * and Normal above, DMA32 empty, no HighMem; the 32 MiB default area
 * (CONFIG_CMA_SIZE_MBYTES) at the top of ZONE_DMA; pagetypeinfo in 6.12's
 * layout (Movable before Reclaimable, HighAtomic).
 */
static void boot_arm64_golden(void **state)
{
	expect_boot_golden("boot-arm64.txt", ARGS("boot", "--platform", "arm64", "--dump",
						  "pagetypeinfo", "--dump", "cma"));
}

/*
 * Expect the arm64 board with cma=64M: under 3.13 (before arm64_dma_cma)
 * no default area and the line saying cma= goes to init; under 3.14 and
 * 6.12 the 64 MiB default area at the top of ZONE_DMA.
 */
static void boot_arm64_dma_cma_by_release(void **state)
{
	static const char *const kernels[] = { "3.13", "3.14", "6.12" };

	for (unsigned k = 0; k < 3; k++) {
		struct run r = run_cmasim(ARGS("boot", "--platform", "arm64", "--kernel", kernels[k],
					       "--cmdline", "cma=64M"));
		bool none = strstr(r.out, "(default)  -                   none\n") != NULL;
		bool area = strstr(r.out, "0xfc000000-0xffffffff (64 MiB, the default area)") != NULL;
		bool said = strstr(r.out, "cma=64M: no such parameter in kernel 3.13 on arm64") != NULL;

		assert_int_equal(r.status, 0);
		if (none != !k || area != !!k || said != !k)
			fail_msg("kernel %s: expected %s, got:\n%s", kernels[k],
				 k ? "the 64 MiB default area" : "no default area and cma= going to init", r.out);
		run_free(&r);
	}
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
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/s5p-mfc.ini", platforms_dir);
	expect_boot_golden("boot-s5p-mfc.txt", ARGS("boot", "--platform", path, "--dump", "pagetypeinfo",
						    "--dump", "cma"));
}

/* Expect: a file's devices (own area, area below a limit, shared, none), cmdline and Kconfig. */
static void boot_platform_file_devices_golden(void **state)
{
	char path[PATH_MAX + 64];

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
 * Expect: an area the board cannot hold is the kernel's failure line in
 * the log, and the boot goes on without it (exit 0), as the kernel does.
 */
static void boot_area_not_reserved_boots_on(void **state)
{
	struct run r = run_cmasim(ARGS("boot", "--platform", "arm", "--cmdline", "cma=4G"));

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "cma: CMA: failed to reserve 4096 MiB\n"));
	assert_non_null(strstr(r.out, "(default)  -                   none\n"));
	run_free(&r);
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
	r = run_cmasim(ARGS("boot", "--kernel", "6.12", "--cmdline", "cma=16M", "--dump", "debug/cma/reserved/count",
			    "--dump", "sys/kernel/mm/cma/reserved/alloc_pages_success"));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\n==> /sys/kernel/debug/cma/reserved/count <==\n4096\n"));
	assert_non_null(strstr(r.out, "\n==> /sys/kernel/mm/cma/reserved/alloc_pages_success <==\n0\n"));
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
	{ "replay without a trace", { "replay" }, NULL, 2, "cmasim replay: which trace? expected cmasim replay TRACE" },
	{ "replay an unknown event", { "replay", "@FILE" }, "  a-1 [000] ..... 1.000000: irq_handler_entry: irq=5\n", 2,
	  ":1: unknown event irq_handler_entry; accepted: cma_alloc_start" },
	{ "replay a trace without CMA", { "replay", "bench/oracle/results/amd64-idle-1g/trace.txt" }, NULL, 2,
	  "amd64-idle-1g/trace.txt: no CMA request" },
	{ "replay: unknown what-if policy", { "replay", "bench/oracle/results/arm64-anon-32m/trace.txt", "--platform", "arm", "--policy", "slub" },
	  NULL, 2, "cmasim replay: --policy 'slub': accepted cma, carveout, buddy, gcma or predict" },
	{ "replay: a page event of an unmodelled format", { "replay", "@FILE" },
	  "  a-1 [000] ..... 1.000000: mm_filemap_add_to_page_cache: dev 254:1 ino 8c page=c0a00000\n", 2,
	  ":1: mm_filemap_add_to_page_cache has no field pfn: an event format this reader does not model" },
	{ "no command", { NULL }, NULL, 2, "cmasim: no command: accepted run, compare, size, sweep, boot, import, replay, snapshot, list, show" },
	{ "unknown command", { "frobnicate" }, NULL, 2, "unknown command 'frobnicate': accepted run, compare, size, sweep, boot, import, replay, snapshot, list, show" },
	{ "list with an argument", { "list", "x86" }, NULL, 2, "unexpected argument 'x86': list takes none" },
	{ "unknown long option", { "boot", "--bogus" }, NULL, 2,
	  "unknown option '--bogus': accepted --platform, --cmdline, --kconfig, --dump, --memory, --kernel, --help" },
	{ "unknown short option", { "boot", "-x" }, NULL, 2, "unknown option '-x': accepted" },
	{ "--platform without value", { "boot", "--platform" }, NULL, 2,
	  "--platform needs a value: a platform name or file" },
	{ "--cmdline without value", { "boot", "--cmdline" }, NULL, 2, "--cmdline needs a value: a kernel command line" },
	{ "--kconfig without value", { "boot", "--kconfig" }, NULL, 2, "--kconfig needs a value: a .config file" },
	{ "--dump without value", { "boot", "--dump" }, NULL, 2,
	  "--dump needs a value: a /proc file name (buddyinfo, pagetypeinfo" },
	{ "stray argument", { "boot", "x86" }, NULL, 2, "unexpected argument 'x86': boot takes only options" },
	{ "boot: unknown kernel profile", { "boot", "--kernel", "6.13" }, NULL, 2,
	  "cmasim boot: --kernel '6.13': no such kernel profile: accepted 3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12)" },
	{ "--kernel without value", { "boot", "--kernel" }, NULL, 2,
	  "--kernel needs a value: a kernel profile (3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12))" },
	{ "unknown platform", { "boot", "--platform", "pdp11" }, NULL, 2,
	  "--platform 'pdp11': no such platform: accepted x86, arm, s5p-mfc, arm64 (see 'cmasim list'), or the path of a platform file" },
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
	{ "file: the first of two errors", { "boot", "--platform", "@FILE" }, "[platform]\nnot a key\narch = mips\nbank = 0 64M\n", 2,
	  ":2: expected 'key = value', '[platform]', '[device NAME]', a comment or a blank line" },
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
	{ "file: unknown kernel profile", { "boot", "--platform", "@FILE" }, "[platform]\nbank = 0 64M\nkernel = 6.13\n", 2,
	  ":3: kernel = 6.13: expected the kernel profile (3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12)), the image's BASE SIZE" },
	{ "file: kernel profile with a malformed image", { "boot", "--platform", "@FILE" },
	  "[platform]\nbank = 0 64M\nkernel = 6.12 16M\n", 2, ":3: kernel = 6.12 16M: expected the kernel profile" },
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
	  "cmasim run: --policy 'lru': accepted cma, carveout, buddy, gcma or predict" },
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
	  "cmasim run: --duration '5': expected a whole number with a unit: us, ms, s, m or h (e.g. 33ms, 5s; 1500ms, not 1.5s), above 0" },
	{ "run: duration past 2^64 ns", { "run", "--duration", "99999999999h" }, NULL, 2,
	  "cmasim run: --duration '99999999999h': too large: the largest accepted is 5124095h (2^64 ns)" },
	{ "run: duration past 2^64 before its unit", { "run", "--duration", "99999999999999999999999s" }, NULL, 2,
	  "--duration '99999999999999999999999s': too large" },
	{ "run: ambiguous abbreviation", { "run", "--s", "camera-browser" }, NULL, 2,
	  "cmasim run: option '--s' is ambiguous: it could be --scenario, --set, --seed" },
	{ "run: zero duration", { "run", "--duration", "0s" }, NULL, 2, "--duration '0s': expected a whole number" },
	{ "compare: bad duration", { "compare", "--duration", "soon" }, NULL, 2, "cmasim compare: --duration 'soon'" },
	{ "run: unknown scenario", { "run", "--scenario", "nosuch" }, NULL, 2,
	  "--scenario 'nosuch': no such scenario: accepted camera-browser, video-pinned, mfc-decode, x86-4g, gcma-board (see 'cmasim list'), or the path of a scenario file" },
	{ "run: missing scenario file", { "run", "--scenario", "/nonexistent/s.ini" }, NULL, 2,
	  "/nonexistent/s.ini: cannot read the scenario file: No such file or directory" },
	{ "run: --scenario without value", { "run", "--scenario" }, NULL, 2, "--scenario needs a value" },
	{ "run: unknown kernel profile", { "run", "--kernel", "2.6" }, NULL, 2,
	  "cmasim run: --kernel '2.6': no such kernel profile: accepted 3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12)" },
	{ "run: --kernels", { "run", "--kernels", "3.5,6.12" }, NULL, 2,
	  "--kernels is compare's option: give --kernel 3.5..6.12" },
	{ "compare: unknown kernel in the list", { "compare", "--kernels", "3.5,6.13" }, NULL, 2,
	  "cmasim compare: --kernels '3.5,6.13': unknown kernel profile '6.13': accepted 3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12), separated by commas" },
	{ "compare: empty kernel list", { "compare", "--kernels", "," }, NULL, 2,
	  "cmasim compare: --kernels ',' names no kernel profile" },
	{ "compare: unknown policy in the list", { "compare", "--policies", "cma,lru" }, NULL, 2,
	  "--policies 'cma,lru': unknown policy 'lru': accepted cma, carveout, buddy, gcma, predict, separated by commas" },
	/* --cma, --cmdline, --set: the scenario parser's own messages */
	{ "run: malformed --cma", { "run", "--cma", "12Q" }, NULL, 2,
	  "cmasim run: --cma '12Q': expected a size in bytes with an optional K, M, G, T, P or E suffix, e.g. 64M" },
	{ "compare: negative --cma", { "compare", "--cma", "-5" }, NULL, 2, "cmasim compare: --cma '-5': expected a size" },
	{ "run: --cma without value", { "run", "--cma" }, NULL, 2, "--cma needs a value: a size, e.g. 64M" },
	{ "run: --set without '='", { "run", "--set", "camera.ring" }, NULL, 2,
	  "cmasim run: --set 'camera.ring': expected SECTION.KEY=VALUE, e.g. camera.ring=2" },
	{ "run: --set without a section", { "run", "--set", "ring=2" }, NULL, 2, "--set 'ring=2': expected SECTION.KEY=VALUE" },
	{ "run: --set of no section", { "run", "--set", "nosuch.ring=2" }, NULL, 2,
	  "cmasim run: --set nosuch.ring=2: no section 'nosuch' in scenario camera-browser: accepted scenario, cost, browser-cache, media, browser, kernel, camera, or a workload's kind" },
	{ "run: --set of an unknown key", { "run", "--set", "camera.colour=red" }, NULL, 2,
	  "--set camera.colour=red: [device camera]: unknown key 'colour' in [device camera]; accepted: start, stop, on_cpu, size, period, ring" },
	{ "run: --set of a bad value", { "run", "--set", "camera.ring=100" }, NULL, 2,
	  "cmasim run: --set camera.ring=100: [device camera]: ring = 100: at most 64" },
	{ "run: --set of a bad scenario value", { "run", "--set", "scenario.cma=lots" }, NULL, 2,
	  "--set scenario.cma=lots: [scenario]: cma = lots: expected a size in bytes" },
	{ "run: --set of an ambiguous kind", { "run", "--scenario", "mfc-decode", "--set", "device.ring=2" }, NULL, 2,
	  "--set device.ring=2: 'device' is the kind of several workloads (s5p-mfc-r, s5p-mfc-l, ...): name one" },
	{ "compare: --set the file's checks refuse", { "compare", "--set", "camera.stop=1s" }, NULL, 2,
	  "cmasim compare: scenario camera-browser with the command line's changes: [device camera]: stop must come after start" },
	{ "run: --set of a cost key", { "run", "--set", "cost.copy_mbps=0" }, NULL, 2,
	  "--set cost.copy_mbps=0: [cost]: copy_mbps = 0: expected a number above 0" },
	{ "run: file's cma key", { "run", "--scenario", "@FILE" },
	  "[scenario]\nplatform = arm\nduration = 1s\ncma = 64MB\n[anon a]\nrss = 1M\n", 2,
	  ":4: cma = 64MB: expected a size in bytes with an optional K, M, G, T, P or E suffix" },
	/* an area the boot could not reserve: the kernel's line and the largest that fits */
	{ "run: cma= larger than the board", { "run", "--scenario", "@FILE" },
	  "[scenario]\nplatform = arm\ncmdline = cma=4G\nduration = 1s\n[anon a]\nrss = 1M\nrate = 10\n", 2,
	  "a CMA area could not be reserved at boot; the kernel said:\n  cma: CMA: failed to reserve 4096 MiB\ncmasim: the largest cma= with which every area is reserved: cma=752M (--cma 752M)\n" },
	{ "compare: --cma larger than lowmem", { "compare", "--cma", "760M" }, NULL, 2,
	  "cma: CMA: failed to reserve 760 MiB\ncmasim: the largest cma= with which every area is reserved: cma=752M" },
	{ "run: the board's own area does not fit", { "run", "--scenario", "mfc-decode", "--set", "scenario.memory=128M" }, NULL, 2,
	  "  cma: CMA: area at 51000000 has no memory at pfn 0x51000: dropped, its 8 MiB stay reserved\ncmasim: even with cma=0 (no default area) an area the board declares for a device is not reserved: no cma= fits" },
	{ "show: unknown scenario", { "show", "nosuch" }, NULL, 2,
	  "cmasim show: 'nosuch': no such scenario: accepted camera-browser, video-pinned, mfc-decode, x86-4g, gcma-board" },
	{ "show: no name", { "show" }, NULL, 2, "cmasim show: give one built-in scenario's name: camera-browser" },
	{ "size: scenario without devices", { "size", "--scenario", "@FILE" },
	  "[scenario]\nplatform = arm\nduration = 1s\n[anon app]\nrss = 1M\nrate = 10\n", 2,
	  "has no device: nothing asks for contiguous memory" },
	{ "size: --max the kernel cannot reserve", { "size", "--max", "4G" }, NULL, 2,
	  "cmasim size: --max 4096M: the kernel cannot reserve cma=4096M on platform arm; it said:\n"
	  "  cma: CMA: failed to reserve 4096 MiB\ncmasim size: the largest cma= that fits: --max 752M" },
	{ "size: --cma", { "size", "--cma", "64M" }, NULL, 2, "cmasim size: --cma is what size finds" },
	{ "size: --step not a multiple of the alignment", { "size", "--step", "3M" }, NULL, 2,
	  "cmasim size: --step 3M: expected a multiple of the area alignment, 8M" },
	{ "size: no seeds", { "size", "--seeds", "0" }, NULL, 2, "cmasim size: --seeds '0': expected a number from 1 to 1000" },
	{ "size: too many jobs", { "size", "--jobs", "1025" }, NULL, 2, "cmasim size: --jobs '1025': expected a number from 1 to 1024" },
	{ "size: zero step", { "size", "--step", "0" }, NULL, 2, "cmasim size: --step '0': expected a decimal or 0x hex number" },
	{ "size: unknown kernel", { "size", "--kernel", "6.13" }, NULL, 2,
	  "cmasim size: --kernel '6.13': no such kernel profile: accepted 3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12)" },
	{ "sweep: unknown kernel", { "sweep", "--param", "cma=16M", "--kernel", "6.13", "-o", "/nonexistent/sw" }, NULL, 2,
	  "cmasim sweep: --kernel '6.13': no such kernel profile: accepted 3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12)" },
	/* sweep: nothing runs and no directory is made */
	{ "sweep: unknown key", { "sweep", "--param", "bogus=1", "-o", "/nonexistent/sw" }, NULL, 2,
	  "cmasim sweep: --param: unknown key 'bogus': accepted cma, seed, duration, or SECTION.KEY of the scenario (e.g. anon.rss, camera.ring)" },
	{ "sweep: unknown section", { "sweep", "--param", "nosuch.rss=1M", "-o", "/nonexistent/sw" }, NULL, 2,
	  "cmasim sweep: --param nosuch.rss=1M: no section 'nosuch' in scenario camera-browser: accepted scenario, cost," },
	{ "sweep: unknown key of a section", { "sweep", "--param", "anon.size=1M", "-o", "/nonexistent/sw" }, NULL, 2,
	  "--param anon.size=1M: [anon browser]: unknown key 'size' in [anon browser]; accepted: start, stop, on_cpu, rss," },
	{ "sweep: bad value of a key", { "sweep", "--param", "camera.ring=2,many", "-o", "/nonexistent/sw" }, NULL, 2,
	  "--param camera.ring=many: [device camera]: ring = many:" },
	{ "sweep: no values", { "sweep", "--param", "cma", "-o", "/nonexistent/sw" }, NULL, 2,
	  "--param 'cma': expected KEY=V1,V2,... or KEY=START..END/STEP; KEY is cma, seed, duration" },
	{ "sweep: bad size", { "sweep", "--param", "cma=16M,12Q", "-o", "/nonexistent/sw" }, NULL, 2,
	  "--param cma=12Q: [scenario]: cma = 12Q: expected a size in bytes with an optional K, M, G, T, P or E suffix" },
	{ "sweep: bad duration", { "sweep", "--param", "duration=5", "-o", "/nonexistent/sw" }, NULL, 2,
	  "--param duration: '5': expected a whole number with a unit" },
	{ "sweep: range backwards", { "sweep", "--param", "cma=64M..16M/16M", "-o", "/nonexistent/sw" }, NULL, 2,
	  "--param cma: range '64M..16M/16M': expected START..END/STEP with START <= END, STEP above 0" },
	{ "sweep: range without step", { "sweep", "--param", "cma=16M..64M", "-o", "/nonexistent/sw" }, NULL, 2,
	  "range '16M..64M': expected START..END/STEP" },
	{ "sweep: an area the board cannot reserve", { "sweep", "--param", "cma=16M,4G", "-o", "/nonexistent/sw" }, NULL, 2,
	  "cmasim sweep: --param cma=4G:\ncmasim: scenario camera-browser: a CMA area could not be reserved at boot; the kernel said:\n  cma: CMA: failed to reserve 4096 MiB\n" },
	{ "sweep: a key twice", { "sweep", "--param", "cma=16M", "--param", "cma=32M", "-o", "/nonexistent/sw" }, NULL, 2,
	  "--param cma is given twice: list its values in one" },
	{ "sweep: seeds twice", { "sweep", "--param", "seed=1,2", "--seeds", "3", "-o", "/nonexistent/sw" }, NULL, 2,
	  "--param seed=... gives the seeds: drop --seeds and --seed" },
	{ "sweep: no directory", { "sweep", "--param", "cma=16M" }, NULL, 2,
	  "cmasim sweep: give -o DIR, where the reports and summaries go (or --collect DIR)" },
	{ "sweep: zero jobs", { "sweep", "--jobs", "0", "-o", "/nonexistent/sw" }, NULL, 2,
	  "cmasim sweep: --jobs '0': expected a number from 1 to 1024" },
	{ "sweep: too many seeds", { "sweep", "--seeds", "1001", "-o", "/nonexistent/sw" }, NULL, 2,
	  "cmasim sweep: --seeds '1001': expected a number from 1 to 1000" },
	{ "boot: memory base not page-aligned", { "boot", "--memory", "1G@0x123" }, NULL, 2,
	  "cmasim: --memory '1G@0x123': the base must be a multiple of the page size, 0x1000 on platform x86 (0 is one); 0x123 is not" },
	{ "boot: memory size not page-aligned", { "boot", "--memory", "4097@0" }, NULL, 2,
	  "cmasim: --memory '4097@0': the size must be a multiple of the page size, 0x1000 on platform x86; 0x1001 is not" },
	{ "sweep: collect without a manifest", { "sweep", "--collect", "/nonexistent/sw" }, NULL, 2,
	  "--collect /nonexistent/sw: no /nonexistent/sw/sweep-points.tsv (cmasim sweep --print-commands -o /nonexistent/sw writes it)" },
	{ "sweep: collect and a grid", { "sweep", "--collect", "/tmp", "--param", "cma=16M" }, NULL, 2,
	  "--collect DIR takes no other option" },
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
	if (snprintf(path, DIR_PATH_MAX, "%s/%s", dir, name) >= DIR_PATH_MAX)
		fail_msg("%s/%s: path too long", dir, name);
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
	  "unknown key 'bogus' in [scenario]; accepted: name, description, platform, cmdline, cma, kconfig, kernel, memory, cpus, swap, swap_synchronous, storage_memory, duration, seed, sample, snapshot, printk_contig_passes" },
	{ "unknown kernel profile", SCENARIO_HEAD "kernel = 3.4\n" ONE_PROCESS, 5,
	  "kernel = 3.4: no such kernel profile: accepted 3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12)" },
	{ "unknown key of a workload", SCENARIO_HEAD ONE_PROCESS "size = 1M\n", 8,
	  "unknown key 'size' in [anon a]; accepted: start, stop, on_cpu, rss, rate, lifetime, restart" },
	{ "unknown cost key", SCENARIO_HEAD "[cost]\nwarp_mbps = 9\n" ONE_PROCESS, 6,
	  "unknown key 'warp_mbps' in [cost]; accepted: cpu_mhz, copy_mbps, zero_mbps, scan_cycles, page_cycles, storage_write_mbps, storage_read_mbps, lock_us, migrate_us, unmap_us, tlb_ipi_us, ipi_us, wakeup_us, preempt_us, lock_handoff_ns, mutex_handoff_us" },
	{ "negative cost", SCENARIO_HEAD "[cost]\nstorage_gc_mib = -1\n" ONE_PROCESS, 6,
	  "storage_gc_mib = -1: expected a number of at least 0 (e.g. storage_gc_mib = 700)" },
	{ "zero cost where 0 means nothing", SCENARIO_HEAD "[cost]\nlock_us = 0\n" ONE_PROCESS, 6,
	  "lock_us = 0: expected a number above 0 (e.g. lock_us = 700)" },
	{ "bad size", SCENARIO_HEAD ONE_PROCESS "[device d]\nsize = 3Q\nperiod = 1s\n", 9,
	  "size = 3Q: expected a decimal or 0x hex number, optionally with a K, M, G or T suffix" },
	{ "bad duration", SCENARIO_HEAD ONE_PROCESS "[device d]\nsize = 3M\nperiod = 1 fortnight\n", 10,
	  "period = 1 fortnight: expected a whole number with a unit: us, ms, s, m or h (e.g. 33ms, 5s; 1500ms, not 1.5s)" },
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
	  "platform = vax: no built-in platform has that name and the platform file @DIR/vax cannot be read (No such file or directory); accepted x86, arm, s5p-mfc, arm64, or the path of a platform file" },
	{ "platform file missing next to the scenario", "[scenario]\nplatform = boards/none.ini\nduration = 1s\n" ONE_PROCESS, 2,
	  "platform = boards/none.ini: no built-in platform has that name and the platform file @DIR/boards/none.ini cannot be read (No such file or directory)" },
	/* libinih goes on after the first error: the message must still be the first line's */
	{ "an unreadable line before a bad value", SCENARIO_HEAD "not a key\n" ONE_PROCESS "rate = soon\n", 5,
	  "expected 'key = value', a [section], a comment or a blank line" },
	{ "two bad values", SCENARIO_HEAD ONE_PROCESS "lifetime = lots\nstart = soon\n", 8,
	  "lifetime = lots: expected a whole number with a unit" },
	{ "a duration past 2^64 ns", SCENARIO_HEAD ONE_PROCESS "lifetime = 99999999999h\n", 8,
	  "lifetime = 99999999999h: too large: the largest accepted is 5124095h (2^64 ns)" },
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
	if (r.status || !strstr(r.out, "scenario s, platform s5p-mfc-file, kernel 3.5, policy cma, seed 1, duration 1.000 s\n"))
		fail_msg("expected exit 0 and a run on the file's platform; found exit %d, stdout:\n%s\nstderr:\n%s", r.status,
			 r.out, r.err);
	run_free(&r);
	free(board);
	remove_dir(dir);
}

/* Expect: a platform file without nr_cpus runs on one CPU, as cma_mm_create reads 0. */
static void run_platform_file_without_nr_cpus(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX];
	struct run r;

	make_dir(dir);
	dir_file(dir, "board.ini", "[platform]\narch = arm\nbank = 0x40000000 256M\n", path);
	dir_file(dir, "s.ini", "[scenario]\nplatform = board.ini\nduration = 1s\n" ONE_PROCESS, path);
	r = run_cmasim(ARGS("run", "--scenario", path));
	if (r.status || !strstr(r.out, ", policy cma, seed 1, duration 1.000 s\n"))
		fail_msg("expected exit 0 and a run on one CPU; found exit %d, stdout:\n%s\nstderr:\n%s", r.status, r.out,
			 r.err);
	run_free(&r);
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

/* The /proc/cma "count:" of the area a run of camera-browser with @args had, 0 for none. */
static unsigned long cma_count(const char *const *args)
{
	const char *argv[16] = { "run", "--duration", "1s", "--dump", "cma" };
	unsigned n = 5;
	unsigned long count = 0;
	const char *at;
	struct run r;

	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	r = run_cmasim(argv);
	if (r.status)
		fail_msg("cmasim run ... %s: expected exit 0, found %d:\n%s", argv[5], r.status, r.err);
	at = strstr(r.out, "  count: ");
	if (at)
		count = strtoul(at + 9, NULL, 10);
	run_free(&r);
	return count;
}

/*
 * Expect: --cma replaces the scenario's cma=64M (16384 pages), keeping the
 * rest of the line; --cmdline replaces the whole line and --cma applies on
 * top of it; --cma 0 leaves no area; --set scenario.cma is --cma.
 */
static void run_cma_and_cmdline_replace_the_area(void **state)
{
	struct run a, b;

	assert_int_equal(cma_count(ARGS("--policy", "cma")), 16384);
	assert_int_equal(cma_count(ARGS("--cma", "32M")), 8192);
	assert_int_equal(cma_count(ARGS("--cma", "0x1000000")), 4096);
	assert_int_equal(cma_count(ARGS("--cmdline", "coherent_pool=1M cma=16M")), 4096);
	assert_int_equal(cma_count(ARGS("--cmdline", "cma=16M", "--cma", "20M")), 6144);	/* 8 MiB aligned */
	assert_int_equal(cma_count(ARGS("--cma", "0")), 0);
	assert_int_equal(cma_count(ARGS("--cma", "752M")), 192512);	/* the largest that fits */
	assert_int_equal(cma_count(ARGS("--set", "scenario.cma=32M")), 8192);
	a = run_cmasim(ARGS("compare", "--duration", "2s", "--cma", "32M"));
	b = run_cmasim(ARGS("compare", "--duration", "2s", "--set", "scenario.cmdline=cma=32M"));
	assert_int_equal(a.status, 0);
	assert_int_equal(b.status, 0);
	cut_host_line(a.out);
	cut_host_line(b.out);
	assert_string_equal(a.out, b.out);
	run_free(&a);
	run_free(&b);
}

/*
 * Expect: --set changes a workload's key, by its name or by its kind
 * (the one anon workload), as the file's line would: 64 MiB resident
 * for the browser in place of 256 MiB; a repeating key starts over.
 */
static void run_set_changes_the_scenario(void **state)
{
	struct run by_name = run_cmasim(ARGS("run", "--duration", "20s", "--set", "browser.rss=64M")),
		   by_kind = run_cmasim(ARGS("run", "--duration", "20s", "--set", "anon.rss=64M")),
		   snaps = run_cmasim(ARGS("run", "--duration", "20s", "--report", "json",
					   "--set", "scenario.snapshot=2s"));

	assert_int_equal(by_name.status, 0);
	assert_int_equal(by_kind.status, 0);
	assert_int_equal(snaps.status, 0);
	assert_non_null(strstr(by_name.out, "browser             anon"));
	assert_non_null(strstr(by_name.out, "          64.0"));
	cut_host_line(by_name.out);
	cut_host_line(by_kind.out);
	assert_string_equal(by_name.out, by_kind.out);
	/* the built-in's four snapshots (5s, 31s, 37s, 60s) replaced by one */
	assert_non_null(strstr(snaps.out, "\"t_s\": 2.000000"));
	assert_null(strstr(snaps.out, "\"t_s\": 5.000000"));
	run_free(&by_name);
	run_free(&by_kind);
	run_free(&snaps);
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
 * Expect: a report or trace whose write fails (here past a file size
 * limit, as on a full disk) leaves the file of that name as it was, no
 * temporary file beside it, and a message naming the file; exit 1.
 */
static void run_failed_write_keeps_the_old_file(void **state)
{
	static const char *const which[] = { "--output", "--trace" };
	char dir[DIR_MAX], path[DIR_PATH_MAX], file[DIR_PATH_MAX], *text;
	unsigned entries = 0;
	struct dirent *e;
	struct run r;
	DIR *d;

	make_dir(dir);
	dir_file(dir, "s.ini", camera_scenario, path);
	for (size_t i = 0; i < sizeof(which) / sizeof(which[0]); i++) {
		dir_file(dir, "old.txt", "the old file\n", file);
		child_file_limit = 32 << 10;	/* the HTML report and the trace are larger, the text on stdout smaller */
		r = run_cmasim(ARGS("run", "--scenario", path, "--report", "html", which[i], file));
		child_file_limit = RLIM_INFINITY;
		if (r.status != 1 || !strstr(r.err, file) || !strstr(r.err, "File too large"))
			fail_msg("%s past the size limit: expected exit 1 and a message naming %s; found exit %d and:\n%s",
				 which[i], file, r.status, r.err);
		run_free(&r);
		text = read_file(file);
		assert_non_null(text);
		if (strcmp(text, "the old file\n"))
			fail_msg("%s past the size limit: expected %s as it was; found %zu bytes:\n%.200s", which[i], file,
				 strlen(text), text);
		free(text);
	}
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d)))
		entries += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
	closedir(d);
	assert_int_equal(entries, 2);	/* s.ini and old.txt: no temporary file left */
	/* without the limit the same run replaces it */
	r = run_cmasim(ARGS("run", "--scenario", path, "--report", "html", "--output", file));
	assert_int_equal(r.status, 0);
	run_free(&r);
	text = read_file(file);
	assert_true(!strncmp(text, "<!DOCTYPE html>\n", 16));
	free(text);
	remove_dir(dir);
}

/* A file of @dir that is some write's temporary one (".NAME.XXXXXX", "NAME.tmp", "NAME.part"), or NULL. */
static char *temp_file_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;

	assert_non_null(d);
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if ((e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) ||
		    (n > 4 && !strcmp(e->d_name + n - 4, ".tmp")) || (n > 5 && !strcmp(e->d_name + n - 5, ".part")))
			found = strdup(e->d_name);
	}
	closedir(d);
	return found;
}

/*
 * Expect: cmasim killed (SIGTERM, as Ctrl-C is SIGINT) while it writes a
 * trace dies of the signal, leaves the old file as it was and removes its
 * temporary file: also when the kill comes the moment that file appears
 * (inotify), before cmasim could have done anything more.
 */
static void run_killed_leaves_the_old_file_alone(void **state)
{
	const char *argv[] = { cmasim, "run", "--trace", NULL, NULL };
	char dir[DIR_MAX], trace[DIR_PATH_MAX], *text;
	int status, watch, round;
	struct inotify_event *ev;
	char buf[4096];
	ssize_t n;
	pid_t pid;

	make_dir(dir);
	argv[3] = dir_file(dir, "trace.txt", "the old trace\n", trace);
	for (round = 0; round < 20; round++) {
		watch = inotify_init1(IN_CLOEXEC);
		assert_true(watch >= 0);
		assert_true(inotify_add_watch(watch, dir, IN_CREATE) >= 0);
		fflush(NULL);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			dup2(null, 2);
			signal(SIGTERM, SIG_DFL);
			execv(cmasim, (char *const *)argv);
			_exit(127);
		}
		/* the default scenario runs for seconds: its trace file is the first it makes */
		if (poll(&(struct pollfd){ .fd = watch, .events = POLLIN }, 1, 60 * 1000) != 1) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(watch);
			fail_msg("round %d: cmasim made no file in %s within 60 s", round, dir);
		}
		n = read(watch, buf, sizeof(buf));
		assert_true(n >= (ssize_t)sizeof(*ev));
		ev = (struct inotify_event *)buf;
		if (!ev->len || strncmp(ev->name, ".trace.txt.", 11))
			fail_msg("expected cmasim to make .trace.txt.XXXXXX first; it made '%s'", ev->len ? ev->name : "");
		assert_int_equal(kill(pid, SIGTERM), 0);
		close(watch);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGTERM)
			fail_msg("round %d: expected cmasim to die of SIGTERM; found status %#x", round, status);
		if ((text = temp_file_in(dir)))
			fail_msg("round %d: killed the moment its temporary file appeared, cmasim left %s", round, text);
		text = read_file(trace);
		assert_string_equal(text, "the old trace\n");
		free(text);
	}
	remove_dir(dir);
}

/* ---- an output's name that is not a regular file: a link, a device, a FIFO, a socket, a directory ---- */

/*
 * A child that copies what arrives at @path, a FIFO (@listener < 0) or
 * the Unix socket @listener listens at, to its end into @copy.
 */
static pid_t start_reader(const char *path, int listener, const char *copy)
{
	char buf[4096];
	ssize_t n;
	int in, out;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid)
		return pid;
	in = listener >= 0 ? accept(listener, NULL, NULL) : open(path, O_RDONLY);
	out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0)
		_exit(1);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			_exit(1);
	_exit(n < 0);
}

/* The reader's exit status; -1 if it did not end within 10 s (no one wrote to it), and it is killed. */
static int wait_reader(pid_t pid)
{
	int status;

	for (int i = 0; i < 1000; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		usleep(10 * 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* A Unix socket listening at @path. */
static int listen_at(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	assert_true(strlen(path) < sizeof(addr.sun_path));
	strcpy(addr.sun_path, path);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(fd, 1), 0);
	return fd;
}

/*
 * Expect: --output naming a FIFO writes the report into it, to a child
 * reading it, and the FIFO stays a FIFO; the same for a Unix socket's
 * name, with a child accepting the connection.
 */
static void run_output_fifo_and_socket_get_the_report(void **state)
{
	static const char *const names[] = { "fifo", "socket" };
	char dir[DIR_MAX], path[DIR_PATH_MAX], node[DIR_PATH_MAX], copy[DIR_PATH_MAX], *text;
	int listener, reader;
	struct stat st;
	struct run r;

	make_dir(dir);
	dir_file(dir, "s.ini", camera_scenario, path);
	dir_file(dir, "copy", NULL, copy);
	for (int i = 0; i < 2; i++) {
		dir_file(dir, names[i], NULL, node);
		listener = i ? listen_at(node) : -1;
		if (!i)
			assert_int_equal(mkfifo(node, 0644), 0);
		reader = (int)start_reader(node, listener, copy);
		r = run_cmasim(ARGS("run", "--scenario", path, "--report", "json", "--output", node));
		reader = wait_reader(reader);
		if (listener >= 0)
			close(listener);
		assert_int_equal(lstat(node, &st), 0);
		text = read_file(copy);
		if (r.status || reader || (i ? !S_ISSOCK(st.st_mode) : !S_ISFIFO(st.st_mode)) || !text ||
		    strncmp(text, "{\n  \"schema\": \"cmasim-report/1\"", 31))
			fail_msg("--output %s: expected exit 0, the %s kept and its reader to get the JSON report; found exit %d, a node of mode %#o, the reader's status %d, and it read:\n%.80s\nstderr:\n%s",
				 node, names[i], r.status, (unsigned)st.st_mode, reader, text ? text : "(nothing)", r.err);
		free(text);
		run_free(&r);
	}
	remove_dir(dir);
}

/* Whether @path is a symbolic link to @to. */
static bool links_to(const char *path, const char *to)
{
	char buf[DIR_PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	return n >= 0 && (buf[n] = '\0', !strcmp(buf, to));
}

/* Fail unless @dir/@name begins with @start (@what: what it should hold). */
static void expect_file_starts(const char *dir, const char *name, const char *start, const char *what)
{
	char path[DIR_PATH_MAX], *text = read_file(dir_file(dir, name, NULL, path));

	if (!text || strncmp(text, start, strlen(start)))
		fail_msg("expected %s in %s; found:\n%.80s", what, path, text ? text : "(none)");
	free(text);
}

/*
 * Expect: --output and --trace naming symbolic links into another
 * directory write the files they point to there (one old, the other not
 * made yet), whole, with no temporary file left in either directory;
 * the links stay links.
 */
static void run_output_through_a_symlink_writes_its_target(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX], a[DIR_PATH_MAX], b[DIR_PATH_MAX], report[DIR_PATH_MAX],
		trace[DIR_PATH_MAX], *text;
	struct run r;

	make_dir(dir);
	dir_file(dir, "s.ini", camera_scenario, path);
	assert_int_equal(mkdir(dir_file(dir, "a", NULL, a), 0755), 0);
	assert_int_equal(mkdir(dir_file(dir, "b", NULL, b), 0755), 0);
	dir_file(b, "report.json", "the old report\n", report);
	assert_int_equal(symlink("../b/report.json", dir_file(a, "report.json", NULL, report)), 0);
	assert_int_equal(symlink("../b/trace.txt", dir_file(a, "trace.txt", NULL, trace)), 0);
	r = run_cmasim(ARGS("run", "--scenario", path, "--report", "json", "--output", report, "--trace", trace));
	if (r.status)
		fail_msg("--output and --trace through links: expected exit 0; found %d:\n%s", r.status, r.err);
	run_free(&r);
	if (!links_to(report, "../b/report.json") || !links_to(trace, "../b/trace.txt"))
		fail_msg("expected %s and %s to stay symbolic links to ../b/", report, trace);
	expect_file_starts(b, "report.json", "{\n  \"schema\"", "the JSON report, through the link");
	expect_file_starts(b, "trace.txt", "# tracer: nop\n", "the trace, through the dangling link");
	if ((text = temp_file_in(a)) || (text = temp_file_in(b)))
		fail_msg("cmasim left a temporary file, %s", text);
	remove_dir(dir);
}

/*
 * A character device @major:@minor made in @dir with mknod, as root
 * (/dev's own would be at stake if cmasim replaced it); /dev/@name to
 * others, whom /dev does not let replace it.
 */
static const char *char_device(const char *dir, const char *name, unsigned major, unsigned minor,
			       char path[DIR_PATH_MAX])
{
	if (geteuid()) {
		snprintf(path, DIR_PATH_MAX, "/dev/%s", name);
		return path;
	}
	if (mknod(dir_file(dir, name, NULL, path), S_IFCHR | 0666, makedev(major, minor)))
		skip();
	return path;
}

/*
 * Expect: --output naming a character device writes to it, and the node
 * stays as it was: the null device (1:3) takes the report, exit 0; the
 * full one (1:7) fails with ENOSPC, said naming it, exit 1. --trace
 * /dev/stdout puts the trace on standard output.
 */
static void run_output_to_a_device_writes_it(void **state)
{
	static const struct {
		const char *name;
		unsigned minor;
		int status;
		const char *message;
	} devices[] = { { "null", 3, 0, "" }, { "full", 7, 1, ": writing it failed: No space left on device\n" } };
	char dir[DIR_MAX], path[DIR_PATH_MAX], node[DIR_PATH_MAX];
	struct stat before, after;
	struct run r;

	make_dir(dir);
	dir_file(dir, "s.ini", camera_scenario, path);
	for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++) {
		char_device(dir, devices[i].name, 1, devices[i].minor, node);
		assert_int_equal(stat(node, &before), 0);
		r = run_cmasim(ARGS("run", "--scenario", path, "--report", "html", "--output", node));
		assert_int_equal(lstat(node, &after), 0);
		if (r.status != devices[i].status || !strstr(r.err, devices[i].message) ||
		    (*devices[i].message && !strstr(r.err, node)) || !S_ISCHR(after.st_mode) ||
		    after.st_ino != before.st_ino || after.st_rdev != before.st_rdev)
			fail_msg("--output %s: expected exit %d, \"%s\" naming it, and the device kept; found exit %d, a node of mode %#o, and:\n%s",
				 node, devices[i].status, devices[i].message, r.status, (unsigned)after.st_mode, r.err);
		run_free(&r);
	}
	r = run_cmasim(ARGS("run", "--scenario", path, "--trace", "/dev/stdout"));
	if (r.status || strncmp(r.out, "# tracer: nop\n", 14) || !strstr(r.out, "cma_alloc_start"))
		fail_msg("--trace /dev/stdout: expected exit 0 and the trace on standard output; found exit %d, stdout:\n%.200s\nstderr:\n%s",
			 r.status, r.out, r.err);
	run_free(&r);
	remove_dir(dir);
}

/* Expect: --trace or --output naming a directory is refused, naming it, exit 2; the directory stays empty. */
static void run_output_directory_is_refused(void **state)
{
	static const char *const which[] = { "--trace", "--output" };
	char dir[DIR_MAX], path[DIR_PATH_MAX], sub[DIR_PATH_MAX], want[2 * DIR_PATH_MAX], *text;
	struct run r;

	make_dir(dir);
	dir_file(dir, "s.ini", camera_scenario, path);
	assert_int_equal(mkdir(dir_file(dir, "d", NULL, sub), 0755), 0);
	for (size_t i = 0; i < sizeof(which) / sizeof(which[0]); i++) {
		snprintf(want, sizeof(want), "cmasim: %s %s: cannot write it: Is a directory", which[i], sub);
		r = run_cmasim(ARGS("run", "--scenario", path, which[i], sub));
		if (r.status != 2 || !strstr(r.err, want))
			fail_msg("%s DIR: expected exit 2 and \"%s\"; found exit %d and:\n%s", which[i], want, r.status, r.err);
		run_free(&r);
		if ((text = temp_file_in(sub)) || (text = temp_file_in(dir)))
			fail_msg("%s DIR: cmasim left %s", which[i], text);
	}
	remove_dir(dir);
}

/*
 * Expect: cmasim snapshot (as root, on Linux) replaces each file whole:
 * buddyinfo, a link into another directory, is written there and stays
 * a link; pagetypeinfo, a hard link to a file elsewhere, gets a file of
 * its own, the other left as it was; zoneinfo, too large for the file
 * size limit, fails (exit 1, naming it) and keeps its old bytes; no
 * temporary file is left.
 */
static void snapshot_files_are_replaced_whole(void **state)
{
	char dir[DIR_MAX], snap[DIR_PATH_MAX], other[DIR_PATH_MAX], kept[DIR_PATH_MAX], path[DIR_PATH_MAX], *text;
	struct run r;

	if (geteuid() || access("/proc/kpageflags", R_OK))
		skip();
	make_dir(dir);
	assert_int_equal(mkdir(dir_file(dir, "snap", NULL, snap), 0755), 0);
	assert_int_equal(mkdir(dir_file(dir, "other", NULL, other), 0755), 0);
	assert_int_equal(symlink("../other/buddyinfo", dir_file(snap, "buddyinfo", NULL, path)), 0);
	dir_file(other, "kept", "the other name's file\n", kept);
	assert_int_equal(link(kept, dir_file(snap, "pagetypeinfo", NULL, path)), 0);
	dir_file(snap, "zoneinfo", "the old zoneinfo\n", path);
	child_file_limit = 4096;	/* buddyinfo and pagetypeinfo are smaller, zoneinfo larger */
	r = run_cmasim(ARGS("snapshot", snap));
	child_file_limit = RLIM_INFINITY;
	if (r.status != 1 || !strstr(r.err, path) || !strstr(r.err, "File too large"))
		fail_msg("snapshot past the size limit: expected exit 1 and a message naming %s; found exit %d and:\n%s",
			 path, r.status, r.err);
	run_free(&r);
	text = read_file(path);
	assert_string_equal(text, "the old zoneinfo\n");
	free(text);
	if (!links_to(dir_file(snap, "buddyinfo", NULL, path), "../other/buddyinfo"))
		fail_msg("expected %s to stay a link to ../other/buddyinfo", path);
	expect_file_starts(other, "buddyinfo", "Node 0, zone", "/proc/buddyinfo, through the link");
	text = read_file(kept);
	assert_string_equal(text, "the other name's file\n");
	free(text);
	expect_file_starts(snap, "pagetypeinfo", "Page block order:", "/proc/pagetypeinfo");
	if ((text = temp_file_in(snap)) || (text = temp_file_in(other)))
		fail_msg("cmasim snapshot left a temporary file, %s", text);
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

/* Expect: boot takes --kernel and boots (exit 0). */
static const char *const boot_kernel_option_kernels[] = { "3.5", "6.12" };

static void boot_kernel_option(const char *kernel, unsigned k)
{
	struct run a = run_cmasim(ARGS("boot", "--kernel", kernel, "--platform", "arm"));

	assert_int_equal(a.status, 0);
	run_free(&a);
}

/*
 * Expect: a platform file's kernel = PROFILE with or without the image's
 * range boots (exit 0), and the image reserved beside the profile is
 * reserved as without it.
 */
static void boot_platform_kernel_key(void **state)
{
	static const char board[] = "[platform]\narch = arm\nbank = 0x40000000 256M\n";
	char dir[DIR_MAX], path[DIR_PATH_MAX], text[256];
	struct run a, b;

	make_dir(dir);
	snprintf(text, sizeof(text), "%skernel = 0x40008000 8M\n", board);
	dir_file(dir, "image.ini", text, path);
	a = run_cmasim(ARGS("boot", "--platform", path, "--kernel", "6.12", "--dump", "meminfo"));
	snprintf(text, sizeof(text), "%skernel = 6.12 0x40008000 8M\n", board);
	dir_file(dir, "both.ini", text, path);
	b = run_cmasim(ARGS("boot", "--platform", path, "--dump", "meminfo"));
	assert_int_equal(a.status, 0);
	assert_int_equal(b.status, 0);
	assert_string_equal(a.out, b.out);
	run_free(&a);
	run_free(&b);
	remove_dir(dir);
}

/*
 * Expect: run --kernel labels the run with its profile (text heading,
 * JSON "kernel"), over the scenario's kernel = key; compare --kernels
 * runs each profile under each policy, columns "cma 3.5" ... "cma 6.12".
 */
static void run_and_compare_kernels(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX], json[DIR_PATH_MAX], cmd[2 * DIR_PATH_MAX], text[512];
	char *line = NULL;
	size_t cap = 0;
	regex_t re;
	struct run r;
	FILE *jq;

	make_dir(dir);
	snprintf(text, sizeof(text), "[scenario]\nkernel = 6.12\n%s", camera_scenario + strlen("[scenario]\n"));
	dir_file(dir, "s.ini", text, path);
	r = run_cmasim(ARGS("run", "--scenario", path, "--duration", "1s"));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "scenario s, platform arm, kernel 6.12, policy cma,"));
	run_free(&r);
	dir_file(dir, "r.json", NULL, json);
	r = run_cmasim(ARGS("run", "--scenario", path, "--duration", "1s", "--kernel", "3.5", "--report", "json",
			    "--output", json));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ", kernel 3.5, policy cma,"));
	run_free(&r);
	snprintf(cmd, sizeof(cmd), "jq -r '.runs[0].kernel' %s", json);
	jq = popen(cmd, "r");
	assert_non_null(jq);
	assert_true(getline(&line, &cap, jq) > 0);
	assert_int_equal(pclose(jq), 0);
	assert_string_equal(line, "3.5\n");

	r = run_cmasim(ARGS("compare", "--scenario", path, "--duration", "1s", "--policies", "cma,buddy",
			    "--kernels", "3.5,6.12", "--report", "json", "--output", json));
	assert_int_equal(r.status, 0);
	assert_int_equal(regcomp(&re, "^ +cma 3\\.5 +buddy 3\\.5 +cma 6\\.12 +buddy 6\\.12$", REG_EXTENDED | REG_NEWLINE), 0);
	if (regexec(&re, r.out, 0, NULL, 0))
		fail_msg("expected columns cma 3.5, buddy 3.5, cma 6.12, buddy 6.12; found:\n%s", r.out);
	regfree(&re);
	assert_non_null(strstr(r.out, "scenario s, platform arm, seed"));
	run_free(&r);
	snprintf(cmd, sizeof(cmd), "jq -r '[.runs[] | .policy + \" \" + .kernel] | join(\",\")' %s", json);
	jq = popen(cmd, "r");
	assert_non_null(jq);
	assert_true(getline(&line, &cap, jq) > 0);
	assert_int_equal(pclose(jq), 0);
	assert_string_equal(line, "cma 3.5,buddy 3.5,cma 6.12,buddy 6.12\n");
	free(line);
	remove_dir(dir);
}

/* ---- sweep ---- */

/* Three sizes of the default area times two seeds of a 10 s camera-browser. */
#define SWEEP_ARGS(dir)	"sweep", "--param", "cma=16M,24M,32M", "--seeds", "2", "--duration", "10s", \
			"--jobs", "2", "-o", dir

static unsigned count_lines(const char *text)
{
	unsigned n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static unsigned count_reports(const char *dir)
{
	char cmd[DIR_PATH_MAX + 64], *out;
	unsigned n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ls '%s' | grep -c '^cma-[0-9]*M_seed-[0-9]*\\.json$'", dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = read_all(p);
	pclose(p);
	n = (unsigned)atoi(out);
	free(out);
	return n;
}

/* @dir/@name's text; the test fails if it is missing. */
static char *dir_text(const char *dir, const char *name)
{
	char path[DIR_PATH_MAX];
	char *text = read_file(dir_file(dir, name, NULL, path));

	if (!text)
		fail_msg("%s is missing", path);
	return text;
}

/* Expect: a report per point and seed, a CSV row each under a header, the charts, and no temporary file. */
static void expect_sweep_outputs(const char *dir, unsigned reports)
{
	char *csv = dir_text(dir, "summary.csv"), *html = dir_text(dir, "summary.html");
	char *temp = temp_file_in(dir);

	if (temp)
		fail_msg("a sweep left %s/%s behind", dir, temp);
	assert_int_equal(count_reports(dir), reports);
	assert_int_equal(count_lines(csv), reports + 1);
	assert_true(!strncmp(csv, "cma,seed,camera.", 16));
	assert_non_null(strstr(csv, ",camera.requests,"));
	assert_non_null(strstr(csv, ",camera.failures.nomem,"));
	assert_non_null(strstr(csv, ",camera.latency_ms.p99,"));
	assert_non_null(strstr(csv, ",system.pages_migrated,"));
	assert_true(!strncmp(html, "<!DOCTYPE html>\n", 16));
	assert_non_null(strstr(html, "<h3>camera: p99 latency, ms (device time)</h3>\n<svg"));
	assert_non_null(strstr(html, "</body>\n</html>\n"));
	free(csv);
	free(html);
}

static void sweep_grid_writes_reports_and_summaries(void **state)
{
	char dir[DIR_MAX];
	struct run r;

	make_dir(dir);
	r = run_cmasim(ARGS(SWEEP_ARGS(dir)));
	if (r.status)
		fail_msg("cmasim sweep: expected exit 0; found %d and:\n%s", r.status, r.err);
	assert_non_null(strstr(r.err, "6/6 points"));
	assert_string_equal(r.out, "");
	run_free(&r);
	expect_sweep_outputs(dir, 6);
	remove_dir(dir);
}

/*
 * Expect: --print-commands prints one cmasim run line per point and
 * seed, naming the cmasim that printed them by its absolute path, and
 * runs nothing; run by the shell whatever PATH holds, their reports
 * make, through --collect, the same summary.csv and summary.html as the
 * sweep's own.
 */
/*
 * Expect: --kernel reaches every point's run command line, and size runs
 * under it (the 6.12 profile's run of camera-browser is served too).
 */
static void size_and_sweep_take_kernel(void **state)
{
	char dir[DIR_MAX];
	struct run r;

	make_dir(dir);
	r = run_cmasim(ARGS("sweep", "--param", "cma=16M,24M", "--seeds", "1", "--kernel", "6.12", "-o", dir,
			    "--print-commands"));
	assert_int_equal(r.status, 0);
	if (count_lines(r.out) != 2 || !strstr(r.out, " --kernel 6.12 --cma 16M ") ||
	    !strstr(r.out, " --kernel 6.12 --cma 24M "))
		fail_msg("expected two commands with --kernel 6.12; found:\n%s", r.out);
	run_free(&r);
	remove_dir(dir);
	r = run_cmasim(ARGS("size", "--kernel", "6.12", "--seeds", "1", "--duration", "15s"));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\nsmallest: cma="));
	run_free(&r);
}

static void sweep_print_commands_then_collect_same_summary(void **state)
{
	char dir[DIR_MAX], ran[DIR_PATH_MAX], printed[DIR_PATH_MAX], script[DIR_PATH_MAX], cmd[PATH_MAX + 256];
	char *a, *b, bin[PATH_MAX], head[PATH_MAX + 64];
	struct run r;

	make_dir(dir);
	snprintf(ran, sizeof(ran), "%s/ran", dir);
	snprintf(printed, sizeof(printed), "%s/printed", dir);
	r = run_cmasim(ARGS(SWEEP_ARGS(ran)));
	assert_int_equal(r.status, 0);
	run_free(&r);

	r = run_cmasim(ARGS(SWEEP_ARGS(printed), "--print-commands"));
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), 6);
	assert_non_null(realpath(cmasim, bin));
	snprintf(head, sizeof(head), "%s run --scenario camera-browser ", bin);
	for (const char *line = r.out; *line; line = strchr(line, '\n') + 1)
		if (strncmp(line, head, strlen(head)))
			fail_msg("expected each command to begin with \"%s\"; found:\n%s", head, r.out);
	assert_int_equal(count_reports(printed), 0);
	dir_file(dir, "commands.sh", r.out, script);
	run_free(&r);
	snprintf(cmd, sizeof(cmd), "PATH=/usr/bin:/bin sh '%s' >/dev/null 2>&1", script);
	assert_int_equal(system(cmd), 0);

	r = run_cmasim(ARGS("sweep", "--collect", printed));
	if (r.status)
		fail_msg("cmasim sweep --collect: expected exit 0; found %d and:\n%s", r.status, r.err);
	run_free(&r);
	expect_sweep_outputs(printed, 6);
	for (const char *const *name = ARGS("summary.csv", "summary.html"); *name; name++) {
		a = dir_text(ran, *name);
		b = dir_text(printed, *name);
		if (strcmp(a, b))
			fail_msg("%s: --collect's differs from the sweep's from line %d on", *name,
				 first_difference(a, b));
		free(a);
		free(b);
	}
	remove_dir(dir);
}

static ino_t inode_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_ino;
}

/*
 * Expect: run again on a directory missing two reports (one with a
 * half-written .part left), the sweep runs those two only, keeps the
 * others' files as they were, and completes the summary.
 */
static void sweep_resume_runs_only_missing_points(void **state)
{
	char dir[DIR_MAX], kept[DIR_PATH_MAX], gone[DIR_PATH_MAX], part[DIR_PATH_MAX + 8];
	ino_t before;
	struct run r;

	make_dir(dir);
	r = run_cmasim(ARGS(SWEEP_ARGS(dir)));
	assert_int_equal(r.status, 0);
	run_free(&r);
	before = inode_of(dir_file(dir, "cma-16M_seed-1.json", NULL, kept));
	assert_int_equal(unlink(dir_file(dir, "cma-24M_seed-2.json", NULL, gone)), 0);
	snprintf(part, sizeof(part), "%s.part", gone);
	write_file(part, "{\"schema\": \"cmasim-re");
	assert_int_equal(unlink(dir_file(dir, "cma-32M_seed-1.json", NULL, gone)), 0);

	r = run_cmasim(ARGS(SWEEP_ARGS(dir)));
	if (r.status || !strstr(r.err, "4 of 6 points done before: running the other 2\n") ||
	    !strstr(r.err, "2/2 points"))
		fail_msg("a resumed sweep: expected exit 0 and 2 points run; found %d and:\n%s", r.status, r.err);
	run_free(&r);
	assert_true(inode_of(kept) == before);
	assert_int_not_equal(access(part, F_OK), 0);
	expect_sweep_outputs(dir, 6);
	remove_dir(dir);
}

/*
 * Expect: a sweep stopped by SIGTERM once its first report is written
 * stops its runs, names the missing points, dies of SIGTERM as run would
 * (the shell's 143), and leaves only whole reports: no .part file, each
 * report valid JSON.
 */
static void sweep_interrupted_keeps_finished_points(void **state)
{
	char dir[DIR_MAX], cmd[PATH_MAX + 1024], *out;
	FILE *p;

	make_dir(dir);
	snprintf(cmd, sizeof(cmd),
		 "'%s' sweep --param cma=16M,24M,32M --seeds 2 --jobs 1 -o '%s' 2>'%s/err' & pid=$!; "
		 "i=0; while [ ! -e '%s/cma-16M_seed-1.json' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; "
		 "kill -TERM $pid; wait $pid; "
		 "echo exit $?; ls '%s' | grep -c '\\.part$'; jq -e .runs '%s'/*.json >/dev/null && echo valid; "
		 "grep -c 'points missing: .*cma-32M_seed-2.json' '%s/err'",
		 cmasim, dir, dir, dir, dir, dir, dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = read_all(p);
	pclose(p);
	assert_string_equal(out, "exit 143\n0\nvalid\n1\n");
	free(out);
	out = temp_file_in(dir);
	if (out)
		fail_msg("the interrupted sweep left %s/%s behind", dir, out);
	remove_dir(dir);
}


/*
 * Expect: Ctrl-C (SIGINT to the sweep's process group, its runs included)
 * once the first report is written: the sweep says it was interrupted,
 * never "stopping the 0 running points" (the runs ended of the same
 * Ctrl-C), names the missing points and dies of SIGINT, as run does (the
 * shell's 130).
 */
static void sweep_ctrl_c_dies_of_sigint(void **state)
{
	char dir[DIR_MAX], first[DIR_PATH_MAX], err[DIR_PATH_MAX], *text;
	int status, fd, waited = 0;
	pid_t pid;

	make_dir(dir);
	dir_file(dir, "cma-16M_seed-1.json", NULL, first);
	dir_file(dir, "err", NULL, err);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		setpgid(0, 0);	/* a terminal's job: Ctrl-C reaches the sweep and its runs */
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 2) < 0 || !freopen("/dev/null", "w", stdout))
			_exit(126);
		execl(cmasim, cmasim, "sweep", "--param", "cma=16M,24M,32M", "--seeds", "2", "--duration", "10s",
		      "--jobs", "1", "-o", dir, (char *)NULL);
		_exit(127);
	}
	while (access(first, F_OK) && waited++ < 1200)
		usleep(50000);
	assert_int_equal(kill(-pid, SIGINT), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	text = read_file(err);
	assert_non_null(text);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGINT)
		fail_msg("a sweep stopped by Ctrl-C: expected it to die of SIGINT (130 in a shell); found status %#x and:\n%s",
			 status, text);
	if (!strstr(text, "cmasim sweep: interrupted") || strstr(text, "stopping the 0 running") ||
	    !strstr(text, "points missing: "))
		fail_msg("a sweep stopped by Ctrl-C: expected \"interrupted\", the points missing and no \"stopping the 0 running points\"; found:\n%s",
			 text);
	free(text);
	remove_dir(dir);
}

/* ---- messages ---- */

/* Expect: a directory given as a device tree is refused as a directory. */
static void dt_directory_says_it_is_one(void **state)
{
	char dir[DIR_MAX], tree[DIR_PATH_MAX], want[DIR_PATH_MAX + 64];
	struct run r;

	make_dir(dir);
	assert_int_equal(mkdir(dir_file(dir, "board.dtb", NULL, tree), 0755), 0);
	r = run_cmasim(ARGS("boot", "--platform", tree));
	snprintf(want, sizeof(want), "%s: cannot read the device tree: Is a directory\n", tree);
	if (r.status != 2 || !strstr(r.err, want))
		fail_msg("boot --platform DIR.dtb: expected exit 2 and \"%s\"; found exit %d and:\n%s", want, r.status,
			 r.err);
	run_free(&r);
	remove_dir(dir);
}

/*
 * Expect: a platform file that cannot be read is the run's one error
 * line: no "machine refused its configuration" with an empty command
 * line, for a board that was never booted.
 */
static void run_missing_platform_is_one_line(void **state)
{
	struct run r = run_cmasim(ARGS("run", "--platform", "/nonexistent/board.dtb"));

	if (r.status != 2 || count_lines(r.err) != 1 ||
	    !strstr(r.err, "/nonexistent/board.dtb: cannot read the device tree: No such file or directory\n"))
		fail_msg("run --platform /nonexistent/board.dtb: expected exit 2 and one line saying the file is missing; found exit %d and:\n%s",
			 r.status, r.err);
	run_free(&r);
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
/* ---- size ---- */

#define SIZE_DURATION	"25s"	/* two camera sessions of camera-browser: short, and the answer is the default's */

/* The last line of @out, without its newline, into @buf. */
static const char *last_line(const char *out, char *buf, size_t len)
{
	size_t n = strlen(out);
	const char *start;

	if (n && out[n - 1] == '\n')
		n--;
	for (start = out + n; start > out && start[-1] != '\n'; start--)
		;
	snprintf(buf, len, "%.*s", (int)(out + n - start), start);
	return buf;
}

static uint64_t json_number(const char *json, const char *key)
{
	const char *at = strstr(json, key);

	if (!at)
		fail_msg("the JSON report has no %s:\n%s", key, json);
	return strtoull(at + strlen(key), NULL, 10);
}

/*
 * camera-browser with cma=@mib M, run with @seed: does its camera get
 * every buffer, none late? (One device: the report's only counts.)
 */
static bool camera_browser_served(unsigned long long mib, unsigned long long seed)
{
	char cma[32], seed_arg[32];
	struct run r;
	bool served;

	snprintf(cma, sizeof(cma), "%lluM", mib);
	snprintf(seed_arg, sizeof(seed_arg), "%llu", seed);
	r = run_cmasim(ARGS("run", "--cma", cma, "--seed", seed_arg, "--duration", SIZE_DURATION, "--report", "json"));
	if (r.status)
		fail_msg("cmasim run --cma %s --seed %llu: exit %d:\n%s", cma, seed, r.status, r.err);
	served = json_number(r.out, "\"requests\": ") == json_number(r.out, "\"successes\": ") &&
		 !json_number(r.out, "\"deadline_misses\": ");
	run_free(&r);
	return served;
}

/*
 * Expect: size's last line is "smallest: cma=<N>M"; cmasim run at that
 * size serves every request in time with each seed size used, and one
 * step below misses with at least one of them (the bisection's answer
 * checked from outside, run by run).
 */
static void size_answer_serves_and_one_step_below_misses(void **state)
{
	struct run r = run_cmasim(ARGS("size", "--seeds", "2", "--duration", SIZE_DURATION));
	unsigned long long mib, step;
	const char *header;
	char last[128], tail;
	bool below_served = true;

	if (r.status)
		fail_msg("cmasim size: expected exit 0, found %d:\n%s%s", r.status, r.out, r.err);
	last_line(r.out, last, sizeof(last));
	if (sscanf(last, "smallest: cma=%lluM%c", &mib, &tail) != 1)
		fail_msg("cmasim size: expected the last line 'smallest: cma=<N>M', found '%s'", last);
	header = strstr(r.out, ", step ");
	assert_non_null(header);
	assert_int_equal(sscanf(header, ", step %lluM", &step), 1);
	assert_true(mib >= step);
	for (unsigned long long seed = 1; seed <= 2; seed++) {
		if (!camera_browser_served(mib, seed))
			fail_msg("cmasim size answered cma=%lluM, but seed %llu misses there:\n%s", mib, seed, r.out);
		below_served &= camera_browser_served(mib - step, seed);
	}
	if (below_served)
		fail_msg("cmasim size answered cma=%lluM, but cma=%lluM serves both seeds too:\n%s", mib,
			 mib - step, r.out);
	printf("cmasim size: cma=%lluM serves both seeds, cma=%lluM does not\n", mib, mib - step);
	run_free(&r);
}

/* Expect: exit 1 and a last line saying so when no size up to --max serves everything. */
static void size_max_too_small_exits_1(void **state)
{
	struct run r = run_cmasim(ARGS("size", "--seeds", "2", "--duration", SIZE_DURATION, "--max", "8M"));
	char last[160];

	last_line(r.out, last, sizeof(last));
	if (r.status != 1 || strcmp(last, "no size up to cma=8M serves every request with every seed (--max sets the limit)"))
		fail_msg("cmasim size --max 8M: expected exit 1 and 'no size up to cma=8M serves every request ...' last; found exit %d:\n%s%s",
			 r.status, r.out, r.err);
	run_free(&r);
}

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
	options += expect_options_documented(page, "size");
	options += expect_options_documented(page, "sweep");
	options += expect_options_documented(page, "import");
	options += expect_options_documented(page, "replay");
	names += expect_every_section_documented(page);
	names += expect_accepted_documented(page, "run", "[zzz]\nkey = 1\n");
	names += expect_accepted_documented(page, "boot", "[platform]\nzzz = 1\n");
	names += expect_accepted_documented(page, "boot", "[platform]\nbank = 0 64M\n[device a]\nzzz = 1\n");
	printf("doc/cmasim.1 documents the %u options --help prints (with repeats) and %u file sections and keys\n",
	       options, names);
	free(page);
}

/* ---- the option tables ---- */

/*
 * The refusals every command's table makes alike: an unknown option, an
 * option without its value, a bad number and a bad size, each naming the
 * command, the option and what it accepts. replay takes no number.
 */
static const struct bad_case option_cases[] = {
	{ "run: unknown option", { "run", "--zzz" }, NULL, 2,
	  "cmasim run: unknown option '--zzz': accepted --scenario, --platform, --cma," },
	{ "run: no value", { "run", "--seed" }, NULL, 2, "cmasim run: --seed needs a value: a decimal or 0x hex number" },
	{ "run: bad number", { "run", "--seed", "7x" }, NULL, 2, "cmasim run: --seed '7x': expected a decimal or 0x hex number" },
	{ "run: bad size", { "run", "--cma", "7Q" }, NULL, 2, "cmasim run: --cma '7Q': expected a size in bytes" },
	{ "compare: unknown option", { "compare", "--zzz" }, NULL, 2,
	  "cmasim compare: unknown option '--zzz': accepted --scenario, --platform, --cma," },
	{ "compare: no value", { "compare", "--duration" }, NULL, 2,
	  "cmasim compare: --duration needs a value: a whole number with a unit: us, ms, s, m or h" },
	{ "compare: bad number", { "compare", "--seed", "0x" }, NULL, 2,
	  "cmasim compare: --seed '0x': expected a decimal or 0x hex number" },
	{ "compare: bad size", { "compare", "--cma", "7Q" }, NULL, 2, "cmasim compare: --cma '7Q': expected a size in bytes" },
	{ "size: unknown option", { "size", "--zzz" }, NULL, 2, "cmasim size: unknown option '--zzz': accepted --scenario," },
	{ "size: no value", { "size", "--jobs" }, NULL, 2, "cmasim size: --jobs needs a value: a number from 1 to 1024" },
	{ "size: bad number", { "size", "--seeds", "x" }, NULL, 2, "cmasim size: --seeds 'x': expected a number from 1 to 1000" },
	{ "size: bad size", { "size", "--max", "7Q" }, NULL, 2,
	  "cmasim size: --max '7Q': expected a decimal or 0x hex number, optionally with a K, M, G or T suffix" },
	{ "sweep: unknown option", { "sweep", "--zzz" }, NULL, 2, "cmasim sweep: unknown option '--zzz': accepted --param," },
	{ "sweep: no value", { "sweep", "--seeds" }, NULL, 2, "cmasim sweep: --seeds needs a value: a number from 1 to 1000" },
	{ "sweep: bad number", { "sweep", "--seed", "x", "-o", "/nonexistent/sw" }, NULL, 2,
	  "cmasim sweep: --seed 'x': expected a decimal or 0x hex number" },
	{ "sweep: bad size", { "sweep", "--cma", "7Q", "-o", "/nonexistent/sw" }, NULL, 2,
	  "cmasim sweep: --cma '7Q': expected a size in bytes" },
	{ "boot: unknown option", { "boot", "--zzz" }, NULL, 2, "cmasim boot: unknown option '--zzz': accepted --platform," },
	{ "boot: no value", { "boot", "--memory" }, NULL, 2, "cmasim boot: --memory needs a value: a memory size, e.g. 1G" },
	{ "boot: bad number", { "boot", "--memory", "1G@0xZZ" }, NULL, 2,
	  "cmasim boot: --memory '1G@0xZZ': expected SIZE[@BASE], a non-zero size and an optional base" },
	{ "boot: bad size", { "boot", "--memory", "7Q" }, NULL, 2, "cmasim boot: --memory '7Q': expected SIZE[@BASE]" },
	{ "import: unknown option", { "import", "--zzz" }, NULL, 2,
	  "cmasim import: unknown option '--zzz': accepted --what-if," },
	{ "import: no value", { "import", "--what-if" }, NULL, 2, "cmasim import: --what-if needs a value: a size, e.g. 1G" },
	{ "import: bad number", { "import", "/nonexistent", "--what-if", "1G@zz" }, NULL, 2,
	  "cmasim import: --what-if '1G@zz': the address is not a page-aligned number" },
	{ "import: bad size", { "import", "/nonexistent", "--what-if", "7Q" }, NULL, 2,
	  "cmasim import: --what-if '7Q': the size is not a size in bytes" },
	{ "replay: unknown option", { "replay", "--zzz" }, NULL, 2,
	  "cmasim replay: unknown option '--zzz': accepted --platform," },
	{ "replay: no value", { "replay", "--policy" }, NULL, 2, "cmasim replay: --policy needs a value: a policy" },
	{ "replay: bad size", { "replay", "/nonexistent", "--cma", "7Q" }, NULL, 2,
	  "cmasim replay: --cma '7Q': expected a size in bytes" },
};

/* Expect for each: exit 2, nothing on stdout, and its message on stderr. */
static void option_tables_refuse_alike(void **state)
{
	unsigned passed = 0;

	for (size_t i = 0; i < sizeof(option_cases) / sizeof(option_cases[0]); i++) {
		const struct bad_case *c = &option_cases[i];
		struct run r = run_cmasim(c->args);

		if (r.status != c->status || !strstr(r.err, c->message) || *r.out)
			fail_msg("'%s': expected exit %d, no stdout and \"%s\" on stderr; found exit %d, stdout:\n%s\nstderr:\n%s",
				 c->what, c->status, c->message, r.status, r.out, r.err);
		run_free(&r);
		passed++;
	}
	printf("option refusals as expected: %u\n", passed);
}

/*
 * Expect: every option of each command's table, as its "unknown option"
 * refusal lists them, is named in the command's --help and documented in
 * doc/cmasim.1.
 */
static void every_table_option_in_help_and_man_page(void **state)
{
	char *page = man_source("doc/cmasim.1");
	unsigned found = 0;

	for (const char *const *cmd = ARGS("run", "compare", "size", "sweep", "boot", "import", "replay"); *cmd; cmd++) {
		struct run bad = run_cmasim(ARGS(*cmd, "--zzz")), help = run_cmasim(ARGS(*cmd, "--help"));
		const char *list = strstr(bad.err, "accepted ");
		unsigned n = 0;

		if (bad.status != 2 || !list || help.status)
			fail_msg("cmasim %s --zzz: expected exit 2 and an accepted list; found exit %d and:\n%s"
				 "(--help: exit %d)", *cmd, bad.status, bad.err, help.status);
		for (list += strlen("accepted "); *list && *list != '\n'; n++) {
			size_t len = strcspn(list, ",\n");
			char flag[64];

			snprintf(flag, sizeof(flag), "%.*s", (int)len, list);
			if (!has_word(help.out, flag))
				fail_msg("cmasim %s takes %s, which its --help does not name:\n%s", *cmd, flag, help.out);
			if (!has_word(page, flag))
				fail_msg("cmasim %s takes %s, which doc/cmasim.1 does not document", *cmd, flag);
			list += len;
			list += strspn(list, ", ");
		}
		if (n < 5)
			fail_msg("cmasim %s --zzz: expected at least 5 options accepted; found %u in:\n%s", *cmd, n, bad.err);
		found += n;
		run_free(&bad);
		run_free(&help);
	}
	printf("the 7 option tables' %u options are in their --help and in doc/cmasim.1\n", found);
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

/* The text of @page's section @name, from its .SH line to the next. */
static char *man_section(const char *page, const char *name)
{
	char head[64];
	const char *at, *end;

	snprintf(head, sizeof(head), "\n.SH %s\n", name);
	at = strstr(page, head);
	if (!at) {
		fail_msg("the manual page has no section %s", name);
		return NULL;	/* not reached: gcc's sanitizer builds cannot tell */
	}
	end = strstr(at + 1, "\n.SH ");
	return strndup(at, end ? (size_t)(end - at) : strlen(at));
}

/*
 * Expect: cmasim(1)'s synopsis gives run's --policy every policy run
 * --help lists, and its DESCRIPTION names each of them.
 */
static void man_page_lists_every_policy(void **state)
{
	struct run r = run_cmasim(ARGS("run", "--help"));
	char *page = man_source("doc/cmasim.1"), *desc = man_section(page, "DESCRIPTION"), synopsis[256];
	const char *list = strstr(r.out, "[--policy ");
	size_t n;

	assert_non_null(list);
	list += strlen("[--policy ");
	n = strcspn(list, "]");
	snprintf(synopsis, sizeof(synopsis), "\n.OP --policy %.*s\n", (int)n, list);
	if (!strstr(page, synopsis))
		fail_msg("doc/cmasim.1: expected the synopsis line %s", synopsis + 1);
	for (const char *name = list; name < list + n; name += strcspn(name, "|]"), name += *name == '|') {
		char word[32];

		snprintf(word, sizeof(word), "%.*s", (int)strcspn(name, "|]"), name);
		if (!has_word(desc, word))
			fail_msg("doc/cmasim.1: DESCRIPTION does not name the policy %s", word);
	}
	free(desc);
	free(page);
	run_free(&r);
}

/* Expect: COMMANDS in cmasim(1) has a paragraph of its own (.TP) for every command. */
static void man_page_has_a_paragraph_per_command(void **state)
{
	struct run none = run_cmasim((const char *const[]){ NULL });
	char *page = man_source("doc/cmasim.1"), *commands = man_section(page, "COMMANDS");
	const char *list = strstr(none.err, "accepted ");
	unsigned found = 0;

	assert_non_null(list);
	for (list += strlen("accepted "); *list && *list != '\n'; found++) {
		size_t n = strcspn(list, ",\n");
		bool ok = false;

		for (const char *const *font = ARGS(".B ", ".BI ", ".BR "); *font && !ok; font++) {
			char tag[64];

			snprintf(tag, sizeof(tag), ".TP\n%s%.*s", *font, (int)n, list);
			for (const char *at = strstr(commands, tag); at && !ok; at = strstr(at + 1, tag))
				ok = strchr(" \n", at[strlen(tag)]) != NULL;
		}
		if (!ok)
			fail_msg("doc/cmasim.1: COMMANDS has no paragraph (.TP) of its own for %.*s", (int)n, list);
		list += n;
		list += strspn(list, ", ");
	}
	printf("doc/cmasim.1: a paragraph for each of the %u commands\n", found);
	free(commands);
	free(page);
	run_free(&none);
}

/* Does the arm64 board boot under kernel profile @kernel? */
static bool arm64_boots(const char *kernel)
{
	struct run r = run_cmasim(ARGS("boot", "--platform", "arm64", "--kernel", kernel));
	bool ok = r.status == 0;

	run_free(&r);
	return ok;
}

/* libcma(3)'s arm64 range @para names @kernel, an end of what boots: from @first to 6.12. */
static void expect_arm64_range_end(const char *para, const char *kernel, const char *first)
{
	char want[32];

	snprintf(want, sizeof(want), "\\(dq%s\\(dq", kernel);
	if (!strstr(para, want))
		fail_msg("doc/libcma.3: arm64 boots from kernel %s to 6.12, but its arm64 range, without %s, says:\n%s",
			 first, kernel, para);
}

/*
 * Expect: libcma(3) gives arm64 the kernel profiles it boots under: the
 * first 3.x that boots the arm64 board, to 6.12.
 */
static void libcma_page_arm64_range_is_what_boots(void **state)
{
	char *page = source_file("doc/libcma.3"), first[32] = "", want[32], *para;
	const char *at = strstr(page, "On arm64 (");
	unsigned minor;

	for (minor = 5; minor < 20 && !first[0]; minor++) {
		snprintf(want, sizeof(want), "3.%u", minor);
		if (arm64_boots(want))
			snprintf(first, sizeof(first), "%s", want);
	}
	assert_true(first[0]);
	assert_true(arm64_boots("6.12"));
	assert_non_null(at);
	para = strndup(at, strcspn(at, ")"));
	expect_arm64_range_end(para, first, first);
	expect_arm64_range_end(para, "6.12", first);
	printf("libcma(3): arm64 under kernels %s to 6.12, as the arm64 board boots\n", first);
	free(para);
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

/* ---- the command line, make test and make install ---- */

/* @line (up to its newline) as a whole line of @out from @from on: where it starts, or NULL. */
static const char *find_line(const char *out, const char *from, const char *line, size_t len)
{
	for (const char *at = from; *at; at++)
		if ((at == out || at[-1] == '\n') && !strncmp(at, line, len) && (at[len] == '\n' || !at[len]))
			return at;
	return NULL;
}

/*
 * Expect: each example the README shows ("$ ./build/cmasim ..." in a
 * code block, a command continued by backslashes) prints what the README
 * says it prints: every line shown but "..." (where lines are left out)
 * is a line of its output, in the order shown. A change that moves a
 * figure the README quotes fails here until the README is brought up to
 * date.
 */
static void readme_examples_print_what_cmasim_prints(void **state)
{
	char path[sizeof(source_dir) + 16], args[1024], cmd[2 * PATH_MAX + 1100];
	char *text, *p;
	unsigned examples = 0;

	snprintf(path, sizeof(path), "%s/README.md", source_dir);
	text = read_file(path);
	assert_non_null(text);
	for (p = text; (p = strstr(p, "\n$ ./build/cmasim ")); examples++) {
		const char *at, *line;
		size_t n = 0;
		FILE *pipe;
		char *out;

		p += strlen("\n$ ./build/cmasim ");
		/* the command's arguments, its backslash continuations joined */
		while (*p && *p != '\n') {
			if (p[0] == '\\' && p[1] == '\n') {
				p += 2;
				continue;
			}
			assert_true(n + 1 < sizeof(args));
			args[n++] = *p++;
		}
		args[n] = '\0';
		snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' %s 2>&1", source_dir, cmasim, args);
		pipe = popen(cmd, "r");
		assert_non_null(pipe);
		out = read_all(pipe);
		pclose(pipe);
		at = out;
		for (line = p + 1; *line && strncmp(line, "```", 3); line += strcspn(line, "\n") + 1) {
			size_t len = strcspn(line, "\n");
			const char *found;

			if (len == 3 && !strncmp(line, "...", 3))
				continue;
			found = find_line(out, at, line, len);
			if (!found)
				fail_msg("README.md's example `cmasim %s` shows the line\n%.*s\nwhich its output has not "
					 "(in that place); the output:\n%s", args, (int)len, line, out);
			at = found + len;
		}
		free(out);
	}
	free(text);
	printf("README.md: %u examples print what it shows\n", examples);
	assert_true(examples >= 3);
}

/*
 * Expect: scripts/run-tests.sh (make test) shows a test's output, keeps
 * its standard error (the error lines negative tests provoke) in
 * NAME.log beside it, and prints that log only when the test fails.
 */
static void run_tests_prints_errors_only_of_failures(void **state)
{
	char dir[DIR_MAX], pass[DIR_PATH_MAX], failing[DIR_PATH_MAX], log[DIR_PATH_MAX + 8];
	char cmd[PATH_MAX + 3 * DIR_PATH_MAX], *out, *text;
	FILE *p;

	make_dir(dir);
	dir_file(dir, "quiet", "#!/bin/sh\necho quiet-output\necho expected-error-line >&2\n", pass);
	dir_file(dir, "loud", "#!/bin/sh\necho loud-output\necho the-failure >&2\nexit 1\n", failing);
	assert_int_equal(chmod(pass, 0755), 0);
	assert_int_equal(chmod(failing, 0755), 0);
	snprintf(cmd, sizeof(cmd), "'%s/scripts/run-tests.sh' '%s' '%s' 2>&1", source_dir, pass, failing);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = read_all(p);
	assert_int_not_equal(pclose(p), 0);
	if (!strstr(out, "quiet-output") || strstr(out, "expected-error-line") || !strstr(out, "the-failure") ||
	    !strstr(out, "1 passed, 1 failed"))
		fail_msg("run-tests.sh: expected both outputs, the failing test's error and not the passing one's; found:\n%s",
			 out);
	snprintf(log, sizeof(log), "%s.log", pass);
	text = read_file(log);
	assert_non_null(text);
	assert_non_null(strstr(text, "expected-error-line\n"));
	free(text);
	free(out);
	remove_dir(dir);
}

/*
 * The patch set's patches as the project's notes number them ("seed
 * 010"), which a reader takes for the --seed of a run.
 */
static const char *seed_jargon(const char *text)
{
	static const char *const phrases[] = { "(the seeds)", "seeds'", "the seed's" };
	const char *at;

	for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++)
		if ((at = strstr(text, phrases[i])))
			return at;
	for (at = strstr(text, "seed 0"); at; at = strstr(at + 1, "seed 0"))
		if (isdigit((unsigned char)at[6]) && isdigit((unsigned char)at[7]))
			return at;
	return NULL;
}

/*
 * Expect: what users read (README, the manual pages, the public headers,
 * 'cmasim list' and --help) names the kernel and its patch set, never
 * the project's "seeds", which clash with --seed.
 */
/*
 * Expect replay's --kernel to name the baseline's kernel for a trace that
 * does not (a text trace: no what-if), and against a trace.dat header
 * naming another to be a what-if beside the header's baseline.
 */
static void replay_kernel_is_the_baseline_or_a_what_if(void **state)
{
	static const char cmdline[] = "console=ttyAMA0 panic=-1 nokaslr loglevel=1 hugetlb_cma=1G cma=64M";
	char dat[] = "/tmp/test_cmasim_dat_XXXXXX", cmd[256];
	struct run r;
	int fd = mkstemp(dat);

	assert_true(fd >= 0);
	close(fd);
	r = run_cmasim(ARGS("replay", "bench/oracle/results/arm64-anon-32m/trace.txt", "--platform",
			    "tests/dt/qemu-virt-arm64.dts", "--cmdline", cmdline, "--kernel", "5.10"));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "kernel 5.10 (--kernel)"));
	assert_null(strstr(r.out, "what-if:"));
	run_free(&r);

	snprintf(cmd, sizeof(cmd), "xz -dc tests/replay/oracle-arm64-anon-32m.dat.xz > %s", dat);
	assert_int_equal(system(cmd), 0);
	r = run_cmasim(ARGS("replay", dat, "--platform", "tests/dt/qemu-virt-arm64.dts", "--cmdline", cmdline,
			    "--kernel", "5.10"));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "kernel 6.12 (the trace's header: Linux 6.12.118+deb12-arm64"));
	assert_non_null(strstr(r.out, "what-if: policy cma, kernel 5.10"));
	run_free(&r);
	/* the header's own kernel is no change */
	r = run_cmasim(ARGS("replay", dat, "--platform", "tests/dt/qemu-virt-arm64.dts", "--cmdline", cmdline,
			    "--kernel", "6.12"));
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "what-if:"));
	run_free(&r);
	unlink(dat);
}

/* The pages free (buddy and per-CPU lists, every zone) in /proc/zoneinfo text @zi. */
static unsigned long zoneinfo_free(const char *zi)
{
	unsigned long free = 0, v;
	char key[32];

	for (const char *p = zi; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (sscanf(p, " %31s %lu", key, &v) == 2 && (!strcmp(key, "nr_free_pages") || !strcmp(key, "count:")))
			free += v;
	return free;
}

/*
 * Expect a snapshot's replay to start its requests with the device's free
 * pages: the guest's 346,594 (buddy and per-CPU lists) when it asked for
 * its first 32 MiB page, where the board's own boot manages 633 pages
 * fewer than the guest's kernel and holds 384 (6.12's atomic DMA pools)
 * that the guest's count of kernel memory holds too: without the fit the
 * replay started 1,004 pages poorer, and its migration targets took the
 * CMA area's free pages sooner.
 */
static void replay_snapshot_starts_with_the_devices_free_pages(void **state)
{
	char dir[] = "/tmp/test_cmasim_fit_XXXXXX", ini[64], cmdline[128], cmd[256];
	char *snap;
	struct run r;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(ini, sizeof(ini), "%s/replay.ini", dir);
	f = fopen("bench/oracle/results/arm64-vmsplice-32m/cmdline", "r");
	assert_non_null(f);
	assert_non_null(fgets(cmdline, sizeof(cmdline), f));
	fclose(f);
	cmdline[strcspn(cmdline, "\n")] = 0;
	r = run_cmasim(ARGS("replay", "bench/oracle/results/arm64-vmsplice-32m/trace.txt", "--platform",
			    "tests/dt/qemu-virt-arm64.dts", "--cmdline", cmdline, "--kernel", "6.12", "--snapshot",
			    "bench/oracle/results/arm64-vmsplice-32m/snapshot", "--emit-scenario", ini));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "48.8 MiB kernel (the device's 52.8 MiB less what the board's boot holds"));
	run_free(&r);
	/* the first request starts at 5.693 s */
	r = run_cmasim(ARGS("run", "--scenario", ini, "--duration", "5692ms", "--dump", "zoneinfo"));
	assert_int_equal(r.status, 0);
	snap = source_file("bench/oracle/results/arm64-vmsplice-32m/snapshot/zoneinfo");
	assert_int_equal(zoneinfo_free(snap), 346594);
	assert_int_equal(zoneinfo_free(strstr(r.out, "==> /proc/zoneinfo")), zoneinfo_free(snap));
	free(snap);
	run_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* The pages free in the run of scenario @ini stopped at @duration, before its first request. */
static unsigned long free_before_first_request(const char *ini, const char *duration)
{
	struct run r = run_cmasim(ARGS("run", "--scenario", ini, "--duration", duration, "--dump", "zoneinfo"));
	unsigned long free;

	assert_int_equal(r.status, 0);
	free = zoneinfo_free(strstr(r.out, "==> /proc/zoneinfo"));
	run_free(&r);
	return free;
}

/*
 * Expect --snapshot, when given, to give the background though the trace
 * holds page events (a recording may hold them only around the
 * allocation): the guest's idle trace, with 200 MiB of anonymous pages
 * given out 0.8 s before its 1 GiB request, replays with the snapshot's
 * memory, the guest's 748,211 pages free as the request starts, and the
 * report (text and JSON) says the trace's 100 page events were not used.
 * Without --snapshot the same trace's page events give the background,
 * and fewer pages are free.
 */
static void replay_snapshot_given_outranks_the_traces_page_events(void **state)
{
	static const char snapdir[] = "bench/oracle/results/arm64-idle-1g/snapshot";
	char dir[] = "/tmp/test_cmasim_snap_XXXXXX", trace[64], ini[64], cmd[256];
	char *text = source_file("bench/oracle/results/arm64-idle-1g/trace.txt");
	char *cmdline = source_file("bench/oracle/results/arm64-idle-1g/cmdline");
	char *snap = source_file("bench/oracle/results/arm64-idle-1g/snapshot/zoneinfo");
	const char *events = text;
	unsigned long device_free = zoneinfo_free(snap);
	struct run r;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(trace, sizeof(trace), "%s/trace.txt", dir);
	snprintf(ini, sizeof(ini), "%s/replay.ini", dir);
	cmdline[strcspn(cmdline, "\n")] = 0;
	while (*events == '#')
		events = strchr(events, '\n') + 1;
	f = fopen(trace, "w");
	assert_non_null(f);
	fprintf(f, "%.*s", (int)(events - text), text);
	for (unsigned i = 0; i < 100; i++)
		fprintf(f, "  app-10 [000] ..... %.6f: mm_page_alloc: page=00000000aabb%04x pfn=%#x order=9 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE\n",
			2 + i * 0.001, i, 0x48000 + i * 512);
	fputs(events, f);
	assert_int_equal(fclose(f), 0);

	r = run_cmasim(ARGS("replay", trace, "--platform", "tests/dt/qemu-virt-arm64.dts", "--cmdline", cmdline,
			    "--kernel", "6.12", "--snapshot", snapdir, "--emit-scenario", ini));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "background: from the snapshot bench/oracle/results/arm64-idle-1g/snapshot: "));
	assert_non_null(strstr(r.out, "; the trace's 100 page events not used\n"));
	run_free(&r);
	/* the request starts at 2.864519 s */
	assert_int_equal(device_free, 748211);
	assert_int_equal(free_before_first_request(ini, "2864ms"), device_free);
	r = run_cmasim(ARGS("replay", trace, "--platform", "tests/dt/qemu-virt-arm64.dts", "--cmdline", cmdline,
			    "--kernel", "6.12", "--snapshot", snapdir, "--report", "json"));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"background_from\": \"snapshot\""));
	assert_non_null(strstr(r.out, "; the trace's 100 page events not used\""));
	run_free(&r);

	r = run_cmasim(ARGS("replay", trace, "--platform", "tests/dt/qemu-virt-arm64.dts", "--cmdline", cmdline,
			    "--kernel", "6.12", "--emit-scenario", ini));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "background: from the trace's page events: 200.0 MiB anonymous"));
	assert_null(strstr(r.out, "not used"));
	run_free(&r);
	assert_true(free_before_first_request(ini, "2864ms") < device_free);

	free(snap);
	free(cmdline);
	free(text);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void user_text_names_the_kernel_not_the_seeds(void **state)
{
	static const char *const docs[] = { "README.md", "doc/cmasim.1", "doc/libcma.3", "doc/cmasim-json.md",
					    "include/cma/cma.h" };
	struct run list = run_cmasim(ARGS("list")), help = run_cmasim(ARGS("--help"));
	const char *at;

	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		char *text = man_source(docs[i]);

		if ((at = seed_jargon(text)))
			fail_msg("%s says \"%.40s\": name the kernel or the patch set instead", docs[i], at);
		free(text);
	}
	if ((at = seed_jargon(list.out)) || (at = seed_jargon(help.out)))
		fail_msg("cmasim list or --help says \"%.40s\": name the kernel or the patch set instead", at);
	run_free(&list);
	run_free(&help);
}

/*
 * Expect: the top-level --help has a line of its own, "  NAME  what it
 * does", for every command the "no command" message accepts.
 */
static void help_describes_every_command(void **state)
{
	struct run none = run_cmasim((const char *const[]){ NULL });
	struct run r = run_cmasim(ARGS("--help"));
	const char *list = strstr(none.err, "accepted ");
	unsigned found = 0;

	assert_non_null(list);
	for (list += strlen("accepted "); *list && *list != '\n'; found++) {
		size_t n = strcspn(list, ",\n");
		char line[64];
		const char *at;

		/* "  NAME      what it does": the names padded to one column */
		snprintf(line, sizeof(line), "\n  %-9.*s ", (int)n, list);
		at = strstr(r.out, line);
		if (!at || !isalpha((unsigned char)at[strlen(line)]))
			fail_msg("cmasim --help has no line describing the command %.*s:\n%s", (int)n, list, r.out);
		list += n;
		list += strspn(list, ", ");
	}
	assert_true(found >= 5);
	printf("cmasim --help describes its %u commands\n", found);
	run_free(&none);
	run_free(&r);
}

/* Expect: list and show, which take no options, answer --help with the usage and exit 0. */
static void list_and_show_help_exit_0(void **state)
{
	for (const char *const *cmd = ARGS("list", "show"); *cmd; cmd++) {
		struct run r = run_cmasim(ARGS(*cmd, "--help"));

		if (r.status || !strstr(r.out, "usage: cmasim run"))
			fail_msg("cmasim %s --help: expected the usage and exit 0; found exit %d and:\n%s%s", *cmd,
				 r.status, r.out, r.err);
		run_free(&r);
	}
}

/*
 * Expect: run --help and size --help say --platform takes a device tree,
 * and size's, which refuses --cma, never mentions --cma.
 */
static void run_and_size_help_describe_their_options(void **state)
{
	for (const char *const *cmd = ARGS("run", "size"); *cmd; cmd++) {
		struct run r = run_cmasim(ARGS(*cmd, "--help"));
		const char *line = strstr(r.out, "\n  --platform ");

		assert_int_equal(r.status, 0);
		if (!line || !strstr(line, "device tree") || strstr(line, "device tree") > strstr(line + 1, "\n  --"))
			fail_msg("cmasim %s --help: expected --platform's help to name device trees; found:\n%s", *cmd,
				 r.out);
		if (!strcmp(*cmd, "size") && strstr(r.out, "--cma"))
			fail_msg("cmasim size --help mentions --cma, which size refuses:\n%s", r.out);
		run_free(&r);
	}
}

/* Expect: --help's first line names the kernel profiles, the first and the last. */
static void help_tagline_names_the_kernel_profiles(void **state)
{
	struct run r = run_cmasim(ARGS("--help"));
	size_t n = strcspn(r.out, "\n");

	n += strcspn(r.out + n + 1, "\n") + 1;	/* the tagline may wrap once */
	if (!memmem(r.out, n, "3.5", 3) || !memmem(r.out, n, "6.12", 4))
		fail_msg("cmasim --help: expected its first lines to name the profiles 3.5 to 6.12; found:\n%.*s",
			 (int)n, r.out);
	run_free(&r);
}

/* "expected a number from 1 to N" of cmasim @cmd @opt 0, as N. */
static unsigned long count_limit(const char *cmd, const char *opt)
{
	struct run r = run_cmasim(ARGS(cmd, opt, "0", "-o", "/nonexistent/sw"));
	const char *at = strstr(r.err, "expected a number from 1 to ");
	unsigned long max;

	if (r.status != 2 || !at)
		fail_msg("cmasim %s %s 0: expected exit 2 and the accepted range; found exit %d and:\n%s", cmd, opt,
			 r.status, r.err);
	max = strtoul(at + strlen("expected a number from 1 to "), NULL, 10);
	run_free(&r);
	return max;
}

/* Expect: size and sweep accept the same --seeds and the same --jobs. */
static void size_and_sweep_count_limits_agree(void **state)
{
	for (const char *const *opt = ARGS("--seeds", "--jobs"); *opt; opt++) {
		unsigned long size = count_limit("size", *opt), sweep = count_limit("sweep", *opt);

		if (size != sweep)
			fail_msg("%s: size takes 1 to %lu, sweep 1 to %lu", *opt, size, sweep);
	}
}

/* Expect: "cmasim VERSION", the Makefile's VERSION, on stdout; exit 0. */
static void version_is_the_makefiles(void **state)
{
	struct run r = run_cmasim(ARGS("--version"));
	char *makefile = source_file("Makefile"), want[64];
	const char *v = strstr(makefile, "\nVERSION");

	assert_non_null(v);
	v += strcspn(v, "=") + 1;
	v += strspn(v, " \t");
	snprintf(want, sizeof(want), "cmasim %.*s\n", (int)strcspn(v, " \t\n"), v);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, want);
	assert_string_equal(r.err, "");
	run_free(&r);
	free(makefile);
}

/* "make install PREFIX=@dir@prefix" of this tree and build; the test fails with make's output if it does. */
static void make_install(const char *dir, const char *prefix)
{
	char cmd[PATH_MAX * 2 + 256], log[DIR_PATH_MAX], *text;

	snprintf(cmd, sizeof(cmd),
		 "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C '%s' BUILD='%s' PREFIX='%s%s' install >'%s/make.log' 2>&1",
		 source_dir, build_name, dir, prefix, dir);
	if (system(cmd)) {
		text = read_file(dir_file(dir, "make.log", NULL, log));
		fail_msg("%s: failed:\n%s", cmd, text ? text : "");
	}
}

/*
 * Expect: "make install PREFIX=P" after "make" installs a libcma.pc whose
 * prefix is P (it was written once, for the PREFIX of the build).
 */
static void install_pc_names_the_prefix(void **state)
{
	char dir[DIR_MAX], cmd[PATH_MAX * 2 + 256], pc[DIR_PATH_MAX], *text;

	make_dir(dir);
	make_install(dir, "/usr");
	snprintf(pc, sizeof(pc), "%s/usr/lib/pkgconfig/libcma.pc", dir);
	text = read_file(pc);
	assert_non_null(text);
	snprintf(cmd, sizeof(cmd), "prefix=%s/usr\n", dir);
	if (strncmp(text, cmd, strlen(cmd)))
		fail_msg("%s: expected it to begin with %sfound:\n%s", pc, cmd, text);
	free(text);
	remove_dir(dir);
}

/*
 * Expect: make coverage, which runs test_dt_corpus, builds the
 * device-tree corpus before it runs the tests, as make test does, so it
 * works on its own from a fresh clone (make -n: what it would run, in
 * order).
 */
static void make_coverage_builds_the_corpus_first(void **state)
{
	char cmd[PATH_MAX + 128], *out;
	const char *corpus, *run;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -s -C '%s' coverage 2>&1",
		 source_dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = read_all(p);
	assert_int_equal(pclose(p), 0);
	corpus = strstr(out, "tests/dt/build-corpus.sh build/dt-corpus");
	run = strstr(out, "scripts/run-tests.sh ");
	if (!run || !strstr(run, "tests/test_dt_corpus") || !corpus || corpus > run)
		fail_msg("make -n coverage: expected tests/dt/build-corpus.sh build/dt-corpus before scripts/run-tests.sh runs test_dt_corpus; found:\n%.2000s",
			 out);
	free(out);
}

/*
 * Expect: a header touched recompiles the sources that include it and
 * no other (the compiler's dependency lists, not every header for every
 * object): make -n -W src/mm/proc.h compiles exactly its includers.
 */
static void touched_header_rebuilds_only_its_includers(void **state)
{
	char cmd[PATH_MAX + 2 * NAME_MAX + 1024], *out;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && a=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -s BUILD='%s' -W src/mm/proc.h '%s/libcma.a' "
		 "| grep -- ' -c ' | sed 's/.* //' | sort) && b=$(grep -l '#include \"mm/proc.h\"' src/*/*.c | sort) && "
		 "if [ -z \"$b\" ] || [ \"$a\" != \"$b\" ]; then printf 'compiled:\n%%s\nincluders:\n%%s\n' \"$a\" \"$b\"; fi 2>&1",
		 source_dir, build_name, build_name);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = read_all(p);
	if (pclose(p) || *out)
		fail_msg("make -n -W src/mm/proc.h: expected to compile the sources that include it, no others; %s", out);
	free(out);
}

#define INSTALL_TOUR "#include <stdio.h>\n#include <cma/cma.h>\n\nint main(void)\n{\n" \
	"\tstruct cma_bank bank = { 0, 64 << 20 };\n" \
	"\tstruct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1 };\n\tstruct cma_mm *mm;\n\n" \
	"\tif (cma_mm_create(&cfg, &mm) || cma_mm_boot(mm))\n\t\treturn 1;\n" \
	"\tprintf(\"libcma booted\\n\");\n\tcma_mm_destroy(mm);\n\treturn 0;\n}\n"

/* A program linked against a sanitizer build of libcma.so needs the same runtime first. */
#if defined(__SANITIZE_ADDRESS__)
#define TOUR_SANITIZER " -fsanitize=address,undefined"
#elif defined(__SANITIZE_THREAD__)
#define TOUR_SANITIZER " -fsanitize=thread"
#else
#define TOUR_SANITIZER ""
#endif

/*
 * Expect: installed under a prefix the dynamic linker does not search
 * (/opt/x), libcma serves a program built with nothing but "pkg-config
 * --cflags --libs libcma": it links against libcma.so and runs without
 * LD_LIBRARY_PATH or ldconfig, finding the installed libcma.so.0.
 */
static void install_then_pkg_config_program_runs(void **state)
{
	char dir[DIR_MAX], src[DIR_PATH_MAX], cmd[PATH_MAX + 6 * DIR_PATH_MAX], *out;
	FILE *p;

	make_dir(dir);
	make_install(dir, "/opt/x");
	dir_file(dir, "tour.c", INSTALL_TOUR, src);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && PKG_CONFIG_PATH='%s/opt/x/lib/pkgconfig' && export PKG_CONFIG_PATH && "
		 "cc -std=c11" TOUR_SANITIZER " -o tour tour.c $(pkg-config --cflags --libs libcma) 2>&1 && "
		 "env -u LD_LIBRARY_PATH ./tour 2>&1 && ldd ./tour | grep -o '=> [^ ]*libcma.so.0'",
		 dir, dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = read_all(p);
	if (pclose(p) || strncmp(out, "libcma booted\n=> ", 17) || !strstr(out, "/opt/x/lib/libcma.so.0"))
		fail_msg("a program built with pkg-config libcma under %s/opt/x: expected it to run with the installed libcma.so.0; found:\n%s",
			 dir, out);
	free(out);
	remove_dir(dir);
}

/* ---- device trees ---- */

#define DT_HEAD "/dts-v1/;\n/ {\n\t#address-cells = <2>;\n\t#size-cells = <2>;\n\tcompatible = \"libcma,test\";\n"
#define DT_MEMORY "\tmemory@40000000 { device_type = \"memory\"; reg = <0 0x40000000 0 0x40000000>; };\n"
#define DT_RMEM(body) "\treserved-memory {\n\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n\t\tranges;\n" body "\t};\n"
#define DT_TAIL "};\n"

/* @dts compiled with dtc into @dir/@name. */
static const char *dt_compile(const char *dir, const char *name, const char *dts, char path[DIR_PATH_MAX])
{
	char src[DIR_PATH_MAX], cmd[3 * DIR_PATH_MAX];

	dir_file(dir, "board.dts", dts, src);
	dir_file(dir, name, NULL, path);
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o %s %s", path, src);
	if (system(cmd))
		fail_msg("dtc could not compile:\n%s", dts);
	return path;
}

/* Expect: exit 2, nothing on stdout (no machine), stderr naming @path and saying @message. */
static void expect_dt_refused(const char *path, const char *message, const char *const *extra)
{
	const char *args[8] = { "boot", "--platform", path };
	struct run r;
	int n = 3;

	while (extra && *extra && n < 7)
		args[n++] = *extra++;
	args[n] = NULL;
	r = run_cmasim(args);
	if (r.status != 2 || *r.out || !strstr(r.err, path) || !strstr(r.err, message))
		fail_msg("cmasim boot --platform %s: expected exit 2, no stdout, and \"%s\" with the file on stderr; found exit %d, stdout:\n%s\nstderr:\n%s",
			 path, message, r.status, r.out, r.err);
	run_free(&r);
}

/* Expect (fdt_check_header): a file that is no flattened tree is refused for its magic. */
static void dt_bad_magic_is_refused(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX];

	make_dir(dir);
	expect_dt_refused(dir_file(dir, "board.dtb", "this is not a device tree\n", path), "bad magic", NULL);
	remove_dir(dir);
}

/*
 * Expect: a tree of version 3 (nodes named by full path) is refused
 * saying which versions are accepted, before libfdt's fdt_check_full,
 * which crashes on one whose root name has no '/' (fuzz_dt's finding).
 */
static void dt_old_version_is_refused(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX];
	struct stat st;
	FILE *f;

	make_dir(dir);
	dt_compile(dir, "board.dtb", DT_HEAD DT_MEMORY DT_TAIL, path);
	assert_int_equal(stat(path, &st), 0);
	f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, 20, SEEK_SET), 0);		/* fdt_header.version */
	assert_int_equal(fwrite("\0\0\0\3", 1, 4, f), 4);
	assert_int_equal(fclose(f), 0);
	expect_dt_refused(path, "device tree version 3: accepted 16 and 17", NULL);
	remove_dir(dir);
}

/*
 * Expect: a property whose length is -12 (its next tag where it is: Debian's
 * libfdt 1.6.1 fdt_check_full loops for ever on it, which fuzz_dt found) is
 * refused, promptly, naming its offset.
 */
static void dt_property_length_backwards_is_refused(void **state)
{
	static const char prop_len4[8] = { 0, 0, 0, 3, 0, 0, 0, 4 };	/* FDT_PROP, len 4 */
	char dir[DIR_MAX], path[DIR_PATH_MAX], blob[8192];
	size_t len, at;
	FILE *f;

	make_dir(dir);
	dt_compile(dir, "board.dtb", DT_HEAD DT_MEMORY DT_TAIL, path);
	f = fopen(path, "r+b");
	assert_non_null(f);
	len = fread(blob, 1, sizeof(blob), f);
	/* the first property of 4 bytes after the 40-byte header, on its 4-byte grid */
	for (at = 40; at + 8 <= len && memcmp(blob + at, prop_len4, 8); at += 4)
		;
	assert_true(at + 8 <= len);
	assert_int_equal(fseek(f, (long)at + 4, SEEK_SET), 0);
	assert_int_equal(fwrite("\xff\xff\xff\xf4", 1, 4, f), 4);
	assert_int_equal(fclose(f), 0);
	expect_dt_refused(path, "has a length that does not move past it", NULL);
	remove_dir(dir);
}

/* Expect: a tree cut short of the size its header gives is refused as truncated. */
static void dt_truncated_is_refused(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX];
	struct stat st;

	make_dir(dir);
	dt_compile(dir, "board.dtb", DT_HEAD DT_MEMORY DT_TAIL, path);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(truncate(path, st.st_size / 2), 0);
	expect_dt_refused(path, "truncated", NULL);
	remove_dir(dir);
}

/* Expect: #address-cells = 3 (dt_mem_next_cell reads at most 64 bits) is refused, saying what is accepted. */
static void dt_three_address_cells_is_refused(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX];

	make_dir(dir);
	dt_compile(dir, "board.dtb",
		   "/dts-v1/;\n/ {\n\t#address-cells = <3>;\n\t#size-cells = <2>;\n"
		   "\tmemory@40000000 { device_type = \"memory\"; reg = <0 0 0x40000000 0 0x40000000>; };\n};\n",
		   path);
	expect_dt_refused(path, "#address-cells = 3 in the root: accepted 1 or 2", NULL);
	remove_dir(dir);
}

/* Expect: a reusable region (a CMA area) outside the RAM is refused, naming the node. */
static void dt_region_outside_memory_is_refused(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX];

	make_dir(dir);
	dt_compile(dir, "board.dtb", DT_HEAD DT_MEMORY DT_RMEM(
		   "\t\tcma@100000000 { compatible = \"shared-dma-pool\"; reusable; reg = <1 0 0 0x1000000>; };\n")
		   DT_TAIL, path);
	expect_dt_refused(path, "/reserved-memory/cma@100000000 (0x100000000..0x100ffffff) is outside the memory",
			  NULL);
	remove_dir(dir);
}

/* Expect: two static regions that overlap are refused (the kernel says "OVERLAP DETECTED!" and boots on). */
static void dt_overlapping_static_regions_are_refused(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX];

	make_dir(dir);
	dt_compile(dir, "board.dtb", DT_HEAD DT_MEMORY DT_RMEM(
		   "\t\tfw@48000000 { no-map; reg = <0 0x48000000 0 0x400000>; };\n"
		   "\t\tcma@48200000 { compatible = \"shared-dma-pool\"; reusable; reg = <0 0x48200000 0 0x1000000>; };\n")
		   DT_TAIL, path);
	expect_dt_refused(path, "/reserved-memory/fw@48000000 (0x48000000..0x483fffff) overlaps /reserved-memory/cma@48200000",
			  NULL);
	remove_dir(dir);
}

/* Expect: a memory-region phandle no node has is refused, naming the device node. */
static void dt_memory_region_pointing_nowhere_is_refused(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX];

	make_dir(dir);
	dt_compile(dir, "board.dtb", DT_HEAD DT_MEMORY
		   "\tvpu@38300000 { compatible = \"libcma,vpu\"; memory-region = <0x99>; };\n" DT_TAIL, path);
	expect_dt_refused(path, "vpu@38300000: memory-region's phandle 153 points nowhere", NULL);
	remove_dir(dir);
}

/* Expect: a tree without a memory node needs --memory, which then boots it. */
static void dt_without_memory_needs_memory_option(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX];
	struct run r;

	make_dir(dir);
	dt_compile(dir, "board.dtb", DT_HEAD DT_TAIL, path);
	expect_dt_refused(path, "the tree has no memory node", NULL);
	r = run_cmasim(ARGS("boot", "--platform", path, "--memory", "512M@0x80000000"));
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "node   0: [mem 0x80000000-0x9fffffff]"));
	run_free(&r);
	remove_dir(dir);
}

/* Expect: a source that includes headers is sent to cpp, not to dtc's error messages. */
static void dt_source_with_include_asks_for_cpp(void **state)
{
	char dir[DIR_MAX], path[DIR_PATH_MAX];

	make_dir(dir);
	dir_file(dir, "board.dts", "#include <dt-bindings/gpio/gpio.h>\n" DT_HEAD DT_MEMORY DT_TAIL, path);
	expect_dt_refused(path, "run it through cpp first", NULL);
	remove_dir(dir);
}

/* tests/dt/NAME in the source tree */
static const char *dt_source(const char *name, char *path, size_t len)
{
	if ((size_t)snprintf(path, len, "%s/tests/dt/%s", source_dir, name) >= len)
		fail_msg("%s/tests/dt/%s: path too long", source_dir, name);
	return path;
}

/*
 * Expect (6.12 of_reserved_mem, rmem_cma_setup): the dynamic
 * linux,cma-default region placed top-down in its alloc-ranges and made
 * the default area (no other reserved), the static reusable one a CMA
 * area at its reg, the no-map pool a coherent pool, each device with
 * its memory-region's area.
 */
static void boot_dt_board_golden(void **state)
{
	char path[PATH_MAX + 64];

	expect_boot_golden("boot-dt-board.txt", ARGS("boot", "--platform", dt_source("board-arm64.dts", path, sizeof(path)),
						     "--dump", "cma"));
}

/* Expect (rmem_cma_setup): cma= on the command line bypasses linux,cma-default; the cma= area is the default. */
static void boot_dt_cmdline_cma_bypasses_default(void **state)
{
	char path[PATH_MAX + 64];
	struct run r = run_cmasim(ARGS("boot", "--platform", dt_source("board-arm64.dts", path, sizeof(path)),
				       "--cmdline", "cma=16M"));

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Reserved memory: bypass linux,cma node, using cmdline CMA params instead\n"
				      "OF: reserved mem: node linux,cma compatible matching fail\n"));
	assert_non_null(strstr(r.out, "(16 MiB, the default area)"));
	assert_null(strstr(r.out, "activated linux,cma"));
	run_free(&r);
}

/* Five of the kernel's boards from tests/dt/build-corpus.sh's corpus (make test builds it). */
static void boot_dt_corpus_goldens(void **state)
{
	static const struct { const char *golden, *dtb, *memory; } boards[] = {
		{ "boot-dt-am57xx-beagle-x15.txt", "arm/ti/omap/am57xx-beagle-x15.dtb", NULL },
		{ "boot-dt-tegra30-ouya.txt", "arm/nvidia/tegra30-ouya.dtb", NULL },
		{ "boot-dt-aspeed-ast2600-evb.txt", "arm/aspeed/aspeed-ast2600-evb.dtb", NULL },
		{ "boot-dt-imx8dxl-evk.txt", "arm64/freescale/imx8dxl-evk.dtb", NULL },
		{ "boot-dt-sdm845-db845c.txt", "arm64/qcom/sdm845-db845c.dtb", "4G@0x80000000" },
	};
	char path[PATH_MAX + 64];

	for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
		snprintf(path, sizeof(path), "%s/build/dt-corpus/dtb/%s", source_dir, boards[i].dtb);
		if (access(path, R_OK)) {
			printf("skipped: %s is missing (tests/dt/build-corpus.sh build/dt-corpus builds it)\n", path);
			skip();
		}
		if (boards[i].memory)
			expect_boot_golden(boards[i].golden, ARGS("boot", "--platform", path, "--memory", boards[i].memory));
		else
			expect_boot_golden(boards[i].golden, ARGS("boot", "--platform", path));
	}
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
	snprintf(build_name, sizeof(build_name), "%s", strrchr(build, '/') + 1);
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

/* scripts/calibrate.sh with the anchor table @table (written to @dir) and @opts: its exit status, output in *@out. */
static int calibrate(const char *dir, const char *table, const char *opts, char **out)
{
	char path[DIR_PATH_MAX], cmd[2 * PATH_MAX + 2 * DIR_PATH_MAX];
	FILE *p;
	int status;

	dir_file(dir, "anchors.tsv", table, path);
	snprintf(cmd, sizeof(cmd), "'%s/scripts/calibrate.sh' %s --table '%s' '%s' 2>&1", source_dir, opts, path,
		 cmasim);
	p = popen(cmd, "r");
	assert_non_null(p);
	*out = read_all(p);
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * Expect (make calibrate): an anchor within 2x of its scenario's figure
 * passes, a fake one 50x off fails the run (exit 1) and is counted in
 * the last line and in its half's count; --short runs only the rows
 * marked yes; a row with a missing field or in neither half is the
 * table's error (exit 2, naming its line); a field the report lacks
 * fails that anchor.
 */
static void calibrate_table_and_exit_status(void **state)
{
#define GOT "workloads.giga.hugetlb.got"
	char dir[DIR_MAX], path[DIR_PATH_MAX], *out;

	make_dir(dir);
	dir_file(dir, "giga.ini", "[scenario]\nplatform = x86\nmemory = 64M\ncmdline = cma=0\nkernel = 6.12\n"
		 "duration = 20ms\n[hugetlb giga]\nsize = 8M\ncount = 2\nstart = 10ms\n", path);
	assert_int_equal(calibrate(dir, "# a comment\n\nfake-got\t2\thuge\tgiga.ini\t" GOT "\tyes\tfit\n", "", &out), 0);
	if (!strstr(out, "fake-got") || !strstr(out, "1.00") || !strstr(out, "\ncalibration: 1 of 1 anchors within 2x\n"))
		fail_msg("calibrate.sh, one anchor at ratio 1: found:\n%s", out);
	free(out);

	assert_int_equal(calibrate(dir, "fake-got\t2\thuge\tgiga.ini\t" GOT "\tyes\tfit\n"
				   "fake-far\t100\thuge\tgiga.ini\t" GOT "\tno\ttest\n", "", &out), 1);
	if (!strstr(out, "outside 2x") || !strstr(out, "\ncalibration: 1 of 2 anchors within 2x\n") ||
	    !strstr(out, "\ncalibration: fit half 1 of 1 within 2x; test half 0 of 1 within 2x\n"))
		fail_msg("calibrate.sh, a fake anchor 50x off: found:\n%s", out);
	free(out);
	assert_int_equal(calibrate(dir, "fake-got\t2\thuge\tgiga.ini\t" GOT "\tyes\tfit\n"
				   "fake-far\t100\thuge\tgiga.ini\t" GOT "\tno\ttest\n", "--short", &out), 0);
	if (strstr(out, "fake-far") || !strstr(out, "calibration: 1 of 1 anchors within 2x"))
		fail_msg("calibrate.sh --short: expected only the short row; found:\n%s", out);
	free(out);

	assert_int_equal(calibrate(dir, "# head\nbad\t1\tms\tgiga.ini\t" GOT "\n", "", &out), 2);
	if (!strstr(out, "anchors.tsv:2: 5 fields"))
		fail_msg("calibrate.sh, a row of 5 fields: expected its line named; found:\n%s", out);
	free(out);
	assert_int_equal(calibrate(dir, "half\t1\tms\tgiga.ini\t" GOT "\tyes\tboth\n", "", &out), 2);
	if (!strstr(out, "anchors.tsv:1: half \"both\": fit or test"))
		fail_msg("calibrate.sh, a row in neither half: expected its line named; found:\n%s", out);
	free(out);
	assert_int_equal(calibrate(dir, "none\t1\tms\tgiga.ini\tworkloads.giga.hugetlb.nothing\tyes\tfit\n", "", &out), 1);
	if (!strstr(out, "no number at workloads.giga.hugetlb.nothing") ||
	    !strstr(out, "calibration: 0 of 1 anchors within 2x"))
		fail_msg("calibrate.sh, a field the report lacks: found:\n%s", out);
	free(out);
	remove_dir(dir);
#undef GOT
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(boot_x86_golden),
		cmocka_unit_test(boot_default_platform_is_x86),
		cmocka_unit_test(boot_dump_area_files),
		cmocka_unit_test(boot_arm_golden),
		cmocka_unit_test(boot_arm64_golden),
		cmocka_unit_test(boot_arm64_dma_cma_by_release),
		cmocka_unit_test(boot_s5p_mfc_golden),
		cmocka_unit_test(boot_s5p_mfc_cma0_golden),
		cmocka_unit_test(boot_platform_file_same_as_builtin),
		cmocka_unit_test(boot_platform_file_devices_golden),
		cmocka_unit_test(boot_overrides_and_every_dump),
		cmocka_unit_test(boot_s5p_mfc_failure_names_the_device),
		cmocka_unit_test(boot_area_not_reserved_boots_on),
		cmocka_unit_test(list_golden),
		cmocka_unit_test(help_exits_0),
		cmocka_unit_test(help_describes_every_command),
		cmocka_unit_test(list_and_show_help_exit_0),
		cmocka_unit_test(run_and_size_help_describe_their_options),
		cmocka_unit_test(option_tables_refuse_alike),
		cmocka_unit_test(every_table_option_in_help_and_man_page),
		cmocka_unit_test(help_tagline_names_the_kernel_profiles),
		cmocka_unit_test(size_and_sweep_count_limits_agree),
		cmocka_unit_test(version_is_the_makefiles),
		cmocka_unit_test(install_pc_names_the_prefix),
		cmocka_unit_test(install_then_pkg_config_program_runs),
		cmocka_unit_test(make_coverage_builds_the_corpus_first),
		cmocka_unit_test(touched_header_rebuilds_only_its_includers),
		cmocka_unit_test(run_tests_prints_errors_only_of_failures),
		cmocka_unit_test(readme_examples_print_what_cmasim_prints),
		cmocka_unit_test(user_text_names_the_kernel_not_the_seeds),
		cmocka_unit_test(replay_kernel_is_the_baseline_or_a_what_if),
		cmocka_unit_test(replay_snapshot_starts_with_the_devices_free_pages),
		cmocka_unit_test(replay_snapshot_given_outranks_the_traces_page_events),
		cmocka_unit_test(bad_input_is_refused),
		cmocka_unit_test(dt_bad_magic_is_refused),
		cmocka_unit_test(dt_old_version_is_refused),
		cmocka_unit_test(dt_truncated_is_refused),
		cmocka_unit_test(dt_property_length_backwards_is_refused),
		cmocka_unit_test(dt_three_address_cells_is_refused),
		cmocka_unit_test(dt_region_outside_memory_is_refused),
		cmocka_unit_test(dt_overlapping_static_regions_are_refused),
		cmocka_unit_test(dt_memory_region_pointing_nowhere_is_refused),
		cmocka_unit_test(dt_without_memory_needs_memory_option),
		cmocka_unit_test(dt_source_with_include_asks_for_cpp),
		cmocka_unit_test(boot_dt_board_golden),
		cmocka_unit_test(boot_dt_cmdline_cma_bypasses_default),
		cmocka_unit_test(boot_dt_corpus_goldens),
		cmocka_unit_test(platform_file_fixed_base_taken),
		cmocka_unit_test(run_scenario_errors_name_file_line_and_key),
		cmocka_unit_test(run_platform_file_next_to_the_scenario),
		cmocka_unit_test(run_platform_file_without_nr_cpus),
		cmocka_unit_test(show_round_trips_through_run),
		cmocka_unit_test(run_cma_and_cmdline_replace_the_area),
		cmocka_unit_test(run_set_changes_the_scenario),
		cmocka_unit_test(run_trace_is_ftrace_text),
		cmocka_unit_test(run_failed_write_keeps_the_old_file),
		cmocka_unit_test(calibrate_table_and_exit_status),
		cmocka_unit_test(run_killed_leaves_the_old_file_alone),
		cmocka_unit_test(run_output_fifo_and_socket_get_the_report),
		cmocka_unit_test(run_output_through_a_symlink_writes_its_target),
		cmocka_unit_test(run_output_to_a_device_writes_it),
		cmocka_unit_test(run_output_directory_is_refused),
		cmocka_unit_test(snapshot_files_are_replaced_whole),
		cmocka_unit_test(compare_reports_to_files),
		cmocka_unit_test(run_dump_and_output_dir),
		cmocka_unit_test(boot_platform_kernel_key),
		cmocka_unit_test(run_and_compare_kernels),
		cmocka_unit_test(sweep_grid_writes_reports_and_summaries),
		cmocka_unit_test(sweep_print_commands_then_collect_same_summary),
		cmocka_unit_test(size_and_sweep_take_kernel),
		cmocka_unit_test(sweep_resume_runs_only_missing_points),
		cmocka_unit_test(sweep_interrupted_keeps_finished_points),
		cmocka_unit_test(sweep_ctrl_c_dies_of_sigint),
		cmocka_unit_test(dt_directory_says_it_is_one),
		cmocka_unit_test(run_missing_platform_is_one_line),
		cmocka_unit_test(size_answer_serves_and_one_step_below_misses),
		cmocka_unit_test(size_max_too_small_exits_1),
		cmocka_unit_test(man_pages_render_without_warnings),
		cmocka_unit_test(man_page_documents_every_option_and_key),
		cmocka_unit_test(libcma_page_names_every_function),
		cmocka_unit_test(man_page_lists_every_policy),
		cmocka_unit_test(man_page_has_a_paragraph_per_command),
		cmocka_unit_test(libcma_page_arm64_range_is_what_boots),
		cmocka_unit_test(docs_link_inside_the_repository),
	};

	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(boot_kernel_option, boot_kernel_option_kernels),
	};
	/* setup_paths, the first group's, sets the paths the second's cases use too */
	int failed = cmocka_run_group_tests_name("cmasim", tests, setup_paths, NULL);

	return failed + test_run_kernel_cases("cmasim (per kernel)", kernel_cases);
}
