#!/bin/sh
# Run every test binary given, TEST_JOBS at a time (default: one per CPU),
# the longest first by their last run's time (NAME.ms beside the binary).
# A line says when each starts; when it ends, its standard output is
# printed whole, then a line with its name, its counts (cmocka's tests
# passed, failed and skipped) and its seconds. While programs run, a line
# every 8 s names each with its time so far and the last line it printed,
# so that no step is silent. Each program's standard error (the error
# lines its negative cases provoke on purpose: the library's KERN_ERR
# lines, refused inputs) goes with its output to NAME.log beside the
# binary, and that log is printed only when it fails. (The tests write
# their output line by line, so the two keep their order there; no
# stdbuf, whose preload a sanitizer build refuses.) The last line counts
# the programs that passed and failed.
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || { echo "run-tests.sh: TEST_JOBS must be a number of programs, 1 or more, not '$jobs'" >&2; exit 2; }
state=$(mktemp -d "${TMPDIR:-/tmp}/run-tests.XXXXXX") || exit 1
pass=0; fail=0; failed=""; running=""; began=$(date +%s%3N); said=$began

# "S.s": milliseconds as seconds
secs() { echo "$(($1 / 1000)).$(($1 % 1000 / 100))"; }

# the programs, longest first: a program never timed counts as longest
by_time() {
	for t; do
		ms=999999999
		[ -r "$t.ms" ] && read -r ms <"$t.ms"
		echo "$ms $t"
	done | sort -s -k1,1nr | cut -d' ' -f2-
}

# cmocka's summary lines (on standard error, so in the log)
counts() {
	awk '/^\[  PASSED  \] [0-9]+ test/ { p += $4 } /^\[  FAILED  \] [0-9]+ test/ { f += $4 }
	     /^\[  SKIPPED \] [0-9]+ test/ { s += $4 }
	     END { if (p + f + s) printf "%d passed, %d failed, %d skipped", p, f, s; else printf "no cmocka summary" }' "$1"
}

# Start program $1 as job $2. In the background a shell ignores SIGINT and
# SIGQUIT; env gives the test their default actions back, as in the foreground.
launch() {
	: >"$1.log"
	(
		{ env --default-signal=INT,QUIT "$1" 2>>"$1.log" &
		  echo $! >"$state/$2.pid"
		  wait $!; echo $? >"$state/$2.rc"; } | tee -a "$1.log" >"$1.out"
		# renamed into place: the loop below must never read it half-written
		date +%s%3N >"$state/$2.end.new" && mv "$state/$2.end.new" "$state/$2.end"
	) &
	eval "name_$2=\$1 start_$2=\$(date +%s%3N)"
	running="$running $2"
	echo "---- ${1##*/}: started"
	said=$(date +%s%3N)
}

# Job $1 has ended: its output, its counts and time, its log if it failed.
finish() {
	eval "t=\$name_$1 start=\$start_$1"
	read -r end <"$state/$1.end"
	read -r status <"$state/$1.rc"
	ms=$((end - start))
	running=$(echo "$running" | sed "s/ $1\b//")
	echo "$ms" >"$t.ms"
	if [ "$status" -eq 0 ]; then
		pass=$((pass + 1))
		[ -s "$t.out" ] && { echo "---- ${t##*/}: output"; cat "$t.out"; }
		echo "---- ${t##*/}: ok, $(counts "$t.log"), $(secs "$ms") s"
	else
		fail=$((fail + 1)); failed="$failed ${t##*/}"
		echo "---- ${t##*/} failed (exit $status): its log, $t.log:"
		cat "$t.log"
		echo "---- ${t##*/} FAILED (exit $status), $(counts "$t.log"), $(secs "$ms") s"
	fi
	said=$(date +%s%3N)
}

# what each running program printed last, and for how long it has run
heartbeat() {
	for k in $running; do
		eval "t=\$name_$k start=\$start_$k"
		echo "---- ${t##*/}: running, $(secs $(($1 - start))) s; last: $(tail -n 1 "$t.out" | cut -c1-100)"
	done
	said=$1
}

# stopped: stop the programs running too
stop() {
	for k in $running; do
		[ -r "$state/$k.pid" ] && kill "$(cat "$state/$k.pid")"
	done 2>/dev/null
	exit 130
}
trap 'rm -rf "$state"' EXIT
trap stop INT TERM

set -- $(by_time "$@")
while [ $# -gt 0 ] || [ -n "$running" ]; do
	while [ $# -gt 0 ] && [ "$(echo $running | wc -w)" -lt "$jobs" ]; do
		launch "$1" "$#"
		shift
	done
	sleep 0.25
	for k in $running; do
		[ -f "$state/$k.end" ] && finish "$k"
	done
	now=$(date +%s%3N)
	[ $((now - said)) -ge 8000 ] && heartbeat "$now"
done
echo "test programs: $pass passed, $fail failed${failed:+ ($failed )}; $(secs $(($(date +%s%3N) - began))) s"
[ "$fail" -eq 0 ]
