// SPDX-License-Identifier: GPL-2.0
/*
 * Pages the kernel keeps for itself (cma_alloc_kmem_pages): a slab's
 * pages count in nr_slab_reclaimable or nr_slab_unreclaimable as 3.5's
 * kmem_getpages counts them, a page table's in nr_page_table_pages as
 * pgtable_page_ctor does, and /proc/meminfo shows them; each free takes
 * them off. Under the first and the last profile.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static const char *const kernels[] = { "3.5", "6.12" };

static uint64_t counter(struct cma_mm *mm, const char *name)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/*
 * Expect: an order-3 reclaimable slab, an order-0 unreclaimable one and
 * two page tables count 8, 1 and 2 pages in their counters and in
 * meminfo's SReclaimable, SUnreclaim, Slab and PageTables; freed, every
 * counter is back where it was.
 */
static void kmem_pages_count_by_kind(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	struct cma_page *sr, *su, *pt[2];

	sr = cma_alloc_kmem_pages(mm, CMA_GFP_KERNEL | CMA_GFP_RECLAIMABLE, 3, CMA_KMEM_SLAB_RECLAIMABLE);
	su = cma_alloc_kmem_pages(mm, CMA_GFP_KERNEL, 0, CMA_KMEM_SLAB_UNRECLAIMABLE);
	pt[0] = cma_alloc_kmem_pages(mm, CMA_GFP_KERNEL, 0, CMA_KMEM_PAGETABLE);
	pt[1] = cma_alloc_kmem_pages(mm, CMA_GFP_KERNEL, 0, CMA_KMEM_PAGETABLE);
	assert_true(sr && su && pt[0] && pt[1]);
	assert_int_equal(counter(mm, "nr_slab_reclaimable"), 8);
	assert_int_equal(counter(mm, "nr_slab_unreclaimable"), 1);
	assert_int_equal(counter(mm, "nr_page_table_pages"), 2);
	assert_int_equal(test_meminfo_kb(mm, "SReclaimable"), 32);
	assert_int_equal(test_meminfo_kb(mm, "SUnreclaim"), 4);
	assert_int_equal(test_meminfo_kb(mm, "Slab"), 36);
	assert_int_equal(test_meminfo_kb(mm, "PageTables"), 8);
	cma_free_kmem_pages(mm, sr, 3, CMA_KMEM_SLAB_RECLAIMABLE);
	cma_free_kmem_pages(mm, su, 0, CMA_KMEM_SLAB_UNRECLAIMABLE);
	cma_free_kmem_pages(mm, pt[0], 0, CMA_KMEM_PAGETABLE);
	cma_free_kmem_pages(mm, pt[1], 0, CMA_KMEM_PAGETABLE);
	assert_int_equal(counter(mm, "nr_slab_reclaimable"), 0);
	assert_int_equal(counter(mm, "nr_slab_unreclaimable"), 0);
	assert_int_equal(counter(mm, "nr_page_table_pages"), 0);
	assert_int_equal(test_meminfo_kb(mm, "Slab"), 0);
	test_verify_kernel(mm, kernel, "after the frees");
	cma_mm_destroy(mm);
}

/*
 * Expect: an unknown kind is refused with EINVAL and a message, nothing
 * allocated; a page freed twice is reported the second time and its
 * counter does not go below what it held.
 */
static void kmem_pages_refuse_bad_kind_and_double_free(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);
	uint64_t free_before = counter(mm, "nr_free_pages");
	struct cma_page *pt;
	char *log;

	errno = 0;
	assert_null(cma_alloc_kmem_pages(mm, CMA_GFP_KERNEL, 0, CMA_NR_KMEM_KINDS));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(counter(mm, "nr_free_pages"), free_before);
	pt = cma_alloc_kmem_pages(mm, CMA_GFP_KERNEL, 0, CMA_KMEM_PAGETABLE);
	assert_non_null(pt);
	cma_free_kmem_pages(mm, pt, 0, CMA_KMEM_PAGETABLE);
	cma_free_kmem_pages(mm, pt, 0, CMA_KMEM_PAGETABLE);
	assert_int_equal(counter(mm, "nr_page_table_pages"), 0);
	log = test_dmesg(mm);
	assert_non_null(strstr(log, "cma_alloc_kmem_pages: kind 3 refused"));
	assert_non_null(strstr(log, "BUG: Bad page state: page already free"));
	free(log);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct test_kernel_case cases[] = {
		test_kernel_case(kmem_pages_count_by_kind, kernels),
		test_kernel_case(kmem_pages_refuse_bad_kind_and_double_free, kernels),
	};

	return test_run_kernel_cases("kernel pages by kind", cases);
}
