// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for src/lib/kconfig.c: every line form kconfig writes, every
 * refusal with its message and line number, later lines overriding
 * earlier ones, and the typed getters.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kconfig.h"

#define ERRLEN 256

/* Parse @text, which must be accepted; the caller frees the result. */
static struct kconfig *parse_ok(const char *text)
{
	struct kconfig *kc = NULL;
	char err[ERRLEN] = "";
	int ret = kconfig_parse(text, &kc, err, sizeof(err));

	if (ret != 0 || !kc) {
		print_error("kconfig_parse(\"%s\"): expected 0, found %d: %s\n",
			    text ? text : "(null)", ret, err);
		fail();
	}
	return kc;
}

/* Expect @text to be refused with exactly the message @want_err. */
static void expect_refused(const char *text, const char *want_err)
{
	struct kconfig *kc = (struct kconfig *)&kc;	/* must be reset to NULL */
	char err[ERRLEN] = "";
	int ret = kconfig_parse(text, &kc, err, sizeof(err));

	if (ret != -EINVAL || kc || strcmp(err, want_err) != 0) {
		print_error("kconfig_parse(\"%s\"):\n  expected -EINVAL, \"%s\"\n"
			    "  found    %d, \"%s\"%s\n", text, want_err, ret, err,
			    kc ? " and a config" : "");
		fail();
	}
}

static void expect_symbol(const struct kconfig *kc, const char *name, const char *want)
{
	const char *got = kconfig_get(kc, name);

	if (want ? (!got || strcmp(got, want) != 0) : got != NULL) {
		print_error("%s: expected %s%s%s, found %s%s%s\n", name,
			    want ? "\"" : "", want ? want : "absent", want ? "\"" : "",
			    got ? "\"" : "", got ? got : "absent", got ? "\"" : "");
		fail();
	}
}

static void kconfig_parse_null_text(void **state)
{
	struct kconfig *kc = parse_ok(NULL);

	expect_symbol(kc, "CONFIG_CMA", NULL);
	assert_false(kconfig_bool(kc, "CONFIG_CMA"));
	kconfig_free(kc);
}

static void kconfig_parse_empty_text(void **state)
{
	struct kconfig *kc = parse_ok("");

	expect_symbol(kc, "CONFIG_CMA", NULL);
	kconfig_free(kc);
	kc = parse_ok("\n\n   \n\t\n");
	expect_symbol(kc, "CONFIG_CMA", NULL);
	kconfig_free(kc);
}

static void kconfig_parse_tristate(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_A=y\nCONFIG_B=m\nCONFIG_C=n\n");

	expect_symbol(kc, "CONFIG_A", "y");
	expect_symbol(kc, "CONFIG_B", "m");
	expect_symbol(kc, "CONFIG_C", "n");
	kconfig_free(kc);
}

static void kconfig_parse_numbers(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_DEC=16\n"
				      "CONFIG_ZERO=0\n"
				      "CONFIG_NEG=-1\n"
				      "CONFIG_HEX=0x400\n"
				      "CONFIG_HEXUP=0XFFFF\n"
				      "CONFIG_BIG=123456789012345678901234567890\n");

	expect_symbol(kc, "CONFIG_DEC", "16");
	expect_symbol(kc, "CONFIG_ZERO", "0");
	expect_symbol(kc, "CONFIG_NEG", "-1");
	expect_symbol(kc, "CONFIG_HEX", "0x400");
	expect_symbol(kc, "CONFIG_HEXUP", "0XFFFF");
	expect_symbol(kc, "CONFIG_BIG", "123456789012345678901234567890");
	kconfig_free(kc);
}

static void kconfig_parse_string(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_S=\"hello world\"\n"
				      "CONFIG_EMPTY=\"\"\n"
				      "CONFIG_ESC=\"a \\\"b\\\" \\\\c\"\n"
				      "CONFIG_LIT=\"\\x#=\"\n"
				      "CONFIG_CMDLINE=\"console=ttyS0 cma=64M\"\n");

	expect_symbol(kc, "CONFIG_S", "hello world");
	expect_symbol(kc, "CONFIG_EMPTY", "");
	expect_symbol(kc, "CONFIG_ESC", "a \"b\" \\c");
	expect_symbol(kc, "CONFIG_LIT", "x#=");
	expect_symbol(kc, "CONFIG_CMDLINE", "console=ttyS0 cma=64M");
	kconfig_free(kc);
}

