// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_cma_params: cma_mm_create() with a fuzzed kernel command line and
 * .config text on two small machines (x86 and ARM, 32 MiB, pageblock
 * order 9). The input is the command line, a NUL, then the .config text;
 * its last byte's low bit also picks the kernel profile (0: 3.5, 1:
 * 6.12), which the parameters' rules depend on (6.12's cma= takes a
 * range).
 *
 * Expect: cma_mm_create returns 0 or -EINVAL, the same on both machines
 * except that ARM alone reads coherent_pool= (and refuses a malformed
 * one), and leaves no machine behind on -EINVAL; a created machine boots,
 * passes cma_mm_verify, has no default area when CONFIG_CMA is off, and
 * a default area it has takes back the page it serves (on x86, where no
 * atomic pool can have taken the whole area, it must serve one); destroy
 * frees everything (LeakSanitizer checks).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cma/cma.h>
#include "lib/cmdline.h"
#include "lib/kconfig.h"

#define FUZZ_TARGET "fuzz_cma_params"
#include "fuzz_check.h"

/* CONFIG_CMA as the library reads it: on unless set to something other than y. */
static bool cma_configured(const char *kconfig)
{
	struct kconfig *kc;
	const char *v;
	bool on;

	if (kconfig_parse(kconfig, &kc, NULL, 0))
		return true;
	v = kconfig_get(kc, "CONFIG_CMA");
	on = !v || !strcmp(v, "y");
	kconfig_free(kc);
	return on;
}

/* A coherent_pool= that ARM's early_param refuses (x86 has no such parameter). */
static bool bad_coherent_pool(const char *cmdline)
{
	const char *val;
	size_t len;
	uint64_t size;

	return cmdline_find_option(cmdline, "coherent_pool", &val, &len) &&
	       memparse_strict(val, len, &size);
}

/* 0 or -EINVAL from create; on success boot, verify, use the default area. */
static int try_machine(enum cma_arch arch, const char *kernel, const char *cmdline, const char *kconfig)
{
	static const struct cma_bank bank = { 0, 32ull << 20 };
	struct cma_mm_config cfg = {
		.arch = arch, .banks = &bank, .nr_banks = 1, .pageblock_order = 9,
		.zone_dma_end = 16ull << 20, .cmdline = cmdline, .kconfig = kconfig, .kernel = kernel,
	};
	struct cma_mm *mm = (struct cma_mm *)&cfg;	/* poison: must become NULL or a machine */
	struct cma_page *page;
	struct cma *area;
	int ret = cma_mm_create(&cfg, &mm);

	if (ret) {
		if (ret != -EINVAL)
			fail("cma_mm_create returned %d, expected 0 or -EINVAL", ret);
		if (mm)
			fail("cma_mm_create failed but left a machine");
		return ret;
	}
	ret = cma_mm_boot(mm);
	if (ret)
		fail("cma_mm_boot returned %d after cma_mm_create succeeded", ret);
	if (cma_mm_verify(mm))
		fail("cma_mm_verify failed after boot (cmdline \"%s\")", cmdline);
	area = cma_dev_get_cma_area(mm, NULL);
	if (area && !cma_configured(kconfig))
		fail("CONFIG_CMA is off but there is a default area");
	if (area && cma_area_count(area) > (32ul << 20) / 4096)
		fail("a default area of %lu pages on a machine of 8192", cma_area_count(area));
	page = cma_dma_alloc_from_contiguous(mm, NULL, 1, 0);
	if (arch == CMA_ARCH_X86 && area && cma_area_count(area) && !page)
		fail("a fresh default area of %lu pages gave no page", cma_area_count(area));
	if (page && !cma_dma_release_from_contiguous(mm, NULL, page, 1))
		fail("the default area did not take back its page");
	if (cma_mm_verify(mm))
		fail("cma_mm_verify failed after a page from the default area");
	cma_mm_destroy(mm);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t cmd_len = nul ? (size_t)(nul - data) : size;
	char *cmdline = strndup((const char *)data, cmd_len);
	char *kconfig = nul ? strndup((const char *)nul + 1, size - cmd_len - 1) : NULL;
	const char *kernel = size && (data[size - 1] & 1) ? "6.12" : "3.5";
	int x86, arm;

	if (!cmdline || (nul && !kconfig))
		abort();
	x86 = try_machine(CMA_ARCH_X86, kernel, cmdline, kconfig);
	arm = try_machine(CMA_ARCH_ARM, kernel, cmdline, kconfig);
	if (bad_coherent_pool(cmdline) ? arm != -EINVAL : x86 != arm)
		fail("cma_mm_create: %d on x86 but %d on ARM for the same parameters (kernel %s)", x86, arm, kernel);
	free(cmdline);
	free(kconfig);
	return 0;
}
