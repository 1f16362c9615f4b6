// SPDX-License-Identifier: GPL-2.0
/*
 * The typed seams between the library and its tools: cma_mm_stats()
 * against the /proc/vmstat names cma_mm_counter() reads, the trace
 * probes' records against the text lines formatted from them, and
 * cma_mm_verify_report()'s lines against the log's.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helpers.h"
#include "owners.h"

#define CMA_MACHINE .dma_end = 16 * MiB, .pageblock_order = 9, .cpus = 2, .cmdline = "cma=16M"

/* Each typed counter's /proc/vmstat names: one, or the five of a per-zone event. */
static const struct {
	enum cma_stat_item item;
	const char *name;
	bool per_zone;
} stat_names[] = {
#define STAT(item, name) { item, name, false }
#define ZONED(item, name) { item, name, true }
	STAT(CMA_STAT_PGMIGRATE_SUCCESS, "pgmigrate_success"),
	STAT(CMA_STAT_COMPACT_MIGRATE_SCANNED, "compact_migrate_scanned"),
	STAT(CMA_STAT_COMPACT_FREE_SCANNED, "compact_free_scanned"),
	STAT(CMA_STAT_COMPACT_ISOLATED, "compact_isolated"),
	STAT(CMA_STAT_CONTIG_MIGRATE_SCANNED, "contig_migrate_scanned"),
	STAT(CMA_STAT_CONTIG_FREE_SCANNED, "contig_free_scanned"),
	STAT(CMA_STAT_COMPACT_SCAN_STEPPED, "compact_scan_stepped"),
	STAT(CMA_STAT_COMPACT_BLOCKS_PASSED, "compact_blocks_passed"),
	ZONED(CMA_STAT_PGSCAN_DIRECT, "pgscan_direct"),
	ZONED(CMA_STAT_PGSTEAL_DIRECT, "pgsteal_direct"),
	STAT(CMA_STAT_DRAIN_ALL_PAGES, "drain_all_pages"),
	STAT(CMA_STAT_LRU_ADD_DRAIN_ALL, "lru_add_drain_all"),
	STAT(CMA_STAT_PGMIGRATE_MAPPED_PTES, "pgmigrate_mapped_ptes"),
	STAT(CMA_STAT_PGMIGRATE_TLB_FLUSH, "pgmigrate_tlb_flush"),
	STAT(CMA_STAT_PGALLOC_FRESH, "pgalloc_fresh"),
	STAT(CMA_STAT_CONSOLE_CHARS, "console_chars"),
	STAT(CMA_STAT_CONTIG_RECLAIM_CLEAN, "contig_reclaim_clean"),
	STAT(CMA_STAT_CONTIG_RECLAIM_UNMAPPED_PTES, "contig_reclaim_unmapped_ptes"),
	ZONED(CMA_STAT_PGALLOC, "pgalloc"),
	STAT(CMA_STAT_PGFREE, "pgfree"),
	STAT(CMA_STAT_LRU_ADD, "lru_add"),
	ZONED(CMA_STAT_PGSCAN_KSWAPD, "pgscan_kswapd"),
	STAT(CMA_STAT_NR_TLB_REMOTE_FLUSH_RECEIVED, "nr_tlb_remote_flush_received"),
};
#define NR_STAT_NAMES (sizeof(stat_names) / sizeof(stat_names[0]))
_Static_assert(NR_STAT_NAMES == NR_CMA_STAT_ITEMS, "a typed counter without its names here");

static uint64_t counter_by_name(struct cma_mm *mm, const char *name, bool per_zone)
{
	static const char *const zones[] = { "dma", "dma32", "normal", "high", "movable" };
	char zone_name[64];
	uint64_t sum = 0;

	if (!per_zone)
		return test_counter(mm, name);
	for (size_t z = 0; z < sizeof(zones) / sizeof(zones[0]); z++) {
		snprintf(zone_name, sizeof(zone_name), "%s_%s", name, zones[z]);
		sum += test_counter(mm, zone_name);
	}
	return sum;
}

