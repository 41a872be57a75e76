#!/bin/sh
# SPDX-License-Identifier: MIT
# args.sh - bad arguments: exit status 2, a message naming the problem and the
# usage on stderr, nothing on stdout.  --help: usage on stdout, status 0.  An
# unwritable -o FILE: status 1.
set -u
gen="$top_builddir/contrib/topogen/ibsmd-topogen"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# expected message fragment | arguments
cases='
no shape|
unknown shape|ring --dims 4
--levels must be 2 or 3|fattree --levels 4 --radix 8
--levels must be 2 or 3|fattree --radix 8
--radix must be even|fattree --levels 2 --radix 7
--radix must be even|fattree --levels 3 --radix 2
--radix must be even|fattree --levels 2 --radix 256
bad value|fattree --levels 2 --radix -4
bad value|fattree --levels two --radix 4
unicast LIDs|fattree --levels 3 --radix 64
does not split|fattree --levels 2 --radix 8 --oversubscription 2:1
bad value|fattree --levels 2 --radix 8 --oversubscription 2
does not apply to fattree|fattree --levels 2 --radix 8 --dims 2x2
does not apply to torus|torus --dims 2x2 --radix 8
does not apply to mesh|mesh --dims 2x2 --groups 3
needs --dims|torus
at least 2|torus --dims 4x1
bad value|torus --dims 4xx4
bad value|mesh --dims 4x
bad value|mesh --dims 0x3
bad value|mesh --dims 1x2x3x4x5x6x7x8x9
at most 254|torus --dims 4x4 --hosts-per-switch 251
--groups must be between 2|dragonfly --groups 10
--groups must be between 2|dragonfly --groups 1
(a percentage, 0 to 100)|fattree --levels 2 --radix 4 --remove-links 101
(a percentage, 0 to 100)|fattree --levels 2 --radix 4 --remove-links -1
(a percentage, 0 to 100)|fattree --levels 2 --radix 4 --remove-links 5%
without disconnecting|fattree --levels 2 --radix 4 --remove-links 60
--seed only goes with --remove-links|fattree --levels 2 --radix 4 --seed 3
bad value|fattree --levels 2 --radix 4 --remove-links 5 --seed x
--rails must be 2 to 64 and divide|fattree --levels 2 --radix 8 --rails 3
--rails must be 2 to 64 and divide|fattree --levels 3 --radix 8 --rails 8
bad value|fattree --levels 2 --radix 8 --rails 0
--miswire only goes with --rails|fattree --levels 2 --radix 8 --miswire 1:0
names no HCA|fattree --levels 2 --radix 8 --rails 4 --miswire 8:0
names no HCA|fattree --levels 2 --radix 8 --rails 4 --miswire 1:4
bad value|fattree --levels 2 --radix 8 --rails 4 --miswire 1
bad value|fattree --levels 2 --radix 8 --rails 4 --miswire -1:0
does not apply to torus|torus --dims 2x2 --rails 2
bad or incomplete option|fattree --levels 2 --radix 4 --bogus
bad or incomplete option|fattree --levels 2 --radix
unexpected argument|mesh --dims 2 extra
'

echo "$cases" | while IFS='|' read -r want args; do
	[ -n "$want" ] || continue
	# shellcheck disable=SC2086
	"$gen" $args > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 2 ] || [ -s "$tmp/out" ] || ! grep -qF -- "$want" "$tmp/err" ||
	   ! grep -q '^usage: ibsmd-topogen' "$tmp/err"; then
		echo "FAIL '$args': status $rc, stderr:"; cat "$tmp/err"; echo x >> "$tmp/failed"
	else
		echo "ok '$args': $(head -1 "$tmp/err")"
	fi
done
[ -e "$tmp/failed" ] && fail=1

if "$gen" --help > "$tmp/out" && grep -q '^usage: ibsmd-topogen' "$tmp/out"; then
	echo "ok --help"
else
	echo "FAIL --help"; fail=1
fi
"$gen" mesh --dims 2 -o "$tmp/no/such/dir/x.net" 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'x.net' "$tmp/err"; then echo "ok unwritable -o"; else echo "FAIL unwritable -o: status $rc"; fail=1; fi
exit $fail
