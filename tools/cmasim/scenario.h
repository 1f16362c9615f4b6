/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scenarios: a board, its boot configuration, a duration, a seed and the
 * workloads that run on it. Built-in ones are INI texts (scenario_builtin.c)
 * read by the same parser as scenario files (scenario_file.c); the format
 * is documented there and in cmasim(1).
 */
#ifndef CMASIM_SCENARIO_H
#define CMASIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cost.h"
#include "result.h"

#define SIM_MAX_WORKLOADS	32
#define SIM_MAX_SNAPSHOTS	8
#define SIM_MAX_SLAB_ORDERS	8

enum wl_kind { WL_PAGECACHE, WL_WRITER, WL_ANON, WL_SLAB, WL_PINNER, WL_DEVICE, NR_WL_KINDS };

/* Page-cache readers and writers: a file read or written at a rate. */
struct wl_file {
	uint64_t file_bytes;
	uint64_t rate;			/* pages per second */
	bool sequential;		/* else uniformly random */
	uint64_t dirty_expire_ns;	/* writer: dirty pages older than this are written back */
};

/* A process's anonymous memory. */
struct wl_anon {
	uint64_t rss_bytes;
	uint64_t rate;			/* pages touched per second (faulted in first) */
	uint64_t lifetime_ns;		/* 0: the whole run */
	uint64_t restart_ns;		/* after exit or OOM kill; 0: stays dead */
};

/* Kernel allocations that do not move. */
struct wl_slab {
	uint64_t rate;			/* allocations per second */
	unsigned orders[SIM_MAX_SLAB_ORDERS];
	unsigned weights[SIM_MAX_SLAB_ORDERS];
	unsigned nr_orders;
	uint64_t lifetime_ns;		/* mean of an exponential lifetime */
	unsigned reclaimable;		/* percent allocated __GFP_RECLAIMABLE */
	uint64_t max_bytes;		/* live allocations capped here; 0: none */
};

/* Pins a share of a workload's resident pages (O_DIRECT, RDMA). */
struct wl_pinner {
	char target[SIM_NAME_MAX];	/* an anon, pagecache or writer workload */
	int target_idx;			/* resolved by the parser */
	unsigned share;			/* percent of its resident pages */
	uint64_t hold_ns;
	uint64_t period_ns;
};

/* A device streaming through a ring of contiguous buffers. */
struct wl_device {
	uint64_t buffer_bytes;
	uint64_t align_bytes;		/* 0: the allocator's default */
	uint64_t period_ns;		/* one frame per period */
	unsigned ring;			/* buffers held while streaming */
	bool atomic;			/* requests may not sleep */
	bool sg;			/* scatter-gather: buddy policy may split */
	uint64_t deadline_ns;		/* per request; 0: none */
	uint64_t session_ns;		/* streaming time; 0: stream for the whole run */
	uint64_t gap_ns;		/* idle between sessions, buffers released */
	uint64_t cma_bytes;		/* its own CMA area; 0: the default area */
	uint64_t mask;			/* coherent DMA mask */
	bool cma_given, mask_given;	/* set in the file: they replace a platform device's */
};

struct wl_spec {
	enum wl_kind kind;
	char name[SIM_NAME_MAX];
	uint64_t start_ns;		/* begins at */
	uint64_t stop_ns;		/* ends at; 0: with the run */
	union {
		struct wl_file file;
		struct wl_anon anon;
		struct wl_slab slab;
		struct wl_pinner pinner;
		struct wl_device device;
	};
};

struct scenario {
	char name[SIM_NAME_MAX];
	char description[160];
	char platform[256];		/* a built-in platform's name, or a path */
	char cmdline[512];		/* "" with !cmdline_set: the platform's */
	bool cmdline_set;
	char kconfig[4096];
	bool kconfig_set;
	uint64_t memory_bytes;		/* 0: the platform's banks; else one bank of this size */
	uint64_t swap_bytes;
	uint64_t duration_ns;
	uint64_t seed;
	uint64_t sample_ns;		/* timeline resolution; 0: duration / 200 */
	uint64_t snapshot_ns[SIM_MAX_SNAPSHOTS];
	unsigned nr_snapshots;
	struct cost_model cost;		/* the platform's profile with the file's overrides */
	bool cost_set[NR_COST_FIELDS];	/* overrides given */
	struct wl_spec wl[SIM_MAX_WORKLOADS];
	unsigned nr_wl;
};

const char *wl_kind_name(enum wl_kind k);

/*
 * Read scenario @text (from @path, for messages and relative platform
 * paths) into @sc. 0, or -1 after writing one line to @err naming the
 * file, the line when there is one, the key, what was wrong and what is
 * accepted.
 */
int scenario_parse(const char *path, const char *text, struct scenario *sc, char *err,
		   size_t errlen);
int scenario_read_file(const char *path, struct scenario *sc, char *err, size_t errlen);

/* The built-in scenario @name into @sc: 0, or -1 if there is none. */
int scenario_builtin(const char *name, struct scenario *sc);
void scenario_list(FILE *out);
const char *scenario_builtin_names(void);
/* The built-in scenario's INI text (for cmasim(1)'s example and tests). */
const char *scenario_builtin_text(const char *name);

#define SCENARIO_DEFAULT "camera-browser"

#endif
