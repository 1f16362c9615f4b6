// SPDX-License-Identifier: GPL-2.0
/*
 * The policies' registry: how a device gets its buffers is a
 * struct sim_policy_ops (policy_*.c), listed here once, in the order
 * compare reports them. cmasim's option parsing, --help, the "accepted"
 * messages and the commands read this list, so a new policy is one new
 * file and one entry below (or, from a test, one sim_policy_register).
 * The engine never reads it: a run is handed its policy.
 */
#include <errno.h>
#include <string.h>

#include "engine/sim_api.h"
#include "policies/registry.h"

extern const struct sim_policy_ops policy_cma, policy_carveout, policy_buddy, policy_gcma,
	policy_predict;

static const struct sim_policy_ops *policies[SIM_MAX_POLICIES] = {
	&policy_cma, &policy_carveout, &policy_buddy, &policy_gcma, &policy_predict,
};
static unsigned nr_policies = 5;

int sim_policy_register(const struct sim_policy_ops *ops)
{
	if (!ops->name || !ops->alloc)
		return -EINVAL;
	if (sim_policy_find(ops->name))
		return -EEXIST;
	if (nr_policies == SIM_MAX_POLICIES)
		return -ENOSPC;
	policies[nr_policies++] = ops;
	return 0;
}

unsigned sim_nr_policies(void)
{
	return nr_policies;
}

const struct sim_policy_ops *sim_policy(unsigned i)
{
	return i < nr_policies ? policies[i] : NULL;
}

const struct sim_policy_ops *sim_policy_find(const char *name)
{
	for (unsigned i = 0; i < nr_policies; i++)
		if (!strcmp(policies[i]->name, name))
			return policies[i];
	return NULL;
}

int sim_policy_index(const struct sim_policy_ops *ops)
{
	for (unsigned i = 0; i < nr_policies; i++)
		if (policies[i] == ops)
			return (int)i;
	return -1;
}

const char *sim_policy_names(char *buf, size_t len, const char *sep, const char *last_sep)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < nr_policies && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      !i ? "" : i + 1 == nr_policies ? last_sep : sep, policies[i]->name);
	return buf;
}

