/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libcma — the Linux Contiguous Memory Allocator (CMA, v23) and the page
 * allocator beneath it, over a physical memory the caller describes.
 *
 * Every call takes the machine (struct cma_mm *) it acts on; there is no
 * process-wide state. Errors are negative errno values where the kernel
 * returns them; calls returning a pointer return NULL on failure.
 */
#ifndef CMA_CMA_H
#define CMA_CMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t cma_phys_t;

struct cma_mm;
struct cma_page;
struct cma_device;
struct cma;

/* ------------------------------------------------------------------ */
/* Machine and boot                                                    */
/* ------------------------------------------------------------------ */

struct cma_bank {
	cma_phys_t base;
	uint64_t size;
};

/*
 * CMA_ARCH_ARM64 is Linux 6.12's arm64 and needs a kernel profile that
 * has arm64, "3.7" to "6.12" (cma_mm_create refuses it under 3.5): its
 * zones come from arch/arm64/mm/init.c (ZONE_DMA below the firmware's DMA
 * limit, zone_dma_end here, or 4 GiB; ZONE_DMA32 below 4 GiB; no highmem),
 * so zone_dma32_end and highmem_start stay 0. Its DMA has CMA (cma=, the
 * default area, dma_declare_contiguous) from "3.14" only.
 */
enum cma_arch { CMA_ARCH_X86, CMA_ARCH_ARM, CMA_ARCH_ARM64 };

struct cma_mm_config {
	enum cma_arch arch;            /* CMA_ARCH_X86 (0) by default */
	const struct cma_bank *banks;  /* RAM banks, ascending, non-overlapping */
	unsigned nr_banks;
	unsigned page_shift;           /* 0 means 12 */
	unsigned max_order;            /* 0 means 11: orders 0..10 */
	unsigned pageblock_order;      /* 0 means max_order - 1 */
	cma_phys_t zone_dma_end;       /* 0: no ZONE_DMA */
	cma_phys_t zone_dma32_end;     /* 0: no ZONE_DMA32 */
	cma_phys_t highmem_start;      /* 0: no ZONE_HIGHMEM */
	const char *cmdline;           /* kernel command line, e.g. "cma=64M" */
	const char *kconfig;           /* .config text, e.g. "CONFIG_CMA_SIZE_MBYTES=16\n" */
	cma_phys_t memblock_limit;     /* 0: end of RAM (x86), highmem_start (ARM) */
	uint64_t atomic_pool_size;     /* ARM atomic DMA pool; 0 means 256 KiB */
	uint64_t swap_bytes;           /* swap space for anonymous pages; 0: none */
	bool metadata_only;            /* no backing bytes (large simulations) */
	unsigned nr_cpus;              /* per-CPU page-list slots; 0 means 1 */
	bool quiet;                    /* once created, KERN_ERR lines go to the log only, not also stderr */
	const char *kernel;            /* the kernel profile: NULL or "3.5" (the patch set as merged), "6.12", a release between (cma_kernel_find) */
	/*
	 * No kernel's: a debugging printk in each pass of
	 * __alloc_contig_migrate_range, "LATENCY reclaim= R migrate=M
	 * migrateranges=I" with the pass's pages reclaimed, migrated and
	 * isolated, and "OVERALL overall=N" (pages migrated) after the loop:
	 * the instrumentation of the linux-mm thread "mm/cma.c: High latency
	 * for cma allocation" (March 2019), which printed microseconds in
	 * the same format. Off (false) by default.
	 */
	bool printk_contig_passes;
};

/**
 * cma_mm_create() - an early machine: memblock only (setup_arch up to
 * memblock_init). -EINVAL for a malformed config, -ENOMEM.
 */
int cma_mm_create(const struct cma_mm_config *cfg, struct cma_mm **mmp);

/**
 * cma_mm_boot() - free_area_init + mem_init + the initcalls: zones, the
 * page array, free memory to the buddy allocator, CMA activation,
 * watermarks. -EINVAL when called twice.
 */
int cma_mm_boot(struct cma_mm *mm);
void cma_mm_destroy(struct cma_mm *mm);

/** cma_mm_kernel() - the machine's kernel profile: "3.5", "6.12" or a release between, "4.8". */
const char *cma_mm_kernel(const struct cma_mm *mm);
/**
 * cma_kernel_find() - the kernel profile of release @name as the library
 * spells it (a string that lives as long as the program), or NULL if
 * there is none: accepted are the releases from 3.5 to 6.12 ("3.5" to
 * "3.19", "4.0" to "4.20", "5.0" to "5.19", "6.0" to "6.12"). A release
 * between 3.5 and 6.12 is 3.5 with each modelled upstream change that
 * release had; the other changes between releases are not modelled.
 */
const char *cma_kernel_find(const char *name);
/**
 * cma_kernel_has() - whether the kernel profile of release @kernel has
 * the modelled upstream change @change, named as the library's
 * src/mm/profile.h names its switch ("contig_pages": alloc_contig_pages(),
 * 5.5): 1 or 0, or -EINVAL for a release without a profile or an unknown
 * change. For callers that follow the library's choice by the change, not
 * by the release's name.
 */
int cma_kernel_has(const char *kernel, const char *change);

/** cma_mm_dmesg() - the machine's kernel log so far (boot messages, errors). */
int cma_mm_dmesg(struct cma_mm *mm, FILE *out);

/**
 * cma_mm_printk() - printk() for board code: add a line to the machine's
 * log, in order with the kernel's own (a board's reserve() reporting a
 * failed reservation, say). @fmt is printf's; end it with "\n". A
 * kernel level prefix ("\001" and a digit, KERN_INFO's "\0016") sets the
 * line's level, which is otherwise 4 (MESSAGE_LOGLEVEL_DEFAULT); a line
 * below the console's loglevel is written to the serial console
 * (cma_mm_console) and counted in the event console_chars.
 */
