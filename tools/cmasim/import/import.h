/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmasim import: a machine rebuilt from the /proc files of a running
 * Linux system (a snapshot directory, see cmasim snapshot). Reading the
 * files (import_read.c, import_proc.c), telling each pfn's kind from
 * kpageflags and kpagecount (import_kind.c), building the machine from
 * them (import_build.c) and asking where a contiguous range could be had
 * (import_whatif.c) are apart, each in its file.
 *
 * Every reader returns 0, or -EINVAL after writing to @err the file and
 * what was wrong with it; cmd_import.c turns that into exit status 2.
 */
#ifndef CMASIM_IMPORT_H
#define CMASIM_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cma/cma.h>

#define IMPORT_ERR_MAX		512
#define IMPORT_MAX_ZONES	6	/* DMA, DMA32, Normal, Movable, Device and one more */
#define IMPORT_MAX_ORDERS	16
#define IMPORT_MAX_BANKS	16
#define IMPORT_MAX_FILE		(1ull << 32)	/* kpageflags of 512 GiB of RAM */
#define IMPORT_KERNEL_NEWEST	"6.12"	/* the profile a Linux 6.x zoneinfo is read with */

/* The pageblock types pagetypeinfo counts, in enum cma_migratetype order. */
enum { IMPORT_BLOCK_TYPES = CMA_MIGRATE_TYPES };

struct import_zone {
	char name[16];
	unsigned long start_pfn, spanned, present, managed;
	bool has_managed;			/* zoneinfo has the line (3.11 on) */
	unsigned long free;			/* zoneinfo's "pages free" */
	unsigned long pcp;			/* zoneinfo's pagesets: free pages on per-CPU lists */
	unsigned long buddy[IMPORT_MAX_ORDERS];	/* buddyinfo: free blocks per order */
	unsigned long blocks[IMPORT_BLOCK_TYPES];	/* pagetypeinfo: pageblocks per type */
	bool has_buddy, has_blocks;
};

struct snapshot {
	const char *kernel;		/* IMPORT_KERNEL_NEWEST (a 6.x zoneinfo) or "3.5" */
	struct import_zone zones[IMPORT_MAX_ZONES];
	unsigned nr_zones;
	unsigned nr_orders;		/* buddyinfo's columns */
	unsigned pageblock_order;	/* pagetypeinfo's "Pages per block" */
	struct cma_bank banks[IMPORT_MAX_BANKS];	/* iomem's System RAM */
	unsigned nr_banks;
	uint64_t *flags;		/* kpageflags, one word per pfn */
	uint64_t *count;		/* kpagecount */
	unsigned long nr_pfns;
	uint64_t swap_bytes;		/* meminfo's SwapTotal */
	char cmdline[1024];		/* "" when the file is absent */
	char release[32];		/* /proc/version's release, digits and dots ("6.18.44"); "" without */
};

/* ---- import_read.c: the files ---- */

/*
 * The whole of DIR/NAME, or of DIR/NAME.xz decompressed, into *@buf
 * (NUL-terminated, *@len bytes before it): 0; -ENOENT when neither
 * exists; -EINVAL when it cannot be read or decompressed (@err says so).
 */
int import_read_file(const char *dir, const char *name, char **buf, size_t *len, char *err,
		     size_t errlen);
/* Read every file of the snapshot in @dir into @s. */
int snapshot_read(const char *dir, struct snapshot *s, char *err, size_t errlen);
void snapshot_free(struct snapshot *s);

/* ---- import_proc.c: the text files, from memory ---- */

int parse_zoneinfo(const char *text, struct snapshot *s, char *err, size_t errlen);
int parse_buddyinfo(const char *text, struct snapshot *s, char *err, size_t errlen);
int parse_pagetypeinfo(const char *text, struct snapshot *s, char *err, size_t errlen);
int parse_iomem(const char *text, struct snapshot *s, char *err, size_t errlen);
int parse_meminfo(const char *text, struct snapshot *s, char *err, size_t errlen);
int parse_version(const char *text, struct snapshot *s, char *err, size_t errlen);
/* The zone @name ("Normal"), or NULL. */
struct import_zone *snapshot_zone(struct snapshot *s, const char *name);

/* ---- import_kind.c: what each pfn holds ---- */

enum page_kind {
	PK_HOLE,		/* no struct page, or outside the banks */
	PK_FREE,		/* in a free buddy block, or on a per-CPU list */
	PK_ANON,
	PK_FILE,		/* clean page cache */
	PK_FILE_DIRTY,		/* dirty or under writeback */
	PK_THP,			/* a transparent huge page's page */
	PK_MLOCKED,		/* mlocked or unevictable */
	PK_SLAB,
	PK_PGTABLE,
	PK_HUGETLB,
	PK_KERNEL,		/* allocated, none of the above (vmalloc, stacks, buffers) */
	PK_RESERVED,		/* PG_reserved: memblock, firmware, the kernel image */
	PK_UNINIT,		/* present, not managed, no flags: struct page not initialised yet (deferred) */
	NR_PAGE_KINDS
};

extern const char *const page_kind_names[NR_PAGE_KINDS];

/* Kinds the kernel cannot move out of a range, whatever it tries. */
static inline bool page_kind_unmovable(enum page_kind k)
{
	return k >= PK_SLAB;
}

/* Present pages outside the zone's managed count: never the buddy allocator's. */
static inline bool page_kind_unmanaged(enum page_kind k)
{
	return k == PK_RESERVED || k == PK_UNINIT;
}

