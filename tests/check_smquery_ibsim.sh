#!/bin/sh
# SPDX-License-Identifier: MIT
# check_smquery_ibsim.sh - ibsim loads what `smquery topology` prints, and
# ibnetdiscover, run on that simulated fabric, finds the same nodes, port
# counts, descriptions and links.  Each ibsim runs in its own network namespace
# (abstract sockets) from a temporary directory (libumad2sim's sys-<pid>/).
# Skips (77) without ibsim, ibnetdiscover, libumad2sim, or root for unshare -n.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
SMQ="$top_builddir/smquery"
MKDB="$top_builddir/tests/check_smquery_mkdb"
need_ibsim
need_cmd ibnetdiscover infiniband-diags
# shellcheck source=contrib/ibsim/ibsim-ns.sh
. "$ibsim_ns"
UMAD2SIM=$(ibsim_find_preload)
make_workdir check_smquery_ibsim
tmp=$work

# discover NETFILE OUT: ibsim serves NETFILE, ibnetdiscover writes OUT (run in a namespace)
cat > "$tmp/discover.sh" <<'EOS'
set -u
cd "$(dirname "$2")" || exit 99
mkfifo ibsim.in
sleep 60 > ibsim.in &
holder=$!
ibsim -s "$1" < ibsim.in > ibsim.log 2>&1 &
sim=$!
rc=1
for i in 1 2 3 4 5 6 7 8 9 10; do
	sleep 0.5
	if LD_PRELOAD="$UMAD2SIM" timeout 30 ibnetdiscover > "$2" 2> ibnd.err; then
		rc=0
		break
	fi
done
kill "$sim" "$holder" 2> /dev/null
wait "$sim" 2> /dev/null
[ "$rc" = 0 ] || { cat ibnd.err; tail -5 ibsim.log; }
exit "$rc"
EOS

check_fabric() {
	name=$1
	db=$2
	mkdir -p "$tmp/$name"
	"$SMQ" --db "$db" topology > "$tmp/$name/ours.topo" || { fail "smquery topology ($name)"; return; }
	if ! UMAD2SIM="$UMAD2SIM" timeout 120 unshare -n sh "$tmp/discover.sh" \
			"$tmp/$name/ours.topo" "$tmp/$name/ibnd.topo"; then
		fail "ibsim + ibnetdiscover on our topology of $name"
	elif ! "$MKDB" compare "$tmp/$name/ours.topo" "$tmp/$name/ibnd.topo"; then
		fail "ibnetdiscover sees another fabric than we printed ($name)"
	else
		echo "ok: $name: $(grep -c '^\[' "$tmp/$name/ibnd.topo") port lines rediscovered"
	fi
}

"$MKDB" small "$tmp/small.db" || exit 99
check_fabric small "$tmp/small.db"
for topo in "$top_srcdir"/tests/topo/real/*.topo; do
	[ -f "$topo" ] || continue
	base=$(basename "$topo" .topo)
	"$MKDB" file "$tmp/$base.db" "$topo" || exit 99
	check_fabric "$base" "$tmp/$base.db"
done
finish
