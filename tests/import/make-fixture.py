#!/usr/bin/env python3
# Write the synthetic snapshots test_import reads: a 256 MiB x86-64
# machine under Linux 6.x, its /proc files as the kernel would print them
# for the pages laid out below. Deterministic: run it again and nothing
# changes.
#
#   small/   kpageflags xz-compressed, kpagecount raw (both readings tested)
#   lazy/    the same machine booted with deferred struct page init left to
#            the first allocations (deferred_init=lazy), as Linux 6.18.44
#            prints it: blocks 64-127 (the top 128 MiB of DMA32, one memory
#            section) not initialised yet, flagless and unmapped, present in
#            zoneinfo but not managed, in no buddyinfo or pagetypeinfo
#            count; every page of a free block flagged KPF_BUDDY (6.18);
#            40 free pages on CPU 0's per-CPU list (block 47's first)
#   skewed/  lazy/ with a buddyinfo read after 4 order-10 blocks of DMA32
#            were allocated: the kernel's counts and kpageflags disagree
#
# Layout, by pageblock of 512 pages (the figures test_import expects):
#   DMA (pfn 1-4095): pfn 0x100-0x1ff reserved (firmware), the rest free
#   blocks  8-11  the kernel image, reserved
#   blocks 12-15  unmovable: slab, page tables, kernel pages, some free
#   blocks 16-47  movable: anonymous, page cache (clean, dirty), mlocked,
#                 free; blocks 20 and 30 one transparent huge page each
#   block  50     10 anonymous pages, blocks 48-55 otherwise free
#   blocks 56-63  free: the best-placed 16 MiB
#   blocks 64-127 movable as 16-47, a slab page in every fourth block
import lzma
import os
import random
import struct

KPF = dict(REFERENCED=2, UPTODATE=3, DIRTY=4, LRU=5, SLAB=7, BUDDY=10, MMAP=11, ANON=12, SWAPBACKED=14,
           COMPOUND_HEAD=15, COMPOUND_TAIL=16, UNEVICTABLE=18, NOPAGE=20, THP=22,
           PGTABLE=26, RESERVED=32, MLOCKED=33)


def f(*names):
    v = 0
    for n in names:
        v |= 1 << KPF[n]
    return v


NR = 65536
PB = 512
MAX_ORDER = 11
ZONES = [("DMA", 1, 4095), ("DMA32", 4096, 61440)]
BANKS = [(0x1000, 0x9fbff), (0x100000, 0xfffffff)]

flags = [0] * NR
count = [0] * NR
free = [False] * NR
btype = {}          # pageblock -> "Unmovable" | "Movable"
rng = random.Random(16)


def in_bank(pfn):
    return any(lo >> 12 <= pfn <= hi >> 12 for lo, hi in BANKS)


def use(pfn, fl, cnt=0):
    flags[pfn] = fl
    count[pfn] = cnt


def movable_page(pfn):
    r = rng.random()
    if r < 0.50:
        use(pfn, f("ANON", "SWAPBACKED", "LRU", "MMAP"), 1)
    elif r < 0.70:
        use(pfn, f("LRU", "MMAP"), rng.randint(0, 2))
    elif r < 0.75:
        use(pfn, f("LRU", "DIRTY"), 0)
    elif r < 0.76:
        use(pfn, f("LRU", "UNEVICTABLE", "MLOCKED", "ANON", "SWAPBACKED", "MMAP"), 1)
    else:
        free[pfn] = True


for pfn in range(NR):
    if not in_bank(pfn):
        use(pfn, f("NOPAGE") if pfn else f("RESERVED"))
    elif pfn < 4096:
        if 0x100 <= pfn < 0x200:
            use(pfn, f("RESERVED"), 1)
        else:
            free[pfn] = True
for b in range(8):
    btype[b] = "Unmovable" if b == 0 else "Movable"
for b in range(8, 128):
    btype[b] = "Unmovable" if 12 <= b < 16 else "Movable"
    for pfn in range(b * PB, (b + 1) * PB):
        if b < 12:
            use(pfn, f("RESERVED"), 1)
        elif b < 16:
            r = rng.random()
            if r < 0.6:
                use(pfn, f("SLAB"))
            elif r < 0.7:
                use(pfn, f("PGTABLE"), 1)
            elif r < 0.8:
                use(pfn, f("REFERENCED", "UPTODATE"), 1)
            else:
                free[pfn] = True
        elif b in (20, 30):
            head = pfn == b * PB
            use(pfn, f("ANON", "SWAPBACKED", "LRU", "MMAP", "THP",
                       "COMPOUND_HEAD" if head else "COMPOUND_TAIL"), 1)
        elif 48 <= b < 64:
            free[pfn] = not (b == 50 and pfn < b * PB + 10)
            if not free[pfn]:
                use(pfn, f("ANON", "SWAPBACKED", "LRU", "MMAP"), 1)
        elif b >= 64 and b % 4 == 0 and pfn == b * PB + 100:
            use(pfn, f("SLAB"))
        else:
            movable_page(pfn)

def zone_of(pfn):
    for name, start, span in ZONES:
        if start <= pfn < start + span:
            return name
    return None


def buddy_blocks(flags, free, every_page):
    """Free runs as the buddy allocator holds them, the largest aligned
    blocks, KPF_BUDDY on each head (or every page, as 6.18 reports it):
    the free blocks per order and the free pages of each zone."""
    buddy = {z[0]: [0] * MAX_ORDER for z in ZONES}
    zfree = {z[0]: 0 for z in ZONES}
    pfn = 0
    while pfn < NR:
        if not free[pfn]:
            pfn += 1
            continue
        o = 0
        while (o + 1 < MAX_ORDER and pfn % (2 << o) == 0 and pfn + (2 << o) <= NR and
               all(free[p] for p in range(pfn, pfn + (2 << o))) and
               zone_of(pfn) == zone_of(pfn + (2 << o) - 1)):
            o += 1
        for p in range(pfn, pfn + (1 << o) if every_page else pfn + 1):
            flags[p] = f("BUDDY")
        buddy[zone_of(pfn)][o] += 1
        zfree[zone_of(pfn)] += 1 << o
        pfn += 1 << o
    return buddy, zfree


