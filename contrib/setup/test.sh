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
exec "$here/check-summary.sh" "$rc"
