// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario files: INI read with libinih, checked key by key against one
 * table per section: [scenario]'s and [cost]'s below, each workload
 * kind's in its workloads/wl_*.c (struct wl_kind's keys). cmasim(1) has
 * the format in full; test_cmasim checks that it names every key of
 * every table, so the tables are the one list.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/inifile.h"
#include "board/platform.h"
#include "scenario/scenario.h"

/* The workload kinds, each defined in its wl_*.c: the order "accepted" lists them in. */
extern const struct wl_kind wl_kind_pagecache, wl_kind_writer, wl_kind_anon, wl_kind_slab,
	wl_kind_pinner, wl_kind_device, wl_kind_hugetlb, wl_kind_job, wl_kind_compact, wl_kind_replay,
	wl_kind_demand;

static const struct wl_kind *const wl_kinds[] = {
	&wl_kind_pagecache, &wl_kind_writer, &wl_kind_anon, &wl_kind_slab, &wl_kind_pinner, &wl_kind_device,
	&wl_kind_hugetlb, &wl_kind_job, &wl_kind_compact, &wl_kind_replay, &wl_kind_demand,
};

#define NR_WL_KINDS (sizeof(wl_kinds) / sizeof(wl_kinds[0]))

unsigned wl_nr_kinds(void)
{
	return NR_WL_KINDS;
}

const struct wl_kind *wl_kind(unsigned i)
{
	return i < NR_WL_KINDS ? wl_kinds[i] : NULL;
}

bool scenario_parse_cma(const char *s, uint64_t *bytes)
{
	static const char suffixes[] = "KMGTPE";
	const char *unit;
	unsigned shift = 0;
	uint64_t v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);	/* simple_strtoull base 0, as memparse */
	if (errno || end == s)
		return false;
	if (*end) {
		unit = strchr(suffixes, toupper((unsigned char)*end));
		if (!unit)
			return false;
		shift = 10 * (unsigned)(unit - suffixes + 1);
		end++;
	}
	/* the library refuses what does not fit a long long, as a cma= it could not reserve */
	if (*end || v > (uint64_t)INT64_MAX >> shift)
		return false;
	*bytes = v << shift;
	return true;
}

/* cma = SIZE: kept as written, for the command line; checked as the kernel's cma= would be. */
static int parse_cma(const char *value, void *field, char *err, size_t len)
{
	uint64_t bytes;

	if (!scenario_parse_cma(value, &bytes))
		return ini_fail(err, len, "cma = %s: expected " SCENARIO_CMA_SYNTAX, value);
	if (strlen(value) >= sizeof(((struct scenario *)0)->cma))
		return ini_fail(err, len, "cma = %s: too long: at most %zu characters", value,
				sizeof(((struct scenario *)0)->cma) - 1);
	strcpy(field, value);
	return 1;
}

/* tracer = none | function_graph: what current_tracer held while the source measured */
static int parse_tracer(const char *value, void *field, char *err, size_t len)
{
	if (strcmp(value, "none") && strcmp(value, "nop") && strcmp(value, "function_graph"))
		return ini_fail(err, len, "tracer = %s: accepted none, function_graph", value);
	*(bool *)field = !strcmp(value, "function_graph");
	return 1;
}

/*
 * ftrace_filter = cma_alloc | alloc_contig_range: what set_ftrace_filter
 * held, so function_graph hooked that function alone. The model counts
 * the calls of these two and of every function together, none other.
 */
static int parse_ftrace_filter(const char *value, void *field, char *err, size_t len)
{
	if (!strcmp(value, "cma_alloc"))
		*(enum cost_fgraph *)field = COST_FGRAPH_CMA_ALLOC;
	else if (!strcmp(value, "alloc_contig_range"))
		*(enum cost_fgraph *)field = COST_FGRAPH_ALLOC_CONTIG_RANGE;
	else
		return ini_fail(err, len,
				"ftrace_filter = %s: accepted cma_alloc, alloc_contig_range (leave it out for every function)",
				value);
	return 1;
}

/* kernel = RELEASE, 3.5 to 6.12 */
static int parse_kernel(const char *value, void *field, char *err, size_t len)
{
	if ((*(const char **)field = platform_kernel_find(value)))
		return 1;
	return ini_fail(err, len, "kernel = %s: no such kernel profile: accepted " PLATFORM_KERNELS_ACCEPTED,
			value);
}

