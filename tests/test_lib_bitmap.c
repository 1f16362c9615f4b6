// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for src/lib/bitmap.c. Hand-made cases pin down the edges (word
 * boundaries, bits past @size, nothing found); randomized maps compare
 * every search against a bit-by-bit reference. Maps are malloc'ed to
 * exactly BITS_TO_LONGS(size) words so ASan catches a read past the end.
 *
 * The random tests print their seed; CMA_TEST_SEED=<n> repeats a run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bitmap.h"
#include "lib/prandom.h"

#define DEFAULT_SEED	0x5eedcafe1234abcdULL

static uint64_t test_seed = DEFAULT_SEED;

/* A stream of lib/prandom.h's generator, seeded per test from test_seed. */
struct rng {
	uint64_t state;
};

static void rng_init(struct rng *r, uint64_t stream)
{
	r->state = test_seed ^ (stream * 0x9e3779b97f4a7c15ULL);
}

/* In [0, n); n > 0. */
static unsigned long rng_below(struct rng *r, unsigned long n)
{
	return (unsigned long)prandom_below(&r->state, n);
}

static unsigned long *map_alloc(unsigned long size)
{
	size_t words = BITS_TO_LONGS(size) ? BITS_TO_LONGS(size) : 1;
	unsigned long *map = calloc(words, sizeof(*map));

	assert_non_null(map);
	return map;
}

/*
 * Fill all of @map's words, including the bits past @size that every
 * function must ignore, with one of several patterns: empty, full, random
 * at some density, or random runs (the shape a CMA bitmap takes).
 */
static void map_fill_random(struct rng *r, unsigned long *map, unsigned long size)
{
	unsigned long words = BITS_TO_LONGS(size), i, n, start, len;
	unsigned int density;

	switch (rng_below(r, 6)) {
	case 0:
		memset(map, 0, words * sizeof(*map));
		break;
	case 1:
		memset(map, 0xff, words * sizeof(*map));
		break;
	case 2:
	case 3:
		density = (unsigned int)rng_below(r, 17);	/* sixteenths */
		for (i = 0; i < words * BITS_PER_LONG; i++) {
			if (rng_below(r, 16) < density)
				map[i / BITS_PER_LONG] |= 1UL << (i % BITS_PER_LONG);
			else
				map[i / BITS_PER_LONG] &= ~(1UL << (i % BITS_PER_LONG));
		}
		break;
	default:
		memset(map, 0, words * sizeof(*map));
		n = rng_below(r, 12);
		for (i = 0; i < n && size; i++) {
			start = rng_below(r, size);
			len = rng_below(r, size - start) + 1;
			bitmap_set(map, start, len > 64 ? rng_below(r, 64) + 1 : len);
		}
		if (words * BITS_PER_LONG > size && rng_below(r, 2))
			map[words - 1] |= ~BITMAP_LAST_WORD_MASK(size);
		break;
	}
}

/* The references: one bit at a time, nothing clever. */
static unsigned long ref_find(const unsigned long *map, unsigned long size,
			      unsigned long offset, bool want)
{
	for (; offset < size; offset++)
		if (test_bit(offset, map) == want)
			return offset;
	return size;
}

static bool ref_range_clear(const unsigned long *map, unsigned long start, unsigned long nr)
{
	unsigned long i;

	for (i = start; i < start + nr; i++)
		if (test_bit(i, map))
			return false;
	return true;
}

/* Lowest index >= @start, a multiple of @align_mask + 1, starting @nr clear bits. */
static bool ref_zero_area(const unsigned long *map, unsigned long size, unsigned long start,
			  unsigned int nr, unsigned long align_mask, unsigned long *found)
{
	unsigned long i;

	for (i = (start + align_mask) & ~align_mask; i + nr <= size; i += align_mask + 1) {
		if (ref_range_clear(map, i, nr)) {
			*found = i;
			return true;
		}
	}
	return false;
}

static unsigned long ref_longest_zero_run(const unsigned long *map, unsigned long size)
{
	unsigned long best = 0, run = 0, i;

	for (i = 0; i < size; i++) {
		run = test_bit(i, map) ? 0 : run + 1;
		if (run > best)
			best = run;
	}
	return best;
}

