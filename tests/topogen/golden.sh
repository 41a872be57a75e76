#!/bin/sh
# SPDX-License-Identifier: MIT
# golden.sh - ibsmd-topogen's output for small fabrics, byte for byte against
# the files in tests/topogen/*.net (checked by hand; after an intended change,
# regenerate them with TOPOGEN_REGEN=1 and review the diff).  Also checks that
# -o FILE writes the same bytes as stdout.
set -u
gen="$top_builddir/contrib/topogen/ibsmd-topogen"
dir="$top_srcdir/tests/topogen"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# name: arguments
cases='
fattree-2-4: fattree --levels 2 --radix 4
fattree-3-4: fattree --levels 3 --radix 4
fattree-2-6-over: fattree --levels 2 --radix 6 --oversubscription 2:1
fattree-2-4-remove: fattree --levels 2 --radix 4 --remove-links 25 --seed 3
fattree-2-4-rails: fattree --levels 2 --radix 4 --rails 2
fattree-2-4-miswire: fattree --levels 2 --radix 4 --rails 2 --miswire 1:0
torus-2x2: torus --dims 2x2
torus-3-hosts2: torus --dims 3 --hosts-per-switch 2
mesh-2x3: mesh --dims 2x3
dragonfly-small: dragonfly --groups 3 --routers 2 --hosts-per-router 1 --global-links 1
'

echo "$cases" | while IFS=: read -r name args; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086  # args are words on purpose
	if ! "$gen" $args > "$tmp/$name.net"; then
		echo "FAIL $name: ibsmd-topogen$args exited $?"; echo x >> "$tmp/failed"; continue
	fi
	if [ "${TOPOGEN_REGEN:-0}" = 1 ]; then
		cp "$tmp/$name.net" "$dir/$name.net"; echo "regenerated $name"; continue
	fi
	if cmp -s "$tmp/$name.net" "$dir/$name.net"; then
		echo "ok $name"
	else
		echo "FAIL $name: output differs from $dir/$name.net:"
		diff -u "$dir/$name.net" "$tmp/$name.net" | head -20
		echo x >> "$tmp/failed"
	fi
done
[ -e "$tmp/failed" ] && fail=1

"$gen" torus --dims 2x2 -o "$tmp/o.net" || fail=1
if cmp -s "$tmp/o.net" "$dir/torus-2x2.net"; then echo "ok -o FILE"; else echo "FAIL -o FILE"; fail=1; fi
exit $fail