static void kconfig_parse_not_set(void **state)
{
	struct kconfig *kc = parse_ok("# CONFIG_CMA is not set\n");

	expect_symbol(kc, "CONFIG_CMA", "n");
	assert_false(kconfig_bool(kc, "CONFIG_CMA"));
	kconfig_free(kc);
}

/* Only the exact "# CONFIG_X is not set" form means "n"; the rest are comments. */
static void kconfig_parse_comments(void **state)
{
	struct kconfig *kc = parse_ok("#\n"
				      "# Automatically generated file; DO NOT EDIT.\n"
				      "# Linux/x86 3.4.0 Kernel Configuration\n"
				      "#CONFIG_A is not set\n"
				      "# CONFIG_B is not set, really\n"
				      "# CONFIG_C is set\n"
				      "# CONFIG_D=y\n"
				      "## CONFIG_E is not set\n"
				      "# CONFIG_ is not set\n");

	expect_symbol(kc, "CONFIG_A", NULL);
	expect_symbol(kc, "CONFIG_B", NULL);
	expect_symbol(kc, "CONFIG_C", NULL);
	expect_symbol(kc, "CONFIG_D", NULL);
	expect_symbol(kc, "CONFIG_E", NULL);
	expect_symbol(kc, "CONFIG_", NULL);
	kconfig_free(kc);
}

static void kconfig_parse_trailing_whitespace(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_A=y  \t\n"
				      "CONFIG_S=\"x y\" \t \n"
				      "# CONFIG_N is not set   \n"
				      "CONFIG_H=0x10\r\n"
				      "   \n");

	expect_symbol(kc, "CONFIG_A", "y");
	expect_symbol(kc, "CONFIG_S", "x y");
	expect_symbol(kc, "CONFIG_N", "n");
	expect_symbol(kc, "CONFIG_H", "0x10");
	kconfig_free(kc);
}

static void kconfig_parse_crlf(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_A=y\r\n# CONFIG_B is not set\r\nCONFIG_C=3\r\n");

	expect_symbol(kc, "CONFIG_A", "y");
	expect_symbol(kc, "CONFIG_B", "n");
	expect_symbol(kc, "CONFIG_C", "3");
	kconfig_free(kc);
}

static void kconfig_parse_no_final_newline(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_A=y\nCONFIG_B=\"end\"");

	expect_symbol(kc, "CONFIG_A", "y");
	expect_symbol(kc, "CONFIG_B", "end");
	kconfig_free(kc);
}

static void kconfig_parse_symbol_chars(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_CMA_SIZE_MBYTES=16\nCONFIG_lower_0=y\nCONFIG_9=m\n");

	expect_symbol(kc, "CONFIG_CMA_SIZE_MBYTES", "16");
	expect_symbol(kc, "CONFIG_lower_0", "y");
	expect_symbol(kc, "CONFIG_9", "m");
	/* Names are full names: the prefix is not implied. */
	expect_symbol(kc, "CMA_SIZE_MBYTES", NULL);
	kconfig_free(kc);
}

static void kconfig_parse_later_overrides(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_A=1\n"
				      "CONFIG_B=2\n"
				      "CONFIG_A=3\n"
				      "CONFIG_C=y\n"
				      "# CONFIG_C is not set\n"
				      "# CONFIG_D is not set\n"
				      "CONFIG_D=m\n"
				      "CONFIG_A=\"last\"\n");

	expect_symbol(kc, "CONFIG_A", "last");
	expect_symbol(kc, "CONFIG_B", "2");
	expect_symbol(kc, "CONFIG_C", "n");
	expect_symbol(kc, "CONFIG_D", "m");
	kconfig_free(kc);
}

/* Enough symbols, each written three times, to grow and thin the table. */
static void kconfig_parse_many_symbols(void **state)
{
	const unsigned int nr = 3000;
	size_t cap = (size_t)nr * 3 * 40 + 1, used = 0;
	char *text = malloc(cap);
	char name[32], want[32];
	struct kconfig *kc;
	unsigned int round, i;

	assert_non_null(text);
	for (round = 0; round < 3; round++)
		for (i = 0; i < nr; i++)
			used += (size_t)snprintf(text + used, cap - used, "CONFIG_SYM_%u=%u\n",
						 (i * 7919u) % nr, round * 100000 + (i * 7919u) % nr);
	kc = parse_ok(text);
	for (i = 0; i < nr; i++) {
		snprintf(name, sizeof(name), "CONFIG_SYM_%u", i);
		snprintf(want, sizeof(want), "%u", 200000 + i);
		expect_symbol(kc, name, want);
	}
	expect_symbol(kc, "CONFIG_SYM_3000", NULL);
	kconfig_free(kc);
	free(text);
}

