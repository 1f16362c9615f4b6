#!/bin/sh
# The oracle: Debian's Linux 6.12 under QEMU (TCG, no KVM) runs one
# experiment per boot, and its results (trace, vmstat/meminfo before and
# after, the pfns taken, timings in guest instructions, dmesg) land in a
# results directory, one subdirectory per experiment.
#
#   bench/oracle/oracle.sh [-o DIR] [-c CACHE] [-r N [-j CPUS]] [-d] EXP...
#
#   EXP       experiments/NAME.exp files (or NAMEs): the guest (arm64 or
#             amd64), its memory, CPUs and command line, the helper's
#             workload and the allocation (see experiments/README)
#   -o DIR    results directory (default bench/oracle/results, or
#             bench/oracle/results-spread with -r)
#   -c CACHE  downloads, kernels, helpers, initramfs (default build/oracle)
#   -r N      non-deterministic mode: N boots per experiment with
#             multi-threaded TCG and no -icount, -j CPUs each (default the
#             experiment's), into DIR/NAME/run-K; summary.sh reports the
#             spread
#   -d        also DIR/NAME/trace.dat: the guest saves its ring buffers and
#             tracefs's metadata (dat-init.sh, oracle-rawbuf), the host makes
#             the file with trace-cmd restore and writes the guest's uname
#             into it (dat-uname.py). The initramfs gains those files, so
#             the kernel places pages a little differently than without -d:
#             such a run's results are its own (dat.sh keeps them apart)
#
# Deterministic by default: -icount shift=0,sleep=off (the guest's clock
# advances 1 ns per instruction, so guest timings are instruction counts),
# -seed 1, -rtc base=2025-01-01T00:00:00,clock=vm, -M virt,dtb-randomness=off,
# and an initramfs built reproducibly (sorted cpio --reproducible, mtimes 0,
# gzip -n): two runs of an experiment give byte-identical results.
#
# Builds the guest from Debian packages only. Run as root it installs what
# is missing (scripts/ensure-deps.sh oracle: qemu-system-arm,
# qemu-system-x86, busybox-static, gcc-aarch64-linux-gnu, cpio, kmod); the
# two kernels (linux-image-$ORACLE_KVER-{arm64,amd64}-unsigned) and the
# arm64 busybox-static are fetched with apt-get download (the arm64 ones
# through a private apt state in CACHE, so the host's apt configuration is
# untouched) and unpacked with dpkg-deb -x: nothing is installed into the
# host's /boot, and the host's own memory settings are never touched.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kver=${ORACLE_KVER:-6.12.118+deb12}
out=""
cache=$top/build/oracle
repeat=0
jcpus=""
dat=""
timeout_s=${ORACLE_TIMEOUT:-2400}

usage() {
	echo "usage: $0 [-o DIR] [-c CACHE] [-r N [-j CPUS]] [-d] EXP..." >&2
	exit 2
}
while getopts o:c:r:j:d opt; do
	case $opt in
	o) out=$OPTARG ;;
	c) cache=$OPTARG ;;
	r) repeat=$OPTARG ;;
	j) jcpus=$OPTARG ;;
	d) dat=yes ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
if [ -z "$out" ]; then
	out=$here/results
	[ "$repeat" -gt 0 ] && out=$here/results-spread
fi

. "$here/fetch.sh"
"$top/scripts/ensure-deps.sh" oracle || exit 1
mkdir -p "$cache" "$out" && cache=$(cd "$cache" && pwd) && out=$(cd "$out" && pwd) || exit 1

# mod_order ARCH MOD...: the modules and their dependencies, each after
# what it depends on (the package ships no modules.dep: modinfo reads them)
mod_order() {
	arch=$1 seen="" order=""
	shift
	for m in "$@"; do
		mod_visit "$m"
	done
	echo $order | tr ' ' '\n'
}

mod_file() {
	f=$(find "$cache/$arch/lib/kernel" -name "$1.ko.xz" | head -1)
	[ -n "$f" ] || die "no module $1 in the $arch kernel package"
	echo "$f"
}

mod_visit() {
	case " $seen " in *" $1 "*) return 0 ;; esac
	seen="$seen $1"
	for d in $(modinfo -F depends "$(mod_file "$1")" | tr ',' ' '); do
		mod_visit "$d"
	done
	order="$order $1"
}

