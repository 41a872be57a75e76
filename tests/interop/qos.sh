#!/bin/sh
# SPDX-License-Identifier: MIT
#
# qos.sh - the QoS policy, ibsmd against OpenSM under ibsim.
#
# Two policies, each given to OpenSM (qos-policy.conf, `qos TRUE` and qos_*
# keys in its options file) and the same to ibsmd (qos_policy: YAML, for
# policy 2 the one `ibsmd --import-opensm` makes of OpenSM's files), each SM
# alone on a fresh ibsim of tests/topo/twoswitch.topo (so neither finds the
# other's tables):
#  1. simplified: OpenSM's ULP rules (default, sdp, rds, iser, ipoib, a
#     ServiceID, a P_Key), custom VL arbitration for CAs and switch ports;
#  2. full: port groups (by port name, by node type), levels with an MTU
#     limit, match rules by destination and ServiceID, by QoS class, by source
#     and P_Key, and its own SL-to-VL tables per port type.
# Read back on every port of every node (found by ibnetdiscover): the
# SLtoVLMappingTables (smpquery sl2vl, every input port to each output port
# of a switch) and the VLArbitrationTables (smpquery vlarb) must be the same
# under both SMs; the SL, MTU and rate of the PathRecords saquery gets for the
# policy's ServiceIDs, P_Keys and QoS classes must be the same too.  A table
# still as ibsim starts it would match trivially: some are checked to differ
# from that.  Skips (77) where ibsim, OpenSM, infiniband-diags or
# `unshare -n` is missing.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd opensm opensm
need_cmd smpquery infiniband-diags
need_cmd saquery infiniband-diags
need_cmd ibnetdiscover infiniband-diags
make_workdir qos QOS_KEEP

# The two policies, each as OpenSM's files (tests/qos/pN.qos-policy.conf and
# the qos_* keys of pN.opensm.conf) and as ibsmd's YAML (pN.yaml):
#  - p1: simplified (the ULP section), VL arbitration per port type; ibsmd
#    reads the hand-written YAML;
#  - p2: port groups, levels, match rules, SL-to-VL tables; ibsmd reads what
#    `ibsmd --import-opensm` makes of OpenSM's two files.
qos=$top_srcdir/tests/qos
"$top_builddir/ibsmd" --import-opensm "$qos/p2.qos-policy.conf" \
	--import-opensm "$qos/p2.opensm.conf" >"$work/p2.yaml" 2>"$work/p2.import" ||
	{ echo "FAIL: --import-opensm p2: $(cat "$work/p2.import")"; exit 1; }
cp "$qos/p1.yaml" "$work/p1.yaml"
for p in p1 p2; do
	cp "$qos/$p.qos-policy.conf" "$work/$p.osm"
	cp "$qos/$p.opensm.conf" "$work/$p.opts"
done

# ServiceIDs, P_Keys and QoS classes asked for (saquery options, + for a
# space), between pairs of hosts (HD2: HD's port 2)
p1_asks="--service_id+0x11388 --service_id+0x10001 --service_id+0x10648ca
--service_id+0x1060cbc --pkey+0xffff --service_id+0x500 --service_id+0x501 --qos_class+1"
p1_pairs="H1-H2 H3-H1"

p2_asks="--service_id+0x1234 --service_id+0x2000 --qos_class+5 --qos_class+6 --pkey+0xffff
--pkey+0xffff+--service_id+0x1234"
p2_pairs="H1-H2 H1-HD2 H2-H1 H3-H1"
export p1_asks p2_asks p1_pairs p2_pairs

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
ibsim_daemon_setup
fabric=$top_srcdir/tests/topo/twoswitch.topo
export OSM_TMP_DIR=$work OSM_CACHE_DIR=$work
c() { SIM_HOST=H3 ibsim_client timeout 10 "$@" 2>&1; }

# The ports: ibnetdiscover -p, "CA|SW LID PORT GUID ...", both ends of each link.
list_ports() {
	c ibnetdiscover -p | awk '{ print $1, $2, $3, $4; print $8, $9, $10, $11 }' |
		grep -E '^(CA|SW) ' | sort -u >"$work/ports"
	[ -s "$work/ports" ] || fail "ibnetdiscover found no ports"
}

# Every port's tables, one line each, keyed by GUID and port number (each SM
# gives its own LIDs): the switches' (every output port), then the CAs'.
dump_switches() {
	awk '$1 == "SW" { print $2, $4 }' "$work/ports" | sort -u | while read -r lid guid; do
		for out in 0 1 2 3 4 5 6 7 8; do
			c smpquery sl2vl "$lid" "$out" | grep '^ports' | sed "s/^/$guid /"
			c smpquery vlarb "$lid" "$out" | grep -v '^#' | sed "s/^/$guid:$out /"
		done
	done
}

dump_cas() {
	awk '$1 == "CA" { print $2, $3, $4 }' "$work/ports" | while read -r lid port guid; do
		c smpquery sl2vl "$lid" | grep '^ports' | sed "s/^/$guid:$port /"
		c smpquery vlarb "$lid" "$port" | grep -v '^#' | sed "s/^/$guid:$port /"
	done
}

