/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The board's kswapd: the library's polled kswapd, run when a wakeup
 * finds it asleep rather than at a poll's turn. It runs on a CPU of its
 * own as soon as its waker's clock gets there: at the waker's next
 * scheduling point when the waker is an event's task on the engine's
 * thread (the woken thread preempts it there), else as an event at the
 * waker's time (a request in flight reaches it at its next hand-over).
 */
#ifndef CMASIM_KSWAPD_H
#define CMASIM_KSWAPD_H

#include <stdint.h>

struct sim;

/*
 * Start the polled kswapd, asleep: the storage clock's wake-ups of it
 * and its tasks' scheduling points come here; cma_kswapd_start_polled()'s
 * result.
 */
int sim_kswapd_start(struct sim *s);

#endif
