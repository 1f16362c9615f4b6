// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim import --what-if SIZE[@ADDR]: where on the imported machine a
 * contiguous range of SIZE could be had now, what it would take (pages to
 * migrate, to reclaim) and how long by the cost model; and the range
 * Linux 6.12's alloc_contig_pages() would end up with, trying ranges as
 * it does. Counted from the pages' kinds, the machine left as it is.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cost.h"
#include "import/import.h"
#include "scenario/scenario.h"

#define PAGE_BYTES 4096ull

int whatif_parse(const char *arg, struct whatif *w, char *err, size_t errlen)
{
	const char *at = strchr(arg, '@');
	char size[64];
	char *end;

	memset(w, 0, sizeof(*w));
	snprintf(size, sizeof(size), "%.*s", at ? (int)(at - arg) : (int)strlen(arg), arg);
	if (!scenario_parse_cma(size, &w->bytes) || !w->bytes) {
		snprintf(err, errlen, "--what-if '%s': the size is not %s, above 0", arg,
			 "a size in bytes with an optional K, M, G, T, P or E suffix, e.g. 1G");
		return -EINVAL;
	}
	if (at) {
		errno = 0;
		w->at = strtoull(at + 1, &end, 0);
		if (errno || end == at + 1 || *end || (w->at & (PAGE_BYTES - 1))) {
			snprintf(err, errlen, "--what-if '%s': the address is not a page-aligned number (e.g. 0x100000000)",
				 arg);
			return -EINVAL;
		}
		w->at_set = true;
	}
	return 0;
}

/* What the kernel would do with a page of kind @k in a range it allocates. */
enum fate { F_FREE, F_MIGRATE, F_RECLAIM, F_UNMOVABLE, F_HOLE };

static enum fate fate_of(const struct import_machine *im, enum page_kind k)
{
	switch (k) {
	case PK_HOLE:
		return F_HOLE;
	case PK_FREE:
		return F_FREE;
	case PK_FILE:
		/* __alloc_contig_migrate_range: clean page cache is dropped, not copied */
		return F_RECLAIM;
	case PK_MLOCKED:
		/* ISOLATE_UNEVICTABLE (3.7) migrates mlocked pages; v3.5's isolate_lru_page left them */
		return cma_kernel_has(im->kernel, "contig_unevictable") == 1 ? F_MIGRATE : F_UNMOVABLE;
	default:
		return page_kind_unmovable(k) ? F_UNMOVABLE : F_MIGRATE;
	}
}

/* The zone holding all of [@pfn, @pfn + @n), or -1. */
static int zone_of_range(const struct import_machine *im, unsigned long pfn, unsigned long n)
{
	for (unsigned z = 0; z < im->nr_zones; z++)
		if (pfn >= im->zones[z].start_pfn &&
		    pfn + n <= im->zones[z].start_pfn + im->zones[z].spanned)
			return (int)z;
	return -1;
}

/* [@pfn, @pfn + @n) counted into @r: false when it leaves a zone or holds a hole. */
static bool count_range(const struct import_machine *im, unsigned long pfn, unsigned long n,
			struct whatif_range *r)
{
	unsigned long holes = 0;

	memset(r, 0, sizeof(*r));
	r->start_pfn = pfn;
	r->nr_pages = n;
	if (pfn + n > im->pk.nr_pfns || zone_of_range(im, pfn, n) < 0)
		return false;
	for (unsigned long p = pfn; p < pfn + n; p++) {
		switch (fate_of(im, im->pk.kind[p])) {
		case F_FREE: r->free++; break;
		case F_MIGRATE: r->migrate++; r->mapped += im->pk.mapcount[p] > 0; break;
		case F_RECLAIM: r->reclaim++; break;
		case F_UNMOVABLE: r->unmovable++; break;
		case F_HOLE: holes++; break;
		}
	}
	r->found = !holes && !r->unmovable;
	return !holes;
}

/*
 * The work of alloc_contig_range over @r as the cost model counts it: every
 * page of the range scanned and taken, the movable ones isolated and
 * copied besides (compact_isolated counts both, as a 6.18 kernel's vmstat
 * shows), one drain of the per-CPU lists and one round of the locks; and
 * the pages earlier tries looked at before finding an unmovable one.
 */
