#!/bin/sh
# What the ftrace function hook costs per kernel function call, and how
# many calls alloc_contig_range makes per page, on this machine's own
# alloc_contig_range (a 1 GiB gigantic page, as contig.sh asks for one):
# the instrument of raspberrypi/linux#2680 (function_graph on cma_alloc)
# priced where it can be (calib/README-published.md, "RPi").
#
#   sudo bench/kernel/ftrace-cost.sh [-o FILE] [-r PAIRS]
#
# PAIRS times (default 5): one allocation with no tracer, one with the
# function tracer on every CPU, alternating, the writer pinned to CPU 1;
# each pair's load is recorded. Then one allocation traced into a buffer
# large enough to keep every event, whose lines of the writer's pid are
# its calls (this kernel refuses set_ftrace_pid, so the pid is filtered
# from the output). Prints one "case=..." line per run and
#   FTRACE_FUNCTION_NS_PER_CALL=V ns   (median on-off difference / calls)
#   CONTIG_CALLS_PER_PAGE=V calls      (the writer's calls / 262144 pages)
# Restores the tracer, tracing_on, the buffer size and the 1 GiB page
# count on exit, Ctrl-C included. A kernel that refuses the function
# tracer gets its refusals written to FILE and exit status 1.
set -u
caller_dir=$(pwd)
cd "$(dirname "$0")"
. ./common.sh

tr=/sys/kernel/tracing
gig=/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages
if [ "$(id -u)" != 0 ]; then
	echo "ftrace-cost.sh: needs root (it writes $tr and $gig); run: sudo $0" >&2
	exit 1
fi
if [ ! -w "$gig" ] || ! grep -qw function "$tr/available_tracers" 2>/dev/null; then
	echo "ftrace-cost.sh: needs 1 GiB huge pages ($gig) and the function tracer ($tr)" >&2
	exit 1
fi
if [ "$(nproc)" -lt 2 ]; then
	echo "ftrace-cost.sh: needs two CPUs (the writer is pinned to CPU 1)" >&2
	exit 1
fi

out=""
pairs=5
while getopts o:r: opt; do
	case $opt in
	o) out=$(from_caller "$OPTARG") ;;
	r) pairs=$OPTARG ;;
	*) echo "usage: $0 [-o FILE] [-r PAIRS]" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || out=results/ftrace-cost-$(uname -r)-$(date +%Y%m%d).txt

tracer0=$(cat "$tr/current_tracer")
on0=$(cat "$tr/tracing_on")
buf0=$(cat "$tr/buffer_size_kb" | sed 's/ .*//')
gig0=$(cat "$gig")
work=$(mktemp -d /var/tmp/ftrace-cost.XXXXXX)

