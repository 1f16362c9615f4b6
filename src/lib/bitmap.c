// SPDX-License-Identifier: GPL-2.0
/*
 * Bitmap range updates and searches, after the kernel's lib/bitmap.c and
 * lib/find_bit.c. The one idea: a search XORs each word with an "invert"
 * mask so that finding a zero bit is finding a set bit in ~word, masks off
 * the bits before the start in the first word, then skips whole words until
 * one is non-zero and lets __builtin_ctzl() name the bit. A search of n bits
 * costs n / BITS_PER_LONG word loads.
 */
#include "lib/bitmap.h"

/*
 * Find the first bit at or after @start that is set in (map ^ @invert),
 * clamped to @nbits. @invert is 0 to find set bits, ~0UL to find clear ones.
 */
static unsigned long find_next(const unsigned long *map, unsigned long nbits,
			       unsigned long start, unsigned long invert)
{
	unsigned long word, bit;

	if (start >= nbits)
		return nbits;

	word = (map[BIT_WORD(start)] ^ invert) & BITMAP_FIRST_WORD_MASK(start);
	start -= start % BITS_PER_LONG;
	while (!word) {
		start += BITS_PER_LONG;
		if (start >= nbits)
			return nbits;
		word = map[BIT_WORD(start)] ^ invert;
	}
	bit = start + (unsigned long)__builtin_ctzl(word);
	/* The last word may hold bits past @nbits; they do not count. */
	return bit < nbits ? bit : nbits;
}

/**
 * find_next_bit() - first set bit at or after @offset
 * @map: the bitmap
 * @size: number of bits in @map
 * @offset: where to start looking
 *
 * Mirrors the kernel's find_next_bit().
 * Return: the bit number, or @size if no bit in [@offset, @size) is set.
 */
unsigned long find_next_bit(const unsigned long *map, unsigned long size,
			    unsigned long offset)
{
	return find_next(map, size, offset, 0UL);
}

/**
 * find_next_zero_bit() - first clear bit at or after @offset
 * @map: the bitmap
 * @size: number of bits in @map
 * @offset: where to start looking
 *
 * Mirrors the kernel's find_next_zero_bit().
 * Return: the bit number, or @size if no bit in [@offset, @size) is clear.
 */
unsigned long find_next_zero_bit(const unsigned long *map, unsigned long size,
				 unsigned long offset)
{
	return find_next(map, size, offset, ~0UL);
}

/**
 * bitmap_set() - set bits [@start, @start + @nr)
 * @map: the bitmap
 * @start: first bit to set
 * @nr: number of bits to set
 *
 * Mirrors the kernel's bitmap_set(): a partial first word, whole words,
 * then a partial last word. Not atomic; the caller holds the map's lock.
 */
void bitmap_set(unsigned long *map, unsigned long start, unsigned long nr)
{
	unsigned long *p = map + BIT_WORD(start);
	const unsigned long end = start + nr;
	unsigned long bits_to_set = BITS_PER_LONG - start % BITS_PER_LONG;
	unsigned long mask = BITMAP_FIRST_WORD_MASK(start);

	while (nr >= bits_to_set) {
		*p++ |= mask;
		nr -= bits_to_set;
		bits_to_set = BITS_PER_LONG;
		mask = ~0UL;
	}
	if (nr)
		*p |= mask & BITMAP_LAST_WORD_MASK(end);
}

/**
 * bitmap_clear() - clear bits [@start, @start + @nr)
 * @map: the bitmap
 * @start: first bit to clear
 * @nr: number of bits to clear
 *
 * Mirrors the kernel's bitmap_clear(). Not atomic; the caller holds the
 * map's lock.
 */
