// SPDX-License-Identifier: GPL-2.0
/*
 * A strict reader for Linux .config text. The accepted lines are those
 * scripts/kconfig writes:
 *
 *	CONFIG_FOO=y			(also m, n)
 *	CONFIG_FOO=64 / -1 / 0x400	(int and hex symbols)
 *	CONFIG_FOO="a \"b\" c"		(string; '\' makes the next character literal)
 *	# CONFIG_FOO is not set		(read as "n")
 *	# any other comment, and blank lines
 *
 * Anything else is refused with the line number, where kconfig itself would
 * warn and carry on: a hand-edited .config that silently loses a line would
 * configure a different CMA area than the one the user asked for.
 *
 * Lines are collected in file order, then sorted by (name, line) and thinned
 * to the last line of each name, which is how a later line overrides an
 * earlier one; lookups are then a binary search.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cmdline.h"
#include "lib/kconfig.h"

#define CONFIG_PREFIX		"CONFIG_"
#define CONFIG_PREFIX_LEN	(sizeof(CONFIG_PREFIX) - 1)
#define NOT_SET_SUFFIX		" is not set"
#define NOT_SET_SUFFIX_LEN	(sizeof(NOT_SET_SUFFIX) - 1)

/* Longest excerpt of a bad line quoted back in an error message. */
#define ERR_EXCERPT_MAX		120

struct kconfig_entry {
	char *name;		/* "CONFIG_FOO"; the allocation also holds value */
	const char *value;	/* quotes stripped, escapes resolved */
	unsigned int line;	/* 1-based; orders duplicates so the last wins */
};

struct kconfig {
	struct kconfig_entry *entries;	/* sorted by name, unique, after kconfig_parse() */
	size_t nr;
	size_t cap;
};

__attribute__((format(printf, 3, 4)))
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int excerpt_len(size_t len)
{
	return len > ERR_EXCERPT_MAX ? ERR_EXCERPT_MAX : (int)len;
}

static const char *excerpt_more(size_t len)
{
	return len > ERR_EXCERPT_MAX ? "..." : "";
}

static bool is_trailing_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_symbol_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Length of the "CONFIG_NAME" at the front of @s, 0 if there is none. */
static size_t symbol_len(const char *s, size_t len)
{
	size_t n = CONFIG_PREFIX_LEN;

	if (len <= n || memcmp(s, CONFIG_PREFIX, n) != 0)
		return 0;
	while (n < len && is_symbol_char(s[n]))
		n++;
	return n > CONFIG_PREFIX_LEN ? n : 0;
}

/* Length of NAME if @s is exactly "# CONFIG_NAME is not set", else 0. */
static size_t not_set_symbol_len(const char *s, size_t len)
{
	size_t n;

	if (len < 2 || s[0] != '#' || s[1] != ' ')
		return 0;
	n = symbol_len(s + 2, len - 2);
	if (!n || len - 2 - n != NOT_SET_SUFFIX_LEN ||
	    memcmp(s + 2 + n, NOT_SET_SUFFIX, NOT_SET_SUFFIX_LEN) != 0)
		return 0;
	return n;
}

/* Decimal with an optional '-', or "0x" hex: what int and hex symbols hold. */
static bool is_number(const char *s, size_t len)
{
	uint64_t val;
	bool overflow;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_integer(s + 2, len - 2, 16, &val, &overflow) == len - 2;
	if (len > 1 && s[0] == '-') {
		s++;
		len--;
	}
	return len && parse_integer(s, len, 10, &val, &overflow) == len;
}

/*
 * Copy the string between the quotes of @s into @v, resolving escapes as
 * kconfig's conf_set_sym_val() does. The closing quote must end the line.
 */
static int unquote(const char *s, size_t len, char *v)
{
	size_t i;

	for (i = 1; i < len && s[i] != '"'; i++) {
		if (s[i] == '\\' && ++i == len)
			break;
		*v++ = s[i];
	}
	*v = '\0';
	return i == len - 1 ? 0 : -EINVAL;
}

