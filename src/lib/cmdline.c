// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel command-line parsing, after kernel/params.c (next_arg()),
 * lib/cmdline.c (memparse()) and lib/kstrtox.c (_parse_integer()).
 *
 * The kernel tokenizes a private copy of the command line, writing NULs
 * into it; here each token is described by pointers and lengths into the
 * caller's string instead, so nothing is copied or allocated. Where the
 * kernel is lenient about a size ("12Q" reads as 12) we refuse: a typo in
 * "cma=" should fail loudly, not reserve the wrong amount.
 */
#include <errno.h>
#include <string.h>

#include "lib/cmdline.h"

/* Not <ctype.h>: these must not depend on the locale or on char's sign. */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Value of @c as a digit in bases up to 16; 16 for anything else. */
static unsigned int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned int)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (unsigned int)(c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (unsigned int)(c - 'A' + 10);
	return 16;
}

/**
 * parse_integer() - read the digits of @base at the front of a slice
 * @s: the characters
 * @len: how many of them may be read
 * @base: 2 to 16
 * @res: the value read
 * @overflow: set true if the value passed UINT64_MAX (@res is then garbage)
 *
 * Mirrors the kernel's _parse_integer(): no sign, no "0x" prefix; stops at
 * the first character that is not a digit of @base. Shared by
 * memparse_strict() and the kconfig reader so there is one digit loop.
 * Return: the number of digits consumed, 0 if @s does not begin with one.
 */
size_t parse_integer(const char *s, size_t len, unsigned int base,
		     uint64_t *res, bool *overflow)
{
	uint64_t val = 0;
	bool ovf = false;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned int d = digit_value(s[i]);

		if (d >= base)
			break;
		if (val > (UINT64_MAX - d) / base)
			ovf = true;
		val = val * base + d;
	}
	*res = val;
	*overflow = ovf;
	return i;
}

/* Shift for a memparse() size suffix, 0 if @c is not one. */
static unsigned int suffix_shift(char c)
{
	switch (c) {
	case 'K': case 'k':
		return 10;
	case 'M': case 'm':
		return 20;
	case 'G': case 'g':
		return 30;
	case 'T': case 't':
		return 40;
	case 'P': case 'p':
		return 50;
	case 'E': case 'e':
		return 60;
	}
	return 0;
}

/**
 * memparse_strict() - read a size such as "64M" from exactly @len characters
 * @s: the characters, not necessarily NUL-terminated
 * @len: how many of them make up the size
 * @out: the size in bytes; untouched on error
 *
 * Mirrors the kernel's memparse(): a number in simple_strtoull() base 0
 * ("0x" hex, leading-0 octal, else decimal) and at most one suffix from
 * K, M, G, T, P, E (either case), each a factor of 1024 over the previous.
 * Hex digits are taken before suffixes, as in the kernel, so "0x1E" is 30.
 * Unlike memparse(), every one of the @len characters must be used.
 *
 * Return: 0, or -EINVAL for an empty slice, a sign or space, no digits, a
 * character left over (including a second suffix, "08", "12Q"), or a value
 * past UINT64_MAX.
 */
int memparse_strict(const char *s, size_t len, uint64_t *out)
{
	unsigned int base = 10, shift;
	size_t pos = 0, n;
	uint64_t val;
	bool overflow;

	if (!s || !len)
		return -EINVAL;

	/* _parse_integer_fixup_radix(): "0x" counts only before a hex digit. */
	if (s[0] == '0') {
		if (len > 2 && (s[1] == 'x' || s[1] == 'X') && digit_value(s[2]) < 16) {
			base = 16;
			pos = 2;
		} else {
			base = 8;
		}
	}

	n = parse_integer(s + pos, len - pos, base, &val, &overflow);
	if (!n || overflow)
		return -EINVAL;
	pos += n;

	if (pos < len) {
		shift = suffix_shift(s[pos]);
		if (!shift || val > UINT64_MAX >> shift)
			return -EINVAL;
		val <<= shift;
		pos++;
	}
	if (pos != len)
		return -EINVAL;

	*out = val;
	return 0;
}

/* One command-line token; @val is NULL for a bare "param" without '='. */
struct cmdline_arg {
	const char *param;
	size_t param_len;
	const char *val;
	size_t val_len;
};

/*
 * Mirrors next_arg() in kernel/params.c on the token starting at @args (not
 * whitespace, not NUL): a double quote toggles quoting anywhere in the token,
 * the first '=' splits param from value, and a quote is stripped from the
 * start of the value (or of the whole token) together with a quote ending
 * the token. Returns the character after the token.
 */
static const char *next_arg(const char *args, struct cmdline_arg *arg)
{
	bool in_quote = false, quoted = false;
	const char *equals = NULL, *end, *val;

	if (*args == '"') {
		args++;
		in_quote = quoted = true;
	}

	for (end = args; *end; end++) {
		if (is_space(*end) && !in_quote)
			break;
		if (!equals && *end == '=')
			equals = end;
		if (*end == '"')
			in_quote = !in_quote;
	}

	arg->param = args;
	if (!equals) {
		arg->param_len = (size_t)(end - args);
		if (quoted && end > args && end[-1] == '"')
			arg->param_len--;
		arg->val = NULL;
		arg->val_len = 0;
		return end;
	}

	arg->param_len = (size_t)(equals - args);
	val = equals + 1;
	if (val < end && *val == '"') {
		val++;
		quoted = true;
	}
	arg->val = val;
	arg->val_len = (size_t)(end - val);
	if (quoted && end > val && end[-1] == '"')
		arg->val_len--;
	return end;
}

/**
 * cmdline_find_option() - the value of the last "@key=value" on a command line
 * @cmdline: whitespace-separated "key=value" and bare "key" tokens, or NULL
 * @key: the whole parameter name; "cma" does not match "cmax=1"
 * @val: set to the value, without its double quotes; may be NULL
 * @len: set to the length of the value, 0 for a bare "key" or "key="; may be NULL
 *
 * The kernel's parse_early_param() calls an early_param() handler once per
 * occurrence, each call overwriting the last, so the last occurrence wins.
 * Names match exactly, as in do_early_param(). For a bare key *@val points
 * just past the key, never NULL, so memparse_strict(*@val, *@len) refuses
 * it cleanly. @val and @len are untouched when @key is absent.
 *
 * Return: 1 if @key was found, 0 if not (or @cmdline is NULL).
 */
int cmdline_find_option(const char *cmdline, const char *key,
			const char **val, size_t *len)
{
	struct cmdline_arg arg;
	size_t key_len;
	int found = 0;

	if (!cmdline || !key || !*key)
		return 0;
	key_len = strlen(key);

	for (;;) {
		while (is_space(*cmdline))
			cmdline++;
		if (!*cmdline)
			break;
		cmdline = next_arg(cmdline, &arg);
		if (arg.param_len != key_len || memcmp(arg.param, key, key_len) != 0)
			continue;
		found = 1;
		if (val)
			*val = arg.val ? arg.val : arg.param + arg.param_len;
		if (len)
			*len = arg.val_len;
	}
	return found;
}
