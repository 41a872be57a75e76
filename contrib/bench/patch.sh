#!/bin/sh
# SPDX-License-Identifier: MIT
#
# patch.sh - `make bench`: adaptive routing's gain in the traffic model, and
# fast link repair.
#
#  1. the traffic model (smquery route-check --traffic random, smquery(1)):
#     static ftree and AR (engine adaptive) EBB on the 3-level fat trees of
#     128, 1,024 and 8,192 hosts (BENCH_AR_PAIRINGS random pairings on the
#     8k tree, default 10; 100 on the others);
#  2. bench_ar_restart on the 8,192-host tree, every switch AR-capable: the
#     AR SMPs and time of a cold bring-up and of a restarted daemon's (the
#     same store and switches);
#  3. bench_patch on the 27,648-host tree (BENCH_PATCH_TOPO: another), every
#     switch AR-capable (its header's `ar`), engine adaptive: a top switch's
#     link killed, the time from its Trap 128 to the last patch SMP answered
#     (LFT, AR LFT and group table blocks), the LFT blocks sent against a full
#     reprogram's, and every switch-to-CA route checked over live links
#     before any heavy sweep.
# Results are printed and appended to $BENCH_OUT/patch.txt.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
out=${BENCH_OUT:-$top_builddir/bench-out}
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
mkdir -p "$out"
make_workdir bench-patch

say() { echo "$*" | tee -a "$out/patch.txt"; }

say "== AR and patch benchmark $(date -u '+%Y-%m-%d %H:%M:%S') on $(nproc) cores"
for r in 8 16 32; do
	pairings=100
	[ "$r" = 32 ] && pairings=${BENCH_AR_PAIRINGS:-10}
	"$topogen" fattree --levels 3 --radix $r -o "$work/ft$r.topo"
	"$top_builddir/ibsmd" --backend "sim:$work/ft$r.topo" --once --routing adaptive \
		--db "$work/ft$r.db" > "$work/ibsmd$r.log" 2>&1 || {
		say "radix $r: ibsmd failed: $(tail -1 "$work/ibsmd$r.log")"
		continue
	}
	start=$(date +%s)
	line=$("$top_builddir/smquery" --db "$work/ft$r.db" route-check --engine adaptive \
		--traffic random --pairings "$pairings" | grep '^traffic model')
	say "3-level radix $r: $line [$(($(date +%s) - start)) s]"
done

say "-- a restarted daemon's AR SMPs (8,192 hosts, every switch AR-capable)"
sed 's/^Switch.*/& # ar/' "$work/ft32.topo" > "$work/ft32-ar.topo"
"$top_builddir/contrib/bench/bench_ar_restart" "$work/ft32-ar.topo" 2>&1 | tee -a "$out/patch.txt" ||
	say "bench_ar_restart: a bring-up failed (exit $?)"

say "-- fast link repair"
topo=${BENCH_PATCH_TOPO:-}
if [ -z "$topo" ]; then
	"$topogen" fattree --levels 3 --radix 48 | sed 's/^Switch.*/& # ar/' > "$work/ft48-ar.topo"
	topo=$work/ft48-ar.topo
fi
"$top_builddir/contrib/bench/bench_patch" "$topo" adaptive 2>&1 | tee -a "$out/patch.txt" ||
	say "bench_patch: the patch missed its targets (exit $?)"
