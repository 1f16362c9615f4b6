// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario files: INI read with libinih, checked key by key against one
 * table. The format (cmasim(1) has it in full):
 *
 *	[scenario]
 *	name = camera-browser       ; default: the file's name
 *	description = ...
 *	platform = arm              ; built-in, or a platform file (relative to this file)
 *	cmdline = cma=64M           ; replaces the platform's; kconfig = LINE repeats
 *	memory = 4G                 ; one bank of this size instead of the platform's
 *	swap = 256M
 *	duration = 60s              ; us, ms, s, m, h
 *	seed = 1
 *	sample = 100ms              ; timeline resolution (default duration / 200)
 *	snapshot = 30s              ; a physical-memory map at 30 s; repeats
 *
 *	[cost]                      ; overrides of the platform's cost profile
 *	copy_mbps = 700
 *
 *	[pagecache NAME]  file = 512M, rate = 2000 (pages/s), pattern = random|sequential
 *	[writer NAME]     the same, and dirty_expire = 30s
 *	[anon NAME]       rss = 256M, rate = 5000, lifetime = 0, restart = 0
 *	[slab NAME]       rate = 200, orders = 0:70 1:20 3:10, lifetime = 2s,
 *	                  reclaimable = 30 (percent), max = 32M
 *	[pinner NAME]     target = NAME, share = 10 (percent), hold = 200ms, period = 1s
 *	[device NAME]     size = 3M, period = 33ms, ring = 4, deadline = 33ms,
 *	                  session = 5s, gap = 5s, align = 1M, atomic = no, sg = no,
 *	                  cma = 16M (its own area), mask = 0xffffffff
 *
 * Every workload also takes start and stop (durations from the run's start).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "inifile.h"
#include "platform.h"
#include "scenario.h"

enum key_type { T_TEXT, T_SIZE, T_UINT, T_U32, T_DURATION, T_BOOL, T_PERCENT, T_PATTERN, T_ORDERS,
		T_NAME, T_PLATFORM };

/* Which sections a key belongs to: a bit per workload kind, and two more. */
#define S_SCENARIO	(1u << NR_WL_KINDS)
#define S_COST		(1u << (NR_WL_KINDS + 1))
#define S_FILE		((1u << WL_PAGECACHE) | (1u << WL_WRITER))
#define S_WL		((1u << NR_WL_KINDS) - 1)
#define K(kind)		(1u << (kind))

struct key {
	const char *name;
	unsigned sections;
	enum key_type type;
	size_t offset;		/* into struct scenario ([scenario]) or struct wl_spec */
	uint64_t max;		/* T_UINT, T_U32, T_SIZE: largest accepted; 0: any */
	size_t size;		/* T_TEXT: the field's size */
	bool required;
	bool repeats;
};

/* 64 GiB: the simulator keeps 32 bytes per page of RAM and 13 per page of a workload's table */
#define SIM_MAX_BYTES	(64ull << 30)

#define SC(f)	offsetof(struct scenario, f)
#define SCT(f)	.offset = SC(f), .size = sizeof(((struct scenario *)0)->f)
#define WL(f)	offsetof(struct wl_spec, f)

static const struct key keys[] = {
	{ .name = "name", .sections = S_SCENARIO, .type = T_NAME, .offset = SC(name) },
	{ .name = "description", .sections = S_SCENARIO, .type = T_TEXT, SCT(description) },
	{ .name = "platform", .sections = S_SCENARIO, .type = T_PLATFORM },
	{ .name = "cmdline", .sections = S_SCENARIO, .type = T_TEXT, SCT(cmdline) },
	{ .name = "kconfig", .sections = S_SCENARIO, .type = T_TEXT, SCT(kconfig), .repeats = true },
	{ .name = "memory", .sections = S_SCENARIO, .type = T_SIZE, .offset = SC(memory_bytes), .max = SIM_MAX_BYTES },
	{ .name = "swap", .sections = S_SCENARIO, .type = T_SIZE, .offset = SC(swap_bytes), .max = SIM_MAX_BYTES },
	{ .name = "duration", .sections = S_SCENARIO, .type = T_DURATION, .offset = SC(duration_ns) },
	{ .name = "seed", .sections = S_SCENARIO, .type = T_UINT, .offset = SC(seed) },
	{ .name = "sample", .sections = S_SCENARIO, .type = T_DURATION, .offset = SC(sample_ns) },
	{ .name = "snapshot", .sections = S_SCENARIO, .type = T_DURATION, .offset = SC(snapshot_ns), .repeats = true },

	{ .name = "start", .sections = S_WL, .type = T_DURATION, .offset = WL(start_ns) },
	{ .name = "stop", .sections = S_WL, .type = T_DURATION, .offset = WL(stop_ns) },
	{ .name = "file", .sections = S_FILE, .type = T_SIZE, .offset = WL(file.file_bytes), .max = SIM_MAX_BYTES, .required = true },
	{ .name = "rate", .sections = S_FILE, .type = T_UINT, .offset = WL(file.rate), .max = 100000000, .required = true },
	{ .name = "pattern", .sections = S_FILE, .type = T_PATTERN, .offset = WL(file.sequential) },
	{ .name = "dirty_expire", .sections = K(WL_WRITER), .type = T_DURATION, .offset = WL(file.dirty_expire_ns) },
	{ .name = "rss", .sections = K(WL_ANON), .type = T_SIZE, .offset = WL(anon.rss_bytes), .max = SIM_MAX_BYTES, .required = true },
	{ .name = "rate", .sections = K(WL_ANON), .type = T_UINT, .offset = WL(anon.rate), .max = 100000000, .required = true },
	{ .name = "lifetime", .sections = K(WL_ANON), .type = T_DURATION, .offset = WL(anon.lifetime_ns) },
	{ .name = "restart", .sections = K(WL_ANON), .type = T_DURATION, .offset = WL(anon.restart_ns) },
	{ .name = "rate", .sections = K(WL_SLAB), .type = T_UINT, .offset = WL(slab.rate), .max = 10000000, .required = true },
	{ .name = "orders", .sections = K(WL_SLAB), .type = T_ORDERS, .offset = 0 },
	{ .name = "lifetime", .sections = K(WL_SLAB), .type = T_DURATION, .offset = WL(slab.lifetime_ns), .required = true },
	{ .name = "reclaimable", .sections = K(WL_SLAB), .type = T_PERCENT, .offset = WL(slab.reclaimable) },
	{ .name = "max", .sections = K(WL_SLAB), .type = T_SIZE, .offset = WL(slab.max_bytes), .max = SIM_MAX_BYTES },
	{ .name = "target", .sections = K(WL_PINNER), .type = T_NAME, .offset = WL(pinner.target), .required = true },
	{ .name = "share", .sections = K(WL_PINNER), .type = T_PERCENT, .offset = WL(pinner.share), .required = true },
	{ .name = "hold", .sections = K(WL_PINNER), .type = T_DURATION, .offset = WL(pinner.hold_ns), .required = true },
	{ .name = "period", .sections = K(WL_PINNER), .type = T_DURATION, .offset = WL(pinner.period_ns), .required = true },
	{ .name = "size", .sections = K(WL_DEVICE), .type = T_SIZE, .offset = WL(device.buffer_bytes), .max = SIM_MAX_BYTES, .required = true },
	{ .name = "period", .sections = K(WL_DEVICE), .type = T_DURATION, .offset = WL(device.period_ns), .required = true },
	{ .name = "ring", .sections = K(WL_DEVICE), .type = T_U32, .offset = WL(device.ring), .max = 64 },
	{ .name = "deadline", .sections = K(WL_DEVICE), .type = T_DURATION, .offset = WL(device.deadline_ns) },
	{ .name = "session", .sections = K(WL_DEVICE), .type = T_DURATION, .offset = WL(device.session_ns) },
	{ .name = "gap", .sections = K(WL_DEVICE), .type = T_DURATION, .offset = WL(device.gap_ns) },
	{ .name = "align", .sections = K(WL_DEVICE), .type = T_SIZE, .offset = WL(device.align_bytes), .max = SIM_MAX_BYTES },
	{ .name = "atomic", .sections = K(WL_DEVICE), .type = T_BOOL, .offset = WL(device.atomic) },
	{ .name = "sg", .sections = K(WL_DEVICE), .type = T_BOOL, .offset = WL(device.sg) },
	{ .name = "cma", .sections = K(WL_DEVICE), .type = T_SIZE, .offset = WL(device.cma_bytes), .max = SIM_MAX_BYTES },
	{ .name = "mask", .sections = K(WL_DEVICE), .type = T_UINT, .offset = WL(device.mask) },
};

#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const kind_names[NR_WL_KINDS] = {
	[WL_PAGECACHE] = "pagecache", [WL_WRITER] = "writer", [WL_ANON] = "anon",
	[WL_SLAB] = "slab", [WL_PINNER] = "pinner", [WL_DEVICE] = "device",
};

