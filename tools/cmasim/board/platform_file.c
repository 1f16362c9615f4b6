// SPDX-License-Identifier: GPL-2.0
/*
 * Platform files: an INI file read with libinih (Debian's libinih-dev).
 *
 *	# a comment (';' also starts one, and ends a value after a blank)
 *	[platform]
 *	name = my-board             ; default: the file's name
 *	description = ...
 *	arch = arm                  ; x86 (default) or arm
 *	bank = 0x40000000 256M      ; BASE SIZE, once per memory bank, ascending
 *	kernel = 0x40008000 8M      ; the kernel image, reserved first (optional),
 *	                            ; after the kernel profile if one is given:
 *	                            ; kernel = 6.12, or kernel = 6.12 0x40008000 8M
 *	page_shift = 12             ; max_order, pageblock_order, nr_cpus likewise
 *	zone_dma_end = 16M          ; zone_dma32_end, highmem_start, memblock_limit
 *	atomic_pool_size = 256K     ; swap = 1G; metadata_only = yes|no
 *	cmdline = cma=64M
 *	kconfig = CONFIG_CMA_SIZE_MBYTES=32   ; once per .config line
 *
 *	[device camera]             ; one section per device
 *	mask = 0xffffffff           ; its coherent DMA mask (required)
 *	cma_size = 32M              ; its own area (optional), with cma_base
 *	cma_base = 0x48000000       ;   and cma_limit (optional, 0: anywhere)
 *	share = codec               ; or: another device's area, from postcore on
 *
 * Sizes and addresses are decimal or 0x hex, with an optional K, M, G or
 * T suffix. Zero values mean what they mean in struct cma_mm_config.
 *
 * libinih does the splitting; this file checks what it cannot report:
 * its line buffer (longer lines would be split silently), indented lines
 * (read as a continuation of the previous value), and sections with no
 * keys (never seen by the handler). Geometry and zone limits are checked
 * by cma_mm_create when the platform boots.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>


#include "util/inifile.h"
#include "board/platform.h"


struct reader {
	struct platform *p;
	char err[512];			/* the first error, without file and line */
	char section[64];		/* the section the previous key was in */
	int device;			/* its device index, -1 for [platform] */
	bool platform_seen;
	uint32_t keys_seen;		/* single-valued keys of the current section */
	uint32_t mask_given;		/* devices whose mask was set, by index */
};

#define fail(r, ...) ini_fail((r)->err, sizeof((r)->err), __VA_ARGS__)

/* ---- values ---- */

static int bad_number(struct reader *r, const char *key, const char *value)
{
	return fail(r, "%s = %s: not a number: give a decimal or 0x hex number, optionally with a K, M, G or T suffix (e.g. 256M, 0x40000000)",
		    key, value);
}

/* "BASE SIZE" */
/* "BASE SIZE" into @out: false if it is not two numbers with a non-zero size. */
static bool read_range(const char *value, struct cma_bank *out)
{
	size_t n1 = strcspn(value, " \t");
	const char *second = value + n1 + strspn(value + n1, " \t");

	return ini_parse_number(value, n1, true, &out->base) &&
	       ini_parse_number(second, strlen(second), true, &out->size) && out->size;
}

static int parse_range(struct reader *r, const char *key, const char *value, struct cma_bank *out)
{
	if (!read_range(value, out))
		return fail(r, "%s = %s: expected BASE SIZE, two numbers with an optional K, M, G or T suffix and a non-zero size (e.g. %s = 0x40000000 256M)",
			    key, value, key);
	return 1;
}

static int copy_name(struct reader *r, const char *key, const char *value, char *dst, size_t size)
{
	if (strlen(value) >= size)
		return fail(r, "%s = %s: too long: at most %zu characters", key, value, size - 1);
	strcpy(dst, value);
	return 1;
}

/* ---- [platform] ---- */

enum key_kind { K_NAME, K_TEXT, K_CMDLINE, K_ARCH, K_BANK, K_KERNEL, K_UINT, K_SIZE, K_BOOL, K_KCONFIG };

