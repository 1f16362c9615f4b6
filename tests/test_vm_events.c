// SPDX-License-Identifier: GPL-2.0
/*
 * The /proc/vmstat events the host counts (cma_count_vm_events): its
 * faults (pgfault, pgmajfault) and its block I/O (pgpgin, pgpgout, in
 * sectors, shown in kB as vmstat_start() halves them), under the first
 * and the last profile; an unknown event or a machine not booted is
 * refused with nothing counted.
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
	uint64_t v = ~0ull;

	assert_int_equal(cma_mm_counter(mm, name, &v), 0);
	return v;
}

/* @name's value in /proc/vmstat and by cma_mm_counter(), which must agree. */
static uint64_t shown(struct cma_mm *mm, const char *name)
{
	uint64_t v = counter(mm, name);

	assert_int_equal(test_vmstat_line(mm, name), v);
	return v;
}

/*
 * Expect: 3 faults, 2 of them major, 7 sectors read and 9 written show
 * as pgfault 3, pgmajfault 2, pgpgin 3 kB and pgpgout 4 kB; one sector
 * more read makes 8, shown as 4 kB.
 */
static void host_events_counted_and_shown_in_kb(const char *kernel, unsigned k)
{
	struct cma_mm *mm = test_mm(.kernel = kernel);

	assert_int_equal(cma_count_vm_events(mm, CMA_PGFAULT, 3), 0);
	assert_int_equal(cma_count_vm_events(mm, CMA_PGMAJFAULT, 2), 0);
	assert_int_equal(cma_count_vm_events(mm, CMA_PGPGIN, 7), 0);
	assert_int_equal(cma_count_vm_events(mm, CMA_PGPGOUT, 9), 0);
	assert_int_equal(shown(mm, "pgfault"), 3);
	assert_int_equal(shown(mm, "pgmajfault"), 2);
	assert_int_equal(shown(mm, "pgpgin"), 3);
	assert_int_equal(shown(mm, "pgpgout"), 4);
	assert_int_equal(cma_count_vm_events(mm, CMA_PGPGIN, 1), 0);
	assert_int_equal(shown(mm, "pgpgin"), 4);
	cma_mm_destroy(mm);
}

/* Expect: an event past the enum is refused with EINVAL and a message; nothing moves. */
static void host_events_refuse_unknown_item(const char *kernel, unsigned k)
{
	static const char *const names[] = { "pgfault", "pgmajfault", "pgpgin", "pgpgout" };
	struct cma_mm *mm = test_mm(.kernel = kernel);
	char *log;

	assert_int_equal(cma_count_vm_events(mm, NR_CMA_VM_EVENTS, 5), -EINVAL);
	assert_int_equal(cma_count_vm_events(mm, (enum cma_vm_event)-1, 5), -EINVAL);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_int_equal(shown(mm, names[i]), 0);
	log = test_dmesg(mm);
	assert_non_null(strstr(log, "cma_count_vm_events: no event 4"));
	free(log);
	cma_mm_destroy(mm);
}

/* Expect: before boot the count is refused: the machine has no CPUs' counters yet. */
static void host_events_refused_before_boot(void **state)
{
	static const struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .cmdline = "cma=0" };
	struct cma_mm *mm = NULL;

	assert_int_equal(cma_mm_create(&cfg, &mm), 0);
	assert_int_equal(cma_count_vm_events(mm, CMA_PGFAULT, 1), -EINVAL);
	assert_int_equal(cma_count_vm_events(NULL, CMA_PGFAULT, 1), -EINVAL);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_int_equal(counter(mm, "pgfault"), 0);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct test_kernel_case cases[] = {
		test_kernel_case(host_events_counted_and_shown_in_kb, kernels),
		test_kernel_case(host_events_refuse_unknown_item, kernels),
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(host_events_refused_before_boot),
	};
	int failed = test_run_kernel_cases("host vm events (per kernel)", cases);

	return failed | cmocka_run_group_tests(tests, NULL, NULL);
}
