# SPDX-License-Identifier: MIT
#
# lib.sh - the set-up every shell test and bench script shares.  Sourced, not
# run; each script starts with
#
#	: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"	# ../.. one level down
#	. "$top_srcdir/tests/lib.sh"
#
# so that it runs from `make check` (which sets top_srcdir and top_builddir)
# and by hand alike.  Sourcing makes top_srcdir and top_builddir absolute
# (top_builddir defaults to top_srcdir), exports LC_ALL=C, sets fails=0 and
# ibsim_ns (the path of contrib/ibsim/ibsim-ns.sh), and defines:
#
#   fail MSG...             print "FAIL: MSG" and count it in $fails
#   finish                  exit 1 if anything failed, else 0
#   skip MSG...             print "SKIP: MSG" and exit 77 (automake's skip)
#   need_cmd CMD WHY        skip unless CMD is on the PATH ("CMD is not
#                           installed (WHY)")
#   need_ibsim              skip unless ibsim, libumad2sim.so and `unshare -n`
#                           work here
#   make_workdir NAME [KEEP_VAR]
#                           $work := a new directory ${TMPDIR:-/tmp}/NAME.XXXXXX,
#                           removed at exit; with the variable named KEEP_VAR
#                           set to 1 it is kept and its path printed.  work is
#                           exported, as top_srcdir and top_builddir are, so a
#                           shell started in a namespace (`unshare -n sh -s`)
#                           sources this file and goes on
#   at_exit CMD             run the shell command CMD at exit (in the order
#                           given), before the work directory goes
#   same_as_golden NAME FILE WHAT
#                           FILE must equal $GOLDEN/NAME (GOLDEN defaults to
#                           tests/golden; the diff is shown); with
#                           GOLDEN_UPDATE=1 FILE replaces it instead
#   wait_for_log LOG PATTERN COUNT [SECONDS]
#                           until LOG holds COUNT lines matching PATTERN;
#                           false after SECONDS (default 30)
#   sim_daemon_start TOPO LOG [COUNT [SECONDS]]
#                           ibsmd on the sim backend of TOPO (ftree, no
#                           periodic sweeps; $work/ibsmd.yaml, its store
#                           $work/sm.db and socket $work/sm.sock), its output
#                           appended to LOG and its pid in $sim_daemon; waits
#                           for COUNT (default 1) "subnet up" lines in LOG and
#                           the socket, false after SECONDS (default 20)
#   ibnd_ports              inside an ibsim namespace (contrib/ibsim/ibsim-ns.sh
#                           sourced): "LID PORT PORTGUID" of every switch (port
#                           0) and CA port that ibnetdiscover finds, sorted
#
# HUP, INT, PIPE and TERM exit with status 1 through the same clean-up.

top_srcdir=$(cd "${top_srcdir:?set top_srcdir before sourcing tests/lib.sh}" && pwd) || exit 99
top_builddir=$(cd "${top_builddir:-$top_srcdir}" && pwd) || exit 99
export top_srcdir top_builddir
LC_ALL=C
export LC_ALL
ibsim_ns=$top_srcdir/contrib/ibsim/ibsim-ns.sh
: "${GOLDEN:=$top_srcdir/tests/golden}"
fails=0
lib_exit_cmds=
lib_workdir=

