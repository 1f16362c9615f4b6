/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bitmaps of unsigned long words, with the kernel's lib/bitmap.c and
 * lib/find_bit.c semantics: bit n lives in word n / BITS_PER_LONG at
 * position n % BITS_PER_LONG, and every search returns @size when it finds
 * nothing. Searches look at a whole word at a time and never read a word
 * past BITS_TO_LONGS(size).
 *
 * Nothing here is atomic, not even set_bit(): the kernel's set_bit() is,
 * but every bitmap in libcma (cma->bitmap) is guarded by its owner's lock,
 * so callers hold that lock across any read-modify-write of the map.
 */
#ifndef CMA_LIB_BITMAP_H
#define CMA_LIB_BITMAP_H

#include <stdbool.h>

#define BITS_PER_LONG		(__SIZEOF_LONG__ * 8)
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))

/* Bits at and above @start within its word; bits below @nbits within the last word. */
#define BITMAP_FIRST_WORD_MASK(start)	(~0UL << ((start) & (BITS_PER_LONG - 1)))
#define BITMAP_LAST_WORD_MASK(nbits)	(~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return (addr[BIT_WORD(nr)] & BIT_MASK(nr)) != 0;
}

/* Non-atomic (the kernel's __set_bit()): the caller holds the map's lock. */
static inline void set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

/* Non-atomic (the kernel's __clear_bit()): the caller holds the map's lock. */
static inline void clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/* test_bit() of a map changed under a lock the reader does not hold: READ_ONCE of its word. */
static inline bool test_bit_once(unsigned long nr, const unsigned long *addr)
{
	return (__atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_RELAXED) & BIT_MASK(nr)) != 0;
}

/* set or clear a bit under the map's lock for such readers: WRITE_ONCE of its word. */
static inline void assign_bit_once(unsigned long nr, unsigned long *addr, bool on)
{
	unsigned long *w = &addr[BIT_WORD(nr)];

	__atomic_store_n(w, on ? *w | BIT_MASK(nr) : *w & ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

void bitmap_set(unsigned long *map, unsigned long start, unsigned long nr);
void bitmap_clear(unsigned long *map, unsigned long start, unsigned long nr);

unsigned long find_next_bit(const unsigned long *map, unsigned long size,
			    unsigned long offset);
unsigned long find_next_zero_bit(const unsigned long *map, unsigned long size,
				 unsigned long offset);

unsigned long bitmap_weight(const unsigned long *map, unsigned long nbits);

unsigned long bitmap_find_next_zero_area(const unsigned long *map,
					 unsigned long size,
					 unsigned long start,
					 unsigned int nr,
					 unsigned long align_mask);
unsigned long bitmap_find_next_zero_area_off(const unsigned long *map,
					     unsigned long size,
					     unsigned long start,
					     unsigned int nr,
					     unsigned long align_mask,
					     unsigned long align_offset);

unsigned long bitmap_longest_zero_run(const unsigned long *map, unsigned long size);

#endif
