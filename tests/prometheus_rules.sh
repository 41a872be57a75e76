#!/bin/sh
# SPDX-License-Identifier: MIT
#
# prometheus_rules.sh - the alert rules and the scrape example in
# contrib/prometheus/ as Prometheus reads them: `promtool check rules` and
# `promtool check config` accept them, and `promtool test rules` runs
# ibsmd.rules.test.yml, where every alert has series that make it fire and
# series that keep it silent (checked here: a rule with no test of each kind
# fails).  Skipped (77) without promtool (Debian package prometheus).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd promtool "Debian package prometheus"
make_workdir prometheus_rules
dir=$top_srcdir/contrib/prometheus
rules=$dir/ibsmd.rules.yml
tests=$dir/ibsmd.rules.test.yml

promtool check rules "$rules" >"$work/out" 2>&1 || fail "promtool check rules: $(cat "$work/out")"
# the example is read from a copy: promtool resolves rule_files beside it
cp "$dir/prometheus.yml" "$rules" "$work/" || exit 99
promtool check config "$work/prometheus.yml" >"$work/out" 2>&1 ||
	fail "promtool check config: $(cat "$work/out")"
(cd "$dir" && promtool test rules "$tests") >"$work/out" 2>&1 ||
	fail "promtool test rules: $(cat "$work/out")"

# every alert: a test where it fires (exp_alerts with entries) and one where
# it stays silent (exp_alerts: [])
sed -n 's/^ *- alert: *//p' "$rules" >"$work/alerts"
[ -s "$work/alerts" ] || fail "no alert in $rules"
awk '/alertname:/ { name = $2; next }
	/exp_alerts: *\[\]/ { if (name != "") silent[name] = 1; name = ""; next }
	/exp_alerts:/ { if (name != "") fires[name] = 1; name = ""; next }
	END { for (n in fires) print "fires " n; for (n in silent) print "silent " n }' \
	"$tests" >"$work/cases"
while read -r alert; do
	grep -qx "fires $alert" "$work/cases" || fail "$alert: no test where it fires"
	grep -qx "silent $alert" "$work/cases" || fail "$alert: no test where it stays silent"
done <"$work/alerts"
[ "$fails" = 0 ] && echo "prometheus_rules: $(wc -l <"$work/alerts") alerts, each tested firing and silent"
finish