const char *wl_kind_name(enum wl_kind k)
{
	return k < NR_WL_KINDS ? kind_names[k] : "?";
}

struct reader {
	struct scenario *sc;
	const char *path;
	char err[512];
	char section[64];
	unsigned cur;			/* the current section's bit (S_SCENARIO, S_COST or K(kind)) */
	struct wl_spec *wl;		/* the current workload section */
	uint64_t seen;			/* keys given in the current section, by index */
	uint64_t seen_wl[SIM_MAX_WORKLOADS];
	bool scenario_seen;
};

#define fail(r, ...) ini_fail((r)->err, sizeof((r)->err), __VA_ARGS__)

/* "0:70 1:20 3:10": orders and their weights. */
static int parse_orders(struct reader *r, const char *value, struct wl_slab *slab)
{
	const char *s = value;

	slab->nr_orders = 0;
	while (*s) {
		char *end;
		unsigned long order, weight;

		s += strspn(s, " \t");
		if (!*s)
			break;
		errno = 0;
		order = strtoul(s, &end, 10);
		if (end == s || *end != ':' || order > 19)
			goto bad;
		s = end + 1;
		weight = strtoul(s, &end, 10);
		if (end == s || errno || !weight || weight > 1000000 || (*end && *end != ' ' && *end != '\t'))
			goto bad;
		if (slab->nr_orders == SIM_MAX_SLAB_ORDERS)
			return fail(r, "orders = %s: at most %d orders", value, SIM_MAX_SLAB_ORDERS);
		slab->orders[slab->nr_orders] = (unsigned)order;
		slab->weights[slab->nr_orders++] = (unsigned)weight;
		s = end;
	}
	if (slab->nr_orders)
		return 1;
bad:
	return fail(r, "orders = %s: expected ORDER:WEIGHT pairs separated by blanks, orders 0 to 19 and weights above 0 (e.g. orders = 0:70 1:20 3:10)",
		    value);
}

