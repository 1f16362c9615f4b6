// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_memparse: memparse_strict() and cmdline_find_option() on arbitrary
 * bytes, each checked against a plain reference of what it promises.
 *
 * memparse_strict() reads exactly the bytes it is given (the input is
 * copied to a buffer of that size, so ASan catches a read past it) and
 * must agree with the reference: strtoull() base 0 on a digit-led string,
 * then at most one K/M/G/T/P/E suffix, every byte used, no overflow.
 *
 * cmdline_find_option() gets the input as a command line (NUL-terminated)
 * and a key taken from its first bytes. A value it returns must lie inside
 * the line; on a line without double quotes it must equal the last
 * "key=value" token found by splitting on whitespace; and appending
 * " key=123" to such a line must make that the answer.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cmdline.h"

#define FUZZ_TARGET "fuzz_memparse"
#include "fuzz_check.h"

static unsigned suffix_shift(char c)
{
	static const char upper[] = "KMGTPE", lower[] = "kmgtpe";

	for (unsigned i = 0; i < 6; i++)
		if (c == upper[i] || c == lower[i])
			return 10 * (i + 1);
	return 0;
}

/* What memparse_strict() promises, through the C library. */
static int ref_memparse(const char *s, size_t len, uint64_t *out)
{
	char *copy, *end;
	unsigned long long v;
	unsigned shift;
	size_t pos;

	if (!len || s[0] < '0' || s[0] > '9')
		return -EINVAL;
	copy = strndup(s, len);
	if (!copy)
		abort();
	errno = 0;
	v = strtoull(copy, &end, 0);
	pos = (size_t)(end - copy);
	free(copy);
	if (errno == ERANGE)
		return -EINVAL;
	if (pos < len) {
		shift = suffix_shift(s[pos]);
		if (!shift || v > UINT64_MAX >> shift)
			return -EINVAL;
		v <<= shift;
		pos++;
	}
	if (pos != len)
		return -EINVAL;
	*out = v;
	return 0;
}

static void check_memparse(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);
	uint64_t got = 0xdeadbeef, want = 0xdeadbeef;
	int ret, ref;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	ret = memparse_strict(buf, size, &got);
	ref = ref_memparse(buf, size, &want);
	if (ret != ref || (!ret && got != want))
		fail("memparse_strict(\"%.*s\") = %d (%llu), reference %d (%llu)", (int)size, buf, ret,
		     (unsigned long long)got, ref, (unsigned long long)want);
	if (ret && got != 0xdeadbeef)
		fail("memparse_strict(\"%.*s\") failed but wrote its result", (int)size, buf);
	free(buf);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* The last "key[=value]" of a quote-free line, split on whitespace. */
static int ref_find(const char *line, const char *key, const char **val, size_t *len)
{
	size_t key_len = strlen(key);
	int found = 0;

	for (const char *p = line; *p;) {
		const char *tok, *eq;
		size_t n;

		while (is_space(*p))
			p++;
		tok = p;
		while (*p && !is_space(*p))
			p++;
		n = (size_t)(p - tok);
		if (!n)
			continue;
		eq = memchr(tok, '=', n);
		if ((size_t)((eq ? eq : p) - tok) != key_len || memcmp(tok, key, key_len))
			continue;
		found = 1;
		*val = eq ? eq + 1 : tok + key_len;
		*len = eq ? (size_t)(p - eq - 1) : 0;
	}
	return found;
}

static void check_find(const char *line, const char *key)
{
	const char *val = NULL, *rval = NULL;
	size_t len = 0, rlen = 0, line_len = strlen(line);
	int found = cmdline_find_option(line, key, &val, &len);
	uint64_t size;

	if (found != 0 && found != 1)
		fail("cmdline_find_option returned %d", found);
	if (!found)
		return;
	if (!val || val < line || val + len > line + line_len)
		fail("cmdline_find_option(\"%s\", \"%s\"): value outside the line", line, key);
	memparse_strict(val, len, &size);	/* as the cma= handler uses it */
	if (strchr(line, '"'))
		return;
	if (!ref_find(line, key, &rval, &rlen))
		fail("cmdline_find_option(\"%s\", \"%s\") found what the reference did not", line, key);
	if (val != rval || len != rlen)
		fail("cmdline_find_option(\"%s\", \"%s\") = \"%.*s\", reference \"%.*s\"", line, key,
		     (int)len, val, (int)rlen, rval);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char key[16], *line, *longer;
	size_t klen, llen;
	const char *val;
	size_t len;

	check_memparse(data, size);

	/* key: up to the first '=' or space in the first 15 bytes; default "cma" */
	for (klen = 0; klen < size && klen < sizeof(key) - 1; klen++)
		if (!data[klen] || data[klen] == '=' || is_space((char)data[klen]) || data[klen] == '"')
			break;
	if (klen && klen < size && data[klen] == '=') {
		memcpy(key, data, klen);
		key[klen] = '\0';
	} else {
		strcpy(key, "cma");
	}
	line = strndup((const char *)data, size);
	if (!line)
		abort();
	check_find(line, key);
	check_find(line, "cma");

	/* a later occurrence wins, when no open quote swallows it */
	llen = strlen(line);
	longer = malloc(llen + strlen(key) + 8);
	if (!longer)
		abort();
	sprintf(longer, "%s %s=123", line, key);
	if (!strchr(line, '"') && (!cmdline_find_option(longer, key, &val, &len) ||
				   len != 3 || memcmp(val, "123", 3)))
		fail("cmdline_find_option(\"%s\", \"%s\") does not find the last occurrence", longer, key);
	free(longer);
	free(line);
	return 0;
}
