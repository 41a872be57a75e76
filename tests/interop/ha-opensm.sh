#!/bin/sh
# SPDX-License-Identifier: MIT
#
# ha-opensm.sh - ibsmd and OpenSM beside each other, both at their defaults,
# under ibsim.
#
# In a network namespace of its own, on the bundled fat tree, ibsmd at H0
# and OpenSM at H31, neither configured (ibsmd: priority 15, SM_Key 1;
# OpenSM 3.3: priority 0, SM_Key 1, polling its master every 10 s, 4
# retries; OpenSM only writes its log at once, force_log_flush, so that it
# can be waited on):
#  1. ibsmd -> OpenSM: ibsmd is MASTER, OpenSM joins and stands by (it takes
#     ibsmd for a peer: the SMInfo ibsmd answers shows OpenSM's key, no ERR
#     2F18).  sminfo finds exactly one master.  ibsmd is killed (SIGKILL):
#     OpenSM takes over within its own poll limit, 10 s x (4 + 1) polls and
#     a sweep (about a minute: this is the test's one long wait, bounded at
#     100 s), every LID kept.
#  2. OpenSM -> ibsmd: OpenSM is MASTER now; ibsmd comes back, stands by, and
#     OpenSM hands it the subnet (ibsmd outranks it: OpenSM's sweep sees it,
#     made due by ibsim's Trap 144 when ibsmd opened its SM port).  One
#     master, ibsmd, every LID kept.  The takeover from there (OpenSM
#     standing by under ibsmd) is step 1's; ha-opensm-key.sh repeats it with
#     a shorter poll.
# Prints the takeover time.  Skips (77) without ibsim, OpenSM,
# infiniband-diags or unshare.  LOGLEVEL (ibsmd's --log-level) and OSM_FLAGS
# (e.g. "-D 0x0f") help debugging; HA_KEEP=1 keeps the work directory.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/interop/sm_peers.sh"
need_sm_peers opensm
make_workdir ha-opensm HA_KEEP

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$ibsim_ns"
. "$top_srcdir/tests/interop/sm_peers.sh"
ours=; osm=
no_2f18() {
	! grep -q "ERR 2F18" "$work"/osm*.log ||
		fail "OpenSM took ibsmd for a foreign SM: $(grep -h "ERR 2F18" "$work"/osm*.log | head -1)"
}

ibsim_start "$peers_fabric" || exit 3

# 1. ibsmd first, OpenSM joins
start_ibsmd ibsmd1 H0; ours=$!
wait_for_log "$work/ibsmd1.log" "subnet up" 1 || fail "ibsmd: no 'subnet up'"
start_opensm osm1 H31; osm=$!
wait_for_log "$work/osm1.log" "Entering STANDBY state" 1 30 || fail "OpenSM did not stand by"
lid_ours=$(lid_of H0); lid_osm=$(lid_of H31)
m=$(one_master "$lid_ours" "$lid_osm") || fail "$m"
[ "$m" = "$lid_ours" ] && [ "$(smi "$lid_osm")" = "2 0" ] ||
	fail "ibsmd $(smi "$lid_ours"), OpenSM $(smi "$lid_osm")"
no_2f18
echo "ok: ibsmd MASTER, OpenSM (joined) STANDBY, both at their defaults (sminfo)"
lids >"$work/before"
t0=$(ms)
kill -9 "$ours"; wait "$ours" 2>/dev/null; ours=
wait_smi "3 0" 100 || fail "OpenSM did not take over within 100 s: $(smi)"
took=$(($(ms) - t0))
wait_for_log "$work/osm1.log" "SUBNET UP" 1 20 || fail "OpenSM: no SUBNET UP after the takeover"
lids >"$work/after"
cmp -s "$work/before" "$work/after" || fail "LIDs changed: $(diff "$work/before" "$work/after")"
echo "ok: ibsmd killed: OpenSM took over at its defaults in $took ms, every LID kept"

# 2. OpenSM is master, ibsmd joins
start_ibsmd ibsmd2 H0; ours=$!
wait_for_log "$work/ibsmd2.log" "-> MASTER (handover" 1 30 || fail "no HANDOVER from OpenSM"
# the ports name the new master once its first sweep as master has run (a
# HANDOVER that lands while a sweep is discovering makes the next one due)
wait_for_log "$work/ibsmd2.log" "subnet up" 1 || fail "ibsmd: no 'subnet up' after the handover"
m=$(one_master "$lid_ours" "$lid_osm") || fail "$m"
[ "$m" = "$lid_ours" ] && [ "$(smi "$lid_osm")" = "2 0" ] ||
	fail "after the handover: ibsmd $(smi "$lid_ours"), OpenSM $(smi "$lid_osm")"
grep -q "ACKNOWLEDGE to the old master not answered" "$work/ibsmd2.log" &&
	fail "OpenSM refused ibsmd's ACKNOWLEDGE"
lids >"$work/after2"
cmp -s "$work/before" "$work/after2" || fail "LIDs changed: $(diff "$work/before" "$work/after2")"
no_2f18
grep -q "two masters" "$work"/ibsmd*.log && fail "$(grep -h "two masters" "$work"/ibsmd*.log)"
echo "ok: ibsmd joined OpenSM: HANDOVER, ibsmd MASTER, OpenSM STANDBY (sminfo), every LID kept"

kill -TERM "$ours" "$osm"
wait "$ours"
ibsim_stop
INNER
