#!/bin/busybox sh
# /init of ftrace-icount.sh's guest (busybox, run as PID 1). Reads its
# settings from the kernel command line (ftr.fills=MB,MB,... of tmpfs
# written before each allocation, ftr.rounds=N, ftr.treefill=MB), then per
# fill allocates and frees one 1 GiB gigantic page per run, in rounds of:
# tracer off, function_graph
# with tracing_thresh 1000 us on every function, function_graph with
# tracing_thresh 1000 us and set_graph_function on the entry point
# (timed), then the two counting runs (tracing_thresh 0: every call in
# the filtered graph, every call on the CPU). Prints "R ..." lines the
# host keeps, and powers off.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t tracefs tracefs /sys/kernel/tracing
mkdir -p /mnt && mount -t tmpfs -o size=4000m tmpfs /mnt

tr=/sys/kernel/tracing
gig=/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages
fills=0
rounds=3
treefill=64
tree=alloc_contig_range
for a in $(cat /proc/cmdline); do
	case $a in
	ftr.fills=*) fills=${a#ftr.fills=} ;;
	ftr.treefill=*) treefill=${a#ftr.treefill=} ;;
	ftr.rounds=*) rounds=${a#ftr.rounds=} ;;
	ftr.tree=*) tree=${a#ftr.tree=} ;;
	esac
done

echo "R guest $(uname -r) $(uname -m) cpus=$(nproc) $(grep MemTotal /proc/meminfo | tr -s ' ')"
echo "R guest cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
echo "R guest clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "R guest cmdline: $(cat /proc/cmdline)"
echo "R guest tracers: $(cat $tr/available_tracers)"
if [ ! -e "$gig" ] || ! grep -qw function_graph $tr/available_tracers; then
	echo "R refused: no 1 GiB huge pages or no function_graph"
	poweroff -f
fi
dmesg | grep -E "BIOS-e820|Memory:" | sed "s/^/R boot /"
# the entry point of the filtered runs: alloc_contig_range, cma_alloc's
# work (alloc_contig_pages' search for a valid 1 GiB range is left out).
# From 6.10 the name is a macro (memory allocation profiling) over
# alloc_contig_range_noprof, the function set_graph_function must name
entry=alloc_contig_range
noprof() {
	if grep -qx "${1}_noprof" $tr/available_filter_functions; then
		echo "${1}_noprof"
	else
		echo "$1"
	fi
}
entry=$(noprof $entry)
tree=$(noprof $tree)
echo "R entry=$entry fills=${fills}MB rounds=$rounds treefill=${treefill}MB"
# the tracer's lasting memory (the ring buffer at its final size, every
# task's return stack) allocated once, before the first measurement, so
# that no run finds it inside the 1 GiB range
echo 131072 > $tr/buffer_size_kb
echo function_graph > $tr/current_tracer
echo nop > $tr/current_tracer

vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# setup MODE: the tracer for one run
setup() {
	echo 0 > $tr/tracing_on
	echo nop > $tr/current_tracer
	echo > $tr/set_graph_function
	echo 0 > $tr/tracing_thresh
	case $1 in
	off) return ;;
	thresh) echo 1000 > $tr/tracing_thresh ;;
	filt) echo 1000 > $tr/tracing_thresh; echo $entry > $tr/set_graph_function ;;
	count-filt) echo $entry > $tr/set_graph_function ;;
	tree) echo $tree > $tr/set_graph_function ;;
	count-all) ;;
	esac
	echo function_graph > $tr/current_tracer
	echo > $tr/trace
}

# events written and overwritten on CPU 0 since the last clear
events() {
	awk '/^entries:/ { e = $2 } /^overrun:/ { o = $2 } END { print e + o, e, o }' \
		$tr/per_cpu/cpu0/stats
}

# run MODE ROUND: one allocation, its line
run() {
	echo 0 > $gig
	if [ "$fill" -gt 0 ]; then
		rm -f /mnt/f
		fallocate -l $((fill * 1048576)) /mnt/f
	fi
	setup $1
	m0=$(vm pgmigrate_success)
	out=$(/timed-write $gig 1 $tr/tracing_on)
	m1=$(vm pgmigrate_success)
	set -- $1 $2 $(events)
	# a graph call writes an entry and a return event (tracing_thresh 0)
	echo "R run fill=$fill round=$2 mode=$1 $out got=$(cat $gig) migrated=$((m1 - m0)) events=$3 calls=$(($3 / 2)) overrun=$5"
	echo nop > $tr/current_tracer
	echo 0 > $gig
}

for fill in $(echo $fills | tr , ' '); do
	i=1
	while [ $i -le $rounds ]; do
		for mode in off thresh filt count-filt count-all; do
			run $mode $i
		done
		i=$((i + 1))
	done
done
fill=$treefill

# one graph kept whole (tracing_thresh 0, set_graph_function $tree): calls per child
echo 0 > $gig
[ "$fill" -gt 0 ] && { rm -f /mnt/f; fallocate -l $((fill * 1048576)) /mnt/f; }
setup tree
m0=$(vm pgmigrate_success)
/timed-write $gig 1 $tr/tracing_on > /dev/null
m1=$(vm pgmigrate_success)
echo "R tree $tree migrated=$((m1 - m0)) events=$(events)"
# depth from the indentation after the '|' (two spaces a level); a call
# is a line ending in '{' or ';'
awk -F'|' 'NF >= 2 {
	s = $2; sub(/[ \t]*$/, "", s)
	if (s !~ /[{;]$/) next
	n = match(s, /[^ ]/) - 1; name = substr(s, n + 1); sub(/\(.*/, "", name)
	if (base == "") base = n
	d = (n - base) / 2
	all[name]++; total++
	if (d == 1) { top = name; kids[top]++ }
	if (d >= 1) sub_[top]++
} END {
	print "R tree calls=" total
	for (k in kids) print "R tree child " k " times=" kids[k] " calls=" sub_[k]
	for (k in all) if (all[k] >= 16) print "R tree fn " k " " all[k]
}' $tr/trace
echo nop > $tr/current_tracer
echo 0 > $gig
echo "R done"
poweroff -f
