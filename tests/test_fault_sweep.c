// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive fault injection, the way SQLite tests its malloc failures
 * (issue 7 item 1): each operation runs again and again with the Nth
 * internal page allocation failing, N = 1, 2, 3 ... until a run completes
 * without the failure ever being given, that is until N is past the
 * operation's last allocation; then with the Nth and every later one
 * failing (SQLite's persistent mode); then with the Nth owner callback
 * (migrate, reclaim or writeback) answering -EAGAIN, and answering -EIO.
 * The operations: dma_alloc_from_contiguous (with room for targets; with
 * little room and a pinned page), dma_alloc_coherent on x86 (from CMA;
 * from the buddy allocator when pins make every range of the area busy)
 * and on ARM, alloc_contig_range over a MOVABLE range, migrate_pages,
 * cma_compact_memory, and a kswapd pass.
 *
 * Every run starts from the same machine: the scenario is built once,
 * and each run happens in a fork()ed child, a byte-for-byte snapshot of
 * it, which reports through shared memory and exits. After each run:
 *   - the result is success or a clean error (-EBUSY, -ENOMEM, -EINTR,
 *     NULL; migrate_pages: pages left, or -ENOMEM);
 *   - cma_mm_verify passes, no pageblock is ISOLATE, min_cma_pages is 0
 *     in every zone, the CMA area's pageblocks are all CMA;
 *   - no page leaked: with the per-CPU lists drained, free pages plus the
 *     owners' resident pages plus what the operation holds equal free plus
 *     resident before it; and again once the operation's pages are freed;
 *   - the owners' data is intact: every page that moved holds its bytes,
 *     no two slots share a page, no slot lies in what the operation holds;
 *     every page of every owner is checked on the unfaulted run, on the
 *     run that ends a sweep and on every 16th run.
 *
 * When the sweep ends: "the failure was given" means fail_page_alloc's
 * times went down from where the run set it (1, or 2^30 for the
 * persistent mode), or the callback countdown says it fired. With
 * space = N - 1 the first N - 1 pages asked for get through and the
 * allocation that reaches page N fails, so the sweep visits every
 * allocation of the operation (an order-k one under 2^k values of N). A
 * run in which nothing failed asked for fewer than N pages (made fewer
 * than N callbacks): it ran exactly as unfaulted, so every larger N
 * would too, and the sweep is complete. Its result must equal the
 * unfaulted run's (same result, same pages): the runs are deterministic.
 *
 * Every sweep must end exactly at the unfaulted run's count: the pages it
 * asked fail_page_alloc for (counted there, by a failure armed past any
 * run's reach), or its owner callbacks. A sweep that stopped short would
 * have left points untried. The pgalloc_* pages of the unfaulted run may
 * not exceed its fail_page_alloc count: no page allocation escapes the
 * injection. Each test also names the points its scenario must reach
 * (page allocations, migrate, reclaim, writeback callbacks), so that no
 * sweep is empty by accident.
 *
 * "Full area": every page of the CMA area holds an owner's page (ARM:
 * every page but the atomic pool carved out of it at boot), and so does
 * every page of alloc_contig_range's MOVABLE range.
 *
 * cma_compact_memory takes its targets from the free scanner
 * (split_free_page), not from the page allocator: its allocation sweeps
 * cover 0 points; its callback sweeps are the real ones. Only kswapd
 * writes dirty pages back (direct reclaim and migration in
 * MIGRATE_SYNC_LIGHT never do), so writeback failures are swept on a
 * kswapd pass over the full machine.
 *
 * make stress (CMA_TEST_EXHAUSTIVE=1) tries every point of every sweep,
 * about 30 s in all (a run costs a fork and a verify; the machines are
 * small for that reason). make test tries a seeded sample of each sweep:
 * N = 1, the unfaulted run's count, SAMPLE_POINTS drawn between them,
 * and on past the count until the failure is no longer given, in a
 * couple of seconds; each sampled N up to the count must give the
 * failure, or the sweep ends there, short of the count, and fails as an
 * exhaustive one would; each sampled run checks every owner page.
 * CMA_TEST_SEED replays a sample. A long sweep prints its progress.
 * CMA_TEST_FILTER=pattern runs only the matching tests.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef CMA_COVERAGE
#include <gcov.h>
#endif

#include "dma/dma.h"
#include "helpers.h"
#include "mm/cma.h"
#include "owners.h"

#define NR_OWNERS	4		/* anon, file, anon, file */
#define OWNER_SLOTS	1000		/* 4000 slots for 4096 pages */
#define MAX_RUNS	20000		/* a sweep longer than this is a bug */
#define FULL_CHECK_EVERY 16
#define SAMPLE_POINTS	16		/* make test: the Ns drawn in each sweep */
#define RANGE_PAGES	256		/* alloc_contig_range's range */
#define DMA_COUNT	256		/* dma_alloc_from_contiguous's and dma_alloc_coherent's */
#define DMA_ORDER	8		/* of DMA_COUNT pages */
#define DMA_ALIGN	8
#define MAX_PINNED	8		/* one per DMA_COUNT-aligned range of the area */
/*
 * Dirty slots of each file owner with SC_WRITEBACK: more than kswapd's
 * first three priorities scan (3 x SWAP_CLUSTER_MAX) from the tail of
 * the inactive file list, so that it reaches writeback at priority 9.
 */
#define WRITEBACK_SLOTS	80

enum fault_kind {
	FAULT_NONE,
	FAULT_PAGE_ALLOC,		/* the Nth page allocation fails */
	FAULT_PAGE_ALLOC_ON,		/* the Nth and every later one fail */
	FAULT_CALLBACK_EAGAIN,
	FAULT_CALLBACK_EIO,
};

/* fail_page_alloc's times for "every later one": more than any run allocates */
#define TIMES_PERSISTENT	(1ul << 30)
/* space of the unfaulted run: no run gets that far, so it only counts the pages asked for */
#define SPACE_COUNT		(1ul << 40)

static const char *const kind_names[] = {
	[FAULT_NONE] = "no fault",
	[FAULT_PAGE_ALLOC] = "Nth page allocation",
	[FAULT_PAGE_ALLOC_ON] = "Nth page alloc on",
	[FAULT_CALLBACK_EAGAIN] = "Nth callback -EAGAIN",
	[FAULT_CALLBACK_EIO] = "Nth callback -EIO",
};

/* Written by the child into shared memory, read by the parent. */
struct report {
	bool done;			/* the child got to the end */
	bool fired;			/* the injected failure was given */
	int rc;				/* 0, or the operation's error; migrate_pages: its result */
	unsigned long held_pfn, held_nr;	/* what the operation holds on success */
	unsigned held_order;		/* 0: order-0 pages; else one block of that order */
	unsigned long points;		/* unfaulted: pages asked of fail_page_alloc */
	unsigned long callbacks;	/* owner callbacks made by the operation */
	unsigned long callbacks_of[NR_OWNER_CB];
	uint64_t pages_allocated;	/* pgalloc_* over the operation */
	char why[512];			/* the first check that failed, or "" */
};

struct scenario {
	struct cma_mm *mm;
	struct cma_device *dev;			/* dma_alloc_coherent's: 32-bit mask, default area */
	struct cma *area;
	unsigned long area_base, area_count;
	unsigned long pool_pages;		/* ARM's atomic pool, carved out of the area */
	struct fake_owner *o[NR_OWNERS];
	struct cma_page **before[NR_OWNERS];	/* slot pages before the operation */
	unsigned long accounted;		/* free + resident before it */
	unsigned long range_start;		/* alloc_contig_range's MOVABLE range, or 0 */
	struct cma_page *pinned[MAX_PINNED];	/* owner pages pinned in the area */
	unsigned nr_pinned;
	struct report *rep;			/* shared with the children */
};

/* What a scenario's unfaulted run must reach, so that no sweep is empty by accident. */
enum {
	MUST_ALLOC = 1 << NR_OWNER_CB,	/* page allocations */
	MUST_MIGRATE = 1 << OWNER_CB_MIGRATE,
	MUST_RECLAIM = 1 << OWNER_CB_RECLAIM,
	MUST_WRITEBACK = 1 << OWNER_CB_WRITEBACK,
};

static const char *const callback_names[NR_OWNER_CB] = {
	[OWNER_CB_MIGRATE] = "migrate", [OWNER_CB_RECLAIM] = "reclaim",
	[OWNER_CB_WRITEBACK] = "writeback",
};

/* The Ns a sweep tries besides every one: make test's sample, in order. */
struct points {
	unsigned long n[SAMPLE_POINTS + 2];
	unsigned nr, at;
};

/* every N (make stress), or a sample drawn from sample_state (make test) */
static bool exhaustive;
static uint64_t sample_seed, sample_state;

struct sweep_op {
	const char *name;
	/* Runs the operation (in the child); sets rep->rc, held_pfn, held_nr. */
	void (*run)(struct scenario *sc, struct report *rep);
	bool (*clean)(int rc);
	void (*release)(struct scenario *sc, const struct report *rep);
};

/* ------------------------------------------------------------------ */
/* the scenario                                                        */
/* ------------------------------------------------------------------ */

static unsigned long resident_pages(struct scenario *sc)
{
	unsigned long n = 0;

	for (int k = 0; k < NR_OWNERS; k++)
		n += owner_resident(sc->o[k]);
	return n;
}

static unsigned long free_drained(struct cma_mm *mm)
{
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	return global_page_state(mm, NR_FREE_PAGES);
}

static bool in_area(struct scenario *sc, unsigned long pfn)
{
	return pfn >= sc->area_base && pfn < sc->area_base + sc->area_count;
}

static bool in_range(struct scenario *sc, unsigned long pfn)
{
	return sc->range_start && pfn >= sc->range_start && pfn < sc->range_start + RANGE_PAGES;
}

/* Pages of the area in the buddy allocator (the per-CPU lists drained). */
static unsigned long area_free_pages(struct scenario *sc)
{
	unsigned long n = 0;

	for (unsigned long pfn = sc->area_base; pfn < sc->area_base + sc->area_count; pfn++)
		n += page_count(cma_pfn_to_page(sc->mm, pfn)) == 0;
	return n;
}

static bool mm_kernel_is_35(struct cma_mm *mm)
{
	return !strcmp(cma_mm_kernel(mm), "3.5");
}

/* Every page of [start, start + nr) allocated, none of them reserved at boot. */
static bool range_all_allocated(struct cma_mm *mm, unsigned long start, unsigned long nr)
{
	for (unsigned long pfn = start; pfn < start + nr; pfn++) {
		struct cma_page *page = cma_pfn_to_page(mm, pfn);

		if (page_test(page, PG_reserved) || page_count(page) <= 0)
			return false;
	}
	return true;
}

/*
 * A MOVABLE range of owner pages below the area, inside one MAX_ORDER
 * window of MOVABLE blocks: the highest such range whose every page the
 * owners hold (not the memmap's, reserved at boot next to the area, nor a
 * page the filling left free).
 */
static void pick_movable_range(struct scenario *sc)
{
	struct cma_mm *mm = sc->mm;
	unsigned long unit = max_order_nr_pages(mm);

	for (unsigned long w = sc->area_base - unit; w >= unit; w -= unit) {
		bool movable = true;

		for (unsigned long pfn = w; pfn < w + unit; pfn += mm->pageblock_nr_pages)
			movable &= cma_pageblock_migratetype(mm, pfn) == CMA_MIGRATE_MOVABLE;
		for (unsigned long r = w + unit - RANGE_PAGES; movable && r >= w; r -= RANGE_PAGES)
			if (range_all_allocated(mm, r, RANGE_PAGES)) {
				sc->range_start = r;
				return;
			}
	}
	fail_msg("expected a range of owner pages in a MAX_ORDER window of MOVABLE pageblocks below the area, found none");
}

/* RAM of the scenario's machine; ARM boards start at 0x40000000 */
static const struct cma_bank x86_bank = { 0, 16 * MiB }, arm_bank = { 0x40000000, 16 * MiB };

/*
 * 16 MiB, MAX_ORDER 10 and pageblock order 9 (so that areas align to
 * 4 MiB), a 4 MiB CMA area, 2 MiB of swap: small, because every run
 * forks the machine. Four owners fault until memory is full (reclaim
 * has already swapped and dropped some pages by then) so that the area
 * is full of movable pages; a third of the file pages are dirty. With
 * SC_MOVABLE_RANGE in @flags, alloc_contig_range's range is picked now,
 * while it is full too. Then every @keep_out-th page outside the area
 * and the range is released, leaving room for migration targets
 * (@keep_out 0: none).
 */
enum {
	SC_MOVABLE_RANGE = 1 << 0,	/* pick alloc_contig_range's range, keep it full */
	SC_PIN = 1 << 1,		/* pin a page of the area's first candidate range */
	SC_PIN_ALL = 1 << 2,		/* ... and of every other: CMA serves no DMA_COUNT pages */
	SC_WRITEBACK = 1 << 3,		/* 128 KiB of swap, the oldest file pages all dirty */
};

static void scenario_build(struct scenario *sc, enum cma_arch arch, unsigned keep_out,
			   unsigned flags)
{
	struct cma_mm_config cfg = {
		.arch = arch, .banks = arch == CMA_ARCH_ARM ? &arm_bank : &x86_bank, .nr_banks = 1,
		.max_order = 10, .pageblock_order = 9, .cmdline = "cma=4M",
		.swap_bytes = flags & SC_WRITEBACK ? 128 << 10 : 2 * MiB, .nr_cpus = 2,
	};
	bool movable_range = flags & SC_MOVABLE_RANGE;
	unsigned long in = 0, in_range_nr = 0, released = 0, swapped = 0, dropped = 0, dirty = 0, free_in;

	memset(sc, 0, sizeof(*sc));
	sc->mm = test_boot(&cfg);
	sc->dev = cma_device_create(sc->mm, "sweep-dev", 0xffffffffull);
	assert_non_null(sc->dev);
	sc->area = cma_dev_get_cma_area(sc->mm, NULL);
	assert_non_null(sc->area);
	sc->area_base = cma_area_base_pfn(sc->area);
	sc->area_count = cma_area_count(sc->area);
	sc->pool_pages = dma_state(sc->mm)->pool.nr_pages;
	for (int k = 0; k < NR_OWNERS; k++)
		assert_non_null(sc->o[k] = owner_create(sc->mm, k % 2 == 0, OWNER_SLOTS));
	for (uint64_t i = 0; i < OWNER_SLOTS; i++)
		for (int k = 0; k < NR_OWNERS; k++) {
			struct fake_owner *o = sc->o[k];

			assert_non_null(owner_fault_ops(o, i, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN,
							k * 1000003ull + i,
							o->anon ? &countdown_anon_ops : &countdown_file_ops));
			if (!o->anon && i % 3 == 0)
				owner_set_dirty(o, i, true);
		}
	if (movable_range)
		pick_movable_range(sc);
	for (int k = 1; k < NR_OWNERS && (flags & SC_WRITEBACK); k += 2)
		for (uint64_t i = 0; i < WRITEBACK_SLOTS; i++)
			owner_set_dirty(sc->o[k], i, true);
	for (int k = 0; k < NR_OWNERS; k++)
		for (uint64_t i = 0; i < OWNER_SLOTS; i++) {
			struct cma_page *page = sc->o[k]->slots[i].page;
			unsigned long pfn;

			if (!page)
				continue;
			pfn = cma_page_to_pfn(sc->mm, page);
			if (in_area(sc, pfn))
				in++;
			else if (in_range(sc, pfn))
				in_range_nr++;
			else if (keep_out && (i + (uint64_t)k) % keep_out == 0) {
				owner_release(sc->o[k], i);
				released++;
			}
		}
	for (int k = 0; k < NR_OWNERS; k++)
		for (uint64_t i = 0; i < OWNER_SLOTS; i++) {
			struct owner_slot *s = &sc->o[k]->slots[i];

			swapped += s->swapped;
			dropped += s->dropped;
			dirty += s->page && page_test(s->page, PG_dirty);
		}
	lru_add_drain_all(sc->mm);
	printf("scenario (%s): %lu owner pages (%lu dirty), %lu of the %lu-page area (%lu the atomic pool's)%s; %lu swapped out and %lu dropped by reclaim while filling; %lu released outside the area; %lu free\n",
	       arch == CMA_ARCH_ARM ? "ARM" : "x86", resident_pages(sc), dirty, in, sc->area_count,
	       sc->pool_pages, movable_range ? ", all of the MOVABLE range" : "", swapped, dropped,
	       released, free_drained(sc->mm));
	/*
	 * v3.5's fill leaves the area full: every page reclaim frees in it is
	 * taken again before the fill ends. 6.12's leaves a remnant free
	 * (ALLOC_CMA and the CMA balancing send movable requests to their own
	 * pageblocks first): fewer than a DMA_COUNT range, so every request
	 * still has to migrate.
	 */
	free_in = area_free_pages(sc);
	if (in + sc->pool_pages + (mm_kernel_is_35(sc->mm) ? 0 : free_in) != sc->area_count ||
	    free_in >= DMA_COUNT / 2)
		fail_msg("expected a full area: %lu owner pages + %lu of the pool + %lu free = %lu, expected %lu",
			 in, sc->pool_pages, free_in, in + sc->pool_pages + free_in, sc->area_count);
	if (movable_range && in_range_nr != RANGE_PAGES)
		fail_msg("expected a full MOVABLE range: %lu owner pages in it, expected %d", in_range_nr,
			 RANGE_PAGES);
	assert_verify(sc->mm);
}

static void scenario_destroy(struct scenario *sc)
{
	for (unsigned i = 0; i < sc->nr_pinned; i++)
		cma_page_put(sc->mm, sc->pinned[i]);
	for (int k = 0; k < NR_OWNERS; k++) {
		owner_destroy(sc->o[k]);
		free(sc->before[k]);
	}
	cma_mm_destroy(sc->mm);
}

/* What the children compare against. */
static void scenario_snapshot(struct scenario *sc)
{
	for (int k = 0; k < NR_OWNERS; k++) {
		free(sc->before[k]);
		sc->before[k] = calloc(OWNER_SLOTS, sizeof(*sc->before[k]));
		assert_non_null(sc->before[k]);
		for (uint64_t i = 0; i < OWNER_SLOTS; i++)
			sc->before[k][i] = sc->o[k]->slots[i].page;
	}
	sc->accounted = free_drained(sc->mm) + resident_pages(sc);
}

/* ------------------------------------------------------------------ */
/* the operations                                                      */
/* ------------------------------------------------------------------ */

/* Record the first check that failed; returns false. */
__attribute__((format(printf, 2, 3)))
static bool why(struct report *rep, const char *fmt, ...)
{
	va_list ap;

	if (rep->why[0])
		return false;
	va_start(ap, fmt);
	vsnprintf(rep->why, sizeof(rep->why), fmt, ap);
	va_end(ap);
	return false;
}

static bool clean_alloc(int rc)
{
	return rc == 0 || rc == -EBUSY || rc == -ENOMEM || rc == -EINTR;
}

static bool clean_migrate(int rc)
{
	return rc >= 0 || rc == -ENOMEM;
}

/* NULL from dma_alloc_from_contiguous is reported as -ENOMEM. */
static void run_dma_alloc(struct scenario *sc, struct report *rep)
{
	struct cma_page *page = cma_dma_alloc_from_contiguous(sc->mm, NULL, DMA_COUNT, DMA_ALIGN);

	rep->rc = page ? 0 : -ENOMEM;
	if (page) {
		rep->held_pfn = cma_page_to_pfn(sc->mm, page);
		rep->held_nr = DMA_COUNT;
	}
}

static void release_dma(struct scenario *sc, const struct report *rep)
{
	if (!cma_dma_release_from_contiguous(sc->mm, NULL, cma_pfn_to_page(sc->mm, rep->held_pfn),
					     (int)rep->held_nr))
		why(sc->rep, "dma_release_from_contiguous(pfn %#lx, %lu) refused the area's own pages",
		    rep->held_pfn, rep->held_nr);
}

/*
 * dma_alloc_coherent of DMA_COUNT pages for the scenario's device, as a
 * driver asks (it may sleep): x86 takes them from CMA, else from the
 * buddy allocator in one block; ARM from CMA only. Either way zeroed.
 */
static void run_coherent(struct scenario *sc, struct report *rep)
{
	struct cma_mm *mm = sc->mm;
	size_t size = (size_t)DMA_COUNT << mm->page_shift;
	const uint64_t *w;
	cma_phys_t handle;
	void *vaddr;

	rep->rc = cma_dma_alloc_coherent(mm, sc->dev, size, CMA_GFP_KERNEL, &handle, &vaddr);
	if (rep->rc)
		return;
	rep->held_pfn = (unsigned long)(handle >> mm->page_shift);
	rep->held_nr = DMA_COUNT;
	rep->held_order = in_area(sc, rep->held_pfn) ? 0 : DMA_ORDER;
	w = vaddr;
	for (size_t i = 0; i < size / sizeof(*w); i++)
		if (w[i]) {
			why(rep, "dma_alloc_coherent: buffer at pfn %#lx: word %zu is %#llx, expected zeroed memory",
			    rep->held_pfn, i, (unsigned long long)w[i]);
			return;
		}
}

static void release_coherent(struct scenario *sc, const struct report *rep)
{
	cma_dma_free_coherent(sc->mm, sc->dev, (size_t)DMA_COUNT << sc->mm->page_shift,
			      (cma_phys_t)rep->held_pfn << sc->mm->page_shift);
}

static void run_contig_range(struct scenario *sc, struct report *rep)
{
	rep->rc = cma_alloc_contig_range(sc->mm, sc->range_start, sc->range_start + RANGE_PAGES,
					 CMA_MIGRATE_MOVABLE);
	if (!rep->rc) {
		rep->held_pfn = sc->range_start;
		rep->held_nr = RANGE_PAGES;
	}
}

static void release_range(struct scenario *sc, const struct report *rep)
{
	cma_free_contig_range(sc->mm, rep->held_pfn, rep->held_nr);
}

#define MIGRATE_PAGES	64

static struct cma_page *migration_target(struct cma_mm *mm, struct cma_page *page,
					 unsigned long private)
{
	return cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, page_order(page));
}

