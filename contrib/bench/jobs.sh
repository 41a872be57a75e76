#!/bin/sh
# SPDX-License-Identifier: MIT
#
# jobs.sh - job-aware routing's figures for `make bench` (routing/rt_job.h,
# sm/jobs/), on the 8,192-host and the 27,648-host 3-level fat trees:
#
# 1. contrib/bench/bench_jobs: PLACEMENTS (100) random fragmented placements
#    of 4 to 16 jobs of 64, 256 and 1,024 hosts each (ring, halving-doubling
#    and alltoall in turn, ranks in random order), each job's EBB under
#    ftree and job-aware, per pattern and size; the routing CPU time and LFT
#    blocks of each start; running jobs' EBB before and after each start;
#    after every placement the tables back to ftree's (digest), and the
#    first ones through rt_validate() and the credit-loop check;
# 2. the daemon on the sim backend of the 27,648-host tree: a 1,024-host job
#    on random fragments started through smquery with each pattern, and an
#    all-to-all on one host per leaf (the most flows to route), each answer
#    (hosts, LFT blocks sent, ms from the request to the last block's
#    answer), then ended;
# 3. a rail-optimised tree of nodes of 8 HCAs: `smquery rails` passes, and
#    with one HCA cabled to the wrong leaf names it.
#
# Results are printed and appended to $BENCH_OUT/jobs.txt.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
out=${BENCH_OUT:-$top_builddir/bench-out}
placements=${PLACEMENTS:-100}
mkdir -p "$out"
make_workdir bench-jobs
sim_daemon=
at_exit '[ -n "$sim_daemon" ] && kill "$sim_daemon" 2>/dev/null'
gen="$top_builddir/contrib/topogen/ibsmd-topogen"
say() { echo "$*" | tee -a "$out/jobs.txt"; }

say "== job-aware routing ($(date -u +%Y-%m-%dT%H:%MZ), $placements placements)"
for k in 32 48; do
	"$gen" fattree --levels 3 --radix "$k" -o "$work/ft$k.topo"
	"$top_builddir/contrib/bench/bench_jobs" --placements "$placements" --check 2 \
		"$work/ft$k.topo" | tee -a "$out/jobs.txt"
done

say "-- reading: a job's EBB cannot pass 1, so no routing gains more than 1 / ftree's EBB
   (\"the most routing could give\"); where ftree already serves the median job well
   (halving-doubling's 64-host jobs) that bound, not the router, caps the gain.
   All-to-all as one round (every rank sends 1/(n-1) of a link to each other rank at
   once, as NCCL posts it) loads few links past 1 under ftree: the mean share stays
   near 1.000 and the slowest flow gets 1 / the highest link load.  As pairwise
   exchange (n-1 shift rounds, sampled) one table serves n-1 permutations; job-aware
   routing spreads an all-to-all job for the one round, not for its shifts."
say "-- the daemon, 27,648 hosts (sim backend): a 1,024-host job started and ended"
sim_daemon_start "$work/ft48.topo" "$work/ibsmd.log" 1 60 || say "the daemon: no 'subnet up'"
# 1,024 hosts in fragments (runs of 1 to 24 free hosts at random places), ranks
# in random order, as bench_jobs places them
hosts=$(awk 'BEGIN { srand(1); n = 27648
	while (got < 1024) {
		at = int(rand() * n); len = 1 + int(rand() * 24)
		for (; at < n && len-- > 0 && got < 1024 && !(at in taken); at++) {
			taken[at] = 1; h[got++] = at
		}
	}
	for (i = got - 1; i > 0; i--) { k = int(rand() * (i + 1)); t = h[i]; h[i] = h[k]; h[k] = t }
	for (i = 0; i < got; i++) printf "%sH%d", i ? "," : "", h[i] }')
# and one host every 27, a host per leaf: all-to-all's most flows to route
spread=$(awk 'BEGIN { for (i = 0; i < 1024; i++) printf "%sH%d", i ? "," : "", i * 27 }')
for p in ring halving-doubling alltoall alltoall-spread; do
	list=$hosts
	pattern=$p
	[ "$p" = alltoall-spread ] && list=$spread && pattern=alltoall
	say "$("$top_builddir/smquery" --socket "$work/sm.sock" job start "j-$p" --pattern "$pattern" \
		--hosts "$list" 2>&1)"
	say "$("$top_builddir/smquery" --socket "$work/sm.sock" job end "j-$p" 2>&1)"
done
kill "$sim_daemon"
wait "$sim_daemon" || true
sim_daemon=

say "-- rails: 8 HCAs per node"
"$gen" fattree --levels 3 --radix 16 --rails 8 -o "$work/rails.topo"
"$gen" fattree --levels 3 --radix 16 --rails 8 --miswire 17:3 -o "$work/mis.topo"
for f in rails mis; do
	"$top_builddir/ibsmd" --backend "sim:$work/$f.topo" --db "$work/$f.db" --once \
		>"$work/$f.log" 2>&1
	say "$("$top_builddir/smquery" --db "$work/$f.db" rails 2>&1 || true)"
done