/* Check the value @s of a line and copy it, unquoted, into @v (len + 1 bytes). */
static int parse_value(const char *s, size_t len, char *v, const char **expected)
{
	if (len && s[0] == '"') {
		*expected = "a double-quoted string closed at the end of the line";
		return unquote(s, len, v);
	}
	*expected = "y, m, n, a number or a double-quoted string";
	if ((len == 1 && (s[0] == 'y' || s[0] == 'm' || s[0] == 'n')) || is_number(s, len)) {
		memcpy(v, s, len);
		v[len] = '\0';
		return 0;
	}
	return -EINVAL;
}

static int kconfig_append(struct kconfig *kc, struct kconfig_entry *e)
{
	struct kconfig_entry *grown;
	size_t cap;

	if (kc->nr == kc->cap) {
		cap = kc->cap ? 2 * kc->cap : 64;
		grown = realloc(kc->entries, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		kc->entries = grown;
		kc->cap = cap;
	}
	kc->entries[kc->nr++] = *e;
	return 0;
}

/*
 * Record NAME (@name_len bytes at @name) with the raw value @raw, checking
 * and unquoting it. One allocation holds "NAME\0value\0".
 */
static int kconfig_add(struct kconfig *kc, const char *name, size_t name_len,
		       const char *raw, size_t raw_len, unsigned int line,
		       char *err, size_t errlen)
{
	struct kconfig_entry e = { .line = line };
	const char *expected;
	char *value;
	int ret;

	e.name = malloc(name_len + 1 + raw_len + 1);
	if (!e.name) {
		set_err(err, errlen, "kconfig line %u: out of memory", line);
		return -ENOMEM;
	}
	memcpy(e.name, name, name_len);
	e.name[name_len] = '\0';
	value = e.name + name_len + 1;
	e.value = value;

	ret = parse_value(raw, raw_len, value, &expected);
	if (ret) {
		set_err(err, errlen, "kconfig line %u: %s: expected %s, got '%.*s%s'",
			line, e.name, expected, excerpt_len(raw_len), raw,
			excerpt_more(raw_len));
		goto free_name;
	}
	ret = kconfig_append(kc, &e);
	if (ret) {
		set_err(err, errlen, "kconfig line %u: out of memory", line);
		goto free_name;
	}
	return 0;

free_name:
	free(e.name);
	return ret;
}

static int kconfig_parse_line(struct kconfig *kc, const char *s, size_t len,
			      unsigned int line, char *err, size_t errlen)
{
	size_t n;

	while (len && is_trailing_space(s[len - 1]))
		len--;
	if (!len)
		return 0;

	if (s[0] == '#') {
		n = not_set_symbol_len(s, len);
		return n ? kconfig_add(kc, s + 2, n, "n", 1, line, err, errlen) : 0;
	}

	n = symbol_len(s, len);
	if (!n || n == len || s[n] != '=') {
		set_err(err, errlen,
			"kconfig line %u: expected CONFIG_NAME=value or '# CONFIG_NAME is not set', got '%.*s%s'",
			line, excerpt_len(len), s, excerpt_more(len));
		return -EINVAL;
	}
	return kconfig_add(kc, s, n, s + n + 1, len - n - 1, line, err, errlen);
}

static int entry_cmp(const void *a, const void *b)
{
	const struct kconfig_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Sort by (name, line) and keep only the last line of each name. */
static void kconfig_keep_last(struct kconfig *kc)
{
	size_t i, kept = 0;

	if (!kc->nr)
		return;
	qsort(kc->entries, kc->nr, sizeof(*kc->entries), entry_cmp);
	for (i = 0; i < kc->nr; i++) {
		if (i + 1 < kc->nr && !strcmp(kc->entries[i].name, kc->entries[i + 1].name)) {
			free(kc->entries[i].name);
			continue;
		}
		kc->entries[kept++] = kc->entries[i];
	}
	kc->nr = kept;
}

/**
 * kconfig_parse() - read .config text
 * @text: the file's contents, NUL-terminated; NULL reads as an empty file
 * @out: the parsed config, to be released with kconfig_free(); NULL on error
 * @err: on failure, a message naming the line; may be NULL
 * @errlen: size of @err
 *
 * Mirrors what scripts/kconfig's conf_read_simple() accepts, but refuses
 * (rather than warns about) any other line. A later line for a symbol
 * overrides an earlier one, as in kconfig.
 *
 * Return: 0, -EINVAL for a malformed line, or -ENOMEM.
 */
int kconfig_parse(const char *text, struct kconfig **out, char *err, size_t errlen)
{
	struct kconfig *kc;
	const char *line, *eol;
	unsigned int lineno = 0;
	int ret;

	*out = NULL;
	kc = calloc(1, sizeof(*kc));
	if (!kc) {
		set_err(err, errlen, "kconfig: out of memory");
		return -ENOMEM;
	}

	for (line = text; line && *line; line = *eol ? eol + 1 : eol) {
		eol = line + strcspn(line, "\n");
		ret = kconfig_parse_line(kc, line, (size_t)(eol - line), ++lineno, err, errlen);
		if (ret)
			goto free_kc;
	}

	kconfig_keep_last(kc);
	*out = kc;
	return 0;

free_kc:
	kconfig_free(kc);
	return ret;
}

static int entry_name_cmp(const void *key, const void *elem)
{
	const struct kconfig_entry *e = elem;

	return strcmp(key, e->name);
}

/**
 * kconfig_get() - the value of a symbol
 * @kc: parsed config, or NULL (no symbols)
 * @name: full name, "CONFIG_FOO"
 *
 * Return: the value with quotes stripped ("y", "n", "64", "0x400", or the
 * string's contents), or NULL if the symbol does not appear. Valid until
 * kconfig_free().
 */
const char *kconfig_get(const struct kconfig *kc, const char *name)
{
	const struct kconfig_entry *e;

	if (!kc || !kc->nr || !name)
		return NULL;
	e = bsearch(name, kc->entries, kc->nr, sizeof(*kc->entries), entry_name_cmp);
	return e ? e->value : NULL;
}

/**
 * kconfig_bool() - whether a symbol is enabled
 * @kc: parsed config, or NULL
 * @name: full name, "CONFIG_FOO"
 *
 * Like the kernel's IS_ENABLED(): built-in ("y") and module ("m") both count.
 * Return: true for "y" or "m"; false for anything else or an absent symbol.
 */
bool kconfig_bool(const struct kconfig *kc, const char *name)
{
	const char *v = kconfig_get(kc, name);

	return v && (!strcmp(v, "y") || !strcmp(v, "m"));
}

/**
 * kconfig_get_ulong() - a symbol's value as an unsigned long
 * @kc: parsed config, or NULL
 * @name: full name, "CONFIG_FOO"
 * @def: the value when the symbol does not appear
 * @out: the value; untouched on error
 * @err: on failure, "CONFIG_FOO=value: ..."; may be NULL
 * @errlen: size of @err
 *
 * Return: 0, or -EINVAL when the value is not a decimal or "0x" hex
 * unsigned integer, or does not fit in unsigned long.
 */
int kconfig_get_ulong(const struct kconfig *kc, const char *name, unsigned long def,
		      unsigned long *out, char *err, size_t errlen)
{
	const char *v = kconfig_get(kc, name);
	unsigned int base = 10;
	size_t len, pos = 0;
	uint64_t val;
	bool overflow;

	if (!v) {
		*out = def;
		return 0;
	}

	len = strlen(v);
	if (len > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		base = 16;
		pos = 2;
	}
	if (!len || parse_integer(v + pos, len - pos, base, &val, &overflow) != len - pos) {
		set_err(err, errlen, "%s=%s: expected an unsigned integer", name, v);
		return -EINVAL;
	}
	if (overflow || val > ULONG_MAX) {
		set_err(err, errlen, "%s=%s: expected an unsigned integer no larger than %lu",
			name, v, ULONG_MAX);
		return -EINVAL;
	}
	*out = (unsigned long)val;
	return 0;
}

/**
 * kconfig_free() - release a parsed config
 * @kc: from kconfig_parse(), or NULL
 */
void kconfig_free(struct kconfig *kc)
{
	size_t i;

	if (!kc)
		return;
	for (i = 0; i < kc->nr; i++)
		free(kc->entries[i].name);
	free(kc->entries);
	free(kc);
}
