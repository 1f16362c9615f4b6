#!/usr/bin/env python3
# Write the seed corpora under fuzz/corpus/<target>/ and the fuzz_ops
# regression inputs under fuzz/regressions/fuzz_ops/. Both are programs in
# fuzz_ops's byte encoding (fuzz_ops.c: the ops[] table and each op_*'s
# reads); rerun this after changing either, so they keep their meaning.
#   fuzz/make_seeds.py
import os
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

# fuzz_ops: shapes and the index of each call in ops[]
X86_32M, X86_HOLE, ARM_HIGHMEM, TINY = range(4)
KERNEL_612 = 0x80   # the shape byte's top bit: the 6.12 kernel profile
OPS = ["alloc_pages"] * 3 + ["alloc_movable"] * 4 + ["free"] * 3 + [
    "pin", "unpin", "touch", "owner_flags", "contig", "contig", "dma_alloc", "dma_alloc",
    "coherent_alloc", "coherent_alloc", "dma_release_part", "contig_free_part",
    "isolate", "undo_isolate", "test_isolated", "reclaim", "reclaim", "machine", "pfn_lookup",
    "bad_free", "bad_contig_free", "bad_dma_release", "bad_coherent_free", "check_all"]
GFP = {"kernel": 0, "atomic": 1, "user": 2, "highuser": 3, "movable": 4, "dma": 5, "dma32": 6,
       "reclaimable": 8}


def op(name):
    return bytes([OPS.index(name)])


def u16(v):
    return struct.pack("<H", v & 0xffff)


MAX_ORDER = {X86_32M: 11, X86_HOLE: 9, ARM_HIGHMEM: 10, TINY: 8}


class Prog:
    def __init__(self, shape, early=b"\x00"):
        self.b = bytes([shape]) + early
        self.max_order = MAX_ORDER[shape & ~KERNEL_612]

    def add(self, name, *args):
        self.b += op(name) + b"".join(a if isinstance(a, bytes) else bytes([a]) for a in args)
        return self

    def alloc(self, gfp="kernel", order=0, zero=False):
        # decode_order: b % 4 below 0x80, b % max_order from 0x80 up
        b = order if order < 4 else next(b for b in range(0x80, 0x100) if b % self.max_order == order)
        return self.add("alloc_pages", GFP[gfp], 2 if zero else 0, b)

    def movable(self, order=0, anon=True, dirty=False):
        return self.add("alloc_movable", GFP["movable"], 0,
                        order | (0x10 if anon else 0) | (0x20 if dirty else 0))

    def free(self, pick=0):
        return self.add("free", pick)

    def contig(self, mode, area, off, length):
        return self.add("contig", mode, area, u16(off), u16(length))

    def dma(self, dev, count_byte, align):
        return self.add("dma_alloc", dev, count_byte, align)

    def coherent(self, dev, size_units, shift, atomic=False, gfp="kernel"):
        return self.add("coherent_alloc", dev, (0x80 if atomic else 0) | shift, u16(size_units - 1),
                        GFP[gfp], 0)

    # isolation takes n pageblocks from pageblock @block (n <= 8); bad_*: a
    # refused range, "how" picking the way (op_isolate's bad_isolation_range)
    def isolate(self, block, n=1):
        return self.add("isolate", n - 1, u16(block), 0)

    def undo(self, block, n=1):
        return self.add("undo_isolate", n - 1, u16(block), 0)

    def bad_isolate(self, block, how):
        return self.add("isolate", 0x80, u16(block), how)

    def bad_undo(self, block, how):
        return self.add("undo_isolate", 0x80, u16(block), how)

    def reclaim(self, kind, gfp="kernel", nr=8):
        if kind == 1:
            return self.add("reclaim", 1, GFP[gfp], 0, nr)
        return self.add("reclaim", kind)

    def machine(self, b, c, *extra):
        return self.add("machine", b, c, *extra)


