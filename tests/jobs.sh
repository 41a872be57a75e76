#!/bin/sh
# SPDX-License-Identifier: MIT
#
# jobs.sh - job-aware routing through the running daemon and smquery, on the
# sim backend: a rail-optimised fat tree from ibsmd-topogen (32 nodes of 4
# HCAs, "nodeN mlx5_I"), whose rails `smquery rails` finds whole.
#
# - `smquery job start` with a host list and an --order file: every HCA of
#   each node, the ring per rail contention-free in `route-check --job`;
# - worst values, each refused with a clear message, nothing lost: unknown
#   hosts, a host twice, a name with a shell character, a name too long,
#   70,000 names, an unknown pattern, a bad job name, a request past the
#   control socket's limit, a job name in use;
# - a restart: the job comes back from the store and is routed again;
# - `job end`: every switch's stored LFT is what it was before the job
#   (ftree's), byte for byte;
# - a miswired HCA (`--miswire`): `smquery rails` fails and names it.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir jobs
sm=
at_exit '[ -n "$sm" ] && kill "$sm" 2>/dev/null'
log=$work/ibsmd.log
ctl() { "$top_builddir/smquery" --socket "$work/sm.sock" "$@"; }
db() { "$top_builddir/smquery" --db "$work/sm.db" "$@"; }
die() { echo "FAIL: $*"; tail -n 20 "$log"; exit 1; }
gen() { "$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix 8 "$@"; }

gen --rails 4 -o "$work/rails.topo" || die "topogen --rails"
start_sm()
{
	sim_daemon_start "$work/rails.topo" "$log" "$1"
	_rc=$?
	sm=$sim_daemon
	[ "$_rc" -eq 0 ] || die "no 'subnet up'"
}
# every switch's stored LFT, in ibroute's format
tables() { for s in $(db --json switches | tr ',' '\n' | sed -n 's/.*"guid":"\(0x[0-9a-f]*\)".*/\1/p'); do db lft "$s"; done; }

start_sm 1
out=$(db rails) || fail "rails: $out"
echo "$out" | grep -q "32 nodes of several HCAs, 4 rails, 128 HCA ports on 32 leaves: every HCA" ||
	fail "rails said: $out"
tables >"$work/base.lft"
[ -s "$work/base.lft" ] || die "no stored LFT"

# 8 nodes, the --order file gives their ranks, one is not in it
printf 'node9\n# a comment\nnode2\n\nnode30\nnode9\nnode17\nnode25\nnode12\nnode5\n' >"$work/order"
out=$(ctl job start train --hosts node2,node5,node9,node12,node17,node25,node30,node31 \
	--order "$work/order") || fail "job start: $out"
echo "$out" | grep -q "^ok: job train started: 8 hosts, 32 endpoints" || fail "job start said: $out"
out=$(db jobs)
[ "$out" = "train ring 8 hosts (node9 ...)" ] || fail "jobs said: $out (rank order)"
out=$(db route-check --job train) || fail "route-check --job: $out"
echo "$out" | grep -Eq "^  ring +32 +[0-9.]+ +1\.0000 " || fail "the ring is not contention-free: $out"
db --json route-check --job train | grep -q '^{"job":"train","pattern":"ring","hosts":8,' ||
	fail "route-check --job --json"

# worst values: each refused, with its reason
refused() { # WHAT EXPECT ARGS...
	what=$1 want=$2
	shift 2
	if out=$(ctl "$@" 2>&1); then fail "$what was taken: $out"; return; fi
	echo "$out" | grep -qF -- "$want" || fail "$what: '$out', not '$want'"
}
refused "unknown hosts" "2 hosts not in the fabric (nodeX first); nothing done" \
	job start j2 --hosts node1,nodeX,node3,nodeY
refused "a host twice" "--hosts names node3 twice" job start j2 --hosts node1,node3,node3
refused "a host of a running job" "host node9 is in job train, which runs" \
	job start j2 --hosts node1,node9
refused "a shell character" "is no host name" job start j2 --hosts 'node1,x;reboot'
refused "a name too long" "is no host name" job start j2 --hosts "$(printf 'n%.0s' $(seq 70))"
seq -f 'h%g' 70000 >"$work/huge"
refused "70,000 hosts" "more than 65536 hosts" job start j2 --hosts "@$work/huge"
refused "an unknown pattern" "unknown pattern 'zigzag'" job start j2 --pattern zigzag --hosts node1
refused "a bad job name" "bad job name" job start 'j;2' --hosts node1
refused "a name in use" "job train runs already" job start train --hosts node1
refused "an order naming another host" "--order names node9, which --hosts does not" \
	job start j2 --hosts node1 --order "$work/order"
refused "an unknown job" "no job j9 runs" job end j9
if command -v python3 >/dev/null; then
	out=$(python3 -c 'import socket,sys
s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
try:
    s.sendall(b"job start big ring " + b"x" * (6 << 20) + b"\n")
except OSError:
    pass
print(s.recv(200).decode().strip())' "$work/sm.sock")
	echo "$out" | grep -q "^error: request longer than" || fail "a 6 MB request: $out"
fi
out=$(ctl job list)
[ "$out" = "ok: 1 job: train (ring, 8 hosts, routed)" ] || fail "after the refusals: $out"
out=$(db jobs)
[ "$out" = "train ring 8 hosts (node9 ...)" ] || fail "the store after the refusals: $out"

# a restart: the job comes back from the store, routed by the first sweep
kill -TERM "$sm"
wait "$sm"
sm=
start_sm 2
grep -q "jobs: 1 from the store" "$log" || fail "the job was not loaded at the restart"
grep -q "jobs: 1 of 1 routed for their patterns" "$log" || fail "the job was not routed again"
out=$(ctl job list)
[ "$out" = "ok: 1 job: train (ring, 8 hosts, routed)" ] || fail "after the restart: $out"
out=$(db route-check --job train)
echo "$out" | grep -Eq "^  ring +32 +[0-9.]+ +1\.0000 " || fail "after the restart: $out"

# the end: ftree's tables again
out=$(ctl --json job end train) || fail "job end: $out"
echo "$out" | grep -q '^{"ok": true, "result": "job train ended: ' || fail "job end said: $out"
tables >"$work/after.lft"
cmp -s "$work/base.lft" "$work/after.lft" || fail "the stored LFTs are not ftree's after the end"
[ -z "$(db jobs)" ] || fail "the job is still stored"
kill -TERM "$sm"
wait "$sm"
sm=

# one HCA on the wrong leaf: named
gen --rails 4 --miswire 6:2 -o "$work/miswired.topo" || die "topogen --miswire"
"$top_builddir/ibsmd" --backend "sim:$work/miswired.topo" --db "$work/mis.db" --once \
	>"$work/mis.log" 2>&1 || die "ibsmd --once on the miswired tree"
if out=$("$top_builddir/smquery" --db "$work/mis.db" rails); then
	fail "rails passed a miswired tree: $out"
fi
echo "$out" | grep -q 'misplaced: "node6 mlx5_2" port 1 (rail 2, mlx5_2 port 1) is on leaf "L1.3"' ||
	fail "rails did not name the HCA: $out"
[ "$(echo "$out" | grep -c misplaced)" = 1 ] || fail "rails named more than one: $out"
finish
