// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle guest's workload: puts memory of each kind a contiguous
 * allocation meets where the kernel's allocator places it, says where it
 * went (the pfns, read from /proc/self/pagemap), and holds it until killed.
 * Built static for the guest (aarch64-linux-gnu-gcc or gcc), it is the only
 * program besides busybox in the initramfs.
 *
 *   oracle-helper OP ARG... [OP ARG...]   run the OPs in order, print the
 *                                         regions' pfn runs, "ready", hold
 *   oracle-helper write FILE VALUE        one timed write (the allocation)
 *   oracle-helper hugepfn MNT COUNT       map COUNT pages of the hugetlbfs
 *                                         mount MNT, print each one's pfn
 *
 * The OPs (sizes in MiB) are the table ops[] below. Long-term pins go
 * through io_uring's registered buffers (pin_user_pages with
 * FOLL_LONGTERM, which first migrates the pages out of CMA and
 * ZONE_MOVABLE); short-term pins are anonymous pages vmsplice'd into a pipe
 * nobody reads, whose references make migration fail until it is closed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define PM_PFN_MASK ((1ULL << 55) - 1)
#define PM_PRESENT (1ULL << 63)

static long page_size;

struct op {
	const char *name;
	int nargs;	/* words after the name */
	int (*run)(char **args);
	const char *help;
};

static void die(const char *what)
{
	fprintf(stderr, "oracle-helper: %s: %s\n", what, strerror(errno));
	exit(1);
}

static size_t mib_arg(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*end || !v) {
		fprintf(stderr, "oracle-helper: '%s' is not a size in MiB (a positive integer)\n", s);
		exit(2);
	}
	return (size_t)v << 20;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Print the region's pages as sorted runs of pfns ("pfns NAME FIRST COUNT"
 * a line): the placement the allocator chose, which the simulator's
 * scenario must reproduce. Pages not present (or pfns hidden) are counted.
 */
static void print_pfns(const char *name, const char *addr, size_t len, size_t step)
{
	size_t n = len / step, got = 0, absent = 0;
	uint64_t *pfn = calloc(n ? n : 1, sizeof(*pfn)), e;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (!pfn || fd < 0)
		die("pagemap");
	for (size_t i = 0; i < n; i++) {
		off_t off = (off_t)((uintptr_t)(addr + i * step) / page_size) * 8;

		if (pread(fd, &e, sizeof(e), off) != sizeof(e))
			die("pagemap read");
		if ((e & PM_PRESENT) && (e & PM_PFN_MASK))
			pfn[got++] = e & PM_PFN_MASK;
		else
			absent++;
	}
	close(fd);
	qsort(pfn, got, sizeof(*pfn), cmp_u64);
	printf("region %s pages=%zu step=%zu absent=%zu\n", name, n, step / page_size, absent);
	for (size_t i = 0, j; i < got; i = j) {
		for (j = i + 1; j < got && pfn[j] == pfn[j - 1] + step / page_size; j++)
			;
		printf("pfns %s 0x%llx %zu\n", name, (unsigned long long)pfn[i],
		       (j - i) * (step / page_size));
	}
	free(pfn);
}

static char *map_anon(size_t len, int advice)
{
	/* 2 MiB-aligned so that THPs can back the whole region */
	size_t align = 2 << 20;
	char *p = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	p = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	if (madvise(p, len, advice))
		die("madvise");
	return p;
}

static void touch(char *p, size_t len)
{
	for (size_t off = 0; off < len; off += page_size)
		p[off] = (char)(off / page_size) | 1;
}

static int op_anon(char **args)
{
	size_t len = mib_arg(args[0]);
	char *p = map_anon(len, MADV_NOHUGEPAGE);

	touch(p, len);
	print_pfns("anon", p, len, page_size);
	return 0;
}

static int op_thp(char **args)
{
	size_t len = mib_arg(args[0]);
	char *p = map_anon(len, MADV_HUGEPAGE);

	touch(p, len);
	print_pfns("thp", p, len, page_size);
	return 0;
}

