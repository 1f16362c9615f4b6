#!/usr/bin/env python3
"""kpf-summary.py RESULTS_DIR: oracle-kpf's samples (kpf.c) summarised.

Reads kpf.txt, kpf-pfns.txt[.xz] (every second of guest clock),
kpf-alloc.txt, kpf-alloc-pfns.txt[.xz] (before each write of the pool),
busy-pages.txt, alloc.txt and trace.txt[.xz] of a run of
calib/arm64-writer1-meta.exp and prints: the time series (candidates, i.e.
PRIVATE and not UPTODATE, by region, against the writer's files), the
candidates in the hugetlb area before each write, how long candidates
persist (runs of consecutive periodic samples), and the busy pages'
(fin_pfn) history, and the sampler's cost; then the turnover of the held
candidates (DIRTY as well), before the allocation and over all samples:
their number per sample, the distinct pfns, the runs begun (new pfns or
re-dirtied) and ended (released) per sample, per second and per writer
file, the runs' lengths, the candidates' growth per file, and the busy
fin_pfns among them (calib/arm64-writer1-build*.exp).
"""
import lzma
import os
import re
import statistics
import sys


def opener(path):
    if os.path.exists(path):
        return open(path)
    if os.path.exists(path + ".xz"):
        return lzma.open(path + ".xz", "rt")
    return None


def read_sum(path):
    rows = []
    f = opener(path)
    if not f:
        return rows
    for line in f:
        w = line.split()
        if w[0] != "sample":
            continue
        d = {"label": w[1], "idx": int(w[2])}
        for kv in w[3:]:
            k, v = kv.split("=")
            d[k] = v if k == "region" else int(v)
        rows.append(d)
    return rows


def read_pfns(path):
    """[(label, idx, ns, files, {pfn: code})]"""
    out = []
    f = opener(path)
    if not f:
        return out
    for line in f:
        w = line.split()
        ns = int(w[3].split("=")[1])
        files = int(w[4].split("=")[1])
        prev = 0
        s = {}
        for t in w[5:]:
            d, c = t.split("/")
            prev += int(d, 16)
            s[prev] = int(c, 16)
        out.append((w[1], int(w[2]), ns, files, s))
    return out


def code_str(c):
    names = [(1, "D"), (2, "L"), (4, "W"), (8, "R"), (16, "M")]
    return "".join(n for b, n in names if c & b) or "-"


