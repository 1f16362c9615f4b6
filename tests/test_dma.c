// SPDX-License-Identifier: GPL-2.0
/*
 * DMA mapping and the architectures (src/dma/mapping.c, arch_x86.c,
 * arch_arm.c; the boot in src/init/main.c): x86's dma_alloc_coherent
 * (seed 010) from CMA, from the buddy allocator, within the coherent
 * mask; ARM's from CMA only and, when atomic, from the pool; frees going
 * back where the memory came from; the boot order and log of each
 * architecture; the S5P MFC board of seed 011; arm64 under 6.12
 * (arch_arm64.c: zone_sizes_init, dma_direct_alloc).
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "dma/dma.h"
#include "lib/bitmap.h"

/* ---- machines ---- */

/* x86: ZONE_DMA below 16 MiB, ZONE_DMA32 below 4 GiB, pageblock order 9. */
#define X86_MACHINE .pageblock_order = 9, .dma_end = 16 * MiB, .dma32_end = 4 * GiB

/* The ARM board of cmasim's "arm": 1 GiB at 0x40000000, lowmem up to 0x6f800000. */
#define ARM_LOWMEM_LIMIT 0x6f800000ull
#define ARM_BOARD .arch = CMA_ARCH_ARM, .base = 0x40000000, .size = 1 * GiB, \
		  .highmem_start = ARM_LOWMEM_LIMIT

/* ---- queries ---- */

static struct cma *default_area(struct cma_mm *mm)
{
	return cma_dev_get_cma_area(mm, NULL);
}

static unsigned long area_used(struct cma_mm *mm, struct cma *cma)
{
	unsigned long n;

	pthread_mutex_lock(&mm->cma_mutex);
	n = bitmap_weight(cma->bitmap, cma->count);
	pthread_mutex_unlock(&mm->cma_mutex);
	return n;
}

static bool in_area(struct cma_mm *mm, struct cma *cma, cma_phys_t addr, size_t size)
{
	cma_phys_t base = (cma_phys_t)cma->base_pfn << mm->page_shift;

	return addr >= base && addr + size <= base + ((cma_phys_t)cma->count << mm->page_shift);
}

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

static unsigned long free_pages(struct cma_mm *mm)
{
	cma_drain_all_pages(mm);
	return global_page_state(mm, NR_FREE_PAGES);
}

static enum zone_type zone_of(struct cma_mm *mm, cma_phys_t addr)
{
	return page_zonenum(cma_pfn_to_page(mm, (unsigned long)(addr >> mm->page_shift)));
}

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

/* Write @byte over the whole area, through an allocation of all of it. */
static void dirty_area(struct cma_mm *mm, struct cma *cma, int byte)
{
	struct cma_page *p = cma_dma_alloc_from_contiguous(mm, NULL, (int)cma->count, 0);

	assert_non_null(p);
	memset(cma_page_address(mm, p), byte, (size_t)cma->count << mm->page_shift);
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, (int)cma->count));
}

static int contig_starts;
static void count_contig(void *ctx, const char *event, const char *line)
{
	if (!strcmp(event, "cma_alloc_start"))
		contig_starts++;
}

/* ---- x86 ---- */

/*
 * Expect: with a default area, a non-atomic request comes from CMA,
 * aligned to its order, zeroed (departure: the seed does not clear CMA
 * memory), and its free clears the area's bitmap again.
 */
static void alloc_coherent_x86_from_cma(void **state)
{
	struct cma_mm *mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=16M");
	struct cma_device *dev = cma_device_create(mm, "pci0", DMA_BIT_MASK(32));
	struct cma *cma = default_area(mm);
	cma_phys_t a, b;
	void *va;

	dirty_area(mm, cma, 0xaa);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 1 * MiB, CMA_GFP_KERNEL, &a, &va), 0);
	assert_true(in_area(mm, cma, a, 1 * MiB));
	assert_int_equal(a & (1 * MiB - 1), 0);		/* get_order(1 MiB) = 8 */
	assert_ptr_equal(va, cma_page_address(mm, cma_pfn_to_page(mm, a >> 12)));
	assert_true(all_zero(va, 1 * MiB));
	assert_int_equal(area_used(mm, cma), 256);
	/* 5 KiB: two pages from CMA, at an order-1 boundary */
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 5000, CMA_GFP_KERNEL, &b, NULL), 0);
	assert_true(in_area(mm, cma, b, 8192));
	assert_int_equal(b & 8191, 0);
	assert_int_equal(area_used(mm, cma), 258);
	assert_verify(mm);
	cma_dma_free_coherent(mm, dev, 1 * MiB, a);
	cma_dma_free_coherent(mm, dev, 5000, b);
	assert_int_equal(area_used(mm, cma), 0);
	assert_int_equal(counter(mm, "cma_alloc_success"), 2 + 1);	/* + dirty_area's */
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: once the area cannot serve a request, or with no area, the
 * buddy allocator does, within the mask's zone, zeroed; its free goes
 * back to the buddy allocator.
 */