def fuzz_ops_seeds():
    seeds = {}
    # Unmovable memory eats the movable blocks, movable pages then land in
    # CMA, and a DMA allocation has to migrate them out.
    p = Prog(TINY)
    for _ in range(10):
        p.alloc("kernel", 6)
    for i in range(60):
        p.movable(i % 3, anon=i % 2 == 0, dirty=i % 5 == 0)
    p.dma(0, 100, 4).add("check_all").reclaim(0).dma(0, 120, 0).add("check_all")
    p.reclaim(1, "kernel", 40).reclaim(2).reclaim(3)
    for i in range(20):
        p.free(i)
    seeds["tiny-pressure"] = p.b

    # Pins and owner refusals in the way of contiguous allocations.
    p = Prog(X86_32M)
    for i in range(40):
        p.movable(0, anon=i % 2 == 0)
    for i in range(0, 40, 4):
        p.add("pin", i)
    p.add("owner_flags", 1, 0x01).add("owner_flags", 2, 0x06).add("owner_flags", 3, 0x30)
    p.contig(0, 0, 0, 1024).contig(2, 0, 0x900, 300).dma(0, 200, 8).add("touch", 5)
    for i in range(10):
        p.add("unpin", 0)
    p.contig(1, 0, 512, 512).add("contig_free_part", 0, 0x85).reclaim(0)
    p.free(0).free(1).add("dma_release_part", 0, 3)
    seeds["x86-pins-contig"] = p.b
    seeds["x86-pins-contig-6.12"] = bytes([X86_32M | KERNEL_612]) + p.b[1:]

    # Isolation and its undo, CMA areas of two devices, coherent buffers.
    p = Prog(X86_HOLE, b"\x03\x00\x04\x10\x08")
    p.isolate(0, 2).add("test_isolated", u16(0), u16(256)).alloc("dma", 2).undo(0, 2)
    p.isolate(22, 2).dma(1, 10, 2).dma(0, 30, 5).isolate(22).undo(22, 2)
    p.coherent(0, 3, 12).coherent(1, 5, 12).coherent(1, 1, 0, atomic=True)
    p.add("dma_release_part", 0, 0x81).machine(2, 1).machine(2, 5).machine(3, 0)
    p.free(0).free(0).free(0)
    seeds["x86-hole-isolate-dma"] = p.b

    # ARM: highmem, the atomic pool, a device area, no swap.
    p = Prog(ARM_HIGHMEM)
    p.alloc("highuser", 3).alloc("kernel", 5, zero=True).movable(1)
    p.coherent(0, 2, 12, atomic=True).coherent(1, 1, 14).coherent(0, 1, 16)
    p.dma(1, 40, 3).dma(0, 8, 9).reclaim(1, "highuser", 64).reclaim(2)
    p.free(2).free(1).free(0)
    seeds["arm-pool-highmem"] = p.b

    # Fault injection, the OOM handler, tracing, cpu binding, /proc.
    p = Prog(X86_32M)
    p.machine(4, 1).machine(5, 1).machine(0, 1)
    p.machine(1, 0x4a, 3, 0, 0, 7)        # 74% of allocations fail, min order 0
    for i in range(12):
        p.alloc("kernel", 3).movable(0)
    p.contig(0, 0, 100, 600).dma(0, 50, 0)
    p.machine(1, 1)                        # fault injection off
    for _ in range(8):
        p.alloc("kernel", 8)
    p.machine(2, 0).machine(2, 1).machine(2, 3).machine(3, 2).machine(0, 0)
    seeds["x86-faults-oom-trace"] = p.b

    # Calls that must be refused.
    p = Prog(TINY)
    p.alloc("kernel", 2).movable(1).contig(2, 0, 0x300, 5).dma(0, 3, 0)
    for pfn in (0, 5, 0x300, 0x301, 0x7ff):
        p.add("bad_free", u16(pfn), 1, 0)
    p.add("bad_free", u16(0), 0, 0xff).add("bad_contig_free", u16(0x10), 8)
    p.add("bad_dma_release", 0, 0x40, u16(0)).add("bad_dma_release", 0, 0x05, u16(500))
    p.add("bad_coherent_free", 0, 3).add("bad_coherent_free", 1, 4)
    for how in range(5):
        p.bad_isolate(3, how).bad_undo(3, how)
    p.bad_isolate(3, 4 + 8).add("pfn_lookup", u16(0xffff))
    seeds["tiny-refused-calls"] = p.b
    return seeds