cleanup() {
	echo nop > "$tr/current_tracer"
	echo "$buf0" > "$tr/buffer_size_kb"
	echo > "$tr/trace"
	echo "$on0" > "$tr/tracing_on"
	echo "$tracer0" > "$tr/current_tracer"
	echo "$gig0" > "$gig"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# one_alloc: ask for one 1 GiB page from CPU 1; prints "ns pid got"
one_alloc() {
	echo 0 > "$gig"
	taskset -c 1 sh -c '
		t0=$(date +%s%N); echo 1 > "$1"; t1=$(date +%s%N)
		echo $((t1 - t0)) $$ $(cat "$1")' sh "$gig"
}

# run CASE TRACER: one allocation with TRACER (nop or function) on, one line
run() {
	echo "$2" > "$tr/current_tracer"
	echo > "$tr/trace"
	echo 1 > "$tr/tracing_on"
	set -- "$1" $(one_alloc)
	echo 0 > "$tr/tracing_on"
	echo nop > "$tr/current_tracer"
	printf 'case=%s ms=%s got=%s load="%s"\n' "$1" \
		"$(awk -v ns="$2" 'BEGIN { printf "%.2f", ns / 1e6 }')" "$4" \
		"$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
}

mkdir -p "$(dirname "$out")"
{
	echo "# bench/kernel/ftrace-cost.sh on $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# kernel: $(uname -r)"
	lscpu | sed -n 's/^\(Model name\|CPU(s)\|Hypervisor vendor\|CPU max MHz\|BogoMIPS\):/# &/p'
	echo "# one 1 GiB page (262144 pages) per run, the writer on CPU 1; tracer off and on alternate"
	echo "# load: /proc/loadavg (1, 5, 15 min) after each run; the machine is shared"
} > "$out"
cat "$out"

# a kernel may refuse the function tracer: this project's Firecracker guest
# (6.18.44-fc) answers EIO or EPERM to current_tracer = function and EPERM
# to reading available_filter_functions and set_ftrace_pid; say so and stop
if ! (echo function > "$tr/current_tracer") 2>"$work/err"; then
	printf 'REFUSED: echo function > %s/current_tracer: %s\n' "$tr" \
		"$(sed 's/.*: //' "$work/err")" | tee -a "$out"
	for f in available_filter_functions set_ftrace_pid; do
		cat "$tr/$f" > /dev/null 2>"$work/err" ||
			printf 'REFUSED: read %s/%s: %s\n' "$tr" "$f" "$(sed 's/.*: //' "$work/err")" | tee -a "$out"
	done
	echo "ftrace-cost.sh: this kernel refuses the function tracer; nothing measured (results in $out)" >&2
	exit 1
fi
echo nop > "$tr/current_tracer"

sync
echo 3 > /proc/sys/vm/drop_caches
echo 1 > /proc/sys/vm/compact_memory
echo "$buf0" > "$tr/buffer_size_kb"
for i in $(seq "$pairs"); do
	run off nop
	run function function
done

# the calls: a buffer of 1 GiB per CPU keeps them all (checked: no overrun)
echo 1048576 > "$tr/buffer_size_kb"
echo function > "$tr/current_tracer"
echo > "$tr/trace"
echo 1 > "$tr/tracing_on"
set -- $(one_alloc)
echo 0 > "$tr/tracing_on"
pid=$2
overrun=$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' "$tr"/per_cpu/cpu*/stats)
cat "$tr/per_cpu/cpu1/trace" > "$work/trace"
echo nop > "$tr/current_tracer"
calls=$(awk -v pid="$pid" '!/^#/ { split($1, a, "-"); if (a[length(a)] == pid) n++ } END { print n + 0 }' "$work/trace")
all=$(grep -vc '^#' "$work/trace")
printf 'case=count ms=%s pid=%s calls=%s cpu1_events=%s overrun=%s load="%s"\n' \
	"$(awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e6 }')" "$pid" "$calls" "$all" "$overrun" \
	"$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
echo "# the writer's calls by function, the 15 most frequent:" >> "$out"
awk -v pid="$pid" '!/^#/ { split($1, a, "-"); if (a[length(a)] != pid) next
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $(i + 1); break } }' "$work/trace" |
	sort | uniq -c | sort -rn | head -15 | sed 's/^/#   /' >> "$out"

awk -v calls="$calls" '
	/^case=off / { split($2, a, "="); off[++n] = a[2] }
	/^case=function / { split($2, a, "="); on[++m] = a[2] }
	function median(v, k,   i, j, t) {
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }
	END {
		for (i = 1; i <= n && i <= m; i++) d[i] = on[i] - off[i]
		k = n < m ? n : m
		printf "OFF_MS=%.2f ms (median)\nFUNCTION_MS=%.2f ms (median)\n", median(off, n), median(on, m)
		if (calls > 0)
			printf "FTRACE_FUNCTION_NS_PER_CALL=%.1f ns\n", median(d, k) * 1e6 / calls
		printf "CONTIG_CALLS_PER_PAGE=%.2f calls\n", calls / 262144
	}' "$out" | tee -a "$out"
echo "ftrace-cost.sh: results in $out"