# initramfs EXP ARCH DIR: DIR/initrd.gz for the experiment, reproducibly
initramfs() {
	ir=$3/ir
	g=$cache/$2
	rm -rf "$ir" && mkdir -p "$ir/bin" "$ir/dev" "$ir/proc" "$ir/sys" "$ir/lib/modules" || exit 1
	cp "$g/busybox" "$ir/bin/busybox" && ln -s busybox "$ir/bin/sh" &&
		cp "$g/oracle-helper" "$ir/bin/oracle-helper" &&
		cp "$here/init.sh" "$ir/init" && chmod 755 "$ir/init" &&
		cp "$1" "$ir/exp" && mknod "$ir/dev/console" c 5 1 || exit 1
	# module=NAME: module/NAME.c's build as /lib/modules/NAME.ko, for the
	# experiment's own lines to load (init.sh knows nothing of it);
	# module_variant=V: its build with -DNAME_V (build_module), installed
	# under the same name
	if [ -n "$module" ]; then
		cp "$cache/$2/$module${module_variant:+-$module_variant}.ko" "$ir/lib/modules/$module.ko" || exit 1
	fi
	# ext4=MIB: the host's ext4 image (ext4_image), the writer and the
	# guest's lines that mount it (ext4-init.sh, which the experiment
	# sources), and the disk's modules as for disk=
	if [ -n "$ext4" ]; then
		wv=oracle-writer
		case $writer in "build "*) wv=oracle-writer-build ;; esac
		ext4_image "$ext4" "$ir/disk.img.gz" &&
			cp "$cache/$2/$wv" "$ir/bin/oracle-writer" &&
			cp "$here/ext4-init.sh" "$ir/ext4.sh" || exit 1
	fi
	if [ -n "$disk" ] || [ -n "$ext4" ]; then
		mod_order "$2" loop crc32c_generic ext4 > "$ir/lib/modules/order" || exit 1
		for m in $(cat "$ir/lib/modules/order"); do
			xz -dc "$(mod_file "$m")" > "$ir/lib/modules/$m.ko" || exit 1
		done
	fi
	# modules="MOD...": the kernel package's modules and their dependencies,
	# their load order in /lib/modules/extra, for the experiment's own lines
	# (init.sh loads only the disk's)
	if [ -n "$modules" ]; then
		mod_order "$2" $modules > "$ir/lib/modules/extra" || exit 1
		for m in $(cat "$ir/lib/modules/extra"); do
			xz -dc "$(mod_file "$m")" > "$ir/lib/modules/$m.ko" || exit 1
		done
	fi
	# tools="NAME...": NAME.c's static build as /bin/oracle-NAME, in this
	# experiment's initramfs only, for its own lines to run (init.sh knows
	# nothing of them)
	for tl in $tools; do
		cp "$cache/$2/oracle-$tl" "$ir/bin/oracle-$tl" || exit 1
	done
	[ -n "$dat" ] && dat_initramfs "$ir" "$2"
	pack_initramfs "$ir" "$3/initrd.gz"
	rm -rf "$ir"
}

# ext4_image MIB FILE: FILE, the gzip of an ext4 file system of MIB with a
# journal, made by the host's mke2fs (e2fsprogs) reproducibly: no
# mke2fs.conf (its features named here instead), fixed UUID, hash seed
# and creation time, inode tables and journal zeroed now (no lazy init
# left for the guest's kernel to do), gzip -n. The guest writes only its
# nonzero blocks into its tmpfs file (oracle-writer unsparse).
ext4_image() {
	img=$cache/ext4-$1m.img
	rm -f "$img" && truncate -s "$1M" "$img" &&
		MKE2FS_CONFIG=/nonexistent E2FSPROGS_FAKE_TIME=1735689600 mke2fs -q -F -b 4096 -I 256 -i 16384 \
			-O has_journal,extent,huge_file,flex_bg,metadata_csum,64bit,dir_nlink,extra_isize \
			-U 6f72636c-6500-4000-8000-000000000001 \
			-E hash_seed=6f72636c-6500-4000-8000-000000000002,lazy_itable_init=0,lazy_journal_init=0,root_owner=0:0 \
			-L oracle "$img" && gzip -n -9 -c "$img" > "$2" && rm -f "$img"
}

# writer_build ARCH: CACHE/ARCH/oracle-writer from writer.c (C11, static),
# and oracle-writer-build with its build mode (-DORACLE_WRITER_BUILD), which
# the initramfs of an experiment whose writer= starts with "build " gets as
# /bin/oracle-writer instead (every other keeps the unchanged binary)
writer_build() {
	cc=gcc
	[ "$1" = arm64 ] && cc=aarch64-linux-gnu-gcc
	for wv in oracle-writer oracle-writer-build; do
		wb=$cache/$1/$wv
		wd=""
		[ "$wv" = oracle-writer-build ] && wd=-DORACLE_WRITER_BUILD
		if [ ! -f "$wb" ] || [ "$here/writer.c" -nt "$wb" ]; then
			# shellcheck disable=SC2086
			$cc -std=c11 -O2 -Wall -Wextra -static $wd -o "$wb" "$here/writer.c" || exit 1
		fi
	done
}