/* Every typed counter equals its names' sum; returns how many are nonzero. */
static unsigned assert_stats_match_names(struct cma_mm *mm)
{
	struct cma_mm_stats st;
	unsigned nonzero = 0;

	assert_int_equal(cma_mm_stats(mm, &st), 0);
	for (size_t i = 0; i < NR_STAT_NAMES; i++) {
		uint64_t want = counter_by_name(mm, stat_names[i].name, stat_names[i].per_zone);

		if (st.v[stat_names[i].item] != want)
			fail_msg("kernel %s: cma_mm_stats()'s %s: expected %llu as by name, got %llu",
				 test_kernel(), stat_names[i].name, (unsigned long long)want,
				 (unsigned long long)st.v[stat_names[i].item]);
		nonzero += want != 0;
	}
	return nonzero;
}

/*
 * Expect: with every vm event set to a value of its own (none the sum of
 * others by chance), each typed counter reads its own event, or its five
 * zones' sum: a counter mapped to a neighbour or a zone short is caught.
 */
static void stats_read_each_counter_by_its_event(void **state)
{
	struct cma_mm *mm = test_mm(.cpus = 2);

	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++) {
		cma_mm_bind_cpu(mm, i % 2);
		count_vm_events(mm, i, ((uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull) >> 28);
	}
	assert_int_equal(assert_stats_match_names(mm), NR_CMA_STAT_ITEMS);
	cma_mm_destroy(mm);
}

static void cma_alloc_through_owners(struct cma_mm *mm);

/* Expect: a CMA allocation through a full area moves the counters it reads, each as by name. */
static void stats_match_names_after_cma_alloc(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE);
	struct cma_mm_stats before, after;

	assert_int_equal(cma_mm_stats(mm, &before), 0);
	cma_alloc_through_owners(mm);
	assert_true(assert_stats_match_names(mm) >= 4);
	assert_int_equal(cma_mm_stats(mm, &after), 0);
	assert_true(after.v[CMA_STAT_PGMIGRATE_SUCCESS] > before.v[CMA_STAT_PGMIGRATE_SUCCESS]);
	assert_true(after.v[CMA_STAT_LRU_ADD_DRAIN_ALL] > before.v[CMA_STAT_LRU_ADD_DRAIN_ALL]);
	cma_mm_destroy(mm);
}

static void stats_bad_input(void **state)
{
	struct cma_mm *mm = test_mm();
	struct cma_mm_stats st;

	assert_int_equal(cma_mm_stats(NULL, &st), -EINVAL);
	assert_int_equal(cma_mm_stats(mm, NULL), -EINVAL);
	cma_mm_destroy(mm);
}

/* ---- trace probes ---- */

#define MAX_SEEN 200000

/* What the probes and the text consumer saw, in order. */
struct seen {
	struct cma_trace_event *ev;
	char **line;
	unsigned nr_ev, nr_line;
	unsigned per_id[NR_CMA_TRACE_EVENTS];
};

static void probe(void *ctx, const struct cma_trace_event *ev)
{
	struct seen *s = ctx;

	assert_true(s->nr_ev < MAX_SEEN);
	s->ev[s->nr_ev++] = *ev;
	s->per_id[ev->id]++;
}

static void text(void *ctx, const char *event, const char *line)
{
	struct seen *s = ctx;

	assert_true(s->nr_line < MAX_SEEN);
	assert_true(!strncmp(line, event, strlen(event)) && line[strlen(event)] == ':');
	s->line[s->nr_line++] = strdup(line);
}

static struct seen *seen_create(void)
{
	struct seen *s = calloc(1, sizeof(*s));

	s->ev = calloc(MAX_SEEN, sizeof(*s->ev));
	s->line = calloc(MAX_SEEN, sizeof(*s->line));
	assert_true(s->ev && s->line);
	return s;
}

static void seen_destroy(struct seen *s)
{
	for (unsigned i = 0; i < s->nr_line; i++)
		free(s->line[i]);
	free(s->line);
	free(s->ev);
	free(s);
}

/*
 * A field of @ev as its TP_printk line shows it: the record and the text
 * agree on the field the event is about, not only on the event's name.
 */
