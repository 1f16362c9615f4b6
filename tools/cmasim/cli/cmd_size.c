// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim size: the smallest cma= with which the scenario's devices get
 * every buffer they ask for, in time, under the cma policy, for each of
 * several seeds.
 *
 * The sizes are multiples of a step (the area alignment: the kernel
 * rounds cma= up to it anyway), from 0 (no default area) to a maximum.
 * The search keeps the largest size known to fail and the smallest known
 * to serve everything, and tries sizes between them until they are one
 * step apart: a bisection, assuming that more CMA never hurts, so the
 * answer is always a size tried with every seed, one step below it
 * tried and failing. It starts from the devices' demand (their rings
 * held at once), where the answer usually is, and from that size's
 * neighbour below, so that a scenario is sized in about two sizes.
 *
 * The seeds of one size run as threads, --jobs at a time (sim_run keeps
 * all its state in its struct sim and its result); a run stops at its
 * first failed or late request, and the others of its size as soon as
 * one has failed, so only the sizes that serve everything run in full.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "engine/sim_api.h"
#include "policies/registry.h"

#define MiB		(1ull << 20)
#define MAX_POINTS	72	/* sizes tried: two guesses, the maximum and a 64-bit bisection */

struct size_args {
	const char *scenario;
	const char *platform;	/* replaces the scenario's */
	struct scenario_overrides over;	/* --cmdline, --set */
	uint64_t seed;
	const char *seed_arg;	/* --seed as given; NULL: the scenario's */
	unsigned nr_seeds;
	uint64_t duration_ns;	/* 0: the scenario's */
	uint64_t step, max;	/* 0: the area alignment, half of RAM */
	unsigned jobs;
};

/* One seed's run at one size, reduced to what the table shows. */
struct seed_run {
	int ret;		/* sim_run's */
	bool ran;		/* not cancelled before it started or finished */
	bool stopped;		/* at its first miss */
	uint64_t requests, failures, misses;
	uint64_t p99_ns;	/* the worst device's */
	uint64_t peak_pages;	/* held by device buffers in the CMA areas, at most */
	uint64_t usable_pages;	/* time-weighted mean */
	uint64_t page_bytes;
};

/* A size tried, over the seeds that ran. */
struct size_point {
	uint64_t bytes;
	bool served;		/* every seed ran to its end without a miss */
	bool partial;		/* some runs stopped at their first miss or were cancelled */
	unsigned runs;
	uint64_t requests, failures, misses, p99_ns, peak_pages, usable_pages, page_bytes;
};

/* The runs of one size, shared by its threads. */
struct size_batch {
	const struct scenario *sc;
	const struct size_args *a;
	uint64_t first_seed;
	atomic_uint next;	/* the next seed to run, from 0 */
	atomic_bool cancel;	/* a seed failed: the size fails, the others stop */
	struct seed_run runs[RUN_MAX_SEEDS];
	bool progress;		/* a line per finished run on stderr */
	uint64_t bytes;
	double start;
};

