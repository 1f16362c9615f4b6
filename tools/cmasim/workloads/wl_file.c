// SPDX-License-Identifier: GPL-2.0
/*
 * Page-cache readers and writers. Every tick a reader reads its share of
 * pages; a miss is a read through the storage queue that the reader waits
 * for (a sequential reader's misses come a readahead window at a time),
 * and once its waits fill the tick it reads on in the next. With passes,
 * it stops after reading that many file-sizes, its pages left cached.
 * A writer also dirties the pages, no more than the dirty limit lets it
 * (dirty.h): at the limit it waits, as in balance_dirty_pages, until
 * writes complete. Its flusher writes back whatever is dirty while the
 * machine's dirty pages are over the background threshold, and every
 * dirty_writeback_interval the pages dirty for longer than dirty_expire;
 * it writes the file in order from where it last stopped (the mapping's
 * writeback_index), no faster than the storage takes the writes, and the
 * pages stay under writeback until the storage queue completes them.
 * With nothing left to write it sleeps, as wb_workfn does, until the
 * writer dirties over the background threshold (balance_dirty_pages
 * wakes it) or dirty_writeback_interval has passed (wb_wakeup_delayed):
 * a threshold that falls under the dirty pages because memory was taken
 * meanwhile is not seen before then.
 * With pfns, its pages first come in where a device had them (pfns.h).
 *
 * A writer on a journaling file system (journal = N) also dirties the
 * file system's metadata: N pages of the block device's cache (its
 * directories' blocks, inode table and bitmaps), one of them each time it
 * begins one of its files (files = K: its file stands for K of them, the
 * j-th's page being j * N / K), read in then if not cached. They are
 * allocated movable, as grow_dev_page asks (so they may lie in CMA), and
 * while dirty the journal holds their buffers: they neither migrate nor
 * reclaim (owned.h's OP_HELD), and cma_alloc's range that holds one is
 * busy. They are let go together (journal_release: from 5.0 every
 * dirty_expire, before at every journal commit), each held again at its
 * next file. Measured in the oracle (bench/oracle/README.md, "A
 * journaling writer"): about 12 under 64 files rewritten in one
 * directory, about 1.1 a directory under a build's writer, released
 * together every ~30 s.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/dirty.h"
#include "util/inifile.h"
#include "engine/owned.h"
#include "workloads/pfns.h"

extern const struct wl_kind wl_kind_writer;

#define WRITEBACK_INTERVAL	(5 * 1000000000ull)	/* dirty_writeback_centisecs = 500 */
#define READAHEAD_PAGES		32	/* v3.5's VM_MAX_READAHEAD, 128 KiB */

struct file_wl {
	struct owned_pages o;		/* first: owned_of() */
	uint64_t pos;			/* next page of a sequential pass */
	double carry;			/* fraction of a page left from the last tick */
	uint64_t busy_until;		/* waiting for storage until then */
	unsigned ra_left;		/* misses the last readahead window still covers */
	bool throttled;			/* writer: held at the dirty limit this tick */
	uint64_t wb_index;		/* writer: where the flusher goes on (writeback_index) */
	uint64_t kupdate_at;		/* writer: the next periodic writeback */
	bool kupdate;			/* writer: a periodic writeback not yet through the file */
	uint64_t flush_at;		/* writer: the flusher's next run; an event at another time is stale */
	struct owned_pages meta;	/* writer: the block device's metadata pages */
	uint64_t file_pages;		/* writer: the pages of each of its files */
	bool norefs;			/* writer: the kernel's blkdev_migrate_norefs */
};

/* Has it read or written its passes? */
static bool file_done(const struct workload *w, const struct file_wl *f)
{
	uint64_t passes = w->spec->file.passes;

	return passes && f->pos >= passes * f->o.nr;
}

/* The miss of page @idx read at @t: when the reader has it. */
static uint64_t read_miss(struct sim *s, struct file_wl *f, bool sequential, uint64_t t)
{
	if (!sequential)
		return storage_submit(sim_storage(s), sim_cost(s), t, STORAGE_RAND_READ, sim_page_bytes(s));
	if (f->ra_left) {
		f->ra_left--;	/* came in with the window */
		return t;
	}
	f->ra_left = READAHEAD_PAGES - 1;
	return storage_submit(sim_storage(s), sim_cost(s), t, STORAGE_SEQ_READ, READAHEAD_PAGES * sim_page_bytes(s));
}

/*
 * The writer begins a file: its directory's metadata page @idx is read in
 * if not cached (sb_bread: the writer waits for it from @t) and dirtied,
 * its buffers held. Returns when the writer has it.
 */
