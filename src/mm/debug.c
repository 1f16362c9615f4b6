// SPDX-License-Identifier: GPL-2.0
/*
 * The DEBUG_VM of libcma: validators for one object each, which expect the
 * lock that protects it to be held by the caller, and cma_mm_verify(),
 * which takes every lock and runs them all.
 *
 *   verify_zone_locked        one zone's free lists and free counters, and
 *                             its watermarks (zone->lock)
 *   verify_pcp_locked         one CPU slot's per-CPU lists (slot->lock)
 *   verify_lru_locked         one zone's LRU lists and counters (lru_lock)
 *   verify_pageblocks         the pageblock types of a pfn range and, over
 *                             the machine, the isolation count (cma_mutex)
 *
 * The LRU validator expects mlocked pages on LRU_UNEVICTABLE. The zone
 * validator also finds a free block lying partly in ISOLATE
 * pageblocks: isolation splits such a block first.
 *
 * cma_mm_verify() also accounts for each valid pfn exactly once (free in
 * one buddy list, free on one per-CPU list, allocated, or reserved) and
 * checks the two CMA rules on allocated pages: no unmovable or reclaimable
 * allocation inside a CMA pageblock. The equations checked are written
 * beside the structures in mmzone.h. At CMA_DEBUG=2 the validators also run
 * where a structure changes state (VM_VERIFY_* in internal.h), so that a
 * failure names the transition that broke the invariant.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "lib/bitmap.h"
#include "mm/cma.h"
#include "mm/internal.h"

enum pfn_state { PFN_UNSEEN, PFN_BUDDY, PFN_PCP, PFN_ALLOC, PFN_RESERVED };

static const char *const state_names[] = { "unseen", "buddy", "pcp", "allocated", "reserved" };

struct verifier {
	struct cma_mm *mm;
	const char *where;			/* the transition checked, or NULL */
	cma_verify_fn fn;			/* also gets each report, or NULL */
	void *ctx;
	uint8_t *state;				/* per pfn; NULL: no pfn accounting */
	int errors;
	unsigned long on_lru, flagged_lru;	/* pages on LRU lists / with PG_lru */
	long isolated[2], flagged_isolated[2];	/* anon, file */
	long owned[2];				/* pages of owners: anon, file */
	long mlocked;				/* of those, mlocked */
	long writeback;				/* of those, under writeback */
	long swapcache;				/* of those, pages holding a swap slot */
};

#define MAX_REPORTS 20

__attribute__((format(printf, 2, 3)))
static void report(struct verifier *v, const char *fmt, ...)
{
	char line[256], text[320];
	va_list ap;

	if (v->errors++ >= MAX_REPORTS)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (v->where)
		snprintf(text, sizeof(text), "after %s: %s", v->where, line);
	else
		snprintf(text, sizeof(text), "%s", line);
	cma_mm_pr_err(v->mm, "cma_mm_verify: %s\n", text);
	if (v->fn)
		v->fn(v->ctx, text);
}

/* Claim [pfn, pfn + nr) for @state; each pfn may be claimed once. */
static void claim(struct verifier *v, unsigned long pfn, unsigned long nr, enum pfn_state state,
		  struct zone *zone)
{
	struct cma_mm *mm = v->mm;

	if (!v->state)
		return;
	for (unsigned long p = pfn; p < pfn + nr; p++) {
		uint8_t *s;

		if (p < mm->base_pfn || p >= mm->end_pfn || !pfn_valid(mm, p)) {
			report(v, "pfn %#lx (%s) is not a valid pfn", p, state_names[state]);
			continue;
		}
		if (zone && !zone_spans_pfn(zone, p)) {
			report(v, "pfn %#lx (%s) lies outside zone %s", p, state_names[state], zone->name);
		}
		s = &v->state[p - mm->base_pfn];
		if (*s != PFN_UNSEEN)
			report(v, "pfn %#lx is both %s and %s", p, state_names[*s], state_names[state]);
		else
			*s = state;
	}
}

/* Rule 1 for free pages: list type CMA <=> pageblock CMA (or ISOLATE). */
static void check_free_block_types(struct verifier *v, unsigned long pfn, unsigned long nr, int mt,
				   const char *where)
{
	struct cma_mm *mm = v->mm;

	for (unsigned long p = pfn & ~(mm->pageblock_nr_pages - 1); p < pfn + nr;
	     p += mm->pageblock_nr_pages) {
		int bt = get_pageblock_migratetype(mm, p);

		if (bt == MIGRATE_CMA && mt != MIGRATE_CMA && mt != MIGRATE_ISOLATE)
			report(v, "free pfn %#lx of a CMA pageblock is on the %s %s list", pfn,
			       where, migratetype_name(mt));
		if (mt == MIGRATE_CMA && bt != MIGRATE_CMA && bt != MIGRATE_ISOLATE)
			report(v, "pfn %#lx on the %s CMA list lies in a %s pageblock", pfn, where,
			       migratetype_name(bt));
	}
}

/*
 * kernel.highatomic: 6.12 keeps every free buddy block on its pageblock's
 * lists (isolation aside), so that a HIGHATOMIC block's free pages are
 * its reserve and nobody else's.
 */
static void check_free_block_home(struct verifier *v, unsigned long pfn, unsigned order, int mt)
{
	struct cma_mm *mm = v->mm;

	if (!mm->kernel.highatomic || mt == MIGRATE_ISOLATE)
		return;
	for (unsigned long p = pfn & ~(mm->pageblock_nr_pages - 1); p < pfn + (1ul << order);
	     p += mm->pageblock_nr_pages) {
		int bt = get_pageblock_migratetype(mm, p);

		if (bt != mt && bt != MIGRATE_ISOLATE)
			report(v, "free pfn %#lx on the %s list lies in a %s pageblock", pfn,
			       migratetype_name_of(mm, mt), migratetype_name_of(mm, bt));
	}
}

