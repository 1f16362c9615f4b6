// SPDX-License-Identifier: GPL-2.0
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

/*
 * CMA_TEST_KERNEL=6.12 runs the suite under that kernel profile: a
 * machine a test makes without naming a profile gets it. The test
 * programs link with --wrap=cma_mm_create (Makefile's TEST_WRAP).
 */
int __wrap_cma_mm_create(const struct cma_mm_config *cfg, struct cma_mm **mmp)
{
	struct cma_mm_config c;

	if (!cfg || cfg->kernel)
		return __real_cma_mm_create(cfg, mmp);
	c = *cfg;
	c.kernel = test_kernel();
	return __real_cma_mm_create(&c, mmp);
}

const char *test_kernel(void)
{
	const char *k = getenv("CMA_TEST_KERNEL");

	return k && *k ? k : "3.5";
}

/*
 * make test sends a test's output through a pipe to its log, its error
 * output straight to the log: line by line, the two keep their order
 * there (a pipe would otherwise hold the output until the test ends).
 */
__attribute__((constructor)) static void stdout_by_line(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

struct cma_mm *test_boot(const struct cma_mm_config *cfg)
{
	struct cma_mm_config c = *cfg;
	struct cma_mm *mm = NULL;

	/* no default CMA area unless the test asks for one */
	if (!c.cmdline)
		c.cmdline = "cma=0";
	assert_int_equal(cma_mm_create(&c, &mm), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	return mm;
}

struct cma_mm_config test_config(const struct test_shape *shape, struct cma_bank *bank)
{
	*bank = (struct cma_bank){ shape->base, shape->size ? shape->size : 64 * MiB };
	return (struct cma_mm_config){
		.arch = shape->arch,
		.banks = shape->banks ? shape->banks : bank,
		.nr_banks = shape->banks ? shape->nr_banks : 1,
		.page_shift = shape->page_shift,
		.max_order = shape->max_order,
		.pageblock_order = shape->pageblock_order,
		.zone_dma_end = shape->dma_end,
		.zone_dma32_end = shape->dma32_end,
		.highmem_start = shape->highmem_start,
		.cmdline = shape->cmdline ? shape->cmdline : "cma=0",
		.kconfig = shape->kconfig,
		.swap_bytes = shape->swap,
		.atomic_pool_size = shape->atomic_pool,
		.metadata_only = shape->metadata_only,
		.nr_cpus = shape->cpus,
		.kernel = shape->kernel,
	};
}

struct cma_mm *test_mm_create(const struct test_shape *shape)
{
	struct cma_bank bank;
	struct cma_mm_config cfg = test_config(shape, &bank);
	struct cma_mm *mm = NULL;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	if (shape->cma_size)
		assert_int_equal(cma_memblock_reserve(mm, shape->cma_base, shape->cma_size), 0);
	return mm;
}

static void test_activate_cma(struct cma_mm *mm, unsigned long start_pfn, unsigned long nr_pages)
{
	for (unsigned long pfn = start_pfn; pfn < start_pfn + nr_pages; pfn += mm->pageblock_nr_pages)
		init_cma_reserved_pageblock(mm, cma_pfn_to_page(mm, pfn));
	init_per_zone_wmark_min(mm);
}

struct cma_mm *test_mm_boot(const struct test_shape *shape)
{
	struct cma_mm *mm = test_mm_create(shape);

	assert_int_equal(cma_mm_boot(mm), 0);
	if (shape->cma_size)
		test_activate_cma(mm, shape->cma_base >> mm->page_shift,
				  shape->cma_size >> mm->page_shift);
	assert_verify(mm);
	return mm;
}

struct cma_mm *test_mm_boot_mode(const struct test_shape *mode, struct test_shape extra)
{
	struct test_shape s = *mode;

#define MERGE(field) if (extra.field) s.field = extra.field
	MERGE(size); MERGE(base); MERGE(banks); MERGE(nr_banks); MERGE(metadata_only);
	MERGE(cpus); MERGE(arch); MERGE(page_shift); MERGE(max_order); MERGE(pageblock_order);
	MERGE(dma_end); MERGE(dma32_end); MERGE(highmem_start); MERGE(swap); MERGE(atomic_pool);
	MERGE(cmdline); MERGE(kconfig); MERGE(kernel); MERGE(cma_base); MERGE(cma_size);
#undef MERGE
	return test_mm_boot(&s);
}

/*
 * The modes. 64 KiB pages take ppc64's orders (MAX_ORDER 9, 16 MiB
 * pageblocks) rather than 64 MiB blocks of orders 0..10, and 256 MiB of
 * RAM: at 64 MiB (1024 pages) grouping by mobility would be off, since
 * 6 pageblocks make 1536 pages.
 */
static const struct {
	const char *name;
	unsigned page_shift, max_order, pageblock_order;
	uint64_t size;
} mode_pages[] = { { "4K pages", 12, 0, 0, 64 * MiB }, { "64K pages", 16, 9, 8, 256 * MiB } };
static const unsigned mode_cpus[] = { 1, 4 };

/* One cmocka test of a runner: a case in a mode, or under a kernel profile. */
struct case_run {
	test_mode_fn mode_fn;
	struct test_shape shape;
	test_kernel_fn kernel_fn;
	test_kernel_state_fn kernel_state_fn;
	CMFixtureFunction teardown;
	void *state;		/* kernel_state_fn's, for teardown */
	const char *kernel;
	unsigned k;
};

static void run_case(void **state)
{
	struct case_run *run = *state;

	if (run->mode_fn)
		run->mode_fn(&run->shape);
	else if (run->kernel_state_fn)
		run->kernel_state_fn(&run->state, run->kernel, run->k);
	else
		run->kernel_fn(run->kernel, run->k);
}

static int run_teardown(void **state)
{
	struct case_run *run = *state;

	return run->teardown(&run->state);
}

/* Mode @m of 8: bit 0 backed, bit 1 four CPUs, bit 2 64 KiB pages. */
static struct test_shape mode_shape(unsigned m, char **name)
{
	unsigned p = m >> 2 & 1, cpus = mode_cpus[m >> 1 & 1];
	bool backed = m & 1;

	assert_true(asprintf(name, "%s, %u CPU%s, %s", mode_pages[p].name, cpus, cpus > 1 ? "s" : "",
			     backed ? "backed" : "metadata-only") > 0);
	return (struct test_shape){
		.size = mode_pages[p].size, .page_shift = mode_pages[p].page_shift,
		.max_order = mode_pages[p].max_order, .pageblock_order = mode_pages[p].pageblock_order,
		.cpus = cpus, .metadata_only = !backed,
	};
}

/* @runs[0..@n) as the cmocka group @group, named @names; frees all three. */
static int run_cases(const char *group, struct case_run *runs, char **names, size_t n)
{
	struct CMUnitTest *tests = calloc(n, sizeof(*tests));
	int failed;

	assert_non_null(tests);
	for (size_t i = 0; i < n; i++)
		tests[i] = (struct CMUnitTest){ .name = names[i], .test_func = run_case,
						.teardown_func = runs[i].teardown ? run_teardown : NULL,
						.initial_state = &runs[i] };
	failed = _cmocka_run_group_tests(group, tests, n, NULL, NULL);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(runs);
	free(tests);
	return failed;
}

int test_run_modes(const char *group, const struct test_mode_case *cases, size_t nr)
{
	const unsigned modes = 8;
	struct case_run *runs = calloc(nr * modes, sizeof(*runs));
	char **names = calloc(nr * modes, sizeof(*names));

	assert_true(runs && names);
	for (size_t n = 0; n < nr * modes; n++) {
		char *mode;

		runs[n] = (struct case_run){ .mode_fn = cases[n / modes].fn,
					     .shape = mode_shape(n % modes, &mode) };
		assert_true(asprintf(&names[n], "%s [%s]", cases[n / modes].name, mode) > 0);
		free(mode);
	}
	return run_cases(group, runs, names, nr * modes);
}

int test_run_kernels(const char *group, const struct test_kernel_case *cases, size_t nr)
{
	size_t n = 0, total = 0;
	struct case_run *runs;
	char **names;

	for (size_t c = 0; c < nr; c++)
		total += cases[c].nr_kernels;
	runs = calloc(total, sizeof(*runs));
	names = calloc(total, sizeof(*names));
	assert_true(runs && names);
	for (size_t c = 0; c < nr; c++)
		for (unsigned k = 0; k < cases[c].nr_kernels; k++, n++) {
			runs[n] = (struct case_run){ .kernel_fn = cases[c].fn,
						     .kernel_state_fn = cases[c].state_fn,
						     .teardown = cases[c].teardown,
						     .kernel = cases[c].kernels[k], .k = k };
			assert_true(asprintf(&names[n], "%s [kernel %s]", cases[c].name,
					     cases[c].kernels[k]) > 0);
		}
	return run_cases(group, runs, names, total);
}

unsigned long test_seed(const char *test)
{
	const char *env = getenv("CMA_TEST_SEED");
	unsigned long seed = env ? strtoul(env, NULL, 0) : (unsigned long)time(NULL);

	printf("%s: seed %lu (replay with CMA_TEST_SEED=%lu)\n", test, seed, seed);
	return seed;
}

bool test_progress_due(struct timespec *said)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!said->tv_sec && !said->tv_nsec)
		*said = now;
	if (now.tv_sec - said->tv_sec < TEST_PROGRESS_SECONDS)
		return false;
	*said = now;
	return true;
}

