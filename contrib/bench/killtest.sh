#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# killtest.sh - SIGKILL ibsmd at random points, KILLS times (200), on a
# flapping fabric, and check the store after every kill.
#
# The sim backend runs a 3-level radix-8 fat tree (ibsmd-topogen: 208 nodes)
# with an events file that takes a leaf-to-aggregation link down and up again
# every 40 ms, each time another one of the 128, so that Trap 128s keep heavy
# sweeps (25 to 40 ms each, about half of it storing) coming back to back;
# light sweeps every second besides.  A first `ibsmd --once` without flapping
# makes the reference: the LID map (table lids) and every node's LID.  Then, KILLS
# times: start the daemon on the same store, SIGKILL it after a random 0 to
# 2.5 s (at start-up, in a sweep's discovery, routing, programming or store,
# or between sweeps), and check
#   - sqlite3 DB 'PRAGMA integrity_check' says ok;
#   - the LID map is the reference's, and every node in the store has its
#     reference LID (smquery nodes);
#   - the store is consistent: smquery topology works and holds all 208 nodes.
# A kill after which any check fails is a loss.  Prints "N kills, N losses"
# and where the kills landed (told by the daemon's last log line other than a
# trap's), exits 1 on a loss.
# Not part of make check (minutes); `make bench` runs it.
set -uo pipefail
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
kills=${KILLS:-200}
work=$(mktemp -d "${TMPDIR:-/tmp}/killtest.XXXXXX") || exit 99
sm=
trap '[ -n "$sm" ] && kill -9 "$sm" 2>/dev/null; rm -rf "$work"' EXIT
command -v sqlite3 >/dev/null || { echo "killtest: sqlite3 is missing"; exit 77; }
ibsmd=$top_builddir/ibsmd
smquery() { "$top_builddir/smquery" --db "$work/sm.db" "$@"; }

fabric=$work/ft3r8.topo
"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix 8 -o "$fabric" ||
	exit 99
nodes=208
# leaf Lp.l's ports 5..8 go up: flap them in turn for 10 minutes, another
# leaf each time (a switch's traps make at most one heavy sweep due a second)
awk 'BEGIN { for (t = 100; t < 600000; t += 40) { i = (t / 40) % 128;
	l = sprintf("L%d.%d", int(i % 32 / 4), i % 4); p = 5 + int(i / 32);
	printf "%d link-down \"%s\"[%d]\n%d link-up \"%s\"[%d]\n", t, l, p, t + 20, l, p } }' \
	>"$work/flap.events"
cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$fabric,events=$work/flap.events
db: $work/sm.db
socket: ""
sweep:
  interval: 1
EOC

"$ibsmd" --once --backend "sim:$fabric" --db "$work/sm.db" >"$work/ref.log" 2>&1 ||
	{ echo "killtest: the reference run failed"; cat "$work/ref.log"; exit 1; }
sqlite3 "$work/sm.db" 'SELECT guid, lid, lmc FROM lids ORDER BY guid' >"$work/ref.lids"
smquery nodes | awk 'NR > 1 { print $1, $4 }' | sort >"$work/ref.nodes"
[ "$(wc -l <"$work/ref.nodes")" = "$nodes" ] || { echo "killtest: no reference"; exit 1; }

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
	[ "$n" = "$nodes" ] || echo "smquery topology holds $n nodes, not $nodes"
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
	# where it died: the stage after the last line that ends one
	grep -v "notice: trap \|babbling\|taken again" "$work/run.log" | tail -n 1 | sed -E '
		s/.*starting: .*/start-up/; s/.*(NOT_ACTIVE -> DISCOVERING|DISCOVERING -> MASTER).*/first discovery/;
		s/.*notice: discovery: .*/planning (LIDs, routes)/; s/.*notice: routing: .*/programming/;
		s/.*notice: programming: .*/store/; s/.*(subnet up|light sweep).*/between sweeps, or discovery/;
		s/^[0-9-]+ [0-9:.]+ ibsmd\[[0-9]+\] //' >>"$work/where"
	wrong=$(check)
	if [ -n "$wrong" ]; then
		losses=$((losses + 1))
		echo "kill $i: $wrong"
		tail -n 5 "$work/run.log"
	fi
done
echo "where the kills landed:"
sort "$work/where" | uniq -c | sort -rn | head -n 12
echo "$kills kills, $losses losses ($up_runs runs had brought the subnet up; $(( $(date +%s) - start )) s)"
[ "$losses" = 0 ]
