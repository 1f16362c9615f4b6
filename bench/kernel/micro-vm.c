// SPDX-License-Identifier: GPL-2.0
/*
 * micro-vm: what the first write to a guest frame the host does not back
 * costs (doc/cost-model.md, "Host faults of fresh frames"). In this KVM
 * guest the host backs guest memory on demand: a frame the guest has not
 * used since boot (or that the host took back) faults at its first write,
 * an EPT violation and a host page fault that allocates and zeroes it,
 * time the guest sees as a slow instruction. Migration targets come from
 * such free memory, so the copy into them pays it.
 *
 * Two passes, each mapping SIZE MiB of anonymous memory in base pages and
 * writing one byte per 4 KiB page, timed per 64 MiB chunk: the first
 * takes whatever frames the guest's free lists give (some never backed),
 * the second, right after the first is unmapped, mostly the same frames,
 * backed now. warm = the median chunk of the second pass; a first-pass
 * chunk over twice that is cold; host_fault_ns = the median cold chunk
 * less warm, per 4 KiB page. Prints NAME=VALUE UNIT lines, and
 * host_fault_ns=unmeasured when no chunk was cold (all memory backed).
 *
 *   micro-vm SIZE_MIB
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define CHUNK	(64ul << 20)

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* pass: map @len bytes, write every page; ns per page of each chunk in @ns */
static void pass(size_t len, double *ns)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("micro-vm: mmap");
		exit(1);
	}
	madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t c = 0; c < len / CHUNK; c++) {
		double t0 = now_ns();

		for (size_t off = c * CHUNK; off < (c + 1) * CHUNK; off += 4096)
			p[off] = 1;
		ns[c] = (now_ns() - t0) / (CHUNK / 4096);
	}
	munmap(p, len);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	size_t len = (argc > 1 ? strtoul(argv[1], NULL, 10) : 4096) << 20, n = len / CHUNK, nr_cold = 0;
	double *first = calloc(n, sizeof(double)), *second = calloc(n, sizeof(double));
	double warm;

	if (!n || !first || !second) {
		fprintf(stderr, "usage: micro-vm SIZE_MIB (at least 64)\n");
		return 2;
	}
	pass(len, first);
	pass(len, second);
	printf("#");
	for (size_t c = 0; c < n; c++)
		printf(" %.0f", first[c]);
	printf("  (first pass, ns per page per 64 MiB chunk)\n");
	warm = median(second, n);
	for (size_t c = 0; c < n; c++)
		if (first[c] > 2 * warm)
			first[nr_cold++] = first[c];
	printf("touch_warm_ns=%.0f ns\n", warm);
	printf("cold_chunks=%zu of %zu\n", nr_cold, n);
	if (nr_cold)
		printf("host_fault_ns=%.0f ns\n", median(first, nr_cold) - warm);
	else
		printf("host_fault_ns=unmeasured (no frame left unbacked)\n");
	return 0;
}
