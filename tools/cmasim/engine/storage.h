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
 * At each scheduling point the library gives (cond_resched()) the
 * request's clock also moves on by the CPU work the cost model prices
 * from the counters since the last one, ending the writes due meanwhile:
 * the request's clock is its start, its CPU work so far and its waits.
 *
 * The device serves a limited number of commands at once (the profile's
 * storage_depth: an eMMC without a command queue one, a SATA disk's NCQ
 * 32); a request waits for a free one, so on a depth of one the access
 * latencies queue as the transfers do. A write that continues the one
 * before it on the medium (storage_submit_next: the next swap slot of a
 * cluster, the next page of a file written in order) joins that request
 * while it is still queued, up to the queue's max_sectors, as the block
 * layer's merging does: one command, one access latency. Flash media stop
 * for garbage collection: with the profile's storage_gc_mib set, each
 * MiB written draws a stall from a published distribution (storage.c),
 * which the write crossing it adds to its service, so the reads queued
 * behind wait for it too.
 */
#ifndef CMASIM_STORAGE_H
#define CMASIM_STORAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/cost.h"

struct cma_page;
struct sim;

enum storage_op { STORAGE_SEQ_READ, STORAGE_RAND_READ, STORAGE_SEQ_WRITE, STORAGE_RAND_WRITE };

/* The device's command queue: at most this deep (a SATA disk's NCQ tags). */
#define STORAGE_MAX_DEPTH 32

/* The last request queued, which a write continuing it may join. */
struct storage_rq {
	enum storage_op op;
	uint64_t submitted;		/* when it was queued: a plug stays open for that instant */
	uint64_t start;			/* when the device takes it */
	uint64_t bytes;
	const void *file;		/* what it writes (NULL: not a write that may be continued) */
	uint64_t end;			/* and where its last byte ends there */
	unsigned slot;			/* its command slot */
};

/*
 * A tracked write's completion, as a bio's bi_end_io: its owner's, called
 * with what storage_track() was given.
 */
typedef void storage_end_io_t(void *owner, uint64_t idx, struct cma_page *page, uint64_t done);

/* A write in flight: page @page of @owner's slot @idx, done at @done, ended by @end_io. */
struct storage_write {
	uint64_t done;
	storage_end_io_t *end_io;
	void *owner;
	uint64_t idx;
	struct cma_page *page;
};

/*
 * A task's clock: its start, its CPU work priced at its scheduling points
 * (storage_checkpoint) and its waits. A request in flight keeps its own
 * while the events run meanwhile move theirs.
 */
struct storage_clock {
	uint64_t waited_to;		/* it has waited up to here */
	struct cost_counters base;	/* the counters when it started */
	uint64_t at;			/* the engine's time it started at */
	uint64_t cpu_ns;		/* its work priced so far: what its clock moved by for it */
	uint64_t wait_ns;		/* time migration waited for writes, summed */
	uint64_t waits;			/* how many of those waits took time */
	uint64_t throttle_ns;		/* time slept in reclaim and compaction, summed */
	uint64_t sleeps;		/* how many sleeps */
	uint64_t wait0, throttle0, blocks0;	/* wait_ns, throttle_ns and waits + sleeps when it started */
	bool asleep;			/* in a sleep of the library's */
	bool woken;			/* and the library woke it */
};

struct storage {
	uint64_t busy_until;		/* the queue is empty from this time on */
	struct storage_write *fifo;	/* writes in flight, in completion order */
	size_t head, nr, cap;
	bool armed;			/* a completion event is queued */
	/* the reclaim sleeps' device (storage_attach_clock): every write queued, till it completes */
	struct cma_mm *mm;		/* NULL: no clock, no congestion */
	uint64_t *queued;		/* writes' completion times, in order */
	size_t q_head, q_nr, q_cap;
	bool congested;
	/* the tasks' clocks: [0] the engine's events' (a fault, kswapd), [1] a request's in flight (task.c) */
	struct storage_clock clock[2];
	unsigned cur;			/* the running task's */
	/* the device (storage_depth, storage_gc_mib) */
	uint64_t slot_done[STORAGE_MAX_DEPTH];	/* when each command slot is free again */
	/*
	 * A winner tree over slot_done[0, slot_depth): node k (1 to
	 * STORAGE_MAX_DEPTH - 1) holds the slot of its subtree free first,
	 * the lowest of a tie, as a scan of the slots in order finds it;
	 * node STORAGE_MAX_DEPTH + i is slot i. slot_depth 0: not built.
	 */
	uint8_t slot_tree[STORAGE_MAX_DEPTH];
	unsigned slot_depth;
	struct storage_rq last;
	uint64_t rng;			/* the garbage collection's draws (storage_seed) */
	uint64_t gc_bytes;		/* written since the last draw */
	uint64_t swap_next;		/* the next swap slot handed out, in bytes */
	uint64_t requests, merges;	/* requests queued; writes that joined one */
	uint64_t gc_ns;			/* stalls drawn, summed */
};

