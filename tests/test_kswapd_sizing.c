// SPDX-License-Identifier: GPL-2.0
/*
 * The zone size kswapd's balance_pgdat decides by, release by release:
 * the balance gap (min(low mark, 1% of the zone)) and pgdat_balanced
 * (for a high order, balanced zones holding a quarter of the pages
 * suffice) read a zone's present pages in v3.5 and its managed pages
 * from 3.9 (b40da04946aa, kernel.managed_sizing). Each case builds a
 * 32-bit ARM board whose lowmem loses a reservation (the pages are
 * present but never managed), so that the two sizes differ enough to
 * turn kswapd's decision, and checks the decision the release makes.
 * Every case runs at 3.5, 3.8 (the release before), 3.9 and 6.12.
 */
#include <stdlib.h>

#include "helpers.h"
#include "owners.h"

#define BOARD_BASE	0x40000000ull
#define GFP_LOW_FILE	(CMA_GFP_USER | CMA_GFP_MOVABLE | CMA_GFP_NOWARN)
#define GFP_HIGH_FILE	(CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN)

static const char *const sizing_kernels[] = { "3.5", "3.8", "3.9", "6.12" };

/* A case's board and owners, torn down even when the case fails. */
struct board {
	struct cma_mm *mm;
	struct fake_owner *low, *high;
};

/* The size the test expects kswapd to read: present pages up to 3.8, managed from 3.9. */
static unsigned long sizing(const char *kernel, const struct zone *z)
{
	return test_kernel_since(kernel, 3, 9) ? z->managed_pages : z->present_pages;
}

/* The size the other rule would read. */
static unsigned long other_sizing(const char *kernel, const struct zone *z)
{
	return test_kernel_since(kernel, 3, 9) ? z->present_pages : z->managed_pages;
}

/*
 * 64 MiB at BOARD_BASE, HighMem from BOARD_BASE + @lowmem, @reserve bytes
 * of lowmem reserved at 1 MiB before boot. Backed: the owners' pages
 * carry bytes.
 */
static struct board *board_boot(void **state, const char *kernel, uint64_t lowmem, uint64_t reserve)
{
	struct board *b = calloc(1, sizeof(*b));

	assert_non_null(b);
	*state = b;
	b->mm = test_mm_early(.arch = CMA_ARCH_ARM, .base = BOARD_BASE, .size = 64 * MiB,
			      .highmem_start = BOARD_BASE + lowmem, .kernel = kernel);
	assert_int_equal(cma_memblock_reserve(b->mm, BOARD_BASE + 1 * MiB, reserve), 0);
	assert_int_equal(cma_mm_boot(b->mm), 0);
	assert_verify(b->mm);
	b->low = owner_create(b->mm, false, 16384);
	b->high = owner_create(b->mm, false, 16384);
	assert_non_null(b->low);
	assert_non_null(b->high);
	return b;
}

static int board_teardown(void **state)
{
	struct board *b = *state;

	if (!b)
		return 0;
	if (b->low)
		owner_destroy(b->low);
	if (b->high)
		owner_destroy(b->high);
	cma_mm_destroy(b->mm);
	free(b);
	*state = NULL;
	return 0;
}

/* Free pages of @z with the pagevecs and per-CPU lists given back. */
static unsigned long zone_free(struct cma_mm *mm, struct zone *z)
{
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	return zone_page_state(z, NR_FREE_PAGES);
}

/* kswapd's balance gap as the test knows it: min(low mark, 1% of @pages). */
static unsigned long gap_of(struct zone *z, unsigned long pages)
{
	unsigned long gap = (pages + 99) / 100;

	return gap < low_wmark_pages(z) ? gap : low_wmark_pages(z);
}

/*
 * Expect (balance_pgdat, v3.5): with HighMem below its high mark (so the
 * highest unbalanced zone), Normal, above its own, is reclaimed too when
 * its free pages are at most high + gap + lowmem_reserve[HighMem]. Board:
 * 44 MiB of lowmem (11264 pages) less 8 MiB reserved, so Normal's 1%
 * is 113 (3.9 on) or 112 (present less memmap, to 3.8) pages by present
 * pages and 91 by managed ones, all under its low mark. Normal's free
 * pages are set between the two thresholds: kswapd reclaims Normal up to
 * 3.8 and leaves it alone from 3.9.
 */
