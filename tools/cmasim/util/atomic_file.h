/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files cmasim writes (reports, traces, a sweep's summaries and
 * manifest, a snapshot's files) appear whole or not at all: they are
 * written to a temporary file in the same directory and renamed over
 * their name once every byte is out, so a write that fails (a full disk,
 * a size limit) leaves the old file as it was, and a kill removes the
 * temporary file. Every message names the file.
 *
 * Only a regular file (or a name not taken yet) is replaced so. A
 * symbolic link is followed, and the file it ends at is replaced in its
 * own directory: the link stays. A device, FIFO or socket is written
 * straight, never replaced (--output /dev/null, a named pipe); so is
 * cmasim's own standard output or error (--trace /dev/stdout), through
 * stdout or stderr, in order with what else goes there. A directory is
 * refused.
 */
#ifndef CMASIM_ATOMIC_FILE_H
#define CMASIM_ATOMIC_FILE_H

#include <limits.h>
#include <stdio.h>

struct atomic_file {
	const char *path;	/* the caller's name for it, in messages */
	char target[PATH_MAX];	/* renamed over at commit: @path, or the name its links end at */
	char tmp[PATH_MAX];	/* ".NAME.XXXXXX" beside @target; "" when written straight */
	FILE *f;		/* where to write */
};

/*
 * Open @path for writing into @af->f: 0; or, after saying on stderr
 * "cmasim: @what PATH: cannot write it: why" (@what: the option, e.g.
 * "--trace"), -EINVAL if @path is a directory, else -EIO.
 */
int atomic_file_open(struct atomic_file *af, const char *path, const char *what);
/*
 * Before the work whose result goes to @path: -EINVAL, said as
 * atomic_file_open says it, if @path is a directory; else 0.
 */
int atomic_file_check(const char *path, const char *what);
/*
 * Flush and close it, and rename it over its name: 0, or -EIO after
 * saying which file could not be written and why (the old one, if any,
 * stays).
 */
int atomic_file_commit(struct atomic_file *af);
/* Close it and remove the temporary file; a file of that name is left as it was. */
void atomic_file_abort(struct atomic_file *af);

#endif
