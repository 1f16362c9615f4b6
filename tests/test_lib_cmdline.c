// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for src/lib/cmdline.c: memparse_strict() against every accepted
 * form and every refusal, and cmdline_find_option() against the kernel's
 * tokenizing rules (quotes, bare keys, last occurrence wins).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "lib/cmdline.h"

/* memparse_strict() on a NUL-terminated string, using all of it. */
static int memparse_str(const char *s, uint64_t *out)
{
	return memparse_strict(s, strlen(s), out);
}

static void expect_size(const char *s, uint64_t want)
{
	uint64_t got = 0;
	int ret = memparse_str(s, &got);

	if (ret != 0 || got != want) {
		print_error("memparse_strict(\"%s\"): expected 0 and %" PRIu64
			    ", found %d and %" PRIu64 "\n", s, want, ret, got);
		fail();
	}
}

static void expect_einval(const char *s)
{
	const uint64_t canary = 0xdeadbeefcafef00dULL;
	uint64_t got = canary;
	int ret = memparse_str(s, &got);

	if (ret != -EINVAL || got != canary) {
		print_error("memparse_strict(\"%s\"): expected -EINVAL and *out untouched"
			    ", found %d and %#" PRIx64 "\n", s, ret, got);
		fail();
	}
}

static void parse_integer_stops_at_non_digit(void **state)
{
	uint64_t v;
	bool ovf;

	assert_int_equal(parse_integer("123abc", 6, 10, &v, &ovf), 3);
	assert_int_equal(v, 123);
	assert_false(ovf);
	assert_int_equal(parse_integer("ffz", 3, 16, &v, &ovf), 2);
	assert_int_equal(v, 0xff);
	assert_int_equal(parse_integer("789", 3, 8, &v, &ovf), 1);
	assert_int_equal(v, 7);
	assert_int_equal(parse_integer("x1", 2, 10, &v, &ovf), 0);
	assert_int_equal(v, 0);
}

static void parse_integer_respects_len(void **state)
{
	uint64_t v;
	bool ovf;

	assert_int_equal(parse_integer("12345", 2, 10, &v, &ovf), 2);
	assert_int_equal(v, 12);
	assert_int_equal(parse_integer("12345", 0, 10, &v, &ovf), 0);
}

static void parse_integer_overflow(void **state)
{
	uint64_t v;
	bool ovf;

	assert_int_equal(parse_integer("18446744073709551615", 20, 10, &v, &ovf), 20);
	assert_false(ovf);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_integer("18446744073709551616", 20, 10, &v, &ovf), 20);
	assert_true(ovf);
	assert_int_equal(parse_integer("10000000000000000", 17, 16, &v, &ovf), 17);
	assert_true(ovf);
}

static void memparse_strict_decimal(void **state)
{
	expect_size("0", 0);
	expect_size("1", 1);
	expect_size("4096", 4096);
	expect_size("123456789", 123456789);
}

static void memparse_strict_suffixes(void **state)
{
	expect_size("64M", 64ULL << 20);
	expect_size("1G", 1ULL << 30);
	expect_size("1K", 1ULL << 10);
	expect_size("1k", 1ULL << 10);
	expect_size("3m", 3ULL << 20);
	expect_size("2g", 2ULL << 30);
	expect_size("5T", 5ULL << 40);
	expect_size("5t", 5ULL << 40);
	expect_size("7P", 7ULL << 50);
	expect_size("7p", 7ULL << 50);
	expect_size("1E", 1ULL << 60);
	expect_size("1e", 1ULL << 60);
	expect_size("0K", 0);
}

static void memparse_strict_hex(void **state)
{
	expect_size("0x1000", 0x1000);
	expect_size("0X1000", 0x1000);
	expect_size("0xDeadBeef", 0xdeadbeefULL);
	expect_size("0x10M", 0x10ULL << 20);
	expect_size("0x0", 0);
}

/* As in the kernel, hex digits are consumed before a suffix is looked for. */
static void memparse_strict_hex_e_is_a_digit(void **state)
{
	expect_size("0x1E", 0x1e);
	expect_size("0x1e", 0x1e);
	expect_size("0x1EK", 0x1eULL << 10);
}

