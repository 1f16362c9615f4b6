/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policies cmasim knows, by name, in the order compare reports them
 * (registry.c). The commands and the tests read it; the engine is
 * handed a policy and never looks a name up.
 */
#ifndef CMASIM_POLICIES_REGISTRY_H
#define CMASIM_POLICIES_REGISTRY_H

#include <stddef.h>

struct sim_policy_ops;

#define SIM_MAX_POLICIES 8

/* Add @ops after the built-in ones: 0, -EINVAL (no name or alloc), -EEXIST (name taken), -ENOSPC. */
int sim_policy_register(const struct sim_policy_ops *ops);
unsigned sim_nr_policies(void);
/* The @i-th registered policy, or NULL. */
const struct sim_policy_ops *sim_policy(unsigned i);
const struct sim_policy_ops *sim_policy_find(const char *name);
int sim_policy_index(const struct sim_policy_ops *ops);
/* The registered names into @buf, joined by @sep and the last by @last_sep; @buf. */
const char *sim_policy_names(char *buf, size_t len, const char *sep, const char *last_sep);

#endif
