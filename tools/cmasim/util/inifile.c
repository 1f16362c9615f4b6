// SPDX-License-Identifier: GPL-2.0
/*
 * Platform and scenario files' common ground; libinih (Debian's
 * libinih-dev) splits the lines, this checks what it cannot report.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include <ini.h>

#include "util/escape.h"
#include "util/inifile.h"

#define PRESCAN_HEADERS	64		/* sections checked for repeats: more than a file can hold */

char *ini_read_text(const char *path, const char *what, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f) {
		snprintf(err, errlen, "%s: cannot read the %s: %s", path, what, strerror(errno));
		return NULL;
	}
	buf = malloc(INI_FILE_MAX_BYTES + 1);
	n = buf ? fread(buf, 1, INI_FILE_MAX_BYTES + 1, f) : 0;
	if (!buf || ferror(f) || n > INI_FILE_MAX_BYTES || memchr(buf, '\0', n)) {
		if (!buf || ferror(f))
			snprintf(err, errlen, "%s: %s", path, !buf ? "out of memory" : strerror(errno));
		else
			snprintf(err, errlen, "%s: %s: is this a %s?", path,
				 n > INI_FILE_MAX_BYTES ? "larger than 1 MiB" : "contains NUL bytes", what);
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* @err, the message formatted and escaped: it quotes the file's own text. */
static void ini_message(char *err, size_t errlen, const char *fmt, va_list ap)
{
	char *msg;

	if (vasprintf(&msg, fmt, ap) < 0) {
		snprintf(err, errlen, "out of memory");
		return;
	}
	str_escape(msg, err, errlen);
	free(msg);
}

static void ini_say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void ini_say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ini_message(err, errlen, fmt, ap);
	va_end(ap);
}

/*
 * The first control character of the line @s (@len bytes, without its
 * newline), or NULL: a tab is text, and so is the \r of a CRLF ending.
 */
static const char *control_char(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t' && !(c == '\r' && i + 1 == len)) || c == 0x7f)
			return s + i;
	}
	return NULL;
}

int ini_check_controls(const char *text, char *err, size_t errlen)
{
	int line = 0;

	for (const char *s = text; *s; ) {
		size_t len = strcspn(s, "\n");
		const char *ctl = control_char(s, len);

		line++;
		if (ctl) {
			ini_say(err, errlen, "control character '%c' in the line: give text (a tab, or CRLF line ends, are fine)",
				*ctl);
			return line;
		}
		s += len + (s[len] == '\n');
	}
	return 0;
}

int ini_prescan(const char *text, char *err, size_t errlen)
{
	int line = ini_check_controls(text, err, errlen), header_line = 0, nr_headers = 0;
	bool header_has_keys = true;
	/* the names between the brackets, in the text: compared whole, however long */
	struct { const char *name; int len; } header = { "", 0 }, headers[PRESCAN_HEADERS];

	if (line)
		return line;
	for (const char *s = text; *s; ) {
		size_t len = strcspn(s, "\n");
		const char *t = s + strspn(s, " \t\r");
		bool blank = t >= s + len || *t == ';' || *t == '#';

		line++;
		if (len > INI_LINE_MAX_CHARS) {
			snprintf(err, errlen, "line longer than %d characters: split the value over repeated keys or shorten it",
				 INI_LINE_MAX_CHARS);
			return line;
		}
		if (!blank && t > s) {
			snprintf(err, errlen, "indented line: start each 'key = value' and [section] at the beginning of the line");
			return line;
		}
		if (!blank && *t == '[') {
			if (!header_has_keys)
				goto no_keys;
			header_line = line;
			header_has_keys = false;
			header.name = t + 1;
			header.len = (int)strcspn(t + 1, "]\n");
			for (int i = 0; i < nr_headers; i++)
				if (headers[i].len == header.len && !memcmp(headers[i].name, header.name, header.len)) {
					ini_say(err, errlen, "[%.*s] appears twice: give each section once", header.len,
						header.name);
					return line;
				}
			if (nr_headers < PRESCAN_HEADERS)
				headers[nr_headers++] = header;
		} else if (!blank) {
			header_has_keys = true;
		}
		s += len + (s[len] == '\n');
	}
	if (header_has_keys)
		return 0;
no_keys:
	ini_say(err, errlen, "[%.*s] has no keys: give it its keys, or remove it", header.len, header.name);
	return header_line;
}

/* The text libinih reads, a line per call, and the line the handler's error was set on. */
struct ini_lines {
	const char *next;
	const char *err;
	int line;
	int err_line;
};

/* libinih's reader: the next line, or NULL at the end or once the handler has failed. */
static char *ini_next_line(char *str, int num, void *stream)
{
	struct ini_lines *l = stream;
	size_t n;

	if (l->err[0] && !l->err_line)
		l->err_line = l->line;
	if (!*l->next || l->err_line)
		return NULL;
	n = strcspn(l->next, "\n");
	n += l->next[n] == '\n';
	if (n > (size_t)num - 1)
		n = (size_t)num - 1;	/* ini_prescan refused longer lines */
	memcpy(str, l->next, n);
	str[n] = '\0';
	l->next += n;
	l->line++;
	return str;
}

int ini_parse_text(const char *text, int (*handler)(void *user, const char *section, const char *name,
						     const char *value), void *user, char *err)
{
	struct ini_lines l = { .next = text, .err = err };
	int line = ini_parse_stream(ini_next_line, &l, handler, user);

	if (line > 0 && l.err_line != line)
		err[0] = '\0';		/* an unreadable line came before the handler's error */
	return line;
}

int ini_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err[0]) {
		va_start(ap, fmt);
		ini_message(err, errlen, fmt, ap);
		va_end(ap);
	}
	return 0;
}

bool ini_parse_number(const char *s, size_t len, bool suffix, uint64_t *out)
{
	char buf[64], *end;
	unsigned shift = 0;
	uint64_t v;

	if (!len || len >= sizeof(buf) || !isdigit((unsigned char)s[0]))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || end == buf)
		return false;
	if (suffix && *end) {
		const char *units = "KMGT", *u = strchr(units, toupper((unsigned char)*end));

		if (!u)
			return false;
		shift = 10 * (unsigned)(u - units + 1);
		end++;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return false;
	*out = v << shift;
	return true;
}

int ini_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "us", 1000ull }, { "ms", 1000000ull }, { "s", 1000000000ull },
		{ "m", 60000000000ull }, { "h", 3600000000000ull },
	};
	char *end;
	uint64_t v;
	bool overflow;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	overflow = errno == ERANGE;	/* past 2^64 before the unit: too large in any unit */
	if (!*end && !v && !overflow) {
		*ns = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			if (overflow || v > UINT64_MAX / units[i].ns)
				return -ERANGE;
			*ns = v * units[i].ns;
			return 0;
		}
	return -EINVAL;
}

bool ini_parse_duration(const char *s, uint64_t *ns)
{
	return !ini_duration(s, ns);
}

bool ini_parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "1"))
		*out = true;
	else if (!strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "0"))
		*out = false;
	else
		return false;
	return true;
}

bool ini_valid_name(const char *s, size_t max)
{
	if (!*s || strlen(s) >= max)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			return false;
	return true;
}

FILE *ini_open_list(const char *path)
{
	struct stat st;

	errno = 0;
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return NULL;
	return fopen(path, "r");
}

bool ini_list_skip(const char *line)
{
	return line[strspn(line, " \t")] == '#' || !line[strspn(line, " \t\n")];
}
