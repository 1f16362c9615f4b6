// SPDX-License-Identifier: GPL-2.0
/*
 * Refault detection (the kernel's mm/workingset.c of 3.15,
 * kernel.workingset): each zone keeps a clock, inactive_age, that
 * advances with every page cache page evicted and every one activated.
 * An evicted page leaves its owner a shadow stamped with that clock;
 * when the owner reads the page back in, the clock's advance since is
 * the refault distance: the pages that were activated or evicted in
 * between. A page whose distance is no more than the active file list
 * would have stayed resident had the inactive list been that much
 * longer, so it goes straight onto the active list, and from 5.8 its
 * read counts as a cost of reclaiming its kind (lru_note_cost).
 *
 * Shadows: bit 0 set (0 is "no shadow"), the zone index above it, the
 * eviction clock in the rest; the distance is taken modulo the clock's
 * bits, as unpack_shadow's mask does.
 */
#include "mm/internal.h"
#include "mm/mm_inline.h"

#define SHADOW_ZONE_SHIFT	1
#define SHADOW_ZONE_BITS	3
#define SHADOW_AGE_SHIFT	(SHADOW_ZONE_SHIFT + SHADOW_ZONE_BITS)
#define SHADOW_AGE_MASK		(~0ull >> SHADOW_AGE_SHIFT)

_Static_assert(MAX_NR_ZONES <= 1 << SHADOW_ZONE_BITS, "a zone index that no shadow can hold");

/* workingset_eviction's clock tick: @zone has evicted a page cache page. */
void workingset_eviction(struct zone *zone)
{
	atomic_fetch_add_explicit(&zone->inactive_age, 1, memory_order_relaxed);
}

/*
 * workingset_activation: a page was activated; it shortens the next
 * refault distances. An anonymous one only from 5.9, whose anon shadows
 * age alongside anonymous pages (kernel.anon_workingset).
 */
void workingset_activation(struct cma_mm *mm, struct cma_page *page)
{
	if (mm->kernel.workingset &&
	    (!page_test(page, PG_swapbacked) || mm->kernel.anon_workingset))
		atomic_fetch_add_explicit(&page_zone(mm, page)->inactive_age, 1,
					  memory_order_relaxed);
}

static uint64_t pack_shadow(struct zone *zone, uint64_t eviction)
{
	return (eviction & SHADOW_AGE_MASK) << SHADOW_AGE_SHIFT |
	       (uint64_t)zone->idx << SHADOW_ZONE_SHIFT | 1;
}

/*
 * 5.9: an anonymous page reclaimed from the swap cache ticks the clock
 * and leaves its shadow in the slot; 0 before.
 */
uint64_t workingset_eviction_anon(struct cma_mm *mm, const struct cma_page *page)
{
	struct zone *zone = page_zone(mm, page);

	if (!mm->kernel.anon_workingset)
		return 0;
	return pack_shadow(zone, atomic_fetch_add_explicit(&zone->inactive_age, 1,
							   memory_order_relaxed) + 1);
}

uint64_t cma_workingset_eviction(struct cma_mm *mm, const struct cma_page *page)
{
	struct zone *zone;
	uint64_t eviction;

	if (!mm->kernel.workingset || !page_test(page, PG_movable) ||
	    page_test(page, PG_swapbacked))
		return 0;
	zone = page_zone(mm, page);
	/* the clock as it reads once this eviction has ticked it (workingset_eviction) */
	eviction = atomic_load_explicit(&zone->inactive_age, memory_order_relaxed) + 1;
	return pack_shadow(zone, eviction);
}

/*
 * A refaulting page goes straight onto the active list: moved there if a
 * drain already put it on the LRU, else marked for the drain to.
 */
static void activate_refault(struct cma_mm *mm, struct cma_page *page)
{
	struct zone *zone = page_zone(mm, page);
	enum lru_list lru = page_test(page, PG_swapbacked) ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE;

	spin_lock(&zone->lru_lock);
	if (page_test(page, PG_lru) && !page_test(page, PG_active | PG_mlocked)) {
		del_page_from_lru_list(zone, page, lru);
		page_flags_set(page, PG_active);
		add_page_to_lru_list(zone, page, lru + 1);
	} else if (!page_test(page, PG_lru)) {
		page_flags_set(page, PG_active);
	}
	spin_unlock(&zone->lru_lock);
	workingset_activation(mm, page);
}

int cma_workingset_refault(struct cma_mm *mm, struct cma_page *page, uint64_t shadow)
{
	unsigned zid = (unsigned)(shadow >> SHADOW_ZONE_SHIFT) & ((1u << SHADOW_ZONE_BITS) - 1);
	uint64_t refault, distance;
	struct zone *zone;

	if (!mm->kernel.workingset || !shadow)
		return 0;
	if (!(shadow & 1) || zid >= MAX_NR_ZONES || !page_test(page, PG_movable) ||
	    page_test(page, PG_swapbacked)) {
		cma_mm_pr_err(mm, "cma_workingset_refault: shadow %#llx for pfn %#lx: not a shadow of "
			  "cma_workingset_eviction() for a file page\n",
			  (unsigned long long)shadow, page_to_pfn(mm, page));
		return -EINVAL;
	}
	zone = &mm->zones[zid];
	refault = atomic_load_explicit(&zone->inactive_age, memory_order_relaxed);
	distance = (refault - (shadow >> SHADOW_AGE_SHIFT)) & SHADOW_AGE_MASK;
	count_vm_event(mm, WORKINGSET_REFAULT);
	if (distance > zone_page_state(zone, NR_ACTIVE_FILE))
		return 0;
	count_vm_event(mm, WORKINGSET_ACTIVATE);
	activate_refault(mm, page);
	lru_note_cost(page_zone(mm, page), true, 1, 0);
	return 1;
}

/*
 * 5.9's workingset_refault of an anonymous page read back into the swap
 * cache over a shadow: activated when the distance fits in what anon
 * pages compete with, the whole file LRU and, with swap, the active anon
 * list (aae466b0052e's workingset size for a !file refault).
 */
void workingset_refault_anon(struct cma_mm *mm, struct cma_page *page, uint64_t shadow)
{
	unsigned zid = (unsigned)(shadow >> SHADOW_ZONE_SHIFT) & ((1u << SHADOW_ZONE_BITS) - 1);
	uint64_t refault, distance, size;
	struct zone *zone;

	if (!mm->kernel.anon_workingset || !(shadow & 1) || zid >= MAX_NR_ZONES)
		return;
	zone = &mm->zones[zid];
	refault = atomic_load_explicit(&zone->inactive_age, memory_order_relaxed);
	distance = (refault - (shadow >> SHADOW_AGE_SHIFT)) & SHADOW_AGE_MASK;
	count_vm_event(mm, WORKINGSET_REFAULT_ANON);
	size = zone_page_state(zone, NR_ACTIVE_FILE) + zone_page_state(zone, NR_INACTIVE_FILE);
	if (swap_room(mm, mm->page_size))
		size += zone_page_state(zone, NR_ACTIVE_ANON);
	if (distance > size)
		return;
	count_vm_event(mm, WORKINGSET_ACTIVATE_ANON);
	activate_refault(mm, page);
	lru_note_cost(page_zone(mm, page), false, 1, 0);
}
