#!/usr/bin/env python3
"""What the nr_hugepages writes of a guest trace did with their time.

    bench/oracle/offcpu.py TRACE[.xz]

TRACE is the text trace of a run with sched_switch on
(calib/arm64-writer-32m-why.exp: the writing processes' switches only,
each with a stacktrace trigger; calib/arm64-writer-32m-sched.exp: every
task's switches). The k-th process that traced a cma_alloc_start is the
k-th write. Per write longer than 1 s: its time, the 32-page migration
batches (mm_compaction_isolate_migratepages to its mm_migrate_pages:
count, median, max), its switches away, and, when the trace has the
switches back to it (every task's switches traced), the time it was off
its CPU. Then:

  - with stacks: the switches away counted by prev_state and the first
    four frames below the scheduler, and the task the CPU went to;
  - with every task's switches: each CPU's time per task over the span of
    those writes (kworkers numbered alike merged).

A trace with only the writers' own switches cannot say how long they were
off CPU: the next event of the process after a switch away comes after
it has run again for a while.
"""
import collections
import lzma
import re
import statistics
import sys

SCHED = {'trace_event_raw_event_sched_switch', '__schedule', 'schedule', '__cond_resched',
         'schedule_timeout', 'io_schedule', 'preempt_schedule_common', '_cond_resched',
         'schedule_preempt_disabled'}
EVENT = re.compile(r'^\s*(\S+)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\S+?):?(?: (.*))?$')
SWITCH = re.compile(r'prev_comm=(.*) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*) next_pid=(\d+)')


def events(lines):
    """[pid, cpu, time, name, rest, stack] per event; a <stack trace> joins the event before it"""
    out = []
    it = iter(lines)
    pending = None
    for line in it:
        while True:
            if pending is not None:
                line, pending = pending, None
            m = EVENT.match(line)
            if not m:
                break
            _, pid, cpu, t, name, rest = m.groups()
            if name != '<stack':
                out.append([int(pid), int(cpu), float(t), name, rest or '', []])
                break
            for nxt in it:
                if nxt.startswith(' => '):
                    if out:
                        out[-1][5].append(nxt[4:].split('+')[0].strip())
                else:
                    pending = nxt
                    break
            if pending is None:
                break
    return out


def kind(comm):
    return re.sub(r'\d+$', 'N', comm) if comm.startswith('kworker') else comm


def main():
    path = sys.argv[1]
    opener = lzma.open if path.endswith('.xz') else open
    with opener(path, 'rt') as f:
        evs = events(f)
    order, win = [], {}
    for pid, _, t, name, _, _ in evs:
        if name == 'cma_alloc_start' and pid not in win:
            order.append(pid)
            win[pid] = [t, t]
        if pid in win:
            win[pid][1] = t
    slow = {p for p in order if win[p][1] - win[p][0] > 1}
    lo = min((win[p][0] for p in slow), default=0)
    hi = max((win[p][1] for p in slow), default=0)
    out_at, off, away, switched_in = {}, collections.Counter(), collections.Counter(), False
    iso, batches = {}, collections.defaultdict(list)
    stacks, handed = collections.Counter(), collections.Counter()
    cur, since, occ = {}, {}, collections.defaultdict(collections.Counter)
    for pid, cpu, t, name, rest, stack in evs:
        if name == 'mm_compaction_isolate_migratepages' and pid in win:
            iso[pid] = t
        if name == 'mm_migrate_pages' and pid in iso:
            batches[pid].append(t - iso.pop(pid))
        if name != 'sched_switch':
            continue
        m = SWITCH.search(rest)
        prev, ppid, state, nxt, npid = m.group(1), int(m.group(2)), m.group(3), m.group(4), int(m.group(5))
        if ppid in slow:
            away[ppid] += 1
            out_at[ppid] = t
            frames = [f for f in stack if f not in SCHED]
            if frames:
                stacks[(state, ' < '.join(frames[:4]))] += 1
            handed[kind(nxt)] += 1
        if npid in out_at:
            switched_in = True
            off[npid] += t - out_at.pop(npid)
        if cpu in cur and lo <= t <= hi:
            occ[cpu][kind(cur[cpu])] += t - max(since[cpu], lo)
        cur[cpu], since[cpu] = nxt, t
    for k, p in enumerate(order):
        if p not in slow:
            continue
        b = batches[p]
        line = 'write %d: %.3f s; %d batches, median %.1f ms, max %.1f ms; %d switches away' % (
            k + 1, win[p][1] - win[p][0], len(b), 1000 * statistics.median(b) if b else 0,
            1000 * max(b) if b else 0, away[p])
        if switched_in:
            line += ', off CPU %.3f s' % off[p]
        print(line)
    if not switched_in:
        print('(no switch back to a write traced: the time off CPU is not in this trace)')
    if stacks:
        print('switches away by state and stack:')
        for (state, sig), n in stacks.most_common(8):
            print('  %6d %-3s %s' % (n, state, sig))
    if handed:
        print('the CPU went to: ' + ', '.join('%s %d' % kv for kv in handed.most_common(6)))
    if switched_in and occ:
        print('over %.3f-%.3f s (%.2f s), each CPU by task:' % (lo, hi, hi - lo))
        for c in sorted(occ):
            print('  cpu %d: ' % c + ', '.join('%s %.2f s' % kv for kv in occ[c].most_common(6)))


if __name__ == '__main__':
    main()
