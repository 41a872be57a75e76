#!/bin/sh
# SPDX-License-Identifier: MIT
#
# ha-opensm-key.sh - ibsmd and OpenSM beside each other with one SM_Key that
# is not the default, under ibsim: every pairing, every takeover.
#
# In a network namespace of its own, on the bundled fat tree, ibsmd at H0 and
# OpenSM at H31, both with SM_Key 0x5ec7e7.  OpenSM polls its master every
# second (sminfo_polling_timeout 1000, else its defaults): at its default
# 10 s an OpenSM standby notices a dead master after 50-60 s, which
# ha-opensm.sh waits out once; here four takeovers must stay short.
#  1. OpenSM (10) -> ibsmd (5): ibsmd joins below OpenSM and stands by; one
#     master, OpenSM; OpenSM is killed (SIGKILL) and ibsmd takes over within
#     5 s.
#  2. ibsmd (5) -> OpenSM (10): OpenSM joins above ibsmd, stands by and tells
#     ibsmd with Trap 144 (SM priority changed) on every poll; ibsmd sweeps,
#     elects and hands it the subnet.  One master, OpenSM; it is killed and
#     ibsmd takes over within 5 s.  ibsmd represses OpenSM's Trap 144, but
#     ibsim drops every TrapRepress ("got trap repress - dropping") and
#     libumad2sim never times a MAD out, so OpenSM waits for it forever and its
#     first sweep as master never finishes: sminfo asks each SM at its own
#     LID, and H17's SM LID is not checked in this step.  On hardware the
#     repress reaches OpenSM (check_sm_ha's trap_144_from_a_peer_sm_elects).
#  3. ibsmd (5) -> OpenSM (0): OpenSM joins below ibsmd and stands by; one
#     master, ibsmd; ibsmd is killed and OpenSM takes over.
#  4. OpenSM (0) -> ibsmd (15): ibsmd joins above OpenSM and gets HANDOVER;
#     one master, ibsmd; ibsmd is killed and OpenSM takes over again.
# Every LID is kept throughout (iblinkinfo).  Prints the takeover times.
# Skips (77) without ibsim, OpenSM, infiniband-diags or unshare.  HA_KEEP=1
# keeps the work directory.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/interop/sm_peers.sh"
need_sm_peers opensm
make_workdir ha-opensm-key HA_KEEP

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$ibsim_ns"
. "$top_srcdir/tests/interop/sm_peers.sh"
ours=; osm=
key=0x00000000005ec7e7
# osm NAME PRIORITY: OpenSM at H31 with the key; $osm
osm() { start_opensm "$1" H31 "sm_key $key" "sm_priority $2" "sminfo_polling_timeout 1000"; osm=$!; }
# ours NAME PRIORITY: ibsmd at H0 with the key; $ours
ours() { start_ibsmd "$1" H0 "sm_key: $key" "sm_priority: $2"; ours=$!; }
# master LID: exactly one master, at LID (sminfo at both SMs' LIDs and H17's SM LID)
master() { _m=$(one_master "$lid_ours" "$lid_osm") || fail "$_m"; [ "$_m" = "$1" ] || fail "the master is LID $_m"; }
same_lids() { lids >"$work/now"; cmp -s "$work/lids" "$work/now" || fail "LIDs changed: $(diff "$work/lids" "$work/now")"; }
# killed PID WANT SECONDS: SIGKILL PID, until sminfo from H17 reads WANT; prints the ms
killed() {
	_t0=$(ms)
	kill -9 "$1"; wait "$1" 2>/dev/null
	wait_smi "$2" "$3" || fail "no takeover within $3 s after SIGKILL: $(smi)"
	echo $(($(ms) - _t0))
}

ibsim_start "$peers_fabric" || exit 3
lid_ours=$(lid_of H0); lid_osm=$(lid_of H31)	# ibsim's own until an SM sets them

# 1. OpenSM (10) first, ibsmd (5) joins below it
osm osm1 10
wait_for_log "$work/osm1.log" "SUBNET UP" 1 30 || fail "OpenSM: no SUBNET UP"
ours ibsmd 5
wait_for_log "$work/ibsmd.log" "DISCOVERING -> STANDBY" 1 || fail "ibsmd did not stand by"
lid_ours=$(lid_of H0); lid_osm=$(lid_of H31)
sleep 2	# OpenSM's sweeps see it
master "$lid_osm"
lids >"$work/lids"
up=$(grep -c "subnet up" "$work/ibsmd.log")
took=$(killed "$osm" "3 5" 5); osm=
wait_for_log "$work/ibsmd.log" "subnet up" $((up + 1)) 5 || fail "ibsmd: no 'subnet up'"
[ "$took" -lt 5000 ] || fail "ibsmd took over in $took ms"
same_lids
echo "ok: 1. ibsmd joined below OpenSM: STANDBY; OpenSM killed: ibsmd took over in $took ms"

# 2. ibsmd (5) master, OpenSM (10) joins above it
osm osm2 10
wait_for_log "$work/ibsmd.log" "MASTER -> STANDBY (acknowledge" 1 30 ||
	fail "ibsmd did not hand over to OpenSM"
grep -q "trap 144 from LID $lid_osm" "$work/ibsmd.log" || fail "no Trap 144 from OpenSM"
[ "$(smi "$lid_osm")" = "3 10" ] && [ "$(smi "$lid_ours")" = "2 5" ] ||
	fail "after the handover: OpenSM $(smi "$lid_osm"), ibsmd $(smi "$lid_ours")"
up=$(grep -c "subnet up" "$work/ibsmd.log")
took=$(killed "$osm" "3 5" 5); osm=
wait_for_log "$work/ibsmd.log" "subnet up" $((up + 1)) 5 || fail "ibsmd: no 'subnet up'"
[ "$took" -lt 5000 ] || fail "ibsmd took over in $took ms"
same_lids
echo "ok: 2. OpenSM joined above ibsmd: Trap 144, HANDOVER, OpenSM MASTER; OpenSM killed:" \
	"ibsmd took over in $took ms"

# 3. ibsmd (5) master, OpenSM (0) joins below it
osm osm3 0
wait_for_log "$work/osm3.log" "Entering STANDBY state" 1 30 || fail "OpenSM did not stand by"
master "$lid_ours"
took=$(killed "$ours" "3 0" 20); ours=
wait_for_log "$work/osm3.log" "SUBNET UP" 1 20 || fail "OpenSM: no SUBNET UP"
same_lids
echo "ok: 3. OpenSM joined below ibsmd: STANDBY; ibsmd killed: OpenSM took over in $took ms"

# 4. OpenSM (0) master, ibsmd (15) joins above it
ours ibsmd4 15
wait_for_log "$work/ibsmd4.log" "-> MASTER (handover" 1 30 || fail "no HANDOVER from OpenSM"
wait_for_log "$work/ibsmd4.log" "subnet up" 1 || fail "ibsmd: no 'subnet up' after the handover"
master "$lid_ours"
same_lids
took=$(killed "$ours" "3 0" 20); ours=
same_lids
echo "ok: 4. ibsmd joined above OpenSM: HANDOVER, ibsmd MASTER; ibsmd killed: OpenSM took over" \
	"in $took ms"
! grep -q "ERR 2F18" "$work"/osm*.log || fail "OpenSM took ibsmd for a foreign SM"
grep -q "two masters" "$work"/ibsmd*.log && fail "$(grep -h "two masters" "$work"/ibsmd*.log)"

kill -TERM "$osm"
wait "$osm"
ibsim_stop
INNER
