// SPDX-License-Identifier: GPL-2.0
/*
 * kpage-ranges: what each aligned range of physical memory holds, from
 * /proc/kpageflags (root), so that a scenario's layout can be held
 * against the machine's: where the background lies relative to the
 * ranges a gigantic page can be taken from, and which ranges hold pages
 * that isolation refuses (slab, page tables, other kernel pages).
 *
 *   kpage-ranges RANGE_PAGES [END_PFN]
 *
 * One line per range of RANGE_PAGES pages (262144: 1 GiB of 4 KiB
 * pages), from pfn 0 to END_PFN (default: as far as kpageflags reads):
 *   range=N pfn=0x... anon=A file=F free=B slab=S pgtable=P reserved=R other=O hole=H
 * anon and file are LRU pages (or anonymous ones still in a per-CPU
 * batch), free the buddy allocator's, other the rest (kernel pages and
 * pages in transit), hole pfns with no page.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* include/uapi/linux/kernel-page-flags.h, and KPF_RESERVED (32) of fs/proc/page.c */
#define KPF(bit)	(1ull << (bit))
#define KPF_LRU		KPF(5)
#define KPF_SLAB	KPF(7)
#define KPF_BUDDY	KPF(10)
#define KPF_ANON	KPF(12)
#define KPF_NOPAGE	KPF(20)
#define KPF_PGTABLE	KPF(26)
#define KPF_RESERVED	KPF(32)

enum { ANON, FILE_LRU, FREE, SLAB, PGTABLE, RESERVED, OTHER, HOLE, NR_KINDS };

static int kind(uint64_t f)
{
	if (f & KPF_NOPAGE)
		return HOLE;
	if (f & KPF_BUDDY)
		return FREE;
	if (f & KPF_SLAB)
		return SLAB;
	if (f & KPF_PGTABLE)
		return PGTABLE;
	if (f & KPF_RESERVED)
		return RESERVED;
	if (f & KPF_ANON)
		return ANON;
	if (f & KPF_LRU)
		return FILE_LRU;
	return OTHER;
}

int main(int argc, char **argv)
{
	unsigned long range = argc > 1 ? strtoul(argv[1], NULL, 0) : 0;
	unsigned long end = argc > 2 ? strtoul(argv[2], NULL, 0) : ~0ul;
	uint64_t *buf;
	int fd;

	if (!range || argc > 3) {
		fprintf(stderr, "usage: kpage-ranges RANGE_PAGES [END_PFN]\n");
		return 2;
	}
	fd = open("/proc/kpageflags", O_RDONLY);
	buf = malloc(range * sizeof(*buf));
	if (fd < 0 || !buf) {
		perror("kpage-ranges: /proc/kpageflags");
		return 1;
	}
	for (unsigned long pfn = 0, n = 0; pfn < end; pfn += range, n++) {
		unsigned long count[NR_KINDS] = { 0 };
		ssize_t got = pread(fd, buf, range * sizeof(*buf), (off_t)(pfn * sizeof(*buf)));

		if (got <= 0)
			break;
		for (size_t i = 0; i < (size_t)got / sizeof(*buf); i++)
			count[kind(buf[i])]++;
		printf("range=%lu pfn=%#lx anon=%lu file=%lu free=%lu slab=%lu pgtable=%lu reserved=%lu other=%lu hole=%lu\n",
		       n, pfn, count[ANON], count[FILE_LRU], count[FREE], count[SLAB], count[PGTABLE],
		       count[RESERVED], count[OTHER], count[HOLE]);
		if ((size_t)got < range * sizeof(*buf))
			break;
	}
	free(buf);
	close(fd);
	return 0;
}