struct platform_key {
	const char *name;
	enum key_kind kind;
	size_t offset;			/* into struct cma_mm_config, for K_UINT, K_SIZE, K_BOOL */
};

#define CFG(field) offsetof(struct cma_mm_config, field)

static const struct platform_key platform_keys[] = {
	{ "name", K_NAME, 0 },
	{ "description", K_TEXT, 0 },
	{ "arch", K_ARCH, 0 },
	{ "bank", K_BANK, 0 },
	{ "kernel", K_KERNEL, 0 },
	{ "page_shift", K_UINT, CFG(page_shift) },
	{ "max_order", K_UINT, CFG(max_order) },
	{ "pageblock_order", K_UINT, CFG(pageblock_order) },
	{ "nr_cpus", K_UINT, CFG(nr_cpus) },
	{ "zone_dma_end", K_SIZE, CFG(zone_dma_end) },
	{ "zone_dma32_end", K_SIZE, CFG(zone_dma32_end) },
	{ "highmem_start", K_SIZE, CFG(highmem_start) },
	{ "memblock_limit", K_SIZE, CFG(memblock_limit) },
	{ "atomic_pool_size", K_SIZE, CFG(atomic_pool_size) },
	{ "swap", K_SIZE, CFG(swap_bytes) },
	{ "metadata_only", K_BOOL, CFG(metadata_only) },
	{ "cmdline", K_CMDLINE, 0 },
	{ "kconfig", K_KCONFIG, 0 },
};

#define NR_PLATFORM_KEYS (sizeof(platform_keys) / sizeof(platform_keys[0]))
#define PLATFORM_KEYS_ACCEPTED "name, description, arch, bank, kernel, page_shift, max_order, " \
	"pageblock_order, nr_cpus, zone_dma_end, zone_dma32_end, highmem_start, memblock_limit, " \
	"atomic_pool_size, swap, metadata_only, cmdline, kconfig"

/* kernel = [PROFILE] [BASE SIZE]: the kernel profile, the image, or both. */
static int parse_kernel(struct reader *r, const char *value)
{
	size_t n = strcspn(value, " \t");
	const char *image = value;
	struct cma_bank range;
	char name[16];

	if (n < sizeof(name)) {
		memcpy(name, value, n);
		name[n] = 0;
		if ((r->p->cfg.kernel = platform_kernel_find(name)))
			image = value + n + strspn(value + n, " \t");
	}
	if (!*image)
		return 1;
	if (!read_range(image, &range))
		return fail(r, "kernel = %s: expected the kernel profile (" PLATFORM_KERNELS_ACCEPTED
			    "), the image's BASE SIZE (e.g. kernel = 0x40008000 8M), or both (kernel = 6.12 0x40008000 8M)",
			    value);
	r->p->kernel = range;
	return 1;
}

