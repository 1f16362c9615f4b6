// SPDX-License-Identifier: GPL-2.0
/*
 * The measured requests against the predicted ones. The run asks for
 * the same requests in the same order per area, so the Nth request of an
 * area in the trace is the Nth of that area in the run. A ratio is the
 * predicted latency over the measured one; the worst are those furthest
 * from 1 either way (|log ratio|).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "replay/replay.h"

/* The @n-th (from 0) request of @area in @t, or NULL. */
static const struct replay_request *nth_of_area(const struct replay_trace *t, const char *area, unsigned n)
{
	for (size_t i = 0; i < t->nr_req; i++)
		if (!strcmp(t->req[i].area, area) && !n--)
			return &t->req[i];
	return NULL;
}

/* Within 10% of the measured count (both 0 agree). */
static bool migrated_close(unsigned long m, unsigned long p)
{
	return fabs((double)p - (double)m) <= 0.1 * (double)m;
}

static void count_pair(struct replay_summary *s, struct replay_pair *x)
{
	const struct replay_request *m = x->m, *p = x->p;

	if (!p)
		return;
	s->success_agree += !m->errorno == !p->errorno;
	s->both_placed += !m->errorno && !p->errorno;
	s->pfn_agree += !m->errorno && !p->errorno && m->pfn == p->pfn;
	if (m->has_migrated && p->has_migrated) {
		s->with_migrated++;
		s->migrated_within_10 += migrated_close(m->migrated, p->migrated);
	}
	if (m->has_latency && p->has_latency && m->latency_ns && p->latency_ns) {
		x->ratio = (double)p->latency_ns / (double)m->latency_ns;
		s->compared++;
		s->within_2x += x->ratio >= 0.5 && x->ratio <= 2;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int median_ratio(struct replay_summary *s)
{
	double *r = malloc((s->compared ? s->compared : 1) * sizeof(*r));
	unsigned n = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr; i++)
		if (s->pairs[i].ratio > 0)
			r[n++] = s->pairs[i].ratio;
	qsort(r, n, sizeof(*r), cmp_double);
	s->median_ratio = !n ? 0 : n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
	free(r);
	return 0;
}

int replay_compare(const struct replay_trace *m, const struct replay_trace *p, struct replay_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->pairs = calloc(m->nr_req ? m->nr_req : 1, sizeof(*s->pairs));
	if (!s->pairs)
		return -ENOMEM;
	for (size_t i = 0; i < m->nr_req; i++) {
		const struct replay_request *r = &m->req[i];
		unsigned before = 0;
		struct replay_pair *x = &s->pairs[s->nr++];

		for (size_t j = 0; j < i; j++)
			before += !strcmp(m->req[j].area, r->area);
		x->m = r;
		x->p = nth_of_area(p, r->area, before);
		count_pair(s, x);
	}
	return median_ratio(s);
}

void replay_summary_free(struct replay_summary *s)
{
	free(s->pairs);
	s->pairs = NULL;
	s->nr = 0;
}

unsigned replay_served(const struct replay_summary *s, bool measured)
{
	unsigned n = 0;

	for (size_t i = 0; i < s->nr; i++) {
		const struct replay_request *r = measured ? s->pairs[i].m : s->pairs[i].p;

		n += r && !r->errorno;
	}
	return n;
}

void replay_fmt_ms(char *buf, size_t len, const struct replay_request *r)
{
	if (r && r->has_latency)
		snprintf(buf, len, "%.3f", (double)r->latency_ns / 1e6);
	else
		snprintf(buf, len, "-");
}

void replay_fmt_pfn(char *buf, size_t len, const struct replay_request *r)
{
	if (!r)
		snprintf(buf, len, "none");
	else if (r->errorno)
		snprintf(buf, len, "failed(%d)", r->errorno);
	else
		snprintf(buf, len, "%#lx", r->pfn);
}

void replay_fmt_migrated(char *buf, size_t len, const struct replay_request *r)
{
	if (r && r->has_migrated)
		snprintf(buf, len, "%lu", r->migrated);
	else
		snprintf(buf, len, "-");
}

static void print_pair(const struct replay_pair *x, size_t i, FILE *out)
{
	char mms[32], pms[32], ratio[32] = "-", mpfn[32], ppfn[32], mmig[32], pmig[32];

	replay_fmt_ms(mms, sizeof(mms), x->m);
	replay_fmt_ms(pms, sizeof(pms), x->p);
	replay_fmt_pfn(mpfn, sizeof(mpfn), x->m);
	replay_fmt_pfn(ppfn, sizeof(ppfn), x->p);
	replay_fmt_migrated(mmig, sizeof(mmig), x->m);
	replay_fmt_migrated(pmig, sizeof(pmig), x->p);
	if (x->ratio > 0)
		snprintf(ratio, sizeof(ratio), "%.2f", x->ratio);
	fprintf(out, "%4zu %-12s %8lu %12.6f %11s %11s %6s %9s %9s %12s %12s\n", i, x->m->area, x->m->count,
		(double)(x->m->has_start ? x->m->start_ns : x->m->finish_ns) / 1e9, mms, pms, ratio, mmig, pmig,
		mpfn, ppfn);
}

static const char header[] = "   # area            pages      start_s measured_ms predicted_ms  ratio  migrated predicted  measured_pfn predicted_pfn\n";

/* Where the prediction's time went, under its line (a run traced the parts). */
static void print_parts(const struct replay_request *p, FILE *out)
{
	const char *sep = " = ";

	if (!p || !p->has_parts)
		return;
	fprintf(out, "       predicted %.6f ms", (double)cost_parts_sum(&p->parts) / 1e6);
	for (unsigned i = 0; i < NR_COST_PARTS; i++) {
		if (!p->parts.ns[i])
			continue;
		fprintf(out, "%s%s %.6f", sep, cost_part_names[i], (double)p->parts.ns[i] / 1e6);
		sep = " + ";
	}
	fputc('\n', out);
}

/* The pairs furthest from a ratio of 1, at most ten, worst first, each with where its predicted time went. */
static void print_worst(const struct replay_summary *s, FILE *out)
{
	bool *shown = calloc(s->nr ? s->nr : 1, sizeof(*shown));

	if (!shown)
		return;
	fprintf(out, "worst %u:\n%s", s->compared < 10 ? s->compared : 10, header);
	for (unsigned k = 0; k < 10 && k < s->compared; k++) {
		size_t worst = s->nr;

		for (size_t i = 0; i < s->nr; i++)
			if (!shown[i] && s->pairs[i].ratio > 0 &&
			    (worst == s->nr || fabs(log(s->pairs[i].ratio)) > fabs(log(s->pairs[worst].ratio))))
				worst = i;
		shown[worst] = true;
		print_pair(&s->pairs[worst], worst, out);
		print_parts(s->pairs[worst].p, out);
	}
	free(shown);
}

void replay_print(const struct replay_summary *s, FILE *out)
{
	fputs(header, out);
	for (size_t i = 0; i < s->nr; i++)
		print_pair(&s->pairs[i], i, out);
	fprintf(out, "\n%zu requests: success agrees on %u, pfn on %u of %u placed by both", s->nr, s->success_agree,
		s->pfn_agree, s->both_placed);
	if (s->with_migrated)
		fprintf(out, ", pages migrated within 10%% on %u of %u", s->migrated_within_10, s->with_migrated);
	fprintf(out, "\nlatency: %u of %u within 2x", s->within_2x, s->compared);
	if (s->compared)
		fprintf(out, ", median ratio (predicted/measured) %.2f", s->median_ratio);
	fprintf(out, "\n");
	if (s->compared)
		print_worst(s, out);
}

/* ---- JSON (doc/cmasim-json.md, "cmasim replay") ---- */

/* Where the background came from, as the schema names it. */
static const char *background_from(const struct replay_background *bg)
{
	static const char *const from[] = { [RBG_DEFAULTS] = "defaults", [RBG_TRACE] = "trace",
					     [RBG_SNAPSHOT] = "snapshot" };

	return from[bg ? bg->source : RBG_DEFAULTS];
}

/* One side of a pair: null when the run made no such request. */
static json_t *request_json(const struct replay_request *r)
{
	json_t *o;

	if (!r)
		return json_null();
	o = json_pack("{s:s, s:I, s:I, s:i, s:b, s:i}", "area", r->area, "start_ns",
		      (json_int_t)(r->has_start ? r->start_ns : r->finish_ns), "pages", (json_int_t)r->count,
		      "align", (int)r->align, "ok", !r->errorno, "errorno", r->errorno);
	if (!o)
		return NULL;
	json_object_set_new(o, "pfn", r->errorno ? json_null() : json_integer((json_int_t)r->pfn));
	json_object_set_new(o, "latency_ns", r->has_latency ? json_integer((json_int_t)r->latency_ns) : json_null());
	json_object_set_new(o, "migrated", r->has_migrated ? json_integer((json_int_t)r->migrated) : json_null());
	json_object_set_new(o, "busy_retries", json_integer(r->busy_retries));
	json_object_set_new(o, "released_ns", r->released ? json_integer((json_int_t)r->release_ns) : json_null());
	return o;
}

static json_t *summary_json(const struct replay_summary *s)
{
	json_t *sum = json_pack("{s:I, s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "requests", (json_int_t)s->nr, "success_agree",
				s->success_agree, "pfn_agree", s->pfn_agree, "both_placed", s->both_placed,
				"with_migrated", s->with_migrated,
				"migrated_within_10pct", s->migrated_within_10, "compared", s->compared, "within_2x",
				s->within_2x);

	if (sum)
		json_object_set_new(sum, "median_ratio", s->compared ? json_real(s->median_ratio) : json_null());
	return sum;
}

/* The what-if's change and its summary; its requests go into each pair. */
static json_t *what_if_json(const struct replay_what_if *w)
{
	const struct replay_board *b = w->board;
	json_t *o = json_pack("{s:o, s:s, s:o, s:o, s:i}", "cma", b->cma ? json_string(b->cma) : json_null(),
			      "policy", b->policy ? b->policy : "cma", "kernel",
			      b->kernel ? json_string(b->kernel) : json_null(), "summary", summary_json(&w->sum),
			      "served", replay_served(&w->sum, false));

	return o;
}

static json_t *pair_json(const struct replay_summary *s, const struct replay_what_if *w, size_t i)
{
	json_t *pair = json_pack("{s:o, s:o}", "measured", request_json(s->pairs[i].m), "predicted",
				 request_json(s->pairs[i].p));

	if (!pair)
		return NULL;
	json_object_set_new(pair, "ratio", s->pairs[i].ratio > 0 ? json_real(s->pairs[i].ratio) : json_null());
	if (w) {
		json_object_set_new(pair, "what_if", request_json(w->sum.pairs[i].p));
		json_object_set_new(pair, "what_if_ratio",
				    w->sum.pairs[i].ratio > 0 ? json_real(w->sum.pairs[i].ratio) : json_null());
	}
	return pair;
}

int replay_print_json(const struct replay_summary *s, const struct replay_what_if *w, const char *trace,
		      const struct replay_board *b, FILE *out)
{
	char background[4096 + 256];
	json_t *root, *reqs = json_array(), *sum;
	int ret = -ENOMEM;

	replay_background_describe(b->background, background, sizeof(background));
	root = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "schema", "cmasim-replay/1", "trace", trace, "platform",
			 b->platform, "policy", b->policy ? b->policy : "cma", "kernel",
			 b->kernel_said ? b->kernel_said : b->kernel ? b->kernel : "the platform's", "background", background,
			 "background_from", background_from(b->background));
	if (!root || !reqs)
		goto out;
	for (size_t i = 0; i < s->nr; i++) {
		json_t *pair = pair_json(s, w, i);

		if (!pair || json_array_append_new(reqs, pair))
			goto out;
	}
	sum = summary_json(s);
	if (!sum)
		goto out;
	json_object_set_new(sum, "served", json_integer(replay_served(s, false)));
	json_object_set_new(sum, "measured_served", json_integer(replay_served(s, true)));
	json_object_set_new(root, "summary", sum);
	json_object_set(root, "requests", reqs);
	if (w)
		json_object_set_new(root, "what_if", what_if_json(w));
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6)) ? -EIO : 0;
	fputc('\n', out);
out:
	json_decref(reqs);
	json_decref(root);
	return ret;
}
