#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the dependencies, build, and run the whole test suite (make check).
# Prints "N passed, N failed, N skipped" last; exits non-zero on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
if [ -z "${IBSMD_DEPS_INSTALLED:-}" ]; then	# .ci/run installs them itself
	if [ "$(id -u)" = 0 ]; then "$here/deps.sh"; else sudo "$here/deps.sh"; fi
fi
"$here/build.sh"
cd "$top"
rc=0
make -j"$(nproc)" check || rc=$?
log=test-suite.log
if [ -f "$log" ]; then
	total() { awk -v key="# $1:" 'index($0, key) == 1 { print $NF; exit }' "$log"; }
	pass=$(total PASS); fail=$(( $(total FAIL) + $(total ERROR) + $(total XPASS) ))
	skip=$(total SKIP)
	[ "$rc" = 0 ] || grep -h -B2 -A30 -E '^(FAIL|ERROR)' tests/*.log 2>/dev/null | tail -n 200 || true
	echo "${pass:-0} passed, ${fail:-0} failed, ${skip:-0} skipped"
fi
exit "$rc"