/* migrate_pages over the first MIGRATE_PAGES owner pages of the area, as test_migrate does. */
static void run_migrate_list(struct scenario *sc, struct report *rep)
{
	struct page_list list;
	unsigned long n = 0;

	page_list_init(&list);
	for (unsigned long pfn = sc->area_base; pfn < sc->area_base + sc->area_count &&
	     n < MIGRATE_PAGES; pfn++) {
		struct cma_page *page = cma_pfn_to_page(sc->mm, pfn);

		if (page_test(page, PG_movable) && page_test(page, PG_lru) &&
		    !isolate_lru_page(sc->mm, page)) {
			page_list_add_tail(sc->mm, &list, page);
			n++;
		}
	}
	if (n != MIGRATE_PAGES)
		snprintf(rep->why, sizeof(rep->why), "expected %d owner pages on the area's LRU, found %lu",
			 MIGRATE_PAGES, n);
	rep->rc = migrate_pages(sc->mm, &list, migration_target, 0, MIGRATE_SYNC_LIGHT);
	putback_lru_pages(sc->mm, &list);
}

static void run_compact(struct scenario *sc, struct report *rep)
{
	rep->rc = cma_compact_memory(sc->mm);
}

/* One balance_pgdat pass; it has no error to give. */
static void run_kswapd(struct scenario *sc, struct report *rep)
{
	cma_kswapd_step(sc->mm);
	rep->rc = 0;
}

