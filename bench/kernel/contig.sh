#!/bin/sh
# Measure this machine's own alloc_contig_range, the anchor cmasim's cost
# model is held against (doc/cost-model.md): 1 GiB gigantic pages come
# from alloc_contig_pages, so "echo N > nr_hugepages" times the kernel's
# contiguous allocator, migration and all; 2 MiB huge pages under
# fragmentation time compaction. Each case is timed with the vmstat
# deltas it caused, on an idle machine and under backgrounds of anonymous
# memory and page cache at several loads.
#
#   sudo bench/kernel/contig.sh [-o FILE] [-r REPEATS] [-m GIB] [-c GROUP] [-n] [-l]
#
# -r REPEATS measures idle-1x1G that many times (default 3); with -c,
# every case of the group.
# -c GROUP runs only one group of cases: idle, anon, pagecache or
# fragmented (to repeat a case whose single run is not representative).
# -n sets each case up and records the machine's state where its write
# would begin, without writing (any group, 1 GiB pages or not): to see
# how a case's background scatters from run to run.
# -l (always with -n) adds, before each write, what each 1 GiB of physical
# memory holds ("layout case=... range=N ... anon= file= free= slab=
# pgtable= ... dirty= writeback=" lines, kpage-ranges.c over
# /proc/kpageflags): where the background lies relative to the ranges a
# gigantic page can come from, and which of its pages are dirty.
# -m GIB sizes the cases as if the machine had GIB of RAM (a quicker run
# that leaves room for other work).
# Writes the machine's description and one "case=... ms=..." line per
# measurement, with the state the write met (free, file, dirty and
# writeback pages, the background writeback threshold), to FILE (default bench/kernel/results/KERNEL-HOST-DATE.txt).
# Never holds more than 75% of RAM; restores the huge page counts, kills
# its background and removes its file on exit, Ctrl-C included.
set -u
caller_dir=$(pwd)
cd "$(dirname "$0")"
. ./common.sh

if [ "$(id -u)" != 0 ]; then
	echo "contig.sh: needs root (it writes /sys/kernel/mm/hugepages and /proc/sys/vm); run: sudo $0" >&2
	exit 1
fi
gig=/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages
huge=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages

out=""
repeats=3
as_gib=""
group=""
setup_only=""
layout=""
while getopts o:r:m:c:nl opt; do
	case $opt in
	o) out=$(from_caller "$OPTARG") ;;
	r) repeats=$OPTARG ;;
	m) as_gib=$OPTARG ;;
	c) group=$OPTARG ;;
	n) setup_only=1; layout=1 ;;
	l) layout=1 ;;
	*) echo "usage: $0 [-o FILE] [-r REPEATS] [-m GIB] [-c GROUP] [-n] [-l]" >&2; exit 2 ;;
	esac
done
case $group in
""|idle|anon|pagecache|fragmented) ;;
*) echo "contig.sh: -c $group: give idle, anon, pagecache or fragmented" >&2; exit 2 ;;
esac
# Only the fragmented cases ask for 2 MiB pages; a guest whose CPU lacks
# pdpe1gb has no 1 GiB ones and can still run those.
if [ ! -w "$huge" ]; then
	echo "contig.sh: this kernel has no 2 MiB huge pages to ask for ($huge)" >&2
	exit 1
fi
if [ ! -w "$gig" ] && [ "$group" != fragmented ] && [ -z "$setup_only" ]; then
	echo "contig.sh: this kernel has no 1 GiB huge pages to ask for ($gig; the CPU needs pdpe1gb); only -c fragmented, or -n, can run here" >&2
	exit 1
fi
# wanted GROUP: is GROUP's turn; runs: how often each of its cases runs
wanted() { [ -z "$group" ] || [ "$group" = "$1" ]; }
runs() { if [ -n "$group" ]; then echo "$repeats"; else echo 1; fi; }
[ -n "$out" ] || out=results/$(uname -r)-$(hostname)-$(date +%Y%m%d).txt

work=$(mktemp -d /var/tmp/contig.XXXXXX)
gig0=$(cat "$gig" 2>/dev/null || echo 0)
huge0=$(cat "$huge")
bg=""