static int set_text(struct reader *r, const struct key *k, const char *value, char *dst, size_t size)
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
	const char *slash = r->path ? strrchr(r->path, '/') : NULL;
	bool builtin = platform_builtin(value);
	size_t len;

	if (builtin || !slash || value[0] == '/')
		len = (size_t)snprintf(dst, size, "%s", value);
	else
		len = (size_t)snprintf(dst, size, "%.*s/%s", (int)(slash - r->path), r->path, value);
	if (len >= size)
		return fail(r, "platform = %s: the path is too long: at most %zu characters", value, size - 1);
	if (!builtin && access(dst, R_OK))
		return fail(r, "platform = %s: no built-in platform has that name and the platform file %s cannot be read (%s); accepted %s, or the path of a platform file",
			    value, dst, strerror(errno), platform_builtin_names());
	return 1;
}

static int set_value(struct reader *r, const struct key *k, const char *value, char *base)
{
	char *field = base + k->offset;
	uint64_t v;
	bool b;

	switch (k->type) {
	case T_TEXT:
		return set_text(r, k, value, field, k->size);
	case T_NAME:
		if (!ini_valid_name(value, SIM_NAME_MAX))
			return fail(r, "%s = %s: a name is 1 to %d letters, digits, '-', '_' or '.'", k->name,
				    value, SIM_NAME_MAX - 1);
		strcpy(field, value);
		return 1;
	case T_SIZE:
	case T_UINT:
	case T_U32:
		if (!ini_parse_number(value, strlen(value), k->type == T_SIZE, &v))
			return fail(r, "%s = %s: expected %s", k->name, value,
				    k->type == T_SIZE ? INI_SIZE_SYNTAX : "a decimal or 0x hex number");
		if (k->max && v > k->max && k->type == T_SIZE)
			return fail(r, "%s = %s: at most %lluG (the simulator's limit)", k->name, value,
				    (unsigned long long)(k->max >> 30));
		if (k->max && v > k->max)
			return fail(r, "%s = %s: at most %llu", k->name, value, (unsigned long long)k->max);
		if (k->type == T_U32)
			*(unsigned *)field = (unsigned)v;
		else
			*(uint64_t *)field = v;
		return 1;
	case T_DURATION:
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
	case T_BOOL:
		if (!ini_parse_bool(value, &b))
			return fail(r, "%s = %s: accepted " INI_BOOL_SYNTAX, k->name, value);
		*(bool *)field = b;
		return 1;
	case T_PERCENT:
		if (!ini_parse_number(value, strlen(value), false, &v) || v > 100)
			return fail(r, "%s = %s: expected a percentage, 0 to 100", k->name, value);
		*(unsigned *)field = (unsigned)v;
		return 1;
	case T_PATTERN:
		if (strcmp(value, "random") && strcmp(value, "sequential"))
			return fail(r, "%s = %s: accepted random or sequential", k->name, value);
		*(bool *)field = !strcmp(value, "sequential");
		return 1;
	case T_ORDERS:
		return parse_orders(r, value, &r->wl->slab);
	case T_PLATFORM:
		return set_platform(r, value);
	}
	return 0;
}

