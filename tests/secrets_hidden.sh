#!/bin/sh
# SPDX-License-Identifier: MIT
#
# secrets_hidden.sh - nothing ibsmd prints or stores shows a secret.
#
# A configuration with a known SM_Key and M_Key secret: `--check-config -v`
# shows neither (only that each is set, as "<redacted>") and, fed back, is
# refused with "redacted value"; the file readable by every user is warned
# about; a malformed secret is refused without being echoed.  Then ibsmd runs on the sim backend at log level debug with a
# metrics file, first --once, then as a daemon answering `smquery sm-status`
# and re-reading a changed secret on SIGHUP: the secrets, and every per-port
# M_Key it stored, appear in no output, log, metrics file, smquery output
# (text and JSON), OpenSM dump, map page, nor anywhere in the store but its
# mkey table, which other users cannot read.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd sqlite3 "reads the stored keys"
make_workdir secrets_hidden
sm=
at_exit '[ -n "$sm" ] && kill "$sm" 2>/dev/null'
umask 022
secret="tenant-7 mkey secret"
rotated="tenant-7 rotated secret"
smkey=5ec2e7a1b2c3d4e5
smkey_dec=$(printf '%d' "0x$smkey")

write_config()	# SECRET
{
	cat >"$work/ibsmd.yaml" <<EOC
backend: sim:$top_srcdir/tests/topo/twoswitch.topo
db: $work/sm.db
socket: $work/sm.sock
metrics_file: $work/ibsmd.prom
sm_key: 0x$smkey
log:
  level: debug
sweep:
  interval: 0
mkey:
  secret: "$1"
  protect: 2
EOC
}

# The stored M_Keys: their last 12 hex digits (any printed form of the key
# holds them) and their decimal values as the store holds them.
stored_keys()
{
	sqlite3 "$work/sm.db" "SELECT substr(printf('%016x', mkey), 5) FROM mkey;
		SELECT mkey FROM mkey"
}

leaks()	# FILE...: fail for every secret or stored key one of them shows
{
	for f in "$@"; do
		for needle in "$secret" "$rotated" "$smkey" "$smkey_dec" $keys; do
			grep -qiF -- "$needle" "$f" && fail "${f#"$work"/} shows '$needle'"
		done
	done
	return 0
}

# --check-config -v: set, not shown; fed back, refused
write_config "$secret"
keys=
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --check-config -v >"$work/printed.yaml" \
	2>"$work/printed.err" || fail "--check-config -v: $(cat "$work/printed.err")"
leaks "$work/printed.yaml" "$work/printed.err"
n=$(grep -c '^ *[a-z_]*: "<redacted>"$' "$work/printed.yaml")
[ "$n" = 2 ] || fail "$n keys printed as <redacted>, want 2 (sm_key, mkey.secret)"
grep -q "secret, not set; .*" "$work/printed.yaml" || fail "mkey.key is not said to be unset"
"$top_builddir/ibsmd" -c "$work/printed.yaml" --check-config >"$work/out" 2>&1 &&
	fail "the printed configuration with <redacted> secrets was accepted"
grep -q "printed.yaml:[0-9]*:9: sm_key: redacted value.*give the real key" "$work/out" ||
	fail "fed back: $(cat "$work/out")"
# a file that sets a secret and every user may read: a warning, still good
grep -q "^ibsmd: warning: sm_key: set in $work/ibsmd.yaml, which every user may read (mode 0644)" \
	"$work/printed.err" || fail "no warning for a readable file: $(cat "$work/printed.err")"
chmod 600 "$work/ibsmd.yaml"
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --check-config >"$work/out" 2>&1 ||
	fail "--check-config: $(cat "$work/out")"
grep -q "warning" "$work/out" && fail "a warning for a private file: $(cat "$work/out")"

# a malformed secret is named, not echoed
printf 'sm_key: 0%s\nmkey:\n  secret: "%s\\x01"\n' "$smkey" "$secret" >"$work/bad.yaml"
"$top_builddir/ibsmd" -c "$work/bad.yaml" --check-config >"$work/bad.out" 2>&1 &&
	fail "a leading zero in sm_key was accepted"
