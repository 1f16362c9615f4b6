// SPDX-License-Identifier: GPL-2.0
/*
 * Mobility under stress (issue 3 item 8, issue 7 item 4).
 *
 * 1. random_steps_verify_each: one thread, randomized steps on a 64 MiB
 *    machine with a 16 MiB CMA area and 8 MiB of swap, mixing owners'
 *    faults, releases, writes and dirtying, pins held for a while,
 *    unmovable and reclaimable blocks of orders 0..4, contiguous
 *    allocations from the area and of MOVABLE ranges outside it,
 *    compaction, direct reclaim, kswapd steps, drains, CPU switches and
 *    injected allocation failures. After every step the machine verifies,
 *    no pageblock is left ISOLATE, the area's pageblocks are all CMA and
 *    no watermark is left raised; every 250 steps and at the end every
 *    resident page of every owner still holds its bytes (pages reclaim
 *    swapped out or dropped are gone from the owner and not checked);
 *    at the end, with everything freed, every page is free again.
 * 2. threads_two_areas_kswapd: four threads bound to CPU slots 0..3 fault,
 *    write, release and pin pages of their owners and allocate unmovable
 *    blocks, while two threads allocate from two CMA areas at once (the
 *    default area and a device's) and kswapd runs as a thread. At the end
 *    everything is freed, every checksum holds and the machine verifies.
 * 3. pagevec_same_slot_adders_never_overflow: threads sharing one CPU
 *    slot (as every unbound thread, kswapd included, shares slot 0) add
 *    movable pages to its LRU pagevec; it must never hold more than
 *    PAGEVEC_SIZE pages.
 *
 *   make build/tests/test_mobility_stress && build/tests/test_mobility_stress
 *   make SAN=thread build-thread/tests/test_mobility_stress && build-thread/tests/test_mobility_stress
 * CMA_TEST_SEED=n replays a run. CMA_STRESS_OPS=n (make stress) runs n
 * single-thread steps, verifying every 1000 instead of every step.
 * CMA_THREAD_OPS=n sets the operations of each worker thread.
 * CMA_TEST_FILTER=pattern runs only the matching tests.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "mm/cma.h"
#include "owners.h"

/* ------------------------------------------------------------------ */
/* Blocks the test holds: bytes stamped at allocation, checked at free  */
/* ------------------------------------------------------------------ */

struct block {
	unsigned long pfn;	/* 0 with nr 0: empty */
	unsigned long nr;	/* pages */
	unsigned order;		/* for cma_free_pages; 0 for contiguous ranges */
	uint32_t tag;
};

/* First and last word of each page: the tag and its complement, offset by the page. */
static void stamp(struct cma_mm *mm, const struct block *b)
{
	for (unsigned long i = 0; i < b->nr; i++) {
		uint32_t *w = cma_page_address(mm, cma_pfn_to_page(mm, b->pfn + i));

		w[0] = b->tag + (uint32_t)i;
		w[mm->page_size / 4 - 1] = ~(b->tag + (uint32_t)i);
	}
}

/* The first page whose stamp was overwritten, or -1. */
static long stamp_broken(struct cma_mm *mm, const struct block *b)
{
	for (unsigned long i = 0; i < b->nr; i++) {
		const uint32_t *w = cma_page_address(mm, cma_pfn_to_page(mm, b->pfn + i));

		if (w[0] != b->tag + (uint32_t)i || w[mm->page_size / 4 - 1] != ~(b->tag + (uint32_t)i))
			return (long)i;
	}
	return -1;
}

/*
 * Every resident page of @o holds the bytes its owner last wrote. Like
 * owner_check(), but the message names the slot and the page.
 */
static void check_owner(struct fake_owner *o, int k, unsigned long step)
{
	pthread_mutex_lock(&o->lock);
	for (uint64_t i = 0; i < o->nr_slots; i++) {
		struct cma_page *page = o->slots[i].page;

		if (page && page_checksum(o->mm, page) != o->slots[i].sum) {
			unsigned long pfn = cma_page_to_pfn(o->mm, page);

			pthread_mutex_unlock(&o->lock);
			fail_msg("step %lu: owner %d (%s) slot %llu at pfn %#lx: expected checksum %#llx, found %#llx",
				 step, k, o->anon ? "anon" : "file", (unsigned long long)i, pfn,
				 (unsigned long long)o->slots[i].sum,
				 (unsigned long long)page_checksum(o->mm, page));
		}
	}
	pthread_mutex_unlock(&o->lock);
}

static unsigned long free_pages_drained(struct cma_mm *mm)
{
	lru_add_drain_all(mm);
	cma_drain_all_pages(mm);
	return global_page_state(mm, NR_FREE_PAGES);
}

/* ------------------------------------------------------------------ */
/* 1. one thread, every step verified                                  */
/* ------------------------------------------------------------------ */

#define NR_OWNERS	4	/* anon, file, anon, file */
#define OWNER_SLOTS	5000	/* 20000 slots for 16384 pages: faults run into reclaim */
#define NR_PINS		32
#define NR_KBLOCKS	128	/* unmovable and reclaimable blocks held at once */
#define NR_DMA		6
#define NR_RANGES	3
#define NR_CPUS_1	2
#define CHECK_OWNERS_EVERY 250

/*
 * Steps of a make-test run. This part has one thread, so ThreadSanitizer
 * has nothing to find in it but slows its verify-every-step tenfold: a
 * TSan build runs a tenth of it.
 */
#if defined(__SANITIZE_THREAD__)
#define DEFAULT_STEPS	2000
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DEFAULT_STEPS	2000
#endif
#endif
#ifndef DEFAULT_STEPS
#define DEFAULT_STEPS	20000
#endif

enum op {
	OP_FAULT, OP_BURST, OP_RELEASE, OP_WRITE, OP_DIRTY, OP_PIN, OP_UNPIN, OP_KALLOC, OP_KFREE,
	OP_DMA_ALLOC, OP_DMA_RELEASE, OP_RANGE_ALLOC, OP_RANGE_FREE, OP_COMPACT, OP_RECLAIM,
	OP_KSWAPD, OP_DRAIN, OP_LRU_DRAIN, OP_BIND, OP_INJECT, NR_OPS
};