static int platform_value(struct reader *r, const struct platform_key *k, const char *value)
{
	struct platform *p = r->p;
	char *field = (char *)&p->cfg + k->offset;
	uint64_t v;

	switch (k->kind) {
	case K_NAME:
		if (!ini_valid_name(value, PLATFORM_NAME_MAX))
			return fail(r, "name = %s: use 1 to %d letters, digits, '-', '_' or '.'", value,
				    PLATFORM_NAME_MAX - 1);
		return copy_name(r, k->name, value, p->name, sizeof(p->name));
	case K_TEXT:
		return copy_name(r, k->name, value, p->description, sizeof(p->description));
	case K_CMDLINE:
		return copy_name(r, k->name, value, p->cmdline, sizeof(p->cmdline));
	case K_ARCH:
		if (!strcmp(value, "x86"))
			p->cfg.arch = CMA_ARCH_X86;
		else if (!strcmp(value, "arm"))
			p->cfg.arch = CMA_ARCH_ARM;
		else
			return fail(r, "arch = %s: accepted x86 or arm", value);
		return 1;
	case K_BANK:
		if (p->nr_banks == PLATFORM_MAX_BANKS)
			return fail(r, "too many banks: at most %d", PLATFORM_MAX_BANKS);
		return parse_range(r, k->name, value, &p->banks[p->nr_banks++]);
	case K_KERNEL:
		return parse_kernel(r, value);
	case K_UINT:
		if (!ini_parse_number(value, strlen(value), false, &v) || v > 4096)
			return fail(r, "%s = %s: expected a small whole number (0 takes the default)", k->name, value);
		*(unsigned *)field = (unsigned)v;
		return 1;
	case K_SIZE:
		if (!ini_parse_number(value, strlen(value), true, &v))
			return bad_number(r, k->name, value);
		*(uint64_t *)field = v;
		return 1;
	case K_BOOL:
		if (!ini_parse_bool(value, (bool *)field))
			return fail(r, "%s = %s: accepted " INI_BOOL_SYNTAX, k->name, value);
		return 1;
	case K_KCONFIG: {
		size_t used = strlen(p->kconfig);

		if (used + strlen(value) + 2 > sizeof(p->kconfig))
			return fail(r, "kconfig: the lines add up to more than %zu characters", sizeof(p->kconfig) - 1);
		strcat(strcat(p->kconfig, value), "\n");
		return 1;
	}
	}
	return 0;
}

static int platform_key(struct reader *r, const char *name, const char *value)
{
	for (unsigned i = 0; i < NR_PLATFORM_KEYS; i++) {
		const struct platform_key *k = &platform_keys[i];

		if (strcmp(k->name, name))
			continue;
		if (k->kind != K_BANK && k->kind != K_KCONFIG) {
			if (r->keys_seen & (1u << i))
				return fail(r, "%s is given twice in [platform]: give it once (only bank and kconfig repeat)", name);
			r->keys_seen |= 1u << i;
		}
		return platform_value(r, k, value);
	}
	return fail(r, "unknown key '%s' in [platform]; accepted: " PLATFORM_KEYS_ACCEPTED, name);
}

/* ---- [device NAME] ---- */

static const char *const device_keys[] = { "mask", "cma_size", "cma_base", "cma_limit", "share" };

static int device_key(struct reader *r, const char *name, const char *value)
{
	struct platform_device *d = &r->p->devices[r->device];
	unsigned i;
	uint64_t v;

	for (i = 0; i < sizeof(device_keys) / sizeof(device_keys[0]); i++)
		if (!strcmp(device_keys[i], name))
			break;
	if (i == sizeof(device_keys) / sizeof(device_keys[0]))
		return fail(r, "unknown key '%s' in [device %s]; accepted: mask, cma_size, cma_base, cma_limit, share",
			    name, d->name);
	if (r->keys_seen & (1u << i))
		return fail(r, "%s is given twice in [device %s]", name, d->name);
	r->keys_seen |= 1u << i;
	if (i == 4) {
		if (!ini_valid_name(value, PLATFORM_NAME_MAX))
			return fail(r, "share = %s: expected the name of another [device] section", value);
		return copy_name(r, name, value, d->share, sizeof(d->share));
	}
	if (!ini_parse_number(value, strlen(value), i != 0, &v))
		return bad_number(r, name, value);
	switch (i) {
	case 0:
		if (!v)
			return fail(r, "mask = %s: a coherent DMA mask of 0 lets the device reach nothing (e.g. mask = 0xffffffff)",
				    value);
		d->mask = v;
		r->mask_given |= 1u << r->device;
		break;
	case 1:
		if (!v)
			return fail(r, "cma_size = %s: give a size above 0, or leave cma_size out", value);
		d->cma_size = v;
		break;
	case 2:
		d->cma_base = v;
		break;
	case 3:
		d->cma_limit = v;
		break;
	}
	return 1;
}

/* ---- sections ---- */

