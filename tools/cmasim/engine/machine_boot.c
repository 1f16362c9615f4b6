// SPDX-License-Identifier: GPL-2.0
/*
 * The machine of a run, before and after it: the scenario's platform
 * with its overrides (memory, command line, Kconfig, swap, costs) and
 * its devices placed, the policy's prepare(), the boot and whether it
 * reserved every CMA area (the kernel boots on without an area it could
 * not reserve, so the log is where that shows); at the end the
 * workloads' and the policy's teardown and the machine's verification.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "engine/sim.h"

static int load_platform(struct sim *s)
{
	char err[512];

	if (platform_load(s->sc->platform, &s->plat, err, sizeof(err))) {
		fprintf(stderr, "cmasim: scenario %s: %s\n", s->sc->name, err);
		return -EINVAL;
	}
	return 0;
}

/* The board's device of device workload @w, added if the board has none of its name. */
static int platform_device_of(struct sim *s, const struct wl_spec *w)
{
	struct platform *p = &s->plat;
	struct platform_device *d;

	for (unsigned i = 0; i < p->nr_devices; i++) {
		/* the board's device: the scenario's mask and area size, if it gives them, win */
		if (strcmp(p->devices[i].name, w->name))
			continue;
		if (w->device.mask_given)
			p->devices[i].mask = w->device.mask;
		if (w->device.cma_given)
			p->devices[i].cma_size = w->device.cma_bytes;
		return (int)i;
	}
	if (p->nr_devices == PLATFORM_MAX_DEVICES) {
		fprintf(stderr, "cmasim: scenario %s: platform %s has no room for device %s (at most %d devices)\n",
			s->sc->name, p->name, w->name, PLATFORM_MAX_DEVICES);
		return -EINVAL;
	}
	d = &p->devices[p->nr_devices];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", w->name);
	d->mask = w->device.mask;
	d->cma_size = w->device.cma_bytes;
	return (int)p->nr_devices++;
}

/* The scenario's cma = SIZE: every cma= of the command line dropped (early_param takes the last) and cma=SIZE put at its end. */
static int cmdline_set_cma(struct sim *s, char *cmdline, size_t size, const char *cma)
{
	size_t n;

	platform_cmdline_drop_cma(cmdline);
	n = strlen(cmdline);
	if ((size_t)snprintf(cmdline + n, size - n, "%scma=%s", n ? " " : "", cma) >= size - n) {
		cmdline[n] = '\0';
		fprintf(stderr, "cmasim: scenario %s: the command line is too long to add cma=%s\n", s->sc->name,
			cma);
		return -EINVAL;
	}
	return 0;
}

static int machine_prepare(struct sim *s)
{
	const struct scenario *sc = s->sc;
	struct platform *p = &s->plat;
	int ret = load_platform(s);

	if (ret)
		return ret;
	sim_board(sc, p);
	if (sc->cmdline_set)
		snprintf(p->cmdline, sizeof(p->cmdline), "%s", sc->cmdline);
	if (sc->cma[0] && (ret = cmdline_set_cma(s, p->cmdline, sizeof(p->cmdline), sc->cma)))
		return ret;
	if (sc->kconfig_set)
		snprintf(p->kconfig, sizeof(p->kconfig), "%s", sc->kconfig);
	if (sc->swap_bytes)
		p->cfg.swap_bytes = sc->swap_bytes;
	p->cfg.metadata_only = true;	/* the simulation never looks at the bytes */
	p->cfg.quiet = true;		/* the boot's errors are in the log; a run fails loudly */
	p->cfg.printk_contig_passes = sc->printk_contig_passes;
	cost_profile(p->cfg.arch, &s->cost);
	for (int i = 0; i < NR_COST_FIELDS; i++)
		if (sc->cost_set[i])
			s->cost.v[i] = sc->cost.v[i];
	if (sc->storage_memory)
		cost_storage_memory(&s->cost, sc->cost_set);
	for (unsigned i = 0; i < sc->nr_wl; i++) {
		int d = sc->wl[i].kind->device ? platform_device_of(s, &sc->wl[i]) : 0;

		if (d < 0)
			return d;
		if (sc->wl[i].cpu >= p->cfg.nr_cpus) {
			fprintf(stderr, "cmasim: scenario %s: [%s %s] on_cpu = %u, but platform %s has %u CPUs (0..%u)\n",
				sc->name, sc->wl[i].kind->name, sc->wl[i].name, sc->wl[i].cpu, p->name,
				p->cfg.nr_cpus, p->cfg.nr_cpus - 1);
			return -EINVAL;
		}
		s->dev_of_wl[i] = (unsigned)d;
	}
	return 0;
}

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

