// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ops: the libFuzzer target that reads its input as a program of
 * libcma calls and runs it on a small machine, checking the machine after
 * every call.
 *
 * The first byte picks a machine shape (memory layout, orders, CMA areas)
 * with its low 7 bits and the kernel profile with its top bit (0: 3.5,
 * 1: 6.12, so that older inputs keep their meaning; fuzz_ops_releases,
 * this harness built with FUZZ_OPS_RELEASES, picks one of the releases
 * between them with the rest of the byte), the next few an
 * optional early memblock reservation; every later group
 * of bytes is one call: allocations and frees of every kind, pins, movable
 * pages with an owner whose table the migrate callback switches,
 * contiguous ranges, DMA areas, coherent buffers (ARM's atomic pool
 * among them), isolation and its undo, compaction,
 * reclaim, kswapd steps, drains, fault injection, and calls that are
 * deliberately wrong (frees of pages that are free or are tails, releases
 * of pages no area handed out, ranges outside memory).
 *
 * The one idea: the harness keeps its own map of which object holds each
 * pfn, and the library must agree with it. Abort (a finding) when
 *   - cma_mm_verify() fails after a call;
 *   - a call hands out a pfn the map says is live (double allocation, a
 *     contiguous range over a pinned page, a migration target in use);
 *   - bytes written into a live page change (migration lost data);
 *   - a request for a zone gets a page above it, a DMA allocation lies
 *     outside its area or off its alignment;
 *   - a call that must be refused succeeds, or returns an error the API
 *     does not name;
 *   - a pageblock is left ISOLATE that the harness did not isolate, one
 *     it did isolate is not ISOLATE, or a pageblock changes in or out of
 *     MIGRATE_CMA;
 *   - after everything is freed, the machine's free pages differ from
 *     what boot left, or the owner counters are not zero.
 * Each failure prints what was expected, what was found, the last calls
 * and the tail of the machine's log (set FUZZ_OPS_VERBOSE=1 to see every
 * call as it runs).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cma/cma.h>
#include "mm/internal.h"	/* only to find the pages boot allocated */

#define MAX_OBJS	192
#define MAX_OPS		256
#define NR_DEVS		2	/* 0: NULL (the default area), 1: "fuzzdev" */
#define RING		24	/* calls remembered for a failure report */
#define LOG_TAIL	4096	/* bytes of the machine's log in a failure report */
#define HELD_BY_BOOT	0xff	/* in the pfn map: allocated at boot (ARM's atomic pool) */

_Static_assert(MAX_OBJS < HELD_BY_BOOT, "the pfn map holds slot + 1 in a byte");

/* ---- machine shapes ---- */

struct shape {
	const char *name;
	struct cma_bank banks[2];
	unsigned nr_banks;
	enum cma_arch arch;
	unsigned max_order, pageblock_order, nr_cpus;
	cma_phys_t zone_dma_end, zone_dma32_end, highmem_start;
	const char *cmdline, *kconfig;
	uint64_t swap_bytes;
	uint64_t dev_area;	/* bytes of fuzzdev's own area; 0: it uses the default */
	unsigned max_align;	/* CONFIG_CMA_ALIGNMENT */
};

#define MiB (1ull << 20)

static const struct shape shapes[] = {
	{
		.name = "x86-32M", .banks = { { 0, 32 * MiB } }, .nr_banks = 1,
		.arch = CMA_ARCH_X86, .max_order = 11, .pageblock_order = 9, .nr_cpus = 2,
		.zone_dma_end = 16 * MiB, .cmdline = "cma=8M", .swap_bytes = 4 * MiB,
		.max_align = 8,
	},
	{
		/* the PC's BIOS hole, a device area beside the default one */
		.name = "x86-hole", .banks = { { 0, 0x9f000 }, { 1 * MiB, 23 * MiB } }, .nr_banks = 2,
		.arch = CMA_ARCH_X86, .max_order = 9, .pageblock_order = 7, .nr_cpus = 1,
		.zone_dma_end = 16 * MiB, .cmdline = "console=ttyS0 cma=4M", .swap_bytes = 2 * MiB,
		.dev_area = 2 * MiB, .max_align = 8,
	},
	{
		/* lowmem and highmem, no swap, a small CONFIG_CMA_ALIGNMENT */
		.name = "arm-highmem", .banks = { { 0x40000000, 24 * MiB } }, .nr_banks = 1,
		.arch = CMA_ARCH_ARM, .max_order = 10, .pageblock_order = 8, .nr_cpus = 2,
		.highmem_start = 0x40000000 + 16 * MiB, .cmdline = "cma=4M",
		.kconfig = "CONFIG_CMA=y\nCONFIG_CMA_ALIGNMENT=4\n", .dev_area = 2 * MiB,
		.max_align = 4,
	},
	{
		/* small orders, three CPUs, the area sized by percentage */
		.name = "tiny", .banks = { { 0, 8 * MiB } }, .nr_banks = 1,
		.arch = CMA_ARCH_X86, .max_order = 8, .pageblock_order = 6, .nr_cpus = 3,
		.zone_dma32_end = 4 * MiB,
		.kconfig = "CONFIG_CMA_SIZE_SEL_PERCENTAGE=y\nCONFIG_CMA_SIZE_PERCENTAGE=25\n",
		.swap_bytes = 1 * MiB, .max_align = 8,
	},
};

#define NR_SHAPES (sizeof(shapes) / sizeof(shapes[0]))

#ifdef FUZZ_OPS_RELEASES
/* fuzz_ops_releases: a release where profile.h's switches change, between the two ends */
static const char *const releases[] = {
	"3.7", "3.8", "3.10", "3.13", "3.15", "3.16", "3.17", "3.18", "4.0", "4.1", "4.4", "4.9",
	"4.11", "4.14", "4.19", "5.0", "5.4", "5.8", "5.10", "5.15", "5.19", "6.1", "6.3", "6.6",
	"6.10",
};
#define NR_RELEASES (sizeof(releases) / sizeof(releases[0]))
#endif

/* ---- the harness's view of the machine ---- */

enum obj_kind { OBJ_NONE, OBJ_PAGES, OBJ_MOVABLE, OBJ_CONTIG, OBJ_DMA, OBJ_COHERENT };

static const char *const kind_names[] = { "none", "pages", "movable", "contig", "dma", "coherent" };

struct obj {
	enum obj_kind kind;
	uint16_t gen;		/* bumped when the slot is reused; part of the owner index */
	bool orphan;		/* freed by its holder while pinned: lives until the last unpin */
	struct cma_page *page;	/* first page; a movable one moves when migrated */
	unsigned long pfn, nr;
	unsigned order;		/* pages, movable */
	cma_gfp_t gfp;
	int pins;
	int dev;		/* dma, coherent: which device */
	bool in_pool;		/* coherent: from ARM's atomic pool (pages boot allocated) */
	size_t size;		/* coherent: bytes asked for */
	bool anon, dirty;
	int refuse_migrate, refuse_reclaim, fail_writeback;	/* callback answers; 0: accept */
	uint64_t tag;		/* written into the first and last page */
};

struct fuzz {
	struct cma_mm *mm;
	const struct shape *shape;
	const char *kernel;	/* the kernel profile */
	struct cma_device *devs[NR_DEVS];
	struct cma *areas[NR_DEVS];
	unsigned long base_pfn, end_pfn, nr_pfns, pb_pages, nr_pbs, max_order_pages;
	unsigned page_shift;
	uint8_t *owned;		/* per pfn: slot + 1 of the object holding it, 0: none */
	uint8_t *pool_owned;	/* per pfn of the atomic pool: slot + 1 of a coherent buffer in it */
	uint8_t *iso_saved;	/* per pageblock: type + 1 it had when we isolated it, 0: not ours */
	uint8_t *boot_cma;	/* per pageblock: MIGRATE_CMA after boot (2: a hole) */
	uint8_t *limbo;		/* per pfn: of a movable page freed since the pagevecs were drained */
	struct obj objs[MAX_OBJS];
	uint64_t free_at_boot, next_tag;
	bool oom_frees;
	unsigned long trace_events;
	FILE *null;

	const uint8_t *in;
	size_t len;
	unsigned op;
	char ring[RING][160];
};

static FILE *report_out;	/* a dup of stderr, kept when libFuzzer closes fd 2 */
static bool verbose;

/* ---- reading the input ---- */

static unsigned in8(struct fuzz *fz)
{
	if (!fz->len)
		return 0;
	fz->len--;
	return *fz->in++;
}

static unsigned in16(struct fuzz *fz)
{
	unsigned lo = in8(fz);

	return lo | in8(fz) << 8;
}

/* ---- reporting ---- */

__attribute__((format(printf, 2, 3)))
static void note(struct fuzz *fz, const char *fmt, ...)
{
	char *line = fz->ring[fz->op % RING];
	va_list ap;
	int n = snprintf(line, sizeof(fz->ring[0]), "op %3u: ", fz->op);

	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(fz->ring[0]) - (size_t)n, fmt, ap);
	va_end(ap);
	if (verbose)
		fprintf(report_out, "%s\n", line);
}