/*
 * Isolation is pageblock-granular: a free block is wholly inside ISOLATE
 * pageblocks or wholly outside them, else part of it is allocatable
 * while isolated, or held back while not.
 */
static void check_free_block_isolation(struct verifier *v, unsigned long pfn, unsigned order)
{
	struct cma_mm *mm = v->mm;
	bool isolated = get_pageblock_migratetype(mm, pfn) == MIGRATE_ISOLATE;

	for (unsigned long p = pfn + mm->pageblock_nr_pages; p < pfn + (1ul << order);
	     p += mm->pageblock_nr_pages)
		if ((get_pageblock_migratetype(mm, p) == MIGRATE_ISOLATE) != isolated) {
			report(v, "free order-%u block at pfn %#lx is partly in ISOLATE pageblocks (pfn %#lx)",
			       order, pfn, p);
			return;
		}
}

/* The tail pages of a free block (buddy or pcp) have only the zone, and no count. */
static void check_free_block_tails(struct verifier *v, struct cma_page *page, unsigned order)
{
	uint32_t zone_bits = page_flags(page) & PG_ZONE_MASK;

	if (!v->state)
		return;		/* the tails cost a walk of every free page: full verify only */
	for (unsigned long i = 1; i < (1ul << order); i++)
		if (page_flags(page + i) != zone_bits || page_count(page + i))
			report(v, "pfn %#lx inside a free order-%u block has flags %#x count %d",
			       page_to_pfn(v->mm, page + i), order, page_flags(page + i),
			       page_count(page + i));
}

/* A free block's head has PG_buddy, its order and zone; the rest only the zone. */
static void check_free_block_flags(struct verifier *v, struct cma_page *page, unsigned order)
{
	uint32_t zone_bits = page_flags(page) & PG_ZONE_MASK;

	if (page_flags(page) != (zone_bits | PG_buddy | (order << PG_ORDER_SHIFT)) || page_count(page))
		report(v, "free block head pfn %#lx has flags %#x count %d",
		       page_to_pfn(v->mm, page), page_flags(page), page_count(page));
	check_free_block_tails(v, page, order);
}

/* A head on the lists has its bit in zone->free_heads. */
static void check_free_head_bit(struct verifier *v, struct zone *zone, unsigned long pfn)
{
	if (pfn - zone->zone_start_pfn < zone->spanned_pages &&
	    !test_bit(pfn - zone->zone_start_pfn, zone->free_heads))
		report(v, "zone %s: free block head pfn %#lx has no free_heads bit", zone->name, pfn);
}

/*
 * block_heads[b] == the free_heads bits of the zone's pageblock b; its
 * head_blocks bit says whether that is not 0, its target_blocks bit
 * whether the block's type is MOVABLE or CMA.
 */
static void check_block_heads(struct verifier *v, struct zone *zone)
{
	unsigned long mask = v->mm->pageblock_nr_pages - 1, base = zone->zone_start_pfn;
	unsigned long span = zone->spanned_pages;

	for (unsigned long pfn = base; pfn < base + span; pfn = (pfn | mask) + 1) {
		unsigned long last = ((pfn | mask) + 1 < base + span ? (pfn | mask) + 1 : base + span) - base;
		unsigned long bits = 0, b = zone_block_index(zone, pfn);
		int mt = get_pageblock_migratetype(v->mm, pfn);

		for (unsigned long i = find_next_bit(zone->free_heads, last, pfn - base); i < last;
		     i = find_next_bit(zone->free_heads, last, i + 1))
			bits++;
		if (bits != zone->block_heads[b])
			report(v, "zone %s: pageblock of pfn %#lx has %lu free_heads bits, block_heads %u",
			       zone->name, pfn, bits, zone->block_heads[b]);
		if (test_bit(b, zone->head_blocks) != (zone->block_heads[b] != 0))
			report(v, "zone %s: pageblock of pfn %#lx has block_heads %u, head_blocks bit %d",
			       zone->name, pfn, zone->block_heads[b], test_bit(b, zone->head_blocks));
		if (test_bit(b, zone->target_blocks) != migrate_async_suitable(mt))
			report(v, "zone %s: pageblock of pfn %#lx has type %d, target_blocks bit %d",
			       zone->name, pfn, mt, test_bit(b, zone->target_blocks));
	}
}

/* weight(free_heads) == sum of nr_free[o]: with the bits of the heads listed, no other bit is set. */
static void check_free_heads(struct verifier *v, struct zone *zone)
{
	unsigned long blocks = 0, bits = zone->spanned_pages ?
		bitmap_weight(zone->free_heads, zone->spanned_pages) : 0;

	for (unsigned o = 0; o < v->mm->max_order; o++)
		blocks += zone->free_area[o].nr_free;
	if (bits != blocks)
		report(v, "zone %s: %lu free_heads bits but nr_free sums to %lu blocks", zone->name,
		       bits, blocks);
	check_block_heads(v, zone);
}

/*
 * free_pages == the pages on the lists (from 3.7 all but the ISOLATE
 * ones, kernel.isolated_free_uncounted); likewise free_cma.
 */
