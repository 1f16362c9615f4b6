// SPDX-License-Identifier: GPL-2.0
/*
 * The constants of cmasim's CPU-contention, drain and lock-wait terms
 * (doc/cost-model.md, "CPU contention and drains" and "Lock waits"),
 * measured on this machine between its first two CPUs. Each figure is
 * the median of REPEATS rounds, each round itself a median or a mean of
 * many events; one line per constant, "NAME=VALUE UNIT".
 *
 *   wake_idle_us     a thread blocked in futex_wait on an idle CPU, woken
 *                    from the other: half a futex ping-pong's round trip
 *                    (a work item reaching a CPU that runs nothing)
 *   wake_busy_us     the same wakeup when the target CPU runs a busy
 *                    loop of the same priority: time from FUTEX_WAKE to
 *                    the woken thread running (a work item reaching a
 *                    CPU the background keeps busy)
 *   slice_us         wake_busy_us less wake_idle_us: the scheduler's
 *                    delay before it lets the woken thread in
 *   ipi_us           membarrier(PRIVATE_EXPEDITED) while a thread of the
 *                    process runs on the other CPU, less the same call
 *                    with that thread asleep: one IPI's round trip to a
 *                    busy CPU, its handler included
 *   spin_ns          an uncontended spinlock's lock and unlock
 *   spin_handoff_ns  a spinlock both CPUs hammer: time per acquisition,
 *                    the lock's cache line moving between the CPUs
 *   mutex_handoff_us a pthread mutex both CPUs hammer, holding it 1 us
 *                    each time: time per acquisition beyond the hold
 *                    (sleeping waiters woken through the futex)
 *
 *   micro-cpu [REPEATS]
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_SAMPLES 4096

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static long futex(atomic_int *addr, int op, int val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

/* Sleep until *addr is no longer @val. */
static void wait_while(atomic_int *addr, int val)
{
	while (atomic_load(addr) == val)
		futex(addr, FUTEX_WAIT_PRIVATE, val);
}

