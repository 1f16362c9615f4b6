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
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/cost.h"
#include "util/inifile.h"
#include "engine/result.h"

#define SIM_MAX_WORKLOADS	32
#define SIM_MAX_SNAPSHOTS	8
#define SIM_MAX_SLAB_ORDERS	8
/* room for any message the scenario reader writes: every workload's name, every key */
#define SCENARIO_ERR_MAX	2048

struct scenario;
struct wl_spec;
struct workload_ops;

/* How a key's value is read (scenario_file.c's set_value). */
enum key_type { KEY_TEXT, KEY_SIZE, KEY_UINT, KEY_U32, KEY_DURATION, KEY_BOOL, KEY_PERCENT, KEY_NAME,
		KEY_PLATFORM, KEY_CUSTOM, KEY_FILE /* a path from the scenario file's directory */ };

/* A key of a scenario file's section. */
struct scenario_key {
	const char *name;
	enum key_type type;
	size_t offset;		/* into struct scenario ([scenario]) or struct wl_spec */
	uint64_t max;		/* KEY_UINT, KEY_U32, KEY_SIZE: largest accepted; 0: any */
	size_t size;		/* KEY_TEXT, KEY_FILE: the field's size */
	bool required;
	bool repeats;
	size_t given;		/* non-zero: the offset of a bool set when the key is given */
	/* KEY_CUSTOM: read @value into @field; 1, or 0 after ini_fail(@err, @len, ...) */
	int (*parse)(const char *value, void *field, char *err, size_t len);
};

/* 64 GiB: the simulator keeps 32 bytes per page of RAM and 13 per page of a workload's table */
#define SIM_MAX_BYTES	(64ull << 30)
#define WL(f)		offsetof(struct wl_spec, f)

/*
 * A workload kind: its section [NAME ...] in scenario files, the keys it
 * takes besides start and stop, and how it runs. Each is defined in its
 * wl_*.c and listed once in scenario_file.c's registry.
 */
struct wl_kind {
	const char *name;
	const struct workload_ops *ops;
	const struct scenario_key *keys;
	unsigned nr_keys;
	bool owned;		/* the workload's priv begins with struct owned_pages: pinnable */
	bool device;		/* a device the policies serve: a board device and a device_result */
	/* Values before the section's keys (NULL: zeroes). */
	void (*defaults)(struct wl_spec *w);
	/* After the whole file: 1, or 0 after ini_fail(@err, @len, ...) (NULL: nothing to check). */
	int (*check)(const struct scenario *sc, struct wl_spec *w, char *err, size_t len);
};

#define WL_KEYS(k)	.keys = (k), .nr_keys = sizeof(k) / sizeof((k)[0])

/* The registered kinds, in the order the "accepted" messages list them. */
unsigned wl_nr_kinds(void);
const struct wl_kind *wl_kind(unsigned i);

/* Page-cache readers and writers: a file read or written at a rate. */
struct wl_file {
	uint64_t file_bytes;
	uint64_t rate;			/* pages per second */
	bool sequential;		/* else uniformly random */
	uint64_t passes;		/* file-sizes read or written, then it stops; 0: on and on */
	uint64_t dirty_expire_ns;	/* writer: dirty pages older than this are written back */
	unsigned journal;		/* writer: the file system's metadata pages its files dirty */
	unsigned files;			/* writer: the files its file stands for (the check's default: journal) */
	unsigned mapped;		/* percent of the file's pages also mmap'ed (one PTE each) */
	unsigned threads;		/* wanting a CPU while it runs; without threads_given, from the rate */
	bool threads_given;
	char pfns[256];			/* a pfns file: where its pages were on a device; "": anywhere */
};

