#!/bin/sh
# The kernel's figures, one line per experiment in a results directory
# (default bench/oracle/results), for the comparison with cmasim:
#
#   experiment  got/asked  the pool's pfns (FIRST+PAGES runs)  cma_alloc
#   calls that succeeded of those made  migrated (pgmigrate_success delta, and
#   the sum of mm_migrate_pages nr_succeeded)  failed (pgmigrate_fail)
#   busy retries (cma_alloc_busy_retry events)  instructions (the timed
#   nr_hugepages writes, guest ns under -icount shift=0)  host seconds
#
# Migrations are counted from mm_migrate_pages and pgmigrate_success, not
# from mm_alloc_contig_migrate_range_info, whose fields 6.12 prints
# scrambled (its call passes them in another order than its prototype).
# A module's device (device.txt, as arm64-default-32m's writes) gives
# got/asked and pfns from its buffers, the rest from its own trace, and no
# timed write (insn=0). In the non-deterministic mode's run-K directories
# each run is a line.
#
#   bench/oracle/figures.sh [DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/results}

# vmstat_delta RUN KEY: after minus before
vmstat_delta() {
	awk -v k="$2" '$1 == k { v[FILENAME] = $2 } END { print v[ARGV[2]] - v[ARGV[1]] }' \
		"$1/before/vmstat" "$1/after/vmstat"
}

# device_figures RUN: got, asked and the pfn runs of a module's buffers
# (device.txt: "device kb=KB I of N pfn=0xPFN" or "... failed"), in the
# order of figures.sh's line
device_figures() {
	awk "$(cat "$here/hex.awk")"'
	BEGIN { n = 0 }
	{ split($2, k, "="); asked = $5 }
	$6 ~ /^pfn=/ {
		split($6, p, "=")
		got++
		pfn[n] = hex(p[2]); pages[n++] = k[2] / 4
	}
	END { print got + 0, asked + 0, pfn_runs(n, pfn, pages) }' "$1/device.txt"
}

line() {
	run=$1 label=$2
	if [ -f "$run/device.txt" ]; then
		set -- $(device_figures "$run")
		got=$1 asked=$2 pfns=$3 insn=0
		trace="$run/device-trace.txt"
	elif [ ! -f "$run/alloc.txt" ]; then
		printf "%-22s no results%s\n" "$label" "$(cat "$run/ERROR" 2>/dev/null | sed 's/^/: /')"
		return
	else
		asked=$(awk '/^write/ { n = $3 } END { print n + 0 }' "$run/alloc.txt")
		got=$(awk '/^nr_hugepages/ { n = $3 } END { print n + 0 }' "$run/alloc.txt")
		insn=$(awk '/^write/ { split($NF, a, "="); s += a[2] } END { printf "%.0f", s }' "$run/alloc.txt")
		# the pool's pages afterwards as runs FIRST+PAGES (hugepfn.txt):
		# past a full hugetlb_cma area, alloc_gigantic_folio falls back to
		# alloc_contig_pages
		pfns=$(awk '$1 == "pfns" { p = p (p ? "," : "") $3 "+" $4 } END { print p ? p : "-" }' "$run/hugepfn.txt" 2>/dev/null)
		trace="$run/trace.txt"
	fi
	# how many cma_alloc calls succeeded and failed
	cma=$(awk '/cma_alloc_finish:/ { if (/errorno=0( |$)/) ok++; else bad++ } END { printf "%d/%d", ok, ok + bad }' "$trace")
	traced=$(awk '/mm_migrate_pages:/ { for (i = 1; i <= NF; i++) if ($i ~ /^nr_succeeded=/) { split($i, a, "="); s += a[2] } } END { print s + 0 }' "$trace")
	busy=$(grep -c 'cma_alloc_busy_retry:' "$trace")
	printf '%-22s got=%s/%s pfns=%s cma_ok=%s migrated=%s traced=%s failed=%s busy_retries=%s insn=%s host_s=%s\n' \
		"$label" "$got" "$asked" "${pfns:--}" "$cma" "$(vmstat_delta "$run" pgmigrate_success)" "$traced" \
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
