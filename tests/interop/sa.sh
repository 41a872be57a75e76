#!/bin/sh
# SPDX-License-Identifier: MIT
#
# sa.sh - the SA agent under ibsim, asked by infiniband-diags' saquery.
#
# On the bundled fat tree, in a network namespace of its own: start ibsmd and
# wait for "subnet up", then query the SM's port from host H31.  Before the SA
# agent, a MAD of class 0x03 crashed libumad2sim's receive thread and with it
# ibsmd.  Checked: ClassPortInfo; the NodeRecord and PortInfoRecord of H4's
# LID match what H4's own port says (ibaddr, smpquery nodeinfo) and our
# store (smquery); PathRecords for sample host pairs carry the pair's LIDs and
# GIDs and a PacketLifeTime that counts the links ibtracert walks; the
# SMInfoRecord is the SM's port, LID and state as the store and sminfo say;
# a SwitchInfo, an LFT block and a LinkRecord come back; a table longer than
# one MAD neither crashes nor stalls it; a PerfMgt query to the SM's LID is
# answered (by ibsim); ibsmd is still MASTER and exits 0 on SIGTERM.  Then
# OpenSM (priority 15, as ours) runs on the same fabric, and its NodeRecord,
# PortInfoRecord and SMInfoRecord answers for the same ports are diffed with
# ours, the LIDs (each SM gives its own) and ActCount left out.
# Only single-record answers are compared: ibsim has no RMPP (a table arrives
# as its first MAD only), and saquery reads a GetTableResp's record count
# from the message's length.
# Skips (77) where ibsim, infiniband-diags or `unshare -n` is missing.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd saquery infiniband-diags
need_cmd opensm opensm
make_workdir sa

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
ibsim_daemon_setup
q() { SIM_HOST=H31 ibsim_client timeout 10 saquery "$@" 2>&1; }
alive() { kill -0 "$sm" 2>/dev/null || fail "ibsmd died after: $1"; }
# field NAME: the value of saquery's "NAME.....value" line
field() { sed -n "s/^[[:space:]]*$1\.*[[:space:]]*//p" | head -n 1; }

ibsim_start "$fabric" || exit 3
ibsmd_ibsim_start

out=$(q -c)
alive "saquery -c"
echo "$out" | grep -q "Class version\.*2" || fail "ClassPortInfo: $out"
echo "ok: ClassPortInfo answered, ibsmd alive"

# H4's LID and port GUID as its own port knows them
addr=$(SIM_HOST=H4 ibsim_client ibaddr 2>&1)
lid=$(echo "$addr" | sed -n 's/.*LID start 0x\([0-9a-f]*\) .*/\1/p')
[ -n "$lid" ] || fail "ibaddr H4: $addr"
lid=$((0x$lid))
guid=$(echo "$addr" | sed -n 's/^GID fe80::\([0-9a-f:]*\) .*/\1/p' | awk -F: '{printf "0x%04x%04x%04x%04x", ("0x" $1)+0, ("0x" $2)+0, ("0x" $3)+0, ("0x" $4)+0}')
out=$(q NR "$lid")
alive "saquery NR $lid"
[ "$(echo "$out" | field lid)" = "$lid" ] || fail "NodeRecord of LID $lid: $out"
[ "$(echo "$out" | field port_guid)" = "$guid" ] || fail "NodeRecord port GUID, want $guid: $out"
[ "$(echo "$out" | field NodeDescription)" = "H4" ] || fail "NodeRecord description: $out"
# every NodeInfo field against what the device answers an SMP (smpquery)
ni=$(SIM_HOST=H31 ibsim_client smpquery nodeinfo "$lid" 2>&1)
for pair in sys_guid:SystemGuid node_guid:Guid port_guid:PortGuid partition_cap:PartCap \
	    device_id:DevId revision:Revision port_num:LocalPort vendor_id:VendorId \
	    num_ports:NumPorts; do
	sa=$(echo "$out" | field "${pair%%:*}")
	smp=$(echo "$ni" | sed -n "s/^${pair#*:}:\.*//p")
	[ -n "$sa" ] && [ "$((sa))" = "$((smp))" ] ||
		fail "NodeRecord ${pair%%:*} '$sa', NodeInfo ${pair#*:} '$smp': $out $ni"
done
echo "ok: NodeRecord of LID $lid: port GUID $guid, H4, NodeInfo fields as smpquery reads them"

