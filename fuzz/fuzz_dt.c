// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_dt: cmasim's device-tree reader (tools/cmasim/board/platform_dt.c,
 * platform_read_dt, over libfdt) on arbitrary bytes as a .dtb, and a boot
 * of what it accepts (boot_dt.c's of_reserved_mem).
 *
 * The reader takes a path, so the input is handed over as a memfd.
 * Expect: 0 with a platform whose counts and names are within their
 * arrays and hold no control character, or -1 with a one-line message
 * (no control character) naming the file; a platform of
 * at most 256 MiB of RAM within a 4 GiB span (a tree without memory gets
 * 64 MiB at its lowest region, as --memory would) is then checked
 * (platform_dt_check: 0, or -EINVAL with a one-line message) and booted:
 * platform_boot returns 0 (the machine passes cma_mm_verify), -EIO or
 * -EINVAL / -ENOMEM, and everything is freed (LeakSanitizer checks).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cma/cma.h>
#include "board/platform.h"

#define FUZZ_TARGET "fuzz_dt"
#include "fuzz_check.h"
#include "fuzz_boot.h"

#define MAX_BOOT_RAM	(256ull << 20)
#define MAX_BOOT_SPAN	(4ull << 30)

static void check_platform(const struct platform *p)
{
	if (p->nr_banks > PLATFORM_MAX_BANKS || p->nr_devices > PLATFORM_MAX_DEVICES ||
	    p->nr_rmem > PLATFORM_MAX_RMEM || p->nr_memreserve > PLATFORM_MAX_BANKS)
		fail("platform with %u banks, %u devices, %u regions, %u memreserves", p->nr_banks,
		     p->nr_devices, p->nr_rmem, p->nr_memreserve);
	if (!terminated(p->name, sizeof(p->name)) || !terminated(p->description, sizeof(p->description)) ||
	    !terminated(p->cmdline, sizeof(p->cmdline)) || !terminated(p->kconfig, sizeof(p->kconfig)) ||
	    !terminated(p->source, sizeof(p->source)))
		fail("platform with an unterminated name, description, cmdline, kconfig or source");
	if (!one_line(p->description))
		fail("the description holds a control character: the tree's strings are escaped");
	for (unsigned i = 0; i < p->nr_banks; i++)
		if (!p->banks[i].size || (i && p->banks[i].base <= p->banks[i - 1].base + p->banks[i - 1].size - 1))
			fail("bank %u is empty, or not above the one before", i);
	for (unsigned i = 0; i < p->nr_rmem; i++) {
		const struct platform_rmem *m = &p->rmem[i];

		if (!terminated(m->name, sizeof(m->name)) || m->nr_ranges > PLATFORM_MAX_RANGES ||
		    (!m->size && !m->dyn_size) || (m->align & (m->align - 1)) || !one_line(m->name))
			fail("region %u: unterminated name, a control character in it, %u ranges, no size, or alignment %#llx", i,
			     m->nr_ranges, (unsigned long long)m->align);
	}
	for (unsigned i = 0; i < p->nr_devices; i++)
		if (!terminated(p->devices[i].name, sizeof(p->devices[i].name)) ||
		    !terminated(p->devices[i].region, sizeof(p->devices[i].region)) || !p->devices[i].region[0])
			fail("device %u has an unterminated name or no region", i);
}

/* Small enough to boot in a fuzzing run. */
static bool bootable(const struct platform *p)
{
	uint64_t ram = 0;

	for (unsigned i = 0; i < p->nr_banks; i++) {
		if (p->banks[i].size > MAX_BOOT_RAM)
			return false;
		ram += p->banks[i].size;
	}
	return ram <= MAX_BOOT_RAM && (!p->nr_banks || (p->banks[0].base < MAX_BOOT_SPAN &&
	       p->banks[p->nr_banks - 1].base - p->banks[0].base < MAX_BOOT_SPAN));
}

/* A tree's own check first: 0, or a one-line refusal naming the file. */
static void boot(const struct platform *p)
{
	char err[512];

	memset(err, 'X', sizeof(err));
	if (platform_dt_check(p, err, sizeof(err))) {
		if (!terminated(err, sizeof(err)) || !strstr(err, p->source) || !one_line(err))
			fail("platform_dt_check refused without a one-line message naming the file");
		return;
	}
	fuzz_boot(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct platform p;
	char path[64], err[512];
	int fd = memfd_create("board.dtb", 0), ret;

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(err, 'X', sizeof(err));
	ret = platform_read_dt(path, &p, err, sizeof(err));
	close(fd);
	if (ret == -1) {
		if (!terminated(err, sizeof(err)) || strncmp(err, path, strlen(path)) || !one_line(err))
			fail("platform_read_dt failed without a one-line message naming the file");
		return 0;
	}
	if (ret)
		fail("platform_read_dt returned %d, expected 0 or -1", ret);
	check_platform(&p);
	if (!p.nr_banks) {
		/* as --memory 64M@BASE would, BASE the lowest static region's */
		p.banks[0] = (struct cma_bank){ p.nr_rmem && p.rmem[0].size ? p.rmem[0].base & ~0xffffffull : 0,
						64ull << 20 };
		p.nr_banks = 1;
		platform_dt_set_banks(&p);
	}
	p.cfg.quiet = true;
	if (bootable(&p))
		boot(&p);
	return 0;
}