static void alloc_coherent_x86_buddy_fallback(void **state)
{
	struct cma_mm *mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=8M");
	struct cma_device *dev = cma_device_create(mm, "pci0", DMA_BIT_MASK(32));
	struct cma *cma = default_area(mm);
	cma_phys_t h[5];
	unsigned long before;
	void *va;

	for (int i = 0; i < 4; i++) {
		assert_int_equal(cma_dma_alloc_coherent(mm, dev, 2 * MiB, CMA_GFP_KERNEL, &h[i], NULL), 0);
		assert_true(in_area(mm, cma, h[i], 2 * MiB));
	}
	assert_int_equal(area_used(mm, cma), cma->count);
	before = free_pages(mm);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 2 * MiB, CMA_GFP_KERNEL, &h[4], &va), 0);
	assert_false(in_area(mm, cma, h[4], 2 * MiB));
	assert_int_equal(zone_of(mm, h[4]), ZONE_DMA32);
	assert_int_not_equal(cma_pageblock_migratetype(mm, h[4] >> 12), CMA_MIGRATE_CMA);
	assert_true(all_zero(va, 2 * MiB));
	assert_int_equal(before - free_pages(mm), 512);
	assert_int_equal(counter(mm, "cma_alloc_fail"), 1);
	cma_dma_free_coherent(mm, dev, 2 * MiB, h[4]);
	assert_int_equal(free_pages(mm), before);
	for (int i = 0; i < 4; i++)
		cma_dma_free_coherent(mm, dev, 2 * MiB, h[i]);
	assert_int_equal(area_used(mm, cma), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);

	/* no area at all */
	mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=0");
	dev = cma_device_create(mm, "pci0", DMA_BIT_MASK(64));
	before = free_pages(mm);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 64 * 1024, CMA_GFP_KERNEL, &h[0], NULL), 0);
	assert_int_equal(before - free_pages(mm), 16);
	cma_dma_free_coherent(mm, dev, 64 * 1024, h[0]);
	assert_int_equal(free_pages(mm), before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: atomic requests never start a contiguous allocation: the buddy allocator serves them. */
static void alloc_coherent_x86_atomic_skips_cma(void **state)
{
	struct cma_mm *mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=16M");
	struct cma_device *dev = cma_device_create(mm, "pci0", DMA_BIT_MASK(32));
	struct cma *cma = default_area(mm);
	cma_phys_t h;

	contig_starts = 0;
	cma_mm_set_trace(mm, count_contig, NULL);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 64 * 1024, CMA_GFP_ATOMIC, &h, NULL), 0);
	assert_false(in_area(mm, cma, h, 64 * 1024));
	assert_int_equal(contig_starts, 0);
	assert_int_equal(counter(mm, "cma_alloc_success") + counter(mm, "cma_alloc_fail"), 0);
	cma_dma_free_coherent(mm, dev, 64 * 1024, h);
	/* the same request, not atomic, does start one */
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 64 * 1024, CMA_GFP_KERNEL, &h, NULL), 0);
	assert_int_equal(contig_starts, 1);
	cma_dma_free_coherent(mm, dev, 64 * 1024, h);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_int_equal(area_used(mm, cma), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect (x86_may_use_cma by release): a one-page GFP_KERNEL buffer comes
 * from the default area until 5.2 and from the buddy allocator from 5.3;
 * a 64 KiB buffer that may not sleep (GFP_NOWAIT) from the area under
 * 3.5 (not GFP_ATOMIC) and not from 3.16; a 64 KiB GFP_KERNEL |
 * __GFP_HIGH one from the buddy allocator under 3.5 (atomic by the HIGH
 * bit) and from the area from 3.16.
 */
static void alloc_coherent_x86_cma_or_buddy_by_release(void **state)
{
	static const struct {
		const char *kernel;
		bool page, nowait, high;	/* from the area? */
	} cases[] = {
		{ "3.5", true, true, false },
		{ "3.15", true, true, false },
		{ "3.16", true, false, true },
		{ "5.2", true, false, true },
		{ "5.3", false, false, true },
		{ "6.12", false, false, true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cma_mm *mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=16M",
					    .kernel = cases[i].kernel);
		struct cma_device *dev = cma_device_create(mm, "pci0", DMA_BIT_MASK(32));
		struct cma *cma = default_area(mm);
		cma_phys_t h[3];

		assert_int_equal(cma_dma_alloc_coherent(mm, dev, 4096, CMA_GFP_KERNEL, &h[0], NULL), 0);
		assert_int_equal(cma_dma_alloc_coherent(mm, dev, 64 * KiB, 0, &h[1], NULL), 0);
		assert_int_equal(cma_dma_alloc_coherent(mm, dev, 64 * KiB, CMA_GFP_KERNEL | CMA_GFP_HIGH,
							&h[2], NULL), 0);
		if (in_area(mm, cma, h[0], 4096) != cases[i].page ||
		    in_area(mm, cma, h[1], 64 * KiB) != cases[i].nowait ||
		    in_area(mm, cma, h[2], 64 * KiB) != cases[i].high)
			fail_msg("kernel %s: from the area: one page %d, GFP_NOWAIT %d, GFP_KERNEL|__GFP_HIGH %d",
				 cases[i].kernel, in_area(mm, cma, h[0], 4096),
				 in_area(mm, cma, h[1], 64 * KiB), in_area(mm, cma, h[2], 64 * KiB));
		cma_dma_free_coherent(mm, dev, 4096, h[0]);
		cma_dma_free_coherent(mm, dev, 64 * KiB, h[1]);
		cma_dma_free_coherent(mm, dev, 64 * KiB, h[2]);
		assert_int_equal(area_used(mm, cma), 0);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

/* Expect: a 24-bit device, and the ISA fallback device (dev NULL), get ZONE_DMA memory. */
static void alloc_coherent_x86_24bit_mask_gets_zone_dma(void **state)
{
	struct cma_mm *mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=0");
	struct cma_device *isa = cma_device_create(mm, "isa-sb16", DMA_BIT_MASK(24));
	struct cma_device *unset = cma_device_create(mm, "legacy", 0);
	cma_phys_t h[3];

	assert_int_equal(cma_dma_alloc_coherent(mm, isa, 32 * 1024, CMA_GFP_KERNEL, &h[0], NULL), 0);
	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, 4096, CMA_GFP_KERNEL, &h[1], NULL), 0);
	/* an unset mask is 32 bits: dma_alloc_attrs drops the caller's GFP_DMA first */
	assert_int_equal(cma_dma_alloc_coherent(mm, unset, 4096, CMA_GFP_KERNEL | CMA_GFP_DMA, &h[2], NULL), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(zone_of(mm, h[i]), ZONE_DMA);
		assert_true(h[i] + 4096 <= 16 * MiB);
	}
	assert_int_equal(zone_of(mm, h[2]), ZONE_DMA32);
	cma_dma_free_coherent(mm, isa, 32 * 1024, h[0]);
	cma_dma_free_coherent(mm, NULL, 4096, h[1]);
	cma_dma_free_coherent(mm, unset, 4096, h[2]);
	assert_verify(mm);
	cma_mm_destroy(mm);

	/* with an area above 16 MiB, atomic requests still reach ZONE_DMA */
	mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=16M");
	isa = cma_device_create(mm, "isa-sb16", DMA_BIT_MASK(24));
	assert_int_equal(cma_dma_alloc_coherent(mm, isa, 4096, CMA_GFP_ATOMIC, &h[0], NULL), 0);
	assert_int_equal(zone_of(mm, h[0]), ZONE_DMA);
	cma_dma_free_coherent(mm, isa, 4096, h[0]);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * A machine whose DMA32 memory lies wholly above 256 MiB: 16 MiB at 0
 * (ZONE_DMA) and 256 MiB at 1 GiB. Expect: a 28-bit device's GFP_DMA32
 * page is beyond its mask, given back, and the retry with GFP_DMA
 * succeeds in ZONE_DMA; nothing is lost on the way.
 */
static void alloc_coherent_x86_beyond_mask_retries_with_gfp_dma(void **state)
{
	struct cma_bank banks[] = { { 0, 16 * MiB }, { 1 * GiB, 256 * MiB } };
	struct cma_mm_config cfg = { .banks = banks, .nr_banks = 2, .pageblock_order = 9,
				     .zone_dma_end = 16 * MiB, .zone_dma32_end = 4 * GiB };
	struct cma_mm *mm = test_boot(&cfg);
	struct cma_device *dev = cma_device_create(mm, "dev28", DMA_BIT_MASK(28));
	unsigned long before = free_pages(mm);
	cma_phys_t h;

	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 8192, CMA_GFP_KERNEL, &h, NULL), 0);
	assert_int_equal(zone_of(mm, h), ZONE_DMA);
	assert_int_equal(before - free_pages(mm), 2);
	cma_dma_free_coherent(mm, dev, 8192, h);
	assert_int_equal(free_pages(mm), before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect v23 (seed 010), so under 3.5 (4.17's dma-direct falls back to
 * the buddy allocator: test_dma_x86_direct): CMA is tried first, and
 * again on the GFP_DMA retry, so a device whose mask the default area
 * lies beyond gets nothing from a non-atomic request of two pages; each
 * CMA buffer beyond the mask goes back through
 * dma_release_from_contiguous (departure: the seed frees it to the
 * buddy allocator, leaving the area's bitmap set).
 */
static void alloc_coherent_x86_cma_beyond_mask_released(void **state)
{
	struct cma_mm *mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=16M",
				    .kernel = "3.5");
	struct cma_device *dev = cma_device_create(mm, "dev28", DMA_BIT_MASK(28));
	struct cma *cma = default_area(mm);
	unsigned long before = free_pages(mm);
	cma_phys_t h = 0x1234;
	char *log;

	assert_true(((cma_phys_t)cma->base_pfn << 12) >= 256 * MiB);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 8192, CMA_GFP_KERNEL, &h, NULL), -ENOMEM);
	assert_int_equal(h, 0x1234);
	assert_int_equal(counter(mm, "cma_alloc_success"), 2);		/* first try and the retry */
	assert_int_equal(area_used(mm, cma), 0);
	assert_int_equal(free_pages(mm), before);
	/* the fallback ISA device: GFP_DMA from the start, so no retry; the log says why */
	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, 8192, CMA_GFP_KERNEL, &h, NULL), -ENOMEM);
	log = test_dmesg(mm);
	assert_non_null(strstr(log, "dma_alloc_coherent: 8192 bytes for no device: the x86 fallback device (ISA) has a 24-bit mask"));
	free(log);
	assert_int_equal(counter(mm, "cma_alloc_success"), 3);
	assert_int_equal(area_used(mm, cma), 0);
	assert_int_equal(free_pages(mm), before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: a free goes where the buffer came from; a foreign handle changes nothing. */
static void free_coherent_x86_returns_each_kind(void **state)
{
	struct cma_mm *mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=16M");
	struct cma_device *dev = cma_device_create(mm, "pci0", DMA_BIT_MASK(32));
	struct cma *cma = default_area(mm);
	unsigned long before;
	cma_phys_t c, b;

	before = free_pages(mm);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 16384, CMA_GFP_KERNEL, &c, NULL), 0);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 16384, CMA_GFP_ATOMIC, &b, NULL), 0);
	assert_int_equal(area_used(mm, cma), 4);
	assert_int_equal(before - free_pages(mm), 8);
	cma_dma_free_coherent(mm, dev, 16384, b);		/* buddy */
	assert_int_equal(area_used(mm, cma), 4);
	assert_int_equal(before - free_pages(mm), 4);
	cma_dma_free_coherent(mm, dev, 16384, c);		/* CMA */
	assert_int_equal(area_used(mm, cma), 0);
	assert_int_equal(free_pages(mm), before);
	/* handles this machine never gave: not page-aligned, beyond RAM */
	cma_dma_free_coherent(mm, dev, 4096, c + 100);
	cma_dma_free_coherent(mm, dev, 4096, 8 * GiB);
	assert_int_equal(free_pages(mm), before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- ARM ---- */

/*
 * Expect: non-atomic requests come from CMA only, cleared; once the area
 * is full they fail, however much the buddy allocator has free.
 */
static void alloc_coherent_arm_from_cma_only(void **state)
{
	struct cma_mm *mm = test_mm(ARM_BOARD, .cmdline = "cma=8M");
	struct cma_device *dev = cma_device_create(mm, "lcd", DMA_BIT_MASK(32));
	struct cma *cma = default_area(mm);
	unsigned long pool = dma_state(mm)->pool.nr_pages, before;
	cma_phys_t h[8], x;
	void *va;
	int n = 0;

	assert_int_equal(pool, 64);
	assert_int_equal(area_used(mm, cma), pool);
	while (cma_dma_alloc_coherent(mm, dev, 1 * MiB, CMA_GFP_KERNEL, &h[n], &va) == 0) {
		assert_true(in_area(mm, cma, h[n], 1 * MiB));
		assert_true(all_zero(va, 1 * MiB));
		memset(va, 0x5a, 1 * MiB);
		n++;
	}
	assert_int_equal(n, 7);					/* 8 MiB less the 256 KiB pool */
	before = free_pages(mm);
	assert_true(before > 100000);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 4096, CMA_GFP_KERNEL, &x, NULL), 0);
	assert_true(in_area(mm, cma, x, 4096));			/* the last 768 KiB */
	cma_dma_free_coherent(mm, dev, 4096, x);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 1 * MiB, CMA_GFP_KERNEL, &x, NULL), -ENOMEM);
	assert_int_equal(free_pages(mm), before);		/* no buddy fallback */
	for (int i = 0; i < n; i++)
		cma_dma_free_coherent(mm, dev, 1 * MiB, h[i]);
	assert_int_equal(area_used(mm, cma), pool);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: atomic requests come from the pool at the area's start, first
 * fit, each aligned to its order, without a contiguous allocation; a
 * full pool fails them; a freed block is found again.
 */
