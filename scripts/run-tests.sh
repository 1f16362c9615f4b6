#!/bin/sh
# Run every test binary given; print a count of what passed and failed.
# Each test's standard output is shown as it runs; its standard error (the
# error lines its negative cases provoke on purpose: the library's
# KERN_ERR lines, refused inputs) goes with its output to NAME.log beside
# the binary, and that log is printed only when the test fails. (The tests
# write their output line by line, so the two keep their order there; no
# stdbuf, whose preload a sanitizer build refuses.)
pass=0; fail=0; failed=""
exec 4>&1
for t in "$@"; do
	log="$t.log"
	: >"$log"
	# the test's status through fd 3, its output through tee to the log and fd 4
	status=$( { { "$t" 2>>"$log"; echo $? >&3; } | tee -a "$log" >&4; } 3>&1 )
	if [ "$status" -eq 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); failed="$failed ${t##*/}"
		echo "---- ${t##*/} failed (exit $status); its log, $log: ----"
		cat "$log"
		echo "---- end of $log ----"
	fi
done
echo "test programs: $pass passed, $fail failed${failed:+ ($failed )}"
[ "$fail" -eq 0 ]