static void predict(const struct import_machine *im, struct whatif_range *r)
{
	struct cost_model m;
	struct cost_work w = {
		.migrated = r->migrate,
		.scanned = r->nr_pages + r->tried_scanned,
		.handled = r->nr_pages + r->migrate,
		.reclaimed = r->reclaim,
		.drains = 1,
		.locks = 1 + r->tried,
	};

	cost_profile(CMA_ARCH_X86, &m);
	r->ns = cost_ns(&m, &w, PAGE_BYTES);
}

/* Per pageblock: pages to move, and whether it holds an unmovable page or a hole. */
struct block_sum {
	unsigned long move;
	bool blocked;
};

/*
 * The best-placed range: pageblock-aligned (alloc_contig_range isolates
 * whole pageblocks), within one zone, no unmovable page, the fewest pages
 * to migrate or reclaim; the lowest such.
 */
static void best_range(const struct import_machine *im, unsigned long n, struct whatif *w)
{
	unsigned long pb = im->pageblock_pages, nb = (n + pb - 1) / pb;
	unsigned long nr_blocks = im->pk.nr_pfns / pb, best_move = ULONG_MAX, best = 0;
	struct block_sum *b = calloc(nr_blocks ? nr_blocks : 1, sizeof(*b));

	if (!b)
		return;
	for (unsigned long i = 0; i < nr_blocks; i++)
		for (unsigned long p = i * pb; p < (i + 1) * pb; p++) {
			enum fate f = fate_of(im, im->pk.kind[p]);

			if (f == F_MIGRATE || f == F_RECLAIM)
				b[i].move++;
			else if (f != F_FREE)
				b[i].blocked = true;
		}
	for (unsigned long i = 0; i + nb <= nr_blocks; i++) {
		unsigned long move = 0, blocked = 0;

		if (zone_of_range(im, i * pb, n) < 0)
			continue;
		w->ranges++;
		for (unsigned long j = i; j < i + nb; j++) {
			move += b[j].move;
			blocked += b[j].blocked;
		}
		if (blocked) {
			w->blocked++;
			continue;
		}
		if (move < best_move) {
			best_move = move;
			best = i;
		}
	}
	if (best_move != ULONG_MAX) {
		count_range(im, best * pb, n, &w->best);
		predict(im, &w->best);
	}
	free(b);
}

/* The pages in use pfn_range_valid_contig skips a range for, by release. */
enum in_use_skip {
	SKIP_IN_USE,		/* before 5.13 (contig_try_in_use): any page in use */
	SKIP_NONE,		/* 5.13 to 6.2: none */
	SKIP_HUGETLB,		/* from 6.3 (contig_skip_hugetlb): a hugetlb page */
};

static enum in_use_skip in_use_skip_of(const struct import_machine *im)
{
	if (cma_kernel_has(im->kernel, "contig_try_in_use") != 1)
		return SKIP_IN_USE;
	return cma_kernel_has(im->kernel, "contig_skip_hugetlb") == 1 ? SKIP_HUGETLB : SKIP_NONE;
}

static bool skipped_in_use(enum in_use_skip skip, enum page_kind k)
{
	return skip == SKIP_IN_USE ? k != PK_FREE : skip == SKIP_HUGETLB && k == PK_HUGETLB;
}

/*
 * Linux 6.12's alloc_contig_pages() for a gigantic page (GFP_HIGHUSER:
 * Normal, then DMA32, then DMA): in each zone, ranges aligned to their
 * size from the zone's start; pfn_range_valid_contig() skips one with a
 * hole, a reserved page, or one skipped_in_use() names; alloc_contig_range()
 * is tried on the others and fails on an unmovable page
 * (has_unmovable_pages, when isolating), having looked at the pages
 * before it. Kept apart so that it can become the library's call.
 */
