#!/bin/sh
# SPDX-License-Identifier: MIT
#
# port_move.sh - the SM moves to another local port when its port goes down
# (sm/sm_daemon.c, the port: list), on the sim backend: the SM's node "SM"
# has two ports cabled to two switches of one fabric
# (tests/topo/dual-port-sm.topo).
#  1. port: [SM:1, SM:2] starts on SM:1; the simulator cuts SM[1] 1 s
#     in: within a few seconds the SM
#     runs from SM:2 (sm-status), the subnet is up and routed (route-check),
#     the move is in the events; SM[1] comes back 3.5 s in and, without
#     port_failback, the SM stays on SM:2.
#  2. port: [SM:1, the port GUID of SM:2], port_failback: 1, port_dwell: 1:
#     the SM moves to the GUID's port, and goes back to SM:1 once it is
#     ACTIVE again.
#  3. both ports cut: the SM says once that no other port is up, and moves
#     to SM:2 when that one comes back.
#  4. (issue 20 item 10) port: [NOPE:1, SM:1]: a port the configuration
#     names that does not exist stops the daemon at once, with why; port:
#     [SM:1] with SM[1] down at the start: the SM waits for it with its
#     transport open, tells systemd READY=1 and STATUS=waiting for it (a
#     fake NOTIFY_SOCKET, with python3), and brings the subnet up once the
#     link comes 1.5 s in.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir port_move
topo=$top_srcdir/tests/topo/dual-port-sm.topo
sm=
log=
fail() { echo "FAIL: $*"; [ -n "$log" ] && tail -n 25 "$log"; exit 1; }

# start NAME FAILBACK PORTS [EVENTS]: ibsmd on $work/NAME.yaml, logging to
# $work/NAME.log; by default the simulator cuts SM[1] 1 s in, for 2.5 s
start()
{
	printf '%b' "${4:-1000 link-down \"SM\"[1]\n3500 link-up \"SM\"[1]\n}" >"$work/$1.events"
	printf 'backend: sim:%s,events=%s\ndb: %s/%s.db\nsocket: "%s/%s.sock"\n' \
		"$topo" "$work/$1.events" "$work" "$1" "$work" "$1" >"$work/$1.yaml"
	printf 'port: [%s]\nport_failback: %s\nport_dwell: 1\n' "$3" "$2" \
		>>"$work/$1.yaml"
	printf 'sweep:\n  interval: 1\n' >>"$work/$1.yaml"
	log=$work/$1.log
	"$top_builddir/ibsmd" -c "$work/$1.yaml" --foreground >"$log" 2>&1 &
	sm=$!
	at_exit "kill -9 $sm 2>/dev/null"
}

status() { "$top_builddir/smquery" ${2:+--json} --socket "$work/$1.sock" sm-status; }

# 1. off the dead port, and no failback by default
start first 0 "SM:1, SM:2"
wait_for_log "$log" "subnet up" 1 10 || fail "no first heavy sweep"
status first | grep -Eq "; port SM:1(;|$)" || fail "sm-status before the cut: $(status first)"
t0=$(date +%s%N)
wait_for_log "$log" "SM port SM:1 lost; moving to SM:2" 1 10 || fail "the SM did not move"
wait_for_log "$log" "subnet up" 2 10 || fail "no heavy sweep from SM:2"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
out=$(status first) || fail "sm-status: $out"
echo "$out" | grep -Eq "^ok: MASTER, .*last heavy sweep: subnet up; port SM:2(;|$)" ||
	fail "sm-status after the move: $out"
status first json | grep -q '"port": "SM:2"' || fail "sm-status json: $(status first json)"
"$top_builddir/smquery" --db "$work/first.db" route-check |
	grep -q '^pairs [0-9]*: 0 unreachable, 0 in loops$' ||
	fail "route-check from SM:2: $("$top_builddir/smquery" --db "$work/first.db" route-check)"
"$top_builddir/smquery" --db "$work/first.db" events |
	grep -q "MASTER -> NOT_ACTIVE: SM port SM:1 lost; moving to SM:2" ||
	fail "the move is not in the events"
echo "ok: moved from SM:1 to SM:2 and the subnet came up there (${ms} ms after the first sweep)"
wait_for_log "$log" "subnet up" 3 10 || fail "SM[1] coming back made no heavy sweep"
sleep 1.2	# a failback would come within a port check (1 s)
status first | grep -Eq "; port SM:2(;|$)" || fail "moved back without port_failback: $(status first)"
[ "$(grep -c "notice: SM port .* moving to" "$log")" = 1 ] || fail "moved more than once: $(grep "moving to" "$log")"
kill -TERM "$sm"
wait "$sm" || fail "ibsmd exit $?"
echo "ok: without port_failback the SM stays on SM:2 when SM:1 comes back"

