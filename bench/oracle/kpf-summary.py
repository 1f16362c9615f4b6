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
    print("== persistence: %d periodic samples, %.2f s apart (median)" % (n, dt))
    for reg in ["hugetlb", "default", "out", "all"]:
        lens = []
        censored = 0
        pf = 0
        for pfn, rl in runs.items():
            if reg != "all" and region_of(pfn) != reg:
                continue
            pf += 1
            for a, b in rl:
                lens.append(b - a + 1)
                censored += b == n - 1
        if not lens:
            print("%s: no candidate" % reg)
            continue
        lens.sort()
        ones = sum(1 for x in lens if x == 1)
        print("%s: %d pfns, %d runs; run length in samples: median %s, mean %.1f, max %d (%.1f s); "
              "%d runs of 1 sample; %d still running at the last sample; in every sample: %d pfns" %
              (reg, pf, len(lens), statistics.median(lens), statistics.mean(lens), lens[-1],
               (lens[-1] - 1) * dt, ones, censored,
               sum(1 for pfn, rl in runs.items() if (reg == "all" or region_of(pfn) == reg)
                   and rl == [(0, n - 1)])))
        if reg == "hugetlb":
            hist = {}
            for x in lens:
                hist[x] = hist.get(x, 0) + 1
            print("  hugetlb run lengths (samples:runs): " + " ".join("%d:%d" % kv for kv in sorted(hist.items())))

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
        for s, e, fpfn in sorted(fails):
            inr = {}
            for p in aps:
                c = [q for q in p[4] if s <= q < e]
                if c:
                    inr[p[1]] = c
            allc = sorted({q for c in inr.values() for q in c})
            print("busy range 0x%x-0x%x fin_pfn 0x%x: candidates there before some write: %s" %
                  (s, e, fpfn, " ".join("0x%x" % q for q in allc)))
    for name in ["kpf.txt", "kpf-pfns.txt", "kpf-alloc.txt", "kpf-alloc-pfns.txt"]:
        p = os.path.join(d, name)
        if os.path.exists(p):
            print("%s: %d bytes in the guest's tmpfs" % (name, os.path.getsize(p)))


main()
