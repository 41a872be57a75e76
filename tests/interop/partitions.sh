#!/bin/sh
# SPDX-License-Identifier: MIT
#
# partitions.sh - partitions under ibsim, checked with infiniband-diags.
#
# On the bundled 2-level fat tree, in a network namespace of its own, ibsmd
# runs with a partitions file: the default partition with every port limited
# (the SM's stays full), blue = H1 and H2 full, red = H3 limited and H4 full.
#  - smpquery pkeys reads the P_KeyTables the hosts' ports now hold;
#  - saquery -p answers PathRecords with the partition both ends share (H1-H2
#    blue 0x8001, H4-H3 red as H4 holds it, 0x8002) and none between ports in
#    disjoint partitions (H1-H3);
#  - SIGHUP with a broken file logs FILE:LINE:COLUMN and keeps the running
#    partitions; SIGHUP with H2 taken out of blue reprograms H2's table.
# Skips (77) where ibsim, infiniband-diags or `unshare -n` is missing.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_ibsim
need_cmd saquery infiniband-diags
need_cmd smpquery infiniband-diags
make_workdir partitions

unshare -n sh -s <<'INNER'
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
ibsim_daemon_setup
q() { SIM_HOST=H31 ibsim_client timeout 10 "$@" 2>&1; }
lid() { SIM_HOST=$1 ibsim_client ibaddr | sed -n 's/.*LID start 0x\([0-9a-f]*\) .*/\1/p'; }
# the first two P_Keys of host $1's port, "0x7fff 0x8001"
pkeys() { q smpquery pkeys "$((0x$(lid "$1")))" 1 | sed -n 's/^ *0: \([^ ]*\) \([^ ]*\) .*/\1 \2/p'; }
path_pkey() { q saquery -p --slid "$((0x$(lid "$1")))" --dlid "$((0x$(lid "$2")))" |
	sed -n 's/^[[:space:]]*pkey\.*//p'; }
write_parts() {
	cat >"$work/parts.yaml" <<YAML
partitions:
  - name: default
    pkey: 0x7fff
    members: {all: limited}
  - name: blue
    pkey: 0x0001
    members: {H1: full$1}
  - name: red
    pkey: 0x0002
    members: {H3: limited, H4: full}
YAML
}
write_parts ", H2: full"
echo "partitions: $work/parts.yaml" >"$work/ibsmd.yaml"

ibsim_start "$fabric" || exit 3
ibsmd_ibsim_start -c "$work/ibsmd.yaml"

for want in "H1 0x7fff 0x8001" "H2 0x7fff 0x8001" "H3 0x7fff 0x0002" "H4 0x7fff 0x8002" \
	    "H5 0x7fff 0x0000"; do
	set -- $want
	[ "$(pkeys "$1")" = "$2 $3" ] || fail "$1's P_KeyTable: '$(pkeys "$1")', want '$2 $3'"
done
echo "ok: smpquery pkeys: H1, H2 blue full, H3 red limited, H4 red full, all default limited"

[ "$(path_pkey H1 H2)" = 0x8001 ] || fail "PathRecord H1 -> H2: '$(path_pkey H1 H2)'"
[ "$(path_pkey H4 H3)" = 0x8002 ] || fail "PathRecord H4 -> H3: '$(path_pkey H4 H3)'"
[ "$(path_pkey H3 H4)" = 0x2 ] || fail "PathRecord H3 -> H4: '$(path_pkey H3 H4)'"
[ -z "$(path_pkey H1 H3)" ] || fail "PathRecord H1 -> H3 in disjoint partitions: $(path_pkey H1 H3)"
[ -z "$(path_pkey H5 H6)" ] || fail "PathRecord H5 -> H6, both limited: $(path_pkey H5 H6)"
[ "$(path_pkey H5 H0)" = 0x7FFF ] || fail "PathRecord H5 -> the SM's port: $(path_pkey H5 H0)"
echo "ok: saquery -p: blue 0x8001, red 0x8002/0x2, no path between disjoint partitions"

printf 'partitions:\n  - name: x\n    pkey: 0\n' >"$work/parts.yaml"
kill -HUP "$sm"
wait_for_log "$log" "parts.yaml:3:11: pkey: 0x0000 is the invalid P_Key" 1 ||
	fail "SIGHUP with a broken file: no FILE:LINE:COLUMN"
grep -q "the running partitions are kept" "$log" || fail "SIGHUP: running partitions not kept"
[ "$(path_pkey H1 H2)" = 0x8001 ] || fail "after a broken file, H1 -> H2: '$(path_pkey H1 H2)'"
echo "ok: SIGHUP with a broken file: logged at 3:11, blue still answers"

write_parts ""
kill -HUP "$sm"
wait_for_log "$log" "subnet up" 2 || fail "SIGHUP with new partitions: no resweep"
[ "$(pkeys H2)" = "0x7fff 0x0000" ] || fail "H2 out of blue: '$(pkeys H2)'"
[ -z "$(path_pkey H1 H2)" ] || fail "H1 -> H2 after H2 left blue: $(path_pkey H1 H2)"
echo "ok: SIGHUP with H2 out of blue: its table reprogrammed, no path H1 -> H2"

kill -TERM "$sm"
wait "$sm"
rc=$?
ibsim_stop
[ "$rc" = 0 ] || { echo "FAIL: ibsmd exited $rc on SIGTERM"; tail -n 5 "$log"; exit 1; }
INNER