# tool_build ARCH NAME: CACHE/ARCH/oracle-NAME from NAME.c (C11, static)
tool_build() {
	tb=$cache/$1/oracle-$2
	cc=gcc
	[ "$1" = arm64 ] && cc=aarch64-linux-gnu-gcc
	[ -f "$here/$2.c" ] || die "tools=: no $here/$2.c"
	if [ ! -f "$tb" ] || [ "$here/$2.c" -nt "$tb" ]; then
		$cc -std=c11 -O2 -Wall -Wextra -static -o "$tb" "$here/$2.c" || exit 1
	fi
}

# dat_initramfs DIR ARCH: -d's files in the initramfs at DIR: the raw
# reader, and /init sourcing dat-init.sh once the text trace is read (the
# line spliced into a copy: init.sh itself, and so every initramfs built
# without -d, stays as it was)
dat_initramfs() {
	rb=$cache/$2/oracle-rawbuf
	cc=gcc
	[ "$2" = arm64 ] && cc=aarch64-linux-gnu-gcc
	if [ ! -f "$rb" ] || [ "$here/rawbuf.c" -nt "$rb" ]; then
		$cc -O2 -Wall -Wextra -static -o "$rb" "$here/rawbuf.c" || exit 1
	fi
	cp "$rb" "$1/bin/oracle-rawbuf" && cp "$here/dat-init.sh" "$1/dat.sh" || exit 1
	anchor='cat $t/trace > /res/trace.txt'
	[ "$(grep -cxF "$anchor" "$here/init.sh")" = 1 ] || die "init.sh: no single line '$anchor' to read the ring buffers after"
	awk -v a="$anchor" '{ print } $0 == a { print ". /dat.sh" }' "$here/init.sh" > "$1/init" || exit 1
}

# dat_build RUNDIR: RUNDIR/trace.dat from what dat-init.sh saved in
# RUNDIR/dat: the headers and formats (restore -c; no kallsyms: the events
# recorded print no symbol), then the CPUs' pages, then the guest's uname
dat_build() {
	d=$1/dat
	if [ ! -f "$d/events/header_page" ]; then
		echo "no trace.dat: the guest saved no ring buffers" >> "$1/ERROR"
		return
	fi
	n=0
	cpus=""
	while [ -f "$d/cpu$n" ]; do
		cpus="$cpus $d/cpu$n"
		n=$((n + 1))
	done
	# shellcheck disable=SC2086
	if trace-cmd restore -c -t "$d" -k "$d/kallsyms" -o "$d/head" > "$d/restore.log" 2>&1 &&
		trace-cmd restore -i "$d/head" -o "$1/trace.dat" $cpus >> "$d/restore.log" 2>&1 &&
		python3 "$here/dat-uname.py" "$1/trace.dat" "$(cat "$d/uname")"; then
		rm -rf "$d"
	else
		echo "no trace.dat: trace-cmd restore failed (its log in dat/restore.log)" >> "$1/ERROR"
	fi
}

# snapshot_in CONSOLE DIR: the guest's /proc files before the allocation,
# as `cmasim snapshot` writes them (kpageflags and kpagecount xz'd), for
# `cmasim import DIR`
snapshot_in() {
	mkdir -p "$2" && rm -f "$2"/*
	awk -v d="$2" '/^=== oracle snapshot [a-z]* ===$/ { f = $4; next }
		/^===/ { f = ""; next }
		f != "" { print > (d "/" f ".b64") }' "$1"
	for b in "$2"/*.b64; do
		[ -f "$b" ] || continue
		sf=${b%.b64}
		base64 -d < "$b" | gunzip > "$sf" && rm -f "$b" || echo "snapshot: ${sf##*/} unreadable" >> "$2/../ERROR"
		case ${sf##*/} in kpageflags|kpagecount) xz -1 -f "$sf" ;; esac
	done
}