static void record_field(const struct cma_trace_event *ev, char *buf, size_t len)
{
	switch (ev->id) {
	case CMA_TRACE_CMA_ALLOC_START:
		snprintf(buf, len, "name=%s count=%lu align=%u", ev->cma.name, ev->cma.count, ev->cma.align);
		break;
	case CMA_TRACE_CMA_ALLOC_BUSY_RETRY:
	case CMA_TRACE_CMA_ALLOC_FINISH:
	case CMA_TRACE_CMA_RELEASE:
		snprintf(buf, len, "name=%s pfn=0x%lx", ev->cma.name, ev->cma.pfn);
		break;
	case CMA_TRACE_MM_PAGE_ALLOC:
	case CMA_TRACE_MM_PAGE_FREE:
		snprintf(buf, len, " pfn=%lu order=%u", ev->page.pfn, ev->page.order);
		break;
	case CMA_TRACE_MM_PAGE_ALLOC_EXTFRAG:
		snprintf(buf, len, " pfn=%lu alloc_order=%u", ev->extfrag.pfn, ev->extfrag.alloc_order);
		break;
	case CMA_TRACE_MM_COMPACTION_ISOLATE_FREEPAGES:
	case CMA_TRACE_MM_COMPACTION_ISOLATE_MIGRATEPAGES:
	case CMA_TRACE_MM_COMPACTION_FAST_ISOLATE_FREEPAGES:
		snprintf(buf, len, "nr_scanned=%lu nr_taken=%lu", ev->isolate.nr_scanned, ev->isolate.nr_taken);
		break;
	case CMA_TRACE_MM_COMPACTION_MIGRATEPAGES:
		snprintf(buf, len, "nr_migrated=%lu nr_failed=%lu", ev->compaction.nr_migrated,
			 ev->compaction.nr_failed);
		break;
	case CMA_TRACE_MM_MIGRATE_PAGES:
		snprintf(buf, len, "nr_succeeded=%lu nr_failed=%lu", ev->migrate.nr_succeeded,
			 ev->migrate.nr_failed);
		break;
	case CMA_TRACE_MM_MIGRATE_PAGES_START:
		snprintf(buf, len, "mode=%s reason=%s", ev->migrate.mode, ev->migrate.reason);
		break;
	case CMA_TRACE_MM_VMSCAN_LRU_SHRINK_INACTIVE:
		snprintf(buf, len, "nr_scanned=%ld nr_reclaimed=%ld", ev->shrink.nr_scanned,
			 ev->shrink.nr_reclaimed);
		break;
	case CMA_TRACE_MM_VMSCAN_WRITEPAGE:
		snprintf(buf, len, " pfn=%lu", ev->writepage.pfn);
		break;
	case CMA_TRACE_CMA_WAIT_ON_PAGE_WRITEBACK:
		snprintf(buf, len, "pfn=%lu", ev->writeback_wait.pfn);
		break;
	case CMA_TRACE_MM_VMSCAN_DIRECT_RECLAIM_END:
		snprintf(buf, len, "nr_reclaimed=%lu", ev->reclaim.nr_reclaimed);
		break;
	default:
		snprintf(buf, len, ": ");
	}
}

/* The machine full of two owners' movable pages, then a CMA allocation through them. */
static void cma_alloc_through_owners(struct cma_mm *mm)
{
	struct cma *cma = cma_dev_get_cma_area(mm, NULL);
	struct fake_owner *o[3];
	struct cma_page *p;

	for (int k = 0; k < 2; k++) {
		o[k] = owner_create(mm, k, 6000);
		for (uint64_t i = 0; i < o[k]->nr_slots; i++)
			if (!owner_fault(o[k], i, CMA_GFP_HIGHUSER_MOVABLE | CMA_GFP_NOWARN, k * 100000 + i))
				break;
	}
	/* the first range taken too if the area filled from its top (anon: moved, not dropped) */
	o[2] = owner_create(mm, true, 256);
	owner_take_free_range(o[2], cma_area_base_pfn(cma), 256);
	p = cma_dma_alloc_from_contiguous(mm, NULL, 1024, 8);
	assert_non_null(p);
	assert_true(cma_dma_release_from_contiguous(mm, NULL, p, 1024));
	for (int k = 0; k < 3; k++)
		owner_destroy(o[k]);
}

/*
 * Expect: with a probe on every event and the text consumer on all of
 * them, each text line is formatted from the record its probe got just
 * before: the same event, in the same order, showing the record's fields.
 */
