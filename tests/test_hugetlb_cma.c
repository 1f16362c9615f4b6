// SPDX-License-Identifier: GPL-2.0
/*
 * hugetlb_cma= (5.7's hugetlb_cma_reserve and alloc_gigantic_folio, as
 * 6.12 has them) on QEMU's own virt device tree, tests/dt/qemu-virt-arm64.dts,
 * the board bench/oracle's arm64 guest booted with "hugetlb_cma=1G cma=64M".
 *
 * Expect (the guest's boot log, bench/oracle/results/arm64-idle-1g): with
 * 3 GiB the 1 GiB area "hugetlb0" at 0x80000000 (the top GiB holds the
 * linear map's page tables and NODE_DATA, the bottom one the kernel) and
 * the 64 MiB default area at 0xf8600000 (below the memmap, which arm64's
 * sparse_init takes before dma_contiguous_reserve); with 2 GiB the
 * hugetlb area refused ("Failed to reserve 1024 MiB on node 0": the
 * kernel image in one GiB, the page tables in the other). A 1 GiB page
 * comes from the area (pfn 0x80000), CmaTotal counts the area, and the
 * page goes back to it. Kernel 5.6 has no hugetlb_cma: nothing is
 * reserved for it. The per-node form reserves on node 0 and warns of
 * other nodes; a size under a gigantic page is refused with its warning.
 * x86 reserves it after the default area, 32-bit ARM only warns.
 * The guest's DMA zone has the marks khugepaged gives with Debian's THP
 * "always" (its snapshot's zoneinfo: min 5632, low 7040, high 8448).
 * The guest ran with -smp 1 and its tree lists one CPU: the board has
 * one, and a tree with four cpu nodes (and a cpu-map, no CPU) has four.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "helpers.h"
#include "mm/cma.h"
#include "board/platform.h"
#include "engine/sim_api.h"
#include "policies/registry.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)
#define GIGANTIC_PAGES (1ul << 18)	/* 1 GiB of 4 KiB pages */

static char board[PATH_MAX];	/* tests/dt/qemu-virt-arm64.dts */

/* The virt board with @mem bytes of RAM, under @kernel, booted with @cmdline (NULL: the tree's). */
static struct cma_mm *boot_virt(uint64_t mem, const char *kernel, const char *cmdline)
{
	struct platform p;
	struct cma_device *devs[PLATFORM_MAX_DEVICES];
	struct cma_mm *mm;
	char err[512];

	if (platform_read_dt(board, &p, err, sizeof(err)))
		fail_msg("%s", err);
	p.banks[0].size = mem;
	platform_dt_set_banks(&p);
	if (kernel)
		p.cfg.kernel = kernel;
	if (platform_boot(&p, cmdline, NULL, &mm, devs))
		fail_msg("%s did not boot", board);
	return mm;
}

/* The activated area named @name, or NULL. */
static struct cma *area(struct cma_mm *mm, const char *name)
{
	for (unsigned i = 0; i < mm->cma->nr_reserved; i++) {
		struct cma *cma = mm->cma->reserved[i].cma;

		if (cma && !strcmp(cma_area_name(cma), name))
			return cma;
	}
	return NULL;
}

/* @lines, each in the log, in this order. */
static void expect_lines(struct cma_mm *mm, const char *const *lines, size_t n)
{
	char *log = test_dmesg(mm);
	const char *at = log;

	for (size_t i = 0; i < n; i++) {
		const char *found = strstr(at, lines[i]);

		if (!found)
			fail_msg("expected \"%s\" in the log (after the lines before it); the log:\n%s", lines[i], log);
		at = found + strlen(lines[i]);
	}
	free(log);
}

static uint64_t meminfo_kb(struct cma_mm *mm, const char *field)
{
	char *text = test_proc_read(mm, "meminfo");
	const char *line = strstr(text, field);
	unsigned long long kb = 0;

	if (!line || sscanf(line + strlen(field), " %llu kB", &kb) != 1)
		fail_msg("no %s in /proc/meminfo:\n%s", field, text);
	free(text);
	return kb;
}

