#!/bin/sh
# SPDX-License-Identifier: MIT
# route_digest.sh - the ftree engine's LFTs stay byte for byte what they were.
#
# Speed work on the routing stage (rt_ftree.c's staged rows, the validator's
# and the CDG check's blocks) must not move a single route.  tests/bench_route
# routes a topology as the daemon does (LIDs from sm_lid_assign, then the
# engine chain with validation and the credit-loop check) and prints a digest
# of every LFT; the digests below were taken before that work, on trees from
# ibsmd-topogen (a 3-level tree, the same with 15% of its links removed, an
# oversubscribed 2-level tree) and a real irregular cluster, with LMC 0 and 2.
# The degraded tree is also routed on one core (taskset), where validation and
# the CDG check run on one worker: same verdict, same routes.
# A deliberate change of ftree's routes updates the digests here.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir route-digest
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
bench=$top_builddir/tests/bench_route
[ -x "$bench" ] || skip "tests/bench_route is not built"

if ! "$topogen" fattree --levels 3 --radix 16 -o "$work/ft1k.topo" ||
	! "$topogen" fattree --levels 3 --radix 16 --remove-links 15 --seed 3 \
		-o "$work/ft1k-deg15.topo" ||
	! "$topogen" fattree --levels 2 --radix 32 --oversubscription 3:1 -o "$work/ft2-os.topo"; then
	fail "ibsmd-topogen failed"
	finish
fi
cp "$top_srcdir/tests/topo/real/cluster89-mixed-irregular.topo" "$work/"

# check TOPO LMC DIGEST [PREFIX...]: ftree routes TOPO with a valid result
# whose LFTs have DIGEST
check() {
	topo=$1 lmc=$2 want=$3
	shift 3
	out=$("$@" "$bench" "$work/$topo" ftree "$lmc" 2> /dev/null)
	case $out in
	*"engine ftree: routed"*"LFT digest $want") ;;
	*) fail "$topo, LMC $lmc${1:+ ($*)}: not routed as before (digest $want): $out" ;;
	esac
}

check ft1k.topo 0 2767bbffa18f18a5
check ft1k.topo 2 8f4c385e76bb9c85
check ft1k-deg15.topo 0 ce0d8565c9eabed1
check ft1k-deg15.topo 2 6398a28f0e3a196f
check ft2-os.topo 0 217b46d59e12bead
check ft2-os.topo 2 17f07afd60ae11ed
check cluster89-mixed-irregular.topo 0 974c4f98bcfb5707
check cluster89-mixed-irregular.topo 2 a87f095ab28bdb6c
if command -v taskset > /dev/null && taskset -c 0 true 2> /dev/null; then
	check ft1k-deg15.topo 0 ce0d8565c9eabed1 taskset -c 0
	check ft1k-deg15.topo 2 6398a28f0e3a196f taskset -c 0
fi

[ "$fails" -eq 0 ] && echo "route_digest: ftree's LFTs as before on 4 fabrics, LMC 0 and 2"
finish
