// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim import: the synthetic snapshot tests/import/small (written by
 * tests/import/make-fixture.py, whose comment lays out its pages) rebuilt
 * into a machine whose buddyinfo and pagetypeinfo come out as the files
 * say, the what-if answers on it, and every kind of bad snapshot refused
 * with the file and what was wrong (cmasim exits 2 on it). Its siblings
 * lazy (booted with deferred struct page init, by Linux 6.18.44) and
 * skewed (lazy with a buddyinfo read later) hold the importer to the
 * kernel's counts: agreeing with them, and saying so when it cannot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "import/import.h"

#define FIXTURE "tests/import/small"
/* small's machine booted with deferred struct page init left to the first allocations, by 6.18.44 */
#define LAZY "tests/import/lazy"
/* lazy with a buddyinfo read after 16 MiB of DMA32 went: off the pages by 49% */
#define SKEWED "tests/import/skewed"

static char err[IMPORT_ERR_MAX];

static void read_snapshot(const char *dir, struct snapshot *s)
{
	int ret = snapshot_read(dir, s, err, sizeof(err));

	if (ret)
		print_error("%s\n", err);
	assert_int_equal(ret, 0);
}

static void read_fixture(struct snapshot *s)
{
	read_snapshot(FIXTURE, s);
}

static void build_snapshot(const char *dir, struct snapshot *s, struct import_machine *im)
{
	int ret;

	read_snapshot(dir, s);
	ret = import_build(s, NULL, im, err, sizeof(err));
	if (ret)
		print_error("%s\n", err);
	assert_int_equal(ret, 0);
}

static void build_fixture(struct snapshot *s, struct import_machine *im)
{
	build_snapshot(FIXTURE, s, im);
}

/* Expect the 6.x zoneinfo taken for profile 6.12, both zones, every pfn read (xz and raw). */
static void snapshot_read_small(void **state)
{
	struct snapshot s;

	read_fixture(&s);
	assert_string_equal(s.kernel, "6.12");
	assert_int_equal(s.nr_zones, 2);
	assert_string_equal(s.zones[1].name, "DMA32");
	assert_int_equal(s.zones[1].start_pfn, 4096);
	assert_int_equal(s.nr_pfns, 65536);
	assert_int_equal(s.nr_banks, 2);
	assert_int_equal(s.pageblock_order, 9);
	assert_int_equal(s.nr_orders, 11);
	assert_int_equal(s.zones[1].blocks[CMA_MIGRATE_UNMOVABLE], 4);
	snapshot_free(&s);
}

/*
 * Expect a free block read both ways kernels write it (KPF_BUDDY on its
 * head only, up to 6.x; on every page, 6.18, with a kpagecount from the
 * page type), a flagless mapped page taken for a user page off the LRU,
 * and a transparent huge page whole.
 */
static void page_kinds_classify_kernels(void **state)
{
	static uint64_t flags[1024], count[1024];
	struct snapshot s = { .flags = flags, .count = count, .nr_pfns = 1024, .nr_banks = 1,
			      .banks = { { 0, 1024 * 4096 } } };
	struct page_kinds pk;

	flags[0] = 1ull << 10;				/* an order-3 block, its head flagged */
	flags[8] = 1ull << 5;				/* page cache */
	for (int i = 16; i < 32; i++)			/* an order-4 block, every page flagged */
		flags[i] = 1ull << 10, count[i] = i & 1;
	count[40] = 1;					/* mapped, no flag */
	flags[41] = 1ull << 7;				/* slab */
	flags[512] = (1ull << 15) | (1ull << 22) | (1ull << 12);
	for (int i = 513; i < 1024; i++)
		flags[i] = (1ull << 16) | (1ull << 22) | (1ull << 12);
	assert_int_equal(page_kinds_classify(&s, 11, &pk, err, sizeof(err)), 0);
	assert_int_equal(pk.kind[0], PK_FREE);
	assert_int_equal(pk.order[0], 3);
	assert_int_equal(pk.kind[7], PK_FREE);
	assert_int_equal(pk.kind[8], PK_FILE);
	assert_int_equal(pk.order[16], 4);
	assert_int_equal(pk.kind[31], PK_FREE);
	assert_int_equal(pk.kind[40], PK_ANON);
	assert_int_equal(pk.kind[41], PK_SLAB);
	assert_int_equal(pk.kind[512], PK_THP);
	assert_int_equal(pk.order[512], 9);
	assert_int_equal(pk.total[PK_THP], 512);
	page_kinds_free(&pk);
}