struct page_kinds {
	uint8_t *kind;			/* enum page_kind per pfn */
	uint8_t *order;			/* a free block's or compound page's order at its head, else 0 */
	uint8_t *head;			/* 1 at the first pfn of a free block or compound page */
	uint8_t *mapcount;		/* kpagecount, at most 255 */
	unsigned long nr_pfns;
	unsigned long total[NR_PAGE_KINDS];
};

/*
 * Each pfn's kind: free blocks rebuilt from their KPF_BUDDY heads (the
 * order is the largest aligned run of free pages after the head),
 * compound pages from their head and tails, and the pages a zone has
 * present but not managed nor reserved, not initialised (PK_UNINIT).
 * @max_order: orders 0..max_order-1.
 */
int page_kinds_classify(const struct snapshot *s, unsigned max_order, struct page_kinds *pk,
			char *err, size_t errlen);
void page_kinds_free(struct page_kinds *pk);

/* ---- import_build.c: the machine ---- */

#define IMPORT_CHECK_PERCENT	3	/* how far a zone's free pages may be from the kernel's */

/* One zone's free pages, the kernel's against the imported machine's (import_check.c). */
struct import_zone_check {
	unsigned long buddy;		/* by the snapshot's buddyinfo */
	unsigned long pcp;		/* on its per-CPU lists, by zoneinfo's pagesets */
	unsigned long imported;		/* by the imported machine's buddyinfo */
	double percent;			/* imported against buddy + pcp; INFINITY from none */
	bool off;			/* beyond IMPORT_CHECK_PERCENT */
};

struct import_check {
	struct import_zone_check zones[IMPORT_MAX_ZONES];
	bool off;			/* some zone is */
};

struct import_machine {
	struct cma_mm *mm;
	const char *kernel;		/* its profile */
	bool kernel_given;		/* by --kernel, not by zoneinfo's layout */
	char release[32];		/* the snapshot's kernel release, "" when unknown */
	bool contig_pages;		/* the profile has alloc_contig_pages() (its contig_pages switch) */
	struct import_zone zones[IMPORT_MAX_ZONES];	/* the snapshot's */
	unsigned nr_zones;
	unsigned long pageblock_pages;
	struct page_kinds pk;
	unsigned long blocks_set[IMPORT_MAX_ZONES][IMPORT_BLOCK_TYPES];
	unsigned long unplaced;		/* pages in use the machine had in use already (its own boot's) */
	unsigned long own_reserved;	/* pages the library reserved at boot, let go again */
	struct import_check check;	/* its free pages against the snapshot's */
};

/*
 * A booted x86-64 machine of @s's banks and zones under @kernel (NULL:
 * the snapshot's), every pfn placed as @s has it, and checked against
 * @s (im->check). 0, -EINVAL (@err says why), or -ENOMEM / -EIO when the
 * library refused.
 */
int import_build(const struct snapshot *s, const char *kernel, struct import_machine *im,
		 char *err, size_t errlen);
void import_machine_free(struct import_machine *im);
/* "kernel 6.18.44 read with the 6.12 profile, the newest modelled", or what is known, into @buf. */
void import_kernel_said(const struct import_machine *im, char *buf, size_t len);

/* ---- import_check.c: the machine's free pages against the kernel's ---- */

/* Fill im->check from @s and the machine's buddyinfo: 0 or -ENOMEM / -EIO. */
int import_check(struct import_machine *im, const struct snapshot *s);
/* The comparison, a line per zone, as text. */
void import_check_table(const struct import_machine *im, FILE *out);
/* The sentence saying which zones are off and by how much (no newline); only when im->check.off. */
void import_check_warning(const struct import_machine *im, FILE *out);

/* ---- import_whatif.c: could SIZE be had, where, at what cost ---- */

struct whatif_range {
	unsigned long start_pfn, nr_pages;
	bool found;
	unsigned long free, migrate, reclaim, unmovable;	/* pages of the range */
	unsigned long mapped;		/* of those to migrate, mapped in a process */
	uint64_t ns;			/* predicted time */
	unsigned tried;			/* alloc_contig_pages: ranges tried before it */
	uint64_t tried_scanned;		/* pages its failed tries looked at */
};

struct whatif {
	uint64_t bytes;
	bool at_set;
	cma_phys_t at;			/* SIZE@ADDR */
	struct whatif_range best;	/* fewest pages to move, none unmovable (or at @at) */
	struct whatif_range kernel;	/* alloc_contig_pages' choice, if the profile has it */
	unsigned long ranges, blocked;	/* candidate ranges, and those with an unmovable page */
	unsigned long unmovable_pages;	/* in the candidate ranges */
};

/* "1G", "512M@0x100000000" into @w; -EINVAL after writing why to @err. */
int whatif_parse(const char *arg, struct whatif *w, char *err, size_t errlen);
/* Answer @w on @im's machine, and alloc_contig_pages' choice if its profile has that. */
int whatif_answer(const struct import_machine *im, struct whatif *w, char *err, size_t errlen);
void whatif_print(const struct import_machine *im, const struct whatif *w, FILE *out);

/* ---- import_report.c ---- */

/* The HTML page of @im from snapshot @dir with @nr_whatif answers: 0 or -errno. */
int import_report_html(const struct import_machine *im, const char *dir, const struct whatif *w,
		       unsigned nr_whatif, FILE *out);

#endif
