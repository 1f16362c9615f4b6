#!/bin/sh
# The oracle guest's /init (busybox sh): runs the one experiment the
# initramfs carries (/exp, a copy of an experiments/*.exp file), records
# what the kernel did in /res, and hands /res to the host on the console.
# Then powers off.
#
# Order: mount, (disk), the helper's workload, "before" (vmstat, meminfo,
# zoneinfo, pagetypeinfo, buddyinfo), tracing on, the allocation (each
# write of nr_hugepages timed in guest ns = instructions), tracing off,
# "after", the helper killed, the pfns of the pages allocated, dmesg.
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
mount -t tracefs tracefs /sys/kernel/tracing
mkdir -p /res /tmp /mnt/disk
mount -t tmpfs tmp /tmp
exec 2>> /res/stderr

. /exp
cp /exp /res/experiment
cat /proc/cmdline > /res/cmdline
uname -a > /res/uname

# send_results: /res to the host on the console, as base64 of a gzipped
# tar between two marker lines (the kernel prints nothing there: it boots
# with loglevel=1). The console, not a virtio port: a virtio device's
# host side runs outside the instruction count, and its probe alone made
# two runs differ.
send_results() {
	sync
	echo "=== oracle results begin ===" > /dev/console
	tar -c -C /res . | gzip -n | base64 > /dev/console
	echo "=== oracle results end ===" > /dev/console
	poweroff -f
}

# snapshot_out: the /proc files `cmasim snapshot` takes, read just before
# the allocation and sent at once on the console (each gzip and base64
# between marker lines): kpageflags and kpagecount are 8 bytes a pfn, and
# kept in /res (tmpfs) they would put pages of their own in the way
snapshot_out() {
	for f in buddyinfo pagetypeinfo zoneinfo kpageflags kpagecount meminfo iomem cmdline; do
		echo "=== oracle snapshot $f ===" > /dev/console
		gzip -n < "/proc/$f" | base64 > /dev/console
	done
	echo "=== oracle snapshot end ===" > /dev/console
}

# note WHAT: a line in /res/steps with the guest clock (instructions)
note() {
	echo "$(cut -d' ' -f1 /proc/uptime) $*" >> /res/steps
}

snapshot() {
	mkdir -p "/res/$1"
	for f in vmstat meminfo zoneinfo pagetypeinfo buddyinfo; do
		cat "/proc/$f" > "/res/$1/$f"
	done
	for h in /sys/kernel/mm/hugepages/hugepages-*; do
		echo "${h##*/} nr=$(cat "$h/nr_hugepages") free=$(cat "$h/free_hugepages")"
	done > "/res/$1/hugepages"
}

note boot
# the trace buffer is sized before the workload so that its pages are
# placed before the helper's, the same on every run
t=/sys/kernel/tracing
echo "${tracebuf:-32768}" > $t/buffer_size_kb
# disk=MIB: an ext2 file system on a loop device over a tmpfs file, for
# page cache that is a file system's (tmpfs's own is shmem) and writeback
# that goes through a block device, all inside the guest, where the
# instruction count governs it (a virtio disk's I/O completes on the host's
# time). Modules: loop, crc32c_generic (ext4 asks for crc32c at mount),
# ext4 and their dependencies, in the order the host resolved.
if [ -n "${disk:-}" ]; then
	for m in $(cat /lib/modules/order); do
		insmod "/lib/modules/$m.ko" || note "insmod $m failed"
	done
	truncate -s "${disk}M" /tmp/disk.img && losetup /dev/loop0 /tmp/disk.img &&
		mke2fs -q /dev/loop0 > /dev/null && mount -t ext2 /dev/loop0 /mnt/disk ||
		note "disk: no file system"
fi
[ -n "${thp:-}" ] && echo "$thp" > /sys/kernel/mm/transparent_hugepage/enabled
for h in /sys/kernel/mm/hugepages/hugepages-*; do
	kb=${h##*hugepages-}; kb=${kb%kB}
	mkdir -p "/mnt/huge-$kb" && mount -t hugetlbfs -o "pagesize=${kb}K" none "/mnt/huge-$kb"
done

# the workload, held by the helper while the allocation runs
if [ -n "${work:-}" ]; then
	note "work $work"
	/bin/oracle-helper $work > /res/helper.txt 2>&1 &
	helper=$!
	until grep -q '^ready' /res/helper.txt; do
		if ! kill -0 $helper 2>/dev/null; then
			note "helper exited before ready"
			break
		fi
		sleep 0.1
	done
	note ready
fi
[ -n "${settle:-}" ] && sleep "$settle"

snapshot before
snapshot_out
note snapshot
for e in cma migrate/mm_migrate_pages compaction page_isolation hugetlbfs; do
	[ -d "$t/events/$e" ] && echo 1 > "$t/events/$e/enable"
done
cat $t/set_event > /res/events
echo > $t/trace
echo 1 > $t/tracing_on

# the allocation: "hugetlb KB N" sets the pool of KB pages to N; "fill KB
# MAX" grows it one page at a time until it stops growing (or reaches MAX)
last_kb=""
set -- $alloc
while [ $# -ge 3 ]; do
	kind=$1 kb=$2 n=$3
	shift 3
	pool=/sys/kernel/mm/hugepages/hugepages-${kb}kB/nr_hugepages
	last_kb=$kb
	if [ ! -e "$pool" ]; then
		note "no $pool"
		continue
	fi
	case $kind in
	hugetlb)
		note "alloc $kb kB x $n"
		/bin/oracle-helper write "$pool" "$n" >> /res/alloc.txt
		echo "nr_hugepages ${kb}kB $(cat "$pool")" >> /res/alloc.txt ;;
	fill)
		i=$(cat "$pool")
		while [ "$i" -lt "$n" ]; do
			i=$((i + 1))
			note "alloc $kb kB to $i"
			/bin/oracle-helper write "$pool" "$i" >> /res/alloc.txt
			got=$(cat "$pool")
			echo "nr_hugepages ${kb}kB $got" >> /res/alloc.txt
			[ "$got" -lt "$i" ] && break
		done ;;
	*) note "unknown alloc step $kind" ;;
	esac
done
note "alloc done"

echo 0 > $t/tracing_on
snapshot after
cat $t/trace > /res/trace.txt
cat $t/per_cpu/cpu0/stats > /res/trace-stats
[ -n "${helper:-}" ] && kill $helper && wait $helper 2>/dev/null
note "helper stopped"
if [ -n "$last_kb" ] && [ -d "/mnt/huge-$last_kb" ]; then
	/bin/oracle-helper hugepfn "/mnt/huge-$last_kb" \
		"$(cat /sys/kernel/mm/hugepages/hugepages-${last_kb}kB/nr_hugepages)" > /res/hugepfn.txt 2>&1
fi
note end
dmesg > /res/dmesg.txt
send_results