static void alloc_coherent_arm_atomic_from_pool(void **state)
{
	struct cma_mm *mm = test_mm(ARM_BOARD, .cmdline = "cma=16M");
	struct cma_device *dev = cma_device_create(mm, "uart-dma", DMA_BIT_MASK(32));
	struct dma_pool *pool = &dma_state(mm)->pool;
	struct cma *cma = default_area(mm);
	cma_phys_t base = (cma_phys_t)pool->base_pfn << 12, h[64], x;
	uint64_t success = counter(mm, "cma_alloc_success");
	void *va;
	int n;

	assert_int_equal(pool->base_pfn, cma->base_pfn);
	contig_starts = 0;
	cma_mm_set_trace(mm, count_contig, NULL);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 4096, CMA_GFP_ATOMIC, &h[0], &va), 0);
	assert_int_equal(h[0], base);
	assert_true(all_zero(va, 4096));			/* the pool was cleared when made */
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 16384, CMA_GFP_ATOMIC, &h[1], NULL), 0);
	assert_int_equal(h[1], base + 16384);			/* order 2: skips pages 1..3 */
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 4096, CMA_GFP_ATOMIC, &h[2], NULL), 0);
	assert_int_equal(h[2], base + 4096);			/* first fit */
	for (n = 3; n < 64; n++)
		if (cma_dma_alloc_coherent(mm, dev, 4096, CMA_GFP_ATOMIC, &h[n], NULL))
			break;
	assert_int_equal(n, 3 + 64 - 6);			/* 64 pages, 6 taken by the first three */
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 4096, CMA_GFP_ATOMIC, &x, NULL), -ENOMEM);
	cma_dma_free_coherent(mm, dev, 4096, h[2]);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 4096, CMA_GFP_ATOMIC, &x, NULL), 0);
	assert_int_equal(x, h[2]);
	h[2] = x;
	assert_int_equal(contig_starts, 0);
	assert_int_equal(counter(mm, "cma_alloc_success"), success);
	cma_mm_set_trace(mm, NULL, NULL);
	for (int i = 0; i < n; i++)
		cma_dma_free_coherent(mm, dev, i == 1 ? 16384 : 4096, h[i]);
	pthread_mutex_lock(&pool->lock);
	assert_int_equal(bitmap_weight(pool->bitmap, pool->nr_pages), 0);
	pthread_mutex_unlock(&pool->lock);
	/* the pool's pages stay the pool's: the area still holds them */
	assert_int_equal(area_used(mm, cma), 64);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: with no default area there is no pool: a boot message, and atomic requests fail. */
