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
#include "cli/common_options.h"
#include "import/import.h"
#include "board/platform.h"
#include "engine/result.h"

struct import_args {
	const char *dir;
	struct opt_list whatif_args;	/* --what-if, as given */
	struct whatif *whatifs;		/* and parsed */
	unsigned nr_whatifs;
	struct opt_list dumps;
	const char *kernel;
	int html;			/* --report: 0 text, 1 html */
	bool force;
};

/* One import a process: the table binds its options to these. */
static struct import_args import_args;

static const struct cmd_option import_options[] = {
	{ .type = OPTION_LIST, .name = "what-if", .value = &import_args.whatif_args, .arg = "SIZE[@ADDR]",
	  .help_rank = 1, .what = "a size, e.g. 1G or 512M@0x100000000",
	  .help = "where and at what cost a contiguous range of SIZE could be had now\n(at ADDR: that range's cost); repeatable" },
	OPT_KERNEL(&import_args.kernel, 2,
		   "the kernel profile, replacing the snapshot's (its zoneinfo's layout);\nwith one that has alloc_contig_pages() (5.5 on), --what-if also says\nwhat it would take"),
	OPT_DUMP(&import_args.dumps, 0, 3, "print the imported machine's /proc/NAME, as boot --dump does; repeatable"),
	{ .type = OPTION_CHOICE, .name = "report", .value = &import_args.html, .arg = "text|html",
	  .choices = (const char *const[]){ "text", "html", NULL }, .help_rank = 4,
	  .help = "html: a page with the pageblock map, as run's report draws it (default text)" },
	OPT_BOOL("force", &import_args.force, 5,
		 "answer --what-if even when the imported machine's free pages are\nmore than 3%% off the snapshot's in a zone (refused otherwise, exit 1)"),
	OPT_HELP_ENTRY,
};

const struct cmd_table import_table = { .operands = "DIR", .opts = OPTS(import_options) };

/* 0, 1 for --help, or -EINVAL after saying what was wrong. */
static int parse_import_args(int argc, char **argv, struct import_args *a)
{
	char err[IMPORT_ERR_MAX];
	int ret;

	/* DIR first, the options after it */
	if (argc > 1 && argv[1][0] != '-') {
		a->dir = argv[1];
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	ret = opt_parse("import", OPTS(import_options), argc, argv);
	if (ret)
		return ret;
	if (!a->dir) {
		fprintf(stderr, "cmasim import: no snapshot directory: give DIR first (taken by 'cmasim snapshot DIR')\n");
		return -EINVAL;
	}
	a->whatifs = calloc(a->whatif_args.nr + 1, sizeof(*a->whatifs));
	if (!a->whatifs)
		return -ENOMEM;
	for (; a->nr_whatifs < a->whatif_args.nr; a->nr_whatifs++)
		if (whatif_parse(a->whatif_args.v[a->nr_whatifs], &a->whatifs[a->nr_whatifs], err, sizeof(err))) {
			fprintf(stderr, "cmasim import: %s\n", err);
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
	for (unsigned i = 0; i < a->dumps.nr && !ret; i++) {
		printf("\n==> %s%s <==\n", proc_dir_of(a->dumps.v[i]), a->dumps.v[i]);
		if (cma_write_proc(im.mm, a->dumps.v[i], stdout))
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
	struct import_args *a = &import_args;
	int ret;

	*a = (struct import_args){ 0 };
	ret = parse_import_args(argc, argv, a);
	if (ret > 0)
		ret = cmd_help("import", &import_table, NULL);
	else if (!ret)
		ret = import_and_report(a);
	free(a->whatifs);
	return ret;
}