static int cost_key(struct reader *r, const char *name, const char *value)
{
	char *end;
	double v;

	for (int i = 0; i < NR_COST_FIELDS; i++) {
		if (strcmp(name, cost_field_names[i]))
			continue;
		if (r->sc->cost_set[i])
			return fail(r, "%s is given twice in [cost]: give it once", name);
		errno = 0;
		v = strtod(value, &end);
		if (end == value || *end || errno || !isfinite(v) || v <= 0)
			return fail(r, "%s = %s: expected a number above 0 (e.g. %s = 700)", name, value, name);
		r->sc->cost.v[i] = v;
		r->sc->cost_set[i] = true;
		return 1;
	}
	return fail(r, "unknown key '%s' in [cost]; accepted: cpu_mhz, copy_mbps, zero_mbps, scan_cycles, page_cycles, storage_write_mbps, storage_read_mbps, drain_us, lock_us",
		    name);
}

/* The keys of the current section, for messages. */
static void accepted_keys(const struct reader *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NR_KEYS && n < len; i++)
		if (keys[i].sections & r->cur)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", keys[i].name);
}

static int section_key(struct reader *r, const char *name, const char *value)
{
	char accepted[256];

	if (r->cur == S_COST)
		return cost_key(r, name, value);
	for (size_t i = 0; i < NR_KEYS; i++) {
		const struct key *k = &keys[i];

		if (!(k->sections & r->cur) || strcmp(k->name, name))
			continue;
		if (!k->repeats && (r->seen & (1ull << i)))
			return fail(r, "%s is given twice in [%s]: give it once", name, r->section);
		r->seen |= 1ull << i;
		if (r->wl)
			r->seen_wl[r->wl - r->sc->wl] |= 1ull << i;
		if (r->cur == S_SCENARIO && !strcmp(name, "cmdline"))
			r->sc->cmdline_set = true;
		if (r->cur == S_SCENARIO && !strcmp(name, "kconfig"))
			r->sc->kconfig_set = true;
		return set_value(r, k, value, r->cur == S_SCENARIO ? (char *)r->sc : (char *)r->wl);
	}
	accepted_keys(r, accepted, sizeof(accepted));
	return fail(r, "unknown key '%s' in [%s]; accepted: %s", name, r->section, accepted);
}

