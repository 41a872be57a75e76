#!/bin/sh
# SPDX-License-Identifier: MIT
#
# guid2lid.sh - OpenSM's LID cache seeds a cold ibsmd start.
#
# The bundled 2-level fat tree under ibsim, in a network namespace of its own:
# `opensm -o` brings it up and writes its guid2lid file (OSM_CACHE_DIR); ibsim
# is stopped, so the ports forget their LIDs, and a fresh ibsim is brought up
# by `ibsmd --once` on a fresh store told `guid2lid: FILE`.  Every CA port
# and every switch (port 0), found with ibnetdiscover, must then hold the LID
# OpenSM gave it.  A control: the same cold start without guid2lid gives
# other LIDs (ibsmd numbers ports its own way), so the comparison can fail.
# Skips (77) without ibsim, OpenSM, infiniband-diags or `unshare -n`.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd opensm opensm
need_cmd ibnetdiscover infiniband-diags
make_workdir guid2lid

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$ibsim_ns"
fail() { echo "FAIL: $*"; ibsim_stop; exit 1; }
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo

# lids OUT: "PORTGUID LID" of every switch (port 0) and CA port, sorted
lids() {
	ibnd_ports | awk '{ print $3, $1 }' | sort >"$1"
	[ "$(wc -l <"$1")" = 44 ] || fail "$(wc -l <"$1") ports found in $1, want 44"
}

# cold_ibsmd OUT [guid2lid FILE]: a fresh fabric and store, ibsmd --once, its LIDs
cold_ibsmd() {
	out=$1
	shift
	ibsim_start "$fabric" || exit 3
	printf '%s\n' "$@" | sed -n 's/^\(guid2lid\) \(.*\)/\1: \2/p' >"$out.yaml"
	rm -f "$out.db"
	ibsim_client timeout 60 "$top_builddir/ibsmd" -c "$out.yaml" --backend umad \
		--db "$out.db" --once --log-level info >"$out.log" 2>&1 ||
		fail "ibsmd --once: $(tail -3 "$out.log")"
	lids "$out"
	ibsim_stop
}

export OSM_TMP_DIR=$work OSM_CACHE_DIR=$work
ibsim_start "$fabric" || exit 3
ibsim_client timeout 60 opensm -o -f "$work/opensm.log" >/dev/null 2>&1 ||
	fail "OpenSM did not bring the fabric up"
lids "$work/osm.lids"
ibsim_stop
[ -s "$work/guid2lid" ] || fail "OpenSM wrote no guid2lid into $work"

cold_ibsmd "$work/seeded" "guid2lid $work/guid2lid"
grep -q "guid2lid: the LID map seeded with" "$work/seeded.log" ||
	fail "no seeding logged: $(grep guid2lid "$work/seeded.log")"
if ! diff -u "$work/osm.lids" "$work/seeded"; then
	fail "a cold start seeded from OpenSM's guid2lid gave other LIDs"
fi
echo "ok: cold start seeded from guid2lid: all $(wc -l <"$work/seeded") LIDs as OpenSM gave them"

cold_ibsmd "$work/unseeded"
cmp -s "$work/osm.lids" "$work/unseeded" &&
	fail "control: without guid2lid the cold start gave OpenSM's LIDs too (the test proves nothing)"
echo "ok: control: without guid2lid $(diff "$work/osm.lids" "$work/unseeded" | grep -c '^>') ports get other LIDs"
INNER
