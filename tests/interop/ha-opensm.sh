#!/bin/sh
# SPDX-License-Identifier: MIT
#
# ha-opensm.sh - ibsmd and OpenSM as each other's peer SM, under ibsim.
#
# In a network namespace of its own, on the bundled fat tree, ibsmd at H0 and
# OpenSM (`opensm -p N`, polling 500 ms x 4) at H31, both with SM_Key 0
# (see below):
#  1. OpenSM higher: ibsmd (priority 5) brings the subnet up; OpenSM
#     (priority 10) comes, goes STANDBY, gets HANDOVER from ibsmd and
#     answers it: OpenSM MASTER, ibsmd STANDBY (sminfo agrees).  OpenSM is
#     killed (SIGKILL): ibsmd takes over within 5 s.
#  2. ibsmd higher: OpenSM (priority 3) comes back and stays STANDBY beside
#     ibsmd; ibsmd is killed and OpenSM takes over; ibsmd (priority 10) comes
#     back, and OpenSM hands the subnet over to it (found DISCOVERING or
#     STANDBY, whichever OpenSM's sweep saw first), acknowledged.
# Prints the takeover times.  Skips (77) without ibsim, OpenSM,
# infiniband-diags or unshare.
#
# SM_Key 0 on both sides: OpenSM 3.3 asks SMInfo with an empty payload, so an
# SM that masks its key to non-masters (IBA 14.4.1, as ibsmd and OpenSM do)
# answers it 0, which OpenSM with a key of its own takes for a foreign SM.
# OpenSM's first sweep after it took the HANDOVER does not finish under ibsim
# (two of its MADs stay outstanding), so step 1 asks sminfo at each SM's LID.
# LOGLEVEL (ibsmd's --log-level) and OSM_FLAGS (e.g. "-D 0x0f") help debugging;
# HA_KEEP=1 keeps the work directory.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd opensm opensm
need_cmd sminfo infiniband-diags
make_workdir ha-opensm HA_KEEP

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$ibsim_ns"
. "$top_srcdir/tests/interop/sm_peers.sh"
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo
ours=; osm=
fail() { echo "FAIL: $*"; show_logs; kill -9 $ours $osm 2>/dev/null; ibsim_stop; exit 1; }
# start_opensm NAME PRIORITY: OpenSM at H31, polling its master 500 ms x 4; $! is opensm
start_opensm() {
	printf 'sminfo_polling_timeout 500\npolling_retry_number 4\nforce_log_flush TRUE\n' \
		>"$work/osm.conf"
	(cd "$IBSIM_DIR" && SIM_HOST=H31 LD_PRELOAD=$IBSIM_PRELOAD OSM_TMP_DIR=$work \
		OSM_CACHE_DIR=$work exec opensm ${OSM_FLAGS:-} -F "$work/osm.conf" -p "$2" -k 0x0 \
		-s 1 -f "$work/$1.log" >"$work/$1.out" 2>&1) &
}

ibsim_start "$fabric" || exit 3

# 1. OpenSM higher
start_ibsmd ibsmd1 H0 5 0x0; ours=$!
wait_for_log "$work/ibsmd1.log" "subnet up" 1 || fail "ibsmd: no 'subnet up'"
start_opensm osm1 10; osm=$!
wait_for_log "$work/ibsmd1.log" "MASTER -> STANDBY (acknowledge" 1 30 ||
	fail "ibsmd did not hand over to OpenSM"
lid_osm=$(lid_of H31); lid_ours=$(lid_of H0)
[ "$(smi $lid_osm)" = "3 10" ] || fail "sminfo $lid_osm (OpenSM) after the handover: $(smi $lid_osm)"
[ "$(smi $lid_ours)" = "2 5" ] || fail "sminfo $lid_ours (ibsmd) after the handover: $(smi $lid_ours)"
echo "ok: OpenSM (priority 10) came, got HANDOVER from ibsmd (priority 5): MASTER, ibsmd STANDBY (sminfo)"
up=$(grep -c "subnet up" "$work/ibsmd1.log")
t0=$(ms)
kill -9 "$osm"; wait "$osm" 2>/dev/null; osm=
wait_for_log "$work/ibsmd1.log" "subnet up" $((up + 1)) 10 || fail "ibsmd did not take over"
took=$(($(ms) - t0))
[ "$took" -lt 5000 ] || fail "ibsmd took over in $took ms"
wait_smi "3 5" 5 || fail "sminfo after ibsmd's takeover: $(smi)"
echo "ok: OpenSM killed: ibsmd took over in $took ms;" \
	"$(grep "programming:" "$work/ibsmd1.log" | tail -1 | sed 's/.*notice: //')"
kill -TERM "$ours"; wait "$ours"; ours=

# 2. ibsmd higher
start_ibsmd ibsmd2 H0 10 0x0; ours=$!
wait_for_log "$work/ibsmd2.log" "subnet up" 1 || fail "ibsmd: no 'subnet up'"
start_opensm osm2 3; osm=$!
wait_for_log "$work/osm2.log" "Entering STANDBY state" 1 30 || fail "OpenSM did not go STANDBY"
sleep 2
grep -q -- "-> STANDBY" "$work/ibsmd2.log" && fail "ibsmd (priority 10) yielded to OpenSM (3)"
wait_smi "3 10" 5 || fail "sminfo beside a STANDBY OpenSM: $(smi)"
echo "ok: OpenSM (priority 3) STANDBY beside ibsmd (priority 10) (sminfo)"
t0=$(ms)
kill -9 "$ours"; wait "$ours" 2>/dev/null; ours=
wait_smi "3 3" 20 || fail "OpenSM did not take over: $(smi)"
echo "ok: ibsmd killed: OpenSM took over (sminfo MASTER) in $(($(ms) - t0)) ms"
start_ibsmd ibsmd3 H0 10 0x0; ours=$!
wait_for_log "$work/ibsmd3.log" "-> MASTER (handover" 1 30 || fail "no HANDOVER from OpenSM"
wait_smi "3 10" 10 || fail "sminfo after the handover from OpenSM: $(smi)"
grep -q "ACKNOWLEDGE to the old master not answered" "$work/ibsmd3.log" &&
	fail "OpenSM refused ibsmd's ACKNOWLEDGE"
echo "ok: ibsmd came back: HANDOVER from OpenSM (it found ibsmd $(grep -q 'DISCOVERING -> STANDBY' \
	"$work/ibsmd3.log" && echo STANDBY || echo DISCOVERING)), MASTER (sminfo)"

kill -TERM "$ours" "$osm"
wait "$ours"
ibsim_stop
INNER
