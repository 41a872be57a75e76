#!/bin/sh
# SPDX-License-Identifier: MIT
#
# daemon_loop.sh - the daemon's loop, state machine and control socket, as an
# operator meets them, on the sim backend:
#  - a control socket path that is a regular file, the store, or a live
#    daemon's socket is refused and left as it was;
#  - clients that connect and say nothing neither stall status requests nor
#    heavy sweeps;
#  - SIGHUP at start-up does not kill the daemon; SIGHUP with a broken file
#    keeps the running configuration and says where the file is wrong; SIGHUP
#    with a new routing chain reroutes with it;
#  - SIGTERM in the middle of a long sweep ends the daemon within a second;
#  - a missing backend is waited for, not fatal;
#  - every state change is an event in the store; sm-status --json.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir daemon_loop
pids=
at_exit 'for p in $pids; do kill -9 "$p" 2>/dev/null; done'
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo
log=$work/ibsmd.log
fail() { echo "FAIL: $*"; tail -n 25 "$log"; exit 1; }
# PATTERN COUNT [FILE]: until FILE holds COUNT matching lines (20 s)
wait_for() { wait_for_log "${3:-$log}" "$1" "$2" 20; }
config()	# NAME SOCKET [EXTRA YAML]: write $work/NAME.yaml
{
	printf 'backend: sim:%s\ndb: %s/%s.db\nsocket: "%s"\nsweep:\n  interval: 0\n%s\n' \
		"$fabric" "$work" "$1" "$2" "${3:-}" >"$work/$1.yaml"
}
start()		# NAME: ibsmd on $work/NAME.yaml, logging to $log; pid in $sm
{
	"$top_builddir/ibsmd" -c "$work/$1.yaml" --foreground >"$log" 2>&1 &
	sm=$!
	pids="$pids $sm"
}
stop()		# send SIGTERM to $sm and wait; its exit status in $rc
{
	kill -TERM "$sm"
	wait "$sm"
	rc=$?
}

# 1. Socket paths that must be left alone.
echo "precious" >"$work/file"
config file "$work/file"
start file
wait "$sm"; rc=$?
[ "$rc" != 0 ] || fail "ibsmd ran with a regular file as its socket"
[ "$(cat "$work/file")" = precious ] || fail "the file named as the socket was changed"
grep -q "exists and is not a socket" "$log" || fail "no clear error for a non-socket path"

"$top_builddir/ibsmd" --backend "sim:$fabric" --db "$work/store.db" --once >"$log" 2>&1 ||
	fail "no store to protect"
cp "$work/store.db" "$work/store.before"
config store "$work/store.db"
start store
wait "$sm"; rc=$?
[ "$rc" != 0 ] || fail "ibsmd ran with its store as its socket"
cmp -s "$work/store.db" "$work/store.before" || fail "the store named as the socket was changed"

config first "$work/sm.sock"
start first
first=$sm
wait_for "subnet up" 1 || fail "the first daemon did not come up"
log1=$log
log=$work/second.log
config second "$work/sm.sock"
start second
wait "$sm"; rc=$?
[ "$rc" != 0 ] || fail "a second daemon ran on a live daemon's socket"
grep -q "answers on it; it is left alone" "$log" || fail "no clear error for a live socket"
[ -S "$work/sm.sock" ] || fail "the second daemon removed the first one's socket"
log=$log1
sm=$first
out=$("$top_builddir/smquery" --socket "$work/sm.sock" status) || fail "status: $out"
echo "$out" | grep -q "^ok: MASTER" || fail "status after the second daemon: $out"
echo "ok: a file, the store and a live socket are refused and left alone"

# 2. Silent clients: 40 connections that never say anything.
if command -v python3 >/dev/null; then
	python3 - "$work/sm.sock" <<'PY' &
import socket, sys, time
held = []
end = time.time() + 4
while time.time() < end:
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(sys.argv[1])
        held.append(s)
    except OSError:
        pass
    if len(held) > 40:
        held.pop(0).close()
    time.sleep(0.01)
