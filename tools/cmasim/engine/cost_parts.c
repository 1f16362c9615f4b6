// SPDX-License-Identifier: GPL-2.0
/*
 * The parts a request's time is split into (cost_ns_parts() in cost.c
 * fills them): their names and sums. Apart from the cost model, which
 * reads the library's counters, so that the reports link them alone.
 */
#include "engine/cost.h"

const char *const cost_part_names[NR_COST_PARTS] = {
	[COST_PART_COPY] = "copy",
	[COST_PART_UNMAP] = "unmap",
	[COST_PART_TLB] = "tlb",
	[COST_PART_SCAN] = "scan",
	[COST_PART_ZERO] = "zero",
	[COST_PART_DRAIN] = "drain",
	[COST_PART_OTHER] = "other",
	[COST_PART_RUN_WAIT] = "run_wait",
	[COST_PART_IO_WAIT] = "io_wait",
	[COST_PART_LOCK_WAIT] = "lock_wait",
	[COST_PART_THROTTLE] = "throttle",
	[COST_PART_CONSOLE] = "console",
};

uint64_t cost_parts_sum(const struct cost_parts *p)
{
	uint64_t sum = 0;

	for (int i = 0; i < NR_COST_PARTS; i++)
		sum += p->ns[i];
	return sum;
}

void cost_parts_add(struct cost_parts *sum, const struct cost_parts *p)
{
	for (int i = 0; i < NR_COST_PARTS; i++)
		sum->ns[i] += p->ns[i];
}
