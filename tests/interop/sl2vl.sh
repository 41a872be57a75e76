#!/bin/sh
# SPDX-License-Identifier: MIT
#
# sl2vl.sh - SL to VL tables under ibsim, whose switches do not offer
# optimized SLtoVLMappingTable programming (SwitchInfo OptSLtoVLMapping 0, as
# smpquery reads it) and would take the optimized modifier's bits 17:16 for
# nothing, writing the table of input port 0 instead (ibsim's do_sl2vl reads
# only bits 15:0).  ibsmd must program them pair by pair and never send the
# optimized form.
#
# The 128-host 3-level radix-8 fat tree with switch links cut (ibsmd-topogen
# --remove-links 40 --seed 1, as tests/check_sm_hw.c), where ftree routes some
# CA pairs on SL 1, in a network namespace of its own (`unshare -n`):
#  1. `smpquery si` on the SM's leaf switch says OptSLtoVLMapping 0;
#  2. `ibsmd --backend umad --once --routing ftree` exits 0; its SL2VL log line
#     says SLs above 0 (0..2 under ibsim's LIDs), no switch set with optimized
#     Sets, no failure;
#  3. `smpquery sl2vl` on that switch: a pair of cabled ports (input 1 to its
#     first uplink) maps SL 8 to VL 0 (ibsmd's table: SL n -> VL n mod 8), and
#     the tables of input port 0, which ibsmd never writes pair by pair but an
#     optimized Set would have written there, still hold ibsim's power-on SL 8
#     -> VL 8.
# Skips (77) when ibsim, libumad2sim.so, `unshare -n` or infiniband-diags is
# missing.  SL2VL_KEEP=1 keeps the work directory (its path is printed).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd smpquery infiniband-diags
make_workdir sl2vl SL2VL_KEEP

"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix 8 \
	--remove-links 40 --seed 1 -o "$work/cut.topo" || exit 99

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=contrib/ibsim/ibsim-ns.sh
. "$ibsim_ns"
ibsim_start "$work/cut.topo" || exit 3

# sl8 OUT: "IN VL" for SL 8 of every input port of the SM's leaf switch into OUT
sl8() {
	ibsim_client smpquery -D sl2vl 0,1 "$1" 2>/dev/null |
		awk -F'|' '/^ports: in/ { split($1, w, " "); sub(",", "", w[3]); print w[3], $10 + 0 }'
}

si=$(ibsim_client smpquery -D si 0,1 2>&1)
echo "$si" | grep -q '^OptSLtoVLMapping:\.*0$' ||
	fail "ibsim's switch offers optimized SL2VL programming after all: $(echo "$si" | grep OptSL)"

(cd "$IBSIM_DIR" && LD_PRELOAD=$IBSIM_PRELOAD exec "$top_builddir/ibsmd" --backend umad \
	--db "$work/sm.db" --once --routing ftree --log-level info) > "$work/ibsmd.log" 2>&1
rc=$?
line=$(grep 'SL2VL: routes on SLs' "$work/ibsmd.log")
echo "  $line"
if [ "$rc" != 0 ]; then
	fail "ibsmd --once exited $rc: $(tail -3 "$work/ibsmd.log")"
elif ! echo "$line" | grep -Eq 'SLs 0\.\.[1-9]; 0 switches set with 0 optimized Sets \(0 refused'; then
	fail "SL2VL under ibsim is not pair by pair: $line"
elif ! echo "$line" | grep -q ' 0 failures;'; then
	fail "SL2VL failures under ibsim: $line"
else
	echo "ok: ibsmd programmed ibsim's switches pair by pair"
fi

# the SM's leaf switch: port 1 is a host, its first uplink the first switch peer
up=$(awk '/^Switch/ { sw = ($3 == "\"L0.0\"") }
	sw && /^\[/ && $2 !~ /^"H/ { sub(/^\[/, "", $1); sub(/\].*/, "", $1); print $1; exit }' \
	"$work/cut.topo")
[ -n "$up" ] || fail "no uplink of L0.0 in the topology"
tables=$(sl8 "${up:-5}")
echo "$tables" | grep -q '^1 0$' || fail "L0.0 1 -> $up: SL 8 not on VL 0: $(echo "$tables" | tr '\n' ' ')"
echo "$tables" | grep -q '^0 8$' ||
	fail "L0.0 0 -> $up: not ibsim's power-on table (an optimized Set reached it?): $(echo "$tables" | tr '\n' ' ')"
t0=$(sl8 0)
echo "$t0" | grep -q '^0 8$' ||
	fail "L0.0 0 -> 0: not ibsim's power-on table (an optimized Set reached it?): $(echo "$t0" | tr '\n' ' ')"
[ "$fails" -eq 0 ] && echo "ok: ibsim's tables: pairs of cabled ports set, input port 0 untouched"
ibsim_stop
finish
INNER
