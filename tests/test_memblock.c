// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for memblock (src/mm/memblock.c) through the public early-boot
 * calls cma_memblock_reserve() and cma_memblock_alloc_base(): top-down
 * placement below the limit, alignment, reserved regions and holes
 * avoided, the default limit per platform, failure without side effects,
 * region merging, refusal after boot, and reserved memory kept out of the
 * buddy allocator once the machine has booted.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static void expect_alloc(struct cma_mm *mm, uint64_t size, uint64_t align, cma_phys_t limit,
			 cma_phys_t want)
{
	cma_phys_t got = cma_memblock_alloc_base(mm, size, align, limit);

	if (got != want) {
		print_error("cma_memblock_alloc_base(size %#" PRIx64 ", align %#" PRIx64
			    ", limit %#" PRIx64 "): expected %#" PRIx64 ", found %#" PRIx64 "\n",
			    size, align, limit, want, got);
		fail();
	}
}

/* A copy of the reserved regions, to show that a refused call changed nothing. */
struct reserved_snapshot {
	unsigned long cnt;
	struct memblock_region regions[64];
};

static void snapshot_reserved(struct cma_mm *mm, struct reserved_snapshot *s)
{
	assert_true(mm->memblock.reserved.cnt <= 64);
	s->cnt = mm->memblock.reserved.cnt;
	if (s->cnt)
		memcpy(s->regions, mm->memblock.reserved.regions, s->cnt * sizeof(s->regions[0]));
}

static void expect_reserved_unchanged(struct cma_mm *mm, const struct reserved_snapshot *s,
				      const char *after)
{
	if (mm->memblock.reserved.cnt != s->cnt ||
	    (s->cnt && memcmp(s->regions, mm->memblock.reserved.regions,
			      s->cnt * sizeof(s->regions[0])))) {
		print_error("after %s: expected the %lu reserved regions unchanged, found %lu regions\n",
			    after, s->cnt, mm->memblock.reserved.cnt);
		fail();
	}
}

static void expect_reserved_regions(struct cma_mm *mm, const struct memblock_region *want,
				    unsigned long n)
{
	const struct memblock_type *r = &mm->memblock.reserved;

	if (r->cnt != n) {
		print_error("expected %lu reserved regions, found %lu\n", n, r->cnt);
		fail();
	}
	for (unsigned long i = 0; i < n; i++) {
		if (r->regions[i].base != want[i].base || r->regions[i].size != want[i].size) {
			print_error("reserved region %lu: expected [%#" PRIx64 " + %#" PRIx64
				    "], found [%#" PRIx64 " + %#" PRIx64 "]\n", i, want[i].base,
				    want[i].size, r->regions[i].base, r->regions[i].size);
			fail();
		}
	}
}

static bool ranges_overlap(cma_phys_t b1, uint64_t s1, cma_phys_t b2, uint64_t s2)
{
	return b1 < b2 + s2 && b2 < b1 + s1;
}

static bool range_in_banks(const struct cma_bank *banks, unsigned nr, cma_phys_t base, uint64_t size)
{
	for (unsigned i = 0; i < nr; i++)
		if (base >= banks[i].base && base + size <= banks[i].base + banks[i].size)
			return true;
	return false;
}

/*
 * Allocate @size-byte blocks aligned to @size until memblock says no;
 * check each lies inside one bank and overlaps neither an earlier
 * allocation nor anything in @avoid. Returns how many it got.
 */
