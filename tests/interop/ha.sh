#!/bin/sh
# SPDX-License-Identifier: MIT
#
# ha.sh - two ibsmd daemons on one ibsim fabric: election, failover, handover.
#
# In a network namespace of its own, on the bundled fat tree: ibsmd A
# (priority 10) at H0, then ibsmd B (priority 5) at H31, both holding the same
# SM_Key.  `sminfo` from a third host must find A MASTER and B STANDBY.  A is
# killed with SIGKILL: B must take over within poll interval x retries plus a
# sweep (under 5 s with the defaults, measured from the kill to B's "subnet
# up"), keep every LID (iblinkinfo before and after) and write no LFT block.
# A comes back: it finds B MASTER and goes STANDBY, B's light sweep (or Trap
# 144) shows B the new SM, B hands over (to A STANDBY, or still DISCOVERING),
# and A is MASTER again, B STANDBY, as sminfo shows.
# Prints the takeover time.  Skips (77) without ibsim, infiniband-diags or
# unshare.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd sminfo infiniband-diags
need_cmd iblinkinfo infiniband-diags
make_workdir ha

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$ibsim_ns"
. "$top_srcdir/tests/interop/sm_peers.sh"
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo
a=; b=
fail() { echo "FAIL: $*"; show_logs; kill -9 $a $b 2>/dev/null; ibsim_stop; exit 1; }
# "LID port-state" of every CA port, as iblinkinfo sees them from H17
lids() { SIM_HOST=H17 ibsim_client iblinkinfo 2>/dev/null |
	awk '/^CA:/ { ca = 1; next } /^Switch:/ { ca = 0 }
	     ca && /==/ { print $1, $2, (/Active\// ? "Active" : "not-active") }' | sort; }

ibsim_start "$fabric" || exit 3
start_ibsmd a H0 10 0x1234abcd; a=$!
wait_for_log "$work/a.log" "subnet up" 1 || fail "A: no 'subnet up'"
start_ibsmd b H31 5 0x1234abcd; b=$!
wait_for_log "$work/b.log" "DISCOVERING -> STANDBY" 1 || fail "B did not go STANDBY"
sleep 2
grep -q -- "-> MASTER" "$work/b.log" && fail "B was MASTER beside A"
lid_a=$(lid_of H0); lid_b=$(lid_of H31)
[ "$(smi)" = "3 10" ] || fail "sminfo: $(SIM_HOST=H17 ibsim_client sminfo 2>&1)"
[ "$(smi $lid_b)" = "2 5" ] ||
	fail "sminfo $lid_b: $(SIM_HOST=H17 ibsim_client sminfo $lid_b 2>&1)"
echo "ok: A MASTER at LID $lid_a, B STANDBY at LID $lid_b (sminfo)"

lids >"$work/before"
up=$(grep -c "subnet up" "$work/b.log")
t0=$(ms)
kill -9 "$a"; wait "$a" 2>/dev/null; a=
wait_for_log "$work/b.log" "subnet up" $((up + 1)) 10 || fail "B did not take over"
took=$(($(ms) - t0))
[ "$took" -lt 5000 ] || fail "takeover took $took ms"
lids >"$work/after"
cmp -s "$work/before" "$work/after" || fail "LIDs changed: $(diff "$work/before" "$work/after")"
prog=$(grep "programming:" "$work/b.log" | tail -1 | sed 's/.*notice: //')
echo "$prog" | grep -q ", 0 LFT blocks" || fail "LFT blocks written at takeover: $prog"
[ "$(smi)" = "3 5" ] || fail "sminfo after takeover: $(SIM_HOST=H17 ibsim_client sminfo 2>&1)"
echo "ok: takeover after SIGKILL in $took ms; LIDs unchanged; $prog"

start_ibsmd a2 H0 10 0x1234abcd; a=$!
wait_for_log "$work/a2.log" "-> MASTER (handover" 1 20 || fail "no HANDOVER to A"
wait_for_log "$work/b.log" "MASTER -> STANDBY (acknowledge" 1 || fail "B did not go STANDBY"
sleep 1
[ "$(smi)" = "3 10" ] || fail "sminfo after handover: $(SIM_HOST=H17 ibsim_client sminfo 2>&1)"
[ "$(smi $lid_b)" = "2 5" ] || fail "sminfo $lid_b after handover"
echo "ok: A back: HANDOVER from B (A found $(grep -q 'DISCOVERING -> STANDBY' "$work/a2.log" &&
	echo STANDBY || echo DISCOVERING)); A MASTER, B STANDBY (sminfo)"

kill -TERM "$a" "$b"
wait "$a" "$b"
ibsim_stop
INNER