static bool clean_zero(int rc)
{
	return rc == 0;
}

static const struct sweep_op op_dma = {
	"dma_alloc_from_contiguous(256, align 8)", run_dma_alloc, clean_alloc, release_dma,
};
static const struct sweep_op op_range = {
	"alloc_contig_range(256 pages, MOVABLE)", run_contig_range, clean_alloc, release_range,
};
static const struct sweep_op op_migrate = {
	"migrate_pages(64 pages of the area)", run_migrate_list, clean_migrate, NULL,
};
static const struct sweep_op op_coherent = {
	"dma_alloc_coherent(1 MiB, GFP_KERNEL)", run_coherent, clean_alloc, release_coherent,
};
static const struct sweep_op op_compact = {
	"cma_compact_memory", run_compact, clean_zero, NULL,
};
static const struct sweep_op op_kswapd = {
	"kswapd pass (balance_pgdat)", run_kswapd, clean_zero, NULL,
};

/* ------------------------------------------------------------------ */
/* one run, in a child                                                 */
/* ------------------------------------------------------------------ */

static uint64_t pages_allocated(struct cma_mm *mm)
{
	static const char *const names[] = { "pgalloc_dma", "pgalloc_dma32", "pgalloc_normal",
					     "pgalloc_high", "pgalloc_movable" };
	uint64_t sum = 0, v;

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!cma_mm_counter(mm, names[i], &v))
			sum += v;
	return sum;
}

