#!/bin/sh
# SPDX-License-Identifier: MIT
#
# ibdmchk.sh - ibdmchk(1) of ibutils, a route checker nobody here wrote,
# checks the routes ibsmd programs, read from `smquery dump-opensm`.
#
# For the 128-host 3-level radix-8 fat tree (ibsmd-topogen), the bundled
# 32-host fabric (min-hop), and the 128-host tree with 5% of its switch links
# removed (ftree and updn): `ibsmd --backend sim:FILE --once` brings it up into
# a fresh store, `smquery dump-opensm DIR` writes OpenSM's dump files, and
#	ibdmchk -s DIR/opensm-subnet.lst -f DIR/opensm.fdbs -m DIR/opensm.mcfdbs
# must report "-I- Scanned:N CA to CA paths" with N = hosts * (hosts - 1)
# (16256 and 992), "-I- no credit loops found", and no "-E-" line.
# When OpenSM, ibsim and `unshare -n` are there, OpenSM itself brings the
# 128-host tree up under ibsim (`opensm -o -R ftree -D 0x41`) and ibdmchk must
# say the same of its own dumps: the reference the issue names.
# The 3x3 torus with 2 hosts per switch routed by dfsssp needs two SLs:
# dump-opensm writes the path SLs the daemon stored (ibdmchk's -c file) and
# the SL2VL tables it programs (-d), and ibdmchk must find no credit loop on 2
# SLs and 2 VLs; the path SLs must be the ones tests/rt_path_sl computes (the
# engine run again on the LIDs the dump lists; engines are deterministic);
# without the two files ibdmchk must find a credit loop.  A dump of routes on
# SL 0 alone into the same directory leaves neither file behind.
# A control run on broken LFTs (check_smquery_mkdb faults) must make ibdmchk
# report missing paths, so a checker that checks nothing cannot pass.
# ibdmchk may crash on exit after its report: its report lines are read, not
# its exit status.  Skips (77) without ibdmchk or ibsim.
# IBDMCHK_KEEP=1 keeps the work directory (its path is printed).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need_cmd ibdmchk ibutils
need_cmd ibsim ibsim-utils
make_workdir ibdmchk IBDMCHK_KEEP

# run_ibdmchk DIR: ibdmchk on DIR's dump files, its output in DIR/ibdmchk.out
# (the subshell, which does not exec it, reports its crash at exit to /dev/null)
# (with the path SLs and SL2VL tables, ibdmchk's -c and -d files, when there)
run_ibdmchk() {
	(cd "$1" && timeout 300 ibdmchk -s opensm-subnet.lst -f opensm.fdbs \
		-m opensm.mcfdbs $([ -f opensm-path-sl.dump ] && echo -c opensm-path-sl.dump) \
		$([ -f opensm-sl2vl.dump ] && echo -d opensm-sl2vl.dump) \
		> ibdmchk.out 2>&1; :) 2> /dev/null
	grep -E '^-[EW]- |Scanned:|credit loops' "$1/ibdmchk.out" | head -20 | sed 's/^/  /'
}

# verdict NAME DIR PATHS: ibdmchk scanned PATHS CA-to-CA paths without error or credit loop
verdict() {
	out=$2/ibdmchk.out
	if ! grep -q "^-I- Scanned:$3 CA to CA paths" "$out"; then
		fail "$1: ibdmchk did not scan $3 CA to CA paths"
	elif ! grep -q '^-I- no credit loops found' "$out"; then
		fail "$1: ibdmchk did not report 'no credit loops found'"
	elif grep -q '^-E-' "$out"; then
		fail "$1: ibdmchk reported errors"
	else
		echo "ok: $1: ibdmchk scanned $3 CA to CA paths, no credit loops"
	fi
}

# ours NAME TOPOFILE HOSTS [ENGINE [SLS]]: bring TOPOFILE up with ibsmd, dump,
# check (with SLS non-empty: the dump's path SLs, which must be the engine's)
ours() {
	dir=$work/$1
	mkdir -p "$dir" || exit 99
	if ! "$top_builddir/ibsmd" --backend "sim:$2" --db "$dir/ibsmd.db" --once \
			--routing "${4:-minhop}" > "$dir/ibsmd.log" 2>&1; then
		fail "$1: ibsmd --once: $(tail -2 "$dir/ibsmd.log")"
		return
	fi
	if ! "$top_builddir/smquery" --db "$dir/ibsmd.db" dump-opensm "$dir/osm" > /dev/null; then
		fail "$1: smquery dump-opensm"
		return
	fi
	if [ -n "${5:-}" ]; then
		[ -s "$dir/osm/opensm-path-sl.dump" ] && [ -s "$dir/osm/opensm-sl2vl.dump" ] ||
			{ fail "$1: dump-opensm wrote no path SLs or SL2VL tables"; return; }
		# "0xLID 0xPORTGUID" of every port the dump lists, then the path SLs
		grep -oE 'PortGUID:[0-9a-fA-F]+ [^{]*[{][^}]*[}] LID:[0-9a-fA-F]+' \
			"$dir/osm/opensm-subnet.lst" |
			sed -E 's/PortGUID:([0-9a-fA-F]+) .*LID:([0-9a-fA-F]+)/0x\2 0x\1/' |
			sort -u > "$dir/lids.txt"
		"$top_builddir/tests/rt_path_sl" "$2" "$dir/lids.txt" "$4" \
			> "$dir/path-sl.txt" || { fail "$1: rt_path_sl"; return; }
		if ! cmp -s "$dir/path-sl.txt" "$dir/osm/opensm-path-sl.dump"; then
			fail "$1: the dump's path SLs are not the engine's: $(diff "$dir/path-sl.txt" \
				"$dir/osm/opensm-path-sl.dump" | head -3)"
			return
		fi
		echo "$1: $(awk '{ print $3 }' "$dir/osm/opensm-path-sl.dump" | sort -u | wc -l) path SLs, as the engine gives them"
	fi
	echo "$1 (ibsmd, $(tail -1 "$dir/ibsmd.log" | sed 's/.*notice: //')):"
	run_ibdmchk "$dir/osm"
	verdict "$1 (ibsmd)" "$dir/osm" $(($3 * ($3 - 1)))
}