static void wl_defaults(struct wl_spec *w)
{
	switch (w->kind) {
	case WL_WRITER:
		w->file.dirty_expire_ns = 30000000000ull;	/* dirty_expire_centisecs = 3000 */
		break;
	case WL_SLAB:
		w->slab.orders[0] = 0;
		w->slab.weights[0] = 1;
		w->slab.nr_orders = 1;
		break;
	case WL_DEVICE:
		w->device.ring = 1;
		w->device.mask = 0xffffffffull;
		break;
	default:
		break;
	}
}

static int start_section(struct reader *r, const char *section)
{
	struct scenario *sc = r->sc;
	size_t n = strcspn(section, " \t");
	const char *name = section + n + strspn(section + n, " \t");

	snprintf(r->section, sizeof(r->section), "%s", section);
	r->seen = 0;
	r->wl = NULL;
	if (!strcmp(section, "scenario")) {
		r->scenario_seen = true;
		r->cur = S_SCENARIO;
		return 1;
	}
	if (!strcmp(section, "cost")) {
		r->cur = S_COST;
		return 1;
	}
	for (int k = 0; k < NR_WL_KINDS; k++) {
		struct wl_spec *w;

		if (strlen(kind_names[k]) != n || strncmp(section, kind_names[k], n))
			continue;
		if (!ini_valid_name(name, SIM_NAME_MAX))
			return fail(r, "[%s]: give the workload a name of 1 to %d letters, digits, '-', '_' or '.' (e.g. [%s camera])",
				    section, SIM_NAME_MAX - 1, kind_names[k]);
		for (unsigned i = 0; i < sc->nr_wl; i++)
			if (!strcmp(sc->wl[i].name, name))
				return fail(r, "[%s]: the name %s is taken by [%s %s]: give each workload its own",
					    section, name, kind_names[sc->wl[i].kind], name);
		if (sc->nr_wl == SIM_MAX_WORKLOADS)
			return fail(r, "too many workloads: at most %d", SIM_MAX_WORKLOADS);
		w = &sc->wl[sc->nr_wl++];
		w->kind = (enum wl_kind)k;
		strcpy(w->name, name);
		wl_defaults(w);
		r->wl = w;
		r->cur = K(k);
		return 1;
	}
	return fail(r, "unknown section [%s]; accepted: [scenario], [cost], [pagecache NAME], [writer NAME], [anon NAME], [slab NAME], [pinner NAME], [device NAME]",
		    section);
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;

	if (r->err[0])
		return 1;		/* only the first error is reported */
	if (!*section)
		return fail(r, "'%s' comes before any section: put it under [scenario] or a workload's section",
			    name);
	if (strcmp(section, r->section) && !start_section(r, section))
		return 0;
	return section_key(r, name, value);
}

/* Was key @name of @w's section given? */
static bool given(const struct reader *r, unsigned idx, const char *name)
{
	for (size_t i = 0; i < NR_KEYS; i++)
		if ((keys[i].sections & K(r->sc->wl[idx].kind)) && !strcmp(keys[i].name, name))
			return r->seen_wl[idx] & (1ull << i);
	return false;
}

