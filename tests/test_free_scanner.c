// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for compaction's free scanner (src/mm/compaction.c,
 * isolate_freepages_block) where a pageblock has a hole: the scanner
 * finds the free blocks' heads from zone->free_heads and counts the pfns
 * it passes over, and those counts must be the kernel's, pfn by pfn
 * (compact_free_scanned counts the valid pfns looked at, a hole's none),
 * also in a block without a free page, which it passes without the lock.
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

/*
 * The first free scan's figures (mm_compaction_isolate_freepages), and
 * the top block's skip bit when the second began.
 */
struct scan_record {
	struct cma_mm *mm;
	unsigned long top;
	long scanned, taken, scans;
	bool skip;
};

static long field(const char *line, const char *name)
{
	const char *p = strstr(line, name);

	return p ? strtol(p + strlen(name), NULL, 10) : -1;
}

static void record_scans(void *ctx, const char *event_name, const char *line)
{
	struct scan_record *r = ctx;

	if (strcmp(event_name, "mm_compaction_isolate_freepages"))
		return;
	if (!r->scans++) {
		r->scanned = field(line, "nr_scanned=");
		r->taken = field(line, "nr_taken=");
	} else if (r->scans == 2) {
		r->skip = get_pageblock_skip(r->mm, r->top);
	}
}

/*
 * The machine of these tests: the zone's top pageblock, 512 pfns of
 * which 16 are a hole between two banks, every page of it allocated
 * (@taken, by index in the block), and 64 movable pages below for
 * compaction to move.
 *
 *   bank 0 [0, 62M+64K)  hole 64K  bank 1 [62M+128K, 64M)
 *   top pageblock [62M, 64M): pfns 15872..16383, hole 15888..15903
 */
struct top_block {
	struct cma_mm *mm;
	unsigned long top;
	struct cma_page **taken;
	struct fake_owner *o;
};

static void top_block_allocated(struct top_block *t, const char *kernel)
{
	const struct cma_bank banks[] = {
		{ 0, 62 * MiB + 64 * KiB }, { 62 * MiB + 128 * KiB, 2 * MiB - 128 * KiB },
	};

	t->mm = test_mm(.banks = banks, .nr_banks = 2, .pageblock_order = 9, .kernel = kernel);
	t->top = (64 * MiB >> t->mm->page_shift) - t->mm->pageblock_nr_pages;
	t->taken = calloc(t->mm->pageblock_nr_pages, sizeof(*t->taken));
	t->o = owner_create(t->mm, true, 64);
	assert_non_null(t->taken);
	for (unsigned long i = 0; i < t->mm->pageblock_nr_pages; i++)
		t->taken[i] = cma_alloc_pages_at(t->mm, t->top + i, 0, CMA_GFP_KERNEL);
	assert_null(t->taken[16]);	/* the hole */
	owner_fault_range(t->o, 0, 64, CMA_GFP_HIGHUSER_MOVABLE);
}

/* A compaction of the whole machine, its scans recorded into @r. */
static void compact_recording(struct top_block *t, struct scan_record *r)
{
	*r = (struct scan_record){ .mm = t->mm, .top = t->top };
	cma_drain_all_pages(t->mm);
	cma_mm_set_trace(t->mm, record_scans, r);
	assert_int_equal(cma_compact_memory(t->mm), 0);
	cma_mm_set_trace(t->mm, NULL, NULL);
}

static void top_block_release(struct top_block *t)
{
	for (unsigned long i = 0; i < t->mm->pageblock_nr_pages; i++)
		if (t->taken[i])
			cma_free_pages(t->mm, t->taken[i], 0);
	free(t->taken);
	owner_destroy(t->o);
	assert_verify(t->mm);
	cma_mm_destroy(t->mm);
}

/*
 * Expect (3.5's whole-block scan; 4.0's free_scan_enough, with more
 * pages to migrate than the block has free): the top pageblock is the
 * free scanner's first; all of it allocated but two order-0 pages, it
 * looks at the 496 valid pfns and takes the two.
 */
static void free_scan_counts_a_hole_out(const char *kernel, unsigned k)
{
	struct top_block t;
	struct scan_record r;

	top_block_allocated(&t, kernel);
	for (unsigned long i = 100; i <= 300; i += 200) {
		assert_non_null(t.taken[i]);
		cma_free_pages(t.mm, t.taken[i], 0);
		t.taken[i] = NULL;
	}
	compact_recording(&t, &r);
	if (r.scanned != 496 || r.taken != 2)
		fail_msg("the top block's scan: expected 496 pfns looked at and 2 pages taken, "
			 "found %ld and %ld", r.scanned, r.taken);
	top_block_release(&t);
}

/*
 * Expect: the top pageblock, every page of it allocated (no free head:
 * the scanner passes it without zone->lock), scanned as a block whose
 * heads it looks for: 496 valid pfns looked at, none taken, and the
 * block scanned to its end, so marked skip where the kernel keeps skip
 * bits (3.7 on).
 */
static void free_scan_counts_a_block_without_free_pages(const char *kernel, unsigned k)
{
	struct top_block t;
	struct scan_record r;

	top_block_allocated(&t, kernel);
	compact_recording(&t, &r);
	if (r.scanned != 496 || r.taken != 0)
		fail_msg("the top block's scan: expected 496 pfns looked at and none taken, "
			 "found %ld and %ld", r.scanned, r.taken);
	assert_true(r.scans >= 2);
	assert_int_equal(r.skip, t.mm->kernel.compact_skip_hint);
	top_block_release(&t);
}

static const char *const kernels[] = { "3.5", "4.0" };

int main(void)
{
	const struct test_kernel_case cases[] = {
		test_kernel_case(free_scan_counts_a_hole_out, kernels),
		test_kernel_case(free_scan_counts_a_block_without_free_pages, kernels),
	};

	return test_run_kernel_cases("free scanner", cases);
}
