// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim: boot a described board on libcma and show what the kernel
 * would print. Exit status: 0 success, 1 the run failed, 2 bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <cma/cma.h>
#include "platform.h"

#define MAX_DUMPS 16

static void usage(FILE *out)
{
	fprintf(out,
		"usage: cmasim boot [--platform NAME] [--cmdline STR] [--kconfig FILE] [--dump NAME]...\n"
		"       cmasim list\n"
		"--dump takes: buddyinfo, pagetypeinfo, vmstat, meminfo, zoneinfo, cma\n");
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	FILE *mem = open_memstream(&buf, &len);
	int c;

	while (mem && (c = fgetc(f)) != EOF)
		fputc(c, mem);
	if (mem)
		fclose(mem);
	fclose(f);
	return buf;
}

static int cmd_boot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "platform", required_argument, NULL, 'p' },
		{ "cmdline", required_argument, NULL, 'c' },
		{ "kconfig", required_argument, NULL, 'k' },
		{ "dump", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const dump_names[] = {
		"buddyinfo", "pagetypeinfo", "vmstat", "meminfo", "zoneinfo", "cma",
	};
	const char *platform = "x86", *dumps[MAX_DUMPS];
	int nr_dumps = 0, opt, ret = 1;
	struct cma_mm_config cfg = { 0 };
	const struct platform *p;
	char *kconfig = NULL;
	struct cma_mm *mm;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			platform = optarg;
			break;
		case 'c':
			cfg.cmdline = optarg;
			break;
		case 'k':
			free(kconfig);
			kconfig = read_file(optarg);
			if (!kconfig) {
				fprintf(stderr, "cmasim: --kconfig %s: %s\n", optarg, strerror(errno));
				return 2;
			}
			break;
		case 'd': {
			size_t i;

			for (i = 0; i < sizeof(dump_names) / sizeof(dump_names[0]); i++)
				if (!strcmp(optarg, dump_names[i]))
					break;
			if (i == sizeof(dump_names) / sizeof(dump_names[0]) || nr_dumps == MAX_DUMPS) {
				fprintf(stderr, "cmasim: --dump %s: unknown or too many; accepted: buddyinfo, pagetypeinfo, vmstat, meminfo, zoneinfo, cma\n",
					optarg);
				free(kconfig);
				return 2;
			}
			dumps[nr_dumps++] = optarg;
			break;
		}
		case 'h':
			usage(stdout);
			free(kconfig);
			return 0;
		default:
			usage(stderr);
			free(kconfig);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "cmasim boot: unexpected argument '%s'\n", argv[optind]);
		free(kconfig);
		return 2;
	}
	p = platform_find(platform);
	if (!p) {
		fprintf(stderr, "cmasim: unknown platform '%s'; see 'cmasim list'\n", platform);
		free(kconfig);
		return 2;
	}
	{
		const char *cmdline = cfg.cmdline;

		cfg = p->cfg;
		cfg.cmdline = cmdline;
		cfg.kconfig = kconfig;
	}
	if (cma_mm_create(&cfg, &mm)) {
		free(kconfig);
		return 2;
	}
	if (cma_mm_boot(mm) == 0) {
		ret = 0;
		cma_mm_dmesg(mm, stdout);
		for (int i = 0; i < nr_dumps; i++) {
			printf("\n==> /proc/%s <==\n", dumps[i]);
			if (cma_write_proc(mm, dumps[i], stdout))
				ret = 1;
		}
	} else {
		cma_mm_dmesg(mm, stderr);
	}
	cma_mm_destroy(mm);
	free(kconfig);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "boot"))
		return cmd_boot(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list")) {
		platform_list(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "cmasim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
