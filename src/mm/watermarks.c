// SPDX-License-Identifier: GPL-2.0
/*
 * Zone watermarks and what hangs off them (page_alloc.c's init half in
 * the kernel): min_free_kbytes, the min/low/high marks plus the seed-008
 * min_cma_pages, lowmem_reserve, and the MIGRATE_RESERVE pageblocks whose
 * number follows the min mark.
 */
#include "lib/int_sqrt.h"
#include "mm/internal.h"

/*
 * sysctl_lowmem_reserve_ratio, by the lower zone's type. HIGHMEM's is 0
 * from 4.16 ("mm/page_alloc: don't reserve ZONE_HIGHMEM for ZONE_MOVABLE
 * request", in the mm tree's since-4.15 shortlog of 1 Feb 2018); it
 * divides only ZONE_MOVABLE's pages, which the library never populates,
 * so no profile switches it.
 */
static const unsigned lowmem_reserve_ratio[MAX_NR_ZONES] = {
	[ZONE_DMA] = 256, [ZONE_DMA32] = 256, [ZONE_NORMAL] = 32, [ZONE_HIGHMEM] = 32,
};

static void wmark_store(unsigned long *p, unsigned long v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* Pages of zones <= @high_idx beyond their high marks (nr_free_zone_pages). */
static unsigned long nr_free_zone_pages(struct cma_mm *mm, enum zone_type high_idx)
{
	unsigned long sum = 0;

	for (int i = 0; i <= (int)high_idx; i++) {
		struct zone *z = &mm->zones[i];
		unsigned long high = high_wmark_pages(z), size = zone_sizing_pages(z);

		if (size > high)
			sum += size - high;
	}
	return sum;
}

unsigned long nr_free_pagecache_pages(struct cma_mm *mm)
{
	return nr_free_zone_pages(mm, ZONE_MOVABLE);
}

/* The lowmem a GFP_USER request can use beyond the high marks. */
unsigned long nr_free_buffer_pages(struct cma_mm *mm)
{
	return nr_free_zone_pages(mm, ZONE_NORMAL);
}

/* Any hole or reserved page in [start, end), a pageblock or its part in the zone? */
static bool pageblock_is_reserved(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	if (pageblock_known_clean(mm, start))
		return false;
	for (unsigned long pfn = start; pfn < end; pfn++)
		if (!pfn_valid(mm, pfn) || page_test(pfn_to_page(mm, pfn), PG_reserved))
			return true;
	/* a part is no proof for the block: another zone holds the rest */
	if (end - start == mm->pageblock_nr_pages)
		set_pageblock_known_clean(mm, start);
	return false;
}

/*
 * setup_zone_migrate_reserve: mark up to two MOVABLE pageblocks with no
 * reserved page as MIGRATE_RESERVE, as many as the min mark covers, and
 * turn any surplus RESERVE block back to MOVABLE. zone->lock held.
 */
static void setup_zone_migrate_reserve(struct zone *zone)
{
	struct cma_mm *mm = zone->mm;
	unsigned long nr = mm->pageblock_nr_pages;
	unsigned long start = (zone->zone_start_pfn + nr - 1) & ~(nr - 1);
	unsigned long end = zone->zone_start_pfn + zone->spanned_pages;
	long reserve = (long)((min_wmark_pages(zone) + nr - 1) / nr);

	lockdep_assert_held(&zone->lock);
	if (reserve > 2)
		reserve = 2;
	zone->nr_migrate_reserve_block = (int)reserve;
	for (unsigned long pfn = start; pfn < end; pfn += nr) {
		unsigned long block_end = pfn + nr < end ? pfn + nr : end;
		int mt;

		if (!pfn_valid(mm, pfn))
			continue;
		mt = get_pageblock_migratetype(mm, pfn);
		/* only RESERVE and MOVABLE blocks can count: scan no other for reserved pages */
		if (reserve > 0 && (mt == MIGRATE_RESERVE || mt == MIGRATE_MOVABLE)) {
			/* blocks with reserved pages will never free */
			if (pageblock_is_reserved(mm, pfn, block_end))
				continue;
			if (mt == MIGRATE_MOVABLE) {
				set_pageblock_migratetype(mm, pfn, MIGRATE_RESERVE);
				move_freepages_block(zone, pfn_to_page(mm, pfn), MIGRATE_RESERVE);
			}
			reserve--;
			continue;
		}
		/* the reserve is met: take back what an earlier pass reserved */
		if (mt == MIGRATE_RESERVE) {
			set_pageblock_migratetype(mm, pfn, MIGRATE_MOVABLE);
			move_freepages_block(zone, pfn_to_page(mm, pfn), MIGRATE_MOVABLE);
		}
	}
}

static void calculate_totalreserve_pages(struct cma_mm *mm)
{
	unsigned long total = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &mm->zones[i];
		unsigned long max = 0;

		for (int j = i; j < MAX_NR_ZONES; j++)
			if (z->lowmem_reserve[j] > max)
				max = z->lowmem_reserve[j];
		max += high_wmark_pages(z);
		if (max > zone_sizing_pages(z))
			max = zone_sizing_pages(z);
		total += max;
	}
	mm->totalreserve_pages = total;
}