grep -q "bad.yaml:1:9: sm_key: the value has a leading zero" "$work/bad.out" ||
	fail "sm_key refused with: $(cat "$work/bad.out")"
sed -i 1d "$work/bad.yaml"
"$top_builddir/ibsmd" -c "$work/bad.yaml" --check-config >>"$work/bad.out" 2>&1 &&
	fail "a control character in mkey.secret was accepted"
grep -q "mkey.secret: a control character at byte 21 of the value" "$work/bad.out" ||
	fail "mkey.secret refused with: $(cat "$work/bad.out")"
leaks "$work/bad.out"

# --once at debug level: stdout, stderr (the log), the metrics file
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --once >"$work/once.out" 2>&1 ||
	fail "--once: $(tail -n 5 "$work/once.out")"
# the store: others cannot read it (the WAL files are kept at close) ...
for f in sm.db sm.db-wal sm.db-shm; do
	mode=$(stat -c %a "$work/$f")
	[ "$mode" = 640 ] || fail "$f: mode $mode, want 640"
done
keys=$(stored_keys)
[ "$(echo "$keys" | wc -l)" = 16 ] || fail "stored keys: '$keys', want 8 ports"
leaks "$work/once.out" "$work/ibsmd.prom"
# ... and only its mkey table holds keys
sqlite3 "$work/sm.db" .dump | grep -v '^INSERT INTO mkey ' >"$work/dump.sql"
leaks "$work/dump.sql"

# every smquery reading of the store, text and JSON, and the files it writes
smq() { "$top_builddir/smquery" --db "$work/sm.db" "$@"; }
for cmd in nodes switches cas links "ports H1" "ports SA" "ports HD" topology \
	"topology --format dot" events sweeps metrics counters status "lft SA" \
	"route H0 H3" partitions mcast isolated; do
	# shellcheck disable=SC2086	# the command's words
	smq $cmd >"$work/q.txt" 2>&1 || fail "smquery $cmd: $(cat "$work/q.txt")"
	# shellcheck disable=SC2086
	smq --json $cmd >"$work/q.json" 2>&1 || grep -q "has no --json form" "$work/q.json" ||
		fail "smquery --json $cmd: $(cat "$work/q.json")"
	leaks "$work/q.txt" "$work/q.json"
done
smq dump-opensm "$work/osm" >"$work/q.txt" 2>&1 || fail "dump-opensm: $(cat "$work/q.txt")"
smq map -o "$work/map.html" >>"$work/q.txt" 2>&1 || fail "map: $(cat "$work/q.txt")"
leaks "$work/q.txt" "$work/osm"/* "$work/map.html"

# the daemon: sm-status over the socket, and SIGHUP with a new secret
log=$work/ibsmd.log
"$top_builddir/ibsmd" -c "$work/ibsmd.yaml" --foreground >"$log" 2>&1 &
sm=$!
wait_for_log "$log" "subnet up" 1 20 || fail "no 'subnet up': $(tail -n 5 "$log")"
for _ in $(seq 50); do [ -S "$work/sm.sock" ] && break; sleep 0.1; done
"$top_builddir/smquery" --socket "$work/sm.sock" sm-status >"$work/q.txt" 2>&1 ||
	fail "sm-status: $(cat "$work/q.txt")"
"$top_builddir/smquery" --socket "$work/sm.sock" --json sm-status >"$work/q.json" 2>&1 ||
	fail "sm-status --json: $(cat "$work/q.json")"
leaks "$work/q.txt" "$work/q.json"
write_config "$rotated"
kill -HUP "$sm"
wait_for_log "$log" "subnet up" 2 20 || fail "no heavy sweep after the new secret"
grep -q "SIGHUP: mkey.secret changed" "$log" || fail "the reload does not name mkey.secret"
kill -TERM "$sm"
wait "$sm"
sm=
keys=$(stored_keys)	# the rotated ones too
leaks "$log" "$work/ibsmd.prom"
finish
