#!/bin/sh
# SPDX-License-Identifier: MIT
#
# reference.sh - the machine reference every absolute figure of `make bench`
# is read against: OpenSM's cold bring-up of the 1,024-host 3-level fat tree
# (radix 16) under ibsim, at its defaults (ftree, max_wire_smps 4), measured
# in the same run.  It was 1.73 s on the machine where the project began
# (DESIGN.md, "Reference figures"); a figure of T seconds measured beside a
# reference of R seconds compares with another machine's as T / R.
#
# Writes bench-out/reference.txt (BENCH_OUT): "reference_s=R", or nothing
# when ibsim or OpenSM is missing (then the figures stand alone).  Runs the
# bring-up BENCH_REF_RUNS times (default 3) and keeps the median.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
out=${BENCH_OUT:-$top_builddir/bench-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/reference.txt"
if ! command -v opensm >/dev/null 2>&1 || ! "$ibsim_ns" check >/dev/null 2>&1; then
	echo "reference: no OpenSM or no ibsim here: absolute figures stand alone"
	exit 0
fi
net=$out/reference-fattree-3-16.net
"$top_builddir/contrib/topogen/ibsmd-topogen" fattree --levels 3 --radix 16 -o "$net" || exit 1
limits=$(sed -n 's/^# ibsim limits: //p' "$net" | head -n 1)
runs=${BENCH_REF_RUNS:-3}
: > "$out/reference.walls"
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	rm -f "$out/opensm-ftree-w4.vars"
	# shellcheck disable=SC2086 # the limits are words
	unshare -n /bin/sh "$top_srcdir/contrib/bench/run.sh" __run opensm-ftree-w4 "$net" "$out" \
		$limits </dev/null || continue
	sed -n 's/^rc=0 wall=\([0-9.]*\) .*/\1/p' "$out/opensm-ftree-w4.vars" >> "$out/reference.walls"
done
ref=$(sort -n "$out/reference.walls" | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
if [ -z "$ref" ]; then
	echo "reference: OpenSM did not bring the 1,024-host tree up: absolute figures stand alone"
	exit 0
fi
echo "reference_s=$ref" > "$out/reference.txt"
echo "machine reference: OpenSM 3.3.23 (ftree, defaults) brings the 1,024-host 3-level tree up" \
	"under ibsim in $ref s here, median of $(wc -l < "$out/reference.walls")" \
	"(1.73 s where the project began): divide an absolute time by $ref to compare machines"
