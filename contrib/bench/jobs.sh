#!/bin/sh
# SPDX-License-Identifier: MIT
#
# jobs.sh - job-aware routing's figures for `make bench` (routing/rt_job.h,
# sm/jobs/), on the 8,192-host and the 27,648-host 3-level fat trees:
#
# 1. contrib/bench/bench_jobs: PLACEMENTS (100) random fragmented placements
#    of 4 to 16 jobs of 64, 256 and 1,024 hosts each (ring, halving-doubling
#    and alltoall in turn), each job's EBB under ftree and job-aware, per
#    pattern and size, twice: ranks in random order, then in host-list order
#    (a scheduler's sorted node list); the routing CPU time and LFT
#    blocks of each start; running jobs' EBB before and after each start;
#    after every placement the tables back to ftree's (digest), and the
#    first ones through rt_validate() and the credit-loop check;
# 2. the daemon on the sim backend of the 27,648-host tree: a 1,024-host job
#    on random fragments started through smquery with each pattern (ranks in
#    random order; all-to-all also in host-list order), and an all-to-all on
#    one host per leaf (the most flows to route), each answer
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
	for order in random hostlist; do
		say "-- ranks in $order order"
		"$top_builddir/contrib/bench/bench_jobs" --placements "$placements" --check 2 \
			--order "$order" "$work/ft$k.topo" | tee -a "$out/jobs.txt"
	done
done

say "-- reading: a job's EBB cannot pass 1, so no routing gains more than 1 / ftree's EBB
   (\"the most routing could give\"); where ftree already serves the median job well that
   bound, not the router, caps the gain.
   Ranks in host-list order (a leaf's hosts, and a pod's, consecutive ranks): ftree serves
   the ring, and all-to-all at once, with no contention; halving-doubling and pairwise
   exchange lose a little, and job-aware routing takes all of that back.
   All-to-all at once (every rank sends 1/(n-1) of a link to each other rank, as NCCL
   posts it) loads few links past 1 under ftree: nothing to gain.  As pairwise exchange
   (n-1 shift rounds, as MPI runs large all-to-alls) one table serves n-1 permutations:
   by rank (d-mod-k on the ranks) every shift is contention-free when ranks follow the
   tree; in random order no one destination table serves every shift, and a pass over
   all n-1 of them moves the leaves' entries where that shares fewer links, within a
   time bound (a 1,024-host job's pass stops part way).  Its gain is measured over 8
   shifts the router never sees.
   \"beside the others\" adds each other job's heaviest round on every link: an
   all-to-all's shift rounds load every up link of its leaves."
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
# the same hosts in host-list order, as Slurm gives them
sorted=$(echo "$hosts" | tr , '\n' | sort -t H -k 2 -n | paste -sd , -)
for p in ring halving-doubling alltoall alltoall-sorted alltoall-spread; do
	list=$hosts
	pattern=$p
	case $p in
	alltoall-spread) list=$spread pattern=alltoall ;;
	alltoall-sorted) list=$sorted pattern=alltoall ;;
	esac
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
