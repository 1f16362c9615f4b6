/* SPDX-License-Identifier: GPL-2.0 */
/*
 * int_sqrt (the kernel's lib/math/int_sqrt.c): the integer square root,
 * rounded down, digit by digit in base 4, for the sizing rules that take
 * a square root (min_free_kbytes, the LRU's inactive ratio).
 */
#ifndef CMA_LIB_INT_SQRT_H
#define CMA_LIB_INT_SQRT_H

static inline unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0;

	for (unsigned long bit = 1ul << 62; bit; bit >>= 2) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return r;
}

#endif
