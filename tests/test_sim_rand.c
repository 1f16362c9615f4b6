// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for the simulator's look-ahead at its random draws
 * (tools/cmasim/engine/engine.c, owned.c): a workload prefetches the pages
 * of the touches to come by peeking at the generator, and a peek must
 * neither draw nor differ from the draw it foresees, or one seed would no
 * longer mean one run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "helpers.h"
#include "lib/prandom.h"
#include "engine/owned.h"
#include "engine/sim.h"

#define SEED	0x5eed2028u

/* Expect: the next draws are what the peek said, and the peek left the generator as it was. */
static void sim_rand_peek_below_foresees_without_drawing(void **state)
{
	static struct sim s, copy;
	const uint64_t bounds[] = { 1, 7, 1000, 1ull << 40 };

	for (unsigned b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
		uint64_t next[4];

		s.rng = copy.rng = SEED + b;
		memcpy(next, sim_rand_peek_below(&s, bounds[b], 4), sizeof(next));
		assert_int_equal(s.rng, SEED + b);
		for (unsigned i = 0; i < 4; i++) {
			uint64_t drawn = sim_rand_below(&copy, bounds[b]);

			if (next[i] != drawn)
				fail_msg("below %llu, draw %u: peeked %llu, drew %llu",
					 (unsigned long long)bounds[b], i, (unsigned long long)next[i],
					 (unsigned long long)drawn);
		}
	}
}

/*
 * Expect: the draws a peek computed are kept for the draws they foresee
 * and for nothing else. Peeks of 0 to SIM_MAX_PEEK, draws below one
 * bound or another and plain sim_rand draws, interleaved at random, give
 * the sequence of a generator nobody peeks at.
 */
static void sim_rand_below_after_peeks_draws_as_unpeeked(void **state)
{
	static struct sim s, copy;
	const uint64_t bounds[] = { 0, 7, 1000 };	/* below 0 draws nothing */
	uint64_t mix = SEED;

	s.rng = copy.rng = SEED;
	for (unsigned i = 0; i < 10000; i++) {
		uint64_t pick = prandom_u64_state(&mix), n = bounds[pick % 3], got, want;

		sim_rand_peek_below(&s, n, (unsigned)(pick >> 8) % (SIM_MAX_PEEK + 1));
		if ((pick >> 16) % 8 == 0) {
			got = sim_rand(&s);
			want = sim_rand(&copy);
		} else {
			n = bounds[(pick >> 24) % 3];
			got = sim_rand_below(&s, n);
			want = sim_rand_below(&copy, n);
		}
		if (got != want)
			fail_msg("step %u: drew %llu, a generator never peeked at %llu", i,
				 (unsigned long long)got, (unsigned long long)want);
	}
	assert_int_equal(s.rng, copy.rng);
}

/*
 * Expect: a look-ahead kept across many draws below one bound (a
 * workload's touches: the peeked numbers move back to the start of
 * their buffer now and then) foretells each draw. Each peek of
 * SIM_MAX_PEEK after a draw must agree with the draws of a generator
 * nobody peeks at, at every offset, for all the draws a buffer's worth
 * of shifts takes.
 */
static void sim_rand_peek_below_kept_across_draws(void **state)
{
	static struct sim s, copy, ahead;
	const uint64_t n = 1000003;

	s.rng = copy.rng = SEED;
	for (unsigned i = 0; i < 8 * SIM_MAX_PEEK; i++) {
		unsigned nr = 1 + i % SIM_MAX_PEEK;
		const uint64_t *next = sim_rand_peek_below(&s, n, nr);

		/* in the buffer, and kept: nothing had invalidated the look-ahead */
		assert_true(next >= s.peek && next + nr <= s.peek + sizeof(s.peek) / sizeof(s.peek[0]));
		assert_true(i == 0 || s.peek_rng == s.rng);
		ahead.rng = copy.rng;
		for (unsigned k = 0; k < nr; k++) {
			uint64_t want = sim_rand_below(&ahead, n);

			if (next[k] != want)
				fail_msg("draw %u, %u ahead: peeked %llu, will draw %llu", i, k,
					 (unsigned long long)next[k], (unsigned long long)want);
		}
		assert_int_equal(sim_rand_below(&s, n), sim_rand_below(&copy, n));
	}
	assert_int_equal(s.rng, copy.rng);
}

/* Expect: owned_rand_below draws exactly sim_rand_below's sequence, resident pages or not. */
static void owned_rand_below_draws_as_sim_rand_below(void **state)
{
	static struct sim s, copy;
	struct owned_pages o = { .s = &s };
	struct cma_page pages[2];
	/* two pages, a file page's shadow and an anonymous page's swap entry (value entries) */
	struct owned_slot slots[64] = { [3].entry = (uintptr_t)&pages[0], [40].entry = (uintptr_t)&pages[1],
					[7].entry = 0x51, [20].entry = 5 << 1 | 1 };

	o.slot = slots;
	o.nr = 64;
	s.rng = copy.rng = SEED;
	for (unsigned i = 0; i < 1000; i++) {
		uint64_t n = 1 + i % 64, want = sim_rand_below(&copy, n), got = owned_rand_below(&o, n);

		if (got != want)
			fail_msg("draw %u below %llu: owned_rand_below %llu, sim_rand_below %llu", i,
				 (unsigned long long)n, (unsigned long long)got,
				 (unsigned long long)want);
	}
	assert_int_equal(s.rng, copy.rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sim_rand_peek_below_foresees_without_drawing),
		cmocka_unit_test(sim_rand_below_after_peeks_draws_as_unpeeked),
		cmocka_unit_test(sim_rand_peek_below_kept_across_draws),
		cmocka_unit_test(owned_rand_below_draws_as_sim_rand_below),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
