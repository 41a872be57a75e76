#!/bin/sh
# SPDX-License-Identifier: MIT
#
# perf.sh - the performance manager at scale, on the sim backend (bench_perf).
#
#  1. one sampling pass over the 8,192-host 3-level fat tree (radix 32, 49,152
#     linked ports: ClassPortInfo per node on the first pass, then PortCounters
#     and PortCountersExtended per port), five passes, each timed with its
#     store write; the goal is under 2 s;
#  2. the store's cost on the 27,648-host tree (radix 48): after PERF_PASSES
#     (default 5) passes in which every port counted something, the bytes of
#     the history table and its index (sqlite3's dbstat) per row, the rows per
#     host and pass, and so the disk a host costs a day at one pass a minute
#     (perfmgr.interval 60), and the whole fabric's day.
# Results are printed and appended to $BENCH_OUT/perf.txt.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
out=${BENCH_OUT:-$top_builddir/bench-out}
passes=${PERF_PASSES:-5}
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
bench=$top_builddir/contrib/bench/bench_perf
mkdir -p "$out"
make_workdir bench-perf

say() { echo "$*" | tee -a "$out/perf.txt"; }

say "== performance manager benchmark $(date -u '+%Y-%m-%d %H:%M:%S') on $(nproc) cores"
"$topogen" fattree --levels 3 --radix 32 -o "$work/ft-8k.topo"
"$topogen" fattree --levels 3 --radix 48 -o "$work/ft-27k.topo"

say "-- sampling passes, 8,192 hosts"
"$bench" "$work/ft-8k.topo" 5 2>&1 | tee -a "$out/perf.txt"

say "-- the store, 27,648 hosts, $passes passes"
"$bench" "$work/ft-27k.topo" "$passes" "$work/27k.db" 2>&1 | tee -a "$out/perf.txt"
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$work/27k.db" "
		SELECT (SELECT sum(pgsize) FROM dbstat WHERE name IN
			('port_counters', 'port_counters_port')) * 1.0 / count(*),
		       count(*) * 1.0 / $passes / (SELECT count(*) FROM nodes WHERE type = 1)
		FROM port_counters" | tr '|' ' ' | {
		read -r per_row per_host
		say "$(awk -v r="$per_row" -v h="$per_host" 'BEGIN {
			printf "%.1f bytes per history row (table and index); %.2f rows per host and pass;\n", r, h
			printf "at one pass a minute: %.0f KB per host per day, %.1f GB a day for 27,648 hosts\n",
				r * h * 1440 / 1024, r * h * 1440 * 27648 / 1e9 }')"
	}
else
	say "(sqlite3 missing: no per-row figure)"
fi
