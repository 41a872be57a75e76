#!/bin/sh
# SPDX-License-Identifier: MIT
# check_smquery_routecheck.sh - `smquery route-check` against golden reports
# on the fixture stores (check_smquery_mkdb: the small fabric's good LFTs and
# its broken ones), its option errors, and on a fabric ibsmd routed itself
# (sim backend, min-hop on the 2-level radix-4 fat tree: every route is
# shortest, so the lengths are known whatever ports the engine picks), and
# the LMC path diversity of ftree with LMC 2 on the 128-host 3-level tree,
# and --engine: dfsssp's routes on a torus checked per SL with its path SLs.
# GOLDEN_UPDATE=1 rewrites the golden files instead of comparing.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
SMQ="$top_builddir/smquery"
MKDB="$top_builddir/tests/check_smquery_mkdb"
make_workdir check_smquery_routecheck
tmp=$work

# golden NAME DB ARGS...: stdout of `smquery --db DB ARGS` must equal $GOLDEN/NAME
golden() {
	name=$1
	db=$2
	shift 2
	if ! "$SMQ" --db "$tmp/$db" "$@" > "$tmp/$name" 2> "$tmp/err"; then
		fail "smquery $*: exit $?: $(cat "$tmp/err")"
	else
		same_as_golden "$name" "$tmp/$name" "smquery $*"
	fi
}

# usage_error PATTERN ARGS...: exit 2, nothing on stdout, PATTERN on stderr
usage_error() {
	pattern=$1
	shift
	"$SMQ" --db "$tmp/small.db" route-check "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" != 2 ] || [ -s "$tmp/out" ] || ! grep -q -- "$pattern" "$tmp/err"; then
		fail "route-check $*: exit $rc, stderr '$(cat "$tmp/err")'"
	fi
}

"$MKDB" small "$tmp/small.db" || exit 99
"$MKDB" faults "$tmp/faults.db" || exit 99

# small: 4 hosts, 2 on each leaf, one trunk up: 4 pairs on a leaf, 8 across,
# shift 2 sends both hosts of a leaf over the trunk
golden route-check.txt small.db route-check
golden route-check.json small.db --json route-check
# faults: 7 pairs unreachable, 3 in the LID 6 loop, which is also a credit loop
golden route-check-faults.txt faults.db route-check --pairings 3 --seed 2
golden route-check-faults.json faults.db --json route-check --pairings 3 --seed 2

# the seed chooses the pairings; the same seed gives the same report
"$SMQ" --db "$tmp/small.db" route-check --seed 5 > "$tmp/a" &&
	"$SMQ" --db "$tmp/small.db" route-check --seed 5 > "$tmp/b" && cmp -s "$tmp/a" "$tmp/b" ||
	fail "route-check --seed 5 twice differs"
grep -q '^effective bisection bandwidth: .* (100 pairings, seed 5)$' "$tmp/a" ||
	fail "route-check --seed 5: $(tail -1 "$tmp/a")"

usage_error "bad --pairings 'many' (1 to 1000000)" --pairings many
usage_error "bad --pairings '0' (1 to 1000000)" --pairings 0	# not an EBB of 0
usage_error "bad --pairings '1000001'" --pairings 1000001
usage_error "bad --seed '-1'" --seed -1
usage_error "unexpected '--pairings'" --pairings
usage_error "unexpected '--bogus'" --bogus 1
usage_error "no built-in engine 'bogus'" --engine bogus
usage_error "bad --option 'vls'" --engine dfsssp --option vls
usage_error "bad --traffic 'ring' (shift, random, alltoall or bitrev)" --traffic ring

# the traffic model on small, with link rates: shift 2 sends two flows each
# way over the trunk, but the trunk is 4xQDR and the hosts' links 4xDDR, so
# no flow is slowed (where route-check's own count says 2 flows on a link)
"$SMQ" --db "$tmp/small.db" route-check --traffic shift > "$tmp/shift.txt" ||
	fail "route-check --traffic shift"
grep -q '^traffic model (shift, 3 rounds, 12 flows, .*): EBB static 1.0000$' "$tmp/shift.txt" ||
	fail "route-check --traffic shift: $(grep traffic "$tmp/shift.txt")"
"$SMQ" --db "$tmp/small.db" --json route-check --traffic alltoall > "$tmp/a2a.json" ||
	fail "route-check --traffic alltoall"
grep -q '"traffic":"alltoall","rounds":1,"flows":12,"rated":true,"static":1.000000}' "$tmp/a2a.json" ||
	fail "route-check --traffic alltoall: $(cat "$tmp/a2a.json")"

# a fabric ibsmd routed: 8 hosts, 2 per leaf; 8 pairs cross 2 links, 48 cross 4
if "$top_builddir/ibsmd" --backend "sim:$top_srcdir/tests/rt/ft2r4.net" --once \
	--routing minhop --db "$tmp/ft.db" > "$tmp/ibsmd.log" 2>&1; then
	"$SMQ" --db "$tmp/ft.db" --json route-check > "$tmp/ft.json" || fail "route-check on ft2r4"
	for member in '"hosts":8' '"switches":6' '"pairs":56' '"unreachable":0' '"loops":0' \
		'"credit_loop":false' '"hops":\[{"hops":2,"pairs":8},{"hops":4,"pairs":48}\]' \
		'"links":{"count":24,' '"shifts":{"count":7,'; do
		grep -q "$member" "$tmp/ft.json" || fail "route-check on ft2r4: no $member in $(cat "$tmp/ft.json")"
	done
