#!/bin/sh
# default-area.sh's guest /init (busybox sh): loads oracle_cma.ko, whose
# platform device allocates oracle.count buffers of oracle.kb KiB with
# dma_alloc_coherent (so from the default cma= area through cma_alloc),
# with the cma and migration trace events on; prints the areas, the
# module's pfns and the trace as "R " lines for the host, and powers off.
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tracefs tracefs /sys/kernel/tracing
t=/sys/kernel/tracing
kb=32768 count=1
for a in $(cat /proc/cmdline); do
	case $a in
	oracle.kb=*) kb=${a#oracle.kb=} ;;
	oracle.count=*) count=${a#oracle.count=} ;;
	esac
done
echo 1 > $t/events/cma/enable
echo 1 > $t/events/migrate/mm_migrate_pages/enable
{
	echo "cmdline $(cat /proc/cmdline)"
	grep -E '^Cma' /proc/meminfo | sed 's/^/before /'
	insmod /oracle_cma.ko kb="$kb" count="$count" || echo "insmod failed"
	grep -E '^Cma' /proc/meminfo | sed 's/^/after /'
	dmesg | grep -E '\] (cma|hugetlb_cma|oracle_cma): '
	grep -v '^#' $t/trace
} 2>&1 | sed 's/^/R /' > /dev/console
poweroff -f
