// SPDX-License-Identifier: GPL-2.0
/*
 * arm64's DMA without CMA before 3.14 (kernel.arm64_dma_cma): no
 * default area, cma= no parameter of the kernel (handed to init, never
 * parsed), no dma_declare_contiguous, and coherent buffers from the page
 * allocator; from 3.14 the default area, cma= and CMA-backed buffers, as
 * in 6.12.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "dma/dma.h"

/* 512 MiB at 1 GiB, 2 MiB pageblocks: all of it in ZONE_DMA (below 4 GiB). */
#define ARM64_512M(k) .arch = CMA_ARCH_ARM64, .kernel = (k), .base = 1 * GiB, .size = 512 * MiB, \
			.pageblock_order = 9, .metadata_only = true

static const char *const kernels[] = { "3.13", "3.14", "6.12" };

static bool has_dma_cma(unsigned k)
{
	return k > 0;
}

/* Does the buffer at @handle of @size lie inside @cma? */
static bool in_area(struct cma_mm *mm, struct cma *cma, cma_phys_t handle, size_t size)
{
	unsigned long pfn = (unsigned long)(handle >> mm->page_shift);
	unsigned long base = cma_area_base_pfn(cma);

	return pfn >= base && pfn + (size >> mm->page_shift) <= base + cma_area_count(cma);
}

/*
 * Expect with cma=16M: 3.13 reserves no default area, says what the
 * kernel does with cma= (it goes to init), and serves a 1 MiB buffer for
 * a 32-bit device from the buddy allocator (no cma_alloc), giving it
 * back there; 3.14 and 6.12 reserve 4096 pages and serve the buffer
 * from them with one more cma_alloc.
 */
static void default_area_and_buffer(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(ARM64_512M(kernel), .cmdline = "cma=16M");
	struct cma_device *dev = cma_device_create(mm, "dev32", DMA_BIT_MASK(32));
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	uint64_t allocs = test_counter(mm, "cma_alloc_success");
	char *log = test_dmesg(mm);
	bool said = strstr(log, "cma=16M: no such parameter in kernel 3.13 on arm64") != NULL;
	cma_phys_t h = 0;

	expect_kernel(kernel, "a default area", has_dma_cma(k), cma != NULL);
	expect_kernel(kernel, "cma= said to go to init", !has_dma_cma(k), said);
	if (cma)
		assert_int_equal(cma_area_count(cma), 4096);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 1 * MiB, CMA_GFP_KERNEL, &h, NULL), 0);
	assert_true(h + 1 * MiB - 1 <= DMA_BIT_MASK(32));
	expect_kernel(kernel, "cma_alloc successes for the buffer", has_dma_cma(k),
		      (long)(test_counter(mm, "cma_alloc_success") - allocs));
	if (cma)
		assert_true(in_area(mm, cma, h, 1 * MiB));
	cma_dma_free_coherent(mm, dev, 1 * MiB, h);
	assert_verify(mm);
	free(log);
	cma_mm_destroy(mm);
}

/* Expect: a malformed cma= is refused (-EINVAL) where early_cma reads it, and left alone under 3.13. */
static void malformed_cma_param(const char *kernel, unsigned k)
{
	struct cma_bank bank;
	struct cma_mm_config cfg = test_config(&(struct test_shape){ ARM64_512M(kernel),
								     .cmdline = "cma=1Q" }, &bank);
	struct cma_mm *mm = NULL;
	int ret;

	cfg.quiet = true;
	ret = cma_mm_create(&cfg, &mm);
	expect_kernel(kernel, "cma_mm_create with cma=1Q", has_dma_cma(k) ? -EINVAL : 0, ret);
	cma_mm_destroy(mm);
}

/* Expect: dma_declare_contiguous gives a device 8 MiB from 3.14 and is no call (-ENOSYS) before. */
static void declare_device_area(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm_early(ARM64_512M(kernel), .cmdline = "cma=0");
	struct cma_device *dev = cma_device_create(mm, "camera", DMA_BIT_MASK(32));
	int ret = cma_dma_declare_contiguous(mm, dev, 8 * MiB, 0, 0);
	struct cma *cma;

	expect_kernel(kernel, "dma_declare_contiguous", has_dma_cma(k) ? 0 : -ENOSYS, ret);
	assert_int_equal(cma_mm_boot(mm), 0);
	cma = cma_dev_get_cma_area(mm, dev);
	expect_kernel(kernel, "the device's area", has_dma_cma(k), cma != NULL);
	if (cma)
		assert_int_equal(cma_area_count(cma), 2048);
	cma_mm_destroy(mm);
}

int main(void)
{
	static const struct test_kernel_case cases[] = {
		test_kernel_case(default_area_and_buffer, kernels),
		test_kernel_case(malformed_cma_param, kernels),
		test_kernel_case(declare_device_area, kernels),
	};

	return test_run_kernel_cases("dma_arm64_cma", cases);
}