static void check_free_lists(struct verifier *v, struct zone *zone)
{
	struct cma_mm *mm = v->mm;
	unsigned long free = 0, free_cma = 0, free_ha = 0, limit = mm->end_pfn - mm->base_pfn;

	for (unsigned o = 0; o < mm->max_order; o++) {
		unsigned long blocks = 0;

		for (int t = 0; t < MIGRATE_TYPES; t++) {
			const struct page_list *l = &zone->free_area[o].free_list[t];
			uint32_t prev = PAGE_NIL, walked = 0;

			for (struct cma_page *page = page_list_first(mm, l); page;
			     page = page_list_next(mm, page)) {
				unsigned long pfn = page_to_pfn(mm, page);

				if (++walked > limit) {
					report(v, "zone %s order %u %s list loops", zone->name, o,
					       migratetype_name(t));
					break;
				}
				if (page->prev != prev)
					report(v, "pfn %#lx: broken prev link", pfn);
				prev = page_idx(mm, page);
				if (!page_test(page, PG_buddy) || page_order(page) != o ||
				    page->private != (uint64_t)t || page_zonenum(page) != (unsigned)zone->idx)
					report(v, "pfn %#lx on zone %s order %u %s list: flags %#x private %llu",
					       pfn, zone->name, o, migratetype_name(t), page_flags(page),
					       (unsigned long long)page->private);
				if (pfn & ((1ul << o) - 1))
					report(v, "pfn %#lx misaligned for order %u", pfn, o);
				check_free_block_flags(v, page, o);
				check_free_head_bit(v, zone, pfn);
				claim(v, pfn, 1ul << o, PFN_BUDDY, zone);
				check_free_block_types(v, pfn, 1ul << o, t, "buddy");
				check_free_block_home(v, pfn, o, t);
				check_free_block_isolation(v, pfn, o);
				blocks++;
				if (t != MIGRATE_ISOLATE || !mm->kernel.isolated_free_uncounted)
					free += 1ul << o;
				if (t == MIGRATE_CMA)
					free_cma += 1ul << o;
				if (t == MIGRATE_HIGHATOMIC)
					free_ha += 1ul << o;
			}
			if (l->tail != prev)
				report(v, "zone %s order %u %s list: tail is not the last page",
				       zone->name, o, migratetype_name(t));
		}
		if (blocks != zone->free_area[o].nr_free)
			report(v, "zone %s order %u: nr_free %lu but %lu blocks on the lists",
			       zone->name, o, zone->free_area[o].nr_free, blocks);
	}
	if (free != zone_page_state(zone, NR_FREE_PAGES))
		report(v, "zone %s: NR_FREE_PAGES %lu but %lu pages on the counted lists", zone->name,
		       zone_page_state(zone, NR_FREE_PAGES), free);
	if (free_cma != zone_page_state(zone, NR_FREE_CMA_PAGES))
		report(v, "zone %s: NR_FREE_CMA_PAGES %lu but %lu pages on the CMA lists", zone->name,
		       zone_page_state(zone, NR_FREE_CMA_PAGES), free_cma);
	if ((long)free_ha != atomic_load_explicit(&zone->free_highatomic, memory_order_relaxed))
		report(v, "zone %s: nr_free_highatomic %ld but %lu pages on the %s lists", zone->name,
		       atomic_load_explicit(&zone->free_highatomic, memory_order_relaxed), free_ha,
		       migratetype_name_of(mm, MIGRATE_HIGHATOMIC));
}

/*
 * pcp->count == the pages on its lists, each block PG_pcp with the
 * list's order (one the profile has lists for), aligned, free, of this
 * zone.
 */
static void check_pcp(struct verifier *v, struct cpu_slot *slot, unsigned cpu, struct zone *zone)
{
	struct cma_mm *mm = v->mm;
	struct per_cpu_pages *pcp = &slot->pcp[zone->idx];
	long count = 0;

	for (unsigned i = 0; i < NR_PCP_LISTS; i++) {
		unsigned order = pindex_to_order(mm, i);

		for (struct cma_page *page = page_list_first(mm, &pcp->lists[i]); page;
		     page = page_list_next(mm, page)) {
			unsigned long pfn = page_to_pfn(mm, page);

			count += 1l << order;
			if (count > (long)(mm->end_pfn - mm->base_pfn))
				break;
			if (!page_test(page, PG_pcp) || page_test(page, PG_buddy | PG_head) ||
			    page_order(page) != order || !pcp_allowed_order(mm, order) ||
			    (pfn & ((1ul << order) - 1)) || page_count(page) ||
			    page_zonenum(page) != (unsigned)zone->idx)
				report(v, "pfn %#lx on cpu %u %s order-%u pcp list: flags %#x count %d",
				       pfn, cpu, zone->name, order, page_flags(page), page_count(page));
			claim(v, pfn, 1ul << order, PFN_PCP, zone);
			check_free_block_types(v, pfn, 1ul << order, (int)page->private, "pcp");
			check_free_block_tails(v, page, order);
		}
	}
	if (count != pcp->count)
		report(v, "cpu %u zone %s: pcp count %d but %ld pages on its lists", cpu, zone->name,
		       pcp->count, count);
}

/* @flags: the head's, read once (every lock is held: nothing changes them meanwhile) */
static void verify_allocated(struct verifier *v, unsigned long pfn, struct cma_page *page,
			     uint32_t flags)
{
	struct cma_mm *mm = v->mm;
	unsigned order = (flags & PG_ORDER_MASK) >> PG_ORDER_SHIFT;
	unsigned mt = (flags & PG_MT_MASK) >> PG_MT_SHIFT;

	if (page_count(page) < 0)
		report(v, "allocated pfn %#lx has count %d", pfn, page_count(page));
	for (unsigned long i = 1; i < (1ul << order); i++)
		if (page_flags(page + i) & ~PG_ZONE_MASK)
			report(v, "tail pfn %#lx of order-%u pfn %#lx has flags %#x", pfn + i, order,
			       pfn, page_flags(page + i));
	claim(v, pfn, 1ul << order, PFN_ALLOC, &mm->zones[(flags & PG_ZONE_MASK) >> PG_ZONE_SHIFT]);
	if (flags & PG_lru)
		v->flagged_lru++;
	/* an owned hugetlb page is in neither NR_ISOLATED_* nor NR_*_PAGES */
	if ((flags & PG_isolated) && !(flags & PG_hugetlb))
		v->flagged_isolated[flags & PG_swapbacked ? 0 : 1]++;
	if ((flags & PG_movable) && !(flags & PG_hugetlb))
		v->owned[flags & PG_swapbacked ? 0 : 1] += 1l << order;
	if (flags & PG_mlocked)
		v->mlocked += 1l << order;
	if (flags & PG_writeback)
		v->writeback++;
	if (flags & PG_swapcache)
		v->swapcache += 1l << order;
	if ((flags & (PG_lru | PG_isolated | PG_mlocked | PG_writeback)) && !(flags & PG_movable))
		report(v, "pfn %#lx is on the LRU, isolated, mlocked or under writeback but has no owner",
		       pfn);
	if ((flags & PG_hugetlb) && (flags & (PG_lru | PG_mlocked | PG_writeback)))
		report(v, "hugetlb pfn %#lx is on the LRU, mlocked or under writeback", pfn);
	if (mt != MIGRATE_UNMOVABLE && mt != MIGRATE_RECLAIMABLE)
		return;
	for (unsigned long p = pfn & ~(mm->pageblock_nr_pages - 1); p < pfn + (1ul << order);
	     p += mm->pageblock_nr_pages)
		if (get_pageblock_migratetype(mm, p) == MIGRATE_CMA)
			report(v, "%s allocation at pfn %#lx lies in a CMA pageblock",
			       migratetype_name(mt), pfn);
}