static unsigned long alloc_until_full(struct cma_mm *mm, uint64_t size,
				      const struct cma_bank *banks, unsigned nr_banks,
				      const struct memblock_region *avoid, unsigned nr_avoid)
{
	cma_phys_t got[1024];
	unsigned long n = 0;

	for (;;) {
		cma_phys_t base = cma_memblock_alloc_base(mm, size, size, 0);

		if (!base)
			return n;
		assert_true(n < 1024);
		if (base & (size - 1) || !range_in_banks(banks, nr_banks, base, size)) {
			print_error("allocation %lu: expected an aligned block inside a bank, found [%#" PRIx64
				    " + %#" PRIx64 "]\n", n, base, size);
			fail();
		}
		for (unsigned i = 0; i < nr_avoid; i++)
			if (ranges_overlap(base, size, avoid[i].base, avoid[i].size)) {
				print_error("allocation %lu at %#" PRIx64 ": expected outside reserved [%#"
					    PRIx64 " + %#" PRIx64 "], found inside\n", n, base,
					    avoid[i].base, avoid[i].size);
				fail();
			}
		for (unsigned long i = 0; i < n; i++)
			if (ranges_overlap(base, size, got[i], size)) {
				print_error("allocation %lu at %#" PRIx64 ": overlaps allocation %lu at %#"
					    PRIx64 "\n", n, base, i, got[i]);
				fail();
			}
		/* top-down: each block lies below the previous one */
		if (n && base > got[n - 1]) {
			print_error("allocation %lu: expected below %#" PRIx64 ", found %#" PRIx64 "\n",
				    n, got[n - 1], base);
			fail();
		}
		got[n++] = base;
	}
}

/* ---- placement ---- */

static void memblock_alloc_base_top_down(void **state)
{
	struct cma_mm *mm = test_mm_early();

	expect_alloc(mm, 4096, 4096, 0, 64 * MiB - 4096);
	expect_alloc(mm, 4096, 4096, 0, 64 * MiB - 8192);
	expect_alloc(mm, 1 * MiB, 4096, 0, 63 * MiB - 8192);
	cma_mm_destroy(mm);
}

/*
 * Expect (memblock_phys_alloc_range, as of_reserved_mem places a dynamic
 * region): the highest aligned fit inside [start, end), or with
 * bottom_up the lowest; end 0 is the end of memory, past the memblock
 * limit; nothing fits, 0 and nothing reserved; a bad alignment, 0.
 */
static void memblock_alloc_range_top_down_or_bottom_up(void **state)
{
	struct cma_mm *mm = test_mm_early(.arch = CMA_ARCH_ARM, .highmem_start = 32 * MiB);
	struct reserved_snapshot before;

	assert_int_equal(cma_memblock_alloc_range(mm, 1 * MiB, 1 * MiB, 8 * MiB, 16 * MiB, false), 15 * MiB);
	assert_int_equal(cma_memblock_alloc_range(mm, 1 * MiB, 1 * MiB, 8 * MiB, 16 * MiB, true), 8 * MiB);
	assert_int_equal(cma_memblock_alloc_range(mm, 2 * MiB, 2 * MiB, 8 * MiB, 16 * MiB, true), 10 * MiB);
	/* end 0: the whole of memory, HighMem too (MEMBLOCK_ALLOC_ANYWHERE) */
	assert_int_equal(cma_memblock_alloc_range(mm, 4 * MiB, 4 * MiB, 0, 0, false), 60 * MiB);
	snapshot_reserved(mm, &before);
	assert_int_equal(cma_memblock_alloc_range(mm, 8 * MiB, 1 * MiB, 8 * MiB, 16 * MiB, false), 0);
	assert_int_equal(cma_memblock_alloc_range(mm, 1 * MiB, 3 * MiB, 0, 0, false), 0);
	expect_reserved_unchanged(mm, &before, "a range with no room, a bad alignment");
	cma_mm_destroy(mm);
}

/*
 * Expect: the highest base that is a multiple of the alignment and whose
 * block, its size rounded up to the alignment, fits below what is taken.
 */
static void memblock_alloc_base_aligned(void **state)
{
	struct cma_mm *mm = test_mm_early();

	/* 4 KiB aligned to 1 MiB takes [63M, 64M) */
	expect_alloc(mm, 4096, 1 * MiB, 0, 63 * MiB);
	/* 8 KiB aligned to 2 MiB takes 2 MiB: [61M, 63M) is not aligned, [60M, 62M) would overlap */
	expect_alloc(mm, 8192, 2 * MiB, 0, 60 * MiB);
	/* 8 MiB alignment below 60 MiB: 48 MiB */
	expect_alloc(mm, 4096, 8 * MiB, 0, 48 * MiB);
	/* alignment 0 means byte alignment: one byte goes in the gap [62M, 63M), at its top */
	expect_alloc(mm, 1, 0, 0, 63 * MiB - 1);
	expect_alloc(mm, 4096, 4096, 0, 63 * MiB - 8192);
	cma_mm_destroy(mm);
}

