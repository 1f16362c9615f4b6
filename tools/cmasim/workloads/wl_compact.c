// SPDX-License-Identifier: GPL-2.0
/*
 * "echo 1 > /proc/sys/vm/compact_memory" at the workload's start: every
 * zone compacted whole (cma_compact_memory, 6.12's compact_nodes). A
 * setup step a measurement took, as contig.sh's quiet() does before each
 * case: the run ignores the pageblock skip bits but still sets them on
 * every block it scans with nothing to isolate, and those bits outlive it
 * (until a direct compaction's scanners meet and kswapd sleeps, or a
 * deferred order restarts), so later direct compaction at a priority
 * that honours them passes those blocks by.
 */
#include <errno.h>
#include <stdlib.h>

#include "util/inifile.h"
#include "engine/sim_api.h"

static void compact_event(struct sim *s, void *arg)
{
	struct workload *w = arg;

	if (sim_wl_over(s, w))
		return;
	cma_compact_memory(sim_mm(s));
	w->res->ops++;
	sim_trace_printf(s, "cmasim_compact_memory: name=%s", w->spec->name);
}

static int compact_start(struct sim *s, struct workload *w)
{
	sim_schedule(s, w->spec->start_ns, compact_event, w);
	return 0;
}

static void compact_stop(struct sim *s, struct workload *w)
{
	(void)s;
	w->stopped = true;
}

static const struct workload_ops compact_ops = {
	.start = compact_start,
	.stop = compact_stop,
};

const struct wl_kind wl_kind_compact = {
	.name = "compact",
	.ops = &compact_ops,
};
