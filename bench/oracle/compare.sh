#!/bin/sh
# cmasim against the kernel: each experiment's scenario (scenarios/NAME.ini)
# run through cmasim, its figures set beside the guest's committed ones
# (results/NAME, as figures.sh reduces them), a line per figure:
#
#   experiment  figure  kernel  cmasim  verdict
#
# and last "oracle: N of M agree". The rules (issue 29): the pages got of
# those asked identical; the pool's pfn runs identical; pages migrated
# within 10% of the kernel's; busy retries identical. The time of the
# write is reported (the guest's instructions, cmasim's modelled ms), not
# judged. No guest is booted: `make oracle-guest` does that.
#
#   bench/oracle/compare.sh [-r RESULTS] [-s SCENARIOS] [-o DIR] [-c CMASIM] [EXP...]
#
# EXP defaults to every scenario with a guest run. cmasim's report and
# trace go to DIR/NAME/ (default build/oracle/cmasim). Exit 0 whatever the
# verdicts; 2 when a comparison cannot run (no results, cmasim refused).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/build/oracle/cmasim
. "$here/experiments.sh"

# field LINE KEY: KEY=VALUE's value in a figures line
field() {
	printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# cmasim_figures DIR SCENARIO: cmasim's run in the form of figures.sh's
# line (the same keys): the pool's pages from cmasim_hugetlb_page, or a
# device's buffers from cmasim_device_request, merged into runs as the
# guest's hugepfn.txt or device.txt has them; the [hugetlb] write's vmstat
# delta from the JSON report. A device asks its ring (the scenario's
# ring): its driver gives up at the first failure, where the guest's
# module asks each buffer in turn
cmasim_figures() {
	awk -v ring="$(sed -n 's/^ring *= *//p' "$2" | head -1)" "$(cat "$here/hex.awk")"'
	BEGIN { n = 0 }
	/cmasim_device_request:/ {
		asked = ring
		for (i = 1; i <= NF; i++) {
			split($i, a, "=")
			if (a[1] == "bytes") bytes = a[2]
			if (a[1] == "pfn") p = a[2]
			if (a[1] == "result") ok = a[2] == "ok"
		}
		if (ok) {
			got++
			pfn[n] = p; pages[n++] = bytes / 4096
		}
	}
	/cmasim_hugetlb_write:/ {
		for (i = 1; i <= NF; i++) {
			split($i, a, "=")
			if (a[1] == "requested") asked = a[2]
			if (a[1] == "got") got = a[2]
			if (a[1] == "latency_ns") ns += a[2]
		}
	}
	/cmasim_hugetlb_page:/ {
		for (i = 1; i <= NF; i++) {
			split($i, a, "=")
			if (a[1] == "pfn") pfn[n] = a[2]
			if (a[1] == "pages") pages[n] = a[2]
		}
		n++
	}
	/cma_alloc_busy_retry:/ { busy++ }
	END {
		for (i = 0; i < n; i++)
			v[i] = hex(pfn[i])
		# insertion sort: a pool of at most a few dozen pages
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
				t = pages[j]; pages[j] = pages[j - 1]; pages[j - 1] = t
			}
		printf "got=%d/%d pfns=%s busy_retries=%d ms=%.3f\n",
			got, asked, pfn_runs(n, v, pages), busy, ns / 1e6
	}' "$1/trace.txt"
	# pages migrated over the write, as the guest's pgmigrate_success delta
	# (the trace's mm_migrate_pages also has the workloads' before it); a
	# device's, for its requests
	if grep -q 'cmasim_device_request:' "$1/trace.txt"; then
		sed -n 's/^ *"device_migrated_pages": \([0-9]*\),*$/migrated=\1/p' "$1/report.json"
	else
		sed -n 's/^ *"pgmigrate_success": \([0-9]*\),*$/migrated=\1/p' "$1/report.json"
	fi
}

