#!/bin/sh
# SPDX-License-Identifier: MIT
# map_browser.sh - `smquery map` in a real browser: headless Chromium loads
# the page of a fabric from a file, after `ibsmd --once` brought the fabric
# up under ibsim.  The page must log nothing on the console (no script
# error, no fetch its Content-Security-Policy refused), show every switch
# once (on the bundled fabric: one element each, no boxes of several), be
# drawn within MAP_MAX_MS of navigation (default 3000), and the route it
# walks from the stored LFTs must be the hops ibtracert reads from the
# switches for the same pair: the first CA to the last by name, and two in
# between by LID to a port GUID.  A search by GUID shows that switch.
# MAP_FABRIC: another fabric file (contrib/bench/map.sh: the 8,192-host
# tree; its "# ibsim limits:" header line is passed to ibsim); the figures
# (file size, times) are printed.  MAP_SIM=1: the sim backend only, routes
# compared with `smquery route` (fabrics ibsim cannot load: the 27k tree).  Skips (77) without chromium (Debian
# package chromium), ibsim or infiniband-diags.  MAP_KEEP=1 keeps the work
# directory.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
SMQ=$top_builddir/smquery
fabric=${MAP_FABRIC:-$top_srcdir/contrib/fabrics/fattree-2l-r8.topo}
max_ms=${MAP_MAX_MS:-3000}

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

# smquery route's hops, the same way (MAP_SIM=1)
smquery_hops() {
	awk '/^(Ca|Switch|Rt) / {
		s = $0; sub(/^[^"]*"/, "", s); d = s; sub(/".*$/, "", d); sub(/^[^"]*"/, "", s)
		inp = -1; out = -1
		if (match(s, /^ \[[0-9]+\]/)) { inp = substr(s, 3, RLENGTH - 3); s = substr(s, RLENGTH + 1) }
		if (match(s, /-> \[[0-9]+\]/)) out = substr(s, RSTART + 4, RLENGTH - 5)
		print d, inp, out
	}' "$1"
}

# The page's route from a DOM dump, the same way
page_hops() {
	grep -o '<li data-guid="[^"]*" data-in="[^"]*" data-out="[^"]*"><a>[^<]*</a>' "$1" |
		sed 's/.*data-in="\([^"]*\)" data-out="\([^"]*\)"><a>\([^<]*\)<\/a>/\3 \1 \2/'
}

if [ "${1:-}" = __inside ]; then
	# shellcheck source=../contrib/ibsim/ibsim-ns.sh
	. "$ibsim_ns"
	# shellcheck disable=SC2046 # the limits are words
	ibsim_start "$fabric" $(sed -n 's/^# ibsim limits: //p' "$fabric" | head -n 1) || exit 1
	ibsim_client timeout 60 "$top_builddir/ibsmd" --backend umad --db "$work/ib.db" --once \
		> "$work/ibsmd.log" 2>&1 || { ibsim_stop; cat "$work/ibsmd.log"; exit 1; }
	while read -r name src dst; do
		SIM_HOST=H10 ibsim_client timeout 30 ibtracert "$src" "$dst" > "$work/$name.tr" 2>&1
	done < "$work/pairs"
	ibsim_stop
	exit 0
fi

need_cmd chromium "Debian package chromium"
if [ "${MAP_SIM:-0}" != 1 ]; then
	need_cmd ibtracert "Debian package infiniband-diags"
	need_ibsim
fi
make_workdir map_browser MAP_KEEP

# LIDs: the sim backend gives the ones ibsmd gives under ibsim (checked below)
lid_of() { "$SMQ" --db "$work/ib.db" nodes | awk -v d="\"$1\"" '$NF == d { print $4 }'; }
pguid_of() { "$SMQ" --db "$work/ib.db" ports "$1" | awk '$1 == "1" { print $2 }'; }
"$top_builddir/ibsmd" --backend "sim:$fabric" --db "$work/ib.db" --once > "$work/sim.log" 2>&1 ||
	{ cat "$work/sim.log"; exit 99; }
# the pairs: first and last CA (by name), two in between (LID to port GUID)
"$SMQ" --db "$work/ib.db" cas | awk 'NR > 1 { sub(/^[^"]*"/, ""); sub(/"$/, ""); print }' \
	> "$work/cas"
ncas=$(wc -l < "$work/cas")
ca() { sed -n "$1p" "$work/cas"; }
first=$(ca 1) last=$(ca "$ncas") a=$(ca $((ncas * 2 / 5 + 1))) b=$(ca $((ncas * 2 / 3 + 1)))
sw=$("$SMQ" --db "$work/ib.db" switches | awk 'NR == 4 { print $1 }')
swdesc=$("$SMQ" --db "$work/ib.db" switches | awk 'NR == 4 { sub(/^[^"]*"/, ""); sub(/"$/, ""); print }')
printf 'names %s %s\nlids %s %s\n' "$(lid_of "$first")" "$(lid_of "$last")" "$(lid_of "$a")" \
	"$(lid_of "$b")" > "$work/pairs"
lids_sim=$("$SMQ" --db "$work/ib.db" nodes)
if [ "${MAP_SIM:-0}" = 1 ]; then
	while read -r name src dst; do
		"$SMQ" --db "$work/ib.db" route "$src" "$dst" > "$work/$name.route" ||
			fail "smquery route $src $dst"
	done < "$work/pairs"
else
	rm -f "$work/ib.db"*
	unshare -n /bin/sh "$0" __inside < /dev/null ||
		{ fail "ibsmd or ibtracert under ibsim"; finish; }
	[ "$("$SMQ" --db "$work/ib.db" nodes)" = "$lids_sim" ] ||
		fail "ibsmd gave other LIDs under ibsim than on the sim backend"
