/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's global dirty limits (mm/page-writeback.c): shares of the
 * dirtyable memory as each release counts it (the library's
 * cma_mm_dirty_limits). Above the background
 * threshold the flusher writes back whatever is dirty; a task that would
 * dirty more while the dirty and writeback pages reach the dirty limit
 * waits in balance_dirty_pages for writes to complete.
 */
#ifndef CMASIM_DIRTY_H
#define CMASIM_DIRTY_H

#include <stdint.h>

struct sim;

struct dirty_state {
	uint64_t thresh;		/* vm_dirty_ratio of the dirtyable memory */
	uint64_t bg_thresh;		/* dirty_background_ratio of it */
	uint64_t dirty;			/* NR_FILE_DIRTY */
	uint64_t writeback;		/* NR_WRITEBACK */
};

/* The machine's dirty pages and limits now. */
void dirty_state(struct sim *s, struct dirty_state *d);
/* Pages a task may still dirty before it is held at the limit (0: held). */
uint64_t dirty_room(const struct dirty_state *d);
/* Dirty pages over the background threshold: what background writeback must clean. */
uint64_t dirty_over_background(const struct dirty_state *d);

#endif
