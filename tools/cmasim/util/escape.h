/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strings read from an input (a device tree's names and strings, a
 * snapshot's files, scenario and platform files) are escaped before they
 * reach a message, a log line or a report: a newline in a board's node
 * name must not start a line of its own, an escape sequence must not
 * drive the terminal, a '<' must not open a tag in the HTML.
 *
 * As the kernel's %pE does (string_escape_mem, ESCAPE_SPECIAL and
 * ESCAPE_HEX): \n, \r, \t and \\ by name, any other byte outside printable
 * ASCII as \xNN. Printable ASCII is left as it is, so a well-formed name
 * reads the same escaped or not.
 */
#ifndef CMASIM_ESCAPE_H
#define CMASIM_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

#define ESCAPED_MAX	512	/* ESCAPED()'s buffer: longer results end in "..." */

const char *str_escape(const char *s, char *buf, size_t size);
void fputs_escaped(const char *s, FILE *out);
void html_escape(FILE *out, const char *s);

/*
 * ESCAPED(s): @s escaped, in a buffer that lives until the end of the
 * enclosing block, for a printf argument:
 *	fprintf(stderr, "node %s\n", ESCAPED(name));
 */
#define ESCAPED(s)	str_escape((s), (char[ESCAPED_MAX]){ 0 }, ESCAPED_MAX)

#endif