static void answer(struct import_machine *im, const char *arg, struct whatif *w)
{
	assert_int_equal(whatif_parse(arg, w, err, sizeof(err)), 0);
	assert_int_equal(whatif_answer(im, w, err, sizeof(err)), 0);
}

/*
 * Snapshot @dir imported, each zone's free pages by the machine's
 * buddyinfo within 3% of the file's plus its per-CPU lists, and DMA32's
 * exactly (the library's own memmap is in DMA).
 */
static void expect_buddyinfo_within_3_percent(const char *dir)
{
	struct snapshot s, mine;
	struct import_machine im;
	char *text = NULL;
	size_t len;
	FILE *m;

	build_snapshot(dir, &s, &im);
	mine = s;
	mine.flags = mine.count = NULL;
	m = open_memstream(&text, &len);
	assert_int_equal(cma_write_proc(im.mm, "buddyinfo", m), 0);
	fclose(m);
	assert_int_equal(parse_buddyinfo(text, &mine, err, sizeof(err)), 0);
	free(text);
	for (unsigned z = 0; z < s.nr_zones; z++) {
		unsigned long want = 0, got = 0;

		for (unsigned o = 0; o < s.nr_orders && o < IMPORT_MAX_ORDERS; o++) {
			want += s.zones[z].buddy[o] << o;
			got += mine.zones[z].buddy[o] << o;
		}
		print_message("%s zone %s: %lu free in the file, %lu on per-CPU lists, %lu imported\n", dir,
			      s.zones[z].name, want, s.zones[z].pcp, got);
		want += s.zones[z].pcp;
		assert_true(got * 100 >= want * 97 && got * 100 <= want * 103);
		/* DMA32: every free page back, none kept by the library's own memmap */
		if (z == 1)
			assert_int_equal(got, want);
	}
	assert_int_equal(cma_mm_verify(im.mm), 0);
	import_machine_free(&im);
	snapshot_free(&s);
}

static void import_build_buddyinfo_within_3_percent(void **state)
{
	expect_buddyinfo_within_3_percent(FIXTURE);
}

/*
 * Expect a lazily initialised snapshot's free pages as the kernel counts
 * them: DMA32's top 32768 pages, present but not managed, flagless as
 * free pages are, are not free (read as free, DMA32 came out +265%), and
 * the 40 on a per-CPU list are; its pageblocks as pagetypeinfo counts
 * them, none up there (read as the zone's, DMA32 had 116 movable, not 52).
 */
static void import_build_lazy_init_matches_buddyinfo(void **state)
{
	struct snapshot s;
	struct import_machine im;

	expect_buddyinfo_within_3_percent(LAZY);
	build_snapshot(LAZY, &s, &im);
	for (unsigned z = 0; z < s.nr_zones; z++)
		for (int mt = CMA_MIGRATE_UNMOVABLE; mt <= CMA_MIGRATE_MOVABLE; mt++)
			assert_int_equal(im.blocks_set[z][mt], s.zones[z].blocks[mt]);
	import_machine_free(&im);
	snapshot_free(&s);
}

/*
 * Expect no answer in the pages not initialised: 32 MiB best placed at
 * block 48 (block 50's 10 anonymous pages to migrate), not across blocks
 * 51-66, half of them in memory the kernel has not initialised; 128 MiB,
 * only to be had up there, not to be had.
 */
static void whatif_answer_lazy_not_in_uninitialised(void **state)
{
	struct snapshot s;
	struct import_machine im;
	struct whatif w;

	build_snapshot(LAZY, &s, &im);
	answer(&im, "32M", &w);
	assert_true(w.best.found);
	assert_int_equal(w.best.start_pfn, 48 * 512);
	assert_int_equal(w.best.migrate, 10);
	answer(&im, "128M", &w);
	assert_false(w.best.found);
	import_machine_free(&im);
	snapshot_free(&s);
}

