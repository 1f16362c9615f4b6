/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Platforms: a board's memory layout, geometry, devices and boot
 * configuration, as data. Built-in ones are tables (platform.c); others
 * are read from a platform file (platform_file.c) or a device tree
 * (platform_dt.c), whichever --platform names (platform_load.c). Booting
 * one runs the early phase the way that board's setup_arch would
 * (boot.c). The kernel profiles they name are kernel_profile.c's.
 */
#ifndef CMASIM_PLATFORM_H
#define CMASIM_PLATFORM_H

#include <cma/cma.h>

#include "util/inifile.h"

#define PLATFORM_MAX_BANKS	16
#define PLATFORM_MAX_DEVICES	32	/* at most 32: platform_file.c keeps a bit per device */
#define PLATFORM_NAME_MAX	32	/* device and platform names, with the NUL */
#define PLATFORM_MAX_RMEM	64
#define PLATFORM_MAX_RANGES	8
#define PLATFORM_RMEM_NAME_MAX	64

/*
 * Debian 6.12's arm64 .config as far as the library reads it: a 32 MiB
 * default area and THP "always" (linux-config-6.12's amd64 configs say
 * CONFIG_TRANSPARENT_HUGEPAGE_ALWAYS=y, and bench/oracle's arm64 guests
 * have the min mark khugepaged gives, 5632 pages: THP is on).
 */
#define ARM64_DEBIAN_KCONFIG \
	"CONFIG_CMA_SIZE_MBYTES=32\nCONFIG_TRANSPARENT_HUGEPAGE=y\nCONFIG_TRANSPARENT_HUGEPAGE_ALWAYS=y\n"

/*
 * A device tree's /reserved-memory child (of_reserved_mem.c): static with
 * a reg (size != 0), else dynamic (dyn_size, align, alloc-ranges).
 */
struct platform_rmem {
	char name[PLATFORM_RMEM_NAME_MAX];	/* the node's name, unit address and all */
	cma_phys_t base;
	uint64_t size;
	uint64_t dyn_size, align;
	struct cma_bank ranges[PLATFORM_MAX_RANGES];
	unsigned nr_ranges;
	bool nomap, reusable;
	bool pool;			/* compatible "shared-dma-pool" */
	bool cma_default;		/* linux,cma-default */
};

struct platform_device {
	char name[PLATFORM_NAME_MAX];
	uint64_t mask;			/* coherent DMA mask */
	uint64_t cma_size;		/* its own CMA area, declared at the board's reserve(); 0: none */
	cma_phys_t cma_base;		/* 0: anywhere below the limit */
	cma_phys_t cma_limit;		/* 0: the memblock limit */
	char share[PLATFORM_NAME_MAX];	/* "": none; else uses that device's area from postcore on */
	char region[PLATFORM_RMEM_NAME_MAX];	/* a device tree's: its memory-region node; "": none */
};

struct platform;
struct cma_device;

/*
 * A board's reserve() callback (machine_desc->reserve): declares the
 * devices' areas in the early phase. @devs[i] is @p->devices[i]'s device.
 */
typedef void (*board_reserve_fn)(struct cma_mm *mm, const struct platform *p,
				 struct cma_device *const *devs);

struct platform {
	char name[PLATFORM_NAME_MAX];
	char description[INI_TEXT_MAX];	/* whatever its line carries */
	/*
	 * arch, geometry, zone limits, cpus, pool size, and cfg.kernel, the
	 * kernel profile the board boots with (NULL: 3.5); banks, cmdline
	 * and kconfig are below
	 */
	struct cma_mm_config cfg;
	struct cma_bank banks[PLATFORM_MAX_BANKS];
	unsigned nr_banks;
	struct cma_bank kernel;		/* the kernel image, reserved first; size 0: none */
	struct cma_bank initrd;		/* a tree's /chosen linux,initrd-start/end; size 0: none */
	struct platform_device devices[PLATFORM_MAX_DEVICES];
	unsigned nr_devices;
	board_reserve_fn reserve;	/* NULL: each device's area, in order (board_reserve_generic) */
	void *reserve_ctx;		/* for a reserve() that is not the board's (cmasim's policies) */
	char cmdline[512];		/* the board's command line; --cmdline replaces it */
	char kconfig[4096];		/* .config lines; --kconfig replaces them */
	/* from a device tree (platform_dt.c); source[0] == 0 for other platforms */
	char source[256];		/* the tree's path */
	bool has_reserved_memory;
	bool without_cma;		/* a policy without CMA: the tree's pools make no area, as without CONFIG_CMA */
	bool phys_wide;			/* %pa prints 16 hex digits (arm64, LPAE), else 8 */
	cma_phys_t memory_hint;		/* the first memory node's unit address, else 0 */
	struct platform_rmem rmem[PLATFORM_MAX_RMEM];
	unsigned nr_rmem;
	struct cma_bank memreserve[PLATFORM_MAX_BANKS];	/* the header's /memreserve/ */
	unsigned nr_memreserve;
};

