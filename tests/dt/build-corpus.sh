#!/bin/sh
# The device-tree corpus of the corpus test (tests/test_dt_corpus.c):
# every board .dts of Linux 6.12 whose tree, once preprocessed, has a
# shared-dma-pool node, compiled to a .dtb.
#
#   tests/dt/build-corpus.sh OUTDIR [TARBALL]
#
# From TARBALL (Debian's linux-source-6.12, /usr/src/linux-source-6.12.tar.xz)
# it extracts arch/*/boot/dts, include/dt-bindings, include/uapi and
# scripts/dtc/include-prefixes into OUTDIR/src, preprocesses each board
# with cpp as the kernel's Makefile.lib does (cmd_dtc_cpp) and compiles the
# eligible ARM and arm64 ones with dtc into OUTDIR/dtb/ARCH/.../BOARD.dtb.
# Only the boards that include, at some depth, a file with the string
# shared-dma-pool can have the node (tests/dt/includers.awk finds them
# from the include lines): the others are not preprocessed.
# OUTDIR/list holds one line per eligible board: "ARCH PATH.dtb", or
# "ARCH PATH.dts refused: dtc failed" when dtc would not compile it;
# OUTDIR/skipped counts the eligible boards of other architectures.
# OUTDIR/done marks a finished build and names the tarball (size, mtime)
# and this script it was built from: a second run with the same ones does
# nothing, a new tarball or script builds the corpus again. A line on
# stderr every 8 s says how far the build is.
set -e
out=${1:?usage: build-corpus.sh OUTDIR [TARBALL]}
tarball=${2:-/usr/src/linux-source-6.12.tar.xz}
here=$(cd "$(dirname "$0")" && pwd)
for tool in cpp dtc xz; do
	command -v $tool >/dev/null || { echo "build-corpus.sh: $tool is missing (apt-get install cpp device-tree-compiler xz-utils)" >&2; exit 1; }
done
[ -r "$tarball" ] || { echo "build-corpus.sh: cannot read $tarball (apt-get install linux-source-6.12)" >&2; exit 1; }
identity="$(stat -L -c '%n, %s bytes, mtime %Y' "$tarball"); build-corpus.sh and includers.awk of cksum $(cat "$0" "$here/includers.awk" | cksum | cut -d" " -f1)"
[ -f "$out/done" ] && [ "$(cat "$out/done")" = "$identity" ] && exit 0
started=$(date +%s)
echo "build-corpus.sh: the device trees of $tarball into $out" >&2
rm -rf "$out"
mkdir -p "$out/src" "$out/dtb" "$out/pp"
# absolute: the steps below write into $out from inside $src
out=$(cd "$out" && pwd)
src=$out/src

# the ticker: every 8 s, the step under way and the time so far
step() { echo "$*" >"$out/step"; }
ticker() {
	while sleep 8 </dev/null >/dev/null 2>&1; do
		what=$(cat "$out/step" 2>/dev/null) || return 0
		[ -f "$out/batches" ] && what="$what: $(awk '{ n += $1 } END { print n + 0 }' "$out/batches") done"
		echo "build-corpus.sh: $what ($(($(date +%s) - started)) s)" >&2
	done
}
ticker &
ticker=$!
trap 'kill $ticker 2>/dev/null' EXIT
trap 'exit 130' INT TERM

step "extracting the device trees from $tarball"
top=linux-source-6.12
# xz decompresses the tarball's blocks on every CPU
xz -T0 -dc "$tarball" | tar -x -C "$src" --strip-components=1 --wildcards \
	"$top/arch/*/boot/dts" "$top/include/dt-bindings" "$top/include/uapi" \
	"$top/scripts/dtc/include-prefixes"

# the boards that may have the node: those that reach a file with it
step "finding the boards that include shared-dma-pool"
(
	cd "$src"
	dirs="arch include scripts/dtc/include-prefixes"
	for l in scripts/dtc/include-prefixes/*; do echo "${l##*/} $(readlink "$l")"; done >"$out/links"
	find $dirs \( -type f -o -type l \) >"$out/files"
	grep -rlF shared-dma-pool $dirs >"$out/seeds" || true
	# grep -r passes symlinks by: each is an include of its target
	{ grep -rHE '^[[:space:]]*(#[[:space:]]*include|/include/)' $dirs || true
	  find arch include -type l | while read -r l; do echo "$l:#include \"$(readlink "$l")\""; done; } >"$out/edges"
	awk -f "$here/includers.awk" phase=link "$out/links" phase=file "$out/files" \
		phase=seed "$out/seeds" phase=edge "$out/edges" |
		grep -E '^arch/[^/]+/boot/dts/.*\.dts$' | sed "s|^|$src/|" | sort >"$out/boards"
)
all=$(find "$src/arch" -path '*/boot/dts/*' -name '*.dts' | wc -l)

# one board: preprocess; if its tree has a shared-dma-pool node, say so and, on ARM, compile it
board() {
	dts=$1
	rel=${dts#"$src"/arch/}
	arch=${rel%%/*}
	sub=${rel#*/boot/dts/}
	pp="$out/pp/$arch/${sub%.dts}.pp"
	mkdir -p "${pp%/*}"
	cpp -nostdinc -I "$src/scripts/dtc/include-prefixes" -I "${dts%/*}" -undef -D__DTS__ \
		-x assembler-with-cpp -o "$pp" "$dts" 2>/dev/null || { rm -f "$pp"; return 0; }
	grep -q 'shared-dma-pool' "$pp" || { rm -f "$pp"; return 0; }
	case $arch in
	arm|arm64) ;;
	*) echo "skip $arch $sub"; rm -f "$pp"; return 0 ;;
	esac
	dtb="$out/dtb/$arch/${sub%.dts}.dtb"
	mkdir -p "${dtb%/*}"
	if dtc -q -I dts -O dtb -i "${dts%/*}" -i "$src/scripts/dtc/include-prefixes" -o "$dtb" "$pp" 2>/dev/null; then
		echo "$arch $dtb"
	else
		rm -f "$dtb"
		echo "$arch $dts refused: dtc failed"
	fi
	rm -f "$pp"
}
export out src
step "preprocessing the $(wc -l <"$out/boards") of $all boards that include shared-dma-pool"
jobs=$(nproc 2>/dev/null || echo 2)
# sh has no export -f: each job is a shell that sources this script's function
sed -n '/^board() {/,/^}/p' "$0" >"$out/board.sh"
xargs -P "$jobs" -n 8 sh -c '. "$out/board.sh"; for f; do board "$f"; done; echo $# >>"$out/batches"' sh \
	<"$out/boards" >"$out/all"
grep -v '^skip ' "$out/all" | sort >"$out/list" || true
grep -c '^skip ' "$out/all" >"$out/skipped" || true
rm -rf "$out/pp" "$out/batches" "$out/step" "$out/edges"
echo "$identity" >"$out/done"
echo "build-corpus.sh: $(wc -l <"$out/list") ARM/arm64 boards with a shared-dma-pool node, $(cat "$out/skipped") of other architectures skipped, in $out ($(wc -l <"$out/boards") of $all boards preprocessed; $(($(date +%s) - started)) s)" >&2
