/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options that change a scenario before it runs, shared by the
 * commands that run one: --cma SIZE, --cmdline STR, --kernel NAME and
 * --set SECTION.KEY=VALUE. A command puts OPT_SCENARIO_OVERRIDES in its
 * option table (common_options.h), and calls scenario_overrides_apply()
 * once the scenario is read. Each goes through the scenario file's
 * parser (scenario_override()), so a value is checked and refused as the
 * same line in a file would be.
 */
#ifndef CMASIM_RUN_OPTIONS_H
#define CMASIM_RUN_OPTIONS_H

#include "cli/common_options.h"

/*
 * @o on @sc, read already: --cmdline, then --cma, --kernel, then each --set in
 * order, then the whole scenario's checks. 0, or -EINVAL after saying on
 * stderr which option was refused and why.
 */
int scenario_overrides_apply(struct scenario *sc, const struct scenario_overrides *o, const char *cmd);
/*
 * --platform @platform (NULL: none) on @sc, read already, before
 * scenario_overrides_apply(). A device tree with its own default CMA
 * pool (linux,cma-default) keeps it: unless @o sizes the default area
 * (--cma, --cmdline, --set scenario.cma or scenario.cmdline) or the
 * command does otherwise (@cma_sized: a sweep's grid over cma), the
 * scenario's own cma= is dropped, as a board boots with its pool, and
 * stderr says so. 0, or -ENOMEM.
 */
int scenario_platform_apply(struct scenario *sc, const char *platform, const struct scenario_overrides *o,
			    bool cma_sized, const char *cmd);

#endif
