// SPDX-License-Identifier: GPL-2.0
/* The storage queue (storage.h); its figures are the [cost] storage_* fields. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/owned.h"
#include "engine/storage.h"

#define BLOCK_BYTES 4096ull	/* the random figures are 4 KiB IOPS */

static uint64_t service_ns(const struct cost_model *m, enum storage_op op, uint64_t bytes)
{
	uint64_t blocks = (bytes + BLOCK_BYTES - 1) / BLOCK_BYTES;

	switch (op) {
	case STORAGE_SEQ_READ:
		return cost_transfer_ns(m->v[COST_STORAGE_READ_MBPS], bytes);
	case STORAGE_SEQ_WRITE:
		return cost_transfer_ns(m->v[COST_STORAGE_WRITE_MBPS], bytes);
	case STORAGE_RAND_READ:
		return (uint64_t)((double)blocks * 1e9 / m->v[COST_STORAGE_RAND_READ_IOPS]);
	case STORAGE_RAND_WRITE:
		return (uint64_t)((double)blocks * 1e9 / m->v[COST_STORAGE_RAND_WRITE_IOPS]);
	}
	return 0;
}

uint64_t storage_submit(struct storage *st, const struct cost_model *m, uint64_t now,
			enum storage_op op, uint64_t bytes)
{
	uint64_t start = st->busy_until > now ? st->busy_until : now;

	st->busy_until = start + service_ns(m, op, bytes);
	return st->busy_until + (uint64_t)(m->v[COST_STORAGE_LAT_US] * 1000.0);
}

uint64_t storage_wait(struct storage *st, uint64_t now, uint64_t done)
{
	uint64_t from = st->waited_to > now ? st->waited_to : now;

	if (done <= from)
		return 0;
	st->waited_to = done;
	st->wait_ns += done - from;
	return done - from;
}

void storage_request_start(struct storage *st, uint64_t now)
{
	st->waited_to = now;
}

/* end_page_writeback for every write due by now, then wait for the next. */
static void complete_writes(struct sim *s, void *arg)
{
	struct storage *st = &s->storage;

	st->armed = false;
	for (; st->nr && st->fifo[st->head].done <= s->now; st->head = (st->head + 1) % st->cap, st->nr--) {
		struct storage_write *io = &st->fifo[st->head];

		owned_end_write(io->o, io->idx, io->page, io->done);
	}
	if (st->nr) {
		sim_schedule_on(s, st->fifo[st->head].done, complete_writes, NULL, 0);
		st->armed = true;
	}
}

static int grow(struct storage *st)
{
	size_t cap = st->cap ? st->cap * 2 : 1024;
	struct storage_write *fifo = malloc(cap * sizeof(*fifo));

	if (!fifo)
		return -ENOMEM;
	for (size_t i = 0; i < st->nr; i++)
		fifo[i] = st->fifo[(st->head + i) % st->cap];
	free(st->fifo);
	st->fifo = fifo;
	st->cap = cap;
	st->head = 0;
	return 0;
}

int storage_track(struct sim *s, struct owned_pages *o, uint64_t idx, struct cma_page *page,
		  uint64_t done)
{
	struct storage *st = &s->storage;

	if (st->nr == st->cap && grow(st))
		return -ENOMEM;
	/* one queue, one latency: completions come in submission order */
	st->fifo[(st->head + st->nr++) % st->cap] = (struct storage_write){ done, o, idx, page };
	if (!st->armed) {
		sim_schedule_on(s, done, complete_writes, NULL, 0);
		st->armed = true;
	}
	return 0;
}

void storage_forget(struct storage *st, const struct owned_pages *o)
{
	size_t kept = 0;

	for (size_t i = 0; i < st->nr; i++) {
		struct storage_write io = st->fifo[(st->head + i) % st->cap];

		if (io.o != o)
			st->fifo[(st->head + kept++) % st->cap] = io;
	}
	st->nr = kept;
}

void storage_destroy(struct storage *st)
{
	free(st->fifo);
	memset(st, 0, sizeof(*st));
}
