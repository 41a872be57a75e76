#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bringup.sh - `ibsmd --backend umad --once` brings real-looking fabrics up
# under ibsim, as judged by infiniband-diags (tools nobody here wrote).
#
# Fabrics: a 3-level radix-8 fat tree (128 hosts) and a 2-level radix-36 fat
# tree (648 hosts) from ibsmd-topogen, ibsim's net-examples, and the real
# clusters in tests/topo/real/ (HCAs cabled on port 2 only, trunks with a
# missing cable, the SM attached to a switch, an irregular mix).
# Flow, per fabric, in a network namespace of its own (`unshare -n`):
#  1. ibsim on the file; `ibsmd --once` on a fresh database exits 0;
#  2. from a CA that is not the SM's (SIM_HOST), `iblinkinfo`: every port
#     with a physical link (LinkUp) is Active, none is Disabled, every cabled
#     CA port and every switch has a LID, no LID is used twice;
#  3. `ibroute -n` on every switch by LID; walking those tables over the
#     links iblinkinfo saw, from every switch to every CA LID, ends on the CA
#     that owns the LID without a loop or a hole;
#  4. `ibtracert` between a sample of CA pairs succeeds and ends at the
#     destination;
#  5. a second `ibsmd --once` on the same database exits 0, keeps every LID
#     (iblinkinfo before and after) and sends no LFT block: its LFT-phase SMPs
#     (the last sweep's "lft" count in `smquery --json sweeps`) are only the
#     one-block checks a new process makes against the store.
# Skips (77) when ibsim, libumad2sim.so, `unshare -n` or infiniband-diags is
# missing.  BRINGUP_KEEP=1 keeps the work directory (its path is printed).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
ibsmd=$top_builddir/ibsmd
smquery=$top_builddir/smquery
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
examples=/usr/share/doc/ibsim-utils/net-examples

# ---------------------------------------------------------------------------
# Readers of the tools' output, in awk.

