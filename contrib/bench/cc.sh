#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cc.sh - `make bench`: what congestion control adds to a cold bring-up.
#
# ibsmd --once on the sim backend, the 8,192-host 3-level fat tree (radix 32;
# BENCH_CC_RADIX another), without congestion control and with it (every
# switch setting and a CA setting and two CCT blocks configured): the time
# to subnet up, the CC pass's agents, settings sent and CC MADs and its time,
# and the wall time of each run.  The pass must end with every agent
# configured (the tables read back equal to the configured ones).  Then the
# daemon with CC on, and a second heavy sweep (smquery resweep): its pass
# must send no CC MAD (every agent known configured, none reset).
# Results are printed and appended to $BENCH_OUT/cc.txt.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
out=${BENCH_OUT:-$top_builddir/bench-out}
radix=${BENCH_CC_RADIX:-32}
mkdir -p "$out"
make_workdir bench-cc

say() { echo "$*" | tee -a "$out/cc.txt"; }

"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix "$radix" \
	-o "$work/ft.topo"
cat > "$work/cc.yaml" <<'YAML'
congestion_control:
  enable: 1
  sw_cong_setting_control_map: 0x1f
  sw_cong_setting_victim_mask: "0x1fffffffe"
  sw_cong_setting_threshold: 7
  sw_cong_setting_packet_size: 8
  sw_cong_setting_marking_rate: 10
  ca_cong_setting_port_control: 1
  ca_cong_setting_control_map: 0x1
  ca_cong_setting_ccti_timer: "0:1000"
  ca_cong_setting_ccti_increase: "0:1"
  cct: "0:0,1:100,2:200,3:300,0:400,1:500,2:600,3:700,0:800,0:900,0:1000,0:1100,0:1200,0:1300,0:1400,0:1500,0:1600,0:1700,0:1800,0:1900,0:2000,0:2100,0:2200,0:2300,0:2400,0:2500,0:2600,0:2700,0:2800,0:2900,0:3000,0:3100,0:3200,0:3300,0:3400,0:3500,0:3600,0:3700,0:3800,0:3900,0:4000,0:4100,0:4200,0:4300,0:4400,0:4500,0:4600,0:4700,0:4800,0:4900,0:5000,0:5100,0:5200,0:5300,0:5400,0:5500,0:5600,0:5700,0:5800,0:5900,0:6000,0:6100,0:6200,0:6300,0:6400,0:6500"
YAML

say "== congestion control benchmark $(date -u '+%Y-%m-%d %H:%M:%S') on $(nproc) cores, radix $radix"
for run in off on; do
	conf=/dev/null
	[ "$run" = on ] && conf=$work/cc.yaml
	start=$(date +%s%N)
	"$top_builddir/ibsmd" -c "$conf" --backend "sim:$work/ft.topo" --db "$work/$run.db" \
		--once --log-level info > "$work/$run.log" 2>&1 || {
		say "CC $run: ibsmd --once FAILED: $(tail -1 "$work/$run.log")"
		exit 1
	}
	wall=$(( ($(date +%s%N) - start) / 1000000 ))
	up=$(sed -n 's/.*subnet up in \([0-9]*\) ms.*/\1/p' "$work/$run.log" | tail -1)
	say "CC $run: subnet up in $up ms, $wall ms wall"
	if [ "$run" = on ]; then
		line=$(grep 'congestion control:' "$work/$run.log" | tail -1)
		say "  ${line#*notice: }"
		agents=$(echo "$line" | sed -n 's/.*: \([0-9]*\) agents.*/\1/p')
		echo "$line" | grep -q " $agents configured, 0 key refused, 0 errors" ||
			{ say "  FAILED: not every agent configured"; exit 1; }
	fi
done

# the daemon: the CC MADs of a second heavy sweep's pass
{ cat "$work/cc.yaml"; printf 'backend: sim:%s\ndb: %s\nsocket: %s\n' "$work/ft.topo" \
	"$work/daemon.db" "$work/sm.sock"; } > "$work/daemon.yaml"
"$top_builddir/ibsmd" -c "$work/daemon.yaml" --foreground --log-level info \
	> "$work/daemon.log" 2>&1 &
sm=$!
at_exit 'kill "$sm" 2>/dev/null'
wait_for_log "$work/daemon.log" "congestion control:" 1 300 ||
	{ say "daemon: no CC pass: $(tail -1 "$work/daemon.log")"; exit 1; }
"$top_builddir/smquery" --socket "$work/sm.sock" resweep > /dev/null
wait_for_log "$work/daemon.log" "congestion control:" 2 300 ||
	{ say "daemon: no second CC pass: $(tail -1 "$work/daemon.log")"; exit 1; }
line=$(grep 'congestion control:' "$work/daemon.log" | tail -1)
say "CC, second heavy sweep: ${line#*notice: }"
echo "$line" | grep -q "; 0 CC MADs in " || { say "  FAILED: CC MADs sent again"; exit 1; }
kill -TERM "$sm"
wait "$sm" || :
