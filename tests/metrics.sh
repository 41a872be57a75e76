#!/bin/sh
# SPDX-License-Identifier: MIT
#
# metrics.sh - what operators see of the daemon's work, on the sim backend.
#
# ibsmd runs with light sweeps every second and a metrics_file with every
# port (metrics.ports: all three): the file is written whole (nothing left
# beside it), says one heavy sweep went ok, and `smquery sweeps` shows the
# light sweeps of the minute; with a port counter pass every second the file
# carries, under treydock/infiniband_exporter's names, a series per linked
# switch port (96) and CA port (32) for each counter, labelled guid and
# port, their info series name both ends, and the symbol errors the sim's
# event file keeps giving H3's port count there and lead `smquery counters
# --by errors`; `smquery metrics --names ibsmd` gives ibsmd's names with both
# ends on every series (128 port ends); the daemon's own figures are there
# (one master seen, no store error, the SA's answers); with the sim carrying
# a steady hot spot (traffic=bitrev) and rebalance.enable, the counter passes
# move LFT entries, and 5,000 symbol errors injected on L0's link to S0
# isolate it through the poller: the file counts both beside the port
# counters, and names the isolated link; a metrics_file in a missing
# directory is a warning, not a stop.  Then `promtool check metrics` (Debian
# package prometheus) accepts the daemon's file and `smquery metrics` in
# both namings on the fixture store; without promtool that part is skipped
# (exit 77).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir metrics
sm=
at_exit '[ -n "$sm" ] && kill "$sm" 2>/dev/null'
log=$work/ibsmd.log
fail() { echo "FAIL: $*"; tail -n 20 "$log"; exit 1; }
wait_for() { wait_for_log "$log" "$1" 1 20; }	# PATTERN

# run_daemon METRICS_FILE SECONDS: ibsmd until its subnet is up, then SECONDS more
run_daemon()
{
	# a symbol error on H3's port every 200 ms: every pass but the first sees some
	# and 5,000 symbol errors on L0's link to S0 every half second
	awk 'BEGIN { for (t = 200; t <= 10000; t += 200)
		printf "%d counter \"H3\"[1] symbol_errors 1\n", t
		for (t = 500; t <= 10000; t += 500)
		printf "%d counter \"L0\"[5] symbol_errors 5000\n", t }' >"$work/events"
	cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$top_srcdir/contrib/fabrics/fattree-2l-r8.topo,events=$work/events,traffic=bitrev
db: $work/sm.db
socket: ""
metrics_file: $1
routing: [ftree]
rebalance:
  enable: 1
sweep:
  interval: 1
perfmgr:
  interval: 1
metrics:
  ports: [switch-switch, switch-ca, ca]
EOC
	: >"$log"
	"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" -f >"$log" 2>&1 &
	sm=$!
	wait_for "subnet up" || fail "the subnet did not come up"
	sleep "$2"
	kill -TERM "$sm" && wait "$sm" || fail "ibsmd did not stop cleanly"
	sm=
}

mkdir "$work/prom" || exit 99
run_daemon "$work/prom/ibsmd.prom" 3.5
[ "$(ls "$work/prom")" = ibsmd.prom ] || fail "metrics directory holds: $(ls "$work/prom")"
# (the first heavy sweep, and the one the isolation below makes due)
grep -q '^ibsmd_sweeps_total{kind="heavy",result="ok"} [12]$' "$work/prom/ibsmd.prom" ||
	fail "the metrics file does not count the heavy sweep: $(cat "$work/prom/ibsmd.prom")"
"$top_builddir/smquery" --db "$work/sm.db" sweeps >"$work/sweeps" || fail "smquery sweeps"
# the bundled tree: 8 leaves and 4 spines of 8 ports, 32 hosts: 32 host links
# and 32 switch-to-switch links, 96 switch port ends and 32 CA ports
prom=$work/prom/ibsmd.prom
for c in transmit_data_bytes receive_data_bytes transmit_packets receive_packets transmit_wait \
	symbol_error link_error_recovery link_downed receive_errors receive_remote_physical_errors \
	receive_switch_relay_errors transmit_discards transmit_constraint_errors \
	receive_constraint_errors local_link_integrity_errors excessive_buffer_overrun_errors \
	vl15_dropped; do
	for side in switch:96 hca:32; do
		n=$(grep -c "^infiniband_${side%:*}_port_${c}_total{guid=\"0x[0-9a-f]\{16\}\",port=\"[0-9]*\"} [0-9]*$" "$prom")
		[ "$n" = "${side#*:}" ] || fail "infiniband_${side%:*}_port_${c}_total: $n series, want ${side#*:}"
	done
done
n=$(grep -c '^infiniband_switch_uplink_info{guid="0x[0-9a-f]*",port="[0-9]*",switch="[LS][0-9]*",uplink="[LSH][0-9]*",uplink_guid="0x[0-9a-f]*",uplink_type="\(SW\|CA\)",uplink_port="[0-9]*",uplink_lid="[1-9][0-9]*"} 1$' "$prom")
[ "$n" = 96 ] || fail "infiniband_switch_uplink_info: $n series, want 96"
[ "$(grep -c '^infiniband_switch_info{' "$prom")" = 12 ] || fail "infiniband_switch_info: not one per switch"
[ "$(grep -c '^ibsmd_port_info{.*,width="4x",speed="QDR",state="Active",phys_state="LinkUp"} 1$' "$prom")" = 128 ] ||
	fail "ibsmd_port_info: not 128 active 4xQDR ports: $(grep -c '^ibsmd_port_info{' "$prom")"
