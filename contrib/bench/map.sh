#!/bin/sh
# SPDX-License-Identifier: MIT
#
# map.sh - the fabric map at scale (`make bench`): tests/map_browser.sh on
#  1. the 8,192-host 3-level radix-32 fat tree under ibsim: headless Chromium
#     on the page of `smquery map`, routes against ibtracert;
#  2. the 27,648-host radix-48 tree on the sim backend (ibsim cannot load
#     it): routes against `smquery route`.
#  3. tests/map_problems.sh on the 27,648-host tree: a link down and one
#     isolated seen in Chromium's screenshot (kept in tests/artifacts/).
# Each page must be drawn within MAP_MAX_MS (3000) of navigation, with no
# console message and every switch shown once.  Prints the file size, the
# time smquery takes to write it, the page's draw time and Chromium's whole
# run; appended to $BENCH_OUT/map.txt.  Skips without chromium.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd chromium "Debian package chromium"
out=${BENCH_OUT:-$top_builddir/bench-out}
mkdir -p "$out"
make_workdir bench-map
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
"$topogen" fattree --levels 3 --radix 32 -o "$work/ft-8k.topo" || exit 99
"$topogen" fattree --levels 3 --radix 48 -o "$work/ft-27k.topo" || exit 99
echo "== map benchmark $(date -u '+%Y-%m-%d %H:%M:%S') on $(nproc) cores" | tee -a "$out/map.txt"
status=0
# one run of the browser test, its output kept; fails the bench when it fails
run() {
	env "$@" sh "$top_srcdir/tests/map_browser.sh" > "$work/run.txt" 2>&1
	rc=$?
	tee -a "$out/map.txt" < "$work/run.txt"
	[ "$rc" = 0 ] || [ "$rc" = 77 ] || status=1
}
run MAP_FABRIC="$work/ft-8k.topo"
run MAP_SIM=1 MAP_FABRIC="$work/ft-27k.topo"
# what is broken, seen at 27,648 hosts: a link down and one isolated
env MAP_RADIX=48 sh "$top_srcdir/tests/map_problems.sh" > "$work/run.txt" 2>&1
rc=$?
tee -a "$out/map.txt" < "$work/run.txt"
[ "$rc" = 0 ] || [ "$rc" = 77 ] || status=1
exit $status
