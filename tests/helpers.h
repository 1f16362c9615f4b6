/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test helpers: machines built in one call, seeds that can be replayed
 * (CMA_TEST_SEED), and small queries of allocator state.
 */
#ifndef CMA_TESTS_HELPERS_H
#define CMA_TESTS_HELPERS_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cma/cma.h>
#include "mm/internal.h"
#include "lib/prandom.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GiB (1ull << 30)

/*
 * The shape of a test machine. Every field left 0 takes the default named
 * beside it, so a test writes only what it depends on:
 *	test_mm(.size = 32 * MiB, .cpus = 4, .swap = 8 * MiB)
 */
struct test_shape {
	uint64_t size;			/* RAM bytes in one bank at @base; 0: 64 MiB */
	cma_phys_t base;
	const struct cma_bank *banks;	/* instead of @size/@base: these banks */
	unsigned nr_banks;
	bool metadata_only;		/* false: backed by bytes */
	unsigned cpus;			/* 0: 1 */
	enum cma_arch arch;		/* 0: x86 */
	unsigned page_shift;		/* 0: 4 KiB pages */
	unsigned max_order;		/* 0: the library's (11) */
	unsigned pageblock_order;	/* 0: the library's (max_order - 1) */
	cma_phys_t dma_end;		/* 0: no ZONE_DMA */
	cma_phys_t dma32_end;		/* 0: no ZONE_DMA32 */
	cma_phys_t highmem_start;	/* 0: no ZONE_HIGHMEM */
	uint64_t swap;			/* swap bytes; 0: none */
	uint64_t atomic_pool;		/* ARM's atomic DMA pool; 0: 256 KiB */
	const char *cmdline;		/* NULL: "cma=0", no default area */
	const char *kconfig;
	const char *kernel;		/* the kernel profile; NULL: the run's (CMA_TEST_KERNEL) */
	/*
	 * [cma_base, cma_base + cma_size) reserved early and handed to the
	 * allocator as MIGRATE_CMA pageblocks after boot
	 * (init_cma_reserved_pageblock), watermarks recomputed after, as the
	 * core initcall and module_init order it. 0: none.
	 */
	cma_phys_t cma_base;
	uint64_t cma_size;
};

/* The configuration of @shape; its one bank, if it has no @banks, in *@bank. */
struct cma_mm_config test_config(const struct test_shape *shape, struct cma_bank *bank);
/* The early machine of @shape (memblock only, @cma range reserved), failing the test on error. */
struct cma_mm *test_mm_create(const struct test_shape *shape);
/* The machine of @shape booted, its CMA range activated, verified. */
struct cma_mm *test_mm_boot(const struct test_shape *shape);
/* The machine of most CMA tests: 64 MiB, DMA below 16 MiB, 16 MiB of CMA at 32 MiB. */
#define TEST_CMA_32M .dma_end = 16 * MiB, .cma_base = 32 * MiB, .cma_size = 16 * MiB
#define test_mm(...) test_mm_boot(&(struct test_shape){ __VA_ARGS__ })
#define test_mm_early(...) test_mm_create(&(struct test_shape){ __VA_ARGS__ })
/* Boot @cfg, failing the test on error. */
/*
 * The kernel profile of the run: CMA_TEST_KERNEL, else "3.5". Machines
 * made without a profile get it; __real_cma_mm_create bypasses that.
 */
const char *test_kernel(void);
int __real_cma_mm_create(const struct cma_mm_config *cfg, struct cma_mm **mmp);
int __wrap_cma_mm_create(const struct cma_mm_config *cfg, struct cma_mm **mmp);
/* Skip a test about a rule only the 3.5 profile has (its comment names the rule). */
#define SKIP_UNLESS_KERNEL_35() do { if (strcmp(test_kernel(), "3.5")) skip(); } while (0)

struct cma_mm *test_boot(const struct cma_mm_config *cfg);

/*
 * Join @thread, or fail the test if it has not ended within @seconds: a
 * stuck thread (what the per-CPU pagevecs hold is printed: a count above
 * PAGEVEC_SIZE is an overflow) fails rather than hangs the test run. The
 * stuck thread is left behind; the machine is not destroyed.
 */