static void test_bit_set_bit_clear_bit(void **state)
{
	unsigned long map[2] = { 0, 0 };

	set_bit(0, map);
	set_bit(BITS_PER_LONG - 1, map);
	set_bit(BITS_PER_LONG, map);
	assert_true(test_bit(0, map));
	assert_false(test_bit(1, map));
	assert_true(test_bit(BITS_PER_LONG - 1, map));
	assert_true(test_bit(BITS_PER_LONG, map));
	assert_true(map[0] == (1UL | (1UL << (BITS_PER_LONG - 1))));
	assert_true(map[1] == 1UL);
	clear_bit(BITS_PER_LONG - 1, map);
	clear_bit(BITS_PER_LONG, map);
	assert_false(test_bit(BITS_PER_LONG - 1, map));
	assert_true(map[0] == 1UL);
	assert_true(map[1] == 0UL);
}

static void bits_to_longs_rounds_up(void **state)
{
	assert_int_equal(BITS_TO_LONGS(0), 0);
	assert_int_equal(BITS_TO_LONGS(1), 1);
	assert_int_equal(BITS_TO_LONGS(BITS_PER_LONG), 1);
	assert_int_equal(BITS_TO_LONGS(BITS_PER_LONG + 1), 2);
	assert_int_equal(BITS_PER_LONG, sizeof(long) * 8);
}

/* Expect exactly bits [start, start + nr) to change, in the middle of guard words. */
static void bitmap_set_clear_exact_range(void **state)
{
	static const unsigned long cases[][2] = {
		{ 0, 0 }, { 0, 1 }, { 5, 3 }, { 0, 64 }, { 63, 2 }, { 60, 8 },
		{ 64, 64 }, { 1, 190 }, { 0, 192 }, { 100, 0 }, { 191, 1 }, { 3, 128 },
	};
	unsigned long map[BITS_TO_LONGS(256)];
	size_t c;
	unsigned long i;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		unsigned long start = cases[c][0], nr = cases[c][1];

		memset(map, 0, sizeof(map));
		bitmap_set(map, start, nr);
		for (i = 0; i < 256; i++)
			assert_int_equal(test_bit(i, map), i >= start && i < start + nr);

		memset(map, 0xff, sizeof(map));
		bitmap_clear(map, start, nr);
		for (i = 0; i < 256; i++)
			assert_int_equal(test_bit(i, map), !(i >= start && i < start + nr));
	}
}

static void bitmap_set_clear_random(void **state)
{
	const unsigned long size = 5 * BITS_PER_LONG + 17;
	unsigned long *map = map_alloc(size), *ref = map_alloc(size);
	unsigned long start, nr, i;
	struct rng r;
	int iter;

	rng_init(&r, 1);
	for (iter = 0; iter < 20000; iter++) {
		start = rng_below(&r, size + 1);
		nr = rng_below(&r, size - start + 1);
		if (rng_below(&r, 2)) {
			bitmap_set(map, start, nr);
			for (i = start; i < start + nr; i++)
				set_bit(i, ref);
		} else {
			bitmap_clear(map, start, nr);
			for (i = start; i < start + nr; i++)
				clear_bit(i, ref);
		}
		if (memcmp(map, ref, BITS_TO_LONGS(size) * sizeof(*map)) != 0) {
			print_error("seed %#" PRIx64 " iteration %d: %s(%lu, %lu) changed other bits\n",
				    test_seed, iter, "bitmap_set/clear", start, nr);
			fail();
		}
	}
	free(map);
	free(ref);
}

