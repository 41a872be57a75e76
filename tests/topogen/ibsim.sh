#!/bin/sh
# SPDX-License-Identifier: MIT
# ibsim.sh - ibsim loads what ibsmd-topogen writes, and ibnetdiscover (through
# libumad2sim) finds the same fabric: the same nodes with the same GUIDs and
# names, and the same links port for port.  Each ibsim runs in this test's own
# network namespace (unshare -n) from a temporary directory, is killed by PID,
# and every wait is bounded.  Skips (77) without ibsim, ibnetdiscover,
# libumad2sim or the right to unshare.
set -u
skip() { echo "SKIP: $*"; exit 77; }
command -v ibsim > /dev/null || skip "ibsim is not installed (Debian package ibsim-utils)"
command -v ibnetdiscover > /dev/null || skip "ibnetdiscover is not installed (infiniband-diags)"
preload=
for f in /usr/lib/*/umad2sim/libumad2sim.so /usr/lib/umad2sim/libumad2sim.so; do
	[ -e "$f" ] && preload=$f && break
done
[ -n "$preload" ] || skip "libumad2sim.so not found (ibsim-utils)"
if [ -z "${TOPOGEN_IN_NETNS:-}" ]; then
	unshare -n true 2> /dev/null || skip "cannot create a network namespace (unshare -n needs root)"
	TOPOGEN_IN_NETNS=1 exec unshare -n "$0" "$@"
fi

gen="$top_builddir/contrib/topogen/ibsmd-topogen"
canon="$top_srcdir/tests/topogen/canon.awk"
tmp=$(mktemp -d) || exit 99
pid=
trap '[ -n "$pid" ] && kill "$pid" 2> /dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 99
fail=0

# Load @args' fabric in ibsim, discover it, compare.
discover() {
	name=$1; shift
	"$gen" "$@" -o "$name.net" || { echo "FAIL $name: ibsmd-topogen $*"; fail=1; return; }
	limits=$(sed -n 's/^# ibsim limits: //p' "$name.net")
	rm -f cmd; mkfifo cmd
	# shellcheck disable=SC2086  # limits are words
	ibsim -s $limits "$name.net" < cmd > "$name.ibsim.log" 2>&1 &
	pid=$!
	exec 3> cmd	# keeps ibsim's console open
	i=0
	until grep -q '^sim>' "$name.ibsim.log"; do
		i=$((i + 1))
		if [ $i -gt 300 ] || ! kill -0 "$pid" 2> /dev/null; then
			echo "FAIL $name: ibsim did not come up:"; tail -5 "$name.ibsim.log"
			fail=1; kill "$pid" 2> /dev/null; exec 3>&-; pid=; return
		fi
		sleep 0.1
	done
	LD_PRELOAD=$preload timeout 120 ibnetdiscover > "$name.disc" 2> "$name.disc.err"
	rc=$?
	kill "$pid" 2> /dev/null; wait "$pid" 2> /dev/null; exec 3>&-; pid=
	awk -f "$canon" "$name.net" | sort > "$name.want"
	awk -f "$canon" "$name.disc" | sort > "$name.got"
	if [ $rc -ne 0 ] || ! grep -q '^port' "$name.want" || ! cmp -s "$name.want" "$name.got"; then
		echo "FAIL $name: ibnetdiscover (status $rc) differs from the file:"
		diff "$name.want" "$name.got" | head -10; head -5 "$name.disc.err"; fail=1
	else
		echo "ok $name ($limits): ibnetdiscover found $(grep -c '^node .* switch' "$name.got") switches," \
			"$(grep -c '^node .* ca' "$name.got") CAs, $(($(grep -c '^port' "$name.got") / 2)) links"
	fi
}

discover fattree8 fattree --levels 3 --radix 8
discover torus444 torus --dims 4x4x4
discover dragonfly dragonfly
discover degraded fattree --levels 3 --radix 8 --remove-links 25 --seed 4
exit $fail