static void probes_get_the_records_the_text_shows(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE);
	struct seen *s = seen_create();
	char field[256];
	unsigned kinds = 0;

	for (int id = 0; id < NR_CMA_TRACE_EVENTS; id++)
		assert_int_equal(cma_mm_set_trace_probe(mm, id, probe, s), 0);
	cma_mm_set_trace(mm, text, s);
	cma_alloc_through_owners(mm);
	cma_mm_set_trace(mm, NULL, NULL);
	assert_int_equal(s->nr_ev, s->nr_line);
	for (unsigned i = 0; i < s->nr_ev; i++) {
		record_field(&s->ev[i], field, sizeof(field));
		if (!strstr(s->line[i], field))
			fail_msg("kernel %s: event %u: record %d shows '%s', not in the line '%s'",
				 test_kernel(), i, s->ev[i].id, field, s->line[i]);
	}
	for (int id = 0; id < NR_CMA_TRACE_EVENTS; id++)
		kinds += s->per_id[id] != 0;
	printf("%u events of %u kinds\n", s->nr_ev, kinds);
	assert_true(s->per_id[CMA_TRACE_CMA_ALLOC_START] == 1 && s->per_id[CMA_TRACE_MM_MIGRATE_PAGES] > 0);
	assert_true(kinds >= 6);
	seen_destroy(s);
	cma_mm_destroy(mm);
}

/*
 * Expect: set_trace_events chooses the text's events only; a probe gets
 * its event whatever the choice, and an event with neither is not built.
 */
static void probe_ignores_the_text_choice(void **state)
{
	struct cma_mm *mm = test_mm(CMA_MACHINE);
	struct seen *s = seen_create();

	assert_int_equal(cma_mm_set_trace_probe(mm, CMA_TRACE_CMA_ALLOC_START, probe, s), 0);
	assert_int_equal(cma_mm_set_trace_probe(mm, CMA_TRACE_CMA_ALLOC_BUSY_RETRY, probe, s), 0);
	cma_mm_set_trace(mm, text, s);
	assert_int_equal(cma_mm_set_trace_events(mm, "cma_release"), 0);
	cma_alloc_through_owners(mm);
	assert_int_equal(s->per_id[CMA_TRACE_CMA_ALLOC_START], 1);
	assert_int_equal(s->nr_ev, s->per_id[CMA_TRACE_CMA_ALLOC_START] +
				   s->per_id[CMA_TRACE_CMA_ALLOC_BUSY_RETRY]);
	assert_int_equal(s->nr_line, 1);
	assert_true(!strncmp(s->line[0], "cma_release: ", 13));
	/* removed: no record any more */
	assert_int_equal(cma_mm_set_trace_probe(mm, CMA_TRACE_CMA_ALLOC_START, NULL, NULL), 0);
	assert_null(cma_dma_alloc_from_contiguous(mm, NULL, 1ul << 30 >> mm->page_shift, 0));
	assert_int_equal(s->per_id[CMA_TRACE_CMA_ALLOC_START], 1);
	seen_destroy(s);
	cma_mm_destroy(mm);
}

static void probe_bad_id(void **state)
{
	struct cma_mm *mm = test_mm();

	assert_int_equal(cma_mm_set_trace_probe(mm, NR_CMA_TRACE_EVENTS, probe, NULL), -EINVAL);
	assert_int_equal(cma_mm_set_trace_probe(mm, (enum cma_trace_id)-1, probe, NULL), -EINVAL);
	assert_int_equal(cma_mm_set_trace_probe(NULL, CMA_TRACE_MM_PAGE_FREE, probe, NULL), -EINVAL);
	cma_mm_destroy(mm);
}

/* ---- verify reports ---- */

struct problems {
	char line[8][320];
	unsigned nr;
};

static void collect_problem(void *ctx, const char *problem)
{
	struct problems *p = ctx;

	if (p->nr < 8)
		snprintf(p->line[p->nr], sizeof(p->line[0]), "%s", problem);
	p->nr++;
}

/*
 * Expect: cma_mm_verify_report() hands its function each line it logs,
 * as the line follows "cma_mm_verify: ", and nothing on a clean machine.
 */
