// SPDX-License-Identifier: GPL-2.0
/*
 * Page-cache readers and writers. Every tick a reader reads its share of
 * pages; a miss is a read through the storage queue that the reader waits
 * for (a sequential reader's misses come a readahead window at a time),
 * and once its waits fill the tick it reads on in the next. A writer also
 * dirties the pages, and its flusher writes back pages dirty for longer
 * than dirty_expire, no more than the storage writes in an interval (the
 * kernel's dirty_writeback_interval wakeups); they stay under writeback
 * until the storage queue completes them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inifile.h"

#include "owned.h"

extern const struct wl_kind wl_kind_writer;

#define WRITEBACK_INTERVAL	(5 * 1000000000ull)	/* dirty_writeback_centisecs = 500 */
#define READAHEAD_PAGES		32	/* v3.5's VM_MAX_READAHEAD, 128 KiB */

struct file_wl {
	struct owned_pages o;		/* first: owned_of() */
	uint64_t pos;			/* next page of a sequential pass */
	double carry;			/* fraction of a page left from the last tick */
	uint64_t busy_until;		/* waiting for storage until then */
	unsigned ra_left;		/* misses the last readahead window still covers */
};

/* Pages the storage moves in @ns at @mbps. */
static uint64_t storage_pages(const struct sim *s, double mbps, uint64_t ns)
{
	return (uint64_t)(mbps * (double)ns / 1000.0 / (double)s->page_bytes);
}

static void write_page(struct sim *s, struct file_wl *f, uint64_t idx)
{
	struct owned_pages *o = &f->o;

	if (o->state[idx] & OP_DIRTY)
		return;
	cma_page_set_dirty(s->mm, o->page[idx], true);
	o->state[idx] |= OP_DIRTY;
	o->dirtied_ms[idx] = (uint32_t)(s->now / 1000000);
}

/* The miss of page @idx read at @t: when the reader has it. */
static uint64_t read_miss(struct sim *s, struct file_wl *f, bool sequential, uint64_t t)
{
	if (!sequential)
		return storage_submit(&s->storage, &s->cost, t, STORAGE_RAND_READ, s->page_bytes);
	if (f->ra_left) {
		f->ra_left--;	/* came in with the window */
		return t;
	}
	f->ra_left = READAHEAD_PAGES - 1;
	return storage_submit(&s->storage, &s->cost, t, STORAGE_SEQ_READ, READAHEAD_PAGES * s->page_bytes);
}

static void file_tick(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct file_wl *f = w->priv;
	const struct wl_file *spec = &w->spec->file;
	uint64_t n, t = f->busy_until > s->now ? f->busy_until : s->now;

	if (sim_wl_over(s, w))
		return;
	n = sim_tick_ops(&f->carry, spec->rate);
	for (uint64_t i = 0; i < n && t < s->now + SIM_TICK_NS; i++) {
		uint64_t idx = spec->sequential ? f->pos % f->o.nr : sim_rand_below(s, f->o.nr);
		bool miss = owned_reads(&f->o, idx);
		int ret;

		f->pos++;
		ret = owned_touch(&f->o, idx);
		if (ret > 0 && miss)
			t = read_miss(s, f, spec->sequential, t);
		w->res->ops++;
		if (ret >= 0 && w->spec->kind == &wl_kind_writer)
			write_page(s, f, idx);
	}
	f->busy_until = t;
	sim_schedule(s, s->now + SIM_TICK_NS, file_tick, w);
}

static void flush(struct sim *s, void *arg)
{
	struct workload *w = arg;
	struct file_wl *f = w->priv;
	struct owned_pages *o = &f->o;
	uint64_t budget = storage_pages(s, s->cost.v[COST_STORAGE_WRITE_MBPS], WRITEBACK_INTERVAL);
	uint64_t now_ms = s->now / 1000000, expire_ms = w->spec->file.dirty_expire_ns / 1000000;

	if (sim_wl_over(s, w))
		return;
	for (uint64_t i = 0; i < o->nr && budget; i++) {
		if (!(o->state[i] & OP_DIRTY) || o->dirtied_ms[i] + expire_ms > now_ms ||
		    !owned_start_write(o, i))
			continue;
		s->written_back++;
		budget--;
	}
	sim_schedule(s, s->now + WRITEBACK_INTERVAL, flush, w);
}

static int file_start(struct sim *s, struct workload *w)
{
	struct file_wl *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	w->priv = f;
	if (owned_init(&f->o, s, w, sim_pages(s, w->spec->file.file_bytes), false))
		return -ENOMEM;
	f->o.mapped = w->spec->file.mapped;
	sim_schedule(s, w->spec->start_ns, file_tick, w);
	if (w->spec->kind == &wl_kind_writer)
		sim_schedule(s, w->spec->start_ns + WRITEBACK_INTERVAL, flush, w);
	return 0;
}

static void file_stop(struct sim *s, struct workload *w)
{
	struct file_wl *f = w->priv;

	if (!f)
		return;
	owned_destroy(&f->o);
	free(f);
	w->priv = NULL;
	w->stopped = true;
}

static uint64_t file_resident(const struct workload *w)
{
	const struct file_wl *f = w->priv;

	return f ? f->o.resident : 0;
}

/* Its threads: as given, or the CPUs its read rate keeps busy (sim_rate_threads). */
static unsigned file_runnable(const struct sim *s, const struct workload *w)
{
	const struct wl_file *spec = &w->spec->file;

	if (!w->priv)
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
	{ .name = "threads", .type = KEY_U32, .offset = WL(file.threads), .max = 4096, .given = WL(file.threads_given) }

static const struct scenario_key pagecache_keys[] = { FILE_KEYS };
static const struct scenario_key writer_keys[] = {
	FILE_KEYS,
	{ .name = "dirty_expire", .type = KEY_DURATION, .offset = WL(file.dirty_expire_ns) },
};

static void writer_defaults(struct wl_spec *w)
{
	w->file.dirty_expire_ns = 30000000000ull;	/* dirty_expire_centisecs = 3000 */
}

static int file_check(const struct scenario *sc, struct wl_spec *w, char *err, size_t len)
{
	if (!w->file.file_bytes)
		return ini_fail(err, len, "[%s %s]: file = 0: give the file a size", w->kind->name, w->name);
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
