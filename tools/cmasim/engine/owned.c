// SPDX-License-Identifier: GPL-2.0
/*
 * Owned pages and their owner callbacks. The library calls back with the
 * page and the index it was given; a page whose slot no longer holds it
 * (released while a pinner still had it) is refused, as a truncated
 * page's mapping would be gone.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine/owned.h"
#include "engine/sim.h"
#include "util/big_table.h"

static bool ours(struct owned_pages *o, uint64_t idx, struct cma_page *page)
{
	return idx < o->nr && owned_page(o, idx) == page;
}

/* swp_to_radix_entry: swap entry @swap as the value entry its slot holds. */
static uint64_t swp_to_value(uint64_t swap)
{
	return swap << 1 | 1;
}

/* radix_to_swp_entry: the swap entry of slot entry @entry. */
static uint64_t value_to_swp(uint64_t entry)
{
	return entry >> 1;
}

/*
 * A page whose buffers are held (OP_HELD) stays where it is: 6.12's block
 * device pages migrate with buffer_migrate_folio_norefs, which refuses
 * buffers with references; 3.x's had no ->migratepage, and
 * fallback_migrate_page's try_to_release_page fails on buffers a journal
 * holds (ext4's bdev_try_to_free_page).
 */
static int owned_migrate(void *owner, uint64_t idx, struct cma_page *from, struct cma_page *to)
{
	struct owned_pages *o = owner;

	if (!ours(o, idx, from) || (o->slot[idx].state & OP_HELD))
		return -EAGAIN;
	o->slot[idx].entry = (uintptr_t)to;
	return 0;
}

/* The write in flight on slot @idx is over: the page leaves writeback. */
static void end_write(struct owned_pages *o, uint64_t idx)
{
	o->slot[idx].state &= (uint8_t)~OP_WB;
	cma_page_end_writeback(o->s->mm, owned_page(o, idx));
}

/*
 * The page goes (truncate, exit; reclaim leaves value entry @entry in its
 * place): as truncate_inode_pages, a write in flight is waited out first.
 */
static void forget(struct owned_pages *o, uint64_t idx, uint64_t entry)
{
	struct owned_slot *sl = &o->slot[idx];

	if (sl->state & OP_WB)
		end_write(o, idx);
	sl->entry = entry;
	sl->state &= (uint8_t)~(OP_DIRTY | OP_READ | OP_HELD);
	o->resident--;
	o->s->class_pages[o->cls]--;
}

static int owned_reclaim(void *owner, uint64_t idx, struct cma_page *page)
{
	struct owned_pages *o = owner;

	if (!ours(o, idx, page))
		return -EBUSY;
	if (o->s->policy->evicted)
		o->s->policy->evicted(o->s, o, idx, page);
	/* what the page table keeps in place of the page: a file page's shadow, an anon's swap entry */
	forget(o, idx, o->anon ? swp_to_value(cma_page_swap_entry(o->s->mm, page)) :
				 cma_workingset_eviction(o->s->mm, page));
	if (o->anon)
		o->slot[idx].state |= OP_SWAPPED;
	return 0;
}

/* The storage finished the write of @page at @done: end it, if still the one in flight. */
static void write_done(void *owner, uint64_t idx, struct cma_page *page, uint64_t done)
{
	struct owned_pages *o = owner;

	if (ours(o, idx, page) && (o->slot[idx].state & OP_WB) && o->wb_done[idx] == done)
		end_write(o, idx);
}

/* Slot @idx's page is under writeback until the write queued to complete at @done has. */
static int track_write(struct owned_pages *o, uint64_t idx, uint64_t done)
{
	if (storage_track(o->s, o, idx, owned_page(o, idx), done, write_done))
		return -ENOMEM;
	o->slot[idx].state |= OP_WB;
	o->wb_done[idx] = done;
	return 0;
}

/* Queue the write of slot @idx's page, under writeback until it completes. */
static int queue_write(struct owned_pages *o, uint64_t idx, enum storage_op op)
{
	struct sim *s = o->s;
	/* in file order, so that the flusher's pages in a row make one request */
	uint64_t done = storage_submit_at(&s->storage, &s->cost, s->now, op, s->page_bytes,
					  op == STORAGE_SEQ_WRITE ? o : NULL, idx * s->page_bytes);

	return track_write(o, idx, done);
}

