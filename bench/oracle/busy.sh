#!/bin/sh
# Per request of a results directory's nr_hugepages writes: what the busy
# ranges cost each one (figures.sh sums them over the experiment).
#
#   bench/oracle/busy.sh RUN...
#
# RUN is results/NAME (or results-spread/NAME/run-K; its trace.txt, or
# trace.txt.xz as results-writer/ keeps them). A line per write:
#
#   req I  ns=N (the write's guest ns: instructions under -icount
#   shift=0)  cma=0xPFN|fail  busy=B (cma_alloc_busy_retry)  migrated=M
#   failed=F (mm_migrate_pages nr_succeeded, nr_failed, reason
#   contig_range)  isolate_fail=K (test_pages_isolated ret=fail)
#
# then a summary line: writes, busy retries, migrated, failed, and the
# writes' ns (mean, median, max, the sum), and the same for the writes
# that met a busy range. The k-th write is the k-th process that traced a
# cma_alloc_start (each write is a process of its own: init.sh runs
# oracle-helper per write); events of other tasks (the writer, kworkers,
# compaction) are not counted.
set -eu
for run in "$@"; do
	echo "== $run"
	if [ -f "$run/trace.txt" ]; then
		cat "$run/trace.txt"
	else
		xz -dc "$run/trace.txt.xz"
	fi | awk '
	FNR == 1 { file++ }
	file == 1 && /^write / { for (i = 1; i <= NF; i++) if ($i ~ /^ns=/) { split($i, a, "="); ns[++nw] = a[2] } next }
	file == 2 {
		task = $1
		if (/cma_alloc_start:/ && !(task in req)) { req[task] = ++nr }
		if (!(task in req)) next
		k = req[task]
		if (/cma_alloc_finish:/) {
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^pfn=/) { split($i, a, "="); p = a[2] }
				if ($i ~ /^errorno=/) { split($i, a, "="); e = a[2] }
			}
			cma[k] = e == 0 ? p : "fail"
		}
		if (/cma_alloc_busy_retry:/) busy[k]++
		if (/mm_migrate_pages:/ && /reason=contig_range/)
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^nr_succeeded=/) { split($i, a, "="); mig[k] += a[2] }
				if ($i ~ /^nr_failed=/) { split($i, a, "="); fail[k] += a[2] }
			}
		if (/test_pages_isolated:/ && /ret=fail/) iso[k]++
	}
	END {
		for (k = 1; k <= nw; k++) {
			printf "req %d ns=%.0f cma=%s busy=%d migrated=%d failed=%d isolate_fail=%d\n", k, ns[k],
				(k in cma) ? cma[k] : "-", busy[k], mig[k], fail[k], iso[k]
			tb += busy[k]; tm += mig[k]; tf += fail[k]; s += ns[k]; v[k] = ns[k]
			if (ns[k] > mx) mx = ns[k]
			if (busy[k]) { nb++; sb += ns[k]; if (ns[k] > mxb) mxb = ns[k] }
		}
		# median: insertion sort of the few writes
		for (i = 2; i <= nw; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		med = nw ? (nw % 2 ? v[(nw + 1) / 2] : (v[nw / 2] + v[nw / 2 + 1]) / 2) : 0
		printf "total writes=%d busy_retries=%d migrated=%d failed=%d ns_mean=%.0f ns_median=%.0f ns_max=%.0f ns_sum=%.0f\n",
			nw, tb, tm, tf, nw ? s / nw : 0, med, mx, s
		printf "busy writes=%d ns_mean=%.0f ns_max=%.0f\n", nb, nb ? sb / nb : 0, mxb
	}' "$run/alloc.txt" -
done