static void alloc_coherent_arm_no_default_area_no_pool(void **state)
{
	struct cma_mm *mm = test_mm(ARM_BOARD, .cmdline = "cma=0");
	struct cma_device *dev = cma_device_create(mm, "uart-dma", DMA_BIT_MASK(32));
	char *log = test_dmesg(mm);
	cma_phys_t h;

	assert_non_null(strstr(log, "DMA: failed to allocate 256 KiB pool for atomic coherent allocation\n"));
	assert_non_null(strstr(log, "DMA: there is no default CMA area"));
	free(log);
	assert_int_equal(dma_state(mm)->pool.nr_pages, 0);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 4096, CMA_GFP_ATOMIC, &h, NULL), -ENOMEM);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 4096, CMA_GFP_KERNEL, &h, NULL), -ENOMEM);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: coherent_pool= beats cfg.atomic_pool_size, which beats 256 KiB; a malformed one is refused. */
static void arm_atomic_pool_size(void **state)
{
	static const struct {
		const char *cmdline;
		uint64_t cfg_size;
		unsigned long pages;
	} rows[] = {
		{ "cma=16M", 0, 64 },
		{ "cma=16M", 512 * 1024, 128 },
		{ "cma=16M coherent_pool=1M", 512 * 1024, 256 },
		{ "coherent_pool=2M cma=16M", 0, 512 },
		{ "cma=16M coherent_pool=0", 0, 0 },
		{ "cma=1M coherent_pool=32M", 0, 0 },		/* larger than the area */
	};

	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct cma_mm *mm = test_mm(ARM_BOARD, .cmdline = rows[i].cmdline,
					    .atomic_pool = rows[i].cfg_size, .metadata_only = true);

		if (dma_state(mm)->pool.nr_pages != rows[i].pages)
			fail_msg("row %u (%s, cfg %llu): expected a pool of %lu pages, found %lu", i,
				 rows[i].cmdline, (unsigned long long)rows[i].cfg_size, rows[i].pages,
				 dma_state(mm)->pool.nr_pages);
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
	{
		struct cma_bank bank;
		struct cma_mm_config cfg = test_config(&(struct test_shape){ ARM_BOARD,
							.cmdline = "coherent_pool=12Q" }, &bank);
		struct cma_mm *mm = NULL;

		assert_int_equal(cma_mm_create(&cfg, &mm), -EINVAL);
		assert_null(mm);
		/* x86 has no such parameter: it is ignored */
		cfg.arch = CMA_ARCH_X86;
		assert_int_equal(cma_mm_create(&cfg, &mm), 0);
		cma_mm_destroy(mm);
	}
}

/* Expect get_coherent_dma_mask: a mask unset, or not covering arm_dma_limit, gets nothing. */
static void alloc_coherent_arm_mask_checked(void **state)
{
	struct cma_mm *mm = test_mm(ARM_BOARD, .cmdline = "cma=16M");
	struct cma_device *unset = cma_device_create(mm, "unset", 0);
	struct cma_device *narrow = cma_device_create(mm, "narrow", DMA_BIT_MASK(30));
	struct cma *cma = default_area(mm);
	cma_phys_t h;

	assert_int_equal(cma_dma_alloc_coherent(mm, unset, 4096, CMA_GFP_KERNEL, &h, NULL), -ENOMEM);
	assert_int_equal(cma_dma_alloc_coherent(mm, narrow, 4096, CMA_GFP_KERNEL, &h, NULL), -ENOMEM);
	assert_int_equal(cma_dma_alloc_coherent(mm, narrow, 4096, CMA_GFP_ATOMIC, &h, NULL), -ENOMEM);
	assert_int_equal(area_used(mm, cma), 64);
	/* no device: the system's own mask, the default area */
	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, 4096, CMA_GFP_KERNEL, &h, NULL), 0);
	assert_true(in_area(mm, cma, h, 4096));
	cma_dma_free_coherent(mm, NULL, 4096, h);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: ARM reserves the default area after the board's declarations,
 * below min(arm_dma_limit, arm_lowmem_limit), and dma_contiguous_early_fixup
 * records every area in that order; x86 records nothing.
 */
