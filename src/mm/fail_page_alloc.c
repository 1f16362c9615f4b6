// SPDX-License-Identifier: GPL-2.0
/*
 * fail_page_alloc: fail the allocations the rules pick, as the kernel's
 * fault-injection attributes do (space, interval, probability, times,
 * min order), plus only_migration: fail only migration targets. Unlike
 * the kernel's defaults (ignore_gfp_wait, ignore_gfp_highmem) every
 * allocation is eligible, so that sleeping and movable paths are tested.
 */
#include <string.h>

#include "lib/prandom.h"
#include "mm/internal.h"

static _Thread_local int in_migration;

void migration_alloc_begin(void)
{
	in_migration++;
}

void migration_alloc_end(void)
{
	in_migration--;
}

void cma_fault_inject(struct cma_mm *mm, const struct cma_fault_attr *attr)
{
	struct fail_page_alloc *f = &mm->fail;

	pthread_mutex_lock(&f->lock);
	memset(&f->attr, 0, sizeof(f->attr));
	if (attr)
		f->attr = *attr;
	f->space = f->attr.space;
	f->times = f->attr.times ? (long)f->attr.times : -1;
	f->count = 0;
	f->rnd = f->attr.seed;
	atomic_store(&f->enabled, f->attr.probability != 0);
	pthread_mutex_unlock(&f->lock);
}

/* should_fail_alloc_page() once injection is enabled. */
bool __should_fail_alloc_page(struct cma_mm *mm, unsigned order)
{
	struct fail_page_alloc *f = &mm->fail;
	bool fail = false;

	pthread_mutex_lock(&f->lock);
	if (order < f->attr.min_order || (f->attr.only_migration && !in_migration) || !f->times)
		goto out;
	/* API: exactly @space pages get through (the kernel's test is >, one short) */
	if (f->space >= (1ul << order)) {
		f->space -= 1ul << order;
		goto out;
	}
	f->space = 0;
	if (f->attr.interval > 1 && ++f->count % f->attr.interval)
		goto out;
	if (f->attr.probability <= prandom_below(&f->rnd, 100))
		goto out;
	if (f->times > 0)
		f->times--;
	fail = true;
out:
	pthread_mutex_unlock(&f->lock);
	return fail;
}
