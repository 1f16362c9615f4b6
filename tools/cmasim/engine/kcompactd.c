// SPDX-License-Identifier: GPL-2.0
/* The board's kcompactd (kcompactd.h). */
#include "engine/kcompactd.h"
#include "engine/sim.h"

#define MS	1000000ull
/* kcompactd's first timeout from its start at boot (HPAGE_FRAG_CHECK_INTERVAL_MSEC) */
#define FIRST_TIMEOUT_MS	500u

static void kcompactd(struct sim *s, void *arg)
{
	unsigned timeout_ms = cma_kcompactd_poll(s->mm);

	if (timeout_ms)
		sim_schedule_on(s, s->now + timeout_ms * MS, kcompactd, NULL, s->kswapd_cpu);
}

void sim_kcompactd_start(struct sim *s)
{
	if (cma_kernel_has(cma_mm_kernel(s->mm), "compact_proactive") == 1)
		sim_schedule_on(s, s->now + FIRST_TIMEOUT_MS * MS, kcompactd, NULL, s->kswapd_cpu);
}
