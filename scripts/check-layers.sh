#!/bin/sh
# The house drawn from the code: which library file calls which, read off
# the objects (a file's undefined symbols against the others' defined
# ones), checked against doc/design.md's layers:
#   - a file calls only its own layer and those below it:
#     src/lib < src/mm < src/dma < src/init;
#   - src/mm's ground, mmzone.c, calls no other file;
#   - page_alloc.c calls nothing of the slow path, reclaim or compaction;
#   - the files of src/dma call each other without a circle.
# Usage: scripts/check-layers.sh BUILD_DIR; prints the edges with -v.
set -eu
build=$1
verbose=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for src in src/lib/*.c src/mm/*.c src/dma/*.c src/init/*.c; do
	obj="$build/${src%.c}.o"
	[ -f "$obj" ] || { echo "check-layers: $obj is missing: build first" >&2; exit 2; }
	nm --defined-only "$obj" | awk -v f="$src" '$2 ~ /^[TDBR]$/ { print $3, f }' >> "$tmp/defs"
	nm -u "$obj" | awk -v f="$src" '{ print $2, f }' >> "$tmp/uses"
done
sort -u "$tmp/defs" > "$tmp/defs.s"
sort -u "$tmp/uses" > "$tmp/uses.s"
# caller callee, one line per pair of files
join "$tmp/uses.s" "$tmp/defs.s" | awk '$2 != $3 { print $2, $3 }' | sort -u > "$tmp/edges"
[ "$verbose" = -v ] && cat "$tmp/edges"

awk '
function rank(f) {
	if (f ~ /^src\/lib\//) return 0
	if (f ~ /^src\/mm\//) return 1
	if (f ~ /^src\/dma\//) return 2
	return 3
}
rank($2) > rank($1) { print "check-layers: " $1 " calls up into " $2; bad = 1 }
$1 == "src/mm/mmzone.c" { print "check-layers: the ground file " $1 " calls " $2; bad = 1 }
$1 == "src/mm/page_alloc.c" && $2 ~ /(slowpath|vmscan|compaction)\.c$/ {
	print "check-layers: " $1 " calls up into " $2; bad = 1
}
END { exit bad }
' "$tmp/edges"

# tsort reports a loop on stderr; only the DMA files are held to none
grep '^src/dma/.* src/dma/' "$tmp/edges" > "$tmp/dma" || true
if tsort "$tmp/dma" 2>&1 >/dev/null | grep -q loop; then
	echo "check-layers: the src/dma files call each other in a circle:" >&2
	tsort "$tmp/dma" 2>&1 >/dev/null | sed 's/^/  /' >&2
	exit 1
fi
echo "check-layers: $(wc -l < "$tmp/edges") calls between library files, all downward"
