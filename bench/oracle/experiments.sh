# The options compare.sh and counters.sh share, and the experiments they
# set cmasim beside: those named, else every scenario with a guest's
# results. Sourced after setting here, top and out (the default DIR):
#   [-r RESULTS] [-s SCENARIOS] [-o DIR] [-c CMASIM] [EXP...]
# leaves results, scenarios, out and cmasim set and the experiments as
# the positional parameters; exits 2 on a bad option or none to compare.
results=$here/results
scenarios=$here/scenarios
cmasim=$top/build/cmasim

usage() {
	echo "usage: $0 [-r RESULTS] [-s SCENARIOS] [-o DIR] [-c CMASIM] [EXP...]" >&2
	exit 2
}

while getopts r:s:o:c: opt; do
	case $opt in
	r) results=$OPTARG ;;
	s) scenarios=$OPTARG ;;
	o) out=$OPTARG ;;
	c) cmasim=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	for s in "$scenarios"/*.ini; do
		n=$(basename "$s" .ini)
		[ -d "$results/$n" ] && set -- "$@" "$n"
	done
fi
[ $# -gt 0 ] || { echo "$0: no experiment has both a scenario and results" >&2; exit 2; }
