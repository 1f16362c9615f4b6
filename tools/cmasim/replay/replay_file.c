// SPDX-License-Identifier: GPL-2.0
/*
 * A trace file, read whole and handed to the reader its first bytes
 * name: trace-cmd's trace.dat (replay_dat.c) or an ftrace text
 * (replay_read.c), both of which decode through replay_add_event().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"

int replay_read_file(const char *path, struct replay_trace *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	int ret;

	snprintf(t->path, sizeof(t->path), "%s", path);
	if (!f)
		return ret = -errno, snprintf(err, errlen, "%s: %s", path, strerror(-ret)), ret;
	do {
		if (len == cap) {
			char *grown = realloc(text, cap = cap ? 2 * cap : 1 << 16);

			if (!grown) {
				free(text);
				fclose(f);
				return -ENOMEM;
			}
			text = grown;
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
	} while (n);
	ret = ferror(f) ? -EIO : 0;
	fclose(f);
	if (ret)
		snprintf(err, errlen, "%s: read error", path);
	else if (replay_is_dat(text, len))
		ret = replay_read_dat(path, t, err, errlen);
	else
		ret = replay_read_text(path, text, len, t, err, errlen);
	free(text);
	return ret;
}
