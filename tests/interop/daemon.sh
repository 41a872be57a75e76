#!/bin/sh
# SPDX-License-Identifier: MIT
#
# daemon.sh - ibsmd as a running SM under ibsim, watched by the stock tools.
#
# On the bundled fat tree, in a network namespace of its own: start ibsmd (not
# --once) and wait for "subnet up"; `sminfo` from another host must find it
# MASTER at its LID.  Then pull a leaf-to-spine cable with ibsim's Unlink: the
# switches' Trap 128 must reach the SM, which re-sweeps and routes around the
# cable (ibtracert between hosts on both sides still works, and smquery events
# records the trap and the lost link).  ReLink brings the cable back; the SM
# notices and takes it back in.  SIGTERM ends the daemon with status 0.
# Skips (77) where ibsim, infiniband-diags or `unshare -n` is missing.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
helper=$top_srcdir/contrib/ibsim/ibsim-ns.sh
"$helper" check || exit 77
command -v sminfo >/dev/null 2>&1 || { echo "SKIP: sminfo not installed (infiniband-diags)"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/daemon.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

unshare -n sh -s "$helper" "$top_srcdir" "$top_builddir" "$work" <<'INNER'
helper=$1 top_srcdir=$2 top_builddir=$3 work=$4
. "$helper"
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo
log=$work/ibsmd.log
fail() { echo "FAIL: $*"; echo "--- ibsmd log:"; tail -n 30 "$log"; kill "$sm" 2>/dev/null; ibsim_stop; exit 1; }
# wait_for PATTERN COUNT: until the log holds COUNT lines matching PATTERN (30 s)
wait_for()
{
	for _ in $(seq 300); do
		[ "$(grep -c "$1" "$log")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

ibsim_start "$fabric" || exit 3
# not through ibsim_client: $! must be ibsmd itself, not a shell around it
(cd "$IBSIM_DIR" && LD_PRELOAD=$IBSIM_PRELOAD exec "$top_builddir/ibsmd" --backend umad \
	--db "$work/sm.db" --foreground --log-level info >"$log" 2>&1) &
sm=$!
wait_for "subnet up" 1 || fail "no 'subnet up' within 30 s"

out=$(SIM_HOST=H31 ibsim_client sminfo 2>&1)
echo "$out" | grep -q "state 3 SMINFO_MASTER" || fail "sminfo: $out"
echo "ok: sminfo: $out"

# H0 (leaf L0) to H31 (leaf L7): one of L0's four uplinks goes
before=$(grep -c "subnet up" "$log")
ibsim_cmd 'Unlink "L0"[5]'
wait_for "trap 128" 1 || fail "no Trap 128 reached the SM"
wait_for "subnet up" $((before + 1)) || fail "no heavy sweep after the trap"
SIM_HOST=H31 ibsim_client ibtracert 32 1 >"$work/trace" 2>&1 ||
	fail "ibtracert H31 -> H0 after Unlink: $(cat "$work/trace")"
grep -q '"L0"' "$work/trace" || fail "ibtracert path does not reach L0: $(cat "$work/trace")"
"$top_builddir/smquery" --db "$work/sm.db" events >"$work/events" ||
	fail "smquery events"
grep -q "trap" "$work/events" || fail "no trap event recorded"
grep -q "link_removed" "$work/events" || fail "no link_removed event recorded"
echo "ok: Unlink: trap taken, resweep, H31 -> H0 still routed"

before=$(grep -c "subnet up" "$log")
ibsim_cmd 'ReLink "L0"[5]'
wait_for "subnet up" $((before + 1)) || fail "the cable came back and no sweep took it in"
"$top_builddir/smquery" --db "$work/sm.db" events >"$work/events"
grep -q "link_added" "$work/events" || fail "no link_added event after ReLink"
echo "ok: ReLink: cable taken back in"

kill -TERM "$sm"
wait "$sm"
rc=$?
ibsim_stop
[ "$rc" = 0 ] || { echo "FAIL: ibsmd exited $rc on SIGTERM"; tail -n 5 "$log"; exit 1; }
echo "ok: SIGTERM: clean exit"
INNER
