#!/bin/sh
# Measure cmasim's host_fault_us on this machine (doc/cost-model.md,
# "Host faults of fresh frames"): the first write to a guest frame the host
# does not back, over a write to one it does (micro-vm.c). Runs once: the
# first pass backs the frames it finds cold, so a repeat would find fewer.
#
#   bench/kernel/micro-vm.sh [-o FILE] [-m MIB]
#
# MIB (default: half of MemAvailable, at most 8192) is never more than 75%
# of RAM. Changes no setting; the memory is the program's own, freed when
# it exits. Writes FILE (default bench/kernel/results/micro-vm-KERNEL-DATE.txt).
set -u
cd "$(dirname "$0")"

out=""
avail=$(awk '/^MemAvailable:/ { print int($2 / 2048) }' /proc/meminfo)
cap=$(awk '/^MemTotal:/ { print int($2 * 3 / 4 / 1024) }' /proc/meminfo)
mib=$((avail < 8192 ? avail : 8192))
while getopts o:m: opt; do
	case $opt in
	o) out=$OPTARG ;;
	m) mib=$OPTARG ;;
	*) echo "usage: $0 [-o FILE] [-m MIB]" >&2; exit 2 ;;
	esac
done
[ "$mib" -le "$cap" ] || { echo "micro-vm.sh: -m $mib: at most $cap MiB (75% of RAM)" >&2; exit 2; }
[ -n "$out" ] || out=results/micro-vm-$(uname -r)-$(date +%Y%m%d).txt

work=$(mktemp -d /tmp/micro-vm.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
cc -O2 -o "$work/micro-vm" micro-vm.c || exit 1

mkdir -p "$(dirname "$out")"
{
	echo "# bench/kernel/micro-vm.sh on $(date -u '+%Y-%m-%d %H:%M UTC'), $mib MiB"
	echo "# kernel: $(uname -r); $(grep -c ^processor /proc/cpuinfo) CPUs; $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) kB"
	echo "# cmdline: $(tr ' ' '\n' < /proc/cmdline | grep -E 'page_reporting|deferred_init' | tr '\n' ' ')"
	echo "# load before: $(uptime)"
	"$work/micro-vm" "$mib"
	echo "# load after: $(uptime)"
} | tee "$out"