/*
 * Reclaim's pageout of a dirty file page (kswapd's: scattered, random
 * writes), or swap_writepage of an anonymous page (swap slots come in
 * clusters: sequential writes, a reclaim pass's in a row merged into
 * requests of up to 512 KiB), left in flight in the storage queue. The
 * page stays in the swap cache under writeback until the write
 * completes: reclaim passes over it meanwhile, MIGRATE_SYNC waits for it
 * (owned_wait_writeback), and a fault finds it still there (the slot
 * keeps the page, as lookup_swap_cache would find it: no read). A
 * synchronous swap device (swap_synchronous: zram, SWP_SYNCHRONOUS_IO)
 * has each write done before swap_writepage returns, at no storage time
 * but its compression's CPU time (zram_store_cycles, on the clock of the
 * task that reclaims), and reclaim frees the page in the same pass.
 */
static int owned_writeback(void *owner, uint64_t idx, struct cma_page *page)
{
	struct owned_pages *o = owner;
	struct sim *s = o->s;
	uint64_t done;

	if (!ours(o, idx, page))
		return -EIO;
	/* the journal's buffers are not the page's to write: it is redirtied */
	if (o->slot[idx].state & OP_HELD)
		return -EBUSY;
	o->slot[idx].state &= (uint8_t)~OP_DIRTY;
	if (o->anon) {
		if (s->sc && s->sc->swap_synchronous) {
			s->zram_stores++;
			storage_count_bio(&s->storage, STORAGE_SEQ_WRITE, s->page_bytes);
			return 0;
		}
		done = storage_swap_write(&s->storage, &s->cost, s->now, s->page_bytes);
		if (track_write(o, idx, done))
			return 0;	/* no room to track it: written at once */
		return -EINPROGRESS;
	}
	if (queue_write(o, idx, STORAGE_RAND_WRITE))
		return 0;	/* no room to track it: written at once */
	return -EINPROGRESS;
}

/* Migration waits for the write: it completes now, the wait is the time left until it would have. */
static uint64_t owned_wait_writeback(void *owner, uint64_t idx, struct cma_page *page)
{
	struct owned_pages *o = owner;

	if (!ours(o, idx, page) || !(o->slot[idx].state & OP_WB))
		return 0;
	end_write(o, idx);
	return storage_wait(&o->s->storage, o->s->now, o->wb_done[idx]);
}

#define READ_SEQ_MASK	((1u << 24) - 1)	/* owned_slot.read_seq */

/*
 * The reads done by the engine's clock leave the ring. A task whose own
 * clock has run ahead (it waited for I/O) sees the reads done by then
 * as done, but they stay in flight for the others until the engine
 * gets there.
 */
static void reads_done(struct owned_pages *o)
{
	for (; o->rd_nr && o->rd[o->rd_head].done <= o->s->now; o->rd_nr--, o->rd_seq++)
		o->rd_head = (o->rd_head + 1) & (o->rd_cap - 1);
}

/*
 * Slot @idx's read still in flight at @t, or NULL. The slot's number
 * finds its read in the ring; one that has left it (or whose number
 * came round again for another read) has ended, and the page is
 * unlocked here, where its slot is at hand.
 */
static const struct owned_read *read_in_flight(struct owned_pages *o, uint64_t idx, uint64_t t)
{
	struct owned_slot *sl = &o->slot[idx];
	size_t pos;

	if (!(sl->state & OP_READ))
		return NULL;
	reads_done(o);
	pos = (sl->read_seq - o->rd_seq) & READ_SEQ_MASK;
	if (pos < o->rd_nr) {
		const struct owned_read *r = &o->rd[(o->rd_head + pos) & (o->rd_cap - 1)];

		if (r->idx == idx && r->page == owned_page(o, idx))
			return r->done > t ? r : NULL;
	}
	sl->state &= (uint8_t)~OP_READ;
	return NULL;
}

/* trylock_page fails while the read that brought the page in is in flight (on the task's clock). */
static bool owned_locked(void *owner, uint64_t idx, const struct cma_page *page)
{
	struct owned_pages *o = owner;

	return idx < o->nr && owned_page(o, idx) == page &&
	       read_in_flight(o, idx, storage_wait_from(&o->s->storage, o->s->now));
}

