// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "owners.h"

static struct owner_slot *slot_of(struct fake_owner *o, uint64_t idx, struct cma_page *page)
{
	if (idx >= o->nr_slots || o->slots[idx].page != page)
		return NULL;
	return &o->slots[idx];
}

static int fake_migrate(void *owner, uint64_t idx, struct cma_page *from, struct cma_page *to)
{
	struct fake_owner *o = owner;
	struct owner_slot *s;
	int ret = -EAGAIN;

	pthread_mutex_lock(&o->lock);
	s = slot_of(o, idx, from);
	if (s && o->refuse_migrate) {
		ret = o->refuse_migrate;
		o->refused++;
	} else if (s) {
		s->page = to;
		o->migrated++;
		ret = 0;
	}
	pthread_mutex_unlock(&o->lock);
	return ret;
}

static int fake_reclaim(void *owner, uint64_t idx, struct cma_page *page)
{
	struct fake_owner *o = owner;
	struct owner_slot *s;
	int ret = -EAGAIN;

	pthread_mutex_lock(&o->lock);
	s = slot_of(o, idx, page);
	if (s && o->refuse_reclaim) {
		ret = o->refuse_reclaim;
	} else if (s) {
		s->page = NULL;
		if (o->anon) {
			s->swapped = true;
			s->swap_entry = cma_page_swap_entry(o->mm, page);
		} else {
			s->dropped = true;
		}
		o->reclaimed++;
		ret = 0;
	}
	pthread_mutex_unlock(&o->lock);
	return ret;
}

static int fake_writeback(void *owner, uint64_t idx, struct cma_page *page)
{
	struct fake_owner *o = owner;

	if (o->fail_writeback)
		return o->fail_writeback;
	__atomic_fetch_add(&o->written_back, 1, __ATOMIC_RELAXED);
	return 0;
}

const struct cma_owner_ops fake_anon_ops = {
	.migrate = fake_migrate, .reclaim = fake_reclaim, .writeback = fake_writeback, .anon = true,
};
const struct cma_owner_ops fake_file_ops = {
	.migrate = fake_migrate, .reclaim = fake_reclaim, .writeback = fake_writeback, .anon = false,
};

uint64_t page_checksum(struct cma_mm *mm, struct cma_page *page)
{
	const uint64_t *w = cma_page_address(mm, page);
	uint64_t h = 0xcbf29ce484222325ull;

	if (!w)
		return 0;
	for (int i = 0; i < 4096 / 8; i++)
		h = (h ^ w[i]) * 0x100000001b3ull;
	return h;
}

static void fill(struct cma_mm *mm, struct cma_page *page, uint64_t seed)
{
	uint64_t *w = cma_page_address(mm, page);

	if (!w)
		return;
	for (int i = 0; i < 4096 / 8; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		w[i] = seed;
	}
}

struct fake_owner *owner_create(struct cma_mm *mm, bool anon, uint64_t nr_slots)
{
	struct fake_owner *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->slots = calloc(nr_slots, sizeof(*o->slots));
	if (!o->slots) {
		free(o);
		return NULL;
	}
	o->mm = mm;
	o->anon = anon;
	o->nr_slots = nr_slots;
	pthread_mutex_init(&o->lock, NULL);
	return o;
}

void owner_release(struct fake_owner *o, uint64_t idx)
{
	struct cma_page *page;

	pthread_mutex_lock(&o->lock);
	page = o->slots[idx].page;
	o->slots[idx].page = NULL;
	o->slots[idx].swapped = o->slots[idx].dropped = false;
	pthread_mutex_unlock(&o->lock);
	if (page)
		cma_free_pages(o->mm, page, 0);
}

bool owner_write(struct fake_owner *o, uint64_t idx, uint64_t seed)
{
	struct cma_page *page;

	pthread_mutex_lock(&o->lock);
	page = o->slots[idx].page;
	if (!page || !cma_page_tryget(o->mm, page)) {
		pthread_mutex_unlock(&o->lock);
		return false;
	}
	fill(o->mm, page, seed);
	o->slots[idx].sum = page_checksum(o->mm, page);
	pthread_mutex_unlock(&o->lock);
	cma_page_put(o->mm, page);
	return true;
}

