// SPDX-License-Identifier: GPL-2.0
/*
 * micro-mig.sh's program: the constants of cmasim's migration terms
 * (doc/cost-model.md, "Migration beyond the copy"), measured on this
 * machine. Each figure is the median of REPEATS runs and printed as one
 * "NAME=VALUE UNIT" line:
 *
 *   copy_cold_mbps      memcpy of 4 KiB pages in random order between two
 *                       buffers far larger than the last-level cache
 *   syscall_ns          madvise(MADV_DONTNEED) of a page with no PTE: the
 *                       call alone, subtracted from the one below
 *   unmap_local_ns      zapping one PTE of a shared-memory page and flushing
 *                       its TLB entry, the process's other thread asleep
 *                       (the shootdown to a CPU running that thread is one
 *                       IPI: micro-cpu's ipi_us measures it)
 *   fault_map_ns        a minor fault mapping a page-cache page again (the
 *                       remap, without zeroing or copying; the file holds
 *                       one page in 16, so fault-around maps only that one)
 *   touch_warm_ns       first write to an anonymous page whose frame the
 *                       guest freed a moment ago: a fault and clearing
 *   touch_reported_ns   the same on frames freed seconds ago, which the
 *                       balloon's free page reporting has handed back to
 *                       the host: the host must fault them in again
 *   migrate_anon_ns     per page migrated by compaction ("echo 1 >
 *                       /proc/sys/vm/compact_memory") when the pages are
 *                       anonymous, each mapped once, owner asleep
 *   migrate_anon_busy_ns  the same with the owner's second thread running
 *                       on the other CPU (each flush interrupts it)
 *   migrate_shmem_ns    per page migrated when the pages are unmapped
 *                       shared memory (no PTE: no unmap, flush or remap)
 *
 * Threads are pinned: the measuring one to CPU 0, the spinning one to
 * CPU 1. Migration figures are whole-machine compaction time, less that
 * of a second compaction right after (the same scanning, nothing left to
 * move), over the pgmigrate_success delta; any other process's pages
 * compaction moved are in it. A "#" line per compaction shows its parts.
 *
 *   micro-mig [REPEATS] [MIB]     (root for the migration figures)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096ul
#define MAX_REPEATS 15

static atomic_int spin_mode;	/* 0 asleep, 1 spinning, -1 exit */
static volatile uint64_t spin_sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* The second thread of the address space: asleep, or running on CPU 1. */
static void *spinner(void *arg)
{
	(void)arg;
	pin(1);
	for (;;) {
		int mode = atomic_load(&spin_mode);

		if (mode < 0)
			return NULL;
		if (mode == 0)
			usleep(1000);
		else
			spin_sink++;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void *map_anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("micro-mig: mmap");
		exit(1);
	}
	/* base pages: migration moves them one by one */
	madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

static void touch(char *p, size_t len)
{
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = (char)off | 1;
}

/* MB/s of copying pages in a random order, cold in the cache. */
static double copy_cold(size_t len, unsigned seed)
{
	size_t n = len / PAGE;
	char *src = map_anon(len), *dst = map_anon(len);
	size_t *order = malloc(n * sizeof(*order));
	uint64_t t0, t1;

	touch(src, len);
	touch(dst, len);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	srand(seed);
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rand() % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		memcpy(dst + order[i] * PAGE, src + order[(i + 1) % n] * PAGE, PAGE);
	t1 = now_ns();
	munmap(src, len);
	munmap(dst, len);
	free(order);
	return (double)len * 1e3 / (double)(t1 - t0);
}

struct unmap_round {
	double syscall_ns, unmap_ns, fault_ns;
};

#define SPARSE 16	/* one page in SPARSE of the shared-memory file exists */

/*
 * One round over a shared-memory file mapped whole: fault its pages in
 * (a minor fault: the page is in the page cache), then zap them one
 * madvise at a time, then time the same calls on the now empty range.
 */
static struct unmap_round unmap_round(int fd, size_t len)
{
	size_t n = len / PAGE / SPARSE;
	volatile char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	struct unmap_round r;
	uint64_t t0, t1, t2, t3;
	char sum = 0;

	if (p == MAP_FAILED) {
		perror("micro-mig: mmap memfd");
		exit(1);
	}
	t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		sum += p[i * SPARSE * PAGE];
	t1 = now_ns();
	for (size_t i = 0; i < n; i++)
		madvise((char *)p + i * SPARSE * PAGE, PAGE, MADV_DONTNEED);
	t2 = now_ns();
	for (size_t i = 0; i < n; i++)
		madvise((char *)p + i * SPARSE * PAGE, PAGE, MADV_DONTNEED);
	t3 = now_ns();
	munmap((char *)p, len);
	spin_sink += (uint64_t)sum;
	r.fault_ns = (double)(t1 - t0) / (double)n;
	r.unmap_ns = (double)(t2 - t1) / (double)n;
	r.syscall_ns = (double)(t3 - t2) / (double)n;
	return r;
}

/* ns per page of mapping and writing @len of fresh anonymous memory. */
static double touch_fresh(size_t len)
{
	char *p = map_anon(len);
	uint64_t t0 = now_ns();

	touch(p, len);
	t0 = now_ns() - t0;
	munmap(p, len);
	return (double)t0 / (double)(len / PAGE);
}

static uint64_t vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char key[64];
	unsigned long long v;
	uint64_t ret = 0;

	if (!f)
		return 0;
	while (fscanf(f, "%63s %llu", key, &v) == 2)
		if (!strcmp(key, name))
			ret = v;
	fclose(f);
	return ret;
}

