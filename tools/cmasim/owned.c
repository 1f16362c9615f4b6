// SPDX-License-Identifier: GPL-2.0
/*
 * Owned pages and their owner callbacks. The library calls back with the
 * page and the index it was given; a page whose slot no longer holds it
 * (released while a pinner still had it) is refused, as a truncated
 * page's mapping would be gone.
 */
#include <errno.h>
#include <stdlib.h>

#include "owned.h"

static bool ours(struct owned_pages *o, uint64_t idx, struct cma_page *page)
{
	return idx < o->nr && o->page[idx] == page;
}

static int owned_migrate(void *owner, uint64_t idx, struct cma_page *from, struct cma_page *to)
{
	struct owned_pages *o = owner;

	if (!ours(o, idx, from))
		return -EAGAIN;
	o->page[idx] = to;
	return 0;
}

static void forget(struct owned_pages *o, uint64_t idx)
{
	o->page[idx] = NULL;
	o->state[idx] &= (uint8_t)~OP_DIRTY;
	o->resident--;
	o->s->class_pages[o->cls]--;
}

static int owned_reclaim(void *owner, uint64_t idx, struct cma_page *page)
{
	struct owned_pages *o = owner;

	if (!ours(o, idx, page))
		return -EBUSY;
	forget(o, idx);
	return 0;
}

static int owned_writeback(void *owner, uint64_t idx, struct cma_page *page)
{
	struct owned_pages *o = owner;

	if (!ours(o, idx, page))
		return -EIO;
	o->state[idx] &= (uint8_t)~OP_DIRTY;
	return 0;
}

static const struct cma_owner_ops file_ops = {
	.migrate = owned_migrate, .reclaim = owned_reclaim, .writeback = owned_writeback,
};

static const struct cma_owner_ops anon_ops = {
	.migrate = owned_migrate, .reclaim = owned_reclaim, .writeback = owned_writeback,
	.anon = true,
};

int owned_init(struct owned_pages *o, struct sim *s, struct workload *w, uint64_t nr, bool anon)
{
	o->s = s;
	o->w = w;
	o->anon = anon;
	o->cls = anon ? MC_ANON : MC_PAGECACHE;
	o->nr = nr;
	o->resident = 0;
	o->page = calloc(nr ? nr : 1, sizeof(*o->page));
	o->state = calloc(nr ? nr : 1, sizeof(*o->state));
	o->dirtied_ms = calloc(nr ? nr : 1, sizeof(*o->dirtied_ms));
	return o->page && o->state && o->dirtied_ms ? 0 : -ENOMEM;
}

int owned_touch(struct owned_pages *o, uint64_t idx)
{
	struct sim *s = o->s;
	struct cma_page *page;

	if (o->page[idx])
		return 0;
	page = cma_alloc_movable(s->mm, CMA_GFP_HIGHUSER_MOVABLE, 0, o->anon ? &anon_ops : &file_ops,
				 o, idx);
	if (!page) {
		o->w->res->alloc_failures++;
		return -ENOMEM;
	}
	o->page[idx] = page;
	o->resident++;
	s->class_pages[o->cls]++;
	o->w->res->misses++;
	if (!o->anon && (o->state[idx] & OP_EVER))
		o->w->res->refaults++;
	o->state[idx] |= OP_EVER;
	return 1;
}

uint64_t owned_release(struct owned_pages *o, uint64_t idx)
{
	struct cma_page *page = o->page[idx];

	if (!page)
		return 0;
	forget(o, idx);
	cma_free_pages(o->s->mm, page, 0);
	return 1;
}

uint64_t owned_release_all(struct owned_pages *o)
{
	uint64_t freed = 0;

	for (uint64_t i = 0; i < o->nr && o->resident; i++)
		freed += owned_release(o, i);
	return freed;
}

void owned_destroy(struct owned_pages *o)
{
	owned_release_all(o);
	free(o->page);
	free(o->state);
	free(o->dirtied_ms);
	o->page = NULL;
	o->state = NULL;
	o->dirtied_ms = NULL;
}

struct owned_pages *owned_of(struct workload *w)
{
	return w->spec->kind->owned ? w->priv : NULL;
}