/* No pageblock ISOLATE, marks back, the area all CMA, the machine verified, counters idle. */
static bool check_machine(struct scenario *sc, struct report *rep, const char *when)
{
	struct cma_mm *mm = sc->mm;
	struct zone *z;
	char counters[256];

	if (cma_mm_verify(mm))
		return why(rep, "%s: cma_mm_verify failed (see above)", when);
	if (atomic_load(&mm->isolated_pageblocks))
		return why(rep, "%s: %ld pageblocks left ISOLATE", when,
			   atomic_load(&mm->isolated_pageblocks));
	for (unsigned long pfn = mm->base_pfn; pfn < mm->end_pfn; pfn += mm->pageblock_nr_pages) {
		int mt = cma_pageblock_migratetype(mm, pfn);

		if (mt == CMA_MIGRATE_ISOLATE)
			return why(rep, "%s: pageblock at pfn %#lx left ISOLATE", when, pfn);
		if (in_area(sc, pfn) && mt != CMA_MIGRATE_CMA)
			return why(rep, "%s: CMA pageblock at pfn %#lx is %s", when, pfn,
				   migratetype_name(mt));
	}
	for_each_zone(mm, z)
		if (z->min_cma_pages)
			return why(rep, "%s: zone %s min_cma_pages %lu, expected 0", when, z->name,
				   z->min_cma_pages);
	if (test_check_idle_counters(mm, counters, sizeof(counters)))
		return why(rep, "%s: %s", when, counters);
	return true;
}

