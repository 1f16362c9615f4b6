// SPDX-License-Identifier: GPL-2.0
/*
 * CMA areas that fail to activate (src/mm/cma.c, cma_init_reserved_areas):
 * before 5.12 their memory stays reserved; from 5.12
 * (cma_activate_release, 072355c1cf2d) it goes to the buddy allocator,
 * as 6.12's cma_activate_area gives it.
 */
#include "helpers.h"

#define AREA_BASE	(8 * MiB)
#define AREA_SIZE	(16 * MiB)

/* 64 MiB with ZONE_DMA below 16 MiB; with @area, a device's area across that boundary. */
static struct cma_mm *boot_with_area(const char *kernel, bool area)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .zone_dma_end = 16 * MiB,
				     .pageblock_order = 9, .cmdline = "cma=0", .kernel = kernel };
	struct cma_mm *mm = NULL;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	if (area) {
		struct cma_device *dev = cma_device_create(mm, "codec", ~0ull);

		assert_int_equal(cma_dma_declare_contiguous(mm, dev, AREA_SIZE, AREA_BASE, 0), 0);
	}
	assert_int_equal(cma_mm_boot(mm), 0);
	return mm;
}

static unsigned long reserved_in_area(struct cma_mm *mm)
{
	unsigned long n = 0;

	for (unsigned long pfn = AREA_BASE >> 12; pfn < (AREA_BASE + AREA_SIZE) >> 12; pfn++)
		n += page_test(pfn_to_page(mm, pfn), PG_reserved);
	return n;
}

/*
 * An area of 16 MiB at 8 MiB spans ZONE_DMA and ZONE_NORMAL, so it is
 * dropped. Expect: under 3.5 and 5.11 its 4096 pages stay reserved, the
 * machine managing 4096 pages fewer than without the area; under 5.12
 * and 6.12 none stays reserved and the machine manages as many pages as
 * without it, the log saying where they went. No area, no CMA page.
 */
static const char *const activate_kernels[] = { "3.5", "5.11", "5.12", "6.12" };
static const bool activate_released[] = { false, false, true, true };

static void cma_area_spanning_zones_memory(const char *kernel, unsigned k)
{
	struct cma_mm *plain = boot_with_area(kernel, false);
	struct cma_mm *mm = boot_with_area(kernel, true);
	unsigned long kept = activate_released[k] ? 0 : AREA_SIZE >> 12;
	char *log = test_dmesg(mm);

	if (reserved_in_area(mm) != kept || plain->totalram_pages - mm->totalram_pages != kept)
		fail_msg("kernel %s: expected %lu pages of the area kept reserved, found %lu reserved and %lu managed pages missing",
			 kernel, kept, reserved_in_area(mm), plain->totalram_pages - mm->totalram_pages);
	assert_non_null(strstr(log, activate_released[k] ?
			       "spans zones DMA and Normal: dropped, its 16 MiB go to the buddy allocator" :
			       "spans zones DMA and Normal: dropped, its 16 MiB stay reserved"));
	free(log);
	assert_int_equal(mm->totalcma_pages, 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
	cma_mm_destroy(plain);
}

int main(void)
{
	static const struct test_kernel_case cases[] = {
		test_kernel_case(cma_area_spanning_zones_memory, activate_kernels),
	};

	return test_run_kernel_cases("cma_activate", cases);
}
