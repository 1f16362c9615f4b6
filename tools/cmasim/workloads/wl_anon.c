// SPDX-License-Identifier: GPL-2.0
/*
 * Processes' anonymous memory: a process faults in its resident set at
 * its touch rate, then keeps touching random pages of it (a page reclaim
 * swapped out comes back in: a random read from the storage queue the
 * process waits for, touching nothing more until it completes). It exits
 * after its lifetime; the OOM killer may end it sooner; either way it
 * may start again later.
 * With hot = N%, the touches after the fault-in go to the first N% of
 * the set only, its working set (uniformly within it).
 * With hold, it is bench/kernel/hold.c: it faults its set in once and
 * sleeps, touching nothing more; with fragment, it first gives back
 * every other page (the even ones, as hold.c's MADV_DONTNEED loop).
 * With pfns, its pages first fault in where a device had them (pfns.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "util/inifile.h"
#include "engine/owned.h"
#include "workloads/pfns.h"

struct anon_wl {
	struct owned_pages o;		/* first: owned_of() */
	uint64_t faulted;		/* pages of the resident set faulted in so far */
	double carry;
	bool alive;
	uint64_t exit_at;		/* the pending exit event's time; 0: none */
	uint64_t busy_until;		/* stalled on a swap-in until then */
};

static void anon_tick(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct anon_wl *a = w->priv;
	uint64_t n, t = a->busy_until > sim_now(s) ? a->busy_until : sim_now(s);

	if (sim_wl_over(s, w))
		return;
	n = sim_tick_ops(&a->carry, w->spec->anon.rate);
	if (w->spec->anon.hold && n > a->o.nr - a->faulted)
		n = a->o.nr - a->faulted;
	for (uint64_t i = 0; a->alive && i < n && t < sim_now(s) + SIM_TICK_NS; i++) {
		uint64_t idx = a->faulted < a->o.nr ? a->faulted++ :
			       owned_rand_below(&a->o, owned_hot_pages(&a->o, w->spec->anon.hot));
		bool swap_in = owned_reads(&a->o, idx);
		uint64_t from;
		int ret;

		w->res->ops++;
		from = storage_engine_clock(s);
		ret = owned_touch(&a->o, idx);
		/* the fault's reclaim (its CPU work, its sleeps) holds the process up as long */
		t += storage_engine_clock(s) - from;
		/* killed by the OOM its own fault caused: the page it got dies with it */
		if (ret > 0 && !a->alive)
			owned_release_all(&a->o);
		else if (ret > 0 && swap_in)
			t = owned_swapin_read(&a->o, idx, t);
	}
	a->busy_until = t;
	if (w->spec->anon.hold && a->faulted == a->o.nr) {
		for (uint64_t i = 0; w->spec->anon.fragment && i < a->o.nr; i += 2)
			owned_release(&a->o, i);
		return;		/* in place: sleeps until the run ends */
	}
	sim_schedule(s, sim_now(s) + SIM_TICK_NS, anon_tick, w);
}

static void birth(struct sim *s, void *arg);

/* Exit or OOM kill: everything goes back; maybe a new incarnation later. */
static unsigned long die(struct sim *s, struct workload *w)
{
	struct anon_wl *a = w->priv;
	unsigned long freed = owned_release_all(&a->o);

	a->alive = false;
	a->exit_at = 0;
	if (w->spec->anon.restart_ns)
		sim_schedule(s, sim_now(s) + w->spec->anon.restart_ns, birth, w);
	return freed;
}

static void anon_exit(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct anon_wl *a = w->priv;

	if (a->alive && a->exit_at == sim_now(s))
		die(s, w);
}

static void birth(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct anon_wl *a = w->priv;

	if (a->alive || sim_wl_over(s, w))
		return;
	a->alive = true;
	a->faulted = 0;
	if (w->spec->anon.lifetime_ns) {
		a->exit_at = sim_now(s) + w->spec->anon.lifetime_ns;
		sim_schedule(s, a->exit_at, anon_exit, w);
	}
}

