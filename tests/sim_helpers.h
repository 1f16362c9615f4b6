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

/*
 * @ini under @policy into @res, keeping the /proc files @dumps (NULL:
 * none) at its end: the test fails if it does not parse or run.
 */
static inline void sim_test_run_ini_dumps(const char *ini, const char *policy, const char *const *dumps,
					  unsigned nr_dumps, struct sim_result *res)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_options o = { .policy = sim_policy_find(policy), .dumps = dumps, .nr_dumps = nr_dumps };
	char err[768];

	assert_non_null(sc);
	assert_non_null(o.policy);
	if (scenario_parse("test.ini", ini, sc, err, sizeof(err)))
		fail_msg("the test's scenario does not parse: %s", err);
	assert_int_equal(sim_run(sc, &o, res), 0);
	free(sc);
}

/* @ini under @policy into @res: the test fails if it does not parse or run. */
static inline void sim_test_run_ini(const char *ini, const char *policy, struct sim_result *res)
{
	sim_test_run_ini_dumps(ini, policy, NULL, 0, res);
}

/* The value of line @name in the dump of /proc/@file kept by @r, or the test fails. */
static inline uint64_t sim_test_dumped(const struct sim_result *r, const char *file, const char *name)
{
	size_t n = strlen(name);

	for (unsigned i = 0; i < r->nr_procs; i++) {
		const char *at = r->procs[i].text;

		if (strcmp(r->procs[i].name, file))
			continue;
		for (; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL)
			if (!strncmp(at, name, n) && (at[n] == ' ' || at[n] == ':'))
				return strtoull(at + n + 1 + strspn(at + n + 1, " "), NULL, 10);
	}
	fail_msg("no %s in the run's /proc/%s", name, file);
	return 0;
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
