// SPDX-License-Identifier: GPL-2.0
/*
 * Randomized allocation sequences with cma_mm_verify after every step:
 * every type, order and zone modifier, frees in random order, drains, on
 * a machine with CMA pageblocks and a backed memory whose bytes carry a
 * pattern per allocation (a page handed out twice is caught).
 * CMA_STRESS_OPS=N (make stress) runs N operations on a 1 GiB machine
 * instead, verifying every 100000 and at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define SLOTS 1024

struct slot {
	struct cma_page *page;
	unsigned order;
	uint32_t tag;
};

static const cma_gfp_t gfps[] = {
	CMA_GFP_KERNEL, CMA_GFP_KERNEL | CMA_GFP_RECLAIMABLE, CMA_GFP_HIGHUSER_MOVABLE,
	CMA_GFP_ATOMIC, CMA_GFP_KERNEL | CMA_GFP_DMA, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_COLD,
};

static void stamp(struct cma_mm *mm, struct slot *s)
{
	uint32_t *w = cma_page_address(mm, s->page);

	if (!w)
		return;
	/* first and last word of each page */
	for (unsigned long i = 0; i < (1ul << s->order); i++) {
		w[i * 1024] = s->tag;
		w[i * 1024 + 1023] = ~s->tag;
	}
}

static void check_stamp(struct cma_mm *mm, struct slot *s)
{
	uint32_t *w = cma_page_address(mm, s->page);

	if (!w)
		return;
	for (unsigned long i = 0; i < (1ul << s->order); i++)
		if (w[i * 1024] != s->tag || w[i * 1024 + 1023] != ~s->tag)
			fail_msg("page %lu of allocation %#x was overwritten", i, s->tag);
}

static void random_ops(struct cma_mm *mm, unsigned long ops, unsigned long verify_every,
		       uint64_t rnd)
{
	struct slot *slots = calloc(SLOTS, sizeof(*slots));
	unsigned long allocs = 0, fails = 0;

	assert_non_null(slots);
	for (unsigned long step = 0; step < ops; step++) {
		uint64_t r = prandom_u64_state(&rnd);
		struct slot *s = &slots[r % SLOTS];

		if (r % 97 == 0) {
			cma_drain_all_pages(mm);
		} else if (s->page) {
			check_stamp(mm, s);
			cma_free_pages(mm, s->page, s->order);
			s->page = NULL;
		} else {
			/* orders skewed small, as real workloads are */
			s->order = __builtin_ctzll(prandom_u64_state(&rnd) | (1ull << (mm->max_order - 1)));
			s->page = cma_alloc_pages(mm, gfps[(r >> 32) % 6] | CMA_GFP_NOWARN, s->order);
			s->tag = (uint32_t)step;
			if (s->page) {
				allocs++;
				stamp(mm, s);
			} else {
				fails++;
			}
		}
		if (verify_every && step % verify_every == 0 && cma_mm_verify(mm))
			fail_msg("cma_mm_verify failed after step %lu", step);
	}
	for (unsigned i = 0; i < SLOTS; i++)
		if (slots[i].page) {
			check_stamp(mm, &slots[i]);
			cma_free_pages(mm, slots[i].page, slots[i].order);
		}
	printf("random_ops: %lu ops, %lu allocations, %lu refused\n", ops, allocs, fails);
	free(slots);
	assert_verify(mm);
}

/* Expect: verify holds after every single step, and everything comes back. */
static void alloc_free_random_verify_every_step(void **state)
{
	struct cma_mm *mm = test_mm(TEST_CMA_32M);
	unsigned long free_before;
	struct zone *z;

	cma_drain_all_pages(mm);
	free_before = global_page_state(mm, NR_FREE_PAGES);
	random_ops(mm, 20000, 1, test_seed(__func__));
	cma_drain_all_pages(mm);
	assert_int_equal(global_page_state(mm, NR_FREE_PAGES), free_before);
	for_each_zone(mm, z)
		for (unsigned long pfn = z->zone_start_pfn; z->present_pages &&
		     pfn < z->zone_start_pfn + z->spanned_pages; pfn += mm->pageblock_nr_pages)
			assert_int_not_equal(get_pageblock_migratetype(mm, pfn), MIGRATE_ISOLATE);
	cma_mm_destroy(mm);
}

/* Expect: the same on two CPUs' lists, switching slot now and then. */
static void alloc_free_random_two_slots(void **state)
{
	struct cma_bank bank = { 0, 32 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .nr_cpus = 2,
				     .pageblock_order = 9 };
	struct cma_mm *mm = test_boot(&cfg);
	uint64_t rnd = test_seed(__func__);

	for (int round = 0; round < 10; round++) {
		cma_mm_bind_cpu(mm, round % 2);
		random_ops(mm, 1000, 1, prandom_u64_state(&rnd));
	}
	cma_mm_bind_cpu(mm, 0);
	cma_mm_destroy(mm);
}

/* make stress: CMA_STRESS_OPS operations on a 1 GiB machine. */
static void alloc_free_stress_1gib(void **state)
{
	const char *env = getenv("CMA_STRESS_OPS");
	unsigned long ops = env ? strtoul(env, NULL, 0) : 0;
	struct cma_bank bank = { 0, 1 * GiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .zone_dma_end = 16 * MiB,
				     .zone_dma32_end = 4 * GiB, .metadata_only = true };
	struct cma_mm *mm;

	if (!ops)
		skip();
	mm = test_boot(&cfg);
	random_ops(mm, ops, 100000, test_seed(__func__));
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_free_random_verify_every_step),
		cmocka_unit_test(alloc_free_random_two_slots),
		cmocka_unit_test(alloc_free_stress_1gib),
	};

	return cmocka_run_group_tests_name("random", tests, NULL, NULL);
}
