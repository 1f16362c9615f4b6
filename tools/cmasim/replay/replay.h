/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmasim replay: a device's recorded contiguous allocations read back
 * from an ftrace text (the trace file, trace_pipe, trace-cmd report) or
 * a trace-cmd trace.dat, and paired into the requests the device made.
 *
 * Both readers decode an event through one table (replay_read.c), each
 * entry asking the record for its fields by name: the text reader finds
 * "name=value" in the event's TP_printk output, the trace.dat reader
 * asks libtraceevent, which reads the record by the event's format file.
 * A field's meaning is the kernel's, not its name's: 6.12's
 * mm_alloc_contig_migrate_range_info prints its arguments shifted.
 */
#ifndef CMASIM_REPLAY_H
#define CMASIM_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/cost.h"

#define REPLAY_NAME_MAX	64
#define REPLAY_ERR_MAX	1024

/* The events a request is rebuilt from; the rest are counted by family. */
enum replay_type {
	RP_CMA_ALLOC_START,
	RP_CMA_ALLOC_FINISH,
	RP_CMA_ALLOC_BUSY_RETRY,
	RP_CMA_RELEASE,
	RP_CMA_ALLOC_INFO,		/* Android: a request's migration counts */
	RP_CONTIG_RANGE_INFO,		/* mm_alloc_contig_migrate_range_info */
	RP_MIGRATE_PAGES,		/* mm_migrate_pages with reason=contig_range */
	RP_DEVICE_REQUEST,		/* cmasim's own: the latency the run gave a request */
	RP_DEVICE_LATENCY,		/* cmasim's own: where that latency went, by part */
	RP_DEMAND_REQUEST,		/* cmasim's own: a recorded request asked through a policy */
	RP_DEMAND_RELEASE,		/* cmasim's own: such a request given back to the policy */
	RP_CMA_ALLOC_LATENCY,		/* cmasim's own: the cma_alloc part of a request, and its parts */
	NR_RP_TYPES
};

/* What the trace holds besides the requests: the background it was recorded in. */
enum replay_family {
	RPF_PAGE,			/* mm_page_alloc, mm_page_free */
	RPF_FILEMAP,			/* mm_filemap_add_to/delete_from_page_cache */
	RPF_VMSCAN,			/* mm_vmscan_* */
	RPF_COMPACTION,			/* mm_compaction_*, test_pages_isolated */
	RPF_MIGRATE,			/* mm_migrate_* not for a contiguous range */
	RPF_SCHED,			/* sched_switch */
	RPF_OOM,			/* mark_victim: an OOM kill */
	RPF_CMASIM,			/* cmasim_* lines of a cmasim run's own */
	NR_RPF
};

struct replay_event {
	uint64_t ts_ns;
	int pid;
	enum replay_type type;
	char area[REPLAY_NAME_MAX];	/* the CMA area's name (cmasim: the device's) */
	unsigned long pfn, count;
	unsigned align;			/* an order */
	int errorno;
	unsigned long migrated, reclaimed, mapped;
	uint64_t latency_ns;		/* RP_DEVICE_REQUEST */
	struct cost_parts parts;	/* RP_DEVICE_LATENCY */
	unsigned where;			/* the line (text) or record (trace.dat), from 1 */
};

/* One cma_alloc as recorded: its start, its finish and the release that matched it. */
struct replay_request {
	char area[REPLAY_NAME_MAX];
	uint64_t start_ns, finish_ns;
	bool finished;
	bool has_start;			/* else the trace began inside it: no latency */
	unsigned long count;
	unsigned align;
	unsigned long pfn;
	int errorno;			/* 0: got it */
	unsigned busy_retries;
	unsigned long migrated;		/* pages migrated out of its range */
	unsigned long reclaimed;
	bool has_migrated;		/* the trace recorded them */
	uint64_t latency_ns;		/* finish - start, or the run's (a cmasim trace) */
	bool has_latency;
	struct cost_parts parts;	/* where the run's latency went (a cmasim trace) */
	bool has_parts;
	uint64_t release_ns;
	bool released;
	unsigned where;			/* its finish's line or record */
};

/* A page given out or back, as the background is rebuilt from (replay_background.c). */
enum replay_page_op {
	RPP_ALLOC_MOVABLE,		/* mm_page_alloc, __GFP_MOVABLE: user memory */
	RPP_ALLOC_KERNEL,		/* mm_page_alloc, not movable: the kernel's */
	RPP_FREE,			/* mm_page_free, mm_page_free_batched */
	RPP_CACHE_ADD,			/* mm_filemap_add_to_page_cache */
	RPP_CACHE_DELETE,		/* mm_filemap_delete_from_page_cache */
};