def fuzz_ops_regressions():
    # Findings, minimized; see regressions/README.md.
    return {
        # freeing a movable page: owner_account() shifts -1 left (UBSan)
        "swap-owner-account-shift-negative": Prog(ARM_HIGHMEM).movable(0, anon=False).b,
        # isolating an isolated pageblock again counts it twice
        "isolate-same-block-twice": Prog(X86_HOLE).isolate(0).isolate(0).b,
        # a DMA allocation isolates, then un-isolates, a block the caller isolated
        "cma-alloc-over-isolated-block": Prog(X86_32M).isolate(12).dma(0, 0, 0).b,
        # one pageblock isolated inside a free MAX_ORDER block ([0x40700,
        # 0x40800) on ARM): the block stayed allocatable, and a fallback steal
        # retyped the isolated block; the straddling block is now split
        "isolate-pageblock-inside-free-max-order-block":
            Prog(ARM_HIGHMEM).isolate(7).alloc("kernel", 0).b,
        # the same state by undoing half of an isolated MAX_ORDER block
        "undo-part-of-isolated-max-order-block":
            Prog(ARM_HIGHMEM).isolate(6, 2).undo(7).alloc("kernel", 0).b,
    }


def write(target, name, data, root=ROOT):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


MEMPARSE = {
    "cma-64M": b"64M", "hex": b"0x1E", "octal": b"0777k", "max": b"18446744073709551615",
    "overflow-suffix": b"17179869184G", "bad-suffix": b"12Q", "two-suffixes": b"1kk",
    "cmdline": b"console=ttyS0 cma=64M quiet", "quoted": b'cma="32M" root=/dev/sda1 "a b=c"',
    "keyed": b"mem=512M cma=16M mem=1G", "last-wins": b"cma=8M cma=0", "bare": b"ro cma",
}

KCONFIG = {
    "defconfig": b"CONFIG_CMA=y\nCONFIG_CMA_SIZE_MBYTES=16\nCONFIG_CMA_SIZE_SEL_MBYTES=y\n"
                 b"CONFIG_CMA_ALIGNMENT=8\nCONFIG_CMA_AREAS=7\n# CONFIG_CMA_DEBUG is not set\n",
    "strings": b'CONFIG_CMDLINE="console=ttyS0 \\"quoted\\" \\\\"\n# a comment\n\nCONFIG_X=0x7f\n',
    "override": b"CONFIG_CMA_AREAS=3\nCONFIG_CMA_AREAS=5\r\nCONFIG_CMA_SIZE_PERCENTAGE=-1\t\n",
    "bad-line": b"CONFIG_CMA=y\nCMA=y\n",
    "bad-value": b"CONFIG_CMA_SIZE_MBYTES=12M\n",
    "unterminated": b'CONFIG_S="abc\n',
}

CMA_PARAMS = {
    "default": b"\x00",
    "cma-32M": b"cma=32M\x00",
    "percentage": b"quiet\x00CONFIG_CMA_SIZE_SEL_PERCENTAGE=y\nCONFIG_CMA_SIZE_PERCENTAGE=25\n",
    "min-max": b"\x00CONFIG_CMA_SIZE_SEL_MAX=y\nCONFIG_CMA_SIZE_MBYTES=4\nCONFIG_CMA_SIZE_PERCENTAGE=50\n",
    "disabled": b"cma=16M\x00# CONFIG_CMA is not set\n",
    "too-big": b"cma=1G\x00CONFIG_CMA_AREAS=0\n",
    "refused": b"cma=12Q\x00CONFIG_CMA_ALIGNMENT=12\n",
    "two-sels": b"\x00CONFIG_CMA_SIZE_SEL_MIN=y\nCONFIG_CMA_SIZE_SEL_MAX=y\n",
}