static void kconfig_parse_real_config_excerpt(void **state)
{
	struct kconfig *kc = parse_ok("#\n"
				      "# Device Drivers\n"
				      "#\n"
				      "CONFIG_CMA=y\n"
				      "# CONFIG_CMA_DEBUG is not set\n"
				      "\n"
				      "#\n"
				      "# Default contiguous memory area size:\n"
				      "#\n"
				      "CONFIG_CMA_SIZE_MBYTES=16\n"
				      "CONFIG_CMA_SIZE_SEL_MBYTES=y\n"
				      "# CONFIG_CMA_SIZE_SEL_PERCENTAGE is not set\n"
				      "CONFIG_CMA_ALIGNMENT=8\n"
				      "CONFIG_CMA_AREAS=7\n"
				      "CONFIG_CMDLINE=\"\"\n");
	unsigned long v = 0;

	assert_true(kconfig_bool(kc, "CONFIG_CMA"));
	assert_false(kconfig_bool(kc, "CONFIG_CMA_DEBUG"));
	assert_true(kconfig_bool(kc, "CONFIG_CMA_SIZE_SEL_MBYTES"));
	assert_false(kconfig_bool(kc, "CONFIG_CMA_SIZE_SEL_PERCENTAGE"));
	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_CMA_SIZE_MBYTES", 0, &v, NULL, 0), 0);
	assert_int_equal(v, 16);
	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_CMA_ALIGNMENT", 0, &v, NULL, 0), 0);
	assert_int_equal(v, 8);
	expect_symbol(kc, "CONFIG_CMDLINE", "");
	kconfig_free(kc);
}

static void kconfig_parse_bad_line(void **state)
{
	expect_refused("CONFIG_A=y\nCONFIG_B=y\nxyz\nCONFIG_C=y\n",
		       "kconfig line 3: expected CONFIG_NAME=value or "
		       "'# CONFIG_NAME is not set', got 'xyz'");
}

/* Blank and comment lines count toward the line number. */
static void kconfig_parse_bad_line_number(void **state)
{
	expect_refused("\n# comment\n\r\n\nCONFIG_A=y\n  CONFIG_B=y\n",
		       "kconfig line 6: expected CONFIG_NAME=value or "
		       "'# CONFIG_NAME is not set', got '  CONFIG_B=y'");
}

static void kconfig_parse_bad_shapes(void **state)
{
	static const char *const bad[] = {
		"FOO=y",
		"CONFIG_=y",
		"CONFIG_FOO",
		"CONFIG_FOO =y",
		" CONFIG_FOO=y",
		"CONFIG_FO-O=y",
		"config_foo=y",
		"CONFIG",
		"=y",
		"\"CONFIG_FOO=y\"",
	};
	char want[ERRLEN];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want), "kconfig line 1: expected CONFIG_NAME=value or "
			 "'# CONFIG_NAME is not set', got '%s'", bad[i]);
		expect_refused(bad[i], want);
	}
}

static void kconfig_parse_bad_values(void **state)
{
	static const char *const bad[] = {
		"", "yes", "Y", "abc", "0x", "0xg", "-", "--1", "-0x10", "1.5", "12M",
		"y n", "1 2", "ff", "'y'",
	};
	char text[64], want[ERRLEN];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "CONFIG_OK=y\nCONFIG_A=%s", bad[i]);
		snprintf(want, sizeof(want), "kconfig line 2: CONFIG_A: expected y, m, n, "
			 "a number or a double-quoted string, got '%s'", bad[i]);
		expect_refused(text, want);
	}
}

static void kconfig_parse_bad_strings(void **state)
{
	static const char *const bad[] = {
		"\"abc",
		"\"",
		"\"abc\\\"",
		"\"abc\\",
		"\"a\" b",
		"\"a\"b",
		"\"a\"\"",
	};
	char text[64], want[ERRLEN];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "CONFIG_S=%s\n", bad[i]);
		snprintf(want, sizeof(want), "kconfig line 1: CONFIG_S: expected a double-quoted "
			 "string closed at the end of the line, got '%s'", bad[i]);
		expect_refused(text, want);
	}
}

/* A long bad line is quoted back only in part. */
static void kconfig_parse_bad_long_line(void **state)
{
	char text[300], want[ERRLEN];

	memset(text, 'x', 200);
	text[200] = '\0';
	snprintf(want, sizeof(want), "kconfig line 1: expected CONFIG_NAME=value or "
		 "'# CONFIG_NAME is not set', got '%.120s...'", text);
	expect_refused(text, want);
}

