#!/usr/bin/env python3
"""Where the nr_hugepages writes of a guest trace spent their time off CPU.

    bench/oracle/offcpu.py TRACE[.xz]

TRACE is the text trace of a run with sched_switch of the writing
processes and a stacktrace trigger on it (calib/arm64-writer-32m-why.exp).
The k-th process that traced a cma_alloc_start is the k-th write. For each
switch of such a process away from its CPU: the time until its next event
(it runs again), its prev_state (R+ preempted and runnable, D or S
sleeping), and its kernel stack below the scheduler (four frames). Prints
the total, the ten largest (state, stack) sums, and per write over 0.5 s
its two largest; then what the preempted processes handed their CPU to.
"""
import collections
import lzma
import re
import sys

SCHED = {'trace_event_raw_event_sched_switch', '__schedule', 'schedule', '__cond_resched',
         'schedule_timeout', 'io_schedule', 'preempt_schedule_common', '_cond_resched',
         'schedule_preempt_disabled'}
EVENT = re.compile(r'^\s*(\S+)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\S+?):?(?: (.*))?$')


def events(lines):
    """(pid, time, name, rest, stack) per event; a <stack trace> joins the event before it"""
    out = []
    i = 0
    while i < len(lines):
        m = EVENT.match(lines[i])
        i += 1
        if not m:
            continue
        _, pid, _, t, name, rest = m.groups()
        rest = rest or ''
        if name == '<stack':
            while i < len(lines) and lines[i].startswith(' => '):
                if out:
                    out[-1][4].append(lines[i][4:].split('+')[0])
                i += 1
            continue
        out.append([int(pid), float(t), name, rest, []])
    return out


def main():
    path = sys.argv[1]
    opener = lzma.open if path.endswith('.xz') else open
    with opener(path, 'rt') as f:
        evs = events(f.read().split('\n'))
    req = {}
    for pid, _, name, _, _ in evs:
        if name == 'cma_alloc_start' and pid not in req:
            req[pid] = len(req) + 1
    by_sig = collections.defaultdict(lambda: [0, 0.0])
    per_req = collections.defaultdict(lambda: collections.defaultdict(float))
    handed = collections.Counter()
    out = {}
    for pid, t, name, rest, stack in evs:
        if pid in out:
            t0, key = out.pop(pid)
            by_sig[key][0] += 1
            by_sig[key][1] += t - t0
            per_req[req[pid]][key] += t - t0
        if name == 'sched_switch' and pid in req:
            state = re.search(r'prev_state=(\S+)', rest).group(1)
            frames = [f for f in stack if f not in SCHED]
            out[pid] = (t, (state, ' < '.join(frames[:4])))
            if state == 'R+':
                handed[re.search(r'next_comm=(\S+)', rest).group(1)] += 1
    total = sum(v[1] for v in by_sig.values())
    print('off CPU, the %d writes: %.3f s in %d switches' % (len(req), total,
                                                            sum(v[0] for v in by_sig.values())))
    for (state, sig), (n, d) in sorted(by_sig.items(), key=lambda x: -x[1][1])[:10]:
        print('%9.3f s %6d  %-3s %s' % (d, n, state, sig))
    for r in sorted(per_req):
        s = sum(per_req[r].values())
        if s > 0.5:
            top = sorted(per_req[r].items(), key=lambda x: -x[1])[:2]
            print('write %d off %.3f s: ' % (r, s) +
                  '; '.join('%.3f %s %s' % (d, st, sig[:80]) for (st, sig), d in top))
    print('preempted (R+), the CPU went to: ' +
          ', '.join('%s %d' % kv for kv in handed.most_common(6)))


if __name__ == '__main__':
    main()
