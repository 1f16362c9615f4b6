// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_contig_range and clean page cache (kernel.contig_reclaim_clean,
 * 3.7: "mm: cma: discard clean pages during contiguous allocation instead
 * of migration"): reclaim_clean_pages_from_list frees the clean file pages
 * of each isolated batch, mapped or not, and only the rest is migrated;
 * v3.5 migrates them all. Every test runs under a release on each side of
 * the switch.
 */
#include <string.h>

#include "helpers.h"
#include "owners.h"
#include "mm/cma.h"

static const char *const kernels[] = { "3.5", "3.6", "3.7", "4.14", "6.12" };

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/* The pgscan and pgsteal events of every zone, summed. */
static uint64_t reclaim_events(struct cma_mm *mm)
{
	static const char *const events[] = { "pgscan_direct", "pgsteal_direct", "pgscan_kswapd",
					      "pgsteal_kswapd" };
	static const char *const zones[] = { "dma", "dma32", "normal", "high", "movable" };
	uint64_t sum = 0;

	for (size_t e = 0; e < 4; e++)
		for (size_t z = 0; z < 5; z++) {
			char name[64];

			snprintf(name, sizeof(name), "%s_%s", events[e], zones[z]);
			sum += counter(mm, name);
		}
	return sum;
}

/* Released in 3.7: the kernels listed from the third on drop clean pages. */
static bool drops_clean(unsigned k)
{
	return k >= 2;
}

/* Slot 1 of the file is mapped by one page table entry, the others by none. */
static unsigned one_mapped(void *owner, uint64_t idx, const struct cma_page *page)
{
	return idx == 1;
}

/* The reader mapping them runs on three other CPUs. */
static unsigned three_cpus(void *owner)
{
	return 3;
}

static struct cma_owner_ops file_ops_mapped(void)
{
	struct cma_owner_ops ops = fake_file_ops;

	ops.mapcount = one_mapped;
	ops.mm_cpus = three_cpus;
	return ops;
}

/* The storage finishes the write when migration waits for it. */
static uint64_t wait_done(void *owner, uint64_t idx, struct cma_page *page)
{
	cma_page_end_writeback(((struct fake_owner *)owner)->mm, page);
	return 1000;
}

/* Slot @idx of @o faulted in from @seed and on the LRU: its pfn. */
static unsigned long fault_on_lru(struct fake_owner *o, uint64_t idx, uint64_t seed,
				  const struct cma_owner_ops *ops)
{
	struct cma_page *page = owner_fault_ops(o, idx, CMA_GFP_HIGHUSER_MOVABLE, seed, ops);

	assert_non_null(page);
	lru_add_drain_all(o->mm);
	return cma_page_to_pfn(o->mm, page);
}

/*
 * Expect (reclaim_clean_pages_from_list, 3.7 on): alloc_contig_range over
 * a clean unmapped file page and over a clean mapped one frees both, with
 * nothing copied: the owner forgets them (dropped, not migrated), the
 * mapped one's entry is unmapped, its flush an IPI to each of the three
 * other CPUs its reader runs on, NR_ISOLATED_FILE is back to 0 and no
 * pgscan or pgsteal event counts them. The owner reads them back from
 * the file with the same bytes. Before 3.7 both are migrated, their bytes
 * with them.
 */