static void find_next_bit_edges(void **state)
{
	unsigned long map[3] = { 0, 0, 0 };

	assert_int_equal(find_next_bit(map, 3 * BITS_PER_LONG, 0), 3 * BITS_PER_LONG);
	set_bit(0, map);
	set_bit(BITS_PER_LONG, map);
	set_bit(2 * BITS_PER_LONG + 5, map);
	assert_int_equal(find_next_bit(map, 3 * BITS_PER_LONG, 0), 0);
	assert_int_equal(find_next_bit(map, 3 * BITS_PER_LONG, 1), BITS_PER_LONG);
	assert_int_equal(find_next_bit(map, 3 * BITS_PER_LONG, BITS_PER_LONG + 1),
			 2 * BITS_PER_LONG + 5);
	/* A bit at or past @size does not count. */
	assert_int_equal(find_next_bit(map, 2 * BITS_PER_LONG + 5, BITS_PER_LONG + 1),
			 2 * BITS_PER_LONG + 5);
	assert_int_equal(find_next_bit(map, 2 * BITS_PER_LONG + 3, BITS_PER_LONG + 1),
			 2 * BITS_PER_LONG + 3);
	/* Offsets at or past @size find nothing and read nothing. */
	assert_int_equal(find_next_bit(map, 10, 10), 10);
	assert_int_equal(find_next_bit(map, 10, 500), 10);
	assert_int_equal(find_next_bit(NULL, 0, 0), 0);
}

static void find_next_zero_bit_edges(void **state)
{
	unsigned long map[2] = { ~0UL, ~0UL };

	assert_int_equal(find_next_zero_bit(map, 2 * BITS_PER_LONG, 0), 2 * BITS_PER_LONG);
	clear_bit(BITS_PER_LONG + 3, map);
	assert_int_equal(find_next_zero_bit(map, 2 * BITS_PER_LONG, 0), BITS_PER_LONG + 3);
	assert_int_equal(find_next_zero_bit(map, 2 * BITS_PER_LONG, BITS_PER_LONG + 4),
			 2 * BITS_PER_LONG);
	assert_int_equal(find_next_zero_bit(map, BITS_PER_LONG + 2, 0), BITS_PER_LONG + 2);

	/* Clear bits past @size in the last word do not count. */
	map[0] = ~0UL;
	map[1] = BITMAP_LAST_WORD_MASK(6);
	assert_int_equal(find_next_zero_bit(map, BITS_PER_LONG + 6, 0), BITS_PER_LONG + 6);
	assert_int_equal(find_next_zero_bit(map, BITS_PER_LONG + 6, 99), BITS_PER_LONG + 6);
	assert_int_equal(find_next_zero_bit(NULL, 0, 0), 0);
}

static void find_next_bit_random(void **state)
{
	struct rng r;
	int iter;

	rng_init(&r, 2);
	for (iter = 0; iter < 3000; iter++) {
		unsigned long size = rng_below(&r, 8 * BITS_PER_LONG) + 1;
		unsigned long *map = map_alloc(size);
		unsigned long offset, got, want;
		bool zero;
		int k;

		map_fill_random(&r, map, size);
		for (k = 0; k < 16; k++) {
			offset = rng_below(&r, size + 2);
			zero = k & 1;

			got = zero ? find_next_zero_bit(map, size, offset) : find_next_bit(map, size, offset);
			want = ref_find(map, size, offset, !zero);
			if (got != want) {
				print_error("seed %#" PRIx64 " iteration %d: %s(size %lu, offset %lu):"
					    " expected %lu, found %lu\n", test_seed, iter,
					    zero ? "find_next_zero_bit" : "find_next_bit",
					    size, offset, want, got);
				fail();
			}
		}
		free(map);
	}
}

static void bitmap_weight_counts_first_nbits(void **state)
{
	unsigned long map[3] = { ~0UL, 0x5UL, ~0UL };
	struct rng r;
	unsigned long i, nbits, want;
	int iter;

	assert_int_equal(bitmap_weight(map, 0), 0);
	assert_int_equal(bitmap_weight(map, BITS_PER_LONG), BITS_PER_LONG);
	assert_int_equal(bitmap_weight(map, BITS_PER_LONG + 1), BITS_PER_LONG + 1);
	assert_int_equal(bitmap_weight(map, BITS_PER_LONG + 3), BITS_PER_LONG + 2);
	assert_int_equal(bitmap_weight(map, 2 * BITS_PER_LONG + 7), BITS_PER_LONG + 2 + 7);

	rng_init(&r, 3);
	for (iter = 0; iter < 2000; iter++) {
		unsigned long size = rng_below(&r, 6 * BITS_PER_LONG) + 1;
		unsigned long *m = map_alloc(size);

		map_fill_random(&r, m, size);
		nbits = rng_below(&r, size + 1);
		for (want = 0, i = 0; i < nbits; i++)
			want += test_bit(i, m);
		if (bitmap_weight(m, nbits) != want) {
			print_error("seed %#" PRIx64 " iteration %d: bitmap_weight(%lu):"
				    " expected %lu, found %lu\n", test_seed, iter, nbits, want,
				    bitmap_weight(m, nbits));
			fail();
		}
		free(m);
	}
}