static int anon_start(struct sim *s, struct workload *w)
{
	struct anon_wl *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return -ENOMEM;
	w->priv = a;
	if (owned_init(&a->o, s, w, sim_pages(s, w->spec->anon.rss_bytes), true))
		return -ENOMEM;
	if (w->spec->anon.pfns[0] && (ret = pfns_place(&a->o, w->spec->anon.pfns)))
		return ret;
	sim_schedule(s, w->spec->start_ns, birth, w);
	sim_schedule(s, w->spec->start_ns, anon_tick, w);
	return 0;
}

static unsigned long anon_kill(struct sim *s, struct workload *w)
{
	struct anon_wl *a = w->priv;

	if (!a || !a->alive || !a->o.resident)
		return 0;
	w->res->oom_kills++;
	return die(s, w);
}

static uint64_t anon_resident(const struct workload *w)
{
	const struct anon_wl *a = w->priv;

	return a ? a->o.resident : 0;
}

/* Alive and not a holding process asleep on what it faulted in. */
static bool anon_awake(const struct workload *w)
{
	const struct anon_wl *a = w->priv;

	return a && a->alive && !(w->spec->anon.hold && a->faulted == a->o.nr);
}

/* Its threads while awake: as given, or the CPUs its touch rate keeps busy (sim_rate_threads). */
static unsigned anon_runnable(const struct sim *s, const struct workload *w)
{
	const struct wl_anon *spec = &w->spec->anon;

	if (!anon_awake(w))
		return 0;
	return spec->threads_given ? spec->threads : sim_rate_threads(s, spec->rate);
}

/* Its address space is on a CPU while it is awake, one at least however little it touches. */
static unsigned anon_mm_runnable(const struct sim *s, const struct workload *w, const void *owner)
{
	unsigned threads = anon_runnable(s, w);

	return threads ? threads : anon_awake(w);
}

static const struct workload_ops anon_ops = {
	.start = anon_start,
	.stop = owned_stop,
	.kill = anon_kill,
	.resident = anon_resident,
	.runnable = anon_runnable,
	.mm_runnable = anon_mm_runnable,
};

static const struct scenario_key anon_keys[] = {
	{ .name = "rss", .type = KEY_SIZE, .offset = WL(anon.rss_bytes), .max = SIM_MAX_BYTES, .required = true },
	{ .name = "rate", .type = KEY_UINT, .offset = WL(anon.rate), .max = 100000000, .required = true },
	{ .name = "lifetime", .type = KEY_DURATION, .offset = WL(anon.lifetime_ns) },
	{ .name = "restart", .type = KEY_DURATION, .offset = WL(anon.restart_ns) },
	{ .name = "threads", .type = KEY_U32, .offset = WL(anon.threads), .max = 4096,
	  .given = WL(anon.threads_given) },
	{ .name = "hold", .type = KEY_BOOL, .offset = WL(anon.hold) },
	{ .name = "fragment", .type = KEY_BOOL, .offset = WL(anon.fragment) },
	{ .name = "hot", .type = KEY_PERCENT, .offset = WL(anon.hot), .given = WL(anon.hot_given) },
	{ .name = "pfns", .type = KEY_FILE, .offset = WL(anon.pfns), .size = sizeof(((struct wl_anon *)0)->pfns) },
};

static int anon_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	if (!w->anon.rss_bytes)
		return ini_fail(err, len, "[%s %s]: rss = 0: give the process some memory", w->kind->name, w->name);
	if (w->anon.hold && (w->anon.lifetime_ns || w->anon.restart_ns))
		return ini_fail(err, len, "[%s %s]: hold faults the memory in once and keeps it: drop lifetime and restart",
				w->kind->name, w->name);
	if (w->anon.hot_given && !w->anon.hot)
		return ini_fail(err, len, "[%s %s]: hot = 0: no page would be touched after the fault-in; give 1 to 100 (percent)",
				w->kind->name, w->name);
	if (w->anon.fragment && !w->anon.hold)
		return ini_fail(err, len, "[%s %s]: fragment gives back every other page once they are in place: add hold = yes",
				w->kind->name, w->name);
	if (w->anon.pfns[0])
		return pfns_check(w, w->anon.pfns, "rss", w->anon.rss_bytes, err, len);
	return 1;
}

const struct wl_kind wl_kind_anon = {
	.name = "anon",
	.ops = &anon_ops,
	WL_KEYS(anon_keys),
	.owned = true,
	.check = anon_check,
};
