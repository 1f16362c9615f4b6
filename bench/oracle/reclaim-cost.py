#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What reclaim spends a page in an oracle guest (doc/cost-model.md,
"Reclaim's work per page").

    bench/oracle/reclaim-cost.py RESULTS/EXPERIMENT [TASK]

Reads the experiment's trace.txt (or trace.txt.xz) of a deterministic run
(-icount shift=0: a guest microsecond is 1,000 instructions) and, for
TASK's (default kswapd) consecutive mm_vmscan_lru_shrink_inactive events
of 32 pages scanned with no other event between them (on a guest of one
CPU, no other task ran), the time between the two: one batch's work. Prints, per kind of batch (file
or anonymous, all 32 freed or none), the count and the quartiles in
microseconds.
"""
import lzma
import os
import re
import statistics
import sys

EVENT = re.compile(r'\s*(\S+)\s+\[\d+\]\s+\S+\s+([\d.]+):\s+(\S+):')


def open_trace(results):
    path = os.path.join(results, 'trace.txt')
    if os.path.exists(path):
        return open(path, encoding='utf-8', errors='replace')
    return lzma.open(path + '.xz', 'rt', encoding='utf-8', errors='replace')


def batches(lines, task):
    prev = None
    for line in lines:
        m = EVENT.match(line)
        if not m:
            continue
        who, t, event = m.group(1), float(m.group(2)), m.group(3)
        if task not in who or event != 'mm_vmscan_lru_shrink_inactive':
            prev = None
            continue
        scanned = int(re.search(r'nr_scanned=(\d+)', line).group(1))
        freed = int(re.search(r'nr_reclaimed=(\d+)', line).group(1))
        kind = 'file' if 'RECLAIM_WB_FILE' in line else 'anon'
        if prev is not None and scanned == 32 and freed in (0, 32):
            yield f'{kind}, {freed} of 32 freed', (t - prev) * 1e6
        prev = t


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit('usage: reclaim-cost.py RESULTS/EXPERIMENT [TASK]')
    task = sys.argv[2] if len(sys.argv) == 3 else 'kswapd'
    by_kind = {}
    with open_trace(sys.argv[1]) as f:
        for kind, us in batches(f, task):
            by_kind.setdefault(kind, []).append(us)
    if not by_kind:
        sys.exit(f'reclaim-cost.py: no batch of 32 pages of {task} in {sys.argv[1]}')
    for kind, v in sorted(by_kind.items()):
        q = statistics.quantiles(v, n=4) if len(v) > 1 else v * 3
        print(f'{task} {kind}: {len(v)} batches, p25 {q[0]:.1f} median {statistics.median(v):.1f} '
              f'p75 {q[2]:.1f} us ({statistics.median(v) * 1000 / 32:.0f} instructions a page)')


main()
