// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for the kernel log's serial console (src/mm/console.c): which
 * lines reach it (console_loglevel from loglevel=, quiet, debug, as
 * init/main.c sets it; suppress_message_printing), how many characters
 * each puts on the wire ("[%5lu.%06lu] ", the text, uart_console_write's
 * "\r\n"), none without a console= naming a serial port, and the
 * debugging knob standing for the 2019 thread's instrumented
 * __alloc_contig_migrate_range.
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
#include "owners.h"

/* The thread's first line, as printed after its timestamp. */
#define THREAD_LINE "LATENCY reclaim= 43 migrate=128 migrateranges=23\n"

static uint64_t console_chars(struct cma_mm *mm)
{
	uint64_t v = 0;

	assert_int_equal(cma_mm_counter(mm, "console_chars", &v), 0);
	return v;
}

/* The characters @fmt puts on the console of the machine booted with @cmdline. */
static uint64_t chars_of(const char *cmdline, const char *line)
{
	struct cma_mm *mm = test_mm(.cmdline = cmdline);
	uint64_t before = console_chars(mm), n;

	cma_mm_printk(mm, "%s", line);
	n = console_chars(mm) - before;
	cma_mm_destroy(mm);
	return n;
}

/*
 * Expect (vprintk_emit -> console_unlock -> uart_console_write): the
 * line goes out with its 15-character timestamp and '\r' before '\n':
 * 15 + 48 + 2 = 65 characters, 10 bits each at 8N1.
 */
static void console_line_is_timestamp_text_crlf(void **state)
{
	struct cma_mm *mm = test_mm(.cmdline = "cma=0 console=ttyS0,115200n8");
	unsigned baud = 0, bits = 0;
	int level = 0;

	assert_int_equal(cma_mm_console(mm, &baud, &bits, &level), 0);
	assert_int_equal(baud, 115200);
	assert_int_equal(bits, 10);
	assert_int_equal(level, 7);
	cma_mm_destroy(mm);
	assert_int_equal(chars_of("console=ttyS0,115200n8", THREAD_LINE), 65);
	/* each line of a message gets its prefix; printk.time=0 drops it */
	assert_int_equal(chars_of("console=ttyS0,115200n8", "a\nbc\n"), 15 + 3 + 15 + 4);
	assert_int_equal(chars_of("console=ttyS0,115200n8 printk.time=0", THREAD_LINE), 50);
}

/* Expect (uart_parse_options): the framing follows the options; none leaves 8250's 9600n8. */
static void console_options_set_rate_and_framing(void **state)
{
	static const struct { const char *cmdline; unsigned baud, bits; } cases[] = {
		{ "console=ttyS1", 9600, 10 },
		{ "console=ttyAMA0,9600e7", 9600, 10 },
		{ "console=ttyMSM0,115200o8", 115200, 11 },
		{ "console=tty0 console=ttyS0,921600n8r", 921600, 10 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cma_mm *mm = test_mm(.cmdline = cases[i].cmdline);
		unsigned baud = 0, bits = 0;

		assert_int_equal(cma_mm_console(mm, &baud, &bits, NULL), 0);
		assert_int_equal(baud, cases[i].baud);
		assert_int_equal(bits, cases[i].bits);
		cma_mm_destroy(mm);
	}
}

/* Expect: a malformed rate or loglevel refuses the machine, as -EINVAL. */
static void console_malformed_refused(void **state)
{
	static const char *const bad[] = { "console=ttyS0,fast", "console=ttyS0,115200x", "loglevel=x" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cma_bank bank;
		struct cma_mm_config cfg = test_config(&(struct test_shape){ .cmdline = bad[i] }, &bank);
		struct cma_mm *mm = NULL;

		cfg.quiet = true;
		assert_int_equal(cma_mm_create(&cfg, &mm), -EINVAL);
		assert_null(mm);
	}
}

/*
 * Expect (suppress_message_printing: level >= console_loglevel is not
 * printed): printk's default level 4 reaches the default console (7) but
 * not a quiet one (4), where KERN_ERR still does; loglevel= and debug
 * set it, the last of quiet, debug and loglevel= standing.
 */
static void console_loglevel_filters_lines(void **state)
{
	const char *con = "console=ttyS0,115200n8";
	char cmd[128];
	int level = 0;
	struct cma_mm *mm;

	assert_int_equal(chars_of(con, "x\n"), 18);
	snprintf(cmd, sizeof(cmd), "%s quiet", con);
	assert_int_equal(chars_of(cmd, "x\n"), 0);
	assert_int_equal(chars_of(cmd, "\0013x\n"), 18);
	snprintf(cmd, sizeof(cmd), "%s loglevel=6", con);
	assert_int_equal(chars_of(cmd, "\0015x\n"), 18);
	assert_int_equal(chars_of(cmd, "\0016x\n"), 0);
	snprintf(cmd, sizeof(cmd), "%s quiet loglevel=5", con);
	assert_int_equal(chars_of(cmd, "x\n"), 18);
	snprintf(cmd, sizeof(cmd), "%s loglevel=5 quiet", con);
	assert_int_equal(chars_of(cmd, "x\n"), 0);
	/* KERN_ERR lines (cma_mm_pr_err) are level 3 */
	snprintf(cmd, sizeof(cmd), "%s loglevel=4", con);
	mm = test_mm(.cmdline = cmd);
	cma_mm_pr_err(mm, "x\n");
	assert_int_equal(console_chars(mm), 18);
	cma_mm_destroy(mm);
	snprintf(cmd, sizeof(cmd), "%s loglevel=1 debug", con);
	mm = test_mm(.cmdline = cmd);
	assert_int_equal(cma_mm_console(mm, NULL, NULL, &level), 0);
	assert_int_equal(level, 10);
	cma_mm_destroy(mm);
}

/* Expect: no console=, or one naming a virtual terminal: nothing goes out on a serial line. */
static void console_none_costs_nothing(void **state)
{
	static const char *const none[] = { "cma=0", "console=tty0", "console=hvc0" };

	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		struct cma_mm *mm = test_mm(.cmdline = none[i]);
		unsigned baud = 1;

		assert_int_equal(cma_mm_console(mm, &baud, NULL, NULL), -ENODEV);
		assert_int_equal(baud, 0);
		cma_mm_printk(mm, THREAD_LINE);
		cma_mm_printk(mm, "\0013x\n");
		assert_int_equal(console_chars(mm), 0);
		cma_mm_destroy(mm);
	}
}

