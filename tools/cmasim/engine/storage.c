// SPDX-License-Identifier: GPL-2.0
/* The storage queue (storage.h); its figures are the [cost] storage_* fields. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"
#include "engine/storage.h"
#include "lib/prandom.h"

#define BLOCK_BYTES 4096ull	/* the random figures are 4 KiB IOPS */

/*
 * blk_queue_congestion_threshold() of 3.x for BLKDEV_MAX_RQ (128) requests:
 * congested from nr_requests - nr_requests/8 + 1 queued, clear again below
 * nr_requests - nr_requests/8 - nr_requests/16 - 1.
 */
#define NR_REQUESTS		128
#define CONGESTION_ON		(NR_REQUESTS - NR_REQUESTS / 8 + 1)
#define CONGESTION_OFF		(NR_REQUESTS - NR_REQUESTS / 8 - NR_REQUESTS / 16 - 1)

/*
 * The largest request merging builds: 512 KiB, 3.x's BLK_DEF_MAX_SECTORS
 * (1024 sectors) and sdhci's max_req_size (524288), the eMMC hosts' limit.
 */
#define MAX_SECTORS_BYTES	(1024ull * 512)

/*
 * Flash garbage collection: how long a 1 MiB write stalls beyond the
 * median one, by percentile. fio, 1 MiB O_DIRECT sequential writes one at
 * a time (psync) on a KICKPI K3B's (RK3562) root file system, 4 GiB
 * written: clat p50 19 ms, p90 20, p95 22, p99 28, p99.5 28, p99.9 29,
 * p99.95 32, p99.99 575, max 572 ms (armbian/build pull request 10613,
 * 2026; doc/cost-model.md, "Storage and I/O waits"). Below the median,
 * none: the profile's bandwidth is the medium's typical pace.
 */
static const struct { double pct, ms; } gc_stall[] = {
	{ 0, 0 }, { 50, 0 }, { 90, 1 }, { 95, 3 }, { 99, 9 }, { 99.5, 9 }, { 99.9, 10 },
	{ 99.95, 13 }, { 99.99, 556 }, { 100, 556 },
};

#define MIB_BYTES (1ull << 20)

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

/* The queue's congested bit as the block layer keeps it, told to the library when it flips. */
static void update_congestion(struct storage *st)
{
	bool congested = st->q_nr >= (st->congested ? CONGESTION_OFF : CONGESTION_ON);

	if (congested == st->congested)
		return;
	st->congested = congested;
	cma_mm_set_congested(st->mm, congested);
}

/* Writes completed by @t leave the queue. */
static void dequeue_writes(struct storage *st, uint64_t t)
{
	for (; st->q_nr && st->queued[st->q_head] <= t; st->q_nr--)
		st->q_head = (st->q_head + 1) % st->q_cap;
	update_congestion(st);
}

/* Twice the room of a ring of @cap (0: a first 1024), its @nr elements from @head copied to the start. */
static void *ring_grow(const void *ring, size_t size, size_t head, size_t nr, size_t cap)
{
	char *grown = malloc((cap ? cap * 2 : 1024) * size);

	for (size_t i = 0; grown && i < nr; i++)
		memcpy(grown + i * size, (const char *)ring + (head + i) % cap * size, size);
	return grown;
}

static int grow_queued(struct storage *st)
{
	uint64_t *q = ring_grow(st->queued, sizeof(*q), st->q_head, st->q_nr, st->q_cap);

	if (!q)
		return -ENOMEM;
	free(st->queued);
	st->queued = q;
	st->q_cap = st->q_cap ? st->q_cap * 2 : 1024;
	st->q_head = 0;
	return 0;
}

/* A write queued at @now until @done; one that finds no room is not counted. */
static void enqueue_write(struct storage *st, uint64_t now, uint64_t done)
{
	dequeue_writes(st, now);
	if (st->q_nr == st->q_cap && grow_queued(st))
		return;
	st->queued[(st->q_head + st->q_nr++) % st->q_cap] = done;
	update_congestion(st);
}

static bool is_write(enum storage_op op)
{
	return op == STORAGE_SEQ_WRITE || op == STORAGE_RAND_WRITE;
}

void storage_seed(struct storage *st, uint64_t seed)
{
	/* its own stream: the stalls do not move the workloads' draws */
	st->rng = seed ^ 0x5eed5707a6e0ull;
}