static void arm_boot_order_limit_and_fixup(void **state)
{
	struct cma_mm *mm = test_mm_early(ARM_BOARD, .cmdline = "cma=16M", .metadata_only = true);
	struct cma_device *cam;
	struct dma_state *ds;

	cam = cma_device_create(mm, "camera", DMA_BIT_MASK(32));
	assert_int_equal(cma_dma_declare_contiguous(mm, cam, 32 * MiB, 0x48000000, 0), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	ds = dma_state(mm);
	assert_int_equal(ds->nr_remap, 2);
	assert_int_equal(ds->remap[0].base, 0x48000000);
	assert_int_equal(ds->remap[0].size, 32 * MiB);
	assert_int_equal(ds->remap[1].base, ARM_LOWMEM_LIMIT - 16 * MiB);	/* top of lowmem */
	assert_int_equal(ds->remap[1].size, 16 * MiB);
	assert_int_equal(mm->cma->reserved[1].dev, NULL);		/* the default came second */
	assert_verify(mm);
	cma_mm_destroy(mm);

	/*
	 * With ZONE_DMA, arm_dma_limit is inclusive (0x47ffffff): aligned down
	 * to 8 MiB, the area ends 8 MiB below the zone's end, as in the kernel.
	 */
	mm = test_mm(ARM_BOARD, .cmdline = "cma=16M", .metadata_only = true, .dma_end = 0x48000000);
	if (!strcmp(cma_mm_kernel(mm), "3.5"))
		assert_int_equal((cma_phys_t)default_area(mm)->base_pfn << 12, 0x47800000 - 16 * MiB);
	else	/* 6.12 aligns the limit down to a pageblock (2 MiB) only */
		assert_true(((cma_phys_t)default_area(mm)->base_pfn << 12) + 16 * MiB <= 0x47e00000);
	cma_mm_destroy(mm);

	mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=16M");
	assert_int_equal(dma_state(mm)->nr_remap, 0);
	assert_null(dma_state(mm)->remap);
	cma_mm_destroy(mm);
}

struct pool_worker {
	struct cma_mm *mm;
	struct cma_device *dev;
	unsigned id;
	unsigned long done, refused;
	bool corrupt;
};

/*
 * Atomic buffers of 1..4 pages, each stamped with its owner's id, checked,
 * freed: 2000 tries, more while none has succeeded (a thread the others
 * keep out of the 8-page pool on a loaded machine is refused, not broken).
 */
static void *pool_worker(void *arg)
{
	struct pool_worker *w = arg;

	for (unsigned i = 0; i < 2000 || (!w->done && i < 1000000); i++) {
		size_t size = 4096u * (1 + (i + w->id) % 4);
		cma_phys_t h;
		unsigned char *va;

		if (cma_dma_alloc_coherent(w->mm, w->dev, size, CMA_GFP_ATOMIC, &h, (void **)&va)) {
			w->refused++;
			continue;
		}
		memset(va, (int)w->id, size);
		for (size_t b = 0; b < size; b += 512)
			w->corrupt |= va[b] != w->id;
		cma_dma_free_coherent(w->mm, w->dev, size, h);
		w->done++;
	}
	return NULL;
}

/* Expect: threads sharing the pool never get overlapping blocks, and it ends empty. */
static void alloc_coherent_arm_pool_threads(void **state)
{
	struct cma_mm *mm = test_mm(ARM_BOARD, .cmdline = "cma=16M coherent_pool=32K", .cpus = 4);
	struct pool_worker w[4];
	pthread_t t[4];
	struct dma_pool *pool;

	for (unsigned i = 0; i < 4; i++) {
		w[i] = (struct pool_worker){ .mm = mm, .id = i + 1 };
		w[i].dev = cma_device_create(mm, i % 2 ? "spi-dma" : "uart-dma", DMA_BIT_MASK(32));
		assert_int_equal(pthread_create(&t[i], NULL, pool_worker, &w[i]), 0);
	}
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_false(w[i].corrupt);
		assert_true(w[i].done > 0);
	}
	printf("pool threads: %lu + %lu + %lu + %lu buffers, %lu refused (pool full)\n", w[0].done,
	       w[1].done, w[2].done, w[3].done, w[0].refused + w[1].refused + w[2].refused + w[3].refused);
	pool = &dma_state(mm)->pool;
	assert_int_equal(bitmap_weight(pool->bitmap, pool->nr_pages), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ---- the S5P MFC board (seed 011) ---- */

struct s5p {
	struct cma_mm *mm;
	struct cma_device *mfc_r, *mfc_l, *fimc;
};

/*
 * Universal C210: two 256 MiB banks at 0x40000000 and 0x50000000; the
 * board's reserve() calls s5p_mfc_reserve_mem(0x43000000, 8 << 20,
 * 0x51000000, 8 << 20) (cmasim's s5p-mfc platform).
 */
static struct s5p s5p_boot(const char *cmdline)
{
	static const struct cma_bank banks[] = { { 0x40000000, 256 * MiB }, { 0x50000000, 256 * MiB } };
	struct cma_mm_config cfg = { .arch = CMA_ARCH_ARM, .banks = banks, .nr_banks = 2,
				     .pageblock_order = 10, .highmem_start = ARM_LOWMEM_LIMIT,
				     .cmdline = cmdline };
	struct s5p b;

	assert_int_equal(cma_mm_create(&cfg, &b.mm), 0);
	b.mfc_r = cma_device_create(b.mm, "s5p-mfc-r", DMA_BIT_MASK(32));
	b.mfc_l = cma_device_create(b.mm, "s5p-mfc-l", DMA_BIT_MASK(32));
	b.fimc = cma_device_create(b.mm, "s5p-fimc", DMA_BIT_MASK(32));
	assert_int_equal(cma_dma_declare_contiguous(b.mm, b.mfc_r, 8 * MiB, 0x43000000, 0), 0);
	assert_int_equal(cma_dma_declare_contiguous(b.mm, b.mfc_l, 8 * MiB, 0x51000000, 0), 0);
	assert_int_equal(cma_mm_boot(b.mm), 0);
	return b;
}

/* Fill @dev's area with 1 MiB buffers; returns how many. */
static int fill(struct cma_mm *mm, struct cma_device *dev, cma_phys_t *h, int max)
{
	int n = 0;

	while (n < max && cma_dma_alloc_coherent(mm, dev, 1 * MiB, CMA_GFP_KERNEL, &h[n], NULL) == 0)
		n++;
	return n;
}

/*
 * Expect: both areas at their bases, one per bank; each MFC device
 * allocates only from its own area (a full one fails while the other has
 * room); the default area serves other devices; an area shared through
 * dev_get_cma_area/dev_set_cma_area at postcore serves both devices.
 */
static void s5p_mfc_areas_per_bank(void **state)
{
	struct s5p b = s5p_boot("cma=16M");
	struct cma *r = cma_dev_get_cma_area(b.mm, b.mfc_r), *l = cma_dev_get_cma_area(b.mm, b.mfc_l);
	cma_phys_t hr[16], hl[16], h;
	int nr, nl;

	assert_int_equal(r->base_pfn, 0x43000);
	assert_int_equal(l->base_pfn, 0x51000);
	assert_int_equal(r->count, 2048);
	assert_int_equal(l->count, 2048);
	assert_ptr_not_equal(default_area(b.mm), r);
	assert_ptr_not_equal(default_area(b.mm), l);
	assert_ptr_equal(cma_dev_get_cma_area(b.mm, b.fimc), default_area(b.mm));

	nr = fill(b.mm, b.mfc_r, hr, 16);
	assert_int_equal(nr, 8);
	for (int i = 0; i < nr; i++)
		assert_true(in_area(b.mm, r, hr[i], 1 * MiB));
	assert_int_equal(cma_dma_alloc_coherent(b.mm, b.mfc_l, 1 * MiB, CMA_GFP_KERNEL, &h, NULL), 0);
	assert_true(in_area(b.mm, l, h, 1 * MiB));
	cma_dma_free_coherent(b.mm, b.mfc_l, 1 * MiB, h);

	/* the article's sharing: fimc uses mfc-l's area from postcore on */
	cma_dev_set_cma_area(b.mm, b.fimc, cma_dev_get_cma_area(b.mm, b.mfc_l));
	assert_ptr_equal(cma_dev_get_cma_area(b.mm, b.fimc), l);
	assert_int_equal(cma_dma_alloc_coherent(b.mm, b.fimc, 4 * MiB, CMA_GFP_KERNEL, &h, NULL), 0);
	assert_true(in_area(b.mm, l, h, 4 * MiB));
	nl = fill(b.mm, b.mfc_l, hl, 16);
	assert_int_equal(nl, 4);				/* the other 4 MiB are fimc's */
	cma_dma_free_coherent(b.mm, b.fimc, 4 * MiB, h);
	for (int i = 0; i < nr; i++)
		cma_dma_free_coherent(b.mm, b.mfc_r, 1 * MiB, hr[i]);
	for (int i = 0; i < nl; i++)
		cma_dma_free_coherent(b.mm, b.mfc_l, 1 * MiB, hl[i]);
	assert_int_equal(area_used(b.mm, r) + area_used(b.mm, l), 0);
	assert_verify(b.mm);
	cma_mm_destroy(b.mm);
}

/*
 * Expect v23's dev_set_cma_area at the core initcall: with cma=0 the
 * first MFC area becomes the default, and the atomic pool is carved
 * from it.
 */
static void s5p_mfc_cma0_first_area_is_default(void **state)
{
	SKIP_UNLESS_KERNEL_35();	/* 6.12's dev_set_cma_area leaves the default alone */
	struct s5p b = s5p_boot("cma=0");
	struct cma *r = cma_dev_get_cma_area(b.mm, b.mfc_r);

	assert_ptr_equal(default_area(b.mm), r);
	assert_ptr_equal(cma_dev_get_cma_area(b.mm, b.fimc), r);
	assert_int_equal(dma_state(b.mm)->pool.base_pfn, 0x43000);
	assert_int_equal(area_used(b.mm, r), 64);
	assert_verify(b.mm);
	cma_mm_destroy(b.mm);
}

/* ---- boot log, arguments ---- */

static void expect_line(const char *log, const char *line)
{
	if (!strstr(log, line))
		fail_msg("expected the boot log to hold \"%s\"; it is:\n%s", line, log);
}

/* Expect the kernel's lines: the reservation, the zones, Memory:, each area's activation, the pool. */
static void boot_log_lines(void **state)
{
	struct cma_mm *mm = test_mm(X86_MACHINE, .size = 512 * MiB, .cmdline = "cma=64M");
	char *log = test_dmesg(mm);
	/* v3.5's dma_declare_contiguous line, or mm/cma.c's from 3.17 (cma_generic) */
	bool v6 = test_kernel_since(cma_mm_kernel(mm), 3, 17);
	const char *reserved = v6 ? "cma: Reserved" : "cma: CMA: reserved";

	expect_line(log, v6 ? "cma: Reserved 64 MiB at 0x000000001c000000 on node -1\n" :
			      "cma: CMA: reserved 64 MiB at 1c000000\n");
	expect_line(log, "Zone ranges:\n  DMA      [mem 0x00000000-0x00ffffff]\n"
			 "  DMA32    [mem 0x01000000-0x1fffffff]\n");
	/* and the vmemmap: 4 sections of 128 MiB, 2 MiB each, 8192k */
	expect_line(log, "Memory: 450560k/524288k available, 73728k reserved\n");
	expect_line(log, "cma: CMA: activated reserved: 16384 pages at pfn 0x1c000\n");
	assert_null(strstr(log, "DMA: "));			/* no pool on x86 */
	assert_true(strstr(log, reserved) < strstr(log, "Zone ranges:"));
	assert_true(strstr(log, "Memory:") < strstr(log, "cma: CMA: activated"));
	free(log);
	cma_mm_destroy(mm);

	mm = test_mm(ARM_BOARD, .cmdline = "cma=32M");
	log = test_dmesg(mm);
	expect_line(log, v6 ? "cma: Reserved 32 MiB at 0x6d800000 on node -1\n" :
			      "cma: CMA: reserved 32 MiB at 6d800000\n");
	expect_line(log, "  Normal   [mem 0x40000000-0x6f7fffff]\n  HighMem  [mem 0x6f800000-0x7fffffff]\n");
	expect_line(log, "cma: CMA: activated reserved: 8192 pages at pfn 0x6d800\n");
	expect_line(log, "DMA: preallocated 256 KiB pool for atomic coherent allocations\n");
	assert_true(strstr(log, "cma: CMA: activated") < strstr(log, "DMA: preallocated"));
	free(log);
	cma_mm_destroy(mm);
}

/* Expect: a metadata-only machine gives handles but no bytes. */
static void alloc_coherent_metadata_only(void **state)
{
	struct cma_bank bank = { 0, 512 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 9,
				     .zone_dma_end = 16 * MiB, .cmdline = "cma=16M",
				     .metadata_only = true };
	struct cma_mm *mm = test_boot(&cfg);
	cma_phys_t h;
	void *va = &h;

	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, 4096, CMA_GFP_ATOMIC, &h, &va), 0);
	assert_null(va);
	cma_dma_free_coherent(mm, NULL, 4096, h);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect -EINVAL, and nothing allocated, for a size of 0, no handle, or an early machine. */
static void alloc_coherent_bad_arguments(void **state)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .cmdline = "cma=0" };
	struct cma_mm *mm = NULL;
	cma_phys_t h;
	void *va = &h;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, 4096, CMA_GFP_KERNEL, &h, &va), -EINVAL);
	assert_null(va);
	cma_dma_free_coherent(mm, NULL, 4096, 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, 0, CMA_GFP_KERNEL, &h, NULL), -EINVAL);
	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, 4096, CMA_GFP_KERNEL, NULL, NULL), -EINVAL);
	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, SIZE_MAX, CMA_GFP_KERNEL, &h, NULL), -ENOMEM);
	assert_int_equal(cma_dma_alloc_coherent(mm, NULL, 64 * MiB, CMA_GFP_KERNEL | CMA_GFP_NOWARN, &h, NULL), -ENOMEM);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* Expect: board code's lines land in the machine's log in order. */