static void memblock_alloc_base_rejects_bad_alignment(void **state)
{
	struct cma_mm *mm = test_mm_early();
	struct reserved_snapshot s;

	snapshot_reserved(mm, &s);
	expect_alloc(mm, 4096, 3 * 4096, 0, 0);
	expect_alloc(mm, 0, 4096, 0, 0);
	expect_reserved_unchanged(mm, &s, "refused allocations");
	cma_mm_destroy(mm);
}

/* Expect: a region reserved at the top pushes the allocation below it. */
static void memblock_alloc_base_below_reserved_region(void **state)
{
	struct cma_mm *mm = test_mm_early();

	assert_int_equal(cma_memblock_reserve(mm, 60 * MiB, 4 * MiB), 0);
	expect_alloc(mm, 1 * MiB, 4096, 0, 59 * MiB);
	/* a reservation inside a page: the page-aligned block goes below that page */
	assert_int_equal(cma_memblock_reserve(mm, 59 * MiB - 100, 50), 0);
	expect_alloc(mm, 4096, 4096, 0, 59 * MiB - 8192);
	cma_mm_destroy(mm);
}

/*
 *    20M                30M  30M+12K                64M
 *     |-----reserved-----|gap|--------reserved--------|
 * Expect: page-sized allocations fill the 12 KiB gap from the top (three
 * of them), and only then go below 20 MiB.
 */
static void memblock_alloc_base_fills_gaps(void **state)
{
	struct cma_mm *mm = test_mm_early();

	assert_int_equal(cma_memblock_reserve(mm, 20 * MiB, 10 * MiB), 0);
	assert_int_equal(cma_memblock_reserve(mm, 30 * MiB + 12 * 1024, 34 * MiB - 12 * 1024), 0);
	expect_alloc(mm, 8192, 4096, 0, 30 * MiB + 4096);
	expect_alloc(mm, 4096, 4096, 0, 30 * MiB);
	expect_alloc(mm, 4096, 4096, 0, 20 * MiB - 4096);
	/* a 4 KiB gap at [10M, 10M + 4K) over [9M, 10M) reserved: an 8 KiB block skips it */
	assert_int_equal(cma_memblock_reserve(mm, 10 * MiB + 4096, 10 * MiB - 8192), 0);
	assert_int_equal(cma_memblock_reserve(mm, 9 * MiB, 1 * MiB), 0);
	expect_alloc(mm, 8192, 4096, 0, 9 * MiB - 8192);
	expect_alloc(mm, 4096, 4096, 0, 10 * MiB);
	expect_alloc(mm, 4096, 4096, 0, 9 * MiB - 12288);
	cma_mm_destroy(mm);
}

/* ---- the limit ---- */

/* Expect on x86: limit 0 is the end of RAM, the top of the last bank. */
static void memblock_alloc_base_default_limit_x86_end_of_ram(void **state)
{
	static const struct cma_bank banks[] = { { 0, 64 * MiB }, { 128 * MiB, 64 * MiB } };
	struct cma_mm *mm = test_mm_early(.banks = banks, .nr_banks = 2);

	assert_int_equal(mm->memblock.current_limit, 192 * MiB);
	expect_alloc(mm, 1 * MiB, 4096, 0, 191 * MiB);
	cma_mm_destroy(mm);
}

/* Expect on ARM with highmem: limit 0 is highmem_start (arm_lowmem_limit). */
static void memblock_alloc_base_default_limit_arm_highmem_start(void **state)
{
	static const struct cma_bank bank = { 0x40000000, 1 * GiB };
	struct cma_mm_config cfg = {
		.arch = CMA_ARCH_ARM, .banks = &bank, .nr_banks = 1,
		.highmem_start = 0x70000000, .cmdline = "cma=0",
	};
	struct cma_mm *mm = NULL;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	expect_alloc(mm, 1 * MiB, 1 * MiB, 0, 0x70000000 - 1 * MiB);
	/* an explicit limit above the lowmem limit is the caller's to give */
	expect_alloc(mm, 1 * MiB, 1 * MiB, 0x80000000, 0x80000000 - 1 * MiB);
	cma_mm_destroy(mm);
}