static const struct {
	const char *name;
	unsigned weight;	/* relative frequency */
} op_table[NR_OPS] = {
	[OP_FAULT] = { "owner_fault", 300 },
	[OP_BURST] = { "owner_fault x 512", 8 },
	[OP_RELEASE] = { "owner_release", 80 },
	[OP_WRITE] = { "owner_write", 100 },
	[OP_DIRTY] = { "owner_set_dirty", 50 },
	[OP_PIN] = { "pin", 30 },
	[OP_UNPIN] = { "unpin", 15 },
	[OP_KALLOC] = { "alloc_pages", 130 },
	[OP_KFREE] = { "free_pages", 110 },
	[OP_DMA_ALLOC] = { "dma_alloc_from_contiguous", 20 },
	[OP_DMA_RELEASE] = { "dma_release_from_contiguous", 16 },
	[OP_RANGE_ALLOC] = { "alloc_contig_range(MOVABLE)", 25 },
	[OP_RANGE_FREE] = { "free_contig_range", 12 },
	[OP_COMPACT] = { "compact_memory", 3 },
	[OP_RECLAIM] = { "try_to_free_pages", 2 },
	[OP_KSWAPD] = { "kswapd_step", 10 },
	[OP_DRAIN] = { "drain_all_pages", 25 },
	[OP_LRU_DRAIN] = { "lru_add_drain_all", 25 },
	[OP_BIND] = { "bind_cpu", 20 },
	[OP_INJECT] = { "fault_inject on/off", 12 },
};

/* The results alloc_contig_range may give here; anything else fails the test. */
static const int range_results[] = { 0, -EINVAL, -EBUSY, -ENOMEM, -EINTR };
#define NR_RANGE_RESULTS (sizeof(range_results) / sizeof(range_results[0]))

enum outcome { OUT_SKIPPED, OUT_OK, OUT_FAILED, NR_OUTCOMES };	/* skipped: nothing to do */

struct pin {
	struct cma_page *page;
	unsigned long until;	/* step at which it is dropped */
};

struct stress {
	struct cma_mm *mm;
	unsigned long area_base, area_count;
	uint64_t rnd;
	unsigned long step;
	struct fake_owner *owners[NR_OWNERS];
	struct pin pins[NR_PINS];
	struct block kblocks[NR_KBLOCKS], dma[NR_DMA], ranges[NR_RANGES];
	bool injecting;
	unsigned long inject_until;
	/* outcomes */
	unsigned long outcomes[NR_OPS][NR_OUTCOMES];
	unsigned long range_rc[NR_RANGE_RESULTS];
	unsigned long injected_steps;
};

static uint64_t rnd(struct stress *s)
{
	return prandom_u64_state(&s->rnd);
}

/* 64 MiB, DMA below 16 MiB, the default area of 16 MiB, 8 MiB of swap. */
#define STRESS_SHAPE .dma_end = 16 * MiB, .pageblock_order = 9, .cmdline = "cma=16M", \
		     .swap = 8 * MiB

/* After a step: what must hold at every instant the test can see. */
static void check_machine(struct stress *s, const char *after)
{
	struct cma_mm *mm = s->mm;
	struct zone *z;
	char why[256];

	if (cma_mm_verify(mm))
		fail_msg("step %lu (%s): cma_mm_verify failed (see above)", s->step, after);
	if (atomic_load(&mm->isolated_pageblocks))
		fail_msg("step %lu (%s): expected no ISOLATE pageblock, found %ld", s->step, after,
			 atomic_load(&mm->isolated_pageblocks));
	for (unsigned long pfn = s->area_base; pfn < s->area_base + s->area_count;
	     pfn += mm->pageblock_nr_pages)
		if (cma_pageblock_migratetype(mm, pfn) != CMA_MIGRATE_CMA)
			fail_msg("step %lu (%s): CMA pageblock at pfn %#lx is now %s", s->step, after, pfn,
				 migratetype_name(cma_pageblock_migratetype(mm, pfn)));
	for_each_zone(mm, z)
		if (z->min_cma_pages)
			fail_msg("step %lu (%s): zone %s min_cma_pages %lu, expected 0", s->step, after,
				 z->name, z->min_cma_pages);
	if (test_check_idle_counters(mm, why, sizeof(why)))
		fail_msg("step %lu (%s): %s", s->step, after, why);
}

static struct fake_owner *pick_owner(struct stress *s, uint64_t *idx)
{
	*idx = rnd(s) % OWNER_SLOTS;
	return s->owners[rnd(s) % NR_OWNERS];
}

static enum outcome result(bool ok)
{
	return ok ? OUT_OK : OUT_FAILED;
}

static enum outcome op_fault(struct stress *s)
{
	uint64_t idx;
	struct fake_owner *o = pick_owner(s, &idx);
	cma_gfp_t gfp = CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN | (rnd(s) % 8 ? 0 : CMA_GFP_NORETRY);

	if (o->slots[idx].page)
		return OUT_SKIPPED;
	return result(owner_fault(o, idx, gfp, rnd(s)));
}

/* Up to 512 faults in a row into one owner: the reclaim they cause is their own. */
static enum outcome op_burst(struct stress *s)
{
	uint64_t idx;
	struct fake_owner *o = pick_owner(s, &idx);
	unsigned long faulted = 0;

	for (unsigned long n = 0; n < OWNER_SLOTS && faulted < 512; n++, idx = (idx + 1) % OWNER_SLOTS)
		if (!o->slots[idx].page) {
			if (!owner_fault(o, idx, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, rnd(s)))
				return OUT_FAILED;
			faulted++;
		}
	return faulted ? OUT_OK : OUT_SKIPPED;
}

static enum outcome op_release(struct stress *s)
{
	uint64_t idx;
	struct fake_owner *o = pick_owner(s, &idx);