/* The stall at percentile @pct, between the published points. */
static double gc_stall_ms(double pct)
{
	size_t i = 1;

	while (i < sizeof(gc_stall) / sizeof(gc_stall[0]) - 1 && gc_stall[i].pct < pct)
		i++;
	return gc_stall[i - 1].ms + (gc_stall[i].ms - gc_stall[i - 1].ms) *
	       (pct - gc_stall[i - 1].pct) / (gc_stall[i].pct - gc_stall[i - 1].pct);
}

uint64_t storage_gc_draw(struct storage *st)
{
	double pct = (double)(prandom_u64_state(&st->rng) >> 11) * 100.0 / 9007199254740992.0;

	return (uint64_t)(gc_stall_ms(pct) * 1e6);
}

/* The stalls a write of @bytes meets: one draw for each storage_gc_mib MiB the medium has written. */
static uint64_t gc_ns(struct storage *st, const struct cost_model *m, enum storage_op op,
		      uint64_t bytes)
{
	double per = m->v[COST_STORAGE_GC_MIB] * MIB_BYTES;
	uint64_t ns = 0;

	if (!is_write(op) || per <= 0)
		return 0;
	for (st->gc_bytes += bytes; st->gc_bytes >= per; st->gc_bytes -= (uint64_t)per)
		ns += storage_gc_draw(st);
	st->gc_ns += ns;
	return ns;
}

_Static_assert(STORAGE_MAX_DEPTH <= 256 && !(STORAGE_MAX_DEPTH & (STORAGE_MAX_DEPTH - 1)),
	       "slot_tree: a full binary tree of uint8_t slots");

static unsigned node_slot(const struct storage *st, unsigned node)
{
	return node >= STORAGE_MAX_DEPTH ? node - STORAGE_MAX_DEPTH : st->slot_tree[node];
}

/*
 * The round at @node. Every slot on its left is below every slot on its
 * right, so the right one wins only when it is in use and strictly
 * first; the left one always is in use when the right one is.
 */
static void slot_round(struct storage *st, unsigned node)
{
	unsigned a = node_slot(st, 2 * node), b = node_slot(st, 2 * node + 1);

	st->slot_tree[node] = (uint8_t)(b < st->slot_depth && st->slot_done[b] < st->slot_done[a] ? b : a);
}

/* slot_done[@slot] changed: the rounds above it again (none with one slot: 0 wins them all). */
static void slot_update(struct storage *st, unsigned slot)
{
	if (st->slot_depth < 2)
		return;
	for (unsigned node = (STORAGE_MAX_DEPTH + slot) / 2; node; node /= 2)
		slot_round(st, node);
}

