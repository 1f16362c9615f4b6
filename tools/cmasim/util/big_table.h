/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables as large as a machine's memory (a workload's page slots):
 * zeroed, and backed by transparent huge pages where the host allows.
 * A workload fills such a table at random, usually reading a slot
 * before writing it, so on 4 KiB pages each page faults twice (the zero
 * page, then its copy and a TLB flush) and each lookup misses the TLB;
 * on 2 MiB pages the faults are a 512th and the TLB reach is the table.
 */
#ifndef CMASIM_BIG_TABLE_H
#define CMASIM_BIG_TABLE_H

#include <stddef.h>

/* calloc(@nr, @size) faulted in, on huge pages if it spans half of one. NULL: no memory. */
void *big_table_alloc(size_t nr, size_t size);
/* Free a table big_table_alloc(@nr, @size) returned (NULL: nothing). */
void big_table_free(void *table, size_t nr, size_t size);

#endif