# boot EXP RUNDIR: one guest, its results unpacked into RUNDIR
boot() {
	exp=$1 run=$2
	# writer= is read in the guest only (ext4-init.sh): reset as the others
	# shellcheck disable=SC2034
	guest="" mem="" cpus=1 append="" disk="" module="" module_variant="" modules="" ext4="" writer="" tools=""
	. "$exp"
	[ -n "$jcpus" ] && [ "$repeat" -gt 0 ] && cpus=$jcpus
	case $guest in
	arm64) qemu="qemu-system-aarch64 -M virt,dtb-randomness=off -cpu max,pauth-impdef=on"
	       console=ttyAMA0 ;;
	amd64) qemu="qemu-system-x86_64 -M pc -cpu max"
	       console=ttyS0 ;;
	*) die "$exp: guest must be arm64 or amd64, not '$guest'" ;;
	esac
	[ -n "$mem" ] || die "$exp: no mem (MiB)"
	guest_files "$guest"
	[ -n "$ext4" ] && writer_build "$guest"
	for tl in $tools; do
		tool_build "$guest" "$tl"
	done
	if [ -n "$module" ]; then
		[ "$guest" = arm64 ] || die "$exp: module= is built for arm64 guests only"
		build_module "$module" "$module_variant"
	fi
	rm -rf "$run" && mkdir -p "$run" || exit 1
	w=$(mktemp -d "$cache/run.XXXXXX")
	initramfs "$exp" "$guest" "$w"
	if [ "$repeat" -gt 0 ]; then
		mode="-accel tcg,thread=multi"
	else
		mode="-accel tcg -icount shift=0,sleep=off -seed 1 -rtc base=2025-01-01T00:00:00,clock=vm"
	fi
	cmd="$qemu $mode -smp $cpus -m $mem -display none -monitor none -no-reboot
		-serial file:$w/console.log -kernel $cache/$guest/vmlinuz -initrd $w/initrd.gz"
	kcmd="console=$console panic=-1 nokaslr loglevel=1 $append"
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	nice -n 10 timeout "$timeout_s" $cmd -append "$kcmd" < /dev/null
	rc=$?
	t1=$(date +%s.%N)
	tr -d '\r' < "$w/console.log" > "$w/console"
	sed -n '/^=== oracle results begin ===$/,/^=== oracle results end ===$/p' "$w/console" |
		grep -v '^===' | base64 -d | tar -xz -C "$run" 2>/dev/null ||
		echo "no results (the console has no readable results block)" > "$run/ERROR"
	snapshot_in "$w/console" "$run/snapshot"
	[ -n "$dat" ] && dat_build "$run"
	sed '/^=== oracle results begin ===$/,/^=== oracle results end ===$/d; /^=== oracle snapshot [a-z]* ===$/,/^=== oracle snapshot end ===$/d' \
		"$w/console" > "$run/console.log"
	{
		echo "qemu: $(echo $cmd | sed "s|$w/||g; s|$cache/||g") -append \"$kcmd\""
		echo "exit: $rc"
		echo "initrd sha256: $(sha256sum < "$w/initrd.gz" | cut -d' ' -f1)"
	} > "$run/qemu.txt"
	# host time is the only figure that differs between runs: kept apart
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "host seconds: %.1f\n", b - a }' > "$run/host-time"
	rm -rf "$w"
	echo "oracle.sh: $(basename "$exp" .exp): qemu exit $rc, $(cat "$run/host-time")" >&2
}

host_description() {
	{
		echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
		echo "host: $(uname -srm), $(nproc) CPUs"
		echo "qemu: $(qemu-system-aarch64 --version | head -1); $(qemu-system-x86_64 --version | head -1)"
		for p in qemu-system-arm qemu-system-x86 busybox-static gcc-aarch64-linux-gnu e2fsprogs; do
			echo "package: $p $(dpkg-query -W -f '${Version}' "$p" 2>/dev/null)"
		done
		for f in "$cache"/deb/*.deb; do
			echo "package: $(dpkg-deb -f "$f" Package) $(dpkg-deb -f "$f" Version) $(dpkg-deb -f "$f" Architecture)"
		done
		[ "$repeat" -gt 0 ] && echo "mode: non-deterministic, $repeat runs, multi-threaded TCG" ||
			echo "mode: deterministic (-icount shift=0,sleep=off -seed 1 -rtc base=2025-01-01T00:00:00,clock=vm)"
	} > "$out/HOST.txt"
}

# the main loop's names (expf, name, k) are set by no function: POSIX sh
# has no locals
for e in "$@"; do
	case $e in
	*/*|*.exp) expf=$e ;;
	*) expf=$here/experiments/$e.exp ;;
	esac
	[ -f "$expf" ] || die "no experiment $e (have: $(cd "$here/experiments" && ls *.exp | sed 's/\.exp$//' | tr '\n' ' '))"
	name=$(basename "$expf" .exp)
	if [ "$repeat" -gt 0 ]; then
		k=1
		while [ "$k" -le "$repeat" ]; do
			boot "$expf" "$out/$name/run-$k"
			k=$((k + 1))
		done
	else
		boot "$expf" "$out/$name"
	fi
done
host_description
