// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ops_releases: fuzz_ops under the releases between 3.5 and 6.12,
 * where profile.h's switches meet in combinations neither end has. The
 * first byte picks the shape as fuzz_ops's does and the release with
 * what is left of it; fuzz_ops itself keeps 3.5 and 6.12, so that its
 * inputs keep their meaning.
 */
#define FUZZ_OPS_RELEASES
#include "fuzz_ops.c"
