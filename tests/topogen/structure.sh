#!/bin/sh
# SPDX-License-Identifier: MIT
# structure.sh - counts of hosts, switches and links of generated fabrics
# against the formulas of ibsmd-topogen(1), and netcheck.awk's structural checks
# (links listed on both ends, host order, unique names and GUIDs, connected).
# Also makes sure netcheck.awk itself rejects broken files.
set -u
gen="$top_builddir/contrib/topogen/ibsmd-topogen"
check="$top_srcdir/tests/topogen/netcheck.awk"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect HOSTS SWITCHES LINKS HOSTS_PER_EDGE_SWITCH -- ARGS...
expect() {
	h=$1 s=$2 l=$3 d=$4; shift 5
	if ! "$gen" "$@" > "$tmp/f.net"; then
		echo "FAIL $*: exit $?"; fail=1; return
	fi
	got=$(awk -v hps="$d" -f "$check" "$tmp/f.net")
	if [ $? -ne 0 ] || [ "$got" != "hosts=$h switches=$s links=$l" ]; then
		echo "FAIL $*: want hosts=$h switches=$s links=$l, got:"; echo "$got" | head -10; fail=1
	else
		echo "ok $*: $got"
	fi
}

# 3 levels, radix K: K^3/4 hosts, 5K^2/4 switches, 3K^3/4 links.
for k in 8 16 32 48; do
	expect $((k*k*k/4)) $((5*k*k/4)) $((3*k*k*k/4)) $((k/2)) -- fattree --levels 3 --radix $k
done
# 2 levels, radix K: K^2/2 hosts, 3K/2 switches, K^2 links.
for k in 4 36; do
	expect $((k*k/2)) $((3*k/2)) $((k*k)) $((k/2)) -- fattree --levels 2 --radix $k
done
# 3-level radix 48: pods of leaves and aggregation switches, cores.
"$gen" fattree --levels 3 --radix 48 > "$tmp/f.net"
n=$(grep -c '^Switch 48 "L[0-9]*\.[0-9]*"$' "$tmp/f.net")/$(grep -c '^Switch 48 "A' "$tmp/f.net")/$(grep -c '^Switch 48 "C' "$tmp/f.net")
if [ "$n" = 1152/1152/576 ]; then echo "ok radix 48 leaves/aggs/cores $n"; else echo "FAIL radix 48 leaves/aggs/cores $n"; fail=1; fi
# Oversubscribed 2:1: radix 36 leaves get 24 hosts and 12 spines; radix 12 3-level:
# 12 pods of 6 leaves (8 hosts each) and 4 aggs, 4*6 cores.
expect 864 48 1296 24 -- fattree --levels 2 --radix 36 --oversubscription 2:1
expect 576 144 1152 8 -- fattree --levels 3 --radix 12 --oversubscription 2:1
# Tori: N hosts per switch plus one link per switch and dimension.
expect 64 64 256 1 -- torus --dims 4x4x4
expect 24 12 48 2 -- torus --dims 3x4 --hosts-per-switch 2
expect 4 4 12 1 -- torus --dims 2x2
# Mesh 3x5: 15 host links, 2*5 + 3*4 switch links.
expect 15 15 37 1 -- mesh --dims 3x5
expect 7 7 13 1 -- mesh --dims 7
# Dragonfly: G*A*P hosts, G*A routers, G*A(A-1)/2 local + G(G-1)/2 global links.
expect 72 36 162 2 -- dragonfly
expect 30 15 55 2 -- dragonfly --groups 5 --routers 3 --hosts-per-router 2 --global-links 2
# Link removal: floor(PCT% of the switch links) go, the fabric stays connected.
expect 1024 320 2458 8 -- fattree --levels 3 --radix 16 --remove-links 30 --seed 5
expect 64 64 160 1 -- torus --dims 4x4x4 --remove-links 50 --seed 9
expect 27648 2880 77415 24 -- fattree --levels 3 --radix 48 --remove-links 10 --seed 7

# Same seed, same file; another seed, other links.
"$gen" fattree --levels 3 --radix 8 --remove-links 20 --seed 11 > "$tmp/a"
"$gen" fattree --levels 3 --radix 8 --remove-links 20 --seed 11 > "$tmp/b"
"$gen" fattree --levels 3 --radix 8 --remove-links 20 --seed 12 > "$tmp/c"
if cmp -s "$tmp/a" "$tmp/b" && ! cmp -s "$tmp/a" "$tmp/c"; then
	echo "ok removal is deterministic per seed"
else
	echo "FAIL removal is not deterministic per seed"; fail=1
fi

# netcheck.awk must catch broken files.
"$gen" fattree --levels 2 --radix 4 > "$tmp/good.net"
broken() {
	what=$1 want=$2; shift 2
	sed "$@" "$tmp/good.net" > "$tmp/bad.net"
	if awk -v hps=2 -f "$check" "$tmp/bad.net" > "$tmp/out"; then
		echo "FAIL netcheck accepted: $what"; fail=1
	elif ! grep -q "$want" "$tmp/out"; then
		echo "FAIL netcheck rejected $what for another reason:"; cat "$tmp/out"; fail=1
	else
		echo "ok netcheck rejects $what: $(grep "$want" "$tmp/out" | head -1)"
	fi
}
broken "a link listed on one end" "not listed back" -e '/^\[3\] "S0"\[1\]$/d'
broken "a wrong peer port" "not listed back" -e 's/^\[4\] "S1"\[1\]$/[4] "S1"[2]/'
broken "hosts out of order" "H1 on port 1 of L1" \
	-e 's/"H1"/"Hx"/g' -e 's/"H2"/"H1"/g' -e 's/"Hx"/"H2"/g'
broken "a duplicate GUID" "duplicate GUID" \
	-e 's/^caguid=0x0200000100000010$/caguid=0x0200000100000000/'
broken "wrong header counts" "header says" -e 's/^# 8 hosts/# 9 hosts/'
broken "a first record other than H0" "not H0" -e 's/"H0"/"Hz"/g'
broken "a disconnected fabric" "disconnected" -e '/^\[[34]\] "S[01]"\[1\]$/d' \
	-e '/^\[1\] "L0"\[[34]\]$/d'
exit $fail
