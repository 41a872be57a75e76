#!/bin/sh
# SPDX-License-Identifier: MIT
#
# plugin_sandbox.sh - the daemon survives its plugins (sim backend).
#
# ibsmd --once with a chain of plugins that exit(0), segfault and loop forever
# (tests/rt_misbehave_plugin.c), then minhop: each is named in the log with
# its status or signal, the subnet comes up through minhop and --once exits 0.
# Then the daemon, running, is sent SIGTERM while the endless plugin runs
# within its default 60 s budget: it must be gone within a second or so, and
# the plugin's process with it.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir sandbox
sm=
at_exit '[ -n "$sm" ] && kill -9 "$sm" 2>/dev/null'
log=$work/ibsmd.log
fail() { echo "FAIL: $*"; tail -n 20 "$log"; exit 1; }
ms() { date +%s%3N; }

for p in exit crash hang; do
	ln -s "$(cd "$top_builddir/tests/.libs" && pwd)/rt_$p.so" "$work/$p.so" || exit 99
done
cd "$work" || exit 99
printf 'plugin_timeout: 1\n' >short.yaml
"$top_builddir/ibsmd" -c short.yaml --once --foreground -d sm.db \
	-b "sim:$top_srcdir/contrib/fabrics/fattree-2l-r8.topo" \
	--routing ./exit.so,./crash.so,./hang.so,minhop >"$log" 2>&1 ||
	fail "--once failed with plugins that misbehave"
for want in "plugin misbehave exited with status 0 before returning" \
	    "plugin misbehave crashed: signal 11" \
	    "plugin misbehave ran over its time budget of 1000 ms; killed" \
	    "engine minhop routes all 1024 CA pairs" "subnet up"; do
	grep -q "$want" "$log" || fail "no '$want' in the log"
done

printf 'sweep:\n  interval: 0\nsocket: ""\n' >long.yaml
"$top_builddir/ibsmd" -c long.yaml --foreground --log-level info -d sm2.db \
	-b "sim:$top_srcdir/contrib/fabrics/fattree-2l-r8.topo" \
	--routing ./hang.so,minhop >"$log" 2>&1 &
sm=$!
wait_for_log "$log" "plugin misbehave runs in process" 1 20 || fail "the plugin never started"
sleep 0.3
t0=$(ms)
kill -TERM "$sm"
wait "$sm"
rc=$?
sm=
took=$(($(ms) - t0))
echo "SIGTERM to exit with a plugin running: $took ms, status $rc"
[ "$rc" -eq 0 ] || fail "exit status $rc after SIGTERM"
[ "$took" -lt 1500 ] || fail "SIGTERM took $took ms"
# the plugin's child does not outlive the daemon (PR_SET_PDEATHSIG); a zombie
# left to an init that does not reap is dead too
child=$(sed -n 's/.*plugin misbehave runs in process \([0-9]*\),.*/\1/p' "$log" | head -n 1)
running() { state=$(sed 's/.*) //' "/proc/$child/stat" 2>/dev/null | cut -d' ' -f1)
	    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]; }
for _ in $(seq 40); do
	running || break
	sleep 0.05
done
running && { kill -9 "$child"; fail "plugin process $child outlived ibsmd"; }
exit 0
