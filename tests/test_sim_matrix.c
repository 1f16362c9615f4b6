// SPDX-License-Identifier: GPL-2.0
/*
 * Every built-in scenario under every policy ends, and accounts for its
 * requests. A run that never ends is a deadlock between the engine's
 * thread and a request's task (predict's events once took cma_mutex
 * under a parked request, gcma-board under 3.17); an alarm turns it into
 * a failure naming the run. make test runs each pair under the
 * scenario's own kernel for 20 s; make stress (CMA_TEST_EXHAUSTIVE)
 * under six kernels across the releases for 60 s.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "engine/sim_api.h"
#include "policies/registry.h"
#include "sim_helpers.h"

#define RUN_ALARM_S	120	/* a 60 s run takes a few seconds of host time at most */

static const char *const stress_kernels[] = { "3.5", "3.10", "3.17", "4.14", "5.10", "6.12" };

/* The run in progress, for the alarm's message. */
static char current[128];

static void on_alarm(int sig)
{
	static const char msg[] = "test_sim_matrix: no end after 120 s of host time: ";

	(void)sig;
	(void)!write(2, msg, sizeof(msg) - 1);
	(void)!write(2, current, strlen(current));
	(void)!write(2, "\n", 1);
	_exit(1);
}

/*
 * @name under @policy, @kernel (NULL: its own) for @seconds: it ends,
 * and every request is counted once.
 */
static void run_one(const char *name, const struct sim_policy_ops *policy, const char *kernel,
		    unsigned seconds)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct sim_options o = { .policy = policy };
	struct sim_result r;
	char err[256];
	int ret;

	assert_non_null(sc);
	assert_int_equal(scenario_builtin(name, sc, err, sizeof(err)), 0);
	if (kernel)
		sc->kernel = kernel;
	sc->duration_ns = seconds * 1000000000ull;
	snprintf(current, sizeof(current), "%s under %s, kernel %s, %u s", name, policy->name,
		 kernel ? kernel : "its own", seconds);
	alarm(RUN_ALARM_S);
	ret = sim_run(sc, &o, &r);
	alarm(0);
	if (ret)
		fail_msg("%s: sim_run returned %d", current, ret);
	for (unsigned i = 0; i < r.nr_devices; i++) {
		const struct device_result *d = &r.devices[i];
		uint64_t failed = 0;

		for (int c = 0; c < NR_FAIL_CAUSES; c++)
			failed += d->fail[c];
		if (d->successes + failed != d->requests)
			fail_msg("%s: device %s: %llu served and %llu failed of %llu requests", current,
				 d->name, (unsigned long long)d->successes, (unsigned long long)failed,
				 (unsigned long long)d->requests);
	}
	sim_result_free(&r);
	free(sc);
}

static void every_builtin_under_every_policy_ends(void **state)
{
	bool all = getenv("CMA_TEST_EXHAUSTIVE") != NULL;
	const char *names = scenario_builtin_names();
	unsigned runs = 0;

	signal(SIGALRM, on_alarm);
	for (const char *p = names; *p;) {
		size_t len = strcspn(p, ",");
		char name[SIM_NAME_MAX];

		assert_true(len < sizeof(name));
		memcpy(name, p, len);
		name[len] = '\0';
		for (unsigned i = 0; i < sim_nr_policies(); i++) {
			if (!all) {
				run_one(name, sim_policy(i), NULL, 20);
				runs++;
				continue;
			}
			for (size_t k = 0; k < sizeof(stress_kernels) / sizeof(stress_kernels[0]); k++, runs++)
				run_one(name, sim_policy(i), stress_kernels[k], 60);
		}
		p += len;
		p += strspn(p, ", ");
	}
	printf("test_sim_matrix: %u runs ended\n", runs);
	assert_true(runs >= 25);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_builtin_under_every_policy_ends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