/* Expect pagetypeinfo's block counts per zone given to the machine's pageblocks. */
static void import_build_pageblock_types(void **state)
{
	struct snapshot s;
	struct import_machine im;

	build_fixture(&s, &im);
	for (unsigned z = 0; z < s.nr_zones; z++)
		for (int mt = CMA_MIGRATE_UNMOVABLE; mt <= CMA_MIGRATE_MOVABLE; mt++)
			assert_int_equal(im.blocks_set[z][mt], s.zones[z].blocks[mt]);
	/* the fixture's unmovable blocks are 12-15, the ones with slab pages */
	assert_int_equal(cma_pageblock_migratetype(im.mm, 12 * 512), CMA_MIGRATE_UNMOVABLE);
	assert_int_equal(cma_pageblock_migratetype(im.mm, 16 * 512), CMA_MIGRATE_MOVABLE);
	assert_int_equal(im.pk.total[PK_THP], 1024);
	import_machine_free(&im);
	snapshot_free(&s);
}

/*
 * Expect 16 MiB best placed at block 51 (blocks 51-58: all free, the
 * lowest such), 32 MiB at block 48 with block 50's 10 anonymous pages to
 * migrate, and alloc_contig_pages (6.12) taking DMA32's first aligned
 * range the validity check lets through, pfn 0x2000, migration and all.
 */
static void whatif_answer_small(void **state)
{
	struct snapshot s;
	struct import_machine im;
	struct whatif w;

	build_fixture(&s, &im);
	answer(&im, "16M", &w);
	assert_true(w.best.found);
	assert_int_equal(w.best.start_pfn, 51 * 512);
	assert_int_equal(w.best.migrate + w.best.reclaim, 0);
	assert_true(w.best.ns > 0);
	assert_true(w.kernel.found);
	assert_int_equal(w.kernel.start_pfn, 0x2000);
	assert_true(w.kernel.migrate > 0 && w.kernel.ns > w.best.ns);

	answer(&im, "32M", &w);
	assert_int_equal(w.best.start_pfn, 48 * 512);
	assert_int_equal(w.best.migrate, 10);
	assert_int_equal(w.best.unmovable, 0);

	/* block 12 holds slab pages: not to be had */
	answer(&im, "2M@0x1800000", &w);
	assert_false(w.best.found);
	assert_true(w.best.unmovable > 0);
	import_machine_free(&im);
	snapshot_free(&s);
}

/*
 * Expect alloc_contig_pages' choice where the profile has the function,
 * by its contig_pages switch (5.5), not by the profile's name: 5.5 and
 * 6.12 give a range (6.12 pfn 0x2000; 5.5 another, its mlocked pages
 * taken as 3.5's), 5.4 none; and cmasim import says so under the
 * release it was given.
 */
static void whatif_answer_alloc_contig_pages_from_55(void **state)
{
	const char *cmasim = getenv("CMASIM") ? getenv("CMASIM") : "build/cmasim";
	static const struct { const char *kernel; bool has; } cases[] = {
		{ "5.4", false }, { "5.5", true }, { "6.12", true },
	};
	char cmd[512], line[256];
	struct snapshot s;

	read_fixture(&s);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct import_machine im;
		struct whatif w;
		bool said = false;
		FILE *p;

		assert_int_equal(import_build(&s, cases[i].kernel, &im, err, sizeof(err)), 0);
		assert_int_equal(im.contig_pages, cases[i].has);
		memset(&w, 0, sizeof(w));
		answer(&im, "16M", &w);
		assert_int_equal(w.kernel.found, cases[i].has);
		if (!strcmp(cases[i].kernel, "6.12"))
			assert_int_equal(w.kernel.start_pfn, 0x2000);
		import_machine_free(&im);
		if (access(cmasim, X_OK))
			continue;
		snprintf(cmd, sizeof(cmd), "%s import %s --kernel %s --what-if 16M", cmasim, FIXTURE,
			 cases[i].kernel);
		p = popen(cmd, "r");
		assert_non_null(p);
		while (fgets(line, sizeof(line), p))
			said |= strstr(line, "alloc_contig_pages() would take") != NULL;
		assert_int_equal(pclose(p), 0);
		assert_int_equal(said, cases[i].has);
	}
	snapshot_free(&s);
}

/*
 * Expect alloc_contig_pages' look at a range in use by release: with a
 * hugetlb page put in the range 6.12 takes (pfn 0x2000), 5.13 and 6.2
 * try that range (one more tried, contig_try_in_use) and 6.3 and 6.12
 * pass it by (contig_skip_hugetlb); 5.12 tries no range in use at all.
 */