/* A process's anonymous memory. */
struct wl_anon {
	uint64_t rss_bytes;
	uint64_t rate;			/* pages touched per second (faulted in first) */
	uint64_t lifetime_ns;		/* 0: the whole run */
	uint64_t restart_ns;		/* after exit or OOM kill; 0: stays dead */
	unsigned threads;		/* wanting a CPU while alive; without threads_given, from the rate */
	bool threads_given;
	bool hold;			/* fault the resident set in once, then sleep (contig.sh's hold) */
	bool fragment;			/* with hold: then give back every other page (MADV_DONTNEED) */
	unsigned hot;			/* percent of the set touched once faulted in; 0: all */
	bool hot_given;
	char pfns[256];			/* a pfns file: where its pages were on a device; "": anywhere */
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
	bool longterm;			/* FOLL_LONGTERM pins (cma_page_pin_longterm) */
	char pfns[256];			/* a pfns file: only pages at these frames are pinned; "": any */
};

/* A device streaming through a ring of contiguous buffers. */
struct wl_device {
	uint64_t buffer_bytes;
	uint64_t align_bytes;		/* 0: the allocator's default */
	uint64_t period_ns;		/* one frame per period */
	unsigned ring;			/* buffers held while streaming */
	bool atomic;			/* requests may not sleep */
	cma_gfp_t gfp;			/* the driver's dma_alloc_coherent flags when not atomic */
	bool sg;			/* scatter-gather: buddy policy may split */
	uint64_t deadline_ns;		/* per request; 0: none */
	uint64_t session_ns;		/* streaming time; 0: stream for the whole run */
	uint64_t gap_ns;		/* idle between sessions, buffers released */
	uint64_t cma_bytes;		/* its own CMA area; 0: the default area */
	uint64_t mask;			/* coherent DMA mask */
	uint64_t prefetch_ns;		/* predict policy: the schedule is known, evacuate this long before */
	bool serial;			/* asked from the thread of the request in flight: only after it */
	bool cma_given, mask_given;	/* set in the file: they replace a platform device's */
};

/* A write of nr_hugepages (wl_hugetlb.c). */
struct wl_hugetlb {
	uint64_t page_bytes;		/* the huge page size: 2M, 1G */
	uint64_t count;			/* huge pages asked for */
};

/*
 * A background job of fixed CPU work (a make -jN build): @procs processes
 * at a time run @units process lifetimes, each with a share of the CPU
 * work, an anonymous working set and page-cache reads of a shared source
 * tree (wl_job.c).
 */
struct wl_job {
	unsigned procs;			/* processes at a time (make's -j) */
	uint64_t cpu_ns;		/* CPU time of the whole job, all processes */
	uint64_t units;			/* process lifetimes the work is cut into; 0: procs */
	unsigned spread;		/* percent: a unit's CPU is the mean +- up to this much */
	uint64_t rss_bytes;		/* anonymous working set of one process */
	uint64_t rate;			/* its pages touched per second of CPU (faulted in first) */
	uint64_t source_bytes;		/* the source tree every process reads from */
	uint64_t reads_bytes;		/* read from it by one unit */
	unsigned hot;			/* percent of the working set touched once faulted in; 0: all */
	bool hot_given;
};

/* A recorded demand played back (wl_replay.c, cmasim replay --emit-scenario). */
struct wl_replay {
	char area[SIM_NAME_MAX];	/* reserved, hugetlb..., or a board device's */
	char requests[256];		/* the demand file, one request a line */
};

/*
 * A recorded demand served through the run's policy (wl_demand.c): a
 * device first, so that the policies read its buffer as a [device]'s.
 */
struct wl_demand {
	struct wl_device device;
	struct wl_replay replay;
};

struct wl_spec {
	const struct wl_kind *kind;
	char name[SIM_NAME_MAX];
	uint64_t start_ns;		/* begins at */
	uint64_t stop_ns;		/* ends at; 0: with the run */
	unsigned cpu;			/* runs on (its per-CPU page lists); 0 by default */
	union {
		struct wl_file file;
		struct wl_anon anon;
		struct wl_slab slab;
		struct wl_pinner pinner;
		struct wl_device device;
		struct wl_hugetlb hugetlb;
		struct wl_job job;
		struct wl_replay replay;
		struct wl_demand demand;
	};
};

