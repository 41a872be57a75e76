#!/bin/sh
# SPDX-License-Identifier: MIT
#
# import_opensm_qos.sh - `ibsmd --import-opensm` on OpenSM's QoS files.
#
#  - the two policies of interop/qos.sh (tests/qos/pN.qos-policy.conf with
#    the qos_* keys of pN.opensm.conf) converted: the output equals its golden
#    file (tests/qos/pN.golden.yaml, its version line aside), the same with
#    the files given in either order, and `ibsmd --check-config` accepts an
#    ibsmd.yaml whose qos_policy names it (check_sm_osm_qos shows, on the
#    sim, that it programs what the hand-written pN.yaml does);
#  - the policy alone: no vl_tables; an opensm.conf with qos FALSE: a warning;
#  - worst use: a broken policy (exit 1, the reason at FILE:LINE, nothing on
#    standard output), two opensm.conf files, two policies, three files
#    (exit 2), and --check-config refusing a qos_policy file that is not one.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir import_opensm_qos
ibsmd=$top_builddir/ibsmd
cd "$top_srcdir" || exit 1

for p in p1 p2; do
	"$ibsmd" --import-opensm "tests/qos/$p.qos-policy.conf" \
		--import-opensm "tests/qos/$p.opensm.conf" >"$work/$p.yaml" 2>"$work/$p.err" ||
		fail "$p: $(cat "$work/$p.err")"
	grep -v '^# by `ibsmd --import-opensm`' "$work/$p.yaml" | diff -u "tests/qos/$p.golden.yaml" - ||
		fail "$p: the conversion differs from tests/qos/$p.golden.yaml"
	"$ibsmd" --import-opensm "tests/qos/$p.opensm.conf" \
		--import-opensm "tests/qos/$p.qos-policy.conf" 2>/dev/null | cmp -s - "$work/$p.yaml" ||
		fail "$p: the files in the other order convert otherwise"
	printf 'qos_policy: %s\n' "$work/$p.yaml" >"$work/$p.cfg"
	"$ibsmd" --check-config -c "$work/$p.cfg" >"$work/$p.check" 2>&1 ||
		fail "$p: --check-config refuses the conversion: $(cat "$work/$p.check")"
done
echo "ok: qos.sh's two policies converted as their golden files, accepted by --check-config"

"$ibsmd" --import-opensm tests/qos/p2.qos-policy.conf >"$work/alone.yaml" 2>"$work/alone.err" ||
	fail "the policy alone: $(cat "$work/alone.err")"
grep -q '^vl_tables:' "$work/alone.yaml" && fail "the policy alone has VL tables"
grep -q '^qos_levels:' "$work/alone.yaml" || fail "the policy alone lost its levels"
printf 'qos FALSE\nqos_sl2vl 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7\n' >"$work/off.conf"
"$ibsmd" --import-opensm tests/qos/p1.qos-policy.conf --import-opensm "$work/off.conf" \
	>"$work/off.yaml" 2>"$work/off.err" || fail "qos FALSE: $(cat "$work/off.err")"
grep -q "off.conf:.*warning: qos is not TRUE here" "$work/off.err" ||
	fail "qos FALSE not told: $(cat "$work/off.err")"
echo "ok: the policy alone, and an opensm.conf with qos FALSE"

# refused WHAT STATUS TEXT ARGS...: the exit status, TEXT on standard error,
# nothing on standard output
refused() {
	what=$1 status=$2 text=$3
	shift 3
	"$ibsmd" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" = "$status" ] || fail "$what: exit status $rc, expected $status"
	[ -s "$work/out" ] && fail "$what: something written: $(head -3 "$work/out")"
	grep -qF -- "$text" "$work/err" || fail "$what: '$(cat "$work/err")' lacks '$text'"
}
printf 'qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n' \
	>"$work/open.conf"
refused "a section left open" 1 "open.conf:1: qos-levels not closed" \
	--import-opensm "$work/open.conf"
sed 's/qos-level-name: Bulk/qos-level-name: Gold/' tests/qos/p2.qos-policy.conf >"$work/gold.conf"
line=$(grep -n 'qos-level-name: Gold' "$work/gold.conf" | cut -d: -f1)
refused "a rule naming no level" 1 "gold.conf:$line: " --import-opensm "$work/gold.conf" \
	--import-opensm tests/qos/p2.opensm.conf
refused "two opensm.conf" 1 "a qos-policy.conf and an opensm.conf" \
	--import-opensm tests/qos/p1.opensm.conf --import-opensm tests/qos/p2.opensm.conf
refused "two policies" 1 "a qos-policy.conf and an opensm.conf" \
	--import-opensm tests/qos/p1.qos-policy.conf --import-opensm tests/qos/p2.qos-policy.conf
refused "three files" 2 "at most twice" --import-opensm tests/qos/p1.qos-policy.conf \
	--import-opensm tests/qos/p1.opensm.conf --import-opensm tests/qos/p1.opensm.conf
refused "a policy that is not there" 1 "$work/nosuch" --import-opensm "$work/nosuch" \
	--import-opensm tests/qos/p1.opensm.conf
printf 'qos_policy: %s\n' "$top_srcdir/tests/qos/p1.qos-policy.conf" >"$work/osm.cfg"
refused "--check-config on OpenSM's file as qos_policy" 2 "qos_policy: " --check-config \
	-c "$work/osm.cfg"
echo "ok: broken input refused with the reason, nothing written"
finish