	if (!o->slots[idx].page)
		return OUT_SKIPPED;
	owner_release(o, idx);
	return OUT_OK;
}

static enum outcome op_write(struct stress *s)
{
	uint64_t idx;
	struct fake_owner *o = pick_owner(s, &idx);

	if (!o->slots[idx].page)
		return OUT_SKIPPED;
	return result(owner_write(o, idx, rnd(s)));
}

static enum outcome op_dirty(struct stress *s)
{
	uint64_t idx;
	struct fake_owner *o = pick_owner(s, &idx);

	if (!o->slots[idx].page)
		return OUT_SKIPPED;
	owner_set_dirty(o, idx, rnd(s) % 4 != 0);
	return OUT_OK;
}

/* A pin with no migration able to race (one thread): cma_page_get. */
static enum outcome op_pin(struct stress *s)
{
	struct pin *p = &s->pins[rnd(s) % NR_PINS];
	uint64_t idx;
	struct fake_owner *o = pick_owner(s, &idx);

	if (p->page || !o->slots[idx].page)
		return OUT_SKIPPED;
	p->page = o->slots[idx].page;
	cma_page_get(s->mm, p->page);
	p->until = s->step + 1 + rnd(s) % 500;
	return OUT_OK;
}

static enum outcome op_unpin(struct stress *s)
{
	struct pin *p = &s->pins[rnd(s) % NR_PINS];

	if (!p->page)
		return OUT_SKIPPED;
	cma_page_put(s->mm, p->page);
	p->page = NULL;
	return OUT_OK;
}

static void expire_pins(struct stress *s)
{
	for (int i = 0; i < NR_PINS; i++)
		if (s->pins[i].page && s->pins[i].until <= s->step) {
			cma_page_put(s->mm, s->pins[i].page);
			s->pins[i].page = NULL;
		}
}

static const cma_gfp_t kgfps[] = {
	CMA_GFP_KERNEL, CMA_GFP_KERNEL | CMA_GFP_RECLAIMABLE, CMA_GFP_ATOMIC,
	CMA_GFP_KERNEL | CMA_GFP_DMA, CMA_GFP_ATOMIC | CMA_GFP_RECLAIMABLE, CMA_GFP_NOIO,
};

static enum outcome op_kalloc(struct stress *s)
{
	struct block *b = &s->kblocks[rnd(s) % NR_KBLOCKS];
	/* orders 0..4, small ones most often */
	unsigned order = (unsigned)__builtin_ctzll(rnd(s) | (1ull << 4));
	cma_gfp_t gfp = kgfps[rnd(s) % (sizeof(kgfps) / sizeof(kgfps[0]))] | CMA_GFP_NOWARN;
	struct cma_page *page;

	if (b->nr)
		return OUT_SKIPPED;
	page = cma_alloc_pages(s->mm, gfp, order);
	if (!page)
		return OUT_FAILED;
	b->pfn = cma_page_to_pfn(s->mm, page);
	b->nr = 1ul << order;
	b->order = order;
	b->tag = (uint32_t)rnd(s);
	stamp(s->mm, b);
	return OUT_OK;
}

static void block_check(struct stress *s, const struct block *b, const char *what)
{
	long i = stamp_broken(s->mm, b);

	if (i >= 0)
		fail_msg("step %lu: %s at pfn %#lx (%lu pages): page %ld overwritten while held",
			 s->step, what, b->pfn, b->nr, i);
}

static void kfree_block(struct stress *s, struct block *b)
{
	block_check(s, b, "alloc_pages block");
	cma_free_pages(s->mm, cma_pfn_to_page(s->mm, b->pfn), b->order);
	memset(b, 0, sizeof(*b));
}

static enum outcome op_kfree(struct stress *s)
{
	struct block *b = &s->kblocks[rnd(s) % NR_KBLOCKS];

	if (!b->nr)
		return OUT_SKIPPED;
	kfree_block(s, b);
	return OUT_OK;
}

static enum outcome op_dma_alloc(struct stress *s)
{
	struct block *b = &s->dma[rnd(s) % NR_DMA];
	unsigned long count = 1 + rnd(s) % (rnd(s) % 2 ? 64 : 1024);
	unsigned align = (unsigned)(rnd(s) % 10), eff = align > 8 ? 8 : align;
	struct cma_page *page;

	if (b->nr)
		return OUT_SKIPPED;
	page = cma_dma_alloc_from_contiguous(s->mm, NULL, (int)count, align);
	if (!page)
		return OUT_FAILED;
	b->pfn = cma_page_to_pfn(s->mm, page);
	b->nr = count;
	b->tag = (uint32_t)rnd(s);
	if (b->pfn < s->area_base || b->pfn + count > s->area_base + s->area_count ||
	    ((b->pfn - s->area_base) & ((1ul << eff) - 1)))
		fail_msg("step %lu: dma_alloc_from_contiguous(%lu, align %u) gave pfn %#lx: expected an order-%u aligned range inside [%#lx, %#lx)",
			 s->step, count, align, b->pfn, eff, s->area_base, s->area_base + s->area_count);
	stamp(s->mm, b);
	return OUT_OK;
}

static void dma_release_block(struct stress *s, struct block *b)
{
	block_check(s, b, "dma buffer");
	if (!cma_dma_release_from_contiguous(s->mm, NULL, cma_pfn_to_page(s->mm, b->pfn), (int)b->nr))
		fail_msg("step %lu: dma_release_from_contiguous(pfn %#lx, %lu) refused the area's own pages",
			 s->step, b->pfn, b->nr);
	memset(b, 0, sizeof(*b));
}

static enum outcome op_dma_release(struct stress *s)
{
	struct block *b = &s->dma[rnd(s) % NR_DMA];

	if (!b->nr)
		return OUT_SKIPPED;
	dma_release_block(s, b);
	return OUT_OK;
}

