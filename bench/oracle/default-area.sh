#!/bin/sh
# The default CMA area (cma=) in the oracle's arm64 guest: Debian's 6.12
# offers user space no route to it (no DMA-BUF heaps, no CMA debugfs), so
# a small out-of-tree module (module/oracle_cma.c) registers a platform
# device and allocates with dma_alloc_coherent, which takes the default
# area through cma_alloc. The module is built here against Debian's
# linux-headers-KVER-arm64 with the cross compiler; one guest boots,
# deterministic as oracle.sh's, loads it and reports the pfns, the areas
# and the cma trace events.
#
#   bench/oracle/default-area.sh [-c CACHE] [-o FILE] [-k KB] [-n COUNT] [-m MIB] [-a APPEND]
#
#   -k KB, -n COUNT  COUNT buffers of KB KiB (default 3 of 32768)
#   -m MIB           guest memory (default 3072)
#   -a APPEND        kernel command line (default "hugetlb_cma=1G cma=64M")
#   -o FILE          the guest's lines (default results-default-area.txt)
#   -c CACHE         as oracle.sh's (default build/oracle); the headers
#                    (linux-headers-KVER-arm64 and -common, the host's
#                    linux-kbuild-KVER) are fetched there once
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kver=${ORACLE_KVER:-6.12.118+deb12}
cache=$top/build/oracle
out=$here/results-default-area.txt
kb=32768 count=3 mem=3072 append="hugetlb_cma=1G cma=64M"

usage() {
	echo "usage: $0 [-c CACHE] [-o FILE] [-k KB] [-n COUNT] [-m MIB] [-a APPEND]" >&2
	exit 2
}
while getopts c:o:k:n:m:a: opt; do
	case $opt in
	c) cache=$OPTARG ;;
	o) out=$OPTARG ;;
	k) kb=$OPTARG ;;
	n) count=$OPTARG ;;
	m) mem=$OPTARG ;;
	a) append=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage

. "$here/fetch.sh"
"$top/scripts/ensure-deps.sh" oracle || exit 1
mkdir -p "$cache" && cache=$(cd "$cache" && pwd) || exit 1

guest_files arm64
build_module oracle_cma
w=$(mktemp -d "$cache/run.XXXXXX")
ir=$w/ir
mkdir -p "$ir/bin" "$ir/dev" "$ir/proc" "$ir/sys" &&
	cp "$cache/arm64/busybox" "$ir/bin/busybox" && ln -s busybox "$ir/bin/sh" &&
	cp "$cache/arm64/oracle_cma.ko" "$ir/" && cp "$here/default-area-init.sh" "$ir/init" &&
	chmod 755 "$ir/init" && mknod "$ir/dev/console" c 5 1 || exit 1
pack_initramfs "$ir" "$w/initrd.gz"
kcmd="console=ttyAMA0 panic=-1 nokaslr loglevel=1 $append oracle.kb=$kb oracle.count=$count"
t0=$(date +%s)
nice -n 10 timeout 600 qemu-system-aarch64 -M virt,dtb-randomness=off -cpu max,pauth-impdef=on \
	-accel tcg -icount shift=0,sleep=off -seed 1 -rtc base=2025-01-01T00:00:00,clock=vm \
	-smp 1 -m "$mem" -display none -monitor none -no-reboot -serial "file:$w/console.log" \
	-kernel "$cache/arm64/vmlinuz" -initrd "$w/initrd.gz" -append "$kcmd" < /dev/null
rc=$?
{
	echo "# default-area.sh $(date -u +%Y-%m-%dT%H:%MZ): linux-image-$kver-arm64, -m $mem, $count x $kb KiB; qemu exit $rc after $(($(date +%s) - t0)) s of host time"
	tr -d '\r' < "$w/console.log" | sed -n 's/^R //p'
} > "$out"
rm -rf "$w"
grep -q 'oracle_cma: ' "$out" || die "the guest gave no allocation (see $out)"
grep -E 'Reserved|oracle_cma: |^after ' "$out"
