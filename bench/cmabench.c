// SPDX-License-Identifier: GPL-2.0
/*
 * cmabench — libcma's page allocator measured beside general-purpose
 * allocators, through the public API only. One line per figure: the value
 * with its unit and, where there is one, the ratio to a reference measured
 * in the same run. Nothing here asserts a speed; it only reports.
 *
 * The idea that keeps the comparison fair: every allocator runs the same
 * loop (alloc_one/free_one switch on a loop-invariant kind, which -O3
 * unswitches) over the same precomputed sequence, and each timed figure is
 * the best of BENCH_RUNS runs. mimalloc and jemalloc are dlopen()ed with
 * RTLD_LOCAL and called through dlsym, because linking Debian's shared
 * libraries would replace malloc for the whole process (libcma included).
 *
 * Those machines are metadata_only: libcma hands out page descriptors,
 * never bytes, and the reference allocators' memory is never touched
 * either, so no figure pays for page faults. The migration and CMA figures
 * (migrate_*, cma_alloc_*) move real bytes, so they run on a backed
 * machine written through once beforehand, and their references are
 * memcpy or memset of the same bytes between touched buffers. Their ratio
 * is of the printed values: migrate/memcpy and alloc/memcpy compare MiB/s
 * (above 1: faster than memcpy), alloc/memset compares us (below 1:
 * faster than memset). Owner data is checked after every measured
 * migration; damaged data fails the run (exit 1).
 *
 * Usage: cmabench [--quick] [FILTER]   FILTER: a substring of a figure
 * name; a group (order0_pair_*, mix_*, metadata_*) runs whole when any of
 * its names matches, since its ratios need its libcma figure; the
 * migration and CMA figures carry their own reference and run alone.
 * The migration and CMA figures run under each kernel profile: 3.5's
 * under their plain names, 6.12's with "@6.12" after them.
 * CMA_BENCH_SEED=N replaces the mix's fixed seed.
 */
#include <cma/cma.h>
#include "lib/prandom.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_RUNS	3
#define PAGE_BYTES	4096ul
#define MIX_SLOTS	256		/* live allocations in the mix */
#define MIX_MAX_ORDER	10
#define KERNEL_PAGE_DESC 64		/* sizeof(struct page) on x86-64 */

/* Iteration counts; --quick divides them for CI. */
struct bench_params {
	unsigned long pairs;		/* order-0 alloc+free pairs per run */
	unsigned long pair_warmup;
	unsigned long mix_ops;		/* free+alloc ops per run */
	unsigned long migrate_mib;	/* owner pages migrated in the migration figure */
	uint64_t seed;
};

/* ------------------------------------------------------------------ */
/* Allocators                                                          */
/* ------------------------------------------------------------------ */

enum alloc_kind {
	KIND_LIBCMA,		/* cma_alloc_pages / cma_free_pages */
	KIND_GLIBC,		/* aligned_alloc / free, linked normally */
	KIND_MIMALLOC,		/* mi_malloc_aligned / mi_free via dlsym */
	KIND_MALLOCX,		/* jemalloc mallocx / dallocx via dlsym */
	KIND_DL_ALIGNED,	/* jemalloc without mallocx: its aligned_alloc / free */
};

/* jemalloc's MALLOCX_LG_ALIGN(la), spelled here to need no header. */
#define JE_MALLOCX_LG_ALIGN(la)	((int)(la))
#define JE_FLAGS_4K		JE_MALLOCX_LG_ALIGN(12)

struct allocator {
	const char *name;
	enum alloc_kind kind;
	bool loaded;			/* false: could not be loaded, skip */
	char why[160];			/* when !loaded: dlerror() or the missing symbol */
	struct cma_mm *mm;		/* KIND_LIBCMA: the machine, set per figure */
	void *dl;			/* dlopen handle */
	void *(*mi_malloc_aligned)(size_t size, size_t align);
	void (*mi_free)(void *p);
	void *(*mallocx)(size_t size, int flags);
	void (*dallocx)(void *p, int flags);
	void *(*dl_aligned_alloc)(size_t align, size_t size);
	void (*dl_free)(void *p);
};

static void *must_sym(struct allocator *a, const char *sym)
{
	void *fn = dlsym(a->dl, sym);

	if (!fn && a->loaded) {
		snprintf(a->why, sizeof(a->why), "symbol %s not found", sym);
		a->loaded = false;
	}
	return fn;
}

static void open_library(struct allocator *a, const char *soname)
{
	a->dl = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	a->loaded = a->dl != NULL;
	if (!a->dl)
		snprintf(a->why, sizeof(a->why), "%s", dlerror());
}

static void load_mimalloc(struct allocator *a)
{
	*a = (struct allocator){ .name = "mimalloc", .kind = KIND_MIMALLOC };
	open_library(a, "libmimalloc.so.2");
	if (!a->loaded)
		return;
	a->mi_malloc_aligned = (void *(*)(size_t, size_t))must_sym(a, "mi_malloc_aligned");
	a->mi_free = (void (*)(void *))must_sym(a, "mi_free");
}

/*
 * jemalloc's initial-exec TLS (2.6 KiB) exceeds the surplus glibc keeps for
 * dlopen() (512 bytes by default): "cannot allocate memory in static TLS
 * block". The surplus is a tunable read at startup, so re-execute ourselves
 * once with it raised; if that fails, jemalloc is reported as not loaded.
 */