static bool check_accounting(struct scenario *sc, struct report *rep, unsigned long held,
			     const char *when)
{
	unsigned long free = free_drained(sc->mm), resident = resident_pages(sc);

	if (free + resident + held != sc->accounted)
		return why(rep, "%s: %lu free + %lu owner pages + %lu held = %lu, expected %lu as before: %ld pages leaked",
			   when, free, resident, held, free + resident + held, sc->accounted,
			   (long)sc->accounted - (long)(free + resident + held));
	return true;
}

/*
 * The owners' data: pages that moved hold their bytes (all pages when
 * @full), no page is in two slots, none lies in [held_pfn, +held_nr).
 */
static bool check_owners(struct scenario *sc, struct report *rep, bool full)
{
	struct cma_mm *mm = sc->mm;
	unsigned long nr = mm->end_pfn - mm->base_pfn;
	uint8_t *seen = calloc(nr, 1);
	bool ok = true;

	if (!seen)
		return why(rep, "out of memory");
	for (int k = 0; k < NR_OWNERS && ok; k++) {
		struct fake_owner *o = sc->o[k];

		for (uint64_t i = 0; i < OWNER_SLOTS && ok; i++) {
			struct cma_page *page = o->slots[i].page;
			unsigned long pfn;

			if (!page)
				continue;
			pfn = cma_page_to_pfn(mm, page);
			if (seen[pfn - mm->base_pfn]++)
				ok = why(rep, "owner %d slot %llu: pfn %#lx belongs to another slot too",
					 k, (unsigned long long)i, pfn);
			else if (rep->held_nr && pfn >= rep->held_pfn && pfn < rep->held_pfn + rep->held_nr)
				ok = why(rep, "owner %d slot %llu: pfn %#lx lies in the allocated [%#lx, %#lx)",
					 k, (unsigned long long)i, pfn, rep->held_pfn,
					 rep->held_pfn + rep->held_nr);
			else if ((full || page != sc->before[k][i]) &&
				 page_checksum(mm, page) != o->slots[i].sum)
				ok = why(rep, "owner %d (%s) slot %llu at pfn %#lx%s: checksum %#llx, expected %#llx",
					 k, o->anon ? "anon" : "file", (unsigned long long)i, pfn,
					 page != sc->before[k][i] ? " (moved)" : "",
					 (unsigned long long)page_checksum(mm, page),
					 (unsigned long long)o->slots[i].sum);
		}
	}
	free(seen);
	return ok;
}

