#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cli_limits.sh - command-line paths too long for the configuration are
# refused with a clear error, never cut short: a --db cut at 511 characters
# would open (and create) another store than the one named.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir cli_limits

long=$work/$(head -c 600 /dev/zero | tr '\0' x)
for opt in db backend; do
	"$top_builddir/ibsmd" -c /dev/null "--$opt" "$long" --check-config >"$work/out" 2>&1
	rc=$?
	[ "$rc" -eq 2 ] || fail "--$opt of ${#long} characters: exit $rc, $(cat "$work/out")"
	grep -q "^ibsmd: --$opt: .*too long (at most 511 bytes)$" "$work/out" ||
		fail "--$opt of ${#long} characters: $(cat "$work/out")"
done
# at the limit it is taken as it is
ok=$work/$(head -c $((511 - ${#work} - 1)) /dev/zero | tr '\0' y)
"$top_builddir/ibsmd" -c /dev/null --db "$ok" --check-config >"$work/out" 2>&1 ||
	fail "--db of ${#ok} characters refused: $(cat "$work/out")"
finish
