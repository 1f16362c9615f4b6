#!/bin/sh
# Measure the constants of cmasim's CPU-contention, drain and lock-wait
# terms on this machine (micro-cpu.c says what each one is) and keep them,
# with the machine's description and its load, in
# bench/kernel/results/micro-cpu-KERNEL-DATE.txt. Changes no setting;
# runs in well under two minutes; needs no root.
#
#   bench/kernel/micro-cpu.sh [-o FILE] [-r REPEATS]
set -u
cd "$(dirname "$0")"

out=""
repeats=5
while getopts o:r: opt; do
	case $opt in
	o) out=$OPTARG ;;
	r) repeats=$OPTARG ;;
	*) echo "usage: $0 [-o FILE] [-r REPEATS]" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || out=results/micro-cpu-$(uname -r)-$(date +%Y%m%d).txt

work=$(mktemp -d /tmp/micro-cpu.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
cc -O2 -pthread -o "$work/micro-cpu" micro-cpu.c || exit 1

{
	echo "# micro-cpu: cmasim's CPU-contention, drain and lock-wait constants"
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), repeats=$repeats (each figure the median)"
	echo "# uname: $(uname -srm)"
	lscpu | sed -n 's/^\(Model name\|CPU(s)\|Hypervisor vendor\|Thread(s) per core\|CPU MHz\|BogoMIPS\):[ ]*/# \1: /p'
	echo "# memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "# load before: $(uptime)"
	"$work/micro-cpu" "$repeats" || exit 1
	echo "# load after: $(uptime)"
} > "$work/out" || exit 1
mkdir -p "$(dirname "$out")"
mv "$work/out" "$out"
cat "$out"
