#!/bin/sh
# The kernel's figures, one line per experiment in a results directory
# (default bench/oracle/results), for the comparison with cmasim:
#
#   experiment  got/asked  pfn(s)  migrated (pgmigrate_success delta, and
#   the sum of mm_migrate_pages nr_succeeded)  failed (pgmigrate_fail)
#   busy retries (cma_alloc_busy_retry events)  instructions (the timed
#   nr_hugepages writes, guest ns under -icount shift=0)  host seconds
#
# Migrations are counted from mm_migrate_pages and pgmigrate_success, not
# from mm_alloc_contig_migrate_range_info, whose fields 6.12 prints
# scrambled (its call passes them in another order than its prototype).
# In the non-deterministic mode's run-K directories each run is a line.
#
#   bench/oracle/figures.sh [DIR]
set -u
dir=${1:-$(dirname "$0")/results}

# vmstat_delta RUN KEY: after minus before
vmstat_delta() {
	awk -v k="$2" '$1 == k { v[FILENAME] = $2 } END { print v[ARGV[2]] - v[ARGV[1]] }' \
		"$1/before/vmstat" "$1/after/vmstat"
}

line() {
	run=$1 name=$2
	if [ ! -f "$run/alloc.txt" ]; then
		printf '%-22s no results%s\n' "$name" "$(cat "$run/ERROR" 2>/dev/null | sed 's/^/: /')"
		return
	fi
	asked=$(awk '/^write/ { n = $3 } END { print n + 0 }' "$run/alloc.txt")
	got=$(awk '/^nr_hugepages/ { n = $3 } END { print n + 0 }' "$run/alloc.txt")
	insn=$(awk '/^write/ { split($NF, a, "="); s += a[2] } END { printf "%d", s }' "$run/alloc.txt")
	# the pfns: cma_alloc_finish's where the area is CMA, else the pages mapped
	pfns=$(awk '/cma_alloc_finish:/ && !/errorno=[^0]/ { for (i = 1; i <= NF; i++) if ($i ~ /^pfn=/) { sub(/pfn=/, "", $i); p = p (p ? "," : "") $i } }
		END { print p }' "$run/trace.txt")
	[ -n "$pfns" ] || pfns=$(awk '$1 == "pfns" { p = p (p ? "," : "") $3 } END { print p }' "$run/hugepfn.txt" 2>/dev/null)
	[ -n "$pfns" ] || pfns=-
	traced=$(awk '/mm_migrate_pages:/ { for (i = 1; i <= NF; i++) if ($i ~ /^nr_succeeded=/) { split($i, a, "="); s += a[2] } } END { print s + 0 }' "$run/trace.txt")
	busy=$(grep -c 'cma_alloc_busy_retry:' "$run/trace.txt")
	printf '%-22s got=%s/%s pfn=%s migrated=%s traced=%s failed=%s busy_retries=%s insn=%s host_s=%s\n' \
		"$name" "$got" "$asked" "$pfns" "$(vmstat_delta "$run" pgmigrate_success)" "$traced" \
		"$(vmstat_delta "$run" pgmigrate_fail)" "$busy" "$insn" \
		"$(sed 's/host seconds: //' "$run/host-time" 2>/dev/null)"
}

for d in "$dir"/*/; do
	d=${d%/}
	name=${d##*/}
	if [ -d "$d/run-1" ]; then
		for r in "$d"/run-*; do
			line "$r" "$name/${r##*/}"
		done
	else
		line "$d" "$name"
	fi
done
