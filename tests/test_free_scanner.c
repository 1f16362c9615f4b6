// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for compaction's free scanner (src/mm/compaction.c,
 * isolate_freepages_block) where a pageblock has a hole: the scanner
 * finds the free blocks' heads from zone->free_heads and counts the pfns
 * it passes over, and those counts must be the kernel's, pfn by pfn
 * (compact_free_scanned counts the valid pfns looked at, a hole's none).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "owners.h"

/* The first free scan's figures (mm_compaction_isolate_freepages). */
struct first_scan {
	long scanned, taken;
};

static long field(const char *line, const char *name)
{
	const char *p = strstr(line, name);

	return p ? strtol(p + strlen(name), NULL, 10) : -1;
}

static void record_first_scan(void *ctx, const char *event_name, const char *line)
{
	struct first_scan *f = ctx;

	if (f->scanned < 0 && !strcmp(event_name, "mm_compaction_isolate_freepages")) {
		f->scanned = field(line, "nr_scanned=");
		f->taken = field(line, "nr_taken=");
	}
}

/*
 * Expect (3.5's whole-block scan; 4.0's free_scan_enough, with more
 * pages to migrate than the block has free): the zone's top pageblock,
 * 512 pfns of which 16 are a hole between two banks, is the free
 * scanner's first; all else in it allocated but two order-0 pages, it
 * looks at the 496 valid pfns and takes the two.
 *
 *   bank 0 [0, 62M+64K)  hole 64K  bank 1 [62M+128K, 64M)
 *   top pageblock [62M, 64M): pfns 15872..16383, hole 15888..15903
 */
static void free_scan_counts_a_hole_out(const char *kernel, unsigned k)
{
	const struct cma_bank banks[] = {
		{ 0, 62 * MiB + 64 * KiB }, { 62 * MiB + 128 * KiB, 2 * MiB - 128 * KiB },
	};
	struct cma_mm *mm = test_mm(.banks = banks, .nr_banks = 2, .pageblock_order = 9,
				    .kernel = kernel);
	unsigned long top = (64 * MiB >> mm->page_shift) - mm->pageblock_nr_pages;
	unsigned long keep[] = { top + 100, top + 300 };
	struct cma_page **taken = calloc(mm->pageblock_nr_pages, sizeof(*taken));
	struct fake_owner *o = owner_create(mm, true, 64);
	struct first_scan f = { -1, -1 };

	assert_non_null(taken);
	for (unsigned long i = 0; i < mm->pageblock_nr_pages; i++)
		taken[i] = cma_alloc_pages_at(mm, top + i, 0, CMA_GFP_KERNEL);
	assert_null(taken[16]);		/* the hole */
	owner_fault_range(o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
	for (unsigned i = 0; i < 2; i++) {
		assert_non_null(taken[keep[i] - top]);
		cma_free_pages(mm, taken[keep[i] - top], 0);
		taken[keep[i] - top] = NULL;
	}
	cma_drain_all_pages(mm);
	cma_mm_set_trace(mm, record_first_scan, &f);
	assert_int_equal(cma_compact_memory(mm), 0);
	cma_mm_set_trace(mm, NULL, NULL);
	if (f.scanned != 496 || f.taken != 2)
		fail_msg("the top block's scan: expected 496 pfns looked at and 2 pages taken, "
			 "found %ld and %ld", f.scanned, f.taken);
	for (unsigned long i = 0; i < mm->pageblock_nr_pages; i++)
		if (taken[i])
			cma_free_pages(mm, taken[i], 0);
	free(taken);
	owner_destroy(o);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

static const char *const kernels[] = { "3.5", "4.0" };

int main(void)
{
	const struct test_kernel_case cases[] = {
		test_kernel_case(free_scan_counts_a_hole_out, kernels),
	};

	return test_run_kernel_cases("free scanner", cases);
}
