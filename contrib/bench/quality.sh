#!/bin/sh
# SPDX-License-Identifier: MIT
#
# quality.sh - routing quality of OpenSM and ibsmd on the same fabrics, from
# the LFTs each one programs, read back with ibroute.
#
# Fabrics (QUALITY_FABRICS, default "ft3r8 ft3r8-5pct"): ft3r8, the 3-level
# radix-8 fat tree (128 hosts, 80 switches) from ibsmd-topogen; ft3r8-5pct,
# the same with 5% of its switch links removed (--remove-links 5 --seed 1);
# torus444, the 4x4x4 torus with 2 hosts per switch; dragonfly, topogen's
# default dragonfly; cluster89 and cluster144, the real clusters of
# tests/topo/real.  For each fabric and each engine of QUALITY_OPENSM_ENGINES
# and QUALITY_IBSMD_ENGINES (both default to QUALITY_ENGINES when unset, default
# "minhop updn ftree"), in a network namespace of its own with a fresh ibsim:
#   opensm -o -R ENGINE                         (OSM_TMP_DIR, OSM_CACHE_DIR: scratch)
#   ibsmd --backend umad --once --routing ENGINE (fresh database)
# then `ibnetdiscover -p` (every port's LID), `ibswitches` and `ibroute LID`
# for every switch.  quality_from_ibroute turns the fabric file, the LIDs and
# the dumps into the figures of routing/rt_quality.c (hosts in the file's
# leaf order), and a table comes out: per fabric, engine and SM, whether the
# SM came up, contention-free shift permutations, worst flows per link, the
# effective bisection bandwidth, unreachable and looping pairs, credit loops
# (all on SL 0: what ibroute shows carries no SL; an engine that moves paths
# to other SLs, lash, dfsssp, nue, can show a credit loop here that its SL2VL
# tables break: tests/interop/ibdmchk.sh checks ibsmd's with its SLs).
#
# Environment: top_srcdir, top_builddir (default: this tree), QUALITY_OUT
# (default quality-out: logs, dumps, results.txt), QUALITY_ENGINES,
# QUALITY_PAIRINGS (100), QUALITY_SEED (1), QUALITY_TIMEOUT (seconds per SM
# run, 300).  Needs root (unshare -n), ibsim-utils, infiniband-diags, opensm.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
self=$(cd "$(dirname "$0")" && pwd)/${0##*/}
ibsmd=$top_builddir/ibsmd
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
measure=$top_builddir/contrib/bench/quality_from_ibroute

# ---------------------------------------------------------------------------
# Inside a namespace: one SM run and its tables.  $1 SM (opensm|ibsmd),
# $2 ENGINE, $3 NETFILE, $4 OUT (directory for logs and dumps).

run_inside()
{
	sm=$1 engine=$2 netfile=$3 out=$4
	# shellcheck source=../ibsim/ibsim-ns.sh
	. "$ibsim_ns"
	make_workdir "quality-$sm"
	scratch=$work
	ibsim_start "$netfile" || return 1
	case $sm in
	opensm)
		OSM_TMP_DIR=$scratch OSM_CACHE_DIR=$scratch ibsim_client \
			timeout "${QUALITY_TIMEOUT:-300}" opensm -o -R "$engine" -f "$out/sm.log" \
			>"$out/sm.out" 2>&1
		;;
	ibsmd)
		ibsim_client timeout "${QUALITY_TIMEOUT:-300}" "$ibsmd" --backend umad --once \
			--routing "$engine" --db "$scratch/ibsmd.db" >"$out/sm.log" 2>&1
		;;
	esac
	echo "$?" >"$out/sm.rc"
	ibsim_client timeout 60 ibnetdiscover -p >"$out/ports.txt" 2>"$out/diag.err"
	ibsim_client timeout 60 ibswitches >"$out/switches.txt" 2>>"$out/diag.err"
	: >"$out/ibroute.txt"
	for lid in $(sed -n 's/.* port 0 lid \([0-9]*\) .*/\1/p' "$out/switches.txt"); do
		ibsim_client timeout 60 ibroute "$lid" >>"$out/ibroute.txt" 2>>"$out/diag.err"
	done
	ibsim_stop
	return 0
}

if [ "${1:-}" = __run ]; then
	shift
	run_inside "$@"
	exit $?
fi

# ---------------------------------------------------------------------------
# Outside: the fabrics, the runs, the table.

die() { echo "quality: $*" >&2; exit 1; }

