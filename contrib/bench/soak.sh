#!/bin/sh
# SPDX-License-Identifier: MIT
#
# soak.sh - the daemon over time under ibsim, with a flapping link.
#
# In a network namespace of its own: ibsim serves the bundled fat tree, ibsmd
# runs as a daemon with a light sweep every second, and ibsim's Unlink/ReLink
# flap one of four leaf uplinks every SOAK_FLAP seconds (default 4) for
# SOAK_SECONDS (default 600).  ctl_latency asks the control socket for status
# every 20 ms throughout.  After every flap: the SM must have swept (a new
# "subnet up"), the flap must show in `smquery events` (link_removed or
# link_added), and `smquery route-check` must report 0 unreachable pairs and
# no credit loop.  At the end: RSS at the first and last minute, the flap
# count and failures, and the control socket's p50/p99/max.  Exits 1 on any
# failed check, on RSS growth of more than 10%, or on a p99 over 50 ms.
# Results are appended to $BENCH_OUT/soak.txt.  Not part of `make check`.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
out=${BENCH_OUT:-$top_builddir/bench-out}
mkdir -p "$out"
make_workdir soak

unshare -n sh -s "$out" "${SOAK_SECONDS:-600}" "${SOAK_FLAP:-4}" <<'INNER'
out=$1 seconds=$2 flap=$3
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$ibsim_ns"
log=$work/ibsmd.log
say() { echo "$*" | tee -a "$out/soak.txt"; }
failures=0
bad() { say "FAIL: $*"; failures=$((failures + 1)); }
ups() { grep -c "subnet up" "$log"; }
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$sm/status"; }

cat >"$work/ibsmd.yaml" <<EOC
backend: umad
db: $work/sm.db
socket: $work/sm.sock
sweep:
  interval: 1
EOC
ibsim_start "$top_srcdir/contrib/fabrics/fattree-2l-r8.topo" || exit 3
(cd "$IBSIM_DIR" && LD_PRELOAD=$IBSIM_PRELOAD exec "$top_builddir/ibsmd" \
	-c "$work/ibsmd.yaml" --foreground >"$log" 2>&1) &
sm=$!
wait_for_log "$log" "subnet up" 1 || { echo "FAIL: no subnet up"; tail "$log"; ibsim_stop; exit 1; }
"$top_builddir/contrib/bench/ctl_latency" "$work/sm.sock" 20 >"$work/lat" &
probe=$!

say "== soak $(date -u '+%Y-%m-%d %H:%M:%S'): ${seconds} s, a flap every ${flap} s, light sweeps every 1 s"
rss0=$(rss)
rss_first=
start=$(date +%s)
flaps=0
while [ $(( $(date +%s) - start )) -lt "$seconds" ]; do
	port=$((5 + flaps / 2 % 4))	# L0's uplinks are ports 5..8
	if [ $((flaps % 2)) = 0 ]; then cmd=Unlink kind=link_removed; else cmd=ReLink kind=link_added; fi
	before=$(ups)
	events=$("$top_builddir/smquery" --db "$work/sm.db" events | grep -c "$kind")
	ibsim_cmd "$cmd \"L0\"[$port]"
	flaps=$((flaps + 1))
	t=0
	while [ "$(ups)" -le "$before" ] && [ $t -lt 150 ]; do sleep 0.1; t=$((t + 1)); done
	[ "$(ups)" -gt "$before" ] || bad "flap $flaps ($cmd L0[$port]): no sweep within 15 s"
	now=$("$top_builddir/smquery" --db "$work/sm.db" events | grep -c "$kind")
	[ "$now" -gt "$events" ] || bad "flap $flaps ($cmd L0[$port]): no $kind event"
	"$top_builddir/smquery" --db "$work/sm.db" route-check >"$work/rc" 2>&1 ||
		bad "flap $flaps: route-check failed: $(head -3 "$work/rc")"
	grep -q " 0 unreachable, 0 in loops" "$work/rc" && grep -q "credit loops: none" "$work/rc" ||
		bad "flap $flaps: route-check not clean: $(head -3 "$work/rc")"
	[ -z "$rss_first" ] && [ $(( $(date +%s) - start )) -ge 60 ] && rss_first=$(rss)
	sleep "$flap"
done
rss_last=$(rss)
status=$("$top_builddir/smquery" --socket "$work/sm.sock" status)
kill -TERM "$probe"
wait "$probe"
kill -TERM "$sm"
wait "$sm"
rc=$?
ibsim_stop
[ "$rc" = 0 ] || bad "ibsmd exited $rc on SIGTERM"
: "${rss_first:=$rss0}"
say "flaps: $flaps, failed checks: $failures; at the end: $status"
say "RSS: $rss0 KB at start, $rss_first KB after a minute, $rss_last KB at the end"
tee -a "$out/soak.txt" <"$work/lat"
[ "$rss_last" -le $((rss_first + rss_first / 10)) ] || bad "RSS grew from $rss_first to $rss_last KB"
p99=$(sed -n 's/.*p99 \([0-9.]*\) ms.*/\1/p' "$work/lat")
[ -n "$p99" ] && awk -v p="$p99" 'BEGIN { exit !(p < 50) }' || bad "control p99 $p99 ms"
[ "$failures" = 0 ]
INNER
