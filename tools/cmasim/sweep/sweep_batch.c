// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's process pool: each point is this program run again
 * (/proc/self/exe) with the point's `run` arguments, at most @jobs at a
 * time. A child writes its report to point->part; only a child that
 * exits 0 has it renamed to the point's file, so a report present in the
 * directory is whole, whatever killed the sweep or a child. Its stdout
 * (the text summary) is dropped; its stderr goes to DIR/FILE.log, kept
 * when it fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sweep/sweep.h"

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* Only to end sigsuspend: the children are reaped by waitpid after it. */
static void on_child(int sig)
{
}

struct pool {
	struct sweep *s;
	pid_t *pids;		/* by point; 0: not running */
	size_t next;		/* the next point to consider starting */
	size_t running, done, todo;
	double start;
	bool tty;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *log_path(const struct sweep *s, const struct sweep_point *pt)
{
	char *path;

	return asprintf(&path, "%s/%s.log", s->dir, pt->file) < 0 ? NULL : path;
}

/* In the child: stdout to /dev/null, stderr to the log, the signals as the sweep found them, then the point's run. */
static void exec_point(const struct sweep *s, const struct sweep_point *pt, const sigset_t *mask)
{
	char *log = log_path(s, pt);
	int null = open("/dev/null", O_WRONLY), fd = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666) : -1;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (null < 0 || fd < 0 || dup2(null, 1) < 0 || dup2(fd, 2) < 0)
		_exit(126);
	execv("/proc/self/exe", pt->argv);
	fprintf(stderr, "cmasim sweep: cannot run /proc/self/exe: %s\n", strerror(errno));
	_exit(127);
}

static int start_next(struct pool *p, const sigset_t *mask)
{
	struct sweep *s = p->s;
	pid_t pid;

	while (p->next < s->nr_points && s->points[p->next].done)
		p->next++;
	if (p->next == s->nr_points)
		return 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "cmasim sweep: cannot start a process: %s\n", strerror(errno));
		return -errno;
	}
	if (!pid)
		exec_point(s, &s->points[p->next], mask);
	p->pids[p->next++] = pid;
	p->running++;
	return 0;
}

static void progress(struct pool *p)
{
	double elapsed = now_s() - p->start;
	size_t left = p->todo - p->done;

	fprintf(stderr, "%scmasim sweep: %zu/%zu points, %.0f s elapsed", p->tty ? "\r" : "", p->done, p->todo,
		elapsed);
	if (p->done && left)
		fprintf(stderr, ", about %.0f s left", elapsed / p->done * left);
	fputs(p->tty && left ? "   " : "\n", stderr);
}

#define FAILURE_LINES 4

/* The last lines the failed child wrote on stderr, to say why without opening the log. */
static void say_failure(const struct sweep *s, const struct sweep_point *pt, int status)
{
	char *log = log_path(s, pt), lines[FAILURE_LINES][256];
	FILE *f = log ? fopen(log, "r") : NULL;
	unsigned n = 0;

	while (f && fgets(lines[n % FAILURE_LINES], sizeof(lines[0]), f))
		n += lines[n % FAILURE_LINES][0] != '\n';
	if (f)
		fclose(f);
	if (WIFSIGNALED(status))
		fprintf(stderr, "\ncmasim sweep: %s: killed by signal %d (log: %s)\n", pt->file, WTERMSIG(status), log);
	else
		fprintf(stderr, "\ncmasim sweep: %s: exit %d (log: %s):\n", pt->file, WEXITSTATUS(status), log);
	for (unsigned i = n > FAILURE_LINES ? n - FAILURE_LINES : 0; i < n; i++)
		fprintf(stderr, "  %s", lines[i % FAILURE_LINES]);
	free(log);
}

/* A child ended: its report renamed into place if it succeeded. */
static void reap(struct pool *p, pid_t pid, int status)
{
	struct sweep *s = p->s;
	struct sweep_point *pt;
	char *final = NULL, *log;
	size_t k;

	for (k = 0; k < s->nr_points && p->pids[k] != pid; k++)
		;
	if (k == s->nr_points)
		return;
	pt = &s->points[k];
	p->pids[k] = 0;
	p->running--;
	if (WIFEXITED(status) && !WEXITSTATUS(status) && asprintf(&final, "%s/%s", s->dir, pt->file) >= 0 &&
	    !rename(pt->part, final)) {
		pt->done = true;
		p->done++;
		if ((log = log_path(s, pt)))
			unlink(log);
		free(log);
		progress(p);
	} else {
		unlink(pt->part);
		pt->refused = WIFEXITED(status) && WEXITSTATUS(status) == 2;
		if (!stop_signal) {
			say_failure(s, pt, status);
		} else if ((log = log_path(s, pt))) {
			unlink(log);	/* stopped, not failed: nothing to read */
			free(log);
		}
	}
	free(final);
}

/* Ctrl-C may have ended every child already (one process group): then there is nothing to stop. */
static void say_stopping(const struct pool *p)
{
	fprintf(stderr, "\ncmasim sweep: interrupted");
	if (p->running)
		fprintf(stderr, ": stopping the %zu running point%s", p->running, p->running == 1 ? "" : "s");
	fputc('\n', stderr);
}

/* Ctrl-C reaches the children too (one process group); SIGTERM to the sweep alone is passed on. */
static void stop_children(struct pool *p)
{
	for (size_t k = 0; k < p->s->nr_points; k++)
		if (p->pids[k])
			kill(p->pids[k], SIGTERM);
}

/*
 * SIGINT, SIGTERM and SIGCHLD are held but while the pool sleeps in
 * sigsuspend, so a stop that comes while a child is being started or
 * reaped is seen at once, not after the next child ends.
 */
int sweep_batch_run(struct sweep *s, unsigned jobs)
{
	struct sigaction stop = { .sa_handler = on_stop }, child = { .sa_handler = on_child };
	struct sigaction old_int, old_term, old_chld;
	struct pool p = { .s = s, .start = now_s(), .tty = isatty(2) };
	sigset_t held, mask, wait_mask;
	bool stopping = false;
	int ret = 0, status;
	pid_t pid;

	p.pids = calloc(s->nr_points ? s->nr_points : 1, sizeof(*p.pids));
	if (!p.pids)
		return -ENOMEM;
	for (size_t k = 0; k < s->nr_points; k++)
		p.todo += !s->points[k].done;
	sigemptyset(&held);
	sigaddset(&held, SIGINT);
	sigaddset(&held, SIGTERM);
	sigaddset(&held, SIGCHLD);
	sigprocmask(SIG_BLOCK, &held, &mask);
	wait_mask = mask;
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	sigdelset(&wait_mask, SIGCHLD);
	sigemptyset(&stop.sa_mask);
	sigemptyset(&child.sa_mask);
	sigaction(SIGINT, &stop, &old_int);
	sigaction(SIGTERM, &stop, &old_term);
	sigaction(SIGCHLD, &child, &old_chld);
	stop_signal = 0;
	if (p.todo)
		progress(&p);
	for (;;) {
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			reap(&p, pid, status);
		if (pid < 0 && errno == ECHILD && p.running)
			break;	/* reaped elsewhere: nothing would wake the wait */
		if (stop_signal && !stopping) {
			stopping = true;
			say_stopping(&p);
			stop_children(&p);
		}
		while (!stop_signal && !ret && p.running < (jobs ? jobs : 1) && p.next < s->nr_points)
			ret = start_next(&p, &mask);
		if (!p.running)
			break;
		sigsuspend(&wait_mask);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	free(p.pids);
	return ret ? ret : stop_signal;
}
