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

#include "commands.h"
#include "import.h"

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

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* @buf xz-compressed into @fd (preset 1: a 48 MB kpageflags in seconds). */
static int write_xz(int fd, const char *buf, size_t len)
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
		if (r != LZMA_OK && r != LZMA_STREAM_END) {
			ret = -EIO;
			break;
		}
		ret = write_all(fd, out, sizeof(out) - st.avail_out);
	} while (!ret && r != LZMA_STREAM_END);
	lzma_end(&st);
	return ret;
}

static int save(const char *dir, const char *name, bool xz, const char *buf, size_t len)
{
	char path[4096];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s%s", dir, name, xz ? ".xz" : "");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "cmasim snapshot: %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	ret = xz ? write_xz(fd, buf, len) : write_all(fd, buf, len);
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		fprintf(stderr, "cmasim snapshot: %s: %s\n", path, strerror(-ret));
	return ret ? -EIO : 0;
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
	size_t i;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: cmasim snapshot DIR (as root, on Linux: DIR receives the /proc files cmasim import reads)\n");
		return argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) ? CMD_USAGE : -EINVAL;
	}
	if (geteuid()) {
		fprintf(stderr, "cmasim snapshot: needs root: /proc/kpageflags, /proc/kpagecount and iomem's addresses are root's\n");
		return -EINVAL;
	}
	if (mkdir(argv[1], 0755) && errno != EEXIST) {
		fprintf(stderr, "cmasim snapshot: %s: %s\n", argv[1], strerror(errno));
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
	return ret ? -EINVAL : 0;
}