/* Every pageblock of the MAX_ORDER-aligned window around [start, end) is MOVABLE. */
static bool window_movable(struct cma_mm *mm, unsigned long start, unsigned long end)
{
	unsigned long unit = max_order_nr_pages(mm);

	for (unsigned long pfn = start & ~(unit - 1); pfn < ((end + unit - 1) & ~(unit - 1));
	     pfn += mm->pageblock_nr_pages)
		if (cma_pageblock_migratetype(mm, pfn) != CMA_MIGRATE_MOVABLE)
			return false;
	return true;
}

/*
 * A MOVABLE range below the area, any alignment. The MAX_ORDER-aligned
 * window around it must be all MOVABLE pageblocks of one zone, otherwise
 * the answer is -EINVAL (with a message): only one such call in eight is
 * made, to count the outcome without drowning the log.
 */
static enum outcome op_range_alloc(struct stress *s)
{
	struct block *b = &s->ranges[rnd(s) % NR_RANGES];
	unsigned long len = 1 + rnd(s) % 1024, start;
	unsigned r;
	int rc;

	if (b->nr)
		return OUT_SKIPPED;
	start = s->mm->base_pfn + rnd(s) % (s->area_base - len - s->mm->base_pfn);
	if (!window_movable(s->mm, start, start + len) && rnd(s) % 8)
		return OUT_SKIPPED;
	rc = cma_alloc_contig_range(s->mm, start, start + len, CMA_MIGRATE_MOVABLE);
	for (r = 0; r < NR_RANGE_RESULTS && range_results[r] != rc; r++)
		;
	if (r == NR_RANGE_RESULTS) {
		fail_msg("step %lu: alloc_contig_range(%#lx, %#lx, MOVABLE): expected 0, -EINVAL, -EBUSY, -ENOMEM or -EINTR, found %d",
			 s->step, start, start + len, rc);
		return OUT_FAILED;
	}
	s->range_rc[r]++;
	if (rc)
		return OUT_FAILED;
	for (unsigned long pfn = start; pfn < start + len; pfn++) {
		struct cma_page *page = cma_pfn_to_page(s->mm, pfn);

		if (!page_test(page, PG_head) || page_order(page) || page_count(page) != 1 ||
		    page_test(page, PG_movable))
			fail_msg("step %lu: alloc_contig_range(%#lx, %#lx) returned pfn %#lx with flags %#x count %d: expected an order-0 page with one reference",
				 s->step, start, start + len, pfn, page_flags(page), page_count(page));
	}
	b->pfn = start;
	b->nr = len;
	b->tag = (uint32_t)rnd(s);
	stamp(s->mm, b);
	return OUT_OK;
}

static void range_free_block(struct stress *s, struct block *b)
{
	block_check(s, b, "contiguous range");
	cma_free_contig_range(s->mm, b->pfn, b->nr);
	memset(b, 0, sizeof(*b));
}

static enum outcome op_range_free(struct stress *s)
{
	struct block *b = &s->ranges[rnd(s) % NR_RANGES];

	if (!b->nr)
		return OUT_SKIPPED;
	range_free_block(s, b);
	return OUT_OK;
}

/* Switch failures of internal allocations on (for a while) or off. */
static enum outcome op_inject(struct stress *s)
{
	struct cma_fault_attr attr = {
		.space = rnd(s) % 64,
		.interval = rnd(s) % 4,
		.times = rnd(s) % 3 ? 0 : 1 + rnd(s) % 20,
		.probability = 1 + (unsigned)(rnd(s) % 30),
		.min_order = rnd(s) % 4 ? 0 : 1 + (unsigned)(rnd(s) % 2),
		.only_migration = rnd(s) % 2,
		.seed = rnd(s) | 1,
	};

	if (s->injecting) {
		cma_fault_inject(s->mm, NULL);
		s->injecting = false;
		return OUT_OK;
	}
	cma_fault_inject(s->mm, &attr);
	s->injecting = true;
	s->inject_until = s->step + 10 + rnd(s) % 300;
	return OUT_OK;
}

static enum outcome run_op(struct stress *s, enum op op)
{
	struct cma_mm *mm = s->mm;

	switch (op) {
	case OP_FAULT:		return op_fault(s);
	case OP_BURST:		return op_burst(s);
	case OP_RELEASE:	return op_release(s);
	case OP_WRITE:		return op_write(s);
	case OP_DIRTY:		return op_dirty(s);
	case OP_PIN:		return op_pin(s);
	case OP_UNPIN:		return op_unpin(s);
	case OP_KALLOC:		return op_kalloc(s);
	case OP_KFREE:		return op_kfree(s);
	case OP_DMA_ALLOC:	return op_dma_alloc(s);
	case OP_DMA_RELEASE:	return op_dma_release(s);
	case OP_RANGE_ALLOC:	return op_range_alloc(s);
	case OP_RANGE_FREE:	return op_range_free(s);
	case OP_COMPACT:	return result(cma_compact_memory(mm) == 0);
	case OP_RECLAIM:	return result(cma_try_to_free_pages(mm, 1 + rnd(s) % 32, CMA_GFP_KERNEL));
	case OP_KSWAPD:		return result(cma_kswapd_step(mm));
	case OP_DRAIN:		cma_drain_all_pages(mm); return OUT_OK;
	case OP_LRU_DRAIN:	lru_add_drain_all(mm); return OUT_OK;
	case OP_BIND:		cma_mm_bind_cpu(mm, (unsigned)(rnd(s) % NR_CPUS_1)); return OUT_OK;
	case OP_INJECT:		return op_inject(s);
	case NR_OPS:		break;
	}
	return OUT_SKIPPED;
}

/* Start under pressure: 60% of the slots resident, three quarters of memory. */
static void prefill(struct stress *s)
{
	for (int k = 0; k < NR_OWNERS; k++)
		for (uint64_t i = 0; i < OWNER_SLOTS; i++)
			if (rnd(s) % 10 < 6 &&
			    !owner_fault(s->owners[k], i, CMA_GFP_HIGHUSER_MOVABLE, rnd(s)))
				fail_msg("prefill: owner %d slot %llu: expected a page, found none", k,
					 (unsigned long long)i);
}