/* Reclaim asks about slot @idx's page soon: its slot loads meanwhile. */
static void owned_prefetch(void *owner, uint64_t idx, const struct cma_page *page)
{
	struct owned_pages *o = owner;

	if (idx < o->nr)
		__builtin_prefetch(&o->slot[idx]);
}

/* lock_page: the read completes now, the wait is the time left until it would have. */
static uint64_t owned_wait_locked(void *owner, uint64_t idx, struct cma_page *page)
{
	struct owned_pages *o = owner;
	struct storage *st = &o->s->storage;
	const struct owned_read *r;

	if (!ours(o, idx, page) || !(r = read_in_flight(o, idx, storage_wait_from(st, o->s->now))))
		return 0;
	o->slot[idx].state &= (uint8_t)~OP_READ;
	return storage_wait(st, o->s->now, r->done);
}

/* The ring's size is a power of two: its positions wrap with a mask. */
static int grow_reads(struct owned_pages *o)
{
	size_t cap = o->rd_cap ? o->rd_cap * 2 : 64;
	struct owned_read *rd = malloc(cap * sizeof(*rd));

	if (!rd)
		return -ENOMEM;
	for (size_t i = 0; i < o->rd_nr; i++)
		rd[i] = o->rd[(o->rd_head + i) & (o->rd_cap - 1)];
	free(o->rd);
	o->rd = rd;
	o->rd_cap = cap;
	o->rd_head = 0;
	return 0;
}

void owned_read_until(struct owned_pages *o, uint64_t idx, uint64_t done)
{
	struct cma_page *page = owned_page(o, idx);
	struct owned_slot *sl = &o->slot[idx];

	reads_done(o);
	if (!page || done <= o->s->now || (sl->state & OP_WB))
		return;
	if (o->rd_nr && o->rd[(o->rd_head + o->rd_nr - 1) & (o->rd_cap - 1)].done > done)
		done = o->rd[(o->rd_head + o->rd_nr - 1) & (o->rd_cap - 1)].done;
	if (o->rd_nr == o->rd_cap && grow_reads(o))
		return;		/* no room to track it: read at once */
	o->rd[(o->rd_head + o->rd_nr) & (o->rd_cap - 1)] = (struct owned_read){ idx, done, page };
	sl->read_seq = (o->rd_seq + o->rd_nr) & READ_SEQ_MASK;
	o->rd_nr++;
	sl->state |= OP_READ;
}

/*
 * page_mapcount: an anonymous page is mapped once, by its process; of a
 * file, the first @mapped pages of every hundred, as if those ranges
 * were mmap'ed by a reader, the rest read through read().
 */
static unsigned owned_mapcount(void *owner, uint64_t idx, const struct cma_page *page)
{
	struct owned_pages *o = owner;

	/* all or none (anonymous memory, a file only read()): no division on every touch */
	if (!o->mapped || o->mapped >= 100)
		return o->mapped != 0;
	return idx % 100 < o->mapped;
}

/* mm_cpumask: the other CPUs the owner's process runs on now, none while it sleeps. */
static unsigned owned_mm_cpus(void *owner)
{
	struct owned_pages *o = owner;

	return sim_mm_cpus(o->s, o->w, o);
}

static const struct cma_owner_ops file_ops = {
	.migrate = owned_migrate, .reclaim = owned_reclaim, .writeback = owned_writeback,
	.mapcount = owned_mapcount, .mm_cpus = owned_mm_cpus,
	.wait_writeback = owned_wait_writeback,
	.locked = owned_locked, .wait_locked = owned_wait_locked, .prefetch = owned_prefetch,
};

static const struct cma_owner_ops anon_ops = {
	.migrate = owned_migrate, .reclaim = owned_reclaim, .writeback = owned_writeback,
	.wait_writeback = owned_wait_writeback, .anon = true, .mapcount = owned_mapcount,
	.mm_cpus = owned_mm_cpus,
	.locked = owned_locked, .wait_locked = owned_wait_locked, .prefetch = owned_prefetch,
};

void owned_unhold(struct owned_pages *o, uint64_t idx)
{
	o->slot[idx].state &= (uint8_t)~OP_HELD;
}

