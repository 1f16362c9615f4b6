#!/bin/sh
# Make sure the packages a target needs are installed: install them when run
# as root on Debian, otherwise stop with the exact command to run.
set -e
case "$1" in
test)  pkgs="libcmocka-dev libinih-dev libjansson-dev libfdt-dev liblzma-dev device-tree-compiler cpp xz-utils linux-source-6.12 jq groff-base pkg-config"
       check="/usr/include/cmocka.h /usr/include/ini.h /usr/include/jansson.h /usr/include/libfdt.h /usr/include/lzma.h /usr/bin/dtc /usr/bin/cpp /usr/bin/xz /usr/src/linux-source-6.12.tar.xz /usr/bin/jq /usr/bin/groff /usr/bin/pkg-config" ;;
sim)   pkgs="libinih-dev libjansson-dev libfdt-dev liblzma-dev device-tree-compiler libtracecmd-dev libtracefs-dev libtraceevent-dev pkg-config"; check="/usr/include/ini.h /usr/include/jansson.h /usr/include/libfdt.h /usr/include/lzma.h /usr/bin/dtc /usr/include/trace-cmd/trace-cmd.h /usr/include/tracefs/tracefs.h /usr/include/traceevent/event-parse.h /usr/bin/pkg-config" ;;
bench) pkgs="libmimalloc-dev libjemalloc-dev jq"; check="/usr/include/mimalloc.h /usr/include/jemalloc/jemalloc.h /usr/bin/jq" ;;
fuzz)  pkgs="clang-14 libclang-rt-14-dev"; check="/usr/bin/clang-14 /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" ;;
coverage) pkgs="gcovr"; check="/usr/bin/gcovr" ;;
html)  pkgs="chromium"; check="/usr/bin/chromium" ;;
oracle) pkgs="qemu-system-arm qemu-system-x86 busybox-static gcc-aarch64-linux-gnu libc6-dev-arm64-cross cpio kmod xz-utils trace-cmd e2fsprogs"
       check="/usr/bin/qemu-system-aarch64 /usr/bin/qemu-system-x86_64 /bin/busybox /usr/bin/aarch64-linux-gnu-gcc /usr/aarch64-linux-gnu/include/stdio.h /usr/bin/cpio /sbin/modinfo /usr/bin/xz /usr/bin/trace-cmd /sbin/mke2fs" ;;
*) echo "ensure-deps.sh: unknown target '$1' (accepted: test, sim, bench, fuzz, coverage, html, oracle)" >&2; exit 2 ;;
esac
missing=""
for f in $check; do [ -e "$f" ] || missing=yes; done
[ -z "$missing" ] && exit 0
cmd="apt-get install -y $pkgs"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "ensure-deps: installing $pkgs" >&2
	DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive $cmd -qq >/dev/null
else
	echo "ensure-deps: missing $pkgs; run: sudo $cmd" >&2
	exit 1
fi