/* Expect: an explicit cfg.memblock_limit replaces the platform's default. */
static void memblock_alloc_base_default_limit_from_config(void **state)
{
	static const struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = {
		.banks = &bank, .nr_banks = 1, .memblock_limit = 32 * MiB, .cmdline = "cma=0",
	};
	struct cma_mm *mm = NULL;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	expect_alloc(mm, 1 * MiB, 4096, 0, 31 * MiB);
	expect_alloc(mm, 1 * MiB, 4096, 0, 30 * MiB);
	cma_mm_destroy(mm);
}

/* Expect: an explicit limit below the current one bounds the block's end. */
static void memblock_alloc_base_explicit_limit_below_current(void **state)
{
	struct cma_mm *mm = test_mm_early();

	expect_alloc(mm, 1 * MiB, 4096, 16 * MiB, 15 * MiB);
	/* an unaligned limit: the block ends at or below it */
	expect_alloc(mm, 4096, 4096, 8 * MiB + 100, 8 * MiB - 4096);
	/* limit 0 afterwards is the current limit again */
	expect_alloc(mm, 4096, 4096, 0, 64 * MiB - 4096);
	cma_mm_destroy(mm);
}

/* ---- size, failure, address 0 ---- */

/* Expect: 5000 bytes aligned to 4 KiB take 8 KiB, all reserved. */
static void memblock_alloc_base_rounds_size_to_align(void **state)
{
	static const struct memblock_region want[] = { { 64 * MiB - 12288, 12288 } };
	struct cma_mm *mm = test_mm_early();

	expect_alloc(mm, 5000, 4096, 0, 64 * MiB - 8192);
	expect_alloc(mm, 1, 4096, 0, 64 * MiB - 12288);
	/* adjacent allocations merge into one reserved region of 12 KiB */
	expect_reserved_regions(mm, want, 1);
	cma_mm_destroy(mm);
}

/*
 * Expect: a request that cannot fit returns 0 and reserves nothing, so
 * that a request that does fit afterwards gets the very top.
 */
static void memblock_alloc_base_failure_reserves_nothing(void **state)
{
	struct cma_mm *mm = test_mm_early();
	struct reserved_snapshot s;

	snapshot_reserved(mm, &s);
	expect_alloc(mm, 128 * MiB, 4096, 0, 0);
	/* the whole bank could only start at 0, which is never given */
	expect_alloc(mm, 64 * MiB, 4096, 0, 0);
	/* 40 MiB aligned to 32 MiB is 64 MiB */
	expect_alloc(mm, 40 * MiB, 32 * MiB, 0, 0);
	/* below a limit of one page nothing fits: the first page is not handed out */
	expect_alloc(mm, 4096, 4096, 4096, 0);
	expect_reserved_unchanged(mm, &s, "failed allocations");
	expect_alloc(mm, 32 * MiB, 4096, 0, 32 * MiB);
	expect_alloc(mm, 32 * MiB - 4096, 4096, 0, 4096);
	cma_mm_destroy(mm);
}

/* Expect: address 0 is never returned, it would read as failure. */
static void memblock_alloc_base_never_returns_zero(void **state)
{
	static const struct cma_bank bank = { 0, 1 * MiB };
	struct cma_mm *mm = test_mm_early(.banks = &bank, .nr_banks = 1);

	/* only the first page stays free */
	assert_int_equal(cma_memblock_reserve(mm, 4096, 1 * MiB - 4096), 0);
	expect_alloc(mm, 4096, 4096, 0, 0);
	expect_alloc(mm, 1, 1, 0, 0);
	cma_mm_destroy(mm);

	/* a bank that starts above 0 may be used from its first byte */
	static const struct cma_bank high = { 1 * MiB, 1 * MiB };

	mm = test_mm_early(.banks = &high, .nr_banks = 1);
	expect_alloc(mm, 1 * MiB, 1 * MiB, 0, 1 * MiB);
	cma_mm_destroy(mm);
}

