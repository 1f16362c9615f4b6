/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reader for Linux .config text, so a libcma instance can be configured
 * from the same CONFIG_CMA_* lines that configure a kernel build. Symbols
 * are named in full, as in the file: kconfig_get(kc, "CONFIG_CMA").
 */
#ifndef CMA_LIB_KCONFIG_H
#define CMA_LIB_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* Parsed .config: read-only after kconfig_parse(), so safe to share. */
struct kconfig;

int kconfig_parse(const char *text, struct kconfig **out, char *err, size_t errlen);
const char *kconfig_get(const struct kconfig *kc, const char *name);
bool kconfig_bool(const struct kconfig *kc, const char *name);
int kconfig_get_ulong(const struct kconfig *kc, const char *name, unsigned long def,
		      unsigned long *out, char *err, size_t errlen);
void kconfig_free(struct kconfig *kc);

#endif
