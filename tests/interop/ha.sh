#!/bin/sh
# SPDX-License-Identifier: MIT
#
# ha.sh - two ibsmd daemons on one ibsim fabric: election, failover, handover.
#
# In a network namespace of its own, on the bundled fat tree, ibsmd A at H0
# and ibsmd B at H31:
#  1. Both at their defaults (priority 15, SM_Key 1): A comes first and is
#     MASTER, B joins and stands by (A's lower port GUID outranks it anyway).
#     `sminfo` finds exactly one master; A is killed with SIGKILL and B takes
#     over within 5 s (from the kill to B's "subnet up") with every LID kept.
#  2. The same SM_Key, not the default, on both; A priority 10, B 5: B is
#     master from step 1, A comes back, stands by, and B hands it the subnet
#     (B's election, made due by Trap 144 from ibsim or A's SMInfo poll).
#     One master (A); A is killed and B takes over within poll interval x
#     retries plus a sweep, every LID kept (iblinkinfo before and after), no
#     LFT block written.
# Prints the takeover times.  Skips (77) without ibsim, infiniband-diags or
# unshare.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/interop/sm_peers.sh"
need_sm_peers
make_workdir ha

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$ibsim_ns"
. "$top_srcdir/tests/interop/sm_peers.sh"
a=; b=
# takeover LOG: after SIGKILL of $a, the SM logging to LOG is up within 5 s
# with the LIDs as they were; prints what its programming sent
takeover() {
	lids >"$work/before"
	_up=$(grep -c "subnet up" "$1")
	_t0=$(ms)
	kill -9 "$a"; wait "$a" 2>/dev/null; a=
	wait_for_log "$1" "subnet up" $((_up + 1)) 10 || fail "no takeover after SIGKILL"
	_took=$(($(ms) - _t0))
	[ "$_took" -lt 5000 ] || fail "takeover took $_took ms"
	lids >"$work/after"
	cmp -s "$work/before" "$work/after" || fail "LIDs changed: $(diff "$work/before" "$work/after")"
	echo "$_took ms; $(grep "programming:" "$1" | tail -1 | sed 's/.*notice: //')"
}

ibsim_start "$peers_fabric" || exit 3
lid_a=; lid_b=

# 1. both at their defaults
start_ibsmd a H0; a=$!
wait_for_log "$work/a.log" "subnet up" 1 || fail "A: no 'subnet up'"
start_ibsmd b H31; b=$!
wait_for_log "$work/b.log" "DISCOVERING -> STANDBY" 1 || fail "B did not go STANDBY"
lid_a=$(lid_of H0); lid_b=$(lid_of H31)
m=$(one_master "$lid_a" "$lid_b") || fail "$m"
[ "$m" = "$lid_a" ] || fail "the master is LID $m, not A's ($lid_a)"
[ "$(smi "$lid_b")" = "2 15" ] || fail "sminfo $lid_b (B): $(smi "$lid_b")"
echo "ok: at the defaults A MASTER at LID $lid_a, B STANDBY at LID $lid_b (sminfo)"
echo "ok: A killed: B took over in $(takeover "$work/b.log")"
m=$(one_master "$lid_a" "$lid_b") || fail "after the takeover: $m"
[ "$m" = "$lid_b" ] || fail "after the takeover the master is LID $m"
kill -TERM "$b"; wait "$b"; b=

# 2. one SM_Key that is not the default, A priority 10, B 5
key='sm_key: 0x1234abcd'
start_ibsmd b2 H31 'sm_priority: 5' "$key"; b=$!
wait_for_log "$work/b2.log" "subnet up" 1 || fail "B: no 'subnet up'"
start_ibsmd a2 H0 'sm_priority: 10' "$key"; a=$!
wait_for_log "$work/a2.log" "-> MASTER (handover" 1 20 || fail "no HANDOVER to A"
wait_for_log "$work/b2.log" "MASTER -> STANDBY (acknowledge" 1 || fail "B did not go STANDBY"
m=$(one_master "$lid_a" "$lid_b") || fail "$m"
[ "$m" = "$lid_a" ] && [ "$(smi "$lid_a")" = "3 10" ] && [ "$(smi "$lid_b")" = "2 5" ] ||
	fail "after the handover: A $(smi "$lid_a"), B $(smi "$lid_b")"
echo "ok: A came: HANDOVER from B (A found $(grep -q 'DISCOVERING -> STANDBY' "$work/a2.log" &&
	echo STANDBY || echo DISCOVERING)); A MASTER, B STANDBY (sminfo)"
prog=$(takeover "$work/b2.log")
echo "$prog" | grep -q ", 0 LFT blocks" || fail "LFT blocks written at takeover: $prog"
m=$(one_master "$lid_a" "$lid_b") || fail "after the takeover: $m"
echo "ok: A killed: B took over in $prog"
grep -q "two masters" "$work"/*.log && fail "two masters met: $(grep -h "two masters" "$work"/*.log)"

kill -TERM "$b"
wait "$b"
ibsim_stop
INNER
