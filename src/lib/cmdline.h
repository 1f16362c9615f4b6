/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel command-line parsing: find the value an early_param() handler
 * would be given, and read a size such as "64M" from it. Everything works
 * on (pointer, length) slices of the caller's string, which is never
 * modified and need not be NUL-terminated past the slice.
 */
#ifndef CMA_LIB_CMDLINE_H
#define CMA_LIB_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

size_t parse_integer(const char *s, size_t len, unsigned int base,
		     uint64_t *res, bool *overflow);

int memparse_strict(const char *s, size_t len, uint64_t *out);

int cmdline_find_option(const char *cmdline, const char *key,
			const char **val, size_t *len);

#endif
