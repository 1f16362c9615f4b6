/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fuzz_platform and fuzz_dt share: booting a platform they read.
 * Expect: platform_boot returns 0 (the machine passes cma_mm_verify and
 * lists its devices), -EIO (a failed boot, the machine kept) or -EINVAL
 * / -ENOMEM (refused, no machine); the machine is freed. Include after
 * fuzz_check.h and platform.h.
 */
#ifndef CMA_FUZZ_BOOT_H
#define CMA_FUZZ_BOOT_H

#include <errno.h>

static void fuzz_boot(const struct platform *p)
{
	struct cma_device *devs[PLATFORM_MAX_DEVICES];
	struct cma_mm *mm = NULL;
	FILE *null;
	int ret = platform_boot(p, NULL, NULL, &mm, devs);

	switch (ret) {
	case 0:
		if (!mm)
			fail("platform_boot succeeded without a machine");
		if (cma_mm_verify(mm))
			fail("cma_mm_verify failed on a booted platform");
		null = fopen("/dev/null", "w");
		if (!null)
			abort();
		platform_write_devices(mm, p, devs, null);
		fclose(null);
		break;
	case -EIO:
		break;		/* the machine did not boot: a failed run, the machine kept */
	case -EINVAL:
	case -ENOMEM:
		if (mm)
			fail("platform_boot refused the configuration but left a machine");
		break;
	default:
		fail("platform_boot returned %d, expected 0, -EIO, -EINVAL or -ENOMEM", ret);
	}
	cma_mm_destroy(mm);
}

#endif
