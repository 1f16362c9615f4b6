// SPDX-License-Identifier: GPL-2.0
/*
 * A snapshot's kernel memory, fitted to the board the replay boots. The
 * snapshot says how many pages the device had free (its buddy and
 * per-CPU lists) and what its user memory was; its kernel held the rest
 * of what its zones managed. The board's own boot is not the device's:
 * it manages some hundreds of pages more or fewer (its memmap and
 * reservations) and holds some of them itself (6.12's atomic DMA pools),
 * which the device's count holds too. So the replay's kernel memory is
 * what leaves its machine, once booted and given the snapshot's user
 * memory, with the device's free pages: how many there are decides
 * 6.12's CMA balance, and with it where the requests' migration targets
 * land.
 */
#include <errno.h>
#include <stdio.h>

#include <cma/cma.h>

#include "replay/replay.h"
#include "board/platform.h"

/* The pages free once @b's platform has booted under its command line and kernel: 0 or -errno. */
static int boot_free_pages(const struct replay_board *b, uint64_t *free_pages, char *err, size_t errlen)
{
	static struct platform p;
	struct cma_device *devs[PLATFORM_MAX_DEVICES];
	struct cma_mm *mm;
	int ret = platform_load(b->platform, &p, err, errlen);

	if (ret)
		return ret;
	if (b->kernel)
		p.cfg.kernel = b->kernel;
	ret = platform_boot(&p, b->cmdline, NULL, &mm, devs);
	if (!ret && cma_mm_counter(mm, "nr_free_pages", free_pages))
		ret = -EIO;
	cma_mm_destroy(mm);
	if (ret)
		snprintf(err, errlen, "the board %s did not boot, so the snapshot's kernel memory cannot be fitted to it",
			 b->platform);
	return ret;
}

int replay_background_fit(struct replay_background *bg, const struct replay_board *b, char *err, size_t errlen)
{
	unsigned long user = bg->anon + bg->file + bg->dirty;
	uint64_t free_pages;
	int ret;

	if (bg->source != RBG_SNAPSHOT || bg->device_kernel)
		return 0;
	ret = boot_free_pages(b, &free_pages, err, errlen);
	if (ret)
		return ret;
	bg->device_kernel = bg->slab;
	bg->slab = free_pages > bg->free + user ? (unsigned long)free_pages - bg->free - user : 0;
	return 0;
}
