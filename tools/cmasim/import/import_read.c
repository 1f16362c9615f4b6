// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim import: a snapshot directory's files into memory, each raw or
 * xz-compressed (NAME.xz, as cmasim snapshot writes them), and every one
 * read and checked against the others into a struct snapshot.
 */
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/escape.h"
#include "import/import.h"

/* All of @fd into a growing buffer; /proc files have no size to stat. */
static int read_all(int fd, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap + 1);

	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap >= IMPORT_MAX_FILE) {
				free(b);
				return -EFBIG;
			}
			nb = realloc(b, cap * 2 + 1);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			free(b);
			return e;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* @in (xz) decompressed into *@buf, NUL-terminated. */
static int unxz(const char *in, size_t in_len, char **buf, size_t *len)
{
	lzma_stream st = LZMA_STREAM_INIT;
	size_t cap = in_len * 4 + 4096;
	char *out = malloc(cap + 1);
	lzma_ret r;

	if (!out)
		return -ENOMEM;
	if (lzma_stream_decoder(&st, UINT64_MAX, 0) != LZMA_OK) {
		free(out);
		return -ENOMEM;
	}
	st.next_in = (const uint8_t *)in;
	st.avail_in = in_len;
	st.next_out = (uint8_t *)out;
	st.avail_out = cap;
	while ((r = lzma_code(&st, LZMA_FINISH)) == LZMA_OK) {
		size_t done = cap - st.avail_out;
		char *nb;

		if (st.avail_out)
			continue;
		if (cap >= IMPORT_MAX_FILE) {
			r = LZMA_MEMLIMIT_ERROR;
			break;
		}
		nb = realloc(out, cap * 2 + 1);
		if (!nb) {
			r = LZMA_MEM_ERROR;
			break;
		}
		out = nb;
		st.next_out = (uint8_t *)out + done;
		st.avail_out = cap;
		cap *= 2;
	}
	*len = cap - st.avail_out;
	lzma_end(&st);
	if (r != LZMA_STREAM_END) {
		free(out);
		return r == LZMA_MEM_ERROR ? -ENOMEM : -EILSEQ;
	}
	out[*len] = '\0';
	*buf = out;
	return 0;
}

int import_read_file(const char *dir, const char *name, char **buf, size_t *len, char *err,
		     size_t errlen)
{
	char path[4096];
	bool xz = false;
	char *raw = NULL;
	size_t raw_len = 0;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0 && errno == ENOENT) {
		snprintf(path, sizeof(path), "%s/%s.xz", dir, name);
		fd = open(path, O_RDONLY);
		xz = true;
	}
	if (fd < 0) {
		ret = errno == ENOENT ? -ENOENT : -EINVAL;
		snprintf(err, errlen, "%s/%s: %s (neither %s nor %s.xz can be read)", dir, name,
			 strerror(errno), name, name);
		return ret;
	}
	ret = read_all(fd, &raw, &raw_len);
	close(fd);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return -EINVAL;
	}
	if (!xz) {
		*buf = raw;
		*len = raw_len;
		return 0;
	}
	ret = unxz(raw, raw_len, buf, len);
	free(raw);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path,
			 ret == -EILSEQ ? "not xz data, or truncated (liblzma could not decompress it)" :
			 strerror(-ret));
		return -EINVAL;
	}
	return 0;
}

/* A text file of the snapshot, parsed by @parse; one it may lack (@optional) missing is 0. */
static int read_text(const char *dir, const char *name, bool optional, struct snapshot *s,
		     int (*parse)(const char *, struct snapshot *, char *, size_t), char *err,
		     size_t errlen)
{
	char *text, msg[IMPORT_ERR_MAX];
	size_t len;
	int ret = import_read_file(dir, name, &text, &len, err, errlen);

	if (ret)
		return ret == -ENOENT && optional ? 0 : -EINVAL;
	if (strlen(text) != len) {
		snprintf(err, errlen, "%s/%s: a NUL byte at offset %zu: not a text file", dir, name,
			 strlen(text));
		free(text);
		return -EINVAL;
	}
	ret = parse(text, s, msg, sizeof(msg));
	free(text);
	if (ret)	/* the message quotes the file: its zone names, its lines */
		snprintf(err, errlen, "%s/%s: %s", dir, name, ESCAPED(msg));
	return ret ? -EINVAL : 0;
}

