// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for src/lib/prandom.h: the sequence is splitmix64's to the bit,
 * since cmasim's golden outputs and every replayed CMA_TEST_SEED depend
 * on it, and prandom_below stays in its range.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "lib/prandom.h"

/* Expect the published splitmix64 outputs for seed 0 (Vigna's splitmix64.c). */
static void prandom_u64_state_is_splitmix64(void **state)
{
	static const uint64_t want[] = {
		0xe220a8397b1dcdafull, 0x6e789e6aa1b965f4ull, 0x06c45d188009454full, 0xf88bb8a8724c81ecull,
	};
	uint64_t s = 0;

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(prandom_u64_state(&s), want[i]);
	assert_int_equal(s, 4 * 0x9e3779b97f4a7c15ull);
}

static void prandom_below_in_range(void **state)
{
	uint64_t s = 1234567, seen = 0;

	assert_int_equal(prandom_below(&s, 0), 0);
	assert_int_equal(s, 1234567);		/* an empty range draws nothing */
	for (unsigned i = 0; i < 1000; i++) {
		uint64_t v = prandom_below(&s, 7);

		assert_true(v < 7);
		seen |= 1ull << v;
	}
	assert_int_equal(seen, 0x7f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prandom_u64_state_is_splitmix64),
		cmocka_unit_test(prandom_below_in_range),
	};

	return cmocka_run_group_tests_name("lib/prandom", tests, NULL, NULL);
}
