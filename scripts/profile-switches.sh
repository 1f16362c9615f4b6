#!/bin/sh
# The profile switches each function of the library reads: a switch is a
# bool of struct kernel_profile (src/mm/profile.h), read as kernel.NAME
# (mm->kernel.NAME, &zone->mm->kernel) or through a local
# "struct kernel_profile *k" as k->NAME; comments do not count. Inline
# functions of the headers count as well.
# A function that reads three or more is split into era variants
# (alloc_contig_range_v35/_v6, compact_zone_v35/_v316), and
# scripts/check-layers.sh fails on one.
# Usage: scripts/profile-switches.sh [MIN]: "N file:line function switches..."
# for each function reading at least MIN (default 1), most first.
set -eu
min=${1:-1}
awk -v min="$min" '
function read_switch(f) {
	if ((f in sw) && !(f in seen)) { seen[f] = 1; n++; names = names " " f }
}
FNR == NR {
	if (/^struct kernel_profile \{/) inside = 1
	else if (inside && /^\};/) inside = 0
	else if (inside && /^\tbool [a-z_0-9]+;/) { s = $2; sub(/;/, "", s); sw[s] = 1 }
	next
}
FNR == 1 { fn = ""; body = 0; incomment = 0 }
# a function: its signature from column 0, then "{" alone at column 0
/^[a-z_].*[a-z_0-9]\(/ && !body {
	fn = $0; sub(/\(.*/, "", fn); sub(/.*[^a-z_0-9]/, "", fn)
	start = FNR; n = 0; names = ""; split("", seen); split("", ptr)
}
fn != "" && !body && /;[ \t]*$/ { fn = "" }	# a declaration
fn != "" && /^\{/ { body = 1 }
fn != "" {
	code = $0
	if (incomment) {
		if (sub(/.*\*\//, "", code)) incomment = 0
		else code = ""
	}
	gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, "", code)
	if (sub(/\/\*.*/, "", code)) incomment = 1
	line = code
	while (match(line, /struct kernel_profile \*[a-z_0-9]+/)) {
		v = substr(line, RSTART, RLENGTH); sub(/.*\*/, "", v); ptr[v] = 1
		line = substr(line, RSTART + RLENGTH)
	}
	line = code
	while (match(line, /kernel\.[a-z_0-9]+/)) {
		read_switch(substr(line, RSTART + 7, RLENGTH - 7))
		line = substr(line, RSTART + RLENGTH)
	}
	line = code
	while (match(line, /[a-z_0-9]+->[a-z_0-9]+/)) {
		t = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
		v = t; sub(/->.*/, "", v); sub(/.*->/, "", t)
		if (v in ptr) read_switch(t)
	}
}
fn != "" && body && /^}/ {
	if (n >= min) print n, FILENAME ":" start, fn names
	fn = ""
	body = 0
}
' src/mm/profile.h src/*/*.h src/*/*.c | sort -k1,1nr -k2,2
