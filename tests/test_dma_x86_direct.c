// SPDX-License-Identifier: GPL-2.0
/*
 * x86's dma_alloc_coherent by release (src/dma/arch_x86.c): the seed's
 * dma_generic_alloc_coherent, which retries a buffer beyond a small mask
 * with GFP_DMA from CMA again; dma-direct's dma_direct_alloc from 4.17
 * (x86_dma_direct), which falls back from CMA to the buddy allocator
 * and from zone to lower zone, asking CMA on every retry until 5.2 and
 * once from 5.3 (dma_direct_cma_once).
 */
#include "helpers.h"
#include "dma/dma.h"

static unsigned long free_pages(struct cma_mm *mm)
{
	cma_drain_all_pages(mm);
	return global_page_state(mm, NR_FREE_PAGES);
}

/*
 * 16 MiB at 0 (ZONE_DMA) and 256 MiB at 1 GiB (ZONE_DMA32, with the
 * default area of 16 MiB at its top): every page but ZONE_DMA's lies
 * beyond a 28-bit mask.
 *
 * Expect, for two pages that may sleep on a 28-bit device:
 *   3.5, 4.16  -ENOMEM: CMA, and CMA again on the GFP_DMA retry, both
 *              beyond the mask (2 cma_alloc successes);
 *   4.17, 5.2  ZONE_DMA: CMA beyond, the buddy allocator's ZONE_DMA32
 *              page beyond, then CMA again and ZONE_DMA (2 successes);
 *   5.3, 6.12  ZONE_DMA with CMA asked once (1 success).
 * Every buffer given back leaves the free pages as they were (a CMA
 * buffer kept by mistake would show there).
 */
static const char *const beyond_mask_kernels[] = { "3.5", "4.16", "4.17", "5.2", "5.3", "6.12" };
static const struct {
	int ret;
	uint64_t cma_allocs;
} beyond_mask_expect[] = {
	{ -ENOMEM, 2 }, { -ENOMEM, 2 }, { 0, 2 }, { 0, 2 }, { 0, 1 }, { 0, 1 },
};

static void alloc_coherent_x86_cma_beyond_mask(const char *kernel, unsigned k)
{
	struct cma_bank banks[] = { { 0, 16 * MiB }, { 1 * GiB, 256 * MiB } };
	struct cma_mm_config cfg = { .banks = banks, .nr_banks = 2, .pageblock_order = 9,
				     .zone_dma_end = 16 * MiB, .zone_dma32_end = 4 * GiB,
				     .cmdline = "cma=16M", .kernel = kernel };
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_device *dev = cma_device_create(mm, "dev28", DMA_BIT_MASK(28));
	unsigned long before = free_pages(mm);
	cma_phys_t h = 0x1234;
	int ret;

	ret = cma_dma_alloc_coherent(mm, dev, 8192, CMA_GFP_KERNEL, &h, NULL);
	if (ret != beyond_mask_expect[k].ret ||
	    test_counter(mm, "cma_alloc_success") != beyond_mask_expect[k].cma_allocs)
		fail_msg("kernel %s: expected %d after %llu CMA allocations, got %d after %llu",
			 kernel, beyond_mask_expect[k].ret,
			 (unsigned long long)beyond_mask_expect[k].cma_allocs, ret,
			 (unsigned long long)test_counter(mm, "cma_alloc_success"));
	if (!ret) {
		assert_true(h + 8192 - 1 <= DMA_BIT_MASK(28));
		assert_int_equal(before - free_pages(mm), 2);
		cma_dma_free_coherent(mm, dev, 8192, h);
	} else {
		assert_int_equal(h, 0x1234);
	}
	assert_int_equal(free_pages(mm), before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (the seed's "addr + size > mask" against dma-direct's
 * dma_coherent_ok, last byte <= mask, 4.17): two pages that may sleep
 * on a device whose mask ends exactly at the last byte of the default
 * area's first two pages. Up to 4.16 that buffer is refused, and the
 * GFP_DMA retry asks CMA again for the same pages: -ENOMEM; from 4.17
 * it is the buffer, at the area's base.
 */
static const char *const mask_end_kernels[] = { "3.5", "4.16", "4.17", "6.12" };

static void alloc_coherent_x86_buffer_ending_at_the_mask(const char *kernel, unsigned k)
{
	struct cma_bank banks[] = { { 0, 16 * MiB }, { 1 * GiB, 256 * MiB } };
	struct cma_mm_config cfg = { .banks = banks, .nr_banks = 2, .pageblock_order = 9,
				     .zone_dma_end = 16 * MiB, .zone_dma32_end = 4 * GiB,
				     .cmdline = "cma=16M", .kernel = kernel };
	struct cma_mm *mm = test_boot(&cfg);
	struct cma *area = cma_dev_get_cma_area(mm, NULL);
	uint64_t base = (uint64_t)cma_area_base_pfn(area) * 4096;
	struct cma_device *dev = cma_device_create(mm, "edge", base + 8192 - 1);
	cma_phys_t h = 0x1234;
	int ret = cma_dma_alloc_coherent(mm, dev, 8192, CMA_GFP_KERNEL, &h, NULL);

	if (k < 2) {
		expect_kernel(kernel, "a buffer ending at the mask's last byte", -ENOMEM, ret);
	} else {
		expect_kernel(kernel, "a buffer ending at the mask's last byte", 0, ret);
		assert_int_equal(h, base);
		cma_dma_free_coherent(mm, dev, 8192, h);
	}
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	static const struct test_kernel_case cases[] = {
		test_kernel_case(alloc_coherent_x86_cma_beyond_mask, beyond_mask_kernels),
		test_kernel_case(alloc_coherent_x86_buffer_ending_at_the_mask, mask_end_kernels),
	};

	return test_run_kernel_cases("dma_x86_direct", cases);
}