fail()
{
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# Inside an ibsim namespace, with ibsmd ($sm) logging to $log: fail at once,
# showing the log's tail, after stopping ibsmd and ibsim.
fail_ibsim_daemon()
{
	echo "FAIL: $*"
	echo "--- ibsmd log:"
	tail -n 30 "$log"
	kill "$sm" 2>/dev/null
	ibsim_stop
	exit 1
}

# Inside an ibsim namespace, for one ibsmd on the bundled fat tree: ibsim's helpers
# loaded, $fabric, $log (the daemon's log), and fail() stopping everything at once.
# shellcheck disable=SC2034,SC2317	# $fabric is the caller's; fail() is called later
ibsim_daemon_setup()
{
	# shellcheck source=contrib/ibsim/ibsim-ns.sh
	. "$ibsim_ns"
	fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo
	log=$work/ibsmd.log
	fail() { fail_ibsim_daemon "$@"; }
}

# Inside an ibsim namespace (after ibsim_start): ibsmd on ibsim's umad with ARGS
# (e.g. -c FILE) and the store $work/sm.db, logging to $log.  $sm is ibsmd's own pid
# (not a shell around it); fails unless the subnet comes up within 30 s.
ibsmd_ibsim_start()
{
	# a control socket of its own: tests run side by side (make -j), and the
	# configured default is one path for all
	(cd "$IBSIM_DIR" && LD_PRELOAD=$IBSIM_PRELOAD exec "$top_builddir/ibsmd" \
		--control-socket "$work/ibsmd.sock" "$@" \
		--backend umad --db "$work/sm.db" --foreground --log-level info >"$log" 2>&1) &
	sm=$!
	wait_for_log "$log" "subnet up" 1 || fail "no 'subnet up' within 30 s"
}

finish()
{
	[ "$fails" -eq 0 ] || exit 1
	exit 0
}

skip()
{
	echo "SKIP: $*"
	exit 77
}

need_cmd()
{
	command -v "$1" > /dev/null 2>&1 || skip "$1 is not installed ($2)"
}

need_ibsim()
{
	"$ibsim_ns" check || exit 77
}

at_exit()
{
	lib_exit_cmds="$lib_exit_cmds$1
"
}

# (a failing command must not stop the clean-up, not even under set -e)
lib_cleanup()
{
	eval "$lib_exit_cmds" || :
	[ -z "$lib_workdir" ] || rm -rf "$lib_workdir"
}

make_workdir()
{
	work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 99
	export work
	if [ -n "${2:-}" ] && [ "$(eval "echo \"\${$2:-0}\"")" = 1 ]; then
		echo "work directory: $work"
	else
		lib_workdir=$work
	fi
}

same_as_golden()
{
	if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$2" "$GOLDEN/$1"
	elif ! diff -u "$GOLDEN/$1" "$2"; then
		fail "$3 differs from golden/$1"
	fi
}

wait_for_log()
{
	_tries=$((${4:-30} * 10))
	while :; do
		_seen=$(grep -c -- "$2" "$1" 2> /dev/null)
		[ "${_seen:-0}" -lt "$3" ] || return 0
		_tries=$((_tries - 1))
		[ "$_tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

sim_daemon_start()
{
	cat > "$work/ibsmd.yaml" <<EOC
backend: sim:$1
db: $work/sm.db
socket: $work/sm.sock
routing: [ftree]
sweep:
  interval: 0
EOC
	"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --foreground >> "$2" 2>&1 &
	sim_daemon=$!
	wait_for_log "$2" "subnet up" "${3:-1}" "${4:-20}" || return 1
	_tries=50
	until [ -S "$work/sm.sock" ]; do
		_tries=$((_tries - 1))
		[ "$_tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

ibnd_ports()
{
	ibsim_client timeout 20 ibnetdiscover 2>/dev/null |
	awk '/^switchguid=/ { g = $0; sub(/.*\(/, "", g); sub(/\).*/, "", g) }
	     /^Switch/ { for (i = 1; i <= NF; i++) if ($i == "lid") { print $(i + 1), 0, g; break } }
	     /^Ca/ { ca = 1; next } /^$/ { ca = 0 }
	     ca && /^\[/ { g = $1; sub(/.*\(/, "", g); sub(/\).*/, "", g)
		 for (i = 1; i <= NF; i++) if ($i == "lid") { print $(i + 1), 1, g; break } }' |
	sort -u
}

trap lib_cleanup EXIT
trap 'exit 1' HUP INT PIPE TERM
