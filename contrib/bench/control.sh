#!/bin/sh
# SPDX-License-Identifier: MIT
#
# control.sh - `make bench`: the control socket's latency during a cold heavy
# sweep of the 3-level radix-48 fat tree (27,648 hosts) on the sim backend.
# ibsmd runs as a daemon on an empty store; ctl_latency asks "status" every
# 10 ms from the moment the socket exists until the subnet is up.  Prints the
# bring-up time and peak RSS with p50/p99/max latency; appends to
# $BENCH_OUT/control.txt.  BENCH_RADIX picks another tree (default 48).
# BENCH_TRAPS=MS: a leaf switch sends a Trap 128 every MS ms (each leaf in
# turn) through the sweep, so the loop records trap events while workers hold
# the store (sm_store_queue.h).
# BENCH_TRAFFIC=PATTERN: the sim runs traffic=PATTERN (sm_sim_traffic.c, its
# model computed before every counter pass) with perfmgr.interval 10 s, and
# the latency is measured for BENCH_SECONDS (40) once the subnet is up, not
# during the bring-up; the passes done meanwhile are counted.  `make bench`
# runs it with shift on the radix-24 tree (3,456 hosts).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
out=${BENCH_OUT:-$top_builddir/bench-out}
radix=${BENCH_RADIX:-48}
mkdir -p "$out"
make_workdir bench-control
sm=
at_exit '[ -n "$sm" ] && kill "$sm" 2>/dev/null'
say() { echo "$*" | tee -a "$out/control.txt"; }

"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix "$radix" \
	-o "$work/ft.topo"
backend="sim:$work/ft.topo"
traps=
if [ "${BENCH_TRAPS:-0}" -gt 0 ]; then
	leaves=$(grep -c '^Switch.*"L0\.' "$work/ft.topo")
	awk -v every="$BENCH_TRAPS" -v leaves="$leaves" 'BEGIN {
		for (i = 0; i * every <= 30000; i++)
			printf "%d trap \"L0.%d\"\n", i * every, i % leaves }' >"$work/traps.events"
	backend="$backend,events=$work/traps.events"
	traps=", a trap every $BENCH_TRAPS ms"
fi
traffic=${BENCH_TRAFFIC:-}
when="during a cold heavy sweep"
: >"$work/ibsmd.yaml"
if [ -n "$traffic" ]; then
	backend="$backend,traffic=$traffic"
	when="with the sim's traffic=$traffic and a counter pass every 10 s, for ${BENCH_SECONDS:-40} s"
	printf 'perfmgr:\n  interval: 10\nlog:\n  level: info\n' >"$work/ibsmd.yaml"
fi
say "== control socket $when, 3-level radix-$radix tree$traps," \
	"$(date -u '+%Y-%m-%d %H:%M:%S'), $(nproc) cores"
"$top_builddir/ibsmd" --foreground -c "$work/ibsmd.yaml" \
	--backend "$backend" --db "$work/ft.db" --control-socket "$work/sm.sock" \
	>"$work/log" 2>&1 &
sm=$!
probe() {
	"$top_builddir/contrib/bench/ctl_latency" "$work/sm.sock" 10 >"$work/lat" &
	probe=$!
}
[ -n "$traffic" ] || probe
for _ in $(seq 1200); do
	grep -q "subnet up" "$work/log" && break
	sleep 0.1
done
if [ -n "$traffic" ]; then
	probe
	sleep "${BENCH_SECONDS:-40}"
fi
kill -TERM "$probe"
wait "$probe" || true
rss=$(awk '/^VmHWM/ { print int($2 / 1024) }' "/proc/$sm/status")
kill -TERM "$sm"
wait "$sm" || true
sm=
grep -E "subnet up|heavy sweep stopped" "$work/log" | sed 's/^.*notice: //' | tee -a "$out/control.txt"
[ -z "$traps" ] || say "$(grep -c 'notice: trap 128' "$work/log") traps taken"
[ -z "$traffic" ] || say "$(grep -c 'info: port counters: .* ports sampled' "$work/log") counter passes"
say "peak RSS $rss MB"
tee -a "$out/control.txt" <"$work/lat"
