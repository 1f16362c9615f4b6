// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim import: the snapshot's text files (zoneinfo, buddyinfo,
 * pagetypeinfo, iomem, meminfo) parsed from memory. Each says in @err
 * what was wrong without the file's name, which its caller adds.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

/* The pageblock type names of pagetypeinfo's header, both kernels'. */
static const struct {
	const char *name;
	int mt;
} block_type_names[] = {
	{ "Unmovable", CMA_MIGRATE_UNMOVABLE }, { "Reclaimable", CMA_MIGRATE_RECLAIMABLE },
	{ "Movable", CMA_MIGRATE_MOVABLE }, { "Reserve", CMA_MIGRATE_RESERVE },
	{ "HighAtomic", CMA_MIGRATE_RESERVE }, { "CMA", CMA_MIGRATE_CMA },
	{ "Isolate", CMA_MIGRATE_ISOLATE },
};

struct import_zone *snapshot_zone(struct snapshot *s, const char *name)
{
	for (unsigned z = 0; z < s->nr_zones; z++)
		if (!strcmp(s->zones[z].name, name))
			return &s->zones[z];
	return NULL;
}

/* "Node 0, zone   Normal" at @line: the zone's name into @name, the rest after it in *@rest. */
static int node_zone(const char *line, char name[16], const char **rest, char *err, size_t errlen)
{
	int node, n = 0;

	if (sscanf(line, "Node %d, zone %15s%n", &node, name, &n) != 2)
		return 1;
	if (node) {
		snprintf(err, errlen, "NUMA node %d: cmasim imports a machine of one node", node);
		return -EINVAL;
	}
	*rest = line + n;
	return 0;
}

/* The next line of *@text, NUL-terminated in @line; false at the end. */
static bool next_line(const char **text, char *line, size_t len)
{
	const char *t = *text, *nl;
	size_t n;

	if (!*t)
		return false;
	nl = strchr(t, '\n');
	n = nl ? (size_t)(nl - t) : strlen(t);
	snprintf(line, len, "%.*s", (int)(n < len ? n : len - 1), t);
	*text = nl ? nl + 1 : t + n;
	return true;
}

/* "  KEY  N" at @line (KEY followed by blanks or ':') into *@v: true if it is. */
static bool key_value(const char *line, const char *key, unsigned long *v)
{
	size_t k = strlen(key);

	line += strspn(line, " ");
	if (strncmp(line, key, k) || (line[k] != ' ' && line[k] != ':'))
		return false;
	return sscanf(line + k + 1, " %lu", v) == 1;
}

int parse_zoneinfo(const char *text, struct snapshot *s, char *err, size_t errlen)
{
	bool v6 = false, v35 = false, seen = false, spanned = false, present = false, start = false;
	struct import_zone *z = NULL;
	char line[512];
	unsigned long v;

	s->nr_zones = 0;
	while (next_line(&text, line, sizeof(line))) {
		char name[16];
		const char *rest;
		int r = node_zone(line, name, &rest, err, errlen);

		if (r < 0)
			return r;
		if (!r) {
			if (z && (!spanned || !present || (!start && z->spanned)))
				goto missing;
			seen = true;
			spanned = present = start = false;
			if (s->nr_zones == IMPORT_MAX_ZONES) {
				snprintf(err, errlen, "more than %d zones", IMPORT_MAX_ZONES);
				return -EINVAL;
			}
			z = &s->zones[s->nr_zones++];
			memset(z, 0, sizeof(*z));
			snprintf(z->name, sizeof(z->name), "%s", name);
			continue;
		}
		if (strstr(line, "per-node stats"))
			v6 = true;
		if (strstr(line, "all_unreclaimable:"))
			v35 = true;
		if (!z)
			continue;
		if (key_value(line, "pages free", &v))
			z->free = v;
		else if (key_value(line, "spanned", &v))
			z->spanned = v, spanned = true;
		else if (key_value(line, "present", &v))
			z->present = v, present = true;
		else if (key_value(line, "managed", &v))
			z->managed = v, z->has_managed = true;
		else if (key_value(line, "start_pfn", &v))
			z->start_pfn = v, start = true;
		else if (key_value(line, "count", &v))
			z->pcp += v;
	}
	if (!seen) {
		snprintf(err, errlen, "no 'Node 0, zone NAME' line: not a /proc/zoneinfo");
		return -EINVAL;
	}
	if (z && (!spanned || !present || (!start && z->spanned)))
		goto missing;
	if (v6 == v35) {
		snprintf(err, errlen, "a layout cmasim does not read: neither Linux 6.x's (a 'per-node stats' line, profile 6.12) nor 3.5's ('all_unreclaimable:' lines)%s",
			 v6 ? "; it has both" : "");
		return -EINVAL;
	}
	s->kernel = v6 ? IMPORT_KERNEL_NEWEST : "3.5";
	/* 6.x lists its empty Movable and Device zones: no pages, nothing to rebuild */
	for (unsigned i = 0; i < s->nr_zones;) {
		if (s->zones[i].spanned) {
			i++;
			continue;
		}
		memmove(&s->zones[i], &s->zones[i + 1], (s->nr_zones - i - 1) * sizeof(s->zones[0]));
		s->nr_zones--;
	}
	for (unsigned i = 0; i < s->nr_zones; i++) {
		const struct import_zone *zi = &s->zones[i];

		if (strcmp(zi->name, "DMA") && strcmp(zi->name, "DMA32") && strcmp(zi->name, "Normal")) {
			snprintf(err, errlen, "zone %s: cmasim imports x86-64 machines, whose zones are DMA, DMA32 and Normal",
				 zi->name);
			return -EINVAL;
		}
		if (zi->present > zi->spanned || (i && zi->start_pfn < zi[-1].start_pfn + zi[-1].spanned)) {
			snprintf(err, errlen, "zone %s: spans %lu pages from pfn %lu, %s", zi->name,
				 zi->spanned, zi->start_pfn,
				 zi->present > zi->spanned ? "fewer than it has present" :
							     "overlapping the zone before it");
			return -EINVAL;
		}
	}
	if (!s->nr_zones) {
		snprintf(err, errlen, "every zone is empty");
		return -EINVAL;
	}
	return 0;
missing:
	snprintf(err, errlen, "zone %s has no %s line", z->name,
		 !spanned ? "'spanned'" : !present ? "'present'" : "'start_pfn:'");
	return -EINVAL;
}

