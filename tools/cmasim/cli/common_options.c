// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of the options several commands share (common_options.h):
 * each value is refused as "cmasim CMD: --name 'VALUE': ..." with what is
 * accepted, whichever command took it.
 */
#include <errno.h>
#include <string.h>

#include "cli/common_options.h"
#include "engine/result.h"
#include "policies/registry.h"

/*
 * A name cma_write_proc may know: a /proc file, or (kernel 6.12) an
 * area's sysfs or debugfs file, which only the booted machine can check.
 */
bool proc_name_ok(const char *name)
{
	static const char *const names[] = {
		"buddyinfo", "pagetypeinfo", "vmstat", "meminfo", "zoneinfo", "cma",
	};

	if ((!strncmp(name, "sys/kernel/mm/cma/", 18) || !strncmp(name, "debug/cma/", 10)) &&
	    strlen(name) < sizeof(((struct sim_proc *)0)->name))
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

int opt_kernel_cb(const struct cmd_option *o, const char *arg, const char *cmd)
{
	const char *kernel = platform_kernel_find(arg);

	if (!kernel) {
		fprintf(stderr, "cmasim %s: --kernel '%s': no such kernel profile: accepted "
			PLATFORM_KERNELS_ACCEPTED "\n", cmd, arg);
		return -EINVAL;
	}
	*(const char **)o->value = kernel;
	return 0;
}

int opt_dump_cb(const struct cmd_option *o, const char *arg, const char *cmd)
{
	if (!proc_name_ok(arg)) {
		fprintf(stderr, "cmasim %s: --dump '%s': no such /proc file: accepted " PROC_NAMES_ACCEPTED "\n",
			cmd, arg);
		return -EINVAL;
	}
	return opt_list_add(o, arg, cmd);
}

int opt_cma_cb(const struct cmd_option *o, const char *arg, const char *cmd)
{
	uint64_t bytes;

	if (!scenario_parse_cma(arg, &bytes)) {
		fprintf(stderr, "cmasim %s: --cma '%s': expected " SCENARIO_CMA_SYNTAX "\n", cmd, arg);
		return -EINVAL;
	}
	*(const char **)o->value = arg;
	return 0;
}

int opt_set_cb(const struct cmd_option *o, const char *arg, const char *cmd)
{
	struct scenario_overrides *ov = o->value;
	const char *eq = strchr(arg, '=');

	if (!eq || !memchr(arg, '.', (size_t)(eq - arg))) {
		fprintf(stderr, "cmasim %s: --set '%s': expected SECTION.KEY=VALUE, e.g. camera.ring=2 or scenario.duration=30s\n",
			cmd, arg);
		return -EINVAL;
	}
	if (ov->nr_sets == SCENARIO_MAX_SETS) {
		fprintf(stderr, "cmasim %s: --set: at most %d of them\n", cmd, SCENARIO_MAX_SETS);
		return -EINVAL;
	}
	ov->sets[ov->nr_sets++] = arg;
	return 0;
}

int opt_policy_cb(const struct cmd_option *o, const char *arg, const char *cmd)
{
	const struct sim_policy_ops *policy = sim_policy_find(arg);
	char names[256];

	if (!policy) {
		fprintf(stderr, "cmasim %s: --policy '%s': accepted %s\n", cmd, arg,
			sim_policy_names(names, sizeof(names), ", ", " or "));
		return -EINVAL;
	}
	*(const struct sim_policy_ops **)o->value = policy;
	return 0;
}
