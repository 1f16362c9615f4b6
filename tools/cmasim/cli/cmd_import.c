// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim import DIR: a machine rebuilt from a snapshot of a running Linux
 * system's /proc files (cmasim snapshot), how close it came to the
 * snapshot, and the answers to --what-if questions about it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "import/import.h"
#include "board/platform.h"
#include "engine/result.h"

enum import_option { O_WHATIF, O_KERNEL, O_DUMP, O_REPORT, O_FORCE };

static const struct cmd_option import_options[] = {
	{ .id = O_WHATIF, .name = "what-if", .arg = "SIZE[@ADDR]", .repeats = true, .help_rank = 1,
	  .help = "where and at what cost a contiguous range of SIZE could be had now\n(at ADDR: that range's cost); repeatable",
	  .what = "a size, e.g. 1G or 512M@0x100000000" },
	{ .id = O_KERNEL, .name = "kernel", .arg = "3.5..6.12", .help_rank = 2,
	  .help = "the kernel profile, replacing the snapshot's (its zoneinfo's layout);\nwith one that has alloc_contig_pages() (5.5 on), --what-if also says\nwhat it would take",
	  .what = "a kernel profile (" PLATFORM_KERNELS_ACCEPTED ")" },
	{ .id = O_DUMP, .name = "dump", .arg = "NAME", .repeats = true, .help_rank = 3,
	  .help = "print the imported machine's /proc/NAME, as boot --dump does; repeatable",
	  .what = "a /proc file name (" PROC_NAMES_ACCEPTED ")" },
	{ .id = O_REPORT, .name = "report", .arg = "text|html", .help_rank = 4,
	  .help = "html: a page with the pageblock map, as run's report draws it (default text)",
	  .what = "a report format (text or html)" },
	{ .id = O_FORCE, .name = "force", .help_rank = 5,
	  .help = "answer --what-if even when the imported machine's free pages are\nmore than 3%% off the snapshot's in a zone (refused otherwise, exit 1)" },
	{ .id = OPT_HELP, .name = "help", .short_name = 'h', .usage = "" },
};

static const unsigned nr_import_options = sizeof(import_options) / sizeof(import_options[0]);

struct import_args {
	const char *dir;
	struct whatif *whatifs;
	unsigned nr_whatifs;
	const char **dumps;
	unsigned nr_dumps;
	const char *kernel;
	bool html, force;
};

