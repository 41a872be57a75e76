#!/bin/sh
# SPDX-License-Identifier: MIT
#
# prometheus.sh - ibsmd's metrics through the real components: Debian's
# prometheus scrapes a running ibsmd (sim backend, the bundled fat tree with
# traffic, a link isolated by its symbol errors, one trained to 1x, a host's
# link pulled) twice, on loopback ports of their own with a storage
# directory of their own: over ibsmd's HTTP endpoint (job ibsmd), and
# through prometheus-node-exporter's textfile collector reading its
# metrics_file (job node).  Then Prometheus' HTTP API must show:
#  - treydock/infiniband_exporter's names and labels: 96 switch ports and 31
#    HCA ports (H31 is gone) per counter, labelled guid and port only;
#    uplink_info with its labels; its joins work (a switch's uplink_guid is
#    the HCA's guid);
#  - the same series through node_exporter, which reads the file cleanly;
#  - every PromQL expression of contrib/grafana/ibsmd-fabric.json returns
#    data;
#  - the rules of contrib/prometheus/ibsmd.rules.yml load and evaluate
#    without error, and the link down and the isolated link fire.
# Bounded (TIMEOUT seconds, 120 by default), everything stopped by its PID.
# Skipped (77) without prometheus, prometheus-node-exporter or python3.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd prometheus "Debian package prometheus"
need_cmd prometheus-node-exporter "Debian package prometheus-node-exporter"
need_cmd python3 "the test's API client"
make_workdir prometheus KEEP
pids=
at_exit 'for p in $pids; do kill "$p" 2>/dev/null; done; sleep 0.2; for p in $pids; do kill -9 "$p" 2>/dev/null; done'
log=$work/ibsmd.log
fail() { echo "FAIL: $*"; tail -n 15 "$log"; tail -n 5 "$work/prometheus.log"; exit 1; }
: "${TIMEOUT:=120}"

free_ports()	# N: N free loopback ports, one a line
{
	python3 -c 'import socket, sys
ss = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in ss:
	s.bind(("127.0.0.1", 0))
print("\n".join(str(s.getsockname()[1]) for s in ss))' "$1"
}
set -- $(free_ports 3)
sm_port=$1 node_port=$2 prom_port=$3

# the fabric's events: L0-S0 isolated by symbol errors, L1[6] narrowed to 1x
# (degraded: link.enable_all_supported 0 leaves it so), H31's cable pulled
awk 'BEGIN { for (t = 500; t <= 4000; t += 500)
	printf "%d counter \"L0\"[5] symbol_errors 5000\n", t
	print "200 width \"L1\"[6] 1"
	print "2500 link-down \"H31\"[1]" }' >"$work/events"
mkdir "$work/textfile" || exit 99
cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$top_srcdir/contrib/fabrics/fattree-2l-r8.topo,events=$work/events,traffic=bitrev
db: $work/sm.db
socket: ""
routing: [ftree]
metrics_file: $work/textfile/ibsmd.prom
metrics:
  ports: [switch-switch, switch-ca, ca]
  listen: "$sm_port"
link:
  enable_all_supported: 0
sweep:
  interval: 1
perfmgr:
  interval: 1
EOC
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" -f >"$log" 2>&1 &
pids="$pids $!"
prometheus-node-exporter --web.listen-address="127.0.0.1:$node_port" \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$work/textfile" >"$work/node.log" 2>&1 &
pids="$pids $!"
cp "$top_srcdir/contrib/prometheus/ibsmd.rules.yml" "$work/" || exit 99
cat >"$work/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: [ibsmd.rules.yml]
scrape_configs:
  - job_name: ibsmd
    static_configs:
      - targets: ["127.0.0.1:$sm_port"]
        labels: { subnet: test }
  - job_name: node
    static_configs:
      - targets: ["127.0.0.1:$node_port"]
        labels: { subnet: test }
EOC
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
	--web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$work/prometheus.log" 2>&1 &
pids="$pids $!"
wait_for_log "$log" "subnet up" 1 20 || fail "the subnet did not come up"

cat >"$work/check.py" <<'EOP'
import json, sys, time, urllib.parse, urllib.request

api = "http://127.0.0.1:%s/api/v1/" % sys.argv[1]
dashboard = sys.argv[2]
deadline = time.time() + float(sys.argv[3])
fails = 0

def fail(msg):
    global fails
    print("FAIL: " + msg)
    fails += 1

def get(path, **params):
    url = api + path + ("?" + urllib.parse.urlencode(params, doseq=True) if params else "")
    with urllib.request.urlopen(url, timeout=10) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError("%s: %s" % (path, body))
    return body["data"]

def query(q):
    return get("query", query=q)["result"]

def value(q):
    r = query(q)
    return float(r[0]["value"][1]) if r else None

def wait(what, q, ok):
    while True:
        try:
            v = value(q)
        except Exception as e:
            v = None
        if v is not None and ok(v):
            return
        if time.time() > deadline:
            raise SystemExit("FAIL: timed out waiting for %s (%s = %s)" % (what, q, v))
        time.sleep(0.5)

# the targets up, and what the fabric's events make
wait("Prometheus", "vector(1)", lambda v: v == 1)
wait("both targets up", 'sum(up{job=~"ibsmd|node"})', lambda v: v == 2)
wait("port counters over HTTP",
     'count(infiniband_switch_port_transmit_data_bytes_total{job="ibsmd"})', lambda v: v == 96)
wait("port counters through node_exporter",
     'count(infiniband_switch_port_transmit_data_bytes_total{job="node"})', lambda v: v == 96)
