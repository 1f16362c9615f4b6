/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Owned pages: a workload's table from index (file offset or virtual
 * page) to its movable page, and the owner callbacks through which the
 * library migrates, reclaims and writes those pages back.
 */
#ifndef CMASIM_OWNED_H
#define CMASIM_OWNED_H

#include "sim.h"

enum {
	OP_EVER		= 1u << 0,	/* was resident once: bringing it back is a refault */
	OP_DIRTY	= 1u << 1,
};

struct owned_pages {
	struct sim *s;
	struct workload *w;
	enum mem_class cls;
	bool anon;
	uint64_t nr;
	struct cma_page **page;
	uint8_t *state;
	uint32_t *dirtied_ms;		/* virtual time the page was dirtied, for writeback */
	uint64_t resident;
};

int owned_init(struct owned_pages *o, struct sim *s, struct workload *w, uint64_t nr, bool anon);
void owned_destroy(struct owned_pages *o);
/* Use page @idx: 0 if resident, 1 if it had to be brought in, -ENOMEM. */
int owned_touch(struct owned_pages *o, uint64_t idx);
/* Give back page @idx if resident (MADV_DONTNEED): 1 if it was, else 0. */
uint64_t owned_release(struct owned_pages *o, uint64_t idx);
/* Give back every resident page (truncate, exit, OOM kill); the pages freed. */
uint64_t owned_release_all(struct owned_pages *o);
/* The table of a pagecache, writer or anon workload; NULL for other kinds. */
struct owned_pages *owned_of(struct workload *w);

#endif
