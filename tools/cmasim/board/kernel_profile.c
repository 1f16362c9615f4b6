// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel profiles a platform, a scenario or a command names: by the
 * profile's name ("4.8"), and by a kernel's release as uname -r prints
 * it. The library owns the profiles; these only name them.
 */
#include <stdio.h>

#include "board/platform.h"

const char *platform_kernel_find(const char *name)
{
	return cma_kernel_find(name);
}

unsigned platform_kernel_release(const char *name)
{
	unsigned major = 0, minor = 0;

	if (!name || sscanf(name, "%u.%u", &major, &minor) != 2)
		return 305;
	return major * 100 + minor;
}

const char *platform_kernel_of_release(const char *release)
{
	unsigned major, minor;
	const char *found;
	char name[16];

	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2)
		return NULL;
	if (major > 6)
		major = 6, minor = 99;
	minor = minor > 99 ? 99 : minor;
	/* down its major's minors, then each older major's from the top (4.20, 3.19) */
	for (;;) {
		snprintf(name, sizeof(name), "%u.%u", major, minor);
		found = platform_kernel_find(name);
		if (found)
			return found;
		if (minor)
			minor--;
		else if (major > 3)
			major--, minor = 99;
		else
			return NULL;
	}
}
