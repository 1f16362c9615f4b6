/*
 * oracle-kpf: counts of /proc/kpageflags over a pfn range, by region, at
 * intervals of the guest's clock (calib/arm64-writer1-meta.exp; put in an
 * experiment's initramfs only with tools="kpf"). For the block device's
 * metadata pages that ext4 and jbd2 hold (README, "A journaling writer"):
 * PRIVATE set and UPTODATE clear ("cand"), of those DIRTY, LRU, WRITEBACK,
 * MMAP, REFERENCED; and PRIVATE|UPTODATE ("pu": file data with buffer
 * heads), of those DIRTY and WRITEBACK.
 *
 *   oracle-kpf [-i MS] [-s STOP] [-w WRITER] [-l LABEL] [-n N] SUM PFNS FIRST END NAME:START:COUNT...
 *
 * Scans pfns FIRST..END-1 (64 KiB reads: 8,192 pfns), appends to SUM one
 * line per region per sample (the regions given, then "out" for the rest)
 * and to PFNS one line per sample listing every candidate pfn, compactly:
 * "DELTA/CODE" in hex, DELTA the pfn less the previous candidate's (the
 * first's less 0), CODE the sum of 1 DIRTY, 2 LRU, 4 WRITEBACK,
 * 8 REFERENCED, 10 MMAP. Each line has the sample's label and index, the
 * guest clock (CLOCK_MONOTONIC ns: instructions under -icount) at the
 * scan's start, the scan's own ns, and the writer's files so far (the last
 * "files=" of WRITER). With -s it samples every MS ms (default 1000) until
 * STOP exists, then once more (label "final"); without, once. -n N is the
 * first index (default 0). Its memory: the 64 KiB buffer, stdio's, and
 * what it appends to SUM and PFNS (tmpfs).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KPF_REFERENCED 2
#define KPF_UPTODATE 3
#define KPF_DIRTY 4
#define KPF_LRU 5
#define KPF_SLAB 7
#define KPF_WRITEBACK 8
#define KPF_MMAP 11
#define KPF_NOPAGE 20
#define KPF_PRIVATE 35
#define B(n) (1ULL << (n))
#define HAS(f, n) ((unsigned)(((f) >> (n)) & 1))

#define CHUNK 8192
#define MAXR 8

static uint64_t buf[CHUNK];

struct region {
	const char *name;
	unsigned long start, count;
	unsigned long cand, dirty, lru, wb, mmap, ref, pu, pudirty, puwb;
};

static struct region reg[MAXR + 1];
static int nreg;

static unsigned long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static long writer_files(const char *path)
{
	char line[256];
	long files = -1;
	FILE *f;
	if (!path || !(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "files=");
		if (p)
			files = strtol(p + 6, NULL, 10);
	}
	fclose(f);
	return files;
}

static struct region *region_of(unsigned long pfn)
{
	for (int i = 0; i < nreg; i++)
		if (pfn >= reg[i].start && pfn < reg[i].start + reg[i].count)
			return &reg[i];
	return &reg[nreg];
}

static void sample(int fd, FILE *sum, FILE *pfns, const char *label, long idx, unsigned long first,
		   unsigned long end, const char *writer)
{
	unsigned long long t0 = now_ns(), t1;
	long files = writer_files(writer);
	for (int i = 0; i <= nreg; i++) {
		struct region *r = &reg[i];
		r->cand = r->dirty = r->lru = r->wb = r->mmap = r->ref = r->pu = r->pudirty = r->puwb = 0;
	}
	unsigned long prev = 0;
	fprintf(pfns, "pfns %s %ld ns=%llu files=%ld", label, idx, t0, files);
	for (unsigned long pfn = first; pfn < end;) {
		unsigned long n = end - pfn < CHUNK ? end - pfn : CHUNK;
		ssize_t got = pread(fd, buf, n * 8, (off_t)pfn * 8);
		if (got <= 0) {
			fprintf(stderr, "oracle-kpf: read at pfn 0x%lx: %s\n", pfn, got ? strerror(errno) : "end");
			break;
		}
		n = (unsigned long)got / 8;
		for (unsigned long k = 0; k < n; k++) {
			uint64_t f = buf[k];
			if (!(f & B(KPF_PRIVATE)) || (f & (B(KPF_NOPAGE) | B(KPF_SLAB))))
				continue;
			struct region *r = region_of(pfn + k);
			if (f & B(KPF_UPTODATE)) {
				r->pu++;
				r->pudirty += !!(f & B(KPF_DIRTY));
				r->puwb += !!(f & B(KPF_WRITEBACK));
				continue;
			}
			r->cand++;
			r->dirty += !!(f & B(KPF_DIRTY));
			r->lru += !!(f & B(KPF_LRU));
			r->wb += !!(f & B(KPF_WRITEBACK));
			r->mmap += !!(f & B(KPF_MMAP));
			r->ref += !!(f & B(KPF_REFERENCED));
			fprintf(pfns, " %lx/%x", pfn + k - prev,
				HAS(f, KPF_DIRTY) | HAS(f, KPF_LRU) << 1 | HAS(f, KPF_WRITEBACK) << 2 |
					HAS(f, KPF_REFERENCED) << 3 | HAS(f, KPF_MMAP) << 4);
			prev = pfn + k;
		}
		pfn += n;
	}
	t1 = now_ns();
	fprintf(pfns, "\n");
	for (int i = 0; i <= nreg; i++) {
		struct region *r = &reg[i];
		fprintf(sum,
			"sample %s %ld ns=%llu scan_ns=%llu files=%ld region=%s cand=%lu dirty=%lu lru=%lu "
			"wb=%lu mmap=%lu ref=%lu pu=%lu pudirty=%lu puwb=%lu\n",
			label, idx, t0, t1 - t0, files, r->name, r->cand, r->dirty, r->lru, r->wb, r->mmap,
			r->ref, r->pu, r->pudirty, r->puwb);
	}
	fflush(sum);
	fflush(pfns);
}

static void usage(void)
{
	fprintf(stderr, "usage: oracle-kpf [-i MS] [-s STOP] [-w WRITER] [-l LABEL] [-n N] SUM PFNS FIRST END "
			"NAME:START:COUNT...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long ms = 1000, idx = 0;
	const char *stop = NULL, *writer = NULL, *label = "t";
	int c;
	while ((c = getopt(argc, argv, "i:s:w:l:n:")) != -1) {
		switch (c) {
		case 'i': ms = strtol(optarg, NULL, 10); break;
		case 's': stop = optarg; break;
		case 'w': writer = optarg; break;
		case 'l': label = optarg; break;
		case 'n': idx = strtol(optarg, NULL, 10); break;
		default: usage();
		}
	}
	if (argc - optind < 4 || argc - optind - 4 > MAXR || ms <= 0)
		usage();
	FILE *sum = fopen(argv[optind], "a"), *pfns = fopen(argv[optind + 1], "a");
	unsigned long first = strtoul(argv[optind + 2], NULL, 0), end = strtoul(argv[optind + 3], NULL, 0);
	int fd = open("/proc/kpageflags", O_RDONLY);
	if (!sum || !pfns || fd < 0) {
		perror("oracle-kpf");
		return 1;
	}
	for (int a = optind + 4; a < argc; a++) {
		char *s = argv[a], *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			usage();
		*c1 = 0;
		reg[nreg].name = s;
		reg[nreg].start = strtoul(c1 + 1, NULL, 0);
		reg[nreg].count = strtoul(c2 + 1, NULL, 0);
		nreg++;
	}
	reg[nreg].name = "out";
	if (!stop) {
		sample(fd, sum, pfns, label, idx, first, end, writer);
		return 0;
	}
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	for (;; idx++) {
		if (access(stop, F_OK) == 0) {
			sample(fd, sum, pfns, "final", idx, first, end, writer);
			break;
		}
		sample(fd, sum, pfns, label, idx, first, end, writer);
		nanosleep(&ts, NULL);
	}
	return 0;
}