static uint64_t last_migrated;	/* pages the last compaction migrated */

/* One whole-machine compaction: its time in ns; @migrated, the pages it moved. */
static uint64_t compact_once(uint64_t *migrated)
{
	uint64_t m0 = vmstat("pgmigrate_success"), t0, t1;
	int fd = open("/proc/sys/vm/compact_memory", O_WRONLY);

	if (fd < 0)
		return 0;
	t0 = now_ns();
	if (write(fd, "1", 1) != 1)
		perror("micro-mig: compact_memory");
	t1 = now_ns();
	close(fd);
	*migrated = vmstat("pgmigrate_success") - m0;
	return t1 - t0;
}

/*
 * ns per migrated page, or -1 without root: a compaction's time less
 * that of the compaction right after it, which finds the same machine to
 * scan but (nearly) nothing left to move, over the pages moved.
 */
static double compact_ns_per_page(const char *what)
{
	uint64_t n, n0, t = compact_once(&n), t0 = compact_once(&n0);

	last_migrated = n;
	printf("# %s: compaction %.1f ms for %llu pages, then %.1f ms for %llu\n", what, (double)t / 1e6,
	       (unsigned long long)n, (double)t0 / 1e6, (unsigned long long)n0);
	return n > n0 && t > t0 ? (double)(t - t0) / (double)(n - n0) : -1;
}

static void compact_quietly(void)
{
	int fd = open("/proc/sys/vm/compact_memory", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "1", 1) != 1)
			perror("micro-mig: compact_memory");
		close(fd);
	}
}

/* Anonymous pages, every other one given back, then compaction. */
static double migrate_anon(size_t len)
{
	char *p = map_anon(len);
	double ns;

	touch(p, len);
	for (size_t off = PAGE; off < len; off += 2 * PAGE)
		madvise(p + off, PAGE, MADV_DONTNEED);
	ns = compact_ns_per_page(atomic_load(&spin_mode) ? "anon, owner running" : "anon, owner asleep");
	munmap(p, len);
	return ns;
}

/* Shared-memory pages never mapped, every other one punched out, then compaction. */
static double migrate_shmem(size_t len)
{
	int fd = memfd_create("micro-mig", 0);
	char buf[PAGE];
	double ns;

	memset(buf, 0x5a, sizeof(buf));
	for (size_t off = 0; off < len; off += PAGE)
		if (pwrite(fd, buf, PAGE, (off_t)off) != (ssize_t)PAGE) {
			perror("micro-mig: memfd write");
			exit(1);
		}
	for (size_t off = PAGE; off < len; off += 2 * PAGE)
		fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, PAGE);
	ns = compact_ns_per_page("shmem, unmapped");
	close(fd);
	return ns;
}

