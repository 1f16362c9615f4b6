#!/bin/sh
# What the function_graph tracer costs an alloc_contig_range, counted in
# guest instructions: the instrument of raspberrypi/linux#2680
# (function_graph on cma_alloc, tracing_thresh 1 ms) priced where this
# machine's own kernel refuses ftrace (ftrace-cost.sh). Boots Debian's
# 6.1 kernel under QEMU's TCG with -icount shift=0, so the guest's clock
# advances 1 ns per instruction it executes: timings in the guest are
# instruction counts, the same on every run, comparable with the tracer
# on and off (calib/README-published.md, "RPi", fourth round).
#
#   bench/kernel/ftrace-icount.sh [-c CACHE] [-o FILE] [-f MB[,MB...]] [-r ROUNDS] [-t MB] [-k KVER] [-a arm64]
#
# KVER: the Debian amd64 kernel, package linux-image-KVER-unsigned
# (default 6.1.0-50-amd64; 6.12.118+deb12-amd64 is the oracle's, from
# bookworm-security). -a arm64: the oracle's arm64 guest instead
# (bench/oracle/README.md: its 6.12 kernel and busybox from build/oracle,
# which make oracle-short fills), 3 GiB with hugetlb_cma=1G cma=64M, so
# the 1 GiB page comes from the hugetlb_cma area through cma_alloc and a
# fill puts pages to migrate in it. One guest boot: 1 CPU (the clock then counts one CPU's instructions),
# 5 GiB (1 GiB ranges at 1, 4 and 5 GiB), nokaslr (the kernel image out
# of them), init_on_alloc=0 (TCG counts each byte of a rep stosb: the
# clearing would swamp the rest). Per fill (default 0 and 384: MiB of
# tmpfs fallocated before each allocation, meant to put pages to migrate
# in the range) ROUNDS (default 3) rounds of one 1 GiB gigantic page
# allocated and freed through hugetlb's nr_hugepages (alloc_contig_pages
# -> alloc_contig_range) with the tracer off / function_graph,
# tracing_thresh 1000 on every function / the same with
# set_graph_function alloc_contig_range, then the calls counted
# (tracing_thresh 0; events written and overwritten, two a call) in that
# graph and on the CPU; last, one graph of alloc_contig_range kept whole
# at fill MB (-t, default 64), its calls per child and per function.
# Writes the guest's "R" lines and a summary to FILE: per fill the ratio
# traced / untraced and the hooks' instructions per call, all calls
# hooked (thresh) and calls outside the filtered graph (entry hook only).
# Installs qemu-system-x86 and busybox-static when missing; caches the
# kernel package (apt-get download) and the initramfs in CACHE (default
# build/ftrace-icount). The boot is bounded (timeout 2400 s; ~15 min of
# host time for -f 0,384 -r 2).
set -u
caller_dir=$(pwd)
cd "$(dirname "$0")"
. ./common.sh

cache=../../build/ftrace-icount
out=""
fills="0,384"
treefill=64
rounds=3
kver=6.1.0-50-amd64
arch=amd64
while getopts c:o:f:r:t:k:a: opt; do
	case $opt in
	c) cache=$OPTARG ;;
	o) out=$(from_caller "$OPTARG") ;;
	f) fills=$OPTARG ;;
	r) rounds=$OPTARG ;;
	t) treefill=$OPTARG ;;
	k) kver=$OPTARG ;;
	a) arch=$OPTARG ;;
	*) echo "usage: $0 [-c CACHE] [-o FILE] [-f MB[,MB...]] [-r ROUNDS] [-t MB] [-k KVER] [-a arm64]" >&2; exit 2 ;;
	esac
done

kpkg=linux-image-$kver-unsigned

if [ "$(id -u)" != 0 ]; then
	echo "ftrace-icount.sh: needs root (it installs packages and makes the initramfs' dev/console); run: sudo $0" >&2
	exit 1
fi

need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	command -v apt-get >/dev/null && apt-get install -y "$2" >/dev/null 2>&1
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "ftrace-icount.sh: needs $1 (package $2), which is missing and could not be installed; nothing measured" >&2
	exit 1
}
need cpio cpio
need file file
mkdir -p "$cache" && cache=$(cd "$cache" && pwd)

# amd64_guest / arm64_guest: the kernel, its config, the static busybox,
# the compiler of the timer and the machine, for the arch asked
amd64_guest() {
	need qemu-system-x86_64 qemu-system-x86
	need busybox busybox-static
	need cc gcc
	if ! busybox --list | grep -qx awk || ! file -L "$(command -v busybox)" | grep -q static; then
		echo "ftrace-icount.sh: needs a static busybox with awk (busybox-static)" >&2
		exit 1
	fi
	if [ ! -f "$cache/vmlinuz-$kver" ]; then
		deb=$(ls "$cache"/${kpkg}_*.deb 2>/dev/null | head -1)
		if [ -z "$deb" ]; then
			(cd "$cache" && apt-get download "$kpkg") || {
				echo "ftrace-icount.sh: could not download $kpkg; nothing measured" >&2; exit 1; }
			deb=$(ls "$cache"/${kpkg}_*.deb | head -1)
		fi
		rm -rf "$cache/x" && dpkg-deb -x "$deb" "$cache/x" &&
			cp "$cache/x/boot/vmlinuz-$kver" "$cache/x/boot/config-$kver" "$cache/" &&
			rm -rf "$cache/x" || exit 1
	fi
	kernel=$cache/vmlinuz-$kver config=$cache/config-$kver
	package=$(ls "$cache"/${kpkg}_*.deb 2>/dev/null | sed 's|.*/||')
	bb=$(command -v busybox) cc=cc
	qemu="qemu-system-x86_64 -cpu max" mem=5G console=ttyS0 append=""
}

