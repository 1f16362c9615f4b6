// SPDX-License-Identifier: GPL-2.0
/*
 * How much of each LRU list a reclaim pass scans (get_scan_count of
 * mm/vmscan.c), the history it weighs anon against file by, and the
 * active:inactive ratio each pair of lists is kept at
 * (inactive_list_is_low). Each list's lru_size >> priority pages, then:
 *
 * - no swap room: file only;
 * - v3.5: anon only while the zone's file and free pages are at most
 *   its high mark; else each kind by swappiness (anon 60, file 140)
 *   times pages recently scanned over pages recently found referenced
 *   and kept (zone->recent_scanned, recent_rotated, halved once past a
 *   quarter of the kind's pages);
 * - 3.8 (kernel.scan_plenty_file): file only while the inactive file
 *   list is not low;
 * - 5.8 (kernel.lru_cost_balance): the rotations give way to a cost per
 *   kind (zone->lru_cost: the pages reclaim wrote and those that
 *   refaulted, from 6.2 (kernel.lru_cost_rotations) also the pages it
 *   kept, each write or refault weighing SWAP_CLUSTER_MAX), the less
 *   costly kind scanned more; file only while the inactive file list is
 *   plentiful and not thrashing (cache_trim_mode), anon only while file
 *   is tiny (file_is_tiny);
 * - priority 0 with swap: both kinds whole (v3.5's unfractioned pass,
 *   5.8's SCAN_EQUAL).
 *
 * vm.swappiness is 60 unless the command line sets it (from 5.8,
 * setup_swappiness). Departures: the history is the zone's where 4.8
 * keeps it per node (the lists are per zone, vmscan.c);
 * 5.8's cost counts every refault that activates a page, where 6.12
 * counts one of a page that was active before eviction (PG_workingset,
 * which pages here do not carry); the 3.8 rule also asks for an inactive
 * file list of at least 2^priority pages, which 4.6 added.
 */
#include "lib/int_sqrt.h"
#include "mm/internal.h"
#include "mm/mm_inline.h"

/* vm.swappiness: the kernel's default (anon_prio; file_prio is 200 less it), and 5.8's largest */
#define VM_SWAPPINESS	60
#define MAX_SWAPPINESS	200

enum scan_balance {
	SCAN_EQUAL,	/* both kinds by their size */
	SCAN_FRACT,	/* each kind by fraction[kind] / denominator */
	SCAN_ANON,
	SCAN_FILE,
};

/* The pages on @file's (or anon's) two lists. */
static unsigned long kind_pages(struct zone *zone, bool file)
{
	enum lru_list base = file ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;

	return zone_nr_lru_pages(zone, base) + zone_nr_lru_pages(zone, base + 1);
}

/* int_sqrt(10 * GB of @pages), at least 1: the inactive ratio of that much memory */
static unsigned long inactive_ratio_of(const struct cma_mm *mm, unsigned long pages)
{
	unsigned long gb = pages >> (30 - mm->page_shift);

	return gb ? int_sqrt(10 * gb) : 1;
}

/*
 * calculate_zone_inactive_ratio: the anon ratio of the zone's size,
 * present pages in v3.5, managed ones from 3.9 (zone_sizing_pages).
 */
unsigned long zone_inactive_ratio(const struct zone *zone)
{
	return inactive_ratio_of(zone->mm, zone_sizing_pages(zone));
}

/*
 * The active:inactive ratio a list pair is kept at. v3.5: anon by the
 * zone's size (zone_inactive_ratio), file 1:1; 4.7
 * (kernel.inactive_ratio_lru): both by the pair's own size.
 */
static unsigned long inactive_ratio(struct zone *zone, bool file, unsigned long pages)
{
	const struct cma_mm *mm = zone->mm;

	if (mm->kernel.inactive_ratio_lru)
		return inactive_ratio_of(mm, pages);
	return file ? 1 : zone_inactive_ratio(zone);
}

