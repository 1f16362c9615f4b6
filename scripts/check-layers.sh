#!/bin/sh
# The house drawn from the code: which library file calls which, read off
# the objects (a file's undefined symbols against the others' defined
# ones), checked against doc/design.md's layers:
#   - a file calls only its own layer and those below it:
#     src/lib < src/mm < src/dma < src/init;
#   - src/mm's ground, mmzone.c, calls no other file;
#   - page_alloc.c calls nothing of the slow path, reclaim or compaction;
#   - mobility (references and the LRU, migration, compaction, reclaim,
#     writeback, isolation, mlock) never calls the slow path: those that
#     allocate through it (memory.c, gup.c, hugetlb.c, contig.c) sit above;
#   - the files of src/mm, and those of src/dma, call each other without
#     a circle (calls into the validators of debug.c, which CMA_DEBUG=2
#     makes from everywhere, apart);
#   - libcma.so exports exactly the functions include/cma/cma.h declares;
#   - a function whose comment says zone->lock, slot->lock or lru_lock is
#     held, or whose name ends in _locked, asserts it (lockdep_assert_held);
#   - no function reads three or more profile switches
#     (scripts/profile-switches.sh): it is split into era variants.
# And cmasim's (tools/cmasim/README.md), by folder:
#   - its folders call each other without a circle, and so do the files
#     of each folder;
#   - engine/ calls no file of workloads/ or policies/: it reaches them
#     through their ops tables only;
#   - struct sim is the engine's: no file outside engine/ includes
#     engine/sim.h (the others have engine/sim_api.h);
#   - of libcma it calls only what include/cma/cma.h declares; the
#     helpers of src/lib it uses (SIM_LIB_SHARED in the Makefile) it
#     links itself.
# Usage: scripts/check-layers.sh BUILD_DIR; prints the edges with -v.
set -eu
build=$1
verbose=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# read_symbols PREFIX SOURCE...: "symbol file" lines, sorted, into
# $tmp/PREFIXdefs.s (what each defines) and $tmp/PREFIXuses.s (calls)
read_symbols() {
	prefix=$1
	shift
	for src in "$@"; do
		obj="$build/${src%.c}.o"
		[ -f "$obj" ] || { echo "check-layers: $obj is missing: build first" >&2; exit 2; }
	done
	# one nm for all: "BUILD/dir/file.o:ADDR T symbol" back to "symbol dir/file.c"
	for src in "$@"; do echo "$build/${src%.c}.o"; done > "$tmp/objs"
	xargs nm -A --defined-only < "$tmp/objs" | awk -v b="$build/" '$2 ~ /^[TDBR]$/ {
		f = substr($1, length(b) + 1); sub(/\.o:.*/, ".c", f); print $3, f
	}' | sort -u > "$tmp/${prefix}defs.s"
	xargs nm -A -u < "$tmp/objs" | awk -v b="$build/" '{
		f = substr($1, length(b) + 1); sub(/\.o:.*/, ".c", f); print $3, f
	}' | sort -u > "$tmp/${prefix}uses.s"
}

