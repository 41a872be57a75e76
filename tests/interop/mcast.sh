#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mcast.sh - multicast under ibsim, checked with infiniband-diags.
#
# On the bundled 2-level fat tree, in a network namespace of its own: start
# ibsmd, wait for "subnet up", then:
#  - saquery -g (MCMemberRecord GetTable) lists the IPoIB broadcast group of
#    the default partition, ff12:401b:ffff::ffff:ffff, on MLID 0xC000;
#  - hosts join a new group through the SA (tests/mcast_join: H3 creates it,
#    H7 and H29 join as full members, H20 as a non-member, H12 send-only), and
#    saquery MCMR lists each with its JoinState (one record a query: ibsim
#    has no RMPP);
#  - the MFTs ibroute -M reads from every switch form a tree: a packet
#    flooded from any member along them (the topology file's links) reaches
#    every receiving member exactly once and no other host;
#  - when the members leave, the group's MLID is gone from every MFT.
# Skips (77) where ibsim, infiniband-diags or `unshare -n` is missing.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd saquery infiniband-diags
need_cmd ibroute infiniband-diags
make_workdir mcast

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
ibsim_daemon_setup
q() { SIM_HOST=H31 ibsim_client timeout 10 "$@" 2>&1; }
mj() { h=$1; shift; SIM_HOST=$h ibsim_client timeout 10 "$top_builddir/tests/mcast_join" "$@" 2>&1; }
alive() { kill -0 "$sm" 2>/dev/null || fail "ibsmd died after: $1"; }

ibsim_start "$fabric" || exit 3
ibsmd_ibsim_start

out=$(q saquery -g)
alive "saquery -g"
echo "$out" | sed -n 2,3p | tr -d '\t' >"$work/g"
printf 'MGID....................ff12:401b:ffff::ffff:ffff\nMlid....................0xC000\n' |
	cmp -s - "$work/g" || fail "saquery -g: no IPoIB broadcast group first: $out"
echo "$out" | grep -q "pkey\.*0xFFFF" || fail "saquery -g: the broadcast group's P_Key: $out"
echo "ok: saquery -g lists the IPoIB broadcast group ff12:401b:ffff::ffff:ffff, MLID 0xC000"

out=$(mj H3 0)
alive "a join"
set -- $out
[ "${1:-}" = mgid ] || fail "H3 creating a group: $out"
mgid=$2 mlid=$4
for j in "H7 1" "H29 1" "H20 2" "H12 4"; do
	set -- $j
	out=$(mj "$1" "$mgid" "$2")
	echo "$out" | grep -q "mlid $mlid join $2" || fail "$1 joining $mgid with $2: $out"
done
echo "ok: H3 made $mgid (MLID $mlid); H7, H29 full, H20 non-member, H12 send-only joined"

for j in "H3 0x1" "H7 0x1" "H29 0x1" "H20 0x2" "H12 0x4"; do
	set -- $j
	gid=$(SIM_HOST=$1 ibsim_client ibaddr | awk '{print $2}')
	out=$(q saquery MCMR --mlid "$mlid" --gid "$gid")
	alive "saquery MCMR"
	echo "$out" | grep -q "JoinState\.*$2\$" || fail "$1 ($gid) in $mlid, JoinState $2: $out"
done
echo "ok: saquery MCMR --mlid $mlid --gid GID: each member with its JoinState"

# every switch's MFT entry for the MLID: "switch port" lines
mfts() {
	for lid in $(q ibswitches | sed -n 's/.* lid \([0-9]*\) .*/\1/p'); do
		q ibroute -M "$lid" | awk -v mlid="$1" '
			/^Multicast mlids/ { sw = $0; sub(/.*\(/, "", sw); sub(/\).*/, "", sw) }
			/^ *Ports:/ { for (i = 2; i <= NF; i++) col[i - 2] = index($0, " " $i " ") + 1 }
			tolower($1) == tolower(mlid) {
				for (p in col) if (substr($0, col[p], 1) == "x") print sw, p }'
	done
}
# flood from host $1 along the entries in $2: the hosts reached, one a line
flood() {
	awk -v from="$1" '
	FNR == NR { mft[$1 " " $2] = 1; next }
	/^(Switch|Hca)/ { node = $3; gsub(/"/, "", node); type[node] = $1 }
	/^\[[0-9]+\]/ {
		p = $1; gsub(/[^0-9]/, "", p)
		peer = $2; sub(/^"/, "", peer); pp = peer; sub(/".*/, "", peer)
		sub(/.*\[/, "", pp); sub(/\].*/, "", pp)
		link[node " " p] = peer " " pp
	}
	function go(sw, in_port, depth,    p, e, nb) {
		if (depth > 16) { print "LOOP"; return }
		for (p = 1; p <= 64; p++) {
			if (p == in_port || !((sw " " p) in mft)) continue
			split(link[sw " " p], nb, " ")
			if (type[nb[1]] == "Switch") go(nb[1], nb[2], depth + 1)
			else print nb[1]
		}
	}
	END { split(link[from " 1"], e, " "); go(e[1], e[2], 0) }
	' "$2" "$fabric" | sort
}
sleep 1	# the daemon programs the MFTs after the joins
mfts "$mlid" >"$work/mft"
[ -s "$work/mft" ] || fail "no switch forwards MLID $mlid: $(q ibroute -M 33)"
for h in H3 H7 H29 H20 H12; do
	want=$(printf '%s\n' H3 H7 H29 H20 | grep -vx "$h" | sort | tr '\n' ' ')
	got=$(flood "$h" "$work/mft" | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "from $h, MLID $mlid reaches '$got', want '$want': $(cat "$work/mft")"
done
echo "ok: ibroute -M: MLID $mlid on $(cut -d' ' -f1 "$work/mft" | sort -u | wc -l) switches; from every member it reaches exactly the receiving members, once each"

for j in "H3 1" "H7 1" "H29 1" "H20 2" "H12 4"; do
	set -- $j
	out=$(mj "$1" -l "$mgid" "$2")
	case $1 in H3|H7|H29) echo "$out" | grep -q "mlid $mlid" || fail "$1 leaving: $out";; esac
done
sleep 1
mfts "$mlid" >"$work/mft"
[ -s "$work/mft" ] && fail "MLID $mlid still forwarded after every member left: $(cat "$work/mft")"
out=$(q saquery -g)
echo "$out" | grep -q "$mlid" && fail "the group is still listed: $out"
alive "the leaves"
echo "ok: every member left: MLID $mlid gone from the MFTs and the SA"

kill -TERM "$sm"
wait "$sm"
rc=$?
ibsim_stop
[ "$rc" = 0 ] || { echo "FAIL: ibsmd exited $rc on SIGTERM"; tail -n 5 "$log"; exit 1; }
INNER
