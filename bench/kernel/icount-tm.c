// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of ftrace-icount.sh: time one write to a sysfs file on the
 * guest's monotonic clock, which under QEMU's -icount counts the guest's
 * instructions. Tracing is switched on just before the clock is read and
 * off just after, so a trace or its counters hold this write only.
 *
 *   icount-tm FILE VALUE TRACING_ON
 *
 * prints "ns=N ret=R" (R: write's return, or -errno).
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
	int fd, on;

	if (argc != 4) {
		fprintf(stderr, "usage: icount-tm FILE VALUE TRACING_ON\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	on = open(argv[3], O_WRONLY);
	if (fd < 0 || on < 0) {
		perror("icount-tm: open");
		return 1;
	}
	/* both switches written before the clock starts and after it stops */
	if (write(on, "1", 1) != 1)
		return 1;
	t0 = now_ns();
	ret = write(fd, argv[2], strlen(argv[2]));
	if (ret < 0)
		ret = -errno;
	t1 = now_ns();
	if (write(on, "0", 1) != 1)
		return 1;
	printf("ns=%lld ret=%zd\n", t1 - t0, ret);
	return 0;
}
