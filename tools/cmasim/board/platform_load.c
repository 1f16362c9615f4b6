// SPDX-License-Identifier: GPL-2.0
/*
 * What --platform names: a built-in platform (platform.c), a device
 * tree (platform_dt.c) or a platform file (platform_file.c).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "board/platform.h"

int platform_load(const char *arg, struct platform *p, char *err, size_t errlen)
{
	const struct platform *builtin = platform_builtin(arg);

	if (builtin) {
		*p = *builtin;
		return 0;
	}
	if (!strchr(arg, '/') && !strchr(arg, '.') && access(arg, R_OK)) {
		snprintf(err, errlen, "no such platform: accepted %s (see 'cmasim list'), or the path of a platform file",
			 platform_builtin_names());
		return -ENOENT;
	}
	if (platform_is_dt(arg))
		return platform_read_dt(arg, p, err, errlen) ? -EINVAL : 0;
	return platform_read_file(arg, p, err, errlen) ? -EINVAL : 0;
}