# iblinkinfo (default format) -> one line per port:
#   TYPE KEY LID PORT STATE PHYS PEERLID PEERPORT
# TYPE is SW or CA; KEY the switch GUID or the CA port GUID; PEERLID and
# PEERPORT are "-" when iblinkinfo shows no peer.
links_table()
{
	awk '
	/^Switch:/ { type = "SW"; key = $2; next }
	/^CA:/ { type = "CA"; next }
	/==\(.*\)==>/ {
		i = index($0, "==(")
		pre = substr($0, 1, i - 1)
		mid = substr($0, i + 3)
		j = index(mid, ")==>")
		post = substr(mid, j + 4)
		mid = substr(mid, 1, j - 1)
		n = split(pre, a, " ")
		if (type == "CA") { key = a[1]; lid = a[2]; port = a[3] }
		else { lid = a[1]; port = a[2] }
		sub(/\[.*/, "", port)
		state = mid; sub(/\/.*/, "", state)
		m = split(state, b, " "); state = b[m]
		phys = mid; sub(/.*\//, "", phys); gsub(/ /, "", phys)
		p = post; sub(/".*/, "", p)
		k = split(p, c, " ")
		if (k >= 2 && c[2] ~ /^[0-9]+\[/) {
			plid = c[1]; pport = c[2]; sub(/\[.*/, "", pport)
		} else {
			plid = "-"; pport = "-"
		}
		print type, key, lid, port, state, phys, plid, pport
	}' "$1"
}

# Port problems in a links table (step 2), one line each; no output if fine.
links_problems()
{
	awk '
	$6 == "LinkUp" && $5 != "Active" {
		print "port " $2 " (lid " $3 ") port " $4 " is " $5 " on a cabled link"
	}
	$6 == "Disabled" {
		print "port " $2 " (lid " $3 ") port " $4 " is Disabled"
	}
	$1 == "CA" && $6 == "LinkUp" && $3 == 0 {
		print "CA port " $2 " port " $4 " has no LID"
	}
	$1 == "SW" && !($2 in swseen) {
		swseen[$2] = 1
		if ($3 == 0) print "switch " $2 " has no LID"
		else if ($3 in owner) print "LID " $3 " used by " owner[$3] " and " $2
		else owner[$3] = $2
	}
	$1 == "CA" && $6 == "LinkUp" && $3 != 0 {
		if ($3 in owner) print "LID " $3 " used by " owner[$3] " and " $2
		else owner[$3] = $2
	}' "$1"
}

# The LIDs of one kind in a links table: switch LIDs, or cabled CA port LIDs.
switch_lids() { awk '$1 == "SW" && $3 != 0 && !seen[$3]++ { print $3 }' "$1"; }
ca_lids() { awk '$1 == "CA" && $6 == "LinkUp" && $3 != 0 { print $3 }' "$1"; }

# "KEY LID" for every switch and cabled CA port, sorted: what must not move.
lid_map()
{
	awk '($1 == "SW" || $6 == "LinkUp") && !seen[$2]++ { print $2, $3 }' "$1" | sort
}

# Step 3.  $1: links table; $2: the concatenated `ibroute -n` dumps.
# Prints one line per broken (switch, CA LID) walk, then a summary line
# "walked N routes" on success.
walk_routes()
{
	awk '
	function hex(s,    v, i, c) {
		v = 0; s = tolower(substr(s, 3))
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	FNR == NR {
		if ($1 == "SW" && $3 != 0) {
			sw[$3] = 1
			if ($6 == "LinkUp" && $7 != "-") peer[$3, $4] = $7
		}
		if ($1 == "CA" && $6 == "LinkUp" && $3 != 0) ca[$3] = 1
		next
	}
	/^Unicast lids/ {
		cur = $0; sub(/.*switch Lid /, "", cur); sub(/ .*/, "", cur)
		dumped[cur] = 1
		next
	}
	/^0x[0-9a-fA-F]+ [0-9]+/ { lft[cur, hex($1)] = $2 + 0 }
	END {
		nsw = 0
		for (s in sw) nsw++
		for (s in sw) {
			if (!(s in dumped)) {
				print "no ibroute dump for switch LID " s; bad++
				continue
			}
			for (d in ca) {
				at = s; hops = 0; walks++
				while (1) {
					if (!((at, d) in lft)) {
						why = "switch " at " has no entry"; break
					}
					p = lft[at, d]
					if (!((at, p) in peer)) {
						why = "switch " at " sends it to port " p ", which has no peer"
						break
					}
					nx = peer[at, p]
					if (nx in sw) {
						if (++hops > nsw) { why = "loop"; break }
						at = nx
						continue
					}
					why = nx == d ? "" : "it ends at CA LID " nx
					break
				}
				if (why != "") {
					if (++bad <= 20)
						print "route from switch " s " to LID " d ": " why
				}
			}
		}
		if (bad > 20) print "... " bad " broken routes in all"
		if (!bad) print "walked " walks " routes"
	}' "$1" "$2"
}

# Up to $2 "SRC DST" pairs of distinct CA LIDs from the list in $1, spread
# over the fabric (the second half of the list against the first).
sample_pairs()
{
	sort -n "$1" | awk -v want="$2" '
	{ l[n++] = $1 }
	END {
		if (n < 2) exit
		step = n > want ? n / want : 1
		for (i = 0; i < want && i < n; i++) {
			a = int(i * step); b = int(a + n / 2 + i) % n
			if (a != b) print l[a], l[b]
		}
	}'
}

# The last sweep's SMP count of one phase in `smquery --json sweeps`.
last_sweep_smps()
{
	grep -o '"smps":{[^}]*}' "$1" | tail -n 1 | grep -o "\"$2\":[0-9]*" |
		cut -d: -f2
}

# A CA of the net file that has port 1 cabled, from the middle of the file:
# the tools attach there (ibsim's SIM_HOST), away from the SM.
pick_host()
{
	awk '
	function quoted(s) { sub(/^[^"]*"/, "", s); sub(/".*/, "", s); return s }
	/^(Hca|Ca)[ \t]/ { cur = quoted($0); next }
	/^[A-Za-z]/ { cur = "" }
	/^\[1\]/ && cur != "" { l[n++] = cur; cur = "" }
	END { if (n) print l[int(n / 2)] }' "$1"
}

# ---------------------------------------------------------------------------
# One fabric, inside its own network namespace.

fail()
{
	echo "FAIL: $name: $*"
	failed=1
}

# Run ibsmd --once; $1: run number.  Leaves its log in $dir/run$1.log.
run_sm()
{
	ibsim_client timeout "${BRINGUP_SM_TIMEOUT:-120}" "$ibsmd" --backend umad \
		--db "$dir/db" --once 2>"$dir/run$1.log" >&2
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "ibsmd --once (run $1) exited $rc:"
		tail -n 15 "$dir/run$1.log"
		return 1
	fi
	return 0
}

# The tools, attached at $host.
diag() { SIM_HOST=$host ibsim_client timeout 60 "$@"; }

check_links()
{
	diag iblinkinfo >"$dir/iblinkinfo$1.txt" 2>"$dir/iblinkinfo$1.err" ||
		{ fail "iblinkinfo failed: $(tail -n 3 "$dir/iblinkinfo$1.err")"; return 1; }
	links_table "$dir/iblinkinfo$1.txt" >"$dir/links$1"
	if [ ! -s "$dir/links$1" ]; then
		fail "iblinkinfo printed no ports"
		return 1
	fi
	links_problems "$dir/links$1" >"$dir/problems$1"
	if [ -s "$dir/problems$1" ]; then
		fail "iblinkinfo after run $1: $(wc -l <"$dir/problems$1") problems:"
		head -n 20 "$dir/problems$1"
	fi
	return 0
}

check_routes()
{
	: >"$dir/ibroute.txt"
	for lid in $(switch_lids "$dir/links1"); do
		diag ibroute -n "$lid" >>"$dir/ibroute.txt" 2>>"$dir/ibroute.err" ||
			fail "ibroute -n $lid failed"
	done
	walk_routes "$dir/links1" "$dir/ibroute.txt" >"$dir/walk"
	if grep -q '^walked ' "$dir/walk"; then
		walked=$(cut -d' ' -f2 "$dir/walk")
	else
		fail "the LFTs read back with ibroute do not deliver:"
		cat "$dir/walk"
	fi
}

check_tracert()
{
	ca_lids "$dir/links1" >"$dir/ca-lids"
	sample_pairs "$dir/ca-lids" "${BRINGUP_TRACERTS:-12}" >"$dir/pairs"
	traced=0
	while read -r src dst; do
		if ! diag ibtracert "$src" "$dst" >"$dir/tracert" 2>&1 ||
			! tail -n 1 "$dir/tracert" | grep -q "^To ca .* lid $dst-"; then
			fail "ibtracert $src $dst:"
			cat "$dir/tracert"
		fi
		traced=$((traced + 1))
	done <"$dir/pairs"
	[ "$traced" -gt 0 ] || fail "no CA pair to trace"
}

check_second_run()
{
	run_sm 2 || return 1
	check_links 2 || return 1
	lid_map "$dir/links1" >"$dir/lids1"
	lid_map "$dir/links2" >"$dir/lids2"
	if ! diff "$dir/lids1" "$dir/lids2" >"$dir/lids.diff"; then
		fail "LIDs moved on the second run (KEY LID, before < > after):"
		head -n 20 "$dir/lids.diff"
	fi
	"$smquery" --db "$dir/db" --json sweeps >"$dir/sweeps.json" 2>&1 ||
		{ fail "smquery sweeps: $(cat "$dir/sweeps.json")"; return 1; }
	lft2=$(last_sweep_smps "$dir/sweeps.json" lft)
	# a new process checks one block per switch against the store, nothing more
	blocks2=$(sed -n 's/.*programming: .*, \([0-9]*\) LFT blocks (.*/\1/p' "$dir/run2.log")
	reads2=$(sed -n 's/.*LFT blocks (\([0-9]*\) read back).*/\1/p' "$dir/run2.log")
	if [ -z "$lft2" ] || [ -z "$blocks2" ] || [ -z "$reads2" ]; then
		fail "no lft SMP count in smquery --json sweeps or the log: $(cat "$dir/sweeps.json")"
	elif [ "$blocks2" -ne 0 ] || [ "$lft2" -ne "$reads2" ]; then
		fail "the second run sent $blocks2 LFT blocks, $lft2 LFT-phase SMPs for $reads2 reads (want 0 blocks, reads only):"
		grep 'programming:' "$dir/run2.log"
	fi
}

fabric_inside()
{
	name=$1 netfile=$2 dir=$3
	shift 3
	failed=0
	# shellcheck source=../../contrib/ibsim/ibsim-ns.sh
	. "$ibsim_ns"
	ibsim_start "$netfile" "$@" || { echo "FAIL: $name: ibsim did not start"; return 1; }
	host=$(pick_host "$netfile")
	t0=$(date +%s.%N)
	walked=0 traced=0 blocks2=? lft2=?
	# A failed first run is reported; what the tools see then tells more.
	run_sm 1
	check_links 1 && check_routes && check_tracert && check_second_run
	ibsim_stop
	up=$(grep -o 'subnet up in [0-9]* ms.*' "$dir/run1.log" | head -n 1)
	printf '%s: %s; tools at %s: %s routes walked, %s ibtracert, second run %s LFT blocks (%s checks) (%.1f s in all)\n' \
		"$name" "${up:-no subnet up}" "$host" "$walked" "$traced" "$blocks2" "$lft2" \
		"$(awk "BEGIN { print $(date +%s.%N) - $t0 }")"
	return $failed
}

if [ "${1:-}" = __inside ]; then
	shift
	fabric_inside "$@"
	exit $?
fi

# ---------------------------------------------------------------------------
# Outside: pick the fabrics, run each in a fresh namespace.

need_ibsim
for tool in iblinkinfo ibroute ibtracert; do
	need_cmd $tool "Debian package infiniband-diags"
done
for prog in "$ibsmd" "$smquery" "$topogen"; do
	[ -x "$prog" ] || skip "$prog is not built"
done

make_workdir bringup BRINGUP_KEEP

# "NAME FILE" per fabric.
fabrics()
{
	"$topogen" fattree --levels 3 --radix 8 -o "$work/fattree-3-8.net" &&
		echo "fattree-3-8 $work/fattree-3-8.net"
	"$topogen" fattree --levels 2 --radix 36 -o "$work/fattree-2-36.net" &&
		echo "fattree-2-36 $work/fattree-2-36.net"
	for f in "$examples/net.2sw2path4hca" "$examples/net.2sw2path4hca2port" \
		"$top_srcdir"/tests/topo/real/*.topo; do
		[ -f "$f" ] && echo "$(basename "$f") $f"
	done
}

# ibsim's limits from the generator's header ("# ibsim limits: -N ..."), if any.
ibsim_limits() { sed -n 's/^# ibsim limits: //p' "$1" | head -n 1; }

fabrics >"$work/list" || { echo "ERROR: ibsmd-topogen failed"; exit 99; }
status=0
while read -r name file; do
	mkdir -p "$work/$name"
	# shellcheck disable=SC2046 # the limits are words
	unshare -n /bin/sh "$0" __inside "$name" "$file" "$work/$name" $(ibsim_limits "$file") \
		</dev/null || status=1
done <"$work/list"
exit $status