static int op_mlock(char **args)
{
	size_t len = mib_arg(args[0]);
	char *p = map_anon(len, MADV_NOHUGEPAGE);

	if (mlock(p, len))
		die("mlock");
	touch(p, len);
	print_pfns("mlock", p, len, page_size);
	return 0;
}

static int open_sized(const char *path, size_t len)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die(path);
	if (ftruncate(fd, (off_t)len))
		die("ftruncate");
	return fd;
}

/* a shared file mapping, every page written: dirty page cache, mapped */
static int op_dirty(char **args)
{
	size_t len = mib_arg(args[1]);
	int fd = open_sized(args[0], len);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		die("mmap file");
	touch(p, len);
	print_pfns("dirty", p, len, page_size);
	close(fd);
	return 0;
}

/*
 * Clean page cache, unmapped: the file is written, synced and dropped, then
 * read back, so its pages are allocated now, by the read, and clean.
 */
static int op_cache(char **args)
{
	size_t len = mib_arg(args[1]), chunk = 1 << 20;
	int fd = open_sized(args[0], 0);
	char *buf = malloc(chunk), *p;

	if (!buf)
		die("malloc");
	memset(buf, 0x5a, chunk);
	for (size_t off = 0; off < len; off += chunk)
		if (write(fd, buf, chunk) != (ssize_t)chunk)
			die("write");
	if (fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) || lseek(fd, 0, SEEK_SET))
		die("fsync");
	for (size_t off = 0; off < len; off += chunk)
		if (read(fd, buf, chunk) != (ssize_t)chunk)
			die("read");
	free(buf);
	/* a read-only mapping only to ask pagemap; unmapped again after */
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap file");
	if (madvise(p, len, MADV_WILLNEED))
		die("madvise");
	for (size_t off = 0; off < len; off += page_size)
		(void)*(volatile char *)(p + off);
	print_pfns("cache", p, len, page_size);
	munmap(p, len);
	close(fd);
	return 0;
}

/*
 * FOLL_LONGTERM pins: io_uring_register(IORING_REGISTER_BUFFERS) pins the
 * buffers for the ring's life, migrating them out of CMA first. The ring
 * stays open while the helper holds. Refused registration is reported, not
 * fatal: the experiment then says the kernel did not allow it.
 */
static int op_longterm(char **args)
{
	size_t len = mib_arg(args[0]), max = 1 << 30, n = (len + max - 1) / max;
	struct io_uring_params params = { 0 };
	struct iovec *iov = calloc(n, sizeof(*iov));
	char *p = map_anon(len, MADV_NOHUGEPAGE);
	int ring;

	touch(p, len);
	print_pfns("longterm-before", p, len, page_size);
	ring = (int)syscall(__NR_io_uring_setup, 1, &params);
	if (ring < 0 || !iov) {
		printf("longterm refused: io_uring_setup: %s\n", strerror(errno));
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		iov[i].iov_base = p + i * max;
		iov[i].iov_len = len - i * max < max ? len - i * max : max;
	}
	if (syscall(__NR_io_uring_register, ring, IORING_REGISTER_BUFFERS, iov, (unsigned int)n)) {
		printf("longterm refused: io_uring_register: %s\n", strerror(errno));
		return 0;
	}
	print_pfns("longterm", p, len, page_size);
	return 0;
}

/*
 * Short-term pins: each page vmsplice'd (without SPLICE_F_GIFT) into a
 * pipe holds a reference that migration cannot drop, for as long as the
 * pipe is unread. Pipes of 1 MiB (the default pipe-max-size, which needs
 * no privilege) are opened until they hold the whole region; their
 * descriptors stay open while the helper holds.
 */