/*
 * The operation's pages: allocated order-0 pages, or one block of
 * held_order, each with one reference and no owner.
 */
static bool check_held(struct scenario *sc, struct report *rep)
{
	for (unsigned long pfn = rep->held_pfn; pfn < rep->held_pfn + rep->held_nr;
	     pfn += 1ul << rep->held_order) {
		struct cma_page *page = cma_pfn_to_page(sc->mm, pfn);

		if (!page || !page_test(page, PG_head) || page_order(page) != rep->held_order ||
		    page_count(page) != 1 || page_test(page, PG_movable))
			return why(rep, "allocated pfn %#lx: flags %#x count %d, expected an order-%u page with one reference",
				   pfn, page ? page_flags(page) : 0, page ? page_count(page) : 0,
				   rep->held_order);
	}
	return true;
}

static bool callback_kind(enum fault_kind kind)
{
	return kind == FAULT_CALLBACK_EAGAIN || kind == FAULT_CALLBACK_EIO;
}

/* Arm @kind at @n; FAULT_NONE arms a page failure past any run, to count the pages asked for. */
static void inject(struct scenario *sc, enum fault_kind kind, unsigned long n)
{
	struct cma_fault_attr attr = {
		.space = kind == FAULT_NONE ? SPACE_COUNT : n - 1, .probability = 100,
		.times = kind == FAULT_PAGE_ALLOC_ON ? TIMES_PERSISTENT : 1,
	};

	cma_fault_inject(sc->mm, callback_kind(kind) ? NULL : &attr);
	owner_callback_fail_nth(callback_kind(kind) ? n : 0,
				kind == FAULT_CALLBACK_EAGAIN ? -EAGAIN : -EIO);
}

static void disarm(struct scenario *sc)
{
	cma_fault_inject(sc->mm, NULL);
	owner_callback_fail_nth(0, 0);
}

static bool fault_given(struct scenario *sc, enum fault_kind kind)
{
	/* times counts down from 1 or TIMES_PERSISTENT; one thread, no lock needed */
	if (kind == FAULT_PAGE_ALLOC || kind == FAULT_NONE)
		return sc->mm->fail.times == 0;
	if (kind == FAULT_PAGE_ALLOC_ON)
		return sc->mm->fail.times < (long)TIMES_PERSISTENT;
	return owner_callback_fired();
}

static void child_run(struct scenario *sc, const struct sweep_op *op, enum fault_kind kind,
		      unsigned long n)
{
	struct report *rep = sc->rep;
	uint64_t allocated = pages_allocated(sc->mm);

	inject(sc, kind, n);
	op->run(sc, rep);
	rep->fired = fault_given(sc, kind);
	if (kind == FAULT_NONE)
		rep->points = SPACE_COUNT - sc->mm->fail.space;
	rep->callbacks = owner_callback_calls();
	for (int cb = 0; cb < NR_OWNER_CB; cb++)
		rep->callbacks_of[cb] = owner_callback_calls_of(cb);
	disarm(sc);
	rep->pages_allocated = pages_allocated(sc->mm) - allocated;

	if (kind == FAULT_NONE && rep->fired)
		why(rep, "unfaulted: more than %lu pages asked for", SPACE_COUNT);
	if (!op->clean(rep->rc))
		why(rep, "result %d: expected success or a clean error", rep->rc);
	if (!check_machine(sc, rep, "after the operation") ||
	    !check_accounting(sc, rep, rep->held_nr, "after the operation") ||
	    !check_owners(sc, rep, !exhaustive || n == 0 || !rep->fired || n % FULL_CHECK_EVERY == 0) ||
	    !check_held(sc, rep) || !op->release || !rep->held_nr)
		return;
	op->release(sc, rep);
	if (rep->why[0] || !check_machine(sc, rep, "after the release"))
		return;
	check_accounting(sc, rep, 0, "after the release");
}

/* Run @op in a child with @kind failing at @n; the report lands in sc->rep. */
static void run_forked(struct scenario *sc, const struct sweep_op *op, enum fault_kind kind,
		       unsigned long n)
{
	int status = 0;
	pid_t pid;

	memset(sc->rep, 0, sizeof(*sc->rep));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* a crash must end the child, not jump back into the test runner */
		static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };

		for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			signal(sigs[i], SIG_DFL);
		child_run(sc, op, kind, n);
		sc->rep->done = true;
#ifdef CMA_COVERAGE
		__gcov_dump();	/* _exit() skips the exit hook that writes the child's counts */
#endif
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !sc->rep->done)
		fail_msg("%s, %s, N=%lu: the run died (%s %d)", op->name, kind_names[kind], n,
			 WIFSIGNALED(status) ? "signal" : "exit status",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	if (sc->rep->why[0])
		fail_msg("%s, %s, N=%lu: %s", op->name, kind_names[kind], n, sc->rep->why);
}

/* ------------------------------------------------------------------ */
/* sweeps                                                              */
/* ------------------------------------------------------------------ */