read_symbols "" src/lib/*.c src/mm/*.c src/dma/*.c src/init/*.c
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
$1 ~ /^src\/mm\/(swap|swapfile|migrate|compaction|vmscan|page_writeback|page_isolation|mlock)\.c$/ &&
$2 == "src/mm/slowpath.c" {
	print "check-layers: mobility " $1 " calls the slow path " $2; bad = 1
}
END { exit bad }
' "$tmp/edges"

# no_circle DIR: the files of folder DIR, whose calls ("caller callee")
# are $tmp/folder, call one way; tsort reports a loop on stderr.
no_circle() {
	if tsort "$tmp/folder" 2>&1 >/dev/null | grep -q loop; then
		echo "check-layers: the $1 files call each other in a circle:" >&2
		tsort "$tmp/folder" 2>&1 >/dev/null | sed 's/^/  /' >&2
		exit 1
	fi
}

# The validators (debug.c), which CMA_DEBUG=2 calls wherever a structure
# changes state, are assertions, not layers: calls into them are left out.
for dir in src/mm src/dma; do
	grep "^$dir/[^ ]* $dir/" "$tmp/edges" | grep -v ' src/mm/debug\.c$' > "$tmp/folder" || true
	no_circle "$dir"
done

# The locking contracts, read off the sources: a comment is no check.
awk '
FNR == 1 { comment = ""; ended = 0; need = 0 }
/^\/\*/ { comment = ""; incomment = 1 }
incomment { comment = comment " " $0 }
incomment && /\*\/[ \t]*$/ { incomment = 0; ended = FNR; next }
/^[a-z_].*[a-z_0-9]\(/ && !/;[ \t]*$/ && !need {
	name = $0
	sub(/\(.*/, "", name)
	sub(/.*[^a-z_0-9]/, "", name)
	need = (ended == FNR - 1 && comment ~ /(zone->lock|slot->lock|lru_lock) held/) || name ~ /_locked$/
	if (need) { start = FNR; asserted = 0 }
	next
}
need && /lockdep_assert_held\(/ { asserted = 1 }
need && /^}/ {
	if (!asserted) { print "check-layers: " FILENAME ":" start ": " name "() is said to hold a lock but does not lockdep_assert_held() it"; bad = 1 }
	need = 0
}
END { exit bad }
' src/*/*.c

# An era's rules read as one body: a function reading three switches mixes eras.
scripts/profile-switches.sh 3 > "$tmp/eras"
if [ -s "$tmp/eras" ]; then
	awk '{ s = $4; for (i = 5; i <= NF; i++) s = s ", " $i
		print "check-layers: " $2 ": " $3 "() reads " $1 " profile switches (" s "): split it into era variants" }' "$tmp/eras"
	exit 1
fi

# The outer wall: a declaration in cma.h is a line at column 0 naming the
# function just before its first parenthesis (typedefs of pointers to
# functions have theirs before the name).
so="$build/libcma.so"
[ -f "$so" ] || { echo "check-layers: $so is missing: build first" >&2; exit 2; }
sed -n 's/^[a-z][^(]*[^a-z_0-9(]\(cma_[a-z_0-9]*\)(.*/\1/p' include/cma/cma.h | sort -u > "$tmp/declared"
nm -D --defined-only "$so" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u > "$tmp/exported"
comm -13 "$tmp/declared" "$tmp/exported" | sed "s|^|check-layers: $so exports |; s|\$| not declared in include/cma/cma.h|" > "$tmp/wall"
comm -23 "$tmp/declared" "$tmp/exported" | sed "s|^|check-layers: include/cma/cma.h declares |; s|\$| not exported by $so|" >> "$tmp/wall"
if [ -s "$tmp/wall" ]; then
	cat "$tmp/wall"
	echo "check-layers: libcma.map lists what libcma.so exports" >&2
	exit 1
fi
# The simulator, by folder: tools/cmasim/FOLDER/file.c.
read_symbols s tools/cmasim/*/*.c
join "$tmp/suses.s" "$tmp/sdefs.s" | awk '{
	split($2, a, "/"); split($3, b, "/")
	if (a[3] != b[3]) print a[3], b[3], $1, $2
}' | sort -u > "$tmp/sedges"
[ "$verbose" = -v ] && cat "$tmp/sedges"
awk '$1 == "engine" && ($2 == "workloads" || $2 == "policies") {
	print "check-layers: the engine calls " $2 "/ directly: " $4 " calls " $3; bad = 1
}
END { exit bad }' "$tmp/sedges"
if grep -l '#include "engine/sim\.h"' tools/cmasim/*/*.[ch] | grep -v '^tools/cmasim/engine/' > "$tmp/private"; then
	sed 's|$| includes engine/sim.h, the engine'"'"'s own: use engine/sim_api.h|; s|^|check-layers: |' "$tmp/private"
	exit 1
fi
awk '{ print $1, $2 }' "$tmp/sedges" | sort -u > "$tmp/sfolders"
if tsort "$tmp/sfolders" 2>&1 >/dev/null | grep -q loop; then
	echo "check-layers: cmasim's folders call each other in a circle:" >&2
	tsort "$tmp/sfolders" 2>&1 >/dev/null | sed 's/^/  /' >&2
	exit 1
fi
# inside a folder: a lower file's helper called, a higher one's reached through a hook
join "$tmp/suses.s" "$tmp/sdefs.s" | awk '$2 != $3 {
	split($2, a, "/"); split($3, b, "/")
	if (a[3] == b[3]) print $2, $3
}' | sort -u > "$tmp/sfiles"
for dir in $(cut -d/ -f1-3 "$tmp/sfiles" | sort -u); do
	grep "^$dir/" "$tmp/sfiles" > "$tmp/folder"
	no_circle "$dir"
done
# what cmasim takes from libcma: declared in cma.h, or a src/lib helper it links itself
for src in $(sed -n 's/^SIM_LIB_SHARED *:= *//p' Makefile); do
	nm --defined-only "$build/${src%.c}.o" | awk '$2 ~ /^[TDBR]$/ { print $3 }' >> "$tmp/sim_defined.u"
done
cut -d' ' -f1 "$tmp/sdefs.s" >> "$tmp/sim_defined.u"
sort -u "$tmp/sim_defined.u" > "$tmp/sim_defined"
cut -d' ' -f1 "$tmp/defs.s" | sort -u > "$tmp/lib_defined"
cut -d' ' -f1 "$tmp/suses.s" | sort -u | comm -23 - "$tmp/sim_defined" | comm -12 - "$tmp/lib_defined" |
	comm -23 - "$tmp/declared" > "$tmp/sim_inner"
if [ -s "$tmp/sim_inner" ]; then
	for f in $(cat "$tmp/sim_inner"); do
		grep "^$f " "$tmp/suses.s" | sed "s|^\([^ ]*\) \(.*\)|check-layers: \2 calls the library's \1, not declared in include/cma/cma.h|"
	done
	exit 1
fi

echo "check-layers: $(wc -l < "$tmp/edges") calls between library files, all downward;" \
	"$(wc -l < "$tmp/exported") functions exported, all declared in cma.h;" \
	"$(wc -l < "$tmp/sfolders") calls between cmasim's folders and" \
	"$(wc -l < "$tmp/sfiles") between files of one folder, no circle"
