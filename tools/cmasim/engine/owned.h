/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Owned pages: a workload's table from index (file offset or virtual
 * page) to its movable page, and the owner callbacks through which the
 * library migrates, reclaims and writes those pages back.
 */
#ifndef CMASIM_OWNED_H
#define CMASIM_OWNED_H

#include "engine/sim_api.h"

enum {
	OP_EVER		= 1u << 0,	/* was resident once: bringing it back is a refault */
	OP_DIRTY	= 1u << 1,
	OP_WB		= 1u << 2,	/* under writeback, done at wb_done[] */
	OP_SWAPPED	= 1u << 3,	/* anon: reclaim swapped it out; using it is a swap-in */
	OP_READ		= 1u << 4,	/* locked for its read, until the storage ends it */
	OP_HELD		= 1u << 5,	/* its buffers are referenced (a journal's): neither migrates nor goes */
};

/*
 * A page slot, as the mapping's entry at an index: the page, or 0, or a
 * value entry (bit 0 set, xa_is_value) that reclaim left in the page's
 * place: a file page's shadow (cma_workingset_eviction makes it one) or
 * an anonymous page's swap entry (shifted up, as shmem's
 * swp_to_radix_entry). The page's state lies beside it, so that a touch,
 * a fault and a reclaim each find all they use in one cache line.
 */
struct owned_slot {
	uint64_t entry;
	uint32_t dirtied_ms;		/* virtual time the page was dirtied, for writeback */
	uint8_t state;
	uint32_t read_seq : 24;		/* OP_READ: its read's number in the owner's ring, modulo 2^24 */
};
_Static_assert(sizeof(struct owned_slot) == 16, "a page slot stays 16 bytes");

/* A read in flight: slot @idx's @page is locked until @done. */
struct owned_read {
	uint64_t idx;
	uint64_t done;
	const struct cma_page *page;
};

struct owned_pages {
	struct sim *s;
	struct workload *w;
	enum mem_class cls;
	bool anon;
	cma_gfp_t gfp;			/* a fault's allocation: the mapping's gfp mask */
	unsigned mapped;		/* percent of the pages mapped, one PTE each (anon: 100) */
	uint64_t nr;
	struct owned_slot *slot;
	uint64_t *wb_done;		/* OP_WB: when the write in flight completes */
	struct owned_read *rd;		/* OP_READ: the reads in flight, a ring in order of completion */
	size_t rd_head, rd_nr, rd_cap;
	uint64_t rd_seq;		/* the number of the read at rd_head */
	uint64_t resident;
	uint64_t releases;		/* owned_release_all()s: a fault's allocation may OOM-kill us */
	struct cma_swapin_stat swapin;	/* what the last owned_touch read from swap */
	unsigned long *at;		/* where page N first faults in (a pfns file), freed with it; NULL: anywhere */
	uint64_t nr_at;
};

/* Is slot entry @entry a value entry (a shadow or a swap entry), not a page? xa_is_value */
static inline bool owned_is_value(uint64_t entry)
{
	return entry & 1;
}

/* The page resident at @idx, or NULL. */
static inline struct cma_page *owned_page(const struct owned_pages *o, uint64_t idx)
{
	uint64_t entry = o->slot[idx].entry;

	return owned_is_value(entry) ? NULL : (struct cma_page *)(uintptr_t)entry;
}

int owned_init(struct owned_pages *o, struct sim *s, struct workload *w, uint64_t nr, bool anon);
/* Free the table, its pages given back first unless the machine goes too (machine_teardown, untraced). */
void owned_destroy(struct owned_pages *o);
/* The stop of a kind whose state begins with its owned pages (wl_kind.owned): all go. */
void owned_stop(struct sim *s, struct workload *w);
/*
 * Use page @idx: 0 if resident, 1 if it had to be brought in, -ENOMEM;
 * -EAGAIN if a request parked in migrating it holds it (the use waits).
 * The use is reported as the kernel sees it: the young bit of a mapped
 * page (an anonymous one, or a file page in the mmap'ed share), or
 * mark_page_accessed of a page read through read(); a file page brought
 * back after reclaim is a refault (cma_workingset_refault).
 */
int owned_touch(struct owned_pages *o, uint64_t idx);
/*
 * The reads of the last owned_touch's swap-in, of slot @idx, issued to
 * the storage queue at @at (the pages read ahead with it in the same
 * requests) and counted as the workload's swap-ins: when the last
 * completes, or @at if the page was in the swap cache. The page is
 * locked until then (owned_read_until).
 */
uint64_t owned_swapin_read(struct owned_pages *o, uint64_t idx, uint64_t at);
/*
 * Slot @idx's page was faulted in by a read the storage queue completes
 * at @done: until then it is locked (trylock_page fails), as the
 * kernel's page stays from add_to_page_cache_lru or the swap cache to
 * the read's end. An owner's reads complete in the order it issues
 * them, as the storage queue completes its requests: a read given an
 * earlier @done than the one before it ends with that one.
 */
void owned_read_until(struct owned_pages *o, uint64_t idx, uint64_t done);
/* Does the policy keep a copy of non-resident page @idx (gcma)? With @take the copy is used up. */
bool owned_copy_kept(struct owned_pages *o, uint64_t idx, bool take);
/*
 * Does using page @idx read it from storage? A page-cache miss, or an
 * anonymous page reclaim swapped out (a swap-in), unless the policy
 * keeps a copy of it (gcma).
 */
bool owned_reads(struct owned_pages *o, uint64_t idx);
/*
 * The index of a random touch, sim_rand_below(s, @n); with the LRU
 * neighbours of the fourth touch's page after it (if marking it accessed
 * will activate it), the page of the eighth and the slot of the
 * sixteenth (as the next draws would pick them) already on their way,
 * so that a loop of random touches rarely waits for memory.
 */
uint64_t owned_rand_below(struct owned_pages *o, uint64_t n);
/*
 * Write page @idx: use it as owned_touch() does, and dirty it
 * (set_page_dirty, or mark_buffer_dirty of its buffers) before its task
 * may be rescheduled, as the kernel's write holds the page locked from
 * lookup to set_page_dirty. Returns owned_touch()'s value; @*dirtied
 * says whether the page was clean. With @held its buffers stay
 * referenced until owned_unhold(): the page neither migrates nor is
 * reclaimed.
 */
int owned_write(struct owned_pages *o, uint64_t idx, bool held, bool *dirtied);
/* Slot @idx's buffers are let go: its page migrates and reclaims as any other. */
void owned_unhold(struct owned_pages *o, uint64_t idx);
/* Start writing dirty page @idx back (a flusher): true if a write went to the storage queue. */
bool owned_start_write(struct owned_pages *o, uint64_t idx);
/* Give back page @idx if resident (MADV_DONTNEED): 1 if it was, else 0. */
uint64_t owned_release(struct owned_pages *o, uint64_t idx);
/* Give back every resident page (truncate, exit, OOM kill); the pages freed. */
uint64_t owned_release_all(struct owned_pages *o);
/*
 * The pages a process keeps touching once its set is faulted in (its
 * hot = percent): the first @hot percent of @o, at least one; 0: all.
 */
uint64_t owned_hot_pages(const struct owned_pages *o, unsigned hot);
/* The table of a pagecache, writer or anon workload; NULL for other kinds. */
struct owned_pages *owned_of(struct workload *w);

#endif
