// SPDX-License-Identifier: GPL-2.0
/*
 * --cma, --cmdline, --kernel and --set (run_options.h), checked as far as
 * they can be when given (common_options.c), applied through the scenario
 * parser once the scenario is read, so every message about a key is the file's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_options.h"

/* "--set SECTION.KEY=VALUE" as SECTION.KEY and VALUE through the parser. */
static int apply_one(struct scenario *sc, const char *opt, const char *key, size_t key_len,
		     const char *value, const char *cmd)
{
	char name[128], err[SCENARIO_ERR_MAX];

	snprintf(name, sizeof(name), "%.*s", (int)key_len, key);
	if (!scenario_override(sc, name, value, err, sizeof(err)))
		return 0;
	fprintf(stderr, "cmasim %s: %s: %s\n", cmd, opt, err);
	return -EINVAL;
}

int scenario_overrides_apply(struct scenario *sc, const struct scenario_overrides *o, const char *cmd)
{
	char err[SCENARIO_ERR_MAX], opt[160];

	if (o->cmdline && apply_one(sc, "--cmdline", "scenario.cmdline", 16, o->cmdline, cmd))
		return -EINVAL;
	if (o->cma && apply_one(sc, "--cma", "scenario.cma", 12, o->cma, cmd))
		return -EINVAL;
	if (o->kernel && apply_one(sc, "--kernel", "scenario.kernel", 15, o->kernel, cmd))
		return -EINVAL;
	for (unsigned i = 0; i < o->nr_sets; i++) {
		const char *eq = strchr(o->sets[i], '=');

		snprintf(opt, sizeof(opt), "--set %s", o->sets[i]);
		if (apply_one(sc, opt, o->sets[i], (size_t)(eq - o->sets[i]), eq + 1, cmd))
			return -EINVAL;
	}
	if (!scenario_check(sc, err, sizeof(err)))
		return 0;
	fprintf(stderr, "cmasim %s: scenario %s with the command line's changes: %s\n", cmd, sc->name, err);
	return -EINVAL;
}

/* Whether the user sized the default area: --cma, --cmdline, or --set scenario.cma or scenario.cmdline. */
static bool user_sized_cma(const struct scenario_overrides *o)
{
	if (o->cma || o->cmdline)
		return true;
	for (unsigned i = 0; i < o->nr_sets; i++)
		if (!strncmp(o->sets[i], "scenario.cma=", 13) || !strncmp(o->sets[i], "scenario.cmdline=", 17))
			return true;
	return false;
}

/* The scenario's own cma=: its cma key, else one on its command line; NULL if none. */
static const char *scenario_cma(const struct scenario *sc)
{
	const char *t = sc->cmdline;

	if (sc->cma[0])
		return sc->cma;
	if (!sc->cmdline_set || !platform_cmdline_cma(sc->cmdline))
		return NULL;
	while (strncmp(t, "cma=", 4) || (t != sc->cmdline && t[-1] != ' ' && t[-1] != '\t'))
		t++;
	return t + 4;
}

/*
 * The board's pool over the scenario's cma= (@p a device tree with a
 * linux,cma-default pool): the scenario's cma key and every cma= of its
 * command line dropped, so that the pool is the default area, as the
 * board boots without one; said on stderr.
 */
static void keep_board_pool(struct scenario *sc, const struct platform *p, const char *cmd)
{
	const struct platform_rmem *pool = platform_dt_default_pool(p);
	const char *cma = scenario_cma(sc);
	const char *board = strrchr(sc->platform, '/') ? strrchr(sc->platform, '/') + 1 : sc->platform;

	if (!pool || !cma)
		return;
	fprintf(stderr, "cmasim %s: %s has its own default CMA pool, /reserved-memory/%s (%llu MiB): it is used, not scenario %s's cma=%.*s (--cma SIZE or --cmdline STR replaces the pool)\n",
		cmd, board, pool->name, (unsigned long long)((pool->size ? pool->size : pool->dyn_size) >> 20),
		sc->name, (int)strcspn(cma, " \t"), cma);
	sc->cma[0] = '\0';
	if (sc->cmdline_set)
		platform_cmdline_drop_cma(sc->cmdline);
}

int scenario_platform_apply(struct scenario *sc, const char *platform, const struct scenario_overrides *o,
			    bool cma_sized, const char *cmd)
{
	struct platform *p;
	char err[512];

	if (!platform)
		return 0;
	snprintf(sc->platform, sizeof(sc->platform), "%s", platform);
	if (cma_sized || user_sized_cma(o) || !platform_is_dt(platform))
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	/* a platform that does not load is the run's to refuse, with its message */
	if (!platform_load(platform, p, err, sizeof(err)))
		keep_board_pool(sc, p, cmd);
	free(p);
	return 0;
}
