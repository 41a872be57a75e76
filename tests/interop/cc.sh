#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cc.sh - congestion control under ibsim, which has no CC agent.
#
# ibsim (0.10 to 0.12) answers class 0x21 as its SMA's class 0x01 (it picks
# the handler by the class's low 4 bits): ClassPortInfo and CongestionInfo
# come back as sent (no data), CongestionKeyInfo as SwitchInfo,
# SwitchCongestionSetting as GUIDInfo, CACongestionSetting as P_KeyTable.  A
# Set past the probe would write
# those tables, so such an answer (not ClassVersion 2) must count as no agent.
#
# On the bundled fat tree (32 hosts, 12 switches: 44 agents), in a network
# namespace of its own: `ibsmd --once` on a fresh store with congestion
# control off, then on another fresh store with it on (settings that differ
# from every default, so a node taken for an agent would be sent Sets).  Both
# bring the subnet up.  With CC on, every agent is sent one ClassPortInfo
# and nothing else of class 0x21: the pass's log line counts 44 agents, 0
# answered and 44 CC MADs, 0 settings sent or refused; `smquery cc` shows
# every row "no-agent" with no key; the metrics say 0 settings sent; the
# switches' SwitchInfo (LinearFDBTop) reads the same with CC as without.
# The two times are printed; the run with CC may take at most 20 s more.
# Skips (77) where ibsim, infiniband-diags or `unshare -n` is missing.
# CC_KEEP=1 keeps the work directory.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd smpquery infiniband-diags
make_workdir cc CC_KEEP

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=contrib/ibsim/ibsim-ns.sh
. "$ibsim_ns"
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo
cat >"$work/cc.yaml" <<EOC
congestion_control:
  enable: 1
  cc_key: 0x1234
  sw_cong_setting_control_map: 0x1f
  sw_cong_setting_threshold: 7
  ca_cong_setting_port_control: 1
  ca_cong_setting_control_map: 0x1
  ca_cong_setting_ccti_timer: "0:1000"
  cct: "0:0,1:100"
EOC
# once NAME [ARGS]: ibsmd --once on the fresh store $work/NAME.db, its log
# $work/NAME.log; the wall time in ms on stdout
once()
{
	name=$1
	shift
	t0=$(date +%s%N)
	ibsim_client timeout 60 "$top_builddir/ibsmd" --backend umad --db "$work/$name.db" \
		--control-socket "" --once --log-level info "$@" >"$work/$name.log" 2>&1 ||
		fail "ibsmd --once ($name): $(tail -n 3 "$work/$name.log")"
	echo $(( ($(date +%s%N) - t0) / 1000000 ))
}

# the switches' SwitchInfo, as ibsim holds it (a CC Set taken as SMA would change it)
switchinfo()
{
	for lid in $(seq 33 44); do
		SIM_HOST=H31 ibsim_client timeout 10 smpquery switchinfo "$lid" 2>&1
	done
}

ibsim_start "$fabric" || exit 3
off_ms=$(once off)
switchinfo >"$work/si.off"
on_ms=$(once on -c "$work/cc.yaml")
switchinfo >"$work/si.on"
ibsim_stop
grep -q "LinearFdbTop" "$work/si.off" || fail "smpquery switchinfo: $(head -n 3 "$work/si.off")"
diff -u "$work/si.off" "$work/si.on" || fail "the switches' SwitchInfo changed with CC on"
for name in off on; do
	grep -q "subnet up" "$work/$name.log" || fail "$name: no subnet up: $(tail -n 3 "$work/$name.log")"
done
grep -q "congestion control:" "$work/off.log" &&
	fail "CC off, yet a pass: $(grep 'congestion control:' "$work/off.log")"
line=$(grep "congestion control:" "$work/on.log")
echo "$line" | grep -q "congestion control: 44 agents (0 known), 0 answered, 0 configured, 0 key refused, 0 errors; 0 settings sent, 0 refused; 44 CC MADs in " ||
	fail "not one ClassPortInfo per agent and nothing else: $line"

"$top_builddir/smquery" --db "$work/on.db" cc >"$work/cc.txt" || fail "smquery cc"
[ "$(grep -c ' no-agent  *no  no  -  *0  *0  ' "$work/cc.txt")" = 44 ] ||
	fail "smquery cc: not 44 rows without an agent: $(cat "$work/cc.txt")"
"$top_builddir/smquery" --db "$work/on.db" metrics >"$work/metrics" || fail "smquery metrics"
grep -qx "ibsmd_cc_settings_sent_total 0" "$work/metrics" &&
	grep -qx "ibsmd_cc_settings_refused_total 0" "$work/metrics" ||
	fail "metrics: $(grep ibsmd_cc "$work/metrics")"
echo "ok: 44 agents, one ClassPortInfo each, nothing more; subnet up in ${off_ms} ms without CC, ${on_ms} ms with"
[ "$on_ms" -le $((off_ms + 20000)) ] || fail "CC added $((on_ms - off_ms)) ms"
finish
INNER
