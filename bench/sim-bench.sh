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
	jq -r '.duration_s as $d | .runs[0] | [.host.events_per_second, .host.seconds, $d / .host.seconds, .events] | @tsv' "$out" |
	while IFS='	' read -r eps secs ratio events; do
		case "$1" in
		sim_events*) printf '%-26s %10.1f %-10s  %-15s %5.2f   (%s, %s events in %.2f s)\n' \
			"$1" "$eps" "events/s" "sim/host" "$ratio" "$4" "$events" "$secs" ;;
		*) printf '%-26s %10.1f %-10s  %-15s %5.2f   (%s, %s events)\n' \
			"$1" "$secs" "s host" "sim/host" "$ratio" "$4" "$events" ;;
		esac
	done
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