static void reexec_with_static_tls(char **argv)
{
	const char *old = getenv("GLIBC_TUNABLES");
	char buf[1024];

	if (old && strstr(old, "glibc.rtld.optional_static_tls"))
		return;
	snprintf(buf, sizeof(buf), "%s%sglibc.rtld.optional_static_tls=16384", old ? old : "",
		 old && *old ? ":" : "");
	if (setenv("GLIBC_TUNABLES", buf, 1))
		return;
	execv("/proc/self/exe", argv);
}

/* dlsym on an RTLD_LOCAL handle finds jemalloc's own aligned_alloc/free. */
static void load_jemalloc(struct allocator *a)
{
	*a = (struct allocator){ .name = "jemalloc", .kind = KIND_MALLOCX };
	open_library(a, "libjemalloc.so.2");
	if (!a->loaded)
		return;
	a->mallocx = (void *(*)(size_t, int))dlsym(a->dl, "mallocx");
	a->dallocx = (void (*)(void *, int))dlsym(a->dl, "dallocx");
	if (a->mallocx && a->dallocx)
		return;
	a->kind = KIND_DL_ALIGNED;
	a->dl_aligned_alloc = (void *(*)(size_t, size_t))must_sym(a, "aligned_alloc");
	a->dl_free = (void (*)(void *))must_sym(a, "free");
}

/* libcma returns a page descriptor; the loops only carry it as a pointer. */
static inline void *alloc_one(const struct allocator *a, unsigned order)
{
	size_t size = PAGE_BYTES << order;

	switch (a->kind) {
	case KIND_LIBCMA:
		return cma_alloc_pages(a->mm, CMA_GFP_KERNEL, order);
	case KIND_GLIBC:
		return aligned_alloc(PAGE_BYTES, size);
	case KIND_MIMALLOC:
		return a->mi_malloc_aligned(size, PAGE_BYTES);
	case KIND_MALLOCX:
		return a->mallocx(size, JE_FLAGS_4K);
	case KIND_DL_ALIGNED:
		return a->dl_aligned_alloc(PAGE_BYTES, size);
	}
	return NULL;
}

static inline void free_one(const struct allocator *a, void *p, unsigned order)
{
	switch (a->kind) {
	case KIND_LIBCMA:
		cma_free_pages(a->mm, p, order);
		return;
	case KIND_GLIBC:
		free(p);
		return;
	case KIND_MIMALLOC:
		a->mi_free(p);
		return;
	case KIND_MALLOCX:
		a->dallocx(p, JE_FLAGS_4K);
		return;
	case KIND_DL_ALIGNED:
		a->dl_free(p);
		return;
	}
}

/* Keep the compiler from pairing away an allocation whose result is unused. */
static inline void keep(void *p)
{
	__asm__ volatile("" : : "r"(p));
}

/* ------------------------------------------------------------------ */
/* Machines, time, output                                              */
/* ------------------------------------------------------------------ */

static struct cma_mm *boot_config(const struct cma_mm_config *cfg)
{
	struct cma_mm *mm;
	int ret = cma_mm_create(cfg, &mm);

	if (ret) {
		fprintf(stderr, "cmabench: cma_mm_create(%" PRIu64 " MiB): %s\n",
			cfg->banks[0].size >> 20, strerror(-ret));
		return NULL;
	}
	ret = cma_mm_boot(mm);
	if (ret) {
		fprintf(stderr, "cmabench: cma_mm_boot: %s\n", strerror(-ret));
		cma_mm_dmesg(mm, stderr);
		cma_mm_destroy(mm);
		return NULL;
	}
	return mm;
}

static struct cma_mm *boot_machine(uint64_t bytes)
{
	struct cma_bank bank = { 0, bytes };
	struct cma_mm_config cfg = {
		.banks = &bank, .nr_banks = 1,
		.zone_dma_end = 16 << 20, .zone_dma32_end = 4ull << 30,
		.metadata_only = true,
	};

	return boot_config(&cfg);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void print_skipped(const char *figure, const struct allocator *a)
{
	printf("%-26s %10s            %s not loaded (%s); no ratio\n", figure, "-", a->name,
	       a->why);
}

/* One figure line: value, unit, and ratio libcma/this when ref_ns > 0. */
static void print_figure(const char *figure, double value, const char *unit,
			 const char *ref_name, double ref_value, const char *note)
{
	printf("%-26s %10.1f %-10s", figure, value, unit);
	if (ref_name)
		printf("  libcma/%-8s %5.2f", ref_name, ref_value / value);
	printf("   (%s)\n", note);
}

/* ------------------------------------------------------------------ */
/* Figure 1: order-0 alloc+free pairs                                  */
/* ------------------------------------------------------------------ */

static bool pairs_loop(const struct allocator *a, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		void *p = alloc_one(a, 0);

		if (__builtin_expect(!p, 0))
			return false;
		keep(p);
		free_one(a, p, 0);
	}
	return true;
}