h3=$(sed -n 's/^infiniband_hca_info{guid="\(0x[0-9a-f]*\)",hca="H3",lid="[0-9]*"} 1$/\1/p' "$prom")
[ -n "$h3" ] || fail "no infiniband_hca_info for H3"
grep -q "^infiniband_hca_port_symbol_error_total{guid=\"$h3\",port=\"1\"} [1-9][0-9]*$" "$prom" ||
	fail "H3 port 1: its symbol errors not exported: $(grep "$h3" "$prom")"
for want in '^ibsmd_sm_masters_seen 1$' '^ibsmd_store_errors_total 0$' \
	'^ibsmd_store_queue_dropped_total 0$' '^ibsmd_sa_requests_total{result="answered"} [0-9]' \
	'^ibsmd_metrics_render_seconds [0-9]' '^ibsmd_metrics_series [1-9][0-9]*$' \
	'^ibsmd_metrics_series_omitted 0$' '^ibsmd_links_down 0$'; do
	grep -q "$want" "$prom" || fail "no '$want' in the metrics file"
done
"$top_builddir/smquery" --db "$work/sm.db" metrics --names ibsmd --ports switch-switch,switch-ca,ca \
	>"$work/ibsmd-names.prom" || fail "smquery metrics --names ibsmd"
for c in transmit_data_bytes receive_data_bytes transmit_wait symbol_error link_downed; do
	n=$(grep -c "^infiniband_port_${c}_total{guid=\"0x[0-9a-f]*\",port=\"[0-9]*\",name=\"[^\"]*\",remote_guid=\"0x[0-9a-f]*\",remote_port=\"[0-9]*\",remote_name=\"[^\"]*\"} [0-9]*$" \
		"$work/ibsmd-names.prom")
	[ "$n" = 128 ] || fail "infiniband_port_${c}_total: $n series, want 128"
done
grep -q '^infiniband_port_symbol_error_total{guid="0x[0-9a-f]*",port="1",name="H3",remote_guid="0x[0-9a-f]*",remote_port="[0-9]*",remote_name="L[0-9]*"} [1-9][0-9]*$' \
	"$work/ibsmd-names.prom" || fail "H3 port 1 under ibsmd's names: $(grep 'name="H3"' "$work/ibsmd-names.prom")"
"$top_builddir/smquery" --db "$work/sm.db" counters --by errors --top 2 >"$work/top" ||
	fail "smquery counters"
grep -q "^   1  L0  *5  S0\[1\] " "$work/top" && grep -q "^   2  H3  *1  L[0-9]*\[[0-9]*\] " "$work/top" ||
	fail "smquery counters --by errors: $(cat "$work/top")"
grep -q '^ibsmd_isolated_links 1$' "$work/prom/ibsmd.prom" ||
	fail "L0-S0 not isolated through the poller: $(grep -i isolat "$work/prom/ibsmd.prom")"
grep -q '^ibsmd_link_isolated{guid="0x[0-9a-f]*",port="[0-9]*",name="\(L0\|S0\)",remote_guid="0x[0-9a-f]*",remote_port="[0-9]*",remote_name="\(S0\|L0\)"} 1$' \
	"$work/prom/ibsmd.prom" || fail "the isolated link not named: $(grep -i isolat "$work/prom/ibsmd.prom")"
grep -q '^ibsmd_rebalance_moves_total [1-9][0-9]*$' "$work/prom/ibsmd.prom" ||
	fail "no rebalancing moves under the sim's hot spot: $(grep rebalance "$work/prom/ibsmd.prom")"
awk '/^Light sweeps/ { light = 1; next } light && $3 ~ /^[0-9]+$/ { n += $3 }
	END { exit !(n >= 2) }' "$work/sweeps" ||
	fail "fewer than 2 light sweeps recorded: $(cat "$work/sweeps")"

run_daemon "$work/missing/ibsmd.prom" 0
grep -q "metrics file not written: $work/missing/ibsmd.prom" "$log" ||
	fail "no warning about the metrics file that cannot be written"

need_cmd promtool "Debian package prometheus"
promtool check metrics <"$work/prom/ibsmd.prom" >"$work/lint" 2>&1 ||
	fail "promtool rejects the daemon's metrics: $(cat "$work/lint")"
"$top_builddir/tests/check_smquery_mkdb" small "$work/small.db" || exit 99
"$top_builddir/smquery" --db "$work/small.db" metrics >"$work/small.prom" ||
	fail "smquery metrics on the fixture store"
promtool check metrics <"$work/small.prom" >"$work/lint" 2>&1 ||
	fail "promtool rejects smquery metrics: $(cat "$work/lint")"
promtool check metrics <"$work/ibsmd-names.prom" >"$work/lint" 2>&1 ||
	fail "promtool rejects smquery metrics --names ibsmd: $(cat "$work/lint")"
echo "metrics: all passed"