struct replay_page_event {
	uint64_t ts_ns;
	unsigned long pfn;
	unsigned order;
	enum replay_page_op op;
};

/*
 * A block alloc_contig_range's migration scan went over
 * (mm_compaction_isolate_migratepages): page frames [lo, hi) and how many
 * it took, of task @pid.
 */
struct replay_scan {
	int pid;
	unsigned long lo, hi, taken;
};

struct replay_trace {
	char path[4096];
	bool dat;			/* read from trace.dat */
	char release[64];		/* the recording kernel's, from the trace.dat's header; "" when unsaid */
	struct replay_event *ev;
	size_t nr_ev, cap_ev;
	unsigned long families[NR_RPF];	/* background events seen, by family */
	unsigned long types[NR_RP_TYPES];
	struct replay_request *req;
	size_t nr_req;
	bool own;			/* written by cmasim run --trace */
	struct replay_page_event *pev;	/* the page events, in the trace's order */
	size_t nr_pev, cap_pev;
	/*
	 * Page frames test_pages_isolated found in use after a range's
	 * migration (its fin_pfn short of end_pfn): a page the kernel could
	 * not move, in the order first seen, each once.
	 */
	unsigned long *busy;
	size_t nr_busy, cap_busy;
	/*
	 * The blocks scanned in a range before test_pages_isolated first
	 * found it busy, those where pages were left untaken: a user page
	 * left there is one the kernel would not isolate (pinned).
	 */
	struct replay_scan *untaken;
	size_t nr_untaken, cap_untaken;
	struct replay_scan *scan;	/* each task's blocks since its last test_pages_isolated */
	size_t nr_scan, cap_scan;
};

/* What the readers accept, for messages. */
#define REPLAY_FORMATS "an ftrace text (the trace file, trace_pipe, trace-cmd report) or a trace-cmd trace.dat"
extern const char replay_events_accepted[];

/*
 * Read the ftrace text @text (@len bytes, from @path for messages) into
 * @t. 0, or -EINVAL after writing to @err "PATH:LINE: what was wrong;
 * what is accepted". @t holds what was read either way: free it with
 * replay_trace_free().
 */
int replay_read_text(const char *path, const char *text, size_t len, struct replay_trace *t,
		     char *err, size_t errlen);
/* The same from trace-cmd's trace.dat @path, through libtracecmd: errors name the record. */
int replay_read_dat(const char *path, struct replay_trace *t, char *err, size_t errlen);
/* Either, as the file's first bytes say. -ENOENT and the like when it cannot be read. */
int replay_read_file(const char *path, struct replay_trace *t, char *err, size_t errlen);
/* Does @head (@len bytes) begin as a trace.dat does? */
bool replay_is_dat(const void *head, size_t len);

/*
 * The requests of @t's events: each finish paired with the start of the
 * same task and area before it, the busy retries and contiguous-range
 * migrations between them counted to it, each release matched to the
 * first unreleased request holding its pfn and count. 0, -ENOMEM, or
 * -EINVAL after saying in @err that the trace has no CMA request.
 */
int replay_requests(struct replay_trace *t, char *err, size_t errlen);

void replay_trace_free(struct replay_trace *t);

/* ---- replay_scenario.c: the demand as a scenario, and its run ---- */

/* Where the background came from: a snapshot given, else the trace's page events, else nothing. */
enum replay_bg_source {
	RBG_DEFAULTS,			/* nothing: the platform's, no workload besides the demand */
	RBG_TRACE,			/* the trace's page events */
	RBG_SNAPSHOT,			/* a /proc snapshot of the device (--snapshot) */
};

/* A run of page frames: where a snapshot had pages of one kind. */
struct replay_pfn_run {
	unsigned long first, count;
};

/* The device's memory besides the demand: pages of each kind, and how fast they came. */
struct replay_background {
	enum replay_bg_source source;
	unsigned long anon, file, dirty, slab;	/* the snapshot's, or the most the trace held at once */
	unsigned long free;			/* a snapshot's free pages, on the buddy and per-CPU lists */
	unsigned long device_kernel;		/* a fitted snapshot's kernel memory on the device; 0: not fitted */
	unsigned long anon_rate, file_rate, slab_rate;	/* pages a second; 0: all in the first second */
	char from[4096];			/* the snapshot's directory, or the trace */
	struct replay_pfn_run *anon_at;		/* the snapshot's anonymous pages, in pfn order; NULL: unknown */
	size_t nr_anon_at;
	struct replay_pfn_run *file_at;		/* its clean page cache, as anon_at */
	size_t nr_file_at;
	struct replay_pfn_run *dirty_at;	/* its page cache dirty or under writeback, as anon_at */
	size_t nr_dirty_at;
	size_t unused_pev;			/* a snapshot's: the trace's page events it stood in for */
};

