// SPDX-License-Identifier: GPL-2.0
/*
 * Whole files or none (atomic_file.h): mkstemp beside the target, then
 * rename(2), which replaces a name in one step on the same file system.
 * rename(2) replaces whatever has the name, so what is not a regular file
 * is told apart first: a link is followed to its file, a device, FIFO or
 * socket is written straight.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/atomic_file.h"

/*
 * The temporary files open now, so that Ctrl-C or a kill does not leave
 * them behind: the handler removes them and dies of the signal as before.
 */
#define MAX_OPEN	8
static const char *volatile open_tmp[MAX_OPEN];

static void remove_open_tmp(int sig)
{
	for (unsigned i = 0; i < MAX_OPEN; i++)
		if (open_tmp[i])
			unlink(open_tmp[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int fatal_sigs[] = { SIGINT, SIGTERM, SIGHUP };

/* Handlers for the signals that end cmasim, unless they are ignored (nohup, a background job). */
static void catch_fatal_signals(void)
{
	static bool done;
	struct sigaction sa = { .sa_handler = remove_open_tmp }, old;

	if (done)
		return;
	done = true;
	for (size_t i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		if (!sigaction(fatal_sigs[i], NULL, &old) && old.sa_handler == SIG_DFL)
			sigaction(fatal_sigs[i], &sa, NULL);
}

/*
 * Hold those signals from before mkstemp until the name is tracked: one
 * arriving in between would end cmasim with the file made but unknown to
 * the handler, left behind (a kill just after the file appeared did so in
 * about half of the tries).
 */
static void hold_fatal_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		sigaddset(&set, fatal_sigs[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void track(const char *tmp, const char *untrack)
{
	for (unsigned i = 0; i < MAX_OPEN; i++)
		if (open_tmp[i] == untrack) {
			open_tmp[i] = tmp;
			return;
		}
}

/*
 * The name @path's symbolic links end at, into @target (PATH_MAX bytes):
 * the file to replace, which may not exist yet (a dangling link). A
 * relative link is read from its own directory.
 */
static int follow_links(const char *path, char *target)
{
	char link[PATH_MAX];
	struct stat st;
	size_t dir;
	ssize_t n;

	if ((size_t)snprintf(target, PATH_MAX, "%s", path) >= PATH_MAX)
		return -ENAMETOOLONG;
	for (int hops = 0; !lstat(target, &st) && S_ISLNK(st.st_mode); hops++) {
		const char *slash = strrchr(target, '/');

		if (hops == 40)		/* the kernel's MAXSYMLINKS */
			return -ELOOP;
		n = readlink(target, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - target) + 1;
		if (dir + (size_t)n >= PATH_MAX)
			return -ENAMETOOLONG;
		memcpy(target + dir, link, (size_t)n + 1);
	}
	return 0;
}

/* A temporary file beside the file @af->path names, to rename over it at commit. */
static int open_renamed(struct atomic_file *af)
{
	const char *base;
	mode_t mask = umask(0);
	sigset_t held;
	int fd, err = follow_links(af->path, af->target);

	umask(mask);
	if (err)
		return err;
	base = strrchr(af->target, '/');
	base = base ? base + 1 : af->target;
	if ((size_t)snprintf(af->tmp, sizeof(af->tmp), "%.*s.%s.XXXXXX", (int)(base - af->target), af->target,
			     base) >= sizeof(af->tmp))
		return -ENAMETOOLONG;
	catch_fatal_signals();
	hold_fatal_signals(&held);
	fd = mkstemp(af->tmp);
	/* the mode fopen would have given it; mkstemp's is 0600 */
	if (fd < 0 || fchmod(fd, 0666 & ~mask) || !(af->f = fdopen(fd, "w"))) {
		err = -errno;
		if (fd >= 0) {
			close(fd);
			unlink(af->tmp);
		}
	} else {
		track(af->tmp, NULL);
	}
	pthread_sigmask(SIG_SETMASK, &held, NULL);
	return err;
}

/* A Unix socket's name, which open(2) refuses (ENXIO): connected to, as a stream. */
static int connect_socket(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, err;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		err = errno;
		close(fd);
		errno = err;
		fd = -1;
	}
	return fd;
}

/* A device, FIFO or socket: written as it is, as a shell's '>' would (a FIFO waits for its reader). */
static int open_straight(struct atomic_file *af, const struct stat *st)
{
	int fd = open(af->path, O_WRONLY | O_NOCTTY | O_CLOEXEC), err;

	if (fd < 0 && errno == ENXIO && S_ISSOCK(st->st_mode))
		fd = connect_socket(af->path);
	if (fd < 0)
		return -errno;
	if (!(af->f = fdopen(fd, "w"))) {
		err = errno;
		close(fd);
		return -err;
	}
	return 0;
}

/* stdout or stderr, if that is the file @st describes (/dev/stdout, or the name of what it goes to). */
static FILE *std_stream(const struct stat *st)
{
	FILE *const streams[] = { stdout, stderr };
	struct stat s;

	for (size_t i = 0; i < sizeof(streams) / sizeof(streams[0]); i++)
		if (!fstat(fileno(streams[i]), &s) && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
			return streams[i];
	return NULL;
}

static int open_existing(struct atomic_file *af, const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	if ((af->f = std_stream(st)))
		return 0;
	return S_ISREG(st->st_mode) ? open_renamed(af) : open_straight(af, st);
}

/* Say why @path cannot be written (@err, a negative errno): -EINVAL for a directory, bad input; else -EIO. */
static int cannot_write(const char *path, const char *what, int err)
{
	fprintf(stderr, "cmasim: %s %s: cannot write it: %s%s\n", what, path, strerror(-err),
		err == -EISDIR ? " (give the name of a file)" : "");
	return err == -EISDIR ? -EINVAL : -EIO;
}

int atomic_file_check(const char *path, const char *what)
{
	struct stat st;

	return stat(path, &st) || !S_ISDIR(st.st_mode) ? 0 : cannot_write(path, what, -EISDIR);
}

int atomic_file_open(struct atomic_file *af, const char *path, const char *what)
{
	struct stat st;
	int err;

	af->path = path;
	af->tmp[0] = '\0';
	af->f = NULL;
	if (!stat(path, &st))
		err = open_existing(af, &st);
	else
		err = errno == ENOENT ? open_renamed(af) : -errno;
	return err ? cannot_write(path, what, err) : 0;
}

/* Close @af->f, unless it is stdout or stderr, which are flushed only. */
static int close_stream(struct atomic_file *af)
{
	FILE *f = af->f;

	af->f = NULL;
	return f == stdout || f == stderr ? fflush(f) : fclose(f);
}

/*
 * Why a stream that failed earlier failed, when nothing is left to
 * flush that would say it again (its failed buffer was dropped): at the
 * file size limit, EFBIG; else EIO. The writes may have failed on
 * another thread (a request's task writing the trace), whose errno is
 * its own.
 */
static int stream_error(FILE *f)
{
	struct rlimit limit;
	struct stat st;

	if (!getrlimit(RLIMIT_FSIZE, &limit) && limit.rlim_cur != RLIM_INFINITY && !fstat(fileno(f), &st) &&
	    S_ISREG(st.st_mode) && (rlim_t)st.st_size >= limit.rlim_cur)
		return EFBIG;
	return EIO;
}

/* Every byte of @af->f out, to the disk too if @sync, and @af->f closed: 0, or the first error's errno. */
static int finish(struct atomic_file *af, bool sync)
{
	int err = ferror(af->f) ? stream_error(af->f) : 0;

	if (fflush(af->f) || (sync && fsync(fileno(af->f))))
		err = errno;
	if (close_stream(af) && !err)
		err = errno;
	return err;
}

int atomic_file_commit(struct atomic_file *af)
{
	int err;

	if (!af->tmp[0]) {
		err = finish(af, false);
		if (err)
			fprintf(stderr, "cmasim: %s: writing it failed: %s\n", af->path, strerror(err));
		return err ? -EIO : 0;
	}
	err = finish(af, true);
	if (!err && rename(af->tmp, af->target))
		err = errno;
	track(NULL, af->tmp);	/* after the rename: a signal before it still removes the file */
	if (!err)
		return 0;
	unlink(af->tmp);
	fprintf(stderr, "cmasim: %s: writing it failed: %s; a file of that name is kept as it was\n", af->path,
		strerror(err));
	return -EIO;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f)
		close_stream(af);
	if (!af->tmp[0])
		return;
	track(NULL, af->tmp);
	unlink(af->tmp);
}
