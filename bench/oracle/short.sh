#!/bin/sh
# The oracle's short form, for CI's bench step (issue 29): two small arm64
# experiments booted afresh into a scratch results directory, then cmasim
# set beside them by compare.sh, its lines printed.
#
#   bench/oracle/short.sh [-c CMASIM] [-o DIR] [EXP...]
#
#   -c CMASIM  the cmasim to compare (default build/cmasim)
#   -o DIR     scratch directory: DIR/results the guests', DIR/cmasim
#              cmasim's (default build/oracle/short)
#   EXP        default arm64-idle-1g arm64-anon-32m (about 8 and 22 s of
#              host time a boot; their scenarios are committed)
#
# Exit 1 when a guest cannot be built or booted (no results came back), 2
# when the comparison cannot run; disagreement is reported, not failed:
# the full `make oracle` is where verdicts are worked on. Downloads are
# oracle.sh's, cached in build/oracle (fetched once). A line also says
# whether the guests' figures are those of the committed results: the
# runs are deterministic, so a difference means another QEMU, kernel
# package or initramfs than the committed ones.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cmasim=$top/build/cmasim
dir=$top/build/oracle/short

usage() {
	echo "usage: $0 [-c CMASIM] [-o DIR] [EXP...]" >&2
	exit 2
}
while getopts c:o: opt; do
	case $opt in
	c) cmasim=$OPTARG ;;
	o) dir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- arm64-idle-1g arm64-anon-32m

t0=$(date +%s)
rm -rf "$dir/results" && mkdir -p "$dir" || exit 1
"$here/oracle.sh" -o "$dir/results" "$@" || exit 1

# a guest that gave no results did not boot (or died before its end): its
# console's last lines say why
booted=yes
for name in "$@"; do
	[ -f "$dir/results/$name/alloc.txt" ] && continue
	booted=no
	echo "oracle-short: $name: $(cat "$dir/results/$name/ERROR" 2>/dev/null || echo no results)" >&2
	tail -n 20 "$dir/results/$name/console.log" >&2 2>/dev/null
done
[ $booted = yes ] || exit 1

# figures.sh's line for NAME, host seconds (the one figure that varies)
# dropped
without_host_s() {
	awk -v n="$1" '$1 == n' | sed 's/ host_s=.*//'
}
now=$("$here/figures.sh" "$dir/results")
for name in "$@"; do
	k=$(printf '%s\n' "$now" | without_host_s "$name")
	if [ "$k" = "$(without_host_s "$name" < "$here/results/figures.txt")" ]; then
		echo "oracle-short: $name: the guest's figures are the committed results'"
	else
		echo "oracle-short: $name: the guest's figures differ from the committed results/figures.txt: $k"
	fi
done

"$here/compare.sh" -r "$dir/results" -o "$dir/cmasim" -c "$cmasim" "$@" || exit 2
echo "oracle-short: $# experiments in $(($(date +%s) - t0)) s"