def pct(xs, q):
    """the q-quantile of xs (nearest rank)"""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(-(-q * len(xs) // 1)) - 1))]


def turnover(ps, t_alloc, region_of, fin, whole=False):
    """The held candidates (DIRTY, PRIVATE, not UPTODATE) over the periodic
    samples taken before the allocation's start (the allocation migrates
    pages, so a pfn is one page only until then), or with whole over all
    of them: their number, how many distinct pfns, the new ones per second
    and per writer file, how long a pfn stays dirty, and the clean
    candidates' growth per file."""
    pre = [p for p in ps if whole or t_alloc is None or p[2] <= t_alloc]
    pre = [(a, b, c, max(f, 0), e) for a, b, c, f, e in pre]  # files -1: before its first line
    if len(pre) < 2:
        print("== turnover: fewer than 2 samples before the allocation")
        return
    n = len(pre)
    dt = statistics.median([b[2] - a[2] for a, b in zip(pre, pre[1:])]) / 1e9
    span_s = (pre[-1][2] - pre[0][2]) / 1e9
    files = pre[-1][3] - pre[0][3]
    dirty = [{q for q, c in p[4].items() if c & 1} for p in pre]
    clean = [{q for q, c in p[4].items() if not c & 1} for p in pre]
    nd = [len(x) for x in dirty]
    print("== turnover of the held candidates (DIRTY & PRIVATE & !UPTODATE), %d periodic samples %s, "
          "%.2f-%.2f s (%.2f s, median %.2f s apart), writer files %d-%d (%d)" %
          (n, "in all (the allocation's migrations included)" if whole else "before the allocation",
           pre[0][2] / 1e9, pre[-1][2] / 1e9, span_s, dt, pre[0][3], pre[-1][3], files))
    print("held per sample: mean %.2f, min %d, max %d; series %s" %
          (statistics.mean(nd), min(nd), max(nd), " ".join(map(str, nd))))
    ever = set().union(*dirty)
    reg = {}
    for q in ever:
        reg[region_of(q)] = reg.get(region_of(q), 0) + 1
    print("distinct pfns ever held: %d (%s); in the first sample: %d" %
          (len(ever), ", ".join("%s %d" % kv for kv in sorted(reg.items())), len(dirty[0])))
    # new held pfns (not held in the previous sample) after the first sample
    starts = []  # (sample index, pfn, was a clean candidate in the previous sample, seen before at all)
    seen = set(dirty[0]) | set(clean[0])
    for i in range(1, n):
        for q in sorted(dirty[i] - dirty[i - 1]):
            starts.append((i, q, q in clean[i - 1], q in seen))
        seen |= dirty[i] | clean[i]
    first_time = [s for s in starts if not s[3]]
    again = [s for s in starts if s[3]]
    print("held runs starting after the first sample: %d = %d pfns never a candidate before (newly read "
          "pages) + %d re-dirtied (a candidate before: %d of them clean in the previous sample)" %
          (len(starts), len(first_time), len(again), sum(1 for s in again if s[2])))
    print("  per second: %.3f (new pfns %.3f); per writer file: %.5f (new pfns %.5f); per 1,000 files: "
          "%.2f (%.2f)" %
          (len(starts) / span_s, len(first_time) / span_s, len(starts) / files if files else 0,
           len(first_time) / files if files else 0, 1000 * len(starts) / files if files else 0,
           1000 * len(first_time) / files if files else 0))
    ends = []
    for i in range(1, n):
        for q in sorted(dirty[i - 1] - dirty[i]):
            ends.append((i, q, q in clean[i]))
    print("per sample (t_s files held +began -ended [of them in the hugetlb area]): %s" % "; ".join(
        "%.1f %d %d +%d -%d [+%d -%d]" % (
            pre[i][2] / 1e9, pre[i][3], nd[i],
            sum(1 for s in starts if s[0] == i), sum(1 for e in ends if e[0] == i),
            sum(1 for s in starts if s[0] == i and region_of(s[1]) == "hugetlb"),
            sum(1 for e in ends if e[0] == i and region_of(e[1]) == "hugetlb"))
        for i in range(n)))
    print("held runs ending before the last sample: %d (%d still a clean candidate: released, cached; "
          "%d gone from the candidates)" % (len(ends), sum(1 for e in ends if e[2]),
                                            sum(1 for e in ends if not e[2])))
    # run lengths, in samples: complete (start and end seen), and censored
    runs = []
    for q in ever:
        a = None
        for i in range(n):
            if q in dirty[i] and a is None:
                a = i
            if a is not None and (i == n - 1 or q not in dirty[i + 1]):
                runs.append((a, i, q))
                a = None
    full = [b - a + 1 for a, b, q in runs if a > 0 and b < n - 1]
    left = [b - a + 1 for a, b, q in runs if a == 0 and b < n - 1]
    right = [b - a + 1 for a, b, q in runs if a > 0 and b == n - 1]
    both = [b - a + 1 for a, b, q in runs if a == 0 and b == n - 1]

    def desc(xs):
        if not xs:
            return "none"
        return "%d: median %s, p90 %d, max %d samples (%.1f, %.1f, %.1f s at %.2f s a sample)" % (
            len(xs), statistics.median(xs), pct(xs, 0.9), max(xs), statistics.median(xs) * dt,
            pct(xs, 0.9) * dt, max(xs) * dt, dt)
    print("held run lengths: begun and ended within the samples %s" % desc(full))
    print("  held at the first sample, ended before the last %s" % desc(left))
    print("  begun after the first, held at the last %s" % desc(right))
    print("  held in every sample: %d" % len(both))
    hist = {}
    for x in full:
        hist[x] = hist.get(x, 0) + 1
    print("  complete runs by length (samples:count): %s" % " ".join("%d:%d" % kv for kv in sorted(hist.items())))
    nc = [len(x) for x in clean]
    fl = [p[3] for p in pre]
    if files:
        mx = statistics.mean(fl)
        my = statistics.mean(nc)
        sxx = sum((x - mx) ** 2 for x in fl)
        slope = sum((x - mx) * (y - my) for x, y in zip(fl, nc)) / sxx if sxx else 0
        print("clean candidates: %d at the first sample, %d at the last: %.4f per writer file ((last - "
              "first) / files), least squares %.4f; per second %.2f" %
              (nc[0], nc[-1], (nc[-1] - nc[0]) / files, slope, (nc[-1] - nc[0]) / span_s))
    na = [len(p[4]) for p in pre]
    if pre[-1][3] > pre[1][3]:
        print("all candidates (held and clean): %s; from the second sample on: %.4f per writer file, %.2f per "
              "second" % (" ".join(map(str, na)), (na[-1] - na[1]) / (pre[-1][3] - pre[1][3]),
                          (na[-1] - na[1]) / ((pre[-1][2] - pre[1][2]) / 1e9)))
    if not whole:
        ranges = {}
        for q in dirty[-1]:
            if region_of(q) == "hugetlb":
                ranges[q >> 13] = ranges.get(q >> 13, 0) + 1
        print("held at the last sample before the allocation in the hugetlb area, by 32 MiB range (pfn: "
              "pages): %s" % (" ".join("0x%x:%d" % (r << 13, c) for r, c in sorted(ranges.items())) or "none"))
    where = "in all samples" if whole else "before the allocation"
    cand_ever = set().union(*clean) | ever
    print("distinct candidate pfns %s: %d; held ever %d of them" % (where, len(cand_ever), len(ever)))
    for f in sorted(fin):
        print("busy fin_pfn 0x%x: held in %d of %d samples %s, a candidate in %d" %
              (f, sum(1 for x in dirty if f in x), n, where, sum(1 for p in pre if f in p[4])))


def main():
    d = sys.argv[1]
    rows = read_sum(os.path.join(d, "kpf.txt"))
    arows = read_sum(os.path.join(d, "kpf-alloc.txt"))
    regions = []
    for r in rows:
        if r["region"] not in regions:
            regions.append(r["region"])
    args = open(os.path.join(d, "disk.txt")).read()
    m = re.search(r"^kpf (\d+) (\d+) (.*)$", args, re.M)
    area = {}
    for a in m.group(3).split():
        n, s, c = a.split(":")
        area[n] = (int(s), int(c))

    def region_of(p):
        for n, (s, c) in area.items():
            if s <= p < s + c:
                return n
        return "out"

    print("== time series (every 1 s; cand = PRIVATE & !UPTODATE; pu = PRIVATE & UPTODATE)")
    print("idx t_s files " + " ".join("%s:cand/dirty/lru/wb/ref pu/pudirty/puwb" % r for r in regions))
    by = {}
    for r in rows:
        by.setdefault((r["label"], r["idx"]), {})[r["region"]] = r
    scan = []
    for (lab, idx), g in by.items():
        r0 = next(iter(g.values()))
        scan.append(r0["scan_ns"])
        cols = []
        for rg in regions:
            x = g[rg]
            cols.append("%d/%d/%d/%d/%d %d/%d/%d" % (x["cand"], x["dirty"], x["lru"], x["wb"], x["ref"],
                                                      x["pu"], x["pudirty"], x["puwb"]))
        print("%s%d %.2f %d %s" % ("F" if lab == "final" else "", idx, r0["ns"] / 1e9, r0["files"], " ".join(cols)))
    print("scan: %d samples, median %.1f ms, max %.1f ms of guest clock each" %
          (len(scan), statistics.median(scan) / 1e6, max(scan) / 1e6))

    print("== before each write of the pool (kpf-alloc.txt): hugetlb area cand/dirty/lru")
    aby = {}
    for r in arows:
        aby.setdefault(r["idx"], {})[r["region"]] = r
    ascan = []
    line = []
    for idx in sorted(aby):
        g = aby[idx]
        ascan.append(next(iter(g.values()))["scan_ns"])
        h = g.get("hugetlb")
        if h:
            line.append("%d:%d/%d/%d" % (idx, h["cand"], h["dirty"], h["lru"]))
    print(" ".join(line))
    if ascan:
        print("scan before a write: median %.1f ms" % (statistics.median(ascan) / 1e6))

    # persistence over the periodic samples (the final one included)
    ps = read_pfns(os.path.join(d, "kpf-pfns.txt"))
    ts = [p[2] for p in ps]
    dt = statistics.median([b - a for a, b in zip(ts, ts[1:])]) / 1e9 if len(ts) > 1 else 0
    runs = {}  # pfn -> list of (first, last) sample indices
    for i, p in enumerate(ps):
        for pfn in p[4]:
            rl = runs.setdefault(pfn, [])
            if rl and rl[-1][1] == i - 1:
                rl[-1] = (rl[-1][0], i)
            else:
                rl.append((i, i))
    n = len(ps)
    # the allocation's start: steps' first "alloc" line (seconds)
    t_alloc = None
    for line in open(os.path.join(d, "steps")):
        w = line.split()
        if len(w) > 1 and w[1] == "alloc" and t_alloc is None:
            t_alloc = float(w[0]) * 1e9
    print("== persistence: %d periodic samples, %.2f s apart (median); the allocation from %.2f s" %
          (n, dt, (t_alloc or 0) / 1e9))
    for reg in ["hugetlb", "default", "out", "all"]:
        lens = []
        gone_before = []  # runs that ended before the allocation's start
        gone_during = []  # ended after it, before the last sample
        running = 0
        pf = 0
        for pfn, rl in runs.items():
            if reg != "all" and region_of(pfn) != reg:
                continue
            pf += 1
            for a, b in rl:
                lens.append(b - a + 1)
                if b == n - 1:
                    running += 1
                elif t_alloc is not None and ps[b + 1][2] <= t_alloc:
                    gone_before.append(b - a + 1)
                else:
                    gone_during.append(b - a + 1)
        if not lens:
            print("%s: no candidate" % reg)
            continue
        lens.sort()
        print("%s: %d pfns, %d runs of consecutive samples; length median %s, max %d (%.1f s); "
              "still a candidate at the last sample: %d; in every sample: %d; runs that ended before "
              "the allocation: %d (lengths %s), after its start: %d (median length %s)" %
              (reg, pf, len(lens), statistics.median(lens), lens[-1], (lens[-1] - 1) * dt, running,
               sum(1 for pfn, rl in runs.items() if (reg == "all" or region_of(pfn) == reg)
                   and rl == [(0, n - 1)]),
               len(gone_before), sorted(gone_before), len(gone_during),
               statistics.median(gone_during) if gone_during else "-"))
    print("== new candidates per periodic sample (pfns not seen before)")
    seen = set()
    row = []
    for p in ps:
        new = [q for q in p[4] if q not in seen]
        seen.update(new)
        row.append("%d:+%d" % (p[1], len(new)))
    print(" ".join(row))
    print("== dirty candidates (DIRTY in some periodic sample): pfn region first..last sample as a "
          "candidate, samples dirty")
    dpf = sorted({q for p in ps for q, c in p[4].items() if c & 1})
    for q in dpf:
        rl = runs[q]
        nd = sum(1 for p in ps if p[4].get(q, 0) & 1)
        print("0x%x %s %s dirty in %d of %d samples; first %s last %s" %
              (q, region_of(q), rl, nd, n, code_str(ps[rl[0][0]][4][q]), code_str(ps[rl[-1][1]][4][q])))

    # the busy pages
    fins = []
    bp = opener(os.path.join(d, "busy-pages.txt"))
    if bp:
        for line in bp:
            w = line.split()
            fins.append((int(w[1], 16), w[2]))
    aps = read_pfns(os.path.join(d, "kpf-alloc-pfns.txt"))
    print("== busy pages (fin_pfn of busy-pages.txt)")
    for pfn, fl in fins:
        hist = [code_str(p[4][pfn]) if pfn in p[4] else "." for p in ps]
        ahist = [code_str(p[4][pfn]) if pfn in p[4] else "." for p in aps]
        print("0x%x %s: periodic %s; before writes %s" % (pfn, fl, " ".join(hist), " ".join(ahist)))
        print("  runs: %s" % runs.get(pfn))
    # the trace's busy ranges: candidates there at the write that failed
    tr = opener(os.path.join(d, "trace.txt"))
    if tr:
        fails = set()
        for line in tr:
            m2 = re.search(r"test_pages_isolated: start_pfn=(0x[0-9a-f]+) end_pfn=(0x[0-9a-f]+) fin_pfn=(0x[0-9a-f]+) ret=fail", line)
            if m2:
                fails.add(tuple(int(x, 16) for x in m2.groups()))
        pre = [p for p in ps if t_alloc is not None and p[2] <= t_alloc]
        for s, e, fpfn in sorted(fails):
            def there(p):
                return " ".join("0x%x/%s" % (q, code_str(c)) for q, c in sorted(p[4].items()) if s <= q < e) or "none"
            print("busy range 0x%x-0x%x fin_pfn 0x%x: candidates there at the last sample before the "
                  "allocation: %s; at the last sample: %s" %
                  (s, e, fpfn, there(pre[-1]) if pre else "-", there(ps[-1])))
    turnover(ps, t_alloc, region_of, set(f for f, _ in fins))
    turnover(ps, t_alloc, region_of, set(f for f, _ in fins), whole=True)
    for name in ["kpf.txt", "kpf-pfns.txt", "kpf-alloc.txt", "kpf-alloc-pfns.txt"]:
        p = os.path.join(d, name)
        if os.path.exists(p):
            print("%s: %d bytes in the guest's tmpfs" % (name, os.path.getsize(p)))


main()