static void verify_pfns(struct verifier *v)
{
	struct cma_mm *mm = v->mm;

	for (unsigned long pfn = mm->base_pfn; pfn < mm->end_pfn; pfn++) {
		struct cma_page *page = pfn_to_page(mm, pfn);
		uint8_t s = v->state[pfn - mm->base_pfn];
		uint32_t flags;

		if (s != PFN_UNSEEN)
			continue;
		flags = page_flags(page);
		if (!pfn_valid(mm, pfn)) {
			if (flags)
				report(v, "hole pfn %#lx has flags %#x", pfn, flags);
			continue;
		}
		if (flags & PG_reserved)
			claim(v, pfn, 1, PFN_RESERVED, NULL);
		else if (flags & PG_head)
			verify_allocated(v, pfn, page, flags);
		else
			report(v, "pfn %#lx is in no state (flags %#x count %d)", pfn, page_flags(page),
			       page_count(page));
	}
}

/* A page as check_lru wants it on zone @zone's list @l. */
static bool lru_page_ok(const struct cma_page *p, const struct zone *zone, int l)
{
	return page_test(p, PG_lru) && page_test(p, PG_head) &&
	       page_zonenum(p) == (unsigned)zone->idx && (int)page_lru(p) == l;
}

/*
 * The walk of one list from the head, reporting each page out of place;
 * *n the pages seen. The lists are chains of cache misses (their pages
 * lie anywhere): they are walked side by side, a page of each in turn,
 * the next one of each asked for meanwhile, so that their misses overlap.
 */
static void lru_walk_from_heads(struct verifier *v, struct zone *zone, unsigned long n[NR_LRU_LISTS])
{
	struct cma_mm *mm = v->mm;
	struct cma_page *page[NR_LRU_LISTS];
	bool more = true;

	for (int l = 0; l < NR_LRU_LISTS; l++) {
		page[l] = page_list_first(mm, &zone->lru[l]);
		n[l] = 0;
	}
	while (more) {
		more = false;
		for (int l = 0; l < NR_LRU_LISTS; l++) {
			struct cma_page *p = page[l];

			if (!p || ++n[l] > mm->end_pfn - mm->base_pfn) {
				page[l] = NULL;
				continue;
			}
			page[l] = page_list_next(mm, p);
			if (page[l])
				prefetch(page[l]);
			more = true;
			if (!lru_page_ok(p, zone, l))
				report(v, "pfn %#lx on zone %s LRU list %d: flags %#x",
				       page_to_pfn(mm, p), zone->name, l, page_flags(p));
		}
	}
}

enum lru_walk_state { LRU_WALKING, LRU_MET, LRU_DOUBT };

/*
 * A list walked from both ends at once, next from the head and prev from
 * the tail, twice the misses in flight. Each back step is the mirror of
 * a forward one (the page reached links forward to the one left, the
 * tail to none), so the ends meet having seen the pages the walk from
 * the head sees, and as many. Anything else is LRU_DOUBT: that walk
 * then runs and says what it finds.
 */
struct lru_walk {
	struct cma_page *head, *tail;	/* the ends reached, checked at the next step */
	uint32_t tail_from;		/* the tail's next must be this: where it came from */
	unsigned long seen;		/* the pages reached from both ends */
	enum lru_walk_state state;
};

static void lru_walk_start(struct cma_mm *mm, const struct page_list *list, struct lru_walk *w)
{
	w->head = page_list_first(mm, list);
	w->tail = page_list_last(mm, list);
	w->tail_from = PAGE_NIL;
	w->seen = 2;
	if (!w->head || !w->tail) {
		w->state = w->head == w->tail ? LRU_MET : LRU_DOUBT;
		w->seen = 0;
	} else {
		w->state = LRU_WALKING;
	}
}

/* One step of each end of list @l; the ends' pages were asked for a step ago. */
static void lru_walk_step(struct cma_mm *mm, const struct zone *zone, int l, struct lru_walk *w)
{
	struct cma_page *head = w->head, *tail = w->tail;
	uint32_t tail_idx = page_idx(mm, tail);

	if (tail->next != w->tail_from || !lru_page_ok(head, zone, l) || !lru_page_ok(tail, zone, l)) {
		w->state = LRU_DOUBT;
		return;
	}
	if (head == tail || head->next == tail_idx) {
		w->seen -= head == tail;
		w->state = LRU_MET;
		return;
	}
	w->head = page_list_next(mm, head);
	w->tail = tail->prev == PAGE_NIL ? NULL : mm->mem_map + tail->prev;
	w->tail_from = tail_idx;
	w->seen += 2;
	if (!w->head || !w->tail || w->seen > mm->end_pfn - mm->base_pfn) {
		w->state = LRU_DOUBT;
		return;
	}
	prefetch(w->head);
	prefetch(w->tail);
}

