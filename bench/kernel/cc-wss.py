#!/usr/bin/env python3
"""How much of a compiler's memory it keeps touching once it has it.

    bench/kernel/cc-wss.py SRC OBJDIR OBJ...

For each kernel object OBJ (e.g. kernel/fork.o) of a tree SRC configured
and prepared in OBJDIR (make O=OBJDIR defconfig prepare), compiles it
twice with make, sampling its cc1 every 20 ms (/proc/PID/smaps_rollup).
The first compile gives cc1's lifetime T. The second clears cc1's
referenced bits (/proc/PID/clear_refs) at T/2 and reads what it has
referenced since at its last sample before it exits. One line an object:

    obj=... T_s= peak_rss_mb= mean_rss_mb= rss_half_mb= rss_end_mb=
            referenced_end_mb= hot=

hot is the share of the memory cc1 held at T/2 that it touched again in
its second half: (referenced_end - (rss_end - rss_half)) / rss_half, the
pages faulted in after the clear counted as new, not as touched again.
It is what cmasim's [job] hot means (doc/cmasim.1). Needs root (another
user's clear_refs); run on an idle machine.
"""
import os
import subprocess
import sys
import time

INTERVAL = 0.02


def rollup(pid):
    """Rss and Referenced of @pid in kB, or None once it has gone."""
    out = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in ("Rss", "Referenced"):
                    out[key] = int(rest.split()[0])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return out if len(out) == 2 else None


def parent(pid):
    """The parent of @pid, or 0 once it has gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def find_cc1(root, source):
    """The pid of the cc1 compiling @source among @root's descendants, or None."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() != "cc1":
                    continue
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if source.encode() not in f.read().split(b"\0"):
                    continue
        except OSError:
            continue
        up = int(pid)
        while up > 1 and up != root:
            up = parent(up)
        if up == root:
            return int(pid)
    return None


def compile_once(src, objdir, obj, clear_at=None):
    """Compile @obj; sample its cc1. Returns (lifetime, samples, referenced at the end)."""
    target = os.path.join(objdir, obj)
    if os.path.exists(target):
        os.remove(target)
    make = subprocess.Popen(["make", "-s", "-C", src, f"O={objdir}", obj],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid = None
    while pid is None and make.poll() is None:
        pid = find_cc1(make.pid, os.path.join(src, obj[:-2] + ".c"))
        if pid is None:
            time.sleep(0.005)
    samples, cleared, last = [], False, None
    start = time.monotonic()
    while pid is not None:
        s = rollup(pid)
        now = time.monotonic() - start
        if s is None:
            break
        if clear_at is not None and not cleared and now >= clear_at:
            try:
                with open(f"/proc/{pid}/clear_refs", "w") as f:
                    f.write("1")
                cleared = True
                samples.append((now, s["Rss"], "clear"))
            except OSError:
                break
            continue
        samples.append((now, s["Rss"], None))
        last = s
        time.sleep(INTERVAL)
    lifetime = time.monotonic() - start
    if make.wait() != 0:
        sys.exit(f"cc-wss.py: make {obj} failed")
    return lifetime, samples, (last if cleared else None)


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: cc-wss.py SRC OBJDIR OBJ...")
    src, objdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    for obj in sys.argv[3:]:
        life, samples, _ = compile_once(src, objdir, obj)
        rss = [r for _, r, _ in samples]
        if not rss:
            sys.exit(f"cc-wss.py: no cc1 seen for {obj}")
        _, samples2, end = compile_once(src, objdir, obj, clear_at=life / 2)
        half = [r for _, r, tag in samples2 if tag == "clear"]
        if end is None or not half:
            print(f"obj={obj} T_s={life:.2f} (cc1 ended before T/2 was read)")
            continue
        grown = max(0, end["Rss"] - half[0])
        hot = (end["Referenced"] - grown) / half[0]
        print(f"obj={obj} T_s={life:.2f} peak_rss_mb={max(rss) / 1024:.1f} "
              f"mean_rss_mb={sum(rss) / len(rss) / 1024:.1f} rss_half_mb={half[0] / 1024:.1f} "
              f"rss_end_mb={end['Rss'] / 1024:.1f} referenced_end_mb={end['Referenced'] / 1024:.1f} "
              f"hot={hot:.2f}", flush=True)


if __name__ == "__main__":
    main()