/*
 * 4.12 (kernel.inactive_low_refaults): pages activated on refault since
 * reclaim last looked (snapshot_refaults) mean a new workingset: the
 * file list's active pages lose their protection.
 */
static bool workingset_transition(struct zone *zone)
{
	return zone->mm->kernel.inactive_low_refaults &&
	       atomic_load_explicit(&zone->refaults, memory_order_relaxed) !=
	       vm_event_sum(zone->mm, WORKINGSET_ACTIVATE);
}

/*
 * inactive_list_is_low: the inactive list times the ratio is shorter
 * than the active one. Deactivating anon pages is pointless without swap.
 */
bool inactive_list_is_low(struct zone *zone, bool file)
{
	enum lru_list base = file ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
	unsigned long inactive = zone_nr_lru_pages(zone, base);
	unsigned long active = zone_nr_lru_pages(zone, base + 1);

	if (!file && !zone->mm->swap_bytes)
		return false;
	if (file && workingset_transition(zone))
		return active > 0;
	return inactive * inactive_ratio(zone, file, inactive + active) < active;
}

/*
 * sysctl.vm.swappiness=N on the command line (sysctl.c, from 5.8): 0 to
 * 200, 5.8's range (82a1c34bf83d "mm: allow swappiness that prefers
 * reclaiming anon over the file workingset"). Before 5.8 it stays 60.
 */
void setup_swappiness(struct cma_mm *mm)
{
	mm->vm_swappiness = VM_SWAPPINESS;
	sysctl_vm_from_cmdline(mm, "swappiness", MAX_SWAPPINESS, &mm->vm_swappiness);
}

/* v3.5's history: @scanned pages isolated from @file's lists, @rotated found referenced and kept. */
void lru_note_scan(struct zone *zone, bool file, unsigned long scanned, unsigned long rotated)
{
	if (zone->mm->kernel.lru_cost_balance || !(scanned | rotated))
		return;
	spin_lock(&zone->lru_lock);
	zone->recent_scanned[file] += scanned;
	zone->recent_rotated[file] += rotated;
	spin_unlock(&zone->lru_lock);
}

/*
 * lru_note_cost (5.8): @nr_io pages written or read back for @file's
 * kind, and @nr_rotated pages its reclaim kept. 5.8 counts the pages;
 * 6.2 weighs IO SWAP_CLUSTER_MAX to a rotation and counts rotations.
 * Both costs halve once their sum passes a quarter of the LRU pages.
 */
void lru_note_cost(struct zone *zone, bool file, unsigned long nr_io, unsigned long nr_rotated)
{
	const struct kernel_profile *k = &zone->mm->kernel;
	unsigned long cost, lrusize;

	if (!k->lru_cost_balance)
		return;
	cost = k->lru_cost_rotations ? nr_io * SWAP_CLUSTER_MAX + nr_rotated : nr_io;
	if (!cost)
		return;
	spin_lock(&zone->lru_lock);
	zone->lru_cost[file] += cost;
	lrusize = kind_pages(zone, false) + kind_pages(zone, true);
	if (zone->lru_cost[0] + zone->lru_cost[1] > lrusize / 4) {
		zone->lru_cost[0] /= 2;
		zone->lru_cost[1] /= 2;
	}
	spin_unlock(&zone->lru_lock);
}

/*
 * v3.5: the rotation-weighted fractions, or a kind alone when file is
 * all but gone (anon) or, from 3.8, plentiful on its inactive list (file).
 */
static enum scan_balance balance_v35(struct zone *zone, int priority, uint64_t fraction[2])
{
	unsigned swappiness = zone->mm->vm_swappiness;
	const unsigned long prio[2] = { swappiness, MAX_SWAPPINESS - swappiness };
	unsigned long size[2] = { kind_pages(zone, false), kind_pages(zone, true) };
	unsigned long *scanned = zone->recent_scanned, *rotated = zone->recent_rotated;