static int parse_import_args(int argc, char **argv, struct import_args *a)
{
	char err[IMPORT_ERR_MAX];
	struct opt_parser p;
	const char *value;
	int id;

	/* DIR first, the options after it */
	if (argc > 1 && argv[1][0] != '-') {
		a->dir = argv[1];
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	opt_init(&p, "import", import_options, nr_import_options, argc, argv);
	while ((id = opt_next(&p, &value)) != OPT_END) {
		switch (id) {
		case O_WHATIF:
			if (whatif_parse(value, &a->whatifs[a->nr_whatifs], err, sizeof(err))) {
				fprintf(stderr, "cmasim import: %s\n", err);
				return -EINVAL;
			}
			a->nr_whatifs++;
			break;
		case O_KERNEL:
			a->kernel = platform_kernel_find(value);
			if (!a->kernel) {
				fprintf(stderr, "cmasim import: --kernel '%s': no such kernel profile: accepted "
					PLATFORM_KERNELS_ACCEPTED "\n", value);
				return -EINVAL;
			}
			break;
		case O_DUMP:
			if (!proc_name_ok(value)) {
				fprintf(stderr, "cmasim import: --dump '%s': no such /proc file: accepted " PROC_NAMES_ACCEPTED "\n",
					value);
				return -EINVAL;
			}
			a->dumps[a->nr_dumps++] = value;
			break;
		case O_REPORT:
			if (strcmp(value, "text") && strcmp(value, "html")) {
				fprintf(stderr, "cmasim import: --report '%s': accepted text or html\n", value);
				return -EINVAL;
			}
			a->html = !strcmp(value, "html");
			break;
		case O_FORCE:
			a->force = true;
			break;
		case OPT_HELP:
			return 1;
		default:
			return -EINVAL;
		}
	}
	if (!a->dir) {
		fprintf(stderr, "cmasim import: no snapshot directory: give DIR first (taken by 'cmasim snapshot DIR')\n");
		return -EINVAL;
	}
	return 0;
}

/* Where the hugetlb pages are: each run's first and last physical address (a few). */
static void print_hugetlb(const struct import_machine *im, FILE *out)
{
	unsigned shown = 0;

	for (unsigned long pfn = 0; pfn < im->pk.nr_pfns && shown < 8;) {
		unsigned long end = pfn;

		while (end < im->pk.nr_pfns && im->pk.kind[end] == PK_HUGETLB)
			end++;
		if (end > pfn) {
			fprintf(out, "%s %#llx-%#llx", shown ? "," : "hugetlb pages at", (unsigned long long)pfn << 12,
				((unsigned long long)end << 12) - 1);
			shown++;
		}
		pfn = end + 1;
	}
	if (shown)
		fputc('\n', out);
}

static void print_summary(const struct import_machine *im, const struct snapshot *s,
			  const char *dir, FILE *out)
{
	char kernel[128];

	import_kernel_said(im, kernel, sizeof(kernel));
	fprintf(out, "imported %s: %lu pfns, %u RAM banks, zones", dir, s->nr_pfns, s->nr_banks);
	for (unsigned z = 0; z < s->nr_zones; z++)
		fprintf(out, " %s", s->zones[z].name);
	fprintf(out, "; %s\n", kernel);
	fprintf(out, "pages:");
	for (unsigned k = PK_FREE; k < NR_PAGE_KINDS; k++)
		fprintf(out, "%s %s %lu", k == PK_FREE ? "" : ",", page_kind_names[k], im->pk.total[k]);
	fputc('\n', out);
	print_hugetlb(im, out);
	if (im->own_reserved)
		fprintf(out, "pages the library reserved at its boot (its memmap) let go again: %lu\n",
			im->own_reserved);
	if (im->unplaced)
		fprintf(out, "pages in use the imported machine already had in use at its boot: %lu\n",
			im->unplaced);
	fprintf(out, "pageblocks (snapshot -> imported)  unmovable  reclaimable  movable\n");
	for (unsigned z = 0; z < s->nr_zones; z++)
		fprintf(out, "  %-32s %4lu -> %-4lu %4lu -> %-4lu %5lu -> %lu\n", s->zones[z].name,
			s->zones[z].blocks[CMA_MIGRATE_UNMOVABLE], im->blocks_set[z][CMA_MIGRATE_UNMOVABLE],
			s->zones[z].blocks[CMA_MIGRATE_RECLAIMABLE], im->blocks_set[z][CMA_MIGRATE_RECLAIMABLE],
			s->zones[z].blocks[CMA_MIGRATE_MOVABLE], im->blocks_set[z][CMA_MIGRATE_MOVABLE]);
}

static int import_and_report(const struct import_args *a)
{
	char err[IMPORT_ERR_MAX];
	struct snapshot s;
	struct import_machine im;
	int ret = snapshot_read(a->dir, &s, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "cmasim import: %s\n", err);
		return -EINVAL;
	}
	ret = import_build(&s, a->kernel, &im, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "cmasim import: %s: %s\n", a->dir, err);
		snapshot_free(&s);
		return ret;
	}
	if (im.check.off) {
		fprintf(stderr, "cmasim import: %s: ", a->dir);
		import_check_warning(&im, stderr);
		fputs(".\n", stderr);
	}
	/* -ESTALE (exit 1): the answers would be about a machine other than the snapshot's */
	if (im.check.off && a->nr_whatifs && !a->force) {
		fprintf(stderr, "cmasim import: --what-if not answered: it would be about the imported machine, not the snapshot's (--force answers all the same)\n");
		ret = -ESTALE;
	}
	for (unsigned i = 0; i < a->nr_whatifs && !ret; i++) {
		ret = whatif_answer(&im, &a->whatifs[i], err, sizeof(err));
		if (ret)
			fprintf(stderr, "cmasim import: %s\n", err);
	}
	if (!ret && a->html) {
		ret = import_report_html(&im, a->dir, a->whatifs, a->nr_whatifs, stdout);
	} else if (!ret) {
		print_summary(&im, &s, a->dir, stdout);
		import_check_table(&im, stdout);
		if (im.check.off) {
			fputs("warning: ", stdout);
			import_check_warning(&im, stdout);
			fputs(".\n", stdout);
		}
		for (unsigned i = 0; i < a->nr_whatifs; i++)
			whatif_print(&im, &a->whatifs[i], stdout);
	}
	for (unsigned i = 0; i < a->nr_dumps && !ret; i++) {
		printf("\n==> %s%s <==\n", proc_dir_of(a->dumps[i]), a->dumps[i]);
		if (cma_write_proc(im.mm, a->dumps[i], stdout))
			ret = -EIO;
	}
	if (fflush(stdout))
		ret = -EIO;
	import_machine_free(&im);
	snapshot_free(&s);
	return ret;
}

int cmd_import(int argc, char **argv)
{
	struct import_args a = { 0 };
	int ret;

	a.whatifs = calloc((size_t)argc, sizeof(*a.whatifs));
	a.dumps = calloc((size_t)argc, sizeof(*a.dumps));
	ret = a.whatifs && a.dumps ? parse_import_args(argc, argv, &a) : -ENOMEM;
	if (ret > 0) {
		printf("usage: cmasim import " IMPORT_USAGE "\n\n");
		opt_help(stdout, import_options, nr_import_options);
		ret = fflush(stdout) ? -EIO : 0;
	} else if (!ret) {
		ret = import_and_report(&a);
	}
	free(a.whatifs);
	free(a.dumps);
	return ret;
}
