// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim: boot a described board on libcma and show what the kernel
 * would print (boot), or run workloads on it and report how its
 * contiguous allocations fared (run, compare). Exit status: 0 success,
 * 1 the run failed, 2 bad usage or bad input, with a message naming what
 * was wrong and what is accepted.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <cma/cma.h>
#include "inifile.h"
#include "platform.h"
#include "run.h"
#include "scenario.h"


static void usage(FILE *out)
{
	fprintf(out,
		"usage: cmasim run [--scenario NAME|FILE] [--policy NAME] [--report text|json|html] ...\n"
		"       cmasim compare [--scenario NAME|FILE] [--policies LIST] [--report ...] ...\n"
		"       cmasim boot [--platform NAME|FILE] [--cmdline STR] [--kconfig FILE] [--dump NAME]...\n"
		"       cmasim list\n"
		"       cmasim show SCENARIO\n"
		"\n"
		"  run and compare: see 'cmasim run --help', 'cmasim compare --help' and cmasim(1)\n"
		"\n"
		"boot:\n"
		"\n"
		"  --platform  a built-in platform (%s; see 'cmasim list') or a platform file\n"
		"              (default x86)\n"
		"  --cmdline   the kernel command line, replacing the platform's (cma=SIZE,\n"
		"              coherent_pool=SIZE on arm)\n"
		"  --kconfig   a .config fragment (CONFIG_CMA_*), replacing the platform's\n"
		"  --dump      after the boot log, print /proc/NAME; NAME is one of\n"
		"              " PROC_NAMES_ACCEPTED "; repeatable\n",
		platform_builtin_names());
}

/* The file's text, or NULL after saying why on stderr. */
static char *read_kconfig(const char *path)
{
	char err[512], *text = ini_read_text(path, ".config fragment", err, sizeof(err));

	if (!text)
		fprintf(stderr, "cmasim: --kconfig %s\n", err);
	return text;
}

/* A built-in name, else a file; 0, or 2 after saying why on stderr. */
static int load_platform(const char *arg, struct platform *p)
{
	const struct platform *builtin = platform_builtin(arg);
	char err[512];

	if (builtin) {
		*p = *builtin;
		return 0;
	}
	if (!strchr(arg, '/') && !strchr(arg, '.')) {
		FILE *f = fopen(arg, "r");

		if (!f) {
			fprintf(stderr, "cmasim: --platform '%s': no such platform: accepted %s (see 'cmasim list'), or the path of a platform file\n",
				arg, platform_builtin_names());
			return 2;
		}
		fclose(f);
	}
	if (platform_read_file(arg, p, err, sizeof(err))) {
		fprintf(stderr, "cmasim: %s\n", err);
		return 2;
	}
	return 0;
}

struct boot_args {
	const char *platform;
	const char *cmdline;
	char *kconfig;			/* the file's text, or NULL */
	const char *kconfig_path;
	const char **dumps;
	int nr_dumps;
};


/* 0, -1 for --help, or 2 after saying what was wrong. */
static int parse_boot_args(int argc, char **argv, struct boot_args *a)
{
	static const struct option opts[] = {
		{ "platform", required_argument, NULL, 'p' },
		{ "cmdline", required_argument, NULL, 'c' },
		{ "kconfig", required_argument, NULL, 'k' },
		{ "dump", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const what[] = {
		['p'] = "a platform name or file", ['c'] = "a kernel command line",
		['k'] = "a .config file", ['d'] = "a /proc file name (" PROC_NAMES_ACCEPTED ")",
	};
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			a->platform = optarg;
			break;
		case 'c':
			a->cmdline = optarg;
			break;
		case 'k':
			free(a->kconfig);
			a->kconfig_path = optarg;
			a->kconfig = read_kconfig(optarg);
			if (!a->kconfig)
				return 2;
			break;
		case 'd':
			if (!proc_name_ok(optarg)) {
				fprintf(stderr, "cmasim: --dump '%s': no such /proc file: accepted " PROC_NAMES_ACCEPTED "\n",
					optarg);
				return 2;
			}
			a->dumps[a->nr_dumps++] = optarg;
			break;
		case 'h':
			return -1;
		case ':':
			fprintf(stderr, "cmasim boot: %s needs a value: %s\n", argv[optind - 1],
				optopt > 0 && optopt < (int)(sizeof(what) / sizeof(what[0])) && what[optopt] ?
				what[optopt] : "see --help");
			return 2;
		default:
			if (optopt)
				fprintf(stderr, "cmasim boot: unknown option '-%c'", optopt);
			else
				fprintf(stderr, "cmasim boot: unknown option '%s'", argv[optind - 1]);
			fprintf(stderr, ": accepted --platform, --cmdline, --kconfig, --dump, --help\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "cmasim boot: unexpected argument '%s': boot takes only options (see --help)\n",
			argv[optind]);
		return 2;
	}
	return 0;
}

static int boot_and_report(const struct platform *p, const struct boot_args *a)
{
	struct cma_device *devs[PLATFORM_MAX_DEVICES];
	struct cma_mm *mm;
	int ret = platform_boot(p, a->cmdline, a->kconfig, &mm, devs);

	if (ret == 2) {
		fprintf(stderr, "cmasim: the machine refused this configuration (see the message above): platform %s, command line from %s, Kconfig from %s\n",
			p->name, a->cmdline ? "--cmdline" : "the platform",
			a->kconfig_path ? a->kconfig_path : "the platform");
		return 2;
	}
	if (ret) {
		if (mm)
			cma_mm_dmesg(mm, stdout);
		fprintf(stderr, "cmasim: platform %s did not boot (see the message above)\n", p->name);
		cma_mm_destroy(mm);
		return 1;
	}
	cma_mm_dmesg(mm, stdout);
	printf("\n==> devices <==\n");
	platform_write_devices(mm, p, devs, stdout);
	for (int i = 0; i < a->nr_dumps; i++) {
		printf("\n==> /proc/%s <==\n", a->dumps[i]);
		if (cma_write_proc(mm, a->dumps[i], stdout))
			ret = 1;
	}
	if (fflush(stdout))
		ret = 1;
	cma_mm_destroy(mm);
	return ret;
}

static int cmd_boot(int argc, char **argv)
{
	struct boot_args a = { .platform = "x86" };
	static struct platform p;
	int ret;

	a.dumps = calloc((size_t)argc, sizeof(*a.dumps));
	if (!a.dumps)
		return 1;
	ret = parse_boot_args(argc, argv, &a);
	if (ret < 0) {
		usage(stdout);
		ret = 0;
	} else if (!ret) {
		ret = load_platform(a.platform, &p);
		if (!ret)
			ret = boot_and_report(&p, &a);
	}
	free(a.kconfig);
	free(a.dumps);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "cmasim: no command: accepted run, compare, boot, list, show\n");
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "run") || !strcmp(argv[1], "compare"))
		return cmd_run(argc - 1, argv + 1, !strcmp(argv[1], "compare"));
	if (!strcmp(argv[1], "show"))
		return cmd_show(argc - 1, argv + 1);
	if (!strcmp(argv[1], "boot"))
		return cmd_boot(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list")) {
		if (argc > 2) {
			fprintf(stderr, "cmasim list: unexpected argument '%s': list takes none\n", argv[2]);
			return 2;
		}
		platform_list(stdout);
		scenario_list(stdout);
		return fflush(stdout) ? 1 : 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "cmasim: unknown command '%s': accepted run, compare, boot, list, show\n", argv[1]);
	usage(stderr);
	return 2;
}
