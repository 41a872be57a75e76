#!/bin/sh
# SPDX-License-Identifier: MIT
# check_smquery_map.sh - the pictures of the fabric smquery draws, on the
# bundled fabric (contrib/fabrics/fattree-2l-r8.topo) after `ibsmd --once` on
# the sim backend: `topology --format dot` against its golden file (and
# parsed by dot(1) where Graphviz is installed), a device description full of
# controls, and the option errors; `map`: a page that refers to nothing
# outside itself, whose data holds the fabric and every switch's LFT as
# `smquery lft` shows it, the problems (links down, nodes unreachable, ports
# with nothing answering behind) and the scale (the browser tests are
# map_browser.sh and map_problems.sh).
# GOLDEN_UPDATE=1 rewrites the golden files instead of comparing.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
SMQ="$top_builddir/smquery"
make_workdir check_smquery_map
tmp=$work
fabric=$top_srcdir/contrib/fabrics/fattree-2l-r8.topo

# usage_error PATTERN ARGS...: exit 2, nothing on stdout, PATTERN on stderr
usage_error() {
	pattern=$1
	shift
	"$SMQ" --db "$tmp/ft.db" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" != 2 ] || [ -s "$tmp/out" ] || ! grep -q -- "$pattern" "$tmp/err"; then
		fail "smquery $*: exit $rc, stderr '$(cat "$tmp/err")'"
	fi
}

"$top_builddir/ibsmd" --backend "sim:$fabric" --db "$tmp/ft.db" --once > "$tmp/ibsmd.log" 2>&1 ||
	{ cat "$tmp/ibsmd.log"; exit 99; }

# Graphviz: spines ranked above leaves, every link once
if "$SMQ" --db "$tmp/ft.db" topology --format dot > "$tmp/topology.gv" 2> "$tmp/err"; then
	same_as_golden topology.gv "$tmp/topology.gv" "smquery topology --format dot"
	[ "$(grep -c ' -- ' "$tmp/topology.gv")" = 64 ] ||
		fail "topology --format dot: not 64 links"
	if command -v dot > /dev/null; then
		dot -Tsvg "$tmp/topology.gv" > "$tmp/topology.svg" 2> "$tmp/dot.err" &&
			[ ! -s "$tmp/dot.err" ] || fail "dot(1) on the graph: $(cat "$tmp/dot.err")"
	fi
else
	fail "smquery topology --format dot: $(cat "$tmp/err")"
fi
# a torus: every switch has CAs and more switch links than CAs, like a
# spine with a host plugged in, but they are all leaves (one rank)
"$top_builddir/contrib/topogen/ibsmd-topogen" torus --dims 2x2x3 --hosts-per-switch 1 \
	-o "$tmp/torus.topo" || exit 99
"$top_builddir/ibsmd" --backend "sim:$tmp/torus.topo" --db "$tmp/torus.db" --once \
	> "$tmp/ibsmd.log" 2>&1 || { cat "$tmp/ibsmd.log"; exit 99; }
"$SMQ" --db "$tmp/torus.db" topology --format dot > "$tmp/torus.gv" || fail "dot on the torus"
[ "$(grep -c 'rank=same' "$tmp/torus.gv")" = 1 ] && [ "$(grep 'rank=same' "$tmp/torus.gv" |
	grep -o '"0x' | wc -l)" = 12 ] || fail "the torus's switches are not all leaves: $(grep rank "$tmp/torus.gv")"
# a description with controls and bytes that are not UTF-8 stays inside its string
"$top_builddir/tests/check_smquery_mkdb" nasty "$tmp/nasty.db" || exit 99
"$SMQ" --db "$tmp/nasty.db" topology --format dot > "$tmp/nasty.gv" || fail "dot on nasty.db"
sed 's/\\\\//g; s/\\"//g' "$tmp/nasty.gv" | awk -F'"' 'NF % 2 == 0 { bad++ } END { exit bad > 0 }' ||
	fail "topology --format dot: a quote escapes its string: $(grep -i bad "$tmp/nasty.gv")"
"$SMQ" --db "$tmp/ft.db" topology --format ibnetdiscover > "$tmp/ibnd" &&
	"$SMQ" --db "$tmp/ft.db" topology | cmp -s - "$tmp/ibnd" ||
	fail "topology --format ibnetdiscover is not the default output"
# the map: one page that fetches nothing, its data whole
"$SMQ" --db "$tmp/ft.db" map -o "$tmp/fabric.html" 2> "$tmp/err" && [ ! -s "$tmp/err" ] ||
	fail "smquery map: $(cat "$tmp/err")"
grep -q '<meta http-equiv="Content-Security-Policy" content="default-src '"'none'"';' "$tmp/fabric.html" ||
	fail "the map has no Content-Security-Policy forbidding fetches"
