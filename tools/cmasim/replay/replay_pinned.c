// SPDX-License-Identifier: GPL-2.0
/*
 * The pages the kernel could not move, rebuilt from the trace and a
 * snapshot. test_pages_isolated names one frame of each busy range
 * (fin_pfn); the blocks the range's migration scanned say how many more
 * there were. 6.12's isolate_migratepages_block leaves untaken an
 * anonymous page holding more references than mappings (a pin: an
 * unread pipe's, O_DIRECT's), as migration would fail on it; so of the
 * snapshot's anonymous pages in such a block, as many as the kernel did
 * not take were pinned. Which ones the trace does not say: they are
 * counted from the range's busy frame where the block holds it.
 */
#include <errno.h>
#include <stdlib.h>

#include "replay/replay.h"

/* Is @pfn one of @bg's anonymous pages? (its runs in pfn order) */
static bool anon_at(const struct replay_background *bg, unsigned long pfn)
{
	size_t lo = 0, hi = bg->nr_anon_at;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct replay_pfn_run *r = &bg->anon_at[mid];

		if (pfn < r->first)
			hi = mid;
		else if (pfn >= r->first + r->count)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

struct pfn_set {
	unsigned long *pfn;
	size_t nr, cap;
};

static int add_pfn(struct pfn_set *s, unsigned long pfn)
{
	unsigned long *room = replay_room(s->pfn, &s->cap, s->nr, sizeof(*room));

	if (!room)
		return -ENOMEM;
	s->pfn = room;
	room[s->nr++] = pfn;
	return 0;
}

/* Where block @b's pins are counted from: the first busy frame it holds, else its start. */
static unsigned long block_from(const struct replay_trace *t, const struct replay_scan *b)
{
	unsigned long from = b->hi;

	for (size_t i = 0; i < t->nr_busy; i++)
		if (t->busy[i] >= b->lo && t->busy[i] < from)
			from = t->busy[i];
	return from < b->hi ? from : b->lo;
}

/* Block @b's anonymous pages the kernel did not take, into @s. */
static int block_pinned(const struct replay_background *bg, const struct replay_trace *t,
			const struct replay_scan *b, struct pfn_set *s)
{
	unsigned long anon = 0, from = block_from(t, b), span = b->hi - b->lo;
	int ret = 0;

	for (unsigned long pfn = b->lo; pfn < b->hi; pfn++)
		anon += anon_at(bg, pfn);
	for (unsigned long i = 0; i < span && anon > b->taken && !ret; i++) {
		unsigned long pfn = b->lo + (from - b->lo + i) % span;

		if (anon_at(bg, pfn)) {
			ret = add_pfn(s, pfn);
			anon--;
		}
	}
	return ret;
}

static int cmp_pfn(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

/* @s's frames, sorted, as runs into *@runs, *@nr: 0 or -ENOMEM. */
static int set_runs(struct pfn_set *s, struct replay_pfn_run **runs, size_t *nr)
{
	size_t cap = 0;
	int ret = 0;

	*runs = NULL;
	*nr = 0;
	qsort(s->pfn, s->nr, sizeof(*s->pfn), cmp_pfn);
	for (size_t i = 0; i < s->nr && !ret; i++)
		ret = replay_run_add(runs, nr, &cap, s->pfn[i]);
	return ret;
}

int replay_pinned(const struct replay_background *bg, const struct replay_trace *t,
		  struct replay_pfn_run **runs, size_t *nr)
{
	struct pfn_set s = { 0 };
	int ret = 0;

	for (size_t i = 0; i < t->nr_busy && !ret; i++)
		ret = add_pfn(&s, t->busy[i]);
	for (size_t i = 0; i < t->nr_untaken && !ret; i++)
		ret = block_pinned(bg, t, &t->untaken[i], &s);
	if (!ret)
		ret = set_runs(&s, runs, nr);
	free(s.pfn);
	if (ret) {
		free(*runs);
		*runs = NULL;
		*nr = 0;
	}
	return ret;
}
