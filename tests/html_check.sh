#!/bin/sh
# Open an HTML page in headless Chromium (CHROMIUM overrides the command)
# and fail if the browser logs a console message or the screenshot is
# blank. cmasim's reports run no script, so any console message is a
# fault (an exception, a refused load). The screenshot is checked with
# python3's standard library alone: a blank page filters to a handful of
# distinct PNG scanlines, a drawn one to hundreds.
# usage: tests/html_check.sh FILE.html [SHOT.png]
set -u
[ $# -ge 1 ] && [ -r "$1" ] || { echo "usage: $0 FILE.html [SHOT.png]" >&2; exit 2; }
page=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shot=${2:-$tmp/shot.png}
min_rows=50

# --no-sandbox: root (CI) cannot use the sandbox; a private profile keeps runs apart
if ! timeout 120 ${CHROMIUM:-chromium} --headless --no-sandbox --disable-gpu \
	--enable-logging=stderr --v=0 --user-data-dir="$tmp/profile" \
	--screenshot="$shot" --window-size=1280,2000 "file://$page" >"$tmp/out" 2>"$tmp/log"; then
	echo "html_check: chromium failed on $1:" >&2
	cat "$tmp/log" >&2
	exit 1
fi
# console output is logged as ":CONSOLE" whatever its level
if grep -E ':CONSOLE|Uncaught' "$tmp/log" >&2; then
	echo "html_check: $1: console messages (above)" >&2
	exit 1
fi
python3 - "$shot" "$min_rows" <<'PY'
import struct, sys, zlib

path, min_rows = sys.argv[1], int(sys.argv[2])
data = open(path, 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    sys.exit(f"html_check: {path} is not a PNG")
pos, idat, header = 8, [], None
while pos + 8 <= len(data):
    size, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + size]
    pos += 12 + size
    if kind == b'IHDR':
        header = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat.append(body)
width, height, depth, colour = header
channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
stride = 1 + (width * channels * depth + 7) // 8
raw = zlib.decompress(b''.join(idat))
rows = len({raw[i:i + stride] for i in range(0, len(raw), stride)})
print(f"html_check: {width}x{height} screenshot, {rows} distinct scanlines")
if rows < min_rows:
    sys.exit(f"html_check: the screenshot looks blank (fewer than {min_rows} distinct scanlines)")
PY
