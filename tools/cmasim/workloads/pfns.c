// SPDX-License-Identifier: GPL-2.0
/* A pfns file read into one pfn a page (pfns.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/inifile.h"
#include "scenario/scenario.h"
#include "engine/owned.h"
#include "workloads/pfns.h"

/* A pfn or a count at *@p: decimal, or hex after 0x (never octal, never signed). */
static bool pfns_number(const char **p, unsigned long long *v)
{
	const char *s = *p + strspn(*p, " \t");
	int base = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*v = strtoull(s, &end, base);
	if (errno || end == s + (base == 16 ? 2 : 0))
		return false;
	*p = end;
	return true;
}

/* One run into @first, @count: true if the line is one. */
static bool pfns_line(const char *line, unsigned long long *first, unsigned long long *count)
{
	if (!pfns_number(&line, first) || !pfns_number(&line, count) || line[strspn(line, " \t\n")])
		return false;
	return *count && *count <= SIM_MAX_BYTES / 4096 && *first <= SIM_MAX_BYTES / 4096;
}

static int pfns_grow(unsigned long **pfns, long *cap, long need)
{
	unsigned long *grown;
	long c = *cap ? *cap : 1024;

	while (c < need)
		c *= 2;
	grown = realloc(*pfns, (size_t)c * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	*pfns = grown;
	*cap = c;
	return 0;
}

long pfns_read(const char *path, unsigned long **pfns, char *err, size_t len)
{
	FILE *f;
	char line[256];
	long nr = 0, cap = 0;
	unsigned no = 0;

	f = ini_open_list(path);
	if (!f)
		return ini_fail(err, len, "pfns = %s: cannot be read (%s); accepted: a pfns file, one run a line: " PFNS_SYNTAX,
				path, errno ? strerror(errno) : "not a regular file"), -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long first, count;

		no++;
		if (ini_list_skip(line))
			continue;
		if (!pfns_line(line, &first, &count) || nr + count > SIM_MAX_BYTES / 4096) {
			fclose(f);
			return ini_fail(err, len, "pfns = %s:%u: not a run of page frames; accepted " PFNS_SYNTAX, path, no), -1;
		}
		if (pfns && nr + (long)count > cap && pfns_grow(pfns, &cap, nr + (long)count)) {
			fclose(f);
			return -ENOMEM;
		}
		for (unsigned long long i = 0; pfns && i < count; i++)
			(*pfns)[nr + (long)i] = (unsigned long)(first + i);
		nr += (long)count;
	}
	fclose(f);
	return nr;
}

int pfns_check(const struct wl_spec *w, const char *path, const char *key, uint64_t bytes, char *err, size_t len)
{
	char msg[512] = "";
	long nr = pfns_read(path, NULL, msg, sizeof(msg));

	if (nr < 0)
		return ini_fail(err, len, "[%s %s]: %s", w->kind->name, w->name, msg);
	if ((uint64_t)nr > bytes / 4096)
		return ini_fail(err, len, "[%s %s]: pfns = %s places %ld pages, more than %s holds", w->kind->name,
				w->name, path, nr, key);
	return 1;
}

int pfns_place(struct owned_pages *o, const char *path)
{
	char err[512];
	long nr = pfns_read(path, &o->at, err, sizeof(err));

	if (nr < 0)
		return nr == -ENOMEM ? -ENOMEM : -EINVAL;
	o->nr_at = (uint64_t)nr < o->nr ? (uint64_t)nr : o->nr;
	return 0;
}
