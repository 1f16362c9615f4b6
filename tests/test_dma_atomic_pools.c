// SPDX-License-Identifier: GPL-2.0
/*
 * arm64's atomic DMA pools at postcore (src/dma/arch_arm64.c,
 * kernel.dma_atomic_pools, 5.8): dma_atomic_pool_init takes its three
 * pools from the default CMA area before any driver, as Debian's 6.12
 * does in the oracle's arm64 guest (bench/oracle/results-default-area.txt:
 * "128@384+7680@8704" free after the first 32 MiB buffer, the next two
 * -ENOMEM).
 */
#include "helpers.h"
#include "dma/dma.h"
#include "lib/bitmap.h"

/* The oracle's arm64 guest (QEMU virt, -m 3072): 3 GiB at 1 GiB, 2 MiB pageblocks. */
#define ARM64_AT_1G(k) .arch = CMA_ARCH_ARM64, .kernel = (k), .base = 1 * GiB, .pageblock_order = 9, \
			.metadata_only = true
#define QEMU_ARM64(k) ARM64_AT_1G(k), .size = 3 * GiB

static struct cma *default_area(struct cma_mm *mm)
{
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);

	assert_non_null(cma);
	return cma;
}

/* The pages of the area's first @n that are allocated. */
static unsigned long area_used_below(struct cma_mm *mm, struct cma *cma, unsigned long n)
{
	unsigned long used;

	pthread_mutex_lock(&mm->cma_mutex);
	used = bitmap_weight(cma->bitmap, n);
	pthread_mutex_unlock(&mm->cma_mutex);
	return used;
}

/* The area's page a handle falls on. */
static unsigned long area_page(struct cma_mm *mm, struct cma *cma, cma_phys_t handle)
{
	return (unsigned long)(handle >> mm->page_shift) - cma_area_base_pfn(cma);
}

/*
 * Expect, on the guest's 3 GiB with cma=64M under 6.12: three pools of
 * 512 KiB (about 93 pages scaled from totalram, order 7), GFP_KERNEL,
 * GFP_DMA and GFP_DMA32, take the area's pages 0-383; of three 32 MiB
 * buffers the first starts at page 512 (the next CONFIG_CMA_ALIGNMENT
 * boundary) and the other two find no room, nor a buddy block of order
 * 13, so -ENOMEM, as the guest's module got.
 */
static void pools_take_the_area_start(void **state)
{
	struct cma_mm *mm = test_mm(QEMU_ARM64("6.12"), .cmdline = "cma=64M");
	struct cma_device *dev = cma_device_create(mm, "oracle_cma", DMA_BIT_MASK(32));
	struct cma *cma = default_area(mm);
	cma_phys_t h;

	assert_int_equal(cma->count, 16384);
	assert_int_equal(area_used_below(mm, cma, 384), 384);
	assert_int_equal(area_used_below(mm, cma, cma->count), 384);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 32 * MiB, CMA_GFP_KERNEL, &h, NULL), 0);
	assert_int_equal(area_page(mm, cma, h), 512);
	for (int i = 0; i < 2; i++) {
		cma_phys_t none = 0x1234;

		assert_int_equal(cma_dma_alloc_coherent(mm, dev, 32 * MiB, CMA_GFP_KERNEL, &none, NULL),
				 -ENOMEM);
		assert_int_equal(none, 0x1234);
	}
	assert_int_equal(area_used_below(mm, cma, cma->count), 384 + 8192);
	cma_dma_free_coherent(mm, dev, 32 * MiB, h);
	assert_int_equal(area_used_below(mm, cma, cma->count), 384);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect under 5.7, before the pools: the area whole, two 32 MiB buffers at pages 0 and 8192. */
static void no_pools_before_5_8(void **state)
{
	struct cma_mm *mm = test_mm(QEMU_ARM64("5.7"), .cmdline = "cma=64M");
	struct cma *cma = default_area(mm);
	cma_phys_t a, b;

	assert_int_equal(area_used_below(mm, cma, cma->count), 0);
	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, 32 * MiB, CMA_GFP_KERNEL, &a, NULL), 0);
	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, 32 * MiB, CMA_GFP_KERNEL, &b, NULL), 0);
	assert_int_equal(area_page(mm, cma, a), 0);
	assert_int_equal(area_page(mm, cma, b), 8192);
	cma_mm_destroy(mm);
}

/*
 * Expect the pool size: coherent_pool=1M gives each pool 256 pages; on
 * 512 MiB the scaled size (16 pages) is raised to 128 KiB, 32 pages
 * each. A malformed coherent_pool= is refused, -EINVAL.
 */
static void pool_size_from_cmdline_and_ram(void **state)
{
	struct cma_mm_config cfg;
	struct cma_bank bank;
	struct cma_mm *mm = test_mm(QEMU_ARM64("6.12"), .cmdline = "cma=64M coherent_pool=1M");
	struct cma *cma = default_area(mm);

	assert_int_equal(area_used_below(mm, cma, cma->count), 3 * 256);
	cma_mm_destroy(mm);

	mm = test_mm(ARM64_AT_1G("6.12"), .size = 512 * MiB, .cmdline = "cma=64M");
	cma = default_area(mm);
	assert_int_equal(area_used_below(mm, cma, cma->count), 3 * 32);
	cma_mm_destroy(mm);

	cfg = test_config(&(struct test_shape){ QEMU_ARM64("6.12"), .cmdline = "coherent_pool=1Q" }, &bank);
	cfg.quiet = true;
	mm = (struct cma_mm *)1;
	assert_int_equal(cma_mm_create(&cfg, &mm), -EINVAL);
	assert_null(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pools_take_the_area_start),
		cmocka_unit_test(no_pools_before_5_8),
		cmocka_unit_test(pool_size_from_cmdline_and_ram),
	};

	return cmocka_run_group_tests_name("dma_atomic_pools", tests, NULL, NULL);
}