/*
 * Expect, on a 64-bit-aligned picture of a CMA bitmap (x = allocated):
 *
 *	bit:  0    4    8    12   16
 *	      xxx. .... xx.. ....
 */
static void bitmap_find_next_zero_area_alignment(void **state)
{
	const unsigned long size = 16;
	unsigned long map[1] = { 0 };

	bitmap_set(map, 0, 3);
	bitmap_set(map, 8, 2);
	/* No alignment: first clear run of 1, then of 5 (3..7), then of 6 (10..15). */
	assert_int_equal(bitmap_find_next_zero_area(map, size, 0, 1, 0), 3);
	assert_int_equal(bitmap_find_next_zero_area(map, size, 0, 5, 0), 3);
	assert_int_equal(bitmap_find_next_zero_area(map, size, 0, 6, 0), 10);
	/* Aligned to 4: bit 3 is skipped. */
	assert_int_equal(bitmap_find_next_zero_area(map, size, 0, 1, 3), 4);
	assert_int_equal(bitmap_find_next_zero_area(map, size, 0, 4, 3), 4);
	assert_int_equal(bitmap_find_next_zero_area(map, size, 0, 5, 3), 12 + 5);
	/* Aligned to 8: 0 is taken, 8 collides, nothing else fits 2 bits. */
	assert_int_equal(bitmap_find_next_zero_area(map, size, 0, 2, 7), 16 + 2);
	assert_int_equal(bitmap_find_next_zero_area(map, size, 0, 1, 7), 16 + 1);
	/* Aligned to 2, starting inside the second run. */
	assert_int_equal(bitmap_find_next_zero_area(map, size, 5, 2, 1), 6);
	assert_int_equal(bitmap_find_next_zero_area(map, size, 7, 2, 1), 10);
	assert_int_equal(bitmap_find_next_zero_area(map, size, 11, 2, 1), 12);
}

/* When nothing fits, the result is >= size: the kernel's callers' test. */
static void bitmap_find_next_zero_area_nothing_fits(void **state)
{
	unsigned long map[2] = { ~0UL, ~0UL };
	const unsigned long size = 2 * BITS_PER_LONG;

	assert_true(bitmap_find_next_zero_area(map, size, 0, 1, 0) >= size);
	memset(map, 0, sizeof(map));
	assert_int_equal(bitmap_find_next_zero_area(map, size, 0, size, 0), 0);
	assert_true(bitmap_find_next_zero_area(map, size, 0, size + 1, 0) >= size);
	assert_true(bitmap_find_next_zero_area(map, size, 1, size, 0) >= size);
	assert_true(bitmap_find_next_zero_area(map, size, size, 1, 0) >= size);
	assert_true(bitmap_find_next_zero_area(map, size, 1, 1, 2 * size - 1) >= size);
	/* An empty map is never read; the kernel returns the candidate's end. */
	assert_int_equal(bitmap_find_next_zero_area(NULL, 0, 0, 1, 0), 1);
}

/* As in the kernel, a run of 0 bits is "found" at the first aligned clear bit. */
static void bitmap_find_next_zero_area_zero_length(void **state)
{
	unsigned long map[1] = { 0x7UL };

	assert_int_equal(bitmap_find_next_zero_area(map, 16, 0, 0, 0), 3);
	assert_int_equal(bitmap_find_next_zero_area(map, 16, 0, 0, 7), 8);
	map[0] = 0xffffUL;
	assert_true(bitmap_find_next_zero_area(map, 16, 0, 0, 0) >= 16);
}

/*
 * Expect the lowest aligned index >= start with nr clear bits, on random
 * maps of random sizes, for every alignment CMA uses (order 0 to 7).
 */
