#!/bin/sh
# SPDX-License-Identifier: MIT
#
# patch_daemon.sh - fast link repair in the running daemon (sm/repair/sm_patch.c), on
# the sim backend: the 16-host 3-level fat tree comes up; 1.5 s in, the
# simulator kills a top switch's link (its event file); the daemon patches
# before the heavy sweep that follows (the log's order), records the patch
# as a sweep of kind patch with its LFT entries (smquery sweeps --json) and
# in the metrics, and the heavy sweep after it still leaves the fabric with
# every pair reachable (smquery route-check).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir patch_daemon
log=$work/ibsmd.log
fail() { echo "FAIL: $*"; tail -n 25 "$log"; exit 1; }

printf '1500 link-down "C0.0"[2]\n' >"$work/kill.events"
printf 'backend: sim:%s,events=%s\ndb: %s/sm.db\nsocket: ""\nrouting: ftree\nsweep:\n  interval: 0\n' \
	"$top_srcdir/tests/topo/ft3r4.topo" "$work/kill.events" "$work" >"$work/sm.yaml"
"$top_builddir/ibsmd" -c "$work/sm.yaml" --foreground >"$log" 2>&1 &
sm=$!
at_exit "kill -9 $sm 2>/dev/null"
wait_for_log "$log" "subnet up" 2 20 || fail "no heavy sweep after the link died"
kill -TERM "$sm"
wait "$sm" || fail "ibsmd exit $?"

patch=$(grep -n "patch: " "$log" | head -1 | cut -d: -f1)
second=$(grep -n "subnet up" "$log" | sed -n 2p | cut -d: -f1)
[ -n "$patch" ] || fail "no patch logged"
[ "$patch" -lt "$second" ] || fail "the patch came after the heavy sweep"
grep -q "patch: 2 dead link ends, [1-9][0-9]* LFT entries moved, [1-9][0-9]* blocks sent (a full reprogram: 20)" \
	"$log" || fail "patch figures: $(grep 'patch: ' "$log")"

out=$("$top_builddir/smquery" --db "$work/sm.db" --json sweeps) || fail "smquery sweeps"
echo "$out" | grep -q '"kind":"patch","started":[0-9]*,"ended":[0-9]*,"result":"ok","nodes":36,"links":48,"lft_entries":[1-9]' ||
	fail "no patch sweep stored: $out"
"$top_builddir/smquery" --db "$work/sm.db" metrics | grep -q '^ibsmd_sweeps_total{kind="patch",result="ok"} 1$' ||
	fail "the patch is not in the metrics"
"$top_builddir/smquery" --db "$work/sm.db" route-check | grep -q '^pairs 240: 0 unreachable, 0 in loops$' ||
	fail "route-check after the heavy sweep: $("$top_builddir/smquery" --db "$work/sm.db" route-check | head -3)"
echo "ok: patched before the heavy sweep, recorded, and the fabric is whole"
