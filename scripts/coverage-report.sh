#!/bin/sh
# Summarize the coverage of src/ that a --coverage run left in DIR (the
# .gcda files): line and branch totals, the least-covered files, and the
# reports DIR/lines.txt, DIR/branches.txt and DIR/coverage.html.
#   scripts/coverage-report.sh DIR
set -e
dir=$1
gcovr --root . --filter 'src/' --exclude-unreachable-branches \
	--json "$dir/coverage.json" "$dir"
gcovr --root . --add-tracefile "$dir/coverage.json" --print-summary --sort-percentage \
	--txt "$dir/lines.txt" --html-details "$dir/coverage.html"
gcovr --root . --add-tracefile "$dir/coverage.json" --branches --sort-percentage \
	--txt "$dir/branches.txt"
echo "least-covered files (lines, then branches):"
# the reports list the least-covered last; files with no branches say "--%"
grep '^src/' "$dir/lines.txt" | awk '$2 > 0' | tail -n 5 |
	awk '{ printf "  lines    %-28s %5s of %5s  %s\n", $1, $3, $2, $4 }'
grep '^src/' "$dir/branches.txt" | awk '$2 > 0' | tail -n 5 |
	awk '{ printf "  branches %-28s %5s of %5s  %s\n", $1, $3, $2, $4 }'
echo "reports: $dir/lines.txt, $dir/branches.txt, $dir/coverage.html"
