#!/bin/sh
# SPDX-License-Identifier: MIT
# map_problems.sh - what is broken must be seen on the map, in a real browser.
#
# The 3,456-host fat tree (ibsmd-topogen, 3 levels of radix 24) on the sim
# backend: `ibsmd --once` brings it up; the link A7.4[18] - C4.5 is isolated
# for errors as the daemon's policy stores one (check_smquery_mkdb isolate);
# a second `ibsmd --once` finds L0.5[14] - A0.1 down and the switch A9.2
# gone (sim events at 0 ms: a link down, a node dead) and routes around
# them.  Then `smquery map`, and headless Chromium at MAP_WINDOW (1600,1000),
# in one run: --dump-dom gives the page's problem list and the place of each
# mark it drew (data-screen), --screenshot the picture, in which
# map_pixels.py (PNG decoded with python3's zlib) must find the down link red
# and the isolated one purple along most of their length, and red rings
# where A9.2 was cabled: drawn, and drawn above the 10,342 healthy links (the
# isolated link stays up).  #pb=0 zooms to the first problem (the link down)
# and selects it.  The screenshots are kept in $top_builddir/tests/artifacts/.
# MAP_RADIX=48 runs the 27,648-host tree instead (contrib/bench/map.sh).
# Skips (77) without chromium or python3.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd chromium "Debian package chromium"
need_cmd python3 "Debian package python3"
make_workdir map_problems MAP_KEEP
SMQ=$top_builddir/smquery
radix=${MAP_RADIX:-24}
window=${MAP_WINDOW:-1600,1000}
art=$top_builddir/tests/artifacts
mkdir -p "$art"

"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix "$radix" \
	-o "$work/ft.topo" || exit 99
# ibsmd --once on the sim fabric, with a sim events file
once() {
	timeout 300 "$top_builddir/ibsmd" --backend "sim:$work/ft.topo$1" --db "$work/ft.db" \
		--once > "$work/ibsmd.log" 2>&1 || { cat "$work/ibsmd.log"; exit 99; }
}
once ""
# up links: a switch's ports above radix/2 (topogen's trees)
dport=$((radix / 2 + 2)) iport=$((radix / 2 + 6))
"$top_builddir/tests/check_smquery_mkdb" isolate "$work/ft.db" A7.4 "$iport" \
	"SymbolErrorCounter +1408 in 1 s (threshold 1000)" || exit 99
printf '0 link-down "L0.5"[%s]\n0 dead "A9.2"\n' "$dport" > "$work/down.events"
once ",events=$work/down.events"
grep -q "10343 links" "$work/ibsmd.log" || [ "$radix" != 24 ] ||
	fail "the second sweep did not lose the link and A9.2's 24: $(grep discovery "$work/ibsmd.log")"
t0=$(date +%s.%N)
"$SMQ" --db "$work/ft.db" map -o "$work/map.html" || { fail "smquery map"; finish; }
t1=$(date +%s.%N)

# load NAME HASH: the page's DOM into NAME.dom and its picture into NAME.png,
# from one run of Chromium
load() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$work/chrome" --window-size="$window" --enable-logging=stderr \
		--v=0 --dump-dom --screenshot="$work/$1.png" "file://$work/map.html#$2" \
		> "$work/$1.dom" 2> "$work/$1.log" || fail "chromium on #$2: exit $?"
	if grep -q CONSOLE "$work/$1.log"; then
		fail "the page logged on the console (#$2):"
		grep CONSOLE "$work/$1.log"
	fi
	[ -s "$work/$1.png" ] || fail "no screenshot of #$2"
	cp "$work/$1.png" "$art/map-problems-$radix-$1.png" 2> /dev/null
	grep -q '<span id="errors"></span>' "$work/$1.dom" || fail "the page shows an error (#$2)"
}

w0=$(date +%s.%N)
load whole ""
w1=$(date +%s.%N)
# the list, shown first: the link down, the node gone, the isolated link
grep -q '<h3>Problems: 3</h3>' "$work/whole.dom" || fail "the panel does not list 3 problems"
grep -q "<li data-pb=\"0\"><a>link down: \"L0.5\" port $dport - \"A0.1\" port [0-9]*</a></li>" \
	"$work/whole.dom" || fail "the first problem is not the link down"
grep -q "<li data-pb=\"1\"><a>unreachable: \"A9.2\" 0x[0-9a-f]* is gone from the fabric, $radix links down</a></li>" \
	"$work/whole.dom" || fail "the second problem is not the switch gone"
grep -Eq "<li data-pb=\"2\"><a>(\"A7.4\" port $iport - \"C4.5\" port [0-9]+|\"C4.5\" port [0-9]+ - \"A7.4\" port $iport) [^<]*ISOLATED" \
	"$work/whole.dom" || fail "the third problem is not the isolated link"
grep -q '<div id="legend">.*down (1).*isolated (1).*unreachable node, no answer behind a port (1)' \
	"$work/whole.dom" || fail "the legend does not count the problems"
# the marks, seen in the picture above the healthy links: lines, and rings
# at the boxes the switch gone was cabled to
python3 "$top_srcdir/tests/map_pixels.py" "$work/whole.png" "$work/whole.dom" down=red \
	isolated=purple lost=red || fail "the screenshot does not show what is broken"
# the first problem selected from the URL: zoomed in (fewer boxes), drawn selected
load selected "pb=0"
grep -q '<div id="pbsel" data-pb="0"><h3>Links down</h3>' "$work/selected.dom" ||
	fail "#pb=0 does not show the link down"
grep -q 'class="pb down psel"' "$work/selected.dom" || fail "#pb=0 does not draw it selected"
[ "$(grep -o '<g class="sw[ "]' "$work/selected.dom" | wc -l)" -gt 0 ] ||
	fail "#pb=0 does not zoom in to single switches"
python3 "$top_srcdir/tests/map_pixels.py" "$work/selected.png" "$work/selected.dom" down=red ||
	fail "the selected link is not seen"
printf 'map problems, 3-level radix-%s tree: smquery map %.2f s, %s bytes; chromium %.2f s for the page' \
	"$radix" "$(awk "BEGIN { print $t1 - $t0 }")" "$(wc -c < "$work/map.html")" \
	"$(awk "BEGIN { print $w1 - $w0 }")"
printf ' (drawn %s ms after navigation); screenshots in %s\n' \
	"$(sed -n 's/.*<body data-render-ms="\([0-9]*\)".*/\1/p' "$work/whole.dom")" "$art"
finish
