#!/bin/sh
# SPDX-License-Identifier: MIT
#
# hostile_fabric.sh - a fabric whose hosts chose hostile NodeDescriptions
# (tests/topo/hostile.topo: ESC and OSC sequences, CR and LF forging a log
# line, quotes, backslashes, invalid UTF-8, bidi controls, line separators,
# </script>, Prometheus label breakers, TAB, DEL) and a partitions file with
# such names, through the daemon and every smquery output.
#
# ibsmd --once, then as a daemon whose switch-to-switch link flaps until it
# is isolated (the isolation notice names both switches, one of which holds a
# line feed and a bidi override), logging to a file and to stderr: every log
# line is one of ibsmd's, with no raw control byte (tests/text_safe.py log).
# Every smquery command, text and JSON, the metrics (promtool when there),
# the map page, the Graphviz and OpenSM dumps and sm-status over the socket
# hold no raw unsafe character (text_safe.py).  `smquery topology` is the
# golden hostile-topology.txt (its date aside), and it round-trips: loaded
# back as a sim fabric, swept, it prints the same again.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd python3 "tests/text_safe.py checks the outputs"
make_workdir hostile_fabric
sm=
at_exit '[ -n "$sm" ] && kill "$sm" 2>/dev/null'
safe() { python3 "$top_srcdir/tests/text_safe.py" "$@" || fail "unsafe output: $2"; }
smq() { "$top_builddir/smquery" --db "$work/sm.db" "$@"; }
undated() { sed '2s/generated on .*/generated on DATE/' "$1"; }

cat >"$work/partitions.yaml" <<'EOP'
partitions:
  - name: "storage\u202eegarots"
    pkey: 0x0002
    ipoib: yes
    members:
      "h4\nFAKE 2026-01-01 00:00:00.000 ibsmd[1] crit: forged": full
      "\e[2J\e[3J\e[Hscreen cleared": limited
      "tab\there\x7fdel %s%n%x": full
EOP
printf '%s\n' '800 link-down "S1"[15]' '1600 link-up "S1"[15]' '2400 link-down "S1"[15]' \
	'3200 link-up "S1"[15]' >"$work/flap.events"
cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$top_srcdir/tests/topo/hostile.topo,events=$work/flap.events
db: $work/sm.db
socket: $work/sm.sock
partitions: $work/partitions.yaml
metrics_file: $work/ibsmd.prom
log:
  level: debug
  file: $work/ibsmd.log
sweep:
  interval: 1
isolation:
  flaps: 2
congestion_control:
  enable: 1
EOC

# --once: the log on stderr
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --backend "sim:$top_srcdir/tests/topo/hostile.topo" \
	--once >"$work/once.out" 2>"$work/once.err" || fail "--once: $(tail -n 5 "$work/once.err")"
safe log "$work/once.err" "$work/ibsmd.log"

# every smquery output (cc: the names of the nodes congestion control configured)
for cmd in nodes switches cas links "ports 4" "ports 0x0000000000200001" topology events \
	sweeps metrics counters "counters 4 1" status "lft 14" "route 4 11" partitions mcast \
	isolated route-check cc; do
	# shellcheck disable=SC2086	# the command's words
	smq $cmd >"$work/q.txt" 2>&1 || fail "smquery $cmd: $(head -c 300 "$work/q.txt")"
	case $cmd in
	topology) safe tabbed "$work/q.txt" ;;
	metrics) safe prom "$work/q.txt" ;;
	*) safe text "$work/q.txt" ;;
	esac
	[ "$cmd" = metrics ] && continue	# no --json form
	# shellcheck disable=SC2086
	smq --json $cmd >"$work/q.json" 2>&1 || fail "smquery --json $cmd: $(head -c 300 "$work/q.json")"
	safe json "$work/q.json"
done
smq partitions | grep -q '^0x0002  storage?egarots ' || fail "partitions: $(smq partitions)"
smq cc | grep -q '^0x0000000000200001    0 .* switch sw?ltr?FAKE 2026-01- configured ' ||
	fail "cc: $(smq cc)"
smq topology --format dot >"$work/q.dot" || fail "topology --format dot"
safe tabbed "$work/q.dot"
smq map -o "$work/map.html" >"$work/q.txt" 2>&1 || fail "map: $(cat "$work/q.txt")"
safe html "$work/map.html"
smq dump-opensm "$work/osm" >"$work/q.txt" 2>&1 || fail "dump-opensm: $(cat "$work/q.txt")"
safe text "$work/q.txt" "$work/osm"/*
safe prom "$work/ibsmd.prom"
if command -v promtool >/dev/null; then
	smq metrics >"$work/m.prom"
	promtool check metrics <"$work/m.prom" >"$work/lint" 2>&1 || fail "promtool: $(cat "$work/lint")"
fi

# the topology: golden, and whole through ibsmd's own reader
smq topology >"$work/t1.topo"
undated "$work/t1.topo" >"$work/t1.undated"
same_as_golden hostile-topology.txt "$work/t1.undated" "smquery topology"
"$top_builddir/ibsmd" --backend "sim:$work/t1.topo" --db "$work/again.db" --control-socket "" \
	--once >"$work/again.out" 2>&1 || fail "the printed topology does not load: $(tail -n 3 "$work/again.out")"
"$top_builddir/smquery" --db "$work/again.db" topology >"$work/t2.topo"
undated "$work/t2.topo" >"$work/t2.undated"
diff -u "$work/t1.undated" "$work/t2.undated" || fail "topology -> sim -> topology differs"

# the daemon: a flapping link isolated, its notice naming both switches
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --foreground >"$work/daemon.out" 2>"$work/daemon.err" &
sm=$!
wait_for_log "$work/ibsmd.log" "isolated from routing (flaps)" 1 20 ||
	fail "the flapping link was not isolated: $(tail -n 5 "$work/ibsmd.log")"
grep -qF '"sw\u202eltr\nFAKE 2026-01-01 00:00:00.000 ibsmd[1] crit: forged" 0x0000000000200001 port 15 isolated' \
	"$work/ibsmd.log" || fail "the isolation notice: $(grep isolated "$work/ibsmd.log")"
for _ in $(seq 50); do [ -S "$work/sm.sock" ] && break; sleep 0.1; done
for json in "" --json; do
	# shellcheck disable=SC2086	# no option, or --json
	"$top_builddir/smquery" --socket "$work/sm.sock" $json sm-status >"$work/q.txt" 2>&1 ||
		fail "sm-status $json: $(cat "$work/q.txt")"
	mode=text
	[ -z "$json" ] || mode=json
	safe "$mode" "$work/q.txt"
done
smq isolated >"$work/q.txt" && safe text "$work/q.txt"
kill -TERM "$sm"
wait "$sm" || fail "ibsmd exit $?"
sm=
safe log "$work/daemon.err" "$work/ibsmd.log"
safe prom "$work/ibsmd.prom"
finish
