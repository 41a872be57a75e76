#!/bin/sh
# SPDX-License-Identifier: MIT
#
# takeover.sh - ibsmd takes over a fabric OpenSM brought up.
#
# Under ibsim, in a network namespace of its own: `opensm -o` brings the
# bundled fat tree up; then `ibsmd --once` on a fresh store must keep every
# LID OpenSM gave (read from the ports, honoured because they are valid and
# unique), send no PortInfo Set, read the LFTs back from the switches (it has
# no record of them) and rewrite only what its own routes change; afterwards
# every port is still Active with the same LID, and ibtracert crosses the
# fabric.  Then OpenSM runs again with other routes, and the next ibsmd must
# find that the switches no longer hold what its store records, read the
# tables back and rewrite them.
# Skips (77) without ibsim, OpenSM, infiniband-diags or unshare.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd opensm opensm
need_cmd iblinkinfo infiniband-diags
make_workdir takeover

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
. "$ibsim_ns"
. "$top_srcdir/tests/interop/sm_peers.sh"	# lids
fail() { echo "FAIL: $*"; ibsim_stop; exit 1; }

ibsim_start "$top_srcdir/contrib/fabrics/fattree-2l-r8.topo" || exit 3
export OSM_TMP_DIR=$work OSM_CACHE_DIR=$work
# link parameters as ibsim holds them: it answers a Set of SubnetTimeOut, the
# error thresholds or the enabled widths and speeds with its fixed values, so
# OpenSM's settings (ibsmd's defaults) never land there
printf 'link:\n  subnet_timeout: 31\n  local_phy_errors: 0\n  overrun_errors: 0\n  enable_all_supported: 0\n' >"$work/ibsmd.yaml"
ibsim_client timeout 60 opensm -o -f "$work/opensm.log" >/dev/null 2>&1 ||
	fail "OpenSM did not bring the fabric up"
lids >"$work/before"
[ "$(grep -c 'Active' "$work/before")" = 32 ] || fail "OpenSM left CA ports down: $(cat "$work/before")"

ibsim_client timeout 60 "$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --backend umad --db "$work/sm.db" --once \
	--log-level info >"$work/ibsmd.log" 2>&1 || fail "ibsmd --once: $(tail -3 "$work/ibsmd.log")"
grep -q "44 from the fabric, 0 new" "$work/ibsmd.log" || fail "LIDs not honoured: $(grep LIDs "$work/ibsmd.log")"
grep -q "programming: 0 PortInfo Sets" "$work/ibsmd.log" || fail "PortInfo Sets sent: $(grep programming "$work/ibsmd.log")"
grep -q "(12 read back)" "$work/ibsmd.log" || fail "LFTs not read back: $(grep programming "$work/ibsmd.log")"
lids >"$work/after"
cmp -s "$work/before" "$work/after" || fail "LIDs or states changed: $(diff "$work/before" "$work/after")"
SIM_HOST=H0 ibsim_client ibtracert 1 32 >"$work/trace" 2>&1 || fail "ibtracert: $(cat "$work/trace")"
"$top_builddir/smquery" --db "$work/sm.db" route-check >"$work/check" || fail "route-check"
grep -q "pairs 992: 0 unreachable, 0 in loops" "$work/check" || fail "$(head -3 "$work/check")"
echo "ok: took over OpenSM's fabric: $(grep programming "$work/ibsmd.log" | sed 's/.*notice: //')"

# OpenSM runs again in between (other routes): the next ibsmd must not trust
# its store's record of the tables, but notice and rewrite them
ibsim_client timeout 60 opensm -o -R updn -f "$work/opensm2.log" >/dev/null 2>&1 ||
	fail "OpenSM's second run failed"
ibsim_client timeout 60 "$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --backend umad --db "$work/sm.db" --once \
	--log-level info >"$work/ibsmd2.log" 2>&1 || fail "second ibsmd --once: $(tail -3 "$work/ibsmd2.log")"
grep -q "12 switches do not hold what the store records" "$work/ibsmd2.log" ||
	fail "OpenSM's tables went unnoticed: $(grep programming "$work/ibsmd2.log")"
grep -q "programming: 0 PortInfo Sets, [1-9][0-9]* LFT blocks" "$work/ibsmd2.log" ||
	fail "the tables were not rewritten: $(grep programming "$work/ibsmd2.log")"
SIM_HOST=H31 ibsim_client ibtracert 32 1 >"$work/trace2" 2>&1 || fail "ibtracert: $(cat "$work/trace2")"
ibsim_stop
echo "ok: OpenSM's tables noticed and rewritten: $(grep 'programming: [0-9]* PortInfo' "$work/ibsmd2.log" | sed 's/.*notice: //')"
INNER
