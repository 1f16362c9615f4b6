/* SPDX-License-Identifier: GPL-2.0 */
/* Built-in platforms: a board's memory layout and configuration, as data. */
#ifndef CMASIM_PLATFORM_H
#define CMASIM_PLATFORM_H

#include <cma/cma.h>

struct platform {
	const char *name;
	const char *description;
	struct cma_mm_config cfg;
};

const struct platform *platform_find(const char *name);
void platform_list(FILE *out);

#endif
