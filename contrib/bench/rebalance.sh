#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rebalance.sh - the rebalancer's figure of `make bench`: bitrev (a steady hot
# spot for ftree) on the 1,024-host and the 8,192-host 3-level fat trees
# through the traffic model, interval after interval until it settles, or for
# 100 intervals on the 8,192-host tree (about 2 s each on a quiet core)
# (contrib/bench/rebalance_model.c).  Results are printed and appended to
# $BENCH_OUT/rebalance.txt.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
out=${BENCH_OUT:-$top_builddir/bench-out}
mkdir -p "$out"
run()	# RADIX MAX-INTERVALS
{
	"$top_builddir/contrib/bench/rebalance_model" --pattern bitrev --max "$2" fattree \
		--levels 3 --radix "$1" | tee -a "$out/rebalance.txt" | grep -v "^  interval"
}
run 16 200
run 32 100
