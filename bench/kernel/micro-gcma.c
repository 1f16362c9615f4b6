// SPDX-License-Identifier: GPL-2.0
/*
 * The per-page cost of GCMA's contiguous allocation (gcma_alloc_contig,
 * RFC v2, linux-mm 2015-02-24), its operations replayed in user space on
 * an area of 65536 pages (256 MiB, the published setup's): per page, the
 * area's spinlock round and bitmap bit; for a page holding a frontswap
 * copy, also the three locks of the first loop, the entry's reference
 * and the move off the LRU, then in the second loop the swap tree's lock,
 * the entry's last reference dropped (erased from a red-black tree keyed
 * by swap offset, unlinked, freed), the tree searched again, and the
 * page's bit given back; and for every page the final isolate_interrupted
 * pass. Each figure is the median of REPEATS rounds, each a mean over
 * 65536 pages taken in ranges of 32000 (the largest published request),
 * "NAME=VALUE UNIT":
 *
 *   gcma_free_ns   a page of the range that held nothing
 *   gcma_drop_ns   a page that held a copy, dropped
 *
 * The tree is glibc's tsearch (a red-black tree, as the kernel's rbtree);
 * the struct page stand-ins are 64 bytes each, in pfn order, so that the
 * walk meets the same cache lines the kernel's does.
 *
 *   micro-gcma [REPEATS]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <search.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define AREA_PAGES 65536
#define RANGE 32000
#define BITS_PER_LONG 64

struct list { struct list *next, *prev; };

struct page {				/* struct page's 64 bytes */
	unsigned long flags;
	struct list lru;
	void *entry;
	char pad[64 - 4 * sizeof(long)];
};

struct slot_entry {				/* swap_slot_entry */
	unsigned long offset;
	atomic_int refcount;
	struct page *page;
};

static struct page pages[AREA_PAGES];
static unsigned long bitmap[AREA_PAGES / BITS_PER_LONG];
static pthread_spinlock_t area_lock, slru_lock, clru_lock, tree_lock;
static struct list slru = { &slru, &slru };
static void *tree;

static void list_del(struct list *l)
{
	l->prev->next = l->next;
	l->next->prev = l->prev;
}

static void list_add(struct list *l, struct list *head)
{
	l->next = head->next;
	l->prev = head;
	head->next->prev = l;
	head->next = l;
}

static int by_offset(const void *a, const void *b)
{
	unsigned long x = ((const struct slot_entry *)a)->offset, y = ((const struct slot_entry *)b)->offset;

	return (x > y) - (x < y);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* frontswap_store's end state: every page of the area a copy, swap offsets shuffled. */
static void fill(void)
{
	static unsigned long perm[AREA_PAGES];

	for (unsigned long i = 0; i < AREA_PAGES; i++)
		perm[i] = i;
	for (unsigned long i = AREA_PAGES - 1; i > 0; i--) {
		unsigned long j = (unsigned long)rand() % (i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (unsigned long i = 0; i < AREA_PAGES; i++) {
		struct slot_entry *e = malloc(sizeof(*e));

		e->offset = perm[i];
		atomic_init(&e->refcount, 1);
		e->page = &pages[i];
		pages[i].entry = e;
		pages[i].flags = 1;
		bitmap[i / BITS_PER_LONG] |= 1ul << (i % BITS_PER_LONG);
		tsearch(e, &tree, by_offset);
		list_add(&pages[i].lru, &slru);
	}
}

static void put_entry(struct slot_entry *e)
{
	if (atomic_fetch_sub(&e->refcount, 1) != 1)
		return;
	tdelete(e, &tree, by_offset);
	list_del(&e->page->lru);
	/* gcma_free_page of a page being reclaimed: its bit stays, the page isolated */
	pthread_spin_lock(&area_lock);
	bitmap[(e->page - pages) / BITS_PER_LONG] |= 1ul << ((e->page - pages) % BITS_PER_LONG);
	e->page->flags = 2;
	pthread_spin_unlock(&area_lock);
	e->page->entry = NULL;
	free(e);
}

/* gcma_alloc_contig on [start, start + n): the pages' own work, as RFC v2 does it. */
static void alloc_contig(unsigned long start, unsigned long n)
{
	struct list dropped = { &dropped, &dropped };

	for (unsigned long p = start; p < start + n; p++) {
		unsigned long *word = &bitmap[p / BITS_PER_LONG], bit = 1ul << (p % BITS_PER_LONG);

		pthread_spin_lock(&area_lock);
		if (!(*word & bit)) {
			*word |= bit;
			pages[p].flags = 2;		/* GF_ISOLATED */
			pthread_spin_unlock(&area_lock);
			continue;
		}
		pthread_spin_unlock(&area_lock);
		pthread_spin_lock(&slru_lock);
		pthread_spin_lock(&clru_lock);
		pthread_spin_lock(&area_lock);
		pages[p].flags = 4;			/* GF_RECLAIMING */
		atomic_fetch_add(&((struct slot_entry *)pages[p].entry)->refcount, 1);
		list_del(&pages[p].lru);
		list_add(&pages[p].lru, &dropped);
		pthread_spin_unlock(&area_lock);
		pthread_spin_unlock(&clru_lock);
		pthread_spin_unlock(&slru_lock);
	}
	while (dropped.next != &dropped) {
		struct page *page = (struct page *)((char *)dropped.next - offsetof(struct page, lru));
		struct slot_entry *e = page->entry, key;

		pthread_spin_lock(&tree_lock);
		pthread_spin_lock(&slru_lock);
		key.offset = e->offset;
		put_entry(e);
		if (tfind(&key, &tree, by_offset))
			put_entry(e);
		pthread_spin_unlock(&slru_lock);
		pthread_spin_unlock(&tree_lock);
	}
	/* isolate_interrupted: the range checked once more under the area's lock */
	pthread_spin_lock(&area_lock);
	for (unsigned long p = start; p < start + n; p++)
		if (!(bitmap[p / BITS_PER_LONG] & (1ul << (p % BITS_PER_LONG))) || pages[p].flags != 2)
			abort();
	pthread_spin_unlock(&area_lock);
}

/* Mean ns per page of taking the whole area in ranges of RANGE pages. */
static double per_page(void)
{
	double t0 = now_ns();

	for (unsigned long start = 0; start < AREA_PAGES; start += RANGE)
		alloc_contig(start, start + RANGE <= AREA_PAGES ? RANGE : AREA_PAGES - start);
	return (now_ns() - t0) / AREA_PAGES;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int repeats = argc > 1 ? atoi(argv[1]) : 5;
	double free_ns[64], drop_ns[64];

	if (repeats < 1 || repeats > 64)
		repeats = 5;
	pthread_spin_init(&area_lock, 0);
	pthread_spin_init(&slru_lock, 0);
	pthread_spin_init(&clru_lock, 0);
	pthread_spin_init(&tree_lock, 0);
	srand(1);
	for (int r = 0; r < repeats; r++) {
		fill();
		drop_ns[r] = per_page();	/* every page a copy */
		memset(bitmap, 0, sizeof(bitmap));
		free_ns[r] = per_page();	/* every page free */
		memset(bitmap, 0, sizeof(bitmap));
	}
	qsort(free_ns, (size_t)repeats, sizeof(double), cmp);
	qsort(drop_ns, (size_t)repeats, sizeof(double), cmp);
	printf("gcma_free_ns=%.1f ns\n", free_ns[repeats / 2]);
	printf("gcma_drop_ns=%.1f ns\n", drop_ns[repeats / 2]);
	return 0;
}