lid_of() { SIM_HOST=$1 ibsim_client ibaddr 2>/dev/null | sed -n 's/.*LID start 0x\([0-9a-f]*\) .*/\1/p'; }
# HD's second port: its LID as ibnetdiscover lists it
lid_hd2() { awk '$1 == "CA" && $3 == 2 { print $2 }' "$work/ports" | head -n 1; }
# PathRecords' SL, MTU and rate for each of $asks between each of $pairs.
paths() {
	for pair in $pairs; do
		set -- $(echo "$pair" | tr - ' ')
		s=$((0x$(lid_of "$1")))
		if [ "$2" = HD2 ]; then d=$(lid_hd2); else d=$((0x$(lid_of "$2"))); fi
		for ask in $asks; do
			# shellcheck disable=SC2046
			out=$(c saquery -p --slid "$s" --dlid "$d" $(echo "$ask" | tr + ' '))
			echo "$pair $ask: $(echo "$out" | sed -n 's/^[[:space:]]*\(sl\|mtu\|rate\)\.\.*/\1 /p' | tr '\n' ' ')"
		done
	done
}

# run WHO POLICY: one SM with one policy on a fresh ibsim; its tables and
# paths into $work/WHO.POLICY.
run() {
	ibsim_start "$fabric" || exit 3
	if [ "$1" = osm ]; then
		{ cat "$work/$2.opts"; echo "qos_policy_file $work/$2.osm"; } >"$work/opensm.conf"
		(cd "$IBSIM_DIR" && LD_PRELOAD=$IBSIM_PRELOAD exec opensm -F "$work/opensm.conf" \
			-p 15 -f "$work/opensm.$2.log" >/dev/null 2>&1) &
		pid=$!
		# its log is buffered: wait until its SA gives a path H1 -> H2
		for _ in $(seq 100); do
			a=$(lid_of H1) b=$(lid_of H2)
			[ -n "$a" ] && [ -n "$b" ] && [ "$a" != 0 ] && [ "$b" != 0 ] &&
				c saquery -p --slid "$((0x$a))" --dlid "$((0x$b))" | grep -q '^[[:space:]]*sl' &&
				break
			sleep 0.2
		done
		sleep 1	# the QoS tables go out in the same sweep
	else
		echo "qos_policy: $work/$2.yaml" >"$work/ibsmd.yaml"
		log=$work/ibsmd.$2.log
		ibsmd_ibsim_start -c "$work/ibsmd.yaml"
		pid=$sm
	fi
	# three chains of queries at once: ibsim answers them in turn
	list_ports
	dump_switches >"$work/sw" &
	a=$!
	dump_cas >"$work/ca" &
	b=$!
	paths >"$work/$1.$2.paths"
	wait "$a" "$b"
	cat "$work/sw" "$work/ca" >"$work/$1.$2.tables"
	kill "$pid"
	wait "$pid"
	ibsim_stop
}

asks=$p1_asks pairs=$p1_pairs
run osm p1
run ibsmd p1
asks=$p2_asks pairs=$p2_pairs
run osm p2
run ibsmd p2

for p in p1 p2; do
	for kind in tables paths; do
		[ -s "$work/osm.$p.$kind" ] || { echo "FAIL: OpenSM's $p $kind are empty"; exit 1; }
		diff -u "$work/osm.$p.$kind" "$work/ibsmd.$p.$kind" ||
			{ echo "FAIL: $p: ibsmd's $kind differ from OpenSM's"; exit 1; }
	done
	echo "ok: $p: $(grep -c . "$work/osm.$p.tables") table lines and $(grep -c . "$work/osm.$p.paths") PathRecords as OpenSM's"
done
# not trivially equal: the policies' tables are on the devices
grep -q 'WEIGHT: |0x8 |0x10|0x20|0x40|0x80|0x1 |0x2 |0x4 |' "$work/ibsmd.p1.tables" ||
	{ echo "FAIL: p1: no CA has the policy's low VL arbitration"; exit 1; }
grep -q '| 0| 1| 2| 3| 3| 2| 1| 0| 0| 1| 2| 3| 3| 2| 1|15|' "$work/ibsmd.p2.tables" ||
	{ echo "FAIL: p2: no CA has the policy's SL-to-VL table"; exit 1; }
grep -q '| 1| 0| 3| 2| 5| 4| 7| 6| 1| 0| 3| 2| 5| 4| 7| 6|' "$work/ibsmd.p2.tables" ||
	{ echo "FAIL: p2: no switch port has the policy's SL-to-VL table"; exit 1; }
grep -q 'sl 0x6' "$work/ibsmd.p1.paths" && grep -q 'sl 0x5' "$work/ibsmd.p1.paths" &&
	grep -q 'sl 0x3' "$work/ibsmd.p2.paths" && grep -q 'mtu 0x83' "$work/ibsmd.p2.paths" ||
	{ echo "FAIL: the PathRecords do not carry the policies' SLs and limits"; exit 1; }
echo "ok: the policies' tables, SLs and MTU limit are on the fabric"
INNER