void owner_set_dirty(struct fake_owner *o, uint64_t idx, bool dirty)
{
	pthread_mutex_lock(&o->lock);
	if (o->slots[idx].page)
		cma_page_set_dirty(o->mm, o->slots[idx].page, dirty);
	pthread_mutex_unlock(&o->lock);
}

long owner_check(struct fake_owner *o)
{
	long n = 0;

	pthread_mutex_lock(&o->lock);
	for (uint64_t i = 0; i < o->nr_slots; i++) {
		if (!o->slots[i].page)
			continue;
		if (page_checksum(o->mm, o->slots[i].page) != o->slots[i].sum) {
			n = -1;
			break;
		}
		n++;
	}
	pthread_mutex_unlock(&o->lock);
	return n;
}

unsigned long owner_resident(struct fake_owner *o)
{
	unsigned long n = 0;

	pthread_mutex_lock(&o->lock);
	for (uint64_t i = 0; i < o->nr_slots; i++)
		n += o->slots[i].page != NULL;
	pthread_mutex_unlock(&o->lock);
	return n;
}

void owner_destroy(struct fake_owner *o)
{
	for (uint64_t i = 0; i < o->nr_slots; i++)
		owner_release(o, i);
	pthread_mutex_destroy(&o->lock);
	free(o->slots);
	free(o);
}

/* ---- owners under threads and under callback fault injection ---- */

/* Slot @idx faulted in at @pfn, or anywhere @gfp allows when @pfn is -1ul. */
static struct cma_page *owner_fault_where(struct fake_owner *o, uint64_t idx, cma_gfp_t gfp,
					  unsigned long pfn, uint64_t seed, const struct cma_owner_ops *ops)
{
	struct cma_page *page;
	bool resident;

	if (idx >= o->nr_slots)
		return NULL;
	pthread_mutex_lock(&o->lock);
	resident = o->slots[idx].page != NULL;
	pthread_mutex_unlock(&o->lock);
	if (resident)
		return NULL;
	if (!ops)
		ops = o->anon ? &fake_anon_ops : &fake_file_ops;
	page = pfn == -1ul ? cma_alloc_movable(o->mm, gfp, 0, ops, o, idx)
			   : cma_alloc_movable_at(o->mm, pfn, 0, ops, o, idx);
	if (!page)
		return NULL;
	/*
	 * A full pagevec may put it on the LRU at once, where another thread
	 * could start migrating it: write the bytes under a reference (the
	 * migration, finding no slot for it yet, lets go soon).
	 */
	while (!cma_page_tryget(o->mm, page))
		sched_yield();
	fill(o->mm, page, seed);
	pthread_mutex_lock(&o->lock);
	o->slots[idx].page = page;
	o->slots[idx].sum = page_checksum(o->mm, page);
	o->slots[idx].swapped = o->slots[idx].dropped = false;
	pthread_mutex_unlock(&o->lock);
	cma_page_put(o->mm, page);
	return page;
}

struct cma_page *owner_fault_ops(struct fake_owner *o, uint64_t idx, cma_gfp_t gfp, uint64_t seed,
				 const struct cma_owner_ops *ops)
{
	return owner_fault_where(o, idx, gfp, -1ul, seed, ops);
}

struct cma_page *owner_fault_at(struct fake_owner *o, uint64_t idx, unsigned long pfn, uint64_t seed)
{
	return owner_fault_where(o, idx, 0, pfn, seed, NULL);
}

uint64_t owner_take_free_range(struct fake_owner *o, unsigned long start, unsigned long nr)
{
	uint64_t idx = 0;

	cma_drain_all_pages(o->mm);
	for (unsigned long pfn = start; pfn < start + nr && idx < o->nr_slots; pfn++)
		if (owner_fault_at(o, idx, pfn, idx * 7919 + 1))
			idx++;
	return idx;
}

struct cma_page *owner_fault(struct fake_owner *o, uint64_t idx, cma_gfp_t gfp, uint64_t seed)
{
	return owner_fault_ops(o, idx, gfp, seed, NULL);
}

