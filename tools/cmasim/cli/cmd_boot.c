// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim boot: boot a platform as its kernel would and print what the
 * kernel printed, the devices' CMA areas and the /proc files asked for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cma/cma.h>
#include "cli/commands.h"
#include "cli/common_options.h"
#include "util/inifile.h"
#include "board/platform.h"
#include "engine/result.h"

struct boot_args {
	const char *platform;
	const char *cmdline;
	char *kconfig;			/* the file's text, or NULL */
	const char *kconfig_path;
	struct opt_list dumps;
	const char *kernel;		/* NULL: the platform's */
	struct cma_bank memory;		/* --memory; size 0: the platform's */
	const char *memory_arg;		/* as given, for its messages */
};

/* One boot a process: the table binds its options to these. */
static struct boot_args boot_args;

/* --memory SIZE[@BASE] into the bank at o->value: 0, or -EINVAL after saying why. */
static int memory_cb(const struct cmd_option *o, const char *value, const char *cmd)
{
	struct cma_bank *bank = o->value;
	const char *at = strchr(value, '@');
	size_t n = at ? (size_t)(at - value) : strlen(value);

	bank->base = UINT64_MAX;	/* none given: the platform's */
	if (!ini_parse_number(value, n, true, &bank->size) || !bank->size ||
	    (at && !ini_parse_number(at + 1, strlen(at + 1), true, &bank->base)) ||
	    (at && bank->base + bank->size < bank->base)) {
		fprintf(stderr, "cmasim %s: --memory '%s': expected SIZE[@BASE], a non-zero size and an optional base, each a number with an optional K, M, G or T suffix (e.g. 1G@0x40000000)\n",
			cmd, value);
		return -EINVAL;
	}
	return 0;
}

/* --kconfig FILE: the file's text into the char * at o->value, or -EINVAL after saying why. */
static int kconfig_cb(const struct cmd_option *o, const char *path, const char *cmd)
{
	char **text = o->value, err[512];
	int line;

	free(*text);
	*text = ini_read_text(path, ".config fragment", err, sizeof(err));
	if (!*text) {
		fprintf(stderr, "cmasim %s: --kconfig %s\n", cmd, err);
		return -EINVAL;
	}
	/* the library quotes a line it cannot read: let none hold a control character */
	if ((line = ini_check_controls(*text, err, sizeof(err)))) {
		fprintf(stderr, "cmasim %s: --kconfig %s:%d: %s\n", cmd, path, line, err);
		free(*text);
		*text = NULL;
		return -EINVAL;
	}
	return 0;
}

static const struct cmd_option boot_options[] = {
	OPT_PLATFORM(&boot_args.platform, 1,
		     "a built-in platform (%s; see 'cmasim list'), a platform file,\nor a device tree (FILE.dtb, FILE.dts) (default x86)"),
	{ .type = OPTION_STRING, .name = "cmdline", .value = &boot_args.cmdline, .arg = "STR", .help_rank = 2,
	  .help = "the kernel command line, replacing the platform's (cma=SIZE,\ncoherent_pool=SIZE on arm)",
	  .what = "a kernel command line" },
	{ .type = OPTION_CALLBACK, .name = "kconfig", .value = &boot_args.kconfig, .given = &boot_args.kconfig_path,
	  .arg = "FILE", .callback = kconfig_cb, .help_rank = 3,
	  .help = "a .config fragment (CONFIG_CMA_*), replacing the platform's", .what = "a .config file" },
	OPT_DUMP(&boot_args.dumps, 0, 4,
		 "after the boot log, print /proc/NAME; NAME is one of\n" PROC_NAMES_ACCEPTED "; repeatable"),
	{ .type = OPTION_CALLBACK, .name = "memory", .value = &boot_args.memory, .given = &boot_args.memory_arg,
	  .arg = "SIZE[@BASE]", .callback = memory_cb, .help_rank = 5,
	  .help = "one bank of RAM instead of the platform's (a device tree\nwithout a memory node needs it); BASE default: the platform's",
	  .what = "a memory size, e.g. 1G or 512M@0x40000000" },
	OPT_KERNEL(&boot_args.kernel, 6,
		   "the kernel profile, replacing the platform's (default 3.5;\n6.12 for a device tree)"),
	OPT_HELP_ENTRY,
};

