# counters.sh's core: one experiment's vmstat counters, the guest's beside
# cmasim's. Input: the four /proc/vmstat copies, each line prefixed with
# its copy, "gb " and "ga " (the guest before and after), "cb " and "ca "
# (cmasim before and after); a missing "before" counts as 0. Variables
# experiment and span name the experiment and its span. Output, a row per
# counter:
#
#   experiment  counter  span  guest  cmasim  ratio  verdict
#
# guest and cmasim are after minus before, except nr_free_pages and
# nr_free_cma: their values after. ratio is cmasim/guest ("-" for 0/0,
# "inf" for n/0). verdict: "agree" (within 10% of the guest's, both 0
# included), "disagree", or "absent" when cmasim's vmstat has no such
# line (a counter the model does not keep). "allocstall" is 6.12's
# allocstall_* summed; an item ending in "_" stands for every counter of
# the guest's (then cmasim's) named so, each on its row.
BEGIN {
	nitems = split("pgmigrate_success pgmigrate_fail compact_stall compact_fail " \
		"compact_success compact_migrate_scanned compact_free_scanned " \
		"allocstall pgscan_direct pgscan_kswapd pgscan_anon pgscan_file pgsteal_ pswpin pswpout " \
		"pgmajfault pgpgin pgpgout nr_dirtied nr_written workingset_refault_ thp_ nr_free_pages nr_free_cma", item, " ")
}
NF == 3 && $3 ~ /^-?[0-9]+$/ {
	v[$1, $2] = $3
	if (!(($1, $2) in seen)) {
		seen[$1, $2] = 1
		names[$1] = names[$1] " " $2
	}
	if ($2 ~ /^allocstall_/) {
		v[$1, "allocstall"] += $3
		seen[$1, "allocstall"] = 1
	}
}
# value COPY NAME: the counter in COPY, 0 when COPY lacks it
function value(copy, name) {
	return ((copy, name) in v) ? v[copy, name] : 0
}
function row(name,   g, c, at_end, ratio, verdict, d) {
	at_end = name == "nr_free_pages" || name == "nr_free_cma"
	g = value("ga", name) - (at_end ? 0 : value("gb", name))
	if (!(("ca", name) in seen)) {
		c = "-"; ratio = "-"; verdict = "absent"
	} else {
		c = value("ca", name) - (at_end ? 0 : value("cb", name))
		if (g == 0)
			ratio = c == 0 ? "-" : "inf"
		else
			ratio = sprintf("%.2f", c / g)
		d = c - g
		if (d < 0)
			d = -d
		verdict = d * 10 <= (g < 0 ? -g : g) ? "agree" : "disagree"
	}
	printf "%-20s %-32s %-5s %10s %10s %6s %s\n", experiment, name, span, g, c, ratio, verdict
}
# expand PREFIX: every counter named PREFIX..., the guest's order first
function expand(prefix,   copies, k, n, i, list, done) {
	split("ga ca", copies, " ")
	for (k = 1; k <= 2; k++) {
		n = split(names[copies[k]], list, " ")
		for (i = 1; i <= n; i++)
			if (index(list[i], prefix) == 1 && !(list[i] in done)) {
				done[list[i]] = 1
				row(list[i])
			}
	}
}
END {
	for (i = 1; i <= nitems; i++) {
		if (item[i] ~ /_$/)
			expand(item[i])
		else if (("ga", item[i]) in seen || ("ca", item[i]) in seen)
			row(item[i])
	}
}
