#!/bin/sh
# The replay tests' traces recorded by the real kernel (issue 31): the
# oracle's guests booted with `oracle.sh -d`, each one's trace.dat (made
# with trace-cmd restore, the guest's uname in it) and its text trace of
# the same events, xz'd into tests/replay/oracle-NAME.dat.xz and
# oracle-NAME.txt.xz, and the guest's /proc snapshot taken just before
# the allocation (oracle-NAME.snapshot/, for --snapshot), where
# test_replay reads them.
#
#   bench/oracle/dat.sh [-o DIR] [EXP...]
#
#   -o DIR   the runs' whole results (default build/oracle/dat): not
#            bench/oracle/results, whose runs had no -d and so another
#            initramfs (placements differ by a few pages)
#   EXP      default arm64-anon-32m arm64-fill-32m amd64-idle-1g
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dir=$top/build/oracle/dat
dest=$top/tests/replay

while getopts o: opt; do
	case $opt in
	o) dir=$OPTARG ;;
	*) echo "usage: $0 [-o DIR] [EXP...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- arm64-anon-32m arm64-fill-32m amd64-idle-1g

"$here/oracle.sh" -d -o "$dir" "$@" || exit 1
for name in "$@"; do
	r=$dir/$name
	if [ ! -f "$r/trace.dat" ]; then
		echo "dat.sh: $name: no trace.dat ($(cat "$r/ERROR" 2>/dev/null))" >&2
		exit 1
	fi
	xz -9 -c "$r/trace.dat" > "$dest/oracle-$name.dat.xz" &&
		xz -9 -c "$r/trace.txt" > "$dest/oracle-$name.txt.xz" &&
		rm -rf "$dest/oracle-$name.snapshot" && cp -r "$r/snapshot" "$dest/oracle-$name.snapshot" || exit 1
	echo "dat.sh: $name: $(trace-cmd report "$r/trace.dat" 2>/dev/null | grep -c ': ') records," \
		"$(wc -c < "$r/trace.dat") bytes, $(wc -c < "$dest/oracle-$name.dat.xz") xz'd"
done
