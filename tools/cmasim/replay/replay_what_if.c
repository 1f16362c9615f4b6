// SPDX-License-Identifier: GPL-2.0
/*
 * The what-if: the recorded demand replayed again under another cma=,
 * policy or kernel, set beside the baseline replay (the board as
 * recorded) and the measured run, request by request. Both replays are
 * compared with the same trace, so the Nth request of an area is the
 * same request in all three columns.
 */
#include <stdio.h>
#include <string.h>

#include "replay/replay.h"

void replay_what_if_describe(const struct replay_board *w, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s%s", w->cma ? "cma=" : "", w->cma ? w->cma : "", w->cma ? ", " : "");

	n += snprintf(buf + n, len - (size_t)n, "policy %s, kernel %s", w->policy ? w->policy : "cma",
		      w->kernel ? w->kernel : "the platform's");
}

static void print_row(size_t i, const struct replay_request *m, const struct replay_request *b,
		      const struct replay_request *w, FILE *out)
{
	const struct replay_request *side[3] = { m, b, w };
	char ms[3][32], pfn[3][32], mig[3][32];

	for (int k = 0; k < 3; k++) {
		replay_fmt_ms(ms[k], sizeof(ms[k]), side[k]);
		replay_fmt_pfn(pfn[k], sizeof(pfn[k]), side[k]);
		replay_fmt_migrated(mig[k], sizeof(mig[k]), side[k]);
	}
	fprintf(out, "%4zu %-12s %8lu %11s %11s %11s %13s %13s %13s %9s %9s %9s\n", i, m->area, m->count, ms[0], ms[1],
		ms[2], pfn[0], pfn[1], pfn[2], mig[0], mig[1], mig[2]);
}

void replay_print_what_if(const struct replay_summary *base, const struct replay_what_if *w, FILE *out)
{
	const struct replay_summary *s = &w->sum;
	char change[256];

	replay_what_if_describe(w->board, change, sizeof(change));
	fprintf(out, "\nwhat-if: %s; the same demand and background\n", change);
	fprintf(out, "   # area            pages measured_ms baseline_ms  what_if_ms  measured_pfn  baseline_pfn   what_if_pfn  migrated  baseline   what_if\n");
	for (size_t i = 0; i < s->nr; i++)
		print_row(i, s->pairs[i].m, base->pairs[i].p, s->pairs[i].p, out);
	fprintf(out, "\nserved: measured %u, baseline %u, what-if %u of %zu requests\n", replay_served(s, true),
		replay_served(base, false), replay_served(s, false), s->nr);
	fprintf(out, "what-if against measured: success agrees on %u (baseline %u), pfn on %u (baseline %u)",
		s->success_agree, base->success_agree, s->pfn_agree, base->pfn_agree);
	fprintf(out, "; latency within 2x on %u of %u (baseline %u of %u)", s->within_2x, s->compared,
		base->within_2x, base->compared);
	if (s->compared)
		fprintf(out, ", median ratio %.2f", s->median_ratio);
	fputc('\n', out);
}