static void kconfig_parse_err_optional(void **state)
{
	struct kconfig *kc = NULL;
	char err[12];

	assert_int_equal(kconfig_parse("xyz", &kc, NULL, 0), -EINVAL);
	assert_null(kc);
	assert_int_equal(kconfig_parse("xyz", &kc, err, 0), -EINVAL);
	assert_int_equal(kconfig_parse("xyz", &kc, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "kconfig lin");
}

static void kconfig_get_null_config(void **state)
{
	unsigned long v = 0;

	assert_null(kconfig_get(NULL, "CONFIG_A"));
	assert_false(kconfig_bool(NULL, "CONFIG_A"));
	assert_int_equal(kconfig_get_ulong(NULL, "CONFIG_A", 7, &v, NULL, 0), 0);
	assert_int_equal(v, 7);
	kconfig_free(NULL);
}

static void kconfig_bool_values(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_Y=y\nCONFIG_M=m\nCONFIG_N=n\n"
				      "# CONFIG_NS is not set\nCONFIG_I=1\nCONFIG_S=\"yes\"\n");

	assert_true(kconfig_bool(kc, "CONFIG_Y"));
	assert_true(kconfig_bool(kc, "CONFIG_M"));
	assert_false(kconfig_bool(kc, "CONFIG_N"));
	assert_false(kconfig_bool(kc, "CONFIG_NS"));
	assert_false(kconfig_bool(kc, "CONFIG_I"));
	assert_false(kconfig_bool(kc, "CONFIG_S"));
	assert_false(kconfig_bool(kc, "CONFIG_ABSENT"));
	kconfig_free(kc);
}

static void kconfig_get_ulong_absent(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_A=1\n");
	unsigned long v = 0;

	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_B", 42, &v, NULL, 0), 0);
	assert_int_equal(v, 42);
	kconfig_free(kc);
}

static void kconfig_get_ulong_values(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_DEC=16\nCONFIG_ZERO=0\nCONFIG_HEX=0x400\n"
				      "CONFIG_HEXUP=0XfF\nCONFIG_LEAD0=010\n"
				      "CONFIG_QUOTED=\"12\"\n");
	unsigned long v = 0;

	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_DEC", 0, &v, NULL, 0), 0);
	assert_int_equal(v, 16);
	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_ZERO", 5, &v, NULL, 0), 0);
	assert_int_equal(v, 0);
	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_HEX", 0, &v, NULL, 0), 0);
	assert_int_equal(v, 0x400);
	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_HEXUP", 0, &v, NULL, 0), 0);
	assert_int_equal(v, 0xff);
	/* Decimal, as kconfig reads int symbols; never octal. */
	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_LEAD0", 0, &v, NULL, 0), 0);
	assert_int_equal(v, 10);
	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_QUOTED", 0, &v, NULL, 0), 0);
	assert_int_equal(v, 12);
	kconfig_free(kc);
}

static void kconfig_get_ulong_limits(void **state)
{
	char text[128];
	struct kconfig *kc;
	unsigned long v = 0;

	snprintf(text, sizeof(text), "CONFIG_MAX=%lu\nCONFIG_HEXMAX=%#lx\n", ULONG_MAX, ULONG_MAX);
	kc = parse_ok(text);
	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_MAX", 0, &v, NULL, 0), 0);
	assert_true(v == ULONG_MAX);
	v = 0;
	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_HEXMAX", 0, &v, NULL, 0), 0);
	assert_true(v == ULONG_MAX);
	kconfig_free(kc);
}

/* Expect CONFIG_X's value to be refused by kconfig_get_ulong() with @want_err. */
static void expect_ulong_refused(const char *line, const char *want_err)
{
	struct kconfig *kc = parse_ok(line);
	unsigned long v = 12345;
	char err[ERRLEN] = "";
	int ret = kconfig_get_ulong(kc, "CONFIG_X", 0, &v, err, sizeof(err));

	kconfig_free(kc);
	if (ret != -EINVAL || v != 12345 || strcmp(err, want_err) != 0) {
		print_error("%s: expected -EINVAL, \"%s\", value untouched\n"
			    "  found %d, \"%s\", value %lu\n", line, want_err, ret, err, v);
		fail();
	}
}

