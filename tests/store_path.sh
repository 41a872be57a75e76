#!/bin/sh
# SPDX-License-Identifier: MIT
#
# store_path.sh - one path for the store and one for the control socket:
# smquery with no options looks where the installed ibsmd.yaml (etc/ibsmd.yaml,
# made from etc/ibsmd.yaml.in) puts them, and where ibsmd puts them with no
# file at all.  smquery is asked the way an operator asks (status, sm-status
# with no options): the paths come from its error messages.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir store_path
yaml=$top_builddir/etc/ibsmd.yaml
[ -f "$yaml" ] || { fail "no etc/ibsmd.yaml made in $top_builddir"; finish; }

# the value of key $1 in the configuration ibsmd reads from file $2
key() { "$top_builddir/ibsmd" -c "$2" --check-config -v | sed -n "s/^$1: //p"; }
printf '%s\n' '# nothing: the built-in defaults' >"$work/empty.yaml"

db=$(key db "$yaml")
socket=$(key socket "$yaml")
{ [ -n "$db" ] && [ -n "$socket" ]; } || fail "ibsmd.yaml gives no db or socket"
[ "$(key db "$work/empty.yaml")" = "$db" ] || fail "ibsmd's built-in store is not ibsmd.yaml's $db"
[ "$(key socket "$work/empty.yaml")" = "$socket" ] ||
	fail "ibsmd's built-in socket is not ibsmd.yaml's $socket"
case $db in /*) ;; *) fail "the store's path is not absolute: $db" ;; esac

# where smquery looks (nothing is there in a build tree, unless installed)
if [ ! -e "$db" ]; then
	"$top_builddir/smquery" status >"$work/status.out" 2>&1 && fail "smquery status found a store"
	grep -qF "smquery: $db: " "$work/status.out" ||
		fail "smquery status did not look at $db: $(cat "$work/status.out")"
fi
if [ ! -e "$socket" ]; then
	"$top_builddir/smquery" sm-status >"$work/sm-status.out" 2>&1 &&
		fail "smquery sm-status reached a daemon"
	grep -qF "smquery: $socket: " "$work/sm-status.out" ||
		fail "smquery sm-status did not try $socket: $(cat "$work/sm-status.out")"
fi
"$top_builddir/smquery" --help | grep -qF "(default $db)" || fail "smquery --help names another store"
finish
