// SPDX-License-Identifier: GPL-2.0
/*
 * The ground every file of src/mm stands on: pfn <-> page, zones, the
 * per-CPU slots and which one a thread uses, the page API, the kernel log.
 * It calls nothing above it; the machine's life (create, boot, destroy)
 * is in mm_init.c.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mm/mmzone.h"

_Thread_local struct cpu_binding cpu_binding;

void cma_bug(const char *file, int line, const char *cond)
{
	fprintf(stderr, "libcma: BUG at %s:%d: %s\n", file, line, cond);
	abort();
}

/* ---- the kernel log ---- */

struct printk_log {
	pthread_mutex_t lock;
	char *buf;
	size_t len, cap;
};

static struct printk_log *mm_log(struct cma_mm *mm)
{
	return (struct printk_log *)(mm + 1);
}

/* The machine and its log, in one allocation (mm_init.c fills the machine in). */
struct cma_mm *mm_alloc(void)
{
	struct cma_mm *mm = calloc(1, sizeof(*mm) + sizeof(struct printk_log));

	if (mm)
		pthread_mutex_init(&mm_log(mm)->lock, NULL);
	return mm;
}

void mm_free(struct cma_mm *mm)
{
	pthread_mutex_destroy(&mm_log(mm)->lock);
	free(mm_log(mm)->buf);
	free(mm);
}

static void log_append(struct printk_log *log, const char *s, size_t n)
{
	pthread_mutex_lock(&log->lock);
	if (log->len + n + 1 > log->cap) {
		size_t cap = (log->len + n + 1) * 2;
		char *buf = realloc(log->buf, cap);

		if (!buf)
			goto out;
		log->buf = buf;
		log->cap = cap;
	}
	memcpy(log->buf + log->len, s, n);
	log->len += n;
	log->buf[log->len] = '\0';
out:
	pthread_mutex_unlock(&log->lock);
}

#define PRINTK_TIME_CHARS	15	/* "[%5lu.%06lu] " */

/* The level of a line that starts with a KERN_ prefix, or MESSAGE_LOGLEVEL_DEFAULT. */
static int printk_get_level(const char **line, size_t *len)
{
	const char *s = *line;

	if (*len >= 2 && s[0] == KERN_SOH_ASCII && s[1] >= '0' && s[1] <= '7') {
		*line += 2;
		*len -= 2;
		return s[1] - '0';
	}
	return MESSAGE_LOGLEVEL_DEFAULT;
}

/*
 * The characters @line of @level puts on the serial console, if it
 * reaches it (console.c has the why), in the event console_chars.
 */
static void console_account(struct cma_mm *mm, int level, const char *line, size_t len)
{
	uint64_t chars = 0;
	bool start = true;

	if (!mm->console.baud || level >= mm->console.loglevel || mm->phase != MM_BOOTED)
		return;
	for (size_t i = 0; i < len; i++) {
		if (start && mm->console.time)
			chars += PRINTK_TIME_CHARS;
		start = line[i] == '\n';
		chars += start ? 2 : 1;		/* '\n' goes out as "\r\n" */
	}
	count_vm_events(mm, CONSOLE_CHARS, chars);
}

static void mm_vprintk(struct cma_mm *mm, bool err, const char *fmt, va_list ap)
{
	char buf[512];
	const char *line = buf;
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t len;
	int level;

	if (n < 0)
		return;
	len = (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1;
	level = printk_get_level(&line, &len);
	if (err)
		level = LOGLEVEL_ERR;
	if (mm) {
		log_append(mm_log(mm), line, len);
		console_account(mm, level, line, len);
	}
	if (!mm || (err && !mm->quiet))
		fputs(line, stderr);
}

/* Board code's messages go to the machine's log, between the kernel's own. */
void cma_mm_printk(struct cma_mm *mm, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mm_vprintk(mm, false, fmt, ap);
	va_end(ap);
}

void cma_mm_pr_err(struct cma_mm *mm, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mm_vprintk(mm, true, fmt, ap);
	va_end(ap);
}

const char *cma_mm_kernel(const struct cma_mm *mm)
{
	return mm->kernel.name;
}

int cma_mm_dmesg(struct cma_mm *mm, FILE *out)
{
	struct printk_log *log = mm_log(mm);
	int ret = 0;

	pthread_mutex_lock(&log->lock);
	if (log->len && fwrite(log->buf, 1, log->len, out) != log->len)
		ret = -EIO;
	pthread_mutex_unlock(&log->lock);
	return ret;
}

/* ---- pfns, zones, slots ---- */

bool __pfn_valid(const struct cma_mm *mm, unsigned long pfn)
{
	const struct memblock_type *mem = &mm->memblock.memory;
	unsigned long lo = 0, hi = mem->cnt;

	if (pfn < mm->base_pfn || pfn >= mm->end_pfn)
		return false;
	/* binary search: banks are sorted and disjoint */
	while (lo < hi) {
		unsigned long mid = (lo + hi) / 2;
		cma_phys_t base = mem->regions[mid].base >> mm->page_shift;
		cma_phys_t end = (mem->regions[mid].base + mem->regions[mid].size) >> mm->page_shift;

		if (pfn < base)
			hi = mid;
		else if (pfn >= end)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

struct zone *pfn_zone(struct cma_mm *mm, unsigned long pfn)
{
	struct zone *z;

	for_each_populated_zone(mm, z)
		if (zone_spans_pfn(z, pfn))
			return z;
	return NULL;
}

void cma_mm_bind_cpu(struct cma_mm *mm, unsigned cpu)
{
	if (cpu >= mm->nr_cpus) {
		cma_mm_pr_err(mm, "cma_mm_bind_cpu: cpu %u out of range: this machine has %u (0..%u)\n",
			  cpu, mm->nr_cpus, mm->nr_cpus - 1);
		return;
	}
	cpu_binding.mm_id = mm->id;
	cpu_binding.cpu = cpu;
}

/* mm_require_phase() found @mm missing or in the other phase. */
int mm_phase_error(struct cma_mm *mm, enum mm_phase phase, const char *what)
{
	cma_mm_pr_err(mm, "%s: only valid %s\n", what,
		  phase == MM_EARLY ? "before cma_mm_boot() (early boot)" : "after cma_mm_boot()");
	return -EINVAL;
}

/* ---- page API ---- */

unsigned long cma_page_to_pfn(struct cma_mm *mm, const struct cma_page *page)
{
	return page_to_pfn(mm, page);
}

struct cma_page *cma_pfn_to_page(struct cma_mm *mm, unsigned long pfn)
{
	if (mm->phase != MM_BOOTED || !pfn_valid(mm, pfn))
		return NULL;
	return pfn_to_page(mm, pfn);
}

void *cma_page_address(struct cma_mm *mm, const struct cma_page *page)
{
	if (!mm->backing || !page)
		return NULL;
	return mm->backing + (page_idx(mm, page) << mm->page_shift);
}

struct cma_page *cma_page_nth(struct cma_mm *mm, struct cma_page *page, unsigned long n)
{
	return page + n;
}