unsigned long free_pages_of_type(struct zone *zone, int mt)
{
	unsigned long n = 0;

	spin_lock(&zone->lock);
	for (unsigned o = 0; o < zone->mm->max_order; o++)
		for (struct cma_page *p = page_list_first(zone->mm, &zone->free_area[o].free_list[mt]); p;
		     p = page_list_next(zone->mm, p))
			n += 1ul << o;
	spin_unlock(&zone->lock);
	return n;
}

unsigned long pcp_count(struct cma_mm *mm, unsigned cpu, enum zone_type z)
{
	return (unsigned long)mm->slots[cpu].pcp[z].count;
}

void test_zero_watermarks(struct cma_mm *mm)
{
	struct zone *z;

	for_each_zone(mm, z) {
		spin_lock(&z->lock);
		for (int w = 0; w < NR_WMARK; w++)
			__atomic_store_n(&z->watermark[w], 0, __ATOMIC_RELAXED);
		for (int j = 0; j < MAX_NR_ZONES; j++)
			__atomic_store_n(&z->lowmem_reserve[j], 0, __ATOMIC_RELAXED);
		/* as setup_per_zone_wmarks would: the fair policy's batch follows the marks */
		zone_refill_alloc_batch(z);
		spin_unlock(&z->lock);
	}
	mm->min_free_kbytes = 0;
}

