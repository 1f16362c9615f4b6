// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle guest's ring buffers as trace-cmd stores them: each CPU's
 * per_cpu/cpuN/trace_pipe_raw read in page-size reads (one ring-buffer
 * page a read, its header and its events as the kernel wrote them) into
 * DIR/cpuN, for `trace-cmd restore` on the host to make a trace.dat of.
 * Built static for the guest and put in the initramfs only by
 * `oracle.sh -d`, so that the other experiments' initramfs is unchanged.
 *
 *   oracle-rawbuf TRACEFS DIR
 *
 * O_NONBLOCK: with tracing off, a blocking read of an empty buffer waits
 * for events that never come (tracing_buffers_read's wait_on_pipe); a
 * non-blocking one ends with EAGAIN once every page is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int copy_cpu(const char *tracefs, const char *dir, int cpu, char *page, long page_size)
{
	char in[512], out[512];
	long pages = 0;
	ssize_t n;
	int fd, ofd;

	snprintf(in, sizeof(in), "%s/per_cpu/cpu%d/trace_pipe_raw", tracefs, cpu);
	fd = open(in, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? 1 : -1;	/* ENOENT: no such CPU, the last was read */
	snprintf(out, sizeof(out), "%s/cpu%d", dir, cpu);
	ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (ofd < 0) {
		perror(out);
		close(fd);
		return -1;
	}
	while ((n = read(fd, page, (size_t)page_size)) > 0) {
		if (write(ofd, page, (size_t)n) != n) {
			perror(out);
			break;
		}
		pages++;
	}
	if (n < 0 && errno != EAGAIN)
		perror(in);
	printf("cpu%d %ld pages\n", cpu, pages);
	close(ofd);
	close(fd);
	return n < 0 && errno != EAGAIN ? -1 : 0;
}

int main(int argc, char **argv)
{
	long page_size = sysconf(_SC_PAGESIZE);
	char *page = malloc((size_t)page_size);
	int cpu, ret = 0;

	if (argc != 3 || !page) {
		fprintf(stderr, "usage: oracle-rawbuf TRACEFS DIR\n");
		return 2;
	}
	for (cpu = 0; (ret = copy_cpu(argv[1], argv[2], cpu, page, page_size)) == 0; cpu++)
		;
	free(page);
	return ret < 0 || cpu == 0;
}