PY
	silent=$!
	sleep 0.5
	n=0
	for _ in $(seq 5); do
		"$top_builddir/smquery" --socket "$work/sm.sock" resweep >/dev/null 2>&1 && n=$((n + 1))
		sleep 0.4
	done
	wait "$silent"
	[ "$n" -ge 3 ] || fail "only $n of 5 resweeps got through silent clients"
	wait_for "subnet up" 3 || fail "heavy sweeps stalled behind silent clients"
	echo "ok: silent clients stall nothing ($n of 5 asked while 40 idled)"
else
	echo "note: no python3, the silent-client check is left out"
fi

# 3. SIGHUP: a broken file keeps the running configuration; a new routing
# chain reroutes.
cp "$work/first.yaml" "$work/first.good"
printf 'routing: [minhop\n' >>"$work/first.yaml"
kill -HUP "$sm"
wait_for "configuration was not reloaded" 1 || fail "a broken file on SIGHUP was not reported"
grep "configuration was not reloaded" "$log" | grep -q "first.yaml:[0-9]*" ||
	fail "the broken file's position is not in the log"
sweeps=$(grep -c "subnet up" "$log")
sed 's/^sweep:/routing: [updn]\nsweep:/' "$work/first.good" >"$work/first.yaml"
kill -HUP "$sm"
wait_for "routing changed: in effect now" 1 || fail "a new routing chain was not taken"
wait_for "engine updn" 1 || fail "no reroute with the new chain"
stop
[ "$rc" = 0 ] || fail "ibsmd exited $rc on SIGTERM"
[ ! -e "$work/sm.sock" ] || fail "the control socket was left behind"
"$top_builddir/smquery" --db "$work/first.db" events | grep -q "MASTER -> NOT_ACTIVE: stopping" ||
	fail "the state changes are not in the store's events"
echo "ok: SIGHUP keeps a running configuration over a broken file, reroutes on a new chain"

# 4. SIGHUP at once after start, then SIGTERM in the middle of a sweep that
# waits 2 s for every probe of a dead leaf.
printf '0 dead "L3"\n' >"$work/slow.events"
printf 'backend: sim:%s,events=%s\ndb: %s/slow.db\nsocket: "%s/slow.sock"\nsweep:\n  interval: 0\n  timeout_ms: 2000\n' \
	"$fabric" "$work/slow.events" "$work" "$work" >"$work/slow.yaml"
start slow
wait_for "starting" 1 || fail "no start"	# a signal before main() runs is the shell's
kill -HUP "$sm"
wait_for "SM state NOT_ACTIVE -> DISCOVERING" 1 || fail "the daemon did not start discovering"
sleep 0.5
kill -0 "$sm" || fail "SIGHUP at start-up killed the daemon"
out=$("$top_builddir/smquery" --json --socket "$work/slow.sock" sm-status) || fail "sm-status: $out"
echo "$out" | grep -q '"stage": "discovery"' || fail "sm-status --json during discovery: $out"
t0=$(date +%s%N)
stop
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
[ "$rc" = 0 ] || fail "SIGTERM during a sweep: exit $rc"
[ "$ms" -lt 1000 ] || fail "SIGTERM during a sweep took $ms ms"
echo "ok: SIGHUP at start-up is harmless; SIGTERM mid-sweep ends it in $ms ms"

# 5. A backend that is not there yet is waited for.
printf 'backend: sim:%s/later.topo\ndb: %s/later.db\nsocket: ""\nsweep:\n  interval: 0\n' \
	"$work" "$work" >"$work/later.yaml"
start later
wait_for "waiting for the SM's port" 1 || fail "no word about waiting for the port"
sleep 1.5
kill -0 "$sm" || fail "the daemon exited without its port"
[ "$(grep -c "waiting for the SM's port" "$log")" = 1 ] || fail "the same wait was logged twice"
cp "$fabric" "$work/later.topo"
wait_for "subnet up" 1 || fail "the port that appeared was not taken"
stop
[ "$rc" = 0 ] || fail "exit $rc"
echo "ok: a missing backend is waited for"