void test_join_or_fail(struct cma_mm *mm, pthread_t thread, const char *what, int seconds);
#define TEST_JOIN_DEADLINE	300	/* threads of thousands of operations, slowed down by sanitizers */

/*
 * The machine of @mode with what a case adds: each field nonzero in
 * @extra replaces @mode's (a case's sizes, zones and CMA range over the
 * runner's page size and CPUs).
 */
struct cma_mm *test_mm_boot_mode(const struct test_shape *mode, struct test_shape extra);
#define test_mm_mode(mode, ...) test_mm_boot_mode(mode, (struct test_shape){ __VA_ARGS__ })

/* ---- the mode runner (as the kernel's tools/testing/memblock runs each case per setup) ---- */

/*
 * A case that holds in every machine shape: it boots its machine with
 * test_mm_mode(mode, what it needs) and counts in mm->page_shift,
 * mm->pageblock_nr_pages and mm->max_order, never in 4 KiB pages.
 */
typedef void (*test_mode_fn)(const struct test_shape *mode);
struct test_mode_case {
	const char *name;
	test_mode_fn fn;
};
#define test_mode_case(f) { #f, f }
/*
 * Run each of @cases in every mode (4 KiB and 64 KiB pages, 1 and 4 CPUs,
 * backed and metadata-only) as a cmocka test of its own named
 * "case [mode]", so that a failure names its mode. Returns the failures.
 */
int test_run_modes(const char *group, const struct test_mode_case *cases, size_t nr);
#define test_run_mode_cases(group, cases) \
	test_run_modes(group, cases, sizeof(cases) / sizeof((cases)[0]))

/*
 * A case that holds under several kernel profiles, each a cmocka test of
 * its own named "case [kernel K]", so that a failure names its profile
 * (memblock's prefix_push). @kernel is the profile, @k its index in the
 * case's list, for expectations kept in arrays beside it.
 */
typedef void (*test_kernel_fn)(const char *kernel, unsigned k);
/*
 * A case that leaves what it builds (a machine, a fixture) in cmocka's
 * *@state, for @teardown to free after each profile's run, passed or not.
 */