static unsigned count_of(const char *s, const char *what)
{
	unsigned n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/*
 * A range of the default area, most of it taken by one owner's movable
 * pages, allocated with cma_alloc_contig_range on a machine booted with
 * @knob; the number of passes' lines in its log in *@passes, the
 * console's characters in *@chars.
 */
static void contig_with_knob(bool knob, unsigned *passes, unsigned *overall, uint64_t *chars)
{
	struct cma_bank bank;
	struct cma_mm_config cfg = test_config(&(struct test_shape){
		.dma_end = 16 * MiB, .pageblock_order = 9,
		.cmdline = "cma=8M console=ttyS0,115200n8" }, &bank);
	struct cma_mm *mm;
	unsigned long base, nr;
	struct fake_owner *o, *top;
	uint64_t before;
	char *log;

	cfg.printk_contig_passes = knob;
	mm = test_boot(&cfg);
	base = cma_area_base_pfn(cma_dev_get_cma_area(mm, NULL));
	nr = mm->end_pfn - mm->base_pfn;
	o = owner_create(mm, false, nr);
	for (uint64_t i = 0; i < nr - 2048; i++)
		assert_non_null(owner_fault(o, i, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, i + 1));
	/* the range taken too where the profile filled the area from its other end */
	top = owner_create(mm, false, 512);
	owner_take_free_range(top, base, 512);
	lru_add_drain_all(mm);
	before = console_chars(mm);
	assert_int_equal(cma_alloc_contig_range(mm, base, base + 512, CMA_MIGRATE_CMA), 0);
	*chars = console_chars(mm) - before;
	log = test_dmesg(mm);
	*passes = count_of(log, "LATENCY reclaim= ");	/* 3.8 on: the pages the pass reclaimed */
	*overall = count_of(log, "OVERALL overall=");
	free(log);
	cma_free_contig_range(mm, base, 512);
	owner_destroy(top);
	owner_destroy(o);
	cma_mm_destroy(mm);
}

/*
 * Expect (the thread's instrumentation, cma_mm_config.printk_contig_passes):
 * with the knob, one line per pass of __alloc_contig_migrate_range (512
 * pages of movable memory take at least 512 / COMPACT_CLUSTER_MAX = 16
 * passes) and one after the loop, each on the console; without it, none.
 */
static void printk_contig_passes_one_line_per_pass(void **state)
{
	unsigned passes, overall;
	uint64_t chars;

	contig_with_knob(false, &passes, &overall, &chars);
	assert_int_equal(passes, 0);
	assert_int_equal(overall, 0);
	assert_int_equal(chars, 0);
	contig_with_knob(true, &passes, &overall, &chars);
	assert_true(passes >= 16);
	assert_int_equal(overall, 1);
	/* each pass line at least "LATENCY reclaim= 0 migrate=0 migrateranges=0" with its prefix and "\r\n" */
	assert_true(chars >= (uint64_t)passes * (15 + 44 + 2));
}

/*
 * Expect (alloc_contig_range's test_pages_isolated failure, after a free
 * page: up to 4.14 a movable page off the LRU that migration passes over;
 * from 4.15, whose isolation refuses such a page (isolate_scan_movable),
 * an owner's page whose migration the owner refuses, in a pageblock with
 * no reserved page, which that isolation refuses too): v3.5 to 3.17 warn
 * "alloc_contig_range test_pages_isolated(start, end) failed"
 * (KERN_WARNING, on a loglevel=5 console); 3.18 ("mm: alloc_contig_range:
 * demote pages busy message from warn to info") to 5.12 log
 * "alloc_contig_range: [start, end) PFNs busy" at KERN_INFO (in the log,
 * not on that console); 5.13 ("mm/page_alloc: drop pr_info_ratelimited()
 * in alloc_contig_range()") and 6.12 log nothing (cma_alloc's own
 * "is busy, retrying" is a pr_debug, not built in).
 */
static void alloc_contig_range_busy_message_by_release(void **state)
{
	static const struct {
		const char *kernel, *text;
		bool on_console;
	} cases[] = {
		{ "3.5", "alloc_contig_range test_pages_isolated(", true },
		{ "3.17", "alloc_contig_range test_pages_isolated(", true },
		{ "3.18", "alloc_contig_range: [", false },
		{ "3.19", "alloc_contig_range: [", false },
		{ "5.12", "alloc_contig_range: [", false },
		{ "5.13", NULL, false },
		{ "6.12", NULL, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cma_mm *mm = test_mm(.cmdline = "cma=0 console=ttyS0,115200n8 loglevel=5",
					    .kernel = cases[i].kernel);
		bool owned = cma_kernel_has(cases[i].kernel, "isolate_scan_movable") == 1;
		/* the top pageblock's free half, beside the memmap's reserved pages */
		struct cma_page *hold = owned ? cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 9) : NULL;
		struct fake_owner *o = owned ? owner_create(mm, true, 1) : NULL;
		struct cma_page *page = owned ? owner_fault(o, 0, CMA_GFP_HIGHUSER_MOVABLE, 1) :
					cma_alloc_pages(mm, CMA_GFP_HIGHUSER_MOVABLE, 0);
		unsigned long pfn, start;
		uint64_t before;
		char *log;

		assert_non_null(page);
		if (o) {
			o->refuse_migrate = -EAGAIN;
			lru_add_drain_all(mm);	/* on the LRU, for isolation to take it */
		}
		pfn = cma_page_to_pfn(mm, page);
		/* from a free pfn below it: v3.5's outer_start search needs a free block at the start */
		start = owned ? pfn : pfn - 1;
		before = console_chars(mm);
		assert_int_equal(cma_alloc_contig_range(mm, start, pfn + 1, CMA_MIGRATE_MOVABLE), -EBUSY);
		log = test_dmesg(mm);
		if (cases[i].text) {
			const char *line = strstr(log, cases[i].text);

			if (!line)
				fail_msg("kernel %s: no \"%s\" line in the log:\n%s", cases[i].kernel,
					 cases[i].text, log);
			assert_non_null(strstr(line, cases[i].on_console ? ") failed\n" : ") PFNs busy\n"));
		} else {
			assert_null(strstr(log, "test_pages_isolated("));
			assert_null(strstr(log, "PFNs busy"));
		}
		assert_int_equal(console_chars(mm) > before, cases[i].on_console);
		free(log);
		if (o) {
			owner_destroy(o);
			cma_free_pages(mm, hold, 9);
		} else {
			cma_free_pages(mm, page, 0);
		}
		assert_verify(mm);
		cma_mm_destroy(mm);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(console_line_is_timestamp_text_crlf),
		cmocka_unit_test(console_options_set_rate_and_framing),
		cmocka_unit_test(console_malformed_refused),
		cmocka_unit_test(console_loglevel_filters_lines),
		cmocka_unit_test(console_none_costs_nothing),
		cmocka_unit_test(printk_contig_passes_one_line_per_pass),
		cmocka_unit_test(alloc_contig_range_busy_message_by_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