int parse_buddyinfo(const char *text, struct snapshot *s, char *err, size_t errlen)
{
	char line[512];
	bool any = false;

	while (next_line(&text, line, sizeof(line))) {
		char name[16];
		const char *rest;
		struct import_zone *z;
		unsigned n = 0;
		int r = node_zone(line, name, &rest, err, errlen), used;
		unsigned long v;

		if (r < 0)
			return r;
		if (r) {
			snprintf(err, errlen, "'%.40s': not a 'Node 0, zone NAME COUNTS...' line", line);
			return -EINVAL;
		}
		z = snapshot_zone(s, name);
		if (!z) {
			snprintf(err, errlen, "zone %s: not among zoneinfo's zones with pages", name);
			return -EINVAL;
		}
		while (sscanf(rest, " %lu%n", &v, &used) == 1) {
			if (n == IMPORT_MAX_ORDERS) {
				snprintf(err, errlen, "zone %s: more than %d orders", name, IMPORT_MAX_ORDERS);
				return -EINVAL;
			}
			z->buddy[n++] = v;
			rest += used;
		}
		if (rest[strspn(rest, " ")] || n < 2 || (any && n != s->nr_orders)) {
			snprintf(err, errlen, "zone %s: %u free counts%s", name, n,
				 rest[strspn(rest, " ")] ? " then something not a number" :
				 n < 2 ? ", too few orders" : ", not as many as the zone before");
			return -EINVAL;
		}
		s->nr_orders = n;
		z->has_buddy = any = true;
	}
	if (!any) {
		snprintf(err, errlen, "no 'Node 0, zone NAME COUNTS...' line: not a /proc/buddyinfo");
		return -EINVAL;
	}
	return 0;
}

/* pagetypeinfo's "Number of blocks type" header into @cols: the type of each column. */
static int block_columns(const char *rest, int *cols, unsigned *nr, char *err, size_t errlen)
{
	char word[32];
	int used;

	*nr = 0;
	while (sscanf(rest, " %31s%n", word, &used) == 1) {
		size_t i;

		for (i = 0; i < sizeof(block_type_names) / sizeof(block_type_names[0]); i++)
			if (!strcmp(word, block_type_names[i].name))
				break;
		if (i == sizeof(block_type_names) / sizeof(block_type_names[0]) || *nr == 8) {
			snprintf(err, errlen, "block type '%s': not one cmasim knows (Unmovable, Reclaimable, Movable, Reserve, HighAtomic, CMA, Isolate)",
				 word);
			return -EINVAL;
		}
		cols[(*nr)++] = block_type_names[i].mt;
		rest += used;
	}
	return 0;
}

