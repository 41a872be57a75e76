#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# killtest.sh - SIGKILL ibsmd at random points, KILLS times (200), on a
# flapping fabric, and check the store after every kill.
#
# The sim backend runs the 2-level radix-8 fat tree (44 nodes) with an events
# file that takes a leaf-to-spine link down and up again every 150 ms, each
# time another one, so that Trap 128s keep heavy sweeps coming (light sweeps
# every second besides); each SMP takes 2 ms and 4 are in flight, so that a
# heavy sweep lasts 100 to 300 ms and most kills land inside one.  A first `ibsmd --once` without flapping makes the
# reference: the LID map (table lids) and every node's LID.  Then, KILLS
# times: start the daemon on the same store, SIGKILL it after a random 0 to
# 2.5 s (at start-up, in a sweep's discovery, routing, programming or store,
# or between sweeps), and check
#   - sqlite3 DB 'PRAGMA integrity_check' says ok;
#   - the LID map is the reference's, and every node in the store has its
#     reference LID (smquery nodes);
#   - the store is consistent: smquery topology works and holds all 44 nodes.
# A kill after which any check fails is a loss.  Prints "N kills, N losses"
# and where the kills landed (the daemon's last log line), exits 1 on a loss.
# Not part of make check (minutes); `make bench` runs it.
set -uo pipefail
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
kills=${KILLS:-200}
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo
work=$(mktemp -d "${TMPDIR:-/tmp}/killtest.XXXXXX") || exit 99
sm=
trap '[ -n "$sm" ] && kill -9 "$sm" 2>/dev/null; rm -rf "$work"' EXIT
command -v sqlite3 >/dev/null || { echo "killtest: sqlite3 is missing"; exit 77; }
ibsmd=$top_builddir/ibsmd
smquery() { "$top_builddir/smquery" --db "$work/sm.db" "$@"; }

# leaf Lx port 5+y is cabled to spine Sy: flap them in turn for 10 minutes
awk 'BEGIN { for (t = 100; t < 600000; t += 300) { i = (t / 300) % 16;
	l = int(i / 4); p = 5 + i % 4;
	printf "%d link-down \"L%d\"[%d]\n%d link-up \"L%d\"[%d]\n", t, l, p, t + 150, l, p } }' \
	>"$work/flap.events"
cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$fabric,events=$work/flap.events,latency=2000
db: $work/sm.db
socket: ""
sweep:
  interval: 1
  window: 4
EOC

"$ibsmd" --once --backend "sim:$fabric" --db "$work/sm.db" >"$work/ref.log" 2>&1 ||
	{ echo "killtest: the reference run failed"; cat "$work/ref.log"; exit 1; }
sqlite3 "$work/sm.db" 'SELECT guid, lid, lmc FROM lids ORDER BY guid' >"$work/ref.lids"
smquery nodes | awk 'NR > 1 { print $1, $4 }' | sort >"$work/ref.nodes"
[ "$(wc -l <"$work/ref.nodes")" = 44 ] || { echo "killtest: no reference"; exit 1; }

check()	# the store after a kill: prints what is wrong, nothing when all is well
{
	local ic
	ic=$(sqlite3 "$work/sm.db" 'PRAGMA integrity_check' 2>&1)
	[ "$ic" = ok ] || echo "integrity_check: $ic"
	sqlite3 "$work/sm.db" 'SELECT guid, lid, lmc FROM lids ORDER BY guid' >"$work/lids" 2>&1
	cmp -s "$work/ref.lids" "$work/lids" || echo "the LID map changed"
	smquery nodes >"$work/nodes.out" 2>&1 || echo "smquery nodes failed: $(head -n 3 "$work/nodes.out")"
	awk 'NR > 1 { print $1, $4 }' "$work/nodes.out" | sort >"$work/nodes"
	join -v 2 "$work/ref.nodes" "$work/nodes" | grep -q . && echo "unknown nodes in the store"
	join "$work/ref.nodes" "$work/nodes" | awk '$2 != $3' | grep -q . &&
		echo "node LIDs changed: $(join "$work/ref.nodes" "$work/nodes" | awk '$2 != $3' | head -n 3)"
	smquery topology >"$work/topo.out" 2>&1 || echo "smquery topology failed: $(head -n 3 "$work/topo.out")"
	local n
	n=$(grep -c '^\(switchguid\|caguid\)=' "$work/topo.out")
	[ "$n" = 44 ] || echo "smquery topology holds $n nodes, not 44"
}

losses=0 up_runs=0
: >"$work/where"
start=$(date +%s)
for i in $(seq "$kills"); do
	"$ibsmd" -c "$work/ibsmd.yaml" --foreground >"$work/run.log" 2>&1 &
	sm=$!
	sleep "$(awk -v r="$RANDOM" 'BEGIN { printf "%.3f", r % 2500 / 1000 }')"
	kill -9 "$sm" 2>/dev/null
	wait "$sm" 2>/dev/null
	sm=
	grep -q "subnet up" "$work/run.log" && up_runs=$((up_runs + 1))
	# where it died: the last log line's subject
	tail -n 1 "$work/run.log" | sed -E 's/^[0-9-]+ [0-9:.]+ ibsmd\[[0-9]+\] [a-z]+: //;
		s/[0-9]+/N/g; s/^(.{40}).*/\1/' >>"$work/where"
	wrong=$(check)
	if [ -n "$wrong" ]; then
		losses=$((losses + 1))
		echo "kill $i: $wrong"
		tail -n 5 "$work/run.log"
	fi
done
echo "where the kills landed (the last log line):"
sort "$work/where" | uniq -c | sort -rn | head -n 12
echo "$kills kills, $losses losses ($up_runs runs had brought the subnet up; $(( $(date +%s) - start )) s)"
[ "$losses" = 0 ]
