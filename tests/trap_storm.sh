#!/bin/sh
# SPDX-License-Identifier: MIT
#
# trap_storm.sh - a babbling port on the sim backend: leaf switch L0 sends
# 1,000 Trap 128s within a second (sim events "trap"), although nothing
# changed.  The daemon (light sweeps off: only traps make sweeps) must report
# the port once, take at most traps.max_per_s (10) of its traps, store a bounded
# number of events, and run at most one heavy sweep for the storm.  After the
# hold-down (2 s here) the port's next trap is taken again, with the count of
# what was ignored.  Each report names the port: L0, its GUID, port 0.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir trap_storm
sm=
at_exit '[ -n "$sm" ] && kill -9 "$sm" 2>/dev/null'
log=$work/ibsmd.log
fail() { echo "FAIL: $*"; tail -n 25 "$log"; exit 1; }

# the storm at 3 s (the first sweep is long done), one more trap at 5.5 s
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "%d trap \"L0\"\n", 3000 + i;
	print "5500 trap \"L0\"" }' >"$work/storm.events"
cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$top_srcdir/contrib/fabrics/fattree-2l-r8.topo,events=$work/storm.events
db: $work/sm.db
socket: ""
sweep:
  interval: 0
traps:
  max_per_s: 10
  holddown_s: 2
EOC
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --foreground >"$log" 2>&1 &
sm=$!
wait_for_log "$log" "subnet up" 1 20 || fail "no 'subnet up'"
wait_for_log "$log" "are taken again" 1 30 || fail "the port's traps were never taken again"
sleep 0.5	# the heavy sweep the last trap asks for
kill -TERM "$sm"
wait "$sm"
rc=$?
sm=
[ "$rc" = 0 ] || fail "ibsmd exited $rc on SIGTERM"

babbling=$(grep -c 'LID [0-9]* ("L0" 0x[0-9a-f]\{16\} port 0) is babbling: 11 traps within a second' "$log")
[ "$babbling" = 1 ] || fail "the babbling port was reported $babbling times, not once"
taken=$(grep -c 'notice: trap 128 from LID [0-9]* ("L0" 0x[0-9a-f]\{16\} port 0), about itself' "$log")
[ "$taken" = 11 ] || fail "$taken traps were taken, not 10 of the storm and the one after"
grep -q "are taken again: 989 were ignored" "$log" || fail "the ignored traps were not counted"
sweeps=$(grep -c "subnet up" "$log")
[ "$sweeps" -le 3 ] ||
	fail "$sweeps heavy sweeps: more than the first, one for the storm and one after"
"$top_builddir/smquery" --db "$work/sm.db" events >"$work/events" || fail "smquery events"
events=$(grep -c " trap " "$work/events")
[ "$events" -le 12 ] || fail "$events trap events stored for 1,001 traps: $(cat "$work/events")"
echo "ok: 1,001 traps: 1 report, $taken taken, $events events stored, $sweeps heavy sweeps"
