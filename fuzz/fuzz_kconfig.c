// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_kconfig: kconfig_parse() and the lookups on arbitrary text, checked
 * against a reference reader of the grammar src/lib/kconfig.c states:
 *
 *	CONFIG_FOO=y | m | n | decimal (optional '-') | 0x hex
 *	CONFIG_FOO="string"		('\' makes the next character literal)
 *	# CONFIG_FOO is not set		(reads as "n")
 *	# other comments, blank lines	(ignored; trailing " \t\r\v\f" trimmed)
 *
 * The reference keeps the last value of each symbol. The parser must
 * accept exactly the texts the reference accepts; on success every symbol
 * must read back as the reference's value, kconfig_bool() and
 * kconfig_get_ulong() must agree with that value; on failure the error
 * message must be a NUL-terminated string within the buffer it was given
 * (the buffer's size comes from the input, down to 0).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kconfig.h"

#define FUZZ_TARGET "fuzz_kconfig"
#include "fuzz_check.h"

#define MAX_SYMS	256

struct ref_sym {
	char name[128];
	char value[256];
	bool too_long;		/* not recorded: the reference skips its read-back */
};

struct ref {
	struct ref_sym syms[MAX_SYMS];
	int nr;
	bool overflow;		/* more symbols than the reference keeps */
};

static bool is_sym_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static size_t ref_symbol_len(const char *s, size_t len)
{
	size_t n = 7;

	if (len <= 7 || strncmp(s, "CONFIG_", 7))
		return 0;
	while (n < len && is_sym_char(s[n]))
		n++;
	return n > 7 ? n : 0;
}

static bool all_digits(const char *s, size_t len, bool hex)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (hex && ((s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))))
			return false;
	return true;
}

/* The value of a line, unquoted, into @v (len + 1 bytes); false if malformed. */
static bool ref_value(const char *s, size_t len, char *v)
{
	if (len && s[0] == '"') {
		size_t i = 1;

		while (i < len) {
			if (s[i] == '"')
				break;
			if (s[i] == '\\') {
				if (++i == len)
					return false;	/* a backslash ends the line */
			}
			*v++ = s[i++];
		}
		*v = '\0';
		return i == len - 1;		/* the closing quote ends the line */
	}
	if ((len == 1 && (s[0] == 'y' || s[0] == 'm' || s[0] == 'n')) ||
	    (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && all_digits(s + 2, len - 2, true)) ||
	    (len > 1 && s[0] == '-' && all_digits(s + 1, len - 1, false)) ||
	    all_digits(s, len, false)) {
		memcpy(v, s, len);
		v[len] = '\0';
		return true;
	}
	return false;
}

static void ref_set(struct ref *r, const char *name, size_t name_len, const char *value)
{
	struct ref_sym *sym = NULL;

	for (int i = 0; i < r->nr; i++)
		if (strlen(r->syms[i].name) == name_len && !memcmp(r->syms[i].name, name, name_len))
			sym = &r->syms[i];
	if (!sym) {
		if (r->nr == MAX_SYMS) {
			r->overflow = true;
			return;
		}
		sym = &r->syms[r->nr++];
		sym->too_long = name_len >= sizeof(sym->name);
		snprintf(sym->name, sizeof(sym->name), "%.*s", (int)name_len, name);
	}
	sym->too_long |= strlen(value) >= sizeof(sym->value);
	snprintf(sym->value, sizeof(sym->value), "%s", value);
}

/* 0, or the 1-based number of the first malformed line. */
static unsigned ref_parse(const char *text, struct ref *r)
{
	unsigned lineno = 0;
	char *v = malloc(strlen(text) + 1);

	if (!v)
		abort();
	for (const char *line = text; *line;) {
		const char *eol = line + strcspn(line, "\n");
		size_t len = (size_t)(eol - line), n;

		lineno++;
		while (len && strchr(" \t\r\v\f", line[len - 1]))
			len--;
		if (!len) {
			/* blank */
		} else if (line[0] == '#') {
			n = len > 2 && line[1] == ' ' ? ref_symbol_len(line + 2, len - 2) : 0;
			if (n && len - 2 - n == 11 && !memcmp(line + 2 + n, " is not set", 11))
				ref_set(r, line + 2, n, "n");
		} else {
			n = ref_symbol_len(line, len);
			if (!n || n == len || line[n] != '=' || !ref_value(line + n + 1, len - n - 1, v)) {
				free(v);
				return lineno;
			}
			ref_set(r, line, n, v);
		}
		line = *eol ? eol + 1 : eol;
	}
	free(v);
	return 0;
}

