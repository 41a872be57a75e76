#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the dependencies, build, bring the bundled simulated fabric up with
# ibsmd, and show the result with smquery.  FABRIC=path picks another fabric.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
if [ "$(id -u)" = 0 ]; then "$here/deps.sh"; else sudo "$here/deps.sh"; fi
"$here/build.sh" >/dev/null
cd "$top"
fabric=${FABRIC:-contrib/fabrics/fattree-2l-r8.topo}
dir=$(mktemp -d)
db=$dir/ibsmd-demo.db
echo "== ibsmd --backend sim:$fabric --db $db --once"
./ibsmd --backend "sim:$fabric" --db "$db" --once
for cmd in status switches sweeps "route-check"; do
	if ./smquery --db "$db" $cmd >/dev/null 2>&1; then
		echo; echo "== smquery $cmd"; ./smquery --db "$db" $cmd
	fi
done
echo; echo "== smquery topology (first lines)"
./smquery --db "$db" topology >"$dir/topology.txt"
head -n 24 "$dir/topology.txt"
echo; echo "The store is $db: try ./smquery --db $db nodes, links, events, ports H0"