/*
 * The gaps from min to low and to high of a zone of @size pages whose
 * share of min_free_kbytes is @share: a quarter and a half of it; under
 * kernel.watermark_scale one and two steps, a step being the larger of
 * that quarter and watermark_scale_factor ten-thousandths of the zone.
 */
static void zone_wmark_gaps(struct cma_mm *mm, unsigned long size, unsigned long share,
			    unsigned long *low, unsigned long *high)
{
	unsigned long scaled = (unsigned long)((unsigned __int128)size *
					       mm->watermark_scale_factor / 10000);

	*low = share >> 2;
	*high = share >> 1;
	if (mm->kernel.watermark_scale) {
		*low = scaled > *low ? scaled : *low;
		*high = 2 * *low;
	}
}

/*
 * setup_per_zone_wmarks: share min_free_kbytes among the lowmem zones by
 * size; highmem keeps a small fixed min. low and high sit above min by
 * zone_wmark_gaps(), so that from 4.6 kswapd's margin grows with memory.
 * All three carry min_cma_pages. Zone sizes are zone_sizing_pages():
 * present pages, managed ones from 3.9.
 */
void setup_per_zone_wmarks(struct cma_mm *mm)
{
	unsigned long pages_min = (unsigned long)mm->min_free_kbytes >> (mm->page_shift - 10);
	unsigned long lowmem_pages = 0;
	struct zone *z;

	for_each_populated_zone(mm, z)
		if (!is_highmem(z))
			lowmem_pages += zone_sizing_pages(z);
	for_each_populated_zone(mm, z) {
		unsigned long size = zone_sizing_pages(z);
		unsigned long tmp = lowmem_pages ?
				    (unsigned long)((unsigned __int128)pages_min * size / lowmem_pages) : 0;
		unsigned long min = tmp, low, high;

		zone_wmark_gaps(mm, size, tmp, &low, &high);
		spin_lock(&z->lock);
		if (is_highmem(z)) {
			min = size / 1024;
			min = min < 32 ? 32 : min > 128 ? 128 : min;
		}
		wmark_store(&z->watermark[WMARK_MIN], min + z->min_cma_pages);
		wmark_store(&z->watermark[WMARK_LOW], min + low + z->min_cma_pages);
		wmark_store(&z->watermark[WMARK_HIGH], min + high + z->min_cma_pages);
		/* 5.0: new marks start unboosted */
		wmark_store(&z->watermark_boost, 0);
		/* 3.12-4.7: the fair policy's batch follows the new marks (its mark stays) */
		zone_refill_alloc_batch(z);
		/* 4.4: no RESERVE blocks; HIGHATOMIC ones are reserved on demand */
		if (!mm->kernel.highatomic)
			setup_zone_migrate_reserve(z);
		spin_unlock(&z->lock);
	}
	calculate_totalreserve_pages(mm);
	/* 5.14: pcp->high follows the low mark; before, the marks leave the lists alone */
	if (mm->kernel.pcp_high_lowmark)
		zone_pcp_update(mm);
}

/* setup_per_zone_lowmem_reserve: what a lower zone keeps from higher-zone requests. */
void setup_per_zone_lowmem_reserve(struct cma_mm *mm)
{
	for (int j = 0; j < MAX_NR_ZONES; j++) {
		unsigned long pages = zone_sizing_pages(&mm->zones[j]);

		wmark_store(&mm->zones[j].lowmem_reserve[j], 0);
		for (int idx = j - 1; idx >= 0; idx--) {
			struct zone *lower = &mm->zones[idx];

			wmark_store(&lower->lowmem_reserve[j], pages / lowmem_reserve_ratio[idx]);
			pages += zone_sizing_pages(lower);
		}
	}
	calculate_totalreserve_pages(mm);
}

/*
 * init_per_zone_wmark_min: min_free_kbytes = sqrt(16 * lowmem KiB),
 * clamped to [128, 65536], to [128, 262144] from 5.7
 * (kernel.min_free_kbytes_256m); run after CMA activation, as
 * module_init is.
 */
void init_per_zone_wmark_min(struct cma_mm *mm)
{
	unsigned long lowmem_kbytes = nr_free_buffer_pages(mm) * (mm->page_size >> 10);
	unsigned long k = int_sqrt(lowmem_kbytes * 16);
	unsigned long max = mm->kernel.min_free_kbytes_256m ? 262144 : 65536;

	mm->min_free_kbytes = (int)(k < 128 ? 128 : k > max ? max : k);
	setup_per_zone_wmarks(mm);
	setup_per_zone_lowmem_reserve(mm);
}