bool owned_start_write(struct owned_pages *o, uint64_t idx)
{
	struct cma_page *page = owned_page(o, idx);

	if (!page || !cma_page_start_writeback(o->s->mm, page))
		return false;
	o->slot[idx].state &= (uint8_t)~OP_DIRTY;
	if (queue_write(o, idx, STORAGE_SEQ_WRITE))
		end_write(o, idx);
	return true;
}

bool owned_reads(struct owned_pages *o, uint64_t idx)
{
	return !owned_page(o, idx) && (!o->anon || (o->slot[idx].state & OP_SWAPPED)) &&
	       !owned_copy_kept(o, idx, false);
}

/*
 * A slot is fetched OWNED_AHEAD touches before its page, the page
 * OWNED_AHEAD touches before its own: a touch that faults runs reclaim,
 * and a shorter lead leaves the next touches' lines (and their page
 * walks) still on their way when it returns. Half-way, with the page
 * in, a page read through the cache has what marking it accessed will
 * write asked for too (its LRU neighbours, if that activates it). A
 * look ahead begun afresh (another draw came between) asks for all its
 * slots at once, not one a touch.
 */
#define OWNED_AHEAD	(SIM_MAX_PEEK / 2)

uint64_t owned_rand_below(struct owned_pages *o, uint64_t n)
{
	uint64_t idx = sim_rand_below(o->s, n);
	bool fresh = !sim_rand_peeked(o->s, n);
	const uint64_t *ahead = sim_rand_peek_below(o->s, n, SIM_MAX_PEEK);
	uint64_t soon_idx = ahead[OWNED_AHEAD / 2 - 1];
	struct cma_page *next, *soon;

	for (unsigned i = fresh ? 0 : SIM_MAX_PEEK - 1; i < SIM_MAX_PEEK; i++)
		__builtin_prefetch(&o->slot[ahead[i]]);
	next = owned_page(o, ahead[OWNED_AHEAD - 1]);
	soon = owned_page(o, soon_idx);
	if (next)
		__builtin_prefetch(next);
	if (soon && !owned_mapcount(o, soon_idx, soon))
		cma_page_prefetch_accessed(o->s->mm, soon);
	return idx;
}

int owned_init(struct owned_pages *o, struct sim *s, struct workload *w, uint64_t nr, bool anon)
{
	o->s = s;
	o->w = w;
	o->anon = anon;
	o->mapped = anon ? 100 : 0;
	o->cls = anon ? MC_ANON : MC_PAGECACHE;
	o->gfp = CMA_GFP_HIGHUSER_MOVABLE;
	o->nr = nr;
	o->resident = 0;
	o->releases = 0;
	o->at = NULL;
	o->nr_at = 0;
	o->rd = NULL;
	o->rd_head = o->rd_nr = o->rd_cap = 0;
	o->rd_seq = 0;
	o->slot = big_table_alloc(nr, sizeof(*o->slot));
	/* written before it is read (OP_WB says so), and only by writers and pageout: left to fault in */
	o->wb_done = calloc(nr ? nr : 1, sizeof(*o->wb_done));
	return o->slot && o->wb_done ? 0 : -ENOMEM;
}

/* The access as the kernel learns of it: the PTE's young bit, or mark_page_accessed. */
static void report_access(struct owned_pages *o, uint64_t idx, struct cma_page *page)
{
	if (owned_mapcount(o, idx, page))
		cma_page_mkyoung(o->s->mm, page);
	else
		cma_mark_page_accessed(o->s->mm, page);
}

/*
 * do_swap_page: the page comes back from the swap cache or from storage
 * with the slots read ahead around it (o->swapin says what was read);
 * swap @entry, the slot's, is used up. A page the policy kept a copy of
 * (gcma's frontswap) is a fresh page instead, and the entry is let go.
 */
static struct cma_page *swap_in(struct owned_pages *o, uint64_t idx, uint64_t entry, int *ret)
{
	struct cma_mm *mm = o->s->mm;
	struct cma_page *page = NULL;

