#!/bin/sh
# SPDX-License-Identifier: MIT
#
# partitions-opensm.sh - one partitions.conf, OpenSM and ibsmd: the same
# P_KeyTables.
#
# The bundled 2-level fat tree under ibsim, in a network namespace of its own,
# twice from its cold state: once brought up by `opensm -o -P FILE`, once by
# `ibsmd --once` told `partitions: FILE`, FILE one OpenSM partitions.conf
# that uses the grammar widely (the default limited but SELF, ALL_SWITCHES,
# ALL_CAS, GUIDs full, limited, both and by prefix, defmember, a P_Key given
# twice and with its membership bit, a made-up P_Key joined again by name,
# indx0, ipoib with group flags, an mgid= line, NONE, a later entry
# overriding an earlier one).  After each run every CA port's and every
# switch's port 0 P_KeyTable is read with `smpquery pkeys` (LIDs from
# ibnetdiscover, tables keyed by port GUID): the keys and their membership
# bits must be the same, and so must entry 0.  ibsim's switches enforce no
# partitions, so their external ports keep their tables under both SMs.
# A control: OpenSM's tables must hold keys besides the default (a broken
# read-back would compare nothing), and differ from those ibsmd programs
# from a file with one entry changed.
# Skips (77) without ibsim, OpenSM, infiniband-diags or `unshare -n`.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd opensm opensm
need_cmd smpquery infiniband-diags
need_cmd ibnetdiscover infiniband-diags
make_workdir partitions-opensm PARTITIONS_OPENSM_KEEP

# hosts Hn's port GUID is 0x02000001000000n1 (n in hex), as ibsmd-topogen made the fabric
cat >"$work/partitions.conf" <<'CONF'
# one file for OpenSM and for ibsmd
Default=0x7fff, ipoib : ALL, SELF=full ;
Default=0x7fff : ALL_SWITCHES=full ;
blue=0x1, ipoib, mtu=5, rate=7 : 0x0200000100000011=full, 0x0200000100000021,
	0x0200000100000031=both ;
red=0x8002, defmember=full : 0x0200000100000041, 0x0200000100000051=limi,
	0x0200000100000061 ;
red=0x0002 : 0x0200000100000071 ;
auto, ipoib :
	mgid=ff12:601b::42, sl=1
	ALL_CAS ;
auto : 0x0200000100000011=full ;
storage, indx0, defmember=both : SELF, 0x0200000100000081, 0x0200000100000091=limited ;
switches=0x7ab : ALL_SWITCHES=limited, 0x0200000100000101 ;
late=0x40 : ALL_CAS=full, 0x02000001000000a1=limited ;	# the later entry wins
none=0x41 : NONE ;
CONF
# the control: one membership changed
sed 's/0x02000001000000a1=limited/0x02000001000000a1=full/' "$work/partitions.conf" \
	>"$work/changed.conf"

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$ibsim_ns"
fail() { echo "FAIL: $*"; ibsim_stop; exit 1; }
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo

# tables OUT: "PORTGUID entry0 | sorted P_Keys" of every CA port and switch port 0
tables() {
	ibnd_ports >"$1.ports"
	while read -r lid port guid; do
		keys=$(ibsim_client timeout 10 smpquery pkeys "$lid" "$port" 2>/dev/null |
			sed -n 's/^ *[0-9]*: //p' | tr ' ' '\n' | grep -v '^0x0000$' | grep .)
		[ -n "$keys" ] || return 1
		echo "$guid $(echo "$keys" | head -1) | $(echo "$keys" | sort | tr '\n' ' ')"
	done <"$1.ports" | sort >"$1"
}

export OSM_TMP_DIR=$work OSM_CACHE_DIR=$work
ibsim_start "$fabric" || exit 3
ibsim_client timeout 60 opensm -o -P "$work/partitions.conf" -f "$work/opensm.log" \
	>/dev/null 2>&1 || fail "OpenSM did not bring the fabric up"
tables "$work/osm.txt" || fail "reading OpenSM's P_KeyTables"
ibsim_stop
[ "$(wc -l <"$work/osm.txt")" = 44 ] || fail "OpenSM: $(wc -l <"$work/osm.txt") tables read, want 44"
grep -q '0x8001' "$work/osm.txt" && grep -q '0x07ab' "$work/osm.txt" ||
	fail "control: OpenSM's tables hold no partition of the file: $(head -3 "$work/osm.txt")"

# ibsmd_tables FILE OUT: a fresh fabric brought up by ibsmd with FILE, read into OUT
ibsmd_tables() {
	ibsim_start "$fabric" || exit 3
	echo "partitions: $1" >"$work/ibsmd.yaml"
	rm -f "$work/sm.db"
	ibsim_client timeout 60 "$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --backend umad \
		--db "$work/sm.db" --once --log-level info >"$2.log" 2>&1 ||
		fail "ibsmd --once: $(tail -3 "$2.log")"
	tables "$2" || fail "reading ibsmd's P_KeyTables"
	ibsim_stop
}
ibsmd_tables "$work/partitions.conf" "$work/ibsmd.txt"
if ! diff -u "$work/osm.txt" "$work/ibsmd.txt"; then
	fail "OpenSM and ibsmd programmed different P_KeyTables from one partitions.conf"
fi
echo "ok: $(wc -l <"$work/osm.txt") P_KeyTables the same under OpenSM and ibsmd ($(grep -c ' 0x8001 ' "$work/osm.txt") in blue full)"

ibsmd_tables "$work/changed.conf" "$work/changed.txt"
cmp -s "$work/osm.txt" "$work/changed.txt" &&
	fail "control: a changed membership left every table as OpenSM's"
echo "ok: control: one membership changed, $(diff "$work/osm.txt" "$work/changed.txt" | grep -c '^>') table differs"
INNER
