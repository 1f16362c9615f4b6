#!/bin/sh
# Smoke-run libFuzzer targets: replay each target's regression inputs, then
# fuzz it for a bounded time from its checked-in seeds. A crash, a leak, a
# timeout or a failed check is a finding: its input is kept in
# build-fuzz/artifacts/<target>/ and replayed once more with the machine's
# report visible. Prints one line per target and a count at the end.
#   fuzz/smoke.sh SECONDS build-fuzz/fuzz_x ...
set -u
seconds=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
pass=0; fail=0; failed=""
for bin in "$@"; do
	t=${bin##*/}
	work=$root/build-fuzz/work/$t
	art=$root/build-fuzz/artifacts/$t
	log=$root/build-fuzz/$t.log
	mkdir -p "$work" "$art"
	status=ok
	reg=$root/fuzz/regressions/$t
	bad=""
	: >"$log.regressions"
	for r in "$reg"/*; do
		[ -f "$r" ] && [ "${r##*/}" != README.md ] || continue
		if ! out=$("$bin" -runs=1 "$r" 2>&1); then
			bad="$bad ${r##*/}"
			echo "---- $t: regression ${r##*/} still fails:"
			echo "$out" | grep -m 1 -E 'FAILED|runtime error|ERROR:'
		fi
		echo "$out" >>"$log.regressions"
	done
	[ -z "$bad" ] || status="regression inputs fail:$bad (log $log.regressions)"
	if [ "$status" = ok ]; then
		# -close_fd_mask=3: the library's error lines would flood the log;
		# libFuzzer and the harness report on their own copy of stderr.
		"$bin" "$work" "$root/fuzz/corpus/$t" -max_total_time="$seconds" -max_len=4096 -timeout=25 \
			-rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 \
			-artifact_prefix="$art/" >"$log" 2>&1
		rc=$?
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
		if [ $rc -ne 0 ]; then
			crash=$(ls -t "$art"/* 2>/dev/null | head -n 1)
			status="FINDING (exit $rc), input ${crash:-unknown}, log $log"
			if [ -n "$crash" ]; then
				echo "---- $t: replaying $crash ----"
				"$bin" "$crash" 2>&1 | tail -n 80
			fi
		fi
	fi
	if [ "$status" = ok ]; then
		pass=$((pass + 1))
		echo "fuzz-smoke: $t: ok, ${runs:-?} inputs in ${seconds}s"
	else
		fail=$((fail + 1))
		failed="$failed $t"
		echo "fuzz-smoke: $t: $status"
	fi
done
echo "fuzz targets: $pass passed, $fail failed${failed:+ ($failed )}"
[ "$fail" -eq 0 ]
