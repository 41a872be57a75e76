#!/bin/sh
# SPDX-License-Identifier: MIT
#
# smquery_cc.sh - `smquery cc`, text and JSON, against golden files:
# ibsmd --once on the sim backend (tests/topo/twoswitch.topo: 2 switches, 5
# CAs, one dual-ported, so 8 agents) with congestion control on and settings
# that differ from the sim's defaults, so every agent is sent Sets and ends
# configured.  Then the same fabric with cc=0 (no agent anywhere, as ibsim):
# every row "no-agent", ClassPortInfo unanswered, no key, nothing sent, and
# the totals kept from the first store's passes only in that store.  A store
# with no CC pass lists no row.  GOLDEN_UPDATE=1 rewrites the golden files.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir smquery_cc
topo=$top_srcdir/tests/topo/twoswitch.topo
cat >"$work/ibsmd.yaml" <<'YAML'
congestion_control:
  enable: 1
  sw_cong_setting_control_map: 0x1f
  sw_cong_setting_threshold: 7
  sw_cong_setting_marking_rate: 10
  ca_cong_setting_port_control: 1
  ca_cong_setting_control_map: 0x3
  ca_cong_setting_ccti_timer: "0:1000, 1:2000"
  ca_cong_setting_trigger_threshold: "0:3,1:4"
  cct: "0:0,1:100,2:200,3:300"
YAML
# smquery --db STORE [--json] cc into FILE
smq()
{
	# shellcheck disable=SC2086	# no option, or --json
	"$top_builddir/smquery" --db "$1" $2 cc >"$3" 2>&1 || fail "smquery $2 cc: $(head -c 300 "$3")"
}
# the pass's time in the JSON: not the golden's business
untimed() { sed 's/"checked":[0-9]*/"checked":0/g' "$1"; }

"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --db "$work/sm.db" --control-socket "" \
	--backend "sim:$topo" --once >"$work/log" 2>&1 || fail "ibsmd --once: $(tail -n 5 "$work/log")"
smq "$work/sm.db" "" "$work/cc.txt"
same_as_golden cc.txt "$work/cc.txt" "smquery cc"
smq "$work/sm.db" --json "$work/cc.raw"
grep -q '"checked":1[0-9]\{12\}' "$work/cc.raw" || fail "no time in the JSON: $(cat "$work/cc.raw")"
untimed "$work/cc.raw" >"$work/cc.json"
same_as_golden cc.json "$work/cc.json" "smquery --json cc"
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; d = json.load(sys.stdin); assert len(d["nodes"]) == 8' \
		<"$work/cc.json" || fail "smquery --json cc is not JSON of 8 nodes"
fi

# no agent anywhere: ClassPortInfo once each, nothing else
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --db "$work/none.db" --control-socket "" \
	--backend "sim:$topo,cc=0" --once >"$work/log" 2>&1 || fail "ibsmd --once cc=0: $(tail -n 5 "$work/log")"
grep -q "congestion control: 8 agents (0 known), 0 answered, .* 0 settings sent, 0 refused; 8 CC MADs" \
	"$work/log" || fail "cc=0: $(grep 'congestion control' "$work/log")"
smq "$work/none.db" "" "$work/none.txt"
[ "$(grep -c ' no-agent  *no  no  -  *0  *0  -$' "$work/none.txt")" = 8 ] ||
	fail "cc=0: not 8 rows without an agent: $(cat "$work/none.txt")"
tail -n 1 "$work/none.txt" | grep -qx "8 agents: 0 configured, 8 no agent, 0 key refused, 0 errors; settings since the store began: 0 sent, 0 refused" ||
	fail "cc=0 totals: $(tail -n 1 "$work/none.txt")"

# congestion control off: no row, zero totals
"$top_builddir/ibsmd" --db "$work/off.db" --control-socket "" --backend "sim:$topo" --once \
	>"$work/log" 2>&1 || fail "ibsmd --once off: $(tail -n 5 "$work/log")"
smq "$work/off.db" --json "$work/off.json"
[ "$(cat "$work/off.json")" = '{"totals":{"sent":0,"refused":0},"nodes":[]}' ] ||
	fail "off: $(cat "$work/off.json")"
finish