void bitmap_clear(unsigned long *map, unsigned long start, unsigned long nr)
{
	unsigned long *p = map + BIT_WORD(start);
	const unsigned long end = start + nr;
	unsigned long bits_to_clear = BITS_PER_LONG - start % BITS_PER_LONG;
	unsigned long mask = BITMAP_FIRST_WORD_MASK(start);

	while (nr >= bits_to_clear) {
		*p++ &= ~mask;
		nr -= bits_to_clear;
		bits_to_clear = BITS_PER_LONG;
		mask = ~0UL;
	}
	if (nr)
		*p &= ~(mask & BITMAP_LAST_WORD_MASK(end));
}

/**
 * bitmap_weight() - number of set bits among the first @nbits
 * @map: the bitmap
 * @nbits: number of bits to count
 *
 * Mirrors the kernel's bitmap_weight().
 */
unsigned long bitmap_weight(const unsigned long *map, unsigned long nbits)
{
	unsigned long w = 0, i;

	for (i = 0; i < nbits / BITS_PER_LONG; i++)
		w += (unsigned long)__builtin_popcountl(map[i]);
	if (nbits % BITS_PER_LONG)
		w += (unsigned long)__builtin_popcountl(map[i] & BITMAP_LAST_WORD_MASK(nbits));
	return w;
}

/**
 * bitmap_find_next_zero_area() - find a run of @nr clear bits
 * @map: the bitmap
 * @size: number of bits in @map
 * @start: lowest index the run may begin at
 * @nr: length of the run
 * @align_mask: the run begins at a multiple of @align_mask + 1 (a power of
 *	two minus one; 0 for no alignment)
 *
 * Mirrors the kernel's bitmap_find_next_zero_area() of v3.4, which CMA's
 * cma_alloc() calls: take the first clear bit at or after @start, align it
 * up, and if a set bit lies inside the candidate run, restart just past
 * that bit. No aligned index skipped this way can begin a free run, since
 * each one would contain the set bit found, so the result is the lowest
 * aligned index >= @start whose @nr bits are all clear.
 *
 * Return: that index, or a value >= @size when no run fits (like the
 * kernel, the end of the last candidate run, which lies past @size).
 * Callers test it the kernel's way: "if (pageno >= cma->count) break;".
 */
unsigned long bitmap_find_next_zero_area(const unsigned long *map,
					 unsigned long size,
					 unsigned long start,
					 unsigned int nr,
					 unsigned long align_mask)
{
	return bitmap_find_next_zero_area_off(map, size, start, nr, align_mask, 0);
}

/*
 * bitmap_find_next_zero_area_off() - as bitmap_find_next_zero_area(), the
 * run aligned so that index + @align_offset is a multiple of @align_mask + 1
 * (3.18's form: a CMA area whose base is not aligned to the request).
 */
unsigned long bitmap_find_next_zero_area_off(const unsigned long *map,
					     unsigned long size,
					     unsigned long start,
					     unsigned int nr,
					     unsigned long align_mask,
					     unsigned long align_offset)
{
	unsigned long index, end, i;

again:
	index = find_next_zero_bit(map, size, start);

	/* Align allocation */
	index = ((index + align_offset + align_mask) & ~align_mask) - align_offset;

	end = index + nr;
	if (end > size)
		return end;
	i = find_next_bit(map, end, index);
	if (i < end) {
		start = i + 1;
		goto again;
	}
	return index;
}

/**
 * bitmap_longest_zero_run() - length of the longest run of clear bits
 * @map: the bitmap
 * @size: number of bits in @map
 *
 * Not in the kernel; CMA's debugfs "maxchunk" file computes the same thing
 * by walking the bitmap with find_next_zero_bit()/find_next_bit() as here.
 * Return: the longest run length, 0 if every bit is set.
 */
unsigned long bitmap_longest_zero_run(const unsigned long *map, unsigned long size)
{
	unsigned long best = 0, start, end;

	start = find_next_zero_bit(map, size, 0);
	while (start < size && size - start > best) {
		end = find_next_bit(map, size, start);
		if (end - start > best)
			best = end - start;
		start = find_next_zero_bit(map, size, end);
	}
	return best;
}
