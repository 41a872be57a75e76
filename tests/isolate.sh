#!/bin/sh
# SPDX-License-Identifier: MIT
#
# isolate.sh - flap isolation in the running daemon, on the sim backend, and
# what operators see of it.
#
# Link L2 port 7 <-> S2 flaps (sim events); with isolation.flaps: 2 the second
# down isolates it: `smquery isolated` (text and JSON) lists it with its cause,
# the metrics count it (promtool-clean when promtool is there), the LFTs stored
# after the link came back up send nothing out of it, the map marks it, and `smquery link
# restore` on the control socket brings it back, with its event, into the LFTs.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir isolate
sm=
at_exit '[ -n "$sm" ] && kill "$sm" 2>/dev/null'
log=$work/ibsmd.log
fail() { echo "FAIL: $*"; tail -n 20 "$log"; exit 1; }
smq() { "$top_builddir/smquery" --db "$work/sm.db" "$@"; }

printf '%s\n' '800 link-down "L2"[7]' '1600 link-up "L2"[7]' '2400 link-down "L2"[7]' \
	'3200 link-up "L2"[7]' >"$work/flap.events"
cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$top_srcdir/contrib/fabrics/fattree-2l-r8.topo,events=$work/flap.events
db: $work/sm.db
socket: $work/sm.sock
sweep:
  interval: 1
isolation:
  flaps: 2
EOC
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --foreground >"$log" 2>&1 &
sm=$!
wait_for_log "$log" "isolated from routing (flaps)" 1 20 || fail "the flapping link was not isolated"
smq isolated >"$work/list" || fail "smquery isolated: $(cat "$work/list")"
grep -q "L2 .* 7 .*S2 .*flaps .*link down (seen by the SM) +2" "$work/list" ||
	fail "smquery isolated: $(cat "$work/list")"
smq link list >"$work/list2" || fail "smquery link list"
cmp -s "$work/list" "$work/list2" || fail "link list differs from isolated"
smq --json isolated >"$work/json" || fail "smquery --json isolated"
grep -q '"cause":"flaps"' "$work/json" || fail "JSON: $(cat "$work/json")"
grep -q '"port":7,' "$work/json" || fail "JSON: $(cat "$work/json")"
smq metrics >"$work/m.prom" || fail "smquery metrics"
grep -qx "ibsmd_isolated_links 1" "$work/m.prom" || fail "metrics: $(grep isolated "$work/m.prom")"
if command -v promtool >/dev/null; then
	promtool check metrics <"$work/m.prom" >"$work/lint" 2>&1 ||
		fail "promtool: $(cat "$work/lint")"
fi

sq() { "$top_builddir/smquery" --socket "$work/sm.sock" "$@"; }
uses_port7() { smq lft L2 | grep -c "^0x[0-9a-f]* 007 "; }	# L2's LFT entries out of port 7
resweep()	# a heavy sweep asked for and done
{
	n=$(grep -c "subnet up" "$log")
	sq resweep >/dev/null || fail "resweep"
	wait_for_log "$log" "subnet up" $((n + 1)) 10 || fail "no heavy sweep after resweep"
}
sleep 1.5	# past the last event: the link is up again
resweep
[ "$(uses_port7)" = 0 ] || fail "the isolated link is routed over: $(smq lft L2)"
smq map -o "$work/map.html" || fail "smquery map"	# S2 port 3 <-> L2 port 7, flag 4
grep -Eq '\[[0-9]+,3,[0-9]+,7,[4-7],' "$work/map.html" || fail "the map does not mark the link isolated"
out=$(sq link restore L2 3) && fail "a link never isolated was restored: $out"
echo "$out" | grep -q "^error: .* port 3 is on no isolated link" || fail "restore L2 3: $out"
out=$(sq link restore L2 0) ; [ $? = 2 ] || fail "port 0 passed: $out"
out=$(sq --json link restore L2 7) || fail "restore: $out"
echo "$out" | grep -q '^{"ok": true, "restored": ' || fail "restore said: $out"
wait_for_log "$log" "back in routing: restored by the operator" 1 10 || fail "no restore logged"
resweep
[ "$(uses_port7)" -gt 0 ] || fail "the restored link is not routed over: $(smq lft L2)"
smq events | grep -q "link_restored" || fail "no link_restored event"
[ "$(smq --json isolated)" = '{"isolated":[]}' ] || fail "still listed: $(smq --json isolated)"
kill -TERM "$sm"
wait "$sm" || fail "ibsmd exited $? on SIGTERM"
sm=
echo "ok: flap isolation, smquery isolated, metrics, link restore"