static int op_vmsplice(char **args)
{
	size_t len = mib_arg(args[0]), per = 1 << 20;
	char *p = map_anon(len, MADV_NOHUGEPAGE);

	touch(p, len);
	for (size_t off = 0; off < len; off += per) {
		size_t done = 0, want = len - off < per ? len - off : per;
		int pfd[2];

		if (pipe(pfd) || fcntl(pfd[1], F_SETPIPE_SZ, (int)per) < 0)
			die("pipe");
		while (done < want) {
			struct iovec iov = { p + off + done, want - done };
			ssize_t n = vmsplice(pfd[1], &iov, 1, SPLICE_F_NONBLOCK);

			if (n <= 0)
				die("vmsplice");
			done += (size_t)n;
		}
	}
	print_pfns("vmsplice", p, len, page_size);
	return 0;
}

static const struct op ops[] = {
	{ "anon", 1, op_anon, "MIB   anonymous base pages (MADV_NOHUGEPAGE), written" },
	{ "thp", 1, op_thp, "MIB   anonymous, MADV_HUGEPAGE, written" },
	{ "mlock", 1, op_mlock, "MIB   anonymous base pages, mlocked" },
	{ "dirty", 2, op_dirty, "FILE MIB   a shared file mapping, every page dirtied" },
	{ "cache", 2, op_cache, "FILE MIB   clean page cache: written, synced, dropped, read back" },
	{ "longterm", 1, op_longterm, "MIB   anonymous, pinned as io_uring registered buffers" },
	{ "vmsplice", 1, op_vmsplice, "MIB   anonymous, held by an unread pipe (short-term pins)" },
};

static void usage(void)
{
	fprintf(stderr, "usage: oracle-helper OP ARG... | write FILE VALUE | hugepfn MNT COUNT\nOPs:\n");
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		fprintf(stderr, "  %s %s\n", ops[i].name, ops[i].help);
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * One write, timed: under QEMU's -icount shift=0 the guest's clock advances
 * one nanosecond per instruction, so ns is the instructions it took.
 */
static int timed_write(const char *file, const char *value)
{
	int fd = open(file, O_WRONLY);
	uint64_t t0, t1;
	ssize_t n;
	int err;

	if (fd < 0)
		die(file);
	t0 = now_ns();
	n = write(fd, value, strlen(value));
	err = n < 0 ? errno : 0;
	t1 = now_ns();
	close(fd);
	printf("write %s %s ret=%zd errno=%d ns=%llu\n", file, value, n, err,
	       (unsigned long long)(t1 - t0));
	return 0;
}

/*
 * The pfn of each of COUNT hugetlb pages, mapped from the hugetlbfs mount
 * MNT (whose st_blksize is its page size) and touched so that each is
 * faulted in from the pool the allocation filled.
 */
static int huge_pfns(const char *mnt, const char *count)
{
	long n = strtol(count, NULL, 10);
	char path[4096];
	struct stat st;
	size_t huge;
	char *p;
	int fd;

	snprintf(path, sizeof(path), "%s/pfn", mnt);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0 || fstat(fd, &st))
		die(path);
	huge = (size_t)st.st_blksize;
	if (n <= 0)
		return 0;
	p = mmap(NULL, (size_t)n * huge, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		printf("hugepfn %s: mmap of %ld pages: %s\n", mnt, n, strerror(errno));
		return 0;
	}
	for (long i = 0; i < n; i++)
		p[(size_t)i * huge] = 1;
	print_pfns("hugetlb", p, (size_t)n * huge, huge);
	munmap(p, (size_t)n * huge);
	close(fd);
	unlink(path);
	return 0;
}

int main(int argc, char **argv)
{
	page_size = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "write"))
		return timed_write(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "hugepfn"))
		return huge_pfns(argv[2], argv[3]);
	if (argc < 2)
		usage();
	for (int i = 1; i < argc;) {
		const struct op *op = NULL;

		for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
			if (!strcmp(argv[i], ops[k].name))
				op = &ops[k];
		if (!op || i + op->nargs >= argc) {
			if (!op)
				fprintf(stderr, "oracle-helper: unknown op '%s'\n", argv[i]);
			else
				fprintf(stderr, "oracle-helper: %s needs %d argument(s)\n", op->name, op->nargs);
			usage();
		}
		op->run(argv + i + 1);
		i += 1 + op->nargs;
	}
	printf("ready\n");
	for (;;)
		pause();
}
