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
#include "util/inifile.h"
#include "board/platform.h"
#include "engine/result.h"

enum boot_option { O_PLATFORM, O_CMDLINE, O_KCONFIG, O_DUMP, O_MEMORY };
enum { O_KERNEL = 64 };		/* apart, as in cmd_run.c */

const struct cmd_option boot_options[] = {
	{ .id = O_PLATFORM, .name = "platform", .arg = "NAME|FILE", .help_rank = 1,
	  .help = "a built-in platform (%s; see 'cmasim list'), a platform file,\nor a device tree (FILE.dtb, FILE.dts) (default x86)",
	  .fill = platform_builtin_names, .what = "a platform name or file" },
	{ .id = O_CMDLINE, .name = "cmdline", .arg = "STR", .help_rank = 2,
	  .help = "the kernel command line, replacing the platform's (cma=SIZE,\ncoherent_pool=SIZE on arm)",
	  .what = "a kernel command line" },
	{ .id = O_KCONFIG, .name = "kconfig", .arg = "FILE", .help_rank = 3,
	  .help = "a .config fragment (CONFIG_CMA_*), replacing the platform's", .what = "a .config file" },
	{ .id = O_DUMP, .name = "dump", .arg = "NAME", .repeats = true, .help_rank = 4,
	  .help = "after the boot log, print /proc/NAME; NAME is one of\n" PROC_NAMES_ACCEPTED "; repeatable",
	  .what = "a /proc file name (" PROC_NAMES_ACCEPTED ")" },
	{ .id = O_MEMORY, .name = "memory", .arg = "SIZE[@BASE]", .help_rank = 5,
	  .help = "one bank of RAM instead of the platform's (a device tree\nwithout a memory node needs it); BASE default: the platform's",
	  .what = "a memory size, e.g. 1G or 512M@0x40000000" },
	{ .id = O_KERNEL, .name = "kernel", .arg = "3.5..6.12", .help_rank = 6,
	  .help = "the kernel profile, replacing the platform's (default 3.5;\n6.12 for a device tree)",
	  .what = "a kernel profile (" PLATFORM_KERNELS_ACCEPTED ")" },
	{ .id = OPT_HELP, .name = "help", .short_name = 'h', .usage = "" },
};

const unsigned nr_boot_options = sizeof(boot_options) / sizeof(boot_options[0]);

struct boot_args {
	const char *platform;
	const char *cmdline;
	char *kconfig;			/* the file's text, or NULL */
	const char *kconfig_path;
	const char **dumps;
	int nr_dumps;
	const char *kernel;		/* NULL: the platform's */
	struct cma_bank memory;		/* --memory; size 0: the platform's */
	const char *memory_arg;		/* as given, for its messages */
};

/* SIZE[@BASE] into @bank: 0, or -EINVAL after saying why. */
static int parse_memory(const char *value, struct cma_bank *bank)
{
	const char *at = strchr(value, '@');
	size_t n = at ? (size_t)(at - value) : strlen(value);

	bank->base = UINT64_MAX;	/* none given: the platform's */
	if (!ini_parse_number(value, n, true, &bank->size) || !bank->size ||
	    (at && !ini_parse_number(at + 1, strlen(at + 1), true, &bank->base)) ||
	    (at && bank->base + bank->size < bank->base)) {
		fprintf(stderr, "cmasim: --memory '%s': expected SIZE[@BASE], a non-zero size and an optional base, each a number with an optional K, M, G or T suffix (e.g. 1G@0x40000000)\n",
			value);
		return -EINVAL;
	}
	return 0;
}

/* The file's text, or NULL after saying why on stderr. */
static char *read_kconfig(const char *path)
{
	char err[512], *text = ini_read_text(path, ".config fragment", err, sizeof(err));
	int line;

	if (!text) {
		fprintf(stderr, "cmasim: --kconfig %s\n", err);
	} else if ((line = ini_check_controls(text, err, sizeof(err)))) {
		/* the library quotes a line it cannot read: let none hold a control character */
		fprintf(stderr, "cmasim: --kconfig %s:%d: %s\n", path, line, err);
		free(text);
		text = NULL;
	}
	return text;
}

/* 0, 1 for --help, or -EINVAL after saying what was wrong. */
static int parse_boot_args(int argc, char **argv, struct boot_args *a)
{
	struct opt_parser p;
	const char *value;
	int id;

	opt_init(&p, "boot", boot_options, nr_boot_options, argc, argv);
	while ((id = opt_next(&p, &value)) != OPT_END) {
		switch (id) {
		case O_PLATFORM:
			a->platform = value;
			break;
		case O_CMDLINE:
			a->cmdline = value;
			break;
		case O_KCONFIG:
			free(a->kconfig);
			a->kconfig_path = value;
			a->kconfig = read_kconfig(value);
			if (!a->kconfig)
				return -EINVAL;
			break;
		case O_DUMP:
			if (!proc_name_ok(value)) {
				fprintf(stderr, "cmasim: --dump '%s': no such /proc file: accepted " PROC_NAMES_ACCEPTED "\n",
					value);
				return -EINVAL;
			}
			a->dumps[a->nr_dumps++] = value;
			break;
		case O_MEMORY:
			if (parse_memory(value, &a->memory))
				return -EINVAL;
			a->memory_arg = value;
			break;
		case O_KERNEL:
			a->kernel = platform_kernel_find(value);
			if (!a->kernel) {
				fprintf(stderr, "cmasim: --kernel '%s': no such kernel profile: accepted "
					PLATFORM_KERNELS_ACCEPTED "\n", value);
				return -EINVAL;
			}
			break;
		case OPT_HELP:
			return 1;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

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
	for (int i = 0; i < a->nr_dumps; i++) {
		printf("\n==> %s%s <==\n", proc_dir_of(a->dumps[i]), a->dumps[i]);
		if (cma_write_proc(mm, a->dumps[i], stdout))
			ret = -EIO;
	}
	if (fflush(stdout))
		ret = -EIO;
	cma_mm_destroy(mm);
	return ret;
}

int cmd_boot(int argc, char **argv)
{
	struct boot_args a = { .platform = "x86" };
	static struct platform p;
	int ret;

	a.dumps = calloc((size_t)argc, sizeof(*a.dumps));
	if (!a.dumps)
		return -ENOMEM;
	ret = parse_boot_args(argc, argv, &a);
	if (ret > 0) {
		ret = CMD_USAGE;
	} else if (!ret) {
		ret = load_platform(a.platform, &p);
		if (!ret && a.kernel)
			p.cfg.kernel = a.kernel;
		if (!ret && a.memory.size)
			ret = set_memory(&p, &a);
		/* a tree's reserve() reads the command line it boots with (cma= bypasses linux,cma-default) */
		if (!ret && a.cmdline && p.source[0]) {
			snprintf(p.cmdline, sizeof(p.cmdline), "%s", a.cmdline);
			a.cmdline = NULL;
		}
		if (!ret)
			ret = boot_and_report(&p, &a);
	}
	free(a.kconfig);
	free(a.dumps);
	return ret;
}