static void virt_3g_places_both_areas_as_the_guest(void **state)
{
	static const char *const lines[] = {
		"hugetlb_cma: reserve 1024 MiB, up to 1024 MiB per node\n",
		"cma: Reserved 1024 MiB at 0x0000000080000000 on node 0\n",
		"hugetlb_cma: reserved 1024 MiB on node 0\n",
		"cma: Reserved 64 MiB at 0x00000000f8600000 on node -1\n",
	};
	struct cma_mm *mm = boot_virt(3 * GiB, NULL, NULL);
	struct cma *h = area(mm, "hugetlb0");

	expect_lines(mm, lines, sizeof(lines) / sizeof(lines[0]));
	assert_non_null(h);
	assert_int_equal(cma_area_base_pfn(h), 0x80000);
	assert_int_equal(cma_area_count(h), GIGANTIC_PAGES);
	assert_int_equal(cma_area_base_pfn(area(mm, "reserved")), 0xf8600);
	/* the guest's "1114112K cma-reserved" */
	assert_int_equal(meminfo_kb(mm, "CmaTotal:"), (1024 + 64) * 1024);
	cma_mm_destroy(mm);
}

/*
 * Expect: 512 * 1 zone * (2 + 3 * 3) = 5632 pages of min_free_kbytes
 * (22528 KiB), all the DMA zone's; low and high 1408 pages apart (6.12's
 * watermark_scale_factor: 10/10000 of 760,702 managed pages is less than
 * a quarter of the min). With transparent_hugepage=never the min is
 * sqrt(16 * lowmem KiB)'s, below it.
 */
static void virt_3g_min_mark_as_the_guest(void **state)
{
	struct cma_mm *mm = boot_virt(3 * GiB, NULL, NULL);
	struct zone *dma = &mm->zones[ZONE_DMA];

	assert_int_equal(mm->min_free_kbytes, 22528);
	assert_int_equal(min_wmark_pages(dma), 5632);
	assert_int_equal(low_wmark_pages(dma), 7040);
	assert_int_equal(high_wmark_pages(dma), 8448);
	cma_mm_destroy(mm);
	mm = boot_virt(3 * GiB, NULL, "hugetlb_cma=1G cma=64M transparent_hugepage=never");
	assert_true(min_wmark_pages(&mm->zones[ZONE_DMA]) < 5632);
	cma_mm_destroy(mm);
}

static void virt_2g_refuses_the_hugetlb_area(void **state)
{
	static const char *const lines[] = {
		"hugetlb_cma: reserve 1024 MiB, up to 1024 MiB per node\n",
		"cma: Failed to reserve 1024 MiB on node 0\n",
		"hugetlb_cma: reservation failed: err -12, node 0\n",
		"cma: Reserved 64 MiB at ",
	};
	struct cma_mm *mm = boot_virt(2 * GiB, NULL, NULL);

	expect_lines(mm, lines, sizeof(lines) / sizeof(lines[0]));
	assert_null(area(mm, "hugetlb0"));
	assert_int_equal(meminfo_kb(mm, "CmaTotal:"), 64 * 1024);
	cma_mm_destroy(mm);
}

/* alloc_gigantic_folio from the area, hugetlb_free_folio back to it. */
static void gigantic_page_from_the_area_and_back(void **state)
{
	struct cma_mm *mm = boot_virt(3 * GiB, NULL, NULL);
	struct cma_page *page = cma_alloc_gigantic_page(mm, GIGANTIC_PAGES, CMA_GFP_HIGHUSER | CMA_GFP_NOWARN);
	uint64_t cma_free = meminfo_kb(mm, "CmaFree:");

	assert_non_null(page);
	assert_int_equal(cma_page_to_pfn(mm, page), 0x80000);
	assert_true(cma_free <= 64 * 1024);
	cma_free_gigantic_page(mm, page, GIGANTIC_PAGES);
	cma_drain_all_pages(mm);	/* the per-CPU lists' pages are not counted free */
	assert_int_equal(meminfo_kb(mm, "CmaFree:"), cma_free + 1024 * 1024);
	/* the area's bitmap is clear again: the same page a second time */
	page = cma_alloc_gigantic_page(mm, GIGANTIC_PAGES, CMA_GFP_HIGHUSER | CMA_GFP_NOWARN);
	assert_non_null(page);
	assert_int_equal(cma_page_to_pfn(mm, page), 0x80000);
	cma_free_gigantic_page(mm, page, GIGANTIC_PAGES);
	cma_mm_destroy(mm);
}

