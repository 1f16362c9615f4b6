// SPDX-License-Identifier: GPL-2.0
/*
 * The sysctl boot parameters (3db978d480e2 "kernel/sysctl: support
 * setting sysctl parameters from kernel command line", 5.8:
 * kernel.sysctl_cmdline): "sysctl.vm.NAME=N" or "sysctl/vm/NAME=N" on
 * the command line writes vm.NAME at boot, as if written to
 * /proc/sys/vm/NAME. A value the sysctl refuses is reported with the
 * kernel's message and the sysctl keeps its value.
 */
#include <stdio.h>

#include "lib/cmdline.h"
#include "mm/internal.h"

void sysctl_vm_from_cmdline(struct cma_mm *mm, const char *name, unsigned max, unsigned *value)
{
	char keys[2][64];
	const char *val;
	size_t len, n;
	uint64_t v;
	bool overflow = false;

	if (!mm->kernel.sysctl_cmdline)
		return;
	snprintf(keys[0], sizeof(keys[0]), "sysctl.vm.%s", name);
	snprintf(keys[1], sizeof(keys[1]), "sysctl/vm/%s", name);
	for (size_t i = 0; i < 2; i++) {
		if (!cmdline_find_option(mm->cmdline, keys[i], &val, &len))
			continue;
		n = parse_integer(val, len, 10, &v, &overflow);
		if (n && n == len && !overflow && v <= max)
			*value = (unsigned)v;
		else
			cma_mm_printk(mm, KERN_ERR "Failed to set sysctl parameter 'vm.%s=%.*s': invalid value\n",
				      name, (int)len, val);
	}
}
