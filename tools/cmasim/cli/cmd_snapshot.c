// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim snapshot DIR: the /proc files cmasim import reads, taken from the
 * machine cmasim runs on (Linux, as root: kpageflags, kpagecount and
 * iomem's addresses are root's). The files that say where pages are free
 * are read first, one after the other, so that they disagree as little as
 * a running system allows (and again while buddyinfo moves, below);
 * kpageflags and kpagecount are written
 * xz-compressed (NAME.xz), the rest as they are.
 */
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/atomic_file.h"
#include "cli/commands.h"
#include "import/import.h"

/* In the order they are read. */
static const struct {
	const char *name;
	bool xz, optional;
} snap_files[] = {
	{ .name = "buddyinfo" }, { .name = "pagetypeinfo" }, { .name = "zoneinfo" },
	{ .name = "kpageflags", .xz = true }, { .name = "kpagecount", .xz = true },
	{ .name = "meminfo" }, { .name = "iomem" }, { .name = "cmdline", .optional = true },
	{ .name = "version" },
};

#define NR_SNAP_FILES (sizeof(snap_files) / sizeof(snap_files[0]))

/* @buf xz-compressed into @f (preset 1: a 48 MB kpageflags in seconds); a write error is left in ferror(@f). */
static int write_xz(FILE *f, const char *buf, size_t len)
{
	lzma_stream st = LZMA_STREAM_INIT;
	uint8_t out[1 << 16];
	lzma_ret r;
	int ret = 0;

	if (lzma_easy_encoder(&st, 1, LZMA_CHECK_CRC64) != LZMA_OK)
		return -ENOMEM;
	st.next_in = (const uint8_t *)buf;
	st.avail_in = len;
	do {
		st.next_out = out;
		st.avail_out = sizeof(out);
		r = lzma_code(&st, LZMA_FINISH);
		if (r != LZMA_OK && r != LZMA_STREAM_END)
			ret = -EIO;
		else if (fwrite(out, 1, sizeof(out) - st.avail_out, f) != sizeof(out) - st.avail_out)
			ret = -EIO;
	} while (!ret && r != LZMA_STREAM_END);
	lzma_end(&st);
	return ret;
}

/* DIR/NAME, whole or not at all (atomic_file.h). */
static int save(const char *dir, const char *name, bool xz, const char *buf, size_t len)
{
	struct atomic_file af;
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/%s%s", dir, name, xz ? ".xz" : "");
	ret = atomic_file_open(&af, path, "snapshot");
	if (ret)
		return ret;
	if (xz)
		ret = write_xz(af.f, buf, len);
	else
		fwrite(buf, 1, len, af.f);
	/* the compressor's failure; the file's is commit's to report */
	if (ret && !ferror(af.f)) {
		atomic_file_abort(&af);
		fprintf(stderr, "cmasim snapshot: %s: xz compression failed; it is left as it was\n", path);
		return -EIO;
	}
	return atomic_file_commit(&af);
}

/* Free pages by a buddyinfo text, all zones. */
static unsigned long buddyinfo_free(const char *text)
{
	unsigned long total = 0;

	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *p = strstr(line, "zone");
		unsigned long v;
		int used, order = 0;

		if (!p)
			continue;
		p += 4;
		p += strspn(p, " ");
		p += strcspn(p, " \n");
		while (sscanf(p, " %lu%n", &v, &used) == 1 && order < 63) {
			total += v << order++;
			p += used;
		}
	}
	return total;
}

/* Read every file into @bufs; 0, or -EINVAL after saying why. */
static int read_files(char **bufs, size_t *lens)
{
	char err[IMPORT_ERR_MAX];

	for (size_t i = 0; i < NR_SNAP_FILES; i++) {
		free(bufs[i]);
		bufs[i] = NULL;
		if (!import_read_file("/proc", snap_files[i].name, &bufs[i], &lens[i], err, sizeof(err)) ||
		    snap_files[i].optional)
			continue;
		fprintf(stderr, "cmasim snapshot: %s (is this Linux, with CONFIG_PROC_PAGE_MONITOR?)\n", err);
		return -EINVAL;
	}
	return 0;
}

/*
 * The files, read again (up to SNAP_TRIES times) while the free pages
 * buddyinfo counts move by more than 1% between its read, first, and a
 * second one after kpagecount's: reading kpageflags takes seconds on a
 * busy machine, and the import is held to buddyinfo within 3%.
 */
#define SNAP_TRIES 5

int cmd_snapshot(int argc, char **argv)
{
	char *bufs[NR_SNAP_FILES] = { 0 }, *again, err[IMPORT_ERR_MAX];
	size_t lens[NR_SNAP_FILES], len;
	unsigned long before = 0, after = 0;
	int ret = 0, tries = 0;
	struct stat st;
	size_t i;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: cmasim snapshot DIR (as root, on Linux: DIR receives the /proc files cmasim import reads)\n");
		return argc == 2 && opt_is_help(argv[1]) ? CMD_USAGE : -EINVAL;
	}
	if (geteuid()) {
		fprintf(stderr, "cmasim snapshot: needs root: /proc/kpageflags, /proc/kpagecount and iomem's addresses are root's\n");
		return -EINVAL;
	}
	if (mkdir(argv[1], 0755) && (errno != EEXIST || stat(argv[1], &st) || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "cmasim snapshot: %s: %s\n", argv[1], strerror(errno == EEXIST ? ENOTDIR : errno));
		return -EINVAL;
	}
	do {
		ret = read_files(bufs, lens);
		if (ret || import_read_file("/proc", "buddyinfo", &again, &len, err, sizeof(err)))
			break;
		before = buddyinfo_free(bufs[0]);
		after = buddyinfo_free(again);
		free(again);
	} while (++tries < SNAP_TRIES && (after > before ? after - before : before - after) * 100 > before);
	if (!ret && tries == SNAP_TRIES)
		fprintf(stderr, "cmasim snapshot: free pages moved from %lu to %lu while the files were read, %d times: the machine is busy; kept the last\n",
			before, after, tries);
	for (i = 0; i < NR_SNAP_FILES && !ret; i++)
		if (bufs[i])
			ret = save(argv[1], snap_files[i].name, snap_files[i].xz, bufs[i], lens[i]);
	for (i = 0; i < NR_SNAP_FILES; i++)
		free(bufs[i]);
	if (!ret)
		printf("cmasim snapshot: %s: read it with 'cmasim import %s'\n", argv[1], argv[1]);
	return ret;
}