/* kpageflags or kpagecount: one 64-bit word per pfn, as many as zoneinfo's zones span. */
static int read_words(const char *dir, const char *name, const struct snapshot *s, uint64_t **words,
		      unsigned long *nr, char *err, size_t errlen)
{
	unsigned long end = 0;
	char *buf;
	size_t len;

	if (import_read_file(dir, name, &buf, &len, err, errlen))
		return -EINVAL;
	for (unsigned z = 0; z < s->nr_zones; z++)
		if (s->zones[z].spanned && s->zones[z].start_pfn + s->zones[z].spanned > end)
			end = s->zones[z].start_pfn + s->zones[z].spanned;
	if (len % 8) {
		snprintf(err, errlen, "%s/%s: truncated: %zu bytes, not a whole number of 8-byte words",
			 dir, name, len);
		free(buf);
		return -EINVAL;
	}
	if (len / 8 != end) {
		snprintf(err, errlen, "%s/%s: %zu words (pfns) where zoneinfo's zones end at pfn %lu: %s",
			 dir, name, len / 8, end,
			 len / 8 < end ? "truncated, or from another machine" :
					 "longer than the zones span: from another machine");
		free(buf);
		return -EINVAL;
	}
	*words = (uint64_t *)(void *)buf;
	*nr = end;
	return 0;
}

/*
 * iomem's System RAM within zoneinfo's zones, as the kernel spans its
 * zones over all of it: RAM past them would become a zone the snapshot
 * does not have.
 */
static int banks_in_zones(const char *dir, const struct snapshot *s, char *err, size_t errlen)
{
	const struct import_zone *last = &s->zones[s->nr_zones - 1];
	const struct cma_bank *top = &s->banks[s->nr_banks - 1];
	uint64_t end = (uint64_t)(last->start_pfn + last->spanned) << 12;

	if (top->base + top->size <= end)
		return 0;
	snprintf(err, errlen, "%s/iomem: System RAM up to %#llx, past zoneinfo's zones (they end at %#llx): from another machine",
		 dir, (unsigned long long)(top->base + top->size - 1), (unsigned long long)end);
	return -EINVAL;
}

int snapshot_read(const char *dir, struct snapshot *s, char *err, size_t errlen)
{
	unsigned long nr_count;
	char *text;
	size_t len;
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", dir, stat(dir, &st) ? strerror(errno) : "not a directory");
		return -EINVAL;
	}
	/* version: the release, which snapshots taken before cmasim read it lack */
	if (read_text(dir, "zoneinfo", false, s, parse_zoneinfo, err, errlen) ||
	    read_text(dir, "buddyinfo", false, s, parse_buddyinfo, err, errlen) ||
	    read_text(dir, "pagetypeinfo", false, s, parse_pagetypeinfo, err, errlen) ||
	    read_text(dir, "iomem", false, s, parse_iomem, err, errlen) ||
	    read_text(dir, "meminfo", false, s, parse_meminfo, err, errlen) ||
	    read_text(dir, "version", true, s, parse_version, err, errlen) ||
	    banks_in_zones(dir, s, err, errlen))
		goto fail;
	if (!import_read_file(dir, "cmdline", &text, &len, err, errlen)) {
		snprintf(s->cmdline, sizeof(s->cmdline), "%s", text);
		s->cmdline[strcspn(s->cmdline, "\n")] = '\0';
		free(text);
	}
	if (read_words(dir, "kpageflags", s, &s->flags, &s->nr_pfns, err, errlen) ||
	    read_words(dir, "kpagecount", s, &s->count, &nr_count, err, errlen))
		goto fail;
	return 0;
fail:
	snapshot_free(s);
	return -EINVAL;
}

void snapshot_free(struct snapshot *s)
{
	free(s->flags);
	free(s->count);
	s->flags = s->count = NULL;
}
