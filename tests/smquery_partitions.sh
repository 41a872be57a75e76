#!/bin/sh
# SPDX-License-Identifier: MIT
#
# smquery_partitions.sh - `smquery partitions` and `smquery mcast`, text and
# JSON, against golden files: ibsmd --once on the sim backend
# (tests/topo/twoswitch.topo) with a partitions file of two partitions, one
# carrying IPoIB; the default partition and both IPoIB broadcast groups
# (ff12:401b:ffff::ffff:ffff and ff12:401b:8001::ffff:ffff) must be listed,
# and the JSON must parse.  GOLDEN_UPDATE=1 rewrites the golden files.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir smquery_partitions
cat >"$work/partitions.yaml" <<'YAML'
partitions:
  - name: blue
    pkey: 0x0001
    ipoib: yes
    mtu: 2048
    rate: 100G
    members:
      H1: full
      H2: limited
  - name: red
    pkey: 0x0002
    sl: 1
    members:
      0x0000000000000000: full
YAML
printf 'partitions: %s\n' "$work/partitions.yaml" >"$work/ibsmd.yaml"
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --db "$work/sm.db" \
	--backend "sim:$top_srcdir/tests/topo/twoswitch.topo" --once >"$work/log" 2>&1 &&
	fail "a partitions file with member GUID 0 was taken"
grep -q "partitions.yaml:14:7: member GUID 0 names no port" "$work/log" ||
	fail "no FILE:LINE:COLUMN for GUID 0: $(cat "$work/log")"
sed -i 's/0x0000000000000000: full/all: limited/' "$work/partitions.yaml"
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --db "$work/sm.db" \
	--backend "sim:$top_srcdir/tests/topo/twoswitch.topo" --once >"$work/log" 2>&1 ||
	fail "ibsmd --once: $(tail -n 5 "$work/log")"
for cmd in partitions mcast; do
	"$top_builddir/smquery" --db "$work/sm.db" "$cmd" >"$work/$cmd.txt" ||
		fail "smquery $cmd"
	same_as_golden "$cmd.txt" "$work/$cmd.txt" "smquery $cmd"
	"$top_builddir/smquery" --db "$work/sm.db" --json "$cmd" >"$work/$cmd.json" ||
		fail "smquery --json $cmd"
	same_as_golden "$cmd.json" "$work/$cmd.json" "smquery --json $cmd"
	if command -v python3 >/dev/null; then
		python3 -c 'import json,sys; json.load(sys.stdin)' <"$work/$cmd.json" ||
			fail "smquery --json $cmd is not JSON"
	fi
done
finish