# opensm_reference TOPOFILE DIR: OpenSM's own dumps of TOPOFILE in DIR (under ibsim)
opensm_reference() {
	cat > "$work/opensm.sh" <<-'EOS'
	. "$1"
	ibsim_start "$2" -N 300 -S 100 -P 1000 || exit 99
	export OSM_TMP_DIR="$3" OSM_CACHE_DIR="$3"
	ibsim_client timeout 120 opensm -o -R ftree -D 0x41 -f "$3/opensm.log" \
		--dump_files_dir "$3" > "$3/opensm.out" 2>&1
	rc=$?
	ibsim_stop
	exit $rc
	EOS
	mkdir -p "$2" && timeout 200 unshare -n /bin/sh "$work/opensm.sh" "$ibsim_ns" "$1" "$2"
}

tree=$work/fattree-3l-r8.topo
"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix 8 > "$tree" || exit 99
ours fattree-3l-r8 "$tree" 128
ours fattree-2l-r8 "$top_srcdir/contrib/fabrics/fattree-2l-r8.topo" 32
# 5% of the switch-to-switch links gone: the deadlock-free engines must still
# route every pair without a credit loop (issue 5)
degraded=$work/fattree-3l-r8-degraded.topo
"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix 8 \
	--remove-links 5 --seed 1 > "$degraded" || exit 99
ours degraded-ftree "$degraded" 128 ftree
ours degraded-updn "$degraded" 128 updn
torus=$work/torus-3x3.topo
"$top_builddir/contrib/topogen/ibsmd-topogen" torus --dims 3x3 --hosts-per-switch 2 \
	> "$torus" || exit 99
ours torus-dfsssp "$torus" 18 dfsssp sls
if grep -q 'Analyzing Fabric for Credit Loops 2 SLs, 2 VLs' "$work/torus-dfsssp/osm/ibdmchk.out"; then
	echo "ok: torus-dfsssp: ibdmchk analysed 2 SLs on 2 VLs"
else
	fail "torus-dfsssp: ibdmchk did not analyse the 2 SLs and VLs of dfsssp"
fi
mkdir "$work/torus-sl0"
cp "$work/torus-dfsssp/osm/opensm-subnet.lst" "$work/torus-dfsssp/osm/opensm.fdbs" \
	"$work/torus-dfsssp/osm/opensm.mcfdbs" "$work/torus-sl0/"
run_ibdmchk "$work/torus-sl0" > /dev/null
if grep -q '^-E- credit loops in routing' "$work/torus-sl0/ibdmchk.out"; then
	echo "ok: control: on SL 0 alone the same routes have a credit loop"
else
	fail "control: ibdmchk found no credit loop in dfsssp's torus routes on SL 0 alone"
fi
# routes on SL 0 alone dumped into the same directory: no SL files left behind
"$top_builddir/smquery" --db "$work/fattree-2l-r8/ibsmd.db" dump-opensm "$work/torus-dfsssp/osm" \
	> /dev/null || fail "dump-opensm over an old dump"
[ -f "$work/torus-dfsssp/osm/opensm-path-sl.dump" ] || [ -f "$work/torus-dfsssp/osm/opensm-sl2vl.dump" ] &&
	fail "a dump on SL 0 left the old SL files in place"

if command -v opensm > /dev/null && (. "$ibsim_ns" && ibsim_check > /dev/null); then
	if opensm_reference "$tree" "$work/opensm"; then
		echo "fattree-3l-r8 (OpenSM 'opensm -o -R ftree', its own dumps):"
		run_ibdmchk "$work/opensm"
		verdict "fattree-3l-r8 (OpenSM)" "$work/opensm" 16256
	else
		fail "OpenSM did not bring the 128-host tree up under ibsim"
	fi
else
	echo "note: no OpenSM reference run (needs opensm, libumad2sim and unshare -n)"
fi

# control: broken LFTs must not pass
"$top_builddir/tests/check_smquery_mkdb" faults "$work/faults.db" || exit 99
"$top_builddir/smquery" --db "$work/faults.db" dump-opensm "$work/faults" > /dev/null || exit 99
run_ibdmchk "$work/faults" > /dev/null
if grep -q '^-E- Found [1-9][0-9]* missing paths' "$work/faults/ibdmchk.out"; then
	echo "ok: control: ibdmchk finds the missing paths of broken LFTs"
else
	fail "control: ibdmchk passed broken LFTs"
fi
finish
