/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files cmasim writes (reports, traces, a sweep's summaries and
 * manifest) appear whole or not at all: they are written to a temporary
 * file in the same directory and renamed over their name once every
 * byte is out, so a write that fails (a full disk, a size limit) leaves
 * the old file as it was, and a kill removes the temporary file. Every
 * message names the file.
 */
#ifndef CMASIM_ATOMIC_FILE_H
#define CMASIM_ATOMIC_FILE_H

#include <limits.h>
#include <stdio.h>

struct atomic_file {
	const char *path;	/* the name it gets at commit (the caller's string) */
	char tmp[PATH_MAX];	/* ".NAME.XXXXXX" beside it */
	FILE *f;
};

/*
 * The temporary file for @path, to write into; NULL after saying on
 * stderr "cmasim: @what PATH: cannot write it: why" (@what: the option,
 * e.g. "--trace").
 */
FILE *atomic_file_open(struct atomic_file *af, const char *path, const char *what);
/*
 * Flush and close it, and rename it over @path: 0, or -EIO after saying
 * which file could not be written and why (the old one, if any, stays).
 */
int atomic_file_commit(struct atomic_file *af);
/* Close and remove the temporary file; @path is left as it was. */
void atomic_file_abort(struct atomic_file *af);

#endif