static void balance_gap_by_release(void **state, const char *kernel, unsigned k)
{
	struct board *b = board_boot(state, kernel, 44 * MiB, 8 * MiB);
	struct cma_mm *mm = b->mm;
	struct zone *normal = &mm->zones[ZONE_NORMAL], *high = &mm->zones[ZONE_HIGHMEM];
	unsigned long reserve = normal->lowmem_reserve[ZONE_HIGHMEM], mark, other, target;
	bool reclaims = !test_kernel_since(kernel, 3, 9);
	uint64_t i = 0;

	mark = high_wmark_pages(normal) + gap_of(normal, sizing(kernel, normal)) + reserve;
	other = high_wmark_pages(normal) + gap_of(normal, other_sizing(kernel, normal)) + reserve;
	if (mark == other || (mark < other) == reclaims)
		fail_msg("kernel %s: Normal's thresholds %lu and %lu do not tell the rules apart",
			 kernel, mark, other);
	target = (mark < other ? mark : other) + 1 + (labs((long)mark - (long)other) - 1) / 2;

	owner_fault_range(b->low, 0, 6144, GFP_LOW_FILE);
	for (; zone_free(mm, high) > high_wmark_pages(high); i++)
		assert_non_null(owner_fault(b->high, i, GFP_HIGH_FILE, i + 1));
	assert_true(zone_free(mm, high) > low_wmark_pages(high));
	while (zone_free(mm, normal) > target)
		assert_non_null(cma_alloc_pages(mm, GFP_LOW_FILE, 0));
	expect_kernel(kernel, "Normal's free pages", target, zone_free(mm, normal));
	expect_kernel(kernel, "Normal's LRU pages at least HighMem's", 1,
		      owner_resident(b->low) >= owner_resident(b->high));

	cma_kswapd_step(mm);
	expect_kernel(kernel, "HighMem scanned", 1, test_counter(mm, "pgscan_kswapd_high") > 0);
	expect_kernel(kernel, "Normal reclaimed within the gap", reclaims,
		      test_counter(mm, "pgscan_kswapd_normal") > 0);
	test_verify_kernel(mm, kernel, "after kswapd");
}

/* pgdat_balanced's test as the test knows it: @sum of balanced pages, a quarter of the total. */
static bool quarter_balanced(unsigned long sum, unsigned long normal, unsigned long high)
{
	return sum >= (normal + high) >> 2;
}

/*
 * Wake kswapd for order 4 on @b with HighMem unbalanced at that order and
 * Normal balanced; whether it reclaimed anything. HighMem, in runs of 16
 * pages: 8 free (order-3 blocks whose buddies are taken, so that
 * compaction's fragmentation index, 499, skips the zone and the order
 * stands), 4 on the file LRU (3008 in all: >> DEF_PRIORITY is 0), 4
 * held. kswapd done when pgdat_balanced, it reclaims nothing (HighMem's
 * compaction stays skipped, so it starts over until MAX_BALANCE_LOOPS);
 * otherwise it goes down the priorities and reclaims HighMem.
 */
static bool order4_kswapd_reclaims(struct board *b, const char *kernel)
{
	struct cma_mm *mm = b->mm;
	struct zone *normal = &mm->zones[ZONE_NORMAL], *high = &mm->zones[ZONE_HIGHMEM];
	unsigned long start = high->zone_start_pfn, end = start + high->spanned_pages;
	uint64_t idx = 0;
	bool reclaimed;

	for (unsigned long pfn = start; pfn < end; pfn += 16) {
		assert_non_null(cma_alloc_pages_at(mm, pfn, 3, GFP_HIGH_FILE));
		assert_non_null(cma_alloc_pages_at(mm, pfn + 12, 2, GFP_HIGH_FILE));
		for (unsigned long p = pfn + 8; p < pfn + 12; p++, idx++)
			assert_non_null(owner_fault_at(b->high, idx, p, idx + 1));
	}
	for (unsigned long pfn = start; pfn < end; pfn += 16)
		cma_free_pages(mm, cma_pfn_to_page(mm, pfn), 3);
	assert_true(zone_free(mm, high) > high_wmark_pages(high));
	assert_false(zone_watermark_ok(high, 4, high_wmark_pages(high), 0, 0));
	assert_true(zone_watermark_ok(normal, 4, high_wmark_pages(normal), ZONE_HIGHMEM, 0));

	assert_int_equal(cma_kswapd_start_polled(mm), 0);
	wakeup_kswapd(mm, high, 4, ZONE_HIGHMEM);
	reclaimed = cma_kswapd_poll(mm) > 0;
	cma_kswapd_stop(mm);
	expect_kernel(kernel, "HighMem scanned as reclaimed", reclaimed,
		      test_counter(mm, "pgscan_kswapd_high") > 0);
	expect_kernel(kernel, "Normal scanned", 0, test_counter(mm, "pgscan_kswapd_normal"));
	test_verify_kernel(mm, kernel, "after kswapd");
	return reclaimed;
}