static void memparse_strict_octal(void **state)
{
	expect_size("010", 8);
	expect_size("0777", 0777);
	expect_size("017K", 017ULL << 10);
	expect_size("00", 0);
	expect_size("0M", 0);
}

/* The kernel would read "08" as 0 and stop; the '8' is a leftover here. */
static void memparse_strict_octal_bad_digit(void **state)
{
	expect_einval("08");
	expect_einval("09M");
	expect_einval("0128");
}

static void memparse_strict_unknown_suffix(void **state)
{
	expect_einval("12Q");
	expect_einval("12B");
	expect_einval("12x");
	expect_einval("0x10Z");
}

static void memparse_strict_sign(void **state)
{
	expect_einval("-5");
	expect_einval("+5");
	expect_einval("-0x10");
}

static void memparse_strict_empty(void **state)
{
	uint64_t v = 42;

	expect_einval("");
	assert_int_equal(memparse_strict("64M", 0, &v), -EINVAL);
	assert_int_equal(memparse_strict(NULL, 3, &v), -EINVAL);
	assert_int_equal(v, 42);
}

static void memparse_strict_no_digits(void **state)
{
	expect_einval("M");
	expect_einval("K");
	expect_einval("x");
	expect_einval("0x");
	expect_einval("0xK");
	expect_einval("0xg");
}

static void memparse_strict_trailing(void **state)
{
	expect_einval("64MB");
	expect_einval("64MM");
	expect_einval("64KM");
	expect_einval("64 ");
	expect_einval(" 64");
	expect_einval("64 M");
	expect_einval("64M ");
	expect_einval("1.5G");
	expect_einval("0x10g0");
}

static void memparse_strict_overflow(void **state)
{
	expect_einval("16E");
	expect_einval("17179869184G");
	expect_einval("18446744073709551616");
	expect_einval("99999999999999999999999");
	expect_einval("0x10000000000000000");
	expect_einval("02000000000000000000000");
	expect_einval("0xffffffffffffffffK");
}

static void memparse_strict_limits(void **state)
{
	expect_size("15E", 15ULL << 60);
	expect_size("17179869183G", 17179869183ULL << 30);
	expect_size("18446744073709551615", UINT64_MAX);
	expect_size("0xffffffffffffffff", UINT64_MAX);
	expect_size("01777777777777777777777", UINT64_MAX);
	expect_size("16777215T", 16777215ULL << 40);
}

/*
 * Expect exactly @len characters to be read: a buffer with no NUL (ASan
 * would catch a read past it) and a prefix of a longer string.
 */
