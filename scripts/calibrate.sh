#!/bin/sh
# make calibrate: hold cmasim's predictions against measured figures. Each
# row of the anchor table (calib/anchors.tsv; its format is in
# calib/README.md) names a measured value, the scenario that reproduces
# the measurement and the field of cmasim's JSON report that predicts it.
# Prints one line per anchor (anchor, half, measured, predicted, ratio),
# then the two halves' counts ("calibration: fit half N of M within 2x;
# test half N of M within 2x") and as its last line "calibration: N of M
# anchors within 2x"; exits 1 when an anchor is outside 2x (or its run
# failed), 2 when the table is wrong.
#
#   scripts/calibrate.sh [--short] [--table FILE] CMASIM
#
# --short runs only the rows marked short (CI's bench step).
set -u
table=calib/anchors.tsv
short=""
sim=""
while [ $# -gt 0 ]; do
	case $1 in
	--short) short=yes ;;
	--table) table=$2; shift ;;
	-*) echo "calibrate: unknown option $1 (accepted: --short, --table FILE)" >&2; exit 2 ;;
	*) sim=$1 ;;
	esac
	shift
done
if [ -z "$sim" ] || [ ! -x "$sim" ]; then
	echo "usage: scripts/calibrate.sh [--short] [--table FILE] CMASIM (the cmasim binary)" >&2
	exit 2
fi
if [ ! -r "$table" ]; then
	echo "calibrate: cannot read the anchor table $table" >&2
	exit 2
fi
dir=$(dirname "$table")
work=$(mktemp -d /tmp/calibrate.XXXXXX)
trap 'rm -rf "$work"' EXIT

# the table's rows, checked: NAME MEASURED UNIT SCENARIO FIELD SHORT HALF, tab-separated
if ! awk -F '\t' -v table="$table" '
	/^[ \t]*(#|$)/ { next }
	NF != 7 { printf "calibrate: %s:%d: %d fields, expected 7 tab-separated: anchor, measured, unit, scenario, field, short, half\n", table, NR, NF > "/dev/stderr"; bad = 1; next }
	$2 !~ /^[0-9]+(\.[0-9]+)?$/ || $2 + 0 <= 0 { printf "calibrate: %s:%d: measured \"%s\" is not a number above 0\n", table, NR, $2 > "/dev/stderr"; bad = 1; next }
	$6 != "yes" && $6 != "no" { printf "calibrate: %s:%d: short \"%s\": yes or no\n", table, NR, $6 > "/dev/stderr"; bad = 1; next }
	$7 != "fit" && $7 != "test" { printf "calibrate: %s:%d: half \"%s\": fit or test\n", table, NR, $7 > "/dev/stderr"; bad = 1; next }
	$1 in seen { printf "calibrate: %s:%d: anchor %s named twice\n", table, NR, $1 > "/dev/stderr"; bad = 1; next }
	{ seen[$1] = 1; print }
	END { exit bad }' "$table" > "$work/rows"; then
	exit 2
fi

# value JSON FIELD: the field, a dot path from the run (runs[0]) in which a
# segment picks a list's element by its "name" (or its index)
value() {
	jq -r --arg path "$2" '
		reduce ($path | split(".")[]) as $s (.runs[0];
			if . == null then null
			elif type == "array" then
				(if ($s | test("^[0-9]+$")) then .[$s | tonumber]
				 else (map(select(.name == $s)) | .[0]) end)
			else .[$s] end)
		| if type == "number" then . else empty end' "$1"
}

n=0; ok=0; n_fit=0; ok_fit=0
printf '%-34s %-4s %16s %16s %7s\n' anchor half measured predicted ratio
while IFS='	' read -r name measured unit scenario field is_short half; do
	[ -n "$short" ] && [ "$is_short" != yes ] && continue
	n=$((n + 1))
	[ "$half" = fit ] && n_fit=$((n_fit + 1))
	json="$work/$(echo "$scenario" | tr '/' '_').json"
	if [ ! -s "$json" ] && ! "$sim" run --scenario "$dir/$scenario" --report json --output "$json" </dev/null \
			>/dev/null 2>"$work/err"; then
		printf '%-34s %-4s %11s %-4s %16s %7s  run failed: %s\n' "$name" "$half" "$measured" "$unit" - - \
			"$(head -n 1 "$work/err")"
		rm -f "$json"
		continue
	fi
	predicted=$(value "$json" "$field")
	if [ -z "$predicted" ]; then
		printf '%-34s %-4s %11s %-4s %16s %7s  no number at %s in the report of %s\n' "$name" "$half" "$measured" \
			"$unit" - - "$field" "$scenario"
		continue
	fi
	verdict=$(awk -v m="$measured" -v p="$predicted" 'BEGIN {
		r = p / m
		printf "%.2f %s", r, (r >= 0.5 && r <= 2) ? "ok" : "OUTSIDE-2x" }')
	ratio=${verdict% *}
	[ "${verdict#* }" = ok ] && ok=$((ok + 1)) && [ "$half" = fit ] && ok_fit=$((ok_fit + 1))
	printf '%-34s %-4s %11s %-4s %11s %-4s %7s%s\n' "$name" "$half" "$measured" "$unit" "$predicted" "$unit" "$ratio" \
		"$([ "${verdict#* }" = ok ] || echo '  outside 2x')"
done < "$work/rows"
echo "calibration: fit half $ok_fit of $n_fit within 2x; test half $((ok - ok_fit)) of $((n - n_fit)) within 2x"
echo "calibration: $ok of $n anchors within 2x"
[ "$ok" -eq "$n" ]