static uint64_t journal_dirty(struct sim *s, struct file_wl *f, uint64_t idx, uint64_t t)
{
	struct owned_pages *m = &f->meta;
	bool miss = owned_reads(m, idx), dirtied;
	int ret = owned_write(m, idx, true, &dirtied);

	/* no memory, or parked in a migration (ret < 0): not dirtied this time */
	if (ret > 0 && miss) {
		t = storage_submit(sim_storage(s), sim_cost(s), t, STORAGE_RAND_READ, sim_page_bytes(s));
		owned_read_until(m, idx, t);
	}
	return t;
}

/*
 * The metadata page of the file the writer begins: the files share the
 * pages in order, as a build writes a directory's objects one after
 * another (the j-th of K files dirties page j * N / K).
 */
static uint64_t journal_page(const struct workload *w, const struct file_wl *f)
{
	const struct wl_file *spec = &w->spec->file;
	uint64_t j = (f->pos - 1) / f->file_pages % spec->files;

	return j * spec->journal / spec->files;
}

static void flusher_wake(struct sim *s, struct workload *w, uint64_t at);

/* balance_dirty_pages: a writer past the background threshold wakes its flusher. */
static void balance_dirty_pages(struct sim *s, struct workload *w)
{
	struct dirty_state d;

	dirty_state(s, &d);
	if (dirty_over_background(&d))
		flusher_wake(s, w, sim_now(s));
}

static void file_tick(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct file_wl *f = w->priv;
	const struct wl_file *spec = &w->spec->file;
	bool writer = w->spec->kind == &wl_kind_writer;
	uint64_t n, room = UINT64_MAX, dirtied_n = 0;
	uint64_t t = f->busy_until > sim_now(s) ? f->busy_until : sim_now(s);

	if (sim_wl_over(s, w) || file_done(w, f))
		return;
	if (writer) {
		struct dirty_state d;

		dirty_state(s, &d);
		room = dirty_room(&d);
	}
	f->throttled = false;
	n = sim_tick_ops(&f->carry, spec->rate);
	for (uint64_t i = 0; i < n && t < sim_now(s) + SIM_TICK_NS && !file_done(w, f); i++) {
		uint64_t idx = spec->sequential ? f->pos % f->o.nr : owned_rand_below(&f->o, f->o.nr);
		bool miss = owned_reads(&f->o, idx), dirtied = false;
		int ret;

		/* a page it would newly dirty at the limit: it waits for writeback */
		if (writer && !room && !(f->o.slot[idx].state & OP_DIRTY)) {
			f->throttled = true;
			break;
		}
		f->pos++;
		ret = writer ? owned_write(&f->o, idx, false, &dirtied) : owned_touch(&f->o, idx);
		if (ret > 0 && miss) {
			t = read_miss(s, f, spec->sequential, t);
			owned_read_until(&f->o, idx, t);
		}
		w->res->ops++;
		if (dirtied)
			room--, dirtied_n++;
		if (f->meta.slot && (f->pos - 1) % f->file_pages == 0)
			t = journal_dirty(s, f, journal_page(w, f), t);
	}
	if (dirtied_n || f->throttled)
		balance_dirty_pages(s, w);
	f->busy_until = t;
	sim_schedule(s, sim_now(s) + SIM_TICK_NS, file_tick, w);
}

/*
 * The flusher's writes wait while the storage has more than a tick of
 * work queued, so that it writes at the storage's pace and reads go in
 * between. Departure: the kernel's flusher queues until the request queue
 * is full (BLKDEV_MAX_RQ, 128 requests of up to 512 KiB, 64 MiB: seconds
 * of an SD card's writes), so more pages are under writeback at a time
 * there than here, and a migration that waits for one may wait longer.
 */
static bool storage_full(struct sim *s)
{
	return sim_storage(s)->busy_until > sim_now(s) + SIM_TICK_NS;
}

/*
 * wb_writeback: in background, any dirty page until the machine is back
 * under the background threshold; periodically (wb_check_old_data_flush,
 * dirty_writeback_interval after the last), the expired ones, until a
 * pass through the file finds none left to write. Then it sleeps.
 */