fi
t0=$(date +%s.%N)
"$SMQ" --db "$work/ib.db" map -o "$work/fabric.html" || { fail "smquery map"; finish; }
t1=$(date +%s.%N)
nsw=$("$SMQ" --db "$work/ib.db" switches | tail -n +2 | wc -l)

# load NAME HASH: the page's DOM after its script ran into $work/NAME.dom
load() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/chrome" \
		--enable-logging=stderr --v=0 --dump-dom "file://$work/${page:-fabric.html}#$2" \
		> "$work/$1.dom" 2> "$work/$1.log"
	rc=$?
	[ "$rc" = 0 ] || fail "chromium on #$2: exit $rc"
	if grep -q 'CONSOLE' "$work/$1.log"; then
		fail "the page logged on the console (#$2):"
		grep 'CONSOLE' "$work/$1.log"
	fi
	grep -q '<span id="errors"></span>' "$work/$1.dom" || fail "the page shows an error (#$2)"
	ms=$(sed -n 's/.*<body data-render-ms="\([0-9]*\)".*/\1/p' "$work/$1.dom")
	[ -n "$ms" ] && [ "$ms" -le "$max_ms" ] ||
		fail "the page took ${ms:-?} ms to draw (#$2), more than $max_ms"
}

# route NAME HASH: the page's route for HASH must be ibtracert's NAME.tr
route() {
	load "$1" "$2"
	if [ "${MAP_SIM:-0}" = 1 ]; then
		smquery_hops "$work/$1.route" > "$work/$1.want"
	else
		tracert_hops "$work/$1.tr" > "$work/$1.want"
	fi
	page_hops "$work/$1.dom" > "$work/$1.got"
	if [ ! -s "$work/$1.want" ] || ! diff -u "$work/$1.want" "$work/$1.got"; then
		fail "#$2: the page's route is not ibtracert's (or smquery route's)"
	fi
	grep -q '<ol id="route" data-reached="true"' "$work/$1.dom" || fail "#$2: not reached"
}

# a link the data says is down and isolated, with a value: the first switch
# link, flags 5, value 5 (the highest); and the second healthy (ibsim
# reports its links degraded: flags 0 here), value 2.5
sed 's/"ln":\[\[\([0-9]*,[0-9]*,[0-9]*,[0-9]*\),[0-9]*,0\],\[\([0-9]*,[0-9]*,[0-9]*,[0-9]*\),[0-9]*,0\]/"ln":[[\1,5,0,5],[\2,0,0,2.5]/' \
	"$work/fabric.html" > "$work/marked.html"
cmp -s "$work/fabric.html" "$work/marked.html" && fail "no first link to mark in the page's data"
w0=$(date +%s.%N)
route names "route=$first,$last"
w1=$(date +%s.%N)
drawn=$(grep -o '<g class="sw[ "]' "$work/names.dom" | wc -l)
boxed=$(grep -o '<g class="swg[^>]*data-n="[0-9]*"' "$work/names.dom" | sed 's/.*data-n="//; s/"//' |
	awk '{ n += $1 } END { print n + 0 }')
[ $((drawn + boxed)) = "$nsw" ] ||
	fail "the page shows $drawn switches and $boxed in boxes, the store has $nsw"
[ -n "${MAP_FABRIC:-}" ] || [ "$boxed" = 0 ] || fail "the bundled fabric's switches are in boxes"
route lids "route=$(lid_of "$a"),$(pguid_of "$b")"
load find "find=$sw"
if [ -z "${MAP_FABRIC:-}" ]; then
	# the broken one on the problem layer and listed; the healthy one coloured
	# by its value: 2.5% of the rate (absolute), half the largest (relative)
	page=marked.html load marked ""
	grep -q '<g id="problems">.*<line [^>]*class="pb down"[^>]*><title>[^<]* DOWN ISOLATED value 5</title>' \
		"$work/marked.dom" || fail "the page does not draw the down, isolated link as a problem"
	grep -q '<li data-pb="0"><a>"[^"]*" port [0-9]* - "[^"]*" port [0-9]* [^<]* DOWN ISOLATED value 5</a>' \
		"$work/marked.dom" || fail "the page does not list the down, isolated link"
	grep -q '<line [^>]*class="ln"[^>]*style="stroke:hsl(117,75%,40%)"' "$work/marked.dom" ||
		fail "the page does not colour a link by its share of the rate"
	grep -q "<div id=\"legend\">.*load 0 to 100% of the link's rate" "$work/marked.dom" ||
		fail "the legend does not give the absolute scale"
	page=marked.html load relative "scale=relative"
	grep -q '<line [^>]*class="ln"[^>]*style="stroke:hsl(60,75%,40%)"' "$work/relative.dom" ||
		fail "the page does not colour a link relative to the largest"
	grep -q '<div id="legend">.*value 0 to 5 (the largest)' "$work/relative.dom" ||
		fail "the legend does not give the relative scale"
fi
grep -q "<h3>Switch $swdesc</h3>" "$work/find.dom" || fail "#find=$sw does not show $swdesc"
printf 'map of %s: %s switches (%s drawn, %s in boxes), %s CAs; smquery map %.2f s, %s bytes; page drawn %s ms after navigation, chromium %.2f s in all\n' \
	"$(basename "$fabric")" "$nsw" "$drawn" "$boxed" "$ncas" "$(awk "BEGIN { print $t1 - $t0 }")" \
	"$(wc -c < "$work/fabric.html")" \
	"$(sed -n 's/.*<body data-render-ms="\([0-9]*\)".*/\1/p' "$work/names.dom")" \
	"$(awk "BEGIN { print $w1 - $w0 }")"
finish