out=$(q PIR "$lid/1")
alive "saquery PIR $lid/1"
[ "$(echo "$out" | field EndPortLid)" = "$lid" ] || fail "PortInfoRecord: $out"
[ "$(echo "$out" | field 'Lid:')" = "$lid" ] || fail "PortInfoRecord PortInfo.LID: $out"
[ "$(echo "$out" | field 'LinkState:')" = "Active" ] || fail "PortInfoRecord state: $out"
echo "ok: PortInfoRecord of LID $lid port 1: Active"

# PathRecords: LIDs, GIDs, and lifetime 16 + ceil(log2(links)) by ibtracert
for pair in "H4 H31" "H0 H1" "H31 H0" "H5 H5"; do
	set -- $pair
	sl=$(SIM_HOST=$1 ibsim_client ibaddr | sed -n 's/.*LID start 0x\([0-9a-f]*\) .*/\1/p')
	dl=$(SIM_HOST=$2 ibsim_client ibaddr | sed -n 's/.*LID start 0x\([0-9a-f]*\) .*/\1/p')
	sl=$((0x$sl)); dl=$((0x$dl))
	out=$(q -p --slid "$sl" --dlid "$dl")
	alive "saquery -p $sl $dl"
	[ "$(echo "$out" | field slid)" = "$sl" ] && [ "$(echo "$out" | field dlid)" = "$dl" ] ||
		fail "PathRecord $1 -> $2: $out"
	[ "$(echo "$out" | field pkey)" = "0xFFFF" ] || fail "PathRecord P_Key: $out"
	links=0
	if [ "$sl" != "$dl" ]; then
		links=$(SIM_HOST=H31 ibsim_client ibtracert "$sl" "$dl" | grep -c -- '->')
	fi
	want=0
	if [ "$links" -gt 0 ]; then
		want=16 h=1
		while [ "$h" -lt "$links" ]; do h=$((h * 2)); want=$((want + 1)); done
	fi
	life=$(( $(echo "$out" | field pkt_life) & 63 ))
	[ "$life" = "$want" ] || fail "PathRecord $1 -> $2: lifetime $life, $links links by ibtracert"
	echo "ok: PathRecord $1 (LID $sl) -> $2 (LID $dl): $links links, lifetime $life"
done

# the SM as the store and sminfo know it
smq() { "$top_builddir/smquery" --db "$work/sm.db" "$@"; }
sm_guid=$(smq status | sed -n 's/^sm_guid *//p')
sm_lid=$(smq status | sed -n 's/^sm_lid *//p')
out=$(q SMIR)
alive "saquery SMIR"
[ "$(echo "$out" | grep -c 'SMInfoRecord dump')" = 1 ] || fail "SMInfoRecords: one SM: $out"
[ "$(echo "$out" | field GUID)" = "$sm_guid" ] && [ "$(echo "$out" | field LID)" = "$sm_lid" ] &&
	[ "$(echo "$out" | field SMState)" = 3 ] ||
	fail "SMInfoRecord, want $sm_guid at LID $sm_lid MASTER: $out"
si=$(SIM_HOST=H31 ibsim_client sminfo)
si_lid=$(echo "$si" | sed -n 's/.*sm lid \([0-9]*\) sm guid \(0x[0-9a-f]*\).*/\1/p')
si_guid=$(echo "$si" | sed -n 's/.*sm lid \([0-9]*\) sm guid \(0x[0-9a-f]*\).*/\2/p')
[ "$si_lid" = "$sm_lid" ] && [ "$((si_guid))" = "$((sm_guid))" ] ||
	fail "sminfo does not name $sm_guid at LID $sm_lid: $si"
[ "$(smq ports H4 | awk '$1 == 1 {print $2, $7}')" = "$guid $lid" ] ||
	fail "the store's H4 port 1 is not $guid at LID $lid: $(smq ports H4)"
echo "ok: SMInfoRecord: $sm_guid at LID $sm_lid, MASTER (store, sminfo); H4 as the store has it"

l1=$(smq nodes | awk '$5 == "\"L1\"" {print $4}')
out=$(q SWIR "$l1")
alive "saquery SWIR $l1"
top=$(SIM_HOST=H31 ibsim_client smpquery switchinfo "$l1" | sed -n 's/^LinearFdbTop:\.*//p')
[ -n "$top" ] && [ "$(( $(echo "$out" | field LinearFDBTop) ))" = "$((top))" ] ||
	fail "SwitchInfoRecord of L1 ($l1), LinearFdbTop '$top' by smpquery: $out"