PLATFORM = {
    "arm-board.ini": b"""# a small ARM board
[platform]
name = fuzz-arm
arch = arm
bank = 0x40000000 64M
kernel = 0x40008000 4M
pageblock_order = 8
max_order = 10
highmem_start = 0x42000000
atomic_pool_size = 128K
cmdline = cma=8M
kconfig = CONFIG_CMA_ALIGNMENT=6

[device camera]
mask = 0xffffffff
cma_size = 8M

[device display]
mask = 0xffffffff
share = camera
""",
    "x86-two-banks.ini": b"""[platform]
description = x86 with the BIOS hole
bank = 0 0x9f000
bank = 1M 31M
zone_dma_end = 16M
nr_cpus = 2
swap = 8M
cmdline = quiet cma=4M

[device nic]
mask = 0xffffffffffffffff
cma_size = 4M
cma_limit = 16M
""",
    "arm-6.12.ini": b"[platform]\narch = arm\nbank = 0x40000000 64M\nkernel = 6.12 0x40008000 4M\n"
                    b"cmdline = cma=8M\n[device camera]\nmask = 0xffffffff\ncma_size = 4M\n",
    "bad-key.ini": b"[platform]\nbank = 0 16M\nfrobnicate = 3\n",
    "no-banks.ini": b"[platform]\narch = x86\n[device a]\nmask = 0xffffff\n",
}


# fuzz_import: the selector byte (fuzz_import.c: zoneinfo, buddyinfo, pagetypeinfo,
# iomem, meminfo, kpageflags words, kpageflags raw, kpageflags.xz), then the file
KPF_BUDDY, KPF_SLAB, KPF_LRU, KPF_ANON = 1 << 10, 1 << 7, 1 << 5, 1 << 12
KPF_HEAD, KPF_TAIL, KPF_THP, KPF_RESERVED = 1 << 15, 1 << 16, 1 << 22, 1 << 32
IMPORT = {
    "zoneinfo-3.5": b"\x00Node 0, zone      DMA\n  pages free     3000\n        spanned  4095\n"
                    b"        present  3998\n  all_unreclaimable: 0\n  start_pfn:         1\n",
    "zoneinfo-two-nodes": b"\x00Node 1, zone      DMA\n  per-node stats\n",
    "buddyinfo-short": b"\x01Node 0, zone      DMA      1      1\n",
    "pagetypeinfo-cma": b"\x02Page block order: 9\nNumber of blocks type     Unmovable  Movable  CMA\n"
                        b"Node 0, zone      DMA            1            6            1\n",
    "iomem-nested": b"\x0300001000-0009fbff : System RAM\n  00002000-00002fff : Kernel code\n"
                    b"00100000-00ffffff : System RAM\n",
    "meminfo-swap": b"\x04MemTotal:   16000 kB\nSwapTotal:   65536 kB\n",
    "words-mixed": b"\x05" + struct.pack("<8Q", KPF_BUDDY, 0, KPF_SLAB, KPF_LRU | KPF_ANON,
                                         KPF_HEAD | KPF_THP | KPF_ANON, KPF_TAIL | KPF_THP,
                                         KPF_RESERVED, 0),
    "raw-odd": b"\x06" + b"\x01" * 13,
    "xz-truncated": b"\x07\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46",
}


def main():
    for name, data in fuzz_ops_seeds().items():
        write("fuzz_ops", name, data)
    for name, data in fuzz_ops_regressions().items():
        write("fuzz_ops", name, data, os.path.join(ROOT, "..", "regressions"))
    for target, seeds in (("fuzz_memparse", MEMPARSE), ("fuzz_kconfig", KCONFIG),
                          ("fuzz_cma_params", CMA_PARAMS), ("fuzz_platform", PLATFORM)):
        for name, data in seeds.items():
            write(target, name, data)
    for name, data in IMPORT.items():
        write("fuzz_import", name, data)


if __name__ == "__main__":
    main()