static void hugetlb_cma_from_5_7(void **state)
{
	struct cma_mm *mm = boot_virt(3 * GiB, "5.6", NULL);
	char *log = test_dmesg(mm);

	assert_null(strstr(log, "hugetlb_cma"));
	assert_null(area(mm, "hugetlb0"));
	free(log);
	cma_mm_destroy(mm);
	mm = boot_virt(3 * GiB, "5.7", NULL);
	assert_non_null(area(mm, "hugetlb0"));
	cma_mm_destroy(mm);
}

static void per_node_form_and_refusals(void **state)
{
	static const char *const node0[] = { "cma: Reserved 1024 MiB at 0x0000000080000000 on node 0\n",
					     "hugetlb_cma: reserved 1024 MiB on node 0\n" };
	static const char *const node1[] = { "hugetlb_cma: invalid node 1 specified\n" };
	static const char *const small[] = { "hugetlb_cma: cma area should be at least 1024 MiB\n" };
	struct cma_mm *mm = boot_virt(3 * GiB, NULL, "hugetlb_cma=0:1G cma=64M");
	char *log = test_dmesg(mm);

	expect_lines(mm, node0, 2);
	/* the node-specific form has no "up to ... per node" line */
	assert_null(strstr(log, "per node"));
	free(log);
	cma_mm_destroy(mm);
	mm = boot_virt(3 * GiB, NULL, "hugetlb_cma=1:1G cma=64M");
	expect_lines(mm, node1, 1);
	assert_null(area(mm, "hugetlb0"));
	cma_mm_destroy(mm);
	mm = boot_virt(3 * GiB, NULL, "hugetlb_cma=512M cma=64M");
	expect_lines(mm, small, 1);
	assert_null(area(mm, "hugetlb0"));
	cma_mm_destroy(mm);
}

/* A malformed value: cma_mm_create refuses it, saying what is accepted. */
static void malformed_value_refused(void **state)
{
	struct platform p;
	struct cma_device *devs[PLATFORM_MAX_DEVICES];
	struct cma_mm *mm;
	char err[512];
	FILE *saved = stderr;
	char *said = NULL;
	size_t len = 0;

	assert_int_equal(platform_read_dt(board, &p, err, sizeof(err)), 0);
	stderr = open_memstream(&said, &len);
	assert_int_not_equal(platform_boot(&p, "hugetlb_cma=1Q", NULL, &mm, devs), 0);
	fclose(stderr);
	stderr = saved;
	assert_non_null(strstr(said, "invalid hugetlb_cma=1Q"));
	assert_non_null(strstr(said, "hugetlb_cma=0:1G"));
	free(said);
}

/*
 * x86's setup_arch reserves the default area first (dma_contiguous_reserve)
 * and hugetlb_cma's after it, bottom-up above 4 GiB when memory reaches
 * 4 GiB + the size; 32-bit ARM has no hugetlb_cma_reserve and only warns.
 */