/* The command slot free first: a request waits for it on a full queue. */
static unsigned free_slot(struct storage *st, const struct cost_model *m)
{
	unsigned depth = (unsigned)m->v[COST_STORAGE_DEPTH];

	if (depth < 1)
		depth = 1;
	if (depth > STORAGE_MAX_DEPTH)
		depth = STORAGE_MAX_DEPTH;
	if (depth != st->slot_depth) {
		st->slot_depth = depth;
		for (unsigned node = STORAGE_MAX_DEPTH - 1; node; node--)
			slot_round(st, node);
	}
	return st->slot_tree[1];
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

#define SECTOR_SHIFT	9	/* bio_sectors()' unit: 512 bytes */

void storage_count_bio(const struct storage *st, enum storage_op op, uint64_t bytes)
{
	if (st->mm)
		cma_count_vm_events(st->mm, is_write(op) ? CMA_PGPGOUT : CMA_PGPGIN, bytes >> SECTOR_SHIFT);
}

uint64_t storage_submit(struct storage *st, const struct cost_model *m, uint64_t now,
			enum storage_op op, uint64_t bytes)
{
	unsigned slot = free_slot(st, m);
	uint64_t start = max_u64(max_u64(st->busy_until, now), st->slot_done[slot]);
	uint64_t done;

	storage_count_bio(st, op, bytes);
	st->busy_until = start + service_ns(m, op, bytes) + gc_ns(st, m, op, bytes);
	done = st->busy_until + (uint64_t)(m->v[COST_STORAGE_LAT_US] * 1000.0);
	st->slot_done[slot] = done;
	slot_update(st, slot);
	st->last = (struct storage_rq){ op, now, start, bytes, NULL, 0, slot };
	st->requests++;
	if (st->mm && is_write(op))
		enqueue_write(st, now, done);
	return done;
}

/*
 * Whether a write of @bytes to @file at @offset joins the last request
 * (a back merge): that one is a write of the same kind ending there,
 * still queued at @now (or queued at @now, in the submitter's plug), and
 * the two fit in one request.
 */
static bool can_merge(const struct storage *st, uint64_t now, enum storage_op op, uint64_t bytes,
		      const void *file, uint64_t offset)
{
	const struct storage_rq *rq = &st->last;

	return rq->file == file && rq->end == offset && rq->op == op && is_write(op) &&
	       (rq->start > now || rq->submitted == now) && rq->bytes + bytes <= MAX_SECTORS_BYTES;
}

uint64_t storage_submit_at(struct storage *st, const struct cost_model *m, uint64_t now,
			   enum storage_op op, uint64_t bytes, const void *file, uint64_t offset)
{
	uint64_t more, done;

	if (!file || !can_merge(st, now, op, bytes, file, offset)) {
		done = storage_submit(st, m, now, op, bytes);
		st->last.file = file;
		st->last.end = offset + bytes;
		return done;
	}
	storage_count_bio(st, op, bytes);
	more = service_ns(m, op, bytes) + gc_ns(st, m, op, bytes);
	st->busy_until += more;
	st->slot_done[st->last.slot] += more;
	slot_update(st, st->last.slot);
	st->last.bytes += bytes;
	st->last.end += bytes;
	st->merges++;
	/*
	 * The request completes later now; the request counted toward
	 * congestion with it. Departure: the pages merged before keep the
	 * completion they were given (their writeback ends a little early),
	 * where the kernel ends a request's pages together.
	 */
	if (st->mm && st->q_nr)
		st->queued[(st->q_head + st->q_nr - 1) % st->q_cap] = st->slot_done[st->last.slot];
	return st->slot_done[st->last.slot];
}

uint64_t storage_swap_write(struct storage *st, const struct cost_model *m, uint64_t now,
			    uint64_t bytes)
{
	uint64_t at = st->swap_next;

	st->swap_next += bytes;
	/* the swap area stands for itself: the queue's own address marks it */
	return storage_submit_at(st, m, now, STORAGE_SEQ_WRITE, bytes, &st->swap_next, at);
}

uint64_t storage_wait_from(const struct storage *st, uint64_t now)
{
	const struct storage_clock *c = &st->clock[st->cur];

	return c->waited_to > now ? c->waited_to : now;
}

uint64_t storage_wait(struct storage *st, uint64_t now, uint64_t done)
{
	struct storage_clock *c = &st->clock[st->cur];
	uint64_t from = storage_wait_from(st, now);

	if (done <= from)
		return 0;
	c->waited_to = done;
	c->wait_ns += done - from;
	c->waits++;
	return done - from;
}

void storage_request_start(struct sim *s, uint64_t now)
{
	struct storage_clock *c = &s->storage.clock[s->storage.cur];

	c->waited_to = now;
	c->at = now;
	c->cpu_ns = 0;
	c->wait0 = c->wait_ns;
	c->throttle0 = c->throttle_ns;
	c->blocks0 = c->waits + c->sleeps;
	if (s->storage.mm)
		cost_counters_read(s, &c->base);
}

void storage_clock_waits(const struct storage_clock *c, struct cost_work *w)
{
	w->io_wait_ns += c->wait_ns - c->wait0;
	w->throttle_ns += c->throttle_ns - c->throttle0;
	w->blocks += (unsigned)(c->waits + c->sleeps - c->blocks0);
}

/* end_page_writeback for every tracked write due by @t, in order; stops early when the running task is woken. */
static void end_writes_due(struct storage *st, uint64_t t)
{
	while (st->nr && st->fifo[st->head].done <= t && !st->clock[st->cur].woken) {
		struct storage_write io = st->fifo[st->head];

		st->head = (st->head + 1) % st->cap;
		st->nr--;
		io.end_io(io.owner, io.idx, io.page, io.done);
	}
}

/* end_page_writeback for every write due by now, then wait for the next. */
static void complete_writes(struct sim *s, void *arg)
{
	struct storage *st = &s->storage;

	st->armed = false;
	end_writes_due(st, s->now);
	if (st->mm)
		dequeue_writes(st, s->now);
	if (st->nr) {
		sim_schedule_on(s, st->fifo[st->head].done, complete_writes, NULL, 0);
		st->armed = true;
	}
}

static int grow_fifo(struct storage *st)
{
	struct storage_write *fifo = ring_grow(st->fifo, sizeof(*fifo), st->head, st->nr, st->cap);

	if (!fifo)
		return -ENOMEM;
	free(st->fifo);
	st->fifo = fifo;
	st->cap = st->cap ? st->cap * 2 : 1024;
	st->head = 0;
	return 0;
}

int storage_track(struct sim *s, void *owner, uint64_t idx, struct cma_page *page, uint64_t done,
		  storage_end_io_t *end_io)
{
	struct storage *st = &s->storage;

	if (st->nr == st->cap && grow_fifo(st))
		return -ENOMEM;
	/* one queue, one latency: completions come in submission order */
	st->fifo[(st->head + st->nr++) % st->cap] = (struct storage_write){ done, end_io, owner, idx, page };
	if (!st->armed) {
		sim_schedule_on(s, done, complete_writes, NULL, 0);
		st->armed = true;
	}
	return 0;
}

/* The next time the queue changes after @t: a tracked write ending, or any leaving the queue. */
static uint64_t next_completion(const struct storage *st, uint64_t t)
{
	uint64_t next = UINT64_MAX;

	if (st->nr && st->fifo[st->head].done < next)
		next = st->fifo[st->head].done;
	if (st->q_nr && st->queued[st->q_head] < next)
		next = st->queued[st->q_head];
	return next > t ? next : t;
}

/*
 * A sleep on the engine's own thread (a workload's fault, kswapd, a
 * request with no thread of its own): no other event runs meanwhile,
 * so the queue's completions are walked one time at a time until the
 * timeout or a wake; writes ended here are the sleeper's to see, and the
 * engine's own completion event finds them gone. Where it ends.
 */
static uint64_t sleep_walk(struct storage *st, struct storage_clock *c, uint64_t from, uint64_t until)
{
	uint64_t t = from;

	while (!c->woken && (t = next_completion(st, t)) <= until) {
		end_writes_due(st, t);
		dequeue_writes(st, t);
		if (!st->nr && !st->q_nr)
			break;
	}
	return c->woken && t < until ? t : until;
}

/*
 * A request's sleep (task.c): the other tasks run until each next
 * completion of the queue (theirs to end, the writes' end_io on their
 * clock), the queue's own completions end at it, until the timeout or
 * the event that wakes it. Where it ends.
 */
static uint64_t sleep_in_task(struct sim *s, struct storage_clock *c, uint64_t from, uint64_t until)
{
	struct storage *st = &s->storage;
	uint64_t t = from;

	while (!c->woken && t < until) {
		uint64_t next = next_completion(st, t), reached;

		if (next > until)
			next = until;
		reached = sim_task_wait(s, next, &c->woken);
		if (c->woken)
			return reached > from ? reached : from;
		t = next;
		end_writes_due(st, t);
		dequeue_writes(st, t);
	}
	return c->woken && t < until ? t : until;
}

/*
 * schedule_timeout() for the library: from the task's clock (the others
 * first run up to it: its CPU work so far) until the timeout or a wake.
 */
static uint64_t storage_sleep(void *ctx, enum cma_sleep_reason why, uint64_t timeout_us)
{
	struct sim *s = ctx;
	struct storage *st = &s->storage;
	struct storage_clock *c = &st->clock[st->cur];
	uint64_t from = c->waited_to > s->now ? c->waited_to : s->now;
	uint64_t until = from + timeout_us * 1000;

	/* the polled kswapd naps: its pass ends, and it runs again at the timeout */
	if (why == CMA_SLEEP_KSWAPD) {
		if (s->kswapd_woken)
			s->kswapd_woken(s, until);
		return 0;
	}
	sim_task_wait(s, from, NULL);
	c->woken = false;
	c->asleep = true;
	until = s->in_task ? sleep_in_task(s, c, from, until) : sleep_walk(st, c, from, until);
	c->asleep = false;
	c->woken = false;
	c->waited_to = until;
	c->throttle_ns += until - from;
	c->sleeps++;
	return (until - from) / 1000;
}

uint64_t storage_engine_clock(const struct sim *s)
{
	const struct storage_clock *c = &s->storage.clock[0];

	return c->at == s->now && c->waited_to > s->now ? c->waited_to : s->now;
}

/* The price of the running task's work since @c started. */
static uint64_t task_cpu_ns(struct sim *s, const struct storage_clock *c)
{
	struct cost_work w = { 0 };

	cost_work_since(s, &c->base, &w);
	/*
	 * A polled kswapd runs on the engine's thread, at its own event, at
	 * a task's scheduling point (storage_run_apart) or in the pause of a
	 * fault's slow path (kswapd_run_meanwhile): its passes are that
	 * clock's CPU work, as the kernel's kswapd scans for real time while
	 * the device completes the writes it started (a request's clock is
	 * its own work only).
	 */
	if (!s->in_task) {
		w.scanned += w.kswapd_scanned;
		w.reclaim_scanned += w.kswapd_scanned;
	}
	if (s->in_task && s->req.wl) {
		storage_clock_waits(c, &w);
		return sim_contention_price(s, &w);
	}
	return cost_cpu_ns(&s->cost, &w, s->page_bytes);
}

/*
 * cond_resched() for the library: the task's clock moves on by the CPU
 * work priced since the last one, the others run meanwhile (a request
 * in flight: task.c), and the writes due by then end. Each step is the
 * growth of the price of the task's whole work so far, so the steps add
 * up to the price of that work exactly, whatever the rounding of its
 * pieces. On the engine's thread, a scheduling point at a new engine
 * time is a new task's (a workload's fault): its clock starts there; a
 * request's own clock goes on however far the engine's moved. There a
 * woken kswapd may preempt an engine's task (kswapd.c).
 */
static void storage_checkpoint(void *ctx)
{
	struct sim *s = ctx;
	struct storage *st = &s->storage;
	struct storage_clock *c = &st->clock[st->cur];
	uint64_t cpu;

	if (!s->in_task && s->now != c->at)
		storage_request_start(s, s->now);
	cpu = task_cpu_ns(s, c);
	if (cpu <= c->cpu_ns)
		return;
	c->waited_to = (c->waited_to > s->now ? c->waited_to : s->now) + cpu - c->cpu_ns;
	c->cpu_ns = cpu;
	c->woken = false;
	sim_task_wait(s, c->waited_to, NULL);
	end_writes_due(st, c->waited_to);
	dequeue_writes(st, c->waited_to);
	if (!s->in_task && s->preempt)
		s->preempt(s, c->waited_to);
}

void storage_resched(struct sim *s)
{
	if (!s->in_task && s->preempt)
		s->preempt(s, storage_engine_clock(s));
}

void storage_run_apart(struct sim *s, uint64_t t, void (*fn)(struct sim *s), bool preempts)
{
	struct storage_clock *c = &s->storage.clock[s->storage.cur], saved = *c;
	struct cost_counters before, after;
	uint64_t cpu;

	cost_counters_read(s, &before);
	storage_request_start(s, s->now);
	c->waited_to = t;
	fn(s);
	cpu = task_cpu_ns(s, c);
	cost_counters_read(s, &after);
	cost_counters_add_growth(&saved.base, &after, &before);
	if (preempts)
		saved.waited_to = (saved.waited_to > t ? saved.waited_to : t) + cpu;
	*c = saved;
}

/* wake_up(): the tasks asleep on the queue; kswapd's, from the waker's clock. */
static void storage_wake(void *ctx, enum cma_sleep_reason why)
{
	struct sim *s = ctx;
	const struct storage_clock *c = &s->storage.clock[s->storage.cur];

	if (why == CMA_SLEEP_KSWAPD) {
		if (s->kswapd_woken)
			s->kswapd_woken(s, s->in_task ? c->waited_to : storage_engine_clock(s));
		return;
	}
	for (size_t i = 0; i < sizeof(s->storage.clock) / sizeof(s->storage.clock[0]); i++)
		if (s->storage.clock[i].asleep)
			s->storage.clock[i].woken = true;
}

void storage_attach_clock(struct sim *s, struct cma_mm *mm)
{
	static const struct cma_mm_sleep_ops ops = { storage_sleep, storage_wake, storage_checkpoint };

	s->storage.mm = mm;
	cma_mm_set_sleep_ops(mm, &ops, s);
}

void storage_forget(struct storage *st, const void *owner)
{
	size_t kept = 0;

	for (size_t i = 0; i < st->nr; i++) {
		struct storage_write io = st->fifo[(st->head + i) % st->cap];

		if (io.owner != owner)
			st->fifo[(st->head + kept++) % st->cap] = io;
	}
	st->nr = kept;
}

void storage_destroy(struct storage *st)
{
	free(st->fifo);
	free(st->queued);
	memset(st, 0, sizeof(*st));
}