static void print_log_tail(struct fuzz *fz)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	cma_mm_dmesg(fz->mm, f);
	fclose(f);
	fprintf(report_out, "---- machine log (last %d bytes) ----\n%s\n", LOG_TAIL,
		len > LOG_TAIL ? buf + len - LOG_TAIL : buf);
	free(buf);
}

__attribute__((format(printf, 2, 3), noreturn))
static void fail(struct fuzz *fz, const char *fmt, ...)
{
	va_list ap;

	fprintf(report_out, "\nfuzz_ops: FAILED on machine %s at op %u: ", fz->shape->name, fz->op);
	va_start(ap, fmt);
	vfprintf(report_out, fmt, ap);
	va_end(ap);
	fprintf(report_out, "\n---- last calls ----\n");
	for (unsigned i = fz->op + 1 > RING ? fz->op + 1 - RING : 0; i <= fz->op; i++)
		if (fz->ring[i % RING][0])
			fprintf(report_out, "%s\n", fz->ring[i % RING]);
	print_log_tail(fz);
	fflush(report_out);
	abort();
}

/* ---- the pfn map and the bytes of live pages ---- */

static bool pfn_in_machine(struct fuzz *fz, unsigned long pfn)
{
	return pfn >= fz->base_pfn && pfn < fz->end_pfn;
}

static int obj_slot(struct fuzz *fz, const struct obj *o)
{
	return (int)(o - fz->objs);
}

/*
 * Record that @o now holds [pfn, pfn + nr): none of it may be held
 * already. A buffer from the atomic pool must lie in pages boot gave the
 * pool, and is mapped apart from the rest.
 */
static void claim_pfns(struct fuzz *fz, struct obj *o, unsigned long pfn, unsigned long nr,
		       const char *how)
{
	for (unsigned long p = pfn; p < pfn + nr; p++) {
		uint8_t *s;

		if (!pfn_in_machine(fz, p))
			fail(fz, "%s gave pfn %#lx, outside the machine [%#lx, %#lx)", how, p,
			     fz->base_pfn, fz->end_pfn);
		s = &fz->owned[p - fz->base_pfn];
		if (o->in_pool) {
			if (*s != HELD_BY_BOOT)
				fail(fz, "%s gave pfn %#lx from the atomic pool, but it is no pool page", how, p);
			s = &fz->pool_owned[p - fz->base_pfn];
		}
		if (*s == HELD_BY_BOOT)
			fail(fz, "%s gave pfn %#lx, which boot allocated (the atomic pool)", how, p);
		if (*s) {
			struct obj *held = &fz->objs[*s - 1];

			fail(fz, "%s gave pfn %#lx, which object %d (%s, pfn %#lx + %lu%s) still holds",
			     how, p, *s - 1, kind_names[held->kind], held->pfn, held->nr,
			     held->orphan ? ", pinned after free" : "");
		}
		*s = (uint8_t)(obj_slot(fz, o) + 1);
		fz->limbo[p - fz->base_pfn] = 0;
	}
}

static void release_pfns(struct fuzz *fz, struct obj *o, unsigned long pfn, unsigned long nr)
{
	uint8_t *map = o->in_pool ? fz->pool_owned : fz->owned;

	for (unsigned long p = pfn; p < pfn + nr; p++) {
		if (map[p - fz->base_pfn] != obj_slot(fz, o) + 1)
			fail(fz, "harness bookkeeping: pfn %#lx is not object %d's", p, obj_slot(fz, o));
		map[p - fz->base_pfn] = 0;
	}
}

/* The object holding @pfn; NULL if none or boot (*boot then true). */
static struct obj *holder(struct fuzz *fz, unsigned long pfn, bool *boot)
{
	uint8_t s = pfn_in_machine(fz, pfn) ? fz->owned[pfn - fz->base_pfn] : 0;

	*boot = s == HELD_BY_BOOT;
	return s && s != HELD_BY_BOOT ? &fz->objs[s - 1] : NULL;
}

static uint64_t *page_word(struct fuzz *fz, struct cma_page *first, unsigned long i)
{
	return cma_page_address(fz->mm, cma_page_nth(fz->mm, first, i));
}

static void write_tags(struct fuzz *fz, struct obj *o)
{
	*page_word(fz, o->page, 0) = o->tag;
	if (o->nr > 1)
		*page_word(fz, o->page, o->nr - 1) = o->tag ^ (o->nr - 1);
}

/* The tags of @o as they should read at @first (its pages, or a migration target). */
static void check_tags_at(struct fuzz *fz, struct obj *o, struct cma_page *first, const char *when)
{
	uint64_t head = *page_word(fz, first, 0), tail = o->tag ^ (o->nr - 1);

	if (head != o->tag)
		fail(fz, "%s: object %d (%s) at pfn %#lx reads %#llx in its first page, wrote %#llx",
		     when, obj_slot(fz, o), kind_names[o->kind], cma_page_to_pfn(fz->mm, first),
		     (unsigned long long)head, (unsigned long long)o->tag);
	if (o->nr > 1 && *page_word(fz, first, o->nr - 1) != tail)
		fail(fz, "%s: object %d (%s) at pfn %#lx: its last page lost its bytes", when,
		     obj_slot(fz, o), kind_names[o->kind], cma_page_to_pfn(fz->mm, first));
}

/* ---- objects ---- */

static struct obj *free_slot(struct fuzz *fz)
{
	for (int i = 0; i < MAX_OBJS; i++)
		if (fz->objs[i].kind == OBJ_NONE)
			return &fz->objs[i];
	return NULL;
}

/* The @pick-th object (mod the number) that @want accepts, or NULL. */
static struct obj *pick_obj(struct fuzz *fz, unsigned pick, bool (*want)(const struct obj *))
{
	int n = 0;

	for (int i = 0; i < MAX_OBJS; i++)
		n += fz->objs[i].kind != OBJ_NONE && want(&fz->objs[i]);
	if (!n)
		return NULL;
	pick %= (unsigned)n;
	for (int i = 0; i < MAX_OBJS; i++)
		if (fz->objs[i].kind != OBJ_NONE && want(&fz->objs[i]) && !pick--)
			return &fz->objs[i];
	return NULL;
}

/* Filters for pick_obj(). */
static bool is_live(const struct obj *o)
{
	return !o->orphan;
}

static bool is_pinnable(const struct obj *o)
{
	return !o->orphan && (o->kind == OBJ_PAGES || o->kind == OBJ_MOVABLE);
}

static bool is_pinned(const struct obj *o)
{
	return o->pins > 0;
}

static bool is_movable(const struct obj *o)
{
	return !o->orphan && o->kind == OBJ_MOVABLE;
}

static bool is_dma(const struct obj *o)
{
	return o->kind == OBJ_DMA;
}

static bool is_contig(const struct obj *o)
{
	return o->kind == OBJ_CONTIG;
}


static bool is_oom_victim(const struct obj *o)
{
	return !o->orphan && !o->pins && o->kind == OBJ_PAGES;
}

static struct obj *new_obj(struct fuzz *fz, struct obj *o, enum obj_kind kind,
			   struct cma_page *page, unsigned long nr, const char *how)
{
	uint16_t gen = (uint16_t)(o->gen + 1);
	bool in_pool = o->in_pool;

	memset(o, 0, sizeof(*o));
	o->gen = gen;
	o->in_pool = in_pool;	/* set by the caller before the pages are claimed */
	o->kind = kind;
	o->page = page;
	o->pfn = cma_page_to_pfn(fz->mm, page);
	o->nr = nr;
	o->tag = 0x5eed000000000000ull ^ (++fz->next_tag << 8) ^ (uint64_t)obj_slot(fz, o);
	claim_pfns(fz, o, o->pfn, nr, how);
	return o;
}

/*
 * A freed movable page may still sit in a pagevec, which holds a
 * reference: the page is not free until the pagevec drains, so it is no
 * target for a free that must be refused.
 */
static void drop_obj(struct fuzz *fz, struct obj *o)
{
	if (o->kind == OBJ_MOVABLE)
		memset(fz->limbo + (o->pfn - fz->base_pfn), 1, o->nr);
	release_pfns(fz, o, o->pfn, o->nr);
	o->kind = OBJ_NONE;
	o->in_pool = false;
	o->page = NULL;
}

/* The live movable object @index names, NULL if it is gone (freed, reused, orphaned). */
static struct obj *owner_obj(struct fuzz *fz, uint64_t index)
{
	uint64_t slot = index & 0xffff;
	struct obj *o;

	if (slot >= MAX_OBJS)
		return NULL;
	o = &fz->objs[slot];
	if (o->kind != OBJ_MOVABLE || o->orphan || o->gen != (uint16_t)(index >> 16))
		return NULL;
	return o;
}

