#!/bin/sh
# The guest's vmstat counters against cmasim's (issue 30 §6): for each
# experiment with a scenario, what the kernel counted over the allocation
# (results/NAME/after/vmstat less before/vmstat: init.sh copies them just
# before and just after the nr_hugepages writes, the workload already
# running) beside what cmasim counted over the same span of its run of
# scenarios/NAME.ini, a row per counter (counters.awk says which and how):
#
#   experiment  counter  span  guest  cmasim  ratio  verdict
#
# then a line per experiment and the total. cmasim's span: two runs of
# the scenario, stopped 1 ms before its first [hugetlb] or [device] section
# starts and 1 ms after its last one starts (--duration, --dump vmstat).
# The model does each nr_hugepages write, or a device's requests, whole at
# the instant it starts, and the guest's "after" follows its last write at
# once: what the workloads do later (a reader faulting back what the
# allocation dropped, kswapd woken by it) is in neither span. With a start
# of 0s there is no first run: the counters are then the boot's, 0 for
# these. span "alloc" is that; span "boot" an experiment without alloc=
# (a module's, which allocates when init.sh reads the experiment, before
# the workload and before "before"): the guest's after/vmstat since boot
# against cmasim's whole run. No guest is booted.
#
#   bench/oracle/counters.sh [-r RESULTS] [-s SCENARIOS] [-o DIR] [-c CMASIM] [EXP...]
#
# EXP defaults to every scenario with a guest run; cmasim's dumps go to
# DIR/NAME/ (default build/oracle/counters). Exit 0 whatever the
# verdicts; 2 when a comparison cannot run.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/build/oracle/counters
. "$here/experiments.sh"

# alloc_starts_ms SCENARIO: when its first and its last [hugetlb] or
# [device] sections start, in ms (cmasim's units: us, ms, s, m, h)
alloc_starts_ms() {
	awk '
	/^\[/ { alloc = $0 ~ /^\[(hugetlb|device)[] ]/ }
	alloc && /^start *=/ {
		t = $0; sub(/^start *= */, "", t)
		n = t + 0; u = t; sub(/^[0-9.]+/, "", u)
		ms = n * (u == "us" ? 0.001 : u == "ms" ? 1 : u == "s" ? 1000 : u == "m" ? 60000 : 3600000)
		if (min == "" || ms < min) min = ms
		if (max == "" || ms > max) max = ms
	}
	END { if (min != "") printf "%d %d\n", min, max }' "$1"
}

# write_ms SCENARIO: how long cmasim's last [hugetlb] write takes, in
# whole ms rounded up (0 if none): the guest's after/ snapshot follows it
write_ms() {
	"$cmasim" run --scenario "$1" --report json --output "$2" > /dev/null 2>&1 || { echo 0; return; }
	python3 -c '
import json, math, sys
ms = [w["hugetlb"]["write_ms"] for r in json.load(open(sys.argv[1]))["runs"][:1]
      for w in r["workloads"] if "hugetlb" in w]
print(math.ceil(ms[-1]) if ms else 0)' "$2"
}

# sim_vmstat SCENARIO FILE [--duration T]: cmasim's /proc/vmstat at the
# end of its run into FILE
sim_vmstat() {
	s=$1 f=$2
	shift 2
	if ! "$cmasim" run --scenario "$s" --dump vmstat "$@" > "$f.report" 2> "$f.stderr"; then
		echo "$0: cmasim refused $s:" >&2
		cat "$f.stderr" >&2
		exit 2
	fi
	sed -n '/^==> \/proc\/vmstat/,/^$/p' "$f.report" | sed '1d;/^$/d' > "$f"
}

# prefixed TAG FILE: FILE's lines behind TAG, nothing if FILE is absent
prefixed() {
	[ -f "$2" ] && sed "s/^/$1 /" "$2" || true
}

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for name in "$@"; do
	r=$results/$name s=$scenarios/$name.ini d=$out/$name
	[ -f "$r/after/vmstat" ] || { echo "$0: no guest vmstat for $name in $results" >&2; exit 2; }
	[ -f "$s" ] || { echo "$0: no scenario $s" >&2; exit 2; }
	mkdir -p "$d"
	rm -f "$d/before" "$d/after"
	if grep -q '^alloc=' "$r/experiment"; then
		span=alloc gb=$r/before/vmstat
		starts=$(alloc_starts_ms "$s")
		[ -n "$starts" ] || { echo "$0: $s has no [hugetlb] or [device] section" >&2; exit 2; }
		first=${starts% *} last=${starts#* }
		[ "$first" -gt 1 ] && sim_vmstat "$s" "$d/before" --duration "$((first - 1))ms"
		sim_vmstat "$s" "$d/after" --duration "$((last + $(write_ms "$s" "$d/run.json") + 1))ms"
	else
		span=boot gb=/nonexistent
		sim_vmstat "$s" "$d/after"
	fi
	{
		prefixed gb "$gb"
		prefixed ga "$r/after/vmstat"
		prefixed cb "$d/before"
		prefixed ca "$d/after"
	} | awk -v experiment="$name" -v span="$span" -f "$here/counters.awk" >> "$rows"
done
printf '%-20s %-32s %-5s %10s %10s %6s %s\n' experiment counter span guest cmasim ratio verdict
cat "$rows"
awk '
{ n[$1]++; k[$1, $7]++; t[$7]++; if (!($1 in at)) { at[$1] = ++e; ex[e] = $1 } }
END {
	for (i = 1; i <= e; i++)
		printf "%s: %d agree, %d disagree, %d absent of %d\n", ex[i],
			k[ex[i], "agree"], k[ex[i], "disagree"], k[ex[i], "absent"], n[ex[i]]
	printf "counters: %d of %d agree, %d disagree, %d absent\n",
		t["agree"], NR, t["disagree"], t["absent"]
}' "$rows"