"$ibsim_ns" check >&2 || die "cannot run ibsim here (see above)"
command -v opensm >/dev/null 2>&1 || die "opensm is not installed"
command -v ibroute >/dev/null 2>&1 || die "ibroute is missing (Debian package infiniband-diags)"
for prog in "$ibsmd" "$topogen" "$measure"; do
	[ -x "$prog" ] || die "$prog is not built (run make first)"
done
engines=${QUALITY_ENGINES:-minhop updn ftree}
out=$(mkdir -p "${QUALITY_OUT:-quality-out}" && cd "${QUALITY_OUT:-quality-out}" && pwd) ||
	die "cannot make ${QUALITY_OUT:-quality-out}"

# fabric NAME: its net file in $out/NAME.net
fabric()
{
	case $1 in
	ft3r8) "$topogen" fattree --levels 3 --radix 8 ;;
	ft3r8-5pct) "$topogen" fattree --levels 3 --radix 8 --remove-links 5 --seed 1 ;;
	torus444) "$topogen" torus --dims 4x4x4 --hosts-per-switch 2 ;;
	dragonfly) "$topogen" dragonfly ;;
	cluster89) cat "$top_srcdir/tests/topo/real/cluster89-mixed-irregular.topo" ;;
	cluster144) cat "$top_srcdir/tests/topo/real/cluster144-sx6036-2level.topo" ;;
	*) echo "quality: unknown fabric $1" >&2; return 1 ;;
	esac >"$out/$1.net"
}
fabrics=${QUALITY_FABRICS:-ft3r8 ft3r8-5pct}
for f in $fabrics; do
	fabric "$f" || die "no fabric $f"
done

# "LID PORTGUID" for every port ibnetdiscover -p lists, both ends of each line
lids_of()
{
	awk '$7 == "-" { print $2, $4; print $9, $11 }' "$1" | sort -u
}

# One table row from a run's directory.
row()
{
	fabric=$1 engine=$2 sm=$3 dir=$4
	rc=$(cat "$dir/sm.rc")
	lids_of "$dir/ports.txt" >"$dir/lids.txt"
	if ! "$measure" --pairings "${QUALITY_PAIRINGS:-100}" --seed "${QUALITY_SEED:-1}" \
		"$out/$fabric.net" "$dir/lids.txt" "$dir/ibroute.txt" >"$dir/quality.txt" \
		2>"$dir/quality.err"; then
		printf '%-12s %-7s %-6s %3s  %s\n' "$fabric" "$engine" "$sm" "$rc" \
			"no figures: $(head -n 1 "$dir/quality.err")"
		return
	fi
	# shellcheck disable=SC1090 # the assignments quality_from_ibroute printed
	. "$dir/quality.txt"
	printf '%-12s %-7s %-6s %3s %5s/%-4s %5s %7s %7s/%-6s %5s %4s\n' "$fabric" "$engine" \
		"$sm" "$rc" "$shifts_free" "$shifts" "$shift_worst" "$ebb" "$unreachable" "$pairs" \
		"$loops" "$credit_loop"
}

{
	echo "routing quality, $(date -u '+%Y-%m-%d %H:%M UTC'), $(opensm --version 2>/dev/null |
		grep -o 'OpenSM [0-9.]*' | head -n 1), $(ibsim -h 2>&1 | grep -o '^ibsim [0-9.]*')," \
		"${QUALITY_PAIRINGS:-100} pairings, seed ${QUALITY_SEED:-1}"
	printf '%-12s %-7s %-6s %3s %10s %5s %7s %14s %5s %4s\n' fabric engine sm rc \
		"free/shift" worst EBB "unreach/pairs" loops cdg
} | tee "$out/results.txt"
for fabric in $fabrics; do
	for sm in opensm ibsmd; do
		if [ "$sm" = opensm ]; then
			list=${QUALITY_OPENSM_ENGINES-$engines}
		else
			list=${QUALITY_IBSMD_ENGINES-$engines}
		fi
		for engine in $list; do
			dir=$out/$fabric/$engine-$sm
			rm -rf "$dir" && mkdir -p "$dir" || die "cannot make $dir"
			timeout $((${QUALITY_TIMEOUT:-300} + 200)) unshare -n /bin/sh "$self" __run \
				"$sm" "$engine" "$out/$fabric.net" "$dir" ||
				echo "quality: $fabric $engine $sm: the run failed (see $dir)" >&2
			row "$fabric" "$engine" "$sm" "$dir" | tee -a "$out/results.txt"
		done
	done
done
