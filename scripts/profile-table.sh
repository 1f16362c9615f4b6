#!/bin/sh
# The profile table with its sources: one Markdown row per switch of
# struct kernel_profile (src/mm/profile.h), in its order, with the
# release src/mm/profile.c gives it and the commits its comment's
# "Commit:" sentence names, an id followed by the subject the comment
# gives it beside that id. Other ids in a comment are evidence for the
# date and never reach the table. Fails, naming the switch, when a
# comment has no "Commit:" sentence or more than one, or profile.c no
# release. tests/golden/profile-table.md is its output
# (test_profile_dates).
# Usage: scripts/profile-table.sh [SOURCE_DIR]
set -eu
src=${1:-$(dirname "$0")/..}
awk '
BEGIN { hex = "[0-9a-f]"; id12 = hex hex hex hex hex hex hex hex hex hex hex hex }
FNR == NR {
	if (match($0, /SWITCH\([a-z_0-9]+, [0-9]+, [0-9]+\)/)) {
		s = substr($0, RSTART + 7, RLENGTH - 8)
		split(s, f, ", ")
		release[f[1]] = f[2] "." f[3]
	}
	next
}
/^struct kernel_profile \{/ { inside = 1; next }
inside && /^\};/ { inside = 0 }
!inside { next }
/^\t\/\*$/ { text = ""; commits = ""; count = 0; incommit = 0; next }
/^\t \* / {
	line = substr($0, 5)
	if (line ~ /^Commit: /) {
		count++
		incommit = 1
		line = substr(line, 9)
	}
	if (incommit)
		commits = commits (commits == "" ? "" : " ") line
	else
		text = text " " line
	next
}
/^\tbool [a-z_0-9]+;$/ {
	name = $2
	sub(/;/, "", name)
	if (count != 1) {
		printf "profile-table.sh: %s: %d \"Commit:\" sentences, not one\n", name, count > "/dev/stderr"
		bad = 1
		next
	}
	if (!(name in release)) {
		printf "profile-table.sh: %s: no SWITCH() in profile.c\n", name > "/dev/stderr"
		bad = 1
		next
	}
	sub(/\.$/, "", commits)
	out = ""
	rest = commits
	while (match(rest, id12)) {
		id = substr(rest, RSTART, RLENGTH)
		out = out substr(rest, 1, RSTART + RLENGTH - 1)
		rest = substr(rest, RSTART + RLENGTH)
		if (match(text, id " \"[^\"]+\""))
			out = out substr(text, RSTART + 12, RLENGTH - 12)
	}
	if (!header++)
		print "| switch | from | commits |\n|---|---|---|"
	printf "| `%s` | %s | %s |\n", name, release[name], out rest
}
END { exit bad }
' "$src/src/mm/profile.c" "$src/src/mm/profile.h"
