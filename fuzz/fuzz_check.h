/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzz targets share: a failed check is reported on one line
 * naming the target, then abort() makes libFuzzer keep the input.
 * Each target defines FUZZ_TARGET (its name) before including this.
 */
#ifndef CMA_FUZZ_CHECK_H
#define CMA_FUZZ_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 1, 2), noreturn))
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, FUZZ_TARGET ": FAILED: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* Does @s hold its NUL within @size bytes? */
static inline bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/*
 * Does @s hold no control character but those in @allowed? A message
 * holds none (escape.h); a value read from a file may hold a tab.
 */
static inline bool no_controls(const char *s, const char *allowed)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && !strchr(allowed, *s)) || *s == 0x7f)
			return false;
	return true;
}

/* A message: one line that a terminal shows as it is. */
static inline bool one_line(const char *s)
{
	return no_controls(s, "");
}

#endif
