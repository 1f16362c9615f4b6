/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What platform and scenario files share: reading the text, checking
 * what libinih would take silently, and the value syntaxes (sizes with
 * K/M/G/T suffixes, durations with units, names, yes/no).
 */
#ifndef CMASIM_INIFILE_H
#define CMASIM_INIFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define INI_FILE_MAX_BYTES	(1 << 20)
/* The longest line libinih reads whole: its INI_MAX_LINE (200) less "\r\n\0". */
#define INI_LINE_MAX_CHARS	197
/* A text field of this size holds any value a line can carry: the line is its one limit. */
#define INI_TEXT_MAX		(INI_LINE_MAX_CHARS + 1)

/*
 * The text of @path, NUL-terminated (free() it), or NULL after writing
 * "PATH: why" to @err; @what names the file's kind ("platform file").
 */
char *ini_read_text(const char *path, const char *what, char *err, size_t errlen);

/*
 * The first line with a control character (a tab, and the \r of a CRLF
 * ending, are text), or 0; the reason in @err. Refused, so that no value
 * read carries one into a message, a log or a report.
 */
int ini_check_controls(const char *text, char *err, size_t errlen);

/*
 * Lines libinih would misread (and ini_check_controls' lines): longer than its buffer, indented (a
 * continuation), sections without keys or given twice. 0, or the first
 * such line's number with the reason in @err.
 */
int ini_prescan(const char *text, char *err, size_t errlen);

/*
 * libinih over @text, stopping at the first error: 0, or the line of the
 * first error. @err is the handler's message buffer (the handler fills
 * it when it returns 0): it is emptied when a line libinih cannot read
 * comes first, so that the caller says that instead. (libinih reports
 * the first bad line's number but goes on calling the handler, whose
 * message would then be a later line's.)
 */
int ini_parse_text(const char *text, int (*handler)(void *user, const char *section, const char *name,
						     const char *value), void *user, char *err);

/*
 * Readers keep the first error only: format into @err unless it already
 * holds one. Returns 0, what libinih's handler returns to stop.
 */
int ini_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A decimal or 0x number with an optional K/M/G/T suffix (if @suffix); false if malformed. */
bool ini_parse_number(const char *s, size_t len, bool suffix, uint64_t *out);
/* "500us", "33ms", "5s", "2m", "1h" (a bare 0 is accepted); false if malformed or too large. */
bool ini_parse_duration(const char *s, uint64_t *ns);
/* The same, telling the two apart: 0, -EINVAL malformed, -ERANGE past 2^64 ns. */
int ini_duration(const char *s, uint64_t *ns);
/* yes/no, true/false, 1/0; false if none of them. */
bool ini_parse_bool(const char *s, bool *out);
/* 1 to @max - 1 letters, digits, '-', '_' or '.'. */
bool ini_valid_name(const char *s, size_t max);

#define INI_SIZE_SYNTAX "a decimal or 0x hex number, optionally with a K, M, G or T suffix"
#define INI_DURATION_SYNTAX "a whole number with a unit: us, ms, s, m or h (e.g. 33ms, 5s; 1500ms, not 1.5s)"
#define INI_DURATION_TOO_LARGE "too large: the largest accepted is 5124095h (2^64 ns)"
#define INI_BOOL_SYNTAX "yes, no, true, false, 1 or 0"

/*
 * A list file a scenario key names (a demand, a pfns file), opened for
 * reading; NULL if it cannot be, with errno, or errno 0 if it is no
 * regular file (a FIFO or a device would hold the scenario's reading up).
 */
FILE *ini_open_list(const char *path);
/* A list file's line that holds nothing: blanks, or a # comment. */
bool ini_list_skip(const char *line);

#endif
