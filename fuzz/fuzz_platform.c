// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_platform: cmasim's platform-file reader (tools/cmasim/board/platform_file.c,
 * platform_read_file) on arbitrary text, and a boot of what it accepts.
 *
 * The reader takes a path, so the input is handed over as a memfd.
 * Expect: 0 with a platform whose counts and names are within their
 * arrays, or -1 with a one-line, NUL-terminated message; a platform of at
 * most 256 MiB of RAM within a 4 GiB span and at most 1 GiB of swap is
 * then booted: platform_boot returns 0 (the machine passes
 * cma_mm_verify), -EIO (a failed boot, the
 * machine kept) or -EINVAL / -ENOMEM (refused, no machine), and
 * everything is freed (LeakSanitizer checks).
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

#define FUZZ_TARGET "fuzz_platform"
#include "fuzz_check.h"
#include "fuzz_boot.h"

#define MAX_BOOT_RAM	(256ull << 20)
#define MAX_BOOT_SPAN	(4ull << 30)
/* as fuzz_import's: a swap slot's maps cost 17 bytes, past the fuzzer's memory limit at 8 TiB */
#define MAX_BOOT_SWAP	(1ull << 30)

static void check_platform(const struct platform *p)
{
	if (p->nr_banks > PLATFORM_MAX_BANKS || p->nr_devices > PLATFORM_MAX_DEVICES)
		fail("platform with %u banks, %u devices", p->nr_banks, p->nr_devices);
	if (!terminated(p->name, sizeof(p->name)) || !terminated(p->description, sizeof(p->description)) ||
	    !terminated(p->cmdline, sizeof(p->cmdline)) || !terminated(p->kconfig, sizeof(p->kconfig)))
		fail("platform with an unterminated name, description, cmdline or kconfig");
	if (!no_controls(p->description, "\t") || !no_controls(p->cmdline, "\t"))
		fail("a control character other than a tab in the description or the cmdline: the file's are refused");
	for (unsigned i = 0; i < p->nr_devices; i++)
		if (!terminated(p->devices[i].name, sizeof(p->devices[i].name)) ||
		    !terminated(p->devices[i].share, sizeof(p->devices[i].share)) || !p->devices[i].name[0])
			fail("device %u has an empty or unterminated name or share", i);
}

/* Small enough to boot in a fuzzing run. */
static bool bootable(const struct platform *p)
{
	uint64_t ram = 0;

	if (!p->nr_banks)
		return true;	/* cma_mm_create must refuse it */
	if (p->cfg.swap_bytes > MAX_BOOT_SWAP)
		return false;
	for (unsigned i = 0; i < p->nr_banks; i++) {
		if (p->banks[i].size > MAX_BOOT_RAM)
			return false;
		ram += p->banks[i].size;
	}
	return ram <= MAX_BOOT_RAM && p->banks[0].base < MAX_BOOT_SPAN &&
	       p->banks[p->nr_banks - 1].base < MAX_BOOT_SPAN - p->banks[0].base &&
	       p->banks[p->nr_banks - 1].base - p->banks[0].base < MAX_BOOT_SPAN;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct platform p;
	char path[64], err[256];
	int fd = memfd_create("platform.ini", 0), ret;

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(err, 'X', sizeof(err));
	ret = platform_read_file(path, &p, err, sizeof(err));
	close(fd);
	if (ret == -1) {
		if (!terminated(err, sizeof(err)) || !err[0] || !one_line(err))
			fail("platform_read_file failed without a one-line message");
		return 0;
	}
	if (ret)
		fail("platform_read_file returned %d, expected 0 or -1", ret);
	check_platform(&p);
	if (bootable(&p))
		fuzz_boot(&p);
	return 0;
}