static void alloc_contig_range_drops_clean_file_pages(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = file_ops_mapped();
	struct fake_owner *o = owner_create(mm, false, 2);
	bool drop = drops_clean(k);
	unsigned long pfn[2];
	uint64_t sum[2], migrated = counter(mm, "pgmigrate_success");

	for (int i = 0; i < 2; i++) {
		pfn[i] = fault_on_lru(o, (uint64_t)i, 40 + (uint64_t)i, &ops);
		sum[i] = o->slots[i].sum;
	}
	for (int i = 0; i < 2; i++)
		assert_int_equal(cma_alloc_contig_range(mm, pfn[i], pfn[i] + 1, CMA_MIGRATE_MOVABLE), 0);
	assert_verify(mm);
	assert_int_equal(counter(mm, "nr_isolated_file"), 0);
	assert_int_equal(reclaim_events(mm), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(owner_slot_resident(o, (uint64_t)i), !drop);
		assert_int_equal(o->slots[i].dropped, drop);
	}
	assert_int_equal(o->migrated, drop ? 0 : 2);
	assert_int_equal(o->reclaimed, drop ? 2 : 0);
	assert_int_equal(counter(mm, "pgmigrate_success") - migrated, drop ? 0 : 2);
	assert_int_equal(counter(mm, "contig_reclaim_clean"), drop ? 2 : 0);
	assert_int_equal(counter(mm, "contig_reclaim_unmapped_ptes"), drop ? 1 : 0);
	assert_int_equal(counter(mm, "nr_tlb_remote_flush_received"), 3);
	assert_int_equal(owner_check(o), drop ? 0 : 2);
	/* a refault reads the file: the bytes the page held */
	for (int i = 0; i < 2 && drop; i++) {
		fault_on_lru(o, (uint64_t)i, 40 + (uint64_t)i, &ops);
		assert_int_equal(o->slots[i].sum, sum[i]);
	}
	assert_int_equal(owner_check(o), 2);
	assert_verify(mm);
	for (int i = 0; i < 2; i++)
		cma_free_contig_range(mm, pfn[i], 1);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (reclaim_clean_pages_from_list passes dirty pages by; its
 * shrink_page_list keeps a page under writeback): every kernel migrates a
 * dirty file page, still dirty, and waits for the write of one under
 * writeback and migrates it; nothing is reclaimed.
 */
static void alloc_contig_range_migrates_dirty_and_writeback(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_owner_ops ops = fake_file_ops;
	struct fake_owner *o = owner_create(mm, false, 2);
	struct cma_page *old[2];
	unsigned long pfn[2];

	ops.wait_writeback = wait_done;
	for (int i = 0; i < 2; i++) {
		pfn[i] = fault_on_lru(o, (uint64_t)i, 50 + (uint64_t)i, &ops);
		old[i] = o->slots[i].page;
		owner_set_dirty(o, (uint64_t)i, true);
	}
	assert_true(cma_page_start_writeback(mm, old[1]));
	for (int i = 0; i < 2; i++)
		assert_int_equal(cma_alloc_contig_range(mm, pfn[i], pfn[i] + 1, CMA_MIGRATE_MOVABLE), 0);
	assert_verify(mm);
	for (int i = 0; i < 2; i++) {
		assert_true(owner_slot_resident(o, (uint64_t)i));
		assert_ptr_not_equal(o->slots[i].page, old[i]);
	}
	assert_true(page_test(o->slots[0].page, PG_dirty));
	assert_false(page_test(o->slots[1].page, PG_dirty | PG_writeback));
	assert_int_equal(o->migrated, 2);
	assert_int_equal(o->reclaimed, 0);
	assert_int_equal(counter(mm, "contig_reclaim_clean"), 0);
	assert_int_equal(counter(mm, "nr_isolated_file"), 0);
	assert_int_equal(owner_check(o), 2);
	for (int i = 0; i < 2; i++)
		cma_free_contig_range(mm, pfn[i], 1);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (shrink_page_list's __remove_mapping fails, the page is kept and
 * reclaim_clean_pages_from_list hands it back): a clean page whose owner
 * will not let it go is migrated instead, under every kernel.
 */
static void alloc_contig_range_migrates_clean_page_owner_keeps(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct fake_owner *o = owner_create(mm, false, 1);
	unsigned long pfn = fault_on_lru(o, 0, 60, &fake_file_ops);
	struct cma_page *old = o->slots[0].page;

	o->refuse_reclaim = -EBUSY;
	assert_int_equal(cma_alloc_contig_range(mm, pfn, pfn + 1, CMA_MIGRATE_MOVABLE), 0);
	assert_verify(mm);
	assert_true(owner_slot_resident(o, 0));
	assert_ptr_not_equal(o->slots[0].page, old);
	assert_int_equal(o->migrated, 1);
	assert_int_equal(counter(mm, "contig_reclaim_clean"), 0);
	assert_int_equal(counter(mm, "nr_isolated_file"), 0);
	assert_int_equal(owner_check(o), 1);
	cma_free_contig_range(mm, pfn, 1);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/* Released in 4.10 ("mm, compaction: allow compaction for GFP_NOFS requests"): the last two kernels. */
static bool nofs_anon_only(unsigned k)
{
	return k >= 3;
}

/*
 * Expect (isolate_migratepages_block's "only allow to migrate anonymous
 * pages in GFP_NOFS context", 4.10 on): alloc_contig_range asked with
 * GFP_NOIO over a clean file page leaves it where it is, bytes and all,
 * and the range is busy; over an anonymous page it migrates it; with
 * GFP_KERNEL it takes the file page's range too. v3.5's compaction has no
 * gfp mask and moves both.
 */
static void alloc_contig_range_nofs_leaves_page_cache(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct fake_owner *file = owner_create(mm, false, 1), *anon = owner_create(mm, true, 1);
	unsigned long fpfn = fault_on_lru(file, 0, 70, &fake_file_ops);
	unsigned long apfn = fault_on_lru(anon, 0, 71, &fake_anon_ops);
	struct cma_page *old = file->slots[0].page;
	bool left = nofs_anon_only(k);

	pthread_mutex_lock(&mm->cma_mutex);
	assert_int_equal(alloc_contig_range(mm, fpfn, fpfn + 1, MIGRATE_MOVABLE, CMA_GFP_NOIO),
			 left ? -EBUSY : 0);
	assert_int_equal(alloc_contig_range(mm, apfn, apfn + 1, MIGRATE_MOVABLE, CMA_GFP_NOIO), 0);
	pthread_mutex_unlock(&mm->cma_mutex);
	assert_verify(mm);
	assert_int_equal(anon->migrated, 1);
	assert_int_equal(owner_check(anon), 1);
	if (left) {
		assert_ptr_equal(file->slots[0].page, old);
		assert_int_equal(file->migrated + file->reclaimed, 0);
		assert_int_equal(owner_check(file), 1);
		assert_int_equal(cma_alloc_contig_range(mm, fpfn, fpfn + 1, CMA_MIGRATE_MOVABLE), 0);
	}
	assert_ptr_not_equal(file->slots[0].page, old);
	assert_int_equal(counter(mm, "nr_isolated_file") + counter(mm, "nr_isolated_anon"), 0);
	assert_verify(mm);
	cma_free_contig_range(mm, fpfn, 1);
	cma_free_contig_range(mm, apfn, 1);
	owner_destroy(file);
	owner_destroy(anon);
	cma_mm_destroy(mm);
}

/*
 * Expect (dma_alloc_from_contiguous and cma_alloc passing the caller's
 * gfp down, 4.11 to 4.18; GFP_KERNEL before and after): a GFP_NOIO
 * cma_alloc of one page whose first candidate holds page cache takes the
 * next one under 4.14, the page cache staying, and takes the first under
 * every other kernel (3.5 to 3.7 move any page, 6.12 compacts as
 * GFP_KERNEL whatever the caller asked); under 4.14 a GFP_KERNEL one
 * takes the first too. A page cache page taken is dropped (3.7 on) or
 * migrated, its bytes intact.
 */
static void cma_alloc_gfp_reaches_compaction_411_to_418(const char *kernel, unsigned k)
{
	static const cma_gfp_t gfps[] = { CMA_GFP_NOIO, CMA_GFP_KERNEL };

	for (size_t g = 0; g < 2; g++) {
		struct cma_mm *mm = test_mm(.kernel = kernel, .cmdline = "cma=4M");
		struct cma *cma = cma_dev_get_cma_area(mm, NULL);
		struct fake_owner *file = owner_create(mm, false, 1);
		struct cma_page *old, *got;
		bool skipped = !strcmp(kernel, "4.14") && gfps[g] == CMA_GFP_NOIO;

		assert_non_null(cma);
		old = owner_fault_at(file, 0, cma->base_pfn, 80);
		assert_non_null(old);
		lru_add_drain_all(mm);
		got = cma_alloc(mm, cma, 1, 0, gfps[g]);
		assert_non_null(got);
		assert_int_equal(cma_page_to_pfn(mm, got), cma->base_pfn + skipped);
		assert_int_equal(file->slots[0].page == old, skipped);
		/* taken, the clean page is dropped from 3.7 on, migrated before */
		assert_int_equal(owner_check(file), skipped || !drops_clean(k));
		assert_verify(mm);
		assert_true(cma_release(mm, cma, got, 1));
		owner_destroy(file);
		cma_mm_destroy(mm);
	}
}

int main(void)
{
	const struct test_kernel_case kernel_cases[] = {
		test_kernel_case(alloc_contig_range_drops_clean_file_pages, kernels),
		test_kernel_case(alloc_contig_range_migrates_dirty_and_writeback, kernels),
		test_kernel_case(alloc_contig_range_migrates_clean_page_owner_keeps, kernels),
		test_kernel_case(alloc_contig_range_nofs_leaves_page_cache, kernels),
		test_kernel_case(cma_alloc_gfp_reaches_compaction_411_to_418, kernels),
	};

	return test_run_kernel_cases("contig_reclaim", kernel_cases);
}