/*
 *   0        16M        32M        48M        64M         96M
 *   |--bank--|   hole   |--bank--|   hole    |---bank----|
 * Expect: 1 MiB blocks fill the banks top-down and none ever touches a
 * hole; every MiB is used but the first (it holds page 0).
 */
static void memblock_alloc_base_avoids_holes(void **state)
{
	static const struct cma_bank banks[] = {
		{ 0, 16 * MiB }, { 32 * MiB, 16 * MiB }, { 64 * MiB, 32 * MiB },
	};
	struct cma_mm *mm = test_mm_early(.banks = banks, .nr_banks = 3);
	unsigned long n;

	/* bigger than the top bank's room: not across the hole below it */
	expect_alloc(mm, 40 * MiB, 4096, 0, 0);
	expect_alloc(mm, 24 * MiB, 4096, 0, 72 * MiB);
	/* the top bank has 8 MiB left: a 10 MiB block goes to the middle bank */
	expect_alloc(mm, 10 * MiB, 4096, 0, 38 * MiB);
	n = alloc_until_full(mm, 1 * MiB, banks, 3, NULL, 0);
	if (n != 8 + 6 + 15) {
		print_error("expected %u 1 MiB blocks in what was left, found %lu\n", 8 + 6 + 15, n);
		fail();
	}
	cma_mm_destroy(mm);
}

/* ---- reserve ---- */

/*
 * Expect: overlapping, nested, adjacent and bridging reservations end as
 * one region, and everything outside it can still be allocated.
 */
static void memblock_reserve_overlapping_and_adjacent_merge(void **state)
{
	static const struct cma_bank bank = { 0, 64 * MiB };
	static const struct memblock_region one[] = { { 10 * MiB, 15 * MiB } };
	static const struct memblock_region two[] = { { 10 * MiB, 20 * MiB }, { 40 * MiB, 2 * MiB } };
	static const struct memblock_region merged[] = { { 10 * MiB, 32 * MiB } };
	struct cma_mm *mm = test_mm_early(.banks = &bank, .nr_banks = 1);
	unsigned long n;

	assert_int_equal(cma_memblock_reserve(mm, 10 * MiB, 10 * MiB), 0);
	assert_int_equal(cma_memblock_reserve(mm, 15 * MiB, 10 * MiB), 0);	/* overlaps */
	assert_int_equal(cma_memblock_reserve(mm, 12 * MiB, 1 * MiB), 0);	/* nested */
	assert_int_equal(cma_memblock_reserve(mm, 10 * MiB, 15 * MiB), 0);	/* the same again */
	expect_reserved_regions(mm, one, 1);
	assert_int_equal(cma_memblock_reserve(mm, 25 * MiB, 5 * MiB), 0);	/* adjacent above */
	assert_int_equal(cma_memblock_reserve(mm, 40 * MiB, 2 * MiB), 0);	/* apart */
	expect_reserved_regions(mm, two, 2);
	assert_int_equal(cma_memblock_reserve(mm, 29 * MiB, 12 * MiB), 0);	/* bridges both */
	expect_reserved_regions(mm, merged, 1);
	assert_int_equal(cma_memblock_reserve(mm, 0, 0), 0);			/* empty: nothing */
	expect_reserved_regions(mm, merged, 1);

	n = alloc_until_full(mm, 1 * MiB, &bank, 1, merged, 1);
	if (n != 64 - 32 - 1) {
		print_error("expected %d 1 MiB blocks outside [10M, 42M), found %lu\n", 64 - 32 - 1, n);
		fail();
	}
	cma_mm_destroy(mm);
}

