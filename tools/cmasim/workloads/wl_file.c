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
 * With pfns, its pages first come in where a device had them (pfns.h).
 *
 * A writer on a journaling file system (journal = N) also dirties the
 * file system's metadata: N pages of the block device's cache whose
 * buffers the journal holds (jbd2's journal heads, from a transaction's
 * start to its checkpoint), read in when it starts. They are allocated
 * movable, as grow_dev_page asks (so they may lie in CMA), and while held
 * neither migrate nor reclaim (owned.h's OP_HELD): cma_alloc's range
 * that holds one is busy. Each journal_hold, the held pages are
 * checkpointed (written home, then clean and cached like any page) and
 * the journal moves on to the next N metadata pages, read in then if not
 * cached. Measured in the oracle (bench/oracle/README.md, "A journaling
 * writer"): ext4 under a writer rewriting its files holds about 12 for
 * its whole life.
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
	struct owned_pages meta;	/* writer: the block device's metadata pages */
	uint64_t meta_taken;		/* writer: metadata pages the journal has taken so far */
	uint64_t meta_released;		/* writer: and let go of (the oldest first) */
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
 * The journal takes metadata page @idx: read in if not cached (sb_bread:
 * the writer waits for it from @t) and dirtied with its buffers held.
 * Returns when the writer has it.
 */
static uint64_t journal_take(struct sim *s, struct file_wl *f, uint64_t idx, uint64_t t)
{
	struct owned_pages *m = &f->meta;
	bool miss = owned_reads(m, idx);
	int ret = owned_touch(m, idx);

	if (ret < 0)
		return t;	/* no memory, or parked in a migration: not held this time */
	if (ret > 0 && miss) {
		t = storage_submit(sim_storage(s), sim_cost(s), t, STORAGE_RAND_READ, sim_page_bytes(s));
		owned_read_until(m, idx, t);
	}
	owned_dirty(m, idx, true);
	return t;
}

/*
 * The first set comes in along the writer's first pass through its file,
 * a page each 1/N of it, as ext4 reads the blocks that map the files it
 * reaches (inode table, bitmaps, directory): where the allocator places
 * them is the layout of that moment.
 */
static uint64_t journal_fill(struct sim *s, struct workload *w, struct file_wl *f, uint64_t t)
{
	uint64_t n = w->spec->file.journal;

	for (; f->meta_taken < n && f->pos * n >= f->meta_taken * f->o.nr; f->meta_taken++)
		t = journal_take(s, f, f->meta_taken, t);
	return t;
}

static void file_tick(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct file_wl *f = w->priv;
	const struct wl_file *spec = &w->spec->file;
	bool writer = w->spec->kind == &wl_kind_writer;
	uint64_t n, room = UINT64_MAX, t = f->busy_until > sim_now(s) ? f->busy_until : sim_now(s);

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
		bool miss = owned_reads(&f->o, idx);
		int ret;

		/* a page it would newly dirty at the limit: it waits for writeback */
		if (writer && !room && !(f->o.slot[idx].state & OP_DIRTY)) {
			f->throttled = true;
			break;
		}
		f->pos++;
		ret = owned_touch(&f->o, idx);
		if (ret > 0 && miss) {
			t = read_miss(s, f, spec->sequential, t);
			owned_read_until(&f->o, idx, t);
		}
		w->res->ops++;
		if (ret >= 0 && writer && owned_dirty(&f->o, idx, false))
			room--;
		if (f->meta.slot)
			t = journal_fill(s, w, f, t);
	}
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
 * under the background threshold; periodically, the expired ones, until
 * a pass through the file finds none left to write.
 */
static void flush(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct file_wl *f = w->priv;
	struct owned_pages *o = &f->o;
	uint64_t now_ms = sim_now(s) / 1000000, expire_ms = w->spec->file.dirty_expire_ns / 1000000;
	uint64_t scanned = 0, background;
	struct dirty_state d;

	if (sim_wl_over(s, w))
		return;
	if (sim_now(s) >= f->kupdate_at) {
		f->kupdate = true;
		f->kupdate_at += WRITEBACK_INTERVAL;
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
		if (background)
			background--;
	}
	if (scanned == o->nr)
		f->kupdate = false;
	sim_schedule(s, sim_now(s) + SIM_TICK_NS, flush, w);
}

/*
 * A checkpoint every journal_hold / N: the page held longest is written
 * home and let go (clean, it migrates and reclaims as any other), and,
 * while the writer writes, the journal takes the next metadata page.
 */
static void journal_turn(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct file_wl *f = w->priv;
	struct owned_pages *m = &f->meta;
	uint64_t n = w->spec->file.journal;

	if (sim_wl_over(s, w))
		return;
	/* from the first pass's end on: until then the first set is coming in */
	if (f->meta_taken >= n && f->meta_released < f->meta_taken) {
		uint64_t oldest = f->meta_released++;

		if (m->slot[oldest].state & OP_HELD) {
			owned_unhold(m, oldest);
			owned_start_write(m, oldest);
		}
		if (!file_done(w, f) && f->meta_taken < m->nr)
			f->busy_until = journal_take(s, f, f->meta_taken++, sim_now(s));
	}
	sim_schedule(s, sim_now(s) + w->spec->file.journal_hold_ns / n, journal_turn, w);
}

/*
 * The metadata pages: the block device's mapping (GFP_USER without
 * __GFP_FS, and __GFP_MOVABLE: 3.x's grow_dev_page, 6.12's sb_bread), as
 * many as the run's checkpoints take.
 */
static int journal_start(struct sim *s, struct workload *w, struct file_wl *f)
{
	const struct wl_file *spec = &w->spec->file;
	uint64_t nr = spec->journal;

	if (spec->journal_hold_ns && sim_end_ns(s) > w->spec->start_ns)
		nr += (sim_end_ns(s) - w->spec->start_ns) / (spec->journal_hold_ns / spec->journal);
	if (owned_init(&f->meta, s, w, nr, false))
		return -ENOMEM;
	f->meta.gfp = (CMA_GFP_USER & ~CMA_GFP_FS) | CMA_GFP_MOVABLE;
	if (spec->journal_hold_ns)
		sim_schedule(s, w->spec->start_ns + spec->journal_hold_ns / spec->journal, journal_turn, w);
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
		f->kupdate_at = w->spec->start_ns + WRITEBACK_INTERVAL;
		sim_schedule(s, w->spec->start_ns + SIM_TICK_NS, flush, w);
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

/* Its threads: as given, or the CPUs its read rate keeps busy (sim_rate_threads). */
static unsigned file_runnable(const struct sim *s, const struct workload *w)
{
	const struct wl_file *spec = &w->spec->file;
	const struct file_wl *f = w->priv;

	/* gone, done, or asleep in balance_dirty_pages */
	if (!f || file_done(w, f) || f->throttled)
		return 0;
	return spec->threads_given ? spec->threads : sim_rate_threads(s, spec->rate);
}

static const struct workload_ops file_ops = {
	.start = file_start,
	.stop = file_stop,
	.resident = file_resident,
	.runnable = file_runnable,
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
	{ .name = "journal_hold", .type = KEY_DURATION, .offset = WL(file.journal_hold_ns) },
};

static void writer_defaults(struct wl_spec *w)
{
	w->file.dirty_expire_ns = 30000000000ull;	/* dirty_expire_centisecs = 3000 */
}

static int file_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	if (!w->file.file_bytes)
		return ini_fail(err, len, "[%s %s]: file = 0: give the file a size", w->kind->name, w->name);
	if (w->file.journal_hold_ns && w->file.journal_hold_ns / (w->file.journal ? w->file.journal : 1) < 1000000)
		return ini_fail(err, len, "[%s %s]: journal_hold = %llu ms for journal = %u pages: give at least 1 ms a page held",
				w->kind->name, w->name, (unsigned long long)(w->file.journal_hold_ns / 1000000), w->file.journal);
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