else
	fail "ibsmd --backend sim on ft2r4.net: $(tail -3 "$tmp/ibsmd.log")"
fi

# LMC 2 on the 128-host 3-level tree, ftree: every remote pair's four LIDs
# leave the source leaf on four links, and share only the last one (to the CA)
printf 'lmc: 2\n' > "$tmp/lmc.yaml"
"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix 8 > "$tmp/ft3.topo" ||
	exit 99
if "$top_builddir/ibsmd" -c "$tmp/lmc.yaml" --backend "sim:$tmp/ft3.topo" --once \
	--routing ftree --db "$tmp/lmc.db" > "$tmp/ibsmd.log" 2>&1; then
	"$SMQ" --db "$tmp/lmc.db" route-check > "$tmp/lmc.txt" || fail "route-check with LMC 2"
	grep -q '^LMC path diversity: 15872 of 15872 remote pairs .* together 16.23 distinct$' \
		"$tmp/lmc.txt" || fail "route-check with LMC 2: $(tail -1 "$tmp/lmc.txt")"
else
	fail "ibsmd with lmc 2: $(tail -3 "$tmp/ibsmd.log")"
fi

# adaptive on the 128-host 3-level tree: ftree's static routes, and with
# --engine adaptive --traffic random the model's EBB with its AR groups too
if "$top_builddir/ibsmd" --backend "sim:$tmp/ft3.topo" --once --routing adaptive \
	--db "$tmp/ar.db" > "$tmp/ibsmd.log" 2>&1; then
	"$SMQ" --db "$tmp/ar.db" --json route-check --engine adaptive --traffic random \
		> "$tmp/ar.json" || fail "route-check --engine adaptive --traffic random"
	grep -q '"unreachable":0,"loops":0,' "$tmp/ar.json" &&
		grep -q '"credit_loop":false' "$tmp/ar.json" &&
		grep -q '"traffic":"random","rounds":100,"flows":12800,"rated":true,"static":0.600[0-9]*,"adaptive":0.94[0-9]*}' \
		"$tmp/ar.json" || fail "route-check --engine adaptive: $(cat "$tmp/ar.json")"
	"$SMQ" --db "$tmp/ar.db" route-check --traffic shift > "$tmp/ar.txt" ||
		fail "route-check --traffic shift on adaptive's routes"
	grep -q '^traffic model (shift, 127 rounds, 16256 flows, link rates): EBB static 1.0000$' \
		"$tmp/ar.txt" || fail "adaptive's shifts: $(grep traffic "$tmp/ar.txt")"
else
	fail "ibsmd --routing adaptive: $(tail -3 "$tmp/ibsmd.log")"
fi

# dfsssp on a 3x3 torus: on SL 0 alone its routes have a credit loop; the
# daemon stored its path SLs, so route-check checks per SL on them: 2 SLs,
# none (with the path_sls rows gone, SL 0 and the loop again); with
# --engine dfsssp route-check runs it again, finds the stored routes, and
# checks per SL: 2 SLs, none.  Another engine's SLs do not apply.
"$top_builddir/contrib/topogen/ibsmd-topogen" torus --dims 3x3 --hosts-per-switch 2 \
	> "$tmp/torus.topo" || exit 99
if "$top_builddir/ibsmd" --backend "sim:$tmp/torus.topo" --once --routing dfsssp \
	--db "$tmp/torus.db" > "$tmp/ibsmd.log" 2>&1; then
	"$SMQ" --db "$tmp/torus.db" route-check > "$tmp/t0.txt" || fail "route-check on the torus"
	grep -q '^credit loops: none$' "$tmp/t0.txt" &&
		grep -q '^SLs: 2, the path SLs the daemon stored$' "$tmp/t0.txt" ||
		fail "route-check on the stored SLs: $(head -5 "$tmp/t0.txt")"
	cp "$tmp/torus.db" "$tmp/torus0.db"
	sqlite3 "$tmp/torus0.db" 'DELETE FROM path_sls' || exit 99
	"$SMQ" --db "$tmp/torus0.db" route-check > "$tmp/t0.txt" || fail "route-check on SL 0"
	grep -q '^credit loop: SL 0:' "$tmp/t0.txt" || fail "route-check on SL 0: $(cat "$tmp/t0.txt")"
	"$SMQ" --db "$tmp/torus.db" route-check --engine dfsssp > "$tmp/t1.txt" ||
		fail "route-check --engine dfsssp"
	grep -q '^credit loops: none$' "$tmp/t1.txt" && grep -q '^SLs: 2, the path SLs of engine dfsssp$' \
		"$tmp/t1.txt" || fail "route-check --engine dfsssp: $(head -5 "$tmp/t1.txt")"
	if "$SMQ" --db "$tmp/torus.db" route-check --engine minhop > /dev/null 2> "$tmp/err"; then
		fail "route-check --engine minhop took dfsssp's routes for its own"
	fi
	grep -q "not engine minhop's" "$tmp/err" || fail "route-check --engine minhop: $(cat "$tmp/err")"
else
	fail "ibsmd --routing dfsssp on the torus: $(tail -3 "$tmp/ibsmd.log")"
fi

[ "$fails" = 0 ] && echo "check_smquery_routecheck: all passed"
[ "$fails" = 0 ]