/* Expect: many scattered reservations (more than the initial array) stay sorted and apart. */
static void memblock_reserve_many_regions_stay_sorted(void **state)
{
	struct cma_mm *mm = test_mm_early();
	const struct memblock_type *r = &mm->memblock.reserved;

	/* descending order of insertion, every other MiB */
	for (int i = 31; i >= 0; i--)
		assert_int_equal(cma_memblock_reserve(mm, (cma_phys_t)(2 * i + 1) * MiB, 4096), 0);
	assert_int_equal(r->cnt, 32);
	for (unsigned long i = 0; i < r->cnt; i++) {
		if (r->regions[i].base != (2 * i + 1) * MiB || r->regions[i].size != 4096) {
			print_error("region %lu: expected [%#llx + 0x1000], found [%#" PRIx64 " + %#" PRIx64 "]\n",
				    i, (unsigned long long)(2 * i + 1) * MiB, r->regions[i].base,
				    r->regions[i].size);
			fail();
		}
	}
	/* the top block [63M+4K, 64M) is free */
	expect_alloc(mm, 4096, 4096, 0, 64 * MiB - 4096);
	cma_mm_destroy(mm);
}

static void memblock_reserve_wraparound_einval(void **state)
{
	struct cma_mm *mm = test_mm_early();
	struct reserved_snapshot s;

	snapshot_reserved(mm, &s);
	assert_int_equal(cma_memblock_reserve(mm, UINT64_MAX - 4095, 8192), -EINVAL);
	assert_int_equal(cma_memblock_reserve(mm, 1 * MiB, UINT64_MAX), -EINVAL);
	expect_reserved_unchanged(mm, &s, "wrapping reservations");
	expect_alloc(mm, 4096, 4096, 0, 64 * MiB - 4096);
	cma_mm_destroy(mm);
}

/*
 *     10M    14M  16M     20M 22M   26M  30M    34M
 *      |--a---|    |---b---|   |--c--|    |--d---|
 * Expect (memblock_phys_free, as of_reserved_mem gives back a node whose
 * setup failed): freeing [12M, 32M) cuts a's top and d's bottom and
 * takes b and c whole; freeing inside a region splits it in two; a range
 * reserved nowhere, an empty one and a wrapping one (-EINVAL) change
 * nothing; and the freed memory is allocatable again.
 */
static void memblock_phys_free_cuts_splits_and_removes(void **state)
{
	static const struct memblock_region cut[] = { { 10 * MiB, 2 * MiB }, { 32 * MiB, 2 * MiB } };
	static const struct memblock_region split[] = {
		{ 10 * MiB, 1 * MiB }, { 11 * MiB + 4096, 1 * MiB - 4096 }, { 32 * MiB, 2 * MiB },
	};
	struct cma_mm *mm = test_mm_early();

	assert_int_equal(cma_memblock_reserve(mm, 10 * MiB, 4 * MiB), 0);
	assert_int_equal(cma_memblock_reserve(mm, 16 * MiB, 4 * MiB), 0);
	assert_int_equal(cma_memblock_reserve(mm, 22 * MiB, 4 * MiB), 0);
	assert_int_equal(cma_memblock_reserve(mm, 30 * MiB, 4 * MiB), 0);
	assert_int_equal(cma_memblock_phys_free(mm, 12 * MiB, 20 * MiB), 0);
	expect_reserved_regions(mm, cut, 2);
	assert_int_equal(cma_memblock_phys_free(mm, 11 * MiB, 4096), 0);
	expect_reserved_regions(mm, split, 3);
	assert_int_equal(cma_memblock_phys_free(mm, 40 * MiB, 8 * MiB), 0);
	assert_int_equal(cma_memblock_phys_free(mm, 10 * MiB, 0), 0);
	assert_int_equal(cma_memblock_phys_free(mm, UINT64_MAX - 4095, 8192), -EINVAL);
	expect_reserved_regions(mm, split, 3);
	/* the top of the freed range is the highest free block below 32M */
	expect_alloc(mm, 20 * MiB, 1 * MiB, 32 * MiB, 12 * MiB);
	cma_mm_destroy(mm);
}

/* ---- after boot ---- */

