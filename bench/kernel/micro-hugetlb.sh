#!/bin/sh
# Measure cmasim's hugetlb_page_ns on this machine (doc/cost-model.md,
# "A huge page's own cost"): what the pool pays per 2 MiB page it takes
# from free memory with nothing to compact (the buddy allocation of order
# 9, the compound page's tails, hugetlb's accounting). On a quiet machine
# it writes N to nr_hugepages for several N, each timed inside one
# process (timed-write.c), and fits time = fixed + N x per-page by least
# squares; the per-page slope is the constant, in ns per 4 KiB base page
# of the huge page (so a gigantic page pays it for all of its tails).
#
#   sudo bench/kernel/micro-hugetlb.sh [-o FILE] [-r REPEATS]
#
# Restores nr_hugepages on exit. Writes FILE (default
# bench/kernel/results/micro-hugetlb-KERNEL-DATE.txt).
set -u
cd "$(dirname "$0")"

if [ "$(id -u)" != 0 ]; then
	echo "micro-hugetlb.sh: needs root (it writes nr_hugepages and drop_caches); run: sudo $0" >&2
	exit 1
fi
huge=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
[ -w "$huge" ] || { echo "micro-hugetlb.sh: this kernel has no 2 MiB huge pages ($huge)" >&2; exit 1; }
out=""
repeats=3
while getopts o:r: opt; do
	case $opt in
	o) out=$OPTARG ;;
	r) repeats=$OPTARG ;;
	*) echo "usage: $0 [-o FILE] [-r REPEATS]" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || out=results/micro-hugetlb-$(uname -r)-$(date +%Y%m%d).txt

work=$(mktemp -d /tmp/micro-hugetlb.XXXXXX)
huge0=$(cat "$huge")
trap 'echo "$huge0" > "$huge"; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
cc -O2 -o "$work/timed-write" timed-write.c || exit 1

# at most a quarter of free memory in 2 MiB pages
free_mib=$(awk '/^MemFree:/ { print int($2 / 1024) }' /proc/meminfo)
max=$((free_mib / 2 / 4))
mkdir -p "$(dirname "$out")"
{
	echo "# bench/kernel/micro-hugetlb.sh on $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# kernel: $(uname -r); $(grep -c ^processor /proc/cpuinfo) CPUs; $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) kB"
	echo "# load before: $(uptime)"
	for n in 1 $((max / 8)) $((max / 4)) $((max / 2)) $max; do
		for i in $(seq "$repeats"); do
			echo 0 > "$huge"
			sync
			echo 3 > /proc/sys/vm/drop_caches
			sleep 0.5
			ns=$("$work/timed-write" "$huge" "$n") || exit 1
			ns=${ns#ns=}
			ns=${ns%% *}
			echo "n=$n got=$(cat "$huge") ns=$ns"
		done
	done
	echo "# load after: $(uptime)"
} > "$work/runs"
awk '/^n=/ { split($2, g, "="); split($3, t, "="); x = g[2]; y = t[2];
		k++; sx += x; sy += y; sxx += x * x; sxy += x * y }
	{ print }
	END { b = (k * sxy - sx * sy) / (k * sxx - sx * sx); a = (sy - b * sx) / k;
		printf "fixed_us=%.1f us\nper_2m_page_ns=%.0f ns\nhugetlb_page_ns=%.2f ns\n", a / 1000, b, b / 512 }' \
	"$work/runs" | tee "$out"