static void board_printk_goes_to_the_log(void **state)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .cmdline = "cma=0" };
	struct cma_mm *mm = NULL;
	char *log;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	cma_mm_printk(mm, "board: reserve %d\n", 1);
	assert_int_equal(cma_mm_boot(mm), 0);
	log = test_dmesg(mm);
	assert_true(strncmp(log, "board: reserve 1\n", 17) == 0);
	free(log);
	cma_mm_destroy(mm);
}

/* ---- arm64 (6.12 only) ---- */

/* cmasim's "arm64": 4 GiB at 0x40000000 under 6.12, 2 MiB pageblocks (4 KiB pages, THP order). */
#define ARM64_SOC .arch = CMA_ARCH_ARM64, .kernel = "6.12", .base = 0x40000000, .pageblock_order = 9
#define ARM64_BOARD ARM64_SOC, .size = 4 * GiB
/*
 * On 512 MiB the atomic DMA pools (dma_atomic_pool_init, 5.8) take three
 * blocks of 128 KiB, the minimum, from the default area's first pages at
 * postcore, before any device: the area's first MiB is not a device's.
 */
#define ARM64_POOL_PAGES 96

static cma_phys_t zone_start(struct cma_mm *mm, enum zone_type z)
{
	return (cma_phys_t)mm->zones[z].zone_start_pfn << mm->page_shift;
}