	*ret = 0;
	if (owned_copy_kept(o, idx, false)) {
		page = cma_alloc_movable(mm, CMA_GFP_HIGHUSER_MOVABLE, 0, &anon_ops, o, idx);
		if (page) {
			cma_swap_free(mm, entry, 1);
			/* frontswap's load is do_swap_page's read: a major fault */
			cma_count_vm_events(mm, CMA_PGMAJFAULT, 1);
		}
		return page;
	}
	/*
	 * -EAGAIN: reclaim has the cached page this instant, and the fault
	 * retries; a request parked in migrating it (task.c) keeps it until
	 * it runs again, so the fault waits for it (lock_page): not now.
	 */
	do {
		*ret = cma_swapin(mm, entry, CMA_GFP_HIGHUSER_MOVABLE, &anon_ops, o, idx, &page, &o->swapin);
	} while (*ret == -EAGAIN && !sim_task_parked(o->s));
	return page;
}

/*
 * A page's first fault: at the page frame it had on the device it was
 * recorded on (o->at), if that frame is free now, else where the
 * allocator chooses.
 */
static struct cma_page *fault_in(struct owned_pages *o, uint64_t idx, uint8_t state)
{
	const struct cma_owner_ops *ops = o->anon ? &anon_ops : &file_ops;
	struct cma_page *page = NULL;

	if (idx < o->nr_at && !(state & OP_EVER))
		page = cma_alloc_movable_at(o->s->mm, o->at[idx], 0, ops, o, idx);
	return page ? page : cma_alloc_movable(o->s->mm, o->gfp, 0, ops, o, idx);
}

/*
 * handle_mm_fault's count, for a page the process maps; a file page's is
 * a major fault too (filemap_fault reads every page not cached). A
 * swap-in's major fault is counted where it reads: cma_swapin(), or
 * swap_in() for a copy the policy kept.
 */
static void count_fault(struct owned_pages *o)
{
	cma_count_vm_events(o->s->mm, CMA_PGFAULT, 1);
	if (!o->anon)
		cma_count_vm_events(o->s->mm, CMA_PGMAJFAULT, 1);
}

static int touch(struct owned_pages *o, uint64_t idx)
{
	struct sim *s = o->s;
	struct owned_slot *sl = &o->slot[idx];
	uint64_t entry = sl->entry, releases = o->releases;
	uint8_t state = sl->state;
	struct cma_page *page;
	int ret = 0;

	o->swapin = (struct cma_swapin_stat){ 0 };
	if (entry && !owned_is_value(entry)) {
		report_access(o, idx, (struct cma_page *)(uintptr_t)entry);
		return 0;
	}
	if (o->anon || owned_mapcount(o, idx, NULL))
		count_fault(o);
	if (o->anon && (state & OP_SWAPPED))
		page = swap_in(o, idx, value_to_swp(entry), &ret);
	else
		page = fault_in(o, idx, state);
	if (ret == -EAGAIN)
		return ret;
	if (!page) {
		o->w->res->alloc_failures++;
		return -ENOMEM;
	}
	/*
	 * The slot was read before allocating: the allocation's reclaim walks
	 * enough memory to evict it from the cache, and no callback changes
	 * the slot of a page not resident. Only an OOM kill of the faulting
	 * process, by its own allocation, empties the table: read it again.
	 */
	if (o->releases != releases) {
		entry = sl->entry;
		state = sl->state;
	}
	sl->entry = (uintptr_t)page;
	o->resident++;
	s->class_pages[o->cls]++;
	/* add_to_page_cache_lru: a shadow left by reclaim makes the read a refault */
	if (!o->anon && entry)
		cma_workingset_refault(s->mm, page, entry);
	report_access(o, idx, page);
	state &= (uint8_t)~OP_SWAPPED;
	/* the policy's copy (gcma) serves it: neither a storage read nor a swap-in */
	if ((state & OP_EVER) && owned_copy_kept(o, idx, true)) {
		sl->state = state;
		return 1;
	}
	o->w->res->misses++;
	if (!o->anon && (state & OP_EVER))
		o->w->res->refaults++;
	sl->state = (uint8_t)(state | OP_EVER);
	return 1;
}

/* A fault returns to user space: a scheduling point (a woken kswapd runs there). */
int owned_touch(struct owned_pages *o, uint64_t idx)
{
	int ret = touch(o, idx);

	if (ret)
		storage_resched(o->s);
	return ret;
}

