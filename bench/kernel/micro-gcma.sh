#!/bin/sh
# Measure GCMA's per-page cost of a contiguous allocation on this machine
# (micro-gcma.c says which operations it replays) and keep it with the
# machine's description in FILE (default
# bench/kernel/results/micro-gcma-KERNEL-DATE.txt). Needs no root; seconds.
#
#   bench/kernel/micro-gcma.sh [REPEATS [FILE]]
set -u
caller_dir=$(pwd)
cd "$(dirname "$0")"
. ./common.sh
micro_measure micro-gcma "${1:-9}" "$(from_caller "${2:-$PWD/results/micro-gcma-$(uname -r)-$(date +%Y%m%d).txt}")"
