/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one pseudo-random generator of the library, the tests, the simulator
 * and the benchmark (the role of the kernel's prandom_u32_state):
 * splitmix64 (Steele, Lea and Flood, 2014). The state is a plain uint64_t
 * that any value seeds, 0 included; the sequence is the same on every libc,
 * unlike rand(), so a seed printed by a failing run replays it, and the
 * simulator's golden outputs hold on every machine.
 */
#ifndef CMA_LIB_PRANDOM_H
#define CMA_LIB_PRANDOM_H

#include <stdint.h>

static inline uint64_t prandom_u64_state(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* In [0, @n), 0 when @n is 0; the modulo bias is below 2^-40 for the n we draw. */
static inline uint64_t prandom_below(uint64_t *state, uint64_t n)
{
	return n ? prandom_u64_state(state) % n : 0;
}

#endif