cleanup() {
	hold_stop
	[ ! -w "$gig" ] || echo "$gig0" > "$gig"
	echo "$huge0" > "$huge"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cc -O2 -o "$work/hold" hold.c || exit 1
cc -O2 -o "$work/timed-write" timed-write.c || exit 1
cc -O2 -o "$work/kpage-ranges" kpage-ranges.c || exit 1

ram_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
ram_gib=$((ram_kib / 1048576))
if [ -n "$as_gib" ]; then
	[ "$as_gib" -ge 2 ] && [ "$as_gib" -le "$ram_gib" ] 2>/dev/null ||
		{ echo "contig.sh: -m $as_gib: give 2..$ram_gib (GiB)" >&2; exit 2; }
	ram_gib=$as_gib
fi
cap_gib=$((ram_gib * 3 / 4))	# everything this script holds at once

# quiet() - a comparable start: no huge pages, caches dropped, memory compacted
quiet() {
	[ ! -w "$gig" ] || echo 0 > "$gig"
	echo 0 > "$huge"
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo 1 > /proc/sys/vm/compact_memory
	sleep 1
}

# measure CASE FILE COUNT: ask for COUNT huge pages of FILE's size, one line
measure() {
	[ -z "$layout" ] || "$work/kpage-ranges" 262144 | sed "s/^/layout case=$1 /" >> "$out"
	state=$(vmstat_state)
	if [ -n "$setup_only" ]; then
		printf 'case=%s requested=%d setup-only%s\n' "$1" "$3" "$state" | tee -a "$out"
		return
	fi
	vmstat_save "$work/before"
	ns=$("$work/timed-write" "$2" "$3") || exit 1
	ns=${ns#ns=}
	ns=${ns%% *}
	got=$(cat "$2")
	vmstat_save "$work/after"
	printf 'case=%s requested=%d got=%d ms=%s%s%s\n' "$1" "$3" "$got" \
		"$(awk -v ns="$ns" 'BEGIN { printf "%.1f", ns / 1e6 }')" \
		"$(vmstat_delta "$work/before" "$work/after")" "$state" | tee -a "$out"
	echo 0 > "$2"
}

# background anon MIB [fragment] | pagecache GIB: start it and wait until it is in place
background() {
	case $1 in
	anon)
		hold_start "$2" ${3:-} ;;
	pagecache)
		dd if=/dev/urandom of="$work/file" bs=1M count=$(($2 * 1024)) status=none
		cat "$work/file" > /dev/null ;;
	esac
}

stop_background() {
	hold_stop
	rm -f "$work/file"
}

mkdir -p "$(dirname "$out")"
{
	echo "# bench/kernel/contig.sh on $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# kernel: $(uname -r)"
	echo "# memory: $ram_kib kB; cases sized for $ram_gib GiB; cap for this script: $cap_gib GiB"
	lscpu | sed -n 's/^\(Model name\|CPU(s)\|Thread(s) per core\|Hypervisor vendor\|Virtualization type\|L3 cache\|CPU max MHz\):/# &/p'
	echo "# huge pages before: 1G $gig0, 2M $huge0; THP $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
	echo "# each case starts from a quiet machine: huge pages freed, caches dropped, memory compacted"
	echo "# ms: the write alone, timed inside one process (timed-write.c; runs before 4 Dec 06:00 UTC timed it between two date(1) calls, 2.7-5 ms more)"
	[ -z "$group" ] || echo "# only the $group cases, $repeats times each; load average $(cut -d' ' -f1-3 /proc/loadavg)"
	[ -z "$setup_only" ] || echo "# -n: each case set up and its state recorded where the write would begin; nothing written"
	[ -z "$layout" ] || echo "# layout lines: each 1 GiB of physical memory before the write (kpage-ranges.c)"
} > "$out"
cat "$out"

# 1. an idle machine: one 1 GiB page, then as many as the cap allows
if wanted idle; then
	for i in $(seq "$repeats"); do
		quiet
		measure idle-1x1G "$gig" 1
	done
	for i in $(seq "$(runs)"); do
		quiet
		measure idle-"$((cap_gib / 2))"x1G "$gig" $((cap_gib / 2))
	done
fi

# 2. anonymous memory at three loads: 1/6, 1/3 and 1/2 of RAM in use,
#    then as many 1 GiB pages as the cap leaves (at most 8)
for share in 6 3 2; do
	wanted anon || break
	anon=$((ram_gib / share))
	n=$((cap_gib - anon))
	[ "$n" -gt 8 ] && n=8
	[ "$anon" -lt 1 ] || [ "$n" -lt 1 ] && continue
	for i in $(seq "$(runs)"); do
		quiet
		background anon $((anon * 1024))
		measure anon-"$anon"G-"$n"x1G "$gig" "$n"
		stop_background
	done
done

# 3. page cache: a file of a third of RAM read through, then 1 GiB pages
pc=$((ram_gib / 3))
n=$((cap_gib - pc)); [ "$n" -gt 8 ] && n=8
for i in $(seq "$(runs)"); do
	wanted pagecache || break
	quiet
	background pagecache "$pc"
	measure pagecache-"$pc"G-"$n"x1G "$gig" "$n"
	stop_background
done

# 4. compaction: anonymous memory up to the cap with every other page given
#    back, so that only the memory beyond the cap has free 2 MiB blocks; then
#    2 MiB pages for what the cap leaves (half of it), more than those blocks
frag=$cap_gib
for i in $(seq "$(runs)"); do
	wanted fragmented || break
	quiet
	background anon $((frag * 1024)) fragment
	measure fragmented-"$frag"G-"$((frag * 256))"x2M "$huge" $((frag * 256))
	stop_background
done

echo "contig.sh: results in $out"