static double host_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "64M", "1536K" or bytes: what cma= and the table say. */
static const char *size_text(uint64_t bytes, char *buf, size_t len)
{
	if (!(bytes % MiB))
		snprintf(buf, len, "%lluM", (unsigned long long)(bytes / MiB));
	else if (!(bytes % 1024))
		snprintf(buf, len, "%lluK", (unsigned long long)(bytes / 1024));
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

/* cma=@bytes for @sc's runs: the scenario's cma key, put on its command line at boot. */
static void set_cma(struct scenario *sc, uint64_t bytes)
{
	size_text(bytes, sc->cma, sizeof(sc->cma));
}

static void summarize(const struct sim_result *r, struct seed_run *o)
{
	o->stopped = r->stopped;
	o->page_bytes = r->page_bytes;
	o->usable_pages = r->usable_avg_pages;
	for (unsigned i = 0; i < r->nr_devices; i++) {
		const struct device_result *d = &r->devices[i];

		o->requests += d->requests;
		for (int c = 0; c < NR_FAIL_CAUSES; c++)
			o->failures += d->fail[c];
		o->misses += d->deadline_misses;
		if (d->lat.p99 > o->p99_ns)
			o->p99_ns = d->lat.p99;
	}
	o->peak_pages = r->area_peak_pages;
}

static void *seed_worker(void *arg)
{
	struct size_batch *b = arg;
	unsigned i;

	while ((i = atomic_fetch_add(&b->next, 1)) < b->a->nr_seeds) {
		struct seed_run *o = &b->runs[i];
		struct sim_options opt = {
			.policy = sim_policy_find("cma"), .seed = b->first_seed + i, .seed_set = true,
			.duration_ns = b->a->duration_ns, .stop_at_miss = true, .cancel = &b->cancel,
		};
		struct sim_result res;

		if (atomic_load(&b->cancel))
			continue;
		o->ret = sim_run(b->sc, &opt, &res);
		if (o->ret) {
			atomic_store(&b->cancel, true);
			continue;
		}
		summarize(&res, o);
		sim_result_free(&res);
		if (o->misses)
			atomic_store(&b->cancel, true);
		/* a run the others' failure cut short tells nothing */
		o->ran = o->misses || !o->stopped;
		if (b->progress) {
			char num[32];

			fprintf(stderr, "cmasim size: cma=%s seed %llu: %s (%.1f s)\n",
				size_text(b->bytes, num, sizeof(num)), (unsigned long long)opt.seed,
				!o->ran ? "cancelled" : o->misses ? "misses" : "served everything",
				host_now() - b->start);
		}
	}
	return NULL;
}

/* Run the seeds at @bytes into @p: 0, or the first failed sim_run's -errno. */
static int try_size(const struct size_args *a, struct scenario *sc, uint64_t bytes, struct size_point *p)
{
	unsigned nr_threads = a->jobs < a->nr_seeds ? a->jobs : a->nr_seeds, started = 0;
	pthread_t threads[RUN_MAX_SEEDS];	/* at most one per seed */
	struct size_batch *b = calloc(1, sizeof(*b));
	int ret = 0;

	if (!b)
		return -ENOMEM;
	set_cma(sc, bytes);
	b->sc = sc;
	b->a = a;
	b->first_seed = a->seed;
	b->bytes = bytes;
	b->progress = isatty(STDERR_FILENO);
	b->start = host_now();
	for (; started < nr_threads; started++)
		if (pthread_create(&threads[started], NULL, seed_worker, b))
			break;
	if (!started)
		seed_worker(b);
	for (unsigned t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	memset(p, 0, sizeof(*p));
	p->bytes = bytes;
	p->served = true;
	for (unsigned i = 0; i < a->nr_seeds; i++) {
		const struct seed_run *o = &b->runs[i];

		if (o->ret && !ret)
			ret = o->ret;
		if (!o->ran) {
			p->partial = true;
			p->served = false;
			continue;
		}
		p->runs++;
		p->partial |= o->stopped;
		p->served &= !o->misses;
		p->requests += o->requests;
		p->failures += o->failures;
		p->misses += o->misses;
		p->p99_ns = o->p99_ns > p->p99_ns ? o->p99_ns : p->p99_ns;
		p->peak_pages = o->peak_pages > p->peak_pages ? o->peak_pages : p->peak_pages;
		p->usable_pages += o->usable_pages;
		p->page_bytes = o->page_bytes;
	}
	if (p->runs)
		p->usable_pages /= p->runs;
	free(b);
	return ret;
}

/* RAM the scenario's machine has: its memory=, else the platform's banks. */
static uint64_t ram_bytes(const struct scenario *sc, const struct platform *plat)
{
	uint64_t ram = 0;

	if (sc->memory_bytes)
		return sc->memory_bytes;
	for (unsigned i = 0; i < plat->nr_banks; i++)
		ram += plat->banks[i].size;
	return ram;
}

/* Does device workload @w allocate from the default area (no area of its own)? */
static bool uses_default_area(const struct wl_spec *w, const struct platform *plat)
{
	if (w->device.cma_given)
		return !w->device.cma_bytes;
	for (unsigned i = 0; i < plat->nr_devices; i++)
		if (!strcmp(plat->devices[i].name, w->name))
			return !plat->devices[i].cma_size && !plat->devices[i].share[0];
	return true;
}

/* What the devices on the default area hold with all their rings full, in bytes. */
static uint64_t ring_demand(const struct scenario *sc, const struct platform *plat, uint64_t page_bytes)
{
	uint64_t bytes = 0;

	for (unsigned i = 0; i < sc->nr_wl; i++) {
		const struct wl_spec *w = &sc->wl[i];

		if (w->kind->device && uses_default_area(w, plat))
			bytes += w->device.ring * ((w->device.buffer_bytes + page_bytes - 1) / page_bytes * page_bytes);
	}
	return bytes;
}

static void write_table(FILE *out, struct size_point *pts, unsigned nr)
{
	bool partial = false;

	fprintf(out, "%8s  %-8s  %8s  %8s  %6s  %7s  %8s  %10s\n", "cma", "result", "requests", "failures",
		"missed", "p99 ms", "peak MiB", "usable MiB");
	for (unsigned i = 0; i < nr; i++) {
		const struct size_point *p = &pts[i];
		double mib = (double)p->page_bytes / (double)MiB;
		char num[32], reqs[24], fails[24], misses[24], p99[24];

		snprintf(reqs, sizeof(reqs), "%llu%s", (unsigned long long)p->requests, p->partial ? "+" : "");
		snprintf(fails, sizeof(fails), "%llu%s", (unsigned long long)p->failures, p->partial ? "+" : "");
		snprintf(misses, sizeof(misses), "%llu%s", (unsigned long long)p->misses, p->partial ? "+" : "");
		if (p->p99_ns)
			snprintf(p99, sizeof(p99), "%.3f", (double)p->p99_ns / 1e6);
		else
			snprintf(p99, sizeof(p99), "-");
		fprintf(out, "%8s  %-8s  %8s  %8s  %6s  %7s  %8.1f  %10.1f\n", size_text(p->bytes, num, sizeof(num)),
			p->served ? "served" : "misses", reqs, fails, misses, p99, (double)p->peak_pages * mib,
			(double)p->usable_pages * mib);
		partial |= p->partial;
	}
	if (partial)
		fprintf(out, "+: at least; a size's runs stop at the first failed or late request\n");
}

static int point_cmp(const void *x, const void *y)
{
	const struct size_point *a = x, *b = y;

	return a->bytes < b->bytes ? -1 : a->bytes > b->bytes;
}

/* The search's state: sizes tried, the largest failing and smallest serving so far. */
struct search {
	struct size_point pts[MAX_POINTS];
	unsigned nr;
	bool have_fail, have_served;
	uint64_t fail, served;
};

static int search_try(const struct size_args *a, struct scenario *sc, struct search *s, uint64_t bytes)
{
	struct size_point *p = &s->pts[s->nr];
	int ret;

	if (s->nr == MAX_POINTS)
		return -E2BIG;
	ret = try_size(a, sc, bytes, p);
	if (ret)
		return ret;
	s->nr++;
	if (p->served && (!s->have_served || bytes < s->served)) {
		s->served = bytes;
		s->have_served = true;
	} else if (!p->served && (!s->have_fail || bytes > s->fail)) {
		s->fail = bytes;
		s->have_fail = true;
	}
	return 0;
}

static const struct size_point *point_at(const struct search *s, uint64_t bytes)
{
	unsigned i = 0;

	while (i + 1 < s->nr && s->pts[i].bytes != bytes)
		i++;
	return &s->pts[i];
}

/* Is @bytes strictly between what is known to fail and what is known to serve? */
static bool search_open(const struct search *s, uint64_t bytes)
{
	return (!s->have_fail || bytes > s->fail) && (!s->have_served || bytes < s->served);
}

/*
 * The smallest serving multiple of @step up to @max: the demand guess
 * and its neighbour below, the maximum if nothing served yet, then
 * halving the gap. 0 with s->have_served set, or not when nothing up to
 * @max serves; -errno when a run failed.
 */
static int search(const struct size_args *a, struct scenario *sc, uint64_t guess, struct search *s)
{
	uint64_t step = a->step, max = a->max;
	int ret = 0;

	guess = guess > max ? max : (guess + step - 1) / step * step;
	ret = search_try(a, sc, s, guess);
	if (!ret && s->have_served && guess && search_open(s, guess - step))
		ret = search_try(a, sc, s, guess - step);
	if (!ret && !s->have_served && search_open(s, max))
		ret = search_try(a, sc, s, max);
	while (!ret && s->have_served && s->served && search_open(s, s->served - step)) {
		/* sizes in steps strictly between: from (fail + step) to (served - step) */
		uint64_t lo = s->have_fail ? s->fail / step + 1 : 0, hi = s->served / step - 1;

		ret = search_try(a, sc, s, (lo + (hi - lo) / 2) * step);
	}
	return ret;
}

/* One size a process: the table binds its options to these. */
static struct size_args size_args;

static const struct cmd_option size_options[] = {
	OPT_SCENARIO(&size_args.scenario, 1, SCENARIO_OPTION_HELP),
	OPT_PLATFORM(&size_args.platform, 2, PLATFORM_OPTION_HELP),
	OPT_CMDLINE(&size_args.over),
	OPT_SCENARIO_KERNEL(&size_args.over),
	OPT_SET(&size_args.over),
	OPT_REFUSED("cma", "SIZE", "--cma is what size finds: give --step SIZE or --max SIZE"),
	OPT_SEED(&size_args.seed, &size_args.seed_arg, "N", 4,
		 "the first seed (default the scenario's); --seeds N runs it and the N-1 after it\n"
		 "(default 4, at most " RUN_MAX_SEEDS_TEXT "), each size with every seed"),
	OPT_SEEDS(&size_args.nr_seeds, 0, NULL),
	OPT_DURATION(&size_args.duration_ns, NULL, 5, "replaces the scenario's duration (e.g. 30s)"),
	OPT_SIZE("step", &size_args.step, OPT_NONZERO, 6,
		 "sizes tried are multiples of SIZE (default the area alignment, which SIZE\n"
		 "must be a multiple of); --max SIZE is the largest (default half of RAM)"),
	OPT_SIZE("max", &size_args.max, 0, 0, NULL),
	OPT_JOBS(&size_args.jobs, 7, "runs at a time (default the number of online CPUs, at most " RUN_MAX_JOBS_TEXT ")"),
	OPT_HELP_ENTRY,
};

const struct cmd_table size_table = { .opts = OPTS(size_options) };

/*
 * The step (checked against the area alignment) and the maximum in @a:
 * a --max the kernel cannot reserve is refused with its line and what
 * fits; half of RAM, the default, is lowered to what fits.
 */
static int settle_range(struct size_args *a, struct scenario *sc, const struct platform *plat)
{
	uint64_t align = sim_cma_alignment(sc), fit;
	char num[32], num2[32], line[SIM_AREA_LINE_MAX];
	bool max_given = a->max;
	int ret;

	if (!a->step)
		a->step = align;
	if (!align || a->step % align) {
		fprintf(stderr, "cmasim size: --step %s: expected a multiple of the area alignment, %s\n",
			size_text(a->step, num, sizeof(num)), size_text(align, num2, sizeof(num2)));
		return -EINVAL;
	}
	if (!max_given)
		a->max = ram_bytes(sc, plat) / 2;
	a->max = a->max / a->step * a->step;
	set_cma(sc, a->max);
	ret = sim_check_areas(sc, sim_policy_find("cma"), line, sizeof(line));
	if (ret != -ENOSPC)
		return ret;
	ret = sim_cma_fit(sc, &fit);
	if (ret)
		return ret == -ENOSPC ? -EINVAL : ret;
	if (!max_given) {
		a->max = fit / a->step * a->step;
		return 0;
	}
	fprintf(stderr, "cmasim size: --max %s: the kernel cannot reserve cma=%s on platform %s; it said:\n  %s\n",
		size_text(a->max, num, sizeof(num)), num, plat->name, line);
	fprintf(stderr, "cmasim size: the largest cma= that fits: --max %s\n", size_text(fit, num2, sizeof(num2)));
	return -EINVAL;
}

static int size_scenario(struct size_args *a)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct platform *plat = calloc(1, sizeof(*plat));
	struct search *s = calloc(1, sizeof(*s));
	char err[512], num[32], num2[32];
	double start = host_now();
	uint64_t demand;
	unsigned nr_dev = 0, jobs;
	int ret = -ENOMEM;

	if (!sc || !plat || !s)
		goto out;
	ret = load_scenario(a->scenario, sc);
	if (ret)
		goto out;
	if (a->platform)
		snprintf(sc->platform, sizeof(sc->platform), "%s", a->platform);
	ret = scenario_overrides_apply(sc, &a->over, "size");
	if (ret)
		goto out;
	for (unsigned i = 0; i < sc->nr_wl; i++)
		nr_dev += sc->wl[i].kind->device;
	if (!nr_dev) {
		fprintf(stderr, "cmasim size: scenario %s has no device: nothing asks for contiguous memory, so no size is needed\n",
			sc->name);
		ret = -EINVAL;
		goto out;
	}
	if (platform_load(sc->platform, plat, err, sizeof(err))) {
		fprintf(stderr, "cmasim: scenario %s: %s\n", sc->name, err);
		ret = -EINVAL;
		goto out;
	}
	if (!a->seed_arg)
		a->seed = sc->seed;
	ret = settle_range(a, sc, plat);
	if (ret)
		goto out;
	demand = ring_demand(sc, plat, 1ull << (plat->cfg.page_shift ? plat->cfg.page_shift : 12));
	ret = search(a, sc, demand, s);
	if (ret)
		goto out;
	qsort(s->pts, s->nr, sizeof(s->pts[0]), point_cmp);
	printf("scenario %s, platform %s, policy cma, seeds %llu to %llu, duration %.3f s, step %s, max %s\n\n",
	       sc->name, plat->name, (unsigned long long)a->seed,
	       (unsigned long long)(a->seed + a->nr_seeds - 1),
	       (double)(a->duration_ns ? a->duration_ns : sc->duration_ns) / 1e9,
	       size_text(a->step, num, sizeof(num)), size_text(a->max, num2, sizeof(num2)));
	write_table(stdout, s->pts, s->nr);
	if (!demand)
		printf("the devices allocate from CMA areas of their own, not from the default one\n");
	if (s->have_served && !point_at(s, s->served)->requests)
		printf("at cma=%s the devices made no request: does --duration end before they start?\n",
		       size_text(s->served, num, sizeof(num)));
	jobs = a->jobs < a->nr_seeds ? a->jobs : a->nr_seeds;
	printf("\nhost: %.1f s, %u size%s tried with %u seed%s each, %u run%s at a time\n", host_now() - start,
	       s->nr, s->nr == 1 ? "" : "s", a->nr_seeds, a->nr_seeds == 1 ? "" : "s", jobs, jobs == 1 ? "" : "s");
	if (s->have_served) {
		printf("smallest: cma=%s\n", size_text(s->served, num, sizeof(num)));
	} else {
		printf("no size up to cma=%s serves every request with every seed (--max sets the limit)\n",
		       size_text(a->max, num, sizeof(num)));
		ret = -ENOSPC;
	}
	if (fflush(stdout) && !ret)
		ret = -EIO;
out:
	free(s);
	free(plat);
	free(sc);
	return ret;
}

int cmd_size(int argc, char **argv)
{
	struct size_args *a = &size_args;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int ret;

	*a = (struct size_args){ .scenario = SCENARIO_DEFAULT, .nr_seeds = 4 };
	a->jobs = cpus < 1 ? 1 : cpus > RUN_MAX_JOBS ? RUN_MAX_JOBS : (unsigned)cpus;
	ret = opt_parse("size", OPTS(size_options), argc, argv);
	if (ret > 0)
		return cmd_help("size", &size_table,
				"  the smallest cma= (in steps of the area alignment) with which every device\n"
				"  request is served in time with every seed; its last line: smallest: cma=SIZE\n");
	return ret ? ret : size_scenario(a);
}
