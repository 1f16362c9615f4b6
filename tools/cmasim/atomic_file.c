// SPDX-License-Identifier: GPL-2.0
/*
 * Whole files or none (atomic_file.h): mkstemp beside the target, then
 * rename(2), which replaces a name in one step on the same file system.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

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

FILE *atomic_file_open(struct atomic_file *af, const char *path, const char *what)
{
	const char *base = strrchr(path, '/');
	mode_t mask = umask(0);
	sigset_t held;
	int fd = -1;

	umask(mask);
	af->path = path;
	af->f = NULL;
	base = base ? base + 1 : path;
	if ((size_t)snprintf(af->tmp, sizeof(af->tmp), "%.*s.%s.XXXXXX", (int)(base - path), path, base) >=
	    sizeof(af->tmp)) {
		errno = ENAMETOOLONG;
		goto fail;
	}
	catch_fatal_signals();
	hold_fatal_signals(&held);
	fd = mkstemp(af->tmp);
	/* the mode fopen would have given it; mkstemp's is 0600 */
	if (fd < 0 || fchmod(fd, 0666 & ~mask) || !(af->f = fdopen(fd, "w")))
		goto fail_held;
	track(af->tmp, NULL);
	pthread_sigmask(SIG_SETMASK, &held, NULL);
	return af->f;
fail_held:
	if (fd >= 0) {
		int err = errno;

		close(fd);
		unlink(af->tmp);
		errno = err;
	}
	pthread_sigmask(SIG_SETMASK, &held, NULL);
fail:
	fprintf(stderr, "cmasim: %s %s: cannot write it: %s\n", what, path, strerror(errno));
	return NULL;
}

int atomic_file_commit(struct atomic_file *af)
{
	int failed = ferror(af->f), err = EIO;

	if (fflush(af->f) || fsync(fileno(af->f)))
		failed = 1, err = errno;
	if (fclose(af->f) && !failed)
		failed = 1, err = errno;
	af->f = NULL;
	if (!failed && rename(af->tmp, af->path))
		failed = 1, err = errno;
	track(NULL, af->tmp);	/* after the rename: a signal before it still removes the file */
	if (!failed)
		return 0;
	unlink(af->tmp);
	fprintf(stderr, "cmasim: %s: writing it failed: %s; a file of that name is kept as it was\n", af->path,
		strerror(err));
	return -EIO;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	af->f = NULL;
	track(NULL, af->tmp);
	unlink(af->tmp);
}
