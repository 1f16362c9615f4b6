#!/bin/sh
# cmasim replay of the arm64 guests' traces (issue 31): each trace's CMA
# requests replayed on the guest's board (tests/dt/qemu-virt-arm64.dts),
# command line and /proc snapshot under 6.12, and what replay's summary
# says of them, a line per trace:
#
#   trace  requests  success  pfn  migrated
#
# success: requests whose success agrees; pfn: requests placed at the
# kernel's pfn of those both placed; migrated: requests whose pages
# migrated lie within 10% of the kernel's. Then the totals. No guest is
# booted.
#
#   bench/oracle/replay.sh [-c CMASIM] [DIR...]
#
# DIR: a guest's results (trace.txt, cmdline, snapshot/, experiment);
# default every arm64 one with CMA requests under results/,
# results-spread/ and results-state/. Exit 0 whatever the agreement; 2
# when a replay cannot run.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cmasim=$top/build/cmasim
board=$top/tests/dt/qemu-virt-arm64.dts

usage() {
	echo "usage: $0 [-c CMASIM] [DIR...]" >&2
	exit 2
}

while getopts c: opt; do
	case $opt in
	c) cmasim=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	for d in "$here"/results/*/ "$here"/results-spread/*/run-*/ "$here"/results-state/*/; do
		d=${d%/}
		[ -f "$d/trace.txt" ] && grep -q '^guest=arm64' "$d/experiment" &&
			grep -q 'cma_alloc_start:' "$d/trace.txt" && set -- "$@" "$d"
	done
fi
[ $# -gt 0 ] || { echo "$0: no guest trace to replay" >&2; exit 2; }

lines=$(mktemp)
trap 'rm -f "$lines" "$lines.trace"' EXIT
for d in "$@"; do
	for f in trace.txt cmdline snapshot; do
		[ -e "$d/$f" ] || { echo "$0: $d: no $f" >&2; exit 2; }
	done
	d=$(cd "$d" && pwd)
	# the journal's commit events (ext4-init.sh's) are not the replay's:
	# dropped from a copy
	tr=$d/trace.txt
	if grep -q ': jbd2_' "$tr"; then
		grep -v ': jbd2_' "$tr" > "$lines.trace"
		tr=$lines.trace
	fi
	line=$("$cmasim" replay "$tr" --platform "$board" --cmdline "$(cat "$d/cmdline")" \
		--snapshot "$d/snapshot" --kernel 6.12 | grep ' requests: success agrees on ') ||
		{ echo "$0: $d: cmasim replay gave no summary" >&2; exit 2; }
	# "N requests: success agrees on S, pfn on P of B placed by both, pages migrated within 10% on M of W"
	echo "${d#"$here"/} $line" >> "$lines"
done
printf '%-44s %8s %9s %9s %9s\n' trace requests success pfn migrated
awk '
	{
		n = $2; s = $7; p = $10; b = $12; m = $(NF - 2); w = $NF
		sub(/,$/, "", s)
		printf "%-44s %8d %9s %9s %9s\n", $1, n, s "/" n, p "/" b, m "/" w
		tn += n; ts += s; tp += p; tb += b; tm += m; tw += w; traces++
	}
	END { printf "%-44s %8d %9s %9s %9s\n", "total (" traces " traces)", tn, ts "/" tn, tp "/" tb, tm "/" tw }' "$lines"