int parse_pagetypeinfo(const char *text, struct snapshot *s, char *err, size_t errlen)
{
	char line[512];
	int cols[8];
	unsigned nr_cols = 0;
	unsigned long v;
	bool any = false;

	s->pageblock_order = 0;
	while (next_line(&text, line, sizeof(line))) {
		char name[16];
		const char *rest;
		struct import_zone *z;
		int r;

		if (key_value(line, "Page block order", &v)) {
			s->pageblock_order = (unsigned)v;
			continue;
		}
		if (!strncmp(line, "Number of blocks type", 21)) {
			if (block_columns(line + 21, cols, &nr_cols, err, errlen))
				return -EINVAL;
			continue;
		}
		r = node_zone(line, name, &rest, err, errlen);
		if (r < 0)
			return r;
		/* the free lists' table comes first, "Node 0, zone DMA, type Unmovable ..." */
		if (r || !nr_cols || name[strlen(name) - 1] == ',')
			continue;
		z = snapshot_zone(s, name);
		if (!z)
			continue;
		for (unsigned c = 0; c < nr_cols; c++) {
			int used;

			if (sscanf(rest, " %lu%n", &v, &used) != 1) {
				snprintf(err, errlen, "zone %s: %u block counts where the header names %u types",
					 name, c, nr_cols);
				return -EINVAL;
			}
			z->blocks[cols[c]] += v;
			rest += used;
		}
		z->has_blocks = any = true;
	}
	if (!s->pageblock_order || s->pageblock_order >= IMPORT_MAX_ORDERS || !any) {
		snprintf(err, errlen, "%s: not a /proc/pagetypeinfo",
			 !s->pageblock_order || s->pageblock_order >= IMPORT_MAX_ORDERS ?
			 "no 'Page block order: N' line (N below 16)" :
			 "no 'Number of blocks type' table");
		return -EINVAL;
	}
	return 0;
}

int parse_iomem(const char *text, struct snapshot *s, char *err, size_t errlen)
{
	char line[512];
	bool all_zero = true;

	s->nr_banks = 0;
	while (next_line(&text, line, sizeof(line))) {
		uint64_t start, end, base, top;
		int n = 0;

		/* top-level resources only: nested ones are indented */
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " : %n", &start, &end, &n) != 2 || !n ||
		    strcmp(line + n, "System RAM"))
			continue;
		if (start || end)
			all_zero = false;
		base = (start + 4095) & ~4095ull;
		top = (end + 1) & ~4095ull;
		if (top <= base)
			continue;
		if (s->nr_banks == IMPORT_MAX_BANKS) {
			snprintf(err, errlen, "more than %d System RAM ranges", IMPORT_MAX_BANKS);
			return -EINVAL;
		}
		if (s->nr_banks && base < s->banks[s->nr_banks - 1].base + s->banks[s->nr_banks - 1].size) {
			snprintf(err, errlen, "System RAM at %#" PRIx64 " not above the range before it", base);
			return -EINVAL;
		}
		s->banks[s->nr_banks].base = base;
		s->banks[s->nr_banks++].size = top - base;
	}
	if (!s->nr_banks) {
		snprintf(err, errlen, "%s", all_zero ?
			 "no 'START-END : System RAM' line with an address; read as any user but root, iomem shows them all as 0: copy it as root" :
			 "no 'START-END : System RAM' line");
		return -EINVAL;
	}
	return 0;
}

int parse_meminfo(const char *text, struct snapshot *s, char *err, size_t errlen)
{
	char line[256];
	bool total = false;
	unsigned long v;

	s->swap_bytes = 0;
	while (next_line(&text, line, sizeof(line))) {
		if (key_value(line, "MemTotal", &v))
			total = true;
		else if (key_value(line, "SwapTotal", &v)) {
			if (v > UINT64_MAX / 1024) {
				snprintf(err, errlen, "SwapTotal %lu kB does not fit in 64 bits of bytes", v);
				return -EINVAL;
			}
			s->swap_bytes = (uint64_t)v * 1024;
		}
	}
	if (!total) {
		snprintf(err, errlen, "no 'MemTotal:' line: not a /proc/meminfo");
		return -EINVAL;
	}
	return 0;
}

/* "Linux version 6.18.44-amd64 (...) ...": the release's leading digits and dots ("6.18.44"). */
int parse_version(const char *text, struct snapshot *s, char *err, size_t errlen)
{
	static const char prefix[] = "Linux version ";
	const char *rel = strncmp(text, prefix, sizeof(prefix) - 1) ? "" : text + sizeof(prefix) - 1;
	size_t n = strspn(rel, "0123456789.");

	if (*rel < '0' || *rel > '9' || n >= sizeof(s->release)) {
		snprintf(err, errlen, "no 'Linux version RELEASE' at its start: not a /proc/version");
		return -EINVAL;
	}
	snprintf(s->release, sizeof(s->release), "%.*s", (int)n, rel);
	return 0;
}
