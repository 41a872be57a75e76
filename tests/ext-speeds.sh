#!/bin/sh
# SPDX-License-Identifier: MIT
#
# ext-speeds.sh - extended speeds end to end on the sim backend: `ibsmd --once`
# on tests/topo/ndr.topo (NDR switches, XDR, NDR, HDR and QDR hosts), then
# `smquery topology` must name every link's rate as ibnetdiscover prints it
# (4xXDR, 4xNDR, 2xHDR, 4xQDR; golden/topology-ndr.txt without its date
# line), and
# read back into a store it must print the same fabric and rates again;
# `smquery route-check` counts the links by rate.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir ext-speeds
smquery() { "$top_builddir/smquery" "$@"; }

"$top_builddir/ibsmd" --once --backend "sim:$top_srcdir/tests/topo/ndr.topo" \
	--db "$work/sm.db" --log-level error >"$work/ibsmd.log" 2>&1 ||
	{ fail "ibsmd --once: $(cat "$work/ibsmd.log")"; finish; }
smquery --db "$work/sm.db" topology >"$work/topo.txt" || fail "smquery topology"
grep -v '^# Topology file: generated on' "$work/topo.txt" >"$work/topo.undated"
same_as_golden topology-ndr.txt "$work/topo.undated" "smquery topology"
for rate in 4xXDR 4xNDR 2xHDR 4xQDR; do
	grep -q " $rate\$" "$work/topo.txt" || fail "no $rate link in smquery topology"
done
smquery --db "$work/sm.db" route-check >"$work/check.txt" || fail "smquery route-check"
grep -q '^link rates: 1 4xXDR (800.0 Gb/s), 4 4xNDR (400.0 Gb/s), 1 2xHDR (100.0 Gb/s), 2 4xQDR (32.0 Gb/s)' \
	"$work/check.txt" || fail "route-check's link rates: $(grep 'link rates' "$work/check.txt")"
"$top_builddir/tests/check_smquery_mkdb" file "$work/back.db" "$work/topo.txt" ||
	fail "smquery topology does not load back"
smquery --db "$work/back.db" topology >"$work/back.txt" ||
	fail "smquery topology on the reloaded store"
"$top_builddir/tests/check_smquery_mkdb" compare "$work/topo.txt" "$work/back.txt" ||
	fail "the rates do not survive a round trip"
[ "$fails" = 0 ] && echo "ext-speeds: all passed"
finish