/* What the trace does not say: the board and the kernel (cmasim replay's options). */
struct replay_board {
	const char *platform;		/* a built-in platform, a platform file or a device tree */
	const char *cmdline;		/* NULL: the platform's */
	const char *cma;		/* cma=, NULL: the command line's */
	const char *kernel;		/* NULL: the platform's */
	const char *kernel_said;	/* which kernel profile, and what chose it, for the report */
	const char *policy;		/* NULL: cma */
	const struct replay_background *background;	/* NULL: none, the platform's defaults */
};

/*
 * The kernel profile @t's demand runs under, into @b->kernel: one already
 * set; else, for a trace.dat whose header names its
 * kernel, the newest profile not newer than that release; else NULL, the
 * platform's. @said (@b->kernel_said points to it) says which and why.
 */
void replay_board_kernel(const struct replay_trace *t, struct replay_board *b, char *said, size_t len);

/*
 * @v (room for *@cap elements of @size) with room for one past @nr:
 * itself, or grown (*@cap doubled); NULL, *@cap kept, when it cannot be.
 */
void *replay_room(void *v, size_t *cap, size_t nr, size_t size);
/*
 * @pfn, the largest so far, into the runs *@runs, *@nr (room for *@cap):
 * nothing when the last run holds it, that run grown when it ends at it,
 * else a run of its own. 0 or -ENOMEM.
 */
int replay_run_add(struct replay_pfn_run **runs, size_t *nr, size_t *cap, unsigned long pfn);

/* ---- replay_pinned.c: the pages the kernel could not move ---- */

/*
 * The page frames @t found busy (t->busy), and in each block it left
 * partly untaken (t->untaken) as many of @bg's anonymous pages as the
 * kernel did not take, as runs in pfn order into *@runs, *@nr (free()
 * them): 0 or -ENOMEM.
 */
int replay_pinned(const struct replay_background *bg, const struct replay_trace *t,
		  struct replay_pfn_run **runs, size_t *nr);

/* ---- replay_background.c: what ran beside the demand ---- */

/* The snapshot in @dir (cmasim snapshot's files) as a background: 0, or -errno with @err saying why. */
int replay_background_read(const char *dir, struct replay_background *bg, char *err, size_t errlen);
/*
 * The background @t's page events record: 0, -ENOENT when it has none,
 * -ENOMEM. A page is the kernel's when allocated without __GFP_MOVABLE,
 * the page cache's from its mm_filemap_add_to_page_cache to its delete,
 * else anonymous; what was allocated before the trace began is unknown.
 */
int replay_background_from_trace(const struct replay_trace *t, struct replay_background *bg);
/*
 * A snapshot's kernel memory (@bg->slab) refitted so that @b's machine,
 * booted under its command line and kernel and given the snapshot's user
 * memory, has the snapshot's free pages (replay_fit.c): 0, or -errno with
 * @err saying why. Nothing for a background of another source.
 */
int replay_background_fit(struct replay_background *bg, const struct replay_board *b, char *err, size_t errlen);
/* What runs beside the demand, for the report (@bg NULL: nothing). */
void replay_background_describe(const struct replay_background *bg, char *buf, size_t len);
void replay_background_free(struct replay_background *bg);
/*
 * @bg as the scenario's workloads, each holding its amount once it has
 * come, to @f; a snapshot's anonymous and page-cache pages placed where
 * it had them, and those of the anonymous ones @t saw the kernel fail to move (t->busy) pinned
 * until the run's end (@end_ms), through pfns files beside scenario
 * @path (replay_background_path). 0, or -errno after saying why on stderr.
 */
int replay_background_write(const struct replay_background *bg, const struct replay_trace *t, uint64_t end_ms,
			    const char *path, FILE *f);
/* Pfns file @what ("snapshot-anon", "busy") of scenario @path: "PATH-WHAT.pfns". */
void replay_background_path(const char *path, const char *what, char *buf, size_t len);
/* Removes the pfns files replay_background_write may have left beside scenario @path. */
void replay_background_unlink(const char *path);

/*
 * @t's requests as a scenario on @b, its text to @f, to be saved as
 * @path: each area's demand file written beside @path (PATH-AREA.demand,
 * replaced whole). 0, or -errno after saying why on stderr.
 */
