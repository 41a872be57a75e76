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
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd sminfo infiniband-diags
make_workdir daemon

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
ibsim_daemon_setup
wait_for() { wait_for_log "$log" "$1" "$2"; }	# PATTERN COUNT, 30 s

ibsim_start "$fabric" || exit 3
ibsmd_ibsim_start

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
