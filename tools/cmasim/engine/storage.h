/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The board's storage: one queue served in order. A request waits for
 * the ones before it, occupies the device for its service time (its
 * bytes at the sequential bandwidth, or its 4 KiB blocks at the random
 * IOPS) and completes one access latency later, so requests in a row
 * overlap their latencies but not their transfers. Writes that leave
 * pages under writeback (reclaim's pageout and swap-out, the writers'
 * flushers) are remembered until they complete in virtual time; one
 * engine event at a time ends those due.
 *
 * With a clock given to the library (storage_attach_clock), the queue is
 * also the backing device of the kernel's reclaim sleeps: it is congested
 * while as many writes are queued as the kernel's block layer counts
 * congestion from (nr_requests 128: on at 113, off below 103), and a
 * request that sleeps in reclaim or compaction moves its own clock on,
 * ending the writes due meanwhile, until its timeout or the library's
 * wake-up (a write ended, congestion cleared), whichever comes first.
 */
#ifndef CMASIM_STORAGE_H
#define CMASIM_STORAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/cost.h"

struct owned_pages;
struct sim;

enum storage_op { STORAGE_SEQ_READ, STORAGE_RAND_READ, STORAGE_SEQ_WRITE, STORAGE_RAND_WRITE };

/* A write in flight: page @page of @o's slot @idx, done at @done. */
struct storage_write {
	uint64_t done;
	struct owned_pages *o;
	uint64_t idx;
	struct cma_page *page;
};

struct storage {
	uint64_t busy_until;		/* the queue is empty from this time on */
	struct storage_write *fifo;	/* writes in flight, in completion order */
	size_t head, nr, cap;
	bool armed;			/* a completion event is queued */
	uint64_t wait_ns;		/* time migration waited for writes, summed */
	uint64_t waits;			/* how many of those waits took time */
	uint64_t waited_to;		/* the request's clock: it has waited up to here */
	/* the reclaim sleeps' device (storage_attach_clock): every write queued, till it completes */
	struct cma_mm *mm;		/* NULL: no clock, no congestion */
	uint64_t *queued;		/* writes' completion times, in order */
	size_t q_head, q_nr, q_cap;
	bool congested;
	bool woken;			/* the library woke the sleeping request */
	uint64_t throttle_ns;		/* time requests slept in reclaim and compaction, summed */
	uint64_t sleeps;		/* how many sleeps */
};

/* Queue @op of @bytes at @now under @m: the time it completes. */
uint64_t storage_submit(struct storage *st, const struct cost_model *m, uint64_t now,
			enum storage_op op, uint64_t bytes);
/* Remember a write in flight on @o's slot @idx until @done; 0 or -ENOMEM. */
int storage_track(struct sim *s, struct owned_pages *o, uint64_t idx, struct cma_page *page,
		  uint64_t done);
/*
 * Wait at @now for a write that completes at @done, within a request that
 * may already have waited for others: the time this adds (waits are
 * serial, so only what lies beyond the last one counts).
 */
uint64_t storage_wait(struct storage *st, uint64_t now, uint64_t done);
/* A new request starts at @now: its waits count from there. */
void storage_request_start(struct storage *st, uint64_t now);
/* Make @st the backing device of @mm's reclaim sleeps: @mm sleeps on the request's clock. */
void storage_attach_clock(struct sim *s, struct cma_mm *mm);
/* Forget @o's writes (the owner goes away). */
void storage_forget(struct storage *st, const struct owned_pages *o);
void storage_destroy(struct storage *st);

#endif