wait("the link pulled", 'count(ibsmd_link_down{job="ibsmd"})', lambda v: v >= 1)
wait("the isolated link", 'count(ibsmd_link_isolated{job="ibsmd"})', lambda v: v >= 1)
wait("the degraded link", 'count(ibsmd_link_degraded{job="ibsmd"})', lambda v: v >= 1)
wait("traffic counted", 'sum(rate(infiniband_switch_port_transmit_data_bytes_total{job="ibsmd"}[1m]))',
     lambda v: v > 0)
time.sleep(3)	# a few more scrapes: rates over the dashboard's windows

# treydock's names and labels, exactly.  H31 is gone with its cable: 31 HCA
# ports; the switch port it hung on keeps its counters (96), not its link (95).
target = {"instance", "job", "subnet"}
for name, n, labels in [
        ("infiniband_switch_port_transmit_data_bytes_total", 96, {"guid", "port"}),
        ("infiniband_switch_port_symbol_error_total", 96, {"guid", "port"}),
        ("infiniband_switch_port_transmit_wait_total", 96, {"guid", "port"}),
        ("infiniband_switch_port_vl15_dropped_total", 96, {"guid", "port"}),
        ("infiniband_hca_port_receive_data_bytes_total", 31, {"guid", "port"}),
        ("infiniband_hca_port_link_downed_total", 31, {"guid", "port"}),
        ("infiniband_switch_port_rate_bytes_per_second", 95, {"guid", "port"}),
        ("infiniband_switch_uplink_info", 95, {"guid", "port", "switch", "uplink", "uplink_guid",
                                               "uplink_type", "uplink_port", "uplink_lid"}),
        ("infiniband_hca_uplink_info", 31, {"guid", "port", "hca", "uplink", "uplink_guid",
                                            "uplink_type", "uplink_port", "uplink_lid"}),
        ("infiniband_switch_info", 12, {"guid", "switch", "lid"}),
        ("infiniband_hca_info", 31, {"guid", "hca", "lid"})]:
    series = get("series", **{"match[]": name + '{job="ibsmd"}'})
    if len(series) != n:
        fail("%s: %d series, want %d" % (name, len(series), n))
    for s in series:
        got = set(s) - {"__name__"} - target
        if got != labels:
            fail("%s: labels %s, want %s" % (name, sorted(got), sorted(labels)))
            break
# treydock's joins: a switch port's uplink_guid is its HCA's guid
joined = value('count(label_replace(infiniband_switch_uplink_info{job="ibsmd",uplink_type="CA"},'
               ' "guid", "$1", "uplink_guid", "(.*)") * on (guid) group_left ()'
               ' infiniband_hca_info{job="ibsmd"})')
if joined != 31:
    fail("uplink_guid joined to infiniband_hca_info: %s of 31 linked HCA ports" % joined)
# the same through node_exporter, whose textfile collector read it cleanly
if value('node_textfile_scrape_error{job="node"}') != 0:
    fail("node_exporter could not read the metrics file")
if value('count(ibsmd_sm_state{job="node",state="MASTER"} == 1)') != 1:
    fail("the SM state through node_exporter")
if value('ibsmd_sm_masters_seen{job="ibsmd"}') != 1:
    fail("masters seen: %s" % value('ibsmd_sm_masters_seen{job="ibsmd"}'))

# every expression of the dashboard returns data
exprs = []
def walk(panels):
    for p in panels:
        exprs.extend((p.get("title", ""), t["expr"]) for t in p.get("targets", []) if "expr" in t)
        walk(p.get("panels", []))
walk(json.load(open(dashboard))["panels"])
if len(exprs) < 20:
    fail("only %d expressions in the dashboard" % len(exprs))
for title, e in exprs:
    q = e.replace("$__rate_interval", "1m")
    try:
        r = query(q)
    except Exception as x:
        fail("dashboard '%s': %s: %s" % (title, q, x))
        continue
    if not r:
        fail("dashboard '%s': no data: %s" % (title, q))

# the rules: loaded, evaluated without error; the link down and the
# isolated link fire
rules = [r for g in get("rules")["groups"] for r in g["rules"]]
if len(rules) != 13:
    fail("%d rules loaded, want 13" % len(rules))
for r in rules:
    if r.get("health") != "ok":
        fail("rule %s: %s %s" % (r["name"], r.get("health"), r.get("lastError", "")))
while True:
    firing = {a["labels"]["alertname"] for a in get("alerts")["alerts"] if a["state"] == "firing"}
    if {"InfiniBandLinkDown", "InfiniBandLinkIsolated"} <= firing or time.time() > deadline:
        break
    time.sleep(0.5)
for a in ("InfiniBandLinkDown", "InfiniBandLinkIsolated"):
    if a not in firing:
        fail("%s does not fire (firing: %s)" % (a, sorted(firing)))
for a in ("InfiniBandNoMasterSM", "InfiniBandTwoMasterSMs", "IbsmdDown", "IbsmdStoreFailing"):
    if a in firing:
        fail("%s fires on a healthy SM" % a)
print("prometheus: %d dashboard expressions with data, %d rules ok, firing: %s"
      % (len(exprs), len(rules), ", ".join(sorted(firing))))
sys.exit(1 if fails else 0)
EOP
python3 "$work/check.py" "$prom_port" "$top_srcdir/contrib/grafana/ibsmd-fabric.json" "$TIMEOUT" ||
	fail "Prometheus' view of ibsmd"
finish
