#!/bin/sh
# SPDX-License-Identifier: MIT
#
# big_files.sh - ibsmd.yaml and the partitions file at their worst: nested
# 120 KB deep, or as big as they may be (a partitions file just under its
# 64 MB, which libyaml takes seconds to read).
#
#  1. --check-config refuses the deep files at once, saying where.
#  2. SIGTERM during --check-config of the big file ends ibsmd within a
#     second; so does SIGTERM while the daemon reads it at start.
#  3. SIGHUP with the big file: the file is read on a worker, and the loop
#     answers `smquery status` on the control socket all along (each answer
#     well under the read's time); the file's mistake is logged after, the
#     running partitions kept.
#  4. SIGTERM while a SIGHUP reads the big file ends the daemon within a
#     second.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd python3 "writes the files"
make_workdir big_files
sm=
at_exit '[ -n "$sm" ] && kill -9 "$sm" 2>/dev/null'
log=$work/ibsmd.log
now_ms() { date +%s%3N; }
ibsmd=$top_builddir/ibsmd	# run as it is, never through a function: $! is its pid

python3 - "$work" <<'EOP'
import sys
w = sys.argv[1]
open(w + "/deep-parts.yaml", "w").write("partitions: " + "[" * 120000 + "\n")
open(w + "/deep.yaml", "w").write("routing: " + "[" * 120000 + "\n")
# a partition name as one block scalar of 63 MB: slow to read, wrong at the end
with open(w + "/big.yaml", "w") as f:
    f.write("partitions:\n  - name: |\n")
    line = "      " + "x" * 73 + "\n"
    f.write(line * (63 * 1000 * 1000 // len(line)))
EOP
cat >"$work/base.yaml" <<EOC
backend: sim:$top_srcdir/tests/topo/twoswitch.topo
db: $work/sm.db
socket: $work/sm.sock
sweep:
  interval: 0
EOC
cp "$work/base.yaml" "$work/deep-cfg.yaml"
echo "partitions: $work/deep-parts.yaml" >>"$work/deep-cfg.yaml"
cp "$work/base.yaml" "$work/big-cfg.yaml"
echo "partitions: $work/big.yaml" >>"$work/big-cfg.yaml"

# 1. deep: refused at once
t0=$(now_ms)
"$ibsmd" -c "$work/deep.yaml" --check-config >"$work/out" 2>&1 && fail "the deep ibsmd.yaml was accepted"
grep -q "deep.yaml:1:41: collections nested deeper than 32 levels" "$work/out" ||
	fail "deep ibsmd.yaml: $(cat "$work/out")"
"$ibsmd" -c "$work/deep-cfg.yaml" --check-config >"$work/out" 2>&1 &&
	fail "the deep partitions file was accepted"
grep -q "deep-parts.yaml:1:44: collections nested deeper than 32 levels" "$work/out" ||
	fail "deep partitions: $(cat "$work/out")"
ms=$(($(now_ms) - t0))
[ "$ms" -lt 2000 ] || fail "the deep files took $ms ms to refuse"

# stop_within PID WHAT: SIGTERM, and PID gone within a second
stop_within()
{
	t0=$(now_ms)
	kill -TERM "$1"
	for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.02; done
	ms=$(($(now_ms) - t0))
	kill -0 "$1" 2>/dev/null && { kill -9 "$1"; fail "$2: still running 2 s after SIGTERM"; }
	wait "$1"
	[ "$ms" -le 1000 ] || fail "$2: $ms ms to end after SIGTERM"
	echo "ok: $2: ended $ms ms after SIGTERM"
}

# 2. SIGTERM while the big file is read by --check-config, and at start
"$ibsmd" -c "$work/big-cfg.yaml" --check-config >"$work/out" 2>&1 &
sm=$!
sleep 0.3
stop_within "$sm" "--check-config of the big file"
sm=
grep -q "not read: ibsmd is stopping" "$work/out" || fail "--check-config stopped: $(cat "$work/out")"
"$ibsmd" -c "$work/big-cfg.yaml" --foreground >"$log" 2>&1 &
sm=$!
sleep 0.3
stop_within "$sm" "the daemon reading the big file at start"
sm=

# 3. SIGHUP with the big file: the loop answers all along
"$ibsmd" -c "$work/base.yaml" --foreground >"$log" 2>&1 &
sm=$!
wait_for_log "$log" "subnet up" 1 20 || fail "no subnet up: $(tail -n 5 "$log")"
for _ in $(seq 50); do [ -S "$work/sm.sock" ] && break; sleep 0.1; done
cp "$work/big-cfg.yaml" "$work/base.yaml"
kill -HUP "$sm"
worst=0
n=0
while ! grep -q "SIGHUP: configuration re-read" "$log"; do
	t0=$(now_ms)
	if ! "$top_builddir/smquery" --socket "$work/sm.sock" status >"$work/q" 2>&1; then
		fail "smquery status during the reload: $(cat "$work/q")"
		break
	fi
	ms=$(($(now_ms) - t0))
	[ "$ms" -gt "$worst" ] && worst=$ms
	n=$((n + 1))
	[ "$n" -lt 300 ] || { fail "the reload did not end"; break; }
	sleep 0.05
done
[ "$n" -ge 5 ] || fail "only $n answers during the reload: it was too short to tell"
[ "$worst" -lt 500 ] || fail "smquery status took $worst ms during the reload"
echo "ok: $n answers during the reload, the slowest in $worst ms"
grep -q "partitions: $work/big.yaml:2:11: name: 1 to 64 bytes; the running partitions are kept" \
	"$log" || fail "the big file's mistake: $(grep partitions "$log")"

# 4. SIGTERM while a SIGHUP reads it
kill -HUP "$sm"
sleep 0.3
stop_within "$sm" "the daemon reading the big file on SIGHUP"
sm=
finish
