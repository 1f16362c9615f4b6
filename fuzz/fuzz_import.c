// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_import: cmasim's snapshot importer (tools/cmasim/import_*.c) on a
 * 16 MiB x86-64 snapshot with one file replaced by the input: the first
 * byte picks which (zoneinfo, buddyinfo, pagetypeinfo, iomem, meminfo as
 * text; kpageflags as 8-byte words repeated over every pfn; kpageflags as
 * raw bytes, or as an .xz file), the rest is its content.
 *
 * Expect: snapshot_read() 0, or -EINVAL with a one-line message naming
 * the snapshot's directory; an accepted snapshot builds (import_build 0,
 * the machine verifying, or -EINVAL with a message), never -EIO (an
 * inconsistent machine); what-if answers stay within the machine's pfns;
 * nothing leaks (LeakSanitizer).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import.h"

#define FUZZ_TARGET "fuzz_import"
#include "fuzz_check.h"

#define NR_PFNS 4096

static const char zoneinfo[] =
	"Node 0, zone      DMA\n  per-node stats\n      nr_inactive_anon 0\n"
	"  pages free     3000\n        spanned  4095\n        present  3998\n"
	"        managed  3900\n  start_pfn:           1\n"
	"Node 0, zone    DMA32\n  pages free     0\n        spanned  0\n        present  0\n"
	"        managed  0\n";
static const char buddyinfo[] =
	"Node 0, zone      DMA      1      1      1      1      1      2      1      0      0      1      1\n";
static const char pagetypeinfo[] =
	"Page block order: 9\nPages per block:  512\n\n"
	"Number of blocks type     Unmovable      Movable  Reclaimable   HighAtomic      Isolate\n"
	"Node 0, zone      DMA            1            7            0            0            0\n";
static const char iomem[] = "00001000-0009fbff : System RAM\n00100000-00ffffff : System RAM\n";
static const char meminfo[] = "MemTotal:   16000 kB\nSwapTotal:   0 kB\n";

static const struct {
	const char *name;
	const char *text;
} texts[] = {
	{ "zoneinfo", zoneinfo }, { "buddyinfo", buddyinfo }, { "pagetypeinfo", pagetypeinfo },
	{ "iomem", iomem }, { "meminfo", meminfo },
};

#define NR_TEXTS (sizeof(texts) / sizeof(texts[0]))

static char dir[64];

static void put(const char *name, const void *data, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f))
		abort();
}

static void drop(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* Every file as the default snapshot has it; kpageflags: a free page in each word. */
static void reset(void)
{
	static uint64_t zeros[NR_PFNS];

	for (size_t i = 0; i < NR_TEXTS; i++)
		put(texts[i].name, texts[i].text, strlen(texts[i].text));
	drop("kpageflags.xz");
	put("kpageflags", zeros, sizeof(zeros));
	put("kpagecount", zeros, sizeof(zeros));
}

static void check_err(const char *err, size_t len, const char *what)
{
	if (!terminated(err, len) || !err[0] || !one_line(err))
		fail("%s failed without a one-line message", what);
}

/* @arg on @im, alloc_contig_pages' choice too whatever the snapshot's profile */
static void whatif(const struct import_machine *im, const char *arg)
{
	struct import_machine with_contig_pages = *im;
	struct whatif w;
	char err[IMPORT_ERR_MAX];

	with_contig_pages.contig_pages = true;
	if (whatif_parse(arg, &w, err, sizeof(err)))
		fail("whatif_parse refused '%s': %s", arg, err);
	if (whatif_answer(&with_contig_pages, &w, err, sizeof(err))) {
		check_err(err, sizeof(err), "whatif_answer");
		return;
	}
	if (w.best.found && w.best.start_pfn + w.best.nr_pages > im->pk.nr_pfns)
		fail("what-if %s answered pfn %#lx beyond the machine", arg, w.best.start_pfn);
	if (w.kernel.found && w.kernel.unmovable)
		fail("alloc_contig_pages' range holds %lu unmovable pages", w.kernel.unmovable);
}

/*
 * A snapshot whose RAM or zones reach past 1 GiB, or whose swap does
 * while one swap area (2^32 pages) could still hold it: its swap map
 * would be built, not refused.
 */
static bool snapshot_too_big(const struct snapshot *s)
{
	const uint64_t limit = 1ull << 30;

	if (s->swap_bytes > limit && s->swap_bytes >> 12 <= 1ull << 32)
		return true;

	for (unsigned i = 0; i < s->nr_banks; i++)
		if (s->banks[i].base > limit || s->banks[i].size > limit - s->banks[i].base)
			return true;
	for (unsigned i = 0; i < s->nr_zones; i++)
		if (s->zones[i].start_pfn > limit >> 12 || s->zones[i].spanned > (limit >> 12) - s->zones[i].start_pfn)
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint64_t words[NR_PFNS];
	struct snapshot s;
	struct import_machine im;
	char err[IMPORT_ERR_MAX];
	unsigned sel;
	int ret;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz_import.XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	if (!size)
		return 0;
	reset();
	sel = data[0] % (NR_TEXTS + 3);
	data++;
	size--;
	if (sel < NR_TEXTS) {
		put(texts[sel].name, data, size);
	} else if (sel == NR_TEXTS) {
		if (size < 8)
			return 0;
		for (size_t i = 0; i < NR_PFNS; i++)
			memcpy(&words[i], data + (i * 8) % (size & ~7ul), 8);
		put("kpageflags", words, sizeof(words));
	} else if (sel == NR_TEXTS + 1) {
		put("kpageflags", data, size);
	} else {
		drop("kpageflags");
		put("kpageflags.xz", data, size);
	}
	memset(err, 'X', sizeof(err));
	ret = snapshot_read(dir, &s, err, sizeof(err));
	if (ret) {
		if (ret != -EINVAL)
			fail("snapshot_read returned %d, expected 0 or -EINVAL", ret);
		check_err(err, sizeof(err), "snapshot_read");
		if (!strstr(err, dir))
			fail("snapshot_read's message names no file of %s: %s", dir, err);
		return 0;
	}
	/*
	 * The importer takes up to the simulator's 64 GiB; such a machine's
	 * metadata under ASan is gigabytes, past the fuzzer's memory limit.
	 * The parsing above saw every input; the build only what fits.
	 */
	if (snapshot_too_big(&s)) {
		snapshot_free(&s);
		return 0;
	}
	ret = import_build(&s, NULL, &im, err, sizeof(err));
	if (ret == -EIO)
		fail("import_build made an inconsistent machine: %s", err);
	if (!ret) {
		whatif(&im, "64K");
		whatif(&im, "4M");
		whatif(&im, "1M@0x400000");
		import_machine_free(&im);
	} else {
		check_err(err, sizeof(err), "import_build");
	}
	snapshot_free(&s);
	return 0;
}