struct platform;

struct scenario {
	char name[SIM_NAME_MAX];
	char description[INI_TEXT_MAX];	/* whatever its line carries */
	char platform[256];		/* a built-in platform's name, or a path */
	char cmdline[512];		/* "" with !cmdline_set: the platform's */
	bool cmdline_set;
	char cma[32];			/* cma = SIZE: replaces any cma= on the command line; "": none */
	const char *kernel;		/* the kernel profile (platform_kernel_find); NULL: the platform's */
	char kconfig[4096];
	bool kconfig_set;
	uint64_t memory_bytes;		/* 0: the platform's banks; else one bank of this size */
	unsigned nr_cpus;		/* cpus = N: the platform's nr_cpus replaced; 0: the platform's */
	bool printk_contig_passes;	/* debugging printk per migration pass (cma_mm_config's); off */
	bool fgraph;			/* tracer = function_graph: the source's instrument */
	enum cost_fgraph ftrace_filter;	/* what it hooks: 0 (no ftrace_filter key) every function */
	uint64_t swap_bytes;
	bool swap_synchronous;		/* swap_synchronous = yes: zram's SWP_SYNCHRONOUS_IO, each write done at once */
	bool storage_memory;		/* storage_memory = yes: a loop device over tmpfs (cost_storage_memory) */
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

/*
 * Read scenario @text (from @path, for messages and relative platform
 * paths) into @sc. 0, or -1 after writing one line to @err naming the
 * file, the line when there is one, the key, what was wrong and what is
 * accepted.
 */
int scenario_parse(const char *path, const char *text, struct scenario *sc, char *err,
		   size_t errlen);
int scenario_read_file(const char *path, struct scenario *sc, char *err, size_t errlen);

/*
 * Set key @key, "SECTION.KEY", of a scenario already read to @value, as
 * the line "KEY = VALUE" in that section of the file would, with the same
 * parsing and messages (cmasim's --set, --cma and --cmdline; size and
 * sweep points). SECTION is scenario, cost, a workload's name, or a
 * workload kind the scenario has one workload of ("anon.rss"). The value
 * replaces the file's, a repeating key's (snapshot, kconfig) values too;
 * scenario.cmdline also drops the file's cma key. 0, or -1 after writing
 * one line to @err naming the section and key, what was wrong and what
 * is accepted. Call scenario_check() once all are set.
 */
int scenario_override(struct scenario *sc, const char *key, const char *value, char *err,
		      size_t errlen);
/*
 * The checks made after reading a whole file (durations, references,
 * each workload's own), again: 0, or -1 with @err as for a file.
 */
int scenario_check(struct scenario *sc, char *err, size_t errlen);
/* A size as the kernel's memparse reads cma=: a number with K, M, G, T, P or E; false if malformed. */
bool scenario_parse_cma(const char *s, uint64_t *bytes);
#define SCENARIO_CMA_SYNTAX "a size in bytes with an optional K, M, G, T, P or E suffix, e.g. 64M (0: no default area)"

/*
 * The built-in scenario @name into @sc: 0, -ENOENT if there is none, or
 * -EINVAL if its text does not parse (a bug: @err says where).
 */
int scenario_builtin(const char *name, struct scenario *sc, char *err, size_t errlen);
/* The built-in scenarios, a line each: 0, or -EIO after saying on stderr which did not parse. */
int scenario_list(FILE *out);
/* Every built-in scenario's name, joined by ", ". */
const char *scenario_builtin_names(void);
/* The built-in scenario's INI text (for cmasim(1)'s example and tests). */
const char *scenario_builtin_text(const char *name);

#define SCENARIO_DEFAULT "camera-browser"

#endif
