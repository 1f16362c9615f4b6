// SPDX-License-Identifier: GPL-2.0
/*
 * The CMA areas of a run: whether the boot reserved every one (the
 * kernel boots on without an area it could not reserve, so the log is
 * where that shows), and when it did not, the largest cma= that would
 * have been: the board booted again for sizes in steps of the area
 * alignment, by bisection, since a larger default area never fits
 * where a smaller one did not.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"

/* The board @sc runs on: @p, its platform, with the scenario's memory, kernel and cpus. */
void sim_board(const struct scenario *sc, struct platform *p)
{
	if (sc->memory_bytes) {
		p->banks[0].size = sc->memory_bytes;
		p->nr_banks = 1;
		platform_dt_set_banks(p);
	}
	if (sc->kernel)
		p->cfg.kernel = sc->kernel;
	if (sc->nr_cpus)
		p->cfg.nr_cpus = sc->nr_cpus;
	if (!p->cfg.nr_cpus)
		p->cfg.nr_cpus = 1;	/* as cma_mm_create reads a platform file's 0 */
}

/* A reservation's failure as the kernel, or the board's reserve(), logs it. */
static bool area_failure_line(const char *line)
{
	return strcasestr(line, "failed to reserve") || strstr(line, "Not enough slots for CMA") ||
	       !strncmp(line, "cma: CMA: area at ", 18);
}

bool sim_area_failed(struct cma_mm *mm, char *line, size_t len)
{
	char *log = NULL, *save = NULL;
	size_t log_len = 0, n = 0;
	FILE *f = open_memstream(&log, &log_len);

	line[0] = '\0';
	if (!f)
		return false;
	cma_mm_dmesg(mm, f);
	if (fclose(f)) {
		free(log);
		return false;
	}
	for (char *l = strtok_r(log, "\n", &save); l && n < len; l = strtok_r(NULL, "\n", &save))
		if (area_failure_line(l))
			n += (size_t)snprintf(line + n, len - n, "%s%s", n ? "\n" : "", l);
	free(log);
	return n > 0;
}

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

	/* CMA_MIN_ALIGNMENT_BYTES: "mm: cma: use pageblock_order as the single alignment" (5.18) */
	if (platform_kernel_release(p->cfg.kernel) >= 518)
		return 1ull << (shift + pageblock_order);
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

/* ---- the devices' use of the areas ---- */

#define AREA_NAME_KEPT 31	/* the library keeps an area's name to 31 characters */

/* The /reserved-memory pool area @cma was made of (it bears the node's name, cut short), or NULL. */
static const struct platform_rmem *area_region(const struct platform *p, const struct cma *cma)
{
	const char *name = cma_area_name(cma);
	size_t len = strlen(name);

	for (unsigned i = 0; p->source[0] && i < p->nr_rmem; i++)
		if (p->rmem[i].pool && !strncmp(p->rmem[i].name, name, len) &&
		    (!p->rmem[i].name[len] || len == AREA_NAME_KEPT))
			return &p->rmem[i];
	return NULL;
}

/* What reserved @a at boot: the tree, the default area's cma= or Kconfig, or a device's declaration. */
static void area_origin(const struct sim *s, const struct cma *cma, bool is_default, struct area_result *a)
{
	const struct platform_rmem *m = area_region(&s->plat, cma);

	if (m) {
		a->origin = AREA_FROM_DT;
		snprintf(a->dt_node, sizeof(a->dt_node), "%s", m->name);
	} else if (is_default) {
		a->origin = platform_cmdline_cma(s->plat.cmdline) ? AREA_FROM_CMDLINE : AREA_FROM_KCONFIG;
	} else {
		a->origin = AREA_FROM_DECLARED;
	}
}

/* Area @cma into the result, named @name, unless it is there already. */
static void add_area(struct sim *s, struct cma *cma, const char *name)
{
	struct sim_result *r = s->res;
	struct area_result *a;
	unsigned long base = cma_area_base_pfn(cma);

	for (unsigned i = 0; i < r->nr_areas; i++)
		if (s->area_pfn[i][0] == base)
			return;
	if (r->nr_areas == SIM_MAX_AREAS)
		return;
	s->area_pfn[r->nr_areas][0] = base;
	s->area_pfn[r->nr_areas][1] = base + cma_area_count(cma);
	a = &r->areas[r->nr_areas++];
	snprintf(a->name, sizeof(a->name), "%s", name);
	a->base = (uint64_t)base * s->page_bytes;
	a->pages = cma_area_count(cma);
	area_origin(s, cma, r->nr_areas == 1 && cma == cma_dev_get_cma_area(s->mm, NULL), a);
}

void sim_areas_init(struct sim *s)
{
	struct cma *def = cma_dev_get_cma_area(s->mm, NULL);

	if (def)
		add_area(s, def, "default");
	for (unsigned i = 0; i < s->plat.nr_devices; i++) {
		struct cma *cma = cma_dev_get_cma_area(s->mm, s->devs[i]);

		if (cma)
			add_area(s, cma, s->plat.devices[i].name);
	}
	s->area_at = s->now;
}

/* Up to now, each area's use as it has been since the last change. */
static void areas_integrate(struct sim *s)
{
	double dt = (double)(s->now - s->area_at);

	for (unsigned i = 0; i <= s->res->nr_areas; i++) {
		unsigned k = i < s->res->nr_areas ? i : SIM_MAX_AREAS;

		s->area_page_ns[k] += (double)s->area_used[k] * dt;
	}
	s->area_at = s->now;
}

/* A device's buffer is one run of pages from its handle under the cma policy, the only one with areas. */
void sim_area_hold(struct sim *s, const struct dev_buffer *b, bool held)
{
	unsigned long pfn = (unsigned long)(b->handle / s->page_bytes);
	struct sim_result *r = s->res;
	unsigned i;

	for (i = 0; i < r->nr_areas; i++)
		if (pfn >= s->area_pfn[i][0] && pfn < s->area_pfn[i][1])
			break;
	if (i == r->nr_areas || b->nr_chunks)
		return;
	areas_integrate(s);
	if (held) {
		s->area_used[i] += b->pages_held;
		s->area_used[SIM_MAX_AREAS] += b->pages_held;
	} else {
		s->area_used[i] -= b->pages_held;
		s->area_used[SIM_MAX_AREAS] -= b->pages_held;
	}
	if (s->area_used[i] > r->areas[i].peak_pages)
		r->areas[i].peak_pages = s->area_used[i];
	if (s->area_used[SIM_MAX_AREAS] > r->area_peak_pages)
		r->area_peak_pages = s->area_used[SIM_MAX_AREAS];
}

void sim_areas_finish(struct sim *s)
{
	struct sim_result *r = s->res;
	double end = (double)s->now;	/* end_ns, or where a stopped run stopped */

	areas_integrate(s);
	for (unsigned i = 0; i < r->nr_areas && end > 0; i++)
		r->areas[i].mean_pages = (uint64_t)(s->area_page_ns[i] / end + 0.5);
	if (end > 0)
		r->area_mean_pages = (uint64_t)(s->area_page_ns[SIM_MAX_AREAS] / end + 0.5);
}
