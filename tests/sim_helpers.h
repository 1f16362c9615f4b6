/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the tests that link the simulator (the Makefile's SIM_TESTS): a
 * scenario written as INI text, parsed and run, or the test fails.
 */
#ifndef CMA_TEST_SIM_HELPERS_H
#define CMA_TEST_SIM_HELPERS_H

#include <stdlib.h>
#include <string.h>

#include "engine/sim.h"
#include "policies/registry.h"

/* @ini under @policy into @res: the test fails if it does not parse or run. */
static inline void sim_test_run_ini(const char *ini, const char *policy, struct sim_result *res)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_options o = { .policy = sim_policy_find(policy) };
	char err[768];

	assert_non_null(sc);
	assert_non_null(o.policy);
	if (scenario_parse("test.ini", ini, sc, err, sizeof(err)))
		fail_msg("the test's scenario does not parse: %s", err);
	assert_int_equal(sim_run(sc, &o, res), 0);
	free(sc);
}

/* Device @name of @r, or the test fails. */
static inline const struct device_result *sim_test_device(const struct sim_result *r, const char *name)
{
	for (unsigned i = 0; i < r->nr_devices; i++)
		if (!strcmp(r->devices[i].name, name))
			return &r->devices[i];
	fail_msg("no device %s in the result", name);
	return NULL;
}

#endif