void owner_fault_range(struct fake_owner *o, uint64_t first, uint64_t n, cma_gfp_t gfp)
{
	for (uint64_t i = first; i < first + n; i++)
		assert_non_null(owner_fault(o, i, gfp, i * 7919 + 1));
}

bool owner_slot_resident(struct fake_owner *o, uint64_t idx)
{
	bool resident;

	pthread_mutex_lock(&o->lock);
	resident = o->slots[idx].page != NULL;
	pthread_mutex_unlock(&o->lock);
	return resident;
}

struct cma_page *owner_pin(struct fake_owner *o, uint64_t idx)
{
	struct cma_page *page;

	if (idx >= o->nr_slots)
		return NULL;
	pthread_mutex_lock(&o->lock);
	page = o->slots[idx].page;
	if (page && !cma_page_tryget(o->mm, page))
		page = NULL;
	pthread_mutex_unlock(&o->lock);
	return page;
}

/* The countdown; calls and fired are atomic, nth and err are set before the operation. */
static struct {
	unsigned long calls;
	unsigned long calls_of[NR_OWNER_CB];
	unsigned long nth;
	int err;
	bool fired;
} countdown;

void owner_callback_fail_nth(unsigned long nth, int err)
{
	countdown.nth = nth;
	countdown.err = err;
	__atomic_store_n(&countdown.calls, 0, __ATOMIC_SEQ_CST);
	for (int cb = 0; cb < NR_OWNER_CB; cb++)
		__atomic_store_n(&countdown.calls_of[cb], 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&countdown.fired, false, __ATOMIC_SEQ_CST);
}

unsigned long owner_callback_calls(void)
{
	return __atomic_load_n(&countdown.calls, __ATOMIC_SEQ_CST);
}

unsigned long owner_callback_calls_of(enum owner_callback cb)
{
	return __atomic_load_n(&countdown.calls_of[cb], __ATOMIC_SEQ_CST);
}

bool owner_callback_fired(void)
{
	return __atomic_load_n(&countdown.fired, __ATOMIC_SEQ_CST);
}

/* Count a callback of kind @cb; true if it is the one to fail. */
static bool countdown_hit(enum owner_callback cb)
{
	unsigned long n = __atomic_add_fetch(&countdown.calls, 1, __ATOMIC_SEQ_CST);

	__atomic_add_fetch(&countdown.calls_of[cb], 1, __ATOMIC_SEQ_CST);
	if (!countdown.nth || n != countdown.nth)
		return false;
	__atomic_store_n(&countdown.fired, true, __ATOMIC_SEQ_CST);
	return true;
}

static const struct cma_owner_ops *fake_ops_of(void *owner)
{
	return ((struct fake_owner *)owner)->anon ? &fake_anon_ops : &fake_file_ops;
}

static int countdown_migrate(void *owner, uint64_t idx, struct cma_page *from, struct cma_page *to)
{
	if (countdown_hit(OWNER_CB_MIGRATE)) {
		struct fake_owner *o = owner;

		pthread_mutex_lock(&o->lock);
		o->refused++;
		pthread_mutex_unlock(&o->lock);
		return countdown.err;
	}
	return fake_ops_of(owner)->migrate(owner, idx, from, to);
}

static int countdown_reclaim(void *owner, uint64_t idx, struct cma_page *page)
{
	return countdown_hit(OWNER_CB_RECLAIM) ? countdown.err : fake_ops_of(owner)->reclaim(owner, idx, page);
}

static int countdown_writeback(void *owner, uint64_t idx, struct cma_page *page)
{
	return countdown_hit(OWNER_CB_WRITEBACK) ? countdown.err : fake_ops_of(owner)->writeback(owner, idx, page);
}

const struct cma_owner_ops countdown_anon_ops = {
	.migrate = countdown_migrate, .reclaim = countdown_reclaim,
	.writeback = countdown_writeback, .anon = true,
};
const struct cma_owner_ops countdown_file_ops = {
	.migrate = countdown_migrate, .reclaim = countdown_reclaim,
	.writeback = countdown_writeback, .anon = false,
};
