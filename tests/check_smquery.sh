#!/bin/sh
# SPDX-License-Identifier: MIT
# check_smquery.sh - smquery against golden outputs, name resolution, errors and
# exit codes, and the topology round trip (file -> store -> smquery topology ->
# file) on the real fabrics in tests' fixtures.
# SMQ_GOLDEN_UPDATE=1 rewrites the golden files instead of comparing.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
SMQ="$top_builddir/smquery"
MKDB="$top_builddir/tests/check_smquery_mkdb"
GOLDEN="$top_srcdir/tests/golden"
TZ=UTC
export TZ
tmp=$(mktemp -d /tmp/check_smquery.XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# golden NAME ARGS...: stdout of `smquery ARGS` must equal $GOLDEN/NAME
golden() {
	name=$1
	shift
	if ! "$SMQ" --db "$tmp/small.db" "$@" > "$tmp/$name" 2> "$tmp/err"; then
		fail "smquery $*: exit $?: $(cat "$tmp/err")"
		return
	fi
	if [ "${SMQ_GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$tmp/$name" "$GOLDEN/$name"
	elif ! diff -u "$GOLDEN/$name" "$tmp/$name"; then
		fail "smquery $* differs from golden/$name"
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
golden events-since.txt events --since 12

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
expect_error 1 "is ambiguous, 2 nodes have it: 0x0002c9030000d000, 0x0002c9030000e000" \
	$db ports "node02 mlx5_0"
expect_error 1 "no node named 'nosuch'" $db ports nosuch
expect_error 1 "no node or port with GUID 0x1234 " $db ports 0x1234
expect_error 1 "no node named '999'" $db ports 999
expect_error 2 "unknown command 'frobnicate'" $db frobnicate
expect_error 2 "ports: missing operands (usage: smquery ports NODE)" $db ports
expect_error 2 "events: bad event id 'x'" $db events --since x
expect_error 1 "not supported yet" --socket /run/ibsmd.sock nodes
expect_error 1 "$tmp/none.db: cannot open the database: No such file" --db "$tmp/none.db" nodes
cp "$tmp/small.db" "$tmp/newer.db"
"$MKDB" newer "$tmp/newer.db" || exit 99
expect_error 1 "schema version 2 is newer than this build supports (1)" \
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
for topo in "$top_srcdir"/tests/golden/roundtrip-*.topo /work/shared/fixtures/real/*.topo; do
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
