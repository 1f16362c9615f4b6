#!/usr/bin/env python3
"""crawl.py RUNDIR: the busy retries of oracle_cma's direct requests.

Reads RUNDIR/trace.txt[.xz] (cma_alloc_start, cma_alloc_busy_retry,
cma_alloc_finish, mm_migrate_pages), RUNDIR/device.txt (the module's own
lines: ns by ktime_get_ns around cma_alloc) and before/ and after/vmstat.
Prints a line per request: its pfn or fail, busy retries, the first and
last pfn retried, the steps between consecutive retried pfns (pages:
count), the request's time (trace, start to finish; the module's ns),
the time per retry (the mean over the request, and the median interval
between consecutive retries), and mm_migrate_pages' nr_succeeded and
nr_failed summed over the request; then the totals. Times are guest ns
(-icount: instructions); the trace's clock prints microseconds.
"""
import collections
import lzma
import os
import re
import statistics
import sys

LINE = re.compile(r'^\s*(\S.*?)-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+): (\w+): (.*)$')


def opentrace(d):
    p = os.path.join(d, 'trace.txt')
    if os.path.exists(p):
        return open(p)
    return lzma.open(p + '.xz', 'rt')


def fields(s):
    return dict(kv.split('=', 1) for kv in s.split() if '=' in kv)


def vmstat(d, which):
    out = {}
    try:
        with open(os.path.join(d, which, 'vmstat')) as f:
            for ln in f:
                k, v = ln.split()
                out[k] = int(v)
    except OSError:
        pass
    return out


def main():
    d = sys.argv[1]
    reqs = []
    cur = None
    for ln in opentrace(d):
        m = LINE.match(ln)
        if not m:
            continue
        t = round(float(m.group(3)) * 1e9)
        ev, rest = m.group(4), m.group(5)
        if ev == 'cma_alloc_start':
            f = fields(rest)
            cur = {'start': t, 'count': int(f['count']), 'align': int(f['align']),
                   'name': f['name'], 'retries': [], 'ok': 0, 'failed': 0,
                   'fin': collections.Counter()}
        elif cur is None:
            continue
        elif ev == 'cma_alloc_busy_retry':
            cur['retries'].append((t, int(fields(rest)['pfn'], 16)))
        elif ev == 'mm_migrate_pages':
            f = fields(rest)
            cur['ok'] += int(f['nr_succeeded'])
            cur['failed'] += int(f['nr_failed'])
        elif ev == 'test_pages_isolated':
            f = fields(rest)
            if f.get('ret') == 'fail':
                cur['fin'][int(f['fin_pfn'], 16)] += 1
        elif ev == 'cma_alloc_finish':
            f = fields(rest)
            cur['finish'] = t
            cur['pfn'] = int(f['pfn'], 16) if int(f.get('errorno', '0')) == 0 else None
            reqs.append(cur)
            cur = None
    dev = []
    try:
        with open(os.path.join(d, 'device.txt')) as f:
            for ln in f:
                m = re.search(r'direct (\d+) of \d+: .* ns=(\d+)', ln)
                if m:
                    dev.append(int(m.group(2)))
    except OSError:
        pass
    print('req pages align pfn retries first-last-retried steps(pages:n) '
          'trace-ms module-ms ms/retry(mean) ms/retry(interval p10/median/p90) migrated failed '
          'fin_pfns(distinct: most frequent)')
    # a trace whose ring buffer overran holds only the last requests:
    # matched to the module's lines from the end
    off = max(len(dev) - len(reqs), 0)
    if off:
        print('# the trace has the last %d of %d requests whole (the ring buffer overran: %d not)' % (
            len(reqs), len(dev), off))
    allsteps = collections.Counter()
    tot_r = 0
    per = []
    for i, r in enumerate(reqs):
        pf = [p for _, p in r['retries']]
        steps = collections.Counter(b - a for a, b in zip(pf, pf[1:]))
        allsteps.update(steps)
        n = len(pf)
        tot_r += n
        dur = r['finish'] - r['start']
        iv = [b[0] - a[0] for a, b in zip(r['retries'], r['retries'][1:])]
        mean = dur / n / 1e6 if n else None
        med = ('%.3f/%.3f/%.3f' % tuple(x / 1e6 for x in (
            statistics.quantiles(iv, n=10)[0], statistics.median(iv),
            statistics.quantiles(iv, n=10)[-1]))) if len(iv) > 1 else None
        if n:
            per.append((n, dur))
        st = ','.join('%d:%d' % kv for kv in sorted(steps.items(), key=lambda kv: -kv[1])[:4]) or '-'
        fin = r['fin'].most_common(1)
        print('%d %d %d %s %d %s %s %.1f %s %s %s %d %d %s' % (
            i + 1 + off, r['count'], r['align'],
            '0x%x' % r['pfn'] if r['pfn'] is not None else 'fail', n,
            '0x%x-0x%x' % (pf[0], pf[-1]) if pf else '-', st, dur / 1e6,
            '%.1f' % (dev[i + off] / 1e6) if i + off < len(dev) else '-',
            '%.3f' % mean if mean else '-', med or '-',
            r['ok'], r['failed'],
            '%d: 0x%x x%d' % (len(r['fin']), fin[0][0], fin[0][1]) if fin else '-'))
    b, a = vmstat(d, 'before'), vmstat(d, 'after')
    print('requests %d, ok %d, with busy retries %d; busy retries %d' % (
        len(reqs), sum(r['pfn'] is not None for r in reqs), len(per), tot_r))
    if per:
        print('busy retries per request with any: min %d median %d max %d; '
              'ms per retry (request time / retries): min %.3f median %.3f max %.3f' % (
                  min(n for n, _ in per), statistics.median(n for n, _ in per),
                  max(n for n, _ in per), min(t / n / 1e6 for n, t in per),
                  statistics.median(t / n / 1e6 for n, t in per), max(t / n / 1e6 for n, t in per)))
    print('steps between consecutive retried pfns (pages: count): %s' % (
        ', '.join('%d: %d' % kv for kv in sorted(allsteps.items(), key=lambda kv: -kv[1])[:8]) or '-'))
    for k in ('pgmigrate_success', 'pgmigrate_fail'):
        if k in a and k in b:
            print('%s %d' % (k, a[k] - b[k]))


if __name__ == '__main__':
    main()
