/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spinlock_t: a test-and-test-and-set lock for short critical sections
 * (zone->lock, the per-CPU list slots). Threads outnumbering cores must not
 * burn a whole time slice, so a waiter yields after a bounded spin.
 */
#ifndef CMA_LIB_SPINLOCK_H
#define CMA_LIB_SPINLOCK_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct {
	atomic_bool locked;
} spinlock_t;

#define SPIN_BEFORE_YIELD 128

static inline void spin_lock_init(spinlock_t *l)
{
	atomic_init(&l->locked, false);
}

static inline void spin_lock(spinlock_t *l)
{
	for (;;) {
		if (!atomic_exchange_explicit(&l->locked, true, memory_order_acquire))
			return;
		for (int i = 0; atomic_load_explicit(&l->locked, memory_order_relaxed); i++) {
			if (i >= SPIN_BEFORE_YIELD) {
				sched_yield();
				i = 0;
			}
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#endif
		}
	}
}

static inline bool spin_trylock(spinlock_t *l)
{
	return !atomic_load_explicit(&l->locked, memory_order_relaxed) &&
	       !atomic_exchange_explicit(&l->locked, true, memory_order_acquire);
}

static inline void spin_unlock(spinlock_t *l)
{
	atomic_store_explicit(&l->locked, false, memory_order_release);
}

static inline bool spin_is_locked(spinlock_t *l)
{
	return atomic_load_explicit(&l->locked, memory_order_relaxed);
}

#endif