/*
 * Expect (balance_pgdat, v3.5): a balanced zone counts its size toward
 * pgdat_balanced's quarter. Board: 17 MiB of lowmem (4352 pages) less
 * 2 MiB reserved, 47 MiB of HighMem (12032). Normal/HighMem present
 * 4318/11938 to 3.8 (less their memmap), 4352/12032 from 3.9; managed
 * 3712/12032: Normal holds over a quarter of both zones by present
 * pages (4318 >= 4064), under by managed ones (3712 < 3936). So kswapd
 * reclaims nothing up to 3.8 and reclaims HighMem from 3.9. From 4.8
 * (kernel.kswapd_wake_node) the wakeup finds Normal balanced at the
 * classzone's high mark and does not wake kswapd: nothing is reclaimed.
 */
static void pgdat_balanced_sum_by_release(void **state, const char *kernel, unsigned k)
{
	struct board *b = board_boot(state, kernel, 17 * MiB, 2 * MiB);
	struct zone *normal = &b->mm->zones[ZONE_NORMAL], *high = &b->mm->zones[ZONE_HIGHMEM];
	unsigned long n = sizing(kernel, normal), h = sizing(kernel, high);
	bool balanced = quarter_balanced(n, n, h);

	if (balanced == quarter_balanced(other_sizing(kernel, normal), n, h))
		fail_msg("kernel %s: Normal %lu (else %lu), HighMem %lu do not tell the rules apart",
			 kernel, n, other_sizing(kernel, normal), h);
	expect_kernel(kernel, "pgdat_balanced", !test_kernel_since(kernel, 3, 9), balanced);
	expect_kernel(kernel, "kswapd reclaimed", !balanced && !test_kernel_since(kernel, 4, 8),
		      order4_kswapd_reclaims(b, kernel));
}

/*
 * Expect (pgdat_balanced, v3.5): the quarter is of the zones' sizes up to
 * the classzone. A board per side, 4 MiB of lowmem reserved. To 3.8,
 * 15.5 MiB of lowmem: Normal's 3937 present pages fall short of a
 * quarter of both zones' present pages (16256 / 4 = 4064), not of their
 * managed ones (15232 / 4 = 3808). From 3.9, 20 MiB: Normal's 3968
 * managed pages reach a quarter of both zones' managed pages (15232 / 4),
 * not of their present ones (16384 / 4 = 4096). So kswapd reclaims
 * HighMem up to 3.8 and nothing from 3.9.
 */
static void pgdat_balanced_total_by_release(void **state, const char *kernel, unsigned k)
{
	bool managed = test_kernel_since(kernel, 3, 9);
	struct board *b = board_boot(state, kernel, managed ? 20 * MiB : 15872 * KiB, 4 * MiB);
	struct zone *normal = &b->mm->zones[ZONE_NORMAL], *high = &b->mm->zones[ZONE_HIGHMEM];
	unsigned long n = sizing(kernel, normal);
	bool balanced = quarter_balanced(n, n, sizing(kernel, high));

	if (balanced == quarter_balanced(n, other_sizing(kernel, normal), other_sizing(kernel, high)))
		fail_msg("kernel %s: Normal %lu, totals %lu and %lu do not tell the rules apart", kernel,
			 n, n + sizing(kernel, high),
			 other_sizing(kernel, normal) + other_sizing(kernel, high));
	expect_kernel(kernel, "pgdat_balanced", managed, balanced);
	expect_kernel(kernel, "kswapd reclaimed", !balanced, order4_kswapd_reclaims(b, kernel));
}

int main(void)
{
	static const struct test_kernel_case cases[] = {
		test_kernel_case_teardown(balance_gap_by_release, sizing_kernels, board_teardown),
		test_kernel_case_teardown(pgdat_balanced_sum_by_release, sizing_kernels, board_teardown),
		test_kernel_case_teardown(pgdat_balanced_total_by_release, sizing_kernels,
					  board_teardown),
	};

	return test_run_kernel_cases("kswapd_sizing", cases);
}
