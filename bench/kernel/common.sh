# Shared by the scripts here (sourced, from bench/kernel/, where they cd):
# the vmstat counters a measurement reports, and the anonymous background
# hold.c keeps. The caller sets $work (a scratch directory holding the
# compiled $work/hold) and kills $bg on exit.

# from_caller PATH: PATH as the caller meant it, before the script's cd
# (the scripts set caller_dir=$(pwd) first)
from_caller() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$caller_dir/$1" ;;
	esac
}

vmstat_keys="pgmigrate_success pgmigrate_fail compact_stall compact_fail compact_success compact_migrate_scanned compact_free_scanned compact_isolated pgscan_direct pgsteal_direct"

# vmstat_save FILE: the counters measurements report
vmstat_save() {
	awk -v keys="$vmstat_keys" 'BEGIN { n = split(keys, k); for (i = 1; i <= n; i++) want[k[i]] = 1 }
		$1 in want { print $1, $2 }' /proc/vmstat > "$1"
}

# vmstat_state: " key=value" for the gauges that describe the machine a
# write meets (the file pages, how many are dirty or under writeback)
vmstat_state() {
	awk '$1 ~ /^nr_(free_pages|file_pages|dirty|writeback|dirty_background_threshold)$/ {
		printf " %s=%d", $1, $2 }' /proc/vmstat
}

# vmstat_delta BEFORE AFTER: " key=delta" for each counter
vmstat_delta() {
	awk 'NR == FNR { before[$1] = $2; next }
		{ printf " %s=%d", $1, $2 - before[$1] }' "$1" "$2"
}

# hold_start MIB [fragment]: hold.c in the background, once its memory is in place
hold_start() {
	"$work/hold" "$1" ${2:-} > "$work/ready" &
	bg=$!
	while ! grep -q ready "$work/ready" 2>/dev/null; do
		kill -0 $bg 2>/dev/null || { echo "$0: the background could not hold $1 MiB" >&2; exit 1; }
		sleep 0.2
	done
}

hold_stop() {
	[ -n "$bg" ] && kill $bg 2>/dev/null && wait $bg 2>/dev/null
	bg=""
}

# micro_measure NAME REPEATS FILE: build NAME.c, run it with REPEATS and
# keep what it prints in FILE, between the machine's description and load
micro_measure() {
	bin=$(mktemp /tmp/"$1".XXXXXX) || return 1
	cc -O2 -pthread -o "$bin" "$1.c" || { rm -f "$bin"; return 1; }
	{
		printf '# %s, %s UTC, repeats=%s (each figure the median)\n# uname: %s\n' \
			"$1" "$(date -u '+%Y-%m-%d %H:%M')" "$2" "$(uname -srm)"
		lscpu | sed -n 's/^\(Model name\|CPU(s)\|Hypervisor vendor\|BogoMIPS\):[ ]*/# \1: /p'
		echo "# load: $(uptime)"
		"$bin" "$2"
	} > "$bin.out" && mkdir -p "$(dirname "$3")" && mv "$bin.out" "$3" && cat "$3"
	rm -f "$bin" "$bin.out"
}
