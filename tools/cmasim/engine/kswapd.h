/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The board's kswapd: the library's polled kswapd, run when a wakeup
 * finds it asleep rather than at a poll's turn, as soon as its waker's
 * clock gets there: at the waker's next scheduling point when the waker
 * is an event's task on the engine's thread (the woken thread preempts
 * it there; its CPU work is the waker's when no CPU is idle), else as an
 * event at the waker's time (a request in flight reaches it at its next
 * hand-over). Where the thread would sleep its pass ends, and it runs
 * again when the sleep is over (the library's nap).
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
