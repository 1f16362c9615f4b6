#!/bin/sh
# Run every test binary given; print a count of what passed and failed.
pass=0; fail=0; failed=""
for t in "$@"; do
	if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed ${t##*/}"; fi
done
echo "test programs: $pass passed, $fail failed${failed:+ ($failed )}"
[ "$fail" -eq 0 ]