	if (size[1] + zone_page_state(zone, NR_FREE_PAGES) <= high_wmark_pages(zone))
		return SCAN_ANON;
	if (zone->mm->kernel.scan_plenty_file && !inactive_list_is_low(zone, true) &&
	    zone_nr_lru_pages(zone, LRU_INACTIVE_FILE) >> priority)
		return SCAN_FILE;
	spin_lock(&zone->lru_lock);
	for (int file = 0; file < 2; file++) {
		/* a floating average: halve both once a quarter of the kind's pages were scanned */
		if (scanned[file] > size[file] / 4) {
			scanned[file] /= 2;
			rotated[file] /= 2;
		}
		fraction[file] = (uint64_t)(prio[file] + 1) * (scanned[file] + 1) / (rotated[file] + 1);
	}
	spin_unlock(&zone->lru_lock);
	return SCAN_FRACT;
}

/*
 * 5.8: file_is_tiny (file and free pages at most the high mark, anon's
 * inactive list not low and not empty at @priority), cache_trim_mode
 * (the inactive file list not low, which from 4.12 refaults make it,
 * and not empty at @priority), else each kind inversely to its cost.
 */
static enum scan_balance balance_cost(struct zone *zone, int priority, uint64_t fraction[2])
{
	unsigned long file = kind_pages(zone, true);
	uint64_t anon_cost, file_cost, total;

	if (file + zone_page_state(zone, NR_FREE_PAGES) <= high_wmark_pages(zone) &&
	    !inactive_list_is_low(zone, false) &&
	    zone_nr_lru_pages(zone, LRU_INACTIVE_ANON) >> priority)
		return SCAN_ANON;
	if (zone_nr_lru_pages(zone, LRU_INACTIVE_FILE) >> priority &&
	    !inactive_list_is_low(zone, true))
		return SCAN_FILE;
	spin_lock(&zone->lru_lock);
	total = (uint64_t)zone->lru_cost[0] + zone->lru_cost[1];
	anon_cost = total + zone->lru_cost[0];
	file_cost = total + zone->lru_cost[1];
	spin_unlock(&zone->lru_lock);
	total = anon_cost + file_cost;
	fraction[0] = zone->mm->vm_swappiness * (total + 1) / (anon_cost + 1);
	fraction[1] = (MAX_SWAPPINESS - zone->mm->vm_swappiness) * (total + 1) / (file_cost + 1);
	return SCAN_FRACT;
}

void get_scan_count(struct zone *zone, int priority, bool force_scan, unsigned long nr[NR_LRU_LISTS])
{
	struct cma_mm *mm = zone->mm;
	enum scan_balance balance = SCAN_EQUAL;
	uint64_t fraction[2] = { 1, 1 }, denominator;
	int lru;

	if (!swap_room(mm, mm->page_size))
		balance = SCAN_FILE;
	else if (priority || !mm->vm_swappiness)
		balance = mm->kernel.lru_cost_balance ? balance_cost(zone, priority, fraction) :
							 balance_v35(zone, priority, fraction);
	/* v3.5's denominator has the 1 that 5.8's division without rounding dropped */
	denominator = fraction[0] + fraction[1] + !mm->kernel.lru_cost_balance;
	nr[LRU_UNEVICTABLE] = 0;
	for_each_evictable_lru(lru) {
		bool file = lru == LRU_INACTIVE_FILE || lru == LRU_ACTIVE_FILE;
		unsigned long scan = zone_nr_lru_pages(zone, lru) >> priority;

		if (!scan && force_scan)
			scan = SWAP_CLUSTER_MAX;
		if (balance == SCAN_FRACT)
			scan = (unsigned long)(scan * fraction[file] / denominator);
		else if ((balance == SCAN_FILE && !file) || (balance == SCAN_ANON && file))
			scan = 0;
		nr[lru] = scan;
	}
}