static enum op pick_op(struct stress *s)
{
	unsigned total = 0, sum = 0, r;

	for (int op = 0; op < NR_OPS; op++)
		total += op_table[op].weight;
	r = (unsigned)(rnd(s) % total);
	for (int op = 0; op < NR_OPS; op++) {
		sum += op_table[op].weight;
		if (r < sum)
			return (enum op)op;
	}
	return OP_FAULT;
}

static void release_everything(struct stress *s)
{
	for (int i = 0; i < NR_PINS; i++)
		if (s->pins[i].page) {
			cma_page_put(s->mm, s->pins[i].page);
			s->pins[i].page = NULL;
		}
	for (int i = 0; i < NR_KBLOCKS; i++)
		if (s->kblocks[i].nr)
			kfree_block(s, &s->kblocks[i]);
	for (int i = 0; i < NR_DMA; i++)
		if (s->dma[i].nr)
			dma_release_block(s, &s->dma[i]);
	for (int i = 0; i < NR_RANGES; i++)
		if (s->ranges[i].nr)
			range_free_block(s, &s->ranges[i]);
}

static const char *const shown_counters[] = {
	"pgmigrate_success", "pgmigrate_fail", "compact_stall", "pswpout", "allocstall",
	"pageoutrun", "cma_alloc_success", "cma_alloc_fail",
};

static void print_outcomes(struct stress *s)
{
	unsigned long swapped = 0, dropped = 0, migrated = 0, reclaimed = 0;
	uint64_t v;

	printf("%-30s %9s %9s %9s\n", "operation", "ok", "failed", "skipped");
	for (int op = 0; op < NR_OPS; op++)
		printf("%-30s %9lu %9lu %9lu\n", op_table[op].name, s->outcomes[op][OUT_OK],
		       s->outcomes[op][OUT_FAILED], s->outcomes[op][OUT_SKIPPED]);
	printf("alloc_contig_range(MOVABLE) results:");
	for (unsigned r = 0; r < NR_RANGE_RESULTS; r++)
		printf(" %d x %lu", range_results[r], s->range_rc[r]);
	printf("\nsteps with allocation faults injected: %lu\n", s->injected_steps);
	for (int k = 0; k < NR_OWNERS; k++) {
		struct fake_owner *o = s->owners[k];

		for (uint64_t i = 0; i < o->nr_slots; i++) {
			swapped += o->slots[i].swapped;
			dropped += o->slots[i].dropped;
		}
		migrated += o->migrated;
		reclaimed += o->reclaimed;
	}
	printf("owners: %lu pages migrated, %lu reclaimed; %lu slots swapped out, %lu dropped at the end\n",
	       migrated, reclaimed, swapped, dropped);
	printf("vmstat:");
	for (unsigned i = 0; i < sizeof(shown_counters) / sizeof(shown_counters[0]); i++)
		if (!cma_mm_counter(s->mm, shown_counters[i], &v))
			printf(" %s %llu", shown_counters[i], (unsigned long long)v);
	printf("\n");
}

static void random_steps(unsigned long steps, bool verify_each, uint64_t seed)
{
	struct stress *s = calloc(1, sizeof(*s));
	struct cma *area;
	unsigned long free_before, free_after;
	unsigned long verify_every = verify_each ? 1 : 1000;
	unsigned long owners_every = verify_each ? CHECK_OWNERS_EVERY : 1000;
	struct timespec said = { 0 };

	assert_non_null(s);
	s->mm = test_mm(STRESS_SHAPE, .cpus = NR_CPUS_1);
	s->rnd = seed;
	area = cma_dev_get_cma_area(s->mm, NULL);
	assert_non_null(area);
	s->area_base = cma_area_base_pfn(area);
	s->area_count = cma_area_count(area);
	assert_int_equal(s->area_count, (16 * MiB) >> 12);
	free_before = free_pages_drained(s->mm);
	for (int k = 0; k < NR_OWNERS; k++)
		assert_non_null(s->owners[k] = owner_create(s->mm, k % 2 == 0, OWNER_SLOTS));
	prefill(s);
	check_machine(s, "prefill");

	for (s->step = 1; s->step <= steps; s->step++) {
		enum op op = pick_op(s);

		expire_pins(s);
		if (s->injecting && s->step >= s->inject_until) {
			cma_fault_inject(s->mm, NULL);
			s->injecting = false;
		}
		s->injected_steps += s->injecting;
		s->outcomes[op][run_op(s, op)]++;
		if (s->step % verify_every == 0)
			check_machine(s, op_table[op].name);
		if (s->step % owners_every == 0)
			for (int k = 0; k < NR_OWNERS; k++)
				check_owner(s->owners[k], k, s->step);
		if (test_progress_due(&said))
			printf("random_steps: step %lu of %lu\n", s->step, steps);
	}

	cma_fault_inject(s->mm, NULL);
	check_machine(s, "the last step");
	for (int k = 0; k < NR_OWNERS; k++)
		check_owner(s->owners[k], k, s->step);
	print_outcomes(s);
	release_everything(s);
	for (int k = 0; k < NR_OWNERS; k++)
		owner_destroy(s->owners[k]);
	cma_mm_bind_cpu(s->mm, 0);
	free_after = free_pages_drained(s->mm);
	if (free_after != free_before)
		fail_msg("everything freed: expected %lu free pages as at the start, found %lu",
			 free_before, free_after);
	check_machine(s, "everything freed");
	printf("random_steps: %lu steps, machine verified every %lu, owners every %lu; %lu pages free at both ends\n",
	       steps, verify_every, owners_every, free_after);
	cma_mm_destroy(s->mm);
	free(s);
}

/*
 * Expect: whatever the sequence, every step leaves a machine that
 * verifies, with no ISOLATE pageblock, the area all CMA, no watermark
 * raised, and every resident owner page holding its bytes; freeing
 * everything gives back every page.
 */
static void random_steps_verify_each(void **state)
{
	const char *env = getenv("CMA_STRESS_OPS");
	unsigned long ops = env ? strtoul(env, NULL, 0) : 0;

	random_steps(ops ? ops : DEFAULT_STEPS, !ops, test_seed(__func__));
}