static void flush(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct file_wl *f = w->priv;
	struct owned_pages *o = &f->o;
	uint64_t now_ms = sim_now(s) / 1000000, expire_ms = w->spec->file.dirty_expire_ns / 1000000;
	uint64_t scanned = 0, written = 0, background;
	struct dirty_state d;

	if (sim_wl_over(s, w) || sim_now(s) != f->flush_at)
		return;
	if (sim_now(s) >= f->kupdate_at) {
		f->kupdate = true;
		f->kupdate_at = sim_now(s) + WRITEBACK_INTERVAL;
	}
	dirty_state(s, &d);
	background = dirty_over_background(&d);
	for (; scanned < o->nr && (background || f->kupdate) && !storage_full(s); scanned++) {
		uint64_t i = f->wb_index;
		bool expired = o->slot[i].dirtied_ms + expire_ms <= now_ms;

		f->wb_index = (i + 1) % o->nr;
		if (!(o->slot[i].state & OP_DIRTY) || !(background || (f->kupdate && expired)) ||
		    !owned_start_write(o, i))
			continue;
		sim_account_written_back(s, 1);
		written++;
		if (background)
			background--;
	}
	if (scanned == o->nr)
		f->kupdate = false;
	f->flush_at = UINT64_MAX;
	flusher_wake(s, w, sim_now(s) + (written || f->kupdate || storage_full(s) ?
					  SIM_TICK_NS : WRITEBACK_INTERVAL));
}

/* wb_wakeup: the flusher runs at @at, or earlier if it is due then already. */
static void flusher_wake(struct sim *s, struct workload *w, uint64_t at)
{
	struct file_wl *f = w->priv;

	if (at >= f->flush_at)
		return;
	f->flush_at = at;
	sim_schedule(s, at, flush, w);
}

#define JBD2_COMMIT_INTERVAL	(5 * 1000000000ull)	/* JBD2_DEFAULT_MAX_COMMIT_AGE */

/* How long the journal holds a metadata page's buffers (journal_release). */
static uint64_t journal_period(const struct workload *w, const struct file_wl *f)
{
	return f->norefs ? w->spec->file.dirty_expire_ns : JBD2_COMMIT_INTERVAL;
}

/*
 * The journal lets go of the metadata pages' buffers, each held again at
 * its directory's next file. From 5.0 (kernel.blkdev_migrate_norefs)
 * migration refuses any referenced buffer, and they go when the block
 * device's inode is written back, its dirty time expired: the pages are
 * written home together, and the journal drops its checkpointed heads.
 * Before, fallback_migrate_page writes a dirty page out and frees its
 * buffers once committed: they are held only while their transaction
 * runs, until jbd2's commit every 5 s, and the pages stay dirty.
 */
static void journal_release(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct file_wl *f = w->priv;
	struct owned_pages *m = &f->meta;

	if (sim_wl_over(s, w))
		return;
	for (uint64_t i = 0; i < m->nr; i++) {
		if (!(m->slot[i].state & OP_HELD))
			continue;
		owned_unhold(m, i);
		if (f->norefs)
			owned_start_write(m, i);
	}
	sim_schedule(s, sim_now(s) + journal_period(w, f), journal_release, w);
}

/*
 * The metadata pages: the block device's mapping (GFP_USER without
 * __GFP_FS, and __GFP_MOVABLE: 3.x's grow_dev_page, 6.12's sb_bread).
 */
static int journal_start(struct sim *s, struct workload *w, struct file_wl *f)
{
	const struct wl_file *spec = &w->spec->file;

	if (owned_init(&f->meta, s, w, spec->journal, false))
		return -ENOMEM;
	f->meta.gfp = (CMA_GFP_USER & ~CMA_GFP_FS) | CMA_GFP_MOVABLE;
	f->file_pages = f->o.nr / spec->files ? f->o.nr / spec->files : 1;
	f->norefs = cma_kernel_has(cma_mm_kernel(sim_mm(s)), "blkdev_migrate_norefs") == 1;
	sim_schedule(s, w->spec->start_ns + journal_period(w, f), journal_release, w);
	return 0;
}

static int file_start(struct sim *s, struct workload *w)
{
	struct file_wl *f = calloc(1, sizeof(*f));
	int ret;

	if (!f)
		return -ENOMEM;
	w->priv = f;
	if (owned_init(&f->o, s, w, sim_pages(s, w->spec->file.file_bytes), false))
		return -ENOMEM;
	f->o.mapped = w->spec->file.mapped;
	if (w->spec->file.pfns[0] && (ret = pfns_place(&f->o, w->spec->file.pfns)))
		return ret;
	sim_schedule(s, w->spec->start_ns, file_tick, w);
	if (w->spec->kind == &wl_kind_writer) {
		/* the first inode dirtied arms the periodic wakeup (wb_wakeup_delayed) */
		f->kupdate_at = w->spec->start_ns + WRITEBACK_INTERVAL;
		f->flush_at = UINT64_MAX;
		flusher_wake(s, w, w->spec->start_ns + WRITEBACK_INTERVAL);
		if (w->spec->file.journal)
			return journal_start(s, w, f);
	}
	return 0;
}

