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
 *   range=N pfn=0x... hole=H free=B slab=S pgtable=P reserved=R anon=A file=F other=O
 *   dirty=D writeback=W
 * anon and file are LRU pages (or anonymous ones still in a per-CPU
 * batch), free the buddy allocator's, other the rest (kernel pages and
 * pages in transit), hole pfns with no page. dirty and writeback count
 * the anon and file pages with that flag too (what migration must copy
 * or wait for, where reclaim of a clean page would do).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * The kinds, each page counted as the first whose flag it has
 * (include/uapi/linux/kernel-page-flags.h; KPF_RESERVED is fs/proc/page.c's
 * bit 32); a page with none of them is "other".
 */
static const struct {
	const char *name;
	unsigned bit;
	bool lru;		/* its dirty and writeback flags are counted */
} kinds[] = {
	{ "hole", 20, false },		/* KPF_NOPAGE */
	{ "free", 10, false },		/* KPF_BUDDY */
	{ "slab", 7, false },		/* KPF_SLAB */
	{ "pgtable", 26, false },	/* KPF_PGTABLE */
	{ "reserved", 32, false },	/* KPF_RESERVED */
	{ "anon", 12, true },		/* KPF_ANON */
	{ "file", 5, true },		/* KPF_LRU, not anonymous */
};
#define NR_KINDS	(sizeof(kinds) / sizeof(kinds[0]))
#define KPF_DIRTY	4
#define KPF_WRITEBACK	8

static size_t kind(uint64_t flags)
{
	size_t k = 0;

	while (k < NR_KINDS && !(flags & (1ull << kinds[k].bit)))
		k++;
	return k;	/* NR_KINDS: other */
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
		unsigned long count[NR_KINDS + 1] = { 0 }, dirty = 0, writeback = 0;
		ssize_t got = pread(fd, buf, range * sizeof(*buf), (off_t)(pfn * sizeof(*buf)));

		if (got <= 0)
			break;
		for (size_t i = 0; i < (size_t)got / sizeof(*buf); i++) {
			size_t k = kind(buf[i]);

			count[k]++;
			if (k < NR_KINDS && kinds[k].lru) {
				dirty += !!(buf[i] & (1ull << KPF_DIRTY));
				writeback += !!(buf[i] & (1ull << KPF_WRITEBACK));
			}
		}
		printf("range=%lu pfn=%#lx", n, pfn);
		for (size_t k = 0; k < NR_KINDS; k++)
			printf(" %s=%lu", kinds[k].name, count[k]);
		printf(" other=%lu dirty=%lu writeback=%lu\n", count[NR_KINDS], dirty, writeback);
		if ((size_t)got < range * sizeof(*buf))
			break;
	}
	free(buf);
	close(fd);
	return 0;
}