static void memparse_strict_uses_only_len(void **state)
{
	const char unterminated[3] = { '6', '4', 'M' };
	uint64_t v;

	assert_int_equal(memparse_strict(unterminated, sizeof(unterminated), &v), 0);
	assert_true(v == 64ULL << 20);
	assert_int_equal(memparse_strict("64Mjunk", 3, &v), 0);
	assert_true(v == 64ULL << 20);
	assert_int_equal(memparse_strict("64Mjunk", 2, &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(memparse_strict("0x10", 2, &v), -EINVAL);
	assert_int_equal(memparse_strict("0x10", 1, &v), 0);
	assert_int_equal(v, 0);
}

/* Expect the value of the last @key in @cmdline to be @want (NULL: absent). */
static void expect_option(const char *cmdline, const char *key, const char *want)
{
	const char *val = NULL;
	size_t len = 0;
	int found = cmdline_find_option(cmdline, key, &val, &len);

	if (!want) {
		if (found) {
			print_error("cmdline \"%s\", key \"%s\": expected absent, found \"%.*s\"\n",
				    cmdline, key, (int)len, val);
			fail();
		}
		return;
	}
	if (found != 1 || !val || len != strlen(want) || memcmp(val, want, len) != 0) {
		print_error("cmdline \"%s\", key \"%s\": expected \"%s\", found %d \"%.*s\"\n",
			    cmdline, key, want, found, val ? (int)len : 0, val ? val : "");
		fail();
	}
}

static void cmdline_find_option_key_value(void **state)
{
	expect_option("cma=64M", "cma", "64M");
	expect_option("console=ttyS0,115200 cma=64M quiet", "cma", "64M");
	expect_option("console=ttyS0,115200 cma=64M quiet", "console", "ttyS0,115200");
}

static void cmdline_find_option_absent(void **state)
{
	const char *val = "untouched";
	size_t len = 99;

	assert_int_equal(cmdline_find_option("quiet console=ttyS0", "cma", &val, &len), 0);
	assert_string_equal(val, "untouched");
	assert_int_equal(len, 99);
}

static void cmdline_find_option_null_cmdline(void **state)
{
	const char *val = NULL;
	size_t len = 0;

	assert_int_equal(cmdline_find_option(NULL, "cma", &val, &len), 0);
	assert_null(val);
}

static void cmdline_find_option_empty_cmdline(void **state)
{
	expect_option("", "cma", NULL);
	expect_option("   \t\n ", "cma", NULL);
}

static void cmdline_find_option_empty_key(void **state)
{
	assert_int_equal(cmdline_find_option("=5 cma=1", "", NULL, NULL), 0);
	assert_int_equal(cmdline_find_option("cma=1", NULL, NULL, NULL), 0);
}

/* Each early_param() call overwrites the previous one, so the last wins. */
static void cmdline_find_option_last_wins(void **state)
{
	expect_option("cma=16M quiet cma=64M", "cma", "64M");
	expect_option("cma=16M cma=32M cma=64M", "cma", "64M");
	expect_option("cma=64M cma=", "cma", "");
}

static void cmdline_find_option_last_wins_bare(void **state)
{
	const char *val = NULL;
	size_t len = 99;

	assert_int_equal(cmdline_find_option("cma=16M cma", "cma", &val, &len), 1);
	assert_non_null(val);
	assert_int_equal(len, 0);
}

static void cmdline_find_option_bare_key(void **state)
{
	const char *val = NULL;
	size_t len = 99;

	assert_int_equal(cmdline_find_option("quiet cma=1 nosmp", "quiet", &val, &len), 1);
	assert_non_null(val);
	assert_int_equal(len, 0);
	assert_int_equal(cmdline_find_option("quiet cma=1 nosmp", "nosmp", &val, &len), 1);
	assert_int_equal(len, 0);
}

/* A bare "cma" must be a clean refusal for memparse_strict(), not a crash. */
static void cmdline_find_option_bare_key_refused_by_memparse(void **state)
{
	const char *val;
	size_t len;
	uint64_t size;

	assert_int_equal(cmdline_find_option("cma", "cma", &val, &len), 1);
	assert_int_equal(memparse_strict(val, len, &size), -EINVAL);
	assert_int_equal(cmdline_find_option("cma=32M", "cma", &val, &len), 1);
	assert_int_equal(memparse_strict(val, len, &size), 0);
	assert_true(size == 32ULL << 20);
}

static void cmdline_find_option_empty_value(void **state)
{
	expect_option("cma= quiet", "cma", "");
	expect_option("cma=", "cma", "");
}

static void cmdline_find_option_prefix_key(void **state)
{
	expect_option("cmax=1", "cma", NULL);
	expect_option("cma_size=5 cmax", "cma", NULL);
	expect_option("xcma=1", "cma", NULL);
	expect_option("cma=1", "cmax", NULL);
	expect_option("cma=1", "cm", NULL);
	expect_option("cmax=1 cma=2 cmay=3", "cma", "2");
}

static void cmdline_find_option_quoted_value(void **state)
{
	expect_option("foo=\"a b c\" cma=1", "foo", "a b c");
	expect_option("foo=\"a b c\" cma=1", "cma", "1");
	expect_option("cma=\"64M\"", "cma", "64M");
	expect_option("cma=\"\" quiet", "cma", "");
}

static void cmdline_find_option_quoted_token(void **state)
{
	expect_option("\"cma=64M\" quiet", "cma", "64M");
	expect_option("\"foo=a b\" cma=2", "foo", "a b");
	expect_option("\"quiet\" cma=2", "quiet", "");
}

/* As in the kernel, an open quote runs to the end of the command line. */
static void cmdline_find_option_unterminated_quote(void **state)
{
	expect_option("cma=\"64M quiet", "cma", "64M quiet");
	expect_option("foo=\"x cma=1", "cma", NULL);
}

/* A quote in the middle of a token also protects spaces, as in next_arg(). */
static void cmdline_find_option_inner_quote(void **state)
{
	expect_option("foo=a\"b c\"d cma=1", "foo", "a\"b c\"d");
	expect_option("foo=a\"b c\"d cma=1", "cma", "1");
}

static void cmdline_find_option_key_inside_value(void **state)
{
	expect_option("foo=\"cma=1\"", "cma", NULL);
	expect_option("foo=cma=1", "cma", NULL);
	expect_option("foo=\"x cma=1\" bar", "cma", NULL);
}

static void cmdline_find_option_value_with_equals(void **state)
{
	expect_option("foo=a=b", "foo", "a=b");
}

static void cmdline_find_option_whitespace_kinds(void **state)
{
	expect_option("\tcma=1\n", "cma", "1");
	expect_option("a=1\r\ncma=2\vquiet\fb=3", "cma", "2");
	expect_option("  cma=3  ", "cma", "3");
}

static void cmdline_find_option_null_outputs(void **state)
{
	assert_int_equal(cmdline_find_option("cma=64M", "cma", NULL, NULL), 1);
	assert_int_equal(cmdline_find_option("quiet", "cma", NULL, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_integer_stops_at_non_digit),
		cmocka_unit_test(parse_integer_respects_len),
		cmocka_unit_test(parse_integer_overflow),
		cmocka_unit_test(memparse_strict_decimal),
		cmocka_unit_test(memparse_strict_suffixes),
		cmocka_unit_test(memparse_strict_hex),
		cmocka_unit_test(memparse_strict_hex_e_is_a_digit),
		cmocka_unit_test(memparse_strict_octal),
		cmocka_unit_test(memparse_strict_octal_bad_digit),
		cmocka_unit_test(memparse_strict_unknown_suffix),
		cmocka_unit_test(memparse_strict_sign),
		cmocka_unit_test(memparse_strict_empty),
		cmocka_unit_test(memparse_strict_no_digits),
		cmocka_unit_test(memparse_strict_trailing),
		cmocka_unit_test(memparse_strict_overflow),
		cmocka_unit_test(memparse_strict_limits),
		cmocka_unit_test(memparse_strict_uses_only_len),
		cmocka_unit_test(cmdline_find_option_key_value),
		cmocka_unit_test(cmdline_find_option_absent),
		cmocka_unit_test(cmdline_find_option_null_cmdline),
		cmocka_unit_test(cmdline_find_option_empty_cmdline),
		cmocka_unit_test(cmdline_find_option_empty_key),
		cmocka_unit_test(cmdline_find_option_last_wins),
		cmocka_unit_test(cmdline_find_option_last_wins_bare),
		cmocka_unit_test(cmdline_find_option_bare_key),
		cmocka_unit_test(cmdline_find_option_bare_key_refused_by_memparse),
		cmocka_unit_test(cmdline_find_option_empty_value),
		cmocka_unit_test(cmdline_find_option_prefix_key),
		cmocka_unit_test(cmdline_find_option_quoted_value),
		cmocka_unit_test(cmdline_find_option_quoted_token),
		cmocka_unit_test(cmdline_find_option_unterminated_quote),
		cmocka_unit_test(cmdline_find_option_inner_quote),
		cmocka_unit_test(cmdline_find_option_key_inside_value),
		cmocka_unit_test(cmdline_find_option_value_with_equals),
		cmocka_unit_test(cmdline_find_option_whitespace_kinds),
		cmocka_unit_test(cmdline_find_option_null_outputs),
	};

	return cmocka_run_group_tests_name("lib/cmdline", tests, NULL, NULL);
}
