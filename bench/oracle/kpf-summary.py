#!/usr/bin/env python3
"""kpf-summary.py RESULTS_DIR: oracle-kpf's samples (kpf.c) summarised.

Reads kpf.txt, kpf-pfns.txt[.xz] (every second of guest clock),
kpf-alloc.txt, kpf-alloc-pfns.txt[.xz] (before each write of the pool),
busy-pages.txt, alloc.txt and trace.txt[.xz] of a run of
calib/arm64-writer1-meta.exp and prints: the time series (candidates, i.e.
PRIVATE and not UPTODATE, by region, against the writer's files), the
candidates in the hugetlb area before each write, how long candidates
persist (runs of consecutive periodic samples), and the busy pages'
(fin_pfn) history, and the sampler's cost.
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
    for name in ["kpf.txt", "kpf-pfns.txt", "kpf-alloc.txt", "kpf-alloc-pfns.txt"]:
        p = os.path.join(d, name)
        if os.path.exists(p):
            print("%s: %d bytes in the guest's tmpfs" % (name, os.path.getsize(p)))


main()