static const char *rc_name(int rc)
{
	switch (rc) {
	case 0:		return "ok";
	case -EBUSY:	return "-EBUSY";
	case -ENOMEM:	return "-ENOMEM";
	case -EINTR:	return "-EINTR";
	default:	return rc > 0 ? "pages left" : "other";
	}
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

/* make test's Ns for a sweep of @expected points: 1, @expected and SAMPLE_POINTS between */
static void sample_points(struct points *p, unsigned long expected)
{
	p->nr = p->at = 0;
	if (exhaustive)
		return;
	p->n[p->nr++] = 1;
	for (unsigned i = 0; i < SAMPLE_POINTS && expected > 2; i++)
		p->n[p->nr++] = 2 + prandom_below(&sample_state, expected - 2);
	p->n[p->nr++] = expected;
	qsort(p->n, p->nr, sizeof(p->n[0]), cmp_ulong);
}

/* The N after @n: the sample's next while it lasts, then every one. */
static unsigned long next_point(struct points *p, unsigned long n)
{
	while (p->at < p->nr && p->n[p->at] <= n)
		p->at++;
	return p->at < p->nr ? p->n[p->at] : n + 1;
}

/*
 * N = 1, 2, ... (or make test's sample of them) until a run where the
 * failure was not given. Returns the fault points covered (N - 1).
 */
static unsigned long sweep(struct scenario *sc, const struct sweep_op *op, enum fault_kind kind,
			   const struct report *unfaulted, unsigned long expected)
{
	static const char *const names[] = { "ok", "-EBUSY", "-ENOMEM", "-EINTR", "pages left" };
	unsigned long tally[5] = { 0 }, n, runs = 0;
	struct timespec said = { 0 };
	struct points sample;

	sample_points(&sample, expected);
	for (n = next_point(&sample, 0); n <= MAX_RUNS; n = next_point(&sample, n)) {
		const char *name;

		run_forked(sc, op, kind, n);
		runs++;
		name = rc_name(sc->rep->rc);
		for (unsigned i = 0; i < 5; i++)
			tally[i] += !strcmp(name, names[i]);
		if (!sc->rep->fired)
			break;
		if (test_progress_due(&said))
			printf("  %-22s at N=%lu of %lu\n", kind_names[kind], n, expected);
	}
	if (n > MAX_RUNS)
		fail_msg("%s, %s: still failing at N=%d: expected the operation to end", op->name,
			 kind_names[kind], MAX_RUNS);
	if (sc->rep->rc != unfaulted->rc || sc->rep->held_pfn != unfaulted->held_pfn)
		fail_msg("%s, %s, N=%lu (nothing injected): result %d at pfn %#lx, expected %d at pfn %#lx as unfaulted",
			 op->name, kind_names[kind], n, sc->rep->rc, sc->rep->held_pfn, unfaulted->rc,
			 unfaulted->held_pfn);
	printf("  %-22s %5lu fault points", kind_names[kind], n - 1);
	if (!exhaustive)
		printf(", %lu tried", runs);
	printf("; results:");
	for (unsigned i = 0; i < 5; i++)
		if (tally[i])
			printf(" %s %lu", names[i], tally[i]);
	printf("\n");
	return n - 1;
}

/* Each sweep must end exactly at @expected points: one per page asked for, or per callback. */
static void sweep_exactly(struct scenario *sc, const struct sweep_op *op, enum fault_kind kind,
			  const struct report *unfaulted)
{
	unsigned long expected = callback_kind(kind) ? unfaulted->callbacks : unfaulted->points;
	unsigned long points = sweep(sc, op, kind, unfaulted, expected);

	if (points != expected)
		fail_msg("%s, %s: the sweep ended after %lu fault points, expected %lu: one per %s of the unfaulted run",
			 op->name, kind_names[kind], points, expected,
			 callback_kind(kind) ? "owner callback" : "page asked of the allocator");
}

/*
 * The unfaulted run, then the four sweeps. @must: what the unfaulted run
 * has to reach (MUST_*), so that the scenario really exercises it.
 */
static void sweep_all(struct scenario *sc, const struct sweep_op *op, unsigned must)
{
	struct report unfaulted;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	scenario_snapshot(sc);
	run_forked(sc, op, FAULT_NONE, 0);
	unfaulted = *sc->rep;
	printf("%s: unfaulted result %d (%s)%s, %lu pages asked for (%llu allocated), %lu owner callbacks (migrate %lu, reclaim %lu, writeback %lu)\n",
	       op->name, unfaulted.rc, rc_name(unfaulted.rc), unfaulted.held_nr ? " holding pages" : "",
	       unfaulted.points, (unsigned long long)unfaulted.pages_allocated, unfaulted.callbacks,
	       unfaulted.callbacks_of[OWNER_CB_MIGRATE], unfaulted.callbacks_of[OWNER_CB_RECLAIM],
	       unfaulted.callbacks_of[OWNER_CB_WRITEBACK]);
	if (unfaulted.pages_allocated > unfaulted.points)
		fail_msg("%s: %llu pages allocated but only %lu asked of fail_page_alloc: an allocation escapes injection",
			 op->name, (unsigned long long)unfaulted.pages_allocated, unfaulted.points);
	if ((must & MUST_ALLOC) && !unfaulted.points)
		fail_msg("%s: expected the scenario to allocate pages, it asked for none", op->name);
	for (int cb = 0; cb < NR_OWNER_CB; cb++)
		if ((must & (1u << cb)) && !unfaulted.callbacks_of[cb])
			fail_msg("%s: expected the scenario to make %s callbacks, it made none", op->name,
				 callback_names[cb]);
	sweep_exactly(sc, op, FAULT_PAGE_ALLOC, &unfaulted);
	sweep_exactly(sc, op, FAULT_PAGE_ALLOC_ON, &unfaulted);
	sweep_exactly(sc, op, FAULT_CALLBACK_EAGAIN, &unfaulted);
	sweep_exactly(sc, op, FAULT_CALLBACK_EIO, &unfaulted);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("  (%.1f s)\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
}

static struct report *shared_report(void)
{
	struct report *rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	assert_true(rep != MAP_FAILED);
	return rep;
}

/* ------------------------------------------------------------------ */
/* tests                                                               */
/* ------------------------------------------------------------------ */

/* Pin the owner page at @pfn, which makes its DMA_COUNT-aligned candidate range busy. */
static void pin_page_at(struct scenario *sc, unsigned long pfn)
{
	for (int k = 0; k < NR_OWNERS; k++)
		for (uint64_t i = 0; i < OWNER_SLOTS; i++) {
			struct cma_page *page = sc->o[k]->slots[i].page;

			if (page && cma_page_to_pfn(sc->mm, page) == pfn) {
				cma_page_get(sc->mm, page);
				sc->pinned[sc->nr_pinned++] = page;
				return;
			}
		}
	fail_msg("expected an owner page at pfn %#lx, found none", pfn);
}

/* The scenario of scenario_build(@arch, @keep_out, SC_* @flags), then @op's sweeps. */
static void sweep_scenario(enum cma_arch arch, unsigned keep_out, unsigned flags,
			   const struct sweep_op *op, unsigned must)
{
	struct scenario sc;

	sample_state = sample_seed;	/* each test's sample follows from the seed alone */
	scenario_build(&sc, arch, keep_out, flags);
	for (unsigned long off = 5; off < sc.area_count && (flags & (SC_PIN | SC_PIN_ALL));
	     off += flags & SC_PIN_ALL ? DMA_COUNT : sc.area_count)
		pin_page_at(&sc, sc.area_base + off);
	sc.rep = shared_report();
	sweep_all(&sc, op, must);
	munmap(sc.rep, sizeof(*sc.rep));
	scenario_destroy(&sc);
}

/*
 * Expect: a 256-page allocation from an area full of movable pages of
 * four owners (some dirty, anon ones with swap) ends clean whichever
 * allocation or callback fails, with room outside the area for targets.
 */
static void sweep_dma_alloc_full_area(void **state)
{
	sweep_scenario(CMA_ARCH_X86, 3, 0, &op_dma, MUST_ALLOC | MUST_MIGRATE);
}

/*
 * Expect: the same with little room outside the area, so that targets
 * and __reclaim_pages must reclaim (drop clean file pages, swap anon
 * ones) while allocations and callbacks fail, and with a pinned page in
 * the first candidate range, which makes it -EBUSY and the allocation
 * retry at the next aligned one.
 */
static void sweep_dma_alloc_full_area_tight(void **state)
{
	sweep_scenario(CMA_ARCH_X86, 16, SC_PIN, &op_dma, MUST_ALLOC | MUST_MIGRATE | MUST_RECLAIM);
}

/*
 * Expect: dma_alloc_coherent on x86 (seed 010: CMA first, the buddy
 * allocator when CMA gives nothing) from the full area, the same; the
 * buffer comes zeroed from either.
 */
static void sweep_dma_alloc_coherent_x86(void **state)
{
	sweep_scenario(CMA_ARCH_X86, 3, 0, &op_coherent, MUST_ALLOC | MUST_MIGRATE);
}

/*
 * Expect: the same when a pinned page makes every candidate range of the
 * area busy, so that x86 falls back to an order-8 block of the buddy
 * allocator, from a zone fragmented enough that its slow path compacts.
 */
static void sweep_dma_alloc_coherent_x86_buddy(void **state)
{
	sweep_scenario(CMA_ARCH_X86, 3, SC_PIN_ALL, &op_coherent, MUST_ALLOC | MUST_MIGRATE);
}

/* Expect: dma_alloc_coherent on ARM (CMA only; the pool is for atomic requests), the same. */
static void sweep_dma_alloc_coherent_arm(void **state)
{
	sweep_scenario(CMA_ARCH_ARM, 3, 0, &op_coherent, MUST_ALLOC | MUST_MIGRATE);
}

/* Expect: a MOVABLE range full of owner pages, the same. */
static void sweep_alloc_contig_range_movable(void **state)
{
	sweep_scenario(CMA_ARCH_X86, 3, SC_MOVABLE_RANGE, &op_range, MUST_ALLOC | MUST_MIGRATE);
}

/* Expect: migrate_pages over a list, the same; what is left goes back to the LRU. */
static void sweep_migrate_pages_list(void **state)
{
	sweep_scenario(CMA_ARCH_X86, 3, 0, &op_migrate, MUST_ALLOC | MUST_MIGRATE);
}

/* Expect: whole-zone compaction of a fragmented zone, the same. */
static void sweep_compact_memory(void **state)
{
	sweep_scenario(CMA_ARCH_X86, 3, 0, &op_compact, MUST_MIGRATE);
}

/*
 * Expect: a kswapd pass over the full machine (nothing released, so
 * below the high mark; swap used up, every file page dirty) writes file
 * pages back and then drops them, the same whichever writeback or
 * reclaim fails.
 */
static void sweep_kswapd_writeback(void **state)
{
	sweep_scenario(CMA_ARCH_X86, 0, SC_WRITEBACK, &op_kswapd, MUST_RECLAIM | MUST_WRITEBACK);
}

/*
 * CMA_TEST_FILTER=pattern runs only the tests whose names match (cmocka's
 * filter); CMA_TEST_EXHAUSTIVE (make stress) every N of every sweep.
 */
int main(void)
{
	const char *filter = getenv("CMA_TEST_FILTER"), *all = getenv("CMA_TEST_EXHAUSTIVE");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sweep_dma_alloc_full_area),
		cmocka_unit_test(sweep_dma_alloc_full_area_tight),
		cmocka_unit_test(sweep_dma_alloc_coherent_x86),
		cmocka_unit_test(sweep_dma_alloc_coherent_x86_buddy),
		cmocka_unit_test(sweep_dma_alloc_coherent_arm),
		cmocka_unit_test(sweep_alloc_contig_range_movable),
		cmocka_unit_test(sweep_migrate_pages_list),
		cmocka_unit_test(sweep_compact_memory),
		cmocka_unit_test(sweep_kswapd_writeback),
	};

	if (filter)
		cmocka_set_test_filter(filter);
	exhaustive = all && *all && strcmp(all, "0");
	if (exhaustive) {
		printf("fault_sweep: every fault point of every sweep (CMA_TEST_EXHAUSTIVE)\n");
	} else {
		printf("fault_sweep: %d drawn fault points of each sweep besides its first and last (CMA_TEST_EXHAUSTIVE=1: every one)\n",
		       SAMPLE_POINTS);
		sample_seed = test_seed("fault_sweep");
	}
	return cmocka_run_group_tests_name("fault_sweep", tests, NULL, NULL);
}
