// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle guest's background file writer, for experiments with
 * writer= (oracle.sh puts it in their initramfs only, as
 * /bin/oracle-writer, so that no other experiment's initramfs changes):
 *
 *   oracle-writer unsparse OUT        stdin to OUT, its all-zero 4 KiB
 *                                     blocks left as holes (the host's
 *                                     ext4 image, gunzip'd, into a tmpfs
 *                                     file that holds only its written
 *                                     blocks)
 *   oracle-writer write DIR MIB STOP  write files into DIR until the file
 *                                     STOP exists
 *
 * write is a compiler's output seen by the file system: files of 256 KiB
 * to 2 MiB (4 KiB steps, a 64-bit LCG from a fixed seed, so every run
 * writes the same sizes in the same order), DIR/obj-NNNN.o for NNNN
 * cycling over MIB names (about 1.1 * MIB MiB live), each opened with
 * O_TRUNC over its last version (ext4's auto_da_alloc then starts the
 * new data's writeback at close), written in 64 KiB write()s, closed;
 * every 8th file is fsync'd before its close (a linker's output). Between
 * those, the journal's commit (5 s by default) and the flusher do the
 * rest. It prints a line every 64 files and one at the end: files,
 * MiB written, fsyncs and the guest's clock (ns; instructions under
 * -icount shift=0).
 *
 *   oracle-writer build DIR NDIRS MIB STOP
 *                                     a compiler farm's output (only in
 *                                     the binary built with
 *                                     -DORACLE_WRITER_BUILD, below)
 *
 * build makes DIR/d0000 .. DIR/dNDIRS-1 first, then "compiles" until STOP
 * exists: object N (0, 1, 2, ...: names are never reused) goes to the
 * directory DIR/dK, K from the same fixed-seed LCG, as
 * DIR/dK/.objN.o.tmp (O_EXCL, the size as write's, 64 KiB write()s,
 * every 8th fsync'd before its close), renamed to DIR/dK/objN.o, then a
 * 4 KiB DIR/dK/.objN.o.cmd; once the live objects and .cmd files exceed
 * MIB MiB, the oldest objects (with their .cmd) are unlinked until they
 * do not. So the file system sees new inodes, directory entries, renames
 * and unlinks across NDIRS directories, where write rewrites the same
 * 64 inodes. Its lines are write's, with unlinks and the live MiB; its
 * files= counts objects (each creates two inodes: the object and its
 * .cmd). ext4-init.sh runs `oracle-writer write $writer STOP`, so an
 * experiment's writer="build DIR NDIRS MIB" arrives as
 * `write build DIR NDIRS MIB STOP`, which this binary takes as build.
 *
 * The build mode is compiled in only with -DORACLE_WRITER_BUILD
 * (oracle.sh's oracle-writer-build, put in the initramfs of experiments
 * whose writer= starts with "build "): without it the preprocessed code
 * is the unchanged write/unsparse writer, whose static binary stays
 * byte-identical, and so does every earlier experiment's initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 4096
#define CHUNK (64 * 1024)
#define MIN_FILE (256 * 1024)
#define MAX_FILE (2 * 1024 * 1024)
#define FSYNC_EVERY 8
#define REPORT_EVERY 64

static void die(const char *what)
{
	fprintf(stderr, "oracle-writer: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* read exactly n bytes unless the input ends; returns what was read */
static size_t read_full(int fd, unsigned char *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("read");
		}
		if (!r)
			break;
		got += (size_t)r;
	}
	return got;
}

static int unsparse(const char *out)
{
	static unsigned char buf[BLOCK];
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	off_t off = 0;
	size_t n, written = 0;

	if (fd < 0)
		die(out);
	while ((n = read_full(0, buf, sizeof(buf))) > 0) {
		if (!all_zero(buf, n)) {
			if (pwrite(fd, buf, n, off) != (ssize_t)n)
				die("pwrite");
			written++;
		}
		off += (off_t)n;
	}
	if (ftruncate(fd, off) || close(fd))
		die("ftruncate");
	printf("unsparse %s bytes=%lld blocks_written=%zu\n", out, (long long)off, written);
	return 0;
}

static uint64_t lcg_state = 0x6f7261636c65ULL;	/* "oracle": the fixed seed */

static uint64_t lcg_next(void)
{
	/* Knuth's MMIX constants; the high bits are the random ones */
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return lcg_state >> 33;
}

static int write_loop(const char *dir, const char *mib_s, const char *stop)
{
	static unsigned char buf[CHUNK];
	char *end;
	unsigned long names = strtoul(mib_s, &end, 10);
	uint64_t files = 0, bytes = 0, fsyncs = 0, t0 = now_ns();
	char path[4096];

	if (*end || !names || names > 9999) {
		fprintf(stderr, "oracle-writer: '%s' is not a size in MiB (1 to 9999)\n", mib_s);
		return 2;
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	printf("writer %s names=%lu sizes=%d-%d fsync_every=%d start_ns=%llu\n", dir, names,
	       MIN_FILE, MAX_FILE, FSYNC_EVERY, (unsigned long long)t0);
	while (access(stop, F_OK)) {
		size_t size = MIN_FILE + (size_t)(lcg_next() % ((MAX_FILE - MIN_FILE) / BLOCK + 1)) * BLOCK;
		int fd;

		snprintf(path, sizeof(path), "%s/obj-%04lu.o", dir, (unsigned long)(files % names));
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die(path);
		memset(buf, (int)(files & 0x7f) | 1, sizeof(buf));
		for (size_t off = 0; off < size; off += CHUNK) {
			size_t n = size - off < CHUNK ? size - off : CHUNK;

			if (write(fd, buf, n) != (ssize_t)n)
				die("write");
		}
		files++;
		bytes += size;
		if (files % FSYNC_EVERY == 0) {
			if (fsync(fd))
				die("fsync");
			fsyncs++;
		}
		if (close(fd))
			die("close");
		if (files % REPORT_EVERY == 0)
			printf("writer files=%llu mib=%llu fsyncs=%llu ns=%llu\n", (unsigned long long)files,
			       (unsigned long long)(bytes >> 20), (unsigned long long)fsyncs,
			       (unsigned long long)now_ns());
	}
	printf("writer done files=%llu bytes=%llu fsyncs=%llu start_ns=%llu end_ns=%llu\n",
	       (unsigned long long)files, (unsigned long long)bytes, (unsigned long long)fsyncs,
	       (unsigned long long)t0, (unsigned long long)now_ns());
	return 0;
}

#ifdef ORACLE_WRITER_BUILD
#define CMD_FILE BLOCK
#define MAX_LIVE 65536	/* objects live at once: MIB 9999 / 256 KiB < 40,000 */

static struct object {
	unsigned long dir;
	uint64_t n;
	size_t size;
} live[MAX_LIVE];

static void write_file(const char *path, int flags, size_t size, unsigned char *buf, int do_fsync)
{
	int fd = open(path, O_WRONLY | O_CREAT | flags, 0644);

	if (fd < 0)
		die(path);
	for (size_t off = 0; off < size; off += CHUNK) {
		size_t n = size - off < CHUNK ? size - off : CHUNK;

		if (write(fd, buf, n) != (ssize_t)n)
			die("write");
	}
	if (do_fsync && fsync(fd))
		die("fsync");
	if (close(fd))
		die("close");
}

static unsigned long parse_count(const char *s, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*end || !v || v > 9999) {
		fprintf(stderr, "oracle-writer: '%s' is not %s (1 to 9999)\n", s, what);
		exit(2);
	}
	return v;
}

static int build_loop(const char *dir, const char *ndirs_s, const char *mib_s, const char *stop)
{
	static unsigned char buf[CHUNK];
	unsigned long ndirs = parse_count(ndirs_s, "a number of directories");
	uint64_t limit = (uint64_t)parse_count(mib_s, "a size in MiB") << 20;
	uint64_t files = 0, bytes = 0, fsyncs = 0, unlinks = 0, live_bytes = 0, t0 = now_ns();
	size_t head = 0, count = 0;
	char path[4096], to[4096];

	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	for (unsigned long k = 0; k < ndirs; k++) {
		snprintf(path, sizeof(path), "%s/d%04lu", dir, k);
		if (mkdir(path, 0755) && errno != EEXIST)
			die(path);
	}
	printf("writer build %s dirs=%lu mib=%llu sizes=%d-%d cmd=%d fsync_every=%d start_ns=%llu dirs_ns=%llu\n",
	       dir, ndirs, (unsigned long long)(limit >> 20), MIN_FILE, MAX_FILE, CMD_FILE, FSYNC_EVERY,
	       (unsigned long long)t0, (unsigned long long)now_ns());
	while (access(stop, F_OK)) {
		size_t size = MIN_FILE + (size_t)(lcg_next() % ((MAX_FILE - MIN_FILE) / BLOCK + 1)) * BLOCK;
		unsigned long k = (unsigned long)(lcg_next() % ndirs);
		struct object *o;

		memset(buf, (int)(files & 0x7f) | 1, sizeof(buf));
		snprintf(path, sizeof(path), "%s/d%04lu/.obj%llu.o.tmp", dir, k, (unsigned long long)files);
		snprintf(to, sizeof(to), "%s/d%04lu/obj%llu.o", dir, k, (unsigned long long)files);
		write_file(path, O_EXCL, size, buf, (files + 1) % FSYNC_EVERY == 0);
		if (rename(path, to))
			die("rename");
		snprintf(path, sizeof(path), "%s/d%04lu/.obj%llu.o.cmd", dir, k, (unsigned long long)files);
		write_file(path, O_EXCL, CMD_FILE, buf, 0);
		if ((files + 1) % FSYNC_EVERY == 0)
			fsyncs++;
		o = &live[(head + count) % MAX_LIVE];
		o->dir = k;
		o->n = files;
		o->size = size + CMD_FILE;
		count++;
		live_bytes += o->size;
		files++;
		bytes += size + CMD_FILE;
		while (count > 1 && (live_bytes > limit || count == MAX_LIVE)) {
			o = &live[head];
			snprintf(path, sizeof(path), "%s/d%04lu/obj%llu.o", dir, o->dir, (unsigned long long)o->n);
			if (unlink(path))
				die(path);
			snprintf(path, sizeof(path), "%s/d%04lu/.obj%llu.o.cmd", dir, o->dir,
				 (unsigned long long)o->n);
			if (unlink(path))
				die(path);
			live_bytes -= o->size;
			head = (head + 1) % MAX_LIVE;
			count--;
			unlinks++;
		}
		if (files % REPORT_EVERY == 0)
			printf("writer files=%llu mib=%llu fsyncs=%llu unlinked=%llu live_kib=%llu ns=%llu\n",
			       (unsigned long long)files, (unsigned long long)(bytes >> 20),
			       (unsigned long long)fsyncs, (unsigned long long)unlinks,
			       (unsigned long long)(live_bytes >> 10), (unsigned long long)now_ns());
	}
	printf("writer done files=%llu bytes=%llu fsyncs=%llu unlinked=%llu live_kib=%llu start_ns=%llu end_ns=%llu\n",
	       (unsigned long long)files, (unsigned long long)bytes, (unsigned long long)fsyncs,
	       (unsigned long long)unlinks, (unsigned long long)(live_bytes >> 10), (unsigned long long)t0,
	       (unsigned long long)now_ns());
	return 0;
}
#endif

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "unsparse"))
		return unsparse(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "write"))
		return write_loop(argv[2], argv[3], argv[4]);
#ifdef ORACLE_WRITER_BUILD
	if (argc == 6 && !strcmp(argv[1], "build"))
		return build_loop(argv[2], argv[3], argv[4], argv[5]);
	if (argc == 7 && !strcmp(argv[1], "write") && !strcmp(argv[2], "build"))
		return build_loop(argv[3], argv[4], argv[5], argv[6]);
	fprintf(stderr, "usage: oracle-writer unsparse OUT < IMAGE | write DIR MIB STOP | "
			"build DIR NDIRS MIB STOP | write build DIR NDIRS MIB STOP\n");
#else
	fprintf(stderr, "usage: oracle-writer unsparse OUT < IMAGE | write DIR MIB STOP\n");
#endif
	return 2;
}