def write_fixture(name, flags, count, buddy, zfree, blocks=range(128), uninit=(), pcp=0,
                  count_xz=False, version=None, cmdline="console=ttyS0 quiet"):
    """Write snapshot NAME/: @blocks the pageblocks pagetypeinfo counts,
    @uninit the pfns not initialised (present, not managed), @pcp free
    pages on CPU 0's per-CPU list of DMA32."""
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    os.makedirs(out, exist_ok=True)

    def write(fname, data, mode="w"):
        with open(os.path.join(out, fname), mode) as fh:
            fh.write(data)

    write("kpageflags.xz", lzma.compress(struct.pack("<%dQ" % NR, *flags), preset=6), "wb")
    if count_xz:
        write("kpagecount.xz", lzma.compress(struct.pack("<%dQ" % NR, *count), preset=6), "wb")
    else:
        write("kpagecount", struct.pack("<%dQ" % NR, *count), "wb")
    write("buddyinfo", "".join("Node 0, zone %8s " % n + "".join("%6d " % c for c in buddy[n]) + "\n"
                               for n, _, _ in ZONES))
    types = ["Unmovable", "Movable", "Reclaimable", "HighAtomic", "Isolate"]
    pti = "Page block order: 9\nPages per block:  512\n\n"
    pti += "Free pages count per migrate type at order       " + "".join("%6d " % o for o in range(MAX_ORDER)) + "\n"
    for n, _, _ in ZONES:
        for t in types:
            pti += "Node    0, zone %8s, type %12s " % (n, t) + "".join("%6d " % 0 for _ in range(MAX_ORDER)) + "\n"
    pti += "\nNumber of blocks type     " + "".join("%12s " % t for t in types) + "\n"
    for n, start, span in ZONES:
        cnt = {t: 0 for t in types}
        for b in range(start // PB, (start + span + PB - 1) // PB):
            if b in blocks:
                cnt[btype[b]] += 1
        pti += "Node 0, zone %8s " % n + "".join("%12d " % cnt[t] for t in types) + "\n"
    write("pagetypeinfo", pti)
    zi = ""
    for i, (n, start, span) in enumerate(ZONES):
        present = sum(1 for p in range(start, start + span) if in_bank(p))
        reserved = sum(1 for p in range(start, start + span) if flags[p] & f("RESERVED"))
        managed = present - reserved - sum(1 for p in uninit if start <= p < start + span)
        pagesets = "  pagesets\n"
        if pcp and n == "DMA32":
            pagesets += ("    cpu: 0\n              count:    %d\n              high:     378\n"
                         "              batch:    63\n  vm stats threshold: 24\n") % pcp
        zi += "Node 0, zone %8s\n" % n
        if i == 0:
            zi += "  per-node stats\n      nr_inactive_anon 0\n"
        zi += ("  pages free     %d\n        boost    0\n        min      32\n        low      40\n"
               "        high     48\n        promo    56\n        spanned  %d\n        present  %d\n"
               "        managed  %d\n        cma      0\n        protection: (0, 0, 0, 0, 0)\n"
               "      nr_free_pages %d\n%s  node_unreclaimable:  0\n"
               "  start_pfn:           %d\n") % (zfree[n], span, present, managed, zfree[n], pagesets, start)
    zi += "Node 0, zone   Normal\n  pages free     0\n        spanned  0\n        present  0\n        managed  0\n"
    write("zoneinfo", zi)
    write("iomem", "00000000-00000fff : Reserved\n" +
          "".join("%08x-%08x : System RAM\n" % b for b in BANKS) +
          "  01000000-01ffffff : Kernel code\n")
    write("meminfo", "MemTotal:         %d kB\nMemFree:          %d kB\nSwapTotal:             0 kB\n" %
          (sum((hi + 1 - lo) for lo, hi in BANKS) // 1024, (sum(zfree.values()) + pcp) * 4))
    write("cmdline", cmdline + "\n")
    if version:
        write("version", version)


lazy_flags, lazy_count, lazy_free = list(flags), list(count), list(free)
buddy, zfree = buddy_blocks(flags, free, False)
write_fixture("small", flags, count, buddy, zfree)

# lazy: the top section not initialised; block 47's first 40 pages on a per-CPU list
UNINIT = range(64 * PB, NR)
PCP = range(47 * PB, 47 * PB + 40)
for p in list(UNINIT) + list(PCP):
    lazy_flags[p], lazy_count[p], lazy_free[p] = 0, 0, False
buddy, zfree = buddy_blocks(lazy_flags, lazy_free, True)
lazy = dict(blocks=range(64), uninit=UNINIT, pcp=len(PCP), count_xz=True,
            version="Linux version 6.18.44-amd64 (debian-kernel@lists.debian.org) "
                    "(x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0, GNU ld (GNU Binutils for Debian) 2.44) "
                    "#1 SMP PREEMPT_DYNAMIC Debian 6.18.44-1 (2026-11-20)\n",
            cmdline="console=ttyS0 quiet deferred_init=lazy")
write_fixture("lazy", lazy_flags, lazy_count, buddy, zfree, **lazy)
buddy["DMA32"][MAX_ORDER - 1] -= 4
write_fixture("skewed", lazy_flags, lazy_count, buddy, zfree, **lazy)
