#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# After `make check` in the current build directory, which exited RC: when it
# failed, the failing tests' logs (the last 200 lines); then, last,
# "[LABEL: ]N passed, N failed, N skipped" from test-suite.log.  Exits RC.
# Usage: check-summary.sh RC [LABEL]
rc=$1 label=${2:+$2: }
log=test-suite.log
if [ -f "$log" ]; then
	total() { awk -v key="# $1:" 'index($0, key) == 1 { print $NF; exit }' "$log"; }
	pass=$(total PASS); fail=$(( $(total FAIL) + $(total ERROR) + $(total XPASS) ))
	skip=$(total SKIP)
	[ "$rc" = 0 ] || grep -h -B2 -A30 -E '^(FAIL|ERROR)|ERROR: [A-Za-z]*Sanitizer|runtime error' \
		tests/*.log tests/*/*.log 2>/dev/null | tail -n 200 || true
	echo "$label${pass:-0} passed, ${fail:-0} failed, ${skip:-0} skipped"
fi
exit "$rc"
