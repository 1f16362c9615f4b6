// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own boards: every ARM and arm64 board .dts of Linux 6.12
 * whose tree has a shared-dma-pool node, compiled by
 * tests/dt/build-corpus.sh into build/dt-corpus (make test builds it
 * once, before the tests; CMA_DT_CORPUS names another directory), each
 * read and booted through cmasim's platform code, in this process.
 *
 * Expect: every board boots or is refused with a reason, and the refused
 * ones are listed with it; a tree without a memory node (its bootloader
 * fills it in) boots with the RAM --memory would give, from the memory
 * node's unit address (else the lowest region's GiB) up past its highest
 * region; the architecture found is the directory's; and each reusable
 * shared-dma-pool region is a CMA area as the tree asks (6.12's
 * of_reserved_mem, rmem_cma_setup): a static one exactly at its reg, a
 * dynamic one of its size, aligned to its alignment and a pageblock,
 * inside one of its alloc-ranges, clear of every no-map region, and
 * activated; or, where the kernel makes none, the kernel's reason in
 * the log (cma= bypassing linux,cma-default, no room, no slot left).
 * A board whose linux,cma-default pool became an area boots again with
 * cma=32M: the pool is given back, MemTotal unchanged.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "mm/cma.h"
#include "mm/internal.h"
#include "board/platform.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

static char corpus[PATH_MAX];

struct tally {
	unsigned eligible, booted, with_memory, refused, skipped, failed, other_arch;
	unsigned pools_bypassed;	/* booted again with cma=32M over their default pool */
	char *refusals;			/* "  board: reason\n" lines */
	size_t refusals_len;
	FILE *refused_out;
	char *reasons[64];		/* distinct reasons, for counts */
	unsigned reason_count[64], nr_reasons;
};

static void count_reason(struct tally *t, const char *reason)
{
	unsigned i;

	for (i = 0; i < t->nr_reasons; i++)
		if (!strcmp(t->reasons[i], reason))
			break;
	if (i == t->nr_reasons) {
		if (i == 64)
			i = 63;
		else
			t->reasons[t->nr_reasons++] = strdup(reason);
	}
	t->reason_count[i]++;
}

