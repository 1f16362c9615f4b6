/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test helpers: machines built in one call, seeds that can be replayed
 * (CMA_TEST_SEED), and small queries of allocator state.
 */
#ifndef CMA_TESTS_HELPERS_H
#define CMA_TESTS_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cma/cma.h>
#include "mm/internal.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* One bank at @base of @size bytes; DMA below 16 MiB when the bank reaches it. */
struct cma_mm *test_machine(cma_phys_t base, uint64_t size, bool metadata_only);
/* Boot @cfg, failing the test on error. */
struct cma_mm *test_boot(const struct cma_mm_config *cfg);
/*
 * Boot a machine of @size bytes whose [cma_base, cma_base + cma_size)
 * is reserved early and handed to the allocator as MIGRATE_CMA pageblocks
 * (init_cma_reserved_pageblock), watermarks recomputed after, as the
 * core initcall and module_init order it.
 */
struct cma_mm *test_machine_with_cma(uint64_t size, cma_phys_t cma_base, uint64_t cma_size);
void test_activate_cma(struct cma_mm *mm, unsigned long start_pfn, unsigned long nr_pages);

/* The seed of a randomized test: CMA_TEST_SEED, or time; printed either way. */
unsigned long test_seed(const char *test);
uint64_t test_rand(uint64_t *state);

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
 * Order-0 allocations of @gfp until the allocator gives none, draining the
 * per-CPU lists between rounds so that no free page stays stranded there;
 * the pages go to pages[0..max). Fails the test if @max is reached.
 * Returns how many pages were allocated.
 */
unsigned long test_alloc_all(struct cma_mm *mm, cma_gfp_t gfp, struct cma_page **pages,
			     unsigned long max);
/* The machine's log (cma_mm_dmesg) as a NUL-terminated string; free() it. */
char *test_dmesg(struct cma_mm *mm);
/* The machine's /proc file @name (cma_write_proc) as a string; free() it. */
char *test_proc_read(struct cma_mm *mm, const char *name);

/* ---- counters cma_mm_verify leaves alone (test_mobility_stress, test_fault_sweep) ---- */

/*
 * With no reclaim or migration running: NR_FILE_DIRTY equals the dirty
 * file pages found in mem_map, NR_WRITEBACK and NR_ISOLATED_* are 0.
 * Returns 0, or -1 with what differs written to @why.
 */
int test_check_idle_counters(struct cma_mm *mm, char *why, size_t len);

#endif
