/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fake owners of movable pages, for tests: a "process" (anonymous memory,
 * a page table from virtual page number to page) and a "file" (a page
 * cache from file index to page). Each slot carries a checksum of the
 * bytes its page should hold, so that migration that loses data is caught.
 *
 * Locking: each owner has a mutex over its table. Callbacks take it; the
 * owner's own operations take it, and never hold it while calling into
 * the library in a way that could wait for a migration (cma_free_pages).
 */
#ifndef CMA_TESTS_OWNERS_H
#define CMA_TESTS_OWNERS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <cma/cma.h>

struct owner_slot {
	struct cma_page *page;	/* NULL: not resident */
	uint64_t sum;		/* checksum of the page's bytes */
	bool swapped;		/* anon: swapped out by reclaim */
	uint64_t swap_entry;	/* anon: its entry while swapped (cma_page_swap_entry) */
	bool dropped;		/* file: dropped by reclaim (clean, can be re-read) */
};

struct fake_owner {
	struct cma_mm *mm;
	pthread_mutex_t lock;
	bool anon;
	struct owner_slot *slots;
	uint64_t nr_slots;
	/* behaviour switches for fault injection */
	int refuse_migrate;		/* ops->migrate answers this (0: accept) */
	int refuse_reclaim;		/* ops->reclaim answers this */
	int fail_writeback;		/* ops->writeback answers this */
	/* counters */
	unsigned long migrated, reclaimed, written_back, refused;
};

extern const struct cma_owner_ops fake_anon_ops, fake_file_ops;

struct fake_owner *owner_create(struct cma_mm *mm, bool anon, uint64_t nr_slots);
/* Free every resident page and the owner. */
void owner_destroy(struct fake_owner *o);
/* Fault in slot @idx (order 0): allocate, fill with bytes from @seed, record the sum. */
struct cma_page *owner_fault(struct fake_owner *o, uint64_t idx, cma_gfp_t gfp, uint64_t seed);
/* Fault in slots @first .. @first + @n - 1, each from its own seed; a failure fails the test. */
void owner_fault_range(struct fake_owner *o, uint64_t first, uint64_t n, cma_gfp_t gfp);
/* Whether slot @idx has a page, under the owner's lock (migration and reclaim change slots from other threads). */
bool owner_slot_resident(struct fake_owner *o, uint64_t idx);
/* Drop slot @idx (munmap / truncate). */
void owner_release(struct fake_owner *o, uint64_t idx);
/* Rewrite slot @idx's bytes through tryget/put; false if it was frozen or not resident. */
bool owner_write(struct fake_owner *o, uint64_t idx, uint64_t seed);
void owner_set_dirty(struct fake_owner *o, uint64_t idx, bool dirty);
/* Every resident page's bytes still match its checksum: the number checked, or -1. */
long owner_check(struct fake_owner *o);
unsigned long owner_resident(struct fake_owner *o);

uint64_t page_checksum(struct cma_mm *mm, struct cma_page *page);

/* ---- owners under threads and under callback fault injection ---- */

/*
 * owner_fault() with the residency test made under the owner's lock, as a
 * thread must while migration or reclaim may switch the slot, and with the
 * page's ops chosen by the caller (NULL: fake_anon_ops / fake_file_ops).
 */
struct cma_page *owner_fault_ops(struct fake_owner *o, uint64_t idx, cma_gfp_t gfp, uint64_t seed,
				 const struct cma_owner_ops *ops);
/* owner_fault() of the free page at @pfn (cma_alloc_movable_at), with the owner's default ops. */
struct cma_page *owner_fault_at(struct fake_owner *o, uint64_t idx, unsigned long pfn, uint64_t seed);
/*
 * Every free page of [@start, @start + @nr) into @o's slots from 0 on: a
 * range a test needs taken whatever order the profile's allocator fills
 * memory in (3.12-4.7's fair zones, the CMA fallback's end). The slots used.
 */
uint64_t owner_take_free_range(struct fake_owner *o, unsigned long start, unsigned long nr);
/*
 * A pin that may race migration: a tryget on slot @idx's page under the
 * owner's lock, so that the page is the slot's own. NULL when the slot is
 * not resident or its page is frozen. Drop it with cma_page_put().
 */
struct cma_page *owner_pin(struct fake_owner *o, uint64_t idx);

/*
 * Owner callbacks failing on a countdown, for fault sweeps. The countdown
 * ops answer exactly as the fake ops of their kind, except that the @nth
 * callback (migrate, reclaim or writeback of any owner, counted from the
 * last owner_callback_fail_nth() call) answers @err. One countdown per
 * process; nth 0 never fails.
 */
extern const struct cma_owner_ops countdown_anon_ops, countdown_file_ops;
void owner_callback_fail_nth(unsigned long nth, int err);
enum owner_callback { OWNER_CB_MIGRATE, OWNER_CB_RECLAIM, OWNER_CB_WRITEBACK, NR_OWNER_CB };
/*
 * Callbacks made since owner_callback_fail_nth(): all of them, or those of
 * one kind; and whether the failure was given.
 */
unsigned long owner_callback_calls(void);
unsigned long owner_callback_calls_of(enum owner_callback cb);
bool owner_callback_fired(void);

#endif