#define SC(f)	offsetof(struct scenario, f)
#define SCT(f)	.offset = SC(f), .size = sizeof(((struct scenario *)0)->f)

static const struct scenario_key scenario_keys[] = {
	{ .name = "name", .type = KEY_NAME, .offset = SC(name) },
	{ .name = "description", .type = KEY_TEXT, SCT(description) },
	{ .name = "platform", .type = KEY_PLATFORM },
	{ .name = "cmdline", .type = KEY_TEXT, SCT(cmdline), .given = SC(cmdline_set) },
	{ .name = "cma", .type = KEY_CUSTOM, .offset = SC(cma), .parse = parse_cma },
	{ .name = "kconfig", .type = KEY_TEXT, SCT(kconfig), .repeats = true, .given = SC(kconfig_set) },
	{ .name = "kernel", .type = KEY_CUSTOM, .offset = SC(kernel), .parse = parse_kernel },
	{ .name = "memory", .type = KEY_SIZE, .offset = SC(memory_bytes), .max = SIM_MAX_BYTES },
	{ .name = "cpus", .type = KEY_U32, .offset = SC(nr_cpus), .max = 256 },
	{ .name = "swap", .type = KEY_SIZE, .offset = SC(swap_bytes), .max = SIM_MAX_BYTES },
	{ .name = "swap_synchronous", .type = KEY_BOOL, .offset = SC(swap_synchronous) },
	{ .name = "storage_memory", .type = KEY_BOOL, .offset = SC(storage_memory) },
	{ .name = "duration", .type = KEY_DURATION, .offset = SC(duration_ns) },
	{ .name = "seed", .type = KEY_UINT, .offset = SC(seed) },
	{ .name = "sample", .type = KEY_DURATION, .offset = SC(sample_ns) },
	{ .name = "snapshot", .type = KEY_DURATION, .offset = SC(snapshot_ns), .repeats = true },
	{ .name = "printk_contig_passes", .type = KEY_BOOL, .offset = SC(printk_contig_passes) },
	{ .name = "tracer", .type = KEY_CUSTOM, .offset = SC(fgraph), .parse = parse_tracer },
	{ .name = "ftrace_filter", .type = KEY_CUSTOM, .offset = SC(ftrace_filter), .parse = parse_ftrace_filter },
};

/* Every workload's keys, before its kind's. */
static const struct scenario_key wl_common_keys[] = {
	{ .name = "start", .type = KEY_DURATION, .offset = WL(start_ns) },
	{ .name = "stop", .type = KEY_DURATION, .offset = WL(stop_ns) },
	{ .name = "on_cpu", .type = KEY_U32, .offset = WL(cpu), .max = 255 },
};

#define NR_SCENARIO_KEYS	(sizeof(scenario_keys) / sizeof(scenario_keys[0]))
#define NR_COMMON_KEYS		(sizeof(wl_common_keys) / sizeof(wl_common_keys[0]))

enum section { SEC_NONE, SEC_SCENARIO, SEC_COST, SEC_WORKLOAD };

struct reader {
	struct scenario *sc;
	const char *path;
	char err[SCENARIO_ERR_MAX];
	char section[64];
	enum section cur;
	struct wl_spec *wl;		/* the current workload section */
	uint64_t seen;			/* keys given in the current section, by section_key_at index */
	uint64_t seen_wl[SIM_MAX_WORKLOADS];
	bool scenario_seen;
};

#define fail(r, ...) ini_fail((r)->err, sizeof((r)->err), __VA_ARGS__)

/* Key @i of the section @sec (of @w's kind, for a workload), or NULL past the last. */
static const struct scenario_key *section_key_at(enum section sec, const struct wl_spec *w, size_t i)
{
	if (sec == SEC_SCENARIO)
		return i < NR_SCENARIO_KEYS ? &scenario_keys[i] : NULL;
	if (sec != SEC_WORKLOAD)
		return NULL;
	if (i < NR_COMMON_KEYS)
		return &wl_common_keys[i];
	return i - NR_COMMON_KEYS < w->kind->nr_keys ? &w->kind->keys[i - NR_COMMON_KEYS] : NULL;
}

