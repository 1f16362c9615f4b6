// SPDX-License-Identifier: GPL-2.0
/*
 * Huge-page tables (big_table.h): each table a mapping of its own; one
 * of half a huge page or more rounded up to whole ones, aligned and advised
 * MADV_HUGEPAGE, which is all a host whose THP mode is "madvise" needs.
 * A fresh anonymous mapping reads as zeroes, so each of its pages is
 * written once, to fault it in allocated (rather than mapping the zero
 * page on a first read, then copying it on the first write), and not
 * cleared again after the kernel has.
 */
#include <stdint.h>
#include <sys/mman.h>

#include "util/big_table.h"

#define HPAGE_SIZE	(2ul << 20)	/* x86-64's and arm64's (4 KiB granule) PMD size */
#define FAULT_STRIDE	4096ul		/* the smallest base page: one write faults each in */

/*
 * The mapping's length: whole huge pages from half one on (one fault
 * and one clear_page run cost less than a fault for each of its 256 or
 * more base pages), else whole base pages.
 */
static size_t mapping_len(size_t nr, size_t size)
{
	size_t bytes = (nr ? nr : 1) * size;
	size_t align = bytes < HPAGE_SIZE / 2 ? FAULT_STRIDE : HPAGE_SIZE;

	return (bytes + align - 1) & ~(align - 1);
}

/* A mapping of @len aligned to the huge page: one a huge page longer, its ends cut off. */
static char *map_aligned(size_t len)
{
	char *p = mmap(NULL, len + HPAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t head;

	if (p == MAP_FAILED)
		return NULL;
	head = (HPAGE_SIZE - (uintptr_t)p % HPAGE_SIZE) % HPAGE_SIZE;
	if (head)
		munmap(p, head);
	munmap(p + head + len, HPAGE_SIZE - head);
	return p + head;
}

void *big_table_alloc(size_t nr, size_t size)
{
	size_t len;
	char *p;

	if (size && nr > SIZE_MAX / 2 / size)
		return NULL;
	len = mapping_len(nr, size);
	if (len < HPAGE_SIZE) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
	} else {
		p = map_aligned(len);
		if (!p)
			return NULL;
		/* advice only: where THP is off the table is on small pages */
		madvise(p, len, MADV_HUGEPAGE);
	}
	for (size_t off = 0; off < len; off += FAULT_STRIDE)
		p[off] = 0;
	return p;
}

void big_table_free(void *table, size_t nr, size_t size)
{
	if (table)
		munmap(table, mapping_len(nr, size));
}