static int start_section(struct reader *r, const char *section)
{
	struct platform *p = r->p;

	snprintf(r->section, sizeof(r->section), "%s", section);
	r->keys_seen = 0;
	if (!strcmp(section, "platform")) {
		if (r->platform_seen)
			return fail(r, "[platform] appears twice: give it once");
		r->platform_seen = true;
		r->device = -1;
		return 1;
	}
	if (!strncmp(section, "device ", 7)) {
		const char *name = section + 7 + strspn(section + 7, " \t");

		if (!ini_valid_name(name, PLATFORM_NAME_MAX))
			return fail(r, "[%s]: a device name is 1 to %d letters, digits, '-', '_' or '.'",
				    section, PLATFORM_NAME_MAX - 1);
		for (unsigned i = 0; i < p->nr_devices; i++)
			if (!strcmp(p->devices[i].name, name))
				return fail(r, "[device %s] appears twice: give each device once", name);
		if (p->nr_devices == PLATFORM_MAX_DEVICES)
			return fail(r, "too many devices: at most %d", PLATFORM_MAX_DEVICES);
		r->device = (int)p->nr_devices++;
		strcpy(p->devices[r->device].name, name);
		return 1;
	}
	return fail(r, "unknown section [%s]; accepted: [platform], [device NAME]", section);
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;

	if (!*section)
		return fail(r, "'%s' comes before any section: put it under [platform] or [device NAME]", name);
	if (strcmp(section, r->section) && !start_section(r, section))
		return 0;
	return r->device < 0 ? platform_key(r, name, value) : device_key(r, name, value);
}

/* After the whole file: what no single line shows. */
static int check_platform(struct reader *r)
{
	struct platform *p = r->p;

	if (!p->nr_banks)
		return fail(r, "no memory: give at least one 'bank = BASE SIZE' under [platform]");
	for (unsigned i = 0; i < p->nr_devices; i++) {
		struct platform_device *d = &p->devices[i];

		if (!(r->mask_given & (1u << i)))
			return fail(r, "[device %s] has no mask: give its coherent DMA mask (e.g. mask = 0xffffffff)",
				    d->name);
		if (!d->cma_size && (d->cma_base || d->cma_limit))
			return fail(r, "[device %s]: cma_base and cma_limit need a cma_size", d->name);
		if (d->share[0] && d->cma_size)
			return fail(r, "[device %s]: give either cma_size (its own area) or share (another's), not both",
				    d->name);
		if (d->share[0]) {
			unsigned j;

			for (j = 0; j < p->nr_devices; j++)
				if (j != i && !strcmp(p->devices[j].name, d->share))
					break;
			if (j == p->nr_devices)
				return fail(r, "[device %s]: share = %s names no other device of this platform",
					    d->name, d->share);
		}
	}
	return 1;
}

int platform_read_file(const char *path, struct platform *p, char *err, size_t errlen)
{
	struct reader r = { .p = p, .device = -1 };
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *text = ini_read_text(path, "platform file", err, errlen);
	int line;

	if (!text)
		return -1;
	memset(p, 0, sizeof(*p));
	if (strlen(base) < sizeof(p->name))	/* the file's name, unless cut short */
		strcpy(p->name, base);
	snprintf(p->description, sizeof(p->description), "from %s", path);
	line = ini_prescan(text, r.err, sizeof(r.err));
	if (!line)
		line = ini_parse_text(text, on_key, &r, r.err);
	free(text);
	if (!line && !p->name[0])
		fail(&r, "the file's name, %s, is longer than %d characters: give the platform a shorter name (name = ...)",
		     base, PLATFORM_NAME_MAX - 1);
	if (!line && !r.err[0] && check_platform(&r))
		return 0;
	if (line > 0 && !r.err[0])
		fail(&r, "expected 'key = value', '[platform]', '[device NAME]', a comment or a blank line");
	if (line > 0)
		snprintf(err, errlen, "%s:%d: %s", path, line, r.err);
	else
		snprintf(err, errlen, "%s: %s", path, r.err);
	return -1;
}