static int set_text(struct reader *r, const struct scenario_key *k, const char *value, char *dst, size_t size)
{
	size_t used = k->repeats ? strlen(dst) : 0;

	if (used + strlen(value) + (k->repeats ? 2 : 1) > size)
		return fail(r, "%s: too long: at most %zu characters%s", k->name, size - 1,
			    k->repeats ? " in all" : "");
	strcpy(dst + used, value);
	if (k->repeats)
		strcat(dst, "\n");
	return 1;
}

/* @value into @dst, a path from the scenario file's directory unless absolute: false if too long. */
static bool scenario_relative(const struct reader *r, const char *value, char *dst, size_t size)
{
	const char *slash = r->path ? strrchr(r->path, '/') : NULL;
	size_t len;

	if (!slash || value[0] == '/')
		len = (size_t)snprintf(dst, size, "%s", value);
	else
		len = (size_t)snprintf(dst, size, "%.*s/%s", (int)(slash - r->path), r->path, value);
	return len < size;
}

/*
 * A built-in platform's name, or a platform file, found next to the
 * scenario file when its path is relative. The file must be there when
 * the scenario is read, so that a wrong name is reported at its line;
 * what the file says is read when the run boots it.
 */
static int set_platform(struct reader *r, const char *value)
{
	char *dst = r->sc->platform;
	const size_t size = sizeof(r->sc->platform);
	bool builtin = platform_builtin(value);

	if (builtin ? (size_t)snprintf(dst, size, "%s", value) >= size : !scenario_relative(r, value, dst, size))
		return fail(r, "platform = %s: the path is too long: at most %zu characters", value, size - 1);
	if (!builtin && access(dst, R_OK))
		return fail(r, "platform = %s: no built-in platform has that name and the platform file %s cannot be read (%s); accepted %s, or the path of a platform file",
			    value, dst, strerror(errno), platform_builtin_names());
	return 1;
}

static int set_value(struct reader *r, const struct scenario_key *k, const char *value, char *base)
{
	char *field = base + k->offset;
	uint64_t v;
	bool b;

	switch (k->type) {
	case KEY_TEXT:
		return set_text(r, k, value, field, k->size);
	case KEY_NAME:
		if (!ini_valid_name(value, SIM_NAME_MAX))
			return fail(r, "%s = %s: a name is 1 to %d letters, digits, '-', '_' or '.'", k->name,
				    value, SIM_NAME_MAX - 1);
		strcpy(field, value);
		return 1;
	case KEY_SIZE:
	case KEY_UINT:
	case KEY_U32:
		if (!ini_parse_number(value, strlen(value), k->type == KEY_SIZE, &v))
			return fail(r, "%s = %s: expected %s", k->name, value,
				    k->type == KEY_SIZE ? INI_SIZE_SYNTAX : "a decimal or 0x hex number");
		if (k->max && v > k->max && k->type == KEY_SIZE)
			return fail(r, "%s = %s: at most %lluG (the simulator's limit)", k->name, value,
				    (unsigned long long)(k->max >> 30));
		if (k->max && v > k->max)
			return fail(r, "%s = %s: at most %llu", k->name, value, (unsigned long long)k->max);
		if (k->type == KEY_U32)
			*(unsigned *)field = (unsigned)v;
		else
			*(uint64_t *)field = v;
		return 1;
	case KEY_DURATION:
		if (ini_duration(value, &v) == -ERANGE)
			return fail(r, "%s = %s: %s", k->name, value, INI_DURATION_TOO_LARGE);
		if (!ini_parse_duration(value, &v))
			return fail(r, "%s = %s: expected %s", k->name, value, INI_DURATION_SYNTAX);
		if (k->repeats) {
			if (r->sc->nr_snapshots == SIM_MAX_SNAPSHOTS)
				return fail(r, "%s: at most %d of them", k->name, SIM_MAX_SNAPSHOTS);
			r->sc->snapshot_ns[r->sc->nr_snapshots++] = v;
		} else {
			*(uint64_t *)field = v;
		}
		return 1;
	case KEY_BOOL:
		if (!ini_parse_bool(value, &b))
			return fail(r, "%s = %s: accepted " INI_BOOL_SYNTAX, k->name, value);
		*(bool *)field = b;
		return 1;
	case KEY_PERCENT:
		if (!ini_parse_number(value, strlen(value), false, &v) || v > 100)
			return fail(r, "%s = %s: expected a percentage, 0 to 100", k->name, value);
		*(unsigned *)field = (unsigned)v;
		return 1;
	case KEY_CUSTOM:
		return k->parse(value, field, r->err, sizeof(r->err));
	case KEY_PLATFORM:
		return set_platform(r, value);
	case KEY_FILE:
		if (!scenario_relative(r, value, field, k->size))
			return fail(r, "%s = %s: the path is too long: at most %zu characters", k->name, value,
				    k->size - 1);
		return 1;
	}
	return 0;
}