int main(int argc, char **argv)
{
	int repeats = argc > 1 ? atoi(argv[1]) : 5;
	size_t mib = argc > 2 ? strtoul(argv[2], NULL, 10) : 512, len = mib << 20;
	size_t small = 256ul << 20;
	double copy[MAX_REPEATS], sys[MAX_REPEATS], loc[MAX_REPEATS],
	       fault[MAX_REPEATS], warm[MAX_REPEATS], rep[MAX_REPEATS], anon[MAX_REPEATS], busy[MAX_REPEATS], shm[MAX_REPEATS],
	       nr_anon[MAX_REPEATS], nr_shm[MAX_REPEATS];
	char buf[PAGE];
	pthread_t th;
	int fd, n_mig = 0;

	if (repeats < 1 || repeats > MAX_REPEATS || mib < 64) {
		fprintf(stderr, "usage: micro-mig [REPEATS 1..%d] [MIB >= 64]\n", MAX_REPEATS);
		return 2;
	}
	pin(0);
	pthread_create(&th, NULL, spinner, NULL);

	for (int i = 0; i < repeats; i++)
		copy[i] = copy_cold(len, (unsigned)i + 1);

	fd = memfd_create("micro-mig-map", 0);
	memset(buf, 0x5a, sizeof(buf));
	for (size_t off = 0; off < small; off += SPARSE * PAGE)
		if (pwrite(fd, buf, PAGE, (off_t)off) != (ssize_t)PAGE) {
			perror("micro-mig: memfd write");
			return 1;
		}
	for (int i = 0; i < repeats; i++) {
		struct unmap_round r;

		atomic_store(&spin_mode, 0);
		usleep(20000);
		r = unmap_round(fd, small);
		sys[i] = r.syscall_ns;
		loc[i] = r.unmap_ns - r.syscall_ns;
		fault[i] = r.fault_ns;
	}
	atomic_store(&spin_mode, 0);
	close(fd);

	/* page_reporting hands free blocks to the host 2 s after they appear */
	for (int i = 0; i < repeats; i++) {
		touch_fresh(len);
		sleep(3);
		rep[i] = touch_fresh(len);
		warm[i] = touch_fresh(len);
	}

	printf("copy_cold_mbps=%.0f MB/s\n", median(copy, repeats));
	printf("syscall_ns=%.0f ns\n", median(sys, repeats));
	printf("unmap_local_ns=%.0f ns\n", median(loc, repeats));
	printf("fault_map_ns=%.0f ns\n", median(fault, repeats));
	printf("touch_warm_ns=%.0f ns\n", median(warm, repeats));
	printf("touch_reported_ns=%.0f ns\n", median(rep, repeats));
	fflush(stdout);

	if (access("/proc/sys/vm/compact_memory", W_OK)) {
		fprintf(stderr, "micro-mig: not root: no migration figures\n");
		goto out;
	}
	compact_quietly();
	for (int i = 0; i < repeats; i++) {
		double a, b, s;

		atomic_store(&spin_mode, 0);
		usleep(20000);
		a = migrate_anon(len);
		nr_anon[n_mig] = (double)last_migrated;
		s = migrate_shmem(len);
		nr_shm[n_mig] = (double)last_migrated;
		atomic_store(&spin_mode, 1);
		b = migrate_anon(len);
		atomic_store(&spin_mode, 0);
		if (a < 0 || b < 0 || s < 0)
			continue;
		anon[n_mig] = a;
		busy[n_mig] = b;
		shm[n_mig++] = s;
	}
	if (n_mig) {
		printf("migrate_anon_ns=%.0f ns\n", median(anon, n_mig));
		printf("migrate_anon_busy_ns=%.0f ns\n", median(busy, n_mig));
		printf("migrate_shmem_ns=%.0f ns\n", median(shm, n_mig));
		printf("migrated_anon_pages=%.0f pages\n", median(nr_anon, n_mig));
		printf("migrated_shmem_pages=%.0f pages\n", median(nr_shm, n_mig));
	}
out:
	atomic_store(&spin_mode, -1);
	pthread_join(th, NULL);
	return 0;
}