typedef void (*test_kernel_state_fn)(void **state, const char *kernel, unsigned k);
struct test_kernel_case {
	const char *name;
	test_kernel_fn fn;
	const char *const *kernels;
	unsigned nr_kernels;
	test_kernel_state_fn state_fn;		/* instead of fn */
	CMFixtureFunction teardown;		/* of state_fn's *state */
};
#define test_kernel_case(f, kernels) { #f, f, kernels, sizeof(kernels) / sizeof((kernels)[0]), NULL, NULL }
#define test_kernel_case_teardown(f, kernels, teardown) \
	{ #f, NULL, kernels, sizeof(kernels) / sizeof((kernels)[0]), f, teardown }
/* Run each of @cases under each of its kernels: the failures. */
int test_run_kernels(const char *group, const struct test_kernel_case *cases, size_t nr);
#define test_run_kernel_cases(group, cases) \
	test_run_kernels(group, cases, sizeof(cases) / sizeof((cases)[0]))

/* The seed of a randomized test: CMA_TEST_SEED, or time; printed either way. */
unsigned long test_seed(const char *test);

/*
 * True once TEST_PROGRESS_SECONDS have passed since the last time it was
 * (or since @said was zeroed): a long loop prints a line of progress then,
 * so that make test never goes long without output.
 */
#define TEST_PROGRESS_SECONDS 8
bool test_progress_due(struct timespec *said);

/* Free pages of @zone on the lists of @mt (all orders). */
unsigned long free_pages_of_type(struct zone *zone, int mt);
unsigned long pcp_count(struct cma_mm *mm, unsigned cpu, enum zone_type z);

#define assert_verify(mm) assert_int_equal(cma_mm_verify(mm), 0)

/* ---- machine-wide queries and exhaustion (test_memblock, test_boot, test_verify) ---- */

/*
 * Watermarks and lowmem_reserve to 0, as min_free_kbytes = 0 by sysctl
 * would: order-0 requests may then take the last free page. The highmem
 * min mark does not follow min_free_kbytes, so it is zeroed directly.
 */
void test_zero_watermarks(struct cma_mm *mm);
/*
 * @zone's marks at its free pages plus @min, @low and @high (which may be
 * negative), as a min_free_kbytes write sets marks: the fair zone policy's
 * batch (3.12-4.7) refilled to the new high less low.
 */
void test_marks_from_free(struct zone *zone, long min, long low, long high);
/* The valid pageblocks of @mm of type @mt. */
unsigned long test_count_pageblocks(struct cma_mm *mm, int mt);
/*
 * Order-0 allocations of @gfp until the allocator gives none, draining the
 * per-CPU lists between rounds so that no free page stays stranded there;
 * the pages go to pages[0..max). Fails the test if @max is reached.
 * Returns how many pages were allocated.
 */
unsigned long test_alloc_all(struct cma_mm *mm, cma_gfp_t gfp, struct cma_page **pages,
			     unsigned long max);
/*
 * An @order page of @gfp from the slow path: the Normal zone's low and
 * high marks raised over its free pages for the fast attempt, then put
 * back. Fails the test if none is given.
 */
struct cma_page *test_alloc_pages_slowpath(struct cma_mm *mm, cma_gfp_t gfp, unsigned order);
/* The first line (from 1) where texts @a and @b differ, for a failure message. */
int first_difference(const char *a, const char *b);
/* The machine's log (cma_mm_dmesg) as a NUL-terminated string; free() it. */
char *test_dmesg(struct cma_mm *mm);
/* The file at @path as a NUL-terminated string, failing the test if it cannot be read; free() it. */
char *test_read_file(const char *path);
/* @rel of the source tree (BUILD/tests/test_X -> BUILD/../@rel) into @path: 0 if readable, else -1. */
int test_source_path(const char *rel, char *path, size_t len);
/* The program @name of the build (BUILD/@name, beside tests/) into @path: 0 if executable, else -1. */
int test_build_program(const char *name, char *path, size_t len);
/* $CMASIM, else the build's cmasim, into @path: 0 if it runs, else -1 after saying so for @test on stderr. */
int test_cmasim_program(const char *test, char *path, size_t len);
/* The machine's /proc file @name (cma_write_proc) as a string; free() it. */
char *test_proc_read(struct cma_mm *mm, const char *name);
/* /proc/meminfo's @field ("SwapCached") in kB, failing the test if it has no such line. */
unsigned long test_meminfo_kb(struct cma_mm *mm, const char *field);
/* /proc/vmstat's line @name ("nr_swapcached"), failing the test if it has no such line. */
unsigned long test_vmstat_line(struct cma_mm *mm, const char *name);
/*
 * Fail unless @text is the golden file @name byte for byte, saying from
 * which line on it differs. The files are tests/golden/ of the source
 * tree, or CMA_GOLDEN_DIR; CMA_UPDATE_GOLDEN=1 rewrites them instead.
 */
void test_expect_golden(const char *name, const char *text);

/* The counter @name (cma_mm_counter), failing the test when there is none. */
uint64_t test_counter(struct cma_mm *mm, const char *name);
/* Fail with "kernel K: WHAT: expected W, got G" unless @want is @got: a test run per release. */
void expect_kernel(const char *kernel, const char *what, long want, long got);
/*
 * Whether release @kernel is @major.@minor or later: a test's own
 * knowledge of when a rule came, not the library's switch table, so
 * that a switch missing from the library fails the test.
 */
bool test_kernel_since(const char *kernel, unsigned major, unsigned minor);
/* Each release of the NULL-terminated @list. */
#define for_each_kernel(k, list) \
	for (const char *const *k = (list); *k; k++)
/* Fail naming @kernel and @phase unless cma_mm_verify() passes. */
void test_verify_kernel(struct cma_mm *mm, const char *kernel, const char *phase);

/* ---- counters cma_mm_verify leaves alone (test_mobility_stress, test_fault_sweep) ---- */

/*
 * With no reclaim or migration running: NR_FILE_DIRTY equals the dirty
 * file pages found in mem_map, NR_WRITEBACK and NR_ISOLATED_* are 0.
 * Returns 0, or -1 with what differs written to @why.
 */
int test_check_idle_counters(struct cma_mm *mm, char *why, size_t len);

#endif
