#!/bin/sh
# SPDX-License-Identifier: MIT
#
# topology.sh - what ibsmd stores is the fabric ibnetdiscover sees.
#
# For each fabric (ibsim's net examples, the real clusters in tests/topo/real,
# the bundled fat tree and a 3-level one from ibsmd-topogen), in a network
# namespace of its own: start ibsim, run `ibsmd --backend umad --once`, and
# compare `smquery topology` with `ibnetdiscover` (a tool nobody here wrote):
# the same nodes, GUIDs, port counts and links.  Then run `ibsmd --backend
# sim:FILE --once` on the same file and compare its `smquery topology` with the
# same ibnetdiscover output: both backends describe the fabric alike.
# Skips (77) where ibsim, infiniband-diags or `unshare -n` is missing.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
ibsmd=$top_builddir/ibsmd
smquery=$top_builddir/smquery
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
examples=/usr/share/doc/ibsim-utils/net-examples

need_ibsim
need_cmd ibnetdiscover "Debian package infiniband-diags"
make_workdir topology

# ibnetdiscover's format -> sorted "node ID TYPE NPORTS" and "link A[p] B[q]".
canon()
{
	awk '
	function quoted(line) { sub(/^[^"]*"/, "", line); sub(/".*/, "", line); return line }
	/^(Switch|Ca|Rt)[ \t]/ { cur = quoted($0); print "node " cur " " $1 " " $2; next }
	/^\[/ {
		lp = $0; sub(/^\[/, "", lp); sub(/\].*/, "", lp)
		peer = quoted($0)
		rp = $0; sub(/^[^"]*"[^"]*"\[/, "", rp); sub(/\].*/, "", rp)
		if (cur < peer || (cur == peer && lp + 0 < rp + 0))
			print "link " cur "[" lp "] " peer "[" rp "]"
	}' "$1" | sort
}

fabrics()
{
	for f in "$examples/net.2sw2path4hca" "$examples/net.2sw2path4hca2port" \
		"$top_srcdir"/tests/topo/real/*.topo "$top_srcdir/contrib/fabrics/fattree-2l-r8.topo"; do
		[ -f "$f" ] && echo "$f"
	done
	if [ -x "$topogen" ]; then
		"$topogen" fattree --levels 3 --radix 8 -o "$work/ft3-r8.topo" && echo "$work/ft3-r8.topo"
	fi
}

n=0
for f in $(fabrics); do
	d=$work/$(basename "$f").d
	mkdir -p "$d"
	unshare -n sh -c '
		. "$1"; ibsim_start "$2" || exit 3
		ibsim_client "$3" --backend umad --db "$4/umad.db" --once --log-level warning || { ibsim_stop; exit 4; }
		ibsim_client ibnetdiscover >"$4/ibnd.topo" 2>/dev/null
		ibsim_stop' topology-ns "$ibsim_ns" "$f" "$ibsmd" "$d"
	rc=$?
	if [ $rc != 0 ]; then
		fail "$f: ibsmd under ibsim exited $rc"
		continue
	fi
	"$ibsmd" --backend "sim:$f" --db "$d/sim.db" --once --log-level warning || {
		fail "$f: ibsmd on the sim backend"; continue; }
	canon "$d/ibnd.topo" >"$d/ibnd.canon"
	for b in umad sim; do
		"$smquery" --db "$d/$b.db" topology >"$d/$b.topo"
		canon "$d/$b.topo" >"$d/$b.canon"
		if ! diff -u "$d/ibnd.canon" "$d/$b.canon" >"$d/$b.diff"; then
			fail "$f: smquery topology ($b backend) differs from ibnetdiscover:"
			head -n 20 "$d/$b.diff"
		fi
	done
	echo "ok: $(basename "$f"): $(grep -c '^node' "$d/ibnd.canon") nodes, $(grep -c '^link' "$d/ibnd.canon") links alike"
	n=$((n + 1))
done
[ $n -gt 0 ] || fail "no fabric was checked"
finish