int owned_write(struct owned_pages *o, uint64_t idx, bool held, bool *dirtied)
{
	struct owned_slot *sl = &o->slot[idx];
	int ret = touch(o, idx);

	*dirtied = false;
	if (ret >= 0) {
		if (held)
			sl->state |= OP_HELD;
		if (!(sl->state & OP_DIRTY)) {
			cma_page_set_dirty(o->s->mm, owned_page(o, idx), true);
			sl->state |= OP_DIRTY;
			sl->dirtied_ms = (uint32_t)(o->s->now / 1000000);
			*dirtied = true;
		}
	}
	if (ret)
		storage_resched(o->s);
	return ret;
}

uint64_t owned_swapin_read(struct owned_pages *o, uint64_t idx, uint64_t at)
{
	struct sim *s = o->s;
	unsigned long left = o->swapin.nr_read;

	o->w->res->swapins += left;
	o->w->res->swapin_ios += o->swapin.nr_io;
	/* the plug's requests: the pages read shared out among them, in order */
	for (unsigned i = o->swapin.nr_io; i; i--) {
		unsigned long pages = (left + i - 1) / i;

		at = storage_submit(&s->storage, &s->cost, at, STORAGE_RAND_READ, pages * s->page_bytes);
		left -= pages;
	}
	owned_read_until(o, idx, at);
	return at;
}

bool owned_copy_kept(struct owned_pages *o, uint64_t idx, bool take)
{
	const struct sim_policy_ops *p = o->s->policy;

	return p->lookup && p->lookup(o->s, o, idx, o->anon, take);
}

uint64_t owned_release(struct owned_pages *o, uint64_t idx)
{
	struct cma_page *page = owned_page(o, idx);

	if (!page)
		return 0;
	forget(o, idx, 0);
	cma_free_pages(o->s->mm, page, 0);
	return 1;
}

/* cleancache_invalidate_inode / frontswap_invalidate_area: the policy's copies go with the pages. */
static void invalidate_copies(struct owned_pages *o)
{
	if (o->s->policy->invalidate)
		o->s->policy->invalidate(o->s, o);
}

uint64_t owned_release_all(struct owned_pages *o)
{
	uint64_t freed = 0;

	o->releases++;
	invalidate_copies(o);
	/*
	 * A process's swapped-out pages die with it, their slots freed as
	 * zap_pte_range's free_swap_and_cache does: its next life faults in
	 * afresh.
	 */
	for (uint64_t i = 0; i < o->nr; i++) {
		struct owned_slot *sl = &o->slot[i];

		if (o->anon) {
			if (sl->state & OP_SWAPPED)
				cma_swap_free(o->s->mm, value_to_swp(sl->entry), 1);
			/* a write in flight is waited out as the page goes (forget) */
			sl->state &= OP_WB;
		}
		/* truncate takes the shadow entries with the pages */
		if (owned_is_value(sl->entry))
			sl->entry = 0;
	}
	for (uint64_t i = 0; i < o->nr && o->resident; i++)
		freed += owned_release(o, i);
	return freed;
}

void owned_destroy(struct owned_pages *o)
{
	/*
	 * At the machine's teardown the pages and swap slots go whole with
	 * the mm (cma_mm_destroy): giving each back first would walk the
	 * buddy lists once a page, for nothing the run reports.
	 */
	if (o->s->drop_pages)
		invalidate_copies(o);
	else
		owned_release_all(o);
	storage_forget(&o->s->storage, o);
	big_table_free(o->slot, o->nr, sizeof(*o->slot));
	free(o->wb_done);
	free(o->rd);
	free(o->at);
	o->slot = NULL;
	o->wb_done = NULL;
	o->rd = NULL;
	o->rd_head = o->rd_nr = o->rd_cap = 0;
	o->at = NULL;
	o->nr_at = 0;
}

uint64_t owned_hot_pages(const struct owned_pages *o, unsigned hot)
{
	uint64_t n = hot ? o->nr * hot / 100 : o->nr;

	return n ? n : 1;
}

struct owned_pages *owned_of(struct workload *w)
{
	return w->spec->kind->owned ? w->priv : NULL;
}

void owned_stop(struct sim *s, struct workload *w)
{
	struct owned_pages *o = w->priv;

	if (!o)
		return;
	owned_destroy(o);
	sim_workload_release(w);
}
