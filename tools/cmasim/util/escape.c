// SPDX-License-Identifier: GPL-2.0
/*
 * Escaping untrusted strings for messages, logs and reports (escape.h):
 * one rule for a byte (escape_byte), written into a buffer, to a stream,
 * or into the HTML, where its own special characters are escaped too.
 */
#include <stdbool.h>
#include <string.h>

#include "util/escape.h"

#define ESCAPE_BYTE_MAX	5	/* "\xNN" and its terminator */

/* @c as it is shown, itself or its escape, in @out; its length. */
static size_t escape_byte(unsigned char c, char out[ESCAPE_BYTE_MAX])
{
	static const char special[] = "\n\r\t\\", name[] = "nrt\\";
	const char *n = c ? memchr(special, c, sizeof(special) - 1) : NULL;

	if (n)
		return (size_t)snprintf(out, ESCAPE_BYTE_MAX, "\\%c", name[n - special]);
	if (c >= 0x20 && c < 0x7f)
		return (size_t)snprintf(out, ESCAPE_BYTE_MAX, "%c", c);
	return (size_t)snprintf(out, ESCAPE_BYTE_MAX, "\\x%02x", c);
}

/**
 * str_escape() - @s escaped into @buf of @size bytes (at least 1)
 *
 * A result that does not fit is cut before a whole escape and ends in
 * "..." (as much of it as fits). Returns @buf, so that it can be a printf
 * argument (see ESCAPED()).
 */
const char *str_escape(const char *s, char *buf, size_t size)
{
	size_t used = 0, cut = 0;
	bool cut_known = false;

	for (; *s; s++) {
		char e[ESCAPE_BYTE_MAX];
		size_t n = escape_byte((unsigned char)*s, e);

		if (!cut_known && used + n + 4 > size) {
			cut = used;	/* the last place "..." still fits */
			cut_known = true;
		}
		if (used + n + 1 > size) {
			snprintf(buf + cut, size - cut, "...");
			return buf;
		}
		memcpy(buf + used, e, n);
		used += n;
	}
	buf[used] = 0;
	return buf;
}

void fputs_escaped(const char *s, FILE *out)
{
	char e[ESCAPE_BYTE_MAX];

	for (; *s; s++) {
		escape_byte((unsigned char)*s, e);
		fputs(e, out);
	}
}

/*
 * @s for the HTML's text and attribute values: HTML's own specials as
 * entities, the other bytes as in a message, but for the newlines and
 * tabs a <pre> shows (the HTML takes them as spaces elsewhere).
 */
void html_escape(FILE *out, const char *s)
{
	char e[ESCAPE_BYTE_MAX];

	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		case '\n': case '\t': fputc(*s, out); break;
		default:
			escape_byte((unsigned char)*s, e);
			fputs(e, out);
			break;
		}
	}
}