/* ------------------------------------------------------------------ */
/* 2. threads on two areas, kswapd running                             */
/* ------------------------------------------------------------------ */

#define NR_WORKERS	4
#define WORKER_SLOTS	2500	/* per owner, two owners per worker: 20000 slots for 16384 pages */
#define WORKER_BLOCKS	32
#define WORKER_PINS	8
#define CONTIG_HELD	4

struct worker {
	pthread_t thread;
	struct cma_mm *mm;
	pthread_barrier_t *start;
	unsigned cpu;
	unsigned long ops;
	uint64_t rnd;
	struct fake_owner *o[2];	/* anon, file */
	struct cma_page *pins[WORKER_PINS];
	struct block blocks[WORKER_BLOCKS];
	/* outcomes, read after the join */
	unsigned long faults, fault_fail, resident, releases, writes, write_fail, pins_taken, pin_fail;
	unsigned long allocs, alloc_fail, frees, corrupt;
};

struct contig {
	pthread_t thread;
	struct cma_mm *mm;
	struct cma_device *dev;		/* NULL: the default area */
	unsigned long base, count;	/* the area */
	pthread_barrier_t *start;
	unsigned cpu;
	unsigned long ops;
	uint64_t rnd;
	struct block held[CONTIG_HELD];
	unsigned long allocs, alloc_fail, releases, corrupt, misplaced, refused;
};

static void worker_free_block(struct worker *w, struct block *b)
{
	if (stamp_broken(w->mm, b) >= 0 && w->corrupt++ < 5)
		fprintf(stderr, "cpu %u: block at pfn %#lx order %u overwritten while held\n", w->cpu,
			b->pfn, b->order);
	cma_free_pages(w->mm, cma_pfn_to_page(w->mm, b->pfn), b->order);
	memset(b, 0, sizeof(*b));
	w->frees++;
}

