# shellcheck shell=sh
# /ext4.sh in the initramfs of an experiment with ext4= (oracle.sh puts it
# there with /disk.img.gz and /bin/oracle-writer, and in no other
# experiment's initramfs). The experiment sources it in the guest only:
#
#   [ "$0" = /init ] && . /ext4.sh
#
# init.sh sources /exp before its own steps, so this runs first: the trace
# buffer sized as init.sh sizes it (before any workload page, as in every
# other experiment), the disk's modules (loop, crc32c_generic, ext4 and
# their dependencies, in /lib/modules/order), the host's ext4 image (made
# by e2fsprogs' mke2fs, with a journal) into a sparse tmpfs file under a
# loop device, mounted on /mnt/disk with data=ordered (ext4's default,
# named). With writer="DIR MIB" a background shell waits for the helper's
# "ready" and then runs `oracle-writer write DIR MIB /res/after` until
# init.sh's "after" snapshot exists: through init.sh's settle= and the
# whole allocation. Its lines go to /res/writer.txt, its start to
# /res/steps.
#
# /bin/oracle-helper becomes a wrapper: for `hugepfn` (init.sh's last use,
# after the trace is read) it first writes /res/busy-pages.txt, one line
# per pfn that test_pages_isolated found not free in a failed range
# (fin_pfn, the first such page of the range) with its /proc/kpageflags
# and /proc/kpagecount now, after the allocation and the writer's stop
# (the snapshot/ taken before the allocation has them as they were then).
t=/sys/kernel/tracing
echo "${tracebuf:-32768}" > $t/buffer_size_kb
for m in $(cat /lib/modules/order); do
	insmod "/lib/modules/$m.ko" || echo "insmod $m failed" >> /res/stderr
done
if gunzip -c /disk.img.gz | /bin/oracle-writer unsparse /tmp/disk.img > /res/disk.txt &&
	losetup /dev/loop0 /tmp/disk.img && mount -t ext4 -o data=ordered /dev/loop0 /mnt/disk; then
	grep ' /mnt/disk ' /proc/mounts >> /res/disk.txt
else
	echo "ext4: no file system" >> /res/stderr
fi
rm -f /disk.img.gz
# the journal's commits, beside init.sh's events
for e in jbd2/jbd2_start_commit jbd2/jbd2_end_commit; do
	[ -d "$t/events/$e" ] && echo 1 > "$t/events/$e/enable"
done
if [ -n "${writer:-}" ]; then
	(
		until grep -q '^ready' /res/helper.txt 2>/dev/null; do
			sleep 0.1
		done
		echo "$(cut -d' ' -f1 /proc/uptime) writer $writer" >> /res/steps
		# shellcheck disable=SC2086
		exec /bin/oracle-writer write $writer /res/after > /res/writer.txt 2>&1
	) &
fi
mv /bin/oracle-helper /bin/oracle-helper.real
cat > /bin/oracle-helper <<'WRAP'
#!/bin/sh
if [ "$1" = hugepfn ]; then
	for p in $(sed -n 's/.*test_pages_isolated: .* fin_pfn=\(0x[0-9a-f]*\) ret=fail.*/\1/p' /res/trace.txt | sort -u); do
		f=$(dd if=/proc/kpageflags bs=8 skip=$((p)) count=1 2>/dev/null | od -An -tx8 | tr -d ' ')
		c=$(dd if=/proc/kpagecount bs=8 skip=$((p)) count=1 2>/dev/null | od -An -tu8 | tr -d ' ')
		echo "busy $p kpageflags=0x$f kpagecount=$c"
	done > /res/busy-pages.txt
fi
exec /bin/oracle-helper.real "$@"
WRAP
chmod 755 /bin/oracle-helper