# no reference to anything outside the file (the SVG namespace is a name, not a fetch)
sed 's|http://www.w3.org/2000/svg||g' "$tmp/fabric.html" |
	grep -n -i -E 'https?:|src=|href=|url\(|@import|fetch\(|XMLHttpRequest|import\(' &&
	fail "the map refers to something outside itself"
"$SMQ" --db "$tmp/ft.db" map > "$tmp/stdout.html" && cmp -s "$tmp/fabric.html" "$tmp/stdout.html" ||
	fail "smquery map without -o does not write the page on stdout"
# -o over an old page replaces it whole (a new file renamed over it: another
# name of the old file keeps the old page), through a symbolic link its target;
# a directory and a missing directory are refused, a device written in place
mkdir "$tmp/maps"
echo "old page" > "$tmp/maps/old.html"
ln "$tmp/maps/old.html" "$tmp/maps/hardlink.html"
ln -s old.html "$tmp/maps/symlink.html"
"$SMQ" --db "$tmp/ft.db" map -o "$tmp/maps/symlink.html" || fail "map -o over a symbolic link"
[ -L "$tmp/maps/symlink.html" ] && cmp -s "$tmp/maps/old.html" "$tmp/fabric.html" ||
	fail "map -o through a symbolic link: the link or its target not as expected"
[ "$(cat "$tmp/maps/hardlink.html")" = "old page" ] ||
	fail "map -o rewrote the old page in place (not replaced whole)"
for bad in "$tmp/maps" "$tmp/missing/fabric.html"; do
	"$SMQ" --db "$tmp/ft.db" map -o "$bad" > /dev/null 2> "$tmp/err" && fail "map -o $bad: accepted"
done
"$SMQ" --db "$tmp/ft.db" map -o /dev/null && [ -c /dev/null ] || fail "map -o /dev/null"
[ "$(ls "$tmp/maps")" = "$(printf 'hardlink.html\nold.html\nsymlink.html')" ] ||
	fail "map -o left files behind: $(ls "$tmp/maps")"
[ ! -e "$tmp/missing" ] || fail "map -o created a directory"
# the data: every switch, CA and link, and each switch's LFT unpacked as
# `smquery lft` shows it (the packing of smq_map_lz.c, unpacked in Python)
if command -v python3 > /dev/null; then
	for sw in $("$SMQ" --db "$tmp/ft.db" switches | awk 'NR > 1 { print $1 }'); do
		"$SMQ" --db "$tmp/ft.db" --json lft "$sw" > "$tmp/lft-$sw.json" || fail "lft $sw"
	done
	python3 - "$tmp" << 'PY' || fail "the map's data"
import glob, json, re, sys
tmp = sys.argv[1]
page = open(tmp + "/fabric.html", encoding="utf-8").read()
data = json.loads(re.search(r'<script type="application/json" id="fabric">(.*?)</script>', page, re.S).group(1))
assert (len(data["sw"]), len(data["ca"]), len(data["ln"])) == (12, 32, 32), "counts"
assert (data["version"], data["scale"], data["pb"]) == (2, "absolute", []), "version, scale, problems"
assert [s[3] for s in data["sw"]] == [1] * 4 + [0] * 8, "tiers"
assert sorted(p[0][6] for p in (c[3] for c in data["ca"])) == [0] * 32, "flags"
assert all(len(l) == 6 for l in data["ln"]), "link values without a counter pass"
def unpack(b, n):
    import base64
    b, out, i = base64.b64decode(b), bytearray(), 0
    def varint():
        nonlocal i
        v = s = 0
        while True:
            c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
            if not c & 0x80: return v
    while i < len(b):
        t = b[i]; i += 1
        if t < 0x80:
            out += b[i:i + t + 1]; i += t + 1
        else:
            ln = (t & 0x7f) + 3 + (varint() if t & 0x7f == 0x7f else 0)
            d = varint()
            for _ in range(ln): out.append(out[-d])
    assert len(out) == n, "length %d, want %d" % (len(out), n)
    return out
for k, sw in enumerate(data["sw"]):
    lft = unpack(data["lft"][k], data["top"] + 1)
    want = json.load(open("%s/lft-%s.json" % (tmp, sw[0])))
    for e in want["entries"]:
        assert lft[e["lid"]] == e["port"], "switch %s lid %d" % (sw[2], e["lid"])
    assert sum(1 for p in lft if p != 0xff) == want["valid"], "valid entries of " + sw[2]