/* ---- the owner of movable pages ---- */

static int owner_migrate(void *owner, uint64_t index, struct cma_page *from, struct cma_page *to)
{
	struct fuzz *fz = owner;
	struct obj *o = owner_obj(fz, index);
	unsigned long to_pfn;

	if (!o)
		return -EAGAIN;
	if (o->page != from)
		fail(fz, "migrate callback for object %d moves pfn %#lx, but the object is at pfn %#lx",
		     obj_slot(fz, o), cma_page_to_pfn(fz->mm, from), o->pfn);
	if (o->pins)
		fail(fz, "migrate callback for object %d at pfn %#lx, which holds %d pins",
		     obj_slot(fz, o), o->pfn, o->pins);
	if (o->refuse_migrate)
		return o->refuse_migrate;
	check_tags_at(fz, o, to, "migration target");
	to_pfn = cma_page_to_pfn(fz->mm, to);
	release_pfns(fz, o, o->pfn, o->nr);
	claim_pfns(fz, o, to_pfn, o->nr, "a migration target");
	o->page = to;
	o->pfn = to_pfn;
	return 0;
}

static int owner_reclaim(void *owner, uint64_t index, struct cma_page *page)
{
	struct fuzz *fz = owner;
	struct obj *o = owner_obj(fz, index);

	if (!o)
		return -EAGAIN;
	if (o->page != page)
		fail(fz, "reclaim callback for object %d names pfn %#lx, the object is at pfn %#lx",
		     obj_slot(fz, o), cma_page_to_pfn(fz->mm, page), o->pfn);
	if (o->pins)
		fail(fz, "reclaim callback for object %d at pfn %#lx, which holds %d pins",
		     obj_slot(fz, o), o->pfn, o->pins);
	if (o->refuse_reclaim)
		return o->refuse_reclaim;
	check_tags_at(fz, o, page, "reclaim");
	drop_obj(fz, o);
	return 0;
}

static int owner_writeback(void *owner, uint64_t index, struct cma_page *page)
{
	struct fuzz *fz = owner;
	struct obj *o = owner_obj(fz, index);

	if (!o)
		return 0;
	if (o->page != page)
		fail(fz, "writeback callback for object %d names pfn %#lx, the object is at pfn %#lx",
		     obj_slot(fz, o), cma_page_to_pfn(fz->mm, page), o->pfn);
	if (o->fail_writeback)
		return o->fail_writeback;
	o->dirty = false;
	return 0;
}

static const struct cma_owner_ops anon_ops = {
	.migrate = owner_migrate, .reclaim = owner_reclaim, .writeback = owner_writeback, .anon = true,
};
static const struct cma_owner_ops file_ops = {
	.migrate = owner_migrate, .reclaim = owner_reclaim, .writeback = owner_writeback,
};

/* The OOM killer: free unpinned unmovable objects, as killing their process would. */
static unsigned long oom_kill(void *ctx, struct cma_mm *mm, unsigned order)
{
	struct fuzz *fz = ctx;
	unsigned long freed = 0;
	struct obj *o;

	if (!fz->oom_frees)
		return 0;
	while (freed < (1ul << order) && (o = pick_obj(fz, 0, is_oom_victim))) {
		check_tags_at(fz, o, o->page, "oom kill");
		cma_free_pages(mm, o->page, o->order);
		freed += o->nr;
		drop_obj(fz, o);
	}
	return freed;
}

static void count_trace(void *ctx, const char *event, const char *line)
{
	struct fuzz *fz = ctx;

	fz->trace_events++;
	if (!event || !line)
		fail(fz, "trace callback without an event name or line");
}

/* ---- decoding arguments ---- */