/* The zone's lists walked from both ends, side by side: false at any doubt; *n their lengths. */
static bool lru_walk_both_ends(struct cma_mm *mm, const struct zone *zone, unsigned long n[NR_LRU_LISTS])
{
	struct lru_walk w[NR_LRU_LISTS];
	bool more = true;

	for (int l = 0; l < NR_LRU_LISTS; l++)
		lru_walk_start(mm, &zone->lru[l], &w[l]);
	while (more) {
		more = false;
		for (int l = 0; l < NR_LRU_LISTS; l++) {
			if (w[l].state == LRU_WALKING)
				lru_walk_step(mm, zone, l, &w[l]);
			if (w[l].state == LRU_DOUBT)
				return false;
			more |= w[l].state == LRU_WALKING;
		}
	}
	for (int l = 0; l < NR_LRU_LISTS; l++)
		n[l] = w[l].seen;
	return true;
}

/*
 * NR_INACTIVE_ANON + l == the pages on lru[l], each PG_lru of the kind l
 * names: the walk from both ends, or at a doubt the walk from the heads.
 */
static void check_lru(struct verifier *v, struct zone *zone)
{
	unsigned long n[NR_LRU_LISTS];

	if (!lru_walk_both_ends(v->mm, zone, n))
		lru_walk_from_heads(v, zone, n);
	for (int l = 0; l < NR_LRU_LISTS; l++) {
		if ((long)n[l] != atomic_load(&zone->vm_stat[NR_INACTIVE_ANON + l]))
			report(v, "zone %s: LRU list %d holds %lu pages, counter says %ld", zone->name,
			       l, n[l], atomic_load(&zone->vm_stat[NR_INACTIVE_ANON + l]));
		v->on_lru += n[l];
	}
	/* raw values: zone_page_state() would hide a negative count */
	v->isolated[0] += atomic_load(&zone->vm_stat[NR_ISOLATED_ANON]);
	v->isolated[1] += atomic_load(&zone->vm_stat[NR_ISOLATED_FILE]);
}

/*
 * 4.4's on-demand reserve (kernel.highatomic): nr_reserved_highatomic
 * counts the HIGHATOMIC blocks and, as the kernel's does, the blocks an
 * isolation retyped since (highatomic_retyped: alloc_contig_range gives
 * a HIGHATOMIC block back MOVABLE, and only unreserve_highatomic_pageblock
 * uncounts, for a block still HIGHATOMIC); within about 1% of the zone
 * (a reservation at the limit's last step may claim a whole MAX_ORDER
 * block). Before, nr_reserved_highatomic stays 0.
 */
static void check_highatomic(struct verifier *v, struct zone *zone)
{
	struct cma_mm *mm = v->mm;
	unsigned long nr = mm->pageblock_nr_pages, blocks = 0, limit;
	unsigned long start = (zone->zone_start_pfn + nr - 1) & ~(nr - 1);

	if (!mm->kernel.highatomic) {
		if (zone->nr_reserved_highatomic)
			report(v, "zone %s: nr_reserved_highatomic %lu in a profile without it",
			       zone->name, zone->nr_reserved_highatomic);
		return;
	}
	for (unsigned long pfn = start; pfn < zone->zone_start_pfn + zone->spanned_pages; pfn += nr)
		if (pfn_valid(mm, pfn) && is_migrate_highatomic(get_pageblock_migratetype(mm, pfn)))
			blocks++;
	if ((long)(blocks * nr) + zone->highatomic_retyped != (long)zone->nr_reserved_highatomic)
		report(v, "zone %s: nr_reserved_highatomic %lu but %lu HighAtomic pageblocks and %ld pages of blocks isolation retyped",
		       zone->name, zone->nr_reserved_highatomic, blocks, zone->highatomic_retyped);
	limit = highatomic_reserve_limit(zone);
	if (limit)
		limit += max_order_nr_pages(mm) > nr ? max_order_nr_pages(mm) - nr : 0;
	if (zone->nr_reserved_highatomic > limit)
		report(v, "zone %s: nr_reserved_highatomic %lu over its limit %lu", zone->name,
		       zone->nr_reserved_highatomic, limit);
}

/*
 * The profile's reserves: kernel.alloc_cma never bumps the marks for CMA
 * (min_cma_pages); kernel.watermark_boost keeps the boost within 150% of
 * the high mark, and without it there is none; check_highatomic's
 * reserve.
 */
static void check_reserves(struct verifier *v, struct zone *zone)
{
	struct cma_mm *mm = v->mm;
	unsigned long boost = zone->watermark_boost;

	if (mm->kernel.alloc_cma && zone->min_cma_pages)
		report(v, "zone %s: min_cma_pages %lu in a profile without it", zone->name,
		       zone->min_cma_pages);
	if (boost > (mm->kernel.watermark_boost ? max_watermark_boost(zone) : 0))
		report(v, "zone %s: watermark_boost %lu over its limit %lu", zone->name, boost,
		       mm->kernel.watermark_boost ? max_watermark_boost(zone) : 0);
	check_highatomic(v, zone);
}

/*
 * The marks ascend; the fair zone policy's batch (3.12-4.7) is never over
 * its refill, high less low, and without the policy there is none.
 */
static void check_watermarks(struct verifier *v, struct zone *zone)
{
	long batch = atomic_load_explicit(&zone->alloc_batch, memory_order_relaxed);
	long refill = (long)(high_wmark_pages(zone) - low_wmark_pages(zone));
	bool depleted = atomic_load_explicit(&zone->fair_depleted, memory_order_relaxed);

	if (!(min_wmark_pages(zone) <= low_wmark_pages(zone) &&
	      low_wmark_pages(zone) <= high_wmark_pages(zone)))
		report(v, "zone %s: watermarks min %lu low %lu high %lu do not ascend", zone->name,
		       min_wmark_pages(zone), low_wmark_pages(zone), high_wmark_pages(zone));
	if (!alloc_flags_fair(v->mm)) {
		if (batch || depleted)
			report(v, "zone %s: alloc_batch %ld%s without the fair zone policy", zone->name,
			       batch, depleted ? ", marked depleted," : "");
	} else if (batch > refill) {
		report(v, "zone %s: alloc_batch %ld over its refill %ld (high - low)", zone->name,
		       batch, refill);
	}
}

