#!/bin/sh
# SPDX-License-Identifier: MIT
#
# adaptive.sh - `ibsmd --routing adaptive` under ibsim, whose switches have no
# adaptive routing: the 128-host 3-level radix-8 fat tree (ibsmd-topogen)
# must come up with valid static tables, and nothing of AR may reach the
# switches.  Two versions of the tree, in a network namespace each:
#  - as generated (VendorID 0): no switch is asked for AdaptiveRoutingInfo
#    (no "adaptive routing:" line in the info log);
#  - every switch given vendid=0x2c9 (Mellanox's, so each is asked): ibsim
#    does not answer the vendor attribute, each switch is asked once ("80
#    switches asked, 0 of the fabric's can do it") and given no AR SMP (no
#    "AR LFT blocks" line).
# Then, for each: ibtracert (infiniband-diags, attached at another host)
# follows the LFTs ibsim holds between sampled host pairs, and ibdmchk
# (ibutils) checks the tables the run stored (`smquery dump-opensm`): every
# CA-to-CA path (128 * 127 = 16256) scanned, no credit loop, no "-E-".
# Skips (77) without ibsim, libumad2sim.so, `unshare -n`, infiniband-diags or
# ibdmchk.  ADAPTIVE_KEEP=1 keeps the work directory.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need_cmd ibdmchk ibutils
need_cmd ibtracert infiniband-diags
need_ibsim
make_workdir adaptive ADAPTIVE_KEEP

"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix 8 \
	> "$work/plain.topo" || exit 99
awk '/^Switch/ { print "vendid=0x2c9" } { print }' "$work/plain.topo" > "$work/mellanox.topo"

# inside NAME: in a namespace of its own, ibsim on $work/NAME.topo, ibsmd
# --once --routing adaptive, then ibtracert between sampled host pairs.
cat > "$work/inside.sh" <<'EOS'
name=$1 dir=$work/$1
. "$top_srcdir/contrib/ibsim/ibsim-ns.sh"
ibsim_start "$work/$name.topo" -N 300 -S 100 -P 1000 || exit 3
ibsim_client timeout 120 "$top_builddir/ibsmd" --backend umad --db "$dir/db" --once \
	--routing adaptive --log-level info > "$dir/ibsmd.log" 2>&1
rc=$?
if [ $rc = 0 ]; then
	"$top_builddir/smquery" --db "$dir/db" nodes | awk '$2 == "Ca" { print $4 }' > "$dir/lids"
	n=$(wc -l < "$dir/lids")
	: > "$dir/tracert"
	for i in 1 2 3 4 5 6; do
		src=$(sed -n "$(( (i * 37) % n + 1 ))p" "$dir/lids")
		dst=$(sed -n "$(( (i * 53 + 64) % n + 1 ))p" "$dir/lids")
		[ "$src" = "$dst" ] && continue
		if SIM_HOST=H100 ibsim_client timeout 60 ibtracert "$src" "$dst" > "$dir/t" 2>&1 &&
			tail -n 1 "$dir/t" | grep -q "^To ca .* lid $dst-"; then
			echo "ok $src $dst" >> "$dir/tracert"
		else
			echo "FAIL $src $dst: $(tr '\n' ' ' < "$dir/t")" >> "$dir/tracert"
		fi
	done
fi
ibsim_stop
exit $rc
EOS

for name in plain mellanox; do
	dir=$work/$name
	mkdir -p "$dir" || exit 99
	if ! timeout 300 unshare -n /bin/sh "$work/inside.sh" "$name"; then
		fail "$name: ibsmd --once --routing adaptive under ibsim: $(tail -3 "$dir/ibsmd.log")"
		continue
	fi
	echo "$name: $(grep -o 'subnet up in.*' "$dir/ibsmd.log")"
	if [ "$name" = plain ]; then
		grep -q 'adaptive routing:' "$dir/ibsmd.log" &&
			fail "plain: switches of VendorID 0 were asked: $(grep 'adaptive routing:' "$dir/ibsmd.log" | head -3)"
	else
		grep -q 'adaptive routing: 80 switches asked, 0 of the fabric.s can do it' "$dir/ibsmd.log" ||
			fail "mellanox: not every switch asked once: $(grep 'adaptive routing' "$dir/ibsmd.log" | tail -2)"
	fi
	grep -q 'AR LFT blocks' "$dir/ibsmd.log" &&
		fail "$name: AR tables sent to ibsim's switches: $(grep 'AR LFT blocks' "$dir/ibsmd.log")"
	grep -q '^FAIL' "$dir/tracert" && fail "$name: ibtracert: $(grep '^FAIL' "$dir/tracert")"
	[ "$(grep -c '^ok' "$dir/tracert")" -ge 4 ] || fail "$name: too few ibtracert pairs"
	"$top_builddir/smquery" --db "$dir/db" dump-opensm "$dir/osm" > /dev/null ||
		{ fail "$name: smquery dump-opensm"; continue; }
	(cd "$dir/osm" && timeout 300 ibdmchk -s opensm-subnet.lst -f opensm.fdbs \
		-m opensm.mcfdbs > ibdmchk.out 2>&1; :) 2> /dev/null
	out=$dir/osm/ibdmchk.out
	if ! grep -q '^-I- Scanned:16256 CA to CA paths' "$out"; then
		fail "$name: ibdmchk did not scan 16256 CA to CA paths: $(grep -E 'Scanned|^-E-' "$out" | head -3)"
	elif ! grep -q '^-I- no credit loops found' "$out"; then
		fail "$name: ibdmchk did not report 'no credit loops found'"
	elif grep -q '^-E-' "$out"; then
		fail "$name: ibdmchk reported errors: $(grep '^-E-' "$out" | head -3)"
	else
		echo "ok: $name: $(grep -c '^ok' "$dir/tracert") ibtracert pairs delivered; ibdmchk scanned 16256 CA to CA paths, no credit loops"
	fi
done
finish