/*
 * The kernel profile @name ("3.5", "4.8", "6.12": cma_mm_config.kernel)
 * as a string that lives as long as the program, or NULL if the library
 * has no such profile (cma_kernel_find).
 */
const char *platform_kernel_find(const char *name);
#define PLATFORM_KERNELS_ACCEPTED "3.5 to 6.12 (3.5-3.19, 4.0-4.20, 5.0-5.19, 6.0-6.12)"
/* The release of profile @name as major * 100 + minor (4.8: 408); NULL is 3.5's. */
unsigned platform_kernel_release(const char *name);
/*
 * The profile a kernel of release @release ("6.12.118+deb12-arm64", a
 * uname -r or /proc/version's) is modelled by: the newest profile not
 * newer than it (6.14: 6.12), or NULL when it is older than every
 * profile or names no release.
 */
const char *platform_kernel_of_release(const char *release);

/* The built-in platform @name, or NULL. */
const struct platform *platform_builtin(const char *name);
void platform_list(FILE *out);
/* "x86, arm, s5p-mfc, arm64": for messages saying what is accepted. */
const char *platform_builtin_names(void);

/*
 * Read a platform file into @p. 0, or -1 after writing one line to @err
 * naming the file, the line when there is one, what was wrong and what
 * is accepted.
 */
int platform_read_file(const char *path, struct platform *p, char *err, size_t errlen);
/*
 * @arg, a built-in platform's name or a platform file, into @p: 0;
 * -ENOENT when it is neither (a bare name, no such file), @err saying
 * what is accepted; -EINVAL when the file is wrong, @err saying why.
 */
int platform_load(const char *arg, struct platform *p, char *err, size_t errlen);

/* ---- platform_dt.c, boot_dt.c ---- */

/* A .dtb or .dts path: read by platform_read_dt, not as a platform file. */
bool platform_is_dt(const char *path);
/*
 * Read a device tree into @p (kernel profile 6.12; banks, command line,
 * architecture, reserved memory, devices). 0, or -1 after writing one
 * line to @err naming the file and what was wrong.
 */
int platform_read_dt(const char *path, struct platform *p, char *err, size_t errlen);
/* After the banks change (--memory): the ARM highmem boundary. */
void platform_dt_set_banks(struct platform *p);
/*
 * A tree's platform against its banks: memory at all, each static
 * region inside it or wholly outside. 0, or -EINVAL with @err saying why.
 */
int platform_dt_check(const struct platform *p, char *err, size_t len);
/* cma= on @cmdline (early_cma: dma_contiguous_reserve's size_cmdline is set). */
bool platform_cmdline_cma(const char *cmdline);
/* Every cma= of @cmdline dropped, tokens split as the kernel's next_arg splits them (blanks outside quotes). */
void platform_cmdline_drop_cma(char *cmdline);
/*
 * The tree's default CMA pool: its linux,cma-default region that
 * rmem_cma_setup would make a CMA area (a reusable, mapped
 * shared-dma-pool), or NULL.
 */
const struct platform_rmem *platform_dt_default_pool(const struct platform *p);
/* The tree's reserved memory, as setup_arch's of_reserved_mem (the board's reserve()). */
void board_reserve_dt(struct cma_mm *mm, const struct platform *p, struct cma_device *const *devs);
/* Device probe: the log's "assigned reserved memory node" lines. */
void platform_dt_probe(struct cma_mm *mm, const struct platform *p, struct cma_device *const *devs);

/* ---- boot.c ---- */

void board_reserve_generic(struct cma_mm *mm, const struct platform *p,
			   struct cma_device *const *devs);
void board_reserve_s5p_mfc(struct cma_mm *mm, const struct platform *p,
			   struct cma_device *const *devs);

/*
 * Create the machine of @p with @cmdline and @kconfig (NULL: the
 * platform's), run its early phase and boot it; share areas at postcore.
 * Returns 0 with *@mmp booted and @devs[0..nr_devices) set; -EINVAL when
 * the machine refused the configuration (its message is on stderr; *@mmp
 * is NULL); -ENOMEM or -EIO when boot failed (*@mmp is kept for its log
 * after -EIO).
 */
int platform_boot(const struct platform *p, const char *cmdline, const char *kconfig,
		  struct cma_mm **mmp, struct cma_device **devs);
/* The devices and the default area, one line each (what device probe would find). */
void platform_write_devices(struct cma_mm *mm, const struct platform *p,
			    struct cma_device *const *devs, FILE *out);

#endif
