/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recorded demand's file, as cmasim replay --emit-scenario writes it
 * (wl_replay.c reads it): one request a line, AT_NS PAGES ALIGN HOLD_NS.
 * [replay] asks the recorded area itself, [demand] asks the run's
 * policy (wl_demand.c).
 */
#ifndef CMASIM_WORKLOADS_DEMAND_H
#define CMASIM_WORKLOADS_DEMAND_H

#include <stddef.h>
#include <stdint.h>

#define DEMAND_SYNTAX "AT_NS PAGES ALIGN HOLD_NS (nanoseconds, pages, an order, nanoseconds; HOLD_NS 0: held to the end)"

struct workload;
struct cma_page;

struct replay_slot {
	struct workload *w;
	uint64_t at_ns, hold_ns;
	unsigned long pages;
	unsigned align;
	struct cma_page *page;		/* held now ([replay]) */
};

/*
 * The demand file @path into *@slots (NULL: only checked): the number
 * of requests, or -1 after ini_fail(@err) naming its line, or -ENOMEM.
 */
long demand_read(const char *path, struct replay_slot **slots, char *err, size_t len);

#endif