static cma_phys_t zone_end(struct cma_mm *mm, enum zone_type z)
{
	return zone_start(mm, z) + ((cma_phys_t)mm->zones[z].spanned_pages << mm->page_shift);
}

/*
 * Expect arm64's zone_sizes_init (6.12). With no firmware DMA limit and
 * RAM from 1 GiB to 5 GiB: zone_dma_limit is 32 bits (RAM starts below
 * 4 GiB), so ZONE_DMA is [1 GiB, 4 GiB), ZONE_DMA32 is empty and Normal
 * is [4 GiB, 5 GiB); no HighMem. The default area lies below
 * arm64_dma_phys_limit (4 GiB), reserved top-down. With a firmware limit
 * of 1 GiB (a Raspberry Pi 4's dma-ranges) over 4 GiB at 0: ZONE_DMA
 * [0, 1 GiB), ZONE_DMA32 [1 GiB, 4 GiB), the default area below 1 GiB.
 */
static void arm64_zone_limits_and_default_area(void **state)
{
	struct cma_mm *mm = test_mm(ARM64_BOARD, .cmdline = "cma=64M", .metadata_only = true);
	struct cma *cma = default_area(mm);
	cma_phys_t base;

	assert_string_equal(cma_mm_kernel(mm), "6.12");
	assert_int_equal(zone_start(mm, ZONE_DMA), 1 * GiB);
	assert_int_equal(zone_end(mm, ZONE_DMA), 4 * GiB);
	assert_true(mm->zones[ZONE_DMA32].configured);
	assert_int_equal(mm->zones[ZONE_DMA32].present_pages, 0);
	assert_int_equal(zone_start(mm, ZONE_NORMAL), 4 * GiB);
	assert_int_equal(zone_end(mm, ZONE_NORMAL), 5 * GiB);
	assert_false(mm->zones[ZONE_HIGHMEM].configured);
	assert_non_null(cma);
	base = (cma_phys_t)cma_area_base_pfn(cma) << 12;
	assert_int_equal(base + 64 * MiB, 4 * GiB);
	assert_verify(mm);
	cma_mm_destroy(mm);

	mm = test_mm(.arch = CMA_ARCH_ARM64, .kernel = "6.12", .size = 4 * GiB, .pageblock_order = 9,
		     .dma_end = 1 * GiB, .cmdline = "cma=64M", .metadata_only = true);
	cma = default_area(mm);
	assert_int_equal(zone_end(mm, ZONE_DMA), 1 * GiB);
	assert_int_equal(zone_start(mm, ZONE_DMA32), 1 * GiB);
	assert_int_equal(zone_end(mm, ZONE_DMA32), 4 * GiB);
	assert_int_equal(mm->zones[ZONE_NORMAL].present_pages, 0);
	assert_non_null(cma);
	assert_int_equal(((cma_phys_t)cma_area_base_pfn(cma) << 12) + 64 * MiB, 1 * GiB);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: arm64 is refused under 3.5 (it came in 3.7) with -EINVAL and a
 * message naming the profile it needs; under 6.12 it is refused a
 * ZONE_DMA32 limit or highmem, which arm64 computes or lacks.
 */
static void arm64_refused_under_3_5(void **state)
{
	struct cma_bank bank = { 0x40000000, 1 * GiB };
	struct cma_mm_config cfg = { .arch = CMA_ARCH_ARM64, .banks = &bank, .nr_banks = 1,
				     .kernel = "3.5", .cmdline = "cma=0", .quiet = true };
	struct cma_mm *mm = (struct cma_mm *)1;

	assert_int_equal(cma_mm_create(&cfg, &mm), -EINVAL);
	assert_null(mm);
	cfg.kernel = "6.12";
	cfg.highmem_start = 0x60000000;
	assert_int_equal(cma_mm_create(&cfg, &mm), -EINVAL);
	cfg.highmem_start = 0;
	cfg.zone_dma32_end = 4 * GiB;
	assert_int_equal(cma_mm_create(&cfg, &mm), -EINVAL);
	cfg.zone_dma32_end = 0;
	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_string_equal(cma_mm_kernel(mm), "6.12");
	cma_mm_destroy(mm);
}

/*
 * Expect dma_direct_alloc with dma_alloc_contiguous (6.12): a device
 * with no area of its own takes multi-page buffers from the default area,
 * zeroed; once the area is full the buddy allocator serves them (in
 * ZONE_DMA, from the 32-bit mask); a one-page buffer and a request that
 * cannot sleep never touch CMA. Frees go back where each came from.
 * The atomic pools hold the area's first MiB: 7 MiB is left of 8.
 */
static void alloc_coherent_arm64_from_area_then_buddy(void **state)
{
	struct cma_mm *mm = test_mm(ARM64_SOC, .cmdline = "cma=8M", .size = 512 * MiB);
	struct cma_device *dev = cma_device_create(mm, "vpu", DMA_BIT_MASK(32));
	struct cma *cma = default_area(mm);
	cma_phys_t h[7], extra, page, atomic;
	void *va;
	int n = 0;

	assert_non_null(cma);
	while (n < 7) {
		assert_int_equal(cma_dma_alloc_coherent(mm, dev, 1 * MiB, CMA_GFP_KERNEL, &h[n], &va), 0);
		assert_true(in_area(mm, cma, h[n], 1 * MiB));
		assert_true(all_zero(va, 1 * MiB));
		memset(va, 0x5a, 1 * MiB);
		n++;
	}
	assert_int_equal(area_used(mm, cma), ARM64_POOL_PAGES + 1792);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 1 * MiB, CMA_GFP_KERNEL, &extra, &va), 0);
	assert_false(in_area(mm, cma, extra, 1 * MiB));
	assert_true(all_zero(va, 1 * MiB));
	cma_dma_free_coherent(mm, dev, 1 * MiB, h[0]);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 4096, CMA_GFP_KERNEL, &page, NULL), 0);
	assert_false(in_area(mm, cma, page, 4096));		/* one page: never CMA without an own area */
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 64 * KiB, CMA_GFP_ATOMIC, &atomic, NULL), 0);
	assert_false(in_area(mm, cma, atomic, 64 * KiB));	/* cannot sleep: no CMA */
	assert_int_equal(area_used(mm, cma), ARM64_POOL_PAGES + 1792 - 256);
	cma_dma_free_coherent(mm, dev, 4096, page);
	cma_dma_free_coherent(mm, dev, 64 * KiB, atomic);
	cma_dma_free_coherent(mm, dev, 1 * MiB, extra);
	for (int i = 1; i < n; i++)
		cma_dma_free_coherent(mm, dev, 1 * MiB, h[i]);
	assert_int_equal(area_used(mm, cma), ARM64_POOL_PAGES);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect: a device's own area serves it first, even for one page
 * (dma_alloc_contiguous); the free finds that area; a device without one
 * still uses the default area.
 */