void test_marks_from_free(struct zone *zone, long min, long low, long high)
{
	long free = (long)zone_page_state(zone, NR_FREE_PAGES);

	spin_lock(&zone->lock);
	__atomic_store_n(&zone->watermark[WMARK_MIN], (unsigned long)(free + min), __ATOMIC_RELAXED);
	__atomic_store_n(&zone->watermark[WMARK_LOW], (unsigned long)(free + low), __ATOMIC_RELAXED);
	__atomic_store_n(&zone->watermark[WMARK_HIGH], (unsigned long)(free + high), __ATOMIC_RELAXED);
	zone_refill_alloc_batch(zone);
	spin_unlock(&zone->lock);
}

unsigned long test_count_pageblocks(struct cma_mm *mm, int mt)
{
	unsigned long n = 0;

	for (unsigned long pfn = mm->base_pfn; pfn < mm->end_pfn; pfn += mm->pageblock_nr_pages)
		if (pfn_valid(mm, pfn) && get_pageblock_migratetype(mm, pfn) == mt)
			n++;
	return n;
}

unsigned long test_alloc_all(struct cma_mm *mm, cma_gfp_t gfp, struct cma_page **pages,
			     unsigned long max)
{
	unsigned long n = 0;

	for (;;) {
		unsigned long before = n;
		struct cma_page *page;

		while ((page = cma_alloc_pages(mm, gfp, 0))) {
			if (n == max) {
				cma_free_pages(mm, page, 0);
				print_error("test_alloc_all: expected at most %lu pages, found more\n", max);
				fail();
			}
			pages[n++] = page;
		}
		cma_drain_all_pages(mm);
		if (n == before)
			return n;
	}
}

