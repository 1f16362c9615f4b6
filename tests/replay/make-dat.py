#!/usr/bin/env python3
# Write tests/replay/hugetlb.dat: a trace-cmd trace.dat (file format 6,
# trace-cmd.dat.v6(5)) holding the oracle guest's arm64-fill-32m first
# two requests and a release, as 6.12's ring buffer would: event formats
# as 6.12's include/trace/events/cma.h lays its records out, one CPU, one
# page of records. There is no tracefs on the machines that run the tests,
# so the file is made here rather than recorded; test_replay reads it
# through libtracecmd as any trace.dat.
#   tests/replay/make-dat.py > tests/replay/hugetlb.dat
# With --unknown-first, the same after a first record of an event this
# reader does not know (cma_debug_range, laid out as cma_release), which
# must stop the read at record 1 however well the records after it read:
#   tests/replay/make-dat.py --unknown-first > tests/replay/unknown-first.dat
import struct
import sys

PAGE = 4096
COMMON = """\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;
"""
EVENTS = {
    # name: (id, fields, print fmt)
    "cma_alloc_start": (501, [("__data_loc char[] name", 8, 4, 0), ("unsigned long count", 16, 8, 0),
                              ("unsigned int align", 24, 4, 0)],
                        '"name=%s count=%lu align=%u", __get_str(name), REC->count, REC->align'),
    "cma_alloc_finish": (502, [("__data_loc char[] name", 8, 4, 0), ("unsigned long pfn", 16, 8, 0),
                               ("const struct page * page", 24, 8, 0), ("unsigned long count", 32, 8, 0),
                               ("unsigned int align", 40, 4, 0), ("int errorno", 44, 4, 1)],
                         '"name=%s pfn=0x%lx page=%p count=%lu align=%u errorno=%d", __get_str(name), REC->pfn, REC->page, REC->count, REC->align, REC->errorno'),
    "cma_release": (503, [("__data_loc char[] name", 8, 4, 0), ("unsigned long pfn", 16, 8, 0),
                          ("const struct page * page", 24, 8, 0), ("unsigned long count", 32, 8, 0)],
                    '"name=%s pfn=0x%lx page=%p count=%lu", __get_str(name), REC->pfn, REC->page, REC->count'),
}


UNKNOWN_FIRST = sys.argv[1:] == ["--unknown-first"]
if UNKNOWN_FIRST:
    EVENTS["cma_debug_range"] = (504,) + EVENTS["cma_release"][1:]


def fmt(name):
    eid, fields, pf = EVENTS[name]
    body = "".join("\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n" % f for f in fields)
    return ("name: %s\nID: %d\nformat:\n%s\n%s\nprint fmt: %s\n" % (name, eid, COMMON, body, pf)).encode()


def record(event, pid, **v):
    """An event's payload: common fields, the fixed ones, the area's name after them."""
    eid, fields, _ = EVENTS[event]
    fixed = max(off + size for _, off, size, _ in fields)
    buf = bytearray(fixed)
    struct.pack_into("<HBBi", buf, 0, eid, 0, 0, pid)
    s = v["name"].encode() + b"\0"
    struct.pack_into("<I", buf, 8, (len(s) << 16) | fixed)
    for decl, off, size, signed in fields[1:]:
        key = decl.split()[-1]
        struct.pack_into("<" + {8: "q" if signed else "Q", 4: "i" if signed else "I"}[size], buf, off, v[key])
    buf += s
    buf += b"\0" * (-len(buf) % 4)
    return bytes(buf)


def page(events, base_ns):
    """One ring-buffer page: its timestamp, its commit, then each event's header and payload."""
    data, last = b"", base_ns
    for ts, payload in events:
        delta, last = ts - last, ts
        data += struct.pack("<I", (len(payload) // 4) | (delta << 5)) + payload
    return struct.pack("<QQ", base_ns, len(data)) + data + b"\0" * (PAGE - 16 - len(data))


def cstr(s):
    return s.encode() + b"\0"


def section(text):
    return struct.pack("<Q", len(text)) + text


HEADER_PAGE = (b"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
               b"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
               b"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
               b"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n")
HEADER_EVENT = (b"# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
                b"\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
                b"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")

events = [
    (5081372000, record("cma_alloc_start", 229, name="hugetlb0", count=8192, align=13)),
    (5085616000, record("cma_alloc_finish", 229, name="hugetlb0", pfn=0x80000, page=0x7647a273, count=8192,
                        align=13, errorno=0)),
    (5087752000, record("cma_alloc_start", 232, name="hugetlb0", count=8192, align=13)),
    (5090602000, record("cma_alloc_finish", 232, name="hugetlb0", pfn=0x82000, page=0xb08b3564, count=8192,
                        align=13, errorno=0)),
    (5541199000, record("cma_alloc_start", 325, name="hugetlb0", count=8192, align=13)),
    (5541200000, record("cma_alloc_finish", 325, name="hugetlb0", pfn=0xffffffffffffffff, page=0, count=8192,
                        align=13, errorno=-12)),
    (6000000000, record("cma_release", 229, name="hugetlb0", pfn=0x80000, page=0x7647a273, count=8192)),
]
if UNKNOWN_FIRST:
    events.insert(0, (5081371000, record("cma_debug_range", 229, name="hugetlb0", pfn=0x80000, page=0, count=1)))
# time deltas are 27 bits of ns: the last events are far apart, so the page's base is the first
# and each delta must fit; split into pages where it does not
pages, cur, base = [], [], None
for ts, payload in events:
    if cur and ts - cur[-1][0] >= 1 << 27:
        pages.append(page(cur, base))
        cur, base = [], None
    if base is None:
        base = ts
    cur.append((ts, payload))
pages.append(page(cur, base))

out = bytearray(b"\x17\x08\x44tracing" + cstr("6") + bytes([0, 8]) + struct.pack("<I", PAGE))
out += cstr("header_page") + section(HEADER_PAGE) + cstr("header_event") + section(HEADER_EVENT)
out += struct.pack("<I", 0)                     # ftrace's own formats
out += struct.pack("<I", 1) + cstr("cma") + struct.pack("<I", len(EVENTS))
out += b"".join(section(fmt(n)) for n in EVENTS)
out += struct.pack("<I", 0) + struct.pack("<I", 0)  # kallsyms, printk formats
cmdlines = b"229 oracle-helper\n232 oracle-helper\n325 oracle-helper\n"
out += section(cmdlines) + struct.pack("<I", 1)    # one CPU
out += b"options  \0" + struct.pack("<H", 0) + b"flyrecord\0"
data_at = len(out) + 16
data_at += -data_at % PAGE
data = b"".join(pages)
out += struct.pack("<QQ", data_at, len(data))
out += b"\0" * (data_at - len(out)) + data
sys.stdout.buffer.write(out)