# import_figure NAME: the importer's route: the guest's snapshot (taken
# just before the allocation) through `cmasim import --what-if` of one page
# of the experiment's size, the range 6.12's alloc_contig_pages() would
# take as a pfn run, or "-" when it would fail. Nothing when the route does
# not apply: only x86's gigantic pages come from alloc_contig_pages
# (arm64's from the hugetlb_cma area through cma_alloc, which the what-if
# does not answer). --force: the importer reads 6.12's flagless pages as
# free and so refuses these snapshots (README.md, "Where cmasim disagrees").
import_figure() {
	[ -d "$results/$1/snapshot" ] && grep -q '^guest=amd64' "$results/$1/experiment" || return 0
	if ! "$cmasim" import "$results/$1/snapshot" --what-if "$(alloc_kb "$1")K" --force \
		> "$out/$1/import.txt" 2> "$out/$1/import.stderr"; then
		echo "$0: cmasim import refused $1:" >&2
		cat "$out/$1/import.stderr" >&2
		exit 2
	fi
	awk "$(cat "$here/hex.awk")"'
	/alloc_contig_pages\(\) would take: pfn / {
		split($7, r, "-")
		run = tohex(hex(r[1])) "+" (hex(r[2]) - hex(r[1]) + 1)
	}
	/alloc_contig_pages\(\) would fail/ { run = "-" }
	END { if (run != "") print run }' "$out/$1/import.txt"
}

# alloc_kb NAME: the KiB of the pages the experiment's alloc step asks
alloc_kb() {
	sed -n 's/^alloc="[a-z]* \([0-9]*\) .*/\1/p' "$results/$1/experiment"
}

# first_page FIGURES KB: the lowest page of KB in the kernel's pool as a
# pfn run, or "-" for none: the what-if answers one page, and the x86
# guests here were granted one page or none
first_page() {
	pfns=$(field "$1" pfns)
	[ "$pfns" = - ] && echo - || echo "${pfns%%+*}+$(($2 / 4))"
}

# within10 KERNEL CMASIM: pages migrated within 10% of the kernel's
within10() {
	awk -v k="$1" -v c="$2" 'BEGIN { d = c - k; if (d < 0) d = -d; exit !(d * 10 <= k) }'
}

row() {
	printf '%-20s %-13s %-28s %-28s %s\n' "$@"
}

kernel_all=$("$here/figures.sh" "$results")
agree=0 total=0
row experiment figure kernel cmasim verdict
for name in "$@"; do
	k=$(printf '%s\n' "$kernel_all" | awk -v n="$name" '$1 == n')
	case $k in
	'' | *"no results"*) echo "$0: no guest results for $name in $results" >&2; exit 2 ;;
	esac
	[ -f "$scenarios/$name.ini" ] || { echo "$0: no scenario $scenarios/$name.ini" >&2; exit 2; }
	mkdir -p "$out/$name"
	if ! "$cmasim" run --scenario "$scenarios/$name.ini" --report json \
		--trace "$out/$name/trace.txt" > "$out/$name/report.json" 2> "$out/$name/stderr"; then
		echo "$0: cmasim refused $name:" >&2
		cat "$out/$name/stderr" >&2
		exit 2
	fi
	c=$(cmasim_figures "$out/$name" "$scenarios/$name.ini")
	for fig in got pfns migrated busy_retries; do
		kv=$(field "$k" "$fig") cv=$(field "$c" "$fig")
		case $fig in
		migrated) within10 "$kv" "$cv" && v=agree || v=disagree ;;
		*) [ "$kv" = "$cv" ] && v=agree || v=disagree ;;
		esac
		total=$((total + 1))
		[ $v = agree ] && agree=$((agree + 1))
		row "$name" "$fig" "$kv" "$cv" "$v"
	done
	iv=$(import_figure "$name") || exit 2
	if [ -n "$iv" ]; then
		kv=$(first_page "$k" "$(alloc_kb "$name")")
		[ "$kv" = "$iv" ] && v=agree || v=disagree
		total=$((total + 1))
		[ $v = agree ] && agree=$((agree + 1))
		row "$name" import "$kv" "$iv" "$v"
	fi
	row "$name" time "$(field "$k" insn)insn" "$(field "$c" ms)ms" reported
done
echo "oracle: $agree of $total agree"