/* Every [cost] key, joined by ", ", into @buf: @buf. */
static const char *cost_keys(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < NR_COST_FIELDS && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", cost_field_names[i]);
	return buf;
}

static int cost_key(struct reader *r, const char *name, const char *value)
{
	char keys[NR_COST_FIELDS * 24];
	char *end;
	double v;

	for (int i = 0; i < NR_COST_FIELDS; i++) {
		if (strcmp(name, cost_field_names[i]))
			continue;
		if (r->sc->cost_set[i])
			return fail(r, "%s is given twice in [cost]: give it once", name);
		errno = 0;
		v = strtod(value, &end);
		if (end == value || *end || errno || !isfinite(v) || v < 0 || (!v && !cost_field_may_be_zero(i)))
			return fail(r, "%s = %s: expected a number %s 0 (e.g. %s = 700)", name, value,
				    cost_field_may_be_zero(i) ? "of at least" : "above", name);
		r->sc->cost.v[i] = v;
		r->sc->cost_set[i] = true;
		return 1;
	}
	return fail(r, "unknown key '%s' in [cost]; accepted: %s", name, cost_keys(keys, sizeof(keys)));
}

/* The keys of the current section, for messages. */
static void accepted_keys(const struct reader *r, char *buf, size_t len)
{
	const struct scenario_key *k;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; (k = section_key_at(r->cur, r->wl, i)) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", k->name);
}

static int section_key(struct reader *r, const char *name, const char *value)
{
	char *base = r->cur == SEC_SCENARIO ? (char *)r->sc : (char *)r->wl;
	const struct scenario_key *k;
	char accepted[256];

	if (r->cur == SEC_COST)
		return cost_key(r, name, value);
	for (size_t i = 0; (k = section_key_at(r->cur, r->wl, i)); i++) {
		if (strcmp(k->name, name))
			continue;
		if (!k->repeats && (r->seen & (1ull << i)))
			return fail(r, "%s is given twice in [%s]: give it once", name, r->section);
		r->seen |= 1ull << i;
		if (r->wl)
			r->seen_wl[r->wl - r->sc->wl] |= 1ull << i;
		if (k->given)
			*(bool *)(base + k->given) = true;
		return set_value(r, k, value, base);
	}
	accepted_keys(r, accepted, sizeof(accepted));
	return fail(r, "unknown key '%s' in [%s]; accepted: %s", name, r->section, accepted);
}

/* The registered kinds as sections ("[pagecache NAME], [writer NAME], ...") or as "pagecache|writer|...". */
static void kind_list(char *buf, size_t len, bool sections)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < NR_WL_KINDS && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, sections ? "%s[%s NAME]" : "%s%s",
				      !k ? "" : sections ? ", " : "|", wl_kinds[k]->name);
}

static int start_section(struct reader *r, const char *section)
{
	struct scenario *sc = r->sc;
	size_t n = strcspn(section, " \t");
	const char *name = section + n + strspn(section + n, " \t");
	char accepted[256];

	snprintf(r->section, sizeof(r->section), "%s", section);
	r->seen = 0;
	r->wl = NULL;
	if (!strcmp(section, "scenario")) {
		r->scenario_seen = true;
		r->cur = SEC_SCENARIO;
		return 1;
	}
	if (!strcmp(section, "cost")) {
		r->cur = SEC_COST;
		return 1;
	}
	for (size_t k = 0; k < NR_WL_KINDS; k++) {
		const char *kind = wl_kinds[k]->name;
		struct wl_spec *w;

		if (strlen(kind) != n || strncmp(section, kind, n))
			continue;
		if (!ini_valid_name(name, SIM_NAME_MAX))
			return fail(r, "[%s]: give the workload a name of 1 to %d letters, digits, '-', '_' or '.' (e.g. [%s camera])",
				    section, SIM_NAME_MAX - 1, kind);
		for (unsigned i = 0; i < sc->nr_wl; i++)
			if (!strcmp(sc->wl[i].name, name))
				return fail(r, "[%s]: the name %s is taken by [%s %s]: give each workload its own",
					    section, name, sc->wl[i].kind->name, name);
		if (sc->nr_wl == SIM_MAX_WORKLOADS)
			return fail(r, "too many workloads: at most %d", SIM_MAX_WORKLOADS);
		w = &sc->wl[sc->nr_wl++];
		w->kind = wl_kinds[k];
		strcpy(w->name, name);
		if (w->kind->defaults)
			w->kind->defaults(w);
		r->wl = w;
		r->cur = SEC_WORKLOAD;
		return 1;
	}
	kind_list(accepted, sizeof(accepted), true);
	return fail(r, "unknown section [%s]; accepted: [scenario], [cost], %s", section, accepted);
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;

	if (!*section)
		return fail(r, "'%s' comes before any section: put it under [scenario] or a workload's section",
			    name);
	if (strcmp(section, r->section) && !start_section(r, section))
		return 0;
	return section_key(r, name, value);
}

