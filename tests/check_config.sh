#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check_config.sh - `ibsmd --check-config` end to end: -v prints defaults <
# file < command line, and what it prints, given back as the file, prints the
# same again; meaning is checked (a plugin that does not exist, the store as
# socket) with the reason on standard error and exit status 2.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
make_workdir check_config
ibsmd() { "$top_builddir/ibsmd" "$@"; }

cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$top_srcdir/contrib/fabrics/fattree-2l-r8.topo
db: $work/sm.db
routing: [updn, minhop]
sweep:
  window: 32
EOC
ibsmd -c "$work/ibsmd.yaml" --check-config -v --routing ftree,minhop --db "$work/cli.db" \
	>"$work/first.yaml" 2>"$work/err" || fail "check-config -v: $(cat "$work/err")"
grep -qx "routing: \[ftree, minhop\]" "$work/first.yaml" || fail "--routing does not win over the file"
grep -qx "db: $work/cli.db" "$work/first.yaml" || fail "--db does not win over the file"
grep -qx "  window: 32" "$work/first.yaml" || fail "the file does not win over the defaults"
grep -qx "  retries: 3" "$work/first.yaml" || fail "a default is missing"
ibsmd -c "$work/first.yaml" --check-config -v >"$work/second.yaml" 2>"$work/err" ||
	fail "the printed configuration does not read back: $(cat "$work/err")"
cmp -s "$work/first.yaml" "$work/second.yaml" ||
	fail "printed twice, two texts: $(diff "$work/first.yaml" "$work/second.yaml")"
if ! ibsmd -c "$work/ibsmd.yaml" --check-config >"$work/out" 2>&1 ||
	! grep -q "configuration OK" "$work/out"; then
	fail "a good file: $(cat "$work/out")"
fi

expect_refused()	# NEEDLE ARGS...: exit 2 with NEEDLE on standard error
{
	needle=$1
	shift
	ibsmd "$@" --check-config >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "$*: exit $rc, not 2"
	grep -qF -- "$needle" "$work/err" || fail "$*: '$(cat "$work/err")' lacks '$needle'"
}
expect_refused "routing: '$work/nosuch.so' is not a built-in engine" \
	-c "$work/ibsmd.yaml" --routing "$work/nosuch.so"
expect_refused "socket: the same file as db ($work/sm.db)" \
	-c "$work/ibsmd.yaml" --control-socket "$work/sm.db"
expect_refused "dup-key.yaml:3:1: duplicate key 'lmc'" -c "$top_srcdir/tests/config/dup-key.yaml"
# --port goes through the file's key: its worst values are refused the same way
expect_refused "--port: port: 'mlx5_0:1' is listed twice" -c "$work/ibsmd.yaml" --port mlx5_0:1,mlx5_0:1
expect_refused "--port: port: 'mlx5_0' is neither DEVICE:PORT" -c "$work/ibsmd.yaml" --port mlx5_0
ibsmd -c "$work/ibsmd.yaml" --port SM:2,0x10 --check-config -v 2>&1 | grep -qx "port: \[SM:2, 0x10\]" ||
	fail "--port does not set the port list"
# the partitions file is read by --check-config too, errors at FILE:LINE:COLUMN;
# the example in etc/ is good
printf 'partitions:\n  - name: a\n    pkey: 2\n  - name: b\n    pkey: 0x0002\n' >"$work/parts.yaml"
cp "$work/ibsmd.yaml" "$work/parts-cfg.yaml"
echo "partitions: $work/parts.yaml" >>"$work/parts-cfg.yaml"
expect_refused "partitions: $work/parts.yaml:5:11: pkey 0x0002 given twice (first at line 2)" \
	-c "$work/parts-cfg.yaml"
# pointed at a file that is not a partitions file (/etc/shadow's form): a short
# token of it in the error, never the line
printf 'root:$y$j9T$Xs1MaFakeSalt$AbCdEfGhIjKlMnOp:19700:0:99999:7:::\n' >"$work/shadow"
cp "$work/ibsmd.yaml" "$work/parts-cfg.yaml"
echo "partitions: $work/shadow" >>"$work/parts-cfg.yaml"
expect_refused "partitions: $work/shadow:1: '...' is no port GUID" \
	-c "$work/parts-cfg.yaml"
grep -q 'j9T\|AbCdEf' "$work/err" && fail "the shadow line is quoted: $(cat "$work/err")"
expect_refused "shadow:1:1: unknown key 'root...'" -c "$work/shadow"
grep -q 'j9T\|AbCdEf' "$work/err" && fail "the shadow line is quoted: $(cat "$work/err")"
cp "$work/ibsmd.yaml" "$work/parts-cfg.yaml"
echo "partitions: $top_srcdir/etc/partitions.yaml" >>"$work/parts-cfg.yaml"
ibsmd -c "$work/parts-cfg.yaml" --check-config >"$work/out" 2>&1 ||
	fail "etc/partitions.yaml: $(cat "$work/out")"