static void alloc_coherent_arm64_device_area_first(void **state)
{
	struct cma_mm *mm = test_mm_early(ARM64_SOC, .cmdline = "cma=8M", .size = 512 * MiB);
	struct cma_device *own = cma_device_create(mm, "isp", DMA_BIT_MASK(32));
	struct cma_device *other = cma_device_create(mm, "gpu", DMA_BIT_MASK(64));
	struct cma *def;
	cma_phys_t a, b;

	assert_int_equal(cma_dma_declare_contiguous(mm, own, 4 * MiB, 0, 0), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	def = default_area(mm);
	assert_non_null(def);
	assert_ptr_not_equal(cma_dev_get_cma_area(mm, own), def);
	assert_int_equal(cma_dma_alloc_coherent(mm, own, 4096, CMA_GFP_KERNEL, &a, NULL), 0);
	assert_true(in_area(mm, cma_dev_get_cma_area(mm, own), a, 4096));
	assert_int_equal(cma_dma_alloc_coherent(mm, other, 2 * MiB, CMA_GFP_KERNEL, &b, NULL), 0);
	assert_true(in_area(mm, def, b, 2 * MiB));
	cma_dma_free_coherent(mm, own, 4096, a);
	cma_dma_free_coherent(mm, other, 2 * MiB, b);
	assert_int_equal(area_used(mm, cma_dev_get_cma_area(mm, own)), 0);
	assert_int_equal(area_used(mm, def), ARM64_POOL_PAGES);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/*
 * Expect dma_alloc_contiguous's cma_alloc_aligned (6.12): a buffer's
 * alignment is its order clamped to CONFIG_CMA_ALIGNMENT (order 8, 1 MiB
 * of 4 KiB pages). The atomic pools hold the area's first MiB, so 1 MiB
 * lands at base + 1 MiB; with it taken, 4 MiB + 4 KiB lands at base +
 * 2 MiB (not base + 8 MiB, its order's alignment), and 9 MiB still fits
 * a 16 MiB area (its order would ask for 16 MiB).
 */
static void alloc_coherent_arm64_alignment_clamped(void **state)
{
	struct cma_mm *mm = test_mm(ARM64_SOC, .cmdline = "cma=16M", .size = 512 * MiB);
	struct cma_device *dev = cma_device_create(mm, "vpu", DMA_BIT_MASK(32));
	struct cma *cma = default_area(mm);
	cma_phys_t base = (cma_phys_t)cma->base_pfn << mm->page_shift, first, h;

	assert_int_equal(mm->cma->params.alignment, 8);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 1 * MiB, CMA_GFP_KERNEL, &first, NULL), 0);
	assert_int_equal(first, base + 1 * MiB);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 4 * MiB + 4096, CMA_GFP_KERNEL, &h, NULL), 0);
	assert_int_equal(h, base + 2 * MiB);
	cma_dma_free_coherent(mm, dev, 4 * MiB + 4096, h);
	assert_int_equal(cma_dma_alloc_coherent(mm, dev, 9 * MiB, CMA_GFP_KERNEL, &h, NULL), 0);
	assert_true(in_area(mm, cma, h, 9 * MiB));
	assert_int_equal(h, base + 2 * MiB);
	cma_dma_free_coherent(mm, dev, 9 * MiB, h);
	cma_dma_free_coherent(mm, dev, 1 * MiB, first);
	assert_int_equal(area_used(mm, cma), ARM64_POOL_PAGES);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_coherent_x86_from_cma),
		cmocka_unit_test(alloc_coherent_x86_buddy_fallback),
		cmocka_unit_test(alloc_coherent_x86_atomic_skips_cma),
		cmocka_unit_test(alloc_coherent_x86_cma_or_buddy_by_release),
		cmocka_unit_test(alloc_coherent_x86_24bit_mask_gets_zone_dma),
		cmocka_unit_test(alloc_coherent_x86_beyond_mask_retries_with_gfp_dma),
		cmocka_unit_test(alloc_coherent_x86_cma_beyond_mask_released),
		cmocka_unit_test(free_coherent_x86_returns_each_kind),
		cmocka_unit_test(alloc_coherent_arm_from_cma_only),
		cmocka_unit_test(alloc_coherent_arm_atomic_from_pool),
		cmocka_unit_test(alloc_coherent_arm_no_default_area_no_pool),
		cmocka_unit_test(arm_atomic_pool_size),
		cmocka_unit_test(alloc_coherent_arm_mask_checked),
		cmocka_unit_test(alloc_coherent_arm_pool_threads),
		cmocka_unit_test(arm_boot_order_limit_and_fixup),
		cmocka_unit_test(s5p_mfc_areas_per_bank),
		cmocka_unit_test(s5p_mfc_cma0_first_area_is_default),
		cmocka_unit_test(boot_log_lines),
		cmocka_unit_test(alloc_coherent_metadata_only),
		cmocka_unit_test(alloc_coherent_bad_arguments),
		cmocka_unit_test(board_printk_goes_to_the_log),
		cmocka_unit_test(arm64_zone_limits_and_default_area),
		cmocka_unit_test(arm64_refused_under_3_5),
		cmocka_unit_test(alloc_coherent_arm64_from_area_then_buddy),
		cmocka_unit_test(alloc_coherent_arm64_device_area_first),
		cmocka_unit_test(alloc_coherent_arm64_alignment_clamped),
	};

	return cmocka_run_group_tests_name("dma", tests, NULL, NULL);
}
