// SPDX-License-Identifier: GPL-2.0
/*
 * Huge-page tables (big_table.h): aligned to the huge page and advised
 * MADV_HUGEPAGE, which is all a host whose THP mode is "madvise" needs.
 * Every table is zeroed by writing, so that the first fault of each page
 * is a write and allocates it, rather than mapping the zero page first.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/big_table.h"

#define HPAGE_SIZE	(2ul << 20)	/* x86-64's and arm64's (4 KiB granule) PMD size */

void *big_table_alloc(size_t nr, size_t size)
{
	size_t bytes, len;
	void *p;

	if (!nr)
		nr = 1;
	if (size && nr > SIZE_MAX / size)
		return NULL;
	bytes = nr * size;
	len = (bytes + HPAGE_SIZE - 1) & ~(HPAGE_SIZE - 1);
	p = bytes < HPAGE_SIZE ? malloc(bytes) : aligned_alloc(HPAGE_SIZE, len);
	if (!p)
		return NULL;
	/* advice only: where THP is off the table is on small pages, as calloc's */
	if (bytes >= HPAGE_SIZE)
		madvise(p, len, MADV_HUGEPAGE);
	memset(p, 0, bytes);
	return p;
}
