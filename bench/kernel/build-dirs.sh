#!/bin/sh
# How many directories a kernel build writes its objects into, and how
# many objects: a configured tree's `make -n` listing (no compiler run
# but the host's for the tools), the objects named by -o outside
# scripts/. For the journaling writer's metadata pages (cmasim's
# [writer] journal, about 1.1 a directory written in).
#   bench/kernel/build-dirs.sh SRC OBJDIR ARCH DEFCONFIG
# SRC: an unpacked tree (Debian's /usr/src/linux-source-6.12.tar.xz);
# clang cross-compiles (LLVM=1), so no cross gcc is needed.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 SRC OBJDIR ARCH DEFCONFIG" >&2; exit 2; }
src=$1 obj=$2 arch=$3 config=$4
mk() { make -C "$src" -s O="$obj" ARCH="$arch" LLVM=1 "$@"; }
mkdir -p "$obj"
mk "$config"
mk prepare
list=$(mktemp)
# the link step fails without objects; -k lists every compile first
mk -n -k vmlinux modules 2>/dev/null | grep -oE -- " -o [^ ;']+\.o" | awk '{ print $2 }' |
	grep -v '^scripts/' | sort -u > "$list" || true
objects=$(wc -l < "$list")
dirs=$(awk -F/ '{ NF--; print }' OFS=/ "$list" | sort -u | wc -l)
echo "$(basename "$src") $arch $config: $objects objects in $dirs directories," \
	"$(awk -v o="$objects" -v d="$dirs" 'BEGIN { printf "%.1f", o / d }') objects a directory"
rm -f "$list"
