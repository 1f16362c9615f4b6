// SPDX-License-Identifier: GPL-2.0
/*
 * What transparent hugepages do to the watermarks: when THP is enabled
 * ("always" or "madvise") and khugepaged starts, it raises
 * min_free_kbytes so that each lowmem zone keeps pageblocks free for
 * anti-fragmentation (set_recommended_min_free_kbytes, 6.12's
 * mm/khugepaged.c, v3.x's mm/huge_memory.c). It came with THP's
 * series (Andrea Arcangeli's "set recommended min free kbytes", patch
 * 51 of 66, linux-mm, 3 Nov 2010), and a stored copy of v3.5's
 * mm/huge_memory.c (garghub/TROVON, dataset/codebase_cleansed/
 * linux_kernel/v3.5) has it with the same formula, the 512 MiB check
 * and hugepage_init's call, so every profile does. Only the boot is
 * modelled: no sysfs writes.
 *
 * The mode comes from the .config (CONFIG_TRANSPARENT_HUGEPAGE and its
 * ALWAYS / MADVISE / NEVER choice, ALWAYS by default) and then
 * transparent_hugepage= on the command line; x86 and arm64 have THP
 * (32-bit ARM only with LPAE, which the library does not model).
 *
 * The kernel's "raising min_free_kbytes from %d to %lu ..." line is
 * printed only when user space had set min_free_kbytes, which no boot
 * has (user_min_free_kbytes is -1): the guests' logs have no such line.
 */
#include <string.h>

#include "lib/cmdline.h"
#include "lib/kconfig.h"
#include "mm/internal.h"

/* hugepage_init: "By default disable transparent hugepages on smaller systems" */
#define THP_MIN_RAM_MIB 512

static bool kconfig_is_y(const struct kconfig *kc, const char *name)
{
	const char *v = kconfig_get(kc, name);

	return v && !strcmp(v, "y");
}

static enum thp_mode thp_kconfig_mode(struct cma_mm *mm, bool *built)
{
	struct kconfig *kc = NULL;
	char err[200];
	enum thp_mode mode = THP_ALWAYS;

	/* cma_parse_params has refused a malformed .config before */
	*built = false;
	if (kconfig_parse(mm->kconfig, &kc, err, sizeof(err)))
		return THP_NEVER;
	*built = (mm->arch == CMA_ARCH_X86 || mm->arch == CMA_ARCH_ARM64) &&
		 kconfig_is_y(kc, "CONFIG_TRANSPARENT_HUGEPAGE");
	if (kconfig_is_y(kc, "CONFIG_TRANSPARENT_HUGEPAGE_MADVISE"))
		mode = THP_MADVISE;
	else if (kconfig_is_y(kc, "CONFIG_TRANSPARENT_HUGEPAGE_NEVER"))
		mode = THP_NEVER;
	kconfig_free(kc);
	return *built ? mode : THP_NEVER;
}

/* setup_transparent_hugepage: the transparent_hugepage= __setup handler. */
void setup_transparent_hugepage(struct cma_mm *mm)
{
	static const char *const names[] = {
		[THP_NEVER] = "never", [THP_MADVISE] = "madvise", [THP_ALWAYS] = "always",
	};
	const char *val;
	size_t len;
	bool built;

	mm->transparent_hugepage = thp_kconfig_mode(mm, &built);
	/* without CONFIG_TRANSPARENT_HUGEPAGE the option is nobody's */
	if (!built || !cmdline_find_option(mm->cmdline, "transparent_hugepage", &val, &len))
		return;
	for (int m = THP_NEVER; m <= THP_ALWAYS; m++)
		if (len == strlen(names[m]) && !strncmp(val, names[m], len)) {
			mm->transparent_hugepage = (enum thp_mode)m;
			return;
		}
	cma_mm_printk(mm, KERN_WARNING "transparent_hugepage= cannot parse, ignored\n");
}

/*
 * set_recommended_min_free_kbytes: two free pageblocks per zone, and
 * on average two more almost free of each other pcp type for every pcp
 * type to fall back to, in each zone a user page can come from; at
 * most 5% of lowmem; only ever raises min_free_kbytes. Departure: the
 * zones above ZONE_NORMAL stopped counting with Joonsoo Kim's "mm/thp:
 * don't count ZONE_MOVABLE as the target for freepage reserving"
 * (bracketed: in the mm tree's since-4.16 shortlog of 6 Apr 2018, so
 * 4.17 at the earliest, and in 6.12); every profile here leaves them
 * out. ZONE_MOVABLE is never populated, so only an x86 machine with
 * highmem and THP differs, under the profiles before it.
 */
static void set_recommended_min_free_kbytes(struct cma_mm *mm)
{
	unsigned long nr_zones = 0, recommended, cap;
	struct zone *z;

	for_each_populated_zone(mm, z)
		if (z - mm->zones <= ZONE_NORMAL)
			nr_zones++;
	recommended = mm->pageblock_nr_pages * nr_zones * (2 + MIGRATE_PCPTYPES * MIGRATE_PCPTYPES);
	cap = nr_free_buffer_pages(mm) / 20;
	if (recommended > cap)
		recommended = cap;
	recommended <<= mm->page_shift - 10;
	if (recommended > (unsigned long)mm->min_free_kbytes)
		mm->min_free_kbytes = (int)recommended;
	setup_per_zone_wmarks(mm);
}

/*
 * hugepage_init: after init_per_zone_wmark_min (6.12: subsys_initcall
 * after postcore_initcall; v3.5: module_init after page_alloc's, and
 * again at late_initcall), khugepaged starts where THP is on and the
 * machine has at least 512 MiB of RAM; else THP is off.
 */
void hugepage_init(struct cma_mm *mm)
{
	/* in bytes: a machine's pages may be larger than 1 MiB here */
	if ((uint64_t)mm->totalram_pages << mm->page_shift < (uint64_t)THP_MIN_RAM_MIB << 20)
		mm->transparent_hugepage = THP_NEVER;
	if (mm->transparent_hugepage != THP_NEVER)
		set_recommended_min_free_kbytes(mm);
}