static void file_stop(struct sim *s, struct workload *w)
{
	struct file_wl *f = w->priv;

	if (f && f->meta.slot)
		owned_destroy(&f->meta);
	owned_stop(s, w);
}

static uint64_t file_resident(const struct workload *w)
{
	const struct file_wl *f = w->priv;

	return f ? f->o.resident + f->meta.resident : 0;
}

/* Not gone, done, or asleep in balance_dirty_pages. */
static bool file_awake(const struct workload *w)
{
	const struct file_wl *f = w->priv;

	return f && !file_done(w, f) && !f->throttled;
}

/* Its threads: as given, or the CPUs its read rate keeps busy (sim_rate_threads). */
static unsigned file_runnable(const struct sim *s, const struct workload *w)
{
	const struct wl_file *spec = &w->spec->file;

	if (!file_awake(w))
		return 0;
	return spec->threads_given ? spec->threads : sim_rate_threads(s, spec->rate);
}

/* Its address space is on a CPU while it is awake, one at least however little it reads. */
static unsigned file_mm_runnable(const struct sim *s, const struct workload *w, const void *owner)
{
	unsigned threads = file_runnable(s, w);

	return threads ? threads : file_awake(w);
}

static const struct workload_ops file_ops = {
	.start = file_start,
	.stop = file_stop,
	.resident = file_resident,
	.runnable = file_runnable,
	.mm_runnable = file_mm_runnable,
};

/* pattern = random|sequential: into the bool sequential. */
static int parse_pattern(const char *value, void *field, char *err, size_t len)
{
	if (strcmp(value, "random") && strcmp(value, "sequential"))
		return ini_fail(err, len, "pattern = %s: accepted random or sequential", value);
	*(bool *)field = !strcmp(value, "sequential");
	return 1;
}

#define FILE_KEYS \
	{ .name = "file", .type = KEY_SIZE, .offset = WL(file.file_bytes), .max = SIM_MAX_BYTES, .required = true }, \
	{ .name = "rate", .type = KEY_UINT, .offset = WL(file.rate), .max = 100000000, .required = true }, \
	{ .name = "pattern", .type = KEY_CUSTOM, .offset = WL(file.sequential), .parse = parse_pattern }, \
	{ .name = "mapped", .type = KEY_PERCENT, .offset = WL(file.mapped) }, \
	{ .name = "threads", .type = KEY_U32, .offset = WL(file.threads), .max = 4096, .given = WL(file.threads_given) }, \
	{ .name = "passes", .type = KEY_UINT, .offset = WL(file.passes), .max = 1000000 }, \
	{ .name = "pfns", .type = KEY_FILE, .offset = WL(file.pfns), .size = sizeof(((struct wl_file *)0)->pfns) }

static const struct scenario_key pagecache_keys[] = { FILE_KEYS };
static const struct scenario_key writer_keys[] = {
	FILE_KEYS,
	{ .name = "dirty_expire", .type = KEY_DURATION, .offset = WL(file.dirty_expire_ns) },
	{ .name = "journal", .type = KEY_U32, .offset = WL(file.journal), .max = 1u << 20 },
	{ .name = "files", .type = KEY_U32, .offset = WL(file.files), .max = 1u << 24 },
};

static void writer_defaults(struct wl_spec *w)
{
	w->file.dirty_expire_ns = 30000000000ull;	/* dirty_expire_centisecs = 3000 */
}

static int file_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	if (!w->file.file_bytes)
		return ini_fail(err, len, "[%s %s]: file = 0: give the file a size", w->kind->name, w->name);
	if (w->file.journal && !w->file.dirty_expire_ns)
		return ini_fail(err, len, "[%s %s]: journal with dirty_expire = 0: give dirty_expire above 0, when the metadata is written back",
				w->kind->name, w->name);
	if (!w->file.files)
		w->file.files = w->file.journal;	/* a file a metadata page */
	if (w->file.pfns[0])
		return pfns_check(w, w->file.pfns, "file", w->file.file_bytes, err, len);
	return 1;
}

const struct wl_kind wl_kind_pagecache = {
	.name = "pagecache",
	.ops = &file_ops,
	WL_KEYS(pagecache_keys),
	.owned = true,
	.check = file_check,
};

const struct wl_kind wl_kind_writer = {
	.name = "writer",
	.ops = &file_ops,
	WL_KEYS(writer_keys),
	.owned = true,
	.defaults = writer_defaults,
	.check = file_check,
};