/* The reason without the path and the addresses that make each board's own. */
static void refuse(struct tally *t, const char *board, const char *why)
{
	char general[256], *o = general;
	const char *s = strstr(why, ".dtb: ") ? strstr(why, ".dtb: ") + 6 : why;

	t->refused++;
	fprintf(t->refused_out, "  %s: %s\n", board, s);
	while (*s && o < general + sizeof(general) - 2) {
		if (s[0] == '/' && !strncmp(s, "/reserved-memory/", 17)) {
			o += sprintf(o, "REGION");
			s += 17;
			while (*s && *s != ' ')
				s++;
		} else if (s[0] == '0' && s[1] == 'x') {
			*o++ = 'X';
			s += 2;
			while ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f'))
				s++;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
	count_reason(t, general);
}

/* A tree without memory: the RAM a user would give with --memory. */
static void add_memory(struct platform *p)
{
	cma_phys_t lo = UINT64_MAX, hi = 0;

	for (unsigned i = 0; i < p->nr_rmem; i++) {
		const struct platform_rmem *m = &p->rmem[i];

		if (m->size) {
			lo = m->base < lo ? m->base : lo;
			hi = m->base + m->size > hi ? m->base + m->size : hi;
		}
		for (unsigned r = 0; r < m->nr_ranges; r++) {
			lo = m->ranges[r].base < lo ? m->ranges[r].base : lo;
			if (m->ranges[r].base + m->ranges[r].size > hi)
				hi = m->ranges[r].base + m->ranges[r].size;
		}
	}
	p->banks[0].base = p->memory_hint ? p->memory_hint : lo == UINT64_MAX ? 0x40000000 : lo & ~(GiB - 1);
	if (hi < p->banks[0].base + GiB)
		hi = p->banks[0].base + GiB;
	p->banks[0].size = (hi - p->banks[0].base + 256 * MiB - 1) & ~(256 * MiB - 1);
	p->nr_banks = 1;
	platform_dt_set_banks(p);
}

static char *dmesg_of(struct cma_mm *mm)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cma_mm_dmesg(mm, f);
	fclose(f);
	return buf;
}

static const struct cma_reserved *area_named(struct cma_mm *mm, const char *name)
{
	for (unsigned i = 0; i < mm->cma->nr_reserved; i++)
		if (!strncmp(mm->cma->reserved[i].name, name, sizeof(mm->cma->reserved[i].name) - 1))
			return &mm->cma->reserved[i];
	return NULL;
}

static bool overlaps(cma_phys_t a, uint64_t as, cma_phys_t b, uint64_t bs)
{
	return a < b + bs && b < a + as;
}

/* The kernel's reason for making no area of @m, in @log; NULL if none. */
static const char *why_no_area(const char *log, const struct platform_rmem *m)
{
	static const char *const reasons[] = {
		"Not enough slots for CMA reserved regions", "incorrect alignment of CMA region",
		"unable to setup CMA region", "failed to reserve memory for node",
	};
	char line[160];

	snprintf(line, sizeof(line), "failed to allocate memory for node '%s'", m->name);
	if (strstr(log, line))
		return "no room in its ranges";
	snprintf(line, sizeof(line), "bypass %s node", m->name);
	if (strstr(log, line))
		return "cma= bypasses it";
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (strstr(log, reasons[i]))
			return reasons[i];
	return NULL;
}

/* Each reusable pool region against its area; the number of mismatches, said. */
static unsigned check_areas(const char *board, const struct platform *p, struct cma_mm *mm)
{
	uint64_t pageblock = 1ull << (12 + p->cfg.pageblock_order);
	char *log = dmesg_of(mm);
	unsigned bad = 0;

	for (unsigned i = 0; i < p->nr_rmem; i++) {
		const struct platform_rmem *m = &p->rmem[i];
		const struct cma_reserved *r;
		uint64_t align = m->align > pageblock ? m->align : pageblock;
		bool in_range = !m->nr_ranges;
		const char *why;

		if (!m->pool || !m->reusable || m->nomap)
			continue;
		r = area_named(mm, m->name);
		if (!r) {
			why = why_no_area(log, m);
			if (!why) {
				printf("FAIL %s: %s asks for a CMA area; none was made and the log says no reason\n",
				       board, m->name);
				bad++;
			}
			continue;
		}
		if (m->size && (r->start != m->base || r->size != m->size)) {
			printf("FAIL %s: %s: area 0x%llx+0x%llx, the tree's reg 0x%llx+0x%llx\n", board, m->name,
			       (unsigned long long)r->start, (unsigned long long)r->size,
			       (unsigned long long)m->base, (unsigned long long)m->size);
			bad++;
		}
		if (!m->size && (r->size != m->dyn_size || r->start % align)) {
			printf("FAIL %s: %s: area 0x%llx+0x%llx, the tree asks for size 0x%llx aligned to 0x%llx\n",
			       board, m->name, (unsigned long long)r->start, (unsigned long long)r->size,
			       (unsigned long long)m->dyn_size, (unsigned long long)align);
			bad++;
		}
		for (unsigned k = 0; k < m->nr_ranges; k++)
			in_range |= r->start >= m->ranges[k].base &&
				    r->start + r->size <= m->ranges[k].base + m->ranges[k].size;
		if (!m->size && !in_range) {
			printf("FAIL %s: %s: area 0x%llx+0x%llx outside its alloc-ranges\n", board, m->name,
			       (unsigned long long)r->start, (unsigned long long)r->size);
			bad++;
		}
		for (unsigned k = 0; k < p->nr_rmem; k++)
			if (p->rmem[k].nomap && p->rmem[k].size &&
			    overlaps(r->start, r->size, p->rmem[k].base, p->rmem[k].size)) {
				printf("FAIL %s: %s: area 0x%llx+0x%llx overlaps no-map %s\n", board, m->name,
				       (unsigned long long)r->start, (unsigned long long)r->size, p->rmem[k].name);
				bad++;
			}
		if (!r->cma) {
			printf("FAIL %s: %s: area 0x%llx+0x%llx was not activated\n", board, m->name,
			       (unsigned long long)r->start, (unsigned long long)r->size);
			bad++;
		}
	}
	free(log);
	return bad;
}

/*
 * Expect (fdt_init_reserved_mem_node): cma=32M bypasses the tree's
 * linux,cma-default pool, which fails to initialize and is given back
 * (memblock_phys_free). The pool's pages and the cma= area's are both
 * managed (CMA pages count in MemTotal), so MemTotal with cma=32M is
 * MemTotal with the pool: a pool kept reserved takes its size off. Only
 * where the pool was an activated area; the number of mismatches, said.
 */
static unsigned check_pool_given_back(struct tally *t, const char *board, struct platform *p,
				      struct cma_mm *mm)
{
	const struct platform_rmem *pool = platform_dt_default_pool(p);
	const struct cma_reserved *r = pool ? area_named(mm, pool->name) : NULL;
	struct cma_device *devs[PLATFORM_MAX_DEVICES];
	struct cma_mm *bypassed = NULL;
	size_t len = strlen(p->cmdline);
	unsigned bad = 0;

	if (!r || !r->cma || platform_cmdline_cma(p->cmdline))
		return 0;
	t->pools_bypassed++;
	snprintf(p->cmdline + len, sizeof(p->cmdline) - len, "%scma=32M", len ? " " : "");
	if (platform_boot(p, NULL, NULL, &bypassed, devs)) {
		printf("FAIL %s: with cma=32M it did not boot\n", board);
		bad++;
	} else if (bypassed->totalram_pages != mm->totalram_pages) {
		printf("FAIL %s: MemTotal %lu kB with cma=32M, %lu kB with its %llu MiB pool %s: the pool not given back?\n",
		       board, bypassed->totalram_pages << (bypassed->page_shift - 10),
		       mm->totalram_pages << (mm->page_shift - 10), (unsigned long long)(r->size / MiB), pool->name);
		bad++;
	}
	cma_mm_destroy(bypassed);
	p->cmdline[len] = '\0';
	return bad;
}

static void boot_board(struct tally *t, const char *arch, const char *path)
{
	static struct platform p;
	struct cma_device *devs[PLATFORM_MAX_DEVICES];
	const char *board = strstr(path, "/dtb/") ? strstr(path, "/dtb/") + 5 : path;
	struct cma_mm *mm = NULL;
	char err[768];
	int ret;

	t->eligible++;
	if (strstr(path, " refused: ")) {
		char dts[PATH_MAX];

		snprintf(dts, sizeof(dts), "%s", strstr(path, "/boot/dts/") ? strstr(path, "/boot/dts/") + 10 : path);
		*strstr(dts, " refused: ") = 0;
		refuse(t, dts, "dtc could not compile it");
		return;
	}
	if (platform_load(path, &p, err, sizeof(err))) {
		refuse(t, board, err);
		return;
	}
	/*
	 * A Raspberry Pi 3 or 4 tree is built in both directories, the same
	 * tree: its ARMv8 cores run either kernel, and only the cells tell
	 */
	if ((p.cfg.arch == CMA_ARCH_ARM64) != !strcmp(arch, "arm64")) {
		printf("note %s: read as %s (an ARMv8 board; the %s directory builds it too)\n", board,
		       p.cfg.arch == CMA_ARCH_ARM64 ? "arm64" : "arm", arch);
		t->other_arch++;
	}
	if (!p.nr_banks) {
		add_memory(&p);
		t->with_memory++;
	}
	if (platform_dt_check(&p, err, sizeof(err))) {
		refuse(t, board, err);
		return;
	}
	p.cfg.quiet = true;
	ret = platform_boot(&p, NULL, NULL, &mm, devs);
	if (ret == -EINVAL) {
		refuse(t, board, "the library refused the configuration");
		return;
	}
	if (ret) {
		printf("FAIL %s: did not boot (%d)\n", board, ret);
		t->failed++;
		cma_mm_destroy(mm);
		return;
	}
	t->booted++;
	if (check_areas(board, &p, mm) || check_pool_given_back(t, board, &p, mm) || cma_mm_verify(mm))
		t->failed++;
	cma_mm_destroy(mm);
}

static void corpus_boards_boot_or_are_refused(void **state)
{
	struct tally t = { 0 };
	char path[PATH_MAX + 16], line[PATH_MAX + 64];
	struct timespec t0, t1, said = { 0 };
	FILE *list, *skipped;

	snprintf(path, sizeof(path), "%s/list", corpus);
	list = fopen(path, "r");
	if (!list)
		fail_msg("%s is missing: build the corpus with tests/dt/build-corpus.sh %s (make test does)", path,
			 corpus);
	snprintf(path, sizeof(path), "%s/skipped", corpus);
	skipped = fopen(path, "r");
	if (!skipped || fscanf(skipped, "%u", &t.skipped) != 1)
		t.skipped = 0;
	if (skipped)
		fclose(skipped);
	t.refused_out = open_memstream(&t.refusals, &t.refusals_len);
	assert_non_null(t.refused_out);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (fgets(line, sizeof(line), list)) {
		char *arch = strtok(line, " \n"), *file = strtok(NULL, "\n");

		if (arch && file)
			boot_board(&t, arch, file);
		if (test_progress_due(&said))
			printf("device-tree corpus: %u boards read so far\n", t.eligible);
	}
	fclose(list);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fclose(t.refused_out);
	printf("device-tree corpus: %u eligible ARM/arm64 boards, %u booted (%u with --memory, the tree having none; %u read as the other ARM; %u booted again with cma=32M over their linux,cma-default pool), %u refused, %u of other architectures skipped; %.1f s\n",
	       t.eligible, t.booted, t.with_memory, t.other_arch, t.pools_bypassed, t.refused, t.skipped,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (unsigned i = 0; i < t.nr_reasons; i++) {
		printf("  refused %u: %s\n", t.reason_count[i], t.reasons[i]);
		free(t.reasons[i]);
	}
	printf("refused boards:\n%s", t.refusals);
	free(t.refusals);
	assert_int_equal(t.failed, 0);
	assert_int_equal(t.booted + t.refused, t.eligible);
	assert_true(t.eligible > 0);
}

static int setup(void **state)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *env = getenv("CMA_DT_CORPUS");

	if (n <= 0)
		return -1;
	exe[n] = 0;
	/* BUILD/tests/test_dt_corpus -> the source tree; the corpus is build/'s, whatever BUILD */
	if (env)
		snprintf(corpus, sizeof(corpus), "%s", env);
	else
		snprintf(corpus, sizeof(corpus), "%s/build/dt-corpus", dirname(dirname(dirname(exe))));
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_boards_boot_or_are_refused),
	};

	return cmocka_run_group_tests_name("the kernel's device trees", tests, setup, NULL);
}
