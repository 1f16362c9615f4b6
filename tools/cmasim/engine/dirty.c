// SPDX-License-Identifier: GPL-2.0
/*
 * The global dirty limits (dirty.h) from the machine's counters.
 * Departures: totalreserve_pages is not taken off the free pages (the
 * library does not export it; it is the zones' high watermarks and
 * reserves, about 1% of memory), nor highmem (vm_highmem_is_dirtyable:
 * the boards here have none); between the freerun point, halfway from the
 * background threshold to the limit (dirty_freerun_ceiling), and the limit
 * the kernel paces a task at its estimate of the write bandwidth, where
 * here it runs free until the limit and then waits.
 */
#include "engine/dirty.h"
#include "engine/sim.h"

/* The kernel's defaults, vm.dirty_ratio and vm.dirty_background_ratio (percent). */
static const unsigned vm_dirty_ratio = 20;
static const unsigned dirty_background_ratio = 10;

void dirty_state(struct sim *s, struct dirty_state *d)
{
	/* global_dirtyable_memory: never 0 */
	uint64_t avail = sim_counter(s, "nr_free_pages") + sim_counter(s, "nr_inactive_file") +
			 sim_counter(s, "nr_active_file") + 1;

	/* domain_dirty_limits */
	d->thresh = avail * vm_dirty_ratio / 100;
	d->bg_thresh = avail * dirty_background_ratio / 100;
	d->dirty = sim_counter(s, "nr_dirty");
	d->writeback = sim_counter(s, "nr_writeback");
}

uint64_t dirty_room(const struct dirty_state *d)
{
	uint64_t used = d->dirty + d->writeback;

	return used < d->thresh ? d->thresh - used : 0;
}

uint64_t dirty_over_background(const struct dirty_state *d)
{
	return d->dirty > d->bg_thresh ? d->dirty - d->bg_thresh : 0;
}
