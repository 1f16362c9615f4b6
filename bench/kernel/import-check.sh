#!/bin/sh
# Hold cmasim import's prediction against this machine's kernel: under a
# background of anonymous memory (hold.c, MADV_NOHUGEPAGE), take a
# snapshot (cmasim snapshot), predict what one 1 GiB contiguous range
# would cost (cmasim import --what-if 1G --kernel 6.12: the range
# alloc_contig_pages would take, its pages to migrate, the time), then
# allocate one 1 GiB gigantic page (nr_hugepages of hugepages-1048576kB,
# which is alloc_contig_pages) and time it with its vmstat deltas; print
# predicted and measured side by side.
#
#   sudo bench/kernel/import-check.sh [-o FILE] [-r REPEATS] [-g GIB] [-c CMASIM]
#
# -g GIB: the background's size (default: half of RAM, never over 75%).
# Writes the figures, one "predicted ... measured ..." line per repeat, to
# FILE (default bench/kernel/results/import-check-KERNEL-HOST-DATE.txt).
# Restores the 1 GiB page count, kills its background and removes its
# files on exit, Ctrl-C included.
set -u
caller_dir=$(pwd)
cd "$(dirname "$0")"
. ./common.sh

if [ "$(id -u)" != 0 ]; then
	echo "import-check.sh: needs root (cmasim snapshot reads /proc/kpageflags; it writes /sys/kernel/mm/hugepages); run: sudo $0" >&2
	exit 1
fi
gig=/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages
if [ ! -w "$gig" ]; then
	echo "import-check.sh: this kernel has no 1 GiB huge pages to ask for ($gig)" >&2
	exit 1
fi

out=""
repeats=3
load_gib=""
cmasim=../../build/cmasim
while getopts o:r:g:c: opt; do
	case $opt in
	o) out=$(from_caller "$OPTARG") ;;
	r) repeats=$OPTARG ;;
	g) load_gib=$OPTARG ;;
	c) cmasim=$OPTARG ;;
	*) echo "usage: $0 [-o FILE] [-r REPEATS] [-g GIB] [-c CMASIM]" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || out=results/import-check-$(uname -r)-$(hostname)-$(date +%Y%m%d).txt
[ -x "$cmasim" ] || make -C ../.. build/cmasim >/dev/null || exit 1

ram_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
ram_gib=$((ram_kib / 1048576))
[ -n "$load_gib" ] || load_gib=$((ram_gib / 2))
if [ "$load_gib" -lt 1 ] || [ "$load_gib" -gt $((ram_gib * 3 / 4 - 1)) ] 2>/dev/null; then
	echo "import-check.sh: -g $load_gib: give 1..$((ram_gib * 3 / 4 - 1)) (GiB; with the 1 GiB page, at most 75% of RAM)" >&2
	exit 2
fi

work=$(mktemp -d /var/tmp/import-check.XXXXXX)
gig0=$(cat "$gig")
bg=""

cleanup() {
	hold_stop
	echo "$gig0" > "$gig"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cc -O2 -o "$work/hold" hold.c || exit 1

mkdir -p "$(dirname "$out")"
{
	echo "# bench/kernel/import-check.sh on $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# kernel: $(uname -r); memory: $ram_kib kB; background: $load_gib GiB of anonymous memory (4 KiB pages)"
	lscpu | sed -n 's/^\(Model name\|CPU(s)\|Hypervisor vendor\|CPU max MHz\):/# &/p'
	echo "# predicted: cmasim import --what-if 1G --kernel 6.12 of a snapshot taken just before;"
	echo "# measured: echo 1 > nr_hugepages (1 GiB), wall time and vmstat deltas"
} > "$out"
cat "$out"

echo 0 > "$gig"
hold_start $((load_gib * 1024))
for i in $(seq "$repeats"); do
	rm -rf "$work/snap"
	"$cmasim" snapshot "$work/snap" > /dev/null || exit 1
	"$cmasim" import "$work/snap" --kernel 6.12 --what-if 1G > "$work/predict" || exit 1
	sed 's/^/# /' "$work/predict" >> "$out"
	# the 6.12 choice's lines: its range, its pages, its time
	pred=$(awk '/alloc_contig_pages\(\) would take/ { on = 1; range = $NF; gsub(/[()]/, "", range) }
		on && /pages:/ { migrate = $4; reclaim = $11 }
		on && /predicted time/ { print range, migrate, reclaim, $3; exit }' "$work/predict")
	[ -n "$pred" ] || pred="none - - -"
	vmstat_save "$work/before"
	t0=$(date +%s%N)
	echo 1 > "$gig"
	t1=$(date +%s%N)
	got=$(cat "$gig")
	vmstat_save "$work/after"
	# where the kernel put it: a second snapshot's hugetlb pages
	took=""
	rm -rf "$work/snap"
	"$cmasim" snapshot "$work/snap" > /dev/null &&
		took=$("$cmasim" import "$work/snap" | sed -n 's/^hugetlb pages at \([^,]*\).*/\1/p')
	echo 0 > "$gig"
	delta=$(vmstat_delta "$work/before" "$work/after")
	set -- $pred
	migrated=$(echo "$delta" | sed -n 's/.*pgmigrate_success=\([0-9-]*\).*/\1/p')
	awk -v i="$i" -v range="$1" -v pm="$2" -v pr="$3" -v pms="$4" -v got="$got" -v took="${took:-?}" \
		-v mm="$migrated" -v ns=$((t1 - t0)) -v delta="$delta" 'BEGIN {
		ms = ns / 1e6
		printf "repeat=%d predicted: range=%s migrate=%s reclaim=%s ms=%s | measured: got=%d range=%s migrated=%d ms=%.1f | ratio measured/predicted ms=%s |%s\n",
			i, range, pm, pr, pms, got, took, mm, ms, (pms > 0 ? sprintf("%.2f", ms / pms) : "-"), delta }' | tee -a "$out"
done
echo "import-check.sh: results in $out"