/* Expect: the calls refuse after boot (-EINVAL / 0) and change nothing. */
static void memblock_calls_refused_after_boot(void **state)
{
	struct cma_mm *mm = test_mm_early();
	struct reserved_snapshot s;
	unsigned long free_before;

	assert_int_equal(cma_memblock_reserve(mm, 8 * MiB, 1 * MiB), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	snapshot_reserved(mm, &s);
	free_before = global_page_state(mm, NR_FREE_PAGES);

	assert_int_equal(cma_memblock_reserve(mm, 32 * MiB, 1 * MiB), -EINVAL);
	assert_int_equal(cma_memblock_phys_free(mm, 8 * MiB, 1 * MiB), -EINVAL);
	expect_alloc(mm, 4096, 4096, 0, 0);
	expect_alloc(mm, 1 * MiB, 1 * MiB, 16 * MiB, 0);

	expect_reserved_unchanged(mm, &s, "refused calls after boot");
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), free_before);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static bool page_overlaps(struct cma_mm *mm, unsigned long pfn, const struct memblock_region *r,
			  unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (ranges_overlap((cma_phys_t)pfn << mm->page_shift, mm->page_size, r[i].base, r[i].size))
			return true;
	return false;
}

/*
 * Expect: after boot, the buddy allocator never hands out a page that
 * touches a reserved region (pages only partly reserved included), and
 * every other page can be had: taking every page yields exactly the free
 * page count at boot. Reserved pfns carry PG_reserved.
 */