# 2. failback once the preferred port is ACTIVE again and the dwell is over
start back 1 "SM:1, 0x0000000000100002"	# SM:2 by its port GUID
wait_for_log "$log" "SM port SM:1 lost; moving to 0x0000000000100002" 1 10 ||
	fail "the SM did not move"
wait_for_log "$log" \
	"SM port 0x0000000000100002 is not the preferred one (failback); moving to SM:1" 1 10 ||
	fail "no failback to SM:1"
wait_for_log "$log" "subnet up" 3 10 || fail "no heavy sweep from SM:1 again"
sleep 0.5
status back | grep -Eq "subnet up; port SM:1(;|$)" || fail "sm-status after the failback: $(status back)"
"$top_builddir/smquery" --db "$work/back.db" route-check |
	grep -q '^pairs 12: 0 unreachable, 0 in loops$' ||
	fail "route-check after the failback: $("$top_builddir/smquery" --db "$work/back.db" route-check)"
kill -TERM "$sm"
wait "$sm" || fail "ibsmd exit $?"
echo "ok: with port_failback the SM went back to SM:1 and routes the whole fabric"

# 3. both ports down: said once, and the SM stays until one comes back
start both 0 "SM:1, SM:2" '1000 link-down "SM"[1]\n1000 link-down "SM"[2]\n3000 link-up "SM"[2]\n'
wait_for_log "$log" "SM port SM:1 lost; no other port of port: has its link up (SM:2: Down)" 1 10 ||
	fail "no word that no other port is up"
wait_for_log "$log" "SM port SM:1 lost; moving to SM:2" 1 10 || fail "no move once SM:2 came back"
[ "$(grep -c "no other port of port: has its link up" "$log")" = 1 ] ||
	fail "the same wait was said more than once"
wait_for_log "$log" "subnet up" 3 10 || fail "no heavy sweep from SM:2"
sleep 0.5
status both | grep -Eq "subnet up; port SM:2(;|$)" || fail "sm-status: $(status both)"
kill -TERM "$sm"
wait "$sm" || fail "ibsmd exit $?"
echo "ok: with both ports down the SM says so once and moves when SM:2 comes back"

# 4. a port that is not there stops the daemon; one that is down is waited for
start nope 0 "NOPE:1, SM:1"
t0=$(date +%s%N)
wait "$sm"; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$rc" != 0 ] || fail "ibsmd ran on with a port: that does not exist"
grep -q "error: port: NOPE:1 does not exist: sim: no node named 'NOPE': stopping" "$log" ||
	fail "no clear word why it stopped"
[ "$ms" -lt 5000 ] || fail "it took $ms ms to stop"
echo "ok: a port the configuration names that does not exist stops the daemon (${ms} ms)"

notify=
if command -v python3 >/dev/null && grep -q "define HAVE_LIBSYSTEMD 1" "$top_builddir/config.h"; then
	notify=$work/notify.sock
	python3 - "$notify" "$work/notify.out" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(0.2)
end = time.time() + 8
with open(sys.argv[2], "w") as out:
    while time.time() < end:
        try:
            out.write(s.recv(4096).decode() + "\n---\n")
            out.flush()
        except socket.timeout:
            pass
PY
	listener=$!
	at_exit "kill $listener 2>/dev/null"
	for _ in $(seq 50); do [ -S "$notify" ] && break; sleep 0.05; done
fi
NOTIFY_SOCKET=$notify start later 0 "SM:1" '0 link-down "SM"[1]\n1500 link-up "SM"[1]\n'
wait_for_log "$log" "waiting for the SM's port: a port of port: (link down: SM:1: Down)" 1 10 ||
	fail "no word about waiting for SM:1"
wait_for_log "$log" "subnet up" 1 10 || fail "the port that came up was not taken"
[ "$(grep -c "waiting for the SM's port" "$log")" = 1 ] || fail "the wait was logged more than once"
if [ -n "$notify" ]; then
	wait_for_log "$work/notify.out" "READY=1" 1 5 || fail "no READY=1 while waiting"
	head -n 3 "$work/notify.out" | grep -q "^STATUS=NOTACTIVE: waiting for a port of port: (link down: SM:1: Down)" ||
		fail "STATUS while waiting: $(cat "$work/notify.out")"
	[ "$(grep -c "^READY=1" "$work/notify.out")" = 1 ] || fail "READY=1 more than once"
	echo "ok: systemd heard READY=1 and why it waits"
else
	echo "note: no python3 or no libsystemd: READY and STATUS not checked"
fi
kill -TERM "$sm"
wait "$sm" || fail "ibsmd exit $?"
echo "ok: a port that is down at the start is waited for, and taken when it comes up"
finish
