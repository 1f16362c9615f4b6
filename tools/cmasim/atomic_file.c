// SPDX-License-Identifier: GPL-2.0
/*
 * Whole files or none (atomic_file.h): mkstemp beside the target, then
 * rename(2), which replaces a name in one step on the same file system.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

FILE *atomic_file_open(struct atomic_file *af, const char *path, const char *what)
{
	const char *base = strrchr(path, '/');
	mode_t mask = umask(0);
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
	fd = mkstemp(af->tmp);
	/* the mode fopen would have given it; mkstemp's is 0600 */
	if (fd < 0 || fchmod(fd, 0666 & ~mask) || !(af->f = fdopen(fd, "w")))
		goto fail;
	return af->f;
fail:
	fprintf(stderr, "cmasim: %s %s: cannot write it: %s\n", what, path, strerror(errno));
	if (fd >= 0) {
		close(fd);
		unlink(af->tmp);
	}
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
	unlink(af->tmp);
}