arm64_guest() {
	o=../../build/oracle/arm64
	if [ ! -f "$o/vmlinuz" ] || [ ! -f "$o/busybox" ]; then
		echo "ftrace-icount.sh: -a arm64 boots the oracle's guest, not fetched yet: run make oracle-short first" >&2
		exit 1
	fi
	need qemu-system-aarch64 qemu-system-arm
	need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
	kernel=$o/vmlinuz config=$o/config
	package=$(ls ../../build/oracle/deb/linux-image-*-arm64-unsigned_*.deb 2>/dev/null | sed 's|.*/||')
	kver=${package#linux-image-} kver=${kver%-unsigned_*}
	bb=$o/busybox cc=aarch64-linux-gnu-gcc
	qemu="qemu-system-aarch64 -M virt,dtb-randomness=off -cpu max,pauth-impdef=on"
	mem=3G console=ttyAMA0 append="hugetlb_cma=1G cma=64M"
}

case $arch in
amd64) amd64_guest ;;
arm64) arm64_guest ;;
*) echo "ftrace-icount.sh: -a takes amd64 or arm64, not '$arch'" >&2; exit 2 ;;
esac

# the initramfs: busybox, the timer, /init, and dev/console for init's output
ir=$cache/ir
rm -rf "$ir" && mkdir -p "$ir/bin" "$ir/dev" "$ir/proc" "$ir/sys" "$ir/mnt" || exit 1
cp "$bb" "$ir/bin/busybox"
cp ftrace-icount-init.sh "$ir/init" && chmod 755 "$ir/init"
$cc -O2 -static -o "$ir/timed-write" timed-write.c || exit 1
mknod "$ir/dev/console" c 5 1 || exit 1
(cd "$ir" && find . > ../list)
(cd "$ir" && cpio -o -H newc < ../list 2>/dev/null) | gzip -1 > "$cache/ir.gz" || exit 1

[ -n "$out" ] || out=results/ftrace-icount-$kver-tcg-$(date +%Y%m%d).txt
{
	echo "# ftrace-icount.sh $(date -u +%Y-%m-%dT%H:%MZ): host $(uname -r), $(${qemu%% *} --version | head -1)"
	echo "# kernel package $package"
	echo "# config: $(grep -E '^CONFIG_(FUNCTION_GRAPH_TRACER|DYNAMIC_FTRACE|CONTIG_ALLOC|HZ|PREEMPT[A-Z_]*)=' "$config" | tr '\n' ' ')"
	echo "# qemu: ${qemu#* } -accel tcg -smp 1 -m $mem -icount shift=0,sleep=off, nokaslr init_on_alloc=0 $append; fills ${fills} MiB, rounds $rounds, tree at ${treefill} MiB"
} > "$out"

log=$cache/console.log
t0=$(date +%s)
# shellcheck disable=SC2086
timeout 2400 $qemu -accel tcg -smp 1 -m $mem \
	-icount shift=0,sleep=off -display none -monitor none -no-reboot \
	-serial "file:$log" -kernel "$kernel" -initrd "$cache/ir.gz" \
	-append "console=$console quiet nokaslr init_on_alloc=0 panic=-1 $append ftr.fills=$fills ftr.rounds=$rounds ftr.treefill=$treefill" \
	< /dev/null
rc=$?
echo "# boot: qemu exit $rc after $(( $(date +%s) - t0 )) s of host time" >> "$out"
tr -d '\r' < "$log" | grep '^R ' >> "$out"

# the summary: per fill, the medians of the rounds; hook instructions per
# call from the two timed tracer runs against the untraced one
awk '
function med(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
/^R run / {
	for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	f = v["fill"]; m = v["mode"]; fills[f] = 1
	k = f SUBSEP m; n[k]++
	ns[k, n[k]] = v["ns"]; calls[k, n[k]] = v["calls"]; mig[k, n[k]] = v["migrated"]
	runs[f]++; got[f] += v["got"]
}
END {
	for (f in fills) {
		split("off thresh filt count-filt count-all", modes, " ")
		for (i = 1; i <= 5; i++) {
			k = f SUBSEP modes[i]
			delete a; delete c; delete g
			for (j = 1; j <= n[k]; j++) { a[j] = ns[k, j]; c[j] = calls[k, j]; g[j] = mig[k, j] }
			T[modes[i]] = med(a, n[k]); C[modes[i]] = med(c, n[k]); M[modes[i]] = med(g, n[k])
		}
		printf "fill=%s MiB: the page got in %d of %d runs\n", f, got[f], runs[f]
		printf "fill=%s MiB: migrated %d pages; instructions (guest ns) off %.0f, thresh %.0f (x%.3f), filt %.0f (x%.3f)\n",
			f, M["off"], T["off"], T["thresh"], T["thresh"] / T["off"], T["filt"], T["filt"] / T["off"]
		printf "fill=%s MiB: calls in the entry point graph %d, on the CPU %d\n", f, C["count-filt"], C["count-all"]
		hf = (T["thresh"] - T["off"]) / C["count-all"]
		he = (T["filt"] - T["off"] - hf * C["count-filt"]) / (C["count-all"] - C["count-filt"])
		printf "fill=%s MiB: FGRAPH_THRESH_INSN_PER_CALL=%.1f FGRAPH_FILTERED_OUT_INSN_PER_CALL=%.1f\n", f, hf, he
	}
}' "$out" | sed 's/^/# summary: /' | tee -a "$out"
echo "ftrace-icount.sh: wrote $out"