void cma_mm_printk(struct cma_mm *mm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** cma_mm_pr_err() - printk(KERN_ERR) for board code: to the log and to stderr. */
void cma_mm_pr_err(struct cma_mm *mm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/**
 * cma_mm_console() - the log's serial console as the command line set it
 * (console=ttyS0,115200n8; loglevel=, quiet, debug): its rate in baud,
 * the bits a character takes on the wire (start, data, parity, stop: 10
 * for 8N1) and console_loglevel (7 by default). Any pointer may be NULL.
 * 0, or -ENODEV when there is no serial console (*@baud 0).
 */
int cma_mm_console(struct cma_mm *mm, unsigned *baud, unsigned *frame_bits, int *loglevel);

/** cma_mm_verify() - DEBUG_VM: 0, or -EUCLEAN after printing what is broken. */
int cma_mm_verify(struct cma_mm *mm);
typedef void (*cma_verify_fn)(void *ctx, const char *problem);
/**
 * cma_mm_verify_report() - cma_mm_verify(), each line it logs also handed
 * to @fn as it follows "cma_mm_verify: " (a broken invariant, or the count
 * of those past the first 20), so that the caller need not read the log.
 */
int cma_mm_verify_report(struct cma_mm *mm, cma_verify_fn fn, void *ctx);

/** cma_memblock_reserve() - memblock_reserve(); early only. */
int cma_memblock_reserve(struct cma_mm *mm, cma_phys_t base, uint64_t size);
/**
 * cma_memblock_phys_free() - memblock_phys_free(): [@base, @base + @size)
 * no longer reserved, whatever reserved it (of_reserved_mem gives back a
 * node whose setup failed); early only. 0, -EINVAL if the range wraps,
 * -ENOMEM.
 */
int cma_memblock_phys_free(struct cma_mm *mm, cma_phys_t base, uint64_t size);
/** cma_memblock_alloc_base() - memblock_alloc_base() top-down; 0 on failure. */
cma_phys_t cma_memblock_alloc_base(struct cma_mm *mm, uint64_t size, uint64_t align,
				   cma_phys_t limit);
/**
 * cma_memblock_alloc_range() - memblock_phys_alloc_range(): @size bytes
 * aligned to @align (a power of two; 0: 1) in [@start, @end) (@end 0: the
 * end of memory), the highest fit or, @bottom_up, the lowest, reserved;
 * early only; 0 on failure.
 */
cma_phys_t cma_memblock_alloc_range(struct cma_mm *mm, uint64_t size, uint64_t align,
				    cma_phys_t start, cma_phys_t end, bool bottom_up);

/* ------------------------------------------------------------------ */
/* Pages                                                               */
/* ------------------------------------------------------------------ */

typedef unsigned int cma_gfp_t;

/* The kernel's (v3.4) bit values, so traces print the same flags. */
#define CMA_GFP_DMA		0x01u
#define CMA_GFP_HIGHMEM		0x02u
#define CMA_GFP_DMA32		0x04u
#define CMA_GFP_MOVABLE		0x08u
#define CMA_GFP_WAIT		0x10u
#define CMA_GFP_HIGH		0x20u
#define CMA_GFP_IO		0x40u
#define CMA_GFP_FS		0x80u
#define CMA_GFP_COLD		0x100u
#define CMA_GFP_NOWARN		0x200u
/*
 * v3.4's __GFP_REPEAT bit; 4.13 renamed it __GFP_RETRY_MAYFAIL: a costly
 * order may loop through reclaim and compaction retries, then fail. Read
 * only by kernel "4.13" on (the v3.5 slow path ignores it).
 */
#define CMA_GFP_RETRY_MAYFAIL	0x400u
#define CMA_GFP_NORETRY		0x1000u
#define CMA_GFP_ZERO		0x8000u
#define CMA_GFP_HARDWALL	0x20000u
/* No fallback to other nodes; the library has one node, so it only tells the slow path what hugetlb asks (4.13 on). */
#define CMA_GFP_THISNODE	0x40000u
#define CMA_GFP_RECLAIMABLE	0x80000u

#define CMA_GFP_ATOMIC		(CMA_GFP_HIGH)
#define CMA_GFP_NOWAIT		(CMA_GFP_ATOMIC & ~CMA_GFP_HIGH)
#define CMA_GFP_NOIO		(CMA_GFP_WAIT)
#define CMA_GFP_NOFS		(CMA_GFP_WAIT | CMA_GFP_IO)
#define CMA_GFP_KERNEL		(CMA_GFP_WAIT | CMA_GFP_IO | CMA_GFP_FS)
#define CMA_GFP_USER		(CMA_GFP_WAIT | CMA_GFP_IO | CMA_GFP_FS | CMA_GFP_HARDWALL)
#define CMA_GFP_HIGHUSER	(CMA_GFP_USER | CMA_GFP_HIGHMEM)
#define CMA_GFP_HIGHUSER_MOVABLE (CMA_GFP_HIGHUSER | CMA_GFP_MOVABLE)

enum cma_migratetype {
	CMA_MIGRATE_UNMOVABLE,
	CMA_MIGRATE_RECLAIMABLE,
	CMA_MIGRATE_MOVABLE,
	CMA_MIGRATE_RESERVE,
	CMA_MIGRATE_CMA,
	CMA_MIGRATE_ISOLATE,
	CMA_MIGRATE_TYPES
};

/** cma_alloc_pages() - alloc_pages(): 2^order contiguous pages, or NULL. */
struct cma_page *cma_alloc_pages(struct cma_mm *mm, cma_gfp_t gfp, unsigned order);
/** cma_free_pages() - __free_pages(); a page not allocated is reported, not freed. */
void cma_free_pages(struct cma_mm *mm, struct cma_page *page, unsigned order);
/* What pages the kernel keeps for itself are for: the counter that has them. */
enum cma_kmem_kind {
	CMA_KMEM_SLAB_RECLAIMABLE,	/* NR_SLAB_RECLAIMABLE: a reclaimable cache's slab */
	CMA_KMEM_SLAB_UNRECLAIMABLE,	/* NR_SLAB_UNRECLAIMABLE: any other cache's */
	CMA_KMEM_PAGETABLE,		/* NR_PAGETABLE: a page table */
	CMA_NR_KMEM_KINDS,
};
/**
 * cma_alloc_kmem_pages() - cma_alloc_pages() for the kernel's own use,
 * counted as the kernel counts it: a slab's pages in NR_SLAB_RECLAIMABLE
 * or NR_SLAB_UNRECLAIMABLE (kmem_getpages), a page table's in
 * NR_PAGETABLE (pgtable_page_ctor), which /proc/meminfo (Slab,
 * SReclaimable, SUnreclaim, PageTables, MemAvailable) and /proc/vmstat
 * show. NULL on failure, with errno EINVAL for an unknown @kind.
 */
struct cma_page *cma_alloc_kmem_pages(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
				      enum cma_kmem_kind kind);
/**
 * cma_free_kmem_pages() - the pages cma_alloc_kmem_pages() gave for @kind
 * back, and out of its counter; a page not allocated is reported, and
 * neither freed nor uncounted.
 */
void cma_free_kmem_pages(struct cma_mm *mm, struct cma_page *page, unsigned order,
			 enum cma_kmem_kind kind);
/**
 * cma_alloc_huge_page() - a huge page pool's page of 2^@order pages from
 * the buddy allocator, as growing nr_hugepages asks for it (6.12's
 * alloc_buddy_hugetlb_folio): GFP_HIGHUSER_MOVABLE, __GFP_THISNODE and
 * __GFP_NOWARN, with CMA_GFP_RETRY_MAYFAIL. From kernel "5.4" on,
 * *@noretry is the node's bit of node_alloc_noretry, false when a resize
 * starts and kept by the caller over it: while set, the request is
 * __GFP_NORETRY instead; a failure that tried hard sets it, a success
 * that did not clears it (@noretry NULL: always try hard). Free with
 * cma_free_pages(). NULL on failure.
 */
struct cma_page *cma_alloc_huge_page(struct cma_mm *mm, unsigned order, bool *noretry);
/**
 * cma_free_huge_page() - free_huge_folio: a page of cma_alloc_huge_page(),
 * held only by its caller and without an owner, joins the pool's free
 * list (hugepage_freelists, one node) instead of going back to the buddy
 * allocator; the pool holds it from now on. From kernel "5.13" on, a
 * contiguous range over a free pool page dissolves it
 * (alloc_and_dissolve_hugetlb_folio): a fresh page of its order from
 * elsewhere takes its place in the pool, and the range is taken; without
 * one the range fails with -ENOMEM. Before, the range is -EBUSY. 0, or
 * -EINVAL said in the log.
 */
int cma_free_huge_page(struct cma_mm *mm, struct cma_page *page);
/**
 * cma_dequeue_huge_page() - dequeue_hugetlb_folio_node_exact: a free pool
 * page of 2^@order pages (the oldest), the caller's as cma_alloc_huge_page()
 * gives one; shrinking nr_hugepages frees it with cma_free_pages(). NULL
 * with errno ENOMEM when the pool has none of @order, EINVAL for an order
 * outside 1..max_order-1.
 */
struct cma_page *cma_dequeue_huge_page(struct cma_mm *mm, unsigned order);
/**
 * cma_alloc_gigantic_page() - 6.12's alloc_gigantic_folio: @nr_pages (a
 * power of two) from the hugetlb_cma= area through cma_alloc, aligned to
 * their number, when boot reserved one (kernel "5.7" on); else, or when
 * the area has no room, cma_alloc_contig_pages() of @nr_pages with @gfp.
 * The pages are marked as a hugetlb page's, which a later
 * cma_alloc_contig_pages() does not try to take (from kernel "6.3" on,
 * and before "5.13"). Free with cma_free_gigantic_page(). NULL with errno
 * as cma_alloc_contig_pages().
 */
struct cma_page *cma_alloc_gigantic_page(struct cma_mm *mm, unsigned long nr_pages, cma_gfp_t gfp);
/**
 * cma_free_gigantic_page() - hugetlb_free_folio: a page of
 * cma_alloc_gigantic_page() back to the hugetlb_cma area it came from
 * (cma_release), else cma_free_contig_range(); the marks cleared.
 */
void cma_free_gigantic_page(struct cma_mm *mm, struct cma_page *page, unsigned long nr_pages);
unsigned long cma_page_to_pfn(struct cma_mm *mm, const struct cma_page *page);
/** cma_pfn_to_page() - NULL if !pfn_valid(pfn). */
struct cma_page *cma_pfn_to_page(struct cma_mm *mm, unsigned long pfn);
/** cma_page_address() - page_address(); NULL on a metadata-only machine. */
void *cma_page_address(struct cma_mm *mm, const struct cma_page *page);
/** cma_page_nth() - page + n. */
struct cma_page *cma_page_nth(struct cma_mm *mm, struct cma_page *page, unsigned long n);
/** cma_pageblock_migratetype() - get_pageblock_migratetype(); -EINVAL if !pfn_valid. */
int cma_pageblock_migratetype(struct cma_mm *mm, unsigned long pfn);
/**
 * cma_set_pageblock_migratetype() - give the pageblock holding @pfn the
 * type @migratetype (UNMOVABLE, RECLAIMABLE or MOVABLE) and move its free
 * pages to that type's lists, as a steal does: for rebuilding a machine
 * whose block types are known. With grouping by mobility off, the block
 * becomes UNMOVABLE, as the kernel forces it. -EINVAL for another type or
 * an invalid pfn, -EBUSY for a CMA, isolated or reserve block.
 */
int cma_set_pageblock_migratetype(struct cma_mm *mm, unsigned long pfn, int migratetype);
/**
 * cma_alloc_pages_at() - the 2^@order pages at @pfn (aligned to 2^@order,
 * in one zone) taken off the free lists, allocated as cma_alloc_pages()
 * hands pages out; the free block holding them is split around them. For
 * rebuilding a machine whose every page is known (cmasim import). NULL
 * with errno EINVAL (bad pfn or order), EBUSY (a page is not free).
 */
struct cma_page *cma_alloc_pages_at(struct cma_mm *mm, unsigned long pfn, unsigned order,
				    cma_gfp_t gfp);
/**
 * cma_free_reserved_area() - free_reserved_area(): every PG_reserved
 * (memblock-reserved) page of [@start_pfn, @end_pfn) given to the buddy
 * allocator, the zone's managed pages growing; other pages are left.
 * Returns the pages freed, or -EINVAL before boot.
 */
long cma_free_reserved_area(struct cma_mm *mm, unsigned long start_pfn, unsigned long end_pfn);
/** What one pageblock holds; see cma_pageblock_stat(). */
struct cma_pageblock_stat {
	int migratetype;		/* enum cma_migratetype */
	unsigned long nr_pages;		/* valid pages (holes excluded) */
	unsigned long nr_free;		/* in free buddy blocks (per-CPU lists count as used) */
	unsigned long nr_lru;		/* movable pages on an LRU list */
	unsigned long nr_reserved;	/* memblock-reserved, never freed */
};
/**
 * cma_pageblock_stat() - the pageblock holding @pfn: its type and how
 * full it is. A snapshot taken without locks, for pictures and reports.
 * -EINVAL if the block holds no valid page or the machine is not booted.
 */
int cma_pageblock_stat(struct cma_mm *mm, unsigned long pfn, struct cma_pageblock_stat *st);
/**
 * cma_pageblock_free() - cma_pageblock_stat() without nr_lru and
 * nr_reserved (left 0): the type, valid and free pages, found from the
 * zone's free block heads rather than a look at every page, for
 * pictures of the whole machine. The same errors.
 */
int cma_pageblock_free(struct cma_mm *mm, unsigned long pfn, struct cma_pageblock_stat *st);
/**
 * cma_fragmentation_index() - the kernel's extfrag_index for an
 * allocation of 2^@order over all zones' free blocks, times 1000:
 * -1000 if a block that large is free, towards 0 for lack of memory,
 * towards 1000 for fragmentation. 0 or -EINVAL.
 */
int cma_fragmentation_index(struct cma_mm *mm, unsigned order, int *index);
/**
 * cma_write_proc() - the kernel's /proc file @name: "buddyinfo",
 * "pagetypeinfo", "vmstat", "meminfo", "zoneinfo", "cma"; under kernel
 * "6.12" also an area's sysfs file "sys/kernel/mm/cma/AREA/FILE" (FILE:
 * alloc_pages_success, alloc_pages_fail, release_pages_success) and
 * debugfs file "debug/cma/AREA/FILE" (base_pfn, count, order_per_bit,
 * used, maxchunk, bitmap). -ENOENT otherwise, listing what exists.
 */
int cma_write_proc(struct cma_mm *mm, const char *name, FILE *out);

/* ------------------------------------------------------------------ */
/* Movable pages                                                       */
/* ------------------------------------------------------------------ */

struct cma_owner_ops {
	/* Switch the owner's reference from `from` to `to`; the bytes are already
	 * copied. 0, or -EAGAIN if the owner cannot let go now. */
	int (*migrate)(void *owner, uint64_t index, struct cma_page *from, struct cma_page *to);
	/* Drop a clean cache page: 0 if the owner forgot it (the page is then freed). */
	int (*reclaim)(void *owner, uint64_t index, struct cma_page *page);
	/*
	 * Write a dirty page back (reclaim's pageout; for an anonymous page,
	 * the swap-out reclaim starts: only -EINPROGRESS changes anything
	 * there). 0: written, the page clean. -EINPROGRESS: the write is in
	 * flight; the page stays under writeback until the owner calls
	 * cma_page_end_writeback(). Another error: not written.
	 */
	int (*writeback)(void *owner, uint64_t index, struct cma_page *page);
	/* Anonymous memory: reclaimed only with swap room; false: file-backed. */
	bool anon;
	/*
	 * page_mapcount(): how many page table entries map the page, as the
	 * reverse map would find them (an anonymous page has one or more,
	 * page cache read through read() none). Migration unmaps and remaps
	 * each and flushes their TLB entries, and counts them in the events
	 * pgmigrate_mapped, pgmigrate_mapped_ptes and pgmigrate_tlb_flush
	 * (cma_mm_counter). NULL: the owner's pages are never mapped.
	 */
	unsigned (*mapcount)(void *owner, uint64_t index, const struct cma_page *page);
	/*
	 * Optional, for owners whose writes go in flight: wait_on_page_writeback().
	 * Migration that must wait for the page's write (MIGRATE_SYNC) asks the
	 * owner to complete it (cma_page_end_writeback() before returning) and
	 * to return the nanoseconds the wait took in the owner's time. NULL: a
	 * page in flight is busy, as if migration could not wait.
	 */
	uint64_t (*wait_writeback)(void *owner, uint64_t index, struct cma_page *page);
	/*
	 * Optional, for owners of pages of an order above 0: split_folio().
	 * A contiguous allocation that finds no target of the page's order
	 * splits it (kernel "5.7" on, when large pages are migrated): from
	 * 0 returned on, the owner holds each of its 2^@order base pages
	 * (cma_page_nth()) as an order-0 page of its own at index @index + n,
	 * with one reference each, as it held @page. An error: keep it
	 * whole. NULL: the page is never split.
	 */
	int (*split)(void *owner, uint64_t index, struct cma_page *page, unsigned order);
	/*
	 * Optional, for owners whose reads go in flight: is the page locked
	 * for its read, as trylock_page() would find it (the kernel's
	 * PG_locked, from add_to_page_cache_lru or the swap cache until the
	 * read's end_io)? Reclaim keeps a locked page; migration passes over
	 * it (-EAGAIN) except where MIGRATE_SYNC would sleep in lock_page(),
	 * where it calls wait_locked. NULL: never locked.
	 */
	bool (*locked)(void *owner, uint64_t index, const struct cma_page *page);
	/*
	 * lock_page() of a locked page: the owner completes the read now and
	 * returns the nanoseconds the wait took in its time. NULL (with
	 * locked): a locked page is busy, as if migration could not wait.
	 */
	uint64_t (*wait_locked)(void *owner, uint64_t index, struct cma_page *page);
	/*
	 * A hint, no kernel's: reclaim will soon ask the callbacks above
	 * about @page; the owner may start loading what they read (a
	 * prefetch), and must change nothing. NULL: no hint wanted.
	 */
	void (*prefetch)(void *owner, uint64_t index, const struct cma_page *page);
	/*
	 * Optional, for owners of mapped pages: the CPUs other than the
	 * caller's that have the owner's address space loaded now (the
	 * weight of mm_cpumask less the flushing CPU; a process asleep has
	 * none). Each TLB flush of one of its entries sends each an IPI,
	 * counted in nr_tlb_remote_flush_received (cma_mm_counter). NULL:
	 * none.
	 */
	unsigned (*mm_cpus)(void *owner);
};

struct cma_page *cma_alloc_movable(struct cma_mm *mm, cma_gfp_t gfp, unsigned order,
				   const struct cma_owner_ops *ops, void *owner, uint64_t index);
/** cma_alloc_movable_at() - cma_alloc_movable() of the pages at @pfn, as cma_alloc_pages_at(). */
struct cma_page *cma_alloc_movable_at(struct cma_mm *mm, unsigned long pfn, unsigned order,
				      const struct cma_owner_ops *ops, void *owner, uint64_t index);
/**
 * cma_huge_page_set_owner() - hugetlb_no_page's folio_set_hugetlb_migratable:
 * a page of cma_alloc_huge_page(), held only by its caller, is mapped
 * and from now on @ops' owner @owner's at @index, the caller's reference
 * becoming the owner's (dropped with cma_page_put()). From kernel "5.13"
 * on, a contiguous range over it migrates it whole to a fresh hugetlb
 * page of its order (isolate_or_dissolve_huge_page), calling
 * @ops->migrate; before, the range is -EBUSY. It is never on an LRU
 * list: not reclaimed, split, mlocked or written back, and not counted
 * in the anon or file pages. 0, or -EINVAL said in the log (not such a
 * page, a gigantic one, or @ops without migrate).
 */
int cma_huge_page_set_owner(struct cma_mm *mm, struct cma_page *page,
			    const struct cma_owner_ops *ops, void *owner, uint64_t index);
bool cma_page_tryget(struct cma_mm *mm, struct cma_page *page);
void cma_page_get(struct cma_mm *mm, struct cma_page *page);
void cma_page_put(struct cma_mm *mm, struct cma_page *page);
void cma_page_set_dirty(struct cma_mm *mm, struct cma_page *page, bool dirty);
/**
 * cma_page_backed() - are @page's contents safe elsewhere, as
 * cleancache_put_page() and frontswap_store() assume of what they are
 * given: a clean file page not under writeback, or an anonymous page in
 * the swap cache with its swap write done. An owner's reclaim callback
 * may ask it of the page being dropped before keeping a copy; false for
 * a page that is not movable.
 */
bool cma_page_backed(struct cma_mm *mm, const struct cma_page *page);
/**
 * cma_swap_free() - free_swap_and_cache(): the owner drops the swap
 * entries @entry .. @entry + @nr_pages - 1 of a page reclaim swapped out
 * (reclaim freed the page; its slots stayed as the owner's swap entries,
 * as a kernel's page table keeps them). Call it when the owner's process
 * unmaps or exits. The slots are free for the next swap-out once no
 * swap cache page holds them. 0, or -EINVAL, changing nothing, if an
 * owner holds no such entry.
 */
int cma_swap_free(struct cma_mm *mm, uint64_t entry, unsigned long nr_pages);
/**
 * cma_page_swap_entry() - the swap entry of anonymous @page while it is
 * in the swap cache (page_private of a PageSwapCache page): what the
 * owner keeps in place of the page when its reclaim callback is asked to
 * let the page go. 0 if the page is in no swap cache. Entries are
 * slot + 1, and reclaim swaps out in slot order.
 */
uint64_t cma_page_swap_entry(struct cma_mm *mm, const struct cma_page *page);
/* What one cma_swapin() read. */
struct cma_swapin_stat {
	unsigned long nr_read;	/* pages read from swap, the target's included (pswpin) */
	unsigned nr_io;		/* read requests, slots read in a row making one; 0: cached */
	bool ra_hit;		/* the page was in the swap cache, read ahead earlier */
};
/**
 * cma_swapin() - do_swap_page(): the owner faults on the page whose swap
 * @entry it holds (from cma_page_swap_entry). A page read ahead into the
 * swap cache is taken as it is; else swapin_readahead() reads the
 * entry's slot with the slots around it (vm.page-cluster, the window of
 * the kernel profile), each into a page of the swap cache on the
 * inactive anon list; from "5.9" a slot's shadow makes its read a
 * refault (workingset_refault_anon), and the fault counts as a major one
 * (pgmajfault; the host counts pgfault, cma_count_vm_events()). The
 * page becomes @ops' (anonymous)
 * owner @owner's at @index, and the entry is consumed: its slot is free
 * (do not cma_swap_free() it). 0 with *@pagep, -ENOMEM, -EAGAIN if the
 * cached page is being reclaimed or migrated this instant (retry), or
 * -EINVAL for an entry no owner holds.
 */
int cma_swapin(struct cma_mm *mm, uint64_t entry, cma_gfp_t gfp, const struct cma_owner_ops *ops,
	       void *owner, uint64_t index, struct cma_page **pagep, struct cma_swapin_stat *st);
/** cma_set_page_cluster() - vm.page-cluster (default 3): read-ahead of 2^@page_cluster slots; 0 or -EINVAL above 8. */
int cma_set_page_cluster(struct cma_mm *mm, unsigned page_cluster);
/**
 * cma_page_start_writeback() - clear_page_dirty_for_io() and
 * set_page_writeback(), for an owner writing its own dirty page back (a
 * flusher): the page is clean and under writeback until
 * cma_page_end_writeback(). The caller holds a reference. false, changing
 * nothing, if the page was not dirty or is already under writeback.
 */
bool cma_page_start_writeback(struct cma_mm *mm, struct cma_page *page);
/**
 * cma_page_end_writeback() - end_page_writeback(): the write in flight on
 * @page (from cma_page_start_writeback(), or an owner's writeback op that
 * returned -EINPROGRESS) has completed. A page not under writeback is
 * reported, not changed.
 */
void cma_page_end_writeback(struct cma_mm *mm, struct cma_page *page);
/**
 * cma_page_pin_longterm() - pin_user_pages(FOLL_LONGTERM) of one movable
 * page the caller knows to be in use, as for cma_page_get(), holding no
 * reference of its own (6.12's migration would count it as a pin and
 * fail). "3.5": cma_page_get(), the page
 * returned. "6.12": a page in a CMA or isolated pageblock is first
 * migrated by its owner to memory outside CMA, then pinned. Returns the
 * pinned page (the new one when it moved; release it with
 * cma_page_put()), or NULL with errno EBUSY (no owner's page, or freed
 * or moved while unpinned) or ENOMEM (migration failed), nothing
 * pinned. A page another migration holds isolated is pinned and checked
 * again until it is back on its list.
 */
struct cma_page *cma_page_pin_longterm(struct cma_mm *mm, struct cma_page *page);
/**
 * cma_page_set_mlocked() - mlock_vma_page() / munlock_vma_page(): an
 * mlocked movable page is unevictable: reclaim skips it; a contiguous
 * allocation migrates it from kernel "3.7" on (in "3.5" a range holding
 * one is -EBUSY), compaction from "4.1" on. The caller holds a
 * reference to the page.
 */
void cma_page_set_mlocked(struct cma_mm *mm, struct cma_page *page, bool mlocked);
/**
 * cma_page_mkyoung() - pte_mkyoung(): the owner's process touched a
 * page it maps, where the hardware would set the accessed bit of the
 * page table entry. Reclaim's page_referenced() reads and clears it: an
 * anonymous page found young at the inactive tail is activated, a file
 * page kept for another round and activated if found used again. An
 * owner that never calls it has its pages age first in, first out. The
 * caller holds a reference to the page.
 */
void cma_page_mkyoung(struct cma_mm *mm, struct cma_page *page);
/**
 * cma_mark_page_accessed() - mark_page_accessed(): a cached page was used
 * through the cache (read(), a lookup). The first call sets
 * PG_referenced, the next activates an inactive page on the LRU
 * (pgactivate). The caller holds a reference to the page.
 */
void cma_mark_page_accessed(struct cma_mm *mm, struct cma_page *page);
/**
 * cma_page_prefetch_accessed() - a hint, no kernel's: cma_mark_page_accessed()
 * will soon be called on @page. The library may start loading the
 * lines that call will touch (those of its LRU neighbours, if it would
 * activate the page). Changes nothing; @page must be a page of @mm.
 */
void cma_page_prefetch_accessed(struct cma_mm *mm, const struct cma_page *page);
/**
 * cma_workingset_eviction() - workingset_eviction(): from kernel "3.15"
 * on, the shadow entry of a file page being reclaimed, for its owner to
 * keep in place of the page. Call it from the owner's reclaim callback.
 * 0 (no shadow) before "3.15" and for an anonymous page. A shadow has
 * bit 0 set (a value entry, as xa_mk_value makes it), so that the owner
 * can keep it in the page pointer's place and tell the two apart.
 */
uint64_t cma_workingset_eviction(struct cma_mm *mm, const struct cma_page *page);
/**
 * cma_workingset_refault() - workingset_refault(): the owner read the
 * file page at @page's index back in, a fresh page of cma_alloc_movable(),
 * and had kept @shadow for it. Counts workingset_refault; when no more
 * pages were evicted or activated since than the active file list holds,
 * counts workingset_activate and puts @page on the active list. Returns
 * 1 if activated, 0 if not (always before "3.15", and for a 0 shadow),
 * -EINVAL said in the log for what is no such shadow or page.
 */
int cma_workingset_refault(struct cma_mm *mm, struct cma_page *page, uint64_t shadow);

/* ------------------------------------------------------------------ */
/* Contiguous ranges, isolation                                        */
/* ------------------------------------------------------------------ */

int cma_alloc_contig_range(struct cma_mm *mm, unsigned long start, unsigned long end,
			   int migratetype);
void cma_free_contig_range(struct cma_mm *mm, unsigned long pfn, unsigned long nr_pages);
/**
 * cma_alloc_contig_pages() - 6.12's alloc_contig_pages() (kernel "6.12"
 * only; NULL with errno ENOSYS under "3.5"): @nr_pages contiguous pages
 * from anywhere in the zones @gfp may use, highest zone first, each
 * tried from its start in ranges aligned to @nr_pages whose pages are
 * all memory of that zone and none reserved (from kernel "6.3" on none
 * a hugetlb page's; before "5.13" none in use at all), through
 * cma_alloc_contig_range's allocator (migrating what is in the way).
 * Returns the first page (cma_page_to_pfn() gives its pfn), or NULL
 * with errno ENOMEM (no range could be taken) or EINVAL (@nr_pages 0, or
 * a machine not booted). @nid is ignored (no NUMA). Free with
 * cma_free_contig_range().
 */
struct cma_page *cma_alloc_contig_pages(struct cma_mm *mm, unsigned long nr_pages, cma_gfp_t gfp,
					int nid);
int cma_start_isolate_page_range(struct cma_mm *mm, unsigned long start, unsigned long end,
				 int migratetype);
int cma_undo_isolate_page_range(struct cma_mm *mm, unsigned long start, unsigned long end,
				int migratetype);
int cma_test_pages_isolated(struct cma_mm *mm, unsigned long start, unsigned long end);

/* ------------------------------------------------------------------ */
/* Devices and CMA                                                     */
/* ------------------------------------------------------------------ */

struct cma_device *cma_device_create(struct cma_mm *mm, const char *name,
				     uint64_t coherent_dma_mask);
struct cma *cma_dev_get_cma_area(struct cma_mm *mm, struct cma_device *dev);
/*
 * cma_dev_set_cma_area() - @dev's area; @dev NULL: the default area.
 * Under "3.5" (v23) a device's area also becomes the default when there
 * is none; under "6.12" not, and a default given early stops
 * cma_mm_boot's dma_contiguous_reserve from making another.
 */
void cma_dev_set_cma_area(struct cma_mm *mm, struct cma_device *dev, struct cma *cma);
unsigned long cma_area_base_pfn(const struct cma *cma);
/** cma_area_count() - the area's pages; 0 once an area failed to activate. */
unsigned long cma_area_count(const struct cma *cma);
/** cma_area_name() - the area's name: "reserved" for the default, a device's name, or "cmaN". */
const char *cma_area_name(const struct cma *cma);

/**
 * cma_declare_contiguous_nid() - 6.12's mm/cma.c (kernel "6.12" only;
 * -ENOSYS under "3.5"): reserve an area early, aligned to a pageblock or
 * @alignment (a power of two, or 0), at exactly @base if @fixed (which
 * must then be aligned), else anywhere in [@base, @limit) (0: end of
 * memory). One bitmap bit stands for 2^@order_per_bit pages. @name NULL
 * names it "cmaN". *@res_cma is the area (activated at boot; no device
 * uses it unless given with cma_dev_set_cma_area). @nid: 0, the one
 * node, or anything else read as -1 (NUMA_NO_NODE); the log names it. 0, -ENOSPC (no slot of CONFIG_CMA_AREAS left), -EINVAL,
 * -EBUSY (a fixed range taken), -ENOMEM; the kernel's messages.
 */
int cma_declare_contiguous_nid(struct cma_mm *mm, cma_phys_t base, uint64_t size,
			       cma_phys_t limit, uint64_t alignment, unsigned order_per_bit,
			       bool fixed, const char *name, struct cma **res_cma, int nid);
/**
 * cma_init_reserved_mem() - 6.12's mm/cma.c (kernel "6.12" only; -ENOSYS
 * under "3.5"): an area over [@base, @base + @size), memory the caller
 * reserved early (cma_memblock_reserve), both ends aligned to a
 * pageblock, as rmem_cma_setup makes one from a device tree's
 * reserved-memory node. @order_per_bit and @name as for
 * cma_declare_contiguous_nid. 0, -ENOSPC (no slot left), -EINVAL (not
 * reserved, not aligned, a size of 0), -ENOMEM; no message but the slot's.
 */
int cma_init_reserved_mem(struct cma_mm *mm, cma_phys_t base, uint64_t size,
			  unsigned order_per_bit, const char *name, struct cma **res_cma);
/**
 * cma_area_alloc() - 6.12's cma_alloc, with its no_warn: @count
 * pages aligned to 2^@align pages from @cma, retrying past busy ranges;
 * NULL on failure, said in the log under "6.12" unless @no_warn.
 */
struct cma_page *cma_area_alloc(struct cma_mm *mm, struct cma *cma, unsigned long count,
				unsigned align, bool no_warn);
/** cma_area_release() - 6.12's cma_release: false, changing nothing, for pages not @cma's. */
bool cma_area_release(struct cma_mm *mm, struct cma *cma, const struct cma_page *pages,
		      unsigned long count);

void cma_dma_contiguous_reserve(struct cma_mm *mm, cma_phys_t limit);
int cma_dma_declare_contiguous(struct cma_mm *mm, struct cma_device *dev, uint64_t size,
			       cma_phys_t base, cma_phys_t limit);
struct cma_page *cma_dma_alloc_from_contiguous(struct cma_mm *mm, struct cma_device *dev,
					       int count, unsigned int align);
bool cma_dma_release_from_contiguous(struct cma_mm *mm, struct cma_device *dev,
				     struct cma_page *pages, int count);

/**
 * cma_dma_alloc_coherent() - dma_alloc_coherent() of the machine's
 * architecture (x86 as the CMA v23 x86 patch has it: CMA first unless
 * CMA_GFP_ATOMIC, else the buddy allocator, within the device's coherent
 * mask; ARM: atomic requests from the atomic pool, the rest from CMA
 * only). @dev NULL is the architecture's fallback device: on x86 an ISA
 * device with a 24-bit mask, so only ZONE_DMA (below 16 MiB) serves it. The memory is zeroed, except that
 * ARM's pool does not clear a block again when it is reused.
 * *@dma_handle is the physical address; *@vaddr (may be NULL) the bytes,
 * NULL on a metadata-only machine. 0, -ENOMEM, or -EINVAL for a size of
 * 0, a NULL @dma_handle, or a machine not booted.
 */
int cma_dma_alloc_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_gfp_t gfp, cma_phys_t *dma_handle, void **vaddr);
/**
 * cma_dma_free_coherent() - dma_free_coherent(): give back the buffer at
 * @dma_handle, with the @dev and @size it was allocated with, to where it
 * came from (the atomic pool, @dev's CMA area, or the buddy allocator).
 * A handle this machine never handed out is reported and changes nothing.
 */
void cma_dma_free_coherent(struct cma_mm *mm, struct cma_device *dev, size_t size,
			   cma_phys_t dma_handle);

/* ------------------------------------------------------------------ */
/* Control and observation                                             */
/* ------------------------------------------------------------------ */

/** cma_mm_bind_cpu() - the calling thread's per-CPU page-list slot on @mm. */
void cma_mm_bind_cpu(struct cma_mm *mm, unsigned cpu);
int cma_kswapd_start(struct cma_mm *mm);
void cma_kswapd_stop(struct cma_mm *mm);
unsigned long cma_kswapd_step(struct cma_mm *mm);
/**
 * cma_kswapd_start_polled() - kswapd with no thread: allocations wake it
 * as they would the thread; cma_kswapd_poll() then runs the balancing
 * they asked for, in the caller's thread (deterministic simulations).
 * The wakeup that finds it asleep also calls the sleep ops' wake() with
 * CMA_SLEEP_KSWAPD, so that the host can run it then, as the scheduler
 * runs the woken thread. A sleep of its pass (congestion_wait,
 * reclaim_throttle) calls sleep(CMA_SLEEP_KSWAPD, timeout) instead and
 * ends the pass: the host polls it again when the timeout is over (its
 * return value is not used), and the slow path's pause does not run it
 * meanwhile. So does kswapd_try_to_sleep's HZ/10 after a pass that left
 * the zones balanced, which a wakeup ends early. cma_kswapd_stop() ends
 * it. -EBUSY if kswapd already runs.
 */
int cma_kswapd_start_polled(struct cma_mm *mm);
/** cma_kswapd_poll() - the balancing a wakeup asked for since the last poll; pages freed, or 0. */
unsigned long cma_kswapd_poll(struct cma_mm *mm);
unsigned long cma_try_to_free_pages(struct cma_mm *mm, unsigned long nr, cma_gfp_t gfp);
int cma_compact_memory(struct cma_mm *mm);
/** cma_drain_all_pages() - drain_all_pages(): every per-CPU list back to buddy. */
void cma_drain_all_pages(struct cma_mm *mm);
/**
 * cma_vmstat_update() - what each CPU's vmstat_update does once a second:
 * from 6.7 its per-CPU lists' high decays toward high_min and what they
 * hold above it goes back to buddy (decay_pcp_high). Call it every second
 * of a simulation's time; before 6.7 it does nothing.
 */
void cma_vmstat_update(struct cma_mm *mm);
/**
 * cma_kcompactd_poll() - kcompactd's timeout is over: from 5.9, while
 * kswapd is not running, a node whose free memory lies mostly outside
 * free blocks of the huge page order (fragmentation score above 90 at
 * vm.compaction_proactiveness 20, which the command line's
 * sysctl.vm.compaction_proactiveness=N sets) is compacted proactively.
 * Returns the milliseconds to sleep before the next call: 500, or 32000
 * after a run that left the score no lower; 0 before 5.9, with the
 * sysctl 0, or before boot (no more calls are needed).
 */
unsigned cma_kcompactd_poll(struct cma_mm *mm);

typedef unsigned long (*cma_oom_fn)(void *ctx, struct cma_mm *mm, unsigned order);
void cma_mm_set_oom_handler(struct cma_mm *mm, cma_oom_fn fn, void *ctx);

/*
 * Sleeps on the host's clock. Reclaim and compaction sleep where each
 * kernel does: 3.5-5.15 in congestion_wait() and wait_iff_congested() on
 * the backing device's congestion queue, from 5.16 in reclaim_throttle()
 * on one of four queues. The library has no clock: the host sleeps for it
 * and calls nothing back into the library but its own completions (ending
 * writes, clearing congestion), which may wake the sleeper. Without sleep
 * ops nothing sleeps and no sleep is traced.
 */
enum cma_sleep_reason {
	CMA_SLEEP_CONGESTION,		/* 3.5-5.15: congestion_wqh[BLK_RW_ASYNC] */
	CMA_SLEEP_THROTTLE_WRITEBACK,	/* 5.16+: VMSCAN_THROTTLE_WRITEBACK */
	CMA_SLEEP_THROTTLE_ISOLATED,	/* VMSCAN_THROTTLE_ISOLATED */
	CMA_SLEEP_THROTTLE_NOPROGRESS,	/* VMSCAN_THROTTLE_NOPROGRESS */
	CMA_SLEEP_THROTTLE_CONGESTED,	/* VMSCAN_THROTTLE_CONGESTED */
	CMA_SLEEP_KSWAPD,		/* a polled kswapd: woken, or napping (below) */
	CMA_NR_SLEEP_REASONS,
};
struct cma_mm_sleep_ops {
	/*
	 * schedule_timeout() on queue @why: sleep up to @timeout_us of the
	 * host's time and return the microseconds slept; end early when
	 * wake(@why) is called meanwhile. Called with no library lock held.
	 */
	uint64_t (*sleep)(void *ctx, enum cma_sleep_reason why, uint64_t timeout_us);
	/* wake_up() of queue @why, which has sleepers: end their sleeps now. */
	void (*wake)(void *ctx, enum cma_sleep_reason why);
	/*
	 * cond_resched() (optional): the task reached a scheduling point in
	 * a loop that runs for real time (reclaim's batches, migration's
	 * passes, the page allocator's retries); the host may move its clock
	 * on by the work done since the last one, ending the writes due
	 * meanwhile. Called with no spinlock held.
	 */
	void (*checkpoint)(void *ctx);
};
/**
 * cma_mm_set_sleep_ops() - the host's clock (NULL: none, nothing sleeps).
 * Set it before other threads use the machine; @ops is copied.
 */
void cma_mm_set_sleep_ops(struct cma_mm *mm, const struct cma_mm_sleep_ops *ops, void *ctx);
/**
 * cma_mm_set_congested() - set_bdi_congested()/clear_bdi_congested() of
 * the backing device (swap and files alike, BLK_RW_ASYNC): the host's
 * storage queue says when it is over its congestion mark. Clearing it
 * wakes the congestion queue's sleepers, as clear_bdi_congested() does.
 * 5.16 dropped the device's congestion from reclaim: from 5.16 it is kept
 * but read by nothing.
 */
void cma_mm_set_congested(struct cma_mm *mm, bool congested);

typedef void (*cma_trace_fn)(void *ctx, const char *event, const char *line);
/**
 * cma_mm_set_trace() - the ftrace text consumer: each event set_trace_events
 * lets through is formatted as its TP_printk line and handed to @fn.
 * Safe while other threads cause events: once it returns, the consumer
 * it replaced is not running and is not called again. Not from a trace
 * function or probe (as for the other trace setters): it would wait for
 * itself.
 */
void cma_mm_set_trace(struct cma_mm *mm, cma_trace_fn fn, void *ctx);

/* The library's trace events, in the order available_events lists them. */
enum cma_trace_id {
	CMA_TRACE_CMA_ALLOC_BUSY_RETRY,
	CMA_TRACE_CMA_ALLOC_FINISH,
	CMA_TRACE_CMA_ALLOC_START,
	CMA_TRACE_CMA_LOCK_PAGE,
	CMA_TRACE_CMA_RELEASE,
	CMA_TRACE_CMA_WAIT_ON_PAGE_WRITEBACK,
	CMA_TRACE_MM_COMPACTION_FAST_ISOLATE_FREEPAGES,
	CMA_TRACE_MM_COMPACTION_ISOLATE_FREEPAGES,
	CMA_TRACE_MM_COMPACTION_ISOLATE_MIGRATEPAGES,
	CMA_TRACE_MM_COMPACTION_MIGRATEPAGES,
	CMA_TRACE_MM_MIGRATE_PAGES,
	CMA_TRACE_MM_MIGRATE_PAGES_START,
	CMA_TRACE_MM_PAGE_ALLOC,
	CMA_TRACE_MM_PAGE_ALLOC_EXTFRAG,
	CMA_TRACE_MM_PAGE_FREE,
	CMA_TRACE_MM_VMSCAN_DIRECT_RECLAIM_BEGIN,
	CMA_TRACE_MM_VMSCAN_DIRECT_RECLAIM_END,
	CMA_TRACE_MM_VMSCAN_KSWAPD_SLEEP,
	CMA_TRACE_MM_VMSCAN_KSWAPD_WAKE,
	CMA_TRACE_MM_VMSCAN_LRU_SHRINK_INACTIVE,
	CMA_TRACE_MM_VMSCAN_THROTTLED,
	CMA_TRACE_MM_VMSCAN_WAKEUP_KSWAPD,
	CMA_TRACE_MM_VMSCAN_WRITEPAGE,
	CMA_TRACE_WRITEBACK_CONGESTION_WAIT,
	CMA_TRACE_WRITEBACK_WAIT_IFF_CONGESTED,
	NR_CMA_TRACE_EVENTS
};

/*
 * One event as its tracepoint records it (TP_STRUCT__entry): the id, and
 * the fields of the member the id's comment names. Strings and pages
 * point into the machine and are valid during the probe's call only.
 */
struct cma_trace_event {
	enum cma_trace_id id;
	union {
		/* cma_alloc_start, _busy_retry, _finish, cma_release; page NULL on failure */
		struct {
			const char *name;
			unsigned long pfn;
			const struct cma_page *page;
			unsigned long count;
			unsigned int align;
			int errorno;
		} cma;
		/* cma_wait_on_page_writeback, cma_lock_page */
		struct {
			unsigned long pfn;
			uint64_t waited_ns;
		} writeback_wait;
		/* mm_page_alloc (page NULL on failure), mm_page_free */
		struct {
			const struct cma_page *page;
			unsigned long pfn;
			unsigned int order;
			int migratetype;
			cma_gfp_t gfp_flags;
		} page;
		/* mm_page_alloc_extfrag */
		struct {
			unsigned long pfn;
			unsigned int alloc_order, fallback_order, pageblock_order;
			int alloc_migratetype, fallback_migratetype;
		} extfrag;
		/* mm_compaction_isolate_{migrate,free}pages; the fast one adds the pfns */
		struct {
			unsigned long min_pfn, free_pfn;
			unsigned long nr_scanned, nr_taken;
		} isolate;
		/* mm_compaction_migratepages */
		struct {
			unsigned long nr_migrated, nr_failed;
		} compaction;
		/* mm_migrate_pages, mm_migrate_pages_start (mode and reason only) */
		struct {
			unsigned long nr_succeeded, nr_failed;
			const char *mode, *reason;
		} migrate;
		/* mm_vmscan_direct_reclaim_*, _kswapd_sleep, _kswapd_wake, _wakeup_kswapd */
		struct {
			int zid;
			unsigned int order;
			cma_gfp_t gfp_flags;
			unsigned long nr_reclaimed;
		} reclaim;
		/* mm_vmscan_lru_shrink_inactive */
		struct {
			int zid;
			long nr_scanned, nr_reclaimed;
			int priority;
			bool file;
		} shrink;
		/* mm_vmscan_writepage */
		struct {
			unsigned long pfn;
			bool file;
		} writepage;
		/* mm_vmscan_throttled (5.16): reason VMSCAN_THROTTLE_WRITEBACK, _ISOLATED, ... */
		struct {
			int usec_timeout, usec_delayed;
			const char *reason;
		} throttled;
		/* writeback_congestion_wait, writeback_wait_iff_congested (3.x) */
		struct {
			unsigned int usec_timeout, usec_delayed;
		} congest_waited;
	};
};

typedef void (*cma_trace_probe_fn)(void *ctx, const struct cma_trace_event *ev);
/**
 * cma_mm_set_trace_probe() - register_trace_<event>(): @fn gets each @id
 * event as a record, whatever set_trace_events chose for the text, and
 * nothing is formatted for it. One probe per event: a second replaces the
 * first, NULL removes it. -EINVAL for an unknown @id.
 */
int cma_mm_set_trace_probe(struct cma_mm *mm, enum cma_trace_id id, cma_trace_probe_fn fn, void *ctx);
/**
 * cma_mm_set_trace_events() - what tracing/set_event does: only the named
 * events (separated by spaces or commas) reach the trace function and are
 * formatted; NULL or "" names them all. -EINVAL for an unknown name.
 */
int cma_mm_set_trace_events(struct cma_mm *mm, const char *events);

/** cma_mm_counter() - a /proc/vmstat counter by name; -ENOENT if unknown. */
int cma_mm_counter(struct cma_mm *mm, const char *name, uint64_t *value);

/*
 * The /proc/vmstat events counted where the host's own code stands for
 * the kernel's: its processes' faults (handle_mm_fault) and its storage
 * (submit_bio). The library sees neither a fault's entry nor a bio;
 * cma_swapin() counts its own major fault (do_swap_page's).
 */
enum cma_vm_event {
	CMA_PGFAULT,		/* pgfault: a fault on a page the owner maps */
	CMA_PGMAJFAULT,		/* pgmajfault: a fault that read its page, outside cma_swapin() */
	CMA_PGPGIN,		/* pgpgin: 512-byte sectors submitted to be read */
	CMA_PGPGOUT,		/* pgpgout: 512-byte sectors submitted to be written */
	NR_CMA_VM_EVENTS
};

/**
 * cma_count_vm_events() - count_vm_events(): @delta of @item on this
 * thread's CPU. /proc/vmstat prints pgpgin and pgpgout in kB, half the
 * sectors (vmstat_start()), as cma_mm_counter() reads them. -EINVAL for
 * an unknown @item or before boot, with nothing counted.
 */
int cma_count_vm_events(struct cma_mm *mm, enum cma_vm_event item, unsigned long delta);
/**
 * cma_mm_dirty_limits() - global_dirty_limits(): the dirty background and
 * dirty thresholds in pages, shares (vm.dirty_background_ratio 10 and
 * vm.dirty_ratio 20) of the dirtyable memory as the machine's release
 * counts it now (/proc/vmstat's nr_dirty_background_threshold and
 * nr_dirty_threshold).
 */
void cma_mm_dirty_limits(struct cma_mm *mm, uint64_t *background, uint64_t *dirty);

/*
 * The counters a cost model reads, typed: a request's work, and the
 * background's traffic through the zone and LRU locks. Each is the
 * /proc/vmstat event of the name beside it (cma_mm_counter() reads the
 * same); those counted per zone are summed over the zones, as 4.8's
 * per-node pgscan_direct is.
 */
enum cma_stat_item {
	CMA_STAT_PGMIGRATE_SUCCESS,		/* pgmigrate_success */
	CMA_STAT_COMPACT_MIGRATE_SCANNED,	/* compact_migrate_scanned */
	CMA_STAT_COMPACT_FREE_SCANNED,		/* compact_free_scanned */
	CMA_STAT_COMPACT_ISOLATED,		/* compact_isolated */
	CMA_STAT_CONTIG_MIGRATE_SCANNED,	/* contig_migrate_scanned */
	CMA_STAT_CONTIG_FREE_SCANNED,		/* contig_free_scanned */
	CMA_STAT_COMPACT_SCAN_STEPPED,		/* compact_scan_stepped */
	CMA_STAT_COMPACT_BLOCKS_PASSED,		/* compact_blocks_passed */
	CMA_STAT_PGSCAN_DIRECT,			/* pgscan_direct_dma .. _movable */
	CMA_STAT_PGSTEAL_DIRECT,		/* pgsteal_direct_dma .. _movable */
	CMA_STAT_DRAIN_ALL_PAGES,		/* drain_all_pages */
	CMA_STAT_LRU_ADD_DRAIN_ALL,		/* lru_add_drain_all */
	CMA_STAT_PGMIGRATE_MAPPED_PTES,		/* pgmigrate_mapped_ptes */
	CMA_STAT_PGMIGRATE_TLB_FLUSH,		/* pgmigrate_tlb_flush */
	CMA_STAT_PGALLOC_FRESH,			/* pgalloc_fresh */
	CMA_STAT_CONSOLE_CHARS,			/* console_chars */
	CMA_STAT_CONTIG_RECLAIM_CLEAN,		/* contig_reclaim_clean */
	CMA_STAT_CONTIG_RECLAIM_UNMAPPED_PTES,	/* contig_reclaim_unmapped_ptes */
	CMA_STAT_PGALLOC,			/* pgalloc_dma .. _movable */
	CMA_STAT_PGFREE,			/* pgfree */
	CMA_STAT_LRU_ADD,			/* lru_add */
	CMA_STAT_PGSCAN_KSWAPD,			/* pgscan_kswapd_dma .. _movable */
	CMA_STAT_NR_TLB_REMOTE_FLUSH_RECEIVED,	/* nr_tlb_remote_flush_received */
	NR_CMA_STAT_ITEMS
};

struct cma_mm_stats {
	uint64_t v[NR_CMA_STAT_ITEMS];	/* indexed by enum cma_stat_item */
};

/**
 * cma_mm_stats() - every enum cma_stat_item counter at once, each summed
 * over the CPUs as all_vm_events() does; all zero before boot. -EINVAL
 * for a NULL argument.
 */
int cma_mm_stats(struct cma_mm *mm, struct cma_mm_stats *stats);

struct cma_fault_attr {
	unsigned long space;
	unsigned long interval;
	unsigned long times;
	unsigned probability;
	unsigned min_order;
	bool only_migration;
	unsigned long seed;
};
void cma_fault_inject(struct cma_mm *mm, const struct cma_fault_attr *attr);

#ifdef __cplusplus
}
#endif

#endif /* CMA_CMA_H */