struct cma_page *test_alloc_pages_slowpath(struct cma_mm *mm, cma_gfp_t gfp, unsigned order)
{
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long wm[NR_WMARK], over = zone_page_state(z, NR_FREE_PAGES) + 1000;
	struct cma_page *page;

	memcpy(wm, z->watermark, sizeof(wm));
	z->watermark[WMARK_LOW] = over;
	z->watermark[WMARK_HIGH] = over;
	page = cma_alloc_pages(mm, gfp, order);
	memcpy(z->watermark, wm, sizeof(wm));
	assert_non_null(page);
	return page;
}

int first_difference(const char *a, const char *b)
{
	int line = 1;

	for (; *a && *a == *b; a++, b++)
		line += *a == '\n';
	return line;
}

char *test_dmesg(struct cma_mm *mm)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cma_mm_dmesg(mm, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

char *test_proc_read(struct cma_mm *mm, const char *name)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cma_write_proc(mm, name, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The number after @name and @sep on a line of /proc/@file, or the test fails. */
static unsigned long proc_line_value(struct cma_mm *mm, const char *file, const char *name, char sep)
{
	char *buf = test_proc_read(mm, file), *at;
	size_t n = strlen(name);
	unsigned long v = 0;

	for (at = buf; *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : at + strlen(at))
		if (!strncmp(at, name, n) && at[n] == sep)
			break;
	if (!*at || sscanf(at + n + 1, "%lu", &v) != 1)
		fail_msg("no %s line in /proc/%s", name, file);
	free(buf);
	return v;
}

unsigned long test_meminfo_kb(struct cma_mm *mm, const char *field)
{
	return proc_line_value(mm, "meminfo", field, ':');
}

unsigned long test_vmstat_line(struct cma_mm *mm, const char *name)
{
	return proc_line_value(mm, "vmstat", name, ' ');
}

/* BUILD/@rel into @path (BUILD/tests/test_X -> BUILD), then @mode's access(): 0 or -1. */
static int build_relative(const char *rel, char *path, size_t len, int mode)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = 0;
	if ((size_t)snprintf(path, len, "%s/%s", dirname(dirname(exe)), rel) >= len)
		return -1;
	return access(path, mode);
}

int test_source_path(const char *rel, char *path, size_t len)
{
	char up[PATH_MAX];

	if ((size_t)snprintf(up, sizeof(up), "../%s", rel) >= sizeof(up))
		return -1;
	return build_relative(up, path, len, R_OK);
}

int test_build_program(const char *name, char *path, size_t len)
{
	return build_relative(name, path, len, X_OK);
}

int test_cmasim_program(const char *test, char *path, size_t len)
{
	if (getenv("CMASIM"))
		snprintf(path, len, "%s", getenv("CMASIM"));
	else
		test_build_program("cmasim", path, len);	/* said below if missing */
	if (access(path, X_OK)) {
		fprintf(stderr, "%s: no %s to run\n", test, path);
		return -1;
	}
	return 0;
}

char *test_read_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r"), *mem;
	int c;

	if (!f)
		fail_msg("cannot read %s", path);
	mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	while ((c = fgetc(f)) != EOF)
		fputc(c, mem);
	fclose(f);
	assert_int_equal(fclose(mem), 0);
	return buf;
}