static void verify_report_hands_each_logged_line(void **state)
{
	struct cma_mm *mm = test_mm(.metadata_only = true);
	struct zone *z = &mm->zones[ZONE_NORMAL];
	long v = atomic_load(&z->free_pages);
	struct problems p = { .nr = 0 };
	char logged[400], *log;

	assert_int_equal(cma_mm_verify_report(mm, collect_problem, &p), 0);
	assert_int_equal(p.nr, 0);
	atomic_store(&z->free_pages, v + 1);
	assert_int_equal(cma_mm_verify_report(mm, collect_problem, &p), -EUCLEAN);
	atomic_store(&z->free_pages, v);
	log = test_dmesg(mm);
	assert_true(p.nr > 0 && p.nr <= 8);
	for (unsigned i = 0; i < p.nr; i++) {
		snprintf(logged, sizeof(logged), "cma_mm_verify: %s\n", p.line[i]);
		if (!strstr(log, logged))
			fail_msg("reported '%s', logged no such line:\n%s", p.line[i], log);
	}
	free(log);
	assert_int_equal(cma_mm_verify_report(mm, NULL, NULL), 0);
	cma_mm_destroy(mm);
}

/* A text consumer that must not run once it was replaced. */
struct consumer {
	unsigned long calls;
	bool retired;		/* set once cma_mm_set_trace() replaced it and returned */
	unsigned long late;	/* calls after that */
};

static void consume(void *ctx, const char *event, const char *line)
{
	struct consumer *c = ctx;

	__atomic_fetch_add(&c->calls, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&c->retired, __ATOMIC_ACQUIRE))
		__atomic_fetch_add(&c->late, 1, __ATOMIC_RELAXED);
}

struct emitter {
	struct cma_mm *mm;
	bool stop;
	unsigned long rounds;
};

/* Pages allocated and freed on CPU 1: mm_page_alloc and mm_page_free events. */
static void *emit(void *arg)
{
	struct emitter *e = arg;

	cma_mm_bind_cpu(e->mm, 1);
	while (!__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE)) {
		struct cma_page *page = cma_alloc_pages(e->mm, CMA_GFP_KERNEL, 0);

		assert_non_null(page);
		cma_free_pages(e->mm, page, 0);
		e->rounds++;
	}
	return NULL;
}

#define SWAPS 2000

/*
 * Expect (tracepoint_synchronize_unregister): once cma_mm_set_trace()
 * returns, the consumer it replaced is never called, though another
 * thread emits events all along; each consumer saw events while it was
 * the one set. Clean under ThreadSanitizer.
 */
static void trace_consumer_replaced_under_a_running_emitter(void **state)
{
	struct cma_mm *mm = test_mm(.metadata_only = true, .cpus = 2);
	struct consumer c[SWAPS];
	struct emitter e = { .mm = mm };
	unsigned long seen = 0;
	pthread_t t;

	memset(c, 0, sizeof(c));
	cma_mm_bind_cpu(mm, 0);
	assert_int_equal(cma_mm_set_trace_events(mm, "mm_page_alloc mm_page_free"), 0);
	assert_int_equal(pthread_create(&t, NULL, emit, &e), 0);
	for (unsigned i = 0; i < SWAPS; i++) {
		const struct timespec tick = { .tv_nsec = 20000 };

		cma_mm_set_trace(mm, consume, &c[i]);
		if (i)
			__atomic_store_n(&c[i - 1].retired, true, __ATOMIC_RELEASE);
		nanosleep(&tick, NULL);
	}
	cma_mm_set_trace(mm, NULL, NULL);
	__atomic_store_n(&c[SWAPS - 1].retired, true, __ATOMIC_RELEASE);
	for (int i = 0; i < 1000; i++)
		sched_yield();
	__atomic_store_n(&e.stop, true, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	for (unsigned i = 0; i < SWAPS; i++) {
		assert_int_equal(__atomic_load_n(&c[i].late, __ATOMIC_RELAXED), 0);
		seen += __atomic_load_n(&c[i].calls, __ATOMIC_RELAXED) > 0;
	}
	assert_true(e.rounds > 0);
	assert_true(seen > 0);
	assert_int_equal(cma_mm_verify(mm), 0);
	cma_mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stats_read_each_counter_by_its_event),
		cmocka_unit_test(stats_match_names_after_cma_alloc),
		cmocka_unit_test(stats_bad_input),
		cmocka_unit_test(probes_get_the_records_the_text_shows),
		cmocka_unit_test(probe_ignores_the_text_choice),
		cmocka_unit_test(probe_bad_id),
		cmocka_unit_test(verify_report_hands_each_logged_line),
		cmocka_unit_test(trace_consumer_replaced_under_a_running_emitter),
	};

	return cmocka_run_group_tests_name("trace_stats", tests, NULL, NULL);
}