/* Best-of-BENCH_RUNS ns per pair after a warm-up, or a negative on failure. */
static double time_pairs(const struct allocator *a, const struct bench_params *bp)
{
	double best = -1;

	if (!pairs_loop(a, bp->pair_warmup))
		return -1;
	for (int run = 0; run < BENCH_RUNS; run++) {
		double t0 = now_ns();

		if (!pairs_loop(a, bp->pairs))
			return -1;
		double ns = (now_ns() - t0) / bp->pairs;

		if (best < 0 || ns < best)
			best = ns;
	}
	return best;
}

static int figure_pairs(struct allocator *allocs, int n, const struct bench_params *bp)
{
	char figure[64], note[160];
	double cma_ns = -1;

	allocs[0].mm = boot_machine(1ull << 30);
	if (!allocs[0].mm)
		return -1;
	snprintf(note, sizeof(note), "best of %d x %lu pairs, no bytes touched, 1 GiB metadata_only",
		 BENCH_RUNS, bp->pairs);
	for (int i = 0; i < n; i++) {
		const struct allocator *a = &allocs[i];

		snprintf(figure, sizeof(figure), "order0_pair_%s", a->name);
		if (!a->loaded) {
			print_skipped(figure, a);
			continue;
		}
		double ns = time_pairs(a, bp);

		if (ns < 0) {
			printf("%-26s %10s            allocation failed; no figure\n", figure, "-");
			continue;
		}
		if (a->kind == KIND_LIBCMA)
			cma_ns = ns;
		print_figure(figure, ns, "ns/pair", a->kind == KIND_LIBCMA || cma_ns < 0 ? NULL : a->name,
			     cma_ns, note);
	}
	cma_mm_destroy(allocs[0].mm);
	allocs[0].mm = NULL;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Figure 2: random mix of orders with a live set                      */
/* ------------------------------------------------------------------ */

/*
 * The op sequence, the same for every allocator: entry i is (slot << 8 |
 * order). The first MIX_SLOTS entries fill slot i and are not timed. The
 * order is geometric, min(10, trailing zeros): P(k) = 2^-(k+1).
 */
static uint16_t *make_mix_sequence(unsigned long ops, uint64_t seed)
{
	uint16_t *seq = malloc((MIX_SLOTS + ops) * sizeof(*seq));
	uint64_t s = seed;

	if (!seq)
		return NULL;
	for (unsigned long i = 0; i < MIX_SLOTS + ops; i++) {
		uint64_t r = prandom_u64_state(&s);
		unsigned order = __builtin_ctzll(r | (1ull << MIX_MAX_ORDER));
		unsigned slot = i < MIX_SLOTS ? i : (r >> 32) % MIX_SLOTS;

		seq[i] = (uint16_t)(slot << 8 | order);
	}
	return seq;
}

struct mix_state {
	void *ptr[MIX_SLOTS];
	uint8_t order[MIX_SLOTS];
	unsigned long failures;		/* allocations that returned NULL */
};

static void mix_step(const struct allocator *a, struct mix_state *st, uint16_t op)
{
	unsigned slot = op >> 8, order = op & 0xff;

	if (st->ptr[slot])
		free_one(a, st->ptr[slot], st->order[slot]);
	st->ptr[slot] = alloc_one(a, order);
	st->order[slot] = (uint8_t)order;
	st->failures += !st->ptr[slot];
}

static void mix_release(const struct allocator *a, struct mix_state *st)
{
	for (unsigned i = 0; i < MIX_SLOTS; i++) {
		if (st->ptr[i])
			free_one(a, st->ptr[i], st->order[i]);
		st->ptr[i] = NULL;
	}
}

/* One run: fill untimed, time the ops, release untimed. ns per op. */
static double mix_run(const struct allocator *a, const uint16_t *seq, unsigned long ops,
		      unsigned long *failures)
{
	struct mix_state st = { .failures = 0 };
	double t0, ns;

	for (unsigned long i = 0; i < MIX_SLOTS; i++)
		mix_step(a, &st, seq[i]);
	t0 = now_ns();
	for (unsigned long i = 0; i < ops; i++)
		mix_step(a, &st, seq[MIX_SLOTS + i]);
	ns = (now_ns() - t0) / ops;
	mix_release(a, &st);
	*failures += st.failures;
	return ns;
}

static double time_mix(const struct allocator *a, const uint16_t *seq, unsigned long ops,
		       unsigned long *failures)
{
	double best = -1;

	*failures = 0;
	mix_run(a, seq, ops / 10, failures);	/* warm-up */
	*failures = 0;
	for (int run = 0; run < BENCH_RUNS; run++) {
		double ns = mix_run(a, seq, ops, failures);

		if (best < 0 || ns < best)
			best = ns;
	}
	return best;
}

static int figure_mix(struct allocator *allocs, int n, const struct bench_params *bp)
{
	uint16_t *seq = make_mix_sequence(bp->mix_ops, bp->seed);
	char figure[64], note[200];
	double cma_ns = -1;

	if (!seq) {
		fprintf(stderr, "cmabench: no memory for the mix sequence\n");
		return -1;
	}
	allocs[0].mm = boot_machine(1ull << 30);
	if (!allocs[0].mm) {
		free(seq);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const struct allocator *a = &allocs[i];
		unsigned long failures;

		snprintf(figure, sizeof(figure), "mix_%s", a->name);
		if (!a->loaded) {
			print_skipped(figure, a);
			continue;
		}
		double ns = time_mix(a, seq, bp->mix_ops, &failures);

		if (a->kind == KIND_LIBCMA)
			cma_ns = ns;
		snprintf(note, sizeof(note),
			 "best of %d x %lu ops, orders 0..%d geometric, %d live, seed %" PRIu64
			 ", %lu failed allocs, no bytes touched, 1 GiB metadata_only",
			 BENCH_RUNS, bp->mix_ops, MIX_MAX_ORDER, MIX_SLOTS, bp->seed, failures);
		print_figure(figure, ns, "ns/op", a->kind == KIND_LIBCMA || cma_ns < 0 ? NULL : a->name,
			     cma_ns, note);
	}
	cma_mm_destroy(allocs[0].mm);
	allocs[0].mm = NULL;
	free(seq);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Figure 3: metadata bytes per page                                   */
/* ------------------------------------------------------------------ */

static long rss_bytes(void)
{
	unsigned long size, resident;
	FILE *f = fopen("/proc/self/statm", "r");
	int got;

	if (!f)
		return -1;
	got = fscanf(f, "%lu %lu", &size, &resident);
	fclose(f);
	return got == 2 ? (long)(resident * sysconf(_SC_PAGESIZE)) : -1;
}

/* Write every page; a plain memset after malloc may become a lazy calloc. */
static void touch(void *p, size_t bytes)
{
	volatile char *c = p;

	for (size_t i = 0; i < bytes; i += 4096)
		c[i] = 0;
}

/* Allocate order-0 pages until none is left; how many were taken. */
static unsigned long fill_machine(struct cma_mm *mm, struct cma_page **pages, unsigned long max)
{
	unsigned long n = 0;

	while (n < max) {
		pages[n] = cma_alloc_pages(mm, CMA_GFP_KERNEL | CMA_GFP_NOWARN, 0);
		if (!pages[n])
			break;
		n++;
	}
	return n;
}

/*
 * The descriptor size is not public, so measure what a machine costs:
 * the RSS growth from before cma_mm_create of a 4 GiB metadata_only
 * machine to the moment every page it will give is allocated (so every
 * descriptor is touched), divided by the machine's pages.
 */
static int figure_metadata(void)
{
	const uint64_t bytes = 4ull << 30;
	const unsigned long nr_pages = bytes / PAGE_BYTES;
	struct cma_page **pages = malloc(nr_pages * sizeof(*pages));
	struct cma_mm *mm;
	unsigned long taken;
	long before, after;
	char note[200];

	if (!pages) {
		fprintf(stderr, "cmabench: no memory for the page table\n");
		return -1;
	}
	touch(pages, nr_pages * sizeof(*pages));	/* its RSS is not the machine's */
	malloc_trim(0);
	before = rss_bytes();
	mm = boot_machine(bytes);
	if (!mm) {
		free(pages);
		return -1;
	}
	taken = fill_machine(mm, pages, nr_pages);
	after = rss_bytes();
	for (unsigned long i = 0; i < taken; i++)
		cma_free_pages(mm, pages[i], 0);
	cma_mm_destroy(mm);
	free(pages);
	if (before < 0 || after < 0) {
		printf("%-26s %10s            /proc/self/statm unreadable; no figure\n",
		       "metadata_per_page", "-");
		return 0;
	}
	double per_page = (double)(after - before) / nr_pages;

	snprintf(note, sizeof(note),
		 "RSS growth over create+boot+%lu of %lu pages allocated, 4 GiB metadata_only",
		 taken, nr_pages);
	printf("%-26s %10.1f %-10s  libcma/kernel   %5.2f   (%s; kernel struct page %d bytes)\n",
	       "metadata_per_page", per_page, "bytes/page", per_page / KERNEL_PAGE_DESC, note,
	       KERNEL_PAGE_DESC);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Figures 4-6: migration and CMA allocation, bytes included           */
/* ------------------------------------------------------------------ */

/*
 * A backed machine: 512 MiB in one zone, the default CMA area (cma=256M)
 * at its top. A movable request takes MIGRATE_CMA memory only when the
 * movable lists are empty, so a range of the area is filled with one
 * owner's pages in three steps: pin the memory outside the area with
 * unmovable pages (which never fall back to CMA), less a reserve that
 * keeps the watermarks met (pin_outside_area); allocate owner pages until
 * every page of the range is one, then free those that landed elsewhere;
 * unpin. The measured call then migrates the range into the memory just
 * unpinned or the rest of the area. Every page of the machine is written
 * once beforehand, so no measured run pays the host's page faults.
 */
#define CMA_BENCH_BYTES		(512ull << 20)
#define CMA_BENCH_CMDLINE	"cma=256M"
#define CMA_BENCH_ALIGN		8		/* alignment order of the allocations: 1 MiB */
#define CMA_RESERVE_BYTES	(8ull << 20)	/* free outside the area while it fills */
#define PIN_MAX_ORDER		10
#define IDLE_RUNS		5
#define MAX_REF_BYTES		(64ul << 20)	/* the largest figure's bytes */
#define MIB			(1ul << 20)

/* The owner of the movable pages: slot index -> page, and its bytes' checksum. */
struct bench_owner {
	struct cma_page **page;		/* NULL: the slot holds nothing */
	uint64_t *sum;
	unsigned long nr_slots;
	unsigned long used;		/* slots handed out since the last owner_drop_all */
	unsigned long migrated;		/* ops->migrate calls that moved a slot */
};

static int bench_migrate(void *owner, uint64_t index, struct cma_page *from, struct cma_page *to)
{
	struct bench_owner *o = owner;

	if (index >= o->nr_slots || o->page[index] != from)
		return -EAGAIN;
	o->page[index] = to;
	o->migrated++;
	return 0;
}

/* Our pages hold data that exists nowhere else: never dropped. */
static int bench_reclaim(void *owner, uint64_t index, struct cma_page *page)
{
	return -EAGAIN;
}

static const struct cma_owner_ops bench_owner_ops = {
	.migrate = bench_migrate, .reclaim = bench_reclaim, .anon = false,
};

struct pin {
	struct cma_page *page;		/* NULL: given back */
	unsigned order;
};

struct cma_bench {
	struct cma_mm *mm;
	unsigned long base, count;	/* the default area, in pfns */
	unsigned long machine_pages;
	struct bench_owner owner;
	struct pin *pins;
	unsigned long nr_pins;
	uint64_t generation;		/* seeds each fill's bytes */
	bool prefault;			/* write every page taken, not only the kept ones */
	unsigned char *src, *dst;	/* reference buffers, MAX_REF_BYTES each, touched */
};

/* Keep a store whose result is never read. */
static inline void clobber(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

static double mib_per_s(unsigned long bytes, double ns)
{
	return (double)bytes / MIB / (ns / 1e9);
}

/* Write @page's bytes from @seed; the checksum (FNV-1a over words) of what was written. */
static uint64_t page_fill(struct cma_mm *mm, struct cma_page *page, uint64_t seed)
{
	uint64_t *w = cma_page_address(mm, page), h = 0xcbf29ce484222325ull;

	for (unsigned i = 0; i < PAGE_BYTES / 8; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		w[i] = seed;
		h = (h ^ seed) * 0x100000001b3ull;
	}
	return h;
}

static uint64_t page_sum(struct cma_mm *mm, struct cma_page *page)
{
	const uint64_t *w = cma_page_address(mm, page);
	uint64_t h = 0xcbf29ce484222325ull;

	for (unsigned i = 0; i < PAGE_BYTES / 8; i++)
		h = (h ^ w[i]) * 0x100000001b3ull;
	return h;
}

static void owner_drop_all(struct cma_bench *b)
{
	struct bench_owner *o = &b->owner;

	for (unsigned long i = 0; i < o->used; i++) {
		if (o->page[i])
			cma_free_pages(b->mm, o->page[i], 0);
		o->page[i] = NULL;
	}
	o->used = 0;
	o->migrated = 0;
}

/*
 * Owner pages whose bytes no longer match their checksum, or that still
 * lie in [start, end), which the measured call should have emptied.
 */
static unsigned long owner_damaged(struct cma_bench *b, unsigned long start, unsigned long end,
				   unsigned long *checked)
{
	struct bench_owner *o = &b->owner;
	unsigned long bad = 0;

	*checked = 0;
	for (unsigned long i = 0; i < o->used; i++) {
		unsigned long pfn;

		if (!o->page[i])
			continue;
		pfn = cma_page_to_pfn(b->mm, o->page[i]);
		bad += (pfn >= start && pfn < end) || page_sum(b->mm, o->page[i]) != o->sum[i];
		(*checked)++;
	}
	return bad;
}

static void pin_order(struct cma_bench *b, unsigned order)
{
	struct cma_page *page;

	/* no CMA_GFP_WAIT: fail at once, without reclaim or compaction */
	while (b->nr_pins < b->machine_pages &&
	       (page = cma_alloc_pages(b->mm, CMA_GFP_NOWARN, order))) {
		if (b->prefault)
			memset(cma_page_address(b->mm, page), 0, PAGE_BYTES << order);
		b->pins[b->nr_pins++] = (struct pin){ page, order };
	}
}

/*
 * Every free page outside the CMA area as unmovable pages, except a
 * reserve that keeps the watermarks met while the area fills up. A
 * movable request falls back to the largest free block of any type, CMA
 * first only among equals, so the reserve must be single pages: the
 * largest pins are given back, taken again as single pages, and those at
 * even pfns freed; their buddies stay pinned, so they cannot merge.
 */
static void pin_outside_area(struct cma_bench *b)
{
	unsigned long reserve = 2 * CMA_RESERVE_BYTES / PAGE_BYTES, first_single;

	b->nr_pins = 0;
	for (unsigned order = PIN_MAX_ORDER; order > 0; order--)
		pin_order(b, order);
	for (unsigned long i = 0; i < b->nr_pins && reserve; i++) {
		unsigned long n = 1ul << b->pins[i].order;

		cma_free_pages(b->mm, b->pins[i].page, b->pins[i].order);
		b->pins[i].page = NULL;
		reserve -= n < reserve ? n : reserve;
	}
	first_single = b->nr_pins;
	pin_order(b, 0);
	for (unsigned long i = first_single; i < b->nr_pins; i++) {
		if (cma_page_to_pfn(b->mm, b->pins[i].page) % 2)
			continue;
		cma_free_pages(b->mm, b->pins[i].page, 0);
		b->pins[i].page = NULL;
	}
}

static void unpin(struct cma_bench *b)
{
	for (unsigned long i = 0; i < b->nr_pins; i++) {
		if (b->pins[i].page)
			cma_free_pages(b->mm, b->pins[i].page, b->pins[i].order);
	}
	b->nr_pins = 0;
}

/*
 * Owner pages until every page of [start, end) is one. Those that landed
 * elsewhere are freed only at the end (freed at once, they would come
 * straight back); the kept ones get their bytes. -ENOMEM if the range
 * could not be covered.
 */
static int fill_range(struct cma_bench *b, unsigned long start, unsigned long end)
{
	struct bench_owner *o = &b->owner;
	unsigned long covered = 0;
	bool drained = false;

	b->generation++;
	while (covered < end - start && o->used < o->nr_slots) {
		struct cma_page *page = cma_alloc_movable(b->mm, CMA_GFP_NOWARN, 0, &bench_owner_ops,
							  o, o->used);
		unsigned long pfn;

		/* from 5.14 free pages may wait on the per-CPU lists of higher orders */
		if (!page && !drained) {
			cma_drain_all_pages(b->mm);
			drained = true;
			continue;
		}
		if (!page)
			break;
		o->page[o->used++] = page;
		pfn = cma_page_to_pfn(b->mm, page);
		covered += pfn >= start && pfn < end;
		if (b->prefault)
			memset(cma_page_address(b->mm, page), 0, PAGE_BYTES);
	}
	for (unsigned long i = 0; i < o->used; i++) {
		unsigned long pfn = cma_page_to_pfn(b->mm, o->page[i]);

		if (pfn >= start && pfn < end) {
			o->sum[i] = page_fill(b->mm, o->page[i], i ^ b->generation << 40);
			continue;
		}
		cma_free_pages(b->mm, o->page[i], 0);
		o->page[i] = NULL;
	}
	if (covered < end - start) {
		fprintf(stderr, "cmabench: only %lu of the %lu pages from pfn %#lx became owner pages\n",
			covered, end - start, start);
		return -ENOMEM;
	}
	return 0;
}

/* [start, end) full of owner pages, the rest of memory free; nothing owned on failure. */
static int prepare_full(struct cma_bench *b, unsigned long start, unsigned long end)
{
	int ret;

	pin_outside_area(b);
	ret = fill_range(b, start, end);
	unpin(b);
	if (ret)
		owner_drop_all(b);
	return ret;
}

static void cma_bench_teardown(struct cma_bench *b)
{
	if (b->mm) {
		owner_drop_all(b);
		cma_mm_destroy(b->mm);
	}
	free(b->owner.page);
	free(b->owner.sum);
	free(b->pins);
	free(b->src);
	free(b->dst);
}

static int cma_bench_setup(struct cma_bench *b, const char *kernel)
{
	struct cma_bank bank = { 0, CMA_BENCH_BYTES };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .cmdline = CMA_BENCH_CMDLINE,
				     .kernel = kernel };
	struct cma *area;
	int ret;

	*b = (struct cma_bench){ .machine_pages = CMA_BENCH_BYTES / PAGE_BYTES };
	b->mm = boot_config(&cfg);
	if (!b->mm)
		return -1;
	area = cma_dev_get_cma_area(b->mm, NULL);
	if (!area) {
		fprintf(stderr, "cmabench: %s gave no default CMA area\n", CMA_BENCH_CMDLINE);
		goto fail;
	}
	b->base = cma_area_base_pfn(area);
	b->count = cma_area_count(area);
	b->owner.nr_slots = b->machine_pages;
	b->owner.page = calloc(b->machine_pages, sizeof(*b->owner.page));
	b->owner.sum = calloc(b->machine_pages, sizeof(*b->owner.sum));
	b->pins = calloc(b->machine_pages, sizeof(*b->pins));
	b->src = malloc(MAX_REF_BYTES);
	b->dst = malloc(MAX_REF_BYTES);
	if (!b->owner.page || !b->owner.sum || !b->pins || !b->src || !b->dst) {
		fprintf(stderr, "cmabench: no memory for the owner table or reference buffers\n");
		goto fail;
	}
	memset(b->src, 0xa5, MAX_REF_BYTES);
	memset(b->dst, 0x5a, MAX_REF_BYTES);
	b->prefault = true;
	ret = prepare_full(b, b->base, b->base + b->count);
	b->prefault = false;
	owner_drop_all(b);
	if (ret)
		goto fail;
	return 0;
fail:
	cma_bench_teardown(b);
	return -1;
}

/* Best of @runs: ns to copy (or, !copy, to set) @bytes in the reference buffers. */
static double time_reference(struct cma_bench *b, size_t bytes, bool copy, int runs)
{
	double best = -1;

	for (int run = 0; run < runs; run++) {
		double t0 = now_ns(), ns;

		if (copy)
			memcpy(b->dst, b->src, bytes);
		else
			memset(b->dst, run + 1, bytes);
		clobber(b->dst);
		ns = now_ns() - t0;
		if (best < 0 || ns < best)
			best = ns;
	}
	return best;
}

static void print_cma_figure(const char *figure, double value, const char *unit,
			     const char *ratio_name, double ratio, const char *note)
{
	printf("%-26s %10.1f %-10s  %-15s %5.2f   (%s)\n", figure, value, unit, ratio_name, ratio,
	       note);
}

static void print_no_figure(const char *figure, const char *why)
{
	printf("%-26s %10s            %s; no figure\n", figure, "-", why);
}

/* Damaged owner data fails the whole bench: a fast migration that loses bytes is no figure. */
static int report_damage(const char *figure, unsigned long bad, unsigned long checked)
{
	if (!bad)
		return 0;
	fprintf(stderr, "cmabench: %s: data: %lu of %lu owner pages damaged or left in the range\n",
		figure, bad, checked);
	print_no_figure(figure, "owner data damaged");
	return -1;
}

/*
 * The first @mib MiB of the area full of owner pages, all of them moved
 * by one cma_alloc_contig_range of exactly that range.
 */
static int figure_migrate(struct cma_bench *b, const char *figure, unsigned long mib)
{
	const unsigned long n = mib * MIB / PAGE_BYTES;
	unsigned long bad = 0, checked = 0, migrated = 0;
	double best = -1, copy_ns;
	char note[200];

	for (int run = 0; run < BENCH_RUNS && !bad; run++) {
		double t0, ns;
		int ret;

		if (prepare_full(b, b->base, b->base + n)) {
			print_no_figure(figure, "could not fill the range");
			return -1;
		}
		t0 = now_ns();
		ret = cma_alloc_contig_range(b->mm, b->base, b->base + n, CMA_MIGRATE_CMA);
		ns = now_ns() - t0;
		if (ret) {
			owner_drop_all(b);
			snprintf(note, sizeof(note), "cma_alloc_contig_range: %s", strerror(-ret));
			print_no_figure(figure, note);
			return -1;
		}
		migrated = b->owner.migrated;
		bad = owner_damaged(b, b->base, b->base + n, &checked);
		cma_free_contig_range(b->mm, b->base, n);
		owner_drop_all(b);
		if (best < 0 || ns < best)
			best = ns;
	}
	if (report_damage(figure, bad, checked))
		return -1;
	copy_ns = time_reference(b, n * PAGE_BYTES, true, BENCH_RUNS);
	snprintf(note, sizeof(note),
		 "%.0f pages/s, best of %d, %lu owner pages migrated by alloc_contig_range, data: intact",
		 n / (best / 1e9), BENCH_RUNS, migrated);
	print_cma_figure(figure, mib_per_s(n * PAGE_BYTES, best), "MiB/s", "migrate/memcpy",
			 copy_ns / best, note);
	return 0;
}

/* µs per allocation of @mib MiB from the idle area, released between runs. */
static int figure_alloc_idle(struct cma_bench *b, const char *figure, unsigned long mib)
{
	const int n = (int)(mib * MIB / PAGE_BYTES);
	double best = -1, set_ns;
	char note[200];

	for (int run = 0; run < IDLE_RUNS; run++) {
		double t0 = now_ns(), ns;
		struct cma_page *pages = cma_dma_alloc_from_contiguous(b->mm, NULL, n, CMA_BENCH_ALIGN);

		ns = now_ns() - t0;
		if (!pages) {
			print_no_figure(figure, "cma_dma_alloc_from_contiguous failed");
			return -1;
		}
		if (!cma_dma_release_from_contiguous(b->mm, NULL, pages, n)) {
			print_no_figure(figure, "cma_dma_release_from_contiguous refused");
			return -1;
		}
		if (best < 0 || ns < best)
			best = ns;
	}
	set_ns = time_reference(b, (size_t)n * PAGE_BYTES, false, IDLE_RUNS);
	snprintf(note, sizeof(note),
		 "best of %d, align order %d, nothing to migrate; memset %.1f us, <1: faster",
		 IDLE_RUNS, CMA_BENCH_ALIGN, set_ns / 1e3);
	print_cma_figure(figure, best / 1e3, "us/alloc", "alloc/memset", best / set_ns, note);
	return 0;
}

/* MiB/s of an @mib MiB allocation from an area full of owner pages. */
static int figure_alloc_full(struct cma_bench *b, const char *figure, unsigned long mib)
{
	const int n = (int)(mib * MIB / PAGE_BYTES);
	unsigned long bad = 0, checked = 0, migrated = 0;
	double best = -1, copy_ns;
	char note[200];

	for (int run = 0; run < BENCH_RUNS && !bad; run++) {
		struct cma_page *pages;
		unsigned long pfn;
		double t0, ns;

		if (prepare_full(b, b->base, b->base + b->count)) {
			print_no_figure(figure, "could not fill the area");
			return -1;
		}
		t0 = now_ns();
		pages = cma_dma_alloc_from_contiguous(b->mm, NULL, n, CMA_BENCH_ALIGN);
		ns = now_ns() - t0;
		if (!pages) {
			owner_drop_all(b);
			print_no_figure(figure, "cma_dma_alloc_from_contiguous failed");
			return -1;
		}
		pfn = cma_page_to_pfn(b->mm, pages);
		migrated = b->owner.migrated;
		bad = owner_damaged(b, pfn, pfn + (unsigned long)n, &checked);
		cma_dma_release_from_contiguous(b->mm, NULL, pages, n);
		owner_drop_all(b);
		if (best < 0 || ns < best)
			best = ns;
	}
	if (report_damage(figure, bad, checked))
		return -1;
	copy_ns = time_reference(b, (size_t)n * PAGE_BYTES, true, BENCH_RUNS);
	snprintf(note, sizeof(note),
		 "best of %d, area %lu MiB full of owner pages, %lu migrated, align order %d, data: intact",
		 BENCH_RUNS, b->count * PAGE_BYTES / MIB, migrated, CMA_BENCH_ALIGN);
	print_cma_figure(figure, mib_per_s((unsigned long)n * PAGE_BYTES, best), "MiB/s",
			 "alloc/memcpy", copy_ns / best, note);
	return 0;
}

static const unsigned long cma_alloc_mib[] = { 1, 16, 64 };
#define NR_CMA_SIZES (sizeof(cma_alloc_mib) / sizeof(cma_alloc_mib[0]))

static bool figure_selected(const char *filter, const char *name)
{
	return !filter || strstr(name, filter);
}

/*
 * The backed machine of @kernel is booted once, and only if one of its
 * figures is selected; @suffix follows each figure's name.
 */
static int figures_cma(const struct bench_params *bp, const char *filter, const char *kernel,
		       const char *suffix)
{
	char migrate[40], idle[NR_CMA_SIZES][40], full[NR_CMA_SIZES][40];
	bool any;
	struct cma_bench b;
	int ret = 0;

	snprintf(migrate, sizeof(migrate), "migrate_%luMiB%s", bp->migrate_mib, suffix);
	any = figure_selected(filter, migrate);
	for (size_t i = 0; i < NR_CMA_SIZES; i++) {
		snprintf(idle[i], sizeof(idle[i]), "cma_alloc_idle_%luMiB%s", cma_alloc_mib[i], suffix);
		snprintf(full[i], sizeof(full[i]), "cma_alloc_full_%luMiB%s", cma_alloc_mib[i], suffix);
		any |= figure_selected(filter, idle[i]) || figure_selected(filter, full[i]);
	}
	if (!any)
		return 0;
	if (cma_bench_setup(&b, kernel))
		return -1;
	if (figure_selected(filter, migrate))
		ret |= figure_migrate(&b, migrate, bp->migrate_mib);
	for (size_t i = 0; i < NR_CMA_SIZES; i++) {
		if (figure_selected(filter, idle[i]))
			ret |= figure_alloc_idle(&b, idle[i], cma_alloc_mib[i]);
	}
	for (size_t i = 0; i < NR_CMA_SIZES; i++) {
		if (figure_selected(filter, full[i]))
			ret |= figure_alloc_full(&b, full[i], cma_alloc_mib[i]);
	}
	cma_bench_teardown(&b);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Driver                                                              */
/* ------------------------------------------------------------------ */

static bool group_selected(const char *filter, const char *prefix, const struct allocator *allocs,
			   int n)
{
	char name[64];

	if (!filter)
		return true;
	if (n == 0)
		return strstr(prefix, filter) != NULL;
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s%s", prefix, allocs[i].name);
		if (strstr(name, filter))
			return true;
	}
	return false;
}

/* Pin to the CPU we start on, so runs do not migrate mid-loop. */
static void pin_to_current_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int parse_args(int argc, char **argv, struct bench_params *bp, const char **filter)
{
	const char *seed = getenv("CMA_BENCH_SEED");

	*bp = (struct bench_params){
		.pairs = 5000000, .pair_warmup = 500000, .mix_ops = 2000000, .migrate_mib = 64,
		.seed = 0x2545f4914f6cdd1dull,
	};
	*filter = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			bp->pairs /= 10;
			bp->pair_warmup /= 10;
			bp->mix_ops /= 10;
			bp->migrate_mib = 16;
		} else if (argv[i][0] == '-' || *filter) {
			fprintf(stderr, "usage: %s [--quick] [FILTER]\n", argv[0]);
			return -1;
		} else {
			*filter = argv[i];
		}
	}
	if (seed)
		bp->seed = strtoull(seed, NULL, 0);
	return 0;
}

int main(int argc, char **argv)
{
	struct allocator allocs[4] = {
		{ .name = "libcma", .kind = KIND_LIBCMA, .loaded = true },
		{ .name = "glibc", .kind = KIND_GLIBC, .loaded = true },
	};
	struct bench_params bp;
	const char *filter;
	int ret = 0;

	if (parse_args(argc, argv, &bp, &filter))
		return 2;
	reexec_with_static_tls(argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	pin_to_current_cpu();
	load_mimalloc(&allocs[2]);
	load_jemalloc(&allocs[3]);

	if (group_selected(filter, "order0_pair_", allocs, 4))
		ret |= figure_pairs(allocs, 4, &bp);
	if (group_selected(filter, "mix_", allocs, 4))
		ret |= figure_mix(allocs, 4, &bp);
	if (group_selected(filter, "metadata_per_page", allocs, 0))
		ret |= figure_metadata();
	ret |= figures_cma(&bp, filter, "3.5", "");
	ret |= figures_cma(&bp, filter, "6.12", "@6.12");
	return ret ? 1 : 0;
}
