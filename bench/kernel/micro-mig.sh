#!/bin/sh
# Measure the constants of cmasim's migration terms on this machine
# (doc/cost-model.md, "Migration beyond the copy"): the copy of cold
# pages, unmapping a page with and without a TLB shootdown to the other
# CPU, a minor fault, first touches of fresh and host-reclaimed frames,
# and the whole per-page cost of migration through compaction, for mapped
# anonymous and unmapped shared-memory pages. One "NAME=VALUE UNIT" line
# per constant, each the median of REPEATS runs, and the load.
#
#   sudo bench/kernel/micro-mig.sh [-o FILE] [-r REPEATS] [-m MIB]
#
# Runs unattended in about a minute; changes no setting (compaction is
# triggered, not configured), frees everything on exit, Ctrl-C included.
# Writes FILE (default bench/kernel/results/micro-mig-KERNEL-DATE.txt).
set -u
cd "$(dirname "$0")"

if [ "$(id -u)" != 0 ]; then
	echo "micro-mig.sh: needs root (it writes /proc/sys/vm/compact_memory); run: sudo $0" >&2
	exit 1
fi

out=""
repeats=5
mib=512
while getopts o:r:m: opt; do
	case $opt in
	o) out=$OPTARG ;;
	r) repeats=$OPTARG ;;
	m) mib=$OPTARG ;;
	*) echo "usage: $0 [-o FILE] [-r REPEATS] [-m MIB]" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || out=results/micro-mig-$(uname -r)-$(date +%Y%m%d).txt

work=$(mktemp -d /var/tmp/micro-mig.XXXXXX)
pid=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cc -O2 -pthread -o "$work/micro-mig" micro-mig.c || exit 1

mkdir -p "$(dirname "$out")"
{
	echo "# bench/kernel/micro-mig.sh on $(date -u '+%Y-%m-%d %H:%M UTC'), $repeats repeats, $mib MiB buffers"
	echo "# kernel: $(uname -r)"
	echo "# memory: $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) kB; THP $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
	lscpu | sed -n 's/^\(Model name\|CPU(s)\|Hypervisor vendor\|L3 cache\):/# &/p'
	echo "# load before: $(uptime)"
} > "$out"
"$work/micro-mig" "$repeats" "$mib" > "$work/lines" &
pid=$!
wait "$pid"
rc=$?
pid=""
cat "$work/lines" >> "$out"
echo "# load after: $(uptime)" >> "$out"
cat "$out"
[ "$rc" = 0 ] || { echo "micro-mig.sh: micro-mig failed ($rc)" >&2; exit 1; }
echo "micro-mig.sh: results in $out"