/* kconfig_get_ulong's promise for @value: decimal or 0x hex, fitting in unsigned long. */
static int ref_ulong(const char *value, unsigned long *out)
{
	const char *digits = value;
	unsigned base = 10;
	char *end;
	unsigned long long v;

	if (strlen(value) > 2 && value[0] == '0' && (value[1] == 'x' || value[1] == 'X')) {
		digits += 2;
		base = 16;
	}
	if (!all_digits(digits, strlen(digits), base == 16))
		return -EINVAL;
	errno = 0;
	v = strtoull(digits, &end, (int)base);
	if (errno == ERANGE || v > ULONG_MAX)
		return -EINVAL;
	*out = (unsigned long)v;
	return 0;
}

static void check_symbol(const struct kconfig *kc, const struct ref_sym *sym)
{
	const char *got = kconfig_get(kc, sym->name);
	unsigned long u = 77, want_u = 77;
	char err[64];
	int ret, want;

	if (!got)
		fail("%s is in the text but kconfig_get finds nothing", sym->name);
	if (strcmp(got, sym->value))
		fail("%s reads back as \"%s\", the reference says \"%s\"", sym->name, got, sym->value);
	if (kconfig_bool(kc, sym->name) != (!strcmp(got, "y") || !strcmp(got, "m")))
		fail("kconfig_bool(%s) = %d for \"%s\"", sym->name, kconfig_bool(kc, sym->name), got);
	err[0] = '\0';
	ret = kconfig_get_ulong(kc, sym->name, 5, &u, err, sizeof(err));
	want = ref_ulong(sym->value, &want_u);
	if (ret != want || u != want_u)
		fail("kconfig_get_ulong(%s = \"%s\") = %d (%lu), reference %d (%lu)", sym->name, got,
		     ret, u, want, want_u);
	if (ret && (!err[0] || !memchr(err, '\0', sizeof(err))))
		fail("kconfig_get_ulong(%s) failed without a message", sym->name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ref r;
	static const char *const fixed[] = {
		"CONFIG_CMA", "CONFIG_CMA_SIZE_MBYTES", "CONFIG_CMA_ALIGNMENT", "CONFIG_", "", "CONFIG_ZZZ",
	};
	char *text = strndup((const char *)data, size), err[96];
	size_t errlen = size ? data[0] % sizeof(err) : sizeof(err);
	struct kconfig *kc = (struct kconfig *)&r;	/* poison: must become NULL or a config */
	unsigned bad;
	int ret;

	if (!text)
		abort();
	memset(&r, 0, sizeof(r));
	bad = ref_parse(text, &r);
	memset(err, 'X', sizeof(err));
	ret = kconfig_parse(text, &kc, err, errlen);
	if (ret && ret != -EINVAL && ret != -ENOMEM)
		fail("kconfig_parse returned %d", ret);
	if (ret == -EINVAL && !bad)
		fail("kconfig_parse refused text the reference accepts (err: %.*s)", (int)errlen, err);
	if (!ret && bad)
		fail("kconfig_parse accepted text whose line %u the reference refuses", bad);
	if (ret) {
		char line[32];

		if (kc)
			fail("kconfig_parse failed but left a config");
		if (errlen && !memchr(err, '\0', errlen))
			fail("kconfig_parse's message is not terminated within its %zu bytes", errlen);
		for (size_t i = errlen; i < sizeof(err); i++)
			if (err[i] != 'X')
				fail("kconfig_parse wrote byte %zu of a %zu-byte message buffer", i, errlen);
		snprintf(line, sizeof(line), "kconfig line %u:", bad);
		if (ret == -EINVAL && errlen > 40 && strncmp(err, line, strlen(line)))
			fail("kconfig_parse's message \"%s\" does not begin \"%s\"", err, line);
		free(text);
		return 0;
	}
	if (!kc)
		fail("kconfig_parse succeeded without a config");
	for (int i = 0; i < r.nr; i++)
		if (!r.syms[i].too_long)
			check_symbol(kc, &r.syms[i]);
	for (unsigned i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		bool known = false;

		for (int k = 0; k < r.nr; k++)
			known |= !strcmp(r.syms[k].name, fixed[i]);
		if (!known && !r.overflow && kconfig_get(kc, fixed[i]))
			fail("kconfig_get(%s) found a symbol the text does not set", fixed[i]);
	}
	if (kconfig_get(kc, NULL) || kconfig_get(NULL, "CONFIG_CMA") || kconfig_bool(NULL, "CONFIG_CMA"))
		fail("a lookup with NULL found something");
	kconfig_free(kc);
	kconfig_free(NULL);
	free(text);
	return 0;
}
