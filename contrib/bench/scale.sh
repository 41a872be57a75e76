#!/bin/sh
# SPDX-License-Identifier: MIT
#
# scale.sh - the in-process figures of `make bench`: no ibsim, no OpenSM.
#
#  1. the simulated fabric: load the 3-level radix-48 fat tree (27,648 hosts,
#     2,880 switches) and walk every node by directed route (bench_sim_load);
#  2. routing: every engine on fat trees of 1k, 8k and 27k hosts and on a 3D
#     torus (bench_route: LIDs assigned as the daemon does, compute + validate),
#     wall time, CPU time, peak RSS and a digest of the LFTs (tests/route_digest.sh
#     holds ftree's);
#  3. the dfsssp engine: CPU time, virtual layers (SLs) and EBB on the 8k tree,
#     the tori, the default dragonfly and the real clusters (rt_engine_time);
#  4. the whole daemon on the sim backend (ibsmd --once, info log): the 27k tree,
#     and the 3-level radix-56 tree at the unicast LID limit (43,904 hosts,
#     3,920 switches, 47,824 LIDs): wall time, peak RSS, and each stage's time
#     from the log's timestamps (discovery, LIDs, routing with validation and the
#     credit-loop check, programming, store), routing's own breakdown, and the
#     store's LID/LFT/activation times when the sqlite3 shell is there (the LID
#     Sets run alongside routing: "routing" includes them); and the
#     8k tree with the simulator's VL15 buffers (8 SMPs per port, more dropped:
#     its default) and without that limit.
# BENCH_DAEMON_ROUTING: the daemon's engine chain (default ftree).
# BENCH_CALLGRIND=1 adds the 8k tree's instruction count (load-independent).
# BENCH_SKIP_43K=1 leaves out the 43k tree (about twice the 27k's time, 0.7 GB).
# Results are printed and appended to $BENCH_OUT/scale.txt.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
out=${BENCH_OUT:-$top_builddir/bench-out}
engines=${BENCH_ENGINES:-minhop updn ftree dfsssp}
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
mkdir -p "$out"
make_workdir bench-scale

say() { echo "$*" | tee -a "$out/scale.txt"; }

say "== scale benchmark $(date -u '+%Y-%m-%d %H:%M:%S') on $(nproc) cores"
"$topogen" fattree --levels 3 --radix 16 -o "$work/ft-1k.topo"
"$topogen" fattree --levels 3 --radix 32 -o "$work/ft-8k.topo"
"$topogen" fattree --levels 3 --radix 48 -o "$work/ft-27k.topo"
"$topogen" torus --dims 8x8x8 --hosts-per-switch 4 -o "$work/torus-8x8x8.topo"

say "-- simulated fabric, 27,648 hosts"
"$top_builddir/contrib/bench/bench_sim_load" "$work/ft-27k.topo" 2>&1 | tee -a "$out/scale.txt"

say "-- routing stage (compute + validation) per engine"
for f in ft-1k ft-8k ft-27k torus-8x8x8; do
	for e in $engines; do
		# dfsssp: one Dijkstra per LID and pass; the 27k tree takes minutes
		[ "$e.$f" = dfsssp.ft-27k ] && continue
		"$top_builddir/tests/bench_route" "$work/$f.topo" "$e" 2>/dev/null |
			sed "s|^$work/||; s|^|$e: |" | tee -a "$out/scale.txt" || true
	done
done

say "-- dfsssp: CPU time, layers (SLs) and EBB"
"$topogen" torus --dims 4x4x4 --hosts-per-switch 2 -o "$work/torus-4x4x4.topo"
"$topogen" dragonfly -o "$work/dragonfly.topo"
for f in "$work/ft-8k.topo" "$work/torus-8x8x8.topo" "$work/torus-4x4x4.topo" \
	"$work/dragonfly.topo" "$top_srcdir"/tests/topo/real/*.topo; do
	"$top_builddir/tests/rt_engine_time" "$f" dfsssp 2>&1 |
		grep -E '^dfsssp:|^quality:' | sed "s|^|${f##*/}: |" | tee -a "$out/scale.txt" || true
done

