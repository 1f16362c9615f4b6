// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_replay: cmasim replay's text reader and the pairing of its events
 * into requests (tools/cmasim/replay/), on the input as an ftrace text.
 * trace.dat goes to libtracecmd, which is not ours to fuzz here.
 *
 * Expect: replay_read_text() and replay_requests() 0, or -EINVAL with a
 * one-line message without control characters, naming the file; every
 * request finished, its latency no longer than the time to its finish,
 * its release after its finish; the background from its page events
 * none (no page event) or no more of each kind held than was given out;
 * nothing leaks (LeakSanitizer).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "replay/replay.h"

#define FUZZ_TARGET "fuzz_replay"
#include "fuzz_check.h"

static void check_message(int ret, const char *err)
{
	if (ret != -EINVAL)
		fail("returned %d: expected 0 or -EINVAL", ret);
	if (!terminated(err, REPLAY_ERR_MAX) || strncmp(err, "fuzz.txt", 8) || !no_controls(err, ""))
		fail("message not one line naming the file: '%s'", err);
}

static void check_requests(const struct replay_trace *t)
{
	for (size_t i = 0; i < t->nr_req; i++) {
		const struct replay_request *r = &t->req[i];

		if (!r->finished)
			fail("request %zu kept unfinished", i);
		if (!t->own && r->has_start && r->latency_ns != r->finish_ns - r->start_ns)
			fail("request %zu: latency %llu ns is not its finish less its start", i,
			     (unsigned long long)r->latency_ns);
		if (r->released && (r->release_ns < r->finish_ns || r->errorno))
			fail("request %zu released before it was got, or after failing", i);
	}
}

static void check_background(const struct replay_trace *t)
{
	struct replay_background bg;
	unsigned long given = 0;
	int ret = replay_background_from_trace(t, &bg);

	for (size_t i = 0; i < t->nr_pev; i++)
		given += t->pev[i].op != RPP_FREE && t->pev[i].op != RPP_CACHE_DELETE ? 1ul << t->pev[i].order : 0;
	if (ret == -ENOENT && !t->nr_pev)
		return;
	if (ret)
		fail("background: %d from %zu page events", ret, t->nr_pev);
	if (bg.source != RBG_TRACE || bg.anon > given || bg.file > given || bg.slab > given)
		fail("background holds more than the %lu pages given out", given);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct replay_trace t = { 0 };
	char err[REPLAY_ERR_MAX] = "";
	int ret = replay_read_text("fuzz.txt", (const char *)data, size, &t, err, sizeof(err));

	if (!ret)
		ret = replay_requests(&t, err, sizeof(err));
	if (ret)
		check_message(ret, err);
	else
		check_requests(&t);
	if (!ret)
		check_background(&t);
	replay_trace_free(&t);
	return 0;
}
