// SPDX-License-Identifier: GPL-2.0
/*
 * The global dirty limits (dirty.h), the library's (cma_mm_dirty_limits:
 * each release's dirtyable memory). Departure: between the freerun
 * point, halfway from the background threshold to the limit
 * (dirty_freerun_ceiling), and the limit the kernel paces a task at its
 * estimate of the write bandwidth, where here it runs free until the
 * limit and then waits.
 */
#include "engine/dirty.h"
#include "engine/sim.h"

void dirty_state(struct sim *s, struct dirty_state *d)
{
	cma_mm_dirty_limits(s->mm, &d->bg_thresh, &d->thresh);
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