static void memblock_reserved_regions_stay_out_of_buddy(void **state)
{
	static const struct cma_bank banks[] = { { 0, 32 * MiB }, { 48 * MiB, 16 * MiB } };
	struct cma_mm_config cfg = {
		.banks = banks, .nr_banks = 2, .zone_dma_end = 16 * MiB, .cmdline = "cma=0",
	};
	struct memblock_region res[4];
	struct cma_mm *mm = NULL;
	unsigned long total_pages = (48 * MiB) >> 12, reserved_pages, free_at_boot, n, kernel, atomic;
	struct cma_page **pages;
	uint8_t *seen;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	res[0].base = cma_memblock_alloc_base(mm, 1 * MiB, 1 * MiB, 0);
	res[0].size = 1 * MiB;
	assert_int_equal(res[0].base, 63 * MiB);
	res[1] = (struct memblock_region){ 60 * MiB + 100, 5000 };	/* parts of two pages */
	res[2] = (struct memblock_region){ 10 * MiB, 2 * MiB };		/* inside ZONE_DMA */
	res[3] = (struct memblock_region){ 15 * MiB, 2 * MiB };		/* across DMA's end */
	for (int i = 1; i < 4; i++)
		assert_int_equal(cma_memblock_reserve(mm, res[i].base, res[i].size), 0);
	assert_int_equal(cma_mm_boot(mm), 0);

	/*
	 * The four regions, and the vmemmap (x86-64, sparse_init): one 128 MiB
	 * section has memory, so 2 MiB, PMD-aligned, top-down above 16 MiB:
	 * [60 MiB + 5100, 63 MiB) holds no aligned 2 MiB, so [58, 60) MiB.
	 */
	reserved_pages = 256 + 2 + 512 + 512 + 512;
	free_at_boot = global_page_state(mm, NR_FREE_PAGES);
	if (free_at_boot != total_pages - reserved_pages) {
		print_error("expected %lu free pages at boot, found %lu\n",
			    total_pages - reserved_pages, free_at_boot);
		fail();
	}

	pages = calloc(total_pages, sizeof(*pages));
	seen = calloc(mm->end_pfn, 1);
	assert_non_null(pages);
	assert_non_null(seen);
	kernel = test_alloc_all(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, pages, total_pages);
	atomic = test_alloc_all(mm, CMA_GFP_ATOMIC | CMA_GFP_NOWARN, pages + kernel, total_pages - kernel);
	/* __GFP_HIGH digs below the min mark that stopped GFP_KERNEL */
	assert_true(atomic > 0);
	/* what the watermarks hold back; then the rest, DMA zone included */
	test_zero_watermarks(mm);
	n = kernel + atomic;
	n += test_alloc_all(mm, CMA_GFP_ATOMIC | CMA_GFP_NOWARN, pages + n, total_pages - n);
	printf("memblock: %lu pages free at boot; allocated %lu GFP_KERNEL, %lu GFP_ATOMIC, %lu past the watermarks\n",
	       free_at_boot, kernel, atomic, n - kernel - atomic);

	for (unsigned long i = 0; i < n; i++) {
		unsigned long pfn = cma_page_to_pfn(mm, pages[i]);

		if (page_overlaps(mm, pfn, res, 4)) {
			print_error("allocated pfn %#lx: expected outside every reserved region, found inside one\n", pfn);
			fail();
		}
		if (!range_in_banks(banks, 2, (cma_phys_t)pfn << 12, 4096)) {
			print_error("allocated pfn %#lx: expected inside a bank, found in a hole\n", pfn);
			fail();
		}
		if (seen[pfn]++) {
			print_error("pfn %#lx handed out twice\n", pfn);
			fail();
		}
	}
	if (n != free_at_boot) {
		print_error("expected every free page (%lu) allocatable, found %lu\n", free_at_boot, n);
		fail();
	}
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), 0);

	/* reserved pfns, whole or partly reserved */
	static const unsigned long reserved_pfns[] = { 0x3f00, 0x3fff, 0x3c00, 0x3c01, 0xa00, 0xbff, 0xf00, 0x10ff,
						       0x3a00, 0x3bff };
	for (unsigned i = 0; i < sizeof(reserved_pfns) / sizeof(reserved_pfns[0]); i++) {
		struct cma_page *page = cma_pfn_to_page(mm, reserved_pfns[i]);

		assert_non_null(page);
		if (!page_test(page, PG_reserved)) {
			print_error("pfn %#lx: expected PG_reserved, found flags %#x\n", reserved_pfns[i],
				    page_flags(page));
			fail();
		}
	}
	/* the pages next to them are not reserved */
	assert_false(page_test(cma_pfn_to_page(mm, 0x3c02), PG_reserved));
	assert_false(page_test(cma_pfn_to_page(mm, 0x39ff), PG_reserved));
	assert_verify(mm);

	for (unsigned long i = 0; i < n; i++)
		cma_free_pages(mm, pages[i], 0);
	cma_drain_all_pages(mm);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), free_at_boot);
	assert_verify(mm);
	free(pages);
	free(seen);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memblock_alloc_base_top_down),
		cmocka_unit_test(memblock_alloc_base_aligned),
		cmocka_unit_test(memblock_alloc_base_rejects_bad_alignment),
		cmocka_unit_test(memblock_alloc_base_below_reserved_region),
		cmocka_unit_test(memblock_alloc_base_fills_gaps),
		cmocka_unit_test(memblock_alloc_base_default_limit_x86_end_of_ram),
		cmocka_unit_test(memblock_alloc_base_default_limit_arm_highmem_start),
		cmocka_unit_test(memblock_alloc_base_default_limit_from_config),
		cmocka_unit_test(memblock_alloc_base_explicit_limit_below_current),
		cmocka_unit_test(memblock_alloc_base_rounds_size_to_align),
		cmocka_unit_test(memblock_alloc_base_failure_reserves_nothing),
		cmocka_unit_test(memblock_alloc_base_never_returns_zero),
		cmocka_unit_test(memblock_alloc_range_top_down_or_bottom_up),
		cmocka_unit_test(memblock_alloc_base_avoids_holes),
		cmocka_unit_test(memblock_reserve_overlapping_and_adjacent_merge),
		cmocka_unit_test(memblock_reserve_many_regions_stay_sorted),
		cmocka_unit_test(memblock_reserve_wraparound_einval),
		cmocka_unit_test(memblock_phys_free_cuts_splits_and_removes),
		cmocka_unit_test(memblock_calls_refused_after_boot),
		cmocka_unit_test(memblock_reserved_regions_stay_out_of_buddy),
	};

	return cmocka_run_group_tests_name("memblock", tests, NULL, NULL);
}