static void whatif_alloc_contig_pages_hugetlb_by_release(void **state)
{
	static const struct { const char *kernel; int more_tried; } cases[] = {
		{ "5.12", -1 }, { "5.13", 1 }, { "6.2", 1 }, { "6.3", 0 }, { "6.12", 0 },
	};
	struct snapshot s;

	read_fixture(&s);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct import_machine im;
		struct whatif w, h;

		assert_int_equal(import_build(&s, cases[i].kernel, &im, err, sizeof(err)), 0);
		memset(&w, 0, sizeof(w));
		answer(&im, "16M", &w);
		assert_true(w.kernel.found);
		im.pk.kind[0x2000] = PK_HUGETLB;
		memset(&h, 0, sizeof(h));
		answer(&im, "16M", &h);
		if (cases[i].more_tried < 0 && (w.kernel.tried || h.kernel.tried))
			fail_msg("kernel %s: ranges in use tried: %u, then %u", cases[i].kernel,
				 w.kernel.tried, h.kernel.tried);
		if (cases[i].more_tried >= 0 && h.kernel.tried != w.kernel.tried + (unsigned)cases[i].more_tried)
			fail_msg("kernel %s: ranges tried %u with the hugetlb page, %u without: expected %d more",
				 cases[i].kernel, h.kernel.tried, w.kernel.tried, cases[i].more_tried);
		import_machine_free(&im);
	}
	snapshot_free(&s);
}

/* Expect a size or address that is not one refused. */
static void whatif_parse_refuses(void **state)
{
	struct whatif w;

	assert_int_equal(whatif_parse("1Q", &w, err, sizeof(err)), -EINVAL);
	assert_int_equal(whatif_parse("0", &w, err, sizeof(err)), -EINVAL);
	assert_int_equal(whatif_parse("1G@0x123", &w, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "page-aligned"));
	assert_int_equal(whatif_parse("1G@0x40000000", &w, err, sizeof(err)), 0);
	assert_true(w.at_set);
}

