// SPDX-License-Identifier: GPL-2.0
/*
 * Compaction's migration targets from 6.9 (kernel.compact_folios,
 * ab755bf4249b): compaction_free puts a target migration did not use
 * back on cc->freepages, for the next source; before, it goes back to
 * the buddy allocator and the next source takes the next free page.
 */
#include "helpers.h"
#include "owners.h"

static const char *const target_kernels[] = { "3.5", "6.8", "6.9", "6.12" };

#define NR_MOVABLE	4	/* pages the batch migrates */

/* The lowest pfn of @o's pages. */
static unsigned long lowest_pfn(struct fake_owner *o)
{
	unsigned long low = ~0ul;

	for (uint64_t i = 0; i < o->nr_slots; i++) {
		unsigned long pfn = cma_page_to_pfn(o->mm, o->slots[i].page);

		low = pfn < low ? pfn : low;
	}
	return low;
}

/*
 * A refusing owner's page (-EAGAIN on every pass) at pfn b + 8 above
 * NR_MOVABLE willing ones at b, b + 2, ..., alone in the zone: the
 * batch migrates the highest first, so the refused page takes the first
 * target. Expect the willing pages' lowest pfn at this offset in the
 * free scanner's pageblock: before 6.9 the order-0 targets come from the
 * block's top down, the refused one's (the top page) going back to the
 * buddy allocator (offset 512 - 5); from 6.9 the block is cut from its
 * head, and the refused page's unused target, back on cc->freepages,
 * is the next page's (offset 0, where the buddy allocator's would leave
 * offset 1). The refused page stays where it was.
 */
static const long unused_target_offset[] = { 512 - NR_MOVABLE - 1, 512 - NR_MOVABLE - 1, 0, 0 };

static void compact_unused_targets_by_release(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.pageblock_order = 9, .kernel = kernel);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	unsigned long base = z->zone_start_pfn + 2048;
	struct fake_owner *refusing = owner_create(mm, true, 1), *willing = owner_create(mm, true, NR_MOVABLE);

	refusing->refuse_migrate = -EAGAIN;
	for (unsigned i = 0; i < NR_MOVABLE; i++)
		assert_non_null(owner_fault_at(willing, i, base + 2 * i, 2 + i));
	assert_non_null(owner_fault_at(refusing, 0, base + 2 * NR_MOVABLE, 1));
	lru_add_drain_all(mm);
	assert_int_equal(cma_compact_memory(mm), 0);
	expect_kernel(kernel, "the refused page's pfn", (long)(base + 2 * NR_MOVABLE),
		      (long)cma_page_to_pfn(mm, refusing->slots[0].page));
	expect_kernel(kernel, "the willing pages' lowest offset in their pageblock",
		      unused_target_offset[k], (long)(lowest_pfn(willing) % mm->pageblock_nr_pages));
	assert_true(owner_check(refusing) >= 0 && owner_check(willing) >= 0);
	owner_destroy(refusing);
	owner_destroy(willing);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

int main(void)
{
	static const struct test_kernel_case cases[] = {
		test_kernel_case(compact_unused_targets_by_release, target_kernels),
	};

	return test_run_kernel_cases("compaction_targets", cases);
}
