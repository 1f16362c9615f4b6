// SPDX-License-Identifier: GPL-2.0
/*
 * The run's machine: the scenario's platform with the scenario's
 * overrides (memory, command line, Kconfig, swap, costs) and its devices
 * placed, ready for the policy's prepare() and the boot.
 */
#include <errno.h>
#include <string.h>

#include "sim.h"

static int load_platform(struct sim *s)
{
	const struct platform *builtin = platform_builtin(s->sc->platform);
	char err[512];

	if (builtin) {
		s->plat = *builtin;
		return 0;
	}
	if (platform_read_file(s->sc->platform, &s->plat, err, sizeof(err))) {
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

int machine_prepare(struct sim *s)
{
	const struct scenario *sc = s->sc;
	struct platform *p = &s->plat;
	int ret = load_platform(s);

	if (ret)
		return ret;
	if (sc->memory_bytes) {
		p->banks[0].size = sc->memory_bytes;
		p->nr_banks = 1;
	}
	if (sc->cmdline_set)
		snprintf(p->cmdline, sizeof(p->cmdline), "%s", sc->cmdline);
	if (sc->kconfig_set)
		snprintf(p->kconfig, sizeof(p->kconfig), "%s", sc->kconfig);
	if (sc->swap_bytes)
		p->cfg.swap_bytes = sc->swap_bytes;
	p->cfg.metadata_only = true;	/* the simulation never looks at the bytes */
	p->cfg.quiet = true;		/* the boot's errors are in the log; a run fails loudly */
	cost_profile(p->cfg.arch, &s->cost);
	for (int i = 0; i < NR_COST_FIELDS; i++)
		if (sc->cost_set[i])
			s->cost.v[i] = sc->cost.v[i];
	for (unsigned i = 0; i < sc->nr_wl; i++) {
		int d = sc->wl[i].kind == &wl_kind_device ? platform_device_of(s, &sc->wl[i]) : 0;

		if (d < 0)
			return d;
		s->dev_of_wl[i] = (unsigned)d;
	}
	return 0;
}