static cma_gfp_t decode_gfp(struct fuzz *fz)
{
	static const cma_gfp_t base[] = {
		CMA_GFP_KERNEL, CMA_GFP_ATOMIC, CMA_GFP_USER, CMA_GFP_HIGHUSER,
		CMA_GFP_HIGHUSER_MOVABLE, CMA_GFP_KERNEL | CMA_GFP_DMA, CMA_GFP_KERNEL | CMA_GFP_DMA32,
		CMA_GFP_ATOMIC | CMA_GFP_DMA, CMA_GFP_KERNEL | CMA_GFP_RECLAIMABLE, CMA_GFP_NOIO,
		CMA_GFP_KERNEL | CMA_GFP_MOVABLE, CMA_GFP_ATOMIC | CMA_GFP_MOVABLE, 0,
	};
	static const cma_gfp_t mods[] = {
		CMA_GFP_NOWARN, CMA_GFP_ZERO, CMA_GFP_COLD, CMA_GFP_NORETRY, CMA_GFP_HARDWALL,
		CMA_GFP_HIGH, CMA_GFP_HIGHMEM, CMA_GFP_DMA32,
	};
	unsigned b = in8(fz), m = in8(fz);
	cma_gfp_t gfp = base[b % (sizeof(base) / sizeof(base[0]))];

	for (unsigned i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
		if (m & (1u << i) && (i < 5 || b >= 0xf0))
			gfp |= mods[i];
	/* MOVABLE | RECLAIMABLE is no migrate type (the kernel BUGs on it) */
	if ((gfp & CMA_GFP_MOVABLE) && (gfp & CMA_GFP_RECLAIMABLE))
		gfp &= ~CMA_GFP_RECLAIMABLE;
	return gfp;
}

static unsigned decode_order(struct fuzz *fz, unsigned limit)
{
	unsigned b = in8(fz);

	return b & 0x80 ? b % limit : b % (limit < 4 ? limit : 4);
}

/* ---- the zone a gfp may use ---- */

/* End (exclusive, in pfns) of the highest zone @gfp may take pages from. */
static unsigned long gfp_zone_end(struct fuzz *fz, cma_gfp_t gfp)
{
	const struct shape *s = fz->shape;
	unsigned shift = fz->page_shift;

	if ((gfp & CMA_GFP_DMA) && s->zone_dma_end)
		return s->zone_dma_end >> shift;
	if (!(gfp & CMA_GFP_DMA) && (gfp & CMA_GFP_DMA32) && s->zone_dma32_end)
		return s->zone_dma32_end >> shift;
	if (!(gfp & (CMA_GFP_DMA | CMA_GFP_DMA32)) && (gfp & CMA_GFP_HIGHMEM))
		return fz->end_pfn;
	if (s->highmem_start)
		return s->highmem_start >> shift;
	return fz->end_pfn;
}

static void check_alloc_zone(struct fuzz *fz, struct obj *o, const char *what)
{
	unsigned long end = gfp_zone_end(fz, o->gfp);

	if (o->pfn + o->nr > end)
		fail(fz, "%s gfp %#x order %u got pfn %#lx + %lu, above its highest zone (ends at pfn %#lx)",
		     what, o->gfp, o->order, o->pfn, o->nr, end);
}

static void check_zeroed(struct fuzz *fz, struct obj *o)
{
	static const uint8_t zero[256];
	const uint8_t *p;

	if (!(o->gfp & CMA_GFP_ZERO))
		return;
	for (unsigned long i = 0; i < o->nr; i += o->nr > 1 ? o->nr - 1 : 1) {
		p = (const uint8_t *)page_word(fz, o->page, i);
		if (memcmp(p, zero, sizeof(zero)))
			fail(fz, "__GFP_ZERO allocation at pfn %#lx: page %lu is not zeroed", o->pfn, i);
	}
}

/* ---- pageblocks ---- */

static int pb_type(struct fuzz *fz, unsigned long pb)
{
	unsigned long pfn = fz->base_pfn + pb * fz->pb_pages;

	for (unsigned long i = 0; i < fz->pb_pages; i++) {
		int mt = cma_pageblock_migratetype(fz->mm, pfn + i);

		if (mt >= 0)
			return mt;
	}
	return -1;	/* a hole */
}

/*
 * The isolation and CMA rules, after every call: our ISOLATE blocks are
 * still ISOLATE, no other block is, and none moves in or out of CMA.
 */
static void check_pageblocks(struct fuzz *fz, const char *when)
{
	for (unsigned long pb = 0; pb < fz->nr_pbs; pb++) {
		int mt = pb_type(fz, pb);
		unsigned long pfn = fz->base_pfn + pb * fz->pb_pages;

		if (mt < 0)
			continue;
		if (fz->iso_saved[pb] && mt != CMA_MIGRATE_ISOLATE)
			fail(fz, "%s: pageblock at pfn %#lx, isolated by the harness, is now type %d: someone else undid the isolation",
			     when, pfn, mt);
		if (!fz->iso_saved[pb] && mt == CMA_MIGRATE_ISOLATE)
			fail(fz, "%s: pageblock at pfn %#lx is left MIGRATE_ISOLATE", when, pfn);
		if (mt != CMA_MIGRATE_ISOLATE && (mt == CMA_MIGRATE_CMA) != fz->boot_cma[pb])
			fail(fz, "%s: pageblock at pfn %#lx is type %d; at boot it was %sMIGRATE_CMA",
			     when, pfn, mt, fz->boot_cma[pb] ? "" : "not ");
	}
}

/* ---- the calls ---- */

static void op_alloc_pages(struct fuzz *fz)
{
	cma_gfp_t gfp = decode_gfp(fz);
	unsigned order = decode_order(fz, fz->shape->max_order);
	struct obj *o = free_slot(fz);
	struct cma_page *page;

	note(fz, "alloc_pages(gfp %#x, order %u)", gfp, order);
	if (!o)
		return;
	page = cma_alloc_pages(fz->mm, gfp, order);
	if (!page)
		return;
	o = new_obj(fz, o, OBJ_PAGES, page, 1ul << order, "alloc_pages");
	o->order = order;
	o->gfp = gfp;
	note(fz, "alloc_pages(gfp %#x, order %u) = pfn %#lx: object %d", gfp, order, o->pfn,
	     obj_slot(fz, o));
	check_alloc_zone(fz, o, "alloc_pages");
	check_zeroed(fz, o);
	write_tags(fz, o);
}

static void op_alloc_movable(struct fuzz *fz)
{
	cma_gfp_t gfp = decode_gfp(fz);
	unsigned b = in8(fz), order = (b & 0xf) % 3;
	bool anon = b & 0x10;
	struct obj *o = free_slot(fz);
	struct cma_page *page;
	uint16_t gen;

	note(fz, "alloc_movable(gfp %#x, order %u, %s)", gfp, order, anon ? "anon" : "file");
	if (!o)
		return;
	/* the owner index: this slot and its next generation (owner_obj) */
	gen = (uint16_t)(o->gen + 1);
	page = cma_alloc_movable(fz->mm, gfp, order, anon ? &anon_ops : &file_ops, fz,
				 (uint64_t)gen << 16 | (uint64_t)obj_slot(fz, o));
	if (!page)
		return;
	o = new_obj(fz, o, OBJ_MOVABLE, page, 1ul << order, "alloc_movable");
	o->order = order;
	o->gfp = gfp | CMA_GFP_MOVABLE;
	o->anon = anon;
	note(fz, "alloc_movable(gfp %#x, order %u, %s) = pfn %#lx: object %d", gfp, order,
	     anon ? "anon" : "file", o->pfn, obj_slot(fz, o));
	check_alloc_zone(fz, o, "alloc_movable");
	check_zeroed(fz, o);
	write_tags(fz, o);
	if (!anon && (b & 0x20)) {
		cma_page_set_dirty(fz->mm, page, true);
		o->dirty = true;
	}
}

/* Give an object back the way it was obtained; a pinned one lives on as an orphan. */
static void free_obj(struct fuzz *fz, struct obj *o)
{
	int slot = obj_slot(fz, o);
	bool ok;

	check_tags_at(fz, o, o->page, "free");
	switch (o->kind) {
	case OBJ_PAGES:
	case OBJ_MOVABLE:
		note(fz, "free_pages(object %d: %s pfn %#lx, order %u, %d pins)", slot,
		     kind_names[o->kind], o->pfn, o->order, o->pins);
		cma_free_pages(fz->mm, o->page, o->order);
		if (o->pins) {
			o->orphan = true;
			return;
		}
		break;
	case OBJ_CONTIG:
		note(fz, "free_contig_range(object %d: pfn %#lx, %lu)", slot, o->pfn, o->nr);
		cma_free_contig_range(fz->mm, o->pfn, o->nr);
		break;
	case OBJ_DMA:
		note(fz, "dma_release_from_contiguous(dev %d, object %d: pfn %#lx, %lu)", o->dev, slot,
		     o->pfn, o->nr);
		ok = cma_dma_release_from_contiguous(fz->mm, fz->devs[o->dev], o->page, (int)o->nr);
		if (!ok)
			fail(fz, "dma_release_from_contiguous refused object %d (pfn %#lx, %lu pages) that dev %d's area handed out",
			     slot, o->pfn, o->nr, o->dev);
		break;
	case OBJ_COHERENT:
		note(fz, "dma_free_coherent(dev %d, object %d: %zu bytes at %#llx%s)", o->dev, slot,
		     o->size, (unsigned long long)o->pfn << fz->page_shift,
		     o->in_pool ? ", atomic pool" : "");
		cma_dma_free_coherent(fz->mm, fz->devs[o->dev], o->size,
				      (cma_phys_t)o->pfn << fz->page_shift);
		break;
	default:
		return;
	}
	drop_obj(fz, o);
}

static void op_free(struct fuzz *fz)
{
	struct obj *o = pick_obj(fz, in8(fz), is_live);

	if (o)
		free_obj(fz, o);
}

static void op_pin(struct fuzz *fz)
{
	struct obj *o = pick_obj(fz, in8(fz), is_pinnable);

	if (!o || o->pins > 8)
		return;
	note(fz, "page_get(object %d: %s pfn %#lx)", obj_slot(fz, o), kind_names[o->kind], o->pfn);
	cma_page_get(fz->mm, o->page);
	o->pins++;
}

static void op_unpin(struct fuzz *fz)
{
	struct obj *o = pick_obj(fz, in8(fz), is_pinned);

	if (!o)
		return;
	note(fz, "page_put(object %d: %s pfn %#lx%s)", obj_slot(fz, o), kind_names[o->kind], o->pfn,
	     o->orphan ? ", freed" : "");
	cma_page_put(fz->mm, o->page);
	if (--o->pins == 0 && o->orphan)
		drop_obj(fz, o);
}

/* Rewrite a movable page's bytes under a reference, as an owner must. */
static void op_touch(struct fuzz *fz)
{
	struct obj *o = pick_obj(fz, in8(fz), is_movable);

	if (!o)
		return;
	note(fz, "page_tryget + write (object %d: pfn %#lx)", obj_slot(fz, o), o->pfn);
	if (!cma_page_tryget(fz->mm, o->page))
		fail(fz, "page_tryget failed on object %d (pfn %#lx) with no migration running",
		     obj_slot(fz, o), o->pfn);
	check_tags_at(fz, o, o->page, "touch");
	o->tag ^= 0xff00;
	write_tags(fz, o);
	cma_page_put(fz->mm, o->page);
}

static void op_owner_flags(struct fuzz *fz)
{
	static const int answers[] = { 0, -EAGAIN, -EBUSY, -EIO };
	struct obj *o = pick_obj(fz, in8(fz), is_movable);
	unsigned b = in8(fz);

	if (!o)
		return;
	o->refuse_migrate = answers[b & 3];
	o->refuse_reclaim = answers[(b >> 2) & 3];
	o->fail_writeback = answers[(b >> 4) & 3];
	note(fz, "owner flags (object %d): migrate %d reclaim %d writeback %d%s", obj_slot(fz, o),
	     o->refuse_migrate, o->refuse_reclaim, o->fail_writeback,
	     o->anon ? "" : (b & 0x40 ? ", dirty" : ", clean"));
	if (!o->anon && (b & 0x40) != o->dirty) {
		o->dirty = b & 0x40;
		cma_page_set_dirty(fz->mm, o->page, o->dirty);
	}
}

/* A pfn range for alloc_contig_range: in an area, over movable blocks, or anything. */
static void op_contig(struct fuzz *fz)
{
	unsigned mode = in8(fz) % 4, a = in8(fz), off = in16(fz), len = in16(fz);
	unsigned long start, nr;
	int mt, ret;
	struct obj *o;

	switch (mode) {
	case 0:
	case 1: {
		struct cma *area = fz->areas[a % NR_DEVS];
		unsigned long count = cma_area_count(area);

		if (!count)
			return;
		start = cma_area_base_pfn(area) + off % count;
		nr = 1 + len % (count - (start - cma_area_base_pfn(area)));
		mt = CMA_MIGRATE_CMA;
		break;
	}
	case 2:
		start = fz->base_pfn + off % fz->nr_pfns;
		nr = 1 + len % (2 * fz->max_order_pages);
		mt = CMA_MIGRATE_MOVABLE;
		break;
	default:
		start = fz->base_pfn + off % (fz->nr_pfns + 64) - 32;
		nr = len;
		mt = (int)(a % 9) - 1;
		break;
	}
	note(fz, "alloc_contig_range([%#lx, %#lx), mt %d)", start, start + nr, mt);
	o = free_slot(fz);
	if (!o)
		return;
	ret = cma_alloc_contig_range(fz->mm, start, start + nr, mt);
	if (ret && ret != -EINVAL && ret != -EBUSY && ret != -ENOMEM && ret != -EINTR)
		fail(fz, "alloc_contig_range([%#lx, %#lx), %d) returned %d", start, start + nr, mt, ret);
	note(fz, "alloc_contig_range([%#lx, %#lx), mt %d) = %d", start, start + nr, mt, ret);
	if (ret)
		return;
	if (!pfn_in_machine(fz, start) || nr > fz->end_pfn - start || !cma_pfn_to_page(fz->mm, start))
		fail(fz, "alloc_contig_range([%#lx, %#lx), %d) succeeded outside the machine's memory",
		     start, start + nr, mt);
	o = new_obj(fz, o, OBJ_CONTIG, cma_pfn_to_page(fz->mm, start), nr, "alloc_contig_range");
	write_tags(fz, o);
}

/* The machine's release as major * 100 + minor ("4.14": 414). */
static unsigned machine_release(struct fuzz *fz)
{
	unsigned major = 0, minor = 0;

	sscanf(cma_mm_kernel(fz->mm), "%u.%u", &major, &minor);
	return major * 100 + minor;
}

/*
 * What cma_alloc adds to the area's index before aligning it with @mask:
 * nothing up to 3.18 (the index is aligned); from 3.19 the base's
 * distance up to the next boundary ("mm: cma: align to physical
 * address, not CMA region position"), which misaligns the pfn when the
 * base is aligned to less than half of @mask + 1; from 4.13 its distance
 * from the one below ("cma: fix calculation of aligned offset"), which
 * aligns the pfn itself. The areas here have one page a bit.
 */
static unsigned long aligned_offset(struct fuzz *fz, unsigned long base, unsigned long mask)
{
	unsigned release = machine_release(fz);

	if (release < 319)
		return 0;
	if (release < 413)
		return ((base + mask) & ~mask) - base;
	return base & mask;
}

static void op_dma_alloc(struct fuzz *fz)
{
	unsigned d = in8(fz) % NR_DEVS, b = in8(fz), align = in8(fz) % 13;
	struct cma *area = cma_dev_get_cma_area(fz->mm, fz->devs[d]);
	unsigned long count = cma_area_count(area), base, mask;
	int n;
	struct cma_page *page;
	struct obj *o = free_slot(fz);

	/* mostly a fit, sometimes more than the area, sometimes nothing */
	if (b >= 0xf8)
		n = b == 0xff ? 0 : (int)(count + (b & 7));
	else
		n = 1 + (int)(b % (count ? (count < 64 ? count : count / 4) : 16));
	note(fz, "dma_alloc_from_contiguous(dev %u, count %d, align %u)", d, n, align);
	if (!o)
		return;
	page = cma_dma_alloc_from_contiguous(fz->mm, fz->devs[d], n, align);
	if (!page)
		return;
	if (n <= 0 || !count)
		fail(fz, "dma_alloc_from_contiguous(dev %u, %d) succeeded with %lu pages in the area",
		     d, n, count);
	o = new_obj(fz, o, OBJ_DMA, page, (unsigned long)n, "dma_alloc_from_contiguous");
	o->dev = (int)d;
	note(fz, "dma_alloc_from_contiguous(dev %u, count %d, align %u) = pfn %#lx: object %d", d, n,
	     align, o->pfn, obj_slot(fz, o));
	base = cma_area_base_pfn(area);
	mask = (1ul << (align < fz->shape->max_align ? align : fz->shape->max_align)) - 1;
	if (o->pfn < base || o->pfn + o->nr > base + count)
		fail(fz, "dma_alloc_from_contiguous(dev %u) gave pfn %#lx + %lu, outside its area [%#lx, %#lx)",
		     d, o->pfn, o->nr, base, base + count);
	if ((o->pfn - base + aligned_offset(fz, base, mask)) & mask)
		fail(fz, "dma_alloc_from_contiguous(dev %u, align %u) gave pfn %#lx, off the alignment (area base %#lx)",
		     d, align, o->pfn, base);
	write_tags(fz, o);
}

/*
 * dma_alloc_coherent: 0 or -ENOMEM; a zeroed buffer (except one reused
 * from ARM's atomic pool) at the page its handle names, under the mask
 * (x86 with no device: the ISA 24 bits).
 */
static void op_coherent_alloc(struct fuzz *fz)
{
	unsigned d = in8(fz) % NR_DEVS, b = in8(fz);
	size_t size = (size_t)(1 + in16(fz)) << (b % 16);
	cma_gfp_t gfp = decode_gfp(fz);
	struct obj *o = free_slot(fz);
	cma_phys_t handle = 0;
	unsigned long pfn, nr;
	void *vaddr = NULL;
	bool boot;
	int ret;

	if (b & 0x80)
		gfp |= CMA_GFP_ATOMIC;
	note(fz, "dma_alloc_coherent(dev %u, %zu bytes, gfp %#x)", d, size, gfp);
	if (!o)
		return;
	ret = cma_dma_alloc_coherent(fz->mm, fz->devs[d], size, gfp, &handle, &vaddr);
	if (ret && ret != -ENOMEM)
		fail(fz, "dma_alloc_coherent(dev %u, %zu) returned %d, expected 0 or -ENOMEM", d, size, ret);
	if (ret)
		return;
	nr = (unsigned long)((size + (1ul << fz->page_shift) - 1) >> fz->page_shift);
	pfn = (unsigned long)(handle >> fz->page_shift);
	if (handle & ((1ull << fz->page_shift) - 1) || !cma_pfn_to_page(fz->mm, pfn))
		fail(fz, "dma_alloc_coherent gave handle %#llx, no page of this machine",
		     (unsigned long long)handle);
	if (vaddr != cma_page_address(fz->mm, cma_pfn_to_page(fz->mm, pfn)))
		fail(fz, "dma_alloc_coherent: vaddr %p is not the bytes of the page at %#llx", vaddr,
		     (unsigned long long)handle);
	if (fz->shape->arch == CMA_ARCH_X86 && d == 0 && handle + size > (1ull << 24))
		fail(fz, "dma_alloc_coherent with no device (ISA, 24-bit mask) gave %#llx + %zu",
		     (unsigned long long)handle, size);
	holder(fz, pfn, &boot);
	o->in_pool = boot;
	o = new_obj(fz, o, OBJ_COHERENT, cma_pfn_to_page(fz->mm, pfn), nr, "dma_alloc_coherent");
	o->dev = (int)d;
	o->size = size;
	o->gfp = CMA_GFP_ZERO;
	note(fz, "dma_alloc_coherent(dev %u, %zu bytes, gfp %#x) = %#llx%s: object %d", d, size, gfp,
	     (unsigned long long)handle, boot ? " (atomic pool)" : "", obj_slot(fz, o));
	if (!boot)
		check_zeroed(fz, o);
	write_tags(fz, o);
}

/* A free with a handle that is no page of the machine: reported, nothing freed. */
static void op_bad_coherent_free(struct fuzz *fz)
{
	unsigned d = in8(fz) % NR_DEVS, b = in8(fz);
	cma_phys_t handle = b & 1 ? ((cma_phys_t)fz->end_pfn << fz->page_shift) + ((cma_phys_t)b << 12)
				  : ((cma_phys_t)fz->base_pfn << fz->page_shift) + 1 + b;

	note(fz, "dma_free_coherent(dev %u, handle %#llx) (must be refused)", d,
	     (unsigned long long)handle);
	cma_dma_free_coherent(fz->mm, fz->devs[d], 1 + b, handle);
}

/* Release the head or the tail of a DMA allocation: cma_release allows part of one. */
static void op_dma_release_part(struct fuzz *fz)
{
	struct obj *o = pick_obj(fz, in8(fz), is_dma);
	unsigned b = in8(fz);
	unsigned long k, pfn;
	struct cma_page *page;

	if (!o || o->nr < 2)
		return;
	k = 1 + b % (o->nr - 1);
	check_tags_at(fz, o, o->page, "partial release");
	pfn = b & 0x80 ? o->pfn : o->pfn + o->nr - k;
	page = cma_page_nth(fz->mm, o->page, pfn - o->pfn);
	note(fz, "dma_release_from_contiguous(dev %d, pfn %#lx, %lu) of object %d [%#lx + %lu]",
	     o->dev, pfn, k, obj_slot(fz, o), o->pfn, o->nr);
	if (!cma_dma_release_from_contiguous(fz->mm, fz->devs[o->dev], page, (int)k))
		fail(fz, "dma_release_from_contiguous refused pages %#lx + %lu of object %d", pfn, k,
		     obj_slot(fz, o));
	release_pfns(fz, o, pfn, k);
	if (pfn == o->pfn) {
		o->page = cma_page_nth(fz->mm, o->page, k);
		o->pfn += k;
	}
	o->nr -= k;
	write_tags(fz, o);
}

/* Same for a contiguous range: free_contig_range takes any run of its pages. */
static void op_contig_free_part(struct fuzz *fz)
{
	struct obj *o = pick_obj(fz, in8(fz), is_contig);
	unsigned b = in8(fz);
	unsigned long k, pfn;

	if (!o || o->nr < 2)
		return;
	k = 1 + b % (o->nr - 1);
	check_tags_at(fz, o, o->page, "partial free");
	pfn = b & 0x80 ? o->pfn : o->pfn + o->nr - k;
	note(fz, "free_contig_range(pfn %#lx, %lu) of object %d [%#lx + %lu]", pfn, k,
	     obj_slot(fz, o), o->pfn, o->nr);
	cma_free_contig_range(fz->mm, pfn, k);
	release_pfns(fz, o, pfn, k);
	if (pfn == o->pfn) {
		o->page = cma_page_nth(fz->mm, o->page, k);
		o->pfn += k;
	}
	o->nr -= k;
	write_tags(fz, o);
}

/*
 * The type to isolate pageblocks [pb, pb + n) with, which their undo
 * restores (ours count as the type they had): their common type, else
 * MOVABLE as the kernel's hotplug passes, except that CMA blocks must get
 * CMA back, so a range mixing CMA with other types is left alone (-1).
 */
static int range_type(struct fuzz *fz, unsigned long pb, unsigned long n, bool *any_ours)
{
	int type = -1;
	bool mixed = false, cma = false;

	*any_ours = false;
	for (unsigned long i = pb; i < pb + n; i++) {
		int mt = fz->iso_saved[i] ? fz->iso_saved[i] - 1 : pb_type(fz, i);

		*any_ours |= fz->iso_saved[i] != 0;
		if (mt < 0)
			return -1;
		mixed |= type >= 0 && mt != type;
		cma |= mt == CMA_MIGRATE_CMA;
		type = mt;
	}
	if (mixed)
		return cma ? -1 : CMA_MIGRATE_MOVABLE;
	return type;
}

/*
 * A range isolation must refuse: off the pageblocks at either end,
 * outside memory, empty, or with a type that is none or ISOLATE.
 */
static void bad_isolation_range(struct fuzz *fz, unsigned how, unsigned long *start,
				unsigned long *end, int *mt)
{
	static const int bad_mt[] = { CMA_MIGRATE_ISOLATE, -1, CMA_MIGRATE_TYPES, 99 };

	*mt = CMA_MIGRATE_MOVABLE;
	switch (how % 5) {
	case 0:
		*start += 1 + how % (fz->pb_pages - 1);
		break;
	case 1:
		*end -= 1 + how % (fz->pb_pages - 1);
		break;
	case 2:
		*end = fz->end_pfn + fz->max_order_pages;
		break;
	case 3:
		*end = *start;
		break;
	default:
		*mt = bad_mt[(how >> 3) % 4];
		break;
	}
}

/*
 * Pageblocks [block, block + 1 + (b & 0x7f) % 8) (any pageblock-aligned
 * range may be isolated): the range isolation takes.
 */
static void pageblock_range(struct fuzz *fz, unsigned block, unsigned b, unsigned long *pb,
			    unsigned long *n, unsigned long *start, unsigned long *end)
{
	*pb = block % fz->nr_pbs;
	*n = 1 + (b & 0x7f) % 8;
	if (*pb + *n > fz->nr_pbs)
		*n = fz->nr_pbs - *pb;
	*start = fz->base_pfn + *pb * fz->pb_pages;
	*end = *start + *n * fz->pb_pages;
}

static void op_isolate(struct fuzz *fz)
{
	unsigned b = in8(fz), block = in16(fz), how = in8(fz);
	unsigned long pb, n, start, end;
	uint8_t before[64];
	bool ours;
	int mt, ret;

	if (!fz->nr_pbs)
		return;
	pageblock_range(fz, block, b, &pb, &n, &start, &end);
	if (b & 0x80) {
		bad_isolation_range(fz, how, &start, &end, &mt);
		note(fz, "start_isolate_page_range([%#lx, %#lx), mt %d) (must be refused)", start, end, mt);
		ret = cma_start_isolate_page_range(fz->mm, start, end, mt);
		if (ret != -EINVAL)
			fail(fz, "start_isolate_page_range([%#lx, %#lx), %d) returned %d, expected -EINVAL",
			     start, end, mt, ret);
		return;
	}
	mt = range_type(fz, pb, n, &ours);
	if (mt < 0 || mt == CMA_MIGRATE_ISOLATE || n > sizeof(before))
		return;
	for (unsigned long i = 0; i < n; i++)
		before[i] = (uint8_t)pb_type(fz, pb + i);
	note(fz, "start_isolate_page_range([%#lx, %#lx), mt %d)%s", start, end, mt,
	     ours ? " over blocks the harness isolated already" : "");
	ret = cma_start_isolate_page_range(fz->mm, start, end, mt);
	if (ret == -EBUSY) {
		/* rolled back: blocks it isolated are @mt again, ours still ISOLATE */
		for (unsigned long i = 0; i < n; i++) {
			int now = pb_type(fz, pb + i);

			if (before[i] == CMA_MIGRATE_ISOLATE ? now != before[i] :
			    (now != before[i] && now != mt))
				fail(fz, "failed start_isolate_page_range([%#lx, %#lx), %d) left the block at pfn %#lx type %d, was %d",
				     start, end, mt, start + i * fz->pb_pages, now, before[i]);
		}
		return;
	}
	if (ret)
		fail(fz, "start_isolate_page_range([%#lx, %#lx), %d) returned %d", start, end, mt, ret);
	for (unsigned long i = pb; i < pb + n; i++)
		if (!fz->iso_saved[i])
			fz->iso_saved[i] = (uint8_t)(mt + 1);
}

static void op_undo_isolate(struct fuzz *fz)
{
	unsigned b = in8(fz), block = in16(fz), how = in8(fz);
	unsigned long pb, n, start, end;
	bool ours;
	int mt, ret;

	if (!fz->nr_pbs)
		return;
	pageblock_range(fz, block, b, &pb, &n, &start, &end);
	if (b & 0x80) {
		bad_isolation_range(fz, how, &start, &end, &mt);
		note(fz, "undo_isolate_page_range([%#lx, %#lx), mt %d) (must be refused)", start, end, mt);
		ret = cma_undo_isolate_page_range(fz->mm, start, end, mt);
		if (ret != -EINVAL)
			fail(fz, "undo_isolate_page_range([%#lx, %#lx), %d) returned %d, expected -EINVAL",
			     start, end, mt, ret);
		return;
	}
	mt = range_type(fz, pb, n, &ours);
	if (mt < 0)
		return;
	note(fz, "undo_isolate_page_range([%#lx, %#lx), mt %d)%s", start, end, mt,
	     ours ? "" : " (nothing isolated)");
	ret = cma_undo_isolate_page_range(fz->mm, start, end, mt);
	if (ret)
		fail(fz, "undo_isolate_page_range([%#lx, %#lx), %d) returned %d", start, end, mt, ret);
	memset(fz->iso_saved + pb, 0, n);
}

static void op_test_isolated(struct fuzz *fz)
{
	unsigned long start = fz->base_pfn + in16(fz) % fz->nr_pfns, nr = 1 + in16(fz) % 4096;
	int ret = cma_test_pages_isolated(fz->mm, start, start + nr);

	note(fz, "test_pages_isolated([%#lx, %#lx)) = %d", start, start + nr, ret);
	if (ret && ret != -EBUSY && ret != -EINVAL)
		fail(fz, "test_pages_isolated returned %d", ret);
}

static void op_reclaim(struct fuzz *fz)
{
	unsigned b = in8(fz);

	switch (b % 4) {
	case 0: {
		int ret = cma_compact_memory(fz->mm);

		note(fz, "compact_memory() = %d", ret);
		if (ret)
			fail(fz, "compact_memory returned %d on a booted machine", ret);
		memset(fz->limbo, 0, fz->nr_pfns);	/* it drained every pagevec first */
		break;
	}
	case 1: {
		cma_gfp_t gfp = decode_gfp(fz);
		unsigned long nr = 1 + in8(fz) * 4ul, got;

		got = cma_try_to_free_pages(fz->mm, nr, gfp);
		note(fz, "try_to_free_pages(%lu, gfp %#x) = %lu", nr, gfp, got);
		memset(fz->limbo, 0, fz->nr_pfns);	/* it drained every pagevec first */
		break;
	}
	case 2:
		note(fz, "kswapd_step() = %lu", cma_kswapd_step(fz->mm));
		break;
	default:
		note(fz, "drain_all_pages()");
		cma_drain_all_pages(fz->mm);
		break;
	}
}

static void op_machine(struct fuzz *fz)
{
	static const char *const procs[] = {
		"buddyinfo", "pagetypeinfo", "vmstat", "meminfo", "zoneinfo", "cma", "nonesuch",
	};
	static const char *const counters[] = {
		"nr_free_pages", "nr_free_cma", "pgmigrate_success", "compact_isolated",
		"cma_alloc_success", "allocstall", "pgalloc_dma", "nonesuch",
	};
	unsigned b = in8(fz), c = in8(fz);

	switch (b % 6) {
	case 0:
		note(fz, "bind_cpu(%u)", c % (fz->shape->nr_cpus + 1));
		cma_mm_bind_cpu(fz->mm, c % (fz->shape->nr_cpus + 1));
		break;
	case 1: {
		struct cma_fault_attr attr = {
			.space = c & 0x80 ? in8(fz) : 0,
			.interval = in8(fz) % 8,
			.times = in8(fz) % 16,
			.probability = c % 101,
			.min_order = in8(fz) % 4,
			.only_migration = c & 0x40,
			.seed = in8(fz),
		};

		note(fz, "fault_inject(probability %u, interval %lu, times %lu, space %lu, min_order %u%s)",
		     attr.probability, attr.interval, attr.times, attr.space, attr.min_order,
		     attr.only_migration ? ", only migration" : "");
		cma_fault_inject(fz->mm, c & 1 ? NULL : &attr);
		break;
	}
	case 2: {
		const char *name = procs[c % (sizeof(procs) / sizeof(procs[0]))];
		int ret = cma_write_proc(fz->mm, name, fz->null);

		note(fz, "write_proc(%s) = %d", name, ret);
		if (ret != (strcmp(name, "nonesuch") ? 0 : -ENOENT))
			fail(fz, "write_proc(%s) returned %d", name, ret);
		break;
	}
	case 3: {
		const char *name = counters[c % (sizeof(counters) / sizeof(counters[0]))];
		uint64_t v;
		int ret = cma_mm_counter(fz->mm, name, &v);

		note(fz, "counter(%s) = %d", name, ret);
		if (ret != (strcmp(name, "nonesuch") ? 0 : -ENOENT))
			fail(fz, "cma_mm_counter(%s) returned %d", name, ret);
		break;
	}
	case 4:
		note(fz, "set_trace(%s)", c & 1 ? "on" : "off");
		cma_mm_set_trace(fz->mm, c & 1 ? count_trace : NULL, fz);
		break;
	default:
		fz->oom_frees = c & 1;
		note(fz, "oom handler %s", fz->oom_frees ? "kills" : "finds nothing to kill");
		break;
	}
}

/* pfn -> page -> pfn agrees with pfn_valid. */
static void op_pfn_lookup(struct fuzz *fz)
{
	unsigned long pfn = fz->base_pfn + in16(fz) % (fz->nr_pfns + 16) - 8;
	struct cma_page *page = cma_pfn_to_page(fz->mm, pfn);

	note(fz, "pfn_to_page(%#lx) = %s", pfn, page ? "a page" : "NULL");
	if (page && cma_page_to_pfn(fz->mm, page) != pfn)
		fail(fz, "page_to_pfn(pfn_to_page(%#lx)) = %#lx", pfn, cma_page_to_pfn(fz->mm, page));
	if (page && cma_pageblock_migratetype(fz->mm, pfn) < 0)
		fail(fz, "pfn %#lx has a page but no pageblock type", pfn);
	if (!pfn_in_machine(fz, pfn) && page)
		fail(fz, "pfn_to_page(%#lx) outside the machine gave a page", pfn);
}

/*
 * Frees that must be refused: a free page, a tail page, a reserved page,
 * a head with the wrong order, a page of a contiguous range at order > 0,
 * NULL; and dirtying a page that has no owner.
 */
static void op_bad_free(struct fuzz *fz)
{
	unsigned long pfn = fz->base_pfn + in16(fz) % fz->nr_pfns;
	unsigned order = in8(fz) % fz->shape->max_order, how = in8(fz);
	struct cma_page *page = cma_pfn_to_page(fz->mm, pfn);
	bool boot;
	struct obj *o = holder(fz, pfn, &boot);

	if (how == 0xff) {
		note(fz, "free_pages(NULL, %u) (must be refused)", order);
		cma_free_pages(fz->mm, NULL, order);
		return;
	}
	/* boot's pages, a coherent buffer's and a page a pagevec may still hold are off limits */
	if (!page || boot || fz->limbo[pfn - fz->base_pfn] || (o && o->kind == OBJ_COHERENT))
		return;
	if (how >= 0xf0 && o && o->kind != OBJ_MOVABLE) {
		note(fz, "page_set_dirty(pfn %#lx of object %d, %s) (must be refused)", pfn,
		     obj_slot(fz, o), kind_names[o->kind]);
		cma_page_set_dirty(fz->mm, page, how & 1);
		return;
	}
	if (o && (o->kind == OBJ_PAGES || o->kind == OBJ_MOVABLE) && pfn == o->pfn) {
		/* the head, at the wrong order */
		if (order == o->order)
			order = (order + 1) % fz->shape->max_order;
		if (order == o->order)
			return;
	} else if (o && (o->kind == OBJ_CONTIG || o->kind == OBJ_DMA)) {
		/* a page of a contiguous range is an order-0 page */
		if (fz->shape->max_order == 1)
			return;
		if (!order)
			order = 1;
	}
	note(fz, "free_pages(pfn %#lx, order %u) (%s; must be refused)", pfn, order,
	     o ? (pfn == o->pfn ? kind_names[o->kind] : "a tail") : "not held");
	cma_free_pages(fz->mm, page, order);
}

/*
 * A free_contig_range that must be refused whole: one of its pages is
 * free, or a movable page, or part of a larger allocation. Ranges with
 * pages of unknown make (boot's, coherent buffers') are left alone.
 */
static void op_bad_contig_free(struct fuzz *fz)
{
	unsigned long pfn = fz->base_pfn + in16(fz) % fz->nr_pfns, nr = 1 + in8(fz);
	bool bad = false, boot;

	for (unsigned long p = pfn; p < pfn + nr; p++) {
		struct obj *o = holder(fz, p, &boot);

		if (boot || (o && o->kind == OBJ_COHERENT))
			return;
		if (!o || o->kind == OBJ_MOVABLE || (o->kind == OBJ_PAGES && (o->order || p != o->pfn)))
			bad = true;
	}
	if (!bad)
		return;
	note(fz, "free_contig_range(%#lx, %lu) (must be refused)", pfn, nr);
	cma_free_contig_range(fz->mm, pfn, nr);
}

/*
 * A release of pages no area handed out (free, or held some other way),
 * or a negative count: must return false and change nothing.
 */
static void op_bad_dma_release(struct fuzz *fz)
{
	unsigned d = in8(fz) % NR_DEVS, b = in8(fz);
	struct cma *area = cma_dev_get_cma_area(fz->mm, fz->devs[d]);
	unsigned long base = area ? cma_area_base_pfn(area) : fz->base_pfn, count = cma_area_count(area);
	unsigned long pfn = base + in16(fz) % (count + 64) - (b & 0x80 ? 32 : 0);
	int nr = b & 0x40 ? -1 - (int)(b & 3) : 1 + (int)(b % 32);
	bool refused = nr < 0, boot;
	struct cma_page *page;

	if (!pfn_in_machine(fz, pfn))
		pfn = fz->base_pfn;
	page = cma_pfn_to_page(fz->mm, pfn);
	if (!page)
		return;
	for (long i = 0; !refused && i < nr; i++) {
		unsigned long p = pfn + (unsigned long)i;
		struct obj *o = holder(fz, p, &boot);

		refused = !area || p < base || p >= base + count ||
			  (!boot && (!o || o->kind == OBJ_PAGES || o->kind == OBJ_MOVABLE ||
				     o->kind == OBJ_CONTIG));
	}
	if (!refused)
		return;		/* every page may be the area's: that would be a real release */
	note(fz, "dma_release_from_contiguous(dev %u, pfn %#lx, %d) (must be refused)", d, pfn, nr);
	if (cma_dma_release_from_contiguous(fz->mm, fz->devs[d], page, nr))
		fail(fz, "dma_release_from_contiguous(dev %u, pfn %#lx, %d) accepted pages its area did not hand out",
		     d, pfn, nr);
}

static void op_check_all(struct fuzz *fz)
{
	note(fz, "check the bytes of every object");
	for (int i = 0; i < MAX_OBJS; i++)
		if (fz->objs[i].kind != OBJ_NONE)
			check_tags_at(fz, &fz->objs[i], fz->objs[i].page, "check");
}

typedef void (*op_fn)(struct fuzz *fz);

/* Weighted by repetition: allocations and frees come most often. */
static const op_fn ops[] = {
	op_alloc_pages, op_alloc_pages, op_alloc_pages,
	op_alloc_movable, op_alloc_movable, op_alloc_movable, op_alloc_movable,
	op_free, op_free, op_free,
	op_pin, op_unpin, op_touch, op_owner_flags,
	op_contig, op_contig, op_dma_alloc, op_dma_alloc, op_coherent_alloc, op_coherent_alloc,
	op_dma_release_part, op_contig_free_part,
	op_isolate, op_undo_isolate, op_test_isolated,
	op_reclaim, op_reclaim, op_machine, op_pfn_lookup,
	op_bad_free, op_bad_contig_free, op_bad_dma_release, op_bad_coherent_free, op_check_all,
};

#define NR_OP_FNS (sizeof(ops) / sizeof(ops[0]))

/* ---- the machine's life ---- */

static int early_setup(struct fuzz *fz)
{
	const struct shape *s = fz->shape;
	unsigned e = in8(fz);
	uint64_t ram = 0;
	int ret;

	for (unsigned i = 0; i < s->nr_banks; i++)
		ram += s->banks[i].size;
	/* a "kernel image" or firmware region somewhere in RAM */
	if (e & 1) {
		uint64_t off = (uint64_t)in16(fz) << fz->page_shift, size = (uint64_t)(1 + in8(fz)) << 14;
		cma_phys_t base = s->banks[0].base + off % ram;
		ret = cma_memblock_reserve(fz->mm, base, size);
		note(fz, "memblock_reserve(%#llx, %#llx) = %d", (unsigned long long)base,
		     (unsigned long long)size, ret);
	}
	if (e & 2) {
		uint64_t size = (uint64_t)(1 + in8(fz)) << 14;
		cma_phys_t got = cma_memblock_alloc_base(fz->mm, size, 1ull << (12 + e % 8), 0);

		note(fz, "memblock_alloc_base(%#llx) = %#llx", (unsigned long long)size,
		     (unsigned long long)got);
	}
	fz->devs[1] = cma_device_create(fz->mm, "fuzzdev", 0xffffffffull);
	if (!fz->devs[1])
		return -ENOMEM;
	if (s->dev_area) {
		ret = cma_dma_declare_contiguous(fz->mm, fz->devs[1], s->dev_area, 0,
						 s->highmem_start);
		note(fz, "dma_declare_contiguous(fuzzdev, %#llx) = %d",
		     (unsigned long long)s->dev_area, ret);
	}
	ret = cma_mm_boot(fz->mm);
	if (ret)
		fail(fz, "cma_mm_boot returned %d", ret);
	return 0;
}

static int machine_create(struct fuzz *fz)
{
	const struct shape *s = fz->shape;
	struct cma_mm_config cfg = {
		.arch = s->arch, .banks = s->banks, .nr_banks = s->nr_banks,
		.max_order = s->max_order, .pageblock_order = s->pageblock_order,
		.zone_dma_end = s->zone_dma_end, .zone_dma32_end = s->zone_dma32_end,
		.highmem_start = s->highmem_start, .cmdline = s->cmdline, .kconfig = s->kconfig,
		.swap_bytes = s->swap_bytes, .nr_cpus = s->nr_cpus, .kernel = fz->kernel,
	};
	const struct cma_bank *last = &s->banks[s->nr_banks - 1];
	int ret = cma_mm_create(&cfg, &fz->mm);

	if (ret)
		fail(fz, "cma_mm_create of shape %s returned %d", s->name, ret);
	fz->page_shift = 12;
	fz->base_pfn = s->banks[0].base >> fz->page_shift;
	fz->end_pfn = (last->base + last->size) >> fz->page_shift;
	fz->nr_pfns = fz->end_pfn - fz->base_pfn;
	fz->pb_pages = 1ul << s->pageblock_order;
	fz->nr_pbs = fz->nr_pfns / fz->pb_pages;
	fz->max_order_pages = 1ul << (s->max_order - 1);
	fz->owned = calloc(fz->nr_pfns, 1);
	fz->iso_saved = calloc(fz->nr_pbs, 1);
	fz->boot_cma = calloc(fz->nr_pbs, 1);
	fz->limbo = calloc(fz->nr_pfns, 1);
	fz->pool_owned = calloc(fz->nr_pfns, 1);
	if (!fz->owned || !fz->iso_saved || !fz->boot_cma || !fz->limbo || !fz->pool_owned)
		return -ENOMEM;
	return early_setup(fz);
}

/* Pages boot allocated (ARM's atomic pool) are no object's: mark them so. */
static void mark_boot_pages(struct fuzz *fz)
{
	for (unsigned long pfn = fz->base_pfn; pfn < fz->end_pfn; pfn++) {
		struct cma_page *page = cma_pfn_to_page(fz->mm, pfn);
		unsigned long n;

		if (!page || !page_test(page, PG_head))
			continue;
		n = 1ul << page_order(page);
		memset(fz->owned + (pfn - fz->base_pfn), HELD_BY_BOOT, n);
		pfn += n - 1;
	}
}

static void after_boot(struct fuzz *fz)
{
	mark_boot_pages(fz);
	for (int d = 0; d < NR_DEVS; d++)
		fz->areas[d] = cma_dev_get_cma_area(fz->mm, fz->devs[d]);
	for (unsigned long pb = 0; pb < fz->nr_pbs; pb++) {
		int mt = pb_type(fz, pb);

		fz->boot_cma[pb] = mt < 0 ? 2 : mt == CMA_MIGRATE_CMA;
	}
	cma_mm_set_oom_handler(fz->mm, oom_kill, fz);
	if (cma_mm_counter(fz->mm, "nr_free_pages", &fz->free_at_boot))
		fail(fz, "no nr_free_pages counter");
	if (cma_mm_verify(fz->mm))
		fail(fz, "cma_mm_verify failed right after boot");
}

/* Give everything back, then the machine must be as boot left it. */
static void teardown_checks(struct fuzz *fz)
{
	static const char *const zero_counters[] = {
		"nr_anon_pages", "nr_file_pages", "nr_dirty", "nr_isolated_anon", "nr_isolated_file",
		"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
	};
	uint64_t v;

	fz->op++;
	note(fz, "teardown: fault injection off, every object freed, isolation undone");
	cma_fault_inject(fz->mm, NULL);
	for (int i = 0; i < MAX_OBJS; i++) {
		struct obj *o = &fz->objs[i];

		while (o->kind != OBJ_NONE && o->pins) {
			cma_page_put(fz->mm, o->page);
			if (--o->pins == 0 && o->orphan)
				drop_obj(fz, o);
		}
		if (o->kind != OBJ_NONE)
			free_obj(fz, o);
	}
	for (unsigned long pb = 0; pb < fz->nr_pbs; pb++) {
		unsigned long pfn = fz->base_pfn + pb * fz->pb_pages;

		if (!fz->iso_saved[pb])
			continue;
		if (cma_undo_isolate_page_range(fz->mm, pfn, pfn + fz->pb_pages, fz->iso_saved[pb] - 1))
			fail(fz, "undo_isolate_page_range at teardown refused pfn %#lx", pfn);
		fz->iso_saved[pb] = 0;
	}
	/* pagevecs hold the last reference of freed movable pages until drained */
	cma_try_to_free_pages(fz->mm, 1, CMA_GFP_KERNEL);
	cma_drain_all_pages(fz->mm);
	if (cma_mm_verify(fz->mm))
		fail(fz, "cma_mm_verify failed at teardown");
	check_pageblocks(fz, "teardown");
	for (unsigned i = 0; i < sizeof(zero_counters) / sizeof(zero_counters[0]); i++)
		if (!cma_mm_counter(fz->mm, zero_counters[i], &v) && v)
			fail(fz, "teardown: every owner page is freed but %s is %llu", zero_counters[i],
			     (unsigned long long)v);
	cma_mm_counter(fz->mm, "nr_free_pages", &v);
	if (v != fz->free_at_boot)
		fail(fz, "teardown: %llu free pages, boot left %llu: %lld pages leaked",
		     (unsigned long long)v, (unsigned long long)fz->free_at_boot,
		     (long long)fz->free_at_boot - (long long)v);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = dup(2);

	report_out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!report_out)
		report_out = stderr;
	setvbuf(report_out, NULL, _IONBF, 0);
	verbose = getenv("FUZZ_OPS_VERBOSE") && *getenv("FUZZ_OPS_VERBOSE") == '1';
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz fuzz;
	struct fuzz *fz = &fuzz;

	if (!size)
		return 0;
	memset(fz, 0, sizeof(*fz));
	fz->in = data;
	fz->len = size;
	{
		uint8_t first = in8(fz);

		fz->shape = &shapes[(first & 0x7f) % NR_SHAPES];
#ifdef FUZZ_OPS_RELEASES
		fz->kernel = releases[first / NR_SHAPES % NR_RELEASES];
#else
		fz->kernel = first & 0x80 ? "6.12" : "3.5";
#endif
	}
	fz->null = fopen("/dev/null", "w");
	if (!fz->null)
		abort();
	note(fz, "machine %s, kernel %s", fz->shape->name, fz->kernel);
	if (machine_create(fz) == 0) {
		after_boot(fz);
		while (fz->len && fz->op < MAX_OPS) {
			fz->op++;
			ops[in8(fz) % NR_OP_FNS](fz);
			if (cma_mm_verify(fz->mm))
				fail(fz, "cma_mm_verify failed (its report is in the log below)");
			check_pageblocks(fz, "after the call");
		}
		teardown_checks(fz);
	}
	cma_mm_destroy(fz->mm);
	fclose(fz->null);
	free(fz->owned);
	free(fz->iso_saved);
	free(fz->boot_cma);
	free(fz->limbo);
	free(fz->pool_owned);
	return 0;
}