int replay_scenario_write(const struct replay_trace *t, const struct replay_board *b, const char *path,
			  FILE *f);
/* The demand file of @area for scenario @path: "PATH-AREA.demand" (PATH less its extension). */
void replay_demand_path(const char *path, const char *area, char *buf, size_t len);
/*
 * Under a policy other than cma each size and alignment of an area is
 * a [demand] device of its own: the demand file of request @i's.
 */
void replay_demand_group_path(const char *path, const struct replay_trace *t, size_t i, char *buf, size_t len);
/*
 * Run scenario @scenario_path under @b's policy with a trace, and read
 * the trace back into @pred (replay_requests done; none when the run
 * asked no CMA area): 0, -EINVAL with @err saying why, or the run's
 * -errno (said on stderr).
 */
int replay_predict(const char *scenario_path, const struct replay_board *b, struct replay_trace *pred,
		   char *err, size_t errlen);

/* ---- replay_compare.c: measured against predicted ---- */

struct replay_pair {
	const struct replay_request *m, *p;	/* p NULL: the run made no such request */
	double ratio;				/* predicted / measured latency; 0: no ratio */
};

struct replay_summary {
	struct replay_pair *pairs;
	size_t nr;
	unsigned compared;			/* pairs with both latencies */
	unsigned within_2x, success_agree, pfn_agree, both_placed, migrated_within_10;
	unsigned with_migrated;			/* pairs whose trace and run count migrations */
	double median_ratio;
};

/* Pair @m's requests with @p's, the Nth of an area with the Nth of it: 0 or -ENOMEM. */
int replay_compare(const struct replay_trace *m, const struct replay_trace *p, struct replay_summary *s);
void replay_summary_free(struct replay_summary *s);
/* Requests that got their pages in @s: measured (@measured) or predicted. */
unsigned replay_served(const struct replay_summary *s, bool measured);
/* The same demand under a change (--cma, --policy, --kernel), compared with the same trace. */
struct replay_what_if {
	const struct replay_board *board;
	struct replay_summary sum;
};

/* The table, the summary and the worst ten, as text. */
void replay_print(const struct replay_summary *s, FILE *out);
/* A request's cells as the tables print them: latency in ms, pfn (or failed(ERRNO), none), pages migrated; "-" unknown. */
void replay_fmt_ms(char *buf, size_t len, const struct replay_request *r);
void replay_fmt_pfn(char *buf, size_t len, const struct replay_request *r);
void replay_fmt_migrated(char *buf, size_t len, const struct replay_request *r);
/* ---- replay_what_if.c ---- */
/* @w's change, "cma=SIZE, policy NAME, kernel VER" (those given), into @buf. */
void replay_what_if_describe(const struct replay_board *w, char *buf, size_t len);
/* The what-if beside the baseline @base and the measured run, as text. */
void replay_print_what_if(const struct replay_summary *base, const struct replay_what_if *w, FILE *out);
/*
 * The same as an HTML page: a log-log scatter of predicted against
 * measured latency with the 2x band, a timeline, and the what-if's
 * scatter (@w NULL: none).
 */
int replay_print_html(const struct replay_summary *s, const struct replay_what_if *w, const char *trace,
		      const struct replay_board *b, FILE *out);
/* The same as one JSON object, schema cmasim-replay/1 (doc/cmasim-json.md): 0, -ENOMEM or -EIO. */
int replay_print_json(const struct replay_summary *s, const struct replay_what_if *w, const char *trace,
		      const struct replay_board *b, FILE *out);

/* ---- replay_read.c, for the trace.dat reader ---- */

/* A record's fields by name, from whichever reader holds it. */
struct replay_fields {
	/* Field @name as a number (a pointer's value, a signed field's bits): true if there is one. */
	bool (*num)(void *ctx, const char *name, uint64_t *v);
	/* As text into @buf: true if there is one and it fits. */
	bool (*str)(void *ctx, const char *name, char *buf, size_t len);
	/* Whether the event has field @name, whatever its value's length. */
	bool (*has)(void *ctx, const char *name);
	void *ctx;
};

/*
 * Decode event @name of task @pid at @ts_ns (its line or record @where)
 * into @t: 0; -EINVAL after writing to @err why (an unknown event, a
 * format this reader does not model); -ENOMEM.
 */
int replay_add_event(struct replay_trace *t, const char *name, uint64_t ts_ns, int pid, unsigned where,
		     const struct replay_fields *f, char *err, size_t errlen);

#endif
