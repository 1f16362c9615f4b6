#!/usr/bin/env python3
# Write the recording kernel's uname into a trace.dat made by `trace-cmd
# restore`, as `trace-cmd record` does for the machine it runs on (its
# UNAME option: "sysname nodename release machine"); restore writes none,
# and the file would not say which kernel recorded it. The file is
# trace-cmd.dat.v7(5), whose option sections are chained (the DONE option
# that ends one holds the offset of the next, 0 for none): a section
# holding UNAME is appended and the last DONE pointed at it.
#   bench/oracle/dat-uname.py TRACE.DAT "Linux (none) 6.12.118+deb12-arm64 aarch64"
import struct
import sys

MAGIC = b"\x17\x08\x44tracing"
OPTION_DONE, OPTION_UNAME = 0, 5


def cstring(buf, off):
    end = buf.index(b"\0", off)
    return buf[off:end], end + 1


def last_done(buf):
    """The offset of the 8-byte value of the last options section's DONE option."""
    if not buf.startswith(MAGIC):
        sys.exit("dat-uname.py: not a trace.dat")
    version, off = cstring(buf, len(MAGIC))
    if version != b"7":
        sys.exit("dat-uname.py: file version %s, expected 7 (trace-cmd restore's)" % version.decode())
    if buf[off] != 0:
        sys.exit("dat-uname.py: a big-endian file")
    off += 2 + 4                        # endianness, long size, page size
    _, off = cstring(buf, off)          # compression algorithm
    _, off = cstring(buf, off)          # and its version
    (sec,) = struct.unpack_from("<Q", buf, off)
    while True:
        sec_id, flags, _, size = struct.unpack_from("<HHIQ", buf, sec)
        if sec_id != OPTION_DONE or flags:
            sys.exit("dat-uname.py: no options section at %d (a compressed file?)" % sec)
        opt, end = sec + 16, sec + 16 + size
        while opt < end:
            oid, osize = struct.unpack_from("<HI", buf, opt)
            if oid == OPTION_UNAME:
                sys.exit("dat-uname.py: the file has a uname already")
            if oid == OPTION_DONE:
                (nxt,) = struct.unpack_from("<Q", buf, opt + 6)
                if not nxt:
                    return opt + 6
                sec = nxt
                break
            opt += 6 + osize
        else:
            sys.exit("dat-uname.py: an options section without DONE at %d" % sec)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: dat-uname.py TRACE.DAT UNAME")
    path, uname = sys.argv[1], sys.argv[2].encode() + b"\0"
    with open(path, "rb") as f:
        buf = bytearray(f.read())
    done = last_done(buf)
    opts = struct.pack("<HI", OPTION_UNAME, len(uname)) + uname + struct.pack("<HIQ", OPTION_DONE, 8, 0)
    struct.pack_into("<Q", buf, done, len(buf))
    buf += struct.pack("<HHIQ", OPTION_DONE, 0, 0, len(opts)) + opts
    with open(path, "wb") as f:
        f.write(buf)


main()
