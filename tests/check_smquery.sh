#!/bin/sh
# SPDX-License-Identifier: MIT
# check_smquery.sh - smquery against golden outputs, name resolution, errors and
# exit codes, routes through stored LFTs (good and broken ones), the OpenSM
# dump files, and the topology round trip (file -> store -> smquery topology ->
# file) on the real fabrics in tests' fixtures.
# GOLDEN_UPDATE=1 rewrites the golden files instead of comparing.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
SMQ="$top_builddir/smquery"
MKDB="$top_builddir/tests/check_smquery_mkdb"
TZ=UTC
export TZ
make_workdir check_smquery
tmp=$work

# golden NAME ARGS...: stdout of `smquery ARGS` on $db (small.db) must equal $GOLDEN/NAME
golden() {
	name=$1
	shift
	if ! "$SMQ" --db "$tmp/${db:-small.db}" "$@" > "$tmp/$name" 2> "$tmp/err"; then
		fail "smquery $*: exit $?: $(cat "$tmp/err")"
		return
	fi
	same_as_golden "$name" "$tmp/$name" "smquery $*"
}

# route_error PATTERN ARGS...: exit 1, one stderr line matching PATTERN, and the
# hops followed so far on stdout (the route header and at least one hop)
route_error() {
	pattern=$1
	shift
	"$SMQ" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" != 1 ]; then
		fail "smquery $*: exit $rc, expected 1"
	elif [ "$(wc -l < "$tmp/err")" != 1 ] || ! grep -q -- "$pattern" "$tmp/err"; then
		fail "smquery $*: stderr '$(cat "$tmp/err")' does not match '$pattern'"
	elif ! grep -q '^From ' "$tmp/out" || [ "$(wc -l < "$tmp/out")" -lt 2 ] ||
		grep -q ' reached through ' "$tmp/out"; then
		fail "smquery $*: stdout is not the partial path: $(cat "$tmp/out")"
	fi
}

# expect_error CODE PATTERN ARGS...: exit CODE, one stderr line matching PATTERN
expect_error() {
	code=$1
	pattern=$2
	shift 2
	"$SMQ" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" != "$code" ]; then
		fail "smquery $*: exit $rc, expected $code"
	elif [ "$(wc -l < "$tmp/err")" != 1 ] || ! grep -q -- "$pattern" "$tmp/err"; then
		fail "smquery $*: stderr '$(cat "$tmp/err")' does not match '$pattern'"
	elif [ -s "$tmp/out" ]; then
		fail "smquery $*: printed on stdout after an error"
	fi
}

"$MKDB" small "$tmp/small.db" || exit 99

for cmd in nodes switches cas links topology events sweeps status; do
	golden "$cmd.txt" "$cmd"
	golden "$cmd.json" --json "$cmd"
done
golden ports.txt ports leaf-2
golden ports.json --json ports leaf-2
golden events-since.txt events --since 2
# status's times in ISO 8601: local time with its offset, or UTC by --utc
# (subnet_up 1767225660250 is 2026-01-01 00:01:00.250 UTC); a stored value
# that is no time the calendar shows stays as stored
status_time() { "$SMQ" --db "$tmp/$1" "$2" status | awk '$1 == "subnet_up" { print $2 }'; }
[ "$(TZ=Asia/Kolkata status_time small.db --utc)" = 2026-01-01T00:01:00.250Z ] ||
	fail "status --utc: subnet_up $(TZ=Asia/Kolkata status_time small.db --utc)"