/*
 * Who gave reclaim up: before 4.12 (kernel.kswapd_failures) a zone, and
 * the node counts no failures; from 4.12 the node, and no zone is marked.
 */
static void check_given_up(struct verifier *v)
{
	int failures = atomic_load_explicit(&v->mm->kswapd_failures, memory_order_relaxed);
	struct zone *zone;

	if (failures < 0 || (failures && !v->mm->kernel.kswapd_failures))
		report(v, "kswapd_failures %d %s", failures,
		       failures < 0 ? "below 0" : "without the 4.12 rule");
	if (!v->mm->kernel.kswapd_failures)
		return;
	for_each_populated_zone(v->mm, zone)
		if (atomic_load_explicit(&zone->all_unreclaimable, memory_order_relaxed))
			report(v, "zone %s: all_unreclaimable under the 4.12 rule (kswapd_failures)",
			       zone->name);
}

/*
 * Every pageblock of [start, end) has a valid type (@expect, unless it is
 * -1), and the machine's ISOLATE pageblocks are those isolation counts.
 */
static void check_pageblocks(struct verifier *v, unsigned long start, unsigned long end,
			     int expect)
{
	struct cma_mm *mm = v->mm;
	unsigned long step = mm->pageblock_nr_pages;
	long isolate = 0;

	for (unsigned long pfn = start & ~(step - 1); pfn < end; pfn += step) {
		int bt;

		if (!pfn_valid(mm, pfn))
			continue;
		bt = get_pageblock_migratetype(mm, pfn);
		if (bt >= MIGRATE_TYPES)
			report(v, "pageblock at pfn %#lx has type %d", pfn, bt);
		else if (expect >= 0 && (bt == MIGRATE_ISOLATE) != (expect == MIGRATE_ISOLATE))
			report(v, "pageblock at pfn %#lx is %s, expected %s", pfn,
			       migratetype_name(bt), expect == MIGRATE_ISOLATE ? "Isolate" : "not Isolate");
	}
	for (unsigned long pfn = mm->base_pfn & ~(step - 1); pfn < mm->end_pfn; pfn += step)
		if (pfn >= mm->base_pfn && pfn_valid(mm, pfn))
			isolate += get_pageblock_migratetype(mm, pfn) == MIGRATE_ISOLATE;
	if (isolate != atomic_load(&mm->isolated_pageblocks))
		report(v, "%ld ISOLATE pageblocks but isolation accounts for %ld", isolate,
		       atomic_load(&mm->isolated_pageblocks));
}

/*
 * Compaction's hints (kernel.compact_cached_pfn, compact_skip_hint): the
 * cached scanner positions inside the zone (the free one at a pageblock's
 * start, which may precede an unaligned zone start), skip bits only on
 * pageblocks with valid pages, and none at all without the switch.
 */
static void check_compaction_hints(struct verifier *v, struct zone *zone)
{
	struct cma_mm *mm = v->mm;
	unsigned long step = mm->pageblock_nr_pages;
	unsigned long start = zone->zone_start_pfn, end = start + zone->spanned_pages;
	unsigned long free_pfn = zone->compact_cached_free_pfn;

	if (free_pfn < (start & ~(step - 1)) || free_pfn >= end || (free_pfn & (step - 1)))
		report(v, "%s: cached free pfn %#lx outside [%#lx, %#lx) or not a pageblock's start",
		       zone->name, free_pfn, start, end);
	for (int i = 0; i < 2; i++)
		if (zone->compact_cached_migrate_pfn[i] < start ||
		    zone->compact_cached_migrate_pfn[i] > end)
			report(v, "%s: cached migrate pfn[%d] %#lx outside [%#lx, %#lx]", zone->name, i,
			       zone->compact_cached_migrate_pfn[i], start, end);
}

static void check_skip_bits(struct verifier *v)
{
	struct cma_mm *mm = v->mm;
	unsigned long step = mm->pageblock_nr_pages;

	for (unsigned long pfn = mm->base_pfn & ~(step - 1); pfn < mm->end_pfn; pfn += step) {
		unsigned long first = pfn > mm->base_pfn ? pfn : mm->base_pfn;
		bool valid = false;

		if (!get_pageblock_skip(mm, first))
			continue;
		if (!mm->kernel.compact_skip_hint)
			report(v, "pageblock at pfn %#lx is marked skip under kernel %s", pfn,
			       mm->kernel.name);
		for (unsigned long p = first; p < pfn + step && p < mm->end_pfn && !valid; p++)
			valid = pfn_valid(mm, p);
		if (!valid)
			report(v, "pageblock at pfn %#lx is marked skip but has no valid page", pfn);
	}
}

/*
 * untouched[b] == the frames of pageblock b whose touched byte is clear,
 * plus those each CPU marked there and has not taken off yet; the slot
 * locks held.
 */
static void check_untouched(struct verifier *v)
{
	struct cma_mm *mm = v->mm;
	unsigned long nr = mm->end_pfn - mm->base_pfn;

	for (unsigned long b = 0; b << mm->pageblock_order < nr; b++) {
		unsigned long left = atomic_load_explicit(&mm->untouched[b], memory_order_acquire);
		unsigned long end = (b + 1) << mm->pageblock_order, clear = 0;

		for (unsigned long i = b << mm->pageblock_order; i < end && i < nr; i++)
			clear += !atomic_load_explicit(&mm->touched[i], memory_order_relaxed);
		for (unsigned c = 0; c < mm->nr_cpus; c++)
			if (mm->slots[c].fresh_block == b)
				clear += mm->slots[c].fresh_pending;
		if (left != clear)
			report(v, "pageblock at pfn %#lx has %lu frames never touched or pending, untouched %lu",
			       mm->base_pfn + (b << mm->pageblock_order), clear, left);
	}
}