/* After the whole file: required keys, references and limits no single line shows. */
static int check_workload(struct reader *r, unsigned idx)
{
	struct scenario *sc = r->sc;
	struct wl_spec *w = &sc->wl[idx];
	const char *kind = kind_names[w->kind];

	for (size_t i = 0; i < NR_KEYS; i++)
		if (keys[i].required && (keys[i].sections & K(w->kind)) && !(r->seen_wl[idx] & (1ull << i)))
			return fail(r, "[%s %s] has no %s: it is required", kind, w->name, keys[i].name);
	if (w->stop_ns && w->stop_ns <= w->start_ns)
		return fail(r, "[%s %s]: stop must come after start", kind, w->name);
	switch (w->kind) {
	case WL_PAGECACHE:
	case WL_WRITER:
		if (!w->file.file_bytes)
			return fail(r, "[%s %s]: file = 0: give the file a size", kind, w->name);
		break;
	case WL_ANON:
		if (!w->anon.rss_bytes)
			return fail(r, "[%s %s]: rss = 0: give the process some memory", kind, w->name);
		break;
	case WL_SLAB:
		if (!w->slab.lifetime_ns)
			return fail(r, "[%s %s]: lifetime = 0: give allocations a mean lifetime", kind, w->name);
		break;
	case WL_PINNER:
		w->pinner.target_idx = -1;
		for (unsigned i = 0; i < sc->nr_wl; i++)
			if (!strcmp(sc->wl[i].name, w->pinner.target) &&
			    (sc->wl[i].kind == WL_ANON || sc->wl[i].kind == WL_PAGECACHE ||
			     sc->wl[i].kind == WL_WRITER))
				w->pinner.target_idx = (int)i;
		if (w->pinner.target_idx < 0)
			return fail(r, "[%s %s]: target = %s names no [anon], [pagecache] or [writer] workload",
				    kind, w->name, w->pinner.target);
		if (!w->pinner.period_ns)
			return fail(r, "[%s %s]: period = 0: give the time between pins", kind, w->name);
		break;
	case WL_DEVICE:
		w->device.cma_given = given(r, idx, "cma");
		w->device.mask_given = given(r, idx, "mask");
		if (!w->device.buffer_bytes || !w->device.period_ns || !w->device.ring)
			return fail(r, "[%s %s]: size, period and ring must be above 0", kind, w->name);
		if (w->device.align_bytes & (w->device.align_bytes - 1))
			return fail(r, "[%s %s]: align = %llu: give a power of two", kind, w->name,
				    (unsigned long long)w->device.align_bytes);
		if (!w->device.mask)
			return fail(r, "[%s %s]: mask = 0 lets the device reach nothing (e.g. mask = 0xffffffff)",
				    kind, w->name);
		break;
	default:
		break;
	}
	return 1;
}

static int check_scenario(struct reader *r)
{
	struct scenario *sc = r->sc;

	if (!r->scenario_seen)
		return fail(r, "no [scenario] section: give at least its platform and duration");
	if (!sc->duration_ns)
		return fail(r, "[scenario] has no duration (e.g. duration = 60s)");
	if (!sc->platform[0])
		return fail(r, "[scenario] has no platform: a built-in one (see 'cmasim list') or a platform file");
	if (!sc->nr_wl)
		return fail(r, "no workloads: give at least one [pagecache|writer|anon|slab|pinner|device NAME] section");
	for (unsigned i = 0; i < sc->nr_snapshots; i++)
		if (sc->snapshot_ns[i] > sc->duration_ns)
			return fail(r, "[scenario]: a snapshot at %.3f s is past the duration",
				    (double)sc->snapshot_ns[i] / 1e9);
	for (unsigned i = 0; i < sc->nr_wl; i++)
		if (!check_workload(r, i))
			return 0;
	return 1;
}

int scenario_parse(const char *path, const char *text, struct scenario *sc, char *err, size_t errlen)
{
	struct reader r = { .sc = sc, .path = path };
	const char *base = path && strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int line;

	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "%.*s", (int)strcspn(base ? base : "scenario", "."),
		 base ? base : "scenario");
	sc->seed = 1;
	line = ini_prescan(text, r.err, sizeof(r.err));
	if (!line)
		line = ini_parse_string(text, on_key, &r);
	if (!line && check_scenario(&r))
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
