#!/bin/sh
# SPDX-License-Identifier: MIT
#
# perfmgr.sh - the performance manager under ibsim, checked against perfquery.
#
# On the bundled fat tree, in a network namespace of its own: ibsmd polls
# every port each second.  ibsim's PerformanceSet puts values in H4's and a
# switch port's counters; after the next passes the totals ibsmd exports
# (smquery metrics, under treydock/infiniband_exporter's names, which it
# fills from perfquery: the switch port found as treydock's joins find it, by
# its uplink_info naming H4's port GUID) equal what perfquery reads from the
# same ports: the error
# counters exactly, the data counters up to the few MADs that crossed the
# port between ibsmd's read and perfquery's (ibsim counts MADs as traffic).
# A SymbolErrorCounter past half its range is cleared by ibsmd's Set (perfquery
# then reads 0) while the exported total keeps counting.  ibsim answers no
# PortSamplesControl: each node keeps 4 ns ticks, logged once.  ibsmd stays
# MASTER.
# Skips (77) where ibsim, infiniband-diags or `unshare -n` is missing.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd perfquery infiniband-diags
make_workdir perfmgr

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
ibsim_daemon_setup
# pq ARGS: perfquery from H31; field NAME: its "NAME:....value"
pq() { SIM_HOST=H31 ibsim_client timeout 10 perfquery "$@" 2>&1; }
field() { sed -n "s/^$1:\.*//p" | head -n 1; }
# metric NAME GUID PORT: ibsmd's exported total for that port, NAME
# switch_port_COUNTER or hca_port_COUNTER
metric()
{
	"$top_builddir/smquery" --db "$work/sm.db" metrics --ports switch-switch,switch-ca,ca |
		sed -n "s/^infiniband_$1_total{guid=\"$2\",port=\"$3\"} //p"
}
# passes: wait for N more "port counters:" lines in the log
passes() { wait_for_log "$log" "port counters: " $(( $(grep -c "port counters: " "$log") + $1 )) 10; }

cat >"$work/ibsmd.yaml" <<EOC
socket: ""
perfmgr:
  interval: 1
EOC
ibsim_start "$fabric" || exit 3
ibsmd_ibsim_start -c "$work/ibsmd.yaml"
passes 1 || fail "no port counter pass within 10 s"
grep -q "port counters: 128 ports sampled in [0-9]* ms (0 failed" "$log" ||
	fail "the first pass did not sample the fabric's 128 linked ports"
echo "ok: a pass samples all 128 linked ports"

h4=$(SIM_HOST=H4 ibsim_client ibaddr | sed -n 's/.*LID start 0x\([0-9a-f]*\) .*/\1/p')
h4=$((0x$h4))
h4guid=$("$top_builddir/smquery" --db "$work/sm.db" --json ports H4 |
	sed -n 's/.*"ports":\[{"port":1,"guid":"\(0x[0-9a-f]*\)".*/\1/p')
[ -n "$h4guid" ] || fail "no port GUID for H4 in the store"
ibsim_cmd 'PerformanceSet "H4"[1] PortCounters.SymbolErrorCounter=17'
ibsim_cmd 'PerformanceSet "H4"[1] PortCounters.LinkDownedCounter=3'
ibsim_cmd 'PerformanceSet "H4"[1] PortCounters.PortXmitWait=4242'
ibsim_cmd 'PerformanceSet "H4"[1] PortCountersExtended.PortXmitData=99999999'
ibsim_cmd 'PerformanceSet "H4"[1] PortCountersExtended.PortRcvData=55555555'
passes 2 || fail "no passes after PerformanceSet"
kill -STOP "$sm"	# no more polling traffic while perfquery reads
pc=$(pq "$h4" 1)
pce=$(pq -x "$h4" 1)
for pair in symbol_error:SymbolErrorCounter link_downed:LinkDownedCounter \
	    transmit_wait:PortXmitWait; do
	ours=$(metric "hca_port_${pair%%:*}" "$h4guid" 1)
	theirs=$(echo "$pc" | field "${pair#*:}")
	[ -n "$ours" ] && [ "$ours" = "$theirs" ] ||
		fail "H4 port 1 ${pair#*:}: ibsmd '$ours', perfquery '$theirs': $pc"