static int verify_done(struct verifier *v)
{
	char text[64];

	if (v->errors > MAX_REPORTS) {
		snprintf(text, sizeof(text), "... and %d more", v->errors - MAX_REPORTS);
		cma_mm_pr_err(v->mm, "cma_mm_verify: %s\n", text);
		if (v->fn)
			v->fn(v->ctx, text);
	}
	return v->errors ? -EUCLEAN : 0;
}

int verify_zone_locked(struct zone *zone, const char *where)
{
	struct verifier v = { .mm = zone->mm, .where = where };

	lockdep_assert_held(&zone->lock);
	check_free_lists(&v, zone);
	check_free_heads(&v, zone);
	check_watermarks(&v, zone);
	return verify_done(&v);
}

int verify_pcp_locked(struct cma_mm *mm, struct cpu_slot *slot, const char *where)
{
	struct verifier v = { .mm = mm, .where = where };
	struct zone *zone;

	lockdep_assert_held(&slot->lock);
	for_each_populated_zone(mm, zone)
		check_pcp(&v, slot, (unsigned)(slot - mm->slots), zone);
	return verify_done(&v);
}

int verify_lru_locked(struct zone *zone, const char *where)
{
	struct verifier v = { .mm = zone->mm, .where = where };

	lockdep_assert_held(&zone->lru_lock);
	check_lru(&v, zone);
	return verify_done(&v);
}

int verify_pageblocks(struct cma_mm *mm, unsigned long start, unsigned long end, int expect,
		      const char *where)
{
	struct verifier v = { .mm = mm, .where = where };

	check_pageblocks(&v, start, end, expect);
	return verify_done(&v);
}

int verify_zones(struct cma_mm *mm, const char *where)
{
	struct zone *zone;
	int ret = 0;

	for_each_populated_zone(mm, zone) {
		spin_lock(&zone->lock);
		if (verify_zone_locked(zone, where))
			ret = -EUCLEAN;
		spin_unlock(&zone->lock);
		spin_lock(&zone->lru_lock);
		if (verify_lru_locked(zone, where))
			ret = -EUCLEAN;
		spin_unlock(&zone->lru_lock);
	}
	return ret;
}

/*
 * zoneinfo's "cma" lines (zone->cma_pages) add up to CmaTotal
 * (totalcma_pages), each within its zone's managed pages.
 */
static void check_cma_pages(struct verifier *v)
{
	unsigned long sum = 0;
	struct zone *zone;

	for_each_zone(v->mm, zone) {
		if (zone->cma_pages > zone->managed_pages)
			report(v, "zone %s: %lu CMA pages but %lu managed", zone->name, zone->cma_pages,
			       zone->managed_pages);
		sum += zone->cma_pages;
	}
	if (sum != v->mm->totalcma_pages)
		report(v, "the zones hold %lu CMA pages but totalcma_pages is %lu", sum,
		       v->mm->totalcma_pages);
}

/* The pfn-wide account: what the lists did not claim is allocated or reserved. */

/*
 * swap_map against its holders: a slot is in use when the swap cache or
 * an owner holds it (swap_used), the cache bits are the swap cache pages
 * (PG_swapcache) and swapcache_pages, the counts the owners' entries.
 */
static void check_swap_map(struct verifier *v)
{
	struct cma_mm *mm = v->mm;
	unsigned long used = 0, cached = 0, entries = 0, counted;

	spin_lock(&mm->swap_lock);
	for (unsigned long i = 0; i < mm->swap_max; i++) {
		used += mm->swap_map[i] != 0;
		cached += (mm->swap_map[i] & SWAP_HAS_CACHE) != 0;
		entries += mm->swap_map[i] & SWAP_COUNT_MASK;
	}
	counted = atomic_load_explicit(&mm->swapcache_pages, memory_order_relaxed);
	spin_unlock(&mm->swap_lock);
	if (mm->swap_used != (uint64_t)used << mm->page_shift || cached != (unsigned long)v->swapcache ||
	    entries != mm->swap_entries)
		report(v, "swap_used %llu bytes, %llu swap entries and %ld swap cache pages but "
		       "swap_map has %lu slots in use, %lu counted, %lu cached",
		       (unsigned long long)mm->swap_used, (unsigned long long)mm->swap_entries,
		       v->swapcache, used, entries, cached);
	if (counted != cached)
		report(v, "swapcache_pages (SwapCached) is %lu but swap_map has %lu cached slots",
		       counted, cached);
}

static void check_totals(struct verifier *v)
{
	struct cma_mm *mm = v->mm;
	long anon = 0, file = 0, mlock = 0, writeback = 0;
	struct zone *zone;

	if (v->on_lru != v->flagged_lru)
		report(v, "%lu pages on LRU lists but %lu with PG_lru", v->on_lru, v->flagged_lru);
	for (int i = 0; i < 2; i++)
		if (v->isolated[i] != v->flagged_isolated[i])
			report(v, "NR_ISOLATED_%s %ld but %ld pages isolated", i ? "FILE" : "ANON",
			       v->isolated[i], v->flagged_isolated[i]);
	for_each_zone(mm, zone) {
		anon += atomic_load(&zone->vm_stat[NR_ANON_PAGES]);
		file += atomic_load(&zone->vm_stat[NR_FILE_PAGES]);
		mlock += atomic_load(&zone->vm_stat[NR_MLOCK]);
		writeback += atomic_load(&zone->vm_stat[NR_WRITEBACK]);
	}
	if (anon != v->owned[0] || file != v->owned[1])
		report(v, "NR_ANON_PAGES %ld, NR_FILE_PAGES %ld but owners hold %ld anon, %ld file pages",
		       anon, file, v->owned[0], v->owned[1]);
	if (mlock != v->mlocked)
		report(v, "NR_MLOCK %ld but %ld pages mlocked", mlock, v->mlocked);
	/* a write in flight keeps its page: only an owned page can be under writeback */
	if (writeback != v->writeback)
		report(v, "NR_WRITEBACK %ld but %ld pages under writeback", writeback, v->writeback);
	check_swap_map(v);
	check_cma_pages(v);
}