static void kernel_range(const struct import_machine *im, unsigned long n, struct whatif *w)
{
	struct whatif_range *r = &w->kernel;
	enum in_use_skip skip = in_use_skip_of(im);
	unsigned tried = 0;
	uint64_t scanned = 0;

	for (int z = (int)im->nr_zones - 1; z >= 0; z--) {
		const struct import_zone *zn = &im->zones[z];
		unsigned long end = zn->start_pfn + zn->spanned;
		/* the kernel's ALIGN(), as it writes it for any nr_pages */
		unsigned long pfn = (zn->start_pfn + n - 1) & ~(n - 1);

		for (; pfn + n <= end; pfn += n) {
			bool valid = pfn + n <= im->pk.nr_pfns;
			unsigned long p;

			for (p = pfn; valid && p < pfn + n; p++)
				valid = im->pk.kind[p] != PK_HOLE && !page_kind_unmanaged(im->pk.kind[p]) &&
					!skipped_in_use(skip, im->pk.kind[p]);
			if (!valid)
				continue;
			for (p = pfn; p < pfn + n; p++)
				if (fate_of(im, im->pk.kind[p]) == F_UNMOVABLE)
					break;
			if (p < pfn + n) {
				tried++;
				scanned += p - pfn + 1;
				continue;
			}
			count_range(im, pfn, n, r);
			r->tried = tried;
			r->tried_scanned = scanned;
			predict(im, r);
			return;
		}
	}
	r->nr_pages = n;
	r->tried = tried;
	r->tried_scanned = scanned;
}

int whatif_answer(const struct import_machine *im, struct whatif *w, char *err, size_t errlen)
{
	unsigned long n = (unsigned long)((w->bytes + PAGE_BYTES - 1) / PAGE_BYTES);

	if (w->at_set) {
		unsigned long pfn = (unsigned long)(w->at / PAGE_BYTES);

		if (!count_range(im, pfn, n, &w->best)) {
			snprintf(err, errlen, "--what-if %#" PRIx64 "@%#" PRIx64 ": the range is not all RAM of one zone",
				 w->bytes, w->at);
			return -EINVAL;
		}
		predict(im, &w->best);
		w->ranges = 1;
		w->blocked = !w->best.found;
		w->unmovable_pages = w->best.unmovable;
	} else {
		best_range(im, n, w);
		for (unsigned long p = 0; p < im->pk.nr_pfns; p++)
			if (fate_of(im, im->pk.kind[p]) == F_UNMOVABLE && !page_kind_unmanaged(im->pk.kind[p]))
				w->unmovable_pages++;
	}
	if (im->contig_pages)
		kernel_range(im, n, w);
	return 0;
}

static void print_range(const char *what, const struct whatif_range *r, FILE *out)
{
	fprintf(out, "  %s: pfn %#lx-%#lx (%#llx-%#llx)\n", what, r->start_pfn,
		r->start_pfn + r->nr_pages - 1, (unsigned long long)r->start_pfn * PAGE_BYTES,
		(unsigned long long)(r->start_pfn + r->nr_pages) * PAGE_BYTES - 1);
	fprintf(out, "    pages: %lu free, %lu to migrate (%lu of them mapped), %lu to reclaim, %lu unmovable\n",
		r->free, r->migrate, r->mapped, r->reclaim, r->unmovable);
	if (r->found)
		fprintf(out, "    predicted time: %.3f ms\n", (double)r->ns / 1e6);
	else
		fprintf(out, "    not possible: %lu unmovable pages in it\n", r->unmovable);
}

void whatif_print(const struct import_machine *im, const struct whatif *w, FILE *out)
{
	char what[64];

	fprintf(out, "what-if %" PRIu64 " bytes (%lu pages)", w->bytes,
		(unsigned long)((w->bytes + PAGE_BYTES - 1) / PAGE_BYTES));
	if (w->at_set)
		fprintf(out, " at %#" PRIx64, w->at);
	fputs(":\n", out);
	if (w->at_set)
		print_range("the range asked for", &w->best, out);
	else if (w->best.nr_pages)
		print_range("best-placed range", &w->best, out);
	else
		fprintf(out, "  no range of this size is free of unmovable pages\n");
	if (!w->at_set)
		fprintf(out, "  ranges looked at (pageblock steps, one zone each): %lu, %lu impossible for an unmovable page; %lu unmovable pages on the machine (reserved and uninitialised ones aside)\n",
			w->ranges, w->blocked, w->unmovable_pages);
	if (!im->contig_pages)
		return;
	snprintf(what, sizeof(what), "Linux %s alloc_contig_pages() would take", im->kernel);
	if (w->kernel.found) {
		print_range(what, &w->kernel, out);
		fprintf(out, "    after %u failed tries (%" PRIu64 " pages looked at)\n", w->kernel.tried,
			w->kernel.tried_scanned);
	} else {
		fprintf(out, "  Linux %s alloc_contig_pages() would fail, after %u tries\n", im->kernel,
			w->kernel.tried);
	}
}