/* ---- cmasim import on the lazy and skewed snapshots ---- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0, n = 0;
	int c;

	assert_non_null(f);
	while ((c = fgetc(f)) != EOF) {
		if (n + 1 >= cap) {
			cap = cap ? cap * 2 : 4096;
			text = realloc(text, cap);
			assert_non_null(text);
		}
		text[n++] = (char)c;
	}
	fclose(f);
	text = n ? text : calloc(1, 1);
	text[n] = '\0';
	return text;
}

/* `cmasim import @args`: its exit status; its stdout in *@out, its stderr in *@errout (free both). */
static int cmasim_import(const char *args, char **out, char **errout)
{
	const char *cmasim = getenv("CMASIM") ? getenv("CMASIM") : "build/cmasim";
	char dir[] = "/tmp/test_import_run.XXXXXX", cmd[1024], path[64];
	int status;

	if (access(cmasim, X_OK))
		skip();
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s import %s >%s/out 2>%s/err", cmasim, args, dir, dir);
	status = system(cmd);
	snprintf(path, sizeof(path), "%s/out", dir);
	*out = slurp(path);
	unlink(path);
	snprintf(path, sizeof(path), "%s/err", dir);
	*errout = slurp(path);
	unlink(path);
	rmdir(dir);
	print_message("cmasim import %s: status %d\n%s", args, status, *errout);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

#define OFF_WARNING "the imported machine's free pages differ from the snapshot's buddyinfo and per-CPU lists by more than 3%"

/* A run of cmasim import and what it must say: NULL ends a list; err NULL: stderr empty. */
struct import_case {
	const char *args;
	int status;
	const char *out[4];
	const char *not_out;
	const char *err[3];
};

static void expect_import(const struct import_case *c)
{
	char *out, *errout;

	assert_int_equal(cmasim_import(c->args, &out, &errout), c->status);
	for (unsigned i = 0; i < 4 && c->out[i]; i++)
		if (!strstr(out, c->out[i]))
			fail_msg("cmasim import %s: no '%s' in its output:\n%s", c->args, c->out[i], out);
	if (c->not_out && strstr(out, c->not_out))
		fail_msg("cmasim import %s: '%s' in its output:\n%s", c->args, c->not_out, out);
	if (!c->err[0])
		assert_string_equal(errout, "");
	for (unsigned i = 0; i < 3 && c->err[i]; i++)
		if (!strstr(errout, c->err[i]))
			fail_msg("cmasim import %s: no '%s' on stderr", c->args, c->err[i]);
	free(out);
	free(errout);
}

static void expect_imports(const struct import_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_import(&c[i]);
}

/*
 * Expect a snapshot the import cannot make agree with its buddyinfo
 * (skewed: DMA32 +49.61%) said so on stderr and in the text and HTML
 * reports, the HTML with the comparison table; a lazy one that agrees,
 * not.
 */
static void cmasim_import_warns_when_off(void **state)
{
	static const struct import_case cases[] = {
		{ .args = SKEWED,
		  .out = { "warning: " OFF_WARNING " (DMA32 12353 imported where the kernel had 8257, +49.61%)" },
		  .err = { SKEWED ": " OFF_WARNING " (DMA32 12353 imported where the kernel had 8257, +49.61%): it is not the machine the snapshot shows.\n" } },
		{ .args = SKEWED " --report html",
		  .out = { "<p class=\"warn\"><b>Warning:</b> the imported machine&#39;s free pages differ",
			   "<tr><td class=\"l\">DMA32</td><td>8217</td><td>40</td><td>12353</td><td class=\"warn\">+49.61%</td></tr>" },
		  .err = { OFF_WARNING } },
		{ .args = LAZY, .out = { "  DMA32                       12313             40       12353   +0.00%\n" },
		  .not_out = "warning" },
		{ .args = LAZY " --report html",
		  .out = { "<tr><td class=\"l\">DMA32</td><td>12313</td><td>40</td><td>12353</td><td>+0.00%</td></tr>" },
		  .not_out = "Warning" },
	};

	expect_imports(cases, sizeof(cases) / sizeof(cases[0]));
}

/*
 * Expect --what-if on the skewed snapshot refused, exit 1, nothing
 * answered (it would be about another machine), and answered with
 * --force, the warning kept; on the lazy one answered without it.
 */
static void cmasim_import_whatif_refused_unless_forced(void **state)
{
	static const struct import_case cases[] = {
		{ .args = SKEWED " --what-if 16M", .status = 1, .not_out = "what-if",
		  .err = { OFF_WARNING, "--what-if not answered", "--force" } },
		{ .args = SKEWED " --what-if 16M --force",
		  .out = { "warning: " OFF_WARNING, "what-if 16777216 bytes (4096 pages):\n  best-placed range" },
		  .err = { OFF_WARNING } },
		{ .args = LAZY " --what-if 16M", .out = { "best-placed range" } },
	};

	expect_imports(cases, sizeof(cases) / sizeof(cases[0]));
}

/*
 * Expect a snapshot of Linux 6.18.44 (its version file) said to be read
 * with the newest profile, in text and HTML; one without a version file
 * as before, by zoneinfo's layout.
 */
static void cmasim_import_says_newer_kernel(void **state)
{
	static const struct import_case cases[] = {
		{ .args = LAZY, .out = { "; kernel 6.18.44 read with the 6.12 profile, the newest modelled\n" } },
		{ .args = LAZY " --report html",
		  .out = { "<p>kernel 6.18.44 read with the 6.12 profile, the newest modelled</p>" } },
		{ .args = FIXTURE, .out = { "; kernel profile 6.12 (from zoneinfo's layout)\n" } },
	};

	expect_imports(cases, sizeof(cases) / sizeof(cases[0]));
}

/* ---- bad snapshots: a copy of the fixture with one file spoilt ---- */

static char bad_dir[64];

static void copy_file(const char *name)
{
	char from[256], to[256];
	FILE *in, *out;
	int c;

	snprintf(from, sizeof(from), FIXTURE "/%s", name);
	snprintf(to, sizeof(to), "%s/%s", bad_dir, name);
	in = fopen(from, "rb");
	assert_non_null(in);
	out = fopen(to, "wb");
	assert_non_null(out);
	while ((c = fgetc(in)) != EOF)
		fputc(c, out);
	fclose(in);
	fclose(out);
}

static int bad_setup(void **state)
{
	static const char *const files[] = { "buddyinfo", "pagetypeinfo", "zoneinfo", "iomem",
					     "meminfo", "cmdline", "kpageflags.xz", "kpagecount" };

	snprintf(bad_dir, sizeof(bad_dir), "/tmp/test_import.XXXXXX");
	if (!mkdtemp(bad_dir))
		return -1;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		copy_file(files[i]);
	return 0;
}

static int bad_teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", bad_dir);
	return system(cmd) ? -1 : 0;
}

