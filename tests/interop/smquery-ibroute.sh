#!/bin/sh
# SPDX-License-Identifier: MIT
#
# smquery-ibroute.sh - what smquery reads back from the store is what the
# fabric holds, as infiniband-diags sees it under ibsim.
#
# In a network namespace of its own (`unshare -n`): ibsim serves the bundled
# fabric (contrib/fabrics/fattree-2l-r8.topo), `ibsmd --backend umad --once`
# brings it up, then
#  1. for every switch, `smquery lft LID` is byte for byte what `ibroute LID`
#     prints (its standard output: header, column header, one line per LID,
#     trailer);
#  2. from every third CA to every other CA and to a sample of switches,
#     `smquery route` follows the same hops (node, in port, out port) as
#     `ibtracert` reports.
# Skips (77) without ibsim, libumad2sim.so, `unshare -n`, ibroute or ibtracert.
# SMQ_IBROUTE_KEEP=1 keeps the work directory (its path is printed).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

# ibtracert's output -> one "DESC IN:OUT" line per node ("-" for none)
tracert_hops()
{
	awk -F'"' '
	/^From / { desc = $2; in_port = "-"; next }
	/^\[[0-9]+\] -> / {
		out = substr($0, 2, index($0, "]") - 2)
		print desc, in_port ":" out
		desc = $2
		in_port = substr($1, index($1, "}[") + 2) + 0
		next
	}
	/^To / { print desc, in_port ":-" }'
}

# smquery route's output -> the same; a switch that delivers to port 0 ends it
route_hops()
{
	awk -F'"' '
	NR == 1 || / reached through / { next }
	{
		in_port = "-"; out = "-"
		if (match($3, /^ \[[0-9]+\]/)) in_port = substr($3, 3, RLENGTH - 3)
		if (match($3, /-> \[[0-9]+\]/)) out = substr($3, RSTART + 4, RLENGTH - 5)
		if (out == "0") out = "-"
		print $2, in_port ":" out
	}'
}

inside()
{
	work=$1
	cd "$work" || exit 99
	# shellcheck source=/dev/null
	. "$ibsim_ns"
	ibsim_start "$top_srcdir/contrib/fabrics/fattree-2l-r8.topo" || exit 99
	at_exit ibsim_stop
	if ! ibsim_client timeout 60 "$top_builddir/ibsmd" --backend umad --db "$work/ibsmd.db" \
			--once > "$work/ibsmd.log" 2>&1; then
		echo "FAIL: ibsmd --once: $(tail -3 "$work/ibsmd.log")"
		exit 1
	fi
	smq() { "$top_builddir/smquery" --db "$work/ibsmd.db" "$@"; }
	compared=0
	for lid in $(smq switches | awk 'NR > 1 { print $4 }'); do
		ibsim_client timeout 30 ibroute "$lid" > "$work/ibroute.$lid" 2> /dev/null
		smq lft "$lid" > "$work/lft.$lid"
		if ! cmp -s "$work/ibroute.$lid" "$work/lft.$lid"; then
			fail "smquery lft $lid differs from ibroute $lid:"
			diff "$work/ibroute.$lid" "$work/lft.$lid" | head -10
		fi
		compared=$((compared + 1))
	done
	[ "$compared" -gt 0 ] || { echo "FAIL: no switch listed"; exit 1; }
	echo "ok: smquery lft = ibroute on $compared switches"

	cas=$(smq cas | awk 'NR > 1 { print $4 }')
	srcs=$(smq cas | awk 'NR % 3 == 2 { print $4 }')
	dsts="$cas $(smq switches | awk 'NR > 1 && NR % 4 == 2 { print $4 }')"
	routes=0 bad=0
	for src in $srcs; do
		for dst in $dsts; do
			[ "$src" = "$dst" ] && continue
			ibsim_client timeout 30 ibtracert "$src" "$dst" 2> /dev/null |
				tracert_hops > "$work/tr"
			smq route "$src" "$dst" | route_hops > "$work/rt"
			if [ ! -s "$work/tr" ] || ! cmp -s "$work/tr" "$work/rt"; then
				[ "$bad" -lt 5 ] && echo "FAIL: route $src $dst: ibtracert | smquery route:" &&
					paste "$work/tr" "$work/rt" | head -8
				bad=$((bad + 1))
			fi
			routes=$((routes + 1))
		done
	done
	[ "$routes" -gt 0 ] || { echo "FAIL: no CA pair to trace"; exit 1; }
	echo "$([ "$bad" = 0 ] && echo ok || echo FAIL): smquery route = ibtracert on" \
		"$((routes - bad)) of $routes LID pairs"
	[ "$fails" = 0 ] && [ "$bad" = 0 ]
}

if [ "${1:-}" = __inside ]; then
	shift
	inside "$@"
	exit $?
fi

need_ibsim
for tool in ibroute ibtracert; do
	need_cmd "$tool" infiniband-diags
done
make_workdir smq-ibroute SMQ_IBROUTE_KEEP
timeout 600 unshare -n /bin/sh "$0" __inside "$work"
