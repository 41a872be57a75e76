#!/bin/sh
# SPDX-License-Identifier: MIT
#
# port_list.sh - the port: list on the umad backend, under ibsim: libumad2sim
# gives the SM's node one CA port only (ibsim0:1; its port states are a
# snapshot, so no move can be seen here), which is enough to exercise how
# umad names, looks up and binds the ports of the list.
#  1. --port ibsim0:2,GUID: ibsim0:2 does not exist: exit 1, said why (a
#     port the configuration names that is not there is an error, issue 20
#     item 10); --port GUID: the GUID names ibsim0:1, and the subnet comes up
#     from it.
#  2. --port ibsim0:1: the port the backend opened already is not opened
#     twice (a second issm open is refused on hardware; libumad2sim crashed).
#  3. --port ibsim1:1,ibsim0:9: no CA ibsim1: exit 1, said why.
# Skips (77) when ibsim, libumad2sim.so or `unshare -n` is missing.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
make_workdir port_list
topo=$top_srcdir/tests/topo/dual-port-sm.topo

# once NAME PORTS: ibsmd --once on the SM's node, its output in $work/NAME.log
once()
{
	SIM_HOST=SM sh "$ibsim_ns" run "$topo" -- "$top_builddir/ibsmd" -c /dev/null \
		--db "$work/$1.db" --control-socket "" --port "$2" --once --foreground \
		>"$work/$1.log" 2>&1
}

once missing "ibsim0:2,0x0000000000100001" && fail "a missing port, and ibsmd --once succeeded"
grep -q "port: ibsim0:2 does not exist: umad: CA ibsim0 has no port 2" "$work/missing.log" ||
	fail "no word why ibsim0:2 stopped it: $(cat "$work/missing.log")"
once guid "0x0000000000100001" || fail "by GUID: exit $?: $(tail -5 "$work/guid.log")"
grep -q "subnet up" "$work/guid.log" || fail "by GUID: the subnet is not up"
echo "ok: a port GUID names the SM's port; a missing port is an error, with the reason"

once same "ibsim0:1" || fail "the port the backend opened: exit $?: $(tail -5 "$work/same.log")"
grep -q "subnet up" "$work/same.log" || fail "ibsim0:1: the subnet is not up"
echo "ok: the port the backend opened is taken as it is"

once none "ibsim1:1,ibsim0:9" && fail "no port of the list exists, and ibsmd --once succeeded"
grep -q "port: ibsim1:1 does not exist: umad: no CA named 'ibsim1' (CAs: ibsim0)" \
	"$work/none.log" || fail "the reason: $(cat "$work/none.log")"
echo "ok: with no port of the list there, the reason is said"
finish