static void worker_step(struct worker *w)
{
	uint64_t r = prandom_u64_state(&w->rnd), idx = (r >> 8) % WORKER_SLOTS;
	struct fake_owner *o = w->o[(r >> 20) & 1];
	unsigned what = (unsigned)(r % 100);

	if (what < 40) {
		if (owner_slot_resident(o, idx))
			w->resident++;
		else if (owner_fault_ops(o, idx, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, r, NULL))
			w->faults++;
		else
			w->fault_fail++;
	} else if (what < 46) {
		owner_release(o, idx);
		w->releases++;
	} else if (what < 61) {
		if (owner_write(o, idx, r))
			w->writes++;
		else
			w->write_fail++;
	} else if (what < 71) {
		struct cma_page **pin = &w->pins[(r >> 32) % WORKER_PINS];

		if (*pin) {
			cma_page_put(w->mm, *pin);
			*pin = NULL;
		} else if ((*pin = owner_pin(o, idx))) {
			w->pins_taken++;
		} else {
			w->pin_fail++;
		}
	} else if (what < 97) {
		struct block *b = &w->blocks[(r >> 32) % WORKER_BLOCKS];
		unsigned order = (unsigned)((r >> 40) % 4);
		cma_gfp_t gfp = kgfps[(r >> 44) % (sizeof(kgfps) / sizeof(kgfps[0]))] | CMA_GFP_NOWARN;
		struct cma_page *page;

		if (b->nr) {
			worker_free_block(w, b);
		} else if ((page = cma_alloc_pages(w->mm, gfp, order))) {
			b->pfn = cma_page_to_pfn(w->mm, page);
			b->nr = 1ul << order;
			b->order = order;
			b->tag = (uint32_t)(r >> 16);
			stamp(w->mm, b);
			w->allocs++;
		} else {
			w->alloc_fail++;
		}
	} else if (what < 99) {
		lru_add_drain(w->mm);
	} else {
		cma_drain_all_pages(w->mm);
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	cma_mm_bind_cpu(w->mm, w->cpu);
	pthread_barrier_wait(w->start);
	/* start under pressure: 60% of the slots resident */
	for (uint64_t i = 0; i < WORKER_SLOTS; i++)
		for (int k = 0; k < 2; k++)
			if (prandom_u64_state(&w->rnd) % 10 < 6 &&
			    owner_fault_ops(w->o[k], i, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN,
					    prandom_u64_state(&w->rnd), NULL))
				w->faults++;
	for (unsigned long i = 0; i < w->ops; i++)
		worker_step(w);
	for (int i = 0; i < WORKER_PINS; i++)
		if (w->pins[i]) {
			cma_page_put(w->mm, w->pins[i]);
			w->pins[i] = NULL;
		}
	for (int i = 0; i < WORKER_BLOCKS; i++)
		if (w->blocks[i].nr)
			worker_free_block(w, &w->blocks[i]);
	return NULL;
}

static void contig_release(struct contig *c, struct block *b)
{
	if (stamp_broken(c->mm, b) >= 0 && c->corrupt++ < 5)
		fprintf(stderr, "area at pfn %#lx: buffer at pfn %#lx (%lu pages) overwritten while held\n",
			c->base, b->pfn, b->nr);
	if (!cma_dma_release_from_contiguous(c->mm, c->dev, cma_pfn_to_page(c->mm, b->pfn), (int)b->nr))
		c->refused++;
	memset(b, 0, sizeof(*b));
	c->releases++;
}

static void *contig_main(void *arg)
{
	struct contig *c = arg;

	cma_mm_bind_cpu(c->mm, c->cpu);
	pthread_barrier_wait(c->start);
	for (unsigned long i = 0; i < c->ops; i++) {
		uint64_t r = prandom_u64_state(&c->rnd);
		struct block *b = &c->held[r % CONTIG_HELD];
		unsigned long count = 1 + (r >> 8) % ((r >> 20) % 2 ? 32 : 512);
		struct cma_page *page;

		if (b->nr) {
			contig_release(c, b);
			continue;
		}
		page = cma_dma_alloc_from_contiguous(c->mm, c->dev, (int)count, (unsigned)((r >> 32) % 9));
		if (!page) {
			c->alloc_fail++;
			continue;
		}
		b->pfn = cma_page_to_pfn(c->mm, page);
		b->nr = count;
		b->tag = (uint32_t)(r >> 24);
		if (b->pfn < c->base || b->pfn + count > c->base + c->count)
			c->misplaced++;
		stamp(c->mm, b);
		c->allocs++;
	}
	for (int i = 0; i < CONTIG_HELD; i++)
		if (c->held[i].nr)
			contig_release(c, &c->held[i]);
	return NULL;
}

/*
 * A signal in one of the test's threads would reach cmocka's handler,
 * which jumps back into the test runner from the wrong thread and ends
 * the program with no word of why. While threads run, a crash instead
 * says which test and which signal, and ends the program with status 2.
 */
static char crash_msg[160];
static struct sigaction crash_old[3];
static const int crash_sigs[3] = { SIGSEGV, SIGBUS, SIGABRT };

static void crash_handler(int sig)
{
	char num[4] = { (char)('0' + sig / 10 % 10), (char)('0' + sig % 10), '\n', 0 };

	if (write(2, crash_msg, strlen(crash_msg)) < 0 || write(2, num, 3) < 0)
		_exit(3);
	_exit(2);
}

static void catch_thread_crashes(const char *test)
{
	struct sigaction sa = { .sa_handler = crash_handler };

	snprintf(crash_msg, sizeof(crash_msg), "%s: a thread died of signal ", test);
	fflush(stdout);		/* the seed line, which _exit() would lose */
	for (int i = 0; i < 3; i++)
		sigaction(crash_sigs[i], &sa, &crash_old[i]);
}

static void uncatch_thread_crashes(void)
{
	for (int i = 0; i < 3; i++)
		sigaction(crash_sigs[i], &crash_old[i], NULL);
}

/*
 * Expect: with four CPUs' worth of owners, pins and unmovable blocks,
 * contiguous allocations on two areas at once and kswapd awake, no held
 * block is ever overwritten, every buffer lands in its own area, every
 * owner's resident pages keep their bytes, and once everything is freed
 * the machine verifies with every page free again.
 */
static void threads_two_areas_kswapd(void **state)
{
	const char *env = getenv("CMA_THREAD_OPS");
	unsigned long ops = env ? strtoul(env, NULL, 0) : 20000;
	uint64_t seed = test_seed(__func__);
	struct worker w[NR_WORKERS];
	struct contig c[2];
	struct cma_mm *mm = test_mm_early(STRESS_SHAPE, .cpus = NR_WORKERS);
	struct cma_device *dev = cma_device_create(mm, "camera", ~0ull);
	pthread_barrier_t start;
	unsigned long free_before, free_after;
	char why[256];
	uint64_t v;

	/* a second area, for a device of its own */
	assert_non_null(dev);
	assert_int_equal(cma_dma_declare_contiguous(mm, dev, 8 * MiB, 0, 0), 0);
	assert_int_equal(cma_mm_boot(mm), 0);
	assert_non_null(cma_dev_get_cma_area(mm, dev));
	assert_ptr_not_equal(cma_dev_get_cma_area(mm, dev), cma_dev_get_cma_area(mm, NULL));
	memset(w, 0, sizeof(w));
	memset(c, 0, sizeof(c));
	free_before = free_pages_drained(mm);
	catch_thread_crashes(__func__);
	assert_int_equal(pthread_barrier_init(&start, NULL, NR_WORKERS + 2), 0);
	assert_int_equal(cma_kswapd_start(mm), 0);
	for (unsigned i = 0; i < NR_WORKERS; i++) {
		w[i] = (struct worker){ .mm = mm, .start = &start, .cpu = i, .ops = ops,
					.rnd = prandom_u64_state(&seed) };
		assert_non_null(w[i].o[0] = owner_create(mm, true, WORKER_SLOTS));
		assert_non_null(w[i].o[1] = owner_create(mm, false, WORKER_SLOTS));
		assert_int_equal(pthread_create(&w[i].thread, NULL, worker_main, &w[i]), 0);
	}
	for (unsigned i = 0; i < 2; i++) {
		struct cma *area = cma_dev_get_cma_area(mm, i ? dev : NULL);

		c[i] = (struct contig){ .mm = mm, .dev = i ? dev : NULL, .start = &start,
					.base = cma_area_base_pfn(area), .count = cma_area_count(area),
					.cpu = 2 + i, .ops = ops / 40, .rnd = prandom_u64_state(&seed) };
		assert_int_equal(pthread_create(&c[i].thread, NULL, contig_main, &c[i]), 0);
	}
	for (unsigned i = 0; i < NR_WORKERS; i++)
		test_join_or_fail(mm, w[i].thread, "worker", TEST_JOIN_DEADLINE);
	for (unsigned i = 0; i < 2; i++)
		test_join_or_fail(mm, c[i].thread, "contiguous allocator", TEST_JOIN_DEADLINE);
	cma_kswapd_stop(mm);
	uncatch_thread_crashes();
	pthread_barrier_destroy(&start);

	for (unsigned i = 0; i < NR_WORKERS; i++) {
		printf("cpu %u: %lu faults (%lu failed, %lu on resident slots), %lu releases, %lu writes (%lu missed), %lu pins (%lu missed), %lu allocs (%lu failed), %lu frees\n",
		       w[i].cpu, w[i].faults, w[i].fault_fail, w[i].resident, w[i].releases, w[i].writes,
		       w[i].write_fail, w[i].pins_taken, w[i].pin_fail, w[i].allocs, w[i].alloc_fail,
		       w[i].frees);
		if (w[i].corrupt)
			fail_msg("cpu %u: expected no held block overwritten, found %lu", w[i].cpu,
				 w[i].corrupt);
		check_owner(w[i].o[0], (int)(2 * i), ops);
		check_owner(w[i].o[1], (int)(2 * i + 1), ops);
	}
	for (unsigned i = 0; i < 2; i++) {
		printf("%s area: %lu allocations (%lu failed), %lu releases\n", i ? "camera" : "default",
		       c[i].allocs, c[i].alloc_fail, c[i].releases);
		if (c[i].corrupt || c[i].misplaced || c[i].refused)
			fail_msg("%s area: expected no buffer overwritten, outside its area or refused at release; found %lu, %lu, %lu",
				 i ? "camera" : "default", c[i].corrupt, c[i].misplaced, c[i].refused);
	}
	if (!cma_mm_counter(mm, "pageoutrun", &v))
		printf("kswapd ran %llu balance passes\n", (unsigned long long)v);
	assert_verify(mm);
	if (test_check_idle_counters(mm, why, sizeof(why)))
		fail_msg("all threads done: %s", why);
	for (unsigned i = 0; i < NR_WORKERS; i++) {
		owner_destroy(w[i].o[0]);
		owner_destroy(w[i].o[1]);
	}
	free_after = free_pages_drained(mm);
	if (free_after != free_before)
		fail_msg("everything freed: expected %lu free pages as at the start, found %lu",
			 free_before, free_after);
	assert_int_equal(atomic_load(&mm->isolated_pageblocks), 0);
	assert_verify(mm);
	cma_mm_destroy(mm);
}

/* ------------------------------------------------------------------ */
/* 3. one CPU slot, several threads: the LRU-add pagevec               */
/* ------------------------------------------------------------------ */

#define SAME_SLOT_THREADS	6
#define SAME_SLOT_SECONDS	3

struct same_slot {
	struct cma_mm *mm;
	struct fake_owner *owner;
	pthread_barrier_t start;
	atomic_bool stop;
	atomic_uint max_seen;		/* the largest pagevec count the monitor saw */
	unsigned long adds[SAME_SLOT_THREADS];
};

static struct same_slot *same_slot;

/* cma_alloc_movable (into slot 0's pagevec) and the owner's free, in a loop. */
static void *same_slot_adder(void *arg)
{
	unsigned long *adds = arg;
	struct same_slot *ss = same_slot;

	pthread_barrier_wait(&ss->start);
	while (!atomic_load_explicit(&ss->stop, memory_order_relaxed)) {
		struct cma_page *page = cma_alloc_movable(ss->mm, CMA_GFP_HIGHUSER_MOVABLE, 0,
							  &fake_file_ops, ss->owner, 0);

		if (page) {
			cma_free_pages(ss->mm, page, 0);
			(*adds)++;
		}
	}
	return NULL;
}

/*
 * Expect: threads sharing a CPU slot, as every thread that never calls
 * cma_mm_bind_cpu shares slot 0 (kswapd's included), never find more
 * than PAGEVEC_SIZE pages in its pagevec. A monitor reads the count
 * under the slot lock; an overflow fails the test at once, since the
 * threads that overran the pagevec may never finish.
 */
static void pagevec_same_slot_adders_never_overflow(void **state)
{
	struct cma_bank bank = { 0, 64 * MiB };
	struct cma_mm_config cfg = { .banks = &bank, .nr_banks = 1, .pageblock_order = 9,
				     .nr_cpus = 2 };
	struct same_slot *ss = calloc(1, sizeof(*ss));
	pthread_t th[SAME_SLOT_THREADS];
	struct timespec t0, now;
	unsigned long adds = 0, free_before, free_after;

	assert_non_null(ss);
	ss->mm = test_boot(&cfg);
	ss->owner = owner_create(ss->mm, false, 1);
	free_before = free_pages_drained(ss->mm);
	same_slot = ss;
	catch_thread_crashes(__func__);
	assert_int_equal(pthread_barrier_init(&ss->start, NULL, SAME_SLOT_THREADS + 1), 0);
	for (int i = 0; i < SAME_SLOT_THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, same_slot_adder, &ss->adds[i]), 0);
	pthread_barrier_wait(&ss->start);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		struct cpu_slot *slot = &ss->mm->slots[0];
		unsigned nr;

		spin_lock(&slot->lock);
		nr = slot->lru_add_pvec.nr;
		spin_unlock(&slot->lock);
		if (nr > atomic_load(&ss->max_seen))
			atomic_store(&ss->max_seen, nr);
		if (nr > pagevec_size(ss->mm)) {
			atomic_store(&ss->stop, true);
			fail_msg("cpu 0's pagevec holds %u pages: expected at most the kernel's PAGEVEC_SIZE (%u); lru_cache_add lets a second adder in between the add that fills it and the drain",
				 nr, pagevec_size(ss->mm));
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - t0.tv_sec < SAME_SLOT_SECONDS);
	atomic_store(&ss->stop, true);
	for (int i = 0; i < SAME_SLOT_THREADS; i++) {
		test_join_or_fail(ss->mm, th[i], "pagevec adder", 10);
		adds += ss->adds[i];
	}
	uncatch_thread_crashes();
	printf("%d threads on cpu 0: %lu movable pages added and freed; the pagevec held at most %u\n",
	       SAME_SLOT_THREADS, adds, atomic_load(&ss->max_seen));
	pthread_barrier_destroy(&ss->start);
	/* a page put twice or never would show here */
	free_after = free_pages_drained(ss->mm);
	if (free_after != free_before)
		fail_msg("every page added was freed: expected %lu free pages, found %lu", free_before,
			 free_after);
	assert_verify(ss->mm);
	owner_destroy(ss->owner);
	cma_mm_destroy(ss->mm);
	free(ss);
}

/* CMA_TEST_FILTER=pattern runs only the tests whose names match (cmocka's filter). */
int main(void)
{
	const char *filter = getenv("CMA_TEST_FILTER");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_steps_verify_each),
		cmocka_unit_test(threads_two_areas_kswapd),
		/* last: when it fails, threads stuck in the library are left behind */
		cmocka_unit_test(pagevec_same_slot_adders_never_overflow),
	};

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests_name("mobility_stress", tests, NULL, NULL);
}