static void kconfig_get_ulong_refused(void **state)
{
	expect_ulong_refused("CONFIG_X=y", "CONFIG_X=y: expected an unsigned integer");
	expect_ulong_refused("CONFIG_X=n", "CONFIG_X=n: expected an unsigned integer");
	expect_ulong_refused("# CONFIG_X is not set", "CONFIG_X=n: expected an unsigned integer");
	expect_ulong_refused("CONFIG_X=-1", "CONFIG_X=-1: expected an unsigned integer");
	expect_ulong_refused("CONFIG_X=\"abc\"", "CONFIG_X=abc: expected an unsigned integer");
	expect_ulong_refused("CONFIG_X=\"\"", "CONFIG_X=: expected an unsigned integer");
	expect_ulong_refused("CONFIG_X=\" 5\"", "CONFIG_X= 5: expected an unsigned integer");
	expect_ulong_refused("CONFIG_X=\"5 \"", "CONFIG_X=5 : expected an unsigned integer");
	expect_ulong_refused("CONFIG_X=\"+5\"", "CONFIG_X=+5: expected an unsigned integer");
	expect_ulong_refused("CONFIG_X=\"64M\"", "CONFIG_X=64M: expected an unsigned integer");
	expect_ulong_refused("CONFIG_X=\"0x\"", "CONFIG_X=0x: expected an unsigned integer");
}

/* ULONG_MAX + 1, written in hex and (on LP64, where it is 2^64) in decimal. */
static void kconfig_get_ulong_overflow(void **state)
{
	char line[96], want[ERRLEN];

	snprintf(line, sizeof(line), "CONFIG_X=0x1%0*d", (int)sizeof(long) * 2, 0);
	snprintf(want, sizeof(want), "%s: expected an unsigned integer no larger than %lu",
		 line, ULONG_MAX);
	expect_ulong_refused(line, want);
	if (sizeof(long) == 8) {
		snprintf(want, sizeof(want), "CONFIG_X=18446744073709551616: expected an "
			 "unsigned integer no larger than %lu", ULONG_MAX);
		expect_ulong_refused("CONFIG_X=18446744073709551616", want);
	}
}

/* The example message of the brief: a CMA_ALIGNMENT that is not a number. */
static void kconfig_get_ulong_message(void **state)
{
	struct kconfig *kc = parse_ok("CONFIG_CMA_ALIGNMENT=\"abc\"\n");
	unsigned long v = 0;
	char err[ERRLEN];

	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_CMA_ALIGNMENT", 8, &v, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "CONFIG_CMA_ALIGNMENT=abc: expected an unsigned integer");
	assert_int_equal(kconfig_get_ulong(kc, "CONFIG_CMA_ALIGNMENT", 8, &v, NULL, 0), -EINVAL);
	kconfig_free(kc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kconfig_parse_null_text),
		cmocka_unit_test(kconfig_parse_empty_text),
		cmocka_unit_test(kconfig_parse_tristate),
		cmocka_unit_test(kconfig_parse_numbers),
		cmocka_unit_test(kconfig_parse_string),
		cmocka_unit_test(kconfig_parse_not_set),
		cmocka_unit_test(kconfig_parse_comments),
		cmocka_unit_test(kconfig_parse_trailing_whitespace),
		cmocka_unit_test(kconfig_parse_crlf),
		cmocka_unit_test(kconfig_parse_no_final_newline),
		cmocka_unit_test(kconfig_parse_symbol_chars),
		cmocka_unit_test(kconfig_parse_later_overrides),
		cmocka_unit_test(kconfig_parse_many_symbols),
		cmocka_unit_test(kconfig_parse_real_config_excerpt),
		cmocka_unit_test(kconfig_parse_bad_line),
		cmocka_unit_test(kconfig_parse_bad_line_number),
		cmocka_unit_test(kconfig_parse_bad_shapes),
		cmocka_unit_test(kconfig_parse_bad_values),
		cmocka_unit_test(kconfig_parse_bad_strings),
		cmocka_unit_test(kconfig_parse_bad_long_line),
		cmocka_unit_test(kconfig_parse_err_optional),
		cmocka_unit_test(kconfig_get_null_config),
		cmocka_unit_test(kconfig_bool_values),
		cmocka_unit_test(kconfig_get_ulong_absent),
		cmocka_unit_test(kconfig_get_ulong_values),
		cmocka_unit_test(kconfig_get_ulong_limits),
		cmocka_unit_test(kconfig_get_ulong_refused),
		cmocka_unit_test(kconfig_get_ulong_overflow),
		cmocka_unit_test(kconfig_get_ulong_message),
	};

	return cmocka_run_group_tests_name("lib/kconfig", tests, NULL, NULL);
}