static void wake(atomic_int *addr, int val)
{
	atomic_store(addr, val);
	futex(addr, FUTEX_WAKE_PRIVATE, 1);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/* ---- futex ping-pong: the wakeup of an idle CPU ---- */

static atomic_int ping;
static atomic_bool stop_flag;

static void *ponger(void *arg)
{
	(void)arg;
	pin(1);
	for (int turn = 1;; turn += 2) {
		wait_while(&ping, turn - 1);
		if (atomic_load(&stop_flag))
			return NULL;
		wake(&ping, turn + 1);
	}
}

static double wake_idle_us(void)
{
	enum { ROUNDS = 2000 };
	pthread_t t;
	double t0;

	atomic_store(&ping, 0);
	atomic_store(&stop_flag, false);
	pthread_create(&t, NULL, ponger, NULL);
	sleep_us(10000);
	t0 = now_ns();
	for (int turn = 0; turn < 2 * ROUNDS; turn += 2) {
		wake(&ping, turn + 1);
		wait_while(&ping, turn + 1);
	}
	t0 = now_ns() - t0;
	atomic_store(&stop_flag, true);
	wake(&ping, 2 * ROUNDS + 1);
	pthread_join(t, NULL);
	return t0 / ROUNDS / 2 / 1000;
}

/* ---- a wakeup onto a CPU that runs a busy loop ---- */

static atomic_int door;
static _Atomic double woke_at;

static void *spinner(void *arg)
{
	(void)arg;
	pin(1);
	while (!atomic_load(&stop_flag))
		;
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	pin(1);
	for (int turn = 1;; turn += 2) {
		wait_while(&door, turn - 1);
		atomic_store(&woke_at, now_ns());
		if (atomic_load(&stop_flag))
			return NULL;
		atomic_store(&door, turn + 1);
	}
}

static double wake_busy_us(void)
{
	enum { ROUNDS = 200 };
	static double lat[ROUNDS];
	pthread_t hog, t;
	int turn = 0;

	atomic_store(&door, 0);
	atomic_store(&stop_flag, false);
	pthread_create(&t, NULL, sleeper, NULL);
	pthread_create(&hog, NULL, spinner, NULL);
	sleep_us(20000);
	for (int i = 0; i < ROUNDS; i++, turn += 2) {
		double t0;

		sleep_us(2000);		/* the sleeper sleeps as a kworker would between drains */
		t0 = now_ns();
		wake(&door, turn + 1);
		while (atomic_load(&door) != turn + 2)
			;
		lat[i] = atomic_load(&woke_at) - t0;
	}
	atomic_store(&stop_flag, true);
	wake(&door, turn + 1);
	pthread_join(t, NULL);
	pthread_join(hog, NULL);
	return median(lat, ROUNDS) / 1000;
}

/* ---- IPIs through membarrier ---- */

static atomic_bool peer_asleep;

static void *peer(void *arg)
{
	(void)arg;
	pin(1);
	while (!atomic_load(&stop_flag))
		if (atomic_load(&peer_asleep))
			sleep_us(1000);
	return NULL;
}

static double membarrier_us(void)
{
	enum { CALLS = 2000 };
	double t0 = now_ns();

	for (int i = 0; i < CALLS; i++)
		syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
	return (now_ns() - t0) / CALLS / 1000;
}

static double ipi_us(void)
{
	pthread_t t;
	double busy, idle;

	atomic_store(&stop_flag, false);
	atomic_store(&peer_asleep, false);
	pthread_create(&t, NULL, peer, NULL);
	sleep_us(10000);
	busy = membarrier_us();
	atomic_store(&peer_asleep, true);
	sleep_us(10000);
	idle = membarrier_us();
	atomic_store(&stop_flag, true);
	pthread_join(t, NULL);
	return busy > idle ? busy - idle : 0;
}

/* ---- locks ---- */

static atomic_int spin;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static atomic_llong acquired;
static atomic_bool go;

static void spin_lock(void)
{
	while (atomic_exchange_explicit(&spin, 1, memory_order_acquire))
		while (atomic_load_explicit(&spin, memory_order_relaxed))
			;
}

static void spin_unlock(void)
{
	atomic_store_explicit(&spin, 0, memory_order_release);
}

static double spin_ns(void)
{
	enum { N = 1000000 };
	double t0 = now_ns();

	for (int i = 0; i < N; i++) {
		spin_lock();
		spin_unlock();
	}
	return (now_ns() - t0) / N;
}

static void hold_for(double ns)
{
	double until = now_ns() + ns;

	while (now_ns() < until)
		;
}

struct hammer { int cpu; bool use_mutex; };

static void *hammer(void *arg)
{
	struct hammer *h = arg;
	long long n = 0;

	pin(h->cpu);
	while (!atomic_load(&go))
		;
	while (!atomic_load(&stop_flag)) {
		if (h->use_mutex) {
			pthread_mutex_lock(&mutex);
			hold_for(1000);
			pthread_mutex_unlock(&mutex);
		} else {
			spin_lock();
			atomic_fetch_add_explicit(&acquired, 0, memory_order_relaxed);
			spin_unlock();
		}
		n++;
	}
	atomic_fetch_add(&acquired, n);
	return NULL;
}

/* ns per acquisition with both CPUs contending, less @hold_ns. */
static double handoff_ns(bool use_mutex, double hold_ns)
{
	struct hammer h[2] = { { 0, use_mutex }, { 1, use_mutex } };
	pthread_t t[2];
	double t0;

	atomic_store(&stop_flag, false);
	atomic_store(&go, false);
	atomic_store(&acquired, 0);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, hammer, &h[i]);
	sleep_us(5000);
	t0 = now_ns();
	atomic_store(&go, true);
	sleep_us(200000);
	atomic_store(&stop_flag, true);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	t0 = now_ns() - t0;
	return t0 / (double)atomic_load(&acquired) - hold_ns;
}

int main(int argc, char **argv)
{
	int repeats = argc > 1 ? atoi(argv[1]) : 5;
	enum { WAKE_IDLE, WAKE_BUSY, IPI, SPIN, SPIN_HANDOFF, MUTEX_HANDOFF, NR };
	static double v[NR][64];
	double m[NR];

	if (repeats < 1 || repeats > 64) {
		fprintf(stderr, "usage: micro-cpu [REPEATS (1..64)]\n");
		return 2;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "micro-cpu: needs two CPUs\n");
		return 1;
	}
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0)) {
		perror("micro-cpu: membarrier register");
		return 1;
	}
	pin(0);
	for (int r = 0; r < repeats; r++) {
		v[WAKE_IDLE][r] = wake_idle_us();
		v[WAKE_BUSY][r] = wake_busy_us();
		v[IPI][r] = ipi_us();
		v[SPIN][r] = spin_ns();
		v[SPIN_HANDOFF][r] = handoff_ns(false, 0);
		v[MUTEX_HANDOFF][r] = handoff_ns(true, 1000) / 1000;
	}
	for (int i = 0; i < NR; i++)
		m[i] = median(v[i], repeats);
	printf("wake_idle_us=%.2f us\n", m[WAKE_IDLE]);
	printf("wake_busy_us=%.2f us\n", m[WAKE_BUSY]);
	printf("slice_us=%.2f us\n", m[WAKE_BUSY] > m[WAKE_IDLE] ? m[WAKE_BUSY] - m[WAKE_IDLE] : 0);
	printf("ipi_us=%.2f us\n", m[IPI]);
	printf("spin_ns=%.1f ns\n", m[SPIN]);
	printf("spin_handoff_ns=%.1f ns\n", m[SPIN_HANDOFF]);
	printf("mutex_handoff_us=%.2f us\n", m[MUTEX_HANDOFF]);
	return 0;
}
