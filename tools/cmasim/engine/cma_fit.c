// SPDX-License-Identifier: GPL-2.0
/*
 * When the boot could not reserve a CMA area, the largest cma= that
 * would have been: the board booted again for sizes in steps of the area
 * alignment, by bisection, since a larger default area never fits where
 * a smaller one did not.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"

/* @sc's board (sim_board): 0, or -EINVAL. */
static int board_of(const struct scenario *sc, struct platform *p)
{
	char err[512];

	if (platform_load(sc->platform, p, err, sizeof(err)))
		return -EINVAL;
	sim_board(sc, p);
	return 0;
}

/*
 * As the kernel rounds cma=: v3.5's dma_contiguous_reserve to the larger
 * of MAX_ORDER and pageblock_order pages; 6.12's cma_declare_contiguous_nid
 * to CMA_MIN_ALIGNMENT_BYTES, a pageblock. Departure: releases from 3.17
 * to 5.17 rounded to MAX_ORDER - 1 pages, taken here as v3.5's.
 */
static uint64_t board_alignment(const struct platform *p)
{
	unsigned shift = p->cfg.page_shift ? p->cfg.page_shift : 12;
	unsigned max_order = p->cfg.max_order ? p->cfg.max_order : 11;
	unsigned pageblock_order = p->cfg.pageblock_order ? p->cfg.pageblock_order : max_order - 1;

	/* the library's cma_min_align_pages(): kernel.cma_pageblock_align (5.19), cma_generic (3.17) */
	if (platform_kernel_release(p->cfg.kernel) >= 519)
		return 1ull << (shift + pageblock_order);
	if (platform_kernel_release(p->cfg.kernel) >= 317)
		max_order--;
	return 1ull << (shift + (max_order > pageblock_order ? max_order : pageblock_order));
}

uint64_t sim_cma_alignment(const struct scenario *sc)
{
	struct platform *p = malloc(sizeof(*p));	/* not static: size's threads may call it */
	uint64_t align = p && !board_of(sc, p) ? board_alignment(p) : 0;

	free(p);
	return align;
}

/* "64M", or "640K" for a size that is not whole MiB: as cma= takes it. */
static void format_size(char *buf, size_t len, uint64_t bytes)
{
	if (bytes % (1ull << 20))
		snprintf(buf, len, "%lluK", (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)(bytes >> 20));
}

/* @sc with cma=@bytes, its areas as the board declares them: 1 all reserved, 0 not, -errno. */
static int fits(struct scenario *sc, uint64_t bytes)
{
	char line[SIM_AREA_LINE_MAX];
	int ret;

	format_size(sc->cma, sizeof(sc->cma), bytes);
	ret = sim_check_areas(sc, NULL, line, sizeof(line));
	return ret == -ENOSPC ? 0 : ret ? ret : 1;
}

int sim_cma_fit(const struct scenario *sc, uint64_t *bytes)
{
	struct platform *p = malloc(sizeof(*p));	/* not static: sim_run() may call it, in threads */
	struct scenario *copy;
	uint64_t align, ram = 0, lo = 0, hi;
	int ret;

	if (!p)
		return -ENOMEM;
	if (board_of(sc, p)) {
		free(p);
		return -EINVAL;
	}
	align = board_alignment(p);
	for (unsigned i = 0; i < p->nr_banks; i++)
		ram += p->banks[i].size;
	free(p);
	copy = malloc(sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	*copy = *sc;
	/* invariant: lo units fit, hi units do not (hi: past the RAM, never tried) */
	hi = ram / align + 1;
	ret = fits(copy, 0);
	if (ret == 0)
		ret = -ENOSPC;
	while (ret > 0 && hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		ret = fits(copy, mid * align);
		if (ret > 0)
			lo = mid;
		else if (!ret)
			hi = mid, ret = 1;
	}
	free(copy);
	*bytes = lo * align;
	return ret < 0 ? ret : 0;
}

void sim_report_area_failure(const struct scenario *sc, const char *line)
{
	char size[32];
	uint64_t bytes;
	int ret = sim_cma_fit(sc, &bytes);

	fprintf(stderr, "cmasim: scenario %s: a CMA area could not be reserved at boot; the kernel said:\n",
		sc->name);
	for (const char *l = line; *l;) {
		size_t n = strcspn(l, "\n");

		fprintf(stderr, "  %.*s\n", (int)n, l);
		l += n + !!l[n];
	}
	format_size(size, sizeof(size), bytes);
	if (ret == -ENOSPC)
		fprintf(stderr, "cmasim: even with cma=0 (no default area) an area the board declares for a device is not reserved: no cma= fits\n");
	else if (ret)
		fprintf(stderr, "cmasim: could not find the largest cma= that fits: %s\n", strerror(-ret));
	else if (!bytes)
		fprintf(stderr, "cmasim: no default area fits beside the board's own: only cma=0 (--cma 0)\n");
	else
		fprintf(stderr, "cmasim: the largest cma= with which every area is reserved: cma=%s (--cma %s)\n",
			size, size);
}