/*
 * After the whole file, or after overrides: required keys (when @seen_wl
 * says which were given), references and limits no single line shows.
 */
static int check_workload(struct scenario *sc, unsigned idx, const uint64_t *seen_wl, char *err,
			  size_t len)
{
	struct wl_spec *w = &sc->wl[idx];
	const struct scenario_key *k;

	for (size_t i = 0; seen_wl && (k = section_key_at(SEC_WORKLOAD, w, i)); i++)
		if (k->required && !(seen_wl[idx] & (1ull << i)))
			return ini_fail(err, len, "[%s %s] has no %s: it is required", w->kind->name, w->name,
					k->name);
	if (w->stop_ns && w->stop_ns <= w->start_ns)
		return ini_fail(err, len, "[%s %s]: stop must come after start", w->kind->name, w->name);
	return w->kind->check ? w->kind->check(sc, w, err, len) : 1;
}

static int check_whole(struct scenario *sc, const uint64_t *seen_wl, char *err, size_t len)
{
	char kinds[256];

	if (!sc->duration_ns)
		return ini_fail(err, len, "[scenario] has no duration (e.g. duration = 60s)");
	if (!sc->platform[0])
		return ini_fail(err, len, "[scenario] has no platform: a built-in one (see 'cmasim list') or a platform file");
	if (sc->ftrace_filter && !sc->fgraph)
		return ini_fail(err, len, "[scenario]: ftrace_filter needs tracer = function_graph, the tracer it filters");
	kind_list(kinds, sizeof(kinds), false);
	if (!sc->nr_wl)
		return ini_fail(err, len, "no workloads: give at least one [%s NAME] section", kinds);
	for (unsigned i = 0; i < sc->nr_snapshots; i++)
		if (sc->snapshot_ns[i] > sc->duration_ns)
			return ini_fail(err, len, "[scenario]: a snapshot at %.3f s is past the duration",
					(double)sc->snapshot_ns[i] / 1e9);
	for (unsigned i = 0; i < sc->nr_wl; i++)
		if (!check_workload(sc, i, seen_wl, err, len))
			return 0;
	return 1;
}

static int check_scenario(struct reader *r)
{
	if (!r->scenario_seen)
		return fail(r, "no [scenario] section: give at least its platform and duration");
	return check_whole(r->sc, r->seen_wl, r->err, sizeof(r->err));
}

int scenario_check(struct scenario *sc, char *err, size_t errlen)
{
	err[0] = '\0';
	return check_whole(sc, NULL, err, errlen) ? 0 : -1;
}

/* The section an override names: scenario, cost, a workload's name, or its kind if only one has it. */
static int override_section(struct reader *r, const char *section)
{
	struct scenario *sc = r->sc;
	struct wl_spec *match = NULL;
	char names[SIM_MAX_WORKLOADS * (SIM_NAME_MAX + 2)] = "";
	size_t n = 0;

	if (!strcmp(section, "scenario") || !strcmp(section, "cost")) {
		snprintf(r->section, sizeof(r->section), "%s", section);
		r->cur = section[0] == 's' ? SEC_SCENARIO : SEC_COST;
		return 1;
	}
	for (unsigned i = 0; i < sc->nr_wl && !match; i++)
		if (!strcmp(sc->wl[i].name, section))
			match = &sc->wl[i];
	for (unsigned i = 0; i < sc->nr_wl && !match; i++) {
		if (strcmp(sc->wl[i].kind->name, section))
			continue;
		for (unsigned j = i + 1; j < sc->nr_wl; j++)
			if (sc->wl[j].kind == sc->wl[i].kind)
				return fail(r, "'%s' is the kind of several workloads (%s, %s, ...): name one", section,
					    sc->wl[i].name, sc->wl[j].name);
		match = &sc->wl[i];
	}
	if (!match) {
		for (unsigned i = 0; i < sc->nr_wl && n < sizeof(names); i++)
			n += (size_t)snprintf(names + n, sizeof(names) - n, ", %s", sc->wl[i].name);
		return fail(r, "no section '%s' in scenario %s: accepted scenario, cost%s, or a workload's kind",
			    section, sc->name, names);
	}
	snprintf(r->section, sizeof(r->section), "%s %s", match->kind->name, match->name);
	r->cur = SEC_WORKLOAD;
	r->wl = match;
	return 1;
}

