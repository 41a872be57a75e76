#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mkey_daemon.sh - the mkey: keys of ibsmd.yaml reach the daemon: `ibsmd --once`
# with a secret and protect level 2 brings the sim fabric up and stores one
# distinct key per key-holding port (2 switches, 6 CA ports); a second run on
# the same store (a fresh sim fabric, keys 0 again) is not put off by the
# stored keys; out-of-range values are refused.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd sqlite3 "reads the store"
make_workdir mkey_daemon

cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$top_srcdir/tests/topo/twoswitch.topo
db: $work/sm.db
socket: ""
mkey:
  secret: "mkey_daemon test"
  protect: 2
  lease_s: 5
EOC
for run in 1 2; do
	"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --once >"$work/out$run" 2>&1 ||
		fail "run $run: exit $?: $(cat "$work/out$run")"
done
n=$(sqlite3 "$work/sm.db" "SELECT count(*) || ' ' || count(DISTINCT mkey) FROM mkey")
[ "$n" = "8 8" ] || fail "stored keys (count, distinct): '$n', want '8 8'"
n=$(sqlite3 "$work/sm.db" "SELECT count(*) FROM events WHERE kind LIKE 'mkey%' OR detail LIKE 'trap 256%'")
[ "$n" = 0 ] || fail "$n M_Key events on a fabric the SM keyed itself"

for bad in "protect: 4" "lease_s: 65536" "key: -1"; do
	printf 'mkey:\n  %s\n' "$bad" >"$work/bad.yaml"
	"$top_builddir/ibsmd" -c "$work/bad.yaml" --check-config >"$work/out" 2>&1 &&
		fail "mkey $bad accepted"
	grep -q "bad.yaml:2:" "$work/out" || fail "mkey $bad: $(cat "$work/out")"
done
finish