[ "$(TZ=Asia/Kolkata "$SMQ" --db "$tmp/small.db" status | grep -E '^(last_sweep|subnet_up) ')" = \
"last_sweep       2 light 2026-01-01T05:31:00.000+05:30: ok
subnet_up        2026-01-01T05:31:00.250+05:30" ] ||
	fail "status in local time: $(TZ=Asia/Kolkata "$SMQ" --db "$tmp/small.db" status)"
TZ=America/St_Johns "$SMQ" --db "$tmp/small.db" --json status |
	grep -q '"subnet_up":"2025-12-31T20:31:00.250-03:30"' ||
	fail "status --json in local time: $(TZ=America/St_Johns "$SMQ" --db "$tmp/small.db" --json status)"
if command -v sqlite3 > /dev/null; then
	for bad in abc -5 0 9223372036854775807 99999999999999999999 1767225660250x ""; do
		cp "$tmp/small.db" "$tmp/badtime.db"
		sqlite3 "$tmp/badtime.db" "UPDATE status SET value = '$bad' WHERE key = 'subnet_up'" ||
			exit 99
		[ "$(status_time badtime.db --utc)" = "$bad" ] ||
			fail "status: subnet_up '$bad' shown as '$(status_time badtime.db --utc)'"
	done
fi
# port counters: the busiest ports of the last pass, one port's history
golden counters.txt counters
golden counters.json --json counters
golden counters-errors.txt counters --by errors --top 2
golden counters-port.txt counters leaf-1 1
golden counters-port.json --json counters leaf-1 1
expect_error 2 "counters: --by takes data, wait or errors, not 'speed'" --db "$tmp/small.db" \
	counters --by speed
expect_error 2 "counters: bad --top '0'" --db "$tmp/small.db" counters --top 0
expect_error 2 "counters: leaf-1 has ports 0 to 8, not '9'" --db "$tmp/small.db" counters leaf-1 9
# port 0 of a switch: sampled with an enhanced port 0 (SA), none with a base one (SB)
"$MKDB" file "$tmp/port0.db" "$top_srcdir/tests/topo/port0.topo" || exit 99
"$SMQ" --db "$tmp/port0.db" counters SA 0 > "$tmp/out" 2> "$tmp/err" ||
	fail "smquery counters SA 0: $(cat "$tmp/err")"
expect_error 2 "counters: SB has ports 1 to 8, not '0'" --db "$tmp/port0.db" counters SB 0

# metrics: the Prometheus text (the ages, the time, the store's file and its
# file system's free space depend on the clock and the machine: left out)
if "$SMQ" --db "$tmp/small.db" metrics > "$tmp/metrics.raw" 2> "$tmp/err"; then
	grep -v -e '^ibsmd_last_sweep_age_seconds{' -e '^ibsmd_metrics_timestamp_seconds ' \
		-e '^ibsmd_store_size_bytes ' -e '^ibsmd_store_free_bytes ' \
		"$tmp/metrics.raw" > "$tmp/metrics.txt"
	same_as_golden metrics.txt "$tmp/metrics.txt" "smquery metrics"
	grep -q '^ibsmd_last_sweep_age_seconds{kind="light"} [0-9.]*$' "$tmp/metrics.raw" ||
		fail "smquery metrics: no age of the last light sweep"
else
	fail "smquery metrics: $(cat "$tmp/err")"
fi
expect_error 2 "metrics: the Prometheus text format has no --json form" --db "$tmp/small.db" --json metrics

# a description with escapes, controls and bytes that are not UTF-8: '?' on a
# terminal, valid UTF-8 (escaped) in JSON
"$MKDB" nasty "$tmp/nasty.db" || exit 99
db=nasty.db golden nodes-nasty.txt nodes
db=nasty.db golden nodes-nasty.json --json nodes
"$SMQ" --db "$tmp/nasty.db" events > "$tmp/ev-nasty" || fail "events on nasty.db"
LC_ALL=C grep -q "$(printf '[\001\033\377]')" "$tmp/ev-nasty" &&
	fail "smquery events passes control or non-UTF-8 bytes to the terminal"
grep -q 'bad?\[31mred? ??( café ?2J' "$tmp/ev-nasty" ||
	fail "smquery events: the nasty description is not shown escaped"
if command -v python3 >/dev/null; then
	"$SMQ" --db "$tmp/nasty.db" --json events |
		python3 -c 'import json,sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))' ||
		fail "smquery --json events is not valid UTF-8 JSON"
fi

# LFTs and routes
golden lft.txt lft leaf-2
golden lft.json --json lft leaf-2
golden route.txt route "node01 mlx5_0" 6
golden route.json --json route "node01 mlx5_0" 6
"$MKDB" lmc "$tmp/lmc.db" || exit 99
db=lmc.db golden lft-lmc.txt lft leaf-1
db=lmc.db golden lft-lmc.json --json lft leaf-1
# a port GUID names the port a CA sends from; a LID names the LID routed to
"$SMQ" --db "$tmp/small.db" route 0x0002c9030000c002 leaf-1 > "$tmp/out" &&
	sed -n 2,4p "$tmp/out" | tr -s ' ' | cut -d' ' -f3- > "$tmp/hops" &&
	printf '%s\n' '"node01 mlx5_0" -> [2]' '"leaf-2" [1] -> [7]' '"leaf-1" [7] -> [0]' |
	cmp -s - "$tmp/hops" || fail "route from node01's port 2: $(cat "$tmp/out")"
"$SMQ" --db "$tmp/lmc.db" route leaf-1 11 | grep -q '^lid 11 reached through 2 switches$' ||
	fail "route to LID 11 of an LMC 2 port"
"$MKDB" faults "$tmp/faults.db" || exit 99
fdb="--db $tmp/faults.db"
route_error 'loop: lid 6 comes back to switch 0x0002c9030000a000 "leaf-1"$' \
	$fdb route 0x0002c9030000d000 6
route_error 'no route: switch 0xf452140300116000 "leaf-2" has no port for lid 5$' \
	$fdb route 0x0002c9030000e000 5
route_error 'no route: port 8 of switch 0x0002c9030000a000 "leaf-1" is not cabled$' \
	$fdb route 0x0002c9030000d000 4
route_error 'wrong destination: lid 3 arrives at Ca 0x0002c9030000d000 "node02 mlx5_0" port 1$' \
	$fdb route 0x0002c9030000d000 3
route_error 'no route: switch 0x0002c9030000a000 "leaf-1" has no port for lid 9$' \
	--db "$tmp/lmc.db" route leaf-1 9
"$SMQ" --json $fdb route 0x0002c9030000d000 6 2> /dev/null |
	grep -q '"reached":false,"error":"loop: lid 6 comes back' || fail "route --json on a loop"

# the OpenSM dump files (relative DIR: the report names it)
(cd "$tmp" && "$SMQ" --db small.db dump-opensm osm > dump-opensm.txt &&
	"$SMQ" --db small.db --json dump-opensm osm > dump-opensm.json) ||
	fail "smquery dump-opensm"
for f in dump-opensm.txt dump-opensm.json; do
	same_as_golden "$f" "$tmp/$f" "smquery dump-opensm"
done
for f in opensm-subnet.lst opensm.fdbs; do
	same_as_golden "$f" "$tmp/osm/$f" "dump-opensm's $f"
done
[ -f "$tmp/osm/opensm.mcfdbs" ] && [ ! -s "$tmp/osm/opensm.mcfdbs" ] ||
	fail "dump-opensm: opensm.mcfdbs is not an empty file"
# broken LFTs: UNREACHABLE, HOPS UNKNOWN, "No 1 hop path possible via port 2!"
"$SMQ" $fdb dump-opensm "$tmp/fosm" > /dev/null || fail "smquery dump-opensm (faults)"
same_as_golden opensm-faults.fdbs "$tmp/fosm/opensm.fdbs" "dump-opensm's fdbs of broken LFTs"

# every way of naming the dual-port CA gives the same answer
"$SMQ" --db "$tmp/small.db" ports 0x0002c9030000c000 > "$tmp/by-guid" || fail "ports by GUID"
grep -q '^Ca 0x0002c9030000c000 "node01 mlx5_0", 2 ports$' "$tmp/by-guid" ||
	fail "ports by GUID: wrong node: $(head -1 "$tmp/by-guid")"
for name in 2c9030000c000 0x0002C9030000C000 0x0002c9030000c002 4 3 "node01 mlx5_0"; do
	"$SMQ" --db "$tmp/small.db" ports "$name" > "$tmp/by-name" 2>&1 &&
		cmp -s "$tmp/by-guid" "$tmp/by-name" || fail "ports '$name' is not the CA 0x0002c9030000c000"
done
# LID 2 is leaf-2's port 0
"$SMQ" --db "$tmp/small.db" ports 2 | grep -q '^Switch 0xf452140300116000 "leaf-2"' ||
	fail "ports 2 (a LID) is not leaf-2"

db="--db $tmp/small.db"
# the same fabric stored from a file: no LFTs
"$SMQ" $db topology > "$tmp/small.topo" && "$MKDB" file "$tmp/nolft.db" "$tmp/small.topo" ||
	exit 99
expect_error 1 "is ambiguous, 2 nodes have it: 0x0002c9030000d000, 0x0002c9030000e000" \
	$db ports "node02 mlx5_0"
expect_error 1 "no node named 'nosuch'" $db ports nosuch
expect_error 1 "no node or port with GUID 0x1234 " $db ports 0x1234
expect_error 1 "no node named '999'" $db ports 999
expect_error 2 "unknown command 'frobnicate'" $db frobnicate
expect_error 2 "ports: missing operands (usage: smquery ports NODE)" $db ports
expect_error 2 "events: bad event id 'x'" $db events --since x
expect_error 2 "route: missing operands (usage: smquery route SRC DST)" $db route leaf-1
expect_error 1 'Ca 0x0002c9030000c000 "node01 mlx5_0" is not a switch' $db lft 3
expect_error 1 "no LFT stored for switch 0xf452140300116000" --db "$tmp/nolft.db" lft leaf-2
expect_error 1 "no node named 'nosuch'" $db route leaf-1 nosuch
expect_error 1 "small.db/opensm-subnet.lst: Not a directory" $db dump-opensm "$tmp/small.db"
expect_error 1 "$tmp/none/deeper: No such file or directory" $db dump-opensm "$tmp/none/deeper"
expect_error 1 "nodes reads the store, not the daemon: use --db PATH" --socket /run/ibsmd.sock nodes
expect_error 1 "/nonexistent.sock: cannot reach ibsmd" --socket /nonexistent.sock resweep
expect_error 1 "$tmp/none.db: cannot open the database: No such file" --db "$tmp/none.db" nodes
cp "$tmp/small.db" "$tmp/newer.db"
"$MKDB" newer "$tmp/newer.db" || exit 99
expect_error 1 "schema version [0-9]* is newer than this build supports ([0-9]*)" \
	--db "$tmp/newer.db" status
# the database is read, never written: a read-only copy answers
cp "$tmp/small.db" "$tmp/ro.db" && chmod 0444 "$tmp/ro.db"
"$SMQ" --db "$tmp/ro.db" status > /dev/null || fail "smquery on a read-only file"

# a user who may not write next to the store still reads it (daemon stopped)
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	mkdir "$tmp/ro" && cp "$tmp/small.db" "$tmp/small.db-wal" "$tmp/small.db-shm" "$tmp/ro/" &&
		chmod 0755 "$tmp" "$tmp/ro" && chmod 0644 "$tmp/ro"/* || exit 99
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SMQ" --db "$tmp/ro/small.db" nodes > "$tmp/ro.out" 2>&1 &&
		cmp -s "$tmp/ro.out" "$GOLDEN/nodes.txt" ||
		fail "smquery as an unprivileged user: $(cat "$tmp/ro.out")"
fi

# round trip: topology file -> store -> smquery topology -> same fabric
for topo in "$top_srcdir"/tests/golden/roundtrip-*.topo "$top_srcdir"/tests/topo/real/*.topo; do
	[ -f "$topo" ] || continue
	base=$(basename "$topo" .topo)
	rm -f "$tmp/rt.db"*
	if ! "$MKDB" file "$tmp/rt.db" "$topo"; then
		fail "storing $base"
		continue
	fi
	"$SMQ" --db "$tmp/rt.db" topology > "$tmp/$base.out" || fail "smquery topology on $base"
	"$MKDB" compare "$topo" "$tmp/$base.out" || fail "round trip of $base"
done

[ "$fails" = 0 ] || exit 1
echo "check_smquery: all passed"