static void bitmap_find_next_zero_area_random(void **state)
{
	static const unsigned long masks[] = { 0, 1, 3, 7, 15, 31, 63, 127 };
	struct rng r;
	int iter;

	rng_init(&r, 4);
	for (iter = 0; iter < 4000; iter++) {
		unsigned long size = rng_below(&r, 10 * BITS_PER_LONG) + 1;
		unsigned long *map = map_alloc(size);
		int k;

		map_fill_random(&r, map, size);
		for (k = 0; k < 16; k++) {
			unsigned long start = rng_below(&r, size + 1);
			unsigned int nr = (unsigned int)rng_below(&r, k & 1 ? 9 : 70) + 1;
			unsigned long mask = masks[rng_below(&r, 8)];
			unsigned long got = bitmap_find_next_zero_area(map, size, start, nr, mask);
			unsigned long want;
			bool fits = ref_zero_area(map, size, start, nr, mask, &want);

			if (fits ? got != want : got < size) {
				print_error("seed %#" PRIx64 " iteration %d: bitmap_find_next_zero_area"
					    "(size %lu, start %lu, nr %u, mask %#lx): expected %s%lu,"
					    " found %lu\n", test_seed, iter, size, start, nr, mask,
					    fits ? "" : ">= ", fits ? want : size, got);
				fail();
			}
		}
		free(map);
	}
}

static void bitmap_longest_zero_run_edges(void **state)
{
	unsigned long map[2] = { 0, 0 };

	assert_int_equal(bitmap_longest_zero_run(map, 2 * BITS_PER_LONG), 2 * BITS_PER_LONG);
	assert_int_equal(bitmap_longest_zero_run(map, 37), 37);
	assert_int_equal(bitmap_longest_zero_run(map, 0), 0);
	memset(map, 0xff, sizeof(map));
	assert_int_equal(bitmap_longest_zero_run(map, 2 * BITS_PER_LONG), 0);
	/* A run across the word boundary; clear bits past size do not extend it. */
	bitmap_clear(map, BITS_PER_LONG - 3, 7);
	bitmap_clear(map, 2, 2);
	assert_int_equal(bitmap_longest_zero_run(map, 2 * BITS_PER_LONG), 7);
	map[1] = 0;
	assert_int_equal(bitmap_longest_zero_run(map, BITS_PER_LONG + 2), 5);
}

static void bitmap_longest_zero_run_random(void **state)
{
	struct rng r;
	int iter;

	rng_init(&r, 5);
	for (iter = 0; iter < 3000; iter++) {
		unsigned long size = rng_below(&r, 8 * BITS_PER_LONG) + 1;
		unsigned long *map = map_alloc(size);
		unsigned long got, want;

		map_fill_random(&r, map, size);
		got = bitmap_longest_zero_run(map, size);
		want = ref_longest_zero_run(map, size);
		if (got != want) {
			print_error("seed %#" PRIx64 " iteration %d: bitmap_longest_zero_run"
				    "(size %lu): expected %lu, found %lu\n", test_seed, iter,
				    size, want, got);
			fail();
		}
		free(map);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bit_set_bit_clear_bit),
		cmocka_unit_test(bits_to_longs_rounds_up),
		cmocka_unit_test(bitmap_set_clear_exact_range),
		cmocka_unit_test(bitmap_set_clear_random),
		cmocka_unit_test(find_next_bit_edges),
		cmocka_unit_test(find_next_zero_bit_edges),
		cmocka_unit_test(find_next_bit_random),
		cmocka_unit_test(bitmap_weight_counts_first_nbits),
		cmocka_unit_test(bitmap_find_next_zero_area_alignment),
		cmocka_unit_test(bitmap_find_next_zero_area_nothing_fits),
		cmocka_unit_test(bitmap_find_next_zero_area_zero_length),
		cmocka_unit_test(bitmap_find_next_zero_area_random),
		cmocka_unit_test(bitmap_longest_zero_run_edges),
		cmocka_unit_test(bitmap_longest_zero_run_random),
	};
	const char *env = getenv("CMA_TEST_SEED");

	if (env && *env)
		test_seed = strtoull(env, NULL, 0);
	printf("test_lib_bitmap: seed %#" PRIx64 " (CMA_TEST_SEED=%#" PRIx64 " to repeat)\n",
	       test_seed, test_seed);
	fflush(stdout);
	return cmocka_run_group_tests_name("lib/bitmap", tests, NULL, NULL);
}
