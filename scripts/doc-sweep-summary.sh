#!/bin/sh
# doc/sweep-summary.png, the README's picture of a sweep's summary.html:
# the README's own sweep run again by the cmasim given, and the top
# 1100x900 pixels of its summary.html shot in headless Chromium
# (CHROMIUM overrides the command), so the picture is the current output.
# usage: scripts/doc-sweep-summary.sh CMASIM OUT.png
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CMASIM OUT.png" >&2; exit 2; }
cmasim=$1
out=$2
chromium=${CHROMIUM:-chromium}
if ! command -v "$chromium" >/dev/null; then
	echo "$0: no $chromium to take the picture (scripts/ensure-deps.sh html installs it)" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the command the README shows above the picture
"$cmasim" sweep --param cma=8M..48M/8M --param anon.rss=256M,512M --seeds 3 -o "$tmp/sizing"
# --no-sandbox: root (CI) cannot use the sandbox; a private profile keeps runs apart
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$tmp/profile" --screenshot="$tmp/shot.png" --window-size=1100,900 \
	"file://$tmp/sizing/summary.html" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
mv "$tmp/shot.png" "$out"
echo "$out: from $tmp/sizing/summary.html"
