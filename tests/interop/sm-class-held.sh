#!/bin/sh
# SPDX-License-Identifier: MIT
#
# sm-class-held.sh - when another SM holds the SM class on the port, the umad
# backend says so: under ibsim, with umad_register() failing as libibumad's
# does then (tests/umad_sm_held.c, preloaded before libumad2sim.so: errno
# EINVAL, return -EPERM), `ibsmd --once` exits 1 and its message names the
# likely cause rather than "Operation not permitted".  Skips (77) without
# ibsim.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
helper=$top_srcdir/contrib/ibsim/ibsim-ns.sh
held=$top_builddir/tests/.libs/umad_sm_held.so
"$helper" check || exit 77
[ -f "$held" ] || { echo "FAIL: $held is not built"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/smheld.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

unshare -n sh -s "$helper" "$top_srcdir" "$top_builddir" "$work" "$held" <<'INNER'
helper=$1 top_srcdir=$2 top_builddir=$3 work=$4 held=$5
. "$helper"
ibsim_start "$top_srcdir/contrib/fabrics/fattree-2l-r8.topo" || exit 1
(cd "$IBSIM_DIR" && LD_PRELOAD="$held $IBSIM_PRELOAD" exec "$top_builddir/ibsmd" \
	--backend umad --db "$work/sm.db" --once) >"$work/out" 2>&1
rc=$?
ibsim_stop
cat "$work/out"
[ "$rc" = 1 ] || { echo "FAIL: ibsmd --once exited $rc, not 1"; exit 1; }
grep -q "another SM may hold the SM class on this port" "$work/out" ||
	{ echo "FAIL: the message does not name another SM"; exit 1; }
echo "ok: a held SM class is reported as such"
INNER
