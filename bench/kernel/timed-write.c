// SPDX-License-Identifier: GPL-2.0
/*
 * Time one write of VALUE to FILE (a sysfs or procfs knob) on the
 * monotonic clock, inside one process: contig.sh and micro-hugetlb.sh
 * time nr_hugepages with it (two $(date +%s%N) around an echo put a fork
 * and exec of date inside the interval: 2.7-3.1 ms under dash, 5 ms under
 * bash, on the 4 Dec guest). ftrace-icount.sh's guest times the same
 * write with it under QEMU's -icount, where the clock counts the guest's
 * instructions; given TRACING_ON (tracefs's tracing_on), it switches
 * tracing on just before the clock is read and off just after, so a trace
 * or its counters hold this write only.
 *
 *   timed-write FILE VALUE [TRACING_ON]
 *
 * prints "ns=N ret=R" (R: the write's return, or -errno).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0, t1;
	ssize_t ret;
	int fd, on = -1;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: timed-write FILE VALUE [TRACING_ON]\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (argc == 4)
		on = open(argv[3], O_WRONLY);
	if (fd < 0 || (argc == 4 && on < 0)) {
		perror("timed-write: open");
		return 1;
	}
	/* the switch is written before the clock starts and after it stops */
	if (on >= 0 && write(on, "1", 1) != 1)
		return 1;
	t0 = now_ns();
	ret = write(fd, argv[2], strlen(argv[2]));
	if (ret < 0)
		ret = -errno;
	t1 = now_ns();
	if (on >= 0 && write(on, "0", 1) != 1)
		return 1;
	printf("ns=%lld ret=%zd\n", t1 - t0, ret);
	return 0;
}