/*
 * The CMA areas under the profile's rules: at most MAX_CMA_AREAS of them;
 * each aligned to 2^max(MAX_ORDER, pageblock_order) pages (v3.5) or a
 * pageblock (cma_generic), one bit per 2^order_per_bit pages (0 in v3.5),
 * every pageblock CMA or ISOLATE; no zone's marks bumped for a contiguous
 * allocation under contig_v6.
 */
static void check_cma_areas(struct verifier *v)
{
	struct cma_mm *mm = v->mm;
	const struct cma_state *cs = mm->cma;
	unsigned long align = cma_min_align_pages(mm);
	struct zone *zone;

	if (cs && cs->nr_reserved > cs->max_areas)
		report(v, "%u CMA areas in %u slots", cs->nr_reserved, cs->max_areas);
	for (unsigned i = 0; cs && i < cs->nr_reserved; i++) {
		const struct cma *cma = cs->reserved[i].cma;

		if (!cma)
			continue;
		if ((cma->base_pfn | cma->count) & (align - 1))
			report(v, "CMA area %s at pfn %#lx, %lu pages, not aligned to %lu pages",
			       cma->name, cma->base_pfn, cma->count, align);
		if ((cma->order_per_bit && !mm->kernel.cma_generic) ||
		    cma->count & ((1ul << cma->order_per_bit) - 1))
			report(v, "CMA area %s: order_per_bit %u for %lu pages", cma->name,
			       cma->order_per_bit, cma->count);
		for (unsigned long pfn = cma->base_pfn; pfn < cma->base_pfn + cma->count;
		     pfn += mm->pageblock_nr_pages) {
			int mt = get_pageblock_migratetype(mm, pfn);

			if (mt != MIGRATE_CMA && mt != MIGRATE_ISOLATE)
				report(v, "pageblock at pfn %#lx of CMA area %s is %s", pfn, cma->name,
				       migratetype_name(mt));
		}
	}
	for_each_zone(mm, zone)
		if (mm->kernel.contig_v6 && zone->min_cma_pages)
			report(v, "zone %s: min_cma_pages %lu under a kernel without the watermark bump",
			       zone->name, (unsigned long)zone->min_cma_pages);
}

/* hugetlb's free pool: hugetlb_nr_free[o] == len(hugetlb_free[o]), each a frozen hugetlb head of order o */
static void check_hugetlb_pool(struct verifier *v)
{
	struct cma_mm *mm = v->mm;

	spin_lock(&mm->hugetlb_lock);
	for (unsigned o = 0; o < mm->max_order; o++) {
		unsigned long n = 0;

		for (struct cma_page *page = page_list_first(mm, &mm->hugetlb_free[o]); page;
		     page = page_list_next(mm, page), n++)
			if (page_order(page) != o || page_count(page) ||
			    (page_flags(page) & (PG_hugetlb | PG_head | PG_movable)) != (PG_hugetlb | PG_head))
				report(v, "pfn %#lx on the hugetlb pool's order-%u free list is not a free hugetlb page of it (order %u, count %d, flags %#x)",
				       page_to_pfn(mm, page), o, page_order(page), page_count(page),
				       page_flags(page));
		if (n != mm->hugetlb_nr_free[o])
			report(v, "hugetlb pool: %lu free order-%u pages counted, %lu on the list",
			       mm->hugetlb_nr_free[o], o, n);
	}
	spin_unlock(&mm->hugetlb_lock);
}

int cma_mm_verify(struct cma_mm *mm)
{
	return cma_mm_verify_report(mm, NULL, NULL);
}

int cma_mm_verify_report(struct cma_mm *mm, cma_verify_fn fn, void *ctx)
{
	struct verifier v = { .mm = mm, .fn = fn, .ctx = ctx };
	struct zone *zone;

	if (!mm || mm->phase != MM_BOOTED)
		return 0;
	v.state = calloc(mm->end_pfn - mm->base_pfn, 1);
	if (!v.state)
		return -ENOMEM;
	for (unsigned c = 0; c < mm->nr_cpus; c++)
		spin_lock(&mm->slots[c].lock);
	for_each_zone(mm, zone) {
		spin_lock(&zone->lock);
		spin_lock(&zone->lru_lock);
	}

	for_each_populated_zone(mm, zone) {
		check_lru(&v, zone);
		check_free_lists(&v, zone);
		check_free_heads(&v, zone);
		for (unsigned c = 0; c < mm->nr_cpus; c++)
			check_pcp(&v, &mm->slots[c], c, zone);
		check_watermarks(&v, zone);
		check_reserves(&v, zone);
		check_compaction_hints(&v, zone);
	}
	check_skip_bits(&v);
	check_untouched(&v);
	verify_pfns(&v);
	check_totals(&v);
	check_pageblocks(&v, mm->base_pfn, mm->end_pfn, -1);
	check_cma_areas(&v);
	check_hugetlb_pool(&v);
	check_given_up(&v);

	for_each_zone(mm, zone) {
		spin_unlock(&zone->lru_lock);
		spin_unlock(&zone->lock);
	}
	for (unsigned c = mm->nr_cpus; c-- > 0;)
		spin_unlock(&mm->slots[c].lock);
	free(v.state);
	return verify_done(&v);
}
