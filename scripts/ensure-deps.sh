#!/bin/sh
# Make sure the packages a target needs are installed: install them when run
# as root on Debian, otherwise stop with the exact command to run.
set -e
case "$1" in
test)  pkgs="libcmocka-dev"; check="/usr/include/cmocka.h" ;;
bench) pkgs="libmimalloc-dev libjemalloc-dev"; check="/usr/include/mimalloc.h /usr/include/jemalloc/jemalloc.h" ;;
*) echo "ensure-deps.sh: unknown target '$1' (accepted: test, bench)" >&2; exit 2 ;;
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
