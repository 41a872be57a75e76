#!/bin/sh
# SPDX-License-Identifier: MIT
#
# ibsim-ns.sh - run ibsim (the InfiniBand fabric simulator) for a test.
#
# ibsim serves its clients on abstract unix sockets with fixed names, so each
# instance needs a network namespace of its own (`unshare -n`, as root), and
# libumad2sim.so leaves a sys-<pid>/ tree in the working directory of every
# client: clients run from a scratch directory.
#
# Executed:
#   ibsim-ns.sh check
#       exit 0 if ibsim, libumad2sim.so and `unshare -n` work here; else print
#       why on stdout and exit 77 (the automake "skip" status).
#   ibsim-ns.sh run NETFILE [IBSIM_OPTION...] -- COMMAND [ARG...]
#       in a new network namespace: start ibsim on NETFILE, run COMMAND with
#       libumad2sim.so preloaded from a scratch directory, stop ibsim.  Exits
#       with COMMAND's status (124 if it outran IBSIM_CMD_TIMEOUT seconds, 3
#       if ibsim did not come up).  SIM_HOST in the environment picks the
#       node the clients attach to.
#
# Sourced (`. ibsim-ns.sh`), in a shell that is already in its own network
# namespace:
#   ibsim_start NETFILE [IBSIM_OPTION...]
#       start ibsim reading console commands from a FIFO, wait until its
#       sockets are up (at most IBSIM_TIMEOUT seconds, default 10); sets
#       IBSIM_PID, IBSIM_DIR (scratch directory: ibsim.log, ibsim.pid, the
#       FIFO), IBSIM_PRELOAD.  Returns non-zero, with the log on stderr, if
#       ibsim failed.  The FIFO's write end is kept open on fd 7.
#   ibsim_cmd 'COMMAND'     send a console command: Unlink "node"[port] ...
#   ibsim_client CMD...     run CMD preloaded from $IBSIM_DIR
#   ibsim_stop              stop ibsim by its PID (TERM, then KILL after 5 s)
#                           and remove $IBSIM_DIR unless IBSIM_KEEP=1.

ibsim_find_preload()
{
	for f in ${IBSIM_PRELOAD:-} /usr/lib/*/umad2sim/libumad2sim.so \
		/usr/lib/umad2sim/libumad2sim.so /usr/local/lib/umad2sim/libumad2sim.so; do
		if [ -f "$f" ]; then
			echo "$f"
			return 0
		fi
	done
	return 1
}

ibsim_check()
{
	if ! command -v ibsim >/dev/null 2>&1; then
		echo "SKIP: ibsim is not installed (Debian package ibsim-utils)"
		return 77
	fi
	if ! ibsim_find_preload >/dev/null; then
		echo "SKIP: libumad2sim.so not found (Debian package ibsim-utils)"
		return 77
	fi
	if ! unshare -n true 2>/dev/null; then
		echo "SKIP: 'unshare -n' does not work here (needs root or user namespaces)"
		return 77
	fi
	return 0
}

# True once ibsim's control socket (abstract name "sim:ctl") is bound.
ibsim_listening()
{
	grep -q '@sim:ctl' /proc/net/unix 2>/dev/null
}

ibsim_start()
{
	case $1 in
	/*) _netfile=$1 ;;
	*) _netfile=$PWD/$1 ;;	# ibsim runs from the scratch directory
	esac
	shift
	IBSIM_PRELOAD=$(ibsim_find_preload) || {
		echo "ibsim-ns: libumad2sim.so not found" >&2
		return 1
	}
	if ibsim_listening; then
		echo "ibsim-ns: an ibsim already runs in this network namespace" >&2
		return 1
	fi
	IBSIM_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ibsim.XXXXXX") || return 1
	mkfifo "$IBSIM_DIR/console" || return 1
	(cd "$IBSIM_DIR" && exec ibsim -s "$@" "$_netfile" \
		<console >ibsim.log 2>&1) &
	IBSIM_PID=$!
	exec 7>"$IBSIM_DIR/console"
	echo "$IBSIM_PID" >"$IBSIM_DIR/ibsim.pid"
	_tries=$((${IBSIM_TIMEOUT:-10} * 20))
	while ! ibsim_listening; do
		if ! kill -0 "$IBSIM_PID" 2>/dev/null || [ "$_tries" -le 0 ]; then
			echo "ibsim-ns: ibsim did not start on $_netfile:" >&2
			cat "$IBSIM_DIR/ibsim.log" >&2
			ibsim_stop
			return 1
		fi
		_tries=$((_tries - 1))
		sleep 0.05
	done
	export IBSIM_PID IBSIM_DIR IBSIM_PRELOAD
	return 0
}

ibsim_cmd()
{
	printf '%s\n' "$*" >&7
}

ibsim_client()
{
	(cd "$IBSIM_DIR" && LD_PRELOAD=$IBSIM_PRELOAD exec "$@")
}

ibsim_stop()
{
	[ -n "${IBSIM_PID:-}" ] || return 0
	exec 7>&-
	kill "$IBSIM_PID" 2>/dev/null
	_tries=100
	while kill -0 "$IBSIM_PID" 2>/dev/null && [ "$_tries" -gt 0 ]; do
		_tries=$((_tries - 1))
		sleep 0.05
	done
	kill -KILL "$IBSIM_PID" 2>/dev/null
	wait "$IBSIM_PID" 2>/dev/null
	IBSIM_PID=
	if [ "${IBSIM_KEEP:-0}" != 1 ]; then
		rm -rf "$IBSIM_DIR"
	fi
	return 0
}

# Inside the namespace: start, run the command (bounded), stop.
ibsim_run_inside()
{
	_netfile=$1
	shift
	_opts=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		_opts="$_opts $1"
		shift
	done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2086 # options are words
	ibsim_start "$_netfile" $_opts || return 3
	ibsim_client timeout "${IBSIM_CMD_TIMEOUT:-300}" "$@"
	_rc=$?
	ibsim_stop
	return $_rc
}

case "${0##*/}" in
ibsim-ns.sh)
	case "${1:-}" in
	check)
		ibsim_check
		exit $?
		;;
	run)
		shift
		[ $# -ge 3 ] || { echo "usage: $0 run NETFILE [OPTION...] -- COMMAND..." >&2; exit 2; }
		exec unshare -n "$0" __inside "$@"
		;;
	__inside)
		shift
		ibsim_run_inside "$@"
		exit $?
		;;
	*)
		echo "usage: $0 check | run NETFILE [IBSIM_OPTION...] -- COMMAND [ARG...]" >&2
		exit 2
		;;
	esac
	;;
esac