/* Queue @op of @bytes at @now under @m: the time it completes. */
uint64_t storage_submit(struct storage *st, const struct cost_model *m, uint64_t now,
			enum storage_op op, uint64_t bytes);
/*
 * Queue a write of @bytes at @now to @file at @offset: joined to the last
 * request when that one ends there (storage.h above); the time it completes.
 */
uint64_t storage_submit_at(struct storage *st, const struct cost_model *m, uint64_t now,
			   enum storage_op op, uint64_t bytes, const void *file, uint64_t offset);
/*
 * submit_bio's count of @bytes read or written (pgpgin, pgpgout); every
 * submit counts its own, so a caller counts only a bio that does not go
 * through the queue (a synchronous device's, zram's).
 */
void storage_count_bio(const struct storage *st, enum storage_op op, uint64_t bytes);
/* Swap out @bytes at @now to the next swap slots, handed out in order as a cluster's are. */
uint64_t storage_swap_write(struct storage *st, const struct cost_model *m, uint64_t now,
			    uint64_t bytes);
/* Seed the garbage collection's draws (one seed, one run). */
void storage_seed(struct storage *st, uint64_t seed);
/* One garbage collection stall of the published distribution, in ns. */
uint64_t storage_gc_draw(struct storage *st);
/* Remember a write in flight on @owner's slot @idx until @done, then @end_io it; 0 or -ENOMEM. */
int storage_track(struct sim *s, void *owner, uint64_t idx, struct cma_page *page, uint64_t done,
		  storage_end_io_t *end_io);
/*
 * Wait at @now for a write that completes at @done, within a request that
 * may already have waited for others: the time this adds (waits are
 * serial, so only what lies beyond the last one counts).
 */
uint64_t storage_wait(struct storage *st, uint64_t now, uint64_t done);
/* Where such a request is at @now: past it by the waits it has had. */
uint64_t storage_wait_from(const struct storage *st, uint64_t now);
/*
 * Where the engine's events at this time have moved their clock: past
 * sim_now() by their reclaim's CPU work and sleeps (a fault that
 * reclaims, a polled kswapd), else sim_now().
 */
uint64_t storage_engine_clock(const struct sim *s);
/*
 * An event's task on the engine's thread passes a scheduling point of
 * its own, outside the library (a fault returning to user space): a
 * woken kswapd may preempt it there, as at the library's cond_resched().
 */
void storage_resched(struct sim *s);
/*
 * Run @fn at @t, the running task's scheduling point, as another task
 * on the engine's thread: its clock starts at @t, and its work, sleeps
 * and counters are not the running task's, which goes on from where it
 * was, or, when @fn's task @preempts it (took its CPU), that much later
 * as @fn's CPU work took. @fn's sleeps walk the queue's completions
 * as any sleep on the engine's thread does: the writes they end are
 * over for the preempted task too.
 */
void storage_run_apart(struct sim *s, uint64_t t, void (*fn)(struct sim *s), bool preempts);
/* The running task starts a request at @now: its waits and its CPU work count from there. */
void storage_request_start(struct sim *s, uint64_t now);
/* Add what @c's task waited for writes and slept since it started, and how often, to @w. */
void storage_clock_waits(const struct storage_clock *c, struct cost_work *w);
/*
 * Make @st the backing device of @mm's reclaim sleeps: @mm sleeps on the
 * request's clock, which its CPU work moves too.
 */
void storage_attach_clock(struct sim *s, struct cma_mm *mm);
/* Forget @owner's writes (it goes away). */
void storage_forget(struct storage *st, const void *owner);
void storage_destroy(struct storage *st);

#endif
