#!/bin/sh
# SPDX-License-Identifier: MIT
#
# control.sh - the running daemon and its control socket, on the sim backend.
#
# ibsmd runs (not --once) on the bundled fabric with a configuration file that
# names its store and control socket; `smquery resweep` must get "ok" and a
# second heavy sweep must follow, `smquery sm-status` must report MASTER, an
# unknown command is refused, a bad configuration stops ibsmd with the file,
# line and column, and SIGTERM ends it with status 0 and removes the socket.  Then a
# fabric whose nodes wake up late: the daemon keeps at it.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir control
sm=
at_exit '[ -n "$sm" ] && kill "$sm" 2>/dev/null'
log=$work/ibsmd.log
smquery() { "$top_builddir/smquery" --socket "$work/sm.sock" "$@"; }
fail() { echo "FAIL: $*"; tail -n 20 "$log"; exit 1; }
wait_for() { wait_for_log "$log" "$1" "$2" 20; }	# PATTERN COUNT

cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$top_srcdir/contrib/fabrics/fattree-2l-r8.topo
db: $work/sm.db
socket: $work/sm.sock
sweep:
  interval: 0
EOC
printf 'sweep:\n  interval: soon\n' >"$work/bad.yaml"
"$top_builddir/ibsmd" -c "$work/bad.yaml" --check-config >"$work/bad.out" 2>&1 &&
	fail "a bad configuration passed --check-config"
grep -q "bad.yaml:2:13: sweep.interval: expected a whole number" "$work/bad.out" ||
	fail "no file:line for a bad configuration: $(cat "$work/bad.out")"

"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --foreground >"$log" 2>&1 &
sm=$!
wait_for "subnet up" 1 || fail "no 'subnet up'"
for _ in $(seq 50); do [ -S "$work/sm.sock" ] && break; sleep 0.1; done
out=$(smquery sm-status) || fail "sm-status: $out"
echo "$out" | grep -q "^ok: MASTER, 1 heavy sweeps" || fail "sm-status said: $out"
out=$(smquery resweep) || fail "resweep: $out"
echo "$out" | grep -q "^ok" || fail "resweep said: $out"
wait_for "subnet up" 2 || fail "no heavy sweep after resweep"
if command -v python3 >/dev/null; then	# a raw client for a command smquery never sends
	out=$(python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"reboot\n"); print(s.recv(200).decode().strip())' "$work/sm.sock")
	echo "$out" | grep -q "^error: unknown command 'reboot'" || fail "unknown command answered: $out"
else
	echo "note: no python3, the unknown-command check is left out"
fi
kill -TERM "$sm"
wait "$sm"
rc=$?
sm=
[ "$rc" = 0 ] || fail "ibsmd exited $rc on SIGTERM"
[ ! -e "$work/sm.sock" ] || fail "the control socket was left behind"
echo "ok: resweep, sm-status, bad configuration, SIGTERM"

# The SM's own node is dead for the first 1.5 s, so the first sweep fails: the
# daemon must keep trying.  Leaf L3 is dead until 3 s: the subnet comes up
# without it, and light sweeps, probing again behind the silent port, bring
# L3 and its hosts in once it answers.
printf '0 dead "H0"\n1500 alive "H0"\n0 dead "L3"\n3000 alive "L3"\n' >"$work/late.events"
log=$work/late.log
cat >"$work/late.yaml" <<EOC
backend: sim:$top_srcdir/contrib/fabrics/fattree-2l-r8.topo,events=$work/late.events
db: $work/late.db
socket: ""
sweep:
  interval: 1
EOC
"$top_builddir/ibsmd" -c "$work/late.yaml" --foreground >"$log" 2>&1 &
sm=$!
wait_for "subnet up in .*: 44 nodes" 1 || fail "L3 never came in"
grep -q "the SM's own port does not answer" "$log" || fail "the first sweep did not fail"
grep -q "subnet up in .*: 39 nodes" "$log" || fail "the subnet did not come up without L3 first"
grep -q "light sweep: .*answers now" "$log" || fail "no light sweep found L3"
kill -TERM "$sm"
wait "$sm"
sm=
echo "ok: a failed first sweep is retried; a node that wakes up is found by light sweeps"
