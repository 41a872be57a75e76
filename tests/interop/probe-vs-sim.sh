#!/bin/sh
# SPDX-License-Identifier: MIT
#
# probe-vs-sim.sh - the umad backend under ibsim and the sim backend must see
# the same fabric.
#
# For each topology file (ibsim's net examples, the real-fabric fixtures in
# tests/topo/real, and a generated fat tree when ibsmd-topogen is
# built), run ibsim on it in a fresh network namespace and walk it with
# `mad_probe umad` (libumad2sim preloaded); then
#  1. compare nodes and links with what ibnetdiscover (a tool nobody here
#     wrote) sees on the same ibsim, and
#  2. diff the whole output (nodes, port counts, port states, links, attach
#     point) against `mad_probe sim:FILE` on the same file.
# Step 2 is skipped, with a note, while the sim backend cannot open a file.
# Then, on the first file, `mad_probe -l umad` must receive a SMInfo Get that
# sminfo sends it from another node, and sminfo must print its answer.
# Skips (77) when ibsim, libumad2sim.so or `unshare -n` is missing.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
probe=$top_builddir/tests/mad_probe
topogen=$top_builddir/contrib/topogen/ibsmd-topogen
[ -x "$topogen" ] || topogen=$top_builddir/ibsmd-topogen
examples=/usr/share/doc/ibsim-utils/net-examples

need_ibsim
[ -x "$probe" ] || skip "$probe is not built"
need_cmd ibnetdiscover "Debian package infiniband-diags"
make_workdir probe-vs-sim

# ibnetdiscover output -> the "node" and "link" lines of mad_probe's format.
# Nodes are named by description, or description@GUID where it repeats.
ibnd_canon()
{
	awk '
	function desc(line) {	# the first quoted string after "#"
		sub(/^[^#]*#[ \t]*"/, "", line); sub(/".*/, "", line); return line
	}
	function quoted(line) {	# the first quoted string
		sub(/^[^"]*"/, "", line); sub(/".*/, "", line); return line
	}
	function name(id) {
		return count[d[id]] > 1 ? "\"" d[id] "@" tolower(substr(id, 3)) "\"" : "\"" d[id] "\""
	}
	/^(Switch|Ca|Rt)[ \t]/ {
		id = quoted($0)
		if (NR == FNR) { d[id] = desc($0); count[d[id]]++; next }
		cur = id
		type = $1 == "Rt" ? "Router" : $1
		print "node " name(id) " " type " " $2
		next
	}
	/^\[/ && NR != FNR {
		lp = $0; sub(/^\[/, "", lp); sub(/\].*/, "", lp)
		peer = quoted($0)
		rp = $0; sub(/^[^"]*"[^"]*"\[/, "", rp); sub(/\].*/, "", rp)
		a = name(cur); b = name(peer)
		if (a < b || (a == b && lp + 0 < rp + 0))
			print "link " a "[" lp "] -- " b "[" rp "]"
	}' "$1" "$1" | sort
}

# The topology files, one per line.
topologies()
{
	for f in "$examples/net.2sw2path4hca" "$examples/net.2sw2path4hca2port"; do
		[ -f "$f" ] && echo "$f"
	done
	for f in "$top_srcdir"/tests/topo/real/*.topo; do
		[ -f "$f" ] && echo "$f"
	done
	if [ -x "$topogen" ] &&
		"$topogen" fattree --levels 2 --radix 8 -o "$work/fattree-2-8.net" >/dev/null 2>&1; then
		echo "$work/fattree-2-8.net"
	fi
}

# Does the sim backend open a file yet?  (It is being written alongside.)
sim_ready=yes
first=$(topologies | head -n 1)
"$probe" "sim:$first" >/dev/null 2>"$work/sim-check.err"
if [ $? -eq 2 ]; then
	sim_ready=no
	echo "NOTE: sim backend not usable yet ($(cat "$work/sim-check.err")):" \
		"comparing umad against ibnetdiscover only"
fi

count=0
for topo in $(topologies); do
	base=$work/$(basename "$topo")
	count=$((count + 1))
	t0=$(date +%s.%N)
	"$ibsim_ns" run "$topo" -- sh -c \
		'"$1" umad >"$2.umad" 2>"$2.umad.err"; echo $? >"$2.umad.rc";
		 ibnetdiscover >"$2.ibnd" 2>"$2.ibnd.err"' sh "$probe" "$base"
	rc=$?
	t1=$(date +%s.%N)
	if [ $rc -ne 0 ] || [ "$(cat "$base.umad.rc" 2>/dev/null)" != 0 ]; then
		fail "$topo: ibsim run $rc, mad_probe umad $(cat "$base.umad.rc" 2>/dev/null):"
		cat "$base.umad.err" 2>/dev/null
		continue
	fi
	echo "$topo: $(grep '^mad_probe:' "$base.umad.err") (with ibsim start/stop: $(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }") s)"

	grep -E '^(node|link) ' "$base.umad" >"$base.umad.nl"
	ibnd_canon "$base.ibnd" >"$base.ibnd.nl"
	if ! diff -u "$base.ibnd.nl" "$base.umad.nl" >"$base.ibnd.diff"; then
		fail "$topo: mad_probe umad and ibnetdiscover disagree:"
		head -n 40 "$base.ibnd.diff"
	fi
	[ $sim_ready = yes ] || continue

	# The sim attaches where ibsim does: SIM_HOST, else the file's first node.
	spec=sim:$topo
	[ -n "${SIM_HOST:-}" ] && spec="$spec,host=$SIM_HOST"
	if ! "$probe" "$spec" >"$base.sim" 2>"$base.sim.err"; then
		fail "$topo: mad_probe $spec:"
		cat "$base.sim.err"
		continue
	fi
	echo "$topo: $(cat "$base.sim.err")"
	if ! diff -u "$base.umad" "$base.sim" >"$base.sim.diff"; then
		fail "$topo: umad under ibsim and the sim backend disagree:"
		head -n 40 "$base.sim.diff"
	fi
done

# Unsolicited requests: sminfo at another node asks our port over DR.
sminfo_check()
{
	topo=$(topologies | head -n 1)
	case $topo in
	*/net.2sw2path4hca) ;;
	*) echo "NOTE: no net.2sw2path4hca: SMInfo check skipped"; return 0 ;;
	esac
	# mad_probe -l sits at Switch1 port 0; sminfo at Hca1 reaches it by 0,1.
	"$ibsim_ns" run "$topo" -- sh -c '
		"$1" -l umad >"$2.listen" 2>"$2.listen.err" &
		pid=$!
		i=0
		while ! grep -qs ready "$2.listen" && [ $i -lt 100 ]; do
			i=$((i + 1)); sleep 0.05
		done
		SIM_HOST=Hca1 timeout 20 sminfo -D 0,1 >"$2.sminfo" 2>"$2.sminfo.err"
		wait $pid' sh "$probe" "$work/sminfo"
	guid=$(sed -n 's/^answered SMInfo as //p' "$work/sminfo.listen")
	if [ -z "$guid" ] ||
		! grep -q "sm guid $guid, activity count 1 priority 5 state 2" "$work/sminfo.sminfo"; then
		fail "SMInfo Get over umad: listener said:"
		cat "$work/sminfo.listen" "$work/sminfo.listen.err"
		echo "sminfo said:"
		cat "$work/sminfo.sminfo" "$work/sminfo.sminfo.err"
		return 1
	fi
	echo "SMInfo: $(cat "$work/sminfo.sminfo")"
}
sminfo_check

[ $count -gt 0 ] || skip "no topology file found"
finish
