// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <time.h>

#include "helpers.h"

struct cma_mm *test_boot(const struct cma_mm_config *cfg)
{
	struct cma_mm_config c = *cfg;
	struct cma_mm *mm = NULL;

	/* no default CMA area unless the test asks for one */
	if (!c.cmdline)
		c.cmdline = "cma=0";
	assert_int_equal(cma_mm_create(&c, &mm), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	return mm;
}

struct cma_mm *test_machine(cma_phys_t base, uint64_t size, bool metadata_only)
{
	struct cma_bank bank = { base, size };
	struct cma_mm_config cfg = {
		.banks = &bank,
		.nr_banks = 1,
		.zone_dma_end = base < 16 * MiB && base + size > 16 * MiB ? 16 * MiB : 0,
		.metadata_only = metadata_only,
	};

	return test_boot(&cfg);
}

void test_activate_cma(struct cma_mm *mm, unsigned long start_pfn, unsigned long nr_pages)
{
	for (unsigned long pfn = start_pfn; pfn < start_pfn + nr_pages; pfn += mm->pageblock_nr_pages)
		init_cma_reserved_pageblock(mm, cma_pfn_to_page(mm, pfn));
	init_per_zone_wmark_min(mm);
}

struct cma_mm *test_machine_with_cma(uint64_t size, cma_phys_t cma_base, uint64_t cma_size)
{
	struct cma_bank bank = { 0, size };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .zone_dma_end = 16 * MiB,
				     .cmdline = "cma=0" };
	struct cma_mm *mm = NULL;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(cma_memblock_reserve(mm, cma_base, cma_size), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	test_activate_cma(mm, cma_base >> mm->page_shift, cma_size >> mm->page_shift);
	return mm;
}

unsigned long test_seed(const char *test)
{
	const char *env = getenv("CMA_TEST_SEED");
	unsigned long seed = env ? strtoul(env, NULL, 0) : (unsigned long)time(NULL);

	printf("%s: seed %lu (replay with CMA_TEST_SEED=%lu)\n", test, seed, seed);
	return seed;
}

/* xorshift64* */
uint64_t test_rand(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

unsigned long free_pages_of_type(struct zone *zone, int mt)
{
	unsigned long n = 0;

	spin_lock(&zone->lock);
	for (unsigned o = 0; o < zone->mm->max_order; o++)
		for (struct cma_page *p = page_list_first(zone->mm, &zone->free_area[o].free_list[mt]); p;
		     p = page_list_next(zone->mm, p))
			n += 1ul << o;
	spin_unlock(&zone->lock);
	return n;
}

unsigned long pcp_count(struct cma_mm *mm, unsigned cpu, enum zone_type z)
{
	return (unsigned long)mm->slots[cpu].pcp[z].count;
}

void test_zero_watermarks(struct cma_mm *mm)
{
	struct zone *z;

	for_each_zone(mm, z) {
		spin_lock(&z->lock);
		for (int w = 0; w < NR_WMARK; w++)
			__atomic_store_n(&z->watermark[w], 0, __ATOMIC_RELAXED);
		for (int j = 0; j < MAX_NR_ZONES; j++)
			__atomic_store_n(&z->lowmem_reserve[j], 0, __ATOMIC_RELAXED);
		spin_unlock(&z->lock);
	}
	mm->min_free_kbytes = 0;
}

unsigned long test_alloc_all(struct cma_mm *mm, cma_gfp_t gfp, struct cma_page **pages,
			     unsigned long max)
{
	unsigned long n = 0;

	for (;;) {
		unsigned long before = n;
		struct cma_page *page;

		while ((page = cma_alloc_pages(mm, gfp, 0))) {
			if (n == max) {
				cma_free_pages(mm, page, 0);
				print_error("test_alloc_all: expected at most %lu pages, found more\n", max);
				fail();
			}
			pages[n++] = page;
		}
		cma_drain_all_pages(mm);
		if (n == before)
			return n;
	}
}

char *test_dmesg(struct cma_mm *mm)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cma_mm_dmesg(mm, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

char *test_proc_read(struct cma_mm *mm, const char *name)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cma_write_proc(mm, name, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

int test_check_idle_counters(struct cma_mm *mm, char *why, size_t len)
{
	long dirty = 0, counted = 0, writeback = 0, isolated = 0;
	struct zone *z;

	for (unsigned long pfn = mm->base_pfn; pfn < mm->end_pfn; pfn++) {
		struct cma_page *page = cma_pfn_to_page(mm, pfn);

		if (page && page_test(page, PG_head) && page_test(page, PG_movable) &&
		    !page_test(page, PG_swapbacked) && page_test(page, PG_dirty))
			dirty++;
	}
	for_each_zone(mm, z) {
		counted += atomic_load(&z->vm_stat[NR_FILE_DIRTY]);
		writeback += atomic_load(&z->vm_stat[NR_WRITEBACK]);
		isolated += atomic_load(&z->vm_stat[NR_ISOLATED_ANON]) +
			    atomic_load(&z->vm_stat[NR_ISOLATED_FILE]);
	}
	if (counted == dirty && !writeback && !isolated)
		return 0;
	snprintf(why, len, "NR_FILE_DIRTY %ld, NR_WRITEBACK %ld, NR_ISOLATED %ld: expected %ld dirty file pages as mem_map holds, none under writeback or isolated",
		 counted, writeback, isolated, dirty);
	return -1;
}
