#!/bin/sh
# SPDX-License-Identifier: MIT
# folder_graph.sh - the include graph between folders goes down the floors of
# contrib/folder-graph.py (no loop between folders, the life cycle on top,
# sm/util and sm/core at the bottom, smquery apart from the daemon), and
# DESIGN.md prints the graph as it is.  The checker itself must catch an
# include that goes up and a loop of headers inside a folder.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd python3 "the checker is a Python script"
make_workdir folder_graph
graph="$top_srcdir/contrib/folder-graph.py"

out=$(python3 "$graph" --check "$top_srcdir") || fail "the tree breaks its floors: $out"

# DESIGN.md shows the graph the tree has
python3 "$graph" --text "$top_srcdir" > "$work/graph"
awk '/^<!-- folder-graph begin -->/ { on = 1; next } /^<!-- folder-graph end -->/ { on = 0 }
     on && !/^```/' "$top_srcdir/DESIGN.md" > "$work/design"
diff -u "$work/design" "$work/graph" > "$work/diff" ||
	fail "DESIGN.md's folder graph is out of date (contrib/folder-graph.py --text):
$(cat "$work/diff")"

# a tree that breaks the rules: an include up, a loop of headers, smquery
# reaching into the daemon, and a folder with no floor
t=$work/bad
mkdir -p "$t/sm/util" "$t/sm/core" "$t/sm/sa" "$t/sm/smquery" "$t/sm/newroom"
echo '#include "sm/core/sm.h"' > "$t/sm/util/sm_log.h"
echo '#include "sm/sa/b.h"' > "$t/sm/core/sm.h"
echo '#include "sm/sa/a.h"' > "$t/sm/sa/b.h"
echo '#include "sm/sa/b.h"' > "$t/sm/sa/a.h"
echo '#include "sm/util/sm_log.h"' > "$t/sm/smquery/q.c"
echo '#include "sm/util/sm_log.h"' > "$t/sm/newroom/n.c"
python3 "$graph" --check "$t" > "$work/bad.out" && fail "a tree with an include going up passed"
for want in "sm/util includes sm/core" "sm/core includes sm/sa" \
	"include loop: sm/sa/a.h -> sm/sa/b.h -> sm/sa/a.h" \
	"smquery includes the daemon's sm/util" "folder sm/newroom has no floor"; do
	grep -qF "$want" "$work/bad.out" || fail "the checker missed '$want': $(cat "$work/bad.out")"
done
# a loop its headers explain is allowed
echo '/* include loop: a and b describe one record together */' >> "$t/sm/sa/a.h"
python3 "$graph" --check "$t" > "$work/bad2.out"
grep -q 'include loop' "$work/bad2.out" && fail "an explained loop was refused: $(cat "$work/bad2.out")"

[ "$fails" -eq 0 ] && echo "folder graph: every include goes down a floor"
finish
