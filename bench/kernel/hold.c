// SPDX-License-Identifier: GPL-2.0
/*
 * contig.sh's background: hold SIZE MiB of anonymous memory in base pages
 * (MADV_NOHUGEPAGE, so migration moves 4 KiB pages as the anchors count
 * them), every page written; with "fragment", give back every other page
 * afterwards so that no 2 MiB block is free. Prints "ready" once the
 * memory is in place, then sleeps until killed.
 *
 *   hold SIZE_MIB [fragment]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 0, len = mib << 20;
	long page = sysconf(_SC_PAGESIZE);
	char *p;

	if (!mib || argc > 3 || (argc == 3 && strcmp(argv[2], "fragment"))) {
		fprintf(stderr, "usage: hold SIZE_MIB [fragment]\n");
		return 2;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("hold: mmap");
		return 1;
	}
	madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < len; off += page)
		p[off] = (char)(off / page) | 1;
	if (argc == 3)
		for (size_t off = 0; off < len; off += 2 * page)
			madvise(p + off, page, MADV_DONTNEED);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