done
for pair in transmit_data_bytes:PortXmitData receive_data_bytes:PortRcvData; do
	ours=$(metric "hca_port_${pair%%:*}" "$h4guid" 1)
	theirs=$(echo "$pce" | field "${pair#*:}")
	# ours in octets, perfquery's in words; a MAD is 64 words and more, and
	# the last pass's MADs, perfquery's own and a slow (ASan) SM's may come
	# after the value the metrics hold: up to 30 MADs (a unit wrong by 4 is
	# 75 M words off)
	diff=$((theirs - ours / 4))
	[ -n "$ours" ] && [ $((ours % 4)) = 0 ] && [ "$diff" -ge 0 ] && [ "$diff" -le 2400 ] ||
		fail "H4 port 1 ${pair#*:}: ibsmd '$ours' octets, perfquery '$theirs' words: $pce"
done
echo "ok: H4 port 1: SymbolErrorCounter 17, LinkDownedCounter 3, PortXmitWait 4242 as perfquery; data within the MADs since"
kill -CONT "$sm"

# a switch port: the leaf H4 hangs off, found by its uplink_info
sw=$("$top_builddir/smquery" --db "$work/sm.db" metrics |
	sed -n "s/^infiniband_switch_uplink_info{guid=\"\(0x[0-9a-f]*\)\",port=\"\([0-9]*\)\",.*,uplink_guid=\"$h4guid\",.*/\1 \2/p")
set -- $sw
swguid=$1 swport=$2
swname=$("$top_builddir/smquery" --db "$work/sm.db" --json nodes |
	tr '}' '\n' | sed -n "s/.*\"guid\":\"$swguid\".*\"description\":\"\([^\"]*\)\".*/\1/p" | head -n 1)
swlid=$("$top_builddir/smquery" --db "$work/sm.db" --json nodes |
	tr '}' '\n' | sed -n "s/.*\"guid\":\"$swguid\".*\"lid\":\([0-9]*\).*/\1/p" | head -n 1)
[ -n "$swname" ] && [ -n "$swlid" ] || fail "H4's switch: '$sw' '$swname' '$swlid'"
ibsim_cmd "PerformanceSet \"$swname\"[$swport] PortCounters.PortRcvErrors=9"
ibsim_cmd "PerformanceSet \"$swname\"[$swport] PortCounters.SymbolErrorCounter=40000"
passes 2 || fail "no passes after the switch's PerformanceSet"
kill -STOP "$sm"
pc=$(pq "$swlid" "$swport")
[ "$(echo "$pc" | field SymbolErrorCounter)" = 0 ] ||
	fail "$swname port $swport: SymbolErrorCounter 40000 was not cleared: $pc"
ours=$(metric switch_port_symbol_error "$swguid" "$swport")
[ "$ours" = 40000 ] || fail "$swname port $swport: symbol error total '$ours', want 40000"
grep -q "cleared)" "$log" && grep -q "1 cleared" "$log" || fail "no pass reported the clear"
echo "ok: $swname port $swport: SymbolErrorCounter 40000 cleared by a Set, the total kept (40000)"
kill -CONT "$sm"

# ibsim's PMAs drop PortSamplesControl: after three tries each node keeps
# 4 ns ticks (so PortXmitWait above is stored as perfquery reads it), said once
notes=$(grep "does not answer PortSamplesControl: its PortXmitWait is taken in ticks of 4 ns" \
	"$log" | sed 's/.*node \(0x[0-9a-f]*\).*/\1/')
[ -n "$notes" ] && [ -z "$(echo "$notes" | sort | uniq -d)" ] ||
	fail "no notice, or more than one a node, that ibsim's PMAs keep 4 ns ticks"
echo "ok: PortSamplesControl unanswered: 4 ns ticks, said once for each of $(echo "$notes" | wc -l) nodes"

out=$(SIM_HOST=H31 ibsim_client sminfo 2>&1)
echo "$out" | grep -q "SMINFO_MASTER" || fail "sminfo after the passes: $out"
kill -TERM "$sm"
wait "$sm"
rc=$?
ibsim_stop
[ "$rc" = 0 ] || { echo "FAIL: ibsmd exited $rc on SIGTERM"; tail -n 5 "$log"; exit 1; }
echo "ok: still MASTER, SIGTERM: clean exit"
INNER