static void x86_after_the_default_area_arm_warns(void **state)
{
	static const char *const x86[] = { "cma: Reserved 64 MiB at 0x0000000100000000 on node -1\n",
					   "hugetlb_cma: reserve 1024 MiB, up to 1024 MiB per node\n",
					   "cma: Reserved 1024 MiB at 0x0000000140000000 on node 0\n" };
	static const char *const arm[] = { "hugetlb_cma: the option isn't supported by current arch\n" };
	struct cma_mm *mm = test_mm_early(.size = 6 * GiB, .metadata_only = true, .dma_end = 16 * MiB,
					  .dma32_end = 4 * GiB, .kernel = "6.12",
					  .cmdline = "hugetlb_cma=1G cma=64M");

	cma_dma_contiguous_reserve(mm, 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	expect_lines(mm, x86, 3);
	cma_mm_destroy(mm);
	mm = test_mm_early(.size = 512 * MiB, .base = 0x40000000, .metadata_only = true, .arch = CMA_ARCH_ARM,
			   .pageblock_order = 10, .kernel = "6.12", .cmdline = "hugetlb_cma=1G cma=64M");
	assert_int_equal(cma_mm_boot(mm), 0);
	expect_lines(mm, arm, 1);
	assert_null(area(mm, "hugetlb0"));
	cma_mm_destroy(mm);
}

/* The [hugetlb] workload's 1 GiB page is the area's: CmaFree falls by it. */
static void workload_takes_the_area(void **state)
{
	static const char *const dumps[] = { "meminfo" };
	char ini[PATH_MAX + 256], err[768];
	struct scenario sc;
	struct sim_options o = { .policy = sim_policy_find("cma"), .dumps = dumps, .nr_dumps = 1 };
	struct sim_result r;
	unsigned long long total = 0, free_kb = 0;
	const char *text;

	snprintf(ini, sizeof(ini), "[scenario]\nplatform = %s\nduration = 2s\n"
		 "[hugetlb giga]\nsize = 1G\ncount = 1\nstart = 1s\n", board);
	memset(&sc, 0, sizeof(sc));
	if (scenario_parse("test.ini", ini, &sc, err, sizeof(err)))
		fail_msg("the test's scenario does not parse: %s", err);
	assert_int_equal(sim_run(&sc, &o, &r), 0);
	assert_int_equal(r.workloads[0].hugetlb.got, 1);
	assert_int_equal(r.nr_procs, 1);
	text = r.procs[0].text;
	assert_int_equal(sscanf(strstr(text, "CmaTotal:"), "CmaTotal: %llu kB", &total), 1);
	assert_int_equal(sscanf(strstr(text, "CmaFree:"), "CmaFree: %llu kB", &free_kb), 1);
	assert_int_equal(total, (1024 + 64) * 1024);
	assert_true(free_kb <= 64 * 1024);
	sim_result_free(&r);
}

/* A tree of @n cpu nodes, a cpu-map beside them, 1 GiB of RAM; its path in @path. */
static void write_cpus_dts(unsigned n, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "/tmp/test_hugetlb_cma.%d.dts", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "/dts-v1/;\n/ {\n\t#address-cells = <2>;\n\t#size-cells = <2>;\n"
		   "\tcompatible = \"libcma,test\";\n\tcpus {\n\t\t#address-cells = <1>;\n"
		   "\t\t#size-cells = <0>;\n\t\tcpu-map { cluster0 { core0 { cpu = <&c0>; }; }; };\n");
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "\t\t%scpu@%u { device_type = \"cpu\"; compatible = \"arm,cortex-a53\"; "
			   "reg = <%u>; };\n", i ? "" : "c0: ", i, i);
	fprintf(f, "\t};\n\tmemory@40000000 { device_type = \"memory\"; "
		   "reg = <0x0 0x40000000 0x0 0x40000000>; };\n};\n");
	assert_int_equal(fclose(f), 0);
}

/* Expect: as many CPUs as the tree's cpu nodes, one for the guest's. */
static void cpus_from_the_tree(void **state)
{
	struct platform p;
	char err[512], path[64];

	assert_int_equal(platform_read_dt(board, &p, err, sizeof(err)), 0);
	assert_int_equal(p.cfg.nr_cpus, 1);
	write_cpus_dts(4, path, sizeof(path));
	if (platform_read_dt(path, &p, err, sizeof(err)))
		fail_msg("%s", err);
	unlink(path);
	assert_int_equal(p.cfg.nr_cpus, 4);
}

static int setup(void **state)
{
	return test_source_path("tests/dt/qemu-virt-arm64.dts", board, sizeof(board));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(virt_3g_places_both_areas_as_the_guest),
		cmocka_unit_test(virt_3g_min_mark_as_the_guest),
		cmocka_unit_test(virt_2g_refuses_the_hugetlb_area),
		cmocka_unit_test(gigantic_page_from_the_area_and_back),
		cmocka_unit_test(hugetlb_cma_from_5_7),
		cmocka_unit_test(per_node_form_and_refusals),
		cmocka_unit_test(malformed_value_refused),
		cmocka_unit_test(x86_after_the_default_area_arm_warns),
		cmocka_unit_test(workload_takes_the_area),
		cmocka_unit_test(cpus_from_the_tree),
	};

	return cmocka_run_group_tests_name("hugetlb_cma= on QEMU's virt board", tests, setup, NULL);
}
