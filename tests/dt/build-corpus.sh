#!/bin/sh
# The device-tree corpus of the corpus test (tests/test_dt_corpus.sh):
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
# OUTDIR/list holds one line per eligible board: "ARCH PATH.dtb", or
# "ARCH PATH.dts refused: dtc failed" when dtc would not compile it;
# OUTDIR/skipped counts the eligible boards of other architectures.
# OUTDIR/done marks a finished build: a second run does nothing.
set -e
out=${1:?usage: build-corpus.sh OUTDIR [TARBALL]}
tarball=${2:-/usr/src/linux-source-6.12.tar.xz}
[ -f "$out/done" ] && exit 0
for tool in cpp dtc xz; do
	command -v $tool >/dev/null || { echo "build-corpus.sh: $tool is missing (apt-get install cpp device-tree-compiler xz-utils)" >&2; exit 1; }
done
[ -r "$tarball" ] || { echo "build-corpus.sh: cannot read $tarball (apt-get install linux-source-6.12)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/src" "$out/dtb" "$out/pp"
top=linux-source-6.12
tar -xJf "$tarball" -C "$out/src" --strip-components=1 --wildcards \
	"$top/arch/*/boot/dts" "$top/include/dt-bindings" "$top/include/uapi" \
	"$top/scripts/dtc/include-prefixes"
src=$(cd "$out/src" && pwd)

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
find "$src/arch" -path '*/boot/dts/*' -name '*.dts' | sort >"$out/boards"
jobs=$(nproc 2>/dev/null || echo 2)
# sh has no export -f: each job is a shell that sources this script's function
sed -n '/^board() {/,/^}/p' "$0" >"$out/board.sh"
xargs -P "$jobs" -n 16 sh -c '. "$out/board.sh"; for f; do board "$f"; done' sh <"$out/boards" >"$out/all"
grep -v '^skip ' "$out/all" | sort >"$out/list" || true
grep -c '^skip ' "$out/all" >"$out/skipped" || true
rm -rf "$out/pp"
touch "$out/done"
echo "build-corpus.sh: $(wc -l <"$out/list") ARM/arm64 boards with a shared-dma-pool node, $(cat "$out/skipped") of other architectures skipped, in $out" >&2