/* The machine's pfn span and geometry, from the booted platform. */
static void init_geometry(struct sim *s)
{
	const struct platform *p = &s->plat;
	unsigned shift = p->cfg.page_shift ? p->cfg.page_shift : 12;

	s->page_bytes = 1ull << shift;
	s->max_order = p->cfg.max_order ? p->cfg.max_order : 11;
	s->pageblock_pages = 1ul << (p->cfg.pageblock_order ? p->cfg.pageblock_order : s->max_order - 1);
	s->start_pfn = (unsigned long)(p->banks[0].base >> shift);
	s->end_pfn = (unsigned long)((p->banks[p->nr_banks - 1].base + p->banks[p->nr_banks - 1].size) >> shift);
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

/* One invariant cma_mm_verify found broken, indented under the caller's own line. */
static void verify_line(void *ctx, const char *problem)
{
	fprintf(ctx, "  cma_mm_verify: %s\n", problem);
}

/* 0, or -EIO after saying what cma_mm_verify found broken at the end of the run. */
static int verify_end(struct sim *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *lines = open_memstream(&buf, &len);
	int bad = cma_mm_verify_report(s->mm, lines ? verify_line : NULL, lines) ? -EIO : 0;

	if (lines)
		fclose(lines);
	if (bad)
		fprintf(stderr, "cmasim: %s: the machine's state is inconsistent at the end of the run:\n%s",
			s->policy->name, buf ? buf : "");
	free(buf);
	return bad;
}

int machine_teardown(struct sim *s)
{
	int bad = 0;

	sim_task_destroy(s);
	/* a trace records the frees of the pages the workloads still hold (mm_page_free) */
	s->drop_pages = !s->trace;
	for (unsigned i = 0; i < s->nr_wl; i++)
		if (s->wl[i].ops->stop)
			s->wl[i].ops->stop(s, &s->wl[i]);
	if (s->policy->destroy)
		s->policy->destroy(s);
	sim_events_destroy(s);
	storage_destroy(&s->storage);
	if (s->mm) {
		bad = verify_end(s);
		cma_mm_destroy(s->mm);
	}
	return bad;
}

int machine_boot(struct sim *s)
{
	int ret = machine_prepare(s);

	if (ret)
		return ret;
	if (s->policy->prepare)
		ret = s->policy->prepare(s);
	if (!ret) {
		init_geometry(s);
		ret = platform_boot(&s->plat, s->plat.cmdline, s->plat.kconfig, &s->mm, s->devs);
	}
	if (!ret)
		return 0;
	if (s->mm)
		cma_mm_dmesg(s->mm, stderr);
	if (ret == -EINVAL && s->plat.name[0])
		fprintf(stderr, "cmasim: scenario %s: the machine refused its configuration (see above): platform %s, command line '%s'\n",
			s->sc->name, s->plat.name, ESCAPED(s->plat.cmdline));
	return ret;
}

int sim_check_areas(const struct scenario *sc, const struct sim_policy_ops *policy, char *line,
		    size_t len)
{
	/* no policy's preparation: the areas the board, cma= and Kconfig declare */
	static const struct sim_policy_ops as_declared = { .name = "boot" };
	struct sim *s = calloc(1, sizeof(*s));
	struct sim_result res = { 0 };
	int ret;

	if (!s)
		return -ENOMEM;
	s->sc = sc;
	s->policy = policy ? policy : &as_declared;
	s->res = &res;		/* the carveout policy counts its reservations there */
	ret = machine_boot(s);
	if (!ret && sim_area_failed(s->mm, line, len))
		ret = -ENOSPC;
	machine_teardown(s);
	free(s);
	return ret;
}
