// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd's trace.dat, read with libtracecmd: the records of every
 * CPU in time order, each event's fields found by libtraceevent in the
 * format file the recording kernel wrote into the file, so a field is
 * read where that kernel put it. A field printed symbolically (the
 * migration reason) is read as the event's own TP_printk renders it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <trace-seq.h>

#include "replay/replay.h"

#ifdef HAVE_TRACECMD_GET_UNAME
/*
 * The file's uname option ("sysname nodename release machine", as
 * trace-cmd record writes it), NULL when it has none: exported by
 * libtracecmd but not declared by its trace-cmd.h (3.1.6); the Makefile
 * declares HAVE_TRACECMD_GET_UNAME only if a program calling it links.
 */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
#endif

/* The recording kernel's release, the uname option's third word, into @t (else ""). */
static void dat_release(struct tracecmd_input *handle, struct replay_trace *t)
{
	const char *uname = NULL;

#ifdef HAVE_TRACECMD_GET_UNAME
	uname = tracecmd_get_uname(handle);
#endif
	t->release[0] = 0;
	if (uname)
		sscanf(uname, "%*s %*s %63s", t->release);
}

/* trace.dat begins with these bytes: 0x17 0x08 0x44 "tracing" */
static const char dat_magic[] = "\027\010\104tracing";

bool replay_is_dat(const void *head, size_t len)
{
	return len >= sizeof(dat_magic) - 1 && !memcmp(head, dat_magic, sizeof(dat_magic) - 1);
}

struct dat_record {
	struct tep_handle *tep;
	struct tep_event *event;
	struct tep_record *record;
};

/* The event's TP_printk as libtraceevent renders it, "name=value" found in it (@buf NULL: only whether it is). */
static bool dat_printed(struct dat_record *r, const char *name, char *buf, size_t size)
{
	struct trace_seq s;
	const char *p;
	size_t n = strlen(name), len;
	bool found = false;

	trace_seq_init(&s);
	tep_print_event(r->tep, &s, r->record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	for (p = s.buffer; p && (p = strstr(p, name)); p += n) {
		if ((p == s.buffer || p[-1] == ' ') && p[n] == '=') {
			p += n + 1;
			len = strcspn(p, " \t\n");
			if (!buf) {
				found = len > 0;
			} else if (len < size) {
				memcpy(buf, p, len);
				buf[len] = 0;
				found = true;
			}
			break;
		}
	}
	trace_seq_destroy(&s);
	return found;
}

static bool dat_num(void *ctx, const char *name, uint64_t *v)
{
	struct dat_record *r = ctx;
	unsigned long long val;
	struct tep_format_field *field = tep_find_field(r->event, name);
	char buf[32], *end;

	/*
	 * A name the format does not have is the printed one: 6.12's
	 * mm_migrate_pages stores "succeeded" and prints "nr_succeeded=%lu"
	 */
	if (!field) {
		if (!dat_printed(r, name, buf, sizeof(buf)) || !buf[0])
			return false;
		errno = 0;
		*v = buf[0] == '-' ? (uint64_t)strtoll(buf, &end, 0) : strtoull(buf, &end, 0);
		return !*end && !errno;
	}
	if (field->flags & TEP_FIELD_IS_STRING)
		return false;
	if (tep_get_field_val(NULL, r->event, name, r->record, &val, 0))
		return false;
	/* a signed int field read as its bits: sign-extended, as the text prints it */
	if ((field->flags & TEP_FIELD_IS_SIGNED) && field->size == 4)
		val = (unsigned long long)(long long)(int)val;
	*v = val;
	return true;
}

static bool dat_str(void *ctx, const char *name, char *buf, size_t size)
{
	struct dat_record *r = ctx;
	struct tep_format_field *field = tep_find_field(r->event, name);
	const char *raw;
	int len;

	if (!field)
		return false;
	if (!(field->flags & TEP_FIELD_IS_STRING))
		return dat_printed(r, name, buf, size);
	raw = tep_get_field_raw(NULL, r->event, name, r->record, &len, 0);
	if (!raw || len < 0)
		return false;
	len = (int)strnlen(raw, (size_t)len);
	if ((size_t)len >= size)
		return false;
	memcpy(buf, raw, (size_t)len);
	buf[len] = 0;
	return true;
}

static bool dat_has(void *ctx, const char *name)
{
	struct dat_record *r = ctx;

	return tep_find_field(r->event, name) || dat_printed(r, name, NULL, 0);
}

struct dat_walk {
	struct replay_trace *t;
	struct tep_handle *tep;
	unsigned nr;
	int ret;
	char *err;
	size_t errlen;
};

static int dat_record(struct tracecmd_input *handle, struct tep_record *record, int cpu, void *data)
{
	struct dat_walk *w = data;
	struct dat_record r = { .tep = w->tep, .record = record };
	struct replay_fields f = { .num = dat_num, .str = dat_str, .has = dat_has, .ctx = &r };
	char msg[REPLAY_ERR_MAX] = "";

	/* libtracecmd 3.1.6 goes on after a callback's non-zero: the first error stands */
	if (w->ret)
		return 1;
	w->nr++;
	r.event = tep_find_event_by_record(w->tep, record);
	if (!r.event) {
		snprintf(w->err, w->errlen, "%s: record %u (CPU %d): an event id the file's formats do not describe: is the file corrupt?",
			 w->t->path, w->nr, cpu);
		w->ret = -EINVAL;
		return 1;
	}
	w->ret = replay_add_event(w->t, r.event->name, record->ts, tep_data_pid(w->tep, record), w->nr, &f,
				  msg, sizeof(msg));
	if (w->ret == -EINVAL)
		snprintf(w->err, w->errlen, "%s: record %u (CPU %d): %s", w->t->path, w->nr, cpu, msg);
	return w->ret ? 1 : 0;
}

/*
 * Under LeakSanitizer (make SAN=address): the handle of a file whose
 * records would not load is left open on purpose (below), and what
 * libtracecmd and libtraceevent allocated for it with it.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtracecmd.so\nleak:libtraceevent.so\n";
}

int replay_read_dat(const char *path, struct replay_trace *t, char *err, size_t errlen)
{
	struct tracecmd_input *handle;
	struct dat_walk w = { .t = t, .err = err, .errlen = errlen };

	snprintf(t->path, sizeof(t->path), "%s", path);
	t->dat = true;
	handle = tracecmd_open_head(path, 0);
	if (!handle)
		return snprintf(err, errlen, "%s: libtracecmd cannot read its headers (truncated or corrupt?); accepted %s",
				path, REPLAY_FORMATS), -EINVAL;
	/*
	 * tracecmd_open() closes the handle when the data does not load, and
	 * libtracecmd 3.1.6's tracecmd_close() then crashes (a file cut inside
	 * its records): the handle is left to the process's end instead.
	 */
	if (tracecmd_init_data(handle))
		return snprintf(err, errlen, "%s: libtracecmd cannot load its records (truncated or corrupt?); accepted %s",
				path, REPLAY_FORMATS), -EINVAL;
	dat_release(handle, t);
	w.tep = tracecmd_get_tep(handle);
	tracecmd_iterate_events(handle, NULL, 0, dat_record, &w);
	tracecmd_close(handle);
	return w.ret;
}