static void write_bad(const char *name, const void *data, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", bad_dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* The spoilt copy refused, @err naming @file and saying @what. */
static void expect_refused(const char *file, const char *what)
{
	struct snapshot s;
	char name[128];

	assert_int_equal(snapshot_read(bad_dir, &s, err, sizeof(err)), -EINVAL);
	print_message("refused: %s\n", err);
	snprintf(name, sizeof(name), "%s/%s", bad_dir, file);
	assert_non_null(strstr(err, name));
	assert_non_null(strstr(err, what));
}

/* Expect kpageflags cut short of a whole word, then of the zones' pfns, refused as truncated. */
static void snapshot_read_truncated_kpageflags(void **state)
{
	static uint64_t words[1000];

	unlink(strcat(strcpy((char[128]){ 0 }, bad_dir), "/kpageflags.xz"));
	write_bad("kpageflags", words, 8 * 1000 - 3);
	expect_refused("kpageflags", "truncated");
	write_bad("kpageflags", words, 8 * 1000);
	expect_refused("kpageflags", "truncated, or from another machine");
}

/* Expect a kpageflags longer than zoneinfo's zones span refused. */
static void snapshot_read_kpageflags_longer_than_zones(void **state)
{
	size_t len = 8 * (65536 + 512);
	void *words = calloc(1, len);

	write_bad("kpageflags", words, len);
	free(words);
	expect_refused("kpageflags", "longer than the zones span");
}

/* Expect an xz file cut short refused as such. */
static void snapshot_read_truncated_xz(void **state)
{
	static const char xz_magic[] = "\xfd" "7zXZ\0\0\4\xe6\xd6\xb4\x46";

	unlink(strcat(strcpy((char[128]){ 0 }, bad_dir), "/kpageflags"));
	write_bad("kpageflags.xz", xz_magic, sizeof(xz_magic) - 1);
	expect_refused("kpageflags.xz", "not xz data, or truncated");
}

/* Expect a zoneinfo of another layout (a 4.x-5.x one has neither marker we read by) refused. */
static void snapshot_read_zoneinfo_other_layout(void **state)
{
	static const char text[] = "Node 0, zone      DMA\n  pages free     3840\n"
				   "        spanned  4095\n        present  3998\n  start_pfn:           1\n";

	write_bad("zoneinfo", text, sizeof(text) - 1);
	expect_refused("zoneinfo", "a layout cmasim does not read");
	write_bad("zoneinfo", "hello\n", 6);
	expect_refused("zoneinfo", "not a /proc/zoneinfo");
}

/* Expect a missing file refused by name; a missing cmdline is not. */
static void snapshot_read_missing_file(void **state)
{
	char path[128];
	struct snapshot s;

	snprintf(path, sizeof(path), "%s/cmdline", bad_dir);
	unlink(path);
	copy_file("zoneinfo");
	copy_file("kpageflags.xz");
	assert_int_equal(snapshot_read(bad_dir, &s, err, sizeof(err)), 0);
	assert_string_equal(s.cmdline, "");
	snapshot_free(&s);
	snprintf(path, sizeof(path), "%s/buddyinfo", bad_dir);
	unlink(path);
	expect_refused("buddyinfo", "No such file");
}

/* Expect an iomem read as a user, its addresses all 0, refused with the remedy. */
static void snapshot_read_iomem_without_addresses(void **state)
{
	static const char text[] = "00000000-00000000 : System RAM\n";

	copy_file("buddyinfo");
	write_bad("iomem", text, sizeof(text) - 1);
	expect_refused("iomem", "copy it as root");
}

/*
 * Expect System RAM past zoneinfo's zones refused: it became a zone the
 * snapshot does not have, and the free pages could not be compared (exit
 * 1, "could not be read back", after half a report).
 */
static void snapshot_read_iomem_past_zones(void **state)
{
	static const char text[] = "00001000-0009fbff : System RAM\n00100000-0fffffff : System RAM\n"
				   "100000000-10fffffff : System RAM\n";

	copy_file("iomem");
	write_bad("iomem", text, sizeof(text) - 1);
	expect_refused("iomem", "System RAM up to 0x10fffffff, past zoneinfo's zones (they end at 0x10000000)");
	copy_file("iomem");
}

/* Expect a version file that is not /proc/version's refused; the fixture has none, which is fine. */
static void snapshot_read_bad_version(void **state)
{
	char path[128];

	copy_file("iomem");
	write_bad("version", "Linux 6.18\n", 11);
	expect_refused("version", "not a /proc/version");
	snprintf(path, sizeof(path), "%s/version", bad_dir);
	unlink(path);
}

/*
 * Expect a SwapTotal whose bytes overflow 64 bits refused by meminfo's
 * reader; one that fits but is past one swap area's 2^32 pages read, then
 * refused by the library when the machine is built (the fuzzer's
 * all-ones SwapTotal once reached calloc).
 */
static void snapshot_swap_total_bounded(void **state)
{
	static const char overflow[] = "MemTotal:       16384 kB\nSwapTotal:      18446744073709551615 kB\n";
	static const char too_big[] = "MemTotal:       16384 kB\nSwapTotal:      17179869188 kB\n";
	struct import_machine im;
	struct snapshot s;

	write_bad("meminfo", overflow, sizeof(overflow) - 1);
	expect_refused("meminfo", "SwapTotal 18446744073709551615 kB does not fit");
	write_bad("meminfo", too_big, sizeof(too_big) - 1);
	read_snapshot(bad_dir, &s);
	assert_int_equal(s.swap_bytes, 17179869188ull * 1024);
	assert_int_equal(import_build(&s, NULL, &im, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "refused the machine of the snapshot's banks, zones and swap"));
	snapshot_free(&s);
	copy_file("meminfo");
}

/* Expect cmasim import to exit 2 on a bad snapshot, naming the file. */
static void cmasim_import_bad_exits_2(void **state)
{
	const char *cmasim = getenv("CMASIM") ? getenv("CMASIM") : "build/cmasim";
	char cmd[512];
	int status;

	if (access(cmasim, X_OK))
		skip();
	write_bad("pagetypeinfo", "nothing\n", 8);
	snprintf(cmd, sizeof(cmd), "%s import %s 2>/dev/null", cmasim, bad_dir);
	status = system(cmd);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 2);
	copy_file("pagetypeinfo");
}

