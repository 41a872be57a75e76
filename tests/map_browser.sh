#!/bin/sh
# SPDX-License-Identifier: MIT
# map_browser.sh - `smquery map` in a real browser: headless Chromium loads
# the page of the bundled fabric from a file, after `ibsmd --once` brought
# the fabric up under ibsim.  The page must log nothing on the console (no
# script error, no fetch its Content-Security-Policy refused), draw one
# element per switch, and the route it walks from the stored LFTs must be
# the hops ibtracert reads from the switches for the same pair: by name,
# and by LID to a port GUID.  A search by GUID shows that switch.
# Skips (77) without chromium (Debian package chromium), ibsim or
# infiniband-diags.  MAP_KEEP=1 keeps the work directory.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
SMQ=$top_builddir/smquery
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo

# ibtracert's hops as "DESC IN OUT" lines (-1: none), as the page lists them
tracert_hops() {
	awk '
	function desc(s) { sub(/^[^"]*"/, "", s); sub(/".*$/, "", s); return s }
	/^From / { cur = desc($0); inp = -1; next }
	/^\[[0-9]+\] -> / {
		out = $1; gsub(/[][]/, "", out)
		print cur, inp, out
		s = $0; sub(/^[^}]*}\[/, "", s); sub(/\].*/, "", s)
		inp = s; cur = desc($0); next
	}
	/^To / { print cur, inp, -1 }' "$1"
}

# The page's route from a DOM dump, the same way
page_hops() {
	grep -o '<li data-guid="[^"]*" data-in="[^"]*" data-out="[^"]*"><a>[^<]*</a>' "$1" |
		sed 's/.*data-in="\([^"]*\)" data-out="\([^"]*\)"><a>\([^<]*\)<\/a>/\3 \1 \2/'
}

if [ "${1:-}" = __inside ]; then
	# shellcheck source=../contrib/ibsim/ibsim-ns.sh
	. "$ibsim_ns"
	ibsim_start "$fabric" || exit 1
	ibsim_client timeout 60 "$top_builddir/ibsmd" --backend umad --db "$work/ib.db" --once \
		> "$work/ibsmd.log" 2>&1 || { ibsim_stop; cat "$work/ibsmd.log"; exit 1; }
	while read -r name src dst; do
		SIM_HOST=H10 ibsim_client timeout 30 ibtracert "$src" "$dst" > "$work/$name.tr" 2>&1
	done < "$work/pairs"
	ibsim_stop
	exit 0
fi

need_cmd chromium "Debian package chromium"
need_cmd ibtracert "Debian package infiniband-diags"
need_ibsim
make_workdir map_browser MAP_KEEP

# LIDs: the sim backend gives the ones ibsmd gives under ibsim (checked below)
lid_of() { "$SMQ" --db "$work/ib.db" nodes | awk -v d="\"$1\"" '$NF == d { print $4 }'; }
pguid_of() { "$SMQ" --db "$work/ib.db" ports "$1" | awk '$1 == "1" { print $2 }'; }
guid_of() { "$SMQ" --db "$work/ib.db" nodes | awk -v d="\"$1\"" '$NF == d { print $1 }'; }
"$top_builddir/ibsmd" --backend "sim:$fabric" --db "$work/ib.db" --once > "$work/sim.log" 2>&1 ||
	{ cat "$work/sim.log"; exit 99; }
printf 'names %s %s\nlids %s %s\n' "$(lid_of H0)" "$(lid_of H31)" "$(lid_of H13)" \
	"$(lid_of H22)" > "$work/pairs"
lids_sim=$("$SMQ" --db "$work/ib.db" nodes)
rm -f "$work/ib.db"*
unshare -n /bin/sh "$0" __inside < /dev/null || { fail "ibsmd or ibtracert under ibsim"; finish; }
[ "$("$SMQ" --db "$work/ib.db" nodes)" = "$lids_sim" ] ||
	fail "ibsmd gave other LIDs under ibsim than on the sim backend"
"$SMQ" --db "$work/ib.db" map -o "$work/fabric.html" || { fail "smquery map"; finish; }
nsw=$("$SMQ" --db "$work/ib.db" switches | tail -n +2 | wc -l)

# load NAME HASH: the page's DOM after its script ran into $work/NAME.dom
load() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/chrome" \
		--enable-logging=stderr --v=0 --dump-dom "file://$work/fabric.html#$2" \
		> "$work/$1.dom" 2> "$work/$1.log"
	rc=$?
	[ "$rc" = 0 ] || fail "chromium on #$2: exit $rc"
	if grep -q 'CONSOLE' "$work/$1.log"; then
		fail "the page logged on the console (#$2):"
		grep 'CONSOLE' "$work/$1.log"
	fi
	grep -q '<span id="errors"></span>' "$work/$1.dom" || fail "the page shows an error (#$2)"
}

# route NAME HASH: the page's route for HASH must be ibtracert's NAME.tr
route() {
	load "$1" "$2"
	tracert_hops "$work/$1.tr" > "$work/$1.want"
	page_hops "$work/$1.dom" > "$work/$1.got"
	if [ ! -s "$work/$1.want" ] || ! diff -u "$work/$1.want" "$work/$1.got"; then
		fail "#$2: the page's route is not ibtracert's: $(cat "$work/$1.tr")"
	fi
	grep -q '<ol id="route" data-reached="true"' "$work/$1.dom" || fail "#$2: not reached"
}

route names "route=H0,H31"
drawn=$(grep -o '<g class="sw[ "]' "$work/names.dom" | wc -l)
[ "$drawn" = "$nsw" ] || fail "the page draws $drawn switches, the store has $nsw"
! grep -q 'class="swg' "$work/names.dom" || fail "the bundled fabric's switches are grouped"
route lids "route=$(lid_of H13),$(pguid_of H22)"
load find "find=$(guid_of S2)"
grep -q '<h3>Switch S2</h3>' "$work/find.dom" || fail "#find=GUID of S2 does not show S2"
finish