void test_expect_golden(const char *name, const char *text)
{
	const char *dir = getenv("CMA_GOLDEN_DIR");
	char rel[PATH_MAX], path[2 * PATH_MAX];
	char *want;

	snprintf(rel, sizeof(rel), "tests/golden/%s", name);
	if (dir)
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	else
		test_source_path(rel, path, sizeof(path));	/* a missing file is said below */
	if (getenv("CMA_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		assert_true(fputs(text, f) >= 0);
		assert_int_equal(fclose(f), 0);
		printf("updated %s\n", path);
		return;
	}
	if (access(path, R_OK))
		fail_msg("golden file %s is missing: run with CMA_UPDATE_GOLDEN=1 to write it", path);
	want = test_read_file(path);
	if (strcmp(want, text))
		fail_msg("the output differs from %s from line %d on; it was:\n%s", path,
			 first_difference(want, text), text);
	free(want);
}

uint64_t test_counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

void expect_kernel(const char *kernel, const char *what, long want, long got)
{
	if (want != got)
		fail_msg("kernel %s: %s: expected %ld, got %ld", kernel, what, want, got);
}

bool test_kernel_since(const char *kernel, unsigned major, unsigned minor)
{
	unsigned ma = 0, mi = 0;

	assert_int_equal(sscanf(kernel, "%u.%u", &ma, &mi), 2);
	return ma * 100 + mi >= major * 100 + minor;
}

void test_verify_kernel(struct cma_mm *mm, const char *kernel, const char *phase)
{
	if (cma_mm_verify(mm))
		fail_msg("kernel %s: %s: cma_mm_verify failed", kernel, phase);
}

int test_check_idle_counters(struct cma_mm *mm, char *why, size_t len)
{
	long dirty = 0, counted = 0, writeback = 0, isolated = 0;
	struct zone *z;

	for (unsigned long pfn = mm->base_pfn; pfn < mm->end_pfn; pfn++) {
		struct cma_page *page = cma_pfn_to_page(mm, pfn);

		if (page && page_test(page, PG_head) && page_test(page, PG_movable) &&
		    !page_test(page, PG_swapbacked) && page_test(page, PG_dirty))
			dirty++;
	}
	for_each_zone(mm, z) {
		counted += atomic_load(&z->vm_stat[NR_FILE_DIRTY]);
		writeback += atomic_load(&z->vm_stat[NR_WRITEBACK]);
		isolated += atomic_load(&z->vm_stat[NR_ISOLATED_ANON]) +
			    atomic_load(&z->vm_stat[NR_ISOLATED_FILE]);
	}
	if (counted == dirty && !writeback && !isolated)
		return 0;
	snprintf(why, len, "NR_FILE_DIRTY %ld, NR_WRITEBACK %ld, NR_ISOLATED %ld: expected %ld dirty file pages as mem_map holds, none under writeback or isolated",
		 counted, writeback, isolated, dirty);
	return -1;
}

void test_join_or_fail(struct cma_mm *mm, pthread_t thread, const char *what, int seconds)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += seconds;
	if (!pthread_timedjoin_np(thread, NULL, &deadline))
		return;
	for (unsigned c = 0; c < mm->nr_cpus; c++) {
		struct cpu_slot *slot = &mm->slots[c];

		if (spin_trylock(&slot->lock)) {
			fprintf(stderr, "cpu %u: pagevec holds %u pages (PAGEVEC_SIZE %u)\n", c,
				slot->lru_add_pvec.nr, pagevec_size(mm));
			spin_unlock(&slot->lock);
		}
	}
	fail_msg("a %s thread did not end within %d s: expected every thread to finish", what,
		 seconds);
}
