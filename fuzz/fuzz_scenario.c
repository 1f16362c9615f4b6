// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_scenario: cmasim's scenario reader (tools/cmasim/scenario/scenario_file.c,
 * scenario_parse) on arbitrary text, and a short run of what it accepts.
 *
 * Expect: 0 with a scenario whose counts, names and references are within
 * their arrays, or -1 with a one-line message; a scenario on a built-in
 * platform with at most 256 MiB of memory then runs for 50 ms of virtual
 * time under each policy: sim_run returns 0 or -errno, the machine passes
 * cma_mm_verify at the end (sim_run returns -EIO otherwise, and that is a
 * finding when the boot succeeded), and everything is freed
 * (LeakSanitizer checks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim_api.h"
#include "policies/registry.h"

#define FUZZ_TARGET "fuzz_scenario"
#include "fuzz_check.h"

#define MAX_RUN_MEMORY	(256ull << 20)
#define MAX_RUN_PAGES	(1ull << 20)	/* per workload table: 4 GiB of 4 KiB pages */

/* Is @k one of the registered workload kinds? */
static bool registered(const struct wl_kind *k)
{
	for (unsigned i = 0; i < wl_nr_kinds(); i++)
		if (wl_kind(i) == k)
			return true;
	return false;
}

static bool is(const struct wl_spec *w, const char *kind)
{
	return !strcmp(w->kind->name, kind);
}

static void check_scenario(const struct scenario *sc)
{
	if (sc->nr_wl > SIM_MAX_WORKLOADS || sc->nr_snapshots > SIM_MAX_SNAPSHOTS)
		fail("scenario with %u workloads, %u snapshots", sc->nr_wl, sc->nr_snapshots);
	if (!terminated(sc->name, sizeof(sc->name)) || !terminated(sc->platform, sizeof(sc->platform)) ||
	    !terminated(sc->cmdline, sizeof(sc->cmdline)) || !terminated(sc->kconfig, sizeof(sc->kconfig)) ||
	    !terminated(sc->description, sizeof(sc->description)))
		fail("scenario with an unterminated text field");
	if (!sc->duration_ns || !sc->nr_wl || !sc->platform[0])
		fail("scenario accepted without a duration, a workload or a platform");
	for (unsigned i = 0; i < sc->nr_wl; i++) {
		const struct wl_spec *w = &sc->wl[i];

		if (!registered(w->kind) || !w->name[0] || !terminated(w->name, sizeof(w->name)))
			fail("workload %u: bad kind or name", i);
		if (is(w, "pinner") && (w->pinner.target_idx < 0 || (unsigned)w->pinner.target_idx >= sc->nr_wl))
			fail("pinner %s: unresolved target", w->name);
		if (is(w, "device") && (!w->device.ring || !w->device.period_ns || !w->device.buffer_bytes))
			fail("device %s accepted with a zero size, period or ring", w->name);
	}
}

/* Small enough to run in a fuzzing iteration. */
static bool runnable(const struct scenario *sc)
{
	if (!platform_builtin(sc->platform) || !sc->memory_bytes || sc->memory_bytes > MAX_RUN_MEMORY)
		return false;
	for (unsigned i = 0; i < sc->nr_wl; i++) {
		const struct wl_spec *w = &sc->wl[i];
		uint64_t bytes = is(w, "anon") ? w->anon.rss_bytes :
				 is(w, "pagecache") || is(w, "writer") ? w->file.file_bytes : 0;

		if (bytes / 4096 > MAX_RUN_PAGES || w->file.rate > 1000000)
			return false;
		if (is(w, "device") && (w->device.buffer_bytes > MAX_RUN_MEMORY || w->device.ring > 16 ||
					     w->device.period_ns < 1000000))
			return false;
		if (is(w, "slab") && w->slab.rate > 100000)
			return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scenario sc;
	char *text = malloc(size + 1), err[768];
	int ret;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	memset(err, 'X', sizeof(err));
	ret = scenario_parse(NULL, text, &sc, err, sizeof(err));
	free(text);
	if (ret == -1) {
		if (!terminated(err, sizeof(err)) || !err[0] || !one_line(err))
			fail("scenario_parse failed without a one-line message");
		return 0;
	}
	if (ret)
		fail("scenario_parse returned %d, expected 0 or -1", ret);
	check_scenario(&sc);
	if (!runnable(&sc))
		return 0;
	for (unsigned p = 0; p < sim_nr_policies(); p++) {
		struct sim_options o = { .policy = sim_policy(p), .duration_ns = 50000000 };
		struct sim_result r;

		ret = sim_run(&sc, &o, &r);
		if (ret > 0 || ret < -4095)
			fail("sim_run returned %d under %s, expected 0 or -errno", ret, o.policy->name);
		if (!ret)
			sim_result_free(&r);
	}
	return 0;
}