# routing options: each read by an engine of the chain (ftree's root with
# minhop alone was passed silently), a plugin in the chain may read any; a
# GUID option holds a GUID, a GUID file (OpenSM's) reads, else FILE:LINE
cp "$work/ibsmd.yaml" "$work/opts.yaml"
printf '0x10 spine\n# comment\n0x20\n' >"$work/roots"
echo "routing_options: [root=0x30, root_guid_file=$work/roots]" >>"$work/opts.yaml"
for chain in ftree updn,minhop adaptive; do
	ibsmd -c "$work/opts.yaml" --routing $chain --check-config >"$work/out" 2>&1 ||
		fail "root options with $chain: $(cat "$work/out")"
done
expect_refused "routing_options: 'root=0x30': no engine of the chain reads 'root' (minhop reads none; dfsssp reads vls)" \
	-c "$work/opts.yaml" --routing minhop,dfsssp
: >"$work/plugin.so"
ibsmd -c "$work/opts.yaml" --routing "$work/plugin.so" --check-config >"$work/out" 2>&1 ||
	fail "a plugin in the chain may read any option: $(cat "$work/out")"
printf '0x10\nspine-2\n' >"$work/roots"
expect_refused "routing_options: root_guid_file: $work/roots:2: 'spine-2' is not a GUID" \
	-c "$work/opts.yaml" --routing ftree
rm "$work/roots"
expect_refused "routing_options: root_guid_file: $work/roots: No such file or directory" \
	-c "$work/opts.yaml" --routing ftree
cp "$work/ibsmd.yaml" "$work/opts.yaml"
echo "routing_options: [root=spine1]" >>"$work/opts.yaml"
expect_refused "routing_options: 'root=spine1': not a GUID" -c "$work/opts.yaml" --routing updn

# A file the daemon writes must not be its own configuration: refused when it
# starts (not only by --check-config), and the configuration left as it was.
cp "$work/ibsmd.yaml" "$work/self.yaml"
echo "metrics_file: $work/self.yaml" >>"$work/self.yaml"
cp "$work/self.yaml" "$work/self.before"
expect_refused "metrics_file: is the configuration file itself" -c "$work/self.yaml"
ibsmd -c "$work/self.yaml" --once >"$work/out" 2>&1 && fail "ibsmd ran writing its metrics over its own configuration"
cmp -s "$work/self.yaml" "$work/self.before" || fail "the configuration file was overwritten"

# The metrics' keys: words from their lists only, each once, addresses numeric
metrics_refused()	# NEEDLE YAML-LINES...: refused with NEEDLE (FILE:LINE:COLUMN or key)
{
	needle=$1
	shift
	cp "$work/ibsmd.yaml" "$work/m.yaml"
	printf '%s\n' "metrics_file: $work/m.prom" "$@" >>"$work/m.yaml"
	expect_refused "$needle" -c "$work/m.yaml"
}
metrics_refused "metrics.names: 'opensm' is not one of treydock, ibsmd" "metrics:" "  names: opensm"
metrics_refused "metrics.names: must not be empty" "metrics:" '  names: ""'
metrics_refused "metrics.ports: 'hca' is not one of switch-switch, switch-ca, ca" \
	"metrics:" "  ports: [switch-ca, hca]"
metrics_refused "metrics.ports: 'ca' is listed twice" "metrics:" "  ports: [ca, ca]"
metrics_refused "metrics.counters: at least 1 entry" "metrics:" "  counters: []"
metrics_refused "metrics.counters: 'Errors' is not one of data, casts, wait, errors, info" \
	"metrics:" "  counters: [Errors]"
metrics_refused "metrics.max_series: expected a whole number" "metrics:" "  max_series: -1"
metrics_refused "metrics.max_series: expected a whole number" "metrics:" \
	"  max_series: 18446744073709551616"
for bad in 0 65536 09683 localhost:9683 "1.2.3.4:" ":9683" "::1:9683" "[::1]9683" \
	"1.2.3.4:96a3" "[]:9683" "300.1.1.1:9683"; do
	metrics_refused "metrics.listen: " "metrics:" "  listen: \"$bad\""
done
cp "$work/ibsmd.yaml" "$work/m.yaml"
printf 'metrics:\n  listen: "9683"\n' >>"$work/m.yaml"
expect_refused "metrics.listen: serves metrics_file: set it too" -c "$work/m.yaml"
for good in 9683 127.0.0.1:9683 "[::1]:9683" 0.0.0.0:1; do
	cp "$work/ibsmd.yaml" "$work/m.yaml"
	printf 'metrics_file: %s\nmetrics:\n  listen: "%s"\n  ports: [ca]\n' "$work/m.prom" "$good" \
		>>"$work/m.yaml"
	ibsmd -c "$work/m.yaml" --check-config >"$work/out" 2>&1 ||
		fail "metrics.listen: $good refused: $(cat "$work/out")"
done
finish