/* A repeating key set from the command line starts over; a [cost] key may be set again. */
static void override_reset(struct reader *r, const char *name)
{
	const struct scenario_key *k;

	for (int i = 0; r->cur == SEC_COST && i < NR_COST_FIELDS; i++)
		if (!strcmp(name, cost_field_names[i]))
			r->sc->cost_set[i] = false;
	for (size_t i = 0; r->cur == SEC_SCENARIO && (k = section_key_at(r->cur, NULL, i)); i++) {
		if (strcmp(k->name, name))
			continue;
		if (k->repeats && k->type == KEY_TEXT)
			((char *)r->sc + k->offset)[0] = '\0';
		else if (k->repeats)
			r->sc->nr_snapshots = 0;
		if (!strcmp(name, "cmdline"))
			r->sc->cma[0] = '\0';	/* the whole command line, the file's cma= too */
	}
}

int scenario_override(struct scenario *sc, const char *key, const char *value, char *err,
		      size_t errlen)
{
	struct reader r = { .sc = sc };
	const char *dot = strrchr(key, '.');
	char section[64];

	if (!dot || dot == key || !dot[1] || (size_t)(dot - key) >= sizeof(section)) {
		snprintf(err, errlen, "%s: expected SECTION.KEY, e.g. scenario.duration or camera.ring", key);
		return -1;
	}
	snprintf(section, sizeof(section), "%.*s", (int)(dot - key), key);
	if (override_section(&r, section)) {
		override_reset(&r, dot + 1);
		if (section_key(&r, dot + 1, value))
			return 0;
	}
	if (r.cur == SEC_NONE)
		snprintf(err, errlen, "%s", r.err);
	else
		snprintf(err, errlen, "[%s]: %s", r.section, r.err);
	return -1;
}

int scenario_parse(const char *path, const char *text, struct scenario *sc, char *err, size_t errlen)
{
	struct reader r = { .sc = sc, .path = path };
	const char *base = path && strrchr(path, '/') ? strrchr(path, '/') + 1 : path ? path : "scenario";
	int base_len = (int)strcspn(base, "."), line;

	memset(sc, 0, sizeof(*sc));
	/* the file's name, unless cut short: reports and -o's files go by the name */
	if (base_len < SIM_NAME_MAX)
		snprintf(sc->name, sizeof(sc->name), "%.*s", base_len, base);
	sc->seed = 1;
	line = ini_prescan(text, r.err, sizeof(r.err));
	if (!line)
		line = ini_parse_text(text, on_key, &r, r.err);
	if (!line && !sc->name[0])
		fail(&r, "the file's name, %.*s, is longer than %d characters: give the scenario a shorter name (name = ...)",
		     base_len, base, SIM_NAME_MAX - 1);
	if (!line && !r.err[0] && check_scenario(&r))
		return 0;
	if (line > 0 && !r.err[0])
		fail(&r, "expected 'key = value', a [section], a comment or a blank line");
	if (line > 0)
		snprintf(err, errlen, "%s:%d: %s", path ? path : "scenario", line, r.err);
	else
		snprintf(err, errlen, "%s: %s", path ? path : "scenario", r.err);
	return -1;
}

int scenario_read_file(const char *path, struct scenario *sc, char *err, size_t errlen)
{
	char *text = ini_read_text(path, "scenario file", err, errlen);
	int ret;

	if (!text)
		return -1;
	ret = scenario_parse(path, text, sc, err, errlen);
	free(text);
	return ret;
}