int main(void)
{
	const struct CMUnitTest good[] = {
		cmocka_unit_test(snapshot_read_small),
		cmocka_unit_test(page_kinds_classify_kernels),
		cmocka_unit_test(import_build_buddyinfo_within_3_percent),
		cmocka_unit_test(import_build_pageblock_types),
		cmocka_unit_test(whatif_answer_small),
		cmocka_unit_test(whatif_answer_alloc_contig_pages_from_55),
		cmocka_unit_test(whatif_alloc_contig_pages_hugetlb_by_release),
		cmocka_unit_test(whatif_parse_refuses),
		cmocka_unit_test(import_build_lazy_init_matches_buddyinfo),
		cmocka_unit_test(whatif_answer_lazy_not_in_uninitialised),
		cmocka_unit_test(cmasim_import_warns_when_off),
		cmocka_unit_test(cmasim_import_whatif_refused_unless_forced),
		cmocka_unit_test(cmasim_import_says_newer_kernel),
	};
	const struct CMUnitTest bad[] = {
		cmocka_unit_test(snapshot_read_truncated_kpageflags),
		cmocka_unit_test(snapshot_read_kpageflags_longer_than_zones),
		cmocka_unit_test(snapshot_read_truncated_xz),
		cmocka_unit_test(snapshot_read_zoneinfo_other_layout),
		cmocka_unit_test(snapshot_read_missing_file),
		cmocka_unit_test(snapshot_read_iomem_without_addresses),
		cmocka_unit_test(snapshot_read_iomem_past_zones),
		cmocka_unit_test(snapshot_read_bad_version),
		cmocka_unit_test(snapshot_swap_total_bounded),
		cmocka_unit_test(cmasim_import_bad_exits_2),
	};

	return cmocka_run_group_tests(good, NULL, NULL) |
	       cmocka_run_group_tests(bad, bad_setup, bad_teardown);
}
