#!/bin/sh
# cmasim's figures, in cmabench's format: simulated events per second of
# host time on the default scenario, and the host time of a ten-minute
# simulated run on a 4 GiB machine (x86-4g; --quick simulates its first
# minute). The reference of each ratio is the run itself: simulated
# seconds per host second (above 1: faster than the board would be).
#   bench/sim-bench.sh CMASIM [--quick] [FILTER]
set -eu
sim=$1
shift
quick=""; filter=""
for a in "$@"; do
	case "$a" in
	--quick) quick=yes ;;
	-*) ;;
	*) filter=$a ;;
	esac
done

selected() { [ -z "$filter" ] || case "$1" in *"$filter"*) true ;; *) false ;; esac; }

# figure scenario duration-arg note
figure() {
	out=$(mktemp)
	"$sim" run --scenario "$2" $3 --report json --output "$out" >/dev/null 2>&1 || {
		echo "$1: cmasim run --scenario $2 failed" >&2; rm -f "$out"; return 1; }
	jq -r --arg f "$1" --arg note "$4" '
		.duration_s as $d | .runs[0] as $r |
		if $f | startswith("sim_events") then
			"\($f | .[0:24] | . + " " * (24 - length)) \($r.host.events_per_second | . * 10 | round / 10 | tostring | " " * (10 - length) + .) events/s    sim/host        \($d / $r.host.seconds | . * 100 | round / 100)   (\($note), \($r.events) events in \($r.host.seconds | . * 100 | round / 100) s)"
		else
			"\($f | .[0:24] | . + " " * (24 - length)) \($r.host.seconds | . * 10 | round / 10 | tostring | " " * (10 - length) + .) s host      sim/host        \($d / $r.host.seconds | . * 100 | round / 100)   (\($note), \($r.events) events)"
		end' "$out"
	rm -f "$out"
}

if selected sim_events_per_s; then
	figure sim_events_per_s camera-browser "" "camera-browser, policy cma, 60 s simulated"
fi
if selected sim_x86_4g_10min; then
	if [ -n "$quick" ]; then
		figure sim_x86_4g_1min x86-4g "--duration 60s" "x86-4g, 4 GiB, first minute only (--quick)"
	else
		figure sim_x86_4g_10min x86-4g "" "x86-4g, 4 GiB, 10 min simulated"
	fi
fi
