/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The board's kcompactd: from 5.9 it wakes when its timeout ends (500 ms
 * after boot and after each look, 32 s after a proactive run that did
 * not help) and runs the library's cma_kcompactd_poll() as an event on
 * kswapd's CPU, its work priced as that event's.
 */
#ifndef CMASIM_KCOMPACTD_H
#define CMASIM_KCOMPACTD_H

struct sim;

/* Its first timeout, on a release that has proactive compaction. */
void sim_kcompactd_start(struct sim *s);

#endif
