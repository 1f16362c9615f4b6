/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spinlock_t: a test-and-test-and-set lock for short critical sections
 * (zone->lock, the per-CPU list slots). Threads outnumbering cores must not
 * burn a whole time slice, so a waiter yields after a bounded spin.
 *
 * At CMA_DEBUG >= 1 the lock records its holder (a per-thread address), so
 * that lockdep_assert_held() can tell a function called without the lock
 * its comment demands: the kernel's lockdep, reduced to that one question.
 */
#ifndef CMA_LIB_SPINLOCK_H
#define CMA_LIB_SPINLOCK_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef CMA_DEBUG
#define CMA_DEBUG 1
#endif

typedef struct {
	atomic_bool locked;
#if CMA_DEBUG >= 1
	_Atomic(const void *) owner;	/* the holder's spin_self(), or NULL */
#endif
} spinlock_t;

#if CMA_DEBUG >= 1
/* The calling thread's TLS block: one address per thread, read in one load. */
static inline const void *spin_self(void)
{
	return __builtin_thread_pointer();
}

static inline void spin_set_owner(spinlock_t *l, const void *owner)
{
	atomic_store_explicit(&l->owner, owner, memory_order_relaxed);
}

/*
 * Held by the caller: locked, and last taken by this thread (the owner is
 * written on lock only; a thread that unlocked sees locked false or
 * another owner, unless another thread has just taken the lock and not yet
 * written its name: the check may then pass wrongly, never fail wrongly).
 */
#define lockdep_assert_held(l) do {							\
	if (!atomic_load_explicit(&(l)->locked, memory_order_relaxed) ||		\
	    atomic_load_explicit(&(l)->owner, memory_order_relaxed) != spin_self()) {	\
		fprintf(stderr, "libcma: BUG at %s:%d: %s not held\n", __FILE__, __LINE__, #l); \
		abort();								\
	}										\
} while (0)
#else
#define spin_set_owner(l, owner) do { } while (0)
#define lockdep_assert_held(l) do { } while (0)
#endif

#define SPIN_BEFORE_YIELD 128

static inline void spin_lock_init(spinlock_t *l)
{
	atomic_init(&l->locked, false);
	spin_set_owner(l, NULL);
}

static inline void spin_lock(spinlock_t *l)
{
	for (;;) {
		if (!atomic_exchange_explicit(&l->locked, true, memory_order_acquire)) {
			spin_set_owner(l, spin_self());
			return;
		}
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
	if (atomic_load_explicit(&l->locked, memory_order_relaxed) ||
	    atomic_exchange_explicit(&l->locked, true, memory_order_acquire))
		return false;
	spin_set_owner(l, spin_self());
	return true;
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