PY
fi
# a hot link: values from the newest counter pass (check_smquery_mkdb's
# small.db: leaf-1[7] sent 1.5e9 words in 60 s, 100 MB/s, 2.5% of its 4X QDR)
"$top_builddir/tests/check_smquery_mkdb" small "$tmp/small.db" || exit 99
"$SMQ" --db "$tmp/small.db" map -o "$tmp/small.html" || fail "smquery map on small.db"
if command -v python3 > /dev/null; then
	python3 - "$tmp/small.html" << 'PY' || fail "the map's link values"
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r'<script type="application/json" id="fabric">(.*?)</script>', page, re.S).group(1))
sw = [s[2] for s in data["sw"]]
hot = [l for l in data["ln"] if (sw[l[0]], l[1]) == ("leaf-1", 7) or (sw[l[2]], l[3]) == ("leaf-1", 7)]
assert len(hot) == 1 and hot[0][6] == 2.5, "leaf-1[7]: %s" % hot
values = [l[6] for l in data["ln"]] + [p[8] for c in data["ca"] for p in c[3]]
assert max(values) == 2.5, "the hot link is the reddest: %s" % values
# node02's link carried 50 MB/s on its slower rate; node01's nothing
ports = {c[1] + "/" + str(p[0]): p[8] for c in data["ca"] for p in c[3]}
assert ports["node01 mlx5_0/1"] == 0, ports
assert data["value"] == "load %", data["value"]
PY
	# by errors: leaf-1[1] to node01 counted 12 symbol errors and a link
	# downed in 60 s, 0.22/s, the only link with errors
	"$SMQ" --db "$tmp/small.db" map --by errors -o "$tmp/errors.html" || fail "map --by errors"
	python3 - "$tmp/errors.html" << 'PY' || fail "the map's error values"
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r'<script type="application/json" id="fabric">(.*?)</script>', page, re.S).group(1))
assert data["value"] == "errors/s", data["value"]
ports = {c[1] + "/" + str(p[0]): p[8] for c in data["ca"] for p in c[3]}
assert ports["node01 mlx5_0/1"] == 0.22, ports
assert max([l[6] for l in data["ln"]] + list(ports.values())) == 0.22, "the erring link is the reddest"
PY
fi
usage_error "map: --by takes data or errors, not 'load'" map --by load
usage_error "map: --scale takes absolute or relative, not 'log'" map --scale log
usage_error "map: unexpected '--scale'" map --scale
"$SMQ" --db "$tmp/ft.db" map --scale relative --by data | grep -q '"scale":"relative",' ||
	fail "map --scale relative"
# problems the snapshot's links do not carry: a second sweep finds L0[5] -
# S0 down, H3 gone (dead: its link went with it) and nothing answering where
# H7 (dead from the start) hangs: "down", "lost" and "silent", in that order
printf '0 dead "H7"\n' > "$tmp/dead7.events"
printf '0 dead "H7"\n0 dead "H3"\n0 link-down "L0"[5]\n' > "$tmp/lost.events"
for ev in dead7 lost; do
	"$top_builddir/ibsmd" --backend "sim:$fabric,events=$tmp/$ev.events" --db "$tmp/lost.db" \
		--once > "$tmp/ibsmd.log" 2>&1 || { cat "$tmp/ibsmd.log"; exit 99; }
done
"$SMQ" --db "$tmp/lost.db" map -o "$tmp/lost.html" || fail "smquery map on lost.db"
if command -v python3 > /dev/null; then
	python3 - "$tmp/lost.html" << 'PY' || fail "the map's problems"
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r'<script type="application/json" id="fabric">(.*?)</script>', page, re.S).group(1))
def name(ref):
    return data["sw"][ref][2] if ref >= 0 else data["ca"][-1 - ref][1]
pb = [(p[0], p[1], sorted((name(r), port) for r, port in p[2])) for p in data["pb"]]
assert [p[0] for p in pb] == ["down", "lost", "silent"], pb
assert pb[0][1] == 'link down: "L0" port 5 - "S0" port 1' and pb[0][2] == [("L0", 5), ("S0", 1)], pb[0]
assert re.fullmatch(r'unreachable: "H3" 0x[0-9a-f]{16} is gone from the fabric, 1 link down', pb[1][1]), pb[1]
assert len(pb[1][2]) == 1 and pb[1][2][0][0].startswith("L"), pb[1]
assert re.fullmatch(r'no answer behind "L\d" port \d: NodeInfo at DR path [\d,]+: no answer', pb[2][1]), pb[2]
assert all(p[3] > 0 for p in data["pb"]), "when found"
PY
fi
usage_error "map: unexpected '--by'" map -o "$tmp/x.html" --by
usage_error "map: unexpected '-x'" map -x y
usage_error "map: the map is a page, it has no --json form" --json map
"$SMQ" --db "$tmp/ft.db" map -o "$tmp/none/fabric.html" 2> "$tmp/err" &&
	fail "smquery map into a missing directory succeeded"
grep -q "none/fabric.html: No such file or directory" "$tmp/err" || fail "map -o: $(cat "$tmp/err")"
"$SMQ" --db "$tmp/missing.db" map -o "$tmp/gone.html" 2> /dev/null && fail "map on no store"
[ ! -e "$tmp/gone.html" ] || fail "smquery map left a page behind after failing"

usage_error "topology: bad --format 'svg' (ibnetdiscover or dot)" topology --format svg
usage_error "topology: unexpected '--format'" topology --format
usage_error "topology: unexpected 'dot'" topology dot x
usage_error "topology: --format dot has no --json form" --json topology --format dot

finish