const struct cmd_table boot_table = { .opts = OPTS(boot_options) };

/*
 * --memory's bank in place of @p's: 0, or -EINVAL after saying why. Its
 * base and size must be multiples of the platform's page size, as
 * cma_mm_create() wants every bank (base 0 is one).
 */
static int set_memory(struct platform *p, const struct boot_args *a)
{
	uint64_t page = 1ull << (p->cfg.page_shift ? p->cfg.page_shift : 12);
	uint64_t base = a->memory.base != UINT64_MAX ? a->memory.base : p->banks[0].base;

	if (base & (page - 1) || a->memory.size & (page - 1)) {
		bool bad_base = base & (page - 1);

		fprintf(stderr, "cmasim: --memory '%s': the %s must be a multiple of the page size, %#llx on platform %s%s; %#llx is not\n",
			a->memory_arg, bad_base ? "base" : "size", (unsigned long long)page, p->name,
			bad_base ? " (0 is one)" : "", (unsigned long long)(bad_base ? base : a->memory.size));
		return -EINVAL;
	}
	p->banks[0].size = a->memory.size;
	p->banks[0].base = base;
	p->nr_banks = 1;
	platform_dt_set_banks(p);
	return 0;
}

/* A built-in name, else a file; 0, or -EINVAL after saying why on stderr. */
static int load_platform(const char *arg, struct platform *p)
{
	char err[512];
	int ret = platform_load(arg, p, err, sizeof(err));

	if (!ret)
		return 0;
	if (ret == -ENOENT)
		fprintf(stderr, "cmasim: --platform '%s': %s\n", arg, err);
	else
		fprintf(stderr, "cmasim: %s\n", err);
	return -EINVAL;
}

static int boot_and_report(const struct platform *p, const struct boot_args *a)
{
	struct cma_device *devs[PLATFORM_MAX_DEVICES];
	struct cma_mm *mm;
	int ret = platform_boot(p, a->cmdline, a->kconfig, &mm, devs);

	if (ret == -EINVAL) {
		fprintf(stderr, "cmasim: the machine refused this configuration (see the message above): platform %s, command line from %s, Kconfig from %s\n",
			p->name, a->cmdline ? "--cmdline" : "the platform",
			a->kconfig_path ? a->kconfig_path : "the platform");
		return -EINVAL;
	}
	if (ret) {
		if (mm)
			cma_mm_dmesg(mm, stdout);
		fprintf(stderr, "cmasim: platform %s did not boot (see the message above)\n", p->name);
		cma_mm_destroy(mm);
		return -EIO;
	}
	cma_mm_dmesg(mm, stdout);
	printf("\n==> devices <==\n");
	platform_write_devices(mm, p, devs, stdout);
	for (unsigned i = 0; i < a->dumps.nr; i++) {
		printf("\n==> %s%s <==\n", proc_dir_of(a->dumps.v[i]), a->dumps.v[i]);
		if (cma_write_proc(mm, a->dumps.v[i], stdout))
			ret = -EIO;
	}
	if (fflush(stdout))
		ret = -EIO;
	cma_mm_destroy(mm);
	return ret;
}

int cmd_boot(int argc, char **argv)
{
	struct boot_args *a = &boot_args;
	static struct platform p;
	int ret;

	*a = (struct boot_args){ .platform = "x86" };
	ret = opt_parse("boot", OPTS(boot_options), argc, argv);
	if (ret > 0) {
		ret = cmd_help("boot", &boot_table, NULL);
	} else if (!ret) {
		ret = load_platform(a->platform, &p);
		if (!ret && a->kernel)
			p.cfg.kernel = a->kernel;
		if (!ret && a->memory.size)
			ret = set_memory(&p, a);
		/* a tree's reserve() reads the command line it boots with (cma= bypasses linux,cma-default) */
		if (!ret && a->cmdline && p.source[0]) {
			snprintf(p.cmdline, sizeof(p.cmdline), "%s", a->cmdline);
			a->cmdline = NULL;
		}
		if (!ret)
			ret = boot_and_report(&p, a);
	}
	free(a->kconfig);
	return ret;
}