# LFT block 0 of L1: every entry ibroute reads from the switch
out=$(q LFTR "$l1/0")
alive "saquery LFTR $l1/0"
echo "$out" | awk 'NF == 2 && $1 ~ /^[0-9]+$/ && $2 != 255 {print $1, $2}' | sort >"$work/lftr"
SIM_HOST=H31 ibsim_client ibroute "$l1" | sed -n 's/^0x\([0-9a-f]*\) \([0-9]*\) .*/\1 \2/p' |
	while read -r h p; do
		[ $((0x$h)) -lt 64 ] && echo "$((0x$h)) $(echo "$p" | sed 's/^0*\(.\)/\1/')"
	done | sort >"$work/ibroute"
[ -s "$work/ibroute" ] && diff "$work/ibroute" "$work/lftr" >/dev/null ||
	fail "LFTRecord of L1 block 0 is not what ibroute reads: $(diff "$work/ibroute" "$work/lftr")"
echo "ok: SwitchInfoRecord and LFTRecord of L1 (LID $l1), H4's LinkRecord to it"

# InformInfoRecords: nobody subscribed, an empty table (no longer an
# unsupported attribute)
out=$(q -I)
rc=$?
alive "saquery -I"
[ "$rc" = 0 ] && ! echo "$out" | grep -qi "fail\|error\|unsupported" ||
	fail "InformInfoRecord table: exit $rc: $out"
echo "ok: InformInfoRecord table answered"

out=$(q -N)
alive "saquery -N (every node: RMPP, which ibsim does not carry)"
echo "$out" | grep -q "NodeRecord dump" || fail "NodeRecord table: $out"
q NR "$lid" >"$work/ours.nr"
q PIR "$lid/1" >"$work/ours.pir"
q SMIR >"$work/ours.smir"
echo "ok: a table over one MAD: its first MAD arrives (no RMPP under ibsim), ibsmd alive"

out=$(SIM_HOST=H31 ibsim_client timeout 10 perfquery 1 1 2>&1)
alive "perfquery 1 1"
echo "$out" | grep -q "PortSelect" || fail "perfquery to the SM's LID: $out"
echo "ok: PerfMgt to the SM's LID answered, ibsmd alive"

out=$(SIM_HOST=H31 ibsim_client sminfo 2>&1)
echo "$out" | grep -q "SMINFO_MASTER" || fail "sminfo after the queries: $out"
kill -TERM "$sm"
wait "$sm"
rc=$?
[ "$rc" = 0 ] || { ibsim_stop; echo "FAIL: ibsmd exited $rc on SIGTERM"; tail -n 5 "$log"; exit 1; }
echo "ok: still MASTER, SIGTERM: clean exit"

# OpenSM on the same fabric, its answers for the same ports
export OSM_TMP_DIR=$work OSM_CACHE_DIR=$work
(cd "$IBSIM_DIR" && LD_PRELOAD=$IBSIM_PRELOAD exec opensm -p 15 -f "$work/opensm.log" \
	>/dev/null 2>&1) &
osm=$!
# its log is buffered: wait until its SA answers for H4 (LIDs given, ports up)
olid=
for _ in $(seq 150); do
	olid=$(SIM_HOST=H4 ibsim_client ibaddr 2>/dev/null |
		sed -n 's/.*LID start 0x\([0-9a-f]*\) .*/\1/p')
	[ -n "$olid" ] && [ "$olid" != 0 ] && q NR "$((0x$olid))" | grep -q "NodeDescription" &&
		break
	olid=
	sleep 0.2
done
[ -n "$olid" ] || { kill "$osm"; ibsim_stop; echo "FAIL: OpenSM's SA does not answer"; exit 1; }
olid=$((0x$olid))
q NR "$olid" >"$work/osm.nr"
q PIR "$olid/1" >"$work/osm.pir"
q SMIR >"$work/osm.smir"
kill "$osm"
wait "$osm"
ibsim_stop
# each SM gives its own LIDs; ActCount counts its own SMPs
norm() { sed -E -e 's/^([[:space:]]*(lid|EndPortLid|Lid:|SMLid:|LID|ActCount)[.:]*).*/\1 -/' "$1"; }
for f in nr pir smir; do
	norm "$work/ours.$f" >"$work/ours.$f.n"
	norm "$work/osm.$f" >"$work/osm.$f.n"
	diff -u "$work/osm.$f.n" "$work/ours.$f.n" ||
		{ echo "FAIL: saquery $f differs from OpenSM's (LIDs left out)"; exit 1; }
	[ -s "$work/ours.$f.n" ] || { echo "FAIL: no $f answer"; exit 1; }
done
echo "ok: NodeRecord, PortInfoRecord and SMInfoRecord as OpenSM answers them on this fabric"
INNER
