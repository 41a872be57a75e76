#!/bin/sh
# SPDX-License-Identifier: MIT
# check_smquery_map.sh - the pictures of the fabric smquery draws, on the
# bundled fabric (contrib/fabrics/fattree-2l-r8.topo) after `ibsmd --once` on
# the sim backend: `topology --format dot` against its golden file (and
# parsed by dot(1) where Graphviz is installed), a device description full of
# controls, and the option errors.
# GOLDEN_UPDATE=1 rewrites the golden files instead of comparing.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
SMQ="$top_builddir/smquery"
make_workdir check_smquery_map
tmp=$work
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo

# usage_error PATTERN ARGS...: exit 2, nothing on stdout, PATTERN on stderr
usage_error() {
	pattern=$1
	shift
	"$SMQ" --db "$tmp/ft.db" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" != 2 ] || [ -s "$tmp/out" ] || ! grep -q -- "$pattern" "$tmp/err"; then
		fail "smquery $*: exit $rc, stderr '$(cat "$tmp/err")'"
	fi
}

"$top_builddir/ibsmd" --backend "sim:$fabric" --db "$tmp/ft.db" --once > "$tmp/ibsmd.log" 2>&1 ||
	{ cat "$tmp/ibsmd.log"; exit 99; }

# Graphviz: spines ranked above leaves, every link once
if "$SMQ" --db "$tmp/ft.db" topology --format dot > "$tmp/topology.gv" 2> "$tmp/err"; then
	same_as_golden topology.gv "$tmp/topology.gv" "smquery topology --format dot"
	[ "$(grep -c ' -- ' "$tmp/topology.gv")" = 64 ] ||
		fail "topology --format dot: not 64 links"
	if command -v dot > /dev/null; then
		dot -Tsvg "$tmp/topology.gv" > "$tmp/topology.svg" 2> "$tmp/dot.err" &&
			[ ! -s "$tmp/dot.err" ] || fail "dot(1) on the graph: $(cat "$tmp/dot.err")"
	fi
else
	fail "smquery topology --format dot: $(cat "$tmp/err")"
fi
# a description with controls and bytes that are not UTF-8 stays inside its string
"$top_builddir/tests/check_smquery_mkdb" nasty "$tmp/nasty.db" || exit 99
"$SMQ" --db "$tmp/nasty.db" topology --format dot > "$tmp/nasty.gv" || fail "dot on nasty.db"
sed 's/\\\\//g; s/\\"//g' "$tmp/nasty.gv" | awk -F'"' 'NF % 2 == 0 { bad++ } END { exit bad > 0 }' ||
	fail "topology --format dot: a quote escapes its string: $(grep -i bad "$tmp/nasty.gv")"
"$SMQ" --db "$tmp/ft.db" topology --format ibnetdiscover > "$tmp/ibnd" &&
	"$SMQ" --db "$tmp/ft.db" topology | cmp -s - "$tmp/ibnd" ||
	fail "topology --format ibnetdiscover is not the default output"
usage_error "topology: bad --format 'svg' (ibnetdiscover or dot)" topology --format svg
usage_error "topology: unexpected '--format'" topology --format
usage_error "topology: unexpected 'dot'" topology dot x
usage_error "topology: --format dot has no --json form" --json topology --format dot

finish