# stage_times LOG: the time between the log lines that end each stage
stage_times() {
	awk '
	function ms(t,  a) { split(t, a, ":"); return ((a[1] * 60 + a[2]) * 60 + a[3]) * 1000 }
	function stage(name,  d) {
		d = ms($2) - last; last = ms($2)
		printf "  %-12s %6d ms", name, d
		if (ref > 0) printf "  %5.2f x the reference", d / 1000 / ref
		printf "\n"
	}
	/ starting/ { last = ms($2) }
	/ discovery: [0-9]/ { stage("discovery") }
	/ LIDs: / { stage("LIDs") }
	/ routes all / { stage("routing") }
	/ programming: / { stage("programming") }
	/ subnet up in / { stage("store") }
	' ref="$(sed -n 's/^reference_s=//p' "$out/reference.txt" 2>/dev/null)" "$1"
}

# ref_ratio SECONDS: " (N.NN x the machine reference)" when reference.sh
# measured one in this run, else nothing
ref_ratio() {
	[ -f "$out/reference.txt" ] || return 0
	awk -v t="$1" -F= '/^reference_s=/ && $2 > 0 { printf " (%.2f x the reference %.2f s)", t / $2, $2 }' \
		"$out/reference.txt"
}

# daemon NAME TOPOFILE: ibsmd --once on the sim backend, its figures
daemon() {
	/usr/bin/time -f "%e s wall, %U s user + %S s sys CPU, %M KB peak RSS" \
		-o "$work/$1.time" "$top_builddir/ibsmd" \
		-c /dev/null --backend "sim:$2" --db "$work/$1.db" --once --log-level info \
		--routing "${BENCH_DAEMON_ROUTING:-ftree}" \
		> "$work/$1.log" 2>&1 || say "ibsmd --once on $1 FAILED: $(tail -1 "$work/$1.log")"
	grep -E 'discovery: [0-9]|routes all|ms computing|ms validating|programming:|subnet up' "$work/$1.log" |
		sed 's/^.*\(notice\|info\): //' | tee -a "$out/scale.txt"
	stage_times "$work/$1.log" | tee -a "$out/scale.txt"
	if command -v sqlite3 > /dev/null; then
		sqlite3 "$work/$1.db" "SELECT '  of programming: LIDs ' || lid_ms || ' ms, LFTs ' ||
			lft_ms || ' ms, activation ' || activate_ms || ' ms' FROM sweeps
			WHERE kind = 'heavy' ORDER BY id DESC LIMIT 1" | tee -a "$out/scale.txt"
	fi
	wall=$(awk '{ print $1; exit }' "$work/$1.time")
	say "$(cat "$work/$1.time")$(ref_ratio "$wall")"
	rm -f "$work/$1.db" "$work/$1.db-wal" "$work/$1.db-shm"
}

say "-- ibsmd --once on the sim backend, 27,648 hosts"
daemon ft-27k "$work/ft-27k.topo"
if [ "${BENCH_SKIP_43K:-0}" != 1 ]; then
	say "-- ibsmd --once on the sim backend, 43,904 hosts, 47,824 LIDs (the unicast limit)"
	"$topogen" fattree --levels 3 --radix 56 -o "$work/ft-43k.topo"
	daemon ft-43k "$work/ft-43k.topo"
fi

# Wall and CPU times depend on the machine and on its load (a loaded 2-core
# machine stretched the 27k bring-up's CPU time 2x with the same binary); the
# instruction count does not: BENCH_CALLGRIND=1 counts the 8,192-host cold
# bring-up's instructions under callgrind (about ten minutes).
if [ "${BENCH_CALLGRIND:-0}" = 1 ] && command -v valgrind > /dev/null; then
	say "-- ibsmd --once on the sim backend, 8,192 hosts, under callgrind: instructions"
	valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$top_builddir/ibsmd" \
		-c /dev/null --backend "sim:$work/ft-8k.topo" --db "$work/cg.db" --once \
		--routing "${BENCH_DAEMON_ROUTING:-ftree}" > "$work/cg.log" 2>&1
	say "  $(sed -n 's/^==[0-9]*== I *refs: *//p' "$work/cg.log") instructions"
	rm -f "$work/cg.out" "$work/cg.db"*
fi

say "-- ibsmd --once on the sim backend, 8,192 hosts, VL15 buffer per port: 8 SMPs (drops on), none"
for buf in 8 0; do
	daemon "ft-8k-buffer-$buf" "$work/ft-8k.topo,smp-buffer=$buf"
done
